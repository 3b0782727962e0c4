"""Derivations for Appendix B and the claim of Section 3.2 of Bravo, Flores-Mella, Guzmán."""

from __future__ import annotations

DERIVATIONS: list = []
