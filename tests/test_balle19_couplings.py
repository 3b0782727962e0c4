"""Section 4 of Balle et al. 2019 beyond the shifts: Lemma 16 and Theorem 2 on finite spaces, Example 3 (erratum E1),
Lemma 17 (W∞ contraction), Lemma 18 (gradient steps contract) and Theorem 5 (noisy SGD, strongly convex).

These test the section's constructions (exact couplings, transport operators, quantile W∞, the exact law of the SGD
chain and its sufficient statistic) against exact arithmetic and closed forms; the verdicts of the theorems and the
refutation of their tightened copies are checked catalogue-wide in tests/test_catalogue.py. Reference values are
from ../shared/catalogue/catalogue-balle.md (entries balle19.lem16, thm2, ex3, lem17, lem18, thm5 and erratum E1),
from closed forms derived in the comments, or from the paper.
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.proofs.balle19 import couplings as proofs
from symdp.engine import closed_forms as cf
from symdp.engine import finite
from symdp.derivation import Derivation, DerivationError
from symdp.precision import closed_forms, working_precision
from symdp.statement import BuiltExactly
from symdp.statement import lambdify_mpmath
from symdp.strategies import weights
from symdp.theorem import INDEPENDENT, Theorem
from symdp.theorems.balle19 import couplings as b
from symdp.verify import evaluate_point, verify

SECTION_DERIVATIONS = [
    proofs.LEM16_TRANSPORT, proofs.EX3_OPTIMAL_W, proofs.EX3_BOUND_AT_OPTIMUM, proofs.EX3_LINEAR_EXACT,
    proofs.EX3_AMPLIFIES, proofs.EX3_BEATS_EXAMPLE_1, proofs.LEM18_CONTRACTION, proofs.LEM18_VS_ELEMENTARY,
    proofs.LEM18_TIGHT, proofs.LEM18_LOGCOSH, proofs.THM5_FROM_THM4, proofs.THM5_LAST_INDEX, proofs.THM5_OPTIMAL_PATH,
    proofs.CHAIN_VARIANCE, proofs.THM5_OPT_CHAIN_RATIO, proofs.THM5_PAPER_CHAIN_RATIO,
]
TINY = mpmath.mpf(10) ** -25


def _mp(**values):
    """A point as the verifier builds it: mpf parameters, integer parameters (n, i) as ints, structure as drawn."""
    return {k: (v if k in ("n", "i", "structure") else mpmath.mpf(str(v))) for k, v in values.items()}


def _value(v):
    return v.value if hasattr(v, "value") else v


def bound_fn(theorem):
    """The statement's right side as an mpmath function of the theorem's parameters (in their order)."""
    return lambdify_mpmath([p.symbol for p in theorem.parameters], theorem.statement.rhs)


# --- derivations -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("derivation", SECTION_DERIVATIONS, ids=lambda d: d.title[:60])
def test_section_derivations_check(derivation):
    assert derivation.check()
    assert r"\begin{align*}" in derivation.latex()


def test_lemma16_derivation_is_not_vacuous():
    """Transposing the coupling (the first marginal in place of the second) is not confirmed."""
    wrong = Derivation("wrong", proofs.LEM16_TRANSPORT.start).step(
        sp.Sum(proofs._pi[proofs._yi, proofs._xi], (proofs._xi, 1, proofs._n)), "transposed")
    with pytest.raises(DerivationError):
        wrong.check()


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


# --- Lemma 16: an identity, and the constructions it stands behind ---------------------------------------------------


def test_lemma16_is_an_identity_confirmed_by_its_derivation():
    report = verify(b.LEMMA_16)
    assert b.LEMMA_16.evidence == "identity" and not b.LEMMA_16.numeric
    assert report.verdict == "holds" and "derivation" in report.reason


def push(p, kernel) -> list:
    """The row vector p·K, exact for rationals."""
    return [sum(px * row[y] for px, row in zip(p, kernel)) for y in range(len(kernel[0]))]


@st.composite
def lemma16_instances(draw, max_atoms: int = 5) -> dict:
    """μ (possibly with empty atoms, to exercise 0/0 = 0), ν, and a coupling of them."""
    n = draw(st.integers(1, max_atoms))
    return {"mu": draw(b._weights_with_zeros(n)), "nu": draw(weights(n)), "coupling": draw(b.coupling_specs(n))}


@settings(deadline=None, max_examples=60)
@given(lemma16_instances())
def test_random_couplings_have_exact_marginals_and_transport_mu_to_nu_exactly(s):
    """Lemma 16 on the module's own constructions, in exact rationals: marginals, Markov rows, and mu H_pi = nu."""
    mu, nu = b.exact_weights(s["mu"]), b.exact_weights(s["nu"])
    pi = b.random_coupling(mu, nu, s["coupling"])
    assert all(v >= 0 for row in pi for v in row)
    assert [sum(row) for row in pi] == mu                      # first marginal
    assert [sum(col) for col in zip(*pi)] == nu                # second marginal
    H = b.transport_operator(pi, mu)
    for px, row in zip(mu, H):
        assert sum(row) == (1 if px > 0 else 0)                 # Markov on supp(mu); 0/0 = 0 off it (footnote 5)
    assert push(mu, H) == nu                                    # Lemma 16, exactly
    with working_precision(30):                                 # and at working precision, as the witnesses push
        pushed = finite.FiniteDistribution(mu).push_forward(H)
        assert all(abs(v - mpmath.mpf(w.numerator) / w.denominator) < TINY for v, w in zip(pushed, nu))


