"""Certified expectations of functions of a privacy loss, and of a Gaussian variable, integrated from the densities.

:mod:`symdp.engine.certified` encloses the divergences of continuous pairs; this module encloses the other
expectations of Dwork & Rothblum's Sections 2–3 — ``E_P[g(L)]`` for the loss ``L = ln p(X) - ln q(X)``, ``X ~ P``,
of a Gaussian or Laplace pair (any locations and scales), ``E[g(X)]`` for ``X ~ N(0, σ²)`` known only through its
density, and ``E[g(L)]`` for the Laplace loss law of :class:`~symdp.engine.privacy_loss.LaplaceLossLaw` (two atoms
and a density) — never from a closed form of the expectation:

* the line is cut at the kinks of both densities; on every piece the log-weight ``E = ln p + t·ℓ`` (t a *tilt*,
  for ``g ~ e^{tℓ}``) and the loss ``ℓ`` are quadratics in x whose coefficients come from the laws
  (:meth:`~symdp.engine.continuous.ContinuousDistribution.arb_log_quadratic`), combined before a ball enters;
* each piece of a window is integrated by Arb's rigorous Petras integration (``acb.integral``) of ``e^{E - shift}
  g(ℓ)``; ``g`` is a function of a real or complex ball, analytic on the pieces;
* beyond the window, ``|g(v)| <= Σ c_j e^{θ_j v}`` (an *envelope* the caller states) bounds the tails by
  Gaussian or exponential integrals in closed form (:func:`symdp.engine.certified.exp_quadratic_piece`); the window
  widens until they are below the working precision relative to the body.

The result is computed at the working precision plus guard bits, and with more where it is not yet sharp relative
to itself (:func:`~symdp.estimate.sharp_ball`).

>>> import mpmath
>>> from symdp.engine.continuous import Gaussian
>>> with mpmath.workdps(30):   # E_P[L] = KL = Δ²/(2σ²) = 1/2; E_P[e^{-L}] = ∫ q = 1
...     mean = pair_expectation(Gaussian(0, 1), Gaussian(1, 1), lambda v: v, envelope=absolute_envelope())
...     one = pair_expectation(Gaussian(0, 1), Gaussian(1, 1), lambda v: 1, tilt=-1)
...     print(mean.certified, abs(mean.value - 0.5) <= mean.error < 1e-28, abs(one.value - 1) <= one.error < 1e-28)
True True True
"""

from __future__ import annotations

import math
from typing import Callable, Optional, Sequence

import mpmath
from flint import acb, arb, ctx

from symdp.engine.certified import GUARD_BITS, centred_pair, exp_quadratic_piece, point_inside
from symdp.engine.continuous import ContinuousDistribution, Gaussian
from symdp.engine.grids import kinks
from symdp.errors import InvalidParameter
from symdp.estimate import Estimate, Method, arb_precision, exact_ball, sharp_ball
from symdp.numeric import to_mpf

BOOST_BITS = 512
"""Most bits added to resolve an expectation relative to itself (:func:`~symdp.estimate.sharp_ball`)."""

MAX_EVALUATIONS = 40_000
"""Most integrand evaluations of one expectation (every piece and widening together): beyond, an unbounded ball."""

Quadratic = tuple
"""``(a, b, c)``, Arb balls, for ``a x² + b x + c``."""


def absolute_envelope(theta=mpmath.mpf(1) / 8) -> list:
    """The envelope of ``|v| <= (e^{θv} + e^{-θv})/(eθ)`` (``θ|v| <= e^{θ|v| - 1}``), for ``g(v) = v``.

    >>> [(float(c), float(t)) for c, t in absolute_envelope(1)]
    [(0.36787944117144233, 1.0), (0.36787944117144233, -1.0)]
    """
    c = 1 / (mpmath.e * theta)
    return [(c, theta), (c, -theta)]


# --- the primitive: ∫ e^{E(x)} g(ℓ(x)) dx over pieces of quadratics ---------------------------------------------
def _at(q: Quadratic, z):
    a, b, c = q
    return (a * z + b) * z + c


def _plus(q: Quadratic, r: Quadratic, k) -> Quadratic:
    """``q + k·r``."""
    return tuple(u + k * v for u, v in zip(q, r))


def _top(q: Quadratic, lo, hi):
    """An upper estimate (a search value, not an enclosure) of ``q`` on ``[lo, hi]`` (None: infinite)."""
    a, b, c = (float(x.mid()) for x in q)
    candidates = [x for x in (lo, hi) if x is not None]
    if a < 0:
        vertex = -b / (2 * a)
        if (lo is None or vertex > lo) and (hi is None or vertex < hi):
            candidates.append(mpmath.mpf(vertex))
    if (lo is None or hi is None) and not a < 0 and not (a == 0 and b * (1 if hi is None else -1) < 0):
        return math.inf   # grows towards an infinite end
    return max(float(_at(q, arb(x)).mid()) for x in candidates)


