"""Bravo, Flores-Mella, Guzmán (2025), Definition 2.1: the moduli of continuity of the gradient map
Φ(x) = x − η∇f(x), one theorem per function class (:data:`GRADIENT_MAPS`), each measured on a drawn f of its class."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import mpmath
import sympy as sp
from flint import acb_mat, arb, arb_mat, fmpq, fmpq_mat
from hypothesis import strategies as st

from symdp.errors import InvalidParameter
from symdp.expressions import quantity
from symdp.numeric import to_mpf
from symdp.proofs.bravo import moduli as proof
from symdp.proofs.bravo.moduli import H_WEAKLY_SMOOTH
from symdp.strategies import flatmapped
from symdp.symbols import L, M, beta, delta, eta, kappa, lam
from symdp.theorem import (
    Param,
    Setting,
    identity,
    registered,
    theorem,
)
from symdp.theorems.bravo.common import P_ETA, ball, built_exactly, enclosure, finite_floats, in_balls, rational

p_holder = proof.p
DPhi2 = quantity("dPhi2", 0, r"\|\Phi(x) - \Phi(y)\|^2", "The squared distance of the gradient-map images of x, y.",
                 nonnegative=True, rounding="relative")


def _squared_norm(v):
    """‖v‖², exact for a rational vector, a ball otherwise."""
    return sum((t * t for t in v), 0)


def _norm(v):
    """‖v‖ as a ball."""
    return ball(_squared_norm(v)).sqrt()


def _dot(a, x):
    return sum((s * t for s, t in zip(a, x)), 0)


def _matrix(rows):
    return fmpq_mat([[rational(t, "B") for t in row] for row in rows])


def _symmetric(B, shift=0):
    """(B + Bᵀ)/2 + shift·I, or BᵀB + shift·I where ``shift`` is given (positive semidefinite), as an exact rational
    matrix."""
    B = _matrix(B)
    d = B.nrows()
    identity_ = fmpq_mat([[int(i == j) for j in range(d)] for i in range(d)])
    if shift is None:
        return (B + B.transpose()) * fmpq(1, 2)
    return B.transpose() * B + identity_ * rational(shift, "shift")


def _eigenvalues(A) -> list:
    """The eigenvalues of a symmetric rational matrix as real balls, in increasing order of their midpoints: Arb's
    certified eigenvalue enclosures (Rump's method), each ball containing its eigenvalue, real parts taken (a
    symmetric matrix has real eigenvalues). Where Arb cannot isolate them (an eigenvalue of multiplicity two, as from
    a B with equal rows, which its method does not separate at any precision), the roots of the exact characteristic
    polynomial instead: FLINT isolates them after factoring out their multiplicity.

    >>> low, high = _extremes(_symmetric([[0.0, -2.0, -0.75]] * 3, 2.0))   # BᵀB = 3bbᵀ: 2, 2 and 2 + 3‖b‖²
    >>> low.contains(2), high.contains(2 + 3 * (4 + 0.75 ** 2)), high.rad() < 1e-9
    (True, True, True)
    """
    try:
        values = acb_mat(arb_mat(A)).eig(multiple=True)
    except ValueError:
        values = [root for root, multiplicity in A.charpoly().complex_roots() for _ in range(multiplicity)]
    return sorted((v.real for v in values), key=lambda x: x.mid())


def _extremes(A) -> tuple:
    """Balls enclosing the least and the largest eigenvalue of a symmetric rational matrix (:func:`_eigenvalues`)."""
    values = _eigenvalues(A)
    low, high = values[0], values[-1]
    for v in values[1:]:
        low = arb.min(low, v)
    for v in values[:-1]:
        high = arb.max(high, v)
    return low, high


class Piece(NamedTuple):
    """One term of a drawn f: a coefficient vector ``a``, an offset ``b``, a weight ``w`` (as each class uses them),
    exact rationals."""

    a: list
    b: object
    w: object


def _pieces(structure) -> list[Piece]:
    return [Piece([rational(t, "a_i") for t in q["a"]], rational(q.get("b", 0), "b_i"), rational(q.get("w", 1), "w_i"))
            for q in structure.get("pieces", [])]


def _combination(coefficients, pieces, d: int) -> list:
    """Σ_i k_i a_i, coordinate by coordinate."""
    return [sum((k * q.a[j] for k, q in zip(coefficients, pieces)), 0) for j in range(d)]


def _difference(grad) -> Callable:
    """∇f(x) − ∇f(y) from ∇f."""
    return lambda x, y: [s - t for s, t in zip(grad(x), grad(y))]


def _max_affine(structure, point):
    """(1) f = max_i a_i·x + b_i: a maximal piece's a_i (chosen exactly: rational values); L = max_i ‖a_i‖."""
    pieces = _pieces(structure)
    grad = lambda x: max(pieces, key=lambda q: _dot(q.a, x) + q.b).a   # noqa: E731
    return _difference(grad), {L: _norm(max(pieces, key=lambda q: _squared_norm(q.a)).a)}


