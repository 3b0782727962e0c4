"""The claim language: text to SymPy, hostile text refused fast, ranges, and claims checked end to end."""

import ast
import builtins
import doctest
import inspect
import re
import time
from decimal import Decimal
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import assume, given, strategies as st

import symdp.claims
from symdp.claims import MAX_LENGTH, claim_theorem, parse_claim, parse_ranges
from symdp.statement import CompiledStatement
from symdp.errors import ClaimSyntaxError, InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate
from symdp.expressions import KL, TV, Finite, Gaussian, HockeyStick, Lap2, Laplace, MaxDivergence, Mix, Renyi
from symdp.verify import INCONCLUSIVE, HOLDS, TIGHT, VIOLATED, verify

a, s, x, y, q, eps = (sp.Symbol(n, real=True) for n in ("a", "s", "x", "y", "q", "eps"))

GAUSS_RDP = "renyi(gaussian(0, s), gaussian(1, s), a) <= a/(2*s**2)"


# --- parsing ----------------------------------------------------------------------------------------------------


def test_renyi_claim_parses_to_the_expected_tree():
    rel = parse_claim(GAUSS_RDP)
    assert rel == sp.Le(Renyi(Gaussian(0, s), Gaussian(1, s), a), a / (2 * s**2), evaluate=False)
    assert all(sym.is_real for sym in rel.free_symbols)


@pytest.mark.parametrize("text, value", [
    ("2.2", sp.Rational(11, 5)), ("0.1", sp.Rational(1, 10)), ("1e-3", sp.Rational(1, 1000)),
    ("1.5e2", sp.Integer(150)), (".5", sp.Rational(1, 2)), ("-0.5", sp.Rational(-1, 2)), ("7", sp.Integer(7)),
    ("1_000.25", sp.Rational(4001, 4)), ("1e-300", sp.Rational(1, 10**300)),
])
def test_numbers_are_exact_from_their_text(text, value):
    assert parse_claim(f"x <= {text}").rhs == value


def test_relations_and_divergences_on_either_side_and_inside_arithmetic():
    assert isinstance(parse_claim("x <= 1"), sp.Le) and isinstance(parse_claim("x >= 1"), sp.Ge)
    assert isinstance(parse_claim("x < 1"), sp.Lt) and isinstance(parse_claim("x > 1"), sp.Gt)   # strict stays strict
    rel = parse_claim("exp(eps) * tv(laplace(0, 1), laplace(1, 1)) + 1 == kl(gaussian(0, 1), gaussian(x, 1))")
    assert isinstance(rel, sp.Eq)
    assert rel.lhs == sp.exp(eps) * TV(Laplace(0, 1), Laplace(1, 1)) + 1
    assert rel.rhs == KL(Gaussian(0, 1), Gaussian(x, 1))


def test_every_head_and_function():
    rel = parse_claim("hockey_stick(lap2(0, 1, 2), mix(q, lap2(1, 1, 2), laplace(0, 1)), -0.5)"
                      " + max_div(finite([0.25, 0.75]), finite(0.5, 0.5)) >= "
                      "exp(1) + log(2) + log(8, 2) + sqrt(x) + tanh(x) + erf(x) + erfc(x) + abs(x) + Abs(y) "
                      "+ cosh(x) + sinh(x) + Max(x, y, 1) + min(x, y) + pi + E")
    assert rel.lhs == (HockeyStick(Lap2(0, 1, 2), Mix(q, Lap2(1, 1, 2), Laplace(0, 1)), sp.Rational(-1, 2))
                       + MaxDivergence(Finite(sp.Rational(1, 4), sp.Rational(3, 4)), Finite(sp.S.Half, sp.S.Half)))
    # functions of constants stay unevaluated (SymPy's evaluation of nested ones can take minutes)
    assert rel.rhs.doit() == (sp.E + sp.log(2) + sp.log(8) / sp.log(2) + sp.sqrt(x) + sp.tanh(x) + sp.erf(x)
                              + sp.erfc(x) + sp.Abs(x) + sp.Abs(y) + sp.cosh(x) + sp.sinh(x) + sp.Max(x, y, 1)
                              + sp.Min(x, y) + sp.pi + sp.E)


