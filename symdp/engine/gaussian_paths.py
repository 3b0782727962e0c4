"""Gaussian path laws: the exact law of the grid values of a linear-drift Euler chain (or of an SDE sampled on a grid),
as a mean vector and a covariance matrix from their recursions, and divergences between two such laws.

The chain is x_{k+1} = x_k + γ(−μ x_k − b_k) + sqrt(2γ/β) z_{k+1}, x_0 given, z i.i.d. N(0, 1): with ρ = 1 − γμ its
mean runs m_{k+1} = ρ m_k − γ b_k and its covariance Σ_{k+1,k+1} = ρ² Σ_{k,k} + 2γ/β, Σ_{k+1,j} = ρ Σ_{k,j} (j ≤ k).
Two such laws with one covariance differ only along Σ⁻¹Δm: the statistic t = Δmᵀ Σ⁻¹ (x − m_Q)/D, D² = Δmᵀ Σ⁻¹ Δm,
is N(D, 1) under P and N(0, 1) under Q and carries the whole likelihood ratio, so it is sufficient and every
f-divergence and Rényi divergence of the pair equals that of N(D, 1) against N(0, 1), which the engine's door measures
(:func:`equal_covariance_pair`).

>>> P = euler_path(0, 0.5, [0.0, 0.0], 1, 0.5)
>>> Q = euler_path(0, 0.5, [1.0, 1.0], 1, 0.5)
>>> print(mpmath.nstr(P.mean[1], 6), mpmath.nstr(Q.mean[1], 6), mpmath.nstr(P.cov[1, 1], 6))
0.0 -0.875 1.5625
>>> print(mpmath.nstr(mahalanobis(P, Q), 10))     # a shift of gamma*1 a step against variance 2*gamma: sqrt(2*0.25/1)
0.7071067812
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import mpmath

from symdp.engine.continuous import Gaussian
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.numeric import to_mpf


@dataclass(frozen=True)
class GaussianVector:
    """N(mean, cov) on R^n: ``mean`` an n×1 and ``cov`` an n×n mpmath matrix (symmetric, positive definite)."""

    mean: mpmath.matrix
    cov: mpmath.matrix

    def __post_init__(self):
        if self.cov.rows != self.cov.cols or self.cov.rows != self.mean.rows or self.mean.cols != 1:
            raise InvalidDistribution(f"a Gaussian vector needs an n-vector mean and an n×n covariance, got "
                                      f"{self.mean.rows}×{self.mean.cols} and {self.cov.rows}×{self.cov.cols}")

    @property
    def dimension(self) -> int:
        return self.mean.rows

    def logpdf(self, x: Sequence) -> mpmath.mpf:
        """log of the density at x: −(x − m)ᵀΣ⁻¹(x − m)/2 − log det(2πΣ)/2 (Cholesky solve).

        >>> print(mpmath.nstr(GaussianVector(mpmath.matrix([0]), mpmath.matrix([[4]])).logpdf([2]), 12))
        -2.11208571376
        """
        if len(x) != self.dimension:
            raise InvalidParameter(f"a point of dimension {len(x)} for a law on R^{self.dimension}")
        centred = mpmath.matrix([to_mpf(v, "x") for v in x]) - self.mean
        solved = mpmath.cholesky_solve(self.cov, centred)
        quadratic = mpmath.fsum(centred[i] * solved[i] for i in range(centred.rows))
        return -quadratic / 2 - mpmath.log(mpmath.det(2 * mpmath.pi * self.cov)) / 2


def euler_path(x0, mu, drifts: Sequence, beta, gamma) -> GaussianVector:
    """The law of (x_1, ..., x_n) of x_{k+1} = x_k + γ(−μ x_k − b_k) + sqrt(2γ/β) z_{k+1}, n = len(drifts), from the
    mean and covariance recursions (μ of any sign: the chain need not contract)."""
    x0, mu, beta, gamma = (to_mpf(v, name) for v, name in ((x0, "x0"), (mu, "mu"), (beta, "beta"), (gamma, "gamma")))
    if beta <= 0 or gamma <= 0:
        raise InvalidParameter(f"beta and gamma must be positive, got beta={beta}, gamma={gamma}")
    if not drifts:
        raise InvalidParameter("an Euler path needs at least one step (one drift b_k)")
    n, rho, step_var = len(drifts), 1 - gamma * mu, 2 * gamma / beta
    mean, cov = mpmath.matrix(n, 1), mpmath.matrix(n, n)
    previous_mean, previous_var = x0, mpmath.mpf(0)
    for k, b in enumerate(drifts):
        mean[k] = rho * previous_mean - gamma * to_mpf(b, f"b_{k}")
        cov[k, k] = rho ** 2 * previous_var + step_var
        for j in range(k):
            cov[k, j] = cov[j, k] = rho * cov[k - 1, j]
        previous_mean, previous_var = mean[k], cov[k, k]
    return GaussianVector(mean, cov)


def mahalanobis(P: GaussianVector, Q: GaussianVector) -> mpmath.mpf:
    """D = sqrt(Δmᵀ Σ⁻¹ Δm) of two laws with one covariance Σ (Cholesky solve, no inverse)."""
    if P.dimension != Q.dimension:
        raise InvalidDistribution(f"Gaussian vectors of dimensions {P.dimension} and {Q.dimension}")
    if mpmath.mnorm(P.cov - Q.cov, 1) > mpmath.mpf(2) ** (-mpmath.mp.prec + 8) * mpmath.mnorm(P.cov, 1):
        raise InvalidDistribution("the two Gaussian vectors have different covariances: the sufficient statistic "
                                  "of equal_covariance_pair does not apply")
    delta = P.mean - Q.mean
    solved = mpmath.cholesky_solve(P.cov, delta)
    return mpmath.sqrt(max(mpmath.mpf(0), mpmath.fsum(delta[i] * solved[i] for i in range(delta.rows))))


def equal_covariance_pair(P: GaussianVector, Q: GaussianVector) -> tuple[Gaussian, Gaussian]:
    """(N(D, 1), N(0, 1)): the laws of the sufficient statistic of the pair (module docstring), whose divergences of
    every kind are those of P against Q."""
    return Gaussian(mahalanobis(P, Q), 1), Gaussian(0, 1)


def through_statistic(door, kind, P: GaussianVector, Q: GaussianVector, *args, method="auto", **options):
    """``door(kind, N(D, 1), N(0, 1), *args, ...)``: any quantity of the pair (KL, Rényi, hockey-stick, TV, the privacy
    loss and its MGF: the statistic carries the whole likelihood ratio) by the engine's rule for the statistic's laws.
    The door is passed in, as for products, so that this module does not import it; the hookup is one
    :class:`~symdp.engine.divergences.Rule` for :class:`GaussianVector`.

    >>> from symdp.engine.divergences import divergence
    >>> P, Q = euler_path(0, 0.5, [0.0, 0.0], 1, 0.5), euler_path(0, 0.5, [1.0, 1.0], 1, 0.5)
    >>> print(mpmath.nstr(through_statistic(divergence, "renyi", P, Q, 2).value, 12))   # alpha D^2/2, D^2 = 1/2
    0.5
    """
    return door(kind, *equal_covariance_pair(P, Q), *args, method=method, **options)


def renyi(P: GaussianVector, Q: GaussianVector, alpha) -> mpmath.mpf:
    """R_α(P‖Q) of two Gaussian vectors in closed form (covariances may differ): α/2 Δmᵀ Σ_α⁻¹ Δm − log(det Σ_α /
    (det Σ_P^{1−α} det Σ_Q^α))/(2(α − 1)), Σ_α = αΣ_Q + (1 − α)Σ_P; +inf where Σ_α is not positive definite. An oracle
    for tests; a witness measures through :func:`equal_covariance_pair` and the door."""
    a = to_mpf(alpha, "alpha")
    if a <= 1:
        raise InvalidParameter(f"alpha must be > 1, got {a}")
    mixed = a * Q.cov + (1 - a) * P.cov
    try:
        mpmath.cholesky(mixed)
    except ValueError:
        return mpmath.inf
    delta = P.mean - Q.mean
    solved = mpmath.cholesky_solve(mixed, delta)
    quadratic = mpmath.fsum(delta[i] * solved[i] for i in range(delta.rows))
    log_dets = mpmath.log(mpmath.det(mixed)) - (1 - a) * mpmath.log(mpmath.det(P.cov)) - a * mpmath.log(
        mpmath.det(Q.cov))
    return a / 2 * quadratic - log_dets / (2 * (a - 1))
