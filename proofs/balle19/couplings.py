"""Symbolic derivations for Balle, Barthe, Gaboardi, Geumlek, *Privacy Amplification by Mixing and Diffusion
Mechanisms* (NeurIPS 2019): Lemma 16 (the transport operator of a coupling), the Lap2 density (appendix, proof of
Lemma 3, eq. (6)), the limit behind Lemma 3, Example 1's and Example 3's optimal interpolation points (and erratum
E1), the algebra of Theorem 4's proof (φ(L), θ_i), Lemma 18's contraction step (co-coercivity) and its tightness,
and Theorem 5 from Theorem 4 + Lemma 18 (the exponent (n − i + 1)/2, the optimal-path ε_i and its gap on the linear
chain).

Seeds: main text ``../shared/seeds/001_dc25d928cd3b540a.txt`` (P), appendix ``../shared/seeds/000_eb14441fc6376ec7.txt``
(A); catalogue ``../shared/catalogue/catalogue-balle.md``.

Case splits that SymPy cannot decide from assumptions (λ1 ≠ λ2, L ≠ 1) are checked through a substitution given
with the step (``given``): 1/λ1 = a, 1/λ2 = a + k with a, k > 0 encodes λ1 > λ2, and L = 1/(1 + k) encodes L < 1.
Every step still compares the two displayed expressions exactly; the substitution only fixes the branch.

Besides ``DERIVATIONS`` the module exposes ``FACTS``: small exact checks of printed slips (errata) that are not
chains of equalities, each a function returning True when the slip is confirmed.

>>> all(d.check() for d in DERIVATIONS[:1])
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation

# --- symbols -------------------------------------------------------------------------------------------------------
x = sp.Symbol("x", positive=True)  # eq. (6) is derived for x > 0 and extended by symmetry (A, proof of Lemma 3)
t = sp.Symbol("t", real=True)
lambda1, lambda2 = sp.symbols("lambda_1 lambda_2", positive=True)
lam = sp.Symbol("lambda", positive=True)
Delta = sp.Symbol("Delta", positive=True)
alpha = sp.Symbol("alpha", positive=True)
sigma, sigma1, sigma2 = sp.symbols("sigma sigma_1 sigma_2", positive=True)
theta = sp.Symbol("theta", real=True)
L = sp.Symbol("L", positive=True)
r = sp.Symbol("r", integer=True, positive=True)
i, j = sp.symbols("i j", integer=True, nonnegative=True)
_a, _k = sp.symbols("a k", positive=True)  # branch parameters for `given` (rates, gaps)

LAMBDA1_GT = {lambda1: 1 / _a, lambda2: 1 / (_a + _k)}  # λ1 > λ2
LAMBDA1_LT = {lambda1: 1 / (_a + _k), lambda2: 1 / _a}  # λ1 < λ2
L_LT_1 = {L: 1 / (1 + _k)}  # 0 < L < 1


# --- Lemma 16 (A): the transport operator of a coupling -------------------------------------------------------------
_pi, _nu = sp.IndexedBase(r"\pi"), sp.IndexedBase(r"\nu")
_xi, _yi, _zi = sp.symbols("x y z", integer=True)
_n, _m = sp.symbols("n m", integer=True, positive=True)
_MU_X = sp.Sum(_pi[_xi, _zi], (_zi, 1, _m))
"""μ(x) = Σ_z π(x, z): the first marginal of π ∈ 𝒞(μ, ν) on {1..n} × {1..m}."""

LEM16_TRANSPORT = Derivation(
    r"Lemma 16: the transport operator $h_\pi(x, y) = \pi(x, y)/\mu(x)$ of $\pi \in C(\mu, \nu)$ maps $\mu$ to $\nu$",
    sp.Sum(sp.Mul(_MU_X, sp.Mul(_pi[_xi, _yi], sp.Pow(_MU_X, -1), evaluate=False), evaluate=False), (_xi, 1, _n)),
    source="000 (appendix), Lemma 16",
    assumptions=r"$\pi \in C(\mu, \nu)$ on finite spaces; $\mu(x) = \sum_z \pi(x, z)$; $0/0 = 0$",
).step(sp.Sum(_pi[_xi, _yi], (_xi, 1, _n)),
       (r"$\mu(x) h_\pi(x, y) = \pi(x, y)$: cancel $\mu(x) > 0$; where $\mu(x) = 0$ both are 0 ($0/0 = 0$, and $\pi(x, "
        r"y) \le \mu(x)$)"))\
    .step(_nu[_yi], r"the second marginal of $\pi$ is $\nu$", given={_nu[_yi]: sp.Sum(_pi[_xi, _yi], (_xi, 1, _n))})


# --- Lap2: eq. (6) -------------------------------------------------------------------------------------------------
def lap2_neq(z=x, l1=lambda1, l2=lambda2):
    """Eq. (6), first branch (λ1 ≠ λ2), at |x| = z."""
    return sp.Rational(1, 4) * ((1 / (l1 + l2) + 1 / (l1 - l2)) * sp.exp(-z / l1)
                                + (1 / (l1 + l2) - 1 / (l1 - l2)) * sp.exp(-z / l2))


def lap2_eq(z=x, l=lam):
    """Eq. (6), second branch (λ1 = λ2 = λ), at |x| = z."""
    return sp.exp(-z / l) * (l + z) / (4 * l**2)


def convolution_pieces(l1=lambda1, l2=lambda2):
    """The paper's split of ∫ Lap(x−t; λ1) Lap(t; λ2) dt at t = 0 and t = x (x > 0): |x−t| and |t| resolved.

    These are the three integrands of the fourth display of A's proof of Lemma 3.
    """
    f1 = sp.exp(-(l2 * x - (l1 + l2) * t) / (l1 * l2))  # t < 0:      |x-t| = x-t, |t| = -t
    f2 = sp.exp(-(l2 * x + (l1 - l2) * t) / (l1 * l2))  # 0 < t < x:  |x-t| = x-t, |t| = t
    f3 = sp.exp(-(-l2 * x + (l1 + l2) * t) / (l1 * l2))  # t > x:      |x-t| = t-x, |t| = t
    return f1, f2, f3


def convolution(l1=lambda1, l2=lambda2):
    """(1/(4 λ1 λ2)) (∫_{-∞}^0 f1 + ∫_0^x f2 + ∫_x^∞ f3), unevaluated."""
    f1, f2, f3 = convolution_pieces(l1, l2)
    return (sp.Integral(f1, (t, -sp.oo, 0)) + sp.Integral(f2, (t, 0, x)) + sp.Integral(f3, (t, x, sp.oo))) \
        / (4 * l1 * l2)


def _lap2_density_neq(given, case):
    return Derivation(
        rf"$\mathrm{{Lap2}}$ density by convolution, {case} (A, proof of Lemma 3, eq. (6) first branch)",
        convolution(),
        source="000 (appendix), proof of Lemma 3",
        assumptions=f"$x > 0$, {case}",
    ).step(lap2_neq(), rf"evaluate the three integrals ({case}: checked with the rates of \symdpcode{{given}})",
           given=given)


LAP2_DENSITY_GT = _lap2_density_neq(LAMBDA1_GT, r"$\lambda_1 > \lambda_2$")
LAP2_DENSITY_LT = _lap2_density_neq(LAMBDA1_LT, r"$\lambda_1 < \lambda_2$")

LAP2_DENSITY_EQ = Derivation(
    r"$\mathrm{Lap2}$ density by convolution, $\lambda_1 = \lambda_2$ (eq. (6) second branch)",
    convolution(lam, lam),
    source="000 (appendix), proof of Lemma 3",
    assumptions=r"$x > 0$, $\lambda_1 = \lambda_2 = \lambda$",
).step(lap2_eq(), "evaluate the three integrals (the middle integrand is constant in $t$)")

LAP2_LIMIT_BRANCH = Derivation(
    r"eq. (6): the first branch tends to the second as $\lambda_1 \to \lambda_2$",
    sp.Limit(lap2_neq(), lambda1, lambda2),
    source="000 (appendix), eq. (6)",
).step(lap2_eq(x, lambda2), r"evaluate the limit ($0/0$ in $1/(\lambda_1 - \lambda_2)$)")

LAP2_SYMMETRIC = Derivation(
    r"eq. (6) is symmetric in $(\lambda_1, \lambda_2)$, as the convolution is",
    lap2_neq(),
    source="000 (appendix), eq. (6)",
).step(lap2_neq(x, lambda2, lambda1), r"swap $\lambda_1$ and $\lambda_2$")

LAP2_NORMALISED_NEQ = Derivation(
    "eq. (6), first branch, integrates to 1 (even density: twice the integral over $x > 0$)",
    2 * sp.Integral(lap2_neq(), (x, 0, sp.oo)),
).step(sp.Integer(1), "integrate the two exponentials")

LAP2_NORMALISED_EQ = Derivation(
    "eq. (6), second branch, integrates to 1",
    2 * sp.Integral(lap2_eq(), (x, 0, sp.oo)),
).step(sp.Integer(1), "integrate")

# Lap2 in the cancellation-free form of symdp.engine.continuous.Lap2, with λ = λ1 > μ = λ2 and d = 1/λ2 − 1/λ1 > 0.
_d = 1 / lambda2 - 1 / lambda1


def lap2_h(z=x):
    """h(z) = 1 + (1 − e^{−z d})/(λ1 d): eq. (6) is e^{−z/λ1} h(z)/(2(λ1 + λ2)) when λ1 > λ2."""
    return 1 + (1 - sp.exp(-z * _d)) / (lambda1 * _d)


LAP2_STABLE_FORM = Derivation(
    r"eq. (6) in the cancellation-free form used by \symdpcode{symdp.engine.continuous.Lap2} ($\lambda_1 > \lambda_2$)",
    lap2_neq(),
    source="000 (appendix), eq. (6)",
    assumptions=r"$x > 0$, $\lambda_1 > \lambda_2$, $d = 1/\lambda_2 - 1/\lambda_1$",
).step(sp.exp(-x / lambda1) * lap2_h() / (2 * (lambda1 + lambda2)),
       r"factor out the dominant exponential $e^{-x/\lambda_1}$", given=LAMBDA1_GT)

# --- erratum E9: the printed antiderivative of the third integral ------------------------------------------------
_f3 = convolution_pieces()[2]
PRINTED_F3 = sp.exp(-(-lambda2 * x + (lambda1 + lambda2) * t) / (lambda1 * lambda2)) \
    / ((lambda1 + lambda2) / (lambda1 * lambda2))
"""The antiderivative printed for ∫_x^∞ f3 dt in A's proof of Lemma 3 (fifth display)."""

