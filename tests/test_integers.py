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


# --- laws on all of ℤ ---------------------------------------------------------------------------------------------
# References: direct mpmath sums over [-2000, 2000] at 20 more digits (every weight beyond is below e^{-1000}), or
# closed forms derived and written here. DPS is the working precision of these tests (the fixture above).

import functools
import pickle

from hypothesis import example, given, settings, strategies as st
from flint import arb

from symdp.engine import finite
from symdp.engine.integers import LossLattice, divergence_on_Z, loss_lattice, randomized_response
from symdp.estimate import arb_precision, mpf_of

DPS = 50
REACH = 2000
SHARP = mpmath.mpf(10) ** -(DPS - 5)     # what "to working precision" means for an answer of size <= 10


def gaussian_weight(loc, sd):
    return ("gaussian", loc, str(sd))


def laplace_weight(loc, scale):
    return ("laplace", loc, str(scale))


@functools.lru_cache(maxsize=None)
def masses_on_Z(weight):
    """The law's masses on [-REACH, REACH], normalised by the direct sum there, at DPS + 20 digits."""
    family, loc, parameter = weight
    with mpmath.workdps(DPS + 20):
        width = mpmath.mpf(parameter)
        w = {x: mpmath.exp(-(x - loc) ** 2 / (2 * width**2)) if family == "gaussian"
             else mpmath.exp(-abs(x - loc) / width) for x in range(-REACH, REACH + 1)}
        total = mpmath.fsum(w.values())
        return {x: v / total for x, v in w.items()}


def sum_on_Z(term, p, q):
    with mpmath.workdps(DPS + 20):
        return mpmath.fsum(term(p[x], q[x]) for x in p)


def encloses(estimate, reference, slack=SHARP):
    """The certified estimate holds the reference, up to the rounding of its inputs (relative ``slack``), and is
    sharp (its error below ``slack``)."""
    return (estimate.certified and estimate.error < slack
            and abs(estimate.value - reference) <= estimate.error + slack * max(1, abs(reference)))


@pytest.mark.parametrize("law, weight", [
    (lambda: discrete_gaussian(0, 1), gaussian_weight(0, 1)),
    (lambda: discrete_gaussian(-3, "0.3"), gaussian_weight(-3, "0.3")),
    (lambda: discrete_gaussian(7, "7.5"), gaussian_weight(7, "7.5")),
    (lambda: discrete_laplace(0, 1), laplace_weight(0, 1)),
    (lambda: discrete_laplace(2, "0.2"), laplace_weight(2, "0.2")),
    (lambda: discrete_laplace(-5, 9), laplace_weight(-5, 9)),
])
def test_laws_on_Z_have_the_masses_of_the_direct_sum_and_a_certified_tail(law, weight):
    D, reference = law(), masses_on_Z(weight)
    for x, p in zip(range(D.low, D.high + 1), D.probs):
        assert abs(p - reference[x]) <= reference[x] * SHARP
    left_out = mpmath.fsum(v for x, v in reference.items() if not D.low <= x <= D.high)
    assert left_out <= D.tail < mpmath.mpf(10) ** -DPS      # the bound holds and is far below the precision
    with arb_precision(400):
        assert abs(mpf_of(sum((arb(p) for p in D.probs), arb(0)).mid()) + left_out - 1) < SHARP


def test_the_discrete_laplace_normaliser_is_the_geometric_series():
    # Σ_x e^{-|x|/b} = (1 + e^{-1/b})/(1 - e^{-1/b}) = coth(1/(2b)): the mass at loc is tanh(1/(2b))
    for b in ("0.5", "3", "40"):
        D = discrete_laplace(4, b)
        assert abs(D.probs[4 - D.low] - mpmath.tanh(1 / (2 * mpmath.mpf(b)))) < SHARP


