"""The claim language: a bound of your own, as text, checked by the same machinery as the catalogue's theorems.

A claim is one relation between two numeric expressions::

    claim        :=  number REL number                     REL is <=, <, >=, >, ==
    number       :=  integer | decimal | name | constant | number OP number | -number | +number
                  |  math(number, ...) | divergence(distribution, distribution [, number])
    OP           :=  + - * / **
    math         :=  exp log sqrt tanh cosh sinh erf erfc abs Max Min (also max, min; log(x, base))
    constant     :=  pi  E  inf (also oo)
    divergence   :=  kl(P, Q) | renyi(P, Q, alpha) | hockey_stick(P, Q, eps) | tv(P, Q) | max_div(P, Q)
                  |  epsilon_for(delta, P, Q)            inf{eps >= 0 : hockey_stick(P, Q, eps) <= delta}
                  |  dp_delta(mechanism, eps) | dp_epsilon(mechanism, delta)      under the mechanism's relation
    mechanism    :=  gaussian_mechanism(sigma, k, RELATION)                k steps of the Gaussian mechanism
                  |  poisson_gaussian(q, sigma, k, RELATION)              k steps of DP-SGD, Poisson sampling
                  |  fixed_batch_gaussian(b, n, sigma, k, replace_one)    k steps of DP-SGD, batches of b of n
    RELATION     :=  add_or_remove | add | remove | replace_one           the neighbouring relation
    distribution :=  gaussian(mean, sd) | laplace(loc, scale) | lap2(loc, scale1, scale2)
                  |  mix(q, P, Q)                                        the law (1 - q)·P + q·Q
                  |  finite([p1, ..., pn])  (or finite(p1, ..., pn))
                  |  compose(k, P) | product(P1, ..., Pn)               k-fold and side-by-side composition
                  |  discrete_laplace(loc, scale) | discrete_gaussian(loc, sd)          laws on the integers
                  |  randomized_response(k, eps, i)                     k-ary, input i in {0, ..., k - 1}

A mechanism stands for its dominating pairs under its relation (:mod:`symdp.mechanisms`, which cites them):
``dp_delta(poisson_gaussian(q, s, k, add_or_remove), eps)`` is the larger of hockey_stick of the remove pair and of the
add pair, written out as ``Max(...)`` of the two in the statement, so that what is checked is what prints.

Integers are exact, and so are decimals, read from their text (``2.2`` is 11/5, not the nearest double). Every
other name is a real parameter, drawn from the range that ``where`` gives it (``"alpha in [1.01, 64], q = 0.1"``);
a name typed bare where an integer is required (``k`` of ``compose``, ``k`` and ``i`` of ``randomized_response``,
``loc`` of the discrete laws) is an integer parameter, drawn as an integer from its range.
Greek letters may be typed as such or spelt out (``λ`` and ``lambda`` are one parameter, though ``lambda`` is a
Python keyword; ``π`` is ``pi``). ``E`` is Euler's number and ``e`` an ordinary parameter; a name that is a
constant or a function of the language cannot be given a range, and the error says which it is.
Divergences may sit on either side and inside arithmetic; their own arguments (means, scales, orders, ε of any
sign) are arithmetic in the parameters, but not divergences.

The text is parsed by walking Python's ``ast`` against a whitelist and building SymPy objects by hand: nothing the
user typed is ever evaluated by Python or SymPy's parser. Everything else (attributes, subscripts, strings,
lambdas, keyword arguments, names starting with ``_``, chained comparisons, unknown functions, a distribution used
as a number or the reverse) is a :class:`~symdp.errors.ClaimSyntaxError` whose one-line message names the problem
and the piece of text. Input length, nesting depth and the size of exact numbers are capped, and constants are
evaluated alongside in mpmath, refusing any beyond e^(10^6), so hostile text fails fast (``10**10**10`` and
``cosh(cosh(cosh(cosh(2))))`` are refused rather than computed); functions of constants stay unevaluated
(``exp(1)`` is not turned into ``E``), because SymPy's own evaluation of nested ones can take minutes. Draws are
guarded the same way: a power, ``exp``, ``cosh`` or ``sinh`` beyond e^(10^6) is an
:class:`~symdp.errors.InvalidParameter`, as is a complex value, naming the point.

>>> parse_claim("renyi(gaussian(0, s), gaussian(1, s), a) <= a/(2.2*s**2)")
Renyi(Gaussian(0, s), Gaussian(1, s), a) <= 5*a/(11*s**2)
>>> parse_claim("kl(finite([0.75, 0.25]), finite([0.25, 0.75])) == 0.5*log(3)")
Eq(KL(Finite(3/4, 1/4), Finite(1/4, 3/4)), log(3)/2)
>>> parse_claim("tv(mix(q, gaussian(0, 1), gaussian(1, 1)), gaussian(0, 1)) + 1 > exp(-q)")
TV(Mix(q, Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1)) + 1 > exp(-q)
>>> parse_claim("kl(gaussian(0, 1), 2) <= 1")
Traceback (most recent call last):
...
symdp.errors.ClaimSyntaxError: argument 2 of kl must be a distribution such as gaussian(0, 1), got a number (column 20: 2)
>>> parse_claim("().__class__ <= 1")
Traceback (most recent call last):
...
symdp.errors.ClaimSyntaxError: attribute access (.) is not allowed in a claim (column 1: ().__class__)
>>> parse_ranges("alpha in [1.01, 64], q = 1/4")
{'alpha': (1.01, 64.0), 'q': (0.25, 0.25)}

:func:`claim_theorem` makes a :class:`~symdp.theorem.Theorem` that :func:`~symdp.verify.verify` checks like any
other; a claim without parameters is evaluated once:

>>> from symdp.verify import verify
>>> exact = "renyi(gaussian(0, s), gaussian(1, s), a) <= a/(2*s**2)"      # the closed form: tight everywhere
>>> r = verify(claim_theorem(exact, "a in [1.5, 10], s in [0.5, 2]"), examples=10)
>>> r.verdict, r.tight == r.examples
('holds', True)
>>> verify(claim_theorem("tv(finite([0.75, 0.25]), finite([0.25, 0.75])) <= 0.49")).verdict
'violated'

**Error propagation.** A side is ``f(params, d_1, ..., d_k)`` with divergences ``d_i`` known to ``± e_i``. Its
error is ``Σ_i max(|f(.., d_i - e_i, ..) - f|, |f(.., d_i + e_i, ..) - f|)`` (evaluated with 10 extra digits so that
``d_i ± e_i`` is representable; ``d_i - e_i`` is clamped at 0, divergences being non-negative), plus a rounding
floor of 16 units in the last place. This secant over the whole error interval is conservative for ``f``
monotone in each ``d_i``, including non-smooth ones (``sqrt`` at 0, ``Max``); it neglects the interaction of
two errors, which is second order in errors that are already tiny.
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import math
import re
import sys
from decimal import Decimal, InvalidOperation
from typing import Callable, NamedTuple, Optional, Sequence

import mpmath
import sympy as sp

from symdp.errors import ClaimSyntaxError, InvalidParameter, SymdpError
from symdp.expressions import (DISTRIBUTIONS, KL, TV, Compose, DistributionHead, EpsilonFor, Finite, Gaussian,
                               HockeyStick, MaxDivergence, Mix, Quantity, Renyi, Symmetrised)
from symdp.laws import LawWitness, space
from symdp.mechanisms import FIXED_BATCH_RELATION
from symdp.theorem import INDEPENDENT, Param, Source, Theorem

MAX_LENGTH = 2000
"""Longest claim or range text accepted, in characters."""

MAX_DEPTH = 100
"""Deepest nesting of powers, calls and parentheses accepted (long sums and products are not deep)."""

MAX_EXPONENT = 1000
"""Largest |exponent| of a power with a numeric exponent, and of a decimal's exponent (``1e1000``)."""

