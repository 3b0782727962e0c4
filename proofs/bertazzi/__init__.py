"""Derivations for Bertazzi, Johnston, Roberts & Durmus, *Differential privacy guarantees of Markov chain Monte Carlo
algorithms*, one module per part of the paper (see :mod:`symdp.theorems.bertazzi`). ``DERIVATIONS`` lists every checked
derivation.
"""

from __future__ import annotations

from symdp.proofs.bertazzi import preliminaries, convergence, estimators, diffusions, langevin, sgld

SECTIONS = (preliminaries, convergence, estimators, diffusions, langevin, sgld)
DERIVATIONS = [d for section in SECTIONS for d in section.DERIVATIONS]
