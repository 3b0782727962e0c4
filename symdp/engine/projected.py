"""Projected laws: the law of Π_[low, high](X), a continuous law clipped to an interval, with its own rule.

A projected noisy step, X_{t+1} = Π_X(Φ(X_t) + σξ) on an interval X, puts atoms on the interval's ends: the mass of
X beyond each end. :class:`Projected` is that law (and :class:`NoisyStep`, the unprojected law of a second step
through random piecewise-affine maps, is what a second projection clips; longer chains are :mod:`symdp.engine.chains`): atoms ``base.cdf(low)`` at ``low`` and ``base.sf(high)`` at
``high``, and ``base``'s density in between. Two projected laws on one interval are compared as their sum of the two
atoms' terms (exact, from the CDFs) and an integral of the densities over the interval, by quadrature (tanh-sinh;
Gauss–Legendre between two noisy steps, :func:`_rule`) split at the laws' centres, at the crossing points of a
hockey-stick divergence and at the peak of the integrand; the error is the
spread between two node sets and two precisions plus what ``mpmath.quad`` reports (as for the whole-line routes of
:mod:`symdp.engine.quadrature`). The Rényi divergence of two noisy steps is enclosed instead, by Arb's rigorous
(Petras) integration of their entire densities (:func:`noisy_steps_renyi`), and so are those of clipped Gaussians and
their mixtures (:func:`clipped_renyi`, :func:`clipped_mixture_renyi`).

>>> from symdp.engine.continuous import Gaussian
>>> from symdp.engine.divergences import divergence
>>> P, Q = Projected(Gaussian(0.2, 1), -1, 1), Projected(Gaussian(-0.2, 1), -1, 1)
>>> with mpmath.workdps(20):     # projection is post-processing: below the unprojected α Δ²/(2σ²) = 0.16
...     r = divergence("renyi", P, Q, 2)
>>> print(r.method, mpmath.nstr(r.value, 8), r.value < 0.16)
quadrature 0.14616351 True
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
from flint import acb, arb

from symdp.engine.continuous import ContinuousDistribution
from symdp.engine.quadrature import _certified, _sharp, crossing_points
from symdp.errors import InvalidDistribution
from symdp.estimate import GUARD_BITS, Estimate, Method, exact_ball, in_balls, mpf_nearest, sharp_ball
from symdp.numeric import check_order, to_mpf


@dataclass(frozen=True, init=False)
class Projected:
    """Π_[low, high](X) for X ~ ``base``: atoms at the ends, ``base``'s density between them."""

    base: ContinuousDistribution
    low: mpmath.mpf
    high: mpmath.mpf

    def __init__(self, base, low, high):
        if not isinstance(base, ContinuousDistribution):
            raise InvalidDistribution(f"a projected law projects a continuous law, got {type(base).__name__}")
        lo, hi = to_mpf(low, "low end"), to_mpf(high, "high end")
        if not (mpmath.isfinite(lo) and mpmath.isfinite(hi) and lo < hi):
            raise InvalidDistribution(f"a projection needs an interval low < high, got [{low}, {high}]")
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "low", lo)
        object.__setattr__(self, "high", hi)

    def atoms(self) -> tuple[mpmath.mpf, mpmath.mpf]:
        """The masses at ``low`` and ``high``."""
        return self.base.cdf(self.low), self.base.sf(self.high)


def _ends(P: Projected, Q: Projected) -> list:
    """The two laws' masses at the interval's ends, as pairs (p, q); both must live on one interval."""
    if (P.low, P.high) != (Q.low, Q.high):
        raise InvalidDistribution(f"projected laws on [{mpmath.nstr(P.low, 8)}, {mpmath.nstr(P.high, 8)}] and "
                                  f"[{mpmath.nstr(Q.low, 8)}, {mpmath.nstr(Q.high, 8)}] live on different spaces")
    return list(zip(P.atoms(), Q.atoms()))