def test_arguments_are_arithmetic():
    rel = parse_claim("hockey_stick(gaussian(0, sqrt(2*log(1.25/d))/e), gaussian(1, sqrt(2*log(1.25/d))/e), e)"
                      " <= d*exp(e)/(1 + exp(e))")
    d, e = sp.Symbol("d", real=True), sp.Symbol("e", real=True)
    sd = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / d)) / e
    assert rel.lhs == HockeyStick(Gaussian(0, sd), Gaussian(1, sd), e)
    assert parse_claim("σ <= 1").lhs.name == "sigma"  # a Greek letter is its name, as in the catalogue


@given(st.decimals(allow_nan=False, allow_infinity=False, min_value=-10**15, max_value=10**15))
def test_random_decimals_round_trip_exactly(d):
    text = str(d)
    assert parse_claim(f"x <= {text}").rhs == sp.Rational(*Decimal(text).as_integer_ratio())


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_float_reprs_mean_their_decimal_text_not_the_double(f):
    text = repr(f)
    assert parse_claim(f"x <= {text}").rhs == sp.Rational(Fraction(Decimal(text)))


def _safe(build):
    """SymPy refuses some constructions outright (Max(zoo, 1) is not comparable): mark those nan, filtered below."""
    def built(*args):
        try:
            return build(*args)
        except (ValueError, TypeError):
            return sp.nan
    return built


def _trees():
    """(text, the same expression built directly with SymPy)."""
    leaves = (st.integers(0, 20).map(lambda n: (str(n), sp.Integer(n)))
              | st.decimals(0, 100, places=2).map(lambda d: (str(d), sp.Rational(*d.as_integer_ratio())))
              | st.sampled_from([("x", x), ("y", y), ("pi", sp.pi)]))
    ops = {"+": lambda u, v: u + v, "-": lambda u, v: u - v, "*": lambda u, v: u * v, "/": lambda u, v: u / v}
    functions = {"exp": sp.exp, "tanh": sp.tanh, "erf": sp.erf, "abs": sp.Abs}

    def extend(children):
        return (st.tuples(children, st.sampled_from(sorted(ops)), children).map(
                    lambda t: (f"({t[0][0]}) {t[1]} ({t[2][0]})", ops[t[1]](t[0][1], t[2][1])))
                | st.tuples(children, st.integers(-3, 3)).map(lambda t: (f"({t[0][0]})**{t[1]}", t[0][1] ** t[1]))
                | st.tuples(st.sampled_from(sorted(functions)), children).map(
                    lambda t: (f"{t[0]}({t[1][0]})", _safe(functions[t[0]])(t[1][1])))
                | st.tuples(children, children).map(
                    lambda t: (f"Max({t[0][0]}, {t[1][0]})", _safe(sp.Max)(t[0][1], t[1][1])))
                | children.map(lambda t: (f"-({t[0]})", -t[1])))

    return st.recursive(leaves, extend, max_leaves=12)


@given(_trees())
def test_random_arithmetic_parses_to_the_direct_sympy_construction(tree):
    text, expected = tree
    assume(not expected.has(sp.zoo, sp.nan))
    try:
        parsed = parse_claim(f"{text} <= 0").lhs
    except ClaimSyntaxError as e:  # exp of a constant above 10^6 is refused, SymPy keeps it symbolic
        assert "too large" in str(e) or "divides by zero" in str(e)  # SymPy: abs(1/0) = oo
        assume(False)
    assert parsed.doit() == expected  # doit() evaluates the functions of constants that the parser leaves


# --- hostile and malformed text ---------------------------------------------------------------------------------

