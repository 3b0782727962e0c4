"""Symbolic derivations for Dwork & Rothblum, *Concentrated Differential Privacy*: CDP, composition, Theorem 1.1.

Seed ``../shared/seeds/004_b3a545b59162ae7d.txt``; catalogue ``../shared/catalogue/catalogue-dwork.md`` (entries
dwork.thm3.2, dwork.text3.2, dwork.cor3.3, dwork.thm3.4, dwork.thm3.5, dwork.thm1.1, dwork.obs.rr-extremal), and the
corrected adaptive composition (dwork.thm3.4.adaptive.corrected: the split at the conditional means, Hoeffding's
width of the conditional means — including the first, which the adversary's coin makes random — and Hölder). Every
step is checked exactly by SymPy (:class:`symdp.derivation.Derivation`); the numeric side is in
:mod:`symdp.theorems.dwork.cdp`.

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import Delta, a, b, delta, epsilon as eps, k, lam, mu, mu1, mu2, n, s, sigma, tau, tau1, tau2, x

SOURCE = "004_b3a545b59162ae7d.txt"

# Names of these proofs only: the atoms of two 2-atom pairs (composition_mgf_factorises, lambda_minus_one).
p1, p2, q1, q2, r1, r2, t1, t2 = sp.symbols("p_1 p_2 q_1 q_2 r_1 r_2 t_1 t_2", positive=True)
E = sp.exp


def _u(*args):
    """An unevaluated sum, to display a line as printed."""
    return sp.Add(*args, evaluate=False)


# --- Theorem 3.2: the Gaussian mechanism --------------------------------------------------------------------------
def gaussian_loss_expansion() -> Derivation:
    """The proof's display: ln(e^{-x²/2σ²} / e^{-(x+Δ)²/2σ²}) = (Δ/σ)(x/σ) + (Δ/σ)²/2."""
    start = sp.log(E(-x**2 / (2 * sigma**2)) / E(-(x + Delta) ** 2 / (2 * sigma**2)))
    return (Derivation("Theorem 3.2: the Gaussian privacy loss is linear in the noise", start,
                       source=SOURCE + ", proof of Theorem 3.2", assumptions=(r"$x \sim \mathcal{N}(0, \sigma^2)$, "
                                                                              r"$f(d) = f(d') + \Delta$"))
            .step(-(x**2 - (x + Delta) ** 2) / (2 * sigma**2), r"$\ln e^{u} = u$")
            .step(-(x**2 - _u(x**2, 2 * x * Delta, Delta**2)) / (2 * sigma**2), "expand the square")
            .step(-(-2 * x * Delta - Delta**2) / (2 * sigma**2), "cancel $x^2$")
            .step((Delta / sigma) * (x / sigma) + (Delta / sigma) ** 2 / 2, "the paper's last line"))


def gaussian_mgf() -> Derivation:
    """E[e^{λL}] for L = (Δ/σ)(x/σ) + τ²/2, x ~ N(0, σ²): completing the square in the exponent of the integrand."""
    T = Delta / sigma
    exponent = -x**2 / (2 * sigma**2) + lam * (T * x / sigma + T**2 / 2)
    return (Derivation(r"Theorem 3.2: exponent of $\varphi(x) e^{\lambda L(x)}$, completed square", exponent,
                       source=SOURCE + r", Theorem 3.2 (catalogue: exact law $\mathcal{N}(\tau^2/2, \tau^2)$)",
                       assumptions=r"$\tau = \Delta/\sigma$; the Gaussian factor integrates to 1 against the density")
            .step(-(x - lam * Delta) ** 2 / (2 * sigma**2) + lam * T**2 / 2 + lam**2 * T**2 / 2,
                  r"complete the square: $\phi_\sigma(x - \lambda\Delta)$ times $e^{\lambda\tau^2/2 + "
                  r"\lambda^2\tau^2/2}$, the MGF of $\mathcal{N}(\tau^2/2, \tau^2)$"))


def mgf_integrand_peak() -> Derivation:
    """Where the quadrature integrand p^{1+λ} q^{-λ} (P = N(Δ, σ²), Q = N(0, σ²)) peaks: at (1+λ)Δ."""
    start = -(1 + lam) * (x - Delta) ** 2 / (2 * sigma**2) + lam * x**2 / (2 * sigma**2)
    return (Derivation(r"Theorem 3.2 (check): the MGF integrand is a Gaussian bump at $(1 + \lambda)\Delta$", start,
                       source=SOURCE + r", \symdpcode{symdp.theorems.dwork.cdp.loss\_integral}")
            .step(-(x - (1 + lam) * Delta) ** 2 / (2 * sigma**2) + lam * (1 + lam) * Delta**2 / (2 * sigma**2),
                  "complete the square"))