def _off_support(ends) -> bool:
    """Whether P has an atom where Q has none: KL and Rényi are then exactly +inf."""
    return any(p > 0 and q == 0 for p, q in ends)


EXACT_INFINITY = Estimate(mpmath.inf, mpmath.mpf(0), Method.EXACT, certified=True)


def _points(P: Projected, Q: Projected, breaks, refine: bool) -> list:
    """The interval's ends and, inside it, the laws' centres and ``breaks``; refined, also every midpoint."""
    inside = sorted({x for x in [P.base.center(), Q.base.center(), *breaks] if P.low < x < P.high})
    points = [P.low, *inside, P.high]
    if refine:
        points = sorted(set(points) | {(a + b) / 2 for a, b in zip(points, points[1:])})
    return points


def _rule(P: Projected, Q: Projected) -> str:
    """``mpmath.quad``'s rule for the interior: Gauss–Legendre between two noisy steps (:class:`NoisyStep`), whose
    densities are entire and vary on the scale of the noise, so that the integrand is analytic on every piece and
    Gauss–Legendre converges geometrically with a quarter of the nodes tanh-sinh spends clustering at the ends (210
    against 860 for the three runs of an SGD instance, to the same digits); tanh-sinh otherwise, robust to what a law
    does at the ends. Either way ``quad`` reports its error and the runs' spreads are added to it."""
    return "gauss-legendre" if isinstance(P.base, NoisyStep) and isinstance(Q.base, NoisyStep) else "tanh-sinh"


def _interior(P: Projected, Q: Projected, log_term, breaks, refine: bool):
    """``∫_low^high exp(log_term(x))`` as ``(value, error, shift)`` with the integral ``value · e^shift``."""
    points = _points(P, Q, breaks, refine)
    peak = max(log_term(x) for x in points)
    if peak == -mpmath.inf:
        return mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
    value, error = mpmath.quad(lambda x: mpmath.exp(log_term(x) - peak), points, error=True, method=_rule(P, Q))
    return value, error, peak


def renyi(P: Projected, Q: Projected, alpha, *, method=Method.QUADRATURE) -> Estimate:
    """R_α(P‖Q) = log(Σ_ends p^α q^{1−α} + ∫ p^α q^{1−α})/(α − 1): an enclosure between two projected noisy steps
    (:func:`noisy_steps_renyi`) where it is sharp (unless ``method`` is ``"quadrature"``), else by quadrature."""
    a = check_order(alpha)
    if method != Method.QUADRATURE and isinstance(P.base, NoisyStep) and isinstance(Q.base, NoisyStep) \
            and (P.low, P.high) == (Q.low, Q.high):
        # at more bits while the ball is not sharp relative to itself (R ~ 10^-22 when the noise dwarfs the interval)
        ball = sharp_ball(lambda: noisy_steps_renyi(P, Q, a), GUARD_BITS, BOOST_BITS)
        if ball.is_finite():
            enclosure = Estimate.from_arb(ball, Method.CERTIFIED)
            if _sharp(enclosure):   # (an exact 0, two laws equal, comes out as a ball of the working precision)
                return enclosure
    ends = _ends(P, Q)
    if _off_support(ends):
        return EXACT_INFINITY

    def run(refine):
        atoms = mpmath.fsum(p**a * q ** (1 - a) for p, q in ends if p > 0)
        value, error, peak = _interior(P, Q, lambda x: a * P.base.logpdf(x) + (1 - a) * Q.base.logpdf(x), (), refine)
        total = atoms + value * mpmath.exp(peak)
        return mpmath.log(total) / (a - 1), error * mpmath.exp(peak) / (total * (a - 1))

    return _certified(run, Method.QUADRATURE)


BOOST_BITS = 1024
"""Most bits :func:`renyi` adds to :func:`noisy_steps_renyi`'s precision to resolve a divergence relative to itself."""

