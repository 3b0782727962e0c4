"""Continuous one-dimensional distributions with mpmath densities.

Each family knows where its density is not smooth (:meth:`ContinuousDistribution.kinks`), where its mass sits
(:meth:`center`, :meth:`scale`), and how its log-density behaves in the tails (:meth:`tail`), so that the divergence
engine can split quadrature at every kink, crossing point and peak, and compute suprema that are only reached at ±∞.

Densities are evaluated in log space; Lap2's density uses a form without cancellation for any λ1, λ2 (including
λ1 = λ2, eq. (6)'s second branch, and λ1 ≈ λ2).

>>> from symdp.engine.continuous import Lap2
>>> with mpmath.workdps(30):      # reference: catalogue-balle.md, balle19.eq6 (mpmath convolution integral)
...     print(mpmath.nstr(Lap2(0, 1, 2).pdf(mpmath.mpf('0.7')), 18))
0.152131812607669559
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

import functools

import mpmath
from flint import acb, arb, ctx

from symdp.engine import closed_forms as cf
from symdp.errors import InvalidDistribution
from symdp.numeric import arb_erfc, ncdf, to_mpf


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


def _constants(dist: "ContinuousDistribution") -> tuple:
    """The family's parameters and derived constants as Arb balls at flint's current precision, computed once per
    (law, precision): converting an mpf costs as much as a dozen ball operations."""
    return _constants_at(dist, ctx.prec)


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


@dataclass(frozen=True, init=False)
class Gaussian(ContinuousDistribution):
    """N(mean, sd²)."""

    mean: mpmath.mpf
    sd: mpmath.mpf

    def __init__(self, mean, sd):
        object.__setattr__(self, "mean", _real(mean, "Gaussian mean"))
        object.__setattr__(self, "sd", _positive(sd, "Gaussian standard deviation"))

    def logpdf(self, x):
        z = (mpmath.mpf(x) - self.mean) / self.sd
        return -z * z / 2 - mpmath.log(self.sd) - mpmath.log(2 * mpmath.pi) / 2

    def cdf(self, x):
        return ncdf(x, self.mean, self.sd)

    def sf(self, x):
        return ncdf(-mpmath.mpf(x), -self.mean, self.sd)

    def center(self):
        return self.mean

    def scale(self):
        return self.sd

    def _arb_constants(self):
        m, s = _arb(self.mean), _arb(self.sd)
        return m, s, (s * (2 * arb.pi()).sqrt()).log(), s * arb(2).sqrt()

    def arb_logpdf(self, x, piece=None):
        m, s, log_norm, _ = _constants(self)
        return -_sqr((x - m) / s) / 2 - log_norm

    def arb_dlogpdf(self, x, piece=None):
        m, s, _, _ = _constants(self)
        return -(x - m) / (s * s)

    def arb_cdf(self, x):
        m, _, _, s_root2 = _constants(self)
        return arb_erfc((m - x) / s_root2) / 2

    def arb_sf(self, x):
        m, _, _, s_root2 = _constants(self)
        return arb_erfc((x - m) / s_root2) / 2

    def arb_envelope(self, side, start):
        # Exact: -(u - side·m)²/(2 s²) - log(s √(2π)).
        m, s, log_norm, _ = _constants(self)
        m, v = side * m, s * s
        exponent = (1 / (2 * v), m / v, -(m * m) / (2 * v) - log_norm)
        return [exponent], exponent

    def arb_gaussian_sum(self):
        m, s, _, _ = _constants(self)
        return [(arb(0), m, s)]

    def arb_log_quadratic(self, piece):
        m, s, log_norm, _ = _constants(self)
        v = s * s
        return -1 / (2 * v), m / v, -m * m / (2 * v) - log_norm

    def tail(self):
        return Tail("gaussian", self.sd)

    def expansion(self, side):
        s, v = mpmath.mpf(side), self.sd**2
        return TailExpansion(1 / (2 * v), s * self.mean / v, mpmath.mpf(0),
                             -self.mean**2 / (2 * v) - mpmath.log(self.sd * mpmath.sqrt(2 * mpmath.pi)))

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
        if s1 == s2 and kind == "hockey_stick":
            return lambda: cf.gaussian_hockey_stick.ball(m1 - m2, s1, args[0])
        if s1 == s2 and kind == "tv":
            return lambda: cf.gaussian_tv.ball(m1 - m2, s1)
        return None

    def crossings(self, other, level):
        """Roots of the quadratic ``log p - log q - level = A x² + B x + C``."""
        if not isinstance(other, Gaussian):
            return None
        v1, v2 = self.sd**2, other.sd**2
        A = 1 / (2 * v2) - 1 / (2 * v1)
        B = self.mean / v1 - other.mean / v2
        C = mpmath.log(other.sd / self.sd) - self.mean**2 / (2 * v1) + other.mean**2 / (2 * v2) - level
        if A == 0:
            return [] if B == 0 else [-C / B]
        disc = B * B - 4 * A * C
        if disc < 0:
            return []
        # The stable form: no cancellation between -B and the square root.
        q = -(B + (1 if B >= 0 else -1) * mpmath.sqrt(disc)) / 2
        roots = {q / A} | ({C / q} if q != 0 else set())
        return sorted(roots)

    def _moved(self, by):
        mean = _exact_sum(self.mean, by)
        with _keeping(mean, self.sd):
            return Gaussian(mean, self.sd)

    def located(self):
        with _keeping(self.sd):   # the shape is this very law moved, whatever the working precision
            return Gaussian(0, self.sd), self.mean

    def log_concave(self):
        return True   # log p is a concave quadratic


@dataclass(frozen=True, init=False)
class Laplace(ContinuousDistribution):
    """Lap(loc, scale): density exp(-|x - loc|/scale) / (2 scale)."""

    loc: mpmath.mpf
    b: mpmath.mpf

    def __init__(self, loc, scale):
        object.__setattr__(self, "loc", _real(loc, "Laplace location"))
        object.__setattr__(self, "b", _positive(scale, "Laplace scale"))

    def logpdf(self, x):
        return -abs(mpmath.mpf(x) - self.loc) / self.b - mpmath.log(2 * self.b)

    def cdf(self, x):
        z = (mpmath.mpf(x) - self.loc) / self.b
        return mpmath.exp(z) / 2 if z <= 0 else 1 - mpmath.exp(-z) / 2

    def sf(self, x):
        z = (mpmath.mpf(x) - self.loc) / self.b
        return mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2

    def kinks(self):
        return (self.loc,)

    def center(self):
        return self.loc

    def scale(self):
        return self.b

    def _arb_constants(self):
        b = _arb(self.b)
        return _arb(self.loc), b, (2 * b).log()

    def arb_logpdf(self, x, piece=None):
        loc, b, log_norm = _constants(self)
        z = x - loc
        a = _abs(z) if piece is None else _side(piece, self.loc) * z
        return -a / b - log_norm

    def arb_dlogpdf(self, x, piece=None):
        loc, b, _ = _constants(self)
        if piece is not None:
            return -_side(piece, self.loc) / b
        return _branches(x - loc, lambda z: 1 / b, lambda z: -1 / b)

    def arb_cdf(self, x):
        loc, b, _ = _constants(self)
        return _branches((x - loc) / b, lambda z: z.exp() / 2, lambda z: 1 - (-z).exp() / 2)

    def arb_sf(self, x):
        loc, b, _ = _constants(self)
        return _branches((x - loc) / b, lambda z: 1 - z.exp() / 2, lambda z: (-z).exp() / 2)

    def arb_envelope(self, side, start):
        if start < side * self.loc:
            raise ValueError("a Laplace tail envelope starts beyond the kink")
        loc, b, log_norm = _constants(self)   # exact on the tail: -(u - side·loc)/b - log 2b
        exponent = (arb(0), -1 / b, side * loc / b - log_norm)
        return [exponent], exponent

    def arb_log_quadratic(self, piece):
        loc, b, log_norm = _constants(self)   # -side (x - loc)/b - log 2b on the side of the kink holding the piece
        side = _side(piece, self.loc)
        return arb(0), -side / b, side * loc / b - log_norm

    def tail(self):
        return Tail("exponential", self.b)

    def expansion(self, side):
        return TailExpansion(mpmath.mpf(0), -1 / self.b, mpmath.mpf(0),
                             mpmath.mpf(side) * self.loc / self.b - mpmath.log(2 * self.b))

    def closed_form(self, kind, other, *args):
        if not (isinstance(other, Laplace) and other.b == self.b):
            return None
        d, lam = self.loc - other.loc, self.b
        table = {
            "kl": lambda: cf.laplace_kl.ball(d, lam),
            "renyi": lambda: cf.laplace_renyi.ball(d, lam, args[0]),
            "hockey_stick": lambda: cf.laplace_hockey_stick.ball(d, lam, args[0]),
            "tv": lambda: cf.laplace_tv.ball(d, lam),
            "max_divergence": lambda: cf.laplace_max_divergence.ball(d, lam),
        }
        return table[kind]

    def crossings(self, other, level):
        """The log-ratio is linear between and beyond the two kinks: one linear equation per piece."""
        if not isinstance(other, Laplace):
            return None
        k1, k2 = sorted((self.loc, other.loc))
        s = max(self.b, other.b)
        pieces = [(-mpmath.inf, k1, k1 - 2 * s, k1 - s), (k2, mpmath.inf, k2 + s, k2 + 2 * s)]
        if k1 < k2:
            pieces.append((k1, k2, k1, k2))
        roots = set()
        for lo, hi, x1, x2 in pieces:
            g1 = self.logpdf(x1) - other.logpdf(x1) - level
            g2 = self.logpdf(x2) - other.logpdf(x2) - level
            if g1 == g2:   # constant on this piece: no isolated crossing
                continue
            root = x1 - g1 * (x2 - x1) / (g2 - g1)
            if lo <= root <= hi:
                roots.add(root)
        return sorted(roots)

    def _moved(self, by):
        loc = _exact_sum(self.loc, by)
        with _keeping(loc, self.b):
            return Laplace(loc, self.b)

    def located(self):
        with _keeping(self.b):
            return Laplace(0, self.b), self.loc

    def arb_dlogpdf_bounds(self):
        b = _constants(self)[1]
        return -1 / b, 1 / b   # ±1/b on each side of the kink

    def log_concave(self):
        return True   # log p = -|x - loc|/b - log 2b is concave


def _phi(y):
    """(1 - e^{-y}) / y, continuous at y = 0 and free of cancellation."""
    return mpmath.mpf(1) if y == 0 else -mpmath.expm1(-y) / y


@dataclass(frozen=True, init=False)
class Lap2(ContinuousDistribution):
    """loc + Lap(0, λ1) + Lap(0, λ2): the iterated Laplace mechanism (Balle et al. 2019, Lemma 3, eq. (6)).

    With λ = max(λ1, λ2), μ = min(λ1, λ2), a = |x - loc| and d = 1/μ - 1/λ, eq. (6) (both branches) equals

        Lap2(x) = e^{-a/λ} / (2(λ + μ)) · (1 + (a/λ) · (1 - e^{-a d}) / (a d)),

    which has no cancellation as λ1 → λ2 and reduces to e^{-a/λ}(λ + a)/(4λ²) at λ1 = λ2.
    """

    loc: mpmath.mpf
    scale1: mpmath.mpf
    scale2: mpmath.mpf

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

    def kinks(self):
        return (self.loc,)

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

    def _moved(self, by):
        loc = _exact_sum(self.loc, by)
        with _keeping(loc, self.scale1, self.scale2):
            return Lap2(loc, self.scale1, self.scale2)

    def scales(self):
        return [self._big, self._small]

    def located(self):
        with _keeping(self._big, self._small):
            return Lap2(0, self._big, self._small), self.loc

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
