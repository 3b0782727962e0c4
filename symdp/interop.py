"""Checking an accountant's answer: Google's dp_accounting ``DpEvent`` as symdp's laws, and a certified bracket for
the question the accountant answers.

A user keeps their accountant code and asks symdp whether its answer is right::

    import dp_accounting as dpa
    event = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 1000)
    delta = dpa.pld.PLDAccountant().compose(event).get_delta(1)
    certify(event, epsilon=1, answer=delta).verdict      # "inside", "pessimistic" or "underestimate"

dp_accounting is an optional dependency (the ``bench`` extra), imported only by :func:`laws_of`'s callers' events.

**Conventions** (dp_accounting's ``pld/privacy_loss_mechanism.py``, ``AdjacencyType``; sensitivity 1): a mechanism
adds noise μ to a value that is 0 without the record and 1 with it, so its two output laws are ``without`` = μ and
``with`` = μ shifted by 1. Under Poisson subsampling at rate q, the output with the record is the mixture
``mix(q, without, with)`` = (1 − q)·without + q·with, and the two relations dp_accounting accounts for are

* **remove** (μ_upper = M(D), μ_lower = M(D) with the record removed): D(mix(q, without, with) ‖ without);
* **add** (μ_upper = M(D), μ_lower = M(D) with a record added): D(without ‖ mix(q, without, with)).

(dp_accounting writes the remove relation's mixture with μ(x + 1), the reflection of ours; reflection x → −x maps
one pair onto the other and keeps every divergence.) Without subsampling, add is D(without ‖ with) and remove
D(with ‖ without). δ(ε) is the larger of the two relations' δ, and ε(δ) the larger of their ε, as dp_accounting's
``ADD_OR_REMOVE_ONE`` accountants answer. Under **replace-one** (``REPLACE_ONE``) the record's contribution +1 is
replaced by −1: D(without ‖ without shifted by 2) unsampled, and D(mix(q, without, with) ‖ mix(q, without, with
reflected)) for the Poisson-subsampled Gaussian, and the symmetrised pair of mix(γ, without, without shifted by
2) against without for a fixed batch (``SampledWithoutReplacementDpEvent``, γ = sample_size/source_dataset_size,
replace-one only, as dp_accounting's RDP accountant; :mod:`symdp.mechanisms` cites and derives the pairs; that
accountant takes the noise over the distance 2, so its answer is that of twice symdp's noise). Under
**replace-special** (``REPLACE_SPECIAL``: a record replaced by a special record that contributes nothing, the
"zero-out" relation of Kairouz, McMahan, Song, Thakkar, Thakurta and Xu 2021, Definition 1.1) the dataset keeps its
size and the record's place, and its two orientations are add's and remove's pairs wherever the special record is
the record's absence (every event above but the fixed batch, whose other sampled records would depend on it: refused).
**Tree aggregation** (``SingleEpochTreeAggregationDpEvent``, the same paper's Appendix D) releases every node of a
binary tree over the steps, each a sum of its leaves' clipped contributions plus N(0, σ²); a record sits in one leaf
of one tree and so moves the d = ⌈log₂(T + 1)⌉ nodes above it (T the longest tree's steps) by at most 1 each: a
Gaussian mechanism of ℓ₂-sensitivity √d (2√d under replace-one), accounted under replace-special and replace-one
(add and remove would move the later records' leaves). Randomized response compares two inputs (its native relation
is ``REPLACE_ONE``); its pair serves every relation. Compositions compose each relation separately.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from typing import Optional

import mpmath

from symdp.engine import integers
from symdp.engine.continuous import Gaussian, Laplace
from symdp.engine.divergences import mixture
from symdp.engine.gaussian_sums import GaussianSum
from symdp.engine.products import Product, compose, product
from symdp.errors import InvalidParameter
from symdp.mechanisms import (FIXED_BATCH_RELATION, RELATIONS, Answer, Mechanism, fixed_batch_gaussian,
                              largest)
from symdp.numeric import to_mpf

REPLACE_SPECIAL = "replace-special"
"""dp_accounting's ``REPLACE_SPECIAL``: a record replaced by a special record that contributes nothing (the module's
note); certified here for dp_accounting's events, beside :data:`symdp.mechanisms.RELATIONS`."""

