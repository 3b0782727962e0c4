"""The privacy-loss random variable with its exact law, and the optimal subgaussian standard of a law.

For a pair (P, Q) the privacy loss is ``L = ln(p(X)/q(X))`` with ``X ~ P`` (Dwork & Rothblum, Definition 3.1).
:func:`privacy_loss` returns its law *exactly*, as a :class:`Law`:

* a finite pair gives a :class:`DiscreteLaw` (one atom per point of P's support);
* ``N(m1, σ²)`` against ``N(m2, σ²)`` gives ``L ~ N(Δ²/(2σ²), Δ²/σ²)`` with ``Δ = m1 - m2`` (either direction:
  ``L = (Δ/σ²)(X - (m1 + m2)/2)`` is an affine image of X), a :class:`GaussianLaw`;
* ``Lap(m1, b)`` against ``Lap(m2, b)`` gives a :class:`LaplaceLossLaw` with ``a = |m1 - m2|/b``: an atom of mass
  1/2 at ``+a`` (X beyond P's centre, away from Q's), an atom of mass ``e^{-a}/2`` at ``-a`` (X beyond Q's
  centre), and between them the density ``e^{(ℓ - a)/2}/4`` on ``(-a, a)`` (X between the centres, where
  ``ℓ = (|x - m2| - |x - m1|)/b`` is affine in x). Its MGF is, with ``y = λ + 1/2``,

      E[e^{λL}] = e^{λa}/2 + e^{-a(1+λ)}/2 + e^{-a/2} sinh(a y)/(2 y),

  so ``E[e^{-L}] = 1`` and ``E[L] = a + e^{-a} - 1 = KL``; proofs/dwork/subgaussian.py derives both.

Every law knows its mean, central moments, tails ``P[L >= t]`` / ``P[L <= t]``, support bounds and log-MGF. The
*optimal subgaussian standard* ``τ(X) = sqrt(sup_{λ≠0} 2 ln E[e^{λ(X - EX)}]/λ²)`` is computed by
:func:`optimal_standard` (closed form for Gaussian laws, ``τ = σ`` exactly; for a finite law a certified enclosure
by a branch-and-bound search over λ in ball arithmetic, :func:`certified_standard`; a search on grids otherwise):

* as ``λ → 0`` the ratio ``r(λ) = 2K(λ)/λ²`` (K the centred cumulant generating function) tends to ``Var X``, and
  ``r(λ) = Var X + κ₃λ/3 + O(λ²)``; the sup is this limit when r is below it everywhere (Rademacher:
  ``r(λ) = 2 ln cosh λ/λ² < 1``);
* for X in ``[m - M₋, m + M₊]``, ``K(λ) <= λM₊`` for λ > 0 (and ``|λ|M₋`` for λ < 0), so ``r(λ) <= 2M₊/λ``: the
  ratio *tends to 0* as ``|λ| → ∞``, with the exact asymptote ``r(λ) = 2M₊/λ + 2 ln p₊/λ² + o(λ⁻²)`` where ``p₊``
  is the mass of the top atom (:func:`ratio_asymptote`). Hence a bounded law's sup is never approached at
  infinity, and no λ beyond ``2M₊/Var X`` can beat the λ → 0 limit: the search range is finite and known.

>>> import mpmath
>>> from symdp.engine.continuous import Gaussian, Laplace
>>> with mpmath.workdps(30):
...     L = privacy_loss(Gaussian(0, 2), Gaussian(1, 2))
...     print(L, optimal_standard(L).tau.value)              # Δ²/(2σ²) = 1/8, τ = Δ/σ = 1/2
GaussianLaw(mean=0.125, sd=0.5) 0.5
>>> with mpmath.workdps(30):
...     L = privacy_loss(Laplace(0, 1), Laplace(1, 1))
...     print(mpmath.nstr(L.mean(), 20), mpmath.nstr(L.mgf(-1), 20))   # KL = e^{-1}; E[e^{-L}] = 1
0.3678794411714423216 1.0
"""

from __future__ import annotations

import functools
import heapq
import math
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import mpmath
from flint import arb, ctx

from symdp.engine.continuous import ContinuousDistribution, Gaussian, Laplace, canonical
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, Method, arb_precision, enclosure, exact_ball, in_balls, mpf_nearest, mpf_of
from symdp.engine.finite import FiniteDistribution
from symdp.numeric import logsumexp as _logsumexp, ncdf, to_mpf
from symdp.engine.finite import _log_ratio as log_ratio_ball, privacy_loss as _finite_privacy_loss
from symdp.precision import closed_forms_enabled, proofs_wanted

GUARD = 10
"""Extra digits of every ratio evaluation, on top of the digits its cancellation at small ``|λ|`` costs."""


def gauss_legendre(f: Callable, points: Sequence) -> Estimate:
    """``∫ f`` over consecutive ``points`` by Gauss–Legendre, with mpmath's error estimate, scaled: mpmath stops on an
    *absolute* error, so ``f`` is divided by its largest magnitude at the points and the midpoints first (a tilted
    MGF of e^60 would otherwise run to the maximal degree, a hockey stick of 1e-30 stop at no relative digit).

    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(gauss_legendre(mpmath.exp, [0, 1]).value, 25))   # e - 1
    1.718281828459045235360287
    """
    probes = list(points) + [(u + v) / 2 for u, v in zip(points, points[1:])]
    norm = max(abs(f(x)) for x in probes) or mpmath.mpf(1)
    value, error = mpmath.quad(lambda x: f(x) / norm, points, method="gauss-legendre", error=True)
    return Estimate(value * norm, (error + 16 * abs(value) * mpmath.mpf(10) ** (-mpmath.mp.dps)) * norm,
                    Method.QUADRATURE)


def exact_sum(terms) -> Estimate:
    """A finite sum at the working precision, with the rounding of its terms as its error (on the scale of their
    magnitudes, where it cancels)."""
    terms = list(terms)
    size = mpmath.fsum(abs(x) for x in terms)
    return Estimate(mpmath.fsum(terms), 16 * size * mpmath.mpf(10) ** (-mpmath.mp.dps), Method.EXACT, scale=size)


# --- laws ----------------------------------------------------------------------------------------------------------


class Law:
    """A real random variable with a computable law. Subclasses implement the abstract methods below."""

    def mean(self) -> mpmath.mpf:
        raise NotImplementedError

    def central_moment(self, k: int) -> mpmath.mpf:
        """``E[(X - EX)^k]`` for an integer ``k >= 0``."""
        raise NotImplementedError

    def log_mgf(self, lam) -> mpmath.mpf:
        """``ln E[e^{λX}]`` (``+inf`` where the MGF diverges)."""
        raise NotImplementedError

    def sf(self, t) -> mpmath.mpf:
        """``P[X >= t]`` (atoms at t included)."""
        raise NotImplementedError

    def cdf(self, t) -> mpmath.mpf:
        """``P[X <= t]`` (atoms at t included)."""
        raise NotImplementedError

    def bounds(self) -> tuple[mpmath.mpf, mpmath.mpf]:
        """Essential infimum and supremum of X (``∓inf`` if unbounded)."""
        raise NotImplementedError

    def atom(self, x) -> mpmath.mpf:
        """``P[X = x]``."""
        raise NotImplementedError

    def centred_log_mgf(self, lam) -> mpmath.mpf:
        """``K(λ) = ln E[e^{λ(X - EX)}]``, the centred cumulant generating function."""
        lam = to_mpf(lam, "lambda")
        return self.log_mgf(lam) - lam * self.mean()

    def closed_standard(self) -> Optional["Standard"]:
        """The optimal standard in closed form, if the family has one (else None: :func:`optimal_standard`
        searches)."""
        return None

    def expect(self, g: Callable, levels: Sequence = (), tilt=0) -> Estimate:
        """``E[g(X)]`` from the law itself, never from a closed form of the expectation: ``levels`` are points where
        ``g`` has a kink, ``tilt`` the λ of ``g ~ e^{λx}`` (where its mass sits)."""
        raise InvalidParameter(f"no expectation by its own law for {type(self).__name__}")

    # --- derived ------------------------------------------------------------------------------------------
    def variance(self) -> mpmath.mpf:
        return self.central_moment(2)

    def mgf(self, lam) -> mpmath.mpf:
        return mpmath.exp(self.log_mgf(lam))

    def moment(self, k: int) -> mpmath.mpf:
        """``E[X^k]``, from the central moments (binomial expansion around the mean)."""
        _order(k)
        m = self.mean()
        return mpmath.fsum(mpmath.binomial(k, j) * m ** (k - j) * self.central_moment(j) for j in range(k + 1))

    def centred(self) -> "Law":
        """The law of ``X - E[X]``."""
        return Shifted(self, -self.mean())


def _order(k) -> int:
    if isinstance(k, bool) or int(k) != k or k < 0:
        raise InvalidParameter(f"moment order must be an integer >= 0, got {k!r}")
    return int(k)


