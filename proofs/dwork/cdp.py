"""Derivations for Dwork & Rothblum, module ``cdp`` (not written yet; issue 4)."""

from __future__ import annotations

DERIVATIONS: list = []
