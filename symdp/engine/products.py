"""Products of laws: the output of a composition as one engine object, :class:`Product`, with its own rule.

``compose(k, P)`` is the law of k independent draws of P (the view of k-fold composition); ``product(P1, ..., Pn)``
that of independent draws of different laws. A pair of products is compared coordinate by coordinate, and the
privacy loss of the pair is the sum of the coordinates' independent losses, so

* KL, Rényi and max divergences **add** over the coordinates and the loss MGF **multiplies** (centred or not): each
  coordinate's term is computed by the engine, by the method asked for;
* the hockey-stick divergence and TV need the law of the summed loss. The pair is reduced *exactly* to a pair with
  the same loss law (the likelihood ratio is a sufficient statistic, so every f-divergence is kept):

  - **finite coordinates** to their *loss classes*: atoms with one likelihood ratio merge; a k-fold power becomes
    one atom per multiset of ratios (multinomial masses), k + 1 atoms for k-fold randomized response instead of
    2^k; atoms where Q = 0 (infinite loss) and where P = 0 collapse to one class each. The masses are computed in
    ball arithmetic and rounded once to the working precision; the reduced pair is an ordinary finite pair, summed
    exactly by the finite rule (:func:`loss_classes`);
  - **Gaussian coordinates** with equal variances in each coordinate to the one pair N(Δ, 1), N(0, 1) with Δ² =
    Σ_i ((μ_i − ν_i)/σ_i)²: under either law the loss is Σ_i (μ_i − ν_i)(2x_i − μ_i − ν_i)/(2σ_i²), a Gaussian of
    the same mean and variance as that pair's. The engine measures the reduced pair by the method asked for.

A witness of a composition theorem (that KL adds, that standards add in quadrature) measures the joint law, through
:func:`loss_classes`, not through the additive rules, which assume what such a theorem states.

>>> from symdp.engine.divergences import divergence
>>> from symdp.engine.finite import FiniteDistribution
>>> import mpmath
>>> e = mpmath.log(3)
>>> P, Q = FiniteDistribution([0.75, 0.25]), FiniteDistribution([0.25, 0.75])        # randomized response at ln 3
>>> U, V = loss_classes(compose(1000, P), compose(1000, Q))      # 1001 atoms, not 2^1000; the first: 1000 times ln 3
>>> print(len(U), mpmath.nstr(U.probs[0] / (mpmath.mpf(3) / 4) ** 1000, 15))
1001 1.0
>>> k, E = 10, 2 * e                 # D_{e^E} of 10 rounds: Σ_j C(10, j) (3/4)^j (1/4)^(10-j) (1 - e^{E - (2j-10)e})_+
>>> exact = mpmath.fsum(mpmath.binomial(k, j) * (mpmath.mpf(3) / 4)**j * (mpmath.mpf(1) / 4)**(k - j)
...                     * max(0, 1 - mpmath.exp(E - (2 * j - k) * e)) for j in range(k + 1))
>>> abs(divergence("hockey_stick", compose(k, P), compose(k, Q), E).value - exact) < 1e-14
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product as cartesian
from typing import Iterator

import mpmath
from flint import arb, fmpq

from symdp.engine.continuous import ContinuousDistribution, Gaussian
from symdp.engine.finite import FiniteDistribution, _ball_precision
from symdp.engine.integers import IntegerLaw, aligned
from symdp.engine.gaussian_sums import GaussianSum
from symdp.engine.symmetrised import SymmetrisedLaw
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, mpf_nearest

MAX_CLASSES = 200_000
"""The most loss classes a finite product is reduced to (beyond, the reduction is refused with an error)."""


@dataclass(frozen=True, init=False)
class Product:
    """P_1 ⊗ … ⊗ P_n: independent draws, as ``factors``, pairs ``(law, multiplicity)`` in coordinate order."""

    factors: tuple[tuple[object, int], ...]

    def __init__(self, factors):
        merged: list[list] = []
        for law, count in factors:
            if isinstance(law, Product):
                inner = [f for _ in range(count) for f in law.factors]
            elif isinstance(law, (FiniteDistribution, ContinuousDistribution, SymmetrisedLaw, GaussianSum)):
                inner = [(law, count)]
            else:
                raise InvalidDistribution(f"a product's factors are laws, got {type(law).__name__}")
            for f, c in inner:
                if merged and merged[-1][0] == f:
                    merged[-1][1] += c
                else:
                    merged.append([f, c])
        if not merged:
            raise InvalidDistribution("a product needs at least one factor")
        object.__setattr__(self, "factors", tuple((f, c) for f, c in merged))

    @property
    def dimension(self) -> int:
        """The number of coordinates (of composed mechanisms)."""
        return sum(c for _, c in self.factors)


def _count(k) -> int:
    try:
        value = k if isinstance(k, int) else mpmath.mpf(k)
        whole = not isinstance(k, bool) and mpmath.isfinite(value) and value == int(value) and value >= 1
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise InvalidParameter(f"k of compose must be an integer >= 1, got {k!r}")
    return int(value)


def compose(k, P) -> Product:
    """P⊗…⊗P, k times: the output law of k-fold composition of a mechanism whose output law is P.

    >>> compose(2.5, FiniteDistribution([1]))
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: k of compose must be an integer >= 1, got 2.5
    """
    return Product([(P, _count(k))])


def product(*laws) -> Product:
    """P_1⊗…⊗P_n: the output law of running mechanisms with output laws P_1, ..., P_n independently."""
    return Product([(law, 1) for law in laws])


def coordinates(P: Product, Q: Product) -> list[tuple[object, object, int]]:
    """The pair's coordinates as runs ``(P_i, Q_i, count)``, aligned across the two products' own runs.

    >>> A, B = FiniteDistribution([1, 0]), FiniteDistribution([0, 1])
    >>> [(a is A, b is B, c) for a, b, c in coordinates(compose(3, A), product(B, B, A))]
    [(True, True, 2), (True, False, 1)]
    """
    if P.dimension != Q.dimension:
        raise InvalidDistribution(f"products of {P.dimension} and {Q.dimension} factors cannot be compared")
    runs, left, right = [], list(P.factors), list(Q.factors)
    while left:
        (a, m), (b, n) = left[0], right[0]
        step = min(m, n)
        if runs and runs[-1][0] == a and runs[-1][1] == b:
            runs[-1] = (a, b, runs[-1][2] + step)
        else:
            runs.append((a, b, step))
        left[0], right[0] = (a, m - step), (b, n - step)
        left, right = [x for x in left if x[1]], [x for x in right if x[1]]
    return runs


# --- finite coordinates: the loss classes --------------------------------------------------------------------------
def _ratio_groups(P: FiniteDistribution, Q: FiniteDistribution):
    """(finite-ratio groups [(p, q)], P-mass where Q = 0, Q-mass where P = 0), as exact rationals."""
    if len(P) != len(Q):
        raise InvalidDistribution(f"distributions live on different spaces: {len(P)} atoms vs {len(Q)} atoms")
    groups: dict = {}
    only_p, only_q = fmpq(0), fmpq(0)
    for a, b in zip(P.keys(), Q.keys()):   # (a law built exactly by its rationals, not their rounding)
        if b == 0:
            only_p += a
        elif a == 0:
            only_q += b
        else:
            g = groups.setdefault(a / b, [fmpq(0), fmpq(0)])
            g[0], g[1] = g[0] + a, g[1] + b
    return [tuple(g) for g in groups.values()], only_p, only_q


def _multisets(count: int, groups: int) -> Iterator[tuple[int, ...]]:
    if groups == 1:
        yield (count,)
        return
    for first in range(count, -1, -1):
        for rest in _multisets(count - first, groups - 1):
            yield (first, *rest)


def _power_gap(a: fmpq, b: fmpq, count: int) -> arb:
    """(a + b)^k − a^k, as a^k expm1(k log1p(b/a)): no cancellation when b is tiny (k δ' for a δ' atom)."""
    if a == 0:
        return arb(b) ** count
    return arb(a) ** count * (count * arb(b / a).log1p()).expm1()


def _power_classes(P: FiniteDistribution, Q: FiniteDistribution, count: int, exact: bool = False) -> list[tuple]:
    """The (P-mass, Q-mass) of the loss classes of the ``count``-fold power of a finite pair on one space: balls,
    or exact rationals where ``exact`` (of the rationals, :meth:`~symdp.engine.finite.FiniteDistribution.keys`)."""
    groups, only_p, only_q = _ratio_groups(P, Q)
    size = math.comb(count + len(groups) - 1, len(groups) - 1) if groups else 0
    if size > MAX_CLASSES:
        raise InvalidParameter(f"{count}-fold composition of a pair with {len(groups)} likelihood ratios has {size} "
                               f"loss classes, more than the {MAX_CLASSES} symdp reduces to")
    number = fmpq if exact else arb

    def gap(a, b):   # (a + b)^k − a^k: exactly, or in balls without cancellation
        return (a + b) ** count - a ** count if exact else _power_gap(a, b, count)

    p_sum, q_sum = sum((g[0] for g in groups), fmpq(0)), sum((g[1] for g in groups), fmpq(0))
    classes = []
    if only_p:   # some coordinate has infinite loss: Q-mass 0
        classes.append((gap(p_sum, only_p), number(0)))
    if only_q:   # some coordinate has P = 0 (and none Q = 0): P-mass 0
        classes.append((number(0), gap(q_sum, only_q)))
    ps, qs = [number(g[0]) for g in groups], [number(g[1]) for g in groups]
    for counts in _multisets(count, len(groups)) if groups else ():
        ways, left = 1, count
        for c in counts:
            ways, left = ways * math.comb(left, c), left - c
        p_mass, q_mass = number(ways), number(ways)
        for p, q, c in zip(ps, qs, counts):
            if c:
                p_mass, q_mass = p_mass * p**c, q_mass * q**c
        classes.append((p_mass, q_mass))
    return classes


EXACT_CLASS_BITS = 1 << 15
"""The largest size (bits of numerator and denominator) of a loss class's mass that :func:`loss_classes` computes as
an exact rational; beyond it the masses are balls, rounded once to the working precision."""


def _on_one_space(P: FiniteDistribution, Q: FiniteDistribution) -> tuple[FiniteDistribution, FiniteDistribution]:
    """Two integer laws on the union of their windows (:func:`~symdp.engine.integers.aligned`), other laws as they
    are."""
    return aligned(P, Q) if isinstance(P, IntegerLaw) and isinstance(Q, IntegerLaw) else (P, Q)


def _exact_size(runs) -> int:
    """The bits of the largest exact mass of the loss classes of ``runs`` ``(A, B, count)`` of exact laws: each
    factor's rationals raised to its count."""
    bits = 0
    for A, B, count in runs:
        widest = max(max(r.p.bit_length() + r.q.bit_length() for r in law.rationals) for law in (A, B))
        bits += count * widest + count.bit_length() * len(A)   # (and the multinomial coefficient)
    return bits


