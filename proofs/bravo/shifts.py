"""Derivations for Section 3 of Bravo, Flores-Mella, Guzmán (shift optimality).

Seed ``../shared/seeds/003_a063a8ea298de6c8.txt``; catalogue ``../shared/catalogue/catalogue-bravo.md`` (entries
bravo.P, bravo.lem3.5, bravo.thm3.4, bravo.cor3.7, bravo.cor3.8, bravo.id.limit, bravo.id.sum39; the Bellman
value of §4 and the corrected induction step of Lemma 3.5, erratum E6). Every step is checked exactly by
SymPy (:class:`symdp.derivation.Derivation`); the numeric side of the same results is in
:mod:`symdp.theorems.bravo.shifts`, which imports from here the catalogue's helpers :func:`tail_products` and
:func:`noise_sums` (generic in the number type, so the same code builds the symbolic S_t, P_t here and the numeric
ones there) and the derivations that stand as proofs of its identities (bravo.P, bravo.id.limit).

Notation as in the catalogue: S_t = Σ_{k=t}^{T-1} σ_k² P_{k+1}, P_t = Π_{l=t}^{T-1} c_l, r_t = S_t/S_{t-1} (so
r_T = 0), A_t = φ_{t-1}(u*_{t-1}) and v_t = u*_t² (v_0 = D²). Eq. (4) reads u*_t = r_t A_t. The square roots
disappear under the substitution v_t = u*_t²: A_{t+1}² = c_t v_t + h_t, so stationarity and the value E(u*) become
rational identities in (c, h, σ², D), which SymPy's ``cancel`` decides. For E(u*) the last step is taken in the
variables (P_0, ..., P_{T-1}, S_0, ..., S_{T-1}) (c_t = P_t/P_{t+1}, σ_t² = (S_t - S_{t+1})/P_{t+1}, a bijection onto
the admissible parameters), which keeps the degrees low: T = 4 takes 0.3 s there against 50 s in (c, σ²). These are
proved for each small T (the number of sums and products is fixed by T): T ≤ 4 here, T ≤ 6 with
``derivations(slow=True)``. The derivations of §3.1 (:func:`problem_p`) and of the c → 1 limit hold for every T.

>>> all(d.check() for d in DERIVATIONS)
True
"""

from __future__ import annotations

from typing import Sequence

import sympy as sp

from symdp.derivation import Derivation
from symdp.expressions import quantity
from symdp import symbols as sym
from symdp.symbols import D, T, alpha, c, h, sigma

SOURCE = "003_a063a8ea298de6c8.txt, Section 3"


# --- the catalogue's helpers (generic in the number type) ------------------------------------------------------
def tail_products(c: Sequence) -> list:
    """[P_0, ..., P_T] with P_t = Π_{l=t}^{T-1} c_l and P_T = 1.

    >>> tail_products([2, 3, 5])
    [30, 15, 5, 1]
    """
    P = [1] * (len(c) + 1)
    for k in range(len(c) - 1, -1, -1):
        P[k] = P[k + 1] * c[k]
    return P


def noise_sums(c: Sequence, sigma2: Sequence) -> list:
    """[S_0, ..., S_T] with S_t = Σ_{k=t}^{T-1} σ_k² P_{k+1} and S_T = 0: the variance that the noise added from step t
    on contributes to X_T in the linear chain; S_{t-1} = S_t + σ_{t-1}² P_t.

    >>> noise_sums([2, 3, 5], [1, 1, 1])
    [21, 6, 1, 0]
    """
    P = tail_products(c)
    S = [0] * (len(c) + 1)
    for k in range(len(c) - 1, -1, -1):
        S[k] = S[k + 1] + sigma2[k] * P[k + 1]
    return S


# --- §3.1: feasible shifts and the u of eq. (3) --------------------------------------------------------------------
PabiShift = quantity(
    "PabiShift", 3, r"\varphi_{{[0:{2}]}}\left({0}, {1}\right)",
    "The PABI recursion φ_[0:t](D, a): φ_[0:0] = φ_0(D) - a_1, φ_[0:t] = φ_t(φ_[0:t-1]) - a_{t+1} (Lemma 3.3).")
