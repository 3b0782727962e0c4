"""Rényi curves and their conversions (symdp.rdp), against closed forms written here: the Gaussian's R_α = αΔ²/(2σ²)
(Mironov 2017, Prop. 7), the subsampled Gaussian's binomial sum at integer orders (Mironov, Talwar, Zhang 2019,
Thm. 5: E_Q[(1 − q + q e^{M})^α] with E_Q[e^{jM}] = e^{(j² − j)/(2σ²)}), and the conversions' own formulas.
Repeat-and-select against Papernot and Steinke 2022 (arXiv:2110.03620), Theorems 2 and 6, evaluated here by hand in
mpmath, and against dp_accounting's own float answer."""

import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.errors import InvalidParameter
from symdp.mechanisms import epsilon, gaussian, poisson_gaussian
from symdp.rdp import adjudicate, delta_from_rdp, epsilon_from_rdp, renyi_curve, repeat_and_select, zcdp_curve


def gaussian_rdp(alpha, shift, sd, steps):
    return mpmath.mpf(str(alpha)) * steps * mpmath.mpf(shift) ** 2 / (2 * mpmath.mpf(str(sd)) ** 2)


def subsampled_rdp(alpha: int, q, sd, steps):
    """R_α of mix(q, N(0, σ), N(1, σ)) against N(0, σ), k steps, at an integer order (remove), to 80 digits (20
    beyond symdp's working precision, so that its own rounding stays inside symdp's bracket), for q and σ as symdp
    holds them: the decimals rounded to the working precision."""
    q, sd = mpmath.mpf(str(q)), mpmath.mpf(str(sd))
    with mpmath.workdps(80):
        moment = mpmath.fsum(mpmath.binomial(alpha, j) * (1 - q) ** (alpha - j) * q ** j
                             * mpmath.exp((j * j - j) / (2 * sd ** 2)) for j in range(alpha + 1))
        return steps * mpmath.log(moment) / (alpha - 1)


def within(curve, references):
    return all(lo <= r <= hi for lo, hi, r in zip(curve.lower, curve.upper, references))


@pytest.mark.parametrize("relation, shift", [("add-or-remove", 1), ("replace-one", 2)])
def test_the_gaussian_curve_is_linear_in_the_order(relation, shift):
    orders = [1.5, 2, 3.25, 10]
    curve = renyi_curve(gaussian(2.0, relation=relation).composed(7), orders)
    assert curve.certified and curve.relation == relation
    assert within(curve, [gaussian_rdp(a, shift, 2.0, 7) for a in orders])


@pytest.mark.parametrize("q, sd, steps", [(0.01, 1.0, 1000), (0.2, 2.0, 50)])
def test_the_subsampled_gaussian_curve_is_the_binomial_sum_and_remove_decides_it(q, sd, steps):
    orders = [2, 3, 5, 8]
    curve = renyi_curve(poisson_gaussian(q, sd).composed(steps), orders)
    assert curve.certified and within(curve, [subsampled_rdp(a, q, sd, steps) for a in orders])
    assert set(curve.decided_by) == {"remove"}          # R_α(mix‖N) ≥ R_α(N‖mix) at these orders


def test_conversions_are_their_formulas_and_cks_is_the_tighter():
    orders, taus, delta = [2, 4, 16], [0.2, 0.5, 3.0], mpmath.mpf("1e-6")
    mironov = min(mpmath.mpf(t) + mpmath.log(1 / delta) / (a - 1) for a, t in zip(orders, map(str, taus)))
    cks = min(mpmath.mpf(t) + mpmath.log(mpmath.mpf(a - 1) / a) - (mpmath.log(delta) + mpmath.log(a)) / (a - 1)
              for a, t in zip(orders, map(str, taus)))
    eps_m, _ = epsilon_from_rdp(orders, taus, "1e-6", conversion="mironov")
    eps_c, _ = epsilon_from_rdp(orders, taus, "1e-6")
    assert mironov <= eps_m <= mironov * (1 + mpmath.mpf("1e-40")) and cks <= eps_c <= cks * (1 + mpmath.mpf("1e-40"))
    assert eps_c < eps_m
    found, order = delta_from_rdp(orders, taus, eps_c)       # back to δ at the ε found: the δ asked, at that order
    assert abs(found - delta) <= delta * mpmath.mpf("1e-30") and order == 16


