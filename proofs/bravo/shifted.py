"""Derivations for Definitions 2.2–2.4 and Lemmas 2.5, 3.1–3.3 of Bravo, Flores-Mella, Guzmán.

The numeric side is :mod:`symdp.theorems.bravo.shifted`; here, the algebra behind the catalogue's helper
bravo.id.gaussrenyi (the equal-variance Gaussian Rényi divergence that the catalogue's Lemma 2.5 tight instance and
the translation formula α(m − δ)₊²/(2s²) rest on), checked exactly by SymPy:

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import alpha, mu1, mu2, sigma, x

SOURCE = "003_a063a8ea298de6c8.txt, Definition 2.2"


def gaussian_exponent() -> Derivation:
    """The exponent of p^α q^{1−α} for p = N(μ_1, σ²), q = N(μ_2, σ²), completed to a square: its Gaussian integral
    leaves exp(−α(1 − α)(μ_1 − μ_2)²/(2σ²))."""
    centre = alpha * mu1 + (1 - alpha) * mu2
    return (Derivation(r"the exponent of $p^\alpha q^{1-\alpha}$ for two Gaussians of one variance",
                       alpha * (x - mu1) ** 2 / (2 * sigma ** 2) + (1 - alpha) * (x - mu2) ** 2 / (2 * sigma ** 2),
                       source=SOURCE, assumptions=r"$\sigma > 0$")
            .step(((x - centre) ** 2 + alpha * (1 - alpha) * (mu1 - mu2) ** 2) / (2 * sigma ** 2),
                  r"complete the square in $x$ about $\alpha\mu_1 + (1 - \alpha)\mu_2$"))


def gaussian_renyi() -> Derivation:
    """R_α = (1/(α − 1)) ln ∫ p^α q^{1−α}, with the integral exp(−α(1 − α)Δ²/(2σ²)) (the square integrates against
    the normal density to 1): α(μ_1 − μ_2)²/(2σ²)."""
    return (Derivation(r"R\'enyi divergence of $\mathcal{N}(\mu_1, \sigma^2)$ from $\mathcal{N}(\mu_2, \sigma^2)$",
                       sp.log(sp.exp(-alpha * (1 - alpha) * (mu1 - mu2) ** 2 / (2 * sigma ** 2))) / (alpha - 1),
                       source=SOURCE + r" and the catalogue's \symdpid{bravo.id.gaussrenyi}",
                       assumptions=r"$\alpha > 1$, $\sigma > 0$; the integral from \symdpcode{gaussian\_exponent}")
            .step(alpha * (mu1 - mu2) ** 2 / (2 * sigma ** 2),
                  r"$\ln e^{y} = y$ for real $y$, and cancel $\alpha - 1$"))


DERIVATIONS: list = [gaussian_exponent(), gaussian_renyi()]
