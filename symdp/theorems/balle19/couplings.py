"""Balle et al. (NeurIPS 2019), Section 4: amplification by couplings.

Seeds: main text ``../shared/seeds/001_dc25d928cd3b540a.txt`` ("P"), appendix
``../shared/seeds/000_eb14441fc6376ec7.txt`` ("A"); catalogue ``../shared/catalogue/catalogue-balle.md``. The
symbolic side (eq. (6) by convolution, the limit of Lemma 3, Example 1's optimum, φ(L) and θ_i of Theorem 4) is in
:mod:`proofs.balle19.couplings`.

Encoded here:

* the iterated Laplace mechanism: eq. (6) (Lap2 density), Lemma 3 (its pure-DP level is Δ/max(λ1, λ2), so no
  amplification), Example 2 (Rényi amplification via Theorem 2) and Mironov's Laplace RDP it uses;
* shifts: Example 1 (iterated Gaussian, the optimal interpolation point), Theorem 4 eqs. (2)–(3) for linear maps
  ψ(x) = Lx on 𝕂 = ℝ, and the two identities of Theorem 4's proof (φ(L) ≤ 1/r; θ_i, printed wrongly: erratum E2).

>>> import sympy as sp
>>> EQ_6.id, LEMMA_3.tight_everywhere
('balle19.eq6', True)
"""

from __future__ import annotations

import mpmath
import sympy as sp

from symdp import continuous, divergences
from symdp.estimate import Estimate
from symdp.expressions import Gaussian as GaussianH
from symdp.expressions import Lap2 as Lap2H
from symdp.expressions import Laplace as LaplaceH
from symdp.expressions import MaxDivergence, Renyi
from symdp.symbols import L, Delta, alpha, lambda1, lambda2, r, sigma, sigma1, sigma2
from symdp.theorem import Erratum, Param, Source, Theorem
from symdp.theorems.balle19.common import A_SEED, ALPHA, DELTA, LAMBDA1, LAMBDA2, P_SEED, POS, SIGMA, SIGMA1, SIGMA2

