"""Balle et al. (NeurIPS 2019), Section 4: amplification by couplings.

Seeds: main text ``../shared/seeds/001_dc25d928cd3b540a.txt`` ("P"), appendix
``../shared/seeds/000_eb14441fc6376ec7.txt`` ("A"); catalogue ``../shared/catalogue/catalogue-balle.md``. The
symbolic side (eq. (6) by convolution, the limit of Lemma 3, Example 1's optimum, φ(L) and θ_i of Theorem 4) is in
:mod:`proofs.balle19.couplings`.

Encoded here:

* the iterated Laplace mechanism: eq. (6) (Lap2 density), Lemma 3 (its pure-DP level is Δ/max(λ1, λ2), so no
  amplification), Example 2 (Rényi amplification via Theorem 2) and Mironov's Laplace RDP it uses;
* shifts: Example 1 (iterated Gaussian, the optimal interpolation point), Theorem 4 eqs. (2)–(3) for linear maps
  ψ(x) = Lx on 𝕂 = ℝ, and the two identities of Theorem 4's proof (φ(L) ≤ 1/r; θ_i, printed wrongly: erratum E2);
* couplings on finite spaces: Lemma 16 (the transport operator H_π) and Theorem 2, eq. (1), with random exact
  couplings, and its data-processing special case;
* Example 3 (Lipschitz Gaussian kernel; the printed constant is wrong: erratum E1) and its correction;
* Lemma 17 (W∞ contraction; exact for point-mass inputs, the general case symbolic only), Lemma 18 (gradient steps
  contract) and Theorem 5 (noisy SGD, strongly convex) on exactly Gaussian SGD chains, with the sharper optimal-path
  ε_i of the catalogue beside it.

>>> import sympy as sp
>>> EQ_6.id, LEMMA_3.tight_everywhere
('balle19.eq6', True)
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp import continuous, divergences, finite, strategies
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate
from symdp.expressions import TV
from symdp.expressions import Gaussian as GaussianH
from symdp.expressions import Lap2 as Lap2H
from symdp.expressions import Laplace as LaplaceH
from symdp.expressions import MaxDivergence, Renyi
from symdp.finite import FiniteDistribution, to_mpf
from symdp.symbols import L, Delta, alpha, beta, eta, lambda1, lambda2, n, r, rho, sigma, sigma1, sigma2
from symdp.theorem import Erratum, Param, Source, Theorem
from symdp.theorems.balle19.common import A_SEED, ALPHA, DELTA, LAMBDA1, LAMBDA2, P_SEED, POS, SIGMA, SIGMA1, SIGMA2

x = sp.Symbol("x", real=True)
t = sp.Symbol("t", real=True)
theta = sp.Symbol("theta", nonnegative=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
j = sp.Symbol("j", integer=True, positive=True)


class Lap2f(sp.Function):
    """The density of eq. (6) at a point, printed as the paper writes it: Lap2(x; λ1, λ2)."""

    nargs = 1

    def _latex(self, printer):
        return rf"\mathrm{{Lap2}}\left({printer._print(self.args[0])}; \lambda_{{1}}, \lambda_{{2}}\right)"


class _Law(sp.Symbol):
    """A named law printed verbatim in LaTeX (a plain Symbol would read the underscores as subscripts)."""

    def _latex(self, printer):
        return self.name


LAM = sp.Max(lambda1, lambda2)


def _big(p) -> mpmath.mpf:
    return max(p["lambda_1"], p["lambda_2"])


# =====================================================================================================================
# Transport operators and Theorem 2 on finite spaces (P §4; A Lemma 16, proof of Theorem 2)
# =====================================================================================================================


def _exact(x) -> Fraction:
    return Fraction(repr(x)) if isinstance(x, float) else Fraction(x)


def exact_weights(weights) -> list[Fraction]:
    """The probability vector proportional to drawn ``weights``, as exact rationals. Floats are read as the decimal
    they print as (0.1 is one tenth), as :func:`symdp.finite.to_mpf` reads them.

    >>> exact_weights([0.1, 0.3])
    [Fraction(1, 4), Fraction(3, 4)]
    """
    w = [_exact(x) for x in weights]
    if any(x < 0 for x in w) or sum(w) <= 0:
        raise InvalidDistribution(f"weights must be non-negative with a positive sum, got {list(weights)}")
    total = sum(w)
    return [x / total for x in w]


def northwest_corner(a: list[Fraction], b: list[Fraction]) -> list[list[Fraction]]:
    """The north-west-corner coupling of ``a`` and ``b`` (exact rationals): a vertex of the transport polytope.

    >>> from fractions import Fraction as F
    >>> northwest_corner([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)])
    [[Fraction(1, 4), Fraction(1, 4)], [Fraction(0, 1), Fraction(1, 2)]]
    """
    pi = [[Fraction(0)] * len(b) for _ in a]
    left, need = list(a), list(b)
    x = y = 0
    while x < len(a) and y < len(b):
        m = min(left[x], need[y])
        pi[x][y] += m
        left[x] -= m
        need[y] -= m
        if left[x] == 0:
            x += 1
        else:
            y += 1
    return pi


def random_coupling(a: list[Fraction], b: list[Fraction], spec: dict) -> list[list[Fraction]]:
    """A coupling π ∈ 𝒞(a, b) with random structure, exact: a convex combination of the product coupling a ⊗ b
    (weight ``spec["product"]``) and of north-west-corner couplings of a and b with their atoms visited in the
    drawn orders ``rows``/``cols`` (weights ``spec["parts"][k]["weight"]``). Every part has marginals (a, b), so
    the mixture has them exactly."""
    parts = [(_exact(spec.get("product", 0)), None)]
    parts += [(_exact(part["weight"]), part) for part in spec.get("parts", ())]
    total = sum(w for w, _ in parts)
    if total <= 0:
        raise InvalidParameter("a coupling needs a positive weight on some part")
    pi = [[Fraction(0)] * len(b) for _ in a]
    for weight, part in parts:
        if weight == 0:
            continue
        if part is None:
            block = [[p * q for q in b] for p in a]
        else:
            rows, cols = part["rows"], part["cols"]
            nw = northwest_corner([a[k] for k in rows], [b[k] for k in cols])
            block = [[Fraction(0)] * len(b) for _ in a]
            for u, x in enumerate(rows):
                for v, y in enumerate(cols):
                    block[x][y] = nw[u][v]
        for x in range(len(a)):
            for y in range(len(b)):
                pi[x][y] += weight / total * block[x][y]
    return pi


def transport_operator(pi, first) -> list[list[mpmath.mpf]]:
    """The kernel h_π(x, y) = π(x, y)/p(x) of the transport operator H_π, π ∈ 𝒞(p, ·) (P §4), at working precision.

    Rows with p(x) = 0 follow the paper's convention 0/0 = 0 (footnote 5): they are identically 0, so H_π is a
    Markov kernel only p-almost surely, which is all Lemma 16 needs.
    """
    return [[to_mpf(v) / to_mpf(px) if px > 0 else mpmath.mpf(0) for v in row] for row, px in zip(pi, first)]


def push(p, kernel) -> list[mpmath.mpf]:
    """The row vector p·K (p a measure on the rows, K a matrix), at working precision."""
    return [mpmath.fsum(to_mpf(px) * to_mpf(row[y]) for px, row in zip(p, kernel)) for y in range(len(kernel[0]))]


def _law(p) -> FiniteDistribution:
    return FiniteDistribution([to_mpf(v) for v in p])


def _renyi_or_kl(P, Q, a) -> Estimate:
    """R_α(P‖Q), read as KL at α = 1 (P Theorem 2 allows α ≥ 1)."""
    return finite.kl(P, Q) if a == 1 else finite.renyi(P, Q, a)


def _plus(*terms: Estimate) -> Estimate:
    return Estimate(mpmath.fsum(t.value for t in terms), mpmath.fsum(t.error for t in terms), "exact (finite)")


_WEIGHT = st.floats(0.01, 1.0, allow_nan=False, allow_subnormal=False)


@st.composite
def coupling_specs(draw, n: int) -> dict:
    """Plain data for :func:`random_coupling` on n atoms: up to three north-west-corner parts and a product part."""
    k = draw(st.integers(0, 3))
    parts = [{"weight": draw(_WEIGHT), "rows": draw(st.permutations(range(n))),
              "cols": draw(st.permutations(range(n)))} for _ in range(k)]
    product = draw(_WEIGHT) if k == 0 else draw(st.one_of(st.just(0.0), _WEIGHT))
    return {"product": product, "parts": parts}


@st.composite
def _weights_with_zeros(draw, n: int) -> list[float]:
    """n positive weights with a drawn set of at most n − 1 of them set to 0 (usually none or few)."""
    empty = draw(st.sets(st.integers(0, n - 1), max_size=n - 1))
    return [0.0 if k in empty else w for k, w in enumerate(draw(strategies.weights(n)))]


@st.composite
def lemma16_instances(draw, max_atoms: int = 5) -> dict:
    """μ (possibly with empty atoms, to exercise 0/0 = 0), ν, and a coupling of them."""
    n = draw(st.integers(1, max_atoms))
    return {"mu": draw(_weights_with_zeros(n)), "nu": draw(strategies.weights(n)), "coupling": draw(coupling_specs(n))}


def _lemma16_residual(p) -> Estimate:
    s = p["structure"]
    mu, nu = exact_weights(s["mu"]), exact_weights(s["nu"])
    H = transport_operator(random_coupling(mu, nu, s["coupling"]), mu)
    return finite.tv(_law(push(mu, H)), _law(nu))


_MU, _NU, _OMEGA = _Law(r"\mu"), _Law(r"\nu"), _Law(r"\omega")

# A Lemma 16 (used in P §4): for π ∈ 𝒞(μ, ν) the transport operator h_π(x, y) = p_π(x, y)/p_μ(x) satisfies μH_π = ν.
# Checked on random finite couplings with exact marginals (north-west-corner vertices and the product, mixed).
LEMMA_16 = Theorem(
    id="balle19.lem16",
    title="The transport operator of a coupling moves its first marginal to its second",
    source=Source(A_SEED, "Lemma 16"),
    statement=sp.Eq(TV(_Law(r"\mu H_\pi"), _NU), 0),
    witness=_lemma16_residual,
    structure=lambda: lemma16_instances(),
    structure_latex=r"\mu, \nu \in \mathcal{P}(\{1..n\}),\ n \le 5,\ \pi \in \mathcal{C}(\mu, \nu),\ "
                    r"h_\pi(x, y) = \pi(x, y)/\mu(x)\ (0/0 = 0)",
    tight_everywhere=True,
    examples=({"structure": {"mu": [1.0, 0.0, 1.0], "nu": [0.2, 0.3, 0.5],  # an empty atom of mu: 0/0 = 0
                             "coupling": {"product": 0.0, "parts": [{"weight": 1.0, "rows": [2, 1, 0],
                                                                     "cols": [0, 1, 2]}]}}},),
    notes="The couplings are built in exact rationals, so their marginals are exact; H_pi and mu H_pi are computed "
          "at working precision. Rows of H_pi sum to 1 on supp(mu) (tests/test_balle19_couplings.py).",
    default_examples=40,
)


@st.composite
def theorem2_instances(draw, max_atoms: int = 5, max_outputs: int = 5) -> dict:
    """μ, ν, ω on n atoms, a kernel K to m outputs, and a coupling π ∈ 𝒞(ω, μ).

    ν may have empty atoms; ω is emptied there too, so that supp ω = supp ν and R_α(ω‖ν) < ∞ (with mass of ω off
    supp ν the bound is +∞, a trivial case), and H_π(x) is a probability for every x in supp ν.
    """
    n = draw(st.integers(2, max_atoms))
    nu = draw(_weights_with_zeros(n))
    omega = [w if v > 0 else 0.0 for w, v in zip(draw(strategies.weights(n)), nu)]
    return {"mu": draw(strategies.weights(n)), "nu": nu, "omega": omega,
            "K": draw(strategies.kernel_rows(n, 2, max_outputs)), "coupling": draw(coupling_specs(n))}


def theorem2_sides(mu, nu, omega, kernel, pi, a) -> tuple[Estimate, Estimate]:
    """(R_α(μK‖νK), R_α(ω‖ν) + sup_{x ∈ supp ν} R_α((H_πK)(x)‖K(x))) for π ∈ 𝒞(ω, μ): the two sides of eq. (1)."""
    K = [[to_mpf(v) for v in row] for row in kernel]
    lhs = _renyi_or_kl(_law(push(mu, K)), _law(push(nu, K)), a)
    H = transport_operator(pi, omega)
    transported = [_renyi_or_kl(_law(push(H[x], K)), _law(K[x]), a)
                   for x in range(len(nu)) if nu[x] > 0]
    sup = max(transported, key=lambda e: e.value)
    return lhs, _plus(_renyi_or_kl(_law(omega), _law(nu), a), sup)


def _kernel(rows) -> list[list[Fraction]]:
    return [exact_weights(row) for row in rows]


def _theorem2_sides(p):
    s = p["structure"]
    mu, nu, omega = (exact_weights(s[k]) for k in ("mu", "nu", "omega"))
    pi = random_coupling(omega, mu, s["coupling"])
    return theorem2_sides(mu, nu, omega, _kernel(s["K"]), pi, p["alpha"])


_K = _Law("K")
_SUP_TERM = _Law(r"\sup_{x \in \mathrm{supp}(\nu)} R_{\alpha}\left((H_\pi K)(x) \,\|\, K(x)\right)")
ALPHA_THM2 = Param(alpha, sp.Interval(1, 20), sample=(1, 20))
_IDENTITY = {"product": 0.0, "parts": [{"weight": 1.0, "rows": [0, 1, 2], "cols": [0, 1, 2]}]}  # diag: π = (id, id)#ω
_EYE3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def _dpi_equality(a):
    """ω = μ, identity coupling, K = identity: both sides of (1) are R_α(μ‖ν)."""
    return {"alpha": a, "structure": {"mu": [0.6, 0.3, 0.1], "nu": [0.2, 0.3, 0.5], "omega": [0.6, 0.3, 0.1],
                                      "K": _EYE3, "coupling": _IDENTITY}}


# P Theorem 2, eq. (1) (proof: A): for α ≥ 1 (KL at α = 1), ω ∈ 𝒫(𝕏) and π ∈ 𝒞(ω, μ),
#     R_α(μK‖νK) ≤ R_α(ω‖ν) + sup_{x ∈ supp ν} R_α((H_πK)(x)‖K(x)).
# Checked on random finite μ, ν, ω, K and random exact couplings. Equality: ω = μ, the identity coupling and K = id
# (pinned below); ν = ω = δ_x (then π = δ_x ⊗ μ, H_π(x) = μ and the sup term is R_α(μK‖νK) itself); on ℝ^d,
# Example 1's Gaussians with the translation coupling (balle19.ex1, tight everywhere).
THEOREM_2 = Theorem(
    id="balle19.thm2",
    title="Amplification by post-processing through a coupling, eq. (1)",
    source=Source(P_SEED, "Theorem 2, eq. (1)"),
    statement=sp.Le(Renyi(_Law(r"\mu K"), _Law(r"\nu K"), alpha), Renyi(_OMEGA, _NU, alpha) + _SUP_TERM),
    evaluator=_theorem2_sides,
    parameters=(ALPHA_THM2,),
    structure=lambda: theorem2_instances(),
    structure_latex=r"\mu, \nu, \omega \in \mathcal{P}(\{1..n\}),\ K \in \mathcal{K}(\{1..n\}, \{1..m\}),\ "
                    r"\pi \in \mathcal{C}(\omega, \mu),\ n, m \le 5",
    tight_at=(_dpi_equality(2.5), _dpi_equality(1),
              {"alpha": 4, "structure": {"mu": [0.2, 0.5, 0.3], "nu": [0.0, 1.0, 0.0], "omega": [0.0, 1.0, 0.0],
                                         "K": [[0.7, 0.3], [0.1, 0.9], [0.5, 0.5]],
                                         "coupling": {"product": 1.0, "parts": []}}}),
    examples=({"alpha": 1, "structure": {"mu": [0.1, 0.9], "nu": [0.5, 0.5], "omega": [0.4, 0.6],
                                         "K": [[0.9, 0.1], [0.2, 0.8]], "coupling": {"product": 1.0, "parts": []}}},
              {"alpha": 20, "structure": {"mu": [0.1, 0.9, 0.5], "nu": [0.0, 0.5, 0.5], "omega": [0.0, 0.6, 0.4],
                                          "K": [[0.9, 0.1], [0.2, 0.8], [0.5, 0.5]],
                                          "coupling": {"product": 0.3, "parts": [{"weight": 1.0, "rows": [2, 0, 1],
                                                                                  "cols": [1, 2, 0]}]}}}),
    notes="Tight on R^d via Example 1 (balle19.ex1: the translation coupling at the optimal w gives equality for "
          "every parameter). Typo E13 (A, proof of Theorem 2): 'let pi' = C(mu, omega)' should read "
          "'pi' in C(mu, omega)'. The step the proof calls Hoelder's inequality is int f g dnu <= (int f dnu) sup g.",
    default_examples=60,
)


@st.composite
def dpi_instances(draw, max_atoms: int = 5, max_outputs: int = 5) -> dict:
    n = draw(st.integers(2, max_atoms))
    return {"mu": draw(strategies.weights(n)), "nu": draw(strategies.weights(n)),
            "K": draw(strategies.kernel_rows(n, 2, max_outputs))}


def _dpi_sides(p):
    s = p["structure"]
    mu, nu = exact_weights(s["mu"]), exact_weights(s["nu"])
    identity = [[m if x == y else Fraction(0) for y in range(len(mu))] for x, m in enumerate(mu)]
    return theorem2_sides(mu, nu, mu, _kernel(s["K"]), identity, p["alpha"])


# P §4, after Theorem 2: with ω = μ and the identity coupling, (1) is the data-processing inequality
# R_α(μK‖νK) ≤ R_α(μ‖ν). Evaluated through eq. (1) itself (H_π = id, so the sup term is 0). Equality for K = id.
THEOREM_2_DPI = Theorem(
    id="balle19.thm2.dpi",
    title="Theorem 2 with the identity coupling is the data-processing inequality",
    source=Source(P_SEED, "Theorem 2 (remark after eq. (1))"),
    statement=sp.Le(Renyi(_Law(r"\mu K"), _Law(r"\nu K"), alpha), Renyi(_MU, _NU, alpha)),
    evaluator=_dpi_sides,
    parameters=(ALPHA_THM2,),
    structure=lambda: dpi_instances(),
    structure_latex=r"\mu, \nu \in \mathcal{P}(\{1..n\}),\ K \in \mathcal{K}(\{1..n\}, \{1..m\}),\ \omega = \mu,\ "
                    r"\pi = (\mathrm{id}, \mathrm{id})_\# \mu",
    tight_at=({"alpha": 3, "structure": {"mu": [0.6, 0.3, 0.1], "nu": [0.2, 0.3, 0.5], "K": _EYE3}},
              {"alpha": 1, "structure": {"mu": [0.6, 0.4], "nu": [0.25, 0.75], "K": [[1.0, 0.0], [0.0, 1.0]]}}),
    default_examples=60,
)

# =====================================================================================================================
# The iterated Laplace mechanism (P Example 2, Lemma 3; A proof of Lemma 3)
# =====================================================================================================================


def eq6_expression(z=x):
    """Eq. (6) as printed (A, proof of Lemma 3), with both branches, at the point z."""
    a = sp.Abs(z)
    neq = sp.Rational(1, 4) * ((1 / (lambda1 + lambda2) + 1 / (lambda1 - lambda2)) * sp.exp(-a / lambda1)
                               + (1 / (lambda1 + lambda2) - 1 / (lambda1 - lambda2)) * sp.exp(-a / lambda2))
    eq = sp.exp(-a / lambda1) * (lambda1 + a) / (4 * lambda1**2)
    return sp.Piecewise((eq, sp.Eq(lambda1, lambda2)), (neq, True))


def lap2_convolution(x0, l1, l2) -> Estimate:
    """∫ Lap(x0 − t; λ1) Lap(t; λ2) dt by mpmath quadrature split at the kinks t = 0 and t = x0.

    Independent of eq. (6): the integrand is the product of the two Laplace densities.

    >>> print(mpmath.nstr(lap2_convolution(mpmath.mpf('0.7'), 1, 2).value, 18))   # catalogue-balle, balle19.eq6
    0.152131812607669559
    """
    x0, l1, l2 = (mpmath.mpf(v) for v in (x0, l1, l2))

    def integrand(s):
        return mpmath.exp(-abs(x0 - s) / l1 - abs(s) / l2) / (4 * l1 * l2)

    points = [-mpmath.inf] + sorted({mpmath.mpf(0), x0}) + [mpmath.inf]
    value, error = mpmath.quad(integrand, points, error=True)
    return Estimate(value, abs(error), "quadrature (convolution)")


def _eq6_sides(p):
    conv = lap2_convolution(p["x"], p["lambda_1"], p["lambda_2"])
    closed = continuous.Lap2(0, p["lambda_1"], p["lambda_2"]).pdf(p["x"])
    return conv, closed


# A, proof of Lemma 3, eq. (6): the density of Lap(0, λ1) + Lap(0, λ2). The closed form is symdp.continuous.Lap2
# (eq. (6) rewritten without cancellation; the rewriting is checked symbolically in proofs.balle19.couplings).
EQ_6 = Theorem(
    id="balle19.eq6",
    title="Density of the sum of two Laplace variables",
    source=Source(A_SEED, "proof of Lemma 3, eq. (6)"),
    statement=sp.Eq(sp.Integral(sp.exp(-sp.Abs(x - t) / lambda1) / (2 * lambda1)
                                * sp.exp(-sp.Abs(t) / lambda2) / (2 * lambda2), (t, -sp.oo, sp.oo)),
                    eq6_expression(), evaluate=False),
    evaluator=_eq6_sides,
    parameters=(LAMBDA1, LAMBDA2, Param(x, sp.Reals, sample=(-10, 10))),
    tight_everywhere=True,
    examples=(  # catalogue-balle.md, balle19.eq6 (mpmath convolution)
        {"lambda_1": 1, "lambda_2": 2, "x": 0.7},
        {"lambda_1": 3, "lambda_2": 0.5, "x": -2},
        {"lambda_1": 1, "lambda_2": 1, "x": 1.3},
        {"lambda_1": 2, "lambda_2": 2.000001, "x": 5},  # λ1 ≈ λ2: eq. (6)'s first branch would cancel
    ),
    quantity_latex=r"\left(\mathrm{Lap}(\cdot;\lambda_1) * \mathrm{Lap}(\cdot;\lambda_2)\right)(x)",
    notes="Right side evaluated by symdp.continuous.Lap2 (eq. (6) in cancellation-free form); left side by "
          "quadrature of the convolution integral split at t = 0 and t = x.",
    default_examples=30,
)


def _lap2_pair(p):
    """(Lap2 centred at Δ, Lap2 centred at 0): the outputs K∘M on neighbouring inputs with |f(D) − f(D')| = Δ."""
    return (continuous.Lap2(p["Delta"], p["lambda_1"], p["lambda_2"]),
            continuous.Lap2(0, p["lambda_1"], p["lambda_2"]))


def _lemma3_max_divergence(p):
    return divergences.max_divergence(*_lap2_pair(p))


_M2 = Lap2H(Delta, lambda1, lambda2)
_M2p = Lap2H(0, lambda1, lambda2)

# P Lemma 3 (proof: A): the iterated Laplace mechanism K∘M is (ε, 0)-DP exactly for ε ≥ Δ/max(λ1, λ2): its max
# divergence equals Δ/max(λ1, λ2), a supremum approached as x → ∞ and not attained.
LEMMA_3 = Theorem(
    id="balle19.lem3",
    title="No pure-DP amplification for iterated Laplace",
    source=Source(P_SEED, "Lemma 3"),
    statement=sp.Eq(MaxDivergence(_M2, _M2p), Delta / LAM),
    witness=_lemma3_max_divergence,
    parameters=(LAMBDA1, LAMBDA2, DELTA),
    tight_everywhere=True,
    examples=(  # catalogue-balle.md, balle19.lem3: limits 7/30, 7/50 and Δ/λ (equal branch)
        {"lambda_1": 3, "lambda_2": 2, "Delta": 0.7},
        {"lambda_1": 2, "lambda_2": 5, "Delta": 0.7},
        {"lambda_1": 1, "lambda_2": 1, "Delta": 1},
    ),
    quantity_latex=r"\sup_{y} \log \frac{\mathrm{Lap2}(y - \Delta; \lambda_1, \lambda_2)}"
                   r"{\mathrm{Lap2}(y; \lambda_1, \lambda_2)}",
    notes="Witness: symdp.divergences.max_divergence (tail asymptotics). A finite-point certificate of tightness "
          "is balle19.lem3.pointwise, whose 0.99-tightened copy is refuted at a finite x. Typo E14 (P and A, "
          "Lemma 3): 'f : D -> R' should read 'f : D^n -> R'.",
    default_examples=12,
)


def privacy_loss_at(p, z) -> mpmath.mpf:
    """log(Lap2(z)/Lap2(z + Δ)), evaluated in log space (no under- or overflow at large |z|)."""
    law = continuous.Lap2(0, p["lambda_1"], p["lambda_2"])
    return law.logpdf(z) - law.logpdf(z + p["Delta"])


_LOSS = sp.log(Lap2f(x) / Lap2f(x + Delta))


def _loss_at_x(p):
    return privacy_loss_at(p, p["x"])


# P Lemma 3, the upper half ("K(f(D)) achieves (Δ/λ2, 0)-DP", post-processing) checked pointwise, with a finite
# witness: the privacy loss at one point x. It holds at every x, and the pinned large-x examples certify tightness
# without any asymptotic formula: at x = 199·max λ the loss exceeds 0.995·Δ/max λ (balle19.lem3.lower), so the
# copy tightened to 0.99·Δ/max λ is refuted by a finite computation, and so is (ε, 0)-DP for any ε < Δ/max λ.
LEMMA_3_POINTWISE = Theorem(
    id="balle19.lem3.pointwise",
    title="Iterated Laplace: the privacy loss at every point is at most Delta/max(lambda1, lambda2)",
    source=Source(P_SEED, "Lemma 3"),
    statement=sp.Le(_LOSS, Delta / LAM),
    witness=_loss_at_x,
    parameters=(LAMBDA1, LAMBDA2, DELTA, Param(x, sp.Reals, sample=(-50, 2000))),
    examples=(  # x = 199·max λ (c = 0.995 in balle19.lem3.lower), including the slow equal-λ branch
        {"lambda_1": 1, "lambda_2": 1, "Delta": 1, "x": 199},
        {"lambda_1": 3, "lambda_2": 2, "Delta": 0.7, "x": 597},
        {"lambda_1": 0.5, "lambda_2": 4, "Delta": 5, "x": 796},
    ),
    quantity_latex=r"\text{the privacy loss of } \mathrm{Lap2}(\cdot - \Delta) \text{ vs } \mathrm{Lap2} "
                   r"\text{ at } x + \Delta",
    notes="Not tight at any finite x (the supremum is approached only as x -> oo), but the 0.99-tightened copy is "
          "violated at the pinned finite points.",
)


_X_NONNEG = sp.Symbol("x", nonnegative=True)

# Derived here (not in the paper): a quantitative form of A's "dominating term" argument. With λ = max(λ1, λ2),
# Lap2(x) = e^{-x/λ} h(x)/(2(λ1 + λ2)), h increasing, h(x + Δ) − h(x) ≤ Δ e^{-xd}/λ and h(x) ≥ 1 + x φ(xd)/λ
# (d = 1/min λ − 1/λ, φ(y) = (1 − e^{-y})/y ≥ e^{-y}), so log(h(x+Δ)/h(x)) ≤ Δ/(λ + x) and, for x ≥ 0,
#     log(Lap2(x)/Lap2(x + Δ)) ≥ Δ/λ − Δ/(λ + x) = (Δ/λ) · x/(λ + x).
# Hence for every c < 1 the point x_c = λc/(1 − c) has loss ≥ cΔ/λ: no ε < Δ/λ gives (ε, 0)-DP (Lemma 3).
LEMMA_3_LOWER = Theorem(
    id="balle19.lem3.lower",
    title="Iterated Laplace: explicit lower bound on the privacy loss (quantitative Lemma 3)",
    source=Source(A_SEED, "proof of Lemma 3 (dominating-term argument, made quantitative)"),
    statement=sp.Ge(_LOSS.subs(x, _X_NONNEG), Delta * _X_NONNEG / (LAM * (LAM + _X_NONNEG))),
    witness=_loss_at_x,
    parameters=(LAMBDA1, LAMBDA2, DELTA, Param(_X_NONNEG, sp.Interval(0, sp.oo), sample=(0, 2000))),
    examples=({"lambda_1": 1, "lambda_2": 1, "Delta": 1, "x": 199}, {"lambda_1": 1, "lambda_2": 1, "Delta": 3, "x": 0}),
    notes="Derived in this module's comment, not in the paper; the ratio tends to 1 as x -> oo.",
)


def g_alpha(z, a):
    """Mironov's g_α(z) = α/(2α−1) e^{z(α−1)} + (α−1)/(2α−1) e^{−zα} (P Example 2, [23, Cor. 2])."""
    return a / (2 * a - 1) * mpmath.exp(z * (a - 1)) + (a - 1) / (2 * a - 1) * mpmath.exp(-z * a)


def g_alpha_expr(z):
    return alpha / (2 * alpha - 1) * sp.exp(z * (alpha - 1)) + (alpha - 1) / (2 * alpha - 1) * sp.exp(-z * alpha)


lam_ = sp.Symbol("lambda", positive=True)


def renyi_by_quadrature(P, Q, a) -> Estimate:
    """R_α(P‖Q) by the engine's quadrature path, bypassing any closed form (an independent computation)."""
    from symdp import quadrature

    return quadrature.renyi(P, Q, a, method="quadrature")


def _laplace_rdp_quadrature(p):
    return renyi_by_quadrature(continuous.Laplace(p["Delta"], p["lambda"]), continuous.Laplace(0, p["lambda"]),
                               p["alpha"])


# Catalogue glossary (Mironov 2017, Cor. 2; used in P Example 2): the Rényi divergence of two Laplace laws. The
# witness integrates numerically, so the closed form is checked against an independent computation.
LAPLACE_RDP = Theorem(
    id="balle19.fact.laplace-rdp",
    title="Renyi divergence of the Laplace mechanism (Mironov)",
    source=Source(P_SEED, "Example 2 (citing Mironov 2017, Corollary 2)"),
    statement=sp.Eq(Renyi(LaplaceH(Delta, lam_), LaplaceH(0, lam_), alpha),
                    sp.log(g_alpha_expr(Delta / lam_)) / (alpha - 1)),
    witness=_laplace_rdp_quadrature,
    parameters=(Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 20)), DELTA,
                Param(lam_, POS, sample=(0.2, 5))),
    tight_everywhere=True,
    examples=({"alpha": 2, "Delta": 1, "lambda": 1}, {"alpha": 5.5, "Delta": 0.3, "lambda": 0.7}),
    default_examples=5,
)


