"""Products of laws (symdp.engine.products): composition through the engine's door.

References are not symdp's: explicit product laws built here atom by atom (FiniteDistribution.product), binomial sums
written here, and the closed forms of the Gaussian pair (symdp.engine.closed_forms, oracles only).
"""

from fractions import Fraction

import mpmath
import pytest
from flint import fmpq
from hypothesis import given, settings, strategies as st

from symdp.engine import closed_forms
from symdp.engine.continuous import Gaussian, Laplace
from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution
from symdp.engine.products import MAX_CLASSES, compose, loss_classes, product
from symdp.errors import InvalidDistribution, InvalidParameter

DPS = 50
TINY = mpmath.mpf(10) ** -40


@pytest.fixture(autouse=True)
def precision():
    with mpmath.workdps(DPS):
        yield


def explicit(laws):
    """The product law of finite laws, atom by atom."""
    joint = laws[0]
    for law in laws[1:]:
        joint = joint.product(law)
    return joint


def rr(e):
    p = 1 / (1 + mpmath.exp(-mpmath.mpf(e)))
    return FiniteDistribution([p, 1 - p]), FiniteDistribution([1 - p, p])


def binomial_hockey_stick(e, k, total):
    """D_{e^total} of k-fold randomized response: the loss is (2j - k) e with j ~ Binomial(k, e^e/(1 + e^e))."""
    e, total = mpmath.mpf(e), mpmath.mpf(total)
    p = 1 / (1 + mpmath.exp(-e))
    return mpmath.fsum(mpmath.binomial(k, j) * p**j * (1 - p) ** (k - j) * -mpmath.expm1(total - (2 * j - k) * e)
                       for j in range(k + 1) if (2 * j - k) * e > total)


@pytest.mark.parametrize("e, k, total", [("0.5", 1, "0"), ("1", 10, "2"), ("0.1", 1000, "3"), ("2", 300, "-1"),
                                         ("0.01", 1000, "0.5")])
def test_composed_randomized_response_is_the_binomial_sum(e, k, total):
    P, Q = rr(e)
    d = divergence("hockey_stick", compose(k, P), compose(k, Q), total)
    assert d.certified and abs(d.value - binomial_hockey_stick(e, k, total)) <= d.error + TINY * max(d.value, 1)


pairs = st.integers(2, 3).flatmap(lambda n: st.tuples(
    *(st.lists(st.integers(0, 5), min_size=n, max_size=n).filter(lambda w: sum(w) > 0) for _ in range(2))))


@settings(max_examples=40, deadline=None)
@given(st.lists(pairs, min_size=1, max_size=3), st.integers(1, 3), st.floats(-2, 2))
def test_product_divergences_equal_those_of_the_explicit_product(weights, k, total):
    built = [(FiniteDistribution.normalized(p), FiniteDistribution.normalized(q)) for p, q in weights]
    U, V = product(*(P for P, _ in built)), product(*(Q for _, Q in built))
    U, V = compose(k, U), compose(k, V)
    A, B = explicit([P for P, _ in built] * k), explicit([Q for _, Q in built] * k)
    for kind, args in (("hockey_stick", (total,)), ("tv", ()), ("kl", ()), ("renyi", (2,)), ("max_divergence", ())):
        got, want = divergence(kind, U, V, *args), divergence(kind, A, B, *args)
        if mpmath.isinf(want.value):
            assert got.value == want.value, kind
        else:
            assert abs(got.value - want.value) <= 1e-35 * max(1, abs(want.value)), kind


def test_loss_classes_are_few_and_keep_the_infinite_losses():
    P, Q = rr(1)
    assert len(loss_classes(compose(1000, P), compose(1000, Q))[0]) == 1001
    d = mpmath.mpf("1e-9")     # an atom of P where Q = 0 (and its mirror): one class each
    P = FiniteDistribution([d, (1 - d) / 2, (1 - d) / 2, 0])
    Q = FiniteDistribution([0, (1 - d) / 2, (1 - d) / 2, d])
    U, V = loss_classes(compose(300, P), compose(300, Q))
    assert len(U) == 3    # infinite loss, zero loss, P = 0
    assert abs(divergence("hockey_stick", compose(300, P), compose(300, Q), mpmath.inf).value
               - (1 - (1 - d) ** 300)) < TINY