E9_PRINTED_ANTIDERIVATIVE = Derivation(
    "erratum E9: the printed antiderivative of the third integral differentiates to MINUS the integrand",
    sp.Derivative(PRINTED_F3, t),
    source="000 (appendix), proof of Lemma 3, fifth display",
    assumptions="$x > 0$",
).step(-_f3, "differentiate in $t$: the printed antiderivative lacks a minus sign (eq. (6) itself is correct)")

E9_PRINTED_EVALUATION = Derivation(
    r"erratum E9: the printed bracket $[F_3]_{t=x}^{t=\infty}$ is the negative of the third integral",
    sp.Limit(PRINTED_F3, t, sp.oo) - PRINTED_F3.subs(t, x),
    source="000 (appendix), proof of Lemma 3, fifth display",
).step(-lambda1 * lambda2 / (lambda1 + lambda2) * sp.exp(-x / lambda2), "evaluate the printed bracket")\
    .step(-sp.Integral(_f3, (t, x, sp.oo)),
          r"the third integral is $+\frac{\lambda_1\lambda_2}{\lambda_1+\lambda_2} e^{-x/\lambda_2}$")

# --- Lemma 3: the privacy loss tends to Δ/max(λ1, λ2) ---------------------------------------------------------------
LEMMA3_RATIO_FORM = Derivation(
    (r"Lemma 3: the likelihood ratio of $\mathrm{Lap2}$ at $x > 0$ is $e^{\Delta/\lambda_1} h(x)/h(x+\Delta)$ "
     r"($\lambda_1 > \lambda_2$)"),
    lap2_neq() / lap2_neq(x + Delta),
    source="000 (appendix), proof of Lemma 3, last paragraph (`the dominating term')",
    assumptions=r"$x > 0$, $\lambda_1 > \lambda_2$ (without loss of generality: eq. (6) is symmetric)",
).step(sp.exp(Delta / lambda1) * lap2_h() / lap2_h(x + Delta),
       r"the stable form $e^{-x/\lambda_1} h(x)/(2(\lambda_1+\lambda_2))$ at $x$ and $x + \Delta$", given=LAMBDA1_GT)

