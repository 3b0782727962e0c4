"""Bertazzi, Johnston, Roberts, Durmus (2025), Section 3.2 and Appendix A.3–A.4: noisy Monte Carlo estimators: Assumptions 3.5, 3.6, 3.8, 3.9, A.4, Propositions 3.7, 3.10, A.5."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
