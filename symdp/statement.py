"""A statement, compiled once: both sides as mpmath functions of the parameters and of what a witness measures.

The statement that prints is the statement that runs. A theorem's witness does not compute its bound; it
*measures* the atoms the statement names that are not parameters — divergence heads such as ``KL(D, D')`` and
derived symbols such as the ε of a drawn pair — and both sides of the relation are then evaluated from the SymPy
statement itself (lambdified to mpmath once per theorem).

>>> import sympy as sp
>>> from symdp.expressions import KL
>>> eps = sp.Symbol("epsilon", real=True)
>>> D, Dp = sp.symbols("D D'")
>>> s = CompiledStatement(sp.Le(KL(D, Dp), eps * (sp.exp(eps) - 1) / 2), parameters=())
>>> s.measured
(KL(D, D'), epsilon)
>>> import mpmath
>>> with mpmath.workdps(20):
...     lhs, rhs, values = s.evaluate({}, {KL(D, Dp): mpmath.mpf("0.25"), "epsilon": 1})
...     print(lhs.value, rhs.value)
0.25 0.85914091422952261768

**Error propagation.** A side is ``f(params, m_1, ..., m_k)`` with measurements ``m_i`` known to ``± e_i``. Its
error is ``Σ_i max(|f(.., m_i - e_i, ..) - f|, |f(.., m_i + e_i, ..) - f|)`` (evaluated with 10 extra digits so
that ``m_i ± e_i`` is representable; ``m_i ± e_i`` is kept in the atom's domain, :func:`atom_domain`), plus a rounding
floor of 16 units in the last place relative to the value. This secant over the whole error interval is
conservative for ``f`` monotone in each ``m_i``, including non-smooth ones (``sqrt`` at 0, ``Max``); it neglects the
interaction of two errors, which is second order in errors that are already tiny.

**Certified sides.** Where every measured atom is a certified enclosure (:attr:`Estimate.certified`, ball
arithmetic in the engine) and the side is built only from operations Arb evaluates rigorously (:data:`ARB_FUNCTIONS`:
arithmetic, powers, exp, log, the hyperbolic functions, erf, Abs, Max, Min, finite sums, a Piecewise whose conditions
the balls decide, a ceiling, floor or factorial of a ball pinned to one integer), the side is also evaluated in
python-flint's Arb with the parameters as exact balls: the result is a certified enclosure too, and a verdict decided
by it is proved, not estimated (:mod:`symdp.verify`). Every measurement's ball is first intersected with its atom's
domain (a KL divergence is never negative, a total variation never above 1), and evaluated a second time widened by
the rounding of the laws' construction (:func:`construction_floor`; none where the witness marks its laws
:class:`BuiltExactly`): the verifier decides inequalities on the second, so that a divergence ``>= 0`` is proved
whatever the rounding, and equality to working precision on the first. Anything else (a numeric procedure, a
Piecewise condition the balls leave open) keeps the estimate above.

**Size.** Each side also reports the size its value is to be compared with: the magnitude of the numbers its sums
are computed from (:func:`_magnitude`: every sum's terms taken in absolute value), so that a difference that
cancels to 0 is "0 relative to its terms", with an error of a few units of that size; or the measurement's own
scale when the side is a single measured atom.
"""

from __future__ import annotations

import builtins
import math
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Mapping, Optional, Sequence

import mpmath
import sympy as sp
from sympy.core.mul import _keep_coeff
from sympy.printing.pycode import MpmathPrinter
from flint import arb

from symdp.errors import InvalidParameter
from symdp.numeric import erfc
from symdp.estimate import Estimate, Method, arb_precision, as_estimate, exact_ball, mpf_down, mpf_up, weakest
from symdp.expressions import Quantity

MAX_LOG = mpmath.mpf(10) ** 6
"""Largest |log| of a power's, exp's, cosh's or sinh's result that a side may compute (results up to
e^(10^6)): mpmath computes e^(e^(e^10)) happily, but then hangs printing it or raising it to a power."""


def guarded_pow(x, y):
    """``x**y``, refusing results beyond e^MAX_LOG (an OverflowError, which callers turn into a one-line error)."""
    x, y = mpmath.mpmathify(x), mpmath.mpmathify(y)
    # |ln|x|| <= (|mag x| + 1) ln 2: the logarithm is taken only where that bound lets the product pass MAX_LOG
    if x != 0 and mpmath.isfinite(x) and mpmath.isfinite(y) and abs(y) * (abs(mpmath.mag(x)) + 1) > MAX_LOG \
            and abs(y) * abs(mpmath.log(abs(x))) > MAX_LOG:
        raise OverflowError(f"the power {mpmath.nstr(x, 5)}**{mpmath.nstr(y, 5)} is too large to compute")
    return x**y


def guarded(fn, name: str, two_sided: bool):
    """``fn`` refusing arguments whose result would exceed e^MAX_LOG."""
    def guarded_fn(x):
        x = mpmath.mpmathify(x)
        if mpmath.isfinite(x) and (abs(x) if two_sided else x) > MAX_LOG:
            raise OverflowError(f"{name}({mpmath.nstr(x, 5)}) is too large to compute")
        return fn(x)

    return guarded_fn


