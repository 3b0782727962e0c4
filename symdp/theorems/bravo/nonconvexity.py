"""Bravo, Flores-Mella, Guzmán (2025), Appendix B and the claim of Section 3.2: the shifts problem (P) is not convex.
The Hessian of Proposition B.1 (identities, :mod:`proofs.bravo.nonconvexity`), the Hessian of E on R (positive
definite, as Section 3.2 claims), and the two nonconvexities: R itself, and E off R (Figure 2)."""

from __future__ import annotations

from functools import cache

import mpmath
import sympy as sp
from flint import arb
from hypothesis import strategies as st

from symdp.errors import InvalidParameter
from symdp.estimate import exact_ball
from symdp.expressions import quantity
from symdp.numeric import to_mpf
from symdp.proofs.bravo import nonconvexity as proof
from symdp.statement import lambdify_mpmath
from symdp.strategies import flatmapped
from symdp.symbols import D, a, h
from symdp.theorem import (
    CLOSED_FORM,
    IDENTITY,
    Param,
    Printed,
    Setting,
    declare,
    identity,
    registered,
    theorem,
)
from symdp.theorems.bravo.common import P_D, ball, built_exactly, enclosure, finite_floats, in_balls, rational
from symdp.theorems.bravo.shifts import FIGURE_2

u_prev, u_t, h_prev, h_t, xi_1, xi_2 = proof.u_prev, proof.u_t, proof.h_prev, proof.h_t, proof.xi_1, proof.xi_2

HessianForm = quantity(
    "HessianForm", 0, r"\xi^\top\nabla^2 g_{{t-1}}\left(u_{{t-1}}, u_t\right)\xi",
    "The quadratic form of the Hessian of g_{t-1} = (sqrt(u_{t-1}^2 + h_{t-1}) - u_t)^2, by numerical "
    "differentiation of g_{t-1}.")
MinEigenvalue = quantity(
    "MinEigenvalue", 1, r"\lambda_{{\min}}\left(\nabla^2 E\left({0}\right)\right)",
    "The smallest eigenvalue of the Hessian of the shifts objective E at a point.")
MidpointExcess = quantity(
    "MidpointExcess", 0, r"\max_{{1 \le t < T}}\left(\bar u_t - \varphi_{{t-1}}(\bar u_{{t-1}})\right)",
    "How far the midpoint ū of two points of R is outside R: the largest excess of ū_t over φ_{t-1}(ū_{t-1}).")
u_vec = sp.Symbol(r"\mathbf{u}")
u_bar = sp.Symbol(r"\bar{\mathbf{u}}")


# --- Proposition B.1: the Hessian of g_{t-1}, its determinant and trace (identities) ---------------------------------

def _g_of(h_value):
    return lambda x, y: (mpmath.sqrt(x * x + h_value) - y) ** 2


def hessian_form(point) -> dict:
    r"""$\xi^\top\nabla^2 g_{t-1}\xi$ from $g_{t-1}(x, y) = (\sqrt{x^2 + h_{t-1}} - y)^2$ itself: its second
    partial derivatives by \symdpcode{mpmath.diff} (numerical differentiation at working precision)."""
    g = _g_of(point["h_{t-1}"])
    x, y = point["u_{t-1}"], point["u_t"]
    gxx, gxy, gyy = (mpmath.diff(g, (x, y), order) for order in ((2, 0), (1, 1), (0, 2)))
    return {HessianForm(): point["xi_1"] ** 2 * gxx + 2 * point["xi_1"] * point["xi_2"] * gxy
            + point["xi_2"] ** 2 * gyy}


_HESSIAN, _DETERMINANT, _TRACE, _DETERMINANT_C = proof.DERIVATIONS
B1_LATEX = (r"$g_{t-1}(u_{t-1}, u_t) = (\varphi_{t-1}(u_{t-1}) - u_t)^2$, $\varphi_{t-1}(\delta) = \sqrt{\delta^2 + "
            r"h_{t-1}}$, $\xi = (\xi_1, \xi_2)$")
