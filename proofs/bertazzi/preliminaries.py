"""Derivations for Section 2 and Definition A.1 of Bertazzi, Johnston, Roberts, Durmus."""

from __future__ import annotations

SOURCE = "002_bf97d963b2294e2d.txt, Section 2 and Definition A.1"

DERIVATIONS: list = []
