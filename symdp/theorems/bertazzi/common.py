"""Bertazzi, Johnston, Roberts, Durmus (2025): what every part of the paper shares."""

from __future__ import annotations

import sympy as sp
from hypothesis import strategies as st

from symdp.symbols import alpha
from symdp.theorem import Param


def finite_floats(low: float, high: float) -> st.SearchStrategy[float]:
    """Finite floats in [low, high], no subnormals: the draws of every section."""
    return st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False)


P_ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.01, 16.0))
