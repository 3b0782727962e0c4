"""Symbolic derivations for Dwork & Rothblum, *Concentrated Differential Privacy*, Section 3.2 ("antipodal KL").

Seed ``../shared/seeds/004_b3a545b59162ae7d.txt``; catalogue ``../shared/catalogue/catalogue-dwork.md`` (entries
dwork.lem3.10, dwork.lem3.9, dwork.prop3.1, dwork.claim3.11, dwork.claim3.12, dwork.def3.4, dwork.obs.rr-extremal).
Every step is checked exactly by SymPy (:class:`symdp.derivation.Derivation`); the numeric side of the same results
is in :mod:`symdp.theorems.dwork.antipodal`.

Displayed lines that SymPy would simplify on construction (``e^{-ε} - 1 + 2``) are built unevaluated, so the LaTeX
shows the paper's line; the check compares values, so this changes nothing it proves. Case splits are fixed by a
substitution given with the step: σ = sign(α) is set to +1 or -1 (sign(0) := +1), and ε > 0 is written
ε = ln(1 + k) with k > 0 where SymPy needs e^ε - 1 > 0 to see the sign of an inequality step.

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import alpha, beta, p_x, q  # beta: -alpha in Claim 3.12
from symdp.symbols import epsilon as eps

SOURCE = "004_b3a545b59162ae7d.txt, Section 3.2"

# ε, α, β, q, p_x are the catalogue's shared symbols (real, weakest assumptions); the others are names only this
# section uses. The paper's r (the mass of s in Lemma 3.10) is r_s here: symdp.symbols' r is an integer. ε > 0 is
# what the steps' substitutions (ε = ln(1 + k)) and case splits (σ_α = ±1) supply.
p, r = sp.symbols("p r_s", positive=True)
p1, q1, r1 = sp.symbols("p' q' r_s'", positive=True)  # the masses of M'
A = sp.Symbol("A", positive=True)  # M-mass of the '+ε' class of an antipodal pair
B = sp.Symbol("B", nonnegative=True)  # M-mass of the '-ε' class (measured in dwork.def3.4)
C = sp.Symbol("C", nonnegative=True)  # M-mass of the '0' class
sigma_alpha = sp.Symbol("sigma_alpha", integer=True)  # σ_α = sign(α), sign(0) := +1, in Lemma 3.9's split
M_x, Mp_x, D_x = sp.symbols("M[x] M'[x] D[x]", nonnegative=True)  # one atom's masses (D'[x] = p_x)
_k = sp.Dummy("k", positive=True)  # ε = ln(1 + k): what makes e^ε - 1 > 0 visible to SymPy
E = sp.exp


def _u(*args):
    """An unevaluated sum, to display a line exactly as printed."""
    return sp.Add(*args, evaluate=False)


def _m(*args):
    """An unevaluated product."""
    return sp.Mul(*args, evaluate=False)


# --- Lemma 3.10 ---------------------------------------------------------------------------------------------------
PRIMES = {p1: p * E(-eps), q1: q * E(eps), r1: r}
P_FROM_Q = {p: q * (E(eps) - 1) / (1 - E(-eps))}  # the proof's solution of p + q = p e^{-eps} + q e^{eps}


def lemma310_normalisation() -> Derivation:
    """p + q + r = p' + q' + r' with p' = p e^{-ε}, q' = q e^ε, r' = r forces p = q(e^ε - 1)/(1 - e^{-ε}) = q e^ε."""
    mass_difference = (p + q + r) - (p * E(-eps) + q * E(eps) + r)
    return (Derivation(r"Lemma 3.10: normalisation of $M'$ forces $p = q e^{\varepsilon}$", mass_difference,
                       source=SOURCE + ", proof of Lemma 3.10", assumptions=r"$\varepsilon > 0$")
            .step(p * (1 - E(-eps)) - q * (E(eps) - 1), "collect $p$ and $q$")
            .step(0, r"$p = q (e^{\varepsilon} - 1)/(1 - e^{-\varepsilon})$, the proof's third line", given=P_FROM_Q))


def lemma310_p() -> Derivation:
    return (Derivation("Lemma 3.10: the solved mass $p$", q * (E(eps) - 1) / (1 - E(-eps)), source=SOURCE)
            .step(q * E(eps), r"multiply numerator and denominator by $e^{\varepsilon}$"))


def lemma310_kl_forward() -> Derivation:
    """D_KL(M‖M') over the three atoms {x, y, s}, and its closed form."""
    start = p * sp.log(p / p1) + q * sp.log(q / q1) + r * sp.log(r / r1)
    return (Derivation(r"Lemma 3.10: $D_{\mathrm{KL}}(M\|M')$ on $\{x, y, s\}$", start, source=SOURCE)
            .step(eps * (p - q), r"$p' = p e^{-\varepsilon}$, $q' = q e^{\varepsilon}$, $r' = r$", given=PRIMES)
            .step(eps * q * (E(eps) - 1), r"$p = q e^{\varepsilon}$", given={p: q * E(eps)}))


def lemma310_kl_reverse() -> Derivation:
    start = p1 * sp.log(p1 / p) + q1 * sp.log(q1 / q) + r1 * sp.log(r1 / r)
    return (Derivation(r"Lemma 3.10: $D_{\mathrm{KL}}(M'\|M)$ on $\{x, y, s\}$", start, source=SOURCE)
            .step(eps * (q * E(eps) - p * E(-eps)), r"$p' = p e^{-\varepsilon}$, $q' = q e^{\varepsilon}$, $r' = r$",
                  given=PRIMES)
            .step(eps * q * (E(eps) - 1), r"$p = q e^{\varepsilon}$", given={p: q * E(eps)}))


def lemma310_difference() -> Derivation:
    """The nine displayed lines of the proof of Lemma 3.10 (with the naming typos p_x → p corrected)."""
    frac = (E(eps) - 1) / (1 - E(-eps))
    d = Derivation((r"Lemma 3.10: $D_{\mathrm{KL}}(M\|M') - "
                    r"D_{\mathrm{KL}}(M'\|M) = 0$"), eps * (p - q) - eps * (q * E(eps) - p * E(-eps)),
                   source=SOURCE + ", proof of Lemma 3.10", assumptions=(r"$\varepsilon > 0$, $p = q(e^{\varepsilon} - "
                                                                         r"1)/(1 - e^{-\varepsilon})$"))
    return (d.step(eps * (p * (E(-eps) + 1) - q * (E(eps) + 1)), "collect $p$ and $q$")
            .step(eps * q * (frac * (E(-eps) + 1) - (E(eps) + 1)), "substitute $p$", given=P_FROM_Q)
            .step(eps * q * (frac * _u(E(-eps), -1, 2) - (E(eps) + 1)),
                  r"$e^{-\varepsilon} + 1 = (e^{-\varepsilon} - 1) + 2$")
            .step(eps * q * _u((E(eps) - 1) * (E(-eps) - 1) / (1 - E(-eps)), 2 * frac, -(E(eps) + 1)), "distribute")
            .step(eps * q * _u(-(E(eps) - 1), 2 * frac, -(E(eps) + 1)),
                  r"cancel $(e^{-\varepsilon} - 1)/(1 - e^{-\varepsilon}) = -1$")
            .step(2 * eps * q * (frac - E(eps)), "collect")
            .step(2 * eps * q * (_u(E(eps) - 1, -E(eps) * (1 - E(-eps)))) / (1 - E(-eps)), "common denominator")
            .step(2 * eps * q * _u(E(eps) - 1, -E(eps), 1) / (1 - E(-eps)), (r"expand $e^{\varepsilon}(1 - "
                                                                             r"e^{-\varepsilon})$"))
            .step(0, "the numerator vanishes"))


# --- Lemma 3.9 ----------------------------------------------------------------------------------------------------
def lemma39_equal_split(sign: int) -> Derivation:
    """M[s_x] = D[x] - M[x] equals M'[s_x] = D'[x] - M'[x], for σ = sign(α) = ``sign`` (the displayed chain)."""
    s = sigma_alpha
    rho = (E(alpha * eps) - 1) / (E(s * eps) - 1)
    fix = {s: sign}
    d = Derivation(rf"Lemma 3.9: $M[s_x] = M'[s_x]$ ($\sigma = {sign:+d}$)",
                   p_x * E(alpha * eps) - E(s * eps) * p_x * rho,
                   source=SOURCE + ", proof of Lemma 3.9",
                   assumptions=rf"$\sigma = \operatorname{{sign}}(\alpha) = {sign:+d}$, $\varepsilon > 0$")
    return (d.step(p_x * (E(alpha * eps) - E(s * eps) * rho), "factor $p_x$", given=fix)
            .step(p_x * (E(alpha * eps) - _u(E(s * eps), -1, 1) * rho),
                  r"$e^{\sigma\varepsilon} = (e^{\sigma\varepsilon} - 1) + 1$", given=fix)
            .step(p_x * _u(E(alpha * eps), -(E(s * eps) - 1) * rho, -rho), "distribute", given=fix)
            .step(p_x * _u(E(alpha * eps), -(E(alpha * eps) - 1), -rho), (r"cancel $e^{\sigma\varepsilon} "
                                                                          "- 1$"), given=fix)
            .step(p_x * (1 - rho), "$= D'[x] - M'[x] = M'[s_x]$", given=fix))


# --- Proposition 3.1 ----------------------------------------------------------------------------------------------
SPLIT_MASSES = {M_x: E(sigma_alpha * eps) * p_x * (E(alpha * eps) - 1) / (E(sigma_alpha * eps) - 1),
                Mp_x: p_x * (E(alpha * eps) - 1) / (E(sigma_alpha * eps) - 1), D_x: p_x * E(alpha * eps)}
"""Lemma 3.9's split of one atom with D'[x] = p_x, D[x] = e^{αε} p_x."""

GAIN_CLOSED_FORM = (p_x * eps * E(sigma_alpha * eps) / (E(sigma_alpha * eps) - 1)
                    * (E(alpha * eps) * (sigma_alpha + alpha * (-1 + E(-sigma_alpha * eps))) - sigma_alpha))
"""The proof's first display: M[x] ln(M[x]/M'[x]) - D[x] ln(D[x]/D'[x]) in closed form (dwork.prop3.1.identity)."""


def proposition31_gain() -> Derivation:
    """The per-atom KL gain of the split equals the proof's first display, for either sign σ_α (any σ_α ≠ 0: the
    sign only decides whether the masses are non-negative)."""
    s, es, ea = sigma_alpha, E(sigma_alpha * eps), E(alpha * eps)
    start = M_x * sp.log(M_x / Mp_x) - D_x * sp.log(D_x / p_x)
    return (Derivation("Proposition 3.1: the per-atom KL gain in closed form", start,
                       source=SOURCE + ", proof of Proposition 3.1 (first display)",
                       assumptions=r"$M'[x] = p_x (e^{\alpha\varepsilon} - 1)/(e^{\sigma\varepsilon} - 1)$, $M[x] = "
                                   r"e^{\sigma\varepsilon} M'[x]$, $D[x] = e^{\alpha\varepsilon} p_x$; $\sigma = "
                                   r"\operatorname{sign}(\alpha) \in \{-1, +1\}$")
            .step(p_x * es * (ea - 1) / (es - 1) * s * eps - p_x * ea * alpha * eps,
                  r"the split's masses: $\ln\frac{M[x]}{M'[x]} = \sigma_\alpha\varepsilon$, $\ln\frac{D[x]}{D'[x]} = "
                  r"\alpha\varepsilon$", given=SPLIT_MASSES)
            .step(p_x * eps / (es - 1) * (s * es * (ea - 1) - (es - 1) * ea * alpha), "common denominator")
            .step(p_x * eps * es / (es - 1) * _u(s * (ea - 1), -ea * alpha, E(-s * eps) * ea * alpha),
                  r"factor $e^{\sigma\varepsilon}$")
            .step(GAIN_CLOSED_FORM, r"collect $e^{\alpha\varepsilon}$"))


def proposition31_identity(sign: int) -> Derivation:
    """The proof's first display: the per-atom gain in closed form, then as (positive factor) × (claim gap)."""
    s = sigma_alpha
    es, ea = E(s * eps), E(alpha * eps)
    fix = {s: sign}
    start = p_x * es * (ea - 1) / (es - 1) * s * eps - p_x * ea * alpha * eps
    d = (Derivation(rf"Proposition 3.1: the per-atom KL gain ($\sigma = {sign:+d}$)", start,
                    source=SOURCE + ", proof of Proposition 3.1",
                    assumptions=(rf"$\sigma = \operatorname{{sign}}(\alpha) = {sign:+d}$; $M[x]\ln(M[x]/M'[x]) = "
                                 r"M[x]\sigma\varepsilon$, $D[x]\ln(D[x]/D'[x]) = D[x]\alpha\varepsilon$"))
         .step(p_x * eps * (s * es * (ea - 1) / (es - 1) - ea * alpha), r"factor $p_x \varepsilon$", given=fix)
         .step(p_x * eps / (es - 1) * (s * es * (ea - 1) - (es - 1) * ea * alpha), "common denominator", given=fix)
         .step(p_x * eps * es / (es - 1) * _u(s * (ea - 1), -ea * alpha, E(-s * eps) * ea * alpha),
               r"factor $e^{\sigma\varepsilon}$", given=fix)
         .step(p_x * eps * es / (es - 1) * (ea * (s + alpha * (-1 + E(-s * eps))) - s), ("collect "
                                                                                         r"$e^{\alpha\varepsilon}$"),
               given=fix))
    if sign == 1:  # Case I: the bracket is e^{αε} × (Claim 3.11's gap) ≥ 0, and the factor is positive
        gap = alpha * (-1 + E(-eps)) - (E(-alpha * eps) - 1)
        return d.step(p_x * eps * E(eps) * ea / (E(eps) - 1) * gap,
                      r"factor $e^{\alpha\varepsilon}$: Claim 3.11's gap, $\ge 0$ for $\alpha \in [0, 1]$", given=fix)
    gap = (1 - E(-alpha * eps)) - alpha * (-1 + E(eps))  # Case II: Claim 3.12's gap, the factor is positive
    return (d.step(p_x * eps * E(-eps) / (E(-eps) - 1) * (ea * (-1 + alpha * (-1 + E(eps))) + 1),
                   "Case II form of the paper", given=fix)
            .step(p_x * eps * E(-eps) * ea / (1 - E(-eps)) * gap,
                  r"factor $-e^{\alpha\varepsilon}$: Claim 3.12's gap, $\ge 0$ for $\alpha \in [-1, 0)$", given=fix))


# --- Claims 3.11, 3.12 --------------------------------------------------------------------------------------------
def claim311_convexity() -> Derivation:
    """α(e^{-ε} - 1) - (e^{-αε} - 1) = (1-α)e^0 + αe^{-ε} - e^{(1-α)·0 + α·(-ε)} ≥ 0 by convexity of exp."""
    start = alpha * (-1 + E(-eps)) - (E(-alpha * eps) - 1)
    return (Derivation(r"Claim 3.11: the gap is a convexity gap of $\exp$", start, source=SOURCE + ", Claim 3.11",
                       assumptions=r"$\alpha \in [0, 1]$, $\varepsilon \ge 0$")
            .step(_u(_m(1 - alpha, E(0, evaluate=False)), alpha * E(-eps),
                     -E(_u(_m(1 - alpha, 0), _m(alpha, -eps)), evaluate=False)),
                  r"convexity gap of $\exp$ between $0$ and $-\varepsilon$"))


def claim311_derivative() -> Derivation:
    """The paper's argument: the gap is 0 at ε = 0 and its ε-derivative is α(e^{-αε} - e^{-ε}) ≥ 0."""
    gap = alpha * (-1 + E(-eps)) - (E(-alpha * eps) - 1)
    return (Derivation(r"Claim 3.11: derivative of the gap in $\varepsilon$", sp.Derivative(gap, eps),
                       source=SOURCE + ", proof of Claim 3.11")
            .step(-alpha * E(-eps) + alpha * E(-alpha * eps), "differentiate")
            .step(alpha * E(-eps) * E(-alpha * eps) * (E(eps) - E(alpha * eps)),
                  r"factor: $\ge 0$ as $\alpha\varepsilon \le \varepsilon$"))


def claim312_convexity() -> Derivation:
    """With β = -α ∈ (0, 1]: (1 - e^{-αε}) - α(e^ε - 1) = (1-β)e^0 + βe^ε - e^{(1-β)·0 + βε} ≥ 0."""
    start = (1 - E(-alpha * eps)) - alpha * (-1 + E(eps))
    return (Derivation(r"Claim 3.12: the gap is a convexity gap of $\exp$", start, source=SOURCE + ", Claim 3.12",
                       assumptions=r"$\alpha = -\beta \in [-1, 0)$, $\varepsilon \ge 0$")
            .step(_u(_m(1 - beta, E(0, evaluate=False)), beta * E(eps),
                     -E(_u(_m(1 - beta, 0), _m(beta, eps)), evaluate=False)),
                  r"$\alpha = -\beta$: convexity gap of $\exp$ between $0$ and $\varepsilon$", given={alpha: -beta}))


def claim312_derivative() -> Derivation:
    gap = (1 - E(-alpha * eps)) - alpha * (-1 + E(eps))
    return (Derivation(r"Claim 3.12: derivative of the gap in $\varepsilon$", sp.Derivative(gap, eps),
                       source=SOURCE + ", proof of Claim 3.12")
            .step(alpha * E(-alpha * eps) - alpha * E(eps), "differentiate")
            .step(-alpha * E(-alpha * eps) * (E((1 + alpha) * eps) - 1), r"factor: $\ge 0$ for $\alpha \in [-1, 0)$"))


# --- Definition 3.4: the antipodal closed form and its maximum -------------------------------------------------------
def antipodal_normalisation() -> Derivation:
    """Classes of M-mass A ('+ε'), B ('-ε'), C ('0'): M' has mass A e^{-ε} + B e^ε + C, which is 1 iff A = e^ε B."""
    return (Derivation(("Definition 3.4: $M'$ is normalised when $A = "
                        r"e^{\varepsilon} B$"), A * E(-eps) + B * E(eps) + C - (A + B + C),
                       source=SOURCE + r", Definition 3.4 (catalogue \symdpid{dwork.def3.4})")
            .step(0, r"$A = e^{\varepsilon} B$", given={A: E(eps) * B}))


def antipodal_kl() -> Derivation:
    """D_KL(M‖M') = Aε + B(-ε) + C·0 = εB(e^ε - 1) ≤ ε(e^ε - 1)/(e^ε + 1) = ε tanh(ε/2)."""
    start = _u(_m(A, eps), _m(B, -eps), _m(C, 0))
    return (Derivation((r"Definition 3.4: KL of an antipodal pair and its maximum $\varepsilon "
                        r"\tanh(\varepsilon/2)$"), start,
                       source=SOURCE + r", Definition 3.4; catalogue \symdpid{dwork.obs.rr-extremal}",
                       assumptions=(r"$A = e^{\varepsilon} B$; $C = 1 - A - B \ge 0$, i.e. $B \le 1/(1 + "
                                    r"e^{\varepsilon})$; $\varepsilon > 0$"))
            .step(eps * B * (E(eps) - 1), r"$A = e^{\varepsilon} B$", given={A: E(eps) * B})
            .step(eps * (E(eps) - 1) / (E(eps) + 1), ((r"$B = (1 - C)/(1 + e^{\varepsilon}) \le 1/(1 + "
                                                       r"e^{\varepsilon})$")),
                  relation="<=", given={B: (1 - C) / (1 + E(eps)), eps: sp.log(1 + _k)})
            .step(eps * sp.tanh(eps / 2), r"$= \varepsilon \tanh(\varepsilon/2)$"))


def lemma38_gap() -> Derivation:
    """The printed bound of Lemma 3.8 over the sharp one: (e^ε + 1)/2."""
    ratio = (eps * (E(eps) - 1) / 2) / (eps * (E(eps) - 1) / (E(eps) + 1))
    return (Derivation("Lemma 3.8: printed bound over sharp bound", ratio,
                       source=SOURCE + r", Lemma 3.8; catalogue \symdpid{dwork.lem3.8}, `gap'")
            .step((E(eps) + 1) / 2, r"cancel $\varepsilon (e^{\varepsilon} - 1)$"))


DERIVATIONS: list[Derivation] = [
    lemma310_normalisation(), lemma310_p(), lemma310_kl_forward(), lemma310_kl_reverse(), lemma310_difference(),
    lemma39_equal_split(1), lemma39_equal_split(-1),
    proposition31_gain(), proposition31_identity(1), proposition31_identity(-1),
    claim311_convexity(), claim311_derivative(), claim312_convexity(), claim312_derivative(),
    antipodal_normalisation(), antipodal_kl(), lemma38_gap(),
]