def gaussian_centred_mgf() -> Derivation:
    """Centring at E[L] = τ²/2 leaves e^{λ²τ²/2}: τ-subgaussian with equality at every λ (Theorem 3.2, both parts)."""
    return (Derivation(("Theorem 3.2: centred MGF of "
                        r"$\mathcal{N}(\tau^2/2, \tau^2)$"), E(lam * tau**2 / 2 + lam**2 * tau**2 / 2)
                       * E(-lam * tau**2 / 2), source=SOURCE + ", Theorem 3.2")
            .step(E(lam**2 * tau**2 / 2), r"equality for every $\lambda$: $\tau$ is exact"))


# --- Remarks after Theorem 3.2 and Corollary 3.3 ------------------------------------------------------------------
def remark_n_queries() -> Derivation:
    """n queries, N(0, n/ε²) each: expected loss n·1/(2σ²) = ε²/2 (the standard √(n/σ²) = ε is the next one)."""
    sig2 = n / eps**2
    return (Derivation((r"Remark after Theorem 3.2: $n$ queries with $\mathcal{N}(0, "
                        r"n/\varepsilon^2)$ noise"), n * 1 / (2 * sig2),
                       source=SOURCE + r", remark after Theorem 3.2; catalogue \symdpid{dwork.text3.2}")
            .step(eps**2 / 2, r"$\sigma^2 = n/\varepsilon^2$"))


def remark_claimed_mean() -> Derivation:
    """The claimed ε(e^ε − 1)/2 exceeds the exact ε²/2 by ε(e^ε − 1 − ε)/2 ≥ 0 (e^ε ≥ 1 + ε): verified, loose."""
    return (Derivation("Remark after Theorem 3.2: claimed expected loss", eps * (E(eps) - 1) / 2,
                       source=SOURCE + r", remark after Theorem 3.2; catalogue \symdpid{dwork.text3.2}")
            .step(eps**2 / 2 + eps * (E(eps) - 1 - eps) / 2,
                  r"the exact $\varepsilon^2/2$ plus $\varepsilon(e^{\varepsilon} - 1 - \varepsilon)/2 \ge 0$"))


def remark_n_queries_standard() -> Derivation:
    return (Derivation("Remark after Theorem 3.2: the composed standard", sp.sqrt(n * (1 / sp.sqrt(n / eps**2)) ** 2),
                       source=SOURCE + ", remark after Theorem 3.2")
            .step(sp.Abs(eps), r"$\sqrt{n \tau_1^2}$ with $\tau_1 = \varepsilon/\sqrt{n}$; it is $\varepsilon$ as "
                               r"$\varepsilon > 0$"))


def remark_sqrt_eps_noise() -> Derivation:
    """(ε, √ε)-CDP: τ² = n/σ² = ε needs σ² = n/ε; the printed √(1/ε) gives τ² = nε."""
    sig = sp.Symbol("sigma_0", positive=True)
    return (Derivation((r"Remark after Theorem 3.2: printed noise $\sqrt{1/\varepsilon}$ gives $\tau^2 = "
                        r"n\varepsilon$"), n / sig**2,
                       source=SOURCE + (r", remark after Theorem 3.2; catalogue \symdpid{dwork.text3.2} (missing "
                                        r"$\sqrt{n}$)"))
            .step(n * eps, r"printed $\sigma_0 = \sqrt{1/\varepsilon}$", given={sig: 1 / sp.sqrt(eps)})
            .step(n * eps, (r"$= \varepsilon$ only for $n = 1$; with $\sigma_0 = \sqrt{n/\varepsilon}$ it is "
                            r"$\varepsilon$")))


def corollary33_standard() -> Derivation:
    """Group sensitivity sΔ: τ = sΔ/σ, which is the printed sΔ only when σ = 1."""
    return (Derivation("Corollary 3.3: corrected standard over printed standard", (s * Delta / sigma) / (s * Delta),
                       source=SOURCE + r", Corollary 3.3; catalogue \symdpid{dwork.cor3.3}")
            .step(1 / sigma, r"the printed $s\Delta f$ is too small whenever $\sigma < 1$"))