def _renyi_lap2(p) -> Estimate:
    return divergences.renyi(*_lap2_pair(p), p["alpha"])


EX2_BOUND = sp.log(g_alpha_expr(theta * Delta / lambda1) * g_alpha_expr((1 - theta) * Delta / lambda2)) / (alpha - 1)

# P Example 2: Theorem 2 with ω = Lap(w, λ1), w = θu + (1−θ)v (so |w − v| = θΔ, |u − w| = (1 − θ)Δ), bounds the
# Rényi divergence of the two Lap2 laws. Valid for every θ ∈ [0, 1]; loose for every finite α (catalogue).
EXAMPLE_2 = Theorem(
    id="balle19.ex2",
    title="Iterated Laplace: Renyi amplification via Theorem 2",
    source=Source(P_SEED, "Example 2"),
    statement=sp.Le(Renyi(_M2, _M2p, alpha), EX2_BOUND),
    witness=_renyi_lap2,
    parameters=(Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.1, 30)), Param(Delta, POS, sample=(0.05, 3)),
                Param(lambda1, POS, sample=(0.3, 5)), Param(lambda2, POS, sample=(0.3, 5)),
                Param(theta, sp.Interval(0, 1))),
    examples=(  # catalogue-balle.md, balle19.ex2 table (best a = |w − v| = θΔ)
        {"alpha": 2, "Delta": 1, "lambda_1": 1, "lambda_2": 1, "theta": 0.5},
        {"alpha": 4, "Delta": 1, "lambda_1": 1, "lambda_2": 2, "theta": 0.13028},
    ),
    notes="Loose for every finite alpha; the best theta is strictly inside (0, 1).",
    default_examples=4,  # each draw is a Lap2 Renyi quadrature at two precisions and two grids (~2 s)
)

