"""Derivations for Section 3.2 and Appendix A.3–A.4 of Bertazzi, Johnston, Roberts, Durmus."""

from __future__ import annotations

SOURCE = "002_bf97d963b2294e2d.txt, Section 3.2 and Appendix A.3–A.4"

DERIVATIONS: list = []
