"""The domain of each divergence, and every estimate moved into it at the engine's exit.

A divergence of two probability laws lies in a known interval whatever the laws: KL, Rényi (any order) and the max
divergence in ``[0, ∞]``, total variation in ``[0, 1]``, the hockey-stick divergence ``D_{e^ε}`` in
``[max(0, 1 - e^ε), 1]`` (``P(S) - e^ε Q(S)`` at ``S = ∅`` and at ``S = ℝ``, and at most ``P(S) ≤ 1``). Each route
of the engine (finite sums, closed forms, certified enclosures, quadrature, the supremum search) returns its
estimate through :func:`within_domain`, so that a value is never outside it — a KL just below 0 from a rounded sum
or a ball centred below 0 would otherwise make ``sqrt(KL/2)`` complex — and a certified enclosure is intersected
with it (:meth:`~symdp.estimate.Estimate.clamped`).

>>> from symdp.estimate import Estimate
>>> within_domain(Estimate(mpmath.mpf(-3) / 10**70, mpmath.mpf(1) / 10**60, certified=True), "kl").value >= 0
True
>>> domain("hockey_stick", mpmath.mpf(0)), domain("tv")
((mpf('0.0'), mpf('1.0')), (mpf('0.0'), mpf('1.0')))
"""

from __future__ import annotations

import mpmath
from flint import arb

from symdp.estimate import Estimate, arb_precision, mpf_down

_NON_NEGATIVE = ("kl", "renyi", "max_divergence")


def domain(kind: str, eps=None) -> tuple:
    """``(low, high)``: proved bounds of the divergence ``kind`` (``"kl"``, ``"renyi"``, ``"max_divergence"``,
    ``"tv"``, ``"hockey_stick"`` with its ``eps``), as mpf or ±inf, ``low`` rounded down.

    >>> low, high = domain("hockey_stick", mpmath.mpf(-1))   # 1 - 1/e = 0.632...
    >>> print(mpmath.nstr(low, 10), high, low <= 1 - mpmath.exp(-1))
    0.6321205588 1.0 True
    """
    zero, one = mpmath.mpf(0), mpmath.mpf(1)
    if kind in _NON_NEGATIVE:
        return zero, mpmath.inf
    if kind == "tv":
        return zero, one
    if kind == "hockey_stick":
        e = mpmath.mpf(eps)
        if e >= 0:
            return zero, one
        if mpmath.isinf(e):
            return one, one
        with arb_precision(mpmath.mp.prec + 64):
            lower = (-arb(e).expm1()).lower()   # 1 - e^ε as a ball 64 bits finer than the working precision
        # the largest number of the working precision not above 1 - e^ε
        return max(zero, mpf_down(lower)), one
    raise ValueError(f"no domain known for {kind!r}")


def within_domain(estimate: Estimate, kind: str, eps=None) -> Estimate:
    """``estimate`` moved into the domain of ``kind`` (see :func:`domain`)."""
    return estimate.clamped(*domain(kind, eps))


__all__ = ["domain", "within_domain"]
