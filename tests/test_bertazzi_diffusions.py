"""Bertazzi et al., Section 4 and Appendix B (symdp.theorems.bertazzi.diffusions) and the Gaussian path laws behind
them (symdp.engine.gaussian_paths). Reference values name their origin: closed forms of Gaussian laws, the catalogue
(catalogue-bertazzi.md and its scripts' outputs), or brute force over all events."""

from __future__ import annotations

import itertools

import mpmath
import pytest
import sympy as sp

from symdp.derivation import Derivation
from symdp.engine import gaussian_paths
from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution
from symdp.errors import InvalidDistribution, InvalidParameter, SymdpError
from symdp.estimate import exact_ball
from symdp.precision import working_precision
from symdp.proofs.bertazzi import diffusions as proofs
from symdp.theorem import registered
from symdp.theorems.bertazzi import diffusions as dif
from symdp.verify import HOLDS, TIGHT, VIOLATED, evaluate_point

BY_ID = {t.id: t for t in registered("symdp.theorems.bertazzi.diffusions")}


# --- engine.gaussian_paths against closed forms ------------------------------------------------------------------

def test_euler_path_mean_and_variance_follow_the_ulas_closed_forms():
    # catalogue §1: mean_n = rho^n x0 - (b/mu)(1 - rho^n), var_n = (2 gamma/beta)(1 - rho^(2n))/(1 - rho^2)
    with working_precision(40):
        x0, mu, b, beta, gamma, n = mpmath.mpf("0.7"), mpmath.mpf("0.3"), mpmath.mpf("1.5"), 2, mpmath.mpf("0.5"), 6
        law = gaussian_paths.euler_path(x0, mu, [b] * n, beta, gamma)
        rho = 1 - gamma * mu
        for k in range(1, n + 1):
            assert abs(law.mean[k - 1] - (rho ** k * x0 - b / mu * (1 - rho ** k))) < mpmath.mpf(10) ** -35
            var = 2 * gamma / beta * (1 - rho ** (2 * k)) / (1 - rho ** 2)
            assert abs(law.cov[k - 1, k - 1] - var) < mpmath.mpf(10) ** -35
        # Cov(x_i, x_k) = rho^(k - i) Var(x_i) for i <= k (the noise after step i is independent of x_i)
        assert abs(law.cov[1, 4] - rho ** 3 * law.cov[1, 1]) < mpmath.mpf(10) ** -35


def test_renyi_of_gaussian_vectors_against_the_one_dimensional_closed_form():
    # R_a(N(m1, s1^2) || N(m2, s2^2)) = ln(s2/s1) + ln(s2^2/s_a^2)/(2(a - 1)) + a (m1 - m2)^2/(2 s_a^2),
    # s_a^2 = a s2^2 + (1 - a) s1^2 (Gil, Alajaji, Linder 2013)
    with working_precision(40):
        m1, m2, s1, s2, a = mpmath.mpf("0.3"), mpmath.mpf("-1.1"), mpmath.mpf("0.8"), mpmath.mpf("1.3"), 2.5
        sa2 = a * s2 ** 2 + (1 - a) * s1 ** 2
        expected = mpmath.log(s2 / s1) + mpmath.log(s2 ** 2 / sa2) / (2 * (a - 1)) + a * (m1 - m2) ** 2 / (2 * sa2)
        P = gaussian_paths.GaussianVector(mpmath.matrix([m1]), mpmath.matrix([[s1 ** 2]]))
        Q = gaussian_paths.GaussianVector(mpmath.matrix([m2]), mpmath.matrix([[s2 ** 2]]))
        assert abs(gaussian_paths.renyi(P, Q, a) - expected) < mpmath.mpf(10) ** -35
        # s_a^2 <= 0: the divergence is infinite
        assert gaussian_paths.renyi(Q, P, 10) == mpmath.inf


def test_the_sufficient_statistic_gives_the_vectors_renyi_divergence_through_the_door():
    with working_precision(30):
        P = gaussian_paths.euler_path(0.2, -0.4, [0.5, -1.0, 0.3], 1.5, 0.4)
        Q = gaussian_paths.euler_path(0.2, -0.4, [0.1, -0.2, 0.9], 1.5, 0.4)
        pair = gaussian_paths.equal_covariance_pair(P, Q)
        by_door = divergence("renyi", *pair, 3.0, method="densities").value
        assert abs(by_door - gaussian_paths.renyi(P, Q, 3)) < mpmath.mpf(10) ** -20


