"""Continuous one-dimensional distributions with mpmath densities.

Each family knows where its density is not smooth (:meth:`ContinuousDistribution.kinks`), where its mass sits
(:meth:`center`, :meth:`scale`), and how its log-density behaves in the tails (:meth:`tail`), so that the divergence
engine can split quadrature at every kink, crossing point and peak, and compute suprema that are only reached at ±∞.

Gaussian, Laplace and Lap2 are declared once (:class:`Declared`): the log-density as SymPy, one expression per piece
between the kinks, and the CDF and SF the same way; :mod:`symdp.engine.families` derives the evaluators from it.

Densities are evaluated in log space; Lap2's density uses a form without cancellation for any λ1, λ2 (including
λ1 = λ2, eq. (6)'s second branch, and λ1 ≈ λ2).

>>> from symdp.engine.continuous import Lap2
>>> with mpmath.workdps(30):      # reference: catalogue-balle.md, balle19.eq6 (mpmath convolution integral)
...     print(mpmath.nstr(Lap2(0, 1, 2).pdf(mpmath.mpf('0.7')), 18))
0.152131812607669559
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, ClassVar, Literal

import functools
import operator
import weakref

import mpmath
from flint import acb, arb, ctx

from symdp.engine import closed_forms as cf
from symdp.engine.families import Compiled, Declaration, compile_family, crossing_coefficients
from symdp.errors import InvalidDistribution
from symdp.numeric import to_mpf


def _positive(x, what: str) -> mpmath.mpf:
    v = to_mpf(x, what)
    if not (mpmath.isfinite(v) and v > 0):
        raise InvalidDistribution(f"{what} must be a positive number, got {mpmath.nstr(v, 10)}")
    return v


def _real(x, what: str) -> mpmath.mpf:
    v = to_mpf(x, what)
    if not mpmath.isfinite(v):
        raise InvalidDistribution(f"{what} must be a finite number, got {v}")
    return v


# --- ball arithmetic helpers (python-flint's Arb) -----------------------------------------------------------------
# The ``arb_*`` methods of the families below take an ``arb`` (a real ball, possibly wide: the result then encloses
# the function's range over it) or, with ``piece``, an ``acb`` for rigorous integration. They compute at flint's
# ``ctx.prec``, which the caller sets (:func:`symdp.engine.certified.arb_precision`).

Envelope = tuple
"""``(A, B, C)`` arbs: the exponent ``-A u² + B u + C`` of a tail envelope, in ``u = side·x``."""

GaussianTerm = tuple
"""``(log w, mean, sd)`` arbs: one term ``w · N(mean, sd²)`` of a density written as a finite sum of Gaussians."""


def _arb(x) -> arb:
    """An mpf (or int) as an exact Arb ball: the binary value carries over without rounding."""
    return arb(x)


@functools.lru_cache(maxsize=512)
def _constants_at(dist: "ContinuousDistribution", prec: int) -> tuple:
    return dist._arb_constants()


class _PerLaw:
    """The last value computed for each live law object (by identity, at one precision): found without hashing
    the law, which costs more than the ball operations of a log-density (a frozen dataclass of mpfs hashes every
    field on every call). Behind it, an ``lru_cache`` by value shares the work between equal laws."""

    def __init__(self, compute: Callable):
        self.compute, self.entries = compute, {}

    def __call__(self, dist, prec: int):
        entry = self.entries.get(id(dist))
        if entry is not None and entry[1] == prec and entry[0]() is dist:
            return entry[2]
        value = self.compute(dist, prec)
        key, entries = id(dist), self.entries

        def forget(ref):   # the law is gone: its id may be reused
            if entries.get(key, (None,))[0] is ref:
                del entries[key]
        try:
            entries[key] = (weakref.ref(dist, forget), prec, value)
        except TypeError:   # not weak-referenceable: no shortcut
            pass
        return value


_arb_per_law = _PerLaw(_constants_at)


def _constants(dist: "ContinuousDistribution") -> tuple:
    """The family's parameters and derived constants as Arb balls at flint's current precision, computed once per
    (law, precision): converting an mpf costs as much as a dozen ball operations."""
    return _arb_per_law(dist, ctx.prec)


def _sqr(z):
    """``z²``, non-negative for a real ball that contains 0 (``z*z`` would not be)."""
    if isinstance(z, acb) or z > 0 or z < 0:
        return z * z
    return arb(0).union(z.abs_upper() ** 2)


def _abs(z: arb) -> arb:
    """``|z|`` of a real ball, as a non-negative ball."""
    if z >= 0:
        return z
    if z <= 0:
        return -z
    return arb(0).union(z.abs_upper())


def _branches(z: arb, negative: Callable, positive: Callable) -> arb:
    """A function given by ``negative(z)`` for ``z ≤ 0`` and ``positive(z)`` for ``z ≥ 0``, on a real ball: where
    the ball straddles 0, the union of each branch on its own part of the ball (the true value is one of them, at
    a point of that part; a branch's formula may not even be defined on the other part).

    >>> _branches(arb(0, 1), lambda z: 1 / (1 - z), lambda z: 1 / (1 + z)).is_finite()   # either on all: 1/0
    True
    """
    if z <= 0:
        return negative(z)
    if z >= 0:
        return positive(z)
    zero = arb(0)
    return negative(arb(z.lower()).union(zero)).union(positive(zero.union(arb(z.upper()))))


def _logaddexp(a, b, analytic: bool = False):
    """``log(e^a + e^b)`` for balls (real, or complex near the real axis), shifted by the larger midpoint.

    On real balls the function is increasing in both arguments, so its range is the hull of its values at the
    lower and at the upper ends: no dependency between ``a`` and ``e^(b - a)``, and no negative ``e^(b - a)``
    from a wide ball's exponential (whose ``log1p`` would be NaN).

    >>> _logaddexp(arb(-100).union(arb(20)), arb(-300).union(arb(-50))).upper() < 20.001
    True
    """
    if isinstance(a, arb) and isinstance(b, arb) and a.is_finite() and b.is_finite() and not (
            a.rad() == 0 and b.rad() == 0):
        return _logaddexp_point(a.lower(), b.lower()).union(_logaddexp_point(a.upper(), b.upper()))
    return _logaddexp_point(a, b, analytic)


def _logaddexp_point(a, b, analytic: bool = False):
    """``log(e^a + e^b)`` evaluated directly (for narrow balls), shifted by the larger midpoint."""
    if (a.real if isinstance(a, acb) else a).mid() < (b.real if isinstance(b, acb) else b).mid():
        a, b = b, a
    t = (b - a).exp()
    if isinstance(t, acb):
        return a + (1 + t).log(analytic=analytic)
    return a + t.log1p()


def _exact_sum(a, b) -> mpmath.mpf:
    """``a + b`` with every bit kept (mpf sums are exact binary numbers), so that a moved law is exactly the law
    moved: the certified engine translates pairs of laws far from the origin, which must not change them."""
    return mpmath.fadd(a, b, exact=True)


def _keeping(*values):
    """A working precision at which :func:`~symdp.numeric.to_mpf` keeps every bit of ``values`` (the families'
    constructors round their parameters to the working precision)."""
    bits = max((v._mpf_[3] for v in values if isinstance(v, mpmath.mpf) and mpmath.isfinite(v)), default=0)
    return mpmath.workprec(max(mpmath.mp.prec, bits))


def _side(piece, kink) -> int:
    """Which side of ``kink`` the piece containing the real point ``piece`` lies on."""
    if piece == kink:
        raise ValueError("a piece's reference point must not be a kink")
    return 1 if piece > kink else -1


@dataclass(frozen=True)
class Tail:
    """Asymptotic form of the log-density as x → ±∞.

    ``kind == "gaussian"``: log p(x) = -(x - loc)²/(2 s²) + const, with ``s = param``.
    ``kind == "exponential"``: log p(x) = -|x|/λ + k·log|x| + O(1), with ``λ = param``, ``k = power``.
    """

    kind: Literal["gaussian", "exponential"]
    param: mpmath.mpf
    power: int = 0


@dataclass(frozen=True)
class TailExpansion:
    """``log density ≈ -quad·u² + lin·u + power·log u + const + o(1)`` as ``u = side·x → +∞``.

    A linear combination of such expansions is again one (the log-ratio is P's minus Q's; the Rényi exponent is
    α·P's + (1-α)·Q's). NaN marks a coefficient that is not known (a family only described by its ``tail()``). Each family gives its
    own exactly (:meth:`ContinuousDistribution.expansion`).
    """

    quad: mpmath.mpf
    lin: mpmath.mpf
    power: mpmath.mpf
    const: mpmath.mpf

    @staticmethod
    def combine(a, x: "TailExpansion", b, y: "TailExpansion") -> "TailExpansion":
        return TailExpansion(*(a * u + b * v for u, v in zip(
            (x.quad, x.lin, x.power, x.const), (y.quad, y.lin, y.power, y.const))))

    def limit(self):
        """The limit as ``u → ∞``: ±inf from the first non-zero growing term, else ``const``; None if unknown."""
        for growth in (-self.quad, self.lin, self.power):
            if mpmath.isnan(growth):
                return None
            if growth != 0:
                return mpmath.inf if growth > 0 else -mpmath.inf
        return None if mpmath.isnan(self.const) else self.const

    def integrable(self):
        """Whether ``exp`` of this expansion is integrable at ``u → ∞`` (None if undecided)."""
        for growth, threshold in ((-self.quad, 0), (self.lin, 0), (self.power, -1)):
            if mpmath.isnan(growth):
                return None
            if growth != threshold:
                return growth < threshold
        return False   # u^-1: log-divergent


    @staticmethod
    def unknown() -> "TailExpansion":
        return TailExpansion(mpmath.nan, mpmath.nan, mpmath.nan, mpmath.nan)


class ContinuousDistribution:
    """Base class: a distribution on ℝ with a density. Subclasses implement ``logpdf``, ``cdf``, ``sf``."""

    def logpdf(self, x) -> mpmath.mpf:
        raise NotImplementedError

    def pdf(self, x) -> mpmath.mpf:
        return mpmath.exp(self.logpdf(x))

    def cdf(self, x) -> mpmath.mpf:
        raise NotImplementedError

    def sf(self, x) -> mpmath.mpf:
        """Survival function 1 - cdf, computed without cancellation in the right tail."""
        raise NotImplementedError

    def prob(self, a, b) -> mpmath.mpf:
        """P([a, b]), from the cdf on the left half and the sf on the right half to keep relative precision."""
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        c = self.center()
        if b <= c:
            return self.cdf(b) - self.cdf(a)
        if a >= c:
            return self.sf(a) - self.sf(b)
        return 1 - self.cdf(a) - self.sf(b)

    def kinks(self) -> tuple[mpmath.mpf, ...]:
        """Points where the density is not smooth (quadrature must split there)."""
        return ()

    # Ball arithmetic (Arb). A family without these raises NotImplementedError and the engine uses mpmath.

    def arb_logpdf(self, x, piece=None):
        """``log p`` on a ball: a real ``arb`` (the enclosure of the range over it), or, given ``piece`` (a real
        point strictly between two kinks), an ``acb`` through the form analytic on that piece, which is non-finite
        where ``analytic`` is set and the ball leaves the domain of the logarithm (for ``acb.integral``)."""
        raise NotImplementedError(f"{type(self).__name__} has no ball-arithmetic log-density")

    def arb_dlogpdf(self, x: arb, piece=None) -> arb:
        """``d/dx log p`` on a real ball; across a kink, the hull of both one-sided derivatives (so that the mean
        value enclosure ``log p(y) - log p(x) ∈ (y - x) · arb_dlogpdf([x, y])`` still holds). Given ``piece`` (a
        real point strictly between two kinks), the derivative of the form analytic on that piece, for a ball in
        its closure: a ball that ends at a kink then encloses the one-sided derivative there, not both."""
        raise NotImplementedError(f"{type(self).__name__} has no ball-arithmetic derivative")

    def arb_cdf(self, x: arb) -> arb:
        """``P(X ≤ x)`` on a real ball."""
        raise NotImplementedError(f"{type(self).__name__} has no ball-arithmetic cdf")

    def arb_sf(self, x: arb) -> arb:
        """``P(X > x)`` on a real ball, without cancellation in the right tail."""
        raise NotImplementedError(f"{type(self).__name__} has no ball-arithmetic sf")

    def arb_prob(self, a: arb, b: arb) -> arb:
        """``P([a, b])`` from the cdf left of the centre and the sf right of it, as :meth:`prob`."""
        c = _arb(self.center())
        if b <= c:
            return self.arb_cdf(b) - self.arb_cdf(a)
        if a >= c:
            return self.arb_sf(a) - self.arb_sf(b)
        return 1 - self.arb_cdf(a) - self.arb_sf(b)

    def arb_envelope(self, side: int, start) -> tuple[list[Envelope], Envelope]:
        """Certified bounds of ``log p`` on the tail ``u = side·x ≥ start`` (``start`` beyond every kink):
        ``(uppers, lower)`` with ``p ≤ Σ exp(-A u² + B u + C)`` over ``uppers`` and ``log p ≥ -A u² + B u + C``
        for ``lower``, so that tail integrals are bounded in closed form (erfc, exp)."""
        raise NotImplementedError(f"{type(self).__name__} has no tail envelope")

    def arb_gaussian_sum(self) -> list[GaussianTerm] | None:
        """The density as a finite sum of weighted Gaussian densities, ``[(log w, mean, sd), ...]`` as Arb balls at
        flint's precision, or None when it is not one (the default). On such sums the engine does exact algebra, as
        RDP accountants do: log-ratios whose common quadratic cancels before any rounding, and integer-order Rényi
        integrals as finite sums of Gaussian integrals."""
        return None

    def arb_log_quadratic(self, piece) -> tuple | None:
        """``(a, b, c)`` as Arb balls with ``log p(x) = a x² + b x + c`` on the piece (between consecutive kinks)
        containing the real point ``piece``, or None where ``log p`` is not a quadratic there (the default). On such
        pieces ``∫ p^α q^(1-α)`` is a Gaussian or exponential integral in closed form."""
        return None

    def arb_log_split(self, piece) -> tuple | None:
        """``((a, b, c), remainder)`` as Arb balls and a function, with ``log p(x) = a x² + b x + c + remainder(x)``
        on the piece containing the real point ``piece``: the quadratic part exact, the remainder (None: 0) a
        slowly varying function of a real or complex ball (through the form analytic on the piece, as
        :meth:`arb_logpdf`). Integrands built from it combine the quadratic parts of two laws before the ball
        enters, so that large exponents do not each widen the ball. None where the family has no such split (the
        default: its log-quadratic form, if it has one).

        >>> ((a, b, c), rest) = Laplace(0, 2).arb_log_split(mpmath.mpf(1))   # -x/2 - log 4
        >>> print(a.is_zero(), float(b.mid()), rest)
        True -0.5 None
        """
        quadratic = self.arb_log_quadratic(piece)
        return None if quadratic is None else (quadratic, None)

    def arb_supported(self) -> bool:
        """Whether the ball-arithmetic methods are implemented (the certified engine applies)."""
        try:
            self.arb_envelope(1, max([self.center(), *self.kinks()]) + 1)
        except NotImplementedError:
            return False
        return True

    def center(self) -> mpmath.mpf:
        raise NotImplementedError

    def scale(self) -> mpmath.mpf:
        raise NotImplementedError

    def tail(self) -> Tail:
        raise NotImplementedError

    def anchors(self) -> list[tuple]:
        """``(centre, scale, tail kind)`` of every component: where the engine searches for crossings and peaks."""
        return [(self.center(), self.scale(), self.tail().kind)]

    def scales(self) -> list:
        """Every length scale the density varies on (a Lap2 has two): how finely a quadrature must resolve it."""
        return [scale for _, scale, _ in self.anchors()]

    def expansion(self, side: int) -> TailExpansion:
        """The expansion of ``log pdf`` as ``x → side·∞``; only the leading behaviour (from :meth:`tail`) unless
        the family knows it exactly."""
        tail = self.tail()
        nan = mpmath.nan
        if tail.kind == "gaussian":
            return TailExpansion(1 / (2 * tail.param**2), nan, nan, nan)
        return TailExpansion(mpmath.mpf(0), -1 / tail.param, mpmath.mpf(tail.power), nan)

    def closed_form(self, kind: str, other: "ContinuousDistribution", *args) -> Callable[[], arb] | None:
        """The formula of :mod:`symdp.engine.closed_forms` for ``kind(self, other, *args)``, as a thunk returning its
        enclosure, or None. Used only while closed forms are enabled (:func:`symdp.precision.closed_forms`)."""
        return None

    def crossings(self, other: "ContinuousDistribution", level) -> list | None:
        """The points where ``log p - log q = level`` when the pair solves it exactly, else None (the engine
        searches)."""
        return None

    def shifted(self, by) -> "ContinuousDistribution":
        """The law of X + by."""
        return Shifted(self, _real(by, "shift"))

    def canonical(self) -> "ContinuousDistribution":
        """The same law in its simplest form (shifts folded into a location family, trivial mixtures dropped):
        closed forms are recognised on this form."""
        return self

    def _moved(self, by: mpmath.mpf) -> "ContinuousDistribution":
        """The canonical law of X + by, X being this canonical law: a location family moves its location
        (exactly: every bit of the sum is kept)."""
        return Shifted(self, by)

    def located(self) -> tuple["ContinuousDistribution", mpmath.mpf]:
        """``(shape, location)`` with this law the law of ``location + Y``, ``Y ~ shape``: two laws of equal shape
        are translates of each other, and their log-ratio is then an average of ``d/dx log`` of the shape
        (:meth:`arb_dlogpdf_bounds`). A location family's shape is its law at location 0; any other law is its own
        shape, at 0.

        >>> Laplace(3, 2).located()
        (Laplace(loc=mpf('0.0'), b=mpf('2.0')), mpf('3.0'))
        >>> Lap2(0, 1, 2).located()[0] == Lap2(5, 2, 1).located()[0]   # translates: one shape
        True
        """
        return self, mpmath.mpf(0)

    def arb_dlogpdf_bounds(self) -> tuple | None:
        """``(low, high)``, Arb balls with ``low ≤ d/dx log p(x) ≤ high`` at every x (one-sided derivatives at a
        kink included), or None where ``log p`` has no bounded slope (the default; a Gaussian's is unbounded).

        For a pair of translates ``p = f(x - m_P)``, ``q = f(x - m_Q)`` the privacy loss is
        ``L(x) = ∫_{x - m_Q}^{x - m_P} (log f)' = δ · (an average of (log f)')`` with ``δ = m_Q - m_P``, so
        ``L ∈ δ · [low, high]`` everywhere, tails included: the bound the certified engine proves suprema with."""
        return None

    def log_concave(self) -> bool:
        """Whether the density is proved log-concave (the default: not known). For translates of a log-concave
        law, ``(log f)'`` is non-increasing, so the privacy loss ``L(x) = ∫_{x - m_Q}^{x - m_P} (log f)'`` is
        monotone in x (non-increasing for ``m_P < m_Q``): on a tail it lies between its value at the tail's edge
        and its limit, which :meth:`arb_dlogpdf_bounds` bounds."""
        return False



@functools.lru_cache(maxsize=512)
def _mp_constants_at(dist: "Declared", prec: int) -> tuple:
    return dist._compiled().constants["mpmath"](*dist._parameters())


_mp_per_law = _PerLaw(_mp_constants_at)


def _mp_constants(dist: "Declared") -> tuple:
    """The hoisted constants of a declared law in mpmath, once per (law, working precision)."""
    return _mp_per_law(dist, mpmath.mp.prec)


_COMPILED: dict = {}


class Declared(ContinuousDistribution):
    """A family declared once: its parameters (the dataclass's fields, in order), its log-density as one SymPy
    expression per piece between its kinks (:meth:`declare`) and, optionally, its CDF and SF the same way. Derived
    from the declaration (:mod:`symdp.engine.families`, compiled once per family on first use): the mpmath
    ``logpdf``, ``cdf``, ``sf``; the Arb ``arb_logpdf`` and its derivative ``arb_dlogpdf`` (``sympy.diff``),
    ``arb_cdf``, ``arb_sf``, for a real ball (across a kink, the union of each piece on its part) or on a given
    piece (an ``acb`` too); ``kinks``; where a piece is a polynomial of degree ≤ 2 in x, ``arb_log_quadratic``;
    where the tail pieces are, the exact ``arb_envelope`` and ``expansion``; the exact ``crossings`` of two laws of
    the family whose pieces all are; ``arb_dlogpdf_bounds`` where every piece's slope is free of x; and, for a
    location family (``location`` names the parameter), ``_moved`` and ``located``.

    A new family is a short declaration. The logistic law, through the mpmath route (its tails are not
    quadratic, so the certified engine leaves it to quadrature):

    >>> import sympy as sp
    >>> @dataclass(frozen=True, init=False)
    ... class Logistic(Declared):
    ...     loc: mpmath.mpf
    ...     s: mpmath.mpf
    ...     location, positive = "loc", ("s",)
    ...
    ...     @staticmethod
    ...     def declare(x, loc, s):
    ...         z = (x - loc) / s
    ...         return Declaration(log_density=[-z - 2 * sp.log(1 + sp.exp(-z)) - sp.log(s)],
    ...                            cdf=[1 / (1 + sp.exp(-z))], sf=[1 / (1 + sp.exp(z))])
    ...
    ...     def center(self): return self.loc
    ...     def scale(self): return self.s
    ...     def tail(self): return Tail("exponential", self.s)
    >>> L = Logistic(1, 2)
    >>> print(mpmath.nstr(L.pdf(1), 15), mpmath.nstr(L.cdf(3) + L.sf(3), 15), L.kinks(), L.arb_supported())
    0.125 1.0 () False
    >>> L.located(), L.shifted(1).canonical()
    ((Logistic(loc=mpf('0.0'), s=mpf('2.0')), mpf('1.0')), Logistic(loc=mpf('2.0'), s=mpf('2.0')))
    >>> from symdp.engine import quadrature
    >>> print(mpmath.nstr(quadrature.kl(L, Logistic(2, 2), method="quadrature").value, 12))   # direct mpmath.quad: 0.0414940825368
    0.0414940825368

    Hand overrides remain where a delicate form is needed for accuracy; each says why.
    """

    location: ClassVar[str | None] = None
    """The parameter that is the law's location (None: not a location family, which moves as a Shifted law)."""

    positive: ClassVar[tuple] = ()
    """The parameters the generic constructor requires positive (the others: finite)."""

    @staticmethod
    def declare(x, *parameters) -> Declaration:
        """The declaration, in the SymPy symbols ``x`` and the parameters (one per field, in order)."""
        raise NotImplementedError

    def __init__(self, *values):
        fields = dataclasses.fields(self)
        if len(values) != len(fields):
            raise TypeError(f"{type(self).__name__} takes {len(fields)} parameters, got {len(values)}")
        for f, v in zip(fields, values):
            check = _positive if f.name in self.positive else _real
            object.__setattr__(self, f.name, check(v, f"{type(self).__name__} {f.name}"))

    @classmethod
    def _compiled(cls) -> Compiled:
        compiled = _COMPILED.get(cls)
        if compiled is None:
            names = tuple(f.name for f in dataclasses.fields(cls))
            compiled = compile_family(cls.declare, names)
            compiled.names = names
            compiled.quadratic_none = all(q is None for q in compiled.quadratic)
            if compiled.bare_kinks is not None:   # the kinks are parameters: read them, nothing to compute
                compiled.bare_kinks = operator.attrgetter(*[names[i] for i in compiled.bare_kinks]) \
                    if len(compiled.bare_kinks) > 1 else (lambda law, name=names[compiled.bare_kinks[0]]: (getattr(law, name),)) \
                    if compiled.bare_kinks else (lambda law: ())
            _COMPILED[cls] = compiled
        return compiled

    def _parameters(self) -> tuple:
        return tuple(getattr(self, n) for n in self._compiled().names)

    def _arb_constants(self):
        return self._compiled().constants["arb"](*[_arb(v) for v in self._parameters()])

    def kinks(self):
        c = _COMPILED.get(type(self)) or self._compiled()
        if c.bare_kinks is not None:   # every kink a parameter: exactly it
            return c.bare_kinks(self)
        k = _mp_constants(self)
        return tuple(k[i] for i in c.kinks)

    def _piece(self, point, strict: bool = False) -> int:
        """The index of the piece holding the real point (at a kink: the piece left of it; ``strict``: a piece's
        reference point must not be a kink)."""
        index = 0
        for kink in self.kinks():
            if strict and point == kink:
                raise ValueError("a piece's reference point must not be a kink")
            index += point > kink
        return index

    def _mp_eval(self, functions, x):
        x = mpmath.mpf(x)
        if len(functions) == 1:
            return functions[0](x, _mp_constants(self))
        index = 0
        for kink in self.kinks():
            index += x > kink
        return functions[index](x, _mp_constants(self))

    def logpdf(self, x):
        c = _COMPILED.get(type(self)) or self._compiled()
        if c.mp_whole is not None:
            return c.mp_whole(mpmath.mpf(x), _mp_constants(self))
        return self._mp_eval(c.mp_log, x)

    def cdf(self, x):
        return self._mp_eval((_COMPILED.get(type(self)) or self._compiled()).mp_cdf, x)

    def sf(self, x):
        return self._mp_eval((_COMPILED.get(type(self)) or self._compiled()).mp_sf, x)

    def _arb_eval(self, functions, x, piece=None):
        """A piecewise function on a ball: the piece's own form given ``piece``; else the form of the piece that
        holds the ball, or, for a ball across kinks, the union of each piece's form on its part of the ball (as
        :func:`_branches`)."""
        k = _constants(self)
        if len(functions) == 1:
            return functions[0](x, k)
        if piece is not None:
            return functions[self._piece(piece, strict=True)](x, k)
        kinks = [k[i] for i in self._compiled().kinks]
        if x <= kinks[0]:
            return functions[0](x, k)
        if x >= kinks[-1]:
            return functions[-1](x, k)
        lo, hi, out = x.lower(), x.upper(), None
        for i, f in enumerate(functions):
            left = kinks[i - 1] if i > 0 else None
            right = kinks[i] if i < len(kinks) else None
            if (left is not None and hi < left) or (right is not None and lo > right):
                continue
            part = (lo if left is None or lo > left else left).union(hi if right is None or hi < right else right)
            value = f(part, k)
            out = value if out is None else out.union(value)
        return out

    # The hot paths of certified integrands: a single-piece family, or a given piece, goes straight to its form.

    def arb_logpdf(self, x, piece=None):
        c = _COMPILED.get(type(self)) or self._compiled()
        functions = c.arb_log
        if len(functions) == 1:
            return functions[0](x, _constants(self))
        if piece is not None:
            return functions[self._piece(piece, True)](x, _constants(self))
        if c.arb_whole is not None:
            return c.arb_whole(x, _constants(self))
        return self._arb_eval(functions, x)

    def arb_dlogpdf(self, x, piece=None):
        functions = (_COMPILED.get(type(self)) or self._compiled()).arb_dlog
        if len(functions) == 1:
            return functions[0](x, _constants(self))
        return self._arb_eval(functions, x, piece)

    def arb_cdf(self, x):
        functions = self._compiled().arb_cdf
        return super().arb_cdf(x) if functions is None else self._arb_eval(functions, x)

    def arb_sf(self, x):
        functions = self._compiled().arb_sf
        return super().arb_sf(x) if functions is None else self._arb_eval(functions, x)

    def arb_log_quadratic(self, piece):
        c = _COMPILED.get(type(self)) or self._compiled()
        if c.quadratic_none:
            return None
        indices = c.quadratic[self._piece(piece, strict=True) if len(c.quadratic) > 1 else 0]
        if indices is None:
            return None
        k = _constants(self)
        return tuple(k[i] for i in indices)

    @classmethod
    def ball_log_quadratic(cls, *parameters) -> tuple | None:
        """``(a, b, c)`` with ``log p(x) = a x² + b x + c`` for the law of the family whose parameters are the Arb
        balls given (a law computed in balls, such as a chain's law from its recursions, which no mpf parameter
        could hold exactly): the declared form at the balls. None where the family has kinks or its form is not a
        quadratic.

        >>> from flint import arb
        >>> from symdp.estimate import arb_precision
        >>> with arb_precision(60):   # N(1, 2²): -x²/8 + x/4 - 1/8 - ln(2√(2π))
        ...     a, b, c = Gaussian.ball_log_quadratic(arb(1), arb(2))
        ...     print(a == arb(-1) / 8, b == arb(1) / 4,
        ...           abs(c + arb(1) / 8 + (2 * (2 * arb.pi()).sqrt()).log()) < 1e-15)
        True True True
        """
        c = cls._compiled()
        if len(c.quadratic) != 1 or c.quadratic[0] is None:
            return None
        k = c.constants["arb"](*parameters)
        return tuple(k[i] for i in c.quadratic[0])

    def arb_envelope(self, side, start):
        c = self._compiled()
        if side not in c.tails:
            return super().arb_envelope(side, start)
        if any(side * kink > start for kink in self.kinks()):
            raise ValueError(f"a {type(self).__name__} tail envelope starts beyond the kink")
        k = _constants(self)
        exponent = tuple(k[i] for i in c.tails[side])   # exact: the tail piece is this quadratic
        return [exponent], exponent

    def expansion(self, side):
        c = self._compiled()
        if side not in c.tails:
            return super().expansion(side)
        k = _mp_constants(self)
        quad, lin, const = (k[i] for i in c.tails[side])
        return TailExpansion(quad, lin, mpmath.mpf(0), const)

    def arb_dlogpdf_bounds(self):
        slopes = self._compiled().slopes
        if slopes is None:
            return None
        k = _constants(self)
        values = [k[i] for i in slopes]
        return min(values, key=lambda v: v.lower()), max(values, key=lambda v: v.upper())

    def crossings(self, other, level):
        """Where ``log p - log q = level`` for two laws of this family whose pieces are all quadratic: on every
        interval between the kinks of both, the roots of ``A x² + B x + C`` (the stable form, no cancellation
        between ``-B`` and the square root) that lie in it."""
        c = self._compiled()
        if type(other) is not type(self) or any(q is None for q in c.quadratic):
            return None
        if not hasattr(c, "crossing"):
            c.crossing = crossing_coefficients(c)
        params = self._parameters() + other._parameters()
        bounds = [-mpmath.inf, *sorted(set(self.kinks()) | set(other.kinks())), mpmath.inf]
        roots = set()
        for lo, hi in zip(bounds, bounds[1:]):
            if mpmath.isinf(lo) and mpmath.isinf(hi):
                inside = mpmath.mpf(0)
            elif mpmath.isinf(lo) or mpmath.isinf(hi):
                inside = mpmath.fadd(hi, -1, exact=True) if mpmath.isinf(lo) else mpmath.fadd(lo, 1, exact=True)
            else:
                inside = mpmath.ldexp(mpmath.fadd(lo, hi, exact=True), -1)
            A, B, C = c.crossing[self._piece(inside), other._piece(inside)](*params)
            C -= level
            for root in _quadratic_roots(A, B, C):
                if lo <= root <= hi:
                    roots.add(root)
        return sorted(roots)

    def _shape(self) -> tuple:
        """The parameters of the law's shape: its own, with the location 0."""
        return tuple(0 if n == self.location else v for n, v in zip(self._compiled().names, self._parameters()))

    def _moved(self, by):
        if self.location is None:
            return super()._moved(by)
        values = list(self._parameters())
        i = self._compiled().names.index(self.location)
        values[i] = _exact_sum(values[i], by)
        with _keeping(*values):
            return type(self)(*values)

    def located(self):
        if self.location is None:
            return super().located()
        shape = self._shape()
        with _keeping(*shape):   # the shape is this very law moved, whatever the working precision
            return type(self)(*shape), getattr(self, self.location)


def _quadratic_roots(A, B, C) -> set:
    """The real roots of ``A x² + B x + C``, by the stable form (no cancellation between ``-B`` and the root)."""
    if A == 0:
        return set() if B == 0 else {-C / B}
    disc = B * B - 4 * A * C
    if disc < 0:
        return set()
    q = -(B + (1 if B >= 0 else -1) * mpmath.sqrt(disc)) / 2
    return {q / A} | ({C / q} if q != 0 else set())


@dataclass(frozen=True, init=False)
class Gaussian(Declared):
    """N(mean, sd²)."""

    mean: mpmath.mpf
    sd: mpmath.mpf
    location = "mean"

    def __init__(self, mean, sd):
        object.__setattr__(self, "mean", _real(mean, "Gaussian mean"))
        object.__setattr__(self, "sd", _positive(sd, "Gaussian standard deviation"))

    @staticmethod
    def declare(x, mean, sd):
        import sympy as sp
        # The CDF and SF through erfc of the side's own argument (no 1 - erfc: they keep their digits in the tails).
        return Declaration(log_density=[-(x - mean)**2 / (2 * sd**2) - sp.log(sd * sp.sqrt(2 * sp.pi))],
                           cdf=[sp.erfc((mean - x) / (sd * sp.sqrt(2))) / 2],
                           sf=[sp.erfc((x - mean) / (sd * sp.sqrt(2))) / 2])

    def center(self):
        return self.mean

    def scale(self):
        return self.sd

    def tail(self):
        return Tail("gaussian", self.sd)

    def arb_gaussian_sum(self):
        # the parameters themselves, exactly: not through the compiled family, whose first use compiles its SymPy
        # declaration (the accountant's path then imports no SymPy)
        return [(arb(0), _arb(self.mean), _arb(self.sd))]

    def closed_form(self, kind, other, *args):
        if not isinstance(other, Gaussian):
            return None
        m1, s1, m2, s2 = self.mean, self.sd, other.mean, other.sd
        if kind == "kl":
            return lambda: cf.gaussian_kl.ball(m1, s1, m2, s2)
        if kind == "renyi":
            return lambda: cf.gaussian_renyi.ball(m1, s1, m2, s2, args[0])
        if kind == "max_divergence":
            return lambda: cf.gaussian_max_divergence.ball(m1, s1, m2, s2)
        if s1 == s2 and kind in ("hockey_stick", "tv"):
            d = mpmath.fsub(m1, m2, exact=True)       # Δ exactly: a rounded Δ is another pair
            if kind == "tv":
                return lambda: cf.gaussian_tv.ball(d, s1)
            return lambda: cf.gaussian_hockey_stick.ball(d, s1, args[0])
        return None

    def log_concave(self):
        return True   # log p is a concave quadratic


@dataclass(frozen=True, init=False)
class Laplace(Declared):
    """Lap(loc, scale): density exp(-|x - loc|/scale) / (2 scale)."""

    loc: mpmath.mpf
    b: mpmath.mpf
    location = "loc"

    def __init__(self, loc, scale):
        object.__setattr__(self, "loc", _real(loc, "Laplace location"))
        object.__setattr__(self, "b", _positive(scale, "Laplace scale"))

    @staticmethod
    def declare(x, loc, b):
        import sympy as sp
        z = (x - loc) / b
        # Each side's CDF and SF from the exponential that is small there (no cancellation in either tail).
        return Declaration(log_density=[z - sp.log(2 * b), -z - sp.log(2 * b)], kinks=[loc],
                           whole=-sp.Abs(x - loc) / b - sp.log(2 * b),
                           cdf=[sp.exp(z) / 2, 1 - sp.exp(-z) / 2], sf=[1 - sp.exp(z) / 2, sp.exp(-z) / 2])

    def center(self):
        return self.loc

    def scale(self):
        return self.b

    def tail(self):
        return Tail("exponential", self.b)

    def closed_form(self, kind, other, *args):
        if not (isinstance(other, Laplace) and other.b == self.b):
            return None
        d, lam = mpmath.fsub(self.loc, other.loc, exact=True), self.b   # Δ exactly: a rounded Δ is another pair
        table = {
            "kl": lambda: cf.laplace_kl.ball(d, lam),
            "renyi": lambda: cf.laplace_renyi.ball(d, lam, args[0]),
            "hockey_stick": lambda: cf.laplace_hockey_stick.ball(d, lam, args[0]),
            "tv": lambda: cf.laplace_tv.ball(d, lam),
            "max_divergence": lambda: cf.laplace_max_divergence.ball(d, lam),
        }
        return table[kind]

    def log_concave(self):
        return True   # log p = -|x - loc|/b - log 2b is concave


def _phi(y):
    """(1 - e^{-y}) / y, continuous at y = 0 and free of cancellation."""
    return mpmath.mpf(1) if y == 0 else -mpmath.expm1(-y) / y


@dataclass(frozen=True, init=False)
class Lap2(Declared):
    """loc + Lap(0, λ1) + Lap(0, λ2): the iterated Laplace mechanism (Balle et al. 2019, Lemma 3, eq. (6)).

    With λ = max(λ1, λ2), μ = min(λ1, λ2), a = |x - loc| and d = 1/μ - 1/λ, eq. (6) (both branches) equals

        Lap2(x) = e^{-a/λ} / (2(λ + μ)) · (1 + (a/λ) · (1 - e^{-a d}) / (a d)),

    which has no cancellation as λ1 → λ2 and reduces to e^{-a/λ}(λ + a)/(4λ²) at λ1 = λ2.

    Declared (:meth:`declare`) by eq. (6)'s first branch, from which its kinks, ``_moved`` and ``located`` derive.
    Every evaluator is a hand override of that declaration, for accuracy: the declared form cancels
    catastrophically as λ1 → λ2 (0/0 at λ1 = λ2) and far in the tails (a difference of two exponentials), and its
    derivative, CDF and SF would inherit both; the form above has neither, and bounds ``log(1 + c(a))`` for the
    tail envelope and the split, which no piece of the declaration exposes.
    """

    loc: mpmath.mpf
    scale1: mpmath.mpf
    scale2: mpmath.mpf
    location = "loc"

    @staticmethod
    def declare(x, loc, scale1, scale2):
        import sympy as sp

        def log_density(a):   # eq. (6), λ1 ≠ λ2, a = |x - loc|
            return sp.log((scale1 * sp.exp(-a / scale1) - scale2 * sp.exp(-a / scale2))
                          / (2 * (scale1**2 - scale2**2)))
        return Declaration(log_density=[log_density(loc - x), log_density(x - loc)], kinks=[loc])

    def _shape(self):
        # Lap2(loc; λ1, λ2) and Lap2(loc; λ2, λ1) are one law: the shape orders its scales, so that the two are
        # translates of one shape.
        return (0, self._big, self._small)

    def __init__(self, loc, scale1, scale2):
        object.__setattr__(self, "loc", _real(loc, "Lap2 location"))
        object.__setattr__(self, "scale1", _positive(scale1, "Lap2 scale1"))
        object.__setattr__(self, "scale2", _positive(scale2, "Lap2 scale2"))

    @property
    def _big(self):
        return max(self.scale1, self.scale2)

    @property
    def _small(self):
        return min(self.scale1, self.scale2)

    def logpdf(self, x):
        lam, mu = self._big, self._small
        a = abs(mpmath.mpf(x) - self.loc)
        d = 1 / mu - 1 / lam
        return -a / lam - mpmath.log(2 * (lam + mu)) + mpmath.log1p(a / lam * _phi(a * d))

    def sf(self, x):
        z = mpmath.mpf(x) - self.loc
        if z < 0:
            return 1 - self.sf(self.loc - z)
        lam, mu = self._big, self._small
        d = 1 / mu - 1 / lam
        return mpmath.exp(-z / lam) / 2 * (1 + mu * z * _phi(z * d) / (lam * (lam + mu)))

    def cdf(self, x):
        z = mpmath.mpf(x) - self.loc
        return self.sf(self.loc - z)

    def center(self):
        return self.loc

    def scale(self):
        return self._big

    def _arb_constants(self):
        lam, mu = _arb(self._big), _arb(self._small)
        equal = self._big == self._small
        # d = 1/μ - 1/λ and λ d = λ/μ - 1, each from the exact difference λ - μ (no cancellation as μ → λ).
        d, lam_d = (lam - mu) / (lam * mu), (lam - mu) / mu
        ceiling = None if equal else (lam / (lam - mu)).log()   # log(1 + sup c) = log(λ/(λ - μ))
        return _arb(self.loc), lam, mu, d, lam_d, (2 * (lam + mu)).log(), ceiling

    def _arb_correction(self, a):
        """``c(a) = (a/λ) φ(a d) = (1 - e^{-a d})/(λ d)``, with ``d = 1/μ - 1/λ``, so that the density is
        ``e^{-a/λ}/(2(λ + μ)) · (1 + c(a))``; ``a/λ`` at λ = μ. ``expm1`` keeps it relative as ``d → 0``, and no
        division by ``a`` leaves a removable singularity for ``acb.integral``."""
        _, lam, _, d, lam_d, _, _ = _constants(self)
        if self._big == self._small:
            return a / lam
        return -(-a * d).expm1() / lam_d

    def arb_logpdf(self, x, piece=None):
        loc, lam, _, _, _, log_norm, _ = _constants(self)
        z = x - loc
        a = _abs(z) if piece is None else _side(piece, self.loc) * z
        one_plus = 1 + self._arb_correction(a)
        log_factor = one_plus.log(analytic=True) if isinstance(one_plus, acb) else one_plus.log()
        return -a / lam - log_norm + log_factor

    def arb_dlogpdf(self, x, piece=None):
        loc, lam, _, d, _, _, _ = _constants(self)

        def slope(a):   # d/da log p = -1/λ + c'(a)/(1 + c(a)), c'(a) = e^{-a d}/λ
            return -1 / lam + (-a * d).exp() / (lam * (1 + self._arb_correction(a)))
        if piece is not None:
            side = _side(piece, self.loc)
            return side * slope(side * (x - loc))
        return _branches(x - loc, lambda z: -slope(-z), slope)

    def _arb_sf_right(self, z):
        """``P(X - loc > z)`` for ``z ≥ 0``: ``e^{-z/λ}/2 · (1 + μ z φ(z d)/(λ(λ + μ)))``."""
        _, lam, mu, _, _, _, _ = _constants(self)
        return (-z / lam).exp() / 2 * (1 + mu * self._arb_correction(z) / (lam + mu))

    def arb_sf(self, x):
        z = x - _constants(self)[0]
        return _branches(z, lambda z: 1 - self._arb_sf_right(-z), self._arb_sf_right)

    def arb_cdf(self, x):
        z = x - _constants(self)[0]
        return _branches(z, lambda z: self._arb_sf_right(-z), lambda z: 1 - self._arb_sf_right(z))

    def arb_envelope(self, side, start):
        loc, lam, _, _, _, log_norm, ceiling = _constants(self)
        a0 = _arb(start) - side * loc   # a = u - side·loc ≥ a0 ≥ 0 on the tail
        if a0 < 0:
            raise ValueError("a Lap2 tail envelope starts beyond the kink")
        # log p = -a/λ - log 2(λ+μ) + log(1 + c(a)), c increasing from c(a0).
        base = side * loc / lam - log_norm
        low = (1 + self._arb_correction(a0)).log()
        if ceiling is None:
            # c(a) = a/λ; log(1 + a/λ) lies below its tangent at a0 (concavity).
            slope = 1 / (lam + a0)
            upper = (arb(0), -1 / lam + slope, base + low - slope * (side * loc + a0))
        else:
            upper = (arb(0), -1 / lam, base + ceiling)   # c(a) < μ/(λ - μ)
        return [upper], (arb(0), -1 / lam, base + low)

    def arb_log_split(self, piece):
        """The Laplace part ``-a/λ - log 2(λ + μ)`` (linear on each side of the kink) and ``log(1 + c(a))``,
        which lies in ``[0, log(λ/(λ - μ))]``.

        >>> ((a, b, c), rest) = Lap2(0, 1, 2).arb_log_split(mpmath.mpf(-1))
        >>> x = arb(-3)
        >>> print((b * x + c + rest(x)).overlaps(Lap2(0, 1, 2).arb_logpdf(x)), (b * x + c + rest(x)).rad() < 1e-13)
        True True
        """
        loc, lam, _, d, lam_d, log_norm, _ = _constants(self)
        side = _side(piece, self.loc)
        equal = self._big == self._small

        def remainder(x):   # log(1 + c(a)) as in _arb_correction, its constants bound once (it runs per node)
            a = side * (x - loc)
            one_plus = 1 + (a / lam if equal else -(-a * d).expm1() / lam_d)
            return one_plus.log(analytic=True) if isinstance(one_plus, acb) else one_plus.log()
        return (arb(0), -side / lam, side * loc / lam - log_norm), remainder

    def tail(self):
        return Tail("exponential", self._big, 1 if self.scale1 == self.scale2 else 0)

    def expansion(self, side):
        s, lam, mu = mpmath.mpf(side), self._big, self._small
        if lam == mu:   # e^{-a/λ}(λ + a)/(4λ²): a power of u
            return TailExpansion(mpmath.mpf(0), -1 / lam, mpmath.mpf(1), s * self.loc / lam - mpmath.log(4 * lam**2))
        # e^{-a/λ}/(2(λ+μ)) · (1 + μ/(λ-μ)) + (terms in e^{-a/μ})
        return TailExpansion(mpmath.mpf(0), -1 / lam, mpmath.mpf(0),
                             s * self.loc / lam - mpmath.log(2 * (lam + mu)) + mpmath.log(lam / (lam - mu)))

    def scales(self):
        return [self._big, self._small]

    def arb_dlogpdf_bounds(self):
        """``±1/λ``: on each side of the kink ``d/da log p = -1/λ + e^{-ad}/(λ(1 + c(a)))`` (:meth:`arb_dlogpdf`)
        with ``0 < e^{-ad} ≤ 1 ≤ 1 + c(a)``, so it lies in ``(-1/λ, 0]``."""
        lam = _constants(self)[1]
        return -1 / lam, 1 / lam

    def log_concave(self):
        return True   # Lap(0, λ1) * Lap(0, λ2): a convolution of log-concave densities (Prékopa's theorem)


@dataclass(frozen=True, init=False)
class Mixture(ContinuousDistribution):
    """(1 - q)·P + q·Q, e.g. the Poisson-subsampled Gaussian mechanism's output law."""

    q: mpmath.mpf
    first: ContinuousDistribution
    second: ContinuousDistribution

    def __init__(self, q, first, second):
        qv = to_mpf(q, "mixture weight q")
        if not (0 <= qv <= 1):
            raise InvalidDistribution(f"mixture weight q must lie in [0, 1], got {mpmath.nstr(qv, 10)}")
        for d in (first, second):
            if not isinstance(d, ContinuousDistribution):
                raise InvalidDistribution("mix(q, P, Q) needs two continuous distributions")
        object.__setattr__(self, "q", qv)
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)

    def logpdf(self, x):
        if self.q == 0:
            return self.first.logpdf(x)
        if self.q == 1:
            return self.second.logpdf(x)
        a = mpmath.log1p(-self.q) + self.first.logpdf(x)
        b = mpmath.log(self.q) + self.second.logpdf(x)
        top = max(a, b)
        return top + mpmath.log(mpmath.exp(a - top) + mpmath.exp(b - top))

    def cdf(self, x):
        return (1 - self.q) * self.first.cdf(x) + self.q * self.second.cdf(x)

    def sf(self, x):
        return (1 - self.q) * self.first.sf(x) + self.q * self.second.sf(x)

    def kinks(self):
        return tuple(sorted(set(self.first.kinks()) | set(self.second.kinks())))

    def _arb_constants(self):
        q = _arb(self.q)
        return 1 - q, q, (1 - q).log(), q.log()

    def _arb_weights(self):
        return _constants(self)[2:]

    def arb_logpdf(self, x, piece=None):
        if self.q == 0:
            return self.first.arb_logpdf(x, piece)
        if self.q == 1:
            return self.second.arb_logpdf(x, piece)
        w1, w2 = self._arb_weights()
        return _logaddexp(w1 + self.first.arb_logpdf(x, piece), w2 + self.second.arb_logpdf(x, piece),
                          analytic=True)

    def arb_dlogpdf(self, x, piece=None):
        if self.q in (0, 1):
            return (self.first if self.q == 0 else self.second).arb_dlogpdf(x, piece)
        # σ l1' + (1 - σ) l2', σ = w1 p1/p the first component's share.
        w1, w2 = self._arb_weights()
        a, b = w1 + self.first.arb_logpdf(x, piece), w2 + self.second.arb_logpdf(x, piece)
        share = (a - _logaddexp(a, b)).exp()
        share = share.intersection(arb(0).union(arb(1))) if share.overlaps(arb(0).union(arb(1))) else share
        d1, d2 = self.first.arb_dlogpdf(x, piece), self.second.arb_dlogpdf(x, piece)
        return d2 + share * (d1 - d2)

    def arb_cdf(self, x):
        p, q, _, _ = _constants(self)
        return p * self.first.arb_cdf(x) + q * self.second.arb_cdf(x)

    def arb_sf(self, x):
        p, q, _, _ = _constants(self)
        return p * self.first.arb_sf(x) + q * self.second.arb_sf(x)

    def arb_envelope(self, side, start):
        # p = w1 p1 + w2 p2: the sum of the components' upper envelopes, and above the heavier weighted lower one.
        _, _, log_p, log_q = _constants(self)
        parts = [(w, d.arb_envelope(side, start)) for w, d, keep in
                 ((log_p, self.first, self.q < 1), (log_q, self.second, self.q > 0)) if keep]
        uppers = [(A, B, C + w) for w, (ups, _) in parts for A, B, C in ups]
        lowers = [(A, B, C + w) for w, (_, (A, B, C)) in parts]
        return uppers, min(lowers, key=lambda e: (e[0].mid(), -e[1].mid()))

    def arb_gaussian_sum(self):
        """The components' sums, their log weights raised by ``log(1 - q)`` and ``log q``.

        >>> terms = Mixture(0.25, Gaussian(0, 1), Gaussian(1, 1).shifted(1)).arb_gaussian_sum()
        >>> [(float(w.exp().mid()), float(m.mid())) for w, m, _ in terms]
        [(0.75, 0.0), (0.25, 2.0)]
        """
        parts = [(w, d.arb_gaussian_sum()) for w, d, keep in
                 ((2, self.first, self.q < 1), (3, self.second, self.q > 0)) if keep]
        if any(terms is None for _, terms in parts):
            return None
        if len(parts) == 1:
            return parts[0][1]
        weights = _constants(self)
        return [(weights[w] + lw, m, s) for w, terms in parts for lw, m, s in terms]

    def arb_log_quadratic(self, piece):
        if self.q in (0, 1):
            return (self.first if self.q == 0 else self.second).arb_log_quadratic(piece)
        return None   # a log-sum of two quadratics

    def arb_log_split(self, piece):
        if self.q in (0, 1):
            return (self.first if self.q == 0 else self.second).arb_log_split(piece)
        return None

    def center(self):
        return (1 - self.q) * self.first.center() + self.q * self.second.center()

    def scale(self):
        spread = abs(self.first.center() - self.second.center())
        return max(self.first.scale(), self.second.scale(), spread)

    def tail(self):
        # The heavier tail dominates.
        t1, t2 = self.first.tail(), self.second.tail()
        if self.q == 0:
            return t1
        if self.q == 1:
            return t2
        if t1.kind != t2.kind:
            return t1 if t1.kind == "exponential" else t2
        return max(t1, t2, key=lambda t: (t.param, t.power))

    def anchors(self):
        return self.first.anchors() + self.second.anchors()

    def scales(self):
        return self.first.scales() + self.second.scales()

    def expansion(self, side):
        first, second = self.first.expansion(side), self.second.expansion(side)
        first = TailExpansion(first.quad, first.lin, first.power, first.const + mpmath.log1p(-self.q))
        second = TailExpansion(second.quad, second.lin, second.power, second.const + mpmath.log(self.q))
        key1 = (-first.quad, first.lin, first.power)
        key2 = (-second.quad, second.lin, second.power)
        if any(mpmath.isnan(k) for k in key1 + key2):
            return TailExpansion.unknown()
        if key1 != key2:   # the heavier component dominates
            return first if key1 > key2 else second
        const = max(first.const, second.const) + mpmath.log1p(mpmath.exp(-abs(first.const - second.const)))
        return TailExpansion(first.quad, first.lin, first.power, const)

    def canonical(self):
        if self.q == 0:
            return self.first.canonical()
        if self.q == 1:
            return self.second.canonical()
        first, second = self.first.canonical(), self.second.canonical()
        if first == second:
            return first   # a mixture of one law with itself is that law
        with _keeping(self.q):
            return Mixture(self.q, first, second)

    def _moved(self, by):
        # Each component moves (exactly), so that ball arithmetic never adds a large shift to a point near the
        # components' own centres.
        with _keeping(self.q):
            return Mixture(self.q, self.first._moved(by), self.second._moved(by))

    def arb_dlogpdf_bounds(self):
        # (log p)' = σ (log p1)' + (1 - σ) (log p2)' with σ ∈ [0, 1] the first component's share: a convex
        # combination, within the hull of both components' bounds.
        parts = [d.arb_dlogpdf_bounds() for d, keep in ((self.first, self.q < 1), (self.second, self.q > 0)) if keep]
        if any(part is None for part in parts):
            return None
        return parts[0] if len(parts) == 1 else (parts[0][0].union(parts[1][0]), parts[0][1].union(parts[1][1]))


@dataclass(frozen=True)
class Shifted(ContinuousDistribution):
    """The law of X + shift."""

    base: ContinuousDistribution
    shift: mpmath.mpf

    def logpdf(self, x):
        return self.base.logpdf(mpmath.mpf(x) - self.shift)

    def cdf(self, x):
        return self.base.cdf(mpmath.mpf(x) - self.shift)

    def sf(self, x):
        return self.base.sf(mpmath.mpf(x) - self.shift)

    def kinks(self):
        return tuple(k + self.shift for k in self.base.kinks())

    def _arb_constants(self):
        return (_arb(self.shift),)

    def arb_logpdf(self, x, piece=None):
        return self.base.arb_logpdf(x - _constants(self)[0], None if piece is None else piece - self.shift)

    def arb_dlogpdf(self, x, piece=None):
        return self.base.arb_dlogpdf(x - _constants(self)[0], None if piece is None else piece - self.shift)

    def arb_cdf(self, x):
        return self.base.arb_cdf(x - _constants(self)[0])

    def arb_sf(self, x):
        return self.base.arb_sf(x - _constants(self)[0])

    def arb_envelope(self, side, start):
        # In u' = u - e, e = side·shift: -A(u - e)² + B(u - e) + C.
        e = side * _constants(self)[0]
        ups, low = self.base.arb_envelope(side, start - side * self.shift)

        def moved(A, B, C):
            return A, B + 2 * A * e, C - A * _sqr(e) - B * e
        return [moved(*u) for u in ups], moved(*low)

    def arb_gaussian_sum(self):
        terms = self.base.arb_gaussian_sum()
        shift = _constants(self)[0]
        return None if terms is None else [(lw, m + shift, s) for lw, m, s in terms]

    def arb_log_split(self, piece):
        split = self.base.arb_log_split(piece - self.shift)
        if split is None:
            return None
        (a, b, c), rest = split
        t = _constants(self)[0]
        moved = (a, b - 2 * a * t, a * t * t - b * t + c)   # a (x - t)² + b (x - t) + c in powers of x
        return moved, None if rest is None else (lambda x: rest(x - t))

    def arb_log_quadratic(self, piece):
        # a (x - t)² + b (x - t) + c in powers of x.
        coefficients = self.base.arb_log_quadratic(piece - self.shift)
        if coefficients is None:
            return None
        (a, b, c), t = coefficients, _constants(self)[0]
        return a, b - 2 * a * t, a * t * t - b * t + c

    def center(self):
        return self.base.center() + self.shift

    def scale(self):
        return self.base.scale()

    def tail(self):
        return self.base.tail()

    def anchors(self):
        return [(c + self.shift, s, k) for c, s, k in self.base.anchors()]

    def scales(self):
        return self.base.scales()

    def expansion(self, side):
        # log p(x) = base(x - d); with u' = u - s d, expand -A u'² + B u' + C in u.
        s, b, d = mpmath.mpf(side), self.base.expansion(side), self.shift
        return TailExpansion(b.quad, 2 * b.quad * s * d + b.lin, b.power, -b.quad * d**2 - b.lin * s * d + b.const)

    def canonical(self):
        return self.base.canonical()._moved(self.shift)

    def _moved(self, by):
        return Shifted(self.base, _exact_sum(self.shift, by))

    def located(self):
        shape, location = self.base.located()
        return shape, _exact_sum(location, self.shift)

    def arb_dlogpdf_bounds(self):
        return self.base.arb_dlogpdf_bounds()

    def log_concave(self):
        return self.base.log_concave()


def canonical(D: ContinuousDistribution) -> ContinuousDistribution:
    """The same law in its simplest form: shifts folded into Gaussian/Laplace/Lap2 locations (exactly, every bit
    of the sum kept) and into mixtures' components, nested shifts merged, mixtures with weight 0 or 1, or of a law
    with itself, replaced by their component. Closed forms are recognised on this form.

    >>> canonical(Gaussian(0, 1).shifted(2))
    Gaussian(mean=mpf('2.0'), sd=mpf('1.0'))
    """
    return D.canonical()
