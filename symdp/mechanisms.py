"""Mechanisms with their neighbouring relation: the dominating pairs from which δ(ε) and ε(δ) are certified.

A DP guarantee is a statement about neighbouring datasets, and which datasets are neighbours is part of it: a record
added (``add``), removed (``remove``), either (``add-or-remove``, the worse of the two, what dp_accounting's
``ADD_OR_REMOVE_ONE`` and Opacus report), or one record replaced by another (``replace-one``, dp_accounting's
``REPLACE_ONE``, the substitution relation). Accounting one relation for another is a common error (Lebeda, Regehr,
Kamath and Steinke 2024, "Avoiding pitfalls for privacy accounting of subsampled mechanisms under composition"), so a
:class:`Mechanism` carries its relation and the laws it is accounted from: one *dominating pair* (P, Q) per
orientation of the relation, δ_M(ε) ≤ D_{e^ε}(P‖Q) for every pair of neighbours (Zhu, Dong and Wang 2022, "Optimal
accounting of differential privacy via characteristic function", Sec. 3). An answer is the largest over the
orientations, and says which one decided it.

Conventions (DP-SGD's, and dp_accounting's ``privacy_loss_mechanism.py``): each record's contribution is clipped to
norm 1 and Gaussian noise of standard deviation σ (the noise multiplier) is added to the sum; ``N(μ, σ)`` below is
that noise around μ. Adding or removing a record moves the sum by at most 1, replacing one by at most 2.

===============================  ==================================================  =================================
mechanism, relation              dominating pair(s)                                  source
===============================  ==================================================  =================================
Gaussian, add / remove           N(0, σ) against N(1, σ) (either order: a mirror)    tight (one dimension)
Gaussian, replace-one            N(0, σ) against N(2, σ)                             tight
Poisson sampling at rate q,      remove: (1 − q)N(0, σ) + qN(1, σ) against N(0, σ);  Zhu, Dong, Wang 2022;
add / remove                     add: the reverse                                    Mironov, Talwar, Zhang 2019
Poisson sampling, replace-one    (1 − q)N(0, σ) + qN(1, σ) against                   Lebeda et al. 2024; dp_accounting
                                 (1 − q)N(0, σ) + qN(−1, σ)                          ``REPLACE_ONE``
fixed batches of b from n,       the symmetrised pair of (1 − γ)N(0, σ) + γN(2, σ)   Balle, Barthe, Gaboardi 2018;
γ = b/n, replace-one             against N(0, σ)                                     Zhu, Dong, Wang 2022 (below)
===============================  ==================================================  =================================

Composition multiplies the pairs of each orientation (Zhu, Dong, Wang 2022: dominating pairs compose): along a
run the relation's orientation is fixed (the same record is added, or removed, at every step), and the replace-one
pair of the Poisson-subsampled Gaussian is its own reverse up to the reflection x → −x, so one orientation serves
every step.

**Fixed batches** (sampling without replacement: b of the n records, γ = b/n) are accounted under replace-one, the
relation under which a batch size is fixed (Balle, Barthe and Gaboardi 2018, "Privacy amplification by subsampling:
tight analyses via couplings and divergences"). Neighbours D = C ∪ {z}, D' = C ∪ {z'}: the batch holds the record
with probability γ, and otherwise b records of C, drawn as b − 1 of them (S) and one more (w); with that coupling
M(D) = E_{S,w}[(1 − γ)N(s + g_w, σ) + γN(s + g_z, σ)] and M(D') the same with g_{z'}, every contribution g of norm
at most 1. By joint convexity of the hockey-stick divergence and the advanced joint convexity of Balle et al. (their
Theorem 2), at ε ≥ 0 each term is at most γ·D_{e^{ε₀}}(N(g_z, σ)‖(1 − β)N(g_w, σ) + βN(g_{z'}, σ)) ≤
γ·D_{e^{ε₀}}(N(2, σ)‖N(0, σ)) (ε₀ = log(1 + (e^ε − 1)/γ); both distances are at most 2, and convexity in the second
law), which is exactly D_{e^ε}((1 − γ)N(0, σ) + γN(2, σ)‖N(0, σ)): that pair dominates every step at ε ≥ 0 (Zhu, Dong
and Wang 2022 state it for any base mechanism), and the relation's symmetry gives ε < 0. Adaptive composition may
meet the two orientations at alternate steps, so the pair that composes is the symmetrised one
(:mod:`symdp.engine.symmetrised`), whose profile is that bound at every ε ∈ ℝ. The rate γ enters rounded up: δ
grows with γ (a smaller rate is a post-processing of a larger one), so the bracket stays an upper bound.

Sampling with replacement and shuffled epochs are refused with the reason (:data:`REFUSED_SAMPLING`): no dominating
pair of their composition is built. Accounting any of them as Poisson sampling is the pitfall above.

>>> m = poisson_gaussian(0.01, 1.0, relation="add-or-remove").composed(1000)
>>> a = delta(m, 1, width=1e-3)
>>> a.certified, a.decided_by, a.lower <= 0.0026125 <= a.upper       # dp_accounting's PLD: 0.0026125 (README)
(True, 'remove', True)
"""

