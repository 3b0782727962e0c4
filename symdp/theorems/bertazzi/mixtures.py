"""Gaussian mixtures with one common variance, built exactly, and their divergences in ball arithmetic.

SGLD's final iterate with batches s < m is such a mixture (:mod:`symdp.theorems.bertazzi.sgld`): its means and
variance are rationals of the draw, so the law is built exactly (Fractions) and enters the balls only at the end.
Writing ``p = φ_v · S_P`` with ``φ_v`` the centred normal density of variance v and ``S_P(x) = Σᵢ wᵢ e^{cᵢx + oᵢ}``
(``cᵢ = aᵢ/v``, ``oᵢ = −aᵢ²/(2v)``), the quadratic part is common to both laws and cancels before any ball is formed:

* **Rényi** (:func:`renyi_ball`): ``∫ p^α q^{1−α} = ∫ φ_v S_P^α S_Q^{1−α}`` by Arb's rigorous (Petras) integration
  over a window, plus the two tails bounded in closed form: for α > 1 and ``x ≥ 0``, ``S_P(x) ≤ (Σᵢ wᵢe^{oᵢ})
  e^{x max cᵢ}`` and ``S_Q(x) ≥ w_J e^{c_J x + o_J}`` (one component, J of the largest slope), so the integrand is below
  a Gaussian exponential whose tail is an erfc; ``x ≤ 0`` the same with the smallest slopes.
* **Hockey stick** (:func:`hockey_stick_ball`): the privacy loss ``L = log S_P − log S_Q`` has slope between
  ``min cᵢ − max c_j`` and ``max cᵢ − min c_j`` (each ``(log S)'`` is a tilted mean of the slopes), so where every mean
  of P lies at or below every mean of Q, L is non-increasing and ``{L > ε}`` is a half-line ``(−∞, x*)``; then
  ``δ = ∫(p − e^ε q)_+ = F(x*)``, ``F(t) = P(X < t) − e^ε Q(X < t)`` a sum of normal CDFs, which is largest at
  ``x*``. ``x*`` is enclosed by two points at which the balls prove ``L ≥ ε`` and ``L ≤ ε``; F at a point between
  them is a lower end, and ``|F(x*) − F(t)| ≤ |x* − t| sup|p − e^ε q|`` over the bracket the upper.

Every function computes at flint's current precision; the caller wraps it in
:func:`symdp.estimate.sharp_ball` (more bits while the ball is not sharp relative to itself).

>>> from fractions import Fraction as F
>>> from symdp.estimate import arb_precision
>>> P = ExactMixture(((F(0), F(1)),), F(1)); Q = ExactMixture(((F(1), F(1)),), F(1))
>>> with arb_precision(100):    # N(0, 1) against N(1, 1): R_3 = 3/2 and δ(0) = 2Φ(1/2) − 1
...     r, d = renyi_ball(P, Q, F(3)), hockey_stick_ball(P, Q, 0)
>>> abs(r - 1.5) < 1e-25, abs(d - (2 * mpmath.ncdf(0.5) - 1)) < 1e-15
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
from flint import acb, arb, ctx

from symdp.estimate import exact_ball

MAX_EVALUATIONS = 50_000
"""Most integrand evaluations one Rényi integral may spend; past it the ball is unbounded (and the caller falls back
to the engine)."""


@dataclass(frozen=True)
class ExactMixture:
    """Σᵢ wᵢ N(aᵢ, v): ``components`` ((aᵢ, wᵢ), ...) and ``variance`` v, all exact rationals (weights summing to 1)."""
    components: tuple
    variance: Fraction

    def balls(self):
        """(slopes cᵢ = aᵢ/v, offsets log wᵢ − aᵢ²/(2v), v) as balls at flint's precision."""
        v = exact_ball(self.variance)
        slopes = [exact_ball(a) / v for a, _ in self.components]
        offsets = [exact_ball(w).log() - exact_ball(a) ** 2 / (2 * v) for a, w in self.components]
        return slopes, offsets, v

    def floats(self):
        """The same in floats, for the searches (which decide only where to look)."""
        v = float(self.variance)
        return (np.array([float(a) / v for a, _ in self.components]),
                np.array([math.log(float(w)) - float(a) ** 2 / (2 * v) for a, w in self.components]), v)


def _dominant(slopes, offsets, z, analytic=False):
    """``(k, log Σᵢ e^{(cᵢ − c_k)z + oᵢ − o_k})`` at a (complex) ball z, k the largest term at z's centre: the sum
    whose log is taken is 1 plus terms of modulus at most about 1 (away from the branch cut on Petras's discs), and
    ``log Σᵢ e^{cᵢz + oᵢ}`` is ``c_k z + o_k`` plus it."""
    x = float(z.real.mid()) if isinstance(z, acb) else float(z.mid())
    k = max(range(len(slopes)), key=lambda i: float(slopes[i].mid()) * x + float(offsets[i].mid()))
    ck, ok = slopes[k], offsets[k]
    complex_ = isinstance(z, acb)
    total = sum((((c - ck) * z + (o - ok)).exp() for i, (c, o) in enumerate(zip(slopes, offsets)) if i != k),
                acb(1) if complex_ else arb(1))
    return k, (total.log(analytic=analytic) if complex_ else total.log())


