"""Finite distributions and their divergences, computed exactly at the working precision.

A :class:`FiniteDistribution` is a probability vector on atoms ``0..n-1``, validated on construction: every
probability is non-negative and they sum to one within the working precision. Divergences follow the usual
measure-theoretic conventions: an atom with ``P > 0`` and ``Q = 0`` makes KL, Rényi and max divergence ``+inf``;
atoms with ``P = 0`` contribute nothing.

>>> from symdp.engine.finite import FiniteDistribution, kl, renyi, hockey_stick, tv
>>> P, Q = FiniteDistribution([0.75, 0.25]), FiniteDistribution([0.25, 0.75])
>>> print(mpmath.nstr(kl(P, Q).value, 15))
0.549306144334055
>>> print(mpmath.nstr(renyi(P, Q, mpmath.inf).value, 15))
1.09861228866811
>>> print(tv(P, Q).value)
0.5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import mpmath

from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate
from symdp.numeric import check_order as _check_order, logsumexp as _logsumexp, to_mpf


def _tolerance(n: int) -> mpmath.mpf:
    return n * mpmath.mpf(10) ** (-mpmath.mp.dps + 3)


@dataclass(frozen=True, init=False)
class FiniteDistribution:
    """A probability vector, validated: non-negative entries summing to one within the working precision.

    >>> FiniteDistribution([0.5, 0.6])
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidDistribution: probabilities sum to 1.1 (off by 0.1), not 1
    """

    probs: tuple[mpmath.mpf, ...]

    def __init__(self, probs: Iterable):
        values = tuple(to_mpf(p, "probability") for p in probs)
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

    @classmethod
    def normalized(cls, weights: Iterable) -> "FiniteDistribution":
        """The distribution proportional to non-negative ``weights`` (normalized at working precision)."""
        w = [to_mpf(x, "weight") for x in weights]
        if any(x < 0 for x in w):
            raise InvalidDistribution("weights must be non-negative")
        total = mpmath.fsum(w)
        if total <= 0:
            raise InvalidDistribution("weights sum to zero")
        return cls([x / total for x in w])

    def __len__(self) -> int:
        return len(self.probs)

    def __getitem__(self, i: int) -> mpmath.mpf:
        return self.probs[i]

    def __iter__(self):
        return iter(self.probs)

    def support(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.probs) if p > 0)

    def push_forward(self, kernel: Sequence[Sequence]) -> "FiniteDistribution":
        """The law of the output of a Markov kernel (row-stochastic matrix) fed with this distribution."""
        rows = [list(r) for r in kernel]
        if len(rows) != len(self.probs):
            raise InvalidParameter(f"kernel has {len(rows)} rows but the distribution has {len(self.probs)} atoms")
        m = len(rows[0])
        return FiniteDistribution(
            [mpmath.fsum(p * to_mpf(rows[i][j]) for i, p in enumerate(self.probs)) for j in range(m)]
        )

    def product(self, other: "FiniteDistribution") -> "FiniteDistribution":
        """The product measure, atoms ordered row-major."""
        return FiniteDistribution([p * q for p in self.probs for q in other.probs])


def _pair(P: FiniteDistribution, Q: FiniteDistribution) -> None:
    if not isinstance(P, FiniteDistribution) or not isinstance(Q, FiniteDistribution):
        raise InvalidDistribution("both arguments must be FiniteDistribution")
    if len(P) != len(Q):
        raise InvalidDistribution(f"distributions live on different spaces: {len(P)} atoms vs {len(Q)} atoms")


def kl(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """KL divergence ``sum_i P_i log(P_i / Q_i)``; ``+inf`` if P is not absolutely continuous w.r.t. Q."""
    _pair(P, Q)
    terms, errors = [], []
    for p, q in zip(P, Q):
        if p == 0 or p == q:  # an atom with P = Q contributes exactly 0
            continue
        if q == 0:
            return Estimate(mpmath.inf, mpmath.mpf(0))
        loss = mpmath.log(p / q)  # the ratio is good to a unit in its last place, so the log to 1 + |loss| units
        terms.append(p * loss)
        errors.append(p * (1 + abs(loss)))
    return _sum_estimate(terms, errors)


def _sum_estimate(terms: list, errors: list) -> Estimate:
    """``Σ terms``, where term i is known to ``errors[i]`` units in the last place, with ``scale = Σ|terms|``.

    The error is *relative* to the terms, atom by atom: a divergence of 1e-44 made of atoms of mass 1e-45 is known
    to 50 digits of itself, not to 1e-50. (Errors already in the probabilities are the caller's: the verifier sees
    them as the change between two working precisions.)
    """
    value = mpmath.fsum(terms)
    magnitude = mpmath.fsum(abs(t) for t in terms) if terms else mpmath.mpf(0)
    ulp = mpmath.mpf(10) ** (-mpmath.mp.dps)
    error = 4 * ulp * mpmath.fsum(errors) + (len(terms) + 4) * ulp * magnitude
    return Estimate(value, error, scale=magnitude)


def renyi(P: FiniteDistribution, Q: FiniteDistribution, alpha) -> Estimate:
    """Rényi divergence of order ``alpha`` in ``(1, inf]``; ``alpha = inf`` is the max divergence.

    Computed in log space (log-sum-exp), so large orders do not overflow.
    """
    _pair(P, Q)
    a = _check_order(alpha)
    if mpmath.isinf(a):
        return max_divergence(P, Q)
    logs, sizes = [], []
    for p, q in zip(P, Q):
        if p == 0:
            continue
        if q == 0:
            return Estimate(mpmath.inf, mpmath.mpf(0))
        lp, lq = mpmath.log(p), mpmath.log(q)
        logs.append(a * lp + (1 - a) * lq)
        sizes.append(a * abs(lp) + (a - 1) * abs(lq))
    value = _logsumexp(logs) / (a - 1)
    # log-sum-exp moves by at most the largest error of its arguments; each argument is known to units of its size
    ulp = mpmath.mpf(10) ** (-mpmath.mp.dps)
    error = (len(logs) + 4) * ulp * (max(sizes) / (a - 1) + abs(value))
    return Estimate(value, error, scale=max(sizes) / (a - 1))


def max_divergence(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """``D_inf(P||Q) = max_{i: P_i > 0} log(P_i / Q_i)``."""
    _pair(P, Q)
    losses = privacy_loss(P, Q).values
    value = max(losses)
    return Estimate.exact(value)


def approximate_max_divergence(P: FiniteDistribution, Q: FiniteDistribution, delta) -> Estimate:
    """δ-approximate max divergence in the (corrected) sense of DRV10: the least ε with ``D_{e^ε}(P||Q) <= δ``.

    Returns ``-inf`` when even ε → -∞ satisfies it (δ ≥ 1, or P's whole mass can be absorbed), ``+inf`` when no ε
    does. Exact: on each interval between consecutive atom losses the hockey-stick divergence is ``A - e^ε B``.
    """
    _pair(P, Q)
    d = to_mpf(delta, "delta")
    if d < 0:
        raise InvalidParameter(f"delta must be >= 0, got {mpmath.nstr(d, 10)}")
    loss = privacy_loss(P, Q)
    atoms = sorted(zip(loss.values, P.probs, Q.probs), key=lambda t: t[0], reverse=True)
    # Walk from the largest loss down: A, B are the P- and Q-masses of the atoms with loss > ε.
    A = B = mpmath.mpf(0)
    for k, (value, p, q) in enumerate(atoms):
        if mpmath.isinf(value):
            A += p
            if A > d:
                return Estimate(mpmath.inf, mpmath.mpf(0))
            continue
        # On (next_value, value): HS(ε) = A - e^ε B with the atoms above; at ε = value it is A - e^value B.
        if A - mpmath.exp(value) * B > d:
            # The solution lies above this atom's loss: e^ε = (A - d)/B.
            return Estimate.exact(mpmath.log((A - d) / B))
        A += p
        B += q
    if A - mpmath.mpf(0) <= d or B == 0:
        return Estimate(-mpmath.inf, mpmath.mpf(0))
    return Estimate.exact(mpmath.log((A - d) / B))


def hockey_stick(P: FiniteDistribution, Q: FiniteDistribution, eps) -> Estimate:
    """Hockey-stick divergence ``D_{e^eps}(P||Q) = sum_i max(0, P_i - e^eps Q_i)``, for ε of any sign."""
    _pair(P, Q)
    e = mpmath.exp(to_mpf(eps, "eps"))
    # p - e q is known to units of p + e q; an atom well below 0 (beyond that error) contributes exactly 0
    near = [(p - e * q, p + e * q) for p, q in zip(P, Q) if p - e * q > -4 * (p + e * q) * mpmath.eps]
    return _sum_estimate([max(mpmath.mpf(0), d) for d, _ in near], [size for _, size in near])


def tv(P: FiniteDistribution, Q: FiniteDistribution) -> Estimate:
    """Total variation distance ``sum_i |P_i - Q_i| / 2``."""
    _pair(P, Q)
    gaps = [abs(p - q) / 2 for p, q in zip(P, Q)]
    return _sum_estimate(gaps, gaps)


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


def _log_mgf(values: Sequence, probs: Sequence, lam) -> mpmath.mpf:
    return _logsumexp([mpmath.log(p) + lam * v for v, p in zip(values, probs) if p > 0])


def privacy_loss_mgf(P: FiniteDistribution, Q: FiniteDistribution, lam, centred: bool = False) -> Estimate:
    """``E_P[exp(lam * L)]`` of the privacy loss (centred: of ``L - E[L]``); ``+inf`` if L is unbounded above."""
    loss = privacy_loss(P, Q)
    lam = to_mpf(lam, "lambda")
    if any(mpmath.isinf(v) for v in loss.values):
        return Estimate(mpmath.inf, mpmath.mpf(0))
    values = loss.values
    if centred:
        m = loss.mean()
        values = tuple(v - m for v in values)
    return Estimate.exact(mpmath.exp(_log_mgf(values, loss.probabilities, lam)))
