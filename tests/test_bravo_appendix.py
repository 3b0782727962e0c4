"""Bravo et al., Appendix A: Pinsker, Bretagnolle–Huber and the remark comparing them.

References are computed here by hand (sums over a fixed pair, a root found by mpmath.findroot), never symdp's output.
"""

import mpmath
import sympy as sp
from dataclasses import replace

from symdp.precision import working_precision
from symdp.theorems.bravo import appendix as bv
from symdp.theorems import get
from symdp.verify import HOLDS, VIOLATED, evaluate_point, verify


def test_the_witness_measures_tv_and_kl_of_the_drawn_laws():
    point = {"structure": {"p": [0.2, 0.3, 0.5], "q": [0.4, 0.4, 0.2]}}
    with working_precision(30):
        values = bv.tv_and_kl(point)
        p, q = [mpmath.mpf(x) for x in ("0.2", "0.3", "0.5")], [mpmath.mpf(x) for x in ("0.4", "0.4", "0.2")]
        tv = mpmath.fsum(abs(a - b) for a, b in zip(p, q)) / 2
        kl = mpmath.fsum(a * mpmath.log(a / b) for a, b in zip(p, q))
        assert abs(values[bv.TV(bv.mu_, bv.nu_)].value - tv) < mpmath.mpf(10) ** -25
        assert abs(values[bv.KL(bv.mu_, bv.nu_)].value - kl) < mpmath.mpf(10) ** -25


def test_pinsker_is_sharp_only_near_zero_and_a_tightened_copy_is_refuted_there():
    assert evaluate_point(bv.pinsker, bv.CLOSE_PAIR).verdict == HOLDS
    tighter = replace(bv.pinsker, id="test.pinsker.tighter",
                      statement=sp.Le(bv.TV(bv.mu_, bv.nu_), sp.Rational(99, 100) * sp.sqrt(bv.KL(bv.mu_, bv.nu_) / 2)))
    assert evaluate_point(tighter, bv.CLOSE_PAIR).verdict == VIOLATED
    assert verify(bv.bretagnolle_huber, examples=20).verdict == HOLDS


def test_the_bounds_cross_where_x_over_2_equals_1_minus_exp_minus_x():
    with working_precision(40):
        root = mpmath.findroot(lambda x: x / 2 - (1 - mpmath.exp(-x)), 1.6)
        assert abs(mpmath.mpf(str(bv.BH_CROSSING.evalf(45))) - root) < mpmath.mpf(10) ** -35
        assert mpmath.nstr(root, 6) == "1.59362"   # catalogue bravo.propA.4 (E10)
    printed = get("bravo.propA.4.remark")
    r = evaluate_point(printed, {"x": 1.8})   # sqrt(1 - e^-1.8) = 0.9137 < sqrt(0.9) = 0.9487
    assert r.verdict == VIOLATED
    assert verify(get("bravo.propA.4.remark.corrected"), examples=50).verdict == HOLDS