from __future__ import annotations

import numbers
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Optional

import mpmath

from symdp.engine.continuous import Gaussian, Laplace, Mixture
from symdp.engine.products import Product, compose
from symdp.engine.symmetrised import symmetrised
from symdp.errors import InvalidParameter
from symdp.estimate import Estimate, weakest
from symdp.numeric import to_mpf

ADD, REMOVE, ADD_OR_REMOVE, REPLACE_ONE = "add", "remove", "add-or-remove", "replace-one"
RELATIONS = (ADD_OR_REMOVE, ADD, REMOVE, REPLACE_ONE)
"""The neighbouring relations, the default first."""

SAMPLINGS = ("poisson", "fixed-batch", "with-replacement", "shuffle")
"""The sampling schemes a DP-SGD run may use; Poisson sampling and fixed batches are accounted (the module's note
says why not the others)."""

REFUSED_SAMPLING = {
    "with-replacement": "sampling with replacement is not accounted: no dominating pair of its composition is built",
    "shuffle": "shuffled epochs are not accounted: no dominating pair of their composition is built (a record is used "
               "once per epoch, a dependence Poisson sampling does not have)",
}
"""Why each sampling scheme symdp does not account is refused."""

FIXED_BATCH_RELATION = ("fixed-batch sampling is accounted under replace-one (the relation under which a batch size is "
                        "fixed; Balle, Barthe, Gaboardi 2018): under add or remove the dataset's size, and so the "
                        "sampling rate, changes with the record")
"""Why fixed batches are refused under add, remove and add-or-remove."""


@dataclass(frozen=True)
class Mechanism:
    """A mechanism under one neighbouring relation: ``pairs`` maps each orientation of the relation (``"add"``,
    ``"remove"``, or ``"replace-one"``) to its dominating pair (P, Q) of products; ``description`` names the mechanism
    as a user would, ``source`` where its pairs come from."""

    description: str
    relation: str
    pairs: dict = field(hash=False)
    source: str
    event: Optional[Callable] = field(default=None, hash=False, compare=False)
    """The mechanism as Google's dp_accounting describes it: a function of its ``dp_event`` module returning the
    ``DpEvent`` (:func:`symdp.interop.dp_event`); None where it has none."""

    def composed(self, steps: int) -> "Mechanism":
        """The mechanism run ``steps`` times (each orientation's pair composed, Zhu, Dong, Wang 2022)."""
        k = _count(steps)
        inner = self.event
        return Mechanism(f"{self.description}, {k} steps", self.relation,
                         {name: (_power(k, P), _power(k, Q)) for name, (P, Q) in self.pairs.items()}, self.source,
                         None if inner is None else lambda E: E.SelfComposedDpEvent(inner(E), k))


def _power(k: int, law):
    return compose(k, law) if not isinstance(law, Product) else \
        Product([(factor, count * k) for factor, count in law.factors])


def _count(x, what: str = "the number of steps") -> int:
    if isinstance(x, bool) or not isinstance(x, (numbers.Real, mpmath.mpf)) or int(x) != x or x < 1:
        raise InvalidParameter(f"{what} must be an integer >= 1, got {x!r}")
    return int(x)


