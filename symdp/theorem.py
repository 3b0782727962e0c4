"""The theorem model: one result of a paper, with its hypotheses, statement, witness, evidence, tightness, erratum.

A :class:`Theorem` reads like the paper: its ``id`` is the catalogue's (``dwork.lem3.10``) and ``number`` the paper's
own (``"Lemma 3.10"``; the paper, its citation and its default evidence come from the ID's prefix,
:data:`symdp.citations.PAPERS`; a result outside the catalogue gives ``source=Source(origin, number)``),
``parameters`` are the symbols with their mathematical domains (and the finite ranges the checker draws from),
``conditions`` are the side conditions, ``setting`` is what else is drawn (a :class:`Setting`: strategy,
construction and LaTeX in one object), ``statement`` is a SymPy relation — the one that prints and the one that is
evaluated. What the statement names is measured: concrete laws (``Renyi(Gaussian(Delta, sigma), …)``, or printed
heads mapped to them by ``measured_as``) by the engine, anything structural by the ``witness``. ``tight_at`` lists
the instances where it is an equality. Where the paper printed it wrong, the statement as printed is a keyword of
the result that corrects it (``printed=Printed(...)``): both are registered, the printed one with an
:class:`Erratum` that says so.

The catalogue declares each result once, with :func:`theorem` on its witness (the docstring becomes the notes, and
the declaration registers it):

>>> import sympy as sp
>>> from symdp.theorem import Param, Source, theorem
>>> x = sp.Symbol("x", positive=True)
>>> S = sp.Symbol("S")
>>> @theorem(id="demo.amgm", title="AM-GM for two numbers", source=Source("none", "folklore"),
...          parameters=(Param(x, sp.Interval.open(0, sp.oo), sample=(0.01, 100)),),
...          statement=sp.Ge(S, 2), evidence="independent", tight_at=({"x": 1},), register=False)
... def amgm(point):
...     '''S = x + 1/x, summed at working precision.'''
...     return {S: point["x"] + 1 / point["x"]}
>>> amgm.notes
'S = x + 1/x, summed at working precision.'
>>> amgm.tightened(0.99).statement
S >= 2.02
"""

from __future__ import annotations

import inspect
import json
import math
from fractions import Fraction
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional

import mpmath
import sympy as sp

from symdp.citations import Source  # noqa: F401 (re-exported: declarations of users' own theorems name it)
from symdp.errors import InvalidParameter, SymdpError, reason
from symdp.estimate import Estimate
from symdp.numeric import to_mpf
from symdp.statement import CompiledStatement, lambdify_mpmath  # noqa: F401 (lambdify_mpmath: re-exported)

if TYPE_CHECKING:   # hypothesis is imported where draws are made: evaluating a claim (symdp eval) never draws
    from hypothesis import strategies as st

Point = Mapping[str, Any]
"""One draw: parameter values by symbol name (mpf at the working precision) and any drawn structure."""


@lru_cache(maxsize=None)
def _numeric_interval(domain: sp.Set, prec: int) -> Optional[tuple]:
    """(low, high, left_open, right_open) of an interval with numeric ends, as mpf correctly rounded to ``prec`` bits
    (as a parameter's value is), ±inf included; else None."""
    if not (isinstance(domain, sp.Interval) and domain.inf.is_number and domain.sup.is_number):
        return None
    def end(x):
        if x.is_infinite:
            return mpmath.inf if x > 0 else -mpmath.inf
        with mpmath.workprec(prec):
            if isinstance(x, sp.Float) and x._prec <= 53:     # a double typed as an end means its decimal, as a
                return to_mpf(float(x), "domain end")            # value typed as a double does (to_mpf)
            return mpmath.mpf(str(x.evalf(mpmath.libmp.prec_to_dps(prec) + 15)))
    return end(domain.inf), end(domain.sup), bool(domain.left_open), bool(domain.right_open)


@lru_cache(maxsize=4096)
def _sympy_contains(domain: sp.Set, value, integer: bool) -> bool:
    """Whether SymPy does not decide ``value`` (an int, or a float as its decimal) to lie outside ``domain``; kept per
    value: a refinement asks again for the integers it steps on, and SymPy's ``contains`` costs a millisecond."""
    return domain.contains(sp.Integer(value) if integer else sp.Float(str(value), 30)) != sp.false


