"""Laws on the integers: the output laws of discrete mechanisms, as an engine object with its own rule.

An :class:`IntegerLaw` is a finite law that knows where it lives: its probabilities on the integers ``low, low + 1,
..., high``. Two integer laws are compared on the union of their windows, so a shifted mechanism's outputs need no
common indexing by hand, and every quantity of finite laws (exact sums in ball arithmetic) applies.

The discrete mechanisms come in two forms. Given a window, :func:`discrete_gaussian` (the discrete Gaussian of
Canonne, Kamath and Steinke) and :func:`discrete_laplace` are restricted to the window and normalised there, as the
catalogue's generator (iv) is: a finite law, nothing outside. Without a window they are the laws on all of ℤ: the
window is chosen from the working precision so that the mass outside it is below ``10^-(dps + 10)``, its masses are
the law's masses on ℤ (normalised by a certified total, as Arb balls rounded once), and the law carries ``tail``, a
certified upper bound on the mass it leaves out, and its :class:`Shape` (log-weight ``-a (x - loc)² - c |x - loc|``),
from which any quantity's contribution beyond a window is bounded. :func:`divergence_on_Z` computes every quantity
of finite laws between two such laws with that contribution inside its error: nothing is truncated silently.
A :func:`mixture` of laws on ℤ (a subsampled discrete mechanism) has no shape but keeps its weighted parts: its
masses and tail beyond any window are theirs, and every quantity's contribution there is bounded from the parts'
shapes (Jensen's and the AM-GM inequalities on the atoms, see "beyond the window of a mixture" below), so KL, Rényi of
any order, the max divergence and the loss MGF of mixtures are certified too; only a law given by a bare tail bound is
refused what needs more than its tail. :func:`randomized_response` is k-ary randomized
response, a law on ``{0, ..., k - 1}``; :func:`loss_lattice` gives
the privacy-loss law of a pair whose losses lie on a lattice (discrete Laplaces of one scale, discrete Gaussians of
one standard deviation, randomized response), for exact composition.

>>> import mpmath
>>> from symdp.engine.divergences import divergence
>>> with mpmath.workdps(30):      # KL of N_Z(1, 1) against N_Z(0, 1): Δ²/(2σ²) = 1/2 (the cut tails < 1e-190)
...     P, Q = discrete_gaussian(1, 1, -29, 30), discrete_gaussian(0, 1, -30, 30)
...     print(mpmath.nstr(divergence("kl", P, Q).value, 20))
0.5
>>> divergence("kl", discrete_gaussian(1, 1, -29, 31), Q).value    # P has mass at 31, where Q has none
mpf('+inf')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import mpmath
from flint import arb, fmpq

from symdp.engine import finite
from symdp.engine.domains import within_domain
from symdp.engine.finite import FiniteDistribution
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, arb_precision, exact_ball, exact_rational, mpf_nearest, mpf_of, mpf_up
from symdp.numeric import to_mpf

TAIL_DIGITS = 10
"""A law on ℤ leaves out of its window less than ``10^-(dps + TAIL_DIGITS)`` of its mass."""

OUTSIDE_DIGITS = 5
"""A quantity's contribution from beyond the compared window is bounded below ``10^-(dps + OUTSIDE_DIGITS)``
(the window is widened until it is, where the bound is finite and the window can grow)."""

MAX_ATOMS = 400_000
"""The widest window symdp lays a law on ℤ on (a discrete Gaussian of sd σ needs about 35 σ atoms at 50 digits)."""

GUARD_BITS = 32


def _bits() -> int:
    return mpmath.mp.prec + GUARD_BITS


def _up_to(bound: arb) -> arb:
    """A ball holding ``[0, bound]`` (``bound`` a non-negative ball, taken at its upper end)."""
    return arb(0).union(bound.upper())


def _integer(x, what: str) -> int:
    """``x`` as an int, if it is a number equal to an integer; else InvalidParameter naming ``what`` and ``x``."""
    if isinstance(x, bool):
        raise InvalidParameter(f"{what} must be an integer, got {x}")
    if isinstance(x, int):
        return x
    try:
        value = to_mpf(x, what)
    except InvalidParameter:
        raise InvalidParameter(f"{what} must be an integer, got {x!r}") from None
    if not (mpmath.isfinite(value) and mpmath.isint(value)):
        raise InvalidParameter(f"{what} must be an integer, got {x}")
    return int(value)


# --- the shape of a law on ℤ --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Quadratic:
    """``h(j) = j2 j² + j1 j + j0`` on ``j = 0, 1, 2, ...``: a log-mass (or a combination of log-masses) along one
    side beyond a window. ``j2`` and ``j1`` are exact rationals, so every sign decision below is exact; ``j0`` is a
    ball."""

    j2: fmpq
    j1: fmpq
    j0: arb

    def combined(self, weight: fmpq, other: "_Quadratic", other_weight: fmpq) -> "_Quadratic":
        """``weight h + other_weight h'``."""
        return _Quadratic(weight * self.j2 + other_weight * other.j2, weight * self.j1 + other_weight * other.j1,
                          arb(weight) * self.j0 + arb(other_weight) * other.j0)

    def at(self, j: int) -> arb:
        return arb(self.j2 * j * j + self.j1 * j) + self.j0

    def exp_sum(self) -> arb | None:
        """A certified upper bound on ``Σ_{j≥0} e^{h(j)}``, or None when the sum diverges (``h`` does not tend to
        −∞). Decreasing from ``j = 0``: ``e^{h(0)}/(1 - e^{j1})`` (``j2 j² ≤ 0``); a peak beyond 0: the sum of a
        unimodal sequence is at most its integral plus its peak, ``e^{max h} (1 + √(π/|j2|))``."""
        if self.j2 > 0 or (self.j2 == 0 and self.j1 >= 0):
            return None
        if self.j1 < 0:
            return self.j0.exp() / -arb(self.j1).expm1()
        peak = self.j0 - arb(self.j1 * self.j1 / (4 * self.j2))
        return peak.exp() * (1 + (arb.pi() / arb(-self.j2)).sqrt())

    def supremum(self) -> arb | None:
        """``sup_{j≥0} h(j)`` (attained, as a ball), or None when it is +∞."""
        if self.j2 > 0 or (self.j2 == 0 and self.j1 > 0):
            return None
        if self.j2 == 0 or self.j1 <= 0:
            return self.j0
        vertex = -self.j1 / (2 * self.j2)
        below = int(vertex.floor())
        return self.at(below).max(self.at(below + 1))


