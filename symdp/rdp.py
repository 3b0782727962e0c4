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
(:func:`zcdp_curve`). :func:`repeat_and_select` bounds the table of running a mechanism a random number of times and
releasing the best run (Papernot and Steinke 2022), as dp_accounting's ``RepeatAndSelectDpEvent``.

>>> from symdp.mechanisms import gaussian
>>> curve = renyi_curve(gaussian(2.0).composed(8), [2, 4.5])        # α k/(2σ²) = α (Mironov 2017, Prop. 7)
>>> [(float(a), float(lo) <= float(a) <= float(hi)) for a, lo, hi in zip(curve.orders, curve.lower, curve.upper)]
[(2.0, True), (4.5, True)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import mpmath
from flint import arb, ctx

from symdp.errors import InvalidParameter
from symdp.estimate import arb_precision, exact_ball, mpf_up
from symdp.mechanisms import Mechanism, enclosure
from symdp.numeric import to_mpf, to_mpf_up

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
        found = [(_epsilon_at(exact_ball(a), exact_ball(to_mpf_up(t, "an RDP value")), log_delta, conversion), a)
                 for a, t in zip(alphas, taus)]
        best = min(found, key=lambda pair: mpf_up(pair[0].upper()))
        return mpf_up(best[0].upper()), best[1]


def _log_delta_at(a: arb, gap: arb, conversion: str) -> arb:
    """log δ that order ``a`` proves at ε = τ − ``gap``."""
    log_delta = (a - 1) * gap
    if conversion == "cks":
        log_delta += a * (1 - 1 / a).log() - (a - 1).log()
    return log_delta


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
            a_, gap = exact_ball(a), exact_ball(to_mpf_up(t, "an RDP value")) - exact_ball(e)
            found.append((_log_delta_at(a_, gap, conversion).exp(), a))
        best = min(found, key=lambda pair: mpf_up(pair[0].upper()))
        return min(mpf_up(best[0].upper()), mpmath.mpf(1)), best[1]


def _tnb_mean(gamma: arb, eta: arb, logarithmic: bool) -> arb:
    """E[K] of the truncated negative binomial TNB(η, γ) on {1, 2, ...} (Papernot and Steinke 2022, Def. 1):
    η(1 − γ)/(γ(1 − γ^η)) for η > 0, and its limit (1 − γ)/(γ log(1/γ)) at η = 0 (the logarithmic distribution)."""
    if logarithmic:
        return (1 - gamma) / (gamma * -gamma.log())
    return eta * (1 - gamma) / (gamma * -(eta * gamma.log()).expm1())     # expm1: 1 − γ^η is small for γ near 1


def _tnb_gamma_below(mean: mpmath.mpf, shape: mpmath.mpf) -> arb:
    """An exact number at most the γ of the truncated negative binomial of shape η whose mean is ``mean`` (> 1),
    within a few bits of the working precision: the γ of Theorem 2 enters it as (1 + η) log(1/γ)/λ̂, so a γ taken
    low rounds the bound upward (dp_accounting's bisection likewise returns its lower end).

    Why bisection finds it: TNB(η, γ) puts mass ∝ w_k (1 − γ)^k on k ≥ 1 (w_k = ∏_{ℓ<k} (ℓ + η)/(ℓ + 1), or 1/k at
    η = 0), an exponential family in θ = log(1 − γ) with statistic k, so dE[K]/dθ = Var K > 0: the mean decreases
    strictly as γ grows, from ∞ (γ → 0) to 1 (γ → 1). The root is unique, and a γ where the mean is *certified* above
    ``mean`` (its ball wholly above) lies below the root; the bisection keeps such a γ (lo) and one certified above the
    root, or 1 (hi), and stops when they are close or when the ball at the midpoint straddles ``mean``."""
    target, eta = exact_ball(mean), exact_ball(shape)
    if shape == 1:                                  # the geometric on {1, 2, ...}, P(K = k) = γ(1 − γ)^{k−1}: E[K] = 1/γ
        return (1 / target).lower()
    logarithmic = shape == 0
    lo, hi, g = None, arb(1), arb("0.5")
    while lo is None:                               # halve until the mean is certified above: terminates, the mean → ∞
        m = _tnb_mean(g, eta, logarithmic)
        if m > target:
            lo = g
        else:
            if m < target:
                hi = g
            g = g / 2
    close = arb(2) ** -(ctx.prec - 8)
    for _ in range(4 * ctx.prec):
        if hi - lo <= lo * close:
            break
        mid = ((lo + hi) / 2).mid()                 # any exact point between will do
        m = _tnb_mean(mid, eta, logarithmic)
        if m > target:
            lo = mid
        elif m < target:
            hi = mid
        else:                                       # the ball straddles the mean: the precision's limit
            break
    return lo


def repeat_and_select(orders: Sequence, taus: Sequence, mean, shape) -> tuple:
    """The RDP table of *repeat and select* — run a mechanism K times, K random, and release only the best run
    (Papernot and Steinke 2022, "Hyperparameter tuning with Rényi differential privacy", ICLR; arXiv:2110.03620) —
    at ``orders``, from the base mechanism's table ``taus`` (τ at each order), each value an upper bound rounded
    upward (ball arithmetic). dp_accounting's ``RepeatAndSelectDpEvent(event, mean, shape)``, as its RDP accountant
    bounds it (``_compute_rdp_repeat_and_select``). Feed the result to :func:`epsilon_from_rdp` for its (ε, δ).

    K has mean ``mean`` (≥ 1) and, by ``shape`` = η ≥ 0, the truncated negative binomial TNB(η, γ) on {1, 2, ...}
    (η = 0 logarithmic, η = 1 geometric, γ the one giving that mean, found as a certified root) or, for ``shape`` = ∞,
    the Poisson of mean μ = ``mean``. At each order λ of the table, with τ(λ) its value:

    * TNB (Theorem 2, arXiv v2 p. 5): if the base is (λ, ε)- and (λ̂, ε̂)-RDP, repeat-and-select is (λ, ε')-RDP with
      ε' = ε + (1 + η)(1 − 1/λ̂) ε̂ + (1 + η) log(1/γ)/λ̂ + log E[K]/(λ − 1); λ̂ ranges over the table's orders and
      the smallest of those terms is taken, as dp_accounting does;
    * Poisson (Theorem 6, arXiv v2 p. 7): if the base is (λ, ε)-RDP and (ε̂, δ̂)-DP with ε̂ = log(1 + 1/(λ − 1)),
      repeat-and-select is (λ, ε + μ δ̂ + log μ/(λ − 1))-RDP. δ̂ is what the table proves at ε̂, as dp_accounting's
      ``compute_delta`` takes it: the least over the table's orders α of min(1, Canonne–Kamath–Steinke's
      e^{(α−1)(τ(α)−ε̂)} (1 − 1/α)^α/(α − 1), sqrt(1 − e^{−τ(α)})) — the last the Bretagnolle–Huber bound on total
      variation, as KL ≤ R_α. A mechanism's exact δ(ε̂) (a Gaussian's closed form) would be smaller: not used here.

    Then, as dp_accounting does, RDP's monotonicity in the order: the value at λ is at most any value at a larger
    order of the table (the Poisson branch too, which dp_accounting leaves out).

    This is an upper bound by a theorem about RDP, given the table: if each τ bounds the base mechanism's Rényi
    divergence, each value returned bounds repeat-and-select's. It is not a certified bracket of that divergence;
    against one it can only be "pessimistic" or "inside" (:func:`adjudicate`), never a lower end. A table value
    below the base's true divergence (an "underestimate") voids it.

    >>> orders, taus = [2, 4], [0.5, 1.0]                    # a Gaussian of σ² = 2: τ = α/(2σ²) = α/4
    >>> [round(float(t), 6) for t in repeat_and_select(orders, taus, mean=10, shape=1)]
    [4.418821, 4.418821]

    By hand (geometric, γ = 1/E[K] = 1/10): the least λ̂-term is λ̂ = 4's, 2(3/4 + log(10)/4); at λ = 4,
    ε' = 1 + log(10)/3 + 3/2 + log(10)/2 = 5/2 + (5/6) log 10 = 4.418821; at λ = 2 the formula gives 5.45, above
    λ = 4's, so monotonicity lowers it to 4.418821.
    """
    alphas = _orders(orders)
    if len(taus) != len(alphas):
        raise InvalidParameter(f"an RDP table needs one τ per order: {len(alphas)} orders, {len(taus)} values")
    values = []
    for t in taus:
        v = to_mpf_up(t, "an RDP value")      # the bound grows with each τ
        if not v >= 0:
            raise InvalidParameter(f"an RDP value must be >= 0 (a Rényi divergence is), got {t!r}")
        values.append(v)
    eta = to_mpf(shape, "the shape of the number of runs' distribution")
    if not eta >= 0:
        raise InvalidParameter(f"the shape of the number of runs' distribution must be >= 0 (0 logarithmic, "
                               f"1 geometric, inf Poisson), got {shape!r}")
    mu = to_mpf_up(mean, "the mean number of runs")     # the bound grows with the mean: read it upward
    if not (mpmath.isfinite(mu) and mu >= 1):
        raise InvalidParameter(f"the mean number of runs must be a finite number >= 1, got {mean!r}")

    finite = [i for i, v in enumerate(values) if mpmath.isfinite(v)]    # an infinite τ bounds nothing: skipped
    with arb_precision(max(mpmath.mp.prec, 53) + 20):
        a_ = [exact_ball(a) for a in alphas]
        t_ = [exact_ball(v) if mpmath.isfinite(v) else None for v in values]
        log_mean = exact_ball(mu).log()

        def up(ball: arb) -> mpmath.mpf:
            return mpf_up(ball.upper())

        if mpmath.isinf(eta):                                   # Poisson: Theorem 6
            # Bretagnolle–Huber's δ bound holds at every ε ≥ 0: computed once
            tv = min([mpmath.mpf(1)] + [up((-(-t_[j]).expm1()).sqrt()) for j in finite])
            bound = []
            for i, a in enumerate(a_):
                if t_[i] is None:
                    bound.append(mpmath.inf)
                    continue
                eps_hat = (1 / (a - 1)).log1p()
                delta_hat = min([tv] + [up(_log_delta_at(a_[j], t_[j] - eps_hat, "cks").exp()) for j in finite])
                bound.append(up(t_[i] + exact_ball(mu) * exact_ball(delta_hat) + log_mean / (a - 1)))
        else:                                                   # truncated negative binomial: Theorem 2
            log_inv_gamma = arb(0) if mu == 1 else -_tnb_gamma_below(mu, eta).log()    # E[K] = 1: γ = 1, K = 1
            least = min([up((1 - 1 / a_[j]) * t_[j] + log_inv_gamma / a_[j]) for j in finite], default=mpmath.inf)
            bound = [mpmath.inf if t_[i] is None or not mpmath.isfinite(least)
                     else up(t_[i] + log_mean / (a - 1) + (1 + exact_ball(eta)) * exact_ball(least))
                     for i, a in enumerate(a_)]
    # RDP is non-decreasing in the order (van Erven and Harremoës 2014, Thm. 3): a larger order's bound holds here
    return tuple(min(b for beta, b in zip(alphas, bound) if beta >= alpha) for alpha in alphas)


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
           "repeat_and_select", "zcdp_curve"]
