"""Derivations for Section 4 and Appendix B of Bertazzi, Johnston, Roberts, Durmus (the privacy of diffusions).

Seed ``../shared/seeds/002_bf97d963b2294e2d.txt``; catalogue ``../shared/catalogue/catalogue-bertazzi.md`` (entries
bertazzi.rem4.3, bertazzi.lemB.1, bertazzi.lemB.3, bertazzi.proof4.5, bertazzi.proof4.6; §4 identities 1, 4, 5, 6).
Every step is checked exactly by SymPy (:class:`symdp.derivation.Derivation`).

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import c, delta, lam

SOURCE = "002_bf97d963b2294e2d.txt, Section 4 and Appendix B"

C_1 = sp.Symbol("C_1", positive=True)
"""The constant of an RDP curve α C_1/4 (Propositions 4.5, 4.6: C_1(T) = c²βT, C_2 = β(C(L+1) + c)²)."""
t_order = sp.Symbol("t_alpha", positive=True)
"""t = α − 1 > 0, the distance of the Rényi order from 1."""
K_u = sp.Symbol("K_u", positive=True)
"""K of Lemmas B.2, B.3: the bound on |u_t|."""
a_tail = sp.Symbol("a_tail", positive=True)
"""a > 0 of Lemma B.3 (the tail level)."""
upsilon = sp.Symbol("upsilon", positive=True)
"""υ > 0, the Chernoff parameter of the proof of Lemma B.3."""
h_T = sp.Symbol("T_h", positive=True)
"""A horizon T > 0 of the continuous-time proofs (the catalogue's T is an integer)."""
g_step, u_step, w_step, m_step = sp.symbols("gamma_g u_g w_g m_g", positive=True)
"""One Euler step of Lemma B.1: step γ, perturbation u, standardised noise w, mean m (all > 0 for SymPy's sake; the
identity is polynomial in u, w, m)."""
beta_p = sp.Symbol("beta_p", positive=True)
"""β > 0 of Appendix B (the shared β is real)."""
e_start, time_t = sp.symbols("e_{T-1} t_s", real=True)


def rdp_to_dp_minimum() -> Derivation:
    """Remark 4.3: min_{α>1} [α C/4 + log(1/δ)/(α − 1)] = C/4 + sqrt(C log(1/δ)), at α* = 1 + 2 sqrt(λ/C), λ =
    log(1/δ) (catalogue §4 identity 1): the value at t* = α* − 1."""
    t_star = 2 * sp.sqrt(lam / C_1)
    return (Derivation(r"Remark 4.3: the RDP-to-DP conversion of $\alpha C/4$ at its minimiser", (
        (1 + t_order) * C_1 / 4 + lam / t_order).subs(t_order, t_star), source=SOURCE + ", Remark 4.3",
        assumptions=r"$C > 0$, $\lambda = \log(1/\delta) > 0$, $t = \alpha - 1 = 2\sqrt{\lambda/C}$")
        .step(C_1 / 4 + sp.sqrt(lam / C_1) * C_1 / 2 + lam / (2 * sp.sqrt(lam / C_1)), "expand")
        .step(C_1 / 4 + sp.sqrt(C_1 * lam), r"$\sqrt{\lambda/C}\,C = \lambda/\sqrt{\lambda/C} = \sqrt{C\lambda}$",
              given={lam: sp.Symbol("lambda_pos", positive=True)}))


def rdp_to_dp_stationary() -> Derivation:
    """Remark 4.3: the derivative of (1 + t)C/4 + λ/t vanishes at t* = 2 sqrt(λ/C) (and the second derivative 2λ/t³
    is positive, so it is the minimum over t > 0)."""
    lam_pos = sp.Symbol("lambda_pos", positive=True)
    objective = (1 + t_order) * C_1 / 4 + lam_pos / t_order
    return (Derivation(r"Remark 4.3: $t^* = 2\sqrt{\lambda/C}$ is stationary",
                       sp.diff(objective, t_order).subs(t_order, 2 * sp.sqrt(lam_pos / C_1)),
                       source=SOURCE + ", Remark 4.3", assumptions=r"$C > 0$, $\lambda > 0$")
            .step(C_1 / 4 - lam_pos / (4 * lam_pos / C_1), r"$\partial_t = C/4 - \lambda/t^2$ at $t^{*2} = "
                  r"4\lambda/C$")
            .step(0, "cancel"))


def chernoff_lemma_b3() -> Derivation:
    """Lemma B.3, eqs. (84)–(85): min_υ (−aυ + Tυ²K²/2) = −a²/(2TK²) at υ* = a/(TK²) (catalogue §4 identity 4)."""
    objective = -a_tail * upsilon + h_T * upsilon ** 2 * K_u ** 2 / 2
    return (Derivation(r"Lemma B.3: the Chernoff exponent at $\upsilon^* = a/(TK^2)$",
                       objective.subs(upsilon, a_tail / (h_T * K_u ** 2)), source=SOURCE + ", eqs. (84)--(85)",
                       assumptions=r"$a, T, K > 0$")
            .step(-a_tail ** 2 / (h_T * K_u ** 2) + a_tail ** 2 / (2 * h_T * K_u ** 2), "expand")
            .step(-a_tail ** 2 / (2 * h_T * K_u ** 2), "collect"))


def prop45_tail_is_delta() -> Derivation:
    """Proof of Proposition 4.5, eqs. (88)–(91): Lemma B.3 with K = c sqrt(β/2) at a = ε_δ − βTc²/4 gives exactly δ,
    ε_δ = C_1/4 + sqrt(C_1 log(1/δ)), C_1 = c²βT (catalogue §4 identity 5)."""
    C1 = c ** 2 * beta_p * h_T
    eps_delta = C1 / 4 + sp.sqrt(C1 * sp.log(1 / delta))
    K = c * sp.sqrt(beta_p / 2)
    return (Derivation(r"Proposition 4.5: the tail bound at $\varepsilon_\delta$ is $\delta$",
                       sp.exp(-(eps_delta - beta_p * h_T * c ** 2 / 4) ** 2 / (2 * h_T * K ** 2)),
                       source=SOURCE + ", eqs. (88)--(91)",
                       assumptions=r"$\beta, T > 0$, $c \ne 0$, $\delta \in (0, 1)$")
            .step(sp.exp(-C1 * sp.log(1 / delta) / (h_T * beta_p * c ** 2)),
                  r"$\varepsilon_\delta - C_1/4 = \sqrt{C_1\log(1/\delta)}$, $2TK^2 = T\beta c^2$")
            .step(sp.exp(-sp.log(1 / delta)), "$C_1 = c^2\\beta T$")
            .step(delta, r"$e^{-\log(1/\delta)} = \delta$"))


def prop45_renyi_exponent() -> Derivation:
    """Proof of Proposition 4.5, eqs. (92)–(95): (α − 1)βTc²/4 + T(1 − α)²(β/2)c²/2 = α(α − 1)βTc²/4, whose
    division by α − 1 is ε_α = αC_1/4 (catalogue §4 identity 5)."""
    a_ = 1 + t_order
    return (Derivation(r"Proposition 4.5: the R\'enyi exponent", (a_ - 1) * beta_p * h_T * c ** 2 / 4
                       + h_T / 2 * (1 - a_) ** 2 * beta_p / 2 * c ** 2, source=SOURCE + ", eqs. (92)--(95)",
                       assumptions=r"$\alpha = 1 + t > 1$")
            .step(beta_p * h_T * c ** 2 / 4 * a_ * (a_ - 1), "factor"))


def girsanov_one_step() -> Derivation:
    """Lemma B.1, eq. (75), one Euler step: log N(m + sqrt(2/β)w; m + uγ, 2γ/β) − log N(m + sqrt(2/β)w; m, 2γ/β) =
    sqrt(β/2) u w − (β/4) u² γ, w ~ N(0, γ) the Brownian increment (catalogue §4 identity 6): the + sign of (75)."""
    x = m_step + sp.sqrt(2 / beta_p) * w_step
    var = 2 * g_step / beta_p
    log_ratio = -(x - m_step - u_step * g_step) ** 2 / (2 * var) + (x - m_step) ** 2 / (2 * var)
    return (Derivation(r"Lemma B.1: one Euler step of the density (75)", log_ratio, source=SOURCE + ", eq. (75)",
                       assumptions=r"$\beta, \gamma > 0$; $w$ the Brownian increment over the step")
            .step(sp.sqrt(beta_p / 2) * u_step * w_step - beta_p / 4 * u_step ** 2 * g_step, "expand the squares"))


def prop46_bridge() -> Derivation:
    """Proof of Proposition 4.6, eq. (100): on [T − 1, T] the perturbed difference e_t = Z_t − X'_t solves de_t =
    −e_{T−1} dt, so e_t = e_{T−1} − (t − (T − 1)) e_{T−1} = (T − t) e_{T−1}, and Z_T = X'_T."""
    return (Derivation(r"Proposition 4.6: $Z_t - X'_t = (T - t)(Z_{T-1} - X'_{T-1})$",
                       e_start - (time_t - (h_T - 1)) * e_start, source=SOURCE + ", eqs. (98)--(100)",
                       assumptions=r"$t \in [T-1, T]$")
            .step((h_T - time_t) * e_start, "collect")
            .step(0, "at $t = T$", given={time_t: h_T}))


DERIVATIONS: list = [rdp_to_dp_minimum(), rdp_to_dp_stationary(), chernoff_lemma_b3(), prop45_tail_is_delta(),
                     prop45_renyi_exponent(), girsanov_one_step(), prop46_bridge()]
