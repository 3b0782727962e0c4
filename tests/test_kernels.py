"""Mixing coefficients of finite kernels against their definitions (Balle et al. 2019, Definition 1)."""

import mpmath
from flint import fmpq
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
    dob = K.dobrushin().value
    # Doeblin gamma dominates Dobrushin gamma: TV(K(x), K(x')) <= 1 - sum_y min_x K(x)(y).
    assert dob <= K.doeblin().value + 1e-40
    # Ultra-mixing: every ratio >= 1 - gamma, so TV <= gamma_um as well.
    assert dob <= K.ultra_mixing().value + 1e-40
    # (gamma, 0)-Dobrushin is Dobrushin; larger eps can only lower the coefficient.
    assert abs(K.dobrushin_eps(0).value - dob) < 1e-40
    assert K.dobrushin_eps(0.5).value <= dob + 1e-40


@given(st.integers(2, 4).flatmap(lambda n: kernels(rows=n)), st.data())
def test_dobrushin_contracts_tv(rows, data):
    K = kernel(rows)
    n = len(rows)
    P = FD.normalized(data.draw(st.lists(st.floats(0.01, 1), min_size=n, max_size=n)))
    Q = FD.normalized(data.draw(st.lists(st.floats(0.01, 1), min_size=n, max_size=n)))
    assert tv(K.apply(P), K.apply(Q)).value <= K.dobrushin().value * tv(P, Q).value + 1e-40


def test_erasure_channel_coefficients():
    # Erasure with probability 1 - g: rows (g, 0, 1-g), (0, g, 1-g): TV = g, Doeblin gamma = g (closed forms).
    g = mpmath.mpf("0.3")
    K = MarkovKernel([[g, 0, 1 - g], [0, g, 1 - g]])
    assert abs(K.dobrushin().value - g) < 1e-45
    assert abs(K.doeblin().value - g) < 1e-45
    with pytest.raises(InvalidParameter, match="positive"):
        K.ultra_mixing()


def test_bad_kernels_name_the_row():
    with pytest.raises(InvalidDistribution, match="row 1"):
        MarkovKernel([[0.5, 0.5], [0.7, 0.7]])
    with pytest.raises(InvalidDistribution, match="different lengths"):
        MarkovKernel([[0.5, 0.5], [1.0]])


def _encloses(estimate, exact):
    """Whether a certified estimate's interval holds ``exact`` (an mpf computed at a higher precision)."""
    low = mpmath.fsub(estimate.value, estimate.error, exact=True)
    high = mpmath.fadd(estimate.value, estimate.error, exact=True)
    return estimate.certified and low <= exact <= high


def test_coefficients_are_certified_enclosures_of_their_closed_forms():
    # Binary randomized response [[p, q], [q, p]] with p = 4/5, q = 1/5 (0.8 and 0.2 read as their decimals: the
    # kernel is built exactly): TV between the rows is p - q, the Doeblin coefficient 1 - 2q (the column minima are
    # q), the ultra-mixing coefficient 1 - q/p, D_{e^eps} between the rows p - e^eps q for e^eps <= p/q (closed forms
    # of the definitions, at 80 digits).
    with mpmath.workdps(30):
        K = MarkovKernel([[0.8, 0.2], [0.2, 0.8]])
        assert K.rows[0].rationals == (fmpq(4, 5), fmpq(1, 5))
        eps = mpmath.mpf("0.5")
        with mpmath.workdps(80):
            p, q = mpmath.mpf(4) / 5, mpmath.mpf(1) / 5
            tv_, doeb, um, hs = p - q, 1 - 2 * q, 1 - q / p, p - mpmath.exp(eps) * q
        assert _encloses(K.dobrushin(), tv_) and _encloses(K.doeblin(), doeb)
        assert _encloses(K.ultra_mixing(), um) and _encloses(K.dobrushin_eps(eps), hs)
        assert max(c.error for c in (K.dobrushin(), K.doeblin(), K.ultra_mixing(), K.dobrushin_eps(eps))) < 1e-28


def test_hockey_stick_over_an_interval_of_levels_brackets_every_level_in_it():
    """hockey_stick_at on an interval (low, high) holds the divergence at every level between (it is
    non-increasing in eps), and (low, inf) reaches the mass off the support."""
    from symdp.engine.kernels import hockey_stick_at

    with mpmath.workdps(30):
        P, Q = FD([0.5, 0.3, 0.2]), FD([0.2, 0.8, 0])
        wide = hockey_stick_at(P, Q, (mpmath.mpf("0.1"), mpmath.mpf("0.6")))
        for level in ("0.1", "0.3", "0.6"):
            assert _encloses(wide, hockey_stick_at(P, Q, mpmath.mpf(level)).value)
        to_infinity = hockey_stick_at(P, Q, (mpmath.mpf(0), mpmath.inf))
        assert _encloses(to_infinity, mpmath.mpf("0.2")) and _encloses(to_infinity, tv(P, Q).value)


def test_exact_rows_give_coefficients_of_the_kernel_itself():
    """Rows of exact rationals (1/3, 2/3) and (1/2, 1/2): the kernel is exact and so is P K of an exact P; its
    coefficients enclose the rationals of the definitions, by hand: TV = 1/2 - 1/3 = 1/6, Doeblin 1 - (1/3 + 1/2) =
    1/6, ultra-mixing 1 - min(1/3 / 1/2, 1/2 / 2/3) = 1/3 (none of them a binary number)."""
    from flint import arb, fmpq

    with mpmath.workdps(30):
        K = MarkovKernel([[fmpq(1, 3), fmpq(2, 3)], [fmpq(1, 2), fmpq(1, 2)]])
        assert K.exact and K.apply(FD([fmpq(1, 4), fmpq(3, 4)])).exact
        assert K.apply(FD([fmpq(1, 4), fmpq(3, 4)])).rationals == (fmpq(11, 24), fmpq(13, 24))
        for coefficient, exact in ((K.dobrushin(), fmpq(1, 6)), (K.doeblin(), fmpq(1, 6)),
                                   (K.ultra_mixing(), fmpq(1, 3))):
            assert coefficient.certified and coefficient.ball().contains(arb(exact))
            assert coefficient.error < 1e-29
        assert not MarkovKernel([[mpmath.mpf(1) / 3, mpmath.mpf(2) / 3]]).exact   # rounded thirds: not exact