INTEROP_RELATIONS = RELATIONS + (REPLACE_SPECIAL,)
"""The neighbouring relations :func:`certify` takes."""

ORIENTATIONS = ("add", "remove", "replace-one", "special-add", "special-remove")
"""The pairs an event is translated to: add, remove, replace-one, and replace-special's two orientations (the
record replaced by the special record: ``special-remove``; the reverse: ``special-add``)."""

INSIDE, PESSIMISTIC, UNDERESTIMATE = "inside", "pessimistic", "underestimate"
"""How an accountant's answer compares with symdp's certified bracket: inside it, above it (a pessimistic answer:
safe, loose), or below it (an underestimate of the privacy loss: a privacy bug)."""


def _dp_accounting():
    try:
        import dp_accounting
    except ImportError:
        raise InvalidParameter("symdp.interop needs dp_accounting: pip install dp-accounting "
                               "(or symdp[bench])") from None
    return dp_accounting


@dataclass(frozen=True)
class Relations:
    """The pairs of output laws of a mechanism under each neighbouring relation: ``add`` = (P, Q) for D(P‖Q) when a
    record is added, ``remove`` likewise, ``replace`` when one record is replaced by another, ``special`` the two
    orientations of replace-special (``"add"``: the special record replaced by the record; ``"remove"``: the
    reverse), None where symdp has no dominating pair for it (``refused`` says why). ``symmetric``: no subsampling
    anywhere, so that the add and remove pairs are mirror images (each coordinate's pair reflected, or its atoms
    permuted) and every divergence agrees; so do replace-special's."""

    add: Optional[tuple[Product, Product]]
    remove: Optional[tuple[Product, Product]]
    symmetric: bool
    replace: Optional[tuple[Product, Product]] = None
    refused: dict = field(default_factory=dict)
    """Why a relation has no pair (an orientation of :data:`ORIENTATIONS` → the reason)."""
    special: Optional[dict] = None
    event: object = None
    """The ``DpEvent`` translated (:func:`laws_of`)."""

    def pairs(self, relation: str = "add-or-remove") -> dict[str, tuple[Product, Product]]:
        """The pairs to measure for ``relation`` (:data:`INTEROP_RELATIONS`), named by orientation: for add-or-remove
        and replace-special both orientations, or only ``add`` where they agree."""
        if relation not in INTEROP_RELATIONS:
            raise InvalidParameter(f"unknown neighbouring relation {relation!r}; the relations are "
                                   f"{', '.join(INTEROP_RELATIONS)}")
        oriented = {"add-or-remove": {"add": "add", "remove": "remove"},
                    REPLACE_SPECIAL: {"add": "special-add", "remove": "special-remove"}}
        named = oriented.get(relation, {relation: relation})
        if self.symmetric and relation in oriented:
            named = {"add": named["add"]}
        for orientation in named.values():
            if orientation in self.refused:
                raise InvalidParameter(f"no {relation} pair: {self.refused[orientation]}")
        found = {"add": self.add, "remove": self.remove, "replace-one": self.replace,
                 **{f"special-{name}": pair for name, pair in (self.special or {}).items()}}
        return {name: found[orientation] for name, orientation in named.items()}

    def mechanism(self, relation: str = "add-or-remove", description: str = "a dp_accounting event"):
        """The event as a :class:`symdp.mechanisms.Mechanism` under ``relation``: what :func:`symdp.mechanisms.delta`,
        :func:`~symdp.mechanisms.epsilon` and :func:`symdp.rdp.renyi_curve` take.

        >>> import pytest; dpa = pytest.importorskip("dp_accounting")
        >>> from symdp.rdp import renyi_curve
        >>> m = laws_of(dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(2.0), 8)).mechanism("replace-one")
        >>> float(renyi_curve(m, [3]).upper[0])             # α (2Δ)² k/(2σ²) = 3·4·8/8
        12.0
        """
        event = self.event
        return Mechanism(description, relation, self.pairs(relation), "dp_accounting's conventions (symdp.interop)",
                         None if event is None else lambda _: event)


