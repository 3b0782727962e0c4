"""Balle et al. (NeurIPS 2019), Section 5: diffusion mechanisms.

Seeds: main text ``../shared/seeds/001_dc25d928cd3b540a.txt`` ("P", §5 and §5.1), appendix
``../shared/seeds/000_eb14441fc6376ec7.txt`` ("A", proofs of Theorem 6, Lemma 19, Corollary 7, Theorem 8); catalogue
``../shared/catalogue/catalogue-balle.md`` §4. The symbolic side (generators, carré du champ, eqs. (7)–(9), the Γ
identity, the OU kernel and log-ratio, the integral formula, Theorem 8's calculus) is in
:mod:`proofs.balle19.diffusions`.

The semigroups used here have closed-form Gaussian kernels: the Ornstein–Uhlenbeck semigroup
``P_t(x) = N(e^{−θt}x, v(t) I)``, ``v(t) = ρ²(1 − e^{−2θt})/θ`` (P §5.1), and its limit θ → 0, the Brownian motion
``P_t(x) = N(x, 2ρ²t I)`` (P Example 4 is ρ = 1). Rényi divergences of these laws on ℝ^k are sums over coordinates
(the laws are products) of one-dimensional Gaussian divergences computed by :mod:`symdp.divergences`; neighbouring
outputs are drawn as ``x, x' ∈ ℝ^k`` (k ≤ 3) with ``‖x − x'‖ = Δ``, the worst case of L2-sensitivity Δ. Isotropic noise makes mean
squared errors rotation invariant, so ``f(D) = ‖f(D)‖ e_1`` without loss of generality; eq. (4) is checked against
the integral of the definition (quadrature), and the results built on it (the PGM, Theorem 8) use its bias–variance
form.

Encoded here, in the paper's order: the semigroup property (Chapman–Kolmogorov), Example 4, Theorem 6 (on the BM and
OU instances, and its general statement, symbolic only), Lemma 19, the identities of Theorem 6's proof, Example 5,
the OU SDE as printed (erratum E3) and corrected, Corollary 7, eq. (4), the post-processed Gaussian mechanism,
Theorem 8 (a) and (b), and the middle expression of Theorem 8's proof (erratum E7).

>>> COROLLARY_7.tight_everywhere, THEOREM_6_GENERAL.symbolic_only != ""
(True, True)
"""

from __future__ import annotations

import mpmath
import sympy as sp
from hypothesis import strategies as st

from proofs.balle19 import diffusions as proofs
from symdp import divergences
from symdp.continuous import Gaussian
from symdp.estimate import Estimate
from symdp.expressions import Renyi
from symdp.finite import to_mpf
from symdp.symbols import Delta, R, alpha, d, eps_pos, rho, theta
from symdp.theorem import Erratum, Param, Source, Theorem
from symdp.theorems.balle19.common import A_SEED, ALPHA, DELTA, P_SEED, POS

t = sp.Symbol("t", positive=True)
t0 = sp.Symbol("t", nonnegative=True)  # Theorem 8 (a) holds from t = 0
s = sp.Symbol("s", positive=True)
y = sp.Symbol("y", real=True)
z = sp.Symbol("z", real=True)
x = sp.Symbol("x", real=True)
theta0 = sp.Symbol("theta", nonnegative=True)  # θ = 0 is Brownian motion (with variance 2ρ² per unit time)
F = sp.Symbol("F", nonnegative=True)  # ‖f(D)‖
c = sp.Symbol("c", positive=True)
A = sp.Symbol("A", positive=True)
b = sp.Symbol("b", nonnegative=True)
beta = sp.Symbol("beta", positive=True)
gamma = sp.Symbol("gamma", positive=True)
kappa = sp.Function("kappa")
varphi = sp.Function("varphi")
p_t = sp.Function("p")


class _Tex(sp.Symbol):
    """A named object (a law, an error) printed verbatim in LaTeX."""

    def _latex(self, printer):
        return self.name


_PT, _PTP = _Tex("P_t(x)"), _Tex("P_t(x')")

THETA = Param(theta, POS, sample=(0.05, 3))
THETA0 = Param(theta0, sp.Interval(0, sp.oo), sample=(0, 3))
# Theorem 6's draws keep θ ≥ 0.05 (κ changes its decay at s ~ 1/θ, beyond any quadrature for θ ~ 1e-38); θ = 0, the
# Brownian motion, is pinned.
THETA0_KAPPA = Param(theta0, sp.Interval(0, sp.oo), sample=(0.05, 3))
RHO = Param(rho, POS, sample=(0.2, 4))
T = Param(t, POS, sample=(0.02, 3))
DIM = Param(d, sp.Range(1, sp.oo), sample=(1, 20))
NORM_F = Param(F, sp.Interval(0, sp.oo), sample=(0, 5))
RADIUS = Param(R, POS, sample=(0.1, 5))
EPS = Param(eps_pos, POS, sample=(0.05, 10))

LAMBDA_OU = theta * Delta**2 / (2 * rho**2 * (sp.exp(2 * theta * t) - 1))
"""Λ(t) of Corollary 7."""
SIGMA_TILDE2 = rho**2 * (sp.exp(2 * theta * t) - 1) / theta
"""σ̃² of P §5.1: the variance of the Gaussian mechanism with the OU mechanism's RDP."""


# =====================================================================================================================
# Shared numerics: the semigroup's laws, neighbouring outputs, Gaussian divergences, quadrature with an error
# =====================================================================================================================


