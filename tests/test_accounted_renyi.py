"""Certified Rényi divergences (and KL) of the accountant's laws (symdp.engine.accounted_renyi): mixtures of Gaussians
against one Gaussian, both orientations, and the symmetrised pair of fixed-batch DP-SGD, against references written
here from the densities, never from symdp's output.

References:

* the defining integrals, by mpmath quadrature at more digits than symdp's: R_α(P‖Q) = log ∫ p^α q^(1−α) /(α − 1)
  with p, q written from the Gaussian densities; for the symmetrised pair (P̃, Q̃) of (P, Q), its three pieces from
  the definition of P̃ and Q̃ (symdp.engine.symmetrised): ∫_A p^α q^(1−α) + ∫_A q^α p^(1−α) + 1 − P(A) − Q(A) with
  A = {p > q}; for the fixed-batch pair P = (1 − γ)N(0, σ²) + γN(2, σ²), Q = N(0, σ²), p/q = 1 − γ + γe^{(2x−2)/σ²}
  exceeds 1 exactly when x > 1, so A = (1, ∞);
* integer orders of a mixture Σ pᵢ N(cᵢ, σ²) against N(0, σ²): E_{x~N(0,σ²)}[(Σ pᵢ e^{(cᵢx − cᵢ²/2)/σ²})^α] expanded
  by the multinomial theorem, each term a Gaussian moment generating function: Σ_k (α; k) Π pᵢ^{kᵢ}
  exp(((Σ kᵢcᵢ)² − Σ kᵢcᵢ²)/(2σ²)); for two components (0, 1) the binomial sum of Mironov, Talwar and Zhang 2019,
  Σ_k C(α, k)(1 − q)^{α−k} q^k exp((k² − k)/(2σ²));
* γ = 1: the fixed-batch pair is the symmetrised pair of N(2, σ²) and N(0, σ²), whose pieces add to
  e^{α(α−1)·2/σ²} with no atom, so R_α = 2α/σ², the Gaussian pair's (Mironov 2017, Prop. 7), and the limit γ → 1;
* theorems: R_α is non-decreasing in α and KL = R_1 ≤ R_α (van Erven and Harremoës 2014, Thm. 3); R_α(P̃‖Q̃) =
  R_α(Q̃‖P̃) (P̃ and Q̃ are mirror images); and for the fixed-batch pair R_α(P̃‖Q̃) ≥ max(R_α(P‖Q), R_α(Q‖P)). The
  last is a consequence of data processing, proved in :func:`test_symmetrised_pair_dominates_both_orientations`.
"""

from __future__ import annotations

import itertools
import math
import time

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.engine import accounted_renyi, certified
from symdp.engine.continuous import Gaussian, Mixture
from symdp.engine.divergences import divergence
from symdp.engine.gaussian_sums import GaussianSum
from symdp.engine.symmetrised import symmetrised
from symdp.errors import InvalidDistribution, InvalidParameter

DPS = 30
"""symdp's precision in these tests; the references are computed at :data:`REFERENCE_DPS`."""

REFERENCE_DPS = 40

TOLERANCE = mpmath.mpf(10) ** -36
"""Relative slack for the quadrature references (their own error, far below symdp's 30 digits)."""


# --- references, from the densities ----------------------------------------------------------------------------


def log_mixture(weights, means, sd):
    """x ↦ log Σ wᵢ N(x; mᵢ, σ²) (weights normalised), written from the Gaussian density."""
    total = mpmath.fsum(weights)
    normaliser = mpmath.log(sd * mpmath.sqrt(2 * mpmath.pi))
    return lambda x: mpmath.log(mpmath.fsum(w / total * mpmath.exp(-(x - m) ** 2 / (2 * sd ** 2))
                                            for w, m in zip(weights, means))) - normaliser


def mixture_pdf(weights, means, sd):
    log_p = log_mixture(weights, means, sd)
    return lambda x: mpmath.exp(log_p(x))


