"""Closed-form divergences of Gaussian and Laplace pairs: the fast paths of :mod:`symdp.engine.quadrature` and its oracles.

Each formula is written once, in Arb ball arithmetic on the exact parameters, so that its value is an enclosure:
a closed form is a textbook formula, and its arithmetic is certified (a claim met with equality, such as
``kl(gaussian(0, 1), gaussian(1, 1)) < 0.5``, is then *proved* false). The ball is computed with guard bits, and
with more where the formula cancels until it is sharp relative to its own size (:func:`~symdp.estimate.sharp_ball`).
Each function returns the value, an mpf (possibly ``+inf``) rounded to the caller's precision; its ``ball``
attribute returns the enclosure (``gaussian_kl.ball(0, 1, 1, 1)``). Conventions: ``P`` is the first argument of the
divergence, ``Q`` the second; for location families only ``Δ = loc_P - loc_Q`` matters, and every formula here is
even in Δ.

>>> import mpmath
>>> with mpmath.workdps(30):
...     print(gaussian_renyi(0, 1, 1, 1, 3))     # alpha Delta^2 / (2 sigma^2)
...     print(laplace_renyi(1, 1, 2))            # = log(2/3 e + 1/3 e^-2); catalogue-balle has 0.619123629998592828
...     print(laplace_hockey_stick(1, 1, 0))     # TV(Lap(0,1), Lap(1,1)) = 1 - e^{-1/2}
1.5
0.619123629998592883399788536543
0.393469340287366576396200465009
>>> gaussian_kl.ball(0, 1, 1, 1)                 # exactly 1/2: a ball of radius 0
0.500000000000000
"""

from __future__ import annotations

import functools
from typing import Callable

import mpmath
from flint import arb

from symdp.estimate import exact_ball as _ball, mpf_nearest, sharp_ball
from symdp.numeric import arb_erfc, to_mpf

GUARD_BITS = 24
"""Guard bits every closed form computes with."""

BOOST_BITS = 4096
"""Most bits added to a formula that cancels (a Laplace KL at z = 10^-300 is z²/2: 600 digits below its terms)."""


def closed_form(formula: Callable[..., arb]) -> Callable[..., mpmath.mpf]:
    """The formula (a function of exact mpf parameters returning an Arb ball) as a function of numbers returning its
    value at the working precision, with the enclosure itself as ``.ball``."""

    def ball(*args) -> arb:
        exact = [a if isinstance(a, mpmath.mpf) else to_mpf(a) for a in args]   # an mpf as it is, every bit
        return sharp_ball(lambda: formula(*exact), GUARD_BITS, BOOST_BITS)

    @functools.wraps(formula)
    def value(*args) -> mpmath.mpf:
        b = ball(*args)
        if b.is_finite():
            return mpf_nearest(b.mid())
        return mpmath.inf if b.is_exact() and b > 0 else mpmath.nan

    value.ball = ball
    return value


_INF = arb("inf")


# --- Gaussian pairs: P = N(m1, s1^2), Q = N(m2, s2^2) -----------------------------------------------------------


@closed_form
def gaussian_kl(m1, s1, m2, s2) -> arb:
    """``KL(N(m1, s1²) || N(m2, s2²)) = ln(s2/s1) + (s1² + (m1 - m2)²)/(2 s2²) - 1/2``; ``Δ²/(2σ²)`` at equal sd.

    >>> print(gaussian_kl(0, 2, 1, 2))
    0.125
    """
    u = 2 * (_ball(s1) / _ball(s2)).log()
    # ln(s2/s1) + (r² - 1)/2 = (r² - 1 - ln r²)/2 cancels as r -> 1: expm1 keeps it relative
    return (u.expm1() - u) / 2 + (_ball(m1) - _ball(m2)) ** 2 / (2 * _ball(s2) ** 2)


