"""Certified expectations of a privacy loss, a Gaussian variable and the Laplace loss law
(:mod:`symdp.engine.loss_integrals`), against closed forms computed here in mpmath at more digits than the
enclosures (each closed form named): an enclosure that misses its closed form fails.
"""

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.engine.continuous import Gaussian, Laplace
from symdp.engine.loss_integrals import (absolute_envelope, gaussian_expectation, laplace_loss_expectation, loss_mean,
                                         pair_expectation)
from symdp.engine.privacy_loss import LaplaceLossLaw

DPS = 30


def encloses(estimate, exact):
    """Whether a certified estimate (made at DPS digits) holds a reference computed at more digits."""
    with mpmath.workdps(3 * DPS):
        return estimate.certified and abs(estimate.value - exact) <= estimate.error


def gaussian_kl(m1, s1, m2, s2):
    # KL(N(m1, s1²) ‖ N(m2, s2²)) = ln(s2/s1) + (s1² + (m1 - m2)²)/(2 s2²) - 1/2 (closed form)
    return mpmath.log(s2 / s1) + (s1**2 + (m1 - m2) ** 2) / (2 * s2**2) - mpmath.mpf(1) / 2


def laplace_kl(m1, b1, m2, b2):
    # KL(Lap(m1, b1) ‖ Lap(m2, b2)) = ln(b2/b1) + |Δ|/b2 + (b1/b2) e^{-|Δ|/b1} - 1 (closed form)
    d = abs(m1 - m2)
    return mpmath.log(b2 / b1) + d / b2 + b1 / b2 * mpmath.exp(-d / b1) - 1


def mp(x):
    """A drawn float as the laws read it at DPS digits (its decimal, rounded there)."""
    with mpmath.workdps(DPS):
        return mpmath.mpf(repr(x))


SHIFTS = st.floats(-4, 4).filter(lambda d: abs(d) > 1e-3)
SCALES = st.floats(0.3, 3)


@settings(max_examples=25, deadline=None)
@given(SHIFTS, SCALES, SCALES)
def test_loss_mean_encloses_the_gaussian_kl(d, s1, s2):
    with mpmath.workdps(DPS):
        k = loss_mean(Gaussian(0, s1), Gaussian(d, s2))
        assert k.error < 1e-25 * max(1, abs(k.value))
    assert encloses(k, gaussian_kl(0, mp(s1), mp(d), mp(s2)))


@settings(max_examples=25, deadline=None)
@given(SHIFTS, SCALES, SCALES)
def test_loss_mean_encloses_the_laplace_kl(d, b1, b2):
    # the pieces of a window meet exactly: a rounded end once left a sliver of mass 7e-50 unintegrated here
    with mpmath.workdps(DPS):
        k = loss_mean(Laplace(0, b1), Laplace(d, b2))
    assert encloses(k, laplace_kl(0, mp(b1), mp(d), mp(b2)))


def test_loss_mean_of_the_pair_whose_window_lost_a_sliver():
    with mpmath.workdps(50):
        P, Q = Laplace(0, 3.0708804923834636), Laplace(-1.016979187075528, 3.0708804923834636)
        k = loss_mean(P, Q)
        one = pair_expectation(P, Q, lambda v: 1)
    with mpmath.workdps(150):
        reference = laplace_kl(0, P.b, Q.loc, Q.b)
        assert abs(k.value - reference) <= k.error and abs(one.value - 1) <= one.error


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["gaussian", "laplace"]), SHIFTS, SCALES, SCALES)
def test_the_loss_integrates_to_one_against_p_tilted_by_minus_one(family, d, s1, s2):
    # E_P[e^{-L}] = ∫ q = 1 for equal supports (Definition 3.1)
    law = Gaussian if family == "gaussian" else Laplace
    with mpmath.workdps(DPS):
        one = pair_expectation(law(0, s1), law(d, s2), lambda v: 1, tilt=-1)
    assert encloses(one, 1)


@pytest.mark.parametrize("lam", [-3.0, -1.0, 0.5, 2.0])
@pytest.mark.parametrize("d, s", [(1.0, 1.0), (-0.5, 2.0), (4.0, 0.2)])
def test_pair_mgf_is_the_gaussian_losss(lam, d, s):
    # the loss of N(0, σ²) against N(Δ, σ²) is N(τ²/2, τ²), τ = |Δ|/σ: E e^{λL} = e^{λτ²/2 + λ²τ²/2} (closed form)
    with mpmath.workdps(DPS):
        m = pair_expectation(Gaussian(0, s), Gaussian(d, s), lambda v: 1, tilt=lam)
    tau2 = (mp(d) / mp(s)) ** 2
    assert encloses(m, mpmath.exp(mp(lam) * tau2 / 2 + mp(lam) ** 2 * tau2 / 2))


@pytest.mark.parametrize("sd", [0.05, 1.0, 5.0])
def test_gaussian_expectation_moments_and_mgf(sd):
    # E X^k = (k - 1)!! σ^k for even k, 0 for odd; E e^{λX} = e^{λ²σ²/2} (closed forms)
    s = mp(sd)
    with mpmath.workdps(DPS):
        moments = {k: gaussian_expectation(sd, lambda x, k=k: x**k,
                                           envelope=[(c * (k * s / mpmath.e) ** k, t / s) for c, t in ((1, 1), (1, -1))])
                   for k in (1, 2, 3, 4)}
        mgf = gaussian_expectation(sd, lambda x: 1, tilt=-0.5)
    for k, m in moments.items():
        assert encloses(m, mpmath.fac2(k - 1) * s**k if k % 2 == 0 else 0), k
    assert encloses(mgf, mpmath.exp(s**2 / 8))


@pytest.mark.parametrize("a", [0.01, 0.7, 3.0, 8.0])
def test_laplace_loss_expectation_against_its_closed_forms(a):
    # E[L] = a + e^{-a} - 1, E[e^{λL}] = e^{λa}/2 + e^{-a(1+λ)}/2 + e^{-a/2} sinh(a y)/(2y), y = λ + 1/2
    # (proofs LAPLACE_MEAN, LAPLACE_MGF), E[L - EL] = 0
    A = mp(a)
    with mpmath.workdps(DPS):
        mean = laplace_loss_expectation(a, lambda v: v)
        centred = laplace_loss_expectation(a, lambda v: v, centred=True)
        mgfs = {lam: laplace_loss_expectation(a, lambda v, lam=lam: (lam * v).exp()) for lam in (-3, -1, 2)}
    assert encloses(mean, A + mpmath.expm1(-A)) and encloses(centred, 0)
    with mpmath.workdps(3 * DPS):
        for lam, m in mgfs.items():
            assert encloses(m, LaplaceLossLaw(A).mgf(lam)), lam


def test_absolute_envelope_bounds_the_absolute_value():
    for theta in (mpmath.mpf(1), mpmath.mpf(1) / 8):
        envelope = absolute_envelope(theta)
        for v in (-50, -3, -0.1, 0, 0.2, 7, 80):
            assert abs(v) <= sum(c * mpmath.exp(t * v) for c, t in envelope)