# =====================================================================================================================
# Shifts: Example 1 and Theorem 4 (P §4)
# =====================================================================================================================


def _gauss_renyi(mean_gap, variance, a) -> Estimate:
    sd = mpmath.sqrt(variance)
    return divergences.renyi(continuous.Gaussian(mean_gap, sd), continuous.Gaussian(0, sd), a)


_S12 = sp.sqrt(sigma1**2 + sigma2**2)


def _ex1_witness(p):
    # (K∘M)(D) = N(f(D), σ1² + σ2²): the post-processed Gaussians, compared directly.
    return _gauss_renyi(p["Delta"], p["sigma_1"] ** 2 + p["sigma_2"] ** 2, p["alpha"])


# P Example 1: Theorem 2 with the translation coupling and w = θu + (1−θ)v, θ = σ1²/(σ1² + σ2²) (the minimiser,
# proofs.balle19.couplings.EX1_OPTIMAL_W) gives α Δ²/(2(σ1² + σ2²)) — exactly the Rényi divergence of the outputs.
EXAMPLE_1 = Theorem(
    id="balle19.ex1",
    title="Iterated Gaussian: Theorem 2 at the optimal interpolation point is exact",
    source=Source(P_SEED, "Example 1"),
    statement=sp.Eq(Renyi(GaussianH(Delta, _S12), GaussianH(0, _S12), alpha),
                    alpha * Delta**2 / (2 * (sigma1**2 + sigma2**2))),
    witness=_ex1_witness,
    parameters=(ALPHA, DELTA, SIGMA1, SIGMA2),
    tight_everywhere=True,
)

