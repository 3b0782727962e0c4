"""Bravo, Flores-Mella, Guzmán (2025), Section 5: privacy of noisy SGD (Definition 5.1, Theorems 5.2 and 5.4, Remark 5.3, Figure 1, the (ε, δ) conversion of Section 5.2) and the subsampled Gaussian of Appendix A (Definition A.16, Lemmas A.17, A.18)."""

from __future__ import annotations

from symdp.theorem import registered

THEOREMS = registered(__name__)
