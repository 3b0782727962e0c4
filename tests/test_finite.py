"""The exact finite engine against definitions, closed forms and the inequalities every divergence must satisfy."""

import itertools
from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp
from hypothesis import assume, given, settings, strategies as st

from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.engine.finite import (FiniteDistribution as FD, approximate_max_divergence, hockey_stick, kl, max_divergence,
                          privacy_loss, loss_mgf, renyi, tv)
from symdp.engine.privacy_loss import subgaussian_standard
from symdp.engine.kernels import MarkovKernel
from tests.strategies import kernels, pairs




def fd(w):
    return FD.normalized(w)


def _atoms(P):
    """P's probabilities at the working precision: its exact rationals where it was built exactly (normalized
    weights: the enclosures are of that law), else the numbers given."""
    if P.rationals is None:
        return list(P)
    return [mpmath.mpf(int(r.p)) / int(r.q) for r in P.rationals]


def _contains(estimate, reference) -> bool:
    """Whether the certified ``estimate`` encloses ``reference`` (compared at 110 digits, so no rounding here)."""
    with mpmath.workdps(110):
        if mpmath.isinf(reference):
            return estimate.value == reference and estimate.error == 0
        return estimate.value - estimate.error <= reference <= estimate.value + estimate.error


def _reference_renyi(P, Q, a):
    """R_a of the law given (:func:`_atoms`), in plain mpmath at 100 digits (no balls), by the definition in renyi's docstring:
    log(1 + Σ p expm1((a-1) log(p/q))) / (a - 1), the textbook log(Σ p^a q^(1-a)) / (a - 1) with the mass P misses
    (below 1 by rounding) read as an atom of ratio 1. (expm1 and log1p: a 1e-308 atom is far below 100 digits of 1.)
    Where P sums to 1 exactly the two agree; the exact-rational tests below check the textbook sum itself."""
    with mpmath.workdps(100):
        a = mpmath.mpf(a)
        pairs = list(zip(_atoms(P), _atoms(Q)))
        if any(p > 0 and q == 0 for p, q in pairs):
            return mpmath.inf
        excess = mpmath.fsum(p * mpmath.expm1((a - 1) * mpmath.log(p / q)) for p, q in pairs if p > 0)
        return mpmath.log1p(excess) / (a - 1)


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
    # R_alpha = KL + O(alpha - 1): the gap shrinks linearly (a Taylor fact, not a tolerance we tuned), and the
    # log1p/expm1 form keeps the enclosures narrow at alpha = 1 + 1e-12 (no 1/(alpha - 1) amplification).
    a1, a2 = 1 + mpmath.mpf(10) ** -8, 1 + mpmath.mpf(10) ** -12
    r1, r2, k = renyi(P, Q, a1), renyi(P, Q, a2), kl(P, Q)
    assert abs(r2.value - k.value) <= abs(r1.value - k.value) * 1e-3 + r1.error + r2.error + k.error
    assert _contains(r2, _reference_renyi(P, Q, a2))
    assert r2.error <= (abs(r2.value) + r2.scale) * mpmath.mpf(10) ** (-mpmath.mp.dps + 3)


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
    assert abs(loss_mgf(P, Q, -1).value - 1) < 1e-45
    a = mpmath.mpf(3)
    assert abs(mpmath.log(loss_mgf(P, Q, a - 1).value) / (a - 1) - renyi(P, Q, a).value) < 1e-40


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


# --- certified enclosures: independent references, narrow radii --------------------------------------------------


def _references_100_digits(P, Q, alpha, eps, lam):
    """Every finite divergence of the laws given (:func:`_atoms`), from its textbook sum at 100 digits in mpmath (no
    balls)."""
    with mpmath.workdps(100):
        pairs = list(zip(_atoms(P), _atoms(Q)))
        support = [(p, q) for p, q in pairs if p > 0]
        unbounded = any(q == 0 for _, q in support)
        # p - e^eps q as (p - q) - q (e^eps - 1): at eps = -2e-313, e^eps is 1 to 100 digits, and p - e^eps q of
        # p = q would be 0 instead of 2e-313 q
        growth = mpmath.expm1(mpmath.mpf(eps))
        return {
            "kl": mpmath.inf if unbounded else mpmath.fsum(p * mpmath.log(p / q) for p, q in support),
            "renyi": _reference_renyi(P, Q, alpha),
            "max": mpmath.inf if unbounded else max(mpmath.log(p / q) for p, q in support),
            "hockey": mpmath.fsum(max(0, (p - q) - growth * q) for p, q in pairs),
            "tv": mpmath.fsum(abs(p - q) for p, q in pairs) / 2,
            # E_P[e^{λL}], where an infinite loss contributes e^{λ·inf}: +inf for λ > 0, and 1 at λ = 0
            "mgf": mpmath.inf if unbounded and lam > 0 else
            mpmath.fsum(p * (p / q) ** mpmath.mpf(lam) if q > 0 else p for p, q in support),
        }