def test_every_quantity_through_the_statistic_is_that_of_the_vectors():
    # TV and the hockey-stick at 0 agree (D_1 = TV); KL = D^2/2 (closed form of equal-covariance Gaussians)
    with working_precision(30):
        P = gaussian_paths.euler_path(1.0, 0.8, [0.3, 0.3, -0.5, 0.0], 0.5, 0.25)
        Q = gaussian_paths.euler_path(1.0, 0.8, [0.0, 0.7, -0.5, 1.0], 0.5, 0.25)
        D2 = gaussian_paths.mahalanobis(P, Q) ** 2
        kl = gaussian_paths.through_statistic(divergence, "kl", P, Q, method="densities").value
        assert abs(kl - D2 / 2) < mpmath.mpf(10) ** -20
        tv = gaussian_paths.through_statistic(divergence, "tv", P, Q).value
        hs0 = gaussian_paths.through_statistic(divergence, "hockey_stick", P, Q, 0).value
        assert abs(tv - hs0) < mpmath.mpf(10) ** -20
        assert abs(tv - (2 * mpmath.ncdf(mpmath.sqrt(D2) / 2) - 1)) < mpmath.mpf(10) ** -20


def test_logpdf_of_a_diagonal_law_is_the_sum_of_normal_log_densities():
    with working_precision(30):
        law = gaussian_paths.GaussianVector(mpmath.matrix([1, -2]), mpmath.matrix([[4, 0], [0, 0.25]]))
        expected = mpmath.log(mpmath.npdf(0.5, 1, 2)) + mpmath.log(mpmath.npdf(-1.5, -2, 0.5))
        assert abs(law.logpdf([0.5, -1.5]) - expected) < mpmath.mpf(10) ** -25


def test_gaussian_vectors_reject_bad_shapes_and_unequal_covariances():
    with pytest.raises(InvalidDistribution, match="n-vector mean"):
        gaussian_paths.GaussianVector(mpmath.matrix([0, 0]), mpmath.matrix([[1]]))
    with pytest.raises(InvalidDistribution, match="different covariances"):
        gaussian_paths.mahalanobis(gaussian_paths.euler_path(0, 0, [0], 1, 1),
                                   gaussian_paths.euler_path(0, 0, [0], 2, 1))
    with pytest.raises(InvalidParameter, match="beta"):
        gaussian_paths.euler_path(0, 0, [0], -1, 1)


# --- Proposition 4.5: the path --------------------------------------------------------------------------------------

def test_proposition_4_5_is_the_catalogues_equality_and_its_tightened_copy_is_refuted():
    # catalogue bertazzi.prop4.5: mu = 0.3, gamma = 0.5, c = 2.5, n = 8, alpha = 7.5: 46.875 = 46.875
    theorem = BY_ID["bertazzi.prop4.5"]
    result = evaluate_point(theorem, dif.CONSTANT_SHIFT)
    assert result.verdict == TIGHT
    assert abs(result.quantity - mpmath.mpf("46.875")) < mpmath.mpf(10) ** -30
    assert evaluate_point(theorem.tightened(0.99), dif.CONSTANT_SHIFT).verdict == VIOLATED


def test_proposition_4_5_at_alpha_one_is_the_kl_equality():
    # E21: alpha = 1 read as KL; KL of the constant shift = c^2 beta T/4 = 2.5^2 * 4/4 = 6.25 (closed form)
    theorem = BY_ID["bertazzi.prop4.5.kl"]
    point = {k: v for k, v in dif.CONSTANT_SHIFT.items() if k != "alpha"}
    result = evaluate_point(theorem, point)
    assert result.verdict == TIGHT and abs(result.quantity - mpmath.mpf("6.25")) < mpmath.mpf(10) ** -30
    assert evaluate_point(theorem.tightened(0.99), point).verdict == VIOLATED


def test_proposition_4_5_is_loose_by_the_mean_square_drift_difference():
    # D^2 = (beta gamma/2) sum_k (c h_k)^2 for any linear drift: the bound's c^2 beta T/4 times mean(h_k^2)
    point = {"alpha": 2.0, "c": 1.0, "beta": 1.0, "T": 2,
             "structure": {"n": 2, "mu": 1.3, "x0": 0.0, "b": [0.0, 0.5], "h": [1.0, 0.0]}}
    result = evaluate_point(BY_ID["bertazzi.prop4.5"], point)
    assert result.verdict == HOLDS
    assert abs(result.quantity / result.bound - mpmath.mpf("0.5")) < mpmath.mpf(10) ** -20


