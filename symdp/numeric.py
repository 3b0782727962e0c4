"""The numeric bottom layer: conversion to mpf, order checks, log-sum-exp.

Every other module converts user numbers here (as mpmath's ``ctx.convert`` does at its bottom), so that the engine's
modules need not import one another for a helper.

>>> print(to_mpf(0.1), logsumexp([0, 0]) == mpmath.log(2))
0.1 True
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import mpmath
from flint import arb, ctx

from symdp.errors import InvalidParameter
from symdp.estimate import arb_precision, exact_ball, mpf_nearest


@lru_cache(maxsize=8192)
def _float_mpf(x: float, prec: int) -> mpmath.mpf:
    """A float's shortest decimal read at ``prec`` bits, kept: a draw's floats are read at each working precision by
    the verifier and again by the witness, and reading a decimal is the costly part."""
    return mpmath.mpf(float.__repr__(x))      # NumPy 2's float64 (a float) has a repr of its own


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
        return _float_mpf(x, mpmath.mp.prec)
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


def to_mpf_up(x, what: str) -> mpmath.mpf:
    """A user number as the least mpf of the working precision not below it, for a quantity a bound grows with
    (:func:`to_mpf` reads a decimal to the nearest): a float by its shortest decimal, a decimal string or a Fraction
    exactly, then rounded up.

    >>> to_mpf_up(0.3, "x") > mpmath.mpf("0.3")      # the nearest binary number to 3/10 lies below it
    True
    """
    value = to_mpf(x, what)                     # validates
    if isinstance(x, (mpmath.mpf, int)) and not isinstance(x, bool):
        return mpmath.fadd(x, 0, rounding="c")
    if isinstance(x, float) and mpmath.isfinite(value):
        x = float.__repr__(x)
    if isinstance(x, str):
        return mpmath.mpf(mpmath.libmp.from_str(x.strip(), mpmath.mp.prec, "c"))
    if isinstance(x, Fraction):
        return mpmath.mpf(mpmath.libmp.from_rational(x.numerator, x.denominator, mpmath.mp.prec, "c"))
    return value


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


# mpmath's pure-Python erfc squares its argument as a float to pick a method, which overflows beyond ~1.5e154 (the
# GMP backend does not): above this size, the asymptotic series below is used instead.
_ERFC_SERIES_FROM = mpmath.mpf(2) ** 400


def erfc(x) -> mpmath.mpf:
    """The complementary error function at the working precision, for any real ``x``.

    Equal to ``mpmath.erfc`` where that answers; beyond ``|x| = 2^400`` (where mpmath's pure-Python backend
    overflows), the midpoint of :func:`arb_erfc`'s enclosure, whose asymptotic series needs a few terms there.

    >>> x = mpmath.mpf(10) ** 155      # log erfc(x) = -x² - log(x√π) + O(1/x²)
    >>> print(mpmath.nstr(-mpmath.log(erfc(x)) / (x * x), 5), erfc(-x))
    1.0 2.0
    >>> abs(erfc(3) - mpmath.erfc(3)) < mpmath.eps
    True
    """
    x = mpmath.mpf(x)
    if abs(x) < _ERFC_SERIES_FROM:
        return mpmath.erfc(x)
    with arb_precision(mpmath.mp.prec + 20):   # arb_erfc keeps e^{-x²} sharp however large x is
        ball = arb_erfc(exact_ball(x))
    return mpf_nearest(ball.mid())


def ncdf(x, mu=0, sigma=1) -> mpmath.mpf:
    """The normal CDF ``Φ((x - μ)/σ)``: ``mpmath.ncdf``, and beyond its reach (see :func:`erfc`) the series."""
    z = (mpmath.mpf(x) - mu) / sigma
    if abs(z) < _ERFC_SERIES_FROM:
        return mpmath.ncdf(x, mu, sigma)
    return erfc(-z / mpmath.sqrt(2)) / 2


def arb_erfc(x):
    """The complementary error function of an Arb ball, sharp for large arguments too.

    Arb's own ``erfc`` of an inexact ball near 10^6 (10^6/3, say) loses every digit unless run at tens of thousands
    of bits. For ``x >= 2`` this sums the asymptotic series ``erfc(x) = e^{-x²}/(x√π) (Σ_{k<N} (-1)^k (2k-1)!!/(2x²)^k + R_N)``,
    whose remainder is bounded by its first omitted term, ``|R_N| <= (2N-1)!!/(2x²)^N`` (the series alternates, for
    real x > 0), while that term is below the working precision; otherwise, and for balls not certainly >= 2,
    Arb's ``erfc``.

    >>> from flint import arb
    >>> x = arb(10) ** 6 / 3             # erfc(x) is about 10^-48254942077: Arb's erfc cannot tell it from 0
    >>> ball = arb_erfc(x)
    >>> ball.rad() < 1e-3 * ball, x.erfc().rad() < 1e-3 * ball     # x is known to 1e-16: 2x·1e-16 of it
    (True, False)
    >>> print(arb_erfc(arb(30)).overlaps(arb(30).erfc()), arb_erfc(arb(-1)).overlaps(arb(-1).erfc()))
    True True
    """
    if not x >= 2:
        return x.erfc()
    direct = x.erfc()     # sharp unless x is huge: then its propagated radius swamps it, and the series is needed
    if direct.rel_accuracy_bits() >= ctx.prec - 40:
        return direct
    tolerance = arb(2) ** -(ctx.prec + 8)
    ratio = 1 / (2 * x * x)
    term, total, k = arb(1), arb(0), 1
    while True:
        total += term
        term = -term * (2 * k - 1) * ratio
        if abs(term) < tolerance:
            break
        if not abs(term) < abs(total) or k > ctx.prec:   # the series no longer helps at this precision
            return x.erfc()
        k += 1
    series = total + arb(0, abs(term).upper())
    # e^{-x²} is known relative to the absolute error of x²: with 2 log2|x| more bits, an exact x keeps every digit
    man, exp = x.abs_upper().man_exp()
    with arb_precision(ctx.prec + 2 * max(0, int(exp) + int(man).bit_length())):
        head = (-x * x).exp()
    return head / (x * arb.pi().sqrt()) * series
