"""KL and Rényi divergences of mixtures of laws on ℤ (the subsampled discrete mechanisms), certified on all of ℤ.

The references never use symdp: each law's masses are its defining weights on [-W, W], normalised by their direct sum
there, at REF_DPS digits. W = 600 leaves out less than e^{-190} of any law here (discrete Gaussians of sd <= 3 leave
out ~e^{-(597/3)²/2}, discrete Laplaces of scale <= 3 ~e^{-597/3}), and every summand below (p log(p/q), p^α q^{1-α})
is at most a polynomial factor, or an e^{α|Δ|/b} factor, times such a tail: far below the 10^-40 compared.
"""

import math

import mpmath
import pytest

from symdp.engine import finite
from symdp.engine.divergences import divergence, mixture
from symdp.engine.integers import IntegerLaw, discrete_gaussian, discrete_laplace, divergence_on_Z
from symdp.errors import InvalidDistribution

DPS = 50
REF_DPS = 80
W = 600
SLACK = mpmath.mpf(10) ** -40


@pytest.fixture(autouse=True)
def precision():
    with mpmath.workdps(DPS):
        yield


def masses(family, loc, width):
    """A discrete Gaussian's (sd ``width``) or discrete Laplace's (scale ``width``) masses on [-W, W]."""
    with mpmath.workdps(REF_DPS):
        width = mpmath.mpf(width)
        w = [mpmath.exp(-(x - loc) ** 2 / (2 * width**2)) if family == "gaussian" else
             mpmath.exp(-abs(x - loc) / width) for x in range(-W, W + 1)]
        total = mpmath.fsum(w)
        return [v / total for v in w]


def mixed(q, a, b):
    with mpmath.workdps(REF_DPS):
        q = mpmath.mpf(q)
        return [(1 - q) * x + q * y for x, y in zip(a, b)]


def kl_ref(p, q):
    with mpmath.workdps(REF_DPS):
        return mpmath.fsum(x * mpmath.log(x / y) for x, y in zip(p, q) if x > 0)


def renyi_ref(p, q, alpha):
    with mpmath.workdps(REF_DPS):
        alpha = mpmath.mpf(alpha)
        return mpmath.log(mpmath.fsum(x**alpha * y ** (1 - alpha) for x, y in zip(p, q))) / (alpha - 1)


def law(family, loc, width):
    return (discrete_gaussian if family == "gaussian" else discrete_laplace)(loc, width)


def encloses(estimate, reference):
    """Certified, sharp, and holding the reference (up to the rounding of the mixture's masses)."""
    return (estimate.certified and estimate.error < SLACK
            and abs(estimate.value - reference) <= estimate.error + SLACK * max(1, abs(reference)))


@pytest.mark.parametrize("family, width, shift", [("gaussian", 2, 1), ("gaussian", "0.7", 2), ("laplace", 3, 1),
                                                  ("laplace", "0.5", 2)])
@pytest.mark.parametrize("alpha", [2, 3, 5])
def test_renyi_of_the_subsampled_mechanism_is_the_binomial_sum(family, width, shift, alpha):
    # R_α(M ‖ A), M = (1 - q) A + q B: E_A[(M/A)^α] = Σ_j C(α, j) (1 - q)^{α-j} q^j E_A[(B/A)^j], an integer order's
    # binomial expansion; E_A[(B/A)^j] = Σ_x A(x)^{1-j} B(x)^j summed directly. For discrete Gaussians of one sd and
    # an integer shift it is also exactly e^{j(j-1)Δ²/(2σ²)} (the sum over ℤ is shift-invariant), checked too.
    q = mpmath.mpf("0.1")
    a, b = masses(family, 0, width), masses(family, shift, width)
    with mpmath.workdps(REF_DPS):
        moments = [mpmath.fsum(x ** (1 - j) * y**j for x, y in zip(a, b)) for j in range(alpha + 1)]
        if family == "gaussian":
            for j, m in enumerate(moments):
                assert abs(m / mpmath.exp(j * (j - 1) * shift**2 / (2 * mpmath.mpf(width) ** 2)) - 1) < 1e-60
        total = mpmath.fsum(math.comb(alpha, j) * (1 - q) ** (alpha - j) * q**j * moments[j]
                            for j in range(alpha + 1))
        reference = mpmath.log(total) / (alpha - 1)
    M, A = mixture(q, law(family, 0, width), law(family, shift, width)), law(family, 0, width)
    assert encloses(divergence("renyi", M, A, alpha), reference)


@pytest.mark.parametrize("family, width, shift", [("gaussian", 2, 1), ("laplace", 3, 1), ("laplace", "0.5", 2)])
@pytest.mark.parametrize("alpha", [2, "2.5", "1.5", 8])
def test_renyi_both_orientations_at_integer_and_fractional_orders(family, width, shift, alpha):
    # the remove relation R_α(M ‖ A) and the add relation R_α(A ‖ M), against direct sums
    q = mpmath.mpf("0.05")
    a, b = masses(family, 0, width), masses(family, shift, width)
    m = mixed(q, a, b)
    M, A = mixture(q, law(family, 0, width), law(family, shift, width)), law(family, 0, width)
    assert encloses(divergence("renyi", M, A, alpha), renyi_ref(m, a, alpha))
    assert encloses(divergence("renyi", A, M, alpha), renyi_ref(a, m, alpha))