@pytest.mark.parametrize("C1, delta", list(itertools.product([0.01, 1.0, 30.0], [1e-2, 1e-8])))
def test_proposition_4_5_exact_delta_at_eps_delta_is_within_the_catalogues_range(C1, delta):
    # catalogue bertazzi.prop4.5: delta(eps_delta)/delta in [7.0e-4, 0.064] over this grid (a5_tight.out, ula_gauss.out)
    point = {"c": mpmath.sqrt(C1), "beta": 1.0, "T": 1,
             "structure": {"n": 3, "mu": 0.5, "x0": 0.0, "b": [0.0] * 3, "h": [1.0] * 3}}
    result = evaluate_point(BY_ID["bertazzi.prop4.5.dp"], {**point, "delta": delta})
    assert result.verdict == HOLDS
    assert 6.9e-4 <= result.quantity / delta <= 0.065


@pytest.mark.parametrize("delta", [0.5, 1e-2, 1e-6])
def test_proposition_4_5_exact_delta_stays_below_the_gaussian_tail_limit(delta):
    # loss ~ N(C1/4, C1/2): delta(eps_delta) < P(L > eps_delta) = Phi(-sqrt(2 log(1/delta))) for every C1, the limit
    # as C1 -> infinity (closed form of the Gaussian loss); at C1 = 1000 already above 3/4 of it
    limit = mpmath.ncdf(-mpmath.sqrt(2 * mpmath.log(1 / mpmath.mpf(delta))))
    point = {"c": 10.0, "beta": 10.0, "T": 1, "delta": delta,
             "structure": {"n": 1, "mu": 0.0, "x0": 0.0, "b": [0.0], "h": [1.0]}}
    result = evaluate_point(BY_ID["bertazzi.prop4.5.dp"], point)
    assert 0.75 * limit < result.quantity < limit


def test_a_drift_difference_above_c_is_a_clear_error():
    bad = {**dif.CONSTANT_SHIFT, "structure": {**dif.CONSTANT_SHIFT["structure"], "h": [1.5] * 8}}
    with pytest.raises(SymdpError, match=r"\|h_k\| <= 1"):
        evaluate_point(BY_ID["bertazzi.prop4.5"], bad)
    with pytest.raises(SymdpError, match="alpha"):
        evaluate_point(BY_ID["bertazzi.prop4.5"], {**dif.CONSTANT_SHIFT, "alpha": 0.5})


# --- Proposition 4.6: the final value on Ornstein-Uhlenbeck ---------------------------------------------------------

def test_proposition_4_6_on_ou_is_four_times_loose_at_its_minimiser():
    # catalogue: ratio -> (4L + 4 + 1/L)/2 as T -> infinity, 4 at L = 1/2 (min 4.00004 over 3000 draws)
    result = evaluate_point(BY_ID["bertazzi.prop4.6"], dif.OU_MINIMISER)
    assert result.verdict == HOLDS
    assert 4 - mpmath.mpf(10) ** -18 <= result.bound / result.quantity < 4 + 1e-6   # certified, decided at 20 digits


def test_proposition_4_6_measures_the_ou_law_from_its_solution():
    # D_alpha(X_T || X'_T) = alpha beta c^2 (1 - e^{-LT})/(2L(1 + e^{-LT})) (catalogue, exact OU formula)
    point = {"alpha": 3.0, "L": 2.0, "c": 0.7, "beta": 1.5, "structure": {"T": 0.8, "b": 0.4, "x0": -1.0}}
    result = evaluate_point(BY_ID["bertazzi.prop4.6"], point)
    e = mpmath.exp(-2 * mpmath.mpf("0.8"))
    expected = 3 * 1.5 * mpmath.mpf("0.7") ** 2 * (1 - e) / (2 * 2 * (1 + e))
    assert result.certified and abs(result.quantity - expected) < mpmath.mpf(10) ** -19   # decided at 20 digits


def test_proposition_4_6_dp_is_loose_in_delta():
    point = {"L": 0.5, "c": 1.0, "beta": 1.0, "delta": 1e-6, "structure": dif.OU_MINIMISER["structure"]}
    result = evaluate_point(BY_ID["bertazzi.prop4.6.dp"], point)
    assert result.verdict == HOLDS and result.quantity < 1e-3 * 1e-6


