"""Bravo, Flores-Mella, Guzmán, Section 3 (shift optimality): theorems, helpers, reference values, derivations.

Seed ../shared/seeds/003_a063a8ea298de6c8.txt; catalogue ../shared/catalogue/catalogue-bravo.md. Reference values are
the catalogue's (its tables and worked instances), or closed forms stated beside them.
"""

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs import bravo as proofs
from symdp import quadrature
from symdp.precision import working_precision
from symdp.theorems import bravo as bv
from symdp.verify import HOLDS, VIOLATED, verify

DPS = 50

TIGHT = [bv.LEMMA_3_5, bv.THEOREM_3_4, bv.THEOREM_3_4_VALUE, bv.LINEAR_CHAIN, bv.COROLLARY_3_7,
         bv.COROLLARY_3_7_REDUCTION, bv.COROLLARY_3_7_LN, bv.HARMONIC, bv.COROLLARY_3_8, bv.LIMIT]
EVERYWHERE = [t for t in bv.THEOREMS if t.tight_everywhere]


def close(x, ref: str, rel: str = "1e-13") -> bool:
    """|x - ref| <= rel·|ref|, with ref a decimal string (the catalogue prints 12–15 digits)."""
    return abs(x - mpmath.mpf(ref)) <= mpmath.mpf(rel) * abs(mpmath.mpf(ref))


def mp_instance(c, h, s2):
    return [mpmath.mpf(x) for x in c], [mpmath.mpf(x) for x in h], [mpmath.mpf(x) for x in s2]


# --- verdicts --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("theorem", bv.THEOREMS, ids=lambda t: t.id)
def test_every_theorem_holds(theorem):
    r = verify(theorem, dps=DPS)
    assert r.verdict == HOLDS, r.reason
    assert r.counterexample is None


@pytest.mark.parametrize("theorem", EVERYWHERE, ids=lambda t: t.id)
def test_identities_are_equalities_at_every_draw(theorem):
    r = verify(theorem, examples=min(20, theorem.default_examples or 100))
    assert r.verdict == HOLDS and r.tight == r.examples


@pytest.mark.parametrize("theorem", TIGHT, ids=lambda t: t.id)
def test_tight_results_are_refuted_when_tightened(theorem):
    r = verify(theorem.tightened(0.99), examples=min(20, theorem.default_examples or 100))
    assert r.verdict == VIOLATED and r.counterexample is not None
    pinned = verify(theorem, examples=0).draws
    assert pinned and all(d.verdict == "tight" for d in pinned[:len(theorem.tight_at)])


def test_local_minimisation_always_reaches_the_optimal_value():
    # Lemma 3.5 is tight at every draw: every local minimisation ends at E(u*) (and bravo.lem3.5.unique: at u*).
    r = verify(bv.LEMMA_3_5, examples=30)
    assert r.verdict == HOLDS and r.tight == r.examples


def test_feasibility_of_u_star_is_strict():
    r = verify(bv.LEMMA_3_5_FEASIBLE)
    assert r.verdict == HOLDS and r.tight == 0 and r.worst.margin > 0


def test_h_terms_of_theorem_3_4_are_loose_on_the_linear_chain():
    # Catalogue bravo.thm3.4: the h-terms are loose; on the linear chain the ratio is < 1 as soon as some h_t > 0.
    # (Draws with only tiny h_t, say 1e-300, are equalities to working precision, so they are left out.)
    r = verify(bv.THEOREM_3_4, examples=40)
    with_h = [d for d in r.draws if max(d.point["structure"]["h"]) > 1e-6]
    assert with_h and all(d.ratio < 1 and d.verdict == "holds" for d in with_h)
    assert all(d.verdict == "tight" for d in r.draws if max(d.point["structure"]["h"]) == 0)


# --- the exact rational instance (catalogue bravo.thm3.4, check 2) ------------------------------------------------
def test_exact_rational_instance():
    c, h, s2, D = [sp.Rational(1, 2), sp.Integer(2)], [sp.Integer(1), sp.Integer(0)], [sp.Integer(1)] * 2, sp.Integer(1)
    assert bv.noise_sums(c, s2) == [3, 1, 0]
    path = bv.optimal_shifts(c, h, s2, D, sqrt=sp.sqrt)
    assert path == [1, sp.sqrt(6) / 6, 0]
    assert sp.simplify(bv.shifts_objective(path[1:-1], c, h, s2, D, sqrt=sp.sqrt) - 1) == 0
    assert bv.theorem_3_4_value(c, h, s2, D) == 1  # 1/3 + 2/3 + 0
    u1 = sp.Symbol("u1", real=True)  # and u1* is where dE/du1 vanishes
    assert sp.simplify(sp.diff(bv.shifts_objective([u1], c, h, s2, D, sqrt=sp.sqrt), u1).subs(u1, path[1])) == 0


