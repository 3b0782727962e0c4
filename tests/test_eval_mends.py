"""Mends of ``symdp eval`` and of the accounting under it: ε(δ) at a large ε, the width asked and the width reached,
too many composed steps named as such, and exact zeros of δ(ε) on ℤ. Each test failed on the code before its mend;
the reference values are independent closed forms (named at each), never symdp's own output."""

from __future__ import annotations

import json

import mpmath
import pytest

from symdp.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def flat(text: str) -> str:
    """The console's text with its line wrapping undone."""
    return " ".join(text.split())


def gaussian_epsilon(delta, mu):
    """ε(δ) of N(0, 1) against N(μ, 1) from the Gaussian mechanism's exact privacy profile (Balle & Wang 2018, Thm 8):
    δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), solved for ε in mpmath at 60 digits (in log δ, which is smooth)."""
    with mpmath.workdps(60):
        mu, delta = mpmath.mpf(mu), mpmath.mpf(delta)

        def log_profile(eps):
            return mpmath.log(mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2))

        root = mpmath.findroot(lambda e: log_profile(e) - mpmath.log(delta), mu * mu / 2 + 6 * mu)
        assert abs(log_profile(root) - mpmath.log(delta)) < mpmath.mpf(10) ** -40
        return root


# --- 1. ε(δ) where the answer is a large ε ---------------------------------------------------------------------------
# The k-fold composition of N(0, 1) against N(Δ, 1) is N(0, 1) against N(Δ·sqrt(k), 1) (the sum is sufficient).
@pytest.mark.parametrize("pair, k, shift", [
    ("gaussian(0, 1), gaussian(20, 1)", 1, 20),                                               # ε ≈ 326.36
    ("compose(1000, gaussian(0, 1)), compose(1000, gaussian(1, 1))", 1000, 1),                 # ε ≈ 700.25
    ("compose(10000, gaussian(0, 1)), compose(10000, gaussian(1, 1))", 10000, 1),              # ε ≈ 5635.16
    ("compose(100000, gaussian(0, 1)), compose(100000, gaussian(1, 1))", 100000, 1)])          # ε ≈ 52010.64
def test_epsilon_for_at_a_large_epsilon_is_certified_and_holds_the_gaussian_closed_form(capsys, pair, k, shift):
    with mpmath.workdps(60):
        truth = gaussian_epsilon("1e-10", shift * mpmath.sqrt(k))
    status, out, err = run(capsys, "eval", f"epsilon_for(1e-10, {pair})", "--json")
    d = json.loads(out)
    assert status == 0 and not err and d["certified"] is True
    with mpmath.workdps(60):
        assert mpmath.mpf(d["lower"]) <= truth <= mpmath.mpf(d["upper"])
        assert mpmath.mpf(d["upper"]) - mpmath.mpf(d["lower"]) < mpmath.mpf(10) ** -30 * truth
    assert d["seconds"] < 5          # δ is a closed form there: so is the root (it took 33 s to fail)


@pytest.mark.slow
def test_the_bracketing_route_brackets_a_large_epsilon_too():
    """The bracket of the privacy-loss distribution (the fallback of a pair whose profile is not certified) at
    ε ≈ 326: its first, coarse composition finds no lower end; the next one does (it used to be discarded)."""
    from symdp.engine import accounting
    from symdp.engine.continuous import Gaussian

    truth = gaussian_epsilon("1e-10", 20)
    with mpmath.workdps(50):
        est = accounting.epsilon_for(mpmath.mpf("1e-10"), Gaussian(0, 1), Gaussian(20, 1))
        assert est.certified and est.value - est.error <= truth <= est.value + est.error
        assert est.error <= 1e-3 * truth


