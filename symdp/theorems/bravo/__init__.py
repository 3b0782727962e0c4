"""Bravo, Flores-Mella & Guzmán, *Mixing times and privacy analysis for the projected Langevin algorithm under a
modulus of continuity* (2025).

Seed ``../shared/seeds/003_a063a8ea298de6c8.txt``; catalogue ``../shared/catalogue/catalogue-bravo.md`` (whose IDs the theorems carry).
One module per part of the paper, in its order:

* :mod:`.moduli` — Definition 2.1: the moduli of continuity of the gradient map, one per function class;
* :mod:`.shifted` — Definitions 2.2–2.4, Lemma 2.5, Lemmas 3.1–3.3: shifted Rényi divergence and PABI;
* :mod:`.shifts` — Section 3: feasible shifts and problem (P), Lemma 3.5, Theorem 3.4, Corollaries 3.7–3.9, Table 1;
* :mod:`.mixing` — Section 4 and Appendix C: mixing of the projected Langevin algorithm;
* :mod:`.sgd` — Section 5: privacy of noisy SGD, and the subsampled Gaussian of Appendix A;
* :mod:`.appendix` — Appendix A: divergences, Pinsker and Bretagnolle–Huber, data processing, composition;
* :mod:`.nonconvexity` — Appendix B: the shifts problem is not convex.

:mod:`.common` holds what they share. The derivations behind them are in :mod:`proofs.bravo`.
"""

from __future__ import annotations

from symdp.theorems.bravo import appendix, mixing, moduli, nonconvexity, sgd, shifted, shifts

SECTIONS = (moduli, shifted, shifts, mixing, sgd, appendix, nonconvexity)
THEOREMS = [theorem for section in SECTIONS for theorem in section.THEOREMS]