@dataclass(frozen=True, init=False)
class DiscreteLaw(Law):
    """A finite law: ``values[i]`` with probability ``probabilities[i]`` (validated like a FiniteDistribution).

    >>> X = DiscreteLaw([-1, 1], [0.5, 0.5])
    >>> X.mean(), X.variance(), X.sf(1), X.cdf(0)
    (mpf('0.0'), mpf('1.0'), mpf('0.5'), mpf('0.5'))
    """

    values: tuple[mpmath.mpf, ...]
    probabilities: tuple[mpmath.mpf, ...]

    def __init__(self, values: Sequence, probabilities: Sequence, balls: Optional[Sequence] = None,
                 weight_balls: Optional[Sequence] = None):
        xs = tuple(to_mpf(v, "value") for v in values)
        if len(xs) != len(probabilities):
            raise InvalidParameter(f"{len(xs)} values but {len(probabilities)} probabilities")
        if any(not mpmath.isfinite(x) for x in xs):
            raise InvalidDistribution("a discrete law needs finite values (an infinite privacy loss has no law)")
        ps = FiniteDistribution(probabilities).probs
        balls = [None] * len(xs) if balls is None else list(balls)
        weight_balls = [None] * len(xs) if weight_balls is None else list(weight_balls)
        kept = [(x, p, ball, w) for x, p, ball, w in zip(xs, ps, balls, weight_balls) if p > 0]
        object.__setattr__(self, "values", tuple(x for x, _, _, _ in kept))
        object.__setattr__(self, "probabilities", tuple(p for _, p, _, _ in kept))
        # Enclosures of the values and of the probabilities where they are not the binary numbers given (a log-ratio
        # computed in balls; a finite law's exact rationals, fmpq, made balls at each use's precision): not fields, a
        # law is equal to and hashed as its values and probabilities.
        object.__setattr__(self, "_balls", tuple(ball for _, _, ball, _ in kept))
        object.__setattr__(self, "_weight_balls", tuple(w for _, _, _, w in kept))

    def _total(self) -> mpmath.mpf:
        # Probabilities sum to 1 only to the precision they were built at; dividing by the sum keeps a higher
        # working precision (as optimal_standard uses) from seeing a defect of 10^-dps as mass.
        return mpmath.fsum(self.probabilities)

    def mean(self):
        return mpmath.fsum(p * x for x, p in zip(self.values, self.probabilities)) / self._total()

    def central_moment(self, k):
        k = _order(k)
        m = self.mean()
        return mpmath.fsum(p * (x - m) ** k for x, p in zip(self.values, self.probabilities)) / self._total()

    def log_mgf(self, lam):
        lam = to_mpf(lam, "lambda")
        return _logsumexp([mpmath.log(p) + lam * x for x, p in zip(self.values, self.probabilities)]) \
            - mpmath.log(self._total())

    def centred_log_mgf(self, lam):
        """``K(λ) = ln(1 + Σ p (e^{λ(x - EX)} - 1))``, summed in balls at the working precision and returned as the midpoint
        (Arb's exponential is some twenty times mpmath's, and the standard's search evaluates thousands)."""
        lam = to_mpf(lam, "lambda")
        prec = mpmath.mp.prec + 16
        with arb_precision(prec):
            xs, ps = _centred_balls(self, prec)
            tilt = exact_ball(lam)
            S = arb(0)
            for p, x in zip(ps, xs):
                S += p * (tilt * x).expm1()
            K = S.log1p()
        if K.mid().is_finite():
            return mpf_nearest(K.mid())
        # a ball Arb could not bound (an exponent beyond its range, or λ times a value's radius beyond 1): the sum in
        # mpmath, shifted by its largest term; the log-weights and centred values kept on the law per precision (a
        # search's grid may evaluate hundreds of such λ)
        tables = self.__dict__.setdefault("_log_tables", {})
        if mpmath.mp.prec not in tables:
            m, total = self.mean(), mpmath.log(self._total())
            tables[mpmath.mp.prec] = tuple((mpmath.log(p) - total, x - m)
                                           for x, p in zip(self.values, self.probabilities))
        return _logsumexp([c + lam * d for c, d in tables[mpmath.mp.prec]])

    def sf(self, t):
        t = to_mpf(t, "t")
        return mpmath.fsum(p for x, p in zip(self.values, self.probabilities) if x >= t)

    def cdf(self, t):
        t = to_mpf(t, "t")
        return mpmath.fsum(p for x, p in zip(self.values, self.probabilities) if x <= t)

    def bounds(self):
        return min(self.values), max(self.values)

    def atom(self, x):
        x = to_mpf(x, "x")
        return mpmath.fsum(p for v, p in zip(self.values, self.probabilities) if v == x)

    def expect(self, g, levels=(), tilt=0):
        return exact_sum(p * g(v) for v, p in zip(self.values, self.probabilities))

    def centred(self):
        m = self.mean()
        with arb_precision(mpmath.mp.prec + BALL_GUARD):
            balls = self.value_balls()
            centre = self.mean_ball()
            return DiscreteLaw([x - m for x in self.values], self.probabilities, [x - centre for x in balls],
                               self._weight_balls)

    # --- in balls: certified measurements of the law as built -------------------------------------------------
    def value_balls(self) -> tuple:
        """Enclosures of the values (Arb balls): the binary numbers given, exactly, or the enclosures the law was
        built with (a centred law's ``x - E[X]``, a finite pair's ``ln(p/q)``)."""
        return tuple(exact_ball(x) if ball is None else ball for x, ball in zip(self.values, self._balls))

    def probability_balls(self) -> tuple:
        """The probabilities as balls (the binary numbers given exactly, or the enclosures or exact rationals the law
        was built with, at flint's precision), divided by their sum (which is 1 only to the working precision where
        they are the binary numbers)."""
        ps = [exact_ball(p if w is None else w) for p, w in zip(self.probabilities, self._weight_balls)]
        total = sum(ps, exact_ball(0))
        return tuple(p / total for p in ps)

    def expect_ball(self, g: Callable) -> Estimate:
        """``E[g(X)]`` for a ``g`` written in ball arithmetic (Arb's operations and methods), summed over the atoms in
        balls :func:`~symdp.estimate.in_balls`: the values' enclosures and the exact probabilities, so a certified
        enclosure of the expectation of the law as built; its scale is ``Σ p|g(x)|`` (a signed sum may cancel).

        >>> m = DiscreteLaw([-1, 2], [2 / mpmath.mpf(3), 1 / mpmath.mpf(3)]).expect_ball(lambda x: x ** 2)
        >>> m.certified, abs(m.value - 2) <= m.error + 1e-15
        (True, True)
        """
        with in_balls():
            terms = [p * g(x) for p, x in zip(self.probability_balls(), self.value_balls())]
            total = sum(terms, exact_ball(0))
            size = sum((t.abs_upper() for t in terms), exact_ball(0))
        return enclosure(total, scale=mpf_of(size.mid()))

    def mean_ball(self):
        """``E[X]`` as a ball, at flint's precision."""
        return sum((p * x for p, x in zip(self.probability_balls(), self.value_balls())), exact_ball(0))

    def tilted_cumulants(self, lam) -> tuple:
        """``(K(λ), K'(λ), K''(λ), K'''(λ), K''''(λ))`` of the *centred* law (K its cumulant generating function)
        at a ball λ, in ball arithmetic: each encloses the derivative at every point of the ball. The derivatives are
        the cumulants of the law tilted by ``e^{λx}``: its mean, variance, third central moment, and fourth
        central moment less three squared variances."""
        xs, ps = _centred_balls(self, ctx.prec)
        lam = exact_ball(lam)
        tilted = [p * (lam * x).exp() for p, x in zip(ps, xs)]
        total = sum(tilted[1:], tilted[0])
        ws = [w / total for w in tilted]
        first = sum([w * x for w, x in zip(ws, xs)], arb(0))
        c2 = c3 = c4 = arb(0)
        for w, x in zip(ws, xs):
            d = x - first
            wd2 = w * d * d
            wd3 = wd2 * d
            c2 += wd2
            c3 += wd3
            c4 += wd3 * d
        return total.log(), first, c2, c3, c4 - 3 * c2 * c2


BALL_GUARD = 64
"""Bits beyond mpmath's working precision at which a law's balls are computed."""


def _centred_balls(law: DiscreteLaw, prec: int) -> tuple[tuple, tuple]:
    """The centred values and the normalised probabilities as balls, at flint's precision ``prec``, kept on the
    law (the certified standard evaluates hundreds of tilts of one law)."""
    cache = law.__dict__.setdefault("_ball_tables", {})
    if prec not in cache:
        with arb_precision(prec):
            centre = law.mean_ball()
            cache[prec] = (tuple(x - centre for x in law.value_balls()), law.probability_balls())
    return cache[prec]