def test_northwest_corner_by_hand():
    # (1/2, 1/2) and (1/4, 3/4): the NW corner fills (0,0) = 1/4, (0,1) = 1/4, (1,1) = 1/2.
    F = Fraction
    assert b.northwest_corner([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]) == [[F(1, 4), F(1, 4)], [F(0), F(1, 2)]]


def test_a_non_coupling_breaks_lemma16():
    """The identity needs the second marginal: a matrix coupling mu with mu (not nu) transports mu to mu."""
    mu = b.exact_weights([0.5, 0.5])
    H = b.transport_operator([[Fraction(1, 2), 0], [0, Fraction(1, 2)]], mu)
    assert push(mu, H) == mu != b.exact_weights([0.25, 0.75])


# --- Theorem 2 ---------------------------------------------------------------------------------------------------


def _without_transport_term(p):
    terms = b.THEOREM_2.witness(p)
    return {b.R_OUT: terms[b.R_OUT], b.R_SHIFT: terms[b.R_SHIFT]}


def test_theorem2_without_the_transport_term_is_false():
    """Eq. (1) needs its sup term: R_α(μK‖νK) ≤ R_α(ω‖ν) alone is refuted (e.g. ω = ν makes it 0)."""
    no_sup = Theorem(
        id="test.thm2-no-sup", title="(1) without the sup term", source=b.THEOREM_2.source,
        statement=sp.Le(b.R_OUT, b.R_SHIFT), parameters=b.THEOREM_2.parameters, structure=b.THEOREM_2.structure,
        witness=_without_transport_term, evidence=INDEPENDENT)
    assert verify(no_sup, examples=60).verdict == "violated"


def test_theorem2_kl_at_alpha_one_pinned():
    raw = b.THEOREM_2.examples[0]
    assert raw["alpha"] == 1
    with working_precision(30):
        lhs, rhs, _ = b.THEOREM_2.measure(_mp(alpha=1, structure=raw["structure"]))
        # product coupling: H_pi(x) = mu for all x, so the sup term is max_x KL(mu K || K(x)).
        mu, nu, om = ([mpmath.mpf(str(v)) for v in raw["structure"][k]] for k in ("mu", "nu", "omega"))
        K = [[mpmath.mpf(str(v)) for v in row] for row in raw["structure"]["K"]]
        muK = finite.FiniteDistribution(mu).push_forward(K)
        direct = finite.kl(finite.FiniteDistribution(om), finite.FiniteDistribution(nu)).value + max(
            finite.kl(muK, finite.FiniteDistribution(row)).value for row in K)
        assert abs(rhs.value - direct) < TINY
        assert lhs.value < rhs.value


