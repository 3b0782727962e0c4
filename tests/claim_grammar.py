"""Hypothesis strategies for the claim language of ``symdp check`` (the grammar at the top of symdp/claims.py), for the
fuzzer in tests/test_fuzz.py.

Claims are built as text from the grammar, never by printing SymPy objects (the parser is what is under test), and
each carries what the generator knows about it by construction:

* :func:`valid_claims` — well-formed claims: divergences of every law, arithmetic with every function and constant,
  every relation, Greek and spelt-out names, extreme literals (``1e-400``, ``1e400``, ``5e-324``) and extreme
  ranges. Parameters have roles (location, scale, probability, order, epsilon) whose ranges are valid for the role,
  so a ``real`` claim (no ``sqrt``, ``log`` or fractional power of anything that might be negative) can never have
  a complex value.
* :func:`tame_claims` — well-formed claims with moderate parameters whose every piece is defined: a divergence of
  valid laws against arithmetic without division, logarithms or overflow. The CLI owes them a verdict.
* :func:`malformed_claims` — mutations of valid claims: truncation, unknown functions, wrong arities, a distribution
  where a number goes, unbalanced parentheses, strings, attributes, refused numbers, bad ranges, invalid laws
  (negative scales, probabilities not summing to 1, mixture weights outside [0, 1], Rényi orders <= 1) and
  NaN-producing arithmetic. ``must_fail`` marks those the CLI must refuse (exit status 2).
* :func:`true_claims` — claims that are mathematically true (closed forms written as identities, and classical
  inequalities such as Pinsker's), with ``<=``/``>=``/``==``: never to be reported violated.
* :func:`negation_pairs` — two sides and a range text, for a claim and its negation.

Everything is built from ``st.recursive``, ``st.builds`` and ``@st.composite`` over small parts, so that hypothesis
shrinks a failure to a short claim: a smaller tree, smaller literals, fewer parameters.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from decimal import Decimal
from typing import Optional

from hypothesis import strategies as st

# --- the two things a test gets ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A claim text and its ``--where`` text, with what the generator knows about it."""

    text: str
    where: Optional[str] = None
    real: bool = True
    """No value of the claim can be complex: every sqrt, log and fractional power has a non-negative argument, by
    construction (divergences are non-negative), and the ranges respect the parameters' roles."""
    must_fail: bool = False
    """A mutation the CLI must refuse with a one-line error and exit status 2."""
    note: str = ""
    """What was generated or mutated (shown when a property fails)."""

    def argv(self, options: "Options") -> list[str]:
        return ["check", self.text] + (["--where", self.where] if self.where is not None else []) + options.argv()

    def command(self, options: "Options") -> str:
        """The command line that reproduces a run, for a failure message."""
        return shlex.join(["symdp"] + self.argv(options))


@dataclass(frozen=True)
class Options:
    """The options of one ``symdp check`` run: few draws, modest precision."""

    examples: int = 3
    dps: int = 15
    seed: int = 0
    json: bool = False
    no_closed_forms: bool = False

    def argv(self) -> list[str]:
        return (["--examples", str(self.examples), "--dps", str(self.dps), "--seed", str(self.seed)]
                + (["--json"] if self.json else []) + (["--no-closed-forms"] if self.no_closed_forms else []))


def options(closed_forms_off: bool = True) -> st.SearchStrategy[Options]:
    return st.builds(Options, examples=st.integers(3, 5), dps=st.sampled_from([15, 5, 8, 20, 30]),
                     seed=st.integers(0, 2**32), json=st.booleans(),
                     no_closed_forms=st.booleans() if closed_forms_off else st.just(False))


# --- terms: text with what is known of its value -----------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """A piece of claim text: a number, a distribution or a side."""

    text: str
    names: frozenset = frozenset()
    """The canonical names of the parameters it uses."""
    nonneg: bool = False
    """Its value is >= 0 wherever defined (given the ranges of its parameters' roles)."""
    real: bool = True
    """Its value is real wherever defined."""
    atom: bool = True
    """It needs no parentheses as an operand."""
    divergences: int = 0

    def wrapped(self) -> str:
        return self.text if self.atom else f"({self.text})"


def _join(text: str, *parts: Term, nonneg: bool = False, real: bool = True, atom: bool = False) -> Term:
    return Term(text, frozenset().union(*(p.names for p in parts)), nonneg, real and all(p.real for p in parts),
                atom, sum(p.divergences for p in parts))


# Parameters by role: (as typed, canonical name). Greek letters and their spelt-out names are one parameter.
ROLES = {
    "location": [("x", "x"), ("y", "y"), ("mu", "mu"), ("μ", "mu")],
    "scale": [("s", "s"), ("b", "b"), ("sigma", "sigma"), ("σ", "sigma"), ("lambda", "lambda"), ("λ", "lambda")],
    "probability": [("q", "q"), ("gamma", "gamma"), ("γ", "gamma")],
    "order": [("a", "a"), ("alpha", "alpha"), ("α", "alpha")],
    "epsilon": [("e", "e"), ("eps", "eps"), ("epsilon", "epsilon"), ("ε", "epsilon")],
}
ROLE_OF = {canonical: role for role, names in ROLES.items() for _, canonical in names}
SPELLINGS = {canonical: sorted({typed for typed, c in names if c == canonical})
             for names in ROLES.values() for _, canonical in names}
ROLES_BY_TYPED = {typed: canonical for names in ROLES.values() for typed, canonical in names}
NONNEG_ROLES = {"scale", "probability", "order"}


def parameter(*roles: str) -> st.SearchStrategy[Term]:
    choices = [(typed, canonical, role) for role in roles for typed, canonical in ROLES[role]]
    return st.sampled_from(choices).map(
        lambda c: Term(c[0], frozenset([c[1]]), nonneg=c[2] in NONNEG_ROLES))


