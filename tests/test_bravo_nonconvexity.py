"""Bravo et al., Appendix B and Section 3.2: the Hessian of g_{t-1} and of E (catalogue bravo.propB.1,
bravo.sec3.2.hess).

References: the catalogue's eigenvalues of Figure 2 and its R-counterexample, closed forms worked by hand below, the
Hessian of E by central differences of E written here, and SymPy's own hessian for the printed (E11) matrix.
"""

import mpmath
import pytest
import sympy as sp

from symdp.errors import InvalidParameter
from symdp.precision import working_precision
from symdp.proofs.bravo import nonconvexity as proof
from symdp.theorems import get
from symdp.theorems.bravo import nonconvexity as bv
from symdp.verify import HOLDS, TIGHT, VIOLATED, evaluate_point, verify


@pytest.mark.parametrize("derivation", proof.DERIVATIONS, ids=lambda d: d.title)
def test_derivations_check_exactly(derivation):
    assert derivation.check()


def test_the_printed_matrix_with_h_t_is_not_the_hessian_of_g_t_minus_1():
    hess = sp.hessian(proof.g(), (proof.u_prev, proof.u_t))
    printed = proof.printed_hessian(proof.h_t)
    at = {proof.u_prev: 1, proof.u_t: 1, proof.h_prev: 4, proof.h_t: 1}
    assert sp.nsimplify(hess[0, 0].subs(at)) == 2 - sp.Rational(8, 5) / sp.sqrt(5)   # 2 - 2*4*1/5^{3/2}
    assert sp.simplify((hess[0, 0] - printed[0, 0]).subs(at)) != 0
    assert sp.simplify(hess - proof.printed_hessian(proof.h_prev)) == sp.zeros(2, 2)


def test_the_printed_copy_is_refuted_at_its_counterexample_and_agrees_where_h_t_equals_h_t_minus_1():
    printed = get("bravo.propB.1.printed")
    assert evaluate_point(printed, bv.E11_COUNTEREXAMPLE).verdict == VIOLATED
    same = {**bv.E11_COUNTEREXAMPLE, "h_t": 4.0, "xi_2": -0.5}
    assert evaluate_point(printed, same).verdict in (HOLDS, TIGHT)


def test_the_numerical_hessian_form_against_the_closed_form():
    with working_precision(30):
        point = {k: mpmath.mpf(v) for k, v in bv.E11_COUNTEREXAMPLE.items()}
        value = bv.hessian_form(point)[bv.HessianForm()]
        assert abs(value - (2 - 8 / mpmath.mpf(5) ** 1.5)) < mpmath.mpf(10) ** -15


def _E(u, c, h, s2, D):
    path = [D, *u, 0]
    return sum((mpmath.sqrt(c[t - 1] * path[t - 1] ** 2 + h[t - 1]) - path[t]) ** 2 / s2[t - 1]
               for t in range(1, len(c) + 1))


def test_the_compiled_hessian_of_E_against_differences_of_E():
    c = [mpmath.mpf(x) for x in ("0.7", "1.9", "1.2", "0.4")]
    h = [mpmath.mpf(x) for x in ("0.5", "0", "1.5", "2")]
    s2 = [mpmath.mpf(x) for x in ("0.3", "2.5", "0.05", "1")]
    u, D = [mpmath.mpf(x) for x in ("1.1", "0.8", "0.3")], mpmath.mpf(2)
    with working_precision(30):
        H = mpmath.matrix(bv._compiled_hessian(4)(D, c, h, s2, u))
        for i in range(3):
            for j in range(3):
                order = [0, 0, 0]
                order[i] += 1
                order[j] += 1
                ref = mpmath.diff(lambda *v: _E(list(v), c, h, s2, D), u, tuple(order))
                assert abs(H[i, j] - ref) < mpmath.mpf(10) ** -15 * (1 + abs(ref))


def test_figure_2_eigenvalues_are_the_catalogues():
    s = bv.FIGURE_2["structure"]
    with working_precision(30):
        c, h, s2 = ([mpmath.mpf(str(x)) for x in s[k]] for k in ("c", "h", "sigma2"))
        H = mpmath.matrix(bv._compiled_hessian(3)(mpmath.mpf(5), c, h, s2, [mpmath.mpf(0), mpmath.mpf(10)]))
        low, high = sorted(mpmath.eigsy(H, eigvals_only=True))
        assert abs(low + 79998) < 1e-20 and abs(high - mpmath.mpf("20012.5")) < 1e-20   # catalogue bravo.propB.1
        # u* of (4): S_0 = 1.1601, S_1 = 0.1601, S_2 = 0.16 (c = 1), u*_t = S_t/S_{t-1} phi(u*_{t-1})
        u1 = mpmath.mpf("0.1601") / mpmath.mpf("1.1601") * mpmath.sqrt(29)
        u2 = mpmath.mpf("0.16") / mpmath.mpf("0.1601") * mpmath.sqrt(u1 ** 2 + 4)
        H = mpmath.matrix(bv._compiled_hessian(3)(mpmath.mpf(5), c, h, s2, [u1, u2]))
        low, high = sorted(mpmath.eigsy(H, eigvals_only=True))
        assert mpmath.nstr(low, 3) == "12.9" and round(high) == 22439   # catalogue: (12.9, 22 439)
    assert evaluate_point(get("bravo.propB.1.E"), {}).verdict == HOLDS


