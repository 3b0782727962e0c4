"""Balle et al. (NeurIPS 2019), Section 3: amplification from uniform mixing, with the background of Section 2.

Seeds: main text ``../shared/seeds/001_dc25d928cd3b540a.txt`` ("P": §2, Definition 1, Figure 1, Table 1, Theorem 1),
appendix ``../shared/seeds/000_eb14441fc6376ec7.txt`` ("A": Lemma 9, Theorems 10, 13, 14, 15, Lemmas 11, 12, eq. (5));
catalogue ``../shared/catalogue/catalogue-balle.md`` §1–2, whose IDs the theorems carry. The symbolic identities
inside the proofs are checked in :mod:`proofs.balle19.mixing`.

Everything here is finite: distributions are probability vectors, Markov operators row-stochastic matrices
(:class:`~symdp.kernels.MarkovKernel`), divergences exact sums at the working precision. Random structure is drawn
as plain weight lists (dense, sparse, mixtures with a constant kernel, constant kernels, erasure channels) and built
into distributions and kernels inside the witness, at each of the verifier's two precisions.

Pair form. Theorem 1 speaks of mechanisms; as in the catalogue, every amplification result is checked on one pair
(μ, ν) = (M(D), M(D')) with δ := D_{e^ε}(μ‖ν) (the one-sided pair condition the proofs use) and γ the kernel's
smallest valid coefficient (:mod:`symdp.kernels`).

>>> import mpmath
>>> with mpmath.workdps(30):
...     K = erasure_channel(mpmath.mpf("0.3"), 2)
...     print(K.dobrushin(), K.doeblin())
0.3 0.3
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import sympy as sp
from hypothesis import strategies as st

from proofs.balle19.mixing import BLANKET
from symdp.errors import InvalidParameter
from symdp.expressions import TV, HockeyStick, MaxDivergence, Quantity, Renyi
from symdp.finite import (FiniteDistribution, approximate_max_divergence, hockey_stick, max_divergence, renyi,
                          to_mpf, tv)
from symdp.kernels import MarkovKernel
from symdp.strategies import weights
from symdp.theorem import Erratum, Param, Source, Theorem, lambdify_mpmath
from symdp.theorems.balle19.common import A_SEED, P_SEED

# --- symbols ---------------------------------------------------------------------------------------------------------
eps = sp.Symbol("epsilon", nonnegative=True)
h = sp.Symbol("h", nonnegative=True)  # an increment of epsilon
t = sp.Symbol("t", nonnegative=True)  # how far beyond the saturation level epsilon_0 (def.hs limit)
gamma = sp.Symbol("gamma", nonnegative=True)  # in [0, 1]: a mixing coefficient or a mixture weight
delta = sp.Symbol("delta", nonnegative=True)  # in [0, 1]
alpha = sp.Symbol("alpha", positive=True)  # Rényi order, > 1

EPS = Param(eps, sp.Interval(0, sp.oo), sample=(0, 3))
GAMMA = Param(gamma, sp.Interval(0, 1))
ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 20))

EPS_PRIME = sp.log(1 + gamma * (sp.exp(eps) - 1))  # Theorem 1(3), (4)
EPS_TILDE = sp.log(1 + (sp.exp(eps) - 1) / delta)  # Theorem 1(2)
DELTA_PRIME_DOEBLIN = gamma * (1 - sp.exp(EPS_PRIME - eps) * (1 - delta))  # Theorem 1(3)
DELTA_PRIME_ULTRA = gamma * delta * sp.exp(EPS_PRIME - eps)  # Theorem 1(4)
EPS_STAR = sp.log(sp.exp(eps) / (1 + (1 - gamma) * (sp.exp(eps) - 1)))  # catalogue: exact δ = 0 sup under ultra-mixing

_eps_prime = lambdify_mpmath((gamma, eps), EPS_PRIME)
_eps_star = lambdify_mpmath((gamma, eps), EPS_STAR)
_delta_doeblin = lambdify_mpmath((gamma, delta, eps), DELTA_PRIME_DOEBLIN)
_delta_ultra = lambdify_mpmath((gamma, delta, eps), DELTA_PRIME_ULTRA)


class _Law(sp.Symbol):
    """A named distribution or kernel printed verbatim in LaTeX (``\\mu K``, ``\\tilde K``)."""

    def _latex(self, printer):
        return self.name


mu, nu, K = _Law(r"\mu"), _Law(r"\nu"), _Law("K")
muK, nuK = _Law(r"\mu K"), _Law(r"\nu K")


class _Coefficient(Quantity):
    """A mixing coefficient of Definition 1: the smallest γ for which K satisfies the condition."""

    is_extended_nonnegative = True
    label = ""

    def _latex(self, printer):
        args = ", ".join(printer._print(a) for a in self.args)
        return rf"\gamma_{{\mathrm{{{self.label}}}}}\left({args}\right)"


class DobrushinCoefficient(_Coefficient):
    """sup_{x,x'} TV(K(x), K(x')) (Definition 1(1))."""

    nargs = 1
    label = "Dob"


class DobrushinEpsCoefficient(_Coefficient):
    """sup_{x,x'} D_{e^ε}(K(x)‖K(x')) (Definition 1(2)); arguments (K, ε)."""

    nargs = 2
    label = "Dob"


class DoeblinCoefficient(_Coefficient):
    """1 − Σ_y min_x K(x)(y) (Definition 1(3))."""

    nargs = 1
    label = "Doeb"


class UltraMixingCoefficient(_Coefficient):
    """1 − min_{x,x',y} K(x)(y)/K(x')(y) (Definition 1(4))."""

    nargs = 1
    label = "um"


class Sup(Quantity):
    """A supremum over a finite family, printed \\sup_{index} body (the index is a LaTeX string symbol)."""

    nargs = 2

    def _latex(self, printer):
        body, index = self.args
        return rf"\sup_{{{printer._print(index)}}} {printer._print(body)}"


class SupNorm(Quantity):
    """‖v‖_∞ of a signed vector (a residual that must vanish)."""

    nargs = 1
    is_extended_nonnegative = True

    def _latex(self, printer):
        return rf"\left\| {printer._print(self.args[0])} \right\|_{{\infty}}"


class MinEntry(Quantity):
    """The smallest entry of a matrix."""

    nargs = 1

    def _latex(self, printer):
        return rf"\min_{{x, y}} {printer._print(self.args[0])}(x, y)"


# =====================================================================================================================
# Plain-data structure: strategies and builders
# =====================================================================================================================


def sparse_weights(n: int) -> st.SearchStrategy[list[float]]:
    """``n`` weights, each 0 or in [0.01, 1] (never tiny: no denormal-scale entries), not all zero."""
    return st.lists(st.one_of(st.just(0.0), st.floats(0.01, 1, allow_subnormal=False)), min_size=n,
                    max_size=n).filter(lambda w: sum(w) > 0)


def any_weights(n: int) -> st.SearchStrategy[list[float]]:
    return st.one_of(weights(n), sparse_weights(n))


def distribution(ws) -> FiniteDistribution:
    """The distribution proportional to plain weights, at the working precision."""
    return FiniteDistribution.normalized(ws)


def erasure_channel(g, n: int) -> MarkovKernel:
    """K(x) = γδ_x + (1−γ)δ_c on n inputs and n + 1 outputs (c = the erasure symbol, last column).

    Every coefficient of Definition 1 except ultra-mixing equals γ: the tight instance of Theorems 1(1)–(3).
    """
    g = to_mpf(g, "gamma")
    if not 0 <= g <= 1:
        raise InvalidParameter(f"erasure probability weight gamma must lie in [0, 1], got {mpmath.nstr(g, 8)}")
    return MarkovKernel([[g if y == x else 0 for y in range(n)] + [1 - g] for x in range(n)])


@st.composite
def kernel_data(draw, rows: int, positive: bool = False, min_cols: int = 2, max_cols: int = 6):
    """A kernel with ``rows`` rows as plain data: ``{"kind": ..., ...}``, built by :func:`build_kernel`.

    Kinds: ``dense`` (entries ≥ 0.01 before normalising), ``sparse`` (zeros allowed), ``mixed`` ((1−s)R + s K_ω:
    a random kernel mixed with a constant one, so Doeblin's minorisation is non-trivial), ``constant`` (all rows ω),
    ``point-row`` (one row a point mass) and ``erasure``. ``positive`` keeps every entry positive (ultra-mixing).
    """
    kinds = ["dense", "mixed", "constant"] + ([] if positive else ["sparse", "point-row", "erasure"])
    kind = draw(st.sampled_from(kinds))
    if kind == "erasure":
        return {"kind": kind, "gamma": draw(st.floats(0, 1)), "n": rows}
    cols = draw(st.integers(min_cols, max_cols))
    row = weights(cols) if kind != "sparse" else sparse_weights(cols)
    data = {"kind": kind, "rows": [draw(row) for _ in range(rows)]}
    if kind in ("mixed", "constant"):
        data["omega"] = draw(weights(cols) if positive else any_weights(cols))
        data["s"] = 1.0 if kind == "constant" else draw(st.floats(0, 1))
    if kind == "point-row":
        data["at"] = [draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))]
    return data


def build_kernel(data) -> MarkovKernel:
    """The kernel described by :func:`kernel_data`'s plain data, at the working precision."""
    kind = data["kind"]
    if kind == "erasure":
        return erasure_channel(data["gamma"], data["n"])
    rows = [distribution(r).probs for r in data["rows"]]
    if kind in ("mixed", "constant"):
        s, omega = to_mpf(data["s"], "s"), distribution(data["omega"]).probs
        rows = [[(1 - s) * a + s * b for a, b in zip(r, omega)] for r in rows]
    if kind == "point-row":
        x, y = data["at"]
        rows[x] = [mpmath.mpf(int(j == y)) for j in range(len(rows[x]))]
    return MarkovKernel(rows)


def kernel_width(data) -> int:
    return data["n"] + 1 if data["kind"] == "erasure" else len(data["rows"][0])


@st.composite
def pair_data(draw, min_size: int = 2, max_size: int = 6, positive: bool = False):
    """Two weight vectors on a common number of atoms (sparse ones too unless ``positive``)."""
    n = draw(st.integers(min_size, max_size))
    w = weights(n) if positive else any_weights(n)
    return {"mu": draw(w), "nu": draw(w)}


def pair(data) -> tuple[FiniteDistribution, FiniteDistribution]:
    return distribution(data["mu"]), distribution(data["nu"])


@st.composite
def pair_kernel_data(draw, positive: bool = False, max_inputs: int = 5, slack: bool = False):
    """A pair (μ, ν) on n inputs and a kernel with n rows; with ``slack``, also δ's excess over D_{e^ε}(μ‖ν)."""
    n = draw(st.integers(2, max_inputs))
    w = weights(n) if positive else any_weights(n)
    data = {"mu": draw(w), "nu": draw(w), "K": draw(kernel_data(n, positive))}
    if slack:
        data["slack"] = draw(st.one_of(st.just(0.0), st.floats(0, 1)))
    return data


def kernel_only(max_rows: int = 5, positive: bool = False):
    return st.integers(2, max_rows).flatmap(lambda n: kernel_data(n, positive))


def _pushed(s):
    """(μ, ν, K, μK, νK) from a pair-and-kernel draw."""
    P, Q = pair(s)
    Kt = build_kernel(s["K"])
    return P, Q, Kt, Kt.apply(P), Kt.apply(Q)


# =====================================================================================================================
# Finite helpers that the statements refer to
# =====================================================================================================================


def events(n: int):
    """Every subset of {0, ..., n−1}, as index tuples (2^n of them)."""
    return itertools.chain.from_iterable(itertools.combinations(range(n), k) for k in range(n + 1))


def hs_by_events(P: FiniteDistribution, Q: FiniteDistribution, e) -> mpmath.mpf:
    """sup_E (P(E) − e^ε Q(E)) by brute force over all events (the third form of P §2's display; n ≤ 10)."""
    E = mpmath.exp(to_mpf(e, "eps"))
    return max(mpmath.fsum(P[i] for i in ev) - E * mpmath.fsum(Q[i] for i in ev) for ev in events(len(P)))


def hs_infinity(P: FiniteDistribution, Q: FiniteDistribution) -> mpmath.mpf:
    """D_∞(P‖Q) = P(supp P \\ supp Q) (P footnote 3): the hockey-stick divergence at ε = ∞."""
    return mpmath.fsum(p for p, q in zip(P, Q) if p > 0 and q == 0)


def saturation_level(P: FiniteDistribution, Q: FiniteDistribution) -> mpmath.mpf:
    """max(0, max_{P, Q > 0} log(P/Q)): beyond it D_{e^ε}(P‖Q) no longer depends on ε."""
    logs = [mpmath.log(p / q) for p, q in zip(P, Q) if p > 0 and q > 0]
    return max([mpmath.mpf(0)] + logs)


def min_overlap(P: FiniteDistribution, Q: FiniteDistribution, e) -> mpmath.mpf:
    """∫ p_P ∧ e^ε p_Q (A Lemma 12)."""
    E = mpmath.exp(to_mpf(e, "eps"))
    return mpmath.fsum(min(p, E * q) for p, q in zip(P, Q))


def dobrushin_eps(Kt: MarkovKernel, e) -> mpmath.mpf:
    """γ_Dob(K, ε), with the convention of P footnote 3 at ε = ∞ (D_∞ = mass off the support)."""
    if mpmath.isinf(e):
        return max(hs_infinity(a, b) for a in Kt.rows for b in Kt.rows)
    return Kt.dobrushin_eps(e)


def eps_tilde(e, d) -> mpmath.mpf:
    """ε̃ = log(1 + (e^ε − 1)/δ) of Theorem 1(2); ∞ when δ = 0 (P footnote 3)."""
    return mpmath.inf if d == 0 else mpmath.log(1 + mpmath.expm1(e) / d)


def mix(a: FiniteDistribution, b: FiniteDistribution, weight) -> FiniteDistribution:
    """(1 − w) a + w b."""
    return FiniteDistribution([(1 - weight) * x + weight * y for x, y in zip(a, b)])


# =====================================================================================================================
# §1 Background (P §2): the hockey-stick divergence, joint convexity, data processing
# =====================================================================================================================

_PAIR_LATEX = r"\mu, \nu \text{ probability vectors on } n \le 6 \text{ atoms (dense or sparse)}"


def _hs_two_ways(p):
    P, Q = pair(p["structure"])
    return hockey_stick(P, Q, p["epsilon"]), hs_by_events(P, Q, p["epsilon"])


DISJOINT = {"mu": [0.6, 0.4, 0, 0], "nu": [0, 0, 0.5, 0.5]}  # μ ⊥ ν: D_{e^ε}(μ‖ν) = 1 for every ε

# P §2, "Divergences": D_{e^ε}(μ‖ν) = ∫[p_μ − e^ε p_ν]_+ dλ = sup_E (μ(E) − e^ε ν(E)). Brute force over 2^n events.
HOCKEY_STICK = Theorem(
    id="balle19.def.hs",
    title="Hockey-stick divergence: sum form equals the supremum over events",
    source=Source(P_SEED, "Section 2, Divergences"),
    statement=sp.Eq(HockeyStick(mu, nu, eps),
                    Sup(_Law(r"\mu(E) - e^{\epsilon}\nu(E)"), _Law(r"E \subseteq \mathbb{X}")), evaluate=False),
    evaluator=_hs_two_ways,
    parameters=(EPS,),
    structure=lambda: pair_data(2, 6),
    structure_latex=_PAIR_LATEX,
    quantity_latex=r"\sum_x [\mu(x) - e^{\epsilon}\nu(x)]_+",
    tight_everywhere=True,
    examples=({"epsilon": 0.5, "structure": DISJOINT},),
)


def _hs_monotone(p):
    P, Q = pair(p["structure"])
    return hockey_stick(P, Q, p["epsilon"] + p["h"]), hockey_stick(P, Q, p["epsilon"])


# P §2: "ε ↦ D_{e^ε}(μ‖ν) is monotonically decreasing" (non-increasing: constant on disjoint supports).
HOCKEY_STICK_MONOTONE = Theorem(
    id="balle19.def.hs.monotone",
    title="Hockey-stick divergence is non-increasing in epsilon",
    source=Source(P_SEED, "Section 2, Divergences"),
    statement=sp.Le(HockeyStick(mu, nu, eps + h), HockeyStick(mu, nu, eps)),
    evaluator=_hs_monotone,
    parameters=(EPS, Param(h, sp.Interval(0, sp.oo), sample=(0, 3))),
    structure=lambda: pair_data(2, 6),
    structure_latex=_PAIR_LATEX,
    tight_at=({"epsilon": 0.5, "h": 2, "structure": DISJOINT},),  # both sides 1: μ ⊥ ν
    notes="Equality exactly where the divergence is flat in epsilon: mu and nu disjoint (value 1), or both sides 0.",
)


def _hs_at_zero(p):
    P, Q = pair(p["structure"])
    return hockey_stick(P, Q, 0), tv(P, Q)


# P §2: D_1 = TV.
HOCKEY_STICK_TV = Theorem(
    id="balle19.def.hs.tv",
    title="Hockey-stick divergence at epsilon = 0 is total variation",
    source=Source(P_SEED, "Section 2, Divergences"),
    statement=sp.Eq(HockeyStick(mu, nu, 0), TV(mu, nu), evaluate=False),
    evaluator=_hs_at_zero,
    structure=lambda: pair_data(2, 6),
    structure_latex=_PAIR_LATEX,
    tight_everywhere=True,
)


def _hs_saturated(p):
    P, Q = pair(p["structure"])
    return hockey_stick(P, Q, saturation_level(P, Q) + p["t"]), hs_infinity(P, Q)


# P footnote 3: D_∞(μ‖ν) = μ(supp μ \ supp ν), the limit ε → ∞. On a finite space the limit is reached: from
# ε_0 = max log(μ/ν) over the common support on, every atom of supp ν contributes [μ − e^ε ν]_+ = 0.
HOCKEY_STICK_LIMIT = Theorem(
    id="balle19.def.hs.limit",
    title="Hockey-stick divergence as epsilon -> oo: the mass off the support",
    source=Source(P_SEED, "Section 3, footnote 3"),
    statement=sp.Eq(sp.Limit(HockeyStick(mu, nu, eps), eps, sp.oo),
                    _Law(r"\mu(\mathrm{supp}\,\mu \setminus \mathrm{supp}\,\nu)"), evaluate=False),
    evaluator=_hs_saturated,
    parameters=(Param(t, sp.Interval(0, sp.oo), sample=(0, 5)),),
    structure=lambda: pair_data(2, 6),
    structure_latex=_PAIR_LATEX + r",\ \epsilon = \epsilon_0 + t,\ \epsilon_0 = \max_{\nu(x) > 0} \log\frac{\mu(x)}"
                                  r"{\nu(x)}",
    tight_everywhere=True,
    examples=({"t": 0, "structure": {"mu": [0.2, 0.3, 0.5], "nu": [0.5, 0.5, 0]}},),
    notes="The witness evaluates at epsilon_0 + t, where the divergence has become constant (finite spaces), so "
          "equality there is the limit.",
)


def _joint_convexity(p):
    s, g, e = p["structure"], p["gamma"], p["epsilon"]
    m1, m2, n1, n2 = (distribution(s[k]) for k in ("mu1", "mu2", "nu1", "nu2"))
    lhs = hockey_stick(mix(m1, m2, g), mix(n1, n2, g), e)
    return lhs, (1 - g) * hockey_stick(m1, n1, e).value + g * hockey_stick(m2, n2, e).value


@st.composite
def four_vectors(draw):
    n = draw(st.integers(2, 6))
    return {k: draw(any_weights(n)) for k in ("mu1", "mu2", "nu1", "nu2")}


_SAME = {"mu1": [0.7, 0.2, 0.1], "mu2": [0.7, 0.2, 0.1], "nu1": [0.1, 0.3, 0.6], "nu2": [0.1, 0.3, 0.6]}

# P §2: every Csiszár divergence is jointly convex; checked for D_{e^ε}. (Rényi divergences of order α > 1 are NOT
# jointly convex in general, only quasi-convex; the paper claims joint convexity for Csiszár divergences only.)
JOINT_CONVEXITY = Theorem(
    id="balle19.fact.jc-dpi",
    title="Joint convexity of the hockey-stick divergence",
    source=Source(P_SEED, "Section 2, Divergences"),
    statement=sp.Le(HockeyStick(_Law(r"(1-\gamma)\mu_1 + \gamma\mu_2"), _Law(r"(1-\gamma)\nu_1 + \gamma\nu_2"), eps),
                    (1 - gamma) * HockeyStick(_Law(r"\mu_1"), _Law(r"\nu_1"), eps)
                    + gamma * HockeyStick(_Law(r"\mu_2"), _Law(r"\nu_2"), eps)),
    evaluator=_joint_convexity,
    parameters=(GAMMA, EPS),
    structure=four_vectors,
    structure_latex=r"\mu_1, \mu_2, \nu_1, \nu_2 \text{ on } n \le 6 \text{ atoms}",
    tight_at=({"gamma": 0.3, "epsilon": 0.4, "structure": _SAME},),  # μ1 = μ2, ν1 = ν2
)


def _dpi(divergence):
    def sides(p):
        P, Q, Kt, PK, QK = _pushed(p["structure"])
        return divergence(PK, QK, p), divergence(P, Q, p)

    return sides


_PERMUTATION = {"mu": [0.5, 0.3, 0.2], "nu": [0.2, 0.2, 0.6],
                "K": {"kind": "dense", "rows": [[0, 1, 0], [0, 0, 1], [1, 0, 0]]}}  # a bijection: equality
_PK_LATEX = r"\mu, \nu \text{ on } n \le 5 \text{ inputs},\ K \text{ a random } n \times m \text{ Markov kernel}"

# P §2: the data processing inequality D(μK‖νK) ≤ D(μ‖ν), for D_{e^ε}.
DATA_PROCESSING = Theorem(
    id="balle19.fact.jc-dpi.dpi",
    title="Data processing inequality for the hockey-stick divergence",
    source=Source(P_SEED, "Section 2, Divergences"),
    statement=sp.Le(HockeyStick(muK, nuK, eps), HockeyStick(mu, nu, eps)),
    evaluator=_dpi(lambda P, Q, p: hockey_stick(P, Q, p["epsilon"])),
    parameters=(EPS,),
    structure=pair_kernel_data,
    structure_latex=_PK_LATEX,
    tight_at=({"epsilon": 0.2, "structure": _PERMUTATION},),
)

# P §2: "Rényi divergences ... also satisfy the data processing inequality". Positive pairs (finite divergences).
DATA_PROCESSING_RENYI = Theorem(
    id="balle19.fact.jc-dpi.renyi",
    title="Data processing inequality for the Renyi divergence",
    source=Source(P_SEED, "Section 2, Divergences"),
    statement=sp.Le(Renyi(muK, nuK, alpha), Renyi(mu, nu, alpha)),
    evaluator=_dpi(lambda P, Q, p: renyi(P, Q, p["alpha"])),
    parameters=(ALPHA,),
    structure=lambda: pair_kernel_data(positive=True),
    structure_latex=_PK_LATEX,
    tight_at=({"alpha": 3, "structure": _PERMUTATION},),
)

# =====================================================================================================================
# §2 Definition 1: the four mixing coefficients, against their definitions
# =====================================================================================================================

_K_LATEX = r"K \text{ a random } n \times m \text{ Markov kernel},\ n \le 5,\ m \le 6"
_KX = _Law(r"x, x'")


def _dobrushin_by_events(p):
    Kt = build_kernel(p["structure"])
    return Kt.dobrushin(), max(hs_by_events(a, b, 0) for a in Kt.rows for b in Kt.rows)


# P Definition 1(1): γ-Dobrushin iff sup_{x,x'} TV(K(x), K(x')) ≤ γ; the smallest γ is that supremum. Checked
# against TV as a supremum over events (independent of symdp.kernels' sum formula).
DEFINITION_1_1 = Theorem(
    id="balle19.def1.1",
    title="Dobrushin coefficient is the supremum of TV between rows",
    source=Source(P_SEED, "Definition 1(1)"),
    statement=sp.Eq(DobrushinCoefficient(K), Sup(TV(_Law("K(x)"), _Law("K(x')")), _KX), evaluate=False),
    evaluator=_dobrushin_by_events,
    structure=kernel_only,
    structure_latex=_K_LATEX,
    quantity_latex=r"\max_{x,x'} \sup_E (K(x)(E) - K(x')(E))",
    tight_everywhere=True,
)


def _dobrushin_eps_by_events(p):
    Kt = build_kernel(p["structure"])
    e = p["epsilon"]
    return Kt.dobrushin_eps(e), max(hs_by_events(a, b, e) for a in Kt.rows for b in Kt.rows)


# P Definition 1(2): (γ, ε)-Dobrushin iff sup_{x,x'} D_{e^ε}(K(x)‖K(x')) ≤ γ.
DEFINITION_1_2 = Theorem(
    id="balle19.def1.2",
    title="(gamma, epsilon)-Dobrushin coefficient is the supremum of the hockey-stick divergence between rows",
    source=Source(P_SEED, "Definition 1(2)"),
    statement=sp.Eq(DobrushinEpsCoefficient(K, eps), Sup(HockeyStick(_Law("K(x)"), _Law("K(x')"), eps), _KX),
                    evaluate=False),
    evaluator=_dobrushin_eps_by_events,
    parameters=(EPS,),
    structure=kernel_only,
    structure_latex=_K_LATEX,
    quantity_latex=r"\max_{x,x'} \sup_E (K(x)(E) - e^{\epsilon} K(x')(E))",
    tight_everywhere=True,
)


def minorisation_gamma(Kt: MarkovKernel, omega: FiniteDistribution) -> mpmath.mpf:
    """The smallest γ with K(x) ≥ (1 − γ)ω for every x: 1 − min_{y: ω(y) > 0} min_x K(x)(y)/ω(y)."""
    return 1 - min(min(r[y] for r in Kt.rows) / w for y, w in enumerate(omega) if w > 0)


def _doeblin_vs_omega(p):
    s = p["structure"]
    Kt = build_kernel(s["K"])
    return minorisation_gamma(Kt, distribution(s["omega"])), Kt.doeblin()


@st.composite
def kernel_and_omega(draw):
    Kd = draw(kernel_only())
    return {"K": Kd, "omega": draw(any_weights(kernel_width(Kd)))}


_DOEBLIN_PINS = (  # ω = the normalised column minima: the minorisation is attained (catalogue def1.3)
    {"structure": {"K": {"kind": "dense", "rows": [[0.5, 0.3, 0.2], [0.2, 0.5, 0.3]]}, "omega": [2, 3, 2]}},
    {"structure": {"K": {"kind": "erasure", "gamma": 0.3, "n": 3}, "omega": [0, 0, 0, 1]}},
)

# P Definition 1(3): γ-Doeblin iff K(x) ≥ (1 − γ)ω for some ω. For each ω the smallest γ is 1 − min_y min_x K/ω;
# no ω does better than the normalised column minima, which attain γ_Doeb(K) = 1 − Σ_y min_x K(x)(y).
DEFINITION_1_3 = Theorem(
    id="balle19.def1.3",
    title="Doeblin coefficient: no minorising distribution beats the normalised column minima",
    source=Source(P_SEED, "Definition 1(3)"),
    statement=sp.Ge(_Law(r"\min\{\gamma : K(x) \ge (1-\gamma)\omega\ \forall x\}"), DoeblinCoefficient(K)),
    evaluator=_doeblin_vs_omega,
    structure=kernel_and_omega,
    structure_latex=_K_LATEX + r",\ \omega \text{ a random distribution on the outputs}",
    tight_at=_DOEBLIN_PINS,
    notes="The coefficient formula is derived in the catalogue, not in the paper: (1-gamma) omega(y) <= min_x K(x)(y) "
          "for all y, summed over y.",
)


def um_by_events(Kt: MarkovKernel) -> mpmath.mpf:
    """1 − min_{x,x',E} K(x)(E)/K(x')(E): ultra-mixing read as K(x)(E) ≥ (1−γ)K(x')(E) for every event E."""
    n = Kt.shape[1]
    ratios = []
    for a in Kt.rows:
        for b in Kt.rows:
            for ev in itertools.islice(events(n), 1, None):
                ratios.append(mpmath.fsum(a[i] for i in ev) / mpmath.fsum(b[i] for i in ev))
    return 1 - min(ratios)


# P Definition 1(4): γ-ultra-mixing iff K(x) ≪ K(x') and dK(x)/dK(x') ≥ 1 − γ, i.e. K(x)(E) ≥ (1 − γ)K(x')(E) for
# every event E. The smallest γ computed over all events agrees with symdp.kernels' atom-wise ratio.
DEFINITION_1_4 = Theorem(
    id="balle19.def1.4",
    title="Ultra-mixing coefficient: atom-wise likelihood ratio equals the event-wise one",
    source=Source(P_SEED, "Definition 1(4)"),
    statement=sp.Eq(UltraMixingCoefficient(K),
                    1 - _Law(r"\min_{x,x',E} \frac{K(x)(E)}{K(x')(E)}"), evaluate=False),
    evaluator=lambda p: (build_kernel(p["structure"]).ultra_mixing(), um_by_events(build_kernel(p["structure"]))),
    structure=lambda: kernel_only(positive=True),
    structure_latex=_K_LATEX + r",\ K > 0",
    tight_everywhere=True,
)

# =====================================================================================================================
# Lemma 9 / Figure 1: implications between the conditions (corrected direction, erratum E4)
# =====================================================================================================================


def erasure(g, n=2) -> dict:
    return {"kind": "erasure", "gamma": g, "n": n}


RR_3_4 = {"kind": "dense", "rows": [[0.75, 0.25], [0.25, 0.75]]}  # binary randomized response, p = 3/4
LOG3 = float(mpmath.log(3))  # ε = log 3: D_3(RR(3/4) rows) = 0 (to the float's rounding of log 3)
E4_COUNTEREXAMPLE = {"epsilon": LOG3, "structure": RR_3_4}


def _coefficients(first, second):
    def sides(p):
        Kt = build_kernel(p["structure"])
        return first(Kt, p), second(Kt, p)

    return sides


def _dob(Kt, p):
    return Kt.dobrushin()


def _dob_eps(Kt, p):
    return Kt.dobrushin_eps(p["epsilon"])


def _doeb(Kt, p):
    return Kt.doeblin()


def _um(Kt, p):
    return Kt.ultra_mixing()


_TIGHT_ERASURE = ({"epsilon": 0.7, "structure": erasure(0.3)}, {"epsilon": 0, "structure": erasure(0.8, 4)})

# A Lemma 9, as printed: "(γ, ε)-Dobrushin implies γ-Dobrushin" — for every γ, i.e. γ_Dob(K) ≤ γ_Dob(K, ε).
# Refuted (catalogue erratum E4): randomized response with p = 3/4 at ε = log 3 is (0, log 3)-Dobrushin, TV = 1/2.
LEMMA_9_PRINTED = Theorem(
    id="balle19.lem9.eps-dobrushin",
    title="Lemma 9 as printed: (gamma, epsilon)-Dobrushin implies gamma-Dobrushin",
    source=Source(A_SEED, "Lemma 9 (proof, first sentence)"),
    statement=sp.Le(DobrushinCoefficient(K), DobrushinEpsCoefficient(K, eps)),
    evaluator=_coefficients(_dob, _dob_eps),
    parameters=(EPS,),
    structure=kernel_only,
    structure_latex=_K_LATEX,
    erratum=Erratum(
        location="A, proof of Lemma 9, first sentence",
        printed=r"(\gamma,\varepsilon)\text{-Dobrushin} \Rightarrow \gamma\text{-Dobrushin, since } "
                r"D_{e^\varepsilon} \le \mathrm{TV}",
        corrected=r"\gamma\text{-Dobrushin} \Rightarrow (\gamma,\varepsilon)\text{-Dobrushin}: "
                  r"\gamma_{\mathrm{Dob}}(K, \varepsilon) \le \gamma_{\mathrm{Dob}}(K)",
        counterexample=E4_COUNTEREXAMPLE,
        corrected_id="balle19.lem9.eps-dobrushin.corrected",
        note="Catalogue erratum E4: the inequality D_{e^eps} <= TV gives the reverse implication. Related "
             "imprecision E15 (P §3: 'Dobrushin's is the weakest among these conditions'): (gamma, eps)-Dobrushin "
             "is weaker still, by the same counterexample.",
    ),
)

# A Lemma 9, corrected first link: γ-Dobrushin ⇒ (γ, ε)-Dobrushin, i.e. γ_Dob(K, ε) ≤ γ_Dob(K).
LEMMA_9_EPS = Theorem(
    id="balle19.lem9.eps-dobrushin.corrected",
    title="Lemma 9, first link corrected: gamma-Dobrushin implies (gamma, epsilon)-Dobrushin",
    source=Source(A_SEED, "Lemma 9"),
    statement=sp.Le(DobrushinEpsCoefficient(K, eps), DobrushinCoefficient(K)),
    evaluator=_coefficients(_dob_eps, _dob),
    parameters=(EPS,),
    structure=kernel_only,
    structure_latex=_K_LATEX,
    tight_at=_TIGHT_ERASURE,
    examples=(E4_COUNTEREXAMPLE,),  # 0 <= 1/2: strict
    notes="Tight on the erasure channel (both coefficients gamma for every epsilon).",
)

# A Lemma 9: γ-Doeblin ⇒ γ-Dobrushin, i.e. γ_Dob(K) ≤ γ_Doeb(K).
LEMMA_9_DOEBLIN = Theorem(
    id="balle19.lem9.doeblin",
    title="Lemma 9: gamma-Doeblin implies gamma-Dobrushin",
    source=Source(A_SEED, "Lemma 9"),
    statement=sp.Le(DobrushinCoefficient(K), DoeblinCoefficient(K)),
    evaluator=_coefficients(_dob, _doeb),
    structure=kernel_only,
    structure_latex=_K_LATEX,
    tight_at=({"structure": erasure(0.3)}, {"structure": erasure(0.55, 4)}),
    notes="Tight on the erasure channel (both coefficients gamma).",
)

# A Lemma 9 (via [12, Lemma 4.1]): γ-ultra-mixing ⇒ γ-Doeblin, i.e. γ_Doeb(K) ≤ γ_um(K) (K > 0 entrywise).
# Equality forces a constant kernel: with m = min K(x,y)/K(x',y), Σ_y min_x K ≥ m Σ_y max_x K ≥ m, and the last
# step is an equality iff all rows coincide (then both coefficients are 0). So the link is tight only in that
# degenerate case; its worst ratio over random kernels is what `verify` reports.
LEMMA_9_ULTRA = Theorem(
    id="balle19.lem9.ultra-mixing",
    title="Lemma 9: gamma-ultra-mixing implies gamma-Doeblin",
    source=Source(A_SEED, "Lemma 9"),
    statement=sp.Le(DoeblinCoefficient(K), UltraMixingCoefficient(K)),
    evaluator=_coefficients(_doeb, _um),
    structure=lambda: kernel_only(positive=True),
    structure_latex=_K_LATEX + r",\ K > 0",
    tight_at=({"structure": {"kind": "constant", "rows": [[1, 1], [1, 1]], "omega": [0.3, 0.7], "s": 1.0}},),
    notes="Equality only for constant kernels (0 = 0), as the comment above shows; otherwise strict. Loose in "
          "general: see the worst ratio.",
)

# =====================================================================================================================
# Table 1: mixing conditions as local DP
# =====================================================================================================================


def _ldp_level(p):
    Kt = build_kernel(p["structure"])
    gamma_ = Kt.dobrushin_eps(p["epsilon"])
    levels = [approximate_max_divergence(a, b, gamma_).value for a in Kt.rows for b in Kt.rows]
    return max(levels), p["epsilon"]


# P Table 1, rows 1–2: γ-Dobrushin ⇔ (0, γ)-LDP and (γ, ε)-Dobrushin ⇔ (ε, γ)-LDP. Checked through an independent
# code path: at δ = γ_Dob(K, ε) the least ε_LDP with every pair (K(x), K(x')) (ε_LDP, δ)-indistinguishable
# (symdp.finite.approximate_max_divergence) is at most ε, with equality unless the extremal pair is flat at ε.
TABLE_1_LDP = Theorem(
    id="balle19.tab1.dobrushin",
    title="Table 1: (gamma, epsilon)-Dobrushin is (epsilon, gamma)-local DP",
    source=Source(P_SEED, "Table 1, rows 1-2"),
    statement=sp.Le(_Law(r"\min\{\epsilon_{\mathrm{LDP}} : K \text{ is } (\epsilon_{\mathrm{LDP}}, "
                         r"\gamma_{\mathrm{Dob}}(K, \epsilon))\text{-LDP}\}"), eps),
    evaluator=_ldp_level,
    parameters=(EPS,),
    structure=lambda: kernel_only(positive=True),
    structure_latex=_K_LATEX + r",\ K > 0",
    tight_at=({"epsilon": 0.4, "structure": RR_3_4}, {"epsilon": 0, "structure": RR_3_4}),
    examples=({"epsilon": 0, "structure": erasure(0.3)},),  # flat: D(K(x)||K(x')) = gamma for every eps, so strict
    notes="epsilon = 0 is row 1 (gamma-Dobrushin = (0, gamma)-LDP). Strict only when the divergence of the "
          "extremal pair is flat in epsilon at the given epsilon.",
)


def _um_log_ratio(p):
    Kt = build_kernel(p["structure"])
    worst = max(max_divergence(a, b).value for a in Kt.rows for b in Kt.rows)
    return mpmath.log(1 / (1 - Kt.ultra_mixing())), worst


# P Table 1, row 4: γ-ultra-mixing ⇔ (log(1/(1−γ)), 0)-LDP: log(1/(1 − γ_um(K))) = max_{x,x'} D_∞(K(x)‖K(x')).
TABLE_1_ULTRA = Theorem(
    id="balle19.tab1.ultra-mixing",
    title="Table 1: gamma-ultra-mixing is (log(1/(1-gamma)), 0)-local DP",
    source=Source(P_SEED, "Table 1, row 4"),
    statement=sp.Eq(sp.log(1 / (1 - UltraMixingCoefficient(K))),
                    Sup(MaxDivergence(_Law("K(x)"), _Law("K(x')")), _KX), evaluate=False),
    evaluator=_um_log_ratio,
    structure=lambda: kernel_only(positive=True),
    structure_latex=_K_LATEX + r",\ K > 0",
    tight_everywhere=True,
)

# P Table 1, row 3: γ-Doeblin ↔ the "blanket condition" (footnote 4): qualitative, no formula. Its content is the
# blanket decomposition K(x) = (1−γ)ω + γK̃(x) with K̃ Markov, checked as proofs.balle19.mixing.BLANKET.


TABLE_1_DOEBLIN = Theorem(
    id="balle19.tab1.doeblin",
    title="Table 1: gamma-Doeblin is the blanket condition",
    source=Source(P_SEED, "Table 1, row 3"),
    statement=sp.Eq(_Law("K(x)"), (1 - gamma) * _Law(r"\omega") + gamma * _Law(r"\tilde K(x)")),
    symbolic_only="the blanket condition is qualitative (Table 1 gives no formula); its decomposition is an identity",
    derivation=BLANKET,
)

# =====================================================================================================================
# Theorem 1 (P), proved as A Theorems 10, 13, 14, 15 — pair form, δ := D_{e^ε}(μ‖ν)
# =====================================================================================================================

_THM1_LATEX = r"\mu, \nu \text{ on } n \le 5 \text{ inputs},\ K \text{ an } n \times m \text{ Markov kernel}"
ERASURE_REFERENCE = {"mu": [0.8, 0.2], "nu": [0.3, 0.7]}  # catalogue thm1.1 / thm1.2 reference pair


def _theorem_10(p):
    P, Q, Kt, PK, QK = _pushed(p["structure"])
    e = p["epsilon"]
    return hockey_stick(PK, QK, e), Kt.dobrushin() * hockey_stick(P, Q, e).value


# P Theorem 1(1) = A Theorem 10 (strong Markov contraction for D_{e^ε}): D_{e^ε}(μK‖νK) ≤ γ_Dob(K)·D_{e^ε}(μ‖ν).
# Tight on the erasure channel for every pair and ε (proofs.balle19.mixing.ERASURE_HS).
THEOREM_1_1 = Theorem(
    id="balle19.thm1.1",
    title="Amplification by a gamma-Dobrushin kernel",
    source=Source(P_SEED, "Theorem 1(1) (proof: A Theorem 10)"),
    statement=sp.Le(HockeyStick(muK, nuK, eps), DobrushinCoefficient(K) * HockeyStick(mu, nu, eps)),
    evaluator=_theorem_10,
    parameters=(EPS,),
    structure=pair_kernel_data,
    structure_latex=_THM1_LATEX,
    tight_at=(  # catalogue thm1.1: γ = 0.3, ε = 0.7 → both sides 0.058762256327657113054
        {"epsilon": 0.7, "structure": {**ERASURE_REFERENCE, "K": erasure(0.3)}},
        {"epsilon": 0.1, "structure": {"mu": [0.5, 0.2, 0.3], "nu": [0.1, 0.6, 0.3], "K": erasure(0.9, 3)}},
    ),
)


def _delta_of(s, P, Q, e) -> mpmath.mpf:
    """δ ≥ θ = D_{e^ε}(μ‖ν): θ + slack·(1 − θ) (the pair is (ε, δ)-DP for every such δ)."""
    theta_ = hockey_stick(P, Q, e).value
    return theta_ + to_mpf(s.get("slack", 0), "slack") * (1 - theta_)


def _theorem_13(p):
    s, e = p["structure"], p["epsilon"]
    P, Q, Kt, PK, QK = _pushed(s)
    d = _delta_of(s, P, Q, e)
    return hockey_stick(PK, QK, e), dobrushin_eps(Kt, eps_tilde(e, d)) * d


RR_09 = {"kind": "dense", "rows": [[0.9, 0.1], [0.1, 0.9]]}

# P Theorem 1(2) = A Theorem 13: if the pair is (ε, δ)-DP (δ ≥ θ = D_{e^ε}(μ‖ν)) then D_{e^ε}(μK‖νK) ≤ γ δ with
# γ = γ_Dob(K, ε̃), ε̃ = log(1 + (e^ε − 1)/δ) (ε̃ = ∞ and D_∞ when δ = 0, footnote 3). δ is drawn from [θ, 1].
THEOREM_1_2 = Theorem(
    id="balle19.thm1.2",
    title="Amplification by a (gamma, epsilon~)-Dobrushin kernel",
    source=Source(P_SEED, "Theorem 1(2) (proof: A Theorem 13)"),
    statement=sp.Le(HockeyStick(muK, nuK, eps), DobrushinEpsCoefficient(K, EPS_TILDE) * delta),
    evaluator=_theorem_13,
    parameters=(EPS,),
    structure=lambda: pair_kernel_data(slack=True),
    structure_latex=_THM1_LATEX + r",\ \delta \in [D_{e^{\epsilon}}(\mu\|\nu), 1]",
    tight_at=(
        {"epsilon": 0.7, "structure": {**ERASURE_REFERENCE, "K": erasure(0.3), "slack": 0}},
        # catalogue thm1.2 reference: binary RR p = 0.9, both sides 0.055324079460038
        {"epsilon": 0.7, "structure": {**ERASURE_REFERENCE, "K": RR_09, "slack": 0}},
        {"epsilon": 1.3, "structure": {"mu": [0.95, 0.05], "nu": [0.1, 0.9], "K": RR_3_4, "slack": 0}},
    ),
    notes="Binary randomized response with binary inputs attains the bound whenever it is positive (catalogue); "
          "the erasure channel attains it for every epsilon~. Theorem 1(1) is loose on RR.",
)


def mixture_decomposition(P: FiniteDistribution, Q: FiniteDistribution, e):
    """A Theorem 13's overlapping mixtures: θ and (μ', ν') with μ = (1−θ)ω + θμ', ν = (1−θ)e^{−ε}ω + (1 − ...)ν'.

    With f = μ ∧ e^ε ν (= (1−θ)ω), μ' = (μ − f)/θ and ν' = (ν − e^{−ε}f)/(1 − (1−θ)e^{−ε}); μ' ⊥ ν'. For θ = 0
    (μ ≤ e^ε ν) there is nothing to decompose: returns (0, None, None).
    """
    E = mpmath.exp(e)
    theta_ = hockey_stick(P, Q, e).value
    if theta_ == 0:
        return theta_, None, None
    # μ − f and ν − f/e^ε, written by cases so that each vanishes exactly off its support (no rounding residue).
    mu_p = FiniteDistribution.normalized([p - E * q if p > E * q else 0 for p, q in zip(P, Q)])
    nu_p = FiniteDistribution.normalized([q - p / E if p < E * q else 0 for p, q in zip(P, Q)])
    return theta_, mu_p, nu_p


def _theorem_13_identity(p):
    s, e = p["structure"], p["epsilon"]
    P, Q, Kt, PK, QK = _pushed(s)
    theta_, mu_p, nu_p = mixture_decomposition(P, Q, e)
    lhs = hockey_stick(PK, QK, e)
    if theta_ == 0:
        return lhs, mpmath.mpf(0)
    return lhs, theta_ * hockey_stick(Kt.apply(mu_p), Kt.apply(nu_p), eps_tilde(e, theta_)).value


theta = sp.Symbol("theta", nonnegative=True)

# A Theorem 13, proof: μ − e^ε ν = θ(μ' − e^{ε̃_θ}ν') (proofs.balle19.mixing.THM13_MIXTURE), pushed through K:
# D_{e^ε}(μK‖νK) = θ D_{e^{ε̃_θ}}(μ'K‖ν'K) with ε̃_θ = log(1 + (e^ε − 1)/θ).
THEOREM_13_MIXTURE = Theorem(
    id="balle19.thm1.2.mixture",
    title="Theorem 13's proof: the overlapping mixture identity pushed through K",
    source=Source(A_SEED, "proof of Theorem 13"),
    statement=sp.Eq(HockeyStick(muK, nuK, eps),
                    theta * HockeyStick(_Law(r"\mu' K"), _Law(r"\nu' K"), EPS_TILDE.subs(delta, theta)),
                    evaluate=False),
    evaluator=_theorem_13_identity,
    parameters=(EPS,),
    structure=pair_kernel_data,
    structure_latex=_THM1_LATEX + r",\ \theta = D_{e^{\epsilon}}(\mu\|\nu)",
    tight_everywhere=True,
)


def _printed_last_line(p):
    s, e = p["structure"], p["epsilon"]
    P, Q, Kt, _, _ = _pushed(s)
    d = _delta_of(s, P, Q, e)
    e_p = eps_tilde(e, d)
    g = dobrushin_eps(Kt, e_p)
    return g * hockey_stick(P, Q, e).value, g * (hs_infinity(P, Q) if mpmath.isinf(e_p) else
                                                 hockey_stick(P, Q, e_p).value)


def _corrected_last_line(p):
    s, e = p["structure"], p["epsilon"]
    P, Q, Kt, PK, QK = _pushed(s)
    d = _delta_of(s, P, Q, e)
    return hockey_stick(PK, QK, e), dobrushin_eps(Kt, eps_tilde(e, d)) * hockey_stick(P, Q, e).value


E5_COUNTEREXAMPLE = {"epsilon": 0.5, "structure": {"mu": [0.7, 0.3], "nu": [0.2, 0.8], "K": erasure(0.4),
                                                   "slack": 0}}
_EPRIME = sp.Symbol("epsilon'", nonnegative=True)

# A Theorem 13, proof, last display as printed: "... ≤ γθ = γD_{e^{ε'}}(μ‖ν)" with θ = D_{e^ε}(μ‖ν) and
# ε' = log(1 + (e^ε − 1)/δ). Refuted (catalogue erratum E5): the erasure channel γ = 0.4, ε = 0.5,
# μ = (0.7, 0.3), ν = (0.2, 0.8) gives γθ = 0.148102298344 but γD_{e^{ε'}}(μ‖ν) = 0.0598328257257.
THEOREM_13_LAST_LINE = Theorem(
    id="balle19.thm1.2.last-line",
    title="Theorem 13's proof, last line as printed: gamma theta = gamma D_{e^{eps'}}(mu || nu)",
    source=Source(A_SEED, "proof of Theorem 13, last display"),
    statement=sp.Eq(gamma * HockeyStick(mu, nu, eps), gamma * HockeyStick(mu, nu, _EPRIME), evaluate=False),
    evaluator=_printed_last_line,
    parameters=(EPS,),
    structure=lambda: pair_kernel_data(slack=True),
    structure_latex=_THM1_LATEX + r",\ \gamma = \gamma_{\mathrm{Dob}}(K, \epsilon'),\ \epsilon' = "
                                  r"\log(1 + (e^{\epsilon}-1)/\delta)",
    erratum=Erratum(
        location="A, proof of Theorem 13, last display",
        printed=r"\le \gamma\theta = \gamma D_{e^{\varepsilon'}}(\mu\|\nu)",
        corrected=r"\le \gamma\theta = \gamma D_{e^{\varepsilon}}(\mu\|\nu) \le \gamma\delta",
        counterexample=E5_COUNTEREXAMPLE,
        corrected_id="balle19.thm1.2.last-line.corrected",
        note="Catalogue erratum E5: theta was defined as D_{e^eps}(mu||nu), not at level eps'. Notation: P calls "
             "the level eps~, A calls it eps'.",
    ),
)

# A Theorem 13, proof, last display corrected: D_{e^ε}(μK‖νK) ≤ γθ = γ D_{e^ε}(μ‖ν), with γ = γ_Dob(K, ε'),
# ε' from any δ ≥ θ. Stronger than Theorem 1(2) (which ends with γδ) when δ > θ; tight on the erasure channel.
THEOREM_13_LAST_LINE_CORRECTED = Theorem(
    id="balle19.thm1.2.last-line.corrected",
    title="Theorem 13's proof, last line corrected: D(mu K || nu K) <= gamma D_{e^eps}(mu || nu)",
    source=Source(A_SEED, "proof of Theorem 13, last display"),
    statement=sp.Le(HockeyStick(muK, nuK, eps), DobrushinEpsCoefficient(K, EPS_TILDE) * HockeyStick(mu, nu, eps)),
    evaluator=_corrected_last_line,
    parameters=(EPS,),
    structure=lambda: pair_kernel_data(slack=True),
    structure_latex=_THM1_LATEX + r",\ \delta \in [D_{e^{\epsilon}}(\mu\|\nu), 1]",
    tight_at=(E5_COUNTEREXAMPLE,
              {"epsilon": 0.5, "structure": {"mu": [0.7, 0.3], "nu": [0.2, 0.8], "K": erasure(0.4), "slack": 0.5}}),
)


def _hs_at_eps_prime(bound_fn, coefficient):
    def sides(p):
        P, Q, Kt, PK, QK = _pushed(p["structure"])
        e = p["epsilon"]
        g, d = coefficient(Kt), hockey_stick(P, Q, e).value
        return hockey_stick(PK, QK, _eps_prime(g, e)), bound_fn(g, d, e)

    return sides


@st.composite
def doeblin_extremal(draw):
    return {"kind": "doeblin-extremal", "gamma": draw(st.floats(0, 1)), "delta": draw(st.floats(0, 1))}


def doeblin_extremal_pair(s, e):
    """Catalogue thm1.3: μ = δ_a, ν = qδ_a + (1−q)δ_b, q = (1−δ)e^{−ε}, through the erasure channel (ω = δ_c)."""
    q = (1 - to_mpf(s["delta"], "delta")) * mpmath.exp(-e)
    P, Q = FiniteDistribution([1, 0]), FiniteDistribution([q, 1 - q])
    Kt = erasure_channel(s["gamma"], 2)
    return P, Q, Kt


def _theorem_14(p):
    s, e = p["structure"], p["epsilon"]
    if s.get("kind") == "doeblin-extremal":
        P, Q, Kt = doeblin_extremal_pair(s, e)
    else:
        P, Q, Kt, _, _ = _pushed(s)
    g, d = Kt.doeblin(), hockey_stick(P, Q, e).value
    return hockey_stick(Kt.apply(P), Kt.apply(Q), _eps_prime(g, e)), _delta_doeblin(g, d, e)


def _extremal(g, d, e):
    return {"epsilon": e, "structure": {"kind": "doeblin-extremal", "gamma": g, "delta": d}}


# P Theorem 1(3) = A Theorem 14: D_{e^{ε'}}(μK‖νK) ≤ δ' = γ(1 − e^{ε'−ε}(1 − δ)), ε' = log(1 + γ(e^ε − 1)),
# γ = γ_Doeb(K). Tight for the one-sided pair condition on the catalogue's extremal instance (exact equality;
# proofs.balle19.mixing.THM14_EXTREMAL); for two-sided (mechanism) pairs the catalogue found it not attained.
THEOREM_1_3 = Theorem(
    id="balle19.thm1.3",
    title="Amplification by a gamma-Doeblin kernel",
    source=Source(P_SEED, "Theorem 1(3) (proof: A Theorem 14)"),
    statement=sp.Le(HockeyStick(muK, nuK, EPS_PRIME), DELTA_PRIME_DOEBLIN),
    evaluator=_theorem_14,
    parameters=(EPS,),
    structure=lambda: st.one_of(pair_kernel_data(), doeblin_extremal()),
    structure_latex=_THM1_LATEX + r",\ \gamma = \gamma_{\mathrm{Doeb}}(K),\ \delta = D_{e^{\epsilon}}(\mu\|\nu)",
    tight_at=(_extremal(0.3, 0.05, 0.7),   # catalogue: 0.1154312318936138018163924 on both sides
              _extremal(0.5, 0, 1)),       # catalogue: 0.1580301397071394196011191 (δ' > 0 although δ = 0)
    notes="Tight for one-sided pairs (the extremal instance violates D_{e^eps}(nu||mu) <= delta); for two-sided "
          "pairs the catalogue's numerical search found at most gamma[delta + (1-delta)(e^eps - e^eps')/(1+e^eps)].",
)


def _remark_sides(p):
    g, d, e = p["gamma"], p["delta"], p["epsilon"]
    return (_delta_doeblin(g, d, e) - d) * mpmath.exp(e), (g - 1) * (d * mpmath.exp(e) - g * mpmath.expm1(e) * (1 - d))


DELTA_PARAM = Param(delta, sp.Interval(0, 1))

# P §3, remark after Theorem 1: Doeblin amplifies δ only if γ ≤ δe^ε/((1−δ)(e^ε−1)). Exact form (catalogue):
# (δ' − δ)e^ε = (γ − 1)(δe^ε − γ(e^ε − 1)(1 − δ)); roots γ = 1 and the threshold (proofs.balle19.mixing.REM_DOEBLIN).
REMARK_DOEBLIN = Theorem(
    id="balle19.thm1.rem-doeblin",
    title="Doeblin amplifies delta only below a threshold: exact factorisation of delta' - delta",
    source=Source(P_SEED, "Section 3, remark after Theorem 1"),
    statement=sp.Eq((DELTA_PRIME_DOEBLIN - delta) * sp.exp(eps),
                    (gamma - 1) * (delta * sp.exp(eps) - gamma * (sp.exp(eps) - 1) * (1 - delta)), evaluate=False),
    evaluator=_remark_sides,
    parameters=(GAMMA, DELTA_PARAM, EPS),
    tight_everywhere=True,
    notes="Symbolic proof: proofs.balle19.mixing.REM_DOEBLIN; the threshold root: REM_DOEBLIN_THRESHOLD.",
)

# P §3: "in the results above we always have ε' ≤ ε" (1 + γ(e^ε − 1) ≤ e^ε); equality at γ = 1 or ε = 0.
REMARK_EPS_PRIME = Theorem(
    id="balle19.thm1.rem-doeblin.eps",
    title="The amplified epsilon' = log(1 + gamma(e^eps - 1)) never exceeds epsilon",
    source=Source(P_SEED, "Section 3, remark after Theorem 1"),
    statement=sp.Le(EPS_PRIME, eps),
    evaluator=lambda p: (_eps_prime(p["gamma"], p["epsilon"]), p["epsilon"]),
    parameters=(GAMMA, EPS),
    tight_at=({"gamma": 1, "epsilon": 1.7},),
    notes="Symbolic proof: proofs.balle19.mixing.EPS_PRIME_LE_EPS.",
)

# P Theorem 1(4) = A Theorem 15: D_{e^{ε'}}(μK‖νK) ≤ γδe^{ε'−ε}, γ = γ_um(K) (K > 0). LOOSE in every
# non-degenerate case (catalogue): the draws report the worst ratio. Draws with δ = 0 are 0 ≤ 0.
THEOREM_1_4 = Theorem(
    id="balle19.thm1.4",
    title="Amplification by a gamma-ultra-mixing kernel",
    source=Source(P_SEED, "Theorem 1(4) (proof: A Theorem 15)"),
    statement=sp.Le(HockeyStick(muK, nuK, EPS_PRIME), DELTA_PRIME_ULTRA),
    evaluator=_hs_at_eps_prime(_delta_ultra, lambda Kt: Kt.ultra_mixing()),
    parameters=(EPS,),
    structure=lambda: pair_kernel_data(positive=True),
    structure_latex=_THM1_LATEX + r",\ K > 0,\ \gamma = \gamma_{\mathrm{um}}(K),\ \delta = D_{e^{\epsilon}}(\mu\|\nu)",
    notes="Loose (catalogue): no instance attains delta' when 0 < gamma < 1, eps > 0; for delta = 0 both sides are "
          "0 and the looseness is in epsilon' (balle19.thm1.4.pure, balle19.thm1.4.sharp).",
)


def _pure_sides(bound):
    def sides(p):
        s = p["structure"]
        if s.get("kind") == "sharp-extremal":
            P, Q, Kt = sharp_extremal(s)
        else:
            P, Q, Kt, _, _ = _pushed(s)
        e, g = max_divergence(P, Q).value, Kt.ultra_mixing()
        return max_divergence(Kt.apply(P), Kt.apply(Q)), bound(g, e)

    return sides


def sharp_extremal(s):
    """Catalogue thm1.4: μ = (1, 0), ν = (e^{−ε}, 1 − e^{−ε}), K = [[1, 1−γ], [1−γ, 1]]/(2 − γ) (γ_um(K) = γ)."""
    g, e = to_mpf(s["gamma"], "gamma"), to_mpf(s["epsilon"], "epsilon")
    E = mpmath.exp(-e)
    P, Q = FiniteDistribution([1, 0]), FiniteDistribution([E, 1 - E])
    Kt = MarkovKernel([[1 / (2 - g), (1 - g) / (2 - g)], [(1 - g) / (2 - g), 1 / (2 - g)]])
    return P, Q, Kt


@st.composite
def sharp_extremal_data(draw):
    return {"kind": "sharp-extremal", "gamma": draw(st.floats(0, 0.99)), "epsilon": draw(st.floats(0.01, 3))}


def _sharp(g, e):
    return {"structure": {"kind": "sharp-extremal", "gamma": g, "epsilon": e}}


_PURE_LATEX = _THM1_LATEX + r",\ K > 0,\ \gamma = \gamma_{\mathrm{um}}(K),\ \epsilon = D_{\infty}(\mu\|\nu)"
_PURE_STRUCTURE = lambda: st.one_of(pair_kernel_data(positive=True), sharp_extremal_data())  # noqa: E731

# P Theorem 1(4) at δ = 0, in pure form: a pair with D_∞(μ‖ν) = ε gives D_∞(μK‖νK) ≤ ε' = log(1 + γ(e^ε − 1)).
# Loose: the exact supremum is ε* < ε' (balle19.thm1.4.sharp); the draws report the worst ratio ε*/ε'-like.
THEOREM_1_4_PURE = Theorem(
    id="balle19.thm1.4.pure",
    title="Ultra-mixing amplification for pure DP (delta = 0)",
    source=Source(P_SEED, "Theorem 1(4), delta = 0"),
    statement=sp.Le(MaxDivergence(muK, nuK), EPS_PRIME),
    evaluator=_pure_sides(_eps_prime),
    structure=_PURE_STRUCTURE,
    structure_latex=_PURE_LATEX,
    examples=(_sharp(0.5, 1),),  # catalogue: eps* = 0.37988549304172247537 vs eps' = 0.62011450695827752463
    notes="Loose for 0 < gamma < 1, eps > 0: the exact supremum is eps* (balle19.thm1.4.sharp).",
)

# Catalogue thm1.4 (derived there, re-derived in proofs.balle19.mixing): the exact δ = 0 supremum over γ-ultra-
# mixing K of the output privacy loss is ε* = log(e^ε/(1 + (1−γ)(e^ε − 1))) < ε'. Each column of K lies in
# [m_y, m_y/(1−γ)]; the ratio (μK)(y)/(νK)(y) is linear-fractional in the column, maximal at a vertex (a set S of
# inputs at the top), where it is (1 + μ(S)c)/(1 + ν(S)c), c = γ/(1−γ), with ν(S) ≥ e^{−ε}μ(S): at most
# (1 + c)/(1 + e^{−ε}c) = e^{ε*} (μ(S) = 1). Attained by the extremal instance of sharp_extremal.
THEOREM_1_4_SHARP = Theorem(
    id="balle19.thm1.4.sharp",
    title="Ultra-mixing amplification for pure DP: the exact supremum epsilon*",
    source=Source(P_SEED, "Theorem 1(4), delta = 0 (sharp form derived in the catalogue)"),
    statement=sp.Le(MaxDivergence(muK, nuK), EPS_STAR),
    evaluator=_pure_sides(_eps_star),
    structure=_PURE_STRUCTURE,
    structure_latex=_PURE_LATEX,
    tight_at=(_sharp(0.5, 1),   # catalogue: 0.37988549304172247537
              _sharp(0.3, 2)),  # catalogue: 0.30029382064203496835
    notes="Not in the paper. Proof sketch in the module comment; identities in proofs.balle19.mixing "
          "(SHARP_VERTEX, SHARP_GAP, SHARP_EXTREMAL).",
)

# =====================================================================================================================
# Lemmas 11, 12, advanced joint convexity, eq. (5)
# =====================================================================================================================


@st.composite
def disjoint_inputs(draw):
    """A kernel on n inputs and two weight vectors a, b with disjoint supports (roles 1 = supp a, 2 = supp b)."""
    n = draw(st.integers(2, 5))
    roles = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n).filter(lambda r: 1 in r and 2 in r))
    return {"K": draw(kernel_data(n)), "roles": roles, "a": draw(weights(n)), "b": draw(weights(n))}


