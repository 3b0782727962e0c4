"""Finite Markov chains: a transition matrix, its powers, its stationary law, d(t), d̄(t) and T_mix.

A :class:`FiniteChain` holds a row-stochastic matrix whose entries are Fractions (everything it computes is then
exact), Arb balls (``flint.arb``: everything it computes is a certified enclosure, and a comparison that decides a
mixing time is decided by the balls or raises :class:`Uncertain`), mpf (at the working precision) or floats
(binary64: the chains that discretise a continuous kernel, :func:`projected_grid_chain`, whose powers are taken
hundreds of times; rounding moves d(t) by ~1e-15).
The quantities are those of Appendix A of Bravo, Flores-Mella & Guzmán (after Levin & Peres, Chapter 4):

* ``power(t)`` is P^t, by repeated multiplication (Chapman–Kolmogorov is what the tests check of it);
* ``stationary()`` is the unique π with πP = π, Σπ = 1, the left Perron vector, solved as a linear system (SymPy for
  Fractions, ``arb_mat.solve`` for balls, :func:`mpmath.lu_solve` for mpf), an error if it is not unique;
* ``d(t) = max_x ‖P^t(x, ·) − π‖_TV``, ``d̄(t) = max_{x,y} ‖P^t(x, ·) − P^t(y, ·)‖_TV`` and
  ``mixing_time(ε) = min{t ≥ 1 : d(t) ≤ ε}`` (Definition A.13), from the rows of the powers.

>>> from fractions import Fraction as F
>>> lazy = FiniteChain([[F(3, 4), F(1, 4)], [F(1, 2), F(1, 2)]])
>>> lazy.stationary(), lazy.dbar(2), lazy.mixing_time(F(1, 10))     # d̄(t) = (1/4)^t for this two-state chain
((Fraction(2, 3), Fraction(1, 3)), Fraction(1, 16), 2)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Sequence

import mpmath
from flint import arb, arb_mat, fmpq, fmpq_mat

from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.numeric import to_mpf
from symdp.errors import Uncertain

Row = tuple
Matrix = tuple


def _balls(values) -> bool:
    return all(isinstance(v, arb) for v in values)


def _product(A: Matrix, B: Matrix) -> Matrix:
    if _balls(A[0]) and _balls(B[0]):   # Arb's matrix product: one call, and tighter radii than a Python sum
        C = arb_mat([list(r) for r in A]) * arb_mat([list(r) for r in B])
        return tuple(tuple(C[i, j] for j in range(C.ncols())) for i in range(C.nrows()))
    columns = list(zip(*B))
    return tuple(tuple(sum((a * b for a, b in zip(row, col)), 0 * row[0]) for col in columns) for row in A)


def tv_rows(p: Sequence, q: Sequence):
    """‖p − q‖_TV = ½ Σ |p_i − q_i|, in the rows' own number type."""
    return sum((abs(a - b) for a, b in zip(p, q)), 0 * p[0]) / 2


def _largest(values):
    """The maximum of numbers, or of balls (``arb.max``: a ball holding the largest of the enclosed values, with no
    comparison to decide)."""
    values = list(values)
    if _balls(values):
        out = values[0]
        for v in values[1:]:
            out = out.max(v)
        return out
    return max(values)


def at_most(x, bound) -> bool:
    """``x <= bound``: for balls, True or False where the balls prove it, :class:`Uncertain` where they overlap."""
    if isinstance(x, arb) or isinstance(bound, arb):
        difference = (x if isinstance(x, arb) else arb(x)) - bound
        if difference <= 0:
            return True
        if difference > 0:
            return False
        raise Uncertain(f"the balls do not decide {x} <= {bound}")
    return x <= bound


