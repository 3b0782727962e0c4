"""Shift reduction in Balle et al. 2019: Example 1 (iterated Gaussian) and Theorem 4 (amplification by iteration).

The verdicts of the theorems and the refutation of their tightened copies are checked catalogue-wide in
tests/test_catalogue.py; here: the measured terms (quadratures, with closed forms off) against the Gaussian closed
forms, the chain's law, and the algebra of the bounds.

Reference values are from ../shared/catalogue/catalogue-balle.md (entries balle19.ex1, balle19.thm4.eq2,
balle19.thm4.eq3, balle19.thm4.proof-phi, balle19.thm4.proof-theta, glossary balle19.fact.gauss-rdp), from closed
forms, or from the paper.
"""

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.proofs.balle19 import couplings as proofs
from symdp.engine.continuous import Gaussian
from symdp.engine.divergences import divergence
from symdp.estimate import exact_ball, in_balls, mpf_of
from symdp.precision import closed_forms, working_precision
from symdp.statement import BuiltExactly, lambdify_mpmath
from symdp.theorems.balle19 import couplings as b
from symdp.verify import evaluate_point, verify

SHIFT_DERIVATIONS = [
    proofs.EX1_OPTIMAL_W, proofs.EX1_BOUND_AT_OPTIMUM, proofs.GAUSS_RDP, proofs.THM4_OPTIMAL_STEPS,
    pytest.param(proofs.THM4_OPTIMAL_PATH, marks=pytest.mark.slow),   # SymPy, some 8 s: exhaustive runs only
    proofs.THM4_LINEAR_CHAIN, proofs.THM4_DELTA0, proofs.THM4_PHI, proofs.THM4_PHI_LIMIT,
    proofs.THM4_THETA,
]

TINY = mpmath.mpf(10) ** -25


def _mp(**values):
    return {k: (v if isinstance(v, int) else mpmath.mpf(str(v))) for k, v in values.items()}


def bound_fn(theorem):
    """The statement's right side as an mpmath function of the theorem's parameters (in their order)."""
    return lambdify_mpmath([p.symbol for p in theorem.parameters], theorem.statement.rhs)


@pytest.mark.parametrize("derivation", SHIFT_DERIVATIONS, ids=lambda d: d.title[:60])
def test_shift_derivations_check(derivation):
    assert derivation.check()
    assert r"\begin{align*}" in derivation.latex()


def test_e2_printed_theta_fact():
    # catalogue-balle.md erratum E2: printed θ_0 = 1, θ_3 = 15/8 at L = 1/2, r = 3; the definition gives 0 and 1.
    assert proofs.e2_printed_theta()


def test_example1_argmin_is_the_papers_theta():
    """P Example 1: θ = (1 + σ2²/σ1²)^{-1}; the objective's derivative vanishes there and only there."""
    grad = sp.diff(proofs.EX1_OBJECTIVE, proofs.theta)
    assert sp.solve(grad, proofs.theta) == [proofs.EX1_THETA]
    assert sp.simplify(proofs.EX1_THETA - 1 / (1 + proofs.sigma2**2 / proofs.sigma1**2)) == 0


# --- Example 1: Theorem 2's bound, measured ---------------------------------------------------------------------


@pytest.mark.parametrize("alpha, delta, s1, s2", [("3", "2", "1", "2"), ("1.05", "0.01", "10", "0.1"),
                                                  ("30", "5", "0.1", "0.1")])
