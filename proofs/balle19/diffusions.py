"""Derivations for Balle et al. (NeurIPS 2019), section module ``diffusions`` (not written yet; issue 3)."""

from __future__ import annotations

DERIVATIONS: list = []