@dataclass(frozen=True)
class Shape:
    """A law on ℤ with log-mass ``-quadratic (x - loc)² - linear |x - loc| - log Z``: the discrete Gaussian
    (``quadratic = 1/(2σ²)``) and the discrete Laplace (``linear = 1/b``). ``quadratic`` and ``linear`` are exact
    rationals (the parameters are binary numbers); ``log Z`` is a certified enclosure, kept as its midpoint and
    radius (mpf: Arb balls do not pickle)."""

    loc: int
    quadratic: fmpq
    linear: fmpq
    log_normaliser_mid: mpmath.mpf
    log_normaliser_rad: mpmath.mpf

    def log_normaliser(self) -> arb:
        return exact_ball(self.log_normaliser_mid) + arb(0, exact_ball(self.log_normaliser_rad))

    def log_weight(self, x: int) -> arb:
        d = abs(x - self.loc)
        return arb(-(self.quadratic * d * d + self.linear * d))

    def masses(self, low: int, high: int) -> tuple[mpmath.mpf, ...]:
        """The masses of ``low, ..., high``, each a ball ``exp(log w(x) - log Z)`` rounded once to mpf."""
        with arb_precision(_bits()):
            log_z = self.log_normaliser()
            cache: dict[int, mpmath.mpf] = {}
            for d in {abs(x - self.loc) for x in range(low, high + 1)}:
                cache[d] = mpf_nearest((self.log_weight(self.loc + d) - log_z).exp().mid())
            return tuple(cache[abs(x - self.loc)] for x in range(low, high + 1))

    def side(self, start: int, outward: int) -> _Quadratic:
        """The log-mass at ``start + outward j``, j ≥ 0, as a quadratic in j (``start`` on the ``outward`` side of
        ``loc``, or at it)."""
        d = outward * (start - self.loc)
        assert d >= 0, "a side starts beyond the location"
        a, c = self.quadratic, self.linear
        return _Quadratic(-a, -(2 * a * d + c), arb(-(a * d * d + c * d)) - self.log_normaliser())

    def sides(self, low: int, high: int) -> tuple[_Quadratic, _Quadratic]:
        """The log-mass beyond ``high`` and below ``low`` (a window holding ``loc``)."""
        return self.side(high + 1, 1), self.side(low - 1, -1)

    def tail(self, low: int, high: int) -> arb:
        """A certified upper bound on the mass outside ``[low, high]`` (a window holding ``loc``): each side's log-mass
        is concave, below its tangent at the first point beyond, a geometric series."""
        total = arb(0)
        for side in self.sides(low, high):
            total += _Quadratic(fmpq(0), side.j1, side.j0).exp_sum()
        return total


def _shape(loc: int, quadratic: fmpq, linear: fmpq) -> tuple[Shape, int]:
    """The shape with a certified normaliser, and the half-width R of a window ``loc ± R`` leaving out less than
    ``10^-(dps + TAIL_DIGITS)`` of the mass."""
    digits = mpmath.mp.dps + TAIL_DIGITS
    target = arb(10) ** -digits
    logs = digits * math.log(10)
    if quadratic > 0:
        reach = math.sqrt(logs / float(quadratic)) + 2
    else:
        reach = (logs - math.log(-math.expm1(-float(linear)))) / float(linear) + 2
    reach = int(math.ceil(reach))
    with arb_precision(_bits()):
        bare = Shape(loc, quadratic, linear, mpmath.mpf(0), mpmath.mpf(0))   # the weights: log Z = 0
        while not bare.tail(loc - reach, loc + reach) < target:   # Z ≥ 1 (the weight at loc): a mass tail bound
            reach = reach + reach // 4 + 1
        if 2 * reach + 1 > MAX_ATOMS:
            raise InvalidParameter(f"a law on ℤ this wide needs {2 * reach + 1} atoms at {mpmath.mp.dps} digits, "
                                   f"more than the {MAX_ATOMS} symdp lays out")
        if quadratic == 0:   # Σ_x e^{-c|x|} = (1 + e^{-c})/(1 - e^{-c}), exactly
            r = arb(-linear).exp()
            normaliser = (1 + r) / -arb(-linear).expm1()
        else:                # the window's sum, and the tails beyond it (each between 0 and its bound)
            inside = arb(1) + 2 * sum((bare.log_weight(loc + d).exp() for d in range(1, reach + 1)), arb(0))
            normaliser = inside + _up_to(bare.tail(loc - reach, loc + reach))
        log_z = normaliser.log()
        return Shape(loc, quadratic, linear, mpf_of(log_z.mid()), mpf_of(log_z.rad())), reach


# --- the law ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, init=False)
class IntegerLaw(FiniteDistribution):
    """Probabilities on the integers ``low, ..., low + len - 1`` (validated as a finite law's); a law on ℤ also has
    ``tail``, a certified upper bound on its mass outside the window (0 for a finite law), and its :class:`Shape`.

    >>> law = discrete_laplace(0, 1)
    >>> law.low < 0 < law.high, 0 < law.tail < mpmath.mpf(10) ** -mpmath.mp.dps
    (True, True)
    """

    low: int
    tail: mpmath.mpf = field(default=mpmath.mpf(0))
    shape: Shape | None = field(default=None, compare=False)
    parts: tuple[tuple[fmpq, "IntegerLaw"], ...] | None = field(default=None, compare=False)
    """A mixture of laws on ℤ: its components (shaped laws on ℤ, or finite laws) with their exact weights, summing
    to 1, from which its masses and log-masses beyond any window are known (None for any other law)."""

    def __init__(self, low, probs, tail=0, shape: Shape | None = None, parts=None):
        if int(low) != low:
            raise InvalidDistribution(f"an integer law starts at an integer, got {low}")
        super().__init__(probs)
        object.__setattr__(self, "low", int(low))
        object.__setattr__(self, "tail", mpmath.mpf(tail))
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "parts", parts)

    @classmethod
    def normalized(cls, low, weights) -> "IntegerLaw":
        """The law on ``low, low + 1, ...`` proportional to non-negative ``weights``."""
        return cls(low, FiniteDistribution.normalized(weights).probs)

    @property
    def high(self) -> int:
        return self.low + len(self) - 1

    def on(self, low: int, high: int) -> FiniteDistribution:
        """The probabilities on ``low, ..., high`` (a window holding this law's), as a finite law: zeros beyond a
        finite law's window, the law's own masses beyond a law on ℤ's."""
        if low > self.low or high < self.high:
            raise InvalidDistribution(f"the window [{low}, {high}] does not hold [{self.low}, {self.high}]")
        if self.shape is not None or self.parts is not None:
            return FiniteDistribution(self.widened(low, high).probs)
        if self.rationals is not None:   # (an exact law stays exact: its rationals, padded with exact zeros)
            zero = [fmpq(0)]
            return FiniteDistribution._of_rationals(zero * (self.low - low) + list(self.rationals)
                                                    + zero * (high - self.high))
        zeros = [mpmath.mpf(0)]
        return FiniteDistribution(zeros * (self.low - low) + list(self.probs) + zeros * (high - self.high))

    def widened(self, low: int, high: int) -> "IntegerLaw":
        """A law on ℤ laid on the wider window ``[low, high]`` (its masses there; its tail beyond it)."""
        if (self.shape is None and self.parts is None) or (low, high) == (self.low, self.high):
            return self
        if low > self.low or high < self.high:
            raise InvalidDistribution(f"the window [{low}, {high}] does not hold [{self.low}, {self.high}]")
        if high - low + 1 > MAX_ATOMS:
            raise InvalidParameter(f"a window of {high - low + 1} atoms is more than the {MAX_ATOMS} symdp lays out")
        left = self._masses(low, self.low - 1) if low < self.low else ()
        right = self._masses(self.high + 1, high) if high > self.high else ()
        with arb_precision(_bits()):
            tail = mpf_up(self.tail_beyond(low, high).upper())
        return IntegerLaw(low, left + self.probs + right, tail, self.shape, self.parts)

    def _masses(self, low: int, high: int) -> tuple[mpmath.mpf, ...]:
        """The masses of ``low, ..., high``, outside this law's window (a law on ℤ, or a mixture of them)."""
        if self.shape is not None:
            return self.shape.masses(low, high)
        total = [mpmath.mpf(0)] * (high - low + 1)
        for weight, part in self.parts:
            if part.shape is not None:   # a finite part has nothing outside the mixture's window
                w = mpmath.mpf(int(weight.p)) / int(weight.q)
                total = [t + w * m for t, m in zip(total, part.shape.masses(low, high))]
        return tuple(total)

    def tail_beyond(self, low: int, high: int) -> arb:
        """A certified upper bound on the mass outside ``[low, high]`` (a window holding this law's), as a ball: a
        law on ℤ's from its shape, a mixture's the mixture of its parts', any other law's its own ``tail``."""
        if self.shape is not None:
            return self.shape.tail(low, high)
        if self.parts is not None:
            return sum((arb(weight) * part.tail_beyond(low, high) for weight, part in self.parts), arb(0))
        return exact_ball(self.tail)


