"""The iterated Laplace mechanism of Balle et al. 2019: eq. (6), Lemma 3, Example 2 and Mironov's Laplace RDP.

The verdicts of the theorems and the refutation of their tightened copies are checked catalogue-wide in
tests/test_catalogue.py; here: the witnesses against catalogue values and closed forms, and that Lemma 3's witness
does not rest on the tail constant of the engine's expansion (which is the bound).

Reference values are from ../shared/catalogue/catalogue-balle.md (entries balle19.eq6, balle19.lem3, balle19.ex2 and
the glossary fact balle19.fact.laplace-rdp), from closed forms, or from the paper.
"""

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.proofs.balle19 import couplings as proofs
from symdp.engine import continuous
from symdp.precision import closed_forms, working_precision
from symdp.statement import lambdify_mpmath
from symdp.theorems.balle19 import couplings as b
from symdp.verify import evaluate_point, verify

# The two convolutions with lambda_1 != lambda_2 are SymPy integrations of some 13 s each: exhaustive runs only.
LAPLACE_DERIVATIONS = [
    pytest.param(proofs.LAP2_DENSITY_GT, marks=pytest.mark.slow),
    pytest.param(proofs.LAP2_DENSITY_LT, marks=pytest.mark.slow), proofs.LAP2_DENSITY_EQ, proofs.LAP2_LIMIT_BRANCH,
    proofs.LAP2_SYMMETRIC, proofs.LAP2_NORMALISED_NEQ, proofs.LAP2_NORMALISED_EQ, proofs.LAP2_STABLE_FORM,
    proofs.E9_PRINTED_ANTIDERIVATIVE, proofs.E9_PRINTED_EVALUATION,
    proofs.LEMMA3_RATIO_FORM, proofs.LEMMA3_LIMIT_NEQ, proofs.LEMMA3_LIMIT_EQ,
]


def _mp(**values):
    return {k: mpmath.mpf(str(v)) for k, v in values.items()}


def privacy_loss_at(p, z) -> mpmath.mpf:
    """log(Lap2(z)/Lap2(z + Δ)), evaluated in log space (no under- or overflow at large |z|)."""
    law = continuous.Lap2(0, p["lambda_1"], p["lambda_2"])
    return law.logpdf(z) - law.logpdf(z + p["Delta"])


# --- proofs ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("derivation", LAPLACE_DERIVATIONS, ids=lambda d: d.title[:60])
def test_laplace_derivations_check(derivation):
    assert derivation.check()
    assert r"\begin{align*}" in derivation.latex()


def test_e9_printed_antiderivative_has_the_wrong_sign_but_eq6_is_right():
    # catalogue-balle.md erratum E9: d/dt of the printed antiderivative is minus the integrand; eq. (6) is correct.
    assert proofs.e9_printed_sign()
    assert proofs.eq6_printed_correct()


def test_a_wrong_density_fails_the_derivation():
    """The derivation is not vacuous: eq. (6)'s second branch with λ − |x| in place of λ + |x| is caught."""
    from symdp.derivation import Derivation, DerivationError

    wrong = sp.exp(-proofs.x / proofs.lam) * (proofs.lam - proofs.x) / (4 * proofs.lam**2)
    with pytest.raises(DerivationError):
        Derivation("wrong", proofs.convolution(proofs.lam, proofs.lam)).step(wrong, "wrong").check()


# --- eq. (6) -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("l1, l2, x0, ref", [
    # catalogue-balle.md, balle19.eq6: mpmath convolution integral
    ("1", "2", "0.7", "0.152131812607669559"),
    ("3", "0.5", "-2", "0.087491059294480513741"),
    ("1", "1", "1.3", "0.1567057809945572468"),
])
def test_eq6_catalogue_values(l1, l2, x0, ref):
    """Both sides of the statement: the convolution integrated in Arb (a certified enclosure of the catalogue's
    value), eq. (6) as printed evaluated from the statement."""
    with working_precision(40):
        p = _mp(lambda_1=l1, lambda_2=l2, x=x0)
        conv, printed, _ = b.EQ_6.measure(p)
        tol = mpmath.mpf(10) ** (-(len(ref) - 3))
        assert abs(conv.value - mpmath.mpf(ref)) < tol
        assert abs(printed.value - mpmath.mpf(ref)) < tol
        assert conv.method == "certified" and conv.certified
        assert conv.error < mpmath.mpf(10) ** -38


