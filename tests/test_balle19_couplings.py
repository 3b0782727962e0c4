"""Section 4 of Balle et al. 2019 beyond the shifts: Lemma 16 and Theorem 2 on finite spaces, Example 3 (erratum E1),
Lemma 17 (W∞ contraction), Lemma 18 (gradient steps contract) and Theorem 5 (noisy SGD, strongly convex).

Reference values are from ../shared/catalogue/catalogue-balle.md (entries balle19.lem16, thm2, ex3, lem17, lem18,
thm5 and erratum E1), from closed forms derived in the comments, or from the paper.
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.balle19 import couplings as proofs
from symdp import finite
from symdp.derivation import Derivation, DerivationError
from symdp.precision import working_precision
from symdp.theorem import Theorem
from symdp.theorems.balle19 import couplings as b
from symdp.verify import evaluate_point, verify

SECTION_DERIVATIONS = [
    proofs.EX3_OPTIMAL_W, proofs.EX3_BOUND_AT_OPTIMUM, proofs.EX3_LINEAR_EXACT, proofs.EX3_AMPLIFIES,
    proofs.EX3_BEATS_EXAMPLE_1, proofs.LEM18_CONTRACTION, proofs.LEM18_VS_ELEMENTARY, proofs.LEM18_TIGHT,
    proofs.LEM18_LOGCOSH, proofs.THM5_FROM_THM4, proofs.THM5_LAST_INDEX, proofs.THM5_OPTIMAL_PATH,
    proofs.CHAIN_VARIANCE, proofs.THM5_OPT_CHAIN_RATIO, proofs.THM5_PAPER_CHAIN_RATIO,
]

TIGHT = [b.LEMMA_16, b.THEOREM_2, b.THEOREM_2_DPI, b.EXAMPLE_3_CORRECTED, b.LEMMA_17, b.LEMMA_18, b.THEOREM_5,
         b.THEOREM_5_OPTIMAL]


def _mp(**values):
    """A point as the verifier builds it: mpf parameters, integer parameters (n, i) as ints, structure as drawn."""
    return {k: (v if k in ("n", "i", "structure") else mpmath.mpf(str(v))) for k, v in values.items()}


def _value(x):
    return x.value if hasattr(x, "value") else x


# --- derivations -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("derivation", SECTION_DERIVATIONS, ids=lambda d: d.title[:60])
def test_section_derivations_check(derivation):
    assert derivation.check()
    assert r"\begin{align*}" in derivation.latex()


def test_lemma18_derivation_is_not_vacuous():
    """Without co-coercivity (slack of the wrong sign) the first inequality step is not confirmed."""
    wrong = {proofs._P: proofs.COCOERCIVITY[proofs._P] - 2 * proofs._slack}
    d = Derivation("wrong", proofs.LEM18_CONTRACTION.start).step(
        proofs.LEM18_CONTRACTION.steps[0].expr, "co-coercivity with the wrong sign", relation="<=", given=wrong)
    with pytest.raises(DerivationError):
        d.check()


def test_theorem5_exponent_half_of_n_minus_i_plus_1_is_what_theorem4_gives():
    # catalogue-balle.md, balle19.thm5: the exponent (n-i+1)/2 is consistent (not a typo); n - i would not be.
    wrong = Derivation("wrong exponent", proofs.THM5_FROM_THM4.steps[-2].expr).step(
        proofs.THM5_FROM_THM4.steps[-1].expr.subs((proofs.n_ - proofs.i_ + 1) / sp.Integer(2), proofs.n_ - proofs.i_),
        "exponent n - i", given={proofs._kappa: proofs.KAPPA, proofs.r: proofs.n_ - proofs.i_})
    with pytest.raises(DerivationError):
        wrong.check()


def test_e1_fact():
    # catalogue-balle.md erratum E1: psi = 2x, sigma1 = 1, sigma2 = 10, Delta = 1: exact alpha/52 > printed alpha/200.
    assert proofs.e1_counterexample()


# --- tight results: hold, and their 0.99-tightened copies are refuted ---------------------------------------------


@pytest.mark.parametrize("theorem", TIGHT, ids=lambda t: t.id)
def test_tight_theorems_hold_and_tightened_copies_are_refuted(theorem):
    report = verify(theorem, examples=25)
    assert report.verdict == "holds", report.reason
    assert report.tight >= 1
    if theorem.tight_everywhere:
        assert report.tight == report.examples
    for raw in theorem.tight_at:
        assert evaluate_point(theorem, raw).verdict == "tight", raw
    refuted = verify(theorem.tightened(0.99), examples=10)
    assert refuted.verdict == "violated" and refuted.counterexample is not None


# --- Lemma 16 ----------------------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=60)
@given(b.lemma16_instances())
def test_random_couplings_have_exact_marginals_and_h_is_markov_on_the_support(s):
    mu, nu = b.exact_weights(s["mu"]), b.exact_weights(s["nu"])
    pi = b.random_coupling(mu, nu, s["coupling"])
    assert all(v >= 0 for row in pi for v in row)
    assert [sum(row) for row in pi] == mu                      # exact rationals: first marginal
    assert [sum(col) for col in zip(*pi)] == nu                # second marginal
    H = b.transport_operator(pi, mu)
    for px, row in zip(mu, H):
        if px > 0:
            assert abs(mpmath.fsum(row) - 1) < mpmath.mpf(10) ** -40
        else:
            assert all(v == 0 for v in row)                    # the paper's 0/0 = 0 (footnote 5)


def test_northwest_corner_by_hand():
    # (1/2, 1/2) and (1/4, 3/4): the NW corner fills (0,0) = 1/4, (0,1) = 1/4, (1,1) = 1/2.
    F = Fraction
    assert b.northwest_corner([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]) == [[F(1, 4), F(1, 4)], [F(0), F(1, 2)]]


def test_a_non_coupling_breaks_lemma16():
    """The witness is not vacuous: a matrix whose second marginal is not nu gives mu H != nu."""
    s = {"mu": [0.5, 0.5], "nu": [0.25, 0.75], "coupling": {"product": 1.0, "parts": []}}
    with working_precision(30):
        assert _value(b._lemma16_residual({"structure": s})) < mpmath.mpf(10) ** -25
        mu = b.exact_weights(s["mu"])
        H = b.transport_operator([[Fraction(1, 2), 0], [0, Fraction(1, 2)]], mu)   # couples mu with mu, not nu
        assert abs(b.push(mu, H)[0] - mpmath.mpf(1) / 4) > mpmath.mpf("0.2")


# --- Theorem 2 ---------------------------------------------------------------------------------------------------


def _without_transport_term(p):
    lhs, _ = b._theorem2_sides(p)
    omega, nu = (b.exact_weights(p["structure"][k]) for k in ("omega", "nu"))
    return lhs, b._renyi_or_kl(b._law(omega), b._law(nu), p["alpha"])


def test_theorem2_without_the_transport_term_is_false():
    """Eq. (1) needs its sup term: R_α(μK‖νK) ≤ R_α(ω‖ν) alone is refuted (e.g. ω = ν makes it 0)."""
    no_sup = Theorem(
        id="test.thm2-no-sup", title="(1) without the sup term", source=b.THEOREM_2.source,
        statement=b.THEOREM_2.statement, parameters=b.THEOREM_2.parameters, structure=b.THEOREM_2.structure,
        evaluator=_without_transport_term)
    assert verify(no_sup, examples=60).verdict == "violated"


def test_theorem2_kl_at_alpha_one_pinned():
    raw = b.THEOREM_2.examples[0]
    assert raw["alpha"] == 1
    with working_precision(30):
        lhs, rhs = b.THEOREM_2.evaluate(_mp(alpha=1, structure=raw["structure"]))
        # product coupling: H_pi(x) = mu for all x, so the sup term is max_x KL(mu K || K(x)).
        mu, nu, om = ([mpmath.mpf(str(v)) for v in raw["structure"][k]] for k in ("mu", "nu", "omega"))
        K = [[mpmath.mpf(str(v)) for v in row] for row in raw["structure"]["K"]]
        muK = finite.FiniteDistribution(b.push(mu, K))
        direct = finite.kl(finite.FiniteDistribution(om), finite.FiniteDistribution(nu)).value + max(
            finite.kl(muK, finite.FiniteDistribution(row)).value for row in K)
        assert abs(_value(rhs) - direct) < mpmath.mpf(10) ** -25
        assert _value(lhs) < _value(rhs)


def test_dpi_equals_theorem2_with_identity_coupling():
    raw = b.THEOREM_2.tight_at[0]
    with working_precision(30):
        lhs, rhs = b.THEOREM_2.evaluate(_mp(alpha=raw["alpha"], structure=raw["structure"]))
        s = raw["structure"]
        dpi_l, dpi_r = b.THEOREM_2_DPI.evaluate(_mp(alpha=raw["alpha"], structure={k: s[k] for k in ("mu", "nu", "K")}))
        assert abs(_value(rhs) - _value(dpi_r)) < mpmath.mpf(10) ** -25
        assert abs(_value(lhs) - _value(dpi_l)) < mpmath.mpf(10) ** -25


# --- Example 3 (erratum E1) ----------------------------------------------------------------------------------------


def test_example3_as_printed_is_refuted_by_the_catalogue_counterexample():
    report = verify(b.EXAMPLE_3)
    assert report.verdict == "violated"
    assert b.EXAMPLE_3.erratum.corrected_id == b.EXAMPLE_3_CORRECTED.id
    with working_precision(30):
        lhs, printed = b.EXAMPLE_3.evaluate(_mp(**b.E1_COUNTEREXAMPLE))
        _, corrected = b.EXAMPLE_3_CORRECTED.evaluate(_mp(**b.E1_COUNTEREXAMPLE))
        tol = mpmath.mpf(10) ** -25
        assert abs(_value(lhs) - mpmath.mpf(2) / 52) < tol     # catalogue E1: alpha/52 at alpha = 2
        assert abs(printed - mpmath.mpf(2) / 200) < tol         # printed alpha/200
        assert abs(corrected - mpmath.mpf(2) / 52) < tol


@settings(deadline=None, max_examples=40)
@given(a=st.floats(1.01, 30), s1=st.floats(0.1, 10), s2=st.floats(0.1, 10), L=st.floats(0.05, 5),
       c1=st.floats(0, 1), c2=st.floats(0, 1))
def test_example3_exact_value_grows_with_the_slope(a, s1, s2, L, c1, c2):
    """For ψ = cLx the exact value αc²L²Δ²/(2(c²L²σ1² + σ2²)) is increasing in |c|: |c| = 1 is the worst map."""
    lo, hi = sorted((c1, c2))
    with working_precision(30):
        p = _mp(alpha=a, Delta=1, sigma_1=s1, sigma_2=s2, L=L, c=lo)
        q = dict(p, c=mpmath.mpf(str(hi)))
        assert _value(b._ex3_witness(p)) <= _value(b._ex3_witness(q)) * (1 + mpmath.mpf(10) ** -20) + \
            mpmath.mpf(10) ** -25


# --- Lemma 17 ----------------------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=40)
@given(m1=st.floats(-3, 3), m2=st.floats(-3, 3), sd=st.floats(0.1, 3),
       box=st.one_of(st.none(), st.tuples(st.floats(-3, 3), st.floats(0.01, 4))))
def test_winf_closed_form_against_a_quantile_grid(m1, m2, sd, box):
    """The grid maximum of |Q1(u) − Q2(u)| (quantile functions Π(m + σΦ^{-1}(u))) is a lower bound of W∞ that
    reaches the closed form min(|m1 − m2|, hi − lo) where the lower point is at lo (or anywhere, unprojected)."""
    with working_precision(30):
        m1, m2, sd = (mpmath.mpf(str(v)) for v in (m1, m2, sd))
        K = None if box is None else (mpmath.mpf(str(box[0])), mpmath.mpf(str(box[0])) + mpmath.mpf(str(box[1])))
        clip = (lambda v: v) if K is None else (lambda v: min(max(v, K[0]), K[1]))
        zs = [mpmath.mpf(k) / 10 for k in range(-80, 81)]
        if K is not None:
            zs.append((K[0] - min(m1, m2)) / sd)               # the maximiser of the docstring's argument
        grid = max(abs(clip(m1 + sd * z) - clip(m2 + sd * z)) for z in zs)
        exact = b.winf_projected_gaussians(m1, m2, K)
        assert grid <= exact + mpmath.mpf(10) ** -25
        assert grid >= exact - mpmath.mpf(10) ** -25


def test_lemma17_general_is_symbolic_only_with_its_reason():
    report = verify(b.LEMMA_17_GENERAL)
    assert report.verdict == "inconclusive" and "quantile" in report.reason


def test_lemma17_projection_contracts_beyond_L():
    """𝕂 = [-1, 1], ψ = 1.5 sin, inputs -1 and 1 (pinned example): |ψ(1) − ψ(-1)| = 3 sin 1 > 2 = hi − lo, so the
    projection caps W∞ at 2, below L·W∞(μ, ν) = 3."""
    raw = b.LEMMA_17.examples[0]
    with working_precision(30):
        q, bound = b.LEMMA_17.evaluate(_mp(L=raw["L"], structure=raw["structure"]))
        assert 3 * mpmath.sin(1) > 2
        assert abs(q - 2) < mpmath.mpf(10) ** -25
        assert abs(bound - 3) < mpmath.mpf(10) ** -25


# --- Lemma 18 ----------------------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=50)
@given(rho=st.floats(0.05, 1), beta=st.floats(1, 3), frac=st.floats(0.01, 1), s=b.lemma18_instances())
def test_lemma18_quotient_is_at_most_the_exact_lipschitz_constant(rho, beta, frac, s):
    """The exact constant of ψ is max(|1 − ηρ|, |1 − ηβ|) (spectrum in [ρ, β]; f'' ∈ (ρ, β]), at most Lemma 18's
    L."""
    with working_precision(30):
        r_, b_ = mpmath.mpf(str(rho)), mpmath.mpf(str(beta))
        e = 2 * mpmath.mpf(str(frac)) / (r_ + b_)
        p = {"rho": r_, "beta": b_, "eta": e, "structure": s}
        exact = max(abs(1 - e * r_), abs(1 - e * b_))
        assert b._lemma18_quotient(p) <= exact * (1 + mpmath.mpf(10) ** -20)
        assert exact <= mpmath.sqrt(1 - 2 * e * b_ * r_ / (b_ + r_)) * (1 + mpmath.mpf(10) ** -20)


def test_lemma18_is_loose_below_the_largest_step():
    # rho = 1, beta = 3, eta = 0.25 < 1/2: exact max(3/4, 1/4) = 3/4 < L = sqrt(1 - 3/8) = 0.7906 (closed forms)
    raw = {"rho": 1, "beta": 3, "eta": 0.25, "structure": b._eigen_pair(1, 3, 0.25)["structure"]}
    r = evaluate_point(b.LEMMA_18, raw)
    assert r.verdict == "holds"
    assert abs(r.quantity - mpmath.mpf(3) / 4) < mpmath.mpf(10) ** -25
    assert abs(r.bound - mpmath.sqrt(mpmath.mpf(5) / 8)) < mpmath.mpf(10) ** -25


# --- Theorem 5 ---------------------------------------------------------------------------------------------------


def test_theorem5_catalogue_chain():
    # catalogue-balle.md, balle19.thm5: rho = 1, eta = 0.5, sigma = 1, gradient gap 2, five more steps:
    # R/alpha = 0.0014652
    with working_precision(30):
        p = _mp(**b.CATALOGUE_CHAIN)
        lhs, eps = b.THEOREM_5.evaluate(p)
        assert abs(_value(lhs) / 2 - mpmath.mpf("0.0014652")) < mpmath.mpf("5e-8")
        # eps_1 = 2C^2/(5 sigma^2) (1 - 1/2)^3 with C = 1 (half the gradient gap): 0.05 per unit alpha
        assert abs(eps / 2 - mpmath.mpf("0.05")) < mpmath.mpf(10) ** -25


@settings(deadline=None, max_examples=40)
@given(rho=st.floats(0.05, 1), frac=st.floats(0.01, 1), n=st.integers(1, 25), i=st.integers(1, 25),
       sigma=st.floats(0.1, 5))
def test_sgd_chain_matches_the_scalar_closed_form(rho, frac, n, i, sigma):
    """A = ρI: gap 2ηC(1 − ηρ)^{n−i}, variance η²σ² Σ_{k<n} (1 − ηρ)^{2k} (catalogue's formula, all n noisy steps)."""
    if i > n:
        i, n = n, i
    with working_precision(30):
        r_ = mpmath.mpf(str(rho))
        e = 2 * mpmath.mpf(str(frac)) / (r_ + 1)
        p = {"alpha": mpmath.mpf(2), "C": mpmath.mpf(1), "sigma": mpmath.mpf(str(sigma)), "rho": r_,
             "beta": mpmath.mpf(1), "eta": e, "n": n, "i": i,
             "structure": {"hessians": [[0.7, 0.0, 0.0]], "direction": 2.0, "frac": 1.0}}
        m = 1 - e * r_
        gap = 2 * e * m ** (n - i)
        var = e**2 * p["sigma"] ** 2 * mpmath.fsum(m ** (2 * k) for k in range(n))
        assert abs(b._sgd_renyi(p) - 2 * gap**2 / (2 * var)) < mpmath.mpf(10) ** -20 * (1 + 2 * gap**2 / var)


def test_theorem5_is_loose_on_the_catalogue_chain_and_the_optimal_path_nearly_tight_on_the_long_one():
    r = evaluate_point(b.THEOREM_5, b.CATALOGUE_CHAIN)
    assert r.verdict == "holds" and r.ratio < 0.05                  # 0.0014652/0.05 = 0.029
    long_opt = evaluate_point(b.THEOREM_5_OPTIMAL, b.LONG_CHAIN)
    # proofs THM5_OPT_CHAIN_RATIO: (1 - L^{2r})/(1 - L^{2r+2}) with L = 1/2, r = 20
    L2r = mpmath.mpf(2) ** -40
    assert long_opt.verdict == "holds"
    assert abs(mpmath.mpf(long_opt.ratio) - (1 - L2r) / (1 - L2r / 4)) < 1e-14
    long_paper = evaluate_point(b.THEOREM_5, b.LONG_CHAIN)
    assert long_paper.ratio < 1e-4                                   # r L^{r-1}(1 - L^2) = 20 * 2^-19 * 3/4


def test_theorem5_ratio_tends_to_one_for_small_steps():
    """Not loose by a fixed factor: η → 0 (L → 1) with i = 1 gives exact/ε_i → (n − 1)/n (derived in the notes)."""
    raw = dict(b.CATALOGUE_CHAIN, eta=1e-4, n=40, rho=0.5, beta=1)
    r = evaluate_point(b.THEOREM_5, raw)
    assert r.verdict == "holds" and 0.95 < r.ratio < 39 / 40 + 1e-3


@settings(deadline=None, max_examples=60)
@given(C=st.floats(0.1, 3), sigma=st.floats(0.1, 5), rho=st.floats(0.05, 1), beta=st.floats(1, 3),
       frac=st.floats(0.01, 1), n=st.integers(2, 40), i=st.integers(1, 39))
def test_optimal_path_epsilon_is_below_the_papers(C, sigma, rho, beta, frac, n, i):
    i = min(i, n - 1)
    f_paper = b.THEOREM_5._bound_fn
    f_opt = b.THEOREM_5_OPTIMAL._bound_fn
    with working_precision(30):
        args = [mpmath.mpf(1), mpmath.mpf(str(C)), mpmath.mpf(str(sigma)), mpmath.mpf(str(rho)), mpmath.mpf(str(beta)),
                2 * mpmath.mpf(str(frac)) / (mpmath.mpf(str(rho)) + mpmath.mpf(str(beta))), mpmath.mpf(n),
                mpmath.mpf(i)]
        assert f_opt(*args) <= f_paper(*args) * (1 + mpmath.mpf(10) ** -20)


# --- rendering -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("theorem", TIGHT + [b.EXAMPLE_3, b.LEMMA_17_GENERAL], ids=lambda t: t.id)
def test_latex_renders(theorem):
    text = theorem.latex()
    assert text.startswith(r"\begin{theorem}") and text.endswith(r"\end{theorem}")
    assert theorem.source.number in text