def loss_classes(P: Product, Q: Product) -> tuple[FiniteDistribution, FiniteDistribution]:
    """The finite pair of loss classes of a pair of products of finite laws: the same privacy-loss law, so the
    same f-divergences (hockey-stick, TV, KL, Rényi), on one atom per class instead of one per outcome.

    Where every factor was built exactly (its :attr:`~symdp.engine.finite.FiniteDistribution.rationals`) and the
    masses stay below :data:`EXACT_CLASS_BITS`, the classes are exact rationals: the pair *is* the reduced product,
    and measured in balls it is the product's. Otherwise each mass is a ball rounded to the working precision, and
    the pair is the reduced product only to that rounding (it is then not an exact law, whatever its rationals say)."""
    runs = coordinates(P, Q)
    if not all(isinstance(A, FiniteDistribution) and isinstance(B, FiniteDistribution) for A, B, _ in runs):
        raise InvalidDistribution("loss classes are of products of finite laws")
    # each pair on one space, once; exact where every pair is as compared (a law laid on a wider window may not be)
    runs = [(*_on_one_space(A, B), count) for A, B, count in runs]
    exact = all(A.exact and B.exact for A, B, _ in runs) and _exact_size(runs) <= EXACT_CLASS_BITS
    classes = [(fmpq(1), fmpq(1)) if exact else (arb(1), arb(1))]
    for A, B, count in runs:
        with _ball_precision(count + len(A)):
            power = _power_classes(A, B, count, exact)
            if len(classes) * len(power) > MAX_CLASSES:
                raise InvalidParameter(f"a product with more than {MAX_CLASSES} loss classes is not reduced")
            classes = [(p * p2, q * q2) for (p, q), (p2, q2) in cartesian(classes, power)]
    if exact:
        return tuple(FiniteDistribution._of_rationals(masses) for masses in zip(*classes))
    with mpmath.workprec(mpmath.mp.prec):
        return tuple(FiniteDistribution([mpf_nearest(x.mid()) for x in masses]) for masses in zip(*classes))


