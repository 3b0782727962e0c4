"""Verdicts decided by enclosures: Arb evaluation of statements (symdp.statement) and adaptive precision
(symdp.verify). The witnesses here return Arb balls computed from definitions (sums, logs), never the bound."""

import mpmath
import pytest
import sympy as sp
from flint import arb, ctx
from hypothesis import given, settings, strategies as st

from symdp.estimate import Estimate
from symdp.estimate import exact_ball as _arb_number
from symdp.statement import arb_evaluable, lambdify_arb, lambdify_mpmath
from symdp.theorem import INDEPENDENT, Param, Source, Theorem
from symdp.verify import HOLDS, INCONCLUSIVE, LOW_DPS, TIGHT, VIOLATED, verify

x = sp.Symbol("x", positive=True)
A = sp.Symbol("A")
X = Param(x, sp.Interval.open(0, sp.oo), sample=(0.01, 100))
SRC = Source("none", "toy")


def _ball_witness(f):
    """A witness returning ``f(x)`` computed in Arb at the working precision, as a certified Estimate."""
    def witness(p):
        saved = ctx.prec
        ctx.prec = mpmath.mp.prec + 10
        try:
            return Estimate.from_arb(f(arb(p["x"])), "certified")
        finally:
            ctx.prec = saved
    return witness


# x + 1/x >= 2 (AM-GM): equality at x = 1 only.
AMGM = Theorem("toy.cert.amgm", "x + 1/x >= 2", SRC, sp.Ge(A, 2), witness=_ball_witness(lambda b: b + 1 / b),
               parameters=(X,), tight_at=({"x": 1},), evidence=INDEPENDENT)
# log(1 + x) <= x: loose away from 0.
LOG = Theorem("toy.cert.log", "log(1 + x) <= x", SRC, sp.Le(A, x), witness=_ball_witness(lambda b: (1 + b).log()),
              parameters=(X,), evidence=INDEPENDENT)
# log(1 + x) >= x - x^2/3: false for large x... and for x near 1.7 it already fails (x - x^2/3 > log(1+x)).
FALSE = Theorem("toy.cert.false", "log(1 + x) >= x - x^2/4", SRC, sp.Ge(A, x - x**2 / 4),
                witness=_ball_witness(lambda b: (1 + b).log()), parameters=(X,), evidence=INDEPENDENT)


def test_loose_draws_are_certified_at_low_precision():
    r = verify(LOG, examples=30)
    assert r.verdict == HOLDS and r.certified and r.certified_examples == r.examples
    assert {d.dps for d in r.draws} == {LOW_DPS}
    assert r.to_json()["certified"] is True


def test_tight_draw_is_recomputed_at_working_precision_and_called_tight():
    r = verify(AMGM, examples=20, dps=40)
    tight = [d for d in r.draws if d.point == {"x": 1}]
    assert tight and tight[0].verdict == TIGHT and tight[0].dps == 40 and tight[0].certified
    assert r.verdict == HOLDS and r.certified   # equal to working precision, proved by two overlapping enclosures
    assert tight[0].tight_by == "enclosures-overlap" and r.certified_tight == {"enclosures-overlap": 1}
    loose = [d for d in r.draws if d.verdict == HOLDS]
    assert loose and all(d.certified and d.dps == LOW_DPS for d in loose)


def test_tightened_tight_bound_is_refuted_by_a_certified_counterexample():
    r = verify(AMGM.tightened(0.99), examples=20)
    assert r.verdict == VIOLATED and r.counterexample == {"x": 1} and r.certified


def test_false_bound_is_refuted_and_the_counterexample_really_violates():
    r = verify(FALSE, examples=100)
    assert r.verdict == VIOLATED and r.certified
    c = mpmath.mpf(repr(r.counterexample["x"]))
    with mpmath.workdps(60):
        assert mpmath.log(1 + c) < c - c**2 / 4


def test_uncertified_witness_or_statement_takes_the_estimated_path():
    plain = Theorem("toy.plain", "", SRC, sp.Le(A, x), witness=lambda p: mpmath.log(1 + p["x"]), parameters=(X,),
                    evidence=INDEPENDENT)
    r = verify(plain, examples=10)
    assert r.verdict == HOLDS and r.certified_examples == 0 and not r.certified
    piecewise = Theorem("toy.heaviside", "", SRC, sp.Le(A, x + 1 - sp.Heaviside(x - 1)),   # outside Arb
                        witness=LOG.witness, parameters=(X,), evidence=INDEPENDENT)
    assert not arb_evaluable(piecewise.statement.rhs)
    r = verify(piecewise, examples=10)
    assert r.verdict == HOLDS and r.certified_examples == 0