GUARDED_NAMESPACE = {"_pow": guarded_pow, "exp": guarded(mpmath.exp, "exp", False),
                     "cosh": guarded(mpmath.cosh, "cosh", True), "sinh": guarded(mpmath.sinh, "sinh", True),
                     "erfc": erfc}   # mpmath's own overflows beyond 1.5e154 without GMP


class _SignApart:
    """A negative product printed as the negation of its positive part. SymPy's printers parenthesize the factors of
    a negative product at the precedence of a sum (the product's own, with its sign), so that the unevaluated
    ``-1*(1/2)**-1`` prints as ``-1/1/2``, which Python reads as -1/2 (a claim's fixed value put in place, ``-1/s``
    at ``s = 1/2``). Negation is exact in mpmath and in Arb: the values of evaluated products do not change."""

    def _print_Mul(self, expr):
        coefficient, rest = expr.as_coeff_Mul()
        if coefficient.is_negative and rest is not sp.S.One:
            return f"(-({self._print(_keep_coeff(-coefficient, rest))}))"
        return super()._print_Mul(expr)


class _Printer(_SignApart, MpmathPrinter):
    """lambdify's mpmath printer, with Sum/Product bounds made integers and every power guarded.

    Parameters arrive as mpf (so that 1/r is exact to working precision), and ``range`` needs ints; the index
    itself is an mpf again inside the body, so a body such as 1/i is computed at working precision, not in floats.
    """

    def _print_Sum(self, expr):
        return f"(builtins.sum({self._print(expr.function)} {self._loops(expr)}))"

    def _print_Product(self, expr):
        return f"(fprod({self._print(expr.function)} {self._loops(expr)}))"

    def _loops(self, expr) -> str:
        return " ".join(f"for {self._print(i)} in map(mpf, range(int({self._print(a)}), int({self._print(b)})+1))"
                        for i, a, b in expr.limits[::-1])

    def _print_Pow(self, expr, rational=False):
        if expr.exp == sp.S.Half:
            return f"sqrt({self._print(expr.base)})"
        return f"_pow({self._print(expr.base)}, {self._print(expr.exp)})"


_PRINTER_SETTINGS = {"fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True,
                     "user_functions": {}}
"""lambdify's own settings for its printer (an unknown function is printed as a call, resolved at run time)."""


def lambdify_mpmath(args: Sequence, expr):
    """``sympy.lambdify(args, expr, "mpmath")`` whose Sums and Products accept mpf bounds and whose powers, exp, cosh
    and sinh refuse astronomically large results. ``args`` should be plain symbols (no Dummies are substituted)."""
    return sp.lambdify(args, expr, modules=[{"builtins": builtins}, GUARDED_NAMESPACE, "mpmath"],
                       printer=_Printer(_PRINTER_SETTINGS), dummify=False)


class _PrintabilityCheck(_Printer):
    """:class:`_Printer` visiting every node as it would, writing nothing for sums and products (ordering their terms
    for print is most of the printing's cost, and cannot fail) nor for the ``leaves``, which the code will not hold:
    they are renamed to its arguments before it is written."""

    def __init__(self, settings: dict, leaves):
        super().__init__(settings)
        self._leaves = leaves

    def _print(self, expr, **kwargs):
        if isinstance(expr, sp.Basic) and expr in self._leaves:
            return ""
        return super()._print(expr, **kwargs)

    def _print_Add(self, expr, order=None):
        for term in expr.args:
            self._print(term)
        return ""

    _print_Mul = _print_Add


def check_mpmath_printable(expr: sp.Basic, renaming: Mapping) -> None:
    """Raise what :func:`lambdify_mpmath` would raise on ``rename(expr, renaming)`` for an operation it cannot write
    in mpmath (a ``Derivative``, a ``Limit``: sympy's ``PrintMethodNotImplementedError``), without compiling or
    renaming: printing the code is where lambdify fails. The nodes are visited by :class:`_PrintabilityCheck`; where
    one fails, the printer itself prints the renamed ``expr``, so that the error is the one lambdify gives (naming the
    first node it meets)."""
    try:
        _PrintabilityCheck(_PRINTER_SETTINGS, renaming).doprint(expr)
    except Exception:
        _Printer(_PRINTER_SETTINGS).doprint(rename(expr, renaming))
        raise


ARB_FUNCTIONS = (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.tanh, sp.cosh, sp.sinh, sp.erf, sp.erfc, sp.atan,
                 sp.Abs, sp.Max, sp.Min, sp.Sum, sp.gamma, sp.Tuple, sp.Piecewise, sp.functions.elementary.
                 piecewise.ExprCondPair, sp.core.relational.Relational, sp.And, sp.Or, sp.Not,
                 sp.logic.boolalg.BooleanAtom, sp.ceiling, sp.floor, sp.factorial)
"""The operations a side may use to be evaluated in Arb (:func:`lambdify_arb`); numbers and symbols are always fine."""