def test_dpi_is_theorem2_with_the_identity_coupling():
    """THEOREM_2_DPI measures R_α(μ‖ν) directly; through eq. (1) with ω = μ and π = (id, id)#μ the sup term is 0 and
    the bound is the same number."""
    raw = b.THEOREM_2.tight_at[0]
    with working_precision(30):
        p = _mp(alpha=raw["alpha"], structure=raw["structure"])
        terms = {k: v.value for k, v in b.THEOREM_2.witness(p).items()}   # each marked BuiltExactly
        assert terms[b.SUP_TRANSPORT].value < TINY
        s = raw["structure"]
        dpi_point = _mp(alpha=raw["alpha"], structure={k: s[k] for k in ("mu", "nu", "K")})
        dpi = {k: v.value for k, v in b.THEOREM_2_DPI.witness(dpi_point).items()}
        assert abs(terms[b.R_SHIFT].value - dpi[b.R_IN].value) < TINY
        assert abs(terms[b.R_OUT].value - dpi[b.R_OUT].value) < TINY


# --- Example 3 (erratum E1) ----------------------------------------------------------------------------------------


def test_example3_as_printed_is_refuted_by_the_catalogue_counterexample():
    assert b.EXAMPLE_3.erratum.corrected_id == b.EXAMPLE_3_CORRECTED.id
    assert evaluate_point(b.EXAMPLE_3, b.E1_COUNTEREXAMPLE).verdict == "violated"
    with working_precision(30):
        lhs, printed, _ = b.EXAMPLE_3.measure(_mp(**b.E1_COUNTEREXAMPLE))
        _, corrected, _ = b.EXAMPLE_3_CORRECTED.measure(_mp(**b.E1_COUNTEREXAMPLE))
        assert abs(lhs.value - mpmath.mpf(2) / 52) < TINY     # catalogue E1: alpha/52 at alpha = 2
        assert abs(printed.value - mpmath.mpf(2) / 200) < TINY  # printed alpha/200
        assert abs(corrected.value - mpmath.mpf(2) / 52) < TINY


@pytest.mark.parametrize("point", [
    {"alpha": 2, "Delta": 1, "sigma_1": 1, "sigma_2": 10, "L": 2, "c": 0.5},
    {"alpha": 17, "Delta": "0.03", "sigma_1": "0.2", "sigma_2": 4, "L": "0.1", "c": -1},
])
def test_example3_witness_is_integrated_from_the_exact_output_laws(point):
    """Against the Gaussian closed form αg²/(2s²) with g = cLΔ, s² = c²L²σ1² + σ2² (its oracle), closed forms off."""
    with working_precision(30), closed_forms(False):
        p = _mp(**point)
        est, _, _ = b.EXAMPLE_3_CORRECTED.measure(p)
        s = p["c"] * p["L"]
        exact = cf.gaussian_renyi(s * p["Delta"], mpmath.sqrt(s**2 * p["sigma_1"] ** 2 + p["sigma_2"] ** 2), 0,
                                  mpmath.sqrt(s**2 * p["sigma_1"] ** 2 + p["sigma_2"] ** 2), p["alpha"])
        assert est.method == "certified"
        assert abs(est.value - exact) <= est.error + TINY * exact and est.error < TINY * exact


@settings(deadline=None, max_examples=40)
@given(s1=st.floats(0.1, 10), s2=st.floats(0.1, 10), L=st.floats(0.05, 5), c1=st.floats(0, 1), c2=st.floats(0, 1))
def test_example3_output_gap_grows_with_the_slope(s1, s2, L, c1, c2):
    """For ψ = cLx the standardised gap of the outputs, (cLΔ)²/(c²L²σ1² + σ2²), increases with |c|: |c| = 1 is the
    worst map, so the tight draws of balle19.ex3.corrected are its only tight ones."""
    lo, hi = sorted((c1, c2))
    with working_precision(30):
        def z2(slope):
            p = _mp(alpha=2, Delta=1, sigma_1=s1, sigma_2=s2, L=L, c=slope)
            head = b.EXAMPLE_3_CORRECTED.measured_as[b._KM]   # the output laws N(cLΔ, s²), N(0, s²)
            gap, sd = (lambdify_mpmath([q.symbol for q in b.EXAMPLE_3_CORRECTED.parameters], e)(
                *(p[q.name] for q in b.EXAMPLE_3_CORRECTED.parameters)) for e in head.args[0].args)
            return gap**2 / sd**2
        assert z2(lo) <= z2(hi) * (1 + mpmath.mpf(10) ** -20) + TINY