# Literals. Every decimal here is accepted by the language (|exponent| <= 1000); the refused ones are mutations.
EXTREME_DECIMALS = ["1e-400", "1e400", "1e-300", "1e300", "5e-324", "1.7976931348623157e+308", "1e-1000", "1e1000",
                    "2.2", ".5", "1_000.25", "0.1", "1e-3", "0.0"]


def literal(extreme: bool = True) -> st.SearchStrategy[Term]:
    small = st.one_of(st.integers(0, 12).map(str), st.sampled_from(["0.5", "2", "0.25", "3", "1", "0.1"]))
    texts = small
    if extreme:  # one draw in four is extreme
        texts = st.one_of(small, small, small, st.one_of(
            st.sampled_from(EXTREME_DECIMALS), st.floats(min_value=0, allow_nan=False, allow_infinity=False).map(repr),
            st.sampled_from(["10**300", "10**-400", "2**-1074", "(10**10)**100"])))
    numbers = texts.map(lambda t: Term(t, nonneg=True, atom="**" not in t))
    constants = st.sampled_from(["pi", "E"] + (["inf", "oo"] if extreme else [])).map(lambda t: Term(t, nonneg=True))
    return st.one_of(numbers, constants)


POSITIVE_LITERALS = ["1", "2", "0.5", "3", "0.1", "10", "pi", "E", "1e-3", "1e3"]
EXTREME_POSITIVE = ["1e-300", "1e300", "5e-324", "1e-400", "1e100", "1.7976931348623157e+308"]


def positive_literal(extreme: bool = True) -> st.SearchStrategy[Term]:
    texts = st.sampled_from(POSITIVE_LITERALS)
    if extreme:
        texts = st.one_of(texts, texts, texts, st.sampled_from(EXTREME_POSITIVE),
                          st.floats(min_value=5e-324, allow_nan=False, allow_infinity=False).map(repr))
    return texts.map(lambda t: Term(t, nonneg=True))


# --- arithmetic ---------------------------------------------------------------------------------------------------

ONE_ARGUMENT = ["exp", "log", "sqrt", "tanh", "cosh", "sinh", "erf", "erfc", "abs"]


def _binary(op: str, a: Term, b: Term) -> Term:
    nonneg = op in "+*/" and a.nonneg and b.nonneg
    return _join(f"{a.wrapped()} {op} {b.wrapped()}", a, b, nonneg=nonneg)


def _power(base: Term, exponent) -> Term:
    if isinstance(exponent, int):  # an integer literal: real for any base
        text = f"{base.wrapped()}**{exponent if exponent >= 0 else f'({exponent})'}"
        return _join(text, base, nonneg=base.nonneg or exponent % 2 == 0)
    return _join(f"{base.wrapped()}**{exponent.wrapped()}", base, exponent, nonneg=base.nonneg,
                 real=base.nonneg)


def _negate(a: Term) -> Term:
    return _join(f"-{a.wrapped()}", a)


def _call(fn: str, a: Term) -> Term:
    nonneg = {"exp": True, "cosh": True, "erfc": True, "abs": True, "sqrt": True, "log": False}.get(fn, a.nonneg)
    real = a.nonneg if fn in ("log", "sqrt") else True
    return _join(f"{fn}({a.text})", a, nonneg=nonneg, real=real, atom=True)


def _extremum(fn: str, args: list[Term]) -> Term:
    nonneg = any(a.nonneg for a in args) if fn.lower() == "max" else all(a.nonneg for a in args)
    return _join(f"{fn}({', '.join(a.text for a in args)})", *args, nonneg=nonneg, atom=True)


def _log_base(a: Term, base: Term) -> Term:
    return _join(f"log({a.text}, {base.text})", a, base, real=a.nonneg and base.nonneg, atom=True)


def extend(children: st.SearchStrategy[Term], tame: bool = False) -> st.SearchStrategy[Term]:
    """One level of arithmetic over ``children``. ``tame``: only total operations without overflow (no division,
    logarithm, exp, cosh or sinh, no negative powers), and sqrt only of what is non-negative."""
    if tame:
        return st.one_of(
            st.builds(_binary, st.sampled_from("+-*"), children, children),
            st.builds(_power, children, st.sampled_from([2, 3])),
            st.builds(_negate, children),
            st.builds(_call, st.sampled_from(["tanh", "erf", "erfc", "abs"]), children),
            st.builds(_call, st.just("sqrt"), children.filter(lambda t: t.nonneg)),
            st.builds(_extremum, st.sampled_from(["Max", "Min", "max", "min"]), st.lists(children, min_size=1,
                                                                                         max_size=3)),
        )
    return st.one_of(
        st.builds(_binary, st.sampled_from("+-*/"), children, children),
        st.builds(_power, children, st.one_of(st.integers(-2, 4), children)),
        st.builds(_negate, children),
        st.builds(_call, st.sampled_from(ONE_ARGUMENT), children),
        st.builds(_extremum, st.sampled_from(["Max", "Min", "max", "min"]), st.lists(children, min_size=1,
                                                                                     max_size=3)),
        st.builds(_log_base, children, children),
    )


def arithmetic(leaves: st.SearchStrategy[Term], max_leaves: int = 4, tame: bool = False) -> st.SearchStrategy[Term]:
    return st.recursive(leaves, lambda c: extend(c, tame), max_leaves=max_leaves)


# --- arguments of laws and divergences, valid by construction -------------------------------------------------


def locations(tame: bool = False) -> st.SearchStrategy[Term]:
    """Any real number: a mean or location, arithmetic in the location and epsilon parameters."""
    leaves = st.one_of(parameter("location", "epsilon"), literal(extreme=not tame))
    return leaves if tame else arithmetic(leaves, max_leaves=2)