def test_an_answer_not_certified_shows_no_enclosure_and_exits_3(capsys, monkeypatch):
    import symdp.claims
    from symdp.claims import Evaluation

    def uncertified(text, *, width=None):   # what the engine answered before mend 1: nothing found, nothing proved
        return Evaluation(None, mpmath.inf, mpmath.inf, mpmath.inf, False, "certified", 33.0)

    monkeypatch.setattr(symdp.claims, "evaluate_expression", uncertified)
    status, out, _ = run(capsys, "eval", "epsilon_for(1e-10, gaussian(0, 1), gaussian(20, 1))")
    assert status == 3 and "enclosure: [" not in out and "not certified" in out
    assert "computed by: certified " not in out        # not "computed by: certified" of what is not certified
    status, out, _ = run(capsys, "eval", "epsilon_for(1e-10, gaussian(0, 1), gaussian(20, 1))", "--json")
    d = json.loads(out)
    assert status == 3 and d["certified"] is False and d["lower"] is None and d["upper"] is None


# --- 2. the width asked, and the width reached -----------------------------------------------------------------------
def test_a_width_not_reached_is_said_and_the_json_carries_asked_and_reached(capsys, monkeypatch):
    import symdp.claims
    from symdp.claims import Evaluation

    low, high = mpmath.mpf("0.05194601656"), mpmath.mpf("0.05194613252")     # as reported in the issue: 2.2e-6 wide
    reached = 2 * (high - low) / 2 / high

    def bracketed(text, *, width=None):
        return Evaluation(None, (low + high) / 2, low, high, True, "certified", 1.0, reached)

    monkeypatch.setattr(symdp.claims, "evaluate_expression", bracketed)
    expression = "hockey_stick(compose(10, laplace(0, 1)), compose(10, laplace(0.1, 1)), 0.2)"
    status, out, _ = run(capsys, "eval", expression, "--width", "1e-6")
    assert status == 0 and "width: 2.2e-06 reached, wider than the 1e-06 asked" in flat(out)
    status, out, _ = run(capsys, "eval", expression, "--width", "1e-6", "--json")
    d = json.loads(out)
    assert d["width"] == 1e-6 and d["width_default"] is False and d["width_met"] is False
    assert d["width_reached"] == pytest.approx(float(reached))
    status, out, _ = run(capsys, "eval", expression, "--width", "1e-4")          # reached: nothing said
    assert status == 0 and "width:" not in out


def test_the_json_reports_the_default_width_and_the_width_reached(capsys):
    # 5-fold Laplace(0, 1) against Laplace(1, 1) at ε = 1, bracketed by the accountant at its default width
    status, out, _ = run(capsys, "eval", "hockey_stick(compose(5, laplace(0, 1)), compose(5, laplace(1, 1)), 1)",
                         "--json", "--dps", "30")
    d = json.loads(out)
    with mpmath.workdps(30):
        from symdp.engine.accounting import default_width

        default = float(default_width())
    assert status == 0 and d["certified"] is True and d["method"] == "certified"
    assert d["width"] == pytest.approx(default) and d["width_default"] is True       # not null
    lower, upper = float(d["lower"]), float(d["upper"])
    assert d["width_reached"] == pytest.approx((upper - lower) / upper, rel=1e-6)     # one quantity: its enclosure
    assert d["width_met"] is (d["width_reached"] <= default)


@pytest.mark.slow
def test_the_laplace_width_of_the_issue_is_said_not_reached(capsys):
    status, out, _ = run(capsys, "eval", "hockey_stick(compose(10, laplace(0, 1)), compose(10, laplace(0.1, 1)), 0.2)",
                         "--width", "1e-6", "--json")
    d = json.loads(out)
    width = (float(d["upper"]) - float(d["lower"])) / float(d["upper"])
    assert status == 0 and d["width_reached"] == pytest.approx(width, rel=1e-6)
    assert d["width_met"] is (width <= 1e-6)


