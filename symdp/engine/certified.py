"""Certified divergences of the continuous families: enclosures by ball arithmetic (python-flint's Arb).

Every function here returns an :class:`~symdp.estimate.Estimate` with ``certified=True``: the true value provably
lies in ``[value - error, value + error]``. Nothing is trusted that is not enclosed — no root finder, no quadrature
error estimate, no truncation of a tail:

* **Hockey-stick δ(ε) and TV** (:func:`hockey_stick`, :func:`tv`), as accountants compute them: exact CDF
  differences ``P(I) - e^ε Q(I)`` over the runs of intervals where the privacy loss ``L = log p - log q`` provably
  exceeds ε. A window covers every anchor of both laws out to where their tails hold less than ``2^-(prec+30)``;
  it is cut into intervals on which the sign of ``L - ε`` is decided by evaluating ``L`` on the interval's ball,
  bisected while undecided. An interval still undecided (it holds a crossing) contributes ``[0, w · sup_I (p -
  e^ε q)_+]`` — ``O(w²)`` at a simple crossing. The two tails beyond the window are pieces too, their sign decided
  by proved bounds of ``L`` on the half-lines (:meth:`_Loss.tail`), else bounded by ``P(tail)``. Every piece on
  which ``L ≤ ε`` is proved contributes an exact 0, so a δ that is 0 (ε at or above the supremum of ``L``, even one
  approached only at infinity) is the exact ball 0. Where both laws are Gaussian sums (Gaussians, their shifts and
  mixtures), ``L`` is evaluated with the common quadratic cancelled before the ball enters
  (:class:`_GaussianSumRatio`); for translates of one law, as an average of its log-density's slope (:class:`_Loss`).
* **The max divergence** (:func:`max_divergence`): the supremum of ``L`` enclosed from both sides, attained values
  below and interval bounds over the whole line, tails included, above (:func:`_max_divergence_ball`).
* **Rényi in closed form** where the distributions allow it, from their components: an integer order with P a
  Gaussian sum and Q a Gaussian is a finite multinomial sum of Gaussian integrals (:func:`_renyi_gaussian_sum`, the
  RDP accountants' computation); laws whose log-densities are quadratics between their kinks (Gaussian, Laplace,
  shifts) integrate piece by piece with erfc and exp, for any order (:func:`_renyi_log_quadratic`).
* **KL and other Rényi** (:func:`kl`, :func:`renyi`): Arb's rigorous Petras integration (``acb.integral``) of
  ``p log(p/q)`` and ``p^α q^(1-α)`` between the kinks of both densities (each family gives a form analytic on one
  side of each kink), over a window around the integrand's peak, plus a rigorous bound of the tails from each family's
  certified envelope of ``log p`` (:meth:`~symdp.engine.continuous.ContinuousDistribution.arb_envelope`), whose
  exponential integrates in closed form. A Rényi integral whose tails diverge (decided exactly from the tail
  expansions) is ``+inf``. The integrands are written with the laws' quadratic parts combined before the ball enters
  (:class:`_LogForms`), and their work is bounded by a count of evaluations (:data:`MAX_EVALUATIONS`): past it the
  result is an unbounded ball, at once.

The search for peaks and windows is done at low precision; it only decides *where* to look, never what is found.
Results are computed at ``mpmath.mp.prec`` + :data:`GUARD_BITS` (more where a small divergence is not yet sharp
relative to itself, :func:`_run`), in coordinates centred on P, rounded outward, and intersected with the
divergence's domain (:mod:`symdp.engine.domains`).

>>> import mpmath
>>> from symdp.engine.continuous import Gaussian, Laplace
>>> with mpmath.workdps(30):
...     d = hockey_stick(Gaussian(0, 1), Gaussian(1, 1), 1)
>>> with mpmath.workdps(60):   # closed form Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), mu = 1
...     exact = mpmath.ncdf(-0.5) - mpmath.e * mpmath.ncdf(-1.5)
...     print(d.method, d.certified, abs(d.value - exact) <= d.error, d.error < 1e-28)
certified True True True
>>> with mpmath.workdps(30):   # closed form z + e^{-z} - 1 at z = 1
...     k = kl(Laplace(0, 1), Laplace(1, 1))
...     print(abs(k.value - mpmath.exp(-1)) <= k.error, k.error < 1e-28)
True True
"""

from __future__ import annotations

import math
from typing import Iterator

import mpmath
from flint import acb, arb, ctx

from symdp.engine.continuous import ContinuousDistribution, TailExpansion, canonical
from symdp.engine.domains import within_domain
from symdp.engine.grids import anchor_points, climb, kinks, min_scale
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, arb_precision, sharp_ball
from symdp.numeric import arb_erfc, to_mpf

GUARD_BITS = 24
"""Bits beyond ``mpmath.mp.prec`` at which the enclosures are computed (they are rounded outward after)."""

SEARCH_BITS = 64
"""Precision of the search for peaks and windows, which decides only where to look."""

MAX_INTERVALS = 400
"""Bisection budget of the sign decisions of one hockey-stick divergence."""


def supported(P: ContinuousDistribution, Q: ContinuousDistribution) -> bool:
    """Whether both laws have ball-arithmetic densities, CDFs and tail envelopes (the certified route applies).

    >>> from symdp.engine.continuous import Gaussian, Mixture
    >>> supported(Mixture(0.2, Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1))
    True
    """
    return P.arb_supported() and Q.arb_supported()


# --- public API: each an Estimate at the working precision ------------------------------------------------------


def hockey_stick(P: ContinuousDistribution, Q: ContinuousDistribution, eps) -> Estimate:
    """``D_{e^ε}(P || Q) = ∫ (p - e^ε q)_+``, certified, for ε of any sign.

    >>> from symdp.engine.continuous import Laplace
    >>> with mpmath.workdps(30):
    ...     d = hockey_stick(Laplace(0, 1), Laplace(1, 1), 0.5)
    ...     zero = hockey_stick(Laplace(0, 1), Laplace(1, 1), 1)
    >>> with mpmath.workdps(40):   # closed form 1 - e^{(eps - Delta/b)/2} for 0 <= eps <= Delta/b, else 0
    ...     print(abs(d.value - (1 - mpmath.exp(-0.25))) <= d.error, d.error < 1e-28, zero.value, zero.error)
    True True 0.0 0.0
    """
    e = to_mpf(eps, "eps")
    if not mpmath.isfinite(e):
        raise InvalidParameter(f"eps must be a finite number, got {e}")
    return _run("hockey_stick", lambda P, Q: _hockey_stick_ball(P, Q, e), P, Q, e)


def tv(P: ContinuousDistribution, Q: ContinuousDistribution) -> Estimate:
    """Total variation ``∫ (p - q)_+``: the hockey-stick divergence at ε = 0, certified.

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):
    ...     t = tv(Gaussian(0, 1), Gaussian(1, 1))
    >>> with mpmath.workdps(40):   # closed form 2 Phi(Delta/(2 sigma)) - 1
    ...     print(abs(t.value - (2 * mpmath.ncdf(0.5) - 1)) <= t.error)
    True
    """
    return _run("tv", lambda P, Q: _hockey_stick_ball(P, Q, mpmath.mpf(0)), P, Q)


def kl(P: ContinuousDistribution, Q: ContinuousDistribution) -> Estimate:
    """``KL(P || Q) = ∫ p log(p/q)``, certified.

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):   # closed form Delta^2/(2 sigma^2) = 1/8
    ...     k = kl(Gaussian(0, 2), Gaussian(1, 2))
    ...     print(abs(k.value - mpmath.mpf(1) / 8) <= k.error, k.error < 1e-28)
    True True
    """
    return _run("kl", _kl_ball, P, Q)


def renyi(P: ContinuousDistribution, Q: ContinuousDistribution, alpha) -> Estimate:
    """``R_α(P || Q) = log(∫ p^α q^(1-α))/(α - 1)`` for α > 0, α ≠ 1, certified; ``+inf`` when the tails of
    the integrand are not integrable (decided exactly from the tail expansions).

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):   # closed form alpha Delta^2/(2 sigma^2)
    ...     r = renyi(Gaussian(0, 1), Gaussian(1, 1), 3)
    ...     print(abs(r.value - 1.5) <= r.error, renyi(Gaussian(0, 1), Gaussian(0, 0.5), 5).value)
    True +inf
    >>> renyi(Gaussian(0, 1), Gaussian(1, 1), 0)
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: Rényi order alpha must be a finite number > 0 other than 1, got 0.0
    """
    a = renyi_order(alpha)
    return _run("renyi", lambda P, Q: _renyi_ball(P, Q, a), P, Q)


def renyi_order(alpha) -> mpmath.mpf:
    """A Rényi order of the certified routes as mpf: finite, > 0 and other than 1 (else a clear error)."""
    a = to_mpf(alpha, "Rényi order alpha")
    if not (mpmath.isfinite(a) and a > 0 and a != 1):
        raise InvalidParameter(f"Rényi order alpha must be a finite number > 0 other than 1, got {mpmath.nstr(a, 10)}")
    return a


def max_divergence(P: ContinuousDistribution, Q: ContinuousDistribution) -> Estimate:
    """``D_∞(P || Q) = sup_x log(p(x)/q(x))``, certified, from the densities (never from a closed form of the
    supremum): see :func:`_max_divergence_ball`.

    >>> from symdp.engine.continuous import Gaussian, Lap2
    >>> with mpmath.workdps(30):   # balle19 Lemma 3: Δ/max(λ1, λ2), approached like O(1/x) at λ1 = λ2
    ...     d = max_divergence(Lap2(0, 1, 1), Lap2(1, 1, 1))
    ...     print(abs(d.value - 1) <= d.error < 1e-28, d.certified)
    True True
    >>> with mpmath.workdps(30):   # σ_P < σ_Q: ln(σ_Q/σ_P) + Δ²/(2(σ_Q² - σ_P²)), attained; equal sds: +inf
    ...     d = max_divergence(Gaussian(1, 1), Gaussian(0, 2))
    ...     print(abs(d.value - (mpmath.log(2) + mpmath.mpf(1) / 6)) <= d.error < 1e-28,
    ...           max_divergence(Gaussian(0, 1), Gaussian(1, 1)).value)
    True +inf
    """
    return _run("max_divergence", _max_divergence_ball, P, Q)


