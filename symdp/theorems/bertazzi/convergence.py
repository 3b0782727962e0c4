"""Bertazzi, Johnston, Roberts, Durmus (2025), Section 3.1 and Appendix A.1–A.2: from convergence to DP: Assumption 3.1, Propositions 3.2, 3.4, Corollary 3.3, Propositions A.2, A.3."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