def test_eq6_printed_formula_agrees_with_lap2_near_equal_scales():
    """The printed first branch (lambdified at 80 digits, it cancels as λ1 → λ2) equals the stable Lap2 form."""
    f = sp.lambdify([proofs.x, proofs.lambda1, proofs.lambda2], proofs.lap2_neq(), modules="mpmath")
    with working_precision(80):
        for l2 in ("1.1", "1.0001", "1.0000000001"):
            printed = f(mpmath.mpf("2.5"), mpmath.mpf(1), mpmath.mpf(l2))
            stable = continuous.Lap2(0, 1, mpmath.mpf(l2)).pdf(mpmath.mpf("2.5"))
            assert abs(printed - stable) < mpmath.mpf(10) ** -60


def test_pinned_points_of_eq6_are_exact():
    for raw in b.EQ_6.examples:
        assert evaluate_point(b.EQ_6, raw).verdict == "tight"


# --- Lemma 3 (the Laplace2 limit) ----------------------------------------------------------------------------------


@pytest.mark.parametrize("l1, l2, delta, limit", [
    # catalogue-balle.md, balle19.lem3: symbolic limits 7/30, 7/50; equal branch Δ/λ
    ("3", "2", "0.7", sp.Rational(7, 30)),
    ("2", "5", "0.7", sp.Rational(7, 50)),
    ("1", "1", "1", sp.Integer(1)),
])
def test_lemma3_catalogue_limits_with_closed_forms_off(l1, l2, delta, limit):
    with working_precision(30), closed_forms(False):
        est, _, _ = b.LEMMA_3.measure(_mp(lambda_1=l1, lambda_2=l2, Delta=delta))
        assert abs(est.value - mpmath.mpf(limit.p) / limit.q) < mpmath.mpf(10) ** -25
        assert est.error < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("l1, l2", [("1", "1"), ("0.3", "0.3"), ("3", "2"), ("2", "2.000001")])
def test_lemma3_witness_does_not_use_the_tail_constant(monkeypatch, l1, l2):
    """The reviewer's experiment: with the Lap2 tail constant of the engine's expansion halved, the witness must
    still find Δ/max(λ1, λ2) — from the densities — for equal scales too, where the log-ratio approaches its limit
    only like O(1/x) and no finite search reaches it."""
    real = continuous.Lap2.expansion

    def halved(D, side):
        a = real(D, side)
        return continuous.TailExpansion(a.quad, a.lin, a.power, a.const / 2)

    monkeypatch.setattr(continuous.Lap2, "expansion", halved)
    with working_precision(30):
        p = _mp(lambda_1=l1, lambda_2=l2, Delta=1)
        limit = 1 / max(p["lambda_1"], p["lambda_2"])
        est, _, _ = b.LEMMA_3.measure(p)
        assert abs(est.value - limit) <= est.error + mpmath.mpf(10) ** -28 and est.error < mpmath.mpf(10) ** -25
        # ... although the patched expansion now claims another limit (it is what the fast path would report).
        P, Q = (continuous.Lap2(m, p["lambda_1"], p["lambda_2"]) for m in (p["Delta"], 0))
        claimed = continuous.TailExpansion.combine(1, P.expansion(1), -1, Q.expansion(1))
        assert abs(claimed.limit() - limit) > limit / 4


def test_lemma3_refutation_is_certified_at_a_finite_point():
    """The 0.99-tightened pointwise bound is refuted by the privacy loss at one finite x: no asymptotics used."""
    refuted = verify(b.LEMMA_3_POINTWISE.tightened(0.99))
    assert refuted.verdict == "violated"
    ce = refuted.counterexample
    with working_precision(40):
        p = _mp(**ce)
        loss = privacy_loss_at(p, p["x"])
        assert loss > mpmath.mpf("0.99") * p["Delta"] / max(p["lambda_1"], p["lambda_2"])


@pytest.mark.parametrize("l1, l2, x0, ref, digits", [
    # catalogue-balle.md, balle19.lem3 numeric check (the loss increases to the limit from below; O(1/x) at λ1 = λ2)
    ("1", "2", "39.9", "0.49999999957", 11),
    ("1", "1", "39.9", "0.9758", 4),
    ("1", "1", "1000", "0.99900", 5),
])
def test_lemma3_catalogue_loss_values(l1, l2, x0, ref, digits):
    with working_precision(30):
        p = _mp(lambda_1=l1, lambda_2=l2, Delta=1, x=x0)
        assert abs(privacy_loss_at(p, p["x"]) - mpmath.mpf(ref)) < mpmath.mpf(10) ** -digits
        lhs, _, _ = b.LEMMA_3_POINTWISE.measure(p)   # the statement's log of the two measured densities
        assert abs(lhs.value - privacy_loss_at(p, p["x"])) < mpmath.mpf(10) ** -25


@settings(deadline=None, max_examples=60)
@given(l1=st.floats(0.1, 10), l2=st.floats(0.1, 10), delta=st.floats(0.01, 5),
       x0=st.floats(-100, 100), h=st.floats(0.001, 50))