class FiniteChain:
    """A Markov chain on {0, ..., n−1} with transition matrix ``rows`` (Fractions, Arb balls, mpf or floats, rows
    summing to 1; for balls, rows whose sums contain 1 and whose entries may be non-negative)."""

    def __init__(self, rows: Sequence[Sequence]):
        rows = tuple(tuple(r) for r in rows)
        n = len(rows)
        if n == 0 or any(len(r) != n for r in rows):
            raise InvalidDistribution(f"a transition matrix must be square and non-empty, got {len(rows)} rows of "
                                      f"lengths {sorted({len(r) for r in rows})}")
        exact = all(isinstance(v, (Fraction, int)) and not isinstance(v, bool) for r in rows for v in r)
        binary64 = all(isinstance(v, float) for r in rows for v in r)
        balls = not exact and all(_balls(r) for r in rows)
        if exact:
            rows = tuple(tuple(Fraction(v) for v in r) for r in rows)
            tolerance = 0
        elif balls:
            for i, r in enumerate(rows):
                if any(v < 0 for v in r) or not (sum(r[1:], r[0]) - 1).contains(0):
                    raise InvalidDistribution(f"row {i} of the transition matrix is not a probability law: {r}")
            self.rows, self.exact, self.binary64, self.balls, self.size = rows, False, False, True, n
            self._powers = [self.identity(), rows]
            return
        elif binary64:
            tolerance = 1e-12 * n
        else:
            rows = tuple(tuple(to_mpf(v, "transition probability") for v in r) for r in rows)
            tolerance = mpmath.mpf(10) ** (-mpmath.mp.dps + 3) * n
        for i, r in enumerate(rows):
            if any(not v >= 0 for v in r) or abs(sum(r) - 1) > tolerance:
                raise InvalidDistribution(f"row {i} of the transition matrix is not a probability law: {r}")
        self.rows, self.exact, self.binary64, self.balls, self.size = rows, exact, binary64, False, n
        self._powers = [self.identity(), rows]

    @classmethod
    def from_weights(cls, weights: Sequence[Sequence[int]]) -> "FiniteChain":
        """The chain whose row x is the integer ``weights[x]`` normalised, exactly."""
        rows = []
        for i, w in enumerate(weights):
            if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in w) or sum(w) == 0:
                raise InvalidParameter(f"row {i} of the weights must be non-negative integers, not all 0: {w}")
            rows.append([Fraction(v, sum(w)) for v in w])
        return cls(rows)

    def identity(self) -> Matrix:
        if self.balls:
            one = arb(1)
        else:
            one = Fraction(1) if self.exact else 1.0 if self.binary64 else mpmath.mpf(1)
        return tuple(tuple(one if i == j else 0 * one for j in range(self.size)) for i in range(self.size))

    def power(self, t: int) -> Matrix:
        """P^t (P^0 = I), from P^{t−1}·P; the powers are kept."""
        if not isinstance(t, int) or t < 0:
            raise InvalidParameter(f"a power of a transition matrix needs an integer t >= 0, got {t!r}")
        while len(self._powers) <= t:
            self._powers.append(_product(self._powers[-1], self.rows))
        return self._powers[t]

    def law(self, start: Sequence, t: int) -> Row:
        """The law of X_t for X_0 ~ ``start``: start·P^t."""
        return _product((tuple(start),), self.power(t))[0]

    def laws(self, start: Sequence, steps: int) -> list[Row]:
        """The laws of X_1, ..., X_steps for X_0 ~ ``start``: each from the one before by a vector–matrix product,
        no power of P formed (steps·n² products, not steps·n³); for exact entries the rows :meth:`law` gives.

        >>> from fractions import Fraction as F
        >>> chain = FiniteChain([[F(3, 4), F(1, 4)], [F(1, 2), F(1, 2)]])
        >>> chain.laws([1, 0], 2) == [chain.law([1, 0], 1), chain.law([1, 0], 2)]
        True
        """
        if not isinstance(steps, int) or steps < 0:
            raise InvalidParameter(f"the laws of a chain need a number of steps >= 0, got {steps!r}")
        out, row = [], tuple(start)
        for _ in range(steps):
            row = _product((row,), self.rows)[0]
            out.append(row)
        return out

    def stationary(self) -> Row:
        """The unique π with πP = π and Σπ = 1 (the left Perron vector of an irreducible chain)."""
        n = self.size
        system = [[self.rows[j][i] - (1 if i == j else 0) for j in range(n)] for i in range(n - 1)] + [[1] * n]
        rhs = [0] * (n - 1) + [1]
        if self.exact:   # flint's rational solve: exact, and far faster than a symbolic one
            A = fmpq_mat([[fmpq(v.numerator, v.denominator) if isinstance(v, Fraction) else fmpq(v) for v in row]
                          for row in system])
            if A.rank() < n:
                raise InvalidDistribution("the chain has no unique stationary law (it has two closed classes)")
            pi = A.solve(fmpq_mat([[v] for v in rhs]))
            return tuple(Fraction(int(pi[i, 0].p), int(pi[i, 0].q)) for i in range(n))
        if self.balls:   # Arb's certified solve; a system the balls cannot prove regular is undecided
            try:
                solved = arb_mat([[arb(v) for v in row] for row in system]).solve(arb_mat([[arb(v)] for v in rhs]))
            except ZeroDivisionError:
                raise Uncertain("the balls do not prove the stationary system regular") from None
            return tuple(solved[i, 0] for i in range(n))
        if self.binary64:   # mpmath's binary64 context: no numpy needed
            try:
                solved = mpmath.fp.lu_solve(mpmath.fp.matrix(system), mpmath.fp.matrix([float(v) for v in rhs]))
            except ZeroDivisionError:
                solved = None
            pi = tuple(float(solved[i]) for i in range(n)) if solved is not None else ()
            if not pi or not all(math.isfinite(v) for v in pi) or abs(sum(pi) - 1) > 1e-9:
                raise InvalidDistribution("the chain has no unique stationary law (it has two closed classes)")
            return pi
        try:
            pi = mpmath.lu_solve(mpmath.matrix(system), mpmath.matrix(rhs))
        except ZeroDivisionError:
            raise InvalidDistribution("the chain has no unique stationary law (it has two closed classes)") from None
        return tuple(pi[i] for i in range(n))

    def d(self, t: int, pi: Sequence | None = None):
        """d(t) = max_x ‖P^t(x, ·) − π‖_TV (Definition A.13)."""
        pi = self.stationary() if pi is None else pi
        return _largest(tv_rows(row, pi) for row in self.power(t))

    def dbar(self, t: int):
        """d̄(t) = max_{x,y} ‖P^t(x, ·) − P^t(y, ·)‖_TV (Proposition A.14)."""
        rows = self.power(t)
        return _largest(tv_rows(rows[i], rows[j]) for i in range(self.size) for j in range(i + 1, self.size)) \
            if self.size > 1 else 0 * rows[0][0]

    def first_time(self, below: Callable[[int], bool], limit: int = 10_000) -> int:
        """The least t >= 1 with ``below(t)``; an error past ``limit`` steps (for balls, ``below`` decides each t by
        the balls, :func:`at_most`, or raises :class:`Uncertain`)."""
        for t in range(1, limit + 1):
            if below(t):
                return t
        raise InvalidParameter(f"the chain has not reached the threshold in {limit} steps")

    def mixing_time(self, eps, limit: int = 10_000) -> int:
        """T_mix(ε) = min{t ≥ 1 : d(t) ≤ ε} (Definition A.13); for a chain of balls each comparison is decided by the
        balls (:class:`Uncertain` where one is not)."""
        if isinstance(eps, float) and self.exact:
            eps = Fraction(eps)
        if isinstance(eps, Fraction) and self.balls:
            eps = arb(fmpq(eps.numerator, eps.denominator))
        if not eps > 0:
            raise InvalidParameter(f"a mixing time needs epsilon > 0, got {eps}")
        pi = self.stationary()
        return self.first_time(lambda t: at_most(self.d(t, pi), eps), limit)