def _positive(x, what: str) -> mpmath.mpf:
    value = to_mpf(x, what)
    if not (mpmath.isfinite(value) and value > 0):
        raise InvalidParameter(f"{what} must be a positive number, got {x!r} (0 is not private)")
    return value


def _mechanism(event, dpa) -> tuple[object, object, object]:
    """(without, with, replaced): the output laws of one noise mechanism without the record, with it, and with it
    replaced by the record farthest from it (the noise shifted by twice the sensitivity: dp_accounting's
    ``REPLACE_ONE``, μ(x + s) against μ(x − s), translated). Randomized response compares two inputs under every
    relation: ``replaced`` is ``with``."""
    if isinstance(event, dpa.GaussianDpEvent):
        sd = _positive(event.noise_multiplier, "noise_multiplier of a GaussianDpEvent")
        return Gaussian(0, sd), Gaussian(1, sd), Gaussian(2, sd)
    if isinstance(event, dpa.LaplaceDpEvent):
        scale = _positive(event.noise_multiplier, "noise_multiplier of a LaplaceDpEvent")
        return Laplace(0, scale), Laplace(1, scale), Laplace(2, scale)
    if isinstance(event, dpa.DiscreteLaplaceDpEvent):
        scale = 1 / _positive(event.noise_parameter, "noise_parameter of a DiscreteLaplaceDpEvent")
        shift = event.sensitivity
        if int(shift) != shift or shift < 1:
            raise InvalidParameter(f"sensitivity of a DiscreteLaplaceDpEvent must be an integer >= 1, got {shift!r}")
        return tuple(integers.discrete_laplace(m * int(shift), scale) for m in range(3))
    if isinstance(event, dpa.RandomizedResponseDpEvent):
        without, with_ = _randomized_response(event.noise_parameter, event.num_buckets)
        return without, with_, with_
    raise _unsupported(event)


def _randomized_response(noise, buckets) -> tuple[integers.IntegerLaw, integers.IntegerLaw]:
    """dp_accounting's randomized response on k buckets with noise p (the input kept with probability 1 − p, else a
    uniform bucket) for inputs 0 and 1: (1 − p + p/k, p/k, ..., p/k) and its first two atoms swapped, as laws on
    {0, ..., k − 1} (their losses −ε, 0, ε lie on a lattice: compositions are exact, for any k)."""
    p = to_mpf(noise, "noise_parameter of a RandomizedResponseDpEvent")
    if not 0 < p <= 1:
        raise InvalidParameter(f"noise_parameter of a RandomizedResponseDpEvent must lie in (0, 1] "
                               f"(0 is not private), got {noise!r}")
    if int(buckets) != buckets or buckets < 2:
        raise InvalidParameter(f"num_buckets of a RandomizedResponseDpEvent must be an integer >= 2, got {buckets!r}")
    k = int(buckets)
    kept, moved = 1 - p + p / k, p / k
    first = [kept, moved] + [moved] * (k - 2)
    return integers.IntegerLaw(0, first), integers.IntegerLaw(0, [moved, kept] + [moved] * (k - 2))


