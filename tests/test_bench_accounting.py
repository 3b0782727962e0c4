"""benchmarks/bench_accounting.py: its classification logic, its exact references, and its quick run's correctness
columns.

Times are never asserted. The references here are not the script's: the k-fold randomized response sums are written
again in exact rational arithmetic (at ε₀ = log 3, ε = log 2 every term is a fraction), the one-step subsampled
Gaussian by quadrature of its densities, the Gaussian by its closed form. A peer's classification is recomputed from
the test's own reference, so no peer's behaviour is pinned (only that the table reports it truthfully).
"""

import importlib.util
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_accounting.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("bench_accounting", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


bench = _load_script()


# --- classification against hand-made brackets -------------------------------------------------------------------


@pytest.mark.parametrize("value, lower, upper, expected", [
    (1.5, 1, 2, "inside"), (1, 1, 2, "inside"), (2, 1, 2, "inside"), (0, 0, 0, "inside"),
    (2.0000001, 1, 2, "pessimistic"), (0.9999999, 1, 2, "underestimate"),
    (1.6177, mpmath.mpf("1.82823"), mpmath.mpf("1.82825"), "underestimate"),   # Opacus GDP on the headline
    (1e-300, 0, 0, "pessimistic"),
])
def test_classify(value, lower, upper, expected):
    assert bench.classify(value, lower, upper) == expected


@pytest.mark.parametrize("value, lower, upper, at_least, at_most", [
    (1.001, 1, 1, 2.99, 3.01),                   # a point bracket: the plain relative error
    (1.5, 1, 2, 0, 0.61),                        # inside a wide bracket: it certifies almost nothing
    (1.82824, mpmath.mpf("1.828239"), mpmath.mpf("1.828241"), 5.9, 6.3),
    (2.0, 1, 1, 0, 0.01),                        # 100% off
    (0.0, 0, 0, 50, 50),
])
def test_digits_against_are_the_worst_over_the_bracket(value, lower, upper, at_least, at_most):
    assert at_least <= bench.digits_against(value, lower, upper) <= at_most


def test_needs_narrower_only_when_the_answer_is_inside_a_bracket_of_positive_width():
    assert bench.needs_narrower(1.5, 1, 2)                                  # anything in [1, 2] would be inside
    assert not bench.needs_narrower(2.5, 1, 2)                              # outside: already decided
    assert not bench.needs_narrower(0.5, 1, 2)
    assert not bench.needs_narrower(1.0, 1, 1)                              # a point


def test_holds_allows_only_the_rounding_of_the_parameters():
    one = mpmath.mpf(1)
    assert bench.holds(one, one, one + mpmath.mpf(10) ** -(bench.SYMDP_DPS + 3))
    assert not bench.holds(one, one, one + mpmath.mpf(10) ** -(bench.SYMDP_DPS - 3))


# --- the exact references against exact rational sums ------------------------------------------------------------


def _rr_delta_exact(k: int) -> Fraction:
    """k-fold binary randomized response at ε₀ = log 3 (p = 3/4), δ at ε = log 2 (e^ε = 2), every term a fraction:
    Σ_j C(k, j) (3^j - 2·3^(k-j))_+ / 4^k."""
    return sum((Fraction(math.comb(k, j) * max(0, 3**j - 2 * 3 ** (k - j)), 4**k) for j in range(k + 1)), Fraction(0))


@pytest.mark.parametrize("k", [1, 2, 7, 50, 301])
def test_binary_loss_delta_is_the_exact_binomial_sum(k):
    with mpmath.workdps(60):
        value = bench.binary_loss_delta(k, mpmath.log(3), mpmath.log(2))
        exact = _rr_delta_exact(k)
        assert abs(value - mpmath.mpf(exact.numerator) / exact.denominator) <= mpmath.mpf(10) ** -50 * max(value, 1)


@pytest.mark.parametrize("k, eps0, delta", [(10, "0.5", "1e-3"), (50, "0.1", "1e-5"), (200, "0.05", "1e-8")])
def test_binary_loss_epsilon_inverts_the_sum(k, eps0, delta):
    """δ(ε(δ)) = δ, and δ is larger just below: the inverse is the least ε."""
    with mpmath.workdps(40):
        a, d = mpmath.mpf(eps0), mpmath.mpf(delta)
        eps = bench.binary_loss_epsilon(k, a, d)
        assert eps > 0
        assert abs(bench.binary_loss_delta(k, a, eps) - d) < mpmath.mpf(10) ** -30
        assert bench.binary_loss_delta(k, a, eps * (1 - mpmath.mpf(10) ** -10)) > d


def test_kov_lattice_values_are_the_binomial_sum():
    with mpmath.workdps(40):
        a = mpmath.log(3)
        for i in range(1, 6):
            assert abs(bench.kov_delta(10, a, i) - bench.binary_loss_delta(10, a, (10 - 2 * i) * a)) < 1e-35


def test_sampled_gaussian_reference_against_quadrature():
    with mpmath.workdps(25):
        q, eps = mpmath.mpf("0.01"), mpmath.mpf(1)

        def gap(x):
            p = (1 - q) * mpmath.npdf(x) + q * mpmath.npdf(x, 1)
            return max(0, p - mpmath.exp(eps) * mpmath.npdf(x))

        x_star = mpmath.log((mpmath.exp(eps) - 1 + q) / q) + mpmath.mpf(1) / 2
        by_quad = mpmath.quad(gap, [x_star, x_star + 2, x_star + 10, mpmath.inf])
        assert abs(bench.sampled_gaussian_delta(eps, q, 1) - by_quad) < mpmath.mpf(10) ** -18 * by_quad


# --- the quick run -----------------------------------------------------------------------------------------------




def _row(quick, name):
    return next(r for r in quick["rows"] if r["config"]["name"] == name)


def _own_reference(config) -> mpmath.mpf | None:
    """The test's own value of a quick row's quantity (50 digits), or None for the rows left to the engine."""
    with mpmath.workdps(50):
        k, at = config["steps"], mpmath.mpf(config["at"])
        if config["mechanism"] in ("randomized response", "discrete laplace") and config["question"] == "delta":
            a = mpmath.mpf(config["eps0"])
            p = mpmath.exp(a) / (1 + mpmath.exp(a))
            return mpmath.fsum(max(0, mpmath.binomial(k, j) * (p**j * (1 - p) ** (k - j)
                                                               - mpmath.exp(at) * p ** (k - j) * (1 - p) ** j))
                               for j in range(k + 1))
        if config["mechanism"] == "laplace" and k == 1 and config["question"] == "delta":   # 1 - e^{(ε - 1/b)/2}
            return 1 - mpmath.exp((at - 1 / mpmath.mpf(config["sigma"])) / 2)
        if config["mechanism"] == "dp_accounting event" and config["event"] == "Gaussian":   # σ = 2: μ = shift/2
            mu = mpmath.mpf(2 if config["relation"] == "replace-one" else 1) / 2
            return mpmath.ncdf(-at / mu + mu / 2) - mpmath.exp(at) * mpmath.ncdf(-at / mu - mu / 2)
        if config["name"] == "ε = 0 is correct":   # δ(0) = q TV(N(1,1), N(0,1)) = q (2Φ(1/2) - 1) ≈ 4.02e-4 < δ
            q = mpmath.mpf(config["q"])
            assert q * (2 * mpmath.ncdf(0.5) - 1) < at
            return mpmath.mpf(0)
    return None


def _brackets_hold_the_test_references(quick):
    checked = 0
    for row in quick["rows"]:
        ref, bracket = _own_reference(row["config"]), row["symdp"]
        if ref is None or bracket["lower"] is None:
            continue
        slack = mpmath.mpf(10) ** -25 * max(abs(ref), 1e-300)
        assert mpmath.mpf(bracket["lower"]) - slack <= ref <= mpmath.mpf(bracket["upper"]) + slack, row["config"]
        assert bracket["certified"]
        checked += 1
    assert checked >= 3   # the KOV δ row, ε = 0 and Laplace δ(0) at least: the engine reaches them today


def _every_answer_classified_truthfully(quick):
    """Every answer of a row with a bracket is classified, in one of three classes, consistently with its bracket;
    where the test has its own reference, the class is the one that reference gives (a point bracket)."""
    for row in quick["rows"]:
        bracket = row["symdp"]
        ref = _own_reference(row["config"])
        for answer in row["answers"]:
            if answer["value"] is None:
                assert answer["error"] or answer["not_answered"]
                continue
            if bracket["lower"] is None:
                assert answer["classification"] == ""
                continue
            assert answer["classification"] == bench.classify(answer["value"], mpmath.mpf(bracket["lower"]),
                                                              mpmath.mpf(bracket["upper"]))
            if ref is not None and abs(answer["value"] - float(ref)) > 1e-12 * max(float(ref), 1e-300):
                expected = "pessimistic" if answer["value"] > ref else "underestimate"
                assert answer["classification"] == expected, (row["config"]["name"], answer)


def _crashes_are_one_line_cells(quick):
    """Peers that fail leave a one-line error and the table goes on (ε = 0 row: Opacus's GDP root finder fails)."""
    for row in quick["rows"]:
        for answer in row["answers"]:
            assert "\n" not in answer["error"] and len(answer["error"]) <= 160


def _goals_are_there(quick):
    goals = {g["goal"]: g for g in quick["goals"]}
    exact = next(g for name, g in goals.items() if name.startswith("exact δ(ε) of 1000-fold"))
    assert "RR" in exact["measured"]
    assert all(g["met"] for g in quick["goals"])


def test_quick_run():
    """One run of ``--quick --json`` (the peers that are installed; seconds of imports), checked four ways: in one
    test, so that pytest-xdist's workers do not each run it."""
    result = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--json"], capture_output=True, text=True,
                            timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    quick = json.loads(result.stdout)
    _brackets_hold_the_test_references(quick)
    _every_answer_classified_truthfully(quick)
    _crashes_are_one_line_cells(quick)
    _goals_are_there(quick)
    _the_saved_run_prints_again(quick)
    _issue29_rows_are_there(quick)


def _issue29_rows_are_there(quick):
    """The quick run has a row of each of issue 29's sections; symdp's refusals are whole reasons, not crashes."""
    sections = {row["config"]["section"] for row in quick["rows"]}
    assert set(bench.SECTIONS) <= sections
    by_name = {row["config"]["name"]: row for row in quick["rows"]}
    events = quick["peers"].get("dp_accounting") is not None      # event rows are dp_accounting objects
    refusals = [("event ZCDp", "ZCDpEvent")] if events else []
    for name, refused in refusals:
        bracket = by_name[name]["symdp"]
        assert bracket["lower"] is None and bracket["error"].startswith("refused: ") and refused in bracket["error"]
    if not events:
        assert by_name["event ZCDp"]["symdp"]["error"].startswith("not run: dp_accounting is not installed")
    renyi = by_name["RDP α=2 headline"]["symdp"]
    assert renyi["certified"] and renyi["width"] is None
    for name in ("replace-one 1 step",) + (("event Gaussian", "event Gaussian, replace-one") if events else ()):
        assert by_name[name]["symdp"]["certified"], name


def _the_saved_run_prints_again(quick):
    """``--from-json`` rebuilds the rows of a saved run: the same brackets, answers and goals in the Markdown."""
    rows, goals = bench.from_json(quick)
    assert [r.config.name for r in rows] == [r["config"]["name"] for r in quick["rows"]]
    for row, saved in zip(rows, quick["rows"]):
        if saved["symdp"]["lower"] is not None:
            assert row.bracket.lower == mpmath.mpf(saved["symdp"]["lower"])
        assert [a.value for a in row.answers] == [a["value"] for a in saved["answers"]]
    table = bench.markdown(rows, goals)
    assert all(f"| {r.config.name} |" in table for r in rows)
    assert all(g["goal"] in table for g in quick["goals"])


# --- a peer's failures are cells, and the Markdown table says what the JSON says -------------------------------


def test_ask_peer_records_crashes_refusals_and_infinity(monkeypatch):
    def crashes(cfg):
        raise RuntimeError("Discrete mean differs\nfrom continuous mean")

    def refuses(cfg):
        raise bench.NotAnswered("answers ε at δ only")

    def prints_and_gives_up(cfg):
        print("not found")   # autodp prints to stdout: the JSON must stay parseable
        return float("inf")

    monkeypatch.setitem(bench.PEERS, "crashes", ("math", crashes))
    monkeypatch.setitem(bench.PEERS, "refuses", ("math", refuses))
    monkeypatch.setitem(bench.PEERS, "inf", ("math", prints_and_gives_up))
    cfg = bench.ROWS[0]
    crash = bench.ask_peer("crashes", cfg, timeout=10)
    assert crash.value is None and crash.error == "RuntimeError: Discrete mean differs from continuous mean"
    refusal = bench.ask_peer("refuses", cfg, timeout=10)
    assert refusal.value is None and refusal.not_answered == "answers ε at δ only" and not refusal.error
    infinite = bench.ask_peer("inf", cfg, timeout=10)
    assert infinite.value == float("inf") and "inf" in infinite.note
    assert bench.classify(infinite.value, 1, 2) == "pessimistic"


def test_markdown_marks_each_class():
    cfg = bench.Config("toy", bench.RR, 3, "delta", "1", eps0="1")
    bracket = bench.Bracket(lower=mpmath.mpf("0.1"), upper=mpmath.mpf("0.2"), certified=True, seconds=0.5)
    answers = [bench.PeerAnswer("low", value=0.05, seconds=0.1, classification="underestimate"),
               bench.PeerAnswer("high", value=0.3, seconds=0.1, classification="pessimistic"),
               bench.PeerAnswer("broken", error="ValueError: no")]
    table = bench.markdown([bench.Row(cfg, None, bracket, answers)], [])
    header, _, line = table.splitlines()
    assert header.split(" | ")[-3:] == ["low", "high", "broken |"]
    assert "0.05 ↓ UNDER" in line and "0.3 ↑" in line and "error: ValueError" in line


# --- issue 29's rows: relations, fixed batches, Rényi values, dp_accounting's events ----------------------------


def test_row_class_holds_a_fixed_batch_answer_against_its_own_bracket():
    bracket = bench.Bracket(lower=mpmath.mpf(1), upper=mpmath.mpf(2))
    fixed = bench.Config("r", bench.SGM, 10, "epsilon", "1e-5", sampling="fixed-batch", dataset=100, batch=1)
    assert [bench.row_class(fixed, value, bracket) for value in (0.5, 1.5, 2.5)] == \
        ["underestimate", "inside", "pessimistic"]
    assert bench.row_class(fixed, 1.5, bench.Bracket(error="refused: no pair")) == ""


def test_symdp_brackets_a_fixed_batch_row_with_the_batch_it_names():
    """The bracket of a fixed-batch row is the fixed batch's (rate b/n, replace-one), not a Poisson one's: it holds
    one step's advanced-joint-convexity profile (Balle, Barthe, Gaboardi 2018, Theorem 2; Balle and Wang 2018)."""
    cfg = bench.Config("r", bench.SGM, 1, "delta", "0.5", "0.1", "1", section="fixed-batch", relation="replace-one",
                       sampling="fixed-batch", dataset=100, batch=10)
    bracket = bench.symdp_issue29(cfg, 1e-6)
    with mpmath.workdps(30):
        eps0 = mpmath.log(1 + mpmath.expm1(mpmath.mpf("0.5")) / mpmath.mpf("0.1"))
        profile = mpmath.ncdf(1 - eps0 / 2) - mpmath.exp(eps0) * mpmath.ncdf(-1 - eps0 / 2)    # N(2, 1) against N(0, 1)
        expected = mpmath.mpf("0.1") * profile
    assert bracket.certified and bracket.lower <= expected <= bracket.upper, (bracket.lower, bracket.upper, expected)


@pytest.mark.parametrize("value, expected", [(0.5, "underestimate"), (1.0, "inside"), (1.5, "inside"),
                                             (2.0, "inside"), (2.0000001, "pessimistic")])
def test_row_class_of_a_renyi_row_is_adjudicated_as_any_other(value, expected):
    """R_α rows go through symdp.rdp.adjudicate: the same three classes as classify, the ends inside."""
    bracket = bench.Bracket(lower=mpmath.mpf(1), upper=mpmath.mpf(2))
    renyi = bench.Config("r", bench.SGM, 10, bench.RENYI, "2", "0.01", "1", section="rdp")
    assert bench.row_class(renyi, value, bracket) == expected == bench.classify(value, 1, 2)


def test_row_class_without_a_bracket_is_empty():
    cfg = bench.Config("r", bench.EVENT, 1, "epsilon", "1e-5", section="events", event="ZCDp")
    assert bench.row_class(cfg, 1.9, bench.Bracket(error="refused: a zCDP guarantee is a bound")) == ""


def test_shortfall_note_says_how_far_below():
    assert bench.shortfall_note(0.44, 1) == "below the bracket by 56% of it"
    assert bench.shortfall_note(0.995, 1) == "below the bracket by 0.005 of it"
    assert bench.shortfall_note(1 - 3.6e-13, 1).endswith("float64 round-off scale")


def test_refusal_keeps_the_whole_reason_on_one_line():
    reason = "sampling with replacement is not accounted: " + "x " * 200
    text = bench.refusal(ValueError(reason + "\n  (Lebeda et al. 2024)"))
    assert text.startswith("refused: sampling with") and text.endswith("(Lebeda et al. 2024)") and "\n" not in text
    assert len(text) > 160   # never cut, unlike a peer's error


def test_issue29_sections_cover_the_events_and_relations_asked():
    rows = bench.ALL_ROWS
    assert [c.name for c in rows[:len(bench.ROWS)]] == [c.name for c in bench.ROWS]   # issue 19's table first, whole
    assert {c.section for c in rows} == set(bench.SECTIONS)
    assert len({c.name for c in rows}) == len(rows)
    events = {c.event for c in rows if c.mechanism == bench.EVENT}
    assert events == set(bench.EVENTS)
    assert {"Gaussian", "Laplace", "DiscreteLaplace", "RandomizedResponse", "PoissonSampled Gaussian",
            "PoissonSampled Laplace", "Composed", "SelfComposed", "MixtureOfGaussians", "TruncatedSubsampledGaussian",
            "SampledWithReplacement", "SampledWithoutReplacement", "ZCDp", "RepeatAndSelect",
            "SingleEpochTreeAggregation"} <= events
    relations = [c for c in rows if c.section == "relations"]
    assert len(relations) >= 2 and all(c.relation == "replace-one" and c.mechanism == bench.SGM for c in relations)
    fixed = [c for c in rows if c.sampling == "fixed-batch"]
    assert fixed and all(c.batch and c.dataset and abs(mpmath.mpf(c.q) * c.dataset - c.batch) < 1e-14 for c in fixed)
    for c in fixed:   # each with its Poisson contrast at q = b/n, under both relations
        contrast = {r.relation for r in rows if r.name.startswith(c.name + ": Poisson") and r.q == c.q}
        assert contrast == {"replace-one", "add-or-remove"}
    assert {c.at for c in rows if c.question == bench.RENYI} == set(bench.RDP_ORDERS)


def test_the_events_build_in_the_installed_dp_accounting():
    """Every event of the table is built by the installed dp_accounting's constructors (their signatures)."""
    dp_event = pytest.importorskip("dp_accounting.dp_event")
    for key, (text, build) in bench.EVENTS.items():
        outer = key.split()[0]
        assert type(build(dp_event)).__name__ == outer + ("Event" if outer.endswith("Dp") else "DpEvent"), text


def test_references_of_issue29_rows_are_the_closed_forms():
    with mpmath.workdps(40):
        cfg = next(c for c in bench.ALL_ROWS if c.name == "replace-one Gaussian, 1000 steps")
        mu = 2 * mpmath.sqrt(1000) / 20                           # a shift by 2
        assert abs(bench.reference(cfg) - bench.gaussian_delta(mpmath.mpf(5), mu)) < mpmath.mpf(10) ** -35
        lap = next(c for c in bench.ALL_ROWS if c.name == "event Laplace, replace-one")
        assert abs(bench.reference(lap) - (1 - mpmath.exp((mpmath.mpf("0.5") - 2) / 2))) < mpmath.mpf(10) ** -35
        assert bench.reference(next(c for c in bench.ALL_ROWS if c.sampling == "fixed-batch")) is None


def test_markdown_gives_each_section_its_table_and_says_why_symdp_refuses():
    wor = bench.Config("wor", bench.SGM, 10, "epsilon", "1e-5", "0.01", "1", section="fixed-batch",
                       relation="replace-one", sampling="fixed-batch", dataset=100, batch=1)
    poisson = bench.Config("wor: Poisson", bench.SGM, 10, "epsilon", "1e-5", "0.01", "1", section="fixed-batch")
    refused = bench.Bracket(error="refused: the truncated subsampled Gaussian's pair is not built", seconds=0.0)
    bracket = bench.Bracket(lower=mpmath.mpf("0.1"), upper=mpmath.mpf("0.2"), certified=True, seconds=0.5)
    rows = [bench.Row(wor, None, refused, [bench.PeerAnswer("rdp", value=0.3, seconds=0.1),
                                            bench.PeerAnswer("prv", not_answered="Poisson sampling only")]),
            bench.Row(poisson, None, bracket, [bench.PeerAnswer("rdp", value=0.25, seconds=0.1,
                                                                 classification="pessimistic"),
                                                bench.PeerAnswer("prv", not_answered="add-or-remove only")])]
    table = bench.markdown(rows, [])
    assert table.startswith("**fixed-batch**")
    assert "prv" not in table                                   # a column only for the peers that answer here
    assert "refused: the truncated subsampled Gaussian's pair is not built" in table
    assert "0.3 (no bracket)" in table and "0.25 ↑" in table