def _law_on_Z(loc, quadratic: fmpq, linear: fmpq) -> IntegerLaw:
    shape, reach = _shape(loc, quadratic, linear)
    low, high = loc - reach, loc + reach
    with arb_precision(_bits()):
        tail = mpf_up(shape.tail(low, high).upper())
    return IntegerLaw(low, shape.masses(low, high), tail, shape)


def mixture(q, P: IntegerLaw, Q: IntegerLaw) -> IntegerLaw:
    """The mixture (1 − q) P + q Q on the union of the windows, its tail the mixture of the tails beyond it. A
    mixture of laws on ℤ has no :class:`Shape` but keeps its ``parts`` (nested mixtures flattened, weights exact):
    its masses beyond any window are theirs, and its quantities are bounded beyond the window from their shapes
    (:func:`divergence_on_Z`).

    >>> M = mixture(0.5, IntegerLaw(0, [0.5, 0.5]), IntegerLaw(1, [0.25, 0.75]))
    >>> M.low, [float(p) for p in M], M.tail, M.parts
    (0, [0.25, 0.375, 0.375], mpf('0.0'), None)
    >>> M = mixture(0.5, discrete_laplace(0, 1), discrete_laplace(1, 1))
    >>> M.tail > 0, [str(w) for w, _ in M.parts]
    (True, ['1/2', '1/2'])
    """
    weight = to_mpf(q, "mixture weight q")
    if not 0 <= weight <= 1:
        raise InvalidDistribution(f"mixture weight q must lie in [0, 1], got {mpmath.nstr(weight, 10)}")
    low, high = min(P.low, Q.low), max(P.high, Q.high)
    A, B = P.on(low, high), Q.on(low, high)
    with arb_precision(_bits()):
        tails = [law.tail_beyond(low, high) for law in (P, Q)]
        tail = mpf_up(((1 - exact_ball(weight)) * tails[0] + exact_ball(weight) * tails[1]).upper())
    parts = None
    if P.tail > 0 or Q.tail > 0:   # a finite mixture needs no parts: nothing lies beyond its window
        w = exact_rational(weight)
        parts = tuple((share * part_share, part) for share, law in ((1 - w, P), (w, Q)) if share != 0
                      for part_share, part in (law.parts or ((fmpq(1), law),)))
        if any(part.shape is None and part.tail > 0 for _, part in parts):   # a part with a bare tail: shapeless
            parts = None
    return IntegerLaw(low, [(1 - weight) * a + weight * b for a, b in zip(A, B)], tail, parts=parts)


def aligned(P: IntegerLaw, Q: IntegerLaw) -> tuple[FiniteDistribution, FiniteDistribution]:
    """Two integer laws as finite laws on the union of their windows (a law on ℤ with its masses there).

    >>> [list(map(float, D)) for D in aligned(IntegerLaw(0, [0.5, 0.5]), IntegerLaw(1, [1]))]
    [[0.5, 0.5], [0.0, 1.0]]
    """
    low, high = min(P.low, Q.low), max(P.high, Q.high)
    return P.on(low, high), Q.on(low, high)


# --- the families -------------------------------------------------------------------------------------------------


def _window(loc, low, high, what: str) -> tuple[mpmath.mpf, int, int]:
    if low is None or high is None or int(low) != low or int(high) != high or high < low:
        raise InvalidParameter(f"the window of a {what} is two integers low <= high, got [{low}, {high}]")
    return to_mpf(loc, f"{what} location"), int(low), int(high)


def _scale(x, what: str) -> mpmath.mpf:
    value = to_mpf(x, what)
    if not (mpmath.isfinite(value) and value > 0):
        raise InvalidParameter(f"{what} must be a positive number, got {x}")
    return value


def discrete_gaussian(loc, sd, low: int | None = None, high: int | None = None) -> IntegerLaw:
    """N_ℤ(loc, sd²): P(x) ∝ exp(−(x − loc)²/(2 sd²)) (Canonne, Kamath and Steinke 2020). Without a window, the law
    on all of ℤ (``loc`` an integer), normalised on ℤ with certified tails; with ``low, high``, normalised on that
    window (any real ``loc``).

    >>> with mpmath.workdps(20):
    ...     print(mpmath.nstr(discrete_gaussian(0, 1, -1, 1).probs[1], 10))   # 1/(1 + 2 e^{-1/2})
    0.4518627619
    >>> with mpmath.workdps(20):      # on ℤ: 1/θ, θ = Σ_x e^{-x²/2} = √(2π) (1 + 2 e^{-2π²} + ...) (Poisson summation)
    ...     law = discrete_gaussian(0, 1)
    ...     print(mpmath.nstr(law.probs[-law.low], 15), law.tail < 1e-30)
    0.398942278266862 True
    """
    what = "the standard deviation of a discrete Gaussian"
    if low is None and high is None:
        centre = _integer(loc, "the location of a discrete Gaussian on ℤ")
        sd = _scale(sd, what)
        return _law_on_Z(centre, 1 / (2 * exact_rational(sd) ** 2), fmpq(0))
    centre, lo, hi = _window(loc, low, high, "discrete Gaussian")
    sd = _scale(sd, what)
    return IntegerLaw.normalized(lo, [mpmath.exp(-(x - centre) ** 2 / (2 * sd**2)) for x in range(lo, hi + 1)])


def discrete_laplace(loc, scale, low: int | None = None, high: int | None = None) -> IntegerLaw:
    """The discrete Laplace law: P(x) ∝ exp(−|x − loc|/scale). Without a window, the law on all of ℤ (``loc`` an
    integer), normalised exactly on ℤ (a geometric series); with ``low, high``, normalised on that window.

    >>> with mpmath.workdps(20):      # on [-1, 1]: 1/(1 + 2 e^{-1/b}) at the centre
    ...     print(mpmath.nstr(discrete_laplace(0, 1, -1, 1).probs[1], 10))
    0.5761168848
    >>> with mpmath.workdps(20):      # on ℤ: tanh(1/(2b)) at the centre
    ...     law = discrete_laplace(0, 1)
    ...     print(mpmath.nstr(law.probs[-law.low], 10), mpmath.nstr(mpmath.tanh(0.5), 10))
    0.4621171573 0.4621171573
    """
    what = "the scale of a discrete Laplace law"
    if low is None and high is None:
        centre = _integer(loc, "the location of a discrete Laplace law on ℤ")
        scale = _scale(scale, what)
        return _law_on_Z(centre, fmpq(0), 1 / exact_rational(scale))
    centre, lo, hi = _window(loc, low, high, "discrete Laplace law")
    scale = _scale(scale, what)
    return IntegerLaw.normalized(lo, [mpmath.exp(-abs(x - centre) / scale) for x in range(lo, hi + 1)])


