"""Certified Rényi divergences (and KL) of the laws the accountant knows: mixtures of Gaussians of one standard
deviation (:mod:`symdp.engine.gaussian_sums`) and symmetrised pairs (:mod:`symdp.engine.symmetrised`).

Both kinds of law are built from Gaussian sums of one standard deviation s: p = Σᵢ wᵢ N(mᵢ, s²), q = Σⱼ vⱼ N(nⱼ, s²)
(:meth:`arb_gaussian_sum`, as Arb balls). Every quantity here is an integral of p^α q^(1−α) (α > 1) or of p log(p/q)
over the line or a half-line:

* **Gaussian sums** (:func:`renyi` of two :class:`~symdp.engine.gaussian_sums.GaussianSum`, both orientations):
  R_α(P‖Q) = log ∫ p^α q^(1−α) / (α − 1). An integer order of a sum against one Gaussian is a finite multinomial
  sum of Gaussian integrals (:func:`symdp.engine.certified._renyi_gaussian_sum`, for the two-component mixture the
  binomial sum of Mironov, Talwar & Zhang 2019); every other order, and one Gaussian against a sum, is integrated.
* **The symmetrised pair** (P̃, Q̃) of (P, Q), with L = log(dP/dQ) and A = {L > 0}: P̃ is p|_A on one copy of the
  line, q|_A on a second and an atom c = 1 − P(A) − Q(A); Q̃ the same with p and q exchanged. So
  ∫ p̃^α q̃^(1−α) = ∫_A p^α q^(1−α) + ∫_A q^α p^(1−α) + c (both laws give the atom c), and
  KL(P̃‖Q̃) = ∫_A p L + ∫_A q (−L) = ∫_A (p − q) L. Where one of P, Q is a single Gaussian and the other's means all
  lie on one side of its mean (DP-SGD on fixed batches: P = (1 − γ) N(0, s²) + γ N(2, s²), Q = N(0, s²)), L is
  monotone, A is a half-line, and its end is the certified root of a sum of exponentials
  (:func:`symdp.engine.accounting._root_of_sum`); P(A) and Q(A) are sums of erfc at that ball.

**Integration** (:func:`_window_integral`): Arb's rigorous Petras integration (``acb.integral``) over a window, the
integrand written by :class:`symdp.engine.certified._GaussianSumLogs` (the common quadratic of the two sums
combined before the complex ball enters, the logarithms checked against their branch cut), plus rigorous bounds of
the tails beyond it. A half-line whose end r is a ball is integrated from the ball's midpoint x₀, and the strip
between r and x₀ is enclosed by the mean-value theorem: ∫_r^{x₀} f ∈ (x₀ − r̂) · f(r̂), r̂ the ball.

**Tails** (:func:`_renyi_tails`, :func:`_kl_tails`), both in closed form with erfc:

* Rényi, α > 1: by convexity of t ↦ t^α (Jensen, weights wᵢ/W, W = Σ wᵢ), p^α ≤ W^(α−1) Σᵢ wᵢ φᵢ^α, φᵢ the
  component densities; and q ≥ vⱼ ψⱼ for every term j, so q^(1−α) ≤ (vⱼ ψⱼ)^(1−α) (1 − α < 0). Each
  φᵢ^α ψⱼ^(1−α) is e^{α(α−1)(mᵢ−nⱼ)²/(2s²)} times the density of N(α mᵢ + (1−α) nⱼ, s²) (equal scales: the
  quadratics cancel to one Gaussian), so the integrand is below a sum of Gaussians, for each j: the least of these
  bounds is taken on each tail. The integrand is positive: each tail lies in [0, bound]. None is infinite: with one
  standard deviation every order's integral converges.
* KL: L = LSEᵢ λᵢ − LSEⱼ μⱼ with λᵢ, μⱼ affine (the common quadratic cancels), and max λ ≤ LSE λ ≤ max λ + log n,
  so |L| ≤ c₁|x| + c₀; on a tail u = ±x ≥ u₀, |x| ≤ u + 2 max(0, −u₀), and ∫ p |L| is a sum of Gaussian moments
  (:func:`symdp.engine.certified._exp_quadratic_moments`). The tail of ∫ p L lies in [−bound, bound]; that of
  ∫_A (p − q) L, whose integrand is positive on A, in [0, bound] (0 ≤ 1 − e^{−L} ≤ 1 there).

The window covers the centres α mᵢ + (1 − α) nⱼ of those Gaussians (the means, for KL) and reaches far enough that
the tail bound is below the working precision relative to the integral (widened, strips only, until it is). The
search for its peak only decides where to integrate. Results are computed at ``mpmath.mp.prec`` +
:data:`~symdp.engine.certified.GUARD_BITS`, more while not sharp relative to their size
(:func:`~symdp.estimate.sharp_ball`), rounded outward and intersected with [0, ∞]. Identical laws (a side of a
symmetrised pair against itself, say) give an exact 0.

Not computed (an :class:`~symdp.errors.InvalidParameter` that says so): α = ∞ (the max divergence), sums of
different standard deviations, and symmetrised pairs of two mixtures (their loss need not be monotone). A symmetrised
pair with c < 0 is not a pair of laws (the subsampled Gaussian's add orientation, the mixture as Q, is one) and is
refused as the accountant refuses it (:class:`~symdp.errors.InvalidDistribution`).

>>> import mpmath
>>> from symdp.engine.gaussian_sums import GaussianSum
>>> with mpmath.workdps(30):   # Gaussians of one sd: α Δ²/(2σ²) = 2.5 · 4/2 = 5
...     r = renyi(GaussianSum((1,), (2,), 1), GaussianSum((1,), (0,), 1), 2.5)
>>> abs(r.value - 5) <= r.error < 1e-28, r.certified
(True, True)
"""

