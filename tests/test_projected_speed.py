"""The two-step SGD laws of symdp.theorems.bravo.sgd (symdp.engine.projected.NoisyStep) at the cost that lets
bravo.thm5.2 and bravo.thm5.4 run 100 draws: their densities and CDFs in Arb balls, the interior of R_α enclosed by
Petras integration, or estimated by Gauss–Legendre. Checked here: Gauss–Legendre and tanh-sinh give the same
divergence to within both errors, the enclosure holds the quadrature at more digits, CDFs equal a plain mpmath
quadrature written here, and the number of density evaluations a divergence takes (counted, not timed)."""

import mpmath
import pytest

from symdp.engine import projected
from symdp.engine.divergences import divergence
from symdp.theorems.bravo import sgd as bv

PINS = [(bv.LINEAR_52, bv._gradient_data), (bv.KINKED_52, bv._gradient_data), (bv.WORST_52, bv._gradient_data),
        (bv.WORST_54, bv._smooth_data)]


def laws(point, data):
    """The two projected laws of X_2, as bravo.thm5.2's witness builds them (b = the point's b)."""
    half = mpmath.mpf(point["D"]) / 2
    x0 = mpmath.mpf(point["structure"]["x0"]) * 2 * half
    eta, b = mpmath.mpf(point["eta"]), mpmath.mpf(point["b"])
    return [bv.two_step_law(x0, data(point["structure"][name], name, point), b / point["n"], eta, b,
                            eta * point["sigma"], -half, half) for name in ("z", "z'")]


@pytest.mark.parametrize("point, data", PINS)
def test_gauss_legendre_and_tanh_sinh_give_one_divergence(point, data, monkeypatch):
    with mpmath.workdps(bv.SGD_DPS):
        P, Q = laws(point, data)
        fast = divergence("renyi", P, Q, point["alpha"], method="quadrature")
        monkeypatch.setattr(projected, "_rule", lambda P, Q: "tanh-sinh")
        slow = divergence("renyi", P, Q, point["alpha"], method="quadrature")
    assert fast.error < mpmath.mpf(10) ** -19 and slow.error < mpmath.mpf(10) ** -19
    assert abs(fast.value - slow.value) <= fast.error + slow.error


def test_cdf_in_balls_is_the_quadrature_of_its_pieces():
    """P(Y ≤ y) and P(Y > y) of a kinked step against mpmath.quad of φ_{s0}(x − m) Φ((y − c x − g)/s) on each piece
    plus the atoms' normal CDFs, written here from the definition."""
    with mpmath.workdps(30):
        law = laws(bv.KINKED_52, bv._gradient_data)[0].base

        def tail(y, sign):
            total = mpmath.mpf(0)
            for v, pieces in law.maps:
                image = {e: c * e + g for a, b, c, g in pieces for e in (a, b) if e in (law.lo, law.hi)}
                for u, m in law.starts:
                    p_lo, p_hi = mpmath.ncdf(law.lo, m, law.s0), mpmath.ncdf(-law.hi, -m, law.s0)
                    part = sum(p * mpmath.ncdf(sign * (y - image[e]) / law.s) for p, e in ((p_lo, law.lo),
                                                                                         (p_hi, law.hi)))
                    for a, b, c, g in pieces:
                        part += mpmath.quad(lambda x, m=m, c=c, g=g: mpmath.npdf(x, m, law.s0)
                                            * mpmath.ncdf(sign * (y - c * x - g) / law.s), [a, b])
                    total += v * u * part
            return total

        for y in (law.lo, mpmath.mpf("0.1"), law.hi):
            assert abs(law.cdf(y) - tail(y, 1)) < mpmath.mpf(10) ** -27
            assert abs(law.sf(y) - tail(y, -1)) < mpmath.mpf(10) ** -27
            assert abs(law.cdf(y) + law.sf(y) - 1) < mpmath.mpf(10) ** -27


def test_a_divergence_takes_a_few_hundred_density_evaluations(monkeypatch):
    """Three runs (two node sets, two precisions) of Gauss–Legendre on the smooth interior: about 450 evaluations
    of the two densities, where tanh-sinh took about 1750."""
    calls = []
    density = projected.NoisyStep._density
    monkeypatch.setattr(projected.NoisyStep, "_density", lambda self, y: calls.append(y) or density(self, y))
    with mpmath.workdps(bv.SGD_DPS):
        P, Q = laws(bv.KINKED_52, bv._gradient_data)
        divergence("renyi", P, Q, bv.KINKED_52["alpha"], method="quadrature")
    assert 0 < len(calls) <= 600


@pytest.mark.parametrize("point, data", PINS)
def test_the_certified_renyi_holds_the_quadrature_at_more_digits(point, data):
    """The enclosure of R_α (Petras integration of the entire densities, the atoms from the CDFs' enclosures) of the
    laws built at 20 digits holds the Gauss–Legendre estimate of the same laws at 40 digits, and the enclosure at 30
    digits; at 20 digits the quadrature's own estimate is off by up to 4e-22 (its error says 3.5e-22), which the
    enclosure's 4e-28 resolves."""
    with mpmath.workdps(bv.SGD_DPS):
        P, Q = laws(point, data)
        ball = divergence("renyi", P, Q, point["alpha"])
    with mpmath.workdps(30):
        finer = divergence("renyi", P, Q, point["alpha"])
    with mpmath.workdps(40):
        reference = divergence("renyi", P, Q, point["alpha"], method="quadrature")
    assert ball.certified and finer.certified and str(reference.method) == "quadrature"
    assert ball.error < mpmath.mpf(10) ** -19 * ball.value
    assert abs(ball.value - reference.value) <= ball.error + reference.error
    assert abs(ball.value - finer.value) <= ball.error + finer.error


def test_a_certified_divergence_takes_a_few_hundred_complex_density_evaluations(monkeypatch):
    """Petras integration of the interior at 20 digits: some 480 evaluations of the two densities on complex balls
    (the atoms' CDFs are integrated apart)."""
    calls = []
    density = projected.NoisyStep.density_ball
    monkeypatch.setattr(projected.NoisyStep, "density_ball", lambda self, y: calls.append(y) or density(self, y))
    with mpmath.workdps(bv.SGD_DPS):
        P, Q = laws(bv.KINKED_52, bv._gradient_data)
        estimate = divergence("renyi", P, Q, bv.KINKED_52["alpha"])
    assert estimate.certified and 0 < len(calls) <= 1000