def test_gaussian_products_reduce_to_one_pair():
    # N(1, 2²) x N(3, 1) against N(0, 2²) x N(0, 1): the loss is that of N(Δ, 1) vs N(0, 1), Δ² = 1/4 + 9
    U, V = product(Gaussian(1, 2), Gaussian(3, 1)), product(Gaussian(0, 2), Gaussian(0, 1))
    delta = mpmath.sqrt(mpmath.mpf(1) / 4 + 9)
    for eps in ("-1", "0", "0.5", "4"):
        d = divergence("hockey_stick", U, V, eps, method="densities")
        assert abs(d.value - closed_forms.gaussian_hockey_stick(delta, 1, mpmath.mpf(eps))) <= d.error + TINY
    kl = divergence("kl", compose(5, Gaussian(1, 2)), compose(5, Gaussian(0, 2)), method="densities")
    assert abs(kl.value - 5 * closed_forms.gaussian_kl(1, 2, 0, 2)) <= kl.error + TINY
    lam = mpmath.mpf("1.5")     # centred loss of 5 copies: N(0, 5/4), MGF e^{λ² 5/8}
    mgf = divergence("loss_mgf", compose(5, Gaussian(1, 2)), compose(5, Gaussian(0, 2)), lam, centred=True,
                     method="densities")
    assert abs(mgf.value - mpmath.exp(lam**2 * 5 / 8)) <= mgf.error + TINY


def test_renyi_of_composed_laplace_adds():
    # R_α of Lap(0, 1) vs Lap(1, 1), closed form (Mironov 2017), times k
    a, k = mpmath.mpf(3), 7
    one = mpmath.log(a / (2 * a - 1) * mpmath.exp(a - 1) + (a - 1) / (2 * a - 1) * mpmath.exp(-a)) / (a - 1)
    r = divergence("renyi", compose(k, Laplace(0, 1)), compose(k, Laplace(1, 1)), a, method="densities")
    assert abs(r.value - k * one) <= r.error + TINY


def test_bad_products_are_refused_with_a_clear_error():
    P, Q = rr(1)
    for k in (0, -3, 2.5, "x"):
        with pytest.raises((InvalidParameter, InvalidDistribution), match="compose"):
            compose(k, P)
    with pytest.raises(InvalidDistribution, match="at least one factor"):
        product()
    with pytest.raises(InvalidDistribution, match="factors are laws"):
        product(P, 3)
    with pytest.raises(InvalidDistribution, match="2 and 3 factors"):
        divergence("kl", compose(2, P), compose(3, Q))
    with pytest.raises(InvalidDistribution, match="different spaces"):
        divergence("tv", compose(2, P), compose(2, FiniteDistribution([1, 0, 0])))
    with pytest.raises(InvalidDistribution, match="different standard deviations"):
        divergence("hockey_stick", compose(2, Gaussian(0, 1)), compose(2, Gaussian(1, 2)), 1)
    wide = FiniteDistribution.normalized(range(1, 8)), FiniteDistribution.normalized(range(7, 0, -1))
    with pytest.raises(InvalidParameter, match=str(MAX_CLASSES)):
        divergence("tv", compose(100, wide[0]), compose(100, wide[1]))


