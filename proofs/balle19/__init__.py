"""Derivations for Balle et al. (NeurIPS 2019), one module per section of the paper (see :mod:`symdp.theorems.balle19`).

``DERIVATIONS`` lists every checked derivation; ``FACTS`` names small exact checks of printed slips (errata) that are
not chains of equalities, each a function returning True when the slip is confirmed.
"""

from __future__ import annotations

from symdp.proofs.balle19 import couplings, diffusions, mixing

SECTIONS = (mixing, couplings, diffusions)
DERIVATIONS = [d for section in SECTIONS for d in section.DERIVATIONS]
FACTS = {name: fact for section in SECTIONS for name, fact in getattr(section, "FACTS", {}).items()}