def _log_sum(slopes, offsets, z, analytic=False):
    """``log Σᵢ e^{cᵢz + oᵢ}`` at a (complex) ball z (:func:`_dominant`)."""
    k, rest = _dominant(slopes, offsets, z, analytic)
    return slopes[k] * z + offsets[k] + rest


def _float_log_sum(slopes, offsets, xs):
    terms = np.outer(xs, slopes) + offsets
    top = terms.max(axis=1)
    return top + np.log(np.exp(terms - top[:, None]).sum(axis=1))


def renyi_ball(P: ExactMixture, Q: ExactMixture, alpha) -> arb:
    """``R_α(P‖Q) = log(∫ p^α q^{1−α})/(α − 1)`` for α > 1 (exact rational or float) and two mixtures of one common
    variance, as a ball at flint's precision (module docstring); a non-finite ball where the integration did not
    converge."""
    if P.variance != Q.variance or not alpha > 1:
        raise ValueError("renyi_ball needs a common variance and alpha > 1")
    prec = ctx.prec
    a_ = exact_ball(alpha)
    sp_, op_, v = P.balls()
    sq_, oq_, _ = Q.balls()
    norm = -(2 * arb.pi() * v).log() / 2

    vertices = {}

    def exponent(z, analytic=False):
        # −z²/(2v) + α(c_k z + o_k) + (1 − α)(c_l z + o_l) as C − (z − vB)²/(2v), the square completed before the
        # ball enters: on a disc near the peak the dependency of its terms would otherwise widen the ball by
        # |B| times the disc's radius (and Petras would need discs that much smaller)
        k, rest_p = _dominant(sp_, op_, z, analytic)
        l, rest_q = _dominant(sq_, oq_, z, analytic)
        if (k, l) not in vertices:
            B = a_ * sp_[k] + (1 - a_) * sq_[l]
            vertices[k, l] = (v * B, norm + a_ * op_[k] + (1 - a_) * oq_[l] + v * B * B / 2)
        centre, top = vertices[k, l]
        u = z - centre
        return top - u * u / (2 * v) + a_ * rest_p + (1 - a_) * rest_q

    # where to look (floats): the exponent on a grid over the means and the envelopes' centres, its largest value
    # the shift, the window where it is within (prec + 40) bits of it and the tail bounds' factor N^(α-1) (widened
    # below while the tails are not small)
    fp, gp, vf = P.floats()
    fq, gq, _ = Q.floats()
    af, sd = float(alpha), math.sqrt(vf)
    centres = [vf * (af * fp.max() + (1 - af) * fq.max()), vf * (af * fp.min() + (1 - af) * fq.min())]
    means = np.concatenate([fp, fq]) * vf
    low, high = min(means.min(), *centres) - 12 * sd, max(means.max(), *centres) + 12 * sd
    grid = np.linspace(low, high, int(min(8000, max(200, (high - low) / (0.25 * sd)))))
    values = (-grid ** 2 / (2 * vf) - math.log(2 * math.pi * vf) / 2 + af * _float_log_sum(fp, gp, grid)
              + (1 - af) * _float_log_sum(fq, gq, grid))
    if not np.all(np.isfinite(values)):
        return arb("nan")
    best = int(np.argmax(values))
    peak, shift = float(grid[best]), float(values[best])
    alive = np.nonzero(values >= shift - (prec + 40) * math.log(2) - (af - 1) * math.log(len(fp)))[0]
    lo, hi = float(grid[max(alive[0] - 1, 0)]), float(grid[min(alive[-1] + 1, len(grid) - 1)])
    lo, hi = min(lo, peak - sd), max(hi, peak + sd)
    shift_ball = arb(shift)
    target = (shift_ball + math.log(sd) - 16).exp() * arb(2) ** -prec   # tails this small are below the digits

    bounds = _TailBounds(sp_, op_, sq_, oq_, v, a_, norm)
    tails = bounds(lo, hi)
    for _ in range(12):
        if tails.is_finite() and tails.upper() <= target.lower():
            break
        lo, hi = peak - 2 * (peak - lo), peak + 2 * (hi - peak)
        tails = bounds(lo, hi)
    tol = arb(2) ** -prec
    evaluations = [0]

    def f(z, analytic):
        evaluations[0] += 1
        return (exponent(z, analytic) - shift_ball).exp()

    body = arb(0)
    for a, b in ((lo, peak), (peak, hi)):
        left = max(MAX_EVALUATIONS - evaluations[0], 1)
        body += acb.integral(f, arb(a), arb(b), rel_tol=tol, abs_tol=tol * arb(sd), eval_limit=left).real
    if not body.is_finite():
        return arb("nan")
    integral = body * shift_ball.exp() + arb(0).union(tails)
    return integral.log() / (a_ - 1)