def test_a_statement_on_composed_laws_is_measured_by_the_engine():
    # KL(N(Δ, σ²)^{⊗n} ‖ N(0, σ²)^{⊗n}) = nΔ²/(2σ²): a declaration with no witness is tight; 0.99 times it is refuted
    import sympy as sp
    from symdp.expressions import KL, Compose, Gaussian as GaussianHead, LossMGF, ProductOf
    from symdp.theorem import Param, Source, declare
    from symdp.verify import verify

    n, d, s, lam = sp.Symbol("n", positive=True), *sp.symbols("Delta sigma lambda", real=True)
    U, V = sp.symbols("U V")
    laws = Compose(n, GaussianHead(d, s)), Compose(n, GaussianHead(0, s))
    params = (Param(n, sp.Naturals, sample=(1, 50)), Param(d, sp.Interval(0.1, 3)), Param(s, sp.Interval(0.5, 2)))
    for factor, verdict in ((1, "holds"), (sp.Rational(99, 100), "violated")):
        t = declare(id="test.compose", title="t", source=Source("none", "test"), statement=sp.Le(KL(U, V), factor * n * d**2 / (2 * s**2)),
                    measured_as={KL(U, V): KL(*laws)}, parameters=params, register=False)
        report = verify(t, examples=5)
        assert report.verdict == verdict and (report.tight > 0) == (factor == 1)
    # the centred loss MGF of a product: e^{λ² (τ1² + τ2²)/2} with τ_i = Δ_i/σ_i
    mgf = LossMGF(ProductOf(GaussianHead(d, s), GaussianHead(1, 1)), ProductOf(GaussianHead(0, s), GaussianHead(0, 1)),
                  lam, KL(ProductOf(GaussianHead(d, s), GaussianHead(1, 1)),
                          ProductOf(GaussianHead(0, s), GaussianHead(0, 1))))
    t = declare(id="test.product", title="t", source=Source("none", "test"),
                statement=sp.Le(LossMGF(U, V, lam, KL(U, V)), sp.exp(lam**2 * ((d / s)**2 + 1) / 2)),
                measured_as={LossMGF(U, V, lam, KL(U, V)): mgf},
                parameters=params[1:] + (Param(lam, sp.Interval(-3, 3)),), register=False)
    report = verify(t, examples=5)
    assert report.verdict == "holds" and report.tight == report.examples > 0



def test_loss_classes_of_exact_laws_are_the_exact_product():
    # P = (1/3, 2/3) against Q = (1/2, 1/2), twice: ratios 2/3 and 4/3, so three classes by how many coordinates
    # fall on the first atom (two: P 1/9, Q 1/4; one: P 4/9, Q 1/2; none: P 4/9, Q 1/4), by hand
    P, Q = FiniteDistribution([Fraction(1, 3), Fraction(2, 3)]), FiniteDistribution([Fraction(1, 2), Fraction(1, 2)])
    U, V = loss_classes(product(P, P), product(Q, Q))
    assert U.exact and V.exact
    assert sorted(zip(U.rationals, V.rationals)) == sorted([(fmpq(1, 9), fmpq(1, 4)), (fmpq(4, 9), fmpq(1, 2)),
                                                           (fmpq(4, 9), fmpq(1, 4))])


def test_loss_classes_of_rounded_laws_do_not_claim_to_be_exact():
    # probabilities that sum to one only to the working precision: the classes are rounded, and say so (an exact
    # law would be taken by the verifier for the product itself, and no rounding of its construction added)
    with mpmath.workdps(30):
        third = mpmath.mpf(1) / 3
        P, Q = FiniteDistribution([third, 1 - third]), FiniteDistribution([0.5, 0.5])
        assert not P.exact
        U, V = loss_classes(product(P, P), product(Q, Q))
        assert not U.exact and abs(mpmath.fsum(U.probs) - 1) < mpmath.mpf(10) ** -28


def test_loss_classes_of_exact_integer_laws_on_different_windows_are_exact():
    # P = (1/3, 2/3) on {0, 1}, Q = (1/2, 1/2) on {1, 2}, twice: laid on {0, 1, 2} with exact zeros, the classes
    # are "some coordinate at 0" (P: 1 - (2/3)^2 = 5/9, Q: 0), "some at 2" (P: 0, Q: 1 - (1/2)^2 = 3/4) and "both
    # at 1" (P: 4/9, Q: 1/4), by hand
    from symdp.engine.integers import IntegerLaw

    P, Q = IntegerLaw(0, [Fraction(1, 3), Fraction(2, 3)]), IntegerLaw(1, [Fraction(1, 2), Fraction(1, 2)])
    U, V = loss_classes(product(P, P), product(Q, Q))
    assert U.exact and V.exact
    assert sorted(zip(U.rationals, V.rationals)) == sorted([(fmpq(5, 9), fmpq(0)), (fmpq(0), fmpq(3, 4)),
                                                           (fmpq(4, 9), fmpq(1, 4))])
