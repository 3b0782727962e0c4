"""Closed-form divergences of Gaussian and Laplace pairs: the fast paths of :mod:`symdp.engine.quadrature` and its oracles.

Each function takes plain parameters (numbers or mpf), computes at the caller's working precision plus guard digits
where the formula cancels, and returns an mpf (possibly ``+inf``) rounded to the caller's precision. Conventions:
``P`` is the first argument of the divergence, ``Q`` the second; for location families only ``Δ = loc_P - loc_Q``
matters, and every formula here is even in Δ.

>>> import mpmath
>>> with mpmath.workdps(30):
...     print(gaussian_renyi(0, 1, 1, 1, 3))     # alpha Delta^2 / (2 sigma^2)
...     print(laplace_renyi(1, 1, 2))            # = log(2/3 e + 1/3 e^-2); catalogue-balle has 0.619123629998592828
...     print(laplace_hockey_stick(1, 1, 0))     # TV(Lap(0,1), Lap(1,1)) = 1 - e^{-1/2}
1.5
0.619123629998592883399788536543
0.393469340287366576396200465009
"""

from __future__ import annotations

import mpmath

from symdp.numeric import ncdf, to_mpf

_GUARD = 10
"""Guard digits every closed form computes with, on top of those a cancelling formula asks for."""


def _digits_lost(ratio) -> int:
    """Decimal digits a subtraction loses when the result is ``ratio`` times smaller than its terms."""
    ratio = abs(mpmath.mpf(ratio))
    return 0 if ratio >= 1 or ratio == 0 else int(-mpmath.log10(ratio)) + 1


# --- Gaussian pairs: P = N(m1, s1^2), Q = N(m2, s2^2) -----------------------------------------------------------


def gaussian_kl(m1, s1, m2, s2) -> mpmath.mpf:
    """``KL(N(m1, s1²) || N(m2, s2²)) = ln(s2/s1) + (s1² + (m1 - m2)²)/(2 s2²) - 1/2``; ``Δ²/(2σ²)`` at equal sd.

    >>> print(gaussian_kl(0, 2, 1, 2))
    0.125
    """
    m1, s1, m2, s2 = (to_mpf(v) for v in (m1, s1, m2, s2))
    with mpmath.workdps(mpmath.mp.dps + _GUARD):
        r = s1 / s2
        # ln(s2/s1) + (r² - 1)/2 = (r² - 1 - ln r²)/2 cancels as r -> 1; expm1/log1p keep it relative.
        u = 2 * mpmath.log(r)
        value = (mpmath.expm1(u) - u) / 2 + (m1 - m2) ** 2 / (2 * s2**2)
    return +value


def gaussian_renyi(m1, s1, m2, s2, alpha) -> mpmath.mpf:
    """Rényi divergence of order α > 1 between ``N(m1, s1²)`` and ``N(m2, s2²)``.

    With ``s_α² = α s2² + (1 - α) s1²``: ``R_α = ln(s2/s1) + ln(s2²/s_α²)/(2(α - 1)) + α(m1 - m2)²/(2 s_α²)``, and
    ``+inf`` when ``s_α² <= 0`` (the integrand ``p^α q^(1-α)`` grows in the tails). At equal sd this is the
    Gaussian RDP ``α Δ²/(2σ²)``.

    >>> with mpmath.workdps(30):                            # catalogue-balle, balle19.fact.gauss-rdp
    ...     print(mpmath.nstr(gaussian_renyi(0.4, 0.9, 0, 0.9, 3.7), 20))
    0.36543209876543209877
    >>> gaussian_renyi(0, 2, 0, 1, 2)
    mpf('+inf')
    """
    m1, s1, m2, s2, a = (to_mpf(v) for v in (m1, s1, m2, s2, alpha))
    with mpmath.workdps(mpmath.mp.dps + _GUARD):
        s_a2 = a * s2**2 + (1 - a) * s1**2
        if s_a2 <= 0:
            return mpmath.inf
        # The first two terms cancel as s1 -> s2; the extra digits cover what the subtraction in s_a2 loses.
        extra = _digits_lost(s_a2 / (a * s2**2))
    with mpmath.workdps(mpmath.mp.dps + _GUARD + extra):
        s_a2 = a * s2**2 + (1 - a) * s1**2
        value = (mpmath.log(s2 / s1) + mpmath.log(s2**2 / s_a2) / (2 * (a - 1))
                 + a * (m1 - m2) ** 2 / (2 * s_a2))
    return +value


