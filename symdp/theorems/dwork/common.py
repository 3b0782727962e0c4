"""What the sections of Dwork & Rothblum share: the finite-pair helpers every section uses."""

from __future__ import annotations

import functools

import mpmath

from symdp.estimate import Estimate
from symdp.expressions import quantity
from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution, privacy_loss
from symdp.numeric import to_mpf
from symdp.engine.privacy_loss import optimal_standard, privacy_loss as loss_law, subgaussian_standard
from symdp.statement import BuiltExactly

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


def emax(*args: Estimate) -> Estimate:
    """The largest of several estimates, on their balls (:meth:`Estimate.combine`): a certified enclosure where
    every argument is one, else with the largest error (the maximum is 1-Lipschitz in each argument)."""
    return Estimate.combine(lambda *balls: functools.reduce(lambda u, v: u.max(v), balls), *args)


def delta_inf(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """Δ∞(P, Q) = max(D∞(P‖Q), D∞(Q‖P)) (the paper's undefined Δ∞, read as in the catalogue): the larger of the
    engine's two certified max divergences (the largest atom log-ratios, in balls)."""
    return emax(divergence("max_divergence", P, Q), divergence("max_divergence", Q, P))


def sym_max_divergence(P: FiniteDistribution, Q: FiniteDistribution) -> mpmath.mpf:
    """Δ∞(P, Q) as a number (:func:`delta_inf`'s value), where a construction needs one."""
    return max(divergence("max_divergence", P, Q).value, divergence("max_divergence", Q, P).value)


def loss_standard(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """τ(L − E L): the optimal subgaussian standard of the centred privacy loss of (P, Q), x ~ P (footnote 3), by
    :func:`~symdp.engine.privacy_loss.optimal_standard` on the loss's exact law (its values ``ln(p/q)`` in balls):
    a certified enclosure where the interval search over λ closes. ``+inf`` where Q vanishes on P's support."""
    if any(p > 0 and q == 0 for p, q in zip(P, Q)):
        loss = privacy_loss(P, Q)
        return subgaussian_standard(loss.values, loss.probabilities)
    return optimal_standard(loss_law(P, Q)).tau


def exact_instance(laws, measured: dict) -> dict:
    """A draw's measurements, marked built exactly (:class:`~symdp.statement.BuiltExactly`) where every law is a finite
    law of exact rationals: the laws are then themselves an instance of the statement, every quantity of it
    (hypotheses included) measured on them in balls, whatever rounding made them from the draw — so no construction
    floor is added, and a near-equality is decided by the balls alone. Other laws (continuous, or rounded) leave the
    measurements as they are."""
    if all(isinstance(law, FiniteDistribution) and law.exact for law in laws):
        return {atom: BuiltExactly(m) for atom, m in measured.items()}
    return measured