def _holder_sum(structure, point):
    """(2) f = Σ w_i |a_i·x - b_i|^{1+p}/(1+p): Σ w_i sign(r_i)|r_i|^p a_i, r_i = a_i·x - b_i (exact, its power a
    ball); M = 2^{1-p} Σ w_i ‖a_i‖^{1+p}."""
    pieces, p_ = _pieces(structure), ball(rational(point["p"], "p"))

    def power(r):
        return 0 if r == 0 else ball(r) * ball(abs(r)) ** (p_ - 1)   # sign(r)|r|^p

    def grad(x):
        return _combination([q.w * power(_dot(q.a, x) - q.b) for q in pieces], pieces, len(x))

    return _difference(grad), {M: 2 ** (1 - p_) * sum(q.w * ball(_squared_norm(q.a)) ** ((1 + p_) / 2)
                                                      for q in pieces)}


def _linear(A, factor=1) -> Callable:
    """∇f(x) − ∇f(y) = factor·A(x − y), exact but for ``factor``."""
    def difference(x, y):
        change = A * fmpq_mat([[s - t] for s, t in zip(x, y)])
        return [factor * change[i, 0] if change[i, 0] != 0 else 0 for i in range(A.nrows())]

    return difference


def _strongly_convex_quadratic(structure, point):
    """(3) f = xᵀAx/2, A = BᵀB + sI: Ax; κ, β the extreme eigenvalues of A."""
    A = _symmetric(structure["B"], structure["shift"])
    low, high = _extremes(A)
    return _linear(A), {kappa: low, beta: high}


def _smooth_convex_quadratic(structure, point):
    """(4) f = xᵀAx/2, A = BᵀB + sI scaled so that ηβ = 2r ≤ 2: Ax; no constant is measured. The scale is a ball
    (β of the unscaled A is an eigenvalue)."""
    A = _symmetric(structure["B"], structure["shift"])
    if all(t == 0 for t in A.entries()):
        return _linear(A), {}
    top = _extremes(A)[1]
    if not top > 0:   # never at these sizes (β ≥ trace(A)/d > 0, exact); a ball around 0 would be a bug
        raise ArithmeticError(f"the largest eigenvalue {top} of a nonzero A = BᵀB + sI is not told positive")
    return _linear(A, 2 * ball(rational(structure["r"], "r")) / (ball(rational(point["eta"], "eta")) * top)), {}


def _quadratic_and_cosines(structure, point):
    """(5) f = xᵀAx/2 + Σ cos(a_i·x), A = (B + Bᵀ)/2: Ax - Σ sin(a_i·x) a_i; β = ‖A‖ + Σ ‖a_i‖²."""
    A, pieces = _symmetric(structure["B"], None), _pieces(structure)
    low, high = _extremes(A)
    linear = _linear(A)

    def sines(x):
        return _combination([ball(_dot(q.a, x)).sin() for q in pieces], pieces, len(x))

    def difference(x, y):
        return [g - s + t for g, s, t in zip(linear(x, y), sines(x), sines(y))]

    return difference, {beta: arb.max(abs(low), abs(high)) + sum((_squared_norm(q.a) for q in pieces), 0)}


