"""Bravo, Flores-Mella, Guzmán (2025), Section 4 and Appendix C: mixing of the projected Langevin algorithm (eq. (9), Lemma 4.1, eq. (12), Theorem 4.2), the Markov-chain facts of Appendix A (Propositions A.8, A.12, A.14, Definition A.13) and Appendix C (Lemma C.1, Theorem C.2)."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