def _lemma_11(p):
    s, e = p["structure"], p["epsilon"]
    Kt = build_kernel(s["K"])
    A = distribution([w if r == 1 else 0 for w, r in zip(s["a"], s["roles"])])
    B = distribution([w if r == 2 else 0 for w, r in zip(s["b"], s["roles"])])
    return hockey_stick(Kt.apply(A), Kt.apply(B), e), Kt.dobrushin_eps(e)


RR_08 = {"kind": "dense", "rows": [[0.8, 0.2], [0.2, 0.8]]}

# A Lemma 11: if K is (γ, ε)-Dobrushin then sup_{μ⊥ν} D_{e^ε}(μK‖νK) ≤ γ; checked with γ = γ_Dob(K, ε). Tight at
# point masses on the maximising pair of inputs.
LEMMA_11 = Theorem(
    id="balle19.lem11",
    title="Disjoint inputs: the (gamma, epsilon)-Dobrushin coefficient bounds every output divergence",
    source=Source(A_SEED, "Lemma 11"),
    statement=sp.Le(HockeyStick(muK, nuK, eps), DobrushinEpsCoefficient(K, eps)),
    evaluator=_lemma_11,
    parameters=(EPS,),
    structure=disjoint_inputs,
    structure_latex=r"\mu \perp \nu \text{ on } n \le 5 \text{ inputs},\ K \text{ an } n \times m \text{ kernel}",
    tight_at=({"epsilon": 0.3, "structure": {"K": RR_08, "roles": [1, 2], "a": [1, 1], "b": [1, 1]}},
              {"epsilon": 1.1, "structure": {"K": erasure(0.6, 3), "roles": [1, 0, 2], "a": [1, 1, 1],
                                             "b": [1, 1, 1]}}),
)


