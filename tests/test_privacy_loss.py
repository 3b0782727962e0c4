"""The exact privacy-loss laws and the optimal subgaussian standard, against independent references.

References: closed forms (Gaussian loss N(Δ²/(2σ²), Δ²/σ²); Laplace KL a + e^{-a} - 1 and Rényi divergence from
symdp.engine.closed_forms; Kearns–Saul for Bernoulli; 2 ln cosh λ for Rademacher), quadrature of E_P[g(ln p/q)] on the
original x-scale (an independent route to every moment and MGF of the law), the catalogue's discrete-Gaussian
generator (iv) (τ = Δ/σ exactly) and RR's τ² = 2ε tanh(ε/2) (catalogue dwork.obs.rr-extremal).
"""

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from symdp.engine import closed_forms as cf
from symdp.engine.continuous import Gaussian, Laplace
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.engine.finite import FiniteDistribution as FD, kl
from symdp.engine.privacy_loss import subgaussian_standard
from symdp.engine.privacy_loss import (DiscreteLaw, GaussianLaw, LaplaceLossLaw, expectation_by_quadrature,
                                optimal_standard, privacy_loss, ratio_asymptote, subgaussian_ratio)

TOL = mpmath.mpf(10) ** -40


def close(a, b, tol=TOL):
    return abs(mpmath.mpf(a) - mpmath.mpf(b)) <= tol * max(1, abs(mpmath.mpf(b)))


# --- Gaussian pairs ----------------------------------------------------------------------------------------------
QUAD_DPS, QUAD_TOL = 30, mpmath.mpf(10) ** -22   # quadrature cross-checks at 30 digits (speed)


@pytest.mark.parametrize("m1, m2, s", [(0, 1, 1), (1, 0, 1), (-2, 1.5, 0.7)])
def test_gaussian_loss_is_normal_with_the_closed_form_parameters(m1, m2, s):
    L = privacy_loss(Gaussian(m1, s), Gaussian(m2, s))
    d = mpmath.mpf(repr(m1)) - mpmath.mpf(repr(m2))
    s = mpmath.mpf(repr(s))
    assert isinstance(L, GaussianLaw)
    assert close(L.mean(), d**2 / (2 * s**2)) and close(L.sd, abs(d) / s)
    with mpmath.workdps(QUAD_DPS):
        P, Q = Gaussian(m1, s), Gaussian(m2, s)
        for k in (1, 2, 3, 4):
            est = expectation_by_quadrature(P, Q, lambda l, k=k: l**k)
            assert close(L.moment(k), est.value, QUAD_TOL)
        for lam in (-2, -1, 0.5, 1.5):
            est = expectation_by_quadrature(P, Q, lambda l, lam=lam: mpmath.exp(lam * l))
            assert close(L.mgf(lam), est.value, QUAD_TOL)


def test_gaussian_standard_is_sigma_exactly_and_every_lambda_attains_it():
    L = privacy_loss(Gaussian(0, 2), Gaussian(3, 2))
    s = optimal_standard(L)
    assert s.tau.value == mpmath.mpf(3) / 2 and s.argmax is None
    for lam in (-5, -1, 0.1, 7):
        assert close(subgaussian_ratio(L, lam), s.tau.value**2)


def test_unequal_variances_and_infinite_losses_are_refused():
    with pytest.raises(InvalidParameter, match="unequal sd"):
        privacy_loss(Gaussian(0, 1), Gaussian(0, 2))
    with pytest.raises(InvalidDistribution, match="equal supports"):
        privacy_loss(FD([0.5, 0.5]), FD([1, 0]))


# --- Laplace pairs -----------------------------------------------------------------------------------------------
A_VALUES = ["0.01", "0.5", "1", "3", "12"]


@pytest.mark.parametrize("a", A_VALUES)
def test_laplace_loss_law_is_a_probability_law_with_mean_kl(a):
    L = LaplaceLossLaw(mpmath.mpf(a))
    a = L.a
    continuous = mpmath.quad(L.density, [-a, a])
    assert close(L.atom(a) + L.atom(-a) + continuous, 1)
    assert close(L.mean(), cf.laplace_kl(a, 1))  # KL(Lap(0,1) || Lap(a,1)) = a + e^{-a} - 1
    assert close(L.mgf(-1), 1)  # E_P[e^{-L}] = sum Q = 1


