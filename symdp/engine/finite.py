"""Finite distributions and their divergences, certified: every sum is computed in ball arithmetic.

A :class:`FiniteDistribution` is a probability vector on atoms ``0..n-1``, validated on construction: every
probability is non-negative and they sum to one within the working precision. Divergences follow the usual
measure-theoretic conventions: an atom with ``P > 0`` and ``Q = 0`` makes KL, Rényi and max divergence ``+inf``
(an exact infinity); atoms with ``P = 0`` contribute nothing.

The probabilities, binary numbers as given, enter python-flint's Arb balls exactly; every operation after that is
ball arithmetic at the working precision plus guard bits, so each divergence is an enclosure
(:meth:`Estimate.from_arb <symdp.estimate.Estimate.from_arb>`, ``certified=True``) of the divergence *of the
numbers given*, intersected with the divergence's domain (:mod:`symdp.engine.domains`: the given numbers sum to one
only within the working precision, and a KL just below 0 is the rounding of a non-negative one). Rounding made
before (in building the probabilities) is the caller's.

>>> from symdp.engine.finite import FiniteDistribution, kl, renyi, hockey_stick, tv
>>> P, Q = FiniteDistribution([0.75, 0.25]), FiniteDistribution([0.25, 0.75])
>>> print(mpmath.nstr(kl(P, Q).value, 15), kl(P, Q).certified)
0.549306144334055 True
>>> print(mpmath.nstr(renyi(P, Q, mpmath.inf).value, 15))
1.09861228866811
>>> print(tv(P, Q).value)
0.5
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

import mpmath
from flint import arb, fmpq

from symdp.engine.domains import within_domain
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, arb_precision, exact_rational
from symdp.numeric import check_order as _check_order, to_mpf

GUARD_BITS = 32
"""Bits beyond mpmath's working precision at which the balls are computed (plus log2 of the number of atoms, the
growth of a sum's radius), so that the enclosures come out a few units of the last place wide."""


def _tolerance(n: int) -> mpmath.mpf:
    return n * _unit_tolerance(mpmath.mp.prec, mpmath.mp.dps)


@functools.lru_cache(maxsize=None)
def _unit_tolerance(prec: int, dps: int) -> mpmath.mpf:
    """``10^(3 - dps)`` at the working precision ``prec`` (the caller's): a power, which every law built would
    otherwise recompute."""
    return mpmath.mpf(10) ** (-dps + 3)


