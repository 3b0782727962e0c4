"""Laws of one-dimensional projected noisy chains, X_{t+1} = Π_[low, high](Φ_t(X_t) + σ_t ξ_t), from a point start.

After one step the law is a Gaussian clipped to the interval (:class:`symdp.engine.projected.Projected`). From the
second step on it is atoms at ``low`` and ``high`` plus a density on (low, high):

    f_{t+1}(y) = A_low φ_σ(y − Φ(low)) + A_high φ_σ(y − Φ(high)) + ∫ f_t(x) φ_σ(y − Φ(x)) dx,
    A'_low = E[Φ_σ-tail below low],  A'_high = E[tail above high]  (Gaussian CDF tails of the same three parts).

:class:`ChainLaw` computes it by the Nyström method: the law is kept as its masses on a composite Gauss–Legendre
rule over (low, high) plus the two atoms (panels no wider than twice the smallest noise scale, divided by the maps'
slope where it exceeds 1; split at the maps' kinks and jumps; graded geometrically towards points where a map is not
Lipschitz), and one step is one matrix–vector product with the exact transition (Gaussian densities at the nodes,
Gaussian CDF tails at the ends). KL and Rényi divergences of two laws are the finite divergences of their masses,
i.e. the Gauss–Legendre quadrature of the integrals of the densities plus the atoms' terms exactly; the hockey-stick
divergence and TV, whose integrands have kinks, take the last step exactly instead (p − e^ε q after it is a sum of
Gaussians, integrated by its CDFs between its crossing points).

Two laws of the same chain (different starts) are propagated together as q and d = p − q (d by the same linear map),
and the divergences are evaluated from q and d/q with ``log1p`` and a series for g_α(x) = (1 + x)^α − 1 − αx, so that
nearly equal laws keep their digits (the naive p^α q^{1−α} loses them below R ≈ 1e-15; catalogue bravo §6). The
arithmetic is binary64 (the transition is N² Gaussian evaluations per step, N in the hundreds); the error reported
is the spread between two rules (6 nodes per panel, panels 3/2 narrower in the second) plus a rounding term
N·T·2⁻⁵²·100 relative, so it is an estimate from refinement, not an enclosure (``Method.QUADRATURE``, not
certified; a witness says so by returning it, and the verifier counts the draw as quantity-not-enclosed). Bounds
that are proved (a binned lower bound by data processing, an upper bound by joint convexity over a partition of
X_{T−1}) are not offered: the upper one conditions on the partition and so drops the last step's mixing (a factor
near T/(T − 1) on the random walk), far too wide to decide a bound these chains come within a few percent of.
The transitions are numpy matrices (built once per step, grid and interval); numpy is imported by the functions
that build them, not with the module, since every use of the engine imports this one (:mod:`symdp.engine.divergences`
dispatches on :class:`ChainLaw`) and most never build a chain.

Where one law has mass at nodes where the other's Gaussian tail is below the smallest normal double (laws ~38 noise
scales apart or more), the two laws are propagated again in logarithms (log-masses, log-sum-exp
steps, log CDF tails): Gaussian noise gives both laws positive densities everywhere, so the divergence is finite
(never +∞), and it is then computed from the log-masses (its error: the spread between the two rules plus the
log-sum-exp rounding, amplified by 1/(α − 1)).

>>> import mpmath
>>> # the unprojected linear chain X_{t+1} = 0.9 X_t + 0.3 ξ on a wide interval: N(0.9^T x0, 0.09 Σ 0.81^k), so
>>> # R_3 of the starts ±1/2 after T = 3 steps is 3 (0.9³)² / (2 · 0.09 (1 + 0.81 + 0.81²)) (closed form)
>>> # (the interval ±8 is wide enough that clipping changes R by less than 1e-20)
>>> chain = ProjectedChain((affine_step(0.9, 0, 0.3),) * 3, -8, 8)
>>> r = renyi(chain.law(0.5), chain.law(-0.5), 3)
>>> exact = 3 * 0.9 ** 6 / (2 * 0.09 * (1 + 0.81 + 0.81 ** 2))
>>> print(mpmath.nstr(mpmath.mpf(exact), 12), abs(r.value - exact) <= r.error < 1e-8, r.method)
3.59164267467 True quadrature
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

import mpmath

from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, Method
from symdp.numeric import check_order, to_mpf

if TYPE_CHECKING:
    import numpy as np

_SQRT2 = math.sqrt(2.0)
_SQRT2PI = math.sqrt(2.0 * math.pi)
_EPS = 2.0 ** -52
_TINY = sys.float_info.min
GRADING_LEVELS = 14
"""Panels of a graded run towards a non-Lipschitz point: widths w·4^{-k}, k < GRADING_LEVELS."""
RESOLUTIONS = ((2, 1.0), (2, 1.5))
"""The two rules compared: (mpmath Gauss–Legendre degree: 6 nodes per panel; panel refinement factor)."""


@dataclass(frozen=True)
class Step:
    """One transition x ↦ Π(Φ(x) + σξ): the map Φ (floats to floats), the noise scale σ, the points where Φ is not
    smooth (``breaks``), the points among them where Φ is not Lipschitz (``singular``: graded panels) and a bound on
    |Φ'| elsewhere (``slope``: the panels' width follows σ/slope)."""

    map: Callable[[float], float]
    sd: float
    breaks: tuple[float, ...] = ()
    singular: tuple[float, ...] = ()
    slope: float = 1.0
    name: str = field(default="", compare=False)

    def __post_init__(self):
        sd = float(to_mpf(self.sd, "sigma"))
        if not (math.isfinite(sd) and sd > 0):
            raise InvalidParameter(f"a noise scale sigma must be positive and finite, got {self.sd}")
        slope = float(to_mpf(self.slope, "slope"))
        if not (math.isfinite(slope) and slope > 0):
            raise InvalidParameter(f"a slope bound must be positive and finite, got {self.slope}")
        object.__setattr__(self, "sd", sd)
        object.__setattr__(self, "slope", slope)
        object.__setattr__(self, "breaks", tuple(float(to_mpf(b, "break")) for b in self.breaks))
        object.__setattr__(self, "singular", tuple(float(to_mpf(b, "break")) for b in self.singular))


def affine_step(slope, shift, sd) -> Step:
    """Φ(x) = slope·x + shift (the gradient step of a quadratic; modulus |slope|·δ)."""
    a, b = float(to_mpf(slope, "slope")), float(to_mpf(shift, "shift"))
    return Step(lambda x: a * x + b, sd, slope=max(abs(a), 1e-3), name=f"{a}x + {b}")


def subgradient_step(step, sd) -> Step:
    """Φ(x) = x − s·sign(x), the subgradient step of f = L|x| with s = ηL (modulus sqrt(δ² + (2s)²)): a jump at 0."""
    s = float(to_mpf(step, "eta L"))
    if not s >= 0:
        raise InvalidParameter(f"the step eta L must be nonnegative, got {step}")
    return Step(lambda x: x - s * ((x > 0) - (x < 0)), sd, breaks=(0.0,), name=f"x - {s} sign(x)")


def weakly_smooth_step(eta, weight, p, sd) -> Step:
    """Φ(x) = x − η w sign(x)|x|^p, the gradient step of f = w|x|^{1+p}/(1+p), which is (p, 2^{1−p} w)-weakly smooth:
    a kink at 0 where Φ is not Lipschitz for p < 1."""
    e, w, q = (float(to_mpf(v, name)) for v, name in ((eta, "eta"), (weight, "w"), (p, "p")))
    if not (e > 0 and w > 0 and 0 <= q <= 1):
        raise InvalidParameter(f"a weakly smooth step needs eta > 0, w > 0, p in [0, 1]; got {eta}, {weight}, {p}")
    return Step(lambda x: x - e * w * math.copysign(abs(x) ** q, x) if x else 0.0, sd, breaks=(0.0,),
                singular=(0.0,) if q < 1 else (), slope=1 + e * w, name=f"x - {e * w} sign(x)|x|^{q}")


@dataclass(frozen=True)
class ProjectedChain:
    """The chain X_{t+1} = Π_[low, high](Φ_t(X_t) + σ_t ξ_t), t < T = len(steps)."""

    steps: tuple[Step, ...]
    low: float
    high: float

    def __init__(self, steps, low, high):
        steps = tuple(steps)
        if not steps or not all(isinstance(s, Step) for s in steps):
            raise InvalidParameter("a projected chain needs at least one Step (affine_step, subgradient_step, ...)")
        lo, hi = float(to_mpf(low, "low end")), float(to_mpf(high, "high end"))
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise InvalidDistribution(f"a projection needs an interval low < high, got [{low}, {high}]")
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "low", lo)
        object.__setattr__(self, "high", hi)

    def law(self, x0) -> "ChainLaw":
        """The law of X_T from X_0 = x0."""
        return ChainLaw(self, x0)


@dataclass(frozen=True)
class ChainLaw:
    """The law of X_T of ``chain`` from the point ``start``: atoms at the ends and a density between."""

    chain: ProjectedChain
    start: float

    def __init__(self, chain, start):
        if not isinstance(chain, ProjectedChain):
            raise InvalidParameter(f"a chain law needs a ProjectedChain, got {type(chain).__name__}")
        x0 = float(to_mpf(start, "start"))
        if not math.isfinite(x0):
            raise InvalidParameter(f"a start must be finite, got {start}")
        object.__setattr__(self, "chain", chain)
        object.__setattr__(self, "start", x0)

    def masses(self, level: int = 1) -> tuple[tuple, list]:
        """(nodes with weights, masses): the Nyström rule of resolution ``level`` (0 or 1) over the interval, and the
        law's masses [A_low, w_1 f(x_1), ..., w_N f(x_N), A_high]."""
        grid = _grid(_grid_key(self.chain, self.chain), level)
        return grid, _propagate(self.chain, grid, [self.start])[0]

    def atoms(self) -> tuple[float, float]:
        """The masses at ``low`` and ``high``, at the finer resolution."""
        m = self.masses(1)[1]
        return m[0], m[-1]

    def density(self, y) -> float:
        """f_T(y) for low < y < high: the last transition applied to the law of X_{T-1} (Nyström interpolation)."""
        y = float(to_mpf(y, "y"))
        chain = self.chain
        if not chain.low < y < chain.high:
            raise InvalidParameter(f"the density lives on ({chain.low}, {chain.high}), got y = {y}")
        *head, last = chain.steps
        if not head:
            return _normal_pdf(y - last.map(self.start), last.sd)
        earlier = ProjectedChain(head, chain.low, chain.high)
        grid = _grid(_grid_key(chain, chain), 1)
        m = _propagate(earlier, grid, [self.start])[0]
        return math.fsum(mass * _normal_pdf(y - last.map(z), last.sd) for mass, z in zip(m, _sources(grid, chain)))