def test_every_uncertified_verdict_names_its_reason_as_data():
    assert verify(LOG, examples=10).to_json()["uncertified"] == {}     # certified: nothing to explain
    plain = Theorem("toy.plain", "", SRC, sp.Le(A, x), witness=lambda p: mpmath.log(1 + p["x"]), parameters=(X,),
                    evidence=INDEPENDENT)
    r = verify(plain, examples=10)
    # an mpmath witness is no ball: the first three draws say so, the later ones do not try
    assert r.uncertified == {"not-attempted": r.examples - 3, "quantity-not-enclosed": 3}
    piecewise = Theorem("toy.heaviside", "", SRC, sp.Le(A, x + 1 - sp.Heaviside(x - 1)),   # outside Arb
                        witness=LOG.witness, parameters=(X,), evidence=INDEPENDENT)
    assert set(verify(piecewise, examples=10).to_json()["uncertified"]) <= {"bound-not-enclosed", "not-attempted"}
    r = verify(AMGM, examples=10, dps=40)   # tight at x = 1 to working precision: the enclosures overlap
    assert r.uncertified == {} and r.to_json()["certified_tight"] == {"enclosures-overlap": 1}
    assert [d["tight_by"] for d in r.to_json(draws=True)["draws"] if d["point"] == {"x": 1}] == ["enclosures-overlap"]


def test_a_wide_ball_decides_nothing():
    wide = Theorem("toy.wide", "", SRC, sp.Le(A, 1), witness=lambda p: Estimate(mpmath.mpf("0.99"),
                                                                                  mpmath.mpf("0.1"), "certified",
                                                                                  certified=True),
                   parameters=(X,), evidence=INDEPENDENT)
    r = verify(wide, examples=5)
    assert r.verdict == INCONCLUSIVE and "within the error" in r.reason and r.certified_examples == 0


y = sp.Symbol("y", positive=True)
n = sp.Symbol("n", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)
EXPRESSIONS = [
    sp.exp(x) * sp.log(1 + y) / 3 + sp.sqrt(x) * sp.pi,
    sp.Max(x, y) - sp.Min(x, 1) + sp.Abs(x - y) + sp.E,
    x ** sp.Rational(3, 2) + sp.tanh(x) * sp.cosh(y) - sp.sinh(x / 7) + sp.erf(y) + sp.erfc(x),
    sp.Sum(1 / (i + x), (i, 1, n)) + sp.gamma(y + 1) + sp.atan(x) + sp.Float("0.1") * y ** 3,
    x * (sp.exp(y) - 1) - 2 * x * y / (1 + x) + y ** (-2),
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(EXPRESSIONS), st.floats(0.01, 20), st.floats(0.01, 20), st.integers(1, 30))
def test_arb_sides_enclose_the_60_digit_value(expr, xv, yv, nv):
    """The Arb side, at ~50 digits, encloses the mpmath value at 80 digits (a reference by another library)."""
    f = lambdify_arb([x, y, n], expr)
    g = lambdify_mpmath([x, y, n], expr)
    saved = ctx.prec
    ctx.prec = 170
    try:
        ball = f(arb(xv), arb(yv), arb(nv))
    finally:
        ctx.prec = saved
    with mpmath.workdps(80):
        ref = g(mpmath.mpf(xv), mpmath.mpf(yv), mpmath.mpf(nv))
        mid = mpmath.mpf(ball.mid().str(70, radius=False))
        rad = mpmath.mpf(ball.rad().str(5, radius=False))
        assert abs(ref - mid) <= rad * 1.001 + abs(ref) * mpmath.mpf(10) ** -68
    assert rad <= abs(ref) * mpmath.mpf(10) ** -40 + mpmath.mpf(10) ** -45


@pytest.mark.parametrize("value", ["-2.5", "-1", "0", "3", "-1e-300", "7e300", "0.1"])
def test_parameters_enter_as_the_exact_binary_number(value):
    v = mpmath.mpf(value)
    ball = _arb_number(v)
    assert ball.is_exact()
    assert Estimate.from_arb(ball, "exact").value == v