x = sp.Symbol("x", real=True)
t = sp.Symbol("t", real=True)
theta = sp.Symbol("theta", nonnegative=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
j = sp.Symbol("j", integer=True, positive=True)


class Lap2f(sp.Function):
    """The density of eq. (6) at a point, printed as the paper writes it: Lap2(x; λ1, λ2)."""

    nargs = 1

    def _latex(self, printer):
        return rf"\mathrm{{Lap2}}\left({printer._print(self.args[0])}; \lambda_{{1}}, \lambda_{{2}}\right)"


LAM = sp.Max(lambda1, lambda2)


def _big(p) -> mpmath.mpf:
    return max(p["lambda_1"], p["lambda_2"])


# =====================================================================================================================
# The iterated Laplace mechanism (P Example 2, Lemma 3; A proof of Lemma 3)
# =====================================================================================================================


def eq6_expression(z=x):
    """Eq. (6) as printed (A, proof of Lemma 3), with both branches, at the point z."""
    a = sp.Abs(z)
    neq = sp.Rational(1, 4) * ((1 / (lambda1 + lambda2) + 1 / (lambda1 - lambda2)) * sp.exp(-a / lambda1)
                               + (1 / (lambda1 + lambda2) - 1 / (lambda1 - lambda2)) * sp.exp(-a / lambda2))
    eq = sp.exp(-a / lambda1) * (lambda1 + a) / (4 * lambda1**2)
    return sp.Piecewise((eq, sp.Eq(lambda1, lambda2)), (neq, True))


def lap2_convolution(x0, l1, l2) -> Estimate:
    """∫ Lap(x0 − t; λ1) Lap(t; λ2) dt by mpmath quadrature split at the kinks t = 0 and t = x0.

    Independent of eq. (6): the integrand is the product of the two Laplace densities.

    >>> print(mpmath.nstr(lap2_convolution(mpmath.mpf('0.7'), 1, 2).value, 18))   # catalogue-balle, balle19.eq6
    0.152131812607669559
    """
    x0, l1, l2 = (mpmath.mpf(v) for v in (x0, l1, l2))

    def integrand(s):
        return mpmath.exp(-abs(x0 - s) / l1 - abs(s) / l2) / (4 * l1 * l2)

    points = [-mpmath.inf] + sorted({mpmath.mpf(0), x0}) + [mpmath.inf]
    value, error = mpmath.quad(integrand, points, error=True)
    return Estimate(value, abs(error), "quadrature (convolution)")


def _eq6_sides(p):
    conv = lap2_convolution(p["x"], p["lambda_1"], p["lambda_2"])
    closed = continuous.Lap2(0, p["lambda_1"], p["lambda_2"]).pdf(p["x"])
    return conv, closed


# A, proof of Lemma 3, eq. (6): the density of Lap(0, λ1) + Lap(0, λ2). The closed form is symdp.continuous.Lap2
# (eq. (6) rewritten without cancellation; the rewriting is checked symbolically in proofs.balle19.couplings).
EQ_6 = Theorem(
    id="balle19.eq6",
    title="Density of the sum of two Laplace variables",
    source=Source(A_SEED, "proof of Lemma 3, eq. (6)"),
    statement=sp.Eq(sp.Integral(sp.exp(-sp.Abs(x - t) / lambda1) / (2 * lambda1)
                                * sp.exp(-sp.Abs(t) / lambda2) / (2 * lambda2), (t, -sp.oo, sp.oo)),
                    eq6_expression(), evaluate=False),
    evaluator=_eq6_sides,
    parameters=(LAMBDA1, LAMBDA2, Param(x, sp.Reals, sample=(-10, 10))),
    tight_everywhere=True,
    examples=(  # catalogue-balle.md, balle19.eq6 (mpmath convolution)
        {"lambda_1": 1, "lambda_2": 2, "x": 0.7},
        {"lambda_1": 3, "lambda_2": 0.5, "x": -2},
        {"lambda_1": 1, "lambda_2": 1, "x": 1.3},
        {"lambda_1": 2, "lambda_2": 2.000001, "x": 5},  # λ1 ≈ λ2: eq. (6)'s first branch would cancel
    ),
    quantity_latex=r"\left(\mathrm{Lap}(\cdot;\lambda_1) * \mathrm{Lap}(\cdot;\lambda_2)\right)(x)",
    notes="Right side evaluated by symdp.continuous.Lap2 (eq. (6) in cancellation-free form); left side by "
          "quadrature of the convolution integral split at t = 0 and t = x.",
    default_examples=30,
)


def _lap2_pair(p):
    """(Lap2 centred at Δ, Lap2 centred at 0): the outputs K∘M on neighbouring inputs with |f(D) − f(D')| = Δ."""
    return (continuous.Lap2(p["Delta"], p["lambda_1"], p["lambda_2"]),
            continuous.Lap2(0, p["lambda_1"], p["lambda_2"]))


def _lemma3_max_divergence(p):
    return divergences.max_divergence(*_lap2_pair(p))


_M2 = Lap2H(Delta, lambda1, lambda2)
_M2p = Lap2H(0, lambda1, lambda2)

# P Lemma 3 (proof: A): the iterated Laplace mechanism K∘M is (ε, 0)-DP exactly for ε ≥ Δ/max(λ1, λ2): its max
# divergence equals Δ/max(λ1, λ2), a supremum approached as x → ∞ and not attained.
LEMMA_3 = Theorem(
    id="balle19.lem3",
    title="No pure-DP amplification for iterated Laplace",
    source=Source(P_SEED, "Lemma 3"),
    statement=sp.Eq(MaxDivergence(_M2, _M2p), Delta / LAM),
    witness=_lemma3_max_divergence,
    parameters=(LAMBDA1, LAMBDA2, DELTA),
    tight_everywhere=True,
    examples=(  # catalogue-balle.md, balle19.lem3: limits 7/30, 7/50 and Δ/λ (equal branch)
        {"lambda_1": 3, "lambda_2": 2, "Delta": 0.7},
        {"lambda_1": 2, "lambda_2": 5, "Delta": 0.7},
        {"lambda_1": 1, "lambda_2": 1, "Delta": 1},
    ),
    quantity_latex=r"\sup_{y} \log \frac{\mathrm{Lap2}(y - \Delta; \lambda_1, \lambda_2)}"
                   r"{\mathrm{Lap2}(y; \lambda_1, \lambda_2)}",
    notes="Witness: symdp.divergences.max_divergence (tail asymptotics). A finite-point certificate of tightness "
          "is balle19.lem3.pointwise, whose 0.99-tightened copy is refuted at a finite x.",
    default_examples=12,
)


def privacy_loss_at(p, z) -> mpmath.mpf:
    """log(Lap2(z)/Lap2(z + Δ)), evaluated in log space (no under- or overflow at large |z|)."""
    law = continuous.Lap2(0, p["lambda_1"], p["lambda_2"])
    return law.logpdf(z) - law.logpdf(z + p["Delta"])


_LOSS = sp.log(Lap2f(x) / Lap2f(x + Delta))


def _loss_at_x(p):
    return privacy_loss_at(p, p["x"])


# P Lemma 3, the upper half ("K(f(D)) achieves (Δ/λ2, 0)-DP", post-processing) checked pointwise, with a finite
# witness: the privacy loss at one point x. It holds at every x, and the pinned large-x examples certify tightness
# without any asymptotic formula: at x = 199·max λ the loss exceeds 0.995·Δ/max λ (balle19.lem3.lower), so the
# copy tightened to 0.99·Δ/max λ is refuted by a finite computation, and so is (ε, 0)-DP for any ε < Δ/max λ.
LEMMA_3_POINTWISE = Theorem(
    id="balle19.lem3.pointwise",
    title="Iterated Laplace: the privacy loss at every point is at most Delta/max(lambda1, lambda2)",
    source=Source(P_SEED, "Lemma 3"),
    statement=sp.Le(_LOSS, Delta / LAM),
    witness=_loss_at_x,
    parameters=(LAMBDA1, LAMBDA2, DELTA, Param(x, sp.Reals, sample=(-50, 2000))),
    examples=(  # x = 199·max λ (c = 0.995 in balle19.lem3.lower), including the slow equal-λ branch
        {"lambda_1": 1, "lambda_2": 1, "Delta": 1, "x": 199},
        {"lambda_1": 3, "lambda_2": 2, "Delta": 0.7, "x": 597},
        {"lambda_1": 0.5, "lambda_2": 4, "Delta": 5, "x": 796},
    ),
    quantity_latex=r"\text{the privacy loss of } \mathrm{Lap2}(\cdot - \Delta) \text{ vs } \mathrm{Lap2} "
                   r"\text{ at } x + \Delta",
    notes="Not tight at any finite x (the supremum is approached only as x -> oo), but the 0.99-tightened copy is "
          "violated at the pinned finite points.",
)


_X_NONNEG = sp.Symbol("x", nonnegative=True)

# Derived here (not in the paper): a quantitative form of A's "dominating term" argument. With λ = max(λ1, λ2),
# Lap2(x) = e^{-x/λ} h(x)/(2(λ1 + λ2)), h increasing, h(x + Δ) − h(x) ≤ Δ e^{-xd}/λ and h(x) ≥ 1 + x φ(xd)/λ
# (d = 1/min λ − 1/λ, φ(y) = (1 − e^{-y})/y ≥ e^{-y}), so log(h(x+Δ)/h(x)) ≤ Δ/(λ + x) and, for x ≥ 0,
#     log(Lap2(x)/Lap2(x + Δ)) ≥ Δ/λ − Δ/(λ + x) = (Δ/λ) · x/(λ + x).
# Hence for every c < 1 the point x_c = λc/(1 − c) has loss ≥ cΔ/λ: no ε < Δ/λ gives (ε, 0)-DP (Lemma 3).
LEMMA_3_LOWER = Theorem(
    id="balle19.lem3.lower",
    title="Iterated Laplace: explicit lower bound on the privacy loss (quantitative Lemma 3)",
    source=Source(A_SEED, "proof of Lemma 3 (dominating-term argument, made quantitative)"),
    statement=sp.Ge(_LOSS.subs(x, _X_NONNEG), Delta * _X_NONNEG / (LAM * (LAM + _X_NONNEG))),
    witness=_loss_at_x,
    parameters=(LAMBDA1, LAMBDA2, DELTA, Param(_X_NONNEG, sp.Interval(0, sp.oo), sample=(0, 2000))),
    examples=({"lambda_1": 1, "lambda_2": 1, "Delta": 1, "x": 199}, {"lambda_1": 1, "lambda_2": 1, "Delta": 3, "x": 0}),
    notes="Derived in this module's comment, not in the paper; the ratio tends to 1 as x -> oo.",
)


def g_alpha(z, a):
    """Mironov's g_α(z) = α/(2α−1) e^{z(α−1)} + (α−1)/(2α−1) e^{−zα} (P Example 2, [23, Cor. 2])."""
    return a / (2 * a - 1) * mpmath.exp(z * (a - 1)) + (a - 1) / (2 * a - 1) * mpmath.exp(-z * a)


def g_alpha_expr(z):
    return alpha / (2 * alpha - 1) * sp.exp(z * (alpha - 1)) + (alpha - 1) / (2 * alpha - 1) * sp.exp(-z * alpha)


lam_ = sp.Symbol("lambda", positive=True)


def renyi_by_quadrature(P, Q, a) -> Estimate:
    """R_α(P‖Q) by the engine's quadrature path, bypassing any closed form (an independent computation)."""
    from symdp import quadrature

    return quadrature.renyi(P, Q, a, method="quadrature")


def _laplace_rdp_quadrature(p):
    return renyi_by_quadrature(continuous.Laplace(p["Delta"], p["lambda"]), continuous.Laplace(0, p["lambda"]),
                               p["alpha"])


# Catalogue glossary (Mironov 2017, Cor. 2; used in P Example 2): the Rényi divergence of two Laplace laws. The
# witness integrates numerically, so the closed form is checked against an independent computation.
LAPLACE_RDP = Theorem(
    id="balle19.fact.laplace-rdp",
    title="Renyi divergence of the Laplace mechanism (Mironov)",
    source=Source(P_SEED, "Example 2 (citing Mironov 2017, Corollary 2)"),
    statement=sp.Eq(Renyi(LaplaceH(Delta, lam_), LaplaceH(0, lam_), alpha),
                    sp.log(g_alpha_expr(Delta / lam_)) / (alpha - 1)),
    witness=_laplace_rdp_quadrature,
    parameters=(Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 20)), DELTA,
                Param(lam_, POS, sample=(0.2, 5))),
    tight_everywhere=True,
    examples=({"alpha": 2, "Delta": 1, "lambda": 1}, {"alpha": 5.5, "Delta": 0.3, "lambda": 0.7}),
    default_examples=5,
)


