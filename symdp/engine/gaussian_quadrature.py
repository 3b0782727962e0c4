"""Gaussian laws known only through quadrature of their density: Gauss–Hermite (the density as the weight) and
Gauss–Legendre pieces, for the checks that must not use a Gaussian's closed forms (the standard τ = σ of N(0, σ²),
the privacy loss of a Gaussian pair from its two densities).

>>> with mpmath.workdps(30):
...     print(mpmath.nstr(gauss_legendre(mpmath.exp, [0, 1]).value, 25))   # e - 1
1.718281828459045235360287
"""

from __future__ import annotations

import math
from typing import Callable, Optional, Sequence

import mpmath

from symdp.engine import quadrature
from symdp.engine.continuous import Gaussian
from symdp.engine.privacy_loss import GaussianLaw, Law, gauss_legendre, privacy_loss
from symdp.estimate import Estimate
from symdp.numeric import to_mpf

PIECE = 8
"""Width of the quadrature pieces of a Gaussian density, in standard deviations."""


_HERMITE: dict = {}


def hermite_rule(n: int) -> tuple[tuple, tuple]:
    """Gauss–Hermite nodes and weights for ``∫ e^{-x²} f(x) dx`` with ``n`` nodes, at the working precision.

    Newton's method on the orthonormal Hermite recurrence (as Numerical Recipes' ``gauher``): to convergence in
    floats from the classical initial guesses, then four steps at 20 extra digits (quadratic convergence from 14
    correct digits gives more than 200). Cached per (n, precision).

    >>> with mpmath.workdps(30):
    ...     xs, ws = hermite_rule(20)
    ...     print(mpmath.nstr(mpmath.fsum(ws) - mpmath.sqrt(mpmath.pi), 5), mpmath.nstr(max(xs), 12))
    0.0 5.38748089001
    """
    key = (n, mpmath.mp.prec)
    if key in _HERMITE:
        return _HERMITE[key]
    guesses: list[float] = []
    for i in range((n + 1) // 2):
        if i == 0:
            z = math.sqrt(2 * n + 1) - 1.85575 * (2 * n + 1) ** (-1 / 6)
        elif i == 1:
            z = z - 1.14 * n**0.426 / z
        elif i == 2:
            z = 1.86 * z - 0.86 * guesses[0]
        elif i == 3:
            z = 1.91 * z - 0.91 * guesses[1]
        else:
            z = 2 * z - guesses[i - 2]
        for _ in range(100):
            p1, p2 = math.pi ** -0.25, 0.0
            for j in range(1, n + 1):
                p2, p3 = p1, p2
                p1 = z * math.sqrt(2 / j) * p2 - math.sqrt((j - 1) / j) * p3
            step = p1 / (math.sqrt(2 * n) * p2)
            z -= step
            if abs(step) <= 1e-14 * max(1.0, abs(z)):
                break
        guesses.append(z)
    half = []
    with mpmath.workdps(mpmath.mp.dps + 20):
        first = mpmath.pi ** (-mpmath.mpf(1) / 4)
        up = [mpmath.sqrt(mpmath.mpf(2) / j) for j in range(1, n + 1)]
        down = [mpmath.sqrt(mpmath.mpf(j - 1) / j) for j in range(1, n + 1)]
        for z in map(mpmath.mpf, guesses):
            for _ in range(4):
                p1, p2 = first, mpmath.mpf(0)
                for j in range(n):
                    p2, p3 = p1, p2
                    p1 = z * up[j] * p2 - down[j] * p3
                derivative = mpmath.sqrt(2 * n) * p2
                z -= p1 / derivative
            half.append((z, 2 / derivative**2))
    mirrored = [(-z, w) for z, w in reversed(half[:n // 2])]
    rule = (tuple(+z for z, _ in half + mirrored), tuple(+w for _, w in half + mirrored))
    _HERMITE[key] = rule
    return rule


HERMITE_NODES = (100, 80)
"""Two Gauss–Hermite rules: the larger gives the value, their difference the error."""

HERMITE_REACH = 4
"""Largest tilt ``|λ|·sd(T)`` of an exponential integrand that Gauss–Hermite takes (beyond: Gauss–Legendre pieces)."""


class GaussianQuadratureLaw(Law):
    """The law of ``T(X)`` for ``X ~ N(c, s²)``, known to the checks only through quadrature of the Gaussian density.

    Two uses: ``T(x) = x`` (a Gaussian law drawn as such), and ``T(x) = ln p(x) - ln q(x)`` with ``X ~ P`` (the
    privacy loss of a Gaussian pair, from the two densities — not from its derived law ``N(τ²/2, τ²)``). ``T`` must
    be affine (it is, in both uses), so that ``p(x) e^{λT(x)}`` is a Gaussian centred at ``c + λs²T'`` (the *tilt*).

    :meth:`expect` integrates ``p(x) g(T(x))``: for a smooth ``g`` of moderate tilt (moments, MGFs with
    ``|λ|·sd(T) <= 4``) by Gauss–Hermite quadrature, whose weight is the Gaussian density itself; otherwise by
    Gauss–Legendre quadrature on pieces of width ``8s`` around the (tilted) centre, out to where the Gaussian holds
    less than ``10^-(dps+10)``, with the points where ``T`` crosses given levels as extra breakpoints (kinks of
    ``(.)_+``). Tails, CDFs and atoms come from the ``exact`` law
    (``Φ`` of the density). There is no closed-form standard: :func:`standard` searches.

    >>> with mpmath.workdps(30):
    ...     X = GaussianQuadratureLaw.of_sd(2)
    ...     print(mpmath.nstr(X.expect(lambda v: v**2).value, 25), mpmath.nstr(X.mgf(1), 20))  # 4, e^2
    4.0 7.3890560989306502272
    """

    def __init__(self, base: Gaussian, other: Optional[Gaussian], exact: Law, key: tuple):
        self.base, self.other, self.exact, self.key = base, other, exact, key

    @classmethod
    def of_sd(cls, sd) -> "GaussianQuadratureLaw":
        """``N(0, sd²)`` itself."""
        s = to_mpf(sd, "sd")
        return cls(Gaussian(0, s), None, GaussianLaw(0, s), ("law", s))

    @classmethod
    def of_pair(cls, P_: Gaussian, Q_: Gaussian) -> "GaussianQuadratureLaw":
        """The privacy loss ``ln p(X) - ln q(X)``, ``X ~ P``, of two Gaussians of equal sd."""
        return cls(P_, Q_, privacy_loss(P_, Q_), ("pair", P_.mean, Q_.mean, P_.sd))

    def transform(self, x, log_p=None):
        """``T(x)``: x itself, or ``ln p(x) - ln q(x)`` (``log_p``: ``ln p(x)`` if already known)."""
        if self.other is None:
            return x
        return (self.base.logpdf(x) if log_p is None else log_p) - self.other.logpdf(x)

    def solve(self, level) -> list:
        """The x where ``T(x) = level``."""
        if self.other is None:
            return [to_mpf(level)]
        return quadrature.crossing_points(self.base, self.other, level)

    def __repr__(self):
        return f"GaussianQuadratureLaw{self.key}"

    def expect(self, g: Callable, levels: Sequence = (), tilt=0) -> Estimate:
        """``E[g(T(X))]``; ``levels``: values of T where g has a kink; ``tilt``: λ when ``g(v) ~ e^{λv}``."""
        c, s, T = self.base.mean, self.base.sd, self.transform
        slope = (T(c + s) - T(c - s)) / (2 * s)
        tilt = to_mpf(tilt, "tilt")
        if not levels and abs(tilt * slope) * s <= HERMITE_REACH:
            return self._hermite(g)
        centre = c + tilt * s**2 * slope
        reach = int(mpmath.sqrt(2 * (mpmath.mp.dps + 10) * mpmath.log(10))) + 2
        lo, hi = centre - reach * s, centre + reach * s
        points = [lo + PIECE * j * s for j in range((2 * reach) // PIECE + 1)] + [hi]
        points += [x for level in levels for x in self.solve(level) if lo < x < hi]
        points = sorted(set(points))

        def integrand(x):
            log_p = self.base.logpdf(x)
            return mpmath.exp(log_p) * g(T(x, log_p))

        return gauss_legendre(integrand, points)

    def _hermite(self, g: Callable) -> Estimate:
        """``E[g(T(X))]`` by Gauss–Hermite with the Gaussian density of X as the weight (two rules, for the error)."""
        c, s = self.base.mean, self.base.sd
        values = []
        for n in HERMITE_NODES:
            xs, ws = hermite_rule(n)
            terms = [w * g(self.transform(c + mpmath.sqrt(2) * s * x)) for x, w in zip(xs, ws)]
            values.append((mpmath.fsum(terms) / mpmath.sqrt(mpmath.pi),
                           mpmath.fsum(abs(term) for term in terms) / mpmath.sqrt(mpmath.pi)))
        (value, size), (other, _) = values
        return Estimate(value, abs(value - other) + 16 * size * mpmath.mpf(10) ** (-mpmath.mp.dps), "quadrature")

    def mean(self):
        return self.expect(lambda v: v).value

    def central_moment(self, order):
        m = self.mean()
        return self.expect(lambda v: (v - m) ** order).value

    def log_mgf(self, lam_):
        lam_ = to_mpf(lam_, "lambda")
        return mpmath.log(self.expect(lambda v: mpmath.exp(lam_ * v), tilt=lam_).value)

    def sf(self, x):
        return self.exact.sf(x)

    def cdf(self, x):
        return self.exact.cdf(x)

    def atom(self, x):
        return self.exact.atom(x)

    def bounds(self):
        return -mpmath.inf, mpmath.inf


__all__ = ["GaussianQuadratureLaw", "gauss_legendre", "hermite_rule"]
