"""Bravo, Flores-Mella, Guzmán, *Mixing times and privacy analysis for the projected Langevin algorithm under a
modulus of continuity*: shift optimality (Section 3.1–3.3).

Seed ``../shared/seeds/003_a063a8ea298de6c8.txt``; catalogue ``../shared/catalogue/catalogue-bravo.md`` (IDs below are
the catalogue's). PABI (Lemma 3.3) bounds R_α(X_T‖X'_T) by (α/2) E(u), where

    E(u) = Σ_{t=1}^T (φ_{t-1}(u_{t-1}) - u_t)² / σ_{t-1}²,    u_0 = D, u_T = 0,   (problem (P))

over the shifts u ∈ R (0 ≤ u_t ≤ φ_{t-1}(u_{t-1})). For the moduli φ_t(δ) = sqrt(c_t δ² + h_t), Lemma 3.5 says the
recursion (4) u*_t = (S_t/S_{t-1}) φ_{t-1}(u*_{t-1}) gives the unique minimiser, and Theorem 3.4 evaluates
E(u*) = P_0 D²/S_0 + Σ_t h_t P_{t+1}/S_t, with the catalogue's helpers

    S_t = Σ_{k=t}^{T-1} σ_k² P_{k+1}  (S_T = 0),        P_t = Π_{l=t}^{T-1} c_l  (P_T = 1).

Corollaries 3.7 (c ≡ 1) and 3.8 (h ≡ 0, constant c) are the constant-parameter cases.

Witnesses. Global optimality is checked against sampled feasible shifts and against a damped Newton method with the
exact gradient and Hessian (:func:`local_minimum`) started from each of them. The Rényi bounds are checked on the
unprojected linear-Gaussian chain X_{t+1} = sqrt(c_t) X_t + ξ_t (catalogue ``bravo.id.linchain``): the linear map
x ↦ sqrt(c_t) x has modulus sqrt(c_t) δ ≤ φ_t(δ), and by the catalogue's remark R1 every Section 3 bound holds with
D = |x_0 - x'_0| on X = ℝ. Its law is Gaussian, computed by the mean and variance recursions, and its Rényi
divergence comes from :func:`symdp.divergences.renyi`; for h ≡ 0 the bound is attained.

The numeric helpers are generic in the number type (pass SymPy numbers and ``sqrt=sympy.sqrt`` for exact values;
plain Python ints would divide to floats):

>>> import sympy
>>> c, h, s2, D1 = sympy.S([["1/2", 2], [1, 0], [1, 1], 1])     # catalogue bravo.thm3.4, check 2
>>> noise_sums(c, s2), optimal_shifts(c, h, s2, D1, sqrt=sympy.sqrt)
([3, 1, 0], [1, sqrt(6)/6, 0])
>>> shifts_objective([sympy.sqrt(6) / 6], c, h, s2, D1, sqrt=sympy.sqrt), theorem_3_4_value(c, h, s2, D1)
(1, 1)
"""

from __future__ import annotations

from typing import Callable, Sequence

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.continuous import Gaussian
from symdp.divergences import renyi
from symdp.estimate import Estimate
from symdp.expressions import Quantity, Renyi
from symdp.finite import to_mpf
from symdp.symbols import D, T, alpha, c, h, sigma
from symdp.theorem import Param, Source, Theorem

SEED = "003_a063a8ea298de6c8.txt"


def _source(number: str) -> Source:
    return Source(SEED, number)


# --- symbols and heads -----------------------------------------------------------------------------------------
X_T, X_Tp = sp.symbols("X_T X'_T")
u_vec, u_star = sp.Symbol(r"\mathbf{u}"), sp.Symbol(r"\mathbf{u}^{*}")


class Objective(Quantity):
    """The shifts objective E(u) of problem (P)."""

    nargs = 1
    is_extended_nonnegative = True

    def _latex(self, printer):
        return rf"E\left({printer._print(self.args[0])}\right)"

    def _sympystr(self, printer):
        return "E(u*)" if self.args[0] == u_star else f"E({printer._print(self.args[0])})"


class TriedMinimum(Quantity):
    """min E(u) over the tried shifts U: sampled feasible points and the local minima reached from them."""

    nargs = 0
    is_extended_nonnegative = True

    def _latex(self, printer):
        return r"\min_{\mathbf{u} \in \mathcal{U}} E\left(\mathbf{u}\right)"

    def _sympystr(self, printer):
        return "min_{u in U} E(u)"


