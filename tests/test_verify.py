"""The verdict logic of symdp.verify on theorems whose truth we know."""

import re
import sys

import mpmath
import pytest
import sympy as sp

from symdp.theorem import Param, Theorem
from symdp.verify import HOLDS, INCONCLUSIVE, VIOLATED, evaluate_point, verify
from tests import toy_theorems as toy


def test_true_bound_holds_and_reports_its_tight_instance():
    r = verify(toy.AMGM, examples=40)
    assert r.verdict == HOLDS
    tight = [d.point for d in r.draws if d.verdict == "tight"]
    assert {"x": 1} in tight and r.tight == len(tight)  # x = 1 is pinned and is an equality
    assert r.counterexample is None
    assert abs(r.worst_margin) <= r.worst.error


def test_tightened_tight_bound_is_refuted_at_the_tight_instance():
    r = verify(toy.AMGM.tightened(0.99), examples=40)
    assert r.verdict == VIOLATED
    assert r.counterexample == {"x": 1}


def test_false_bound_is_refuted_with_a_shrunk_counterexample_that_really_violates():
    r = verify(toy.FALSE_BOUND, examples=200)
    assert r.verdict == VIOLATED
    x = mpmath.mpf(repr(r.counterexample["x"]))
    assert x + 1 / x > 3
    # hypothesis shrinks towards simple floats (3.0, 0.25, ...), not an arbitrary 17-digit draw
    assert len(repr(r.counterexample["x"])) <= 5


def test_identity_draws_are_tight_and_a_perturbed_identity_is_violated():
    r = verify(toy.IDENTITY, examples=30)
    assert r.verdict == HOLDS and r.tight == r.examples
    wrong = Theorem("toy.wrong", "", toy.SRC, sp.Eq(toy.A, toy.x**2 + 2 * toy.x + 1 + sp.Rational(1, 10**30)),
                    witness=toy.IDENTITY.witness, parameters=toy.IDENTITY.parameters)
    assert verify(wrong, examples=5).verdict == VIOLATED


def test_error_larger_than_margin_is_inconclusive_and_says_what_would_settle_it():
    r = verify(toy.NOISY, examples=5)
    assert r.verdict == INCONCLUSIVE
    assert "within the error" in r.reason and "--dps" in r.reason


def test_side_conditions_filter_draws():
    r = verify(toy.CONDITIONED, examples=30)
    assert r.verdict == HOLDS
    assert all(mpmath.mpf(repr(d.point["x"])) >= 2 for d in r.draws)


def test_unsatisfiable_conditions_are_inconclusive_not_holding():
    t = Theorem("toy.unsat", "", toy.SRC, sp.Ge(toy.A, 0), witness=lambda p: p["x"],
                parameters=(Param(toy.x, sp.Interval(1, 2)),), conditions=(sp.Ge(toy.x, 5),))
    r = verify(t, examples=20)
    assert r.verdict == INCONCLUSIVE


def test_printed_erratum_is_refuted_by_its_recorded_counterexample():
    r = verify(toy.PRINTED_WRONG, examples=0)
    assert r.verdict == VIOLATED and r.counterexample == {"x": 1}


def test_theorem_without_parameters_is_one_evaluation():
    r = verify(toy.CONSTANT)
    assert r.verdict == HOLDS and r.examples == 1


def test_runs_are_deterministic_for_a_seed():
    a = verify(toy.FALSE_BOUND, examples=100, seed=7)
    b = verify(toy.FALSE_BOUND, examples=100, seed=7)
    assert a.counterexample == b.counterexample and a.examples == b.examples


def test_error_estimate_sees_a_precision_dependent_witness():
    # A witness that loses 40 digits: at 50 digits it is off by 1e-10, at 65 by 1e-25. The two-precision
    # comparison must report an error near 1e-10, so the equality is neither "tight" nor "violated".
    t = Theorem("toy.lossy", "", toy.SRC, sp.Eq(toy.A, sp.Rational(1, 3)),
                witness=lambda p: mpmath.mpf(1) / 3 + mpmath.mpf(10) ** (-mpmath.mp.dps + 40))
    r = evaluate_point(t, {}, dps=50)
    assert r.verdict == INCONCLUSIVE and r.error > 1e-11
    # A witness off by a fixed 1e-20 at every precision is a genuine discrepancy: violated.
    off = Theorem("toy.off", "", toy.SRC, sp.Eq(toy.A, sp.Rational(1, 3)),
                  witness=lambda p: mpmath.mpf(1) / 3 + mpmath.mpf(10) ** -20)
    assert evaluate_point(off, {}, dps=50).verdict == VIOLATED


