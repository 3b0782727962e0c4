"""Bravo, Flores-Mella, Guzmán (2025), Section 3: optimal shifts for PABI under the moduli
φ_t(δ) = sqrt(c_t δ² + h_t), for a drawn sequence (c_t, h_t, σ_t²), t < T (:data:`MODULI`); Theorem 3.4 and
Corollaries 3.7–3.9 measured on linear chains and on projected chains whose maps are not Lipschitz (their laws from
:mod:`symdp.engine.chains`), Table 1 row by row, and Remark 3.6. The shift helpers are generic in the number type
(SymPy numbers and ``sqrt=sympy.sqrt`` give exact values):

>>> import sympy
>>> c, h, s2, D1 = sympy.S([["1/2", 2], [1, 0], [1, 1], 1])     # catalogue bravo.thm3.4, check 2
>>> noise_sums(c, s2), optimal_shifts(c, h, s2, D1, sqrt=sympy.sqrt)
([3, 1, 0], [1, sqrt(6)/6, 0])
>>> shifts_objective([sympy.sqrt(6) / 6], c, h, s2, D1, sqrt=sympy.sqrt), bracket_terms(c, h, s2)
(1, (1, 3, 2/3))
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import mpmath
import sympy as sp
from flint import arb
from hypothesis import strategies as st

from symdp.engine import chains
from symdp.engine.continuous import Gaussian
from symdp.engine.divergences import divergence
from symdp.engine.projected import Projected
from symdp.errors import InvalidParameter
from symdp.estimate import Estimate, Method
from symdp.expressions import Renyi, quantity
from symdp.latex import latex
from symdp.numeric import to_mpf

# noise_sums and tail_products live with the derivations, which build the symbolic S_t and P_t with them
from symdp.proofs.bravo import limit_c_to_one, noise_sums, problem_p, tail_products
from symdp.proofs.bravo.shifts import bellman_value
from symdp.statement import lambdify_mpmath
from symdp.strategies import flatmapped
from symdp.symbols import D, L, M, T, alpha, beta, c, delta, eta, h, kappa, lam, sigma
from symdp.theorem import (
    CLOSED_FORM,
    Param,
    Printed,
    Setting,
    declare,
    identity,
    registered,
    theorem,
)
from symdp.theorems.bravo.common import (
    P_ALPHA,
    P_C,
    P_D,
    P_ETA,
    P_H,
    P_SIGMA,
    P_T,
    Harmonic,
    ball,
    built_exactly,
    enclosure,
    finite_floats,
    in_balls,
    rational,
)
from symdp.engine.certified import BOOST_BITS, gaussian_renyi_ball
from symdp.engine.projected import clipped_renyi
from symdp.estimate import GUARD_BITS, sharp_ball
from symdp.theorems.bravo.mixing import _sign
from symdp.theorems.bravo.moduli import _H as WEAKLY_SMOOTH_H
from symdp.theorems.bravo.moduli import DPhi2, p_holder

X_T, X_Tp = sp.symbols("X_T X'_T")
u_star = sp.Symbol(r"\mathbf{u}^{*}")

# Braced names: dwork.group names a distribution P_0 (one name, one symbol across the catalogue); they print alike.
P_0 = sp.Symbol("P_{0}", positive=True)
S_0 = sp.Symbol("S_{0}", positive=True)
Sigma_h = sp.Symbol("Sigma_h", nonnegative=True)
BRACKET = P_0 * D ** 2 / S_0 + Sigma_h
"""The bracket of Theorem 3.4, P_0 D²/S_0 + Σ_t h_t P_{t+1}/S_t, with P_0, S_0, Σ_h measured (:func:`bracket_terms`)."""

Eobj = quantity("Eobj", 1, r"E\left({0}\right)", "The shifts objective E(u) of problem (P).", nonnegative=True,
    rounding="relative")
TriedMinimum = quantity(
    "TriedMinimum", 0, r"\min_{{\mathbf{{u}} \in \mathcal{{U}}}} E\left(\mathbf{{u}}\right)",
    "min E(u) over the tried shifts U: sampled feasible points and the local minima reached from them.",
    nonnegative=True)
MinimaRatio = quantity(
    "MinimaRatio", 0,
    r"\operatorname*{{far}}_{{\mathbf{{u}} \in \mathcal{{L}},\ 1 \le t < T}} \frac{{u_t}}{{u^{{*}}_t}}",
    "Of the ratios u_t/u*_t over the local minima u reached and 1 <= t < T, the one farthest from 1 (1 if T = 1).")
Eq5Ratio = quantity(
    "Eq5Ratio", 0,
    r"\operatorname*{{far}}_{{1 \le t < T}} \frac{{(c_t\sigma_{{t-1}}^2 + \sigma_t^2)u^{{*}}_t - \sigma_{{t-1}}^2"
    r"\varphi_t'(u^{{*}}_t)u^{{*}}_{{t+1}}}}{{\sigma_t^2\varphi_{{t-1}}(u^{{*}}_{{t-1}})}}",
    "Of the ratios left/right side of (5) at u*, 1 <= t < T, the one farthest from 1 (1 if T = 1).")
Slack = quantity(
    "Slack", 0,
    r"\min_{{1 \le t < T}} \frac{{\min\left\{{u^{{*}}_t,\ \varphi_{{t-1}}(u^{{*}}_{{t-1}}) - u^{{*}}_t\right\}}}}"
    r"{{\varphi_{{t-1}}(u^{{*}}_{{t-1}})}}",
    "The relative slack of u* in the constraints (3): min over 1 <= t < T of min(u*_t, φ - u*_t)/φ (1 if T = 1).")



def modulus(c_t, h_t, x, sqrt: Callable = mpmath.sqrt):
    """φ_t(x) = sqrt(c_t x² + h_t)."""
    return sqrt(c_t * x * x + h_t)


def bracket_terms(c: Sequence, h: Sequence, sigma2: Sequence) -> tuple:
    """(P_0, S_0, Σ_h), Σ_h = Σ_{t<T} h_t P_{t+1}/S_t: what the bracket of Theorem 3.4 is made of, from the
    definitions of P_t and S_t (:func:`tail_products`, :func:`noise_sums`)."""
    S, P = noise_sums(c, sigma2), tail_products(c)
    return P[0], S[0], sum((h[k] * P[k + 1] / S[k] for k in range(len(c))), 0 * S[0])


def _exact(*sequences) -> list:
    """Sequences of the instance's numbers as exact rationals (:func:`~symdp.theorems.bravo.common.rational`)."""
    return [[rational(x) for x in v] for v in sequences]


def _bracket_values(c: Sequence, h: Sequence, sigma2: Sequence) -> dict:
    """P_0, S_0, Σ_h (:func:`bracket_terms`) computed exactly in rationals from the instance's numbers: certified
    enclosures."""
    with in_balls():
        return {k: enclosure(v) for k, v in zip((P_0, S_0, Sigma_h), bracket_terms(*_exact(c, h, sigma2)))}


def optimal_shifts(c: Sequence, h: Sequence, sigma2: Sequence, D_, sqrt: Callable = mpmath.sqrt) -> list:
    """The whole path [u*_0 = D, u*_1, ..., u*_T] of eq. (4): u*_t = (S_t/S_{t-1}) φ_{t-1}(u*_{t-1}).

    The recursion run to t = T gives u*_T = 0 exactly, since S_T = 0.
    """
    S = noise_sums(c, sigma2)
    u = [D_]
    for t in range(1, len(c) + 1):
        u.append(S[t] / S[t - 1] * modulus(c[t - 1], h[t - 1], u[t - 1], sqrt))
    return u


def shifts_objective(u: Sequence, c: Sequence, h: Sequence, sigma2: Sequence, D_,
                     sqrt: Callable = mpmath.sqrt):
    """E(u) of problem (P) at the interior shifts u = (u_1, ..., u_{T-1}) (u_0 = D, u_T = 0)."""
    path = [D_, *u, 0]
    return sum((modulus(c[t - 1], h[t - 1], path[t - 1], sqrt) - path[t]) ** 2 / sigma2[t - 1]
               for t in range(1, len(c) + 1))


def _phi_derivatives(c_t, h_t, x, sqrt: Callable = mpmath.sqrt):
    """(φ, φ', φ'') at x, with φ' = c x/φ and φ'' = c h/φ³; at a kink (φ = 0, only if h = 0) both are taken as 0
    (in balls: a ball that is exactly 0)."""
    phi = modulus(c_t, h_t, x, sqrt)
    if phi == 0:
        return phi, 0 * phi, 0 * phi
    return phi, c_t * x / phi, c_t * h_t / phi ** 3


def _gradient_hessian(u, c, h, sigma2, D_, sqrt: Callable = mpmath.sqrt):
    """(∇E, Hessian of E) at the interior shifts u, exactly: ∂E/∂u_t = -2a_t/σ²_{t-1} + 2a_{t+1}φ'_t(u_t)/σ²_t with
    a_t = φ_{t-1}(u_{t-1}) - u_t."""
    path = [D_, *u, 0]
    n = len(u)
    derivs = [_phi_derivatives(c[t], h[t], path[t], sqrt) for t in range(len(c))]
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
    n, lam = len(grad), mpmath.mpf(0)
    scale = max(abs(hess[i, i]) for i in range(n)) or mpmath.mpf(1)
    while True:
        try:
            return list(mpmath.cholesky_solve(hess + lam * mpmath.eye(n), -mpmath.matrix(grad)))
        except ValueError:
            lam = scale * mpmath.mpf(10) ** -6 if lam == 0 else 4 * lam


def local_minimum(u0: Sequence, c: Sequence, h: Sequence, sigma2: Sequence, D_, max_steps: int = 200) -> list:
    """A local minimiser of E over ℝ^{T-1} reached from ``u0`` by damped Newton steps (exact gradient and Hessian,
    Hessian shifted to positive definite where it is not, Armijo backtracking), to the working precision.

    The search runs over all of ℝ^{T-1}, as Lemma 3.5 claims global optimality there; it never uses u*. It runs in
    binary64 first (the same steps, :func:`_float_minimum`), then polishes at the working precision from there.
    """
    u = [mpmath.mpf(x) for x in _float_minimum(u0, c, h, sigma2, D_, max_steps)]
    eps = mpmath.mpf(10) ** (-mpmath.mp.dps)
    value = shifts_objective(u, c, h, sigma2, D_)
    for _ in range(max_steps if u else 0):
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


def _float_minimum(u0: Sequence, c: Sequence, h: Sequence, sigma2: Sequence, D_, max_steps: int) -> list:
    """:func:`local_minimum`'s damped Newton steps in binary64 (a start for the polishing at working precision;
    ``u0`` itself where binary64 fails, an overflow or a singular matrix)."""
    import numpy as np

    with mpmath.workprec(53):
        c_, h_, s2 = ([float(x) for x in v] for v in (c, h, sigma2))
        D_, u = float(D_), [float(x) for x in u0]
        try:
            value = shifts_objective(u, c_, h_, s2, D_, sqrt=math.sqrt)
            for _ in range(max_steps if u else 0):
                grad, hess = _gradient_hessian(u, c_, h_, s2, D_, sqrt=math.sqrt)
                H, g, lam = np.array(hess.tolist(), dtype=float), np.array(grad, dtype=float), 0.0
                scale = max(abs(H[i, i]) for i in range(len(u))) or 1.0
                while True:
                    try:
                        factor = np.linalg.cholesky(H + lam * np.eye(len(u)))
                        d = [float(x) for x in np.linalg.solve(factor.T, np.linalg.solve(factor, -g))]
                        break
                    except np.linalg.LinAlgError:
                        lam = scale * 1e-6 if lam == 0 else 4 * lam
                size, ref = max(abs(x) for x in d), 1 + max(abs(x) for x in u)
                if size <= ref * 1e-14:
                    break
                slope, step = float(np.dot(g, d)), 1.0
                while True:
                    trial = [x + step * y for x, y in zip(u, d)]
                    new = shifts_objective(trial, c_, h_, s2, D_, sqrt=math.sqrt)
                    if new <= value + step * slope / 10 ** 4 or size * step <= ref * 1e-12:
                        break
                    step /= 2
                    if step < 1e-16:
                        return u
                u, value = trial, new
        except (OverflowError, ValueError, ZeroDivisionError):
            return [float(x) for x in u0]
    return u


