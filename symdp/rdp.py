"""Rényi curves of mechanisms, and their conversions to (ε, δ): the accounting most papers still quote, adjudicated.

A mechanism is (α, τ)-RDP when R_α(M(D)‖M(D')) ≤ τ for all neighbours (Mironov 2017); under a dominating pair
(:mod:`symdp.mechanisms`) that is R_α(P‖Q) of each orientation of the relation. :func:`renyi_curve` gives the
certified bracket of that τ at each order asked, integer or fractional: the pairs' Rényi divergences through the
engine's door, composed exactly (R_α of a product is the sum of its coordinates').

An RDP curve converts to (ε, δ)-DP at each order, and the best order is taken:

* **Mironov** (2017, Prop. 3): ε = τ + log(1/δ)/(α − 1);
* **Canonne, Kamath, Steinke** (2020, Prop. 12; what dp_accounting's RDP accountant uses):
  ε = τ + log((α − 1)/α) − (log δ + log α)/(α − 1), always at most Mironov's.

:func:`epsilon_from_rdp` converts any table of (α, τ) — a paper's, dp_accounting's, or a certified curve's upper ends
— in ball arithmetic, rounded upward: given the table, the ε it proves. A table is adjudicated against the certified
curve by :func:`adjudicate`: a τ below the certified bracket is an underestimate of the Rényi divergence (the table
claims a privacy the mechanism does not have at that order). ρ-zCDP (Bun and Steinke 2016) is the curve τ = ρα
(:func:`zcdp_curve`).

>>> from symdp.mechanisms import gaussian
>>> curve = renyi_curve(gaussian(2.0).composed(8), [2, 4.5])        # α k/(2σ²) = α (Mironov 2017, Prop. 7)
>>> [(float(a), float(lo) <= float(a) <= float(hi)) for a, lo, hi in zip(curve.orders, curve.lower, curve.upper)]
[(2.0, True), (4.5, True)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import mpmath
from flint import arb

from symdp.errors import InvalidParameter
from symdp.estimate import arb_precision, exact_ball, mpf_up
from symdp.mechanisms import Mechanism, enclosure
from symdp.numeric import to_mpf

CONVERSIONS = ("cks", "mironov")
"""The RDP-to-(ε, δ) conversions, the tighter first."""


@dataclass(frozen=True)
class RenyiCurve:
    """Certified brackets [``lower[i]``, ``upper[i]``] of τ(α) = max over the relation's orientations of
    R_α(P‖Q), at ``orders[i]``; ``decided_by[i]`` the orientation reaching highest there."""

    relation: str
    orders: tuple
    lower: tuple
    upper: tuple
    decided_by: tuple
    certified: bool


def _orders(orders: Sequence) -> tuple:
    if isinstance(orders, (str, bytes)) or not len(orders):
        raise InvalidParameter(f"orders must be a non-empty list of numbers > 1, got {orders!r}")
    found = tuple(to_mpf(a, "a Rényi order") for a in orders)
    for a, given in zip(found, orders):
        if not (mpmath.isfinite(a) and a > 1):
            raise InvalidParameter(f"a Rényi order must be a finite number > 1, got {given!r}")
    return found


def renyi_curve(mechanism: Mechanism, orders: Sequence) -> RenyiCurve:
    """The certified RDP curve of ``mechanism`` under its relation at ``orders`` (each > 1)."""
    from symdp.laws import measure

    alphas = _orders(orders)
    lower, upper, decided, certified = [], [], [], True
    for a in alphas:
        ends = {}
        for name, (P, Q) in mechanism.pairs.items():
            m = measure("renyi", P, Q, a)
            certified &= bool(m.certified)
            ends[name] = enclosure(m)
        top = max(ends, key=lambda name: ends[name][1])
        lower.append(max(lo for lo, _ in ends.values()))
        upper.append(ends[top][1])
        decided.append(top)
    return RenyiCurve(mechanism.relation, alphas, tuple(lower), tuple(upper), tuple(decided), certified)


def zcdp_curve(rho, orders: Sequence) -> tuple[tuple, tuple]:
    """The RDP curve τ(α) = ρα of ρ-zCDP at ``orders``, as (orders, τ)."""
    r = to_mpf(rho, "rho")
    if not (mpmath.isfinite(r) and r >= 0):
        raise InvalidParameter(f"rho of zCDP must be a finite number >= 0, got {rho!r}")
    alphas = _orders(orders)
    return alphas, tuple(r * a for a in alphas)


def _conversion(conversion: str) -> str:
    if conversion not in CONVERSIONS:
        raise InvalidParameter(f"unknown conversion {conversion!r}; the conversions are {', '.join(CONVERSIONS)}")
    return conversion


def _epsilon_at(a: arb, tau: arb, log_delta: arb, conversion: str) -> arb:
    if conversion == "mironov":
        return tau - log_delta / (a - 1)
    return tau + ((a - 1) / a).log() - (log_delta + a.log()) / (a - 1)


def epsilon_from_rdp(orders: Sequence, taus: Sequence, delta, *, conversion: str = "cks") -> tuple:
    """The ε that an RDP table (τ at each order) proves at ``delta``, minimised over its orders: ``(ε, order)``, ε
    rounded upward (ball arithmetic), so that an (ε, δ) guarantee read from it holds whenever the table does.

    >>> eps, order = epsilon_from_rdp([2, 3], [0.5, 0.75], 1e-5, conversion="mironov")   # τ + log(1/δ)/(α − 1)
    >>> float(order), round(float(eps), 6)
    (3.0, 6.506463)
    """
    alphas, conversion = _orders(orders), _conversion(conversion)
    d = to_mpf(delta, "delta")
    if not 0 < d < 1:
        raise InvalidParameter(f"delta must lie in (0, 1), got {delta!r}")
    if len(taus) != len(alphas):
        raise InvalidParameter(f"an RDP table needs one τ per order: {len(alphas)} orders, {len(taus)} values")
    with arb_precision(max(mpmath.mp.prec, 53) + 20):
        log_delta = exact_ball(d).log()
        found = [(_epsilon_at(exact_ball(a), exact_ball(to_mpf(t, "an RDP value")), log_delta, conversion), a)
                 for a, t in zip(alphas, taus)]
        best = min(found, key=lambda pair: mpf_up(pair[0].upper()))
        return mpf_up(best[0].upper()), best[1]


def delta_from_rdp(orders: Sequence, taus: Sequence, epsilon, *, conversion: str = "cks") -> tuple:
    """The δ that an RDP table proves at ``epsilon`` (at most 1), minimised over its orders: ``(δ, order)``, δ rounded
    upward. Mironov: δ = e^{(α−1)(τ−ε)}; Canonne–Kamath–Steinke: that times (1 − 1/α)^α/(α − 1)."""
    alphas, conversion = _orders(orders), _conversion(conversion)
    e = to_mpf(epsilon, "epsilon")
    if len(taus) != len(alphas):
        raise InvalidParameter(f"an RDP table needs one τ per order: {len(alphas)} orders, {len(taus)} values")
    with arb_precision(max(mpmath.mp.prec, 53) + 20):
        found = []
        for a, t in zip(alphas, taus):
            a_, gap = exact_ball(a), exact_ball(to_mpf(t, "an RDP value")) - exact_ball(e)
            log_delta = (a_ - 1) * gap
            if conversion == "cks":
                log_delta += a_ * (1 - 1 / a_).log() - (a_ - 1).log()
            found.append((log_delta.exp(), a))
        best = min(found, key=lambda pair: mpf_up(pair[0].upper()))
        return min(mpf_up(best[0].upper()), mpmath.mpf(1)), best[1]


def adjudicate(curve: RenyiCurve, taus: Sequence) -> list[str]:
    """Each τ of a table at ``curve``'s orders against its certified bracket: ``"inside"``, ``"pessimistic"`` (above
    it: safe, loose) or ``"underestimate"`` (below it: the table claims more privacy than the mechanism has)."""
    if len(taus) != len(curve.orders):
        raise InvalidParameter(f"the table has {len(taus)} values for {len(curve.orders)} orders")
    verdicts = []
    for t, lo, hi in zip(taus, curve.lower, curve.upper):
        value = to_mpf(t, "an RDP value")
        verdicts.append("underestimate" if value < lo else "pessimistic" if value > hi else "inside")
    return verdicts


__all__ = ["CONVERSIONS", "RenyiCurve", "adjudicate", "delta_from_rdp", "epsilon_from_rdp", "renyi_curve",
           "zcdp_curve"]
