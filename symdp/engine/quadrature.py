"""Divergences between continuous distributions: closed forms where known, otherwise certified enclosures, otherwise
split quadrature.

The dispatch (``method="auto"``) takes a closed form while closed forms are enabled and the pair has one (a certified
enclosure too: :mod:`symdp.engine.closed_forms` computes each formula in Arb); otherwise
the certified route of :mod:`symdp.engine.certified` (Arb ball arithmetic: an interval that provably contains the
value) for KL, Rényi, hockey-stick, TV and the max divergence of the built-in families; otherwise the mpmath
quadrature described below (and for the max divergence a supremum search), which stays the cross-check route
(``method="quadrature"``). Whatever the route, the estimate returned lies in the divergence's domain
(:mod:`symdp.engine.domains`).

Tanh-sinh quadrature (``mpmath.quad``) converges double-exponentially on an integrand that is analytic on each
piece, and only algebraically across a kink: unsplit, the Laplace Rényi integrand gives 3–5 correct digits at any
precision; split at its kinks it gives 50 digits. So every integral here is split where its integrand is not smooth
or not resolved — the caller knows where, as ``quad(f, [a, b, c, ...])`` expects:

* at every density kink (:meth:`~symdp.engine.continuous.ContinuousDistribution.kinks` of both laws);
* at every privacy-loss crossing point ``log p - log q = ε`` (:func:`crossing_points`), where the hockey-stick
  integrand ``max(0, p - e^ε q)`` has a kink (``ε = 0`` for TV); closed form for Gaussian and Laplace pairs,
  otherwise bracketed on a grid around the laws' centres and refined by ``mpmath.findroot``;
* at every significant peak of the integrand, which for Rényi divergences of large order, or subsampled Gaussian
  mixtures, sits far from either law's centre: found by a grid search that widens outward, refined by golden-section
  search, and flanked on each side by the points where the log-integrand has dropped by 4 and by ``(dps+10) ln 10``
  (a piece of a few widths around the peak, then one out to where nothing is left to resolve); the remaining
  half-lines go to ``mpmath.quad``'s ``[a, ±inf]`` rule.

The search grid, the kinks and the merge of breakpoints come from :mod:`symdp.engine.grids`, which the certified
route's partition shares.

Integrands are evaluated in log space and shifted by their peak: ``∫ exp(log g(x) - s) dx`` with ``s = max log g``,
then ``s`` is added back. Besides avoiding overflow at large orders, this matters because ``mpmath.quad`` stops on
an *absolute* error of ``2^-prec``: an unshifted integrand of size 1e-340 is "converged" before it is resolved.

**The error estimate.** Every result is computed three times: on a first and on a second breakpoint set at the
working precision, and on the second at ``GUARD_DPS`` more digits. The second set's crossing points and peaks are
searched again on a twice finer grid and its flanking points sit at other drops (1, 16, ...), so the two sets
share only the kinks, crossing points and peaks and no other node. The ``error`` is the largest discrepancy
between the runs, plus the largest error ``mpmath.quad`` itself reports, plus a rounding floor; the value is the
high-precision run's. Agreement of two precisions alone is not enough — a quadrature across an unresolved kink is
wrong the same way at every precision — and agreement of two node sets alone misses cancellation.

What this does *not* certify: a crossing point or peak narrower than the search grid (a quarter of a scale near
each law's centre) could be missed by both grids; the tail expansions are exact for the families of
:mod:`symdp.engine.continuous` (and assumed otherwise, see :func:`max_divergence`).

>>> from symdp.engine.continuous import Gaussian, Laplace, Lap2
>>> import mpmath
>>> with mpmath.workdps(30):
...     est = renyi(Lap2(1, 1, 1), Lap2(0, 1, 1), 2)
...     print(mpmath.nstr(est.value, 12), est.method, est.certified, est.error < 1e-20)   # catalogue-balle, ex2
...     slow = renyi(Lap2(1, 1, 1), Lap2(0, 1, 1), 2, method="quadrature")
...     print(slow.method, slow.certified, abs(slow.value - est.value) <= slow.error + est.error)
0.271716394596 certified True True
quadrature False True
>>> with mpmath.workdps(30):   # closed form z + e^{-z} - 1 = e^{-1} at z = 1
...     fast, slow = kl(Laplace(0, 1), Laplace(1, 1)), kl(Laplace(0, 1), Laplace(1, 1), method="quadrature")
...     print(fast.method, mpmath.nstr(fast.value, 18), abs(fast.value - slow.value) < slow.error + fast.error)
closed form 0.367879441171442322 True
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import mpmath

from symdp.engine import certified
from symdp.engine.continuous import ContinuousDistribution, TailExpansion, canonical
from symdp.engine.domains import within_domain
from symdp.engine.grids import anchor_points, climb, kinks, merge, min_scale
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate
from symdp.numeric import check_order as _check_order, to_mpf
from symdp.optimize import golden_section_max
from symdp.precision import GUARD_DPS, closed_forms_enabled

METHODS = ("auto", "densities", "closed form", "certified", "quadrature")
"""``auto``: a closed form when closed forms are enabled and the pair has one, otherwise a certified enclosure
(:mod:`symdp.engine.certified`) when both laws support ball arithmetic, otherwise mpmath quadrature.
``densities``: ``auto`` without the closed form, whatever the switch says — what a theorem's independent witness
asks for, since the closed form may be the very formula its statement bounds. The others force one route
(``certified``: an error where it does not apply)."""

CERTIFIED_KINDS = {"kl": certified.kl, "renyi": certified.renyi, "hockey_stick": certified.hockey_stick,
                   "tv": certified.tv, "max_divergence": certified.max_divergence}
"""The divergences with a certified route (all of them)."""

# --- public API -------------------------------------------------------------------------------------------------


def kl(P: ContinuousDistribution, Q: ContinuousDistribution, *, method: str = "auto") -> Estimate:
    """``KL(P || Q) = ∫ p log(p/q)``.

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):   # closed form Delta^2/(2 sigma^2) = 1/8, against quadrature
    ...     exact = kl(Gaussian(0, 2), Gaussian(1, 2))
    ...     numeric = kl(Gaussian(0, 2), Gaussian(1, 2), method="quadrature")
    ...     print(exact.value, exact.method, mpmath.nstr(numeric.value, 25), numeric.error < 1e-25)
    0.125 closed form 0.125 True
    """
    P, Q = _pair(P, Q)
    return _dispatch("kl", (P, Q), method, lambda refine: _kl_quadrature(P, Q, refine))


def renyi(P: ContinuousDistribution, Q: ContinuousDistribution, alpha, *, method: str = "auto") -> Estimate:
    """Rényi divergence ``R_α(P || Q) = log(∫ p^α q^(1-α))/(α - 1)``, α in ``(1, inf]`` (∞: max divergence).

    The integral is ``+inf`` when the tails of ``p^α q^(1-α)`` are not integrable (decided exactly from the
    tail expansions, e.g. a Gaussian against a narrower Gaussian at large α).

    >>> from symdp.engine.continuous import Laplace
    >>> with mpmath.workdps(30):    # catalogue-balle, balle19.fact.laplace-rdp: 0.298207282602136319
    ...     print(mpmath.nstr(renyi(Laplace(0.3, 0.7), Laplace(0, 0.7), 5.5, method="quadrature").value, 18))
    0.298207282602136319
    >>> renyi(Laplace(0, 1), Laplace(1, 1), 1)
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: Rényi order alpha must be > 1 (use kl for alpha = 1), got 1.0
    """
    P, Q = _pair(P, Q)
    a = _check_order(alpha)
    if mpmath.isinf(a):
        return max_divergence(P, Q, method=method)
    return _dispatch("renyi", (P, Q, a), method, lambda refine: _renyi_quadrature(P, Q, a, refine))


def hockey_stick(P: ContinuousDistribution, Q: ContinuousDistribution, eps, *, method: str = "auto") -> Estimate:
    """``D_{e^ε}(P || Q) = ∫ max(0, p - e^ε q)``, for ε of any sign.

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):   # closed form Phi(-eps/tau + tau/2) - e^eps Phi(-eps/tau - tau/2)
    ...     a = hockey_stick(Gaussian(0, 1), Gaussian(1, 1), 1)
    ...     b = hockey_stick(Gaussian(0, 1), Gaussian(1, 1), 1, method="quadrature")
    ...     print(mpmath.nstr(a.value, 18), abs(a.value - b.value) <= a.error + b.error, b.error < 1e-25)
    0.126936737506643946 True True
    """
    P, Q = _pair(P, Q)
    e = to_mpf(eps, "eps")
    if not mpmath.isfinite(e):
        raise InvalidParameter(f"eps must be a finite number, got {e}")
    return _dispatch("hockey_stick", (P, Q, e), method, lambda refine: _hockey_stick_quadrature(P, Q, e, refine))


def tv(P: ContinuousDistribution, Q: ContinuousDistribution, *, method: str = "auto") -> Estimate:
    """Total variation ``∫ |p - q|/2``, which is the hockey-stick divergence at ε = 0.

    >>> from symdp.engine.continuous import Laplace
    >>> with mpmath.workdps(30):   # closed form 1 - e^{-Delta/(2 lambda)}
    ...     print(mpmath.nstr(tv(Laplace(0, 1), Laplace(2, 1), method="quadrature").value, 18))
    0.632120558828557678
    """
    P, Q = _pair(P, Q)
    zero = mpmath.mpf(0)
    return _dispatch("tv", (P, Q), method, lambda refine: _hockey_stick_quadrature(P, Q, zero, refine))


def max_divergence(P: ContinuousDistribution, Q: ContinuousDistribution, *, method: str = "auto") -> Estimate:
    """``D_∞(P || Q) = sup_x log(p(x)/q(x))``, which may be approached only as ``x → ±∞``.

    ``auto``, ``densities`` and ``certified`` take the certified enclosure of :func:`symdp.engine.certified.
    max_divergence` (from the densities: attained values below, interval bounds of the log-ratio over the whole
    line above) where both laws support ball arithmetic, after a closed form where ``auto`` allows one.
    ``quadrature``, and families without ball arithmetic, take the supremum search described here. The supremum is
    the largest of the limits of the log-ratio at ``±∞`` and its maxima at finite x:

    * whether a limit is infinite is decided exactly from the tail expansions ``log p = -A u² + B u + k log u +
      C + o(1)``, ``u = |x| → ∞`` (:meth:`~symdp.engine.continuous.ContinuousDistribution.expansion`): a heavier tail of P, or a linear log-ratio (Gaussians of
      equal sd and different means), gives ``+inf``;
    * a finite limit is, with ``method="auto"`` and closed forms allowed, the difference of the expansions'
      constants ``C_P - C_Q`` (for ``Lap2(0; λ1, λ2)`` against ``Lap2(Δ; λ1, λ2)`` that is ``Δ/max(λ1, λ2)``,
      approached only at ``-∞`` and, for λ1 = λ2, only like ``O(1/x)``, so no finite search could find it): a
      closed form of the supremum, so a result decided by such a constant is labelled ``closed form``. With
      ``method="quadrature"`` or ``"densities"``, or closed forms off (:func:`symdp.precision.closed_forms`), that
      constant is not used: the limit is read off the log-ratio of the two densities themselves
      (:func:`_numeric_limit`, extrapolation in 1/x from far-out values computed without cancellation), with its
      error;
    * the finite maxima come from a grid search around the laws' centres (widened outward while the log-ratio
      still rises), refined by golden-section search to the working precision.

    Certified: that a limit is infinite (exact for the families of :mod:`symdp.engine.continuous`), the constants of the
    expansions, and every finite candidate (an attained value, so the result never exceeds the true supremum by
    more than rounding). The extrapolated limits carry the spread of their estimates as error, which sees every
    correction that has not died out 10^(dps/2) scales out; one that only sets in beyond 10^(dps+10) scales would
    be missed. Not certified: a maximum narrower than the search grid could be missed (both grids would miss it
    alike).

    >>> from symdp.engine.continuous import Gaussian, Lap2
    >>> with mpmath.workdps(30):
    ...     d = max_divergence(Lap2(0, 1, 2), Lap2(1, 1, 2))   # Delta / max(lambda1, lambda2)
    ...     print(d.value, d.method, max_divergence(Gaussian(0, 1), Gaussian(1, 1)).value)
    0.5 certified +inf
    >>> with mpmath.workdps(30):   # equal scales: the O(1/x) approach, extrapolated from the densities
    ...     est = max_divergence(Lap2(0, 1, 1), Lap2(1, 1, 1), method="quadrature")
    ...     print(mpmath.nstr(est.value, 25), est.method, est.error < 1e-28)
    1.0 sup search True
    """
    P, Q = _pair(P, Q)
    exact_tails = method not in ("quadrature", "densities") and closed_forms_enabled()
    from_formula = []

    def run(refine):
        value, error, constant = _sup_log_ratio(P, Q, refine, exact_tails)
        from_formula.append(constant)
        return value, error
    result = _dispatch("max_divergence", (P, Q), method, run, "sup search")
    return dataclasses.replace(result, method="closed form") if result.method == "sup search" and any(
        from_formula) else result


def crossing_points(P: ContinuousDistribution, Q: ContinuousDistribution, level=0, *,
                    refine: bool = False) -> list[mpmath.mpf]:
    """The points where the privacy loss ``log p(x) - log q(x)`` equals ``level``, sorted.

    Closed form for Gaussian pairs (a quadratic) and Laplace pairs (piecewise linear between the two kinks);
    otherwise every sign change on the search grid (:func:`_search_grid`; ``refine`` for the twice finer one) is
    refined by ``mpmath.findroot``'s bracketing solver (:func:`_bracketed_root`). Sign changes beyond the grid,
    where both laws hold less than ``10^-(dps+20)``, are not searched for.

    >>> from symdp.engine.continuous import Gaussian, Lap2
    >>> crossing_points(Gaussian(0, 1), Gaussian(1, 1), 0)    # the midpoint
    [mpf('0.5')]
    >>> [mpmath.nstr(x, 15) for x in crossing_points(Lap2(0, 1, 2), Lap2(1, 1, 2), 0)]   # by symmetry
    ['0.5']
    """
    P, Q = canonical(P), canonical(Q)
    level = to_mpf(level, "level")
    known = P.crossings(Q, level)
    return known if known is not None else _searched_crossings(P, Q, level, _search_grid(P, Q, refine))


# --- dispatch and the honest error ------------------------------------------------------------------------------


def _pair(P, Q) -> tuple[ContinuousDistribution, ContinuousDistribution]:
    if not (isinstance(P, ContinuousDistribution) and isinstance(Q, ContinuousDistribution)):
        raise InvalidDistribution(
            f"continuous divergences need two continuous distributions, got a {type(P).__name__} "
            f"and a {type(Q).__name__} (discretize with symdp.engine.binning.binned_pair to compare with a finite one)")
    return canonical(P), canonical(Q)


def _dispatch(kind: str, args: tuple, method: str, run: Callable, label: str = "quadrature") -> Estimate:
    """The estimate of ``kind(*args)`` by the route ``method`` selects (:data:`METHODS`), in the divergence's
    domain (:func:`~symdp.engine.domains.within_domain`) whichever route gave it."""
    return within_domain(_route(kind, args, method, run, label), kind, *args[2:3] if kind == "hockey_stick" else ())


def _route(kind: str, args: tuple, method: str, run: Callable, label: str) -> Estimate:
    if method not in METHODS:
        raise InvalidParameter(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    if method == "closed form" and not closed_forms_enabled():
        raise InvalidParameter("closed forms are disabled (symdp.precision.closed_forms(False), --no-closed-forms)")
    wants_formula = method in ("auto", "closed form") and closed_forms_enabled()
    formula = args[0].closed_form(kind, *args[1:]) if wants_formula else None
    if formula is not None:
        return Estimate.from_arb(formula(), "closed form")   # a textbook formula, its arithmetic in Arb
    names = " and ".join(type(d).__name__ for d in args[:2])
    if method == "closed form":
        raise InvalidParameter(f"no closed form for {kind} of {names} with these parameters; use method='auto'")
    if method == "certified" and not (kind in CERTIFIED_KINDS and certified.supported(*args[:2])):
        raise InvalidParameter(f"no certified route for {kind} of {names}; use method='auto'")
    if method in ("auto", "densities", "certified") and kind in CERTIFIED_KINDS and certified.supported(*args[:2]):
        result = CERTIFIED_KINDS[kind](*args)
        if method == "certified" or _sharp(result):
            return result
        if not mpmath.isfinite(result.error):
            _within_reach(kind, *args[:2])
        # A sound but wide enclosure (two kinks almost on top of each other, say): the estimated route may be
        # sharper; the narrower of the two is returned.
        estimate = _certified(run, label)
        return estimate if estimate.error < result.error else result
    _within_reach(kind, *args[:2])
    return _certified(run, label)


def _within_reach(kind: str, P, Q) -> None:
    """Refuse (:class:`InvalidParameter`) a quadrature the working precision cannot resolve: laws whose centres are
    more than ``10^(dps/2)`` of their smallest scale apart, or whose scales (:meth:`~symdp.engine.continuous.
    ContinuousDistribution.scales`) differ by more, leave the search grid
    and the breakpoints to rounding (a Rényi integral of Gaussians 10^25 sds apart came out 2 times too small with
    an error estimate of 10^-24 relative), and its error estimate cannot see it.

    >>> from symdp.engine.continuous import Gaussian
    >>> _within_reach("kl", Gaussian(0, 1), Gaussian(1e30, 1))
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: kl of Gaussian(mean=0.0, sd=1.0) and Gaussian(mean=1.0e+30, sd=1.0) by quadrature: the laws are 1.0e+30 scales apart and their scales differ 1.0 times, beyond the 10^7 that 15 digits resolve
    """
    centres, scales = [c for c, _, _ in P.anchors() + Q.anchors()], P.scales() + Q.scales()
    smallest = min(scales)
    spread, ratio = (max(centres) - min(centres)) / smallest, max(scales) / smallest
    reach = mpmath.mpf(10) ** (mpmath.mp.dps // 2)
    if spread > reach or ratio > reach:
        def law(D):
            return f"{type(D).__name__}({', '.join(f'{k}={mpmath.nstr(v, 6)}' for k, v in vars(D).items())})" \
                if all(isinstance(v, mpmath.mpf) for v in vars(D).values()) else repr(D)
        raise InvalidParameter(
            f"{kind} of {law(P)} and {law(Q)} by quadrature: the laws are {mpmath.nstr(spread, 3)} scales apart "
            f"and their scales differ {mpmath.nstr(ratio, 3)} times, beyond the 10^{mpmath.mp.dps // 2} that "
            f"{mpmath.mp.dps} digits resolve")


def _sharp(result: Estimate) -> bool:
    """Whether an enclosure is narrow enough to stand for the value: half the working digits, relative, or the
    working precision absolutely (a divergence that is 0, or nearly)."""
    if not mpmath.isfinite(result.error):
        return False
    dps = mpmath.mp.dps
    return result.error <= max(abs(result.value) * mpmath.mpf(10) ** (-(dps // 2)), mpmath.mpf(10) ** (-dps))


def _certified(run: Callable[[bool], tuple], method: str) -> Estimate:
    """Run ``run(refine) -> (value, reported_error)`` on the first breakpoint set and on the second at the working
    precision, and on the second at ``GUARD_DPS`` more digits. The value is the last run's; the error is the largest
    discrepancy between runs, plus the largest error ``quad`` reported, plus a rounding floor.

    The node sets differ at equal precision, and the precisions at equal node set, so an error that depends on
    the nodes (an unresolved kink or peak, a missed crossing point) and one that depends on the precision
    (cancellation, a search stalled by rounding) each show up on their own.
    """
    dps = mpmath.mp.dps
    runs = [run(False), run(True)]
    with mpmath.workdps(dps + GUARD_DPS):
        runs.append(run(True))
    values = [v for v, _ in runs]
    if any(mpmath.isinf(v) for v in values):
        # Infinite values come from exact tail decisions; runs that disagree on finiteness tell us nothing.
        agreed = all(v == values[-1] for v in values)
        return Estimate(+values[-1], mpmath.mpf(0) if agreed else mpmath.inf, method)
    spread = max(values) - min(values)
    # Relative, so that tiny values keep their digits; but an exact 0 from quadrature may be mass the nodes never
    # reached (a region far out in a tail): it is 0 only to working precision on the unit scale of probabilities.
    floor = 16 * (abs(values[-1]) if values[-1] != 0 else 1) * mpmath.mpf(10) ** (-dps)
    return Estimate(+values[-1], spread + max(e for _, e in runs) + floor, method)


# --- the three integrals ----------------------------------------------------------------------------------------


def _kl_quadrature(P, Q, refine: bool):
    """``∫ p L`` with ``L = log p - log q``: weight ``p`` (its peaks place the breakpoints), factor ``L``."""
    def term(x):
        lp = P.logpdf(x)
        return lp, lp - Q.logpdf(x)

    value, err, shift = _split_integral(P, Q, term, (), refine)
    scale = mpmath.exp(shift)
    return value * scale, err * scale


def _renyi_quadrature(P, Q, a, refine: bool):
    """``log(∫ exp(h))/(a - 1)`` with ``h = a log p + (1 - a) log q``; ``+inf`` when a tail of ``exp(h)`` is not
    integrable (decided from the exact tail expansions, before any quadrature)."""
    tails = (TailExpansion.combine(a, P.expansion(side), 1 - a, Q.expansion(side)) for side in (-1, 1))
    if any(tail.integrable() is False for tail in tails):
        return mpmath.inf, mpmath.mpf(0)

    def term(x):
        return a * P.logpdf(x) + (1 - a) * Q.logpdf(x), 1

    value, err, shift = _split_integral(P, Q, term, (), refine)
    # R = (log I + shift)/(a - 1); d log I = dI / I.
    return (mpmath.log(value) + shift) / (a - 1), err / (value * (a - 1))


def _hockey_stick_quadrature(P, Q, eps, refine: bool):
    """``∫_{L > eps} (p - e^eps q)``, split at the crossing points ``L = eps`` (where the integrand has its kinks)."""
    def term(x):
        lp = P.logpdf(x)
        loss = lp - Q.logpdf(x)
        if loss <= eps:
            return -mpmath.inf, 0
        # p - e^eps q = p (1 - e^(eps - L)); expm1 keeps it relative next to a crossing point.
        return lp + mpmath.log(-mpmath.expm1(eps - loss)), 1

    crossings = crossing_points(P, Q, eps, refine=refine)
    value, err, shift = _split_integral(P, Q, term, crossings, refine)
    scale = mpmath.exp(shift)
    return value * scale, err * scale


def _split_integral(P, Q, term: Callable, breaks: Sequence, refine: bool):
    """``∫ exp(log w(x) - s) f(x) dx`` for ``term(x) = (log w(x), f(x))``, split at kinks, ``breaks``, the peaks
    of ``log w`` and their ladders. Returns ``(integral, quad error, s)``; pieces where ``w = 0`` are skipped."""
    grid = _search_grid(P, Q, refine)

    def logw(x):
        return term(x)[0]

    peaks = _maxima(logw, grid, iterations=48)
    if not peaks:   # w = 0 wherever we looked
        return mpmath.mpf(0), mpmath.mpf(0), mpmath.mpf(0)
    shift = peaks[0][1]
    step = min_scale(P, Q) / 64
    cutoff = shift - mpmath.mp.dps * mpmath.log(10)
    smooth = []
    for x, v in peaks:
        if v > cutoff:   # a peak below 10^-dps of the highest contributes nothing to resolve
            smooth.append(x)
            smooth += _ladder(logw, x, v, step, _ladder_drops(refine))
    points = merge(kinks(P, Q) + list(breaks), smooth, step)

    def integrand(x):
        lw, f = term(x)
        return mpmath.exp(lw - shift) * f if f else mpmath.mpf(0)

    value = err = mpmath.mpf(0)
    edges = [-mpmath.inf] + points + [mpmath.inf]
    for a, b in zip(edges, edges[1:]):
        if logw(_inside(a, b, step)) == -mpmath.inf:
            continue
        v, e = mpmath.quad(integrand, [a, b], error=True)
        value += v
        err += e
    return value, err, shift


def _inside(a, b, step):
    """A point strictly inside the piece (a, b), which may be a half-line."""
    if mpmath.isinf(a):
        return b - 8 * step
    if mpmath.isinf(b):
        return a + 8 * step
    return (a + b) / 2


def _ladder_drops(refine: bool) -> tuple:
    """Drops of the log-integrand below a peak at which breakpoints are placed, for the first and the second
    breakpoint set: a piece of a few widths around the peak, then one out to where the integrand is below
    ``10^-(dps+10)`` of its peak, so the half-lines left to ``quad``'s ``[a, ±inf]`` rule carry nothing that needs
    resolving. (Measured on Gaussian, Laplace, Lap2 and mixture integrands: more rungs cost more evaluations than
    they save.) The two sets share only the kinks, crossing points and peaks; every other node differs."""
    far = (mpmath.mp.dps + 10) * mpmath.log(10)
    return (1, 16, far) if refine else (4, far)


def _ladder(f, x, fx, step, drops: Sequence) -> list:
    """Points on each side of the peak ``(x, f(x))`` where ``f`` has dropped by each of ``drops``.

    Doubling steps from below the peak's width, so each point is within a factor 2 of its drop; exactness is not
    needed (they are breakpoints of smooth pieces), resolution is.
    """
    points = []
    for direction in (-1, 1):
        d = step
        for _ in range(100):   # shrink until the first step stays within a drop of 1
            if fx - f(x + direction * d) < 1:
                break
            d /= 4
        levels = list(drops)
        for _ in range(200):
            drop = fx - f(x + direction * d)
            while levels and drop >= levels[0]:
                levels.pop(0)
                points.append(x + direction * d)
            if not levels or drop == mpmath.inf:
                break
            d *= 2
    return points


# --- maxima: of log-integrands (peaks) and of the privacy loss (max divergence) ---------------------------------


def _maxima(f, grid: Sequence, iterations: int, keep: int = 4) -> list[tuple]:
    """Local maxima of ``f`` on the grid, the ``keep`` highest refined by golden-section search, highest first.

    A maximum at the end of the grid with ``f`` still rising outward is followed outward with doubling steps: the
    Rényi integrand's peak at order α sits near ``(1 - α)Δ`` for Gaussians, far outside any grid around the centres.
    """
    values = [f(x) for x in grid]
    n = len(grid)
    found = []
    for i, v in enumerate(values):
        if v == -mpmath.inf:
            continue
        # Values equal up to rounding count as equal, so a plateau (Laplace log-ratios are constant on half-lines)
        # yields no spurious maxima; its value is still a candidate as a grid value.
        tol = mpmath.mpf(10) ** (5 - mpmath.mp.dps) * max(1, abs(v))
        left = values[i - 1] - v if i > 0 else None
        right = values[i + 1] - v if i < n - 1 else None
        rises = [d for d in (left, right) if d is not None]
        if all(d <= tol for d in rises) and any(d < -tol for d in rises):
            found.append(i)
    if not found and any(v > -mpmath.inf for v in values):
        found.append(max(range(n), key=lambda i: values[i]))
    found.sort(key=lambda i: values[i], reverse=True)
    result = []
    for i in found[:keep]:
        if 0 < i < n - 1:
            bracket = (grid[i - 1], grid[i + 1])
        else:
            direction = -1 if i == 0 else 1
            spacing = abs(grid[i] - grid[i - direction]) if n > 1 else mpmath.mpf(1)
            rising, stop, _ = climb(f, grid[i], values[i], direction, spacing, limit=100)
            if stop is None:   # still rising after 2^100 steps: the supremum is a tail limit
                result.append((grid[i], values[i]))
                continue
            # the maximum lies between the point before the last that rose and the first that did not
            chain = [grid[i]] + [x for x, _ in rising]
            bracket = tuple(sorted((chain[max(len(chain) - 2, 0)], stop[0])))
        result.append(_golden_max(f, bracket[0], bracket[1], iterations, (grid[i], values[i])))
    result.sort(key=lambda t: t[1], reverse=True)
    return result


def _golden_max(f, a, b, iterations: int, best: tuple) -> tuple:
    """The better of ``best`` and a golden-section search of the unimodal ``f`` on [a, b], as ``(x, f(x))``."""
    return max([best, golden_section_max(f, a, b, iterations)], key=lambda t: t[1])


def _sup_log_ratio(P, Q, refine: bool, exact_tails: bool = True):
    """``(sup log p/q, error of the tail limits, whether an expansion constant decided it)``: see
    :func:`max_divergence`. ``exact_tails``: take a finite tail limit from the expansions' constants; otherwise
    extrapolate it from the densities (:func:`_numeric_limit`)."""
    def raw_loss(x):
        return P.logpdf(x) - Q.logpdf(x)

    centre, scale = P.center(), min_scale(P, Q)

    def loss(x):
        # Far out both log-densities are about -|x|/scale: keep the working precision in their difference.
        far = abs(x - centre) / scale
        with mpmath.workdps(mpmath.mp.dps + (int(mpmath.log10(far)) + 5 if far > 10 else 0)):
            value = raw_loss(x)
        return +value

    tails, constants = [], []
    for side in (-1, 1):
        limit = TailExpansion.combine(1, P.expansion(side), -1, Q.expansion(side)).limit()
        e = mpmath.mpf(0)
        if limit is None or (mpmath.isfinite(limit) and not exact_tails):
            limit, e = _numeric_limit(raw_loss, P, Q, side, refine)
        elif mpmath.isfinite(limit):
            constants.append(limit)
        if limit == mpmath.inf:
            return mpmath.inf, mpmath.mpf(0), False
        tails.append((limit, e))
    # Enough golden-section steps to locate a smooth maximum to half the digits, i.e. its value to all of them.
    iterations = int((mpmath.mp.dps / 2 + 6) * mpmath.log(10) / mpmath.log((1 + mpmath.sqrt(5)) / 2)) + 1
    # The search may follow a rising log-ratio out to 2^100 grid steps, where its value is rounded to about
    # |x|·10^-dps; the points it finds are attained, so their values are recomputed there at full precision.
    maxima = _maxima(raw_loss, _search_grid(P, Q, refine), iterations)
    candidates = tails + [(loss(x), mpmath.mpf(0)) for x, _ in maxima]
    best = max(v for v, _ in candidates)
    # Any candidate whose error reaches the best could be the supremum: the result is uncertain by its error.
    err = max(e for v, e in candidates if v + e >= best)
    return best, err, best in constants


# --- where to look: anchors, search grid, tail expansions -------------------------------------------------------


def _search_grid(P, Q, refine: bool) -> list:
    """Points at which crossings and peaks are searched (:func:`~symdp.engine.grids.anchor_points`): around every
    anchor, steps of a quarter scale out to 4 scales, then geometric (ratio 1.25) out to where a tail of that kind
    holds less than ``10^-(dps+20)`` (``√(2 ln 10^(dps+20)) + 4`` scales for a Gaussian tail, ``1.25 ln 10^(dps+20) +
    10`` for an exponential one); plus the kinks, merged (:func:`~symdp.engine.grids.merge`). ``refine`` halves the
    steps and takes the square root of the ratio."""
    digits = (mpmath.mp.dps + 20) * mpmath.log(10)
    fine, ratio = (mpmath.mpf(1) / 8, mpmath.sqrt(mpmath.mpf("1.25"))) if refine else (mpmath.mpf(1) / 4,
                                                                                       mpmath.mpf("1.25"))
    return merge(kinks(P, Q), anchor_points(P, Q, fine, ratio, digits), min_scale(P, Q))


LIMIT_WINDOW = 8
"""Nodes per polynomial extrapolation of a tail limit (:func:`_numeric_limit`)."""


def _numeric_limit(f, P, Q, side: int, refine: bool = False):
    """``(lim f(x) as x → side·∞, error)``, read off ``f`` itself (the log-ratio of two densities): no expansion.

    ``f`` is evaluated at ``x = c + side·s·u`` (``c``, ``s``: P's centre, the larger scale) for geometric nodes
    ``u = 16^k`` (``refine``: ``4·16^k``) out to ``10^(dps+10)``, each with ``log10 u`` more digits, so that the
    difference of two far-out log-densities (each about ``-u``) keeps the working precision. Each window of
    :data:`LIMIT_WINDOW` consecutive nodes is extrapolated to ``1/u = 0`` by Neville's scheme (polynomial in
    ``1/u``: exact, to rounding, for corrections analytic in 1/x, like the ``O(1/x)`` approach of the equal-scale
    Lap2 tail). The limit is the outermost window's estimate; its error is the largest distance from it of any
    window's estimate over the outer half of the nodes (``10^((dps+10)/2)`` scales and beyond, and at least one
    window's worth of nodes), plus the change from dropping the window's last node. An exponentially small
    correction ``e^{-xd}`` is past by then unless ``d`` is tiny, and then it shows as a spread; a correction that
    only sets in beyond the last node is not seen.
    A log-ratio still rising by more than 1 between the last two nodes is taken to grow without bound (``+inf``).

    >>> from symdp.engine.continuous import Lap2
    >>> P, Q = Lap2(1, 1, 1), Lap2(0, 1, 1)
    >>> with mpmath.workdps(30):
    ...     value, error = _numeric_limit(lambda x: P.logpdf(x) - Q.logpdf(x), P, Q, 1)
    ...     print(mpmath.nstr(value, 28), error < mpmath.mpf(10) ** -28)   # Delta/lambda = 1
    1.0 True
    """
    dps = mpmath.mp.dps
    centre, scale = P.center(), max(P.scale(), Q.scale())
    count = int((dps + 10) * mpmath.log(10) / mpmath.log(16)) + 2
    us, values = [], []
    # the outer half, only where the estimates are compared, but at least one window (below 8 digits it is shorter)
    for k in range(max(0, min(count // 2, count - LIMIT_WINDOW)), count):
        u = mpmath.mpf(16) ** k * (4 if refine else 1)
        with mpmath.workdps(dps + int(mpmath.log10(u)) + 10):
            value = f(centre + side * scale * u)
        us.append(u)
        values.append(+value)
    if values[-1] - values[-2] > 1 or values[-1] == mpmath.inf:
        return mpmath.inf, mpmath.mpf(0)
    if not all(mpmath.isfinite(v) for v in values):
        return values[-1], mpmath.inf
    estimates = [_extrapolate_to_zero([1 / u for u in us[j:j + LIMIT_WINDOW]], values[j:j + LIMIT_WINDOW])
                 for j in range(len(us) - LIMIT_WINDOW + 1)]
    value, dropped = estimates[-1]
    spread = max(abs(e - value) for e, _ in estimates)
    return value, spread + abs(dropped - value)


def _extrapolate_to_zero(ts: Sequence, fs: Sequence) -> tuple:
    """``(p(0), q(0))``: the polynomial through the points ``(t_k, f_k)``, and the one through all but the last,
    evaluated at 0 (Neville's scheme).

    >>> _extrapolate_to_zero([1, mpmath.mpf(1) / 2, mpmath.mpf(1) / 4], [3, 2, mpmath.mpf(3) / 2])   # f = 1 + 2t
    (mpf('1.0'), mpf('1.0'))
    """
    table = list(fs)
    levels = [table[0]]   # levels[k]: the polynomial through the first k + 1 points, at 0
    for k in range(1, len(ts)):
        table = [(ts[i + k] * table[i] - ts[i] * table[i + 1]) / (ts[i + k] - ts[i]) for i in range(len(table) - 1)]
        levels.append(table[0])
    return levels[-1], levels[-2] if len(levels) > 1 else levels[-1]


# --- crossing points --------------------------------------------------------------------------------------------


def _searched_crossings(P, Q, level, grid: Sequence) -> list:
    def g(x):
        return P.logpdf(x) - Q.logpdf(x) - level

    values = [g(x) for x in grid]
    roots = [x for x, v in zip(grid, values) if v == 0]
    for (a, ga), (b, gb) in zip(zip(grid, values), zip(grid[1:], values[1:])):
        if ga * gb < 0:
            roots.append(_bracketed_root(g, a, b, ga, gb))
    return sorted(set(roots))


ROOT_SOLVER = "anderson"
"""The bracketing solver of ``mpmath.findroot`` that refines a crossing point (Anderson–Björck: regula falsi whose
kept end is scaled down by ``1 - g(z)/g(b)``, the Illinois method's halving where that is not positive)."""


def _bracketed_root(g, a, b, ga, gb):
    """A root of ``g`` in the bracket (a, b), where ``g(a) = ga`` and ``g(b) = gb`` have opposite signs, to
    ``2^-(prec-4) · max(|a|, |b|, b - a)``: ``mpmath.findroot`` with :data:`ROOT_SOLVER` (superlinear, and never
    leaves the bracket), at most ``4 · prec`` steps.

    It solves ``h(u) = g(a + u (b - a)) / |gb - ga| = 0`` on ``u ∈ [0, 1]``, whose mean slope over the bracket is ±1,
    so that both of its stopping rules (a bracket narrower than ``tol · max(1, |u|)``, or ``|h| < tol``) are relative
    to the bracket, whatever the laws' scale and however flat ``g``; and the ends' values are reused, not
    recomputed.

    >>> with mpmath.workdps(30):
    ...     print(_bracketed_root(lambda x: x * x - 2, 1, 2, -1, 2) - mpmath.sqrt(2))
    0.0
    """
    width, norm = b - a, abs(gb - ga)
    tol = mpmath.mpf(2) ** (-mpmath.mp.prec + 4) * max(abs(a), abs(b), width) / width

    def h(u):
        if u == 0:
            return ga / norm
        if u == 1:
            return gb / norm
        return g(a + u * width) / norm
    u = mpmath.findroot(h, (0, 1), solver=ROOT_SOLVER, tol=tol, verify=False, maxsteps=4 * mpmath.mp.prec)
    return +(a + u * width)


__all__ = ["METHODS", "canonical", "crossing_points", "hockey_stick", "kl", "max_divergence", "renyi", "tv"]