# --- Lemmas 4.1, 4.2 and (71) on finite pairs ---------------------------------------------------------------------

def _hs_by_events(P, Q, e):
    """sup_B P(B) - e^eps Q(B) by brute force over every event B."""
    E = mpmath.exp(e)
    events = itertools.chain.from_iterable(itertools.combinations(range(len(P)), r) for r in range(len(P) + 1))
    return max(mpmath.fsum(P[i] for i in B) - E * mpmath.fsum(Q[i] for i in B) for B in events)


def test_lemma_4_1_left_side_is_the_brute_force_hockey_stick_and_below_the_tail():
    structure = {"p": [0.5, 0.2, 0.3], "q": [0.1, 0.6, 0.3], "channel": [[1, 1], [0, 1], [1, 0]]}
    point = {"epsilon": 0.4, "structure": structure}
    result = evaluate_point(BY_ID["bertazzi.lem4.1"], point)
    # outputs: P A = (0.25 + 0.3, 0.25 + 0.2) = (0.55, 0.45), Q A = (0.05 + 0.3, 0.05 + 0.6) = (0.35, 0.65)
    assert abs(result.quantity - _hs_by_events([0.55, 0.45], [0.35, 0.65], mpmath.mpf("0.4"))) < 1e-15
    # tail: only atom 0 has P/Q = 5 > e^0.4, mass 0.5
    assert abs(result.bound - mpmath.mpf("0.5")) < 1e-15 and result.verdict == HOLDS


def test_lemma_4_2_is_an_equality_for_the_identity_channel_and_its_tightened_copy_is_refuted():
    theorem = BY_ID["bertazzi.lem4.2"]
    point = {"alpha": 3.0, "structure": dif.IDENTITY_CHANNEL}
    # R_3 = log(sum p^3 q^-2)/2 (definition): 0.6^3/0.04 + 0.3^3/0.09 + 0.1^3/0.25 = 5.4 + 0.3 + 0.004
    result = evaluate_point(theorem, point)
    assert result.verdict == TIGHT
    assert abs(result.quantity - mpmath.log(mpmath.mpf("5.704")) / 2) < mpmath.mpf(10) ** -30
    assert evaluate_point(theorem.tightened(0.99), point).verdict == VIOLATED


def test_lemma_4_2_is_strict_through_a_merging_channel():
    point = {"alpha": 2.0, "structure": {**dif.IDENTITY_CHANNEL, "channel": [[1, 0], [1, 0], [0, 1]]}}
    assert evaluate_point(BY_ID["bertazzi.lem4.2"], point).verdict == HOLDS


# --- Appendix B ---------------------------------------------------------------------------------------------------

def test_lemma_b_1_density_holds_and_the_printed_proofs_density_is_refuted():
    printed = BY_ID["bertazzi.lemB.1.printed"]
    result = evaluate_point(printed, printed.erratum.counterexample)
    assert result.verdict == VIOLATED
    # one step, beta = 2, gamma = u = w = 1: (75) gives u w - u^2/2 = 1/2, the printed construction -3/2
    assert abs(result.quantity - mpmath.mpf("0.5")) < 1e-30 and abs(result.bound + mpmath.mpf("1.5")) < 1e-30
    assert evaluate_point(BY_ID["bertazzi.lemB.1"], printed.erratum.counterexample).verdict == TIGHT
    several = {"beta": 0.7, "T": 3, "structure": {"n": 4, "mu": 1.2, "x0": 0.3, "b": [0.1, -0.4, 1.0, 0.0],
                                                  "u": [0.5, -1.5, 2.0, 0.25], "z": [1.0, -0.3, 0.2, 2.5]}}
    assert evaluate_point(BY_ID["bertazzi.lemB.1"], several).verdict == TIGHT


def test_lemma_b_2_is_the_catalogues_equality_and_its_tightened_copy_is_refuted():
    # catalogue bertazzi.lemB.2: u = K, T = 5, K = 2: E exp(K W_T) = e^10 = 22026.4657948
    theorem = BY_ID["bertazzi.lemB.2"]
    point = {"T": 5, "K": 2.0, "structure": [1.0]}
    result = evaluate_point(theorem, point)
    assert result.verdict == TIGHT and abs(result.quantity - mpmath.mpf("22026.4657948")) < 1e-7
    assert evaluate_point(theorem.tightened(0.99), point).verdict == VIOLATED
    assert evaluate_point(theorem, {"T": 3, "K": 1.0, "structure": [0.5, -1.0, 0.0]}).verdict == HOLDS


