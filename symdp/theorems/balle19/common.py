"""What the three sections of Balle et al. (NeurIPS 2019) share: the common parameters and the named laws of
statements.

>>> import sympy as sp
>>> print(sp.latex(Law(r"\\mu K")), Law(r"\\mu K") == Law(r"\\mu K"))
\\mu K True
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from symdp.symbols import Delta, Law, alpha, lambda1, lambda2, sigma, sigma1, sigma2  # noqa: F401 (Law re-exported)
from symdp.errors import InvalidDistribution
from symdp.theorem import Param

POS = sp.Interval.open(0, sp.oo)
LAP_SCALE = ("only Delta/lambda_1, Delta/lambda_2 (and x/lambda) enter the ratio of the two sides (each Laplace law is "
              "a scale family); drawn log-uniformly, with Delta, they span 1e-3 to 25")
LAMBDA1 = Param(lambda1, POS, sample=(0.2, 10), log=True, limit=LAP_SCALE)
LAMBDA2 = Param(lambda2, POS, sample=(0.2, 10), log=True, limit=LAP_SCALE)
DELTA = Param(Delta, POS, sample=(0.01, 5), log=True,
              limit="a scale: every statement using it compares two laws that are translates of one another by Delta, "
                    "and only Delta over the noise scale (sigma, lambda, rho) enters the ratio of the two sides: for "
                    "the Gaussian ones both sides are proportional to Delta^2 (the ratio does not depend on it); drawn "
                    "log-uniformly over 2.7 decades")
ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 30),
              limit="every law this order is used with is Gaussian with a common covariance, whose R_alpha = alpha "
                    "m^2/(2 s^2) is linear in alpha on both sides of each statement, so the ratio does not depend on "
                    "alpha beyond 30 (nor below 1.05, down to the KL limit alpha -> 1)")
GAUSS_SCALE = ("a noise scale: only Delta/sigma (and the ratios of the scales) enter the ratio of the two sides, the "
                "Gaussian R_alpha being proportional to (Delta/sigma)^2; drawn log-uniformly")
SIGMA = Param(sigma, POS, sample=(0.1, 5), log=True, limit=GAUSS_SCALE)
SIGMA1 = Param(sigma1, POS, sample=(0.1, 10), log=True, limit=GAUSS_SCALE)
SIGMA2 = Param(sigma2, POS, sample=(0.1, 10), log=True, limit=GAUSS_SCALE)


def decimal(v) -> Fraction:
    """A drawn number as the exact rational it stands for: a float as the decimal it prints as (0.1 is one tenth, as
    :func:`symdp.engine.finite.to_mpf` reads it, only without rounding), an int, Fraction or decimal string as itself.

    >>> decimal(0.1), decimal(3)
    (Fraction(1, 10), Fraction(3, 1))
    """
    return Fraction(repr(v)) if isinstance(v, float) else Fraction(v)


def exact_weights(weights) -> list[Fraction]:
    """The probability vector proportional to drawn ``weights``, in exact rationals (each weight :func:`decimal`),
    for finite laws built exactly from a draw (:attr:`symdp.engine.finite.FiniteDistribution.exact`).

    >>> exact_weights([0.1, 0.3])
    [Fraction(1, 4), Fraction(3, 4)]
    """
    w = [decimal(v) for v in weights]
    if any(v < 0 for v in w) or sum(w) <= 0:
        raise InvalidDistribution(f"weights must be non-negative with a positive sum, got {list(weights)}")
    total = sum(w)
    return [v / total for v in w]