LEMMA3_LIMIT_NEQ = Derivation(
    (r"Lemma 3: $\lim_{x\to\infty} \log(\mathrm{Lap2}(x)/\mathrm{Lap2}(x+\Delta)) = \Delta/\max(\lambda_1, \lambda_2)$ "
     r"($\lambda_1 > \lambda_2$)"),
    sp.Limit(Delta / lambda1 - sp.log(lap2_h(x + Delta) / lap2_h()), x, sp.oo),
    source="000 (appendix), proof of Lemma 3",
    assumptions=r"$\lambda_1 > \lambda_2$, so $\max(\lambda_1, \lambda_2) = \lambda_1$",
).step(Delta / lambda1, r"$h(x) \to 1 + 1/(\lambda_1 d) > 0$, so the log-ratio of $h$ tends to 0", given=LAMBDA1_GT)

LEMMA3_LIMIT_EQ = Derivation(
    (r"Lemma 3: $\lim_{x\to\infty} \log(\mathrm{Lap2}(x)/\mathrm{Lap2}(x+\Delta)) = \Delta/\lambda$ when $\lambda_1 = "
     r"\lambda_2 = \lambda$"),
    sp.Limit(sp.log(lap2_eq() / lap2_eq(x + Delta)), x, sp.oo),
    source="000 (appendix), proof of Lemma 3",
).step(sp.Limit(Delta / lam - sp.log(1 + Delta / (lam + x)), x, sp.oo),
       r"the ratio is $e^{\Delta/\lambda}(\lambda+x)/(\lambda+x+\Delta)$")\
    .step(Delta / lam, r"$\log(1 + \Delta/(\lambda + x)) \to 0$, only at rate $O(1/x)$")

# --- Example 1 (P): the optimal interpolation point -----------------------------------------------------------------
EX1_OBJECTIVE = theta**2 * Delta**2 / sigma1**2 + (1 - theta)**2 * Delta**2 / sigma2**2
"""(‖w−v‖²/σ1² + ‖u−w‖²/σ2²) at w = θu + (1−θ)v, ‖u − v‖ = Δ (P, Example 1)."""
EX1_THETA = sigma1**2 / (sigma1**2 + sigma2**2)