@dataclass(frozen=True, init=False)
class GaussianLaw(Law):
    """``N(mean, sd²)``; ``sd = 0`` is the point mass at ``mean``. Its standard is ``sd`` exactly: the centred
    MGF is ``e^{λ²sd²/2}``, so the ratio ``2K(λ)/λ²`` equals ``sd²`` at *every* λ (Definition 2.5's remark)."""

    mean_: mpmath.mpf
    sd: mpmath.mpf

    def __init__(self, mean, sd):
        m, s = to_mpf(mean, "mean"), to_mpf(sd, "standard deviation")
        if not (mpmath.isfinite(m) and mpmath.isfinite(s) and s >= 0):
            raise InvalidParameter(f"a Gaussian law needs a finite mean and sd >= 0, got {m}, {s}")
        object.__setattr__(self, "mean_", m)
        object.__setattr__(self, "sd", s)

    def __repr__(self):
        return f"GaussianLaw(mean={mpmath.nstr(self.mean_, 15)}, sd={mpmath.nstr(self.sd, 15)})"

    def mean(self):
        return self.mean_

    def central_moment(self, k):
        k = _order(k)
        if k % 2:
            return mpmath.mpf(0)
        return mpmath.fac2(k - 1) * self.sd**k if k else mpmath.mpf(1)

    def log_mgf(self, lam):
        lam = to_mpf(lam, "lambda")
        return lam * self.mean_ + lam**2 * self.sd**2 / 2

    def sf(self, t):
        t = to_mpf(t, "t")
        if self.sd == 0:
            return mpmath.mpf(1 if t <= self.mean_ else 0)
        return ncdf(-t, -self.mean_, self.sd)

    def cdf(self, t):
        t = to_mpf(t, "t")
        if self.sd == 0:
            return mpmath.mpf(1 if t >= self.mean_ else 0)
        return ncdf(t, self.mean_, self.sd)

    def bounds(self):
        if self.sd == 0:
            return self.mean_, self.mean_
        return -mpmath.inf, mpmath.inf

    def atom(self, x):
        return mpmath.mpf(1 if self.sd == 0 and to_mpf(x) == self.mean_ else 0)

    def centred(self):
        return GaussianLaw(0, self.sd)

    def closed_standard(self):
        return Standard(Estimate.exact(self.sd, "closed form"), self.sd**2, None)


@dataclass(frozen=True, init=False)
class LaplaceLossLaw(Law):
    """The privacy loss of ``Lap(m1, b)`` against ``Lap(m2, b)``, ``a = |m1 - m2|/b``: atoms ``1/2`` at ``a`` and
    ``e^{-a}/2`` at ``-a``, density ``e^{(ℓ - a)/2}/4`` on ``(-a, a)`` (see the module docstring).

    >>> L = LaplaceLossLaw(2)
    >>> L.sf(2), L.atom(-2) == mpmath.exp(-2) / 2, L.cdf(0) == mpmath.exp(-1) / 2
    (mpf('0.5'), True, True)
    """

    a: mpmath.mpf

    def __init__(self, a):
        a = to_mpf(a, "a")
        if not (mpmath.isfinite(a) and a >= 0):
            raise InvalidParameter(f"the Laplace loss needs a = |m1 - m2|/b >= 0, got {mpmath.nstr(a, 10)}")
        object.__setattr__(self, "a", a)

    def __repr__(self):
        return f"LaplaceLossLaw(a={mpmath.nstr(self.a, 15)})"

    def density(self, ell) -> mpmath.mpf:
        """The density of the continuous part at ``ell`` (0 outside ``(-a, a)``)."""
        ell = to_mpf(ell, "ell")
        return mpmath.exp((ell - self.a) / 2) / 4 if -self.a < ell < self.a else mpmath.mpf(0)

    def expect(self, g, levels=(), tilt=0):
        """Its two atoms, plus Gauss–Legendre quadrature of its density on ``(-a, a)`` split at the ``levels``.

        >>> with mpmath.workdps(30):        # E[e^{-L}] = 1 for the Laplace loss (proofs: LAPLACE_NORMALISATION)
        ...     print(mpmath.nstr(LaplaceLossLaw(2).expect(lambda v: mpmath.exp(-v)).value, 25))
        1.0
        """
        a_ = self.a
        atoms = g(a_) / 2 + mpmath.exp(-a_) * g(-a_) / 2
        if a_ == 0:
            return Estimate.exact(atoms)
        # pieces over which the density times e^{tilt v} changes by at most ~e^4: moderate degrees converge
        pieces = min(64, int(2 * a_ * (abs(to_mpf(tilt, "tilt")) + 1) / 4) + 1)
        points = sorted({-a_ + 2 * a_ * j / pieces for j in range(pieces + 1)}
                        | {to_mpf(v) for v in levels if -a_ < v < a_})
        inner = gauss_legendre(lambda v: g(v) * self.density(v), points)
        size = abs(atoms) + abs(inner.value)
        return Estimate(atoms + inner.value, inner.error + 16 * size * mpmath.mpf(10) ** (-mpmath.mp.dps),
                        Method.QUADRATURE, scale=size)

    def mean(self):
        a = self.a
        # a + e^{-a} - 1 = a - (1 - e^{-a}): expm1 keeps it relative as a -> 0 (it is a²/2 + O(a³)).
        return a + mpmath.expm1(-a)

    def central_moment(self, k):
        """Atoms plus ``e^{(m-a)/2}/4 · J_k`` with ``J_j = ∫_{-a-m}^{a-m} u^j e^{u/2} du`` by the recurrence
        ``J_j = 2[u^j e^{u/2}] - 2j J_{j-1}``, at the extra digits its cancellation costs (``2^k k!`` amplifies
        the error of ``J_0``, against ``J_k ~ width^{k+1}`` for a narrow interval)."""
        k = _order(k)
        if k == 0:
            return mpmath.mpf(1)
        dps = mpmath.mp.dps
        width = 2 * self.a
        extra = int(mpmath.log10(mpmath.mpf(2) ** k * mpmath.factorial(k))) + 10
        if 0 < width < 1:
            extra += (k + 1) * (int(-mpmath.log10(width)) + 1)
        with mpmath.workdps(dps + extra):
            a = self.a
            m = self.mean()
            lo, hi = -a - m, a - m
            atoms = hi**k / 2 + mpmath.exp(-a) * lo**k / 2
            if a == 0:
                return +atoms
            e_lo, e_hi = mpmath.exp(lo / 2), mpmath.exp(hi / 2)
            J = 2 * (e_hi - e_lo)
            for j in range(1, k + 1):
                J = 2 * (hi**j * e_hi - lo**j * e_lo) - 2 * j * J
            value = atoms + mpmath.exp((m - a) / 2) * J / 4
        return +value

    def log_mgf(self, lam):
        lam = to_mpf(lam, "lambda")
        a = self.a
        half = mpmath.log(2)
        terms = [lam * a - half, -a * (1 + lam) - half]
        if a > 0:
            terms.append(-a / 2 - half + _log_sinhc(lam + mpmath.mpf(1) / 2, a))
        return _logsumexp(terms)

    def sf(self, t):
        t, a = to_mpf(t, "t"), self.a
        if t > a:
            return mpmath.mpf(0)
        if t == a:
            return mpmath.mpf(1) / 2 if a > 0 else mpmath.mpf(1)
        if t <= -a:
            return mpmath.mpf(1)
        return 1 - mpmath.exp((t - a) / 2) / 2

    def cdf(self, t):
        t, a = to_mpf(t, "t"), self.a
        if t < -a:
            return mpmath.mpf(0)
        if t >= a:
            return mpmath.mpf(1)
        if t == -a:
            return mpmath.exp(-a) / 2
        return mpmath.exp((t - a) / 2) / 2

    def bounds(self):
        return -self.a, self.a

    def atom(self, x):
        x, a = to_mpf(x, "x"), self.a
        if a == 0:
            return mpmath.mpf(1 if x == 0 else 0)
        if x == a:
            return mpmath.mpf(1) / 2
        if x == -a:
            return mpmath.exp(-a) / 2
        return mpmath.mpf(0)


def _log_sinhc(y, a) -> mpmath.mpf:
    """``ln(sinh(a y)/y)`` for ``a > 0``, any real y (``ln a`` at y = 0), without overflow at large ``|a y|``."""
    z = abs(a * y)
    if z == 0:
        return mpmath.log(a)
    if z < 1:
        return mpmath.log(mpmath.sinh(z) / abs(y))
    return z + mpmath.log(-mpmath.expm1(-2 * z)) - mpmath.log(2 * abs(y))


@dataclass(frozen=True)
class Shifted(Law):
    """The law of ``X + shift``."""

    base: Law
    shift: mpmath.mpf

    def mean(self):
        return self.base.mean() + self.shift

    def central_moment(self, k):
        return self.base.central_moment(k)

    def log_mgf(self, lam):
        lam = to_mpf(lam, "lambda")
        return self.base.log_mgf(lam) + lam * self.shift

    def sf(self, t):
        return self.base.sf(to_mpf(t, "t") - self.shift)

    def cdf(self, t):
        return self.base.cdf(to_mpf(t, "t") - self.shift)

    def bounds(self):
        lo, hi = self.base.bounds()
        return lo + self.shift, hi + self.shift

    def atom(self, x):
        return self.base.atom(to_mpf(x, "x") - self.shift)

    def centred(self):
        return self.base.centred()

    def closed_standard(self):
        return self.base.closed_standard()

    def expect(self, g, levels=(), tilt=0):
        shift = self.shift
        return self.base.expect(lambda v: g(v + shift), [level - shift for level in levels], tilt)