class Named(Quantity):
    """A computed quantity printed by its LaTeX name (``Named(sp.Symbol("slack"))`` with a ``latex`` table)."""

    nargs = 1
    NAMES = {
        "slack": r"\min_{1 \le t < T} \min\left\{u^{*}_t,\ \varphi_{t-1}(u^{*}_{t-1}) - u^{*}_t\right\}"
                 r" / \varphi_{t-1}(u^{*}_{t-1})",
        "eq5": r"\max_{1 \le t < T} \frac{\left|(c_t\sigma_{t-1}^2 + \sigma_t^2)u^{*}_t - \sigma_{t-1}^2"
               r"\varphi_t'(u^{*}_t)u^{*}_{t+1} - \sigma_t^2\varphi_{t-1}(u^{*}_{t-1})\right|}"
               r"{\sigma_t^2\varphi_{t-1}(u^{*}_{t-1})}",
        "distance": r"\max_{\mathbf{u} \in \mathcal{L}} \frac{\|\mathbf{u} - \mathbf{u}^{*}\|_\infty}"
                    r"{1 + \|\mathbf{u}^{*}\|_\infty}",
        "harmonic": r"\frac{\alpha}{2\sigma^2}\left(\frac{D^2}{T} + h \sum_{t=1}^{T} \frac{1}{t}\right)",
        "recursion": r"\max_{1 \le t \le T} \left|\varphi_{[0:t-1]}(D, \mathbf{a}) - u_t\right|",
    }

    def _latex(self, printer):
        return self.NAMES[str(self.args[0])]

    def _sympystr(self, printer):
        return str(self.args[0])


def _named(name: str) -> Named:
    return Named(sp.Symbol(name))


class Harmonic(sp.Function):
    """The harmonic number H_T = Σ_{t=1}^T 1/t, printed H_T and lambdified to ``mpmath.harmonic``."""

    nargs = 1
    _imp_ = staticmethod(lambda n: mpmath.harmonic(n))

    def _latex(self, printer):
        return rf"H_{{{printer._print(self.args[0])}}}"


# --- the shifts problem: numeric helpers (generic number type) -------------------------------------------------
def modulus(c_t, h_t, x, sqrt: Callable = mpmath.sqrt):
    """φ_t(x) = sqrt(c_t x² + h_t)."""
    return sqrt(c_t * x * x + h_t)


def tail_products(c: Sequence) -> list:
    """[P_0, ..., P_T] with P_t = Π_{l=t}^{T-1} c_l and P_T = 1.

    >>> tail_products([2, 3, 5])
    [30, 15, 5, 1]
    """
    P = [1] * (len(c) + 1)
    for t in range(len(c) - 1, -1, -1):
        P[t] = P[t + 1] * c[t]
    return P


def noise_sums(c: Sequence, sigma2: Sequence) -> list:
    """[S_0, ..., S_T] with S_t = Σ_{k=t}^{T-1} σ_k² P_{k+1} and S_T = 0: the variance that the noise added from step t
    on contributes to X_T in the linear chain; S_{t-1} = S_t + σ_{t-1}² P_t.

    >>> noise_sums([2, 3, 5], [1, 1, 1])
    [21, 6, 1, 0]
    """
    P = tail_products(c)
    S = [0] * (len(c) + 1)
    for t in range(len(c) - 1, -1, -1):
        S[t] = S[t + 1] + sigma2[t] * P[t + 1]
    return S


def optimal_shifts(c: Sequence, h: Sequence, sigma2: Sequence, D_, sqrt: Callable = mpmath.sqrt) -> list:
    """The whole path [u*_0 = D, u*_1, ..., u*_T] of eq. (4): u*_t = (S_t/S_{t-1}) φ_{t-1}(u*_{t-1}).

    The recursion run to t = T gives u*_T = 0 exactly, since S_T = 0.
    """
    S = noise_sums(c, sigma2)
    u = [D_]
    for t in range(1, len(c) + 1):
        u.append(S[t] / S[t - 1] * modulus(c[t - 1], h[t - 1], u[t - 1], sqrt))
    return u


def _path(u: Sequence, D_) -> list:
    return [D_] + list(u) + [0]


def shifts_objective(u: Sequence, c: Sequence, h: Sequence, sigma2: Sequence, D_,
                     sqrt: Callable = mpmath.sqrt):
    """E(u) of problem (P) at the interior shifts u = (u_1, ..., u_{T-1}) (u_0 = D, u_T = 0)."""
    path = _path(u, D_)
    return sum((modulus(c[t - 1], h[t - 1], path[t - 1], sqrt) - path[t]) ** 2 / sigma2[t - 1]
               for t in range(1, len(c) + 1))


def theorem_3_4_value(c: Sequence, h: Sequence, sigma2: Sequence, D_):
    """The closed form of Theorem 3.4 without the factor α/2: P_0 D²/S_0 + Σ_{t<T} h_t P_{t+1}/S_t (= E(u*))."""
    S, P = noise_sums(c, sigma2), tail_products(c)
    return P[0] * D_ ** 2 / S[0] + sum(h[t] * P[t + 1] / S[t] for t in range(len(c)))


def theorem_3_4_bound(alpha_, c: Sequence, h: Sequence, sigma2: Sequence, D_):
    """Theorem 3.4: (α/2)(P_0 D²/S_0 + Σ_t h_t P_{t+1}/S_t)."""
    return alpha_ / 2 * theorem_3_4_value(c, h, sigma2, D_)


