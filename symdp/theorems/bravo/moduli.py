"""Bravo, Flores-Mella, Guzmán (2025), Definition 2.1: the moduli of continuity of the gradient map
Φ(x) = x − η∇f(x), one theorem per function class (:data:`GRADIENT_MAPS`), each measured on a drawn f of its class."""

from __future__ import annotations

from collections.abc import Callable

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.expressions import quantity
from symdp.numeric import to_mpf
from symdp.proofs.bravo import moduli as proof
from symdp.proofs.bravo.moduli import H_WEAKLY_SMOOTH
from symdp.symbols import L, M, beta, delta, eta, kappa, lam
from symdp.theorem import IDENTITY, Param, Setting, declare, registered, theorem
from symdp.theorems.bravo.common import P_ETA, finite_floats

p_holder = proof.p
DPhi2 = quantity("dPhi2", 0, r"\|\Phi(x) - \Phi(y)\|^2", "The squared distance of the gradient-map images of x, y.",
                 nonnegative=True, rounding="relative")


def _norm(v) -> mpmath.mpf:
    return mpmath.sqrt(mpmath.fsum(t * t for t in v))


def _symmetric(B, shift=0) -> mpmath.matrix:
    """(B + Bᵀ)/2 + shift·I, or BᵀB + shift·I where ``shift`` is given (positive semidefinite)."""
    B = mpmath.matrix([[to_mpf(t, "B") for t in row] for row in B])
    return (B.T * B if shift is not None else (B + B.T) / 2) + to_mpf(shift or 0, "shift") * mpmath.eye(B.rows)


def _eigenvalues(A) -> list:
    return sorted(mpmath.eigsy(A, eigvals_only=True))


def gradient_and_constants(structure, point) -> tuple[Callable, dict]:
    """∇f (a subgradient where f has kinks) of the drawn function of the class ``structure["kind"]`` (1–6, the
    modulus it has), written from f, and the class constants f has, computed from its coefficients (extreme
    eigenvalues with mpmath): :data:`GRADIENT_MAPS` describes each class."""
    kind, s = structure["kind"], structure
    pieces = [([to_mpf(t, "a_i") for t in q["a"]], to_mpf(q.get("b", 0), "b_i"), to_mpf(q.get("w", 1), "w_i"))
              for q in s.get("pieces", [])]
    dot = lambda a, x: mpmath.fdot(a, x)
    combo = lambda coefs, d: [mpmath.fsum(k * a[j] for k, (a, _, _) in zip(coefs, pieces)) for j in range(d)]
    if kind == 1:       # f = max_i a_i·x + b_i
        return (lambda x: max(pieces, key=lambda q: dot(q[0], x) + q[1])[0]), {L: max(_norm(a) for a, _, _ in pieces)}
    if kind == 2:       # f = Σ w_i |a_i·x - b_i|^{1+p}/(1+p)
        p_ = point["p"]
        terms = lambda x: [w * mpmath.sign(dot(a, x) - b) * abs(dot(a, x) - b) ** p_ for a, b, w in pieces]
        return (lambda x: combo(terms(x), len(x))), {
            M: 2 ** (1 - p_) * mpmath.fsum(w * _norm(a) ** (1 + p_) for a, _, w in pieces)}
    if kind == 6:       # f = κ'|x|²/2 + G Σ sin(a_i·x): (λ, κ'/2)-dissipative
        k, G = to_mpf(s["kappa"], "kappa"), to_mpf(s["G"], "G")
        S, S2 = mpmath.fsum(_norm(a) for a, _, _ in pieces), mpmath.fsum(_norm(a) ** 2 for a, _, _ in pieces)
        return (lambda x: [k * t + G * g for t, g in zip(x, combo([mpmath.cos(dot(a, x)) for a, _, _ in pieces],
                                                                   len(x)))]), \
            {kappa: k / 2, lam: 2 * (G * S) ** 2 / k, beta: k + G * S2}
    # kinds 3-5: f = xᵀAx/2 (+ Σ cos(a_i·x) for 5)
    A = _symmetric(s["B"], s.get("shift"))
    ev = _eigenvalues(A)
    if kind == 4 and ev[-1] > 0:      # scaled so that ηβ = 2r ≤ 2
        A *= 2 * to_mpf(s["r"], "r") / (point["eta"] * ev[-1])
    quadratic = lambda x: list(A * mpmath.matrix(x))
    if kind == 5:
        return (lambda x: [g - t for g, t in zip(quadratic(x), combo([mpmath.sin(dot(a, x)) for a, _, _ in pieces],
                                                                     len(x)))]), \
            {beta: max(abs(ev[0]), abs(ev[-1])) + mpmath.fsum(_norm(a) ** 2 for a, _, _ in pieces)}
    return quadratic, ({kappa: ev[0], beta: ev[-1]} if kind == 3 else {})