def test_privacy_loss_is_nondecreasing(l1, l2, delta, x0, h):
    """Lap2 is log-concave (a convolution of log-concave laws), so log Lap2(x) − log Lap2(x + Δ) rises with x."""
    with working_precision(30):
        p = _mp(lambda_1=l1, lambda_2=l2, Delta=delta)
        a, c = privacy_loss_at(p, mpmath.mpf(x0)), privacy_loss_at(p, mpmath.mpf(x0) + mpmath.mpf(h))
        assert c >= a - mpmath.mpf(10) ** -25
        assert c <= p["Delta"] / max(p["lambda_1"], p["lambda_2"]) + mpmath.mpf(10) ** -25


# --- Mironov's Laplace RDP and Example 2 ---------------------------------------------------------------------------


def test_laplace_rdp_is_integrated_certified_from_the_densities():
    with working_precision(30):
        est, _, _ = b.LAPLACE_RDP.measure(_mp(alpha=2, Delta=1, **{"lambda": 1}))
    assert est.method == "certified" and est.certified  # the independent path, not the closed form it is checked on


def test_laplace_rdp_catalogue_values():
    with working_precision(30):
        # catalogue-balle.md glossary: α=5.5, Δ=0.3, λ=0.7 → 0.298207282602136319 (18 digits agree)
        v = b.LAPLACE_RDP.measure(_mp(alpha="5.5", Delta="0.3", **{"lambda": "0.7"}))[0].value
        assert abs(v - mpmath.mpf("0.298207282602136319")) < mpmath.mpf(10) ** -18
        # α=2, Δ=λ=1: the catalogue prints 0.619123629998592828, correct only to 16 digits; the closed form is
        # log(2e/3 + e^{-2}/3) = 0.61912362999859288340...
        v = b.LAPLACE_RDP.measure(_mp(alpha=2, Delta=1, **{"lambda": 1}))[0].value
        assert abs(v - mpmath.mpf("0.619123629998592828")) < mpmath.mpf(10) ** -16
        assert abs(v - mpmath.log(2 * mpmath.e / 3 + mpmath.exp(-2) / 3)) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("alpha, delta, l1, l2, exact, best, best_a", [
    # catalogue-balle.md, balle19.ex2 table: exact R_α and the best Theorem 2 bound (argmin a = |w − v|)
    ("2", "1", "1", "1", "0.271716394596", "0.400607792347", "0.5"),
    ("4", "1", "1", "2", "0.214903840704", "0.291554134547", "0.13028"),
    ("1.5", "2", "0.5", "0.8", "1.46744139122", "1.77475547136", "0.28426"),
])
def test_example2_catalogue_table(alpha, delta, l1, l2, exact, best, best_a):
    with working_precision(30):
        p = _mp(alpha=alpha, Delta=delta, lambda_1=l1, lambda_2=l2, theta=mpmath.mpf(best_a) / mpmath.mpf(delta))
        assert abs(b.EXAMPLE_2.measure(p)[0].value - mpmath.mpf(exact)) < mpmath.mpf(10) ** -11

        f = lambdify_mpmath([q.symbol for q in b.EXAMPLE_2.parameters], b.EXAMPLE_2.statement.rhs)

        def bound(th):
            return f(p["alpha"], p["Delta"], p["lambda_1"], p["lambda_2"], th)

        th_star = mpmath.findroot(lambda th: mpmath.diff(bound, th), p["theta"])
        assert abs(bound(th_star) - mpmath.mpf(best)) < mpmath.mpf(10) ** -11
        assert abs(th_star * p["Delta"] - mpmath.mpf(best_a)) < mpmath.mpf(10) ** -4
        assert 0 < th_star < 1  # the optimal w is strictly between v and u (catalogue's derived note)


@settings(deadline=None, max_examples=50)
@given(a=st.floats(1.01, 50), z1=st.floats(0, 5), z2=st.floats(0, 5))
def test_g_alpha_is_log_superadditive(a, z1, z2):
    """P Example 2: g_α(a) g_α(b) ≤ g_α(a + b) (log-convexity with g_α(0) = 1), so λ1 = λ2 amplifies."""
    with working_precision(30):
        a, z1, z2 = (mpmath.mpf(str(v)) for v in (a, z1, z2))
        z = sp.Symbol("z")
        g = lambdify_mpmath([z, b.alpha], b.g_alpha_expr(z))
        assert g(z1, a) * g(z2, a) <= g(z1 + z2, a) * (1 + mpmath.mpf(10) ** -25)


# --- rendering -----------------------------------------------------------------------------------------------------


def test_eq6_statement_shows_both_branches():
    text = sp.latex(b.EQ_6.statement)
    assert r"\lambda_{1} = \lambda_{2}" in text and r"\int" in text