def test_statement_must_be_a_relation_and_what_is_not_a_parameter_must_be_measured():
    with pytest.raises(ValueError, match="relation"):
        Theorem("bad", "", toy.SRC, toy.A + 1, witness=lambda p: 0)
    with pytest.raises(ValueError, match="not parameters"):
        Theorem("bad", "", toy.SRC, sp.Le(toy.A, sp.Symbol("y")))
    y = sp.Symbol("y")
    two = Theorem("bad", "", toy.SRC, sp.Le(toy.A, y), witness=lambda p: 0)
    with pytest.raises(ValueError, match="one value, but the statement measures 2"):
        two.evaluate({})
    with pytest.raises(ValueError, match="did not measure y"):
        Theorem("bad", "", toy.SRC, sp.Le(toy.A, y), witness=lambda p: {toy.A: 0}).evaluate({})
    with pytest.raises(ValueError, match="measured z, which the statement"):
        Theorem("bad", "", toy.SRC, sp.Le(toy.A, y), witness=lambda p: {"A": 0, "y": 1, "z": 2}).evaluate({})


def test_the_bound_is_the_statement_evaluated_at_the_measured_values():
    # The right side is evaluated from the SymPy statement at what the witness measured: nothing else.
    y = sp.Symbol("y")
    t = Theorem("toy.measured", "", toy.SRC, sp.Le(toy.A, sp.exp(y) - 1), witness=lambda p: {"A": 1, "y": 2})
    lhs, rhs, values = t.measure({})
    assert lhs.value == 1 and rhs.value == mpmath.exp(2) - 1 and values == {"A": 1, "y": 2}


def test_integer_parameters_reach_the_bound_at_working_precision():
    # 1/r with a Python int r would be a 16-digit float: the equality 1/r = 1/r computed in mpmath must be tight.
    r = sp.Symbol("r", integer=True, positive=True)
    t = Theorem("toy.int", "", toy.SRC, sp.Eq(toy.A, 1 / r), witness=lambda p: mpmath.mpf(1) / p["r"],
                parameters=(Param(r, sp.Range(1, 50)),))
    report = verify(t, examples=20)
    assert report.verdict == HOLDS and report.tight == report.examples


def test_bounds_with_sums_over_an_integer_parameter():
    # sum_{i=1}^r 2^-i = 1 - 2^-r exactly: a Sum whose upper limit is a parameter must lambdify and stay exact.
    r, i = sp.Symbol("r", integer=True, positive=True), sp.Symbol("i", integer=True, positive=True)
    t = Theorem("toy.sum", "", toy.SRC, sp.Eq(toy.A, sp.Sum(sp.Rational(1, 2) ** i, (i, 1, r))),
                witness=lambda p: 1 - mpmath.mpf(2) ** -p["r"], parameters=(Param(r, sp.Range(1, 40)),))
    report = verify(t, examples=15)
    assert report.verdict == HOLDS and report.tight == report.examples


def test_violated_theorem_without_parameters_reports_the_empty_point():
    t = Theorem("toy.false-constant", "", toy.SRC, sp.Le(toy.A, sp.Rational(69, 100)), witness=lambda p: mpmath.log(2))
    r = verify(t)
    assert r.verdict == VIOLATED and r.counterexample == {}


def test_a_draw_outside_a_distributions_domain_is_one_clear_error():
    from symdp.claims import claim_theorem
    from symdp.errors import SymdpError

    with pytest.raises(SymdpError, match="standard deviation"):
        verify(claim_theorem("kl(gaussian(0, s), gaussian(1, s)) <= 1", "s in [-1, 1]"), examples=50)


