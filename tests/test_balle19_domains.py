"""The drawn ranges of balle19's theorems against the domains their hypotheses state: every range that stops short
says why (``limit=``), the scales spanning decades are drawn on a log scale, and the reasons given for the ranges
hold where they are numbers (the supremum reached inside the range, the cost at the range's ends)."""

from __future__ import annotations

import time

import pytest

from symdp.theorems import all_theorems, get
from symdp.verify import evaluate_point

BALLE19 = [t for t in all_theorems() if t.id.startswith("balle19.")]


@pytest.mark.parametrize("theorem", BALLE19, ids=lambda t: t.id)
def test_every_range_short_of_its_domain_states_why(theorem):
    for p in theorem.parameters:
        reach = p.reach()
        assert reach is None or p.limit, f"{theorem.id}: {reach} (no limit= given)"


@pytest.mark.parametrize("tid, name", [("balle19.ex1", "sigma_1"), ("balle19.ex1", "Delta"), ("balle19.ex2", "alpha"),
                                       ("balle19.thm8.a", "t"), ("balle19.thm4.proof-phi", "r"),
                                       ("balle19.cor7", "theta"), ("balle19.thm8.b", "epsilon")])
def test_scales_spanning_decades_are_drawn_on_a_log_scale(tid, name):
    p = next(q for q in get(tid).parameters if q.name == name)
    low, high = p.bounds()
    assert p.log and high / low >= 20


def _ratio(tid, **raw):
    return evaluate_point(get(tid), raw, dps=30).ratio


def test_ex2_ratio_tends_to_one_as_alpha_grows_inside_the_range():
    # the limit stated for Example 2's alpha: the Renyi bound at theta = 1 tends to the max divergence Delta/lambda_1
    # (lambda_1 >= lambda_2, Lemma 3), so the ratio tends to 1 only as alpha -> oo; the range reaches 1000
    point = {"Delta": 3, "lambda_1": 5, "lambda_2": 0.3, "theta": 1}
    ratios = [_ratio("balle19.ex2", alpha=a, **point) for a in (30, 1000)]
    assert ratios[0] < ratios[1] < 1
    assert ratios[1] > 0.998   # 1 - 0.0012 at alpha = 300 already (closed forms of Mironov's g_alpha)


def test_thm4_phi_reaches_one_over_r_near_one_at_the_new_end():
    # phi(L) -> 1/r as L -> 1 (l'Hopital): the ratio r phi(L) at L = 1 - 1e-6, r = 997 is 1 - O(r^2 (1 - L))
    assert 0.9999 < _ratio("balle19.thm4.proof-phi", L=0.999999, r=997) <= 1


def test_lemma19_ratio_is_the_stated_closed_form():
    # the limit stated for Lemma 19's parameters: the ratio is exp(-c b e^(-gamma t)/gamma), A and beta do not enter
    import math
    for A, beta in ((0.01, 0.1), (5, 3)):
        r = _ratio("balle19.lem19", c=2, t=0.5, A=A, beta=beta, b=1.5, gamma=0.7)
        assert r == pytest.approx(math.exp(-2 * 1.5 * math.exp(-0.35) / 0.7), rel=1e-9)


@pytest.mark.parametrize("tid, raw", [
    ("balle19.fact.gauss-rdp", {"alpha": 100, "Delta": 5, "sigma": 0.2}),
    ("balle19.fact.laplace-rdp", {"alpha": 100, "Delta": 5, "lambda": 0.2}),
    ("balle19.ex2", {"alpha": 1000, "Delta": 3, "lambda_1": 0.3, "lambda_2": 0.3, "theta": 1}),
    ("balle19.thm4.proof-phi", {"L": 0.01, "r": 1000}),
])
def test_the_new_ends_are_cheap(tid, raw):
    start = time.process_time()
    r = evaluate_point(get(tid), raw, dps=30)
    assert r.ratio is None or r.ratio <= 1 + 1e-20
    assert time.process_time() - start < 5


def test_thm6_intrinsic_sensitivity_is_relative_where_kappa_is_tiny():
    # at theta t = 100 kappa(t) ~ 1e-84: the quadrature used to read Lambda 3.6e-6 low (theta = 1, t = 100) and 2.8e-4
    # high (theta = 100, t = 1), an absolute tolerance on a tiny integrand. Reference: Corollary 7's closed form
    # Lambda(t) = theta Delta^2 / (2 rho^2 (e^(2 theta t) - 1)).
    import mpmath

    from symdp.theorems.balle19.diffusions import intrinsic_sensitivity
    with mpmath.workdps(30):
        for th, t in ((1, 100), (100, 1), (3, 33)):
            th, t, delta = mpmath.mpf(th), mpmath.mpf(t), mpmath.mpf(100)
            got = intrinsic_sensitivity(th, mpmath.mpf(1), {"Delta": delta, "t": t})
            exact = th * delta**2 / (2 * mpmath.expm1(2 * th * t))
            assert abs(got.value / exact - 1) < 1e-25 and got.error < 1e-25 * exact


def test_thm6_is_tight_far_out_in_theta_t():
    # the known 1.0000078 read of the audit (alpha = 1000, Delta = 100, theta t = 100) was the right side's quadrature
    # (a relative 3.6e-6, read as inconclusive); with drawn neighbours and y off the origin the two scores, each of
    # size |y|/v, differ by a Delta/v ~ 1e-44 |y|/v, so kappa needs that many guard digits (it was inconclusive)
    for structure in (None, {"x": [1.0, -2.0], "u": [0.3, 1.0], "y": [2.0, 0.5]}):
        for dps in (30, 50):
            raw = {"alpha": 1000, "Delta": 100, "t": 100, "theta": 1, "rho": 1}
            r = evaluate_point(get("balle19.thm6"), raw if structure is None else {**raw, "structure": structure},
                               dps=dps)
            assert r.verdict == "tight" and abs(r.ratio - 1) < 1e-20


def test_thm1_4_pure_tightened_below_its_supremum_is_refuted():
    # eps*/eps' = 1 - (1 - gamma) eps + O(eps^2) -> 1 (not attained); the search alone reached 0.99384 (gamma = 0.38,
    # eps = 0.01), the pinned corner gamma = 0.99, eps = 0.01 of the extremal instances reads 0.99990
    from symdp.plugin import check
    assert check(get("balle19.thm1.4.pure").tightened(0.997)).verdict == "violated"