def positives(tame: bool = False) -> st.SearchStrategy[Term]:
    """A positive number (a scale): positive literals and scale parameters, closed under operations that keep
    positivity."""
    leaves = st.one_of(positive_literal(extreme=not tame), parameter("scale"))
    if tame:
        return st.recursive(leaves, lambda c: st.builds(_binary, st.sampled_from("+*"), c, c), max_leaves=2)

    def keep_positive(c):
        return st.one_of(
            st.builds(_binary, st.sampled_from("+*/"), c, c),
            st.builds(_call, st.sampled_from(["sqrt"]), c),
            st.builds(lambda t: _call("exp", t), literal() | parameter("location", "epsilon")),
            st.builds(lambda t: _call("cosh", t), literal() | parameter("location", "epsilon")),
            st.builds(lambda a, b: _extremum("Max", [a, b]), c, literal() | parameter("location", "epsilon")),
            st.builds(_power, c, st.integers(-2, 3)),
        )

    return st.recursive(leaves, keep_positive, max_leaves=2)


def probabilities(tame: bool = False) -> st.SearchStrategy[Term]:
    """A number in [0, 1]: a mixture weight."""
    values = ["0", "1", "0.5", "0.25", "1/3", "0.1", "0.9"] + ([] if tame else ["1e-300", "5e-324", "0.0", "1.0"])
    leaves = st.one_of(st.sampled_from(values).map(lambda t: Term(t, nonneg=True, atom="/" not in t)),
                       parameter("probability"))
    if not tame:
        leaves = st.one_of(leaves, st.floats(0, 1).map(lambda f: Term(repr(f), nonneg=True)))

    positive = st.one_of(positive_literal(extreme=not tame), parameter("scale"))

    def keep_in_unit(c):
        return st.one_of(
            st.builds(lambda p: _join(f"1 - {p.wrapped()}", p, nonneg=True), c),
            st.builds(lambda p, r: _binary("*", p, r), c, c),
            st.builds(lambda t: _call("exp", _negate(t)), positive),
            st.builds(lambda t: _call("tanh", t), positive),
            st.builds(lambda t: _call("erfc", t), positive),
            st.builds(lambda t: _extremum("Min", [Term("1", nonneg=True), t]), positive),
        )

    return st.recursive(leaves, keep_in_unit, max_leaves=2)


def orders(tame: bool = False) -> st.SearchStrategy[Term]:
    """A Rényi order > 1."""
    values = ["2", "1.5", "3", "10", "1.01"] + ([] if tame else ["64", "1.0000001", "1e6", "1 + 1e-30"])
    return st.one_of(
        st.sampled_from(values).map(lambda t: Term(t, nonneg=True, atom=" " not in t)),
        parameter("order"),
        st.builds(lambda t: _join(f"1 + {t.wrapped()}", t, nonneg=True),
                  st.one_of(positive_literal(extreme=not tame), parameter("scale"))),
    )


def epsilons(tame: bool = False) -> st.SearchStrategy[Term]:
    """Any real number: the ε of a hockey-stick divergence (of either sign)."""
    return locations(tame)


# --- laws ----------------------------------------------------------------------------------------------------------


def _law(name: str, *args: Term) -> Term:
    return _join(f"{name}({', '.join(a.text for a in args)})", *args, atom=True)


def continuous_laws(tame: bool = False, cheap: bool = False) -> st.SearchStrategy[Term]:
    """Gaussian, Laplace and Lap2 laws and mixtures of them; ``cheap``: Gaussian and Laplace laws only (closed forms,
    or quick enclosures)."""
    if cheap:
        return st.one_of(st.builds(_law, st.just("gaussian"), locations(tame), positives(tame)),
                         st.builds(_law, st.just("laplace"), locations(tame), positives(tame)))
    base = st.one_of(
        st.builds(_law, st.just("gaussian"), locations(tame), positives(tame)),
        st.builds(_law, st.just("laplace"), locations(tame), positives(tame)),
        st.builds(_law, st.just("lap2"), locations(tame), positives(tame), positives(tame)),
    )
    return st.recursive(base, lambda c: st.builds(_law, st.just("mix"), probabilities(tame), c, c), max_leaves=2)


@st.composite
def finite_weights(draw, n: int, tame: bool = False) -> list[Term]:
    """n probabilities summing to 1, by construction."""
    family = draw(st.sampled_from(["fractions", "normalized", "two"] if n == 2 else ["fractions", "normalized"]))
    if family == "fractions":
        w = draw(st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(any))
        total = sum(w)
        return [Term("1" if x == total else "0" if x == 0 else f"{x}/{total}", nonneg=True, atom=x in (0, total))
                for x in w]
    if family == "two":
        kind = draw(st.sampled_from(["q", "rr"]))
        if kind == "q":
            p = draw(probabilities(tame))
            return [p, _join(f"1 - {p.wrapped()}", p, nonneg=True)]
        e = draw(epsilons(tame))
        ex = _call("exp", e)
        return [_join(f"{ex.text}/(1 + {ex.text})", ex, nonneg=True),
                _join(f"1/(1 + {ex.text})", ex, nonneg=True)]
    parts = [draw(positives(tame)) for _ in range(n)]
    total = _join(" + ".join(p.wrapped() for p in parts), *parts, nonneg=True)
    return [_binary("/", p, total) for p in parts]


def _finite(weights: list[Term], listed: bool) -> Term:
    body = ", ".join(w.text for w in weights)
    return _join(f"finite([{body}])" if listed else f"finite({body})", *weights, atom=True)


@st.composite
def law_pairs(draw, tame: bool = False, cheap: bool = False) -> tuple[Term, Term]:
    """Two laws on one space: both continuous, or both finite with as many atoms."""
    if draw(st.booleans()):
        return draw(continuous_laws(tame, cheap)), draw(continuous_laws(tame, cheap))
    n = draw(st.integers(1, 3))
    return tuple(_finite(draw(finite_weights(n, tame)), draw(st.booleans())) for _ in range(2))