EX1_OPTIMAL_W = Derivation(
    ((r"Example 1: completing the square gives the optimal $\theta = \sigma_1^2/(\sigma_1^2+\sigma_2^2)$ and the "
      "minimum")),
    EX1_OBJECTIVE,
    source="001 (main text), Example 1",
    assumptions=r"$w = \theta u + (1 - \theta) v$, $\|u - v\| = \Delta$",
).step(Delta**2 / (sigma1**2 + sigma2**2)
       + Delta**2 * (sigma1**2 + sigma2**2) / (sigma1**2 * sigma2**2) * (theta - EX1_THETA)**2,
       r"complete the square in $\theta$: the square vanishes only at $\theta = \sigma_1^2/(\sigma_1^2+\sigma_2^2)$")\
    .step(Delta**2 / (sigma1**2 + sigma2**2), "at the minimiser", relation=">=")

EX1_BOUND_AT_OPTIMUM = Derivation(
    r"Example 1: the Theorem 2 bound at the optimal $w$ is $\alpha\Delta^2/(2(\sigma_1^2+\sigma_2^2))$",
    alpha / 2 * EX1_OBJECTIVE.subs(theta, EX1_THETA),
    source="001 (main text), Example 1",
).step(alpha * Delta**2 / (2 * (sigma1**2 + sigma2**2)), "simplify")

_y = sp.Symbol("y", real=True)
_s = sp.Symbol("s", positive=True)
_gauss = lambda m: sp.exp(-(_y - m)**2 / (2 * _s**2)) / (sp.sqrt(2 * sp.pi) * _s)  # noqa: E731

GAUSS_RDP = Derivation(
    (r"glossary \symdpid{balle19.fact.gauss-rdp}: $R_\alpha(\mathcal{N}(\Delta, s^2)\|\mathcal{N}(0, s^2)) = "
     r"\alpha\Delta^2/(2s^2)$"),
    sp.log(sp.Integral(sp.exp(sp.expand(alpha * sp.log(_gauss(Delta)) + (1 - alpha) * sp.log(_gauss(0)),
                                        force=True)), (_y, -sp.oo, sp.oo))) / (alpha - 1),
    source=r"\symdpcode{catalogue-balle.md}, glossary",
).step(alpha * Delta**2 / (2 * _s**2), r"Gaussian integral: $\exp(\alpha(\alpha-1)\Delta^2/(2s^2))$")

# --- Theorem 4 (P) and its proof (A) --------------------------------------------------------------------------------
OPTIMAL_STEP = Delta * L**(2 * i) * (1 - L**2) / (L**2 * (1 - L**(2 * r)))
"""Δ_i = Δ L^{2i}/Σ_j L^{2j} (0 < L < 1): the path minimising Σ L^{2(r−i)} Δ_i² subject to Σ Δ_i = Δ (catalogue)."""

THM4_OPTIMAL_STEPS = Derivation(
    r"Theorem 4: the optimal steps $\Delta_i$ sum to $\Delta$ ($0 < L < 1$)",
    sp.Sum(OPTIMAL_STEP, (i, 1, r)),
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.thm4.eq2} (optimal path)",
).step(Delta, "geometric sum", given=L_LT_1)

THM4_OPTIMAL_PATH = Derivation(
    "Theorem 4, eq. (2) along the optimal path ($0 < L < 1$)",
    alpha * L**2 / (2 * sigma**2) * sp.Sum(L**(2 * (r - i)) * OPTIMAL_STEP**2, (i, 1, r)),
    source=r"001 (main text), Theorem 4 eq. (2); optimal path from \symdpcode{catalogue-balle.md}",
).step(alpha * Delta**2 * L**(2 * r) * (1 - L**2) / (2 * sigma**2 * (1 - L**(2 * r))),
       "$L^{2(r-i)} L^{4i} = L^{2r} L^{2i}$, then the geometric sum", given=L_LT_1)

THM4_LINEAR_CHAIN = Derivation(
    (r"Theorem 4: the $r$-step chain $x \mapsto Lx + \mathcal{N}(0, \sigma^2)$ from $\delta_0$, $\delta_\Delta$ has "
     "exactly the optimal-path value"),
    alpha * (L**r * Delta)**2 / (2 * sigma**2 * sp.Sum(L**(2 * j), (j, 0, r - 1))),
    source=r"001 (main text), Theorem 4 (tightness for linear maps, \symdpcode{catalogue-balle.md})",
    assumptions=(r"mean gap $L^r\Delta$, variance $\sigma^2\sum_{k<r} L^{2k}$; Gaussian RDP "
                 r"$\alpha\,\mathrm{gap}^2/(2\,\mathrm{var})$"),
).step(alpha * Delta**2 * L**(2 * r) * (1 - L**2) / (2 * sigma**2 * (1 - L**(2 * r))), "geometric sum",
       given=L_LT_1)

DELTA0 = Delta / L * (1 - L) / (1 - L**r)
"""Δ0 of A's proof of Theorem 4 (the paper's geometric path Δ_i = Δ0 L^i)."""
PHI = (L**sp.Rational(-1, 2) - L**sp.Rational(1, 2)) / (L**(-r / sp.Integer(2)) - L**(r / sp.Integer(2)))

THM4_DELTA0 = Derivation(
    r"Theorem 4 proof: the steps $\Delta_0 L^i$ sum to $\Delta$",
    sp.Sum(DELTA0 * L**i, (i, 1, r)),
    source="000 (appendix), proof of Theorem 4",
).step(Delta, "geometric sum", given=L_LT_1)