@settings(max_examples=12)
@given(b=st.sampled_from(["0.25", "0.5", "1", "2.5", "7"]), eps=st.floats(-3, 5))
@example(b="1", eps=1.0)     # ε = 1/b: δ = 0 exactly
def test_discrete_laplace_hockey_stick_of_shift_one_is_its_closed_form(b, eps):
    # P = DL(1, b), Q = DL(0, b), r = e^{-1/b}: the loss is -1/b on x <= 0 and 1/b on x >= 1, so for ε >= -1/b only
    # x >= 1 counts: δ(ε) = P(X >= 1) - e^ε Q(X >= 1) = (1 - e^{ε - 1/b})/(1 + r), and 0 beyond ε = 1/b; below -1/b,
    # x <= 0 adds Q(X <= 0)(r - e^ε) = (r - e^ε)/(1 + r).
    b, e = mpmath.mpf(b), mpmath.mpf(eps)
    r = mpmath.exp(-1 / b)
    closed = max(0, 1 - mpmath.exp(e - 1 / b)) / (1 + r) + max(0, r - mpmath.exp(e)) / (1 + r)
    estimate = divergence_on_Z(finite.hockey_stick, discrete_laplace(1, b), discrete_laplace(0, b), e)
    assert encloses(estimate, closed)


def test_discrete_laplace_hockey_stick_is_the_direct_sum():
    p, q = masses_on_Z(laplace_weight(1, "0.7")), masses_on_Z(laplace_weight(0, "0.7"))
    for eps in ("0", "0.5", "1.2"):
        e = mpmath.mpf(eps)
        direct = sum_on_Z(lambda a, c: max(0, a - mpmath.exp(e) * c), p, q)
        assert encloses(divergence_on_Z(finite.hockey_stick, discrete_laplace(1, "0.7"), discrete_laplace(0, "0.7"),
                                        e), direct)


def test_kl_of_shifted_discrete_gaussians_is_the_direct_sum():
    p, q = masses_on_Z(gaussian_weight(1, 1)), masses_on_Z(gaussian_weight(0, 1))
    direct = sum_on_Z(lambda a, c: a * mpmath.log(a / c), p, q)
    assert abs(direct - mpmath.mpf(1) / 2) < SHARP            # and E_P[L] = Δ²/(2σ²) for an integer shift
    assert encloses(divergence_on_Z(finite.kl, discrete_gaussian(1, 1), discrete_gaussian(0, 1)), direct)


@pytest.mark.parametrize("P, Q, p_weight, q_weight", [
    (lambda: discrete_gaussian(0, 1), lambda: discrete_gaussian(0, 2), gaussian_weight(0, 1), gaussian_weight(0, 2)),
    (lambda: discrete_laplace(0, 1), lambda: discrete_gaussian(1, 3), laplace_weight(0, 1), gaussian_weight(1, 3)),
    (lambda: discrete_gaussian(2, 3), lambda: discrete_laplace(0, 1), gaussian_weight(2, 3), laplace_weight(0, 1)),
    (lambda: discrete_laplace(1, 1), lambda: discrete_laplace(0, 2), laplace_weight(1, 1), laplace_weight(0, 2)),
])
def test_every_quantity_of_laws_on_Z_is_the_direct_sum(P, Q, p_weight, q_weight):
    # mixed families and scales: the contribution beyond the window is bounded from the shapes, not cut
    P, Q, p, q = P(), Q(), masses_on_Z(p_weight), masses_on_Z(q_weight)
    half = mpmath.mpf(1) / 2
    references = {
        (finite.kl,): sum_on_Z(lambda a, c: a * mpmath.log(a / c), p, q),
        (finite.tv,): sum_on_Z(lambda a, c: abs(a - c) / 2, p, q),
        (finite.hockey_stick, half): sum_on_Z(lambda a, c: max(0, a - mpmath.exp(half) * c), p, q),
        (finite.loss_mgf, -half): sum_on_Z(lambda a, c: mpmath.sqrt(a * c), p, q),
    }
    for (function, *args), reference in references.items():
        assert encloses(divergence_on_Z(function, P, Q, *args), reference), function.__name__
    with mpmath.workdps(DPS + 20):
        second = sum_on_Z(lambda a, c: a * a / c, p, q)
        renyi = mpmath.log(second) if mpmath.isfinite(second) and second < 1e100 else mpmath.inf
    estimate = divergence_on_Z(finite.renyi, P, Q, 2)
    # a Laplace against a Gaussian: Σ p²/q grows like e^{x²/18 - 2|x|}: infinite, which the direct sum sees as huge
    assert estimate.value == mpmath.inf if renyi == mpmath.inf else encloses(estimate, renyi)