@pytest.mark.parametrize("a, b, flip", [("0.01", 1, False), ("1", 0.5, True), ("12", 2, False)])
def test_laplace_loss_moments_and_mgf_match_quadrature_on_the_x_scale(a, b, flip):
    with mpmath.workdps(QUAD_DPS):
        b = mpmath.mpf(repr(b))
        delta = mpmath.mpf(a) * b
        P, Q = (Laplace(delta, b), Laplace(0, b)) if flip else (Laplace(0, b), Laplace(delta, b))
        L = privacy_loss(P, Q)
        assert isinstance(L, LaplaceLossLaw) and close(L.a, mpmath.mpf(a))
        for k in (1, 2, 3, 5):
            est = expectation_by_quadrature(P, Q, lambda l, k=k: l**k)
            assert abs(L.moment(k) - est.value) <= est.error + QUAD_TOL * max(1, abs(est.value))
        for lam in (-3, -1, mpmath.mpf(-1) / 2, 0.25, 2):
            est = expectation_by_quadrature(P, Q, lambda l, lam=lam: mpmath.exp(lam * l))
            assert abs(L.mgf(lam) - est.value) <= est.error + QUAD_TOL * est.value


@pytest.mark.parametrize("a", ["0.5", "2"])
@pytest.mark.parametrize("alpha", [2, "3.5", 20])
def test_laplace_loss_mgf_is_the_renyi_divergence(a, alpha):
    # E_P[e^{(α-1)L}] = exp((α-1) R_α(P||Q)), with R_α from the closed form of symdp.engine.closed_forms.
    L, alpha = LaplaceLossLaw(mpmath.mpf(a)), mpmath.mpf(alpha)
    assert close(L.log_mgf(alpha - 1), (alpha - 1) * cf.laplace_renyi(L.a, 1, alpha), mpmath.mpf(10) ** -38)


@pytest.mark.parametrize("a", ["0.7", "4"])
def test_laplace_loss_tails_are_the_laplace_cdf_at_the_preimage(a):
    # For t in (-a, a): L >= t iff x <= (Δ - b t)/2 under P = Lap(0, b), Q = Lap(Δ, b) (here b = 1, Δ = a).
    L = LaplaceLossLaw(mpmath.mpf(a))
    P = Laplace(0, 1)
    for t in (-L.a + mpmath.mpf("1e-9"), -L.a / 3, 0, L.a / 2, L.a - mpmath.mpf("1e-9")):
        x = (L.a - t) / 2
        assert close(L.sf(t), P.cdf(x)) and close(L.cdf(t), P.sf(x))
    assert L.sf(L.a) == mpmath.mpf(1) / 2 and L.sf(L.a + 1) == 0 and L.sf(-L.a) == 1
    assert close(L.cdf(-L.a), mpmath.exp(-L.a) / 2) and L.cdf(-L.a - 1) == 0


@pytest.mark.parametrize("a", ["0.2", "1", "3", "8"])
def test_laplace_loss_standard_is_sqrt_of_twice_kl_attained_at_minus_one(a):
    # Observation (numeric): the sup of r sits at λ = -1, where r(-1) = 2 KL because E[e^{-L}] = 1; λ = -1 is
    # a stationary point of r whenever KL is symmetric (r'(-1) = 0 <=> KL(P||Q) + KL(Q||P) = 2 KL(P||Q)).
    L = LaplaceLossLaw(mpmath.mpf(a))
    s = optimal_standard(L)
    assert close(s.tau.value**2, 2 * cf.laplace_kl(L.a, 1), mpmath.mpf(10) ** -35)
    assert abs(s.argmax + 1) < mpmath.mpf(10) ** -20
    assert s.tau.error < mpmath.mpf(10) ** -30


