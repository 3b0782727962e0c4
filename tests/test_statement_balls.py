"""Sides evaluated in Arb balls (symdp.statement): what one draw's evaluation computes, and that it is still proved."""

import mpmath
import sympy as sp

from symdp.estimate import Estimate
from symdp.expressions import KL
from symdp.statement import BuiltExactly, CompiledStatement

EPS = sp.Symbol("epsilon", real=True)
D, DP = sp.symbols("D D'")


def _counted(side, name):
    calls = []
    original = getattr(side, name)

    def counting(*args):
        calls.append(args)
        return original(*args)

    setattr(side, name, counting)
    return calls


def _statement():
    s = CompiledStatement(sp.Le(KL(D, DP), EPS * (sp.exp(EPS) - 1) / 2), parameters=())
    s.rhs.ball([], [])   # compiled on first use
    return s, _counted(s.rhs, "_arb_f"), _counted(s.rhs, "f")


def _certified(value):
    return Estimate(mpmath.mpf(value), mpmath.mpf(0), "exact", certified=True)


def test_a_side_of_laws_built_exactly_is_one_ball_evaluation_and_no_mpmath_one():
    s, balls, floats = _statement()
    with mpmath.workdps(50):
        output = {KL(D, DP): BuiltExactly(_certified("0.25")), "epsilon": BuiltExactly(_certified(1))}
        _, rhs, _ = s.evaluate({}, output)
    with mpmath.workdps(80):   # (the ball is proved to 50 digits: the closed form it is checked against, to more)
        closed_form = (mpmath.e - 1) / 2   # eps (e^eps - 1) / 2 at eps = 1
        assert rhs.certified and abs(rhs.value - closed_form) <= rhs.error < mpmath.mpf(10) ** -45
        assert rhs.floored[0] <= closed_form <= rhs.floored[1]   # the same ball: nothing to widen
    assert len(balls) == 1 and not floats


def test_a_side_of_rounded_laws_is_widened_by_a_second_ball_and_still_encloses_the_closed_form():
    s, balls, floats = _statement()
    with mpmath.workdps(50):
        _, rhs, _ = s.evaluate({}, {KL(D, DP): _certified("0.25"), "epsilon": _certified(1)})
    with mpmath.workdps(80):
        assert rhs.certified and abs(rhs.value - (mpmath.e - 1) / 2) <= rhs.error
        low, high = rhs.floored
        assert low < rhs.value - rhs.error and high > rhs.value + rhs.error   # widened by the construction floor
    assert len(balls) == 2 and not floats


def test_a_side_outside_arb_is_still_evaluated_in_mpmath():
    s, balls, floats = _statement()
    with mpmath.workdps(50):
        estimate = Estimate(mpmath.mpf(1), mpmath.mpf("1e-30"), "quadrature")   # not an enclosure
        _, rhs, _ = s.evaluate({}, {KL(D, DP): _certified("0.25"), "epsilon": estimate})
    assert not rhs.certified and len(floats) >= 1 and not balls
    assert abs(rhs.value - (mpmath.e - 1) / 2) < mpmath.mpf(10) ** -40


def test_a_ceiling_of_log2_at_a_dyadic_point_is_one_integer_in_balls():
    """ceil(log2(1/eps)) at eps = 1/8 is exactly 3 (Bravo et al.'s mixing-time bounds, Prop. A.14 and Thm 4.2): a
    ball around log(8)/log(2) straddles 3 and could not say so; at eps = 0.3 it is 2 (log2(10/3) = 1.737)."""
    from flint import arb

    from symdp.statement import lambdify_arb

    f = lambdify_arb([EPS], sp.ceiling(sp.log(1 / EPS, 2)))
    assert f(arb(1) / 8) == 3 and f(arb(1) / 8).is_exact()
    assert f(arb(3) / 10) == 2


def test_the_square_root_of_a_sum_of_squares_of_balls_near_0_is_a_ball_not_nan():
    """sqrt(τ₁² + τ₂²) (dwork.lem2.2's bound) at τ₁ = 3.3e-156 and τ₂ = 0, each widened by a construction floor of
    4e-50: the sum of the squares reaches 1.7e-108 below 0 by rounding, where Arb's square root is NaN, and the bound
    was not enclosed. SymPy proves the base non-negative, so only its non-negative part is taken; a base it cannot
    prove so (τ₁ - τ₂) keeps Arb's NaN below 0."""
    from flint import arb

    from symdp.statement import lambdify_arb

    t1, t2 = sp.symbols("tau_1 tau_2", real=True)
    f = lambdify_arb([t1, t2], sp.sqrt(t1 ** 2 + t2 ** 2))
    x, y = arb("3.3e-156", "4e-50"), arb("2e-50", "2e-50")
    assert not (x ** 2 + y ** 2).sqrt().is_finite()   # Arb alone
    value = f(x, y)
    assert value.is_finite() and value.contains(0) and value.contains(arb("3.3e-156")) and value.upper() < 1e-49
    assert not lambdify_arb([t1, t2], sp.sqrt(t1 - t2))(arb(0, 1e-60), arb(0)).is_finite()


def test_a_side_that_is_plus_infinity_plus_a_finite_ball_is_a_proved_infinity():
    """R + eps with R a certified exact +oo (a Rényi divergence of mismatched supports) is +oo, proved; R - R is not
    (NaN), and an estimated R proves nothing."""
    R = KL(DP, D)   # a second measured atom, as the bound's divergence
    s = CompiledStatement(sp.Le(KL(D, DP), R + EPS), parameters=())
    infinite = Estimate(mpmath.inf, mpmath.mpf(0), "exact", certified=True)
    with mpmath.workdps(50):
        _, rhs, _ = s.evaluate({}, {KL(D, DP): _certified("0.25"), R: infinite, "epsilon": _certified("0.1")})
        _, estimated, _ = s.evaluate({}, {KL(D, DP): _certified("0.25"), R: Estimate(mpmath.inf, mpmath.mpf(0)),
                                          "epsilon": _certified("0.1")})
    assert rhs.value == mpmath.inf and rhs.certified and rhs.floored == (mpmath.inf, mpmath.inf)
    assert estimated.value == mpmath.inf and not estimated.certified