def randomized_response(k, eps, i) -> IntegerLaw:
    """k-ary randomized response with true answer ``i``: on ``{0, ..., k - 1}``, probability e^ε/(e^ε + k − 1) at
    ``i`` and 1/(e^ε + k − 1) elsewhere (each a ball rounded once).

    >>> with mpmath.workdps(20):
    ...     print([mpmath.nstr(p, 10) for p in randomized_response(3, mpmath.log(2), 1)])   # 1/4, 1/2, 1/4
    ['0.25', '0.5', '0.25']
    >>> randomized_response(1, 1, 0)
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: randomized response needs k an integer >= 2 answers, got k = 1
    """
    try:
        size = _integer(k, "k")
    except InvalidParameter:
        size = None
    if size is None or size < 2:
        raise InvalidParameter(f"randomized response needs k an integer >= 2 answers, got k = {k}")
    e = to_mpf(eps, "the eps of randomized response")
    if not (mpmath.isfinite(e) and e >= 0):
        raise InvalidParameter(f"the eps of randomized response must be a finite number >= 0, got {eps}")
    try:
        answer = _integer(i, "i")
    except InvalidParameter:
        answer = None
    if answer is None or not 0 <= answer < size:
        raise InvalidParameter(f"the true answer i of randomized response lies in {{0, ..., {size - 1}}}, got i = {i}")
    with arb_precision(_bits()):
        weight = exact_ball(e).exp()
        total = weight + (size - 1)
        high, low = mpf_nearest((weight / total).mid()), mpf_nearest((1 / total).mid())
    return IntegerLaw(0, [high if x == answer else low for x in range(size)])


# --- divergences on ℤ ---------------------------------------------------------------------------------------------


_Part = tuple[fmpq, tuple[_Quadratic, _Quadratic]]
"""A weighted part of a law beyond a window: its weight and the log-mass of each side (:meth:`Shape.sides`)."""


@dataclass(frozen=True)
class _Beyond:
    """What two laws hold outside a window: each side's log-mass (None: nothing, a finite law, or a mixture) and tail
    bound, and each law as weighted parts (a law on ℤ is one part of weight 1, a mixture its shaped parts, a finite
    law none)."""

    p_sides: tuple[_Quadratic, _Quadratic] | None
    q_sides: tuple[_Quadratic, _Quadratic] | None
    p_tail: arb
    q_tail: arb
    shapeless: bool = False
    """Whether a law has mass beyond with no known shape (a bare tail bound): only its tail bound is known."""
    p_parts: tuple[_Part, ...] = ()
    q_parts: tuple[_Part, ...] = ()
    mixed: bool = False
    """Whether a law is a mixture of laws on ℤ: its quantities are then bounded beyond the window from the parts
    (:func:`_mixed_kl_beyond`, :func:`_mixed_power_sum`, :func:`_mixed_log_ratio_sup`), not from one shape."""

    @staticmethod
    def of(P: IntegerLaw, Q: IntegerLaw, low: int, high: int) -> "_Beyond":
        def sides(law):
            return None if law.shape is None else law.shape.sides(low, high)

        def parts(law) -> tuple[_Part, ...]:
            if law.shape is not None:
                return ((fmpq(1), law.shape.sides(low, high)),)
            return tuple((w, part.shape.sides(low, high)) for w, part in law.parts or () if part.shape is not None)

        # each tail is beyond [low, high], which holds the law's own window
        return _Beyond(sides(P), sides(Q), P.tail_beyond(low, high), Q.tail_beyond(low, high),
                       any(law.shape is None and law.parts is None and law.tail > 0 for law in (P, Q)),
                       parts(P), parts(Q), any(law.parts is not None for law in (P, Q)))

    def check(self) -> None:
        """Refuse a quantity that needs the log-masses beyond the window of a law that has none."""
        if self.shapeless:
            raise InvalidDistribution("a law on ℤ given by a bare tail bound (no shape, not a mixture of discrete "
                                      "Gaussians or Laplaces) has no certified bound beyond its window for this "
                                      "quantity; the hockey-stick divergence, TV and ε(δ) need only its tail")

    def pairs(self):
        return zip(self.p_sides, self.q_sides)

    def side(self, s: int) -> tuple[list[tuple[fmpq, _Quadratic]], list[tuple[fmpq, _Quadratic]]]:
        """The weighted log-masses of P's and Q's parts along side ``s`` (0 above the window, 1 below)."""
        return [(w, h[s]) for w, h in self.p_parts], [(w, g[s]) for w, g in self.q_parts]


_INFINITY = Estimate(mpmath.inf, mpmath.mpf(0), "exact", certified=True)


def _widened_by(estimate: Estimate, low: arb, high: arb, kind: str, eps=None) -> Estimate:
    """The certified ``estimate`` plus a quantity known to lie in ``[low, high]`` (balls), its scale kept."""
    ball = estimate.ball() + low.union(high)
    result = Estimate.from_arb(ball, estimate.method)
    result = Estimate(result.value, result.error, estimate.method, estimate.scale, estimate.certified)
    return within_domain(result, kind, eps)


# --- beyond the window of a mixture ---------------------------------------------------------------------------------
#
# Along one side beyond the window a mixture is p(j) = Σ_i w_i e^{h_i(j)}, its parts' exact log-masses h_i quadratic
# in j (concave) and its weights summing to 1 (a finite part is 0 there); a law on ℤ is the one part h of weight 1.
# Its sums beyond the window are bounded from three inequalities on each atom, none of which needs p's own shape:
#
#   above:  p ≤ max_i e^{h_i}                          (Σ w_i ≤ 1)
#           p^a ≤ Σ_i w_i e^{a h_i}            a ≥ 1    (Jensen: t^a is convex and the weights sum to 1)
#           p^a ≤ Σ_i w_i^a e^{a h_i}          0 < a < 1 (t^a is subadditive)
#   below:  p ≥ w_k e^{h_k}, for each part k, and p ≥ exp(Σ_i w_i h_i) when the shaped parts' weights sum to 1
#           (the weighted AM-GM inequality): each a quadratic L with log p ≥ L.
#
# For the subsampled mechanism these are sharp where it matters: against A, the mixture (1 - q) A + q B gives
# Σ p^α A^{1-α} ≤ (1 - q) Σ A + q Σ B^α A^{1-α}, a sum of quadratics' exponentials (one sd: B^α A^{1-α} has A's
# curvature); against the mixture, A's terms A^α q^{1-α} ≤ A (1 - q)^{1-α}, or the geometric-mean bound, A's tail times
# a factor.


def _scaled(h: _Quadratic, factor: fmpq, shift: arb | None = None) -> _Quadratic:
    """``factor h + shift``."""
    return _Quadratic(factor * h.j2, factor * h.j1, arb(factor) * h.j0 + (arb(0) if shift is None else shift))


def _log_lower_bounds(parts: list[tuple[fmpq, _Quadratic]]) -> list[_Quadratic]:
    """Quadratics L with log p ≥ L(j) at every j ≥ 0 beyond the window (``p = Σ w e^h``, nonempty ``parts``): each
    part's ``log w + h``, and the weighted mean ``Σ w h`` when the weights sum to 1 (weighted AM-GM)."""
    bounds = [_scaled(h, fmpq(1), arb(w).log()) for w, h in parts]
    if len(parts) > 1 and sum((w for w, _ in parts), fmpq(0)) == 1:
        bounds.append(_Quadratic(sum((w * h.j2 for w, h in parts), fmpq(0)), sum((w * h.j1 for w, h in parts), fmpq(0)),
                                 sum((arb(w) * h.j0 for w, h in parts), arb(0))))
    return bounds


def _power_terms(parts: list[tuple[fmpq, _Quadratic]], power: fmpq) -> list[tuple[arb, _Quadratic]]:
    """Terms (c, H) with ``p^power ≤ Σ c e^H`` (power > 0): Jensen's inequality for power ≥ 1, subadditivity below."""
    if power >= 1:
        return [(arb(w), _scaled(h, power)) for w, h in parts]
    return [((arb(power) * arb(w).log()).exp(), _scaled(h, power)) for w, h in parts]