def _lemma_12(p):
    P, Q = pair(p["structure"])
    return hockey_stick(P, Q, p["epsilon"]), 1 - min_overlap(P, Q, p["epsilon"])


# A Lemma 12: D_{e^ε}(μ‖ν) = 1 − ∫(p_μ ∧ e^ε p_ν) dλ (pointwise identity: proofs.balle19.mixing.HS_ATOM_*).
LEMMA_12 = Theorem(
    id="balle19.lem12",
    title="Hockey-stick divergence as one minus the overlap",
    source=Source(A_SEED, "Lemma 12"),
    statement=sp.Eq(HockeyStick(mu, nu, eps), 1 - _Law(r"\int (p_\mu \wedge e^{\epsilon} p_\nu)\, d\lambda"),
                    evaluate=False),
    evaluator=_lemma_12,
    parameters=(EPS,),
    structure=lambda: pair_data(2, 8),
    structure_latex=_PAIR_LATEX,
    tight_everywhere=True,
)


@st.composite
def three_vectors(draw):
    n = draw(st.integers(2, 6))
    return {k: draw(any_weights(n)) for k in ("omega", "mu1", "nu1")}


def _ajc(p):
    s, g, e = p["structure"], p["gamma"], p["epsilon"]
    om, m1, n1 = (distribution(s[k]) for k in ("omega", "mu1", "nu1"))
    e_p = _eps_prime(g, e)
    beta_ = mpmath.exp(e_p - e)
    return (hockey_stick(mix(om, m1, g), mix(om, n1, g), e_p),
            g * hockey_stick(m1, mix(om, n1, beta_), e).value)


