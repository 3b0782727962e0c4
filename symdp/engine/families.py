"""A distribution family declared once, in SymPy, and the evaluators derived from the declaration.

A family (:class:`symdp.engine.continuous.Declared`) writes its log-density once: one SymPy expression in ``x`` and its
parameters per piece between its kinks, left to right, and, if it has them, its CDF and SF the same way. From that
declaration this module derives, compiled once per family (on first use, so that importing the engine does not
import SymPy):

* the log-density, CDF and SF in mpmath, and the log-density, its derivative (``sympy.diff``), CDF and SF in Arb
  balls (python-flint), for a real ball or, given a piece, a complex one;
* per piece, the coefficients of ``log p = a x² + b x + c`` when the piece is a polynomial of degree ≤ 2 in ``x``
  (``sympy.Poly``): the log-quadratic form, the exact tail envelope and the exact tail expansion follow from them;
* the derivative's bounds where every piece's derivative is free of ``x``.

The compiler hoists every subexpression free of ``x`` into a constant computed once per (law, precision), so that an
evaluation only does the operations that depend on ``x``: ``-(x - m)²/(2 s²) - log(s √(2π))`` runs as
``-sqr(x - k₀)/k₁ - k₂``. It writes a square as a dependency-free square (a ball containing 0 squares to a
non-negative ball) and ``erfc`` through :func:`symdp.numeric.erfc` / :func:`symdp.numeric.arb_erfc`, which keep their
digits far in the tails. It is the engine's own: :mod:`symdp.statement`'s lambdify printers live in a higher layer
and evaluate a whole expression per call, with nothing hoisted.

>>> import sympy as sp
>>> d = declaration(lambda x, loc, s: Declaration(log_density=[-(x - loc)**2 / (2 * s**2)]), ("loc", "s"))
>>> [str(e) for e in d.quadratic[0]]
['-1/(2*s**2)', 'loc/s**2', '-loc**2/(2*s**2)']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import mpmath
from flint import acb, arb

from symdp.numeric import arb_erfc, erfc


@dataclass
class Declaration:
    """What a family writes: SymPy expressions in ``x`` and its parameters.

    ``log_density``: one expression per piece, left to right (a family without kinks has one piece);
    ``kinks``: the points between the pieces, increasing (expressions in the parameters);
    ``cdf``, ``sf``: one expression per piece, or None where the family writes them by hand;
    ``whole``: optionally, the log-density as one expression valid on the whole line (through ``Abs``), which a
    real ball across kinks is evaluated with, once, instead of once per piece.
    """

    log_density: Sequence
    kinks: Sequence = ()
    cdf: Sequence | None = None
    sf: Sequence | None = None
    whole: Any = None


def _sqr(z):
    """``z²``, non-negative for a real ball that contains 0 (``z*z`` would not be)."""
    if isinstance(z, acb) or z > 0 or z < 0:
        return z * z
    return arb(0).union(z.abs_upper() ** 2)


def _arb_abs(z):
    if z >= 0:
        return z
    if z <= 0:
        return -z
    return arb(0).union(z.abs_upper())


def _log(z):
    return z.log(analytic=True) if isinstance(z, acb) else z.log()


def _sqrt(z):
    return z.sqrt(analytic=True) if isinstance(z, acb) else z.sqrt()


def _arb_erfc(z):
    return z.erfc() if isinstance(z, acb) else arb_erfc(z)


ARB = {"_sqr": _sqr, "_exp": lambda z: z.exp(), "_log": _log, "_sqrt": _sqrt, "_erfc": _arb_erfc,
       "_expm1": lambda z: z.expm1(), "_log1p": lambda z: z.log1p(), "_abs": _arb_abs, "_num": arb,
       "_pi": lambda: arb.pi(), "_tanh": lambda z: z.tanh(), "_cosh": lambda z: z.cosh()}
"""Arb names of the operations a declaration may use."""

MPMATH = {"_sqr": lambda z: z * z, "_exp": mpmath.exp, "_log": mpmath.log, "_sqrt": mpmath.sqrt, "_erfc": erfc,
          "_expm1": mpmath.expm1, "_log1p": mpmath.log1p, "_abs": abs, "_num": mpmath.mpf,
          "_pi": lambda: +mpmath.pi, "_tanh": mpmath.tanh, "_cosh": mpmath.cosh}
"""mpmath names of the same operations."""


class _Emitter:
    """Python source for a SymPy expression: ``x`` stays a variable, every subexpression free of ``x`` becomes a
    hoisted constant ``k[i]`` (a parameter is its own constant); numbers stay literals."""

    def __init__(self, sp, x, constants: dict):
        self.sp, self.x, self.constants = sp, x, constants   # constants: SymPy expression -> index, shared

    def constant(self, e) -> str:
        sp = self.sp
        if isinstance(e, sp.Integer):
            return f"({int(e)})"
        if isinstance(e, sp.Rational):
            return f"(_num({e.p})/{e.q})"
        if e not in self.constants:
            self.constants[e] = len(self.constants)
        return f"k[{self.constants[e]}]"

    def __call__(self, e) -> str:
        sp, x = self.sp, self.x
        if not e.has(x):
            return self.constant(e)
        if e == x:
            return "x"
        if isinstance(e, sp.Add):
            fixed = sp.Add(*[a for a in e.args if not a.has(x)])
            moving = sorted((a for a in e.args if a.has(x)), key=lambda a: a.could_extract_minus_sign())
            terms = [(a.could_extract_minus_sign(), a) for a in moving]
            if fixed != 0:
                terms.insert(0 if terms[0][0] else len(terms), (fixed.could_extract_minus_sign(), fixed))
            out = ""
            for i, (negative, a) in enumerate(terms):
                text = self(-a) if negative else self(a)
                out = (f"-{text}" if negative else text) if i == 0 else f"{out} {'-' if negative else '+'} {text}"
            return f"({out})"
        if isinstance(e, sp.Mul):
            # x-free factors: one numerator and one denominator constant; x-dependent ones multiply or divide.
            num_c, den_c, num, den = [], [], [], []
            for a in e.args:
                negative = isinstance(a, sp.Pow) and a.exp.is_number and a.exp < 0
                if isinstance(a, sp.Rational):
                    num_c.append(sp.Integer(a.p))
                    den_c.append(sp.Integer(a.q))
                elif not a.has(x):
                    (den_c if negative else num_c).append(1 / a if negative else a)
                else:
                    (den if negative else num).append(1 / a if negative else a)
            top, bottom = sp.Mul(*num_c), sp.Mul(*den_c)
            sign = ""
            if top.could_extract_minus_sign():
                sign, top = "-", -top
            if not (top.is_Integer or bottom == 1):   # one division by one constant, as a hand would write it
                top, bottom = sp.Integer(1), bottom / top
            factors = ([] if top == 1 else [self.constant(top)]) + [self(a) for a in num]
            out = " * ".join(factors) if factors else "1"
            for d in [self(a) for a in den] + ([] if bottom == 1 else [self.constant(bottom)]):
                out = f"{out} / {d}"
            return f"({sign}{out})"
        if isinstance(e, sp.Pow):
            base, n = e.base, e.exp
            if base == sp.E:
                return f"_exp({self(n)})"
            if n.has(x):
                return f"_exp({self(n * sp.log(base))})"
            if n == 2:
                return f"_sqr({self(base)})"
            if n == sp.Rational(1, 2):
                return f"_sqrt({self(base)})"
            if n.is_Integer and n > 0:
                return f"({self(base)} ** {int(n)})"
            if n.is_Integer and n < 0:
                return f"(1 / {self(base ** -n)})"
            return f"({self(base)} ** {self.constant(n)})"
        names = {sp.exp: "_exp", sp.log: "_log", sp.erfc: "_erfc", sp.Abs: "_abs", sp.tanh: "_tanh",
                 sp.cosh: "_cosh"}
        from sympy.codegen.cfunctions import expm1, log1p
        names.update({expm1: "_expm1", log1p: "_log1p"})
        if e.func in names:
            return f"{names[e.func]}({self(e.args[0])})"
        raise NotImplementedError(f"a declaration uses {e.func}, which the family compiler does not know")


def _print(sp, e, names: dict) -> str:
    """Source of a parameter-only expression, every operation through the target's names."""
    if e in names:
        return names[e]
    if isinstance(e, sp.Integer):
        return f"_num({int(e)})"
    if isinstance(e, sp.Rational):
        return f"(_num({e.p})/{e.q})"
    if e == sp.pi:
        return "_pi()"
    if e == sp.E:
        return "_exp(_num(1))"
    if isinstance(e, sp.Add):
        return "(" + " + ".join(_print(sp, a, names) for a in e.args) + ")"
    if isinstance(e, sp.Mul) and isinstance(e.args[0], sp.Rational) and e.args[0].q != 1:
        c = e.args[0]
        return f"({_print(sp, c.p * sp.Mul(*e.args[1:]), names)} / {c.q})"
    if isinstance(e, sp.Mul):
        num = [a for a in e.args if not (isinstance(a, sp.Pow) and a.exp.is_number and a.exp < 0)]
        den = [1 / a for a in e.args if isinstance(a, sp.Pow) and a.exp.is_number and a.exp < 0]
        out = " * ".join(_print(sp, a, names) for a in num) if num else "_num(1)"
        return "(" + out + "".join(f" / {_print(sp, a, names)}" for a in den) + ")"
    if isinstance(e, sp.Pow):
        if e.base == sp.E:
            return f"_exp({_print(sp, e.exp, names)})"
        if e.exp == sp.Rational(1, 2):
            return f"_sqrt({_print(sp, e.base, names)})"
        if e.exp.is_Integer and e.exp < 0:
            return f"(_num(1) / {_print(sp, e.base ** -e.exp, names)})"
        if e.exp.is_Integer:
            return f"({_print(sp, e.base, names)} ** {int(e.exp)})"
        return f"({_print(sp, e.base, names)} ** {_print(sp, e.exp, names)})"
    functions = {sp.exp: "_exp", sp.log: "_log", sp.erfc: "_erfc", sp.Abs: "_abs", sp.tanh: "_tanh",
                 sp.cosh: "_cosh"}
    if e.func in functions:
        return f"{functions[e.func]}({_print(sp, e.args[0], names)})"
    raise NotImplementedError(f"a declaration uses {e.func}, which the family compiler does not know")