def _renyi_lap2(p) -> Estimate:
    return divergences.renyi(*_lap2_pair(p), p["alpha"])


EX2_BOUND = sp.log(g_alpha_expr(theta * Delta / lambda1) * g_alpha_expr((1 - theta) * Delta / lambda2)) / (alpha - 1)

# P Example 2: Theorem 2 with ω = Lap(w, λ1), w = θu + (1−θ)v (so |w − v| = θΔ, |u − w| = (1 − θ)Δ), bounds the
# Rényi divergence of the two Lap2 laws. Valid for every θ ∈ [0, 1]; loose for every finite α (catalogue).
EXAMPLE_2 = Theorem(
    id="balle19.ex2",
    title="Iterated Laplace: Renyi amplification via Theorem 2",
    source=Source(P_SEED, "Example 2"),
    statement=sp.Le(Renyi(_M2, _M2p, alpha), EX2_BOUND),
    witness=_renyi_lap2,
    parameters=(Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.1, 30)), Param(Delta, POS, sample=(0.05, 3)),
                Param(lambda1, POS, sample=(0.3, 5)), Param(lambda2, POS, sample=(0.3, 5)),
                Param(theta, sp.Interval(0, 1))),
    examples=(  # catalogue-balle.md, balle19.ex2 table (best a = |w − v| = θΔ)
        {"alpha": 2, "Delta": 1, "lambda_1": 1, "lambda_2": 1, "theta": 0.5},
        {"alpha": 4, "Delta": 1, "lambda_1": 1, "lambda_2": 2, "theta": 0.13028},
    ),
    notes="Loose for every finite alpha; the best theta is strictly inside (0, 1).",
    default_examples=4,  # each draw is a Lap2 Renyi quadrature at two precisions and two grids (~2 s)
)