THM4_PHI = Derivation(
    r"Theorem 4 proof: the geometric path gives $(\alpha\Delta^2 L^{r+1} r/(2\sigma^2))\,\varphi(L)^2$",
    alpha * L**2 / (2 * sigma**2) * sp.Sum(L**(2 * (r - i)) * (DELTA0 * L**i)**2, (i, 1, r)),
    source="000 (appendix), proof of Theorem 4",
).step(alpha * L**2 / (2 * sigma**2) * r * DELTA0**2 * L**(2 * r), r"every term equals $\Delta_0^2 L^{2r}$")\
    .step(alpha * Delta**2 * L**(r + 1) * r / (2 * sigma**2) * PHI**2, "multiply by $L^{-(r+1)/2}$ twice",
          given=L_LT_1)

THM4_PHI_LIMIT = Derivation(
    r"Theorem 4 proof: $\lim_{L\to 1} \varphi(L) = 1/r$",
    sp.Limit(PHI, L, 1),
    source="000 (appendix), proof of Theorem 4",
).step(sp.Limit(sp.diff(L**sp.Rational(-1, 2) - L**sp.Rational(1, 2), L)
                / sp.diff(L**(-r / sp.Integer(2)) - L**(r / sp.Integer(2)), L), L, 1),
       r"l'H\^opital once (the paper says twice; erratum E11, cosmetic)")\
    .step(1 / sp.Integer(1) / r, "evaluate at $L = 1$: $(-1)/(-r)$")

THETA_DEFINED = DELTA0 / Delta * sp.Sum(L**j, (j, 1, i))
"""θ_i = (Δ0/Δ) Σ_{j≤i} L^j, the interpolation weights of A's proof of Theorem 4."""
THETA_PRINTED = (1 - L**(i + 1)) / (1 - L)
THETA_CORRECTED = (1 - L**i) / (1 - L**r)

THM4_THETA = Derivation(
    r"Theorem 4 proof: $\theta_i = (1 - L^i)/(1 - L^r)$ (corrected; erratum E2 prints $(1 - L^{i+1})/(1 - L)$)",
    THETA_DEFINED,
    source="000 (appendix), proof of Theorem 4",
).step(THETA_CORRECTED, r"geometric sum; gives $\theta_0 = 0$ and $\theta_r = 1$ as the proof needs", given=L_LT_1)


# --- Example 3 (P): the Lipschitz Gaussian kernel -------------------------------------------------------------------
EX3_OBJECTIVE = theta**2 * Delta**2 / sigma1**2 + L**2 * (1 - theta)**2 * Delta**2 / sigma2**2
"""‖w − v‖²/σ1² + L²‖u − w‖²/σ2² at w = θu + (1 − θ)v, ‖u − v‖ = Δ (P, Example 3, second bound)."""
SIGMA_STAR2 = sigma1**2 + sigma2**2 / L**2
EX3_THETA = 1 / (1 + sigma2**2 / (L**2 * sigma1**2))

EX3_OPTIMAL_W = Derivation(
    r"Example 3: completing the square gives $\theta = (1 + \sigma_2^2/(L^2\sigma_1^2))^{-1}$ and the minimum "
    r"$\Delta^2/\sigma_*^2$",
    EX3_OBJECTIVE,
    source="001 (main text), Example 3",
    assumptions=r"$w = \theta u + (1 - \theta) v$, $\|u - v\| = \Delta$, $\psi$ $L$-Lipschitz",
).step(Delta**2 / SIGMA_STAR2 + Delta**2 * (L**2 * sigma1**2 + sigma2**2) / (sigma1**2 * sigma2**2)
       * (theta - EX3_THETA)**2,
       r"complete the square in $\theta$ (the square vanishes only at the paper's $\theta$)")\
    .step(Delta**2 / SIGMA_STAR2, "at the minimiser", relation=">=")

EX3_BOUND_AT_OPTIMUM = Derivation(
    (r"Example 3: the bound at the optimal $w$ is $\alpha\Delta^2/(2\sigma_*^2)$, not $\alpha\Delta^2/(2\sigma_2^2)$ "
     "(E1)"),
    alpha / 2 * EX3_OBJECTIVE.subs(theta, EX3_THETA),
    source="001 (main text), Example 3",
).step(alpha * Delta**2 / (2 * SIGMA_STAR2), r"simplify: $\sigma_*^2 = \sigma_1^2 + \sigma_2^2/L^2$")

EX3_LINEAR_EXACT = Derivation(
    (r"Example 3 is tight for $\psi(x) = Lx$: the outputs $\mathcal{N}(Lu, L^2\sigma_1^2 + \sigma_2^2)$ have exactly "
     "the bound"),
    alpha * (L * Delta)**2 / (2 * (L**2 * sigma1**2 + sigma2**2)),
    source=r"001 (main text), Example 3; \symdpcode{catalogue-balle.md}, \symdpid{balle19.ex3}",
    assumptions=(r"Gaussian RDP $\alpha\,\mathrm{gap}^2/(2\,\mathrm{var})$ with gap $L\Delta$, variance $L^2\sigma_1^2 "
                 r"+ \sigma_2^2$"),
).step(alpha * Delta**2 / (2 * SIGMA_STAR2), "divide numerator and denominator by $L^2$")