def _phi_derivatives(c_t, h_t, x):
    """(φ, φ', φ'') at x, with φ' = c x/φ and φ'' = c h/φ³; at a kink (φ = 0, only if h = 0) both are taken as 0."""
    phi = modulus(c_t, h_t, x)
    if phi == 0:
        return phi, mpmath.mpf(0), mpmath.mpf(0)
    return phi, c_t * x / phi, c_t * h_t / phi ** 3


def shifts_gradient(u: Sequence, c: Sequence, h: Sequence, sigma2: Sequence, D_) -> list:
    """∂E/∂u_t for t = 1, ..., T-1: -2a_t/σ²_{t-1} + 2a_{t+1}φ'_t(u_t)/σ²_t, with a_t = φ_{t-1}(u_{t-1}) - u_t."""
    return _gradient_hessian(u, c, h, sigma2, D_)[0]


def _gradient_hessian(u, c, h, sigma2, D_):
    path = _path(u, D_)
    n = len(u)
    derivs = [_phi_derivatives(c[t], h[t], path[t]) for t in range(len(c))]
    a = [None] + [derivs[t - 1][0] - path[t] for t in range(1, len(c) + 1)]
    grad, hess = [], mpmath.zeros(n, n)
    for t in range(1, n + 1):
        _, d1, d2 = derivs[t]
        grad.append(-2 * a[t] / sigma2[t - 1] + 2 * a[t + 1] * d1 / sigma2[t])
        hess[t - 1, t - 1] = 2 / sigma2[t - 1] + 2 * (d1 * d1 + a[t + 1] * d2) / sigma2[t]
        if t < n:
            hess[t - 1, t] = hess[t, t - 1] = -2 * d1 / sigma2[t]
    return grad, hess


def _newton_direction(grad, hess):
    """-H⁻¹g, with H shifted by λI until it is positive definite (so the direction descends)."""
    n = len(grad)
    g = mpmath.matrix(grad)
    lam = mpmath.mpf(0)
    scale = max(abs(hess[i, i]) for i in range(n)) or mpmath.mpf(1)
    while True:
        try:
            L = mpmath.cholesky(hess + lam * mpmath.eye(n))
            break
        except ValueError:
            lam = scale * mpmath.mpf(10) ** -6 if lam == 0 else 4 * lam
    y = _cholesky_solve(L, -g)
    return [y[i] for i in range(n)]


def _cholesky_solve(L, b):
    n = L.rows
    y = mpmath.matrix(n, 1)
    for i in range(n):
        y[i] = (b[i] - mpmath.fsum(L[i, k] * y[k] for k in range(i))) / L[i, i]
    x = mpmath.matrix(n, 1)
    for i in range(n - 1, -1, -1):
        x[i] = (y[i] - mpmath.fsum(L[k, i] * x[k] for k in range(i + 1, n))) / L[i, i]
    return x