def _relation(relation: str) -> str:
    if relation not in RELATIONS:
        raise InvalidParameter(f"unknown neighbouring relation {relation!r}; the relations are {', '.join(RELATIONS)}")
    return relation


def _positive(x, what: str) -> mpmath.mpf:
    value = to_mpf(x, what)
    if not (mpmath.isfinite(value) and value > 0):
        raise InvalidParameter(f"{what} must be a positive number, got {x!r}")
    return value


def _rate(q) -> mpmath.mpf:
    value = to_mpf(q, "the sampling rate")
    if not 0 < value <= 1:
        raise InvalidParameter(f"the sampling rate must lie in (0, 1], got {q!r}")
    return value


def _oriented(relation: str, apart, together) -> dict:
    """The pairs of an additive-noise mechanism without subsampling: ``apart`` = (law without the record, law with
    it) for add and remove (mirror images: one pair serves both, named after the relation), ``together`` for
    replace-one."""
    if relation == REPLACE_ONE:
        return {REPLACE_ONE: together}
    return {relation: apart}


def gaussian(noise_multiplier, *, relation: str = ADD_OR_REMOVE) -> Mechanism:
    """The Gaussian mechanism of sensitivity 1 (add/remove) with noise of standard deviation ``noise_multiplier``.

    >>> sorted(gaussian(2.0, relation="replace-one").pairs)
    ['replace-one']
    """
    sd, relation = _positive(noise_multiplier, "the noise multiplier"), _relation(relation)
    pairs = _oriented(relation, (Gaussian(0, sd), Gaussian(1, sd)), (Gaussian(0, sd), Gaussian(2, sd)))
    return Mechanism(f"Gaussian mechanism (σ = {mpmath.nstr(sd, 6)})", relation,
                     {name: (compose(1, P), compose(1, Q)) for name, (P, Q) in pairs.items()},
                     "a shift by the sensitivity (1; 2 for replace-one): tight in one dimension",
                     lambda E: E.GaussianDpEvent(float(sd)))


def laplace(scale, *, relation: str = ADD_OR_REMOVE) -> Mechanism:
    """The Laplace mechanism of ℓ1-sensitivity 1 (add/remove) with noise of scale ``scale``."""
    b, relation = _positive(scale, "the Laplace scale"), _relation(relation)
    pairs = _oriented(relation, (Laplace(0, b), Laplace(1, b)), (Laplace(0, b), Laplace(2, b)))
    return Mechanism(f"Laplace mechanism (b = {mpmath.nstr(b, 6)})", relation,
                     {name: (compose(1, P), compose(1, Q)) for name, (P, Q) in pairs.items()},
                     "a shift by the sensitivity (1; 2 for replace-one): tight in one dimension",
                     lambda E: E.LaplaceDpEvent(float(b)))


def poisson_gaussian(sampling_rate, noise_multiplier, *, relation: str = ADD_OR_REMOVE) -> Mechanism:
    """One step of DP-SGD with Poisson sampling: each record in the batch with probability ``sampling_rate``, its
    clipped contribution summed with Gaussian noise of standard deviation ``noise_multiplier``.

    >>> m = poisson_gaussian(0.1, 1.0, relation="replace-one")
    >>> P, Q = m.pairs["replace-one"]
    >>> [float(law.factors[0][0].second.mean) for law in (P, Q)]
    [1.0, -1.0]
    """
    q, sd, relation = _rate(sampling_rate), _positive(noise_multiplier, "the noise multiplier"), _relation(relation)
    plain = Gaussian(0, sd)
    if q == 1:      # every record sampled: the Gaussian mechanism itself, whose products the engine reduces exactly
        return replace(gaussian(sd, relation=relation), description=_describe(q, sd))
    if relation == REPLACE_ONE:
        pairs = {REPLACE_ONE: (Mixture(q, plain, Gaussian(1, sd)), Mixture(q, plain, Gaussian(-1, sd)))}
        source = ("Lebeda, Regehr, Kamath, Steinke 2024 (Poisson subsampling under substitution); dp_accounting's "
                  "REPLACE_ONE pair")
    else:
        sampled = Mixture(q, plain, Gaussian(1, sd))
        both = {REMOVE: (sampled, plain), ADD: (plain, sampled)}
        pairs = both if relation == ADD_OR_REMOVE else {relation: both[relation]}
        source = "Zhu, Dong, Wang 2022 (Poisson subsampling under add/remove); tight in one dimension"
    return Mechanism(_describe(q, sd), relation, {name: (compose(1, P), compose(1, Q)) for name, (P, Q) in pairs.items()},
                     source, lambda E: E.PoissonSampledDpEvent(float(q), E.GaussianDpEvent(float(sd))))


