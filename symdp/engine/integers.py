"""Laws on the integers: the output laws of discrete mechanisms, as an engine object with its own rule.

An :class:`IntegerLaw` is a finite law that knows where it lives: its probabilities on the integers ``low, low + 1,
..., high``. Two integer laws are compared on the union of their windows (each padded with zeros), so a shifted
mechanism's outputs need no common indexing by hand, and every quantity of finite laws (exact sums in ball
arithmetic) applies. The discrete mechanisms' families are built on a window: :func:`discrete_gaussian` (the
discrete Gaussian of Canonne, Kamath and Steinke) and :func:`discrete_laplace`, each restricted to the window and
normalised there, as the catalogue's generator (iv) is; a law on all of ℤ with certified tails is one more rule.

>>> import mpmath
>>> from symdp.engine.divergences import divergence
>>> with mpmath.workdps(30):      # KL of N_Z(1, 1) against N_Z(0, 1): Δ²/(2σ²) = 1/2 (the cut tails < 1e-190)
...     P, Q = discrete_gaussian(1, 1, -29, 30), discrete_gaussian(0, 1, -30, 30)
...     print(mpmath.nstr(divergence("kl", P, Q).value, 20))
0.5
>>> divergence("kl", discrete_gaussian(1, 1, -29, 31), Q).value    # P has mass at 31, where Q has none
mpf('+inf')
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

from symdp.engine.finite import FiniteDistribution
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.numeric import to_mpf


@dataclass(frozen=True, init=False)
class IntegerLaw(FiniteDistribution):
    """Probabilities on the integers ``low, ..., low + len - 1`` (validated as a finite law's)."""

    low: int

    def __init__(self, low, probs):
        if int(low) != low:
            raise InvalidDistribution(f"an integer law starts at an integer, got {low}")
        super().__init__(probs)
        object.__setattr__(self, "low", int(low))

    @classmethod
    def normalized(cls, low, weights) -> "IntegerLaw":
        """The law on ``low, low + 1, ...`` proportional to non-negative ``weights``."""
        return cls(low, FiniteDistribution.normalized(weights).probs)

    @property
    def high(self) -> int:
        return self.low + len(self) - 1

    def on(self, low: int, high: int) -> FiniteDistribution:
        """The probabilities on ``low, ..., high`` (a window holding this law's), as a finite law."""
        if low > self.low or high < self.high:
            raise InvalidDistribution(f"the window [{low}, {high}] does not hold [{self.low}, {self.high}]")
        zeros = [mpmath.mpf(0)]
        return FiniteDistribution(zeros * (self.low - low) + list(self.probs) + zeros * (high - self.high))


def aligned(P: IntegerLaw, Q: IntegerLaw) -> tuple[FiniteDistribution, FiniteDistribution]:
    """Two integer laws as finite laws on the union of their windows.

    >>> [list(map(float, D)) for D in aligned(IntegerLaw(0, [0.5, 0.5]), IntegerLaw(1, [1]))]
    [[0.5, 0.5], [0.0, 1.0]]
    """
    low, high = min(P.low, Q.low), max(P.high, Q.high)
    return P.on(low, high), Q.on(low, high)


def _window(loc, low, high, what: str) -> tuple[mpmath.mpf, int, int]:
    if int(low) != low or int(high) != high or high < low:
        raise InvalidParameter(f"the window of a {what} is two integers low <= high, got [{low}, {high}]")
    return to_mpf(loc, f"{what} location"), int(low), int(high)


def _scale(x, what: str) -> mpmath.mpf:
    value = to_mpf(x, what)
    if not (mpmath.isfinite(value) and value > 0):
        raise InvalidParameter(f"{what} must be a positive number, got {x}")
    return value


def discrete_gaussian(loc, sd, low: int, high: int) -> IntegerLaw:
    """N_ℤ(loc, sd²) on ``low, ..., high``: P(x) ∝ exp(−(x − loc)²/(2 sd²)), normalised on the window.

    >>> with mpmath.workdps(20):
    ...     print(mpmath.nstr(discrete_gaussian(0, 1, -1, 1).probs[1], 10))   # 1/(1 + 2 e^{-1/2})
    0.4518627619
    """
    centre, lo, hi = _window(loc, low, high, "discrete Gaussian")
    sd = _scale(sd, "the standard deviation of a discrete Gaussian")
    return IntegerLaw.normalized(lo, [mpmath.exp(-(x - centre) ** 2 / (2 * sd**2)) for x in range(lo, hi + 1)])


def discrete_laplace(loc, scale, low: int, high: int) -> IntegerLaw:
    """The discrete Laplace law on ``low, ..., high``: P(x) ∝ exp(−|x − loc|/scale), normalised on the window.

    >>> with mpmath.workdps(20):      # on [-1, 1]: 1/(1 + 2 e^{-1/b}) at the centre
    ...     print(mpmath.nstr(discrete_laplace(0, 1, -1, 1).probs[1], 10))
    0.5761168848
    """
    centre, lo, hi = _window(loc, low, high, "discrete Laplace law")
    scale = _scale(scale, "the scale of a discrete Laplace law")
    return IntegerLaw.normalized(lo, [mpmath.exp(-abs(x - centre) / scale) for x in range(lo, hi + 1)])
