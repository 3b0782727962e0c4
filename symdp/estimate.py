"""A number with an error estimate.

Every numeric value symdp computes carries an honest error estimate: the absolute error bound that a verdict compares
against the margin. Exact finite sums get the rounding error; quadrature gets the disagreement between two working
precisions and two breakpoint sets. A *certified* estimate is an enclosure: ball arithmetic (python-flint's Arb)
proves that the true value lies in ``[value - error, value + error]``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Callable, Iterable, Iterator

import mpmath
from flint import arb, ctx, fmpq, fmpz
from mpmath.libmp import (from_man_exp, mpf_abs, mpf_add, mpf_pos, mpf_sub, round_ceiling, round_floor, round_nearest,
                          round_up)

from symdp.errors import InvalidParameter


class Method(StrEnum):
    """How a number was obtained: the provenance an estimate carries, and what a verdict's evidence is read from.

    The members are ordered from the weakest evidence to the strongest (:func:`weakest`): a value that rests on a
    closed form of a divergence is a formula, whatever else went into it.

    >>> Method("certified") is Method.CERTIFIED, str(Method.CLOSED_FORM)
    (True, 'closed form')
    >>> weakest([Method.EXACT, Method.QUADRATURE, Method.CERTIFIED])
    'quadrature'
    """

    CLOSED_FORM = "closed form"
    """A textbook formula of the divergence (:mod:`symdp.engine.closed_forms`), its arithmetic in Arb."""
    BINNED = "binned lower bound"
    """A finite divergence of the laws' images under a partition: a certified lower bound (data processing)."""
    SEARCH = "sup search"
    """A supremum or a root found by a numeric search (a privacy loss's sup, a subgaussian standard)."""
    QUADRATURE = "quadrature"
    """mpmath quadrature of densities, split at kinks and crossings; the error is estimated, not proved."""
    DENSITIES = "densities"
    """Integrated from the densities by whichever non-closed-form route applies (certified, else quadrature)."""
    CERTIFIED = "certified"
    """A certified enclosure of an integral of the densities (Arb ball arithmetic)."""
    EXACT = "exact"
    """A finite formula or sum at the working precision (finite laws: a certified ball sum)."""

    def __repr__(self) -> str:
        return repr(self.value)


def weakest(methods: Iterable[Method]) -> Method:
    """The weakest provenance of several (in :class:`Method`'s order); ``exact`` for none."""
    order = list(Method)
    return min((Method(m) for m in methods), key=order.index, default=Method.EXACT)