# =====================================================================================================================
# Shifts: Example 1 and Theorem 4 (P §4)
# =====================================================================================================================


def _gauss_renyi(mean_gap, variance, a) -> Estimate:
    sd = mpmath.sqrt(variance)
    return divergences.renyi(continuous.Gaussian(mean_gap, sd), continuous.Gaussian(0, sd), a)


_S12 = sp.sqrt(sigma1**2 + sigma2**2)


def _ex1_witness(p):
    # (K∘M)(D) = N(f(D), σ1² + σ2²): the post-processed Gaussians, compared directly.
    return _gauss_renyi(p["Delta"], p["sigma_1"] ** 2 + p["sigma_2"] ** 2, p["alpha"])


# P Example 1: Theorem 2 with the translation coupling and w = θu + (1−θ)v, θ = σ1²/(σ1² + σ2²) (the minimiser,
# proofs.balle19.couplings.EX1_OPTIMAL_W) gives α Δ²/(2(σ1² + σ2²)) — exactly the Rényi divergence of the outputs.
EXAMPLE_1 = Theorem(
    id="balle19.ex1",
    title="Iterated Gaussian: Theorem 2 at the optimal interpolation point is exact",
    source=Source(P_SEED, "Example 1"),
    statement=sp.Eq(Renyi(GaussianH(Delta, _S12), GaussianH(0, _S12), alpha),
                    alpha * Delta**2 / (2 * (sigma1**2 + sigma2**2))),
    witness=_ex1_witness,
    parameters=(ALPHA, DELTA, SIGMA1, SIGMA2),
    tight_everywhere=True,
)