@dataclass(frozen=True, init=False)
class FiniteDistribution:
    """A probability vector, validated: non-negative entries summing to one within the working precision.

    A law whose probabilities, read exactly (:func:`given_rational`: ints, ``Fraction``, ``fmpq``, a float or string
    as its decimal, an mpf as its binary value), sum exactly to one keeps them (:attr:`rationals`, :attr:`exact`), and
    so does a :meth:`normalized` one: its divergences are then enclosures of that law itself, not of its
    probabilities rounded to the working precision. Whether it is the law a draw names is the builder's to say: the
    law ``(p, 1 - p)`` of a rounded ``p = e^ε/(1 + e^ε)`` is exact, and it is the rounded law.

    >>> FiniteDistribution([0.5, 0.6])
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidDistribution: probabilities sum to 1.1 (off by 0.1), not 1
    >>> FiniteDistribution.normalized([1, 2]).rationals, FiniteDistribution([0.25, 0.75]).exact
    ((1/3, 2/3), True)
    """

    probs: tuple[mpmath.mpf, ...]
    rationals: tuple | None = dataclasses.field(default=None, compare=False, repr=False)
    """The probabilities as exact rationals (``fmpq``) summing to one, where the law was built exactly; else None
    (the probabilities are numbers at the working precision that sum to one only within it)."""

    def __init__(self, probs: Iterable):
        if isinstance(probs, FiniteDistribution):   # a copy, exact where the law is
            object.__setattr__(self, "probs", probs.probs)
            object.__setattr__(self, "rationals", probs.rationals)
            return
        probs = list(probs)
        values = tuple(_mpf_of_rational(p) if isinstance(p, (Fraction, fmpq)) else to_mpf(p, "probability")
                       for p in probs)
        if not values:
            raise InvalidDistribution("a finite distribution needs at least one atom")
        for i, p in enumerate(values):
            if not mpmath.isfinite(p):
                raise InvalidDistribution(f"probability {i} is {p}, not a finite number")
            if p < 0:
                raise InvalidDistribution(f"probability {i} is negative: {mpmath.nstr(p, 8)}")
        total = mpmath.fsum(values)
        if abs(total - 1) > _tolerance(len(values)):
            raise InvalidDistribution(
                f"probabilities sum to {mpmath.nstr(total, 12)} (off by {mpmath.nstr(total - 1, 3)}), not 1"
                + (" within the working precision; give exact values (fractions, strings) or use normalized()"
                   if abs(total - 1) < 1e-9 else ""))
        object.__setattr__(self, "probs", values)
        exact = tuple(given_rational(p) for p in probs)
        if sum(exact, fmpq(0)) == 1:
            object.__setattr__(self, "rationals", exact)

    @property
    def exact(self) -> bool:
        """Whether the law was built exactly (:attr:`rationals`)."""
        return self.rationals is not None

    @classmethod
    def normalized(cls, weights: Iterable) -> "FiniteDistribution":
        """The distribution proportional to non-negative ``weights``, exactly: each weight the rational it is
        (:func:`given_rational`: a float as its decimal), divided by their exact sum (:attr:`rationals`).

        >>> FiniteDistribution.normalized([0.5, 1, 0]).rationals, FiniteDistribution.normalized([0.3, 0.7]).rationals
        ((1/3, 2/3, 0), (3/10, 7/10))
        """
        weights = list(weights)
        w = [to_mpf(x, "weight") for x in weights]
        if any(not mpmath.isfinite(x) for x in w):
            raise InvalidDistribution("weights must be finite numbers")
        if any(x < 0 for x in w):
            raise InvalidDistribution("weights must be non-negative")
        exact = [given_rational(x) for x in weights]
        total = sum(exact, fmpq(0))
        if total <= 0:
            raise InvalidDistribution("weights sum to zero")
        return cls._of_rationals([x / total for x in exact])

    @classmethod
    def _of_rationals(cls, rationals: Sequence[fmpq]) -> "FiniteDistribution":
        """The law of exact rationals known to be non-negative and to sum to one (:meth:`normalized`,
        :meth:`product`): what ``cls(rationals)`` builds, without re-reading and re-checking them, which would pass by
        construction (each probability is its rational rounded, so they sum to one within the tolerance)."""
        law = object.__new__(cls)
        object.__setattr__(law, "probs", tuple(_mpf_of_rational(r) for r in rationals))
        object.__setattr__(law, "rationals", tuple(rationals))
        return law

    def balls(self) -> list:
        """The probabilities as Arb balls at flint's precision: around the exact rationals where the law has them
        (the rounding inside each ball), else the binary numbers exactly."""
        return [arb(r) for r in self.rationals] if self.rationals is not None else [arb(p) for p in self.probs]

    def keys(self) -> tuple:
        """The probabilities as exact rationals for comparisons (equal atoms, zero atoms): :attr:`rationals`, or
        the binary numbers given."""
        return self.rationals if self.rationals is not None else tuple(exact_rational(p) for p in self.probs)

    def __len__(self) -> int:
        return len(self.probs)

    def __getitem__(self, i: int) -> mpmath.mpf:
        return self.probs[i]

    def __iter__(self):
        return iter(self.probs)

    def support(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.probs) if p > 0)

    def push_forward(self, kernel: Sequence[Sequence]) -> "FiniteDistribution":
        """The law of the output of a Markov kernel (row-stochastic matrix, its rows sequences or laws) fed with this
        distribution: exact where this law and every row are (:attr:`rationals`)."""
        laws = [r if isinstance(r, FiniteDistribution) else None for r in kernel]
        rows = [list(r.probs if isinstance(r, FiniteDistribution) else r) for r in kernel]
        if len(rows) != len(self.probs):
            raise InvalidParameter(f"kernel has {len(rows)} rows but the distribution has {len(self.probs)} atoms")
        m = len(rows[0])
        if self.rationals is not None and all(law is not None and law.rationals is not None for law in laws):
            return FiniteDistribution([sum((p * law.rationals[j] for p, law in zip(self.rationals, laws) if p),
                                           fmpq(0)) for j in range(m)])
        return FiniteDistribution(
            [mpmath.fsum(p * to_mpf(rows[i][j]) for i, p in enumerate(self.probs)) for j in range(m)]
        )

    def product(self, other: "FiniteDistribution") -> "FiniteDistribution":
        """The product measure, atoms ordered row-major (exact where both laws are)."""
        if self.rationals is not None and other.rationals is not None:
            return FiniteDistribution._of_rationals([p * q for p in self.rationals for q in other.rationals])
        return FiniteDistribution([p * q for p in self.probs for q in other.probs])