def loss_mgf(P: ContinuousDistribution, Q: ContinuousDistribution, lam, centred: bool = False) -> Estimate:
    """``E_P[e^{λL}] = ∫ p^{1+λ} q^{-λ}`` with ``L = log p - log q`` the privacy loss, for any real λ, certified
    (``centred``: ``E_P[e^{λ(L - E_P L)}]``, the centred loss's MGF, ``E_P L`` being the KL divergence).

    It is a Rényi integral: ``e^{λ R_{1+λ}(P‖Q)}`` for λ > -1, and for λ < -1 the same integral read from Q's side,
    ``e^{(-λ-1) R_{-λ}(Q‖P)}``; at λ = 0 and λ = -1 it is 1 exactly. Both sides are balls, so is the result.

    >>> from symdp.engine.continuous import Gaussian
    >>> with mpmath.workdps(30):   # the Gaussian loss is N(τ²/2, τ²): E e^{λL} = e^{λτ²/2 + λ²τ²/2}, here e at τ = λ = 1
    ...     m = loss_mgf(Gaussian(1, 1), Gaussian(0, 1), 1)
    ...     print(abs(m.value - mpmath.e) <= m.error < 1e-27, m.certified)
    True True
    >>> with mpmath.workdps(30):   # centred: e^{λ²τ²/2} at λ = -3, τ = 1
    ...     c = loss_mgf(Gaussian(1, 1), Gaussian(0, 1), -3, centred=True)
    ...     print(abs(c.value - mpmath.exp(4.5)) <= c.error < 1e-25)
    True
    >>> with mpmath.workdps(30):   # λ = 1e-175: 1 + λ is 1 at 30 digits; 1 + λτ²/2 + O(λ²)
    ...     t = loss_mgf(Gaussian(1, 1), Gaussian(0, 1), mpmath.mpf("1e-175"))
    ...     print(t.error < 1e-29, abs(t.value - 1) <= t.error)
    True True
    """
    lam = to_mpf(lam, "lambda")
    if not mpmath.isfinite(lam):
        raise InvalidParameter(f"lambda must be a finite number, got {lam}")

    alpha = mpmath.fadd(1, lam, exact=True)

    bits = alpha.man.bit_length() if alpha else 0   # what 1 + λ needs to be exact in Arb

    def compute(P, Q):
        prec = ctx.prec
        if lam == 0 or lam == -1:
            value = arb(1)
        elif bits > 3 * prec:   # |λ| < 2^(-2 prec): the expansion's λ² term is far below the working precision
            value = _loss_mgf_near_zero(P, Q, lam)
        elif lam > -1:
            with arb_precision(max(prec, bits + 8)):   # 1 + λ exact; R_{1+λ} keeps its digits where λ is small
                value = (arb(lam) * _renyi_ball(P, Q, alpha)).exp()
        else:
            value = (arb(-lam - 1) * _renyi_ball(Q, P, -lam)).exp()
        return value * (-arb(lam) * _kl_ball(P, Q)).exp() if centred and lam != 0 else value
    return _run("loss_mgf", compute, P, Q)


def _loss_mgf_near_zero(P, Q, lam) -> arb:
    """``E_P[e^{λL}]`` for λ so small that ``1 + λ`` is not a number at the working precision: ``e^x = 1 + x + r``
    with ``|r| ≤ x² e^{|x|}/2``, and ``L² ≤ 32 e^{|L|/4}`` (from ``e^y ≥ y²/2``), so for ``|λ| ≤ 1/4``
    ``|E_P r| ≤ 16 λ² E_P[e^{|L|/2}] ≤ 16 λ² (E_P e^{L/2} + E_P e^{-L/2})``, two Rényi integrals at orders 3/2 and
    1/2. Hence ``E_P[e^{λL}] ∈ 1 + λ KL(P‖Q) ± 16 λ² (e^{R_{3/2}/2} + e^{-R_{1/2}/2})``."""
    l = arb(lam)   # exact: lam is an mpf of at most the working precision's bits
    half = arb(1) / 2
    moments = (half * _renyi_ball(P, Q, mpmath.mpf(1.5))).exp() + (-half * _renyi_ball(P, Q, mpmath.mpf(0.5))).exp()
    return 1 + l * _kl_ball(P, Q) + arb(0, (16 * l * l * moments).upper())


def _run(kind: str, compute, P, Q, eps=None) -> Estimate:
    """``compute(P, Q)`` (an Arb ball) as a certified Estimate in the domain of ``kind``
    (:func:`~symdp.engine.domains.within_domain`; ``"loss_mgf"`` has none).

    The pair is first translated so that P's centre is at 0 (:func:`centred_pair`); identical laws have KL, Rényi and
    max divergence exactly 0 and a loss MGF of exactly 1 (their hockey-stick divergence, ``max(0, 1 - e^ε)``,
    follows from the loss being exactly 0, :meth:`_Loss.global_range`). The ball is computed at the working
    precision plus :data:`GUARD_BITS`, and with up to :data:`BOOST_BITS` more until it is sharp relative to its own
    size (:func:`~symdp.estimate.sharp_ball`)."""
    if not (isinstance(P, ContinuousDistribution) and isinstance(Q, ContinuousDistribution)):
        raise InvalidDistribution("certified divergences need two continuous distributions")
    if not supported(P, Q):
        raise InvalidParameter(f"no certified route for {type(P).__name__} and {type(Q).__name__} "
                               "(they lack ball-arithmetic densities)")
    P, Q = centred_pair(P, Q)
    equal = P == Q and kind in _ZERO_ON_EQUAL
    ball = sharp_ball(lambda: arb(_ZERO_ON_EQUAL[kind]) if equal else compute(P, Q), GUARD_BITS, BOOST_BITS)
    estimate = Estimate.from_arb(ball, "certified")
    return estimate if kind == "loss_mgf" else within_domain(estimate, kind, eps)


_ZERO_ON_EQUAL = {"kl": 0, "renyi": 0, "max_divergence": 0, "loss_mgf": 1}
"""The value of each kind at P = Q (KL(P‖P) = 0, and so on), exactly."""

BOOST_BITS = 2048
"""Most bits :func:`_run` adds to resolve a divergence relative to itself (enough for Gaussian and Laplace pairs
down to about 10^-300 scales apart at 50 digits); beyond them the enclosure stays as sharp as it is, absolutely."""


def centred_pair(P, Q) -> tuple:
    """The pair moved by ``-c``, ``c`` the centre of P, exactly (:meth:`~symdp.engine.continuous.
    ContinuousDistribution.located`): every divergence is invariant under translating both laws, and ball arithmetic
    near the origin keeps the digits of points near P that, written at 10^300, would be lost to the size of their
    coordinate.

    >>> from symdp.engine.continuous import Gaussian
    >>> centred_pair(Gaussian(1e300, 1), Gaussian(0, 1))[1].mean == -mpmath.mpf(1e300)
    True
    """
    P, Q = canonical(P), canonical(Q)
    c = P.center()
    if c == 0 or not mpmath.isfinite(c):
        return P, Q
    return P._moved(-c), Q._moved(-c)


# --- where the mass is: windows and partitions ------------------------------------------------------------------


def _partition(P, Q, bits: int) -> list:
    """Sorted points around every anchor (quarter scales out to 4 scales, then a geometric ratio of 1.25, out to
    where a tail of that kind holds less than ``2^-bits``: :func:`~symdp.engine.grids.anchor_points`, its offsets in
    floats), plus every kink: the first cut of a window into intervals."""
    return sorted(set(kinks(P, Q)) | set(anchor_points(P, Q, 0.25, 1.25, bits * math.log(2))))


# --- hockey-stick and TV ----------------------------------------------------------------------------------------