def test_sum_bodies_are_computed_at_working_precision():
    # H_r = sum_{i<=r} 1/i: with a Python-int index the body 1/i would be a float, off by ~1e-16 from mpmath.harmonic.
    r, i = sp.Symbol("r", integer=True, positive=True), sp.Symbol("i", integer=True, positive=True)
    t = Theorem("toy.harmonic", "", toy.SRC, sp.Eq(toy.A, sp.Sum(1 / i, (i, 1, r))),
                witness=lambda p: mpmath.harmonic(p["r"]), parameters=(Param(r, sp.Range(2, 60)),))
    report = verify(t, examples=15)
    assert report.verdict == HOLDS and report.tight == report.examples


def test_symbolic_only_theorem_holds_exactly_when_its_derivation_checks():
    from symdp.derivation import Derivation

    x = sp.Symbol("x", positive=True)
    proved = Derivation("(x+1)^2 expands", (x + 1) ** 2).step(x**2 + 2 * x + 1, "expand")
    wrong = Derivation("(x+1)^2 expands (wrongly)", (x + 1) ** 2).step(x**2 + 1, "expand")
    common = dict(title="an identity without numeric witness", source=toy.SRC,
                  statement=sp.Eq((x + 1) ** 2, x**2 + 2 * x + 1), symbolic_only="asymptotic statement")
    assert verify(Theorem("toy.symbolic", derivation=proved, **common)).verdict == HOLDS
    failed = verify(Theorem("toy.symbolic.wrong", derivation=wrong, **common))
    assert failed.verdict == INCONCLUSIVE and "not confirmed" in failed.reason
    bare = verify(Theorem("toy.symbolic.bare", **common))
    assert bare.verdict == INCONCLUSIVE and "asymptotic statement" in bare.reason


def test_symbolic_only_theorem_refuses_a_witness():
    x = sp.Symbol("x")
    with pytest.raises(Exception, match="symbolic theorem has no witness"):
        Theorem("toy.both", "t", toy.SRC, sp.Le(x, 1), witness=lambda p: 0, symbolic_only="no witness")


def test_an_infinite_bound_with_a_finite_quantity_holds_and_one_sided_infinity_is_inconclusive():
    x, B = sp.Symbol("x", positive=True), sp.Symbol("B")
    infinite_bound = Theorem("toy.inf", "finite <= oo", toy.SRC, sp.Le(x, B),
                             witness=lambda p: {x: mpmath.mpf(1) / 3, B: mpmath.inf})  # 1/3 differs by precision
    assert verify(infinite_bound).verdict == HOLDS
    flaky = Theorem("toy.flaky-inf", "infinite at one precision only", toy.SRC, sp.Le(x, 1),
                    witness=lambda p: mpmath.inf if mpmath.mp.dps > 60 else mpmath.mpf(0))
    report = verify(flaky)
    assert report.verdict == INCONCLUSIVE and "NaN" in report.reason


def test_a_theorem_has_no_hand_written_bound():
    # The bound is the statement, evaluated: there is no second, hand-written copy to disagree with it.
    with pytest.raises(TypeError):
        Theorem("toy.hand", "t", toy.SRC, sp.Le(toy.A, 1), evaluator=lambda p: (0, 1))


def test_a_bound_that_cancels_to_zero_at_every_precision_is_not_a_violation():
    # t <= e^t - 1 is true; at t = 1e-175 the bound is exactly 0 at 50 and at 65 digits (all its digits cancel),
    # so comparing two precisions sees nothing: the magnitude of what cancelled (e^t + 1 = 2) bounds the error.
    t = sp.Symbol("t", positive=True)
    theorem = Theorem("toy.cancel", "t <= e^t - 1", toy.SRC, sp.Le(toy.A, sp.exp(t) - 1),
                      witness=lambda p: p["t"], parameters=(Param(t, sp.Interval.open(0, 1)),))
    result = evaluate_point(theorem, {"t": 1e-175})
    assert result.bound == 0 and result.quantity > 0
    assert result.verdict != VIOLATED and result.error >= 2 * mpmath.mpf(10) ** -50