REFUSED = {
    "SampledWithReplacementDpEvent": "sampling with replacement: no dominating pair for its composition is built",
    "ZCDpEvent": "a zCDP guarantee is a bound, not a mechanism with laws; symdp.rdp converts it: "
                 "epsilon_from_rdp(*zcdp_curve(rho, orders), delta)",
    "TruncatedSubsampledGaussianDpEvent": "the truncated subsampled Gaussian's pair (arXiv:2508.15089, as "
                                          "dp_accounting's PLD accountant builds it) is not built",
    "RepeatAndSelectDpEvent": "repeat-and-select has an RDP bound (Papernot and Steinke 2022), no dominating pair; "
                              "symdp.rdp.repeat_and_select(orders, renyi_curve(base, orders).upper, mean, shape) "
                              "computes that bound, rounded upward",
    "NonPrivateDpEvent": "a non-private step has no (ε, δ) guarantee: δ(ε) = 1 at every ε",
    "UnsupportedDpEvent": "an unsupported event has no known guarantee",
}
"""Why each dp_accounting event symdp does not translate is refused (one line, with what to use instead)."""


def _unsupported(event) -> InvalidParameter:
    name = type(event).__name__
    if name in REFUSED:
        return InvalidParameter(f"symdp.interop does not certify a {name}: {REFUSED[name]}")
    return InvalidParameter(f"symdp.interop cannot translate a {name}: it knows GaussianDpEvent, "
                            f"LaplaceDpEvent, DiscreteLaplaceDpEvent, RandomizedResponseDpEvent, PoissonSampledDpEvent "
                            f"(of one of these), SampledWithoutReplacementDpEvent (of a GaussianDpEvent), "
                            f"MixtureOfGaussiansDpEvent, SingleEpochTreeAggregationDpEvent, "
                            f"SelfComposedDpEvent and ComposedDpEvent")


def _relations(event, dpa) -> list[tuple[dict, int, bool]]:
    """The event as runs ``({orientation: pair or the reason there is none}, count, symmetric)`` of one coordinate
    each, in order (:data:`ORIENTATIONS`; replace-special's two default to add's and remove's)."""
    if isinstance(event, dpa.SelfComposedDpEvent):
        count = event.count
        if int(count) != count or count < 0:
            raise InvalidParameter(f"count of a SelfComposedDpEvent must be an integer >= 0, got {count!r}")
        return [(pairs, n * int(count), sym) for pairs, n, sym in _relations(event.event, dpa) if count > 0]
    if isinstance(event, dpa.ComposedDpEvent):
        return [run for inner in event.events for run in _relations(inner, dpa)]
    if isinstance(event, dpa.NoOpDpEvent):
        return []
    if isinstance(event, dpa.PoissonSampledDpEvent):
        q = to_mpf(event.sampling_probability, "sampling_probability of a PoissonSampledDpEvent")
        if not 0 <= q <= 1:
            raise InvalidParameter(f"sampling_probability of a PoissonSampledDpEvent must lie in [0, 1], "
                                   f"got {event.sampling_probability!r}")
        if isinstance(event.event, (dpa.SelfComposedDpEvent, dpa.ComposedDpEvent, dpa.PoissonSampledDpEvent)):
            raise InvalidParameter(f"symdp.interop subsamples one mechanism at a time: a PoissonSampledDpEvent of a "
                                   f"{type(event.event).__name__} is not translated (compose sampled events instead)")
        without, with_, _ = _mechanism(event.event, dpa)
        sampled = mixture(q, without, with_)
        if isinstance(event.event, dpa.GaussianDpEvent):
            # the record's contribution +1 replaced by -1 (Lebeda et al. 2024; dp_accounting's REPLACE_ONE pair)
            replaced = (sampled, mixture(q, without, Gaussian(-with_.mean, with_.sd)))
        else:
            replaced = (f"the replace-one pair of a Poisson-subsampled {type(event.event).__name__[:-len('DpEvent')]} "
                        "mechanism is not binned by symdp (only the subsampled Gaussian's is)")
        return [({"add": (without, sampled), "remove": (sampled, without), "replace-one": replaced}, 1, False)]
    if isinstance(event, dpa.SampledWithoutReplacementDpEvent):
        return [(_without_replacement(event, dpa), 1, False)]
    if isinstance(event, dpa.MixtureOfGaussiansDpEvent):
        return [(_mixture_of_gaussians(event), 1, False)]
    if isinstance(event, dpa.SingleEpochTreeAggregationDpEvent):
        return [(pairs, 1, True) for pairs in _tree_aggregation(event)]
    without, with_, replaced = _mechanism(event, dpa)
    return [({"add": (without, with_), "remove": (with_, without), "replace-one": (without, replaced)}, 1, True)]