# --- Theorem 3.4: composition ---------------------------------------------------------------------------------------
def composition_mgf_factorises() -> Derivation:
    """For product laws the loss is a sum of independent losses and the MGF factorises (two 2-atom pairs)."""
    P, Q = (p1, p2), (q1, q2)
    R, T = (r1, r2), (t1, t2)
    joint = sum(P[i] * R[j] * (P[i] * R[j] / (Q[i] * T[j])) ** lam for i in range(2) for j in range(2))
    first = sum(P[i] * (P[i] / Q[i]) ** lam for i in range(2))
    second = sum(R[j] * (R[j] / T[j]) ** lam for j in range(2))
    return (Derivation("Theorem 3.4: the MGF of the composed loss is the product of the MGFs", joint,
                       source=SOURCE + ", proof of Theorem 3.4 (non-adaptive case)",
                       assumptions=(r"$U = P \times R$, $V = Q \times T$ (product laws); $L_{(U\|V)}(i, j) = "
                                    r"L_{(P\|Q)}(i) + L_{(R\|T)}(j)$"))
            .step(first * second, r"$(ab)^{\lambda} = a^{\lambda} b^{\lambda}$; distribute"))


def composition_gaussians() -> Derivation:
    """Gaussian mechanisms: the product of e^{λ²τ_i²/2} is e^{λ²(τ_1²+τ_2²)/2} — the bound is attained."""
    return (Derivation("Theorem 3.4: composed Gaussian mechanisms", E(lam**2 * tau1**2 / 2) * E(lam**2 * tau2**2 / 2),
                       source=SOURCE + ", Theorem 3.4 (catalogue: tight for Gaussians)")
            .step(E(lam**2 * (tau1**2 + tau2**2) / 2), r"equality: $\sqrt{\tau_1^2 + \tau_2^2}$ is exact"))


def hoelder_standards_add() -> Derivation:
    """Standards of dependent summands add: with p = (a+b)/a, q = (a+b)/b (1/p + 1/q = 1), Hölder gives
    E e^{λ(X+Y)} ≤ (E e^{pλX})^{1/p} (E e^{qλY})^{1/q} ≤ e^{λ²(p a² + q b²)/2} = e^{λ²(a+b)²/2}."""
    pp, qq = (a + b) / a, (a + b) / b
    return (Derivation('Theorem 3.4 (adaptive, corrected): H\\"older\'s exponents', pp * a**2 + qq * b**2,
                       source=SOURCE + r", Theorem 3.4; catalogue \symdpid{dwork.thm3.4} (what survives adaptively)",
                       assumptions="$X$ $a$-subgaussian, $Y$ $b$-subgaussian, dependent")
            .step((a + b) ** 2, r"$\tau(X + Y) \le \tau(X) + \tau(Y)$"))


def adaptive_decomposition() -> Derivation:
    """The corrected proof's split of the centred loss: with m_i = E[C_i | R, prefix] (the KL of the pair the
    adversary runs at step i) and E C_i = E m_i, L - E L is a martingale part plus the centred sum of the m_i."""
    C1, C2, e1, e2 = sp.symbols("C_1 C_2 e_1 e_2", real=True)  # the losses of the steps, E m_1, E m_2
    m1, m2 = sp.symbols("m_1 m_2", real=True)
    return (Derivation("Theorem 3.4 (adaptive, corrected): the centred loss, split at the conditional means",
                       (C1 + C2) - (e1 + e2), source=SOURCE + ", proof of Theorem 3.4 (corrected)",
                       assumptions=(r"$m_i = \mathbb{E}[C_i \mid R_U, Y_1, \dots, Y_{i-1}] \in [0, \mu_i]$; "
                                    r"$\mathbb{E}C_i = \mathbb{E}m_i = e_i$"))
            .step(sp.Add(_u(C1, -m1), _u(C2, -m2), _u(m1, m2, -e1, -e2), evaluate=False),
                  r"martingale differences ($\tau_i$-subgaussian given the prefix) plus the centred conditional means"))


def adaptive_hoeffding_width() -> Derivation:
    """The conditional means m_1 + m_2 lie in [0, mu_1 + mu_2]: Hoeffding's standard is half the width. m_1 is a
    constant only when the adversary has no coin; with R_U it ranges over [0, mu_1] too."""
    return (Derivation("Theorem 3.4 (adaptive, corrected): Hoeffding's width of the conditional means",
                       sp.Mul(_u(mu1 + mu2, sp.Mul(-1, 0, evaluate=False)), sp.Pow(2, -1, evaluate=False), evaluate=False),
                       source=SOURCE + ", proof of Theorem 3.4 (corrected)",
                       assumptions=r"$0 \le m_i \le \mu_i$; randomized adversary ($m_1$ depends on $R_U$)")
            .step(mu1 / 2 + mu2 / 2, r"$\sum_{i \ge 1} \mu_i/2$; for a deterministic adversary $m_1$ is constant and "
                                     r"only $\mu_2/2$ is left"))


def hoelder_conjugate() -> Derivation:
    return (Derivation("Theorem 3.4 (adaptive, corrected): the exponents are conjugate", a / (a + b) + b / (a + b),
                       source=SOURCE + ", Theorem 3.4").step(1, "$1/p + 1/q = 1$"))