HOSTILE = [
    "__import__('os').system('echo hi')", "().__class__", "open('x') <= 1", "lambda: 1", "[x for x in y]",
    "10**10**10**10", "x <= 10**10**10**10", "x" * 100_000, "kl(1, 2) <= 1", "gaussian(0,1) + 1 <= 2",
    "kl(gaussian(0, 1), gaussian(1, 1) <= 1", "x <= (1", "a <= b <= c", "foo(1) <= 2", "x.y <= 1", "x[0] <= 1",
    "exp(x=1) <= 2", "exp(*x) <= 2", "x <= 'a'", "x <= True", "x <= 1j", "x != 1", "x <= y and y <= z",
    "x % 2 <= 1", "x ^ 2 <= 1", "x <= __builtins__", "_x <= 1", "f(1)(2) <= 1", "x <= (y := 1)",
    "x <= y if x else y", "x <= {1: 2}", "x <= (1, 2)", "x <= f'{x}'", "x <= 1e5000", "x <= (10**10)**1000",
    "x <= 2**(pi*1000)", "x <= sqrt(2)**100000", "(" * 300 + "1" + ")" * 300 + " <= x",
    "x <= \x00", "", "x", "kl(P, Q) <= 1", "renyi(gaussian(0,1), gaussian(1,1)) <= 1", "exp <= 1",
    "kl(kl(gaussian(0,1), gaussian(1,1)), gaussian(0,1)) <= 1",
    "kl(gaussian(0, kl(gaussian(0,1), gaussian(1,1))), gaussian(1,1)) <= 1",
    "kl(finite([0.5, 0.5]), gaussian(0, 1)) <= 1", "kl(finite([0.5, 0.5]), finite([1/3, 1/3, 1/3])) <= 1",
    "x <= 1/0", "x <= sqrt(-2)", "x <= finite([])", "finite() <= 1", "mix(0.5, 1, 2) <= 1", "[1, 2] <= 1",
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: t[:30])
def test_hostile_or_malformed_text_gets_a_one_line_error_quickly(text, tmp_path, monkeypatch, capfd):
    monkeypatch.chdir(tmp_path)
    start = time.perf_counter()
    with pytest.raises(ClaimSyntaxError) as info:
        parse_claim(text)
    assert time.perf_counter() - start < 1
    message = str(info.value)
    assert message and "\n" not in message and len(message) < 400
    assert capfd.readouterr().out == "" and list(tmp_path.iterdir()) == []  # nothing ran


@pytest.mark.parametrize("text, words", [
    ("x <= cosh(cosh(cosh(cosh(cosh(2)))))", "too large"),     # SymPy alone would take minutes on these
    ("x <= exp(exp(exp(exp(10))))", "too large"),
    ("x <= exp(10**1000)", "too large"),
    ("x <= log(log(log(2)))", "not a real number"),
    ("x <= x/(x - x)", "divides by zero"),
])
def test_constant_towers_are_refused_quickly(text, words):
    start = time.perf_counter()
    with pytest.raises(ClaimSyntaxError, match=words):
        parse_claim(text)
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("text", [
    "x <= " + "+".join(["x"] * 990), "x <= " + "*".join(["2.5"] * 400) + "*x", "x <= " + "-" * 1900 + "x",
    "x <= " + "erf(" * 90 + "2" + ")" * 90, "x <= " + "tanh(" * 90 + "x" + ")" * 90,
], ids=["long sum", "long product", "many minus signs", "nested constant", "nested in x"])
def test_long_but_shallow_or_nested_claims_parse_quickly(text):
    start = time.perf_counter()
    claim_theorem(text, "x in [0, 1]").evaluate({"x": mpmath.mpf("0.5")})
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("text, words", [
    ("x <= foo(1)", ["unknown function foo", "column 6"]),
    ("kl(1, 2) <= 1", ["argument 1 of kl", "distribution", "column 4"]),
    ("gaussian(0,1) + 1 <= 2", ["gaussian", "distribution", "number"]),
    ("().__class__ <= 1", ["attribute access"]),
    ("a <= b <= c", ["chained"]),
    ("x <= 10**10**10**10", ["exponent", "too large"]),
    ("x <= exp(1, 2)", ["exp takes 1 argument, got 2"]),
    ("x" * (MAX_LENGTH + 1), [f"at most {MAX_LENGTH}"]),
])
def test_errors_name_the_problem_and_the_place(text, words):
    with pytest.raises(ClaimSyntaxError) as info:
        parse_claim(text)
    for w in words:
        assert w in str(info.value)


