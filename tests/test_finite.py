"""The exact finite engine against definitions, closed forms and the inequalities every divergence must satisfy."""

import itertools

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.engine.finite import (FiniteDistribution as FD, approximate_max_divergence, hockey_stick, kl, max_divergence,
                          privacy_loss, privacy_loss_mgf, renyi, tv)
from symdp.engine.privacy_loss import subgaussian_standard
from symdp.engine.kernels import MarkovKernel
from tests.strategies import kernels, pairs




def fd(w):
    return FD.normalized(w)


@given(pairs())
def test_divergences_are_nonnegative_and_zero_on_equal(pair):
    P, Q = fd(pair[0]), fd(pair[1])
    for value in (kl(P, Q), renyi(P, Q, 2), tv(P, Q), hockey_stick(P, Q, 0)):
        assert value.value >= -value.error
    assert abs(kl(P, P).value) <= kl(P, P).error


@given(pairs(), st.floats(1.01, 50), st.floats(1.01, 50))
def test_renyi_is_nondecreasing_in_order_and_bounded_by_max_divergence(pair, a, b):
    P, Q = fd(pair[0]), fd(pair[1])
    lo, hi = sorted((a, b))
    assert renyi(P, Q, lo).value <= renyi(P, Q, hi).value + 1e-40
    assert renyi(P, Q, hi).value <= max_divergence(P, Q).value + 1e-40
    assert kl(P, Q).value <= renyi(P, Q, lo).value + 1e-40


@given(pairs())
def test_renyi_tends_to_kl_as_order_tends_to_one(pair):
    P, Q = fd(pair[0]), fd(pair[1])
    # R_alpha = KL + O(alpha - 1): the gap shrinks linearly (a Taylor fact, not a tolerance we tuned).
    # Near alpha = 1 rounding is amplified by 1/(alpha - 1); the reported error must account for it.
    r1, r2 = renyi(P, Q, 1 + mpmath.mpf(10) ** -8), renyi(P, Q, 1 + mpmath.mpf(10) ** -12)
    gap1, gap2 = r1.value - kl(P, Q).value, r2.value - kl(P, Q).value
    assert r2.error > 1e-45  # the amplification is reported, not hidden
    assert abs(gap2) <= abs(gap1) * 1e-3 + r1.error + r2.error


@given(pairs(max_size=6), st.floats(-3, 3))
def test_hockey_stick_is_the_sup_over_events(pair, eps):
    P, Q = fd(pair[0]), fd(pair[1])
    n = len(P)
    e = mpmath.exp(mpmath.mpf(repr(eps)))
    brute = max(mpmath.fsum(P[i] for i in S) - e * mpmath.fsum(Q[i] for i in S)
                for k in range(n + 1) for S in itertools.combinations(range(n), k))
    assert abs(hockey_stick(P, Q, eps).value - brute) < 1e-45


@given(pairs())
def test_tv_is_hockey_stick_at_zero_and_sup_over_events(pair):
    P, Q = fd(pair[0]), fd(pair[1])
    assert abs(tv(P, Q).value - hockey_stick(P, Q, 0).value) < 1e-45


@given(pairs(), st.data())
def test_data_processing_inequality_under_random_kernels(pair, data):
    P, Q = fd(pair[0]), fd(pair[1])
    K = MarkovKernel([FD.normalized(r).probs for r in data.draw(kernels(rows=len(P)))])
    PK, QK = K.apply(P), K.apply(Q)
    for f in (kl, tv, lambda A, B: renyi(A, B, 3.5), lambda A, B: hockey_stick(A, B, 0.3), max_divergence):
        assert f(PK, QK).value <= f(P, Q).value + 1e-40


def test_randomized_response_closed_forms():
    # RR with e^eps = 3: KL = eps*tanh(eps/2) (Dwork-Rothblum catalogue, obs.rr-extremal), D_inf = eps exactly.
    P, Q = FD([0.75, 0.25]), FD([0.25, 0.75])
    eps = mpmath.log(3)
    assert abs(kl(P, Q).value - eps * mpmath.tanh(eps / 2)) < 1e-48
    assert abs(max_divergence(P, Q).value - eps) < 1e-48
    assert abs(renyi(P, Q, mpmath.inf).value - eps) < 1e-48
    # Renyi of order 2: log(sum p^2/q) = log(0.75^2/0.25 + 0.25^2/0.75) = log(7/3)
    assert abs(renyi(P, Q, 2).value - mpmath.log(mpmath.mpf(7) / 3)) < 1e-48


def test_support_mismatch_gives_infinity_not_a_crash():
    P, Q = FD([0.5, 0.5]), FD([1, 0])
    assert kl(P, Q).value == mpmath.inf
    assert renyi(P, Q, 2).value == mpmath.inf
    assert max_divergence(P, Q).value == mpmath.inf
    assert kl(Q, P).value == mpmath.log(2)  # Q << P: finite
    assert hockey_stick(P, Q, 5).value == mpmath.mpf("0.5")  # the mass outside Q's support (Balle fn. 3)