def _sum_of(h: _Quadratic, other: _Quadratic) -> _Quadratic:
    return h.combined(fmpq(1), other, fmpq(1))


def _least(bounds) -> arb | None:
    """The bound of least upper end among ``bounds`` (None: no bound)."""
    best = None
    for bound in bounds:
        if bound is not None and (best is None or bound.upper() < best.upper()):
            best = bound
    return best


def _mixed_power_sum(beyond: _Beyond, a: fmpq, b: fmpq) -> arb | None:
    """An upper bound on ``Σ_beyond p^a q^b`` (a > 0) from the parts, None when none of the bounds above converges.

    p^a is bounded above by its :func:`_power_terms`; so is q^b when b > 0, while for b < 0 q^b ≤ e^{b L} for each
    lower bound L of log q (:func:`_log_lower_bounds`), the least of the resulting sums taken. Each term is then a
    quadratic's exponential, summed by :meth:`_Quadratic.exp_sum`."""
    total = arb(0)
    for s in (0, 1):
        ps, qs = beyond.side(s)
        if not ps:
            continue
        uppers = _power_terms(ps, a)
        if b == 0 or (b > 0 and not qs):
            others = [(arb(1), _Quadratic(fmpq(0), fmpq(0), arb(0)))] if b == 0 else []
        elif b > 0:
            others = _power_terms(qs, b)
        else:
            if not qs:   # p > 0 = q there
                return None
            candidates = []
            for low in _log_lower_bounds(qs):
                sums = [_sum_of(h, _scaled(low, b)).exp_sum() for _, h in uppers]
                candidates.append(None if None in sums else sum((c * e for (c, _), e in zip(uppers, sums)), arb(0)))
            side = _least(candidates)
            if side is None:
                return None
            total += side
            continue
        for c, h in uppers:
            for d, g in others:
                e = _sum_of(h, g).exp_sum()
                if e is None:
                    return None
                total += c * d * e
    return total


def _mixed_power_sum_diverges(beyond: _Beyond, a: fmpq, b: fmpq) -> bool:
    """Whether ``Σ_beyond p^a q^b`` (a > 0) is proved +∞: along some side, p^a q^b is at least w^a e^{a h} times
    e^{b g} for every part g of q (b < 0: q ≤ max_m e^{g_m}) or for one (b > 0: q ≥ v e^{g}), and its exponent does
    not tend to −∞ (exp_sum is None exactly then), so the terms do not tend to 0."""
    for s in (0, 1):
        ps, qs = beyond.side(s)
        if not ps:
            continue
        if not qs:
            if b < 0:
                return True
            continue
        for _, h in ps:
            grows = [_sum_of(_scaled(h, a), _scaled(g, b)).exp_sum() is None for _, g in qs]
            if all(grows) if b < 0 else any(grows):
                return True
    return False


def _mixed_kl_beyond(beyond: _Beyond) -> arb | None:
    """A bound on ``|Σ_beyond p log(p/q)|`` from the parts (P or Q a mixture), None when P has mass where Q has none
    (KL = +∞).

    On one side log p ≤ max_i h_i and log p ≥ L_p, log q ≤ max_m g_m and log q ≥ L_q, for any lower bounds L of
    :func:`_log_lower_bounds`; so |log(p/q)| ≤ max(max_i (h_i − L_q), max_m (g_m − L_p)) in absolute value, at most
    c2 j² + c1 j + c0 with c_n the largest |coefficient of j^n| among those differences. With p ≤ Σ_i w_i e^{h_i} ≤
    Σ_i w_i e^{h_i(0) + h_i'(0) j} (each h_i concave, below its tangent) the sum is Σ_i w_i e^{h_i(0)} Σ_n c_n
    Σ_j j^n r_i^j, r_i = e^{h_i'(0)}: the moments of :func:`_kl_beyond`. The least over the choices of L is kept."""
    total = arb(0)
    for s in (0, 1):
        ps, qs = beyond.side(s)
        if not ps:
            continue
        if not qs:
            return None
        candidates = []
        for low_p in _log_lower_bounds(ps):
            for low_q in _log_lower_bounds(qs):
                gaps = [h.combined(fmpq(1), low_q, fmpq(-1)) for _, h in ps]
                gaps += [g.combined(fmpq(1), low_p, fmpq(-1)) for _, g in qs]
                c2 = max(abs(f.j2) for f in gaps)
                c1 = max(abs(f.j1) for f in gaps)
                c0 = gaps[0].j0.abs_upper()
                for f in gaps[1:]:
                    c0 = c0.max(f.j0.abs_upper())
                bound = arb(0)
                for w, h in ps:
                    r, gap = arb(h.j1).exp(), -arb(h.j1).expm1()
                    bound += arb(w) * h.j0.exp() * (c0 / gap + arb(c1) * r / gap**2 + arb(c2) * r * (1 + r) / gap**3)
                candidates.append(bound)
        total += _least(candidates)
    return total


def _mixed_log_ratio_sup(beyond: _Beyond) -> tuple[arb | None, bool, bool]:
    """An upper bound on ``sup_beyond log(p/q)`` from the parts (P with mass beyond), whether it is attained (the
    supremum itself), and whether the supremum is proved +∞ when there is no bound.

    Where every part of both laws along a side has the same log-mass up to a constant (discrete Laplaces of one
    scale beyond all their locations), p/q is the constant Σ w e^{h(0)} / Σ v e^{g(0)} there: attained. Otherwise
    p/q ≤ Σ_i w_i e^{h_i − L} for a lower bound L of log q (:func:`_log_lower_bounds`), so the supremum is at most
    log Σ_i w_i e^{sup_j (h_i − L)(j)}, each an exact quadratic supremum (:meth:`_Quadratic.supremum`); the least
    over L is kept. It is +∞ when along a side Q has no mass, or some part's log w + h − g_m tends to +∞ for every
    part g_m of Q (log p ≥ log w + h, log q ≤ max_m g_m)."""
    top, attained = None, True
    for s in (0, 1):
        ps, qs = beyond.side(s)
        if not ps:
            continue
        if not qs:
            return None, False, True
        if len({(h.j2, h.j1) for _, h in ps + qs}) == 1:
            side = (sum((arb(w) * h.j0.exp() for w, h in ps), arb(0)).log()
                    - sum((arb(v) * g.j0.exp() for v, g in qs), arb(0)).log())
        else:
            candidates = []
            for low in _log_lower_bounds(qs):
                sups = [h.combined(fmpq(1), low, fmpq(-1)).supremum() for _, h in ps]
                if None not in sups:
                    candidates.append(sum((arb(w) * x.exp() for (w, _), x in zip(ps, sups)), arb(0)).log())
            side = _least(candidates)
            if side is None:
                proved = any(all(h.combined(fmpq(1), g, fmpq(-1)).supremum() is None for _, g in qs) for _, h in ps)
                return None, False, proved
            attained = False
        top = side if top is None else top.max(side)
    return top, attained, False


def _refused(quantity: str) -> InvalidDistribution:
    """Both laws' parts tail off so differently that neither the bounds nor the divergence proof apply (mixtures on
    both sides whose heaviest parts are not one part's bound): refused, not cut."""
    return InvalidDistribution(
        f"{quantity} of a pair with a mixture of laws on ℤ is refused: beyond the window no bound from the parts' "
        "shapes converges, nor is the sum proved infinite (parts of the two laws whose tails cross)")