# --- the privacy loss of a pair ------------------------------------------------------------------------------------


def privacy_loss(P, Q) -> Law:
    """The exact law of ``L = ln(p(X)/q(X))``, ``X ~ P``, for finite pairs, equal-sd Gaussian pairs and
    equal-scale Laplace pairs.

    >>> from symdp.engine.finite import FiniteDistribution as FD
    >>> L = privacy_loss(FD([0.75, 0.25]), FD([0.25, 0.75]))
    >>> [mpmath.nstr(v, 10) for v in L.values], L.probabilities
    (['1.098612289', '-1.098612289'], (mpf('0.75'), mpf('0.25')))
    """
    if isinstance(P, FiniteDistribution) and isinstance(Q, FiniteDistribution):
        loss = _finite_privacy_loss(P, Q)
        if any(mpmath.isinf(v) for v in loss.values):
            raise InvalidDistribution("Q vanishes where P does not: the privacy loss is +inf with positive "
                                      "probability (Definition 3.1 asks for equal supports)")
        with arb_precision(mpmath.mp.prec + BALL_GUARD):   # the values' enclosures: ln(p/q) in balls
            # laws built exactly are measured as their rationals, not as their probabilities rounded to the working
            # precision: the enclosures then hold the loss of the laws of the draw itself
            if P.exact and Q.exact:   # each ratio p/q an exact rational first: equal atoms have a loss of 0 exactly
                kept = [(p, q) for p, q in zip(P.rationals, Q.rationals) if p > 0]
                balls = [arb(p / q).log() for p, q in kept]
                weights = [arb(p) for p, _ in kept]
            else:
                balls = [log_ratio_ball(exact_ball(p), exact_ball(q)) for p, q in zip(P, Q) if p > 0]
                weights = None
        return DiscreteLaw(loss.values, loss.probabilities, balls, weights)
    if isinstance(P, ContinuousDistribution) and isinstance(Q, ContinuousDistribution):
        P, Q = canonical(P), canonical(Q)
        if isinstance(P, Gaussian) and isinstance(Q, Gaussian):
            if P.sd != Q.sd:
                raise InvalidParameter("Gaussians of unequal sd: the loss is a quadratic in X (a scaled noncentral "
                                       "chi-square), not subgaussian; only equal sd is supported")
            s = abs(P.mean - Q.mean) / P.sd
            return GaussianLaw(s**2 / 2, s)
        if isinstance(P, Laplace) and isinstance(Q, Laplace):
            if P.b != Q.b:
                raise InvalidParameter("Laplace laws of unequal scale are not supported (the loss is unbounded)")
            return LaplaceLossLaw(abs(P.loc - Q.loc) / P.b)
        raise InvalidParameter(f"no exact privacy-loss law for {type(P).__name__} against {type(Q).__name__}; "
                               "use expectation_by_quadrature for moments")
    raise InvalidDistribution("privacy_loss needs two finite or two continuous distributions")


def expectation_by_quadrature(P: ContinuousDistribution, Q: ContinuousDistribution, g: Callable) -> Estimate:
    """``E_P[g(L)] = ∫ p(x) g(ln p(x) - ln q(x)) dx`` by tanh-sinh quadrature split at both laws' kinks and
    centres, plus a few scales either side; the error is the change when the pieces are split once more, plus
    the error ``mpmath.quad`` reports. An independent route to the moments and the MGF of :func:`privacy_loss`.

    >>> from symdp.engine.continuous import Laplace
    >>> with mpmath.workdps(30):    # E[e^{-L}] = 1 for any pair with equal supports
    ...     e = expectation_by_quadrature(Laplace(0, 1), Laplace(1.5, 1), lambda l: mpmath.exp(-l))
    ...     print(mpmath.nstr(e.value, 25), e.error < 1e-25)
    1.0 True
    """
    P, Q = canonical(P), canonical(Q)
    scale = min(P.scale(), Q.scale())
    anchors = sorted(set([P.center(), Q.center()] + list(P.kinks()) + list(Q.kinks())))
    points = sorted(set(anchors + [anchors[0] - 8 * scale, anchors[-1] + 8 * scale]))

    def integrand(x):
        lp = P.logpdf(x)
        return mpmath.exp(lp) * g(lp - Q.logpdf(x))

    def run(pts):
        return mpmath.quad(integrand, [-mpmath.inf] + pts + [mpmath.inf], error=True)

    v1, e1 = run(points)
    finer = sorted(set(points + [(u + v) / 2 for u, v in zip(points, points[1:])]))
    v2, e2 = run(finer)
    floor = 16 * max(abs(v2), mpmath.mpf(1)) * mpmath.mpf(10) ** (-mpmath.mp.dps)
    return Estimate(v2, abs(v1 - v2) + e1 + e2 + floor, "quadrature")


# --- the optimal subgaussian standard ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Standard:
    """The optimal subgaussian standard ``τ(X - EX)`` and where ``r(λ) = 2 ln E[e^{λ(X - EX)}]/λ²`` peaks.

    ``argmax`` is the maximising λ; ``0`` when the supremum is the λ → 0 limit ``Var X`` (then ``τ² = Var X``);
    ``None`` when every λ attains it (Gaussian laws).
    """

    tau: Estimate
    variance: mpmath.mpf
    argmax: Optional[mpmath.mpf]
    ties: int = 0
    """How many of the peaks the grid search refined reach the supremum it found to ``10^-(dps/2 + 1)`` relative (0
    for a closed form, 1 for :func:`certified_standard`, which proves the supremum whatever attains it)."""


def subgaussian_ratio(law: Law, lam, spread=None) -> mpmath.mpf:
    """``r(λ) = 2 ln E[e^{λ(X - EX)}]/λ²`` (``Var X`` at λ = 0), at the working precision.

    The centred log-MGF is ``~ λ² Var X/2``: computed at ``GUARD`` digits plus twice the digits ``|λ|`` is below
    the law's spread, so that the division by ``λ²`` loses nothing. A caller that evaluates r many times passes the
    ``spread`` (``hi - lo`` of a bounded law, at the working precision): a finite law's bounds are a pass over its
    atoms, a quarter of the cost of a ratio.

    >>> X = DiscreteLaw([-1, 1], [0.5, 0.5])
    >>> print(mpmath.nstr(subgaussian_ratio(X, 1), 15), mpmath.nstr(2 * mpmath.log(mpmath.cosh(1)), 15))
    0.867561660966054 0.867561660966054
    """
    lam = to_mpf(lam, "lambda")
    dps = mpmath.mp.dps
    if lam == 0:
        return law.variance()
    if spread is None:
        lo, hi = law.bounds()
        spread = hi - lo if mpmath.isfinite(hi - lo) and hi > lo else mpmath.mpf(1)
    with mpmath.workdps(dps + GUARD + _cancelled_digits(lam, spread)):
        value = 2 * law.centred_log_mgf(lam) / lam**2
    return +value


def _cancelled_digits(lam, spread) -> int:
    """The digits the centred log-MGF ``K(λ) ~ λ² Var X/2`` loses to cancellation where ``|λ|`` is below the law's
    spread: twice the decades ``|λ|·spread`` is below one (none from 1 up)."""
    small = abs(lam) * spread
    return 2 * (_decades_below_one(small) + 1) if 0 < small < 1 else 0


def _decades_below_one(x) -> int:
    """``floor(-log10 x)`` for ``0 < x < 1``, in floats from x's mantissa and exponent (no underflow): mpmath's
    logarithm at the working precision would cost a sixth of a ratio. Within rounding of a power of ten it may be
    one off, which moves two guard digits, not the value."""
    man, exp = x.man_exp
    return max(0, int(-(math.log10(man) + exp * math.log10(2))))


