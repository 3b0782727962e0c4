"""Bravo, Flores-Mella, Guzmán (2025): what every part of the paper shares (parameters, drawn floats, H_T)."""

from __future__ import annotations

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.symbols import D, T, alpha, c, eta, h, sigma
from symdp.theorem import Param


class Harmonic(sp.harmonic):
    """The harmonic number H_T = Σ_{t=1}^T 1/t: SymPy's ``harmonic`` (exact for SymPy), printed H_T, lambdified to
    ``mpmath.harmonic``."""

    _imp_ = staticmethod(lambda n: mpmath.harmonic(n))

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
