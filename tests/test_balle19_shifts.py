"""Shift reduction in Balle et al. 2019: Example 1 (iterated Gaussian) and Theorem 4 (amplification by iteration).

Reference values are from ../shared/catalogue/catalogue-balle.md (entries balle19.ex1, balle19.thm4.eq2,
balle19.thm4.eq3, balle19.thm4.proof-phi, balle19.thm4.proof-theta, glossary balle19.fact.gauss-rdp), from closed
forms, or from the paper.
"""

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.balle19 import couplings as proofs
from symdp.precision import working_precision
from symdp.theorems.balle19 import couplings as b
from symdp.verify import evaluate_point, verify

SHIFT_DERIVATIONS = [
    proofs.EX1_OPTIMAL_W, proofs.EX1_BOUND_AT_OPTIMUM, proofs.GAUSS_RDP, proofs.THM4_OPTIMAL_STEPS,
    proofs.THM4_OPTIMAL_PATH, proofs.THM4_LINEAR_CHAIN, proofs.THM4_DELTA0, proofs.THM4_PHI, proofs.THM4_PHI_LIMIT,
    proofs.THM4_THETA,
]

TIGHT = [b.EXAMPLE_1, b.EXAMPLE_1_ANY_W, b.THEOREM_4_EQ2, b.THEOREM_4_EQ2_GEOMETRIC, b.THEOREM_4_EQ3,
         b.THEOREM_4_PHI, b.THEOREM_4_THETA_CORRECTED]


def _mp(**values):
    return {k: (v if isinstance(v, int) else mpmath.mpf(str(v))) for k, v in values.items()}


def _value(x):
    return x.value if hasattr(x, "value") else x


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


# --- tight results: hold, and their 0.99-tightened copies are refuted ---------------------------------------------


@pytest.mark.parametrize("theorem", TIGHT, ids=lambda t: t.id)
def test_tight_theorems_hold_and_tightened_copies_are_refuted(theorem):
    report = verify(theorem)
    assert report.verdict == "holds", report.reason
    assert report.tight >= 1
    if theorem.tight_everywhere:
        assert report.tight == report.examples
    refuted = verify(theorem.tightened(0.99))
    assert refuted.verdict == "violated" and refuted.counterexample is not None