def local_minimum(u0: Sequence, c: Sequence, h: Sequence, sigma2: Sequence, D_, max_steps: int = 200) -> list:
    """A local minimiser of E over ℝ^{T-1} reached from ``u0`` by damped Newton steps (exact gradient and Hessian,
    Hessian shifted to positive definite where it is not, Armijo backtracking), to the working precision.

    The search runs over all of ℝ^{T-1}, as Lemma 3.5 claims global optimality there; it never uses u*.
    """
    u = [mpmath.mpf(x) for x in u0]
    if not u:
        return u
    eps = mpmath.mpf(10) ** (-mpmath.mp.dps)
    value = shifts_objective(u, c, h, sigma2, D_)
    for _ in range(max_steps):
        grad, hess = _gradient_hessian(u, c, h, sigma2, D_)
        d = _newton_direction(grad, hess)
        size = max(abs(x) for x in d)
        ref = 1 + max(abs(x) for x in u)
        if size <= ref * eps * 100:
            break
        slope = mpmath.fsum(g * x for g, x in zip(grad, d))
        step = mpmath.mpf(1)
        while True:
            trial = [x + step * y for x, y in zip(u, d)]
            new = shifts_objective(trial, c, h, sigma2, D_)
            # Close to the minimum the decrease is below rounding: accept small full steps unconditionally.
            if new <= value + step * slope / 10 ** 4 or size * step <= ref * mpmath.mpf(10) ** (-mpmath.mp.dps // 3):
                break
            step /= 2
            if step < eps:
                return u
        u, value = trial, new
    return u


def eq5_residuals(path: Sequence, c: Sequence, h: Sequence, sigma2: Sequence) -> list:
    """Residuals of the stationarity equations (5) along a whole path [u_0, ..., u_T], t = 1, ..., T-1:
    (c_t σ²_{t-1} + σ²_t) u_t - σ²_{t-1} φ'_t(u_t) u_{t+1} - σ²_t φ_{t-1}(u_{t-1})."""
    out = []
    for t in range(1, len(c)):
        _, d1, _ = _phi_derivatives(c[t], h[t], path[t])
        out.append((c[t] * sigma2[t - 1] + sigma2[t]) * path[t] - sigma2[t - 1] * d1 * path[t + 1]
                   - sigma2[t] * modulus(c[t - 1], h[t - 1], path[t - 1]))
    return out


def feasible_shifts(fractions: Sequence, c: Sequence, h: Sequence, D_) -> list:
    """The interior shifts u_t = f_t φ_{t-1}(u_{t-1}) (f_t ∈ [0, 1]): a point of R, eq. (3)."""
    u, prev = [], D_
    for t, f in enumerate(fractions, start=1):
        prev = to_mpf(f, "fraction") * modulus(c[t - 1], h[t - 1], prev)
        u.append(prev)
    return u


def pabi_recursion(shifts: Sequence, c: Sequence, h: Sequence, D_) -> list:
    """[φ_[0:0](D, a), ..., φ_[0:T-1](D, a)]: φ_[0:0] = φ_0(D) - a_1, φ_[0:t] = φ_t(φ_[0:t-1]) - a_{t+1}."""
    out, prev = [], D_
    for t, a in enumerate(shifts):
        prev = modulus(c[t], h[t], prev) - a
        out.append(prev)
    return out


# --- the linear-Gaussian chain (catalogue bravo.id.linchain) ---------------------------------------------------
def linear_chain_law(c: Sequence, sigma2: Sequence, x0) -> Gaussian:
    """Law of X_T for X_{t+1} = sqrt(c_t) X_t + ξ_t, ξ_t ~ N(0, σ_t²), X_0 = x0, by the mean and variance
    recursions m_{t+1} = sqrt(c_t) m_t, v_{t+1} = c_t v_t + σ_t² (catalogue: N(sqrt(P_0) x0, S_0))."""
    m, v = mpmath.mpf(x0), mpmath.mpf(0)
    for c_t, s2_t in zip(c, sigma2):
        m, v = mpmath.sqrt(c_t) * m, c_t * v + s2_t
    return Gaussian(m, mpmath.sqrt(v))


def linear_chain_renyi(alpha_, c: Sequence, sigma2: Sequence, D_) -> Estimate:
    """R_α(X_T ‖ X'_T) for the linear chain started from the Diracs at ±D/2."""
    return renyi(linear_chain_law(c, sigma2, D_ / 2), linear_chain_law(c, sigma2, -D_ / 2), alpha_)


# --- strategies (plain JSON-able draws) ------------------------------------------------------------------------
def _floats(low: float, high: float) -> st.SearchStrategy[float]:
    return st.floats(low, high, allow_nan=False, allow_infinity=False, allow_subnormal=False)


@st.composite
def moduli(draw, min_T: int = 1, max_T: int = 8):
    """One instance of Section 3: T ∈ [min_T, max_T], c_t ∈ [0.2, 3], h_t ∈ [0, 2] (often exactly 0),
    σ_t² ∈ [0.01, 10] (the catalogue's sampling ranges)."""
    n = draw(st.integers(min_T, max_T))
    vec = lambda s: st.lists(s, min_size=n, max_size=n)  # noqa: E731
    return {"c": draw(vec(_floats(0.2, 3.0))),
            "h": draw(vec(st.one_of(st.just(0.0), _floats(0.0, 2.0)))),
            "sigma2": draw(vec(_floats(0.01, 10.0)))}


@st.composite
def moduli_with_starts(draw, max_T: int = 8, max_starts: int = 4):
    """An instance and 1..max_starts feasible starting shifts, each as fractions f_t ∈ [0, 1] (u_t = f_t φ_{t-1})."""
    inst = draw(moduli(1, max_T))
    n = len(inst["c"]) - 1
    k = draw(st.integers(1, max_starts))
    starts = draw(st.lists(st.lists(_floats(0.0, 1.0), min_size=n, max_size=n), min_size=k, max_size=k))
    return {**inst, "starts": starts}


def _instance(point) -> tuple[list, list, list]:
    s = point["structure"]
    return ([to_mpf(x, "c_t") for x in s["c"]], [to_mpf(x, "h_t") for x in s["h"]],
            [to_mpf(x, "sigma_t^2") for x in s["sigma2"]])


# --- parameters --------------------------------------------------------------------------------------------------
P_ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.01, 16.0))
P_D = Param(D, sp.Interval.open(0, sp.oo), sample=(0.1, 10.0))
P_SIGMA = Param(sigma, sp.Interval.open(0, sp.oo), sample=(0.05, 5.0))
P_T = Param(T, sp.Range(1, sp.oo), sample=(1, 40))
P_C = Param(c, sp.Interval.open(0, sp.oo), sample=(0.2, 3.0))
P_H = Param(h, sp.Interval(0, sp.oo), sample=(0.0, 2.0))