def renyi_integral(first, second, alpha, lo=-mpmath.inf):
    """∫ p^α q^(1−α) over (lo, ∞) for Gaussian sums ``first`` = (weights, means, σ) and ``second``, through
    logarithms, scaled by its value at the Gaussians' centres (mpmath's quadrature stops on an absolute error) and
    told where the mass is: α mᵢ + (1 − α) nⱼ and a few σ around each."""
    log_p, log_q, sd = log_mixture(*first), log_mixture(*second), first[2]

    def exponent(x):
        return alpha * log_p(x) + (1 - alpha) * log_q(x)

    centres = [alpha * m + (1 - alpha) * n for m in first[1] for n in second[1]]
    shift = max(exponent(max(c, lo)) for c in centres)
    points = sorted({c + k * sd for c in centres for k in (-6, 0, 6)} | {mpmath.mpf(0)})
    points = [lo] + [x for x in points if x > lo] + [mpmath.inf]
    return mpmath.quad(lambda x: mpmath.exp(exponent(x) - shift), points) * mpmath.exp(shift)


def reference_renyi(weights, means, sd, alpha, reverse=False):
    """R_α(mixture ‖ N(0, σ²)) (``reverse``: N(0, σ²) ‖ mixture) by quadrature of the defining integral."""
    with mpmath.workdps(REFERENCE_DPS):
        mixture, single = (weights, means, sd), ([1], [0], sd)
        first, second = (single, mixture) if reverse else (mixture, single)
        return mpmath.log(renyi_integral(first, second, alpha)) / (alpha - 1)


def multinomial_renyi(weights, means, sd, alpha: int):
    """The multinomial closed form for an integer order of a mixture against N(0, σ²) (module's note)."""
    with mpmath.workdps(REFERENCE_DPS):
        total = mpmath.fsum(weights)
        value = mpmath.mpf(0)
        for counts in itertools.product(range(alpha + 1), repeat=len(weights)):
            if sum(counts) != alpha:
                continue
            coefficient = math.factorial(alpha) // math.prod(math.factorial(k) for k in counts)
            shift = mpmath.fsum(k * c for k, c in zip(counts, means))
            spread = mpmath.fsum(k * c * c for k, c in zip(counts, means))
            value += coefficient * mpmath.fprod((w / total) ** k for w, k in zip(weights, counts)) \
                * mpmath.exp((shift ** 2 - spread) / (2 * sd ** 2))
        return mpmath.log(value) / (alpha - 1)


def mtz_renyi(q, sd, alpha: int):
    """Mironov, Talwar and Zhang 2019: R_α((1 − q)N(0, σ²) + qN(1, σ²) ‖ N(0, σ²)) for an integer α."""
    with mpmath.workdps(REFERENCE_DPS):
        total = mpmath.fsum(mpmath.binomial(alpha, k) * (1 - q) ** (alpha - k) * q ** k
                            * mpmath.exp((k * k - k) / (2 * sd ** 2)) for k in range(alpha + 1))
        return mpmath.log(total) / (alpha - 1)


def fixed_batch_pieces(rate, sd, alpha):
    """The three pieces of ∫ p̃^α q̃^(1−α) of the fixed-batch pair, A = (1, ∞) (module's note)."""
    with mpmath.workdps(REFERENCE_DPS):
        p, q = ([1 - rate, rate], [0, 2], sd), ([1], [0], sd)
        one = mpmath.mpf(1)
        atom = 1 - ((1 - rate) * mpmath.ncdf(-1 / sd) + rate * mpmath.ncdf(1 / sd)) - mpmath.ncdf(-1 / sd)
        return renyi_integral(p, q, alpha, lo=one), renyi_integral(q, p, alpha, lo=one), atom


def reference_fixed_batch(rate, sd, alpha):
    with mpmath.workdps(REFERENCE_DPS):
        return mpmath.log(mpmath.fsum(fixed_batch_pieces(rate, sd, alpha))) / (alpha - 1)


def contains(estimate, reference) -> bool:
    return estimate.certified and abs(estimate.value - reference) <= estimate.error + TOLERANCE * abs(reference)


def fixed_batch(rate, sd):
    """The fixed-batch pair as symdp builds it (symdp.mechanisms.fixed_batch_gaussian), with its laws' parameters
    (exact binary numbers) for the references."""
    mixed = Mixture(rate, Gaussian(0, sd), Gaussian(2, sd))
    return symmetrised(mixed, Gaussian(0, sd)), mixed.q, mixed.first.sd


