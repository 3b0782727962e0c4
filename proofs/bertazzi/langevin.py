"""Derivations for Section 5.1 and Appendix C.1 of Bertazzi, Johnston, Roberts, Durmus: the unadjusted Langevin
algorithm. The algebra of the proof of Theorem 5.2 (catalogue §4, identities 7 and 8), the stationary variance of
ULA on a Gaussian target (eq. (25)), and where the typos E13–E16 of the proofs show. Every step is checked exactly by
SymPy (:class:`symdp.derivation.Derivation`).

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import L, c, gamma, mu, n

SOURCE = "002_bf97d963b2294e2d.txt, Section 5.1 and Appendix C.1"

A_C1 = sp.Symbol("A", positive=True)
"""A = C(L + 1), the first term of the offset in the proof of Theorem 5.2."""
x_c1 = sp.Symbol("x", real=True)
"""x = 2γμ − γ²L², the quantity under the square root of (115)."""
e_star = sp.Symbol("e^{*}", positive=True)
"""The fixed point of the coupling recursion (116)."""

CONTRACTION = 1 - gamma * mu + gamma ** 2 * L ** 2 / 2
"""ρ = 1 − γμ + γ²L²/2, the contraction factor of (115)."""
C_COUPLING = 2 * c / (mu - gamma * L ** 2 / 2)
"""C = 2c/(μ − γL²/2), the bound (117) on the synchronous coupling's distance."""
C3_PRINTED = c ** 2 * (2 * (L + 1) / (mu - gamma * L ** 2 / 2) + 1) ** 2
"""C₃ of Theorem 5.2 as printed."""
C3_CORRECTED = (C_COUPLING * (L + 1) + 2 * c) ** 2
"""C₃' = (C(L + 1) + 2c)²: what Proposition 4.6 gives with the offset 2c that Assumption 5.1 allows (erratum E3)."""
C4_CORRECTED = c ** 2 * (2 * (L + 1) / mu + 1) ** 2
"""lim_{γ→0} C₃: the remark after Theorem 5.2 prints c(2(L + 1)/μ + 1), without the square (erratum E1)."""


def step_size_minimum() -> Derivation:
    """(113): 1 − 2γμ + γ²L² is least at γ = μ/L², where it is 1 − μ²/L² (and it is 1 again at γ = 2μ/L²)."""
    q = 1 - 2 * gamma * mu + gamma ** 2 * L ** 2
    return (Derivation(r"(113): the contraction $1 - 2\gamma\mu + \gamma^2L^2$ at its least", q,
                       source=SOURCE + ", eq. (113)", assumptions=r"$L \ge \mu > 0$")
            .step(L ** 2 * (gamma - mu / L ** 2) ** 2 + 1 - mu ** 2 / L ** 2, "complete the square in $\\gamma$")
            .step(1 - mu ** 2 / L ** 2 + L ** 2 * (gamma - mu / L ** 2) ** 2,
                  r"least ($= 1 - \mu^2/L^2$) at $\gamma = \mu/L^2$; $= 1$ at $\gamma = 2\mu/L^2$"))


def square_root_bound() -> Derivation:
    """(115): sqrt(1 − x) ≤ 1 − x/2 because (1 − x/2)² − (1 − x) = x²/4 ≥ 0; with x = 2γμ − γ²L², 1 − x/2 = ρ."""
    return (Derivation(r"(115): $(1 - x/2)^2 - (1 - x) = x^2/4$, and $1 - x/2 = \rho$",
                       (1 - x_c1 / 2) ** 2 - (1 - x_c1), source=SOURCE + ", eq. (115)")
            .step(x_c1 ** 2 / 4, "expand")
            .step(0, r"$x^2/4 \ge 0$", relation=">=")
            .step(1 - (2 * gamma * mu - gamma ** 2 * L ** 2) / 2 - CONTRACTION, r"$\rho = 1 - x/2$ at "
                  r"$x = 2\gamma\mu - \gamma^2L^2$ (the difference is 0)"))


def contraction_positive() -> Derivation:
    """ρ > 0 always: as a quadratic in γ its discriminant is μ² − 2L² < 0 (L ≥ μ)."""
    return (Derivation(r"$\rho > 0$: the discriminant of $1 - \gamma\mu + \gamma^2L^2/2$ in $\gamma$",
                       sp.discriminant(CONTRACTION, gamma), source=SOURCE + ", after eq. (115)",
                       assumptions=r"$L \ge \mu > 0$")
            .step(mu ** 2 - 2 * L ** 2, "the discriminant $b^2 - 4ac$"))


def fixed_point() -> Derivation:
    """(116)–(117): the fixed point of e ↦ ρe + 2γc is 2γc/(1 − ρ) = 2c/(μ − γL²/2) = C."""
    return (Derivation(r"(117): the fixed point of $e \mapsto \rho e + 2\gamma c$", 2 * gamma * c / (1 - CONTRACTION),
                       source=SOURCE + ", eqs. (116)-(117)")
            .step(2 * c / (mu - gamma * L ** 2 / 2), r"divide by $\gamma$")
            .step(C_COUPLING, "the constant $C$ of the proof"))