def _divergence(name: str, pair: tuple[Term, Term], extra: Optional[Term]) -> Term:
    args = list(pair) + ([extra] if extra is not None else [])
    t = _join(f"{name}({', '.join(a.text for a in args)})", *args, nonneg=True, atom=True)
    return Term(t.text, t.names, True, t.real, True, t.divergences + 1)


@st.composite
def divergences(draw, tame: bool = False, cheap: bool = False) -> Term:
    name = draw(st.sampled_from(["kl", "renyi", "hockey_stick", "tv", "max_div"]))
    extra = draw(orders(tame)) if name == "renyi" else draw(epsilons(tame)) if name == "hockey_stick" else None
    return _divergence(name, draw(law_pairs(tame, cheap)), extra)


# --- ranges ----------------------------------------------------------------------------------------------------------

# Range bounds as text, with a value to order them by. Constant expressions are part of the range language.
_EXPRESSIONS = [("1/3", Decimal(1) / 3), ("exp(-1)", Decimal(-1).exp()), ("sqrt(2)", Decimal(2).sqrt()),
                ("pi", Decimal("3.14159265358979323846")), ("-pi", -Decimal("3.14159265358979323846")),
                ("1e-400", Decimal("1e-400")), ("1e400", Decimal("1e400")), ("2**-1074", Decimal(2) ** -1074)]
_FLOAT_EXTREMES = [0.0, -0.0, 5e-324, 1e-300, 1e-10, 1e10, 1e300, 1.7976931348623157e308]


def _bound_texts(low: Decimal, high: Decimal, tame: bool) -> st.SearchStrategy[tuple[str, Decimal]]:
    """A bound in [low, high]: a float, an extreme float or a constant expression."""
    floats = st.floats(float(low), float(high), allow_nan=False, allow_infinity=False,
                       allow_subnormal=False if tame else None)
    candidates = [st.builds(lambda f: (repr(f), Decimal(f)), floats)]
    if not tame:
        special = [(repr(f), Decimal(f)) for f in _FLOAT_EXTREMES + [-f for f in _FLOAT_EXTREMES]
                   if low <= Decimal(f) <= high]
        special += [(t, v) for t, v in _EXPRESSIONS if low <= v <= high]
        if special:
            candidates.append(st.sampled_from(special))
    return st.one_of(*candidates)


ROLE_RANGES = {  # (tame, extreme) limits of each role's range
    "location": ((Decimal(-5), Decimal(5)), (Decimal("-1e300"), Decimal("1e300"))),
    "epsilon": ((Decimal(-3), Decimal(3)), (Decimal("-1e300"), Decimal("1e300"))),
    "scale": ((Decimal("0.1"), Decimal(10)), (Decimal("1e-400"), Decimal("1e400"))),
    "probability": ((Decimal(0), Decimal(1)), (Decimal(0), Decimal(1))),
    "order": ((Decimal("1.1"), Decimal(16)), (Decimal("1.0000001"), Decimal("1e6"))),
}


@st.composite
def range_item(draw, canonical: str, tame: bool = False, typed: Optional[str] = None) -> str:
    """``name in [low, high]`` (or ``name = value``) for one parameter, valid for its role."""
    role = ROLE_OF[canonical]
    low, high = ROLE_RANGES[role][0 if tame else 1]
    name = typed or draw(st.sampled_from(SPELLINGS[canonical]))
    a = draw(_bound_texts(low, high, tame))
    if role == "scale" and a[1] <= 0:
        a = ("1e-300", Decimal("1e-300"))
    if role == "order" and a[1] <= 1:
        a = ("1.5", Decimal("1.5"))
    if draw(st.integers(0, 5)) == 0:
        return draw(st.sampled_from([f"{name} = {a[0]}", f"{name} == {a[0]}", f"{name} in [{a[0]}, {a[0]}]"]))
    b = draw(_bound_texts(low, high, tame))
    if role == "scale" and b[1] <= 0:
        b = ("1", Decimal(1))
    if role == "order" and b[1] <= 1:
        b = ("2", Decimal(2))
    lo, hi = sorted([a, b], key=lambda t: t[1])
    return f"{name} in [{lo[0]}, {hi[0]}]"


@st.composite
def where_for(draw, names, tame: bool = False) -> Optional[str]:
    """A range text giving every name in ``names`` (canonical) a range, in some order; None if there are none."""
    names = sorted(names)
    if not names:
        return draw(st.sampled_from([None, "", "  "]))
    items = [draw(range_item(n, tame)) for n in draw(st.permutations(names))]
    return draw(st.sampled_from([", ", "; ", ",", " ; "])).join(items)


# --- claims ----------------------------------------------------------------------------------------------------------

RELATIONS = ["<=", ">=", "==", "<", ">"]


def sides(tame: bool = False, max_leaves: int = 3) -> st.SearchStrategy[Term]:
    """A side: arithmetic over literals, parameters of every role and divergences."""
    leaves = st.one_of(divergences(tame), divergences(tame), literal(extreme=not tame),
                       parameter(*ROLES) if not tame else parameter("probability", "scale"))
    return arithmetic(leaves, max_leaves=max_leaves, tame=tame).filter(lambda t: t.divergences <= 2)


def _text(lhs: Term, rel: str, rhs: Term, compact: bool) -> str:
    text = f"{lhs.text} {rel} {rhs.text}"
    return text.replace(" ", "") if compact else text


@st.composite
def valid_claims(draw) -> Claim:
    lhs, rhs = draw(sides()), draw(sides())
    rel = draw(st.sampled_from(RELATIONS))
    compact = draw(st.integers(0, 4)) == 0
    where = draw(where_for(lhs.names | rhs.names))
    return Claim(_text(lhs, rel, rhs, compact), where, real=lhs.real and rhs.real, note="valid")


