"""Derivations for Section 4 and Appendix C of Bravo, Flores-Mella, Guzmán."""

from __future__ import annotations

DERIVATIONS: list = []
