"""Continuous one-dimensional distributions with mpmath densities.

Each family knows where its density is not smooth (:meth:`ContinuousDistribution.kinks`), where its mass sits
(:meth:`center`, :meth:`scale`), and how its log-density behaves in the tails (:meth:`tail`), so that the divergence
engine can split quadrature at every kink, crossing point and peak, and compute suprema that are only reached at ±∞.

Densities are evaluated in log space; Lap2's density uses a form without cancellation for any λ1, λ2 (including
λ1 = λ2, eq. (6)'s second branch, and λ1 ≈ λ2).

>>> from symdp.continuous import Lap2
>>> with mpmath.workdps(30):      # reference: catalogue-balle.md, balle19.eq6 (mpmath convolution integral)
...     print(mpmath.nstr(Lap2(0, 1, 2).pdf(mpmath.mpf('0.7')), 18))
0.152131812607669559
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import mpmath

from symdp.errors import InvalidDistribution
from symdp.numeric import to_mpf


def _positive(x, what: str) -> mpmath.mpf:
    v = to_mpf(x, what)
    if not (mpmath.isfinite(v) and v > 0):
        raise InvalidDistribution(f"{what} must be a positive number, got {mpmath.nstr(v, 10)}")
    return v


def _real(x, what: str) -> mpmath.mpf:
    v = to_mpf(x, what)
    if not mpmath.isfinite(v):
        raise InvalidDistribution(f"{what} must be a finite number, got {v}")
    return v


@dataclass(frozen=True)
class Tail:
    """Asymptotic form of the log-density as x → ±∞.

    ``kind == "gaussian"``: log p(x) = -(x - loc)²/(2 s²) + const, with ``s = param``.
    ``kind == "exponential"``: log p(x) = -|x|/λ + k·log|x| + O(1), with ``λ = param``, ``k = power``.
    """

    kind: Literal["gaussian", "exponential"]
    param: mpmath.mpf
    power: int = 0


class ContinuousDistribution:
    """Base class: a distribution on ℝ with a density. Subclasses implement ``logpdf``, ``cdf``, ``sf``."""

    def logpdf(self, x) -> mpmath.mpf:
        raise NotImplementedError

    def pdf(self, x) -> mpmath.mpf:
        return mpmath.exp(self.logpdf(x))

    def cdf(self, x) -> mpmath.mpf:
        raise NotImplementedError

    def sf(self, x) -> mpmath.mpf:
        """Survival function 1 - cdf, computed without cancellation in the right tail."""
        raise NotImplementedError

    def prob(self, a, b) -> mpmath.mpf:
        """P([a, b]), from the cdf on the left half and the sf on the right half to keep relative precision."""
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        c = self.center()
        if b <= c:
            return self.cdf(b) - self.cdf(a)
        if a >= c:
            return self.sf(a) - self.sf(b)
        return 1 - self.cdf(a) - self.sf(b)

    def kinks(self) -> tuple[mpmath.mpf, ...]:
        """Points where the density is not smooth (quadrature must split there)."""
        return ()

    def center(self) -> mpmath.mpf:
        raise NotImplementedError

    def scale(self) -> mpmath.mpf:
        raise NotImplementedError

    def tail(self) -> Tail:
        raise NotImplementedError

    def shifted(self, by) -> "ContinuousDistribution":
        """The law of X + by."""
        return Shifted(self, _real(by, "shift"))

    def canonical(self) -> "ContinuousDistribution":
        """The same law in its simplest form (shifts folded into a location family, trivial mixtures dropped):
        closed forms are recognised on this form."""
        return self

    def _moved(self, by: mpmath.mpf) -> "ContinuousDistribution":
        """The canonical law of X + by, X being this canonical law: a location family moves its location."""
        return Shifted(self, by)


@dataclass(frozen=True, init=False)
class Gaussian(ContinuousDistribution):
    """N(mean, sd²)."""

    mean: mpmath.mpf
    sd: mpmath.mpf

    def __init__(self, mean, sd):
        object.__setattr__(self, "mean", _real(mean, "Gaussian mean"))
        object.__setattr__(self, "sd", _positive(sd, "Gaussian standard deviation"))

    def logpdf(self, x):
        z = (mpmath.mpf(x) - self.mean) / self.sd
        return -z * z / 2 - mpmath.log(self.sd) - mpmath.log(2 * mpmath.pi) / 2

    def cdf(self, x):
        return mpmath.ncdf(mpmath.mpf(x), self.mean, self.sd)

    def sf(self, x):
        return mpmath.ncdf(-mpmath.mpf(x), -self.mean, self.sd)

    def center(self):
        return self.mean

    def scale(self):
        return self.sd

    def tail(self):
        return Tail("gaussian", self.sd)

    def _moved(self, by):
        return Gaussian(self.mean + by, self.sd)


@dataclass(frozen=True, init=False)
class Laplace(ContinuousDistribution):
    """Lap(loc, scale): density exp(-|x - loc|/scale) / (2 scale)."""

    loc: mpmath.mpf
    b: mpmath.mpf

    def __init__(self, loc, scale):
        object.__setattr__(self, "loc", _real(loc, "Laplace location"))
        object.__setattr__(self, "b", _positive(scale, "Laplace scale"))

    def logpdf(self, x):
        return -abs(mpmath.mpf(x) - self.loc) / self.b - mpmath.log(2 * self.b)

    def cdf(self, x):
        z = (mpmath.mpf(x) - self.loc) / self.b
        return mpmath.exp(z) / 2 if z <= 0 else 1 - mpmath.exp(-z) / 2

    def sf(self, x):
        z = (mpmath.mpf(x) - self.loc) / self.b
        return mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2

    def kinks(self):
        return (self.loc,)

    def center(self):
        return self.loc

    def scale(self):
        return self.b

    def tail(self):
        return Tail("exponential", self.b)

    def _moved(self, by):
        return Laplace(self.loc + by, self.b)


def _phi(y):
    """(1 - e^{-y}) / y, continuous at y = 0 and free of cancellation."""
    return mpmath.mpf(1) if y == 0 else -mpmath.expm1(-y) / y


@dataclass(frozen=True, init=False)
class Lap2(ContinuousDistribution):
    """loc + Lap(0, λ1) + Lap(0, λ2): the iterated Laplace mechanism (Balle et al. 2019, Lemma 3, eq. (6)).

    With λ = max(λ1, λ2), μ = min(λ1, λ2), a = |x - loc| and d = 1/μ - 1/λ, eq. (6) (both branches) equals

        Lap2(x) = e^{-a/λ} / (2(λ + μ)) · (1 + (a/λ) · (1 - e^{-a d}) / (a d)),

    which has no cancellation as λ1 → λ2 and reduces to e^{-a/λ}(λ + a)/(4λ²) at λ1 = λ2.
    """

    loc: mpmath.mpf
    scale1: mpmath.mpf
    scale2: mpmath.mpf

    def __init__(self, loc, scale1, scale2):
        object.__setattr__(self, "loc", _real(loc, "Lap2 location"))
        object.__setattr__(self, "scale1", _positive(scale1, "Lap2 scale1"))
        object.__setattr__(self, "scale2", _positive(scale2, "Lap2 scale2"))

    @property
    def _big(self):
        return max(self.scale1, self.scale2)

    @property
    def _small(self):
        return min(self.scale1, self.scale2)

    def logpdf(self, x):
        lam, mu = self._big, self._small
        a = abs(mpmath.mpf(x) - self.loc)
        d = 1 / mu - 1 / lam
        return -a / lam - mpmath.log(2 * (lam + mu)) + mpmath.log1p(a / lam * _phi(a * d))

    def sf(self, x):
        z = mpmath.mpf(x) - self.loc
        if z < 0:
            return 1 - self.sf(self.loc - z)
        lam, mu = self._big, self._small
        d = 1 / mu - 1 / lam
        return mpmath.exp(-z / lam) / 2 * (1 + mu * z * _phi(z * d) / (lam * (lam + mu)))

    def cdf(self, x):
        z = mpmath.mpf(x) - self.loc
        return self.sf(self.loc - z)

    def kinks(self):
        return (self.loc,)

    def center(self):
        return self.loc

    def scale(self):
        return self._big

    def tail(self):
        return Tail("exponential", self._big, 1 if self.scale1 == self.scale2 else 0)

    def _moved(self, by):
        return Lap2(self.loc + by, self.scale1, self.scale2)


@dataclass(frozen=True, init=False)
class Mixture(ContinuousDistribution):
    """(1 - q)·P + q·Q, e.g. the Poisson-subsampled Gaussian mechanism's output law."""

    q: mpmath.mpf
    first: ContinuousDistribution
    second: ContinuousDistribution

    def __init__(self, q, first, second):
        qv = to_mpf(q, "mixture weight q")
        if not (0 <= qv <= 1):
            raise InvalidDistribution(f"mixture weight q must lie in [0, 1], got {mpmath.nstr(qv, 10)}")
        for d in (first, second):
            if not isinstance(d, ContinuousDistribution):
                raise InvalidDistribution("mix(q, P, Q) needs two continuous distributions")
        object.__setattr__(self, "q", qv)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)

    def logpdf(self, x):
        if self.q == 0:
            return self.first.logpdf(x)
        if self.q == 1:
            return self.second.logpdf(x)
        a = mpmath.log1p(-self.q) + self.first.logpdf(x)
        b = mpmath.log(self.q) + self.second.logpdf(x)
        top = max(a, b)
        return top + mpmath.log(mpmath.exp(a - top) + mpmath.exp(b - top))

    def cdf(self, x):
        return (1 - self.q) * self.first.cdf(x) + self.q * self.second.cdf(x)

    def sf(self, x):
        return (1 - self.q) * self.first.sf(x) + self.q * self.second.sf(x)

    def kinks(self):
        return tuple(sorted(set(self.first.kinks()) | set(self.second.kinks())))

    def center(self):
        return (1 - self.q) * self.first.center() + self.q * self.second.center()

    def scale(self):
        spread = abs(self.first.center() - self.second.center())
        return max(self.first.scale(), self.second.scale(), spread)

    def tail(self):
        # The heavier tail dominates.
        t1, t2 = self.first.tail(), self.second.tail()
        if self.q == 0:
            return t1
        if self.q == 1:
            return t2
        if t1.kind != t2.kind:
            return t1 if t1.kind == "exponential" else t2
        return max(t1, t2, key=lambda t: (t.param, t.power))

    def canonical(self):
        if self.q == 0:
            return self.first.canonical()
        if self.q == 1:
            return self.second.canonical()
        return Mixture(self.q, self.first.canonical(), self.second.canonical())