class _TailBounds:
    """``∫ φ_v S_P^α S_Q^{1−α}`` over ``x ≥ hi`` and ``x ≤ lo`` bounded above (α > 1), term by term as the engine's
    envelopes do: ``(Σᵢ eᵢ)^α ≤ N^{α−1} Σᵢ eᵢ^α`` (convexity, N components of P) and ``S_Q ≥ e^{c_j x + o_j}`` for
    any one component j (``1 − α < 0``), the least over j for each i. Each term is ``exp(K + Bx − x²/(2v))``, whose
    tail is ``e^{K + vB²/2} √(πv/2) erfc(±(x₀ − vB)/√(2v))``."""

    def __init__(self, sp_, op_, sq_, oq_, v, a_, norm):
        self.pairs = [[(norm + a_ * o_i + (1 - a_) * o_j, a_ * c_i + (1 - a_) * c_j) for c_j, o_j in zip(sq_, oq_)]
                      for c_i, o_i in zip(sp_, op_)]
        self.factor = arb(len(sp_)) ** (a_ - 1)
        self.v, self.root = v, (2 * v).sqrt()
        self.width = (arb.pi() * v / 2).sqrt()

    def side(self, side: int, edge: float) -> arb:
        x0, v = arb(edge), self.v
        total = arb(0)
        for row in self.pairs:
            best = arb("inf")
            for K, B in row:
                bound = (K + v * B * B / 2).exp() * self.width * (side * (x0 - v * B) / self.root).erfc()
                if bound.is_finite() and not bound.upper() >= best.upper():
                    best = bound
            total += best
        return self.factor * total

    def __call__(self, lo: float, hi: float) -> arb:
        return self.side(1, hi) + self.side(-1, lo)


def _ball_log_sum_exp(values) -> arb:
    top = max(values, key=lambda t: float(t.mid()))
    return top + sum(((t - top).exp() for t in values), arb(0)).log()


def _normal_cdf(x: arb) -> arb:
    return (-x / arb(2).sqrt()).erfc() / 2


def hockey_stick_ball(P: ExactMixture, Q: ExactMixture, eps) -> arb:
    """``δ = ∫ (p − e^ε q)_+`` for two mixtures of one common variance whose means are ordered (every mean of P at
    or below every mean of Q: the loss is non-increasing), as a ball at flint's precision (module docstring);
    NaN where the means are not so ordered or the balls do not bracket the crossing (the caller falls back)."""
    if P.variance != Q.variance or max(a for a, _ in P.components) > min(b for b, _ in Q.components):
        return arb("nan")
    prec = ctx.prec
    sp_, op_, v = P.balls()
    sq_, oq_, _ = Q.balls()
    sd = v.sqrt()
    e = exact_ball(eps)

    def loss(x):
        return _log_sum(sp_, op_, x) - _log_sum(sq_, oq_, x)

    # the crossing L = ε: bracketed in floats (L decreases), then Newton's steps on ball midpoints
    fp, gp, vf = P.floats()
    fq, gq, _ = Q.floats()
    ef = float(eps)

    def float_loss(x):
        return float(_float_log_sum(fp, gp, np.array([x]))[0] - _float_log_sum(fq, gq, np.array([x]))[0]) - ef
    step, left, right = math.sqrt(vf), 0.0, 0.0
    for _ in range(200):
        if float_loss(left) > 0:
            break
        left -= step
        step *= 2
    else:
        return arb("nan")
    step = math.sqrt(vf)
    for _ in range(200):
        if float_loss(right) < 0:
            break
        right += step
        step *= 2
    else:
        return arb("nan")
    for _ in range(80):
        middle = (left + right) / 2
        if float_loss(middle) > 0:
            left = middle
        else:
            right = middle
    x = arb((left + right) / 2)
    for _ in range(12):
        value = loss(x) - e
        h = sd * arb(2) ** -(prec // 2)
        slope = (loss(x + h) - loss(x - h)) / (2 * h)
        step_ = value / slope
        if not step_.is_finite():
            return arb("nan")
        x = arb(x - step_).mid()
        x = arb(x)
        if abs(step_.mid()) < sd * arb(2) ** -(prec + 4):
            break
    width = sd * arb(2) ** -((3 * prec) // 4)
    t1, t2 = arb((x - width).mid()), arb((x + width).mid())
    if not (loss(t1) >= e and loss(t2) <= e):
        return arb("nan")

    def cdf_difference(t):
        below_p = sum((exact_ball(w) * _normal_cdf((t - exact_ball(a)) / sd) for a, w in P.components), arb(0))
        below_q = sum((exact_ball(w) * _normal_cdf((t - exact_ball(b)) / sd) for b, w in Q.components), arb(0))
        return below_p - e.exp() * below_q

    def density_difference(t):
        norm = -(2 * arb.pi() * v).log() / 2 - t * t / (2 * v)
        return (norm + _log_sum(sp_, op_, t)).exp() - (e + norm + _log_sum(sq_, oq_, t)).exp()

    value = cdf_difference(x)
    spread = (t2 - t1) * abs(density_difference(t1.union(t2))).upper()
    return value + arb(0).union(arb(spread))