@pytest.mark.parametrize("theorem", [b.THEOREM_4_EQ2_GEOMETRIC, b.THEOREM_4_EQ3], ids=lambda t: t.id)
def test_paper_paths_are_loose_away_from_L1_and_r1(theorem):
    """Tight only at L = 1 or r = 1: at L = 0.6, r = 3 the exact divergence uses well under the bound."""
    r = evaluate_point(theorem, {"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.6, "r": 3})
    assert r.verdict == "holds" and r.ratio < 0.9


def test_gauss_rdp_by_quadrature():
    report = verify(b.GAUSS_RDP, examples=4)
    assert report.verdict == "holds" and report.tight == report.examples
    with working_precision(30):
        est = b.GAUSS_RDP.witness(_mp(alpha="3.7", Delta="0.4", sigma="0.9"))
        assert est.method == "quadrature"
        # catalogue-balle.md glossary balle19.fact.gauss-rdp: 0.36543209876543209877 both ways
        assert abs(est.value - mpmath.mpf("0.36543209876543209877")) < mpmath.mpf(10) ** -20
    assert verify(b.GAUSS_RDP.tightened(0.99), examples=2).verdict == "violated"


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
        got_exact, got_opt = b.THEOREM_4_EQ2.evaluate(p)
        _, got_geo = b.THEOREM_4_EQ2_GEOMETRIC.evaluate(p)
        _, got_eq3 = b.THEOREM_4_EQ3.evaluate(p)
        for got, ref in ((got_exact, exact), (got_opt, exact), (got_geo, geometric), (got_eq3, eq3)):
            assert abs(_value(got) - mpmath.mpf(ref)) < 6 * mpmath.mpf(10) ** -6


def test_example1_closed_form_value():
    """R_α(N(Δ, σ1²+σ2²) ‖ N(0, σ1²+σ2²)) = αΔ²/(2(σ1²+σ2²)): α = 3, Δ = 2, σ1 = 1, σ2 = 2 gives 6/5."""
    with working_precision(30):
        v = _value(b.EXAMPLE_1.witness(_mp(alpha=3, Delta=2, sigma_1=1, sigma_2=2)))
        assert abs(v - mpmath.mpf(6) / 5) < mpmath.mpf(10) ** -25


# --- properties --------------------------------------------------------------------------------------------------


@settings(deadline=None, max_examples=60)
@given(alpha=st.floats(1.01, 30), delta=st.floats(0.01, 5), sigma=st.floats(0.1, 5),
       L=st.floats(0.01, 1), r=st.integers(1, 40))
def test_theorem4_chain_of_bounds(alpha, delta, sigma, L, r):
    """exact ≤ optimal-path (2) ≤ geometric-path (2) ≤ (3) for L ≤ 1 (catalogue-balle.md, balle19.thm4.eq3)."""
    p = _mp(alpha=alpha, Delta=delta, sigma=sigma, L=L, r=r)
    with working_precision(30):
        exact, opt = b.THEOREM_4_EQ2.evaluate(p)
        _, geo = b.THEOREM_4_EQ2_GEOMETRIC.evaluate(p)
        _, eq3 = b.THEOREM_4_EQ3.evaluate(p)
        slack = 1 + mpmath.mpf(10) ** -20
        assert exact.value <= opt + exact.error  # absolute: the engine's error at values ~1e-40 is absolute
        assert opt <= geo * slack and geo <= eq3 * slack


@settings(deadline=None, max_examples=60)
@given(L1=st.floats(0.001, 1), L2=st.floats(0.001, 1), r=st.integers(1, 30))
def test_phi_is_nondecreasing_on_the_unit_interval(L1, L2, r):
    """A, proof of Theorem 4: φ is increasing on (0, 1], which with φ(1) = 1/r gives φ ≤ 1/r."""
    lo, hi = sorted((L1, L2))
    with working_precision(40):
        a = b.phi_value({"L": mpmath.mpf(lo), "r": r})
        c = b.phi_value({"L": mpmath.mpf(hi), "r": r})
        assert a <= c * (1 + mpmath.mpf(10) ** -30)


@settings(deadline=None, max_examples=60)
@given(alpha=st.floats(1.01, 30), delta=st.floats(0.01, 5), s1=st.floats(0.1, 10), s2=st.floats(0.1, 10),
       th=st.floats(0, 1))
def test_example1_bound_is_smallest_at_the_optimal_theta(alpha, delta, s1, s2, th):
    p = _mp(alpha=alpha, Delta=delta, sigma_1=s1, sigma_2=s2)
    f = b.EXAMPLE_1_ANY_W._bound_fn
    with working_precision(30):
        best = p["sigma_1"] ** 2 / (p["sigma_1"] ** 2 + p["sigma_2"] ** 2)
        args = (p["alpha"], p["Delta"], p["sigma_1"], p["sigma_2"])
        assert f(*args, mpmath.mpf(th)) >= f(*args, best) * (1 - mpmath.mpf(10) ** -25)


# --- the printed θ_i (erratum E2) ----------------------------------------------------------------------------------


def test_printed_theta_is_refuted_with_its_erratum():
    report = verify(b.THEOREM_4_THETA)
    assert report.verdict == "violated"
    assert b.THEOREM_4_THETA.erratum.corrected_id == b.THEOREM_4_THETA_CORRECTED.id
    with working_precision(30):
        lhs, rhs = b.THEOREM_4_THETA.evaluate(_mp(L="0.5", r=3, i=3))
        assert abs(lhs - 1) < mpmath.mpf(10) ** -25                 # θ_r = 1: μ_r = ν
        assert abs(rhs - mpmath.mpf(15) / 8) < mpmath.mpf(10) ** -25  # printed: 15/8 (catalogue E2)
        lhs0, rhs0 = b.THEOREM_4_THETA.evaluate(_mp(L="0.5", r=3, i=0))
        assert lhs0 == 0 and abs(rhs0 - 1) < mpmath.mpf(10) ** -25    # printed θ_0 = 1


# --- rendering -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("theorem", TIGHT + [b.GAUSS_RDP, b.THEOREM_4_THETA], ids=lambda t: t.id)
def test_latex_renders(theorem):
    text = theorem.latex()
    assert text.startswith(r"\begin{theorem}") and text.endswith(r"\end{theorem}")
    assert theorem.source.number in text