def _kl_beyond(beyond: _Beyond) -> arb | None:
    """A bound on ``|Σ_beyond p log(p/q)|``: p ≤ e^{p0 + p1 j} (concave log-mass, below its tangent) and
    |log(p/q)| ≤ |f2| j² + |f1| j + |f0|, summed as Σ j^n r^n: 1/(1-r), r/(1-r)², r(1+r)/(1-r)³, r = e^{p1}.
    None when Q has nothing there (the KL is +∞)."""
    beyond.check()
    if beyond.mixed:
        return _mixed_kl_beyond(beyond)
    if beyond.p_sides is None:
        return arb(0)
    if beyond.q_sides is None:
        return None
    total = arb(0)
    for p, q in beyond.pairs():
        f = p.combined(fmpq(1), q, fmpq(-1))
        r, gap = arb(p.j1).exp(), -arb(p.j1).expm1()
        moments = (1 / gap, r / gap**2, r * (1 + r) / gap**3)
        total += p.j0.exp() * (f.j0.abs_upper() * moments[0] + abs(arb(f.j1)) * moments[1]
                               + abs(arb(f.j2)) * moments[2])
    return total


def _power_sum_beyond(beyond: _Beyond, p_power: fmpq, q_power: fmpq) -> arb | None:
    """A bound on ``Σ_beyond p^a q^b`` (a > 0), None when it diverges (or q vanishes there and b < 0); with a
    mixture, refused when it is neither bounded nor proved to diverge."""
    beyond.check()
    if beyond.mixed:
        bound = _mixed_power_sum(beyond, p_power, q_power)
        if bound is None and not _mixed_power_sum_diverges(beyond, p_power, q_power):
            raise _refused("Σ p^a q^b (the Rényi divergence or the loss MGF)")
        return bound
    if beyond.p_sides is None:
        return arb(0)
    if beyond.q_sides is None:
        if q_power < 0:
            return None
        return beyond.p_tail if q_power == 0 else arb(0)
    total = arb(0)
    for p, q in beyond.pairs():
        side = p.combined(p_power, q, q_power).exp_sum()
        if side is None:
            return None
        total += side
    return total


def _kl(P, Q, beyond: _Beyond) -> tuple[Estimate, arb]:
    estimate = finite.kl(P, Q)
    if estimate.is_infinite():
        return estimate, arb(0)
    bound = _kl_beyond(beyond)
    if bound is None:
        return _INFINITY, arb(0)
    return _widened_by(estimate, -bound, bound, "kl"), bound


def _renyi(P, Q, beyond: _Beyond, alpha) -> tuple[Estimate, arb]:
    order = to_mpf(alpha, "Rényi order alpha")
    if mpmath.isinf(order) and order > 0:
        return _max_divergence(P, Q, beyond)
    estimate = finite.renyi(P, Q, order)
    if estimate.is_infinite():
        return estimate, arb(0)
    a = exact_rational(order)
    bound = _power_sum_beyond(beyond, a, 1 - a)
    if bound is None:
        return _INFINITY, arb(0)
    # finite.renyi is log1p(S)/(α - 1), S = Σ_window p^α q^{1-α} - Σ_window p; on ℤ the sum gains the terms beyond
    # (in [0, bound]) and Σ_window p falls short of 1 by P's mass beyond (in [0, p_tail]).
    excess = arb(a - 1)
    inner = (excess * estimate.ball()).expm1() + (-beyond.p_tail).union(bound)
    result = Estimate.from_arb(inner.log1p() / excess, estimate.method)
    result = Estimate(result.value, result.error, estimate.method, estimate.scale, estimate.certified)
    return within_domain(result, "renyi"), bound + beyond.p_tail


def _max_divergence(P, Q, beyond: _Beyond) -> tuple[Estimate, arb]:
    estimate = finite.max_divergence(P, Q)
    beyond.check()
    if estimate.is_infinite():
        return estimate, arb(0)
    if beyond.mixed:   # an upper bound beyond the window, not an attained supremum: the window's value to it
        if not beyond.p_parts:
            return estimate, arb(0)
        top, attained, infinite = _mixed_log_ratio_sup(beyond)
        if top is None:
            if infinite:
                return _INFINITY, arb(0)
            raise _refused("the max divergence")
        ball = estimate.ball()
        result = Estimate.from_arb(ball.max(top) if attained else ball.union(ball.max(top)), estimate.method)
        return within_domain(result, "max_divergence"), arb(0)
    if beyond.p_sides is None:
        return estimate, arb(0)
    if beyond.q_sides is None:
        return _INFINITY, arb(0)
    ball = estimate.ball()
    for p, q in beyond.pairs():
        top = p.combined(fmpq(1), q, fmpq(-1)).supremum()
        if top is None:
            return _INFINITY, arb(0)
        ball = ball.max(top)
    result = Estimate.from_arb(ball, estimate.method)
    return within_domain(result, "max_divergence"), arb(0)


def _approximate_max_divergence(P, Q, beyond: _Beyond, delta) -> tuple[Estimate, arb]:
    # δ(ε) on ℤ is the window's plus P's mass beyond it at most: ε(δ) lies between the window's ε(δ) and its
    # ε(δ - tail) (or the max divergence, which ε(0) is, when δ < tail).
    lower = finite.approximate_max_divergence(P, Q, delta)
    tail = mpf_up(beyond.p_tail.upper())
    if tail == 0:
        return lower, arb(0)
    level = mpmath.fsub(to_mpf(delta, "delta"), tail, rounding="f")
    if level >= 0:
        upper = finite.approximate_max_divergence(P, Q, level)
    elif beyond.shapeless:   # δ below a shapeless tail: no upper bound known
        upper = Estimate(mpmath.inf, mpmath.mpf(0), lower.method)
    else:
        try:
            upper = _max_divergence(P, Q, beyond)[0]
        except InvalidDistribution:   # a mixture whose max divergence is neither bounded nor proved infinite
            upper = Estimate(mpmath.inf, mpmath.mpf(0), lower.method)
    if lower.value == upper.value and lower.error == upper.error == 0:   # both exact infinities, or equal
        return lower, arb(0)
    if not (mpmath.isfinite(lower.value) and mpmath.isfinite(upper.value)):
        centre = lower.value if mpmath.isfinite(lower.value) else upper.value
        return Estimate(centre if mpmath.isfinite(centre) else mpmath.mpf(0), mpmath.inf, lower.method), arb(0)
    ball = lower.ball().union(upper.ball())
    result = Estimate.from_arb(ball, lower.method)
    return Estimate(result.value, result.error, lower.method, lower.scale, True), arb(0)


def _hockey_stick(P, Q, beyond: _Beyond, eps) -> tuple[Estimate, arb]:
    e = to_mpf(eps)
    outside = arb(0) if _below_beyond(beyond, e) else beyond.p_tail
    return _widened_by(finite.hockey_stick(P, Q, eps), arb(0), outside, "hockey_stick", e), arb(0)


def _below_beyond(beyond: _Beyond, eps) -> bool:
    """Whether every term (p_j − e^ε q_j)_+ beyond the window is proved 0: the log-ratio's supremum on each side
    (exact rationals but for the normalisers, :meth:`_Quadratic.supremum`) is at most ε. Then the terms beyond add
    exactly nothing to δ(ε), not P's tail (the discrete Laplace's loss is constant beyond its locations: at an ε
    above it, δ(ε) is an exact 0)."""
    if beyond.mixed and beyond.p_parts and mpmath.isfinite(eps):   # a mixture: the log-ratio's upper bound
        top = _mixed_log_ratio_sup(beyond)[0]
        return top is not None and top <= exact_ball(eps)
    if beyond.shapeless or beyond.p_sides is None or beyond.q_sides is None or not mpmath.isfinite(eps):
        return False
    for p, q in beyond.pairs():
        top = p.combined(fmpq(1), q, fmpq(-1)).supremum()
        if top is None or not top <= exact_ball(eps):
            return False
    return True


