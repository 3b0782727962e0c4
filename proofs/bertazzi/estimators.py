"""Derivations for Section 3.2 and Appendix A.3–A.4 of Bertazzi, Johnston, Roberts, Durmus (noisy Monte Carlo
estimators).

Seed ``../shared/seeds/002_bf97d963b2294e2d.txt``; catalogue ``../shared/catalogue/catalogue-bertazzi.md`` (entry
bertazzi.proof3.10; §4 item 3). Every step is checked exactly by SymPy (:class:`symdp.derivation.Derivation`).

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation

SOURCE = "002_bf97d963b2294e2d.txt, Section 3.2 and Appendix A.3-A.4"

tilde_delta = sp.Symbol(r"\tilde{\delta}", nonnegative=True)
"""The failure probability of Assumption 3.8, the same symbol as :mod:`symdp.theorems.bertazzi.estimators` uses."""


def square_of_complement() -> Derivation:
    """(1 − δ̃)² = 1 − (2δ̃ − δ̃²): two independent chains each within C of their means with probability 1 − δ̃ are
    both so with probability (1 − δ̃)², so the δ of Proposition 3.10 grows by 2δ̃ − δ̃²."""
    return (Derivation(r"proof of Proposition 3.10: $\mathbb{P}(\mathsf{B}_1) \ge (1 - \tilde\delta)^2$",
                       (1 - tilde_delta) ** 2, source=SOURCE + ", Appendix A.4, eq. (65)",
                       assumptions=r"$\tilde\delta \in (0, 1)$")
            .step(1 - 2 * tilde_delta + tilde_delta ** 2, "expand the square")
            .step(1 - (2 * tilde_delta - tilde_delta ** 2), r"collect the failure probability $2\tilde\delta - "
                                                           r"\tilde\delta^2$"))


DERIVATIONS = [square_of_complement()]