def eq5_sides(path: Sequence, c: Sequence, h: Sequence, sigma2: Sequence, sqrt: Callable = mpmath.sqrt) -> list:
    """The two sides of the stationarity equations (5) along a whole path [u_0, ..., u_T], t = 1, ..., T-1:
    ((c_t σ²_{t-1} + σ²_t) u_t - σ²_{t-1} φ'_t(u_t) u_{t+1},  σ²_t φ_{t-1}(u_{t-1}))."""
    out = []
    for t in range(1, len(c)):
        _, d1, _ = _phi_derivatives(c[t], h[t], path[t], sqrt)
        out.append(((c[t] * sigma2[t - 1] + sigma2[t]) * path[t] - sigma2[t - 1] * d1 * path[t + 1],
                    sigma2[t] * modulus(c[t - 1], h[t - 1], path[t - 1], sqrt)))
    return out


def feasible_shifts(fractions: Sequence, c: Sequence, h: Sequence, D_) -> list:
    """The interior shifts u_t = f_t φ_{t-1}(u_{t-1}) (f_t ∈ [0, 1]): a point of R, eq. (3)."""
    u, prev = [], D_
    for t, f in enumerate(fractions, start=1):
        prev = to_mpf(f, "fraction") * modulus(c[t - 1], h[t - 1], prev)
        u.append(prev)
    return u


def _farthest_from_one(ratios: Sequence) -> mpmath.mpf:
    return max(ratios, key=lambda r: abs(r - 1), default=mpmath.mpf(1))


def _farthest_from_one_ball(ratios: Sequence):
    """:func:`_farthest_from_one` of Arb balls, as a ball: the union of every ratio that the balls do not rule out
    as the farthest from 1 (1 exactly if there are none)."""
    if not ratios:
        return arb(1)
    distances = [abs(r - 1) for r in ratios]
    floor = max(d.lower() for d in distances)
    candidates = [r for r, d in zip(ratios, distances) if d.upper() >= floor]
    out = candidates[0]
    for r in candidates[1:]:
        out = out.union(r)
    return out


def _in_exact_balls(point, instance):
    """(c, h, σ²) as exact rationals, D, the square root of balls and the path u* of eq. (4) as balls: what the
    witnesses of Section 3 evaluate E, (3) and (5) on (call within ``in_balls``)."""
    exact, D_ = _exact(*instance), rational(point["D"], "D")
    root = lambda x: ball(x).sqrt()   # noqa: E731
    return exact, D_, root, optimal_shifts(*exact, D_, sqrt=root)


def linear_chain_balls(c: Sequence, sigma2: Sequence, x0) -> tuple[arb, arb]:
    """(mean, variance) of X_T for X_{t+1} = sqrt(c_t) X_t + ξ_t, ξ_t ~ N(0, σ_t²), X_0 = x0, as Arb balls at flint's
    precision, by the recursions m_{t+1} = sqrt(c_t) m_t, v_{t+1} = c_t v_t + σ_t² from the numbers exactly as given
    (:func:`~symdp.estimate.exact_rational`: the instance's own numbers, or rationals a witness derived exactly).
    Catalogue: N(sqrt(P_0) x0, S_0)."""
    m, v = ball(rational(x0, "x0")), arb(0)
    for c_t, s2_t in zip(c, sigma2):
        c_t = ball(rational(c_t, "c_t"))
        m, v = c_t.sqrt() * m, c_t * v + ball(rational(s2_t, "sigma_t^2"))
    return m, v


def linear_chain_renyi(alpha_, c: Sequence, sigma2: Sequence, D_) -> Estimate:
    """R_α(X_T ‖ X'_T) for the linear chain started from ±D/2, certified and built exactly: the two Gaussian laws from
    their recursions in balls (:func:`linear_chain_balls`, the chain's numbers read exactly), and ``∫ p^α q^(1-α)``
    of the two densities (:func:`~symdp.engine.certified.gaussian_renyi_ball`), with more bits until the ball is
    sharp. Never the Gaussian closed form α(m - m')²/(2 S_0), which is, for h ≡ 0, the very bound under test."""
    def compute():
        half = ball(rational(D_, "D")) / 2
        (m, v), (m_p, _) = (linear_chain_balls(c, sigma2, x0) for x0 in (half, -half))
        return gaussian_renyi_ball(m, v.sqrt(), m_p, v.sqrt(), ball(rational(alpha_, "alpha")))
    return built_exactly(sharp_ball(compute, GUARD_BITS, BOOST_BITS), Method.CERTIFIED)


def projected_step_law(x0, step, sd, D_) -> Projected:
    """Law of X_1 = Π_X(Φ(x0) + σξ) on X = [−D/2, D/2] for Φ(x) = x − ηL sign(x), the subgradient step of f = L|x|
    (``step`` = ηL): a Gaussian clipped to X, atoms at its ends. Φ has modulus sqrt(δ² + (2ηL)²) (c = 1, h = (2ηL)²):
    points on opposite sides of 0 move 2ηL towards each other, and past each other when closer than 2ηL."""
    half = to_mpf(D_, "D") / 2
    x = to_mpf(x0, "x0") * 2 * half
    return Projected(Gaussian(x - to_mpf(step, "eta L") * mpmath.sign(x), to_mpf(sd, "sigma")), -half, half)


def projected_renyi(alpha_, structure, D_) -> Estimate:
    """R_α(X_1 ‖ X'_1) of the projected subgradient step from the drawn starts (fractions of D), from the two laws:
    the atoms' CDF masses and quadrature of the densities over X (:mod:`symdp.engine.projected`)."""
    certified = one_projected_step({"alpha": alpha_, "D": D_, "structure": structure}, lambda: (
        ball_step_map(1, rational(structure["step"], "eta L")),
        ball(rational(structure["sigma2"][0], "sigma^2")).sqrt()))
    if certified is not None:
        return certified
    sd = mpmath.sqrt(to_mpf(structure["sigma2"][0], "sigma^2"))
    P_, Q_ = (projected_step_law(x0, structure["step"], sd, D_) for x0 in (structure["x0"], structure["x0p"]))
    return divergence("renyi", P_, Q_, alpha_, method="densities")


def ball_step_map(slope, jump):
    """Φ(x) = slope·x − jump·sign(x) (a damped subgradient step of jump·|x|/η) in balls, exact rationals where the
    parameters and x are; the sign of x decided (:func:`~symdp.theorems.bravo.mixing._sign`)."""
    return lambda x: slope * x - jump * _sign(x)


def ball_weakly_smooth_map(g, p_):
    """Φ(x) = x − g sign(x)|x|^p (the gradient step of g|x|^{1+p}/(1+p)) in balls: |x|^p = e^{p ln|x|}, Φ(0) = 0."""
    def phi(x):
        sign = _sign(x)
        return x if sign == 0 else x - g * sign * ball(abs(x)) ** p_
    return phi


def one_projected_step(point, ball_step) -> Estimate | None:
    """R_α(X_1 ‖ X'_1) of one projected step X_1 = Π_X(Φ(x_0) + σξ) on X = [−D/2, D/2] from the drawn starts x0·D,
    x0p·D, certified: the two laws are N(Φ(x_0), σ²) clipped to X, atoms at the ends (:func:`~symdp.theorems.bravo.
    mixing.clipped_renyi`: the atoms' terms plus Arb's integral of the densities), built in balls from the draw
    (``ball_step()``, called in balls, gives Φ and σ). None (the caller measures the laws as before) where the starts
    are missing or a ball cannot decide a sign Φ needs."""
    from symdp.statement import Uncertain

    starts = point.get("structure") or {}
    if any(k not in starts for k in ("x0", "x0p")):
        return None
    try:
        with in_balls():
            phi, sd = ball_step()
            D_ = rational(point["D"], "D")
            means = [ball(phi(rational(starts[k], k) * D_)) for k in ("x0", "x0p")]
            return built_exactly(clipped_renyi(*means, ball(sd), ball(D_ / 2), ball(rational(point["alpha"], "alpha"))),
                                 Method.CERTIFIED)
    except Uncertain:
        return None



_weak_h = lambdify_mpmath((eta, M, p_holder), WEAKLY_SMOOTH_H)


def damped_subgradient(slope, jump, sd) -> chains.Step:
    """Φ(x) = slope·x − jump·sign(x): modulus sqrt(slope²δ² + (2·jump)²) (points on opposite sides of 0 move 2·jump
    towards each other, by at most the larger of slope·δ and 2·jump)."""
    a_, s_ = float(to_mpf(slope, "slope")), float(to_mpf(jump, "jump"))
    return chains.Step(lambda x: a_ * x - s_ * ((x > 0) - (x < 0)), sd, breaks=(0.0,), slope=max(abs(a_), 1e-3),
                       name=f"{a_} x - {s_} sign(x)")


def chain_step(spec: dict, D_) -> tuple:
    """(step, c_t, h_t, σ_t²) of one drawn step on X = [−D/2, D/2], ``spec`` in units of D: either
    Φ(x) = a x − s sign(x) (``a``, ``s``: a damped subgradient step of L|x|; modulus sqrt(a²δ² + (2s)²), since points
    on opposite sides of 0 move 2s towards each other), or Φ(x) = x − g sign(x)|x|^p (``g``, ``p``: the gradient step
    of |x|^{1+p}/(1+p), (p, 2^{1−p})-weakly smooth, with η = g; c = 1 and h of Definition 2.1(2)); noise ``sd``."""
    D_ = to_mpf(D_, "D")
    needed = ("g", "p", "sd") if isinstance(spec, dict) and "p" in spec else ("a", "s", "sd")
    if not isinstance(spec, dict) or any(k not in spec for k in needed):
        raise InvalidParameter(f"a chain step is {{'a', 's', 'sd'}} or {{'g', 'p', 'sd'}} (units of D), got {spec!r}")
    sd = to_mpf(spec["sd"], "sd") * D_
    if "p" in spec:
        p_ = to_mpf(spec["p"], "p")
        g = to_mpf(spec["g"], "g") * D_ ** (1 - p_)
        return (chains.weakly_smooth_step(g, 1, p_, sd), mpmath.mpf(1), _weak_h(g, 2 ** (1 - p_), p_), sd * sd)
    a_, s_ = to_mpf(spec["a"], "a"), to_mpf(spec["s"], "s") * D_
    return damped_subgradient(a_, s_, sd), a_ * a_, (2 * s_) ** 2, sd * sd


def chain_renyi(alpha_, structure, D_) -> tuple[Estimate, tuple[list, list, list]]:
    """R_α(X_T ‖ X'_T) of a drawn projected chain from the starts x0·D, x0p·D, from the two laws of
    :mod:`symdp.engine.chains` (CDF atoms and Nyström quadrature of the exact transitions), and its (c, h, σ²)."""
    specs = structure.get("steps") or ()
    built = [chain_step(spec, D_) for spec in specs]
    measured = projected_renyi_of({"alpha": alpha_, "D": D_, "structure": structure}, [b[0] for b in built],
                                  ball_step=(lambda: ball_chain_step(specs[0], D_)) if len(specs) == 1 else None)
    return measured, tuple([b[k] for b in built] for k in (1, 2, 3))


def ball_chain_step(spec: dict, D_) -> tuple:
    """(Φ, σ) of one drawn step (:func:`chain_step`) in balls, from the spec's exact rationals (units of D)."""
    D_ = rational(D_, "D")
    sd = rational(spec["sd"], "sd") * D_
    if "p" in spec:
        p_ = ball(rational(spec["p"], "p"))
        return ball_weakly_smooth_map(ball(rational(spec["g"], "g")) * ball(D_) ** (1 - p_), p_), sd
    return ball_step_map(rational(spec["a"], "a"), rational(spec["s"], "s") * D_), sd