# --- Theorem 3.5 and the randomized-response standard -----------------------------------------------------------------
def hoeffding_width() -> Derivation:
    """The proof of Theorem 3.5: L − μ lies in [−ε − μ, ε − μ], so Hoeffding gives the standard (b − a)/2 = ε."""
    return (Derivation("Theorem 3.5: Hoeffding's width", ((eps - mu) - (-eps - mu)) / 2,
                       source=SOURCE + ", proof of Theorem 3.5").step(eps, r"the interval has width $2\varepsilon$"))


def rr_standard() -> Derivation:
    """RR's loss is ±ε with P(+ε) = p = e^ε/(1+e^ε): the Kearns–Saul standard of a two-point law,
    (2ε)² (1 − 2p)/(2 ln((1−p)/p)), is 2ε tanh(ε/2) = 2 KL (catalogue dwork.obs.rr-extremal)."""
    p = E(eps) / (1 + E(eps))
    start = (2 * eps) ** 2 * (1 - 2 * p) / (2 * sp.log((1 - p) / p))
    return (Derivation("Randomized response: squared subgaussian standard of the centred loss", start,
                       source=SOURCE + r", Theorem 3.5; catalogue \symdpid{dwork.obs.rr-extremal} ($\tau$ part)",
                       assumptions=r"Kearns--Saul 1998: the optimal standard of $\mathrm{Bernoulli}(p) - p$")
            .step((2 * eps) ** 2 * (1 - 2 * p) / (2 * (-eps)), r"$(1 - p)/p = e^{-\varepsilon}$")
            .step(2 * eps * (E(eps) - 1) / (E(eps) + 1), "simplify")
            .step(2 * eps * sp.tanh(eps / 2), (r"$= 2\varepsilon\tanh(\varepsilon/2) = 2 D_{\mathrm{KL}}$ of "
                                               "randomized response")))


def lambda_minus_one() -> Derivation:
    """E_P[e^{-(L - KL)}] = e^{KL} Σ_x P(x) Q(x)/P(x) = e^{KL}: at λ = −1 the MGF condition reads KL ≤ τ²/2."""
    start = p1 * E(-(sp.log(p1 / q1) - mu)) + p2 * E(-(sp.log(p2 / q2) - mu))  # mu = E[L] = KL(P||Q)
    return (Derivation(r"Definition 3.3 at $\lambda = -1$: the centred MGF is $e^{D_{\mathrm{KL}}(P\|Q)}$", start,
                       source=SOURCE + r", Definitions 3.2, 3.3; catalogue \symdpid{dwork.obs.kl-le-tau2}",
                       assumptions=r"two atoms shown; $q_1 + q_2 = 1$; $\mu = \mathbb{E}[L] = D_{\mathrm{KL}}(P\|Q)$")
            .step(E(mu) * (q1 + q2), "$P(x) e^{-L(x)} = Q(x)$")
            .step(E(mu), r"$\sum_x Q(x) = 1$", given={q2: 1 - q1}))


# --- Theorem 1.1: advanced composition --------------------------------------------------------------------------------
def azuma_level() -> Derivation:
    """Azuma with |L_i| ≤ ε over k rounds: Pr[L − kμ > t] ≤ e^{−t²/(2kε²)}, which is δ at t = ε√(2k ln(1/δ))."""
    t = eps * sp.sqrt(2 * k * sp.log(1 / delta))
    return (Derivation("Theorem 1.1: the deviation term", E(-t**2 / (2 * k * eps**2)),
                       source=SOURCE + ", Theorem 1.1 (proof of DRV10)", assumptions=r"$0 < \delta \le 1$")
            .step(delta, r"$\exp(-\ln(1/\delta)) = \delta$"))


def halving() -> Derivation:
    """Theorem 1.1's expected-loss term is exactly half of DRV10's kε(e^ε − 1)."""
    return (Derivation("Theorem 1.1: the expected-loss term over DRV10's", (k * eps * (E(eps) - 1) / 2)
                       / (k * eps * (E(eps) - 1)), source=SOURCE + ", Section 1")
            .step(sp.Rational(1, 2), "exactly halved"))


DERIVATIONS: list[Derivation] = [
    gaussian_loss_expansion(), gaussian_mgf(), mgf_integrand_peak(), gaussian_centred_mgf(),
    remark_n_queries(), remark_claimed_mean(), remark_n_queries_standard(), remark_sqrt_eps_noise(), corollary33_standard(),
    composition_mgf_factorises(), composition_gaussians(), adaptive_decomposition(), adaptive_hoeffding_width(),
    hoelder_standards_add(), hoelder_conjugate(),
    hoeffding_width(), rr_standard(), lambda_minus_one(),
    azuma_level(), halving(),
]