@dataclass(frozen=True)
class Param:
    """A parameter symbol with its mathematical domain and the finite range the checker draws from.

    ``domain`` is a SymPy set (``Interval.Lopen(1, oo)`` for a Rényi order); ``sample`` is the (low, high) range of
    draws inside it, needed when the domain is unbounded. Integer parameters are drawn as integers.
    """

    symbol: sp.Symbol
    domain: sp.Set
    sample: Optional[tuple[float, float]] = None
    log: bool = False
    """Draw on a log scale as well as a linear one (scales, step sizes, horizons spanning decades): half the draws
    are log-uniform-ish over the range, so that both of its ends are reached. Needs a range inside (0, oo)."""
    limit: str = ""
    """Why the draw range stops short of the domain, where it does (``"n beyond 12: the law has 2^n atoms"``): the
    part of the stated domain that is not checked, said as data (:meth:`reach`, ``symdp show``, the JSON)."""

    def __post_init__(self):
        if self.log:
            low, high = self.bounds()
            if not 0 < low < high:
                raise InvalidParameter(f"parameter {self.name}: a log-scale range needs 0 < low < high, got "
                                       f"({low}, {high})")

    @property
    def name(self) -> str:
        return self.symbol.name

    @cached_property   # (read at every draw; SymPy's subset test costs a millisecond)
    def integer(self) -> bool:
        """Integer-valued: the symbol says so, or the domain is a set of integers (``Range``, ``Naturals``)."""
        return bool(self.symbol.is_integer) or bool(self.domain.is_subset(sp.S.Integers))

    def bounds(self) -> tuple[float, float]:
        if self.sample is not None:
            return self.sample
        inf, sup = self.domain.inf, self.domain.sup
        if not (inf.is_finite and sup.is_finite):
            raise InvalidParameter(f"parameter {self.name} has unbounded domain {self.domain}: give a sample range")
        return float(inf), float(sup)

    def strategy(self) -> st.SearchStrategy:
        from hypothesis import strategies as st

        low, high = self.bounds()
        if self.integer:
            first, last = int(mpmath.ceil(low)), int(mpmath.floor(high))
            linear = st.integers(first, last)
            if not self.log:
                return linear
            logs = st.floats(math.log(first), math.log(last)).map(lambda x: min(max(round(math.exp(x)), first), last))
            return st.one_of(linear, logs)
        interval = isinstance(self.domain, sp.Interval)
        exclude_min = bool(interval and self.domain.left_open and low == float(self.domain.inf))
        exclude_max = bool(interval and self.domain.right_open and high == float(self.domain.sup))
        linear = st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False,
                           exclude_min=exclude_min, exclude_max=exclude_max)
        if not self.log:
            return linear
        # exp(log(x)) need not give x back: clamped into the range, and an excluded end is left out after the map
        logs = st.floats(math.log(low), math.log(high)).map(lambda x: min(max(math.exp(x), low), high))
        return st.one_of(linear, logs.filter(lambda x: not ((exclude_min and x == low) or (exclude_max and x == high))))

    def reach(self) -> Optional[str]:
        """Where the draws stop short of the stated domain: ``None`` where the draw range reaches both of its ends (an
        open end counts as reached: the draws leave it out), else the range checked against the range stated, with
        the reason (:attr:`limit`). An unbounded end is never reached.

        >>> Param(sp.Symbol("s", positive=True), sp.Interval.open(0, sp.oo), sample=(0.1, 5)).reach()
        's drawn in [0.1, 5] of Interval.open(0, oo)'
        """
        if self.sample is None:
            return None
        low, high = self.sample
        inf, sup = self.domain.inf, self.domain.sup
        if (inf.is_finite and low <= float(inf)) and (sup.is_finite and high >= float(sup)):
            return None
        text = f"{self.name} drawn in [{low:g}, {high:g}] of {self.domain}"
        return f"{text}: {self.limit}" if self.limit else text

    def ends(self) -> tuple:
        """The ends of the draw range that the domain contains (an open end is left out), as drawn: ints for an
        integer parameter, else floats.

        >>> Param(sp.Symbol("s"), sp.Interval(1, 2)).ends(), Param(sp.Symbol("a"), sp.Interval.Lopen(1, 2)).ends()
        ((1.0, 2.0), (2.0,))
        """
        low, high = self.bounds()
        ends = (int(mpmath.ceil(low)), int(mpmath.floor(high))) if self.integer else (low, high)
        return tuple(dict.fromkeys(e for e in ends if self.contains(e)))

    def contains(self, value) -> bool:
        """Whether ``value`` may lie in the domain: False only where SymPy decides it lies outside (a domain whose ends
        name other parameters is decided by the statement's own hypotheses, not here). An interval with numeric ends
        is decided in mpmath (every point a check evaluates passes here)."""
        ends = _numeric_interval(self.domain, mpmath.mp.prec)
        if ends is not None and not self.integer:
            low, high, left_open, right_open = ends
            v = +mpmath.mpf(value)
            return (v > low if left_open else v >= low) and (v < high if right_open else v <= high)
        return _sympy_contains(self.domain, value, self.integer)

    def latex(self) -> str:
        from symdp.latex import latex

        return rf"{latex(self.symbol)} \in {latex(self.domain)}"


