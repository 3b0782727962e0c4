"""Bravo, Flores-Mella & Guzmán, *Mixing times and privacy analysis for the projected Langevin algorithm under a
modulus of continuity* (2025).

Seed ``../shared/seeds/003_a063a8ea298de6c8.txt``; catalogue ``../shared/catalogue/catalogue-bravo.md`` (whose IDs the theorems carry).
One module per part of the paper, in its order:

* :mod:`.moduli` — Definition 2.1: the moduli of continuity of the gradient map, one per function class;
* :mod:`.shifts` — Section 3: feasible shifts and problem (P), Lemma 3.5, Theorem 3.4, Corollaries 3.7–3.8;
* :mod:`.appendix` — Appendix A: Pinsker and Bretagnolle–Huber.

:mod:`.common` holds what they share. The derivations behind them are in :mod:`proofs.bravo`.
"""

from __future__ import annotations

from symdp.theorems.bravo import appendix, moduli, shifts

SECTIONS = (moduli, shifts, appendix)
THEOREMS = [theorem for section in SECTIONS for theorem in section.THEOREMS]