@pytest.mark.parametrize("T, K, a, tail, bound", [(1, 1.0, 0.5, "0.3085", "0.8825"),
                                                 (2, 0.3, 1.0, "0.00921", "0.0622"),
                                                 (5, 2.0, 20.0, "3.87e-6", "4.54e-5")])
def test_lemma_b_3_at_the_catalogues_instances(T, K, a, tail, bound):
    result = evaluate_point(BY_ID["bertazzi.lemB.3"], {"T": T, "K": K, "a": a, "structure": [1.0]})
    assert result.verdict == HOLDS
    assert abs(result.quantity / mpmath.mpf(tail) - 1) < 2e-3 and abs(result.bound / mpmath.mpf(bound) - 1) < 2e-3


def test_lemma_b_3_far_tails_are_a_clear_error():
    with pytest.raises(SymdpError, match="standard deviations out"):
        evaluate_point(BY_ID["bertazzi.lemB.3"], {"T": 1, "K": 1.0, "a": 1.0, "structure": [1e-300]})


# --- derivations ----------------------------------------------------------------------------------------------------

def test_every_derivation_checks():
    assert all(d.check() for d in proofs.DERIVATIONS)


def test_the_printed_sign_of_the_girsanov_construction_is_not_an_identity():
    # E8: with the printed (76), the one-step log-density would be -sqrt(beta/2) u w - beta u^2 gamma/4
    d = proofs.girsanov_one_step()
    beta_, u_, w_, g_ = proofs.beta_p, proofs.u_step, proofs.w_step, proofs.g_step
    wrong = Derivation("printed sign", d.start).step(-sp.sqrt(beta_ / 2) * u_ * w_ - beta_ / 4 * u_ ** 2 * g_, "E8")
    assert wrong.failures() == [(0, "E8")]


def test_remark_4_3_minimum_agrees_numerically_with_a_search():
    # min over alpha > 1 of alpha C/4 + log(1/delta)/(alpha - 1) by a direct search against C/4 + sqrt(C log(1/delta))
    with working_precision(30):
        C, delta = mpmath.mpf("0.7"), mpmath.mpf("1e-5")
        lam = mpmath.log(1 / delta)
        objective = lambda a: a * C / 4 + lam / (a - 1)
        alpha_star = mpmath.findroot(lambda a: mpmath.diff(objective, a), 5)
        assert abs(objective(alpha_star) - (C / 4 + mpmath.sqrt(C * lam))) < mpmath.mpf(10) ** -20


def test_ids_are_the_catalogues():
    expected = {"bertazzi.eq12", "bertazzi.lem4.1", "bertazzi.lem4.2", "bertazzi.rem4.3", "bertazzi.eq16",
                "bertazzi.prop4.5", "bertazzi.prop4.6", "bertazzi.lemB.1", "bertazzi.lemB.2", "bertazzi.lemB.3",
                "bertazzi.proofB.1", "bertazzi.proofB.2", "bertazzi.proof4.5", "bertazzi.proof4.6"}
    assert expected <= set(BY_ID)


def test_lemma_4_1_point_mass_pin_is_500_over_501_and_refutes_a_tightened_copy():
    # P = delta_0, Q = (0.01, 1, ..., 1)/5.01: the tail set is {0}, HS = 1 - Q(0) = 500/501 and P(tail) = 1
    pin = {"epsilon": 0.0, "structure": dif.POINT_MASS_TAIL}
    assert pin in dif.lemma_4_1.examples
    assert evaluate_point(dif.lemma_4_1, pin).ratio == pytest.approx(500 / 501, rel=1e-12)
    from symdp.plugin import check

    # the random draws reached 0.915 before the pin
    assert check(dif.lemma_4_1.tightened(0.95)).verdict == VIOLATED


def _holds(estimate, reference, slack) -> bool:
    return estimate.certified and abs(estimate.value - reference) <= estimate.error + slack


