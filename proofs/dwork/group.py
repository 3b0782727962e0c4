"""Symbolic derivations for Dwork & Rothblum, *Concentrated Differential Privacy*: group privacy (Section 4, §1).

Seed ``../shared/seeds/004_b3a545b59162ae7d.txt``; catalogue ``../shared/catalogue/catalogue-dwork.md`` (entries
dwork.thm4.1, dwork.lem4.2, dwork.lem4.3, dwork.claim4.4, dwork.claim4.5, dwork.intro.groupdp). Every step is checked
exactly by SymPy (:class:`symdp.derivation.Derivation`); the numeric side is :mod:`symdp.theorems.dwork.group`.

Inequality steps fix their side conditions by a substitution given with the step, so that the gap is visibly
non-negative: a quantity x ≤ X is written x = X/(1 + r) with r ≥ 0 (r, w are such slack symbols below), and
τ ≤ 1/4 as √τ = 1/(2(1 + r)). The substitution only encodes the hypothesis; both displayed expressions are still
compared exactly.

``FACTS`` are the printed slips with numeric content that are not chains: each a function returning True when the
slip is confirmed exactly.

>>> all(d.check() for d in DERIVATIONS) and all(fact() for fact in FACTS.values())
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import a as a_real, b as b_real  # log-ratios: any sign

SOURCE = "004_b3a545b59162ae7d.txt, Section 4"

tau, lam = sp.symbols("tau lambda", positive=True)
t1, t2 = sp.symbols("tau_1 tau_2", positive=True)
mu, mu1, mu2 = sp.symbols("mu mu_1 mu_2", positive=True)
K1 = sp.Symbol("K_1", positive=True)  # D_KL(D||D')
K = sp.Symbol("K", real=True)  # D_KL(D||D'') in Case II
eps = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", positive=True)
m = sp.Symbol("m", integer=True, positive=True)
i, j, k = sp.symbols("i j k", integer=True, positive=True)
s = sp.Symbol("s", integer=True, positive=True)
a = sp.Symbol("a", positive=True)  # the O~ constant
X = sp.Symbol("X", positive=True)  # (2^m tau)^2.5 m^4.5
r, w = sp.symbols("r w", positive=True)  # slack of an inequality hypothesis
st = sp.Symbol("t", positive=True)  # sqrt(tau)
ALPHA = 2 * sp.Integer(34) ** sp.Rational(9, 2)
H = sp.Rational(3, 2)


def _u(*args):
    """An unevaluated sum, to display a line as printed."""
    return sp.Add(*args, evaluate=False)


# --- Lemma 4.2 ----------------------------------------------------------------------------------------------------
STATEMENT_42 = mu1 + mu2 + t1 * t2 + 2 * t1**2 * t2 + (t1 + 3 * t1**2) * mu2
PROOF_42 = mu1 + mu2 + t1 * t2 + 3 * t1**2 * t2 + (t1 + 3 * t1**2) * mu2


def lemma42_statement_vs_proof() -> Derivation:
    """The proof of Lemma 4.2 ends with 3τ₁²τ₂; the statement has 2τ₁²τ₂, a stronger claim than proved."""
    return (Derivation(r"Lemma 4.2: the proof's bound exceeds the stated one by $\tau_1^2\tau_2$", PROOF_42,
                       source=SOURCE + ", Lemma 4.2 and its proof (14)")
            .step(STATEMENT_42 + t1**2 * t2, "collect")
            .step(STATEMENT_42, r"drop $\tau_1^2\tau_2 \ge 0$: the statement is not what the proof gives",
                  relation=">="))


def lemma42_sharper() -> Derivation:
    """Donsker–Varadhan: E_D[ln D'/D''] ≤ (K₁ + λμ₂ + λ²τ₂²/2)/λ for every λ > 0; the minimum is at
    λ = √(2K₁)/τ₂ (the gap is a square), and K₁ ≤ τ₁²/2 then gives the catalogue's μ₁ + μ₂ + τ₁τ₂."""
    dv = (K1 + lam * mu2 + lam**2 * t2**2 / 2) / lam
    optimum = mu2 + t2 * sp.sqrt(2 * K1)
    return (Derivation("Lemma 4.2 (sharper): optimising the Donsker--Varadhan bound", dv,
                       source=SOURCE + r", Lemma 4.2; catalogue \symdpid{dwork.lem4.2}, `sharper bound'",
                       assumptions=(r"$\lambda > 0$; $K_1 = D_{\mathrm{KL}}(D\|D') \le \tau_1^2/2$ "
                                    r"(\symdpid{dwork.obs.kl-le-tau2})"))
            .step(optimum + (t2 * lam - sp.sqrt(2 * K1)) ** 2 / (2 * lam), "complete the square")
            .step(optimum, r"drop the square: equality at $\lambda = \sqrt{2K_1}/\tau_2$", relation=">=")
            .step(mu2 + t1 * t2, r"$K_1 \le \tau_1^2/2$", relation="<=",
                  given={K1: t1**2 / (2 * (1 + r) ** 2)}))


def theorem41_eq12() -> Derivation:
    """(12): Lemma 4.2 with the proof's constant 3 at τ₁ = τ₂ = τ_m, μ₁ = μ₂ = μ_m ≤ τ_m²/2."""
    start = PROOF_42.subs({t1: tau, t2: tau, mu1: mu, mu2: mu})
    return (Derivation("Theorem 4.1, (12): Lemma 4.2 (proof's constant) on the midpoint triple", start,
                       source=SOURCE + ", proof of Theorem 4.1, (12)",
                       assumptions=r"$\tau_1 = \tau_2 = \tau_m$, $\mu_1 = \mu_2 = \mu_m \le \tau_m^2/2$")
            .step(2 * mu + tau**2 + 3 * tau**3 + (tau + 3 * tau**2) * mu, "collect")
            .step(2 * mu + tau**2 + 3 * tau**3 + (tau + 3 * tau**2) * tau**2 / 2,
                  r"$\mu \le \tau^2/2$ in the last term", relation="<=", given={mu: tau**2 / 2 - w})
            .step(2 * mu + tau**2 + sp.Rational(7, 2) * tau**3 + sp.Rational(3, 2) * tau**4, "expand: (12)"))


# --- Lemma 4.3 ----------------------------------------------------------------------------------------------------
SQRT_TAU_LE_HALF = {st: 1 / (2 * (1 + r))}  # tau <= 1/4


def lemma43_case1_factor() -> Derivation:
    """Case I, |λ| ≥ 1/(8√τ): (λ+1)²/λ² = (1 + 1/λ)² ≤ (1 + 8√τ)² ≤ 1 + 48√τ, using 64τ ≤ 32√τ (τ ≤ 1/4)."""
    return (Derivation(r"Lemma 4.3, Case I: $(1 + 8\sqrt{\tau})^2 \le 1 + 48\sqrt{\tau}$", (1 + 8 * st) ** 2,
                       source=SOURCE + ", proof of Lemma 4.3, Case I", assumptions=r"$t = \sqrt{\tau} \le 1/2$")
            .step(1 + 16 * st + 64 * st**2, "expand")
            .step(1 + 48 * st, r"$64\tau \le 32\sqrt{\tau}$ as $\tau \le 1/4$", relation="<=",
                  given=SQRT_TAU_LE_HALF))


def lemma43_case1_constant() -> Derivation:
    """Case I's last step needs (2τ + cτ^{1.5})²/2 ≥ 2τ² + 48τ^{2.5}: c = 24 works (the proof prints 12)."""
    needed = 2 * tau**2 + 48 * tau ** sp.Rational(5, 2)
    return (Derivation("Lemma 4.3, Case I: the constant must be 24, not 12", (2 * tau + 24 * tau**H) ** 2 / 2,
                       source=SOURCE + ", proof of Lemma 4.3, Case I")
            .step(needed + 288 * tau**3, "expand")
            .step(needed, r"drop $288\tau^3 \ge 0$", relation=">="))


def lemma43_case2_exponent(total: int) -> Derivation:
    """Case II: 1 + λK + λ²(4τ² + 26τ^{2.5})/2 + cλ²τ^{2.5} with c = Claim 4.5's constant (55 printed, 65 proved),
    collected into λ²/2·(4τ² + 2(13 + c)τ^{2.5})."""
    c = total - 13
    start = 1 + lam * K + lam**2 * (4 * tau**2 + 26 * tau ** sp.Rational(5, 2)) / 2 + c * tau ** sp.Rational(5, 2) * lam**2
    return (Derivation(rf"Lemma 4.3, Case II: Claim 4.5's constant {c} collects to ${total}\tau^{{2.5}}\lambda^2$",
                       start, source=SOURCE + ", proof of Lemma 4.3, Case II")
            .step(1 + lam * K + 2 * lam**2 * tau**2 + total * tau ** sp.Rational(5, 2) * lam**2, "collect")
            .step(1 + lam * K + lam**2 / 2 * (4 * tau**2 + 2 * total * tau ** sp.Rational(5, 2)), ("factor "
                                                                                                   r"$\lambda^2/2$")))


def lemma43_case2_constant() -> Derivation:
    """With Claim 4.5's proved 65: 13 + 65 = 78, and 4τ² + 156τ^{2.5} ≤ (2τ + 39τ^{1.5})² (the proof's 34 is short)."""
    needed = 4 * tau**2 + 156 * tau ** sp.Rational(5, 2)
    return (Derivation("Lemma 4.3, Case II: with Claim 4.5's 65 the constant must be 39", (2 * tau + 39 * tau**H) ** 2,
                       source=SOURCE + r", proof of Lemma 4.3, Case II; catalogue \symdpid{dwork.lem4.3}, erratum 2")
            .step(needed + 1521 * tau**3, "expand")
            .step(needed, r"drop $1521\tau^3 \ge 0$", relation=">="))


# --- Claim 4.4 ----------------------------------------------------------------------------------------------------
def claim44_square_root() -> Derivation:
    """√(8(16τ₂⁴ + μ₂⁴)) ≤ √128 τ₂² + √8 μ₂², shown on the squares (√ is increasing)."""
    return (Derivation((r"Claim 4.4: $\sqrt{8(16\tau_2^4 + \mu_2^4)} \le \sqrt{128}\,\tau_2^2 + \sqrt{8}\,\mu_2^2$, "
                        "squared"),
                       (sp.sqrt(128) * t2**2 + sp.sqrt(8) * mu2**2) ** 2, source=SOURCE + ", proof of Claim 4.4, (21)")
            .step(8 * (16 * t2**4 + mu2**4) + 64 * t2**2 * mu2**2, "expand")
            .step(8 * (16 * t2**4 + mu2**4), r"drop $64\tau_2^2\mu_2^2 \ge 0$", relation=">="))


def claim44_fourth_moment() -> Derivation:
    """(√128 τ₂² + √8 μ₂²)·2τ₁ ≤ 24τ₁τ₂² + 6τ₁μ₂² ≤ 25τ₁τ₂² (the last step needs μ₂² ≤ τ₂²/6)."""
    start = 2 * t1 * (sp.sqrt(128) * t2**2 + sp.sqrt(8) * mu2**2)
    return (Derivation("Claim 4.4: the fourth-moment term of (21)", start, source=SOURCE + (", proof of Claim 4.4, "
                                                                                            "(21)"),
                       assumptions=r"$\mu_2^2 \le \tau_2^2/6$ (from $D_{\mathrm{KL}} \le \tau_2^2/2$ and $\tau_2 \le 1/4$)")
            .step(24 * t1 * t2**2 + 6 * t1 * mu2**2, r"$16\sqrt{2} \le 24$, $4\sqrt{2} \le 6$", relation="<=")
            .step(25 * t1 * t2**2, r"$\mu_2^2 \le \tau_2^2/6$", relation="<=", given={mu2: t2 / sp.sqrt(6 * (1 + r))}))


def claim44_chain() -> Derivation:
    """(19): 2(τ₁² + τ₂²) + 2μ₁² + 2μ₂² + 50τ₁τ₂² ≤ 4τ² + 51τ³ ≤ 4τ² + 26τ^{2.5}, for τ_i ≤ τ ≤ 1/4, μ_i ≤ τ²/2."""
    start = 2 * (t1**2 + t2**2) + 2 * mu1**2 + 2 * mu2**2 + 50 * t1 * t2**2
    return (Derivation("Claim 4.4: the chain (19)", start, source=SOURCE + ", Claim 4.4, (19)",
                       assumptions=r"$\tau_1, \tau_2 \le \tau \le 1/4$, $\mu_1, \mu_2 \le \tau^2/2$")
            .step(4 * tau**2 + 2 * mu1**2 + 2 * mu2**2 + 50 * tau**3, r"$\tau_1, \tau_2 \le \tau$", relation="<=",
                  given={t1: tau / (1 + r), t2: tau / (1 + w)})
            .step(4 * tau**2 + tau**4 + 50 * tau**3, r"$\mu_i \le \tau^2/2$", relation="<=",
                  given={mu1: tau**2 / (2 * (1 + r)), mu2: tau**2 / (2 * (1 + w))})
            .step(4 * tau**2 + 51 * tau**3, r"$\tau^4 \le \tau^3$ as $\tau \le 1$", relation="<=",
                  given={tau: 1 / (4 * (1 + r))})
            .step(4 * tau**2 + 26 * tau ** sp.Rational(5, 2), r"$51\tau^3 \le 26\tau^{2.5}$ iff $\tau \le (26/51)^2$",
                  relation="<=", given={tau: (sp.Rational(26, 51) / (1 + r)) ** 2}))


# --- Claim 4.5 ----------------------------------------------------------------------------------------------------
def claim45_geometric() -> Derivation:
    """Σ_{k≥3} 2(4τλ)^k ≤ 4(4τλ)³ = 4⁴(τλ)³ for 4τλ ≤ 1/2, then ≤ 32τ^{2.5}λ² for √τ λ ≤ 1/8."""
    x = sp.Symbol("x", positive=True)  # 4 tau lambda
    start = 2 * x**3 * sp.Sum(x**k, (k, 0, sp.oo))
    return (Derivation("Claim 4.5: the geometric tail and the constant 32", start,
                       source=SOURCE + ", proof of Claim 4.5", assumptions=(r"$4\tau\lambda \le 1/2$, "
                                                                            r"$\sqrt{\tau}\lambda \le 1/8$"))
            .step(2 * x**3 / (1 - x), "geometric series", given={x: 1 / (2 * (1 + r))})
            .step(4 * x**3, r"$1/(1 - x) \le 2$ for $x \le 1/2$", relation="<=", given={x: 1 / (2 * (1 + r))})
            .step(4**4 * (tau * lam) ** 3, r"$x = 4\tau\lambda$", given={x: 4 * tau * lam})
            .step(32 * tau ** sp.Rational(5, 2) * lam**2, r"$\sqrt{\tau}\lambda \le 1/8$", relation="<=",
                  given={lam: 1 / (8 * sp.sqrt(tau) * (1 + r))}))


def claim45_step22_cubic() -> Derivation:
    """Fact 4.1 at k = 3 asks 2²(a³ + b³) - (a + b)³ ≥ 0, and that gap is 3(a + b)(a - b)²: it holds for real a, b
    exactly when a + b ≥ 0 or a = b. In (22), a = ln(D/D'), b = ln(D'/D''), a + b = ln(D/D''): (22) at k = 3 says
    E_D[ln(D/D'')·(ln(D/D') - ln(D'/D''))²] ≥ 0, false whenever the atoms of negative group loss weigh more."""
    return (Derivation("Claim 4.5, (22) at $k = 3$: Fact 4.1's gap is $3(a + b)(a - b)^2$",
                       2**2 * (a_real**3 + b_real**3) - (a_real + b_real) ** 3,
                       source=SOURCE + r", proof of Claim 4.5, (22); catalogue \symdpid{dwork.fact4.1}",
                       assumptions="$a, b$ real (log-ratios, of either sign)")
            .step(3 * (a_real + b_real) * (a_real - b_real) ** 2, "factor"))


def claim45_sum() -> Derivation:
    """The claim's last line at τ₁ = τ₂ = τ: (33 + 32)τ^{2.5}λ² = 65τ^{2.5}λ², not the printed 55."""
    return (Derivation(r"Claim 4.5: $33\tau^{2.5}\lambda^2 + 32\tau^{2.5}\lambda^2 = 65\tau^{2.5}\lambda^2$",
                       33 * t1 ** sp.Rational(5, 2) * lam**2 + 32 * t2 ** sp.Rational(5, 2) * lam**2,
                       source=SOURCE + ", Claim 4.5 (last line of its proof)")
            .step(65 * tau ** sp.Rational(5, 2) * lam**2, r"$\tau_1 = \tau_2 = \tau$", given={t1: tau, t2: tau}))


# --- Theorem 4.1 --------------------------------------------------------------------------------------------------
def theorem41_exponents() -> Derivation:
    """(2^m)^{1.5^i}·34^{2·1.5^{i+1}}·m^{2·1.5^{i+1}} = (2^m·34³·m³)^{1.5^i}, as 2·1.5^{i+1} = 3·1.5^i."""
    p = H**i
    start = (2**m) ** p * 34 ** (2 * H ** (i + 1)) * m ** (2 * H ** (i + 1))
    return (Derivation(("Theorem 4.1: the bound on $c_{m,i}$ as a "
                        "power"), start, source=SOURCE + (", proof of Theorem "
                                                                                                 "4.1"))
            .step(2 ** (m * p) * 34 ** (3 * p) * m ** (3 * p), r"$2\cdot 1.5^{i+1} = 3\cdot 1.5^i$")
            .step((2**m * 34**3 * m**3) ** p, "collect the powers"))


def theorem41_alpha() -> Derivation:
    """2(2^{m+1}·34³(m+1)³τ)^{1.5} = α(2^{m+1}(m+1)³τ)^{1.5} with α = 2·34^{4.5}."""
    base = 2 ** (m + 1) * (m + 1) ** 3 * tau
    return (Derivation(r"Theorem 4.1: $\alpha = 2\cdot 34^{4.5}$", 2 * (34**3 * base) ** H, source=SOURCE + ", (6)")
            .step(ALPHA * base**H, "$(34^3)^{1.5} = 34^{4.5}$"))


def theorem41_mu_step() -> Derivation:
    """The μ induction step: 2(2^mτ)² + 5αX ≤ (2^{m+1}τ)²/2 + α·2^{2.5}X with X = (2^mτ)^{2.5}m^{4.5}; 2^{2.5} ≥ 5."""
    start = 2 * (2**m * tau) ** 2 + 5 * ALPHA * X
    return (Derivation("Theorem 4.1: the induction step of (11)", start, source=SOURCE + ", (11)")
            .step((2 ** (m + 1) * tau) ** 2 / 2 + 5 * ALPHA * X, r"$2(2^m\tau)^2 = (2^{m+1}\tau)^2/2$")
            .step((2 ** (m + 1) * tau) ** 2 / 2 + 2 ** sp.Rational(5, 2) * ALPHA * X, r"$5 \le 2^{2.5}$",
                  relation="<="))


def theorem41_eq11_base() -> Derivation:
    """(11) as printed at m = 0 claims μ₁ ≤ (2τ)²/2, but (12) at μ₀ = τ²/2 gives 2τ² + 3.5τ³ + 1.5τ⁴: m^{4.5} must be
    (m+1)^{4.5}."""
    from_12 = 2 * (tau**2 / 2) + tau**2 + sp.Rational(7, 2) * tau**3 + sp.Rational(3, 2) * tau**4
    printed = (2 * tau) ** 2 / 2 + ALPHA * (2 * tau) ** sp.Rational(5, 2) * 0 ** sp.Rational(9, 2)
    return (Derivation("Theorem 4.1: (12) exceeds the printed (11) at $m = 0$", from_12 - printed,
                       source=SOURCE + r", (11) and (12); catalogue \symdpid{dwork.thm4.1}, erratum 1")
            .step(sp.Rational(7, 2) * tau**3 + sp.Rational(3, 2) * tau**4, r"the printed bound is $2\tau^2$"))


def theorem41_relationship() -> Derivation:
    """The 'Relationship' paragraph: (2^{m+1}τ)(2^{m+1}(m+1)³τ)^{1.5} = (2^{m+1}τ)^{2.5}(m+1)^{4.5} (printed m^{4.5})."""
    n = m + 1
    return (Derivation(r"Theorem 4.1: the cross term of $\tau_{m+1}^2$", (2**n * tau) * (2**n * n**3 * tau) ** H,
                       source=SOURCE + ", proof of Theorem 4.1, `Relationship'")
            .step((2**n * tau) ** sp.Rational(5, 2) * n ** sp.Rational(9, 2), "collect: $(m+1)^{4.5}$, not $m^{4.5}$"))


def theorem41_mu_from_tau() -> Derivation:
    """The μ half from the τ half: KL ≤ τ_s²/2 (dwork.obs.kl-le-tau2) with τ_s = sτ + a(sτ)^{1.5}, sτ ≤ 1."""
    x = sp.Symbol("x", positive=True)  # s tau
    return (Derivation(r"Theorem 4.1: the $\mu$ bound follows from the $\tau$ bound", (x + a * x**H) ** 2 / 2,
                       source=SOURCE + r", Theorem 4.1; catalogue \symdpid{dwork.thm4.1}, `Simplification'",
                       assumptions=r"$x = s\tau \le 1$")
            .step(x**2 / 2 + a * x ** sp.Rational(5, 2) + a**2 * x**3 / 2, "expand")
            .step(x**2 / 2 + (a + a**2 / 2) * x ** sp.Rational(5, 2), r"$x^3 \le x^{2.5}$ for $x \le 1$",
                  relation="<=", given={x: 1 / (1 + r) ** 2}))


# --- Introduction: (ε, δ) group privacy ---------------------------------------------------------------------------
EPS_POSITIVE = {eps: sp.log(1 + r)}  # ε > 0, so that SymPy drops the e^ε = 1 branch of the geometric sum

def groupdp_leak_sum() -> Derivation:
    """The leak chain's group hockey-stick divergence: Σ_{k=1}^{s} e^{(s-k)ε}δ = δ(e^{sε} - 1)/(e^ε - 1)."""
    return (Derivation(r"Intro: the leak chain attains $\delta\sum_{j<s} e^{j\varepsilon}$",
                       sp.Sum(sp.exp((s - k) * eps) * delta, (k, 1, s)),
                       source=r"004_b3a545b59162ae7d.txt, Section 1; catalogue \symdpid{dwork.intro.groupdp}")
            .step(delta * sp.Sum(sp.exp(j * eps), (j, 0, s - 1)), "$j = s - k$", given=EPS_POSITIVE)
            .step(delta * (sp.exp(s * eps) - 1) / (sp.exp(eps) - 1), "geometric sum", given=EPS_POSITIVE))


def groupdp_standard_le_printed_form() -> Derivation:
    """δ Σ_{j<s} e^{jε} ≤ s e^{(s-1)ε} δ, termwise (shown for s = 3; each term e^{jε} ≤ e^{(s-1)ε})."""
    start = delta * sp.Sum(sp.exp(j * eps), (j, 0, 2))
    return (Derivation(r"Intro: $\delta\sum_{j<s} e^{j\varepsilon} \le s e^{(s-1)\varepsilon}\delta$ ($s = 3$)", start,
                       source="004_b3a545b59162ae7d.txt, Section 1")
            .step(delta * (1 + sp.exp(eps) + sp.exp(2 * eps)), "expand the sum")
            .step(3 * sp.exp(2 * eps) * delta, r"$e^{j\varepsilon} \le e^{2\varepsilon}$", relation="<=",
                  given={eps: sp.log(1 + r)}))


def groupdp_break_even() -> Derivation:
    """For s = 2 the tight (1 + e^ε)δ meets the printed 2eδ exactly at ε = ln(2e - 1)."""
    return (Derivation(r"Intro: $1 + e^{\varepsilon} = 2e$ at $\varepsilon = \ln(2e - 1)$", 1 + sp.exp(eps),
                       source=r"004_b3a545b59162ae7d.txt, Section 1; catalogue \symdpid{dwork.intro.groupdp}")
            .step(2 * sp.E, r"$\varepsilon = \ln(2e - 1)$", given={eps: sp.log(2 * sp.E - 1)}))


# --- FACTS: printed slips with numeric content --------------------------------------------------------------------
def claim45_printed_sum() -> bool:
    """Claim 4.5's last line: 33 + 32 = 65, not 55."""
    return 33 + 32 == 65 != 55


def lemma43_case1_printed_constant() -> bool:
    """With the printed 12, (2τ + 12τ^{1.5})²/2 - (2τ² + 48τ^{2.5}) = 24τ^{2.5}(3√τ - 1) < 0 for every τ < 1/9."""
    gap = sp.expand((2 * tau + 12 * tau**H) ** 2 / 2 - (2 * tau**2 + 48 * tau ** sp.Rational(5, 2)))
    factored = 24 * tau ** sp.Rational(5, 2) * (3 * sp.sqrt(tau) - 1)
    return sp.simplify(gap - factored) == 0 and bool(factored.subs(tau, sp.Rational(1, 10)) < 0)


def lemma43_case2_printed_constant() -> bool:
    """With Claim 4.5's 65, Case II needs 4τ² + 156τ^{2.5} ≤ (2τ + 34τ^{1.5})², false for τ < (5/289)² ≈ 3.0e-4."""
    gap = sp.expand((2 * tau + 34 * tau**H) ** 2 - (4 * tau**2 + 156 * tau ** sp.Rational(5, 2)))
    factored = 4 * tau ** sp.Rational(5, 2) * (289 * sp.sqrt(tau) - 5)
    return sp.simplify(gap - factored) == 0 and bool(factored.subs(tau, sp.Rational(1, 10**4)) < 0)


def claim44_51_to_26_boundary() -> bool:
    """51τ³ ≤ 26τ^{2.5} exactly for τ ≤ (26/51)² ≈ 0.2599, so (19)'s last step needs τ ≤ 1/4."""
    edge = sp.Rational(26, 51) ** 2
    return sp.simplify(51 * edge**3 - 26 * edge ** sp.Rational(5, 2)) == 0 and bool(edge > sp.Rational(1, 4))


def claim45_factorial_ratio() -> bool:
    """2^{k/2}√(k!)/k! = 2^{k/2}/√(k!) < 2 for k ≥ 3: √(4/3) at k = 3, and the ratio shrinks by √(2/(k+1)) < 1."""
    ratio = lambda n: 2 ** (sp.Integer(n) / 2 if isinstance(n, int) else n / 2) / sp.sqrt(sp.factorial(n))  # noqa: E731
    step = sp.simplify(ratio(k + 1) / ratio(k))
    return (sp.simplify(ratio(3) - sp.sqrt(sp.Rational(4, 3))) == 0 and bool(ratio(3) < 2)
            and sp.simplify(step - sp.sqrt(2) / sp.sqrt(k + 1)) == 0)


def groupdp_printed_safe_iff_eps_le_1() -> bool:
    """s e^{s-1} ≥ s e^{(s-1)ε} iff ε ≤ 1 (s ≥ 2): the printed exponent is safe exactly for ε ≤ 1."""
    ratio = sp.simplify(s * sp.exp(s - 1) / (s * sp.exp((s - 1) * eps)))
    return sp.simplify(ratio - sp.exp((s - 1) * (1 - eps))) == 0


FACTS = {
    "Claim 4.5: 33 + 32 = 65, printed 55": claim45_printed_sum,
    "Lemma 4.3 Case I: the printed constant 12 fails for tau < 1/9 (24 needed)": lemma43_case1_printed_constant,
    "Lemma 4.3 Case II: with 65 the constant 34 fails for tau < (5/289)^2 (39 needed)": lemma43_case2_printed_constant,
    "Claim 4.4: 51 tau^3 <= 26 tau^2.5 iff tau <= (26/51)^2": claim44_51_to_26_boundary,
    "Claim 4.5: 2^{k/2} sqrt(k!)/k! < 2 for k >= 3": claim45_factorial_ratio,
    "Intro: s e^{s-1} >= s e^{(s-1) eps} iff eps <= 1": groupdp_printed_safe_iff_eps_le_1,
}

DERIVATIONS: list[Derivation] = [
    groupdp_leak_sum(), groupdp_standard_le_printed_form(), groupdp_break_even(),
    theorem41_exponents(), theorem41_alpha(), theorem41_mu_step(), theorem41_eq11_base(), theorem41_relationship(),
    theorem41_mu_from_tau(), theorem41_eq12(),
    lemma42_statement_vs_proof(), lemma42_sharper(),
    lemma43_case1_factor(), lemma43_case1_constant(), lemma43_case2_exponent(68), lemma43_case2_exponent(78),
    lemma43_case2_constant(),
    claim44_square_root(), claim44_fourth_moment(), claim44_chain(), claim45_step22_cubic(), claim45_geometric(),
    claim45_sum(),
]