# --- the optimal standard ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("p", ["0.5", "0.3", "0.1", "0.01", "0.9", "1e-6", "1e-12", "0.999999"])
def test_bernoulli_standard_matches_kearns_saul(p):
    p = mpmath.mpf(p)
    expected = mpmath.mpf(1) / 4 if p == mpmath.mpf("0.5") else (1 - 2 * p) / (2 * mpmath.log((1 - p) / p))
    law = DiscreteLaw([0, 1], [1 - p, p])
    s = optimal_standard(law)
    assert close(s.tau.value**2, expected, mpmath.mpf(10) ** -35)
    # a certified enclosure (the interval search over lambda) of the Kearns-Saul value of the law as built (its
    # probabilities rounded, normalised), 10^-(dps - 5) wide: the reference at 20 more digits
    with mpmath.workdps(mpmath.mp.dps + 20):
        q = law.probabilities[1] / mpmath.fsum(law.probabilities)
        built = mpmath.sqrt((1 - 2 * q) / (2 * mpmath.log((1 - q) / q))) if q != mpmath.mpf(1) / 2 else q
        assert s.tau.certified and abs(s.tau.value - built) <= s.tau.error
    assert s.tau.error < s.tau.value * mpmath.mpf(10) ** -(mpmath.mp.dps - 5)
    if p != mpmath.mpf("0.5"):
        lo, hi = DiscreteLaw([0, 1], [1 - p, p]).bounds()
        M = max(1 - p, p)
        assert 0 < abs(s.argmax) <= 2 * M / (p * (1 - p))  # inside the certified range


@pytest.mark.parametrize("scale", ["1", "0.001", "250"])
def test_rademacher_standard_is_the_variance_limit(scale):
    c = mpmath.mpf(scale)
    X = DiscreteLaw([-c, c], [0.5, 0.5])
    s = optimal_standard(X)
    assert s.argmax == 0 and close(s.tau.value, c)
    assert close(subgaussian_ratio(X, 1 / c), c**2 * 2 * mpmath.log(mpmath.cosh(1)))


def test_discrete_gaussian_loss_has_standard_delta_over_sigma_exactly():
    # Catalogue §1 generator (iv): N_Z(0, 1) vs N_Z(1, 1) truncated at |x| <= 50 has KL = 1/2 and tau = 1 (up to
    # the e^{-1250} truncation); the sup is attained at every nonzero integer multiple of 1/Delta.
    xs = range(-50, 51)
    P = FD.normalized([mpmath.exp(-mpmath.mpf(x) ** 2 / 2) for x in xs])
    Q = FD.normalized([mpmath.exp(-mpmath.mpf(x - 1) ** 2 / 2) for x in xs])
    L = privacy_loss(P, Q)
    assert close(L.mean(), mpmath.mpf(1) / 2, mpmath.mpf(10) ** -38)
    s = optimal_standard(L)
    assert close(s.tau.value, 1, mpmath.mpf(10) ** -38)


@pytest.mark.parametrize("eps", ["0.1", "1", "3"])
def test_randomized_response_standard(eps):
    e = mpmath.exp(mpmath.mpf(eps))
    P, Q = FD([e / (1 + e), 1 / (1 + e)]), FD([1 / (1 + e), e / (1 + e)])
    s = optimal_standard(privacy_loss(P, Q))
    assert close(s.tau.value**2, 2 * mpmath.mpf(eps) * mpmath.tanh(mpmath.mpf(eps) / 2), mpmath.mpf(10) ** -35)


def test_a_maximum_at_tiny_lambda_is_found():
    # A near-symmetric 3-point law with negative excess kurtosis: r falls from Var X on both sides except for a
    # slope κ₃/3 ≈ -5e-9 at 0, so the sup sits at a tiny λ* < 0 with an excess over Var X of order 1e-16.
    h = mpmath.mpf("1e-8")
    X = DiscreteLaw([-1, 0, 1], [mpmath.mpf("0.3") - h, mpmath.mpf("0.4"), mpmath.mpf("0.3") + h])
    s = optimal_standard(X)
    grid = [sign * mpmath.mpf(10) ** (-12 + k * mpmath.mpf(6) / 1500) for k in range(1501) for sign in (1, -1)]
    brute = max(subgaussian_ratio(X, lam) for lam in grid)
    assert s.tau.value**2 > X.variance() + mpmath.mpf(10) ** -20  # the excess is seen
    assert s.tau.value**2 >= brute - mpmath.mpf(10) ** -45
    assert s.tau.value**2 - brute < mpmath.mpf(10) ** -22  # and brute force is a fine grid of the same peak
    assert 0 < abs(s.argmax) < mpmath.mpf("1e-3")