def _computed(P, Q, alpha, eps, lam):
    return {"kl": kl(P, Q), "renyi": renyi(P, Q, alpha), "max": max_divergence(P, Q),
            "hockey": hockey_stick(P, Q, eps), "tv": tv(P, Q), "mgf": loss_mgf(P, Q, lam)}


@given(pairs(positive=False), st.floats(1.01, 40), st.floats(-3, 3), st.floats(0, 5))
@settings(max_examples=60, deadline=None)
def test_enclosures_contain_a_100_digit_reference(pair, alpha, eps, lam):
    assume(sum(pair[0]) > 0 and sum(pair[1]) > 0)
    P, Q = fd(pair[0]), fd(pair[1])
    a, e, l = mpmath.mpf(repr(alpha)), mpmath.mpf(repr(eps)), mpmath.mpf(repr(lam))
    references = _references_100_digits(P, Q, a, e, l)
    for name, estimate in _computed(P, Q, a, e, l).items():
        assert estimate.certified, name
        assert _contains(estimate, references[name]), (name, estimate, references[name])


@pytest.mark.parametrize("dps", [20, 50, 80])
def test_randomized_response_is_enclosed_narrowly(dps):
    # ε-RR with e^ε = 3 (probabilities 3/4, 1/4, exact binary numbers): KL = ε tanh(ε/2) (Dwork-Rothblum catalogue,
    # obs.rr-extremal), D_∞ = ε, R_2 = log(3/4·3 + 1/4·1/3) = log(7/3), TV = 1/2, E_P[e^L] = 7/3, E_P[e^{-L}] = 1.
    with mpmath.workdps(dps):
        P, Q = FD([0.75, 0.25]), FD([0.25, 0.75])
        computed = [kl(P, Q), max_divergence(P, Q), renyi(P, Q, mpmath.inf), renyi(P, Q, 2), tv(P, Q),
                    loss_mgf(P, Q, 1), loss_mgf(P, Q, -1)]
    with mpmath.workdps(100):
        eps = mpmath.log(3)
        references = [eps * mpmath.tanh(eps / 2), eps, eps, mpmath.log(mpmath.mpf(7) / 3), mpmath.mpf(1) / 2,
                      mpmath.mpf(7) / 3, mpmath.mpf(1)]
    for estimate, reference in zip(computed, references):
        assert estimate.certified and _contains(estimate, reference)
        assert 0 < estimate.error <= abs(reference) * mpmath.mpf(10) ** (-dps + 3) or estimate.error == 0


def _exact_two_atom_references():
    """P = (1/4, 3/4), Q = (1/2, 1/2) in SymPy rationals: each divergence as an exact expression (by hand from the
    definitions), then evaluated to 60 digits by SymPy's own arithmetic."""
    p, q = [sp.Rational(1, 4), sp.Rational(3, 4)], [sp.Rational(1, 2), sp.Rational(1, 2)]
    kl_exact = sum(pi * sp.log(pi / qi) for pi, qi in zip(p, q))
    mean = kl_exact
    exact = {
        "kl": kl_exact,                                                    # (1/4) log(1/2) + (3/4) log(3/2)
        "renyi3": sp.log(sum(pi**3 / qi**2 for pi, qi in zip(p, q))) / 2,   # log(7/4) / 2
        "max": sp.log(sp.Rational(3, 2)),
        "hockey-1": sum(pi - sp.exp(-1) * qi for pi, qi in zip(p, q)),      # both atoms above e^{-1} Q: 1 - e^{-1}
        "tv": sp.Rational(1, 4),
        "eps_of_delta": sp.log(sp.Rational(5, 4)),                          # 3/4 - e^ε/2 = 1/8
        "mgf2_centred": sum(pi * (pi / qi) ** 2 for pi, qi in zip(p, q)) * sp.exp(-2 * mean),   # (7/4) e^{-2 KL}
    }
    return {name: mpmath.mpf(str(sp.N(value, 60))) for name, value in exact.items()}


def test_two_atom_exact_rationals_are_enclosed():
    references = _exact_two_atom_references()
    with mpmath.workdps(50):
        P, Q = FD([Fraction(1, 4), Fraction(3, 4)]), FD([Fraction(1, 2), Fraction(1, 2)])
        computed = {"kl": kl(P, Q), "renyi3": renyi(P, Q, 3), "max": max_divergence(P, Q),
                    "hockey-1": hockey_stick(P, Q, -1), "tv": tv(P, Q),
                    "eps_of_delta": approximate_max_divergence(P, Q, Fraction(1, 8)),
                    "mgf2_centred": loss_mgf(P, Q, 2, centred=True)}
        for name, estimate in computed.items():
            assert estimate.certified, name
            # 60-digit references: a radius of 10^-47 relative leaves 13 digits of room to be wrong in.
            assert abs(estimate.value - references[name]) <= estimate.error + mpmath.mpf(10) ** -58, name
            assert estimate.error <= abs(references[name]) * mpmath.mpf(10) ** -47, name