a_vec = sp.Symbol(r"\mathbf{a}")
u_next = sp.Symbol("u_{t+1}")
"""u_{t+1}, the shift sequence's next term: the statement of bravo.P is φ_[0:t](D, a) = u_{t+1}."""


def problem_p() -> Derivation:
    """φ_[0:t](D, a) = u_{t+1} (0 <= t < T) when a_t = φ_{t-1}(u_{t-1}) - u_t and u_0 = D: induction on t.

    The base case is the step at t = 0 once φ_[0:-1](D, a) := D = u_0 (then the definition reads φ_0(D) - a_1, the
    paper's φ_[0:0], erratum E7). Hence a_t >= 0 iff u_t <= φ_{t-1}(u_{t-1}), φ_[0:t-1] >= 0 iff u_t >= 0, and
    φ_[0:T-1] = 0 iff u_T = 0: the feasible shifts are exactly the u of (3).
    """
    ct, ht = sp.Symbol("c_t", positive=True), sp.Symbol("h_t", nonnegative=True)
    ut, a_next = sp.Symbol("u_t", nonnegative=True), sp.Symbol("a_{t+1}")
    here, before = PabiShift(D, a_vec, sym.t), PabiShift(D, a_vec, sym.t - 1)
    recursion = sp.sqrt(ct * before ** 2 + ht) - a_next
    return (Derivation((r"Section 3.1: the PABI recursion of the shifts $a_t = \varphi_{t-1}(u_{t-1}) - u_t$ runs "
                        "through $u$"),
                       here, source=SOURCE + ".1, eq. (3) and Lemma 3.3",
                       assumptions=r"$c_t > 0$, $h_t \ge 0$, $0 \le t \le T - 1$, $u_0 = D$")
            .step(recursion, r"definition of $\varphi_{[0:t]}$, with $\varphi_{[0:-1]}(D, \mathbf{a}) := D$ at $t = 0$ "
                             r"(the base case $\varphi_0(D) - a_1$)", given={here: recursion})
            .step(sp.sqrt(ct * ut ** 2 + ht) - a_next,
                  r"induction hypothesis $\varphi_{[0:t-1]}(D, \mathbf{a}) = u_t$ (at $t = 0$: $u_0 = D$)",
                  given={before: ut})
            .step(u_next, r"$a_{t+1} = \varphi_t(u_t) - u_{t+1}$", given={a_next: sp.sqrt(ct * ut ** 2 + ht) - u_next}))


def instance(n: int):
    """Symbols (c_t, h_t, σ_t²) for t < n."""
    cs = sp.symbols(f"c_0:{n}", positive=True)
    hs = sp.symbols(f"h_0:{n}", nonnegative=True)
    s2 = tuple(sp.Symbol(f"sigma_{t}^2", positive=True) for t in range(n))
    return cs, hs, s2


def _phi(c_t, h_t, x):
    return sp.sqrt(c_t * x ** 2 + h_t)


def objective(u, cs, hs, s2):
    """E(u) of problem (P) with u = (u_1, ..., u_{T-1}), u_0 = D, u_T = 0."""
    path = [D, *u, 0]
    return sum((_phi(cs[t - 1], hs[t - 1], path[t - 1]) - path[t]) ** 2 / s2[t - 1] for t in range(1, len(cs) + 1))


def _optimal_path(cs, hs, rs):
    """A_t = φ_{t-1}(u*_{t-1}) for t = 1..T, with u*_t = r_t A_t (eq. (4)), as square roots of rational functions."""
    A, u = [None], D
    for t in range(1, len(cs) + 1):
        A.append(_phi(cs[t - 1], hs[t - 1], u))
        u = rs[t] * A[t] if t < len(cs) else 0
    return A