def test_an_rdp_epsilon_is_never_below_the_certified_pld_bracket():
    m = poisson_gaussian(0.01, 1.0).composed(1000)
    orders = [1.25, 1.5, 2, 3, 4, 6, 8, 12, 16, 32]
    rdp_eps, _ = epsilon_from_rdp(orders, renyi_curve(m, orders).upper, 1e-5)
    exact = epsilon(m, 1e-5, width=1e-3)
    assert exact.certified and rdp_eps > exact.upper         # RDP's conversion is an upper bound, and a loose one


def test_a_table_is_adjudicated_against_the_certified_curve():
    orders = [2, 3]
    curve = renyi_curve(gaussian(1.0).composed(3), orders)
    exact = [gaussian_rdp(a, 1, 1.0, 3) for a in orders]
    assert adjudicate(curve, exact) == ["inside", "inside"]
    assert adjudicate(curve, [exact[0] * (1 - mpmath.mpf("1e-9")), exact[1] * (1 + mpmath.mpf("1e-9"))]) == \
        ["underestimate", "pessimistic"]


def test_zcdp_is_the_linear_curve():
    orders, taus = zcdp_curve(0.5, [2, 4])
    assert [float(t) for t in taus] == [1.0, 2.0]


@pytest.mark.parametrize("call, problem", [
    (lambda: renyi_curve(gaussian(1.0), [1]), "a Rényi order must be a finite number > 1"),
    (lambda: renyi_curve(gaussian(1.0), []), "orders must be a non-empty list"),
    (lambda: epsilon_from_rdp([2, 3], [0.1], 1e-5), "one τ per order"),
    (lambda: epsilon_from_rdp([2], [0.1], 1.5), "delta must lie in (0, 1)"),
    (lambda: epsilon_from_rdp([2], [0.1], 1e-5, conversion="bun"), "unknown conversion 'bun'"),
    (lambda: zcdp_curve(-1, [2]), "rho of zCDP must be a finite number >= 0"),
    (lambda: repeat_and_select([2, 3], [0.1], 10, 1), "one τ per order"),
    (lambda: repeat_and_select([1, 2], [0.1, 0.2], 10, 1), "a Rényi order must be a finite number > 1"),
    (lambda: repeat_and_select([2], [0.1], 0.5, 1), "the mean number of runs must be a finite number >= 1"),
    (lambda: repeat_and_select([2], [0.1], float("nan"), 1), "the mean number of runs is NaN"),
    (lambda: repeat_and_select([2], [0.1], 10, -1), "shape of the number of runs' distribution must be >= 0"),
    (lambda: repeat_and_select([2], [0.1], 10, float("nan")), "shape of the number of runs' distribution is NaN"),
    (lambda: repeat_and_select([2], [-0.1], 10, 1), "an RDP value must be >= 0"),
])
def test_bad_input_is_one_error_naming_it(call, problem):
    with pytest.raises(InvalidParameter) as err:
        call()
    assert problem in str(err.value)


def test_dp_accountings_rdp_curve_is_adjudicated():
    dpa = pytest.importorskip("dp_accounting")
    orders = [1.5, 2, 4]
    accountant = dpa.rdp.RdpAccountant(orders).compose(
        dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 1000))
    curve = renyi_curve(poisson_gaussian(0.01, 1.0).composed(1000), orders)
    verdicts = adjudicate(curve, list(accountant._rdp))
    # its fractional order is a bound (Mironov, Talwar, Zhang 2019, Sec. 3.3), 4% above the truth: pessimistic
    assert verdicts[0] == "pessimistic" and "underestimate" not in verdicts


# Repeat and select (Papernot and Steinke 2022): K runs, the best released. Definition 1: K ~ TNB(η, γ) on {1, 2, ...},
# P(K = k) = (1 − γ)^k/(γ^{−η} − 1) ∏_{ℓ<k} (ℓ + η)/(ℓ + 1), and at η = 0 (the limit) (1 − γ)^k/(k log(1/γ)).

ORDERS = [1.5, 2, 3, 5, 8, 16, 32, 64]
HAND = 70          # digits of the hand formulas: 20 beyond the working precision, so that theirs is the sharper