def test_infinities_are_exact_and_certified():
    P, Q = FD([0.5, 0.5]), FD([1, 0])
    for estimate in (kl(P, Q), renyi(P, Q, 2), renyi(P, Q, mpmath.inf), max_divergence(P, Q),
                     loss_mgf(P, Q, 1), approximate_max_divergence(P, Q, 0.25)):
        assert estimate.value == mpmath.inf and estimate.error == 0 and estimate.certified
    eps = approximate_max_divergence(P, Q, 1)   # δ = 1 absorbs everything
    assert eps.value == -mpmath.inf and eps.certified


def test_hockey_stick_at_infinite_eps_is_the_limit():
    # D_{e^ε} → P(Q = 0) as ε → ∞ (the mass outside Q's support, Balle fn. 3) and → Σ P = 1 as ε → -∞.
    P, Q = FD([0.5, 0.25, 0.25]), FD([0, 0.5, 0.5])
    assert hockey_stick(P, Q, mpmath.inf).value == mpmath.mpf("0.5")
    assert hockey_stick(P, Q, -mpmath.inf).value == 1
    assert hockey_stick(P, Q, 40).value - mpmath.mpf("0.5") <= hockey_stick(P, Q, 40).error


def test_approximate_max_divergence_ignores_atoms_outside_p():
    # Atoms with P = 0 add nothing to D_{e^ε}: here D_{e^ε} = 2 max(0, 1/2 - e^ε/4) = 1 - e^ε/2 for e^ε <= 2, which is
    # δ = 1/4 at ε = log(3/2). (The mpmath version paired the losses of P's support with every atom: log(1/3).)
    eps = approximate_max_divergence(FD([0, 0.5, 0.5]), FD([0.5, 0.25, 0.25]), 0.25)
    assert _contains(eps, mpmath.log(mpmath.mpf(3) / 2))


def test_renyi_of_a_distribution_with_itself_is_exactly_zero():
    # FD.normalized([1, 1, 1]) sums to 1 - 2e-51, not 1: the missing mass reads as ratio 1, so R(P||P) = 0 exactly.
    P = FD.normalized([1, 1, 1])
    for estimate in (renyi(P, P, 2), renyi(P, P, 1 + mpmath.mpf(10) ** -12), kl(P, P), tv(P, P)):
        assert estimate.value == 0 and estimate.error == 0


def test_ball_precision_is_restored():
    before = flint.ctx.prec
    kl(FD([0.75, 0.25]), FD([0.25, 0.75]))
    with pytest.raises(InvalidParameter):
        loss_mgf(FD([0.5, 0.5]), FD([1, 0]), -1, centred=True)
    assert flint.ctx.prec == before


@pytest.mark.parametrize("call, message", [
    (lambda P, Q: hockey_stick(P, Q, mpmath.nan), "eps is NaN"),
    (lambda P, Q: hockey_stick(P, Q, float("nan")), "eps is NaN"),
    (lambda P, Q: approximate_max_divergence(P, Q, -0.1), "delta must be"),
    (lambda P, Q: approximate_max_divergence(P, Q, mpmath.inf), "delta must be"),
    (lambda P, Q: loss_mgf(P, Q, mpmath.inf), "lambda must be a finite number"),
    (lambda P, Q: loss_mgf(P, FD([1, 0]), -1, centred=True), "centred MGF is undefined"),
    (lambda P, Q: renyi(P, Q, "two"), "not a number"),
    (lambda P, Q: kl(P, [0.5, 0.5]), "must be FiniteDistribution"),
])
def test_bad_input_names_the_problem(call, message):
    with pytest.raises((InvalidParameter, InvalidDistribution), match=message):
        call(FD([0.5, 0.5]), FD([0.25, 0.75]))


def test_negative_order_mgf_ignores_infinite_losses():
    # E_P[e^{-L}] = Σ_{P>0} P (Q/P) = Q(P > 0): atoms with L = +inf contribute e^{-inf} = 0.
    estimate = loss_mgf(FD([0.5, 0.5]), FD([1, 0]), -1)
    assert _contains(estimate, mpmath.mpf(1)) and estimate.certified


_weights = st.lists(st.one_of(st.integers(0, 10**30), st.fractions(0, 10**6), st.floats(0, 1e300),
                              st.builds(mpmath.mpf, st.floats(0, 1e300))), min_size=1, max_size=8)


@given(_weights, st.sampled_from([5, 24, 53, 113, 333]))
@settings(max_examples=150)
def test_normalized_and_products_are_the_laws_the_checked_constructor_builds(weights, prec):
    # normalized and product skip the constructor's checks (their rationals pass them by construction): the laws
    # must be bit for bit the ones it builds from those rationals, at any working precision.
    assume(any(weights))
    with mpmath.workprec(prec):
        P, Q = FD.normalized(weights), FD.normalized(weights[::-1])
        for law in (P, P.product(Q)):
            checked = FD(list(law.rationals))
            assert [p._mpf_ for p in law.probs] == [p._mpf_ for p in checked.probs]
            assert law.rationals == checked.rationals and type(law) is FD