# --- mixtures of Gaussians against one Gaussian ---------------------------------------------------------------


@st.composite
def mixtures(draw):
    k = draw(st.integers(1, 3))
    weights = [draw(st.integers(1, 9)) for _ in range(k)]
    sign = draw(st.sampled_from([1, -1]))
    means = [sign * draw(st.integers(0, 300)) / 100 for _ in range(k)]
    sd = draw(st.integers(50, 500)) / 100
    return [w / sum(weights) for w in weights], means, sd


@settings(max_examples=8)
@given(mixtures(), st.integers(101, 2000), st.booleans())
def test_gaussian_sum_against_quadrature(mixture, order, reverse):
    """Both orientations, fractional and integer orders in (1, 20]: the ball holds the defining integral."""
    weights, means, sd = mixture
    with mpmath.workdps(DPS):
        mixed, plain = GaussianSum(weights, means, sd), GaussianSum((1,), (0,), sd)
        alpha = mpmath.mpf(order) / 100
        estimate = accounted_renyi.renyi(*((plain, mixed) if reverse else (mixed, plain)), alpha)
        reference = reference_renyi(list(mixed.weights), list(mixed.means), mixed.sd, alpha, reverse)
    assert contains(estimate, reference), (estimate, reference)
    assert estimate.error <= mpmath.mpf(10) ** -20 * max(abs(reference), mpmath.mpf(10) ** -10)


@pytest.mark.parametrize("weights, means, sd, alpha", [
    ((0.5, 0.3, 0.2), (0, 1, 2), 1, 2), ((0.5, 0.3, 0.2), (0, 1, 2), 1, 8), ((0.25, 0.75), (0, -1.5), 0.5, 5),
    ((0.9, 0.1), (0, 1), 2, 20)])
def test_integer_orders_against_the_multinomial_sum(weights, means, sd, alpha):
    with mpmath.workdps(DPS):
        mixed = GaussianSum(weights, means, sd)
        estimate = accounted_renyi.renyi(mixed, GaussianSum((1,), (0,), sd), alpha)
        reference = multinomial_renyi(list(mixed.weights), list(mixed.means), mixed.sd, alpha)
    assert contains(estimate, reference)


@pytest.mark.parametrize("q, sd, alpha", [(0.01, 1, 2), (0.01, 1, 32), (0.3, 0.7, 7), (0.999, 4, 3)])
def test_subsampled_gaussian_against_mironov_talwar_zhang(q, sd, alpha):
    with mpmath.workdps(DPS):
        mixed = GaussianSum((1 - q, q), (0, 1), sd)
        estimate = accounted_renyi.renyi(mixed, GaussianSum((1,), (0,), sd), alpha)
        with mpmath.workdps(REFERENCE_DPS):
            q_exact = mixed.weights[1] / mpmath.fsum(mixed.weights)
        reference = mtz_renyi(q_exact, mixed.sd, alpha)
    assert contains(estimate, reference)


def test_kl_of_a_mixture_against_quadrature():
    with mpmath.workdps(DPS):
        mixed, plain = GaussianSum((0.5, 0.3, 0.2), (0, 1, 2), 1), GaussianSum((1,), (0,), 1)
        forward, backward = accounted_renyi.kl(mixed, plain), accounted_renyi.kl(plain, mixed)
        with mpmath.workdps(REFERENCE_DPS):
            p, q = mixture_pdf(list(mixed.weights), list(mixed.means), 1), mixture_pdf([1], [0], 1)
            points = [-mpmath.inf, -6, 0, 2, 8, mpmath.inf]
            kl_pq = mpmath.quad(lambda x: p(x) * mpmath.log(p(x) / q(x)), points)
            kl_qp = mpmath.quad(lambda x: q(x) * mpmath.log(q(x) / p(x)), points)
    assert contains(forward, kl_pq) and contains(backward, kl_qp)


# --- the symmetrised pair of fixed batches ------------------------------------------------------------------------