def _without_replacement(event, dpa) -> dict:
    """The relations of a fixed batch of a Gaussian mechanism: replace-one only, the symmetrised pair of
    :func:`symdp.mechanisms.fixed_batch_gaussian` (add and remove change the dataset's size, hence the rate)."""
    if not isinstance(event.event, dpa.GaussianDpEvent):
        return {name: f"a fixed batch of a {type(event.event).__name__} is not accounted (only a GaussianDpEvent's "
                      "pair is built)" for name in ("add", "remove", "replace-one")}
    sd = _positive(event.event.noise_multiplier, "noise_multiplier of a GaussianDpEvent")
    P, Q = fixed_batch_gaussian(event.sample_size, event.source_dataset_size, sd).pairs["replace-one"]
    special = "a fixed batch's other records depend on whether it holds the record (no pair built)"
    return {"add": FIXED_BATCH_RELATION, "remove": FIXED_BATCH_RELATION,
            "replace-one": (P.factors[0][0], Q.factors[0][0]), "special-add": special, "special-remove": special}


def _tree_aggregation(event) -> list[dict]:
    """dp_accounting's single-epoch tree aggregation (the module's note): the Gaussian mechanism of ℓ₂-sensitivity
    √d, d = ⌈log₂(T + 1)⌉ the depth of the longest tree (T its steps; a record is in one tree), under replace-special
    and replace-one (2√d); add and remove refused. √d enters rounded up (δ grows with the shift). No run where no
    tree has a step.

    >>> import pytest; dpa = pytest.importorskip("dp_accounting")
    >>> [pairs] = _tree_aggregation(dpa.SingleEpochTreeAggregationDpEvent(2.0, [3, 8]))     # d = ⌈log₂ 9⌉ = 4
    >>> [float(law.mean) for law in pairs["special-add"]], [float(law.mean) for law in pairs["replace-one"]]
    ([0.0, 2.0], [0.0, 4.0])
    """
    sd = _positive(event.noise_multiplier, "noise_multiplier of a SingleEpochTreeAggregationDpEvent")
    steps = event.step_counts if isinstance(event.step_counts, (list, tuple)) else [event.step_counts]
    if not steps or any(isinstance(t, bool) or int(t) != t or t < 0 for t in steps):
        raise InvalidParameter(f"step_counts of a SingleEpochTreeAggregationDpEvent must be an integer >= 0 or a "
                               f"non-empty list of them, got {event.step_counts!r}")
    depth = int(max(steps)).bit_length()        # ⌈log₂(T + 1)⌉
    if depth == 0:
        return []
    shift = mpmath.mpf(mpmath.libmp.mpf_sqrt(mpmath.mpf(depth)._mpf_, mpmath.mp.prec, "c"))
    without, with_ = Gaussian(0, sd), Gaussian(shift, sd)
    moved = ("tree aggregation is accounted with the record's place in the stream kept (replace-special, as "
             "dp_accounting and Kairouz et al. 2021 do, or replace-one): adding or removing a record moves the later "
             "records' leaves")
    return [{"add": moved, "remove": moved, "replace-one": (without, Gaussian(2 * shift, sd)),
             "special-add": (without, with_), "special-remove": (with_, without)}]


