"""Dwork & Rothblum, *Concentrated Differential Privacy*, module ``cdp`` (not encoded yet; issue 4)."""

from __future__ import annotations

THEOREMS: list = []