@settings(max_examples=8)
@given(st.floats(0.001, 0.999), st.integers(50, 500), st.integers(101, 2000))
def test_fixed_batch_against_its_three_pieces(rate, sd_percent, order):
    with mpmath.workdps(DPS):
        (P, Q), gamma, sd = fixed_batch(rate, sd_percent / 100)
        alpha = mpmath.mpf(order) / 100
        estimate = accounted_renyi.renyi(P, Q, alpha)
        reference = reference_fixed_batch(gamma, sd, alpha)
    assert contains(estimate, reference), (estimate, reference)


@pytest.mark.parametrize("rate, sd, alpha", [(1e-6, 1, "2.5"), (0.01, 0.5, "19.5"), (0.5, 5, "1.01")])
def test_fixed_batch_at_the_edges_of_its_parameters(rate, sd, alpha):
    """A tiny divergence (1e-12, resolved relative to itself), a huge one (e^{α(α−1)·8} in the integral), α near 1."""
    with mpmath.workdps(DPS):
        (P, Q), gamma, s = fixed_batch(rate, sd)
        alpha = mpmath.mpf(alpha)
        estimate = accounted_renyi.renyi(P, Q, alpha)
        reference = reference_fixed_batch(gamma, s, alpha)
    assert contains(estimate, reference)
    assert estimate.error <= mpmath.mpf(10) ** -20 * reference


@pytest.mark.parametrize("alpha", [1.5, 2, 7.25])
def test_fixed_batch_as_the_rate_reaches_one(alpha):
    """γ = 1 is the symmetrised Gaussian pair: 2α/σ² (Mironov 2017, Prop. 7), the limit of γ → 1, approached from
    below: (P_γ, Q) is a post-processing of (N(2, σ²), Q) (with probability 1 − γ, replace the output by a draw of
    Q), the symmetrised profile is non-decreasing in δ_{P‖Q}, so by Blackwell and data processing R_α grows with γ."""
    sd = mpmath.mpf(1.5)
    limit = 2 * mpmath.mpf(alpha) / sd ** 2
    with mpmath.workdps(DPS):
        at_one = accounted_renyi.renyi(*fixed_batch(1, sd)[0], alpha)
        near = accounted_renyi.renyi(*fixed_batch(1 - 1e-9, sd)[0], alpha)
    assert contains(at_one, limit)
    assert abs(near.value - limit) < 1e-7 and near.value < limit


def test_kl_of_the_fixed_batch_pair():
    """KL(P̃‖Q̃) = ∫_A (p − q) log(p/q), by quadrature; and KL ≤ R_α (orders are monotone)."""
    with mpmath.workdps(DPS):
        (P, Q), gamma, sd = fixed_batch(0.05, 0.8)
        estimate = accounted_renyi.kl(P, Q)
        with mpmath.workdps(REFERENCE_DPS):
            p, q = mixture_pdf([1 - gamma, gamma], [0, 2], sd), mixture_pdf([1], [0], sd)
            reference = mpmath.quad(lambda x: (p(x) - q(x)) * mpmath.log(p(x) / q(x)), [1, 2, 8, mpmath.inf])
        above = accounted_renyi.renyi(P, Q, 1.001)
    assert contains(estimate, reference)
    assert estimate.value - estimate.error <= above.value + above.error


@settings(max_examples=8)
@given(st.floats(0.001, 0.999), st.integers(50, 500), st.integers(101, 1500), st.integers(1, 500))
def test_orders_are_monotone_and_the_pair_is_its_mirror(rate, sd_percent, order, step):
    with mpmath.workdps(DPS):
        (P, Q), _, _ = fixed_batch(rate, sd_percent / 100)
        low, high = mpmath.mpf(order) / 100, mpmath.mpf(order + step) / 100
        first, second, mirrored = (accounted_renyi.renyi(P, Q, low), accounted_renyi.renyi(P, Q, high),
                                   accounted_renyi.renyi(Q, P, low))
    assert first.value - first.error <= second.value + second.error
    assert abs(first.value - mirrored.value) <= first.error + mirrored.error