@dataclass(frozen=True)
class Shifted(ContinuousDistribution):
    """The law of X + shift."""

    base: ContinuousDistribution
    shift: mpmath.mpf

    def logpdf(self, x):
        return self.base.logpdf(mpmath.mpf(x) - self.shift)

    def cdf(self, x):
        return self.base.cdf(mpmath.mpf(x) - self.shift)

    def sf(self, x):
        return self.base.sf(mpmath.mpf(x) - self.shift)

    def kinks(self):
        return tuple(k + self.shift for k in self.base.kinks())

    def center(self):
        return self.base.center() + self.shift

    def scale(self):
        return self.base.scale()

    def tail(self):
        return self.base.tail()

    def canonical(self):
        return self.base.canonical()._moved(self.shift)

    def _moved(self, by):
        return Shifted(self.base, self.shift + by)


def canonical(D: ContinuousDistribution) -> ContinuousDistribution:
    """The same law in its simplest form: shifts folded into Gaussian/Laplace/Lap2 locations, nested shifts
    merged, mixtures with weight 0 or 1 replaced by their component. Closed forms are recognised on this form.

    >>> canonical(Gaussian(0, 1).shifted(2))
    Gaussian(mean=mpf('2.0'), sd=mpf('1.0'))
    """
    return D.canonical()
