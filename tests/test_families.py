"""Families declared once (issue 16): what is derived from a declaration agrees with the textbook formulas the
families were written with by hand, ball by ball and digit by digit, and a new family is a short declaration."""

from dataclasses import dataclass

import mpmath
import pytest
import sympy as sp
from flint import acb, arb, ctx

from symdp.engine import quadrature
from symdp.engine.continuous import Declaration, Declared, Gaussian, Lap2, Laplace, Tail, TailExpansion
from symdp.engine.families import compile_family
from symdp.errors import InvalidDistribution


def _close(a, b, ulps=8):
    return abs(a - b) <= ulps * mpmath.eps * max(1, abs(b))


POINTS = ["-7.25", "-1", "0.3", "0.5", "2", "40"]


@pytest.mark.parametrize("x", POINTS)
def test_gaussian_mpmath_route_is_the_textbook_formula(x):
    with mpmath.workdps(40):
        G, x = Gaussian("0.5", "1.5"), mpmath.mpf(x)
        z = (x - G.mean) / G.sd
        assert _close(G.logpdf(x), -z * z / 2 - mpmath.log(G.sd) - mpmath.log(2 * mpmath.pi) / 2)
        assert _close(G.cdf(x), mpmath.ncdf(x, G.mean, G.sd))
        assert _close(G.sf(x), mpmath.ncdf(-x, -G.mean, G.sd))


@pytest.mark.parametrize("x", POINTS)
def test_laplace_mpmath_route_is_the_textbook_formula(x):
    with mpmath.workdps(40):
        L, x = Laplace("0.5", "1.5"), mpmath.mpf(x)
        z = (x - L.loc) / L.b
        assert _close(L.logpdf(x), -abs(z) - mpmath.log(2 * L.b))
        assert _close(L.cdf(x), mpmath.exp(z) / 2 if z <= 0 else 1 - mpmath.exp(-z) / 2)
        assert _close(L.sf(x), mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2)


@pytest.mark.parametrize("law", [Gaussian("0.5", "1.5"), Laplace("0.5", "1.5")], ids=repr)
@pytest.mark.parametrize("x", POINTS + ["0.5"])
def test_arb_route_encloses_the_mpmath_route(law, x):
    ctx.prec = 200
    try:
        with mpmath.workprec(300):
            ball, exact = arb(x), mpmath.mpf(x)
            for arb_f, mp_f in ((law.arb_logpdf, law.logpdf), (law.arb_cdf, law.cdf), (law.arb_sf, law.sf)):
                value = arb_f(ball)
                assert value.rad() < 1e-50 and value.overlaps(arb(mp_f(exact)))
            h = mpmath.mpf("1e-30")
            slope = (law.logpdf(exact + h) - law.logpdf(exact - h)) / (2 * h)
            if exact != 0.5 or isinstance(law, Gaussian):
                assert abs(law.arb_dlogpdf(ball).mid() - arb(slope)) < 1e-25
            # a wide ball (across Laplace's kink): the range over it, enclosed
            wide = arb(exact, 1)
            for point in mpmath.linspace(exact - 1, exact + 1, 9):
                assert law.arb_logpdf(wide).overlaps(arb(law.logpdf(point)))
                slope = arb((law.logpdf(point + h) - law.logpdf(point - h)) / (2 * h), 1e-40)
                assert law.arb_dlogpdf(wide).overlaps(slope) or abs(point - mpmath.mpf("0.5")) < h
    finally:
        ctx.prec = 53


def test_pieces_and_complex_balls():
    ctx.prec = 128
    try:
        L = Laplace(1, 2)
        z = acb(arb("2.5"), arb("0.001"))
        assert L.arb_logpdf(z, mpmath.mpf(3)).real.overlaps(arb(-0.75) - arb(4).log())
        assert L.arb_dlogpdf(arb(0), mpmath.mpf(-3)).overlaps(arb("0.5"))
        with pytest.raises(ValueError):
            L.arb_logpdf(arb(1), mpmath.mpf(1))
        a, b, c = L.arb_log_quadratic(mpmath.mpf(5))
        assert a.is_zero() and b.overlaps(arb(-0.5)) and c.overlaps(arb(0.5) - arb(4).log())
        low, high = L.arb_dlogpdf_bounds()
        assert low.overlaps(arb(-0.5)) and high.overlaps(arb(0.5))
        assert Gaussian(0, 1).arb_dlogpdf_bounds() is None
        _, low = Gaussian(3, 2).arb_envelope(-1, 0)   # u = -x: -(u + 3)²/8 - log(2√(2π))
        A, B, C = low
        assert A.overlaps(arb(1) / 8) and B.overlaps(arb(-3) / 4) and C.overlaps(-arb(9) / 8 - (2 * (2 * arb.pi()).sqrt()).log())
        with pytest.raises(ValueError):
            Laplace(5, 1).arb_envelope(1, 4)
    finally:
        ctx.prec = 53