def fixed_batch_gaussian(batch_size, dataset_size, noise_multiplier, *, relation: str = REPLACE_ONE) -> Mechanism:
    """One step of DP-SGD on a fixed batch: ``batch_size`` records drawn without replacement from ``dataset_size``,
    their clipped contributions summed with Gaussian noise of standard deviation ``noise_multiplier``, under
    replace-one (the module's note derives the pair; other relations are refused).

    >>> m = fixed_batch_gaussian(10, 1000, 1.0)
    >>> P, Q = m.pairs["replace-one"]
    >>> law = P.factors[0][0]
    >>> type(law).__name__, float(law.P.q), float(law.P.second.mean)
    ('SymmetrisedLaw', 0.01, 2.0)
    """
    b, n = _count(batch_size, "the batch size"), _count(dataset_size, "the dataset size")
    if b > n:
        raise InvalidParameter(f"the batch size ({b}) must be at most the dataset size ({n})")
    sd, relation = _positive(noise_multiplier, "the noise multiplier"), _relation(relation)
    if relation != REPLACE_ONE:
        raise InvalidParameter(f"{FIXED_BATCH_RELATION}; ask for the {REPLACE_ONE} relation")
    if b == n:      # every record in every batch: the Gaussian mechanism itself
        return replace(gaussian(sd, relation=relation), description=_describe_batch(b, n, sd))
    rate = mpmath.fdiv(b, n, rounding="c")        # rounded up: δ grows with the rate (the module's note)
    plain = Gaussian(0, sd)
    P, Q = symmetrised(Mixture(rate, plain, Gaussian(2, sd)), plain)
    return Mechanism(_describe_batch(b, n, sd), relation, {REPLACE_ONE: (compose(1, P), compose(1, Q))},
                     "Balle, Barthe, Gaboardi 2018 (coupling, advanced joint convexity) and Zhu, Dong, Wang 2022 "
                     "(sampling without replacement under substitution), symmetrised over ε of both signs",
                     lambda E: E.SampledWithoutReplacementDpEvent(n, b, E.GaussianDpEvent(float(sd))))


def _describe_batch(b: int, n: int, sd) -> str:
    return f"Gaussian on fixed batches of {b} of {n} records (σ = {mpmath.nstr(sd, 6)})"


def _describe(q, sd) -> str:
    return f"Poisson-subsampled Gaussian (q = {mpmath.nstr(q, 6)}, σ = {mpmath.nstr(sd, 6)})"


def dpsgd(sampling_rate, noise_multiplier, steps, *, relation: str = ADD_OR_REMOVE, sampling: str = "poisson",
          dataset_size=None, batch_size=None) -> Mechanism:
    """``steps`` steps of DP-SGD: Poisson sampling at ``sampling_rate`` (:func:`poisson_gaussian`) or fixed batches
    of ``batch_size`` of ``dataset_size`` records (``sampling="fixed-batch"``, :func:`fixed_batch_gaussian`, whose
    rate is theirs: ``sampling_rate`` is then None), composed; or a one-line refusal for a sampling scheme whose
    composition symdp does not account (the module's note).

    >>> dpsgd(0.01, 1.0, 10, sampling="shuffle")     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: shuffled epochs are not accounted: ...
    """
    if sampling not in SAMPLINGS:
        raise InvalidParameter(f"unknown sampling scheme {sampling!r}; the schemes are {', '.join(SAMPLINGS)}")
    if sampling in REFUSED_SAMPLING:
        raise InvalidParameter(f"{REFUSED_SAMPLING[sampling]}; accounting it as Poisson sampling underestimates ε "
                               "(Lebeda et al. 2024)")
    if sampling == "fixed-batch":
        if dataset_size is None or batch_size is None or sampling_rate is not None:
            raise InvalidParameter("fixed-batch sampling takes dataset_size and batch_size (its rate is theirs), "
                                   "not sampling_rate")
        return fixed_batch_gaussian(batch_size, dataset_size, noise_multiplier, relation=relation).composed(steps)
    if dataset_size is not None or batch_size is not None:
        raise InvalidParameter("dataset_size and batch_size are for sampling='fixed-batch'")
    return poisson_gaussian(sampling_rate, noise_multiplier, relation=relation).composed(steps)