def test_example1_terms_integrated_from_densities_equal_the_closed_forms(alpha, delta, s1, s2):
    """Each term of Theorem 2 at the optimal w, integrated from the densities with closed forms off, against its
    Gaussian RDP closed form (the oracle): αΔ²/(2(σ1²+σ2²)), αθ²Δ²/(2σ1²), α(1−θ)²Δ²/(2σ2²). At the default 50
    digits, where the verifier's tolerance for "tight" is 1e-25 relative."""
    with closed_forms(False):
        a, d, v1, v2 = (mpmath.mpf(v) for v in (alpha, delta, s1, s2))
        th = v1**2 / (v1**2 + v2**2)
        measured = b.EXAMPLE_1._measurements({"alpha": a, "Delta": d, "sigma_1": v1, "sigma_2": v2})
        # each pair's numbers (√(σ1² + σ2²), θΔ) computed from the draw: the laws built in balls, marked built exactly
        assert all(isinstance(measured[h], BuiltExactly) for h in (b.EX1_OUT, b.R_SHIFT, b.SUP_TRANSPORT))
        terms = [measured[h].value for h in (b.EX1_OUT, b.R_SHIFT, b.SUP_TRANSPORT)]
        oracles = (a * d**2 / (2 * (v1**2 + v2**2)), a * (th * d) ** 2 / (2 * v1**2),
                   a * ((1 - th) * d) ** 2 / (2 * v2**2))
        for est, exact in zip(terms, oracles):
            assert est.method == "certified" and est.certified
            assert abs(est.value - exact) <= est.error + TINY * exact and est.error < TINY * exact
        assert abs(terms[0].value - terms[1].value - terms[2].value) < TINY * terms[0].value   # shift optimality


def test_example1_bound_is_strict_away_from_the_optimal_w():
    """At θ = 0 (ω = ν: all the shift in the kernel) and θ = 1 (ω = μ) Theorem 2's measured bound exceeds R_α."""
    def renyi(gap, sd):
        return divergence("renyi", Gaussian(gap, sd), Gaussian(0, sd), 3, method="densities").value

    with working_precision(30):
        for th in (0, 1, mpmath.mpf("0.5")):
            out = renyi(1, mpmath.sqrt(5))
            shift, sup = renyi(th, 1), renyi(1 - th, 2)   # Δ = 1, σ1 = 1, σ2 = 2, w = θΔ
            assert shift + sup > out * (1 + mpmath.mpf("0.01"))


def test_example1_closed_form_value():
    """R_α(N(Δ, σ1²+σ2²) ‖ N(0, σ1²+σ2²)) = αΔ²/(2(σ1²+σ2²)): α = 3, Δ = 2, σ1 = 1, σ2 = 2 gives 6/5."""
    with working_precision(30):
        lhs, rhs, _ = b.EXAMPLE_1.measure(_mp(alpha=3, Delta=2, sigma_1=1, sigma_2=2))
        assert abs(lhs.value - mpmath.mpf(6) / 5) < TINY and abs(rhs.value - mpmath.mpf(6) / 5) < TINY


@pytest.mark.parametrize("theorem", [b.THEOREM_4_EQ2_GEOMETRIC, b.THEOREM_4_EQ3], ids=lambda t: t.id)
def test_paper_paths_are_loose_away_from_L1_and_r1(theorem):
    """Tight only at L = 1 or r = 1: at L = 0.6, r = 3 the exact divergence uses well under the bound."""
    r = evaluate_point(theorem, {"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.6, "r": 3})
    assert r.verdict == "holds" and r.ratio < 0.9


def test_gauss_rdp_integrated_from_the_densities():
    with working_precision(30):
        est, _, _ = b.GAUSS_RDP.measure(_mp(alpha="3.7", Delta="0.4", sigma="0.9"))
        assert est.method == "certified" and est.certified
        # catalogue-balle.md glossary balle19.fact.gauss-rdp: 0.36543209876543209877 both ways
        assert abs(est.value - mpmath.mpf("0.36543209876543209877")) < mpmath.mpf(10) ** -20


def test_tiny_divergences_keep_their_relative_precision():
    """A chain that contracts to a standardised gap of ~1e-25 still gives R_α to working precision relative to its
    size (the engine's certified enclosure is), so the tight eq. (2) is decided as tight, not inconclusive."""
    raw = {"alpha": 2, "Delta": 1, "sigma": 1, "L": 0.05, "r": 19}
    r = evaluate_point(b.THEOREM_4_EQ2, raw)
    assert 0 < r.quantity < 1e-45
    assert r.verdict == "tight"


# --- catalogue values --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("L, r, exact, geometric, eq3", [
    # catalogue-balle.md, balle19.thm4.eq2 table (ψ = Lx, σ = 0.5, Δ = 1, α = 2)
    ("0.8", 2, "0.999024", "1.01136", "1.024"),
    ("0.6", 3, "0.125285", "0.145739", "0.1728"),
    ("1", 2, "2", "2", "2"),
])
def test_theorem4_catalogue_table(L, r, exact, geometric, eq3):
    p = _mp(alpha=2, Delta=1, sigma="0.5", L=L, r=r)
    with working_precision(30):
        got_exact, got_opt, _ = b.THEOREM_4_EQ2.measure(p)   # the chain's divergence by quadrature, the bound
        args = [p[k] for k in ("alpha", "Delta", "sigma", "L", "r")]
        got_geo, got_eq3 = bound_fn(b.THEOREM_4_EQ2_GEOMETRIC)(*args), bound_fn(b.THEOREM_4_EQ3)(*args)
        for got, ref in ((got_exact.value, exact), (got_opt.value, exact), (got_geo, geometric), (got_eq3, eq3)):
            assert abs(got - mpmath.mpf(ref)) < 6 * mpmath.mpf(10) ** -6