from __future__ import annotations

import mpmath
from flint import acb, arb, ctx

from symdp.engine.accounting import _nonnegative, _root_of_sum
from symdp.engine.certified import (BOOST_BITS, GUARD_BITS, MAX_EVALUATIONS, _EvaluationBudget, _exp_quadratic_moments,
                                    _GaussianSumLogs, _mpf, _renyi_gaussian_sum)
from symdp.engine.domains import within_domain
from symdp.engine.gaussian_sums import GaussianSum
from symdp.engine.symmetrised import SymmetrisedLaw, check_atom
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, exact_ball, mpf_of, sharp_ball
from symdp.numeric import arb_erfc, to_mpf

AUTO = "auto"


# --- public API ---------------------------------------------------------------------------------------------------


def renyi(P, Q, alpha, method=AUTO) -> Estimate:
    """R_α(P‖Q) for 1 < α < ∞, certified, of two :class:`~symdp.engine.gaussian_sums.GaussianSum` of one standard
    deviation or of the two sides of a symmetrised pair (:class:`~symdp.engine.symmetrised.SymmetrisedLaw`) of
    Gaussian sums (the module's note). ``method`` is the engine's (``auto`` or ``certified``: there is one route).

    >>> from symdp.engine.continuous import Gaussian
    >>> from symdp.engine.symmetrised import symmetrised
    >>> with mpmath.workdps(30):   # symmetrised N(1, 1), N(0, 1): c = 0 and the pieces add to e^{α(α−1)/2}: α/2
    ...     r = renyi(*symmetrised(Gaussian(1, 1), Gaussian(0, 1)), 3.5)
    >>> abs(r.value - 1.75) <= r.error < 1e-28
    True
    >>> renyi(GaussianSum((1,), (1,), 1), GaussianSum((1,), (0,), 1), 1)
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: the Rényi order alpha of these laws must be a finite number > 1, got 1.0
    """
    _check_method(method)
    a = to_mpf(alpha, "Rényi order alpha")
    if not (mpmath.isfinite(a) and a > 1):
        raise InvalidParameter(f"the Rényi order alpha of these laws must be a finite number > 1, got "
                               f"{mpmath.nstr(a, 10)}")
    if isinstance(P, SymmetrisedLaw) and isinstance(Q, SymmetrisedLaw):
        if not _distinct(P, Q):
            return _run(lambda: arb(0))
        return _run(lambda: _symmetrised_renyi(*_symmetrised_parts(P), a))   # built at each attempt's precision
    if _same_law(*_gaussian_sum_pair(P, Q)) or P == Q:
        return _run(lambda: arb(0))
    return _run(lambda: _sum_renyi(P, Q, a))