MODULI_LATEX = (r"\varphi_t(\delta) = \sqrt{c_t\delta^2 + h_t},\ c_t > 0,\ h_t \ge 0,\ \sigma_t > 0\ (0 \le t < T),\ "
                r"S_t = \sum_{k=t}^{T-1}\sigma_k^2 P_{k+1},\ P_t = \prod_{l=t}^{T-1} c_l")
U_STAR_LATEX = r",\ u^{*}_0 = D,\ u^{*}_t = \frac{S_t}{S_{t-1}}\varphi_{t-1}(u^{*}_{t-1})\ \text{(4)}"
CHAIN_LATEX = r"X_{t+1} = \sqrt{c_t}X_t + \xi_t,\ \xi_t \sim \mathcal{N}(0, \sigma_t^2),\ X_0 = D/2,\ X'_0 = -D/2"

FIGURE_2 = {"D": 5.0, "structure": {"c": [1.0, 1.0, 1.0], "h": [4.0, 4.0, 4.0], "sigma2": [1.0, 0.0001, 0.16]}}
"""Figure 2 of the paper (Appendix B): D = 5, η = L = 1 (h = (2ηL)² = 4, c = 1), σ = (1, 0.01, 0.4)."""

RATIONAL = {"D": 1, "structure": {"c": [0.5, 2.0], "h": [1.0, 0.0], "sigma2": [1.0, 1.0]}}
"""The catalogue's exact instance (bravo.thm3.4, check 2): E(u*) = 1."""


def _with_starts(instance: dict, starts: list) -> dict:
    return {"D": instance["D"], "structure": {**instance["structure"], "starts": starts}}


# --- problem (P), §3.1 -----------------------------------------------------------------------------------------
def _p_recursion(point):
    """For sampled u ∈ R: the shifts a_t = φ_{t-1}(u_{t-1}) - u_t drive the PABI recursion through u_1, ..., u_T = 0."""
    c_, h_, s2 = _instance(point)
    D_ = point["D"]
    worst = mpmath.mpf(0)
    for f in point["structure"]["starts"]:
        path = _path(feasible_shifts(f, c_, h_, D_), D_)
        a = [modulus(c_[t - 1], h_[t - 1], path[t - 1]) - path[t] for t in range(1, len(c_) + 1)]
        if min(a) < 0:
            return mpmath.inf  # not a feasible shift sequence: the reparametrisation is broken
        reached = pabi_recursion(a, c_, h_, D_)
        worst = max([worst] + [abs(r - u) for r, u in zip(reached, path[1:])])
    return worst, mpmath.mpf(0)


PROBLEM_P = Theorem(
    id="bravo.P", title="feasible shifts are the u of eq. (3)", source=_source("Section 3.1, eq. (3) and (P)"),
    parameters=(P_D,), structure=lambda: moduli_with_starts(),
    structure_latex=MODULI_LATEX + r",\ \mathbf{u} \in \mathcal{R},\ a_t = \varphi_{t-1}(u_{t-1}) - u_t",
    statement=sp.Eq(_named("recursion"), 0),
    evaluator=_p_recursion, tight_everywhere=True, default_examples=60,
    notes="The reparametrisation of §3.1: a_t ≥ 0 and φ_[0:t-1](D, a) = u_t, so φ_[0:T-1](D, a) = u_T = 0.")


# --- Lemma 3.5 -------------------------------------------------------------------------------------------------
def _tried(point):
    """(values of E at the sampled feasible u and at the local minima reached from them, the local minima, u*)."""
    c_, h_, s2 = _instance(point)
    D_ = point["D"]
    values, minima = [], []
    for f in point["structure"]["starts"]:
        u0 = feasible_shifts(f, c_, h_, D_)
        values.append(shifts_objective(u0, c_, h_, s2, D_))
        u = local_minimum(u0, c_, h_, s2, D_)
        minima.append(u)
        values.append(shifts_objective(u, c_, h_, s2, D_))
    return values, minima, optimal_shifts(c_, h_, s2, D_)


def _lemma_3_5(point):
    values, _, star = _tried(point)
    c_, h_, s2 = _instance(point)
    return min(values), shifts_objective(star[1:-1], c_, h_, s2, point["D"])


LEMMA_3_5 = Theorem(
    id="bravo.lem3.5", title="u* minimises the shifts objective", source=_source("Lemma 3.5"),
    parameters=(P_D,), structure=lambda: moduli_with_starts(), structure_latex=MODULI_LATEX + U_STAR_LATEX
    + r",\ \mathcal{U} = \text{sampled } \mathbf{u} \in \mathcal{R} \text{ and the local minima of } E \text{ on } "
      r"\mathbb{R}^{T-1} \text{ reached from them}",
    statement=sp.Ge(TriedMinimum(), Objective(u_star)),
    evaluator=_lemma_3_5, default_examples=40,
    tight_at=(_with_starts(FIGURE_2, [[0.1, 0.9], [1.0, 0.0]]), _with_starts(RATIONAL, [[0.3]])),
    notes="Tight: every local minimisation reaches E(u*) (the minimum is attained, at u*). "
          "bravo.lem3.5.unique checks that it is reached only at u*.")