def _mixture_of_gaussians(event) -> dict:
    """dp_accounting's mixture-of-Gaussians mechanism (N(0, σ) given D, Σ_i p_i N(c_i, σ) given its neighbour):
    remove = (the mixture, N(0, σ)), add the reverse, as its PLD accountant's ``ADD_OR_REMOVE_ONE``; accounted where
    the sensitivities share a sign (the loss is then monotone); replace-one refused, as dp_accounting does."""
    sd = _positive(event.standard_deviation, "standard_deviation of a MixtureOfGaussiansDpEvent")
    if len(event.sensitivities) != len(event.sampling_probs):
        raise InvalidParameter(f"a MixtureOfGaussiansDpEvent needs as many sampling_probs as sensitivities, got "
                               f"{len(event.sampling_probs)} and {len(event.sensitivities)}")
    mixed = GaussianSum(event.sampling_probs, event.sensitivities, sd)
    plain = GaussianSum((1,), (0,), sd)
    if any(c > 0 for c in mixed.means) and any(c < 0 for c in mixed.means):
        raise InvalidParameter("symdp.interop does not certify a MixtureOfGaussiansDpEvent whose sensitivities have "
                               "both signs: its loss is not monotone, and symdp bins monotone losses")
    return {"add": (plain, mixed), "remove": (mixed, plain),
            "replace-one": "the mixture of Gaussians is accounted under add and remove (dp_accounting's "
                           "ADD_OR_REMOVE_ONE); no replace-one pair is built"}


def laws_of(event) -> Relations:
    """symdp's pairs of product laws for a dp_accounting ``DpEvent`` under its add, remove and replace-one relations
    (see the module's conventions). Every pair is a pair of products (:mod:`symdp.engine.products`), one mechanism a
    product of one factor, so that the engine's accounting of products applies throughout.

    >>> import pytest; dpa = pytest.importorskip("dp_accounting")     # an optional dependency
    >>> r = laws_of(dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.5, dpa.GaussianDpEvent(2.0)), 10))
    >>> r.symmetric, r.add[0].factors[0][1], type(r.add[1].factors[0][0]).__name__, r.replace is not None
    (False, 10, 'Mixture', True)
    >>> laws_of(dpa.SampledWithReplacementDpEvent(100, 10, dpa.GaussianDpEvent(1.0)))
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: symdp.interop does not certify a SampledWithReplacementDpEvent: sampling with replacement: no dominating pair for its composition is built
    """
    dpa = _dp_accounting().dp_event      # every event class (DiscreteLaplaceDpEvent is not at the package's top)
    runs = [run for run in _relations(event, dpa) if run[1] > 0]
    if not runs:
        raise InvalidParameter(f"the {type(event).__name__} applies no mechanism: nothing to account for")

    runs = [({"special-add": pairs["add"], "special-remove": pairs["remove"], **pairs}, count, sym)
            for pairs, count, sym in runs]

    def side(orientation: str, of: int) -> Product:
        return product(*(compose(count, pairs[orientation][of]) for pairs, count, _ in runs))

    refused = {}
    for name in ORIENTATIONS:
        reason = next((pairs[name] for pairs, _, _ in runs if isinstance(pairs[name], str)), None)
        if reason is not None:
            refused[name] = reason
    built = {name: None if name in refused else (side(name, 0), side(name, 1)) for name in ORIENTATIONS}
    return Relations(add=built["add"], remove=built["remove"], symmetric=all(sym for *_, sym in runs),
                     replace=built["replace-one"], refused=refused,
                     special={"add": built["special-add"], "remove": built["special-remove"]}, event=event)


NEIGHBORING = {"add-or-remove": "ADD_OR_REMOVE_ONE", "replace-one": "REPLACE_ONE", REPLACE_SPECIAL: "REPLACE_SPECIAL"}
"""symdp's relations as dp_accounting's ``NeighboringRelation`` names (it has no add or remove alone)."""