def kl(P, Q, method=AUTO) -> Estimate:
    """KL(P‖Q), certified, of the pairs :func:`renyi` takes: ∫ p log(p/q) of Gaussian sums, ∫_A (p − q) L of a
    symmetrised pair (the α → 1 limit of its Rényi integral).

    >>> from symdp.engine.continuous import Gaussian
    >>> from symdp.engine.symmetrised import symmetrised
    >>> with mpmath.workdps(30):   # KL of Gaussians of one sd, Δ²/(2σ²) = 1/8 (the symmetrised pair's is the same)
    ...     k = kl(GaussianSum((1,), (0,), 2), GaussianSum((1,), (1,), 2))
    ...     s = kl(*symmetrised(Gaussian(1, 2), Gaussian(0, 2)))
    >>> abs(k.value - 0.125) <= k.error < 1e-28, abs(s.value - 0.125) <= s.error < 1e-28
    (True, True)
    """
    _check_method(method)
    if isinstance(P, SymmetrisedLaw) and isinstance(Q, SymmetrisedLaw):
        if not _distinct(P, Q):
            return _run(lambda: arb(0), "kl")
        return _run(lambda: _symmetrised_kl(*_symmetrised_parts(P)), "kl")
    if _same_law(*_gaussian_sum_pair(P, Q)) or P == Q:
        return _run(lambda: arb(0), "kl")
    return _run(lambda: _sum_kl(P, Q), "kl")


def _check_method(method) -> None:
    if str(method) not in (AUTO, "certified"):
        raise InvalidParameter(f"these laws' divergences are computed certified only, not by {str(method)!r}")


def _run(compute, kind: str = "renyi") -> Estimate:
    """``compute()`` as a certified Estimate in the divergence's domain, sharp relative to its size (as
    :func:`symdp.engine.certified._run`)."""
    ball = sharp_ball(compute, GUARD_BITS, BOOST_BITS)
    return within_domain(Estimate.from_arb(ball, "certified"), kind)


# --- the laws as Gaussian sums ------------------------------------------------------------------------------------


def _terms(D) -> list:
    """``[(log w, mean, sd)]`` of a law that is a Gaussian sum, at flint's precision."""
    terms = D.arb_gaussian_sum() if hasattr(D, "arb_gaussian_sum") else None
    if terms is None:
        raise InvalidParameter(f"the Rényi divergence of a {type(D).__name__} is not computed here: only Gaussian "
                               "sums (Gaussians, their mixtures, mixtures of Gaussians) of one standard deviation")
    return terms


def _sd(*sums) -> arb:
    """The standard deviation every term of ``sums`` shares, or an error: the envelopes need one."""
    s = sums[0][0][2]
    if not all(t[2] == s for terms in sums for t in terms):
        raise InvalidParameter("the Rényi divergence of Gaussian sums with different standard deviations is not "
                               "computed (the envelopes of its tails need one)")
    return s


def _gaussian_sum_pair(P, Q) -> tuple:
    if not (isinstance(P, GaussianSum) and isinstance(Q, GaussianSum)):
        raise InvalidDistribution(f"cannot compare a {type(P).__name__} with a {type(Q).__name__} here")
    P_terms, Q_terms = _terms(P), _terms(Q)
    _sd(P_terms, Q_terms)
    return P_terms, Q_terms