# --- 3. too many composed steps --------------------------------------------------------------------------------------
def test_too_many_composed_steps_are_named_with_the_most_that_fit(capsys):
    pair = "compose(10**12, mix(0.01, gaussian(0, 1), gaussian(1, 1))), compose(10**12, gaussian(0, 1))"
    status, _, err = run(capsys, "eval", f"hockey_stick({pair}, 1)")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "k = 1000000000000 composed steps are too many" in err and "at most about" in err
    most = float(err.split("at most about ")[1].split()[0])
    # the window must at least hold the distance k·(KL(P‖Q) + KL(Q‖P)) between the summed loss's means, about
    # k·q²(e − 1) = 1.7e-4·k for the subsampled Gaussian (q = 0.01, Δ = 1; Mironov et al. 2019), in grid steps of
    # h = 3·sqrt(w/(6k)) at least: so k^1.5 ≤ 2e6·3·sqrt(1e-3/6)/1.7e-4, k below 6e5
    assert 1e3 < most < 6e5


# --- 4. exact zeros of δ(ε) on ℤ -------------------------------------------------------------------------------------
def test_hockey_stick_of_a_discrete_laplace_pair_above_its_largest_loss_is_an_exact_zero(capsys):
    # discrete Laplace of scale b shifted by 2: the loss is at most 2/b (|Δ|/b), so δ(ε) = 0 for ε ≥ 2/b
    status, out, _ = run(capsys, "check", "hockey_stick(discrete_laplace(0, b), discrete_laplace(2, b), 2/b + s) == 0",
                         "--where", "b in [0.5, 4], s in [0.01, 3]", "--examples", "12")
    assert status == 0 and "verdict: holds" in out
    from symdp.engine import integers
    from symdp.engine.divergences import Kind, divergence

    with mpmath.workdps(50):
        est = divergence(Kind.HOCKEY_STICK, integers.discrete_laplace(0, 1), integers.discrete_laplace(2, 1),
                         mpmath.mpf("2.5"))
    assert est.certified and est.value == 0 and est.error == 0


def test_a_composed_lattice_above_its_largest_loss_is_an_exact_zero_and_below_it_the_trinomial_sum():
    from symdp.engine import integers
    from symdp.engine.divergences import Kind, divergence
    from symdp.engine.products import compose

    k = 300                   # enough for the cyclic power (k ≥ 16), whose window reaches past the support
    with mpmath.workdps(30):
        P, Q = integers.discrete_laplace(0, 1), integers.discrete_laplace(2, 1)
        top = divergence(Kind.HOCKEY_STICK, compose(k, P), compose(k, Q), mpmath.mpf(2 * k) + mpmath.mpf("0.5"))
        assert top.certified and top.value == 0 and top.error == 0
        # below: the loss per step is 2, 0 or −2 with P-masses 1/(1 + r), r(1 − r)/(1 + r), r²/(1 + r) (r = e^{−1},
        # the geometric sums of the discrete Laplace); δ(ε) = Σ over the counts (a, b, c) of the trinomial law of
        # (1 − e^{ε − 2(a − c)})_+
        r = mpmath.exp(-1)
        masses = (1 / (1 + r), r * (1 - r) / (1 + r), r * r / (1 + r))
        eps = mpmath.mpf(100)
        with mpmath.workdps(40):
            truth = mpmath.fsum(
                mpmath.exp(mpmath.loggamma(k + 1) - mpmath.loggamma(a + 1) - mpmath.loggamma(b + 1)
                           - mpmath.loggamma(k - a - b + 1) + a * mpmath.log(masses[0]) + b * mpmath.log(masses[1])
                           + (k - a - b) * mpmath.log(masses[2])) * (1 - mpmath.exp(eps - 2 * (a - (k - a - b))))
                for a in range(k + 1) for b in range(k - a + 1) if 2 * (a - (k - a - b)) > eps)
        inside = divergence(Kind.HOCKEY_STICK, compose(k, P), compose(k, Q), eps)
        assert inside.certified and abs(inside.value - truth) <= inside.error + mpmath.mpf(10) ** -25 * truth