MAX_EVALUATIONS = 20_000
"""Most integrand evaluations :func:`noisy_steps_renyi` spends on its interior integral (the result is then an
unbounded ball, and the quadrature answers instead)."""


def noisy_steps_renyi(P: Projected, Q: Projected, order):
    """R_α(P‖Q) of two projected noisy steps (:class:`NoisyStep` bases) on one interval, a ball at flint's precision:
    ln(Σ_ends p^α q^(1−α) + ∫ p^α q^(1−α))/(α − 1), the atoms from the steps' CDFs (:meth:`NoisyStep.tail_ball`, by
    Petras integration), the interior by Arb's rigorous (Petras) integration of exp(α ln p + (1 − α) ln q), analytic
    where both densities' logarithms are (:meth:`NoisyStep.density_ball` is entire; the logarithm's branch cut is
    checked). Unbounded where the integral does not converge within :data:`MAX_EVALUATIONS` evaluations, or an
    atom of P is 0 where Q's is not decided positive.

    >>> identity = ((mpmath.mpf(-1), mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(0)),)
    >>> def step(x0):
    ...     return Projected(NoisyStep(((1, x0),), mpmath.mpf(1), -1, 1, ((1, identity),), mpmath.mpf(1)), -1, 1)
    >>> with mpmath.workdps(20), in_balls():
    ...     ball = noisy_steps_renyi(step(mpmath.mpf("0.3")), step(mpmath.mpf("-0.2")), 2)
    >>> with mpmath.workdps(20):     # the same laws by quadrature
    ...     estimate = renyi(step(mpmath.mpf("0.3")), step(mpmath.mpf("-0.2")), 2, method="quadrature")
    >>> print(ball.rad() < 1e-20, abs(mpf_nearest(ball.mid()) - estimate.value) < 1e-15)
    True True
    """
    order = exact_ball(order)
    ends = [(P.base.tail_ball(P.low, False), Q.base.tail_ball(Q.low, False)),
            (P.base.tail_ball(P.high, True), Q.base.tail_ball(Q.high, True))]
    atoms = arb(0)
    for p, q in ends:
        if p.is_zero():
            continue
        if not q > 0:
            return arb("nan")
        atoms += p ** order * q ** (1 - order)

    def integrand(z, analytic):
        log_p = P.base.density_ball(z).log(analytic=analytic)
        log_q = Q.base.density_ball(z).log(analytic=analytic)
        return (order * log_p + (1 - order) * log_q).exp()

    low, high = exact_ball(P.low), exact_ball(P.high)
    tol = arb(2) ** -(mpmath.mp.prec + 10)
    interior = acb.integral(integrand, low, high, rel_tol=tol, abs_tol=tol, eval_limit=MAX_EVALUATIONS).real
    return (atoms + interior).log() / (order - 1)


def kl(P: Projected, Q: Projected, *, method=Method.QUADRATURE) -> Estimate:
    """KL(P‖Q) = Σ_ends p log(p/q) + ∫ p log(p/q)."""
    ends = _ends(P, Q)
    if _off_support(ends):
        return EXACT_INFINITY

    def run(refine):
        atoms = mpmath.fsum(p * (mpmath.log(p) - mpmath.log(q)) for p, q in ends if p > 0)
        value, error = mpmath.quad(lambda x: P.base.pdf(x) * (P.base.logpdf(x) - Q.base.logpdf(x)),
                                   _points(P, Q, (), refine), error=True, method=_rule(P, Q))
        return atoms + value, error

    return _certified(run, Method.QUADRATURE)


