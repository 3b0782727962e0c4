"""Certified privacy accounting: δ(ε) and ε(δ) of composed mechanisms, from their privacy-loss distributions.

For a pair of product laws (:mod:`symdp.engine.products`) the privacy loss is the sum of the coordinates'
independent losses, and δ(ε) = E_P[(1 − e^{ε − L})_+] (the P-mass of infinite loss included, where the integrand
is 1). Each coordinate's loss is *binned* on the grid ℓ_j = j·h: bin j holds the outcomes with ℓ_j ≤ L < ℓ_{j+1},
and its P- and Q-masses are computed from the laws (CDF differences at the exact level points of a monotone loss, in
Arb); where the loss has little mass, consecutive bins are grouped into one (:data:`GROUPING`: any partition gives
certified bounds, a coarse one in the tails costs the bracket little). Two discrete pairs are built from the bins and
composed in ball arithmetic, where a float64 FFT carries no error bound: each coordinate's laws are transformed once
(python-flint's ``acb.dft``) on a window of indices outside which certified Chernoff bounds leave less than the tail
asked, raised to their counts and multiplied across coordinates frequency by frequency; the frequencies whose
composed value is certified negligible are dropped, and the sums δ needs are read off the spectrum as geometric
series (:class:`_Spectrum`, each kept for the ε(δ) search that asks for it again), never transformed back. Where the
window is long and the frequencies kept a narrow band about 0, the window's transform is not computed in full
(:func:`_sampled`): the band is found from a transform on a coarser circle (each dropped frequency bounded from its
nearest sample by Taylor's theorem, with the law's derivative there and its second moment), and the values in the
band are computed from the laws' moments in blocks (a Taylor series of e^{−iθt} within each block, its remainder
carried in the ball, :func:`_band`):

* **upper**: each bin's masses (p_j, q_j) are split between the bin's two ends so that both masses are kept
  (Doroshenko et al. 2022, "connect the dots"). Merging the two atoms gives back the bin, so the split pair
  dominates the binned pair; and a bin's outcomes, whose losses lie between the two ends, are a post-processing of
  it too (each outcome's (p, q) splits the same way). Domination is kept by products: the composed split pair's
  δ(ε) is an upper bound;
* **lower**: the laws of the summed bin index T = Σ j_i under P and under Q. T is a post-processing of the outcome,
  so δ_T(ε) = Σ_t (P(T = t) − e^ε Q(T = t))_+ ≤ δ(ε) (data processing).

Both errors are of order k·h² (the spread of the rounding, not a bias of order k·h as in rounding the losses one way,
Meiser and Mohammadi's privacy buckets), so the bracket narrows about four times when h halves; it is narrowed until
the relative width asked for is reached. What the transforms get wrong is accounted for: the mass left out (outside
the window) is added to the upper bound (the integrand is at most 1) and, through its Q-mass, subtracted from the
lower one; the mass the cyclic transform folds into the window is subtracted from the lower bound's P-side; the
dropped frequencies move each sum by at most a set share of the tail, carried in its ball. A coordinate's loss beyond the binned range goes to the end
bins (lower: a coarser partition is still a post-processing) and, for the upper pair, to the top end and to +∞ with
the bin's two masses kept.

The choices these steps make (a Chernoff bound's λ, the coarser circle's size, a law's centre) are made in floats,
from the masses' midpoints; every bound is computed in balls.

Laws on ℤ whose losses lie on one lattice (:func:`symdp.engine.integers.loss_lattice`) need no bins: their composed
loss law is computed the same way, and the bracket is exact up to the working precision (:func:`lattice_estimate`).
ε(δ) of one continuous pair is the certified root of its profile (:func:`epsilon_root`).

>>> from symdp.engine.continuous import Gaussian, Mixture
>>> from symdp.engine.products import compose
>>> P, Q = Mixture(0.5, Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1)
>>> est = hockey_stick(compose(10, P), compose(10, Q), 1, width=1e-4)
>>> est.certified, est.error <= 1e-4 * est.value
(True, True)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import mpmath
from flint import acb, acb_poly, arb, arb_mat, arb_poly, ctx

from symdp.engine import integers
from symdp.engine.continuous import Gaussian, Laplace, Mixture
from symdp.engine.gaussian_sums import GaussianSum
from symdp.engine.products import Product, coordinates
from symdp.engine.symmetrised import SymmetrisedLaw, check_atom
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, Method, arb_precision, mpf_down, mpf_of, mpf_up, weakest
from symdp.estimate import exact_ball as _ball

if TYPE_CHECKING:
    import numpy as np

PRECISION = 64
"""The least working precision of a composition, in bits. Its sums are absolute, on the scale of the total mass: the
bits needed are those that resolve what is left out (:func:`_bits`), whatever the relative width asked."""

TAIL = mpmath.mpf("1e-10")
"""Mass left out at each end of a composed law (and of a coordinate's binned range) at first, accounted for in the
bracket; then at most a thousandth of the bracket's width (:func:`_narrowed`)."""

MAX_LENGTH = 2_000_000
"""The most coefficients a composed loss law may have (a finer grid is refused beyond)."""

_INF = mpmath.inf


class _TooFine(InvalidParameter):
    """A grid on which a loss would span more steps (``size``) than a transform may have."""

    def __init__(self, size: int, h):
        super().__init__(f"the loss spans {size} grid steps of {mpmath.nstr(h, 3)}: a coarser grid is needed")
        self.size = size


def _nonnegative(x: arb) -> arb:
    """A ball of a quantity known to be ≥ 0, cut at 0."""
    if x >= 0:
        return x
    top = x.upper()
    return arb(0) if top <= 0 else arb(0).union(top)


# --- one coordinate: its loss as a monotone function of the outcome -------------------------------------------------
@dataclass(frozen=True)
class Loss:
    """The loss L = log(dP/dQ) of one coordinate pair, as the engine bins it: ``below(level)`` the P- and Q-masses of
    {L < level} as balls (``level`` an mpf, a ball or ±inf); ``low`` and ``high`` where L lives."""

    below: Callable
    low: mpmath.mpf
    high: mpmath.mpf

    def masses(self, a, b) -> tuple[arb, arb]:
        """The P- and Q-masses of {a ≤ L < b}."""
        (pa, qa), (pb, qb) = self.below(a), self.below(b)
        return _nonnegative(pb - pa), _nonnegative(qb - qa)


def _constant(a, b) -> tuple:
    return (arb(a), arb(b))


def _linear_below(slope, centre: arb, laws: tuple) -> Callable:
    """``level -> masses`` of {slope·(x − centre) < level} under each of ``laws``: a half-line of x, one CDF each.
    Laws that are sums of Gaussians (:meth:`~symdp.engine.continuous.ContinuousDistribution.arb_gaussian_sum`: the
    Gaussian, the subsampled Gaussian) are summed from their terms' erfc, one per distinct term at each level."""
    sums = [D.arb_gaussian_sum() for D in laws]
    side = 1 if slope > 0 else -1             # {x' < x} for a rising loss, {x' > x} for a falling one
    terms: list = []                          # the distinct Gaussian terms: (mean, −side/(sd·√2))
    names: dict = {}
    weights: list = []                        # per law: [(weight/2, index of its term)], or None (its own CDF)
    for found in sums:
        if found is None:
            weights.append(None)
            continue
        mine = []
        for log_w, mean, sd in found:
            name = tuple((x.mid().man_exp(), x.rad().mid().man_exp()) for x in (mean, sd))
            if name not in names:
                names[name] = len(terms)
                terms.append((mean, -side / (sd * arb(2).sqrt())))
            mine.append((log_w.exp() / 2, names[name]))
        weights.append(mine)
    inverse = 1 / _ball(slope)

    def below(level):
        if not isinstance(level, arb):
            if not mpmath.isfinite(level):
                return tuple(arb(0 if level < 0 else 1) for _ in laws)
            level = _ball(level)
        x = centre + level * inverse
        tails = [(scale * (x - mean)).erfc() for mean, scale in terms]
        out = []                # (a loop, not generators: this runs once per bin edge)
        for D, mine in zip(laws, weights):
            if mine is None:
                out.append(D.arb_cdf(x) if side > 0 else D.arb_sf(x))
                continue
            total = arb(0)
            for w, i in mine:
                total += w * tails[i]
            out.append(total)
        return tuple(out)
    return below


def _zero_loss() -> Loss:
    return Loss(lambda level: _constant(1, 1) if level > 0 else _constant(0, 0), mpmath.mpf(0), mpmath.mpf(0))


def _level_value(level):
    """A level as an mpf, to place it against a loss's kinks and 0: the grid's levels are exact balls, read whole."""
    return mpf_of(level.mid()) if isinstance(level, arb) else level


def _laplace(P: Laplace, Q: Laplace) -> Loss:
    """L(x) = (|x − μ_Q| − |x − μ_P|)/b: slope·(x − centre) clamped to [−D, D] (D = |μ_P − μ_Q|/b), so for a level
    in (−D, D] the set {L < level} is that of the line; the plateaus are atoms of the loss at ±D."""
    D = abs(P.loc - Q.loc) / P.b
    slope = 2 / P.b if P.loc > Q.loc else -2 / P.b
    linear = _linear_below(slope, (_ball(P.loc) + _ball(Q.loc)) / 2, (P, Q))

    def below(level):
        value = _level_value(level)
        if value <= -D:
            return _constant(0, 0)
        return _constant(1, 1) if value > D else linear(level)

    return Loss(below, -D, D)


def _level_of_inner(level, q: arb):
    """m with log(1 − q + q e^m) = level, as a ball: log((e^level − 1 + q)/q); −inf where e^level ≤ 1 − q."""
    if not isinstance(level, arb):
        if not mpmath.isfinite(level):
            return level
        level = _ball(level)
    gap = level.exp() - 1 + q
    if gap <= 0:
        return -_INF
    if not gap > 0:
        raise InvalidParameter("a level of the subsampled loss is too close to log(1 - q) at this precision")
    return (gap / q).log()


def _subsampled(mixed: Mixture, plain: Gaussian, laws: tuple, add: bool) -> Loss:
    """The loss of (1 − q)A + qB against A (remove: L = log(1 − q + q e^M), M the loss of B against A, linear in x)
    or of A against it (add: L = −log(1 − q + q e^M)), through the levels of M."""
    B, q = mixed.second, _ball(mixed.q)
    inner = _linear_below((B.mean - plain.mean) / plain.sd**2, (_ball(B.mean) + _ball(plain.mean)) / 2, laws)

    def below(level):
        if not add:
            return inner(_level_of_inner(level, q))
        # {L < level} = {1 − q + q e^M > e^{−level}} = {M > m(−level)}: the complement of M's lower set
        return tuple(_nonnegative(1 - m) for m in inner(_level_of_inner(-level, q)))

    bottom = mpmath.log1p(-mixed.q)
    return Loss(below, -_INF, -bottom) if add else Loss(below, bottom, _INF)


def _mirrored_inner(level, r: arb, k: arb):
    """t with log(r + k e^t) − log(r + k e^{−t}) = level, as a ball (±inf at ±inf): t = log u for the positive root u
    of k u² + r(1 − e^level) u − k e^level = 0, written without cancellation for a level ≥ 0 and mirrored below 0
    (the loss is odd in t)."""
    if not isinstance(level, arb) and not mpmath.isfinite(level):
        return level
    level = _ball(level)
    if level < 0:
        return -_mirrored_inner(-level, r, k)
    grown = level.exp()
    spread = r * (grown - 1)
    return ((spread + (spread ** 2 + 4 * k ** 2 * grown).sqrt()) / (2 * k)).log()


def _replaced(P: Mixture, Q: Mixture) -> Loss:
    """The loss of P = (1 − q) A + q N(m + a, s) against Q = (1 − q) A + q N(m − a, s), A = N(m, s): the Poisson-
    subsampled Gaussian under the replace-one relation (one record's contribution +a replaced by −a). With
    t = a (x − m)/s², each law's density against A is 1 − q + k e^{±t}, k = q e^{−a²/(2s²)}, so L = log(1 − q + k e^t)
    − log(1 − q + k e^{−t}), increasing in t and odd: {L < level} is a half-line of x, through the level's t."""
    A, q = P.first, _ball(P.q)
    r, k = 1 - q, q * (-(_ball(P.second.mean) - _ball(A.mean)) ** 2 / (2 * _ball(A.sd) ** 2)).exp()
    inner = _linear_below((P.second.mean - A.mean) / A.sd**2, _ball(A.mean), (P, Q))
    return Loss(lambda level: inner(_mirrored_inner(level, r, k)), -_INF, _INF)


def _mirrored(P, Q) -> bool:
    """Whether (P, Q) is the replace-one pair of :func:`_replaced`."""
    if not (isinstance(P, Mixture) and isinstance(Q, Mixture) and P.q == Q.q and P.first == Q.first):
        return False
    A, B, C = P.first, P.second, Q.second
    return all(type(D) is Gaussian for D in (A, B, C)) and A.sd == B.sd == C.sd \
        and B.mean - A.mean == A.mean - C.mean


def _root_of_sum(level: arb, slopes: list, offsets: list) -> arb:
    """u with Σ_i e^{a_i u + b_i} = e^level (a_i = ``slopes`` ≥ 0, b_i = ``offsets``, some a_i > 0), as a ball proved
    to hold it; −inf where e^level is at most the sum's infimum Σ_{a_i = 0} e^{b_i}. g(u) = log Σ_i e^{a_i u + b_i}
    is convex and increasing, so Newton's iteration on g − level from a point right of the root (where one term alone
    reaches e^level) falls monotonically onto it: in floats first, then at the working precision until a step is
    below it (each doubles the digits); the ball is checked by the sum's sign at its ends, in ball arithmetic."""
    floor = sum((b.exp() for a, b in zip(slopes, offsets) if a == 0), arb(0))
    target = level.exp()
    if target.upper() <= floor.lower():
        return -_INF
    if not target.lower() > floor.upper():
        raise InvalidParameter("a level of the mixture's loss is too close to its infimum at this precision")
    def newton(u, a, b, t, exp, log):      # one step on g(u) − t, g = log Σ e^{a_i u + b_i}, without overflow
        exponents = [ai * u + bi for ai, bi in zip(a, b)]
        top = max(exponents)
        weights = [exp(e - top) for e in exponents]
        total = sum(weights)
        return u - (top + log(total) - t) / (sum(ai * w for ai, w in zip(a, weights)) / total)

    a, b, t = [float(x.mid()) for x in slopes], [float(x.mid()) for x in offsets], float(level.mid())
    u = min((t - bi) / ai for ai, bi in zip(a, b) if ai > 0)
    for _ in range(100):
        moved = newton(u, a, b, t, math.exp, math.log)
        if not moved < u:            # converged (monotone from the right, up to rounding)
            break
        u = moved
    U, tiny = arb(u), arb(2) ** (8 - ctx.prec)
    for _ in range(12):                  # each step doubles the digits: from a double's to the working precision
        moved = newton(U, [x.mid() for x in slopes], [x.mid() for x in offsets], level.mid(), arb.exp, arb.log).mid()
        close = abs(moved - U) <= tiny * (abs(U) + 1)
        U = moved
        if close:
            break
    radius = (abs(U) + 1) * arb(2) ** (8 - ctx.prec)
    for _ in range(20):
        ends = [U - radius, U + radius]
        signs = [sum(((s * end + c).exp() for s, c in zip(slopes, offsets)), arb(0)) - target for end in ends]
        if signs[0] < 0 and signs[1] > 0:
            return ends[0].union(ends[1])
        radius *= 16
    raise InvalidParameter("the mixture's loss level could not be located at this precision")


def _mixture_against_one(mixed: GaussianSum, plain: GaussianSum, laws: tuple, add: bool) -> Loss:
    """The loss of a Gaussian sum M = Σ w_i N(μ + c_i, s) against one Gaussian N = N(μ, s), every c_i of one sign
    (remove: L = log(dM/dN)), or of N against M (add: −L). With u = ±(x − μ), the sign of the c_i,
    L = log Σ_i w_i e^{|c_i| u/s² − c_i²/(2s²)}, convex and increasing in u: {L < level} is the half-line
    {u < u*(level)} (:func:`_root_of_sum`), whose masses are the laws' CDFs or survival functions there."""
    centre, sd = plain.means[0], plain.sd
    terms = mixed.arb_gaussian_sum()
    offsets = [m - _ball(centre) for _, m, _ in terms]
    side = -1 if any(c < 0 for c in offsets) else 1
    variance = _ball(sd) ** 2
    slopes = [abs(c) / variance for c in offsets]
    intercepts = [lw - c * c / (2 * variance) for (lw, _, _), c in zip(terms, offsets)]
    inner = _linear_below(side, _ball(centre), laws)

    def at(level):
        if not isinstance(level, arb) and not mpmath.isfinite(level):
            return level
        return _root_of_sum(_ball(level), slopes, intercepts)

    def below(level):
        if not add:
            return inner(at(level))
        # {−L < level} = {L > −level} = {u > u*(−level)}: the complement of the lower half-line
        return tuple(_nonnegative(1 - m) for m in inner(at(-level)))

    # L's infimum: the log of the weight at the Gaussian's own mean (as x runs away from the other means), rounded
    # outward (the add loss's top decides where δ is exactly 0, :func:`hockey_stick`)
    flat = sum(((lw.exp() for (lw, _, _), c in zip(terms, offsets) if c == 0)), arb(0))
    if flat == 0:
        return Loss(below, -_INF, _INF)
    bottom = flat.log()
    return Loss(below, -_INF, mpf_up((-bottom).upper())) if add else Loss(below, mpf_down(bottom.lower()), _INF)


def _one_sided(mixed, plain) -> bool:
    """Whether (mixed, plain) is a Gaussian sum against one Gaussian of its standard deviation, every mean of the sum
    on one side of the Gaussian's (:func:`_mixture_against_one`)."""
    if not (isinstance(mixed, GaussianSum) and isinstance(plain, GaussianSum) and len(plain.means) == 1
            and mixed.sd == plain.sd):
        return False
    offsets = [m - plain.means[0] for m in mixed.means]
    return all(c >= 0 for c in offsets) or all(c <= 0 for c in offsets)


def _symmetrised(base: Loss) -> Loss:
    """The loss of the symmetrised pair (P̃, Q̃) of a pair whose loss L has no atoms (:mod:`symdp.engine.symmetrised`):
    L̃ = L on the first copy, −L on the second, 0 at the atom c = 1 − P(L > 0) − Q(L > 0). For a level ℓ > 0,
    {L̃ < ℓ} misses only the first copy's {L ≥ ℓ}, so its masses are L's; for ℓ ≤ 0 it is the second copy's {L > −ℓ},
    whose P̃-mass is Q(L > −ℓ) and Q̃-mass P(L > −ℓ)."""
    if not base.high > 0:       # no outcome with L > 0: both laws are the atom
        return _zero_loss()
    p_below, q_below = base.below(mpmath.mpf(0))
    check_atom(p_below + q_below - 1)      # a pair of laws only where c ≥ 0

    def below(level):
        value = _level_value(level)
        if value > 0:
            return base.below(level)
        p, q = base.below(-level)
        return _nonnegative(1 - q), _nonnegative(1 - p)

    return Loss(below, -base.high, base.high)


def loss(P, Q) -> Loss:
    """The loss of one coordinate pair, or an error naming a pair whose loss symdp does not bin.

    >>> p, q = loss(Gaussian(1, 1), Gaussian(0, 1)).masses(mpmath.mpf(0), mpmath.inf)   # P(L ≥ 0) = Φ(1/2)
    >>> p.overlaps(1 - (arb(0.5) / arb(2).sqrt()).erfc() / 2), q.overlaps((arb(0.5) / arb(2).sqrt()).erfc() / 2)
    (True, True)
    """
    if type(P) is Gaussian and type(Q) is Gaussian:
        if P.sd != Q.sd:
            raise InvalidDistribution("the privacy-loss distribution of Gaussians with different standard deviations "
                                      "is not binned (their loss is not monotone)")
        slope = (P.mean - Q.mean) / P.sd**2
        if slope == 0:
            return _zero_loss()
        return Loss(_linear_below(slope, (_ball(P.mean) + _ball(Q.mean)) / 2, (P, Q)), -_INF, _INF)
    if type(P) is Laplace and type(Q) is Laplace:
        if P.b != Q.b:
            raise InvalidDistribution("the privacy-loss distribution of Laplace laws with different scales is not "
                                      "binned")
        return _zero_loss() if P.loc == Q.loc else _laplace(P, Q)
    for mixed, plain, add in ((P, Q, False), (Q, P, True)):
        if isinstance(mixed, Mixture) and type(plain) is Gaussian and mixed.first == plain \
                and type(mixed.second) is Gaussian and mixed.second.sd == plain.sd:
            if mixed.q == 0 or mixed.second == plain:
                return _zero_loss()
            return _subsampled(mixed, plain, (P, Q), add)
    if _mirrored(P, Q):
        return _zero_loss() if P.q == 0 or P.second == P.first else _replaced(P, Q)
    for mixed, plain, add in ((P, Q, False), (Q, P, True)):
        if _one_sided(mixed, plain):
            if all(m == plain.means[0] for m in mixed.means):
                return _zero_loss()
            return _mixture_against_one(mixed, plain, (P, Q), add)
    if isinstance(P, SymmetrisedLaw) and isinstance(Q, SymmetrisedLaw) and (P.P, P.Q) == (Q.P, Q.Q) \
            and P.mirrored != Q.mirrored:
        if isinstance(P.P, Laplace) or isinstance(P.Q, Laplace):
            raise InvalidDistribution("the symmetrised pair of Laplace laws is not binned (their loss has atoms)")
        # (Q̃, P̃) is (P̃, Q̃) with the two copies exchanged: the same loss law
        return _symmetrised(loss(P.P, P.Q))
    raise InvalidDistribution(
        f"the privacy-loss distribution of {type(P).__name__} against {type(Q).__name__} is not computed: symdp "
        "bins Gaussian pairs with one standard deviation, Laplace pairs with one scale, and the Poisson-subsampled "
        "Gaussian mix(q, N(a, s), N(b, s)) against N(a, s) (and N(a, s) against it), and against mix(q, N(a, s), "
        "N(2a - b, s)) (replace-one), mixtures of Gaussians of one standard deviation against one Gaussian, every mean "
        "on one side of its (and the reverse), and the symmetrised pair of any of these but Laplace's")


# --- the grid and the two discrete pairs of one coordinate ---------------------------------------------------------
def _range(L: Loss, tail, h) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Levels below and above which L has P- and Q-mass at most ``tail`` (the binned range), within [low, high]:
    an infinite end found by doubling or halving from ±1, then to within an eighth by bisection (or to ``h``)."""
    # masses are differences of CDFs, known to 2^-prec absolutely: a tail below that is as good as 0
    enough = max(mpmath.mpf(tail), mpmath.mpf(2) ** (10 - ctx.prec))

    def beyond(level, side):
        masses = L.masses(level, _INF) if side > 0 else L.masses(-_INF, level)
        return all(m.upper() <= enough for m in masses)

    ends = []
    for side, end in ((-1, L.low), (1, L.high)):
        if mpmath.isfinite(end):
            ends.append(end)
            continue
        inside, outside = mpmath.mpf(0), mpmath.mpf(side)      # beyond() fails at inside, holds at outside
        while not beyond(outside, side):
            inside, outside = outside, 2 * outside
            if abs(outside) > 1e6:
                raise InvalidParameter("the privacy loss has mass beyond 1e6: its tails are not binned")
        if inside == 0:                 # the loss's mass may lie far closer to 0 than ±1
            while abs(outside) > h and beyond(outside / 2, side):
                outside /= 2
            inside = outside / 2
        for _ in range(3):
            middle = (inside + outside) / 2
            if abs(outside - inside) <= h:
                break
            inside, outside = (inside, middle) if beyond(middle, side) else (middle, outside)
        ends.append(outside)
    return ends[0], ends[1]


GROUPING = 1e-4
"""How coarse a bin may be where the loss has little mass: a group of g grid steps holding mass m is kept while
m·g² ≤ min(GROUPING·min(1, k·δ), GROUPING_CAP) (k steps, δ the answer's size). The rounding of a bin costs the bracket about its mass
times its width squared, and the bracket is of the order of the mass that matters times h²: all of it where many steps
compose, the mass beyond ε (about δ) for one step. So the tails, where the mass is small, are cut into wider groups
(fewer CDFs to compute) at a cost of a few per cent of the bracket's width."""


GROUPING_CAP = 1e-6
"""The coarsest grouping of any composition (and that of a first one, whose δ is not known): measured on the
subsampled Gaussian (q = 0.01, σ = 1, 1000 steps, δ(1) at h = 4e-5), grouping at 1e-6 widens the bracket by 0.7%
against none and saves 40% of a composition's time, where 1e-4 widens it by 23% for 10% more saved; and a first
composition grouped as the later ones measures the constant of their k·h² law."""


@dataclass(frozen=True)
class Bins:
    """One coordinate's loss on the grid j·h, j = ``start``, ``start`` + 1, ...: ``upper`` the P-masses of the
    dominating pair at the grid points and ``upper_infinite`` its P-mass at +∞; ``lower_p``, ``lower_q`` the P- and
    Q-masses of the bins, each bin's mass at its lowest grid point (the lowest and highest bins holding everything
    beyond); ``support`` the indices (from ``start``, increasing) outside which every list holds an exact 0: the cuts
    of grouped bins (:func:`_cuts`), which in the tails are far fewer than the grid points."""

    start: int
    upper: list
    upper_infinite: arb
    lower_p: list
    lower_q: list
    support: list

    @functools.cached_property
    def _floats(self) -> dict:
        return {}

    def midpoints(self, name: str) -> np.ndarray:
        """The midpoints of the masses ``name`` ("upper", "lower_p" or "lower_q") as floats (:func:`_midpoints`),
        read once for the choices that use them."""
        if name not in self._floats:
            import numpy as np

            masses, support = getattr(self, name), self.held(name)
            found = np.zeros(len(masses))
            found[support] = _midpoints([masses[i] for i in support])
            self._floats[name] = found
        return self._floats[name]

    def held(self, name: str) -> list:
        """The indices of :attr:`support` within the masses ``name``."""
        n = len(getattr(self, name))
        return self.support if self.support[-1] < n else [i for i in self.support if i < n]

    def mean(self, name: str) -> float:
        """The mean index of the masses ``name``, counted from ``start`` (midpoints, in floats)."""
        import numpy as np

        masses = self.midpoints(name)
        return float(np.arange(len(masses), dtype=float) @ masses) / max(float(masses.sum()), 1e-300)


def _cuts(L: Loss, H: arb, start: int, stop: int, grouping) -> tuple[list, list]:
    """Grid indices ``start = c_0 < c_1 < ... = stop`` and the masses of {L < c_i·h}: consecutive where the loss has
    mass, further apart in its tails (:data:`GROUPING`). The masses decide the partition only through their
    midpoints: any partition gives certified bounds."""
    cuts, below = [start], [L.below(H * start)]
    j, g = start, 1
    while j < stop:
        g = min(g, stop - j)
        found = L.below(H * (j + g))
        weight = float((found[0] - below[-1][0] + found[1] - below[-1][1]).mid())
        if g > 1 and weight * g * g > grouping:
            g //= 2                 # too heavy for this width: half of it (one CDF spent)
            continue
        cuts.append(j + g)
        below.append(found)
        j += g
        if 8 * weight * g * g <= grouping:      # a group twice as wide holds about twice the mass
            g *= 2
    return cuts, below


def bins(L: Loss, h, tail=TAIL, grouping=GROUPING) -> Bins:
    """The two discrete pairs of one coordinate's loss on the grid of step ``h`` (module docstring), its bins
    grouped where the loss has little mass (:func:`_cuts`).

    The split is made outcome by outcome, which is linear in the masses, so it is made on the groups' masses: for a
    group ℓ_a ≤ L < ℓ_b, mass x at ℓ_a and y at ℓ_b with x + y = p, x e^{−ℓ_a} + y e^{−ℓ_b} = q; below ℓ_start the
    P-mass goes to ℓ_start (the Q-mass beyond p e^{−ℓ_start} to −∞, where it weighs nothing in δ); above ℓ_stop the
    Q-mass goes to ℓ_stop with P-mass q e^{ℓ_stop}, the rest of the P-mass to +∞. The lower pair holds a group's
    masses at its lowest grid point (the group's index is a function of the outcome)."""
    h = mpmath.mpf(h)
    low, high = _range(L, tail, h)
    start, stop = int(mpmath.floor(low / h)), int(mpmath.ceil(high / h))
    stop = max(stop, start + 1)
    if stop - start > MAX_LENGTH:
        raise _TooFine(stop - start, h)
    H = _ball(h)
    cuts, below = _cuts(L, H, start, stop, grouping)
    n = stop - start
    upper, lower_p, lower_q = [arb(0)] * (n + 1), [arb(0)] * n, [arb(0)] * n
    (below_p, below_q), (top_p, top_q) = below[0], below[-1]
    above_p, above_q = _nonnegative(1 - top_p), _nonnegative(1 - top_q)
    upper[0] = below_p
    falls = [(-H * c).exp() for c in cuts]           # e^{−ℓ} at the cuts
    for i in range(len(cuts) - 1):
        p = _nonnegative(below[i + 1][0] - below[i][0])
        q = _nonnegative(below[i + 1][1] - below[i][1])
        a, b = cuts[i] - start, cuts[i + 1] - start
        lower_p[a], lower_q[a] = p, q
        if p == 0:
            continue
        y = _clamp(_nonnegative((p * falls[i] - q) / (falls[i] - falls[i + 1])), p)
        upper[a] += _nonnegative(p - y)
        upper[b] += y
    at_top = _clamp(_nonnegative(above_q / falls[-1]), above_p)
    upper[-1] += at_top
    lower_p[0], lower_q[0] = lower_p[0] + below_p, lower_q[0] + below_q
    last = cuts[-2] - start
    lower_p[last], lower_q[last] = lower_p[last] + above_p, lower_q[last] + above_q
    return Bins(start, upper, _nonnegative(above_p - at_top), lower_p, lower_q, [c - start for c in cuts])


def _clamp(x: arb, top: arb) -> arb:
    """A ball of a quantity known to lie in [0, top] (both ≥ 0), cut there."""
    if x.upper() <= top.lower():
        return x
    return _nonnegative(x.intersection(arb(0).union(top.upper()))) if x.overlaps(arb(0).union(top.upper())) else top


# --- composition: powers of the coordinates' polynomials, with what is left out accounted for ---------------------
@dataclass(frozen=True)
class _Law:
    """A sub-probability law on the integers ``start``, ``start + 1``, ... (the coefficients of ``poly``), with
    upper bounds on what it got wrong: ``lost``, the mass left out of the coefficients (truncated ends, or beyond a
    cyclic window), and ``excess``, the mass the coefficients may hold beyond the true ones (wrapped into a cyclic
    window)."""

    start: int
    poly: arb_poly
    lost: arb
    excess: arb = arb(0)

    @classmethod
    def of(cls, start: int, masses: list, tail) -> "_Law":
        return _truncated(cls(start, arb_poly(masses), arb(0)), tail)

    def __mul__(self, other: "_Law") -> "_Law":
        # (x + x')(y + y') − xy ≤ x'·1 + y'·1 + x'y' in mass (masses ≤ 1): either error, carried along.
        return _Law(self.start + other.start, self.poly * other.poly, self.lost + other.lost + self.lost * other.lost,
                    self.excess + other.excess + self.excess * other.excess)

    def power(self, k: int, tail) -> "_Law":
        """The law of the sum of ``k`` independent draws: by one DFT (:func:`_cyclic_power`) for large ``k``, else by
        squaring, what either leaves out accounted for."""
        window = _window(self, k, tail) if k >= 16 and self.poly.length() > 1 else None
        if window is not None and window[1] - window[0] < MAX_LENGTH:
            return _cyclic_power(self, k, tail, window)
        result, base = None, self
        while True:
            if k & 1:
                result = base if result is None else _truncated(result * base, tail)
            k >>= 1
            if not k:
                return result
            base = _truncated(base * base, tail)


def _log_mgf(factors, lam: float) -> arb:
    """log E[e^{λ T}] of the sum T of independent draws, ``count`` of each sub-probability law ``(start, poly,
    count, _)`` on the integers start, start + 1, ... (as a ball)."""
    z, total = arb(lam).exp(), arb(0)
    for start, poly, count, _ in factors:
        total += count * (poly(z).log() + _ball(start) * arb(lam))
    return total


def _midpoints(masses) -> np.ndarray:
    """The midpoints of mass balls as floats: for the engine's choices (a window's λ, a mean), never for a bound.
    (numpy is imported where it is used, as in :mod:`symdp.engine.chains`: most uses of the engine never bin.)"""
    import numpy as np

    return np.fromiter(map(float, masses), float, len(masses))


SEARCHED = 4096
"""The most groups of a law's masses :func:`_span` tries its λ on."""


def _span(factors, tail) -> tuple[int, int, arb] | None:
    """Indices [low, high] outside which the sum of independent draws (``count`` of each law ``(start, poly,
    count, midpoints)``, :func:`_midpoints` its coefficients') has mass at most ``tail`` (two Chernoff bounds,
    P(T ≥ m) ≤ E[e^{λT}] e^{−λm}, at the best of a few λ), and the certified bound of that mass; None where no λ
    gives a finite bound."""
    # The λ is chosen in floats (a choice, not a claim: the edge and the bound at the λ chosen are computed in balls
    # at the working precision below), each law's midpoints summed in at most SEARCHED groups, each group's mass at
    # its middle index: each try is a short vectorised sum, not an evaluation of a long polynomial in balls. (The
    # grouping moves only which λ is chosen: log E[e^{λT}] by about count·λ²·g²/24, for groups of g indices.)
    import numpy as np

    logs, variance = [], 0.0        # the variance of the sum scales the λ tried
    with np.errstate(divide="ignore"):
        for start, _, count, mids in factors:
            j = np.arange(len(mids), dtype=float)
            mass = max(float(mids.sum()), 1e-300)
            mean = float(j @ mids) / mass
            variance += count * max(float(((j - mean) ** 2) @ mids) / mass, 1.0)
            g = max(1, -(-len(mids) // SEARCHED))
            grouped = np.concatenate([mids, np.zeros(-len(mids) % g)]).reshape(-1, g).sum(axis=1)
            middles = g * np.arange(len(grouped), dtype=float) + (g - 1) / 2
            logs.append((start, count, middles, np.log(np.maximum(grouped, 0.0))))

    def log_mgf(lam: float) -> float:
        total = 0.0
        for start, count, j, log_p in logs:
            x = log_p + lam * j
            top = float(x.max())
            if not math.isfinite(top):
                return -math.inf
            total += count * (top + math.log(float(np.exp(x - top).sum())) + start * lam)
        return total

    spread = max(1.0, math.sqrt(variance))
    budget = math.log(2 / float(tail))
    ends, bounds = [], []
    for side in (1, -1):
        best, tried = None, {}      # every other λ first, then the two beside the best
        for i in list(range(-6, 7, 2)) + [None, None]:
            if i is None:
                if best is None:
                    break
                i = best[2] - 1 if best[2] - 1 not in tried else best[2] + 1
                if i in tried or not -6 <= i <= 6:
                    continue
            tried[i] = True
            lam = side * math.sqrt(2 * budget) / spread * 2.0 ** (i / 2)
            edge = (log_mgf(lam) + budget) / lam
            if not math.isfinite(edge):
                continue
            edge = math.ceil(edge) if side > 0 else math.floor(edge)
            if best is None or side * edge < side * best[0]:
                best = (edge, lam, i)
        if best is None:
            return None
        lam = best[1]
        log_m = _log_mgf(factors, lam)
        if not log_m.is_finite():
            return None
        edge = (float(log_m.mid()) + budget) / lam
        edge = math.ceil(edge) if side > 0 else math.floor(edge)
        beyond = (log_m - arb(lam) * _ball(edge + side)).exp()   # P(T ≥ edge+1) or P(T ≤ edge−1)
        if not beyond.is_finite():
            return None
        ends.append(edge)
        bounds.append(beyond)
    return ends[1], ends[0], bounds[0] + bounds[1]


def _window(law: _Law, k: int, tail) -> tuple[int, int, arb] | None:
    """:func:`_span` of the sum of ``k`` draws of ``law``."""
    return _span([(law.start, law.poly, k, _midpoints(law.poly.coeffs()))], tail)


def _compounded(x: arb, k: int) -> arb:
    """(1 + x)^k − 1 for a small x ≥ 0, relative to x (expm1 of k·log1p): a ball of 1 + x would lose x's digits."""
    return (k * x.log1p()).expm1() if x != 0 else arb(0)


def _survives(x: arb, k: int) -> arb:
    """1 − (1 − x)^k for a small x ≥ 0 (the chance that one of k draws falls where x is), relative to x."""
    return -(k * (-x).log1p()).expm1() if x != 0 else arb(0)


def _transform_size(n: int) -> int:
    """The least 2^a, 3·2^a or 5·2^a at least ``n`` (sizes acb.dft transforms fast)."""
    power = 1 << max(4, (n - 1).bit_length())
    return min(size for size in (power, 3 * power // 4, 5 * power // 8) if size >= n)


def _cyclic_power(law: _Law, k: int, tail, window: tuple) -> _Law:
    """The law of the sum of ``k`` draws by one DFT in ball arithmetic (python-flint's ``acb.dft``): the k-th power
    of the transform, transformed back, is the sum's law folded onto a ``window`` of indices (:func:`_window`) outside
    which the mass is at most ``tail``, certified: that mass is ``lost`` (missing from the window) and ``excess``
    (folded onto some index of it)."""
    low, high, outside = window
    size = _transform_size(high - low + 1)
    # The transform's rounding is absolute, on the scale of the total mass: enough bits to resolve the tail.
    with arb_precision(max(ctx.prec, int(-mpmath.log(tail, 2)) + 40)):
        values = _placed(size, law.start, law.poly.coeffs())
        # |v|^k of a frequency with |v| ≤ r is below r^k ≤ tail·1e-20: one ball [0 ± r^k] instead of a power (most
        # frequencies of a spread-out law are that small).
        small = arb(tail * mpmath.mpf("1e-20")) ** (arb(1) / k)
        negligible = acb(0, 0) + acb(arb(0, (small ** k).upper()), arb(0, (small ** k).upper()))
        folded = acb.dft([v ** k if abs(v).upper() > small else negligible for v in acb.dft(values)], True)
        coeffs = [_nonnegative(folded[m % size].real) for m in range(low, low + size)]
    grown = _compounded(law.lost, k) + outside
    excess = _compounded(law.excess, k) + outside
    return _truncated(_Law(low, arb_poly(coeffs), grown, excess), tail)


def _truncated(law: _Law, tail) -> _Law:
    """The law without the coefficients at either end whose total mass (upper ends) is at most ``tail``: only the
    ends are read."""
    poly, budget = law.poly, float(tail)
    n = poly.length()
    dropped, total, lo = arb(0), 0.0, 0
    while lo < n - 1:
        c = poly[lo]
        u = float(c.upper())
        if total + u > budget:
            break
        total, dropped, lo = total + u, dropped + c, lo + 1
    total, hi = 0.0, n
    while hi - 1 > lo:
        c = poly[hi - 1]
        u = float(c.upper())
        if total + u > budget:
            break
        total, dropped, hi = total + u, dropped + c, hi - 1
    if lo == 0 and hi == n:
        return law
    return _Law(law.start + lo, poly.truncate(hi).right_shift(lo), law.lost + _nonnegative(dropped).upper(), law.excess)


# --- composition in the frequency domain ---------------------------------------------------------------------------
NEGLIGIBLE = mpmath.mpf("1e-3")
"""A share too small to matter. A frequency of the composed law is dropped where its value is below
NEGLIGIBLE·tail/N in modulus (N the size of the transform): together the dropped ones move a sum over the window with
weights in [0, 1] by at most NEGLIGIBLE·tail, which the bracket carries. And the tail left out of a composition is
at most NEGLIGIBLE times the width asked of its bracket (:func:`_narrowed`)."""


_BLOCK = 16
"""The length of the polynomials a spectrum's sums are evaluated by (:meth:`_Spectrum._series`)."""


def _blocks(coefficients: list) -> list:
    return [acb_poly(coefficients[i:i + _BLOCK]) for i in range(0, len(coefficients), _BLOCK)]


def _ratio_key(decay) -> tuple | None:
    """A ball's exact value, as a key (None for None)."""
    return None if decay is None else (decay.mid().man_exp(), decay.rad().mid().man_exp())


@dataclass(frozen=True)
class _Spectrum:
    """The law of a sum of independent draws on the integers, folded onto the window ``low``, ..., ``low + size − 1``
    (the cyclic convolution of the draws' laws) and held by its discrete Fourier transform, Û(f) = Σ_m u_m e^{−2πi
    m f/size}, at the frequencies ``first``, ``first + 1``, ... (signed, ``values``); every other frequency's value
    is at most ``negligible`` in modulus. ``lost`` bounds the mass outside the window and ``excess`` the mass folded
    into it (as :class:`_Law`). The law is never transformed back: the sums δ needs are geometric series of its
    values (:meth:`total`), a handful of polynomial evaluations on the unit circle."""

    size: int
    low: int
    first: int
    values: list
    negligible: arb
    lost: arb
    excess: arb

    @property
    def top(self) -> int:
        return self.low + self.size - 1

    @property
    def spill(self) -> arb:
        """The most the dropped frequencies move a sum over the window with weights in [0, 1]: size·negligible."""
        return arb(0, (self.negligible * self.size).upper())

    def _turn(self, m: int) -> acb:
        """e^{2πi m/size}."""
        return acb(arb(2 * (m % self.size)) / self.size).exp_pi_i()

    def _series(self, blocks: list, m: int) -> acb:
        """Σ_i c_i e^{2πi m (first + i)/size} for the coefficients c cut in ``blocks`` of :data:`_BLOCK`: Horner's rule
        within a block and each block's rotation computed afresh, since every product by a point of the unit circle
        may widen a rectangular complex ball by √2 (a long chain of them would lose all its bits)."""
        z, total = self._turn(m), acb(0)
        for j, block in enumerate(blocks):
            total += block(z) * self._turn(m * (self.first + j * _BLOCK))
        return total

    @functools.cached_property
    def _plain(self) -> list:
        return _blocks(self.values)

    @functools.cached_property
    def _zero(self) -> acb:
        return self.values[-self.first] if self.first <= 0 < self.first + len(self.values) else acb(0)

    @functools.cached_property
    def _quotients(self) -> dict:
        return {}

    def _quotient(self, key, decay) -> list:
        """The coefficients Û(f)/(1 − r e^{2πi f/size}) (r = ``decay``, or 1 where None, whose f = 0 is left out), cut
        in blocks; computed once per ratio (``key``, :func:`_ratio_key`)."""
        if key not in self._quotients:
            r = arb(1) if decay is None else decay
            out = []
            for i, v in enumerate(self.values):
                f = self.first + i
                out.append(acb(0) if decay is None and f == 0 else v / (1 - r * self._turn(f)))
            self._quotients[key] = _blocks(out)
        return self._quotients[key]

    @functools.cached_property
    def _spent(self) -> list:
        return [0]

    @functools.cached_property
    def _memo(self) -> dict:
        return {}

    def _evaluated(self, key, blocks: list, m: int) -> acb:
        """The series (:meth:`_series`) of ``blocks`` (named by ``key``: "plain" for the values, a ratio's for its
        quotients) at m, computed once: an ε(δ) search asks for the same ones again and again (every sum's upper end,
        a threshold's first bisection points, the ε tried within one grid step of each other)."""
        if (key, m) not in self._memo:
            self._spent[0] += len(blocks) * _BLOCK          # the coefficients a series evaluates, blocks filled
            self._memo[(key, m)] = self._series(blocks, m)
        return self._memo[(key, m)]

    def _reads_coefficients(self) -> bool:
        """Whether to read the law's coefficients rather than sum its spectrum: once the series evaluated cost as much
        as transforming back (about size coefficients' worth), as for the many sums of an ε(δ) search."""
        return "_coefficients" in self.__dict__ or self._spent[0] > 2 * self.size

    @functools.cached_property
    def _coefficients(self) -> tuple[list, list, arb_poly]:
        """The folded law on the window from the kept frequencies (one inverse transform: the dropped ones are the
        caller's to carry, as for the series), its running sums, and the law as a polynomial from index ``low``."""
        spectrum = [acb(0)] * self.size
        for i, v in enumerate(self.values):
            spectrum[(self.first + i) % self.size] = v
        folded = acb.dft(spectrum, True)
        law = [folded[m % self.size].real for m in range(self.low, self.low + self.size)]
        sums, running = [arb(0)], arb(0)
        for u in law:
            running += u
            sums.append(running)
        return law, sums, arb_poly(law)

    def point(self, t: int) -> arb:
        """u_t, the folded law at index ``t`` of the window (the dropped frequencies' share in the ball)."""
        if self._reads_coefficients():
            value = self._coefficients[0][t - self.low]
        else:
            value = (self._evaluated("plain", self._plain, t) / self.size).real
        return value + arb(0, self.negligible.upper())

    def total(self, a: int, b: int, decay=None) -> arb:
        """Σ_{m=a}^{b} u_m r^m over the window (r = ``decay`` or 1), from the frequencies kept: a geometric series at
        each, Û(f) ((r ζ_f)^a − (r ζ_f)^{b+1})/(1 − r ζ_f) with ζ_f = e^{2πi f/size}, or the coefficients themselves
        once read (:meth:`_reads_coefficients`). What the dropped frequencies add is the caller's to carry (:attr:`spill`, for
        weights in [0, 1])."""
        if self._reads_coefficients():
            law, sums, poly = self._coefficients
            if decay is None:
                return sums[b - self.low + 1] - sums[a - self.low]
            return decay ** a * poly.right_shift(a - self.low).truncate(b - a + 1)(decay)
        key = _ratio_key(decay)
        c = self._quotient(key, decay)
        if decay is None:
            body = self._evaluated(key, c, a) - self._evaluated(key, c, b + 1) + self._zero * (b - a + 1)
        else:
            body = (decay ** a) * self._evaluated(key, c, a) - (decay ** (b + 1)) * self._evaluated(key, c, b + 1)
        return (body / self.size).real


@dataclass(frozen=True)
class Composition:
    """The composed loss of a pair of products on the grid j·h: ``upper`` (the dominating pair's P-law on the grid
    points, and ``infinite`` its P-mass at +∞) and ``lower_p``, ``lower_q`` (the laws of the summed bin index), as
    spectra on one window."""

    step: mpmath.mpf
    upper: _Spectrum
    infinite: arb
    lower_p: _Spectrum
    lower_q: _Spectrum
    support: tuple[int, int]
    """The indices between which the lower pair's laws have their mass (the window before it is padded to a size
    the transform likes)."""
    centre: float
    """The mean of T under P."""

    @functools.cached_property
    def _decay(self) -> arb:
        return (-_ball(self.step)).exp()

    def delta_upper(self, eps) -> arb:
        """An upper bound of δ(ε): Σ_m U_m (1 − e^{ε − m h})_+ + P(+∞) + what was left out."""
        U = self.upper
        a = max(U.low, int(mpmath.floor(mpmath.mpf(eps) / self.step)) + 1)
        body = arb(0)
        if a <= U.top:
            body = U.total(a, U.top) - _ball(eps).exp() * U.total(a, U.top, self._decay) + U.spill
        return _nonnegative(body) + self.infinite + U.lost

    def left_out(self, eps) -> arb:
        """How much of the bracket at ε is mass the powers left out (to tell a coarse grid from a short tail)."""
        return self.upper.lost + _ball(eps).exp() * self.lower_q.lost

    def delta_lower(self, eps) -> arb:
        """A lower bound of δ(ε): P(T ≥ t) − e^ε Q(T ≥ t) for the threshold t where P's mass of T overtakes e^ε Q's
        (any t gives a lower bound), less e^ε times the Q-mass left out."""
        P, Q = self.lower_p, self.lower_q
        t = self._threshold(eps)
        above_p = P.total(t, P.top) + P.spill - P.excess
        above_q = Q.total(t, Q.top) + Q.spill + Q.lost
        value = above_p - _ball(eps).exp() * above_q
        return value if value > 0 else (arb(0).union(value.upper()) if value.upper() > 0 else arb(0))

    def _threshold(self, eps) -> int:
        """The least index t where P(T = t) > e^ε Q(T = t), by bisection, where P(T ≥ t) − e^ε Q(T ≥ t) is largest
        when the ratio rises with t (a choice, not a claim: any t gives a lower bound). Where the two masses are too
        small to tell apart, the side of P's mean decides: Q's mass dominates below it, P's above."""
        P, Q, e = self.lower_p, self.lower_q, _ball(eps).exp()
        low, high = self.support
        while high - low > 1:
            mid = (low + high) // 2
            diff = P.point(mid) - e * Q.point(mid)
            if diff > 0 or (not diff < 0 and mid >= self.centre):
                high = mid
            else:
                low = mid
        return high


def _placed(size: int, start: int, real: list, imaginary: list | None = None) -> list:
    """A transform's input: the masses at indices start, start + 1, ... (``imaginary`` as the imaginary parts),
    folded modulo ``size``."""
    if imaginary is None:
        return [acb(x) for x in _folded(size, start, real)]
    return [acb(x, y) for x, y in zip(_folded(size, start, real), _folded(size, start, imaginary))]


def _padded(poly: arb_poly, size: int) -> list:
    """The coefficients of ``poly`` (at most ``size``), with the zeros after its last one: ``size`` balls."""
    values = poly.coeffs()
    return values + [arb(0)] * (size - len(values))


def _folds(size: int, start: int, masses: list) -> tuple[arb_poly, arb_poly, arb_poly]:
    """The masses at indices start, start + 1, ... summed modulo ``size`` (A_i: the indices j ≡ i), and the same
    weighted by the turn of each and its square, B_i = Σ m·p_j and C_i = Σ m²·p_j over j = size·(⌊start/size⌋ + m) +
    i: cut in slices of the list (a slice of a long polynomial would be a copy of its whole rest)."""
    padded = [arb(0)] * (start % size) + list(masses)
    total, turns, squares = arb_poly(0), arb_poly(0), arb_poly(0)
    for m, k in enumerate(range(0, len(padded), size)):
        chunk = arb_poly(padded[k:k + size])
        total += chunk
        if m:
            turns += m * chunk
            squares += m * m * chunk
    return total, turns, squares


def _folded(size: int, start: int, masses: list) -> list:
    """The masses at indices start, start + 1, ... summed modulo ``size``: a list of ``size`` balls, the one at i
    holding the indices ≡ i (mod size)."""
    return _padded(_folds(size, start, masses)[0], size)


def _folded_moments(size: int, start: int, masses: list, c: int) -> tuple[list, list, arb]:
    """:func:`_folded` of the masses p_j and of (j − c)·p_j, and Σ_j (j − c)² p_j, from one folding: with j − c =
    size·m + i + K (K = size·⌊start/size⌋ − c), Σ_{j ≡ i} (j − c) p_j = (i + K)·A_i + size·B_i and Σ_j (j − c)² p_j =
    Σ_i (i + K)²·A_i + 2·size·(i + K)·B_i + size²·C_i (:func:`_folds`)."""
    total, turns, squares = _folds(size, start, masses)
    K = size * (start // size) - c

    def lift(poly):         # (i + K)·a_i at each i
        return poly.derivative().left_shift(1) + K * poly

    lifted = lift(total) + size * turns
    second = (lift(lifted) + size * (lift(turns) + size * squares))(arb(1))
    return _padded(total, size), _padded(lifted, size), second


def _moduli(transform: list, paired: bool) -> np.ndarray:
    """Float upper bounds of |V(f)| at each index of ``transform`` (inf where a ball is not finite); where ``paired``
    (a transform Z of U + iP), of both |U(f)| and |P(f)| (:func:`_parts`). (The cruder max(|Z_f|, |Z_{−f}|) keeps
    every frequency of laws with a large atom, whose |U| and |P| stay near the atom's mass while |U + iP| stays near
    √2 times it.)"""
    import numpy as np

    return np.maximum(*_parts(transform)) if paired else _bounds(transform)


def _bounds(values: list) -> np.ndarray:
    """Float upper bounds of the moduli of complex balls, read by C-level maps into a numpy array (a loop in Python
    would cost more than the transform they come from); inf where a ball is not finite."""
    import numpy as np

    # abs_upper is an exact upper bound; its float is rounded to nearest: up by a relative 2^-50 (normal range) and by
    # the least subnormal (below it); not finite (nan) counts as inf
    found = np.fromiter(map(float, map(acb.abs_upper, values)), float, len(values))
    found = found * (1 + 2.0 ** -50) + 2.0 ** -1074
    return np.where(np.isnan(found), np.inf, found)


def _parts(transform: list) -> tuple[np.ndarray, np.ndarray]:
    """Float upper bounds of |U(f)| and |P(f)| from the transform Z of U + iP (two real sequences), each recovered
    exactly: U_f = (Z_f + conj Z_{−f})/2 and P_f = (Z_f − conj Z_{−f})/(2i)."""
    mirror = list(map(acb.conjugate, [transform[0], *reversed(transform[1:])]))      # conj Z_{−f}
    # |Z_f ± conj Z_{−f}|, halved (rounded up)
    return tuple(_bounds(list(map(combine, transform, mirror))) / 2 * (1 + 2.0 ** -50)
                 for combine in (acb.__add__, acb.__sub__))


def _composed_above(columns: list, counts: list, limit: float) -> np.ndarray:
    """At each index, whether Σ_i count_i·log(columns[i]) exceeds ``limit``: the float test of a composed value
    against ν (columns of :func:`_moduli`, positive)."""
    import numpy as np

    return sum(count * np.log(column) for column, count in zip(columns, counts)) > limit


def _kept(transforms: list, counts: list, size: int, tail, paired: bool) -> tuple[list, arb]:
    """The frequencies (signed) where the composed value Π_i V_i(f)^{count_i} may exceed ν = NEGLIGIBLE·tail/size
    in modulus, and ν (every other frequency's value is below it). V_i(f) is the transform's value itself, or, where
    ``paired`` (a transform Z of U + iP), either of U's and P's, both at most max(|Z_f|, |Z_{−f}|) in modulus."""
    nu = mpmath.mpf(tail) * NEGLIGIBLE / size
    limit = float(mpmath.log(nu)) - 1          # a unit of margin for the float logarithms below
    if len(transforms) == 1:
        small = arb(math.exp(limit / counts[0]))
        large = [f for f, z in enumerate(transforms[0]) if not z.abs_upper() <= small]
    else:
        bounds = [_moduli(Z, paired) for Z in transforms]
        large = [int(f) for f in _composed_above(bounds, counts, limit).nonzero()[0]]
    if paired and len(transforms) == 1:
        large = sorted(set(large) | {(size - f) % size for f in large})
    return sorted(f if 2 * f <= size else f - size for f in large), _ball(nu)


SAMPLED_FROM = 1 << 15
"""The least window :func:`_sampled` is tried on: below it, transforming in full costs less (measured: 0.40 s
against 0.47 s at 20480 points, 0.85 s against 0.51 s at 40960, on the subsampled Gaussian)."""

SAMPLES_PER_SPREAD = 16
"""The sampling circle of :func:`_sampled` has at least this many points per standard deviation of a coordinate's
law (in grid steps): the second-order term of the bound between samples, A₂·(π/M)²/2, is then below 0.02. A coarser
circle costs less (its transforms, and the bounds read off them, are the sampling's main cost) and keeps a wider
band, whose values cost little: measured on the subsampled Gaussian (q = 0.01, σ = 1, 1000 steps, width 1e-6), 16
against 32 keeps 213 frequencies instead of 107 and saves a sixth of δ's time; 8 saves no more."""


SAMPLING_BITS = 53
"""The precision of :func:`_sampled`'s coarser circle: its transforms only bound moduli (compared with
ν^{1/count}, near 1 for a long composition): 53 bits keep the same frequencies as the working precision's 72 to 111
(measured on the subsampled Gaussian, q = 0.01, σ = 1, 1000 steps: the same brackets) and their transforms cost about
a fifth less."""


def _sampled(found: list, size: int, tail):
    """The kept frequencies and their values without the transforms of size ``size``, where a coarser circle of M
    points decides (None where it would not pay, or does not find the kept frequencies a narrow band about 0: the
    caller transforms in full). Returns ``((kept, ν, [(U_i, P_i)]), (kept_q, ν, [Q_i]))``: the kept frequencies (the
    band −F, ..., F) and, per coordinate, the values of its laws' transforms of size ``size`` there.

    *Which* frequencies are dropped. A law p on the integers has the transform V(θ) = Σ_j p_j e^{−ijθ}, and the size-N
    transform's value at f is V(2πf/N). Its values at the M angles θ_g = 2πg/M are the size-M transform of the law
    folded modulo M (exactly); and with c any integer, g(θ) = e^{icθ} V(θ) has |g| = |V|, g'(θ) = −i e^{icθ} W(θ)
    with W(θ) = Σ_j (j − c) p_j e^{−ijθ} (the size-M transform of (j − c) p_j folded, at θ_g), and |g''| ≤ A₂ =
    Σ_j (j − c)² p_j. By Taylor's theorem, for |θ − θ_g| ≤ π/M, |V(θ)| ≤ |V(θ_g)| + |W(θ_g)|·π/M + A₂(π/M)²/2: a
    bound of the frequencies f whose nearest sample is g (|2πf/N − θ_g| ≤ π/M). A cell g is dropped where the product
    of these bounds over the coordinates, to their counts, is below ν = NEGLIGIBLE·tail/N (as :func:`_kept`, in
    floats rounded up and with a unit of margin in the logarithm); the band kept holds every frequency whose nearest
    sample is a cell not dropped. The sequences are transformed two at a time, as the real and imaginary parts of one
    input (U and P; their W; Q and its W), each bounded exactly (:func:`_parts`); one folding of each law gives its
    two sequences and A₂ (:func:`_folded_moments`); M is a choice, made from the laws' midpoints.

    *The kept values* (:func:`_band`): exactly, from moments of the laws in blocks."""
    import numpy as np

    spreads, centres = [], []      # the circle's size is a choice, made from the midpoints
    for b, _ in found:
        means = b.mean("lower_p"), b.mean("lower_q")
        if not all(map(math.isfinite, means)):
            return None
        c_pair, c_q = (b.start + int(round(mean)) for mean in means)
        centres.append((c_pair, c_q))
        for name, c in (("upper", c_pair), ("lower_p", c_pair), ("lower_q", c_q)):
            masses = b.midpoints(name)
            spreads.append(float(((np.arange(len(masses)) + (b.start - c)) ** 2.0) @ masses))
    if not all(map(math.isfinite, spreads)):
        return None
    samples = _transform_size(max(1024, int(SAMPLES_PER_SPREAD * math.sqrt(max(max(spreads), 1.0))) + 1))
    if 4 * samples > size or size < SAMPLED_FROM:
        return None
    counts = [count for _, count in found]
    nu = mpmath.mpf(tail) * NEGLIGIBLE / size
    limit = float(mpmath.log(nu)) - 1
    step = math.pi / samples * (1 + 2.0 ** -40)             # the farthest a frequency lies from its nearest sample
    pair_bounds, q_bounds = [], []
    for (b, _), (c_pair, c_q) in zip(found, centres):
        # These sequences and transforms only bound moduli, which are tested against ν^{1/count} (near 1 for a long
        # composition): they are computed at SAMPLING_BITS, their rounding still outward (every ball holds the exact
        # value, only wider), and what they decide is which frequencies to drop, each bound still proved.
        with arb_precision(SAMPLING_BITS):
            (u, wu, a_u), (p, wp, a_p) = (_folded_moments(samples, b.start, masses, c_pair)
                                          for masses in (b.upper, b.lower_p))
            q, wq, a_q = _folded_moments(samples, b.start, b.lower_q, c_q)
            # three transforms of two real sequences each: (U, P), their W, and Q with its W
            z, w = acb.dft(list(map(acb, u, p))), acb.dft(list(map(acb, wu, wp)))
            mq, mwq = _parts(acb.dft(list(map(acb, q, wq))))
            mz, mw = _moduli(z, True), _moduli(w, True)
        a_pair = max(float(a_u.upper()), float(a_p.upper())) * (1 + 2.0 ** -50)      # A₂, rounded up
        a_q = float(a_q.upper()) * (1 + 2.0 ** -50)
        if not (math.isfinite(a_pair) and math.isfinite(a_q)):
            return None
        for at_sample, slope, a2, out in ((mz, mw, a_pair, pair_bounds), (mq, mwq, a_q, q_bounds)):
            out.append((at_sample + slope * step + a2 * step * step / 2) * (1 + 2.0 ** -40))
    result = []
    for bounds, which in ((pair_bounds, "pair"), (q_bounds, "q")):
        cells = _composed_above(bounds, counts, limit).nonzero()[0]
        widest = int(max(min(g, samples - g) for g in cells)) if len(cells) else -1    # the largest |g| kept
        if 8 * widest > samples:
            return None
        # every frequency f with |f|·M/N > widest + 1/2 has its nearest sample in a dropped cell
        F = max(0, ((2 * widest + 1) * size) // (2 * samples))
        values = []
        for b, _ in found:
            names = ["upper", "lower_p"] if which == "pair" else ["lower_q"]
            laws = [getattr(b, name) for name in names]
            found_values = _band(laws, b.start, size, F, [b.held(name) for name in names])
            if found_values is None:
                return None
            values.append(found_values)
        result.append((list(range(-F, F + 1)), _ball(nu), values))
    return result[0], result[1]


def _band(laws: list, start: int, size: int, F: int, supports: list) -> list | None:
    """The size-``size`` transforms V(f) = Σ_j p_j e^{−2πi j f/size} of ``laws`` (masses at indices start, start + 1,
    ..., exactly 0 outside the indices ``supports``, one list each) at f = −F, ..., F, each a list; None where the
    band is too wide for blocks (the caller transforms in full).

    With θ = 2πf/size, |θ| ≤ θ* = 2πF/size, and blocks of B indices (B a power of 2 dividing size, B·θ*/2 ≤ 1/2),
    write j = start + Bs + t: e^{−ijθ} = e^{−iθ(start + B/2)} ω^{fs} e^{−iθ(t − B/2)} with ω = e^{−2πi B/size} (a root
    of unity of order size/B), and the last factor is Σ_{d<D} (−iθ/θ*)^d (θ*(t − B/2))^d/d! within r^D/D!·2 (r =
    θ*B/2 ≤ 1/2: the series' remainder). So V(f) = e^{−iθ(start + B/2)} Σ_{d<D} (−if/F)^d Y_d(f), Y_d the size-size/B
    transform of the block moments M_{s,d} = Σ_t p_{start+Bs+t} (θ*(t − B/2))^d/d! (a matrix product in ball
    arithmetic), within the laws' mass times r^D·2/D!, carried in the ball."""
    if F == 0:
        return [[acb(sum(masses, arb(0)))] for masses in laws]
    B = 1
    while size % (2 * B) == 0 and 2 * B * 2 * math.pi * F <= size:       # B ≤ size/(2πF): r ≤ 1/2
        B *= 2
    if B < 4:
        return None
    blocks = size // B
    theta = arb.pi() * 2 * F / size
    radius = arb((theta * B / 2).upper())
    r = float(radius) * (1 + 2.0 ** -40)
    bits = ctx.prec + 10
    D, term = 1, r
    while math.log2(2 * term) > -bits:
        D += 1
        term *= r / D
    table = [(theta * (t - B // 2)) ** d / arb.fac_ui(d) for t in range(B) for d in range(D)]
    T = arb_mat(B, D, table)
    rows = [-(-len(masses) // B) for masses in laws]
    blocked, row = arb_mat(sum(rows), B), 0      # (the masses set where they may not be 0: the tails' are sparse)
    for masses, support, count in zip(laws, supports, rows):
        for i in support:
            blocked[row + i // B, i % B] = masses[i]
        row += count
    moments = blocked * T
    out, row = [], 0
    for masses, count in zip(laws, rows):
        Y = []              # Y[d](f) for f = −F..F
        for d in range(0, D, 2):
            column = [acb(0)] * blocks
            for s in range(count):
                column[s % blocks] += acb(moments[row + s, d], moments[row + s, d + 1] if d + 1 < D else arb(0))
            Z = acb.dft(column)
            even, odd = [], []
            for f in range(-F, F + 1):
                a, b = Z[f % blocks], Z[(-f) % blocks].conjugate()
                even.append((a + b) / 2)
                odd.append((a - b) * acb(0, -1) / 2)
            Y.append(even)
            if d + 1 < D:
                Y.append(odd)
        mass = arb(sum((moments[row + s, 0] for s in range(count)), arb(0)).upper())      # ≥ Σ p_j (all ≥ 0)
        row += count
        error = (mass * radius ** D * 2 / arb.fac_ui(D)).upper()
        slack = acb(arb(0, error), arb(0, error))
        values = []
        for i, f in enumerate(range(-F, F + 1)):
            x = acb(0, -1) * f / F
            total = acb(0)
            for d in range(D - 1, -1, -1):
                total = total * x + Y[d][i]
            turn = acb(arb(-2 * f * (start + B // 2) % (2 * size)) / size).exp_pi_i()
            values.append(total * turn + slack)
        out.append(values)
    return out


PROBE_SIZE = 1 << 16
"""The largest transform of a first, probing composition: where the grid the width asks for would need more, the
probe is made on a coarser one (its bracket measures the constant of the k·h² law)."""


def compose_losses(runs, h, tail=TAIL, grouping=GROUPING, largest=MAX_LENGTH) -> Composition:
    """The :class:`Composition` of coordinate runs ``[(P_i, Q_i, count_i)]`` on the grid of step ``h``: each
    coordinate's two pairs are transformed once (the dominating pair's P-law and the lower pair's P-law as the real
    and imaginary parts of one transform), raised to their counts frequency by frequency and multiplied across the
    runs, on a window outside which Chernoff bounds leave at most ``tail`` (:func:`_span`)."""
    found, infinite = [], arb(0)
    for A, B, count in runs:
        # The split divides by e^{−ℓ_a} − e^{−ℓ_b} ≈ h: the bins' masses are computed 32 bits finer than the sums.
        with arb_precision(ctx.prec + 32):
            b = bins(loss(A, B), h, tail, grouping)
        found.append((b, count))
        step = _survives(b.upper_infinite, count)
        infinite = infinite + step - infinite * step        # P(some coordinate's loss is +∞)
    spans = []
    for name in ("upper", "lower_p", "lower_q"):
        factors = [(b.start, arb_poly(getattr(b, name)), count, b.midpoints(name)) for b, count in found]
        full = (sum(c * s for s, _, c, _ in factors), sum(c * (s + p.length() - 1) for s, p, c, _ in factors), arb(0))
        chernoff = _span(factors, tail) if full[1] - full[0] > 4096 else None
        spans.append(chernoff if chernoff is not None and chernoff[1] - chernoff[0] < full[1] - full[0] else full)
    low, high = min(s[0] for s in spans), max(s[1] for s in spans)
    size = _transform_size(high - low + 1)
    if size > largest:
        raise _TooFine(size, h)
    counts = [count for _, count in found]
    half = acb(0, -1) / 2                       # (Z_f − conj Z_{−f})/(2i)
    sampled = _sampled(found, size, tail)
    if sampled is not None:
        (kept_pair, nu_pair, pair_values), (kept_q, nu_q, q_values) = sampled
        both = [{f: (u, p) for f, u, p in zip(kept_pair, *values)} for values in pair_values]
        alone = [dict(zip(kept_q, values[0])) for values in q_values]
        upper_value = lambda i, f: both[i][f][0]          # noqa: E731
        lower_p_value = lambda i, f: both[i][f][1]        # noqa: E731
    else:
        both = [acb.dft(_placed(size, b.start, b.upper, b.lower_p)) for b, _ in found]
        alone = [acb.dft(_placed(size, b.start, b.lower_q)) for b, _ in found]
        kept_pair, nu_pair = _kept(both, counts, size, tail, paired=True)
        kept_q, nu_q = _kept(alone, counts, size, tail, paired=False)
        upper_value = lambda i, f: (both[i][f] + both[i][-f].conjugate()) / 2          # noqa: E731
        lower_p_value = lambda i, f: (both[i][f] - both[i][-f].conjugate()) * half     # noqa: E731

    def spectrum(kept, nu, value, lost) -> _Spectrum:
        first = kept[0]
        values = [acb(0)] * (kept[-1] - first + 1)
        for f in kept:
            v = acb(1)
            for i, count in enumerate(counts):
                v *= value(i, f) ** count
            values[f - first] = v
        return _Spectrum(size, low, first, values, nu, lost, lost)

    upper = spectrum(kept_pair, nu_pair, upper_value, spans[0][2])
    lower_p = spectrum(kept_pair, nu_pair, lower_p_value, spans[1][2])
    lower_q = spectrum(kept_q, nu_q, lambda i, f: alone[i][f], spans[2][2])
    support = (min(spans[1][0], spans[2][0]), max(spans[1][1], spans[2][1]))
    centre = sum(count * (b.start + b.mean("lower_p")) for b, count in found)
    return Composition(mpmath.mpf(h), upper, _nonnegative(infinite), lower_p, lower_q, support, centre)


# --- the questions: δ(ε) and ε(δ), narrowed to the width asked for -------------------------------------------------
def _runs(P, Q) -> list:
    if isinstance(P, Product) and isinstance(Q, Product):
        return coordinates(P, Q)
    if isinstance(P, Product) or isinstance(Q, Product):
        raise InvalidDistribution("a product law is compared with a product law of as many factors")
    return [(P, Q, 1)]


def default_width() -> mpmath.mpf:
    """The relative width of a bracket when none is asked: 10^-((dps + 10)/20) at the working precision, within
    [1e-7, 1e-2] (1e-3 at 50 digits, 10^-1.5 at the verifier's first 20): more digits asked, a narrower bracket, so
    that a claim the coarse bracket leaves open is narrowed when the verifier retries at its full precision."""
    return min(mpmath.mpf("1e-2"), max(mpmath.mpf("1e-7"), mpmath.mpf(10) ** (-(mpmath.mp.dps + 10) / 20)))


def check_width(width) -> mpmath.mpf:
    """``width`` as a relative width in (0, 1), or a one-line error naming it."""
    try:
        w = mpmath.mpf(width)
    except (TypeError, ValueError):
        raise InvalidParameter(f"the relative width of a bracket must be a number in (0, 1), got {width!r}") from None
    if not (mpmath.isfinite(w) and 0 < w < 1):
        raise InvalidParameter(f"the relative width of a bracket must lie in (0, 1), got {width}")
    return w


def _width(width) -> mpmath.mpf:
    return default_width() if width is None else check_width(width)


def _first_step(runs, width) -> mpmath.mpf:
    """The grid step of the first, coarse composition: the bracket's relative width grows like c·k·h² (c about 6
    for the subsampled Gaussian at q = 0.01, σ = 1), so h = 3·sqrt(width/(6k)), no coarser than 0.05."""
    return _coarsest(_steps(runs), width)


def _coarsest(k, width) -> mpmath.mpf:
    """The first grid step for ``k`` composed steps (:func:`_first_step`)."""
    return min(mpmath.mpf("0.05"), 3 * mpmath.sqrt(mpmath.mpf(width) / (6 * k)))


def _steps(runs) -> int:
    """How many steps the runs compose."""
    return sum(count for _, _, count in runs)


def _spread_per_step(runs) -> tuple[float, float]:
    """The composed loss's growth per step, from a coarse binning of each coordinate's loss (256 steps over its
    range; the lower pair's laws, in floats): the distance between its means under P and under Q (KL(P‖Q) +
    KL(Q‖P), as the binning sees it) and its variance, each summed over the runs and divided by their steps."""
    steps = _steps(runs)
    distance = variance = 0.0
    for A, B, count in runs:
        L = loss(A, B)
        low, high = _range(L, TAIL, mpmath.mpf("1e-12"))
        if not high > low:
            continue
        h = (high - low) / 256
        with arb_precision(ctx.prec + 32):
            b = bins(L, h, TAIL, 0)
        moments = []
        for masses in (b.lower_p, b.lower_q):
            weights = [float(m.mid()) for m in masses]
            total = max(sum(weights), 1e-300)
            mean = sum(j * w for j, w in enumerate(weights)) / total
            moments.append((mean, sum((j - mean) ** 2 * w for j, w in enumerate(weights)) / total))
        distance += count * abs(moments[0][0] - moments[1][0]) * float(h)
        variance += count * max(moments[0][1], moments[1][1]) * float(h) ** 2
    return distance / steps, variance / steps


def _steps_spanned(k: float, distance: float, variance: float, width) -> float:
    """About how many grid steps the composed loss of ``k`` steps spans at the first grid (:func:`_first_step`, the
    coarsest the width asks for): the distance between its means under P and Q, and a Chernoff reach of the tail
    either side (the engine's window, :func:`_span`)."""
    h = float(_coarsest(k, width))
    reach = math.sqrt(2 * math.log(2 / float(TAIL)))
    return (k * distance + 2 * reach * math.sqrt(k * variance)) / h


def _too_many_steps(runs, width) -> InvalidParameter | None:
    """The error for runs of too many steps, or None: where at the grid the width asks for the composed loss spans
    more steps than a transform holds (:data:`MAX_LENGTH`), by so much (a factor 10/(3·sqrt(width))) that the
    coarser grid that would fit brackets δ to no better than its own size (the bracket's spread grows like h²). The
    largest number of steps that fits is computed, not searched for: the span is increasing in the steps."""
    steps = _steps(runs)
    distance, variance = _spread_per_step(runs)
    spanned = _steps_spanned(steps, distance, variance, width)
    if spanned <= MAX_LENGTH * 10 / (3 * math.sqrt(float(width))):
        return None
    return _steps_error(steps, spanned, distance, variance, width)


def _steps_error(steps: int, spanned: float, distance: float, variance: float, width) -> InvalidParameter:
    low, high = 1.0, float(steps)           # the span fits at `low` steps, not at `high`
    if _steps_spanned(low, distance, variance, width) > MAX_LENGTH:
        fitting = "not even 1 step fits"
    else:
        for _ in range(200):
            if high - low < 1:
                break
            middle = math.sqrt(low * high) if high > 4 * low else (low + high) / 2
            low, high = (middle, high) if _steps_spanned(middle, distance, variance, width) <= MAX_LENGTH \
                else (low, middle)
        fitting = f"at most about {int(low):.3g} steps fit at this width"
    return InvalidParameter(
        f"k = {steps} composed steps are too many for the accountant: at the grid the relative width "
        f"{mpmath.nstr(mpmath.mpf(width), 3)} asks for, their loss spans about {spanned:.2g} grid steps, more than a "
        f"transform holds ({MAX_LENGTH}); {fitting} (fewer steps, or a wider width)")


MAX_EXTRA_BITS = 1024
"""The most bits added to a composition's working precision where its sums' rounding swamps the bracket
(:func:`_narrowed`)."""


def _narrowed(runs, width, bracket: Callable, least=0, scale=None, at_top: Callable | None = None) -> Estimate:
    """Compose on finer grids (or with less left out) until ``bracket(composition) -> (low, high, short, needed)``
    (balls; whether the mass left out is a good part of the spread; the tail the bracket's size and ε call for,
    :func:`_tail_for`) is within ``width`` relative to its size (at least
    ``least``): the estimate of the narrowest bracket found. The spread is of order h² (module docstring), so each
    composition after the first aims at 85% of the width asked from the spread it measured (at most 10 times finer
    at once, or up to 33 times where the probe was made coarser than the width asks). The first is a probe of at
    most :data:`PROBE_SIZE` steps (made coarse enough before its bins are computed, :func:`_probe_step`); a grid
    whose transform would be larger than allowed is made as fine as fits. It
    stops early where the grid cannot be finer, or a finer one no longer narrows the bracket (the balls' own radii),
    or at the top of a bounded loss: where ``at_top(h)`` (δ(ε) asked within a grid step per coordinate of the largest
    composed loss, :func:`hockey_stick`) and two grids in a row, their tails short of nothing, do not show δ positive,
    it is 0 there or too small for any grid that fits, which no relative width reaches: the bracket is [0, upper].
    (There a finer grid narrows the upper end about as h, not h², so the test of 10% alone would refine it down to
    the largest transform.)

    ``scale`` is the size of the δ in question where it is known (ε(δ)), else the bracket's own: what is left out is
    kept below a thousandth of the width asked of it (:data:`NEGLIGIBLE`), and the bins are grouped where their mass
    is small against it (:data:`GROUPING`, at most :data:`GROUPING_CAP`); a first composition of unknown scale is
    grouped at :data:`GROUPING_CAP`. (Every one of these is a choice of grid, tail or partition, none a claim: any
    gives a certified bracket.)"""
    h, best, measured, unfound, hidden = _first_step(runs, width), None, scale is None, False, 0
    tail = TAIL if scale is None else min(TAIL, scale * width * NEGLIGIBLE)
    steps = _steps(runs)
    if steps > 10 ** 5:         # told before any grid is tried: too many steps for any transform
        refused = _too_many_steps(runs, width)
        if refused is not None:
            raise refused
    first = h
    h = _probe_step(runs, h, width)
    attempts, extra = 0, 0          # compositions tried; bits added where rounding swamped a bracket
    while attempts < 5:
        attempts += 1
        tail = max(mpmath.mpf(10) ** -300, tail)
        grouping = GROUPING_CAP if scale is None else min(GROUPING_CAP, GROUPING * min(1, steps * scale))
        with arb_precision(_bits(tail) + extra):
            try:
                composition = compose_losses(runs, h, tail, grouping, PROBE_SIZE if best is None else MAX_LENGTH)
            except _TooFine as refused:
                # the finest grid that fits (a little coarser than the ratio of sizes says: sizes are rounded up)
                fitting = h * mpmath.mpf(refused.size) / (PROBE_SIZE if best is None else MAX_LENGTH) * mpmath.mpf(1.1)
                if best is not None and not fitting < 0.9 * best[3]:
                    break
                h = fitting
                continue
            low, high, short, needed = bracket(composition)
            spread = high.upper() - low.lower()
            if not spread.is_finite():
                # an end not found (an ε where what is left out, times e^ε, or the sums' rounding swamps δ): any
                # bracket found later is narrower, and none of this one is measured
                unfound = True
                if needed < tail:
                    tail = needed
                elif tail > mpmath.mpf(10) ** -280:
                    tail *= mpmath.mpf(10) ** -12
                else:
                    h *= mpmath.mpf("0.5")
                continue
            size = max(abs(high.upper()), abs(low.lower()), least)
            if best is not None and not spread < 0.9 * best[2]:
                break               # no narrower than before: more of the same will not help
            best = (low, high, spread, h)
            if spread <= width * size or size < mpmath.mpf(10) ** -300:
                break
            if low.rad() + high.rad() > spread / 2 and extra < MAX_EXTRA_BITS:
                # the sums' rounding, not the grid, makes most of the bracket (a loss spanning a range so wide that
                # its factors e^{−ℓ} outrun the bits the tail asks for): the same grid again, with more bits
                extra += 128
                attempts -= 1
                continue
            # δ not shown positive within the grid's reach of the loss's top, and not for want of a shorter tail
            hidden = hidden + 1 if at_top is not None and at_top(h) and not short and not low.lower() > 0 else 0
            if hidden >= 2:
                break
            if measured:
                scale = min(scale or size, size)
            if needed < tail:           # the bracket's size and ε known: leave out no more than they allow
                tail = needed
            elif short and tail > mpmath.mpf(10) ** -280:
                tail *= mpmath.mpf(10) ** -12           # what is left out is much of the bracket: the grid is not
                continue
            ratio = float(spread / (width * size))
            # at most a tenth finer at a time, or as much finer as the probe was made coarser than the first step the
            # width asks for (:func:`_probe_step`), down to 3%
            lowest = max(mpmath.mpf("0.03"), min(mpmath.mpf("0.1"), first / (10 * h)))
            h = h * max(lowest, min(mpmath.mpf("0.85"), mpmath.sqrt(mpmath.mpf(0.85) / ratio)))
    if best is None and unfound:
        return Estimate(mpmath.mpf(0), mpmath.inf, Method.CERTIFIED)       # an end never found: nothing certified
    if best is None:
        distance, variance = _spread_per_step(runs)
        raise _steps_error(steps, _steps_spanned(steps, distance, variance, width), distance, variance, width)
    with arb_precision(_bits(tail) + extra):
        return _estimate(best[0], best[1])


def _probe_step(runs, h, width) -> mpmath.mpf:
    """The step of the first composition: ``h``, or coarser where the composed loss would span more than
    :data:`PROBE_SIZE` steps at ``h`` (estimated from a coarse binning, :func:`_spread_per_step`), so that the probe
    is not refused after its bins are computed (a choice: a probe still too fine is refused and made coarser)."""
    if _steps(runs) < 100:
        return h
    try:
        distance, variance = _spread_per_step(runs)
    except InvalidParameter:
        return h
    spanned = _steps_spanned(_steps(runs), distance, variance, width) * float(_coarsest(_steps(runs), width) / h)
    if not math.isfinite(spanned) or spanned <= PROBE_SIZE / 2:
        return h
    return h * mpmath.mpf(spanned) / (PROBE_SIZE / 2)


def _bits(tail) -> int:
    """The working precision of a composition leaving out ``tail``: its sums are absolute, to about 2^-prec times a
    few thousand, and must resolve what is left out."""
    return max(PRECISION, int(-mpmath.log(tail, 2)) + 30)


def _estimate(low: arb, high: arb, method: Method = Method.CERTIFIED) -> Estimate:
    """The estimate whose interval is [lower end of ``low``, upper end of ``high``] (read at the balls' precision)."""
    if not (low.lower().is_finite() and high.upper().is_finite()):     # an end not found: nothing certified
        return Estimate(mpmath.mpf(0), mpmath.inf, method)
    lo, hi = mpf_of(low.lower()), mpf_of(high.upper())
    with mpmath.workprec(max(mpmath.mp.prec, PRECISION) + 64):
        return Estimate((lo + hi) / 2, (hi - lo) / 2, method, certified=True)


def hockey_stick(P, Q, eps, *, width=None) -> Estimate:
    """δ(ε) = D_{e^ε}(P‖Q) of a pair of products (or of one pair), as a certified bracket of relative ``width``
    (default :func:`default_width`).

    >>> from symdp.engine.products import compose
    >>> est = hockey_stick(compose(5, Laplace(0, 1)), compose(5, Laplace(1, 1)), 1, width=1e-4)
    >>> est.certified, est.error <= 1e-4 * est.value
    (True, True)
    """
    runs, w, eps = _runs(P, Q), _width(width), mpmath.mpf(eps)
    def bracket(C: Composition):
        low, high = C.delta_lower(eps), C.delta_upper(eps)
        return low, high, C.left_out(eps) > w * high.upper() / 4, _tail_for(w, high.upper(), eps)

    # the largest composed loss (inf unless every coordinate's loss is bounded above), and the steps composed: on the
    # grid of step h, each coordinate's bin lies up to h from its loss, so the grid cannot tell the losses within
    # steps·h of the top from the top (a choice of when to stop, not a claim)
    top = sum((count * loss(A, B).high for A, B, count in runs), mpmath.mpf(0))
    if eps > top + (abs(top) + 1) * mpmath.mpf(2) ** (16 - mpmath.mp.prec):
        # above the largest loss (each coordinate's top, rounded by a few units, which the margin covers): no
        # outcome has L > ε, and δ(ε) = E_P[(1 − e^{ε − L})_+] is exactly 0
        return _estimate(arb(0), arb(0))
    steps = _steps(runs)
    return _narrowed(runs, w, bracket, at_top=lambda h: eps >= top - steps * h)


def epsilon_for(delta, P, Q, *, width=None) -> Estimate:
    """The least ε with δ(ε) ≤ ``delta`` (the approximate max divergence D_∞^δ(P‖Q), of either sign), as a certified
    bracket of relative ``width`` (relative to max(|ε|, 0.1): an ε near 0 is bracketed to an absolute 0.1·width):
    δ_upper(ε_high) ≤ delta proves ε ≤ ε_high, δ_lower(ε_low) > delta proves ε > ε_low.

    >>> from symdp.engine.products import compose
    >>> est = epsilon_for(1e-5, compose(10, Gaussian(0, 1)), compose(10, Gaussian(1, 1)), width=1e-4)
    >>> est.certified, est.error <= 1e-4 * est.value
    (True, True)
    """
    d = mpmath.mpf(delta)
    if not 0 < d < 1:
        raise InvalidParameter(f"delta must lie in (0, 1), got {delta}")
    runs, w = _runs(P, Q), _width(width)

    def bracket(C: Composition):
        high = _search(lambda e: C.delta_upper(e).upper() <= d)[1]        # δ(high) ≤ δ_upper(high) ≤ d, proved
        low = _search(lambda e: not C.delta_lower(e).lower() > d)[0]      # δ(low) ≥ δ_lower(low) > d, proved
        short = not mpmath.isfinite(high) or C.left_out(high) > w * d / 4
        ends = [arb(e) if mpmath.isfinite(e) else arb(0, "inf") for e in (low, high)]    # (arb(±inf) is nan)
        return ends[0], ends[1], short, _tail_for(w, d, high if mpmath.isfinite(high) else 0)

    return _narrowed(runs, w, bracket, least=mpmath.mpf("0.1"), scale=d)


def _tail_for(width, delta, eps) -> mpmath.mpf:
    """A tail small enough for a bracket of relative ``width`` around ``delta`` at ``eps``: what is left out enters
    the upper bound as it is and the lower one times e^ε (its Q-mass)."""
    return mpmath.mpf(width) * mpf_of(arb(delta).mid()) * NEGLIGIBLE * mpmath.exp(-max(mpmath.mpf(eps), 0))


def _search(done: Callable, low=-60, high=60, digits: int = 40) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Bisection of a monotone predicate on [low, high] to ``digits`` bits: ``(last, first)``, the largest point
    seen where ``done`` fails and the least where it holds (``-inf`` or ``inf`` where it holds or fails throughout).
    A certified end of a bracket is read at a point where its predicate was *evaluated*: ``first`` for a proof that
    holds there, ``last`` for one that fails there."""
    lo, hi = mpmath.mpf(low), mpmath.mpf(high)
    while done(lo):                 # the range grows until the predicate changes in it (an ε of 1e4 is possible)
        if lo < -1e6:
            return -mpmath.inf, lo
        lo, hi = 2 * lo, lo
    while not done(hi):
        if hi > 1e6:
            return hi, mpmath.inf
        lo, hi = hi, 2 * hi
    for _ in range(digits + int(mpmath.log(hi - lo, 2)) + 1):
        mid = (lo + hi) / 2
        if done(mid):
            hi = mid
        else:
            lo = mid
    return lo, hi


# --- losses on a lattice: composition without rounding ---------------------------------------------------------------
@dataclass(frozen=True)
class LatticeComposition:
    """The composed loss of laws on ℤ whose losses lie on one lattice (:func:`symdp.engine.integers.loss_lattice`):
    the P-law of the summed loss on ``origin + m·step``, the P-mass of +∞ loss, and the P-mass of the outcomes with
    a coordinate beyond the listed values (``beyond``: their loss is not known, so they count 0 in the lower bound and
    1 in the upper)."""

    origin: mpmath.mpf
    step: mpmath.mpf
    law: _Law
    infinite: arb
    beyond: arb
    shift: mpmath.mpf
    """A bound of how far the summed loss may lie from its lattice value (the lattice's rounded origin and step
    against the log-ratios of the masses): δ(ε) lies between the lattice's δ at ε + shift and at ε − shift."""
    top: int | None = None
    """The largest index of the summed loss before its ends were truncated (None: not known): the mass ``law.lost``
    left out lies at an index at most this."""

    def delta(self, eps) -> tuple[arb, arb]:
        """Lower and upper bounds of δ(ε) = E_P[(1 − e^{ε − L})_+]: sums over the lattice, exact in balls, at ε moved
        by the lattice's rounding (``shift``) each way."""
        eps = mpmath.mpf(eps)
        with mpmath.workprec(mpmath.mp.prec + 20):
            low, high = eps + self.shift, eps - self.shift
        return self._sum(low)[0], self._sum(high)[1]

    def _sum(self, eps) -> tuple[arb, arb]:
        h, law = self.step, self.law
        first = max(0, int(mpmath.floor((mpmath.mpf(eps) - self.origin) / h)) + 1 - law.start)
        head = law.poly.right_shift(first) if first else law.poly
        lowest = _ball(self.origin) + _ball(law.start + first) * _ball(h)
        weighted = head((-_ball(h)).exp()) * (_ball(eps) - lowest).exp()
        inside = _nonnegative(head(arb(1)) - weighted) + self.infinite
        if self.top is not None and _ball(self.origin) + _ball(self.top) * _ball(h) <= _ball(eps):
            # every lattice loss is proved at most ε: each term (1 − e^{ε − L})_+ is 0, that of the mass the
            # truncation left out too: δ(ε) is the P-mass of +∞ loss, and at most that beyond the listed values
            return self.infinite, self.infinite + self.beyond
        return _nonnegative(inside - law.excess), inside + law.lost + self.beyond


def lattice(runs) -> LatticeComposition | None:
    """The :class:`LatticeComposition` of runs of laws on ℤ with one common loss step, or None (other laws, no
    common step)."""
    if not all(isinstance(A, integers.IntegerLaw) and isinstance(B, integers.IntegerLaw) for A, B, _ in runs):
        return None
    try:
        lattices = [(integers.loss_lattice(A, B), count) for A, B, count in runs]
    except InvalidDistribution:
        return None
    steps = {lat.step for lat, _ in lattices if len(lat.p) > 1}
    if len(steps) > 1:
        return None
    step = steps.pop() if steps else mpmath.mpf(1)
    tail = mpmath.mpf(10) ** -(mpmath.mp.dps + 10)
    law, survive, inside, origin, shift = None, arb(1), arb(1), mpmath.mpf(0), arb(0)
    top = sum(count * (len(lat.p) - 1) for lat, count in lattices) if all(lat.p for lat, _ in lattices) else None
    for lat, count in lattices:
        power = _Law.of(0, list(lat.p), tail).power(count, tail)
        law = power if law is None else _truncated(law * power, tail)
        survive *= 1 - _survives(lat.p_infinite, count)
        inside *= 1 - _survives(lat.p_tail, count)
        origin += count * lat.origin
        shift += count * _off_lattice(lat)
    if top is not None and (law.start < 0 or law.start + law.poly.length() - 1 > top):
        # a cyclic power's window may reach past the sum's support [0, top], where the true masses are 0 and the
        # coefficients hold only rounding and folded mass (which ``excess`` bounds): they are dropped, so that an ε
        # above every loss sums nothing
        below = max(0, -law.start)
        kept = law.poly.truncate(top - law.start + 1).right_shift(below)
        law = _Law(law.start + below, kept, law.lost, law.excess)
    return LatticeComposition(origin, step, law, _nonnegative(1 - survive), _nonnegative(1 - inside),
                              mpf_of(shift.upper()), top)


def _off_lattice(lat) -> arb:
    """The largest distance between a listed log-ratio log(p_j/q_j) (from the mass balls) and its lattice value."""
    worst = arb(0)
    for j, (p, q) in enumerate(zip(lat.p, lat.q)):
        if p == 0 or q == 0:
            continue
        gap = abs((p / q).log() - _ball(lat.value(j)))
        worst = worst if gap.upper() <= worst.upper() else arb(gap.upper())
    return worst


def lattice_estimate(kind: str, runs, *args) -> Estimate | None:
    """δ(ε) (``hockey_stick``, TV at ε = 0) or ε(δ) (``approximate_max_divergence``) of runs of laws on ℤ whose
    losses share a lattice, exactly (balls at the working precision); None where they do not."""
    with arb_precision(mpmath.mp.prec + 20):
        composition = lattice(runs)
        if composition is None:
            return None
        if kind == "approximate_max_divergence":
            d = mpmath.mpf(args[0])
            if not 0 < d < 1:
                raise InvalidParameter(f"delta must lie in (0, 1), got {args[0]}")
            bits = mpmath.mp.prec + 10
            high = _search(lambda e: composition.delta(e)[1].upper() <= d, digits=bits)[1]
            low = _search(lambda e: not composition.delta(e)[0].lower() > d, digits=bits)[0]
            low_ball, high_ball = arb(low), arb(high)
        else:
            low_ball, high_ball = composition.delta(mpmath.mpf(args[0]) if args else 0)
        return _estimate(low_ball, high_ball, Method.EXACT)


def _polished(f: Callable, x, low, high, steps: int = 30):
    """Secant steps from ``x`` (mpmath's root, which stops at its own tolerance, about half the digits) until they
    no longer move it at the working precision, kept inside [low, high]."""
    x0, x1 = x, x * (1 + mpmath.mpf(10) ** (-mpmath.mp.dps // 2)) + mpmath.mpf(10) ** (-mpmath.mp.dps // 2)
    f0, f1 = f(x0), f(x1)
    for _ in range(steps):
        if f1 == f0:
            break
        x2 = x1 - f1 * (x1 - x0) / (f1 - f0)
        if not low <= x2 <= high:
            break
        x0, f0, x1, f1 = x1, f1, x2, f(x2)
        if abs(x1 - x0) <= mpmath.mpf(10) ** (1 - mpmath.mp.dps) * max(1, abs(x1)):
            break
    return x1 if abs(f1) <= abs(f(x)) else x


def epsilon_root(delta, profile: Callable) -> Estimate | None:
    """The least ε with δ(ε) ≤ ``delta`` from a certified privacy profile ``profile(ε) -> Estimate`` of δ(ε) (one
    pair of laws, measured by the engine): the root of δ(ε) = delta located by mpmath, then certified by the
    enclosures at two points ε_low < ε_high (δ(ε_low) > delta ≥ δ(ε_high)) a few units of the working precision
    apart. None where the profile is not certified there (the caller brackets instead).

    >>> from symdp.engine import certified
    >>> est = epsilon_root(1e-5, lambda e: certified.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), e))
    >>> est.certified, mpmath.nstr(est.value, 12)                # Φ(−ε + 1/2) − e^ε Φ(−ε − 1/2) = 1e-5
    (True, '4.37717809568')
    """
    d = mpmath.mpf(delta)
    if not 0 < d < 1:
        raise InvalidParameter(f"delta must lie in (0, 1), got {delta}")

    def above(e) -> bool | None:        # δ(ε) > delta (True), ≤ delta (False), or undecided / not certified (None)
        est = profile(e)
        if not est.certified:
            return None
        if est.value - est.error > d:
            return True
        return False if est.value + est.error <= d else None

    low, high = mpmath.mpf(-1), mpmath.mpf(1)
    while above(high):
        low, high = high, 2 * high
        if high > 1e6:
            return None
    while above(low) is False:
        low, high = 2 * low, low
        if low < -1e6:
            return None
    floor = d * mpmath.mpf(2) ** -mpmath.mp.prec

    def located(e):
        # log(δ(ε)/delta), not δ(ε) − delta: where the root is large, δ falls by many decades across [low, high]
        # (1e-55 at ε = 512 against 2e-3 at 256 for N(0, 1) and N(20, 1)), and a secant on δ itself creeps from the
        # low end without reaching the root; the logarithm is nearly linear there. (A δ of 0 counts as a tiny one.)
        return mpmath.log(max(profile(e).value, floor) / d)

    try:   # the last iterate, whether or not mpmath's own tolerance is met: the enclosures below decide
        root = mpmath.findroot(located, (low, high), solver="anderson", verify=False)
    except (ValueError, ZeroDivisionError):
        root = (low + high) / 2
    if not low <= root <= high:
        root = (low + high) / 2
    root = _polished(located, root, low, high)
    step = mpmath.mpf(10) ** (3 - mpmath.mp.dps) * max(1, abs(root))
    for _ in range(12):
        if above(root - step) and above(root + step) is False:
            with mpmath.workprec(mpmath.mp.prec + 10):
                return Estimate(root, step, weakest([profile(root - step).method, profile(root + step).method]),
                                certified=True)
        step *= 10
    return None
