"""Balle et al. (NeurIPS 2019), Section 3: amplification from uniform mixing (not encoded yet; issue 3)."""

from __future__ import annotations

THEOREMS: list = []