@st.composite
def tame_claims(draw, cheap: bool = False) -> Claim:
    """A divergence (or a sum of two) of valid laws with moderate parameters against total, moderate arithmetic.
    ``cheap``: of finite, Gaussian and Laplace laws only."""
    lhs = draw(divergences(tame=True, cheap=cheap))
    if draw(st.integers(0, 3)) == 0:
        lhs = _binary("+", lhs, draw(divergences(tame=True, cheap=cheap)))
    rhs = draw(arithmetic(st.one_of(literal(extreme=False), parameter("probability", "scale", "location")),
                          max_leaves=3, tame=True))
    if draw(st.booleans()):
        lhs, rhs = rhs, lhs
    rel = draw(st.sampled_from(RELATIONS))
    where = draw(where_for(lhs.names | rhs.names, tame=True))
    return Claim(_text(lhs, rel, rhs, False), where, real=lhs.real and rhs.real, note="tame")


# --- true claims ---------------------------------------------------------------------------------------------------

# Closed forms, as identities between a divergence and its formula. {x}, {y}: locations; {s}, {b}: scales; {a}: an
# order; {q}, {r}: probabilities in (0, 1); {e}: an epsilon. Each was checked against symdp's own closed forms and
# exact finite sums at 10 draws before being written here, and is a textbook formula.
IDENTITIES = [
    ("kl(gaussian({x}, {s}), gaussian({y}, {s}))", "({x} - {y})**2/(2*{s}**2)"),
    ("renyi(gaussian({x}, {s}), gaussian({y}, {s}), {a})", "{a}*({x} - {y})**2/(2*{s}**2)"),
    ("tv(gaussian({x}, {s}), gaussian({y}, {s}))", "erf(abs({x} - {y})/(2*sqrt(2)*{s}))"),
    ("kl(gaussian(0, {s}), gaussian(0, {b}))", "log({b}/{s}) + {s}**2/(2*{b}**2) - 1/2"),
    ("kl(laplace({x}, {b}), laplace({y}, {b}))", "abs({x} - {y})/{b} + exp(-abs({x} - {y})/{b}) - 1"),
    ("tv(laplace({x}, {b}), laplace({y}, {b}))", "1 - exp(-abs({x} - {y})/(2*{b}))"),
    ("max_div(laplace({x}, {b}), laplace({y}, {b}))", "abs({x} - {y})/{b}"),
    ("kl(finite([{q}, 1 - {q}]), finite([1 - {q}, {q}]))", "(2*{q} - 1)*log({q}/(1 - {q}))"),
    ("kl(finite([exp({e})/(1 + exp({e})), 1/(1 + exp({e}))]), finite([1/(1 + exp({e})), exp({e})/(1 + exp({e}))]))",
     "{e}*tanh({e}/2)"),
    ("tv(finite([{q}, 1 - {q}]), finite([{r}, 1 - {r}]))", "abs({q} - {r})"),
    ("max_div(finite([{q}, 1 - {q}]), finite([{r}, 1 - {r}]))", "Max(log({q}/{r}), log((1 - {q})/(1 - {r})))"),
    ("hockey_stick(finite([{q}, 1 - {q}]), finite([{r}, 1 - {r}]), {e})",
     "Max(0, {q} - exp({e})*{r}) + Max(0, 1 - {q} - exp({e})*(1 - {r}))"),
    ("renyi(finite([{q}, 1 - {q}]), finite([{r}, 1 - {r}]), {a})",
     "log({q}**{a}*{r}**(1 - {a}) + (1 - {q})**{a}*(1 - {r})**(1 - {a}))/({a} - 1)"),
    ("tv({P}, {P})", "0"),
    ("kl({P}, {P})", "0"),
    ("sqrt(kl({P}, {P}))", "0"),
]

# Inequalities that hold for every pair of laws: (smaller, larger). {P}, {Q}: laws on one space; {a}: an order;
# {e}: an epsilon >= 0 where marked.
INEQUALITIES = [
    ("tv({P}, {Q})", "1"),
    ("0", "kl({P}, {Q})"),
    ("0", "sqrt(kl({P}, {Q}))"),
    ("tv({P}, {Q})", "sqrt(kl({P}, {Q})/2)"),                          # Pinsker
    ("kl({P}, {Q})", "renyi({P}, {Q}, {a})"),                          # Rényi divergence is increasing in its order
    ("renyi({P}, {Q}, {a})", "max_div({P}, {Q})"),
    ("hockey_stick({P}, {Q}, abs({e}))", "tv({P}, {Q})"),
    ("tv({P}, {Q})", "hockey_stick({P}, {Q}, -abs({e}))"),
    ("0", "hockey_stick({P}, {Q}, {e})"),
    ("tv({P}, {Q})", "1 - exp(-kl({P}, {Q}))/2"),                       # Bretagnolle–Huber
]


PROBABILITY_SLOTS = ["0.5", "0.25", "0.9", "1/3", "0.001", "q", "γ", "gamma"]
OTHER_PROBABILITY_SLOTS = ["0.5", "0.75", "0.1", "2/3", "0.999", "q"]


def _slot(text: str) -> Term:
    """A probability slot of an identity: a literal, or the probability parameter spelt some way."""
    canonical = ROLES_BY_TYPED.get(text)
    return Term(text, frozenset([canonical]) if canonical else frozenset(), nonneg=True, atom="/" not in text)