@closed_form
def gaussian_renyi(m1, s1, m2, s2, alpha) -> arb:
    """Rényi divergence of order α > 1 between ``N(m1, s1²)`` and ``N(m2, s2²)``.

    With ``s_α² = α s2² + (1 - α) s1²``: ``R_α = ln(s2/s1) + ln(s2²/s_α²)/(2(α - 1)) + α(m1 - m2)²/(2 s_α²)``, and
    ``+inf`` when ``s_α² <= 0`` (the integrand ``p^α q^(1-α)`` grows in the tails), decided exactly. At equal sd
    this is the Gaussian RDP ``α Δ²/(2σ²)``.

    >>> with mpmath.workdps(30):                            # catalogue-balle, balle19.fact.gauss-rdp
    ...     print(mpmath.nstr(gaussian_renyi(0.4, 0.9, 0, 0.9, 3.7), 20))
    0.36543209876543209877
    >>> gaussian_renyi(0, 2, 0, 1, 2)
    mpf('+inf')
    """
    exact = functools.partial(mpmath.fmul, exact=True)
    if mpmath.fadd(exact(alpha, exact(s2, s2)), exact(mpmath.fsub(1, alpha, exact=True), exact(s1, s1)),
                   exact=True) <= 0:
        return _INF
    a, r1, r2 = _ball(alpha), _ball(s1), _ball(s2)
    s_a2 = a * r2**2 + (1 - a) * r1**2
    return (r2 / r1).log() + (r2**2 / s_a2).log() / (2 * (a - 1)) + a * (_ball(m1) - _ball(m2)) ** 2 / (2 * s_a2)


@closed_form
def gaussian_hockey_stick(delta, sigma, eps) -> arb:
    """``D_{e^ε}(N(Δ, σ²) || N(0, σ²)) = Φ(-ε/τ + τ/2) - e^ε Φ(-ε/τ - τ/2)``, ``τ = |Δ|/σ`` (Balle & Wang 2018),
    with ``Φ(x) = erfc(-x/√2)/2``. For large ε both terms are Gaussian tails whose ratio tends to 1; the
    subtraction's lost digits are recovered by more bits. ``τ = 0`` gives ``max(0, 1 - e^ε)``.

    >>> print(mpmath.nstr(gaussian_hockey_stick(1, 1, 40), 15))   # = scaled quadrature over [40.5, inf) at 40 digits
    3.90897082393935e-343
    """
    e = _ball(eps)
    if delta == 0:
        return arb(0) if eps >= 0 else -e.expm1()
    tau = abs(_ball(delta)) / _ball(sigma)
    a, root2 = -e / tau + tau / 2, arb(2).sqrt()
    return (arb_erfc(-a / root2) - e.exp() * arb_erfc(-(a - tau) / root2)) / 2


@closed_form
def gaussian_tv(delta, sigma) -> arb:
    """``TV(N(Δ, σ²), N(0, σ²)) = 2Φ(|Δ|/(2σ)) - 1``, computed as ``erf(|Δ|/(2√2 σ))`` (no cancellation at small Δ).

    >>> print(mpmath.nstr(gaussian_tv(1, 1), 15))
    0.382924922548026
    """
    return (abs(_ball(delta)) / (2 * arb(2).sqrt() * _ball(sigma))).erf()


@closed_form
def gaussian_max_divergence(m1, s1, m2, s2) -> arb:
    """``sup_x log(p/q)`` for ``N(m1, s1²)`` against ``N(m2, s2²)``.

    ``+inf`` if ``s1 > s2``, or ``s1 = s2`` and ``m1 ≠ m2`` (the log-ratio is then unbounded quadratic or linear);
    otherwise the concave quadratic's maximum ``ln(s2/s1) + (m1 - m2)²/(2(s2² - s1²))`` (0 for equal laws).

    >>> print(mpmath.nstr(gaussian_max_divergence(0, 1, 0, 2), 15))
    0.693147180559945
    """
    if s1 > s2 or (s1 == s2 and m1 != m2):
        return _INF
    if s1 == s2:
        return arb(0)
    r1, r2 = _ball(s1), _ball(s2)
    return (r2 / r1).log() + (_ball(m1) - _ball(m2)) ** 2 / (2 * (r2 - r1) * (r2 + r1))


# --- Laplace pairs with equal scale: P = Lap(Δ, λ), Q = Lap(0, λ) ------------------------------------------------