def _dissipative(structure, point):
    """(6) f = κ'‖x‖²/2 + G Σ sin(a_i·x): κ'x + G Σ cos(a_i·x) a_i; (λ, κ'/2)-dissipative with
    λ = 2(G Σ‖a_i‖)²/κ', and β = κ' + G Σ‖a_i‖². For G = 0, f is the quadratic κ'‖x‖²/2: (0, κ')-dissipative."""
    pieces, k, G = _pieces(structure), rational(structure["kappa"], "kappa"), rational(structure["G"], "G")

    def grad(x):
        cosines = _combination([ball(_dot(q.a, x)).cos() for q in pieces], pieces, len(x))
        return [k * t + G * g for t, g in zip(x, cosines)]

    S, S2 = sum((_norm(q.a) for q in pieces), 0), sum((_squared_norm(q.a) for q in pieces), 0)
    if G == 0:
        return _difference(grad), {kappa: k, lam: 0, beta: k}
    return _difference(grad), {kappa: k / 2, lam: 2 * (G * S) ** 2 / k, beta: k + G * S2}


GRADIENTS = {1: _max_affine, 2: _holder_sum, 3: _strongly_convex_quadratic, 4: _smooth_convex_quadratic,
             5: _quadratic_and_cosines, 6: _dissipative}
"""By modulus (1)–(6): the drawn f's ∇f(x) − ∇f(y) (a subgradient where f has kinks), written from f, and the class
constants f has, computed from its coefficients; exact rationals where the formula is rational, Arb balls otherwise
(extreme eigenvalues: Arb's certified eigenvalues)."""


def gradient_and_constants(structure, point) -> tuple[Callable, dict]:
    """∇f(x) − ∇f(y) and the class constants of the drawn function of the class ``structure["kind"]``
    (:data:`GRADIENTS`), computed in balls (:func:`~symdp.theorems.bravo.common.in_balls`)."""
    kind = structure["kind"]
    if kind not in GRADIENTS:
        raise InvalidParameter(f"kind must be one of 1-6 (the moduli of Definition 2.1), got {kind!r}")
    return GRADIENTS[kind](structure, point)


def _pair(structure) -> tuple[list, list]:
    """The drawn x, y: y as given, or y = x + 10^scale·u/‖u‖ (u = e_1 if 0), rounded to the working precision."""
    x = [to_mpf(t, "x") for t in structure["x"]]
    if "y" in structure:
        return x, [to_mpf(t, "y") for t in structure["y"]]
    u = [to_mpf(t, "u") for t in structure["u"]]
    size = mpmath.sqrt(mpmath.fsum(t * t for t in u))
    u = [t / size for t in u] if size else [mpmath.mpf(1)] + [mpmath.mpf(0)] * (len(x) - 1)
    return x, [t + mpmath.power(10, to_mpf(structure["scale"], "scale")) * v for t, v in zip(x, u)]


def _exact_pair(structure) -> tuple[list, list] | None:
    """The pair as exact rationals where the draw fixes it without rounding, else None: y given, or y = x + 10^scale·e
    for an integer scale and u = 0 or ±|u_i|e_i (u/‖u‖ a signed unit vector e, e = e_1 for u = 0)."""
    x = [rational(t, "x") for t in structure["x"]]
    if "y" in structure:
        return x, [rational(t, "y") for t in structure["y"]]
    u, scale = [rational(t, "u") for t in structure["u"]], rational(structure["scale"], "scale")
    support = [i for i, t in enumerate(u) if t != 0]
    if scale.denominator != 1 or len(support) > 1:
        return None
    i, sign = (support[0], 1 if u[support[0]] > 0 else -1) if support else (0, 1)
    step = fmpq(10) ** int(scale)
    return x, [t + sign * step * (j == i) for j, t in enumerate(x)]


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
                      4: {"B": square, "shift": st.one_of(st.just(0.0), finite_floats(0.0, 2.0)),
                          "r": finite_floats(0.01, 1.0)},
                      5: {"B": square, "pieces": pieces("a", 1, 4)},
                      6: {"kappa": finite_floats(0.1, 2.0), "G": finite_floats(0.0, 1.0),
                          "pieces": pieces("a", 0, 4)}}[kind])
        return st.fixed_dictionaries(parts)

    return flatmapped(st.integers(1, 3), of_dimension)