@dataclass(frozen=True)
class Estimate:
    """``value`` with absolute error at most ``error`` (to the best of the method's knowledge).

    ``value`` may be ``+inf`` (e.g. a divergence between distributions with mismatched supports), in which case
    ``error`` is 0.
    """

    value: mpmath.mpf
    error: mpmath.mpf
    method: Method = Method.EXACT
    scale: mpmath.mpf | None = None
    """The size of what the value was computed from, where it is a difference that cancels (a residual that should
    be 0 on the scale of its terms); ``None`` means ``|value|``. Verdicts call two sides equal relative to it."""
    certified: bool = False
    """Whether ``[value - error, value + error]`` provably contains the true value (ball arithmetic), rather than
    ``error`` being an estimate of the error."""

    def __post_init__(self):
        if type(self.method) is not Method:   # a label given as text must name a Method: provenance is typed
            try:
                object.__setattr__(self, "method", Method(self.method))
            except ValueError:
                raise InvalidParameter(f"an estimate's method is one of {', '.join(map(repr, Method))} "
                                       f"(symdp.estimate.Method), got {self.method!r}") from None

    @property
    def size(self) -> mpmath.mpf:
        """``max(|value|, scale)``: what "to working precision" is relative to."""
        v = abs(self.value) if mpmath.isfinite(self.value) else mpmath.inf
        return v if self.scale is None else max(v, abs(self.scale))

    def __float__(self) -> float:
        return float(self.value)

    def is_infinite(self) -> bool:
        return mpmath.isinf(self.value)

    @staticmethod
    def exact(value, method: Method = Method.EXACT) -> "Estimate":
        """A value computed by a finite formula: its error is a few units in the last place, *relative* to the value.

        Cancellation inside the formula is not seen here; the verifier sees it as the change between two working
        precisions.
        """
        value = mpmath.mpf(value)
        if mpmath.isinf(value):
            return Estimate(value, mpmath.mpf(0), method)
        return Estimate(value, 16 * abs(value) * mpmath.mpf(10) ** (-mpmath.mp.dps), method)

    @staticmethod
    def from_arb(ball, method: Method) -> "Estimate":
        """The certified estimate enclosing an Arb ball (``flint.arb``), rounded outward to mpmath's precision.

        >>> from flint import arb
        >>> e = Estimate.from_arb(arb(2).sqrt(), "exact")
        >>> e.certified, e.value - e.error <= mpmath.sqrt(2) <= e.value + e.error
        (True, True)
        """
        if not ball.is_finite():
            if ball.is_exact() and not ball.is_nan():   # an exact infinity (a divergent integral, decided)
                return Estimate(mpmath.inf if ball > 0 else -mpmath.inf, mpmath.mpf(0), method, certified=True)
            centre = mpf_of(ball.mid()) if ball.mid().is_finite() else mpmath.mpf(0)
            return Estimate(centre, mpmath.inf, method)   # an unbounded ball or NaN: nothing is known
        # the midpoint rounded to the working precision; the rounding, computed exactly, is added to the radius
        # (mpmath's own primitives: the exact ones without a precision, the rounded ones at the working precision)
        mid, prec = _raw(ball.mid()), mpmath.mp.prec
        value = mpf_pos(mid, prec, round_nearest)
        error = mpf_add(_raw(ball.rad()), mpf_abs(mpf_sub(value, mid)), prec, round_up)
        return Estimate(mpmath.mp.make_mpf(value), mpmath.mp.make_mpf(error), method, certified=True)

    def ball(self):
        """The enclosure ``[value - error, value + error]`` as an Arb ball (``flint.arb``), both ends exact; for a
        certified estimate it provably contains the true value, so balls of several estimates combine rigorously.

        >>> Estimate(mpmath.mpf(1), mpmath.mpf(0.25), certified=True).ball()
        [1e+0 +/- 0.251]
        """
        return exact_ball(self.value) + arb(0, exact_ball(self.error))

    def scaled(self, factor) -> "Estimate":
        """``factor`` times the estimate, for an exact ``factor`` (an int, or an mpf taken as exact): certified stays
        certified, the product's rounding is added to the error.

        >>> e = Estimate(mpmath.mpf(1) / 3, mpmath.mpf(10) ** -30, certified=True).scaled(3)
        >>> e.certified, e.value - e.error <= 1 <= e.value + e.error
        (True, True)
        """
        return self.combine(lambda x: x * exact_ball(factor), self)

    def power(self, exponent: int) -> "Estimate":
        """The estimate to a non-negative integer power, as :meth:`scaled` (the MGF of a sum of independent copies).

        >>> Estimate(mpmath.mpf(2), mpmath.mpf(0), certified=True).power(10).value
        mpf('1024.0')
        """
        return self.combine(lambda x: x ** int(exponent), self)

    @staticmethod
    def combine(function: Callable, *estimates: "Estimate", method: Method | None = None) -> "Estimate":
        """``function`` of the estimates, evaluated on their balls (:meth:`ball`) in Arb at the working precision
        plus guard bits: certified where every input is, and otherwise an estimate whose error is that of the
        inputs propagated by interval arithmetic. The method is the inputs' weakest (:func:`weakest`) unless given.

        >>> a = Estimate(mpmath.mpf(2), mpmath.mpf(10) ** -20, "certified", certified=True)
        >>> b = Estimate(mpmath.mpf(3), mpmath.mpf(10) ** -20, "certified", certified=True)
        >>> c = Estimate.combine(lambda x, y: x * y, a, b)
        >>> c.value, c.certified, c.error < 1e-14
        (mpf('6.0'), True, True)
        """
        with arb_precision(mpmath.mp.prec + 20):
            ball = function(*(e.ball() for e in estimates))
        if method is None:
            method = weakest(e.method for e in estimates)
        result = Estimate.from_arb(ball, method)
        if not all(e.certified for e in estimates):
            result = Estimate(result.value, result.error, method)
        return result

    def clamped(self, low, high) -> "Estimate":
        """The estimate moved into the interval ``[low, high]`` in which the true value is known to lie (a
        divergence's domain; ``low`` and ``high`` are mpf or ±inf, and must be *proved* bounds, rounded outward).

        A certified enclosure is intersected with it, so it stays an enclosure and only narrows. Any other estimate
        keeps its value where that lies inside; otherwise the value moves to the nearer end and the error grows by
        the move, so that the new interval holds the whole old one. An enclosure that misses ``[low, high]``
        altogether (a divergence of numbers that are probabilities only to rounding: a finite law's KL of -1e-23
        at 20 digits) moves the same way, and still encloses all it enclosed.

        >>> e = Estimate(mpmath.mpf(-1) / 10**60, mpmath.mpf(1) / 10**50, certified=True).clamped(0, mpmath.inf)
        >>> e.certified, e.value - e.error >= 0, e.value + e.error >= mpmath.mpf(1) / 10**50 - mpmath.mpf(1) / 10**60
        (True, True, True)
        >>> Estimate(mpmath.mpf("1.5"), mpmath.mpf(0)).clamped(0, 1)
        Estimate(value=mpf('1.0'), error=mpf('0.5'), method='exact', scale=None, certified=False)
        """
        low, high = mpmath.mpf(low), mpmath.mpf(high)
        value, error = self.value, self.error
        if mpmath.isnan(value) or (low <= value <= high and not (self.certified and mpmath.isfinite(error) and (
                value - error < low or value + error > high))):
            return self
        if self.certified and mpmath.isfinite(value) and mpmath.isfinite(error):
            # The ends of the enclosure, exactly, then intersected: the midpoint and half-width of the result are
            # rounded outward so that it still contains the intersection.
            lo = max(mpmath.fsub(value, error, exact=True), low)
            hi = min(mpmath.fadd(value, error, exact=True), high)
            if lo <= hi:
                centre = +mpmath.fdiv(mpmath.fadd(lo, hi, exact=True), 2)
                with mpmath.workprec(mpmath.mp.prec):
                    reach = max(mpmath.fsub(hi, centre, rounding="u"), mpmath.fsub(centre, lo, rounding="u"))
                return Estimate(centre, reach, self.method, self.scale, True)
        moved = min(max(value, low), high)
        if not mpmath.isfinite(value):   # an infinite value outside: nothing is known
            return Estimate(moved, mpmath.inf, self.method, self.scale)
        with mpmath.workprec(mpmath.mp.prec):
            error = mpmath.fadd(error, abs(mpmath.fsub(moved, value, exact=True)), rounding="u")
        return Estimate(moved, error, self.method, self.scale, self.certified)

    def rounded(self) -> "Estimate":
        """The estimate at the current working precision, computed at a higher one: the rounding of the value is
        added to the error (rounded up), so a certified enclosure stays one.

        >>> with mpmath.workdps(60):
        ...     fine = Estimate(mpmath.pi, mpmath.mpf(10) ** -55, "exact", certified=True)
        >>> coarse = fine.rounded()
        >>> coarse.certified, coarse.value - coarse.error <= mpmath.pi <= coarse.value + coarse.error
        (True, True)
        """
        value = +self.value
        if not mpmath.isfinite(self.value):
            return Estimate(value, +self.error, self.method, self.scale, self.certified)
        slack = abs(mpmath.fsub(value, self.value, exact=True))
        error = mpmath.fadd(mpmath.fadd(self.error, slack, rounding="u"), abs(value) * mpmath.eps, rounding="u")
        scale = None if self.scale is None else +self.scale
        return Estimate(value, error, self.method, scale, self.certified)