def _tails(pieces: Sequence, envelope: Sequence, lo, hi) -> arb:
    """``Σ c_j ∫ e^{E + θ_j ℓ}`` over ``x < lo`` and ``x > hi``: a bound of ``|∫ e^E g(ℓ)|`` there, for ``|g(v)| <=
    Σ c_j e^{θ_j v}``."""
    total = arb(0)
    for left, right, E, ell in pieces:
        parts = []
        if lo is not None and (left is None or left < lo):
            parts.append((left, lo if right is None else min(lo, right)))
        if hi is not None and (right is None or right > hi):
            parts.append((hi if left is None else max(hi, left), right))
        for u, v in parts:
            if u is not None and v is not None and u >= v:
                continue
            for c, theta in envelope:
                piece = exp_quadratic_piece(*_plus(E, ell, exact_ball(theta)), u, v)
                if piece is None or not piece.is_finite():
                    return arb("inf")
                total += exact_ball(c) * piece
    return total


class _Budget:
    def __init__(self):
        self.left = MAX_EVALUATIONS

    def integral(self, f, a, b, **tolerances) -> arb:
        if self.left <= 0:
            return arb("nan")
        spent = [0]

        def counted(z, analytic):
            spent[0] += 1
            return f(z, analytic)
        result = acb.integral(counted, arb(a), arb(b), eval_limit=self.left, **tolerances).real
        self.left -= spent[0]
        return result


def _integral(pieces: Sequence, g: Callable, envelope: Sequence, scale) -> arb:
    """``∫ e^{E(x)} g(ℓ(x)) dx`` over the union of ``pieces`` ``(left, right, E, ℓ)`` (consecutive; None: an infinite
    end), with tails bounded by ``envelope`` beyond a window of ``scale``-sized steps."""
    prec = ctx.prec
    drop = (prec + 30) * math.log(2)
    ends = [x for left, right, _, _ in pieces for x in (left, right) if x is not None]
    # The window: every finite end, and where the log-weight of an envelope term falls ``drop`` below its top.
    lo = hi = None
    if pieces[0][0] is None or pieces[-1][1] is None:
        exponents = [(left, right, _plus(E, ell, exact_ball(theta))) for left, right, E, ell in pieces
                     for _, theta in envelope]
        top = max(_top(q, left, right) for left, right, q in exponents)
        if not math.isfinite(top):
            return arb("nan")   # an envelope term that is not integrable: nothing is known
        centre = sum(ends) / len(ends) if ends else mpmath.mpf(0)
        lo, hi = (min(ends + [centre - scale]), max(ends + [centre + scale]))
        for side in (-1, 1):
            step = scale
            while True:
                edge = lo if side < 0 else hi
                q = exponents[0][2] if side < 0 else exponents[-1][2]
                if float(_at(q, arb(edge)).mid()) < top - drop and _slope_out(q, edge, side):
                    break
                edge += side * step
                step *= 2
                if side < 0:
                    lo = edge
                else:
                    hi = edge
                if step > 2**60 * scale:
                    return arb("nan")
    shift = arb(max(_top(E, left if left is not None else lo, right if right is not None else hi)
                    for left, right, E, _ in pieces))
    tol = arb(2) ** -prec
    budget = _Budget()

    def strip(a, b):
        total = arb(0)
        for left, right, E, ell in pieces:
            u = a if left is None else max(a, left)
            v = b if right is None else min(b, right)
            if u >= v:
                continue

            def f(z, analytic, E=E, ell=ell):
                return (_at(E, z) - shift).exp() * g(_at(ell, z))
            # the ends exactly: a rounded u + (v - u) would leave a sliver between two strips unintegrated
            cuts = [u] + ([u + (v - u) * j / 8 for j in range(1, 8)] if v - u > 8 * scale else []) + [v]
            for x, y in zip(cuts, cuts[1:]):
                total += budget.integral(f, x, y, rel_tol=tol, abs_tol=tol * exact_ball(scale))
        return total

    first = pieces[0][0] if pieces[0][0] is not None else lo
    last = pieces[-1][1] if pieces[-1][1] is not None else hi
    body = strip(first, last)
    if lo is None and hi is None:
        return body * shift.exp()
    tails = _tails(pieces, envelope, lo if pieces[0][0] is None else None, hi if pieces[-1][1] is None else None)
    for _ in range(6):
        if not body.is_finite():
            return arb("nan")
        if tails.is_finite() and tails.upper() <= arb(2) ** -(prec + 4) * body.abs_upper():
            break
        width = hi - lo
        new_lo = lo - width if pieces[0][0] is None else lo
        new_hi = hi + width if pieces[-1][1] is None else hi
        body += (strip(new_lo, lo) if new_lo < lo else 0) + (strip(hi, new_hi) if new_hi > hi else 0)
        lo, hi = new_lo, new_hi
        tails = _tails(pieces, envelope, lo if pieces[0][0] is None else None, hi if pieces[-1][1] is None else None)
    return (body + arb(0, tails.upper())) * shift.exp() if tails.is_finite() else arb("nan")