# --- Figure 2 (catalogue bravo.thm3.4, check 3) ---------------------------------------------------------------------
def figure_2():
    c, h, s2 = mp_instance([1, 1, 1], [4, 4, 4], ["1", "0.0001", "0.16"])
    return c, h, s2, mpmath.mpf(5)


def test_figure_2_instance():
    with working_precision(DPS):
        c, h, s2, D = figure_2()
        path = bv.optimal_shifts(c, h, s2, D)
        assert close(path[1], "0.743181523681", "1e-11") and close(path[2], "2.13228368398", "1e-11")
        assert path[3] == 0
        assert close(bv.shifts_objective(path[1:3], c, h, s2, D), "74.9822297728862")
        assert close(bv.theorem_3_4_value(c, h, s2, D), "74.9822297728862")


@pytest.mark.parametrize("start", [(0, 10), (-20, -20), (20, -5), (0, 0)])
def test_figure_2_local_minimisation_reaches_u_star_from_outside_R(start):
    # E is not convex on R^2 here (Appendix B; (0, 10) has an indefinite Hessian, catalogue fig2.py).
    with working_precision(DPS):
        c, h, s2, D = figure_2()
        u = bv.local_minimum([mpmath.mpf(x) for x in start], c, h, s2, D)
        star = bv.optimal_shifts(c, h, s2, D)[1:3]
        assert max(abs(x - y) for x, y in zip(u, star)) < mpmath.mpf(10) ** -40


def test_figure_2_hessian_is_indefinite_at_0_10():
    with working_precision(DPS):
        c, h, s2, D = figure_2()
        _, hess = bv._gradient_hessian([mpmath.mpf(0), mpmath.mpf(10)], c, h, s2, D)
        assert hess[0, 0] * hess[1, 1] - hess[0, 1] ** 2 < 0


# --- helpers against independent computations -------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(bv.moduli_with_starts(max_T=6, max_starts=1), st.floats(0.1, 10))
def test_gradient_matches_numerical_differentiation(inst, D):
    with working_precision(30):
        c, h, s2 = mp_instance(inst["c"], inst["h"], inst["sigma2"])
        D = mpmath.mpf(D)
        u = bv.feasible_shifts([0.05 + 0.9 * f for f in inst["starts"][0]], c, h, D)  # away from the kinks
        grad = bv.shifts_gradient(u, c, h, s2, D)
        for t in range(len(u)):
            def along(x, t=t):
                return bv.shifts_objective(u[:t] + [x] + u[t + 1:], c, h, s2, D)
            assert abs(grad[t] - mpmath.diff(along, u[t])) <= mpmath.mpf(10) ** -20 * (1 + abs(grad[t]))


@settings(max_examples=25, deadline=None)
@given(bv.moduli_with_starts(max_T=8, max_starts=3), st.floats(0.1, 10))
def test_sampled_feasible_shifts_are_strictly_worse(inst, D):
    # The catalogue's 53 200 random feasible points: none reaches E(u*) (the minimiser is unique).
    with working_precision(DPS):
        c, h, s2 = mp_instance(inst["c"], inst["h"], inst["sigma2"])
        D = mpmath.mpf(D)
        star = bv.optimal_shifts(c, h, s2, D)
        best = bv.shifts_objective(star[1:-1], c, h, s2, D)
        for f in inst["starts"]:
            u = bv.feasible_shifts(f, c, h, D)
            if max([mpmath.mpf(0)] + [abs(x - y) for x, y in zip(u, star[1:-1])]) > mpmath.mpf(10) ** -10:
                assert bv.shifts_objective(u, c, h, s2, D) > best


def test_linear_chain_law_matches_the_catalogue_closed_form():
    # bravo.id.linchain: X_T ~ N(sqrt(P_0) x_0, S_0).
    with working_precision(DPS):
        c, _, s2 = mp_instance(["0.3", "2.5", "1", "0.7"], [0] * 4, ["0.05", "3", "1", "0.2"])
        law = bv.linear_chain_law(c, s2, mpmath.mpf(2))
        P0, S0 = bv.tail_products(c)[0], bv.noise_sums(c, s2)[0]
        assert abs(law.mean - mpmath.sqrt(P0) * 2) < mpmath.mpf(10) ** -45
        assert abs(law.sd ** 2 - S0) < mpmath.mpf(10) ** -45