# --- eq. (5) -------------------------------------------------------------------------------------------------------
def eq5_is_scaled_gradient() -> Derivation:
    """(5) is ½ σ²_{t-1} σ²_t ∂E/∂u_t: only the two terms of E containing u_t matter."""
    um, u, up = sp.symbols("u_{t-1} u_t u_{t+1}", real=True)
    cm, ct = sp.symbols("c_{t-1} c_t", positive=True)
    hm, ht = sp.symbols("h_{t-1} h_t", nonnegative=True)
    sm, st = sp.symbols("sigma_{t-1}^2 sigma_t^2", positive=True)
    two_terms = (_phi(cm, hm, um) - u) ** 2 / sm + (_phi(ct, ht, u) - up) ** 2 / st
    dphi = ct * u / _phi(ct, ht, u)
    return (Derivation("Lemma 3.5: eq. (5) is the scaled gradient of $E$", sp.Rational(1, 2) * sm * st
                       * sp.Derivative(two_terms, u), source=SOURCE + ", proof of Lemma 3.5",
                       assumptions=r"$c_t > 0$, $h_t \ge 0$, $\sigma_t > 0$")
            .step(sp.Rational(1, 2) * sm * st * sp.diff(two_terms, u), "differentiate")
            .step((ct * sm + st) * u - sm * dphi * up - st * _phi(cm, hm, um),
                  r"collect; $\varphi_t(u_t)\varphi_t'(u_t) = c_t u_t$: the left side minus the right side of (5)"))


# --- stationarity of u* ----------------------------------------------------------------------------------------
def stationarity(n: int, t: int) -> Derivation:
    """∂E/∂u_t (u*) = 2A_t[-(1 - r_t)/σ²_{t-1} + c_t r_t (1 - r_{t+1})/σ²_t] = 0 for T = n."""
    cs, hs, s2 = instance(n)
    u = sp.symbols(f"u_1:{n}", real=True)
    r = [None, *sp.symbols(f"r_1:{n}", positive=True), 0]
    A = sp.symbols(f"A_1:{n + 1}", positive=True)
    roots = _optimal_path(cs, hs, r)
    at_star = {u[s - 1]: r[s] * roots[s] for s in range(1, n)}
    at_star.update({A[s - 1]: roots[s] for s in range(1, n + 1)})
    S = noise_sums(cs, s2)
    ratios = {r[s]: S[s] / S[s - 1] for s in range(1, n)}
    bracket = -(1 - r[t]) / s2[t - 1] + cs[t] * r[t] * (1 - r[t + 1]) / s2[t]
    return (Derivation(f"Lemma 3.5: $dE/du_{t}$ vanishes at $u^*$ ($T = {n}$)",
                       sp.diff(objective(u, cs, hs, s2), u[t - 1]),
                       source=SOURCE + ", Lemma 3.5, eq. (4)", assumptions=(r"$c_t > 0$, $h_t \ge 0$, $\sigma_t > 0$, "
                                                                            "$D > 0$"))
            .step(2 * A[t - 1] * bracket,
                  r"$u = u^*$: $u^*_s = r_s A_s$, $A_{s+1} = \varphi_s(u^*_s)$, $\varphi_s'(u^*_s) = c_s "
                  "u^*_s/A_{s+1}$",
                  given=at_star)
            .step(0, r"$r_s = S_s/S_{s-1}$ with $S_{s-1} = S_s + \sigma_{s-1}^2 P_s$", given=ratios))