def _slope_out(q: Quadratic, edge, side: int) -> bool:
    """Whether ``q`` decreases outward from ``edge`` on the side ``side`` (so that it stays below its value there)."""
    a, b, _ = (float(x.mid()) for x in q)
    return side * (2 * a * float(edge) + b) < 0 and a <= 0


def _estimate(compute: Callable) -> Estimate:
    ball = sharp_ball(compute, GUARD_BITS, BOOST_BITS)
    return Estimate.from_arb(ball, Method.CERTIFIED)


# --- the expectations --------------------------------------------------------------------------------------------
def _pair_pieces(P, Q, tilt) -> list:
    """Pieces ``(left, right, ln p + t·ℓ, ℓ)`` between the kinks of both laws; None where a log-density is not a
    quadratic on a piece."""
    edges = [None] + kinks(P, Q) + [None]
    t = exact_ball(tilt)
    pieces = []
    for left, right in zip(edges, edges[1:]):
        inside = point_inside(left, right)
        log_p, log_q = P.arb_log_quadratic(inside), Q.arb_log_quadratic(inside)
        if log_p is None or log_q is None:
            return None
        ell = tuple(u - v for u, v in zip(log_p, log_q))
        if type(P) is type(Q) and P.scale() == Q.scale():   # one family, one scale: the x² terms cancel exactly
            ell = (arb(0),) + ell[1:]
        pieces.append((left, right, _plus(log_p, ell, t), ell))
    return pieces


def loss_mean(P: ContinuousDistribution, Q: ContinuousDistribution) -> Estimate:
    """``E_P[L] = ∫ p (ln p - ln q)``, Definition 2.1's KL divergence, by :func:`pair_expectation` with the envelope
    ``|v| <= (e^{θv} + e^{-θv})/(eθ)`` of the largest θ in 1/8, 1/64, ... whose tails are integrable (``p^{1+θ}
    q^{-θ}`` is not, for a Q narrower than P, beyond ``θ = σ_Q²/(σ_P² - σ_Q²)``).

    >>> with mpmath.workdps(30):   # KL of N(0, 1) to N(1, 2): ln 2 + (1 + 1)/8 - 1/2
    ...     k = loss_mean(Gaussian(0, 1), Gaussian(1, 2))
    >>> with mpmath.workdps(40):
    ...     print(k.certified, abs(k.value - (mpmath.log(2) - mpmath.mpf(1) / 4)) <= k.error < 1e-28)
    True True
    """
    P, Q = centred_pair(P, Q)
    for theta in (mpmath.mpf(1) / 8, mpmath.mpf(1) / 64, mpmath.mpf(1) / 512, mpmath.mpf(1) / 4096):
        envelope = absolute_envelope(theta)
        with arb_precision(64):
            pieces = _pair_pieces(P, Q, 0)
            if pieces is None:
                break
            ends = [pieces[0], pieces[-1]]
            if all(math.isfinite(_top(_plus(E, ell, exact_ball(t)), left, right))
                   for left, right, E, ell in ends for _, t in envelope):
                return pair_expectation(P, Q, lambda v: v, envelope=envelope)
    raise InvalidParameter("the loss has no integrable exponential envelope on the tails of P")


def pair_expectation(P: ContinuousDistribution, Q: ContinuousDistribution, g: Callable, tilt=0,
                     envelope: Optional[Sequence] = None) -> Estimate:
    """``E_P[e^{tL} g(L)]`` with ``L = ln p(X) - ln q(X)``, ``X ~ P``, certified, for laws whose log-densities are
    quadratics between their kinks (Gaussian, Laplace; any locations and scales). ``g`` takes a real or complex
    ball and is analytic; ``envelope`` is ``[(c, θ), ...]`` with ``|g(v)| <= Σ c e^{θv}`` for every real v
    (default ``[(1, 0)]``, for ``|g| <= 1``), which bounds the tails.

    >>> from symdp.engine.continuous import Laplace
    >>> with mpmath.workdps(30):   # Laplace pair: E_P[L] = KL = a + e^{-a} - 1 at a = 1.5
    ...     m = pair_expectation(Laplace(0, 1), Laplace(1.5, 1), lambda v: v, envelope=absolute_envelope())
    ...     print(abs(m.value - (mpmath.mpf(1.5) + mpmath.exp(-1.5) - 1)) <= m.error < 1e-28)
    True
    """
    tilt = to_mpf(tilt, "tilt")
    envelope = [(1, 0)] if envelope is None else list(envelope)
    P, Q = centred_pair(P, Q)
    if _pair_pieces(P, Q, tilt) is None:
        raise InvalidParameter(f"no piecewise-quadratic log-densities for {type(P).__name__} and {type(Q).__name__}")
    scale = min(P.scale(), Q.scale())
    return _estimate(lambda: _integral(_pair_pieces(P, Q, tilt), g, envelope, scale))