ERRATUM_KINDS = ("erratum", "conjecture", "sharpness")
SEVERITIES = {
    "mathematics": "the printed statement is false and its correction changes the mathematics",
    "missing-hypothesis": "false only outside an obvious hypothesis the paper leaves unsaid (t >= 0, say)",
    "typo": "a misprint: the intended statement is clear from the context and holds",
}
"""How much an erratum matters; ``symdp errata`` counts distinct errors by severity."""


@dataclass(frozen=True)
class Erratum:
    """A printed statement that is wrong: where, what was printed, the correction, and a counterexample.

    ``corrected_id`` names the theorem that encodes the corrected statement. ``kind`` says what is refuted:
    ``"erratum"``, a statement the paper claims; ``"conjecture"``, one it only suspects (refuting it is a finding,
    not an error of the paper); ``"sharpness"``, a deliberately weakened copy of a true theorem (a relaxed
    hypothesis), whose refutation shows the printed hypothesis cannot be relaxed. ``severity`` (see
    :data:`SEVERITIES`) says how much it matters. Where one error of the paper shows in several printed statements,
    each is refuted on its own, and all but the first name it in ``same_as`` (its theorem ID), so that the errata
    list counts distinct errors.
    """

    location: str
    printed: str
    corrected: str
    counterexample: Mapping[str, Any]
    corrected_id: Optional[str] = None
    note: str = ""
    kind: str = "erratum"
    severity: str = "mathematics"
    same_as: Optional[str] = None

    def __post_init__(self):
        if self.kind not in ERRATUM_KINDS:
            raise InvalidParameter(f"Erratum.kind must be one of {ERRATUM_KINDS}, got {self.kind!r}")
        if self.severity not in SEVERITIES:
            raise InvalidParameter(f"Erratum.severity must be one of {', '.join(SEVERITIES)}, got {self.severity!r}")


@dataclass(frozen=True)
class Setting:
    """What a theorem's draws range over besides its parameters, as one object: the ``strategy`` that draws it (a
    callable giving a Hypothesis strategy, so that it is built lazily), the ``build`` that turns a draw into the
    objects the witness measures (a chain's parameters, a coupling), and the ``latex`` that describes it, so that
    what prints and what is drawn cannot drift apart. A setting with no strategy describes laws fixed by the
    parameters (a random walk started at ``±D/2``).

    >>> walk = Setting("$X_{t+1} = X_t + Z_t$")
    >>> walk.where(", $X_0 = D/2$").latex
    '$X_{t+1} = X_t + Z_t$, $X_0 = D/2$'
    """

    latex: str
    strategy: Optional[Callable[[], st.SearchStrategy]] = None
    build: Optional[Callable[[Any], Any]] = None

    def where(self, more: str) -> "Setting":
        """The same draws, described with more LaTeX (the definitions one result adds)."""
        return replace(self, latex=self.latex + more)

    def __call__(self, point: Point) -> Any:
        """The objects a draw stands for: ``build`` of the draw's structure."""
        if self.build is None:
            raise InvalidParameter("this setting builds nothing: give Setting(build=...)")
        return self.build(point["structure"])