def arb_evaluable(expr: sp.Basic) -> bool:
    """Whether every operation of ``expr`` is one Arb evaluates rigorously (:data:`ARB_FUNCTIONS`)."""
    return all(isinstance(node, (sp.Symbol, sp.Number, sp.NumberSymbol))
               or isinstance(node, ARB_FUNCTIONS) or node.func in ARB_FUNCTIONS or hasattr(node.func, "_arb_")
               for node in sp.preorder_traversal(expr) if not isinstance(node, sp.Tuple)) \
        and not expr.has(sp.I)


from symdp.errors import Uncertain  # noqa: E402 (re-exported: witnesses raise it where their balls cannot decide)


def _arb_integer(x) -> int:
    """A Sum's bound: an int, or an exact integer ball."""
    if isinstance(x, int):
        return x
    if x.is_exact() and x.is_integer():
        return int(x.unique_fmpz())
    raise Uncertain(f"the sum bound {x} is not an exact integer")


def _arb_namespace() -> dict:
    def unary(method):
        return lambda x: getattr(exact_ball(x), method)()

    def fold(method):
        def run(*xs):
            out = exact_ball(xs[0])
            for x in xs[1:]:
                out = getattr(out, method)(exact_ball(x))
            return out
        return run

    def power(x, y):
        x = exact_ball(x)
        if isinstance(y, int) or (isinstance(y, arb) and y.is_exact() and y.is_integer()):
            return _integer_power(x, int(y if isinstance(y, int) else y.unique_fmpz()))
        return x ** exact_ball(y)

    functions = {name: unary(name) for name in ("sqrt", "exp", "log", "tanh", "cosh", "sinh", "erf", "erfc", "atan",
                                                 "gamma")}
    return {**functions, "mpf": exact_ball, "_pow": power, "max": fold("max"), "min": fold("min"),
            "_pi": arb.pi, "_e": arb.const_e, "_integer": _arb_integer, "_compare": _arb_compare,
            "_piecewise": _arb_piecewise, "ceil": _rounded("ceil"), "floor": _rounded("floor"),
            "factorial": _factorial, "_log2": _log2, "_nonnegative": lambda x: exact_ball(x).nonnegative_part()}


def _log2(x):
    """``log2`` of a ball: the exact integer ``k`` where the ball is exactly ``2^k``, else ``log(x)/log(2)`` in balls.

    >>> from flint import arb
    >>> _log2(arb(1) / 8), _log2(arb(3)).contains(arb(3).log() / arb(2).log())
    (-3.00000000000000, True)
    """
    x = exact_ball(x)
    if x.is_exact() and x > 0:
        mantissa, exponent = x.mid().man_exp()
        if mantissa == 1:
            return arb(int(exponent))
    return x.log() / arb(2).log()


def _factorial(x):
    """``n!`` of a ball that is one integer ``n >= 0`` (an exact integer ball), exactly; :class:`Uncertain` else.

    >>> from flint import arb
    >>> _factorial(arb(5))
    120.000000000000
    """
    n = exact_ball(x)
    if not (n.is_exact() and n.is_integer() and n >= 0):
        raise Uncertain(f"the factorial of {n}, which is not one integer >= 0")
    return arb(math.factorial(int(n.unique_fmpz())))


def _rounded(method: str):
    """``ceil`` or ``floor`` of a ball, where the ball pins it to one integer (else :class:`Uncertain`: a ball
    astride an integer, such as log2(1/eps) at a dyadic eps, cannot say which side it is on)."""
    def run(x):
        value = getattr(exact_ball(x), method)()
        if not (value.is_exact() and value.is_integer()):
            raise Uncertain(f"{method} of {exact_ball(x)} is not one integer")
        return value
    return run


_RELATIONS = {">": lambda d: (d > 0, d <= 0), ">=": lambda d: (d >= 0, d < 0), "<": lambda d: (d < 0, d >= 0),
              "<=": lambda d: (d <= 0, d > 0), "==": lambda d: (d == 0, d != 0), "!=": lambda d: (d != 0, d == 0)}


def _arb_compare(relation: str, lhs, rhs) -> bool:
    """A relation between two balls, decided: True or False where the balls prove it, :class:`Uncertain` otherwise
    (a comparison of Arb balls is False when it is not proved, which is not the same as the relation failing).

    >>> from flint import arb
    >>> _arb_compare(">", arb(1), arb(0)), _arb_compare("<=", arb(1), arb(0))
    (True, False)
    >>> _arb_compare(">", arb(0, 1e-30), arb(0))
    Traceback (most recent call last):
    ...
    symdp.errors.Uncertain: the balls do not decide [+/- 1.01e-30] > 0
    """
    difference = exact_ball(lhs) - exact_ball(rhs)
    holds, fails = _RELATIONS[relation](difference)
    if holds or fails:
        return bool(holds)
    raise Uncertain(f"the balls do not decide {exact_ball(lhs)} {relation} {exact_ball(rhs)}")


def _arb_piecewise(*pieces):
    """The value of the first piece whose condition the balls prove (each a pair of thunks: condition, value)."""
    for condition, value in pieces:
        if condition():
            return value()
    raise Uncertain("no piece of the Piecewise applies")