# Advanced joint convexity ([2, Thm 2], used in A Theorems 14, 15), as an identity: with e^{ε'} = 1 + γ(e^ε − 1),
# β = e^{ε'−ε}: D_{e^{ε'}}((1−γ)ω + γμ1‖(1−γ)ω + γν1) = γ D_{e^ε}(μ1‖(1−β)ω + βν1) (proofs.balle19.mixing.AJC).
ADVANCED_JOINT_CONVEXITY = Theorem(
    id="balle19.ajc",
    title="Advanced joint convexity of the hockey-stick divergence (identity)",
    source=Source(A_SEED, "proofs of Theorems 14 and 15 (citing [2, Theorem 2])"),
    statement=sp.Eq(HockeyStick(_Law(r"(1-\gamma)\omega + \gamma\mu_1"), _Law(r"(1-\gamma)\omega + \gamma\nu_1"),
                                EPS_PRIME),
                    gamma * HockeyStick(_Law(r"\mu_1"), _Law(r"(1-\beta)\omega + \beta\nu_1"), eps), evaluate=False),
    evaluator=_ajc,
    parameters=(GAMMA, EPS),
    structure=three_vectors,
    structure_latex=r"\omega, \mu_1, \nu_1 \text{ on } n \le 6 \text{ atoms},\ \beta = e^{\epsilon' - \epsilon}",
    tight_everywhere=True,
)