def ratio_asymptote(law: Law, sign: int = 1) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(M, ln p)`` with ``r(λ) = 2M/|λ| + 2 ln p/λ² + o(λ⁻²)`` as ``λ → sign·∞``, for a bounded law whose
    extreme point in that direction is an atom: M its distance from the mean, p its mass.

    >>> M, logp = ratio_asymptote(LaplaceLossLaw(1))   # top atom 1/2 at a = 1, mean e^{-1}
    >>> print(mpmath.nstr(M, 12), mpmath.nstr(logp, 12))
    0.632120558829 -0.69314718056
    """
    lo, hi = law.bounds()
    m = law.mean()
    edge, M = (hi, hi - m) if sign > 0 else (lo, m - lo)
    p = law.atom(edge)
    if not (mpmath.isfinite(edge) and p > 0):
        raise InvalidParameter("the asymptote needs a bounded law with an atom at its extreme point")
    return M, mpmath.log(p)


def optimal_standard(law: Law, *, check: bool = True, certify: bool = True) -> Standard:
    """``τ(X - EX) = sqrt(sup_{λ≠0} r(λ))`` with an error estimate.

    Closed form where the family has one (Gaussian: ``τ = σ``). Otherwise the law must be bounded, and the
    supremum is searched where it can be:

    * for ``λ > 0`` only on ``(0, 2M₊/Var X]`` (beyond, ``r(λ) <= 2M₊/λ < Var X``; λ < 0 alike with ``M₋``);
    * on a geometric grid of 6 points per decade from ``10^-2/spread`` up; ``r`` is smooth on the scale of
      ``ln λ`` (it averages the tilted variance over ``[0, λ]``: ``r(λ) = 2∫₀¹(1 - s)K''(sλ)ds``), so every local
      maximum of the grid is refined (:func:`_refined_peak`: Newton's method on ``r'`` for a finite law, Brent's
      method in ``ln λ`` otherwise);
    * near 0, ``r(λ) = Var X + κ₃λ/3 + O(λ²)``: on the side where ``κ₃λ > 0`` the grid is extended downwards until
      it rises above ``Var X`` and has a rising first step (a maximum at tiny λ is found however close to 0 it
      sits, down to ``|λ|·spread = 10^-(dps/2)``, below which the excess over ``Var X`` is below ``10^-dps``).

    ``check=True`` repeats the search on a second grid (5 points per decade, offset by half a step); the error is
    the two results' difference plus a rounding floor. Where they differ, one grid missed a peak (r can have many,
    as for a truncated discrete Gaussian, whose θ ratio peaks at every λ with λ·shift an integer): both searches are
    repeated on grids four times finer, up to :data:`MAX_PER_DECADE`, and the value is the largest found (each is
    attained by r, so none exceeds the supremum). Not certified: a maximum narrower than the finest grid step in
    ``ln λ`` could be missed by every grid alike.

    A finite law (:class:`DiscreteLaw`) is certified instead: :func:`certified_standard` finds and encloses the
    supremum by a branch-and-bound search over λ in ball arithmetic, in milliseconds (the grids above are then not
    run). Where that search does not close within :data:`CERTIFIED_BOXES` boxes (many peaks tied at the supremum, as
    for a long discrete Gaussian's θ ratio), the grids' estimate stands. ``certify=False`` skips it: for a caller
    that needs only the value (a threshold), or whose draw another uncertified quantity keeps from being decided by
    enclosures anyway; so does a block where proofs are waived (:func:`symdp.precision.proofs`).

    >>> with mpmath.workdps(30):   # Kearns–Saul: τ² = (1 - 2p)/(2 ln((1 - p)/p)), attained at λ = 2 ln((1 - p)/p)
    ...     p = mpmath.mpf("0.1")
    ...     s = optimal_standard(DiscreteLaw([0, 1], [1 - p, p]))
    ...     print(mpmath.nstr(s.tau.value**2, 25), mpmath.nstr((1 - 2*p)/(2*mpmath.log((1 - p)/p)), 25))
    ...     print(mpmath.nstr(s.argmax, 12), mpmath.nstr(2 * mpmath.log((1 - p)/p), 12))
    0.182047845325367478722848 0.182047845325367478722848
    4.39444915467 4.39444915467
    >>> optimal_standard(DiscreteLaw([-1, 1], [0.5, 0.5])).argmax   # Rademacher: the λ → 0 limit, τ = 1
    mpf('0.0')
    """
    closed = law.closed_standard() if closed_forms_enabled() else None
    if closed is not None:
        return closed
    if certify and check and proofs_wanted() and isinstance(law, DiscreteLaw) and len(set(law.values)) > 1:
        cache = law.__dict__.setdefault("_standards", {})   # a law asked twice at one precision (both directions)
        if mpmath.mp.prec not in cache:
            cache[mpmath.mp.prec] = certified_standard(law)
        if cache[mpmath.mp.prec] is not None:
            return cache[mpmath.mp.prec]
    lo, hi = law.bounds()
    if not (mpmath.isfinite(lo) and mpmath.isfinite(hi)):
        raise InvalidParameter(f"{type(law).__name__} is unbounded: its standard is known only in closed form"
                               + ("" if closed_forms_enabled() else ", and closed forms are disabled"))
    dps = mpmath.mp.dps
    with mpmath.workdps(dps + GUARD):
        var = law.variance()
        m = law.mean()
        skew = law.central_moment(3)
    if hi == lo or var <= 0:   # a point mass: τ = 0, proved where its values' balls are one exact number
        balls = law.value_balls() if isinstance(law, DiscreteLaw) else ()
        point = bool(balls) and all(x.is_exact() and x == balls[0] for x in balls)
        return Standard(Estimate(mpmath.mpf(0), mpmath.mpf(0), Method.EXACT, certified=point), mpmath.mpf(0),
                        mpmath.mpf(0))
    spread = hi - lo
    reach = (hi - m, m - lo)
    best, arg, peaks = _search(law, var, reach, skew, spread, per_decade=6, phase=0)
    ties = sum(1 for _, _, f in peaks if f >= best * (1 - mpmath.mpf(10) ** -(dps // 2 + 1)))
    # d tau = d(tau²)/(2 tau); the floor (relative: τ² scales with X²) covers rounding and the refinement's stopping
    # tolerance (the value error of a smooth maximum is ~ tol²).
    floor = 64 * best * mpmath.mpf(10) ** (-dps)
    error = mpmath.mpf(0)
    per_decade = 6
    while check:
        best2, arg2, peaks2 = _search(law, var, reach, skew, spread, per_decade=per_decade - 1,
                                      phase=mpmath.mpf(1) / 2, known=peaks)
        error = abs(best - best2)
        if best2 > best:   # every value found is attained by r: the larger is nearer the supremum
            best, arg = best2, arg2
        if error <= floor or per_decade >= MAX_PER_DECADE:
            break
        # The grids disagree: one missed a peak the other found (r can have many peaks, e.g. a periodic θ ratio).
        # Search again on a grid four times finer, twice, and let those two decide.
        per_decade *= 4
        best3, arg3, peaks = _search(law, var, reach, skew, spread, per_decade=per_decade, phase=0,
                                     known=peaks + peaks2)
        if best3 > best:
            best, arg = best3, arg3
    tau = mpmath.sqrt(best)
    with mpmath.workdps(dps):
        return Standard(Estimate(+tau, (error + floor) / (2 * tau), Method.SEARCH), +var, +arg, ties)


TIED_PEAKS = 2
"""Most peaks of ``r`` tied at the supremum (to :data:`TIE_DIGITS`) with which :func:`certified_standard` goes on: a
symmetric law ties two (at ``±λ``); the θ ratio of a discrete Gaussian ties one at every λ with ``λ·shift`` an
integer, and each needs boxes down to the working precision around it: some 900 boxes, 0.1 s a law at 20 or 50
digits, several times the grids' estimate, which stands there (measured on the catalogue: certifying them would add
three theorems and 13 s)."""

TIE_DIGITS = 8
"""Two peaks of ``r`` whose lower bounds agree to this many digits count as tied (:data:`TIED_PEAKS`): a Newton
point of a box reaches its peak's value to some digits long before the boxes around it close."""

CERTIFIED_BOXES = 1200
"""Most boxes :func:`certified_standard` splits before it gives up (and :func:`optimal_standard`'s grids estimate
the standard instead, uncertified). A law takes some 80 at 50 digits."""

UNPROVED_DIGITS = 5
"""The enclosure of ``τ²`` is ``10^-(dps - UNPROVED_DIGITS)`` wide, relative: the search stops when no box's bound
exceeds the best value found by more (narrower than the rounding of the laws' construction, which the verifier's
floor covers)."""


