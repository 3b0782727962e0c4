"""Laws on the integers (symdp.engine.integers): discrete mechanisms through the engine's door.

References are computed here from the defining weights (sums written in the test) or are properties of the families
(the discrete Laplace mechanism with shift k is exactly (k/b)-DP), never symdp's own output.
"""

import mpmath
import pytest

from symdp.engine.divergences import divergence, mixture
from symdp.engine.finite import FiniteDistribution
from symdp.engine.integers import IntegerLaw, discrete_gaussian, discrete_laplace
from symdp.engine.products import compose
from symdp.errors import InvalidDistribution, InvalidParameter

TINY = mpmath.mpf(10) ** -40


@pytest.fixture(autouse=True)
def precision():
    with mpmath.workdps(50):
        yield


def weights_on(window, weight):
    w = [weight(x) for x in window]
    return {x: v / mpmath.fsum(w) for x, v in zip(window, w)}


def test_discrete_laplace_shift_is_its_privacy_level_up_to_the_cut_tails():
    # On all of Z, D∞ of the discrete Laplace mechanism with shift k is k/b (the log-ratio is ±k/b in the tails) and
    # the hockey stick at ε = k/b is 0. On a window the two laws' normalisers differ by the cut tails' mass, below
    # 4 e^{-38/b} here: that much, and no more, separates the window's values from the closed forms.
    b, k = mpmath.mpf("0.7"), 2
    P, Q = discrete_laplace(k, b, -40, 40), discrete_laplace(0, b, -40, 40)
    cut = 4 * mpmath.exp(-38 / b)
    assert abs(divergence("max_divergence", P, Q).value - k / b) < cut
    assert divergence("hockey_stick", P, Q, k / b).value < cut
    assert divergence("hockey_stick", P, Q, k / b - mpmath.mpf("0.01")).value > 1e-3


def test_divergences_of_shifted_windows_are_those_of_the_sums_written_here():
    # P lives on [0, 6], Q on [-3, 9]: the engine aligns them; the references sum the weights on the union
    p = weights_on(range(0, 7), lambda x: mpmath.exp(-(x - 3) ** 2 / 8))
    q = weights_on(range(-3, 10), lambda x: mpmath.exp(-abs(x - 2) / mpmath.mpf(1.5)))
    P, Q = discrete_gaussian(3, 2, 0, 6), discrete_laplace(2, 1.5, -3, 9)
    kl = mpmath.fsum(v * mpmath.log(v / q[x]) for x, v in p.items())
    tv = mpmath.fsum(abs(p.get(x, 0) - q[x]) for x in q) / 2
    hs = mpmath.fsum(max(0, p.get(x, 0) - mpmath.e * q[x]) for x in q)
    assert abs(divergence("kl", P, Q).value - kl) < TINY
    assert abs(divergence("tv", P, Q).value - tv) < TINY
    assert abs(divergence("hockey_stick", P, Q, 1).value - hs) < TINY
    assert divergence("kl", Q, P).value == mpmath.inf    # Q has mass where P has none


def test_mixtures_and_compositions_of_integer_laws_align_their_windows():
    P, Q = IntegerLaw(0, ["0.5", "0.5"]), IntegerLaw(1, ["0.25", "0.75"])
    M = mixture(0.5, P, Q)
    assert isinstance(M, IntegerLaw) and M.low == 0 and [float(x) for x in M] == [0.25, 0.375, 0.375]
    # two rounds: the explicit product of the aligned laws (0.5, 0.5, 0) and (0, 0.25, 0.75)
    A, B = FiniteDistribution(["0.5", "0.5", "0"]), FiniteDistribution(["0", "0.25", "0.75"])
    want = divergence("hockey_stick", A.product(A), B.product(B), "0.3").value
    assert abs(divergence("hockey_stick", compose(2, P), compose(2, Q), "0.3").value - want) < TINY


def test_bad_integer_laws_are_refused_with_a_clear_error():
    with pytest.raises(InvalidParameter, match="standard deviation"):
        discrete_gaussian(0, -1, -3, 3)
    with pytest.raises(InvalidParameter, match="scale"):
        discrete_laplace(0, 0, -3, 3)
    with pytest.raises(InvalidParameter, match="low <= high"):
        discrete_gaussian(0, 1, 3, -3)
    with pytest.raises(InvalidParameter, match="low <= high"):
        discrete_laplace(0, 1, 0.5, 3)
    with pytest.raises(InvalidDistribution, match="starts at an integer"):
        IntegerLaw(0.5, [1])
    with pytest.raises(InvalidDistribution, match="sum to"):
        IntegerLaw(0, [0.5, 0.6])
