"""The theorem model: one result of a paper, with its hypotheses, statement, witness, tightness and erratum.

A :class:`Theorem` reads like the paper: its ``id`` is the catalogue's (``dwork.lem3.10``), ``source`` names the seed
and the paper's own number, ``parameters`` are the symbols with their mathematical domains (and the finite ranges
the checker draws from), ``conditions`` are the side conditions, ``statement`` is a SymPy relation whose left side
is the quantity the ``witness`` computes numerically, and ``tight_at`` lists the instances where it is an equality.
Where the printed statement is wrong, the theorem *as printed* is encoded with an :class:`Erratum` that says so,
and the corrected statement is a theorem of its own beside it.

>>> import sympy as sp
>>> from symdp.theorem import Theorem, Param, Source
>>> x = sp.Symbol("x", positive=True)
>>> amgm = Theorem(
...     id="demo.amgm", title="AM-GM for two numbers", source=Source("none", "folklore"),
...     parameters=(Param(x, sp.Interval.open(0, sp.oo), sample=(0.01, 100)),),
...     statement=sp.Ge(sp.Symbol("A"), 2), quantity_latex="x + 1/x",
...     witness=lambda p: p["x"] + 1 / p["x"], tight_at=({"x": 1},))
>>> amgm.tightened(0.99).statement
A >= 2.02020202020202
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Optional

import mpmath
import sympy as sp
from hypothesis import strategies as st
from sympy.printing.pycode import MpmathPrinter

from symdp.errors import InvalidParameter
from symdp.estimate import Estimate, as_estimate

Point = Mapping[str, Any]


class _MpmathPrinter(MpmathPrinter):
    """lambdify's mpmath printer, with Sum/Product bounds made integers: parameters arrive as mpf (so that 1/r is
    exact to working precision), and ``range`` needs ints; the index itself is an mpf again inside the body."""

    def _print_Sum(self, expr):
        return f"(builtins.sum({self._print(expr.function)} {self._loops(expr)}))"

    def _print_Product(self, expr):
        return f"(fprod({self._print(expr.function)} {self._loops(expr)}))"

    def _loops(self, expr) -> str:
        # The index runs over mpf values, so a body such as 1/i is computed at working precision, not in floats.
        return " ".join(f"for {self._print(i)} in map(mpf, range(int({self._print(a)}), int({self._print(b)})+1))"
                        for i, a, b in expr.limits[::-1])


def lambdify_mpmath(args, expr):
    """``sympy.lambdify(args, expr, "mpmath")`` whose Sums and Products accept mpf bounds."""
    return sp.lambdify(args, expr, modules=["mpmath"], printer=_MpmathPrinter({"fully_qualified_modules": False,
                                                                                 "inline": True,
                                                                                 "allow_unknown_functions": True,
                                                                                 "user_functions": {}}))
"""One draw: parameter values by symbol name (mpf at the working precision) and any drawn structure."""


@dataclass(frozen=True)
class Source:
    """Where a result comes from: the seed file and the paper's own number (``"Lemma 3.10"``)."""

    seed: str
    number: str

    def __str__(self) -> str:
        return f"{self.number} ({self.seed})"


@dataclass(frozen=True)
class Param:
    """A parameter symbol with its mathematical domain and the finite range the checker draws from.

    ``domain`` is a SymPy set (``Interval.Lopen(1, oo)`` for a Rényi order); ``sample`` is the (low, high) range of
    draws inside it, needed when the domain is unbounded. Integer parameters are drawn as integers.
    """

    symbol: sp.Symbol
    domain: sp.Set
    sample: Optional[tuple[float, float]] = None

    @property
    def name(self) -> str:
        return self.symbol.name

    @property
    def integer(self) -> bool:
        return bool(self.symbol.is_integer)

    def bounds(self) -> tuple[float, float]:
        if self.sample is not None:
            return self.sample
        inf, sup = self.domain.inf, self.domain.sup
        if not (inf.is_finite and sup.is_finite):
            raise InvalidParameter(f"parameter {self.name} has unbounded domain {self.domain}: give a sample range")
        return float(inf), float(sup)

    def strategy(self) -> st.SearchStrategy:
        low, high = self.bounds()
        if self.integer:
            return st.integers(int(mpmath.ceil(low)), int(mpmath.floor(high)))
        interval = isinstance(self.domain, sp.Interval)
        exclude_min = bool(interval and self.domain.left_open and low == float(self.domain.inf))
        exclude_max = bool(interval and self.domain.right_open and high == float(self.domain.sup))
        return st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False,
                         exclude_min=exclude_min, exclude_max=exclude_max)

    def contains(self, value) -> bool:
        return bool(self.domain.contains(sp.Float(str(value), 30) if not self.integer else sp.Integer(value)))

    def latex(self) -> str:
        return rf"{sp.latex(self.symbol)} \in {sp.latex(self.domain)}"