def exact_ball(x):
    """A number as an Arb ball, exact where the number is (ints, binary floats — lambdify writes them as mpf tuples —,
    mpf: every bit of the mantissa, whatever flint's precision), else a ball around it (a decimal string, a rational
    such as 1/3 given as a ``Fraction`` or ``fmpq``).

    >>> exact_ball(mpmath.mpf(-2.5)), exact_ball(3), exact_ball(Fraction(1, 4))
    (-2.50000000000000, 3.00000000000000, 0.250000000000000)
    """
    if type(x) is mpmath.mpf:   # the hot path: zero, or a finite mantissa within flint's precision, converts exactly
        _, man, exp, bits = x._mpf_
        if bits <= ctx.prec and (man or not exp):
            return arb(x)
    elif isinstance(x, arb):
        return x
    if isinstance(x, Fraction):
        return arb(fmpq(x.numerator, x.denominator))
    if isinstance(x, tuple):
        x = mpmath.mpf(x)
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            return arb(str(x))
        sign, man, exp, _ = x._mpf_   # mpf.man_exp drops the sign
        if int(man).bit_length() <= ctx.prec:
            return arb(x)             # a mantissa within flint's precision converts without rounding (the hot path)
        man = -int(man) if sign else int(man)
        with arb_precision(max(ctx.prec, abs(man).bit_length() + 8)):   # every bit, whatever the caller's precision
            return arb(fmpq(man * 2 ** max(exp, 0), 2 ** max(-exp, 0)))
    return arb(x)