def test_a_point_outside_a_parameters_domain_is_a_clear_error_not_a_verdict():
    # the statement claims nothing there: a verdict at t = 2 (or without t) would be about a hypothesis not made
    from symdp.errors import InvalidParameter

    t = sp.Symbol("t", positive=True)
    theorem = Theorem("toy.domain", "t <= e^t - 1", toy.SRC, sp.Le(toy.A, sp.exp(t) - 1),
                      witness=lambda p: p["t"], parameters=(Param(t, sp.Interval.open(0, 1)),))
    with pytest.raises(InvalidParameter, match=r"parameter t = 2\.0 is outside its domain Interval\.open\(0, 1\)"):
        evaluate_point(theorem, {"t": 2})
    with pytest.raises(InvalidParameter, match="gives no value of parameter t"):
        evaluate_point(theorem, {})
    assert evaluate_point(theorem, {"t": 0.5}).verdict == HOLDS
    # an integer parameter is an integer (never truncated), and side conditions are hypotheses too
    n = sp.Symbol("n", integer=True, positive=True)
    counted = Theorem("toy.count", "t/n <= e^t - 1", toy.SRC, sp.Le(toy.A, sp.exp(t) - 1),
                      witness=lambda p: p["t"] / p["n"], conditions=(t < 1 / n,),
                      parameters=(Param(t, sp.Interval.open(0, 1)), Param(n, sp.Range(1, 10))))
    for bad, message in (({"t": 0.1, "n": 1.5}, "must be an integer, got 1.5"),
                         ({"t": 0.1, "n": "many"}, "n 'many' is not a number"),
                         ({"t": 0.6, "n": 2}, "does not satisfy the side conditions t < 1/n")):
        with pytest.raises(InvalidParameter, match=message):
            evaluate_point(counted, bad)
    assert evaluate_point(counted, {"t": 0.4, "n": 2}).verdict == HOLDS


def test_a_witness_that_fails_at_a_draw_names_the_drawn_structure_to_reproduce_it():
    # a failure inside a witness (here a ValueError, as flint raises one) is a clear error ending with the draw: the
    # parameters, and the drawn structure in full (a structure theorem's failing draw was reported as "at eta=1.75")
    from hypothesis import strategies as st

    from symdp.errors import InvalidParameter

    def witness(p):
        if len(set(p["structure"]["rows"])) < len(p["structure"]["rows"]):
            raise ValueError("failed to isolate eigenvalues")
        return p["x"]

    theorem = Theorem("toy.rows", "x >= 0", toy.SRC, sp.Ge(toy.A, 0), witness=witness, parameters=(toy.X,),
                      structure=lambda: st.fixed_dictionaries({"rows": st.lists(st.integers(0, 3), min_size=2)}))
    assert evaluate_point(theorem, {"x": 0.5, "structure": {"rows": [1, 2]}}).verdict == HOLDS
    with pytest.raises(InvalidParameter, match=re.escape('cannot evaluate toy.rows (at x=0.5, structure={"rows": '
                                                         '[2, 2]}): failed to isolate eigenvalues')):
        evaluate_point(theorem, {"x": 0.5, "structure": {"rows": [2, 2]}})


# --- strict relations, domains, exact equality (issue 15) --------------------------------------------------------

from symdp.estimate import Estimate  # noqa: E402
from symdp.expressions import KL, TV  # noqa: E402
from symdp.statement import BuiltExactly  # noqa: E402

P_, Q_ = sp.symbols("P Q")


def _certified(value, error=0):
    return Estimate(mpmath.mpf(value), mpmath.mpf(error), "certified", certified=True)


@pytest.mark.parametrize("relation, exact, verdict", [
    (sp.Le, True, HOLDS), (sp.Ge, True, HOLDS), (sp.Eq, True, HOLDS),
    (sp.Lt, True, VIOLATED), (sp.Gt, True, VIOLATED),
    # the same equality where the laws' construction may have been rounded: equality is not proved
    (sp.Le, False, HOLDS), (sp.Lt, False, INCONCLUSIVE), (sp.Gt, False, INCONCLUSIVE),
])
def test_a_strict_bound_met_with_equality_is_violated_only_where_the_equality_is_proved(relation, exact, verdict):
    # TV = 1/2 measured exactly (a ball of radius 0) against the bound 1/2
    half = _certified("0.5")
    t = Theorem("toy.strict", "", toy.SRC, relation(TV(P_, Q_), sp.Rational(1, 2)),
                witness=lambda p: {TV(P_, Q_): BuiltExactly(half) if exact else half})
    r = verify(t)
    assert r.verdict == verdict, r.reason
    if verdict != INCONCLUSIVE:
        assert r.certified and r.worst.error == 0 or not exact