def _same_law(top: list, bottom: list) -> bool:
    """Whether two normalised sums are provably one law: every mean the same point."""
    means = [m for _, m, _ in top + bottom]
    return all(m.is_exact() and m == means[0] for m in means)


def _centred(terms: list, origin: arb) -> list:
    """The terms moved by ``-origin`` (every divergence is invariant under translating both laws): the window's
    arithmetic then happens near 0."""
    return [(lw, m - origin, s) for lw, m, s in terms]


# --- mixtures of Gaussians: over the whole line ------------------------------------------------------------------


def _sum_renyi(P, Q, alpha) -> arb:
    """R_α of two Gaussian sums: the multinomial closed form where it applies, else integrated."""
    exact = _renyi_gaussian_sum(P, Q, alpha)
    if exact is not None:
        return exact
    top, bottom = _terms(P), _terms(Q)
    origin = bottom[0][1]
    a = arb(alpha)
    integral = _renyi_integral(_centred(top, origin), _centred(bottom, origin), a, None)
    return integral.log() / (a - 1)


def _sum_kl(P, Q) -> arb:
    top, bottom = _terms(P), _terms(Q)
    origin = bottom[0][1]
    return _kl_integral(_centred(top, origin), _centred(bottom, origin), None, symmetrised=False)


# --- the symmetrised pair: half-lines through the root of L ------------------------------------------------------


def _distinct(P: SymmetrisedLaw, Q: SymmetrisedLaw) -> bool:
    """Whether P and Q are the two different sides of one symmetrised pair whose divergences are computed here
    (False: they are one law, R and KL exactly 0), or an error naming why not."""
    if (P.P, P.Q) != (Q.P, Q.Q):
        raise InvalidDistribution("these symmetrised laws are not the two sides of one symmetrised pair")
    if P.mirrored == Q.mirrored or P.P == P.Q:
        return False
    p_terms, q_terms = _terms(P.P), _terms(P.Q)
    _sd(p_terms, q_terms)
    if _same_law(p_terms, q_terms):
        return False    # L = 0: both laws are the atom
    if len(p_terms) > 1 and len(q_terms) > 1:
        raise InvalidParameter("the Rényi divergence of a symmetrised pair is computed where one of its laws is a "
                               "single Gaussian (its loss is then monotone); both are mixtures here")
    return True


def _symmetrised_parts(P: SymmetrisedLaw) -> tuple:
    """``(p terms, q terms, region)`` of the pair under P, centred on its single Gaussian, with A = {L > 0} as
    ``region`` (:func:`_positive_loss`), at flint's precision. Either side of the pair gives them: P̃ and Q̃ are
    mirror images, so R_α(P̃‖Q̃) = R_α(Q̃‖P̃) and the KL likewise."""
    p_terms, q_terms = _terms(P.P), _terms(P.Q)
    origin = (q_terms if len(q_terms) == 1 else p_terms)[0][1]
    p_terms, q_terms = _centred(p_terms, origin), _centred(q_terms, origin)
    return p_terms, q_terms, _positive_loss(p_terms, q_terms)