# --- E(u*) = closed form -----------------------------------------------------------------------------------------
def optimal_value(n: int) -> Derivation:
    """E(u*) = P_0 D²/S_0 + Σ_t h_t P_{t+1}/S_t for T = n, through v_t = u*_t²."""
    cs, hs, s2 = instance(n)
    u = sp.symbols(f"u_1:{n}", real=True)
    r = [None, *sp.symbols(f"r_1:{n}", positive=True), 0]
    A = [None, *sp.symbols(f"A_1:{n + 1}", positive=True)]
    v = [D ** 2, *sp.symbols(f"v_1:{n}", nonnegative=True)]
    Ssym = [*sp.symbols(f"S_0:{n}", positive=True), 0]
    Psym = [*sp.symbols(f"P_0:{n}", positive=True), 1]
    roots = _optimal_path(cs, hs, r)
    at_star = {u[s - 1]: r[s] * roots[s] for s in range(1, n)}
    at_star.update({A[s]: roots[s] for s in range(1, n + 1)})
    squares = {A[s]: sp.sqrt(cs[s - 1] * v[s - 1] + hs[s - 1]) for s in range(1, n + 1)}
    # Change of variables (c, σ²) -> (P, S), a bijection onto P > 0, S_0 > ... > S_{T-1} > 0: it keeps degrees low.
    explicit = {cs[s]: Psym[s] / Psym[s + 1] for s in range(n)}
    explicit.update({s2[s]: (Ssym[s] - Ssym[s + 1]) / Psym[s + 1] for s in range(n)})
    explicit.update({r[s]: Ssym[s] / Ssym[s - 1] for s in range(1, n)})
    S, P = noise_sums(cs, s2), tail_products(cs)
    value = D ** 2
    for s in range(1, n):  # v_s = r_s² (c_{s-1} v_{s-1} + h_{s-1})
        value = (Ssym[s] / Ssym[s - 1]) ** 2 * (Psym[s - 1] / Psym[s] * value + hs[s - 1])
        explicit[v[s]] = value
    closed = Psym[0] * D ** 2 / Ssym[0] + sum(hs[s] * Psym[s + 1] / Ssym[s] for s in range(n))
    return (Derivation(f"Theorem 3.4: $E(u^*)$ in closed form ($T = {n}$)", objective(u, cs, hs, s2),
                       source=SOURCE + (", proof of Theorem "
                                        "3.4"), assumptions=(r"$c_t > 0$, $h_t \ge 0$, $\sigma_t > "
                                                                              "0$, $D > 0$"))
            .step(sum((A[s] - r[s] * A[s]) ** 2 / s2[s - 1] for s in range(1, n + 1)),
                  r"$u = u^*$: $u^*_s = r_s A_s$ (eq. (4)), $A_s = \varphi_{s-1}(u^*_{s-1})$", given=at_star)
            .step(sum((1 - r[s]) ** 2 * (cs[s - 1] * v[s - 1] + hs[s - 1]) / s2[s - 1] for s in range(1, n + 1)),
                  "$v_s = u_s^{*2}$: $A_{s+1}^2 = c_s v_s + h_s$, $v_0 = D^2$", given=squares)
            .step(closed, "$r_s = S_s/S_{s-1}$, $v_s = r_s^2(c_{s-1}v_{s-1} + h_{s-1})$; in the variables $(P, S)$: "
                          r"$c_s = P_s/P_{s+1}$, $\sigma_s^2 = (S_s - S_{s+1})/P_{s+1}$", given=explicit)
            .step(P[0] * D ** 2 / S[0] + sum(hs[s] * P[s + 1] / S[s] for s in range(n)),
                  r"$P_t = \prod_{l=t}^{T-1} c_l$, $S_t = \sum_{k=t}^{T-1}\sigma_k^2 P_{k+1}$: Theorem 3.4",
                  given={**{Ssym[s]: S[s] for s in range(n)}, **{Psym[s]: P[s] for s in range(n)}}))


# --- the c -> 1 limit and the corollaries --------------------------------------------------------------------
def limit_c_to_one() -> Derivation:
    """lim_{c→1} c^T(1 - c)/(1 - c^T) = 1/T: (7) tends to (8)."""
    start = sp.Limit(c ** T * (1 - c) / (1 - c ** T), c, 1, dir="+-")
    return (Derivation(r"Corollary 3.8: (7) tends to (8) as $c \to 1$", start,
                       source=SOURCE + ", remark after Corollary 3.8", assumptions=r"$T \ge 1$ integer")
            .step(sp.Limit(c ** T, c, 1, dir="+-") * sp.Limit((1 - c) / (1 - c ** T), c, 1, dir="+-"),
                  "product of limits")
            .step(sp.Limit(1 / (T * c ** (T - 1)), c, 1, dir="+-"), r"$c^T \to 1$; l'H\^opital on $0/0$")
            .step(1 / T, "SymPy limit"))