B1_PARAMETERS = (Param(u_prev, sp.Interval(0, sp.oo), sample=(0.0, 5.0)),
                 Param(u_t, sp.Interval(0, sp.oo), sample=(0.0, 5.0)),
                 Param(h_prev, sp.Interval.Lopen(0, sp.oo), sample=(0.01, 4.0)),
                 Param(h_t, sp.Interval.Lopen(0, sp.oo), sample=(0.01, 4.0)),
                 Param(xi_1, sp.Interval(-1, 1)), Param(xi_2, sp.Interval(-1, 1)))
E11_COUNTEREXAMPLE = {"u_{t-1}": 1.0, "u_t": 1.0, "h_{t-1}": 4.0, "h_t": 1.0, "xi_1": 1.0, "xi_2": 0.0}
"""h_{t-1} = 4, h_t = 1 at (1, 1): ∂²g/∂u²_{t-1} = 2 - 8/5^{3/2} = 1.2845, the printed entry 2 - 2/2^{3/2} = 1.2929."""

proposition_b1 = identity(
    _HESSIAN,
    id="bravo.propB.1", title=r"the Hessian of $g_{t-1}$", number="Proposition B.1", setting=Setting(B1_LATEX),
    symbolic_only=r"an identity in $u_{t-1}, u_t, h_{t-1}, \xi$, proved by SymPy (\symdpcode{proofs.bravo."
                  r"nonconvexity.hessian}): the quadratic form in symbolic $\xi$ fixes the symmetric matrix entry by "
                  "entry",
    notes=r"The printed matrix, with $h_{t-1}$ where the paper prints $h_t$ (catalogue E11; the printed form is "
          r"\symdpid{bravo.propB.1.printed}). The proposition's last claim, $\nabla^2 E \succeq 0$ on $\mathcal{R}$, "
          r"is measured with the stronger claim of Section 3.2 in \symdpid{bravo.sec3.2.hess}.",
    printed=Printed(
        id="bravo.propB.1.printed", severity="typo", title=r"the Hessian of $g_{t-1}$, with $h_t$ as printed",
        statement=sp.Eq(HessianForm(), proof.quadratic_form(proof.printed_hessian(h_t))),
        location=r"Appendix B, Proposition B.1: the Hessian, its determinant and its trace",
        printed=r"$\nabla^2 g_{t-1}$, $\det$ and $\operatorname{Tr}$ written with $h_t$",
        corrected=r"with $h_{t-1}$: $g_{t-1}$ involves $\varphi_{t-1}(\delta) = \sqrt{\delta^2 + h_{t-1}}$",
        counterexample=E11_COUNTEREXAMPLE,
        note=r"At $u_{t-1} = u_t = 1$, $h_{t-1} = 4$, $h_t = 1$, $\xi = (1, 0)$: $\partial^2 g_{t-1}/\partial "
             r"u_{t-1}^2 = 2 - 8/5^{3/2} = 1.2845$, the printed entry $2 - 2/2^{3/2} = 1.2929$ (catalogue E11). "
             "The determinant and the trace carry the same misprint.",
        changes={"evidence": "independent", "derivation": None, "symbolic_only": "", "witness": hessian_form,
                 "parameters": B1_PARAMETERS, "default_examples": 20,
                 "setting": Setting(B1_LATEX + r", $h_t > 0$ the next modulus's"),
                 "notes": r"Expected violated where $h_t \ne h_{t-1}$: the Hessian measured by numerical "
                          r"differentiation of $g_{t-1}$."}))

proposition_b1_det = declare(
    id="bravo.propB.1.det", title=r"the determinant of the Hessian of $g_{t-1}$", number="Proposition B.1",
    setting=Setting(B1_LATEX), statement=sp.Eq(_DETERMINANT.start, _DETERMINANT.end), evidence=IDENTITY,
    derivation=_DETERMINANT,
    symbolic_only=r"an identity proved by SymPy (\symdpcode{proofs.bravo.nonconvexity.determinant})",
    notes=r"With $h_{t-1}$ (printed $h_t$, E11, \symdpid{bravo.propB.1.printed}). Nonnegative on $\{u_t \le "
          r"\varphi_{t-1}(u_{t-1})\}$, zero on its boundary.")

