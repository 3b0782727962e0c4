"""Bravo, Flores-Mella, Guzmán (2025): what every part of the paper shares (parameters, drawn floats, H_T)."""

from __future__ import annotations

import mpmath
import sympy as sp
from flint import arb, fmpq
from hypothesis import strategies as st

from symdp.estimate import Method, enclosure, exact_ball, exact_rational, in_balls  # noqa: F401 (re-exported)
from symdp.symbols import D, T, alpha, c, eta, h, sigma
from symdp.theorem import Param


def _harmonic_ball(n):
    """H_n as an Arb ball, for an exact integer ball n ≥ 0: the exact rational Σ_{t=1}^n 1/t (``fmpq.harmonic``)."""
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
# (symdp.estimate's one door: in_balls, enclosure, exact_rational; re-exported under the names the witnesses use)

rational = exact_rational
ball = exact_ball


def built_exactly(x, method: Method = Method.EXACT):
    """:func:`~symdp.estimate.enclosure` of a number computed from the point's own numbers (the parameters and the
    structure's numbers, both read by ``to_mpf`` at the working precision) and exact constants, nothing else rounded:
    marked :class:`~symdp.statement.BuiltExactly`, so that the verifier adds no floor for a construction's rounding."""
    from symdp.statement import BuiltExactly

    return BuiltExactly(enclosure(x, method))
