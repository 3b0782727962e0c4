"""Derivations for Bravo, Flores-Mella, Guzmán, *Mixing times and privacy analysis for the projected Langevin
algorithm under a modulus of continuity*, one module per part of the paper (see :mod:`symdp.theorems.bravo`).
``DERIVATIONS`` lists every checked derivation.
"""

from __future__ import annotations

from symdp.proofs.bravo import mixing, moduli, nonconvexity, sgd, shifted, shifts
from symdp.proofs.bravo.shifts import (corollary_3_7, corollary_3_8, derivations, limit_c_to_one, noise_sums,
                                       optimal_value, problem_p, stationarity, tail_products)

SECTIONS = (moduli, shifted, shifts, mixing, sgd, nonconvexity)
DERIVATIONS = [d for section in SECTIONS for d in section.DERIVATIONS]

__all__ = ["DERIVATIONS", "SECTIONS", "corollary_3_7", "corollary_3_8", "derivations", "limit_c_to_one", "noise_sums",
           "optimal_value", "problem_p", "stationarity", "tail_products"]