def certified_standard(law: DiscreteLaw) -> Optional[Standard]:
    """``τ(X - EX)`` of a finite law as a certified enclosure, found and proved by one branch-and-bound search over
    λ in ball arithmetic; None if it does not close within :data:`CERTIFIED_BOXES` boxes.

    The supremum of ``r(λ) = 2K(λ)/λ²`` (K the centred cumulant generating function) is bracketed by ``[best,
    proved]``: ``best`` is a proved lower bound of ``r`` at a point (the λ → 0 limit ``Var X`` to start with), and
    every box of λ is bounded above and split, the box of largest bound first, until no bound exceeds ``best`` by
    more than ``10^-(dps - 5)`` relative (:data:`UNPROVED_DIGITS`). For ``λ > 0`` (λ < 0 alike, with X reflected):

    * beyond ``λ = 2M₊/best`` nothing exceeds ``best``: ``r(λ) <= 2M₊/λ`` (Hoeffding's ``K(λ) <= λM₊``, M₊ the
      largest value less the mean), which also bounds every box ``[a, b]`` by ``2M₊/a``; and by ``2 max(K₂(a),
      K₂(b))/a²`` with ``K₂(λ) = ln(p e^{λM₊} + (1 - p)e^{λy₂})`` convex (p the mass at the top, y₂ the next value:
      :meth:`_BoxSearch._two_point`), which closes the boxes below a peak that a top atom of tiny mass pushes far out;
      and by the chord of K through the box's ends (K is convex: :meth:`_BoxSearch._chord`), which closes the boxes
      between the peaks of a lattice law's ratio, whose cumulants on a box are wide;
    * a box ``[0, b]`` by Taylor at 0, ``r(λ) = Var X + κ₃λ/3 + K⁗(ξ)λ²/12`` with ``ξ ∈ [0, λ]``, maximised over λ
      as a quadratic; its vertex gives a lower bound (``K⁗`` at its lower end);
    * a box ``c ± h`` by Taylor of ``N(t) = 2c²K(c + t) - 2K(c)(c + t)²`` at ``t = 0``, so that
      ``r(c + t) = r(c) + N(t)/(c²(c + t)²)`` with ``N(t) = c₁t + c₂t² + c₃t³ + c₄(ξ)t⁴``: the coefficients are
      taken at the point c, where they are narrow balls, the quadratic is maximised exactly, and only ``K'''(c)``
      and ``K⁗`` on the box (in ``c₃``, ``c₄``) are bounded crudely. A form of ``r'`` or ``r''`` on the box itself
      would not do: its terms (``2K'/λ²`` and ``4K/λ³``) cancel to the excess of a flat peak, which ball arithmetic
      on a box cannot resolve (randomized response at ε = 0.01: ``r`` varies by 10^-8 relative over ``[0, 2]``);
    * the quadratic's vertex, a Newton step for the peak, is evaluated for a lower bound, so that ``best`` reaches
      the supremum to the working precision in a few boxes and the box around the peak closes in one.

    ``K(c)`` and ``K'(c)`` are summed as ``ln(1 + Σ p φ(c y))`` and ``Σ p y (e^{cy} - 1)/(1 + Σ p φ(c y))`` with
    ``φ(z) = e^z - 1 - z`` (exact identities, as the weights sum to 1 and the centred values ``y`` to 0), so they
    keep their relative precision at small ``|c|``, where ``K ~ c² Var X/2``.

    >>> with mpmath.workdps(20):   # Kearns–Saul: τ² = (1 - 2p)/(2 ln((1 - p)/p)) at p = 1/4
    ...     p = mpmath.mpf(1) / 4
    ...     tau = certified_standard(DiscreteLaw([0, 1], [1 - p, p])).tau
    ...     print(tau.certified, abs(tau.value - mpmath.sqrt((1 - 2*p) / (2*mpmath.log((1 - p)/p)))) <= tau.error)
    True True
    """
    dps = mpmath.mp.dps
    prec = mpmath.mp.prec + BALL_GUARD
    with arb_precision(prec):
        ys, ws = _centred_balls(law, prec)
        var = sum((w * y * y for w, y in zip(ws, ys)), arb(0))
        skew = sum((w * y * y * y for w, y in zip(ws, ys)), arb(0))
        if not var > 0:
            return None
        spread = (functools.reduce(arb.max, ys) - functools.reduce(arb.min, ys)).upper()
        slack = 1 + arb(10) ** -(dps - UNPROVED_DIGITS)
        search = _BoxSearch(law, ys, ws, var, skew, slack)
        heap = []
        for sign in (1, -1):
            reach = functools.reduce(arb.max, [sign * y for y in ys])
            if not reach.upper() > 0:
                continue   # X never exceeds its mean on this side: r <= 0 there
            top = (4 * reach / var).upper()
            near = (arb(1) / (16 * spread)).mid()
            near = near if near < top else (top / 2).mid()
            for box in ((arb(0), near), (near, top)):
                heapq.heappush(heap, search.bounded(sign, reach, *box))
        boxes = 0
        proved = search.best
        while heap:
            _, _, sign, reach, a, b, upper, peak = heapq.heappop(heap)
            if upper <= search.best * slack:
                # closed; not a stop: the heap's float keys order bounds only to 16 digits
                proved = proved.max(upper)
                continue
            boxes += 1
            if boxes > CERTIFIED_BOXES or not (b - a > b * arb(2) ** -(prec // 3)):
                return None   # a box that will not close
            if search.ties > TIED_PEAKS:
                return None   # a ratio with many equal peaks (a discrete Gaussian's θ ratio): left to the grids
            if peak is None:
                middle = (((a * b).sqrt() if a > 0 and b > 4 * a else (a + b) / 2)).mid()
                pieces = [(a, middle), (middle, b)]
            else:
                # a box v ± δ around the Newton point v, where r is concave and r'(v) ~ 0: it closes at once, and
                # the boxes beside it lie below the peak by ~r''δ². It may reach past [a, b] (a peak on an edge, as
                # at λ = -1 for randomized response), which only covers more; a side box wider than 3/5 of [a, b]
                # is halved, so that the boxes shrink whatever v is.
                low, high = (peak[0] - peak[1]).mid(), (peak[0] + peak[1]).mid()
                pieces = []
                for box in ((a, low), (low, high), (high, b)):
                    if not box[0] < box[1]:
                        continue
                    if box[1] - box[0] > (b - a) * 3 / 5:
                        middle = ((box[0] + box[1]) / 2).mid()
                        pieces += [(box[0], middle), (middle, box[1])]
                    else:
                        pieces.append(box)
            for low, high in pieces:
                heapq.heappush(heap, search.bounded(sign, reach, low, high))
        best = search.best
        tau2 = best.union(proved.max(best))
        tau = Estimate.from_arb(tau2.sqrt(), Method.SEARCH)
        return Standard(tau, mpf_of(var.mid()), mpf_of(search.argmax.mid()), 1)


class _BoxSearch:
    """The bounds of :func:`certified_standard` for one finite law: its centred values ``ys`` and weights ``ws`` as
    balls, ``Var X`` and ``κ₃``, and the best lower bound of the supremum found so far (at ``argmax``)."""

    def __init__(self, law, ys, ws, var, skew, slack):
        self.law, self.ys, self.ws, self.var, self.skew, self.slack = law, ys, ws, var, skew, slack
        self.tied = 1 - arb(10) ** -TIE_DIGITS
        self.peaks = []
        self.best, self.argmax = var.lower(), arb(0)
        self.count = 0
        self._tops, self._cgfs = {}, {}

    def _attained(self, value, lam, peak: bool = False) -> None:
        """Raise ``best`` to a proved lower bound of ``r(lam)``; a ``peak`` (a Newton point) within
        ``10^-(dps/2)`` of the best, away from the other such peaks, counts as a tie."""
        if peak:
            near = value >= self.best * self.tied
            if value > self.best and not (self.best >= value * self.tied):
                self.peaks = []   # a higher peak: the ties so far were not at the supremum
            if near and all(not ((lam - other).abs_upper() < lam.abs_upper() / 20) for other in self.peaks):
                self.peaks.append(lam)
        if value > self.best:
            self.best, self.argmax = value, lam

    @property
    def ties(self) -> int:
        return len(self.peaks)

    def bounded(self, sign: int, reach, a, b) -> tuple:
        """A heap entry for the box ``a <= μ <= b`` of ``λ = sign·μ``: its upper bound first (negated, a float key,
        then the exact bound); every point it evaluates raises ``best`` where it can."""
        self.peak = None
        upper = self._upper(sign, reach, a, b)
        if not upper.is_finite():
            upper = arb("inf")   # nothing known: split first (a NaN would corrupt the heap's order)
        self.count += 1
        return (-float(upper.mid()), self.count, sign, reach, a, b, upper, self.peak)

    def _below_top(self, sign, reach) -> Optional[tuple]:
        """``(y₂, p)`` for ``λ = sign·μ``, ``μ > 0``, with Z = sign·(X − EX) and ``reach`` the ball of its largest value:
        an upper bound y₂ of every value that is not (to the balls) the largest, and p of the mass of those that may
        be; None where every value may be the largest."""
        if sign not in self._tops:
            zs = [sign * y for y in self.ys]
            top = [z.upper() >= reach.lower() for z in zs]
            rest = [z.upper() for z, t in zip(zs, top) if not t]
            mass = sum((w for w, t in zip(self.ws, top) if t), arb(0)).upper().min(arb(1))
            self._tops[sign] = (functools.reduce(arb.max, rest), mass) if rest else None
        return self._tops[sign]

    def _two_point(self, sign, reach, a, b):
        """An upper bound of r on the box ``a <= μ <= b`` (``a > 0``) from ``E[e^{μZ}] <= p e^{μM} + (1 - p)e^{μy₂}``,
        M the upper end of ``reach`` (:meth:`_below_top`: the mass that may be the top's put at M, the rest at the
        next value; the right side grows with p): its logarithm is convex in μ, so it is largest at an end of the box,
        and ``r = 2K/μ² <= 2 max(K(a), K(b))/a²``. Where a top atom of tiny mass (1e-308, an antipodal pair's ±ε
        class) puts the peak of r at μ in the hundreds, Hoeffding's 2M/a closes nothing below it, and this closes the
        boxes where ``e^{μM}p`` is still negligible."""
        below = self._below_top(sign, reach)
        if below is None:
            return arb("inf")
        (y2, p), M = below, reach.upper()

        def log_mgf(mu):   # μM + ln(p + (1 - p)e^{-μ(M - y₂)}), never e^{μM} itself
            return mu * M + (p + (1 - p) * (-mu * (M - y2)).exp()).log()
        return (2 * log_mgf(a).max(log_mgf(b)) / (a * a)).upper()

    def _cgf(self, sign, mu):
        """``K(sign·μ)`` at an exact point μ > 0 (a ball to its relative precision), kept: neighbouring boxes share
        their ends, and a box's end is a point of its halves."""
        key = (sign, mu.mid().man_exp())
        if key not in self._cgfs:
            self._cgfs[key] = _point_cumulants(self.ys, self.ws, sign * mu, 1)[0]
        return self._cgfs[key]

    def _chord(self, sign, a, b):
        """An upper bound of r on the box ``a <= μ <= b`` (``a > 0``) from the convexity of K: on the box K lies below
        its chord ``A + sμ`` through the ends, so ``r <= 2(A + sμ)/μ²``, whose largest value over μ > 0 is at an end or,
        where ``A < 0``, ``-s²/(4A)`` at ``μ = -2A/s``. Two values of K at points (narrow balls), no bound of a higher
        derivative on the box: it closes the boxes between the many peaks of a lattice law's ratio (a discrete
        Gaussian's θ ratio), whose cumulants on a box are wide."""
        K_a, K_b = self._cgf(sign, a), self._cgf(sign, b)
        slope = (K_b - K_a) / (b - a)
        A = K_a - slope * a
        top = (K_a / (a * a)).max(K_b / (b * b))
        if not A >= 0:
            top = top.max(-slope * slope / (4 * A)) if A < 0 else arb("inf")
        return (2 * top).upper()

    def _upper(self, sign, reach, a, b):
        if a > 0:
            hoeffding = (2 * reach / a).upper()   # K(λ) <= λM₊
            if hoeffding <= self.best * self.slack:
                return hoeffding   # closed without evaluating r on the box
            two_point = self._two_point(sign, reach, a, b)
            if two_point <= self.best * self.slack:
                return two_point
            chord = self._chord(sign, a, b)
            if chord <= self.best * self.slack:
                return chord
        box = a.union(b)
        fourth = self.law.tilted_cumulants(sign * box)[4]
        if a == 0:   # Taylor at 0: r(λ) = Var + κ₃λ/3 + K⁗(ξ)λ²/12, ξ ∈ [0, λ]
            slope = sign * self.skew / 3
            u1, u2 = slope.mid(), fourth.upper() / 12
            bound = self.var.upper() + _quadratic_max(u1, u2, arb(0), b) + slope.rad() * b
            low2 = fourth.lower() / 12
            at = _vertex(u1, low2, arb(0), b)
            self._attained((self.var + slope * at + low2 * at * at).lower(), sign * at)
            return bound.upper() if bound.is_finite() else arb("inf")
        c = ((a + b) / 2).mid()
        h = (b - c).max(c - a).upper()
        K0, K1, K2, K3 = _point_cumulants(self.ys, self.ws, sign * c)
        K1, K3 = sign * K1, sign * K3
        c2_ = c * c
        at_c = 2 * K0 / c2_
        self._attained(at_c.lower(), sign * c)
        c1 = 2 * c2_ * K1 - 4 * c * K0
        c2 = c2_ * K2 - 2 * K0
        u1, u2 = c1.mid(), c2.mid()
        # N(t) - c₁t - c₂t² = c₃t³ + c₄t⁴ is at most (|c₃|h + c₄⁺h²)t²: added to the quadratic's maximum, or to c₂
        third, quartic = (c2_ * K3 / 3).abs_upper(), (c2_ * fourth / 12).upper().max(0)
        higher = (third * h + quartic * h * h).upper()
        excess = (c1.rad() * h + c2.rad() * h * h + _quadratic_max(u1, u2 + higher, -h, h)).upper().min(
            (c1.rad() * h + c2.rad() * h * h + _quadratic_max(u1, u2, -h, h) + higher * h * h).upper())
        scale = c2_ * (c - h if excess > 0 else c + h) ** 2
        bound = hoeffding
        taylor = (at_c + excess / scale).upper()
        if taylor.is_finite():
            bound = bound.min(taylor)
        if u2 < 0 and not bound <= self.best * self.slack:   # the vertex: a Newton step for the peak
            t = (-u1 / (2 * u2)).mid()
            if t.abs_upper() <= h:
                lam = (c + t).mid()
                spread = 2 * third + 2 * quartic * h
                width = (h / 4 if spread == 0 else (-u2 / spread).min(h / 4)).mid()
                if u2 + third * h < 0 and width.is_finite() and 0 < width < lam:
                    # concave across lam ± h/4 at least, or as far as the cubic term allows
                    self.peak = (lam, width)
                self._attained((2 * _point_cumulants(self.ys, self.ws, sign * lam, 1)[0] / (lam * lam)).lower(),
                               sign * lam, peak=True)
        return bound


def _quadratic_max(u1, u2, lo, hi):
    """An upper bound of ``max u1·t + u2·t²`` over ``lo <= t <= hi`` (exact numbers; for a ball ``u2``, its upper
    end bounds every value in it, as the maximum grows with ``u2``), as a ball."""
    u2 = u2.upper()
    ends = (u1 * lo + u2 * lo * lo).max(u1 * hi + u2 * hi * hi)
    if u2 < 0:
        t = -u1 / (2 * u2)
        if not (t < lo or t > hi):   # the vertex may lie inside: the parabola's maximum, an upper bound anyway
            return ends.max(-u1 * u1 / (4 * u2))
    return ends


def _vertex(u1, u2, lo, hi):
    """The maximiser of ``u1·t + u2·t²`` over ``lo <= t <= hi``, an exact ball (the midpoint of the range where the
    parabola opens upwards)."""
    if u2 < 0:
        t = (-u1 / (2 * u2)).mid()
        return t.max(lo).min(hi)
    return hi if u1 * hi + u2 * hi * hi > u1 * lo + u2 * lo * lo else lo


def _phi(z, e):
    """``e^z - 1 - z`` of a ball z, given ``e = e^z - 1`` on it, to its relative precision at small ``|z|``
    (``~ z²/2``): at the midpoint with as many extra bits as the subtraction cancels, plus the radius times
    ``max |e^z - 1|`` on the ball."""
    m, rho = z.mid(), z.rad()
    if not m.is_finite() or m.abs_upper() > 0.25 or m == 0:
        return e - z
    man, exp = m.man_exp()
    prec = ctx.prec
    ctx.prec = prec + max(0, -(int(man).bit_length() + int(exp))) + 8
    try:
        at_mid = m.expm1() - m
    finally:
        ctx.prec = prec
    return (+at_mid) + arb(0, (rho * e.abs_upper()).upper()) if rho > 0 else +at_mid


def _point_cumulants(ys, ws, lam, order: int = 4) -> tuple:
    """``(K, K', K'', K''')`` of the centred law at an exact λ ≠ 0, each to its relative precision (see
    :func:`certified_standard`); only the first ``order`` of them."""
    zs = [lam * y for y in ys]
    em = [z.expm1() for z in zs]
    S = sum((w * _phi(z, e) for w, z, e in zip(ws, zs, em)), arb(0))
    K0 = S.log1p()
    if order == 1:
        return (K0,)
    M = 1 + S
    K1 = sum((w * y * e for w, y, e in zip(ws, ys, em)), arb(0)) / M
    K2 = K3 = arb(0)
    for w, y, e in zip(ws, ys, em):
        d = y - K1
        t = w * (1 + e) * d * d
        K2 += t
        K3 += t * d
    return K0, K1, K2 / M, K3 / M


MAX_PER_DECADE = 96
"""The finest search grid, in points per decade of |λ|, that :func:`optimal_standard` tries when two grids disagree."""


def _search(law: Law, var, reach: tuple, skew, spread, per_decade: int, phase, known: tuple = ()) -> tuple:
    """Largest ``r`` over both signs of λ, with its λ (0 for the λ → 0 limit), and the refined peaks
    ``(sign, ln|λ|, r)``. A grid maximum whose bracket holds a ``known`` peak reuses it: the second grid is there
    to find peaks the first one missed, the refinement's convergence being checked by its own tolerance. The grid
    ends where Hoeffding's bound puts r below half the largest value found: the points it skips could be neither
    the largest value nor a peak tied with it."""
    best, arg = var, mpmath.mpf(0)
    peaks = []
    floor = mpmath.mpf(10) ** (-(mpmath.mp.dps // 2)) / spread
    for sign, M in zip((1, -1), reach):
        if M <= 0:
            continue  # X never exceeds its mean on this side: r(λ) <= 0 there
        top = 2 * M / var

        def r(u, sign=sign):
            return subgaussian_ratio(law, sign * mpmath.exp(u), spread)

        step = mpmath.log(10) / per_decade
        u_top = mpmath.log(top)
        u = min(mpmath.log(mpmath.mpf("1e-2") / spread), u_top - mpmath.log(10)) + phase * step
        # Hoeffding, r(λ) <= 2M/λ: beyond 4M/high, with high the largest value of r attained so far, r stays below
        # high/2, so the grid stops there (one point past it, to bracket a peak below it). A law with a tiny
        # variance but its peak at a moderate λ (atoms of mass 1e-320 beside a point mass) would otherwise run its
        # grid hundreds of decades past the peak, up to 2M/Var X.
        high = best
        u_end = min(u_top, mpmath.log(4 * M / high))
        grid = []
        while u <= u_end + step or len(grid) < 2:
            grid.append((u, r(u)))
            if grid[-1][1] > high:
                high = grid[-1][1]
                u_end = min(u_end, mpmath.log(4 * M / high))
            u += step
        grid = _extend_down(grid, r, var, mpmath.log(floor), rising=sign * skew > 0)
        for i in range(1, len(grid) - 1):
            (ua, fa), (ub, fb), (uc, fc) = grid[i - 1], grid[i], grid[i + 1]
            if fb >= fa and fb >= fc and fb > var:
                seen = [(u_, f_) for s_, u_, f_ in known if s_ == sign and ua <= u_ <= uc]
                uk, fk = seen[0] if seen else _refined_peak(law, r, sign, spread, ua, uc, ub, fb)
                peaks.append((sign, uk, fk))
                if fk > best:
                    best, arg = fk, sign * mpmath.exp(uk)
        if len(grid) > 1 and grid[0][1] > max(grid[1][1], best):  # first point a maximum at the floor
            best, arg = grid[0][1], sign * mpmath.exp(grid[0][0])
    return best, arg, tuple(peaks)


def _extend_down(grid: list, r: Callable, var, u_floor, rising: bool) -> list:
    """Prepend points a decade apart while a maximum may hide below the first point: while it is a maximum above
    ``var``, or (``rising``: ``r`` starts above ``var`` since ``κ₃λ > 0``) while it is not above ``var``."""
    def hidden(grid):
        (_, f0), (_, f1) = grid[0], grid[1]
        return (f0 > var and f0 >= f1) or (rising and f0 <= var)

    while grid[0][0] > u_floor and len(grid) > 1 and hidden(grid):
        u = grid[0][0] - mpmath.log(10)
        grid.insert(0, (u, r(u)))
    return grid


def _refined_peak(law: Law, r: Callable, sign: int, spread, a, b, x, fx) -> tuple:
    """The maximum of ``r(sign·e^u)`` on ``[a, b]`` from the grid point ``x`` (``r(x) = fx`` at least ``r`` at both
    ends), as ``(u, r)``: by :func:`_newton_peak` for a finite law, whose cumulants it sums in balls, else (or where
    Newton's method does not settle) by :func:`_brent_max` on ``r`` alone."""
    if isinstance(law, DiscreteLaw):
        found = _newton_peak(law, sign, spread, a, b, x)
        if found is not None:
            u, value = found
            return (u, value) if value >= fx else (x, fx)
    return _brent_max(r, a, b, x, fx)


def _newton_peak(law: DiscreteLaw, sign: int, spread, a, b, x, iterations: int = 60) -> Optional[tuple]:
    """Newton's method on ``r'(μ) = 0`` for ``r(sign·μ) = 2K/μ²`` inside the bracket ``[e^a, e^b]``, safeguarded
    (rtsafe): the bracket shrinks to the side of the peak that the sign of ``r'`` points to, and a step that leaves
    it, or a point where ``r`` is not concave, bisects it (geometrically) instead. ``K, K', K''`` come from one pass
    over the atoms in balls (:func:`_point_cumulants`, at relative precision however small ``μ·spread``), so that a
    peak takes some five passes where Brent's method takes fifteen evaluations of ``r`` and as many steps of mpmath
    bookkeeping. Stops where a step is below ``10^-(dps/2)`` relative, Brent's tolerance (a smooth maximum's value
    is then within ``~10^-dps``), or where the balls no longer tell the sign of ``r'``; None where they are not
    finite, or after ``iterations`` steps."""
    dps = mpmath.mp.dps
    tol = mpmath.mpf(10) ** (-(dps // 2))
    lo, hi, mu = mpmath.exp(a), mpmath.exp(b), mpmath.exp(x)
    for _ in range(iterations):
        prec = mpmath.mp.prec + BALL_GUARD + math.ceil(_cancelled_digits(mu, spread) * math.log2(10))
        with arb_precision(prec):
            ys, ws = _centred_balls(law, prec)
            m = exact_ball(mu)
            K0, K1, K2, _ = _point_cumulants(ys, ws, sign * m)
            K1 = sign * K1
            d1 = 2 * (m * K1 - 2 * K0) / (m * m * m)                       # r'(μ)
            d2 = (2 * K2 * m * m - 8 * m * K1 + 12 * K0) / (m * m * m * m)    # r''(μ)
            if not (d1 > 0 or d1 < 0):   # the balls cannot resolve r' here: as close to the peak as they tell
                return _value(law, sign, mu, spread) if d1.is_finite() else None
            if d1 > 0:
                lo = mu
            else:
                hi = mu
            newton = mu - mpf_of((d1 / d2).mid()) if d2 < 0 else None
        if newton is not None and lo < newton < hi:
            step, mu = abs(newton - mu), newton
        else:
            middle = mpmath.sqrt(lo * hi)
            step, mu = abs(middle - mu), middle
        if step <= tol * mu:
            return _value(law, sign, mu, spread)
    return None


def _value(law: DiscreteLaw, sign: int, mu, spread) -> tuple:
    """``(ln μ, r(sign·μ))``: a peak found by :func:`_newton_peak`, its value as the grids evaluate ``r``."""
    return mpmath.log(mu), subgaussian_ratio(law, sign * mu, spread)


def _brent_max(f: Callable, a, b, x, fx, iterations: int = 200) -> tuple:
    """Brent's method (parabolic steps, golden-section fallback) for the maximum of ``f`` on ``[a, b]`` given an
    interior point ``x`` with ``f(x) >= f(a), f(b)``. Stops when the bracket is ``10^-(dps/2)`` wide relative
    to x, where the value is within ``~10^-dps`` of the maximum (the error of a smooth maximum is quadratic)."""
    golden = (3 - mpmath.sqrt(5)) / 2
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))
    F = lambda u: -f(u)  # noqa: E731 - minimise -f
    w = v = x
    Fx = Fw = Fv = -fx
    d = e = mpmath.mpf(0)
    for _ in range(iterations):
        mid = (a + b) / 2
        tol1 = tol * (abs(x) + 1)
        tol2 = 2 * tol1
        if abs(x - mid) <= tol2 - (b - a) / 2:
            break
        parabolic = False
        if abs(e) > tol1:
            r_ = (x - w) * (Fx - Fv)
            q = (x - v) * (Fx - Fw)
            p = (x - v) * q - (x - w) * r_
            q = 2 * (q - r_)
            if q > 0:
                p = -p
            q = abs(q)
            e_old, e = e, d
            if abs(p) < abs(q * e_old / 2) and q * (a - x) < p < q * (b - x):
                d = p / q
                parabolic = True
                if (x + d) - a < tol2 or b - (x + d) < tol2:
                    d = tol1 if mid >= x else -tol1
        if not parabolic:
            e = (a - x) if x >= mid else (b - x)
            d = golden * e
        u = x + (d if abs(d) >= tol1 else (tol1 if d > 0 else -tol1))
        Fu = F(u)
        if Fu <= Fx:
            if u >= x:
                a = x
            else:
                b = x
            v, w, x = w, x, u
            Fv, Fw, Fx = Fw, Fx, Fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if Fu <= Fw or w == x:
                v, w, Fv, Fw = w, u, Fw, Fu
            elif Fu <= Fv or v == x or v == w:
                v, Fv = u, Fu
    return x, -Fx


def subgaussian_standard(values: Sequence, probabilities: Sequence) -> Estimate:
    """Optimal subgaussian standard of the *centred* discrete variable: ``sqrt(sup_{λ≠0} 2 log E e^{λ(X-EX)} / λ²)``.

    Delegates to :func:`symdp.engine.privacy_loss.optimal_standard`, which searches only where the supremum can be: the
    λ → 0 limit ``Var X``, and ``0 < |λ| <= 2M/Var X`` on each side (M the largest deviation from the mean on that
    side; beyond, the ratio is below ``2M/|λ| < Var X``, and it tends to 0 as ``|λ| → ∞``), with a maximum at tiny
    λ found from the sign of the third central moment. ``+inf`` if a value is infinite (an unbounded loss).

    >>> est = subgaussian_standard([-1, 1], [0.5, 0.5])      # Rademacher: tau = 1 (Hoeffding tight), sup at λ -> 0
    >>> print(mpmath.nstr(est.value, 12))
    1.0
    """
    xs = [to_mpf(v, "value") for v in values]
    if len(xs) != len(probabilities) or not xs:
        raise InvalidParameter("values and probabilities must be non-empty and of equal length")
    ps = [to_mpf(p, "probability") for p in probabilities]
    if any(p < 0 for p in ps) or abs(mpmath.fsum(ps) - 1) > len(ps) * mpmath.mpf(10) ** (-mpmath.mp.dps + 3):
        raise InvalidDistribution("probabilities must be non-negative and sum to 1")
    if any(not mpmath.isfinite(x) for x, p in zip(xs, ps) if p > 0):
        return Estimate(mpmath.inf, mpmath.mpf(0))
    kept = [(x, p) for x, p in zip(xs, ps) if p > 0]
    return optimal_standard(DiscreteLaw([x for x, _ in kept], [p for _, p in kept])).tau