def hockey_stick(P: Projected, Q: Projected, eps, *, method=Method.QUADRATURE) -> Estimate:
    """D_{e^ε}(P‖Q) = Σ_ends (p − e^ε q)_+ + ∫ (p − e^ε q)_+, split at the interior crossing points."""
    e = to_mpf(eps, "eps")
    ends = _ends(P, Q)

    def log_part(x):
        lp = P.base.logpdf(x)
        loss = lp - Q.base.logpdf(x)
        return lp + mpmath.log(-mpmath.expm1(e - loss)) if loss > e else -mpmath.inf

    def run(refine):
        atoms = mpmath.fsum(max(p - mpmath.exp(e) * q, 0) for p, q in ends)
        value, error, peak = _interior(P, Q, log_part, crossing_points(P.base, Q.base, e, refine=refine), refine)
        return atoms + value * mpmath.exp(peak), error * mpmath.exp(peak)

    return _certified(run, Method.QUADRATURE)


def tv(P: Projected, Q: Projected, *, method=Method.QUADRATURE) -> Estimate:
    """TV(P, Q): the hockey-stick divergence at ε = 0."""
    return hockey_stick(P, Q, 0)


@dataclass(frozen=True)
class NoisyStep(ContinuousDistribution):
    """The law of Φ(X) + N(0, s²) before its projection: X ~ Σ_j u_j Π_[lo, hi] N(m_j, s0²) (a projected noisy step,
    atoms at the ends), Φ drawn at random, Φ = Φ_k with probability v_k, each Φ_k piecewise affine, x ↦ c x + g on the
    pieces (a, b, c, g) of [lo, hi] (a noisy SGD step with a random batch). The density is exact: an atom at e gives
    v u p_e φ_s(y − Φ(e)), a piece the Gaussian integral ∫_a^b φ_{s0}(x − m) φ_s(y − c x − g) dx =
    φ(y − g − c m; s² + c² s0²)·P(a ≤ N(μ(y), τ²) ≤ b) (the product of two Gaussians in x, completed). The CDF
    integrates the same pieces against Φ_N by Arb's rigorous (Petras) integration (the integrands are entire). Both
    are evaluated in Arb balls at the working precision plus guard bits and returned as their midpoints: the
    quadrature that integrates the density evaluates it hundreds of times per divergence, and Arb's error function
    is several times faster than mpmath's. Not a closed form of any divergence: the law itself."""

    starts: tuple        # ((u_j, m_j), ...)
    s0: mpmath.mpf
    lo: mpmath.mpf
    hi: mpmath.mpf
    maps: tuple          # ((v_k, ((a, b, c, g), ...)), ...)
    s: mpmath.mpf

    def _atoms(self, m) -> tuple:
        """The masses of Π_[lo, hi] N(m, s0²) at lo and hi, balls (``m`` a ball)."""
        s0 = exact_ball(self.s0)
        return _normal_tail((m - exact_ball(self.lo)) / s0), _normal_tail((exact_ball(self.hi) - m) / s0)

    def _paths(self):
        """Each path (map k, start j) as (v_k u_j, m_j, p_lo, p_hi, (Φ_k(lo), Φ_k(hi)), pieces): the weight, the
        start's centre, its atoms (balls at flint's working precision), the atoms' images (mpfs) and the pieces
        (balls)."""
        for v, pieces in self.maps:
            images = self._ends(pieces)
            for u, m in self.starts:
                centre = exact_ball(m)
                yield (exact_ball(v) * exact_ball(u), centre, *self._atoms(centre), images,
                       tuple(tuple(exact_ball(x) for x in piece) for piece in pieces))

    def _terms(self) -> tuple:
        """What the density is made of, in balls at the working precision plus guard bits (computed once per
        precision): Gaussian terms (weight, centre, 1/(√2 sd)), the weight including the normalisation and merged
        where centres coincide, and window terms (weight, centre, 1/(√2 sd), a, b, k, offset, 1/(√2 τ)) for the
        pieces, whose window P(a ≤ N(μ(y), τ²) ≤ b) has μ(y) = k y + offset."""
        cache = self.__dict__.setdefault("_cache", {})
        key = mpmath.mp.prec
        if key not in cache:
            with in_balls():
                s0, s = exact_ball(self.s0), exact_ball(self.s)
                root, sqrt2 = (2 * arb.pi()).sqrt(), arb(2).sqrt()
                gaussians, windows = {}, []
                for weight, m, p_lo, p_hi, images, pieces in self._paths():
                    for centre, mass in zip(images, (p_lo, p_hi)):
                        gaussians[centre] = gaussians.get(centre, 0) + weight * mass
                    for left, right, c, g in pieces:
                        precision = 1 / s0 ** 2 + c * c / s ** 2
                        sd = (s ** 2 + c * c * s0 ** 2).sqrt()
                        offset = (m / s0 ** 2 - c * g / s ** 2) / precision
                        windows.append((weight / (2 * sd * root), g + c * m, 1 / (sqrt2 * sd), left, right,
                                        c / s ** 2 / precision, offset, (precision / 2).sqrt()))
                scale = 1 / (sqrt2 * s)
                cache[key] = ([(w / (s * root), exact_ball(centre), scale) for centre, w in gaussians.items()],
                              windows)
        return cache[key]

    def _density(self, y):
        """The density at the mpf ``y``, a ball."""
        with in_balls():
            return self.density_ball(exact_ball(y))

    def density_ball(self, y):
        """The density at a real or complex ball ``y`` (an entire function: Gaussians and error functions), at
        flint's precision."""
        gaussians, windows = self._terms()
        total = sum((w * (-((y - m) * spread) ** 2).exp() for w, m, spread in gaussians), arb(0))
        for w, m, spread, left, right, slope, offset, inverse in windows:
            mid = slope * y + offset
            total += w * (-((y - m) * spread) ** 2).exp() * (((right - mid) * inverse).erf()
                                                             - ((left - mid) * inverse).erf())
        return total

    def pdf(self, y):
        return mpf_nearest(self._density(y).mid())

    def logpdf(self, y):
        with in_balls():
            return mpf_nearest(self._density(y).log().mid())

    def _ends(self, pieces) -> tuple:
        """Where Φ sends the interval's ends (the atoms of X)."""
        image = {e: c * e + g for left, right, c, g in pieces for e in (left, right) if e in (self.lo, self.hi)}
        return image[self.lo], image[self.hi]

    def _tail(self, y, upper: bool):
        """P(Y ≤ y), or P(Y > y) for ``upper``, as an mpf."""
        with in_balls():
            return mpf_nearest(self.tail_ball(y, upper).mid())

    def tail_ball(self, y, upper: bool):
        """P(Y ≤ y), or P(Y > y) for ``upper``, a ball at flint's precision: the atoms' normal CDFs and Arb's
        integration of each piece."""
        y, s0, s = exact_ball(y), exact_ball(self.s0), exact_ball(self.s)
        sign = -1 if upper else 1
        norm = 1 / (s0 * (2 * arb.pi()).sqrt())
        tol = arb(2) ** -(mpmath.mp.prec + 10)

        def below(centre):   # P(N(centre, s²) ≤ y), or > y for upper; centre a real or complex ball
            return _normal_tail(sign * (centre - y) / s)

        total = arb(0)
        for weight, m, p_lo, p_hi, images, pieces in self._paths():
            part = sum((p * below(exact_ball(e)) for p, e in zip((p_lo, p_hi), images)), arb(0))
            for left, right, c, g in pieces:
                def integrand(x, analytic, m=m, c=c, g=g):
                    return (-((x - m) / s0) ** 2 / 2).exp() * norm * below(c * x + g)
                part += acb.integral(integrand, left, right, rel_tol=tol, abs_tol=tol).real
            total += weight * part
        return total

    def cdf(self, y):
        return self._tail(y, False)

    def sf(self, y):
        return self._tail(y, True)

    def center(self):
        return (self.lo + self.hi) / 2

    def scale(self):
        return self.s


