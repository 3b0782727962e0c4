"""Derivations for Dwork & Rothblum, *Concentrated Differential Privacy*, one module per part of the paper (see
:mod:`symdp.theorems.dwork`). ``DERIVATIONS`` lists every checked derivation.
"""

from __future__ import annotations

from symdp.proofs.dwork import antipodal, cdp, group, subgaussian

SECTIONS = (subgaussian, cdp, antipodal, group)
DERIVATIONS = [d for section in SECTIONS for d in section.DERIVATIONS]
