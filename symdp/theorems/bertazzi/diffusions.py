"""Bertazzi, Johnston, Roberts, Durmus (2025), Section 4 and Appendix B: the privacy of diffusions: eqs. (12), (16), Lemmas 4.1, 4.2, B.1–B.3, Remark 4.3, Propositions 4.5, 4.6."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