@settings(max_examples=8)
@given(st.floats(0.001, 0.999), st.integers(50, 500), st.integers(101, 2000))
def test_symmetrised_pair_dominates_both_orientations(rate, sd_percent, order):
    """R_α(P̃‖Q̃) ≥ max(R_α(P‖Q), R_α(Q‖P)) for P = (1 − γ)Q + γR, (Q, R) = (N(0, σ²), N(2, σ²)).

    Proof. With δ_{X‖Y}(ε) = sup_S X(S) − e^ε Y(S) and the identity δ_{X‖Y}(ε) = 1 − e^ε + e^ε δ_{Y‖X}(−ε), the
    profile of (P̃, Q̃) is δ_{P‖Q}(ε) for ε ≥ 0 and 1 − e^ε + e^ε δ_{P‖Q}(−ε) below (symdp.engine.symmetrised). It is
    at least the profile of (P, Q) and of (Q, P) at every ε ∈ ℝ iff (D): δ_{Q‖P}(t) ≤ δ_{P‖Q}(t) for t ≥ 0. Then, by
    Blackwell's theorem for binary experiments, (P, Q) and (Q, P) are post-processings of (P̃, Q̃), and data
    processing gives the inequality for every α. (D): with a = e^t ≥ 1 and Y = dR/dQ under Q,
    δ_{P‖Q}(t) = γ E(Y − k₁)₊, k₁ = 1 + (a − 1)/γ, and δ_{Q‖P}(t) = aγ E(k₂ − Y)₊, k₂ = 1 − (a − 1)/(aγ)
    (0 if k₂ ≤ 0). The pair is symmetric (Y under R has the law of 1/Y under Q), so E(Y − k)₊ = k E(1/k − Y)₊,
    and δ_{P‖Q}(t) = γ k₁ E(1/k₁ − Y)₊. Now k₁ ≥ a and 1/k₁ = 1 − (a − 1)/(a − 1 + γ) ≥ k₂ (as aγ ≤ a − 1 + γ),
    and x ↦ E(x − Y)₊ is non-decreasing: (D) holds. ∎ (R_α(P‖Q) and R_α(Q‖P) here are the continuous engine's
    certified enclosures, another route; the comparison of balls cannot fail by rounding.)"""
    with mpmath.workdps(DPS):
        (P, Q), _, _ = fixed_batch(rate, sd_percent / 100)
        alpha = mpmath.mpf(order) / 100
        symmetrised_value = accounted_renyi.renyi(P, Q, alpha)
        for X, Y in ((P.P, P.Q), (P.Q, P.P)):
            plain = certified.renyi(X, Y, alpha)
            assert symmetrised_value.value + symmetrised_value.error >= plain.value - plain.error


def test_symmetrised_pair_of_a_three_component_mixture():
    """P = 0.5 N(0, 1) + 0.3 N(1, 1) + 0.2 N(2, 1) against Q = N(0, 1): A = {p > q} = (r, ∞) (p/q increases: every
    mean of P is at least Q's), r found here by mpmath's root finder; the atom 1 − P(A) − Q(A) is about 0.3."""
    with mpmath.workdps(DPS):
        P, Q = GaussianSum((0.5, 0.3, 0.2), (0, 1, 2), 1), GaussianSum((1,), (0,), 1)
        alpha = mpmath.mpf("3.5")
        estimate = accounted_renyi.renyi(*symmetrised(P, Q), alpha)
        kl = accounted_renyi.kl(*symmetrised(P, Q))
        with mpmath.workdps(REFERENCE_DPS):
            p, q = (list(P.weights), list(P.means), 1), ([1], [0], 1)
            log_p, log_q = log_mixture(*p), log_mixture(*q)
            r = mpmath.findroot(lambda x: log_p(x) - log_q(x), 0.7)
            atom = 1 - mpmath.fsum(w * mpmath.ncdf(m - r) for w, m in zip(*p[:2])) / mpmath.fsum(p[0]) - mpmath.ncdf(-r)
            pieces = renyi_integral(p, q, alpha, lo=r) + renyi_integral(q, p, alpha, lo=r) + atom
            reference = mpmath.log(pieces) / (alpha - 1)
            kl_reference = mpmath.quad(lambda x: (mpmath.exp(log_p(x)) - mpmath.exp(log_q(x))) * (log_p(x) - log_q(x)),
                                       [r, 2, 8, mpmath.inf])
    assert atom > 0.25 and contains(estimate, reference) and contains(kl, kl_reference)