def gradient_map(point) -> dict:
    """‖Φ(x) - Φ(y)‖², δ = ‖x - y‖ and the class constants of the drawn f, Φ(x) = x - η∇f(x), at the pair x, y as
    the working precision has it (:func:`_pair`): certified enclosures, computed in balls from the exact rationals
    of f's coefficients and of the pair (:data:`GRADIENTS`)."""
    exact = _exact_pair(point["structure"])
    # where the pair is the draw's own exact rationals, every number is computed from the draw exactly (balls carry
    # the rounding): marked so; else the pair is y rounded at the working precision
    measured = enclosure if exact is None else built_exactly
    with in_balls():
        change, constants = gradient_and_constants(point["structure"], point)
        x, y = exact or ([rational(t) for t in v] for v in _pair(point["structure"]))
        eta_ = rational(point["eta"], "eta")
        step = [s - t for s, t in zip(x, y)]
        image = [d - eta_ * g for d, g in zip(step, change(x, y))]
        return {DPhi2(): measured(_squared_norm(image)), delta: measured(_norm(step)),
                **{name: measured(value) for name, value in constants.items()}}


_C = 1 - 2 * eta * kappa + eta ** 2 * beta ** 2
_H = H_WEAKLY_SMOOTH
P_P = Param(p_holder, sp.Interval.Ropen(0, 1), sample=(0.0, 0.9))
MAP_LATEX = r"; $\Phi(x) = x - \eta\nabla f(x)$, $\delta = \|x - y\|$, $x, y \in \mathbb{R}^d$, $d \le 3$"
LIPSCHITZ_SUP = {"eta": 0.3, "structure": {"kind": 1, "pieces": [{"a": [1.0, 0.0], "b": 0.0}, {"a": [-1.0, 0.0],
                 "b": 0.0}], "x": [1e-6, 0.7], "y": [-1e-6, 0.0]}}
"""The catalogue's sup-ratio instance of modulus (1): f = |x_1| in ℝ², ratio 0.99999718."""


def _pin(kind, B, eta_=0.3, **more) -> dict:
    return {"eta": eta_, "structure": {"kind": kind, "B": B, "x": [0.3, -0.2], "u": [1.0, 0.0], "scale": 0.0, **more}}


@dataclass(frozen=True)
class GradientMapClass:
    """One modulus of Definition 2.1: the hypothesis on f, φ(δ)², the drawn f (LaTeX), the extra parameters, the
    pins (``tight``: equality; ``pins``: other examples) and the notes."""

    hypothesis: str
    phi2: sp.Expr
    drawn: str
    notes: str
    extra: tuple = ()
    tight: tuple = ()
    pins: tuple = ()