def exact_rational(x, what: str = "value"):
    """A number as the exact rational it is (python-flint's ``fmpq``): an int, ``Fraction`` or ``fmpq`` as itself, an
    mpf with every bit of its mantissa, anything else (a float, a string) as :func:`symdp.numeric.to_mpf` reads it
    (a float through its decimal) at the working precision — the binary number a witness computes with.

    >>> exact_rational(mpmath.mpf(-2.5)), exact_rational(Fraction(1, 3)), exact_rational(0.75)
    (-5/2, 1/3, 3/4)
    >>> from flint import fmpq
    >>> x = mpmath.mpf(2) ** -40 + 1
    >>> with mpmath.workprec(10):   # an mpf keeps every bit, whatever the working precision
    ...     print(exact_rational(x) == 1 + fmpq(1, 2 ** 40))
    True
    """
    if isinstance(x, Fraction):
        return fmpq(x.numerator, x.denominator)
    if isinstance(x, (fmpq, fmpz, int)) and not isinstance(x, bool):
        return fmpq(x)
    try:   # (symdp.numeric.to_mpf's reading, which imports this module: a float through its decimal)
        value = x if isinstance(x, mpmath.mpf) else mpmath.mpf(repr(x) if isinstance(x, float) else x)
    except (TypeError, ValueError):
        raise InvalidParameter(f"{what} {x!r} is not a number") from None
    if not mpmath.isfinite(value):
        raise InvalidParameter(f"{what} is {value}, not a finite number: it has no exact rational")
    sign, man, exp, _ = value._mpf_   # mpf.man_exp drops the sign
    man = -int(man) if sign else int(man)
    return fmpq(man << exp) if exp >= 0 else fmpq(man, 1 << -exp)


GUARD_BITS = 32
"""Bits beyond mpmath's working precision at which a witness computes its balls (:func:`in_balls`)."""


def in_balls(guard_bits: int = GUARD_BITS):
    """A block of ball arithmetic at mpmath's working precision plus ``guard_bits`` (flint's precision restored on
    exit): where a witness measures a quantity as a certified enclosure.

    >>> from flint import ctx
    >>> with mpmath.workprec(100), in_balls():
    ...     print(ctx.prec)
    132
    """
    return arb_precision(mpmath.mp.prec + guard_bits)


def enclosure(ball, method: Method = Method.EXACT, **fields) -> Estimate:
    """A ball, an exact rational, or a function computing a ball (called :func:`in_balls`) as the certified estimate
    enclosing it (:meth:`Estimate.from_arb`), with ``fields`` (``scale=``) set on it: what a witness returns for a
    quantity it measured in ball arithmetic.

    >>> e = enclosure(Fraction(1, 3), scale=1)
    >>> e.certified, e.value - e.error <= mpmath.mpf(1) / 3 <= e.value + e.error, e.scale
    (True, True, mpf('1.0'))
    >>> from flint import arb
    >>> enclosure(lambda: arb(2).sqrt(), Method.CERTIFIED).error < mpmath.mpf(10) ** -14
    True
    """
    if not isinstance(ball, arb):
        with in_balls():
            ball = ball() if callable(ball) else exact_ball(ball)
    result = Estimate.from_arb(ball, method)
    return replace(result, **{k: (mpmath.mpf(v) if k == "scale" and v is not None else v) for k, v in fields.items()}) \
        if fields else result


@contextlib.contextmanager
def arb_precision(bits: int) -> Iterator[None]:
    """Run a block with flint's working precision at ``bits``, restoring the caller's on exit.

    >>> from flint import ctx
    >>> with arb_precision(200):
    ...     print(ctx.prec)
    200
    """
    saved = ctx.prec
    ctx.prec = int(bits)
    try:
        yield
    finally:
        ctx.prec = saved


SHORT_BITS = 32
"""A ball this many bits short of the working precision, relative to itself, is sharp enough not to be recomputed
(the last digits of an integral's enclosure are often a few bits short; recomputing would double its cost)."""


def bits_short(ball, prec: int) -> int | None:
    """How many more bits would make ``ball`` sharp to ``2^-prec`` relative to its own size, or None if it is
    within :data:`SHORT_BITS` of that (or nothing more would help: an exact or unbounded ball). A ball around 0
    says nothing of the size of what it encloses; its radius, at least, is the resolution reached, and the next
    attempt doubles the digits beyond it.

    >>> from flint import arb
    >>> bits_short(arb(1, 2.0 ** -50), 100), bits_short(arb(0, 2.0 ** -100), 100), bits_short(arb(1, 2.0 ** -80), 100)
    (59, 108, None)
    """
    if not ball.is_finite() or ball.rad() == 0:
        return None
    size, radius = ball.abs_lower(), ball.rad()
    if size > 0:
        if radius <= size * arb(2) ** -(prec - SHORT_BITS):
            return None
        return max(16, int(mpmath.ceil(mpf_of(((radius / size).log() / arb(2).log()).mid()))) + prec + 8)
    return max(prec, int(mpmath.ceil(-mpf_of((radius.log() / arb(2).log()).mid()))) + 8)