def _pair(P: FiniteDistribution, Q: FiniteDistribution) -> None:
    if not isinstance(P, FiniteDistribution) or not isinstance(Q, FiniteDistribution):
        raise InvalidDistribution("both arguments must be FiniteDistribution")
    if len(P) != len(Q):
        raise InvalidDistribution(f"distributions live on different spaces: {len(P)} atoms vs {len(Q)} atoms")


# --- ball arithmetic ------------------------------------------------------------------------------------------------


def _ball_precision(atoms: int):
    """Arb's precision for a sum over ``atoms`` atoms: mpmath's plus guard bits, restored on exit."""
    return arb_precision(mpmath.mp.prec + GUARD_BITS + atoms.bit_length())


def _certified(ball: arb, scale: arb | None = None) -> Estimate:
    """The certified estimate of a ball, with its ``scale`` (see Estimate).

    The enclosure is of the divergence of the probabilities *as given*; they are usually rounded, to a unit of the
    last place relative to each. ``scale`` is the first-order sensitivity of the sum to such relative roundings of
    the atoms that enter it (Σ over atoms of |∂ value / ∂ log P_i| + |∂ value / ∂ log Q_i|), so that a verifier can
    add ``scale × unit roundoff`` for the inputs: relative to the atoms involved, not to 1 (a divergence of atoms of
    mass 1e-200 is known to 1e-250, not to 1e-50)."""
    estimate = Estimate.from_arb(ball, "exact")
    return estimate if scale is None else dataclasses.replace(estimate, scale=mpmath.mpf(scale.mid()))


def _exact_infinity() -> Estimate:
    """``+inf``, decided exactly (mismatched supports): no error, and certified."""
    return Estimate(mpmath.inf, mpmath.mpf(0), "exact", certified=True)


def _log_ratio(p: fmpq, q: fmpq) -> arb:
    """``log(p / q)`` for exact rationals ``p, q > 0``, as a ball accurate relative to itself (the ratio formed
    exactly, by log1p where it is near 1)."""
    ratio = p / q
    if 2 * abs(ratio - 1) < 1:
        return arb(ratio - 1).log1p()
    return arb(ratio).log()


def _ball_sum(balls: Iterable[arb]) -> arb:
    return sum(balls, arb(0))


def given_rational(x, what: str = "probability") -> fmpq:
    """A number as the exact rational it was given as: an int, ``Fraction`` or ``fmpq`` itself, a float or a decimal
    string the decimal it prints as (0.3 is 3/10, as :func:`~symdp.numeric.to_mpf` means it), an mpf its binary
    value (:func:`~symdp.estimate.exact_rational`).

    >>> given_rational(0.3), given_rational("1e-3"), given_rational(mpmath.mpf(0.5))
    (3/10, 1/1000, 1/2)
    """
    if isinstance(x, float) and math.isfinite(x):
        x = Fraction(repr(x))
    elif isinstance(x, str):
        try:
            x = Fraction(x.strip())
        except ValueError:
            pass   # "1/3" parses; anything else is read by to_mpf (which names the problem)
    return exact_rational(x, what)


def _mpf_of_rational(x) -> mpmath.mpf:
    """An exact rational (``Fraction`` or ``fmpq``) rounded to the working precision."""
    numerator, denominator = (x.numerator, x.denominator) if isinstance(x, Fraction) else (int(x.p), int(x.q))
    return mpmath.mpf(numerator) / denominator


def _atoms(P: FiniteDistribution, Q: FiniteDistribution):
    """The atoms of a pair as ``(P_i, Q_i, p_i, q_i)``: balls (:meth:`FiniteDistribution.balls`) and the exact
    rationals (:meth:`FiniteDistribution.keys`) that comparisons, differences and likelihood ratios are formed from
    before a ball enters (two equal atoms differ by an exact 0, not by a ball around it)."""
    return zip(P.balls(), Q.balls(), P.keys(), Q.keys())


# --- divergences ----------------------------------------------------------------------------------------------------