@dataclass(frozen=True)
class Printed:
    """A statement as the paper printed it, declared on the result that corrects it (``printed=Printed(...)``): the
    corrected result and the printed one are registered together, the printed one as a theorem of its own that the
    checker is expected to refute (its :class:`Erratum` is derived from both). Everything not given here is the
    corrected theorem's; ``changes`` replaces more of its fields (a witness, parameters, examples) where the printed
    form needs them.

    ``kind`` and ``severity`` are those of :class:`Erratum`; ``printed`` and ``corrected`` are the LaTeX the erratum
    shows, by default the two statements themselves.
    """

    id: str
    statement: Optional[sp.core.relational.Relational] = None
    location: str = ""
    counterexample: Mapping[str, Any] = field(default_factory=dict)
    severity: str = "mathematics"
    kind: str = "erratum"
    note: str = ""
    same_as: Optional[str] = None
    title: str = ""
    number: str = ""
    printed: str = ""
    corrected: str = ""
    changes: Mapping[str, Any] = field(default_factory=dict)

    def theorem(self, corrected: "Theorem") -> "Theorem":
        """The printed result as a theorem: ``corrected`` with this statement, title, number and erratum."""
        from symdp.latex import latex

        statement = self.statement if self.statement is not None else corrected.statement
        erratum = Erratum(location=self.location, printed=self.printed or f"${latex(statement)}$",
                          corrected=self.corrected or f"${latex(corrected.statement)}$",
                          counterexample=self.counterexample, corrected_id=corrected.id, note=self.note,
                          kind=self.kind, severity=self.severity, same_as=self.same_as)
        fields = dict(id=self.id, title=self.title or corrected.title, statement=statement, erratum=erratum,
                      number=self.number or corrected.number, tight_at=(), tight_everywhere=False, examples=(),
                      printed=(), _compiled=None, _laws=None)
        if self.number:
            fields["source"] = None   # derived again from the printed number
        if "setting" in self.changes:
            fields.update(structure=None, structure_latex="")   # derived again from the printed form's setting
        if "witness" in self.changes and "notes" not in self.changes:
            fields["notes"] = inspect.cleandoc(self.changes["witness"].__doc__ or "")   # as @theorem takes them
        fields.update(self.changes)
        return replace(corrected, **fields)


INDEPENDENT, CLOSED_FORM, IDENTITY, SYMBOLIC = "independent", "closed-form", "identity", "symbolic"
EVIDENCE = {
    INDEPENDENT: "the measured quantities are computed from the distributions themselves (exact finite sums, "
                 "quadrature or CDFs of densities, binning, the exact law of a chain), never from a closed form of "
                 "the divergence the statement bounds",
    CLOSED_FORM: "a closed form compared with another: the paper's claim is itself an algebraic relation between "
                 "closed forms, evaluated numerically at the draws",
    IDENTITY: "true by construction: proved exactly by a SymPy derivation, no draws",
    SYMBOLIC: "no numeric witness exists (an asymptotic or qualitative statement): not checked",
}
"""The kinds of evidence a verdict can stand on, and what each means."""