def _positive_loss(p_terms: list, q_terms: list) -> tuple:
    """A = {L > 0} as ``(side, r)``, the half-line {side · (x − r) > 0}, ``r`` a ball proved to hold its end.

    With the single Gaussian at 0 and every mean of the other sum on one side of it (sign σ), u = σx makes
    L = ±log Σᵢ wᵢ e^{|mᵢ| u/s² − mᵢ²/(2s²)} (+ when the sum is P), convex and increasing in u: its zero u* is
    :func:`symdp.engine.accounting._root_of_sum`'s, and A is {u > u*} (sum P) or {u < u*} (sum Q).

    >>> from symdp.engine.continuous import Gaussian, Mixture
    >>> side, r = _positive_loss(Mixture(0.25, Gaussian(0, 1), Gaussian(2, 1)).arb_gaussian_sum(),
    ...                          Gaussian(0, 1).arb_gaussian_sum())
    >>> side, r.contains(1)    # (1 − γ) + γ e^{2x − 2} = 1 at x = 1, the midpoint of the means
    (1, True)
    """
    sum_is_p = len(q_terms) == 1
    terms = p_terms if sum_is_p else q_terms
    means = [m for _, m, _ in terms]
    if all(m >= 0 for m in means):
        sign = 1
    elif all(m <= 0 for m in means):
        sign = -1
    else:
        raise InvalidParameter("the Rényi divergence of a symmetrised pair is computed where the mixture's means lie "
                               "on one side of the single Gaussian's (its loss is then monotone)")
    variance = terms[0][2] ** 2
    root = _root_of_sum(arb(0), [abs(m) / variance for m in means],
                        [lw - m * m / (2 * variance) for lw, m, _ in terms])
    # A = {u > u*} for a sum P, {u < u*} for a sum Q; x = sign · u
    side = sign if sum_is_p else -sign
    return side, sign * root


def _mass(terms: list, region: tuple) -> arb:
    """The mass of the half-line ``region`` under a Gaussian sum: Σ wᵢ erfc(side (r − mᵢ)/(s√2))/2."""
    side, r = region
    return sum((lw.exp() * arb_erfc(side * (r - m) / (s * arb(2).sqrt())) / 2 for lw, m, s in terms), arb(0))


def _atom(p_terms: list, q_terms: list, region: tuple) -> arb:
    """c = 1 − P(A) − Q(A) ≥ 0, checked as the accountant checks it (:func:`symdp.engine.symmetrised.check_atom`)."""
    c = 1 - _mass(p_terms, region) - _mass(q_terms, region)
    check_atom(c)
    return _nonnegative(c)


def _symmetrised_renyi(p_terms: list, q_terms: list, region: tuple, alpha) -> arb:
    """log(∫_A p^α q^(1−α) + ∫_A q^α p^(1−α) + c)/(α − 1): three positive terms, no cancellation."""
    a = arb(alpha)
    total = (_renyi_integral(p_terms, q_terms, a, region) + _renyi_integral(q_terms, p_terms, a, region)
             + _atom(p_terms, q_terms, region))
    return total.log() / (a - 1)


def _symmetrised_kl(p_terms: list, q_terms: list, region: tuple) -> arb:
    return _kl_integral(p_terms, q_terms, region, symmetrised=True)


# --- the integrals: a window and its tails ----------------------------------------------------------------------


def _renyi_integral(top: list, bottom: list, a: arb, region) -> arb:
    """∫ t^α b^(1−α) over the line (``region`` None) or the half-line ``region``, t and b the Gaussian sums
    ``top`` and ``bottom`` of one sd, α > 1."""
    s = _sd(top, bottom)
    exponent = _GaussianSumLogs(top, bottom).renyi_exponent(a)

    def integrand(z, shift):
        return (exponent(z) - shift).exp()

    centres = [a * m + (1 - a) * n for _, m, _ in top for _, n, _ in bottom]
    return _window_integral(exponent, integrand, centres, s, region,
                            lambda lo, hi: arb(0).union(_renyi_tails(top, bottom, a, lo, hi)))