# --- Lemma 17 ----------------------------------------------------------------------------------------------------


def winf_projected_gaussians(m1, m2, box=None) -> mpmath.mpf:
    """W_∞ between the laws of Π(m1 + Z) and Π(m2 + Z), Z ~ N(0, σ²), Π the projection onto ``box`` = (lo, hi)
    (or the identity), in closed form: the reference for the module's winf_by_quantiles (named in balle19.lem17's
    notes).

    In one dimension the quantile coupling is optimal for W_∞, and the quantile functions are u ↦ Π(m_k + σΦ^{-1}(u))
    (Π is monotone). Their gap g(z) = |Π(m1 + σz) − Π(m2 + σz)| is at most |m1 − m2| (Π is 1-Lipschitz) and at most
    hi − lo (both values lie in the box); the first bound is reached where both points are inside the box, and
    min(|m1 − m2|, hi − lo) where the lower one sits at lo. So W_∞ = min(|m1 − m2|, hi − lo), independent of σ.
    """
    gap = abs(m1 - m2)
    return gap if box is None else min(gap, box[1] - box[0])


def test_winf_closed_form_by_hand():
    assert winf_projected_gaussians(mpmath.mpf(0), mpmath.mpf(3), (mpmath.mpf(-1), mpmath.mpf(1))) == 2


@settings(deadline=None, max_examples=40)
@given(m1=st.floats(-3, 3), m2=st.floats(-3, 3), sd=st.floats(0.1, 3),
       box=st.one_of(st.none(), st.tuples(st.floats(-3, 3), st.floats(0.01, 4))))
def test_winf_from_quantiles_against_a_grid_and_the_closed_form(m1, m2, sd, box):
    """The grid maximum of |Q1(u) − Q2(u)| (quantile functions Π(m + σΦ^{-1}(u))) is a lower bound of W∞ that
    reaches the quantile sup of the witness, which is the closed form min(|m1 − m2|, hi − lo)."""
    with working_precision(30):
        m1, m2, sd = (mpmath.mpf(str(v)) for v in (m1, m2, sd))
        K = None if box is None else (mpmath.mpf(str(box[0])), mpmath.mpf(str(box[0])) + mpmath.mpf(str(box[1])))
        clip = (lambda v: v) if K is None else (lambda v: min(max(v, K[0]), K[1]))
        zs = [mpmath.mpf(k) / 10 for k in range(-80, 81)]
        if K is not None:
            zs.append((K[0] - min(m1, m2)) / sd)               # the maximiser of the closed form's argument
        grid = max(abs(clip(m1 + sd * z) - clip(m2 + sd * z)) for z in zs)
        enclosure = b.winf_by_quantiles(m1, m2, sd, K)
        quantiles = enclosure.value
        assert enclosure.certified
        assert abs(quantiles - winf_projected_gaussians(m1, m2, K)) <= enclosure.error + TINY
        assert grid <= quantiles + TINY
        assert abs(quantiles - winf_projected_gaussians(m1, m2, K)) < TINY
        assert abs(grid - quantiles) < TINY


def test_lemma17_general_is_symbolic_only_with_its_reason():
    report = verify(b.LEMMA_17_GENERAL)
    assert report.verdict == "inconclusive" and "quantile" in report.reason


