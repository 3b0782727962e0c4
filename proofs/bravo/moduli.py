"""Derivations for Definition 2.1 of Bravo, Flores-Mella, Guzmán: the additive term h of modulus (2) is the maximum
of ψ(g) = η²g² − (4ηp/(1+p)) M^{-1/p} g^{(1+p)/p} over g = ‖∇f(x) − ∇f(y)‖ ≥ 0 (catalogue §4 item 9).

With p symbolic SymPy does not merge the nested powers of ψ(g*) (they are equal only for positive bases, which
``simplify`` does not assume of a power of M). The substitution η = 2A^{1-p}, M = B^{1-p} (A, B > 0; a bijection of
(0, ∞)² for each p < 1) turns g* into A^p B and every power into a monomial in A, B, after which ψ(g*) and h are
both 4A²B²(1 − p)/(1 + p). ψ′(g) = 2ηg(η − 2M^{-1/p}g^{(1-p)/p}) is positive below g* and negative above it, so
the stationary point g* is the maximiser.

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import M, eta

p = sp.Symbol("p", nonnegative=True)
"""The Hölder exponent of Definition 2.1(2) (the symbol of :data:`symdp.theorems.bravo.moduli.p_holder`)."""
g = sp.Symbol("g", nonnegative=True)
"""‖∇f(x) − ∇f(y)‖."""
A, B = sp.symbols("A B", positive=True)

H_WEAKLY_SMOOTH = (2 * eta ** (1 / (1 - p)) * sp.sqrt((1 - p) / (1 + p)) * (M / 2) ** (1 / (1 - p))) ** 2
"""h of modulus (2): (2η^{1/(1-p)} sqrt((1-p)/(1+p)) (M/2)^{1/(1-p)})², as printed."""
PSI = eta ** 2 * g ** 2 - 4 * eta * p / (1 + p) * M ** (-1 / p) * g ** ((1 + p) / p)
"""ψ(g): the bound on ‖Φ(x) − Φ(y)‖² − δ² that convexity and the p-Hölder gradient give."""
G_STAR = (eta / 2) ** (p / (1 - p)) * M ** (1 / (1 - p))
"""The maximiser g* = (η/2)^{p/(1-p)} M^{1/(1-p)}."""
POSITIVE_POWERS = {eta: 2 * A ** (1 - p), M: B ** (1 - p)}
SOURCE = "003_a063a8ea298de6c8.txt, Definition 2.1, modulus (2) (Lei and Ying 2020, Lemma D.3)"
ASSUMPTIONS = r"$0 < p < 1$, $\eta > 0$, $M > 0$"


def _evaluated(expr) -> dict:
    """Each unevaluated substitution in ``expr`` mapped to its value (a step's ``given``)."""
    return {s: s.doit() for s in expr.atoms(sp.Subs)}


def maximum_value() -> Derivation:
    """ψ(g*) = h."""
    start = sp.Subs(PSI, g, G_STAR)
    value = 4 * A ** 2 * B ** 2 * (1 - p) / (1 + p)
    return (Derivation(r"Definition 2.1(2): $\psi(g^*) = h$", start, source=SOURCE, assumptions=ASSUMPTIONS)
            .step(start.doit(), "substitute $g = g^*$", given=_evaluated(start))
            .step(PSI.subs(g, G_STAR).subs(POSITIVE_POWERS), r"$\eta = 2A^{1-p}$, $M = B^{1-p}$, $A, B > 0$",
                  given=POSITIVE_POWERS)
            .step(value, "powers of positive bases combine: $g^* = A^pB$")
            .step(H_WEAKLY_SMOOTH.subs(POSITIVE_POWERS), "likewise")
            .step(H_WEAKLY_SMOOTH, r"back to $\eta$, $M$", given=POSITIVE_POWERS))


def stationarity() -> Derivation:
    """ψ′(g*) = 0."""
    start = sp.Subs(sp.diff(PSI, g), g, G_STAR)
    return (Derivation(r"Definition 2.1(2): $\psi'(g^*) = 0$", start, source=SOURCE, assumptions=ASSUMPTIONS)
            .step(start.doit(), "substitute $g = g^*$", given=_evaluated(start))
            .step(sp.diff(PSI, g).subs(g, G_STAR).subs(POSITIVE_POWERS), r"$\eta = 2A^{1-p}$, $M = B^{1-p}$",
                  given=POSITIVE_POWERS)
            .step(0, r"both terms are $8A^{2-p}B$"))


DERIVATIONS: list = [maximum_value(), stationarity()]