@pytest.mark.parametrize("bad, message", [
    ([0.5, 0.6], "sum to 1.1"),
    ([-0.1, 1.1], "negative"),
    ([], "at least one atom"),
    (["x", 1], "not a number"),
    ([float("nan"), 1], "NaN"),
])
def test_invalid_distributions_name_the_problem(bad, message):
    with pytest.raises((InvalidDistribution, InvalidParameter), match=message):
        FD(bad)


@pytest.mark.parametrize("alpha", [1, 0.5, -2])
def test_renyi_order_must_exceed_one(alpha):
    with pytest.raises(InvalidParameter, match="alpha must be > 1"):
        renyi(FD([0.5, 0.5]), FD([0.5, 0.5]), alpha)


def test_mismatched_spaces_are_an_error():
    with pytest.raises(InvalidDistribution, match="different spaces"):
        kl(FD([0.5, 0.5]), FD([0.25, 0.25, 0.5]))


def test_inexact_thirds_are_rejected_with_the_deviation():
    with pytest.raises(InvalidDistribution, match="off by -1.0e-16"):
        FD([1 / 3, 1 / 3, 1 / 3])
    assert len(FD.normalized([1, 1, 1])) == 3


def test_decimal_floats_mean_what_was_typed():
    # 0.1 + 0.2 + 0.7 is 1 exactly as decimals (the binary doubles are not): validation must accept it.
    assert len(FD([0.1, 0.2, 0.7])) == 3


@given(pairs())
def test_privacy_loss_mean_is_kl_and_mgf_identities(pair):
    P, Q = fd(pair[0]), fd(pair[1])
    L = privacy_loss(P, Q)
    assert abs(L.mean() - kl(P, Q).value) < 1e-45
    # E_P[e^{-L}] = sum Q = 1 (equal supports), and E_P[e^{(a-1)L}] = exp((a-1) R_a).
    assert abs(privacy_loss_mgf(P, Q, -1).value - 1) < 1e-45
    a = mpmath.mpf(3)
    assert abs(mpmath.log(privacy_loss_mgf(P, Q, a - 1).value) / (a - 1) - renyi(P, Q, a).value) < 1e-40


@given(pairs(), st.floats(0, 0.5))
def test_approximate_max_divergence_inverts_the_hockey_stick(pair, delta):
    P, Q = fd(pair[0]), fd(pair[1])
    eps = approximate_max_divergence(P, Q, delta).value
    if mpmath.isfinite(eps):
        assert abs(hockey_stick(P, Q, eps).value - mpmath.mpf(repr(delta))) < 1e-40
        assert hockey_stick(P, Q, eps - mpmath.mpf(10) ** -10).value > delta
    assert approximate_max_divergence(P, Q, 0).value == max_divergence(P, Q).value or \
        abs(approximate_max_divergence(P, Q, 0).value - max_divergence(P, Q).value) < 1e-40


@pytest.mark.parametrize("p", ["0.5", "0.3", "0.1", "0.01", "0.9"])
def test_subgaussian_standard_of_bernoulli_matches_kearns_saul(p):
    # Closed form (Kearns & Saul, cited in catalogue-dwork.md §1): sigma^2 = (1 - 2p) / (2 ln((1 - p)/p)), p != 1/2;
    # at p = 1/2 the limit is 1/4.
    p = mpmath.mpf(p)
    expected = mpmath.mpf(1) / 4 if p == mpmath.mpf("0.5") else (1 - 2 * p) / (2 * mpmath.log((1 - p) / p))
    est = subgaussian_standard([0, 1], [1 - p, p])
    assert abs(est.value**2 - expected) < 1e-20
    assert est.error < 1e-20


@given(st.lists(st.floats(-5, 5), min_size=2, max_size=6), st.data())
@settings(max_examples=30)
def test_subgaussian_standard_dominates_variance_and_hoeffding(values, data):
    w = data.draw(st.lists(st.floats(0.05, 1), min_size=len(values), max_size=len(values)))
    P = FD.normalized(w)
    est = subgaussian_standard(values, P.probs)
    xs = [mpmath.mpf(repr(v)) for v in values]
    m = mpmath.fsum(p * x for p, x in zip(P, xs))
    var = mpmath.fsum(p * (x - m) ** 2 for p, x in zip(P, xs))
    assert est.value**2 >= var - 1e-30  # Fact 2.1: Var <= tau^2
    assert est.value <= (max(xs) - min(xs)) / 2 + 1e-30  # Hoeffding's lemma: tau <= (b - a)/2


def test_subgaussian_standard_edge_cases():
    # An infinite value (an unbounded loss) has no finite standard; a zero-probability one is ignored.
    assert subgaussian_standard([0, mpmath.inf], [0.5, 0.5]).value == mpmath.inf
    assert subgaussian_standard([-1, 1, mpmath.inf], [0.5, 0.5, 0]).value == 1
    # Kearns–Saul at p = 1e-9, where the supremum sits at λ = 2 ln((1-p)/p) ≈ 41.4 (catalogue §1 pitfall 2: a grid
    # with a fixed upper end can miss a supremum at large |λ|).
    p = mpmath.mpf("1e-9")
    est = subgaussian_standard([0, 1], [1 - p, p])
    assert abs(est.value**2 - (1 - 2 * p) / (2 * mpmath.log((1 - p) / p))) < 1e-40