def projected_grid_chain(step: Callable, sd, low, high, n: int, balls: bool = False) -> FiniteChain:
    """A finite surrogate of the projected noisy step X' = Π_[low, high](step(X) + sd·ξ): the n equally spaced
    points x_i of [low, high], moved from x_i to the grid point nearest to Π(step(x_i) + sd·ξ), with the cell masses
    from the Gaussian CDF (the end cells take the atoms of the projection). Not the continuous chain: its mixing
    times are those of this finite chain only.

    In binary64 by default (each row renormalised against its rounding); with ``balls``, in Arb at flint's precision
    (:func:`_ball_grid_chain`: ``sd``, ``low``, ``high`` numbers or balls, ``step`` a map of balls), the exact cell
    masses enclosed, so that the chain's powers, π, d(t) and T_mix are certified too."""
    if balls:
        return _ball_grid_chain(step, sd, low, high, n)
    lo, hi = to_mpf(low, "low end"), to_mpf(high, "high end")
    if not (n >= 2 and lo < hi):
        raise InvalidParameter(f"a grid chain needs n >= 2 points on an interval low < high, got n={n}, "
                               f"[{low}, {high}]")
    s = to_mpf(sd, "noise sd")
    if not s > 0:
        raise InvalidParameter(f"the noise sd must be positive, got {sd}")
    width = (hi - lo) / (n - 1)
    points = [lo + i * width for i in range(n)]
    cuts = [x + width / 2 for x in points[:-1]]
    edges = [-math.inf] + [float(c_) for c_ in cuts] + [math.inf]
    sd_ = float(s)
    rows = []
    for x in points:
        centre = float(to_mpf(step(x), "step"))
        below = lambda v: _normal_tail((centre - v) / sd_)   # noqa: E731  P(Y <= v)
        above = lambda v: _normal_tail((v - centre) / sd_)   # noqa: E731  P(Y > v)
        # each cell's mass from the tail on its own side of the centre: no difference of two numbers near 1
        row = [above(a) - above(b) if a >= centre else below(b) - below(a) if b <= centre else 1 - below(a) - above(b)
               for a, b in zip(edges, edges[1:])]
        rows.append([max(v, 0.0) / math.fsum(max(v, 0.0) for v in row) for v in row])
    return FiniteChain(rows)