def gaussian_table(orders, sd):
    """τ = α/(2σ²), the Gaussian of sensitivity 1 (Mironov 2017, Prop. 7), as mpf at the working precision: the table
    both symdp and the hand formula receive."""
    return [mpmath.mpf(str(a)) / (2 * mpmath.mpf(str(sd)) ** 2) for a in orders]


def tnb_pmf(k, eta, gamma):
    if eta == 0:
        return (1 - gamma) ** k / (k * mpmath.log(1 / gamma))
    return (1 - gamma) ** k / (gamma ** -eta - 1) * mpmath.rf(eta, k) / mpmath.factorial(k)   # ∏ (ℓ + η)/(ℓ + 1)


def tnb_mean(eta, gamma):
    """E[K] in closed form (Papernot and Steinke 2022, after Def. 1)."""
    if eta == 0:
        return (1 - gamma) / (gamma * mpmath.log(1 / gamma))
    return eta * (1 - gamma) / (gamma * (1 - gamma ** eta))


def tnb_gamma(mean, eta):
    """The γ of mean ``mean``: 1/mean for the geometric (η = 1), 1 for mean 1 (K = 1), else the root of the closed form."""
    if mean == 1:
        return mpmath.mpf(1)
    if eta == 1:
        return 1 / mean
    return mpmath.findroot(lambda g: tnb_mean(eta, g) - mean, (mpmath.mpf("1e-12"), 1 - mpmath.mpf("1e-60")),
                           solver="anderson")


def monotone(orders, values):
    """RDP is non-decreasing in the order: each value at most any at a larger order."""
    return [min(v for b, v in zip(orders, values) if b >= a) for a in orders]


def theorem_2(orders, taus, mean, eta):
    """(1 + η) min over λ̂ of ((1 − 1/λ̂) ε̂ + log(1/γ)/λ̂), plus ε + log E[K]/(λ − 1) at each λ."""
    with mpmath.workdps(HAND):
        mean, eta = mpmath.mpf(str(mean)), mpmath.mpf(str(eta))
        orders = [mpmath.mpf(str(a)) for a in orders]
        gamma = tnb_gamma(mean, eta)
        least = min((1 - 1 / b) * t + mpmath.log(1 / gamma) / b for b, t in zip(orders, taus))
        return monotone(orders, [t + (1 + eta) * least + mpmath.log(mean) / (a - 1) for a, t in zip(orders, taus)])


def table_delta(orders, taus, eps):
    """The δ an RDP table proves at ε, as dp_accounting's compute_delta takes it: Canonne, Kamath, Steinke 2020,
    Prop. 12 at each order, and sqrt(1 − e^{−τ}) (Bretagnolle–Huber, KL ≤ R_α), at most 1."""
    cks = [mpmath.exp((b - 1) * (t - eps)) * (1 - 1 / b) ** b / (b - 1) for b, t in zip(orders, taus)]
    tv = [mpmath.sqrt(1 - mpmath.exp(-t)) for t in taus]
    return min(cks + tv + [mpmath.mpf(1)])


def gaussian_delta(eps, sd):
    """The Gaussian's exact δ(ε), sensitivity 1: Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), μ = 1/σ."""
    mu = 1 / mpmath.mpf(str(sd))
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def theorem_6(orders, taus, mean, delta_of):
    """ε + μ δ̂ + log μ/(λ − 1), δ̂ = ``delta_of``(ε̂) at ε̂ = log(1 + 1/(λ − 1))."""
    with mpmath.workdps(HAND):
        mean = mpmath.mpf(str(mean))
        orders = [mpmath.mpf(str(a)) for a in orders]
        return monotone(orders, [t + mean * delta_of(mpmath.log(1 + 1 / (a - 1))) + mpmath.log(mean) / (a - 1)
                                 for a, t in zip(orders, taus)])


def hand_formula(orders, taus, mean, shape):
    if math.isinf(shape):
        with mpmath.workdps(HAND):
            alphas = [mpmath.mpf(str(a)) for a in orders]
        return theorem_6(orders, taus, mean, lambda eps: table_delta(alphas, taus, eps))
    return theorem_2(orders, taus, mean, shape)


def agrees(found, hand):
    """The hand value at most ours (up to its own 70-digit rounding), ours above it only by our rounding."""
    return all(h * (1 - mpmath.mpf("1e-60")) <= f <= h * (1 + mpmath.mpf("1e-40")) for f, h in zip(found, hand))


