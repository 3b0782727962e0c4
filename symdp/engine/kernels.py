"""Finite Markov kernels (row-stochastic matrices) and their mixing coefficients (Balle et al. 2019, Definition 1).

Each coefficient is the *smallest* γ for which the kernel satisfies the condition, computed exactly:

* Dobrushin: γ = max_{x,x'} TV(K(x), K(x'));
* (γ, ε)-Dobrushin: γ = max_{x,x'} D_{e^ε}(K(x) || K(x'));
* Doeblin: γ = 1 - Σ_y min_x K(x)(y) (the minorising ω is the normalised column minimum);
* ultra-mixing: γ = 1 - min_{x,x',y} K(x)(y)/K(x')(y) (requires every entry positive).

Each is a certified enclosure (:meth:`Estimate.from_arb <symdp.estimate.Estimate.from_arb>`) of the coefficient of
the rows *as given*: the entries are exact rationals (:meth:`FiniteDistribution.keys
<symdp.engine.finite.FiniteDistribution.keys>`: those of rows built exactly, :attr:`MarkovKernel.exact`, else the
binary numbers given), Doeblin's and ultra-mixing's minima, sums and ratios are formed in them exactly and only the
result enters a ball, and the divergences between rows are :mod:`symdp.engine.finite`'s certified sums of the same
rationals.

>>> K = MarkovKernel([[0.75, 0.25], [0.25, 0.75]])     # binary randomized response
>>> print(K.dobrushin().value, K.doeblin().value, mpmath.nstr(K.ultra_mixing().value, 10), K.doeblin().certified)
0.5 0.5 0.6666666667 True
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterable, Sequence

import mpmath
from flint import arb, fmpq

from symdp.engine import finite
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.engine.finite import FiniteDistribution
from symdp.estimate import Estimate, Method, arb_precision, mpf_down, mpf_up

GUARD_BITS = finite.GUARD_BITS


def largest(estimates: Iterable[Estimate]) -> Estimate:
    """The maximum of finitely many estimates: the ``arb.max`` of their enclosures where every one is certified (an
    enclosure of the maximum), else the largest value with the largest error (an estimate)."""
    estimates = list(estimates)
    if all(e.certified and mpmath.isfinite(e.value) for e in estimates):
        with arb_precision(mpmath.mp.prec + GUARD_BITS):
            return Estimate.from_arb(functools.reduce(arb.max, (e.ball() for e in estimates)), Method.EXACT)
    top = max(estimates, key=lambda e: e.value)
    return Estimate(top.value, max(e.error for e in estimates), top.method)


def level_ends(level) -> tuple[mpmath.mpf, mpmath.mpf]:
    """The ends ``(low, high)`` of a level ε known as a number (both ends), an Arb ball (rounded outward to the
    working precision) or a pair of numbers (``high`` may be ``+inf``)."""
    if isinstance(level, tuple):
        low, high = (mpmath.mpf(v) for v in level)
    elif isinstance(level, arb):
        with arb_precision(mpmath.mp.prec + GUARD_BITS):   # the ends are rounded outward to flint's precision
            lower, upper = level.lower(), level.upper()
        low = mpf_down(lower) if lower.is_finite() else -mpmath.inf
        high = mpf_up(upper) if upper.is_finite() else mpmath.inf
    else:
        return (level, level)
    if mpmath.isnan(low) or mpmath.isnan(high) or low == -mpmath.inf or low > high:
        raise InvalidParameter(f"a hockey-stick level must be an interval in (-inf, inf], got {level}")
    return low, high


def hockey_stick_at(P: FiniteDistribution, Q: FiniteDistribution, level) -> Estimate:
    """D_{e^ε}(P‖Q) by :func:`symdp.engine.finite.hockey_stick`, at a level ε given as a number, or known only as an
    interval (an Arb ball, or a pair ``(low, high)``: a level computed from the draw, or from a measured enclosure,
    the ε̃ of a measured δ). The divergence is non-increasing in ε, so on an interval of levels it lies between its
    values at the upper and the lower end (``+inf``: the mass off the support): the union of those two certified
    enclosures encloses it at every level of the interval.

    >>> P, Q = FiniteDistribution([0.75, 0.25]), FiniteDistribution([0.25, 0.75])
    >>> e = hockey_stick_at(P, Q, arb(2).log())             # 3/4 - 2/4, at the level log 2 known as a ball
    >>> e.certified, e.value - e.error <= mpmath.mpf(1) / 4 <= e.value + e.error, e.error < 1e-14
    (True, True, True)
    """
    low, high = level_ends(level)
    at_low = finite.hockey_stick(P, Q, low)
    if low == high:
        return at_low
    at_high = finite.hockey_stick(P, Q, high)
    if not (at_low.certified and at_high.certified):
        return Estimate(at_low.value, max(at_low.error, abs(at_low.value - at_high.value) + at_high.error),
                        at_low.method)
    with arb_precision(mpmath.mp.prec + GUARD_BITS):
        return Estimate.from_arb(at_low.ball().union(at_high.ball()), Method.EXACT)


@dataclass(frozen=True, init=False)
class MarkovKernel:
    """A row-stochastic matrix: row x is the distribution K(x)."""

    rows: tuple[FiniteDistribution, ...]

    def __init__(self, rows: Sequence[Sequence]):
        built = []
        for i, r in enumerate(rows):
            try:
                built.append(FiniteDistribution(r))
            except InvalidDistribution as exc:
                raise InvalidDistribution(f"kernel row {i}: {exc}") from None
        if not built:
            raise InvalidDistribution("a kernel needs at least one row")
        widths = {len(r) for r in built}
        if len(widths) != 1:
            raise InvalidDistribution(f"kernel rows have different lengths {sorted(widths)}")
        object.__setattr__(self, "rows", tuple(built))

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0])

    @property
    def exact(self) -> bool:
        """Whether every row was built exactly (:attr:`FiniteDistribution.exact
        <symdp.engine.finite.FiniteDistribution.exact>`): its coefficients, and the law ``P K`` of an exact ``P``, are
        then those of the kernel itself, not of rounded rows.

        >>> third = mpmath.mpf(1) / 3   # rounded: 3 of it is not 1
        >>> MarkovKernel([[fmpq(1, 3), fmpq(2, 3)], [1, 0]]).exact, MarkovKernel([[third, 2 * third]]).exact
        (True, False)
        """
        return all(r.exact for r in self.rows)

    def apply(self, P: FiniteDistribution) -> FiniteDistribution:
        """P K: the output law when the input is drawn from P (exact where P and every row are)."""
        return P.push_forward(self.rows)

    def compose(self, other: "MarkovKernel") -> "MarkovKernel":
        """K then other (matrix product K · other)."""
        return MarkovKernel([other.apply(r) for r in self.rows])

    def _columns(self) -> list[list[fmpq]]:
        """The entries as exact rationals (:meth:`FiniteDistribution.keys`), by column."""
        rows = [r.keys() for r in self.rows]
        return [[r[y] for r in rows] for y in range(self.shape[1])]

    def dobrushin(self) -> Estimate:
        """max_{x,x'} TV(K(x), K(x')), each TV the finite engine's certified sum."""
        return largest(finite.tv(a, b) for a in self.rows for b in self.rows)

    def dobrushin_eps(self, eps) -> Estimate:
        """max_{x,x'} D_{e^ε}(K(x)‖K(x')); ε a number, or an interval (:func:`hockey_stick_at`)."""
        return largest(hockey_stick_at(a, b, eps) for a in self.rows for b in self.rows)

    def doeblin(self) -> Estimate:
        """1 − Σ_y min_x K(x)(y), an exact rational (the entries', :meth:`_columns`) enclosed by a ball."""
        with arb_precision(mpmath.mp.prec + GUARD_BITS):
            return Estimate.from_arb(arb(1 - sum((min(column) for column in self._columns()), fmpq(0))), Method.EXACT)

    def ultra_mixing(self) -> Estimate:
        """1 − min_{x,x',y} K(x)(y)/K(x')(y), an exact rational enclosed by a ball (every entry must be positive)."""
        if any(p <= 0 for r in self.rows for p in r):
            raise InvalidParameter("ultra-mixing needs every kernel entry positive")
        with arb_precision(mpmath.mp.prec + GUARD_BITS):
            # the smallest ratio in a column is its minimum over its maximum
            return Estimate.from_arb(arb(1 - min(min(column) / max(column) for column in self._columns())),
                                     Method.EXACT)
