"""Bertazzi, Johnston, Roberts, Durmus (2025), Section 5.2–5.3 and Appendix C.2–C.4: stochastic gradient Langevin dynamics: eq. (31), Assumption 5.5, Theorems 5.6–5.8, the commentary of Section 5.3."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