EX3_AMPLIFIES = Derivation(
    r"Example 3 side claim: $\sigma_*^2 > \sigma_1^2$ (amplification for every $L < \infty$, $\sigma_2 > 0$)",
    SIGMA_STAR2 - sigma1**2,
    source="001 (main text), Example 3, last paragraph",
).step(sigma2**2 / L**2, r"definition of $\sigma_*^2$").step(0, "positive", relation=">=")

EX3_BEATS_EXAMPLE_1 = Derivation(
    r"Example 3 side claim: for $L < 1$, $\sigma_*^2 > \sigma_1^2 + \sigma_2^2$ (stronger than Example 1)",
    SIGMA_STAR2 - (sigma1**2 + sigma2**2),
    source="001 (main text), Example 3, last paragraph",
    assumptions="$0 < L < 1$",
).step(sigma2**2 * (1 - L**2) / L**2, r"definition of $\sigma_*^2$")\
    .step(0, "$1 - L^2 > 0$ for $L < 1$ (checked with $L = 1/(1 + k)$)", relation=">=", given=L_LT_1)


def e1_counterexample() -> bool:
    """E1: at ψ = 2x, σ1 = 1, σ2 = 10, Δ = 1 the exact RDP is α/52 (= the corrected bound) and the printed one α/200."""
    at = {L: 2, sigma1: 1, sigma2: 10, Delta: 1}
    exact = (alpha * (L * Delta)**2 / (2 * (L**2 * sigma1**2 + sigma2**2))).subs(at)
    printed = (alpha * Delta**2 / (2 * sigma2**2)).subs(at)
    corrected = (alpha * Delta**2 / (2 * SIGMA_STAR2)).subs(at)
    return exact == corrected == alpha / 52 and printed == alpha / 200 and bool((exact - printed).is_positive)


# --- Lemma 18 (A): the gradient step is a contraction --------------------------------------------------------------
beta, rho, eta = sp.symbols("beta rho eta", positive=True)
_D2, _G2, _P, _slack = sp.symbols("D2 G2 P s", nonnegative=True)  # ‖x−y‖², ‖∇f(x)−∇f(y)‖², ⟨∇f(x)−∇f(y), x−y⟩
KAPPA = 2 * eta * beta * rho / (beta + rho)
L18_SQUARED = 1 - KAPPA
ETA_ADMISSIBLE = {eta: 2 / ((beta + rho) * (1 + _k))}  # 0 < eta <= 2/(beta + rho) (k > 0; k -> 0 is the boundary)
COCOERCIVITY = {_P: beta * rho / (beta + rho) * _D2 + _G2 / (beta + rho) + _slack}
"""Bubeck, Lemma 3.11: ⟨g, x − y⟩ = βρ/(β+ρ)‖x − y‖² + ‖g‖²/(β+ρ) + s with s ≥ 0."""

LEM18_CONTRACTION = Derivation(
    r"Lemma 18: $\|\psi(x) - \psi(y)\|^2 \le (1 - 2\eta\beta\rho/(\beta + \rho))\|x - y\|^2$",
    _D2 + eta**2 * _G2 - 2 * eta * _P,
    source="000 (appendix), proof of Lemma 18",
    assumptions=(r"$D_2 = \|x-y\|^2$, $G_2 = \|\nabla f(x) - \nabla f(y)\|^2$, $P = \langle\nabla f(x) - \nabla f(y), "
                 r"x - y\rangle$"),
).step((1 - KAPPA) * _D2 + eta * (eta - 2 / (beta + rho)) * _G2,
       r"co-coercivity of a $\beta$-smooth $\rho$-strongly convex $f$ (Bubeck, Lemma 3.11)", relation="<=",
       given=COCOERCIVITY)\
    .step(L18_SQUARED * _D2, (r"$\eta \le 2/(\beta + \rho)$ (checked with $\eta = 2/((\beta + \rho)(1 "
                              "+ k))$)"), relation=("<="),
          given=ETA_ADMISSIBLE)

LEM18_VS_ELEMENTARY = Derivation(
    (r"Lemma 18 vs the elementary rate: $L^2 - (1 - \eta\rho)^2 = \eta\rho^2(2 - \eta(\beta + \rho))/(\beta + \rho) "
     r"\ge 0$"),
    L18_SQUARED - (1 - eta * rho)**2,
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.lem18} (comparison)",
).step(eta * rho**2 * (2 - eta * (beta + rho)) / (beta + rho), "expand")\
    .step(0, r"$\eta \le 2/(\beta + \rho)$", relation=">=", given=ETA_ADMISSIBLE)

LEM18_TIGHT = Derivation(
    (r"Lemma 18 is tight at $\eta = 2/(\beta + \rho)$: $L = (\beta - \rho)/(\beta + \rho) = |1 - \eta\rho| = |1 - "
     r"\eta\beta|$"),
    L18_SQUARED.subs(eta, 2 / (beta + rho)),
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.lem18} (tightness)",
).step(((beta - rho) / (beta + rho))**2, r"$1 - 4\beta\rho/(\beta + \rho)^2$")\
    .step((1 - 2 * rho / (beta + rho))**2, r"the quadratic's eigenvalue $\rho$")\
    .step((1 - 2 * beta / (beta + rho))**2, r"the quadratic's eigenvalue $\beta$")