def projected_chains(min_T: int = 2, max_T: int = 4) -> st.SearchStrategy[dict]:
    """A projected chain of T ∈ [min_T, max_T] steps on [−D/2, D/2] (:func:`chain_step`, in units of D): damped
    subgradient steps, a ∈ [0.5, 1.5] (often 1), s ∈ [0, 0.6], or weakly smooth ones, g ∈ [0.01, 1], p ∈ [0, 0.9];
    noise sd ∈ [0.1, 2] (so that no Gaussian tail the laws need underflows); starts x0, x0p ∈ [−1/2, 1/2]."""
    sd = finite_floats(0.1, 2.0)
    step = st.one_of(
        st.fixed_dictionaries({"a": st.one_of(st.just(1.0), finite_floats(0.5, 1.5)), "s": finite_floats(0.0, 0.6),
                               "sd": sd}),
        st.fixed_dictionaries({"g": finite_floats(0.01, 1.0), "p": finite_floats(0.0, 0.9), "sd": sd}))
    half = finite_floats(-0.5, 0.5)
    return st.builds(lambda steps, x0, x0p: {"kind": "chain", "steps": steps, "x0": x0, "x0p": x0p},
                     st.lists(step, min_size=min_T, max_size=max_T), half, half)


def moduli(min_T: int = 1, max_T: int = 8, max_starts: int = 0) -> st.SearchStrategy[dict]:
    """One instance of Section 3: T ∈ [min_T, max_T], c_t ∈ [0.2, 3], h_t ∈ [0, 2] (often exactly 0),
    σ_t² ∈ [0.01, 10] (the catalogue's sampling ranges); with ``max_starts``, also 1..max_starts feasible starting
    shifts, each as fractions f_t ∈ [0, 1] (u_t = f_t φ_{t-1})."""
    def of_length(n):
        vec = lambda s, size=n: st.lists(s, min_size=size, max_size=size)  # noqa: E731
        parts = {"c": vec(finite_floats(0.2, 3.0)), "h": vec(st.one_of(st.just(0.0), finite_floats(0.0, 2.0))),
                 "sigma2": vec(finite_floats(0.01, 10.0))}
        if max_starts:
            parts["starts"] = flatmapped(st.integers(1, max_starts),
                                         lambda k: vec(vec(finite_floats(0.0, 1.0), n - 1), k))
        return st.fixed_dictionaries(parts)

    return flatmapped(st.integers(min_T, max_T), of_length)


def _instance(structure) -> tuple[list, list, list]:
    """(c, h, σ²) of a drawn instance at the working precision."""
    return ([to_mpf(x, "c_t") for x in structure["c"]], [to_mpf(x, "h_t") for x in structure["h"]],
            [to_mpf(x, "sigma_t^2") for x in structure["sigma2"]])


MODULI = Setting(r"$\varphi_t(\delta) = \sqrt{c_t\delta^2 + h_t}$, $c_t > 0$, $h_t \ge 0$, $\sigma_t > 0$ ($0 \le t < "
                 r"T$), $S_t = \sum_{k=t}^{T-1}\sigma_k^2 P_{k+1}$, $P_t = \prod_{l=t}^{T-1} c_l$",
                 strategy=moduli, build=_instance)
U_STAR_LATEX = r", $u^*_0 = D$, $u^*_t = \frac{S_t}{S_{t-1}}\varphi_{t-1}(u^*_{t-1})$ (4)"
BRACKET_LATEX = r", $\Sigma_{h} = \sum_{t=0}^{T-1}\frac{h_t P_{t+1}}{S_t}$"
CHAIN_LATEX = (r", $X_{t+1} = \sqrt{c_t}X_t + \xi_t$, $\xi_t \sim \mathcal{N}(0, \sigma_t^2)$, $X_0 = D/2$, $X'_0 = "
               "-D/2$")
PROJECTED_LATEX = (r"; or one projected subgradient step of $f = L|x|$ on $\mathcal{X} = [-D/2, D/2]$, $X_1 = "
                   r"\Pi_{\mathcal{X}}(X_0 - \eta L\,\mathrm{sign}(X_0) + \xi_0)$ from any $X_0, X'_0 \in "
                   r"\mathcal{X}$, $c_0 = 1$, $h_0 = (2\eta L)^2$")
CHAINS_LATEX = (r"; or $T \le 4$ projected steps $X_{t+1} = \Pi_{\mathcal{X}}(\Phi_t(X_t) + \xi_t)$ from any $X_0, "
                r"X'_0 \in \mathcal{X}$, each $\Phi_t(x) = a_t x - s_t\,\mathrm{sign}(x)$ ($c_t = a_t^2$, $h_t = "
                r"(2s_t)^2$) or $\Phi_t(x) = x - g_t\,\mathrm{sign}(x)|x|^{p_t}$, the gradient step of the $(p_t, "
                r"2^{1-p_t})$-weakly smooth $|x|^{1+p_t}/(1+p_t)$ ($\eta = g_t$; $c_t = 1$, $h_t$ of Definition "
                "2.1(2))")
MODULI_WITH_STARTS = Setting(MODULI.latex + U_STAR_LATEX, strategy=lambda: moduli(max_starts=4), build=_instance)


FIGURE_2 = {"D": 5.0, "structure": {"c": [1.0, 1.0, 1.0], "h": [4.0, 4.0, 4.0], "sigma2": [1.0, 0.0001, 0.16]}}
"""Figure 2 of the paper (Appendix B): D = 5, η = L = 1 (h = (2ηL)² = 4, c = 1), σ = (1, 0.01, 0.4)."""

RATIONAL = {"D": 1, "structure": {"c": [0.5, 2.0], "h": [1.0, 0.0], "sigma2": [1.0, 1.0]}}
"""The catalogue's exact instance (bravo.thm3.4, check 2): E(u*) = 1."""


def _with_starts(instance: dict, starts: list) -> dict:
    return {"D": instance["D"], "structure": {**instance["structure"], "starts": starts}}



_P = problem_p()
problem_P = identity(
    _P,
    id="bravo.P", title="feasible shifts are the $u$ of eq. (3)", number="Section 3.1, eq. (3) and (P)",
    parameters=(P_D,), setting=Setting(MODULI.latex + r", $a_t = \varphi_{t-1}(u_{t-1}) - u_t$ ($1 \le t \le T$), "
                                       r"$u_0 = D$, $0 \le t \le T - 1$"),
    symbolic_only=r"an identity by induction on $t$ for every $T$ (\symdpcode{proofs.bravo.problem\_p}): with $a_t = "
                  r"\varphi_{t-1}(u_{t-1}) - u_t$ the recursion $\varphi_{[0:t]}(D, a) = \varphi_t(\varphi_{[0:t-1]}) "
                  "- a_{t+1}$ returns $u_{t+1}$; computing both at draws would run the same recursion twice",
    notes=r"The reparametrisation of \S 3.1: hence $a_t \ge 0$ iff $u_t \le \varphi_{t-1}(u_{t-1})$, "
          r"$\varphi_{[0:t-1]}(D, a) \ge 0$ iff $u_t \ge 0$, and $\varphi_{[0:T-1]}(D, a) = 0$ iff $u_T = 0$, so the "
          r"feasible shifts are exactly the $u \in \mathcal{R}$ of (3). The base case is the paper's $\varphi_{[0:0]}$ "
          r"(printed $\varphi_{[0:t]}$, erratum E7).")


MINIMUM_GUARD_DIGITS = 10
"""Digits beyond the working precision at which Lemma 3.5's local minima are polished."""


def _tried(point):
    """(the sampled feasible u and the local minima reached from them, the local minima): points of ℝ^{T-1} found by
    floating-point search (never from u*), the minima polished with :data:`MINIMUM_GUARD_DIGITS` beyond the working
    precision, so that a minimum equal to u* agrees with it to the working precision (Newton stops ~100 ulps short)."""
    c_, h_, s2 = MODULI_WITH_STARTS(point)
    D_ = point["D"]
    tried, minima = [], []
    for f in point["structure"]["starts"]:
        u0 = feasible_shifts(f, c_, h_, D_)
        with mpmath.workdps(mpmath.mp.dps + MINIMUM_GUARD_DIGITS):
            u = local_minimum(u0, c_, h_, s2, D_)
        tried += [u0, u]
        minima.append(u)
    return tried, minima


@theorem(id="bravo.lem3.5", title="$u^*$ minimises the shifts objective", number="Lemma 3.5", parameters=(P_D,),
         setting=MODULI_WITH_STARTS.where(r", $\mathcal{U} =$ sampled $\mathbf{u} \in \mathcal{R}$ and the local "
                                          r"minima of $E$ on $\mathbb{R}^{T-1}$ reached from them"),
         statement=sp.Ge(TriedMinimum(), Eobj(u_star)), default_examples=200,
         tight_at=(_with_starts(FIGURE_2, [[0.1, 0.9], [1.0, 0.0]]), _with_starts(RATIONAL, [[0.3]])))
def lemma_3_5(point):
    r"""Tight: every local minimisation reaches $E(u^*)$ (the minimum is attained, at $u^*$). The tried shifts never use
    $u^*$: sampled feasible points and damped-Newton local minima over all of $\mathbb{R}^{T-1}$ started from them.
    \symdpid{bravo.lem3.5.unique} checks that the minima reached are $u^*$ itself."""
    tried, _ = _tried(point)
    with in_balls():   # E at each tried point (its coordinates exact rationals) and at u* of (4), in balls
        exact, D_, root, star = _in_exact_balls(point, MODULI_WITH_STARTS(point))
        values = [shifts_objective([rational(x) for x in u], *exact, D_, sqrt=root) for u in tried]
        least = values[0]
        for value in values[1:]:
            least = least.min(value)
        return {TriedMinimum(): enclosure(least), Eobj(u_star): enclosure(shifts_objective(star[1:-1], *exact, D_,
                                                                                             sqrt=root))}


@theorem(id="bravo.lem3.5.unique", title="every local minimisation of $E$ ends at $u^*$", number="Lemma 3.5",
         parameters=(P_D,),
         setting=MODULI_WITH_STARTS.where(r", $\mathcal{L} =$ the local minima of $E$ reached from sampled "
                                          r"$\mathbf{u} \in \mathcal{R}$, $\operatorname*{far}_i x_i =$ the $x_i$ "
                                          "farthest from 1"),
         statement=sp.Eq(MinimaRatio(), 1), tight_everywhere=True, default_examples=200)
def lemma_3_5_unique(point):
    """Numeric evidence of uniqueness: every coordinate of every local minimum reached equals that of $u^*$ ($u^*_t > 0$
    for $t < T$), so no other local minimum is found (the paper shows $u^*$ is the only stationary point where $E$ is
    differentiable)."""
    _, minima = _tried(point)
    with in_balls():   # the ratios against u* of (4) in balls (u*_t > 0 for t < T)
        _, _, _, star = _in_exact_balls(point, MODULI_WITH_STARTS(point))
        return {MinimaRatio(): enclosure(_farthest_from_one_ball(
            [ball(rational(x)) / y for u in minima for x, y in zip(u, star[1:-1])]))}


@theorem(id="bravo.lem3.5.feasible", title="$u^*$ is a feasible shift sequence", number="Lemma 3.5, eq. (4)",
         parameters=(P_D,), setting=MODULI.where(U_STAR_LATEX), statement=sp.Ge(Slack(), 0), evidence=CLOSED_FORM,
         evidence_note=r"$u^* \in \mathcal{R}$ is algebra: $u^*_t/\varphi_{t-1}(u^*_{t-1}) = S_t/S_{t-1} = S_t/(S_t + "
                       r"\sigma^2_{t-1}P_t) \in (0, 1)$ for $t < T$; the draws evaluate the recursion (4) against the "
                       "constraints (3)")
def lemma_3_5_feasible(point):
    r"""Strict, so there is no tightness to claim: $S_t/S_{t-1} \in (0, 1)$ for $t < T$. $u^*_T = 0$ exactly because
    $S_T = 0$."""
    with in_balls():   # u* of (4) and the moduli in balls, from the instance's exact rationals
        (c_, h_, _), _, root, star = _in_exact_balls(point, MODULI(point))
        least = ball(1)
        for t in range(1, len(c_)):
            phi = modulus(c_[t - 1], h_[t - 1], star[t - 1], root)
            least = least.min(ball(star[t]).min(phi - star[t]) / phi)
        return enclosure(least)