def coupling_recursion() -> Derivation:
    """e_n = e*(1 − ρⁿ) solves e_{n+1} = ρe_n + 2γc from e_0 = 0 when e* = 2γc/(1 − ρ): the difference is 0."""
    rho = sp.Symbol("rho", positive=True)
    e_n = e_star * (1 - rho ** n)
    return (Derivation(r"(117): $e_n = e^*(1 - \rho^n)$ solves $e_{n+1} = \rho e_n + 2\gamma c$, $e_0 = 0$",
                       e_star * (1 - rho ** (n + 1)) - (rho * e_n + 2 * gamma * c), source=SOURCE + ", eq. (117)")
            .step(e_star * (1 - rho) - 2 * gamma * c, "expand")
            .step(0, r"$e^* = 2\gamma c/(1 - \rho)$", given={e_star: 2 * gamma * c / (1 - rho)}))


def constant_c3() -> Derivation:
    """Identity 8: C₃ as printed is (C(L + 1) + c)², and the proof with offset 2c gives (C(L + 1) + 2c)², larger by
    c(2C(L + 1) + 3c) (erratum E3)."""
    A = C_COUPLING * (L + 1)
    return (Derivation(r"$C_3$: offsets $c$ and $2c$ in Proposition 4.6", C3_CORRECTED - C3_PRINTED,
                       source=SOURCE + ", Theorem 5.2 and its proof",
                       assumptions=r"$C = 2c/(\mu - \gamma L^2/2)$")
            .step((A + 2 * c) ** 2 - (A + c) ** 2, r"$C_3 = (C(L+1) + c)^2$, expanded")
            .step(c * (2 * A + 3 * c), r"$(A + 2c)^2 - (A + c)^2 = c(2A + 3c)$, $A = C(L+1)$"))


def constant_c4() -> Derivation:
    """lim_{γ→0} C₃ = c²(2(L + 1)/μ + 1)², the square the remark after Theorem 5.2 drops (erratum E1)."""
    return (Derivation(r"$\lim_{\gamma \to 0} C_3$", sp.Limit(C3_PRINTED, gamma, 0),
                       source=SOURCE + ", remark after Theorem 5.2")
            .step(C4_CORRECTED, r"continuity at $\gamma = 0$ ($\mu > 0$): a square, not $c(2(L+1)/\mu + 1)$"))


def ula_stationary_variance() -> Derivation:
    """Eq. (25) on U = μx²/2 + bx: var_{k+1} = (1 − γμ)² var_k + 2γ has the fixed point 2/(μ(2 − γμ)) (not 1/μ, the
    target's: ULA's bias)."""
    return (Derivation(r"(25): the stationary variance of ULA on $\mathcal{N}(-b/\mu, 1/\mu)$",
                       2 * gamma / (1 - (1 - gamma * mu) ** 2), source=SOURCE + ", eq. (25)",
                       assumptions=r"$0 < \gamma\mu < 2$")
            .step(2 / (mu * (2 - gamma * mu)), r"$1 - (1 - \gamma\mu)^2 = \gamma\mu(2 - \gamma\mu)$"))


def interpolation_square() -> Derivation:
    """(121), typo E14: |x + ty|² = |x|² + 2t⟨x, y⟩ + t²|y|² (the paper prints ⟨a, y⟩), componentwise in 2-D."""
    x1, x2, y1, y2, t = sp.symbols("x_1 x_2 y_1 y_2 t", real=True)
    return (Derivation(r"(121): $|x + ty|^2 = |x|^2 + 2t\langle x, y\rangle + t^2|y|^2$ "
                       r"(printed $\langle a, y\rangle$)", (x1 + t * y1) ** 2 + (x2 + t * y2) ** 2,
                       source=SOURCE + ", eq. (121)")
            .step(x1 ** 2 + x2 ** 2 + 2 * t * (x1 * y1 + x2 * y2) + t ** 2 * (y1 ** 2 + y2 ** 2), "expand"))


def coupling_step() -> Derivation:
    """(112), typo E13: e_{n+1} = e_n − γ(∇K(x) − ∇K(x')) − γ(∇V_D(x) − ∇V_D'(x')), the gradient of K entering as a
    difference (the paper prints −γ∇K(x) − γ∇K(x')), here with ∇K(x) = kx on the two states x, x'."""
    xs, xps, k, v, vp = sp.symbols("x x' k v v'", real=True)
    step = (xs - gamma * (k * xs + v)) - (xps - gamma * (k * xps + vp))
    return (Derivation(r"(112): the coupling's step, $\nabla K$ as a difference", step, source=SOURCE + ", eq. (112)")
            .step((xs - xps) - gamma * (k * xs - k * xps) - gamma * (v - vp),
                  r"$e_n - \gamma(\nabla K(x) - \nabla K(x')) - \gamma(\nabla V_{\mathcal{D}}(x) - "
                  r"\nabla V_{\mathcal{D}'}(x'))$"))


def sgld_contraction_typo() -> Derivation:
    """(125), typo E15: the contraction of App. C.2 is 1 − 2γμ + γ²L², the square of (113)'s argument; the paper
    prints 1 − 2μ + L²γ². The two differ by 2μ(γ − 1), zero only at γ = 1."""
    return (Derivation(r"(125): $1 - 2\gamma\mu + \gamma^2L^2$ against the printed $1 - 2\mu + L^2\gamma^2$",
                       (1 - 2 * gamma * mu + gamma ** 2 * L ** 2) - (1 - 2 * mu + L ** 2 * gamma ** 2),
                       source="002_bf97d963b2294e2d.txt, Appendix C.2, eq. (125)")
            .step(2 * mu * (1 - gamma), "the printed form is right only at $\\gamma = 1$"))


DERIVATIONS = [step_size_minimum(), square_root_bound(), contraction_positive(), fixed_point(), coupling_recursion(),
               constant_c3(), constant_c4(), ula_stationary_variance(), interpolation_square(), coupling_step(),
               sgld_contraction_typo()]
