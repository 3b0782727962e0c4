"""What the sections of Dwork & Rothblum share: the finite-pair helpers every section uses."""

from __future__ import annotations

import mpmath

from symdp.estimate import Estimate
from symdp.expressions import quantity
from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution, privacy_loss
from symdp.numeric import to_mpf
from symdp.engine.privacy_loss import subgaussian_standard

LossStandard = quantity(
    "LossStandard", 2, r"\tau\left(L_{{({0} \,\|\, {1})}} - \mathbb{{E}}\,L_{{({0} \,\|\, {1})}}\right)",
    "The optimal subgaussian standard of the centred privacy loss L_(P||Q) - E L (footnote 3: the least tau with "
    "E_P[e^{lambda (L - E L)}] <= e^{lambda^2 tau^2/2} for every lambda).", nonnegative=True)
"""τ(L − E L) of a pair, as one head: ``SubgaussianStandard(PrivacyLossOf(P, Q) - KL(P, Q))`` says the same, but
SymPy prints its sum as τ(−D_KL + L)."""


def normalize(weights) -> list:
    """Weights (any positive numbers) scaled to sum to 1, at the working precision."""
    ws = [to_mpf(w, "weight") for w in weights]
    total = mpmath.fsum(ws)
    return [w / total for w in ws]


def sym_max_divergence(P: FiniteDistribution, Q: FiniteDistribution) -> mpmath.mpf:
    """Δ∞(P, Q) = max(D∞(P‖Q), D∞(Q‖P)) (the paper's undefined Δ∞, read as in the catalogue)."""
    return max(divergence("max_divergence", P, Q).value, divergence("max_divergence", Q, P).value)


def loss_standard(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """τ(L − E L): the optimal subgaussian standard of the centred privacy loss of (P, Q), x ~ P (footnote 3)."""
    loss = privacy_loss(P, Q)
    return subgaussian_standard(loss.values, loss.probabilities)
