"""Certified divergences of the continuous families: enclosures by ball arithmetic (python-flint's Arb).

Every function here returns an :class:`~symdp.estimate.Estimate` with ``certified=True``: the true value provably
lies in ``[value - error, value + error]``. Nothing is trusted that is not enclosed — no root finder, no quadrature
error estimate, no truncation of a tail:

* **Hockey-stick δ(ε) and TV** (:func:`hockey_stick`, :func:`tv`), as accountants compute them: exact CDF
  differences ``P(I) - e^ε Q(I)`` over the runs of intervals where the privacy loss ``L = log p - log q`` provably
  exceeds ε. A window covers every anchor of both laws out to where their tails hold less than ``2^-(prec+30)``;
  it is cut into intervals on which the sign of ``L - ε`` is decided by evaluating ``L`` on the interval's ball,
  bisected while undecided. An interval still undecided (it holds a crossing) contributes ``[0, w · sup_I (p -
  e^ε q)_+]`` — ``O(w²)`` at a simple crossing — and the mass of P beyond the window is added as ``[0, P(tails)]``.
* **KL and Rényi** (:func:`kl`, :func:`renyi`): Arb's rigorous Petras integration (``acb.integral``) of ``p log(p/q)``
  and ``p^α q^(1-α)`` between the kinks of both densities (each family gives a form analytic on one side of each
  kink), over a window around the integrand's peak, plus a rigorous bound of the tails from each family's
  certified envelope of ``log p`` (:meth:`~symdp.engine.continuous.ContinuousDistribution.arb_envelope`), whose
  exponential integrates in closed form. A Rényi integral whose tails diverge (decided exactly from the tail
  expansions) is ``+inf``.

The search for peaks and windows is done at low precision; it only decides *where* to look, never what is found.
Results are computed at ``mpmath.mp.prec`` + :data:`GUARD_BITS` and rounded outward.

>>> import mpmath
>>> from symdp.engine.continuous import Gaussian, Laplace
>>> with mpmath.workdps(30):
...     d = hockey_stick(Gaussian(0, 1), Gaussian(1, 1), 1)
>>> with mpmath.workdps(60):   # closed form Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), mu = 1
...     exact = mpmath.ncdf(-0.5) - mpmath.e * mpmath.ncdf(-1.5)
...     print(d.method, d.certified, abs(d.value - exact) <= d.error, d.error < 1e-28)
certified True True True
>>> with mpmath.workdps(30):   # closed form z + e^{-z} - 1 at z = 1
...     k = kl(Laplace(0, 1), Laplace(1, 1))
...     print(abs(k.value - mpmath.exp(-1)) <= k.error, k.error < 1e-28)
True True
"""

from __future__ import annotations

import contextlib
import math
from typing import Iterator

import mpmath
from flint import acb, arb, ctx

from symdp.engine.continuous import ContinuousDistribution, TailExpansion
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate
from symdp.numeric import to_mpf

GUARD_BITS = 24
"""Bits beyond ``mpmath.mp.prec`` at which the enclosures are computed (they are rounded outward after)."""

SEARCH_BITS = 64
"""Precision of the search for peaks and windows, which decides only where to look."""

MAX_INTERVALS = 400
"""Bisection budget of the sign decisions of one hockey-stick divergence."""


@contextlib.contextmanager
def arb_precision(bits: int) -> Iterator[None]:
    """Run a block with flint's working precision at ``bits``, restoring the caller's on exit.

    >>> with arb_precision(200):
    ...     print(ctx.prec)
    200
    """
    saved = ctx.prec
    ctx.prec = int(bits)
    try:
        yield
    finally:
        ctx.prec = saved


def supported(P: ContinuousDistribution, Q: ContinuousDistribution) -> bool:
    """Whether both laws have ball-arithmetic densities, CDFs and tail envelopes (the certified route applies).

    >>> from symdp.engine.continuous import Gaussian, Mixture
    >>> supported(Mixture(0.2, Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1))
    True
    """
    return P.arb_supported() and Q.arb_supported()


# --- public API: each an Estimate at the working precision ------------------------------------------------------