@dataclass(frozen=True)
class Theorem:
    """One quantitative result, checkable by :func:`symdp.verify.verify`.

    The statement is the single source of the bound: at each draw ``witness(point)`` *measures* what the statement
    names that is not a parameter (its divergence heads, and derived symbols such as the ε of a drawn pair; see
    :mod:`symdp.statement`), returning a dict ``atom -> value`` (or the value alone when there is one atom), and both
    sides are evaluated from the SymPy relation, lambdified to mpmath once.

    ``evidence`` says what kind of check stands behind the verdict (:data:`EVIDENCE`): ``"independent"`` or
    ``"closed-form"`` (with ``evidence_note`` saying why a closed form is the paper's claim) for numeric theorems;
    ``"identity"`` for a statement true by construction, proved by ``derivation`` (a
    :class:`~symdp.derivation.Derivation`) instead of draws; ``"symbolic"`` for a statement with no numeric witness
    (an asymptotic Õ-bound), with the reason in ``symbolic_only``. A theorem with ``symbolic_only`` set and a
    derivation is an identity.
    """

    id: str
    title: str
    source: Optional[Source] = None
    statement: sp.core.relational.Relational = None
    witness: Optional[Callable[[Point], Any]] = None
    number: str = ""
    """The paper's own number (``"Lemma 3.10"``, ``"appendix, Lemma 9"``): with an ID of a catalogued paper
    (:data:`symdp.citations.PAPERS`, by its prefix) it gives the ``source``, which need not be written."""
    setting: Optional[Setting] = None
    """What the draws range over besides the parameters (:class:`Setting`): its strategy and its LaTeX."""
    measured_as: Mapping[sp.Basic, sp.Basic] = field(default_factory=dict)
    """Printed heads mapped to the concrete laws that measure them (``R(μK‖νK)`` as ``Renyi(Gaussian(Δ, s), …)``)."""
    printed: Any = ()
    """The statements as printed that this result corrects (a :class:`Printed` or several): registered with it."""
    parameters: tuple[Param, ...] = ()
    conditions: tuple[sp.Basic, ...] = ()
    structure: Optional[Callable[[], st.SearchStrategy]] = None
    structure_latex: str = ""
    quantity_latex: str = ""
    tight_at: tuple[Mapping[str, Any], ...] = ()
    tight_everywhere: bool = False
    examples: tuple[Mapping[str, Any], ...] = ()
    erratum: Optional[Erratum] = None
    notes: str = ""
    default_examples: Optional[int] = None
    symbolic_only: str = ""
    derivation: Any = None
    evidence: str = ""
    evidence_note: str = ""
    _compiled: Any = field(default=None, compare=False, repr=False)
    _laws: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        self._declared()
        if not isinstance(self.statement, (sp.Le, sp.Ge, sp.Eq, sp.Lt, sp.Gt)):
            raise InvalidParameter(f"{self.id}: statement must be a SymPy relation (<=, <, >=, >, ==), got "
                                   f"{self.statement}")
        if self.evidence and self.evidence not in EVIDENCE:
            raise InvalidParameter(f"{self.id}: evidence must be one of {', '.join(EVIDENCE)}, got {self.evidence!r}")
        if self.symbolic_only or self.evidence in (IDENTITY, SYMBOLIC):
            kind = IDENTITY if self.derivation is not None else SYMBOLIC
            if self.evidence and self.evidence != kind:
                raise InvalidParameter(f"{self.id}: evidence {self.evidence!r} needs "
                                       + ("a derivation" if self.evidence == IDENTITY else "no derivation"))
            object.__setattr__(self, "evidence", kind)
            if not (self.symbolic_only or self.evidence_note):
                raise InvalidParameter(f"{self.id}: say why there is no numeric check (symbolic_only=reason)")
            if self.witness is not None:
                raise InvalidParameter(f"{self.id}: a {kind} theorem has no witness")
            if self.derivation is not None and not callable(getattr(self.derivation, "check", None)):
                raise InvalidParameter(f"{self.id}: derivation must be a symdp.derivation.Derivation")
            if self.tight_at or self.tight_everywhere:
                raise InvalidParameter(f"{self.id}: a {kind} theorem has no tight draws")
            return
        if self.derivation is not None:
            raise InvalidParameter(f"{self.id}: derivation= is for identities (evidence='identity')")
        if self.evidence == CLOSED_FORM and not self.evidence_note:
            raise InvalidParameter(f"{self.id}: closed-form evidence needs evidence_note= saying why the paper's "
                                   f"claim is itself a relation between closed forms")
        compiled = CompiledStatement(self.statement, [p.symbol for p in self.parameters])
        self._measure_laws(compiled.measured)
        if self._hand_measured(compiled.measured) and self.witness is None:
            raise InvalidParameter(f"{self.id}: the statement names "
                                   f"{', '.join(map(str, self._hand_measured(compiled.measured)))}, which are not "
                                   f"parameters: a witness must measure them")
        object.__setattr__(self, "_compiled", compiled)

    def _declared(self) -> None:
        """Fill in what the declaration leaves to the paper and the setting: the source from the ID's prefix and
        the paper's own number, the paper's default evidence, the drawn structure and its LaTeX."""
        from symdp.citations import PAPERS

        paper = PAPERS.get(self.id.partition(".")[0])
        if self.source is None:
            if paper is None or not self.number:
                raise InvalidParameter(f"{self.id}: give source=Source(origin, number) (or, for a result of a "
                                       f"catalogued paper, its ID prefix and number=)")
            object.__setattr__(self, "source", paper.source(self.number))
        if not self.evidence and paper is not None and not self.symbolic_only and self.derivation is None:
            object.__setattr__(self, "evidence", paper.evidence)
        if self.setting is not None:
            if self.structure not in (None, self.setting.strategy) or self.structure_latex not in (
                    "", self.setting.latex):
                raise InvalidParameter(f"{self.id}: a setting= holds the structure and its LaTeX; give one or the "
                                       f"other")
            object.__setattr__(self, "structure", self.setting.strategy)
            object.__setattr__(self, "structure_latex", self.setting.latex)
        printed = self.printed if isinstance(self.printed, tuple) else (self.printed,)
        if any(not isinstance(p, Printed) for p in printed):
            raise InvalidParameter(f"{self.id}: printed= takes Printed(...) declarations")
        object.__setattr__(self, "printed", printed)

    def _measure_laws(self, measured) -> None:
        """A witness of the engine's for the heads that name concrete laws, directly or through ``measured_as``,
        measured from the densities for an independent check and by any route otherwise."""
        from symdp.laws import LawWitness, concrete

        printed = [a for a in measured if concrete(self.measured_as.get(a, a))]
        unknown = [a for a in self.measured_as if a not in measured]
        if unknown:
            raise InvalidParameter(f"{self.id}: measured_as names {', '.join(map(str, unknown))}, which the "
                                   f"statement does not measure")
        if printed:
            method = "densities" if self.evidence == INDEPENDENT else "auto"
            laws = LawWitness([self.measured_as.get(a, a) for a in printed], self.parameters, method=method,
                              printed=printed)
            object.__setattr__(self, "_laws", laws)

    def _hand_measured(self, measured) -> tuple:
        """What the hand witness must measure: what the engine does not."""
        return tuple(a for a in measured if self._laws is None or a not in self._laws.heads)

    @property
    def numeric(self) -> bool:
        """Whether the theorem is checked by draws (independent or closed-form evidence)."""
        return self.evidence not in (IDENTITY, SYMBOLIC)

    @property
    def measured(self) -> tuple[sp.Basic, ...]:
        """What the witness measures: the statement's divergence heads and derived symbols."""
        return () if self._compiled is None else self._compiled.measured

    # --- drawing -----------------------------------------------------------------------------------------
    def strategy(self) -> st.SearchStrategy:
        """Draws: a dict of parameter values (plain floats / ints) and, if given, a ``structure`` entry."""
        from hypothesis import strategies as st

        parts = {p.name: p.strategy() for p in self.parameters}
        if self.structure is not None:
            parts["structure"] = self.structure()
        return st.fixed_dictionaries(parts)

    def domain_limits(self) -> tuple[str, ...]:
        """Where the draws stop short of the domain the hypotheses state, one line per parameter
        (:meth:`Param.reach`): the part of the theorem that is not checked, with the reason where one is given."""
        return tuple(r for p in self.parameters if (r := p.reach()) is not None)

    def admits(self, values: Mapping[str, Any]) -> bool:
        """Whether the side conditions hold at the (already converted) parameter values: decided in balls at 128 bits
        where they can be (each condition compiled once, :attr:`_conditions_in_balls`), else by SymPy at 30 digits.
        """
        if not self.conditions:
            return True
        from symdp.estimate import arb_precision, exact_ball
        from symdp.statement import Uncertain, _arb_compare

        subs = None
        for condition, difference in zip(self.conditions, self._conditions_in_balls):
            if difference is not None:
                try:
                    with arb_precision(128):   # a float means its decimal, as SymPy's Float(str(x)) reads it
                        balls = [exact_ball(Fraction(repr(v)) if isinstance(v, float) else v)
                                 for v in (values[p.name] for p in self.parameters)]
                        if _arb_compare(condition.rel_op, difference(*balls), 0):
                            continue
                        return False
                except (Uncertain, ArithmeticError, ValueError, TypeError):
                    pass   # undecided by the balls (a point on the boundary, say): SymPy decides
            if subs is None:
                subs = {p.symbol: sp.Float(str(values[p.name]), 30) if not p.integer else sp.Integer(values[p.name])
                        for p in self.parameters}
            if not bool(condition.subs(subs)):
                return False
        return True

    @cached_property
    def _conditions_in_balls(self) -> tuple:
        """Each side condition as ``lhs - rhs``, a function of the parameters' balls (None for one that is not a
        relation Arb can evaluate): SymPy's ``subs`` on every draw cost more than some witnesses."""
        from symdp.statement import lambdify_arb

        symbols = [p.symbol for p in self.parameters]
        return tuple(lambdify_arb(symbols, c.lhs - c.rhs) if isinstance(c, sp.core.relational.Relational) else None
                     for c in self.conditions)

    # --- evaluation --------------------------------------------------------------------------------------
    def measure(self, point: Point) -> tuple[Estimate, Estimate, dict]:
        """``(lhs, rhs, values)`` at a point, at the current working precision; ``values`` maps the name of every
        parameter and measured atom to its value, so that the statement evaluated there gives both sides."""
        try:
            return self._compiled.evaluate(point, self._measurements(point))
        except SymdpError as e:
            raise type(e)(f"{e}{self._at(point)}") from None
        except (ZeroDivisionError, OverflowError, ValueError, TypeError) as e:
            raise InvalidParameter(f"cannot evaluate {self.id}{self._at(point)}: {reason(e)}") from None

    def _measurements(self, point: Point) -> Any:
        """What the hand witness and the engine measure at a point, as one output for the compiled statement: the
        engine measures the concrete laws the hand witness does not."""
        output = self.witness(point) if self.witness is not None else None
        if self._laws is None:
            return output
        if output is not None and not isinstance(output, Mapping):
            hand = self._hand_measured(self._compiled.measured) or self._compiled.measured
            if len(hand) != 1:
                raise InvalidParameter(f"{self.id}: the witness returned one value for {len(hand)} quantities")
            output = {hand[0]: output}
        output = dict(output or {})
        return {**self._laws(point, skip=output), **output}

    def _at(self, point: Point) -> str:
        """Where an evaluation failed, as an error message ends: the parameters to 8 digits and the drawn structure
        in full (the draw to reproduce it with), as JSON where it is plain data."""
        values = [f"{p.name}={mpmath.nstr(mpmath.mpf(point[p.name]), 8)}" for p in self.parameters]
        if "structure" in point:
            try:
                values.append(f"structure={json.dumps(point['structure'])}")
            except (TypeError, ValueError):
                values.append(f"structure={point['structure']!r}")
        return f" (at {', '.join(values)})" if values else ""

    def evaluate(self, point: Point) -> tuple[Estimate, Estimate]:
        """(quantity, bound) — the two sides of the statement — at a point, at the current working precision."""
        lhs, rhs, _ = self.measure(point)
        return lhs, rhs

    @property
    def relation(self) -> str:
        return CompiledStatement.RELATIONS[type(self.statement)]

    # --- derived theorems --------------------------------------------------------------------------------
    def tightened(self, factor: float = 0.99) -> "Theorem":
        """A copy whose bound is tightened by ``1 - factor`` of its size: ``lhs <= rhs - (1 - factor)|rhs|`` for
        ``<=`` and ``==``, ``lhs >= rhs + (1 - factor)|rhs|`` for ``>=``. A tight theorem's tightened copy must be
        refuted, at a draw where the bound is not 0.

        Identities and symbolic statements are not tightened, and neither is a bound that is identically 0 (it has
        no slack to take away: restate it with both quantities on their own sides).
        """
        if not self.numeric:
            raise InvalidParameter(f"{self.id}: a {self.evidence} theorem has no numeric bound to tighten")
        lhs, rhs = self.statement.lhs, self.statement.rhs
        if rhs == 0:
            raise InvalidParameter(f"{self.id}: the bound is 0, which has no multiplicative slack to tighten")
        ge = self.relation in (">=", ">")
        slack = (1 - sp.Float(factor)) * sp.Abs(rhs)
        new = sp.Ge(lhs, rhs + slack, evaluate=False) if ge else sp.Le(lhs, rhs - slack, evaluate=False)
        return replace(self, id=f"{self.id}@tightened{factor}", statement=new, erratum=None, printed=(),
                       _compiled=None, _laws=None)

    # --- rendering ---------------------------------------------------------------------------------------
    def latex(self) -> str:
        """The theorem as a LaTeX block (:func:`symdp.latex.theorem_block`: title and citation, hypotheses,
        statement, tightness; an erratum environment where the printed statement is wrong). It needs the package
        :func:`symdp.latex.package` (``\\usepackage{symdp}``); :func:`symdp.latex.document` gives a whole
        document."""
        from symdp.latex import theorem_block

        return theorem_block(self)

    def summary(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "source": self.source.summary(),
            "citation": str(self.source),
            "statement": str(self.statement),
            "parameters": {p.name: str(p.domain) for p in self.parameters},
            "conditions": [str(c) for c in self.conditions],
            "statement_lhs": str(self.statement.lhs),
            "statement_rhs": str(self.statement.rhs),
            "relation": self.relation,
            "measured": [str(a) for a in self.measured],
            "evidence": self.evidence or None,
            "evidence_note": self.evidence_note or EVIDENCE.get(self.evidence, ""),
            "tight": bool(self.tight_everywhere or self.tight_at),
            "symbolic_only": self.symbolic_only or None,
            "erratum": None if self.erratum is None else {
                "kind": self.erratum.kind, "location": self.erratum.location, "printed": self.erratum.printed,
                "corrected": self.erratum.corrected, "corrected_id": self.erratum.corrected_id,
            },
        }