def gaussian_hockey_stick(delta, sigma, eps) -> mpmath.mpf:
    """``D_{e^ε}(N(Δ, σ²) || N(0, σ²)) = Φ(-ε/τ + τ/2) - e^ε Φ(-ε/τ - τ/2)``, ``τ = |Δ|/σ`` (Balle & Wang 2018).

    For large ε both terms are Gaussian tails whose ratio tends to 1 (the difference is about ``τ/|ε/τ|`` of
    either), so the subtraction is done with that many extra digits; mpmath's ``ncdf`` keeps relative precision
    deep in the tail. ``τ = 0`` gives ``max(0, 1 - e^ε)``.

    >>> print(mpmath.nstr(gaussian_hockey_stick(1, 1, 40), 15))   # = scaled quadrature over [40.5, inf) at 40 digits
    3.90897082393935e-343
    """
    d, s, e = to_mpf(delta), to_mpf(sigma), to_mpf(eps)
    tau = abs(d) / s
    if tau == 0:
        return max(mpmath.mpf(0), -mpmath.expm1(e))
    with mpmath.workdps(mpmath.mp.dps + _GUARD):
        a = -e / tau + tau / 2
        extra = _digits_lost(tau / (abs(a) + tau)) if a < 0 else 0
    with mpmath.workdps(mpmath.mp.dps + _GUARD + extra):
        a = -e / tau + tau / 2
        value = ncdf(a) - mpmath.exp(e) * ncdf(a - tau)
    return +max(value, mpmath.mpf(0))


def gaussian_tv(delta, sigma) -> mpmath.mpf:
    """``TV(N(Δ, σ²), N(0, σ²)) = 2Φ(|Δ|/(2σ)) - 1``, computed as ``erf(|Δ|/(2√2 σ))`` (no cancellation at small Δ).

    >>> print(mpmath.nstr(gaussian_tv(1, 1), 15))
    0.382924922548026
    """
    d, s = to_mpf(delta), to_mpf(sigma)
    with mpmath.workdps(mpmath.mp.dps + _GUARD):
        value = mpmath.erf(abs(d) / (2 * mpmath.sqrt(2) * s))
    return +value


def gaussian_max_divergence(m1, s1, m2, s2) -> mpmath.mpf:
    """``sup_x log(p/q)`` for ``N(m1, s1²)`` against ``N(m2, s2²)``.

    ``+inf`` if ``s1 > s2``, or ``s1 = s2`` and ``m1 ≠ m2`` (the log-ratio is then unbounded quadratic or linear);
    otherwise the concave quadratic's maximum ``ln(s2/s1) + (m1 - m2)²/(2(s2² - s1²))`` (0 for equal laws).

    >>> print(mpmath.nstr(gaussian_max_divergence(0, 1, 0, 2), 15))
    0.693147180559945
    """
    m1, s1, m2, s2 = (to_mpf(v) for v in (m1, s1, m2, s2))
    if s1 > s2 or (s1 == s2 and m1 != m2):
        return mpmath.inf
    if s1 == s2:
        return mpmath.mpf(0)
    with mpmath.workdps(mpmath.mp.dps + _GUARD):
        value = mpmath.log(s2 / s1) + (m1 - m2) ** 2 / (2 * (s2 - s1) * (s2 + s1))
    return +value


# --- Laplace pairs with equal scale: P = Lap(Δ, λ), Q = Lap(0, λ) ------------------------------------------------