def test_max_divergence_on_Z_is_the_supremum_of_the_log_ratio():
    # Laplaces of one scale: |Δ|/b, reached on a half-line; a Gaussian against a wider one: log(θ_Q/θ_P) at 0 (the
    # log-ratio -x²/2 + x²/8 peaks there); Gaussians of one sd and different locations: +∞ (the loss is linear in x)
    assert encloses(divergence_on_Z(finite.max_divergence, discrete_laplace(3, "0.5"), discrete_laplace(0, "0.5")), 6)
    p, q = masses_on_Z(gaussian_weight(0, 1)), masses_on_Z(gaussian_weight(0, 2))
    peak = mpmath.log(p[0] / q[0])
    assert encloses(divergence_on_Z(finite.max_divergence, discrete_gaussian(0, 1), discrete_gaussian(0, 2)), peak)
    assert divergence_on_Z(finite.max_divergence, discrete_gaussian(1, 1), discrete_gaussian(0, 1)).value == mpmath.inf
    # N_Z(5, 1) against N_Z(0, 1.01²): the log-ratio's peak, (a1 l1 - a2 l2)/(a1 - a2) ≈ 254, lies far beyond both
    # windows (about ±20): the supremum is found there, not at the window's edge
    p, q = masses_on_Z(gaussian_weight(5, 1)), masses_on_Z(gaussian_weight(0, "1.01"))
    with mpmath.workdps(DPS + 20):
        peak = max(mpmath.log(p[x] / q[x]) for x in range(200, 300))
    assert encloses(divergence_on_Z(finite.max_divergence, discrete_gaussian(5, 1), discrete_gaussian(0, "1.01")),
                    peak)
    # a law on ℤ against a finite law: mass where the finite law has none
    assert divergence_on_Z(finite.kl, discrete_laplace(0, 1), randomized_response(3, 1, 0)).value == mpmath.inf


@settings(max_examples=10)
@given(sd=st.sampled_from(["0.4", "1", "1.5", "3"]), shift=st.integers(-3, 3), alpha=st.integers(2, 4))
def test_renyi_of_integer_shifted_discrete_gaussians_is_alpha_shift_squared_over_two_variances(sd, shift, alpha):
    # Σ_x p^α q^{1-α} = e^{α(α-1)Δ²/(2σ²)} θ(αΔ)/θ(0), θ(c) = Σ_x e^{-(x-c)²/(2σ²)}: θ(αΔ) = θ(0) for integer αΔ
    sd = mpmath.mpf(sd)
    estimate = divergence_on_Z(finite.renyi, discrete_gaussian(shift, sd), discrete_gaussian(0, sd), alpha)
    assert encloses(estimate, alpha * shift**2 / (2 * sd**2))


def test_approximate_max_divergence_on_Z_encloses_the_inverse_of_the_closed_form():
    # DL(1, b) against DL(0, b): δ(ε) = (1 - e^{ε - 1/b})/(1 + r) on [-1/b, 1/b], so ε(δ) = 1/b + log(1 - δ(1 + r))
    b = mpmath.mpf(2)
    r = mpmath.exp(-1 / b)
    for delta in ("0.01", "0.2"):
        d = mpmath.mpf(delta)
        estimate = divergence_on_Z(finite.approximate_max_divergence, discrete_laplace(1, b), discrete_laplace(0, b), d)
        assert encloses(estimate, 1 / b + mpmath.log(1 - d * (1 + r)))


# --- randomized response ------------------------------------------------------------------------------------------