def dp_event(mechanism: Mechanism):
    """A symdp mechanism (:mod:`symdp.mechanisms`, composed or not) as dp_accounting's ``(DpEvent,
    NeighboringRelation)``: what to hand its accountants to ask them the same question. Parameters are passed as
    floats, as dp_accounting takes them. A fixed batch is a ``SampledWithoutReplacementDpEvent``, whose RDP accounting
    takes the noise relative to the distance 2 between two records (the module's note).

    >>> import pytest; dpa = pytest.importorskip("dp_accounting")
    >>> from symdp.mechanisms import dpsgd
    >>> event, relation = dp_event(dpsgd(0.01, 1.0, 1000))
    >>> event == dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 1000), relation.name
    (True, 'ADD_OR_REMOVE_ONE')
    """
    dpa = _dp_accounting()
    if mechanism.event is None:
        raise InvalidParameter(f"{mechanism.description} has no dp_accounting event")
    if mechanism.relation not in NEIGHBORING:
        raise InvalidParameter(f"dp_accounting has no {mechanism.relation} relation alone: it accounts add-or-remove "
                               f"(the worse of add and remove), replace-one and replace-special")
    return mechanism.event(dpa.dp_event), getattr(dpa.NeighboringRelation, NEIGHBORING[mechanism.relation])


@dataclass(frozen=True)
class Certificate(Answer):
    """symdp's answer to an accountant's question (a :class:`symdp.mechanisms.Answer`: the certified bracket
    ``[lower, upper]`` of δ at ``epsilon`` or ε at ``delta`` under the relation, the orientation that decided it, how
    it was computed and how long symdp took, translation included), with the accountant's ``answer`` and its
    ``verdict``: :data:`INSIDE`, :data:`PESSIMISTIC` (above the bracket) or :data:`UNDERESTIMATE` (below it: the
    accountant under-reports the privacy loss)."""

    answer: Optional[mpmath.mpf] = None
    verdict: Optional[str] = None


def _answer(answer) -> mpmath.mpf:
    """An accountant's answer as an mpf: a Python or NumPy number (``np.float64``, by its ``item()``), exactly."""
    return to_mpf(answer.item() if hasattr(answer, "item") else answer, "the accountant's answer")


def classify(answer, lower, upper) -> str:
    """Where an accountant's answer lies against a certified bracket.

    >>> classify(0.5, 0.4, 0.6), classify(0.7, 0.4, 0.6), classify(0.3, 0.4, 0.6)
    ('inside', 'pessimistic', 'underestimate')
    """
    a = _answer(answer)
    return UNDERESTIMATE if a < lower else PESSIMISTIC if a > upper else INSIDE


def certify(event, *, epsilon=None, delta=None, width=1e-3, answer=None,
            relation: str = "add-or-remove") -> Certificate:
    """symdp's certified bracket for δ(ε) (``epsilon=``) or ε(δ) (``delta=``) of a dp_accounting event under
    ``relation`` (``"add-or-remove"``, the larger over add and remove, as dp_accounting's default ``ADD_OR_REMOVE_ONE``;
    ``"replace-one"`` for its ``REPLACE_ONE``, ``"replace-special"`` for its ``REPLACE_SPECIAL``; or ``"add"``,
    ``"remove"``), reached to the relative ``width`` where the
    engine brackets; with an accountant's ``answer``, its verdict (:func:`classify`).

    >>> import pytest; dpa = pytest.importorskip("dp_accounting")     # an optional dependency
    >>> c = certify(dpa.SelfComposedDpEvent(dpa.RandomizedResponseDpEvent(0.5, 2), 10), epsilon=1, answer=0.3)
    >>> c.question, c.certified, c.verdict, c.lower <= c.upper
    ('delta', True, 'underestimate', True)
    """
    start = time.perf_counter()
    if (epsilon is None) == (delta is None):
        raise InvalidParameter("certify asks one question: give epsilon= (for delta) or delta= (for epsilon)")
    question, at = ("delta", epsilon) if epsilon is not None else ("epsilon", delta)
    found = largest(question, at, laws_of(event).pairs(relation), relation, width)
    verdict = None if answer is None else classify(answer, found.lower, found.upper)
    measured = {f.name: getattr(found, f.name) for f in fields(Answer)}
    return Certificate(**{**measured, "seconds": time.perf_counter() - start},
                       answer=None if answer is None else _answer(answer), verdict=verdict)
