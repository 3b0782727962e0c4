"""Exact answers where they exist, estimates inside their divergence's domain, and a certified max divergence.

References are closed forms computed here with mpmath well beyond the working precision: the Laplace mechanism's
δ(ε) = 1 - e^{(ε - Δ/b)/2} for |ε| < Δ/b (0 above, 1 - e^ε below) and KL z + e^{-z} - 1, z = Δ/b; the Gaussian
KL Δ²/(2σ²) and max divergence ln(σ_Q/σ_P) + Δ²/(2(σ_Q² - σ_P²)) (the concave quadratic log-ratio's vertex); the
pure-DP level Δ/max(λ1, λ2) of iterated Laplace noise (Balle et al. 2019, Lemma 3, the "Laplace2 limit"); and for
the Laplace pair of scales b_P < b_Q, ln(b_Q/b_P) + |Δ|/b_Q, the log-ratio's value at P's kink (it is piecewise
linear, falling towards both tails).
"""

import mpmath
import pytest
from hypothesis import example, given, settings, strategies as st

from symdp.engine import certified, finite, quadrature as qd
from symdp.engine.continuous import Gaussian, Lap2, Laplace, Mixture, canonical
from symdp.estimate import Estimate
from symdp.precision import closed_forms

DPS = 50
REFERENCE = 150   # digits of every reference: beyond the enclosures' own, so that their rounding decides nothing


def binary(x, dps=DPS):
    """A test's float as the engine reads it at ``dps`` digits (its decimal repr, rounded to the working
    precision), so that the reference starts from the very numbers the laws hold."""
    with mpmath.workdps(dps):
        return mpmath.mpf(repr(x)) if isinstance(x, float) else mpmath.mpf(x)


def encloses(est, truth, relative=DPS - 12):
    """A certified enclosure of ``truth`` that is sharp: radius below 10^-relative of it (the engine stops adding
    bits within 32 of the working precision, about 10 digits)."""
    assert est.certified, est
    with mpmath.workdps(REFERENCE):
        assert abs(est.value - truth) <= est.error, (est, truth)
        assert est.error <= abs(truth) * mpmath.mpf(10) ** -relative, (est, truth)


def exactly_zero(est):
    assert est.certified and est.value == 0 and est.error == 0, est


# --- 1. exact zeros ---------------------------------------------------------------------------------------------


def test_lap2_hockey_stick_at_its_pure_dp_level_is_exactly_zero():
    # sup L = Δ/max(λ1, λ2) = 0.5 = ε, approached only at -∞: L ≤ ε on the whole line (once 1.3e-75 ± 5e-60)
    with mpmath.workdps(DPS):
        exactly_zero(certified.hockey_stick(Lap2(0, 1, 2), Lap2(1, 1, 2), 0.5))
        exactly_zero(qd.hockey_stick(Lap2(0, 1, 2), Lap2(1, 1, 2), 0.5, method="densities"))
        exactly_zero(certified.hockey_stick(Lap2(0, 1, 2), Lap2(1, 1, 2), 3))


@settings(max_examples=40, deadline=None)
@given(st.floats(0.2, 5), st.floats(0, 3))
@example(0.5, 2.0)       # ε = Δ/b exactly: L = ε on a whole half-line
@example(0.3, 3.0)       # ε just below Δ/b = 3.33..., which is not a binary number
def test_laplace_hockey_stick_from_the_densities_is_exact_zero_or_the_mechanisms_formula(b, eps):
    with mpmath.workdps(DPS), closed_forms(False):
        b, e = binary(b), binary(eps)
        est = qd.hockey_stick(Laplace(0, b), Laplace(1, b), e)
    with mpmath.workdps(REFERENCE):
        z = 1 / b
        if e >= z:
            exactly_zero(est)
        else:
            encloses(est, -mpmath.expm1((e - z) / 2))


def test_laplace_hockey_stick_below_minus_the_level_is_one_minus_e_to_the_eps():
    # L ≥ -Δ/b ≥ ε everywhere: the whole line is one run, P(ℝ) - e^ε Q(ℝ)
    with mpmath.workdps(DPS):
        est = certified.hockey_stick(Laplace(0, 1), Laplace(1, 1), -1.5)
    encloses(est, -mpmath.expm1(binary(-1.5)))