def _lemma_3_5_unique(point):
    _, minima, star = _tried(point)
    ref = 1 + max(abs(x) for x in star)
    dist = max([mpmath.mpf(0)] + [abs(x - y) for u in minima for x, y in zip(u, star[1:-1])])
    return dist / ref, mpmath.mpf(0)


LEMMA_3_5_UNIQUE = Theorem(
    id="bravo.lem3.5.unique", title="every local minimisation of E ends at u*", source=_source("Lemma 3.5"),
    parameters=(P_D,), structure=lambda: moduli_with_starts(), structure_latex=MODULI_LATEX + U_STAR_LATEX
    + r",\ \mathcal{L} = \text{the local minima of } E \text{ reached from sampled } \mathbf{u} \in \mathcal{R}",
    statement=sp.Eq(_named("distance"), 0),
    evaluator=_lemma_3_5_unique, tight_everywhere=True, default_examples=40,
    notes="Numeric evidence of uniqueness: no other local minimum is found (the paper shows u* is the only "
          "stationary point where E is differentiable).")


def _lemma_3_5_feasible(point):
    c_, h_, s2 = _instance(point)
    star = optimal_shifts(c_, h_, s2, point["D"])
    slacks = [min(star[t], modulus(c_[t - 1], h_[t - 1], star[t - 1]) - star[t])
              / modulus(c_[t - 1], h_[t - 1], star[t - 1]) for t in range(1, len(c_))]
    return min(slacks, default=mpmath.mpf(1)), mpmath.mpf(0)


LEMMA_3_5_FEASIBLE = Theorem(
    id="bravo.lem3.5.feasible", title="u* is a feasible shift sequence", source=_source("Lemma 3.5, eq. (4)"),
    parameters=(P_D,), structure=lambda: moduli(), structure_latex=MODULI_LATEX + U_STAR_LATEX,
    statement=sp.Ge(_named("slack"), 0), evaluator=_lemma_3_5_feasible,
    notes="Strict: S_t/S_{t-1} ∈ (0, 1) for t < T. u*_T = 0 exactly because S_T = 0.")


def _lemma_3_5_eq5(point):
    c_, h_, s2 = _instance(point)
    star = optimal_shifts(c_, h_, s2, point["D"])
    res = eq5_residuals(star, c_, h_, s2)
    scaled = [abs(r) / (s2[t] * modulus(c_[t - 1], h_[t - 1], star[t - 1])) for t, r in enumerate(res, start=1)]
    return max(scaled, default=mpmath.mpf(0)), mpmath.mpf(0)


LEMMA_3_5_EQ5 = Theorem(
    id="bravo.lem3.5.eq5", title="u* solves the stationarity equations (5)", source=_source("Lemma 3.5, eq. (5)"),
    parameters=(P_D,), structure=lambda: moduli(), structure_latex=MODULI_LATEX + U_STAR_LATEX,
    statement=sp.Eq(_named("eq5"), 0), evaluator=_lemma_3_5_eq5, tight_everywhere=True)


# --- Theorem 3.4 -----------------------------------------------------------------------------------------------
def _theorem_3_4_value(point):
    c_, h_, s2 = _instance(point)
    star = optimal_shifts(c_, h_, s2, point["D"])
    return shifts_objective(star[1:-1], c_, h_, s2, point["D"]), theorem_3_4_value(c_, h_, s2, point["D"])


C_3_4 = sp.Symbol("C_{3.4}")
CLOSED_FORM_LATEX = r",\ C_{3.4} = \frac{P_0 D^2}{S_0} + \sum_{t=0}^{T-1}\frac{h_t P_{t+1}}{S_t}"

THEOREM_3_4_VALUE = Theorem(
    id="bravo.thm3.4.value", title="the optimal value E(u*) in closed form", source=_source("Theorem 3.4 (proof)"),
    parameters=(P_D,), structure=lambda: moduli(), structure_latex=MODULI_LATEX + U_STAR_LATEX + CLOSED_FORM_LATEX,
    statement=sp.Eq(Objective(u_star), C_3_4),
    evaluator=_theorem_3_4_value, tight_everywhere=True, tight_at=(FIGURE_2, RATIONAL),
    notes="E evaluated at the recursion (4) against the bracket of Theorem 3.4.")


def _theorem_3_4(point):
    c_, h_, s2 = _instance(point)
    return (linear_chain_renyi(point["alpha"], c_, s2, point["D"]),
            theorem_3_4_bound(point["alpha"], c_, h_, s2, point["D"]))