def test_lemma17_projection_contracts_beyond_L():
    """𝕂 = [-1, 1] (box [lo, width] = [-1, 2]), ψ = 1.5 sin, inputs -1 and 1 (pinned example): |ψ(1) − ψ(-1)| =
    3 sin 1 > 2 = hi − lo, so the projection caps W∞ at 2, below L·W∞(μ, ν) = 3."""
    raw = b.LEMMA_17.examples[0]
    with working_precision(30):
        q, bound, _ = b.LEMMA_17.measure(_mp(L=raw["L"], structure=raw["structure"]))
        assert 3 * mpmath.sin(1) > 2
        assert abs(q.value - 2) < TINY
        assert abs(bound.value - 3) < TINY


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
        quotient = b.LEMMA_18.witness(p).value   # marked BuiltExactly
        assert quotient.certified and quotient.value <= exact * (1 + mpmath.mpf(10) ** -20)
        assert exact <= mpmath.sqrt(1 - 2 * e * b_ * r_ / (b_ + r_)) * (1 + mpmath.mpf(10) ** -20)


def test_lemma18_is_loose_below_the_largest_step():
    # rho = 1, beta = 3, eta = 0.25 < 1/2: exact max(3/4, 1/4) = 3/4 < L = sqrt(1 - 3/8) = 0.7906 (closed forms)
    raw = {"rho": 1, "beta": 3, "eta": 0.25, "structure": b._eigen_pair(1, 3, 0.25)["structure"]}
    r = evaluate_point(b.LEMMA_18, raw)
    assert r.verdict == "holds" and r.certified   # decided by the enclosures, at 20 digits
    assert abs(r.quantity - mpmath.mpf(3) / 4) < mpmath.mpf(10) ** -18
    assert abs(r.bound - mpmath.sqrt(mpmath.mpf(5) / 8)) < mpmath.mpf(10) ** -18


# --- Theorem 5: the exact law of the chain -------------------------------------------------------------------------


def test_theorem5_catalogue_chain():
    # catalogue-balle.md, balle19.thm5: rho = 1, eta = 0.5, sigma = 1, gradient gap 2, five more steps:
    # R/alpha = 0.0014652
    with working_precision(30):
        lhs, eps, _ = b.THEOREM_5.measure(_mp(**b.CATALOGUE_CHAIN))
        assert lhs.method == "certified"
        assert abs(lhs.value / 2 - mpmath.mpf("0.0014652")) < mpmath.mpf("5e-8")
        # eps_1 = 2C^2/(5 sigma^2) (1 - 1/2)^3 with C = 1 (half the gradient gap): 0.05 per unit alpha
        assert abs(eps.value / 2 - mpmath.mpf("0.05")) < TINY


@settings(deadline=None, max_examples=40)
@given(rho=st.floats(0.05, 1), frac=st.floats(0.01, 1), n=st.integers(1, 25), i=st.integers(1, 25),
       sigma=st.floats(0.1, 5))
def test_sgd_chain_law_matches_the_scalar_closed_form(rho, frac, n, i, sigma):
    """A = ρI: mean gap 2ηC(1 − ηρ)^{n−i}, covariance η²σ² Σ_{k<n} (1 − ηρ)^{2k} I (catalogue's formula, all n noisy
    steps), along the drawn direction."""
    if i > n:
        i, n = n, i
    with working_precision(30):
        r_ = mpmath.mpf(str(rho))
        e = 2 * mpmath.mpf(str(frac)) / (r_ + 1)
        p = {"alpha": mpmath.mpf(2), "C": mpmath.mpf(1), "sigma": mpmath.mpf(str(sigma)), "rho": r_,
             "beta": mpmath.mpf(1), "eta": e, "n": n, "i": i,
             "structure": {"hessians": [[0.7, 0.0, 0.0]], "direction": 2.0, "frac": 1.0}}
        mean, cov = b.sgd_outputs(p)
        m = 1 - e * r_
        gap = 2 * e * m ** (n - i)
        var = e**2 * p["sigma"] ** 2 * mpmath.fsum(m ** (2 * k) for k in range(n))
        assert abs(mean[0] - gap * mpmath.cos(2)) < TINY and abs(mean[1] - gap * mpmath.sin(2)) < TINY
        assert abs(cov[0, 0] - var) < TINY * var and abs(cov[1, 1] - var) < TINY * var and abs(cov[0, 1]) < TINY * var