@theorem(id="bravo.lem3.5.eq5", title="$u^*$ solves the stationarity equations (5)", number="Lemma 3.5, eq. (5)",
         parameters=(P_D,), setting=MODULI.where(U_STAR_LATEX + r", $\operatorname*{far}_t x_t =$ the $x_t$ farthest "
                                                               "from 1"),
         statement=sp.Eq(Eq5Ratio(), 1), evidence=CLOSED_FORM, tight_everywhere=True,
         evidence_note=r"that $u^*$ of (4) solves (5) is algebra (proved exactly for $T \le 4$ by "
                       r"\symdpcode{proofs.bravo.stationarity}); the draws evaluate both sides of (5) at the recursion "
                       r"(4) for $T \le 8$")
def lemma_3_5_eq5(point):
    r"""Both sides of (5) at $u^*$, as their ratio (the right side $\sigma_t^2\varphi_{t-1}(u^*_{t-1})$ is positive)."""
    with in_balls():   # both sides at u* of (4) in balls, from the instance's exact rationals
        exact, _, root, star = _in_exact_balls(point, MODULI(point))
        return enclosure(_farthest_from_one_ball([ball(left) / right for left, right in
                                                  eq5_sides(star, *exact, sqrt=root)]))


def _no_noise(instance: dict, alpha_: float) -> dict:
    s = instance["structure"]
    return {"alpha": alpha_, "D": instance["D"], "structure": {**s, "h": [0.0] * len(s["c"])}}


THM_3_4_TIGHT = (_no_noise(FIGURE_2, 3.0), _no_noise(RATIONAL, 2.0),
                 {"alpha": 1.5, "D": 2.0, "structure": {"c": [0.3, 2.5, 1.0, 0.7], "h": [0.0] * 4,
                                                          "sigma2": [0.05, 3.0, 1.0, 0.2]}})


def _chain_renyi(point, terms=(P_0, S_0, Sigma_h)) -> dict:
    """R_α(X_T‖X'_T) of the drawn chain (linear, one projected step, or a projected chain of T ≥ 2 steps) and the
    bracket's ``terms`` from the chain's (c, h, σ²)."""
    structure = point["structure"]
    if structure.get("kind") == "chain":
        measured, (c_, h_, s2) = chain_renyi(point["alpha"], structure, point["D"])
    else:
        c_, h_, s2 = _instance(structure)
        measured = (projected_renyi(point["alpha"], structure, point["D"]) if structure.get("kind") == "projected"
                    else linear_chain_renyi(point["alpha"], c_, s2, point["D"]))
    return {Renyi(X_T, X_Tp, alpha): measured, **{k: v for k, v in _bracket_values(c_, h_, s2).items() if k in terms}}


THM_3_4_SETTING = Setting(MODULI.latex + BRACKET_LATEX + CHAIN_LATEX + PROJECTED_LATEX + CHAINS_LATEX,
                          strategy=lambda: st.one_of(moduli(), projected_chains(1)), build=_instance)
H_FREE_COUNTEREXAMPLE = {"alpha": 1.1, "D": 1.0, "structure": {"kind": "projected", "c": [1.0], "h": [2.25],
                                                               "sigma2": [0.04], "step": 0.75, "x0": 0.01,
                                                               "x0p": -0.01}}
"""Catalogue-style projected instance: ηL = 0.75 > D/2 moves the starts ±0.01 to ±0.74, clipped to ±1/2."""


def _chain_point(alpha_, steps, x0, x0p, D_=1.0) -> dict:
    return {"alpha": alpha_, "D": D_, "structure": {"kind": "chain", "steps": steps, "x0": x0, "x0p": x0p}}


H_FREE_CHAIN = _chain_point(1.1, [{"a": 0.5, "s": 0.6, "sd": 0.2}] * 4, 0.1, -0.1)
"""Four damped subgradient steps, Φ(x) = x/2 − 0.6 sign(x) (c = 1/4, h = 1.44), σ = 0.2, starts ±0.1: the h-free
bound decays like c^T while the steps keep throwing the two chains to opposite ends."""
PROJECTED_PINS = (H_FREE_COUNTEREXAMPLE,   # and the catalogue's proj_grid row (η, L, σ) = (0.1, 1, 0.3): ratio 0.296
                  {"alpha": 3.0, "D": 1.0, "structure": {"kind": "projected", "c": [1.0], "h": [0.04],
                                                         "sigma2": [0.09], "step": 0.1, "x0": 0.5, "x0p": -0.5}},
                  _chain_point(3.0, [{"a": 1.0, "s": 0.1, "sd": 0.3}] * 2, 0.5, -0.5),   # the same row, T = 2
                  _chain_point(2.0, [{"g": 0.3, "p": 0.5, "sd": 0.2}] * 3, 0.3, -0.05),
                  H_FREE_CHAIN)


@theorem(id="bravo.thm3.4", title=r"PABI bound for the moduli $\sqrt{c_t\delta^2 + h_t}$", number="Theorem 3.4",
         parameters=(P_ALPHA, P_D), setting=THM_3_4_SETTING,
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha / 2 * BRACKET),
         evidence_note=r"$R_\alpha(X_T\|X'_T)$ from the chains' laws, never the Gaussian closed form: the linear "
                       r"chain's from the law its mean and variance recursions give, built in balls, the product of "
                       r"its two densities integrated in closed form; the projected "
                       r"step's from its atoms (CDFs) and quadrature of its density over $\mathcal{X}$; the projected "
                       r"chains' ($T \ge 2$) from their atoms and densities computed by \symdpcode{engine.chains} "
                       r"(Nystr\"om quadrature of the exact transitions, error from two rules; the draws of "
                       r"$T \le 4$ steps). The projected step (pinned) and chains exercise the $h$-terms",
         tight_at=THM_3_4_TIGHT, examples=PROJECTED_PINS, default_examples=70,
         printed=Printed(
             id="bravo.thm3.4.h-free", kind="sharpness", severity="mathematics",
             title=r"Theorem 3.4 without its $h$-terms (sharpness copy)", number="Theorem 3.4 (the $h$-terms dropped)",
             statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha / 2 * P_0 * D ** 2 / S_0),
             location="Theorem 3.4: the terms $h_t P_{t+1}/S_t$ of the bound",
             printed=r"$R_\alpha(X_T\|X'_T) \le \frac{\alpha}{2}\frac{P_0 D^2}{S_0}$ (the $h$-terms dropped on "
                     "purpose)",
             corrected=r"$R_\alpha(X_T\|X'_T) \le \frac{\alpha}{2}\left(\frac{P_0 D^2}{S_0} + \Sigma_h\right)$, as "
                       "printed",
             counterexample=H_FREE_COUNTEREXAMPLE,
             note=r"Not a paper erratum: the $h$-terms are needed. A subgradient step of $L|x|$ longer than $D/2$ "
                  r"moves two nearby starts past each other, so the unprojected means are $1.48 > D$ apart; at "
                  r"$\alpha = 1.1$, $\sigma = 0.2$ the projected laws' $R_\alpha = 21.30$ exceeds "
                  r"$\alpha D^2/(2\sigma^2) = 13.75$ (and stays below the theorem's 44.69).",
             changes={"witness": lambda point: _chain_renyi(point, (P_0, S_0)), "examples": (H_FREE_CHAIN,),
                      "notes": r"Expected violated: refuted on a projected step whose map is not Lipschitz, and more "
                               r"strongly on projected chains with $T \ge 2$ whose maps also contract: at "
                               r"\symdpcode{H\_FREE\_CHAIN} ($T = 4$, $c = 1/4$, $h = 1.44$) $R_\alpha = 2.32$ is "
                               r"57 times the $h$-free bound (1.55 times at the $T = 1$ counterexample). With $c = 1$ "
                               r"the ratio falls with $T$ (2.39, 1.75, 1.22, 1.30 at $T = 1..4$, best over a small "
                               r"grid of steps, noises and starts)."}))
def theorem_3_4(point):
    r"""Two witnesses. The unprojected linear chain (no $h$) attains the bound for $h \equiv 0$ (catalogue
    \symdpid{bravo.id.linchain}). One projected subgradient step of $f = L|x|$, whose map has modulus
    $\sqrt{\delta^2 + (2\eta L)^2}$ and is not Lipschitz where it moves points past each other, exercises the
    $h$-term: its R\'enyi divergence exceeds the $h$-free bound there (\symdpid{bravo.thm3.4.h-free}), and stays
    below the theorem's (ratio 0.296 at the catalogue's row $(\eta, L, \sigma) = (0.1, 1, 0.3)$, starts $\pm 1/2$).
    Projected chains of $T = 1..4$ steps (damped subgradient steps $a x - s\,\mathrm{sign}(x)$ and weakly smooth
    gradient steps), their laws computed by \symdpcode{engine.chains}, exercise the $h$-terms beyond $T = 1$; on them
    the bound is loose: the largest ratio $R_\alpha/$bound over 400 random chains in the strategy's ranges was
    0.196 ($T = 2$, starts $\pm D/2$), 0.204 at the catalogue's row with $T = 2$; the largest seen on any witness with
    $h > 0$ is 0.477, one step at \symdpcode{H\_FREE\_COUNTEREXAMPLE}."""
    return _chain_renyi(point)


@theorem(id="bravo.thm3.4.value", title="the optimal value $E(u^*)$ in closed form", number="Theorem 3.4 (proof)",
         parameters=(P_D,), setting=MODULI.where(U_STAR_LATEX + BRACKET_LATEX),
         statement=sp.Eq(Eobj(u_star), BRACKET), evidence=CLOSED_FORM, tight_everywhere=True,
         tight_at=(FIGURE_2, RATIONAL),
         evidence_note="the proof's last step, $E(u^*) =$ the bracket, is algebra: $E$ evaluated at the recursion (4) "
                       r"against $P_0 D^2/S_0 + \Sigma_h$ from their definitions (proved exactly for $T \le 4$ by "
                       r"\symdpcode{proofs.bravo.optimal\_value}; the draws reach $T \le 8$)")
def theorem_3_4_value(point):
    """$E$ evaluated at the recursion (4) against the bracket of Theorem 3.4."""
    c_, h_, s2 = MODULI(point)
    with in_balls():
        exact, D_ = _exact(c_, h_, s2), rational(point["D"], "D")
        root = lambda x: ball(x).sqrt()   # noqa: E731
        star = optimal_shifts(*exact, D_, sqrt=root)
        value = enclosure(shifts_objective(star[1:-1], *exact, D_, sqrt=root))
    return {Eobj(u_star): value, **_bracket_values(c_, h_, s2)}


@theorem(id="bravo.id.linchain", title=r"R\'enyi divergence of the linear-Gaussian chain", number="catalogue helper",
         parameters=(P_ALPHA, P_D), setting=MODULI.where(CHAIN_LATEX),
         statement=sp.Eq(Renyi(X_T, X_Tp, alpha), alpha * P_0 * D ** 2 / (2 * S_0)),
         tight_everywhere=True, tight_at=THM_3_4_TIGHT)
def linear_chain(point):
    r"""$X_T \sim \mathcal{N}(\sqrt{P_0}\,x_0, S_0)$: the R\'enyi divergence from the law that the mean and variance
    recursions of the chain give (built in balls, the product of the two densities integrated), against $\alpha P_0
    D^2/(2S_0)$ with $P_0$ and $S_0$ from their definitions."""
    c_, h_, s2 = MODULI(point)
    terms = _bracket_values(c_, h_, s2)
    return {Renyi(X_T, X_Tp, alpha): linear_chain_renyi(point["alpha"], c_, s2, point["D"]), P_0: terms[P_0],
            S_0: terms[S_0]}


CHAIN_RATIO = 30
"""The largest D/σ drawn on projected chains: beyond about 35 the Gaussian tails exp(−D²/2σ²) that the laws of
:mod:`symdp.engine.chains` need underflow a double (at D/σ = 50 the measured Rényi divergence comes out as NaN)."""
P_D_CHAIN = Param(D, sp.Interval.open(0, sp.oo), sample=(0.1, 2.0), log=True,
                  limit="the chains' laws depend on D/σ, ηL/σ, not on the scale: D in [0.1, 2] with σ reaches D/σ "
                        "from 0.02 to 30")
