"""Divergences between distributions: one function per concept, for finite and continuous distributions alike.

Each returns an :class:`~symdp.estimate.Estimate`. Finite pairs are computed exactly at the working precision
(:mod:`symdp.engine.finite`); continuous pairs use closed forms where known and otherwise quadrature split at every
privacy-loss crossing point, density kink and integrand peak (:mod:`symdp.engine.quadrature`).

>>> from symdp.engine.continuous import Gaussian
>>> print(mpmath.nstr(renyi(Gaussian(0, 1), Gaussian(1, 1), 3).value, 20))   # closed form alpha*Delta^2/(2 sigma^2)
1.5
"""

from __future__ import annotations

import mpmath  # noqa: F401  (used by the module doctest)

from symdp.engine import finite, quadrature
from symdp.engine.continuous import ContinuousDistribution
from symdp.errors import InvalidDistribution
from symdp.estimate import Estimate
from symdp.engine.finite import FiniteDistribution


def _kind(P, Q) -> str:
    if isinstance(P, FiniteDistribution) and isinstance(Q, FiniteDistribution):
        return "finite"
    if isinstance(P, ContinuousDistribution) and isinstance(Q, ContinuousDistribution):
        return "continuous"
    raise InvalidDistribution(
        f"cannot compare a {type(P).__name__} with a {type(Q).__name__}: both must be finite or both continuous"
    )


def kl(P, Q) -> Estimate:
    """KL divergence D_KL(P || Q)."""
    if _kind(P, Q) == "finite":
        return finite.kl(P, Q)
    return quadrature.kl(P, Q)


def renyi(P, Q, alpha) -> Estimate:
    """Rényi divergence R_alpha(P || Q), alpha in (1, inf]; alpha = inf is the max divergence."""
    if _kind(P, Q) == "finite":
        return finite.renyi(P, Q, alpha)
    return quadrature.renyi(P, Q, alpha)


def hockey_stick(P, Q, eps) -> Estimate:
    """Hockey-stick divergence D_{e^eps}(P || Q) = sup_S P(S) - e^eps Q(S), for eps of any sign."""
    if _kind(P, Q) == "finite":
        return finite.hockey_stick(P, Q, eps)
    return quadrature.hockey_stick(P, Q, eps)


def tv(P, Q) -> Estimate:
    """Total variation distance."""
    if _kind(P, Q) == "finite":
        return finite.tv(P, Q)
    return quadrature.tv(P, Q)


def max_divergence(P, Q) -> Estimate:
    """Max divergence D_inf(P || Q) = sup log(dP/dQ) (a supremum that continuous pairs may reach only at ±inf)."""
    if _kind(P, Q) == "finite":
        return finite.max_divergence(P, Q)
    return quadrature.max_divergence(P, Q)