def test_the_midpoint_of_two_points_of_R_is_outside_R():
    with working_precision(30):
        excess = bv.midpoint_excess({k: mpmath.mpf(v) for k, v in bv.R_NONCONVEX_PIN.items()})
        assert abs(excess.value - ((2 + mpmath.sqrt(20)) / 2 - mpmath.sqrt(8))) < mpmath.mpf(10) ** -25   # 0.40759
    assert evaluate_point(bv.r_nonconvex, bv.R_NONCONVEX_PIN).verdict == HOLDS
    # a > sqrt(D^2 + h) puts the second point outside R: the side condition says so before the witness runs
    with pytest.raises(InvalidParameter, match=r"does not satisfy the side conditions a <= sqrt\(D\*\*2 \+ h\)"):
        evaluate_point(bv.r_nonconvex, {"D": 1.0, "h": 1.0, "a": 3.0})


def test_the_hessian_of_E_is_positive_definite_on_R_and_not_off_it():
    assert verify(bv.hessian_on_r, examples=30).verdict == HOLDS
    boundary = {"D": 1.0, "structure": {"c": [1.0, 1.0, 1.0], "h": [4.0, 4.0, 4.0], "sigma2": [1.0, 1e-4, 0.16],
                                        "fractions": [1.0, 1.0]}}
    assert evaluate_point(bv.hessian_on_r, boundary).verdict == HOLDS
    with pytest.raises(InvalidParameter, match="fractions"):
        evaluate_point(bv.hessian_on_r, {**boundary, "structure": {**boundary["structure"], "fractions": [1.5, 1.0]}})


def test_the_midpoint_excess_is_a_certified_enclosure():
    with working_precision(30):
        excess = bv.midpoint_excess(bv.R_NONCONVEX_PIN)
        with mpmath.workdps(60):   # the catalogue's instance, by hand (to more digits than the enclosure's)
            expected = (2 + mpmath.sqrt(20)) / 2 - mpmath.sqrt(8)
        low, high = (mpmath.fsub(excess.value, excess.error, exact=True),
                     mpmath.fadd(excess.value, excess.error, exact=True))   # the ends, unrounded
        assert excess.certified and low <= expected <= high
    assert evaluate_point(bv.r_nonconvex, bv.R_NONCONVEX_PIN).certified


def test_the_least_eigenvalue_of_a_ball_matrix_is_enclosed():
    from flint import arb

    from symdp.estimate import in_balls

    with working_precision(30), in_balls():
        # [[2, 1], [1, 2]]: eigenvalues 1 and 3 (by hand); a ball entry widens the enclosure, never loses 1
        exact = bv.min_eigenvalue_ball([[arb(2), arb(1)], [arb(1), arb(2)]])
        assert exact.contains(1) and exact.rad() < 1e-13
        wide = bv.min_eigenvalue_ball([[arb(2) + arb(0, 1e-20), arb(1)], [arb(1), arb(2)]])
        assert wide.contains(1) and wide.rad() < 1e-13
        # [[1, 0], [0, -4]]: -4 (a diagonal matrix)
        assert bv.min_eigenvalue_ball([[arb(1), arb(0)], [arb(0), arb(-4)]]).contains(-4)


def test_figure_2_least_eigenvalue_is_a_certified_enclosure_of_the_catalogues():
    # ∂²E/∂u_1² at (0, 10) = 2/σ_0² + (2/σ_1²)(φ_1(0) − 10)φ_1''(0) = 2 − 2·10⁴·4 = −79 998 (by hand, σ_1 = 0.01 read
    # as a decimal), the matrix diagonal there (φ_1'(0) = 0)
    from symdp.statement import BuiltExactly

    with working_precision(30):
        measured = bv.figure_2.witness({})
    assert isinstance(measured, BuiltExactly) and measured.value.certified
    estimate = measured.value
    assert abs(estimate.value + 79998) < mpmath.mpf(10) ** -6 and estimate.error < mpmath.mpf(10) ** -8
    result = evaluate_point(bv.figure_2, {})
    assert result.verdict == HOLDS and result.certified


def test_the_hessian_on_R_is_decided_by_enclosures():
    report = verify(bv.hessian_on_r, examples=20)
    assert report.verdict == HOLDS and report.certified