# --- declaration and the registry ------------------------------------------------------------------------------

REGISTRY: dict[str, list[Theorem]] = {}
"""Declared theorems by the module that declared them, in declaration order (see :func:`registered`)."""

_NAMESPACES: dict[str, int] = {}
"""The identity of the namespace (a module's globals) that last declared into each module's registry entry: a module
executed again (imported twice) starts its entry afresh, so its later declarations replace the earlier ones."""


def register(t: Theorem, module: Optional[str] = None, *, _namespace: Optional[dict] = None) -> Theorem:
    """Add a theorem to the registry under ``module`` (default: the caller's module) and return it.

    Two theorems of one module may not share an ID: the second is an error naming it, so that a report can never be
    matched to the wrong theorem (a module executed again replaces its earlier declarations instead).
    """
    if module is None or _namespace is None:
        caller = inspect.currentframe().f_back.f_globals
        module = module or caller.get("__name__", "__main__")
        _namespace = _namespace if _namespace is not None else caller
    entries = REGISTRY.setdefault(module, [])
    if _NAMESPACES.get(module) != id(_namespace):
        entries.clear()
        _NAMESPACES[module] = id(_namespace)
    for u in [p.theorem(t) for p in t.printed] + [t]:
        if any(v.id == u.id for v in entries):
            raise InvalidParameter(f"{module} declares two theorems with the ID {u.id!r}: each theorem needs an ID "
                                   f"of its own (a claim's is derived from its text unless given: "
                                   f"claim_theorem(..., id=))")
        entries.append(u)
    return t