P_SIGMA_CHAIN = Param(sigma, sp.Interval.open(0, sp.oo), sample=(2.0 / CHAIN_RATIO, 5.0), log=True,
                      limit=f"σ below D/{CHAIN_RATIO}: the laws' Gaussian tails underflow a double in engine.chains "
                            "(the bounds are tightest as D/σ grows, so the reachable end D/σ = 30 is drawn and pinned)")
P_T_CHAIN = Param(T, sp.Range(1, sp.oo), sample=(1, 12),
                  limit="T beyond 12: each step is one more Nyström propagation of both laws; the ratios fall with T")
"""Ranges of the results measured on projected chains: D/σ ≤ 30, so that no Gaussian tail the laws need underflows
a double, and T ≤ 12 steps."""
STARTS = st.one_of(st.just({"x0": 0.5, "x0p": -0.5}),
                   st.fixed_dictionaries({"x0": finite_floats(-0.5, 0.5), "x0p": finite_floats(-0.5, 0.5)}))
"""The starts x0 D, x0p D: often ±D/2, the farthest apart (where the bounds of this section come closest)."""
STARTS_LATEX = r"; $X_0 = x_0 D$, $X'_0 = x'_0 D$, $x_0, x'_0 \in [-1/2, 1/2]$ drawn"


def projected_renyi_of(point, steps, ball_step=None) -> Estimate:
    """R_α of the projected chain of ``steps`` on [−D/2, D/2] from the drawn starts (fractions of D), from its two laws
    (:mod:`symdp.engine.chains`: CDF atoms and Nyström quadrature, not certified). One step, with ``ball_step`` (its
    Φ and σ in balls), is certified instead: two clipped Gaussians (:func:`one_projected_step`)."""
    if len(steps) == 1 and ball_step is not None:
        certified = one_projected_step(point, ball_step)
        if certified is not None:
            return certified
    half = to_mpf(point["D"], "D") / 2
    chain = chains.ProjectedChain(steps, -half, half)
    starts = point.get("structure") or {}
    if any(k not in starts for k in ("x0", "x0p")):
        raise InvalidParameter(f"the starts are structure {{'x0', 'x0p'}} (fractions of D), got {starts!r}")
    P_, Q_ = (chain.law(to_mpf(starts[k], k) * 2 * half) for k in ("x0", "x0p"))
    return divergence("renyi", P_, Q_, point["alpha"])


COR_3_7_RHS = alpha / (2 * sigma ** 2) * (D ** 2 / T + h * Harmonic(T))
COR_3_7_LN = alpha / (2 * sigma ** 2) * (D ** 2 / T + h * sp.log(T * sp.E))
COR_3_7_PARAMS = (P_ALPHA, P_D, P_SIGMA, P_H, P_T)
COR_3_7_REFERENCE = {"alpha": 2, "D": 1, "sigma": 1, "h": 0.04, "T": 10}
"""Catalogue bravo.cor3.7: (6) = 0.21715873015873, its ln-version 0.232103403719762."""


def _walk(point) -> dict:
    return {**point, "structure": {"kind": "walk"}}


@theorem(id="bravo.cor3.7", title=r"PABI bound for $\varphi(\delta) = \sqrt{\delta^2 + h}$",
         number="Corollary 3.7, eq. (6)", parameters=(P_ALPHA, P_D_CHAIN, P_SIGMA_CHAIN, P_H, P_T),
         setting=Setting(r"$X_{t+1} = X_t + \sigma\xi_t$, $X_0 = D/2$, $X'_0 = -D/2$; or the projected subgradient "
                         r"steps of $f = L|x|$ on $\mathcal{X} = [-D/2, D/2]$ with $2\eta L = \sqrt{h}$, $X_{t+1} = "
                         r"\Pi_{\mathcal{X}}(X_t - \eta L\,\mathrm{sign}(X_t) + \sigma\xi_t)$" + STARTS_LATEX,
                         strategy=lambda: st.one_of(st.just({"kind": "walk"}),
                                                    STARTS.map(lambda d: {**d, "kind": "projected"}))),
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), COR_3_7_RHS),
         evidence_note=r"the random walk's $R_\alpha$ from its exact law built in balls (no $h$); the projected "
                       r"chain's from its laws (\symdpcode{engine.chains}), which exercise the $h$-term",
         tight_at=(_walk({"alpha": 2, "D": 1, "sigma": 1, "h": 0, "T": 10}),
                   _walk({"alpha": 7.5, "D": 3, "sigma": 0.2, "h": 0, "T": 1})),
         examples=(_walk(COR_3_7_REFERENCE), {**COR_3_7_REFERENCE, "structure": {"kind": "projected", "x0": 0.5,
                                                                                "x0p": -0.5}}))
def corollary_3_7(point):
    r"""The identity map has modulus $\delta \le \sqrt{\delta^2 + h}$: attained at $h = 0$ (the paper asks $h > 0$). The
    subgradient step of $L|x|$ with $(2\eta L)^2 = h$ has modulus $\sqrt{\delta^2 + h}$ (\symdpid{bravo.tab1.r1}
    draws $\eta$ and $L$ themselves); on it (6) is loose, the ratio largest at $T = 1$ (catalogue proj\_grid)."""
    n = int(point["T"])
    if point["structure"]["kind"] == "walk":
        return linear_chain_renyi(point["alpha"], [1] * n, [rational(point["sigma"], "sigma") ** 2] * n,
                                  point["D"])
    step = chains.subgradient_step(mpmath.sqrt(to_mpf(point["h"], "h")) / 2, point["sigma"])
    return projected_renyi_of(point, [step] * n, ball_step=lambda: (
        ball_step_map(1, ball(rational(point["h"], "h")).sqrt() / 2), rational(point["sigma"], "sigma")))


@theorem(id="bravo.cor3.7.thm3.4", title=r"Theorem 3.4 with $c \equiv 1$ is the middle of (6)",
         number="Corollary 3.7", parameters=COR_3_7_PARAMS,
         setting=Setting(r"$c_t = 1$, $h_t = h$, $\sigma_t = \sigma$ ($0 \le t < T$)" + BRACKET_LATEX),
         statement=sp.Eq(alpha / 2 * BRACKET, COR_3_7_RHS), evidence=CLOSED_FORM, tight_everywhere=True,
         examples=(COR_3_7_REFERENCE,),
         evidence_note=r"the corollary's first step is algebra: Theorem 3.4's bracket, $P_0$, $S_0$, $\Sigma_h$ from "
                       r"their definitions at $c \equiv 1$, against (6) ($S_t = (T - t)\sigma^2$, $P_t = 1$; proved "
                       r"exactly for $T = 1, 2, 3, 5$ by \symdpcode{proofs.bravo.corollary\_3\_7})")
def corollary_3_7_reduction(point):
    r"""$S_t = (T - t)\sigma^2$, $P_t = 1$, so $\Sigma_h = (h/\sigma^2)\sum_{t<T} 1/(T - t) = hH_T/\sigma^2$."""
    n = point["T"]
    return _bracket_values([1] * n, [point["h"]] * n, [rational(point["sigma"], "sigma") ** 2] * n)


corollary_3_7_ln = declare(
    id="bravo.cor3.7.ln", title="the harmonic sum step of (6)", number="Corollary 3.7, eq. (6)",
    parameters=COR_3_7_PARAMS, statement=sp.Le(COR_3_7_RHS, COR_3_7_LN), evidence=CLOSED_FORM,
    evidence_note=(r"the step is the inequality $H_T \le \ln(Te)$ between two formulas of $T$ "
                   r"(\symdpid{bravo.id.harm}), scaled"),
    tight_at=({"alpha": 2, "D": 1, "sigma": 1, "h": 0.04, "T": 1},), examples=(COR_3_7_REFERENCE,),
    notes=r"$H_T \le 1 + \ln T$, equality at $T = 1$ only (catalogue \symdpid{bravo.id.harm}).")

harmonic_bound = declare(
    id="bravo.id.harm", title=r"$H_T \le \ln(Te)$", number="Corollary 3.7 (helper)",
    parameters=(Param(T, sp.Range(1, sp.oo), sample=(1, 3000)),),
    statement=sp.Le(Harmonic(T), sp.log(T * sp.E)), evidence=CLOSED_FORM,
    evidence_note=r"an inequality between two formulas of $T$: $H_T$ (\symdpcode{mpmath.harmonic}) against $\ln T + 1$",
    tight_at=({"T": 1},),
    notes=r"Equality at $T = 1$ only: $H_T - \ln T$ decreases to Euler's $\gamma < 1$.")


COR_3_8_RHS = sp.Piecewise((alpha * D ** 2 / (2 * sigma ** 2 * T), sp.Eq(c, 1)),
                           (alpha * D ** 2 * c ** T * (1 - c) / (2 * sigma ** 2 * (1 - c ** T)), True))
COR_3_8_REFERENCES = tuple({"alpha": 3, "D": 1, "sigma": 0.3, "T": 5, "c": cv} for cv in (0.81, 1, 1.21))
"""Catalogue bravo.cor3.8: 1.69524312049416 (c = 0.81), 3.33333333333333 (c = 1), 5.69608882088791 (c = 1.21)."""


@theorem(id="bravo.cor3.8", title=r"PABI bound for $\varphi(\delta) = \sqrt{c}\,\delta$",
         number="Corollary 3.8, eqs. (7), (8)", parameters=(P_ALPHA, P_D, P_SIGMA, P_C, P_T),
         setting=Setting(r"$X_{t+1} = \sqrt{c}X_t + \sigma\xi_t$, $X_0 = D/2$, $X'_0 = -D/2$"),
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), COR_3_8_RHS), tight_everywhere=True, tight_at=COR_3_8_REFERENCES,
         examples=({"alpha": 2, "D": 1, "sigma": 1, "T": 7, "c": 1 + 1e-12},))
def corollary_3_8(point):
    r"""Equality on the unprojected chain (catalogue remark R1), whose $R_\alpha$ is integrated from the densities of
    its exact law built in balls (mean $c^{T/2}(\pm D/2)$, variance from the recursion), never from (7); $c = 1 +
    10^{-12}$ probes the transition (7) $\to$ (8). Projected on $[-D/2, D/2]$ (the literal hypotheses) the bound holds
    with ratio at most 0.727 (the catalogue's table, recomputed by \symdpcode{engine.chains} in the tests);
    \symdpid{bravo.thm3.4} draws projected affine chains among its instances."""
    n = point["T"]
    return linear_chain_renyi(point["alpha"], [point["c"]] * n, [rational(point["sigma"], "sigma") ** 2] * n,
                              point["D"])


_LIMIT = limit_c_to_one()
limit_7_to_8 = identity(
    _LIMIT,
    id="bravo.id.limit", title=r"(7) tends to (8) as $c \to 1$", number="Corollary 3.8 (remark after it)",
    parameters=(P_T,),
    symbolic_only=r"a limit identity for every $T$, proved by SymPy (\symdpcode{proofs.bravo.limit\_c\_to\_one}); the "
                  r"numeric approach to $1/T$ from both sides is a test (\symdpcode{tests/test\_bravo\_shifts.py})",
    notes=r"Both one-sided limits: l'H\^opital on $(1 - c)/(1 - c^T)$.")


# --- Corollary 3.9, the comparisons of Corollary 3.8, Table 1, Remark 3.6 ---------------------------------------