_xr = sp.Symbol("x", real=True)
LOGCOSH_F = rho * _xr**2 / 2 + (beta - rho) * sp.log(sp.cosh(_xr))

LEM18_LOGCOSH = Derivation(
    (r"the test loss $f = \rho x^2/2 + (\beta - \rho)\log\cosh x$ has $f'' = \rho + (\beta - "
     r"\rho)\operatorname{sech}^2 x$, in $(\rho, \beta]$"),
    sp.diff(LOGCOSH_F, _xr, 2),
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.lem18} (numeric check)",
).step(rho + (beta - rho) / sp.cosh(_xr)**2, "differentiate twice")

# --- Theorem 5 (P; proof A) ---------------------------------------------------------------------------------------
C = sp.Symbol("C", positive=True)
n_, i_ = sp.symbols("n i", integer=True, positive=True)
_kappa = sp.Symbol("kappa", positive=True)
EPS_OPT = 2 * C**2 / sigma**2 * _kappa * (1 - _kappa)**r / (1 - (1 - _kappa)**r)
KAPPA_LT_1 = {_kappa: 1 - 1 / (1 + _k)**2}  # 0 < kappa < 1, so L = sqrt(1 - kappa) = 1/(1 + k)
EPS_PAPER = 2 * C**2 / ((n_ - i_) * sigma**2) * (1 - KAPPA)**((n_ - i_ + 1) / sp.Integer(2))

THM5_FROM_THM4 = Derivation(
    r"Theorem 5 from Theorem 4 eq. (3) with $r = n - i$, noise $\eta\sigma$, $\Delta = 2\eta C$ and $L$ from Lemma 18",
    (alpha * Delta**2 * L**(r + 1) / (2 * r * sigma**2)).subs({sigma: eta * sigma}, simultaneous=True)
    .subs({Delta: 2 * eta * C}),
    source="000 (appendix), proof of Theorem 5",
).step(2 * alpha * C**2 * L**(r + 1) / (r * sigma**2), r"$\eta^2$ cancels")\
    .step(2 * alpha * C**2 * (1 - _kappa)**((r + 1) / sp.Integer(2)) / (r * sigma**2),
          (r"$L^{r+1} = (1 - \kappa)^{(r+1)/2}$, $L = \sqrt{1 - \kappa}$ (Lemma 18; checked with $\kappa = 1 - "
           "1/(1+k)^2$)"),
          given={L: 1 / (1 + _k), **KAPPA_LT_1})\
    .step(alpha * EPS_PAPER, (r"$\kappa = 2\eta\beta\rho/(\beta + \rho)$, $r = n - i$: the paper's exponent $(n - i + "
                              "1)/2$"),
          given={_kappa: KAPPA, r: n_ - i_})

THM5_LAST_INDEX = Derivation(
    r"Theorem 5 at $i = n$: the Gaussian mechanism with sensitivity $2\eta C$ and noise $\eta\sigma$",
    alpha * (2 * eta * C)**2 / (2 * (eta * sigma)**2),
    source="000 (appendix), proof of Theorem 5 (case $i = n$)",
).step(alpha * 2 * C**2 / sigma**2, r"$\eta^2$ cancels: $\varepsilon_n = 2C^2/\sigma^2$")


THM5_OPTIMAL_PATH = Derivation(
    r"Theorem 5 via Theorem 4 eq. (2) along the optimal path: $\varepsilon_i^{\mathrm{opt}} = "
    r"(2C^2/\sigma^2)\,\kappa(1-\kappa)^r/(1 - (1-\kappa)^r)$, $r = n - i$",
    (alpha * Delta**2 * L**(2 * r) * (1 - L**2) / (2 * sigma**2 * (1 - L**(2 * r))))
    .subs({sigma: eta * sigma}, simultaneous=True).subs({Delta: 2 * eta * C}),
    source=(r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.thm5} (optimal path); \symdpcode{THM4\_OPTIMAL\_PATH} "
            "for the path value"),
).step(2 * alpha * C**2 * L**(2 * r) * (1 - L**2) / (sigma**2 * (1 - L**(2 * r))), r"$\eta^2$ cancels")\
    .step(alpha * EPS_OPT, r"$L^2 = 1 - \kappa$ (Lemma 18)", given={L: 1 / (1 + _k), **KAPPA_LT_1})

CHAIN_VARIANCE = Derivation(
    r"Theorem 5 test chain: the output variance is $\eta^2\sigma^2(1 - L^{2r+2})/(1 - L^2)$ ($r + 1$ noisy steps)",
    eta**2 * sigma**2 * sp.Sum(L**(2 * j), (j, 0, r)),
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.thm5} (the linear sanity chain)",
    assumptions=r"one-dimensional, $A_j = \rho I$, $\eta = 2/(\beta + \rho)$ so each step contracts by exactly $L$; "
                "noise from the differing step on",
).step(eta**2 * sigma**2 * (1 - L**(2 * r + 2)) / (1 - L**2), "geometric sum", given=L_LT_1)