def _normal_pdf(z: float, sd: float) -> float:
    return math.exp(-0.5 * (z / sd) ** 2) / (_SQRT2PI * sd)


def _normal_cdf(z: float) -> float:
    return 0.5 * math.erfc(-z / _SQRT2)


@lru_cache(maxsize=8)
def _legendre(degree: int) -> tuple[tuple[float, float], ...]:
    """Gauss–Legendre nodes and weights on [-1, 1] (mpmath's, to 53 bits)."""
    rule = mpmath.calculus.quadrature.GaussLegendre(mpmath.mp)
    return tuple((float(x), float(w)) for x, w in rule.calc_nodes(degree, 80))


def _grid_key(*chains: ProjectedChain) -> tuple:
    """What the rule depends on: the interval, all breaks and singular points inside it, and the panel width."""
    lo, hi = chains[0].low, chains[0].high
    steps = [s for ch in chains for s in ch.steps]
    inside = lambda pts: tuple(sorted({b for b in pts if lo < b < hi}))  # noqa: E731
    width = 2 * min(s.sd / max(s.slope, 1.0) for s in steps)
    return lo, hi, inside(b for s in steps for b in (*s.breaks, *s.singular)), inside(
        b for s in steps for b in s.singular), width


@lru_cache(maxsize=64)
def _grid(key: tuple, level: int) -> tuple[tuple[float, float], ...]:
    """The composite rule [(node, weight), ...] of resolution ``level`` for a grid key."""
    lo, hi, breaks, singular, width = key
    degree, refine = RESOLUTIONS[level]
    width /= refine
    edges = [lo, *breaks, hi]
    panels = []
    for a, b in zip(edges, edges[1:]):
        n = max(1, math.ceil((b - a) / width))
        cuts = [a + (b - a) * k / n for k in range(n + 1)]
        # graded towards a non-Lipschitz end: the first and last panels split geometrically
        if a in singular:
            first = cuts[1] - a
            cuts = [a] + [a + first * 4.0 ** -k for k in range(GRADING_LEVELS - 1, 0, -1)] + cuts[1:]
        if b in singular:
            last = b - cuts[-2]
            cuts = cuts[:-1] + [b - last * 4.0 ** -k for k in range(1, GRADING_LEVELS)] + [b]
        panels += list(zip(cuts, cuts[1:]))
    return tuple(((a + b) / 2 + (b - a) / 2 * x, (b - a) / 2 * w)
                 for a, b in panels for x, w in _legendre(degree))


