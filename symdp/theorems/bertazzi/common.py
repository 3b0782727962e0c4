"""Bertazzi, Johnston, Roberts, Durmus (2025): what every part of the paper shares."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.estimate import exact_ball, exact_rational
from symdp.numeric import to_mpf
from symdp.symbols import alpha
from symdp.theorem import Param


def finite_floats(low: float, high: float) -> st.SearchStrategy[float]:
    """Finite floats in [low, high], no subnormals: the draws of every section."""
    return st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False)


P_ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.001, 1000.0), log=True, limit=(
    r"alpha -> 1 is the KL limit (checked apart, prop4.5.kl); on the Gaussian families both sides are linear in alpha "
    r"(the ratio does not depend on it), on SGLD's batch mixtures the ratio grows with alpha towards the full-batch "
    r"ratio (s = m, pinned), and Mironov's conversion is worst at alpha = 1 + sqrt(2 ln(1/delta))/shift (1.009 at "
    r"the pin); beyond 1000 the quadrature of p^alpha q^(1 - alpha) meets nothing new"))
"""The Rényi order: α ∈ (1, ∞), drawn in [1.001, 1000] (half the draws log-uniform)."""
P_ALPHA_MIXTURES = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.01, 16.0), limit=(
    r"SGLD's laws for s < m are Gaussian mixtures, whose p^alpha q^(1 - alpha) the engine integrates by quadrature: "
    r"at alpha = 1000 a point takes 10 s (the path, c = 10) to 230 s (x_n, n = 4), at alpha = 100 3 s; the ratio grows "
    r"with alpha towards the full-batch one, and s = m (one Gaussian, the ratio free of alpha) is the worst case, "
    r"drawn and pinned"))
"""The Rényi order where the laws are mixtures (SGLD with s < m): the range the quadrature affords."""


# --- measurements in ball arithmetic ---------------------------------------------------------------------------------
# (the witnesses return symdp.estimate.enclosure(...) of balls computed at symdp.estimate.in_balls())


def exact_fraction(x) -> Fraction:
    """A drawn number as the rational it is: a Fraction or int as is, an mpf exactly (every bit of the mantissa), a
    float as the mpf it means (:func:`symdp.numeric.to_mpf`), so that comparisons with the laws' rational atoms are
    decided exactly.

    >>> exact_fraction(mpmath.mpf(3) / 4), exact_fraction(Fraction(1, 3))
    (Fraction(3, 4), Fraction(1, 3))
    """
    q = exact_rational(x)
    return Fraction(int(q.p), int(q.q))


def ball(x):
    """A number as an Arb ball at flint's precision: a Fraction through fmpq (exact where it is dyadic, else rounded
    into the ball), an int or mpf exactly (:func:`symdp.estimate.exact_ball`), a float as the mpf it means, an Arb
    ball as is."""
    return exact_ball(to_mpf(x, "number") if isinstance(x, (float, str)) else x)
