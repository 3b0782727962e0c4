"""Dwork & Rothblum, *Concentrated Differential Privacy*, module ``subgaussian`` (not encoded yet; issue 4)."""

from __future__ import annotations

THEOREMS: list = []
