"""Finite mixtures of Gaussians of one standard deviation, as the accountant sees them: the mixture-of-Gaussians
mechanism (Choquette-Choo, Ganesh, Steinke and Thakurta 2023, "Privacy amplification for matrix mechanisms";
dp_accounting's ``MixtureOfGaussiansDpEvent``), which given D outputs N(0, σ²) and given its neighbour
Σ_i p_i N(c_i, σ²).

A :class:`GaussianSum` keeps its weights as given (binary numbers, exactly) and is normalised in ball arithmetic, so
the law the engine accounts is the one named, with no rounding of its construction. Its privacy-loss distribution
against one Gaussian of the same standard deviation is computed (:mod:`symdp.engine.accounting`): δ(ε), ε(δ) and TV,
alone or composed, where every mean lies on one side of that Gaussian's (the loss is then monotone); and its Rényi
divergences and KL against another Gaussian sum of that deviation (:mod:`symdp.engine.accounted_renyi`).
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
from flint import arb

from symdp.errors import InvalidDistribution
from symdp.estimate import exact_ball
from symdp.numeric import to_mpf


@dataclass(frozen=True)
class GaussianSum:
    """Σ_i w_i N(``means[i]``, ``sd``²), the weights normalised to sum to 1 (they must already, to 1e-9).

    >>> law = GaussianSum((0.25, 0.75), (0, 2), 1)
    >>> [(float(lw.exp().mid()), float(m.mid())) for lw, m, _ in law.arb_gaussian_sum()]
    [(0.25, 0.0), (0.75, 2.0)]
    >>> GaussianSum((0.5, 0.6), (0, 1), 1)
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidDistribution: the weights of a mixture of Gaussians must sum to 1, got 1.1
    """

    weights: tuple
    means: tuple
    sd: mpmath.mpf

    def __init__(self, weights, means, sd):
        w = tuple(to_mpf(x, "a mixture weight") for x in weights)
        m = tuple(to_mpf(x, "a mixture mean") for x in means)
        s = to_mpf(sd, "the standard deviation")
        if not w or len(w) != len(m):
            raise InvalidDistribution(f"a mixture of Gaussians needs as many weights as means, got {len(w)} weights "
                                      f"and {len(m)} means")
        if any(not (mpmath.isfinite(x) and x >= 0) for x in w):
            raise InvalidDistribution(f"the weights of a mixture of Gaussians must be numbers >= 0, got "
                                      f"{[mpmath.nstr(x, 6) for x in w]}")
        if abs(mpmath.fsum(w) - 1) > 1e-9:
            raise InvalidDistribution(f"the weights of a mixture of Gaussians must sum to 1, got "
                                      f"{mpmath.nstr(mpmath.fsum(w), 10)}")
        if any(not mpmath.isfinite(x) for x in m):
            raise InvalidDistribution("the means of a mixture of Gaussians must be finite numbers")
        if not (mpmath.isfinite(s) and s > 0):
            raise InvalidDistribution(f"the standard deviation must be a positive number, got {sd!r}")
        kept = [(x, y) for x, y in zip(w, m) if x > 0]
        object.__setattr__(self, "weights", tuple(x for x, _ in kept))
        object.__setattr__(self, "means", tuple(y for _, y in kept))
        object.__setattr__(self, "sd", s)

    def arb_gaussian_sum(self) -> list[tuple[arb, arb, arb]]:
        """``[(log w, mean, sd)]`` as Arb balls, the weights divided by their (exact) sum."""
        total = sum((exact_ball(x) for x in self.weights), arb(0))
        return [((exact_ball(x) / total).log(), exact_ball(m), exact_ball(self.sd))
                for x, m in zip(self.weights, self.means)]