def ou_law(theta_, rho_, time) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(e^{−θt}, v(t)): P_t(x) = N(e^{−θt} x, v(t) I) with v(t) = ρ²(1 − e^{−2θt})/θ; θ = 0 is its limit 2ρ²t.

    >>> [mpmath.nstr(v, 12) for v in ou_law(0, 1, mpmath.mpf(3))]         # Brownian motion: N(x, 2t)
    ['1.0', '6.0']
    """
    if theta_ == 0:
        return mpmath.mpf(1), 2 * rho_**2 * time
    return mpmath.exp(-theta_ * time), -rho_**2 * mpmath.expm1(-2 * theta_ * time) / theta_


def quad_estimate(f, *point_sets) -> Estimate:
    """∫ f by ``mpmath.quad`` on each breakpoint set; the value of the first, the error their largest discrepancy
    plus the largest error mpmath reports (two node sets, so a piece that is not resolved shows up)."""
    runs = [mpmath.quad(f, pts, error=True) for pts in point_sets]
    value = runs[0][0]
    error = max(abs(v - value) for v, _ in runs) + max(e for _, e in runs)
    return Estimate(value, error, "quadrature")


def _coordinate():
    return st.floats(-3, 3, allow_nan=False, allow_infinity=False, allow_subnormal=False)


def pair_structure(max_dim: int = 3):
    """Draws ``{"x": [...], "u": [...], "y": [...]}`` in ℝ^k, k ≤ max_dim: a point, a direction, a query point."""

    def of_dim(k):
        vec = st.lists(_coordinate(), min_size=k, max_size=k)
        return st.fixed_dictionaries({"x": vec, "u": vec.filter(lambda v: sum(e * e for e in v) > 0.01), "y": vec})

    return st.integers(1, max_dim).flatmap(of_dim)


def neighbours(p) -> tuple[list, list, list]:
    """(x, x', y) with ‖x − x'‖ = Δ: from the drawn structure, else x = 0, x' = Δ, y = 0 on the line.

    >>> x_, xp, _ = neighbours({"Delta": mpmath.mpf(5), "structure": {"x": [1, 1], "u": [3, 4], "y": [0, 0]}})
    >>> [mpmath.nstr(v, 6) for v in xp]
    ['4.0', '5.0']
    """
    delta = p["Delta"]
    drawn = p.get("structure")
    if drawn is None:
        return [mpmath.mpf(0)], [delta], [mpmath.mpf(0)]
    x_ = [to_mpf(v) for v in drawn["x"]]
    u = [to_mpf(v) for v in drawn["u"]]
    norm = mpmath.sqrt(mpmath.fsum(e * e for e in u))
    return x_, [a + delta * e / norm for a, e in zip(x_, u)], [to_mpf(v) for v in drawn["y"]]


def isotropic_renyi(means, means_p, variance, a) -> Estimate:
    """R_α(N(m, vI) ‖ N(m', vI)) on ℝ^k: the sum over coordinates (the laws are products) of 1-D divergences."""
    sd = mpmath.sqrt(variance)
    parts = [divergences.renyi(Gaussian(m, sd), Gaussian(mp, sd), a) for m, mp in zip(means, means_p)]
    return Estimate(mpmath.fsum(e.value for e in parts), mpmath.fsum(e.error for e in parts), parts[0].method)


def semigroup_renyi(theta_, rho_, p) -> Estimate:
    """R_α(P_t(x) ‖ P_t(x')) for the drawn neighbours, P the OU(θ, ρ) semigroup (θ = 0: Brownian motion)."""
    x_, xp, _ = neighbours(p)
    a, v = ou_law(theta_, rho_, p["t"])
    return isotropic_renyi([a * e for e in x_], [a * e for e in xp], v, p["alpha"])


def intrinsic_sensitivity(theta_, rho_, p) -> Estimate:
    """∫_t^∞ κ_{x,x'}(s) ds by quadrature, with κ(s) = Γ(log p_s(x, ·)/p_s(x', ·)) at the drawn y (P §5).

    Γ(h) = ρ²‖∇h‖² (θ = 0, ρ = 1: the Γ of Example 4), and the y-gradient of the log-ratio is the difference of the
    two Gaussian scores ∇_y log N(y; m, vI) = (m − y)/v. Γ(log r) does not depend on y for these kernels
    (proofs.balle19.diffusions.EX5_KAPPA, COR7_KAPPA), so its value at y is the supremum κ.
    """
    x_, xp, y_ = neighbours(p)

    def kappa_at(time):
        a, v = ou_law(theta_, rho_, time)
        return rho_**2 * mpmath.fsum(((a * e - w) / v - (a * ep - w) / v) ** 2 for e, ep, w in zip(x_, xp, y_))

    # Breakpoints at the scale where the kernel departs from the Brownian one (s ~ 1/θ): a κ whose decay changes
    # there is resolved by both node sets.
    start = p["t"]
    scale = 1 / theta_ if theta_ > 0 else start
    return quad_estimate(kappa_at, [start, start + scale, mpmath.inf], [start, 2 * start + 1, mpmath.inf])


def gaussian_window() -> mpmath.mpf:
    """L with e^{−L²/2} < 10^{−(dps+20)}: a standard normal puts no visible mass beyond ±L."""
    return mpmath.sqrt(2 * (mpmath.mp.dps + 20) * mpmath.log(10))


def mse_by_quadrature(norm_f, a, variance, dim) -> Estimate:
    """E‖f − (a f + N(0, w I))‖² on ℝ^d with f = ‖f‖ e_1, integrating the definition over a standard normal ζ: the
    first coordinate contributes ((1 − a)‖f‖ − √w ζ)², each of the d − 1 others w ζ² (linearity of expectation).

    The integral runs over ζ ∈ [−L, L] (:func:`gaussian_window`); the Gaussian tails beyond, bounded with the
    Mills ratio (∫_L^∞ φ ≤ φ(L)/L, ∫_L^∞ ζφ = φ(L), ∫_L^∞ ζ²φ ≤ (L + 1/L)φ(L)), are added to the error.

    >>> print(mpmath.nstr(mse_by_quadrature(2, mpmath.mpf(1) / 2, mpmath.mpf(3) / 10, 5).value, 20))  # 1 + 5·0.3
    2.5
    """
    bias, sd, lim = (1 - a) * norm_f, mpmath.sqrt(variance), gaussian_window()

    def integrand(u):
        return ((bias - sd * u) ** 2 + (dim - 1) * variance * u**2) * mpmath.npdf(u)

    body = quad_estimate(integrand, [-lim, 0, lim], [-lim, -1, 2, lim])
    phi = mpmath.npdf(lim)
    tails = 2 * (bias**2 * phi / lim + 2 * abs(bias) * sd * phi + dim * variance * (lim + 1 / lim) * phi)
    return Estimate(body.value, body.error + tails, "quadrature")


def mse_bias_variance(norm_f, a, variance, dim) -> mpmath.mpf:
    """E‖f − (a f + N(0, w I))‖² = ‖(1 − a) f‖² + d w: the squared bias plus the trace of the covariance (eq. (4),
    checked against the integral of the definition in balle19.eq4)."""
    return (1 - a) ** 2 * norm_f**2 + dim * variance


# =====================================================================================================================
# The semigroup property (P §5)
# =====================================================================================================================


def _chapman_kolmogorov(p):
    """(∫ p_t(x, z) p_s(z, y) dz by quadrature, p_{t+s}(x, y)) for the 1-D OU kernel (θ = 0: Brownian motion)."""
    th, rh, x_, y_ = p["theta"], p["rho"], p["x"], p["y"]
    (a1, v1), (a2, v2) = ou_law(th, rh, p["t"]), ou_law(th, rh, p["s"])
    sd1, sd2 = mpmath.sqrt(v1), mpmath.sqrt(v2)

    def integrand(w):
        return mpmath.npdf(w, a1 * x_, sd1) * mpmath.npdf(y_, a2 * w, sd2)

    # The integrand is a Gaussian bump in z (a product of two Gaussian densities): integrate over its centre ± L
    # widths and add the tail mass beyond, 2·peak·width·e^{−L²/2}/L, to the error.
    precision = 1 / v1 + a2**2 / v2
    centre, width = (a1 * x_ / v1 + a2 * y_ / v2) / precision, 1 / mpmath.sqrt(precision)
    lim = gaussian_window() * width
    body = quad_estimate(integrand, [centre - lim, centre, centre + lim],
                         [centre - lim, centre - width, centre + 2 * width, centre + lim])
    tails = 2 * integrand(centre) * width * mpmath.exp(-(lim / width) ** 2 / 2) * width / lim
    a, v = ou_law(th, rh, p["t"] + p["s"])
    return Estimate(body.value, body.error + tails, body.method), mpmath.npdf(y_, a * x_, mpmath.sqrt(v))


# P §5: P_s P_t = P_{t+s}, so that P_s ∘ M_t^f = M_{t+s}^f. For the Gaussian kernels this is the Chapman–Kolmogorov
# equation, checked pointwise by quadrature; kernels on ℝ^k are products of these. The variance identity behind it
# is proofs.balle19.diffusions.OU_SEMIGROUP_VARIANCE (and BM_SEMIGROUP_VARIANCE).
SEMIGROUP = Theorem(
    id="balle19.semigroup",
    title="Semigroup property of the Brownian and Ornstein-Uhlenbeck kernels (Chapman-Kolmogorov)",
    source=Source(P_SEED, "Section 5 (semigroup property), Example 4, Section 5.1"),
    statement=sp.Eq(sp.Integral(p_t(t, x, z) * p_t(s, z, y), (z, -sp.oo, sp.oo)), p_t(t + s, x, y)),
    evaluator=_chapman_kolmogorov,
    parameters=(THETA0, RHO, T, Param(s, POS, sample=(0.02, 3)), Param(x, sp.Reals, sample=(-2, 2)),
                Param(y, sp.Reals, sample=(-2, 2))),
    tight_everywhere=True,
    examples=({"theta": 0, "rho": 1, "t": 0.5, "s": 1.5, "x": 1, "y": -1},   # Example 4's Brownian motion
              {"theta": 1, "rho": 1, "t": 0.3, "s": 0.02, "x": 2, "y": 1.9}),
    quantity_latex=r"\int p_t(x, z)\, p_s(z, y)\, dz,\ p_t(x, \cdot) \text{ the density of } "
                   r"\mathcal{N}\left(e^{-\theta t}x, \frac{\rho^2}{\theta}(1 - e^{-2\theta t})\right)",
    notes="theta = 0 is the Brownian motion with variance 2 rho^2 t (Example 4: rho = 1). Symbolic side: "
          "proofs.balle19.diffusions OU_SEMIGROUP_MEAN, OU_SEMIGROUP_VARIANCE, BM_SEMIGROUP_VARIANCE.",
    default_examples=3,
)

# =====================================================================================================================
# Example 4 (Brownian motion), Theorem 6, Lemma 19, Example 5
# =====================================================================================================================


def _bm_renyi(p):
    return semigroup_renyi(0, 1, p)


# P Example 4: M_t^f(D) = N(f(D), 2t I) is (α, αΔ²/(4t))-RDP; equality for every pair with ‖x − x'‖ = Δ.
EXAMPLE_4 = Theorem(
    id="balle19.ex4",
    title="Brownian motion mechanism: exact Renyi DP alpha Delta^2/(4t)",
    source=Source(P_SEED, "Example 4"),
    statement=sp.Eq(Renyi(_PT, _PTP, alpha), alpha * Delta**2 / (4 * t)),
    witness=_bm_renyi,
    parameters=(ALPHA, DELTA, T),
    structure=pair_structure,
    structure_latex=r"P_t(x) = \mathcal{N}(x, 2tI),\ x, x' \in \mathbb{R}^k,\ \|x - x'\| = \Delta",
    tight_everywhere=True,
    examples=({"alpha": 2, "Delta": 1, "t": 0.5},),
    notes="L = Laplacian, Gamma(f, g) = <grad f, grad g>, the diffusion property and the kernel's symmetry are "
          "derivations in proofs.balle19.diffusions (EX4_*). Typo E10: the chain-rule display starts 'Lf = ...' "
          "where it means 'L phi(f) = ...' (FACTS, e10_chain_rule_left_side).",
)

_INTRINSIC = sp.Integral(kappa(s), (s, t, sp.oo))


def _theorem6_evaluate(p):
    renyi = semigroup_renyi(p["theta"], p["rho"], p)
    sens = intrinsic_sensitivity(p["theta"], p["rho"], p)
    return renyi, Estimate(p["alpha"] * sens.value, p["alpha"] * sens.error, sens.method)


# P Theorem 6 on the two semigroups with closed-form kernels: R_α(P_t(x) ‖ P_t(x')) ≤ α ∫_t^∞ κ_{x,x'}(s) ds, with
# the integral computed the paper's way (Γ of the kernels' log-ratio, integrated by quadrature), independently of
# the exact divergence. Γ(log r_t) is constant in y here, so the proof's inequality is an equality: tight.
THEOREM_6 = Theorem(
    id="balle19.thm6",
    title="Heat-flow Renyi DP of diffusion mechanisms (Brownian and Ornstein-Uhlenbeck instances)",
    source=Source(P_SEED, "Theorem 6"),
    statement=sp.Le(Renyi(_PT, _PTP, alpha), alpha * _INTRINSIC),
    evaluator=_theorem6_evaluate,
    parameters=(ALPHA, DELTA, T, THETA0_KAPPA, RHO),
    structure=pair_structure,
    structure_latex=r"P \text{ the OU}(\theta, \rho) \text{ semigroup } (\theta = 0: \text{Brownian motion}),\ "
                    r"\kappa_{x,x'}(s) = \sup_y \Gamma\left(\log \frac{p_s(x, y)}{p_s(x', y)}\right),\ "
                    r"\|x - x'\| = \Delta",
    tight_everywhere=True,
    examples=({"alpha": 2, "Delta": 1, "t": 0.3, "theta": 1, "rho": 1},       # catalogue: 1.2163692151608707947
              {"alpha": 3, "Delta": 2, "t": 0.5, "theta": 0, "rho": 1}),      # Example 4/5: 6
    notes="Instances only: the general statement under Assumption 1 is balle19.thm6.general (symbolic only). "
          "Right side: alpha times the intrinsic sensitivity by quadrature of kappa; left side: the exact Renyi "
          "divergence of the Gaussian outputs (symdp.divergences).",
    default_examples=3,
)

# P Theorem 6 in general: every Markov semigroup satisfying Assumption 1.
THEOREM_6_GENERAL = Theorem(
    id="balle19.thm6.general",
    title="Heat-flow Renyi DP of diffusion mechanisms (any semigroup satisfying Assumption 1)",
    source=Source(P_SEED, "Theorem 6 (proof: appendix C)"),
    statement=sp.Le(Renyi(_Tex("M_t^f(D)"), _Tex("M_t^f(D')"), alpha), alpha * _Tex(r"\Lambda(t)")),
    symbolic_only="Assumption 1 quantifies over all symmetric diffusion semigroups on R^d, which have no finite "
                  "description; only the Brownian and OU semigroups have closed-form kernels here (their "
                  "instances are balle19.thm6). The pointwise identities of the proof are checked in "
                  "proofs.balle19.diffusions (EQ7-EQ9, THM6_*); the integration by parts and the Fokker-Planck "
                  "equation are the cited standard facts of [1] and are not checked.",
)


def _lemma19_sides(p):
    """(φ(t), exp(c ∫_t^∞ κ)) for φ(s) = 1 + A e^{−βs}, κ(s) = −φ'(s)/(c φ(s)) + b e^{−γs}, κ by quadrature."""
    cc, a, bt, bb, gm = p["c"], p["A"], p["beta"], p["b"], p["gamma"]

    def kappa_at(u):
        e = a * mpmath.exp(-bt * u)
        return bt * e / (cc * (1 + e)) + bb * mpmath.exp(-gm * u)

    start = p["t"]
    integral = quad_estimate(kappa_at, [start, mpmath.inf], [start, start + 1, mpmath.inf])
    bound = mpmath.exp(cc * integral.value)
    return 1 + a * mpmath.exp(-bt * start), Estimate(bound, bound * cc * integral.error * 2, "quadrature")


# A Lemma 19: φ > 0, φ(s) → 1 and φ' ≥ −cκφ on [t, ∞) give φ(t) ≤ exp(c ∫_t^∞ κ). Checked on a parametric family
# that satisfies the hypotheses by construction: φ(s) = 1 + A e^{−βs} (positive, → 1) and the positive
# κ = −φ'/(cφ) + b e^{−γs} (so φ' = −cκφ + cb e^{−γs} φ ≥ −cκφ); equality when b = 0 (no slack).
LEMMA_19 = Theorem(
    id="balle19.lem19",
    title="Gronwall-type bound of Lemma 19",
    source=Source(A_SEED, "Lemma 19"),
    statement=sp.Le(varphi(t0), sp.exp(c * sp.Integral(kappa(s), (s, t0, sp.oo)))),
    evaluator=_lemma19_sides,
    parameters=(Param(c, POS, sample=(0.1, 5)), Param(t0, sp.Interval(0, sp.oo), sample=(0, 5)),
                Param(A, POS, sample=(0.01, 5)), Param(beta, POS, sample=(0.1, 3)),
                Param(b, sp.Interval(0, sp.oo), sample=(0, 2)), Param(gamma, POS, sample=(0.1, 3))),
    structure_latex=r"\varphi(s) = 1 + A e^{-\beta s},\ \kappa(s) = \frac{A \beta e^{-\beta s}}"
                    r"{c\,(1 + A e^{-\beta s})} + b e^{-\gamma s}",
    tight_at=({"c": 2, "t": 0.5, "A": 3, "beta": 1, "b": 0, "gamma": 1},
              {"c": 0.5, "t": 0, "A": 0.2, "beta": 2.5, "b": 0, "gamma": 1}),
    notes="Loose by exp(c b e^{-gamma t}/gamma) when b > 0; equality for b = 0 (the differential inequality is an "
          "equality, as for the Brownian and OU semigroups). Equality case symbolically: "
          "proofs.balle19.diffusions.LEMMA19_EQUALITY.",
    default_examples=5,
)

# A, proof of Theorem 6: the identity Γ(log r_t) = (q_t Γ(r_t, p_t) − p_t Γ(r_t, q_t))/p_t², step by step as
# printed, for generic positive p_t, q_t and Γ(f, g) = c⟨∇f, ∇g⟩. No distribution is involved: an exact identity.
THEOREM_6_IDENTITIES = Theorem(
    id="balle19.thm6.identities",
    title="The carre du champ identities of Theorem 6's proof",
    source=Source(A_SEED, "proof of Theorem 6, eqs. (7)-(9) and the Gamma(log r_t) display"),
    statement=sp.Eq(proofs.THM6_GAMMA_LOG_RATIO.start, proofs.THM6_GAMMA_LOG_RATIO.end),
    symbolic_only="identities of the calculus of Gamma, exact in SymPy for generic p_t, q_t; there is no "
                  "distribution to evaluate",
    derivation=proofs.THM6_GAMMA_LOG_RATIO,
    notes="Eqs. (7)-(9), the pointwise steps of d varphi/dt (THM6_DT_REARRANGE, THM6_DT_INTEGRAND) and the final "
          "step with Lemma 19 (THM6_FINAL_STEP) are further derivations in proofs.balle19.diffusions.",
)


def _bm_intrinsic(p):
    return intrinsic_sensitivity(0, 1, p)


# P Example 5: for Brownian motion, Γ(log p_t(x, y)/p_t(x', y)) = ‖x − x'‖²/(4t²), ∫_t^∞ s^{−2} ds = 1/t, so the
# intrinsic sensitivity is Λ(t) = Δ²/(4t) and Theorem 6 gives back Example 4. The left side is computed the
# paper's way, numerically (Γ of the kernels' log-ratio, integrated by quadrature).
EXAMPLE_5 = Theorem(
    id="balle19.ex5",
    title="Brownian motion via Theorem 6: intrinsic sensitivity Delta^2/(4t)",
    source=Source(P_SEED, "Example 5"),
    statement=sp.Eq(_INTRINSIC, Delta**2 / (4 * t)),
    witness=_bm_intrinsic,
    parameters=(DELTA, T),
    structure=pair_structure,
    structure_latex=r"\kappa_{x,x'}(s) = \sup_y \|\nabla_y \log \frac{p_s(x, y)}{p_s(x', y)}\|^2,\ "
                    r"p_s(x, y) \propto e^{-\|x - y\|^2/(4s)},\ \|x - x'\| = \Delta",
    tight_everywhere=True,
    examples=({"Delta": 1, "t": 0.5},),
    notes="Symbolic side: proofs.balle19.diffusions EX5_KAPPA, EX5_LAMBDA, EX5_RDP. The RDP equality "
          "R_alpha = alpha Lambda(t) is balle19.ex4 and the theta = 0 instances of balle19.thm6.",
    default_examples=6,
)

# =====================================================================================================================
# The Ornstein–Uhlenbeck mechanism (P §5.1), Corollary 7
# =====================================================================================================================


def sde_law(theta_, coefficient, time) -> tuple[mpmath.mpf, Estimate]:
    """(mean factor, variance) of X_t for dX = −θX dt + c dW: X_t = e^{−θt}X_0 + c ∫_0^t e^{−θ(t−u)} dW_u, so the
    variance is c² ∫_0^t e^{−2θ(t−u)} du (Itô isometry), integrated here by quadrature, not from a closed form."""
    variance = quad_estimate(lambda u: coefficient**2 * mpmath.exp(-2 * theta_ * (time - u)), [0, time],
                             [0, time / 3, time])
    return mpmath.exp(-theta_ * time), variance


def _sde_renyi(coefficient_of):
    def witness(p):
        x_, xp, _ = neighbours(p)
        a, var = sde_law(p["theta"], coefficient_of(p["rho"]), p["t"])
        renyi = isotropic_renyi([a * e for e in x_], [a * e for e in xp], var.value, p["alpha"])
        # R_α is proportional to 1/v here, so a relative error of v is one of R_α
        return Estimate(renyi.value, renyi.error + renyi.value * var.error / var.value, renyi.method)

    return witness


_SDE_LAWS = (_Tex("X_t^{x}"), _Tex("X_t^{x'}"))
_OU_PARAMS = (ALPHA, DELTA, THETA, RHO, T)

# P §5.1 as printed: the OU mechanism is the law at time t of dX_t = −θX_t dt + √(2ρ) dW_t started at f(D), and
# Corollary 7 claims it is (α, αΛ(t))-RDP. Taken literally, the SDE has variance ρ(1 − e^{−2θt})/θ, not the printed
# ρ²(1 − e^{−2θt})/θ (erratum E3), and for ρ > 1 the claim fails.
OU_PRINTED_SDE = Theorem(
    id="balle19.ou",
    title="OU mechanism defined by the printed SDE dX = -theta X dt + sqrt(2 rho) dW (as printed)",
    source=Source(P_SEED, "Section 5.1 (the OU SDE) with Corollary 7"),
    statement=sp.Le(Renyi(*_SDE_LAWS, alpha), alpha * LAMBDA_OU),
    witness=_sde_renyi(lambda r: mpmath.sqrt(2 * r)),
    parameters=_OU_PARAMS,
    structure=pair_structure,
    structure_latex=r"dX_t = -\theta X_t\,dt + \sqrt{2\rho}\,dW_t,\ X_0 = x \text{ or } x',\ \|x - x'\| = \Delta",
    erratum=Erratum(
        location="P Section 5.1, the SDE of the Ornstein-Uhlenbeck process",
        printed=r"dX_t = -\theta X_t\,dt + \sqrt{2\rho}\,dW_t",
        corrected=r"dX_t = -\theta X_t\,dt + \sqrt{2}\,\rho\,dW_t",
        counterexample={"alpha": 2, "Delta": 1, "theta": 1, "rho": 4, "t": 1},  # catalogue E3: R/α 0.019565 > 0.004891
        corrected_id="balle19.ou.corrected",
        note="Catalogue erratum E3. With sqrt(2 rho) the variance is rho(1 - e^{-2 theta t})/theta (dsolve: "
             "proofs FACTS e3_printed_sde_variance), the generator rho Laplacian - theta <x, grad>; every other "
             "formula of the paper (P_t, lambda, L, Gamma, Corollary 7, eq. (4), Theorem 8) needs sqrt(2) rho. "
             "The literal reading satisfies Corollary 7 only for rho <= 1.",
    ),
    notes="Witness: the Ito-isometry variance by quadrature, then the exact Gaussian Renyi divergence.",
    default_examples=30,
)

OU_CORRECTED_SDE = Theorem(
    id="balle19.ou.corrected",
    title="OU mechanism defined by the corrected SDE dX = -theta X dt + sqrt(2) rho dW",
    source=Source(P_SEED, "Section 5.1 (the OU SDE, corrected) with Corollary 7"),
    statement=sp.Eq(Renyi(*_SDE_LAWS, alpha), alpha * LAMBDA_OU),
    witness=_sde_renyi(lambda r: mpmath.sqrt(2) * r),
    parameters=_OU_PARAMS,
    structure=pair_structure,
    structure_latex=r"dX_t = -\theta X_t\,dt + \sqrt{2}\rho\,dW_t,\ X_0 = x \text{ or } x',\ \|x - x'\| = \Delta",
    tight_everywhere=True,
    examples=({"alpha": 2, "Delta": 1, "theta": 1, "rho": 4, "t": 1},),
    notes="The law of X_t is then the printed P_t(x) (proofs.balle19.diffusions.OU_ITO_VARIANCE), and the RDP is "
          "exactly alpha Lambda(t).",
    default_examples=30,
)


def _ou_renyi(p):
    return semigroup_renyi(p["theta"], p["rho"], p)


# P Corollary 7 (proof: A): the OU mechanism M_t^f(D) = P_t(f(D)) is (α, αΛ(t))-RDP, Λ(t) = θΔ²/(2ρ²(e^{2θt} − 1)).
# Exact for every pair with ‖x − x'‖ = Δ.
COROLLARY_7 = Theorem(
    id="balle19.cor7",
    title="Ornstein-Uhlenbeck mechanism: exact Renyi DP alpha Lambda(t)",
    source=Source(P_SEED, "Corollary 7"),
    statement=sp.Eq(Renyi(_PT, _PTP, alpha), alpha * LAMBDA_OU),
    witness=_ou_renyi,
    parameters=_OU_PARAMS,
    structure=pair_structure,
    structure_latex=r"P_t(x) = \mathcal{N}\left(e^{-\theta t}x, \frac{\rho^2}{\theta}(1 - e^{-2\theta t}) I\right),"
                    r"\ \|x - x'\| = \Delta",
    tight_everywhere=True,
    examples=({"alpha": 2, "Delta": 1, "theta": 1, "rho": 1, "t": 0.3},       # catalogue: 1.2163692151608707947
              {"alpha": 5, "Delta": 0.7, "theta": 0.5, "rho": 2, "t": 1}),    # catalogue: 0.089115183239365608734
    notes="Proof identities: proofs.balle19.diffusions COR7_LOG_RATIO (erratum E8: the printed log-ratio misses the "
          "y-independent term -theta(|x|^2 - |x'|^2)/(2 rho^2(e^{2 theta t} - 1)), which does not change kappa), "
          "COR7_KAPPA, COR7_INTEGRAL, COR7_LAMBDA, COR7_EXACT.",
)

# =====================================================================================================================
# Mean squared errors: eq. (4), the (post-processed) Gaussian mechanism, Theorem 8
# =====================================================================================================================

E_OU = (1 - sp.exp(-theta * t)) ** 2 * F**2 + d * rho**2 / theta * (1 - sp.exp(-2 * theta * t))
E_GM = d * SIGMA_TILDE2


def _ou_mse_quadrature(p):
    a, v = ou_law(p["theta"], p["rho"], p["t"])
    return mse_by_quadrature(p["F"], a, v, p["d"])


def _ou_mse(p):
    a, v = ou_law(p["theta"], p["rho"], p["t"])
    return mse_bias_variance(p["F"], a, v, p["d"])


_MSE_OU = _Tex(r"\mathbb{E}\|f(D) - M_t^f(D)\|^2")

# P eq. (4): E‖f(D) − M_t^f(D)‖² = (1 − e^{−θt})²‖f(D)‖² + dρ²(1 − e^{−2θt})/θ (bias² plus the trace of the
# covariance), F = ‖f(D)‖; the expectation is integrated numerically.
EQ_4 = Theorem(
    id="balle19.eq4",
    title="Mean squared error of the Ornstein-Uhlenbeck mechanism",
    source=Source(P_SEED, "eq. (4)"),
    statement=sp.Eq(_MSE_OU, E_OU),
    witness=_ou_mse_quadrature,
    parameters=(THETA, RHO, T, DIM, NORM_F),
    structure_latex=r"f(D) \in \mathbb{R}^d,\ \|f(D)\| = F",
    tight_everywhere=True,
    examples=({"theta": 1, "rho": 1, "t": 0.5, "d": 3, "F": 2},),
    notes="Uses the printed variance rho^2(1 - e^{-2 theta t})/theta (see balle19.ou, erratum E3). "
          "Symbolic side: proofs.balle19.diffusions MSE_ONE_COORDINATE, EQ4.",
    default_examples=5,
)


def _pgm_mse(p):
    sigma2 = p["rho"] ** 2 * mpmath.expm1(2 * p["theta"] * p["t"]) / p["theta"]
    beta_star = p["R"] ** 2 / (p["R"] ** 2 + p["d"] * sigma2)
    return mse_bias_variance(p["F"], beta_star, beta_star**2 * sigma2, p["d"])


# P §5.1: the post-processed Gaussian mechanism D ↦ β(f(D) + N(0, σ̃²I)) with the β minimising the worst-case MSE
# under ‖f(D)‖ ≤ R, β* = R²/(R² + dσ̃²), has E_PGM ≤ E_GM (1 + dσ̃²/R²)^{−1}, E_GM = dσ̃²; equality at ‖f(D)‖ = R.
GM_PGM = Theorem(
    id="balle19.gm-pgm",
    title="Post-processed Gaussian mechanism: E_PGM <= E_GM (1 + d sigma~^2/R^2)^{-1}",
    source=Source(P_SEED, "Section 5.1 (E_GM, sigma~^2 and the post-processed Gaussian mechanism)"),
    statement=sp.Le(_Tex(r"\mathbb{E}\|f(D) - \beta^*(f(D) + Z)\|^2"), E_GM / (1 + d * SIGMA_TILDE2 / R**2)),
    witness=_pgm_mse,
    parameters=(THETA, RHO, T, DIM, RADIUS, NORM_F),
    conditions=(sp.Le(F, R),),
    structure_latex=r"Z \sim \mathcal{N}(0, \tilde\sigma^2 I),\ \tilde\sigma^2 = \frac{\rho^2(e^{2\theta t}-1)}{\theta},"
                    r"\ \beta^* = \frac{R^2}{R^2 + d\tilde\sigma^2},\ \|f(D)\| = F",
    tight_at=({"theta": 1, "rho": 1, "t": 0.5, "d": 3, "R": 2, "F": 2},
              {"theta": 0.2, "rho": 3, "t": 2, "d": 1, "R": 0.5, "F": 0.5}),
    notes="Loose for ||f(D)|| < R (the bound is the worst case). The Gaussian mechanism with variance sigma~^2 has "
          "RDP alpha Delta^2/(2 sigma~^2) = alpha Lambda(t), the OU mechanism's (proofs.balle19.diffusions "
          "GM_CALIBRATION); beta* and its value: PGM_OPTIMAL_BETA, PGM_VALUE.",
)


_THM8A_PARAMS = (THETA, RHO, Param(t0, sp.Interval(0, sp.oo), sample=(0, 5)), Param(d, sp.Range(1, sp.oo),
                 sample=(1, 10)), RADIUS, NORM_F)
_E_GM0 = E_GM.subs(t, t0)


def theorem_8a(hypothesis_factor=1, ident="balle19.thm8.a", title=None, **extra) -> Theorem:
    """Theorem 8 (a) with the hypothesis θR² ≤ 4dρ²·``hypothesis_factor`` (1: as printed)."""
    return Theorem(
        id=ident,
        title=title or "Ornstein-Uhlenbeck beats the Gaussian mechanism: E_OU <= E_GM for all t >= 0",
        source=Source(P_SEED, "Theorem 8, first part"),
        statement=sp.Le(_MSE_OU.subs(t, t0), _E_GM0),
        witness=_ou_mse,
        parameters=_THM8A_PARAMS,
        conditions=(sp.Le(theta * R**2, 4 * d * rho**2 * hypothesis_factor), sp.Le(F, R)),
        structure_latex=r"\|f(D)\| = F,\ \mathcal{E}_{\mathrm{GM}} = d\tilde\sigma^2",
        **extra,
    )


# P Theorem 8 (a) (proof: A): if ‖f(D)‖ ≤ R and θR² ≤ 4dρ², then E_OU(θ, ρ, t) ≤ E_GM(θ, ρ, t) for all t ≥ 0.
# Equality at t = 0, and the ratio tends to 1 as t → 0 at the boundary θR² = 4dρ², ‖f‖ = R (E_GM − E_OU =
# θt²(4dρ² − θR²) + O(t³): proofs.balle19.diffusions.THM8_SHARP), so 1% tightenings are refuted at small t.
THEOREM_8_A = theorem_8a(
    tight_at=({"theta": 1, "rho": 1, "t": 0, "d": 1, "R": 2, "F": 2},),
    examples=({"theta": 1, "rho": 1, "t": 0.001, "d": 1, "R": 2, "F": 2},
              {"theta": 0.25, "rho": 0.5, "t": 0.01, "d": 4, "R": 4, "F": 4}),
    notes="Equality only at t = 0; sup_t E_OU/E_GM = 1 approached as t -> 0 on the boundary theta R^2 = 4 d rho^2, "
          "||f|| = R. The hypothesis is sharp: balle19.thm8.a.relaxed (theorem_8a_relaxed(eta)) relaxes it to "
          "theta R^2 <= 4 d rho^2 (1 + eta) and is violated at small t. lim E_OU/E_GM = 0 as t -> oo: "
          "proofs.balle19.diffusions.THM8_LIMIT.",
)


def theorem_8a_relaxed(eta_value: float = 0.0201, t_star: float = 0.00984) -> Theorem:
    """Theorem 8 (a) with the hypothesis relaxed to θR² ≤ 4dρ²(1 + η): a tightness witness, NOT a paper erratum.

    Refuted at θ = ρ = d = 1, ‖f‖ = R = 2√(1 + η), t ≈ the maximiser of E_OU/E_GM (pinned). The default η =
    0.0201 makes R = 2.02 exact in decimal, so the pinned point satisfies the relaxed hypothesis exactly.
    """
    radius = float(2 * mpmath.sqrt(1 + mpmath.mpf(str(eta_value))))
    return theorem_8a(
        hypothesis_factor=1 + sp.Rational(str(eta_value)),
        ident="balle19.thm8.a.relaxed",
        title=f"Theorem 8 (a) with the hypothesis relaxed by eta = {eta_value} (refuted: the hypothesis is sharp)",
        erratum=Erratum(
            location="Theorem 8, first part: the hypothesis theta R^2 <= 4 d rho^2",
            printed=f"theta R^2 <= 4 d rho^2 (1 + {eta_value})  (relaxed on purpose)",
            corrected="theta R^2 <= 4 d rho^2, as printed",
            counterexample={"theta": 1, "rho": 1, "t": t_star, "d": 1, "R": radius, "F": radius},
            corrected_id="balle19.thm8.a",
            kind="sharpness",
        ),
        notes="Not a paper erratum: a copy of balle19.thm8.a with a weaker hypothesis, expected violated.",
    )


THEOREM_8_A_RELAXED = theorem_8a_relaxed()


# P Theorem 8 (b): θ = log(1 + dΔ²/(2ϵR²)), ρ² = θΔ²/(2ϵ(e^{2θ} − 1)).
A_CAL = d * Delta**2 / (2 * eps_pos * R**2)


def calibrated(p) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(θ, ρ) of Theorem 8 (b) from (d, Δ, ϵ, R)."""
    a = p["d"] * p["Delta"] ** 2 / (2 * p["epsilon"] * p["R"] ** 2)
    th = mpmath.log1p(a)
    return th, mpmath.sqrt(th * p["Delta"] ** 2 / (2 * p["epsilon"] * mpmath.expm1(2 * th)))


def _theorem8b_ratio(p):
    th, rh = calibrated(p)
    e_gm = p["d"] * rh**2 * mpmath.expm1(2 * th) / th
    return _ou_mse({**p, "theta": th, "rho": rh, "t": 1}) / e_gm


_CAL_PARAMS = (Param(d, sp.Range(1, sp.oo), sample=(1, 50)), Param(Delta, POS, sample=(0.05, 3)), EPS, RADIUS)
_CAL_LATEX = r"\theta = \log\left(1 + \frac{d\Delta^2}{2\epsilon R^2}\right),\ " \
             r"\rho^2 = \frac{\theta\Delta^2}{2\epsilon(e^{2\theta} - 1)}"

# P Theorem 8 (b) (proof: A): with the calibrated (θ, ρ), E_OU(θ, ρ, 1)/E_GM(θ, ρ, 1) ≤ (1 + dΔ²/(2ϵR²))^{−1};
# equality at ‖f(D)‖ = R. It is proved directly at t = 1 (the calibration need not satisfy part (a)'s hypothesis).
THEOREM_8_B = Theorem(
    id="balle19.thm8.b",
    title="Calibrated OU mechanism at t = 1: E_OU/E_GM <= (1 + d Delta^2/(2 epsilon R^2))^{-1}",
    source=Source(P_SEED, "Theorem 8, second part"),
    statement=sp.Le(_Tex(r"\mathcal{E}_{\mathrm{OU}}(\theta, \rho, 1) / \mathcal{E}_{\mathrm{GM}}(\theta, \rho, 1)"),
                    1 / (1 + A_CAL)),
    witness=_theorem8b_ratio,
    parameters=_CAL_PARAMS + (NORM_F,),
    conditions=(sp.Le(F, R),),
    structure_latex=_CAL_LATEX + r",\ \|f(D)\| = F",
    tight_at=(  # catalogue-balle.md balle19.thm8.b: 2/3, 0.0740740..., 0.930232558...
        {"d": 1, "Delta": 1, "epsilon": 1, "R": 1, "F": 1},
        {"d": 10, "Delta": 1, "epsilon": 0.1, "R": 2, "F": 2},
        {"d": 3, "Delta": 0.5, "epsilon": 5, "R": 1, "F": 1},
    ),
    examples=({"d": 1, "Delta": 1, "epsilon": 0.1, "R": 1, "F": 1},),  # theta R^2 > 4 d rho^2: outside part (a)
    notes="Loose for ||f|| < R. Symbolic side: proofs.balle19.diffusions THM8B_EGM, THM8B_EOU.",
)


def _theorem8b_renyi(p):
    th, rh = calibrated(p)
    a, v = ou_law(th, rh, 1)
    return isotropic_renyi([0], [a * p["Delta"]], v, p["alpha"])


# P Theorem 8 (b): the calibrated mechanism M_1^f is (α, αϵ)-RDP (Corollary 7 with Λ(1) = ϵ); exactly.
THEOREM_8_B_RDP = Theorem(
    id="balle19.thm8.b.rdp",
    title="Calibrated OU mechanism at t = 1 is exactly (alpha, alpha epsilon)-RDP",
    source=Source(P_SEED, "Theorem 8, second part"),
    statement=sp.Eq(Renyi(_Tex("P_1(x)"), _Tex("P_1(x')"), alpha), alpha * eps_pos),
    witness=_theorem8b_renyi,
    parameters=(ALPHA,) + _CAL_PARAMS,
    structure_latex=_CAL_LATEX + r",\ \|x - x'\| = \Delta",
    tight_everywhere=True,
    notes="x' - x along e_1 (the other coordinates contribute 0). Symbolic: proofs.balle19.diffusions.THM8B_PRIVACY.",
)


def _theorem8b_left(p):
    """(1 − e^{−θ})²R² + dΔ²/(2ϵ) e^{−2θ} at the calibrated θ: the left end of the proof's last display."""
    th, _ = calibrated(p)
    return (-mpmath.expm1(-th)) ** 2 * p["R"] ** 2 + p["d"] * p["Delta"] ** 2 / (2 * p["epsilon"]) * mpmath.exp(-2 * th)


_THM8B_LEFT = _Tex(r"(1 - e^{-\theta})^2 R^2 + \frac{d\Delta^2}{2\epsilon} e^{-2\theta}")

# A, proof of Theorem 8, last display, as printed: its middle expression has dΔ²/(2ϵR²) where dΔ²/(2ϵ) is meant
# (erratum E7); it is not equal to either end. The theorem is unaffected.
THEOREM_8_B_PROOF_MIDDLE = Theorem(
    id="balle19.thm8.b.proof-middle",
    title="Theorem 8 proof, last display: the middle expression (as printed)",
    source=Source(A_SEED, "proof of Theorem 8, last display"),
    statement=sp.Eq(_THM8B_LEFT, proofs.THM8B_EOU_MIDDLE_PRINTED.subs(proofs.eps, eps_pos)),
    witness=_theorem8b_left,
    parameters=_CAL_PARAMS,
    structure_latex=_CAL_LATEX,
    erratum=Erratum(
        location="A, proof of Theorem 8, last display (middle expression)",
        printed=r"\frac{R^2 (\frac{d\Delta^2}{2\epsilon R^2})^2 + R^4 \frac{d\Delta^2}{2\epsilon R^2}}"
                r"{(R^2 + \frac{d\Delta^2}{2\epsilon})^2}",
        corrected=r"\frac{R^2 (\frac{d\Delta^2}{2\epsilon})^2 + R^4 \frac{d\Delta^2}{2\epsilon}}"
                  r"{(R^2 + \frac{d\Delta^2}{2\epsilon})^2}",
        counterexample={"d": 1, "Delta": 1, "epsilon": 1, "R": 2},  # catalogue E7: printed 11/108, true 4/9
        corrected_id="balle19.thm8.b.proof-middle.corrected",
        note="Catalogue erratum E7; the printed expression is not even dimensionally consistent. The two ends of the "
             "display, and Theorem 8, are correct (proofs.balle19.diffusions.THM8B_EOU).",
    ),
)

THEOREM_8_B_PROOF_MIDDLE_CORRECTED = Theorem(
    id="balle19.thm8.b.proof-middle.corrected",
    title="Theorem 8 proof, last display: the middle expression (corrected)",
    source=Source(A_SEED, "proof of Theorem 8, last display"),
    statement=sp.Eq(_THM8B_LEFT, proofs.THM8B_EOU_MIDDLE_CORRECTED.subs(proofs.eps, eps_pos)),
    witness=_theorem8b_left,
    parameters=_CAL_PARAMS,
    structure_latex=_CAL_LATEX,
    tight_everywhere=True,
    examples=({"d": 1, "Delta": 1, "epsilon": 1, "R": 2},),  # 4/9
)

THEOREMS = [
    SEMIGROUP, EXAMPLE_4, THEOREM_6, THEOREM_6_GENERAL, LEMMA_19, THEOREM_6_IDENTITIES, EXAMPLE_5,
    OU_PRINTED_SDE, OU_CORRECTED_SDE, COROLLARY_7, EQ_4, GM_PGM, THEOREM_8_A, THEOREM_8_A_RELAXED, THEOREM_8_B, THEOREM_8_B_RDP,
    THEOREM_8_B_PROOF_MIDDLE, THEOREM_8_B_PROOF_MIDDLE_CORRECTED,
]