@settings(max_examples=15)
@given(k=st.integers(2, 6), eps=st.floats(0, 6), fraction=st.floats(0, 1), data=st.data())
@example(k=2, eps=0.0, fraction=0.0, data=None)
def test_randomized_response_hockey_stick_is_its_closed_form(k, eps, fraction, data):
    # atoms: at i, (e^ε - e^{ε'})/Z > 0; at j, (1 - e^{ε'+ε})/Z <= 0; elsewhere (1 - e^{ε'})/Z <= 0 for ε' >= 0
    i, j = (0, 1) if data is None else data.draw(st.permutations(range(k)))[:2]
    e = mpmath.mpf(eps)
    e_prime = e * mpmath.mpf(fraction)
    estimate = divergence("hockey_stick", randomized_response(k, e, i), randomized_response(k, e, j), e_prime)
    assert encloses(estimate, (mpmath.exp(e) - mpmath.exp(e_prime)) / (mpmath.exp(e) + k - 1))


def test_randomized_response_has_its_probabilities():
    law = randomized_response(4, mpmath.log(3), 2)      # e^ε = 3: 3/6 at 2, 1/6 elsewhere
    assert law.low == 0 and len(law) == 4
    assert all(abs(p - want) < SHARP for p, want in zip(law.probs, [mpmath.mpf(1) / 6] * 2 + [mpmath.mpf(1) / 2,
                                                                                                mpmath.mpf(1) / 6]))


@pytest.mark.parametrize("call, message", [
    (lambda: randomized_response(1, 1, 0), "k = 1"),
    (lambda: randomized_response(2.5, 1, 0), "k = 2.5"),
    (lambda: randomized_response(True, 1, 0), "k = True"),
    (lambda: randomized_response(3, -0.5, 0), "eps of randomized response .* got -0.5"),
    (lambda: randomized_response(3, float("inf"), 0), "eps of randomized response .* got inf"),
    (lambda: randomized_response(3, 1, 3), r"\{0, ..., 2\}, got i = 3"),
    (lambda: randomized_response(3, 1, -1), "got i = -1"),
    (lambda: randomized_response(3, 1, 0.5), "got i = 0.5"),
    (lambda: discrete_laplace(0.5, 1), "location of a discrete Laplace law on ℤ must be an integer, got 0.5"),
    (lambda: discrete_gaussian("1/3", 1), "location of a discrete Gaussian on ℤ must be an integer"),
    (lambda: discrete_gaussian(0, 0), "standard deviation of a discrete Gaussian must be a positive number, got 0"),
    (lambda: discrete_gaussian(0, float("inf")), "standard deviation .* got inf"),
    (lambda: discrete_laplace(0, -2), "scale of a discrete Laplace law must be a positive number, got -2"),
    (lambda: discrete_laplace(0, 1, low=-3), "low <= high, got \\[-3, None\\]"),
])
def test_bad_parameters_of_the_discrete_mechanisms_get_one_line_errors(call, message):
    with pytest.raises(InvalidParameter, match=message) as caught:
        call()
    assert "\n" not in str(caught.value)


def test_too_wide_a_law_on_Z_is_refused_not_truncated():
    with pytest.raises(InvalidParameter, match="atoms"):
        discrete_gaussian(0, 10**6)


def test_laws_on_Z_pickle_with_their_shape():
    D = discrete_gaussian(1, "1.5")
    again = pickle.loads(pickle.dumps(D))
    assert again == D and again.shape == D.shape and again.tail == D.tail


# --- the privacy-loss lattice -------------------------------------------------------------------------------------


def total(balls):
    return sum(balls, arb(0))


def sums_to_one(lattice: LossLattice) -> bool:
    """Each side's masses, with its infinite loss and its tail bound, hold 1: Σ p + p_∞ <= 1 <= Σ p + p_∞ + tail, up
    to the rounding of masses given as numbers (a finite law's)."""
    with arb_precision(mpmath.mp.prec + 40):
        ok, rounding = True, arb(SHARP)
        for masses, infinite, tail in ((lattice.p, lattice.p_infinite, lattice.p_tail),
                                       (lattice.q, lattice.q_infinite, lattice.q_tail)):
            listed = total(masses) + infinite
            ok = ok and not listed > 1 + rounding and not listed + tail.upper() + rounding < 1 and listed.rad() < SHARP
        return ok