# --- eq. (5): exact rational arithmetic ------------------------------------------------------------------------------
def _fractions(ws) -> list[Fraction]:
    total = sum(Fraction(w) for w in ws)
    return [Fraction(w) / total for w in ws]


def eq5_objects(s):
    """A Theorem 15's construction in exact rationals: K, γ, μ, ν, ω̃, ω = ω̃K and K̃ = (K − (1−γ)K_ω)/γ.

    γ = γ_um(K) + extra·(1 − γ_um(K)) (any γ ≥ γ_um(K) makes K γ-ultra-mixing); needs a non-constant K.
    """
    Km = [_fractions(r) for r in s["K"]]
    um = 1 - min(a[y] / b[y] for a in Km for b in Km for y in range(len(a)))
    if um == 0:
        raise InvalidParameter("eq. (5) needs a non-constant kernel (gamma_um(K) > 0)")
    g = um + Fraction(s["extra"], 4) * (1 - um)
    m, n_ = _fractions(s["mu"]), _fractions(s["nu"])
    a = Fraction(s["alpha"], 10)
    wt = [(1 - a) * x + a * y for x, y in zip(m, n_)]
    cols = range(len(Km[0]))
    push = lambda v, M: [sum(v[x] * M[x][y] for x in range(len(v))) for y in cols]  # noqa: E731
    omega = push(wt, Km)
    Kt = [[(Km[x][y] - (1 - g) * omega[y]) / g for y in cols] for x in range(len(Km))]
    return {"K": Km, "gamma": g, "mu": m, "omega_tilde": wt, "omega": omega, "K_tilde": Kt, "push": push}


