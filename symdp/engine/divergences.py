"""The engine's one door: :func:`divergence` of any kind between two laws of any kind, by a chosen method.

Every quantity has one name (:class:`Kind`) and every kind of law one rule (:data:`RULES`): finite laws are summed
exactly in ball arithmetic (:mod:`symdp.engine.finite`); continuous laws (the families of
:mod:`symdp.engine.continuous`, their shifts and mixtures) go by closed form, certified enclosure or quadrature
(:mod:`symdp.engine.quadrature`), or are binned into a certified lower bound (:mod:`symdp.engine.binning`). The
estimate that comes back says how it was obtained (:class:`~symdp.estimate.Method`), and that typed provenance is
what a verdict's evidence is read from. A new kind of law is one more :class:`Rule`: the products of
:mod:`symdp.engine.products` (the output laws of a composition), the laws on the integers of
:mod:`symdp.engine.integers` (discrete mechanisms), the finite laws on the line of :mod:`symdp.engine.shifted` (which
also have the shifted Rényi divergence), the projected laws of :mod:`symdp.engine.projected` (a noisy step projected
onto an interval), the laws of projected chains of :mod:`symdp.engine.chains` (several such steps) and the Gaussian
path laws of :mod:`symdp.engine.gaussian_paths` (Euler chains with linear drift, compared through their likelihood
ratio's statistic) are six; two more kinds are known only through their privacy-loss distribution and their
Rényi integrals, the symmetrised pairs of :mod:`symdp.engine.symmetrised` and the mixtures of Gaussians of
:mod:`symdp.engine.gaussian_sums` (δ, ε(δ) and TV by the accountant, R_α and KL by
:mod:`symdp.engine.accounted_renyi`). Nothing outside this table dispatches on the family of a law.

>>> from symdp.engine.continuous import Gaussian
>>> from symdp.engine.finite import FiniteDistribution
>>> print(mpmath.nstr(divergence("renyi", Gaussian(0, 1), Gaussian(1, 1), 3).value, 20))   # alpha Delta^2/(2 sd^2)
1.5
>>> est = divergence("renyi", Gaussian(0, 1), Gaussian(1, 1), 3, method="densities")      # never the closed form
>>> est.method, abs(est.value - 1.5) <= est.error
('certified', True)
>>> divergence("kl", FiniteDistribution([0.5, 0.5]), FiniteDistribution([0.25, 0.75])).method
'exact'
>>> divergence("tv", Gaussian(0, 1), FiniteDistribution([1.0]))
Traceback (most recent call last):
...
symdp.errors.InvalidDistribution: cannot compare a Gaussian with a FiniteDistribution: both must be finite or both continuous (discretize with symdp.engine.binning.binned_pair)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable, Mapping

import mpmath

from symdp.engine import (accounted_renyi, accounting, binning, certified, chains, finite, gaussian_paths, integers,
                          products, projected, quadrature, shifted)
from symdp.engine.continuous import ContinuousDistribution, Mixture
from symdp.engine.finite import FiniteDistribution
from symdp.engine.gaussian_sums import GaussianSum
from symdp.engine.symmetrised import SymmetrisedLaw
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, Method


class Kind(StrEnum):
    """The quantities between two laws, one name each."""

    KL = "kl"
    """D_KL(P‖Q)."""
    RENYI = "renyi"
    """R_α(P‖Q), α ∈ (1, ∞] (α = ∞ is the max divergence); argument: α."""
    HOCKEY_STICK = "hockey_stick"
    """D_{e^ε}(P‖Q) = sup_S P(S) − e^ε Q(S), ε of any sign; argument: ε."""
    TV = "tv"
    """Total variation."""
    MAX_DIVERGENCE = "max_divergence"
    """D_∞(P‖Q) = sup log(dP/dQ)."""
    APPROXIMATE_MAX_DIVERGENCE = "approximate_max_divergence"
    """D_∞^δ(P‖Q), the least ε with D_{e^ε}(P‖Q) ≤ δ; argument: δ."""
    LOSS_MGF = "loss_mgf"
    """E_P[e^{λL}], L = log(dP/dQ) the privacy loss (``centred=True``: of L − E_P L); argument: λ."""
    SHIFTED_RENYI = "shifted_renyi"
    """R^(δ)_α(P‖Q) = inf{R_α(P'‖Q) : W∞(P, P') ≤ δ} (Feldman et al. 2018), laws on the line; arguments: α, δ."""


AUTO = "auto"
"""The method that lets the rule choose: the fastest route it has (a closed form, when closed forms are enabled)."""


@dataclass(frozen=True)
class Rule:
    """How the engine computes the quantities of one kind of law: by :class:`Kind`, a function ``(P, Q, *args,
    method=…)``, and the methods (besides ``auto``) that kind of law accepts."""

    law: type
    functions: Mapping[Kind, Callable[..., Estimate]]
    methods: tuple[Method, ...]
    options: Mapping[Kind, tuple[str, ...]] = field(default_factory=dict)
    """Keyword options a kind accepts (``centred`` of the loss MGF)."""
    mix: Callable | None = None
    """``(q, P, Q) -> (1 - q) P + q Q``, a law of the same kind."""


def _finite_mixture(q, P, Q) -> FiniteDistribution:
    """``(1 - q) P + q Q``, exact where both laws are and ``q`` is (:func:`~symdp.engine.finite.given_rational`)."""
    weight = mpmath.mpf(q)
    if not 0 <= weight <= 1:
        raise InvalidDistribution(f"mixture weight q must lie in [0, 1], got {mpmath.nstr(weight, 10)}")
    if len(P) != len(Q):
        raise InvalidDistribution(f"cannot mix finite laws of {len(P)} and {len(Q)} atoms")
    if P.exact and Q.exact:
        exact = finite.given_rational(q)
        return FiniteDistribution([(1 - exact) * p + exact * r for p, r in zip(P.rationals, Q.rationals)])
    return FiniteDistribution([(1 - weight) * p + weight * r for p, r in zip(P, Q)])


def _finite(function: Callable) -> Callable:
    def exact(P, Q, *args, method=AUTO, **options):
        return function(P, Q, *args, **options)
    return exact


FINITE = {Kind.KL: finite.kl, Kind.RENYI: finite.renyi, Kind.HOCKEY_STICK: finite.hockey_stick, Kind.TV: finite.tv,
          Kind.MAX_DIVERGENCE: finite.max_divergence, Kind.APPROXIMATE_MAX_DIVERGENCE: finite.approximate_max_divergence,
          Kind.LOSS_MGF: finite.loss_mgf}
"""The quantities of finite laws: exact sums in ball arithmetic."""


def _on_integers(function: Callable) -> Callable:
    def on_Z(P, Q, *args, method=AUTO, **options):
        return integers.divergence_on_Z(function, P, Q, *args, **options)
    return on_Z


def _on_atoms(function: Callable) -> Callable:
    def aligned(P, Q, *args, method=AUTO, **options):
        return function(*shifted.aligned(P, Q), *args, **options)
    return aligned


def _continuous(function: Callable) -> Callable:
    def routed(P, Q, *args, method=AUTO, **options):
        return function(P, Q, *args, method=str(method), **options)
    return routed


def _loss_mgf(P, Q, lam, method=AUTO, centred: bool = False) -> Estimate:
    if method not in (AUTO, Method.CERTIFIED, Method.DENSITIES):
        raise InvalidParameter(f"the loss MGF of continuous laws is computed certified only, not by {method!r}")
    return certified.loss_mgf(P, Q, lam, centred=centred)


def _product(function: Callable, kind: Kind) -> Callable:
    def composed(P, Q, *args, method=AUTO, **options):
        return function(divergence, kind, P, Q, *args, method=method, **options)
    return composed


def _profile(kind: Kind) -> Callable:
    """δ(ε), TV and ε(δ) of a pair of products: exactly through the reduced pair where the product reduces (finite
    factors: loss classes; Gaussian factors with one standard deviation per coordinate: one Gaussian pair), else as a
    certified bracket of relative ``width`` from the privacy-loss distribution (:mod:`symdp.engine.accounting`)."""
    def measure(P, Q, *args, method=AUTO, width=None):
        if width is not None:
            accounting.check_width(width)       # refused on every route, exact ones included
        runs = products.coordinates(P, Q)
        if len(runs) == 1 and runs[0][2] == 1:      # one mechanism: the pair itself, by its own rule
            A, B, _ = runs[0]
            extra = {"width": width} if "width" in rule(A, B).options.get(kind, ()) else {}
            return divergence(kind, A, B, *args, method=method, **extra)
        exact = accounting.lattice_estimate(kind, runs, *args)
        if exact is not None:
            return exact
        if products.reducible(P, Q):
            return products.through_reduction(divergence, kind, P, Q, *args, method=method)
        return _accounted(kind)(P, Q, *args, width=width)
    return measure


ACCOUNTED = (Kind.HOCKEY_STICK, Kind.TV, Kind.APPROXIMATE_MAX_DIVERGENCE)
"""The quantities of laws the engine knows only through their privacy-loss distribution."""


def _accounted(kind: Kind) -> Callable:
    """δ(ε), TV or ε(δ) from the privacy-loss distribution, the accountant's certified bracket: of products the
    engine does not reduce (:func:`_profile`), and of a pair that is all the engine knows of (the symmetrised pair,
    a mixture of Gaussians against one Gaussian)."""
    def bracketed(P, Q, *args, method=AUTO, width=None):
        if kind == Kind.APPROXIMATE_MAX_DIVERGENCE:
            return accounting.epsilon_for(args[0], P, Q, width=width)
        return accounting.hockey_stick(P, Q, args[0] if args else 0, width=width)
    return bracketed


def _epsilon_for(P, Q, delta, method=AUTO, width=None) -> Estimate:
    """ε(δ) of one continuous pair: the certified root of its profile δ(ε) (by the method asked), or, where the
    profile is not certified, the bracket of the privacy-loss distribution."""
    exact = accounting.epsilon_root(delta, lambda eps: divergence(Kind.HOCKEY_STICK, P, Q, eps, method=method))
    return exact if exact is not None else accounting.epsilon_for(delta, P, Q, width=width)


RULES: tuple[Rule, ...] = (
    Rule(products.Product, {
        Kind.KL: _product(products.additive, Kind.KL), Kind.RENYI: _product(products.additive, Kind.RENYI),
        Kind.MAX_DIVERGENCE: _product(products.additive, Kind.MAX_DIVERGENCE),
        Kind.LOSS_MGF: _product(products.multiplicative, Kind.LOSS_MGF),
        **{kind: _profile(kind) for kind in (Kind.HOCKEY_STICK, Kind.TV, Kind.APPROXIMATE_MAX_DIVERGENCE)}},
        methods=(Method.EXACT, Method.DENSITIES, Method.CLOSED_FORM, Method.CERTIFIED, Method.QUADRATURE),
        options={Kind.LOSS_MGF: ("centred",), **{kind: ("width",) for kind in
                                                 (Kind.HOCKEY_STICK, Kind.TV, Kind.APPROXIMATE_MAX_DIVERGENCE)}}),
    Rule(gaussian_paths.GaussianVector, {
        kind: _product(gaussian_paths.through_statistic, kind)
        for kind in (Kind.KL, Kind.RENYI, Kind.HOCKEY_STICK, Kind.TV, Kind.LOSS_MGF)},
        methods=(Method.DENSITIES, Method.CLOSED_FORM, Method.CERTIFIED, Method.QUADRATURE),
        options={Kind.LOSS_MGF: ("centred",)}),
    Rule(chains.ChainLaw, {
        Kind.KL: _continuous(chains.kl), Kind.RENYI: _continuous(chains.renyi),
        Kind.HOCKEY_STICK: _continuous(chains.hockey_stick), Kind.TV: _continuous(chains.tv)},
        methods=(Method.QUADRATURE, Method.DENSITIES)),
    *(Rule(law, {**{kind: _accounted(kind) for kind in ACCOUNTED},
                 Kind.RENYI: accounted_renyi.renyi, Kind.KL: accounted_renyi.kl}, methods=(Method.CERTIFIED,),
           options={kind: ("width",) for kind in ACCOUNTED}) for law in (SymmetrisedLaw, GaussianSum)),
    Rule(projected.Projected, {
        Kind.KL: _continuous(projected.kl), Kind.RENYI: _continuous(projected.renyi),
        Kind.HOCKEY_STICK: _continuous(projected.hockey_stick), Kind.TV: _continuous(projected.tv)},
        methods=(Method.QUADRATURE, Method.DENSITIES)),
    Rule(shifted.AtomicLaw, {**{kind: _on_atoms(function) for kind, function in FINITE.items()},
                             Kind.SHIFTED_RENYI: _finite(shifted.shifted_renyi_estimate)},
         methods=(Method.EXACT,), options={Kind.LOSS_MGF: ("centred",)}),
    Rule(integers.IntegerLaw, {kind: _on_integers(function) for kind, function in FINITE.items()},
         methods=(Method.EXACT,), options={Kind.LOSS_MGF: ("centred",)}, mix=integers.mixture),
    Rule(FiniteDistribution, {kind: _finite(function) for kind, function in FINITE.items()},
         methods=(Method.EXACT,), options={Kind.LOSS_MGF: ("centred",)}, mix=_finite_mixture),
    Rule(ContinuousDistribution, {
        Kind.KL: _continuous(quadrature.kl), Kind.RENYI: _continuous(quadrature.renyi),
        Kind.HOCKEY_STICK: _continuous(quadrature.hockey_stick), Kind.TV: _continuous(quadrature.tv),
        Kind.MAX_DIVERGENCE: _continuous(quadrature.max_divergence), Kind.LOSS_MGF: _loss_mgf,
        Kind.APPROXIMATE_MAX_DIVERGENCE: _epsilon_for},
        methods=(Method.DENSITIES, Method.CLOSED_FORM, Method.CERTIFIED, Method.QUADRATURE, Method.BINNED),
        options={Kind.LOSS_MGF: ("centred",), Kind.APPROXIMATE_MAX_DIVERGENCE: ("width",)}, mix=Mixture),
)
"""One rule per kind of law, most specific first."""


def rule(P, Q) -> Rule:
    """The rule that computes quantities between ``P`` and ``Q``: both laws must be of its kind."""
    for r in RULES:
        if isinstance(P, r.law) and isinstance(Q, r.law):
            return r
    raise InvalidDistribution(
        f"cannot compare a {type(P).__name__} with a {type(Q).__name__}: both must be finite or both continuous"
        + (" (discretize with symdp.engine.binning.binned_pair)"
           if {type(P), type(Q)} & {FiniteDistribution} and any(isinstance(D, ContinuousDistribution)
                                                                 for D in (P, Q)) else ""))


def mixture(q, P, Q):
    """The mixture (1 − q) P + q Q of two laws of one kind, a law of that kind (its rule's ``mix``).

    >>> mixture(0.25, FiniteDistribution([1, 0]), FiniteDistribution([0, 1])).probs
    (mpf('0.75'), mpf('0.25'))
    """
    return rule(P, Q).mix(q, P, Q)


def divergence(kind, P, Q, *args, method=AUTO, edges=None, **options) -> Estimate:
    """``kind(P‖Q, *args)`` (:class:`Kind`) by ``method``: ``"auto"``, or a :class:`~symdp.estimate.Method` the
    laws' rule accepts. ``"densities"`` is what an independent witness asks for: computed from the densities
    (certified where it can be, else quadrature), never by a closed form of the divergence. ``"binned lower bound"``
    (with ``edges``) is the divergence of the laws binned on that partition, a certified lower bound.

    An unknown kind, a method the laws' rule does not have, or laws of two kinds is an error that names them.
    """
    try:
        kind = Kind(kind)
    except ValueError:
        raise InvalidParameter(f"unknown divergence {kind!r}; the kinds are {', '.join(Kind)}") from None
    chosen = rule(P, Q)
    if method != AUTO:
        try:
            method = Method(method)
        except ValueError:
            raise InvalidParameter(f"unknown method {method!r}; methods are auto, {', '.join(Method)}") from None
        if method not in chosen.methods:
            raise InvalidParameter(f"{kind} of {type(P).__name__} laws has no method {str(method)!r}; it has auto, "
                                   + ", ".join(chosen.methods))
    unknown = set(options) - set(chosen.options.get(kind, ()))
    if unknown:
        raise InvalidParameter(f"{kind} takes no option {', '.join(sorted(unknown))}")
    function = chosen.functions.get(kind)
    if function is None:
        raise InvalidParameter(f"{kind} of {type(P).__name__} laws is not computed by the engine")
    if method == Method.BINNED:
        if edges is None:
            raise InvalidParameter("a binned lower bound needs edges= (symdp.engine.binning.uniform_edges)")
        return binning.binned_lower_bound(lambda Pb, Qb, *rest: divergence(kind, Pb, Qb, *rest, **options),
                                          P, Q, edges, *args)
    if edges is not None:
        raise InvalidParameter("edges= is for method='binned lower bound'")
    return function(P, Q, *args, method=method, **options)


def kl(P, Q, method=AUTO) -> Estimate:
    """D_KL(P‖Q): :func:`divergence` of kind ``kl``."""
    return divergence(Kind.KL, P, Q, method=method)


def renyi(P, Q, alpha, method=AUTO) -> Estimate:
    """R_α(P‖Q), α ∈ (1, ∞]: :func:`divergence` of kind ``renyi``."""
    return divergence(Kind.RENYI, P, Q, alpha, method=method)


def hockey_stick(P, Q, eps, method=AUTO) -> Estimate:
    """D_{e^ε}(P‖Q) for ε of any sign: :func:`divergence` of kind ``hockey_stick``."""
    return divergence(Kind.HOCKEY_STICK, P, Q, eps, method=method)


def tv(P, Q, method=AUTO) -> Estimate:
    """Total variation: :func:`divergence` of kind ``tv``."""
    return divergence(Kind.TV, P, Q, method=method)


def max_divergence(P, Q, method=AUTO) -> Estimate:
    """D_∞(P‖Q): :func:`divergence` of kind ``max_divergence`` (continuous pairs may reach it only at ±∞)."""
    return divergence(Kind.MAX_DIVERGENCE, P, Q, method=method)


def loss_mgf(P, Q, lam, centred: bool = False) -> Estimate:
    """E_P[e^{λL}] of the privacy loss (``centred``: of L − E_P L): :func:`divergence` of kind ``loss_mgf``."""
    return divergence(Kind.LOSS_MGF, P, Q, lam, centred=centred)