def hockey_stick(P: ContinuousDistribution, Q: ContinuousDistribution, eps) -> Estimate:
    """``D_{e^ε}(P || Q) = ∫ (p - e^ε q)_+``, certified, for ε of any sign.

    >>> from symdp.engine.continuous import Laplace
    >>> with mpmath.workdps(30):   # closed form 1 - e^{(eps - Delta/b)/2} for 0 <= eps <= Delta/b
    ...     d = hockey_stick(Laplace(0, 1), Laplace(1, 1), 0.5)
    ...     print(abs(d.value - (1 - mpmath.exp(-0.25))) <= d.error, d.error < 1e-28)
    True True
    """
    e = to_mpf(eps, "eps")
    if not mpmath.isfinite(e):
        raise InvalidParameter(f"eps must be a finite number, got {e}")
    return _run(lambda: _hockey_stick_ball(P, Q, e), P, Q)


def tv(P: ContinuousDistribution, Q: ContinuousDistribution) -> Estimate:
    """Total variation ``∫ (p - q)_+``: the hockey-stick divergence at ε = 0, certified.

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):   # closed form 2 Phi(Delta/(2 sigma)) - 1
    ...     t = tv(Gaussian(0, 1), Gaussian(1, 1))
    ...     print(abs(t.value - (2 * mpmath.ncdf(0.5) - 1)) <= t.error)
    True
    """
    return _run(lambda: _hockey_stick_ball(P, Q, mpmath.mpf(0)), P, Q)


def kl(P: ContinuousDistribution, Q: ContinuousDistribution) -> Estimate:
    """``KL(P || Q) = ∫ p log(p/q)``, certified.

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):   # closed form Delta^2/(2 sigma^2) = 1/8
    ...     k = kl(Gaussian(0, 2), Gaussian(1, 2))
    ...     print(abs(k.value - mpmath.mpf(1) / 8) <= k.error, k.error < 1e-28)
    True True
    """
    return _run(lambda: _kl_ball(P, Q), P, Q)


def renyi(P: ContinuousDistribution, Q: ContinuousDistribution, alpha) -> Estimate:
    """``R_α(P || Q) = log(∫ p^α q^(1-α))/(α - 1)`` for α > 0, α ≠ 1, certified; ``+inf`` when the tails of
    the integrand are not integrable (decided exactly from the tail expansions).

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):   # closed form alpha Delta^2/(2 sigma^2)
    ...     r = renyi(Gaussian(0, 1), Gaussian(1, 1), 3)
    ...     print(abs(r.value - 1.5) <= r.error, renyi(Gaussian(0, 1), Gaussian(0, 0.5), 5).value)
    True +inf
    >>> renyi(Gaussian(0, 1), Gaussian(1, 1), 0)
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: Rényi order alpha must be a finite number > 0 other than 1, got 0.0
    """
    a = to_mpf(alpha, "Rényi order alpha")
    if not (mpmath.isfinite(a) and a > 0 and a != 1):
        raise InvalidParameter(f"Rényi order alpha must be a finite number > 0 other than 1, got {mpmath.nstr(a, 10)}")
    return _run(lambda: _renyi_ball(P, Q, a), P, Q)


def _run(compute, P, Q) -> Estimate:
    """``compute()`` (an Arb ball) at the working precision plus guard bits, as a certified Estimate."""
    if not (isinstance(P, ContinuousDistribution) and isinstance(Q, ContinuousDistribution)):
        raise InvalidDistribution("certified divergences need two continuous distributions")
    if not supported(P, Q):
        raise InvalidParameter(f"no certified route for {type(P).__name__} and {type(Q).__name__} "
                               "(they lack ball-arithmetic densities)")
    with arb_precision(mpmath.mp.prec + GUARD_BITS):
        ball = compute()
    return Estimate.from_arb(ball, "certified")


# --- where the mass is: windows and partitions ------------------------------------------------------------------


def _min_scale(P, Q) -> mpmath.mpf:
    return min(s for _, s, _ in P.anchors() + Q.anchors())