def _no_noise(instance: dict, alpha_: float) -> dict:
    s = instance["structure"]
    return {"alpha": alpha_, "D": instance["D"], "structure": {**s, "h": [0.0] * len(s["c"])}}


THEOREM_3_4 = Theorem(
    id="bravo.thm3.4", title="PABI bound for the moduli sqrt(c_t δ² + h_t)", source=_source("Theorem 3.4"),
    parameters=(P_ALPHA, P_D), structure=lambda: moduli(),
    structure_latex=MODULI_LATEX + CLOSED_FORM_LATEX + r",\ " + CHAIN_LATEX,
    statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha / 2 * C_3_4),
    evaluator=_theorem_3_4, default_examples=60,
    tight_at=(_no_noise(FIGURE_2, 3.0), _no_noise(RATIONAL, 2.0),
              {"alpha": 1.5, "D": 2.0, "structure": {"c": [0.3, 2.5, 1.0, 0.7], "h": [0.0] * 4,
                                                       "sigma2": [0.05, 3.0, 1.0, 0.2]}}),
    notes="Attained for h ≡ 0 by the linear chain (catalogue bravo.id.linchain); the h-terms are loose there.")


def _linchain(point):
    c_, _, s2 = _instance(point)
    S, P = noise_sums(c_, s2), tail_products(c_)
    return linear_chain_renyi(point["alpha"], c_, s2, point["D"]), point["alpha"] * P[0] * point["D"] ** 2 / (2 * S[0])


LINEAR_CHAIN = Theorem(
    id="bravo.id.linchain", title="Rényi divergence of the linear-Gaussian chain", source=_source("catalogue helper"),
    parameters=(P_ALPHA, P_D), structure=lambda: moduli(), structure_latex=MODULI_LATEX + r",\ " + CHAIN_LATEX,
    statement=sp.Eq(Renyi(X_T, X_Tp, alpha), alpha * sp.Symbol("P_0") * D ** 2 / (2 * sp.Symbol("S_0"))),
    evaluator=_linchain, tight_everywhere=True, default_examples=60, tight_at=THEOREM_3_4.tight_at,
    notes="X_T ~ N(sqrt(P_0) x_0, S_0): Gaussian Rényi from the recursions against α P_0 D²/(2 S_0).")


# --- Corollary 3.7 ---------------------------------------------------------------------------------------------
def _harmonic(n: int) -> mpmath.mpf:
    return mpmath.fsum(mpmath.mpf(1) / k for k in range(1, n + 1))


COR_3_7_RHS = alpha / (2 * sigma ** 2) * (D ** 2 / T + h * Harmonic(T))
COR_3_7_LN = alpha / (2 * sigma ** 2) * (D ** 2 / T + h * sp.log(T * sp.E))
COR_3_7_PARAMS = (P_ALPHA, P_D, P_SIGMA, P_H, P_T)


def _random_walk_renyi(point):
    n = point["T"]
    return linear_chain_renyi(point["alpha"], [mpmath.mpf(1)] * n, [point["sigma"] ** 2] * n, point["D"])


COR_3_7_REFERENCE = {"alpha": 2, "D": 1, "sigma": 1, "h": 0.04, "T": 10}
"""Catalogue bravo.cor3.7: (6) = 0.21715873015873, its ln-version 0.232103403719762."""

COROLLARY_3_7 = Theorem(
    id="bravo.cor3.7", title="PABI bound for φ(δ) = sqrt(δ² + h)", source=_source("Corollary 3.7, eq. (6)"),
    parameters=COR_3_7_PARAMS, structure_latex=r"X_{t+1} = X_t + \sigma\xi_t,\ X_0 = D/2,\ X'_0 = -D/2",
    statement=sp.Le(Renyi(X_T, X_Tp, alpha), COR_3_7_RHS), witness=_random_walk_renyi,
    tight_at=({"alpha": 2, "D": 1, "sigma": 1, "h": 0, "T": 10}, {"alpha": 7.5, "D": 3, "sigma": 0.2, "h": 0, "T": 1}),
    examples=(COR_3_7_REFERENCE,), default_examples=60,
    notes="The identity map has modulus δ ≤ sqrt(δ² + h). Attained at h = 0 (the paper asks h > 0; the h-part is "
          "loose).")


def _cor_3_7_reduction(point):
    n, s2 = point["T"], point["sigma"] ** 2
    thm = theorem_3_4_bound(point["alpha"], [mpmath.mpf(1)] * n, [point["h"]] * n, [s2] * n, point["D"])
    return thm, point["alpha"] / (2 * s2) * (point["D"] ** 2 / n + point["h"] * mpmath.harmonic(n))