def test_identical_laws_have_every_divergence_exactly_zero():
    # m = 0 in the KL check of issue 15 was 4.7e-566 ± 4.1e-73
    with mpmath.workdps(DPS):
        for P in (Gaussian(0, 1), Laplace(2, 3), Lap2(1, 1, 2), Mixture(0.3, Gaussian(0, 1), Gaussian(1, 2))):
            exactly_zero(certified.kl(P, P))
            exactly_zero(certified.renyi(P, P, 3))
            exactly_zero(certified.tv(P, P))
            exactly_zero(certified.hockey_stick(P, P, 0.25))
            exactly_zero(certified.max_divergence(P, P))
        # a mixture of a law with itself is that law
        exactly_zero(certified.kl(Mixture(0.4, Gaussian(0, 1), Gaussian(0, 1)), Gaussian(0, 1)))


def test_finite_laws_give_an_exact_zero_above_their_level_and_never_drop_a_possible_part():
    P, Q = finite.FiniteDistribution([0.75, 0.25]), finite.FiniteDistribution([0.25, 0.75])
    exactly_zero(finite.hockey_stick(P, Q, mpmath.log(3)))            # log 3 rounded up: above the level
    # P = Q at ε = -2.2e-313: D = 1 - e^ε = 2.2e-313, once a certified exact 0 (a part only possibly 0 dropped)
    with mpmath.workdps(DPS):
        R = finite.FiniteDistribution([1, 0])
        e = mpmath.mpf("-2.2250738585e-313")
    with mpmath.workdps(REFERENCE):
        encloses(finite.hockey_stick(R, R, e), -mpmath.expm1(e))


def test_a_law_moved_by_less_than_its_last_digit_is_moved_exactly():
    # canonical(N(1, 1) + 1e-300) once rounded back to N(1, 1): its divergence from N(1, 1) came out 0
    with mpmath.workdps(DPS):
        moved = canonical(Gaussian(1, 1).shifted(mpmath.mpf("1e-300")))
        est = certified.kl(moved, Gaussian(1, 1))
    assert moved.mean - 1 == mpmath.mpf("1e-300")
    encloses(est, mpmath.mpf("1e-300") ** 2 / 2)


# --- 2. estimates in their domain ------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.floats(0.1, 5), st.floats(-3, 3))
@example(1.0, 2.589041988477783e-42)    # the draws: KL centred below 0, sqrt(KL/2) complex
@example(2.3344301368715215, 2.5890419884777833e-42)
@example(1.0, 1e-300)
def test_laplace_kl_from_the_densities_is_never_negative_and_tight(s, m):
    with mpmath.workdps(DPS), closed_forms(False):
        s, m = binary(s), binary(m)
        est = qd.kl(Laplace(0, s), Laplace(m, s))
    assert est.value >= 0 and est.value - est.error >= 0, est
    with mpmath.workdps(REFERENCE + 2 * 400):
        z = abs(m) / s
        encloses(est, z + mpmath.expm1(-z)) if z else exactly_zero(est)


def test_every_route_returns_a_value_in_the_domain():
    with mpmath.workdps(30):
        routes = [qd.tv(Gaussian(0, 1), Gaussian(60, 1), method="quadrature"),
                  # once -8.8e-47: a Rényi divergence of 1e-25 scales is 1e-50, below the quadrature's resolution
                  qd.renyi(Laplace(0, 1), Laplace(mpmath.mpf("1e-25"), 1), 2, method="quadrature"),
                  qd.hockey_stick(Gaussian(0, 1), Gaussian(mpmath.mpf("1e-20"), 1), -1, method="quadrature"),
                  qd.max_divergence(Laplace(0, 1), Laplace(mpmath.mpf("1e-30"), 1), method="quadrature")]
        low = -mpmath.expm1(-1)
    tv, renyi, delta, sup = routes
    assert 0 <= tv.value <= 1 and renyi.value >= 0 and sup.value >= 0 and low <= delta.value <= 1, routes


def test_a_certified_enclosure_is_intersected_with_the_domain():
    with mpmath.workdps(DPS):
        est = certified.hockey_stick(Gaussian(0, 1), Gaussian(mpmath.mpf("1e-40"), 1), -1)
    with mpmath.workdps(REFERENCE):
        floor = -mpmath.expm1(mpmath.mpf(-1))
        assert est.value - est.error >= floor * (1 - mpmath.mpf(10) ** -DPS) and est.value + est.error <= 1
    e = Estimate(mpmath.mpf("0.999"), mpmath.mpf("0.01"), certified=True).clamped(0, 1)
    assert e.certified and e.value + e.error >= 1 and e.value - e.error <= mpmath.mpf("0.989")   # still encloses
    assert e.value + e.error <= 1 + mpmath.mpf(10) ** -(DPS - 2)


# --- 3. far apart and tiny: answered sharply ------------------------------------------------------------------