def gaussian_expectation(sd, g: Callable, tilt=0, envelope: Optional[Sequence] = None) -> Estimate:
    """``E[e^{tX} g(X)]`` for ``X ~ N(0, σ²)``, from its density (no closed form of the expectation): as
    :func:`pair_expectation`, with ``ℓ(x) = x``.

    >>> with mpmath.workdps(30):   # E[X²] = σ², E[e^{2X}] = e^{2σ²} at σ = 1/2
    ...     v = gaussian_expectation(0.5, lambda x: x * x, envelope=[(2 / mpmath.e, 1), (2 / mpmath.e, -1)])
    ...     m = gaussian_expectation(0.5, lambda x: 1, tilt=2)
    ...     print(abs(v.value - 0.25) <= v.error < 1e-28, abs(m.value - mpmath.exp(0.5)) <= m.error < 1e-28)
    True True
    """
    s, tilt = to_mpf(sd, "sd"), to_mpf(tilt, "tilt")
    envelope = [(1, 0)] if envelope is None else list(envelope)
    law = Gaussian(0, s)

    def compute():
        log_p = law.arb_log_quadratic(mpmath.mpf(0))
        ell = (arb(0), arb(1), arb(0))
        return _integral([(None, None, _plus(log_p, ell, exact_ball(tilt)), ell)], g, envelope, s)
    return _estimate(compute)


def laplace_loss_expectation(a, g: Callable, centred: bool = False) -> Estimate:
    """``E[g(L)]`` (``centred``: ``E[g(L - E[L])]``, the mean enclosed by the same integration) for the Laplace loss
    law with parameter ``a`` (an exact number, or a function giving a ball at flint's precision): its atoms ``1/2``
    at ``a`` and ``e^{-a}/2`` at ``-a``, plus ``∫_{-a}^{a} g(ℓ) e^{(ℓ-a)/2}/4 dℓ`` by Petras integration. ``g``
    takes a real or complex ball and is analytic on the interval.

    >>> with mpmath.workdps(30):   # E[e^{-L}] = 1 (proofs LAPLACE_NORMALISATION), E[L] = a + e^{-a} - 1
    ...     one = laplace_loss_expectation(2, lambda v: (-v).exp())
    ...     mean = laplace_loss_expectation(2, lambda v: v)
    ...     zero = laplace_loss_expectation(2, lambda v: v, centred=True)
    >>> with mpmath.workdps(50):
    ...     print(abs(one.value - 1) <= one.error < 1e-28, abs(mean.value - 1 - mpmath.exp(-2)) <= mean.error < 1e-28)
    ...     print(abs(zero.value) <= zero.error < 1e-28)
    True True
    True
    """
    if not callable(a) and not isinstance(a, arb):
        a = to_mpf(a, "a")   # a float as its decimal, as the laws read it

    def compute():
        A = a() if callable(a) else exact_ball(a)
        if centred:
            m = laplace_loss_ball(A, lambda v: v)
            return laplace_loss_ball(A, lambda v: g(v - m))
        return laplace_loss_ball(A, g)
    return _estimate(compute)


def laplace_loss_ball(A: arb, g: Callable) -> arb:
    """``E[g(L)]`` for the Laplace loss law of the ball ``A``, at flint's precision."""
    atoms = g(A) / 2 + (-A).exp() * g(-A) / 2
    if A.is_zero():
        return atoms
    tol = arb(2) ** -ctx.prec
    half = arb(1) / 2

    def f(u, analytic):   # ℓ = a·u on u in (-1, 1): exact ends, whatever the ball a
        z = A * u
        return A * ((z - A) * half).exp() * g(z) / 4
    # pieces over which e^{(ℓ - a)/2} and the tilts of g change by a few e-folds
    pieces = max(1, min(64, int(2 * float(A.mid()) / 8) + 1))
    edges = [mpmath.mpf(2 * j) / pieces - 1 for j in range(pieces + 1)]
    inner = sum((acb.integral(f, arb(u), arb(v), rel_tol=tol, abs_tol=tol, eval_limit=MAX_EVALUATIONS).real
                 for u, v in zip(edges, edges[1:])), arb(0))
    return atoms + inner


__all__ = ["absolute_envelope", "gaussian_expectation", "laplace_loss_ball", "laplace_loss_expectation", "loss_mean",
           "pair_expectation"]