@pytest.mark.parametrize("raw", [b.CATALOGUE_CHAIN, b._single_step(0.3),
                                 {"alpha": 7, "C": 2, "sigma": 0.4, "rho": 0.3, "beta": 2.5, "eta": 0.5, "n": 5,
                                  "i": 2, "structure": {"hessians": [[0.4, 0.1, 0.9], [2.0, 1.0, 0.0]],
                                                        "direction": 4.0, "frac": 0.8}}])
def test_sgd_sufficient_statistic_keeps_the_whole_divergence(raw):
    """The quadrature of the statistic's laws equals the two-dimensional Gaussian RDP α mᵀΣ⁻¹m/2 of the chain's
    outputs (the closed form, here only an oracle), with closed forms off."""
    with working_precision(30), closed_forms(False):
        p = _mp(**raw)
        mean, cov = b.sgd_outputs(p)
        exact = p["alpha"] * (mean.T * mpmath.lu_solve(cov, mean))[0] / 2
        est = b._sgd_renyi(p)
        assert est.method == "certified"
        assert abs(est.value - exact) <= est.error + TINY * exact and est.error < TINY * exact


def test_sgd_chain_with_equal_outputs_has_divergence_zero():
    raw = dict(b._single_step(), structure={"hessians": [[0.0, 0.0, 0.0]], "direction": 1.0, "frac": 0.0})
    with working_precision(30):
        assert b.sgd_statistic_laws(_mp(**raw)) is None
        # no gradient gap: one law, built exactly, so the divergence is a proved 0 (a zero-radius enclosure)
        zero = b._sgd_renyi(_mp(**raw))
        assert isinstance(zero, BuiltExactly) and zero.value.certified
        assert zero.value.value == 0 and zero.value.error == 0


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
    f_paper, f_opt = bound_fn(b.THEOREM_5), bound_fn(b.THEOREM_5_OPTIMAL)
    with working_precision(30):
        args = [mpmath.mpf(1), mpmath.mpf(str(C)), mpmath.mpf(str(sigma)), mpmath.mpf(str(rho)), mpmath.mpf(str(beta)),
                2 * mpmath.mpf(str(frac)) / (mpmath.mpf(str(rho)) + mpmath.mpf(str(beta))), mpmath.mpf(n),
                mpmath.mpf(i)]
        assert f_opt(*args) <= f_paper(*args) * (1 + mpmath.mpf(10) ** -20)


def test_theorem2_transport_term_prints_as_the_paper_writes_it():
    text = sp.latex(b.THEOREM_2.statement)
    assert r"\sup_{x \in \mathrm{supp}\,\nu} R_{\alpha}\left((H_\pi K)(x) \,\middle\|\, K(x)\right)" in text


# --- certified measurements ----------------------------------------------------------------------------------------


def _encloses(estimate, exact):
    """Whether a certified estimate's interval holds ``exact`` (ends computed exactly, no rounding)."""
    low = mpmath.fsub(estimate.value, estimate.error, exact=True)
    high = mpmath.fadd(estimate.value, estimate.error, exact=True)
    return estimate.certified and low <= exact <= high


def test_lap2_measurements_are_certified_and_agree_with_each_other():
    """Two independent routes to the density of Lap(λ1) + Lap(λ2): the convolution integral in Arb
    (lap2_convolution, balle19.eq6) and the engine's cancellation-free Lap2 log-density in Arb (balle19.lem3.*); both
    certified, their balls overlap, and they hold the catalogue's 0.152131812607669559 (λ = 1, 2 at x = 0.7)."""
    with working_precision(40):
        p = _mp(lambda_1=1, lambda_2=2, x="0.7", Delta="0.3")
        conv = b.lap2_convolution(p["x"], p["lambda_1"], p["lambda_2"])
        density = b._densities_at_x(p)[b.LAP2_AT_X].value   # marked BuiltExactly: the scales are the drawn ones
        assert conv.certified and density.certified
        assert conv.ball().overlaps(density.ball()) and conv.error < mpmath.mpf(10) ** -38
        assert abs(conv.value - mpmath.mpf("0.152131812607669559")) < mpmath.mpf(10) ** -18


