"""Bertazzi, Johnston, Roberts, Durmus (2025), Section 5.1 and Appendix C.1: the unadjusted Langevin algorithm: eq. (25), Assumptions 5.1, 5.3, Theorems 5.2, 5.4."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