EX1_ANY_W_BOUND = alpha / 2 * (theta**2 * Delta**2 / sigma1**2 + (1 - theta)**2 * Delta**2 / sigma2**2)

# P Example 1, first display: the Theorem 2 bound for any w = θu + (1−θ)v; tight exactly at the optimal θ.
EXAMPLE_1_ANY_W = Theorem(
    id="balle19.ex1.any-w",
    title="Iterated Gaussian: the Theorem 2 bound for any interpolation point",
    source=Source(P_SEED, "Example 1"),
    statement=sp.Le(Renyi(GaussianH(Delta, _S12), GaussianH(0, _S12), alpha), EX1_ANY_W_BOUND),
    witness=_ex1_witness,
    parameters=(ALPHA, DELTA, SIGMA1, SIGMA2, Param(theta, sp.Interval(0, 1))),
    tight_at=({"alpha": 3, "Delta": 1, "sigma_1": 1, "sigma_2": 2, "theta": 0.2},      # θ = 1/(1 + 4)
              {"alpha": 1.5, "Delta": 2, "sigma_1": 3, "sigma_2": 1, "theta": 0.9}),   # θ = 9/(9 + 1)
)


def linear_chain(p) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(mean gap, variance) after r steps of x ↦ Lx + N(0, σ²) started from δ_0 and δ_Δ (ψ(x) = Lx, 𝕂 = ℝ)."""
    gap, var = p["Delta"], mpmath.mpf(0)
    for _ in range(p["r"]):
        gap, var = p["L"] * gap, p["L"] ** 2 * var + p["sigma"] ** 2
    return gap, var


def _chain_renyi(p) -> Estimate:
    gap, var = linear_chain(p)
    return _gauss_renyi(gap, var, p["alpha"])


R_PARAM = Param(r, sp.Range(1, sp.oo), sample=(1, 20))
class _Law(sp.Symbol):
    """A named law printed verbatim in LaTeX (a plain Symbol would read the underscores as subscripts)."""

    def _latex(self, printer):
        return self.name


_CHAIN = Renyi(_Law(r"\mu K_1 \cdots K_r"), _Law(r"\nu K_1 \cdots K_r"), alpha)
_CHAIN_LATEX = r"\text{the chain } K_i(x) = \mathcal{N}(Lx, \sigma^2),\ \mu = \delta_0,\ \nu = \delta_\Delta"


def eq2_bound(steps):
    """αL²/(2σ²) Σ_{i=1}^r L^{2(r−i)} Δ_i² (P Theorem 4, eq. (2)) for the path with step sizes ``steps`` (in i)."""
    return alpha * L**2 / (2 * sigma**2) * sp.Sum(L**(2 * (r - i)) * steps**2, (i, 1, r))


OPTIMAL_STEP = Delta * L**(2 * i) / sp.Sum(L**(2 * j), (j, 1, r))
GEOMETRIC_STEP = Delta * L**i / sp.Sum(L**j, (j, 1, r))  # = Δ0 L^i, Δ0 = Δ(1 − L)/(L(1 − L^r)) (A, Thm 4 proof)

# P Theorem 4, eq. (2), for ψ_i(x) = Lx, 𝕂 = ℝ, μ = δ_0, ν = δ_Δ, along the optimal path μ_i = δ_{θ_i Δ} with steps
# Δ_i ∝ L^{2i} (derived in the catalogue; proofs.balle19.couplings.THM4_OPTIMAL_PATH). The exact Rényi divergence of the
# chain's Gaussian outputs attains the bound for every L > 0 (L = 1 included: the sums are evaluated termwise).
THEOREM_4_EQ2 = Theorem(
    id="balle19.thm4.eq2",
    title="Amplification by iteration, eq. (2), along the optimal path (linear maps)",
    source=Source(P_SEED, "Theorem 4, eq. (2)"),
    statement=sp.Le(_CHAIN, eq2_bound(OPTIMAL_STEP)),
    witness=_chain_renyi,
    parameters=(ALPHA, DELTA, SIGMA, Param(L, POS, sample=(0.05, 2)), R_PARAM),
    structure_latex=_CHAIN_LATEX,
    tight_everywhere=True,
    examples=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.8, "r": 2},   # catalogue table: 0.999024
              {"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.6, "r": 3},   # catalogue table: 0.125285
              {"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 1, "r": 2}),    # catalogue table: 2
)

# P Theorem 4, eq. (2) along the paper's own geometric path Δ_i = Δ0 L^i (A, proof of Theorem 4): valid, loose unless
# L = 1 or r = 1.
THEOREM_4_EQ2_GEOMETRIC = Theorem(
    id="balle19.thm4.eq2.geometric",
    title="Amplification by iteration, eq. (2), along the paper's geometric path (linear maps)",
    source=Source(A_SEED, "proof of Theorem 4"),
    statement=sp.Le(_CHAIN, eq2_bound(GEOMETRIC_STEP)),
    witness=_chain_renyi,
    parameters=(ALPHA, DELTA, SIGMA, Param(L, POS, sample=(0.05, 2)), R_PARAM),
    structure_latex=_CHAIN_LATEX,
    tight_at=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 1, "r": 7},
              {"alpha": 3, "Delta": 0.4, "sigma": 1.3, "L": 0.3, "r": 1}),
    examples=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.8, "r": 2},),  # catalogue table: 1.01136
)

# P Theorem 4, eq. (3): for L ≤ 1, R_α ≤ αΔ²L^{r+1}/(2rσ²). Tight at L = 1 (any r) and at r = 1; otherwise loose
# (the true rate for contractions is L^{2r}, not L^{r+1}/r).
THEOREM_4_EQ3 = Theorem(
    id="balle19.thm4.eq3",
    title="Amplification by iteration, eq. (3) (contractions)",
    source=Source(P_SEED, "Theorem 4, eq. (3)"),
    statement=sp.Le(_CHAIN, alpha * Delta**2 * L**(r + 1) / (2 * r * sigma**2)),
    witness=_chain_renyi,
    parameters=(ALPHA, DELTA, SIGMA, Param(L, sp.Interval.Lopen(0, 1), sample=(0.05, 1)), R_PARAM),
    structure_latex=_CHAIN_LATEX,
    tight_at=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 1, "r": 2},     # catalogue table: 2 = 2
              {"alpha": 4, "Delta": 0.7, "sigma": 0.3, "L": 1, "r": 13},
              {"alpha": 3, "Delta": 0.4, "sigma": 1.3, "L": 0.3, "r": 1}),
    examples=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.6, "r": 3},),  # catalogue: 0.125285 vs 0.1728
)

PHI = (L**sp.Rational(-1, 2) - L**sp.Rational(1, 2)) / (L**(-r / sp.Integer(2)) - L**(r / sp.Integer(2)))


def phi_value(p):
    """φ(L) = (L^{-1/2} − L^{1/2})/(L^{-r/2} − L^{r/2}); at L = 1 (0/0) its limit by L'Hôpital's rule, with the two
    derivatives computed numerically (mpmath.diff), not from the closed form 1/r.

    >>> print(phi_value({"L": mpmath.mpf(1), "r": 4}))
    0.25
    """
    half_r = mpmath.mpf(p["r"]) / 2

    def num(l):
        return 1 / mpmath.sqrt(l) - mpmath.sqrt(l)

    def den(l):
        return l ** (-half_r) - l ** half_r

    if p["L"] == 1:
        return mpmath.diff(num, 1) / mpmath.diff(den, 1)
    return num(p["L"]) / den(p["L"])


# A, proof of Theorem 4: φ(L) ≤ 1/r on (0, 1], with φ(L) → 1/r as L → 1 (proofs.balle19.couplings.THM4_PHI_LIMIT); the step
# from the geometric path to eq. (3). Tight at L = 1 and for r = 1 (φ ≡ 1).
THEOREM_4_PHI = Theorem(
    id="balle19.thm4.proof-phi",
    title="phi(L) <= 1/r, with equality in the limit L -> 1",
    source=Source(A_SEED, "proof of Theorem 4"),
    statement=sp.Le(PHI, 1 / r),
    # An evaluator, so that 1/r is an mpf: the lambdified bound of an integer-only expression is a float64.
    evaluator=lambda p: (phi_value(p), 1 / mpmath.mpf(p["r"])),
    parameters=(Param(L, sp.Interval.Lopen(0, 1), sample=(0.01, 1)), Param(r, sp.Range(1, sp.oo), sample=(1, 40))),
    tight_at=({"L": 1, "r": 5}, {"L": 1, "r": 1}, {"L": 0.3, "r": 1}),
    examples=({"L": 0.999999, "r": 29},),
)

THETA_DEFINED = (1 - L) / (L * (1 - L**r)) * sp.Sum(L**j, (j, 1, i))
"""θ_i = (Δ0/Δ) Σ_{j≤i} L^j (A, proof of Theorem 4), with Δ0/Δ = (1 − L)/(L(1 − L^r))."""


def theta_defined(p):
    rr, n, l = p["r"], p["i"], p["L"]
    return (1 - l) / (l * (1 - l**rr)) * mpmath.fsum(l**k for k in range(1, n + 1))


_THETA_PARAMS = (Param(L, sp.Interval.open(0, 1), sample=(0.05, 0.95)), Param(r, sp.Range(1, sp.oo), sample=(1, 30)),
                 Param(i, sp.Range(0, sp.oo), sample=(0, 30)))

# A, proof of Theorem 4, as printed: θ_i = (Δ0/Δ) Σ_{j≤i} L^j = (1 − L^{i+1})/(1 − L). The second equality is wrong
# (erratum E2): it gives θ_0 = 1 and θ_r > 1, contradicting μ_0 = μ, μ_r = ν.
THEOREM_4_THETA = Theorem(
    id="balle19.thm4.proof-theta",
    title="The interpolation weights theta_i of Theorem 4's proof (as printed)",
    source=Source(A_SEED, "proof of Theorem 4"),
    statement=sp.Eq(THETA_DEFINED, (1 - L**(i + 1)) / (1 - L)),
    witness=theta_defined,
    parameters=_THETA_PARAMS,
    conditions=(sp.Le(i, r),),
    erratum=Erratum(
        location="A, proof of Theorem 4 (definition of mu_i)",
        printed=r"\theta_i = \frac{\Delta_0}{\Delta}\sum_{j=1}^i L^j = \frac{1-L^{i+1}}{1-L}",
        corrected=r"\theta_i = \frac{1-L^i}{1-L^r}",
        counterexample={"L": 0.5, "r": 3, "i": 3},  # printed θ_3 = 15/8, defined θ_3 = 1 (also θ_0: 1 vs 0)
        corrected_id="balle19.thm4.proof-theta.corrected",
        note="Catalogue erratum E2. Theorem 4 itself is unaffected.",
    ),
)

THEOREM_4_THETA_CORRECTED = Theorem(
    id="balle19.thm4.proof-theta.corrected",
    title="The interpolation weights theta_i of Theorem 4's proof (corrected)",
    source=Source(A_SEED, "proof of Theorem 4"),
    statement=sp.Eq(THETA_DEFINED, (1 - L**i) / (1 - L**r)),
    witness=theta_defined,
    parameters=_THETA_PARAMS,
    conditions=(sp.Le(i, r),),
    tight_everywhere=True,
    examples=({"L": 0.5, "r": 3, "i": 0}, {"L": 0.5, "r": 3, "i": 3}),  # θ_0 = 0, θ_r = 1
)


def _gauss_rdp_quadrature(p):
    return renyi_by_quadrature(continuous.Gaussian(p["Delta"], p["sigma"]), continuous.Gaussian(0, p["sigma"]),
                               p["alpha"])


# Catalogue glossary: the Gaussian RDP α Δ²/(2σ²) (used by Example 1 and Theorem 4), checked by quadrature.
GAUSS_RDP = Theorem(
    id="balle19.fact.gauss-rdp",
    title="Renyi divergence of the Gaussian mechanism",
    source=Source(P_SEED, "Example 1 (standard)"),
    statement=sp.Eq(Renyi(GaussianH(Delta, sigma), GaussianH(0, sigma), alpha), alpha * Delta**2 / (2 * sigma**2)),
    witness=_gauss_rdp_quadrature,
    parameters=(Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 20)), DELTA, Param(sigma, POS, sample=(0.2, 5))),
    tight_everywhere=True,
    examples=({"alpha": 3.7, "Delta": 0.4, "sigma": 0.9},),  # catalogue-balle.md: 0.36543209876543209877
    default_examples=5,
)

THEOREMS = [
    EQ_6, LEMMA_3, LEMMA_3_POINTWISE, LEMMA_3_LOWER, LAPLACE_RDP, EXAMPLE_2,
    GAUSS_RDP, EXAMPLE_1, EXAMPLE_1_ANY_W, THEOREM_4_EQ2, THEOREM_4_EQ2_GEOMETRIC, THEOREM_4_EQ3,
    THEOREM_4_PHI, THEOREM_4_THETA, THEOREM_4_THETA_CORRECTED,
]