COROLLARY_3_7_REDUCTION = Theorem(
    id="bravo.cor3.7.thm3.4", title="Theorem 3.4 with c ≡ 1 is the middle of (6)",
    source=_source("Corollary 3.7"), parameters=COR_3_7_PARAMS,
    statement=sp.Eq(alpha / 2 * C_3_4, COR_3_7_RHS), evaluator=_cor_3_7_reduction,
    tight_everywhere=True, examples=(COR_3_7_REFERENCE,),
    notes="S_t = (T - t)σ², P_t = 1.")


COROLLARY_3_7_LN = Theorem(
    id="bravo.cor3.7.ln", title="the harmonic sum step of (6)", source=_source("Corollary 3.7, eq. (6)"),
    parameters=COR_3_7_PARAMS, statement=sp.Le(_named("harmonic"), COR_3_7_LN),
    witness=lambda p: p["alpha"] / (2 * p["sigma"] ** 2) * (p["D"] ** 2 / p["T"] + p["h"] * _harmonic(p["T"])),
    tight_at=({"alpha": 2, "D": 1, "sigma": 1, "h": 0.04, "T": 1},), examples=(COR_3_7_REFERENCE,),
    notes="H_T ≤ 1 + ln T, equality at T = 1 only (catalogue bravo.id.harm).")

HARMONIC = Theorem(
    id="bravo.id.harm", title="H_T ≤ ln(T e)", source=_source("Corollary 3.7 (helper)"),
    parameters=(Param(T, sp.Range(1, sp.oo), sample=(1, 3000)),),
    statement=sp.Le(sp.Symbol("H_T"), sp.log(T * sp.E)), witness=lambda p: _harmonic(p["T"]),
    tight_at=({"T": 1},), default_examples=60)


# --- Corollary 3.8 ---------------------------------------------------------------------------------------------
COR_3_8_RHS = sp.Piecewise((alpha * D ** 2 / (2 * sigma ** 2 * T), sp.Eq(c, 1)),
                           (alpha * D ** 2 * c ** T * (1 - c) / (2 * sigma ** 2 * (1 - c ** T)), True))
COR_3_8_REFERENCES = tuple({"alpha": 3, "D": 1, "sigma": 0.3, "T": 5, "c": cv} for cv in (0.81, 1, 1.21))
"""Catalogue bravo.cor3.8: 1.69524312049416 (c = 0.81), 3.33333333333333 (c = 1), 5.69608882088791 (c = 1.21)."""


def _cor_3_8_chain(point):
    n = point["T"]
    return linear_chain_renyi(point["alpha"], [point["c"]] * n, [point["sigma"] ** 2] * n, point["D"])


COROLLARY_3_8 = Theorem(
    id="bravo.cor3.8", title="PABI bound for φ(δ) = sqrt(c) δ", source=_source("Corollary 3.8, eqs. (7), (8)"),
    parameters=(P_ALPHA, P_D, P_SIGMA, P_C, P_T),
    structure_latex=r"X_{t+1} = \sqrt{c}X_t + \sigma\xi_t,\ X_0 = D/2,\ X'_0 = -D/2",
    statement=sp.Le(Renyi(X_T, X_Tp, alpha), COR_3_8_RHS), witness=_cor_3_8_chain,
    tight_everywhere=True, tight_at=COR_3_8_REFERENCES,
    examples=({"alpha": 2, "D": 1, "sigma": 1, "T": 7, "c": 1 + 1e-12},), default_examples=60,
    notes="Equality on the unprojected chain (catalogue remark R1); c = 1 + 1e-12 probes the transition (7) → (8).")


LIMIT_EXPR = c ** T * (1 - c) / (1 - c ** T)


def _limit(point):
    n = point["T"]
    f = lambda x: x ** n * (1 - x) / (1 - x ** n)  # noqa: E731
    sides = [mpmath.limit(f, 1, direction=d) for d in (1, -1)]
    return max(sides, key=lambda v: abs(v - mpmath.mpf(1) / n)), mpmath.mpf(1) / n


LIMIT = Theorem(
    id="bravo.id.limit", title="(7) tends to (8) as c → 1", source=_source("Corollary 3.8 (remark after it)"),
    parameters=(Param(T, sp.Range(1, sp.oo), sample=(1, 40)),),
    statement=sp.Eq(sp.Limit(LIMIT_EXPR, c, 1, dir="+-"), 1 / T), evaluator=_limit, tight_everywhere=True,
    tight_at=({"T": 1}, {"T": 5}), default_examples=8,
    notes="Both one-sided limits, by mpmath's Richardson extrapolation of the (7) formula.")


THEOREMS = [PROBLEM_P, LEMMA_3_5, LEMMA_3_5_UNIQUE, LEMMA_3_5_FEASIBLE, LEMMA_3_5_EQ5, THEOREM_3_4, THEOREM_3_4_VALUE,
            LINEAR_CHAIN, COROLLARY_3_7, COROLLARY_3_7_REDUCTION, COROLLARY_3_7_LN, HARMONIC, COROLLARY_3_8, LIMIT]