THM5_OPT_CHAIN_RATIO = Derivation(
    (r"Theorem 5, optimal path, on that chain: $\mathrm{exact}/\varepsilon^{\mathrm{opt}} = (1 - L^{2r})/(1 - "
     r"L^{2r+2}) < 1$, $\to 1$ as $r \to \infty$"),
    (alpha * (2 * eta * C * L**r)**2 / (2 * CHAIN_VARIANCE.end))
    / (alpha * 2 * C**2 / sigma**2 * L**(2 * r) * (1 - L**2) / (1 - L**(2 * r))),
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.thm5} (is the optimal path tight?)",
    assumptions=r"mean gap $2\eta C L^r$; $\varepsilon^{\mathrm{opt}}$ written with $L^2 = 1 - \kappa$ "
                r"(\symdpcode{THM5\_OPTIMAL\_PATH}); the noise of the differing step is in the exact value but unused "
                "by Theorem 4",
).step((1 - L**(2 * r)) / (1 - L**(2 * r + 2)), r"cancel $\alpha$, $C$, $\eta$, $\sigma$, $L^{2r}$, $1 - L^2$")

THM5_PAPER_CHAIN_RATIO = Derivation(
    "Theorem 5 as printed, one step after the differing one ($n = 2$, $i = 1$) on the same chain: "
    r"$\mathrm{exact}/\varepsilon_1 = 1/(1 + L^2)$, which tends to 1 as $L \to 0$",
    (2 * C**2 / sigma**2 * L**2 / (1 + L**2)) / (2 * C**2 / sigma**2 * L**2),
    source="derived here (Theorem 5 is not loose by a fixed factor for $i < n$)",
).step(1 / (1 + L**2), "cancel")


# --- exact checks of printed slips (not chains of equalities) ------------------------------------------------------
def e9_printed_sign() -> bool:
    """E9: d/dt of the printed antiderivative is −f3, not f3 (so its bracket has the wrong sign)."""
    return sp.simplify(sp.diff(PRINTED_F3, t) + _f3) == 0 and sp.simplify(sp.diff(PRINTED_F3, t) - _f3) != 0


def e2_printed_theta() -> bool:
    """E2: at L = 1/2, r = 3 the printed θ_i gives θ_0 = 1 and θ_3 = 15/8; the definition gives 0 and 1."""
    half = {L: sp.Rational(1, 2), r: 3}
    printed = [THETA_PRINTED.subs(half).subs(i, n) for n in (0, 3)]
    defined = [THETA_DEFINED.subs(half).subs(i, n).doit() for n in (0, 3)]
    return printed == [1, sp.Rational(15, 8)] and defined == [0, 1]


def eq6_printed_correct() -> bool:
    """The final eq. (6) is correct despite E9: the symbolic convolution (SymPy's own integrals) equals it."""
    pieces = convolution().subs(LAMBDA1_GT).doit()
    return sp.simplify(sp.powsimp(sp.expand(pieces - lap2_neq().subs(LAMBDA1_GT)))) == 0


FACTS = {
    "E9: printed antiderivative of the third integral has the wrong sign": e9_printed_sign,
    "E2: printed theta_i gives theta_0 = 1, theta_3 = 15/8 at L = 1/2, r = 3": e2_printed_theta,
    "eq. (6) as printed equals the convolution": eq6_printed_correct,
    "E1: Example 3's printed constant is refuted by psi = 2x, sigma_1 = 1, sigma_2 = 10 (alpha/52 > alpha/200)":
        e1_counterexample,
}

DERIVATIONS: list[Derivation] = [
    LEM16_TRANSPORT,
    LAP2_DENSITY_GT, LAP2_DENSITY_LT, LAP2_DENSITY_EQ, LAP2_LIMIT_BRANCH, LAP2_SYMMETRIC,
    LAP2_NORMALISED_NEQ, LAP2_NORMALISED_EQ, LAP2_STABLE_FORM,
    E9_PRINTED_ANTIDERIVATIVE, E9_PRINTED_EVALUATION,
    LEMMA3_RATIO_FORM, LEMMA3_LIMIT_NEQ, LEMMA3_LIMIT_EQ,
    EX1_OPTIMAL_W, EX1_BOUND_AT_OPTIMUM, GAUSS_RDP,
    EX3_OPTIMAL_W, EX3_BOUND_AT_OPTIMUM, EX3_LINEAR_EXACT, EX3_AMPLIFIES, EX3_BEATS_EXAMPLE_1,
    THM4_OPTIMAL_STEPS, THM4_OPTIMAL_PATH, THM4_LINEAR_CHAIN, THM4_DELTA0, THM4_PHI, THM4_PHI_LIMIT, THM4_THETA,
    LEM18_CONTRACTION, LEM18_VS_ELEMENTARY, LEM18_TIGHT, LEM18_LOGCOSH,
    THM5_FROM_THM4, THM5_LAST_INDEX, THM5_OPTIMAL_PATH, CHAIN_VARIANCE, THM5_OPT_CHAIN_RATIO, THM5_PAPER_CHAIN_RATIO,
]
