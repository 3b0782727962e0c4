"""Bertazzi, Johnston, Roberts & Durmus, *Differential privacy guarantees of Markov chain Monte Carlo
algorithms* (2025).

Seed ``../shared/seeds/002_bf97d963b2294e2d.txt``; catalogue ``../shared/catalogue/catalogue-bertazzi.md`` (whose IDs the
theorems carry). One module per part of the paper, in its order:

* :mod:`.preliminaries` — Section 2: the posterior, (ε, δ)-DP, Rényi DP, the RDP-to-DP conversion, TV;
* :mod:`.convergence` — Section 3.1 and Appendix A: the n-th state of a chain against its posterior;
* :mod:`.estimators` — Section 3.2 and Appendix A: noisy Monte Carlo estimators;
* :mod:`.diffusions` — Section 4 and Appendix B: the privacy of diffusions (Girsanov);
* :mod:`.langevin` — Section 5.1 and Appendix C.1: ULA, final iterate and path;
* :mod:`.sgld` — Section 5.2–5.3 and Appendix C.2–C.4: SGLD.

:mod:`.common` holds what they share. The derivations behind them are in :mod:`proofs.bertazzi`.
"""

from __future__ import annotations

from symdp.theorems.bertazzi import preliminaries, convergence, estimators, diffusions, langevin, sgld

SECTIONS = (preliminaries, convergence, estimators, diffusions, langevin, sgld)
THEOREMS = [theorem for section in SECTIONS for theorem in section.THEOREMS]