def _sources(grid, chain) -> list[float]:
    return [chain.low, *(x for x, _ in grid), chain.high]


@lru_cache(maxsize=64)
def _nodes(grid: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The rule's nodes and weights as arrays (read-only)."""
    import numpy as np

    nodes, weights = np.array([x for x, _ in grid]), np.array([w for _, w in grid])
    nodes.flags.writeable = weights.flags.writeable = False
    return nodes, weights


@lru_cache(maxsize=16)
def _transition(step: Step, grid: tuple, low: float, high: float) -> np.ndarray:
    """The transition on [A_low, nodes, A_high] as a matrix whose column j is, for the source z_j, [P(below low),
    w_i φ_σ(x_i − Φ(z_j)), P(above high)]: one step is one matrix–vector product."""
    import numpy as np

    centres = np.array([step.map(z) for z in [low, *(x for x, _ in grid), high]], dtype=float)
    matrix = _columns(step, grid, low, high, centres)
    matrix.flags.writeable = False
    return matrix


def _columns(step: Step, grid, low, high, centres: np.ndarray) -> np.ndarray:
    """The columns of :func:`_transition` for the given centres Φ(z_j), as a matrix (the densities vectorised; the
    tails by ``math.erfc``, which keeps their relative precision far out)."""
    import numpy as np

    sd = step.sd
    nodes, weights = _nodes(grid)
    z = (nodes[:, None] - centres[None, :]) / sd
    middle = weights[:, None] * (np.exp(-0.5 * z * z) / (_SQRT2PI * sd))
    below = [_normal_cdf((low - c) / sd) for c in centres.tolist()]
    above = [_normal_cdf((c - high) / sd) for c in centres.tolist()]
    return np.vstack([np.array(below)[None, :], middle, np.array(above)[None, :]])


def _column(step: Step, grid, low, high, centre: float) -> np.ndarray:
    import numpy as np

    return _columns(step, grid, low, high, np.array([float(centre)]))[:, 0]


def _column_difference(step: Step, grid, low, high, first: float, second: float) -> np.ndarray:
    """The column at ``first`` minus the column at ``second``, without the cancellation of subtracting them where the
    centres are close: inside, q·expm1(t) with t = (c₁ − c₂)(2x − c₁ − c₂)/(2σ²) the log-ratio of the two
    densities (c₁ − c₂ exact for close doubles); the atoms, differences of normal CDFs at 200 bits from the exact
    doubles. Where |t| ≥ 1 nothing cancels and the plain difference is kept (it also covers a q that underflows)."""
    import numpy as np

    sd = step.sd
    p, q = _column(step, grid, low, high, first), _column(step, grid, low, high, second)
    out = p - q
    nodes, _ = _nodes(grid)
    t = (first - second) * (2 * nodes - first - second) / (2 * sd * sd)
    close = np.flatnonzero(np.abs(t) < 1)
    out[1 + close] = q[1 + close] * np.expm1(t[close])
    with mpmath.workprec(200):
        lo, hi, s1, s2, sig = (mpmath.mpf(v) for v in (low, high, first, second, sd))
        out[0] = float(mpmath.ncdf((lo - s1) / sig) - mpmath.ncdf((lo - s2) / sig))
        out[-1] = float(mpmath.ncdf((s1 - hi) / sig) - mpmath.ncdf((s2 - hi) / sig))
    return out


def _propagate(chain: ProjectedChain, grid, starts: list[float], joint: bool = False) -> list[list[float]]:
    """The masses of X_T from each start; with ``joint`` (two starts), [q, d = p − q] instead of [p, q]: d goes
    through the same linear steps, so it is never the difference of two nearly equal vectors (at step 1 it is
    computed from the log-ratio of the two Gaussians, :func:`_column_difference`)."""
    first = chain.steps[0]
    if joint:
        p_centre, q_centre = (float(first.map(x0)) for x0 in starts)
        vectors = [_column(first, grid, chain.low, chain.high, q_centre),
                   _column_difference(first, grid, chain.low, chain.high, p_centre, q_centre)]
    else:
        vectors = [_column(first, grid, chain.low, chain.high, first.map(x0)) for x0 in starts]
    for step in chain.steps[1:]:
        matrix = _transition(step, grid, chain.low, chain.high)
        vectors = [matrix @ v for v in vectors]
    return [v.tolist() for v in vectors]


def _common_grid(P: ChainLaw, Q: ChainLaw, level: int):
    """The rule of ``level`` on which two chain laws are compared: both must be chain laws on one interval."""
    for law in (P, Q):
        if not isinstance(law, ChainLaw):
            raise InvalidDistribution(f"a chain law is compared with a chain law, got {type(law).__name__}")
    if (P.chain.low, P.chain.high) != (Q.chain.low, Q.chain.high):
        raise InvalidDistribution(f"chain laws on [{P.chain.low}, {P.chain.high}] and [{Q.chain.low}, "
                                  f"{Q.chain.high}] live on different spaces")
    return _grid(_grid_key(P.chain, Q.chain), level)


def _pair(P: ChainLaw, Q: ChainLaw, level: int) -> tuple[list[float], list[float]]:
    """(q, d) of P and Q at resolution ``level``, normalised to total masses 1 (the rule's quadrature error in the
    totals is part of the spread between levels)."""
    grid = _common_grid(P, Q, level)
    if P.chain == Q.chain:
        q, d = _propagate(P.chain, grid, [P.start, Q.start], joint=True)
    else:
        (p,), (q,) = _propagate(P.chain, grid, [P.start]), _propagate(Q.chain, grid, [Q.start])
        d = [a - b for a, b in zip(p, q)]
    total_q, total_d = math.fsum(q), math.fsum(d)
    total_p = total_q + total_d
    return [x / total_q for x in q], [(y - x * total_d / total_q) / total_p for x, y in zip(q, d)]


def _g_series(x: float, a: float) -> float:
    """(1 + x)^a − 1 − a x for |x| < 1e-3, by its binomial series to x^8."""
    coef, power, total = a, x, 0.0
    for k in range(2, 9):
        coef *= (a - k + 1) / k
        power *= x
        total += coef * power
    return total


def _g(x: float, a: float) -> float:
    if abs(x) < 1e-3:
        return _g_series(x, a)
    return math.expm1(a * math.log1p(x)) - a * x if x > -1 else -1 + a


def _kl_term(q: float, x: float) -> float:
    """q((1 + x) log(1 + x) − x), by the series Σ (−x)^k/(k(k−1)) for |x| < 1e-3, else as p log(1 + x) − d with
    p = q(1 + x), d = qx (so that a huge x, q tiny, does not overflow)."""
    if abs(x) < 1e-3:
        return q * math.fsum((-x) ** k / (k * (k - 1)) for k in range(2, 9))
    return (q + q * x) * math.log1p(x) - q * x if x > -1 else q


def _refined(run: Callable[[int], tuple[float, float]]) -> Estimate:
    """The finer rule's value; the error is the spread between the two rules plus the larger rounding estimate."""
    (coarse, rough), (fine, rounding) = run(0), run(1)
    return Estimate(mpmath.mpf(fine), mpmath.mpf(abs(fine - coarse)) + mpmath.mpf(max(rounding, rough)),
                    Method.QUADRATURE)


def _rounding(P: ChainLaw, n: int, scale: float) -> float:
    return 100 * n * len(P.chain.steps) * _EPS * scale


def _ratios(q, d) -> tuple[list, bool]:
    """(q, d/q) over the nodes where q > 0, and whether p has mass where q underflowed (to 0, or to a subnormal with
    p above twice it: d/q has then lost its digits). Gaussian noise puts mass everywhere, so that is rounding: the
    divergence is finite, and computed from log-masses instead (:func:`_log_pair`)."""
    out, lost = [], False
    for x, y in zip(q, d):
        if x >= _TINY or (x > 0 and y <= x):
            out.append((x, max(y / x, -1.0)))
        elif y > 0:
            lost = True
    return out, lost


def _log_cdf(z: float) -> float:
    """log Φ(z), also where Φ(z) underflows a double (mpmath's erfc below z = −30)."""
    if z > -30:
        return math.log(_normal_cdf(z))
    return float(mpmath.log(mpmath.ncdf(z)))


def _log_columns(step: Step, grid, low, high, centres: np.ndarray) -> np.ndarray:
    """The logarithms of :func:`_columns`, computed as such (nothing underflows)."""
    import numpy as np

    sd, norm = step.sd, math.log(_SQRT2PI * step.sd)
    nodes, weights = _nodes(grid)
    z = (nodes[:, None] - centres[None, :]) / sd
    middle = np.log(weights)[:, None] - 0.5 * z * z - norm
    below = [_log_cdf((low - c) / sd) for c in centres.tolist()]
    above = [_log_cdf((c - high) / sd) for c in centres.tolist()]
    return np.vstack([np.array(below)[None, :], middle, np.array(above)[None, :]])


@lru_cache(maxsize=4)
def _log_transition_rows(step: Step, grid: tuple, low: float, high: float) -> np.ndarray:
    """The log transition as a matrix: row i holds log P(z_j -> node i) over the sources z_j."""
    import numpy as np

    centres = np.array([step.map(z) for z in [low, *(x for x, _ in grid), high]], dtype=float)
    matrix = _log_columns(step, grid, low, high, centres)
    matrix.flags.writeable = False
    return matrix


def _log_sum(terms) -> float:
    top = max(terms)
    if top == -math.inf:
        return top
    return top + math.log(math.fsum(math.exp(t - top) for t in terms))


def _log_masses(law: ChainLaw, grid) -> list[float]:
    """The log-masses of X_T on [A_low, nodes, A_high], propagated by log-sum-exp (nothing underflows), normalised."""
    import numpy as np

    chain = law.chain
    first = chain.steps[0]
    v = _log_columns(first, grid, chain.low, chain.high, np.array([float(first.map(law.start))]))[:, 0]
    for step in chain.steps[1:]:
        terms = _log_transition_rows(step, grid, chain.low, chain.high) + v[None, :]
        top = terms.max(axis=1)
        finite = np.isfinite(top)
        safe = np.where(finite, top, 0.0)
        with np.errstate(divide="ignore"):   # a row of -inf stays -inf (its top), whatever the other branch says
            v = np.where(finite, safe + np.log(np.exp(terms - safe[:, None]).sum(axis=1)), top)
    total = _log_sum(v.tolist())
    return [x - total for x in v.tolist()]


def _log_pair(P: ChainLaw, Q: ChainLaw, level: int) -> tuple[list[float], list[float]]:
    """(log p, log q) of P and Q at resolution ``level``, each normalised."""
    grid = _common_grid(P, Q, level)
    return _log_masses(P, grid), _log_masses(Q, grid)


RESOLVED_JUMP = 3.0
"""Where the log-integrand changes by more than this between neighbouring nodes of the rule, in the part of the sum
that matters (within e^{-30} of its total), Gauss–Legendre panels do not resolve it (a steep e^{ky} near an end:
large α between far-apart laws), and the spread between two such rules does not measure their error."""


def _resolved(terms: list[float], total: float) -> bool:
    """Whether the interior terms (log q(1 + d/q)^α or log p, at the rule's nodes in order) that carry the sum vary
    slowly enough from node to node for the rule to resolve them."""
    inner = terms[1:-1]
    return all(abs(b - a) <= RESOLVED_JUMP for a, b in zip(inner, inner[1:]) if max(a, b) > total - 30)


def _rounding_logs(P: ChainLaw, n: int, value: float, spread: float) -> float:
    """The rounding of a divergence from log-masses: each log-mass is a log-sum-exp per step, good to a few ulps of
    its magnitude; ``spread`` is the divergence's first-order sensitivity to those relative errors."""
    return 100 * n * len(P.chain.steps) * _EPS * (abs(value) + spread)


def renyi(P: ChainLaw, Q: ChainLaw, alpha, *, method=Method.QUADRATURE) -> Estimate:
    """R_α(P‖Q) = log1p(Σ q g_α(d/q))/(α − 1) over the atoms and the nodes (α ∈ (1, ∞))."""
    a = float(check_order(alpha))
    if math.isinf(a):
        raise InvalidParameter("the max divergence of chain laws is not computed; give a finite alpha")

    def run(level):
        q, d = _pair(P, Q, level)
        pairs, lost = _ratios(q, d)
        logs = [math.log(x) + a * math.log1p(r) for x, r in pairs if r > -1]
        if lost or not logs:   # p has mass where q underflowed: the laws are far apart, nothing cancels
            lp, lq = _log_pair(P, Q, level)
            terms = [a * x + (1 - a) * y for x, y in zip(lp, lq)]
            total = _log_sum(terms)
            value = total / (a - 1)
            if not _resolved(terms, total):
                return value, math.inf
            weights = [math.exp(t - total) for t in terms]
            spread = math.fsum(w * (a * abs(x) + (a - 1) * abs(y)) for w, x, y in zip(weights, lp, lq)) / (a - 1)
            return value, _rounding_logs(P, len(q), value, spread)
        top = max(logs)
        if top > 600:   # laws far apart: nothing cancels, and the terms q(1 + x)^α would overflow a double
            value = _log_sum(logs) / (a - 1)
        else:
            value = math.log1p(math.fsum(x * _g(r, a) for x, r in pairs)) / (a - 1)
        return value, _rounding(P, len(q), value + 1e-300)

    return _refined(run)


def kl(P: ChainLaw, Q: ChainLaw, *, method=Method.QUADRATURE) -> Estimate:
    """KL(P‖Q) = Σ q ((1 + x) log1p(x) − x), x = d/q, over the atoms and the nodes."""
    def run(level):
        q, d = _pair(P, Q, level)
        pairs, lost = _ratios(q, d)
        if lost:   # p has mass where q underflowed: KL = Σ p (log p − log q) from the log-masses
            lp, lq = _log_pair(P, Q, level)
            p = [math.exp(x) for x in lp]
            value = math.fsum(w * (x - y) for w, x, y in zip(p, lp, lq))
            if not _resolved(lp, 0.0):
                return value, math.inf
            spread = math.fsum(w * (abs(x) + abs(y)) for w, x, y in zip(p, lp, lq))
            return value, _rounding_logs(P, len(q), value, spread)
        value = math.fsum(_kl_term(x, r) for x, r in pairs)
        return value, _rounding(P, len(q), value + 1e-300)

    return _refined(run)


def _normalised(masses: list[float]) -> list[float]:
    total = math.fsum(masses)
    return [m / total for m in masses]


def _difference_components(P: ChainLaw, Q: ChainLaw, level: int, growth: float) -> list[tuple[float, float, float]]:
    """p − e^ε q (growth = e^ε − 1) as a sum of Gaussians (coefficient, mean, sd), exactly after the last step: the
    laws of X_{T−1} (by the rule of ``level``; the starts themselves when T = 1), normalised, pushed through the last
    map, with the noise left as Gaussians. Same chain: coefficients d − growth·q from the jointly propagated (q, d)."""
    grid = _common_grid(P, Q, level)

    def before_last(law):
        *head, last = law.chain.steps
        if not head:
            return [law.start], [1.0], last
        earlier = ProjectedChain(head, law.chain.low, law.chain.high)
        return _sources(grid, law.chain), _normalised(_propagate(earlier, grid, [law.start])[0]), last

    if P.chain == Q.chain and len(P.chain.steps) > 1:
        *head, last = P.chain.steps
        earlier = ProjectedChain(head, P.chain.low, P.chain.high)
        q, d = _propagate(earlier, grid, [P.start, Q.start], joint=True)
        total_q, total_d = math.fsum(q), math.fsum(d)
        q, d = [x / total_q for x in q], [(y - x * total_d / total_q) / (total_q + total_d) for x, y in zip(q, d)]
        return [(y - growth * x, last.map(z), last.sd) for x, y, z in zip(q, d, _sources(grid, P.chain))]
    (zp, mp, lp), (zq, mq, lq) = before_last(P), before_last(Q)
    return ([(m, lp.map(z), lp.sd) for m, z in zip(mp, zp)]
            + [(-(1 + growth) * m, lq.map(z), lq.sd) for m, z in zip(mq, zq)])


def _mass_below(components, y: float) -> float:
    return math.fsum(k * _normal_cdf((y - m) / s) for k, m, s in components)


def _positive_part(components, low: float, high: float, probes) -> float:
    """∫ over (low, high) of g_+ for g = Σ k φ_s(y − m), and the atoms' (Σ k·tail)_+ at both ends: g's sign changes
    between the probes are found by bisection on g, and g is integrated exactly (Gaussian CDFs) where positive."""
    import numpy as np

    ks, ms, ss = (np.array(column, dtype=float) for column in zip(*components))
    scale = ks / (_SQRT2PI * ss)

    def values(ys: np.ndarray) -> np.ndarray:
        z = (ys[:, None] - ms[None, :]) / ss[None, :]
        return (scale[None, :] * np.exp(-0.5 * z * z)).sum(axis=1)

    g = lambda y: float(values(np.array([y]))[0])  # noqa: E731
    points = [low, *sorted(y for y in probes if low < y < high), high]
    signs = values(np.array(points)).tolist()
    cuts = [low]
    for a, b, ga, gb in zip(points, points[1:], signs, signs[1:]):
        if (ga > 0) != (gb > 0):
            for _ in range(80):
                mid = (a + b) / 2
                if mid in (a, b):
                    break
                if (g(mid) > 0) == (ga > 0):
                    a = mid
                else:
                    b = mid
            cuts.append((a + b) / 2)
    cuts.append(high)
    below = [_mass_below(components, y) for y in cuts]
    interior = math.fsum(hi - lo for lo, hi, a, b in zip(below, below[1:], cuts, cuts[1:]) if g((a + b) / 2) > 0)
    upper_tail = math.fsum(k * _normal_cdf((m - high) / s) for k, m, s in components)
    return max(below[0], 0.0) + max(upper_tail, 0.0) + max(interior, 0.0)


def hockey_stick(P: ChainLaw, Q: ChainLaw, eps, *, method=Method.QUADRATURE) -> Estimate:
    """D_{e^ε}(P‖Q) = Σ_ends (p − e^ε q)_+ + ∫ (p − e^ε q)_+ (ε of any sign). The last step is done exactly: p − e^ε q
    is a sum of Gaussians pushed through it, integrated by its CDFs between the crossing points (found by bisection),
    so the kinks of (·)_+ never meet a quadrature rule; the earlier steps are the Nyström rules'."""
    e = float(to_mpf(eps, "eps"))
    if not math.isfinite(e):
        raise InvalidParameter(f"eps must be finite, got {eps}")
    growth = math.expm1(e)

    def run(level):
        components = _difference_components(P, Q, level, growth)
        probes = [x for x, _ in _grid(_grid_key(P.chain, Q.chain), level)]
        value = _positive_part(components, P.chain.low, P.chain.high, probes)
        return value, _rounding(P, len(components), value + 1e-300)

    return _refined(run)


def tv(P: ChainLaw, Q: ChainLaw, *, method=Method.QUADRATURE) -> Estimate:
    """TV(P, Q): the hockey-stick divergence at ε = 0."""
    return hockey_stick(P, Q, 0)