GRADIENT_MAPS = {
    1: GradientMapClass(
        "convex, $L$-Lipschitz", delta ** 2 + (2 * eta * L) ** 2,
        r"$f(x) = \max_i a_i\cdot x + b_i$, $L = \max_i\|a_i\|$, $\nabla f(x) = a_i$ of a maximal piece",
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$ and $L$ of a drawn max-affine $f$. Tight as a supremum, not "
        r"attained: $f = |x_1|$, $x = (\epsilon, 0.7)$, $y = (-\epsilon, 0)$, $\eta = 0.3$ gives ratio $0.99999718$ "
        r"at $\epsilon = 10^{-6}$ (the pinned example) and tends to 1 as $\epsilon \to 0$.",
        pins=(LIPSCHITZ_SUP,)),
    2: GradientMapClass(
        r"convex, $(p, M)$-weakly smooth", delta ** 2 + _H,
        r"$f(x) = \sum_i w_i|a_i\cdot x - b_i|^{1+p}/(1+p)$, $w_i > 0$, $M = 2^{1-p}\sum_i w_i\|a_i\|^{1+p}$",
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$ and the H\"older constant $M$ of a drawn $f$. The additive "
        r"term $h$ is the maximum of $\eta^2 g^2 - \frac{4\eta p}{1+p}M^{-1/p}g^{(1+p)/p}$ over $g$ "
        r"(\symdpid{bravo.def2.1.2.max}). Not attained in one dimension: there a pair only needs $g \le M\delta^p$, so "
        r"the largest $\|\Phi(x) - \Phi(y)\|^2 - \delta^2$ over the class is $(2p/(1+p))^{2p/(1-p)}h$ ($0.515h$ "
        r"at $p = 0.3$, $0.40h$ at $p = 0.7$, $\to h$ as $p \to 0$; reached by a clamped linear gradient; the "
        r"catalogue's sampled 1-D $|x|^{1+p}/(1+p)$ gives $0.52$, $0.39$). In higher dimension, tightness over the "
        r"class is not established. Draws reach ratio $1$ to many digits only where $\nabla f(x) = \nabla f(y)$ ($x - y$ "
        r"orthogonal to every $a_i$) and $h \ll \delta^2$: the $\delta^2$ term, not $h$.",
        extra=(P_P,)),
    3: GradientMapClass(
        r"$\kappa$-strongly convex, $\beta$-smooth", _C * delta ** 2,
        r"$f(x) = \frac12 x^\top A x$, $A = B^\top B + sI$, $s > 0$, $\kappa$, $\beta$ the extreme eigenvalues of "
        "$A$",
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$, $\kappa$ and $\beta$ of a drawn quadratic. Loose unless "
        r"$\kappa = \beta$: a quadratic's exact factor is $\max(|1 - \eta\kappa|, |1 - \eta\beta|)^2$; attained at "
        r"$A = \kappa I$ (pinned).",
        tight=(_pin(3, [[0.0, 0.0], [0.0, 0.0]], shift=1.7),)),
    4: GradientMapClass(
        r"convex, $\beta$-smooth, $\eta \le 2/\beta$", delta ** 2,
        r"$f(x) = \frac12 x^\top A x$, $A = B^\top B + sI$, $s \ge 0$, scaled so that $\eta\beta = 2r$, $r \in (0, "
        "1]$",
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$ and $\delta$ of a drawn positive semidefinite quadratic "
        r"(co-coercivity). Attained where $x - y$ lies in the kernel of $A$ (pinned), or on the top eigenvector at "
        r"$\eta = 2/\beta$.",
        tight=(_pin(4, [[0.0, 0.0], [0.0, 1.0]], shift=0.0, r=0.5),)),
    5: GradientMapClass(
        r"$\beta$-smooth", (1 + eta * beta) ** 2 * delta ** 2,
        r"$f(x) = \frac12 x^\top A x + \sum_i\cos(a_i\cdot x)$, $A = (B + B^\top)/2$, "
        r"$\beta = \|A\| + \sum_i\|a_i\|^2$",
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$ and $\beta$ of a drawn (nonconvex) $f$ (the triangle "
        r"inequality). Loose for most $f$; attained by $f = -\beta\|x\|^2/2$ (pinned).",
        tight=(_pin(5, [[-1.0, 0.0], [0.0, -1.0]], pieces=[]),)),
    6: GradientMapClass(
        r"$(\lambda, \kappa)$-strongly dissipative, $\beta$-smooth", _C * delta ** 2 + 2 * eta * lam,
        r"$f(x) = \kappa'\|x\|^2/2 + G\sum_i\sin(a_i\cdot x)$, $G \in [0, 1]$: $\kappa = \kappa'/2$, "
        r"$\lambda = 2(G\sum_i\|a_i\|)^2/\kappa'$, $\beta = \kappa' + G\sum_i\|a_i\|^2$",
        r"Measures $\|\Phi(x) - \Phi(y)\|^2$, $\delta$ and $\kappa, \lambda, \beta$ of a drawn $f$, $(\lambda, "
        r"\kappa'/2)$-dissipative since $\langle\Delta\nabla f, \Delta x\rangle \ge \kappa'\delta^2 - 2G\delta\sum_i"
        r"\|a_i\|$ ($G = 0$: the quadratic, $(0, \kappa')$-dissipative). Loose for $G > 0$. Attained at $G = 0$, "
        r"where (6) is (3) with $\kappa = \beta$ (pinned); with $\lambda > 0$, on a bounded domain of diameter $D$ "
        r"(the paper's $\mathcal{X}$): $f = -\beta\|x\|^2/2$ is $((\kappa + \beta)D^2, \kappa)$-dissipative for "
        r"every $\kappa$, and two points at distance $D$ give equality (\symdpcode{tests/test\_bravo\_moduli.py}).",
        tight=({"eta": 0.3, "structure": {"kind": 6, "kappa": 1.2, "G": 0.0, "pieces": [], "x": [0.3, -0.2],
                                          "u": [0.6, 0.8], "scale": 0.0}},)),
}
MODULI_OF_CONTINUITY = {
    n: theorem(id=f"bravo.def2.1.{n}", title=f"modulus of the gradient map: {m.hypothesis}",
               number=f"Definition 2.1, modulus ({n})", parameters=(P_ETA, *m.extra),
               setting=Setting(m.drawn + MAP_LATEX, strategy=lambda n=n: gradient_maps(n), build=_pair),
               statement=sp.Le(DPhi2(), m.phi2), tight_at=m.tight, examples=m.pins, notes=m.notes)(gradient_map)
    for n, m in GRADIENT_MAPS.items()}

_MAXIMUM, _STATIONARY = proof.DERIVATIONS
weakly_smooth_maximum = identity(
    _MAXIMUM,
    id="bravo.def2.1.2.max", title=r"the additive term of modulus (2) is $\max_g \psi(g)$",
    number="Definition 2.1, modulus (2)",
    setting=Setting(r"$\psi(g) = \eta^2 g^2 - \frac{4\eta p}{1+p}M^{-1/p}g^{(1+p)/p}$, $g = \|\nabla f(x) - "
                    r"\nabla f(y)\| \ge 0$, $g^* = (\eta/2)^{p/(1-p)}M^{1/(1-p)}$, $0 < p < 1$"),
    symbolic_only=r"an identity in $p, \eta, M$, proved by SymPy after the substitution $\eta = 2A^{1-p}$, $M = "
                  r"B^{1-p}$ (\symdpcode{proofs.bravo.moduli.maximum\_value}; $\psi'(g^*) = 0$ is "
                  r"\symdpcode{proofs.bravo.moduli.stationarity}); the maximum found numerically agrees "
                  r"(\symdpcode{tests/test\_bravo\_moduli.py})",
    notes=r"Convexity and the $p$-H\"older gradient give $\langle\Delta\nabla f, \Delta x\rangle \ge "
          r"\frac{2p}{1+p}M^{-1/p}g^{(1+p)/p}$, hence $\|\Phi(x) - \Phi(y)\|^2 - \delta^2 \le \psi(g)$; $\psi' = "
          r"2\eta g(\eta - 2M^{-1/p}g^{(1-p)/p})$ changes sign once, at $g^*$, so $\psi(g^*) = h$ is the maximum "
          r"(catalogue \S 4 item 9, there exact only for four values of $p$).")


THEOREMS = registered(__name__)
