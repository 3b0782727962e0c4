"""The numeric bottom layer: conversion to mpf, order checks, log-sum-exp.

Every other module converts user numbers here (as mpmath's ``ctx.convert`` does at its bottom), so that the engine's
modules need not import one another for a helper.

>>> print(to_mpf(0.1), logsumexp([0, 0]) == mpmath.log(2))
0.1 True
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import mpmath

from symdp.errors import InvalidParameter


def to_mpf(x, what: str = "value") -> mpmath.mpf:
    """Convert a user number to mpf at the working precision.

    Python floats are converted through their shortest decimal representation, so ``0.1`` means one tenth (what
    the user typed) rather than the binary double nearest to it; Fractions and strings are converted exactly.
    """
    if isinstance(x, mpmath.mpf):
        return +x  # rounds to the working precision
    if isinstance(x, bool):
        raise InvalidParameter(f"{what} must be a number, got a boolean")
    if isinstance(x, int):
        return mpmath.mpf(x)
    if isinstance(x, float):
        if x != x:
            raise InvalidParameter(f"{what} is NaN")
        return mpmath.mpf(repr(x))
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    if isinstance(x, str):
        try:
            return mpmath.mpf(x)
        except (ValueError, TypeError):
            raise InvalidParameter(f"{what} {x!r} is not a number") from None
    try:
        import sympy

        if isinstance(x, sympy.Basic):
            if not x.is_number:
                raise InvalidParameter(f"{what} {x} has free symbols {sorted(map(str, x.free_symbols))}")
            value = sympy.N(x, mpmath.mp.dps + 5)
            if not value.is_real:
                raise InvalidParameter(f"{what} {x} is not a real number")
            return mpmath.mpf(str(value)) if value.is_finite else mpmath.mpf(str(value).replace("oo", "inf"))
    except ImportError:  # pragma: no cover
        pass
    try:
        return mpmath.mpf(x)
    except (ValueError, TypeError):
        raise InvalidParameter(f"{what} {x!r} is not a real number") from None


def check_order(alpha) -> mpmath.mpf:
    """A Rényi order as mpf, which must be > 1 (α = 1 is the KL divergence)."""
    a = to_mpf(alpha, "Rényi order alpha")
    if not a > 1:
        raise InvalidParameter(f"Rényi order alpha must be > 1 (use kl for alpha = 1), got {mpmath.nstr(a, 10)}")
    return a


def logsumexp(logs: Sequence) -> mpmath.mpf:
    """log Σ exp(x), shifted by the largest term so that large orders and large λ neither overflow nor underflow."""
    top = max(logs)
    return top + mpmath.log(mpmath.fsum(mpmath.exp(x - top) for x in logs))