MAX_DIGITS = 10_000
"""Largest exact number (in decimal digits) that a numeric power may produce: ``(10**10)**1000`` is refused."""

_MATH = {  # name: (SymPy function, least and most arguments)
    "exp": (sp.exp, 1, 1), "log": (sp.log, 1, 2), "sqrt": (sp.sqrt, 1, 1),
    "tanh": (sp.tanh, 1, 1), "cosh": (sp.cosh, 1, 1), "sinh": (sp.sinh, 1, 1),
    "erf": (sp.erf, 1, 1), "erfc": (sp.erfc, 1, 1), "abs": (sp.Abs, 1, 1), "Abs": (sp.Abs, 1, 1),
    "Max": (sp.Max, 1, None), "max": (sp.Max, 1, None), "Min": (sp.Min, 1, None), "min": (sp.Min, 1, None),
}
_CONSTANTS = {"pi": (sp.pi, mpmath.pi), "E": (sp.E, mpmath.e), "inf": (sp.oo, mpmath.inf),
              "oo": (sp.oo, mpmath.inf)}
_DISTRIBUTIONS = DISTRIBUTIONS
"""The laws a claim may name, as their heads declare them (:attr:`~symdp.expressions.DistributionHead.name`)."""
_DIVERGENCES = {  # name: (head, numeric arguments before P and Q, after them); the head takes P, Q first
    "kl": (KL, 0, 0), "renyi": (Renyi, 0, 1), "hockey_stick": (HockeyStick, 0, 1), "tv": (TV, 0, 0),
    "max_div": (MaxDivergence, 0, 0), "epsilon_for": (EpsilonFor, 1, 0),
}
_ACCOUNTANT = {"dp_delta": HockeyStick, "dp_epsilon": EpsilonFor}
"""The mechanism-level quantities: each the largest over the mechanism's orientations of its head."""
_MECHANISMS = {"gaussian_mechanism": 2, "poisson_gaussian": 3, "fixed_batch_gaussian": 4}
"""The mechanisms a claim may name, and how many numbers they take before their relation."""
_NEIGHBOURING = {"add_or_remove": "add-or-remove", "add": "add", "remove": "remove", "replace_one": "replace-one"}
"""The neighbouring relations, as a claim names them."""


def _reserved() -> set:
    return set(_MATH) | set(_CONSTANTS) | set(_DISTRIBUTIONS) | set(_DIVERGENCES) | set(_ACCOUNTANT) \
        | set(_MECHANISMS) | set(_NEIGHBOURING)
_CONSTANT_NAMES = {"E": "Euler's number (2.71828...)", "pi": "the constant pi (3.14159...)", "inf": "infinity",
                   "oo": "infinity"}

GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta", "η": "eta", "θ": "theta",
    "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma",
    "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "Gamma", "Δ": "Delta",
    "Θ": "Theta", "Λ": "Lambda", "Ξ": "Xi", "Π": "Pi", "Σ": "Sigma", "Φ": "Phi", "Ψ": "Psi", "Ω": "Omega",
}
"""Greek letters typed as such, and the names they stand for (``λ`` and ``lambda`` are one parameter; ``π`` is pi).
Python reads identifiers in NFKC form, so the variants ϵ, ϑ, ϕ and µ (micro) arrive here as ε, θ, φ and μ."""

_LAMBDA = "_lmbd_"
"""What the keyword ``lambda`` is read as: as long as it (columns in messages stay right), and, starting with ``_``,
a name no user can type."""

_KEYWORD_LAMBDA = re.compile(r"(?<![\w])lambda(?![\w])")


def canonical_name(name: str) -> str:
    """The parameter a typed name stands for: Greek letters spelt out, the keyword ``lambda`` read as a name.

    >>> canonical_name("λ"), canonical_name("σ_1"), canonical_name("π"), canonical_name("alpha")
    ('lambda', 'sigma_1', 'pi', 'alpha')
    """
    if name == _LAMBDA:
        return "lambda"
    return "".join(GREEK.get(ch, ch) for ch in name)


def _readable(text: str) -> str:
    """The text Python's parser is given: ``lambda`` as a parameter name becomes a placeholder of the same length.

    A claim has no ``:`` anywhere, so text with one may hold a real lambda, which is left to be refused as such.
    """
    return text if ":" in text else _KEYWORD_LAMBDA.sub(_LAMBDA, text)

# Node types the walker understands; anything else is refused before any SymPy object is built.
_ALLOWED = (ast.Expression, ast.Compare, ast.BinOp, ast.UnaryOp, ast.Call, ast.Name, ast.Constant, ast.List,
            ast.Load, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd,
            ast.LtE, ast.Lt, ast.GtE, ast.Gt, ast.Eq)
_DESCRIBE = {
    ast.Attribute: "attribute access (.)", ast.Subscript: "a subscript ([...])", ast.Lambda: "a lambda",
    ast.ListComp: "a comprehension", ast.GeneratorExp: "a comprehension", ast.SetComp: "a comprehension",
    ast.DictComp: "a comprehension", ast.keyword: "a keyword argument", ast.Starred: "a star argument",
    ast.Dict: "a dict", ast.Set: "a set", ast.Tuple: "a tuple", ast.JoinedStr: "an f-string",
    ast.BoolOp: "and/or", ast.IfExp: "a conditional expression", ast.NamedExpr: "an assignment (:=)",
    ast.Mod: "the operator %", ast.FloorDiv: "the operator //", ast.MatMult: "the operator @",
    ast.BitXor: "the operator ^ (use **)", ast.BitAnd: "the operator &", ast.BitOr: "the operator |",
    ast.LShift: "the operator <<", ast.RShift: "the operator >>", ast.Invert: "the operator ~",
    ast.Not: "not", ast.And: "and", ast.Or: "or", ast.NotEq: "the relation != (use <=, >= or ==)",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}
_RELATIONS = {ast.LtE: sp.Le, ast.Lt: sp.Lt, ast.GtE: sp.Ge, ast.Gt: sp.Gt, ast.Eq: sp.Eq}


# --- numeric guards -----------------------------------------------------------------------------------------------

from symdp.statement import (MAX_LOG, guarded as _guarded, guarded_pow as _pow,  # noqa: E402
                             lambdify_mpmath, rename)
from symdp.numeric import erfc  # noqa: E402


_SHADOW = {  # the mpmath twin of each function, for the values of constant subexpressions
    "exp": _guarded(mpmath.exp, "exp", False), "log": mpmath.log, "sqrt": mpmath.sqrt, "tanh": mpmath.tanh,
    "cosh": _guarded(mpmath.cosh, "cosh", True), "sinh": _guarded(mpmath.sinh, "sinh", True),
    "erf": mpmath.erf, "erfc": erfc, "abs": abs, "Abs": abs,
    "Max": lambda *a: max(a), "max": lambda *a: max(a), "Min": lambda *a: min(a), "min": lambda *a: min(a),
}
_SHADOW_DPS = 30


# --- parsing ------------------------------------------------------------------------------------------------------


class _Num(NamedTuple):
    """A numeric node: its SymPy expression, and its value at 30 digits if it is a constant (else None)."""

    expr: sp.Expr
    value: Optional[mpmath.mpf]