k_, j_ = sp.Symbol("k", integer=True), sp.Symbol("j", integer=True, nonnegative=True)
SUM_3_9 = sp.Sum(c ** k_ / sp.Sum(c ** j_, (j_, 0, k_)), (k_, 0, T - 1))
COR_3_9_D_TERM = D ** 2 * c ** T * (1 - c) / (1 - c ** T)
COR_3_9_RHS = alpha / (2 * sigma ** 2) * (COR_3_9_D_TERM + h * SUM_3_9)
COR_3_9_LN = alpha / (2 * sigma ** 2) * (COR_3_9_D_TERM + h * sp.log((1 - c ** T) / (1 - c) * sp.E))
COR_3_9_REFERENCE = {"alpha": 2, "D": 1, "sigma": 1, "c": 0.9, "h": 0.1, "T": 20}
"""Catalogue bravo.cor3.9 at c = 0.9, T = 20: sum 2.88044318974698, 1 + ln(...) 3.17295846161054, lower bound
2.54484999877118."""
COR_3_9_SETTING = Setting(
    r"$c = 1 - 2\eta\kappa + \eta^2\beta^2 \ne 1$, $h = 2\eta\lambda$, constant $\sigma$; measured on the projected "
    r"chain of $\Phi(x) = \sqrt{c}\,x - \frac{\sqrt{h}}{2}\mathrm{sign}(x)$ (modulus $\sqrt{c\delta^2 + h}$) on "
    r"$\mathcal{X} = [-D/2, D/2]$" + STARTS_LATEX + r", or (R1) the unprojected chain $X_{t+1} = \sqrt{c}X_t + "
    r"\sigma\xi_t$ from $\pm D/2$",
    strategy=lambda: st.one_of(STARTS.map(lambda d: {**d, "kind": "projected"}), st.just({"kind": "linear"})))


@theorem(id="bravo.cor3.9", title=r"PABI bound for $\varphi(\delta) = \sqrt{c\delta^2 + h}$ (strongly dissipative, "
         "smooth)", number="Corollary 3.9, first inequality",
         parameters=(P_ALPHA, P_D_CHAIN, P_SIGMA_CHAIN, P_C, P_H, P_T_CHAIN), conditions=(sp.Ne(c, 1),),
         setting=COR_3_9_SETTING, statement=sp.Le(Renyi(X_T, X_Tp, alpha), COR_3_9_RHS),
         evidence_note=r"$R_\alpha(X_T\|X'_T)$ from the chains' laws (\symdpcode{engine.chains}, or the unprojected "
                       r"chain's from its Gaussian law built in balls), never from the bound",
         tight_at=({"alpha": 3, "D": 1, "sigma": 0.3, "c": 0.81, "h": 0, "T": 5, "structure": {"kind": "linear"}},),
         examples=({**COR_3_9_REFERENCE, "structure": {"kind": "projected", "x0": 0.5, "x0p": -0.5}},
                   {"alpha": 1.1, "D": 1, "sigma": 0.2, "c": 0.25, "h": 1.44, "T": 4,
                    "structure": {"kind": "projected", "x0": 0.1, "x0p": -0.1}}),
         default_examples=75)
def corollary_3_9(point):
    r"""Theorem 3.4 with constant $c$, $h$, $\sigma$ (\symdpid{bravo.id.sum39}). Tight for $h = 0$ on the unprojected
    chain (R1, pinned); the $h$-part is loose on the projected chains: the largest ratio over 300 random draws in the
    parameters' ranges was 0.267 ($T = 1$, $\sigma > D$, where the projected laws are nearly two atoms). Erratum E15
    (edge cases, an unstated hypothesis): the corollary needs $c = 1 - 2\eta\kappa + \eta^2\beta^2 > 0$, which the
    paper does not state. On a bounded domain a $(\lambda, \kappa)$-dissipative $f$ can have $\kappa > \beta$:
    $\kappa = 2$, $\beta = 1$, $\eta = 1$ give $c = -2$, and $\sqrt{c\delta^2 + h}$ is not real for $\delta^2 > h/2$.
    symdp draws $c > 0$ (the domain of $c$). For a strongly convex $f$, $\kappa \le \beta$ gives $c \ge (1 -
    \eta\kappa)^2 \ge 0$, with $c = 0$ at $\kappa = \beta$, $\eta = 1/\kappa$ (the map is constant, and (7) tends to
    0, which holds), and $c < 1$ needs $\eta < 2\kappa/\beta^2$."""
    n = int(point["T"])
    if point["structure"]["kind"] == "linear":
        return linear_chain_renyi(point["alpha"], [point["c"]] * n, [rational(point["sigma"], "sigma") ** 2] * n,
                                  point["D"])
    step = damped_subgradient(mpmath.sqrt(to_mpf(point["c"], "c")), mpmath.sqrt(to_mpf(point["h"], "h")) / 2,
                              point["sigma"])
    return projected_renyi_of(point, [step] * n, ball_step=lambda: (
        ball_step_map(ball(rational(point["c"], "c")).sqrt(), ball(rational(point["h"], "h")).sqrt() / 2),
        rational(point["sigma"], "sigma")))


corollary_3_9_ln = declare(
    id="bravo.cor3.9.ln", title=r"the sum of Corollary 3.9 is at most $1 + \ln\frac{1 - c^T}{1 - c}$",
    number="Corollary 3.9, second inequality", parameters=(P_ALPHA, P_D, P_SIGMA, P_C, P_H, P_T),
    conditions=(sp.Ne(c, 1),), statement=sp.Le(COR_3_9_RHS, COR_3_9_LN), evidence=CLOSED_FORM,
    evidence_note=r"an inequality between two formulas of $(c, T)$, scaled: the sum evaluated term by term against "
                  r"the logarithm",
    tight_at=({"alpha": 2, "D": 1, "sigma": 1, "c": 0.5, "h": 1, "T": 1},), examples=(COR_3_9_REFERENCE,),
    default_examples=85,
    notes=r"$c^t/s_t \le \int_{s_{t-1}}^{s_t} dx/x$ with $s_t = \sum_{j \le t} c^j$: holds for every $c > 0$, "
          r"equality at $T = 1$ only (catalogue: sum 2.88044318974698 against 3.17295846161054 at $c = 0.9$, "
          r"$T = 20$).")

P_C_BELOW_ONE = Param(c, sp.Interval.open(0, 1), sample=(0.01, 0.999))
SUM_3_9_LOWER = 1 + sp.log((1 - c ** (T + 1)) / (1 - c ** 2))
corollary_3_9_lower = declare(
    id="bravo.cor3.9.lower.corrected", title=r"the lower bound on the sum of Corollary 3.9, for $c < 1$",
    number="Corollary 3.9, the remark after it (corrected)", parameters=(P_C_BELOW_ONE, P_T),
    statement=sp.Le(SUM_3_9_LOWER, SUM_3_9), evidence=CLOSED_FORM,
    evidence_note=r"an inequality between two formulas of $(c, T)$: the logarithm against the sum term by term",
    tight_at=({"c": 0.5, "T": 1},), examples=({"c": 0.9, "T": 20},), default_examples=85,
    notes=r"Holds for $0 < c \le 1$ ($c = 1$ as the limit $1 + \ln\frac{T+1}{2} \le H_T$): $c^t/s_t \ge c^{t+1}/s_t "
          r"\ge \ln(s_{t+1}/s_t)$ needs $c \le 1$. Equality at $T = 1$; catalogue reference $2.54484999877118 \le "
          r"2.88044318974698$ at $c = 0.9$, $T = 20$.",
    printed=Printed(
        id="bravo.cor3.9.lower", title=r"the lower bound on the sum of Corollary 3.9, as printed (every $c > 0$)",
        number="Corollary 3.9, the remark after it", severity="mathematics",
        location=r"the remark after Corollary 3.9 (``the lower bound is obtained through a similar argument'')",
        counterexample={"c": 1.5, "T": 2},
        printed=rf"${latex(sp.Le(SUM_3_9_LOWER, SUM_3_9))}$ for every $c > 0$, $c \ne 1$ (the remark claims the "
                r"lower bound alongside the upper one, which holds for every $c$)",
        corrected=rf"${latex(sp.Le(SUM_3_9_LOWER, SUM_3_9))}$ for $0 < c < 1$ only (and $c = 1$ as a limit): the "
                  r"hypothesis $c < 1$ is added, the formula is unchanged",
        note=r"Catalogue E1, confirmed: at $c = 3/2$, $T = 2$ the sum is $1 + \frac{3/2}{5/2} = 1.6$ and the lower "
             r"bound $1 + \ln\frac{19}{10} = 1.6419$. It fails for every $c > 1$ once $T$ is large (the sum grows like "
             r"$T(c - 1)/c$, the bound like $T\ln c$); the upper bound (\symdpid{bravo.cor3.9.ln}) is unaffected.",
        changes={"parameters": (P_C, P_T), "conditions": (sp.Ne(c, 1),)}))


@theorem(id="bravo.id.sum39", title="Theorem 3.4 with constant $c$, $h$, $\\sigma$ is the middle of Corollary 3.9",
         number="Corollary 3.9 (its proof)", parameters=(P_ALPHA, P_D, P_SIGMA, P_C, P_H, P_T_CHAIN),
         conditions=(sp.Ne(c, 1),), setting=Setting(r"$c_t = c \ne 1$, $h_t = h$, $\sigma_t = \sigma$ ($0 \le t < T$)"
                                                    + BRACKET_LATEX),
         statement=sp.Eq(alpha / 2 * BRACKET, COR_3_9_RHS), evidence=CLOSED_FORM, tight_everywhere=True,
         examples=(COR_3_9_REFERENCE,), default_examples=80,
         evidence_note=r"the corollary's first step is algebra: Theorem 3.4's bracket, $P_0$, $S_0$, $\Sigma_h$ from "
                       r"their definitions at constant $c$, against the corollary's sum (proved exactly for $T \le 3$ "
                       r"by \symdpcode{proofs.bravo.shifts.corollary\_3\_9}, $T \le 7$ with the slow derivations)")
def sum_3_9(point):
    r"""$P_t = c^{T-t}$, $S_t = \sigma^2\sum_{j<T-t} c^j$, so $h P_{t+1}/S_t = h c^{T-t-1}/(\sigma^2\sum_{j<T-t}c^j)$:
    the corollary's sum read backwards."""
    n = int(point["T"])
    return _bracket_values([point["c"]] * n, [point["h"]] * n, [rational(point["sigma"], "sigma") ** 2] * n)


COR_3_8_SEVEN = alpha * D ** 2 * c ** T * (1 - c) / (2 * sigma ** 2 * (1 - c ** T))
comparison_at23 = declare(
    id="bravo.cor3.8.at23", title=r"(7) improves on Altschuler and Talwar (2023) for $c < 1$",
    number="Corollary 3.8, the comparison after it", parameters=(P_ALPHA, P_D, P_SIGMA, P_C_BELOW_ONE, P_T),
    statement=sp.Le(COR_3_8_SEVEN, alpha * D ** 2 * c ** T / (2 * sigma ** 2)), evidence=CLOSED_FORM,
    evidence_note=r"the paper compares two closed-form bounds: $(1 - c)/(1 - c^T) \le 1$ for $c < 1$",
    tight_at=({"alpha": 2, "D": 1, "sigma": 1, "c": 0.5, "T": 1},),
    notes=r"Equal at $T = 1$; the factor $(1 - c)/(1 - c^T)$ decreases in $T$.")
comparison_balle19 = declare(
    id="bravo.cor3.8.balle19", title=r"(7) improves on Balle et al. (2019) for $c > 1$",
    number="Corollary 3.8, the comparison after it",
    parameters=(P_ALPHA, P_D, P_SIGMA, Param(c, sp.Interval.open(1, sp.oo), sample=(1.001, 5.0)), P_T),
    statement=sp.Le(COR_3_8_SEVEN, alpha * D ** 2 * c ** ((T + 1) / 2) / (2 * sigma ** 2 * T)), evidence=CLOSED_FORM,
    evidence_note=r"the paper compares two closed-form bounds: $\sum_{j<T} c^j \ge T c^{(T-1)/2}$ (AM-GM)",
    tight_at=({"alpha": 2, "D": 1, "sigma": 1, "c": 2.0, "T": 1},),
    notes=r"Equal at $T = 1$ (AM-GM with one term); for $c > 1$ (7) tends to $\alpha D^2(c - 1)/(2\sigma^2)$.")


# Table 1: one row, one declaration; each row is Theorem 3.4 with the constant modulus of Definition 2.1.
P_L = Param(L, sp.Interval.open(0, sp.oo), sample=(0.05, 2.0),
            limit="L enters only through ηL (the step, or the modulus's 2ηL), whose range η's draws widen")
