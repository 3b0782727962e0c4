"""Derivations for Definition 2.1 of Bravo, Flores-Mella, Guzmán."""

from __future__ import annotations

DERIVATIONS: list = []
