"""benchmarks/bench_accountants.py: its references are right, and its quick run's correctness columns say so.

Times are never asserted (they are the benchmark's output, measured on a shared machine); what is asserted could be
false: a reference that disagrees with an independent value, an estimate whose error does not cover its reference, a
certified ball that misses it, a pessimistic accountant below it.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
SCRIPT = BENCHMARKS / "bench_accountants.py"


def _load_script(name: str):
    """``benchmarks/<name>.py`` as a module (registered under its name: a script's dataclasses look it up)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load_script("bench_accountants")


# --- the references, against values that do not come from the script's own formulas ----------------------------


@pytest.mark.parametrize("alpha, delta, l1, l2, expected", [
    ("4", "1", "1", "2", "0.214903840704"),        # catalogue-balle.md, balle19.ex2 (mpmath, 30 digits)
    ("1.5", "2", "0.5", "0.8", "1.46744139122"),   # same table
])
def test_lap2_renyi_reference_matches_the_catalogue(alpha, delta, l1, l2, expected):
    with mpmath.workdps(30):
        value = bench.lap2_renyi(*(mpmath.mpf(v) for v in (alpha, l1, l2, delta)))
        assert abs(value - mpmath.mpf(expected)) < 1e-11


def _lap2_cdf(x, l1, l2):
    """CDF of Lap(0, λ1) + Lap(0, λ2), integrated by hand from eq. (6): for z >= 0 the survival function is
    (λ1² e^{-z/λ1} - λ2² e^{-z/λ2}) / (2(λ1² - λ2²))."""
    def sf(z):
        return (l1**2 * mpmath.exp(-z / l1) - l2**2 * mpmath.exp(-z / l2)) / (2 * (l1**2 - l2**2))

    return sf(-x) if x < 0 else 1 - sf(x)


@pytest.mark.parametrize("eps", ["0", "0.5", "1.5"])
def test_lap2_delta_reference_matches_the_cdf_difference(eps):
    """δ(ε) = P(X < x_ε) - e^ε Q(X < x_ε) at the crossing point: exact CDFs, no quadrature."""
    with mpmath.workdps(60):
        e, l1, l2, d = (mpmath.mpf(v) for v in (eps, bench.LAP2_L1, bench.LAP2_L2, bench.LAP2_DELTA))
        x = bench.lap2_crossing(e, l1, l2, d)
        exact = _lap2_cdf(x, l1, l2) - mpmath.exp(e) * _lap2_cdf(x - d, l1, l2)
        assert exact > 0
        assert abs(bench.lap2_delta(e, l1, l2, d) - exact) < mpmath.mpf(10) ** -50 * exact


@pytest.mark.parametrize("eps", ["0", "0.3", "2"])
def test_sampled_gaussian_delta_reference_matches_quadrature(eps):
    """The crossing-point formula against ∫ max(0, p - e^ε q) by quadrature of the densities, split at x*."""
    with mpmath.workdps(40):
        e, q, s, d = (mpmath.mpf(v) for v in (eps, bench.SG_Q, bench.SG_SIGMA, bench.SG_DELTA))
        x = bench.sampled_gaussian_crossing(e, q, s, d)

        def gap(t):
            p = mpmath.exp(bench.sampled_gaussian_logpdf(t, q, s, d))
            return p - mpmath.exp(e + bench.gaussian_logpdf(t, 0, s))

        assert gap(x - 1) < 0 < gap(x + 1)   # the integrand is positive right of x*, as the formula assumes
        by_quadrature = mpmath.quad(gap, [x, x + 2, x + 8, mpmath.inf])
        assert abs(bench.sampled_gaussian_delta(e, q, s, d) - by_quadrature) < mpmath.mpf(10) ** -35 * by_quadrature


def test_sampled_gaussian_renyi_reference_matches_quadrature():
    with mpmath.workdps(30):
        q, s, d, a = (mpmath.mpf(v) for v in (bench.SG_Q, bench.SG_SIGMA, bench.SG_DELTA, 5))

        def integrand(t):
            return mpmath.exp(a * bench.sampled_gaussian_logpdf(t, q, s, d) + (1 - a) * bench.gaussian_logpdf(t, 0, s))

        by_quadrature = mpmath.log(mpmath.quad(integrand, [-mpmath.inf, -5, 0, 5, 10, mpmath.inf])) / (a - 1)
        assert abs(bench.sampled_gaussian_renyi(5, q, s, d) - by_quadrature) < 1e-25


def test_laplace_references_match_quadrature():
    with mpmath.workdps(30):
        b, d, e, a = (mpmath.mpf(v) for v in (bench.LAPLACE_B, bench.LAPLACE_DELTA, "0.5", "3"))

        def logp(t):
            return bench.laplace_logpdf(t, 0, b)

        def logq(t):
            return bench.laplace_logpdf(t, d, b)

        pieces = [-mpmath.inf, 0, d, mpmath.inf]
        crossing = (d - e * b) / 2   # log p - log q = (d - 2x)/b on [0, d]
        delta = mpmath.quad(lambda t: mpmath.exp(logp(t)) - mpmath.exp(e + logq(t)), [-mpmath.inf, 0, crossing])
        renyi = mpmath.log(mpmath.quad(lambda t: mpmath.exp(a * logp(t) + (1 - a) * logq(t)), pieces)) / (a - 1)
        assert abs(bench.laplace_delta(e, b, d) - delta) < 1e-25
        assert abs(bench.laplace_renyi(a, b, d) - renyi) < 1e-25


def test_correct_digits_are_relative_and_capped():
    with mpmath.workdps(bench.REFERENCE_DPS):
        assert bench.correct_digits(mpmath.mpf("1e-10") * (1 + mpmath.mpf("1e-30")), mpmath.mpf("1e-10")) == \
            pytest.approx(30, abs=0.01)
        assert bench.correct_digits(mpmath.mpf(2), mpmath.mpf(2)) == bench.DIGITS_CAP


# --- the quick run: one subprocess, one test (so that pytest-xdist's workers do not each run it) -------------------


def test_quick_run_correctness_columns():
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--json"], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    quick = json.loads(proc.stdout)
    _every_law_and_quantity_is_measured(quick)
    _quadrature_path_agrees_with_every_reference(quick)
    _certified_balls_hold_every_reference(quick)
    if quick["accountant"]:
        _accountants_are_right_to_their_own_precision(quick)
    _headline_compares_like_with_like(quick)
    _goals_table_names_every_goal_of_issue_9(quick)


def _cells(quick, method):
    return [(r, r["cells"][method]) for r in quick["rows"]]


def _every_law_and_quantity_is_measured(quick):
    measured = {(r["family"].split()[0], r["quantity"]) for r in quick["rows"]}
    laws = ("Gaussian", "Laplace", "Lap2(0;.5,1)", "subsampled")
    assert measured == {(law, q) for law in laws for q in ("delta", "renyi")}


def _quadrature_path_agrees_with_every_reference(quick):
    """symdp's previous path: all but a few of the working digits, and its error estimate covers the reference."""
    for row, cell in _cells(quick, "quadrature"):
        assert cell["digits"] >= quick["dps"] - 3, row
        assert cell["contains_reference"], row


def _certified_balls_hold_every_reference(quick):
    """Where the engine has the certified route, every value is a certified ball around its reference."""
    from symdp.engine import quadrature

    for row, cell in _cells(quick, "certified"):
        if cell["seconds"] is None:
            assert "certified" not in quadrature.METHODS, (row, cell["note"])
            continue
        assert cell["certified"], row
        assert cell["contains_reference"], row
        assert cell["digits"] >= cell["radius_digits"] - 1, row   # a ball is never much wider than its error


def _accountants_are_right_to_their_own_precision(quick):
    for row, cell in _cells(quick, "dp_accounting"):
        if row["family"].startswith("Lap2"):
            assert cell["seconds"] is None and "no accountant" in cell["note"]
        elif row["quantity"] == "delta":   # PLD: pessimistic, a few digits (discretization 1e-4)
            assert cell["contains_reference"] and cell["digits"] >= 4, row
        else:                              # RDP: float64 formulas
            assert cell["digits"] >= 12, row


def _headline_compares_like_with_like(quick):
    head = quick["headline"]
    assert head["values"] == 10
    if quick["accountant"]:
        assert head["pld_all_above"] and head["pld_worst_digits"] >= 4
    if head["certified_seconds"] is not None:
        assert head["certified_all_certified"] and head["certified_all_contain"]


def _goals_table_names_every_goal_of_issue_9(quick):
    goals = quick["goals"]
    assert len(goals) == 4
    assert all(g["met"] in ("yes", "no", "not measured") for g in goals)
    assert goals[2]["met"] == goals[3]["met"] == "not measured"   # the catalogue and the claims: not in --quick


def test_script_doctests():
    """The script's docstring examples (benchmarks/ is outside pytest's doctest paths)."""
    import doctest

    with mpmath.workdps(15):
        result = doctest.testmod(bench)
    assert result.attempted >= 5 and result.failed == 0


# --- benchmarks/bench_closed_forms.py ----------------------------------------------------------------------------


def test_closed_form_benchmark_rows_are_enclosures_to_every_digit():
    """Every closed form of the benchmark's cases encloses its textbook reference (mpmath at 4x the digits, written
    out again in the script) and is correct to the working precision, cancelling cases included."""
    closed = _load_script("bench_closed_forms")
    for name, params in closed.CASES:
        _, digits, encloses = closed.measure(closed.closed_forms, name, params, 40, number=1)
        assert encloses == "✓" and digits >= 39, (name, params, digits, encloses)


# --- benchmarks/bench_catalogue.py: issue 28's per-paper figures -------------------------------------------------

CATALOGUE_SCRIPT = BENCHMARKS / "bench_catalogue.py"


def test_catalogue_figures_count_what_the_issue_counts():
    figures = _load_script("bench_catalogue").per_paper([
        {"id": "p.a", "method": "exact", "verdict": "holds", "certified": True, "examples": 120, "seconds": 1.0},
        {"id": "p.b", "method": "quadrature", "verdict": "holds", "certified": False, "examples": 20, "seconds": 2.0},
        {"id": "p.c", "method": "exact", "verdict": "violated", "erratum": True, "certified": True, "examples": 1,
         "seconds": 0.5},
        {"id": "p.d", "method": "", "verdict": "holds", "certified": False, "examples": 0, "seconds": 0.25},
        {"id": "q.a", "method": "exact", "verdict": "tight", "certified": False, "examples": 100, "seconds": 3.0},
    ])
    # numeric (a method), under 100 draws, and the share over numeric non-erratum holds/tight verdicts
    assert figures["p"] == {"seconds": 3.75, "numeric": 3, "draws": 141, "under_100": 2, "certified": 1,
                            "verdicts": 2}
    assert figures["all"]["verdicts"] == 3 and figures["all"]["certified"] == 1 and figures["all"]["numeric"] == 4


def test_catalogue_benchmark_runs_both_checkouts_at_once(tmp_path):
    """--at-once: both runs concurrently, each saved and counted as its own column (the same checkout twice here)."""
    done = subprocess.run([sys.executable, str(CATALOGUE_SCRIPT), "dwork.lem3.10", "--examples", "2", "--at-once",
                           "--against", "HEAD", "--save", str(tmp_path), "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert set(figures) == {"this checkout", "previous release (HEAD)"}
    runs = [json.loads((tmp_path / name).read_text()) for name in ("this.json", "previous.json")]
    assert [[r["id"] for r in run] for run in runs] == [["dwork.lem3.10"]] * 2
    assert runs[0][0]["verdict"] == runs[1][0]["verdict"] and runs[0][0]["examples"] == runs[1][0]["examples"]


def test_catalogue_benchmark_runs_both_checkouts_side_by_side():
    done = subprocess.run([sys.executable, str(CATALOGUE_SCRIPT), "dwork.lem3.10", "--examples", "2", "--jobs", "1",
                           "--against", "HEAD", "--json"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    assert set(figures) == {"this checkout", "previous release (HEAD)"}
    for column in figures.values():
        assert column["papers"]["dwork"]["numeric"] == 1 and column["wall_seconds"] > 0


def test_catalogue_benchmark_compares_the_two_integer_backends(tmp_path):
    """--python-integers: this checkout beside itself on mpmath's Python integers; the same reports (the backend
    changes the speed, not a number)."""
    done = subprocess.run([sys.executable, str(CATALOGUE_SCRIPT), "dwork.lem3.10", "--examples", "2", "--at-once",
                           "--python-integers", "--save", str(tmp_path), "--json"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert set(json.loads(done.stdout)) == {"this checkout", "this checkout, Python integers"}
    runs = [json.loads((tmp_path / name).read_text()) for name in ("this.json", "previous.json")]
    assert [{k: v for k, v in run[0].items() if k != "seconds"} for run in runs] == \
        [{k: v for k, v in runs[0][0].items() if k != "seconds"}] * 2


def test_draw_benchmark_charges_the_test_to_the_test_and_restores_the_search():
    """bench_draws's clock: the seconds inside a search's test are counted there (each call sleeps 2 ms, so at least
    2 ms a draw), the search's whole time holds them, and verify's search is its own again after the ``with``."""
    import time

    from hypothesis import strategies as st

    draws = _load_script("bench_draws")
    verifier = draws.verifier
    original = verifier.run_search
    calls = []

    def test(x):
        calls.append(x)
        time.sleep(0.002)

    with draws.SearchClock() as clock:
        assert verifier.run_search is not original
        verifier.run_search(st.floats(0, 1), test, 20, 0)
    assert verifier.run_search is original
    assert len(calls) >= 20
    assert clock.test >= 0.002 * len(calls)
    assert clock.search >= clock.test