def _hockey_stick_ball(P, Q, eps) -> arb:
    """See the module docstring: runs of certified sign, crossing intervals, and the tails beyond the window.

    Every piece of the line on which the loss is proved at most ε — an interval, a tail, or the whole line at once
    (:meth:`_Loss.global_range`) — contributes an exact 0, so that a δ(ε) that is 0 comes out as the exact ball 0;
    a tail on which it is proved at least ε joins its run (an exact ``P - e^ε Q`` of the half-line), and an
    undecided tail contributes ``[0, P(tail) (1 - e^{ε - sup L})]``.

    The crossing intervals are made narrow enough that their bounds sum below ``2^-(prec+4)`` relative to δ. δ is
    not known beforehand: the first tolerance is relative to the runs of the coarse partition that are provably
    positive (a lower bound of δ), or absolute where there are none (δ may be 0); if δ turns out larger than that
    absolute scale but smaller than the crossings' bounds, the crossings are narrowed again relative to it.

    >>> from symdp.engine.continuous import Lap2
    >>> with arb_precision(100):   # sup L = Δ/max(λ1, λ2) = ε, approached only at -∞: L ≤ ε everywhere
    ...     _hockey_stick_ball(Lap2(0, 1, 2), Lap2(1, 1, 2), mpmath.mpf("0.5")).is_zero()
    True
    """
    loss = _Loss(P, Q, eps)
    low, high = loss.global_range()
    if high <= eps:
        return arb(0)   # (p - e^ε q)_+ = 0 everywhere
    if low >= eps:
        return -arb(eps).expm1()   # p ≥ e^ε q everywhere: P(ℝ) - e^ε Q(ℝ)
    prec = ctx.prec
    points = _partition(P, Q, prec + 30)
    left, right = loss.tail_piece(-1, points[0]), loss.tail_piece(1, points[-1])
    weight = arb(eps).exp()
    first = [(a, b, loss.sign(a, b), None) for a, b in zip(points, points[1:])]
    relative = arb(2) ** -(prec + 4)
    estimate = _runs_sum(P, Q, weight, [left] + first + [right]).lower()
    intervals = first
    for _ in range(3):
        tolerance = relative * (estimate if estimate > 0 else 1)
        intervals = _refine(loss, intervals, tolerance, min_scale(P, Q) * mpmath.mpf(2) ** -(prec // 2 + 8))
        whole = [left] + intervals + [right]
        runs = _runs_sum(P, Q, weight, whole)
        crossings = sum((bound for _, _, sign, bound in whole if sign == 0), arb(0))
        if not (crossings.upper() > relative * runs.lower() and runs.lower() > estimate):
            break   # tight relative to δ, or no better estimate of δ to aim at
        estimate = runs.lower()
    return runs + arb(0).union(crossings)


def _refine(loss, intervals: list, tolerance: arb, finest) -> list:
    """The intervals of undecided sign (``sign`` 0) cut, in order, into intervals of certified sign and crossing
    brackets whose bound of ``∫ (p - e^ε q)_+`` is below ``tolerance``. Each entry is ``(a, b, sign, bound)``;
    ``bound`` is set on the undecided ones. A crossing is bracketed by :meth:`_Loss.split_at_crossing` where the
    loss is provably monotone, else the interval is bisected, within :data:`MAX_INTERVALS` bisections; an
    interval that cannot be narrowed (at the rounding level, or :data:`finest` wide) keeps its bound."""
    refined, budget = [], MAX_INTERVALS
    for a, b, sign, bound in intervals:
        stack = [(a, b, sign, None if bound is None or bound.upper() > tolerance else bound)]
        while stack:   # depth first, right part pushed first: intervals come out in order
            a, b, sign, bound = stack.pop()
            if sign != 0 or bound is not None:
                refined.append((a, b, sign, bound))
                continue
            bound, rounding = loss.bound(a, b)
            if bound <= tolerance or rounding or b - a <= finest or budget <= 0:
                refined.append((a, b, 0, bound))
                continue
            budget -= 1
            split = loss.split_at_crossing(a, b, tolerance, finest)
            if split is None:   # not monotone on [a, b], or a crossing at an end: bisect
                m = (a + b) / 2
                split = [(a, m, loss.sign(a, m), None), (m, b, loss.sign(m, b), None)]
            stack += reversed(split)
    return refined


class _Loss:
    """``g = L - ε = log p - log q - ε`` on balls: its sign on intervals and tails, and its crossings of 0.

    ``L`` on a ball is the intersection of up to three enclosures, each computed only while the sign of ``g`` is
    still undecided (:meth:`enclosure`):

    * the direct one. ``log p`` and ``log q`` evaluated apart on a wide ball each enclose a range of width
      ``~ |x| w / σ²`` that their difference does not have (the dependency problem of interval arithmetic); where
      both laws are Gaussian sums, ``L`` is computed by :class:`_GaussianSumRatio`, in which the common quadratic
      cancels exactly;
    * the mean value form ``L(m) + L'([a, b]) · ([a, b] - m)``, which has no dependency between the two
      log-densities;
    * for translates ``p = f(x - m_P)``, ``q = f(x - m_Q)`` (:meth:`~symdp.engine.continuous.ContinuousDistribution.
      located`): ``L(x) = ∫_{x - m_Q}^{x - m_P} (log f)' ∈ δ · (log f)'(W)``, ``δ = m_Q - m_P`` exact and ``W`` the
      window of the ball, which keeps its digits relative to δ however small δ is (two Laplace laws 10^-200
      apart: the other forms are off by 10^-50 absolutely).

    On the whole line and on the tails beyond a window, :meth:`global_range` and :meth:`tail` bound ``L`` from the
    laws' proved slope bounds, their log-concavity, their Gaussian terms and their tail envelopes."""

    def __init__(self, P, Q, eps):
        self.P, self.Q, self.eps = P, Q, arb(eps)
        self.ratio = _GaussianSumRatio.of(P, Q)
        (shape, at_p), (other, at_q) = P.located(), Q.located()
        self.shape = shape if shape == other else None
        if self.shape is not None:
            self.at_p_mpf, self.at_q_mpf = at_p, at_q
            self.delta = arb(mpmath.fsub(at_q, at_p, exact=True))   # exact: arb keeps every bit of an mpf

    # --- L on balls ---

    def _direct(self, x: arb) -> arb:
        if self.ratio is not None:
            return self.ratio.at(x)
        return self.P.arb_logpdf(x) - self.Q.arb_logpdf(x)

    def _translate(self, a, b) -> arb:
        """``δ · (log f)'(W)`` for ``x ∈ [a, b]``, ``W = [a - max(m_P, m_Q), b - min(m_P, m_Q)]`` the window of
        the integral. Its ends are exact and it is cut at the shape's kinks, each part taking the derivative of
        its own piece (a window that ends at a kink holds only that side's slope, which is what an integral
        over it sees; the hull of both would lose the sign of a loss 10^-200 from 0)."""
        if self.delta.is_zero():
            return arb(0)
        low, high = sorted((self.at_p_mpf, self.at_q_mpf))
        ends = [mpmath.fsub(a, high, exact=True), mpmath.fsub(b, low, exact=True)]
        cuts = ends[:1] + [k for k in self.shape.kinks() if ends[0] < k < ends[1]] + ends[1:]
        slopes = None
        for u, v in zip(cuts, cuts[1:]):
            piece = (u + v) / 2
            if not u < piece < v:
                piece = None   # a part too thin to hold a point of its own at this precision: both slopes
            part = self.shape.arb_dlogpdf(arb(u).union(arb(v)), piece)
            slopes = part if slopes is None else slopes.union(part)
        return self.delta * slopes

    def enclosure(self, a, b=None, decide: bool = True) -> arb:
        """``L`` on ``[a, b]`` (a point if ``b`` is None): the forms of the class docstring intersected, in order,
        until the sign of ``L - ε`` is decided (``decide=False``: all of them, for the tightest enclosure)."""
        ball = arb(a) if b is None or a == b else arb(a).union(arb(b))
        value = self._direct(ball)
        forms = []
        if b is not None and a != b:
            forms.append(lambda: self._direct(arb((a + b) / 2)) + self.slope(ball) * (ball - arb((a + b) / 2)))
        if self.shape is not None:
            forms.append(lambda: self._translate(a, a if b is None else b))
        for form in forms:
            if decide and (value > self.eps or value <= self.eps):
                break
            other = form()
            if not other.is_finite():
                continue
            value = value.intersection(other) if value.is_finite() and value.overlaps(other) else other
        return value

    def at(self, x) -> arb:
        return self.enclosure(x) - self.eps

    def sign(self, a, b) -> int:
        """The certified sign of ``g`` on ``[a, b]``: 1 where ``L > ε``, -1 where ``L ≤ ε`` (the interval
        contributes an exact 0 to δ), 0 if undecided."""
        gap = self.enclosure(a, b) - self.eps
        return 1 if gap > 0 else -1 if gap <= 0 else 0

    def bound(self, a, b) -> tuple[arb, bool]:
        """An upper bound of ``∫_[a,b] (p - e^ε q)_+ = ∫ p (1 - e^{-g})_+ ≤ (b - a) sup p (1 - e^{-sup g})_+``,
        and whether ``sup g`` is at the rounding level of the working precision (``g`` is 0 on the interval to
        all the digits there are, as for Laplace laws at ε = Δ/b: no bisection can do better)."""
        ball = arb(a).union(arb(b))
        gap = self.enclosure(a, b) - self.eps
        top = -(-arb(gap.upper())).expm1()
        rounding = top < arb(2) ** -(ctx.prec - GUARD_BITS // 2) * (1 + abs(self.eps))
        return (arb(b) - arb(a)) * self.P.arb_logpdf(ball).upper().exp() * top.upper().nonnegative_part(), rounding

    # --- L on the whole line and on tails ---

    def global_range(self) -> tuple[arb, arb]:
        """``(low, high)`` with ``low ≤ L ≤ high`` on all of ℝ (``∓inf`` where unbounded or unknown): for translates
        ``L ∈ δ · [inf (log f)', sup (log f)']`` (exactly 0 for ``δ = 0``); for two single Gaussians ``L`` is a
        quadratic formed exactly, whose range is known."""
        if self.shape is not None:
            if self.delta.is_zero():
                return arb(0), arb(0)
            slopes = self.shape.arb_dlogpdf_bounds()
            if slopes is not None:
                low, high = (self.delta * slopes[0], self.delta * slopes[1])
                return (low, high) if self.delta > 0 else (high, low)
        quadratic = self.quadratic()
        if quadratic is not None:
            return -_sup_on_tail(*(-c for c in quadratic), None), _sup_on_tail(*quadratic, None)
        return -_INF, _INF

    def quadratic(self) -> tuple | None:
        """``(a, b, c)`` with ``L(x) = a x² + b x + c`` exactly, for two single Gaussians; else None."""
        if self.ratio is None or len(self.ratio.top) != 1 or len(self.ratio.bottom) != 1:
            return None
        return self.ratio.top[0]   # relative to Q's own term, which is the exact 0 quadratic

    def tail(self, side: int, edge) -> tuple[arb, arb]:
        """``(low, high)`` with ``low ≤ L ≤ high`` on the tail ``side·x ≥ side·edge`` (``edge`` beyond every kink):
        the best of the global range; for log-concave translates, ``L`` at the edge (``L`` is monotone, falling
        with x where ``δ > 0``); and the bounds from the laws' Gaussian terms and tail envelopes
        (:func:`_quadratic_tail_bounds`)."""
        lows, highs = self.global_range()
        lows, highs = [lows], [highs]
        if self.shape is not None and self.shape.log_concave() and not self.delta.is_zero():
            (highs if side * self.delta > 0 else lows).append(self.enclosure(edge))
        for low, high, _ in _quadratic_tail_bounds(self.P, self.Q, side, edge):
            lows.append(low)
            highs.append(high)
        return max(lows, key=_lower_end), min(highs, key=_upper_end)

    def unbounded(self, side: int, edge) -> bool:
        """Whether ``L → +∞`` as ``x → side·∞`` is proved (from a lower bound that grows without bound)."""
        return any(grows for _, _, grows in _quadratic_tail_bounds(self.P, self.Q, side, edge))

    def tail_piece(self, side: int, edge) -> tuple:
        """The tail beyond ``edge`` as an entry ``(a, b, sign, bound)`` of the hockey-stick's pieces, ``a`` or
        ``b`` infinite: sign -1 where ``L ≤ ε`` on it, 1 where ``L ≥ ε``, else 0 with the bound
        ``P(tail) (1 - e^{ε - sup L})``."""
        low, high = self.tail(side, edge)
        a, b = (-mpmath.inf, edge) if side < 0 else (edge, mpmath.inf)
        if high <= self.eps:
            return a, b, -1, None
        if low >= self.eps:
            return a, b, 1, None
        top = -(self.eps - high).expm1() if high.is_finite() else arb(1)
        return a, b, 0, _mass(self.P, a, b) * top.upper().nonnegative_part()

    def slope(self, x) -> arb:
        if self.ratio is not None:
            return self.ratio.slope(arb(x))
        return self.P.arb_dlogpdf(x) - self.Q.arb_dlogpdf(x)

    def split_at_crossing(self, a, b, tolerance, finest):
        """Where ``g`` is provably monotone on ``[a, b]``: ``[(a, b, sign, None)]`` if its ends have one sign, else
        its single crossing ``r`` bracketed, ``[(a, r - w, s, None), (r - w, r + w, 0, bound), (r + w, b, -s,
        None)]`` (clipped to ``[a, b]``), with ``r`` from Newton's method, or an end of the interval where ``g`` is
        0 to working precision, the signs at ``r ± w`` certified and ``w`` small enough that the bracket's
        ``bound`` is below ``tolerance`` (or ``w`` at ``finest``, or the narrowest at which the precision still
        certifies the signs: the bracket is final either way). None where monotonicity is not certified, ``g``
        vanishes at both ends, or no bracket's signs are certified."""
        slope = self.slope(arb(a).union(arb(b)))
        if not (slope > 0 or slope < 0):
            return None
        ga, gb = self.at(a), self.at(b)
        sa = 1 if ga > 0 else -1 if ga < 0 else 0
        sb = 1 if gb > 0 else -1 if gb < 0 else 0
        if sa == sb:
            return None if sa == 0 else [(a, b, sa, None)]
        rising = 1 if slope > 0 else -1
        left_sign, right_sign = -rising, rising
        root = self._newton(a, b, ga, gb) if sa and sb else (a if sa == 0 else b)
        w = max(finest, (b - a) * mpmath.mpf(2) ** -(ctx.prec // 2))
        found, growth = None, 4   # the narrowest bracket whose signs are certified, and the step while none is
        for _ in range(64):
            left, right = max(a, root - w), min(b, root + w)
            ok_left = left == a or self._has_sign(left, left_sign)
            ok_right = right == b or self._has_sign(right, right_sign)
            if ok_left and ok_right:
                found = (left, right, self.bound(left, right)[0])
                if found[2] <= tolerance or w <= finest:
                    break
                w /= 4   # the signs hold but the bracket is too wide
            elif found is not None:
                break   # narrower than the precision tells the signs apart: the last bracket is final
            elif left == a and right == b:
                return None
            else:
                w *= growth   # too narrow for the precision to tell the signs apart
                growth *= 2
        if found is None:
            return None
        left, right, bound = found
        return ([(a, left, left_sign, None)] if left > a else []) + [(left, right, 0, bound)] + (
            [(right, b, right_sign, None)] if right < b else [])

    def _has_sign(self, x, sign: int) -> bool:
        g = self.at(x)
        return g > 0 if sign > 0 else g < 0

    def _newton(self, a, b, ga, gb):
        """An approximate root of ``g`` in ``(a, b)`` (midpoint arithmetic: it is certified afterwards)."""
        ga, gb = ga.mid(), gb.mid()
        x = a - (b - a) * _mpf(ga) / (_mpf(gb) - _mpf(ga))   # regula falsi start
        for _ in range(ctx.prec.bit_length() + 8):
            if not a < x < b:
                x = (a + b) / 2
            step = _mpf((self.at(x) / self.slope(arb(x))).mid())
            x -= step
            if abs(step) <= abs(x) * mpmath.mpf(2) ** -(ctx.prec - 4) + mpmath.mpf(2) ** -(ctx.prec * 2):
                break
        return x


class _GaussianSumRatio:
    """``L = log p - log q`` for two laws that are Gaussian sums (:meth:`~symdp.engine.continuous.
    ContinuousDistribution.arb_gaussian_sum`), without dependency on wide balls: every term's log-density minus that
    of Q's first term ``r`` is a quadratic ``c(x) = a x² + b x + c0`` whose coefficients are formed before ``x``
    enters (the ``-x²/2σ²`` of equal scales cancels exactly), evaluated in vertex form, and
    ``L = LSE_i cᵢ(x) - LSE_j dⱼ(x)`` with each log-sum-exp increasing in every argument.

    >>> from symdp.engine.continuous import Gaussian, Mixture
    >>> with arb_precision(64):   # subsampled Gaussian: L = log(1 - q + q e^{(2x - 1)/2}), increasing
    ...     ratio = _GaussianSumRatio.of(Mixture(0.5, Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1))
    ...     wide = arb(-40).union(arb(-30))
    ...     print(ratio.at(wide) < 0, ratio.at(wide).rad() < 1e-9, ratio.slope(wide) > 0)
    True True True
    """

    def __init__(self, top: list, bottom: list):
        reference = bottom[0]
        self.top = [_log_ratio_quadratic(t, reference) for t in top]
        self.bottom = [_log_ratio_quadratic(t, reference) for t in bottom]

    @classmethod
    def of(cls, P, Q):
        """The ratio of ``P`` to ``Q``, or None unless both are Gaussian sums."""
        top, bottom = P.arb_gaussian_sum(), Q.arb_gaussian_sum()
        return None if top is None or bottom is None else cls(top, bottom)

    def at(self, x: arb) -> arb:
        return _log_sum_exp([_quadratic_at(c, x) for c in self.top]) - \
            _log_sum_exp([_quadratic_at(c, x) for c in self.bottom])

    def slope(self, x: arb) -> arb:
        return _softmax_slope(self.top, x) - _softmax_slope(self.bottom, x)


class _Quadratic:
    """``a x² + b x + c`` with coefficients fixed before ``x`` enters, evaluated on real or complex balls with ``x``
    occurring once (vertex form, or linear where ``a`` is an exact 0): no dependency between its terms, which on a
    disc of radius ``r`` around a point ``x`` far out would otherwise each vary by ``~ |a x| r``.

    >>> with arb_precision(64):
    ...     q = _Quadratic(arb(-1), arb(300), arb(0))   # -(x - 150)² + 22500
    ...     print(q.at(acb(150, 0.01)).real.rad() < 1e-3, q.at(arb(149).union(arb(151))).upper() < 22500.001)
    True True
    """

    __slots__ = ("a", "b", "c", "vertex", "top")

    def __init__(self, a: arb, b: arb, c: arb):
        self.a, self.b, self.c = a, b, c
        self.vertex = self.top = None
        if not a.is_zero() and (a > 0 or a < 0):
            self.vertex = -b / (2 * a)
            self.top = c + b * self.vertex / 2

    def at(self, x):
        if self.a.is_zero():
            return self.b * x + self.c
        if self.vertex is not None:
            d = x - self.vertex
            return self.a * (d * d if isinstance(d, acb) else _square(d)) + self.top
        return _quadratic_at((self.a, self.b, self.c), x) if isinstance(x, arb) else (self.a * x + self.b) * x + self.c

    def __sub__(self, other: "_Quadratic") -> "_Quadratic":
        return _Quadratic(self.a - other.a, self.b - other.b, self.c - other.c)

    def scaled(self, k: arb) -> "_Quadratic":
        return _Quadratic(k * self.a, k * self.b, k * self.c)


class _LogSumExp:
    """``x ↦ log Σᵢ e^{qᵢ(x)}`` for quadratics ``qᵢ``: on a real ball by :func:`_log_sum_exp` (monotone hull); on
    a complex one as ``q_k(x) + log(1 + Σ_{i≠k} e^{(qᵢ - q_k)(x)})`` about its largest term ``k``, each difference
    a quadratic formed beforehand (the terms' own widths would not cancel in ``qᵢ(x) - q_k(x)``, and the sum could
    reach the logarithm's branch cut), with the branch cut checked (``analytic``): Petras integration needs that.

    >>> with arb_precision(64):   # log(e^{-x²} + e^{-(x-1)²}) at 0: log(1 + e^{-1})
    ...     lse = _LogSumExp([_Quadratic(arb(-1), arb(0), arb(0)), _Quadratic(arb(-1), arb(2), arb(-1))])
    ...     print(abs(lse(acb(0)).real - (1 + arb(-1).exp()).log()) < 1e-15, lse(arb(0)).overlaps(lse(acb(0)).real))
    True True
    """

    def __init__(self, quadratics: list):
        self.terms = quadratics
        self.differences = [[qi - qk for qi in quadratics] for qk in quadratics]

    def __call__(self, x):
        values = [q.at(x) for q in self.terms]
        if isinstance(x, arb):
            return _log_sum_exp(values)
        if len(values) == 1:
            return values[0]
        k = max(range(len(values)), key=lambda i: values[i].real.mid())
        rest = sum((d.at(x).exp() for i, d in enumerate(self.differences[k]) if i != k), acb(0))
        return values[k] + (1 + rest).log(analytic=True)


class _GaussianSumLogs:
    """The log-densities of two Gaussian sums, ``log p = LSE_i gᵢ`` and ``log q = LSE_j hⱼ`` with each term's
    ``log(w N(x; m, s²))`` a :class:`_Quadratic`, and the forms the integrals need, each with its quadratics
    combined before ``x`` enters (``r = h₀`` is Q's first term):

    * ``L = log p - log q = LSE_i (gᵢ - r) - LSE_j (hⱼ - r)``, where the common ``-x²/2s²`` cancels exactly;
    * ``α log p + (1 - α) log q = α LSE_i (gᵢ - (1 - 1/α) r) + (1 - α) LSE_j (hⱼ - r)``: near the peak of the
      Rényi integrand each combined quadratic is nearly flat, where ``α log p`` and ``(1 - α) log q`` apart each
      vary like ``α x`` (at α = 150 the Petras discs would have to be 10⁴ times smaller).

    >>> from symdp.engine.continuous import Gaussian, Mixture
    >>> with arb_precision(80):   # p/q = 1 - q + q e^{x - 1/2} for the subsampled Gaussian with σ = 1
    ...     logs = _GaussianSumLogs.of(Mixture(0.5, Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1))
    ...     print(abs(logs.log_ratio(arb(2)) - ((1 + (arb(1.5)).exp()) / 2).log()) < 1e-20)
    True
    """

    def __init__(self, top: list, bottom: list):
        self.p = [self._log_term(*t) for t in top]
        self.q = [self._log_term(*t) for t in bottom]
        reference = self.q[0]
        self.log_p = _LogSumExp(self.p)
        self.log_p_over_r = _LogSumExp([g - reference for g in self.p])
        self.log_q_over_r = _LogSumExp([h - reference for h in self.q])
        self.single_q = len(self.q) == 1

    @classmethod
    def of(cls, P, Q):
        """The logs of ``P`` and ``Q``, or None unless both are Gaussian sums."""
        top, bottom = P.arb_gaussian_sum(), Q.arb_gaussian_sum()
        return None if top is None or bottom is None else cls(top, bottom)

    @staticmethod
    def _log_term(log_w, m, s) -> _Quadratic:
        v = s * s
        return _Quadratic(-1 / (2 * v), m / v, log_w - m * m / (2 * v) - (s * (2 * arb.pi()).sqrt()).log())

    def log_ratio(self, x):
        top = self.log_p_over_r(x)
        return top if self.single_q else top - self.log_q_over_r(x)

    def kl_integrand(self, x, shift):
        return (self.log_p(x) - shift).exp() * self.log_ratio(x)

    def renyi_exponent(self, alpha: arb):
        """``x ↦ α log p(x) + (1 - α) log q(x)``, its quadratics combined once for this α."""
        reference = self.q[0].scaled(1 - 1 / alpha)
        combined = _LogSumExp([g - reference for g in self.p])
        log_q_over_r, single_q = self.log_q_over_r, self.single_q

        def exponent(x):
            value = alpha * combined(x)
            return value if single_q else value + (1 - alpha) * log_q_over_r(x)
        return exponent


class _LogForms:
    """The log-densities two laws offer the KL and Rényi integrands, per piece between kinks: each form has
    ``log_p``, ``log_ratio`` (``log p - log q``), ``kl_integrand(x, shift)`` (``e^{log p - shift} (log p - log
    q)``) and ``renyi_exponent(α)`` (``α log p + (1 - α) log q``), on real and complex balls. The exponents are
    built with as little dependency as the laws allow, since on the complex discs of Petras integration a form that
    is the difference of two large terms is as wide as each of them:

    * two Gaussian sums: :class:`_GaussianSumLogs`, on every piece;
    * laws with :meth:`~symdp.engine.continuous.ContinuousDistribution.arb_log_split` (Gaussian, Laplace, Lap2,
      shifts): :class:`_PieceLogs`, their quadratic parts combined before the ball enters (on Lap2's tail pieces
      ``α log p`` and ``(1 - α) log q`` each vary like ``α |x|/λ``, their sum only like ``|x|/λ``);
    * otherwise :class:`_DensityLogs`, the laws' own log-densities.

    ``on(None)`` gives the forms for a real ball anywhere (the peak search), which cannot use a piece's split."""

    def __init__(self, P, Q):
        self.P, self.Q, self.cache = P, Q, {}
        self.sums = _GaussianSumLogs.of(P, Q)

    def on(self, piece):
        if self.sums is not None:
            return self.sums
        if piece not in self.cache:
            split_p, split_q = (None, None) if piece is None else (self.P.arb_log_split(piece),
                                                                  self.Q.arb_log_split(piece))
            self.cache[piece] = _DensityLogs(self.P, self.Q, piece) if split_p is None or split_q is None else \
                _PieceLogs(split_p, split_q)
        return self.cache[piece]


class _DensityLogs:
    """The forms from the laws' log-densities (through their analytic form on ``piece``, when given)."""

    def __init__(self, P, Q, piece):
        self.P, self.Q, self.piece = P, Q, piece

    def log_p(self, x):
        return self.P.arb_logpdf(x, self.piece)

    def log_ratio(self, x):
        return self.P.arb_logpdf(x, self.piece) - self.Q.arb_logpdf(x, self.piece)

    def kl_integrand(self, x, shift):
        """``e^{log p - shift} (log p - log q)``, each log-density evaluated once."""
        log_p = self.P.arb_logpdf(x, self.piece)
        return (log_p - shift).exp() * (log_p - self.Q.arb_logpdf(x, self.piece))

    def renyi_exponent(self, alpha: arb):
        P, Q, piece = self.P, self.Q, self.piece
        return lambda x: alpha * P.arb_logpdf(x, piece) + (1 - alpha) * Q.arb_logpdf(x, piece)


class _PieceLogs:
    """``log p = g + ρ_p`` and ``log q = h + ρ_q`` on one piece (``g``, ``h`` quadratics, ``ρ`` remainders)."""

    def __init__(self, split_p, split_q):
        (g, self.rest_p), (h, self.rest_q) = split_p, split_q
        self.g, self.h = _Quadratic(*g), _Quadratic(*h)
        self.ratio = self.g - self.h

    def log_p(self, x):
        return self.g.at(x) + (0 if self.rest_p is None else self.rest_p(x))

    def log_ratio(self, x):
        value = self.ratio.at(x)
        if self.rest_p is not None:
            value = value + self.rest_p(x)
        return value if self.rest_q is None else value - self.rest_q(x)

    def kl_integrand(self, x, shift):
        """``e^{log p - shift} (log p - log q)``, the remainder of ``log p`` evaluated once."""
        rest = 0 if self.rest_p is None else self.rest_p(x)
        ratio = self.ratio.at(x) + rest
        if self.rest_q is not None:
            ratio = ratio - self.rest_q(x)
        return (self.g.at(x) + rest - shift).exp() * ratio

    def renyi_exponent(self, alpha: arb):
        """``x ↦ α log p + (1 - α) log q``: ``(α g + (1 - α) h)(x) + α ρ_p(x) + (1 - α) ρ_q(x)``."""
        combined = _Quadratic(*(alpha * u + (1 - alpha) * v for u, v in zip(
            (self.g.a, self.g.b, self.g.c), (self.h.a, self.h.b, self.h.c))))
        rest_p, rest_q = self.rest_p, self.rest_q

        def exponent(x):
            value = combined.at(x)
            if rest_p is not None:
                value = value + alpha * rest_p(x)
            return value if rest_q is None else value + (1 - alpha) * rest_q(x)
        return exponent


def _log_ratio_quadratic(term, reference) -> tuple:
    """``(a, b, c0)`` with ``log(w N(x; m, s²)) - log(w_r N(x; m_r, s_r²)) = a x² + b x + c0``; ``a`` is an exact 0
    for equal scales."""
    (lw, m, s), (lw_r, m_r, s_r) = term, reference
    v, v_r = s * s, s_r * s_r
    if s == s_r:
        return arb(0), (m - m_r) / v, lw - lw_r - (m - m_r) * (m + m_r) / (2 * v)
    constant = lw - lw_r - (s / s_r).log() - m * m / (2 * v) + m_r * m_r / (2 * v_r)
    return (1 / v_r - 1 / v) / 2, m / v - m_r / v_r, constant


def _quadratic_at(c, x: arb) -> arb:
    """``a x² + b x + c0`` on a real ball, with ``x`` entering once: linear, vertex form, or (``a`` a ball around 0)
    the exact Taylor form at the ball's midpoint."""
    a, b, c0 = c
    if a.is_zero():
        return b * x + c0
    if a > 0 or a < 0:
        vertex = -b / (2 * a)
        return a * _square(x - vertex) + (c0 + b * vertex / 2)
    m = arb(x.mid())
    return a * m * m + b * m + c0 + (2 * a * m + b) * (x - m) + a * _square(x - m)


def _square(z: arb) -> arb:
    """``z²`` of a real ball, non-negative where it contains 0."""
    return z * z if z > 0 or z < 0 else arb(0).union(z.abs_upper() ** 2)


def _log_sum_exp(values: list) -> arb:
    """``log Σ e^vᵢ`` of real balls: directly on narrow balls, else the hull of its values at the lower and at the
    upper ends (it increases in every argument)."""
    if len(values) == 1:
        return values[0]
    if all(v.is_finite() and v.rad() < 2 ** -20 for v in values) or not all(v.is_finite() for v in values):
        top = arb(max(v.mid() for v in values)) if all(v.is_finite() for v in values) else arb(0)
        return top + sum(((v - top).exp() for v in values), arb(0)).log()
    return _log_sum_exp([v.lower() for v in values]).union(_log_sum_exp([v.upper() for v in values]))


def _softmax_slope(quadratics: list, x: arb) -> arb:
    """``d/dx LSE_i cᵢ(x) = Σ sᵢ cᵢ'(x)``, ``sᵢ = 1 / Σ_k e^{c_k - cᵢ}`` (each difference a quadratic evaluated
    once), intersected with the hull of the ``cᵢ'`` (a convex combination lies in it)."""
    slopes = [2 * a * x + b for a, b, _ in quadratics]
    if len(quadratics) == 1:
        return slopes[0]
    total = arb(0)
    for i, ci in enumerate(quadratics):
        spread = sum(((_quadratic_at(tuple(u - v for u, v in zip(ck, ci)), x)).exp()
                      for k, ck in enumerate(quadratics) if k != i), arb(0))
        total += slopes[i] / (1 + spread)
    hull = slopes[0]
    for g in slopes[1:]:
        hull = hull.union(g)
    return total.intersection(hull) if total.overlaps(hull) else total


def _mpf(x: arb) -> mpmath.mpf:
    """The midpoint of an Arb ball as an mpf at the working precision (a search value: rounding is harmless)."""
    man, exp = x.mid().man_exp()
    return mpmath.ldexp(mpmath.mpf(int(man)), int(exp))


def _runs_sum(P, Q, weight, intervals) -> arb:
    """``Σ P(R) - e^ε Q(R)`` over the maximal runs ``R`` of consecutive intervals of positive sign (the first and
    last may be tails, with an infinite end)."""
    total, start, end = arb(0), None, None
    for a, b, sign, _ in intervals + [(None, None, 0, None)]:
        if sign > 0 and start is not None and a == end:
            end = b
            continue
        if start is not None:
            total += _mass(P, start, end) - weight * _mass(Q, start, end)
        start, end = (a, b) if sign > 0 else (None, None)
    return total


def _mass(D, a, b) -> arb:
    """``D([a, b])`` for ends that may be infinite."""
    if a == -mpmath.inf:
        return arb(1) if b == mpmath.inf else D.arb_cdf(arb(b))
    return D.arb_sf(arb(a)) if b == mpmath.inf else D.arb_prob(arb(a), arb(b))


# --- the log-ratio on tails: quadratic bounds -------------------------------------------------------------------


_INF = arb("inf")


def _lower_end(ball: arb):
    """A sort key: the lower end of a ball as an mpf (``-inf`` for ``-inf`` or an unbounded ball)."""
    low = ball.lower()
    if low.is_finite():
        return _mpf(low)
    return mpmath.inf if ball.is_exact() and ball > 0 else -mpmath.inf


def _upper_end(ball: arb):
    """A sort key: the upper end of a ball as an mpf (``+inf`` for ``+inf`` or an unbounded ball)."""
    return -_lower_end(-ball)


def _sup_on_tail(a: arb, b: arb, c: arb, u0) -> arb:
    """``sup a u² + b u + c`` over ``u ≥ u0`` (``u0`` None: over ℝ), or ``+inf`` where it is unbounded or the signs
    of ``a`` and ``b`` that decide it are not; the value at ``u0`` where the quadratic provably falls beyond it.

    >>> print(_sup_on_tail(arb(-1), arb(2), arb(0), arb(0)), _sup_on_tail(arb(0), arb(-1), arb(3), arb(2)))
    1.00000000000000 1.00000000000000
    """
    if a.is_zero():
        if b.is_zero():
            return c
        return b * u0 + c if u0 is not None and b < 0 else _INF
    if not a < 0:
        return _INF
    vertex = -b / (2 * a)
    if u0 is not None and vertex <= u0:
        return _quadratic_at((a, b, c), arb(u0))
    return c + b * vertex / 2


def _grows(a: arb, b: arb) -> bool:
    """Whether ``a u² + b u + c → +∞`` as ``u → ∞`` is proved."""
    return a > 0 or (a.is_zero() and b > 0)


def _loss_quadratics(P, Q, side: int, edge) -> tuple | None:
    """Quadratic bounds of ``L`` on the tail ``u = side·x ≥ side·edge``: ``(above, below, log_n, log_m)`` with
    ``L ≤ log_n + minⱼ maxᵢ above[j][i](u)`` and ``L ≥ maxᵢ minⱼ below[i][j](u) - log_m``, each quadratic
    ``(a, b, c)`` of ``a u² + b u + c``; None where the laws give none (an edge not beyond a kink).

    * Two Gaussian sums ``p = Σᵢ e^{gᵢ}``, ``q = Σⱼ e^{hⱼ}`` (n and m terms): ``L ≤ log n + maxᵢ (gᵢ - hⱼ)`` for
      every j and ``L ≥ gᵢ - maxⱼ hⱼ - log m`` for every i, each ``gᵢ - hⱼ`` a quadratic formed exactly
      (:func:`_log_ratio_quadratic`; the ``x²`` terms of equal scales cancel to an exact 0).
    * Otherwise the tail envelopes ``log p ≤ log Σᵢ e^{Uᵢ}``, ``log p ≥ V`` (:meth:`~symdp.engine.continuous.
      ContinuousDistribution.arb_envelope`): ``L ≤ log n + maxᵢ (Uᵢ^P - V^Q)``, ``L ≥ minⱼ (V^P - Uⱼ^Q) - log m``.
    """
    top, bottom = P.arb_gaussian_sum(), Q.arb_gaussian_sum()
    if top is not None and bottom is not None:
        grid = [[_log_ratio_quadratic(t, r) for r in bottom] for t in top]   # grid[i][j]: gᵢ - hⱼ in x
        in_u = [[(a, side * b, c) for a, b, c in row] for row in grid]
        above = [[in_u[i][j] for i in range(len(top))] for j in range(len(bottom))]
        return above, in_u, _log_count(len(top)), _log_count(len(bottom))
    try:
        (ups_p, low_p), (ups_q, low_q) = P.arb_envelope(side, side * edge), Q.arb_envelope(side, side * edge)
    except ValueError:   # the edge is not beyond a kink of one of them
        return None

    def minus(e, f):   # the exponent -A u² + B u + C of e minus f's, as (a, b, c) of a u² + b u + c
        return f[0] - e[0], e[1] - f[1], e[2] - f[2]
    return ([[minus(u, low_q) for u in ups_p]], [[minus(low_p, u) for u in ups_q]],
            _log_count(len(ups_p)), _log_count(len(ups_q)))


def _quadratic_tail_bounds(P, Q, side: int, edge) -> list:
    """``(low, high, grows)`` from :func:`_loss_quadratics`: ``low ≤ L ≤ high`` on the tail, and ``grows`` if
    ``L → +∞`` is proved (some lower group grows in every member)."""
    found = _loss_quadratics(P, Q, side, edge)
    if found is None:
        return []
    above, below, log_n, log_m = found
    u0 = side * arb(edge)
    high = min((max((_sup_on_tail(*q, u0) for q in group), key=_upper_end) for group in above),
               key=_upper_end) + log_n
    low = max((min((-_sup_on_tail(*(-c for c in q), u0) for q in group), key=_lower_end) for group in below),
              key=_lower_end) - log_m
    return [(low, high, any(all(_grows(*q[:2]) for q in group) for group in below))]


def _loss_polynomial(P, Q, side: int, edge) -> tuple | None:
    """``(c2, c1, c0)``, non-negative, with ``|L| ≤ c2 u² + c1 u + c0`` on the tail ``u = side·x ≥ side·edge ≥ 0``:
    from one group above and one below of :func:`_loss_quadratics` (``|a u² + b u + c| ≤ |a| u² + |b| u + |c|``
    for ``u ≥ 0``); None where those are not known."""
    found = _loss_quadratics(P, Q, side, edge)
    if found is None:
        return None
    above, below, log_n, log_m = found
    terms = above[0] + below[0]
    return (sum((q[0].abs_upper() for q in terms), arb(0)), sum((q[1].abs_upper() for q in terms), arb(0)),
            sum((q[2].abs_upper() for q in terms), arb(0)) + log_n + log_m)


def _log_count(n: int) -> arb:
    return arb(0) if n == 1 else arb(n).log()


# --- the max divergence: a supremum enclosed from both sides -------------------------------------------------


def _max_divergence_ball(P, Q) -> arb:
    """``sup L`` enclosed from both sides, ``L = log p - log q``.

    * Two single Gaussians: ``L`` is a quadratic formed exactly (:meth:`_Loss.quadratic`): its vertex value where
      it is concave, ``+inf`` where it provably grows (``σ_P > σ_Q``, or equal sds and different means).
    * Translates of a log-concave law (Laplace, Lap2 of one pair of scales): ``L`` is monotone, so its supremum
      is its limit at one end, at most ``δ`` times the shape's slope bound (:meth:`_Loss.global_range`), and at
      least the values attained on the way out (below).
    * Otherwise ``+inf`` where a tail's lower bound provably grows without bound (:meth:`_Loss.unbounded`: a
      heavier tail of P). Else the upper end is the largest of: on each tail beyond the window, the bound of
      :meth:`_Loss.tail` (for translates, ``δ`` times the shape's slope bound, which is the supremum's limit
      for log-concave shapes); on each interval of the window, ``L``'s enclosure (its largest end value where
      ``L`` is provably monotone there), the intervals bisected while their bound exceeds the best attained value
      by more than the precision, within :data:`MAX_INTERVALS` bisections. The lower end is the best value
      attained: at the window's points and midpoints, and, where a tail's bound exceeds them (a supremum
      approached only at infinity, like ``Δ/max(λ1, λ2)`` for Lap2 pairs), at points out to ``2^(prec+40)``
      scales beyond the window, each evaluated with as many more bits as its distance needs.

    A ball whose upper end stays unknown (a tail no bound decides) is returned unbounded: nothing is known."""
    loss = _Loss(P, Q, 0)
    quadratic = loss.quadratic()
    if quadratic is not None:
        a, b, c = quadratic
        if _grows(a, b) or _grows(a, -b):
            return _INF
        if a < 0 or (a.is_zero() and b.is_zero()):
            return _sup_on_tail(a, b, c, None)
    prec = ctx.prec
    points = _partition(P, Q, prec + 30)
    edges = ((-1, points[0]), (1, points[-1]))
    if any(loss.unbounded(side, edge) for side, edge in edges):
        return _INF
    scale = max(P.scale(), Q.scale())

    def far_out(side, edge, high, best):
        """The best value attained out to 2^(prec+40) scales beyond ``edge``, while it may still fall short of
        the tail's bound ``high``."""
        k = 4
        while k <= prec + 40 and not high.upper() <= best.lower():
            far = edge + side * scale * mpmath.ldexp(1, k)
            with arb_precision(prec + k + 16):   # each log-density is about 2^k: keep prec bits after the point
                best = max(best, loss.enclosure(far, decide=False), key=_lower_end)
            k += 4
        return best
    if loss.shape is not None and loss.shape.log_concave():
        # Translates of a log-concave law: L is monotone, rising towards x → -sign(δ)·∞ (:meth:`_Loss.tail`), so
        # its supremum is its limit there, at most the global bound δ·(slope bound); the lower end is attained
        # on the way out.
        side = -1 if loss.delta > 0 else 1
        edge = edges[0][1] if side < 0 else edges[1][1]
        high = loss.global_range()[1]
        best = far_out(side, edge, high, loss.enclosure(edge, decide=False))
        return arb(best.lower()).union(arb(high.upper())) if high.is_finite() else arb("nan")
    values = {x: loss.enclosure(x, decide=False) for x in points}
    best = max(values.values(), key=_lower_end)
    uppers = []
    for side, edge in edges:
        high = loss.tail(side, edge)[1]
        uppers.append(high)
        best = far_out(side, edge, high, best)
    tolerance = arb(2) ** -(prec - GUARD_BITS // 2) * (1 + abs(best).upper())
    finest = min_scale(P, Q) * mpmath.mpf(2) ** -(prec + 8)
    stack, budget = list(zip(points, points[1:])), MAX_INTERVALS
    while stack:
        a, b = stack.pop()
        slope = loss.slope(arb(a).union(arb(b)))
        if slope >= 0 or slope <= 0:   # monotone: the supremum is at an end
            upper = max(values[a], values[b], key=_upper_end)
        else:
            upper = loss.enclosure(a, b, decide=False)
        if upper.upper() <= best.lower() + tolerance or budget <= 0 or b - a <= finest:
            uppers.append(upper)
            continue
        budget -= 1
        m = (a + b) / 2
        values[m] = loss.enclosure(m, decide=False)
        best = max(best, values[m], key=_lower_end)
        stack += [(a, m), (m, b)]
    top = max(uppers + [best], key=_upper_end)
    if not top.is_finite():
        return arb("nan")
    return arb(best.lower()).union(arb(top.upper()))


# --- KL and Rényi: rigorous integration plus tail envelopes -----------------------------------------------------


def _kl_ball(P, Q) -> arb:
    """``∫ p (log p - log q)`` on the window, plus the tails, bounded with ``log y ≤ (y^t - 1)/t`` (t > 0): above by
    ``p log(p/q) ≤ p^(1+t) q^(-t)/t``, below by ``p log(p/q) = -p log(q/p) ≥ -p^(1-t) q^t/t`` and by
    ``p log(p/q) ≥ p - q ≥ -q``, and both ways by ``∫ p |L|`` with ``|L|`` a polynomial
    (:func:`_tail_moment_bound`, which stays small where P and Q are far apart and every ``p^(1+t) q^(-t)`` is
    huge); the least bound on each side."""
    logs = _LogForms(P, Q)

    def tail_bound(lo, hi):
        # Every t gives a bound; the best is the least. A large t weighs p^(1+t) q^(-t), whose mass sits far out
        # where P and Q are far apart (e^{R_2} is e^{τ²} for Gaussians): a small t keeps the envelope near P.
        above = arb("inf")
        for t in (1, 0.5, 0.125, 0.015625):
            bound = _tail_integral(P, Q, 1 + arb(t), lo, hi) / t
            if bound.is_finite() and not (above.is_finite() and bound.upper() >= above.upper()):
                above = bound
        below = Q.arb_cdf(arb(lo)) + Q.arb_sf(arb(hi))
        for t in (0.5, 0.125, 0.015625):
            bound = _tail_integral(P, Q, 1 - arb(t), lo, hi) / t
            if bound.is_finite() and bound.upper() < below.upper():
                below = bound
        both = _tail_moment_bound(P, Q, lo, hi)   # far-apart laws: |L| grows only polynomially
        if both.is_finite():
            above, below = min(above, both, key=_upper_end), min(below, both, key=_upper_end)
        return (-below).union(above)

    return _window_integral(P, Q, logs.on(None).log_p, lambda piece: logs.on(piece).kl_integrand, tail_bound)


def _renyi_ball(P, Q, alpha) -> arb:
    """``log(∫ p^α q^(1-α))/(α - 1)``; ``+inf`` (exact) when a tail of the integrand is not integrable."""
    for side in (-1, 1):
        if TailExpansion.combine(alpha, P.expansion(side), 1 - alpha, Q.expansion(side)).integrable() is False:
            return arb("inf")
    exact = _renyi_gaussian_sum(P, Q, alpha)
    if exact is None:
        exact = _renyi_log_quadratic(P, Q, alpha)
    if exact is not None:
        return exact
    a = arb(alpha)
    logs = _LogForms(P, Q)

    def tail_bound(lo, hi):
        return arb(0).union(_tail_integral(P, Q, a, lo, hi))

    def on_piece(piece):
        exponent = logs.on(piece).renyi_exponent(a)
        return lambda x, shift: (exponent(x) - shift).exp()

    integral = _window_integral(P, Q, logs.on(None).renyi_exponent(a), on_piece, tail_bound)
    return integral.log() / (a - 1)


MAX_GAUSSIAN_TERMS = 4096
"""Most terms of the multinomial expansion :func:`_renyi_gaussian_sum` sums before leaving the integral to Petras."""


def _renyi_gaussian_sum(P, Q, alpha) -> arb | None:
    """``R_α`` for an integer ``α ≥ 2``, ``P = Σᵢ wᵢ N(mᵢ, sᵢ²)`` a Gaussian sum and ``Q = N(m, s²)``, by expanding
    ``p^α = Σ_k (α; k) Πᵢ (wᵢ φᵢ)^kᵢ`` (multinomial): each term times ``q^(1-α)`` is the exponential of a quadratic,
    ``exp(-A x² + B x + C)``, whose integral over ℝ is ``e^{C + B²/4A} √(π/A)`` (``+inf`` where ``A ≤ 0``). All terms
    are positive, so the sum is computed without cancellation; for the subsampled Gaussian it is the binomial sum of
    Mironov, Talwar & Zhang (2019), here derived from the law's components. None where the route does not apply.
    Computed with extra bits until the result is tight: the exponents grow like ``α² m²/s²`` and cancel in ``A``.

    >>> from symdp.engine.continuous import Gaussian, Mixture
    >>> with arb_precision(100):   # q = 1/2, σ = 1, α = 2: log(1 + q²(e - 1))
    ...     r = _renyi_gaussian_sum(Mixture(0.5, Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1), mpmath.mpf(2))
    ...     print(abs(r - (1 + (arb(1).exp() - 1) / 4).log()) < 1e-28, r.rad() < 1e-28)
    True True
    """
    if not (alpha >= 2 and alpha == int(alpha)):
        return None
    top, bottom = P.arb_gaussian_sum(), Q.arb_gaussian_sum()
    order = int(alpha)
    if top is None or bottom is None or len(bottom) != 1 or math.comb(order + len(top) - 1, len(top) - 1) > \
            MAX_GAUSSIAN_TERMS:
        return None
    prec = ctx.prec
    for extra in EXTRA_BITS:
        with arb_precision(prec + extra):
            value = _gaussian_sum_renyi_at(P.arb_gaussian_sum(), Q.arb_gaussian_sum()[0], order)
        if value is None or _settled(value, prec):
            break
    return value


def _gaussian_sum_renyi_at(terms: list, reference: tuple, order: int) -> arb | None:
    """The multinomial expansion of :func:`_renyi_gaussian_sum` at flint's current precision."""
    _, m_q, s_q = reference
    log_root_2pi = (2 * arb.pi()).log() / 2
    # Each component's log-density -x²/(2s²) + m x/s² + (log w - log s√(2π) - m²/(2s²)) as (A, B, C) of -A x² + B x + C
    pieces = [(1 / (2 * s * s), m / (s * s), lw - s.log() - log_root_2pi - m * m / (2 * s * s)) for lw, m, s in terms]
    a_q, b_q, c_q = 1 / (2 * s_q * s_q), m_q / (s_q * s_q), -s_q.log() - log_root_2pi - m_q * m_q / (2 * s_q * s_q)
    logs = []
    for counts in _compositions(order, len(pieces)):
        A, B, C = (sum((k * piece[j] for k, piece in zip(counts, pieces)), arb(0)) + (1 - order) * q_part
                   for j, q_part in enumerate((a_q, b_q, c_q)))
        if A <= 0:
            return arb("inf")   # a positive term with a divergent integral
        if not A > 0:
            return None
        logs.append(_log_multinomial(order, counts) + C + B * B / (4 * A) + (arb.pi() / A).log() / 2)
    top = max(v.mid() for v in logs)
    return (arb(top) + sum(((v - arb(top)).exp() for v in logs), arb(0)).log()) / (order - 1)


def _renyi_log_quadratic(P, Q, alpha) -> arb | None:
    """``R_α`` for laws whose log-densities are quadratics on every piece between their kinks (Gaussian, Laplace,
    shifted copies), any order: on each piece ``p^α q^(1-α) = exp(a x² + b x + c)``, integrated in closed form
    (:func:`exp_quadratic_piece`). None where a piece is not of that kind or its integral is not decided.

    >>> from symdp.engine.continuous import Laplace
    >>> with arb_precision(100):   # Mironov 2017: log(α/(2α-1) e^{(α-1)z} + (α-1)/(2α-1) e^{-αz})/(α-1), z = 1
    ...     r = _renyi_log_quadratic(Laplace(0, 1), Laplace(1, 1), mpmath.mpf("2.5"))
    ...     z, a = arb(1), arb(2.5)
    ...     print(abs(r - (a / (2*a - 1) * ((a - 1) * z).exp() + (a - 1) / (2*a - 1) * (-a * z).exp()).log() / (a - 1))
    ...           < 1e-28)
    True
    """
    edges = [None] + kinks(P, Q) + [None]
    prec = ctx.prec
    for extra in EXTRA_BITS:
        with arb_precision(prec + extra):
            a_ = arb(alpha)
            total = arb(0)
            for left, right in zip(edges, edges[1:]):
                inside = point_inside(left, right)
                p_part, q_part = P.arb_log_quadratic(inside), Q.arb_log_quadratic(inside)
                if p_part is None or q_part is None:
                    return None
                piece = _power_mean_piece(p_part, q_part, a_, left, right)
                if piece is None:
                    return None
                total += piece
            value = total.log() / (a_ - 1)
        if _settled(value, prec):
            break
    return value


def _power_mean_piece(p_part: tuple, q_part: tuple, order: arb, left, right) -> arb | None:
    """``∫_left^right p^α q^(1-α)`` where ``log p`` and ``log q`` are the quadratics ``p_part``, ``q_part`` (``(a, b,
    c)`` of ``a x² + b x + c``): the exponential of their combination, in closed form (:func:`exp_quadratic_piece`)."""
    exponent = tuple(order * u + (1 - order) * v for u, v in zip(p_part, q_part))
    return exp_quadratic_piece(*exponent, left, right)


def renyi_of_log_quadratics(p_part: tuple, q_part: tuple, order) -> arb | None:
    """``R_α(P‖Q)`` of two laws on ℝ whose log-densities are the quadratics ``p_part`` and ``q_part`` (``(a, b, c)``
    of ``a x² + b x + c``, balls: laws built in balls, :meth:`~symdp.engine.continuous.Declared.ball_log_quadratic`),
    at flint's precision: ``ln ∫ p^α q^(1-α) / (α - 1)``, the integral of the densities' product in closed form;
    ``+inf`` where it diverges, None where the balls leave the sign of its leading coefficient open.

    >>> from symdp.engine.continuous import Gaussian
    >>> with arb_precision(80):   # N(0, 1) against N(1, 1), α = 3: αΔ²/(2σ²) = 3/2
    ...     r = renyi_of_log_quadratics(Gaussian.ball_log_quadratic(arb(0), arb(1)),
    ...                                 Gaussian.ball_log_quadratic(arb(1), arb(1)), arb(3))
    ...     print(abs(r - arb(3) / 2) < 1e-20)
    True
    """
    order = arb(order)
    integral = _power_mean_piece(p_part, q_part, order, None, None)
    return None if integral is None else integral.log() / (order - 1)


def gaussian_renyi_ball(mean1: arb, sd1: arb, mean2: arb, sd2: arb, order) -> arb:
    """``R_α(N(mean1, sd1²)‖N(mean2, sd2²))`` for parameters that are Arb balls (a law computed in balls, as a chain's
    from its recursions, which no mpf could hold exactly), at flint's precision: each log-density from the Gaussian
    family's declaration at the balls (:meth:`~symdp.engine.continuous.Declared.ball_log_quadratic`), the product of
    the densities integrated in closed form (:func:`renyi_of_log_quadratics`); ``+inf`` where the integral diverges.
    A caller computes it under :func:`~symdp.estimate.sharp_ball` for an enclosure sharp relative to its size.

    >>> with arb_precision(80):   # αΔ²/(2σ²) with Δ = 1, σ² = 1/3: 9/2 at α = 3
    ...     sd = (arb(1) / 3).sqrt()
    ...     print(abs(gaussian_renyi_ball(arb(1), sd, arb(0), sd, 3) - arb(9) / 2) < 1e-20)
    True
    """
    from symdp.engine.continuous import Gaussian

    value = renyi_of_log_quadratics(Gaussian.ball_log_quadratic(mean1, sd1), Gaussian.ball_log_quadratic(mean2, sd2),
                                    order)
    if value is None:
        raise InvalidParameter("the balls of the two Gaussians leave the sign of the Rényi integral's exponent open")
    return value


EXTRA_BITS = (32, 128, 512, 2048, 8192)
"""Extra bits with which the closed-form Rényi integrals are recomputed until tight: their exponents grow like
``α² Δ²/σ²`` and cancel (laws 10^300 scales apart need thousands of bits; each attempt costs microseconds)."""


def _settled(value: arb, prec: int) -> bool:
    """Whether a closed-form result needs no more bits: tight to ``2^-(prec-4)`` relative, or an exact infinity (a
    divergent integral). A NaN or an unbounded ball (cancellation that ate every digit) is not settled."""
    if not value.is_finite():
        return value.is_exact() and not value.is_nan()
    return value.rad() <= arb(2) ** -(prec - 4) * abs(value).upper()


def point_inside(left, right):
    """A point strictly inside the piece ``(left, right)`` between consecutive kinks (``None``: infinite), exactly:
    a midpoint rounded to the working precision may fall on a kink when the kinks are far from 0 and close."""
    if left is None and right is None:
        return mpmath.mpf(0)
    if left is None:
        return mpmath.fsub(right, 1 + abs(right), exact=True)
    if right is None:
        return mpmath.fadd(left, 1 + abs(left), exact=True)
    return mpmath.ldexp(mpmath.fadd(left, right, exact=True), -1)


def exp_quadratic_piece(a: arb, b: arb, c: arb, left, right) -> arb | None:
    """``∫_left^right exp(a x² + b x + c) dx`` (None for an infinite end) in closed form: erfc differences taken on
    one side of the vertex (no cancellation) where ``a < 0``, exponentials where ``a = 0`` exactly; ``+inf`` where
    an infinite end makes it diverge; None where the sign of ``a`` (or of ``b``, for ``a = 0``) is not decided.

    >>> with arb_precision(80):   # ∫_0^∞ e^{-x²} = √π/2, ∫_0^1 e^{2x} = (e² - 1)/2
    ...     print(abs(exp_quadratic_piece(arb(-1), arb(0), arb(0), 0, None) - arb.pi().sqrt() / 2) < 1e-20,
    ...           abs(exp_quadratic_piece(arb(0), arb(2), arb(0), 0, 1) - (arb(2).exp() - 1) / 2) < 1e-20)
    True True
    """
    lo = None if left is None else arb(left)
    hi = None if right is None else arb(right)
    if a.is_zero():
        if b.is_zero():
            return arb("inf") if lo is None or hi is None else c.exp() * (hi - lo)
        if not (b > 0 or b < 0):
            return None
        if (lo is None and b < 0) or (hi is None and b > 0):
            return arb("inf")
        if lo is None:
            return (c + b * hi).exp() / b
        if hi is None:
            return (c + b * lo).exp() / -b
        return (c + b * lo).exp() * (b * (hi - lo)).expm1() / b
    if not a < 0:
        return None if not a > 0 or (lo is not None and hi is not None) else arb("inf")
    A = -a
    vertex = b / (2 * A)
    root = A.sqrt()
    u0 = None if lo is None else root * (lo - vertex)   # None: -inf
    u1 = None if hi is None else root * (hi - vertex)   # None: +inf
    scale = (c + b * vertex / 2).exp() * (arb.pi() / A).sqrt() / 2

    def erfc_or_zero(u):   # erfc(u) with u = +inf as None
        return arb(0) if u is None else arb_erfc(u)
    if u0 is not None and u0 >= 0:
        return scale * (arb_erfc(u0) - erfc_or_zero(u1))
    if u1 is not None and u1 <= 0:
        return scale * (arb_erfc(-u1) - erfc_or_zero(None if u0 is None else -u0))
    # The vertex inside (or undecided): erf(u1) - erf(u0) = 2 - erfc(u1) - erfc(-u0), both terms below 1.
    return scale * (2 - erfc_or_zero(u1) - erfc_or_zero(None if u0 is None else -u0))


def _log_multinomial(total: int, counts: tuple) -> arb:
    """``log(total! / Π kᵢ!)``: exactly from integers for small orders, from Arb's ``lgamma`` beyond (the factorials
    of an order of 10^6 alone take seconds).

    >>> print(_log_multinomial(4, (2, 2)).overlaps(arb(6).log()), _log_multinomial(10**6, (10**6,)))
    True 0
    """
    if max(counts) == total:
        return arb(0)
    if total <= 1000:
        return arb(math.factorial(total) // math.prod(math.factorial(k) for k in counts)).log()
    return arb(total + 1).lgamma() - sum((arb(k + 1).lgamma() for k in counts), arb(0))


def _compositions(total: int, parts: int) -> Iterator[tuple]:
    """Every ``(k_1, ..., k_parts)`` of non-negative integers summing to ``total``.

    >>> list(_compositions(2, 2))
    [(0, 2), (1, 1), (2, 0)]
    """
    if parts == 1:
        yield (total,)
        return
    for k in range(total + 1):
        for rest in _compositions(total - k, parts - 1):
            yield (k,) + rest


def _window_integral(P, Q, log_weight, on_piece, tail_bound) -> arb:
    """``∫ e^{log_weight} · factor`` over ℝ: Petras integration over a window around the peak of ``log_weight`` (a
    function of a real ball, for the search), split at the kinks, of ``f(z, shift) = e^{log_weight(z) - shift} ·
    factor(z)`` with ``f = on_piece(x)`` on the piece containing the real point ``x``, plus ``tail_bound(lo, hi)``
    for the rest. The window is widened (only the new strips are integrated) while the tail bound is above the
    working precision relative to the integral and still shrinks.

    The work is bounded by :data:`MAX_EVALUATIONS` integrand evaluations, counted, not timed, so that the result
    is the same on any machine: an integral that does not converge within them (an integrand whose ball
    enclosures are too wide on the complex discs Petras needs) gives an unbounded ball at once, which the
    dispatch then answers by another route."""
    prec = ctx.prec
    try:
        peak, top, lo, hi = _peak_window(P, Q, log_weight, (prec + 30) * math.log(2))
    except _NothingFound:
        return arb("nan")
    shift = arb(top)
    cuts = kinks(P, Q)
    margin = min_scale(P, Q)
    # exactly: a kink far from 0 plus a scale far below its last digit must not round back onto (or past) it
    lo = min([lo] + [mpmath.fsub(k, margin, exact=True) for k in cuts])
    hi = max([hi] + [mpmath.fadd(k, margin, exact=True) for k in cuts])
    tol = arb(2) ** -prec
    budget = _EvaluationBudget(MAX_EVALUATIONS)

    def integrate(a, b):
        if a >= b:
            return arb(0)
        integrand = on_piece(point_inside(a, b))

        def f(z, analytic):
            return integrand(z, shift)
        return budget.integral(f, a, b, rel_tol=tol, abs_tol=tol * arb(margin))

    def strip(a, b):
        edges = [a] + [x for x in sorted(set(cuts) | {peak}) if a < x < b] + [b]
        return sum((integrate(u, v) for u, v in zip(edges, edges[1:])), arb(0))

    body = strip(lo, hi)
    tails = tail_bound(lo, hi)
    for _ in range(8):
        if not body.is_finite():
            return arb("nan")   # widening does not help the body: give up now, nothing known
        scaled = body * shift.exp()
        if tails.is_finite() and tails.rad() <= arb(2) ** -(prec - 4) * abs(scaled).upper():
            break
        new_lo, new_hi = peak - 2 * (peak - lo), peak + 2 * (hi - peak)   # the envelopes are loose: look further
        wider = tail_bound(new_lo, new_hi)
        if tails.is_finite() and not wider.upper() < tails.upper() / 2:
            break   # the tail bound no longer shrinks: more window would only cost evaluations
        body += strip(new_lo, lo) + strip(hi, new_hi)
        lo, hi, tails = new_lo, new_hi, wider
    return body * shift.exp() + tails


MAX_EVALUATIONS = 20_000
"""Most integrand evaluations one KL or Rényi integration may spend (every piece and every widening together);
beyond it the result is an unbounded ball (at 50 digits, after about 0.4 s). The costliest integrals of a sweep of
Gaussian sums and Lap2 pairs (KL, α from 0.5 to 150.5, 30 to 100 digits) took under 3,000."""


class _EvaluationBudget:
    """``acb.integral`` calls sharing one budget of integrand evaluations, passed to Arb as each call's
    ``eval_limit``: a call that runs out returns a non-finite ball, and after it no call is made."""

    def __init__(self, evaluations: int):
        self.left = evaluations
        self.spent = 0

    def integral(self, f, a, b, **tolerances) -> arb:
        if self.left <= 0:
            return arb("nan")   # nothing known (never an exact infinity, which would read as a divergent integral)

        def counted(z, analytic):
            self.spent += 1
            return f(z, analytic)
        before = self.spent
        result = acb.integral(counted, arb(a), arb(b), eval_limit=self.left, **tolerances).real
        self.left -= self.spent - before
        return result


class _NothingFound(Exception):
    """The search found no finite value of the integrand: nothing is known of the integral."""


def _peak_window(P, Q, log_weight, drop) -> tuple:
    """``(x*, h(x*), lo, hi)``: the highest point of ``h = log_weight`` found on the partition (followed outward
    while still rising at its ends) and the window outside which ``h`` stays ``drop`` below it, at low
    precision (:data:`SEARCH_BITS` beyond the size of ``h`` itself: the exponent of laws 10^30 scales apart is
    about 10^30, and its variation near the peak must still show). Only decides where to integrate; the tail
    bounds certify what lies outside."""
    with arb_precision(SEARCH_BITS):
        size = log_weight(arb(P.center()))
    extra = int(mpmath.log(_mpf(size.abs_upper()), 2)) + 1 if size.is_finite() and size.abs_upper() > 1 else 0
    with arb_precision(SEARCH_BITS + extra), mpmath.workprec(max(mpmath.mp.prec, SEARCH_BITS + extra)):
        def h(x):   # an mpf, not a float: exponents of large orders far apart pass 10^308
            v = log_weight(arb(x))
            return _mpf(v.mid()) if v.is_finite() else -mpmath.inf
        points = _partition(P, Q, int(drop / math.log(2)))
        values = [h(x) for x in points]
        best = max(range(len(points)), key=lambda i: values[i])
        step = min_scale(P, Q)
        for direction, end in ((-1, 0), (1, len(points) - 1)):
            if best == end:   # still rising at the end of the partition: follow it outward
                rising, _, step = climb(h, points[end], values[end], direction, 2 * step)
                if direction < 0:
                    rising.reverse()
                    points[:0], values[:0] = [x for x, _ in rising], [v for _, v in rising]
                else:
                    points += [x for x, _ in rising]
                    values += [v for _, v in rising]
                best = max(range(len(points)), key=lambda i: values[i])
        top = values[best]
        if not mpmath.isfinite(top):
            raise _NothingFound()
        alive = [i for i, v in enumerate(values) if v >= top - drop]
        lo, hi = points[max(alive[0] - 1, 0)], points[min(alive[-1] + 1, len(points) - 1)]
        width = max(hi - lo, step)
        while h(lo) > top - drop:
            lo -= width
            width *= 2
        width = max(hi - lo, step)
        while h(hi) > top - drop:
            hi += width
            width *= 2
    return points[best], top, lo, hi


def _tail_integral(P, Q, alpha: arb, lo, hi) -> arb:
    """An upper bound of ``∫ p^α q^(1-α)`` over ``x < lo`` and ``x > hi`` from the tail envelopes (α > 0):

    * α > 1: ``p^α ≤ (Σᵢ e^{Uᵢ})^α ≤ n^(α-1) Σᵢ e^{α Uᵢ}`` (convexity) and ``q^(1-α) ≤ e^{(1-α) L_q}``;
    * α < 1: ``(Σᵢ aᵢ)^α ≤ Σᵢ aᵢ^α`` (subadditivity) for both laws' upper envelopes.
    """
    total = arb(0)
    for side, edge in ((-1, lo), (1, hi)):
        start = side * edge
        ups_p, low_p = P.arb_envelope(side, start)
        ups_q, low_q = Q.arb_envelope(side, start)
        if alpha > 1:
            factor = arb(len(ups_p)) ** (alpha - 1)
            pairs = [(u, low_q) for u in ups_p]
        else:
            factor = arb(1)
            pairs = [(u, v) for u in ups_p for v in ups_q]
        for u, v in pairs:
            A, B, C = (alpha * x + (1 - alpha) * y for x, y in zip(u, v))
            total += factor * _exp_quadratic_integral(A, B, C, arb(start))
    return total


def _tail_moment_bound(P, Q, lo, hi) -> arb:
    """An upper bound of ``∫ p |L|`` over ``x < lo`` and ``x > hi``: ``|L| ≤ c2 u² + c1 u + c0``
    (:func:`_loss_polynomial`) against P's upper envelopes, whose moments are in closed form
    (:func:`_exp_quadratic_moments`); ``+inf`` where a part is unknown (or a window end is on the wrong side of
    0, where the polynomial bound needs ``u ≥ 0``)."""
    total = arb(0)
    for side, edge in ((-1, lo), (1, hi)):
        u0 = side * arb(edge)
        polynomial = _loss_polynomial(P, Q, side, edge) if u0 >= 0 else None
        if polynomial is None:
            return _INF
        for A, B, C in P.arb_envelope(side, side * edge)[0]:
            moments = _exp_quadratic_moments(A, B, C, u0)
            total += sum((c * m for c, m in zip(reversed(polynomial), moments)), arb(0))
    return total


def _exp_quadratic_moments(A: arb, B: arb, C: arb, u0: arb) -> tuple:
    """``(I0, I1, I2)``, ``Iₖ = ∫_{u0}^∞ u^k exp(-A u² + B u + C) du``, in closed form: for ``A > 0`` from ``I0``
    (:func:`_exp_quadratic_integral`) by parts, ``I1 = (B I0 + E)/(2A)``, ``I2 = (B I1 + u0 E + I0)/(2A)`` with
    ``E = exp(-A u0² + B u0 + C)``; for ``A = 0``, ``B = -β < 0``, ``E (1/β, u0/β + 1/β², u0²/β + 2u0/β² + 2/β³)``.
    ``+inf`` each where not provably finite.

    >>> with arb_precision(80):   # ∫_0^∞ u^k e^{-u²}: √π/2, 1/2, √π/4
    ...     I = _exp_quadratic_moments(arb(1), arb(0), arb(0), arb(0))
    ...     print([m.overlaps(r) for m, r in zip(I, (arb.pi().sqrt() / 2, arb(1) / 2, arb.pi().sqrt() / 4))])
    [True, True, True]
    """
    edge = (-A * u0 * u0 + B * u0 + C).exp()
    if A > 0:
        first = _exp_quadratic_integral(A, B, C, u0)
        second = (B * first + edge) / (2 * A)
        return first, second, (B * second + u0 * edge + first) / (2 * A)
    if A.is_zero() and B < 0:
        beta = -B
        return edge / beta, edge * (u0 / beta + 1 / beta**2), edge * (u0 * u0 / beta + 2 * u0 / beta**2 + 2 / beta**3)
    return _INF, _INF, _INF


def _exp_quadratic_integral(A: arb, B: arb, C: arb, u0: arb) -> arb:
    """``∫_{u0}^∞ exp(-A u² + B u + C) du`` in closed form (erfc, exp); ``+inf`` unless provably finite.

    >>> with arb_precision(80):   # ∫_0^∞ e^{-u²} = √π/2
    ...     print(_exp_quadratic_integral(arb(1), arb(0), arb(0), arb(0)).contains(arb.pi().sqrt() / 2))
    True
    """
    if A > 0:
        centre = B / (2 * A)
        return (C + B * centre / 2).exp() * (arb.pi() / A).sqrt() / 2 * arb_erfc(A.sqrt() * (u0 - centre))
    if A.is_zero() and B < 0:
        return (B * u0 + C).exp() / (-B)
    return arb("inf")


__all__ = ["GUARD_BITS", "arb_precision", "centred_pair", "exp_quadratic_piece", "hockey_stick", "kl", "loss_mgf",
           "max_divergence", "point_inside", "renyi", "supported", "tv"]
