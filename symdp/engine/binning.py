"""Discretizing continuous distributions into bins: certified lower bounds on every divergence.

**Binning is post-processing.** Sending x to the bin that contains it is one deterministic Markov kernel K, applied
to P and to Q alike, so by the data-processing inequality ``D(PK || QK) <= D(P || Q)`` for every f-divergence (KL,
TV, the hockey-stick divergence ``D_{e^ε}``) and every Rényi divergence ``R_α``, α in (1, ∞] (the max divergence
included). A binned value is therefore a *lower bound* on the true divergence, for any partition. Refining a
partition (adding edges) can only raise it — the coarse binning is a post-processing of the fine one — and as the
bins shrink it converges to the true value from below.

That makes binning the tool to **refute** a claimed upper bound: a binned value above the bound, by more than its
arithmetic error, proves the bound false. Only the arithmetic of the bin masses and of the finite divergence is
involved, and both are done with guard digits. It cannot *confirm* a bound (a lower bound below it says nothing);
quadrature or a closed form (:mod:`symdp.engine.quadrature`) gives the value itself.

Bins are ``(-inf, e_0], (e_0, e_1], ..., (e_{k-1}, e_k], (e_k, inf)`` for sorted edges ``e_0 < ... < e_k``; masses
come from :meth:`~symdp.engine.continuous.ContinuousDistribution.prob`, which differences the survival function right of
the centre so that tail bins keep their relative precision.

>>> from symdp.engine.continuous import Gaussian
>>> from symdp.engine import finite
>>> import mpmath
>>> P, Q = Gaussian(0, 1), Gaussian(1, 1)
>>> with mpmath.workdps(30):
...     lower = binned_lower_bound(finite.renyi, P, Q, uniform_edges(P, Q, width=0.1, span=8), 2)
...     print(mpmath.nstr(lower.value, 3), lower.value < 1, refutes_upper_bound(lower, 0.9))   # true: alpha/2 = 1
0.999 True True
"""

from __future__ import annotations

from typing import Callable, Sequence

import mpmath

from symdp.engine.continuous import ContinuousDistribution
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate
from symdp.engine.finite import FiniteDistribution
from symdp.numeric import to_mpf
from symdp.precision import GUARD_DPS

MAX_BINS = 1_000_000
"""More bins than this is almost certainly a mistake in ``width`` or ``span``."""


def _edges(edges: Sequence) -> list[mpmath.mpf]:
    values = [to_mpf(e, "bin edge") for e in edges]
    if not values:
        raise InvalidParameter("binning needs at least one edge")
    if any(not mpmath.isfinite(e) for e in values):
        raise InvalidParameter("bin edges must be finite (the outer bins already reach ±inf)")
    for a, b in zip(values, values[1:]):
        if not a < b:
            raise InvalidParameter(f"bin edges must be strictly increasing, got {mpmath.nstr(a, 10)} then "
                                   f"{mpmath.nstr(b, 10)}")
    if len(values) + 1 > MAX_BINS:
        raise InvalidParameter(f"{len(values) + 1} bins is more than MAX_BINS = {MAX_BINS}")
    return values


def bin_masses(D: ContinuousDistribution, edges: Sequence) -> FiniteDistribution:
    """The masses ``D`` gives the bins of ``edges``, as a finite distribution (computed with guard digits).

    >>> from symdp.engine.continuous import Laplace
    >>> [mpmath.nstr(p, 10) for p in bin_masses(Laplace(0, 1), [0, 1])]    # 1/2, (1 - 1/e)/2, 1/(2e)
    ['0.5', '0.3160602794', '0.1839397206']
    """
    if not isinstance(D, ContinuousDistribution):
        raise InvalidDistribution(f"bin_masses needs a continuous distribution, got a {type(D).__name__}")
    cuts = _edges(edges)
    with mpmath.workdps(mpmath.mp.dps + GUARD_DPS):
        masses = [D.cdf(cuts[0])]
        masses += [D.prob(a, b) for a, b in zip(cuts, cuts[1:])]
        masses.append(D.sf(cuts[-1]))
        # prob() may round a vanishing bin a hair below zero; a mass is never negative.
        masses = [max(m, mpmath.mpf(0)) for m in masses]
    return FiniteDistribution([+m for m in masses])