@closed_form
def laplace_renyi(delta, scale, alpha) -> arb:
    """Mironov (2017, Cor. 2): ``R_α(Lap(Δ, λ) || Lap(0, λ)) = log(g_α(|Δ|/λ))/(α - 1)``, α > 1, with
    ``g_α(z) = α/(2α-1) e^{z(α-1)} + (α-1)/(2α-1) e^{-zα}``.

    Evaluated as ``z + log1p((α-1)/(2α-1) · expm1(-z(2α-1)))/(α-1)``, which does not overflow at large α; the
    ``O(z²)`` result of its two cancelling ``O(z)`` terms at small z is resolved by more bits.

    >>> with mpmath.workdps(30):                            # catalogue-balle, balle19.fact.laplace-rdp
    ...     print(mpmath.nstr(laplace_renyi(0.3, 0.7, 5.5), 18))
    0.298207282602136319
    """
    if delta == 0:
        return arb(0)
    z, a = abs(_ball(delta)) / _ball(scale), _ball(alpha)
    k = 2 * a - 1
    return z + ((a - 1) / k * (-z * k).expm1()).log1p() / (a - 1)


@closed_form
def laplace_kl(delta, scale) -> arb:
    """``KL(Lap(Δ, λ) || Lap(0, λ)) = z + e^{-z} - 1``, ``z = |Δ|/λ``, computed as ``z + expm1(-z)``.

    >>> print(mpmath.nstr(laplace_kl(1, 1), 15))
    0.367879441171442
    """
    z = abs(_ball(delta)) / _ball(scale)
    return z + (-z).expm1()


@closed_form
def laplace_hockey_stick(delta, scale, eps) -> arb:
    """``D_{e^ε}(Lap(Δ, λ) || Lap(0, λ))`` for ε of any sign, ``z = |Δ|/λ``.

    Derivation (Δ > 0 by symmetry; P = Lap(0, λ), Q = Lap(Δ, λ) is the mirror image): the privacy loss
    ``L(x) = (|x - Δ| - |x|)/λ`` is ``z`` left of 0, ``-z`` right of Δ and falls linearly in between, so for
    ``|ε| < z`` the set ``{L > ε}`` is ``(-∞, x*)`` with ``x*/λ = (z - ε)/2``, and
    ``P(x < x*) - e^ε Q(x < x*) = 1 - ½e^{-(z-ε)/2} - ½e^ε e^{-(z+ε)/2} = 1 - e^{(ε-z)/2}``.
    For ``ε >= z`` the set is empty (0); for ``ε <= -z`` it is everything (``1 - e^ε``). The pieces agree at
    ``ε = ±z``, so where the ball of ``z`` does not decide the piece, the union of the candidates encloses it.

    >>> print(mpmath.nstr(laplace_hockey_stick(2, 1, -3), 15), laplace_hockey_stick(2, 1, 2))
    0.950212931632136 0.0
    """
    z, e = abs(_ball(delta)) / _ball(scale), _ball(eps)
    pieces = []
    if not e < z:                       # possibly ε >= z
        pieces.append(arb(0))
    if not (e >= z or e <= -z):         # possibly |ε| < z
        pieces.append(-((e - z) / 2).expm1())
    if not e > -z:                      # possibly ε <= -z
        pieces.append(-e.expm1())
    return functools.reduce(arb.union, pieces)


@closed_form
def laplace_tv(delta, scale) -> arb:
    """``TV(Lap(Δ, λ), Lap(0, λ)) = 1 - e^{-|Δ|/(2λ)}``: the hockey-stick divergence at ε = 0.

    >>> print(mpmath.nstr(laplace_tv(2, 1), 15))
    0.632120558828558
    """
    return -(-abs(_ball(delta)) / (2 * _ball(scale))).expm1()


@closed_form
def laplace_max_divergence(delta, scale) -> arb:
    """``sup_x log(p/q) = |Δ|/λ`` (the pure-DP level of the Laplace mechanism), reached on a half-line.

    >>> print(laplace_max_divergence(3, 2))
    1.5
    """
    return abs(_ball(delta)) / _ball(scale)