def _pair(structure) -> tuple[list, list]:
    """The drawn x, y: y as given, or y = x + 10^scale·u/‖u‖ (u = e_1 if 0)."""
    x = [to_mpf(t, "x") for t in structure["x"]]
    if "y" in structure:
        return x, [to_mpf(t, "y") for t in structure["y"]]
    u = [to_mpf(t, "u") for t in structure["u"]]
    size = _norm(u)
    u = [t / size for t in u] if size else [mpmath.mpf(1)] + [mpmath.mpf(0)] * (len(x) - 1)
    return x, [t + mpmath.power(10, to_mpf(structure["scale"], "scale")) * v for t, v in zip(x, u)]


def gradient_maps(kind: int) -> st.SearchStrategy[dict]:
    """A drawn f of class ``kind`` in ℝ^d (d ≤ 3), as JSON, and a pair x, y at distance 10^scale ∈ [10⁻³, 3]; no
    coefficient vector (a_i, a row of B) is near 0, so that f is not constant."""
    def of_dimension(d):
        vec = lambda low=-2.0, high=2.0: st.lists(finite_floats(low, high), min_size=d, max_size=d)
        nonzero = vec().filter(lambda v: max(map(abs, v)) >= 0.1)   # no constant f: L, M, β > 0
        piece = {"a": nonzero, "b": finite_floats(-2.0, 2.0), "w": finite_floats(0.05, 1.0)}
        pieces = lambda keys, low, high: st.lists(st.fixed_dictionaries({k: piece[k] for k in keys}),
                                                  min_size=low, max_size=high)
        square = st.lists(nonzero, min_size=d, max_size=d)
        parts = {"kind": st.just(kind), "x": vec(-3.0, 3.0), "u": vec(-1.0, 1.0), "scale": finite_floats(-3.0, 0.5)}
        parts.update({1: {"pieces": pieces("ab", 1, 6)}, 2: {"pieces": pieces("abw", 1, 5)},
                      3: {"B": square, "shift": finite_floats(0.01, 2.0)},
                      4: {"B": square, "shift": st.one_of(st.just(0.0), finite_floats(0.0, 2.0)), "r": finite_floats(0.01, 1.0)},
                      5: {"B": square, "pieces": pieces("a", 1, 4)},
                      6: {"kappa": finite_floats(0.1, 2.0), "G": finite_floats(0.0, 1.0), "pieces": pieces("a", 0, 4)}}[kind])
        return st.fixed_dictionaries(parts)

    return st.integers(1, 3).flatmap(of_dimension)


def gradient_map(point) -> dict:
    """‖Φ(x) - Φ(y)‖², δ = ‖x - y‖ and the class constants of the drawn f, Φ(x) = x - η∇f(x)."""
    grad, constants = gradient_and_constants(point["structure"], point)
    (x, y), eta_ = _pair(point["structure"]), point["eta"]
    gx, gy = grad(x), grad(y)
    return {DPhi2(): _norm([s - eta_ * g - t + eta_ * k for s, g, t, k in zip(x, gx, y, gy)]) ** 2,
            delta: _norm([s - t for s, t in zip(x, y)]), **constants}