def test_a_divergence_is_never_below_zero_whatever_its_enclosure():
    # a certified KL enclosure centred just below 0 (as integration of two nearly equal laws gives): KL >= 0 is a fact
    # of the domain, proved whatever the rounding; sqrt(KL) is real
    tiny = Estimate(mpmath.mpf("-1e-73"), mpmath.mpf("3e-58"), "certified", certified=True)
    nonnegative = Theorem("toy.kl-nonnegative", "", toy.SRC, sp.Ge(KL(P_, Q_), 0, evaluate=False),
                      witness=lambda p: tiny)
    r = verify(nonnegative)
    assert r.verdict == HOLDS and r.certified and r.worst.quantity >= 0
    root = Theorem("toy.kl-root", "", toy.SRC, sp.Le(sp.sqrt(KL(P_, Q_) / 2), 1), witness=lambda p: tiny)
    assert verify(root).verdict == HOLDS
    above = Theorem("toy.tv-above-one", "", toy.SRC, sp.Le(TV(P_, Q_), 1),
                    witness=lambda p: Estimate(mpmath.mpf("1.0000001"), mpmath.mpf("1e-6"), "certified",
                                               certified=True))
    assert verify(above).verdict == HOLDS   # a total variation is at most 1, whatever its enclosure says


def test_an_inequality_decided_only_by_the_construction_floor_is_not_called_proved():
    # KL = 1e-60 measured exactly against the bound 0 (<=): the margin -1e-60 is below the rounding of a law's
    # construction at 50 digits (4e-50), so only laws built exactly make it a proved violation; otherwise it is
    # not settled at this precision (a rounding that is the same at both precisions is invisible to their
    # comparison: atoms e^eps/(1 + e^eps) that round to 1/2 at both, say), and 100 digits settle it
    value = _certified("1e-60")
    for exact, verdict in ((True, VIOLATED), (False, INCONCLUSIVE)):
        t = Theorem("toy.floor", "", toy.SRC, sp.Le(KL(P_, Q_), 0),
                    witness=lambda p, e=exact: BuiltExactly(value) if e else value)
        r = verify(t)
        assert r.verdict == verdict and r.certified == exact
    assert verify(t, dps=100).verdict == VIOLATED and "try --dps" in r.reason


def test_examples_and_precision_are_checked_where_the_run_starts():
    from symdp.errors import SymdpError

    with pytest.raises(SymdpError, match="examples must be a whole number >= 0"):
        verify(toy.AMGM, examples=-1)
    with pytest.raises(SymdpError, match="from 5 to 1000"):
        verify(toy.AMGM, dps=0)
    with pytest.raises(SymdpError, match="from 5 to 1000"):
        verify(toy.AMGM, dps=100000)
    r = verify(toy.FALSE_BOUND, examples=0)   # no pins, no draws: nothing was checked, and the report says so
    assert r.verdict == INCONCLUSIVE and "nothing was checked" in r.reason


def test_two_theorems_of_one_module_may_not_share_an_id():
    from symdp.errors import SymdpError
    from symdp.theorem import register

    namespace = {"__name__": "tests.fake_module"}
    register(toy.AMGM, "tests.fake_module", _namespace=namespace)
    with pytest.raises(SymdpError, match="two theorems with the ID 'toy.amgm'"):
        register(toy.AMGM, "tests.fake_module", _namespace=namespace)
    register(toy.AMGM, "tests.fake_module", _namespace={})   # the module executed again: starts afresh


