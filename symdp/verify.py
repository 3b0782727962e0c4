"""Verification: draw parameters, evaluate both sides (certified where the engine can, else at two precisions), and
give an honest verdict.

Per draw, the witness measures what the statement names and both sides are evaluated from the statement
(:meth:`~symdp.theorem.Theorem.measure`). The *quantity* is the left side, the *bound* the right side; the margin is
``bound - quantity`` for ``<=`` and ``<`` (``quantity - bound`` for ``>=`` and ``>``; ``-|quantity - bound|`` for
``==``), taken from an evaluation at ``dps + GUARD_DPS`` digits; its error is the witness's own error estimates
propagated through the statement plus twice the change from a second evaluation at ``dps`` digits (agreement with
oneself at one precision proves nothing; a quadrature witness adds the change between two breakpoint sets). Then

* **holds**: margin > error;
* **violated**: margin < -error;
* **tight**: |margin| <= error <= 10^(-dps/2)·size, where size is the larger of the two sides' sizes (their
  values, or the terms a side that cancels is made of): equality to working precision *relative to the sides*;
  counts as holding. Two sides that are both tiny are not tight because their difference is tiny. A *strict*
  relation (``<``, ``>``) is not satisfied by equality: where the sides agree to working precision it is
  inconclusive, and it is violated only where the equality is proved (below);
* **inconclusive**: otherwise (an error estimate as large as the quantities decides nothing), with the precision
  that would settle it.

**Certified draws, adaptive precision.** When every quantity of a draw is a certified enclosure (ball arithmetic,
:attr:`~symdp.estimate.Estimate.certified`) and both sides evaluate in Arb (:class:`symdp.statement.SideValue`),
the balls are a proof. The draw is first evaluated at :data:`LOW_DPS` digits, where balls that settle it decide it
(*certified* holds or violated): most draws of a loose bound cost one cheap evaluation. Balls that leave it open are
recomputed at ``dps`` digits, where they decide, or show the sides equal to working precision relative to their
size (tight, as above, and certified: :attr:`DrawResult.tight_by` says whether the two balls are one exact number
or overlap within working precision); anything else takes the two-precision path. What the balls prove is the margin of the laws
*as the witness built them* at working precision; the rounding of that construction (a finite law's atoms
e^ε/(1 + e^ε), say) is covered by widening every measurement by 4 units of 10^-dps on the unit scale (the atoms'
rounding is relative, hence absolute in their log-ratios), or its own size if larger, keeping it in its domain
(:func:`symdp.statement.construction_floor`; not proved: such a draw's ``construction`` is ``rounded``), and the
inequality is decided on those widened balls
(:func:`_decide`): a non-strict relation holds where the difference is proved ``>= 0``, so a divergence ``>= 0``
holds even where it is 0. Where the witness marks its laws built exactly from the draw
(:class:`symdp.statement.BuiltExactly`) there is no widening, and two sides whose balls are one and the same exact
number are *proved* equal: tight for ``<=``, ``>=``, ``==``, violated for ``<`` and ``>``. Draws without enclosures
take the two-precision path directly.

Overall: violated if any draw is; holds if every draw holds or is tight; else inconclusive. Parameters are drawn by
hypothesis, steered towards the draws closest to refuting the statement and then refined locally
(:mod:`symdp.search`), so that "holds" means no counterexample was found where the bound is tightest, not only at
random points; a violation drawn by hypothesis is shrunk to a minimal counterexample, and a run is deterministic for a
given seed.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Callable, Iterator, Mapping, Optional

import mpmath
from hypothesis import HealthCheck, Phase, assume, given, seed as hypothesis_seed, settings, target
from hypothesis.errors import FailedHealthCheck, Unsatisfiable

from symdp.errors import InvalidParameter, SymdpError
from symdp.numeric import to_mpf
from symdp.precision import DEFAULT_DPS, GUARD_DPS, MAX_DPS, check_dps, proofs, working_precision
from symdp.estimate import Estimate, Method
from symdp.search import FOUND, Choices, closeness, hypothesis_phase, lattice, refine, walk
from symdp.theorem import CLOSED_FORM, INDEPENDENT, Theorem

HOLDS, TIGHT, VIOLATED, INCONCLUSIVE = "holds", "tight", "violated", "inconclusive"

LOW_DPS = 20
"""Digits of the first, cheap evaluation of a draw whose quantities are certified enclosures, and the fewest at
which enclosures are attempted at all."""


@dataclass(frozen=True)
class DrawResult:
    """One evaluated draw."""

    point: Mapping[str, Any]
    quantity: mpmath.mpf
    bound: mpmath.mpf
    margin: mpmath.mpf
    error: mpmath.mpf
    verdict: str
    note: str = ""
    relation: str = "<="
    values: Mapping[str, Any] = field(default_factory=dict)
    method: str = ""
    """How both sides were computed, as text (``certified, exact``; ``quadrature; bound: closed form``)."""
    methods: frozenset = frozenset()
    """The provenance of the quantity side (:class:`~symdp.estimate.Method`): what its evidence rests on."""
    certified: bool = False
    """The verdict is proved by enclosures (ball arithmetic), not estimated."""
    dps: int = 0
    """The digits at which the draw was decided."""
    found: str = ""
    """How the search came to this point (:data:`symdp.search.FOUND`): pinned, random, targeted or refined."""
    bound_methods: frozenset = frozenset()
    """The provenance of the bound side, as :attr:`methods` is the quantity's."""
    uncertified: str = ""
    """Why the verdict of this draw is not proved by enclosures (one of :data:`UNCERTIFIED`), "" where it is."""
    construction: str = ""
    """For a certified draw, how its laws were built (:data:`CONSTRUCTION`): ``exact`` from the draw, or ``rounded``
    at working precision (the enclosures then hold the laws as built, widened by the construction floor)."""

    @cached_property
    def closeness(self) -> Optional[float]:
        """How close the draw comes to refuting the statement (:func:`symdp.search.closeness`): 0 at equality,
        positive beyond the bound, None where it means nothing (two sides within the draw's error of 0). Kept: the
        search ranks every draw by it, again at each refinement."""
        if not max(abs(self.quantity), abs(self.bound)) > self.error:
            return None
        return closeness(self.relation, self.margin, self.quantity, self.bound)

    @property
    def at_zero(self) -> bool:
        """A tight draw whose two sides are both 0 to half the working digits on the unit scale: equal as zeros,
        which says nothing of a bound's tightness where it is not 0."""
        tolerance = mpmath.mpf(10) ** (-((self.dps or DEFAULT_DPS) // 2))
        return self.verdict == TIGHT and abs(self.quantity) <= tolerance and abs(self.bound) <= tolerance

    @property
    def proved_equal(self) -> bool:
        """A tight draw whose two sides are proved exactly equal (certified, no error at all)."""
        return self.verdict == TIGHT and self.certified and self.error == 0

    @property
    def tight_by(self) -> str:
        """How a certified tight draw is proved tight (:data:`TIGHT_BY`); "" for any other draw."""
        if not (self.verdict == TIGHT and self.certified):
            return ""
        return "proved-equal" if self.error == 0 else "enclosures-overlap"

    @property
    def ratio(self) -> Optional[float]:
        """How much of the bound is used: quantity/bound for ``<=``, bound/quantity for ``>=`` (1 = tight).

        None unless both sides are finite and larger than the draw's error (a ratio of rounding noise means nothing).
        """
        q, b = self.quantity, self.bound
        if not (mpmath.isfinite(q) and mpmath.isfinite(b) and q > self.error and b > self.error):
            return None
        return float(b / q) if self.relation in (">=", ">") else float(q / b)


@dataclass
class Report:
    """The result of checking one theorem or claim."""

    id: str
    verdict: str
    examples: int
    tight: int
    worst: Optional[DrawResult]
    counterexample: Optional[Mapping[str, Any]]
    dps: int
    seconds: float
    reason: str = ""
    worst_ratio: Optional[float] = None
    draws: list[DrawResult] = field(default_factory=list, repr=False)
    evidence: str = ""
    domain_limits: tuple[str, ...] = ()
    """Where the draws stop short of the domain the theorem states (:meth:`symdp.theorem.Param.reach`)."""

    @property
    def method(self) -> str:
        """How the quantities were obtained: the methods of every draw (``exact``, ``quadrature``, ...)."""
        return ", ".join(sorted(self.methods))

    @property
    def methods(self) -> frozenset:
        """The provenance of the quantities over every draw (:class:`~symdp.estimate.Method`)."""
        return frozenset().union(*(r.methods for r in self.draws))

    @property
    def bound_methods(self) -> frozenset:
        """The provenance of the bound side over every draw."""
        return frozenset().union(*(r.bound_methods for r in self.draws))

    @property
    def closest(self) -> Optional[DrawResult]:
        """The draw that comes closest to refuting the statement, relative to the size of its sides
        (:attr:`DrawResult.closeness`): where the bound is tightest among the points the search evaluated."""
        ranked = [r for r in self.draws if r.closeness is not None]
        return max(ranked, key=lambda r: r.closeness) if ranked else None

    @property
    def found(self) -> dict[str, int]:
        """How many draws each stage of the search contributed (:data:`symdp.search.FOUND`)."""
        return {stage: n for stage in FOUND if (n := sum(r.found == stage for r in self.draws))}

    @property
    def tight_at_zero(self) -> int:
        """Draws whose two sides agree only as zeros (:attr:`DrawResult.at_zero`): not counted in ``tight``."""
        return sum(r.at_zero for r in self.draws)

    @property
    def worst_margin(self) -> Optional[mpmath.mpf]:
        return None if self.worst is None else self.worst.margin

    @property
    def certified_examples(self) -> int:
        """How many draws were decided by enclosures."""
        return sum(r.certified for r in self.draws)

    @property
    def certified(self) -> bool:
        """Whether the verdict is proved by enclosures: a violation by its certified counterexample, a "holds" by
        every draw decided by enclosures, held by a margin proved to satisfy the relation or tight as
        :attr:`DrawResult.tight_by` says (proved exactly equal, or two enclosures that overlap within working
        precision relative to the sides)."""
        if self.verdict == VIOLATED:
            return self.worst is not None and self.worst.certified
        return self.verdict == HOLDS and bool(self.draws) and all(r.certified and r.verdict in (HOLDS, TIGHT)
                                                                   for r in self.draws)

    @property
    def construction(self) -> dict[str, int]:
        """How the laws of the certified draws were built: how many draws carry each way (:data:`CONSTRUCTION`)."""
        return dict(sorted(Counter(r.construction for r in self.draws if r.construction).items()))

    @property
    def certified_tight(self) -> dict[str, int]:
        """How the certified tight draws are proved tight: how many draws carry each way (:data:`TIGHT_BY`)."""
        return dict(sorted(Counter(r.tight_by for r in self.draws if r.tight_by).items()))

    @property
    def uncertified(self) -> dict[str, int]:
        """Why the verdict is not certified, as data: how many draws carry each reason (:data:`UNCERTIFIED`); empty
        where :attr:`certified` holds, or where nothing was drawn."""
        if self.certified:
            return {}
        return dict(sorted(Counter(r.uncertified for r in self.draws if r.uncertified).items()))

    @property
    def draws_limited_by(self) -> Optional[str]:
        """Why the theorem drew no more points than it did, where that is its nature: ``"counterexample"`` (a
        violation stops at the refuting draw), ``"no parameters"`` (a statement at one instance, such as a figure's
        point, has nothing to draw); None where the draws are the search's own count."""
        if self.verdict == VIOLATED:
            return "counterexample"
        if self.draws and not any(r.point for r in self.draws):
            return "no parameters"
        return None

    def _closest_json(self) -> Optional[dict]:
        """Where the bound is tightest among the draws: the point, how it was found, its closeness and ratio."""
        r = self.closest
        if r is None:
            return None
        return {"point": jsonable(r.point), "found": r.found, "closeness": r.closeness, "ratio": r.ratio,
                "verdict": r.verdict}

    def to_json(self, draws: bool = False) -> dict:
        """The report as JSON values: counts and seconds as numbers, parameter values as drawn, every computed real
        (margins, errors, ratios, sides, measured values) as a decimal string — at full precision, or with the digits
        its error leaves meaningful — with ``inf``, ``-inf`` and ``nan`` spelled so. With ``draws``, every draw with
        its ``values`` (each parameter and measured atom), ``quantity``, ``bound``, ``margin``, ``error``,
        ``verdict``, ``certified`` and the ``dps`` it was decided at."""
        digits = self.dps + GUARD_DPS
        worst = self.worst
        out = {
            "id": self.id,
            "verdict": self.verdict,
            "evidence": self.evidence,
            "method": self.method,
            "examples": self.examples,
            "draws_limited_by": self.draws_limited_by,
            "tight_examples": self.tight,
            "tight_at_zero": self.tight_at_zero,
            "worst_margin": None if worst is None else decimal(worst.margin, digits, worst.error),
            "worst_margin_error": None if worst is None else decimal(worst.error, digits),
            "worst_ratio": decimal(self.worst_ratio, digits),
            "closest": self._closest_json(),
            "found": self.found,
            "domain_limits": list(self.domain_limits),
            "certified": self.certified,
            "certified_examples": self.certified_examples,
            "uncertified": self.uncertified,
            "certified_tight": self.certified_tight,
            "construction": self.construction,
            "counterexample": None if self.counterexample is None else jsonable(self.counterexample),
            "dps": self.dps,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
        }
        if draws:
            out["draws"] = [_draw_json(r, r.dps if r.certified else (r.dps or self.dps) + GUARD_DPS)
                            for r in self.draws]
        return out


def _draw_json(r: DrawResult, digits: int) -> dict:
    return {"point": jsonable(r.point), "values": {k: decimal(v, digits) for k, v in r.values.items()},
            "quantity": decimal(r.quantity, digits), "bound": decimal(r.bound, digits),
            "margin": decimal(r.margin, digits), "error": decimal(r.error, digits),
            "verdict": r.verdict, "method": r.method, "certified": r.certified, "dps": r.dps, "found": r.found,
            "uncertified": r.uncertified, "tight_by": r.tight_by,
            "construction": r.construction}


def decimal(x, digits: int, error=None) -> Optional[str]:
    """A computed real as a decimal string with ``digits`` significant digits (``inf``, ``-inf``, ``nan`` as such), or
    with the digits its ``error`` leaves meaningful (two beyond, at most ``digits``): a margin decided at 20 digits
    is not written with 65.

    >>> decimal(mpmath.mpf(2) ** -60, 20), decimal(mpmath.mpf("-1e-400"), 5), decimal(-mpmath.inf, 5)
    ('0.00000000000000000086736173798840354721', '-1.0e-400', '-inf')
    >>> decimal(mpmath.mpf(-1) / 128, 65, error=mpmath.mpf("0.001")), decimal(2.5, 5), decimal(3, 5)
    ('-0.00781', '2.5', '3')

    An mpf is written from all its bits, whatever the precision of the caller (a report is written outside the
    working precision its values were computed at):

    >>> with mpmath.workdps(40):
    ...     third = mpmath.mpf(1) / 3
    >>> decimal(third, 40)
    '0.3333333333333333333333333333333333333333'
    """
    if x is None:
        return None
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return repr(x) if mpmath.isfinite(x) else str(mpmath.mpf(x))  # a double is its own shortest decimal
    if not isinstance(x, mpmath.mpf):
        # mpmath.mpf(x) rounds to the context's precision (53 bits outside a working precision): an mpf is kept as it
        # is, anything else is converted with the digits to be written
        with mpmath.workdps(max(digits, 15) + 10):
            x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        return str(x)
    if error is not None and x != 0 and mpmath.isfinite(error) and error > 0:
        digits = max(3, min(digits, int(mpmath.log10(abs(x) / error)) + 2))
    if x == 0 or mpmath.mpf(10) ** -30 < abs(x) < mpmath.mpf(10) ** 30:
        return mpmath.nstr(x, digits, strip_zeros=True, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)
    return mpmath.nstr(x, digits)


def jsonable(value):
    """Plain JSON values from a draw: mpf → float, tuples → lists, nested dicts kept."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, mpmath.mpf):
        return float(value) if mpmath.isfinite(value) else str(value)
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


class _Violated(Exception):
    def __init__(self, result: DrawResult):
        super().__init__(result.verdict)
        self.result = result


def convert_point(theorem: Theorem, raw: Mapping[str, Any]) -> dict:
    """Parameter values as mpf (integers stay int) at the working precision; structure passed through."""
    point = dict(raw)
    for p in theorem.parameters:
        if p.name not in raw:
            raise InvalidParameter(f"{theorem.id}: the point gives no value of parameter {p.name}")
        value = to_mpf(raw[p.name], p.name)
        if p.integer:
            if not (mpmath.isfinite(value) and value == mpmath.floor(value)):
                raise InvalidParameter(f"{theorem.id}: parameter {p.name} must be an integer, got {raw[p.name]!r}")
            value = int(value)
        point[p.name] = value
        if not p.contains(value):
            # a point outside the hypotheses would be checked against a statement that does not claim it
            raise InvalidParameter(f"{theorem.id}: parameter {p.name} = {mpmath.nstr(value, 10)} is outside "
                                   f"its domain {p.domain}")
    if theorem.conditions and not theorem.admits(point):
        raise InvalidParameter(f"{theorem.id}: the point does not satisfy the side conditions "
                               + ", ".join(str(c) for c in theorem.conditions))
    return point


def _margin(relation: str, q: mpmath.mpf, b: mpmath.mpf) -> mpmath.mpf:
    if relation in ("<=", "<"):
        return b - q
    if relation in (">=", ">"):
        return q - b
    if mpmath.isinf(q) and mpmath.isinf(b) and q == b:
        return mpmath.mpf(0)
    return -abs(q - b)


STRICT = ("<", ">")


def _construction(side) -> mpmath.mpf:
    """What the rounding of the laws' construction adds to a side's error (:class:`~symdp.statement.SideValue`)."""
    low, high = side.floored
    return max(side.value - low, high - side.value, side.error) - side.error


def _margin_interval(relation: str, low, high) -> tuple:
    """The interval of the margin (:func:`_margin`) from ``[low, high]``, that of the difference (:func:`_difference`):
    the same interval, but for ``==``, whose margin is ``-|bound - quantity|``.

    >>> _margin_interval("<=", -1, 2), _margin_interval("==", 1, 2), _margin_interval("==", -2, -1)
    ((-1, 2), (-2, -1), (-2, -1))
    >>> _margin_interval("==", -1, 3)
    (-3, 0)
    """
    if relation != "==" or high < 0:
        return low, high
    if low > 0:
        return -high, -low
    return -max(-low, high), 0


def _decide(relation: str, low, high) -> Optional[str]:
    """HOLDS or VIOLATED where an interval ``[low, high]`` that is proved to hold ``bound - quantity`` (for ``<=``
    and ``<``; ``quantity - bound`` for ``>=`` and ``>``; ``bound - quantity`` for ``==``) settles the relation, else
    None. A non-strict relation holds when the difference is proved ``>= 0`` (a divergence ``>= 0`` holds even where
    it is 0), a strict one when it is proved ``> 0``; a strict relation is violated when the difference is proved
    ``<= 0`` (a bound met with equality), an equality when the difference is proved nonzero.

    >>> _decide("<=", 0, 1), _decide("<", 0, 1), _decide("<", -1, 0), _decide("<=", -1, 0), _decide("==", 0, 0)
    ('holds', None, 'violated', None, None)
    """
    if relation == "==":
        return VIOLATED if low > 0 or high < 0 else None
    strict = relation in STRICT
    if low > 0 or (low == 0 and not strict):
        return HOLDS
    if high < 0 or (high == 0 and strict):
        return VIOLATED
    return None


def _difference(relation: str, q: Estimate, b: Estimate) -> tuple:
    """The interval of ``bound - quantity`` (``quantity - bound`` for ``>=``, ``>``) from two enclosures' floored
    intervals (:class:`~symdp.statement.SideValue`), rounded outward."""
    (q_low, q_high), (b_low, b_high) = q.floored, b.floored
    if relation in (">=", ">"):
        (q_low, q_high), (b_low, b_high) = (b_low, b_high), (q_low, q_high)
    return mpmath.fsub(b_low, q_high, rounding="f"), mpmath.fsub(b_high, q_low, rounding="c")


def evaluate_point(theorem: Theorem, raw: Mapping[str, Any], dps: int = DEFAULT_DPS,
                   certify: bool = True, cheap_first: bool = True) -> DrawResult:
    """Evaluate one draw and classify it: by enclosures at :data:`LOW_DPS` (unless ``cheap_first`` is False), then
    ``dps`` digits, where its quantities are certified (``certify``); otherwise, or where the enclosures leave it
    open, at ``dps`` and ``dps + GUARD_DPS`` digits with proofs waived (the engines skip what only an enclosure
    needs, :func:`symdp.precision.proofs`).

    ``cheap_first=False`` changes what the draw costs, not its verdict: balls that settle it at :data:`LOW_DPS` digits
    settle it at ``dps`` too, and a draw the balls leave open at ``dps`` is still tried at :data:`LOW_DPS` before the
    two precisions (a witness may enclose at 20 digits what it cannot at 50), so that the same draws are proved
    (:class:`LowDigits` decides when the cheap attempt is worth making)."""
    why = "not-attempted"
    if certify:
        # Enclosures are never attempted below LOW_DPS digits: a proof at 20 digits is as good as one at 5, and balls
        # of 5 digits are too wide to locate a crossing point or to decide anything.
        final_digits = max(dps, LOW_DPS)
        cheap = _cheap_attempt(theorem, dps)
        reasons = {}
        for digits in ((LOW_DPS, final_digits) if cheap and cheap_first else (final_digits, LOW_DPS) if cheap
                       else (final_digits,)):
            with working_precision(digits):
                q, b, values = theorem.measure(convert_point(theorem, raw))
                result = _certified_draw(theorem, raw, q, b, values, digits, final=digits == final_digits)
            if result is not None and result.verdict != INCONCLUSIVE:
                return result
            reasons[digits] = "undecided-by-enclosures" if result is not None else _not_enclosed(q, b)
            if result is None and digits == LOW_DPS:
                break   # no enclosure at 20 digits: none is sought at more
        # (the reason of the attempt at 20 digits where it had no enclosure, else of the final one: as in that order)
        low = reasons.get(LOW_DPS, "undecided-by-enclosures")
        why = low if low != "undecided-by-enclosures" else reasons.get(final_digits, low)
    with proofs(False):   # decided by two precisions: the engines skip what only a proof needs (a box search)
        return replace(_estimated_draw(theorem, raw, dps), uncertified=why)


UNCERTIFIED = {
    "quantity-not-enclosed": "the measured side is an estimate (quadrature, a search, a grid), not a certified ball",
    "bound-not-enclosed": "the bound side is not evaluated in balls (a function outside Arb, an estimated term)",
    "infinite-side": "a side is infinite: there is no ball to compare",
    "undecided-by-enclosures": "the balls overlap, or settle the relation by less than half the working digits of "
                               "laws whose construction was rounded (which the divergence may amplify beyond the "
                               "construction floor): decided by the two precisions instead",
    "not-attempted": "no enclosure was tried: the theorem's first draws had none",
}
"""Why a draw's verdict is not proved by enclosures: the code each uncertified draw carries (``uncertified``) and
``symdp verify --json`` counts per theorem, with what each means."""

TIGHT_BY = {
    "proved-equal": "both sides are the same exact ball (zero radius): equal, proved",
    "enclosures-overlap": "the two enclosures overlap, and each is narrower than the working precision relative to "
                          "the sides: equal to working precision, proved",
}
"""How a certified tight draw is proved tight (``tight_by`` of each draw, ``certified_tight`` per theorem in
``symdp verify --json``)."""

CONSTRUCTION = {
    "exact": "every law and number measured was built from the draw exactly (or no law was built): the enclosures "
             "hold the quantities of the draw itself",
    "rounded": "some law was built at working precision (a finite law's atoms e^eps/(1 + e^eps), say): the "
               "enclosures hold the laws as built, and inequalities are decided widened by the construction floor "
               "(symdp.statement.construction_floor), which is not proved",
}
"""How the laws of a certified draw were built (``construction`` of each draw and, counted, of each theorem in
``symdp verify --json``)."""


def _not_enclosed(q: Estimate, b: Estimate) -> str:
    """Which side kept a draw from being decided by enclosures (:data:`UNCERTIFIED`)."""
    if not q.certified:
        return "quantity-not-enclosed"
    if not b.certified:
        return "bound-not-enclosed"
    return "infinite-side"


def _provenance(side: Estimate) -> frozenset:
    """The methods a side rests on: every measurement's (:class:`~symdp.statement.SideValue`), else its own."""
    return getattr(side, "methods", None) or frozenset({side.method})


def _described(q: Estimate, b: Estimate) -> str:
    """How a draw's two sides were computed, as a report prints it (``certified, exact; bound: closed form``)."""
    quantity, bound = (", ".join(sorted(_provenance(side))) for side in (q, b))
    return quantity if quantity == bound else f"{quantity}; bound: {bound}"


def _cheap_attempt(theorem: Theorem, dps: int) -> bool:
    """Whether a certified draw of ``theorem`` may be tried at :data:`LOW_DPS` digits before ``dps``: not where they
    are the same, and not for an equality or a bound tight everywhere, which are settled only at the final
    precision."""
    return dps > LOW_DPS and theorem.relation != "==" and not theorem.tight_everywhere


class LowDigits:
    """Whether the cheap first attempt of a draw at :data:`LOW_DPS` digits pays, judged from a theorem's own earlier
    draws: an attempt that settles the draw saves the evaluation at the final digits, one that does not (balls too
    wide at 20 digits: a bound tight at the draws, a side that cancels) costs its own evaluation more. The attempt is
    made while at least half of the attempts made settled their draw (counted with two successes and one failure in
    advance), and once in :attr:`PROBE` draws otherwise, so that a theorem whose draws move where 20 digits settle
    them gets the attempt back. Decided by counts alone, never by time: a run stays the same for a seed.

    >>> low = LowDigits()
    >>> low.worth(), low.record(decided=False), low.worth(), low.record(decided=False), low.worth()
    (True, None, True, None, False)
    """

    PROBE = 10
    """One draw in this many makes the attempt whatever the record says."""

    def __init__(self) -> None:
        self.tried = self.decided = self.skipped = 0

    def worth(self) -> bool:
        if 2 * (self.decided + 2) >= self.tried + 3 or self.skipped + 1 >= self.PROBE:
            self.skipped = 0
            return True
        self.skipped += 1
        return False

    def record(self, decided: bool) -> None:
        self.tried += 1
        self.decided += decided


def _certified_draw(theorem: Theorem, raw, q, b, values, dps: int, final: bool) -> Optional[DrawResult]:
    """The draw decided by the enclosures ``q`` and ``b`` (None unless both are certified and finite): holds or
    violated where the difference of their floored intervals settles the relation (:func:`_decide`); at the
    ``final`` precision, tight where the two balls agree to working precision relative to the sides, or are exactly
    equal; INCONCLUSIVE otherwise (left to a retry, or to the estimated path)."""
    if not (q.certified and b.certified):
        return None
    relation = theorem.relation
    if not (mpmath.isfinite(q.value) and mpmath.isfinite(b.value)):
        return _certified_infinite_draw(theorem, raw, q, b, values, dps)
    margin = _margin(relation, q.value, b.value)
    # q ± e_q and b ± e_b enclose the sides *of the laws the witness built*. Those laws were built at working
    # precision (a finite law's atoms, e^eps/(1 + e^eps) say, are rounded numbers), which the enclosures cannot see;
    # the floored intervals widen every measurement by that rounding first (statement.construction_floor), each kept
    # in its domain, and decide the inequalities.
    size = max(q.size, b.size)
    relative = q.error + b.error + 4 * size * mpmath.mpf(10) ** (-dps)
    low, high = _difference(relation, q, b)
    margin_low, margin_high = _margin_interval(relation, low, high)
    error = max(abs(margin - margin_low), abs(margin_high - margin))
    half_digits = size * mpmath.mpf(10) ** (-(dps // 2))   # "equal to working precision", relative to the sides
    exact = q.error == 0 and b.error == 0 and margin == 0
    decided = _decide(relation, low, high)
    if (q.rounded or b.rounded) and abs(margin) <= half_digits and not exact and (
            relative < abs(margin) or decided is not None):
        # Decided by the balls, or apart by more than their widths, but by less than half the working digits of the
        # sides: the construction's rounding, amplified by the divergence (a Gaussian's rounded mean moves
        # e^{λ²Δ²/2σ²} by 2·log of it, relative; a chain's rounded step factor s moves s^{2T} by 2T of its rounding)
        # beyond the floor, may be all of it. Left to the two precisions of the estimated path, which see that
        # rounding change. (At an equality of bravo.tab1.r3, κ = β, T = 37, the floored balls were 5e-51 apart on
        # sides of 3.96, and the draw was reported violated, certified.)
        verdict = INCONCLUSIVE
    elif exact and relation not in STRICT and low == high == 0:
        verdict, error = TIGHT, mpmath.mpf(0)   # proved exactly equal: the laws were built exactly
    elif decided is not None:
        verdict = decided
    elif final and relation not in STRICT and (exact or (size > 0 and abs(margin) <= relative <= half_digits)):
        # Equal to working precision relative to the sides, as the estimated path would call it.
        verdict, error = TIGHT, relative
    else:
        verdict = INCONCLUSIVE
    return DrawResult(dict(raw), q.value, b.value, margin, error, verdict, "", relation, values, _described(q, b),
                      methods=_provenance(q), bound_methods=_provenance(b), certified=True, dps=dps,
                      construction="rounded" if q.rounded or b.rounded else "exact")


def _certified_infinite_draw(theorem: Theorem, raw, q, b, values, dps: int) -> Optional[DrawResult]:
    """A draw with a side that is a proved infinity (:class:`~symdp.statement.SideValue` certifies only an exact one)
    against a certified side: the same infinity on both sides is proved equal (tight; violated for a strict
    relation), an infinity against a finite ball decides the relation by its sign. None where a side is NaN."""
    if mpmath.isnan(q.value) or mpmath.isnan(b.value):
        return None
    relation = theorem.relation
    if q.value == b.value:
        verdict, margin = (VIOLATED if relation in STRICT else TIGHT), mpmath.mpf(0)
    else:
        margin = _margin(relation, q.value, b.value)
        verdict = _decide(relation, margin, margin)
    return DrawResult(dict(raw), q.value, b.value, margin, mpmath.mpf(0), verdict, "", relation, values,
                      _described(q, b), methods=_provenance(q), bound_methods=_provenance(b), certified=True, dps=dps,
                      construction="rounded" if q.rounded or b.rounded else "exact")


def _estimated_draw(theorem: Theorem, raw: Mapping[str, Any], dps: int) -> DrawResult:
    """Evaluate one draw at ``dps`` and ``dps + GUARD_DPS`` digits and classify it by estimated errors."""
    runs = []
    for digits in (dps, dps + GUARD_DPS):
        with working_precision(digits):
            point = convert_point(theorem, raw)
            runs.append(theorem.measure(point))
    (q1, b1, coarse), (q2, b2, values) = runs
    relation = theorem.relation
    with working_precision(dps + GUARD_DPS):
        # The margin comes from the more precise evaluation; the distance between the two evaluations (doubled,
        # for safety) bounds the error of the less precise one, and hence — the guard digits being at least as
        # good — of the margin. The witnesses' own estimates (quadrature, grids) are added on top.
        margin = _margin(relation, q2.value, b2.value)
        finite = all(mpmath.isfinite(x) for x in (q1.value, b1.value, q2.value, b2.value))
        if finite:
            size = max(q2.size, b2.size)
            error = q2.error + b2.error + 2 * (abs(q1.value - q2.value) + abs(b1.value - b2.value))
            error += 4 * size * mpmath.mpf(10) ** (-dps)
        else:
            error = mpmath.mpf(0)
            size = mpmath.inf
            if any(mpmath.isinf(x) != mpmath.isinf(y) or (mpmath.isinf(x) and x != y)
                   for x, y in ((q1.value, q2.value), (b1.value, b2.value))):
                margin = mpmath.nan  # infinite at one precision only: nothing can be concluded
        # Equal to the last bit at both precisions (two exact zeros, say): there is nothing smaller to compare with.
        exactly_equal = q1.value == b1.value and q2.value == b2.value
        # The two precisions see the rounding of the laws' construction where it moves a measurement; where no
        # measurement moves at all (atoms e^eps/(1 + e^eps) that are exactly 1/2 at both, for eps = 1e-42), it may
        # be the same rounding twice, so inequalities are decided against the error widened by that rounding at the
        # lower precision (statement.construction_floor).
        still = theorem.measured and all(coarse[str(a)] == values[str(a)] for a in theorem.measured)
        decisive = error + _construction(q1) + _construction(b1) if finite and still else error
        note = ""
        if mpmath.isnan(margin):
            verdict, note = INCONCLUSIVE, "a side evaluated to NaN"
        elif margin > decisive and relation != "==":
            verdict = HOLDS
        elif margin < -decisive or (not finite and margin == 0 and relation in STRICT):
            verdict = VIOLATED   # (an infinite quantity against an infinite bound fails a strict relation)
        elif relation in STRICT and (exactly_equal or abs(margin) <= decisive):
            verdict = INCONCLUSIVE
            note = (f"the sides agree to within the error {mpmath.nstr(decisive, 3)}: a strict relation needs them "
                    f"proved apart, and equality is not proved exact")
        elif exactly_equal or (abs(margin) <= error and size > 0 and error <= size * mpmath.mpf(10) ** (-(dps // 2))):
            verdict = TIGHT
        else:
            verdict = INCONCLUSIVE
            note = (f"|margin| {mpmath.nstr(abs(margin), 3)} is within the error {mpmath.nstr(error, 3)}"
                    + (" (the rounding of the laws' construction included)" if decisive > error else "")
                    + f", on sides of size {mpmath.nstr(size, 3)}")
            error = decisive
    return DrawResult(dict(raw), q2.value, b2.value, margin, error, verdict, note, relation, values,
                      _described(q2, b2), methods=_provenance(q2), bound_methods=_provenance(b2), dps=dps)


def verify(
    theorem: Theorem,
    examples: Optional[int] = None,
    dps: int = DEFAULT_DPS,
    seed: int = 0,
    on_draw: Optional[Callable[[DrawResult], None]] = None,
) -> Report:
    """Check a theorem (or a claim): its pinned instances first, then ``examples`` hypothesis draws steered towards
    the smallest relative margin (``hypothesis.target`` on each draw's closeness), then a local refinement from the
    closest draws (:func:`symdp.search.refine` over the scalar parameters and :func:`symdp.search.walk` over the
    numbers of a drawn structure, half each where a theorem has both: :func:`refinements` more evaluations, by
    default as many as bring the points to :data:`DEFAULT_POINTS`), every point of which is a draw. A point is
    measured once: hypothesis draws some twice (from other choices), and the refinement makes up for them (where it
    finds nothing new, a domain of integers is drawn out from the closest point outwards,
    :func:`symdp.search.lattice`, and any other drawn again by hypothesis under the next seeds,
    :data:`MAKE_UP_ROUNDS`), so that a report's draws are distinct points, at least :data:`DEFAULT_POINTS` of them by
    default.

    A violated draw stops the search; one drawn by hypothesis is shrunk, and the shrunk draw is the counterexample (one
    the refinement finds is the counterexample as found).
    """
    least = 0   # the points a run checks at least, pinned ones included: by default DEFAULT_POINTS
    if examples is None:
        examples = default_draws(theorem)
        least = DEFAULT_POINTS
    if isinstance(examples, bool) or not isinstance(examples, int) or examples < 0:
        raise SymdpError(f"examples must be a whole number >= 0, got {examples!r}")
    dps = check_dps(dps)
    start = time.perf_counter()
    if not theorem.numeric:
        return _verify_symbolic(theorem, dps, start)
    results: list[DrawResult] = []
    reason = ""

    def record(result: DrawResult, found: str) -> DrawResult:
        result = replace(result, found=found)
        results.append(result)
        if on_draw is not None:
            on_draw(result)
        return result

    low = LowDigits()

    def evaluate(raw, pinned: bool = False) -> DrawResult:
        # A theorem whose first draws have no enclosures will not get any: stop paying for the cheap attempt.
        misses = sum(not r.certified for r in results[:3])
        certify = misses < 3 or any(r.certified for r in results)
        # (pinned instances, tight points mostly, say nothing of what the cheap attempt does at the draws)
        cheap = pinned or low.worth()
        r = evaluate_point(theorem, raw, dps, certify=certify, cheap_first=cheap)
        if certify and not pinned and cheap and _cheap_attempt(theorem, dps):
            low.record(decided=r.certified and r.dps == LOW_DPS)
        return r

    # A point met again (hypothesis's mutations and hill climbing draw the same values from other choices, a
    # refinement may step back onto a draw or a pinned instance) is not measured again: it is one check, counted once,
    # and the search is told the closeness it had (None for a point not admitted).
    met: dict[str, Optional[DrawResult]] = {}

    counterexample = None
    pinned = tuple(theorem.tight_at) + tuple(theorem.examples)
    if theorem.erratum is not None and theorem.erratum.counterexample:
        pinned += (theorem.erratum.counterexample,)  # the recorded counterexample must keep refuting the print
    for raw in pinned:
        r = met[_draw_key(raw)] = record(evaluate(raw, pinned=True), "pinned")
        if r.verdict == VIOLATED and counterexample is None:
            counterexample = r

    free = bool(theorem.parameters) or theorem.structure is not None
    drawn_by: dict[int, Optional[Choices]] = {}   # a hypothesis draw's index in results -> its choices
    if counterexample is None and free and examples > 0:

        def once(raw, found: str, admissible: Callable[[Any], bool]) -> Optional[DrawResult]:
            """The draw's result, measured and recorded as ``found`` the first time the point is met (None where
            it is not ``admissible``); a violated one stops the search, every time (hypothesis shrinks it)."""
            key = _draw_key(raw)
            if key not in met:
                with working_precision(dps):
                    admitted = admissible(raw)
                met[key] = record(evaluate(raw), found) if admitted else None
            r = met[key]
            if r is not None and r.verdict == VIOLATED:
                raise _Violated(r)
            return r

        def search(raw):
            before = len(results)
            r = once(raw, hypothesis_phase(), theorem.admits)
            assume(r is not None)
            if theorem.structure is not None and len(results) > before:   # (only a walk over a structure reads them)
                drawn_by[before] = Choices.current()
            if r.closeness is not None:
                target(r.closeness, label="closeness to the bound")   # steer towards the smallest relative margin

        def refined(raw) -> Optional[float]:
            r = once(raw, "refined",
                     lambda raw: all(p.contains(raw[p.name]) for p in theorem.parameters) and theorem.admits(raw))
            return None if r is None else r.closeness

        try:
            run_search(theorem.strategy(), search, examples, seed)
            # the draws hypothesis repeated are made up for near the closest ones, as far as new points are found, and
            # a default run's points are topped up to DEFAULT_POINTS there: by the refinement of the scalar parameters
            # and a walk over the numbers of a drawn structure, half each where a theorem has both
            shortfall = max(0, examples - sum(r.found in ("random", "targeted") for r in results))
            budget = max(refinements(examples) + shortfall, least - len(results))
            spent = refine(theorem.parameters, _closest(results, REFINED_STARTS), refined,
                           budget if theorem.structure is None else budget // 2)
            if theorem.structure is not None:
                # (a walk on the choices of the closest hypothesis draws)
                walk(_closest_drawn(results, drawn_by, REFINED_STARTS), theorem.strategy(), refined, budget - spent,
                     seed=seed)
            # a small domain where the refinement finds nothing new either: a lattice of integers is drawn out from
            # the closest point outwards, as far as points are missing; any other, hypothesis draws again, under the
            # next seeds, as many as are missing
            if len(results) < least and theorem.structure is None and (closest := _closest(results, 1)):
                for raw in lattice(theorem.parameters, closest[0][0]) or ():
                    if len(results) >= least:
                        break
                    refined(raw)
            for more in range(1, MAKE_UP_ROUNDS + 1):
                before = len(results)
                missing = max(examples - sum(r.found != "pinned" for r in results), least - before)
                if missing <= 0:
                    break
                # (+ 1: a search starts at the simplest point, drawn already)
                run_search(theorem.strategy(), search, missing + 1, seed + more)
                if len(results) == before:
                    break   # nothing new: the domain is drawn out
        except _Violated as violation:
            counterexample = violation.result
        except (Unsatisfiable, FailedHealthCheck) as exc:
            reason = f"could not draw admissible parameters: {type(exc).__name__}"
    elif not free and not results:
        r = record(evaluate({}), "pinned")
        if r.verdict == VIOLATED:
            counterexample = r
    if not results and not reason:
        reason = ("nothing was checked: no draw was asked for (examples = 0) and the theorem has no pinned instance"
                  if examples == 0 else "no admissible draw")

    report = summarize(theorem.id, results, counterexample, dps, time.perf_counter() - start, reason)
    report.evidence = theorem.evidence
    report.domain_limits = theorem.domain_limits()
    if theorem.evidence == INDEPENDENT and Method.CLOSED_FORM in report.methods | report.bound_methods:
        # The engine reached a closed form of a divergence, on either side: whatever the theorem declares, this run's
        # evidence is a formula, and saying "independent" would be the tautology the label exists to rule out.
        report.evidence = CLOSED_FORM
    return report


def _draw_key(raw) -> str:
    """A draw as a key that two equal draws share: dicts by sorted keys (hypothesis and the walk build them in
    different orders), lists as tuples, floats by their repr (exact).

    >>> _draw_key({"b": [0.5, 1], "a": {"y": 2, "x": 0.1}}) == _draw_key({"a": {"x": 0.1, "y": 2}, "b": (0.5, 1)})
    True
    """
    def canonical(value):
        if isinstance(value, Mapping):
            return tuple(sorted((str(k), canonical(v)) for k, v in value.items()))
        if isinstance(value, (list, tuple)):
            return tuple(canonical(v) for v in value)
        return value

    return repr(canonical(raw))


def run_search(strategy, test: Callable[[Any], None], examples: int, seed: int) -> None:
    """Hypothesis's search as :func:`verify` runs it: ``examples`` draws of ``strategy`` passed to ``test``, from
    ``seed``, steered by the ``target`` calls ``test`` makes, shrunk on a failure, outside the caller's hypothesis
    context and example database (:func:`detached_hypothesis`). ``benchmarks/bench_draws.py`` times it beside the
    ``test`` it runs: what drawing costs."""
    with detached_hypothesis():
        hypothesis_seed(seed)(settings(
            max_examples=examples, database=None, deadline=None, derandomize=False,
            phases=(Phase.explicit, Phase.generate, Phase.target, Phase.shrink), print_blob=False,
            report_multiple_bugs=False, suppress_health_check=[HealthCheck.too_slow],
        )(given(strategy)(test)))()


DEFAULT_POINTS = 100
"""The distinct points a theorem is checked at by default, at least: pinned, drawn and refined together."""

DEFAULT_DRAWS = 75
"""Hypothesis's draws of a default run, where the theorem does not declare its own (``default_examples``: more for a
cheap theorem on a large domain, fewer for an expensive one); the refinement steered towards the smallest margin
tops them up to :data:`DEFAULT_POINTS`, where a quarter of the points is spent best (it is where a bound is closest
to failing)."""


def default_draws(theorem: Theorem) -> int:
    """How many hypothesis draws a default run of ``theorem`` makes: its ``default_examples``, else
    :data:`DEFAULT_DRAWS`."""
    return theorem.default_examples or DEFAULT_DRAWS


MAKE_UP_ROUNDS = 5
"""At most how many more hypothesis searches, under the next seeds, make up for the points drawn twice where the
refinement could not (:func:`verify`); they stop at one that finds nothing new."""

REFINED_STARTS = 2
"""How many of the closest draws the local refinement starts from."""


def refinements(examples: int) -> int:
    """The local refinement's budget of evaluations after ``examples`` draws: a quarter more, at least 4 (none where
    no draw was asked for)."""
    return 0 if examples <= 0 else max(4, examples // 4)


def _closest_drawn(results: list[DrawResult], drawn_by: Mapping[int, Any], count: int) -> list[tuple[Any, float]]:
    """The choices of the ``count`` hypothesis draws closest to the bound (distinct points), closest first, with
    their closeness."""
    ranked = sorted(((r.closeness, i) for i, r in enumerate(results) if i in drawn_by and r.closeness is not None),
                    reverse=True)
    out, seen = [], []
    for c, i in ranked:
        if drawn_by[i] is not None and results[i].point not in seen:
            out.append((drawn_by[i], c))
            seen.append(results[i].point)
        if len(out) == count:
            break
    return out


def _closest(results: list[DrawResult], count: int) -> list[tuple[dict, float]]:
    """The points of the ``count`` draws closest to refuting the statement, with their closeness, closest first;
    one per point."""
    ranked = sorted((r for r in results if r.closeness is not None and r.verdict in (HOLDS, TIGHT)),
                    key=lambda r: -r.closeness)
    out: list[tuple[dict, float]] = []
    for r in ranked:
        if all(dict(r.point) != p for p, _ in out):
            out.append((dict(r.point), r.closeness))
        if len(out) == count:
            break
    return out


@contextmanager
def detached_hypothesis() -> Iterator[None]:
    """Run symdp's search as Hypothesis's own, whatever runs around it: files in a temporary directory, outside any
    test of the caller's.

    * Hypothesis writes its cache files (the constants it reads from local modules) under ``./.hypothesis`` of the
      working directory, which is the user's; symdp's searches need no example database (:func:`verify` runs
      without one), so they go to a temporary directory, and the previous one is restored on exit.
    * :func:`verify` may run inside a user's own hypothesis test (a property of their bounds, or symdp's fuzzer):
      there Hypothesis would refuse the inner search as a nested ``@given``, and a refuted search would leave its
      counterexample on the user's test, for which the pytest plug-in then proposes a patch. The search runs outside
      the caller's test context and pytest item (Hypothesis's own context variables, not public API; without them,
      at worst the search is refused as nested).
    * Hypothesis mixes into its draws numeric constants it finds in the *local* modules loaded in the process (the
      user's code, a test suite, symdp itself when installed editable), so one seed would draw differently in a
      fresh interpreter, in a pytest worker that has imported other test modules, or after an edit of any local
      source. symdp's searches draw from their strategies and the seed alone (:func:`_without_local_constants`).
    """
    from hypothesis import configuration

    detached = contextlib.ExitStack()
    try:
        from hypothesis.control import _current_build_context
        from hypothesis.core import current_pytest_item

        detached.enter_context(_current_build_context.with_value(None))
        detached.enter_context(current_pytest_item.with_value(None))
    except (ImportError, AttributeError):  # pragma: no cover - another version of hypothesis
        pass
    detached.enter_context(_without_local_constants())
    previous = configuration.storage_directory(intent_to_write=False).home_directory
    with tempfile.TemporaryDirectory(prefix="symdp-hypothesis-") as scratch, detached:
        configuration.set_hypothesis_home_dir(scratch)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(previous)


@contextmanager
def _without_local_constants() -> Iterator[None]:
    """Hypothesis's generator with no constants of local modules (see :func:`detached_hypothesis`); its own fixed
    constants stay. Its cache of permitted constants is emptied on entry and on exit, so that neither the caller's
    constants reach symdp's draws nor the other way round. (Hypothesis internals; a version without them has no
    local constants to remove.)"""
    try:
        from hypothesis.internal.conjecture import providers

        empty, cache, original = providers.Constants(), providers.CONSTANTS_CACHE.cache, providers._get_local_constants
    except (ImportError, AttributeError):  # pragma: no cover - a version of hypothesis without local constants
        yield
        return
    cache.clear()
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = original
        cache.clear()


def _verify_symbolic(theorem: Theorem, dps: int, start: float) -> Report:
    """A theorem without numeric witness: holds if its derivation checks exactly, else inconclusive with the reason."""
    from symdp.derivation import DerivationError

    derivation = theorem.derivation
    why = theorem.symbolic_only or theorem.evidence_note
    if derivation is None:
        verdict, reason = INCONCLUSIVE, f"symbolic only, no numeric check: {why}"
    else:
        try:
            derivation.check()
            verdict, reason = HOLDS, f"identity: derivation '{derivation.title}' checked exactly by SymPy"
        except DerivationError as exc:
            verdict, reason = INCONCLUSIVE, f"identity ({why}); derivation not confirmed: {exc}"
    return Report(theorem.id, verdict, 0, 0, None, None, dps, time.perf_counter() - start, reason,
                  evidence=theorem.evidence)


def _settle(draw: DrawResult, dps: int) -> str:
    """What might settle an inconclusive draw: more digits (as many as its margin suggests, at least twice as
    many), up to :data:`~symdp.precision.MAX_DPS`."""
    if draw.margin == 0 and draw.relation in STRICT:
        return ("the sides are equal to the last digit: a strict relation is refuted only by a proved equality "
                "(laws built exactly, quantities in ball arithmetic), and more digits will not separate them")
    if mpmath.isnan(draw.margin):
        return "a side is undefined (NaN) or infinite at one precision only there: more digits will not help"
    digits = int(-mpmath.log10(max(abs(draw.margin), mpmath.mpf(10) ** (-dps * 4)))) + 10
    wanted = max(2 * dps, digits)
    if dps >= MAX_DPS:
        return f"not settled at the largest precision symdp accepts ({MAX_DPS} digits)"
    return f"try --dps {min(wanted, MAX_DPS)}"


def summarize(ident, results, counterexample, dps, seconds, reason="") -> Report:
    if not results:
        return Report(ident, INCONCLUSIVE, 0, 0, None, None, dps, seconds, reason or "no admissible draw")
    finite = [r for r in results if not mpmath.isnan(r.margin)]
    worst = counterexample or (min(finite, key=lambda r: r.margin) if finite else results[0])
    tight = sum(r.verdict == TIGHT and not r.at_zero for r in results)
    ratios = [r.ratio for r in results if r.ratio is not None]
    worst_ratio = max(ratios) if ratios else None
    if counterexample is not None:
        verdict = VIOLATED
    elif all(r.verdict in (HOLDS, TIGHT) for r in results):
        verdict = HOLDS
    else:
        verdict = INCONCLUSIVE
        bad = [r for r in results if r.verdict == INCONCLUSIVE]
        worst = max(bad, key=lambda r: r.error)
        reason = reason or f"{len(bad)} of {len(results)} draws inconclusive ({bad[0].note}); {_settle(worst, dps)}"
    return Report(ident, verdict, len(results), tight, worst,
                  None if counterexample is None else counterexample.point, dps, seconds, reason, worst_ratio,
                  results)