@pytest.mark.parametrize("eta", [0, 0.5, 1, 2])
def test_the_truncated_negative_binomials_mean_is_its_series_and_the_geometrics_gamma_is_one_over_it(eta):
    with mpmath.workdps(30):
        gamma = mpmath.mpf("0.2")
        series = mpmath.nsum(lambda k: k * tnb_pmf(int(k), mpmath.mpf(eta), gamma), [1, mpmath.inf])
        mass = mpmath.nsum(lambda k: tnb_pmf(int(k), mpmath.mpf(eta), gamma), [1, mpmath.inf])
        assert abs(mass - 1) < mpmath.mpf("1e-25") and abs(series - tnb_mean(mpmath.mpf(eta), gamma)) < 1e-25
        if eta == 1:     # the geometric on {1, 2, ...}: P(K = k) = γ(1 − γ)^{k−1}, mean 1/γ
            assert all(abs(tnb_pmf(k, 1, gamma) - gamma * (1 - gamma) ** (k - 1)) < 1e-28 for k in range(1, 6))
            assert abs(series - 1 / gamma) < 1e-25


@pytest.mark.parametrize("mean, shape, sd", [(10, 1, 2.0), (1, 1, 1.0), (25, 0, 3.0), (7.5, 2, 0.8)])
def test_repeat_and_select_is_theorem_2_by_hand(mean, shape, sd):
    taus = gaussian_table(ORDERS, sd)
    found = repeat_and_select(ORDERS, taus, mean, shape)
    assert agrees(found, theorem_2(ORDERS, taus, mean, shape))


@pytest.mark.parametrize("mean, sd", [(20, 3.0), (1, 1.0), (60, 6.0)])
def test_repeat_and_select_is_theorem_6_by_hand_and_above_it_with_the_gaussians_exact_delta(mean, sd):
    taus = gaussian_table(ORDERS, sd)
    found = repeat_and_select(ORDERS, taus, mean, math.inf)
    assert agrees(found, hand_formula(ORDERS, taus, mean, math.inf))
    # the table's δ̂ is a bound on the Gaussian's exact δ̂: the theorem with the exact one is lower still
    exact = theorem_6(ORDERS, taus, mean, lambda eps: gaussian_delta(eps, sd))
    assert all(e <= f for e, f in zip(exact, found))


@settings(max_examples=40)
@given(mean=st.floats(1, 100), shape=st.sampled_from([0, 0.5, 1, 2, math.inf]), sd=st.floats(0.5, 10))
def test_repeating_never_helps_and_the_table_is_the_hand_formula(mean, shape, sd):
    orders = [1.5, 2, 4, 8, 32]
    taus = gaussian_table(orders, sd)
    found = repeat_and_select(orders, taus, mean, shape)
    assert all(f >= t for f, t in zip(found, taus))
    assert agrees(found, hand_formula(orders, taus, mean, shape))


@pytest.mark.parametrize("sd, mean, shape", [(2.0, 10, 1), (5.0, 30, 0), (3.0, 20, math.inf), (1.0, 5.5, 0.5),
                                             (8.0, 1.0000001, 2)])
def test_dp_accountings_repeat_and_select_is_never_below_ours(sd, mean, shape):
    dpa = pytest.importorskip("dp_accounting")
    orders = [1.25, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64]
    base = list(dpa.rdp.RdpAccountant(orders).compose(dpa.GaussianDpEvent(sd))._rdp)
    accountant = dpa.rdp.RdpAccountant(orders).compose(
        dpa.dp_event.RepeatAndSelectDpEvent(dpa.GaussianDpEvent(sd), mean, shape))
    ours = repeat_and_select(orders, base, mean, shape)
    # theirs within 1e-9 of ours or above it (their γ is bisected to 1e-9, rounded low; the Poisson branch skips
    # monotonicity, and their δ̂ drops orders below 1.01)
    assert all(float(o) <= t * (1 + 1e-9) for o, t in zip(ours, accountant._rdp))
    assert abs(float(ours[-1]) - accountant._rdp[-1]) <= 1e-8 * accountant._rdp[-1]   # the same formula up there
    eps, _ = epsilon_from_rdp(orders, ours, 1e-5)
    assert float(eps) <= accountant.get_epsilon(1e-5) * (1 + 1e-9)