def corollary_3_7(n: int) -> Derivation:
    """Theorem 3.4 with c_t ≡ 1, h_t ≡ h, σ_t ≡ σ is the middle of (6), for T = n."""
    cs, hs, s2 = instance(n)
    S, P = noise_sums(cs, s2), tail_products(cs)
    bound = alpha / 2 * (P[0] * D ** 2 / S[0] + sum(hs[t] * P[t + 1] / S[t] for t in range(n)))
    constant = {**{x: 1 for x in cs}, **{x: h for x in hs}, **{x: sigma ** 2 for x in s2}}
    middle = alpha / 2 * (D ** 2 / (T * sigma ** 2) + sp.Sum(h / ((T - sp.Symbol("t")) * sigma ** 2),
                                                               (sp.Symbol("t"), 0, T - 1)))
    return (Derivation(f"Corollary 3.7 from Theorem 3.4 ($T = {n}$)", bound, source=SOURCE + ", Corollary 3.7",
                       assumptions=r"$c_t = 1$, $h_t = h$, $\sigma_t = \sigma$")
            .step(middle, rf"$c_t = 1$: $P_t = 1$, $S_t = (T - t)\sigma^2$; $T = {n}$",
                  given={**constant, T: n})
            .step(alpha / (2 * sigma ** 2) * (D ** 2 / T + h * sp.harmonic(T)),
                  rf"$\sum_{{t=0}}^{{T-1}} \frac{{1}}{{T - t}} = H_T$; $T = {n}$", given={T: n}))


def corollary_3_8(n: int) -> Derivation:
    """Theorem 3.4 with c_t ≡ c, h ≡ 0, σ_t ≡ σ is (7), for T = n (a rational identity in c, valid for c ≠ 1)."""
    cs, hs, s2 = instance(n)
    S, P = noise_sums(cs, s2), tail_products(cs)
    bound = alpha / 2 * P[0] * D ** 2 / S[0]
    j = sp.Symbol("j", integer=True, nonnegative=True)
    constant = {**{x: c for x in cs}, **{x: sigma ** 2 for x in s2}, T: n}
    return (Derivation(f"Corollary 3.8 from Theorem 3.4 ($T = {n}$)", bound, source=SOURCE + ", Corollary 3.8",
                       assumptions=r"$c_t = c \ne 1$, $h_t = 0$, $\sigma_t = \sigma$")
            .step(alpha * c ** T * D ** 2 / (2 * sigma ** 2 * sp.Sum(c ** j, (j, 0, T - 1))),
                  rf"$P_0 = c^T$, $S_0 = \sigma^2\sum_{{j<T}} c^j$; $T = {n}$", given=constant)
            .step(alpha * D ** 2 * c ** T * (1 - c) / (2 * sigma ** 2 * (1 - c ** T)), r"geometric sum, $c \ne 1$",
                  given={T: n}))