EX1_ANY_W_BOUND = alpha / 2 * (theta**2 * Delta**2 / sigma1**2 + (1 - theta)**2 * Delta**2 / sigma2**2)

# P Example 1, first display: the Theorem 2 bound for any w = θu + (1−θ)v; tight exactly at the optimal θ.
EXAMPLE_1_ANY_W = Theorem(
    id="balle19.ex1.any-w",
    title="Iterated Gaussian: the Theorem 2 bound for any interpolation point",
    source=Source(P_SEED, "Example 1"),
    statement=sp.Le(Renyi(GaussianH(Delta, _S12), GaussianH(0, _S12), alpha), EX1_ANY_W_BOUND),
    witness=_ex1_witness,
    parameters=(ALPHA, DELTA, SIGMA1, SIGMA2, Param(theta, sp.Interval(0, 1))),
    tight_at=({"alpha": 3, "Delta": 1, "sigma_1": 1, "sigma_2": 2, "theta": 0.2},      # θ = 1/(1 + 4)
              {"alpha": 1.5, "Delta": 2, "sigma_1": 3, "sigma_2": 1, "theta": 0.9}),   # θ = 9/(9 + 1)
)


def linear_chain(p) -> tuple[mpmath.mpf, mpmath.mpf]:
    """(mean gap, variance) after r steps of x ↦ Lx + N(0, σ²) started from δ_0 and δ_Δ (ψ(x) = Lx, 𝕂 = ℝ)."""
    gap, var = p["Delta"], mpmath.mpf(0)
    for _ in range(p["r"]):
        gap, var = p["L"] * gap, p["L"] ** 2 * var + p["sigma"] ** 2
    return gap, var


def _chain_renyi(p) -> Estimate:
    gap, var = linear_chain(p)
    return _gauss_renyi(gap, var, p["alpha"])


R_PARAM = Param(r, sp.Range(1, sp.oo), sample=(1, 20))


_CHAIN = Renyi(_Law(r"\mu K_1 \cdots K_r"), _Law(r"\nu K_1 \cdots K_r"), alpha)
_CHAIN_LATEX = r"\text{the chain } K_i(x) = \mathcal{N}(Lx, \sigma^2),\ \mu = \delta_0,\ \nu = \delta_\Delta"


def eq2_bound(steps):
    """αL²/(2σ²) Σ_{i=1}^r L^{2(r−i)} Δ_i² (P Theorem 4, eq. (2)) for the path with step sizes ``steps`` (in i)."""
    return alpha * L**2 / (2 * sigma**2) * sp.Sum(L**(2 * (r - i)) * steps**2, (i, 1, r))


OPTIMAL_STEP = Delta * L**(2 * i) / sp.Sum(L**(2 * j), (j, 1, r))
GEOMETRIC_STEP = Delta * L**i / sp.Sum(L**j, (j, 1, r))  # = Δ0 L^i, Δ0 = Δ(1 − L)/(L(1 − L^r)) (A, Thm 4 proof)

