"""Mixing coefficients of finite kernels against their definitions (Balle et al. 2019, Definition 1)."""

import mpmath
import pytest
from hypothesis import given, strategies as st

from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.engine.finite import FiniteDistribution as FD, tv
from symdp.engine.kernels import MarkovKernel
from tests.strategies import kernels


def kernel(rows):
    return MarkovKernel([FD.normalized(r).probs for r in rows])


@given(st.integers(2, 4).flatmap(lambda n: kernels(rows=n)))
def test_coefficient_orderings(rows):
    K = kernel(rows)
    # Doeblin gamma dominates Dobrushin gamma: TV(K(x), K(x')) <= 1 - sum_y min_x K(x)(y).
    assert K.dobrushin() <= K.doeblin() + 1e-40
    # Ultra-mixing: every ratio >= 1 - gamma, so TV <= gamma_um as well.
    assert K.dobrushin() <= K.ultra_mixing() + 1e-40
    # (gamma, 0)-Dobrushin is Dobrushin; larger eps can only lower the coefficient.
    assert abs(K.dobrushin_eps(0) - K.dobrushin()) < 1e-40
    assert K.dobrushin_eps(0.5) <= K.dobrushin() + 1e-40


@given(st.integers(2, 4).flatmap(lambda n: kernels(rows=n)), st.data())
def test_dobrushin_contracts_tv(rows, data):
    K = kernel(rows)
    n = len(rows)
    P = FD.normalized(data.draw(st.lists(st.floats(0.01, 1), min_size=n, max_size=n)))
    Q = FD.normalized(data.draw(st.lists(st.floats(0.01, 1), min_size=n, max_size=n)))
    assert tv(K.apply(P), K.apply(Q)).value <= K.dobrushin() * tv(P, Q).value + 1e-40


def test_erasure_channel_coefficients():
    # Erasure with probability 1 - g: rows (g, 0, 1-g), (0, g, 1-g): TV = g, Doeblin gamma = g (closed forms).
    g = mpmath.mpf("0.3")
    K = MarkovKernel([[g, 0, 1 - g], [0, g, 1 - g]])
    assert abs(K.dobrushin() - g) < 1e-45
    assert abs(K.doeblin() - g) < 1e-45
    with pytest.raises(InvalidParameter, match="positive"):
        K.ultra_mixing()


def test_bad_kernels_name_the_row():
    with pytest.raises(InvalidDistribution, match="row 1"):
        MarkovKernel([[0.5, 0.5], [0.7, 0.7]])
    with pytest.raises(InvalidDistribution, match="different lengths"):
        MarkovKernel([[0.5, 0.5], [1.0]])