@pytest.mark.parametrize("family, width, shift", [("gaussian", 2, 1), ("gaussian", 3, -4), ("laplace", 3, 1),
                                                  ("laplace", "0.5", 2)])
def test_kl_both_orientations(family, width, shift):
    q = mpmath.mpf("0.1")
    a, b = masses(family, 0, width), masses(family, shift, width)
    m = mixed(q, a, b)
    M, A = mixture(q, law(family, 0, width), law(family, shift, width)), law(family, 0, width)
    assert encloses(divergence("kl", M, A), kl_ref(m, a))
    assert encloses(divergence("kl", A, M), kl_ref(a, m))


def test_mixtures_of_different_families_and_of_mixtures():
    # a mixture against a mixture, a nested mixture, and a discrete Laplace mixture against a discrete Gaussian:
    # every bound beyond the window is built from the parts' shapes, whatever they are
    g0, g1, l0 = masses("gaussian", 0, 2), masses("gaussian", 1, 2), masses("laplace", 0, 2)
    G0, G1, L0 = discrete_gaussian(0, 2), discrete_gaussian(1, 2), discrete_laplace(0, 2)
    M, N = mixture("0.25", G0, G1), mixture("0.75", G0, G1)
    m, n = mixed("0.25", g0, g1), mixed("0.75", g0, g1)
    assert encloses(divergence("kl", M, N), kl_ref(m, n))
    assert encloses(divergence("renyi", M, N, "3.5"), renyi_ref(m, n, "3.5"))
    nested, ref = mixture("0.5", M, L0), mixed("0.5", m, l0)
    assert encloses(divergence("kl", nested, G0), kl_ref(ref, g0))
    assert encloses(divergence("kl", G0, nested), kl_ref(g0, ref))
    assert encloses(divergence("renyi", G0, nested, 2), renyi_ref(g0, ref, 2))
    # the Laplace part's tail is heavier than N_Z(0, 4)'s: p^α q^{1-α} grows like e^{(α-1)x²/8}, R_α = ∞ (proved
    # from a lower bound of the terms, not for want of an upper one), while KL stays finite
    assert divergence("renyi", nested, G0, 2).value == mpmath.inf
    assert divergence("max_divergence", nested, G0).value == mpmath.inf


def test_the_max_divergence_of_the_subsampled_discrete_laplace_mechanism():
    # M/A = 1 - q + q B/A with B/A = e^{(|x| - |x - Δ|)/b} in [e^{-Δ/b}, e^{Δ/b}], both ends attained: D∞(M ‖ A) =
    # log(1 - q + q e^{Δ/b}), D∞(A ‖ M) = -log(1 - q + q e^{-Δ/b}); for discrete Gaussians B/A is unbounded
    q, b, shift = mpmath.mpf("0.1"), mpmath.mpf(3), 2
    M, A = mixture(q, discrete_laplace(0, b), discrete_laplace(shift, b)), discrete_laplace(0, b)
    assert encloses(divergence("max_divergence", M, A), mpmath.log(1 - q + q * mpmath.exp(shift / b)))
    assert encloses(divergence("max_divergence", A, M), -mpmath.log(1 - q + q * mpmath.exp(-shift / b)))
    G = mixture(q, discrete_gaussian(0, 2), discrete_gaussian(1, 2))
    assert divergence("max_divergence", G, discrete_gaussian(0, 2)).value == mpmath.inf
    assert divergence("renyi", A, M, mpmath.inf).value < mpmath.inf


def test_the_window_widens_for_a_mixture_and_the_bound_beyond_is_inside_the_error():
    # at 30 digits the answer is enclosed to 30 digits, and a wider precision gives a narrower ball around the same
    # value: the part beyond the window is bounded, not dropped
    q = mpmath.mpf("0.1")
    a, b = masses("gaussian", 0, "1.5"), masses("gaussian", 2, "1.5")
    reference = renyi_ref(mixed(q, a, b), a, "2.5")
    for dps in (30, 60):
        with mpmath.workdps(dps):
            M = mixture(q, discrete_gaussian(0, "1.5"), discrete_gaussian(2, "1.5"))
            e = divergence_on_Z(finite.renyi, M, discrete_gaussian(0, "1.5"), "2.5")
            assert e.certified and e.error < mpmath.mpf(10) ** -(dps - 3)
            assert abs(e.value - reference) <= e.error + mpmath.mpf(10) ** -(dps - 3)


def test_a_law_known_only_by_a_tail_bound_is_refused_with_a_message_saying_so():
    M = mixture("0.1", discrete_gaussian(0, 2), discrete_gaussian(1, 2))
    bare = IntegerLaw(M.low, M.probs, M.tail)
    for kind, args in (("kl", ()), ("renyi", (2,)), ("max_divergence", ())):
        with pytest.raises(InvalidDistribution, match="bare tail bound"):
            divergence(kind, bare, discrete_gaussian(0, 2), *args)
    # a mixture with such a part has no parts either
    assert mixture("0.5", bare, discrete_gaussian(0, 2)).parts is None
