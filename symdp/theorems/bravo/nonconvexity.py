"""Bravo, Flores-Mella, Guzmán (2025), Appendix B and the claim of Section 3.2: the shifts problem is not convex: the Hessian of Proposition B.1 and the positive-definiteness claim of Section 3.2."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