def _integer_power(x, n: int):
    """``x ** n`` for an Arb ball and an integer ``n``. python-flint 0.9 gives NaN for a ball centred at exactly 0
    with a radius (a divergence of 0 widened by the construction floor, squared); that one case is computed by
    squaring, an even power kept non-negative.

    >>> from flint import arb
    >>> _integer_power(arb(0, 1e-10), 2).upper() <= 1.01e-20, _integer_power(arb(0, 1e-10), 2).lower() >= 0
    (True, True)
    """
    if n < 0:
        return 1 / _integer_power(x, -n)
    if n == 0:
        return arb(1)
    if x.mid() != 0 or x.is_exact():
        return x ** n
    half = _integer_power(x, n // 2)
    square = (half * half).nonnegative_part()
    return square * x if n % 2 else square


class _ArbPrinter(_SignApart, MpmathPrinter):
    """The code of :func:`lambdify_arb`: Sum bounds through ``_integer``, powers through an exact-integer test."""

    def _print_Sum(self, expr):
        loops = " ".join(f"for {self._print(i)} in map(mpf, range(_integer({self._print(a)}), "
                         f"_integer({self._print(b)})+1))" for i, a, b in expr.limits[::-1])
        return f"(builtins.sum(({self._print(expr.function)} {loops}), mpf(0)))"

    def _print_Pow(self, expr, rational=False):
        if expr.exp == sp.S.Half:
            # A base SymPy proves non-negative (a sum of squares, τ₁² + τ₂²) keeps only its non-negative part: its
            # ball, summed from balls near 0, may reach below 0 by rounding, where Arb's square root is NaN
            if expr.base.is_nonnegative:
                return f"sqrt(_nonnegative({self._print(expr.base)}))"
            return f"sqrt({self._print(expr.base)})"
        return f"_pow({self._print(expr.base)}, {self._print(expr.exp)})"

    def _print_Mul(self, expr):
        # log(u)/log(2), as SymPy writes log(u, 2): exact where u is an exact power of 2, so that a ceiling or floor of
        # log2(1/eps) at a dyadic eps is one integer rather than a ball astride it
        halves = sp.Pow(sp.log(2), -1)
        if len(expr.args) == 2 and halves in expr.args:
            (inner,) = [x for x in expr.args if x != halves]
            if isinstance(inner, sp.log):
                return f"_log2({self._print(inner.args[0])})"
        return super()._print_Mul(expr)

    def _print_Piecewise(self, expr):
        pieces = ", ".join(f"(lambda: {self._print(c)}, lambda: {self._print(e)})" for e, c in expr.args)
        return f"_piecewise({pieces})"

    def _print_Relational(self, expr):
        return f"_compare({expr.rel_op!r}, {self._print(expr.lhs)}, {self._print(expr.rhs)})"

    # Constants at the precision of the call, not of the compilation.
    def _print_Pi(self, expr):
        return "_pi()"

    def _print_Exp1(self, expr):
        return "_e()"


def lambdify_arb(args: Sequence, expr):
    """``expr`` as a function of Arb balls (python-flint), or None when it uses an operation outside
    :data:`ARB_FUNCTIONS`. Literals become exact balls (a binary Float exactly, 1/3 as a ball around it)."""
    if not arb_evaluable(expr):
        return None
    printer = _ArbPrinter(_PRINTER_SETTINGS)
    # numeric functions by their Arb enclosures, never their mpmath implementations (use_imps=False)
    own = {f.func.__name__: f.func._arb_ for f in expr.atoms(sp.Function) if hasattr(f.func, "_arb_")}
    return sp.lambdify(args, expr, modules=[{"builtins": builtins}, own, _arb_namespace()], printer=printer,
                       dummify=False, use_imps=False)


def rename(expr: sp.Basic, renaming: Mapping) -> sp.Basic:
    """``expr`` with some subexpressions renamed, not re-simplified: SymPy's automatic simplification may spend
    seconds on assumptions queries of nested functions (tanh(tanh(...))), and has nothing to add here."""
    with sp.evaluate(False):
        return expr.xreplace(dict(renaming))


def measured_atoms(statement: sp.Basic, parameters: Sequence[sp.Symbol]) -> tuple[sp.Basic, ...]:
    """What a witness must measure: the divergence heads of ``statement`` (sorted), then its free symbols that are
    neither parameters nor inside a head (sorted by name)."""
    found = statement.atoms(Quantity)
    # A head inside another head's arguments (PrivacyLossOf(P, Q) in SubgaussianStandard(PrivacyLossOf(P, Q))) names
    # a random variable or law, not a number: only the outermost heads are measured.
    heads = sorted((h for h in found if not any(g != h and g.has(h) for g in found)), key=sp.default_sort_key)
    rest = _free_symbols_outside(statement, heads, set(parameters))
    return tuple(heads) + tuple(sorted(rest, key=lambda s: s.name))


def _free_symbols_outside(expr: sp.Basic, heads: Sequence[sp.Basic], parameters: set) -> set:
    """The free symbols of ``expr`` with ``heads`` renamed away, but the parameters. Where no other symbol of a head
    occurs outside the heads (the laws ``P``, ``Q`` a divergence names, say), they are those of ``expr`` but the
    heads', read off the tree; else (a head under a sum over its index) ``expr`` is renamed, which rebuilds it and,
    through ``sympy.evaluate(False)``, empties SymPy's cache."""
    inside = set().union(*(h.free_symbols for h in heads)) - parameters
    keys = set(heads)
    walk = sp.preorder_traversal(expr)
    for node in walk:
        if node in keys:
            walk.skip()   # replaced whole, as xreplace does
        elif node in inside:
            holes = {h: sp.Dummy() for h in heads}
            return rename(expr, holes).free_symbols - set(holes.values()) - parameters
    return expr.free_symbols - inside - parameters


def _magnitude(expr: sp.Basic) -> sp.Basic:
    """``expr`` with every sum replaced by the sum of its terms' magnitudes: the size of the numbers a cancelling
    sum is computed from, wherever it sits in a product or power. ``e^{2θt} - 1`` at ``θt = 10^-175`` is exactly 0 at
    50 digits *and* at 65: comparing two precisions cannot see that all its digits were lost, but its magnitude,
    ``e^{2θt} + 1 ≈ 2``, says the 0 is known to 10^-50 only. (Cancellation inside a function's argument, as in
    ``log(1 + x)``, is not seen here.)"""
    if expr.is_Add:
        return sp.Add(*[_magnitude(a) for a in expr.args], evaluate=False)
    if expr.is_Mul:
        return sp.Mul(*[_magnitude(a) for a in expr.args], evaluate=False)
    if expr.is_Pow and not (expr.exp.is_number and expr.exp.is_negative):
        return sp.Pow(_magnitude(expr.base), expr.exp, evaluate=False)
    return sp.Abs(expr, evaluate=False)


def _nonnegative(atom: sp.Basic) -> bool:
    return bool(getattr(atom, "is_extended_nonnegative", False) or getattr(atom, "is_nonnegative", False))


def atom_domain(atom: sp.Basic) -> tuple:
    """The interval ``(low, high)`` a measured atom's true value lies in, whatever the error of its measurement: the
    head's own :attr:`~symdp.expressions.Quantity.domain` (a total variation in [0, 1]), ``[0, inf]`` for any other
    non-negative atom, else the real line.

    >>> from symdp.expressions import KL, TV
    >>> P, Q = sp.symbols("P Q")
    >>> atom_domain(TV(P, Q)), atom_domain(KL(P, Q)), atom_domain(sp.Symbol("x"))
    ((0, 1), (0, mpf('+inf')), (mpf('-inf'), mpf('+inf')))
    """
    domain = getattr(atom, "domain", None)
    if isinstance(domain, tuple):
        return domain
    if _nonnegative(atom):
        return (0, mpmath.inf)
    return (-mpmath.inf, mpmath.inf)


class BuiltExactly:
    """A measurement of laws that the witness built *exactly* from the draw (their parameters are the drawn binary
    numbers or exact constants, nothing rounded), or of laws that are themselves an instance of the statement's
    setting (exact rationals, every quantity of the statement, hypotheses included, measured on them), marked so by
    the witness: the verifier then adds no floor for the rounding of their construction (see :mod:`symdp.verify`),
    and an equality of such laws can be proved exact.

    >>> BuiltExactly(mpmath.mpf(1)).value
    mpf('1.0')
    """

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _within(m: Estimate, domain: tuple) -> Estimate:
    """A measurement moved into its atom's domain: the value clamped to it (its error kept, so the enclosure still
    holds the part of the old one that lies in the domain)."""
    low, high = domain
    if not mpmath.isfinite(m.value) or low <= m.value <= high:
        return m
    return Estimate(mpmath.mpf(low if m.value < low else high), m.error, m.method, m.scale, m.certified)


def _clamped_ball(ball, domain: tuple):
    """An Arb ball intersected with ``domain``: Arb's ``nonnegative_part`` keeps a lower end of 0 exact (a divergence
    that may be 0 is never below it), and the same, reflected, an upper end; a ball that misses the domain
    altogether (a measurement contradicting it by rounding) becomes the domain's nearer end."""
    low, high = domain
    # only where the ball reaches past an end: arithmetic with the end (1 - (1 - x)) would lose a tiny x's digits
    if mpmath.isfinite(low) and not ball.lower() >= low:
        ball = ball.nonnegative_part() if low == 0 else (ball - arb(low)).nonnegative_part() + arb(low)
    if mpmath.isfinite(high) and not ball.upper() <= high:
        ball = arb(high) - (arb(high) - ball).nonnegative_part()
    return ball


def _infinity(ball) -> Optional[mpmath.mpf]:
    """``+inf`` or ``-inf`` where an Arb ball is exactly that infinity (an infinite midpoint and a finite radius:
    ``+oo`` plus any finite ball), else None (a finite ball, NaN, or an unbounded radius, which says nothing).

    >>> from flint import arb
    >>> _infinity(arb("inf") + arb(1, 0.5)), _infinity(arb(1)), _infinity(arb("inf") - arb("inf"))
    (mpf('+inf'), None, None)
    """
    middle = ball.mid()
    if middle.is_finite() or middle.is_nan() or not ball.rad().is_finite():
        return None
    return mpmath.inf if middle > 0 else -mpmath.inf


class Side:
    """One side of a relation: ``f(parameters, measurements)``, renamed and lambdified on first use (a catalogue
    declares hundreds of sides, and a run evaluates those of the theorems it checks), but checked at declaration to be
    one that can be (:func:`check_mpmath_printable`), so that a statement mpmath cannot evaluate fails where it is
    written.

    ``renaming`` maps the measured atoms and the parameters to the code's arguments ``args`` (the parameters', then
    the measurements')."""

    def __init__(self, declared: sp.Expr, renaming: Mapping, args: Sequence[sp.Symbol], measured: Sequence[sp.Basic],
                 domains: Sequence[tuple], label: str):
        self.declared = declared
        self.label = label
        self._renaming = renaming
        self._args = list(args)
        check_mpmath_printable(declared, renaming)
        # the side is one measured atom: its own scale is the side's size
        self.single = measured.index(declared) if declared in measured else None
        self.domains = list(domains)

    @cached_property
    def expr(self) -> sp.Expr:
        """The side in the code's arguments (:func:`rename`)."""
        return rename(self.declared, self._renaming)

    @cached_property
    def f(self):
        """The side in mpmath, a function of the parameters then the measurements."""
        return lambdify_mpmath(self._args, self.expr)

    @cached_property
    def magnitude(self):
        """The side's :func:`_magnitude` in mpmath, or None where the side has no sum (its size is its value)."""
        magnitude = _magnitude(self.expr)
        return lambdify_mpmath(self._args, magnitude) if magnitude.has(sp.Add) else None

    @cached_property
    def _arb_f(self):
        """The side in Arb balls (:func:`lambdify_arb`), or None where it is not Arb-evaluable."""
        return lambdify_arb(self._args, self.expr)

    def ball(self, params: list, balls: list):
        """The side as an Arb ball from the measurements' balls, or None where the side is not Arb-evaluable.
        Parameters enter as exact balls (the draw is the binary number the witness was evaluated at)."""
        if self._arb_f is None:
            return None
        try:
            with arb_precision(mpmath.mp.prec + 20):
                value = self._arb_f(*[exact_ball(x) for x in params], *balls)
                if isinstance(value, int):   # a constant side
                    value = arb(value)
        except (Uncertain, ArithmeticError, ValueError, TypeError):
            return None
        return value if isinstance(value, arb) and (value.is_finite() or _infinity(value) is not None) else None

    def __call__(self, params: list, measured: list[Estimate], floors: list, balls=None) -> "SideValue":
        """The side at a draw, with the interval that holds it for laws whose construction was rounded too (each
        measurement widened by its ``floors`` entry, :func:`construction_floor`, and kept in its domain).

        An enclosure where ``balls`` (the measurements' balls, as measured and widened, see
        :meth:`CompiledStatement.evaluate`) are given and the side is Arb-evaluable; else an estimate whose error is
        propagated from the measurements' by secants."""
        centre = [m.value for m in measured]
        methods = _methods(measured)
        if balls is not None:
            ball = self.ball(params, balls[0])
            # Measurements of laws built exactly are not widened (the same ball twice): one evaluation serves both.
            same = ball is not None and all(x is y for x, y in zip(*balls))
            floored = ball if same else self.ball(params, balls[1]) if ball is not None else None
            infinity = None if floored is None else _infinity(ball)
            if infinity is not None:
                # an exact infinity (+oo plus a finite ball, say), the same at both balls: proved
                proved = _infinity(floored) == infinity
                return SideValue(infinity, mpmath.mpf(0), floored=(infinity, infinity), methods=methods,
                                 certified=proved)
            if floored is not None:
                # The side's value is the ball's centre: its evaluation in mpmath as well would only repeat it.
                enclosure = Estimate.from_arb(ball, weakest(methods))
                size = self._size(params, centre, enclosure.value, measured)
                with arb_precision(mpmath.mp.prec + 20):   # (an end of a ball is rounded to flint's precision)
                    ends = (mpf_down(floored.lower()), mpf_up(floored.upper()))
                return SideValue(enclosure.value, enclosure.error, enclosure.method, scale=size, certified=True,
                                 methods=methods, floored=ends)
        value = self._real(self.f(*params, *centre))
        if not mpmath.isfinite(value):
            # proved only where the side is one measured atom that is a certified exact infinity (mismatched supports)
            proved = self.single is not None and measured[self.single].certified and measured[self.single].error == 0
            return SideValue(value, mpmath.mpf(0), floored=(value, value), methods=methods, certified=proved)
        size = self._size(params, centre, value, measured)
        rounding = 16 * abs(value) * mpmath.mpf(10) ** (-mpmath.mp.dps)
        if self.single is None and self.magnitude is not None:
            rounding += 16 * size * mpmath.mpf(10) ** (-mpmath.mp.dps)  # what a cancelling sum may have lost
        error = rounding + self._propagated(params, centre, value, [m.error for m in measured])
        widened = error if not any(floors) else \
            rounding + self._propagated(params, centre, value, [m.error + f for m, f in zip(measured, floors)])
        return SideValue(value, +error, scale=size, floored=(value - widened, value + widened), methods=methods)

    def _propagated(self, params: list, centre: list, value, widths: list) -> mpmath.mpf:
        """The change of the side when each measurement moves by up to its width (inside its domain): the secants
        to both ends of each interval, summed over the measurements."""
        total = mpmath.mpf(0)
        with mpmath.workdps(mpmath.mp.dps + 10):  # so that m_i ± e_i is representable
            for i, width in enumerate(widths):
                if width == 0 or not mpmath.isfinite(centre[i]):
                    continue
                if not mpmath.isfinite(width):
                    return mpmath.inf
                low, high = self.domains[i]
                changes = []
                for corner in (max(centre[i] - width, low), min(centre[i] + width, high)):
                    try:
                        moved = self._real(self.f(*params, *centre[:i], corner, *centre[i + 1:]))
                    except (ArithmeticError, ValueError, InvalidParameter):
                        moved = mpmath.nan   # undefined at the end of the interval (1/0, the root of a negative)
                    changes.append(abs(moved - value) if mpmath.isfinite(moved) else mpmath.inf)
                total += max(changes)
        return total

    def _size(self, params: list, centre: list, value, measured: list[Estimate]) -> mpmath.mpf:
        if self.single is not None:
            return measured[self.single].size
        if self.magnitude is not None:
            return max(abs(value), abs(self._real(self.magnitude(*params, *centre))))
        return abs(value)

    def _real(self, x) -> mpmath.mpf:
        if isinstance(x, mpmath.mpc):
            if x.imag != 0:
                raise InvalidParameter(f"the {self.label} is the complex number {mpmath.nstr(x, 8).strip('()')}")
            x = x.real
        return mpmath.mpf(x)


@dataclass(frozen=True)
class SideValue(Estimate):
    """A side at a draw: its value for the laws as the witness built them (``value ± error``; an enclosure where
    ``certified``), and ``floored``, the interval ``(low, high)`` that holds it for laws whose construction was
    rounded too: each measurement widened by :func:`construction_floor` and kept in its domain. The verifier decides
    inequalities on ``floored`` and equality to working precision on ``value ± error``."""

    floored: tuple = (-mpmath.inf, mpmath.inf)
    methods: frozenset = frozenset()
    """The provenance of every measurement the side is computed from; its ``method`` is the weakest of them."""
    rounded: bool = False
    """Whether a measurement of the draw is of laws built at working precision, so that ``floored`` widens it by
    :func:`construction_floor` (not proved); False where every law was built exactly from the draw."""

    def __post_init__(self):
        if self.methods:
            object.__setattr__(self, "method", weakest(self.methods))
        else:
            object.__setattr__(self, "methods", frozenset({Method(self.method)}))
        super().__post_init__()


CONSTRUCTION_FLOOR_UNITS = 4
"""Units of 10^-dps by which a measurement of laws built at working precision may be off from that of the laws the
draw names (:func:`construction_floor`)."""


def construction_floor(value, rounding: str = "absolute") -> mpmath.mpf:
    """How far the rounding of a law's construction may move a measurement of it. A finite law's atoms
    e^ε/(1 + e^ε), say, are rounded *relatively*, which moves their log-ratios, and so a divergence, *absolutely*:
    :data:`CONSTRUCTION_FLOOR_UNITS` units of 10^-dps on the unit scale, or relative to the value if it is larger
    (``rounding="absolute"``). A density, a probability or a moment moves relatively
    (``rounding="relative"``, :attr:`symdp.expressions.Quantity.rounding`). Not proved: amplification by the
    divergence is left to the verifier's half-digits rule (:mod:`symdp.verify`).

    >>> with mpmath.workdps(20):
    ...     print(construction_floor(mpmath.mpf("0.001")), construction_floor(mpmath.mpf(1000)),
    ...           construction_floor(mpmath.mpf("0.001"), "relative"))
    4.0e-20 4.0e-17 4.0e-23
    """
    scale = abs(mpmath.mpf(value))
    return CONSTRUCTION_FLOOR_UNITS * (max(scale, 1) if rounding == "absolute" else scale) \
        * mpmath.mpf(10) ** (-mpmath.mp.dps)


def _methods(measured: Sequence[Estimate]) -> frozenset:
    return frozenset(m.method for m in measured) or frozenset({Method.EXACT})


class CompiledStatement:
    """A relation compiled against its parameters: :meth:`evaluate` gives both sides from a witness's measurements.

    ``parameters`` are the symbols drawn by the checker; every other free symbol, and every divergence head, is
    *measured* (see :func:`measured_atoms`). :attr:`relation` is ``"<="``, ``"<"``, ``">="``, ``">"`` or ``"=="``:
    a strict relation keeps its meaning (a bound met with equality does not satisfy it).
    """

    RELATIONS = {sp.Le: "<=", sp.Lt: "<", sp.Ge: ">=", sp.Gt: ">", sp.Eq: "=="}

    def __init__(self, statement: sp.core.relational.Relational, parameters: Sequence[sp.Symbol]):
        self.statement = statement
        self.relation = self.RELATIONS[type(statement)]
        self.parameters = tuple(parameters)
        self.measured = measured_atoms(statement, self.parameters)
        # Generated code names the parameters _p0, _p1, ... and the measurements _m0, ... (user names never start
        # with _), so a parameter may be named like an mpmath function (mpf, max) without shadowing it.
        args = [sp.Symbol(f"_p{i}", real=True) for i in range(len(self.parameters))]
        holes = [sp.Symbol(f"_m{i}", real=True) for i in range(len(self.measured))]
        renaming = {**dict(zip(self.measured, holes)), **dict(zip(self.parameters, args))}
        self.domains = [atom_domain(a) for a in self.measured]
        self.roundings = [getattr(a, "rounding", "absolute") for a in self.measured]
        self.lhs = Side(statement.lhs, renaming, args + holes, self.measured, self.domains, "left-hand side")
        self.rhs = Side(statement.rhs, renaming, args + holes, self.measured, self.domains, "right-hand side")

    @cached_property
    def names(self) -> dict:
        """Each measured atom's ``str``: the name a witness may give it and :meth:`evaluate` reports it by. Printed
        once, on first use: SymPy's printer costs more than a draw's own arithmetic."""
        return {a: str(a) for a in self.measured}

    def measurements(self, output: Any) -> tuple[list[Estimate], list[bool]]:
        """A witness's output as Estimates in the order of :attr:`measured`, each moved into its atom's domain, and
        for each whether the witness marked it :class:`BuiltExactly`.

        ``output`` is a mapping from atoms (or their ``str``) to values (numbers or Estimates), or — when exactly one
        atom is measured — that atom's value alone. Missing or unknown atoms are an error naming them.
        """
        if not isinstance(output, Mapping):
            if len(self.measured) == 1:
                output = {self.measured[0]: output}
            elif output is None and not self.measured:
                return [], []
            else:
                raise InvalidParameter(
                    f"the witness returned one value, but the statement measures {len(self.measured)} atoms "
                    f"({', '.join(map(str, self.measured)) or 'none'}): return a dict atom -> value")
        known = dict.fromkeys(self.names.values())   # (in order, each once: two symbols may share a name)
        by_name = {}
        for key, value in output.items():
            name = key if isinstance(key, str) else self.names.get(key) or str(key)
            if name not in known:
                raise InvalidParameter(f"the witness measured {name}, which the statement {self.statement} does "
                                       f"not name (it measures {', '.join(known) or 'nothing'})")
            by_name[name] = value
        missing = [n for n in known if n not in by_name]
        if missing:
            raise InvalidParameter(f"the witness did not measure {', '.join(missing)} of {self.statement}")
        raw = [by_name[self.names[a]] for a in self.measured]
        exact = [isinstance(v, BuiltExactly) for v in raw]
        measured = [_within(as_estimate(v.value if e else v), d) for v, e, d in zip(raw, exact, self.domains)]
        return measured, exact

    def _balls(self, measured: list[Estimate], floors: list):
        """The measurements as Arb balls kept in their domains, twice: as measured, and widened by their floors; None
        unless every measurement is a certified enclosure (an exact infinity enters as Arb's; a side it reaches is not
        finite, and keeps its estimate)."""
        if any(not m.certified or mpmath.isnan(m.value) for m in measured):
            return None
        with arb_precision(mpmath.mp.prec + 20):
            raw = [_clamped_ball(m.ball(), d) for m, d in zip(measured, self.domains)]
            floored = [b if not f else _clamped_ball(m.ball() + arb(0, exact_ball(f)), d)
                       for b, m, f, d in zip(raw, measured, floors, self.domains)]
        return raw, floored

    def evaluate(self, point: Mapping[str, Any], output: Any) -> tuple["SideValue", "SideValue", dict]:
        """``(lhs, rhs, values)`` at a draw: ``point`` holds the parameter values by name, ``output`` the witness's.

        Each side is a :class:`SideValue`, an enclosure where every measurement is a certified enclosure and the side
        is Arb-evaluable. ``values`` maps ``str`` of every parameter and measured atom to its value (an mpf), so that
        substituting them into the statement reproduces both sides.
        """
        params = [mpmath.mpf(point[p.name]) for p in self.parameters]
        measured, exact = self.measurements(output)
        floors = [mpmath.mpf(0) if e or not mpmath.isfinite(m.value) else construction_floor(m.value, rounding)
                  for m, e, rounding in zip(measured, exact, self.roundings)]
        balls = self._balls(measured, floors)
        rounded = any(floors)
        lhs, rhs = (replace(side(params, measured, floors, balls), rounded=rounded) for side in (self.lhs, self.rhs))
        values = {p.name: v for p, v in zip(self.parameters, params)}
        values.update({self.names[a]: m.value for a, m in zip(self.measured, measured)})
        return lhs, rhs, values