def _renyi_tails(top: list, bottom: list, a: arb, lo, hi) -> arb:
    """An upper bound of ∫ t^α b^(1−α) over x < ``lo`` and x > ``hi`` (None: no such tail), the module's note:
    min over j of W^(α−1) (vⱼ)^(1−α) Σᵢ wᵢ e^{α(α−1)(mᵢ−nⱼ)²/(2s²)} Φ-tail of N(α mᵢ + (1−α) nⱼ, s²).

    >>> from symdp.estimate import arb_precision
    >>> with arb_precision(80):   # one Gaussian against itself: t^α b^(1−α) = φ, tails 2 Φ(−3) = erfc(3/√2)
    ...     bound = _renyi_tails([(arb(0), arb(0), arb(1))], [(arb(0), arb(0), arb(1))], arb(2.5), -3, 3)
    ...     print(bound.overlaps((3 / arb(2).sqrt()).erfc()))
    True
    """
    total_weight = sum((lw.exp() for lw, _, _ in top), arb(0))
    scale = total_weight ** (a - 1)
    root_two_s = top[0][2] * arb(2).sqrt()
    total = arb(0)
    for side, edge in ((-1, lo), (1, hi)):
        if edge is None:
            continue
        e = exact_ball(edge)
        best = None
        for lv, n, s in bottom:
            bound = scale * ((1 - a) * lv).exp() * sum(
                ((lw + a * (a - 1) * (m - n) ** 2 / (2 * s * s)).exp()
                 * arb_erfc(side * (e - (a * m + (1 - a) * n)) / root_two_s) / 2 for lw, m, _ in top), arb(0))
            if best is None or bound.upper() < best.upper():
                best = bound
        total += best
    return total


def _kl_integral(top: list, bottom: list, region, symmetrised: bool) -> arb:
    """∫ t log(t/b) over the line, or (``symmetrised``) ∫_A (t − b) log(t/b) over A = ``region``."""
    s = _sd(top, bottom)
    logs = _GaussianSumLogs(top, bottom)

    def integrand(z, shift):
        L = logs.log_ratio(z)
        value = (logs.log_p(z) - shift).exp() * L
        return value * -(-L).expm1() if symmetrised else value

    def tails(lo, hi):
        bound = _kl_tails(top, bottom, lo, hi)
        return (arb(0) if symmetrised else -bound).union(bound)

    return _window_integral(logs.log_p, integrand, [m for _, m, _ in top], s, region, tails)


def _kl_tails(top: list, bottom: list, lo, hi) -> arb:
    """An upper bound of ∫ t |L| over x < ``lo`` and x > ``hi``: |L| ≤ c₁|x| + c₀ (module's note) against each of
    t's Gaussian terms, whose first two moments on a half-line are in closed form.

    >>> from symdp.estimate import arb_precision
    >>> with arb_precision(80):   # N(0, 1) ‖ N(1, 1): |L| = |x − 1/2| ≤ |x| + 1/2 (c₀ = 1/2 exactly here)
    ...     bound = _kl_tails([(arb(0), arb(0), arb(1))], [(arb(0), arb(1), arb(1))], None, 0)
    ...     print(bound.overlaps(1 / (2 * arb.pi()).sqrt() + arb(1) / 4))   # E[x; x > 0] + P(x > 0)/2
    True
    """
    s = top[0][2]
    v = s * s
    _, n0, _ = reference = bottom[0]

    def affine(terms):   # log(wN(m)) − log(v₀N(n₀)) = (m − n₀)/s² x + c: its slope and intercept bounds
        slopes = [((m - n0) / v).abs_upper() for _, m, _ in terms]
        intercepts = [(lw - reference[0] - (m * m - n0 * n0) / (2 * v)).abs_upper() for lw, m, _ in terms]
        return max(slopes), max(intercepts) + (arb(len(terms)).log() if len(terms) > 1 else 0)

    (b1, a1), (b2, a2) = affine(top), affine(bottom)
    c1, c0 = arb(b1) + arb(b2), arb(a1) + a2
    total = arb(0)
    for side, edge in ((-1, lo), (1, hi)):
        if edge is None:
            continue
        u0 = side * exact_ball(edge)
        shift = 2 * c1 * max(arb(0), -u0, key=lambda x: x.upper())
        for lw, m, _ in top:
            first, second, _ = _exp_quadratic_moments(1 / (2 * v), side * m / v,
                                                      lw - m * m / (2 * v) - (s * (2 * arb.pi()).sqrt()).log(), u0)
            total += c1 * second + (c0 + shift) * first
    return total