def test_max_of_overlapping_balls_encloses_both():
    f = lambdify_arb([x, y], sp.Max(x, y))
    a, b = arb(1, 0.5), arb("1.2", 0.5)
    out = f(a, b)
    assert out.contains(arb("1.6")) and out.contains(arb("1.1"))


@pytest.mark.parametrize("expr", [sp.Heaviside(x - y), sp.Function("f")(x)])
def test_operations_arb_cannot_bound_are_refused(expr):
    assert lambdify_arb([x, y], expr) is None


def test_ceiling_and_floor_are_balls_only_where_one_integer_is_proved():
    from symdp.statement import Uncertain

    f = lambdify_arb([x], sp.ceiling(sp.log(1 / x, 2)) + sp.floor(x))
    assert f(arb("0.3")) == 2   # log2(1/0.3) = 1.74 -> 2, floor(0.3) = 0
    assert f(arb("0.25")) == 2 and f(arb("0.25")).is_exact()   # an exact power of 2: log2(1/0.25) = 2 exactly
    with pytest.raises(Uncertain):   # a ball around 1/4: its log2 straddles 2, on either side of the ceiling
        f(arb("0.25", 1e-30))


def test_piecewise_takes_the_piece_whose_condition_the_balls_prove():
    from symdp.statement import Uncertain

    f = lambdify_arb([x, y], sp.Piecewise((x**2, (x > 1) & (y <= 2)), (sp.exp(x), True)))
    assert f(arb(2), arb(2)) == 4 and f(arb(3), arb(3)).overlaps(arb(3).exp()) and f(arb(1), arb(0)).overlaps(arb(1).exp())
    with pytest.raises(Uncertain):   # x = 1 +- 1e-10 may lie on either side of the cut: no piece is proved
        f(arb(1, 1e-10), arb(0))
    bound = Theorem("toy.piecewise", "", SRC, sp.Le(A, sp.Piecewise((x, x > 1), (2 * x, True))),
                    witness=LOG.witness, parameters=(X,), evidence=INDEPENDENT)
    r = verify(bound, examples=20)
    assert r.verdict == HOLDS and r.certified


def test_each_certified_draw_says_whether_its_laws_were_built_exactly():
    from symdp.statement import BuiltExactly

    exact = Theorem("toy.cert.exact", "log(1 + x) <= x", SRC, sp.Le(A, x), parameters=(X,), evidence=INDEPENDENT,
                    witness=lambda p: BuiltExactly(LOG.witness(p)))
    for theorem, construction in ((LOG, "rounded"), (exact, "exact")):
        r = verify(theorem, examples=10)
        assert r.certified and r.to_json()["construction"] == {construction: r.examples}
        assert {d["construction"] for d in r.to_json(draws=True)["draws"]} == {construction}
    plain = Theorem("toy.plain", "", SRC, sp.Le(A, x), witness=lambda p: mpmath.log(1 + p["x"]), parameters=(X,),
                    evidence=INDEPENDENT)
    assert verify(plain, examples=5).construction == {}   # an uncertified draw says nothing of it


def test_exact_infinities_are_decided_by_enclosures():
    B = sp.Symbol("B")
    infinite = Estimate(mpmath.inf, mpmath.mpf(0), "exact", certified=True)   # mismatched supports, decided exactly
    same = Theorem("toy.cert.inf", "", SRC, sp.Eq(A, B), parameters=(X,), evidence=INDEPENDENT,
                   witness=lambda p: {A: infinite, B: infinite})
    r = verify(same, examples=5)
    assert r.verdict == HOLDS and r.certified and r.certified_tight == {"proved-equal": r.examples}
    beyond = Theorem("toy.cert.inf.le", "", SRC, sp.Le(A, x), parameters=(X,), evidence=INDEPENDENT,
                     witness=lambda p: infinite)
    r = verify(beyond, examples=5)
    assert r.verdict == VIOLATED and r.certified
    estimated = Theorem("toy.inf.estimated", "", SRC, sp.Eq(A, B), parameters=(X,), evidence=INDEPENDENT,
                        witness=lambda p: {A: Estimate(mpmath.inf, mpmath.mpf(0)), B: infinite})
    assert not verify(estimated, examples=3).certified   # an infinity not proved proves nothing