@st.composite
def true_claims(draw) -> Claim:
    """A claim that is true: an identity (as ==, <= or >=, either way round) or a classical inequality."""
    tame = draw(st.booleans())
    slots = {"x": draw(locations(tame)), "y": draw(locations(tame)), "s": draw(positives(tame)),
             "b": draw(positives(tame)), "a": draw(orders(tame)), "e": draw(epsilons(tame)),
             "q": _slot(draw(st.sampled_from(PROBABILITY_SLOTS))),
             "r": _slot(draw(st.sampled_from(OTHER_PROBABILITY_SLOTS)))}
    if draw(st.booleans()):
        slots["P"], slots["Q"] = draw(law_pairs(tame))
    else:
        slots["P"] = slots["Q"] = draw(continuous_laws(tame))
    kind = draw(st.sampled_from(["identity", "inequality"]))
    small, large = draw(st.sampled_from(IDENTITIES if kind == "identity" else INEQUALITIES))
    used = {k: t for k, t in slots.items() if "{" + k + "}" in small + large}
    fill = {k: t.text if k in ("P", "Q") else t.wrapped() for k, t in slots.items()}
    lhs, rhs = small.format(**fill), large.format(**fill)
    rel = draw(st.sampled_from(["==", "<=", ">="])) if kind == "identity" else "<="
    if draw(st.booleans()):
        lhs, rhs, rel = rhs, lhs, {"<=": ">=", ">=": "<=", "==": "=="}[rel]
    where = draw(where_for(frozenset().union(*(t.names for t in used.values())), tame))
    return Claim(f"{lhs} {rel} {rhs}", where, real=all(t.real for t in used.values()), note=f"true {kind}")


# --- negation pairs -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Negation:
    """Two sides, a relation and its negation, one range text: ``lhs rel rhs`` and ``lhs neg rhs``."""

    lhs: str
    rhs: str
    where: Optional[str]
    relation: str = "<="
    real: bool = True
    note: str = ""

    NEGATION = {"<=": ">", ">=": "<", "<": ">=", ">": "<="}

    def claims(self) -> tuple[Claim, Claim]:
        return tuple(Claim(f"{self.lhs} {r} {self.rhs}", self.where, self.real, note=self.note)
                     for r in (self.relation, self.NEGATION[self.relation]))


@st.composite
def negation_pairs(draw) -> Negation:
    """Sides that are often equal (the same text twice, or an identity), else a tame or a general claim's."""
    kind = draw(st.sampled_from(["same", "identity", "tame", "valid"]))
    relation = draw(st.sampled_from(["<=", ">=", "<", ">"]))
    if kind == "identity":
        claim = draw(true_claims())
        lhs, _, rhs = _split(claim.text)
        return Negation(lhs, rhs, claim.where, relation, claim.real, "identity or inequality")
    tame = kind in ("same", "tame")
    lhs = draw(sides(tame=tame, max_leaves=2))
    rhs = lhs if kind == "same" else draw(sides(tame=tame, max_leaves=2))
    where = draw(where_for(lhs.names | rhs.names, tame=tame))
    return Negation(lhs.text, rhs.text, where, relation, lhs.real and rhs.real, kind)


def _split(text: str) -> tuple[str, str, str]:
    for rel in ("<=", ">=", "=="):
        if f" {rel} " in text:
            lhs, rhs = text.split(f" {rel} ", 1)
            return lhs, rel, rhs
    raise ValueError(text)


# --- malformed claims ----------------------------------------------------------------------------------------------

UNKNOWN_FUNCTIONS = ["sin", "cos", "foo", "Exp", "gauss", "normal", "eval", "print", "open", "kl2", "gamma", "q",
                     "lgamma", "expm1"]
REFUSED_NUMBERS = ["10**10**10", "1e1001", "1e-1001", "2**(2**20)", "(10**10)**1000", "exp(exp(exp(exp(10))))",
                   "cosh(cosh(cosh(cosh(2))))", "sinh(1e7)", "exp(1e400)", "9" * 2001, "1e-400**1000"]
SYNTAX = ["{a} <= {b} <= {a}", "{a} != {b}", "{a}", "{a} and {b}", "lambda: {a}", "exp(x=1) <= {b}",
          "Max(*[1, 2]) <= {b}", "{a} % 2 <= {b}", "{a} // 2 <= {b}", "{a} ^ 2 <= {b}", "~{a} <= {b}",
          "not {a}", "{a} if {b} else 1", "_x <= {b}", "(y := 1) <= {b}", "[1, 2] <= {b}", "{{1}} <= {b}",
          "(1, 2) <= {b}", "{{1: 2}} <= {b}", "x is {b}", "x in {b}", "{a} <= {b}\x00", "", "   ",
          "{a} <=\n {b}", "True <= {b}", "None <= {b}", "1j <= {b}", "{a} <= ...", "{a} @ {b} <= 1",
          "{a} <= {b}; 1", "import os", "{a} <= {b}[0]", "{a} <= {b}.real", "().__class__ <= 1",
          "kl.__globals__ <= 1", "'a' <= {b}", '"1" <= {b}', "b'1' <= {b}", "f'{{x}}' <= {b}", "{a} <= {b} == 1",
          "[x for x in y] <= 1", "{a} <= -", "(" * 201 + "1" + ")" * 201 + " <= 2", "-" * 5000 + "1 <= 2",
          "exp(" * 120 + "1" + ")" * 120 + " <= 2", "{a} >>= {b}", "{a} => {b}", "{a} =< {b}", "{a} = {b}",
          "{a} ≤ {b}", "x_ <= 1_", "λ: 1 <= 2"]
WRONG_ARITY = ["exp({a}, {a})", "sqrt()", "Max()", "log({a}, {a}, {a})", "kl({P})", "kl({P}, {Q}, {a})",
               "renyi({P}, {Q})", "tv({P})", "max_div()", "hockey_stick({P}, {Q})", "kl(gaussian({a}), {Q})",
               "kl(lap2({a}, 1), {Q})", "kl(mix(0.5, {P}), {Q})", "kl(laplace({a}, 1, 2), {Q})",
               "kl(finite(), finite())", "kl(finite([]), finite([]))", "erf()", "abs({a}, {a})"]
DISTRIBUTION_AS_NUMBER = ["{P}", "exp({P})", "kl({P}, {a})", "kl({a}, {Q})", "{P} + 1", "gaussian(kl({P}, {Q}), 1)",
                          "kl(kl({P}, {Q}), {Q})", "renyi({P}, {Q}, {P})", "kl(gaussian(0, tv({P}, {Q})), {Q})",
                          "kl(finite([0.5, 0.5]), gaussian(0, 1))", "kl(finite([1]), finite([0.5, 0.5]))",
                          "kl({P}, x)", "kl(exp, {Q})", "exp", "kl"]