P_M_ROW = Param(M, sp.Interval.open(0, sp.oo), sample=(0.05, 2.0),
                limit="M enters only through the step η2^{p-1}M, whose range η's draws widen")
P_KAPPA = Param(kappa, sp.Interval.open(0, sp.oo), sample=(0.05, 3.0))
P_BETA = Param(beta, sp.Interval.open(0, sp.oo), sample=(0.05, 3.0))
P_P = Param(p_holder, sp.Interval.Ropen(0, 1), sample=(0.0, 0.9))
P_ETA_ROW = Param(eta, sp.Interval.open(0, sp.oo), sample=(0.01, 0.5))
P_ETA_STEP = Param(eta, sp.Interval.open(0, sp.oo), sample=(1e-4, 0.5), log=True,
                   limit="η above 0.5 (a step ηL above 1) with σ near D/30 puts one law's mass where the other's "
                         "Gaussian tail underflows a double: engine.chains then compares log-masses, exact at T = 1 "
                         "(η = 2 pinned), but at T >= 2 and large α the Rényi integrand ~e^{ky} at an end is finer "
                         "than its rules (error infinite, inconclusive); long steps are loose (the h-term dominates "
                         "the bound: ratios below 0.24 at η in [0.5, 2]). η below 1e-4 moves the ratio by less "
                         "than 4ηL/D")
P_ALPHA_ROW = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.001, 64.0), log=True,
                    limit="α → 1 is the KL limit, approached to 1e-3; α beyond 64 is dominated by the atoms")
ROW_PARAMS = (P_ALPHA_ROW, P_D_CHAIN, P_SIGMA_CHAIN)
C_ROW = 1 - 2 * eta * kappa + eta ** 2 * beta ** 2
CATALOGUE_ROW = {"alpha": 3, "D": 1, "sigma": 0.3, "eta": 0.1, "L": 1, "structure": {"x0": 0.5, "x0p": -0.5}}
"""The catalogue's proj_grid row (η, L, σ) = (0.1, 1, 0.3), starts ±1/2, α = 3: ratio 0.296 at T = 1."""
ROW_1_WORST = {"alpha": 1.001, "D": 2.0, "sigma": 2.0 / CHAIN_RATIO, "eta": 1e-4, "L": 0.05, "T": 1,
               "structure": {"x0": 0.5, "x0p": -0.5}}
"""The reachable corner where row 1 comes closest (ratio 0.9768): α → 1, D/σ = 30, ηL/D = 2.5e-6, one step, starts
±D/2."""
ROW_1_LONG_STEP = {"alpha": 1.001, "D": 2.0, "sigma": 0.0667, "eta": 2.0, "L": 2.0, "T": 1,
                   "structure": {"x0": 0.5, "x0p": -0.5}}
"""A step ηL = 4 beyond the drawn η (ratio 0.236): each law's mass lies 60 noise scales past the other's end, where the
other's Gaussian tail underflows a double (engine.chains compares their log-masses)."""


@theorem(id="bravo.tab1.r1", title="Table 1: convex, $L$-Lipschitz", number="Table 1, row 1",
         parameters=(*ROW_PARAMS, P_ETA_STEP, P_L, P_T_CHAIN),
         setting=Setting(r"$f(x) = L|x|$ on $\mathcal{X} = [-D/2, D/2]$, projected subgradient steps $X_{t+1} = "
                         r"\Pi_{\mathcal{X}}(X_t - \eta L\,\mathrm{sign}(X_t) + \sigma\xi_t)$" + STARTS_LATEX,
                         strategy=lambda: STARTS),
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha / (2 * sigma ** 2) * (D ** 2 / T + (2 * eta * L) ** 2
                                                                              * Harmonic(T))),
         examples=(ROW_1_WORST, {**CATALOGUE_ROW, "T": 1}, {**CATALOGUE_ROW, "T": 3}, ROW_1_LONG_STEP,
                   {**ROW_1_LONG_STEP, "T": 2}), default_examples=72)
def table_1_r1(point):
    r"""Corollary 3.7 with $h = (2\eta L)^2$, the modulus (1) of Definition 2.1, on the projected chain of $L|x|$.
    The ratio tends to 1 as $\alpha \to 1$, $D/\sigma \to \infty$, $\eta L/D \to 0$, $T = 1$, starts $\pm D/2$: the
    projected laws are then two Gaussians, half their mass in an atom at their own end, and their KL approaches
    $D^2/(2\sigma^2)$, the bound without its $h$-term (approximately $1 - 2\sqrt{2/\pi}\,\sigma/D$). The reachable
    end is $D/\sigma = 30$ (\symdpcode{CHAIN\_RATIO}): ratio 0.9768 at \symdpcode{ROW\_1\_WORST} (pinned; a
    Nelder--Mead search over the drawn ranges from 60 random starts found nothing higher); 0.296 at the catalogue's row
    (pinned). The ratio falls with $T$; the $hH_T$ term is never approached."""
    return projected_renyi_of(point, [chains.subgradient_step(to_mpf(point["eta"], "eta") * to_mpf(point["L"], "L"),
                                                              point["sigma"])] * int(point["T"]), ball_step=lambda: (
        ball_step_map(1, rational(point["eta"], "eta") * rational(point["L"], "L")), rational(point["sigma"], "sigma")))


@theorem(id="bravo.tab1.r2", title=r"Table 1: convex, $(p, M)$-weakly smooth", number="Table 1, row 2",
         parameters=(*ROW_PARAMS, P_ETA_STEP, P_M_ROW, P_P, P_T_CHAIN),
         setting=Setting(r"$f(x) = w|x|^{1+p}/(1+p)$, $w = 2^{p-1}M$ (H\"older constant $M$), on $\mathcal{X} = "
                         r"[-D/2, D/2]$, projected gradient steps $X_{t+1} = \Pi_{\mathcal{X}}(X_t - \eta f'(X_t) + "
                         r"\sigma\xi_t)$" + STARTS_LATEX, strategy=lambda: STARTS),
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha / (2 * sigma ** 2) * (D ** 2 / T + WEAKLY_SMOOTH_H
                                                                              * Harmonic(T))),
         examples=({"alpha": 1.001, "D": 2.0, "sigma": 2.0 / CHAIN_RATIO, "eta": 1e-4, "M": 0.05, "p": 0.0, "T": 1,
                    "structure": {"x0": 0.5, "x0p": -0.5}},
                   {"alpha": 3, "D": 1, "sigma": 0.3, "eta": 0.2, "M": 1, "p": 0.5, "T": 2,
                    "structure": {"x0": 0.5, "x0p": -0.5}},), default_examples=75)
def table_1_r2(point):
    r"""Corollary 3.7 with the $h$ of Definition 2.1(2) on the projected chain of a one-dimensional weakly smooth
    $f$. As for row 1 (\symdpid{bravo.tab1.r1}), the ratio tends to 1 as $\alpha \to 1$, $D/\sigma \to \infty$,
    $\eta \to 0$, $T = 1$, starts $\pm D/2$; at the reachable corner $D/\sigma = 30$ it is 0.9768 (pinned; the
    Nelder--Mead search over the drawn ranges found nothing higher). Away from it loose: the one-dimensional
    $|x|^{1+p}$ reaches only part of $h$ (see \symdpid{bravo.def2.1.2})."""
    p_ = to_mpf(point["p"], "p")
    step = chains.weakly_smooth_step(point["eta"], to_mpf(point["M"], "M") * 2 ** (p_ - 1), p_, point["sigma"])

    def ball_step():
        p_ball = ball(rational(point["p"], "p"))
        weight = ball(rational(point["M"], "M")) * ball(2) ** (p_ball - 1)
        return ball_weakly_smooth_map(ball(rational(point["eta"], "eta")) * weight, p_ball), rational(point["sigma"],
                                                                                                        "sigma")
    return projected_renyi_of(point, [step] * int(point["T"]), ball_step=ball_step)


def _quadratic_chain(point, curvature) -> Estimate:
    """R_α of the unprojected chain X_{t+1} = (1 − η·curvature) X_t + σξ_t (the gradient step of curvature·x²/2)
    from ±D/2 (R1: D = |X_0 − X'_0|), from its Gaussian laws built exactly (:func:`linear_chain_renyi`): the
    ``curvature`` an exact rational of the drawn numbers, the slope too."""
    n, slope = int(point["T"]), 1 - rational(point["eta"], "eta") * curvature
    return linear_chain_renyi(point["alpha"], [slope ** 2] * n, [rational(point["sigma"], "sigma") ** 2] * n,
                              point["D"])


QUADRATIC_LATEX = (r"$f(x) = \kappa' x^2/2$, the unprojected chain $X_{t+1} = (1 - \eta\kappa')X_t + \sigma\xi_t$ "
                   r"from $\pm D/2$ (R1: $D = |X_0 - X'_0|$), ")
FRACTION = st.fixed_dictionaries({"r": finite_floats(0.0, 1.0)})


@theorem(id="bravo.tab1.r3", title=r"Table 1: $\kappa$-strongly convex, $\beta$-smooth", number="Table 1, row 3",
         parameters=(P_ALPHA, P_D, P_SIGMA, P_ETA, P_KAPPA, P_BETA, P_T), conditions=(kappa <= beta,),
         setting=Setting(QUADRATIC_LATEX + r"$\kappa' = \kappa + r(\beta - \kappa)$, $r \in [0, 1]$ drawn",
                         strategy=lambda: FRACTION),
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha * D ** 2 * C_ROW ** T * (1 - C_ROW)
                         / (2 * sigma ** 2 * (1 - C_ROW ** T))),
         tight_at=({"alpha": 2, "D": 1, "sigma": 0.5, "eta": 0.3, "kappa": 1.5, "beta": 1.5, "T": 4,
                    "structure": {"r": 0.5}},), default_examples=75)
def table_1_r3(point):
    r"""Corollary 3.8 with $c = 1 - 2\eta\kappa + \eta^2\beta^2$, the modulus (3): a quadratic of curvature
    $\kappa' \in [\kappa, \beta]$ has the exact factor $(1 - \eta\kappa')^2 \le c$. Tight for $\kappa = \beta$
    (pinned); $c$ itself is loose otherwise."""
    k_lo, k_hi = rational(point["kappa"], "kappa"), rational(point["beta"], "beta")
    return _quadratic_chain(point, k_lo + rational(point["structure"]["r"], "r") * (k_hi - k_lo))


@theorem(id="bravo.tab1.r4", title=r"Table 1: convex, $\beta$-smooth, $\eta \le 2/\beta$", number="Table 1, row 4",
         parameters=(P_ALPHA, P_D, P_SIGMA, P_ETA, P_BETA, P_T), conditions=(eta * beta <= 2,),
         setting=Setting(QUADRATIC_LATEX + r"$\kappa' = r\beta$, $r \in [0, 1]$ drawn", strategy=lambda: FRACTION),
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha * D ** 2 / (2 * sigma ** 2 * T)),
         tight_at=({"alpha": 2, "D": 1, "sigma": 0.5, "eta": 0.5, "beta": 2.0, "T": 4, "structure": {"r": 0.0}},
                   {"alpha": 2, "D": 1, "sigma": 0.5, "eta": 1.0, "beta": 2.0, "T": 3, "structure": {"r": 1.0}}),
         default_examples=70)
def table_1_r4(point):
    r"""Corollary 3.8 with $c = 1$, the modulus (4): the step's factor $|1 - \eta\kappa'| \le 1$ for $\eta\kappa'
    \le 2$. Tight at $\kappa' = 0$ and at $\eta\kappa' = 2$ (both pinned)."""
    return _quadratic_chain(point, rational(point["structure"]["r"], "r") * rational(point["beta"], "beta"))


C_ROW_5 = (1 + eta * beta) ** 2


@theorem(id="bravo.tab1.r5", title=r"Table 1: nonconvex, $\beta$-smooth", number="Table 1, row 5",
         parameters=(P_ALPHA, P_D, P_SIGMA, P_ETA, P_BETA, P_T),
         setting=Setting(QUADRATIC_LATEX + r"$\kappa' = r\beta$, $r \in [-1, 1]$ drawn",
                         strategy=lambda: st.fixed_dictionaries({"r": finite_floats(-1.0, 1.0)})),
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha * D ** 2 * C_ROW_5 ** T * (C_ROW_5 - 1)
                         / (2 * sigma ** 2 * (C_ROW_5 ** T - 1))),
         tight_at=({"alpha": 2, "D": 1, "sigma": 0.5, "eta": 0.3, "beta": 1.0, "T": 4, "structure": {"r": -1.0}},),
         default_examples=70)