def loss_law(p, q):
    """The privacy-loss law of the pair under P, computed here: {rounded loss value: P-mass}."""
    law = {}
    for x in p:
        if p[x] > mpmath.mpf(10) ** -(DPS + 15):
            key = mpmath.nstr(mpmath.log(p[x] / q[x]), 30)
            law[key] = law.get(key, 0) + p[x]
    return law


@settings(max_examples=10)
@given(b=st.sampled_from(["0.5", "1", "2.5"]), loc_p=st.integers(-3, 3), loc_q=st.integers(-3, 3))
def test_discrete_laplace_lattice_is_the_loss_law_of_the_direct_sum(b, loc_p, loc_q):
    lattice = loss_lattice(discrete_laplace(loc_p, b), discrete_laplace(loc_q, b))
    assert sums_to_one(lattice) and lattice.p_tail == 0 and lattice.q_tail == 0
    assert len(lattice.p) == abs(loc_p - loc_q) + 1
    assert abs(lattice.step - 2 / mpmath.mpf(b)) < SHARP or loc_p == loc_q
    want = loss_law(masses_on_Z(laplace_weight(loc_p, b)), masses_on_Z(laplace_weight(loc_q, b)))
    got = {mpmath.nstr(lattice.value(j), 30): mpf_of(m.mid()) for j, m in enumerate(lattice.p)}
    assert want.keys() == got.keys()
    assert all(abs(got[v] - want[v]) < SHARP for v in want)