def _tv(P, Q, beyond: _Beyond) -> tuple[Estimate, arb]:
    return _widened_by(finite.tv(P, Q), arb(0), (beyond.p_tail + beyond.q_tail) / 2, "tv"), arb(0)


def _loss_mgf(P, Q, beyond: _Beyond, lam, centred: bool = False) -> tuple[Estimate, arb]:
    slope = to_mpf(lam, "lambda")
    moment = finite.loss_mgf(P, Q, slope)
    if moment.is_infinite():
        return moment, arb(0)
    if not mpmath.isfinite(slope):
        raise InvalidParameter(f"lambda must be a finite number, got {slope}")
    s = exact_rational(slope)
    bound = _power_sum_beyond(beyond, 1 + s, -s)
    if bound is None:
        return _INFINITY, arb(0)
    ball = moment.ball() + arb(0).union(bound)
    if centred:
        kl = _kl(P, Q, beyond)[0]
        if kl.is_infinite():
            raise InvalidParameter("the privacy loss is +inf with positive probability: its mean is infinite, so "
                                   "the centred MGF is undefined")
        ball *= (-exact_ball(slope) * kl.ball()).exp()
    result = Estimate.from_arb(ball, moment.method)
    return Estimate(result.value, result.error, moment.method, moment.scale, moment.certified), bound


_ON_Z: dict[Callable, Callable] = {
    finite.kl: _kl, finite.renyi: _renyi, finite.max_divergence: _max_divergence,
    finite.approximate_max_divergence: _approximate_max_divergence, finite.hockey_stick: _hockey_stick,
    finite.tv: _tv, finite.loss_mgf: _loss_mgf}
"""Each quantity of finite laws, computed on a window with its contribution from beyond the window bounded."""


def divergence_on_Z(function: Callable, P: IntegerLaw, Q: IntegerLaw, *args, **options) -> Estimate:
    """``function`` (a quantity of :mod:`symdp.engine.finite`: kl, renyi, max_divergence, approximate_max_divergence,
    hockey_stick, tv, loss_mgf) of two laws on the integers, certified on all of ℤ.

    The two laws are laid on the union of their windows (a law on ℤ with its own masses there, a finite law with
    zeros), the finite quantity is summed there exactly, and the contribution of the integers beyond is bounded from
    the laws' shapes and added to the error: P's tail for the hockey-stick divergence and ε(δ), both tails for TV,
    geometric bounds of the log-ratio's terms for KL, Rényi and the loss MGF (the window is widened until they are
    below ``10^-(dps + 5)``), and the exact supremum of the log-ratio's quadratic beyond the window for the max
    divergence; with a mixture, the same from its parts' shapes (:func:`_mixed_power_sum`, :func:`_mixed_kl_beyond`,
    :func:`_mixed_log_ratio_sup`). Two finite laws are compared exactly as before.

    >>> with mpmath.workdps(30):      # KL of N_Z(1, 1) against N_Z(0, 1) on ℤ: Δ²/(2σ²) = 1/2
    ...     e = divergence_on_Z(finite.kl, discrete_gaussian(1, 1), discrete_gaussian(0, 1))
    ...     print(mpmath.nstr(e.value, 20), e.certified, e.error < 1e-30)
    0.5 True True
    >>> with mpmath.workdps(30):      # the discrete Laplace mechanism with shift 2 and scale 1/2 is 4-DP, exactly
    ...     e = divergence_on_Z(finite.max_divergence, discrete_laplace(2, 0.5), discrete_laplace(0, 0.5))
    ...     print(mpmath.nstr(e.value, 20), e.error < 1e-28)
    4.0 True
    """
    handler = _ON_Z.get(function)
    if handler is None:
        raise InvalidParameter(f"{getattr(function, '__name__', function)} is not a quantity of laws on the integers")
    for law in (P, Q):
        if not isinstance(law, IntegerLaw):
            raise InvalidDistribution(f"a law on the integers is an IntegerLaw, got a {type(law).__name__}")
    low, high = min(P.low, Q.low), max(P.high, Q.high)
    if P.tail == 0 and Q.tail == 0:   # two finite laws: the finite sum is the whole answer
        return function(P.on(low, high), Q.on(low, high), *args, **options)
    target = arb(10) ** -(mpmath.mp.dps + OUTSIDE_DIGITS)
    while True:
        with arb_precision(_bits() + (high - low + 1).bit_length()):
            estimate, beyond_bound = handler(P.on(low, high), Q.on(low, high), _Beyond.of(P, Q, low, high),
                                             *args, **options)
            size = abs(estimate.value) if mpmath.isfinite(estimate.value) else mpmath.mpf(1)
            settled = beyond_bound < target * exact_ball(max(size, mpmath.mpf(1)))   # relative to a large value
        reach = max(high - low + 1, 8)
        growable = any(law.shape is not None or law.parts is not None for law in (P, Q))
        if settled or 3 * reach > MAX_ATOMS or not growable:
            return estimate
        low, high = low - reach, high + reach


# --- the privacy-loss lattice -------------------------------------------------------------------------------------

MAX_LATTICE = 1_000_000
"""The most loss values :func:`loss_lattice` lists."""


@dataclass(frozen=True)
class LossLattice:
    """The privacy loss L = log(P(x)/Q(x)) of a pair of laws on ℤ whose losses lie on a lattice: the P- and
    Q-masses of the loss values ``origin + j step``, j = 0, 1, ..., as Arb balls, for exact composition (the
    composed loss law is a power of the polynomial Σ_j p_j z^j).

    ``p_infinite`` is P's mass where Q = 0 (loss +∞), ``q_infinite`` Q's mass where P = 0 (loss −∞); ``p_tail`` and
    ``q_tail`` bound the masses left out of the listed values (beyond the window of a discrete Gaussian pair), 0 when
    nothing is left out. ``origin`` and ``step`` are rounded to the working precision; the masses are balls.
    """

    origin: mpmath.mpf
    step: mpmath.mpf
    p: tuple[arb, ...]
    q: tuple[arb, ...]
    p_infinite: arb
    q_infinite: arb
    p_tail: arb
    q_tail: arb

    def value(self, j: int) -> mpmath.mpf:
        """The loss value of index ``j``."""
        return self.origin + j * self.step


def loss_lattice(P: IntegerLaw, Q: IntegerLaw) -> LossLattice:
    """The privacy-loss lattice of the pair (P, Q) of laws on the integers (:class:`LossLattice`).

    Discrete Laplaces of one scale b on ℤ: the loss takes the values |Δ|/b · {−1, ..., 1} in steps of 2/b, with
    geometric-series masses (exact balls); discrete Gaussians of one sd on ℤ: the loss is linear in x, on a lattice of
    step |Δ|/sd², listed over a window leaving out less than 10^-(dps + 10) of either mass (bounded in ``p_tail``,
    ``q_tail``); finite laws (randomized response, laws on a window) whose log-ratios are integer multiples of a
    common step, up to the working precision: their finitely many values. Any other pair (two scales, a Gaussian
    against a Laplace) is an InvalidDistribution.

    >>> with mpmath.workdps(20):      # shift 2, scale 1: losses -2, 0, 2; P-masses e^{-2}/(1+e^{-1}), ..., 1/(1+e^{-1})
    ...     lattice = loss_lattice(discrete_laplace(2, 1), discrete_laplace(0, 1))
    ...     print(lattice.origin, lattice.step, [mpmath.nstr(mpf_of(p.mid()), 6) for p in lattice.p])
    -2.0 2.0 ['0.098938', '0.170003', '0.731059']
    >>> with mpmath.workdps(20):      # randomized response, k = 3, true answers 0 and 1: losses -ε, 0, ε
    ...     lattice = loss_lattice(randomized_response(3, 1, 0), randomized_response(3, 1, 1))
    ...     print(mpmath.nstr(lattice.origin, 10), mpmath.nstr(lattice.step, 10), len(lattice.p))
    -1.0 1.0 3
    """
    for law in (P, Q):
        if not isinstance(law, IntegerLaw):
            raise InvalidDistribution(f"a privacy-loss lattice is of laws on the integers, got a {type(law).__name__}")
        if law.tail > 0 and law.shape is None:
            raise InvalidDistribution("a law on ℤ whose mass beyond its window has no known shape (a mixture of laws "
                                      "on ℤ?) has no certified privacy-loss lattice")
    with arb_precision(_bits()):
        if P.shape is not None and Q.shape is not None:
            return _shaped_lattice(P, Q)
        return _finite_lattice(P, Q)