def test_expansions_and_crossings():
    G = Gaussian(1, 2)
    e = G.expansion(-1)
    v = G.sd ** 2
    hand = TailExpansion(1 / (2 * v), -G.mean / v, 0, -G.mean**2 / (2 * v) - mpmath.log(G.sd * mpmath.sqrt(2 * mpmath.pi)))
    assert all(_close(a, b) for a, b in zip(vars(e).values(), vars(hand).values()))
    hand = TailExpansion(0, -mpmath.mpf(1) / 2, 0, mpmath.mpf(3) / 2 - mpmath.log(4))
    assert all(_close(a, b) for a, b in zip(vars(Laplace(3, 2).expansion(1)).values(), vars(hand).values()))
    assert Gaussian(0, 1).crossings(Gaussian(1, 1), 0) == [mpmath.mpf("0.5")]
    roots = Gaussian(0, 1).crossings(Gaussian(0, 2), 0)   # x² (1/2 - 1/8) = log 2
    assert len(roots) == 2 and all(_close(abs(r), mpmath.sqrt(mpmath.log(2) / mpmath.mpf("0.375"))) for r in roots)
    assert Laplace(0, 1).crossings(Laplace(2, 1), mpmath.mpf("0.5")) == [mpmath.mpf("0.75")]
    assert Laplace(0, 1).crossings(Laplace(2, 1), 3) == []
    assert Gaussian(0, 1).crossings(Laplace(0, 1), 0) is None   # only within a family, as before
    assert Lap2(0, 1, 2).crossings(Lap2(1, 1, 2), 0) is None     # not piecewise quadratic


def test_location_families_move_exactly():
    big = mpmath.mpf(2) ** 80 + 1
    for law in (Gaussian(3, 2), Laplace(3, 2), Lap2(3, 1, 2)):
        moved = law._moved(big)
        assert moved.center() == mpmath.fadd(3, big, exact=True) and type(moved) is type(law)
        assert law.located()[1] == 3
    assert Lap2(0, 1, 2).located()[0] == Lap2(5, 2, 1).located()[0] == Lap2(0, 2, 1)
    assert Laplace(3, 2).located() == (Laplace(0, 2), 3)


def test_lap2_overrides_agree_with_its_declaration():
    """Lap2's hand-written forms are the declared eq. (6), without its cancellation."""
    with mpmath.workdps(60):
        D = Lap2("0.25", 1, 3)
        c = D._compiled()
        for x in ("-4", "0", "0.1", "9"):
            x = mpmath.mpf(x)
            assert _close(D.logpdf(x), c.mp_log[D._piece(x)](x, c.constants["mpmath"](*D._parameters())), 1e10)


@dataclass(frozen=True, init=False)
class Logistic(Declared):
    loc: mpmath.mpf
    s: mpmath.mpf
    location, positive = "loc", ("s",)

    @staticmethod
    def declare(x, loc, s):
        z = (x - loc) / s
        return Declaration(log_density=[-z - 2 * sp.log(1 + sp.exp(-z)) - sp.log(s)],
                           cdf=[1 / (1 + sp.exp(-z))], sf=[1 / (1 + sp.exp(z))])

    def center(self):
        return self.loc

    def scale(self):
        return self.s

    def tail(self):
        return Tail("exponential", self.s)


def test_a_new_family_is_a_declaration():
    L = Logistic(1, 2)
    assert _close(L.pdf(3), mpmath.exp(-1) / (2 * (1 + mpmath.exp(-1)) ** 2))
    assert _close(L.cdf(3), 1 / (1 + mpmath.exp(-1)))
    assert L.kinks() == () and L.arb_log_quadratic(0) is None and not L.arb_supported()
    ctx.prec = 100
    try:
        assert L.arb_logpdf(arb(3)).overlaps(arb(L.logpdf(3)))
        assert L.arb_dlogpdf(arb(1)).overlaps(arb(0))
    finally:
        ctx.prec = 53
    with pytest.raises(InvalidDistribution):
        Logistic(0, -1)
    value = quadrature.kl(L, Logistic(2, 2), method="quadrature").value
    direct = mpmath.quad(lambda x: L.pdf(x) * (L.logpdf(x) - Logistic(2, 2).logpdf(x)), [-mpmath.inf, 0, 3, mpmath.inf])
    assert abs(value - direct) < 1e-12


def test_compiled_once_and_hoisted():
    c = Gaussian._compiled()
    assert Gaussian._compiled() is c
    assert "log" not in c.arb_log[0].source and "k[" in c.arb_log[0].source   # the constant is hoisted
    f = compile_family(lambda x, m: Declaration([-(x - m)**2]), ("m",))
    assert f.quadratic == [(f.quadratic[0][0], f.quadratic[0][1], f.quadratic[0][2])]
