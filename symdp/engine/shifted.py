"""The shifted Rényi divergence R^(δ)_α(μ‖ν) = inf{R_α(μ'‖ν) : W∞(μ, μ') ≤ δ} on the line, with certified bounds.

In one dimension W∞(μ, μ') ≤ δ iff F_μ(x − δ) ≤ F_μ'(x) ≤ F_μ(x + δ) for every x (the quantile coupling is optimal
for W∞). A μ' with R_α(μ'‖ν) < ∞ lives on the support of ν, so for a finite ν (atoms y_0 < … < y_{n−1}, masses q_i)
the infimum is a finite convex program over the masses p_i of μ': minimise Σ p_i^α q_i^{1−α} subject to p ≥ 0 and
"gates" L_k ≤ p_0 + … + p_k ≤ U_k on the cumulative sums. In the plane of the cumulative masses (Q_k, C_k) that is a
path from (0, 0) to (1, 1) through vertical gates, and Σ q_i (p_i/q_i)^α is a convex function of its slopes, so the
minimiser is the *taut string* through the gates (the shortest path, which minimises every such functional at once).

:func:`gate_program` finds the taut string (its bends located in floats, the path then rebuilt in exact rationals
from the gates' own ends, so it is exactly feasible) and returns both sides as Arb balls: the value of that feasible
μ' (an **upper** bound on the infimum) and the Lagrangian dual at the multipliers its slopes give (weak duality: a
**lower** bound for any multipliers). Their gap is what a verdict sees as the error. Laws whose masses are exact
(:attr:`AtomicLaw.exact`: integer weights as Fractions, dyadic floats) and an exact shift give the gates exactly, and
then [dual, value] is a certified enclosure of the infimum (:meth:`ShiftedBounds.estimate`), W∞ an exact rational
(:func:`winf_exactly`).

For continuous laws, binning is post-processing: a cell partition maps μ' and ν to finite laws, lowering R_α, and the
binned μ' has cumulative masses F_μ'(e) ∈ [F_μ(e − δ), F_μ(e + δ)] at every edge e. The finite program with those
gates is therefore a certified **lower** bound on R^(δ)_α (:func:`binned_lower_bound`); any translate of μ by at most
δ is feasible and gives an **upper** bound (:func:`translation_upper_bound`).

>>> mu, nu = AtomicLaw([0, 1], [0.5, 0.5]), AtomicLaw([0, 1, 2], [0.25, 0.5, 0.25])
>>> b = shifted_renyi(mu, nu, 0, 2)               # δ = 0: R_2(μ‖ν) = ln(0.5²/0.25 + 0.5²/0.5) = ln 1.5
>>> print(mpmath.nstr(b.upper, 12), mpmath.nstr(b.lower, 12), mpmath.nstr(mpmath.log(1.5), 12))
0.405465108108 0.405465108108 0.405465108108
>>> shifted_renyi(mu, nu, 1, 2).upper             # W∞(μ, ν) = 1: μ' = ν is in the ball
mpf('0.0')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise

import mpmath
from flint import arb, fmpq

from symdp.engine.continuous import ContinuousDistribution
from symdp.engine.finite import FiniteDistribution
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, Method, arb_precision, exact_rational, mpf_down, mpf_of, mpf_up
from symdp.numeric import check_order, to_mpf


@dataclass(frozen=True, init=False)
class AtomicLaw:
    """A finite law on the line: sorted distinct ``points`` with positive masses ``probs`` summing to 1 (atoms of
    equal position are merged, zero masses dropped).

    >>> AtomicLaw([1, 0, 1], [0.25, 0.5, 0.25]).points
    (mpf('0.0'), mpf('1.0'))
    """

    points: tuple
    probs: tuple
    exact: tuple | None = None
    """The atoms as exact rationals, ``((x, p), ...)`` sorted (``flint.fmpq``: the positions are the ``points``
    themselves, every mpf being a rational; the masses as given, a Fraction kept exactly), where those masses sum to
    exactly 1; None otherwise (masses rounded on the way in). The certified routes work on these."""

    def __init__(self, points: Sequence, probs: Sequence):
        if len(points) != len(probs) or not points:
            raise InvalidDistribution(f"an atomic law needs as many masses as points (got {len(points)} points and "
                                      f"{len(probs)} masses), at least one")
        merged: dict = {}
        for x, p in zip(points, probs):
            xv, pv = to_mpf(x, "atom position"), to_mpf(p, "atom mass")
            if not mpmath.isfinite(xv):
                raise InvalidDistribution(f"atom positions must be finite, got {x}")
            if pv < 0 or not mpmath.isfinite(pv):
                raise InvalidDistribution(f"atom masses must be finite and non-negative, got {p}")
            merged[xv] = merged.get(xv, 0) + pv
        total = mpmath.fsum(merged.values())
        if abs(total - 1) > mpmath.mpf(10) ** (-mpmath.mp.dps + 5) * len(merged):
            raise InvalidDistribution(f"atom masses sum to {mpmath.nstr(total, 12)}, not 1")
        kept = sorted((x, p) for x, p in merged.items() if p > 0)
        object.__setattr__(self, "points", tuple(x for x, _ in kept))
        object.__setattr__(self, "probs", tuple(p for _, p in kept))
        object.__setattr__(self, "exact", _exact_atoms(points, probs))

    @classmethod
    def from_rationals(cls, points: Sequence, probs: Sequence) -> AtomicLaw:
        """The law with atoms at the exact rationals ``points`` (``flint.fmpq``) and exact masses ``probs`` summing
        to 1: :attr:`exact` holds them, ``points``/``probs`` are them rounded to the working precision."""
        law = cls([_mpf_of_rational(x) for x in points], [_mpf_of_rational(p) for p in probs])
        object.__setattr__(law, "exact", _merged(zip(points, probs)))
        return law

    def cdf(self, x) -> mpmath.mpf:
        """F(x) = μ((−∞, x])."""
        return mpmath.fsum(p for y, p in zip(self.points, self.probs) if y <= x)

    def cdf_before(self, x) -> mpmath.mpf:
        """F(x−) = μ((−∞, x))."""
        return mpmath.fsum(p for y, p in zip(self.points, self.probs) if y < x)

    def mapped(self, f: Callable, exactly: Callable | None = None) -> AtomicLaw:
        """The push-forward f_#μ; with ``exactly`` (the same map on exact rationals) and an exact law, the image
        keeps its exact rationals (:attr:`exact`)."""
        if exactly is not None and self.exact is not None:
            return AtomicLaw.from_rationals([exactly(x) for x, _ in self.exact], [p for _, p in self.exact])
        return AtomicLaw([f(x) for x in self.points], self.probs)

    def on(self, support: Sequence) -> list:
        """The masses on ``support`` (sorted points; this law's atoms must be among them)."""
        where = {x: i for i, x in enumerate(support)}
        out = [mpmath.mpf(0)] * len(support)
        for x, p in zip(self.points, self.probs):
            if x not in where:
                raise InvalidDistribution(f"atom {mpmath.nstr(x, 10)} is not in the support given")
            out[where[x]] += p
        return out


def aligned(mu: AtomicLaw, nu: AtomicLaw) -> tuple[FiniteDistribution, FiniteDistribution]:
    """Both laws as probability vectors on the union of their atoms (what the engine's finite sums compare).

    >>> [p.probs for p in aligned(AtomicLaw([0, 1], [0.5, 0.5]), AtomicLaw([1, 2], [0.5, 0.5]))]
    [(mpf('0.5'), mpf('0.5'), mpf('0.0')), (mpf('0.0'), mpf('0.5'), mpf('0.5'))]
    """
    support = sorted(set(mu.points) | set(nu.points))
    return FiniteDistribution(mu.on(support)), FiniteDistribution(nu.on(support))


# --- exact rationals: the certified routes ------------------------------------------------------------------------
GUARD_BITS = 30
"""Bits beyond mpmath's working precision at which the program's value and dual are computed in balls."""


def _mpf_of_rational(x) -> mpmath.mpf:
    """An exact rational rounded to the working precision."""
    return mpmath.mpf(int(x.p)) / int(x.q)


def _merged(pairs) -> tuple | None:
    """Atoms ``(x, p)`` of exact rationals merged by position, zero masses dropped, sorted; None unless the masses
    sum to exactly 1."""
    merged: dict = {}
    for x, p in pairs:
        merged[x] = merged.get(x, 0) + p
    if sum(merged.values()) != 1:
        return None
    return tuple(sorted((x, p) for x, p in merged.items() if p > 0))


def _exact_atoms(points, probs) -> tuple | None:
    """The atoms given as exact rationals (:attr:`AtomicLaw.exact`)."""
    return _merged((exact_rational(x), exact_rational(p)) for x, p in zip(points, probs))


def _sign(x) -> int | None:
    """The sign of an exact rational, or of an Arb ball where the ball decides it (None where it does not)."""
    if not isinstance(x, arb):
        return (x > 0) - (x < 0)
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0 if x == 0 else None


def _coupling(mu_atoms, nu_atoms, tiny=0) -> list:
    """The quantile coupling of two lists of atoms ``(x, p)`` (mpf, or exact rationals with ``tiny`` = 0)."""
    out, i, j = [], 0, 0
    left_mu, left_nu = [p for _, p in mu_atoms], [p for _, p in nu_atoms]
    while i < len(left_mu) and j < len(left_nu):
        m = min(left_mu[i], left_nu[j])
        if m > 0:
            out.append((mu_atoms[i][0], nu_atoms[j][0], m))
        left_mu[i] -= m
        left_nu[j] -= m
        # the smaller remainder is spent; a remainder at rounding level is spent too
        if left_mu[i] <= tiny:
            i += 1
        if j < len(left_nu) and left_nu[j] <= tiny:
            j += 1
    return out


def quantile_coupling(mu: AtomicLaw, nu: AtomicLaw) -> list:
    """The quantile (monotone) coupling of two atomic laws as triples (x, y, mass): F_μ^{-1}(u) paired with
    F_ν^{-1}(u) for u uniform."""
    return _coupling(list(zip(mu.points, mu.probs)), list(zip(nu.points, nu.probs)),
                     mpmath.mpf(10) ** (-mpmath.mp.dps + 3))


def winf_exactly(mu: AtomicLaw, nu: AtomicLaw):
    """W∞(μ, ν) = sup_u |F_μ^{-1}(u) − F_ν^{-1}(u)| as an exact rational, by the quantile coupling of the exact
    atoms (None unless both laws are exact, :attr:`AtomicLaw.exact`).

    >>> print(winf_exactly(AtomicLaw([0, 2], [0.5, 0.5]), AtomicLaw([1, 2.5], [0.5, 0.5])))
    1
    """
    if mu.exact is None or nu.exact is None:
        return None
    return max(abs(x - y) for x, y, _ in _coupling(mu.exact, nu.exact))


def winf(mu: AtomicLaw, nu: AtomicLaw) -> mpmath.mpf:
    """W∞(μ, ν) = sup_u |F_μ^{-1}(u) − F_ν^{-1}(u)|, by the quantile coupling (of the exact atoms where both laws
    have them, rounded once).

    >>> winf(AtomicLaw([0, 2], [0.5, 0.5]), AtomicLaw([1, 2.5], [0.5, 0.5]))
    mpf('1.0')
    """
    exact = winf_exactly(mu, nu)
    if exact is not None:
        return _mpf_of_rational(exact)
    return max(abs(x - y) for x, y, _ in quantile_coupling(mu, nu))


def _exact_cdf(atoms, x, strict: bool = False):
    """μ((−∞, x]) (or μ((−∞, x)) if ``strict``) of exact atoms, exactly."""
    return sum((p for y, p in atoms if (y < x if strict else y <= x)), start=0)


def _within_exactly(mu_atoms, nu_atoms, d) -> bool:
    """The CDF-shift criterion for exact atoms and an exact shift ``d``, exactly: the three step functions are
    right-continuous and constant between consecutive jumps, so each piece is tested at its midpoint (and past the
    last jump)."""
    jumps = sorted({*(y for y, _ in nu_atoms), *(x + d for x, _ in mu_atoms), *(x - d for x, _ in mu_atoms)})
    probes = [(u + v) / 2 for u, v in pairwise(jumps)] + [jumps[-1] + 1]
    return all(_exact_cdf(mu_atoms, x - d) <= _exact_cdf(nu_atoms, x) <= _exact_cdf(mu_atoms, x + d)
               for x in probes)


def within_winf(mu: AtomicLaw, nu: AtomicLaw, delta) -> bool:
    """Whether F_μ(x − δ) ≤ F_ν(x) ≤ F_μ(x + δ) for every x (the CDF-shift criterion for W∞(μ, ν) ≤ δ). The three
    functions of x are step functions, constant between consecutive jumps of any of them, so it suffices to test
    each piece at its midpoint: exactly for exact laws; otherwise pieces narrower than the working precision are
    rounding, not pieces."""
    if mu.exact is not None and nu.exact is not None:
        return _within_exactly(mu.exact, nu.exact, exact_rational(delta))
    d = to_mpf(delta, "delta")
    jumps = sorted({*nu.points, *(x + d for x in mu.points), *(x - d for x in mu.points)})
    slack = mpmath.mpf(10) ** (-mpmath.mp.dps + 5)
    probes = [(u + v) / 2 for u, v in pairwise(jumps) if v - u > slack * (abs(u) + abs(v) + d)] + [jumps[-1] + 1]
    return all(mu.cdf(x - d) <= nu.cdf(x) + slack and nu.cdf(x) <= mu.cdf(x + d) + slack for x in probes)


def winf_by_cdf_shifts_exactly(mu: AtomicLaw, nu: AtomicLaw):
    """The least δ passing the CDF-shift criterion, as an exact rational (None unless both laws are exact): W∞ of
    finite laws is a distance between two atoms (or 0), so the candidates are tried in increasing order."""
    if mu.exact is None or nu.exact is None:
        return None
    candidates = sorted({exact_rational(0), *(abs(x - y) for x, _ in mu.exact for y, _ in nu.exact)})
    return next(d for d in candidates if _within_exactly(mu.exact, nu.exact, d))


def winf_by_cdf_shifts(mu: AtomicLaw, nu: AtomicLaw) -> mpmath.mpf:
    """The least δ passing the CDF-shift criterion (:func:`winf_by_cdf_shifts_exactly` rounded once, for exact
    laws)."""
    exact = winf_by_cdf_shifts_exactly(mu, nu)
    if exact is not None:
        return _mpf_of_rational(exact)
    candidates = sorted({mpmath.mpf(0), *(abs(x - y) for x in mu.points for y in nu.points)})
    return next(d for d in candidates if within_winf(mu, nu, d))


@dataclass(frozen=True)
class ShiftedBounds:
    """Bounds ``lower ≤ R^(δ)_α ≤ upper`` (+∞ both where no μ' in the ball is absolutely continuous w.r.t. ν), and
    the masses of the feasible μ' that gives ``upper`` (None where there is none). ``balls`` are the two bounds as
    Arb balls (the value at the feasible μ', the dual); ``certified`` says that the program's gates were the exact
    gates of the laws (exact rationals), so that the bounds hold for the infimum itself, not up to rounding."""

    lower: mpmath.mpf
    upper: mpmath.mpf
    masses: tuple | None = None
    balls: tuple | None = None
    certified: bool = False

    @property
    def gap(self) -> mpmath.mpf:
        return mpmath.mpf(0) if mpmath.isinf(self.lower) else self.upper - self.lower

    def upper_estimate(self) -> Estimate:
        """The upper bound, as the value of a quantity known to be at most it (error: rounding of the sum)."""
        return _estimate(self.upper)

    def lower_estimate(self) -> Estimate:
        """The lower bound, as the value of a quantity known to be at least it."""
        return _estimate(self.lower)

    def estimate(self) -> Estimate:
        """The infimum itself: where the program is certified, the enclosure [dual, value] of the balls (a certified
        estimate; exactly +∞ where no μ' is feasible); otherwise the midpoint of the bounds with half the gap as its
        error."""
        if self.certified:
            if mpmath.isinf(self.lower):
                return Estimate(mpmath.inf, mpmath.mpf(0), Method.EXACT, certified=True)
            low, high = self.balls
            with arb_precision(mpmath.mp.prec + GUARD_BITS):
                return Estimate.from_arb(low.union(high), Method.EXACT).clamped(0, mpmath.inf)
        if mpmath.isinf(self.lower):
            return _estimate(self.lower)
        return Estimate((self.upper + self.lower) / 2, self.gap / 2 + _rounding(self.upper), Method.EXACT)


def _rounding(value) -> mpmath.mpf:
    return 64 * (1 + abs(value)) * mpmath.mpf(10) ** (-mpmath.mp.dps)


def _estimate(value) -> Estimate:
    if mpmath.isinf(value):
        return Estimate(mpmath.inf, mpmath.mpf(0), Method.EXACT)
    return Estimate(value, _rounding(value), Method.EXACT)


INFEASIBLE = ShiftedBounds(mpmath.inf, mpmath.inf)


def _bends(xs: list, lo: list, hi: list) -> list:
    """Indices and heights (as gate ends: ``(k, "lo"|"hi")``) of the taut string's bends through the gates
    ``(xs[k], [lo[k], hi[k]])``, from gate 0 to the last, found in floats (only *where* it bends is needed here)."""
    x = [float(v) for v in xs]
    low = [float(v) for v in lo]
    high = [float(v) for v in hi]
    m = len(x) - 1
    bends, i, y = [(0, "lo")], 0, low[0]
    while i < m:
        smin, smax, jmin, jmax = -float("inf"), float("inf"), None, None
        for j in range(i + 1, m + 1):
            dx = x[j] - x[i]
            a, b = (low[j] - y) / dx, (high[j] - y) / dx
            if a > smax:
                i, y = jmax, high[jmax]
                bends.append((jmax, "hi"))
                break
            if b < smin:
                i, y = jmin, low[jmin]
                bends.append((jmin, "lo"))
                break
            if a >= smin:
                smin, jmin = a, j
            if b <= smax:
                smax, jmax = b, j
        else:
            bends.append((m, "lo"))
            i = m
    return bends


def gate_program(q: Sequence, lower: Sequence, upper: Sequence, alpha) -> ShiftedBounds:
    """min R_α(p‖q) over p ≥ 0 with cumulative masses p_0 + … + p_k ∈ [lower[k+1], upper[k+1]]; ``lower[0] ≤ 0 ≤
    upper[0]`` and ``lower[n] ≤ 1 ≤ upper[n]`` say whether the path may start at 0 and end at 1 (n = len(q)).

    The program runs on exact rationals (every mpf is one): the taut string's heights are rational interpolations
    of the gates' ends, so its μ' is exactly feasible; its value (upper bound) and the dual value at the multipliers
    its slopes give (lower bound, weak duality) are Arb balls. Where every input is an exact rational
    (``flint.fmpq``) the gates are the laws' own and the bounds are ``certified``; otherwise (mpf gates) the
    gates' rounding is allowed for by a slack of a few units in the last place and nothing is certified.
    """
    a = check_order(alpha)
    n = len(q)
    if len(lower) != n + 1 or len(upper) != n + 1:
        raise InvalidParameter(f"gate_program needs n + 1 = {n + 1} gates, got {len(lower)} and {len(upper)}")
    exact = all(isinstance(v, fmpq) for v in (*q, *lower, *upper))
    # masses summed at working precision reach 1 within the slack
    slack = exact_rational(0) if exact else exact_rational(mpmath.mpf(10) ** (-mpmath.mp.dps + 5))
    return _taut_string([exact_rational(v) for v in q], [exact_rational(v) for v in lower], [exact_rational(v) for v in upper],
                        exact_rational(a), slack, exact)


def _taut_string(q: list, lower: list, upper: list, alpha, slack, certified: bool) -> ShiftedBounds:
    """:func:`gate_program` on exact rationals (``alpha`` too)."""
    n = len(q)
    lo = [max(v, 0) for v in lower]
    hi = [min(v, 1) for v in upper]
    infeasible = ShiftedBounds(mpmath.inf, mpmath.inf, certified=certified)
    if not (lo[0] <= slack and hi[n] >= 1 - slack):
        return infeasible
    lo[0] = hi[0] = exact_rational(0)
    lo[n] = hi[n] = exact_rational(1)
    # Cells of no ν-mass carry no μ'-mass: their two gates merge into one.
    xs, glo, ghi, cells = [exact_rational(0)], [lo[0]], [hi[0]], []
    cum = exact_rational(0)
    for k in range(n):
        if q[k] > 0:
            cum += q[k]
            xs.append(cum)
            glo.append(lo[k + 1])
            ghi.append(hi[k + 1])
            cells.append(q[k])
        else:
            glo[-1], ghi[-1] = max(glo[-1], lo[k + 1]), min(ghi[-1], hi[k + 1])
    glo[-1] = ghi[-1] = exact_rational(1)
    if any(l_ > h_ + slack for l_, h_ in zip(glo, ghi)):
        return infeasible
    ghi = [max(h_, l_) for l_, h_ in zip(glo, ghi)]
    if all(l_ <= x + slack and x <= h_ + slack for x, l_, h_ in zip(xs, glo, ghi)):
        # μ' = ν is in the ball (the diagonal runs through every gate): the infimum is R_α(ν‖ν) = 0 exactly.
        zero = mpmath.mpf(0)
        return ShiftedBounds(zero, zero, tuple(_mpf_of_rational(v) for v in q), (arb(0), arb(0)), certified)
    bends = _bends(xs, glo, ghi)
    heights = [None] * len(xs)
    for (k0, s0), (k1, s1) in pairwise(bends):
        y0 = glo[k0] if s0 == "lo" else ghi[k0]
        y1 = glo[k1] if s1 == "lo" else ghi[k1]
        for k in range(k0, k1 + 1):
            y = y0 + (y1 - y0) * (xs[k] - xs[k0]) / (xs[k1] - xs[k0])
            heights[k] = min(max(y, glo[k]), ghi[k])   # on the gate (exactly, unless a bend was mislocated)
    heights[0], heights[-1] = exact_rational(0), exact_rational(1)
    for k in range(1, len(heights)):   # monotone, so that every mass is ≥ 0 (gates' ends are CDF values)
        heights[k] = max(heights[k], heights[k - 1])
    p = [heights[k + 1] - heights[k] for k in range(len(cells))]
    with arb_precision(mpmath.mp.prec + GUARD_BITS):
        a = arb(alpha)
        ratio = [arb(pk / qk) for pk, qk in zip(p, cells)]
        powered = [r ** a if pk > 0 else arb(0) for r, pk in zip(ratio, p)]            # (p_i/q_i)^α
        primal = sum((arb(qk) * x for qk, x in zip(cells, powered)), arb(0))
        # Dual (weak duality, any s_i ≥ 0): Σ q φ(p/q) ≥ Σ_i s_i p_i − q_i φ*(s_i) with φ(t) = t^α, and
        # Σ_i s_i p_i = s_last + Σ_k (s_{k−1} − s_k) C_{k−1} with C_{k−1} in its gate; at s_i = α (p_i/q_i)^{α−1}
        # φ*(s_i) = (α − 1)(p_i/q_i)^α. A coefficient of unknown sign takes the lesser of the gate's two ends.
        s = [a * r ** (a - 1) if pk > 0 else arb(0) for r, pk in zip(ratio, p)]
        dual = s[-1] - (a - 1) * primal
        for k in range(1, len(cells)):
            coefficient = s[k - 1] - s[k]
            dual += (coefficient * arb(glo[k])).min(coefficient * arb(ghi[k]))
        upper_ball = primal.log() / (a - 1)
        lower_ball = dual.log() / (a - 1) if dual > 0 else arb(0)
        lower_value = max(mpf_down(lower_ball.lower()), mpmath.mpf(0))   # (the ends are exact at this precision)
        upper_value = max(mpf_up(upper_ball.upper()), mpmath.mpf(0))
    masses, it = [], iter(p)
    for qk in q:
        masses.append(_mpf_of_rational(next(it)) if qk > 0 else mpmath.mpf(0))
    return ShiftedBounds(lower_value, upper_value, tuple(masses), (lower_ball, upper_ball), certified)


def _exact_gates(mu: AtomicLaw, nu: AtomicLaw, d) -> tuple | None:
    """The gates of :func:`shifted_renyi` from the exact atoms and an exact shift ``d`` (an fmpq, or an Arb ball
    around an irrational shift), exactly: μ((−∞, y − d)) and μ((−∞, y + d)] by the signs of y ∓ d − x. None where a
    ball cannot decide a sign (the shift equal to a distance between atoms, to the ball's width)."""
    def mass(y, sign_of, strict: bool):
        total = exact_rational(0)
        for x, p in mu.exact:
            s = _sign(sign_of(y, x))
            if s is None:
                raise ArithmeticError
            if s > 0 or (s == 0 and not strict):
                total += p
        return total

    def before(y):   # μ((−∞, y − d)): x < y − d
        return mass(y, lambda y_, x: y_ - d - x, True)

    def upto(y):     # μ((−∞, y + d]): x ≤ y + d
        return mass(y, lambda y_, x: y_ + d - x, False)

    y = [x for x, _ in nu.exact]
    n = len(y)
    try:
        lower = [before(y[0])] + [before(y[k + 1]) for k in range(n - 1)] + [exact_rational(1)]
        upper = [exact_rational(0)] + [upto(y[k]) for k in range(n - 1)] + [upto(y[-1])]
    except ArithmeticError:
        return None
    return lower, upper


def shifted_renyi(mu, nu: AtomicLaw, delta, alpha) -> ShiftedBounds:
    """R^(δ)_α(μ‖ν) for a finite ν and any μ with a CDF (an :class:`AtomicLaw`, or a continuous law): the program
    over μ' on ν's atoms y_0 < … < y_{n−1}, whose CDF is constant on [y_k, y_{k+1}), so that the criterion reads
    μ((−∞, y_{k+1} − δ)) ≤ C_k ≤ μ((−∞, y_k + δ]), with μ((−∞, y_0 − δ)) = 0 and μ((y_{n−1} + δ, ∞)) = 0 for a
    path that starts at 0 and ends at 1. The bounds agree to working precision (the taut string is optimal).

    Two atomic laws with exact atoms (:attr:`AtomicLaw.exact`) and an exact shift (a number, read as its mpf, or an
    Arb ball around an irrational one) give the gates exactly, and the bounds are **certified**. Otherwise
    positions are compared to working precision: y ± δ is widened by its own rounding, so that a shift equal to a
    distance between atoms (W∞ itself, say) reaches the atom whatever the last bit of y ± δ.
    """
    if isinstance(delta, arb):
        if delta < 0:
            raise InvalidParameter(f"the shift delta must be >= 0, got {delta}")
        exact, d = delta, mpf_of(delta.mid())
    else:
        d = _mpf_of_rational(delta) if isinstance(delta, fmpq) else to_mpf(delta, "delta")
        if d < 0:
            raise InvalidParameter(f"the shift delta must be >= 0, got {mpmath.nstr(d, 10)}")
        exact = exact_rational(delta if isinstance(delta, fmpq) else d)
    a = check_order(alpha)
    if isinstance(mu, AtomicLaw) and mu.exact is not None and nu.exact is not None:
        gates = _exact_gates(mu, nu, exact)
        if gates is not None:
            return _taut_string([p for _, p in nu.exact], *gates, exact_rational(a), exact_rational(0), True)
    cdf, before = _cdfs(mu)
    y = nu.points
    n = len(y)
    ulps = mpmath.mpf(10) ** (-mpmath.mp.dps + 3)

    def reach(x):   # δ widened by the rounding of x ± δ (none at all where δ = 0)
        return d + ulps * (abs(x) + d) if d > 0 else d

    lower = [before(y[0] - reach(y[0]))] + [before(y[k + 1] - reach(y[k + 1])) for k in range(n - 1)] + [1]
    upper = [mpmath.mpf(0)] + [cdf(y[k] + reach(y[k])) for k in range(n - 1)] + [cdf(y[-1] + reach(y[-1]))]
    return gate_program(nu.probs, [to_mpf(v) for v in lower], upper, alpha)


def _cdfs(mu) -> tuple:
    if isinstance(mu, AtomicLaw):
        return mu.cdf, mu.cdf_before
    if isinstance(mu, ContinuousDistribution):
        return mu.cdf, mu.cdf
    raise InvalidDistribution(f"a shifted divergence needs mu atomic or continuous, got {type(mu).__name__}")


def binned_lower_bound(mu: ContinuousDistribution, nu: ContinuousDistribution, delta, alpha,
                       edges: Sequence) -> ShiftedBounds:
    """A certified lower bound on R^(δ)_α(μ‖ν) for continuous laws: the finite program on the cells
    (−∞, e_1], (e_1, e_2], …, (e_m, ∞) with ν's cell masses and the gates F_μ(e − δ) ≤ C ≤ F_μ(e + δ) at every edge
    (data processing: the binned μ' of any feasible μ' is feasible for it). ``upper`` is the program's own value,
    which bounds nothing about the continuous problem: only ``lower`` is returned as meaningful (``upper`` = +∞)."""
    d = to_mpf(delta, "delta")
    if d < 0:
        raise InvalidParameter(f"the shift delta must be >= 0, got {mpmath.nstr(d, 10)}")
    e = sorted(to_mpf(x, "edge") for x in edges)
    cuts = [nu.cdf(x) for x in e]
    q = [cuts[0]] + [b - a_ for a_, b in pairwise(cuts)] + [nu.sf(e[-1])]
    lower = [mpmath.mpf(0)] + [mu.cdf(x - d) for x in e] + [mpmath.mpf(1)]
    upper = [mpmath.mpf(0)] + [mu.cdf(x + d) for x in e] + [mpmath.mpf(1)]
    bounds = gate_program(q, lower, upper, alpha)
    return ShiftedBounds(bounds.lower, mpmath.inf)


def translation_upper_bound(mu: ContinuousDistribution, nu: ContinuousDistribution, delta, alpha,
                            divergence: Callable, shifts: int = 9) -> tuple:
    """An upper bound on R^(δ)_α(μ‖ν): the least R_α(μ(· − s)‖ν) over ``shifts`` translations s evenly spread in
    [−δ, δ] (each is in the W∞ ball: W∞(μ, μ(· − s)) = |s|), measured by ``divergence(P, Q, α)`` (the engine's door,
    from the densities). Returns (the estimate, the best s)."""
    d = to_mpf(delta, "delta")
    candidates = [d * (2 * mpmath.mpf(k) / (shifts - 1) - 1) for k in range(shifts)] if d > 0 else [mpmath.mpf(0)]
    best = min(((divergence(mu.shifted(s), nu, alpha), s) for s in candidates), key=lambda es: es[0].value)
    return best


def shifted_renyi_estimate(P: AtomicLaw, Q: AtomicLaw, alpha, delta, *, method=Method.EXACT) -> Estimate:
    """R^(δ)_α(P‖Q) of two atomic laws as one estimate (the midpoint of the program's bounds, half their gap as its
    error): what the engine's door computes for ``Kind.SHIFTED_RENYI`` (arguments α, δ) between atomic laws.
    A check that needs one side only (an upper bound on a left side, a lower bound on a right side) asks
    :func:`shifted_renyi` for it.

    >>> shifted_renyi_estimate(AtomicLaw([0], [1]), AtomicLaw([0.5], [1]), 2, 0.5).value
    mpf('0.0')
    """
    if not (isinstance(P, AtomicLaw) and isinstance(Q, AtomicLaw)):
        raise InvalidDistribution(f"the shifted Rényi divergence is computed between atomic laws on the line, got "
                                  f"{type(P).__name__} and {type(Q).__name__}")
    return shifted_renyi(P, Q, delta, alpha).estimate()