@pytest.mark.parametrize("sd, loc_p, loc_q", [(1, 1, 0), ("1.5", -1, 2), ("0.5", 0, 0)])
def test_discrete_gaussian_lattice_lists_the_log_ratios_with_certified_tails(sd, loc_p, loc_q):
    P, Q = discrete_gaussian(loc_p, sd), discrete_gaussian(loc_q, sd)
    lattice = loss_lattice(P, Q)
    assert sums_to_one(lattice) and lattice.p_tail < mpmath.mpf(10) ** -(DPS + 10)
    if loc_p == loc_q:
        assert lattice.value(0) == 0 and len(lattice.p) == 1
        return
    assert abs(lattice.step - abs(loc_p - loc_q) / mpmath.mpf(sd) ** 2) < SHARP
    p, q = masses_on_Z(gaussian_weight(loc_p, sd)), masses_on_Z(gaussian_weight(loc_q, sd))
    # the values increase with x when loc_p > loc_q (and decrease otherwise): index j is x = low + j, or high - j
    low, high = min(P.low, Q.low), max(P.high, Q.high)
    xs = range(low, high + 1) if loc_p > loc_q else range(high, low - 1, -1)
    for j in (0, len(xs) // 3, len(xs) // 2, len(xs) - 1):
        x = xs[j]
        assert abs(lattice.value(j) - mpmath.log(p[x] / q[x])) < SHARP * (1 + abs(lattice.value(j)))
        assert abs(mpf_of(lattice.p[j].mid()) - p[x]) <= p[x] * SHARP
        assert abs(mpf_of(lattice.q[j].mid()) - q[x]) <= q[x] * SHARP


@settings(max_examples=10)
@given(k=st.integers(2, 5), eps=st.floats(0.1, 4))
def test_randomized_response_lattice_has_the_losses_minus_eps_zero_eps(k, eps):
    e = mpmath.mpf(eps)
    lattice = loss_lattice(randomized_response(k, e, 0), randomized_response(k, e, 1))
    assert sums_to_one(lattice) and lattice.p_infinite == 0
    values = [lattice.value(j) for j, (p, q) in enumerate(zip(lattice.p, lattice.q)) if p != 0 or q != 0]
    assert all(abs(v - w) < SHARP for v, w in zip(values, [-e, 0, e] if k > 2 else [-e, e]))
    # at loss ε the P-mass is e^ε/(e^ε + k - 1), the Q-mass 1/(e^ε + k - 1)
    assert abs(mpf_of(lattice.p[-1].mid()) - mpmath.exp(e) / (mpmath.exp(e) + k - 1)) < SHARP


def test_finite_laws_with_different_supports_have_infinite_losses_on_the_lattice():
    lattice = loss_lattice(IntegerLaw(0, ["0.5", "0.5"]), IntegerLaw(1, ["0.25", "0.75"]))
    assert lattice.p_infinite == arb("0.5") and lattice.q_infinite == arb("0.75")
    assert len(lattice.p) == 1 and abs(lattice.value(0) - mpmath.log(2)) < SHARP


@pytest.mark.parametrize("P, Q, why", [
    (lambda: discrete_laplace(0, 1), lambda: discrete_laplace(1, 2), "two different scales"),
    (lambda: discrete_gaussian(0, 1), lambda: discrete_laplace(0, 1), "a discrete Gaussian against a discrete Laplace"),
    (lambda: IntegerLaw(0, ["0.5", "0.3", "0.2"]), lambda: IntegerLaw.normalized(0, [1, 1, 1]), "not on a lattice"),
])
def test_pairs_whose_losses_are_not_on_a_lattice_are_refused(P, Q, why):
    # the last: the losses log 1.5, log 0.9, log 0.6 have gaps log(5/3) and log(3/2), whose ratio is irrational
    with pytest.raises(InvalidDistribution, match=why):
        loss_lattice(P(), Q())


def test_a_mixture_of_laws_on_Z_keeps_its_tail_and_a_bare_tail_refuses_what_needs_a_shape():
    # (3/4) DL(0, 1) + (1/4) DL(1, 1) against DL(0, 1): the hockey-stick divergence and TV need only the tail (KL
    # and Rényi of mixtures, bounded from their parts: tests/test_integers_mixtures.py)
    from symdp.engine.integers import mixture
    M, P = mixture("0.25", discrete_laplace(0, 1), discrete_laplace(1, 1)), discrete_laplace(0, 1)
    assert 0 < M.tail < mpmath.mpf(10) ** -DPS
    p0, p1 = masses_on_Z(laplace_weight(0, 1)), masses_on_Z(laplace_weight(1, 1))
    m = {x: (1 - mpmath.mpf("0.25")) * p0[x] + mpmath.mpf("0.25") * p1[x] for x in p0}
    e = mpmath.mpf("0.1")
    assert encloses(divergence_on_Z(finite.hockey_stick, M, P, e),
                    sum_on_Z(lambda a, c: max(0, a - mpmath.exp(e) * c), m, p0))
    assert encloses(divergence_on_Z(finite.tv, M, P), sum_on_Z(lambda a, c: abs(a - c) / 2, m, p0))
    # a law on ℤ known only by its masses on a window and a bound on the rest: KL needs more than that bound
    bare = IntegerLaw(M.low, M.probs, M.tail)
    with pytest.raises(InvalidDistribution, match="bare tail bound"):
        divergence_on_Z(finite.kl, bare, P)
    assert encloses(divergence_on_Z(finite.tv, bare, P), sum_on_Z(lambda a, c: abs(a - c) / 2, m, p0))


@pytest.mark.parametrize("dps", [15, 30, 80])
def test_the_window_follows_the_working_precision(dps):
    # at each precision the tail left out is below 10^-dps and KL(N_Z(2, 1.5²) ‖ N_Z(0, 1.5²)) = 4/(2·2.25) is
    # enclosed to it (an integer shift: E_P[L] = Δ²/(2σ²) exactly)
    with mpmath.workdps(dps):
        P, Q = discrete_gaussian(2, "1.5"), discrete_gaussian(0, "1.5")
        assert P.tail < mpmath.mpf(10) ** -(dps + 5)
        estimate = divergence_on_Z(finite.kl, P, Q)
        reference = mpmath.mpf(4) / (2 * mpmath.mpf("2.25"))
        assert estimate.certified and estimate.error < mpmath.mpf(10) ** -(dps - 3)
        assert abs(estimate.value - reference) <= estimate.error + mpmath.mpf(10) ** -(dps - 3)