# P Theorem 4, eq. (2), for ψ_i(x) = Lx, 𝕂 = ℝ, μ = δ_0, ν = δ_Δ, along the optimal path μ_i = δ_{θ_i Δ} with steps
# Δ_i ∝ L^{2i} (derived in the catalogue; proofs.balle19.couplings.THM4_OPTIMAL_PATH). The exact Rényi divergence of the
# chain's Gaussian outputs attains the bound for every L > 0 (L = 1 included: the sums are evaluated termwise).
THEOREM_4_EQ2 = Theorem(
    id="balle19.thm4.eq2",
    title="Amplification by iteration, eq. (2), along the optimal path (linear maps)",
    source=Source(P_SEED, "Theorem 4, eq. (2)"),
    statement=sp.Le(_CHAIN, eq2_bound(OPTIMAL_STEP)),
    witness=_chain_renyi,
    parameters=(ALPHA, DELTA, SIGMA, Param(L, POS, sample=(0.05, 2)), R_PARAM),
    structure_latex=_CHAIN_LATEX,
    tight_everywhere=True,
    examples=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.8, "r": 2},   # catalogue table: 0.999024
              {"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.6, "r": 3},   # catalogue table: 0.125285
              {"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 1, "r": 2}),    # catalogue table: 2
)

# P Theorem 4, eq. (2) along the paper's own geometric path Δ_i = Δ0 L^i (A, proof of Theorem 4): valid, loose unless
# L = 1 or r = 1.
THEOREM_4_EQ2_GEOMETRIC = Theorem(
    id="balle19.thm4.eq2.geometric",
    title="Amplification by iteration, eq. (2), along the paper's geometric path (linear maps)",
    source=Source(A_SEED, "proof of Theorem 4"),
    statement=sp.Le(_CHAIN, eq2_bound(GEOMETRIC_STEP)),
    witness=_chain_renyi,
    parameters=(ALPHA, DELTA, SIGMA, Param(L, POS, sample=(0.05, 2)), R_PARAM),
    structure_latex=_CHAIN_LATEX,
    tight_at=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 1, "r": 7},
              {"alpha": 3, "Delta": 0.4, "sigma": 1.3, "L": 0.3, "r": 1}),
    examples=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.8, "r": 2},),  # catalogue table: 1.01136
)

# P Theorem 4, eq. (3): for L ≤ 1, R_α ≤ αΔ²L^{r+1}/(2rσ²). Tight at L = 1 (any r) and at r = 1; otherwise loose
# (the true rate for contractions is L^{2r}, not L^{r+1}/r).
THEOREM_4_EQ3 = Theorem(
    id="balle19.thm4.eq3",
    title="Amplification by iteration, eq. (3) (contractions)",
    source=Source(P_SEED, "Theorem 4, eq. (3)"),
    statement=sp.Le(_CHAIN, alpha * Delta**2 * L**(r + 1) / (2 * r * sigma**2)),
    witness=_chain_renyi,
    parameters=(ALPHA, DELTA, SIGMA, Param(L, sp.Interval.Lopen(0, 1), sample=(0.05, 1)), R_PARAM),
    structure_latex=_CHAIN_LATEX,
    tight_at=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 1, "r": 2},     # catalogue table: 2 = 2
              {"alpha": 4, "Delta": 0.7, "sigma": 0.3, "L": 1, "r": 13},
              {"alpha": 3, "Delta": 0.4, "sigma": 1.3, "L": 0.3, "r": 1}),
    examples=({"alpha": 2, "Delta": 1, "sigma": 0.5, "L": 0.6, "r": 3},),  # catalogue: 0.125285 vs 0.1728
)

PHI = (L**sp.Rational(-1, 2) - L**sp.Rational(1, 2)) / (L**(-r / sp.Integer(2)) - L**(r / sp.Integer(2)))


def phi_value(p):
    """φ(L) = (L^{-1/2} − L^{1/2})/(L^{-r/2} − L^{r/2}); at L = 1 (0/0) its limit by L'Hôpital's rule, with the two
    derivatives computed numerically (mpmath.diff), not from the closed form 1/r.

    >>> print(phi_value({"L": mpmath.mpf(1), "r": 4}))
    0.25
    """
    half_r = mpmath.mpf(p["r"]) / 2

    def num(l):
        return 1 / mpmath.sqrt(l) - mpmath.sqrt(l)

    def den(l):
        return l ** (-half_r) - l ** half_r

    if p["L"] == 1:
        return mpmath.diff(num, 1) / mpmath.diff(den, 1)
    return num(p["L"]) / den(p["L"])


# A, proof of Theorem 4: φ(L) ≤ 1/r on (0, 1], with φ(L) → 1/r as L → 1 (proofs.balle19.couplings.THM4_PHI_LIMIT);
# the step from the geometric path to eq. (3). Tight at L = 1 and for r = 1 (φ ≡ 1).
THEOREM_4_PHI = Theorem(
    id="balle19.thm4.proof-phi",
    title="phi(L) <= 1/r, with equality in the limit L -> 1",
    source=Source(A_SEED, "proof of Theorem 4"),
    statement=sp.Le(PHI, 1 / r),
    # An evaluator, so that 1/r is an mpf: the lambdified bound of an integer-only expression is a float64.
    evaluator=lambda p: (phi_value(p), 1 / mpmath.mpf(p["r"])),
    parameters=(Param(L, sp.Interval.Lopen(0, 1), sample=(0.01, 1)), Param(r, sp.Range(1, sp.oo), sample=(1, 40))),
    tight_at=({"L": 1, "r": 5}, {"L": 1, "r": 1}, {"L": 0.3, "r": 1}),
    examples=({"L": 0.999999, "r": 29},),
    notes="Typo E11 (A, proof of Theorem 4): the limit 1/r needs L'Hopital's rule once, not 'twice' "
          "(proofs.balle19.couplings.THM4_PHI_LIMIT).",
)

THETA_DEFINED = (1 - L) / (L * (1 - L**r)) * sp.Sum(L**j, (j, 1, i))
"""θ_i = (Δ0/Δ) Σ_{j≤i} L^j (A, proof of Theorem 4), with Δ0/Δ = (1 − L)/(L(1 − L^r))."""


def theta_defined(p):
    rr, n, l = p["r"], p["i"], p["L"]
    return (1 - l) / (l * (1 - l**rr)) * mpmath.fsum(l**k for k in range(1, n + 1))


_THETA_PARAMS = (Param(L, sp.Interval.open(0, 1), sample=(0.05, 0.95)), Param(r, sp.Range(1, sp.oo), sample=(1, 30)),
                 Param(i, sp.Range(0, sp.oo), sample=(0, 30)))

# A, proof of Theorem 4, as printed: θ_i = (Δ0/Δ) Σ_{j≤i} L^j = (1 − L^{i+1})/(1 − L). The second equality is wrong
# (erratum E2): it gives θ_0 = 1 and θ_r > 1, contradicting μ_0 = μ, μ_r = ν.
THEOREM_4_THETA = Theorem(
    id="balle19.thm4.proof-theta",
    title="The interpolation weights theta_i of Theorem 4's proof (as printed)",
    source=Source(A_SEED, "proof of Theorem 4"),
    statement=sp.Eq(THETA_DEFINED, (1 - L**(i + 1)) / (1 - L)),
    witness=theta_defined,
    parameters=_THETA_PARAMS,
    conditions=(sp.Le(i, r),),
    erratum=Erratum(
        location="A, proof of Theorem 4 (definition of mu_i)",
        printed=r"\theta_i = \frac{\Delta_0}{\Delta}\sum_{j=1}^i L^j = \frac{1-L^{i+1}}{1-L}",
        corrected=r"\theta_i = \frac{1-L^i}{1-L^r}",
        counterexample={"L": 0.5, "r": 3, "i": 3},  # printed θ_3 = 15/8, defined θ_3 = 1 (also θ_0: 1 vs 0)
        corrected_id="balle19.thm4.proof-theta.corrected",
        note="Catalogue erratum E2. Theorem 4 itself is unaffected.",
    ),
)

THEOREM_4_THETA_CORRECTED = Theorem(
    id="balle19.thm4.proof-theta.corrected",
    title="The interpolation weights theta_i of Theorem 4's proof (corrected)",
    source=Source(A_SEED, "proof of Theorem 4"),
    statement=sp.Eq(THETA_DEFINED, (1 - L**i) / (1 - L**r)),
    witness=theta_defined,
    parameters=_THETA_PARAMS,
    conditions=(sp.Le(i, r),),
    tight_everywhere=True,
    examples=({"L": 0.5, "r": 3, "i": 0}, {"L": 0.5, "r": 3, "i": 3}),  # θ_0 = 0, θ_r = 1
)


# =====================================================================================================================
# Example 3: a Lipschitz Gaussian kernel (P §4)
# =====================================================================================================================

slope = sp.Symbol("c", real=True)  # ψ(x) = c L x: an L-Lipschitz linear map for every |c| ≤ 1
SIGMA_STAR2 = sigma1**2 + sigma2**2 / L**2
_KM = Renyi(_Law(r"(K \circ M)(D)"), _Law(r"(K \circ M)(D')"), alpha)
_EX3_LATEX = r"K(x) = \mathcal{N}(\psi(x), \sigma_2^2),\ \psi(x) = c L x,\ M(D) = \mathcal{N}(f(D), \sigma_1^2)"