def corollary_3_9(n: int) -> Derivation:
    """Theorem 3.4 with c_t ≡ c, h_t ≡ h, σ_t ≡ σ is the middle of Corollary 3.9, for T = n (c ≠ 1)."""
    cs, hs, s2 = instance(n)
    S, P = noise_sums(cs, s2), tail_products(cs)
    bound = alpha / 2 * (P[0] * D ** 2 / S[0] + sum(hs[t] * P[t + 1] / S[t] for t in range(n)))
    constant = {**{x: c for x in cs}, **{x: h for x in hs}, **{x: sigma ** 2 for x in s2}}
    k, j = sp.Symbol("k", integer=True), sp.Symbol("j", integer=True, nonnegative=True)
    explicit = alpha / (2 * sigma ** 2) * (D ** 2 * c ** n / sum(c ** i for i in range(n))
                                           + h * sum(c ** t / sum(c ** i for i in range(t + 1)) for t in range(n)))
    middle = alpha / (2 * sigma ** 2) * (D ** 2 * c ** T * (1 - c) / (1 - c ** T)
                                         + h * sp.Sum(c ** k / sp.Sum(c ** j, (j, 0, k)), (k, 0, T - 1)))
    return (Derivation(f"Corollary 3.9 from Theorem 3.4 ($T = {n}$)", bound, source=SOURCE + ", Corollary 3.9",
                       assumptions=r"$c_t = c \ne 1$, $h_t = h$, $\sigma_t = \sigma$")
            .step(explicit, rf"$P_t = c^{{T-t}}$, $S_t = \sigma^2\sum_{{j<T-t}} c^j$; the $h$-terms read backwards "
                            rf"($t \to T - 1 - t$); $T = {n}$", given=constant)
            .step(alpha / (2 * sigma ** 2) * (D ** 2 * c ** n * (1 - c) / (1 - c ** n)
                                              + h * sum(c ** t * (1 - c) / (1 - c ** (t + 1)) for t in range(n))),
                  r"geometric sums, $c \ne 1$")
            .step(middle, rf"$T = {n}$", given={T: n}))


# --- the Bellman value and the induction step of Lemma 3.5 ------------------------------------------------------
_x, _y = sp.symbols("x y", real=True)
_ct, _s2t = sp.symbols("c_t sigma_t^2", positive=True)
_ht = sp.Symbol("h_t", nonnegative=True)
_P1, _S1, _K = sp.symbols("P_{t+1} S_{t+1} K_{t+1}", positive=True)
_St = _S1 + _s2t * _P1
"""S_t = S_{t+1} + σ_t² P_{t+1} (and P_t = c_t P_{t+1})."""


def bellman_value() -> Derivation:
    """One stage of the dynamic programme for (P) (catalogue §4, item 3): with V_{t+1}(y) = P_{t+1} y²/S_{t+1} + K_{t+1}
    (K_{t+1} = Σ_{k>t} h_k P_{k+1}/S_k), the stage cost at y* = φ_t(x) S_{t+1}/S_t is V_t(x) = P_t x²/S_t + h_t
    P_{t+1}/S_t + K_{t+1}. The stage is a strictly convex quadratic in y (:func:`bellman_argmin`), so by induction
    from V_T = 0 the minimum of E over all of ℝ^{T-1} is V_0(D) = the bracket of Theorem 3.4, at u* alone."""
    phi = sp.sqrt(_ct * _x ** 2 + _ht)
    stage = (phi - _y) ** 2 / _s2t + _P1 * _y ** 2 / _S1 + _K
    return (Derivation("Lemma 3.5 by dynamic programming: the Bellman value", stage,
                       source=SOURCE + ", Lemma 3.5 (catalogue: a simpler proof)",
                       assumptions=r"$c_t, \sigma_t^2, P_{t+1}, S_{t+1} > 0$, $h_t \ge 0$")
            .step((_ct * _x ** 2 + _ht) * _P1 / _St + _K, r"$y = y^* = \varphi_t(x)S_{t+1}/S_t$: $(1 - "
                  r"S_{t+1}/S_t)^2/\sigma_t^2 + P_{t+1}S_{t+1}/S_t^2 = P_{t+1}/S_t$", given={_y: phi * _S1 / _St})
            .step(_ct * _P1 * _x ** 2 / _St + _ht * _P1 / _St + _K,
                  r"$P_t = c_tP_{t+1}$: $V_t(x) = P_tx^2/S_t + h_tP_{t+1}/S_t + K_{t+1}$"))