# --- one projected Gaussian step in balls: a clipped Gaussian, its atoms at the ends -----------------------------


def _normal_tail(z):
    """P(ξ > z) for a standard Gaussian, a ball (erfc: relative precision far in the tail)."""
    return (z / arb(2).sqrt()).erfc() / 2


def _clipped_atoms(m, sd, half) -> tuple:
    """The atoms of Π_[−h, h] N(m, σ²) at −h and h: the Gaussian's masses beyond the ends."""
    return _normal_tail((m + half) / sd), _normal_tail((half - m) / sd)


def clipped_kl(m1, m2, sd, half):
    """KL(Π N(m1, σ²) ‖ Π N(m2, σ²)) on [−h, h], a ball: the atoms' terms p log(p/q), plus ∫_{−h}^{h} p log(p/q) of
    the densities by Arb's rigorous (Petras) integration of the entire integrand, split at the peak m1. Both atoms
    are positive (Gaussian tails), so the divergence is finite."""
    atoms = sum((p * (p / q).log() for p, q in zip(_clipped_atoms(m1, sd, half), _clipped_atoms(m2, sd, half))),
                arb(0))
    two_var = 2 * sd * sd
    norm = 1 / (sd * (2 * arb.pi()).sqrt())

    def integrand(z, analytic):
        lp, lq = -(z - m1) ** 2 / two_var, -(z - m2) ** 2 / two_var
        return lp.exp() * norm * (lp - lq)

    cuts = [-half] + ([m1] if -half < m1 < half else []) + [half]
    tol = arb(2) ** -(mpmath.mp.prec + 10)
    interior = sum((acb.integral(integrand, a, b, rel_tol=tol, abs_tol=tol).real for a, b in zip(cuts, cuts[1:])),
                   arb(0))
    return atoms + interior