def _ex3_witness(p):
    # ψ(x) = cLx maps N(u, σ1²) to N(cLu, c²L²σ1²), so (K∘M)(D) = N(cLu, c²L²σ1² + σ2²): exact Gaussians.
    s = p["c"] * p["L"]
    return _gauss_renyi(s * p["Delta"], s**2 * p["sigma_1"] ** 2 + p["sigma_2"] ** 2, p["alpha"])


_EX3_PARAMS = (ALPHA, DELTA, SIGMA1, SIGMA2, Param(L, POS, sample=(0.05, 5)), Param(slope, sp.Interval(-1, 1)))
E1_COUNTEREXAMPLE = {"alpha": 2, "Delta": 1, "sigma_1": 1, "sigma_2": 10, "L": 2, "c": 1}
"""Catalogue erratum E1: ψ = 2x, σ1 = 1, σ2 = 10, Δ = 1: exact α/52 against the printed α/200."""

# P Example 3 as printed: "K∘M satisfies (α, αΔ²/(2σ2²))-RDP with σ*² = σ1² + σ2²/L²" — the constant names σ2
# where σ* is meant (erratum E1). Refuted with the linear map ψ = 2x.
EXAMPLE_3 = Theorem(
    id="balle19.ex3",
    title="Lipschitz Gaussian kernel (as printed)",
    source=Source(P_SEED, "Example 3"),
    statement=sp.Le(_KM, alpha * Delta**2 / (2 * sigma2**2)),
    witness=_ex3_witness,
    parameters=_EX3_PARAMS,
    structure_latex=_EX3_LATEX,
    erratum=Erratum(
        location="P, Example 3 (first sentence)",
        printed=r"(\alpha, \frac{\alpha\Delta^2}{2\sigma_2^2})\text{-RDP with } "
                r"\sigma_*^2 = \sigma_1^2 + \sigma_2^2/L^2",
        corrected=r"(\alpha, \frac{\alpha\Delta^2}{2\sigma_*^2})\text{-RDP}, \sigma_*^2 = \sigma_1^2 + \sigma_2^2/L^2",
        counterexample=E1_COUNTEREXAMPLE,
        corrected_id="balle19.ex3.corrected",
        note="Catalogue erratum E1: exact R_alpha = alpha/52 > alpha/200. The printed bound fails whenever "
             "sigma_2^2 (1 - 1/L^2) > sigma_1^2 (for the map psi = L x).",
    ),
)

# P Example 3, corrected (catalogue): K∘M is (α, αΔ²/(2σ*²))-RDP, σ*² = σ1² + σ2²/L², from Theorem 2 with the
# translation coupling and θ = (1 + σ2²/(L²σ1²))^{-1} (proofs.balle19.couplings.EX3_OPTIMAL_W). Checked against the
# exact Rényi divergence for the linear maps ψ = cLx, |c| ≤ 1; an equality for |c| = 1.
EXAMPLE_3_CORRECTED = Theorem(
    id="balle19.ex3.corrected",
    title="Lipschitz Gaussian kernel (corrected constant sigma_*)",
    source=Source(P_SEED, "Example 3"),
    statement=sp.Le(_KM, alpha * Delta**2 / (2 * SIGMA_STAR2)),
    witness=_ex3_witness,
    parameters=_EX3_PARAMS,
    structure_latex=_EX3_LATEX,
    tight_at=(E1_COUNTEREXAMPLE, {"alpha": 7.5, "Delta": 0.3, "sigma_1": 2, "sigma_2": 0.5, "L": 0.25, "c": -1}),
    examples=({"alpha": 3, "Delta": 2, "sigma_1": 1, "sigma_2": 1, "L": 3, "c": 0.5},),
    notes="Tight for linear psi = +-L x (exact Gaussian Renyi divergence equals the bound); for |c| < 1 the exact "
          "value alpha c^2 L^2 Delta^2/(2(c^2 L^2 sigma_1^2 + sigma_2^2)) is smaller. Nonlinear L-Lipschitz psi are "
          "not checked numerically (the output law is not Gaussian); the argument is Theorem 2 + the Lipschitz "
          "bound, whose algebra is proofs.balle19.couplings.EX3_OPTIMAL_W.",
)

# =====================================================================================================================
# Lemma 17: W∞ contraction (A, proof of Theorem 4)
# =====================================================================================================================


class Winf(sp.Function):
    """The ∞-Wasserstein distance W_∞(P, Q), printed as the paper writes it."""

    nargs = 2

    def _latex(self, printer):
        return rf"W_{{\infty}}\left({printer._print(self.args[0])}, {printer._print(self.args[1])}\right)"


def lipschitz_map(spec, l):
    """An L-Lipschitz map ℝ → ℝ from plain data: ``linear`` x ↦ cLx + shift (|c| ≤ 1), ``sin`` x ↦ L sin(x + shift),
    ``tanh`` x ↦ L tanh(x) + shift."""
    kind, shift = spec["kind"], to_mpf(spec["shift"])
    if kind == "linear":
        c = to_mpf(spec["slope"])
        if abs(c) > 1:
            raise InvalidParameter(f"a linear map cLx is L-Lipschitz only for |c| <= 1, got c = {spec['slope']}")
        return lambda x: c * l * x + shift
    if kind == "sin":
        return lambda x: l * mpmath.sin(x + shift)
    if kind == "tanh":
        return lambda x: l * mpmath.tanh(x) + shift
    raise InvalidParameter(f"unknown map kind {kind!r}")


def winf_projected_gaussians(m1, m2, box=None) -> mpmath.mpf:
    """W_∞ between the laws of Π(m1 + Z) and Π(m2 + Z), Z ~ N(0, σ²), Π the projection onto ``box`` = (lo, hi)
    (or the identity), in closed form.

    In one dimension the quantile coupling is optimal for W_∞, and the quantile functions are u ↦ Π(m_k + σΦ^{-1}(u))
    (Π is monotone). Their gap g(z) = |Π(m1 + σz) − Π(m2 + σz)| is at most |m1 − m2| (Π is 1-Lipschitz) and at most
    hi − lo (both values lie in the box); the first bound is reached where both points are inside the box, and
    min(|m1 − m2|, hi − lo) where the lower one sits at lo. So W_∞ = min(|m1 − m2|, hi − lo), independent of σ.

    >>> print(winf_projected_gaussians(mpmath.mpf(0), mpmath.mpf(3), (mpmath.mpf(-1), mpmath.mpf(1))))
    2.0
    """
    gap = abs(m1 - m2)
    return gap if box is None else min(gap, box[1] - box[0])


@st.composite
def lemma17_instances(draw) -> dict:
    """A map (:func:`lipschitz_map`), an optional box 𝕂 = [lo, lo + width], and two input points in 𝕂 as fractions."""
    kind = draw(st.sampled_from(["linear", "sin", "tanh"]))
    box = draw(st.one_of(st.none(), st.tuples(st.floats(-3, 3), st.floats(0.01, 4)).map(list)))
    return {"map": {"kind": kind, "shift": draw(st.floats(-2, 2)), "slope": draw(st.floats(-1, 1))},
            "box": box, "a": draw(st.floats(0, 1)), "b": draw(st.floats(0, 1))}


def _lemma17_sides(p):
    s = p["structure"]
    if s["box"] is None:
        box, place = None, (lambda f: 6 * to_mpf(f) - 3)  # inputs in [-3, 3]
    else:
        lo = to_mpf(s["box"][0])
        box = (lo, lo + to_mpf(s["box"][1]))
        place = lambda f: box[0] + to_mpf(f) * (box[1] - box[0])  # noqa: E731 - inputs in 𝕂
    a, b = place(s["a"]), place(s["b"])
    psi = lipschitz_map(s["map"], p["L"])
    return winf_projected_gaussians(psi(a), psi(b), box), p["L"] * abs(a - b)  # W_∞(δ_a, δ_b) = |a − b|


def _point_masses(a, b, kind="linear", shift=0.0, slope=1.0, box=None):
    return {"map": {"kind": kind, "shift": shift, "slope": slope}, "box": box, "a": a, "b": b}


_MUK, _NUK = _Law(r"\mu K"), _Law(r"\nu K")

# A Lemma 17: for ψ L-Lipschitz on a convex 𝕂 and K(x) = Law(Π_𝕂(ψ(x) + Z)), Z ~ N(0, σ²I),
# W_∞(μK, νK) ≤ L W_∞(μ, ν). Checked in one dimension for point masses μ = δ_a, ν = δ_b, where both sides are exact
# (the outputs' quantile functions are closed forms); tight for ψ = ±Lx + b without projection.
LEMMA_17 = Theorem(
    id="balle19.lem17",
    title="W_infinity contraction of a projected noisy Lipschitz map (point-mass inputs)",
    source=Source(A_SEED, "Lemma 17"),
    statement=sp.Le(Winf(_MUK, _NUK), L * Winf(_MU, _NU)),
    evaluator=_lemma17_sides,
    parameters=(Param(L, POS, sample=(0.05, 3)),),
    structure=lambda: lemma17_instances(),
    structure_latex=r"\mu = \delta_a,\ \nu = \delta_b,\ a, b \in \mathbb{K} = [lo, hi] \text{ or } \mathbb{R},\ "
                    r"\psi \in \{cLx + s,\ L\sin(x + s),\ L\tanh x + s\},\ K(x) = \Pi_{\mathbb{K}}(\psi(x) + Z)",
    tight_at=({"L": 0.7, "structure": _point_masses(0.1, 0.9)},
              {"L": 2.5, "structure": _point_masses(0.8, 0.3, shift=-1.0, slope=-1.0)}),
    examples=({"L": 1.5, "structure": _point_masses(0.0, 1.0, kind="sin", box=[-1.0, 2.0])},),
    notes="For point masses W_inf(mu K, nu K) = min(|psi(a) - psi(b)|, hi - lo) exactly (docstring of "
          "winf_projected_gaussians), independent of sigma. General mu, nu (Gaussian mixtures after K) are "
          "balle19.lem17.general, symbolic only.",
)