def kl(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """KL divergence ``sum_i P_i log(P_i / Q_i)``; ``+inf`` if P is not absolutely continuous w.r.t. Q.

    >>> e = kl(FiniteDistribution([0.5, 0.5]), FiniteDistribution([0.25, 0.75]))
    >>> with mpmath.workdps(30):   # log(4/3)/2, beyond the enclosure's own precision
    ...     print(e.certified, e.value - e.error <= mpmath.log(mpmath.mpf(4) / 3) / 2 <= e.value + e.error)
    True True
    """
    _pair(P, Q)
    with _ball_precision(len(P)):
        total, size = _kl_terms(P, Q)
        return _exact_infinity() if total is None else within_domain(_certified(total, scale=size), "kl")


def _kl_terms(P: FiniteDistribution, Q: FiniteDistribution) -> tuple[arb | None, arb | None]:
    """``Σ P_i log(P_i/Q_i)`` and its scale ``Σ P_i (|log(P_i/Q_i)| + 2)`` (``∂/∂ log P_i = P_i (log + 1)``,
    ``∂/∂ log Q_i = -P_i``) as balls; ``(None, None)`` if some ``Q_i = 0 < P_i``."""
    terms, sizes = [], []
    for P_i, Q_i, p, q in _atoms(P, Q):
        if p == 0 or p == q:  # an atom with P = Q contributes exactly 0
            continue
        if q == 0:
            return None, None
        loss = _log_ratio(p, q)
        terms.append(P_i * loss)
        sizes.append(P_i * (loss.abs_upper() + 2))
    return _ball_sum(terms), _ball_sum(sizes)


def renyi(P: FiniteDistribution, Q: FiniteDistribution, alpha) -> Estimate:
    """Rényi divergence of order ``alpha`` in ``(1, inf]``; ``alpha = inf`` is the max divergence.

    Computed as ``log1p(S) / (α - 1)`` with ``S = Σ P_i expm1((α - 1) log(P_i / Q_i))``, which is
    ``log Σ P_i^α Q_i^(1-α) / (α - 1)`` when P sums to 1: each term is accurate relative to itself, so orders near
    1 lose nothing to the division by ``α - 1`` (the value tends to KL), and large orders cannot overflow (Arb's
    exponents are unbounded). Probabilities sum to 1 only to working precision; this form reads the missing mass as
    an atom of ratio 1, so that ``R_α(P||P) = 0`` exactly, as KL's sum does.

    >>> P, Q = FiniteDistribution([0.75, 0.25]), FiniteDistribution([0.25, 0.75])
    >>> print(mpmath.nstr(renyi(P, Q, 2).value, 15), mpmath.nstr(mpmath.log(mpmath.mpf(7) / 3), 15))
    0.847297860387204 0.847297860387204
    """
    _pair(P, Q)
    a = _check_order(alpha)
    if mpmath.isinf(a):
        return max_divergence(P, Q)
    with _ball_precision(len(P)):
        order = arb(a) - 1
        terms, masses = [], []
        for P_i, Q_i, p, q in _atoms(P, Q):
            if p == 0 or p == q:  # expm1(0) = 0
                continue
            if q == 0:
                return _exact_infinity()
            masses.append(P_i)
            terms.append(P_i * (order * _log_ratio(p, q)).expm1())
        excess = _ball_sum(terms)
        value = excess.log1p() / order
        # Sensitivity to log P_i: (t_i + (α-1) P_i r_i^(α-1)) / ((1+S)(α-1)); to log Q_i: P_i r_i^(α-1) / (1+S),
        # with t_i the term and P_i r_i^(α-1) = P_i + t_i.
        moments = _ball_sum(P_i + t for P_i, t in zip(masses, terms)).abs_upper()
        scale = (_ball_sum(t.abs_upper() for t in terms) / order + 2 * moments) / (1 + excess).abs_lower()
        return within_domain(_certified(value, scale=scale), "renyi")


def max_divergence(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """``D_inf(P||Q) = max_{i: P_i > 0} log(P_i / Q_i)``.

    >>> print(max_divergence(FiniteDistribution([0.5, 0.5]), FiniteDistribution([0.25, 0.75])).value == mpmath.log(2))
    True
    """
    _pair(P, Q)
    with _ball_precision(len(P)):
        losses = []
        for P_i, Q_i, p, q in _atoms(P, Q):
            if p == 0:
                continue
            if q == 0:
                return _exact_infinity()
            losses.append(_log_ratio(p, q))
        return within_domain(_certified(functools.reduce(arb.max, losses)), "max_divergence")


def approximate_max_divergence(P: FiniteDistribution, Q: FiniteDistribution, delta) -> Estimate:
    """δ-approximate max divergence in the (corrected) sense of DRV10: the least ε with ``D_{e^ε}(P||Q) <= δ``.

    Returns ``-inf`` when even ε → -∞ satisfies it (δ ≥ 1, or P's whole mass can be absorbed), ``+inf`` when no ε
    does. On each interval between consecutive atom losses the hockey-stick divergence is ``A - e^ε B``, with ``A``
    and ``B`` the P- and Q-masses of the atoms whose likelihood ratio is above ``e^ε``: the walk over the atoms is
    done in exact rationals (the probabilities are binary fractions), and only the final ``log((A - δ)/B)`` is a ball.

    >>> P, Q = FiniteDistribution([0.75, 0.25]), FiniteDistribution([0.25, 0.75])   # D_{e^ε} = 3/4 - e^ε/4 up to 3
    >>> print(mpmath.nstr(approximate_max_divergence(P, Q, 0.25).value, 15), mpmath.nstr(mpmath.log(2), 15))
    0.693147180559945 0.693147180559945
    """
    _pair(P, Q)
    d = to_mpf(delta, "delta")
    if not d >= 0 or mpmath.isinf(d):
        raise InvalidParameter(f"delta must be a finite number >= 0, got {mpmath.nstr(d, 10)}")
    level = exact_rational(d)
    # Atoms of P's support (the others add nothing to D_{e^ε}), by likelihood ratio P/Q, largest first; Q = 0 is +inf.
    atoms = [(p, q) for p, q in zip(P.keys(), Q.keys()) if p > 0]
    off_support = sum((p for p, q in atoms if q == 0), fmpq(0))
    if off_support > level:
        return _exact_infinity()
    A, B = off_support, fmpq(0)
    for p, q in sorted((atom for atom in atoms if atom[1] != 0), key=lambda atom: atom[0] / atom[1], reverse=True):
        if A - (p / q) * B > level:  # D_{e^ε} at ε = this atom's loss is still above δ: the solution lies above it
            return _log_of_rational(A, level, B)
        A += p
        B += q
    if A <= level or B == 0:
        return Estimate(-mpmath.inf, mpmath.mpf(0), "exact", certified=True)
    return _log_of_rational(A, level, B)


def _log_of_rational(A: fmpq, level: fmpq, B: fmpq) -> Estimate:
    """``log((A - δ)/B)``, with the scale ``A/(A - δ) + 1 + δ/(A - δ)`` of its sensitivity to relative roundings of
    the masses and of δ (see :func:`_certified`): a root at ε = 0 is 0 relative to those, not to itself."""
    with _ball_precision(1):
        value = arb((A - level) / B).log()
        scale = arb((A + level) / (A - level)) + 1
        return _certified(value, scale=scale)


def hockey_stick(P: FiniteDistribution, Q: FiniteDistribution, eps) -> Estimate:
    """Hockey-stick divergence ``D_{e^eps}(P||Q) = sum_i max(0, P_i - e^eps Q_i)``, for ε of any sign.

    ε = ±inf are the limits: P's mass outside Q's support, and P's whole mass.

    >>> P, Q = FiniteDistribution([0.75, 0.25]), FiniteDistribution([0.25, 0.75])
    >>> print(mpmath.nstr(hockey_stick(P, Q, mpmath.log(2)).value, 15))   # 3/4 - 2/4
    0.25
    """
    _pair(P, Q)
    e = to_mpf(eps, "eps")
    if mpmath.isnan(e):
        raise InvalidParameter("eps is NaN")
    with _ball_precision(len(P)):
        if mpmath.isinf(e):
            return within_domain(_certified(_ball_sum(P_i for P_i, _, p, q in _atoms(P, Q)
                                                      if p > 0 and (e < 0 or q == 0))), "hockey_stick", e)
        factor, excess = arb(e).exp(), arb(e).expm1()
        parts, sizes = [], []   # the positive parts P_i - e^ε Q_i, and their sensitivities P_i + e^ε Q_i
        for P_i, Q_i, p, q in _atoms(P, Q):
            if p == 0:
                continue
            # (P_i - Q_i) - Q_i (e^ε - 1), the difference exact: no cancellation where P_i = Q_i and ε is tiny
            part = (arb(p - q) - Q_i * excess).max(0)
            if not part.is_zero():   # a part that is only possibly 0 still counts
                parts.append(part)
                sizes.append(P_i + factor * Q_i)
        return within_domain(_certified(_ball_sum(parts), scale=_ball_sum(sizes)), "hockey_stick", e)


def tv(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """Total variation distance ``sum_i |P_i - Q_i| / 2``.

    >>> print(tv(FiniteDistribution([1, 0]), FiniteDistribution([0.25, 0.75])).value)
    0.75
    """
    _pair(P, Q)
    with _ball_precision(len(P)):
        pairs = [(P_i, Q_i, arb(abs(p - q))) for P_i, Q_i, p, q in _atoms(P, Q) if p != q]
        return within_domain(_certified(_ball_sum(gap for _, _, gap in pairs) / 2,
                                        scale=_ball_sum(P_i + Q_i for P_i, Q_i, _ in pairs) / 2), "tv")


@dataclass(frozen=True)
class PrivacyLoss:
    """The privacy-loss random variable ``L = log(P(x)/Q(x))``, ``x ~ P``: one value per atom in P's support.

    A value is ``+inf`` where ``Q(x) = 0``. ``probabilities`` are the P-masses of those atoms.
    """

    values: tuple[mpmath.mpf, ...]
    probabilities: tuple[mpmath.mpf, ...]

    def mean(self) -> mpmath.mpf:
        """E[L] = KL(P||Q)."""
        return mpmath.fsum(p * v for v, p in zip(self.values, self.probabilities))

    def cdf(self, t) -> mpmath.mpf:
        t = to_mpf(t, "t")
        return mpmath.fsum(p for v, p in zip(self.values, self.probabilities) if v <= t)


def privacy_loss(P: FiniteDistribution, Q: FiniteDistribution) -> PrivacyLoss:
    """The privacy-loss random variable of the pair (P, Q), as values with their probabilities under P."""
    _pair(P, Q)
    values, probs = [], []
    for p, q in zip(P, Q):
        if p == 0:
            continue
        values.append(mpmath.inf if q == 0 else mpmath.log(p) - mpmath.log(q))
        probs.append(p)
    return PrivacyLoss(tuple(values), tuple(probs))




def loss_mgf(P: FiniteDistribution, Q: FiniteDistribution, lam, centred: bool = False) -> Estimate:
    """``E_P[exp(lam * L)] = Σ P_i (P_i/Q_i)^lam`` of the privacy loss (centred: of ``L - E[L]``, i.e. times
    ``exp(-lam KL)``).

    Where Q vanishes on P's support, L is ``+inf`` with positive probability: the MGF is ``+inf`` for ``lam > 0``;
    for ``lam <= 0`` those atoms contribute ``exp(lam * inf)`` (0, or 1 at ``lam = 0``), and the centred MGF, whose
    centre E[L] is infinite, is undefined (an error).

    >>> P, Q = FiniteDistribution([0.75, 0.25]), FiniteDistribution([0.25, 0.75])   # (3/4) 3 + (1/4)/3 = 7/3
    >>> print(mpmath.nstr(loss_mgf(P, Q, 1).value, 15), mpmath.nstr(mpmath.mpf(7) / 3, 15))
    2.33333333333333 2.33333333333333
    """
    _pair(P, Q)
    lam = to_mpf(lam, "lambda")
    if not mpmath.isfinite(lam):
        raise InvalidParameter(f"lambda must be a finite number, got {lam}")
    unbounded = any(p > 0 and q == 0 for p, q in zip(P.keys(), Q.keys()))
    if unbounded and lam > 0:
        return _exact_infinity()
    if unbounded and centred:
        raise InvalidParameter("the privacy loss is +inf with positive probability: its mean is infinite, so the "
                               "centred MGF is undefined")
    with _ball_precision(len(P)):
        slope = arb(lam)
        moment = _ball_sum(_moment_term(P_i, p, q, slope) for P_i, _, p, q in _atoms(P, Q) if p > 0)
        if centred:
            moment *= (-slope * _kl_terms(P, Q)[0]).exp()
        return _certified(moment)


def _moment_term(P_i: arb, p: fmpq, q: fmpq, slope: arb) -> arb:
    """``P_i exp(slope log(p/q))`` (``P_i`` the ball of ``p``); where ``q = 0`` (slope <= 0 here) ``exp(slope * inf)``
    is 0, or 1 at slope 0."""
    if q == 0:
        return P_i if slope == 0 else arb(0)
    return P_i * (slope * _log_ratio(p, q)).exp()
