"""Balle et al. (NeurIPS 2019), Section 5: diffusion mechanisms (not encoded yet; issue 3)."""

from __future__ import annotations

THEOREMS: list = []