# A Lemma 17 in general (any μ, ν; any dimension). Not checked numerically: see the reason.
LEMMA_17_GENERAL = Theorem(
    id="balle19.lem17.general",
    title="W_infinity contraction of a projected noisy Lipschitz map (general inputs)",
    source=Source(A_SEED, "Lemma 17"),
    statement=sp.Le(Winf(_MUK, _NUK), L * Winf(_MU, _NU)),
    symbolic_only="for inputs with several atoms muK and nuK are (projected) Gaussian mixtures whose quantile "
                  "functions have no closed form, and W_inf is a supremum over all quantile levels: values read off "
                  "a quantile grid (the catalogue's check, max excess -1.5e-3) are approximations, not certified "
                  "bounds. The proof is the synchronous coupling Y = Pi(psi(X) + Z), Y' = Pi(psi(X') + Z), with "
                  "|Y - Y'| <= |psi(X) - psi(X')| <= L |X - X'|; the point-mass case is checked exactly in "
                  "balle19.lem17.",
)

# =====================================================================================================================
# Lemma 18 and Theorem 5: noisy SGD on strongly convex losses (P §4.1; A)
# =====================================================================================================================

RHO = Param(rho, POS, sample=(0.05, 1))
BETA = Param(beta, POS, sample=(1, 3))
ETA = Param(eta, POS, sample=(0.01, 0.9))
STEP_CONDITIONS = (sp.Le(rho, beta), sp.Le(eta, 2 / (beta + rho)))
KAPPA = 2 * eta * beta * rho / (beta + rho)
L18 = sp.sqrt(1 - KAPPA)
"""Lemma 18's contraction factor L = sqrt(1 − 2ηβρ/(β + ρ))."""


def hessian(spec, r_, b_) -> mpmath.matrix:
    """R(θ) diag(λ1, λ2) R(θ)ᵀ with λ_k = ρ + f_k (β − ρ), from plain data [θ, f1, f2], f_k ∈ [0, 1]: the Hessian of
    a β-smooth, ρ-strongly convex quadratic on ℝ²."""
    angle, f1, f2 = (to_mpf(v) for v in spec)
    if not (0 <= f1 <= 1 and 0 <= f2 <= 1):
        raise InvalidParameter(f"eigenvalue fractions must lie in [0, 1], got {spec[1:]}")
    c, s = mpmath.cos(angle), mpmath.sin(angle)
    rot = mpmath.matrix([[c, -s], [s, c]])
    diag = mpmath.diag([r_ + f1 * (b_ - r_), r_ + f2 * (b_ - r_)])
    return rot * diag * rot.T


def gradient_step(spec, r_, b_, step):
    """ψ(x) = x − η∇f(x) for f from plain data: ``quadratic`` f(x) = xᵀAx/2 on ℝ² (A from :func:`hessian`), or
    ``logcosh`` f(x) = ρx²/2 + (β − ρ) log cosh x on ℝ (f'' = ρ + (β − ρ) sech² x ∈ (ρ, β])."""
    if spec["kind"] == "quadratic":
        A = hessian(spec["hessian"], r_, b_)
        return lambda x: x - step * (A * x)
    if spec["kind"] == "logcosh":
        return lambda x: x - step * (r_ * x + (b_ - r_) * x.apply(mpmath.tanh))
    raise InvalidParameter(f"unknown loss kind {spec['kind']!r}")


_FRACTION = st.one_of(st.just(0.0), st.just(1.0), st.floats(0, 1))
_HESSIAN = st.tuples(st.floats(0, 3.2), _FRACTION, _FRACTION).map(list)


@st.composite
def lemma18_instances(draw) -> dict:
    """A loss (a random quadratic on ℝ² or the log-cosh loss on ℝ) and two distinct points."""
    if draw(st.booleans()):
        loss, dim = {"kind": "quadratic", "hessian": draw(_HESSIAN)}, 2
    else:
        loss, dim = {"kind": "logcosh"}, 1
    point = st.lists(st.floats(-5, 5), min_size=dim, max_size=dim)
    x, y = draw(st.tuples(point, point).filter(lambda xy: xy[0] != xy[1]))
    return {"loss": loss, "x": x, "y": y}


def _lemma18_quotient(p) -> mpmath.mpf:
    s = p["structure"]
    psi = gradient_step(s["loss"], p["rho"], p["beta"], p["eta"])
    x, y = (mpmath.matrix([to_mpf(v) for v in s[k]]) for k in ("x", "y"))
    return mpmath.norm(psi(x) - psi(y)) / mpmath.norm(x - y)


def _eigen_pair(r_, b_, e, x=(1.0, 0.0)):
    """η = 2/(β + ρ), Hessian eigenvalues exactly {ρ, β}, x − y along an eigenvector: the quotient is (β−ρ)/(β+ρ)."""
    return {"rho": r_, "beta": b_, "eta": e,
            "structure": {"loss": {"kind": "quadratic", "hessian": [0.0, 0.0, 1.0]}, "x": list(x), "y": [0.0, 0.0]}}


# A Lemma 18 (citing Bubeck, Thm 3.12): for f β-smooth and ρ-strongly convex and η ≤ 2/(β + ρ), the gradient step
# ψ(x) = x − η∇f(x) is L-Lipschitz with L = sqrt(1 − 2ηβρ/(β + ρ)). Checked on difference quotients of ψ for random
# quadratics on ℝ² (Hessian eigenvalues in [ρ, β], random rotation) and for f = ρx²/2 + (β − ρ) log cosh x.
LEMMA_18 = Theorem(
    id="balle19.lem18",
    title="A gradient step on a smooth strongly convex function is a contraction",
    source=Source(A_SEED, "Lemma 18"),
    statement=sp.Le(_Law(r"\frac{\|\psi(x) - \psi(y)\|}{\|x - y\|}"), L18),
    witness=_lemma18_quotient,
    parameters=(RHO, BETA, ETA),
    conditions=STEP_CONDITIONS,
    structure=lambda: lemma18_instances(),
    structure_latex=r"\psi(x) = x - \eta\nabla f(x),\ f(x) = \tfrac12 x^\top A x,\ "
                    r"\mathrm{spec}(A) \subset [\rho, \beta]"
                    r"\ \text{or}\ f(x) = \tfrac{\rho}{2}x^2 + (\beta - \rho)\log\cosh x,\ x \ne y",
    tight_at=(_eigen_pair(1, 3, 0.5), _eigen_pair(0.5, 1.5, 1, x=(0.0, -2.5))),  # ratio (β−ρ)/(β+ρ) = 1/2
    examples=({"rho": 0.2, "beta": 2, "eta": 0.5, "structure": {"loss": {"kind": "logcosh"}, "x": [0.001],
                                                                 "y": [-0.001]}},),
    notes="Tight at eta = 2/(beta + rho) (quadratic with eigenvalues rho and beta, x - y along an eigenvector: "
          "proofs.balle19.couplings.LEM18_TIGHT); loose for smaller eta, where the exact constant is "
          "max(|1 - eta rho|, |1 - eta beta|) <= L (LEM18_VS_ELEMENTARY).",
)


C_ = sp.Symbol("C", positive=True)
idx = sp.Symbol("i", integer=True, positive=True)  # the index of the differing record (Theorem 5)
EPS_N = 2 * C_**2 / sigma**2
EPS_I = sp.Piecewise((EPS_N, sp.Eq(idx, n)),
                     (2 * C_**2 / ((n - idx) * sigma**2) * (1 - KAPPA)**((n - idx + 1) / sp.Integer(2)), True))
"""P Theorem 5's ε_i (ε_n at i = n)."""
EPS_I_OPT = sp.Piecewise((EPS_N, sp.Eq(idx, n)),
                         (EPS_N * KAPPA * (1 - KAPPA)**(n - idx) / (1 - (1 - KAPPA)**(n - idx)), True))
"""The optimal-path ε_i (catalogue, balle19.thm5): Theorem 4 eq. (2) along the optimal path instead of eq. (3)."""


@st.composite
def sgd_instances(draw) -> dict:
    """Per-step Hessians (1–4, used cyclically), and the gradient gap g = A_i(c_i − c'_i) at the differing step as a
    direction and a fraction of its maximum 2C."""
    return {"hessians": draw(st.lists(_HESSIAN, min_size=1, max_size=4)), "direction": draw(st.floats(0, 6.3)),
            "frac": draw(st.one_of(st.just(1.0), st.floats(0, 1)))}


def sgd_outputs(p) -> tuple[mpmath.matrix, mpmath.matrix]:
    """(mean difference, common covariance) of the outputs x_n of NoisyProjSGD with 𝕂 = ℝ², ξ_0 = δ_{x_0} and
    quadratic losses ℓ(x, z_j) = (x − c_j)ᵀA_j(x − c_j)/2 on datasets differing at index i (same A_i, centres
    c_i ≠ c'_i). Each step is affine, x ↦ (I − ηA_j)x + ηA_j c_j − ηZ, so both outputs are Gaussian: the means differ
    by (I − ηA_n)⋯(I − ηA_{i+1}) ηA_i(c_i − c'_i) and the covariance is that of the summed, propagated noise."""
    s, e = p["structure"], p["eta"]
    I2 = mpmath.eye(2)
    steps = [I2 - e * hessian(s["hessians"][j % len(s["hessians"])], p["rho"], p["beta"]) for j in range(p["n"])]
    phi = to_mpf(s["direction"])
    gap = 2 * p["C"] * to_mpf(s["frac"]) * mpmath.matrix([mpmath.cos(phi), mpmath.sin(phi)])
    mean = e * gap
    cov = mpmath.zeros(2, 2)
    for j, M in enumerate(steps, start=1):
        cov = M * cov * M.T + (e * p["sigma"]) ** 2 * I2
        if j > p["i"]:
            mean = M * mean
    return mean, cov


