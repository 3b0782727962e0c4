"""Bravo, Flores-Mella, Guzmán (2025): what every part of the paper shares (parameters, drawn floats, H_T)."""

from __future__ import annotations

import contextlib
from typing import Iterator

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.estimate import Estimate, Method, arb_precision
from symdp.numeric import to_mpf
from symdp.symbols import D, T, alpha, c, eta, h, sigma
from symdp.theorem import Param


def _harmonic_ball(n):
    """H_n as an Arb ball, for an exact integer ball n ≥ 0: the exact rational Σ_{t=1}^n 1/t (``fmpq.harmonic``)."""
    from flint import arb, fmpq

    from symdp.statement import Uncertain

    if not (n.is_exact() and n.is_integer() and n >= 0):
        raise Uncertain(f"H_n needs an exact integer n >= 0, got {n}")
    return arb(fmpq.harmonic(int(n.unique_fmpz())))


class Harmonic(sp.harmonic):
    """The harmonic number H_T = Σ_{t=1}^T 1/t: SymPy's ``harmonic`` (exact for SymPy), printed H_T, lambdified to
    ``mpmath.harmonic``, and in balls to the exact rational sum (:func:`_harmonic_ball`)."""

    _imp_ = staticmethod(lambda n: mpmath.harmonic(n))
    _arb_ = staticmethod(_harmonic_ball)

    def _latex(self, printer, exp=None):
        body = rf"H_{{{printer._print(self.args[0])}}}"
        return body if exp is None else rf"\left({body}\right)^{{{exp}}}"


def finite_floats(low: float, high: float) -> st.SearchStrategy[float]:
    """Finite floats in [low, high], no subnormals: the draws of every section."""
    return st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False)


P_ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.01, 16.0))
P_D = Param(D, sp.Interval.open(0, sp.oo), sample=(0.1, 10.0))
P_SIGMA = Param(sigma, sp.Interval.open(0, sp.oo), sample=(0.05, 5.0))
P_T = Param(T, sp.Range(1, sp.oo), sample=(1, 40))
P_C = Param(c, sp.Interval.open(0, sp.oo), sample=(0.2, 3.0))
P_H = Param(h, sp.Interval(0, sp.oo), sample=(0.0, 2.0))
P_ETA = Param(eta, sp.Interval.open(0, sp.oo), sample=(0.01, 2.0))


# --- Ball arithmetic: how the witnesses of this paper measure a derived number as a certified enclosure -------------

GUARD_BITS = 30
"""Bits beyond mpmath's working precision at which the witnesses compute their balls."""


@contextlib.contextmanager
def in_balls() -> Iterator[None]:
    """Run a block with flint's precision at mpmath's working precision plus :data:`GUARD_BITS`."""
    with arb_precision(mpmath.mp.prec + GUARD_BITS):
        yield


def rational(x, what: str = "value"):
    """A number as the exact rational (``flint.fmpq``) of the binary number the witness works with: ``to_mpf(x)``
    (a drawn float read as its decimal, rounded to the working precision), every bit kept; an int or a rational
    stays itself.

    >>> with mpmath.workprec(53):
    ...     print(rational(0.75), rational(3), rational(mpmath.mpf(-2.5)))
    3/4 3 -5/2
    """
    from flint import fmpq, fmpz

    if isinstance(x, (fmpq, fmpz, int)) and not isinstance(x, bool):
        return fmpq(x)
    value = to_mpf(x, what)
    sign, man, exp, _ = value._mpf_
    man = -int(man) if sign else int(man)
    return fmpq(man * 2 ** max(exp, 0), 2 ** max(-exp, 0))


def ball(x):
    """An exact rational (or an int) as an Arb ball at flint's precision; a ball stays itself."""
    from flint import arb

    return x if isinstance(x, arb) else arb(x)


def enclosure(x, method: Method = Method.EXACT, **fields) -> Estimate:
    """The certified estimate enclosing a ball or an exact rational (``Method.exact``: a finite formula in Arb);
    ``fields`` (``scale=``) are kept on it."""
    from dataclasses import replace

    estimate = Estimate.from_arb(ball(x), method)
    return replace(estimate, **fields) if fields else estimate


def built_exactly(x, method: Method = Method.EXACT):
    """:func:`enclosure` of a number computed from the point's own numbers (the parameters and the structure's
    numbers, both read by ``to_mpf`` at the working precision) and exact constants, nothing else rounded: marked
    :class:`~symdp.statement.BuiltExactly`, so that the verifier adds no floor for a construction's rounding."""
    from symdp.statement import BuiltExactly

    return BuiltExactly(enclosure(x, method))