def _eq5_residual(p):
    o = eq5_objects(p["structure"])
    r = max(abs(u - v) for u, v in zip(o["push"](o["omega_tilde"], o["K_tilde"]), o["omega"]))
    return to_mpf(r), mpmath.mpf(0)


def _eq5_min_entry(p):
    o = eq5_objects(p["structure"])
    rows = o["K_tilde"]
    assert all(sum(r) == 1 for r in rows), "K~ rows must sum to 1"
    return to_mpf(min(min(r) for r in rows)), mpmath.mpf(0)


def _eq5_mixture(p):
    o = eq5_objects(p["structure"])
    g = o["gamma"]
    muK_, muKt = o["push"](o["mu"], o["K"]), o["push"](o["mu"], o["K_tilde"])
    return to_mpf(max(abs(u - ((1 - g) * w + g * v)) for u, w, v in zip(muK_, o["omega"], muKt))), mpmath.mpf(0)


@st.composite
def eq5_data(draw):
    """Integer weights (exact rationals): a non-constant positive kernel, μ, ν, α = k/10, γ's excess k/4."""
    n, m = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    row = st.lists(st.integers(1, 9), min_size=m, max_size=m)
    Km = draw(st.lists(row, min_size=n, max_size=n).filter(lambda K: len({tuple(_fractions(r)) for r in K}) > 1))
    vec = st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(lambda v: sum(v) > 0)
    return {"K": Km, "mu": draw(vec), "nu": draw(vec), "alpha": draw(st.integers(0, 10)),
            "extra": draw(st.integers(0, 4))}