def _sgd_renyi(p) -> mpmath.mpf:
    # R_α(N(m1, Σ)‖N(m2, Σ)) = α (m1 − m2)ᵀ Σ^{-1} (m1 − m2)/2 (balle19.fact.gauss-rdp, whitened).
    mean, cov = sgd_outputs(p)
    return p["alpha"] * (mean.T * mpmath.lu_solve(cov, mean))[0] / 2


_SGD_PARAMS = (ALPHA, Param(C_, POS, sample=(0.1, 3)), SIGMA, RHO, BETA, ETA,
               Param(n, sp.Range(1, sp.oo), sample=(1, 30)), Param(idx, sp.Range(1, sp.oo), sample=(1, 30)))
_SGD_CONDITIONS = (sp.Le(idx, n),) + STEP_CONDITIONS
_SGD = Renyi(_Law(r"\mathrm{NoisyProjSGD}(D)"), _Law(r"\mathrm{NoisyProjSGD}(D')"), alpha)
_SGD_LATEX = (r"\mathbb{K} = \mathbb{R}^2,\ \ell(x, z_j) = \tfrac12 (x - c_j)^\top A_j (x - c_j),\ "
              r"\mathrm{spec}(A_j) \subset [\rho, \beta],\ \|A_i(c_i - c_i')\| \le 2C,\ \xi_0 = \delta_{x_0}")
_SGD_HYPOTHESIS = ("Instances: unprojected SGD on R^2 with quadratic losses, whose outputs are exactly Gaussian. A "
                   "strongly convex loss cannot be C-Lipschitz on all of R^d, so C-Lipschitz is replaced by the only "
                   "consequence the proof uses, sup_x |grad l(x, z_i) - grad l(x, z_i')| <= 2C (a weaker hypothesis, "
                   "so a stronger statement).")


def _single_step(frac=1.0):
    """n = i = 1: one noisy step, x_1 = x_0 − η(∇ℓ + Z); R_α = α(2ηC·frac)²/(2η²σ²) = αε_n·frac²."""
    return {"alpha": 2, "C": 1, "sigma": 1, "rho": 0.5, "beta": 2, "eta": 0.5, "n": 1, "i": 1,
            "structure": {"hessians": [[0.3, 0.2, 0.9]], "direction": 1.0, "frac": frac}}


CATALOGUE_CHAIN = {"alpha": 2, "C": 1, "sigma": 1, "rho": 1, "beta": 1, "eta": 0.5, "n": 6, "i": 1,
                   "structure": {"hessians": [[0.0, 0.0, 0.0]], "direction": 0.0, "frac": 1.0}}
"""The catalogue's sanity chain (balle19.thm5: ρ = 1, η = 0.5, σ = 1, gradient gap 2, five later steps):
R/α = 0.0014652."""
LONG_CHAIN = {"alpha": 3, "C": 1, "sigma": 0.7, "rho": 1, "beta": 3, "eta": 0.5, "n": 21, "i": 1,
              "structure": {"hessians": [[0.0, 0.0, 0.0]], "direction": 0.0, "frac": 1.0}}
"""η = 2/(β + ρ) and A = ρI: every step contracts by exactly L = 1/2; 20 steps after the differing one."""

# P Theorem 5 (proof: A, from Theorem 4 eq. (3) and Lemma 18): NoisyProjSGD is (α, αε_i)-RDP at index i,
# ε_n = 2C²/σ², ε_i = 2C²/((n − i)σ²) (1 − 2ηβρ/(β + ρ))^{(n−i+1)/2}. Equality at n = i = 1 (one step: the Gaussian
# mechanism with sensitivity 2ηC); loose for i < n, where the rate L^{n−i+1}/(n−i) of eq. (3) is far from L^{2(n−i)}.
THEOREM_5 = Theorem(
    id="balle19.thm5",
    title="Noisy SGD on smooth strongly convex losses: RDP at index i",
    source=Source(P_SEED, "Theorem 5"),
    statement=sp.Le(_SGD, alpha * EPS_I),
    witness=_sgd_renyi,
    parameters=_SGD_PARAMS,
    conditions=_SGD_CONDITIONS,
    structure=lambda: sgd_instances(),
    structure_latex=_SGD_LATEX,
    tight_at=(_single_step(),),
    examples=(CATALOGUE_CHAIN, LONG_CHAIN, _single_step(0.3)),
    notes=_SGD_HYPOTHESIS + " Tight only at i = n = 1. For i < n loose on typical draws (catalogue chain: ratio "
          "0.029; median over draws ~0.005), but not by a fixed factor: with i = 1 the ratio tends to 1 as eta -> 0 "
          "and n -> oo (L -> 1: ratio ~ (n-1)/n; 0.876 among 400 draws), and for n = 2 it is 1/(1 + L^2) -> 1 as "
          "L -> 0 (proofs.balle19.couplings.THM5_PAPER_CHAIN_RATIO). Typo E12 (A, "
          "proof of Theorem 5): K_0'(x) = N(psi_0'(x), eta^2 sigma^2 I) omits the projection Pi_K (harmless: "
          "post-processing). The exponent (n-i+1)/2 is consistent with Theorem 4 eq. (3) and Lemma 18 "
          "(proofs.balle19.couplings.THM5_FROM_THM4).",
    default_examples=40,
)

# Catalogue (balle19.thm5, derived there): Theorem 4 eq. (2) along the optimal path (Δ_i ∝ L^{2i}) instead of eq. (3)
# gives the valid, smaller ε_i^opt = (2C²/σ²) κ(1 − κ)^{n−i}/(1 − (1 − κ)^{n−i}), κ = 2ηβρ/(β + ρ). Equality at
# n = i = 1; for i < n never attained (it ignores the noise of step i), though the ratio tends to 1 along long chains
# contracting at exactly L (proofs.balle19.couplings.THM5_OPT_CHAIN_RATIO).
THEOREM_5_OPTIMAL = Theorem(
    id="balle19.thm5.optimal-path",
    title="Noisy SGD on smooth strongly convex losses: RDP at index i via the optimal path",
    source=Source(A_SEED, "proof of Theorem 5, with Theorem 4 eq. (2) along the optimal path (catalogue)"),
    statement=sp.Le(_SGD, alpha * EPS_I_OPT),
    witness=_sgd_renyi,
    parameters=_SGD_PARAMS,
    conditions=_SGD_CONDITIONS,
    structure=lambda: sgd_instances(),
    structure_latex=_SGD_LATEX,
    tight_at=(_single_step(),),
    examples=(CATALOGUE_CHAIN, LONG_CHAIN),
    notes=_SGD_HYPOTHESIS + " Derived in the catalogue, not in the paper. On the chain with A_j = rho I and "
          "eta = 2/(beta + rho) (contraction exactly L), started at the differing step, exact/eps^opt = "
          "(1 - L^{2r})/(1 - L^{2r+2}) < 1 with r = n - i: not attained, but the supremum of the ratio is 1 "
          "(LONG_CHAIN: 1 - 7e-13).",
    default_examples=40,
)

def _gauss_rdp_quadrature(p):
    return renyi_by_quadrature(continuous.Gaussian(p["Delta"], p["sigma"]), continuous.Gaussian(0, p["sigma"]),
                               p["alpha"])


# Catalogue glossary: the Gaussian RDP α Δ²/(2σ²) (used by Example 1 and Theorem 4), checked by quadrature.
GAUSS_RDP = Theorem(
    id="balle19.fact.gauss-rdp",
    title="Renyi divergence of the Gaussian mechanism",
    source=Source(P_SEED, "Example 1 (standard)"),
    statement=sp.Eq(Renyi(GaussianH(Delta, sigma), GaussianH(0, sigma), alpha), alpha * Delta**2 / (2 * sigma**2)),
    witness=_gauss_rdp_quadrature,
    parameters=(Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 20)), DELTA, Param(sigma, POS, sample=(0.2, 5))),
    tight_everywhere=True,
    examples=({"alpha": 3.7, "Delta": 0.4, "sigma": 0.9},),  # catalogue-balle.md: 0.36543209876543209877
    default_examples=5,
)

THEOREMS = [
    LEMMA_16, THEOREM_2, THEOREM_2_DPI,
    GAUSS_RDP, EXAMPLE_1, EXAMPLE_1_ANY_W,
    EQ_6, LEMMA_3, LEMMA_3_POINTWISE, LEMMA_3_LOWER, LAPLACE_RDP, EXAMPLE_2,
    EXAMPLE_3, EXAMPLE_3_CORRECTED,
    THEOREM_4_EQ2, THEOREM_4_EQ2_GEOMETRIC, THEOREM_4_EQ3, THEOREM_4_PHI, THEOREM_4_THETA, THEOREM_4_THETA_CORRECTED,
    LEMMA_17, LEMMA_17_GENERAL, LEMMA_18, THEOREM_5, THEOREM_5_OPTIMAL,
]