# --- properties --------------------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=60)
@given(alpha=st.floats(1.01, 30), delta=st.floats(0.01, 5), sigma=st.floats(0.1, 5),
       L=st.floats(0.01, 1), r=st.integers(1, 40))
def test_theorem4_chain_of_bounds(alpha, delta, sigma, L, r):
    """exact = optimal-path (2) ≤ geometric-path (2) ≤ (3) for L ≤ 1 (catalogue-balle.md, balle19.thm4.eq3); "exact"
    is the Gaussian RDP closed form of the chain's law (linear_chain), an oracle for the optimal-path bound here."""
    p = _mp(alpha=alpha, Delta=delta, sigma=sigma, L=L, r=r)
    with working_precision(30):
        args = [p[k] for k in ("alpha", "Delta", "sigma", "L", "r")]
        opt, geo, eq3 = (bound_fn(t)(*args) for t in (b.THEOREM_4_EQ2, b.THEOREM_4_EQ2_GEOMETRIC, b.THEOREM_4_EQ3))
        with in_balls():
            gap, var = b.linear_chain(p)
            exact = mpf_of((exact_ball(p["alpha"]) * gap**2 / (2 * var)).mid())
        slack = 1 + mpmath.mpf(10) ** -20
        assert abs(exact - opt) <= mpmath.mpf(10) ** -20 * opt
        assert opt <= geo * slack and geo <= eq3 * slack


@settings(deadline=None, max_examples=60)
@given(L1=st.floats(0.001, 1), L2=st.floats(0.001, 1), r=st.integers(1, 30))
def test_phi_is_nondecreasing_on_the_unit_interval(L1, L2, r):
    """A, proof of Theorem 4: φ is increasing on (0, 1], which with φ(1) = 1/r gives φ ≤ 1/r."""
    lo, hi = sorted((L1, L2))
    with working_precision(40):
        a = b.phi_value(mpmath.mpf(lo), r)
        c = b.phi_value(mpmath.mpf(hi), r)
        assert a <= c * (1 + mpmath.mpf(10) ** -30)


@settings(deadline=None, max_examples=60)
@given(alpha=st.floats(1.01, 30), delta=st.floats(0.01, 5), s1=st.floats(0.1, 10), s2=st.floats(0.1, 10),
       th=st.floats(0, 1))
def test_example1_bound_is_smallest_at_the_optimal_theta(alpha, delta, s1, s2, th):
    p = _mp(alpha=alpha, Delta=delta, sigma_1=s1, sigma_2=s2)
    f = bound_fn(b.EXAMPLE_1_ANY_W)
    with working_precision(30):
        best = p["sigma_1"] ** 2 / (p["sigma_1"] ** 2 + p["sigma_2"] ** 2)
        args = (p["alpha"], p["Delta"], p["sigma_1"], p["sigma_2"])
        assert f(*args, mpmath.mpf(th)) >= f(*args, best) * (1 - mpmath.mpf(10) ** -25)