def clipped_renyi(m1, m2, sd, half, order):
    """R_α(Π N(m1, σ²) ‖ Π N(m2, σ²)) on [−h, h], α > 1, a ball: ln(Σ_atoms p^α q^(1−α) + ∫_{−h}^{h} p^α q^(1−α))/(α −
    1), the integral of the densities by Arb's rigorous (Petras) integration of the entire integrand, split at its
    peak αm1 + (1 − α)m2 where the balls place it inside. Both atoms are positive (Gaussian tails), so the divergence
    is finite."""
    atoms = sum((p ** order * q ** (1 - order)
                 for p, q in zip(_clipped_atoms(m1, sd, half), _clipped_atoms(m2, sd, half))), arb(0))
    two_var = 2 * sd * sd
    norm = 1 / (sd * (2 * arb.pi()).sqrt())

    def integrand(z, analytic):
        return (-(order * (z - m1) ** 2 + (1 - order) * (z - m2) ** 2) / two_var).exp() * norm

    peak = order * m1 + (1 - order) * m2
    cuts = [-half] + ([peak] if -half < peak < half else []) + [half]
    tol = arb(2) ** -(mpmath.mp.prec + 10)
    interior = sum((acb.integral(integrand, a, b, rel_tol=tol, abs_tol=tol).real for a, b in zip(cuts, cuts[1:])),
                   arb(0))
    return (atoms + interior).log() / (order - 1)


def clipped_tv(m1, m2, sd, half):
    """TV(Π N(m1, σ²), Π N(m2, σ²)) on [−h, h], a ball: half the atoms' |p − q| plus half ∫ |p − q| of the densities,
    integrated by their CDFs on each side of the one crossing point (m1 + m2)/2 of two Gaussians of one σ (where
    p − q keeps its sign, so ∫|p − q| = |∫(p − q)|)."""
    if m1 == m2:
        return arb(0)
    atoms = sum((abs(p - q) for p, q in zip(_clipped_atoms(m1, sd, half), _clipped_atoms(m2, sd, half))), arb(0))
    below = lambda x, m: 1 - _normal_tail((x - m) / sd)   # noqa: E731  P(N(m, σ²) ≤ x)
    middle = (m1 + m2) / 2
    cuts = [-half] + ([middle] if -half < middle < half else []) + [half]
    interior = sum((abs((below(b, m1) - below(a, m1)) - (below(b, m2) - below(a, m2)))
                    for a, b in zip(cuts, cuts[1:])), arb(0))
    return (atoms + interior) / 2