ERRATUM_KINDS = ("erratum", "conjecture", "sharpness")


@dataclass(frozen=True)
class Erratum:
    """A printed statement that is wrong: where, what was printed, the correction, and a counterexample.

    ``corrected_id`` names the theorem that encodes the corrected statement. ``kind`` says what is refuted:
    ``"erratum"``, a statement the paper claims; ``"conjecture"``, one it only suspects (refuting it is a finding,
    not an error of the paper); ``"sharpness"``, a deliberately weakened copy of a true theorem (a relaxed
    hypothesis), whose refutation shows the printed hypothesis cannot be relaxed.
    """

    location: str
    printed: str
    corrected: str
    counterexample: Mapping[str, Any]
    corrected_id: Optional[str] = None
    note: str = ""
    kind: str = "erratum"

    def __post_init__(self):
        if self.kind not in ERRATUM_KINDS:
            raise InvalidParameter(f"Erratum.kind must be one of {ERRATUM_KINDS}, got {self.kind!r}")


@dataclass(frozen=True)
class Theorem:
    """One quantitative result, checkable by :func:`symdp.verify.verify`.

    The statement's left side is the quantity; ``witness(point)`` computes it at a draw (an mpf or an
    :class:`~symdp.estimate.Estimate`), and the right side is evaluated from the SymPy expression (lambdified to
    mpmath once). For statements with computed quantities on both sides, or none (pure identities), override
    ``evaluate`` by passing ``evaluator``: a function of the point returning ``(lhs, rhs)``.

    A statement with no numeric witness (an asymptotic Õ-bound, a qualitative implication) is declared with
    ``symbolic_only="why no witness exists"``; if its content is an identity or inequality that SymPy can prove,
    ``derivation`` (a :class:`~symdp.derivation.Derivation`) is checked instead of draws.
    """

    id: str
    title: str
    source: Source
    statement: sp.core.relational.Relational
    witness: Optional[Callable[[Point], Any]] = None
    parameters: tuple[Param, ...] = ()
    conditions: tuple[sp.Basic, ...] = ()
    structure: Optional[Callable[[], st.SearchStrategy]] = None
    structure_latex: str = ""
    quantity_latex: str = ""
    tight_at: tuple[Mapping[str, Any], ...] = ()
    tight_everywhere: bool = False
    examples: tuple[Mapping[str, Any], ...] = ()
    erratum: Optional[Erratum] = None
    evaluator: Optional[Callable[[Point], tuple[Any, Any]]] = None
    notes: str = ""
    default_examples: Optional[int] = None
    symbolic_only: str = ""
    derivation: Any = None
    _bound_fn: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        if not isinstance(self.statement, (sp.Le, sp.Ge, sp.Eq, sp.Lt, sp.Gt)):
            raise InvalidParameter(f"{self.id}: statement must be a SymPy relation (<=, >=, ==), got {self.statement}")
        if self.symbolic_only:
            if self.witness is not None or self.evaluator is not None:
                raise InvalidParameter(f"{self.id}: a symbolic-only theorem has no witness or evaluator")
            if self.derivation is not None and not callable(getattr(self.derivation, "check", None)):
                raise InvalidParameter(f"{self.id}: derivation must be a symdp.derivation.Derivation")
            return
        if self.witness is None and self.evaluator is None:
            raise InvalidParameter(f"{self.id}: a theorem needs a witness or an evaluator (or symbolic_only=reason)")
        if self.derivation is not None:
            raise InvalidParameter(f"{self.id}: derivation= is for symbolic-only theorems")
        if self.evaluator is None:
            names = [p.symbol for p in self.parameters]
            object.__setattr__(self, "_bound_fn", lambdify_mpmath(names, self.statement.rhs))
            extra = self.statement.rhs.free_symbols - set(names)
            if extra:
                raise InvalidParameter(f"{self.id}: the bound uses {sorted(map(str, extra))}, which are not parameters")

    # --- drawing -----------------------------------------------------------------------------------------
    def strategy(self) -> st.SearchStrategy:
        """Draws: a dict of parameter values (plain floats / ints) and, if given, a ``structure`` entry."""
        parts = {p.name: p.strategy() for p in self.parameters}
        if self.structure is not None:
            parts["structure"] = self.structure()
        return st.fixed_dictionaries(parts)

    def admits(self, values: Mapping[str, Any]) -> bool:
        """Whether the side conditions hold at the (already converted) parameter values."""
        if not self.conditions:
            return True
        subs = {p.symbol: sp.Float(str(values[p.name]), 30) if not p.integer else sp.Integer(values[p.name])
                for p in self.parameters}
        return all(bool(c.subs(subs)) for c in self.conditions)

    # --- evaluation --------------------------------------------------------------------------------------
    def evaluate(self, point: Point) -> tuple[Any, Any]:
        """(quantity, bound) at a point, at the current working precision."""
        if self.evaluator is not None:
            return self.evaluator(point)
        # Integers are passed to the bound as mpf: lambdified 1/r with a Python int r would be a 16-digit float.
        args = [mpmath.mpf(point[p.name]) if p.integer else point[p.name] for p in self.parameters]
        return self.witness(point), self._bound_fn(*args)

    @property
    def relation(self) -> str:
        return {sp.Le: "<=", sp.Lt: "<=", sp.Ge: ">=", sp.Gt: ">=", sp.Eq: "=="}[type(self.statement)]

    # --- derived theorems --------------------------------------------------------------------------------
    def tightened(self, factor: float = 0.99, zero_shift: float = 1e-30) -> "Theorem":
        """A copy whose bound is tightened by ``factor`` (``<=``: bound·factor; ``>=``: bound/factor).

        An equality is tightened to ``quantity <= factor·bound``. A bound that is exactly 0 (a residual that must
        vanish, a gain that must be non-negative) has no multiplicative slack, so it is tightened additively, to
        ``-zero_shift`` (``<=``, ``==``) or ``+zero_shift`` (``>=``): far above the rounding of any working
        precision, far below anything a wrong witness would produce. A tight theorem's tightened copy must be
        refuted.
        """
        ge = self.relation == ">="

        def tighten(bound):
            if bound == 0:
                return zero_shift if ge else -zero_shift
            return bound / factor if ge else bound * factor

        lhs, rhs = self.statement.lhs, self.statement.rhs
        bound = tighten(rhs) if rhs == 0 else (rhs / sp.Float(factor) if ge else sp.Float(factor) * rhs)
        new = (sp.Ge if ge else sp.Le)(lhs, sp.sympify(bound), evaluate=False)
        evaluator = self.evaluator
        if evaluator is not None:
            original = evaluator

            def evaluator(point):
                q, b = original(point)
                b = as_estimate(b)
                scale = mpmath.mpf(1) / factor if ge else mpmath.mpf(factor)
                return q, Estimate(tighten(b.value) if b.value == 0 else b.value * scale, b.error * scale, b.method)

        return replace(self, id=f"{self.id}@tightened{factor}", statement=new, evaluator=evaluator,
                       erratum=None, _bound_fn=None)

    # --- rendering ---------------------------------------------------------------------------------------
    def latex(self) -> str:
        """The theorem as a LaTeX ``theorem`` environment: hypotheses (domains, side conditions) and statement."""
        hyps = [p.latex() for p in self.parameters] + [sp.latex(c) for c in self.conditions]
        if self.structure_latex:
            hyps.append(self.structure_latex)
        lines = [rf"\begin{{theorem}}[{self.title} ({self.source.number})]"]
        if hyps:
            lines.append("Let $" + "$, $".join(hyps) + "$.")
        statement = sp.latex(self.statement)
        if self.quantity_latex:
            statement += rf", \quad\text{{where }} {sp.latex(self.statement.lhs)} = {self.quantity_latex}"
        lines.append(rf"Then $${statement}.$$")
        if self.tight_everywhere:
            lines.append(r"Equality holds for every admissible choice of the parameters.")
        elif self.tight_at:
            lines.append(r"The bound is attained (tight).")
        lines.append(r"\end{theorem}")
        return "\n".join(lines)

    def summary(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "source": {"seed": self.source.seed, "number": self.source.number},
            "statement": str(self.statement),
            "parameters": {p.name: str(p.domain) for p in self.parameters},
            "conditions": [str(c) for c in self.conditions],
            "tight": bool(self.tight_everywhere or self.tight_at),
            "symbolic_only": self.symbolic_only or None,
            "erratum": None if self.erratum is None else {
                "kind": self.erratum.kind, "location": self.erratum.location, "printed": self.erratum.printed,
                "corrected": self.erratum.corrected, "corrected_id": self.erratum.corrected_id,
            },
        }
