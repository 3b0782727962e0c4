"""Dwork & Rothblum, *Concentrated Differential Privacy*, module ``group`` (not encoded yet; issue 4)."""

from __future__ import annotations

THEOREMS: list = []