def test_linear_chain_renyi_agrees_with_quadrature():
    # The witness of Theorem 3.4 uses the Gaussian closed form; quadrature is an independent route.
    with working_precision(30):
        c, _, s2 = mp_instance(["0.81"] * 5, [0] * 5, ["0.09"] * 5)
        P = bv.linear_chain_law(c, s2, mpmath.mpf("0.5"))
        Q = bv.linear_chain_law(c, s2, mpmath.mpf("-0.5"))
        exact = quadrature.renyi(P, Q, 3, method="quadrature")
        assert close(exact.value, "1.69524312049416", "1e-12")  # catalogue bravo.cor3.8, c = 0.81


def test_u_star_ends_at_zero_exactly():
    with working_precision(DPS):
        c, h, s2 = mp_instance(["0.2", "3", "1.5"], ["0", "2", "0.5"], ["0.01", "10", "1"])
        assert bv.optimal_shifts(c, h, s2, mpmath.mpf(7))[-1] == 0


# --- reference values (catalogue) --------------------------------------------------------------------------------
def _rhs(theorem, point):
    with working_precision(DPS):
        return theorem._bound_fn(*[mpmath.mpf(point[p.name]) if not p.integer else point[p.name]
                                   for p in theorem.parameters])


def test_corollary_3_7_reference_values():
    p = {"alpha": 2, "D": 1, "sigma": 1, "h": "0.04", "T": 10}
    assert close(_rhs(bv.COROLLARY_3_7, p), "0.21715873015873")
    assert close(_rhs(bv.COROLLARY_3_7_LN, p), "0.232103403719762")
    with working_precision(DPS):  # and Theorem 3.4's closed form with c = 1 gives the same number
        n = 10
        value = bv.theorem_3_4_bound(2, [1] * n, [mpmath.mpf("0.04")] * n, [1] * n, 1)
        assert close(value, "0.21715873015873")


@pytest.mark.parametrize("c, ref", [("0.81", "1.69524312049416"), ("1", "3.33333333333333"),
                                    ("1.21", "5.69608882088791")])
def test_corollary_3_8_reference_values(c, ref):
    p = {"alpha": 3, "D": 1, "sigma": "0.3", "T": 5, "c": c}
    assert close(_rhs(bv.COROLLARY_3_8, p), ref)
    with working_precision(DPS):  # attained by the linear chain
        n = 5
        chain = bv.linear_chain_renyi(3, [mpmath.mpf(c)] * n, [mpmath.mpf("0.09")] * n, 1)
        assert close(chain.value, ref)


# --- the c -> 1 limit --------------------------------------------------------------------------------------------
def test_limit_symbolically():
    c, T = bv.c, bv.T
    assert sp.limit(bv.LIMIT_EXPR, c, 1) == 1 / T
    assert sp.limit(bv.LIMIT_EXPR, c, 1, dir="-") == 1 / T


@pytest.mark.parametrize("n", [1, 2, 7, 30])
def test_corollary_3_8_is_continuous_at_c_equal_1(n):
    # (7) at c = 1 ± ε tends to (8): (7) is 1/Σ_{k=1}^T c^{-k}, whose derivative at c = 1 is (T + 1)/(2T) <= 1, so the
    # error is about ε (T + 1)/(2T) (exactly ε for T = 1, where (7) is c itself); 2ε leaves room for the ε² terms.
    with working_precision(DPS):
        for k in range(3, 20, 4):
            for sign in (1, -1):
                x = 1 + sign * mpmath.mpf(10) ** -k
                value = x ** n * (1 - x) / (1 - x ** n)
                assert abs(value - mpmath.mpf(1) / n) <= 2 * mpmath.mpf(10) ** -k


# --- derivations and LaTeX ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("derivation", proofs.DERIVATIONS, ids=lambda d: d.title)
def test_derivations_check(derivation):
    assert derivation.check()
    assert derivation.latex().startswith(r"\begin{align*}")


def test_a_wrong_stationarity_step_is_rejected():
    from symdp.derivation import DerivationError

    bad = proofs.stationarity(3, 1)
    bad.steps[-1] = type(bad.steps[-1])(sp.Integer(0), "wrong ratios", "=", {
        k: v * 2 for k, v in bad.steps[-1].given.items()})
    with pytest.raises(DerivationError):
        bad.check()


@pytest.mark.slow
def test_derivations_for_larger_T():
    assert all(d.check() for d in proofs.derivations(slow=True))


@pytest.mark.parametrize("theorem", bv.THEOREMS, ids=lambda t: t.id)
def test_latex_renders(theorem):
    text = theorem.latex()
    assert text.startswith(r"\begin{theorem}") and text.endswith(r"\end{theorem}")
    assert sp.latex(theorem.statement)