EQ5_EXAMPLE = {"K": [[2, 1, 1], [1, 2, 1], [1, 1, 2]], "mu": [1, 0, 0], "nu": [0, 1, 1], "alpha": 0, "extra": 0}
_EQ5_LATEX = (r"K > 0 \text{ rational, non-constant},\ \gamma \ge \gamma_{\mathrm{um}}(K),\ \tilde\omega = (1-\alpha)"
              r"\mu + \alpha\nu,\ \omega = \tilde\omega K,\ \tilde K = (K - (1-\gamma)K_\omega)/\gamma")
_Kt = _Law(r"\tilde K")

# A Theorem 15, eq. (5): ω̃K̃ = (ω̃K − (1−γ)ω̃K_ω)/γ = ω. Exact rationals (proofs.balle19.mixing.EQ5 symbolically).
EQ_5 = Theorem(
    id="balle19.eq5",
    title="Eq. (5): the mixture kernel K~ maps omega~ to omega",
    source=Source(A_SEED, "proof of Theorem 15, eq. (5)"),
    statement=sp.Eq(SupNorm(_Law(r"\tilde\omega\tilde K") - _Law(r"\omega")), 0, evaluate=False),
    evaluator=_eq5_residual,
    structure=eq5_data,
    structure_latex=_EQ5_LATEX,
    tight_everywhere=True,
    examples=({"structure": EQ5_EXAMPLE},),
)

