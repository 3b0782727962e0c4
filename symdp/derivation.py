"""Derivations: chains of SymPy expressions, each step checked exactly, renderable to LaTeX.

A :class:`Derivation` starts from an expression and passes through steps; each step says why it holds
(``"expand"``, ``"substitute p = q e^eps"``) and is checked by SymPy: the difference of consecutive expressions,
after the step's substitutions ``given``, must simplify to exactly 0 (or, for an inequality step, be shown of
the required sign). Nothing is checked numerically here.

>>> import sympy as sp
>>> x = sp.Symbol("x")
>>> d = Derivation("square of a sum", (x + 1)**2).step(x**2 + 2*x + 1, "expand")
>>> d.check()
True
>>> print(d.latex())
\\begin{align*}
\\left(x + 1\\right)^{2} &= x^{2} + 2 x + 1 && \\text{expand}
\\end{align*}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Optional

import sympy as sp

from symdp.errors import SymdpError


class DerivationError(SymdpError):
    """A derivation step that SymPy could not confirm."""


@dataclass(frozen=True)
class Step:
    expr: sp.Basic
    reason: str
    relation: str = "="  # "=", "<=", ">="
    given: Mapping[sp.Basic, sp.Basic] = field(default_factory=dict)


def _is_zero(expr: sp.Basic) -> bool:
    """Exactly zero, by increasingly strong SymPy simplifications (no numeric evaluation)."""
    if expr == 0:
        return True
    for simp in (sp.cancel, sp.expand, sp.simplify,
                 lambda e: sp.simplify(sp.expand_log(sp.powsimp(sp.expand(e)), force=True)),
                 lambda e: sp.simplify(e.rewrite(sp.exp))):  # hyperbolic functions against exponentials
        try:
            if sp.simplify(simp(expr)) == 0:
                return True
        except Exception:  # noqa: BLE001 - SymPy raises StopIteration, ValueError, ... on some Sums; try the next
            continue
    return False


@dataclass
class Derivation:
    """A chain ``start = step_1 = step_2 ...`` (or with ``<=``/``>=`` steps) checked exactly by SymPy."""

    title: str
    start: sp.Basic
    steps: list[Step] = field(default_factory=list)
    source: str = ""
    assumptions: str = ""

    def step(self, expr, reason: str, relation: str = "=", given: Optional[Mapping] = None) -> "Derivation":
        """Append a step and return self, so steps chain."""
        if relation not in ("=", "<=", ">="):
            raise DerivationError(f"unknown step relation {relation!r}")
        self.steps.append(Step(sp.sympify(expr), reason, relation, dict(given or {})))
        return self

    @property
    def end(self) -> sp.Basic:
        return self.steps[-1].expr if self.steps else self.start

    def failures(self) -> list[tuple[int, str]]:
        """(index, reason) of each step SymPy cannot confirm."""
        bad = []
        previous = self.start
        for i, s in enumerate(self.steps):
            diff = (previous - s.expr).subs(s.given) if s.given else previous - s.expr
            if s.relation == "=":
                ok = _is_zero(diff)
            else:
                # previous <= s.expr  <=>  s.expr - previous >= 0
                gap = -diff if s.relation == "<=" else diff
                ok = any(bool(form.is_nonnegative) for form in (gap, sp.simplify(gap), sp.factor(gap))) \
                    or _is_zero(gap)
            if not ok:
                bad.append((i, s.reason))
            previous = s.expr
        return bad

    def check(self) -> bool:
        """True if every step is confirmed exactly; raises :class:`DerivationError` naming the first bad step."""
        bad = self.failures()
        if bad:
            i, reason = bad[0]
            raise DerivationError(f"{self.title}: step {i + 1} ({reason}) is not confirmed by SymPy")
        return True

    def latex(self, titled: bool = False) -> str:
        """The chain as an ``align*`` (:func:`symdp.latex.derivation_align`): reasons as text, steps that print
        as the expression before them dropped, long steps broken. ``titled`` gives the whole block
        (:func:`symdp.latex.derivation_block`: title, source and assumptions as text), for a document whose preamble
        is :data:`symdp.latex.PREAMBLE`."""
        from symdp.latex import derivation_align, derivation_block

        return derivation_block(self) if titled else derivation_align(self)