def test_the_finite_measurements_are_certified_balls_of_their_sums():
    # P = (1/2, 1/4, 1/4), Q = (1/4, 1/4, 1/2), all dyadic: the tail P(dP/dQ > e^0.5) = 1/2 (only atom 0, ratio 2 >
    # e^0.5 = 1.65), E_P[(dP/dQ)^2] = 1/2 * 4 + 1/4 + 1/4 * 1/4 = 37/16, E_Q[(dP/dQ)^3] = the same (eq. (71))
    P_, Q_ = [mpmath.mpf(1) / 2, mpmath.mpf(1) / 4, mpmath.mpf(1) / 4], [mpmath.mpf(1) / 4, mpmath.mpf(1) / 4,
                                                                          mpmath.mpf(1) / 2]
    with working_precision(30):
        tail = dif.tail_mass(P_, Q_, mpmath.mpf("0.5"))
        assert _holds(tail, mpmath.mpf(1) / 2, 0)
        laws = FiniteDistribution(P_), FiniteDistribution(Q_)
        for moment in (dif.ratio_moment(*laws, 3, offset=-1), dif.ratio_moment(*laws, 3, under_q=True)):
            assert _holds(moment, mpmath.mpf(37) / 16, 0) and moment.error < mpmath.mpf(10) ** -29


def test_equal_atoms_are_outside_the_tail_however_small_eps():
    # at eps = 2^-1022 (a draw hypothesis makes: the least normal double) e^eps is 1 to every ball's width, so
    # p > e^eps q could not be decided for equal atoms and the tail fell back to an uncertified sum; for eps >= 0
    # p <= q in exact rationals decides it: the tail of two equal laws is 0, certified, and Lemma 4.1 is tight there
    P_ = FiniteDistribution.normalized([0.9776952603181139, 0.05805803655710219])
    for eps in (2.0 ** -1022, 0.0, 1e-300):
        tail = dif.tail_mass(P_, P_, eps)
        assert tail.certified and tail.value == 0 and tail.error == 0
    raw = {"epsilon": 2.0 ** -1022, "structure": {"p": [0.9776952603181139, 0.05805803655710219],
                                                   "q": [0.9776952603181139, 0.05805803655710219],
                                                   "channel": [[0.05805803655710219], [0.7534307730042196]]}}
    result = evaluate_point(dif.lemma_4_1, raw)
    assert result.verdict == TIGHT and result.certified


def test_the_coupling_sup_and_the_gaussian_tail_are_certified():
    with working_precision(30):
        point = {"L": mpmath.mpf(2), "c": mpmath.mpf("0.7"), "structure": {"T": 0.8}}
        # C = c(1 - e^{-LT})/L (the solution of de = -Le dt - c dt, e_0 = 0; catalogue)
        expected = mpmath.mpf("0.7") * -mpmath.expm1(-2 * mpmath.mpf("0.8")) / 2
        assert _holds(dif.enclosure(lambda: dif.coupling_sup(point)), expected, mpmath.mpf(10) ** -29)
        # P(Z > 1/2), Z ~ N(0, 1) (T = K = 1, u = K): mpmath's quadrature of the normal density over [1/2, oo)
        tail = dif.lemma_b_3.witness({"T": 1, "K": mpmath.mpf(1), "a": mpmath.mpf("0.5"), "structure": [1.0]})
        reference = mpmath.quad(lambda x: mpmath.npdf(x), [mpmath.mpf("0.5"), mpmath.inf])
        assert _holds(tail, reference, mpmath.mpf(10) ** -27)


@pytest.mark.parametrize("v", ["0.001", "1", "3.7", "500"])
def test_gaussian_exp_moment_encloses_the_lognormal_mean(v):
    # E e^Z for Z ~ N(0, v) is e^{v/2} (the lognormal mean, a textbook closed form)
    from flint import arb

    from symdp.estimate import in_balls
    with working_precision(20), in_balls():
        got = dif.gaussian_exp_moment(arb(v))
        # e^{v/2} in Arb at a higher precision: a tiny ball that must lie inside the enclosure
        from symdp.estimate import arb_precision
        with arb_precision(300):
            truth = (arb(v) / 2).exp()
            assert got.contains(truth)
        assert got.rad() < got.mid().abs_lower() * 1e-25


def test_lemma_b_2_draws_are_certified_and_built_exactly():
    for point in ({"T": 5, "K": 2.0, "structure": [1.0]}, {"T": 3, "K": 1.0, "structure": [0.5, -1.0, 0.0]},
                  {"T": 3, "K": 0.7, "structure": [1.0, 1.0, 1.0]}):
        result = evaluate_point(BY_ID["bertazzi.lemB.2"], point)
        assert result.certified and result.construction == "exact", point