@pytest.mark.parametrize("m", ["1e-287", "-2.6e-210", "0.001", "100", "1e6", "1e300"])
def test_kl_of_gaussians_from_the_densities_is_tight_near_and_far(m):
    # Δ²/(2σ²) at σ = 1: once inconclusive (tiny m), a fallback to quadrature (1e6), or no answer after 600 s (1e300)
    with mpmath.workdps(DPS), closed_forms(False):
        est = qd.kl(Gaussian(binary(m), 1), Gaussian(0, 1))
    encloses(est, binary(m) ** 2 / 2)


def test_renyi_of_gaussians_at_a_huge_order_is_answered_in_closed_form():
    # α Δ²/(2σ²) at α = 10^6 (once 15 s of exact factorials of 10^6)
    with mpmath.workdps(DPS), closed_forms(False):
        est = qd.renyi(Gaussian(1, 1), Gaussian(0, 1), 10**6)
    encloses(est, mpmath.mpf(10**6) / 2)


def test_quadrature_refuses_laws_it_cannot_resolve_with_a_one_line_message():
    with mpmath.workdps(30), pytest.raises(Exception) as refusal:
        qd.kl(Gaussian(0, 1), Gaussian(mpmath.mpf("1e25"), 1), method="quadrature")
    assert type(refusal.value).__name__ == "InvalidParameter" and "\n" not in str(refusal.value)
    assert "1.0e+25" in str(refusal.value)


# --- 4. a certified max divergence ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.floats(0.1, 3), st.floats(0.5, 3), st.floats(0.5, 3), st.sampled_from([30, 50]))
@example(1.0, 1.0, 1.0, 50)          # λ1 = λ2: approached only like O(1/x), never attained
@example(0.5, 1.0, 2.0, 30)
@example(2.5, 1.0, 1.0001, 50)       # λ1 ≈ λ2: approached like e^{-x d}, d tiny
def test_lap2_max_divergence_is_certified_and_equals_delta_over_the_larger_scale(delta, lam1, lam2, dps):
    with mpmath.workdps(dps), closed_forms(False):
        d, l1, l2 = (binary(v, dps) for v in (delta, lam1, lam2))
        est = qd.max_divergence(Lap2(0, l1, l2), Lap2(d, l1, l2))
    assert est.method == "certified"
    encloses(est, d / max(l1, l2), dps - 12)


def test_max_divergence_of_laplace_and_gaussian_pairs_against_their_closed_forms():
    with mpmath.workdps(DPS), closed_forms(False):
        equal = qd.max_divergence(Laplace(0, "0.7"), Laplace("1.9", "0.7"))
        unequal = qd.max_divergence(Laplace(0, "0.7"), Laplace("1.9", "1.3"))
        heavier = qd.max_divergence(Laplace(0, "1.3"), Laplace("1.9", "0.7"))
        attained = qd.max_divergence(Gaussian("0.4", 1), Gaussian(0, 2))
        linear = qd.max_divergence(Gaussian(1, 1), Gaussian(0, 1))
        wider = qd.max_divergence(Gaussian(0, 2), Gaussian(0, 1))
        mixed = qd.max_divergence(Gaussian(0, 1), Mixture("0.3", Gaussian(0, 1), Gaussian(1, 1)))
    b1, b2, d, m, q = (binary(v) for v in ("0.7", "1.3", "1.9", "0.4", "0.3"))   # as the laws hold them
    with mpmath.workdps(REFERENCE):
        encloses(equal, d / b1)
        encloses(unequal, mpmath.log(b2 / b1) + d / b2)
        encloses(attained, mpmath.log(2) + m**2 / 6)
        # L = -log(1 - q + q e^{x - 1/2}) rises to -log(1 - q) as x → -∞
        encloses(mixed, -mpmath.log1p(-q))
    for est in (heavier, linear, wider):
        assert est.certified and est.value == mpmath.inf and est.error == 0, est


def test_a_supremum_read_from_expansion_constants_is_labelled_closed_form(monkeypatch):
    # Without ball arithmetic, auto's supremum search takes a finite tail limit from the expansions' constants
    # C_P - C_Q = Δ/max(λ1, λ2), a closed form of this very divergence: once labelled "sup search".
    monkeypatch.setattr(certified, "supported", lambda P, Q: False)
    with mpmath.workdps(30):
        auto = qd.max_divergence(Lap2(0, 1, 2), Lap2(1, 1, 2))
        with closed_forms(False):
            densities = qd.max_divergence(Lap2(0, 1, 2), Lap2(1, 1, 2))
    assert auto.method == "closed form" and auto.value == mpmath.mpf("0.5")
    assert densities.method == "sup search" and abs(densities.value - mpmath.mpf("0.5")) <= densities.error
