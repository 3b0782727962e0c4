"""Derivations for Balle et al. (NeurIPS 2019), section module ``mixing`` (not written yet; issue 3)."""

from __future__ import annotations

DERIVATIONS: list = []