def _not_a_lattice(P: IntegerLaw, Q: IntegerLaw, why: str) -> InvalidDistribution:
    return InvalidDistribution(f"the privacy loss of this pair of laws on ℤ is not on a lattice ({why}); symdp lists "
                               "lattice losses only: discrete Laplaces of one scale, discrete Gaussians of one sd, "
                               "finite laws with commensurate log-ratios")


def _shaped_lattice(P: IntegerLaw, Q: IntegerLaw) -> LossLattice:
    p, q = P.shape, Q.shape
    if (p.quadratic == 0) != (q.quadratic == 0) or (p.linear == 0) != (q.linear == 0):
        raise _not_a_lattice(P, Q, "a discrete Gaussian against a discrete Laplace")
    if p.quadratic != q.quadratic or p.linear != q.linear:
        raise _not_a_lattice(P, Q, "two different scales")
    shift = p.loc - q.loc
    zero = arb(0)
    if shift == 0:   # the same law: loss 0 with mass 1
        return LossLattice(mpmath.mpf(0), mpmath.mpf(1), (arb(1),), (arb(1),), zero, zero, zero, zero)
    if p.quadratic == 0:
        return _laplace_lattice(p, q)
    # Gaussians: L(x) = a Δ (2x − loc_P − loc_Q), increasing in x when Δ > 0; the normalisers are equal and cancel.
    low, high = min(P.low, Q.low), max(P.high, Q.high)
    points = range(low, high + 1) if shift > 0 else range(high, low - 1, -1)
    a = p.quadratic
    origin = mpf_of(arb(a * shift * (2 * points[0] - p.loc - q.loc)).mid())
    step = mpf_of(arb(2 * a * abs(shift)).mid())
    masses = [(( p.log_weight(x) - p.log_normaliser()).exp(), (q.log_weight(x) - q.log_normaliser()).exp())
              for x in points]
    return LossLattice(+origin, +step, tuple(m[0] for m in masses), tuple(m[1] for m in masses), zero, zero,
                       p.tail(low, high), q.tail(low, high))


def _laplace_lattice(p: Shape, q: Shape) -> LossLattice:
    """Discrete Laplaces of one scale b (c = 1/b): L(x) = c (|x − loc_Q| − |x − loc_P|), −cΔ below both locations,
    cΔ above both, stepping by 2c between; masses r^d/(1 + r) for the two half-lines (Σ r^{d+j} (1 − r)/(1 + r)) and
    r^d (1 − r)/(1 + r) for the points between, r = e^{−c}."""
    c, shift = p.linear, p.loc - q.loc
    count = abs(shift)
    first, last = min(p.loc, q.loc), max(p.loc, q.loc)
    r = arb(-c).exp()
    one_minus = -arb(-c).expm1()
    p_masses, q_masses = [arb(0)] * (count + 1), [arb(0)] * (count + 1)

    def index(x: int) -> int:
        return (abs(x - q.loc) - abs(x - p.loc) + count) // 2

    for law, masses in ((p, p_masses), (q, q_masses)):
        for x in (first, last):   # the half-lines x ≤ first and x ≥ last
            masses[index(x)] = r ** abs(x - law.loc) / (1 + r)
        for x in range(first + 1, last):
            masses[index(x)] = r ** abs(x - law.loc) * one_minus / (1 + r)
    zero = arb(0)
    origin, step = mpf_of(arb(-c * count).mid()), mpf_of(arb(2 * c).mid())
    return LossLattice(+origin, +step, tuple(p_masses), tuple(q_masses), zero, zero, zero, zero)


def _finite_lattice(P: IntegerLaw, Q: IntegerLaw) -> LossLattice:
    """A finite law against a finite law, or against a law on ℤ (whose mass beyond the other's window has loss ±∞):
    the atoms' log-ratios, grouped on the coarsest lattice holding them all to working precision."""
    low, high = min(P.low, Q.low), max(P.high, Q.high)
    Pf, Qf = P.on(low, high), Q.on(low, high)
    p_infinite = arb(0).union(P.shape.tail(low, high).upper()) if P.shape is not None else arb(0)
    q_infinite = arb(0).union(Q.shape.tail(low, high).upper()) if Q.shape is not None else arb(0)
    atoms = []
    for p, q in zip(Pf, Qf):
        if p > 0 and q > 0:
            atoms.append((finite._log_ratio(arb(p), arb(q)), arb(p), arb(q)))
        elif p > 0:
            p_infinite += arb(p)
        elif q > 0:
            q_infinite += arb(q)
    zero = arb(0)
    if not atoms:
        return LossLattice(mpmath.mpf(0), mpmath.mpf(1), (), (), p_infinite, q_infinite, zero, zero)
    values = sorted(mpf_of(v.mid()) for v, _, _ in atoms)
    tolerance = mpmath.ldexp(1 + max(abs(values[0]), abs(values[-1])), -mpmath.mp.prec + 24)
    gaps = [b - a for a, b in zip(values, values[1:]) if b - a > tolerance]
    step = _common_step(gaps, tolerance) if gaps else mpmath.mpf(1)
    origin = values[0]
    count = int(mpmath.nint((values[-1] - origin) / step)) + 1
    if count > MAX_LATTICE:
        raise _not_a_lattice(P, Q, f"{count} lattice values between the least and largest loss")
    p_masses, q_masses = [arb(0)] * count, [arb(0)] * count
    for v, p, q in atoms:
        offset = (mpf_of(v.mid()) - origin) / step
        j = int(mpmath.nint(offset))
        if abs(offset - j) * step > tolerance * count:
            raise _not_a_lattice(P, Q, f"the log-ratio {mpmath.nstr(mpf_of(v.mid()), 10)} is not a multiple of "
                                       f"the step {mpmath.nstr(step, 10)} from {mpmath.nstr(origin, 10)}")
        p_masses[j] += p
        q_masses[j] += q
    return LossLattice(+origin, +step, tuple(p_masses), tuple(q_masses), p_infinite, q_infinite, zero, zero)


def _common_step(gaps: list[mpmath.mpf], tolerance: mpmath.mpf) -> mpmath.mpf:
    """The greatest common divisor of positive reals, to ``tolerance`` (Euclid's algorithm, a remainder within
    ``tolerance`` of 0 or of the divisor counting as 0); a gcd below ``tolerance`` means there is none."""
    step = gaps[0]
    for gap in gaps[1:]:
        a, b = max(step, gap), min(step, gap)
        while b > tolerance:
            rest = mpmath.fmod(a, b)
            if rest < tolerance or b - rest < tolerance:
                rest = mpmath.mpf(0)
            a, b = b, rest
        step = a
    return step
