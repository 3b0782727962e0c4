"""Derivations for Section 5 of Bravo, Flores-Mella, Guzmán."""

from __future__ import annotations

DERIVATIONS: list = []