@dataclass(frozen=True)
class Answer:
    """A certified bracket [``lower``, ``upper``] of δ at ε = ``at`` (``question = "delta"``) or of ε at δ = ``at``
    (``question = "epsilon"``) for a mechanism under its ``relation``: the largest over the relation's orientations,
    ``decided_by`` the orientation whose bracket reaches highest, and ``brackets`` each orientation's own."""

    question: str
    at: mpmath.mpf
    lower: mpmath.mpf
    upper: mpmath.mpf
    certified: bool
    method: str
    relation: str
    decided_by: str
    brackets: dict
    seconds: float

    @property
    def width(self) -> mpmath.mpf:
        """The relative width the bracket reached, as the engine measures the width it is asked for: its width over
        the largest magnitude in it (an ε's over at least 0.1). A bracket the engine could not narrow to the width
        asked (a loss too wide for its grid) is still an enclosure; this says how wide."""
        size = max(abs(self.lower), abs(self.upper), mpmath.mpf("0.1") if self.question == "epsilon" else 0)
        return (self.upper - self.lower) / size if size > 0 else mpmath.mpf(0)


def enclosure(m: Estimate) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The ends of an estimate's enclosure [value − error, value + error], rounded outward: floor and ceiling (mpmath's
    "d" and "u" round towards and away from zero, inward for a negative end)."""
    return mpmath.fsub(m.value, m.error, rounding="f"), mpmath.fadd(m.value, m.error, rounding="c")


def largest(question: str, at, pairs: dict, relation: str, width=1e-3) -> Answer:
    """The certified bracket of δ(``at``) (``question="delta"``) or ε(``at``) (``"epsilon"``) largest over ``pairs``
    (orientation → (P, Q)): the door every accountant answer goes through (:func:`delta`, :func:`epsilon`,
    :func:`symdp.interop.certify`)."""
    from symdp.laws import measure, probability_level

    start = time.perf_counter()
    if question == "delta":
        at, kind = to_mpf(at, "epsilon"), "hockey_stick"
    elif question == "epsilon":
        at, kind = probability_level(at, "delta"), "approximate_max_divergence"
    else:
        raise InvalidParameter(f"the question is 'delta' or 'epsilon', got {question!r}")
    measured = {name: measure(kind, P, Q, at, width=width) for name, (P, Q) in pairs.items()}
    brackets = {name: enclosure(m) for name, m in measured.items()}
    decided_by = max(brackets, key=lambda name: brackets[name][1])
    return Answer(question, at, max(lo for lo, _ in brackets.values()), max(hi for _, hi in brackets.values()),
                  all(m.certified for m in measured.values()), str(weakest(m.method for m in measured.values())),
                  relation, decided_by, brackets, time.perf_counter() - start)


def delta(mechanism: Mechanism, epsilon, *, width=1e-3) -> Answer:
    """δ(ε) of ``mechanism`` under its relation, as a certified bracket of relative ``width``."""
    return largest("delta", epsilon, mechanism.pairs, mechanism.relation, width)


def epsilon(mechanism: Mechanism, delta, *, width=1e-3) -> Answer:  # noqa: F811 (the parameter shadows delta())
    """ε(δ) of ``mechanism`` under its relation, as a certified bracket of relative ``width``."""
    return largest("epsilon", delta, mechanism.pairs, mechanism.relation, width)
