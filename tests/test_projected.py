"""Projected laws (symdp.engine.projected): a Gaussian step projected onto an interval, through the engine's door.

References are written here: for two Gaussians of one sd the interior integral of p^α q^{1-α} is a Gaussian CDF
difference times e^{α(α-1)Δ²/(2σ²)} (Gaussian algebra), the atoms are the CDFs at the ends; KL and the hockey stick
by the test's own quadrature with the crossing point of the linear log-ratio placed by hand.
"""

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from symdp.engine.continuous import Gaussian, Laplace
from symdp.engine.divergences import divergence
from symdp.engine.projected import Projected
from symdp.errors import InvalidDistribution
from symdp.numeric import to_mpf

DPS = 30


@pytest.fixture(autouse=True)
def precision():
    with mpmath.workdps(DPS):
        yield


def ends(m, s, a, b):
    return mpmath.ncdf(a, m, s), mpmath.ncdf(-b, -m, s)     # the upper tail by symmetry: no 1 - ncdf cancellation


def renyi_reference(alpha, m1, m2, s, a, b):
    centre = alpha * m1 + (1 - alpha) * m2
    # the mass of N(centre, s) on [a, b] from the nearer tail: with the centre far outside the interval, Φ(b) − Φ(a)
    # cancels to a few digits (centre −5, s 0.5, [−1, 1]: 1 − 6e-16 minus 1 − 2e-33), which e^{α(α−1)…} magnifies
    mass = (mpmath.ncdf(-a, -centre, s) - mpmath.ncdf(-b, -centre, s) if centre < a
            else mpmath.ncdf(b, centre, s) - mpmath.ncdf(a, centre, s))
    inside = mpmath.exp(alpha * (alpha - 1) * (m1 - m2) ** 2 / (2 * s**2)) * mass
    atoms = sum(p**alpha * q ** (1 - alpha) for p, q in zip(ends(m1, s, a, b), ends(m2, s, a, b)))
    return mpmath.log(inside + atoms) / (alpha - 1)


@settings(max_examples=25, deadline=None)
@given(st.floats(-2, 2), st.floats(-2, 2), st.floats(0.1, 3), st.floats(0.2, 3), st.floats(1.1, 8))
def test_renyi_of_projected_gaussians_is_the_gaussian_algebra(m1, m2, s, half, alpha):
    P, Q = Projected(Gaussian(m1, s), -half, half), Projected(Gaussian(m2, s), -half, half)
    r = divergence("renyi", P, Q, alpha)
    # symdp reads a float as the decimal it prints (1.1 is 11/10): the reference takes the same numbers
    alpha, m1, m2, s, half = (to_mpf(x) for x in (alpha, m1, m2, s, half))
    want = renyi_reference(alpha, m1, m2, s, -half, half)
    assert abs(r.value - want) <= r.error + mpmath.mpf(10) ** -(DPS - 8) * max(1, abs(want))
    # projection is post-processing: never above the unprojected α Δ²/(2σ²)
    assert r.value <= alpha * (m1 - m2) ** 2 / (2 * s**2) + r.error


def test_kl_and_hockey_stick_by_the_tests_own_quadrature():
    m1, m2, s, a, b = mpmath.mpf("0.7"), mpmath.mpf("-0.3"), mpmath.mpf("0.6"), mpmath.mpf(-1), mpmath.mpf("1.5")
    P, Q = Projected(Gaussian(m1, s), a, b), Projected(Gaussian(m2, s), a, b)
    p, q = (lambda x: mpmath.npdf(x, m1, s)), (lambda x: mpmath.npdf(x, m2, s))
    atoms = list(zip(ends(m1, s, a, b), ends(m2, s, a, b)))
    kl = sum(x * mpmath.log(x / y) for x, y in atoms) + mpmath.quad(lambda x: p(x) * mpmath.log(p(x) / q(x)), [a, b])
    assert abs(divergence("kl", P, Q).value - kl) < mpmath.mpf(10) ** -20
    eps = mpmath.mpf("0.4")   # log p/q = (m1 - m2)(x - (m1 + m2)/2)/s² crosses eps at one point
    cross = eps * s**2 / (m1 - m2) + (m1 + m2) / 2
    hs = (sum(max(x - mpmath.exp(eps) * y, 0) for x, y in atoms)
          + mpmath.quad(lambda x: p(x) - mpmath.exp(eps) * q(x), [cross, b]))
    assert abs(divergence("hockey_stick", P, Q, eps).value - hs) < mpmath.mpf(10) ** -20
    assert abs(divergence("tv", P, Q).value - divergence("hockey_stick", P, Q, 0).value) < mpmath.mpf(10) ** -25


def test_an_atom_that_only_one_law_has_is_an_infinite_divergence():
    # a Laplace law puts mass beyond the end, and so does every Gaussian: no infinite case among them, but a law
    # whose support stops short of the end cannot be built here; the interval must be shared
    P, Q = Projected(Gaussian(0, 1), -1, 1), Projected(Laplace(0, 1), -1, 2)
    with pytest.raises(InvalidDistribution, match="different spaces"):
        divergence("kl", P, Q)


def test_bad_projections_are_refused_with_a_clear_error():
    with pytest.raises(InvalidDistribution, match="low < high"):
        Projected(Gaussian(0, 1), 1, 1)
    with pytest.raises(InvalidDistribution, match="continuous law"):
        Projected(3, 0, 1)


def test_clipped_mixtures_in_balls_against_the_projected_laws_quadrature_and_one_component():
    from flint import arb

    from symdp.engine.continuous import Mixture
    from symdp.engine.projected import clipped_mixture_renyi, clipped_renyi
    from symdp.estimate import in_balls, mpf_of

    with in_balls():
        one = clipped_renyi(arb("0.3"), arb("-0.2"), arb("0.5"), arb(1), arb("2.5"))
        same = clipped_mixture_renyi(((arb(1), arb("0.3")),), ((arb(1), arb("-0.2")),), arb("0.5"), arb(1), arb("2.5"))
        assert one.overlaps(same) and same.rad() < mpmath.mpf(10) ** -(DPS - 2)
        P = ((arb(1) / 4, arb("-0.5")), (arb(3) / 4, arb("0.5")))
        Q = ((arb(3) / 4, arb("-0.45")), (arb(1) / 4, arb("0.48")))
        ball = clipped_mixture_renyi(P, Q, arb("0.4"), arb(1), arb("2.7"))
    # the projected laws measured by mpmath quadrature (atoms from CDFs): a second computation
    laws = [Projected(Mixture(w, Gaussian(to_mpf(a), to_mpf("0.4")), Gaussian(to_mpf(b), to_mpf("0.4"))), -1, 1)
            for w, a, b in ((to_mpf("0.75"), "-0.5", "0.5"), (to_mpf("0.25"), "-0.45", "0.48"))]
    quadrature = divergence("renyi", *laws, to_mpf("2.7"))
    assert abs(mpf_of(ball.mid()) - quadrature.value) <= quadrature.error + mpf_of(ball.rad())
    assert quadrature.error < mpmath.mpf(10) ** -20
