"""Where to look on the real line: the points around two laws at which both numeric routes search, and the
partition of the line by kinks, crossing points and peaks.

The certified route (:mod:`symdp.engine.certified`) and the mpmath route (:mod:`symdp.engine.quadrature`) both cut
the line the same way before they compute anything; this module is that one cut.

* :func:`anchor_points`: around every anchor ``(centre, scale, kind)`` of both laws, steps of ``fine`` scales out
  to 4 scales, then a geometric ratio out to :func:`reach`, where a tail of that kind holds less than
  ``e^-log_mass``. The certified route takes quarter scales and a ratio of 1.25 (its partition, in floats, out to
  ``2^-(prec+30)``); quadrature takes the same (its first search grid, in mpf, out to ``10^-(dps+20)``) or half
  the step and the square root of the ratio (its second).
* :func:`kinks` and :func:`min_scale`: the density kinks of both laws, the smallest scale of their anchors.
* :func:`merge`: breakpoints (kinks, crossing points: kept as they are) and searched points (grid points, peaks,
  ladders) as one sorted list, dropping a searched point that is a rounding twin of another.
* :func:`climb`: a function still rising at the end of a grid, followed outward with doubling steps (the Rényi
  integrand's peak at order α sits near ``(1 - α)Δ`` for Gaussians, far outside any grid around the centres).

Nothing here decides a value: these points only say where the routes look. A crossing point or peak narrower than
the step between two points can be missed by a search on them (the certified route never relies on one for what it
encloses).

>>> import mpmath
>>> from symdp.engine.continuous import Laplace
>>> P, Q = Laplace(0, 1), Laplace(2, 1)
>>> kinks(P, Q), min_scale(P, Q)
([mpf('0.0'), mpf('2.0')], mpf('1.0'))
>>> points = anchor_points(P, Q, 0.25, 1.25, 30.0)   # quarter scales to 4, then 1.25 x past 1.25*30 + 10
>>> len(points), mpmath.nstr(max(points) - 2, 12)      # 29 offsets, 2 sides, 2 anchors; the last 4·1.25^12
(116, '58.2076609135')
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import mpmath

from symdp.engine.continuous import ContinuousDistribution


def kinks(P: ContinuousDistribution, Q: ContinuousDistribution) -> list:
    """The kinks of both densities, sorted, each once."""
    return sorted(set(P.kinks()) | set(Q.kinks()))


def min_scale(P: ContinuousDistribution, Q: ContinuousDistribution) -> mpmath.mpf:
    """The smallest scale of the anchors of both laws: the unit of every step and tolerance on the line."""
    return min(s for _, s, _ in P.anchors() + Q.anchors())


def reach(kind: str, log_mass):
    """Scales from an anchor of ``kind`` beyond which its tail holds less than ``e^-log_mass``: ``√(2 log_mass) + 4``
    for a Gaussian tail, ``1.25 log_mass + 10`` for an exponential one. In the arithmetic of ``log_mass`` (a float,
    or an mpf at the working precision).

    >>> reach("gaussian", 50.0), reach("laplace", mpmath.mpf(8))
    (14.0, mpf('20.0'))
    """
    sqrt = mpmath.sqrt if isinstance(log_mass, mpmath.mpf) else math.sqrt
    return sqrt(2 * log_mass) + 4 if kind == "gaussian" else 1.25 * log_mass + 10


def offsets(fine, ratio, far) -> list:
    """``0, fine, 2 fine, ..., 4``, then ``4 ratio, 4 ratio², ...`` up to the first at or beyond ``far``, in the
    arithmetic of ``fine`` and ``ratio`` (floats, or mpfs at the working precision).

    >>> offsets(0.5, 2.0, 20)
    [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 8.0, 16.0, 32.0]
    """
    count = int(4 / fine)
    result = [fine * k for k in range(count + 1)]
    t = fine * count   # 4, exactly, in either arithmetic (fine is 1/4 or 1/8)
    while t < far:
        t *= ratio
        result.append(t)
    return result


def anchor_points(P: ContinuousDistribution, Q: ContinuousDistribution, fine, ratio, log_mass) -> list:
    """``centre ± t · scale`` for every anchor ``(centre, scale, kind)`` of both laws and every ``t`` of
    :func:`offsets` out to :func:`reach` of its kind, in the order made (duplicates kept: the caller sorts and
    merges). The offsets are computed in the arithmetic of ``fine``, ``ratio`` and ``log_mass`` and then taken as
    mpfs at the working precision."""
    points = []
    for centre, scale, kind in P.anchors() + Q.anchors():
        ts = [mpmath.mpf(t) for t in offsets(fine, ratio, reach(kind, log_mass))]
        points += [centre + t * scale for t in ts] + [centre - t * scale for t in ts]
    return points


def merge(exact: Sequence, extra: Sequence, scale) -> list:
    """Sorted ``exact`` points (kinks, crossings: kept as they are) and ``extra`` ones, dropping an extra point
    within ``10^-(dps/2)`` scales of another (rounding twins would only make spurious pieces or maxima).

    >>> merge([1], [0, mpmath.mpf(1) + mpmath.mpf(10) ** -20, 2], 1)   # the twin of the kink 1 goes
    [0, 1, 2]
    """
    tol = scale * mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))
    merged: list = []
    for x, is_exact in sorted([(x, True) for x in exact] + [(x, False) for x in extra], key=lambda t: t[0]):
        if merged and x - merged[-1][0] <= tol:
            if is_exact and not merged[-1][1]:
                merged[-1] = (x, True)
            continue
        merged.append((x, is_exact))
    return [x for x, _ in merged]


def climb(f: Callable, x, fx, direction: int, step, limit: int | None = None) -> tuple:
    """Follow ``f`` outward from ``(x, f(x))`` in ``direction`` (±1) with steps ``step, 2 step, 4 step, ...`` while
    it rises. Returns ``(rising, stop, step)``: the points ``(x, f(x))`` at which it still rose, in order; the first
    at which it did not (None if it still rose after ``limit`` steps; no limit by default); and the step that reached
    ``stop`` (the last one taken).

    >>> climb(lambda x: -(x - 5) ** 2, 0, -25, 1, 1)   # up 1, 2, 4: at 7 it has fallen again
    ([(1, -16), (3, -4)], (7, -4), 4)
    """
    rising = []
    steps = 0
    while limit is None or steps < limit:
        nxt = x + direction * step
        fn = f(nxt)
        if not fn > fx:
            return rising, (nxt, fn), step
        rising.append((nxt, fn))
        x, fx = nxt, fn
        step *= 2
        steps += 1
    return rising, None, step


__all__ = ["anchor_points", "climb", "kinks", "merge", "min_scale", "offsets", "reach"]