@dataclass
class Compiled:
    """A family's derived evaluators. Every evaluator takes ``(x, k)``, ``k`` the tuple of the law's hoisted
    constants (:meth:`constants`), which the family computes once per (law, precision)."""

    declaration: Declaration
    symbols: tuple
    constants: Any                             # {"mpmath"|"arb": function of the parameters -> tuple of k}
    bare_kinks: tuple | None                   # parameter indices, when every kink is a parameter
    kinks: tuple                               # indices into k
    mp_log: list
    arb_log: list
    arb_dlog: list
    mp_cdf: list | None = None
    mp_sf: list | None = None
    arb_cdf: list | None = None
    arb_sf: list | None = None
    quadratic: list = field(default_factory=list)   # per piece (a, b, c) indices into k, or None
    tails: dict = field(default_factory=dict)        # side -> (A, B, C) indices into k: -A u² + B u + C, u = side·x
    slopes: tuple | None = None                      # indices of the pieces' x-free derivatives
    mp_whole: Callable | None = None
    arb_whole: Callable | None = None


def declaration(declare: Callable, names: Sequence[str]) -> Any:
    """The family's :class:`Declaration`, with the SymPy symbols it was declared in: ``declare(x, *params)``."""
    import sympy as sp
    x = sp.Symbol("x", real=True)
    symbols = tuple(sp.Symbol(n, real=True) for n in names)
    d = declare(x, *symbols)
    d.x, d.symbols = x, symbols
    d.quadratic = []
    for piece in d.log_density:
        if piece.is_polynomial(x) and sp.Poly(piece, x).degree() <= 2:
            # by derivatives at 0 rather than Poly's coefficients, which expand the piece's logarithms
            d.quadratic.append((sp.diff(piece, x, 2) / 2, sp.diff(piece, x).subs(x, 0), piece.subs(x, 0)))
        else:
            d.quadratic.append(None)
    return d