INVALID_LAWS = [  # must be refused where they are measured
    "kl(gaussian(0, -{p}), gaussian(0, 1))", "kl(gaussian(0, 1), gaussian(1, 0))",
    "tv(laplace(0, -{p}), laplace(1, 1))",
    "kl(lap2(0, 1, -{p}), lap2(1, 1, 2))", "tv(lap2(0, 0, 1), lap2(1, 1, 1))",
    "kl(finite([0.5, 0.6]), finite([0.5, 0.5]))", "kl(finite([1, 1]), finite([0.5, 0.5]))",
    "tv(finite([-0.5, 1.5]), finite([0.5, 0.5]))", "kl(finite([0.3]), finite([1]))",
    "kl(finite([0.5, 0.5]), finite([{p}, 1.5]))",
    "tv(mix(1.5, gaussian(0, 1), gaussian(1, 1)), gaussian(0, 1))",
    "tv(mix(-{p}, gaussian(0, 1), gaussian(1, 1)), gaussian(0, 1))",
    "kl(mix(1.25 + {p}, finite([0.5, 0.5]), finite([1, 0])), finite([0.5, 0.5]))",
    "renyi(gaussian(0, 1), gaussian(1, 1), 1)", "renyi(gaussian(0, 1), gaussian(1, 1), 0.5)",
    "renyi(laplace(0, 1), laplace(1, 1), -{p})", "renyi(finite([0.5, 0.5]), finite([0.25, 0.75]), 1 - {p})",
    "renyi(gaussian(0, 1), gaussian(1, 1), 0)", "kl(gaussian(0, 1), gaussian(inf, 1))",
    "kl(gaussian(0, inf), gaussian(0, 1))",
]
NAN_PRODUCING = ["inf - inf", "0*inf", "inf/inf", "sqrt(-1)", "log(-1)", "log(0)", "(-1)**0.5", "(-8)**(1/3)",
                 "0**0", "0**-1", "{a}/({a} - {a})", "inf*tv({P}, {P})", "kl({P}, {Q}) - inf + inf", "log(0)*0",
                 "sqrt({a} - 1e400)", "log({a} - {a})", "exp(inf) - exp(inf)", "Max(inf, -inf) - inf",
                 "erf(inf) - erfc(-inf)", "tanh(oo)*inf - inf", "{a}**{a}", "sqrt(-{a}**2 - 1)"]


PIECES = {  # what a mutation template is filled with, drawn only if the template names it
    "a": lambda: arithmetic(st.one_of(literal(), parameter(*ROLES)), max_leaves=2),   # a number
    "b": lambda: sides(max_leaves=2),                                                 # a side
    "P": lambda: continuous_laws(), "Q": lambda: continuous_laws(),                   # laws
    "p": lambda: st.sampled_from(["1", "0.5", "2", "1e-300", "1e300", "s", "pi"]),    # a positive number
}


@st.composite
def _fill(draw, template: str) -> tuple[str, frozenset]:
    """The template with its pieces drawn; and the parameters they use."""
    fill, names = {}, frozenset()
    for key, piece in PIECES.items():
        if "{" + key + "}" not in template:
            continue
        value = draw(piece())
        if isinstance(value, Term):
            names |= value.names
            fill[key] = value.wrapped() if key in ("a", "b") else value.text
        else:
            names |= {value} if value in ROLE_OF else frozenset()
            fill[key] = value
    return template.format(**fill), names