def laplace_renyi(delta, scale, alpha) -> mpmath.mpf:
    """Mironov (2017, Cor. 2): ``R_α(Lap(Δ, λ) || Lap(0, λ)) = log(g_α(|Δ|/λ))/(α - 1)``, α > 1, with
    ``g_α(z) = α/(2α-1) e^{z(α-1)} + (α-1)/(2α-1) e^{-zα}``.

    Evaluated as ``z + log1p((α-1)/(2α-1) · expm1(-z(2α-1)))/(α-1)``, which neither overflows at large α nor
    loses the ``O(z²)`` result to the cancellation of its two ``O(z)`` terms at small z (guard digits).

    >>> with mpmath.workdps(30):                            # catalogue-balle, balle19.fact.laplace-rdp
    ...     print(mpmath.nstr(laplace_renyi(0.3, 0.7, 5.5), 18))
    0.298207282602136319
    """
    d, lam, a = to_mpf(delta), to_mpf(scale), to_mpf(alpha)
    z = abs(d) / lam
    if z == 0:
        return mpmath.mpf(0)
    with mpmath.workdps(mpmath.mp.dps + _GUARD + _digits_lost(z)):
        k = 2 * a - 1
        value = z + mpmath.log1p((a - 1) / k * mpmath.expm1(-z * k)) / (a - 1)
    return +value


def laplace_kl(delta, scale) -> mpmath.mpf:
    """``KL(Lap(Δ, λ) || Lap(0, λ)) = z + e^{-z} - 1``, ``z = |Δ|/λ``, computed as ``z + expm1(-z)``.

    >>> print(mpmath.nstr(laplace_kl(1, 1), 15))
    0.367879441171442
    """
    z = abs(to_mpf(delta)) / to_mpf(scale)
    if z == 0:
        return mpmath.mpf(0)
    with mpmath.workdps(mpmath.mp.dps + _GUARD + _digits_lost(z)):
        value = z + mpmath.expm1(-z)
    return +value


def laplace_hockey_stick(delta, scale, eps) -> mpmath.mpf:
    """``D_{e^ε}(Lap(Δ, λ) || Lap(0, λ))`` for ε of any sign, ``z = |Δ|/λ``.

    Derivation (Δ > 0 by symmetry; P = Lap(0, λ), Q = Lap(Δ, λ) is the mirror image): the privacy loss
    ``L(x) = (|x - Δ| - |x|)/λ`` is ``z`` left of 0, ``-z`` right of Δ and falls linearly in between, so for
    ``|ε| < z`` the set ``{L > ε}`` is ``(-∞, x*)`` with ``x*/λ = (z - ε)/2``, and
    ``P(x < x*) - e^ε Q(x < x*) = 1 - ½e^{-(z-ε)/2} - ½e^ε e^{-(z+ε)/2} = 1 - e^{(ε-z)/2}``.
    For ``ε >= z`` the set is empty (0); for ``ε <= -z`` it is everything (``1 - e^ε``). The pieces agree at
    ``ε = ±z``.

    >>> print(mpmath.nstr(laplace_hockey_stick(2, 1, -3), 15), laplace_hockey_stick(2, 1, 2))
    0.950212931632136 0.0
    """
    z = abs(to_mpf(delta)) / to_mpf(scale)
    e = to_mpf(eps)
    if e >= z:
        return mpmath.mpf(0)
    with mpmath.workdps(mpmath.mp.dps + _GUARD):
        value = -mpmath.expm1(e if e <= -z else (e - z) / 2)
    return +value


def laplace_tv(delta, scale) -> mpmath.mpf:
    """``TV(Lap(Δ, λ), Lap(0, λ)) = 1 - e^{-|Δ|/(2λ)}``: the hockey-stick divergence at ε = 0.

    >>> print(mpmath.nstr(laplace_tv(2, 1), 15))
    0.632120558828558
    """
    return laplace_hockey_stick(delta, scale, 0)


def laplace_max_divergence(delta, scale) -> mpmath.mpf:
    """``sup_x log(p/q) = |Δ|/λ`` (the pure-DP level of the Laplace mechanism), reached on a half-line.

    >>> print(laplace_max_divergence(3, 2))
    1.5
    """
    return abs(to_mpf(delta)) / to_mpf(scale)