def test_example1_next_to_the_optimal_theta_is_certified():
    # σ1 one ulp below 3, θ = 0.9: 2e-33 relative from the optimal θ = σ1²/(σ1² + σ2²), so the bound exceeds the left
    # side by 2e-33. The left side compares two Gaussians of sd √(σ1² + σ2²), which an mpf rounds, and the verifier's
    # floor for that rounding left the draw to the two precisions (found by the refinement of `symdp verify`); built
    # in balls (laws._renyi_in_balls), the laws carry no rounding and the enclosures decide it
    raw = {"alpha": 1.5, "Delta": 2.0, "sigma_1": 2.9999999999999996, "sigma_2": 1.0, "theta": 0.9}
    result = evaluate_point(b.EXAMPLE_1_ANY_W, raw)
    assert result.verdict in ("holds", "tight") and result.certified, result
    # α/2·Δ²/(σ1² + σ2²) ≈ 0.3 (the closed form of Gaussian RDP, the oracle)
    assert abs(result.quantity - mpmath.mpf(3) / 10) < 1e-15
    # one draw off the optimal θ: strictly below the bound, and certified so
    off = evaluate_point(b.EXAMPLE_1_ANY_W, {**raw, "theta": 0.5})
    assert off.verdict == "holds" and off.certified and off.quantity < off.bound


# --- the printed θ_i (erratum E2) ----------------------------------------------------------------------------------


def test_printed_theta_is_refuted_with_its_erratum():
    assert b.THEOREM_4_THETA.erratum.corrected_id == b.THEOREM_4_THETA_CORRECTED.id
    with working_precision(30):
        lhs, rhs, _ = b.THEOREM_4_THETA.measure(_mp(L="0.5", r=3, i=3))
        assert abs(lhs.value - 1) < TINY                 # θ_r = 1: μ_r = ν
        assert abs(rhs.value - mpmath.mpf(15) / 8) < TINY  # printed: 15/8 (catalogue E2)
        lhs0, rhs0, _ = b.THEOREM_4_THETA.measure(_mp(L="0.5", r=3, i=0))
        assert lhs0.value == 0 and abs(rhs0.value - 1) < TINY    # printed θ_0 = 1


def test_corrected_theta_is_an_identity_proved_by_its_derivation():
    assert b.THEOREM_4_THETA_CORRECTED.derivation is proofs.THM4_THETA
    assert verify(b.THEOREM_4_THETA_CORRECTED).verdict == "holds"


def test_phi_prints_its_formula():
    assert sp.latex(b.THEOREM_4_PHI.statement) == r"\frac{L^{-1/2} - L^{1/2}}{L^{-r/2} - L^{r/2}} \leq \frac{1}{r}"


def test_theorem4_eq3_one_ulp_below_its_equality_is_certified():
    # L one ulp below 1 (seed 2 of `symdp verify`): eq. (3) exceeds the chain's R_α by 1.4e-31 relative. The chain's
    # law from its recursions in mpf rounded, and the verifier's floor for that rounding left the draw to the two
    # precisions; built in balls from the draw's numbers (b.linear_chain), the enclosures decide it
    raw = {"r": 5, "sigma": 4.18461079636104, "Delta": 2.6449725935817456, "L": 0.9999999999999998,
           "alpha": 21.19952143819579}
    result = evaluate_point(b.THEOREM_4_EQ3, raw)
    assert result.verdict in ("holds", "tight") and result.certified, result
    # at L = 1 the chain's R_α is αΔ²/(2rσ²), the Gaussian RDP of the gap Δ over variance rσ² (the oracle)
    oracle = raw["alpha"] * raw["Delta"] ** 2 / (2 * raw["r"] * raw["sigma"] ** 2)
    assert abs(float(result.quantity) / oracle - 1) < 1e-14