def test_lemma18_and_phi_enclose_their_closed_forms():
    """Lemma 18 at the eigen pair (η = 2/(β + ρ), x − y an eigenvector): the quotient is (β − ρ)/(β + ρ) = 1/2
    (proofs LEM18_TIGHT); φ at L = 1 is its limit 1/r (proofs THM4_PHI_LIMIT), and elsewhere the formula."""
    with working_precision(30):
        raw = b._eigen_pair(1, 3, 0.5)
        quotient = b.LEMMA_18.witness(_mp(rho=1, beta=3, eta="0.5", structure=raw["structure"])).value
        assert _encloses(quotient, mpmath.mpf("0.5"))
        for r_ in (1, 5, 29):
            assert _encloses(_enclosure(b.phi_ball(b.arb(1), b.arb(r_))), mpmath.mpf(1) / r_)
        with mpmath.workdps(60):
            expected = b.phi_value(mpmath.mpf("0.3"), 4)
        assert _encloses(_enclosure(b.phi_ball(b.exact_ball(mpmath.mpf("0.3")), b.arb(4))), expected)


def _enclosure(ball):
    """A ball as a certified estimate."""
    from symdp.estimate import Estimate, Method

    return Estimate.from_arb(ball, Method.EXACT)


@pytest.mark.parametrize("ident", ["balle19.lem17", "balle19.lem18", "balle19.lem3.lower", "balle19.thm4.proof-phi"])
def test_draws_are_certified(ident):
    from symdp.theorems import get

    report = verify(get(ident), examples=15, seed=5)
    assert report.verdict == "holds" and report.certified, report.reason


def test_theorem2_laws_are_built_exactly_and_its_terms_enclose_exact_sums():
    """Theorem 2's laws are exact rationals (the draw's decimals, an exact coupling): μK, νK, ω, ν and every
    H_π(x)K are exact laws, each term is marked BuiltExactly, and the terms hold their values computed by hand in
    Fractions: at ω = μ with the identity coupling and K = id the transport term is 0 and R_α(ω‖ν) = R_α(μ‖ν) =
    log(Σ μ^α ν^{1−α})/(α − 1), here α = 2: log(Σ μ²/ν)."""
    raw = b._dpi_equality(2)["structure"]
    with working_precision(30):
        out = b.THEOREM_2.witness({"alpha": mpmath.mpf(2), "structure": raw})
        assert all(isinstance(v, BuiltExactly) and v.value.certified for v in out.values())
        mu, nu = b.exact_weights(raw["mu"]), b.exact_weights(raw["nu"])
        chi = sum(m_ * m_ / n_ for m_, n_ in zip(mu, nu))   # Σ μ²/ν, an exact Fraction
        with mpmath.workdps(60):
            expected = mpmath.log(mpmath.mpf(chi.numerator) / chi.denominator)
        for atom in (b.R_OUT, b.R_SHIFT):
            assert _encloses(out[atom].value, expected) and out[atom].value.error < mpmath.mpf(10) ** -28
        assert out[b.SUP_TRANSPORT].value.value == 0
        assert b._pushed(mu, [b.exact_weights(r) for r in raw["K"]]).exact




@pytest.mark.parametrize("ident", ["balle19.thm2", "balle19.thm2.dpi", "balle19.lem18", "balle19.lem3.pointwise"])
def test_draws_are_built_exactly(ident):
    """Every certified draw of these theorems measures laws built exactly from the draw (construction "exact")."""
    from symdp.theorems import get

    report = verify(get(ident), examples=15, seed=5)
    assert report.verdict == "holds" and report.certified, report.reason
    assert set(report.construction) == {"exact"}, report.construction


def test_theorem5_draws_without_a_gradient_gap_are_certified():
    """frac = 0: the two chains have one law; the draw is decided by enclosures (a proved 0 against the bound)."""
    from symdp.theorems import get

    raw = dict(b._single_step(), structure={"hessians": [[0.3, 0.2, 0.9]], "direction": 1.0, "frac": 0.0})
    r = evaluate_point(get("balle19.thm5"), raw)
    assert r.verdict == "holds" and r.certified and r.quantity == 0