def gaussian_pair(P: Product, Q: Product) -> tuple[Gaussian, Gaussian]:
    """The pair N(Δ, 1), N(0, 1) with the loss law of a pair of products of Gaussians with equal variances in each
    coordinate, Δ² = Σ_i ((μ_i − ν_i)/σ_i)² (rounded once to the working precision)."""
    total = mpmath.mpf(0)
    for A, B, count in coordinates(P, Q):
        if not (type(A) is Gaussian and type(B) is Gaussian and A.sd == B.sd):
            raise InvalidDistribution("the hockey-stick divergence of a product is computed for finite factors, or "
                                      "for Gaussian factors with equal variances in each coordinate")
        total += count * ((A.mean - B.mean) / A.sd) ** 2
    return Gaussian(mpmath.sqrt(total), 1), Gaussian(0, 1)


def reducible(P: Product, Q: Product) -> bool:
    """Whether the pair reduces exactly (:func:`reduced`): finite factors, or Gaussians with one standard deviation
    in each coordinate."""
    runs = coordinates(P, Q)
    return (all(isinstance(A, FiniteDistribution) and isinstance(B, FiniteDistribution) for A, B, _ in runs)
            or all(type(A) is Gaussian and type(B) is Gaussian and A.sd == B.sd for A, B, _ in runs))


