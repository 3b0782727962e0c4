"""Bravo, Flores-Mella, Guzmán (2025), Definitions 2.2–2.4 and Lemmas 2.5, 3.1–3.3: the Rényi divergence, couplings and W∞, the shifted Rényi divergence, the shift reduction and PABI under a modulus of continuity."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