_register = register


def registered(prefix: str) -> list[Theorem]:
    """The theorems declared in ``prefix`` and its submodules, in module then declaration order."""
    return [t for module in sorted(REGISTRY) if module == prefix or module.startswith(prefix + ".")
            for t in REGISTRY[module]]


def identity(derivation, *, symbols: Mapping | None = None, register: bool = True, **fields) -> Theorem:
    """Declare an identity proved by ``derivation`` (a :class:`~symdp.derivation.Derivation`): its statement is the
    derivation's first expression = its last, printed with ``symbols`` substituted (a derivation's positive
    stand-ins mapped to the catalogue's shared symbols), its evidence :data:`IDENTITY`; joined to the catalogue of the
    caller's module, as :func:`declare` does."""
    namespace = inspect.currentframe().f_back.f_globals
    shared = dict(symbols or {})
    t = Theorem(statement=sp.Eq(derivation.start.xreplace(shared), derivation.end.xreplace(shared), evaluate=False),
                evidence=IDENTITY, derivation=derivation, **fields)
    return _register(t, namespace.get("__name__", "__main__"), _namespace=namespace) if register else t


def declare(*, register: bool = True, **fields) -> Theorem:
    """Declare a theorem that needs no hand witness (its statement names concrete laws, or it is an identity, or a
    relation between closed forms): :class:`Theorem` ``(**fields)``, joined to the catalogue of the caller's module
    (with the printed statements it corrects, :class:`Printed`)."""
    namespace = inspect.currentframe().f_back.f_globals
    t = Theorem(**fields)
    return _register(t, namespace.get("__name__", "__main__"), _namespace=namespace) if register else t


def theorem(*, register: bool = True, **fields) -> Callable[[Callable], Theorem]:
    """Declare a theorem with its witness: ``@theorem(id=..., statement=..., ...)`` over ``def witness(point)``.

    The decorated name becomes the :class:`Theorem`; the witness's docstring becomes its ``notes`` (unless given).
    With ``register`` (the default) it joins the catalogue of its module (:func:`registered`).
    """
    namespace = inspect.currentframe().f_back.f_globals
    module = namespace.get("__name__", "__main__")

    def declare(witness: Callable) -> Theorem:
        notes = fields.pop("notes", None) or inspect.cleandoc(witness.__doc__ or "")
        t = Theorem(witness=witness, notes=notes, **fields)
        return _register(t, module, _namespace=namespace) if register else t

    return declare
