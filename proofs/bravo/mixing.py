"""Derivations for Section 4 of Bravo, Flores-Mella, Guzmán (mixing of the projected Langevin algorithm).

Seed ``../shared/seeds/003_a063a8ea298de6c8.txt``; catalogue ``../shared/catalogue/catalogue-bravo.md`` (entries
bravo.eq9, bravo.lem4.1; §4 items 10 and 12). Every step is checked exactly by SymPy
(:class:`symdp.derivation.Derivation`).

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import D, M, eta

p = sp.Symbol("p", nonnegative=True)
"""The Hölder exponent of Definition 2.1(2), the same symbol as :data:`symdp.theorems.bravo.moduli.p_holder`."""

SOURCE = "003_a063a8ea298de6c8.txt, Section 4"
Q_P = (1 - p) / (1 + p)
"""(1 − p)/(1 + p), the exponent and factor that recur in Section 4."""
H_WEAKLY_SMOOTH = (2 * eta ** (1 / (1 - p)) * sp.sqrt(Q_P) * (M / 2) ** (1 / (1 - p))) ** 2
"""h of Definition 2.1(2), as Section 4 substitutes it into (9)."""
EQ9_SECOND_TERM = eta ** ((1 + p) / (1 - p)) * Q_P * (M / 2) ** (2 / (1 - p))
"""The coefficient of ln(Te) in the weakly smooth form of (9): η^{(1+p)/(1−p)} (1−p)/(1+p) (M/2)^{2/(1−p)}."""
THETA_MAX = sp.Max(16 * sp.log(D * (M / 2) ** (1 / (1 + p)) * sp.E), 27)
THETA = (M / 2) ** (2 / (1 + p)) * (Q_P * THETA_MAX) ** Q_P
"""Θ of (10): the step-size threshold of Lemma 4.1."""


def eq9_substitution() -> Derivation:
    """h/(4η) = η^{(1+p)/(1−p)} (1−p)/(1+p) (M/2)^{2/(1−p)} for the h of Definition 2.1(2): the weakly smooth form
    of (9)."""
    return (Derivation(r"the weakly smooth form of (9): $h/(4\eta)$", H_WEAKLY_SMOOTH / (4 * eta),
                       source=SOURCE + ", after eq. (9)", assumptions=r"$\eta > 0$, $0 \le p < 1$")
            .step(eta ** (2 / (1 - p)) * Q_P * (M / 2) ** (2 / (1 - p)) / eta,
                  r"square: $(\eta^{1/(1-p)})^2 = \eta^{2/(1-p)}$, $\sqrt{q}^2 = q$")
            .step(EQ9_SECOND_TERM, r"$\frac{2}{1-p} - 1 = \frac{1+p}{1-p}$"))


def theta_limit() -> Derivation:
    """Θ → M/2 as p → 1⁻ (the smooth case's nonexpansive restriction 1/η ≥ M/2), for the max of (10) held at any
    m_Θ > 0: it is continuous in p and at least 27, and (q m_Θ)^q → 1 as q = (1−p)/(1+p) → 0⁺ (the catalogue's
    0⁰ = 1)."""
    m = sp.Symbol("m_Theta", positive=True)   # the max of (10); not symbols.m, an integer
    start = sp.Limit((M / 2) ** (2 / (1 + p)) * (Q_P * m) ** Q_P, p, 1, dir="-")
    return (Derivation(r"Lemma 4.1: $\Theta \to M/2$ as $p \to 1$", start,
                       source=SOURCE + ", remark after Lemma 4.1",
                       assumptions=r"$m_\Theta = \max\{16\ln(D(M/2)^{1/(1+p)}e), 27\} \ge 27$, continuous in $p$, "
                                   r"held at its value at $p = 1$")
            .step(sp.Limit((M / 2) ** (2 / (1 + p)), p, 1, dir="-") * sp.Limit((Q_P * m) ** Q_P, p, 1, dir="-"),
                  "product of limits")
            .step(M / 2, r"$(qm_\Theta)^q = e^{q\ln q + q\ln m_\Theta} \to 1$ as $q \to 0^+$"))


DERIVATIONS: list = [eq9_substitution(), theta_limit()]
