"""Bertazzi et al., Section 2 and Definition A.1 (symdp.theorems.bertazzi.preliminaries)."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from symdp.errors import InvalidParameter
from symdp.theorems.bertazzi import preliminaries as pr
from symdp.verify import HOLDS, TIGHT, evaluate_point, verify


def test_the_posterior_pin_is_bayes_formula_and_the_mh_chains_stationary_law():
    # theta in {1/5, ..., 4/5}, 1 success in 3: likelihoods 16/125, 18/125, 12/125, 4/125; B = the first two points
    values = pr.equation_1.witness(pr.POSTERIOR_PIN)
    expected = mpmath.mpf(34) / 50
    for mass in (values[pr.PosteriorMass()].value, values[pr.StationaryMass()].value):   # built exactly: rationals
        assert mass.certified and abs(mass.value - expected) <= mass.error + mpmath.mpf(10) ** -14
    assert evaluate_point(pr.equation_1, pr.POSTERIOR_PIN).verdict == TIGHT


def test_the_dp_of_a_posterior_at_eps_0_is_the_total_variation():
    # eq. (3) at eps = 0 is sup_B |pi_D(B) - pi_D'(B)|: posteriors of 1 and 2 successes in 3 on the same grid
    with mpmath.workdps(30):
        values = pr.definition_2_1.witness({"epsilon": mpmath.mpf(0), **pr.POSTERIOR_PIN})
    thetas = [F(i, 5) for i in range(1, 5)]
    rows = [[th ** s * (1 - th) ** (3 - s) for th in thetas] for s in (1, 2)]
    post = [[v / sum(r) for v in r] for r in rows]
    tv = sum(abs(a - b) for a, b in zip(*post)) / 2
    measured = values[pr.DeltaByEvents(pr.epsilon)]
    # a certified ball of the rounded posteriors' masses: it holds the exact TV up to their rounding (30 digits)
    assert measured.certified and measured.error < mpmath.mpf(10) ** -28
    assert abs(measured.value - mpmath.mpf(tv.numerator) / tv.denominator) <= measured.error + mpmath.mpf(10) ** -28


def test_mironovs_conversion_on_the_gaussian_is_below_delta_by_the_catalogues_margin():
    # N(0,1) vs N(1,1): R_2 = 1 (closed form alpha s^2 / 2), so the converted eps is 1 + log(1e5); the exact delta there
    # is Phi(-eps + 1/2) - e^eps Phi(-eps - 1/2) (closed form), far below 1e-5
    point = {"alpha": 2.0, "delta": 1e-5, "structure": {"shift": 1.0}}
    with mpmath.workdps(30):
        measured = pr.rdp_to_dp.witness({"alpha": mpmath.mpf(2), "delta": mpmath.mpf("1e-5"), "structure":
                                         {"shift": 1.0}})
        eps = 1 + mpmath.log(mpmath.mpf(10) ** 5)
        exact = mpmath.ncdf(-eps + mpmath.mpf(1) / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps - mpmath.mpf(1) / 2)
        assert mpmath.almosteq(measured.value, exact, 1e-12)
        assert exact < mpmath.mpf("0.217e-5")
    assert evaluate_point(pr.rdp_to_dp, point).verdict == HOLDS


def test_preliminaries_hold_on_their_draws_and_the_cited_definitions_are_symbolic():
    for theorem in pr.THEOREMS:
        if theorem.numeric:
            assert verify(theorem, examples=8).verdict in (HOLDS, TIGHT), theorem.id
        else:
            assert "symdpid" in theorem.symbolic_only
    assert {t.id for t in pr.THEOREMS} == {"bertazzi.eq1", "bertazzi.def2.1", "bertazzi.fact2.rdp2dp",
                                            "bertazzi.eq4", "bertazzi.def2.2", "bertazzi.defA.1"}


def test_bad_points_are_clear_errors():
    with pytest.raises(InvalidParameter, match="delta"):
        evaluate_point(pr.rdp_to_dp, {"alpha": 2.0, "delta": 1.5, "structure": {"shift": 1.0}})
    with pytest.raises(InvalidParameter, match="alpha"):
        evaluate_point(pr.rdp_to_dp, {"alpha": 1.0, "delta": 0.1, "structure": {"shift": 1.0}})


def test_rdp_to_dp_finite_pin_is_its_closed_form_and_refutes_a_tightened_copy():
    import mpmath

    from symdp.plugin import check
    from symdp.theorems.bertazzi import preliminaries as pr
    from symdp.verify import VIOLATED, evaluate_point

    pin = pr.RDP_DP_FINITE
    # effectively two atoms: P(A) = u, Q(A) = r; R_alpha and the hockey stick in closed form
    with mpmath.workdps(30):
        u = mpmath.mpf("0.1276") / (mpmath.mpf("0.1276") + mpmath.mpf("0.04"))
        r = mpmath.mpf("0.01") / mpmath.mpf("4.01")
        a, d = mpmath.mpf(pin["alpha"]), mpmath.mpf(pin["delta"])
        renyi = mpmath.log(u ** a * r ** (1 - a) + (1 - u) ** a * (1 - r) ** (1 - a)) / (a - 1)
        e = mpmath.exp(renyi + mpmath.log(1 / d) / (a - 1))
        exact = max(u - e * r, 0) + max(1 - u - e * (1 - r), 0)
        expected = float(exact / d)
    assert 0.62 < expected < 0.63
    assert evaluate_point(pr.rdp_to_dp, pin).ratio == pytest.approx(expected, rel=1e-9)
    # the Gaussian pairs, all the search reached before this pin, stop at 0.406
    assert check(pr.rdp_to_dp.tightened(0.55)).verdict == VIOLATED