_C = 1 - 2 * eta * kappa + eta ** 2 * beta ** 2
_H = H_WEAKLY_SMOOTH
P_P = Param(p_holder, sp.Interval.Ropen(0, 1), sample=(0.0, 0.9))
MAP_LATEX = r"; $\Phi(x) = x - \eta\nabla f(x)$, $\delta = \|x - y\|$, $x, y \in \mathbb{R}^d$, $d \le 3$"
LIPSCHITZ_SUP = {"eta": 0.3, "structure": {"kind": 1, "pieces": [{"a": [1.0, 0.0], "b": 0.0}, {"a": [-1.0, 0.0],
                 "b": 0.0}], "x": [1e-6, 0.7], "y": [-1e-6, 0.0]}}
"""The catalogue's sup-ratio instance of modulus (1): f = |x_1| in ℝ², ratio 0.99999718."""


def _pin(kind, B, eta_=0.3, **more) -> dict:
    return {"eta": eta_, "structure": {"kind": kind, "B": B, "x": [0.3, -0.2], "u": [1.0, 0.0], "scale": 0.0, **more}}


GRADIENT_MAPS = {   # n: (hypothesis on f, φ(δ)², the drawn f, extra parameters, pins: tight_at, examples, notes)
    1: ("convex, $L$-Lipschitz", delta ** 2 + (2 * eta * L) ** 2,
        r"$f(x) = \max_i a_i\cdot x + b_i$, $L = \max_i\|a_i\|$, $\nabla f(x) = a_i$ of a maximal piece", (), (),
        (LIPSCHITZ_SUP,),
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$ and $L$ of a drawn max-affine $f$. Tight as a supremum, not "
        r"attained: $f = |x_1|$, $x = (\epsilon, 0.7)$, $y = (-\epsilon, 0)$, $\eta = 0.3$ gives ratio $0.99999718$ "
        r"at $\epsilon = 10^{-6}$ (the pinned example) and tends to 1 as $\epsilon \to 0$."),
    2: (r"convex, $(p, M)$-weakly smooth", delta ** 2 + _H,
        r"$f(x) = \sum_i w_i|a_i\cdot x - b_i|^{1+p}/(1+p)$, $w_i > 0$, $M = 2^{1-p}\sum_i w_i\|a_i\|^{1+p}$",
        (P_P,), (), (),
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$ and the H\"older constant $M$ of a drawn $f$. The additive "
        r"term is the maximum of $\eta^2 g^2 - \frac{4\eta p}{1+p}M^{-1/p}g^{(1+p)/p}$ over $g$; tightness over the "
        r"class is not established (1-D $|x|^{1+p}/(1+p)$ reaches $0.99$, $0.52$, $0.39$ of it at $p = 0, 0.3, 0.7$)."),
    3: (r"$\kappa$-strongly convex, $\beta$-smooth", _C * delta ** 2,
        r"$f(x) = \frac12 x^\top A x$, $A = B^\top B + sI$, $s > 0$, $\kappa$, $\beta$ the extreme eigenvalues of $A$",
        (), (_pin(3, [[0.0, 0.0], [0.0, 0.0]], shift=1.7),), (),
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$, $\kappa$ and $\beta$ of a drawn quadratic. Loose unless "
        r"$\kappa = \beta$: a quadratic's exact factor is $\max(|1 - \eta\kappa|, |1 - \eta\beta|)^2$; attained at "
        r"$A = \kappa I$ (pinned)."),
    4: (r"convex, $\beta$-smooth, $\eta \le 2/\beta$", delta ** 2,
        r"$f(x) = \frac12 x^\top A x$, $A = B^\top B + sI$, $s \ge 0$, scaled so that $\eta\beta = 2r$, $r \in (0, 1]$",
        (), (_pin(4, [[0.0, 0.0], [0.0, 1.0]], shift=0.0, r=0.5),), (),
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$ and $\delta$ of a drawn positive semidefinite quadratic (co-coercivity). "
        r"Attained where $x - y$ lies in the kernel of $A$ (pinned), or on the top eigenvector at $\eta = 2/\beta$."),
    5: (r"$\beta$-smooth", (1 + eta * beta) ** 2 * delta ** 2,
        r"$f(x) = \frac12 x^\top A x + \sum_i\cos(a_i\cdot x)$, $A = (B + B^\top)/2$, "
        r"$\beta = \|A\| + \sum_i\|a_i\|^2$", (), (_pin(5, [[-1.0, 0.0], [0.0, -1.0]], pieces=[]),), (),
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$ and $\beta$ of a drawn (nonconvex) $f$ (the triangle "
        r"inequality). Loose for most $f$; attained by $f = -\beta\|x\|^2/2$ (pinned)."),
    6: (r"$(\lambda, \kappa)$-strongly dissipative, $\beta$-smooth", _C * delta ** 2 + 2 * eta * lam,
        r"$f(x) = \kappa'\|x\|^2/2 + G\sum_i\sin(a_i\cdot x)$, $G \in [0, 1]$: $\kappa = \kappa'/2$, "
        r"$\lambda = 2(G\sum_i\|a_i\|)^2/\kappa'$, $\beta = \kappa' + G\sum_i\|a_i\|^2$", (), (), (),
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$ and $\kappa, \lambda, \beta$ of a drawn $f$, $(\lambda, "
        r"\kappa'/2)$-dissipative since $\langle\Delta\nabla f, \Delta x\rangle \ge \kappa'\delta^2 - 2G\delta\sum_i"
        r"\|a_i\|$. Loose on these instances; tightness over the class is not claimed."),
}
MODULI_OF_CONTINUITY = {
    n: theorem(id=f"bravo.def2.1.{n}", title=f"modulus of the gradient map: {hypothesis}",
               number=f"Definition 2.1, modulus ({n})", parameters=(P_ETA, *extra),
               setting=Setting(drawn + MAP_LATEX, strategy=lambda n=n: gradient_maps(n), build=_pair),
               statement=sp.Le(DPhi2(), phi2), tight_at=tight, examples=pins, notes=notes)(gradient_map)
    for n, (hypothesis, phi2, drawn, extra, tight, pins, notes) in GRADIENT_MAPS.items()}

_MAXIMUM, _STATIONARY = proof.DERIVATIONS
weakly_smooth_maximum = declare(
    id="bravo.def2.1.2.max", title=r"the additive term of modulus (2) is $\max_g \psi(g)$",
    number="Definition 2.1, modulus (2)",
    setting=Setting(r"$\psi(g) = \eta^2 g^2 - \frac{4\eta p}{1+p}M^{-1/p}g^{(1+p)/p}$, $g = \|\nabla f(x) - "
                    r"\nabla f(y)\| \ge 0$, $g^* = (\eta/2)^{p/(1-p)}M^{1/(1-p)}$, $0 < p < 1$"),
    statement=sp.Eq(_MAXIMUM.start, _MAXIMUM.end), evidence=IDENTITY, derivation=_MAXIMUM,
    symbolic_only=r"an identity in $p, \eta, M$, proved by SymPy after the substitution $\eta = 2A^{1-p}$, $M = "
                  r"B^{1-p}$ (\symdpcode{proofs.bravo.moduli.maximum\_value}; $\psi'(g^*) = 0$ is "
                  r"\symdpcode{proofs.bravo.moduli.stationarity}); the maximum found numerically agrees "
                  r"(\symdpcode{tests/test\_bravo\_moduli.py})",
    notes=r"Convexity and the $p$-H\"older gradient give $\langle\Delta\nabla f, \Delta x\rangle \ge "
          r"\frac{2p}{1+p}M^{-1/p}g^{(1+p)/p}$, hence $\|\Phi(x) - \Phi(y)\|^2 - \delta^2 \le \psi(g)$; $\psi' = "
          r"2\eta g(\eta - 2M^{-1/p}g^{(1-p)/p})$ changes sign once, at $g^*$, so $\psi(g^*) = h$ is the maximum "
          r"(catalogue \S 4 item 9, there exact only for four values of $p$).")


THEOREMS = registered(__name__)