def _window_integral(log_weight, integrand, centres: list, s: arb, region, tail_bound) -> arb:
    """∫ f over the line (``region`` None) or the half-line ``region`` = (side, r): Petras integration of
    ``integrand(z, shift)`` = f(z) e^{−shift} on a window, plus the strip between the ball r and its midpoint
    (module's note), plus ``tail_bound(lo, hi)`` (a ball; None for an end that is the region's own). The shift is
    the highest value of ``log_weight`` found on a grid over the centres; the window reaches from the centres far
    enough that the tail bound is below the working precision relative to the integral."""
    prec = ctx.prec
    side, r = region if region is not None else (0, None)
    start = None if r is None else mpf_of(r.mid())
    scale = _mpf(s)
    spots = [_mpf(c.mid()) for c in centres]
    left, right = min(spots), max(spots)
    if start is not None:
        left, right = (start, max(start, right)) if side > 0 else (min(start, left), start)
    peak, top = _peak(log_weight, left, right, scale, side, start)
    shift = arb(top)
    reach = scale * (mpmath.sqrt(2 * (prec + 16) * mpmath.log(2)) + 2)

    def ends(reach):
        lo = left - reach if side <= 0 else start
        hi = right + reach if side >= 0 else start
        return lo, hi

    def tails(lo, hi):
        return tail_bound(None if side > 0 else lo, None if side < 0 else hi)

    # widen before integrating, against a guess of the integral's size (e^top times a width): the bounds are cheap
    guess = shift.exp() * arb(scale) / 16
    for _ in range(60):
        if tails(*ends(reach)).upper() <= guess * arb(2) ** -(prec + 8):
            break
        reach += 2 * scale
    budget = _EvaluationBudget(MAX_EVALUATIONS)
    tol = arb(2) ** -prec

    def strip(a, b):
        if not a < b:
            return arb(0)
        cuts = [a] + ([peak] if a < peak < b else []) + [b]

        def f(z, analytic):
            return integrand(z, shift)
        return sum((budget.integral(f, exact_ball(u), exact_ball(w), rel_tol=tol, abs_tol=tol * arb(scale))
                    for u, w in zip(cuts, cuts[1:])), arb(0))

    lo, hi = ends(reach)
    body = strip(lo, hi)
    if not body.is_finite():
        return arb("nan")
    if r is not None and not r.is_exact():   # ∫ between r and its midpoint: (x₀ − r̂) f(r̂), signed by the side
        body += side * (exact_ball(start) - r) * integrand(acb(r), shift).real
    for _ in range(8):   # the guess was too small: widen, integrating the new strips only
        found = tails(lo, hi)
        size = abs(body).lower() * shift.exp()
        if found.is_finite() and found.rad() <= arb(2) ** -(prec + 4) * max(size, guess * arb(2) ** -prec):
            break
        reach *= 1.5
        new_lo, new_hi = ends(reach)
        body += strip(new_lo, lo) + strip(hi, new_hi)
        lo, hi = new_lo, new_hi
        if not body.is_finite():
            return arb("nan")
    return body * shift.exp() + tails(lo, hi)


def _peak(log_weight, left, right, scale, side: int, start) -> tuple:
    """``(x*, h(x*))``: the highest value of ``h = log_weight`` on a grid over [left − 6s, right + 6s] within the
    region (it decides where to look and the scale, never what is found)."""
    lo = start if side > 0 else left - 6 * scale
    hi = start if side < 0 else right + 6 * scale
    count = int(min(256, max(8, (hi - lo) / (scale / 2))))
    best, top = None, -mpmath.inf
    for k in range(count + 1):
        x = lo + (hi - lo) * k / count
        value = log_weight(exact_ball(x))
        if value.is_finite() and _mpf(value.mid()) > top:
            best, top = x, _mpf(value.mid())
    if best is None:
        raise InvalidParameter("the integrand of this divergence is nowhere finite at this precision")
    return best, top


__all__ = ["kl", "renyi"]