def bellman_argmin() -> Derivation:
    """The stage's derivative in y vanishes at y* = φ_t(x) S_{t+1}/S_t (its second derivative 2/σ_t² + 2P_{t+1}/S_{t+1}
    is positive, so y* is the unique minimiser)."""
    phi = sp.sqrt(_ct * _x ** 2 + _ht)
    stage = (phi - _y) ** 2 / _s2t + _P1 * _y ** 2 / _S1 + _K
    return (Derivation("Lemma 3.5 by dynamic programming: the argmin of a stage", sp.Derivative(stage, _y),
                       source=SOURCE + ", Lemma 3.5 (catalogue: a simpler proof)",
                       assumptions=r"$c_t, \sigma_t^2, P_{t+1}, S_{t+1} > 0$, $h_t \ge 0$")
            .step(2 * (_y - phi) / _s2t + 2 * _P1 * _y / _S1, "differentiate")
            .step(0, r"at $y^* = \varphi_t(x)S_{t+1}/S_t$, $S_t = S_{t+1} + \sigma_t^2P_{t+1}$",
                  given={_y: phi * _S1 / _St}))


def induction_step_e6() -> Derivation:
    """The induction step of the proof of Lemma 3.5, corrected (catalogue E6). With r = T − (s+1), plugging the
    hypothesis u_{r+1} = (S_{r+1}/S_r) φ_r(u_r) into (5) at t = r gives σ_r² (S_{r−1}/S_r) u_r = σ_r² φ_{r−1}(u_{r−1}),
    so u_r = (S_r/S_{r−1}) φ_{r−1}(u_{r−1}). The paper prints the coefficient with numerator and denominator the same
    sum Σ_{k=r}^{T−1} (so it is 1) and φ_r(u_r) on the right instead of φ_{r−1}(u_{r−1})."""
    u, cr, hr = sp.Symbol("u_r", positive=True), sp.Symbol("c_r", positive=True), sp.Symbol("h_r", nonnegative=True)
    sm, sr = sp.symbols("sigma_{r-1}^2 sigma_r^2", positive=True)
    P_next, S_next = sp.symbols("P_{r+1} S_{r+1}", positive=True)
    S_r = S_next + sr * P_next
    S_prev = S_r + sm * cr * P_next                      # S_{r-1} = S_r + σ²_{r-1} P_r, P_r = c_r P_{r+1}
    phi = sp.sqrt(cr * u ** 2 + hr)
    left = (cr * sm + sr) * u - sm * (cr * u / phi) * (S_next / S_r * phi)
    return (Derivation(r"Lemma 3.5, proof: the induction step (erratum E6, corrected)", left,
                       source=SOURCE + ", proof of Lemma 3.5",
                       assumptions=r"$c_r > 0$, $h_r \ge 0$, $\sigma > 0$; hypothesis $u_{r+1} = "
                                   r"\frac{S_{r+1}}{S_r}\varphi_r(u_r)$")
            .step((cr * sm * (1 - S_next / S_r) + sr) * u, r"$\varphi_r'(u_r)\varphi_r(u_r) = c_r u_r$")
            .step(sr * u * (cr * sm * P_next + S_r) / S_r, r"$S_r - S_{r+1} = \sigma_r^2 P_{r+1}$")
            .step(sr * S_prev / S_r * u, r"$S_{r-1} = S_r + \sigma_{r-1}^2 P_r$, $P_r = c_r P_{r+1}$: the left side "
                                         r"of (5) at $t = r$ is $\sigma_r^2\frac{S_{r-1}}{S_r}u_r$, not the printed "
                                         r"$\sigma_r^2 \cdot 1 \cdot u_r$"))


def derivations(max_T: int = 4, slow: bool = False) -> list[Derivation]:
    """All derivations; stationarity and E(u*) for T up to ``max_T`` (up to 6 when ``slow``)."""
    top = max(max_T, 6) if slow else max_T
    out = [problem_p(), eq5_is_scaled_gradient()]
    out += [stationarity(n, t) for n in range(2, top + 1) for t in range(1, n)]
    out += [optimal_value(n) for n in range(1, top + 1)]
    out += [limit_c_to_one()]
    out += [corollary_3_7(n) for n in (1, 2, 3, 5)]
    out += [corollary_3_8(n) for n in (1, 2, 3, 5)]
    out += [corollary_3_9(n) for n in ((1, 2, 3, 4, 5, 6, 7) if slow else (1, 2, 3))]
    out += [bellman_value(), bellman_argmin(), induction_step_e6()]
    return out


DERIVATIONS = derivations()