proposition_b1_trace = identity(
    _TRACE,
    id="bravo.propB.1.trace", title=r"the trace of the Hessian of $g_{t-1}$", number="Proposition B.1",
    setting=Setting(B1_LATEX),
    symbolic_only=r"an identity proved by SymPy (\symdpcode{proofs.bravo.nonconvexity.trace})",
    notes=r"With $h_{t-1}$ (printed $h_t$, E11, \symdpid{bravo.propB.1.printed}).")

hessian_determinant_c = identity(
    _DETERMINANT_C,
    id="bravo.sec3.2.hess.det", title=r"the determinant of the Hessian of $g_{t-1}$ for $\varphi_{t-1}(\delta) = "
    r"\sqrt{c_{t-1}\delta^2 + h_{t-1}}$", number="Section 3.2 (the claim before Theorem 3.4)",
    setting=Setting(r"$g_{t-1}(u_{t-1}, u_t) = (\varphi_{t-1}(u_{t-1}) - u_t)^2$, $\varphi_{t-1}(\delta) = "
                    r"\sqrt{c_{t-1}\delta^2 + h_{t-1}}$, $c_{t-1} > 0$"),
    symbolic_only=r"an identity proved by SymPy (\symdpcode{proofs.bravo.nonconvexity.determinant\_general\_c}; "
                  r"catalogue \S 4 item 11)",
    notes=r"Nonnegative on $\{u_t \le \varphi_{t-1}(u_{t-1})\}$: with $\partial^2 g_{t-1}/\partial u_t^2 = 2$, each "
          r"middle addend of $E$ is convex on $\mathcal{R}$, the first step of \symdpid{bravo.sec3.2.hess}.")

# --- Section 3.2: the Hessian of E on R ------------------------------------------------------------------------------

@cache
def _compiled_hessian(n: int):
    """∇²E for T = n, built by SymPy from E's definition (sp.hessian) in symbolic (D, c_t, h_t, σ_t², u_t), compiled
    once per T to mpmath."""
    cs, hs = sp.symbols(f"c0:{n}", positive=True), sp.symbols(f"h0:{n}", nonnegative=True)
    s2, us = sp.symbols(f"s0:{n}", positive=True), sp.symbols(f"u1:{n}", real=True)
    path = [D, *us, 0]
    E = sum((sp.sqrt(cs[t - 1] * path[t - 1] ** 2 + hs[t - 1]) - path[t]) ** 2 / s2[t - 1] for t in range(1, n + 1))
    return lambdify_mpmath((D, cs, hs, s2, us), sp.hessian(E, us))


def min_hessian_eigenvalue(u, c, h, sigma2, D_) -> mpmath.mpf:
    """λ_min(∇²E(u)) at the interior shifts u = (u_1, ..., u_{T-1}), by mpmath.eigsy (an estimate)."""
    H = mpmath.matrix(_compiled_hessian(len(c))(D_, c, h, sigma2, u))
    return min(mpmath.eigsy(H, eigvals_only=True))


@cache
def _ball_hessian(n: int):
    """∇²E for T = n as :func:`_compiled_hessian` builds it (sp.hessian of E's definition), compiled once per T to
    Arb balls (:func:`symdp.statement.lambdify_arb`): its entries, row by row."""
    from symdp.statement import lambdify_arb

    cs, hs = sp.symbols(f"c0:{n}", positive=True), sp.symbols(f"h0:{n}", nonnegative=True)
    s2, us = sp.symbols(f"s0:{n}", positive=True), sp.symbols(f"u1:{n}", real=True)
    path = [D, *us, 0]
    E = sum((sp.sqrt(cs[t - 1] * path[t - 1] ** 2 + hs[t - 1]) - path[t]) ** 2 / s2[t - 1] for t in range(1, n + 1))
    return lambdify_arb([D, *cs, *hs, *s2, *us], sp.Tuple(*sp.hessian(E, us)))