# --- the engine's door, composition, and refusals -----------------------------------------------------------------


def test_renyi_curve_of_composed_fixed_batches():
    """Composition adds: 100 steps of the fixed-batch pair (γ = 10/1000 rounded up, σ = 1) are 100 times one."""
    from symdp.mechanisms import fixed_batch_gaussian
    from symdp.rdp import renyi_curve

    with mpmath.workdps(DPS):
        mechanism = fixed_batch_gaussian(10, 1000, 1.0)
        gamma = mechanism.pairs["replace-one"][0].factors[0][0].P.q
        started = time.perf_counter()
        curve = renyi_curve(mechanism.composed(100), [1.5, 2, 8])
        seconds = time.perf_counter() - started
        references = [100 * reference_fixed_batch(gamma, mpmath.mpf(1), mpmath.mpf(a)) for a in (1.5, 2, 8)]
    assert curve.certified and seconds < 5
    for low, high, reference in zip(curve.lower, curve.upper, references):
        assert low - TOLERANCE * reference <= reference <= high + TOLERANCE * reference


def test_renyi_curve_of_dp_accountings_mixture_of_gaussians():
    dpa = pytest.importorskip("dp_accounting")
    from symdp.interop import laws_of
    from symdp.rdp import renyi_curve

    event = dpa.dp_event.MixtureOfGaussiansDpEvent(1.0, [0, 1, 2], [0.5, 0.3, 0.2])
    orders = [1.5, 2, 8]
    with mpmath.workdps(DPS):
        mechanism = laws_of(event).mechanism("add-or-remove")
        curve = renyi_curve(mechanism, orders)
        mixed = mechanism.pairs["remove"][0].factors[0][0]     # the GaussianSum symdp built, its weights as read
        weights, means = list(mixed.weights), list(mixed.means)
        remove = [multinomial_renyi(weights, means, 1, int(a)) if a == int(a) else reference_renyi(weights, means, 1, a)
                  for a in map(mpmath.mpf, orders)]
        add = [reference_renyi(weights, means, 1, mpmath.mpf(a), reverse=True) for a in orders]
    assert curve.certified
    for low, high, r, a in zip(curve.lower, curve.upper, remove, add):
        top = max(r, a)
        assert low - TOLERANCE * top <= top <= high + TOLERANCE * top


def test_the_door_and_its_refusals():
    with mpmath.workdps(DPS):
        (P, Q), gamma, sd = fixed_batch(0.01, 1)
        through_door = divergence("renyi", P, Q, 3)
        assert contains(through_door, reference_fixed_batch(gamma, sd, mpmath.mpf(3)))
        assert divergence("renyi", P, P, 3).value == 0 and divergence("kl", P, P).value == 0
        mixed, plain = GaussianSum((0.5, 0.5), (0, 1), 1), GaussianSum((1,), (0,), 1)
        assert divergence("kl", mixed, plain).certified
    for alpha in (1, 0.5, mpmath.inf):
        with pytest.raises(InvalidParameter, match="finite number > 1"):
            accounted_renyi.renyi(mixed, plain, alpha)
    with pytest.raises(InvalidParameter, match="different standard deviations"):
        accounted_renyi.renyi(mixed, GaussianSum((1,), (0,), 2), 2)
    with pytest.raises(InvalidDistribution, match=r"P\(L > 0\) \+ Q\(L > 0\) <= 1"):   # the add orientation's c < 0
        accounted_renyi.renyi(*symmetrised(Gaussian(0, 1), Mixture(0.5, Gaussian(0, 1), Gaussian(2, 1))), 2)
    with pytest.raises(InvalidParameter, match="not computed"):
        accounted_renyi.renyi(*symmetrised(Gaussian(0, 1), Gaussian(1, 2)), 2)


def test_one_order_is_fast():
    with mpmath.workdps(DPS):
        (P, Q), _, _ = fixed_batch(0.01, 1)
        accounted_renyi.renyi(P, Q, 2.5)   # imports and caches warmed
        started = time.perf_counter()
        accounted_renyi.renyi(P, Q, 3.75)
        assert time.perf_counter() - started < 1
