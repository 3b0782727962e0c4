"""Bertazzi, Johnston, Roberts, Durmus (2025), Section 2 and Definition A.1: the posterior (eq. (1)), (ε, δ)-DP and Rényi DP (Definitions 2.1, 2.2, eq. (4)), the RDP-to-DP conversion, total variation."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
