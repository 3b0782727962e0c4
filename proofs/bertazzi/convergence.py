"""Derivations for Section 3.1 and Appendix A.1–A.2 of Bertazzi, Johnston, Roberts, Durmus (from convergence to DP).

Seed ``../shared/seeds/002_bf97d963b2294e2d.txt``; catalogue ``../shared/catalogue/catalogue-bertazzi.md`` (entries
bertazzi.propA.2, bertazzi.propA.3, bertazzi.prop3.4; §4 items 2 and 10). Every step is checked exactly by SymPy
(:class:`symdp.derivation.Derivation`).

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation
from symdp.symbols import beta as beta_tv
from symdp.symbols import delta, epsilon

SOURCE = "002_bf97d963b2294e2d.txt, Section 3.1 and Appendix A.1-A.2"

nu_prime = sp.Symbol(r"\nu_{\mathcal{D}'}(\mathsf{B})", nonnegative=True)
gap = sp.Symbol(r"\Delta_{\delta}", positive=True)
"""δ_μ − δ_ν of Proposition A.3 (β of Proposition A.2 is :data:`symdp.symbols.beta`, printed β)."""


def proposition_a_2_chain() -> Derivation:
    """The last line of the proof of Proposition A.2: ν_𝒟(B) ≤ μ_𝒟(B) + β ≤ e^ε μ_𝒟′(B) + δ + β ≤ e^ε(ν_𝒟′(B) + β)
    + δ + β, collected into e^ε ν_𝒟′(B) + δ + β(e^ε + 1)."""
    return (Derivation(r"proof of Proposition A.2: the bound on $\nu_{\mathcal{D}}(\mathsf{B})$",
                       sp.exp(epsilon) * (nu_prime + beta_tv) + delta + beta_tv, source=SOURCE + ", eqs. (39)-(43)",
                       assumptions=r"$\varepsilon \ge 0$, $\beta \ge 0$")
            .step(sp.exp(epsilon) * nu_prime + delta + beta_tv * (sp.exp(epsilon) + 1),
                  r"collect the two $\beta$ terms"))


def proposition_a_3_optimiser() -> Derivation:
    """The ζ that balances the two terms of min{ζ, e^{−ε}(Δ − ζ)} in eq. (54): ζ* = e^{−ε}Δ/(1 + e^{−ε}) =
    Δ/(1 + e^ε), where ζ* − e^{−ε}(Δ − ζ*) = 0; Proposition 3.4 prints the first form."""
    star = sp.exp(-epsilon) / (1 + sp.exp(-epsilon)) * gap
    return (Derivation(r"proof of Proposition A.3: the balancing $\zeta^*$ of eq. (54)",
                       star - sp.exp(-epsilon) * (gap - star), source=SOURCE + ", eq. (54)",
                       assumptions=r"$\Delta_\delta = \delta_\mu - \delta_\nu > 0$")
            .step(sp.Integer(0), r"$\zeta^* = \frac{e^{-\varepsilon}}{1 + e^{-\varepsilon}}\Delta_\delta$ solves "
                                 r"$\zeta = e^{-\varepsilon}(\Delta_\delta - \zeta)$")
            .step(star - gap / (1 + sp.exp(epsilon)), r"and equals $\frac{\Delta_\delta}{1 + e^\varepsilon}$ "
                                                     r"(multiply by $e^\varepsilon$ above and below)"))


def proposition_a_3_construction() -> Derivation:
    """The tight two-point construction of Proposition A.3: moving ν_𝒟 = Bern(p), ν_𝒟′ = Bern(e^ε p + δ_ν) by t in
    opposite directions raises δ by t + e^ε t, so t = Δ/(1 + e^ε) is the bound itself."""
    t_ = gap / (1 + sp.exp(epsilon))
    return (Derivation(r"Proposition A.3 is attained: the moved mass $t$ against the bound",
                       t_ + sp.exp(epsilon) * t_, source=SOURCE + ", Proposition A.3 (tightness)",
                       assumptions=r"$t = \frac{\Delta_\delta}{1 + e^\varepsilon}$")
            .step(gap, r"$t(1 + e^\varepsilon) = \Delta_\delta$"))


DERIVATIONS = [proposition_a_2_chain(), proposition_a_3_optimiser(), proposition_a_3_construction()]
