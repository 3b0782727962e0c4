"""Bertazzi, Johnston, Roberts, Durmus (2025): what every part of the paper shares."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp
from flint import arb, arb_mat
from hypothesis import strategies as st

from symdp.engine.continuous import Gaussian
from symdp.engine.divergences import divergence
from symdp.estimate import Estimate, exact_ball, exact_rational, in_balls, mpf_down, mpf_up
from symdp.numeric import to_mpf
from symdp.symbols import alpha
from symdp.theorem import Param


def finite_floats(low: float, high: float) -> st.SearchStrategy[float]:
    """Finite floats in [low, high], no subnormals: the draws of every section."""
    return st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False)


P_ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.001, 1000.0), log=True, limit=(
    r"alpha -> 1 is the KL limit (checked apart, prop4.5.kl); on the Gaussian families both sides are linear in alpha "
    r"(the ratio does not depend on it), on SGLD's batch mixtures the ratio grows with alpha towards the full-batch "
    r"ratio (s = m, pinned), and Mironov's conversion is worst at alpha = 1 + sqrt(2 ln(1/delta))/shift (1.009 at "
    r"the pin); beyond 1000 the quadrature of p^alpha q^(1 - alpha) meets nothing new"))
"""The Rényi order: α ∈ (1, ∞), drawn in [1.001, 1000] (half the draws log-uniform)."""
P_ALPHA_MIXTURES = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.01, 16.0), limit=(
    r"SGLD's laws for s < m are Gaussian mixtures, whose p^alpha q^(1 - alpha) the engine integrates by quadrature: "
    r"at alpha = 1000 a point takes 10 s (the path, c = 10) to 230 s (x_n, n = 4), at alpha = 100 3 s; the ratio grows "
    r"with alpha towards the full-batch one, and s = m (one Gaussian, the ratio free of alpha) is the worst case, "
    r"drawn and pinned"))
"""The Rényi order where the laws are mixtures (SGLD with s < m): the range the quadrature affords."""


# --- measurements in ball arithmetic ---------------------------------------------------------------------------------
# (the witnesses return symdp.estimate.enclosure(...) of balls computed at symdp.estimate.in_balls())


def exact_fraction(x) -> Fraction:
    """A drawn number as the rational it is: a Fraction or int as is, an mpf exactly (every bit of the mantissa), a
    float as the mpf it means (:func:`symdp.numeric.to_mpf`), so that comparisons with the laws' rational atoms are
    decided exactly.

    >>> exact_fraction(mpmath.mpf(3) / 4), exact_fraction(Fraction(1, 3))
    (Fraction(3, 4), Fraction(1, 3))
    """
    q = exact_rational(x)
    return Fraction(int(q.p), int(q.q))


def ball(x):
    """A number as an Arb ball at flint's precision: a Fraction through fmpq (exact where it is dyadic, else rounded
    into the ball), an int or mpf exactly (:func:`symdp.estimate.exact_ball`), a float as the mpf it means, an Arb
    ball as is."""
    return exact_ball(to_mpf(x, "number") if isinstance(x, (float, str)) else x)


# --- Gaussian laws on R^n with one covariance: the sufficient statistic in balls ------------------------------------


def linear_chain_laws(x0, rho, shifts, step_variance) -> tuple[list, arb_mat]:
    """The means and the covariance of (x_1, ..., x_n) for x_{k+1} = ρ x_k + a_k + N(0, s²), x_0 given: m_{k+1} =
    ρ m_k + a_k, Σ_{k+1,k+1} = ρ² Σ_{k,k} + s², Σ_{k+1,j} = ρ Σ_{k,j} (j ≤ k), in the numbers given (Arb balls at
    flint's precision: each entry encloses the exact one). ``shifts`` lists a_0, ..., a_{n-1}.

    >>> means, cov = linear_chain_laws(arb(0), arb(0.5), [arb(1), arb(1)], arb(2))
    >>> print(means[1], cov[1, 1], cov[0, 1])
    1.50000000000000 2.50000000000000 1.00000000000000
    """
    n = len(shifts)
    means, cov = [], arb_mat(n, n)
    mean, variance = x0, 0 * step_variance
    for k, a in enumerate(shifts):
        mean, variance = rho * mean + a, rho * rho * variance + step_variance
        means.append(mean)
        cov[k, k] = variance
        for j in range(k):
            cov[k, j] = cov[j, k] = rho * cov[k - 1, j]
    return means, cov


def mahalanobis_ball(means, means_p, cov):
    """D = sqrt(Δmᵀ Σ⁻¹ Δm) of two Gaussian laws on R^n with one covariance Σ, as a ball (Arb's certified solve at
    flint's precision): the two laws' divergences of every kind are those of N(D, 1) against N(0, 1)
    (:mod:`symdp.engine.gaussian_paths`). Balls that do not prove Σ regular give an unbounded ball.

    >>> print(mahalanobis_ball([arb(3)], [arb(1)], arb_mat([[4]])))     # a shift of 2 against sd 2
    1.00000000000000
    """
    diff = arb_mat([[a - b] for a, b in zip(means, means_p)])
    if all(d == 0 for d in diff.entries()):
        return arb(0)
    try:
        solved = cov.solve(diff)
    except ZeroDivisionError:
        return arb(0, "inf")
    square = sum((diff[i, 0] * solved[i, 0] for i in range(diff.nrows())), arb(0))
    return square.nonnegative_part().sqrt()


def unit_shift_divergence(kind: str, shift, *args) -> Estimate:
    """A divergence of N(D, 1) against N(0, 1) for D known as a ball ``shift`` (>= 0): the door's certified
    enclosures from the densities (``method="densities"``) at the ends D_- <= D <= D_+ of the ball, rounded outward
    to the working precision, and their hull. Every f- and Rényi divergence of the pair is non-decreasing in D: for
    0 <= D' <= D, x -> (D'/D)x + sqrt(1 - (D'/D)^2)ξ, ξ ~ N(0, 1) independent, maps N(D, 1) to N(D', 1) and N(0, 1)
    to itself (data processing); so the hull encloses the divergence at every D of the ball. An unbounded ball
    encloses nothing: an estimate of unbounded error.

    >>> with mpmath.workdps(30), in_balls():
    ...     D = arb(2).sqrt()
    ...     kl = unit_shift_divergence("kl", D)                      # KL = D^2/2 = 1
    >>> kl.certified, kl.value - kl.error <= 1 <= kl.value + kl.error, kl.error < 1e-28
    (True, True, True)
    """
    def at(D) -> Estimate:
        return divergence(kind, Gaussian(D, 1), Gaussian(0, 1), *args, method="densities")

    if not shift.is_finite():   # (balls that did not prove the covariance regular: nothing is enclosed)
        return Estimate(mpmath.mpf(0), mpmath.inf)
    with in_balls():
        low, high = mpf_down(shift.lower()), mpf_up(shift.upper())
    if low == high:
        return at(low)
    return Estimate.combine(lambda a, b: a.union(b), at(max(low, mpmath.mpf(0))), at(high))