def table_1_r5(point):
    r"""Corollary 3.8 with $c = (1 + \eta\beta)^2$, the modulus (5): $|1 - \eta\kappa'| \le 1 + \eta\beta$. Tight
    at $f = -\beta x^2/2$ (pinned)."""
    return _quadratic_chain(point, rational(point["structure"]["r"], "r") * rational(point["beta"], "beta"))


def dissipative_constants(structure, read=to_mpf) -> dict:
    """κ, λ, β of f = κ'x²/2 + G sin(a x) (Definition 2.1(6) as :mod:`symdp.theorems.bravo.moduli` draws it):
    κ = κ'/2, λ = 2(G|a|)²/κ', β = κ' + G a², from the coefficients as ``read`` gives them (``rational``: exact)."""
    k1, G, a_ = (read(structure[n], n) for n in ("kappa1", "G", "a"))
    return {kappa: k1 / 2, lam: 2 * (G * abs(a_)) ** 2 / k1, beta: k1 + G * a_ * a_}


@theorem(id="bravo.tab1.r6", title=r"Table 1: $(\lambda, \kappa)$-strongly dissipative, $\beta$-smooth",
         number="Table 1, row 6", parameters=(*ROW_PARAMS, P_ETA_ROW, P_T_CHAIN),
         setting=Setting(r"$f(x) = \kappa' x^2/2 + G\sin(ax)$ on $\mathcal{X} = [-D/2, D/2]$ ($\kappa = \kappa'/2$, "
                         r"$\lambda = 2(Ga)^2/\kappa'$, $\beta = \kappa' + Ga^2$), projected gradient steps"
                         + STARTS_LATEX + r", $\kappa' \in [0.1, 3]$, $G \in [0, 1]$, $a \in [0.5, 2]$ drawn",
                         strategy=lambda: st.builds(lambda s, k1, G, a_: {**s, "kappa1": k1, "G": G, "a": a_}, STARTS,
                                                    finite_floats(0.1, 3.0), finite_floats(0.0, 1.0),
                                                    finite_floats(0.5, 2.0))),
         statement=sp.Le(Renyi(X_T, X_Tp, alpha), alpha / (2 * sigma ** 2) * (
             D ** 2 * C_ROW ** T * (1 - C_ROW) / (1 - C_ROW ** T)
             + 2 * eta * lam * sp.log((1 - C_ROW ** T) / (1 - C_ROW) * sp.E))),
         examples=({"alpha": 1.001, "D": 2.0, "sigma": 2.0 / CHAIN_RATIO, "eta": 0.01, "T": 1,
                    "structure": {"x0": 0.5, "x0p": -0.5, "kappa1": 0.1, "G": 0.0, "a": 0.5}},
                   {"alpha": 3, "D": 1, "sigma": 0.3, "eta": 0.2, "T": 3,
                    "structure": {"x0": 0.5, "x0p": -0.5, "kappa1": 1.0, "G": 0.5, "a": 2.0}},),
         default_examples=75)
def table_1_r6(point):
    r"""Corollary 3.9's logarithmic form with the modulus (6), on the projected chain of a one-dimensional dissipative
    $f$; $\kappa$, $\lambda$, $\beta$ measured from $f$'s coefficients. As for row 1 (\symdpid{bravo.tab1.r1}), the
    ratio tends to 1 as $\alpha \to 1$, $D/\sigma \to \infty$, $\eta\kappa' \to 0$, $G = 0$, $T = 1$, starts
    $\pm D/2$: 0.9758 at the reachable corner ($D/\sigma = 30$, $\eta = 0.01$, $\kappa' = 0.1$; pinned), 0.9768 as
    $\eta \to 0$ (a Nelder--Mead search over the ranges, $\eta$ down to $10^{-3}$). Away from it loose: the
    logarithm is itself an upper bound on the sum (\symdpid{bravo.cor3.9.ln})."""
    s_ = point["structure"]
    k1, G, a_ = (float(to_mpf(s_[n], n)) for n in ("kappa1", "G", "a"))
    e = float(to_mpf(point["eta"], "eta"))
    constants = {k: built_exactly(v) for k, v in dissipative_constants(s_, rational).items()}
    step = chains.Step(lambda x: x - e * (k1 * x + G * a_ * mpmath.cos(a_ * x)), point["sigma"],
                       slope=1 + e * float(dissipative_constants(s_)[beta]), name="dissipative")

    def ball_step():
        k1_, G_, a_b, e_ = (ball(rational(v, n)) for v, n in ((s_["kappa1"], "kappa1"), (s_["G"], "G"),
                                                                (s_["a"], "a"), (point["eta"], "eta")))
        return (lambda x: ball(x) - e_ * (k1_ * ball(x) + G_ * a_b * (a_b * ball(x)).cos())), rational(point["sigma"],
                                                                                                         "sigma")
    return {Renyi(X_T, X_Tp, alpha): projected_renyi_of(point, [step] * int(point["T"]), ball_step=ball_step),
            **constants}


# Remark 3.6: noisy gradient descent-ascent with a monotone operator.
P_BOX = 2.0
"""Points are drawn in the box [−2, 2]²."""


def gda_operator(structure):
    """F(x, y) = (∇_x g, −∇_y g) of g = a log cosh x − b log cosh y + m x y (convex-concave for a, b ≥ 0), as its
    change ΔF = F(z) − F(z') between two points, and the constants it has on the box [−R, R]²:
    L = sqrt((a + |m|R)² + (b + |m|R)²) ≥ ‖F‖, β = max(a, b) + |m| ≥ ‖F'‖. In balls
    (:func:`~symdp.theorems.bravo.common.in_balls`): the coefficients exact rationals, the change of tanh as
    tanh x − tanh x' = sinh(x − x')/(cosh x cosh x'), a ball that is exactly 0 where x = x'."""
    a_, b_, m_ = (rational(structure[n], n) for n in ("a", "b", "m"))

    def tanh_change(x, xp):
        return ball(x - xp).sinh() / (ball(x).cosh() * ball(xp).cosh()) if x != xp else 0

    def change(z, zp):
        (x, y), (xp, yp) = z, zp
        return a_ * tanh_change(x, xp) + m_ * (y - yp), b_ * tanh_change(y, yp) - m_ * (x - xp)

    R_ = rational(P_BOX)
    return change, {L: ball((a_ + abs(m_) * R_) ** 2 + (b_ + abs(m_) * R_) ** 2).sqrt(),
                    beta: max(a_, b_) + abs(m_)}


BOX = finite_floats(-P_BOX, P_BOX)
SADDLE = st.fixed_dictionaries({"a": st.one_of(st.just(0.0), finite_floats(0.0, 2.0)),
                                "b": st.one_of(st.just(0.0), finite_floats(0.0, 2.0)), "m": finite_floats(-2.0, 2.0),
                                "z": st.tuples(BOX, BOX), "zp": st.tuples(BOX, BOX)})


@theorem(id="bravo.rem3.6", title="the modulus of noisy gradient descent-ascent", number="Remark 3.6",
         parameters=(P_ETA,),
         setting=Setting(r"$\Phi(z) = z - \eta F(z)$, $F = (\nabla_x g, -\nabla_y g)$ of $g(x, y) = a\log\cosh x - "
                         r"b\log\cosh y + mxy$ ($a, b \ge 0$: monotone), $z, z' \in [-2, 2]^2$, $\delta = \|z - "
                         r"z'\|$, $L \ge \sup\|F\|$ and $\beta \ge \sup\|F'\|$ on the box", strategy=lambda: SADDLE),
         statement=sp.Le(DPhi2(), delta ** 2 + sp.Min(2 * eta * L, eta * beta * delta) ** 2),
         tight_at=({"eta": 0.3, "structure": {"a": 0.0, "b": 0.0, "m": 1.5, "z": (0.5, -1.0), "zp": (-0.2, 0.3)}},),
         examples=({"eta": 1.5, "structure": {"a": 2.0, "b": 0.5, "m": 0.3, "z": (2.0, 2.0), "zp": (-2.0, -2.0)}},))
def remark_3_6(point):
    r"""$\|\Phi(z) - \Phi(z')\|^2 = \delta^2 - 2\eta\langle\Delta F, \Delta z\rangle + \eta^2\|\Delta F\|^2$ and
    monotonicity drops the middle term; $\|\Delta F\| \le \min(2L, \beta\delta)$. Measured from $F$ at drawn points,
    in balls from the point's own numbers (built exactly).
    Tight for the bilinear $g = mxy$ ($F$ a rotation, $\|\Delta F\| = |m|\delta \le 2L$ in the box; pinned)."""
    with in_balls():
        change, constants = gda_operator(point["structure"])
        z, zp = ([rational(v, "z") for v in point["structure"][k]] for k in ("z", "zp"))
        e = rational(point["eta"], "eta")
        step = [u - v for u, v in zip(z, zp)]
        image = [d - e * f for d, f in zip(step, change(z, zp))]   # Φ(z) − Φ(z')
        return {DPhi2(): built_exactly(sum((d * d for d in image), 0)),
                delta: built_exactly(ball(sum(d * d for d in step)).sqrt()),
                **{name: built_exactly(value) for name, value in constants.items()}}


remark_3_6_lipschitz = declare(
    id="bravo.rem3.6.lipschitz", title="the saddle-point modulus is at most the Lipschitz one",
    number="Remark 3.6", parameters=(P_ETA, P_L, Param(beta, sp.Interval.open(0, sp.oo), sample=(0.05, 5.0)),
                                     Param(delta, sp.Interval(0, sp.oo), sample=(0.0, 5.0))),
    statement=sp.Le(delta ** 2 + sp.Min(2 * eta * L, eta * beta * delta) ** 2, delta ** 2 + (2 * eta * L) ** 2),
    evidence=CLOSED_FORM,
    evidence_note=r"a comparison of two closed-form moduli: $\min\{2\eta L, \eta\beta\delta\} \le 2\eta L$",
    tight_at=({"eta": 0.5, "L": 1, "beta": 2, "delta": 3},),
    notes=r"Equality where $\beta\delta \ge 2L$; the remark's point is the $\eta\beta\delta$ branch for small "
          r"$\delta$.")

_BELLMAN = bellman_value()
bellman = identity(
    _BELLMAN,
    id="bravo.id.bellman", title="the Bellman value of problem (P)", number="Lemma 3.5 (catalogue: a simpler proof)",
    symbolic_only=r"an identity of one stage, for every $t$ and $T$ (\symdpcode{proofs.bravo.shifts.bellman\_value}, "
                  r"its argmin \symdpcode{bellman\_argmin}); computing both sides at draws would evaluate one formula "
                  "twice",
    notes=r"With $V_{t+1}(y) = P_{t+1}y^2/S_{t+1} + K_{t+1}$, the stage $(\varphi_t(x) - y)^2/\sigma_t^2 + "
          r"V_{t+1}(y)$ is a strictly convex quadratic in $y$, minimal at $y^* = \varphi_t(x)S_{t+1}/S_t$ with value "
          r"$V_t(x) = P_tx^2/S_t + h_tP_{t+1}/S_t + K_{t+1}$: by induction from $V_T = 0$, $u^*$ is the unique global "
          r"minimiser of $E$ over $\mathbb{R}^{T-1}$ and $E(u^*) = V_0(D)$ is Theorem 3.4's bracket (catalogue "
          r"\S 4 item 3; no compactness or differentiability of $\varphi_t$ at 0 needed). The proof's induction step "
          r"as printed has a coefficient equal to 1 and $\varphi_{T-(s+1)}$ for $\varphi_{T-(s+2)}$ (erratum E6, a "
          r"typo): \symdpcode{proofs.bravo.shifts.induction\_step\_e6} derives the corrected step.")



THEOREMS = registered(__name__)