def test_ratio_asymptote_at_large_lambda():
    # r(λ) = 2M/λ + 2 ln p/λ² + O(e^{-λ gap}/λ²) for a bounded law whose top point is an atom.
    X = DiscreteLaw([-1, 0.5, 2], [0.5, 0.3, 0.2])
    M, logp = ratio_asymptote(X, 1)
    assert close(M, 2 - X.mean()) and close(logp, mpmath.log(mpmath.mpf("0.2")))
    lam = mpmath.mpf(200)
    assert abs(subgaussian_ratio(X, lam) - (2 * M / lam + 2 * logp / lam**2)) < mpmath.exp(-100)
    M, logp = ratio_asymptote(LaplaceLossLaw(1), -1)   # bottom atom e^{-1}/2 at -1
    assert close(logp, -1 - mpmath.log(2))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(-4, 4), min_size=2, max_size=6), st.data())
def test_standard_dominates_every_ratio_and_lies_between_variance_and_hoeffding(values, data):
    w = data.draw(st.lists(st.floats(0.02, 1), min_size=len(values), max_size=len(values)))
    X = DiscreteLaw(values, FD.normalized(w).probs)
    s = optimal_standard(X)
    lo, hi = X.bounds()
    if hi == lo:
        assert s.tau.value == 0
        return
    tau2 = s.tau.value**2
    assert tau2 >= X.variance() - TOL and s.tau.value <= (hi - lo) / 2 + TOL  # Fact 2.1, Hoeffding
    spread = hi - lo
    grid = [sign * mpmath.mpf(10) ** (k / mpmath.mpf(20)) / spread for sign in (1, -1) for k in range(-60, 81)]
    assert max(subgaussian_ratio(X, lam) for lam in grid) <= tau2 + mpmath.mpf(10) ** -40
    # a certified enclosure 10^-(dps/2 + 1) wide (the interval search over lambda), or the grids' agreement
    assert s.tau.error < mpmath.mpf(10) ** (-(mpmath.mp.dps // 2) if s.tau.certified else -30)
    # shift invariance and agreement with the finite module's entry point
    assert close(optimal_standard(DiscreteLaw([x + 3 for x in X.values], X.probabilities)).tau.value,
                 s.tau.value, mpmath.mpf(10) ** -35)
    assert close(subgaussian_standard(X.values, X.probabilities).value, s.tau.value)


def test_point_mass_and_uncentred_laws():
    assert optimal_standard(DiscreteLaw([5], [1])).tau.value == 0
    X = DiscreteLaw([10, 12], [0.25, 0.75])   # centred internally: same as Bernoulli(0.75) scaled by 2
    p = mpmath.mpf("0.75")
    assert close(optimal_standard(X).tau.value**2, 4 * (1 - 2 * p) / (2 * mpmath.log((1 - p) / p)),
                 mpmath.mpf(10) ** -35)


def test_finite_pair_loss_mean_is_kl():
    P, Q = FD([0.2, 0.5, 0.3]), FD([0.4, 0.4, 0.2])
    L = privacy_loss(P, Q)
    assert close(L.mean(), kl(P, Q).value) and close(L.mgf(-1), 1)


def test_bad_input_is_named():
    with pytest.raises(InvalidParameter, match="moment order"):
        LaplaceLossLaw(1).central_moment(1.5)
    with pytest.raises(InvalidParameter, match="a = "):
        LaplaceLossLaw(-1)
    with pytest.raises(InvalidParameter, match="unbounded"):
        optimal_standard(_Unbounded())


class _Unbounded(GaussianLaw):
    """A Gaussian that hides its closed form: the search must refuse an unbounded law."""

    def __init__(self):
        super().__init__(0, 1)

    def closed_standard(self):
        return None


@pytest.mark.parametrize("eps", ["0.1", "1", "3"])
def test_randomized_response_loss_standard_is_a_certified_enclosure_of_kearns_saul(eps):
    # RR's loss is +-eps with P-masses 1 - p, p (p = 1/(1 + e^eps)): 2 eps times a centred Bernoulli(p), whose
    # standard is Kearns-Saul's sqrt((1 - 2p)/(2 ln((1 - p)/p))); the certified search never sees that closed form.
    from symdp.theorems.dwork.antipodal import rr_pair

    with mpmath.workdps(20):
        e = mpmath.mpf(eps)
        P, Q = rr_pair(e)
        tau = optimal_standard(privacy_loss(P, Q)).tau
        p = 1 / (1 + mpmath.exp(e))
        with mpmath.workdps(40):
            expected = 2 * e * mpmath.sqrt((1 - 2 * p) / (2 * mpmath.log((1 - p) / p)))
        assert tau.certified and abs(tau.value - expected) <= tau.error + mpmath.mpf(10) ** -18 * expected


def test_point_mass_standard_is_a_proved_zero():
    # a point mass (one value, or equal values) has K(λ) = 0 for every λ: τ = 0 exactly, proved
    for law in (DiscreteLaw([2.5], [1.0]).centred(), DiscreteLaw([-1.0, -1.0], [0.25, 0.75])):
        tau = optimal_standard(law).tau
        assert tau.certified and tau.value == 0 and tau.error == 0


# --- in balls: the centred log-MGF, expectations, and when the standard is certified -------------------------------


@pytest.mark.parametrize("lam", ["1e-9", "0.37", "-4", "60"])
def test_centred_log_mgf_of_rademacher_is_log_cosh(lam):
    # K(λ) = ln cosh λ for X = ±1 with probability 1/2 (mean 0): summed in balls, returned to working precision,
    # including λ = 1e-9 where K ~ λ²/2 = 5e-19 would lose 18 digits to e^{λx} - 1 formed after the exponential
    lam = mpmath.mpf(lam)
    X = DiscreteLaw([-1, 1], [0.5, 0.5])
    assert close(X.centred_log_mgf(lam), mpmath.log(mpmath.cosh(lam)), mpmath.mpf(10) ** -45)


def test_expect_ball_is_a_certified_enclosure_of_an_exact_moment():
    # X = -1, 2 with probabilities 2/3, 1/3: E[X^3] = (-2 + 8)/3 = 2 exactly; a ball g (Arb's exp) as well:
    # E[e^X] = (2e^{-1} + e²)/3
    third = mpmath.mpf(1) / 3
    X = DiscreteLaw([-1, 2], [1 - third, third])
    cube = X.expect_ball(lambda x: x ** 3)
    weights = X.probabilities   # as given (rounded thirds), normalised: the reference at 100 digits
    with mpmath.workdps(100):
        reference = mpmath.fsum(w * v ** 3 for w, v in zip(weights, (-1, 2))) / mpmath.fsum(weights)
    assert cube.certified and abs(cube.value - reference) <= cube.error and abs(cube.value - 2) < TOL
    exp = X.expect_ball(lambda x: x.exp())
    assert exp.certified and close(exp.value, (2 * mpmath.exp(-1) + mpmath.e**2) / 3)


def test_tied_peaks_skip_the_interval_search():
    # a discrete Gaussian pair with shift 2, sigma 0.6: the θ ratio peaks at every λ with 2λ an integer, all at
    # τ² = (Δ/σ)² exactly (catalogue generator (iv)); the interval search gives up on seeing more than TIED_PEAKS
    # tied peaks (within a few dozen boxes), and the grids' value stands, uncertified, and right
    from symdp.engine.integers import discrete_gaussian

    P, Q = discrete_gaussian(0, 0.6, -11, 13), discrete_gaussian(2, 0.6, -11, 13)
    with mpmath.workdps(20):
        P, Q = discrete_gaussian(0, 0.6, -11, 13), discrete_gaussian(2, 0.6, -11, 13)
        s = optimal_standard(privacy_loss(P, Q))
        assert s.ties > 2 and not s.tau.certified
        assert abs(s.tau.value - mpmath.mpf(2) / mpmath.mpf("0.6")) < mpmath.mpf(10) ** -15
    # a skewed two-point law has one peak: certified
    s = optimal_standard(DiscreteLaw([0, 1], [0.9, 0.1]))
    assert s.ties == 1 and s.tau.certified


def test_grid_stops_where_hoeffding_is_below_the_peak(monkeypatch):
    # atoms of mass 1e-300 at ±2 beside a point mass at 0: Var X = 8e-300 puts 2M/Var X, where Hoeffding's
    # r(λ) <= 2M/λ meets Var X, at 5e299, but r peaks near λ = 690 at ~3e-3: the grids stop where 2M/λ is below
    # half the peak, a few decades past it, not 300 decades on (some 6700 evaluations of r before)
    from symdp.engine import privacy_loss as module

    calls = []
    ratio = module.subgaussian_ratio
    monkeypatch.setattr(module, "subgaussian_ratio", lambda *args: calls.append(args[1]) or ratio(*args))
    with mpmath.workdps(30):
        p = mpmath.mpf("1e-300")
        X = DiscreteLaw([-2, 0, 2], [p, 1 - 2 * p, p])
        s = optimal_standard(X, certify=False)
        assert len(calls) < 400 and max(abs(lam) for lam in calls) < 1e5
        tau2 = s.tau.value ** 2
        assert 600 < abs(s.argmax) < 800 and 2e-3 < tau2 < 4e-3
        near = [ratio(X, s.argmax * (1 + mpmath.mpf(k) / 2000)) for k in range(-200, 201)]
        assert max(near) <= tau2 * (1 + mpmath.mpf(10) ** -25) and close(max(near), tau2, mpmath.mpf(10) ** -25)


@settings(max_examples=25, deadline=None)
@given(st.floats(0.002, 0.45), st.sampled_from([30, 50]))
def test_grid_peaks_by_newton_reach_kearns_saul(p, dps):
    # the grids' estimate (no interval search) of a Bernoulli's standard, its peak refined by Newton's method on r':
    # Kearns–Saul's τ² = (1 - 2p)/(2 ln((1 - p)/p)), attained at λ = 2 ln((1 - p)/p), within the estimate's error
    with mpmath.workdps(dps):
        p = mpmath.mpf(p)
        s = optimal_standard(DiscreteLaw([0, 1], [1 - p, p]), certify=False)
        assert not s.tau.certified
        with mpmath.workdps(dps + 20):
            reference = mpmath.sqrt((1 - 2 * p) / (2 * mpmath.log((1 - p) / p)))
            assert abs(s.tau.value - reference) <= s.tau.error
            assert abs(s.argmax - 2 * mpmath.log((1 - p) / p)) < mpmath.mpf(10) ** -(dps // 2 - 2)


def test_newton_and_brent_find_the_same_peak():
    # one bracket of a skewed three-point law, refined both ways: the same maximum of r to the working precision
    from symdp.engine.privacy_loss import _brent_max, _newton_peak

    with mpmath.workdps(40):
        X = DiscreteLaw([-1, 0, 3], [0.5, 0.3, 0.2])
        lo, hi = X.bounds()
        spread = hi - lo

        def r(u):
            return subgaussian_ratio(X, mpmath.exp(u), spread)

        a, x, b = mpmath.log(0.3), mpmath.log(1), mpmath.log(1.5)   # r: 2.68, 2.81, 2.46; its peak near λ = 0.7
        u_brent, f_brent = _brent_max(r, a, b, x, r(x))
        u_newton, f_newton = _newton_peak(X, 1, spread, a, b, x)
        assert f_newton > r(x) and close(f_newton, f_brent, mpmath.mpf(10) ** -38)
        assert abs(u_newton - u_brent) < mpmath.mpf(10) ** -18