def reduced(P: Product, Q: Product) -> tuple:
    """The pair with the same loss law: :func:`loss_classes` for finite factors, :func:`gaussian_pair` for Gaussian
    ones."""
    if all(isinstance(A, FiniteDistribution) for A, _, _ in coordinates(P, Q)):
        return loss_classes(P, Q)
    return gaussian_pair(P, Q)


# --- the rule's functions: ``door`` is the engine's :func:`~symdp.engine.divergences.divergence` ----------------
def _asked(A, method):
    """The method to ask of one coordinate: finite laws are summed exactly, whatever was asked of densities."""
    return "auto" if isinstance(A, FiniteDistribution) else method


def _over_coordinates(fold, door, kind, P, Q, *args, method, **options) -> Estimate:
    """``fold`` of the coordinates' quantities (each by the engine) and their multiplicities, in ball arithmetic; an
    infinite coordinate makes the whole infinite."""
    terms = [(door(kind, A, B, *args, method=_asked(A, method), **options), c) for A, B, c in coordinates(P, Q)]
    infinite = [t for t, _ in terms if t.is_infinite()]
    if infinite:
        return infinite[0]
    return Estimate.combine(lambda *xs: fold(zip(xs, (c for _, c in terms))), *(t for t, _ in terms))


def additive(door, kind, P, Q, *args, method, **options) -> Estimate:
    """KL, Rényi, max divergence of a product pair: the sum over coordinates."""
    return _over_coordinates(lambda terms: sum(x * c for x, c in terms), door, kind, P, Q, *args, method=method,
                             **options)


def multiplicative(door, kind, P, Q, lam, *, method, centred: bool = False) -> Estimate:
    """E[e^{λL}] of a product pair: the product over coordinates (L is a sum of independent losses; centred, each
    centred at its own mean)."""
    return _over_coordinates(lambda terms: math.prod(x**c for x, c in terms), door, kind, P, Q, lam, method=method,
                             centred=centred)


def _beyond_windows(P: Product, Q: Product) -> tuple[mpmath.mpf, mpmath.mpf]:
    """Upper bounds of the P- and Q-mass of the product's outcomes outside the laws' windows (laws on ℤ carry a
    certified ``tail``; the loss classes are of the windows): Σ count · tail."""
    runs = coordinates(P, Q)
    with mpmath.workprec(mpmath.mp.prec + 10):
        return tuple(mpmath.fsum(count * getattr(law, "tail", 0) for law, count in
                                 ((run[side], run[2]) for run in runs)) for side in (0, 1))


def through_reduction(door, kind, P, Q, *args, method, **options) -> Estimate:
    """A divergence of a product pair measured on the reduced pair (:func:`reduced`). Where factors are laws on ℤ,
    the mass beyond their windows (ΔP, ΔQ) moves δ(ε) by at most ΔP + e^ε ΔQ, twice that once the windows are
    renormalised: added to the error of δ(ε) and TV, and ε(δ) is bracketed by ε(δ ± that)."""
    A, B = reduced(P, Q)
    estimate = door(kind, A, B, *args, method=_asked(A, method), **options)
    beyond_p, beyond_q = _beyond_windows(P, Q) if isinstance(A, FiniteDistribution) else (0, 0)
    if not (beyond_p or beyond_q) or estimate.is_infinite():
        return estimate
    if kind in ("hockey_stick", "tv"):
        eps = mpmath.mpf(args[0]) if args else mpmath.mpf(0)
        slack = 2 * (beyond_p + mpmath.exp(eps) * beyond_q)
        return Estimate(estimate.value, estimate.error + slack, estimate.method, estimate.scale, estimate.certified)
    if kind == "approximate_max_divergence":
        delta = mpmath.mpf(args[0])
        slack = 2 * (beyond_p + mpmath.exp(estimate.value + estimate.error + 1) * beyond_q)
        ends = [door(kind, A, B, delta + sign * slack, method=_asked(A, method), **options) for sign in (1, -1)]
        low, high = ends[0].value - ends[0].error, ends[1].value + ends[1].error
        return Estimate((low + high) / 2, (high - low) / 2, estimate.method, None,
                        all(e.certified for e in ends))
    return estimate
