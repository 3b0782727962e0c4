"""Derivations for Section 4 and Appendix B of Bertazzi, Johnston, Roberts, Durmus."""

from __future__ import annotations

SOURCE = "002_bf97d963b2294e2d.txt, Section 4 and Appendix B"

DERIVATIONS: list = []
