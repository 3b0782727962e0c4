"""Derivations for Section 5 of Bravo, Flores-Mella, Guzmán (privacy of noisy SGD): the algebra between the lemmas
(catalogue §4 item 10). Each step is checked exactly by SymPy; the numeric side is :mod:`symdp.theorems.bravo.sgd`.

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp import symbols as sym
from symdp.derivation import Derivation

SOURCE = "003_a063a8ea298de6c8.txt, Section 5"

# Positive stand-ins for the quantities of Section 5 (the shared b, L, ... carry weaker assumptions; these live only in
# the derivations, which need positivity to take square roots and logarithms apart).
bp, Lp, sp_sigma, np_, Dp_, etap, Mp_, betap, Kp, ell, R_ = sp.symbols(
    "b L sigma n D eta M beta K ell R", positive=True)
p_ = sp.Symbol("p", nonnegative=True)
a_ = sp.Symbol("alpha", positive=True)
T_bar = sp.Symbol(r"\bar{T}", positive=True)


def eq22() -> Derivation:
    """(22): ε'(α) = αK/σ² + ln(1/δ)/(α − 1) at α = 1 + σ sqrt(ln(1/δ)/K) is K/σ² + (2/σ) sqrt(ln(1/δ) K)
    (ℓ = ln(1/δ))."""
    chosen = 1 + sp_sigma * sp.sqrt(ell / Kp)
    start = (a_ * Kp / sp_sigma ** 2 + ell / (a_ - 1)).subs(a_, chosen)
    return (Derivation(r"(22): Mironov's conversion at the chosen $\alpha$", start, source=SOURCE,
                       assumptions=r"$K, \sigma, \ell = \ln(1/\delta) > 0$")
            .step(Kp / sp_sigma ** 2 + sp.sqrt(ell / Kp) * Kp / sp_sigma + sp.sqrt(Kp / ell) * ell / sp_sigma,
                  r"expand $\alpha K/\sigma^2$; $\ell/(\alpha - 1) = \ell/(\sigma\sqrt{\ell/K})$")
            .step(Kp / sp_sigma ** 2 + 2 * sp.sqrt(ell * Kp) / sp_sigma, r"$\sqrt{\ell/K}\,K = \sqrt{K/\ell}\,\ell = "
                                                                           r"\sqrt{\ell K}$"))


ALPHA_STAR_54 = bp ** 2 * sp_sigma ** 2 / (16 * Lp ** 2) * sp.log(np_ / bp)
THRESHOLD_23 = bp ** 4 * sp_sigma ** 2 * sp.log(np_ / bp) ** 2 * Kp / (1024 * Lp ** 4)
THRESHOLD_23_PRINTED = bp ** 4 * sp_sigma ** 4 * sp.log(np_ / bp) ** 2 * Kp / (256 * Lp ** 4)


def eq23_threshold() -> Derivation:
    """The sufficient condition of (23) solved for ℓ: 2σ sqrt(ℓ/K) ≤ α* iff ℓ ≤ K (α*/(2σ))² = b⁴σ² ln²(n/b) K/(1024L⁴),
    the paper's b⁴σ⁴ ln²(n/b) K/(256L⁴) corrected (catalogue E3: σ to the power 2, not 4, and 1024 = 4·16², not 256),
    and at the least σ² = 40L²/b² it allows, (5/128)(b/L)² K ln²(n/b), not 6.25 K ln²(n/b)."""
    return (Derivation(r"(23): the threshold on $\ln(1/\delta)$", Kp * (ALPHA_STAR_54 / (2 * sp_sigma)) ** 2,
                       source=SOURCE,
                       assumptions=r"$\alpha^* = \frac{b^2\sigma^2}{16L^2}\ln(n/b)$; squaring $2\sigma\sqrt{\ell/K} "
                                   r"\le \alpha^*$ (both sides positive)")
            .step(THRESHOLD_23, r"$(\alpha^*)^2 K/(4\sigma^2)$ expanded: $\sigma^4/\sigma^2 = \sigma^2$, $4 \cdot "
                                r"16^2 = "
                                r"1024$ (the paper: $\sigma^4$, $256$)")
            .step(sp.Rational(5, 128) * bp ** 2 / Lp ** 2 * Kp * sp.log(np_ / bp) ** 2,
                  r"at $\sigma^2 = 40L^2/b^2$ (the paper: $6.25\,K\ln^2(n/b)$)",
                  given={sp_sigma: sp.sqrt(40) * Lp / bp}))


def a18_substitution() -> Derivation:
    """Lemma A.18 in Theorem 5.2's proof: the noise ησ/√2 of Z_t over the bias bound ‖m_t‖ ≤ 2ηL/b is s = bσ/(2√2L)
    (Lemma A.17's σ/r; s ≥ 4 iff σ ≥ 8√2L/b), and 2αq²/s² at q = b/n is 16αL²/(n²σ²)."""
    s_ = bp * sp_sigma / (2 * sp.sqrt(2) * Lp)
    return (Derivation(r"Theorem 5.2: Lemma A.18's bound at $q = b/n$, $s = b\sigma/(2\sqrt{2}L)$",
                       2 * a_ * (bp / np_) ** 2 / ((etap * sp_sigma / sp.sqrt(2)) / (2 * etap * Lp / bp)) ** 2,
                       source=SOURCE, assumptions=r"$s = (\eta\sigma/\sqrt{2})/(2\eta L/b)$, $q = b/n$")
            .step(2 * a_ * (bp / np_) ** 2 / s_ ** 2, r"$s = b\sigma/(2\sqrt{2}L)$")
            .step(16 * a_ * Lp ** 2 / (np_ ** 2 * sp_sigma ** 2), r"$s^2 = b^2\sigma^2/(8L^2)$"))


H_WEAK = (2 * etap ** (1 / (1 - p_)) * sp.sqrt((1 - p_) / (1 + p_)) * (Mp_ / 2) ** (1 / (1 - p_))) ** 2
"""h of the (p, M)-weakly smooth gradient map in Theorem 5.2's proof."""


def eq17() -> Derivation:
    """(17): Corollary 3.7's bound (α/(2σ_j²))(D²/R + h ln(Re)) with σ_j² = η²σ²/2 and the weakly smooth h,
    R = T − τ."""
    s2 = etap ** 2 * sp_sigma ** 2 / 2
    start = a_ / (2 * s2) * (Dp_ ** 2 / R_ + H_WEAK * sp.log(R_ * sp.E))
    return (Derivation(r"(17): Corollary 3.7 with $\sigma_j^2 = \eta^2\sigma^2/2$", start, source=SOURCE,
                       assumptions=r"$0 \le p < 1$, $R = T - \tau$")
            .step(a_ * Dp_ ** 2 / (etap ** 2 * sp_sigma ** 2 * R_) + a_ * H_WEAK / (etap ** 2 * sp_sigma ** 2)
                  * sp.log(R_ * sp.E), r"$\alpha/(2\sigma_j^2) = \alpha/(\eta^2\sigma^2)$ (the first line of (17))")
            .step(a_ * Dp_ ** 2 / (etap ** 2 * sp_sigma ** 2 * R_) + 4 * a_ * etap ** (2 / (1 - p_) - 2)
                  * ((1 - p_) / (1 + p_)) * (Mp_ / 2) ** (2 / (1 - p_)) / sp_sigma ** 2 * sp.log(R_ * sp.E),
                  r"$h/\eta^2 = 4\eta^{2/(1-p) - 2}\frac{1-p}{1+p}(M/2)^{2/(1-p)}$")
            .step(a_ * Dp_ ** 2 / (etap ** 2 * sp_sigma ** 2 * R_) + 4 * a_ * etap ** (2 * p_ / (1 - p_))
                  * ((1 - p_) / (1 + p_)) * (Mp_ / 2) ** (2 / (1 - p_)) / sp_sigma ** 2 * sp.log(R_ * sp.E),
                  r"$2/(1-p) - 2 = 2p/(1-p)$ (the second line of (17): an equality)"))


def eq21() -> Derivation:
    """(21): Corollary 3.8's bound α D² c^R (1 − c)/(2σ_j²(1 − c^R)) with c = (1 + ηβ)² and σ_j² = η²σ²/2: the paper's
    text says σ_j = ησ/2 (catalogue E8), which would double (21); the printed (21) is this one."""
    c_ = (1 + etap * betap) ** 2
    s2 = etap ** 2 * sp_sigma ** 2 / 2
    start = a_ * Dp_ ** 2 * c_ ** R_ * (1 - c_) / (2 * s2 * (1 - c_ ** R_))
    return (Derivation(r"(21): Corollary 3.8 with $c = (1 + \eta\beta)^2$, $\sigma_j^2 = \eta^2\sigma^2/2$", start,
                       source=SOURCE, assumptions=r"$\sigma_j = \eta\sigma/\sqrt{2}$ (printed: $\eta\sigma/2$, E8)")
            .step(a_ * Dp_ ** 2 * (1 + etap * betap) ** (2 * R_) * ((1 + etap * betap) ** 2 - 1)
                  / (etap ** 2 * sp_sigma ** 2 * ((1 + etap * betap) ** (2 * R_) - 1)), "(21) as printed, first form")
            .step(a_ * Dp_ ** 2 * (1 + etap * betap) ** (2 * R_) * (2 * etap * betap + etap ** 2 * betap ** 2)
                  / (etap ** 2 * sp_sigma ** 2 * ((1 + etap * betap) ** (2 * R_) - 1)), "(21), second form"))


def r_star() -> Derivation:
    """The minimiser of 16L²R/n² + D²/(η²R) over R > 0: its derivative vanishes at R* = Dn/(4ηL), where both terms are
    4DL/(nη)."""
    objective = 16 * Lp ** 2 * R_ / np_ ** 2 + Dp_ ** 2 / (etap ** 2 * R_)
    star = Dp_ * np_ / (4 * etap * Lp)
    return (Derivation(r"Theorem 5.2: the optimal $R = T - \tau$", sp.diff(objective, R_).subs(R_, star), source=SOURCE)
            .step(0, r"$\frac{d}{dR}\left(\frac{16L^2R}{n^2} + \frac{D^2}{\eta^2R}\right)$ at $R^* = "
                     r"\frac{Dn}{4\eta L}$"))


def theorem_5_4_last_step() -> Derivation:
    """Theorem 5.4's last line: with c^{T̄} ≥ 2, c^{T̄}/(c^{T̄} − 1) ≤ 2, so (21) ≤ (2αD²/(η²σ²))(2ηβ + η²β²) =
    (α/σ²)(4D²β/η + 2D²β²)."""
    return (Derivation("Theorem 5.4: the last equality", 2 * a_ * Dp_ ** 2 * (2 * etap * betap + etap ** 2 * betap ** 2)
                       / (etap ** 2 * sp_sigma ** 2), source=SOURCE)
            .step(a_ / sp_sigma ** 2 * (4 * Dp_ ** 2 * betap / etap + 2 * Dp_ ** 2 * betap ** 2), "expand"))


def modulus_5_4() -> Derivation:
    """The modulus of Φ_t in Theorem 5.4's proof: ‖x − y‖ + (η/b)Σ_{i ∈ B_t∖{i*}} ‖∇f_i(x) − ∇f_i(y)‖ ≤ ‖x − y‖ +
    (η/b)β‖x − y‖·|B_t∖{i*}| ≤ (1 + ηβ)‖x − y‖, since |B_t∖{i*}| = b − j ≤ b for batches of the fixed size b. The paper
    writes the first step as `=' (catalogue E17, a typo): it is β-smoothness, an inequality."""
    gap = sp.Symbol(r"\|x - y\|", positive=True)
    k_, j_ = sym.k, sym.j     # |B_t ∖ {i*}| and b − |B_t ∖ {i*}| ≥ 0
    return (Derivation(r"Theorem 5.4: the modulus $(1 + \eta\beta)\|x - y\|$", gap + etap / bp * betap * gap * k_,
                       source=SOURCE, assumptions=r"$\delta = \|x - y\|$, $k = |B_t \setminus \{i^*\}| = b - j$, "
                                                  r"$j \ge 0$")
            .step((1 + etap * betap) * gap, r"$k \le b$ (fixed batch size)", relation="<=", given={k_: bp - j_}))


DERIVATIONS = [eq22(), eq23_threshold(), a18_substitution(), eq17(), eq21(), r_star(), theorem_5_4_last_step(),
               modulus_5_4()]