def _positive_definite(H, shift) -> bool:
    """Whether H − shift·I is proved positive definite for every symmetric matrix in the ball matrix H: the pivots of
    its LDLᵀ factorisation (the lower triangle of H), computed in balls, all proved > 0."""
    n = len(H)
    L = [[None] * n for _ in range(n)]
    d = []
    for k in range(n):
        pivot = H[k][k] - shift - sum((L[k][j] * L[k][j] * d[j] for j in range(k)), 0)
        if not pivot > 0:
            return False
        d.append(pivot)
        for i in range(k + 1, n):
            L[i][k] = (H[i][k] - sum((L[i][j] * L[k][j] * d[j] for j in range(k)), 0)) / pivot
    return True


def min_eigenvalue_ball(H):
    """An Arb ball holding λ_min of every symmetric matrix in the ball matrix H (a list of rows), or None where the
    balls cannot pin it: above, the Rayleigh quotient vᵀHv/vᵀv at the approximate eigenvector v of the midpoints
    (mpmath.eigsy), exact binary numbers; below, λ − e for the approximate λ, where H − (λ − e)I is proved positive
    definite (:func:`_positive_definite`), e from 10^(−dps/2) of the matrix's size up to 10^(−dps/4)."""
    n = len(H)
    middle = mpmath.matrix([[mpmath.mpf(x.mid()) for x in row] for row in H])
    values, vectors = mpmath.eigsy((middle + middle.T) / 2)
    k = min(range(n), key=lambda i: values[i])
    v = [arb(vectors[i, k]) for i in range(n)]
    rayleigh = sum((v[i] * H[i][j] * v[j] for i in range(n) for j in range(n)), arb(0)) / sum((t * t for t in v),
                                                                                            arb(0))
    size = max(max(abs(mpmath.mpf(x.mid())) for row in H for x in row), mpmath.mpf(1))
    for digits in (mpmath.mp.dps // 2, mpmath.mp.dps // 4):
        lower = arb(values[k] - size * mpmath.mpf(10) ** -digits)
        if _positive_definite(H, lower):
            return lower.union(arb(rayleigh.upper()))
    return None


def hessian_min_eigenvalue(u, c, h, sigma2, D_):
    """λ_min(∇²E(u)) as a certified enclosure (:func:`min_eigenvalue_ball`) of the Hessian computed in balls from
    the given balls or exact numbers (:func:`_ball_hessian`), built from the draw exactly (the balls carry every
    rounding); the mpmath estimate at the balls' midpoints where the balls cannot pin it."""
    n = len(c)
    with in_balls():
        entries = [exact_ball(x) for x in _ball_hessian(n)(*[exact_ball(x) for x in (D_, *c, *h, *sigma2, *u)])]
        H = [list(entries[i * (n - 1):(i + 1) * (n - 1)]) for i in range(n - 1)]
        ball_ = min_eigenvalue_ball(H) if all(x.is_finite() for x in entries) else None
    if ball_ is None:
        mid = lambda x: mpmath.mpf(exact_ball(x).mid())   # noqa: E731
        return min_hessian_eigenvalue([mid(x) for x in u], [mid(x) for x in c], [mid(x) for x in h],
                                      [mid(x) for x in sigma2], mid(D_))
    return built_exactly(ball_)


def hessian_instances() -> st.SearchStrategy[dict]:
    """T ∈ [2, 6], c_t ∈ [0.2, 3], h_t ∈ {0} ∪ [0.01, 2], σ_t² ∈ [0.01, 10] (the catalogue's ranges) and a point of R
    as fractions f_t ∈ [0.01, 1] of φ_{t-1}(u_{t-1}) (1: on the boundary, where det ∇²g_{t-1} = 0)."""
    def of_length(n):
        vec = lambda s, size=n: st.lists(s, min_size=size, max_size=size)
        return st.fixed_dictionaries({
            "c": vec(finite_floats(0.2, 3.0)), "h": vec(st.one_of(st.just(0.0), finite_floats(0.01, 2.0))),
            "sigma2": vec(finite_floats(0.01, 10.0)),
            "fractions": vec(st.one_of(st.just(1.0), finite_floats(0.01, 1.0)), n - 1)})
    return flatmapped(st.integers(2, 6), of_length)


def _feasible_point(structure, D_) -> tuple[list, list, list, list]:
    """(u, c, h, σ²): u_t = f_t φ_{t-1}(u_{t-1}), a point of R, eq. (3); u as Arb balls (:func:`hessian_min_eigenvalue`
    reads their midpoints where it falls back to mpmath)."""
    c, h, s2 = ([to_mpf(x, name) for x in structure[key]]
                for key, name in (("c", "c_t"), ("h", "h_t"), ("sigma2", "sigma_t^2")))
    fractions = [to_mpf(f, "fraction f_t") for f in structure["fractions"]]
    if not (len(c) == len(h) == len(s2) == len(fractions) + 1 >= 2):
        raise InvalidParameter("give T >= 2 values of c_t, h_t, sigma_t^2 and T - 1 fractions")
    if min(c) <= 0 or min(s2) <= 0 or min(h) < 0 or not all(0 < f <= 1 for f in fractions):
        raise InvalidParameter("need c_t > 0, sigma_t^2 > 0, h_t >= 0 and fractions in (0, 1] (a point of R)")
    u, previous = [], exact_ball(D_)
    with in_balls():   # the point of R in balls from the draw's exact numbers: they carry the rounding of the sqrt
        for t, f in enumerate(fractions):
            previous = exact_ball(f) * (exact_ball(c[t]) * previous ** 2 + exact_ball(h[t])).sqrt()
            u.append(previous)
    return u, c, h, s2


HESSIAN_SETTING = Setting(
    r"$E(\mathbf{u}) = \sum_{t=1}^T (\varphi_{t-1}(u_{t-1}) - u_t)^2/\sigma_{t-1}^2$, $\varphi_t(\delta) = "
    r"\sqrt{c_t\delta^2 + h_t}$, $c_t > 0$, $h_t \ge 0$, $2 \le T \le 6$, $\mathbf{u} \in \mathcal{R}$: $u_0 = D$, "
    r"$u_T = 0$, $0 < u_t \le \varphi_{t-1}(u_{t-1})$", strategy=hessian_instances)


@theorem(id="bravo.sec3.2.hess", title=r"$E$ has a positive-definite Hessian at every point of $\mathcal{R}$",
         number="Section 3.2 (the claim before Theorem 3.4), and Proposition B.1", parameters=(P_D,),
         setting=HESSIAN_SETTING, statement=sp.Gt(MinEigenvalue(u_vec), 0),
         examples=({"D": 5.0, "structure": {**FIGURE_2["structure"], "fractions": [1.0, 1.0]}},))
def hessian_on_r(point):
    r"""True as printed, and so is Proposition B.1's weaker $\nabla^2 E \succeq 0$. The Hessian is built by SymPy from
    $E$'s definition (\symdpcode{sympy.hessian}) and its eigenvalues found by \symdpcode{mpmath.eigsy} at drawn points
    of $\mathcal{R}$, boundary points included. Why: each middle addend $g_{t-1}$ has $\partial^2 g/\partial u_t^2 =
    2$ and $\det\nabla^2 g_{t-1} = 4c_{t-1}h_{t-1}(\varphi_{t-1} - u_t)/\varphi_{t-1}^3 \ge 0$ on $\mathcal{R}$
    (\symdpcode{proofs.bravo.nonconvexity.determinant\_general\_c}); the first addend adds $2/\sigma_0^2$ to
    $\partial^2/\partial u_1^2$, so $v^\top\nabla^2 E\, v = 0$ forces $v_1 = 0$, then $v_2 = 0$, and so on. Strict,
    with no bound to be tight against: the eigenvalue is $0$ nowhere, but can be small, of the order of
    $\min_t 1/\sigma_t^2$ ($0.029$ the smallest in 400 draws, $0.14$ in the default 40; the catalogue's 300 instances
    gave $0.21$). Not defined where $h_{t-1} = 0$ and $u_{t-1} = 0$ ($\varphi$ has a kink), which the draws avoid
    ($u_t > 0$)."""
    u, c, h_, s2 = _feasible_point(point["structure"], point["D"])
    return hessian_min_eigenvalue(u, c, h_, s2, point["D"])


# --- Appendix B: R is not convex, and E is not convex on R^{T-1} ------------------------------------------------------

def midpoint_excess(point):
    r"""The two points $(0, \sqrt h)$ and $(a, \sqrt{a^2 + h})$ of $\mathcal{R}$ ($T = 3$, $h_t = h$, $c_t = 1$;
    $u_1 \le \varphi_0(D)$ by the condition on $a$, $u_2 = \varphi_1(u_1)$ on the boundary), their midpoint, and the
    constraints (3) evaluated there, in balls from the exact rationals $h$, $a$, $D$ (membership of the ends decided
    exactly: $0 \le a$ and $a^2 \le D^2 + h$; $u_2 = \varphi_1(u_1)$ by construction)."""
    h_, a_, D_ = (rational(point[k], k) for k in ("h", "a", "D"))
    if not (0 <= a_ and a_ * a_ <= D_ * D_ + h_):
        raise InvalidParameter(f"a = {point['a']} is beyond phi_0(D): an end point is outside R")
    with in_balls():
        phi = lambda x: ball(x * x + h_).sqrt()   # noqa: E731
        ends = ([ball(0), phi(0)], [ball(a_), phi(a_)])
        m1, m2 = ((x + y) / 2 for x, y in zip(*ends))
        return enclosure((m1 - phi(D_)).max(m2 - phi(m1)))


R_NONCONVEX_PIN = {"D": 4.0, "h": 4.0, "a": 4.0}
"""The catalogue's instance (h = 4, T = 3): (0, 2) and (4, √20) are feasible, the midpoint (2, 3.236) is not
(φ(2) = √8 = 2.828)."""

r_nonconvex = theorem(
    id="bravo.propB.1.R", title=r"the feasible set $\mathcal{R}$ is not convex", number="Appendix B (after "
    "Proposition B.1)", parameters=(P_D, Param(h, sp.Interval.Lopen(0, sp.oo), sample=(0.01, 4.0)),
                                    Param(a, sp.Interval.Lopen(0, sp.oo), sample=(0.01, 10.0))),
    conditions=(a <= sp.sqrt(D ** 2 + h),),
    setting=Setting(r"$T = 3$, $\varphi_t(\delta) = \sqrt{\delta^2 + h}$, $h > 0$; $\bar{\mathbf{u}}$ the midpoint of "
                    r"$(0, \sqrt h)$ and $(a, \sqrt{a^2 + h})$, both in $\mathcal{R}$ for $a \le \varphi_0(D)$"),
    statement=sp.Gt(MidpointExcess(), 0), evidence=CLOSED_FORM, examples=(R_NONCONVEX_PIN,),
    evidence_note=r"a fact about the set $\mathcal{R}$, defined by inequalities between closed forms: the constraints "
                  "(3) evaluated at two points of R and at their midpoint")(midpoint_excess)

FIGURE_2_OFF_R = (0, 10)
"""The point of Figure 2 where ∇²E is indefinite: eigenvalues -79 998 and 20 012.5 (catalogue bravo.propB.1)."""


@theorem(id="bravo.propB.1.E", title=r"$E$ is not convex on $\mathbb{R}^{T-1}$ (Figure 2)",
         number="Appendix B, Figure 2",
         setting=Setting(r"Figure 2: $T = 3$, $D = 5$, $\eta = L = 1$ ($c_t = 1$, $h_t = (2\eta L)^2 = 4$), $\sigma = "
                         r"(1, 0.01, 0.4)$; $\mathbf{u} = (0, 10) \notin \mathcal{R}$"),
         statement=sp.Lt(MinEigenvalue(sp.Tuple(*FIGURE_2_OFF_R)), 0))
def figure_2(point):
    r"""$\nabla^2 E(0, 10)$ from $E$'s definition, as for \symdpid{bravo.sec3.2.hess}: eigenvalues $-79\,998$ and
    $20\,012.5$ (catalogue), so $E$ is not convex on $\mathbb{R}^2$; at $u^*$, inside $\mathcal{R}$, both are
    positive ($12.9$, $22\,439$)."""
    s = FIGURE_2["structure"]
    c, h_, s2 = ([to_mpf(x, "Figure 2") for x in s[key]] for key in ("c", "h", "sigma2"))
    return hessian_min_eigenvalue([mpmath.mpf(x) for x in FIGURE_2_OFF_R], c, h_, s2, to_mpf(FIGURE_2["D"], "D"))


THEOREMS = registered(__name__)
