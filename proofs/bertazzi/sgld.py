"""Derivations for Section 5.2-5.3 and Appendix C.2-C.4 of Bertazzi, Johnston, Roberts, Durmus: the synchronous
coupling of SGLD (App. C.2, C.3), the constants of Theorems 5.6 and 5.7 with the drift offset their proofs need
(catalogue E4, E5), the sign of (131) (E17), and Proposition 4.5 at offset c/s over time nγ (App. C.4)."""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation

SOURCE = "002_bf97d963b2294e2d.txt, Section 5.2-5.3 and Appendix C.2-C.4"

mu_p, L_p, gamma_p, c_p, beta_p, s_p, n_p = sp.symbols("mu L gamma c beta s n", positive=True)
"""Positive stand-ins (the shared symbols are real): γ < 2μ/L² makes μ − γL²/2 > 0, which the proofs use."""

RHO = 1 - gamma_p * mu_p + gamma_p ** 2 * L_p ** 2 / 2
"""(125)–(126): the contraction factor of the synchronous coupling, √(1 − 2γμ + γ²L²) ≤ 1 − γμ + γ²L²/2."""
COUPLING = 2 * c_p / (mu_p - gamma_p * L_p ** 2 / 2)
"""(117)/(127): C = sup_n |e_n| for Theorem 5.6."""
COUPLING_57 = COUPLING / s_p
"""(131) corrected: C = 2c/(s(μ − γL²/2)) for Theorem 5.7."""


def fixed_point_56() -> Derivation:
    """(126)–(127): the fixed point of e ↦ ρe + 2γc, 2γc/(1 − ρ), is 2c/(μ − γL²/2)."""
    return (Derivation(r"(127): the fixed point of $e \mapsto \rho e + 2\gamma c$", 2 * gamma_p * c_p / (1 - RHO),
                       source=SOURCE, assumptions=r"$\rho = 1 - \gamma\mu + \gamma^2L^2/2$, $0 < \gamma < 2\mu/L^2$")
            .step(2 * gamma_p * c_p / (gamma_p * mu_p - gamma_p ** 2 * L_p ** 2 / 2), r"$1 - \rho$")
            .step(COUPLING, r"cancel $\gamma$"))


def fixed_point_57() -> Derivation:
    """(129)–(131): with only the differing datum contributing, the offset per step is 2γc/s and the fixed point
    2c/(s(μ − γL²/2)); the printed 2c/(s(γL²/2 − μ)) is its negative (catalogue E17)."""
    return (Derivation(r"(131): the fixed point of $e \mapsto \rho e + 2\gamma c/s$",
                       2 * gamma_p * c_p / s_p / (1 - RHO),
                       source=SOURCE, assumptions=r"$\rho = 1 - \gamma\mu + \gamma^2L^2/2$, $0 < \gamma < 2\mu/L^2$")
            .step(COUPLING_57, r"$1 - \rho = \gamma(\mu - \gamma L^2/2)$")
            .step(-2 * c_p / (s_p * (gamma_p * L_p ** 2 / 2 - mu_p)),
                  r"the printed denominator $s(\gamma L^2/2 - \mu)$ is minus the correct one (E17)"))


def offset_gap_56() -> Derivation:
    """E4: the proof's Proposition 4.6 needs offset 2c (|∇v(x, d) − ∇v(y, d′)| ≤ 2c); the constant it yields,
    β(C(L + 1) + 2c)², exceeds the printed β(C(L + 1) + c)² = c²β(2(L + 1)/(μ − γL²/2) + 1)² by βc(2C(L + 1) + 3c)."""
    A = COUPLING * (L_p + 1)
    return (Derivation(r"E4: Theorem 5.6's constant at offset $2c$ against the printed one",
                       beta_p * (A + 2 * c_p) ** 2 - c_p ** 2 * beta_p * (2 * (L_p + 1) / (
                           mu_p - gamma_p * L_p ** 2 / 2) + 1) ** 2, source=SOURCE,
                       assumptions=r"$C = 2c/(\mu - \gamma L^2/2)$")
            .step(beta_p * (A + 2 * c_p) ** 2 - beta_p * (A + c_p) ** 2, r"$c(2(L+1)/(\mu - \gamma L^2/2) + 1) = "
                                                                          r"C(L + 1) + c$")
            .step(beta_p * c_p * (2 * A + 3 * c_p), r"difference of squares"))


def offset_gap_57() -> Derivation:
    """E5: the same at offset 2c/s with C = 2c/(s(μ − γL²/2)): the printed C₇ is β(C(L + 1) + c/s)²."""
    A = COUPLING_57 * (L_p + 1)
    return (Derivation(r"E5: Theorem 5.7's constant at offset $2c/s$ against the printed one",
                       beta_p * (A + 2 * c_p / s_p) ** 2 - c_p ** 2 * beta_p / s_p ** 2 * (2 * (L_p + 1) / (
                           mu_p - gamma_p * L_p ** 2 / 2) + 1) ** 2, source=SOURCE,
                       assumptions=r"$C = 2c/(s(\mu - \gamma L^2/2))$")
            .step(beta_p * (A + 2 * c_p / s_p) ** 2 - beta_p * (A + c_p / s_p) ** 2,
                  r"$\frac{c}{s}(2(L+1)/(\mu - \gamma L^2/2) + 1) = C(L + 1) + c/s$")
            .step(beta_p * c_p / s_p * (2 * A + 3 * c_p / s_p), r"difference of squares"))


def path_constant_58() -> Derivation:
    """(132): Proposition 4.5's C₁ = c²βT at offset c/s over T = nγ is C₈ = βc²nγ/s²."""
    return (Derivation(r"(132): Proposition 4.5 at offset $c/s$ over $T = n\gamma$", (c_p / s_p) ** 2 * beta_p * (
        n_p * gamma_p), source=SOURCE, assumptions=r"$|\frac{1}{s}\sum_{i \in A}(\nabla\ell(x, d_i) - "
                                                   r"\nabla\ell(x, d_i'))| \le c/s$")
            .step(beta_p * c_p ** 2 * n_p * gamma_p / s_p ** 2, r"$C_8(n)$ of (36)"))


DERIVATIONS: list = [fixed_point_56(), fixed_point_57(), offset_gap_56(), offset_gap_57(), path_constant_58()]