# --- certified by construction: the path laws' shift and Girsanov's density in balls ----------------------------------

def test_the_path_shift_ball_holds_the_telescoped_innovations_and_the_engines_cholesky():
    # D^2 = sum_k (gamma c h_k)^2/(2 gamma/beta): the likelihood ratio telescopes into the steps' innovations (an
    # independent derivation), and the engine's mpf Cholesky agrees to its rounding
    point = {"alpha": 2.0, "c": 0.7, "beta": 1.3, "T": 3,
             "structure": {"n": 3, "mu": 0.4, "x0": 0.2, "b": [0.1, -0.5, 1.0], "h": [1.0, -0.25, 0.5]}}
    with working_precision(40):
        shift = dif.path_shift(point)
        gamma = mpmath.mpf(3) / 3
        square = sum((gamma * mpmath.mpf("0.7") * h) ** 2 for h in (1.0, -0.25, 0.5)) * mpmath.mpf("1.3") / (2 * gamma)
        assert (shift * shift).contains(exact_ball(square) + dif.arb(0, exact_ball(mpmath.mpf(10) ** -38)))
        assert shift.rad() < mpmath.mpf(10) ** -45
        assert abs(mpmath.mpf(shift.mid()) - gaussian_paths.mahalanobis(*dif.path_laws(point))) < 1e-35


@pytest.mark.parametrize("ident, point", [
    ("bertazzi.prop4.5", dif.CONSTANT_SHIFT),
    ("bertazzi.prop4.5.kl", {k: v for k, v in dif.CONSTANT_SHIFT.items() if k != "alpha"}),
    # one of the draws whose mpf Cholesky once rounded the tight sides apart by more than the construction floor
    ("bertazzi.prop4.5", {"alpha": 1.9, "c": 0.8999999999999999, "beta": 0.35606773975014167, "T": 4, "structure": {
        "n": 5, "mu": -0.5241056208538021, "x0": -1.8022531803761446,
        "b": [-0.026751876803156716, -0.13553804601944153, 1.9, 0.8999999999999999, 0.0], "h": [1.0] * 5}}),
])
def test_the_tight_path_draws_are_certified_from_laws_built_exactly(ident, point):
    result = evaluate_point(BY_ID[ident], point)
    assert result.verdict == TIGHT and result.certified and result.construction == "exact"
    assert evaluate_point(BY_ID[ident].tightened(0.999999), point).verdict == VIOLATED


def test_girsanovs_sides_are_certified_balls_and_the_printed_density_stays_refuted():
    # dyadic numbers, so that mpmath's binary reading below is the witness's decimal one
    several = {"beta": 0.75, "T": 3, "structure": {"n": 4, "mu": 1.25, "x0": 0.375, "b": [0.125, -0.5, 1.0, 0.0],
                                                   "u": [0.5, -1.5, 2.0, 0.25], "z": [1.0, -0.375, 0.25, 2.5]}}
    result = evaluate_point(BY_ID["bertazzi.lemB.1"], several)
    assert result.verdict == TIGHT and result.certified and result.construction == "exact"
    with working_precision(40):   # the engine's mpf log-densities of the same path, an independent route
        terms = dif.girsanov_terms(dif_point := {k: mpmath.mpf(v) if k != "structure" else v
                                                 for k, v in several.items()})
        s, n = dif_point["structure"], 4
        gamma = mpmath.mpf(3) / n
        w = [mpmath.sqrt(gamma) * mpmath.mpf(z) for z in s["z"]]
        path, x, mu = [], mpmath.mpf(s["x0"]), mpmath.mpf(s["mu"])
        for k in range(n):
            x = x + gamma * (-mu * x - mpmath.mpf(s["b"][k])) + mpmath.sqrt(2 / mpmath.mpf(0.75)) * w[k]
            path.append(x)
        first = gaussian_paths.euler_path(s["x0"], s["mu"], s["b"], 0.75, gamma)
        second = gaussian_paths.euler_path(s["x0"], s["mu"], [b - u for b, u in zip(s["b"], s["u"])], 0.75, gamma)
        ratio = terms[dif.LogDensityRatio()].value
        assert ratio.certified and abs(ratio.value - (second.logpdf(path) - first.logpdf(path))) < 1e-30
    printed = BY_ID["bertazzi.lemB.1.printed"]
    refuted = evaluate_point(printed, printed.erratum.counterexample)
    assert refuted.verdict == VIOLATED and refuted.certified