def test_one_seed_draws_the_same_points_whatever_local_code_is_loaded(tmp_path, monkeypatch):
    """Hypothesis mixes constants of loaded local modules into its draws; symdp's searches must not depend on what
    the process has imported (a user's module full of numbers, here)."""
    from symdp.claims import claim_theorem

    theorem = claim_theorem("x**2 >= 0", "x in [-3, 7]")

    def points():
        drawn = []
        verify(theorem, examples=60, seed=3, on_draw=lambda r: drawn.append(r.point["x"]))
        return drawn

    before = points()
    constants = ", ".join(repr(-3 + k / 97) for k in range(1000))
    (tmp_path / "symdp_test_local_constants.py").write_text(f"NUMBERS = [{constants}]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import symdp_test_local_constants  # noqa: F401  (a local module: its constants are Hypothesis's to find)

    try:
        assert points() == before
    finally:
        sys.modules.pop("symdp_test_local_constants", None)


def test_a_reports_values_are_written_at_the_precision_they_were_computed_at():
    # The command line writes a report outside any working precision (mpmath's 53 bits): a value computed at 65
    # digits must not come out as the 53-digit binary64 expansion of its double. log 2 is the reference, not symdp.
    report = verify(toy.CONSTANT)
    with mpmath.workprec(53):
        draw = report.to_json(draws=True)["draws"][0]
    with mpmath.workdps(80):
        for text in (draw["values"]["A"], draw["quantity"]):
            assert abs(mpmath.mpf(text) - mpmath.log(2)) < mpmath.mpf(10) ** -60, text


def _squares(slack):
    """KL = x^2 measured as a certified ball (Arb, at the working precision) against the bound x^2 + slack, with the
    digits of every measurement recorded."""
    from symdp.estimate import arb_precision, exact_ball

    digits = []

    def witness(p):
        digits.append(mpmath.mp.dps)
        with arb_precision(mpmath.mp.prec):
            return BuiltExactly(Estimate.from_arb(exact_ball(p["x"]) ** 2, "exact"))

    t = Theorem(f"toy.squares{slack}", "", toy.SRC, sp.Le(KL(P_, Q_), toy.x**2 + slack), witness=witness,
                parameters=(Param(toy.x, sp.Interval(1, 2)),))
    return t, digits


def test_the_cheap_first_attempt_stops_where_it_never_settles_a_draw_and_the_verdicts_stay():
    from symdp.verify import LOW_DPS, LowDigits

    # a margin of 1e-30 is below what 20 digits resolve: after two such attempts, the draws go straight to 50 digits
    # (but for one probe in LowDigits.PROBE draws)
    tight, digits = _squares(sp.Rational(1, 10**30))
    r = verify(tight, examples=30)
    assert r.verdict == HOLDS and r.certified and r.examples >= 20
    assert all(d.dps == 50 for d in r.draws)
    assert digits.count(LOW_DPS) <= 2 + r.examples // LowDigits.PROBE and digits.count(50) == r.examples
    # a margin of 1: 20 digits settle every draw, and the attempt at 50 digits is never made
    loose, digits = _squares(1)
    r = verify(loose, examples=30)
    assert r.verdict == HOLDS and r.certified and all(d.dps == LOW_DPS for d in r.draws)
    assert set(digits) == {LOW_DPS}
    # either way a draw gets the same verdict, proved: the cheap attempt changes what it costs, not what it says
    for t, slack in ((tight, mpmath.mpf("1e-30")), (loose, 1)):
        for x in (1.0, 1.5, 2.0):
            with_cheap, without = (evaluate_point(t, {"x": x}, cheap_first=c) for c in (True, False))
            assert (with_cheap.verdict, with_cheap.certified) == (without.verdict, without.certified) == (HOLDS, True)
            assert without.dps == 50 and abs(without.margin - slack) < mpmath.mpf(10) ** -45   # the bound's slack


def test_the_json_says_why_a_theorem_drew_no_more_where_that_is_its_nature():
    """A refutation stops at its counterexample, a statement without parameters has one instance; a theorem that
    holds over a range draws as many as asked and names no limit."""
    reports = {t.id: verify(t, examples=30).to_json() for t in (toy.AMGM, toy.FALSE_BOUND, toy.CONSTANT)}
    assert reports["toy.amgm"]["draws_limited_by"] is None and reports["toy.amgm"]["examples"] >= 30
    assert reports["toy.false"]["draws_limited_by"] == "counterexample"
    assert reports["toy.constant"]["draws_limited_by"] == "no parameters" and reports["toy.constant"]["examples"] == 1
