"""Derivations for Section 3.1 and Appendix A.1–A.2 of Bertazzi, Johnston, Roberts, Durmus."""

from __future__ import annotations

SOURCE = "002_bf97d963b2294e2d.txt, Section 3.1 and Appendix A.1–A.2"

DERIVATIONS: list = []