def _functions(sp, emitter, exprs, namespace) -> list:
    out = []
    for e in exprs:
        source = f"def f(x, k):\n    return {emitter(sp.sympify(e))}\n"
        scope = dict(namespace)
        exec(compile(source, "<symdp family>", "exec"), scope)   # noqa: S102 -- our own printing of SymPy
        f = scope["f"]
        f.source = source
        out.append(f)
    return out


def compile_family(declare: Callable, names: Sequence[str]) -> Compiled:
    """Derive every evaluator of a family from its declaration (once per family: see ``Declared._compiled``)."""
    import sympy as sp
    d = declaration(declare, names)
    x, symbols = d.x, d.symbols
    if len(d.log_density) != len(d.kinks) + 1:
        raise ValueError("a declaration has one piece more than it has kinks")
    registry = {s: i for i, s in enumerate(symbols)}
    emitter = _Emitter(sp, x, registry)

    def index(e):
        e = sp.sympify(e)
        if e not in registry:
            registry[e] = len(registry)
        return registry[e]
    kinks = tuple(index(k) for k in d.kinks)
    bare = tuple(symbols.index(k) for k in d.kinks) if all(k in symbols for k in d.kinks) else None
    derivatives = [sp.factor_terms(sp.diff(p, x)) for p in d.log_density]
    compiled = Compiled(d, symbols, None, bare, kinks,
                        mp_log=_functions(sp, emitter, d.log_density, MPMATH),
                        arb_log=_functions(sp, emitter, d.log_density, ARB),
                        arb_dlog=_functions(sp, emitter, derivatives, ARB))
    for which in ("cdf", "sf"):
        exprs = getattr(d, which)
        if exprs is not None:
            setattr(compiled, f"mp_{which}", _functions(sp, emitter, exprs, MPMATH))
            setattr(compiled, f"arb_{which}", _functions(sp, emitter, exprs, ARB))
    if d.whole is not None:
        compiled.mp_whole, = _functions(sp, emitter, [d.whole], MPMATH)
        compiled.arb_whole, = _functions(sp, emitter, [d.whole], ARB)
    compiled.quadratic = [None if q is None else tuple(index(c) for c in q) for q in d.quadratic]
    for side, q in ((1, d.quadratic[-1]), (-1, d.quadratic[0])):
        if q is not None:   # a u² + side·b u + c in u = side·x
            compiled.tails[side] = (index(-q[0]), index(side * q[1]), index(q[2]))
    if not any(g.has(x) for g in derivatives):
        compiled.slopes = tuple(index(g) for g in derivatives)
    exprs = sorted(registry, key=registry.get)
    names_ = {s: f"p[{i}]" for i, s in enumerate(symbols)}
    source = "def constants(*p):\n    return (" + "".join(f"{_print(sp, e, names_)}, " for e in exprs) + ")\n"

    def constants(namespace):
        scope = dict(namespace)
        exec(compile(source, "<symdp family constants>", "exec"), scope)   # noqa: S102
        return scope["constants"]
    compiled.constants = {"mpmath": constants(MPMATH), "arb": constants(ARB)}
    compiled.constants_source = source
    return compiled