def _reach(kind: str, bits: int) -> float:
    """Scales from an anchor beyond which a tail of that kind holds less than ``2^-bits``."""
    logs = bits * math.log(2)
    return math.sqrt(2 * logs) + 4 if kind == "gaussian" else 1.25 * logs + 10


def _partition(P, Q, bits: int) -> list:
    """Sorted points around every anchor (quarter scales out to 4 scales, then a geometric ratio of 1.25, out to
    :func:`_reach`), plus every kink: the first cut of a window into intervals."""
    points = set(P.kinks()) | set(Q.kinks())
    for centre, scale, kind in P.anchors() + Q.anchors():
        offsets = [k / 4 for k in range(17)]
        t, reach = 4.0, _reach(kind, bits)
        while t < reach:
            t *= 1.25
            offsets.append(t)
        points |= {centre + side * mpmath.mpf(t) * scale for t in offsets for side in (-1, 1)}
    return sorted(points)


# --- hockey-stick and TV ----------------------------------------------------------------------------------------


def _hockey_stick_ball(P, Q, eps) -> arb:
    """See the module docstring: runs of certified sign, crossing intervals, and the tails beyond the window."""
    prec = ctx.prec
    points = _partition(P, Q, prec + 30)
    lo, hi = points[0], points[-1]
    loss = _Loss(P, Q, eps)
    weight = arb(eps).exp()
    scale = _min_scale(P, Q)
    # First pass: the sign on each interval of the partition, for an estimate of δ that sets the tolerance.
    first = [(a, b, loss.sign(a, b)) for a, b in zip(points, points[1:])]
    estimate = _runs_sum(P, Q, weight, [(a, b, sign, None) for a, b, sign in first]).mid()
    # Relative to δ where some interval is provably positive; otherwise δ may be 0 and the unit scale of
    # probabilities is what "small" means.
    tolerance = arb(2) ** -(prec + 4) * (abs(estimate) if estimate != 0 else 1)
    finest = scale * mpmath.mpf(2) ** -(prec // 2 + 8)
    refined, budget = [], MAX_INTERVALS
    for a, b, sign in first:
        stack = [(a, b, sign)]
        while stack:   # depth first, right part pushed first: intervals come out in order
            a, b, sign = stack.pop()
            if sign != 0:
                refined.append((a, b, sign, None))
                continue
            bound, rounding = loss.bound(a, b)
            if bound <= tolerance or rounding or b - a <= finest or budget <= 0:
                refined.append((a, b, 0, bound))
                continue
            budget -= 1
            split = loss.split_at_crossing(a, b, tolerance, finest)
            if split is None:   # not monotone on [a, b], or a crossing at an end: bisect
                m = (a + b) / 2
                split = [(a, m, loss.sign(a, m)), (m, b, loss.sign(m, b))]
            stack += reversed(split)
    tails = P.arb_cdf(arb(lo)) + P.arb_sf(arb(hi))
    crossings = sum((bound for _, _, sign, bound in refined if sign == 0), arb(0))
    return _runs_sum(P, Q, weight, refined) + arb(0).union(crossings + tails)


class _Loss:
    """``g = L - ε = log p - log q - ε`` on balls: its sign on intervals, and its crossings of 0."""

    def __init__(self, P, Q, eps):
        self.P, self.Q, self.eps = P, Q, arb(eps)

    def at(self, x) -> arb:
        x = arb(x)
        return self.P.arb_logpdf(x) - self.Q.arb_logpdf(x) - self.eps

    def sign(self, a, b) -> int:
        """The certified sign of ``g`` on ``[a, b]``, 0 if undecided: from ``g`` on the interval's ball, else from
        the mean value form ``g(m) + g'([a, b]) · [a - m, b - m]``, which has no dependency between the two
        log-densities (far out in the tails each is large and they nearly cancel)."""
        ball = arb(a).union(arb(b))
        gap = self.at(ball)
        if not (gap > 0 or gap < 0):
            middle = (a + b) / 2
            gap = self.at(middle) + self.slope(ball) * (ball - arb(middle))
        return 1 if gap > 0 else -1 if gap < 0 else 0

    def bound(self, a, b) -> tuple[arb, bool]:
        """An upper bound of ``∫_[a,b] (p - e^ε q)_+ = ∫ p (1 - e^{-g})_+ ≤ (b - a) sup p (1 - e^{-sup g})_+``,
        and whether ``sup g`` is at the rounding level of the working precision (``g`` is 0 on the interval to
        all the digits there are, as for Laplace laws at ε = Δ/b: no bisection can do better)."""
        ball = arb(a).union(arb(b))
        lp = self.P.arb_logpdf(ball)
        gap = lp - self.Q.arb_logpdf(ball) - self.eps
        if not (gap > 0 or gap < 0):
            middle = (a + b) / 2
            centred = self.at(middle) + self.slope(ball) * (ball - arb(middle))
            gap = gap.intersection(centred) if gap.overlaps(centred) else centred
        top = -(-arb(gap.upper())).expm1()
        rounding = top < arb(2) ** -(ctx.prec - GUARD_BITS // 2) * (1 + abs(self.eps))
        return (arb(b) - arb(a)) * lp.upper().exp() * top.upper().nonnegative_part(), rounding

    def slope(self, x) -> arb:
        return self.P.arb_dlogpdf(x) - self.Q.arb_dlogpdf(x)

    def split_at_crossing(self, a, b, tolerance, finest):
        """Where ``g`` is provably monotone on ``[a, b]``: ``[(a, b, sign)]`` if its ends have one sign, else
        its single crossing ``r`` bracketed, ``[(a, r - w, s), (r - w, r + w, 0), (r + w, b, -s)]`` (clipped to
        ``[a, b]``), with ``r`` from Newton's method, or an end of the interval where ``g`` is 0 to working
        precision, the signs at ``r ± w`` certified and ``w`` small enough that the bracket's bound is below
        ``tolerance``. None where monotonicity is not certified or ``g`` vanishes at both ends."""
        slope = self.slope(arb(a).union(arb(b)))
        if not (slope > 0 or slope < 0):
            return None
        ga, gb = self.at(a), self.at(b)
        sa = 1 if ga > 0 else -1 if ga < 0 else 0
        sb = 1 if gb > 0 else -1 if gb < 0 else 0
        if sa == sb:
            return None if sa == 0 else [(a, b, sa)]
        rising = 1 if slope > 0 else -1
        left_sign, right_sign = -rising, rising
        root = self._newton(a, b, ga, gb) if sa and sb else (a if sa == 0 else b)
        w = max(finest, (b - a) * mpmath.mpf(2) ** -(ctx.prec // 2))
        for _ in range(64):
            left, right = max(a, root - w), min(b, root + w)
            ok_left = left == a or self._has_sign(left, left_sign)
            ok_right = right == b or self._has_sign(right, right_sign)
            if ok_left and ok_right:
                if self.bound(left, right)[0] <= tolerance or w <= finest:
                    return ([(a, left, left_sign)] if left > a else []) + [(left, right, 0)] + (
                        [(right, b, right_sign)] if right < b else [])
                w /= 4   # the signs hold but the bracket is too wide
            elif left == a and right == b:
                return None
            else:
                w *= 4   # too narrow for the precision to tell the signs apart
        return None

    def _has_sign(self, x, sign: int) -> bool:
        g = self.at(x)
        return g > 0 if sign > 0 else g < 0

    def _newton(self, a, b, ga, gb):
        """An approximate root of ``g`` in ``(a, b)`` (midpoint arithmetic: it is certified afterwards)."""
        ga, gb = ga.mid(), gb.mid()
        x = a - (b - a) * _mpf(ga) / (_mpf(gb) - _mpf(ga))   # regula falsi start
        for _ in range(ctx.prec.bit_length() + 8):
            if not a < x < b:
                x = (a + b) / 2
            step = _mpf((self.at(x) / self.slope(arb(x))).mid())
            x -= step
            if abs(step) <= abs(x) * mpmath.mpf(2) ** -(ctx.prec - 4) + mpmath.mpf(2) ** -(ctx.prec * 2):
                break
        return x


def _mpf(x: arb) -> mpmath.mpf:
    """The midpoint of an Arb ball as an mpf at the working precision (a search value: rounding is harmless)."""
    man, exp = x.mid().man_exp()
    return mpmath.ldexp(mpmath.mpf(int(man)), int(exp))


def _runs_sum(P, Q, weight, intervals) -> arb:
    """``Σ P(R) - e^ε Q(R)`` over the maximal runs ``R`` of consecutive intervals of positive sign."""
    total, start, end = arb(0), None, None
    for a, b, sign, _ in intervals + [(None, None, 0, None)]:
        if sign > 0 and start is not None and a == end:
            end = b
            continue
        if start is not None:
            left, right = arb(start), arb(end)
            total += P.arb_prob(left, right) - weight * Q.arb_prob(left, right)
        start, end = (a, b) if sign > 0 else (None, None)
    return total


# --- KL and Rényi: rigorous integration plus tail envelopes -----------------------------------------------------


def _kl_ball(P, Q) -> arb:
    """``∫ p (log p - log q)`` on the window, plus the tails: below by ``p log(p/q) ≥ p - q ≥ -q``, above by
    ``p log(p/q) ≤ p^(1+t) q^(-t)/t`` (``log y ≤ (y^t - 1)/t``) for the first ``t`` whose envelope integrates."""
    def log_weight(x, piece=None):
        return P.arb_logpdf(x, piece)

    def factor(x, piece):
        return P.arb_logpdf(x, piece) - Q.arb_logpdf(x, piece)

    def tail_bound(lo, hi):
        above = arb("inf")
        for t in (1, 0.5, 0.125, 0.015625):
            above = _tail_integral(P, Q, 1 + arb(t), lo, hi) / t
            if above.is_finite():
                break
        below = Q.arb_cdf(arb(lo)) + Q.arb_sf(arb(hi))
        return (-below).union(above)

    return _window_integral(P, Q, log_weight, factor, tail_bound)


def _renyi_ball(P, Q, alpha) -> arb:
    """``log(∫ p^α q^(1-α))/(α - 1)``; ``+inf`` (exact) when a tail of the integrand is not integrable."""
    for side in (-1, 1):
        if TailExpansion.combine(alpha, P.expansion(side), 1 - alpha, Q.expansion(side)).integrable() is False:
            return arb("inf")
    a = arb(alpha)

    def log_weight(x, piece=None):
        return a * P.arb_logpdf(x, piece) + (1 - a) * Q.arb_logpdf(x, piece)

    def tail_bound(lo, hi):
        return arb(0).union(_tail_integral(P, Q, a, lo, hi))

    integral = _window_integral(P, Q, log_weight, None, tail_bound)
    return integral.log() / (a - 1)


def _window_integral(P, Q, log_weight, factor, tail_bound) -> arb:
    """``∫ e^{log_weight} · factor`` over ℝ (``factor`` None: 1): Petras integration over a window around the
    peak of ``log_weight``, split at the kinks, plus ``tail_bound(lo, hi)`` for the rest; the window is widened
    until the tail bound is below the working precision relative to the integral."""
    prec = ctx.prec
    peak, top, lo, hi = _peak_window(P, Q, log_weight, (prec + 30) * math.log(2))
    shift = arb(top)
    kinks = sorted(set(P.kinks()) | set(Q.kinks()))
    margin = _min_scale(P, Q)
    lo, hi = min([lo] + [k - margin for k in kinks]), max([hi] + [k + margin for k in kinks])
    tol = arb(2) ** -prec

    def integrate(a, b):
        piece = (a + b) / 2

        def f(z, analytic):
            value = (log_weight(z, piece) - shift).exp()
            return value * factor(z, piece) if factor is not None else value
        return acb.integral(f, arb(a), arb(b), rel_tol=tol, abs_tol=tol * arb(margin)).real

    for _ in range(8):
        edges = [lo] + [x for x in sorted(set(kinks) | {peak}) if lo < x < hi] + [hi]
        body = sum((integrate(a, b) for a, b in zip(edges, edges[1:])), arb(0)) * shift.exp()
        tails = tail_bound(lo, hi)
        if tails.is_finite() and tails.rad() <= arb(2) ** -(prec - 4) * abs(body).upper():
            return body + tails
        lo, hi = peak - 2 * (peak - lo), peak + 2 * (hi - peak)   # the envelopes are loose here: look further
    return body + tails


def _peak_window(P, Q, log_weight, drop) -> tuple:
    """``(x*, h(x*), lo, hi)``: the highest point of ``h = log_weight`` found on the partition (followed outward
    while still rising at its ends) and the window outside which ``h`` stays ``drop`` below it, at low
    precision. Only decides where to integrate; the tail bounds certify what lies outside."""
    with arb_precision(SEARCH_BITS):
        def h(x):
            v = log_weight(arb(x))
            return float(v.mid()) if v.is_finite() else -math.inf
        points = _partition(P, Q, int(drop / math.log(2)))
        values = [h(x) for x in points]
        best = max(range(len(points)), key=lambda i: values[i])
        step = _min_scale(P, Q)
        for direction, end in ((-1, 0), (1, len(points) - 1)):
            if best == end:   # still rising at the end of the partition: follow it outward
                x, v = points[end], values[end]
                while True:
                    step *= 2
                    nx = x + direction * step
                    nv = h(nx)
                    if not nv > v:
                        break
                    x, v = nx, nv
                    points.insert(0 if direction < 0 else len(points), x)
                    values.insert(0 if direction < 0 else len(values), v)
                best = max(range(len(points)), key=lambda i: values[i])
        top = values[best]
        alive = [i for i, v in enumerate(values) if v > top - drop]
        lo, hi = points[max(alive[0] - 1, 0)], points[min(alive[-1] + 1, len(points) - 1)]
        width = max(hi - lo, step)
        while h(lo) > top - drop:
            lo -= width
            width *= 2
        width = max(hi - lo, step)
        while h(hi) > top - drop:
            hi += width
            width *= 2
    return points[best], top, lo, hi


def _tail_integral(P, Q, alpha: arb, lo, hi) -> arb:
    """An upper bound of ``∫ p^α q^(1-α)`` over ``x < lo`` and ``x > hi`` from the tail envelopes (α > 0):

    * α > 1: ``p^α ≤ (Σᵢ e^{Uᵢ})^α ≤ n^(α-1) Σᵢ e^{α Uᵢ}`` (convexity) and ``q^(1-α) ≤ e^{(1-α) L_q}``;
    * α < 1: ``(Σᵢ aᵢ)^α ≤ Σᵢ aᵢ^α`` (subadditivity) for both laws' upper envelopes.
    """
    total = arb(0)
    for side, edge in ((-1, lo), (1, hi)):
        start = side * edge
        ups_p, low_p = P.arb_envelope(side, start)
        ups_q, low_q = Q.arb_envelope(side, start)
        if alpha > 1:
            factor = arb(len(ups_p)) ** (alpha - 1)
            pairs = [(u, low_q) for u in ups_p]
        else:
            factor = arb(1)
            pairs = [(u, v) for u in ups_p for v in ups_q]
        for u, v in pairs:
            A, B, C = (alpha * x + (1 - alpha) * y for x, y in zip(u, v))
            total += factor * _exp_quadratic_integral(A, B, C, arb(start))
    return total


def _exp_quadratic_integral(A: arb, B: arb, C: arb, u0: arb) -> arb:
    """``∫_{u0}^∞ exp(-A u² + B u + C) du`` in closed form (erfc, exp); ``+inf`` unless provably finite.

    >>> with arb_precision(80):   # ∫_0^∞ e^{-u²} = √π/2
    ...     print(_exp_quadratic_integral(arb(1), arb(0), arb(0), arb(0)).contains(arb.pi().sqrt() / 2))
    True
    """
    if A > 0:
        centre = B / (2 * A)
        return (C + B * centre / 2).exp() * (arb.pi() / A).sqrt() / 2 * (A.sqrt() * (u0 - centre)).erfc()
    if A.is_zero() and B < 0:
        return (B * u0 + C).exp() / (-B)
    return arb("inf")


__all__ = ["GUARD_BITS", "arb_precision", "hockey_stick", "kl", "renyi", "supported", "tv"]
