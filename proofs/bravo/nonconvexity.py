"""Derivations for Appendix B and the claim of Section 3.2 of Bravo, Flores-Mella, Guzmán: the Hessian of one middle
addend g_{t-1}(u_{t-1}, u_t) = (φ_{t-1}(u_{t-1}) - u_t)² of the shifts objective E.

Proposition B.1 (φ_t(δ) = sqrt(δ² + h_t)) prints the Hessian, its determinant and its trace with h_t where g_{t-1}
has h_{t-1} (catalogue E11); the derivations here carry h_{t-1}. The matrix is compared through its quadratic form
ξᵀ∇²g ξ in symbolic ξ = (ξ_1, ξ_2), which determines a symmetric 2×2 matrix entry by entry. For general c the
determinant is 4ch(φ - u_t)/φ³ (catalogue §4 item 11), ≥ 0 on {u_t ≤ φ(u_{t-1})}: the fact behind the
positive-definiteness claim of Section 3.2.

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation

SOURCE = "003_a063a8ea298de6c8.txt, Appendix B"

u_prev, u_t = sp.symbols("u_{t-1} u_t", real=True)
c_prev = sp.Symbol("c_{t-1}", positive=True)
h_prev, h_t = sp.symbols("h_{t-1} h_t", nonnegative=True)
xi_1, xi_2 = sp.symbols("xi_1 xi_2", real=True)


def g(c=1, h=h_prev) -> sp.Expr:
    """g_{t-1}(u_{t-1}, u_t) = (sqrt(c u_{t-1}² + h) - u_t)²."""
    return (sp.sqrt(c * u_prev ** 2 + h) - u_t) ** 2


def printed_hessian(h) -> sp.Matrix:
    """The matrix of Proposition B.1 with ``h`` in the place the paper prints h_t."""
    root = sp.sqrt(u_prev ** 2 + h)
    return sp.Matrix([[2 - 2 * h * u_t / root ** 3, -2 * u_prev / root], [-2 * u_prev / root, 2]])


def printed_determinant(h) -> sp.Expr:
    return 4 * h * (sp.sqrt(u_prev ** 2 + h) - u_t) / (u_prev ** 2 + h) ** sp.Rational(3, 2)


def printed_trace(h) -> sp.Expr:
    return 4 - 2 * h * u_t / (u_prev ** 2 + h) ** sp.Rational(3, 2)


def quadratic_form(H) -> sp.Expr:
    """ξᵀHξ = ξ_1²H_11 + 2ξ_1ξ_2H_12 + ξ_2²H_22 for a symmetric H and ξ = (ξ_1, ξ_2)."""
    return xi_1 ** 2 * H[0, 0] + 2 * xi_1 * xi_2 * H[0, 1] + xi_2 ** 2 * H[1, 1]


def _second(expr, *variables) -> sp.Derivative:
    return sp.Derivative(expr, *variables)


def _differentiated(expr) -> dict:
    """Each unevaluated partial derivative of ``expr`` mapped to its value: a step's ``given``, so that SymPy checks
    the step by differentiating, not by searching simplifications for the derivatives."""
    return {d: d.doit() for d in expr.atoms(sp.Derivative)}


def hessian_quadratic_form() -> sp.Expr:
    """ξᵀ∇²g_{t-1}ξ with the partial derivatives unevaluated (the left side as it prints)."""
    G = g()
    return (xi_1 ** 2 * _second(G, (u_prev, 2)) + 2 * xi_1 * xi_2 * _second(G, u_prev, u_t)
            + xi_2 ** 2 * _second(G, (u_t, 2)))


def hessian() -> Derivation:
    """Proposition B.1, the matrix: ξᵀ∇²g_{t-1}ξ is the quadratic form of the printed matrix with h_{t-1}."""
    start = hessian_quadratic_form()
    return (Derivation("Proposition B.1: the Hessian of $g_{t-1}$ (c = 1)", start,
                       source=SOURCE + ", Proposition B.1",
                       assumptions=r"$\varphi_{t-1}(\delta) = \sqrt{\delta^2 + h_{t-1}}$, $h_{t-1} > 0$ or "
                                   r"$u_{t-1} \ne 0$")
            .step(start.doit(), "differentiate", given=_differentiated(start))
            .step(quadratic_form(printed_hessian(h_prev)), r"the printed matrix, $h_t$ read as $h_{t-1}$ (E11)"))


def determinant() -> Derivation:
    """Proposition B.1, the determinant of the Hessian of g_{t-1}, with h_{t-1}."""
    G = g()
    start = _second(G, (u_prev, 2)) * _second(G, (u_t, 2)) - _second(G, u_prev, u_t) ** 2
    return (Derivation(r"Proposition B.1: $\det\nabla^2 g_{t-1}$", start,
                       source=SOURCE + ", Proposition B.1")
            .step(start.doit(), "differentiate", given=_differentiated(start))
            .step(printed_determinant(h_prev), r"as printed, $h_t$ read as $h_{t-1}$ (E11)"))


def trace() -> Derivation:
    """Proposition B.1, the trace of the Hessian of g_{t-1}, with h_{t-1}."""
    G = g()
    start = _second(G, (u_prev, 2)) + _second(G, (u_t, 2))
    return (Derivation(r"Proposition B.1: $\operatorname{Tr}\nabla^2 g_{t-1}$", start,
                       source=SOURCE + ", Proposition B.1")
            .step(start.doit(), "differentiate", given=_differentiated(start))
            .step(printed_trace(h_prev), r"as printed, $h_t$ read as $h_{t-1}$ (E11)"))


def determinant_general_c() -> Derivation:
    """For φ_{t-1}(δ) = sqrt(c δ² + h): det ∇²g_{t-1} = 4ch(φ - u_t)/φ³ (catalogue §4 item 11)."""
    G = g(c=c_prev)
    phi = sp.sqrt(c_prev * u_prev ** 2 + h_prev)
    start = _second(G, (u_prev, 2)) * _second(G, (u_t, 2)) - _second(G, u_prev, u_t) ** 2
    return (Derivation(r"$\det\nabla^2 g_{t-1}$ for $\varphi_{t-1}(\delta) = \sqrt{c_{t-1}\delta^2 + h_{t-1}}$",
                       start, source="003_a063a8ea298de6c8.txt, Section 3.2 (the claim before Theorem 3.4)")
            .step(start.doit(), "differentiate", given=_differentiated(start))
            .step(4 * c_prev * h_prev * (phi - u_t) / phi ** 3, r"$\varphi'' = c h/\varphi^3$; the $\varphi'^2$ terms "
                                                               "cancel"))


DERIVATIONS: list = [hessian(), determinant(), trace(), determinant_general_c()]