# A Theorem 15: K̃ is a Markov operator (rows sum to 1, asserted in the witness; entries ≥ 0) when K is γ-ultra-
# mixing. An entry is 0 when ω̃ is a point mass at an input x' with K(x, y) = (1−γ)K(x', y): EQ5_EXAMPLE, γ = 1/2.
EQ_5_NONNEGATIVE = Theorem(
    id="balle19.eq5.nonnegative",
    title="Eq. (5): K~ is a Markov kernel (non-negative entries)",
    source=Source(A_SEED, "proof of Theorem 15"),
    statement=sp.Ge(MinEntry(_Kt), 0),
    evaluator=_eq5_min_entry,
    structure=eq5_data,
    structure_latex=_EQ5_LATEX,
    tight_at=({"structure": EQ5_EXAMPLE},),
)

# A Theorem 15: the mixture decomposition μK = (1−γ)ω + γμK̃ (printed "μK̃ = (1−γ)ω + γμK̃": typo E6, a FACT in
# proofs.balle19.mixing, not a refuted theorem — it has no numeric content beyond this corrected identity).
EQ_5_MIXTURE = Theorem(
    id="balle19.eq5.mixture",
    title="Theorem 15's proof: mu K = (1 - gamma) omega + gamma mu K~",
    source=Source(A_SEED, "proof of Theorem 15 (mixture decompositions)"),
    statement=sp.Eq(SupNorm(muK - (1 - gamma) * _Law(r"\omega") - gamma * _Law(r"\mu\tilde K")), 0, evaluate=False),
    evaluator=_eq5_mixture,
    structure=eq5_data,
    structure_latex=_EQ5_LATEX,
    tight_everywhere=True,
    examples=({"structure": EQ5_EXAMPLE},),
    notes="Printed (typo E6): 'mu K~ = (1 - gamma) omega + gamma mu K~' and the same for nu; read mu K, nu K on the "
          "left. Also, alpha = 0 (omega = mu K) may be taken directly: ultra-mixing gives K(x) >= (1-gamma) omega~ K "
          "for every x, so the limit alpha -> 0 in the proof is unnecessary (catalogue).",
)

THEOREMS = [
    HOCKEY_STICK, HOCKEY_STICK_MONOTONE, HOCKEY_STICK_TV, HOCKEY_STICK_LIMIT,
    JOINT_CONVEXITY, DATA_PROCESSING, DATA_PROCESSING_RENYI,
    DEFINITION_1_1, DEFINITION_1_2, DEFINITION_1_3, DEFINITION_1_4,
    LEMMA_9_PRINTED, LEMMA_9_EPS, LEMMA_9_DOEBLIN, LEMMA_9_ULTRA,
    TABLE_1_LDP, TABLE_1_DOEBLIN, TABLE_1_ULTRA,
    THEOREM_1_1, THEOREM_1_2, THEOREM_13_MIXTURE, THEOREM_13_LAST_LINE, THEOREM_13_LAST_LINE_CORRECTED,
    THEOREM_1_3, REMARK_DOEBLIN, REMARK_EPS_PRIME, THEOREM_1_4, THEOREM_1_4_PURE, THEOREM_1_4_SHARP,
    LEMMA_11, LEMMA_12, ADVANCED_JOINT_CONVEXITY, EQ_5, EQ_5_NONNEGATIVE, EQ_5_MIXTURE,
]
