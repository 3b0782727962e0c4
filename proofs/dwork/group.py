"""Derivations for Dwork & Rothblum, module ``group`` (not written yet; issue 4)."""

from __future__ import annotations

DERIVATIONS: list = []