def _ball_grid_chain(step: Callable, sd, low, high, n: int) -> FiniteChain:
    """:func:`projected_grid_chain` in Arb: the cell masses P(c_{j−1} < Y ≤ c_j), Y ~ N(step(x_i), sd²), from
    erfc, each from the tails on its own side of the centre where the balls tell the side (else as 1 minus the two
    tails: every form is the same number, only its radius differs). The masses of a row sum to 1 exactly, so the rows
    are not renormalised: the chain is the surrogate itself, enclosed."""
    from symdp.estimate import exact_ball

    lo, hi, s = (exact_ball(v) if not isinstance(v, arb) else v for v in (low, high, sd))
    if not (n >= 2 and hi > lo and s > 0):
        raise InvalidParameter(f"a grid chain needs n >= 2 points on an interval low < high and sd > 0, got n={n}, "
                               f"[{low}, {high}], sd={sd}")
    width = (hi - lo) / (n - 1)
    points = [lo + i * width for i in range(n)]
    cuts = [lo + (2 * i + 1) * width / 2 for i in range(n - 1)]
    scale = s * arb(2).sqrt()
    rows = []
    for x in points:
        centre = step(x)
        above = lambda v: ((v - centre) / scale).erfc() / 2   # noqa: E731  P(Y > v)
        below = lambda v: ((centre - v) / scale).erfc() / 2   # noqa: E731  P(Y <= v)
        row = [below(cuts[0])]
        for a, b in zip(cuts, cuts[1:]):
            row.append(above(a) - above(b) if a > centre else below(b) - below(a) if b < centre
                       else 1 - below(a) - above(b))
        row.append(above(cuts[-1]))
        rows.append([v.nonnegative_part() for v in row])
    return FiniteChain(rows)


def _normal_tail(z: float) -> float:
    """P(ξ > z) for a standard Gaussian, in binary64 without cancellation."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def metropolis_hastings(target: Sequence) -> FiniteChain:
    """The Metropolis–Hastings chain on {0, ..., k−1} that targets ``target`` (positive masses, Fractions for an
    exact chain) with the nearest-neighbour proposal: from x propose x ± 1 with probability 1/2 each (a proposal
    off the ends stays at x), accept with probability min(1, π(y)/π(x)). Reversible with respect to ``target``
    (detailed balance holds term by term), so ``target`` is its stationary law; aperiodic as soon as one move is
    rejected, which the ends guarantee.

    >>> from fractions import Fraction as F
    >>> metropolis_hastings([F(1, 4), F(3, 4)]).rows
    ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 6), Fraction(5, 6)))
    """
    exact = all(isinstance(v, (Fraction, int)) and not isinstance(v, bool) for v in target)
    masses = [Fraction(v) if exact else to_mpf(v, "target mass") for v in target]
    size = len(masses)
    if size < 2 or any(not v > 0 for v in masses):
        raise InvalidParameter(f"a Metropolis-Hastings target needs at least 2 positive masses, got {list(target)}")
    half = Fraction(1, 2) if exact else mpmath.mpf(1) / 2
    rows = []
    for x in range(size):
        row = [0 * half] * size
        for y in (x - 1, x + 1):
            if 0 <= y < size:
                row[y] = half * min(1, masses[y] / masses[x])
        row[x] = 1 - sum(row)
        rows.append(row)
    return FiniteChain(rows)
