"""Derivations for Section 5.2–5.3 and Appendix C.2–C.4 of Bertazzi, Johnston, Roberts, Durmus."""

from __future__ import annotations

SOURCE = "002_bf97d963b2294e2d.txt, Section 5.2–5.3 and Appendix C.2–C.4"

DERIVATIONS: list = []
