"""Balle, Barthe, Gaboardi, Geumlek, *Privacy Amplification by Mixing and Diffusion Mechanisms* (NeurIPS 2019).

Seeds: main text ``../shared/seeds/001_dc25d928cd3b540a.txt`` ("P"), appendix ``../shared/seeds/000_eb14441fc6376ec7.txt``
("A"); catalogue ``../shared/catalogue/catalogue-balle.md`` (whose IDs the theorems carry). One module per section of
the paper, in its order:

* :mod:`.mixing` — Section 3, amplification from uniform mixing (Definition 1, Lemma 9, Table 1, Theorem 1);
* :mod:`.couplings` — Section 4, amplification from couplings (Theorem 2, Examples 1–3, Lemma 3, Theorems 4–5);
* :mod:`.diffusions` — Section 5, diffusion mechanisms (Brownian motion, Theorem 6, Ornstein–Uhlenbeck, Theorem 8).

The derivations behind them are in :mod:`proofs.balle19`, section by section as well.
"""

from __future__ import annotations

from symdp.theorems.balle19 import couplings, diffusions, mixing

SECTIONS = (mixing, couplings, diffusions)
THEOREMS = [theorem for section in SECTIONS for theorem in section.THEOREMS]