def test_the_parser_never_evaluates_text(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("eval was called")

    monkeypatch.setattr(builtins, "eval", refuse)
    parse_claim("renyi(mix(exp(q)/(1 + exp(q)), gaussian(0, 2.5), lap2(0, 1, 2)), gaussian(1, s), a) >= q")
    # ... and there is no call to eval, exec, compile, sympify or parse_expr in its source at all
    calls = [n.func for n in ast.walk(ast.parse(inspect.getsource(symdp.claims))) if isinstance(n, ast.Call)]
    names = {f.id for f in calls if isinstance(f, ast.Name)} | {f.attr for f in calls if isinstance(f, ast.Attribute)}
    assert not names & {"eval", "exec", "sympify", "parse_expr", "S"}
    assert "compile" not in {f.id for f in calls if isinstance(f, ast.Name)}  # re.compile is fine


# --- ranges -----------------------------------------------------------------------------------------------------


def test_ranges_and_fixed_values():
    assert parse_ranges("alpha in [1.01, 64], sigma in [0.2, 5]") == {"alpha": (1.01, 64.0), "sigma": (0.2, 5.0)}
    assert parse_ranges("q = 0.1; r == -2") == {"q": (0.1, 0.1), "r": (-2.0, -2.0)}


def test_expression_bounds_are_rounded_inward():
    low, high = parse_ranges("x in [1/3, exp(1)]")["x"]
    assert Fraction(1, 3) <= Fraction(low) < Fraction(1, 3) + Fraction(1, 10**15)
    assert mpmath.e - 1e-15 < high <= mpmath.e


@pytest.mark.parametrize("where, error, words", [
    ("s in [2, 1]", InvalidParameter, "empty"),
    ("s [1, 2]", ClaimSyntaxError, "cannot read"),
    ("s in 1, 2", ClaimSyntaxError, "[low, high]"),
    ("s in [1]", ClaimSyntaxError, "two bounds"),
    ("s in [1, 2, 3]", ClaimSyntaxError, "two bounds"),
    ("s in [1, t]", ClaimSyntaxError, "parameter"),
    ("s in [1, __import__('os')]", ClaimSyntaxError, "not allowed"),
    ("s in [log(-1), 2]", ClaimSyntaxError, "not a real number"),
    ("s in [1, 1/0]", ClaimSyntaxError, "divides by zero"),
    ("s in [1, inf]", InvalidParameter, "finite"),
    ("s in [1, 1e400]", InvalidParameter, "too large"),
    ("s in [1, 2], s = 3", ClaimSyntaxError, "two ranges"),
    ("exp in [1, 2]", ClaimSyntaxError, "a function of the claim language"),
    ("", ClaimSyntaxError, "no ranges"),
    (" , ", ClaimSyntaxError, "no ranges"),
])
def test_bad_ranges_are_refused_with_a_clear_message(where, error, words):
    with pytest.raises(error, match=words.replace("[", r"\[").replace("]", r"\]")):
        parse_ranges(where)


def test_claim_ranges_must_match_the_claims_parameters():
    with pytest.raises(InvalidParameter, match=r'parameter s has no range: add --where "s in \[low, high\]"'):
        claim_theorem("kl(gaussian(0, s), gaussian(1, s)) <= 1")
    with pytest.raises(InvalidParameter, match="parameters a, s have no range"):
        claim_theorem(GAUSS_RDP)
    with pytest.raises(InvalidParameter, match="range given for b, which the claim does not use"):
        claim_theorem(GAUSS_RDP, "a in [2, 3], s in [1, 2], b in [0, 1]")


def test_the_theorem_of_a_claim():
    t = claim_theorem(GAUSS_RDP, "a in [1.1, 20], s in [0.5, 3]")
    assert (t.source.seed, t.source.number) == ("user", "claim")
    assert t.title == r"\texttt{" + GAUSS_RDP.replace("_", r"\_") + "}"   # the claim as code, LaTeX-ready
    assert t.id.startswith("claim.") and t.id == claim_theorem(GAUSS_RDP, " a in [1.1,20],s in [0.5,3]").id
    assert t.id != claim_theorem(GAUSS_RDP, "a in [1.1, 20], s in [0.5, 4]").id   # other ranges: another claim
    assert claim_theorem(GAUSS_RDP, "a in [1.1, 20], s in [0.5, 3]", id="me.gauss-rdp").id == "me.gauss-rdp"
    assert t.statement == parse_claim(GAUSS_RDP)
    assert [(p.name, p.sample, p.domain) for p in t.parameters] == [
        ("a", (1.1, 20.0), sp.Interval(sp.Rational(11, 10), 20)), ("s", (0.5, 3.0), sp.Interval(sp.S.Half, 3))]
    assert "R_{a}" in t.latex()


# --- end to end -------------------------------------------------------------------------------------------------


def test_a_false_renyi_bound_is_violated_with_a_counterexample():
    r = verify(claim_theorem("renyi(gaussian(0, s), gaussian(1, s), a) <= a/(2.2*s**2)",
                             "a in [1.1, 20], s in [0.5, 3]"), examples=30)
    assert r.verdict == VIOLATED
    assert set(r.counterexample) == {"a", "s"}
    assert 1.1 <= r.counterexample["a"] <= 20 and 0.5 <= r.counterexample["s"] <= 3


def test_the_exact_renyi_bound_holds_and_is_tight_everywhere():
    r = verify(claim_theorem(GAUSS_RDP, "a in [1.1, 20], s in [0.5, 3]"), examples=30)
    assert r.verdict == HOLDS
    assert r.tight == r.examples > 0 and all(d.verdict == TIGHT for d in r.draws)


def test_a_tightened_claim_is_refuted():
    r = verify(claim_theorem(GAUSS_RDP, "a in [1.1, 20], s in [0.5, 3]").tightened(0.99), examples=20)
    assert r.verdict == VIOLATED


def test_a_finite_claim_without_parameters_is_one_exact_evaluation():
    r = verify(claim_theorem("kl(finite([0.75, 0.25]), finite([0.25, 0.75])) == 0.5*log(3)"))
    assert (r.verdict, r.examples, r.tight) == (HOLDS, 1, 1)
    r = verify(claim_theorem("kl(finite([0.75, 0.25]), finite([0.25, 0.75])) <= 0.54"))
    assert r.verdict == VIOLATED and r.counterexample == {}


def test_hockey_stick_claims_with_negative_eps():
    exact = "hockey_stick(laplace(0, 1), laplace(1, 1), eps) == 1 - exp(eps/2 - 1/2)"
    r = verify(claim_theorem(exact, "eps in [-1, 0]"), examples=20)
    assert r.verdict == HOLDS and r.tight == r.examples
    r = verify(claim_theorem("hockey_stick(laplace(0, 1), laplace(1, 1), -0.5) >= 1 - exp(-0.8)"))
    assert r.verdict == VIOLATED


def test_fixed_values_are_evaluated_exactly():
    # drawn as the float 0.333..., but 3q == 1 to all 50 digits only if q is exactly 1/3
    r = verify(claim_theorem("3*q == tv(finite([1 - q, q]), finite([1, 0]))*3", "q = 1/3"), examples=5)
    assert r.verdict == HOLDS and r.tight == r.examples


@pytest.mark.parametrize("claim, where, quantity", [
    # KL(Lap(0, b) || Lap(1, b)) = 1/b + e^(-1/b) - 1 (from the densities: the expected log-ratio), b = 1/2
    ("kl(laplace(0, s), laplace(1, s)) == 1/s + exp(-1/s) - 1", "s = 0.5", lambda: 1 + mpmath.exp(-2)),
    # TV(Lap(m, 1), Lap(0, 1)) = 1 - e^(-|m|/2), here m = -1/s = -2: a fixed value inside a law's argument
    ("tv(laplace(-1/s, 1), laplace(0, 1)) == 1 - exp(-1)", "s = 1/2", lambda: 1 - mpmath.exp(-1)),
])
def test_a_fixed_value_in_a_negated_reciprocal_is_its_value(claim, where, quantity):
    # Found by the slow fuzzer (test_true_claims_are_never_violated_slow): the fixed value used to be put in place
    # unevaluated, and SymPy prints -1/(1/2) as -1/1/2, which every lambdified side (mpmath and Arb) read as -1/2; these
    # true claims were then reported violated, certified.
    r = verify(claim_theorem(claim, where), examples=3)
    assert r.verdict == HOLDS and r.tight == r.examples
    with mpmath.workdps(60):
        assert abs(r.worst.quantity - quantity()) < mpmath.mpf(10) ** -40
        assert abs(r.worst.bound - quantity()) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("claim, where, message", [
    ("0 <= kl(gaussian(x, 1), gaussian(1/x, 1))", "x = 0", "cannot build the laws: a division by zero"),
    ("0 <= kl(gaussian(x, 1), gaussian(log(x), 1))", "x = 0", "Gaussian mean must be a finite number, got -inf"),
    ("0*kl(gaussian(0, 1), gaussian(1/x, 1)) <= 1", "x = 0", "a division by zero"),   # a guard, not stated
    ("0 <= kl(gaussian(0, 1), gaussian(1/x, 1))", "x in [0, 1]", "cannot build the laws: a division by zero"),
    ("kl(gaussian(0, 1), gaussian(1, 1)) <= 1/x", "x in [0, 1]", "(at x=0.0): a division by zero"),   # the bound
])
def test_a_value_that_leaves_the_claim_undefined_is_named(claim, where, message):
    with pytest.raises((InvalidParameter, InvalidDistribution), match=re.escape(message)):
        verify(claim_theorem(claim, where), examples=2)


def test_a_fixed_value_beside_an_infinity_is_put_in_place():
    # Found by the slow fuzzer: Max(oo, x) rebuilt unevaluated at x = 0 asked SymPy whether oo < 0 (an internal error)
    assert verify(claim_theorem("0 <= Max(inf, x)", "x = 0.0"), examples=2).verdict == HOLDS


def test_a_tail_limit_at_few_digits_is_extrapolated():
    # Found by the slow fuzzer: below 8 digits the outer half of the tail's nodes was shorter than one extrapolation
    # window, and a max-divergence sup search ended in an IndexError. The supremum of the log-ratio is at least its
    # value at x = pi, ln(1/2 + phi(0)/(2 e^(-pi/3)/6)) = 1.3637 (from the densities).
    from symdp.precision import closed_forms

    with closed_forms(False):
        r = verify(claim_theorem("max_div(mix(0.5, gaussian(pi, 1), laplace(m, 3)), laplace(m, 3)) >= 1.36", "m = 0"),
                   examples=2, dps=5)
    assert r.verdict == HOLDS


def test_claims_at_fixed_values_have_ids_of_their_own():
    ids = [claim_theorem(text, where).id for text, where in [
        ("1/s <= 3", "s = 1/2"), ("1/s <= 3", "s = 1/3"), ("2 <= 3", None), ("1/s <= 3", "s in [1/2, 1]")]]
    assert len(set(ids)) == 4
    assert claim_theorem("1/s<=3", "s = 0.5").id == ids[0]   # the same claim, spaced and written otherwise


@pytest.mark.parametrize("bound", ["1.6", "1.1"])
def test_a_false_equality_reports_its_margin_with_the_error_of_its_balls(bound):
    # The margin of == is -|bound - quantity|; its error used to be measured against the interval of bound - quantity,
    # which for a bound above the quantity is the margin's mirror image: "-0.4647 ± 0.9293", violated, certified.
    r = verify(claim_theorem(f"kl(laplace(0, s), laplace(1, s)) == {bound}", "s = 1/2"), examples=3)
    assert r.verdict == VIOLATED and r.certified
    with mpmath.workdps(60):   # KL(Lap(0, 1/2) || Lap(1, 1/2)) = 1 + e^-2, from the densities
        assert abs(r.worst.margin + abs(mpmath.mpf(bound) - 1 - mpmath.exp(-2))) < mpmath.mpf(10) ** -40
    assert r.worst.error < mpmath.mpf(10) ** -40


def test_a_finite_mixture():
    claim = "tv(mix(q, finite([0.2, 0.8]), finite([0.6, 0.4])), finite([0.2, 0.8])) == 0.4*q"
    assert verify(claim_theorem(claim, "q in [0.001, 1]"), examples=20).verdict == HOLDS
    # At q = 1e-60 both sides are 4e-61, a difference of probabilities of size ~1 (0.2 + 4e-61 against 0.2): the TV
    # is known to working precision relative to those atoms (its scale), so the draw is an equality to working
    # precision on that scale, not a certified inequality either way; and both sides are 0 on that scale, so the draw
    # is reported as equal only as zeros, not as a tight one.
    tiny = verify(claim_theorem(claim, "q = 1e-60"))
    assert tiny.verdict == HOLDS and (tiny.tight, tiny.tight_at_zero) == (0, 1) and tiny.certified_examples == 0


def test_probabilities_that_do_not_sum_to_one():
    with pytest.raises(InvalidDistribution, match="sum to 1.1"):
        verify(claim_theorem("kl(finite([0.5, 0.6]), finite([0.5,0.5])) <= 1"))


def test_bad_values_in_a_draw_name_the_problem_and_the_point():
    with pytest.raises(InvalidDistribution, match=r"standard deviation must be a positive.*\(at s="):
        verify(claim_theorem("kl(gaussian(0, s), gaussian(1, s)) == 1/(2*s**2)", "s in [-1, 0]"), examples=5)
    with pytest.raises(InvalidParameter, match="left-hand side is the complex number"):
        verify(claim_theorem("log(x) <= 0", "x in [-2, -1]"), examples=5)
    with pytest.raises(InvalidParameter, match="alpha must be > 1"):
        verify(claim_theorem("renyi(finite([0.5, 0.5]), finite([0.25, 0.75]), a) <= 1", "a = 0.5"), examples=5)


def test_huge_intermediate_values_are_refused_not_computed():
    start = time.perf_counter()
    with pytest.raises(InvalidParameter, match="too large"):
        verify(claim_theorem("x <= exp(exp(exp(x)))", "x in [5, 6]"), examples=5)
    with pytest.raises(InvalidParameter, match="too large"):
        verify(claim_theorem("x <= 3**(10**x)", "x in [5000, 5001]"), examples=5)
    assert time.perf_counter() - start < 5


# --- error propagation ------------------------------------------------------------------------------------------


def _side(text, *divergences):
    """The left side of ``text <= 0`` evaluated with its divergences (in sorted order) measured as ``divergences``."""
    statement = CompiledStatement(parse_claim(f"{text} <= 0"), [])
    return lambda params: statement.lhs(params, list(divergences), [0] * len(divergences))   # no construction floor


@mpmath.workdps(50)
def test_errors_propagate_through_arithmetic():
    d = Estimate(mpmath.mpf(4), mpmath.mpf("0.01"))
    est = _side("3*sqrt(kl(gaussian(0, 1), gaussian(1, 1))) + 1", d)([])
    assert est.value == 7
    assert 3 * (mpmath.sqrt(4.01) - 2) <= est.error < 3 * (2 - mpmath.sqrt(3.99)) * 1.001
    two = _side("kl(gaussian(0, 1), gaussian(1, 1)) - 2*tv(gaussian(0, 1), gaussian(1, 1))", d, d)([])
    assert two.value == -4 and two.error >= mpmath.mpf("0.03")


@mpmath.workdps(50)
def test_error_at_a_non_smooth_point_uses_the_whole_interval():
    est = _side("sqrt(tv(gaussian(0, 1), gaussian(0, 1)))", Estimate(mpmath.mpf(0), mpmath.mpf("1e-40")))([])
    assert est.value == 0 and est.error >= mpmath.mpf("1e-20")  # sqrt of the error, not slope times error


@mpmath.workdps(50)
def test_infinite_divergences_carry_no_error():
    est = _side("exp(-kl(finite([1, 0]), finite([0, 1])))", Estimate(mpmath.inf, mpmath.mpf(0)))([])
    assert est.value == 0 and est.error < 1e-45


def test_module_doctests():
    assert doctest.testmod(symdp.claims).failed == 0


# --- names a researcher types ---------------------------------------------------------------------------------


@pytest.mark.parametrize("claim, where", [
    ("kl(laplace(0, lambda), laplace(1, lambda)) <= 1/lambda", "lambda in [0.5, 4]"),
    ("kl(laplace(0, λ), laplace(1, λ)) <= 1/λ", "lambda in [0.5, 4]"),
    ("kl(laplace(0, lambda), laplace(1, λ)) <= 1/λ", "λ in [0.5, 4]"),
])
def test_lambda_typed_either_way_is_one_parameter(claim, where):
    theorem = claim_theorem(claim, where)
    assert [p.name for p in theorem.parameters] == ["lambda"]
    (symbol,) = theorem.statement.free_symbols
    assert theorem.statement == sp.Le(KL(Laplace(0, symbol), Laplace(1, symbol)), 1 / symbol, evaluate=False)


def test_greek_letters_are_their_names_and_pi_is_the_constant():
    relation = parse_claim("renyi(gaussian(0, σ), gaussian(1, σ), α) <= α/(2*σ**2) + 0*π")
    assert sorted(s.name for s in relation.free_symbols) == ["alpha", "sigma"]
    assert parse_claim("π <= 4") == sp.Le(sp.pi, 4, evaluate=False)


def test_a_real_lambda_is_still_refused_as_one():
    with pytest.raises(ClaimSyntaxError, match="a lambda is not allowed"):
        parse_claim("(lambda x: x)(1) <= 2")


def test_a_keyword_parameter_is_named_as_typed_in_messages():
    with pytest.raises(ClaimSyntaxError, match=r"got the parameter lambda \(column 4: lambda\)"):
        parse_claim("kl(lambda, gaussian(0, 1)) <= 1")


@pytest.mark.parametrize("where, message", [
    ("E in [0, 1]", "E is Euler's number"), ("pi in [0, 1]", "pi is the constant pi"),
    ("π in [0, 1]", "π is the constant pi"), ("inf = 3", "inf is infinity"),
    ("exp in [0, 1]", "exp is a function of the claim language"), ("_x in [0, 1]", "may not start with _"),
])
def test_a_range_for_a_constant_or_function_says_what_the_name_is(where, message):
    with pytest.raises(ClaimSyntaxError, match=message):
        parse_ranges(where)


def test_e_without_a_range_points_to_eulers_number():
    with pytest.raises(InvalidParameter, match=r"Euler's number is E, or exp\(1\)"):
        claim_theorem("exp(e) <= 3")


def test_a_claim_false_only_at_the_end_of_its_range_is_refuted_there_without_any_draw():
    report = verify(claim_theorem("x < 2", "x in [0, 2]"), examples=0)
    assert report.verdict == VIOLATED and report.counterexample == {"x": 2.0}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_worst_margin_at_a_corner_does_not_depend_on_the_draws(seed):
    """KL(Lap(0, b) || Lap(1, b)) = 1/b + e^{-1/b} - 1 (Mironov 2017, Table II), so the margin of ``<= 1/b`` is
    1 - e^{-1/b}, least at the upper end b = 4 of the range, which every seed checks."""
    report = verify(claim_theorem("kl(laplace(0, b), laplace(1, b)) <= 1/b", "b in [0.5, 4]"), examples=5, seed=seed)
    assert report.verdict == HOLDS
    assert abs(report.worst_margin - (1 - mpmath.exp(-mpmath.mpf(1) / 4))) <= report.worst.error < 1e-15


def test_corners_of_many_ranges_are_the_lowest_and_the_highest():
    from symdp.claims import MOST_CORNERS, corners

    theorem = claim_theorem("a + b + c + d <= 4", "a in [0, 1], b in [0, 1], c in [0, 1], d in [0, 1]")
    assert 2 ** 4 > MOST_CORNERS and theorem.examples == corners(theorem.parameters)
    assert [sorted(set(p.values())) for p in theorem.examples] == [[0.0], [1.0]]


@pytest.mark.parametrize("claim, verdict", [
    ("kl(gaussian(0, 1), gaussian(1, 1)) < 0.5", VIOLATED),   # Δ²/(2σ²) = 1/2 exactly
    ("kl(gaussian(0, 1), gaussian(1, 1)) > 0.5", VIOLATED),
    ("kl(gaussian(0, 1), gaussian(1, 1)) <= 0.5", HOLDS),
    ("max_div(laplace(0, 2), laplace(1, 2)) < 0.5", VIOLATED),  # |Δ|/λ = 1/2 exactly
    ("renyi(gaussian(0, 2), gaussian(1, 2), 3) >= 0.375", HOLDS),  # αΔ²/(2σ²) = 3/8 exactly
])
def test_closed_forms_prove_exact_equalities(claim, verdict):
    report = verify(claim_theorem(claim))
    assert report.verdict == verdict and report.certified, report