def binned_pair(P: ContinuousDistribution, Q: ContinuousDistribution,
                edges: Sequence) -> tuple[FiniteDistribution, FiniteDistribution]:
    """``(P, Q)`` pushed through the same partition: the pair every binned divergence is computed on.

    >>> from symdp.engine.continuous import Gaussian
    >>> P, Q = binned_pair(Gaussian(0, 1), Gaussian(1, 1), [0.5])   # one edge at the crossing point
    >>> print(mpmath.nstr(P[0], 12), mpmath.nstr(Q[1], 12))          # Phi(1/2) both
    0.691462461274 0.691462461274
    """
    return bin_masses(P, edges), bin_masses(Q, edges)


def uniform_edges(P: ContinuousDistribution, Q: ContinuousDistribution, width, span) -> list[mpmath.mpf]:
    """Edges ``width`` apart covering both centres with ``span`` on either side:
    from ``min(centres) - span`` to at least ``max(centres) + span``.

    >>> from symdp.engine.continuous import Laplace
    >>> [str(e) for e in uniform_edges(Laplace(0, 1), Laplace(1, 1), width=0.5, span=1)]
    ['-1.0', '-0.5', '0.0', '0.5', '1.0', '1.5', '2.0']
    """
    w, s = to_mpf(width, "bin width"), to_mpf(span, "span")
    if not (mpmath.isfinite(w) and w > 0):
        raise InvalidParameter(f"bin width must be a positive number, got {mpmath.nstr(w, 10)}")
    if not (mpmath.isfinite(s) and s >= 0):
        raise InvalidParameter(f"span must be a non-negative number, got {mpmath.nstr(s, 10)}")
    lo = min(P.center(), Q.center()) - s
    hi = max(P.center(), Q.center()) + s
    n = int(mpmath.ceil((hi - lo) / w))
    if n + 2 > MAX_BINS:
        raise InvalidParameter(f"width {mpmath.nstr(w, 6)} over [{mpmath.nstr(lo, 6)}, {mpmath.nstr(hi, 6)}] makes "
                               f"{n + 2} bins, more than MAX_BINS = {MAX_BINS}")
    return [lo + k * w for k in range(n + 1)]


def binned_lower_bound(divergence: Callable[..., Estimate], P: ContinuousDistribution,
                       Q: ContinuousDistribution, edges: Sequence, *args) -> Estimate:
    """``divergence(P_binned, Q_binned, *args)``: a certified lower bound on ``divergence(P, Q, *args)``.

    ``divergence`` is any finite divergence — :func:`symdp.engine.finite.kl`, ``renyi`` (args: α), ``hockey_stick``
    (args: ε), ``tv``, ``max_divergence``, or their :mod:`symdp.engine.divergences` dispatchers. Masses and divergence are
    computed with ``GUARD_DPS`` extra digits, so the rounding of the masses is negligible and the error is the
    finite computation's own plus the final rounding.

    >>> from symdp.engine.continuous import Laplace
    >>> from symdp.engine import finite
    >>> est = binned_lower_bound(finite.max_divergence, Laplace(0, 1), Laplace(1, 1), [0, 1])
    >>> print(mpmath.nstr(est.value, 12), est.method)   # the outer bins already see |Delta|/lambda = 1
    1.0 binned lower bound
    """
    dps = mpmath.mp.dps
    with mpmath.workdps(dps + GUARD_DPS):
        Pb, Qb = binned_pair(P, Q, edges)
        inner = divergence(Pb, Qb, *args)
    if mpmath.isinf(inner.value):
        return Estimate(inner.value, mpmath.mpf(0), "binned lower bound")
    floor = 16 * max(abs(inner.value), mpmath.mpf(1)) * mpmath.mpf(10) ** (-dps)
    return Estimate(+inner.value, inner.error + floor, "binned lower bound")


def refutes_upper_bound(lower: Estimate, bound) -> bool:
    """Whether the lower bound ``lower`` proves ``D <= bound`` false: ``lower.value - lower.error > bound``.

    >>> refutes_upper_bound(Estimate(mpmath.mpf(1), mpmath.mpf("1e-40")), 0.999)
    True
    """
    return bool(lower.value - lower.error > to_mpf(bound, "bound"))