class _Builder:
    """Builds SymPy objects from a whitelisted ``ast`` of ``text``; one instance per text, so that a name always
    means the same symbol."""

    def __init__(self, text: str, what: str = "claim"):
        if not isinstance(text, str):
            raise ClaimSyntaxError(f"a {what} must be text, got {type(text).__name__}")
        if len(text) > MAX_LENGTH:
            raise ClaimSyntaxError(f"the {what} is {len(text)} characters long; at most {MAX_LENGTH} are accepted")
        self.text, self.what = text.strip(), what
        self.lines = self.text.splitlines() or [""]
        self.symbols: dict[str, sp.Symbol] = {}
        self.heads: list[Quantity] = []
        """Every divergence the text names, including any that SymPy then simplifies away (``0*kl(P, Q)``)."""
        self.integers: dict[str, str] = {}
        """The parameters typed bare where an integer is required, each with where (``argument 1 of compose``)."""

    # -- entry points
    def tree(self) -> ast.AST:
        if not self.text:
            raise ClaimSyntaxError(f"the {self.what} is empty")
        try:
            body = ast.parse(_readable(self.text), mode="eval").body
        except SyntaxError as e:
            where = f" at column {e.offset}" if e.offset else ""
            raise ClaimSyntaxError(f"{self.what} does not parse: {e.msg}{where}") from None
        except (ValueError, MemoryError, RecursionError) as e:  # null bytes, pathological nesting
            raise ClaimSyntaxError(f"{self.what} does not parse: {str(e).splitlines()[0] if str(e) else e!r}") \
                from None
        self._whitelist(body)
        return body

    def relation(self) -> sp.core.relational.Relational:
        body = self.tree()
        if not isinstance(body, ast.Compare):
            self.number(body, 1)  # a more specific complaint about the expression itself comes first
            raise ClaimSyntaxError("a claim relates two sides with <=, >= or ==" + self._at(body))
        if len(body.ops) > 1:
            raise ClaimSyntaxError("chained comparisons (a <= b <= c) are not allowed: write one relation"
                                   + self._at(body))
        lhs, rhs = self.number(body.left, 1).expr, self.number(body.comparators[0], 1).expr
        relation = _RELATIONS[type(body.ops[0])](lhs, rhs, evaluate=False)
        if relation.has(sp.zoo, sp.nan):  # e.g. x/(y - y): undefined, though no constant alone is
            raise ClaimSyntaxError("the claim divides by zero" + self._at(body))
        return relation

    def expression(self) -> sp.Expr:
        """A numeric expression, not a relation (what ``symdp eval`` evaluates)."""
        body = self.tree()
        if isinstance(body, ast.Compare):
            raise ClaimSyntaxError("an expression is evaluated, not compared: write no relation (<=, >=, ==), or "
                                   "check the claim with symdp check" + self._at(body))
        expr = self.number(body, 1).expr
        if expr.has(sp.zoo, sp.nan):
            raise ClaimSyntaxError("the expression divides by zero" + self._at(body))
        return expr

    def constant(self) -> "_Num":
        """A number without parameters or divergences (a range bound), with its value."""
        body = self.tree()
        num = self.number(body, 1)
        if num.expr.free_symbols:
            names = ", ".join(sorted(s.name for s in num.expr.free_symbols))
            raise ClaimSyntaxError(f"a range bound must be a number, but {self.text!r} uses the parameter(s) {names}")
        if num.value is None:
            raise ClaimSyntaxError(f"a range bound must be a constant number, got {self.text!r}")
        return num

    # -- the two kinds of value
    def number(self, node: ast.AST, depth: int) -> "_Num":
        """The SymPy expression of a numeric node, and its value if it is a constant.

        Constants are evaluated alongside (:meth:`_shadow`), so an undefined, complex or astronomically large
        constant is refused where it is typed, and SymPy is never left to evaluate such a thing itself.
        """
        self._deep(node, depth)
        if isinstance(node, ast.Constant):
            return self._literal(node)
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.UnaryOp):
            sign = 1
            while isinstance(node, ast.UnaryOp):  # iteratively: ------x is not deep
                sign, node = (-sign if isinstance(node.op, ast.USub) else sign), node.operand
            num = self.number(node, depth + 1)
            return num if sign == 1 else _Num(-num.expr, None if num.value is None else -num.value)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            base, exponent = self.number(node.left, depth + 1), self.number(node.right, depth + 1)
            self._check_power(base, exponent, node)
            return self._apply(node, sp.Pow, _pow, [base, exponent])
        if isinstance(node, ast.BinOp):
            return self._chain(node, depth)
        if isinstance(node, ast.Call):
            name = self._callee(node)
            if name in _MATH:
                fn, low, high = _MATH[name]
                self._arity(node, name, low, high)
                args = [self.number(a, depth + 1) for a in node.args]
                if name == "log" and len(args) == 2:  # log(x, b) = log(x)/log(b)
                    x, b = (self._apply(node, sp.log, mpmath.log, [a], call=True) for a in args)
                    return self._apply(node, lambda u, v: u / v, lambda u, v: u / v, [x, b])
                return self._apply(node, fn, _SHADOW[name], args, call=True)
            if name in _DIVERGENCES:
                return _Num(self._divergence(node, name, depth), None)
            if name in _ACCOUNTANT:
                return _Num(self._accountant(node, name, depth), None)
            if name in _MECHANISMS:
                raise ClaimSyntaxError(f"{name}(...) is a mechanism, used here as a number; ask dp_delta(mechanism, "
                                       f"eps) or dp_epsilon(mechanism, delta)" + self._at(node))
            if name in _DISTRIBUTIONS:
                raise ClaimSyntaxError(f"{name}(...) is a distribution, used here as a number; compare two "
                                       f"distributions with kl, renyi, hockey_stick, tv, max_div or epsilon_for"
                                       + self._at(node))
            raise self._unknown(node, name)
        if isinstance(node, ast.List):
            raise ClaimSyntaxError("a list is only allowed as the argument of finite([...])" + self._at(node))
        if isinstance(node, ast.Compare):
            raise ClaimSyntaxError("a comparison can only be the claim's one relation" + self._at(node))
        raise ClaimSyntaxError(f"{type(node).__name__} is not allowed in a claim" + self._at(node))

    def _chain(self, node: ast.BinOp, depth: int) -> "_Num":
        """``a + b - c + ...`` or ``a * b / c * ...``, walked iteratively: a long sum is not a deep tree."""
        additive = isinstance(node.op, (ast.Add, ast.Sub))
        family = (ast.Add, ast.Sub) if additive else (ast.Mult, ast.Div)
        steps = []
        while isinstance(node, ast.BinOp) and isinstance(node.op, family):
            steps.append(node)
            node = node.left
        acc = self.number(node, depth + 1)
        for step in reversed(steps):
            right = self.number(step.right, depth + 1)
            if isinstance(step.op, ast.Div) and right.value == 0:
                raise ClaimSyntaxError("this divides by zero" + self._at(step))
            sympy_op, shadow_op = {
                ast.Add: (sp.Add, lambda u, v: u + v), ast.Sub: (lambda u, v: u - v, lambda u, v: u - v),
                ast.Mult: (sp.Mul, lambda u, v: u * v), ast.Div: (lambda u, v: u / v, lambda u, v: u / v),
            }[type(step.op)]
            acc = self._apply(step, sympy_op, shadow_op, [acc, right])
        return acc

    def _apply(self, node: ast.AST, sympy_fn, shadow_fn, args: list, call: bool = False) -> "_Num":
        """``sympy_fn(*args)``, and for constant arguments also its value. A function ``call`` of constants stays
        unevaluated: SymPy's own evaluation of, say, ``erf(erf(...(2)))`` asks numeric questions that take
        minutes. (Arithmetic of constants is evaluated: it is exact, and guarded by :meth:`_check_power`.)"""
        exprs = [a.expr for a in args]
        try:
            if any(a.value is None for a in args):
                # Min and Max evaluate by comparing their arguments, which a divergence head cannot be: unevaluated
                unevaluated = sympy_fn in (sp.Min, sp.Max)
                return _Num(sympy_fn(*exprs, evaluate=False) if unevaluated else sympy_fn(*exprs), None)
            value = self._shadow(node, shadow_fn, [a.value for a in args])
            if call and mpmath.isinf(value):
                # cosh(inf) is infinity: said so, since SymPy cannot reason with an unevaluated function of oo
                return _Num(sp.oo if value > 0 else -sp.oo, value)
            return _Num(sympy_fn(*exprs, evaluate=False) if call else sympy_fn(*exprs), value)
        except (TypeError, ValueError, ArithmeticError) as exc:
            if isinstance(exc, SymdpError):
                raise
            problem = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            raise ClaimSyntaxError(f"this cannot be formed ({problem})" + self._at(node)) from None

    def _shadow(self, node: ast.AST, fn, values: list):
        try:
            with mpmath.workdps(_SHADOW_DPS):
                value = fn(*values)
        except ZeroDivisionError:
            raise ClaimSyntaxError("this divides by zero" + self._at(node)) from None
        except OverflowError:
            raise ClaimSyntaxError(f"this is too large to compute (beyond e^{int(MAX_LOG)})"
                                   + self._at(node)) from None
        except (ValueError, ArithmeticError):
            raise ClaimSyntaxError("this is undefined" + self._at(node)) from None
        if isinstance(value, mpmath.mpc):
            if value.imag != 0:
                raise ClaimSyntaxError("this is not a real number" + self._at(node))
            value = value.real
        if mpmath.isnan(value):
            raise ClaimSyntaxError("this is undefined" + self._at(node))
        return value

    def distribution(self, node: ast.AST, role: str, depth: int) -> DistributionHead:
        self._deep(node, depth)
        example = "such as gaussian(0, 1)"
        if not isinstance(node, ast.Call):
            kind = f"the parameter {canonical_name(node.id)}" if isinstance(node, ast.Name) \
                and canonical_name(node.id) not in _reserved() \
                else "a number"
            raise ClaimSyntaxError(f"{role} must be a distribution {example}, got {kind}" + self._at(node))
        name = self._callee(node)
        if name in _DIVERGENCES or name in _MATH:
            raise ClaimSyntaxError(f"{role} must be a distribution {example}, got {name}(...), a number"
                                   + self._at(node))
        if name not in _DISTRIBUTIONS:
            raise self._unknown(node, name)
        head = _DISTRIBUTIONS[name]
        if name == "finite":
            return self._finite(node, depth)
        kinds = head.kinds(len(node.args))
        if kinds is None:
            variadic = head.signature.endswith("+")
            least = len(head.signature) - variadic
            self._arity(node, name, least, None if variadic else least)
        args = []
        for position, (kind, arg) in enumerate(zip(kinds, node.args), 1):
            if kind == "l":
                args.append(self.distribution(arg, f"argument {position} of {name}", depth + 1))
                continue
            args.append(self._argument(arg, depth + 1))
            if kind == "i":
                self._integer(arg, args[-1], f"argument {position} of {name}")
        if head is Mix:
            self._samespace(node, "mix", args[1], args[2])
        return head(*args)

    # -- pieces
    def _divergence(self, node: ast.Call, name: str, depth: int) -> Quantity:
        head, before, after = _DIVERGENCES[name]
        self._arity(node, name, 2 + before + after, 2 + before + after)
        leading = [self._argument(a, depth + 1) for a in node.args[:before]]
        P = self.distribution(node.args[before], f"argument {before + 1} of {name}", depth + 1)
        Q = self.distribution(node.args[before + 1], f"argument {before + 2} of {name}", depth + 1)
        self._samespace(node, name, P, Q)
        built = head(P, Q, *leading, *(self._argument(a, depth + 1) for a in node.args[before + 2:]))
        self.heads.append(built)
        return built

    def _accountant(self, node: ast.Call, name: str, depth: int) -> sp.Expr:
        """``dp_delta(M, eps)`` or ``dp_epsilon(M, delta)``: the head of each of the mechanism's dominating pairs,
        their Max where the relation has two orientations (:func:`_mechanism_pairs`)."""
        self._arity(node, name, 2, 2)
        pairs = self._mechanism_pairs(node.args[0], f"argument 1 of {name}", depth + 1)
        at = self._argument(node.args[1], depth + 1)
        heads = [_ACCOUNTANT[name](P, Q, at) for P, Q in pairs]
        self.heads.extend(heads)
        return heads[0] if len(heads) == 1 else sp.Max(*heads, evaluate=False)

    def _mechanism_pairs(self, node: ast.AST, role: str, depth: int) -> list:
        """The dominating pairs (P, Q) of a mechanism call, one per orientation of its relation, as distribution
        heads: those of :mod:`symdp.mechanisms` (the Gaussian: shifts by 1, by 2 under replace-one; Poisson
        sampling: the mixture against the plain law and its reverse, the mirrored mixtures under replace-one; fixed
        batches, under replace-one only: the symmetrised pair of the mixture with the shift by 2 at rate b/n)."""
        self._deep(node, depth)
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _MECHANISMS):
            raise ClaimSyntaxError(f"{role} must be a mechanism such as poisson_gaussian(q, sigma, k, add_or_remove) "
                                   f"or gaussian_mechanism(sigma, k, replace_one)" + self._at(node))
        name = node.func.id
        count = _MECHANISMS[name]
        self._arity(node, name, count + 1, count + 1)
        relation_node = node.args[-1]
        if not (isinstance(relation_node, ast.Name) and relation_node.id in _NEIGHBOURING):
            raise ClaimSyntaxError(f"the last argument of {name} is the neighbouring relation: one of "
                                   f"{', '.join(_NEIGHBOURING)}" + self._at(relation_node))
        relation = _NEIGHBOURING[relation_node.id]
        numbers = [self._argument(a, depth + 1) for a in node.args[:-1]]
        self._integer(node.args[-2], numbers[-1], f"k of {name}")
        *rate, sigma, k = numbers
        if name == "fixed_batch_gaussian":
            if relation != "replace-one":
                raise ClaimSyntaxError(f"{FIXED_BATCH_RELATION}: write replace_one" + self._at(relation_node))
            for position, what in ((0, "b"), (1, "n")):
                self._integer(node.args[position], rate[position], f"{what} of {name}")

        def plain(mean):
            return Gaussian(mean, sigma)

        if name == "gaussian_mechanism":
            pairs = {"replace-one": (plain(0), plain(2))} if relation == "replace-one" else {relation: (plain(0), plain(1))}
        elif name == "fixed_batch_gaussian":
            mixed = Mix(rate[0] / rate[1], plain(0), plain(2))
            pairs = {"replace-one": (Symmetrised(mixed, plain(0), 0), Symmetrised(mixed, plain(0), 1))}
        else:
            sampled = Mix(rate[0], plain(0), plain(1))
            pairs = {"add": (plain(0), sampled), "remove": (sampled, plain(0)),
                     "replace-one": (sampled, Mix(rate[0], plain(0), plain(-1)))}
            pairs = {"add": pairs["add"], "remove": pairs["remove"]} if relation == "add-or-remove" \
                else {relation: pairs[relation]}
        return [(Compose(k, P), Compose(k, Q)) for P, Q in pairs.values()]

    def _integer(self, node: ast.AST, expr: sp.Expr, where: str) -> None:
        """An argument where an integer is required: a parameter typed bare there is drawn as an integer; a constant
        must be one; any other expression is evaluated per draw, and the engine refuses a non-integer."""
        if isinstance(node, ast.Name) and isinstance(expr, sp.Symbol):
            self.integers.setdefault(expr.name, where)
        elif expr.is_number and not expr.is_integer:
            raise ClaimSyntaxError(f"{where} must be an integer, got {_short(expr)}" + self._at(node))

    def _finite(self, node: ast.Call, depth: int) -> Finite:
        items = node.args
        if len(items) == 1 and isinstance(items[0], ast.List):
            items = items[0].elts
        if not items:
            raise ClaimSyntaxError("finite([...]) needs at least one probability" + self._at(node))
        return Finite(*(self._argument(a, depth + 2) for a in items))

    def _argument(self, node: ast.AST, depth: int) -> sp.Expr:
        """A numeric argument of a distribution or divergence: arithmetic in the parameters, no divergence."""
        expr = self.number(node, depth).expr
        if expr.has(Quantity):
            raise ClaimSyntaxError("a divergence cannot be an argument of a distribution or divergence"
                                   + self._at(node))
        return expr

    def _literal(self, node: ast.Constant) -> "_Num":
        v = node.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ClaimSyntaxError(f"{type(v).__name__} constants are not allowed, only numbers" + self._at(node))
        if isinstance(v, int):
            return _Num(sp.Integer(v), mpmath.mpf(v))
        # The literal's own text, not the double Python read: 2.2 is 11/5.
        text = (ast.get_source_segment(self.text, node) or repr(v)).replace("_", "")
        try:
            d = Decimal(text)
        except InvalidOperation:
            raise ClaimSyntaxError(f"{text} is not a decimal number" + self._at(node)) from None
        if abs(d.adjusted()) > MAX_EXPONENT:
            raise ClaimSyntaxError(f"the number {text} is out of range (|exponent| <= {MAX_EXPONENT})"
                                   + self._at(node))
        num, den = d.as_integer_ratio()
        with mpmath.workdps(_SHADOW_DPS):
            return _Num(sp.Rational(num, den), mpmath.mpf(num) / den)

    def _name(self, node: ast.Name) -> "_Num":
        name = canonical_name(node.id)
        if name in _CONSTANTS:
            expr, value = _CONSTANTS[name]
            with mpmath.workdps(_SHADOW_DPS):
                return _Num(expr, +value)
        if name in _MATH or name in _DIVERGENCES or name in _DISTRIBUTIONS:
            raise ClaimSyntaxError(f"{name} is a function: call it, as in {name}(...)" + self._at(node))
        if name not in self.symbols:
            self.symbols[name] = sp.Symbol(name, real=True)
        return _Num(self.symbols[name], None)

    def _check_power(self, base: "_Num", exponent: "_Num", node: ast.AST) -> None:
        """Refuse numeric powers whose exact value would be huge: SymPy computes them eagerly."""
        if exponent.value is None:
            return  # evaluated per draw at the working precision, where _pow guards the size
        if not mpmath.isfinite(exponent.value) or abs(exponent.value) > MAX_EXPONENT:
            raise ClaimSyntaxError(f"the exponent {_short(exponent.expr)} is too large "
                                   f"(|exponent| <= {MAX_EXPONENT})" + self._at(node))
        if base.expr.is_Rational and exponent.expr.is_Rational:
            digits = len(str(abs(base.expr.p))) + len(str(base.expr.q))
            if digits * math.ceil(abs(exponent.expr)) > MAX_DIGITS:
                raise ClaimSyntaxError(f"the power is too large to compute exactly (more than {MAX_DIGITS} digits)"
                                       + self._at(node))

    def _samespace(self, node: ast.AST, name: str, P: DistributionHead, Q: DistributionHead) -> None:
        (kp, np_), (kq, nq) = space(P), space(Q)
        if kp != kq:
            raise ClaimSyntaxError(f"{name} compares two laws on one space, got a {kp} and a {kq}" + self._at(node))
        if np_ != nq:
            raise ClaimSyntaxError(f"{name} compares finite distributions of different sizes ({np_} and {nq} atoms)"
                                   + self._at(node))

    def _callee(self, node: ast.Call) -> str:
        if not isinstance(node.func, ast.Name):
            raise ClaimSyntaxError("only named functions can be called, as in exp(x)" + self._at(node))
        return node.func.id

    def _arity(self, node: ast.Call, name: str, low: int, high: Optional[int]) -> None:
        n = len(node.args)
        if n < low or (high is not None and n > high):
            want = f"{low}" if low == high else f"at least {low}" if high is None else f"{low} or {high}"
            raise ClaimSyntaxError(f"{name} takes {want} argument{'' if want.endswith(' 1') or want == '1' else 's'}, "
                                   f"got {n}"
                                   + self._at(node))

    def _unknown(self, node: ast.AST, name: str) -> ClaimSyntaxError:
        known = ", ".join(sorted(set(_MATH) | set(_DIVERGENCES) | set(_DISTRIBUTIONS), key=str.lower))
        return ClaimSyntaxError(f"unknown function {name} (known: {known})" + self._at(node))

    def _deep(self, node: ast.AST, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise ClaimSyntaxError(f"the {self.what} is nested too deeply (more than {MAX_DEPTH} levels)"
                                   + self._at(node))

    def _whitelist(self, root: ast.AST) -> None:
        """Refuse every construct outside the language before building anything (the leftmost one is named).

        Operators and lambda arguments carry no position of their own: they are reported at their parent's.
        """
        bad, stack = [], [(root, root)]
        while stack:
            node, parent = stack.pop()
            here = node if hasattr(node, "lineno") else parent
            stack.extend((child, here) for child in ast.iter_child_nodes(node))
            if not isinstance(node, _ALLOWED):
                message = f"{_DESCRIBE.get(type(node), type(node).__name__)} is not allowed in a {self.what}"
            elif isinstance(node, ast.Name) and node.id.startswith("_") and node.id != _LAMBDA:
                message = f"the name {node.id} is not allowed (names may not start with _)"
            elif isinstance(node, ast.Constant) and (isinstance(node.value, bool)
                                                     or not isinstance(node.value, (int, float))):
                message = f"{type(node.value).__name__} constants are not allowed, only numbers"
            else:
                continue
            # leftmost first; at equal positions the outer construct (found first) wins
            bad.append((getattr(here, "lineno", 0), getattr(here, "col_offset", 0), len(bad), message, here))
        if bad:
            *_, message, node = min(bad)
            raise ClaimSyntaxError(message + self._at(node))

    def _at(self, node: ast.AST) -> str:
        """`` (column c: text)``, naming the offending piece of the input on one line."""
        if not hasattr(node, "lineno"):
            # operators and contexts carry no position
            return ""
        piece = " ".join((ast.get_source_segment(self.text, node) or "").split())
        if len(piece) > 40:
            piece = piece[:37] + "..."
        line = self.lines[node.lineno - 1] if node.lineno <= len(self.lines) else ""
        column = len(line.encode()[: node.col_offset].decode("utf-8", "replace")) + 1
        prefix = f"line {node.lineno}, " if len(self.lines) > 1 else ""
        return f" ({prefix}column {column}: {piece})"


def _short(x: sp.Expr) -> str:
    s = str(x)
    return s if len(s) <= 30 else s[:27] + "..."


def parse_claim(text: str) -> sp.core.relational.Relational:
    """The claim as a SymPy relation (``Le``, ``Ge`` or ``Eq``) of divergence and distribution heads.

    >>> parse_claim("hockey_stick(laplace(0, 1), laplace(1, 1), -0.5) <= 1 - exp(-0.5/2 - 1/2)")
    HockeyStick(Laplace(0, 1), Laplace(1, 1), -1/2) <= 1 - exp(-3/4)
    >>> parse_claim("a <= b <= c")
    Traceback (most recent call last):
    ...
    symdp.errors.ClaimSyntaxError: chained comparisons (a <= b <= c) are not allowed: write one relation (column 1: a <= b <= c)
    """
    return _Builder(text).relation()


def parse_expression(text: str) -> sp.Expr:
    """A numeric expression of the claim language (no relation), as a SymPy expression of its heads.

    >>> parse_expression("epsilon_for(1e-5, compose(10, laplace(0, 1)), compose(10, laplace(1, 1)))")
    EpsilonFor(Compose(10, Laplace(0, 1)), Compose(10, Laplace(1, 1)), 1/100000)
    >>> parse_expression("kl(gaussian(0, 1), gaussian(1, 1)) <= 1")
    Traceback (most recent call last):
    ...
    symdp.errors.ClaimSyntaxError: an expression is evaluated, not compared: write no relation (<=, >=, ==), or check the claim with symdp check (column 1: kl(gaussian(0, 1), gaussian(1, 1)) <= 1)
    """
    return _Builder(text, "expression").expression()


def _parsed(text: str) -> tuple[sp.core.relational.Relational, dict[str, sp.Symbol], list[Quantity], dict]:
    """The relation, the parameters typed in the text (by name), every divergence head it names (those SymPy
    simplified away, in ``0*kl(P, Q)`` or ``x/x``, included), and the parameters typed where an integer is required
    (by name, with where)."""
    builder = _Builder(text)
    return builder.relation(), builder.symbols, builder.heads, builder.integers


# --- ranges -------------------------------------------------------------------------------------------------------

_ITEM = re.compile(r"\s*([^\W\d]\w*)(?:\s+(in)\b|\s*(==?))\s*(.*?)\s*$", re.S)


def _split_top_level(text: str) -> list[str]:
    """Split at commas and semicolons outside brackets: ``a in [1, 2], b = 3`` has two items."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch in ",;" and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return [item for item in items if item.strip()]


def _exact_ranges(where: str) -> dict[str, tuple[_Num, _Num]]:
    """Ranges with exact SymPy bounds (and their values), in the order given."""
    _Builder(where, "range text")  # type and length checks
    ranges: dict[str, tuple[_Num, _Num]] = {}
    for item in _split_top_level(where):
        m = _ITEM.fullmatch(item)
        if m is None:
            raise ClaimSyntaxError(f"cannot read the range {item.strip()!r}: write \"name in [low, high]\" "
                                   f"or \"name = value\"")
        typed, is_range, rest = m.group(1), m.group(2), m.group(4)
        name = canonical_name(typed)
        if name in _CONSTANT_NAMES:
            raise ClaimSyntaxError(f"{typed} is {_CONSTANT_NAMES[name]} in a claim, not a parameter: name the "
                                   f"parameter otherwise" + (" (e, lower case, is free)" if name == "E" else ""))
        if name in _reserved():
            raise ClaimSyntaxError(f"{typed} is a function of the claim language, not a parameter name")
        if name.startswith("_"):
            raise ClaimSyntaxError(f"{typed} is not a parameter name (names may not start with _)")
        if name in ranges:
            raise ClaimSyntaxError(f"parameter {name} has two ranges")
        if is_range:
            if not (rest.startswith("[") and rest.endswith("]")):
                raise ClaimSyntaxError(f"the range of {name} must be written [low, high], got {rest!r}")
            parts = _split_top_level(rest[1:-1])
            if len(parts) != 2:
                raise ClaimSyntaxError(f"the range of {name} must have two bounds [low, high], got {rest!r}")
            low, high = (_bound(p, name) for p in parts)
        else:
            low = high = _bound(rest, name)
        if low.value > high.value:
            raise InvalidParameter(f"the range of {name} is empty: low {_short(low.expr)} > high {_short(high.expr)}")
        ranges[name] = (low, high)
    if not ranges:
        raise ClaimSyntaxError("no ranges given: write \"name in [low, high], ...\"")
    return ranges


def _bound(text: str, name: str) -> _Num:
    num = _Builder(text, f"bound of {name}").constant()
    if not mpmath.isfinite(num.value):
        raise InvalidParameter(f"the bound {text.strip()} of {name} is not a finite number")
    return num


SMALLEST_DRAW = sys.float_info.min
"""The smallest magnitude of a nonzero range bound: parameters are drawn as (normal) doubles."""


def _inward(low: _Num, high: _Num, name: str = "the parameter") -> tuple[float, float]:
    """Float draw bounds inside the exact range (nearest floats if the range is narrower than a float gap).

    Parameters are drawn as doubles: a bound beyond the largest double, or a nonzero one below the smallest normal
    double (2.2e-308), is refused with the reason, rather than silently moved (1e-400 would become 5e-324).
    """
    lo, hi = low.value, high.value
    a, b = float(lo), float(hi)
    if not (math.isfinite(a) and math.isfinite(b)):
        raise InvalidParameter(f"range bounds {_short(low.expr)}, {_short(high.expr)} of {name} are too large to "
                               f"draw from (parameters are drawn as doubles, at most {sys.float_info.max:.3g})")
    for bound, value in ((low, lo), (high, hi)):
        if value != 0 and abs(value) < SMALLEST_DRAW:
            raise InvalidParameter(f"the bound {mpmath.nstr(value, 5)} of {name} is smaller in magnitude than the "
                                   f"smallest double a parameter is drawn as ({SMALLEST_DRAW:.3g}): rescale the "
                                   f"parameter, or fix its value with \"{name} = ...\"")
    with mpmath.workdps(_SHADOW_DPS):
        a = math.nextafter(a, math.inf) if mpmath.mpf(a) < lo else a
        b = math.nextafter(b, -math.inf) if mpmath.mpf(b) > hi else b
    return (a, b) if a <= b else (float(lo), float(hi))


def parse_ranges(where: str) -> dict[str, tuple[float, float]]:
    """Parameter ranges ``"alpha in [1.01, 64], sigma in [0.2, 5]"`` (or a fixed value ``"q = 0.1"``) as float
    bounds, rounded inward. Bounds may be constant expressions (``1/3``, ``exp(1)``); nothing is evaluated by Python.

    >>> parse_ranges("s in [exp(-1), sqrt(2)]; e = -0.5")
    {'s': (0.36787944117144233, 1.414213562373095), 'e': (-0.5, -0.5)}
    >>> parse_ranges("s in [2, 1]")
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: the range of s is empty: low 2 > high 1
    """
    return {name: _inward(low, high, name) for name, (low, high) in _exact_ranges(where).items()}


# --- evaluation ---------------------------------------------------------------------------------------------------


def _mpmath(args: list, expr) -> Callable:
    """``expr`` as a function of ``args`` computing with mpmath at the caller's working precision, powers guarded.

    ``args`` are already safe names (``_p0``), so lambdify need not substitute its own Dummies, which would
    re-simplify ``expr``.
    """
    return lambdify_mpmath(args, expr)


def claim_theorem(text: str, where: Optional[str] = None, id: Optional[str] = None) -> Theorem:  # noqa: A002
    """The claim as a :class:`~symdp.theorem.Theorem`, one parameter per free name. Its ID is ``id`` if given, else
    derived from what it states (:func:`claim_id`), so that two claims of one module never share one.

    Every free name needs a range in ``where``, and every range a name of the claim. A fixed value
    (``"q = 1/3"``) is drawn as its float but evaluated exactly.

    >>> claim_theorem("kl(gaussian(0, s), gaussian(1, s)) <= 1/(2*s**2)").parameters
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: parameter s has no range: add --where "s in [low, high]"
    >>> [(p.name, p.sample) for p in claim_theorem("tv(laplace(0, b), laplace(1, b)) <= 1", "b in [1, 2]").parameters]
    [('b', (1.0, 2.0))]
    """
    ident = id
    if ident is not None and (not isinstance(ident, str) or not ident.strip()):
        raise InvalidParameter(f"a claim's id must be a non-empty string, got {ident!r}")
    # Every name typed is a parameter, even one SymPy cancels (s/s, x - x): it may still name a law's parameter.
    relation, symbols, named_heads, integers = _parsed(text)
    ranges = _exact_ranges(where) if where is not None and where.strip() else {}
    unknown = [n for n in ranges if n not in symbols]
    if unknown:
        has = f"its parameters are {', '.join(sorted(symbols))}" if symbols else "it has no parameters"
        raise InvalidParameter(f"range given for {', '.join(unknown)}, which the claim does not use ({has})")
    missing = sorted(n for n in symbols if n not in ranges)
    if missing:
        hint = ", ".join(f"{n} in [low, high]" for n in missing)
        euler = " (e is a parameter here: Euler's number is E, or exp(1))" if "e" in missing else ""
        raise InvalidParameter(f"parameter{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                               f"{'have' if len(missing) > 1 else 'has'} no range: add --where \"{hint}\"{euler}")
    # A fixed value ("q = 1/3") enters the statement exactly; every other name is a parameter drawn from its range.
    fixed = {symbols[name]: low.expr for name, (low, high) in ranges.items() if low == high}
    for name, where in integers.items():
        if symbols[name] in fixed and not fixed[symbols[name]].is_integer:
            value = _short(fixed[symbols[name]])
            raise InvalidParameter(f"{name} is {where}, an integer, but is given the value {value}")
    # The ID is that of the relation as written and of the values, so that two claims that evaluate alike ("1/s <= 3"
    # at s = 1/2, "2 <= 3") keep two IDs.
    written = relation
    relation = _with_values(relation, fixed) if fixed else relation
    params = tuple(_parameter(symbols[name], low, high, integers.get(name))
                   for name, (low, high) in ranges.items() if low != high)
    heads = sorted(relation.atoms(Quantity), key=sp.default_sort_key)
    # A divergence simplified away (0*kl(P, Q), d - d) does not enter the statement, but it is still computed at each
    # draw, so that an invalid law or order (a negative scale, alpha <= 1) is refused rather than silently ignored.
    guards = [h for h in (_with_values(h, fixed) if fixed else h for h in named_heads) if not relation.has(h)]
    # A claim without parameters is its one pinned instance: verify() then reports a violation of it with the
    # (empty) counterexample, as for any pinned instance; one with parameters has the corners of its ranges pinned
    # (corners). Its evidence is what the engine computes: closed forms where the pair has one, unless they are
    # switched off (--no-closed-forms).
    from symdp.latex import escape

    # the title is LaTeX-ready prose, as every theorem's: the claim's text, as code
    return Theorem(id=ident or claim_id(written, params, fixed), title=rf"\texttt{{{escape(text.strip())}}}",
                   source=Source("user", "claim"),
                   statement=relation, parameters=params,
                   witness=LawWitness(heads, params, guards) if heads or guards else None,
                   evidence=INDEPENDENT, examples=corners(params))


def _with_values(expr: sp.Basic, fixed: dict) -> sp.Basic:
    """``expr`` (a relation, or a divergence) with the ``fixed`` values in place, not re-evaluated: SymPy's evaluation
    may run away (an exact power such as (10**22)**(-10**15)) or refuse a divergence as an argument (of Min, say).
    Where SymPy cannot even rebuild it so (Max(oo, x) at x = 0 asks whether oo < 0), evaluated: a relation side by
    side, so that two numbers do not collapse it to True or False, and a part the values leave undefined named
    (:func:`_valued`). (SymPy's ``str`` writes the unevaluated ``-1/(1/2)`` as ``-1/1/2``; the code printers of
    :mod:`symdp.statement` write it right.)

    >>> s = sp.Symbol("s", positive=True)
    >>> _with_values(sp.Le(sp.exp(-1/s), 1/s), {s: sp.Rational(1, 2)})
    exp(-1/1/2) <= 1/(1/2)
    >>> x = sp.Symbol("x")
    >>> _with_values(sp.Le(0, sp.Max(sp.oo, x, evaluate=False)), {x: sp.Integer(0)})
    0 <= oo
    """
    try:
        return rename(expr, fixed)
    except (TypeError, ValueError):
        if isinstance(expr, sp.core.relational.Relational):
            return type(expr)(_valued(expr.lhs, fixed), _valued(expr.rhs, fixed), evaluate=False)
        return _valued(expr, fixed)


def _valued(expr: sp.Expr, fixed: dict) -> sp.Expr:
    """``expr`` with the ``fixed`` values in place, evaluated by SymPy; an error naming the smallest part of it that
    the values leave undefined (SymPy's ``zoo`` or ``nan``).

    >>> x = sp.Symbol("x", real=True)
    >>> _valued(x + sp.log(x), {x: sp.Integer(0)})
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: log(x) is undefined at x = 0
    """
    valued = expr.xreplace(fixed)
    if valued.has(sp.zoo, sp.nan) and not expr.has(sp.zoo, sp.nan):
        culprit = next(sub for sub in sp.postorder_traversal(expr) if sub.xreplace(fixed).has(sp.zoo, sp.nan))
        at = ", ".join(f"{name} = {_short(value)}" for name, value in fixed.items() if culprit.has(name))
        raise InvalidParameter(f"{culprit} is undefined at {at}")
    return valued


def _parameter(symbol: sp.Symbol, low: _Num, high: _Num, integer: Optional[str]) -> Param:
    """A claim's parameter over ``[low, high]``: real, or where it is typed as an integer (``integer`` says where),
    the integers of the range, drawn as ints.

    >>> k = _parameter(sp.Symbol("k"), _Num(sp.Rational(1, 2), 0.5), _Num(sp.Integer(5), 5), "argument 1 of compose")
    >>> k.domain, k.integer, k.ends()
    (Range(1, 6, 1), True, (1, 5))
    """
    name = symbol.name
    if integer is None:
        return Param(symbol, sp.Interval(low.expr, high.expr), sample=_inward(low, high, name))
    first, last = sp.ceiling(low.expr), sp.floor(high.expr)
    if first > last:
        raise InvalidParameter(f"the range of {name} holds no integer, but {name} is {integer}, an integer")
    return Param(symbol, sp.Range(first, last + 1), sample=(float(first), float(last)))


MOST_CORNERS = 8
"""Most corners of a claim's ranges pinned (all of them up to three parameters; beyond, the lowest and the highest)."""


def corners(params: Sequence[Param]) -> tuple[dict, ...]:
    """The corners of the box of ranges, checked before any random draw: a bound is often tightest, or first false,
    at the end of a range, and a search that may or may not reach an end would make the verdict and the worst
    margin depend on the draws. Up to :data:`MOST_CORNERS` of them; a claim without parameters has its one point.

    >>> s, a = Param(sp.Symbol("s"), sp.Interval(1, 2)), Param(sp.Symbol("a"), sp.Interval(3, 4))
    >>> corners([s, a])
    ({'s': 1.0, 'a': 3.0}, {'s': 1.0, 'a': 4.0}, {'s': 2.0, 'a': 3.0}, {'s': 2.0, 'a': 4.0})
    >>> corners([])
    ({},)
    """
    names, ends = [p.name for p in params], [p.ends() for p in params]
    if math.prod(map(len, ends)) <= MOST_CORNERS:
        points = list(itertools.product(*ends))
    else:
        points = list(dict.fromkeys([tuple(e[0] for e in ends), tuple(e[-1] for e in ends)]))
    return tuple(dict(zip(names, values)) for values in points)


def claim_id(relation: sp.core.relational.Relational, params: Sequence[Param] = (),
             fixed: Optional[dict] = None) -> str:
    """A claim's ID, from what it states: ``claim.`` and 12 hex digits of a hash of the parsed relation, the
    parameters' ranges and the ``fixed`` values (symbol → number). The same claim, however it is spaced or spelt
    (``λ`` or ``lambda``), has the same ID; two different claims (or one claim over two ranges, or at two values) have
    different ones.

    >>> a = claim_id(parse_claim("kl(gaussian(0, s), gaussian(1, s)) <= 1"))
    >>> a == claim_id(parse_claim("kl(gaussian(0,s),gaussian(1,s))<=1")), a.startswith("claim.")
    (True, True)
    >>> a == claim_id(parse_claim("kl(gaussian(0, s), gaussian(1, s)) < 1"))
    False
    """
    ranges = sorted((p.name, sp.srepr(p.domain)) for p in params)
    if fixed:
        ranges += sorted((symbol.name, "=", sp.srepr(value)) for symbol, value in fixed.items())
    digest = hashlib.sha256(repr((sp.srepr(relation), ranges)).encode()).hexdigest()
    return f"claim.{digest[:12]}"


# --- evaluation of an expression (symdp eval) ---------------------------------------------------------------------


class Evaluation(NamedTuple):
    """The value of a parameter-free expression: ``value`` and the enclosure ``[lower, upper]`` that holds it
    (proved where ``certified``: every measured quantity a certified enclosure and the arithmetic around them done in
    ball arithmetic), how its quantities were computed (``method``, the weakest), and the time it took. ``width`` is
    the relative width the quantities' enclosures reached (what ``width`` asks of the engine, :func:`width_reached`):
    the widest of them, 0 where nothing is measured, None where one is not certified."""

    expression: sp.Expr
    value: mpmath.mpf
    lower: mpmath.mpf
    upper: mpmath.mpf
    certified: bool
    method: str
    seconds: float
    width: Optional[mpmath.mpf] = None


def evaluate_expression(text: str, *, width=None) -> Evaluation:
    """The expression's value at the working precision, measured and evaluated by the machinery that checks a claim:
    its divergences by the engine (:class:`~symdp.laws.LawWitness`, ``width`` the relative width of enclosure to
    reach where the engine brackets a quantity), the arithmetic around them by the compiled statement (in Arb where it
    can, :mod:`symdp.statement`). The enclosure also holds the rounding of the laws' construction.

    >>> with mpmath.workdps(30):
    ...     r = evaluate_expression("kl(gaussian(0, 1), gaussian(1, 1)) + 1")
    >>> print(mpmath.nstr(r.value, 20), r.lower <= 1.5 <= r.upper, r.certified)
    1.5 True True
    >>> evaluate_expression("kl(gaussian(0, s), gaussian(1, s))")
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: the expression has the free parameter s: symdp eval needs numbers (use symdp check --where for a bound over a range)
    """
    import time

    from symdp.estimate import arb_precision
    from symdp.statement import CompiledStatement

    start = time.perf_counter()
    builder = _Builder(text, "expression")
    expr = builder.expression()
    free = sorted(builder.symbols)
    if free:
        raise InvalidParameter(f"the expression has the free parameter{'s' if len(free) > 1 else ''} "
                               f"{', '.join(free)}: symdp eval needs numbers (use symdp check --where for a bound "
                               f"over a range)")
    compiled = CompiledStatement(sp.Eq(expr, 0, evaluate=False), parameters=())
    guards = [h for h in builder.heads if not expr.has(h)]
    output = LawWitness(compiled.measured, (), guards, width=width)({}) if compiled.measured or guards else {}
    # flint's own precision while the sides are evaluated: the ends of a ball are read at it (53 bits by default)
    with arb_precision(mpmath.mp.prec + 20):
        side, _, _ = compiled.evaluate({}, output)
        measured, _ = compiled.measurements(output)
    low, high = mpmath.fsub(side.value, side.error, rounding="f"), mpmath.fadd(side.value, side.error, rounding="c")
    certified = bool(side.certified) or _exact_infinity(expr, side.value, compiled.measured, measured)
    return Evaluation(expr, side.value, min(low, side.floored[0]), max(high, side.floored[1]), certified,
                      str(side.method), time.perf_counter() - start, width_reached(compiled.measured, measured))


def width_reached(atoms, measured) -> Optional[mpmath.mpf]:
    """The widest relative width of the enclosures ``measured`` of ``atoms``, as the engine measures the width it is
    asked for (:func:`symdp.engine.accounting._narrowed`): the enclosure's width over the largest magnitude in it, an
    ε's over at least 0.1 (:func:`symdp.engine.accounting.epsilon_for`); 0 for no atom; None where an enclosure is
    not certified or not finite. A quantity computed exactly or by a closed form counts 0: it is computed to the
    working precision, which no width asks more of (an exact 0 is enclosed to an absolute 10^-dps, not relatively).

    >>> from symdp.estimate import Estimate, Method
    >>> ball = Estimate(mpmath.mpf(1), mpmath.mpf("0.01"), Method.CERTIFIED, certified=True)
    >>> print(mpmath.nstr(width_reached([sp.Symbol("x")], [ball]), 12))   # 2 * 0.01 / 1.01
    0.019801980198
    """
    from symdp.estimate import Method

    widest = mpmath.mpf(0)
    for atom, est in zip(atoms, measured):
        if not est.certified or not (mpmath.isfinite(est.value) and mpmath.isfinite(est.error)):
            return None
        if est.method in (Method.EXACT, Method.CLOSED_FORM):
            continue
        size = abs(est.value) + est.error
        if isinstance(atom, EpsilonFor):
            size = max(size, mpmath.mpf("0.1"))
        if est.error > 0:
            widest = max(widest, 2 * est.error / size)
    return widest


def _exact_infinity(expr: sp.Expr, value, atoms, measured) -> bool:
    """Whether an infinite value is proved: the constant ∞, or one quantity the engine proved infinite (a max
    divergence off the support); Arb does not carry infinities through arithmetic, so nothing else is claimed."""
    if mpmath.isfinite(value):
        return False
    if not atoms:
        return expr in (sp.oo, -sp.oo)
    return len(atoms) == 1 and expr == atoms[0] and measured[0].certified