def _clipped_mixture_atoms(law, sd, half) -> tuple:
    """The atoms of Π_[−h, h] Σ_i u_i N(m_i, σ²) at −h and h, for ``law`` = ((u_i, m_i), ...)."""
    low = sum((u * _normal_tail((m + half) / sd) for u, m in law), arb(0))
    high = sum((u * _normal_tail((half - m) / sd) for u, m in law), arb(0))
    return low, high


def _log_mixture(law, sd):
    """z ↦ ln Σ_i u_i e^{−(z − m_i)²/(2σ²)} for complex balls z, analytic where the sum's logarithm is: the first
    component's quadratic taken out, so that the others enter as e^{(m_i − m_0)(2z − m_i − m_0)/(2σ²)}, linear in z
    (no cancellation of two large quadratics inside the ball)."""
    two_var = 2 * sd * sd
    _, m0 = law[0]
    terms = [(u, (m - m0) / two_var, m + m0) for u, m in law]

    def log(z, analytic):
        total = sum(u * (k * (2 * z - s)).exp() for u, k, s in terms)
        return -(z - m0) ** 2 / two_var + total.log(analytic=analytic)
    return log


def clipped_mixture_renyi(P, Q, sd, half, order):
    """R_α(Π Σ_i u_i N(m_i, σ²) ‖ Π Σ_j v_j N(n_j, σ²)) on [−h, h], α > 1, a ball, for mixtures of one σ given as
    ((u_i, m_i), ...) and ((v_j, n_j), ...) (balls, weights summing to 1): ln(Σ_atoms p^α q^(1−α) + ∫_{−h}^{h}
    p^α q^(1−α))/(α − 1), the atoms the mixtures' Gaussian tails beyond the ends, the integral of the densities by
    Arb's rigorous (Petras) integration of exp(α ln p + (1 − α) ln q) (analytic where both mixtures' logarithms
    are: :func:`_log_mixture`), split at every component's mean inside the interval. Both atoms are positive, so the
    divergence is finite. One component each is :func:`clipped_renyi`.

    >>> from flint import arb
    >>> from symdp.estimate import in_balls
    >>> with mpmath.workdps(20), in_balls():
    ...     one = clipped_renyi(arb("0.3"), arb("-0.2"), arb("0.5"), arb(1), arb(2))
    ...     same = clipped_mixture_renyi(((arb(1), arb("0.3")),), ((arb(1), arb("-0.2")),), arb("0.5"), arb(1), arb(2))
    ...     print(one.overlaps(same), same.rad() < 1e-20)
    True True
    """
    atoms = sum((p ** order * q ** (1 - order)
                 for p, q in zip(_clipped_mixture_atoms(P, sd, half), _clipped_mixture_atoms(Q, sd, half))), arb(0))
    log_p, log_q = _log_mixture(P, sd), _log_mixture(Q, sd)
    norm = 1 / (sd * (2 * arb.pi()).sqrt())

    def integrand(z, analytic):
        return (order * log_p(z, analytic) + (1 - order) * log_q(z, analytic)).exp() * norm

    inside = sorted({float(m.mid()) for _, m in (*P, *Q) if -half < m < half})
    cuts = [-half, *(arb(x) for x in inside), half]
    tol = arb(2) ** -(mpmath.mp.prec + 10)
    interior = sum((acb.integral(integrand, a, b, rel_tol=tol, abs_tol=tol).real for a, b in zip(cuts, cuts[1:])),
                   arb(0))
    return (atoms + interior).log() / (order - 1)
