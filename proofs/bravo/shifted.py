"""Derivations for Definitions 2.2–2.4 and Lemmas 2.5, 3.1–3.3 of Bravo, Flores-Mella, Guzmán."""

from __future__ import annotations

DERIVATIONS: list = []