def crossing_coefficients(compiled: Compiled) -> dict | None:
    """For two laws of the family whose pieces are all quadratic: ``(i, j) -> f(*p, *q) -> (A, B, C)`` in mpmath,
    ``log p - log q = A x² + B x + C`` where p's piece i meets q's piece j. The difference is taken in SymPy, its
    logarithms expanded, before any rounding: the common constants (``log √(2π)``) cancel exactly, so that two laws
    of equal scale cross where the hand formula says (``log(s₂/s₁) = 0``, not a rounding of it)."""
    import sympy as sp
    d = compiled.declaration
    if any(q is None for q in d.quadratic):
        return None
    x, symbols = d.x, d.symbols
    others = tuple(sp.Symbol(f"{s.name}_q", real=True) for s in symbols)
    names = {s: f"p[{i}]" for i, s in enumerate(symbols + others)}
    out = {}
    for i, p in enumerate(d.log_density):
        for j, q in enumerate(d.log_density):
            difference = sp.expand(sp.expand_log(p - q.subs(dict(zip(symbols, others))), force=True))
            coefficients = [difference.coeff(x, 2), difference.coeff(x, 1), difference.coeff(x, 0)]
            source = "def f(*p):\n    return (" + "".join(f"{_print(sp, c, names)}, " for c in coefficients) + ")\n"
            scope = dict(MPMATH)
            exec(compile(source, "<symdp family crossings>", "exec"), scope)   # noqa: S102
            out[i, j] = scope["f"]
    return out