@st.composite
def malformed_claims(draw) -> Claim:
    """A mutation of the language, with ``must_fail`` where the CLI must refuse it."""
    kind = draw(st.sampled_from(["truncate", "unknown function", "wrong arity", "distribution as number",
                                 "unbalanced", "syntax", "refused number", "range", "invalid law",
                                 "invalid law in arithmetic", "nan", "parameter range out of role"]))
    rel = draw(st.sampled_from(RELATIONS))
    rhs = draw(sides(max_leaves=2))

    def claim(lhs_text, names, must_fail, real=False, where=None):
        if where is None:
            where = draw(where_for(names | rhs.names))
        return Claim(f"{lhs_text} {rel} {rhs.text}", where, real=real, must_fail=must_fail, note=kind)

    if kind == "truncate":
        base = draw(valid_claims())
        k = draw(st.integers(0, max(0, len(base.text) - 1)))
        return Claim(base.text[:k], base.where, real=False, note=kind)
    if kind == "unknown function":
        text, names = draw(_fill(draw(st.sampled_from(UNKNOWN_FUNCTIONS)) + "({b})"))
        return claim(text, names, must_fail=True)
    if kind == "wrong arity":
        text, names = draw(_fill(draw(st.sampled_from(WRONG_ARITY))))
        return claim(text, names, must_fail=True)
    if kind == "distribution as number":
        text, names = draw(_fill(draw(st.sampled_from(DISTRIBUTION_AS_NUMBER))))
        return claim(text, names, must_fail=True)
    if kind == "unbalanced":
        base = draw(valid_claims())
        text = base.text
        closers = [i for i, ch in enumerate(text) if ch == ")"]
        how = draw(st.sampled_from(["open", "close", "drop"] if closers else ["open", "close"]))
        if how == "open":
            i = draw(st.integers(0, len(text)))
            text = text[:i] + "(" + text[i:]
        elif how == "close":
            text = text + ")"
        else:
            i = draw(st.sampled_from(closers))
            text = text[:i] + text[i + 1:]
        return Claim(text, base.where, real=False, must_fail=True, note=f"{kind} ({how})")
    if kind == "syntax":
        text, names = draw(_fill(draw(st.sampled_from(SYNTAX))))
        return Claim(text, draw(where_for(names)), real=False, must_fail=True, note=kind)
    if kind == "refused number":
        number = draw(st.sampled_from(REFUSED_NUMBERS))
        text, names = draw(_fill(draw(st.sampled_from([number, "{b} + " + number, number + "*{b}"]))))
        return claim(text, names, must_fail=True)
    if kind == "range":
        return draw(_bad_range())
    if kind in ("invalid law", "invalid law in arithmetic"):
        text, names = draw(_fill(draw(st.sampled_from(INVALID_LAWS))))
        if kind == "invalid law in arithmetic":  # SymPy must not fold the invalid law away (0*kl(...), d - d)
            text = draw(st.sampled_from([f"0*{text}", f"{text} - {text}", f"{text}*0 + 1", f"{text}**0",
                                         f"Min({text}, -1)", f"Max({text}, inf)", f"tanh({text})*0"]))
        return claim(text, names, must_fail=True)
    if kind == "nan":
        text, names = draw(_fill(draw(st.sampled_from(NAN_PRODUCING))))
        return claim(text, names, must_fail=False)
    # parameter range out of role: a scale, weight or order whose whole range is invalid
    law, param, bad = draw(st.sampled_from([
        ("kl(gaussian(0, {n}), gaussian(1, 1))", "s", "[-2, -1]"),
        ("tv(laplace(0, {n}), laplace(1, 1))", "s", "[-1e300, 0]"),
        ("tv(mix({n}, gaussian(0, 1), gaussian(1, 1)), gaussian(0, 1))", "q", "[1.5, 2]"),
        ("tv(mix({n}, gaussian(0, 1), gaussian(1, 1)), gaussian(0, 1))", "q", "[-1, -1e-300]"),
        ("renyi(gaussian(0, 1), gaussian(1, 1), {n})", "a", "[0, 1]"),
        ("renyi(finite([0.5, 0.5]), finite([0.25, 0.75]), {n})", "a", "[-5, 1]"),
        ("kl(finite([{n}, 0.5]), finite([0.5, 0.5]))", "q", "[0.6, 0.9]"),
    ]))
    where_rest = draw(where_for(rhs.names - {param}))
    item = f"{param} in {bad}"
    where = item if not where_rest or not where_rest.strip() else f"{item}, {where_rest}"
    return Claim(f"{law.format(n=param)} {rel} {rhs.text}", where, real=False, must_fail=True, note=kind)


@st.composite
def _bad_range(draw) -> Claim:
    """A valid claim with a range text that is wrong: reversed, for an unused name, missing, repeated, unreadable,
    non-finite, naming a constant or function."""
    while True:
        lhs, rhs = draw(sides(max_leaves=2)), draw(sides(max_leaves=2))
        if lhs.names | rhs.names or draw(st.booleans()):
            break
    names = sorted(lhs.names | rhs.names)
    text = f"{lhs.text} {draw(st.sampled_from(RELATIONS))} {rhs.text}"
    items = [draw(range_item(n)) for n in names]
    how = draw(st.sampled_from(["reversed", "unused", "missing", "repeated", "unreadable", "non-finite",
                                "reserved", "empty-text"]))
    if how == "reversed" and names:
        n = draw(st.sampled_from(names))
        typed = draw(st.sampled_from(SPELLINGS[n]))
        lo, hi = draw(st.sampled_from([("1", "0"), ("1e300", "-1e300"), ("pi", "3"), ("2**-1073", "2**-1074"),
                                       ("1e-400", "0"), ("0.30000000000000004", "0.3")]))
        items[names.index(n)] = f"{typed} in [{lo}, {hi}]"
    elif how == "unused":
        items.append(draw(st.sampled_from(["zz in [0, 1]", "unused = 2", "t in [-1, 1]"])))
    elif how == "missing" and names:
        del items[draw(st.integers(0, len(items) - 1))]
        if not items:
            return Claim(text, None, real=False, must_fail=True, note=f"range {how}")
    elif how == "repeated" and names:
        n = draw(st.sampled_from(names))
        items.append(draw(range_item(n)))
    elif how == "unreadable":
        n = draw(st.sampled_from(names or ["x"]))
        bad = draw(st.sampled_from(["in 0..1", "in [0]", "in [0, 1, 2]", "in (0, 1)", "between 0 and 1", "in [0, y]",
                                    "in [0, 'a']", "in [0, 1", "in [x, 1]", "in [0, 1e1001]", "in [0, 10**10**10]",
                                    "in [0, 1]]", "in []", "= ", "in [0, sqrt(-1)]", "in [0, 1/0]"]))
        if names:
            items[names.index(n)] = f"{n} {bad}"
        else:
            items.append(f"{n} {bad}")
    elif how == "non-finite":
        n = draw(st.sampled_from(names or ["x"]))
        bad = draw(st.sampled_from(["in [0, inf]", "in [-inf, 0]", "= oo", "in [-oo, oo]", "in [0, exp(1e300)]"]))
        if names:
            items[names.index(n)] = f"{n} {bad}"
        else:
            items.append(f"{n} {bad}")
    elif how == "reserved":
        items.append(draw(st.sampled_from(["E = 1", "pi in [0, 1]", "exp = 1", "_x = 1", "kl in [0, 1]", "inf = 2",
                                           "gaussian = 1", "Max in [0, 1]", "1x in [0, 1]", "x.y = 1"])))
    else:  # a range text of nothing but separators
        return Claim(text, draw(st.sampled_from([",", ";", " , ; ", "[0, 1]"])), real=False,
                     must_fail=True, note=f"range {how}")
    return Claim(text, ", ".join(items), real=False, must_fail=True, note=f"range {how}")


def any_claims() -> st.SearchStrategy[Claim]:
    return st.one_of(valid_claims(), malformed_claims(), tame_claims(), true_claims())


def refused_claims() -> st.SearchStrategy[Claim]:
    return malformed_claims().filter(lambda c: c.must_fail)