def sharp_ball(compute: Callable, guard: int, boost: int):
    """``compute()`` (an Arb ball computed at flint's precision) at the working precision plus ``guard`` bits, then
    again with more bits while it is not sharp relative to its own size (:func:`bits_short`) and the extra bits
    still narrow it, up to ``boost`` more: a divergence of two laws 10^-200 scales apart is about 10^-400, and an
    absolute error at the working precision says nothing of its digits. mpmath runs at the same precision (less the
    guard), so that points computed there resolve what the balls do.

    >>> from flint import arb
    >>> with mpmath.workdps(30):    # z + e^{-z} - 1 at z = 10^-40: z²/2 to 30 digits, which 30 digits lose
    ...     z = mpmath.mpf(10) ** -40
    ...     ball = sharp_ball(lambda: exact_ball(z) + (-exact_ball(z)).expm1(), 24, 2048)
    >>> abs(mpf_of(ball.mid()) / (z * z / 2) - 1) < 1e-29
    True
    """
    prec = mpmath.mp.prec
    bits, most, previous = prec + guard, prec + guard + boost, None
    while True:
        with arb_precision(bits), mpmath.workprec(bits - guard):
            ball = compute()
        more = bits_short(ball, prec)
        if more is None or bits >= most or (previous is not None and not ball.rad() < previous * arb(2) ** -16):
            return ball   # sharp, out of bits, or the last bits did not help (a limit that is not the precision's)
        bits, previous = min(bits + more, most), ball.rad()


def mpf_of(x) -> mpmath.mpf:
    """An exact Arb midpoint or radius as an mpf, without rounding (mantissa and exponent carried over, by mpmath's
    exact normalisation: no precision switch, on the hot path of every enclosure).

    >>> from flint import arb
    >>> with mpmath.workprec(10):   # every bit of 1 + 2^-40, whatever the working precision
    ...     print(mpf_of((1 + arb(2) ** -40).mid()) - 1 == mpmath.mpf(2) ** -40)
    True
    """
    return mpmath.mp.make_mpf(_raw(x))


def _raw(x, prec: int | None = None, rounding=round_nearest) -> tuple:
    """An exact Arb number as mpmath's raw tuple: exactly, or rounded once to ``prec`` bits in the direction
    ``rounding``."""
    man, exp = x.man_exp()
    if prec is None:   # (exactly: mpmath's GMP backend takes no precision for that, not None)
        return from_man_exp(int(man), int(exp))
    return from_man_exp(int(man), int(exp), prec, rounding)


def mpf_nearest(x) -> mpmath.mpf:
    """An exact Arb number (a midpoint) rounded once to the nearest mpf of the working precision: ``+mpf_of(x)``,
    without the exact copy between (a precision switch per call, on hot paths such as a density at each node).

    >>> from flint import arb
    >>> with mpmath.workprec(10):
    ...     print(repr(mpf_nearest(arb("0.1").mid())))
    mpf('0.099976')
    """
    return _rounded(x, round_nearest)


def mpf_down(x) -> mpmath.mpf:
    """An exact Arb number (an end of a ball, as ``arb.lower()`` gives it) as the largest mpf of the working
    precision not above it.

    >>> from flint import arb
    >>> tenth = arb("0.1")                    # a ball around 1/10 at flint's 53 bits
    >>> with mpmath.workprec(10):              # 1/10 to 10 bits is 0.0999755859375 below, 0.10009765625 above
    ...     print(repr(mpf_down(tenth.lower())), repr(mpf_up(tenth.upper())))
    ...     print(repr(mpf_down((-tenth).lower())), repr(mpf_up((-tenth).upper())))   # outward for negatives too
    mpf('0.099976') mpf('0.1001')
    mpf('-0.1001') mpf('-0.099976')
    """
    return _rounded(x, round_floor)


def mpf_up(x) -> mpmath.mpf:
    """An exact Arb number as the smallest mpf of the working precision not below it (see :func:`mpf_down`)."""
    return _rounded(x, round_ceiling)


def _rounded(x, rounding) -> mpmath.mpf:
    """An exact Arb number rounded once, in the direction ``rounding``, to the working precision."""
    return mpmath.mp.make_mpf(_raw(x, mpmath.mp.prec, rounding))


def as_estimate(x) -> Estimate:
    """An :class:`Estimate` from an Estimate, an mpf, or a plain number (taken as exact at working precision)."""
    if isinstance(x, Estimate):
        return x
    return Estimate.exact(x)
