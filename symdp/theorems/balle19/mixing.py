"""Balle et al. (NeurIPS 2019), Section 3: amplification from uniform mixing, with the background of Section 2
(main text: §2, Definition 1, Table 1, Theorem 1; appendix: Lemmas 9, 11, 12, Theorems 10, 13, 14, 15, eq. (5)).

Everything is finite: probability vectors and row-stochastic matrices (:class:`~symdp.engine.kernels.MarkovKernel`),
drawn as plain weight lists and built by the settings below *exactly*, in rationals (each drawn weight the decimal it
prints as, normalised by their exact sum; a drawn parameter every bit of the number the checker reads; mixtures and
kernels formed exactly): a measurement
of such laws, at a drawn level or at an interval that holds the statement's level, encloses the quantity of the
draw itself, and is marked :class:`~symdp.statement.BuiltExactly` (:func:`built_from`). Only laws that need a
transcendental number (e^{-ε} in the extremal pairs, e^ε in Theorem 13's decomposition, β in advanced joint
convexity) are rounded to the working precision. Each amplification result is
checked on one pair (μ, ν) = (M(D), M(D')) with δ := D_{e^ε}(μ‖ν) (the one-sided pair condition the proofs use) and γ
the kernel's smallest valid coefficient; the identities are proved by :mod:`symdp.proofs.balle19.mixing`.

>>> import mpmath
>>> with mpmath.workdps(30):
...     K_ = erasure_channel(mpmath.mpf("0.3"), 2)
...     print(K_.dobrushin().value, K_.doeblin().value)
0.3 0.3
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import replace
from fractions import Fraction

import mpmath
import sympy as sp
from flint import arb, fmpq
from hypothesis import strategies as st

from symdp.engine.divergences import divergence, mixture
from symdp.engine.finite import FiniteDistribution as FD
from symdp.engine.finite import given_rational, to_mpf
from symdp.engine.kernels import MarkovKernel, hockey_stick_at
from symdp.errors import InvalidParameter
from symdp.estimate import (Estimate, Method, as_estimate, enclosure, exact_ball, in_balls, mpf_down, mpf_of,
                            mpf_up)
from symdp.expressions import TV, HockeyStick, MaxDivergence, Renyi, Winf, quantity
from symdp.proofs.balle19.mixing import BLANKET, EQ5, EQ5_MIXTURE, HS_TV, REM_DOEBLIN, TAB1_ULTRA
from symdp.proofs.balle19.mixing import LEMMA_12 as LEMMA_12_PROOF
from symdp.strategies import flatmapped, weights
from symdp.symbols import K, alpha, delta, epsilon, epsilon_p, gamma, h, t, theta
from symdp.statement import BuiltExactly, lambdify_arb
from symdp.theorem import (CLOSED_FORM, IDENTITY, Param, Printed, Setting, declare, lambdify_mpmath, registered,
                           theorem)
from symdp.theorems.balle19.common import Law, exact_weights

# --- symbols, parameters, heads --------------------------------------------------------------------------------------
epsilon_0 = sp.Symbol("epsilon_0", nonnegative=True)  # the saturation level of a finite pair (def.hs.limit)

# Every law and kernel row drawn here has at most 8 atoms with weights 0 or in [0.01, 1] (integers 1..9 for the exact
# couplings), so every likelihood ratio between two of them, where finite, is at most 100 * 8: from eps = log(800) <
# 6.7 on every hockey stick of a drawn pair is its value at eps = oo (the mass off the support, balle19.def.hs.limit).
_SATURATED = ("beyond 8 (e^8 > 2900) every finite likelihood ratio of the drawn laws and kernel rows (at most 8 atoms, "
              "weights 0 or >= 0.01: ratios <= 800) is exceeded, so every hockey stick of the statement is its eps = "
              "oo value, the mass off the support (balle19.def.hs.limit); eps' and e^eps in the bounds converge as "
              "eps -> oo")
EPS = Param(epsilon, sp.Interval(0, sp.oo), sample=(0, 3),
            limit="Theorem 1(4)'s range as audited there: its worst ratio lives at eps = 0 (pinned; see its comment), "
                  "and past the saturation level of the drawn laws (< log 800) every hockey stick is its eps = oo value")
EPS_WIDE = Param(epsilon, sp.Interval(0, sp.oo), sample=(0, 8), limit=_SATURATED)
GAMMA = Param(gamma, sp.Interval(0, 1))
ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.01, 1000), log=True,
              limit="alpha -> oo: both sides tend to their max divergences (finite at the positive laws drawn), reached "
                    "to 1000 on a log scale")
H = Param(h, sp.Interval(0, sp.oo), sample=(0, 8), limit=_SATURATED.replace("eps", "eps + h", 1))
T = Param(t, sp.Interval(0, sp.oo), sample=(0, 5),
          limit="t is the level above the saturation eps_0 of the drawn pair, where the hockey stick is constant in t "
                "(a finite sum of [mu - e^(eps_0 + t) nu]_+ whose atoms with nu > 0 are all 0); t = 0 is pinned")

EPS_PRIME = sp.log(1 + gamma * (sp.exp(epsilon) - 1))  # Theorem 1(3), (4)
EPS_TILDE = sp.log(1 + (sp.exp(epsilon) - 1) / delta)  # Theorem 1(2)
DELTA_PRIME_DOEBLIN = gamma * (1 - sp.exp(EPS_PRIME - epsilon) * (1 - delta))  # Theorem 1(3)
DELTA_PRIME_ULTRA = gamma * delta * sp.exp(EPS_PRIME - epsilon)  # Theorem 1(4)
EPS_STAR = sp.log(sp.exp(epsilon) / (1 + (1 - gamma) * (sp.exp(epsilon) - 1)))  # catalogue: the exact δ = 0 sup
BETA = sp.exp(EPS_PRIME - epsilon)  # advanced joint convexity

# The levels at which a witness measures a divergence are the statement's own expressions, evaluated (in Arb where
# the level is a ball: from a drawn ε and a measured γ or δ).
_eps_tilde = lambdify_mpmath((epsilon, delta), EPS_TILDE)
_eps_prime_arb = lambdify_arb((gamma, epsilon), EPS_PRIME)
_eps_tilde_arb = lambdify_arb((epsilon, delta), EPS_TILDE)
_beta = lambdify_mpmath((gamma, epsilon), BETA)

mu, nu, omega = Law(r"\mu"), Law(r"\nu"), Law(r"\omega")
muK, nuK = Law(r"\mu K"), Law(r"\nu K")

DobrushinCoefficient = quantity(
    "DobrushinCoefficient", 1, r"\gamma_{{\mathrm{{Dob}}}}\left({0}\right)",
    "sup_{x,x'} TV(K(x), K(x')), the smallest gamma of Definition 1(1)", nonnegative=True)
DobrushinEpsCoefficient = quantity(
    "DobrushinEpsCoefficient", 2, r"\gamma_{{\mathrm{{Dob}}}}\left({0}, {1}\right)",
    "sup_{x,x'} D_{e^eps}(K(x)||K(x')), the smallest gamma of Definition 1(2); arguments (K, eps)", nonnegative=True)
DoeblinCoefficient = quantity(
    "DoeblinCoefficient", 1, r"\gamma_{{\mathrm{{Doeb}}}}\left({0}\right)",
    "1 - sum_y min_x K(x)(y), the smallest gamma of Definition 1(3)", nonnegative=True)
UltraMixingCoefficient = quantity(
    "UltraMixingCoefficient", 1, r"\gamma_{{\mathrm{{um}}}}\left({0}\right)",
    "1 - min_{x,x',y} K(x)(y)/K(x')(y), the smallest gamma of Definition 1(4)", nonnegative=True)
HockeyStickByEvents = quantity(
    "HockeyStickByEvents", 3, r"\sup_{{E}} \left({0}(E) - e^{{{2}}} {1}(E)\right)",
    "sup_E (P(E) - e^eps Q(E)) over all events, by brute force", nonnegative=True)
RowsTVByEvents = quantity(
    "RowsTVByEvents", 1, r"\max_{{x, x'}} \sup_{{E}} \left({0}(x)(E) - {0}(x')(E)\right)",
    "the largest TV between rows, each TV as the supremum over events", nonnegative=True)
RowsHockeyStickByEvents = quantity(
    "RowsHockeyStickByEvents", 2, r"\max_{{x, x'}} \sup_{{E}} \left({0}(x)(E) - e^{{{1}}} {0}(x')(E)\right)",
    "the largest hockey-stick divergence between rows, each as the supremum over events", nonnegative=True)
MinorisationLevel = quantity(
    "MinorisationLevel", 2, r"\min\left\{{\gamma : {0}(x) \ge (1-\gamma)\,{1}\ \forall x\right\}}",
    "the smallest gamma with K(x) >= (1 - gamma) omega for every x, for one given omega")
MinEventRatio = quantity(
    "MinEventRatio", 1, r"\min_{{x, x', E}} \frac{{{0}(x)(E)}}{{{0}(x')(E)}}",
    "the smallest ratio K(x)(E)/K(x')(E) over rows and non-empty events", nonnegative=True)
LDPLevel = quantity(
    "LDPLevel", 2, r"\min\left\{{\epsilon_{{\mathrm{{LDP}}}} : {0} \text{{ is }} \left(\epsilon_{{\mathrm{{LDP}}}}, "
                   r"\gamma_{{\mathrm{{Dob}}}}({0}, {1})\right)\text{{-LDP}}\right\}}",
    "the smallest eps_LDP >= 0 with K(x)(E) <= e^eps_LDP K(x')(E) + gamma_Dob(K, eps) for all rows and events")
OffSupportMass = quantity(
    "OffSupportMass", 2, r"{0}\left(\mathrm{{supp}}\,{0} \setminus \mathrm{{supp}}\,{1}\right)",
    "P(supp P minus supp Q): the hockey-stick divergence at eps = oo (P footnote 3)", nonnegative=True)
RowsMaxDivergence = quantity(
    "RowsMaxDivergence", 1, r"\sup_{{x, x'}} D_{{\infty}}\left({0}(x) \,\middle\|\, {0}(x')\right)",
    "the largest max divergence between rows (printed only: Table 1's ultra-mixing row is an identity)")
MinRatioToOmega = quantity(
    "MinRatioToOmega", 2, r"\min_{{x, y}} \frac{{{0}(x, y)}}{{{1}(y)}}",
    "min_{x,y} K(x, y)/omega(y), exactly in rationals", nonnegative=True)

DOB, DOEB, UM = DobrushinCoefficient(K), DoeblinCoefficient(K), UltraMixingCoefficient(K)
DOB_EPS = DobrushinEpsCoefficient(K, epsilon)
DOB_TILDE = DobrushinEpsCoefficient(K, EPS_TILDE)
HS_PAIR, HS_OUT = HockeyStick(mu, nu, epsilon), HockeyStick(muK, nuK, epsilon)
HS_OUT_AT_EPS_PRIME = HockeyStick(muK, nuK, EPS_PRIME)
MAX_OUT = MaxDivergence(muK, nuK)


def unit_scale(x) -> Estimate:
    """A quantity measured from probability vectors, on the scale of their unit mass: its rounding error is absolute,
    and a value that cancels to 1e-66 is 0 (two such values are equal, not inconclusive). A certified enclosure stays
    one."""
    return replace(as_estimate(x), scale=mpmath.mpf(1))


def certified(ball) -> Estimate:
    """A ball of this module's finite arithmetic as a certified estimate on the unit scale."""
    return enclosure(ball, scale=1)


def hs(P: FD, Q: FD, level) -> Estimate:
    """D_{e^ε}(P‖Q) on the unit scale (ε = ∞: the mass off the support, P footnote 3): through the engine's door at a
    drawn level; a level computed from the draw or from a measurement is an interval (an Arb ball or a pair of ends),
    bracketed by its ends (:func:`symdp.engine.kernels.hockey_stick_at`)."""
    if isinstance(level, (arb, tuple)):
        return unit_scale(hockey_stick_at(P, Q, level))
    return unit_scale(divergence("hockey_stick", P, Q, level))


def eps_prime_ball(g, e) -> arb:
    """ε' = EPS_PRIME(γ, ε) of Theorem 1(3), (4) as a ball, from a drawn ε and a γ that is drawn or measured (an
    Estimate: its enclosure)."""
    with in_balls():
        return _eps_prime_arb(g.ball() if isinstance(g, Estimate) else exact_ball(g), exact_ball(e))


def built_from(laws, measured: dict) -> dict:
    """The witness's measurements, each marked :class:`~symdp.statement.BuiltExactly` where every law (or kernel) in
    ``laws`` they are computed from was built exactly from the draw (:attr:`FiniteDistribution.exact
    <symdp.engine.finite.FiniteDistribution.exact>`, :attr:`MarkovKernel.exact
    <symdp.engine.kernels.MarkovKernel.exact>`); unmarked otherwise. The caller vouches for the levels: each is the
    drawn number or an interval that holds the statement's level (:func:`hs`)."""
    if not all(law.exact for law in laws):
        return measured
    return {atom: BuiltExactly(value) for atom, value in measured.items()}


# --- plain-data structure: strategies and builders -------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def sparse_weights(n: int) -> st.SearchStrategy[list[float]]:
    """``n`` weights, each 0 or in [0.01, 1] (never tiny: no denormal-scale entries), not all zero. One strategy per
    size, built once, as every strategy factory of this module a structure calls at each draw (hypothesis validates
    a new strategy the first time it draws from it)."""
    return st.lists(st.one_of(st.just(0.0), st.floats(0.01, 1, allow_subnormal=False)), min_size=n,
                    max_size=n).filter(lambda w: sum(w) > 0)


@functools.lru_cache(maxsize=None)
def any_weights(n: int) -> st.SearchStrategy[list[float]]:
    return st.one_of(weights(n), sparse_weights(n))


def erasure_channel(g, n: int) -> MarkovKernel:
    """K(x) = γδ_x + (1−γ)δ_c on n inputs and n + 1 outputs (c = the erasure symbol, last column).

    Every coefficient of Definition 1 except ultra-mixing equals γ: the tight instance of Theorems 1(1)–(3). Built
    exactly: γ the rational the drawn number is, 1 − γ formed exactly.
    """
    g = given_rational(g, "gamma")
    if not 0 <= g <= 1:
        raise InvalidParameter(f"erasure probability weight gamma must lie in [0, 1], got {g}")
    return MarkovKernel([[g if y == x else fmpq(0) for y in range(n)] + [1 - g] for x in range(n)])


def erasure(g, n=2) -> dict:
    return {"kind": "erasure", "gamma": g, "n": n}


@functools.lru_cache(maxsize=None)   # (one strategy per shape: a structure draws one at every draw)
@st.composite
def kernel_data(draw, rows: int, positive: bool = False):
    """A kernel with ``rows`` rows as plain data: ``{"kind": ..., ...}``, built by :func:`build_kernel`.

    Kinds: ``dense`` (entries ≥ 0.01 before normalising), ``sparse`` (zeros allowed), ``mixed`` ((1−s)R + s K_ω:
    a random kernel mixed with a constant one, so Doeblin's minorisation is non-trivial), ``constant`` (all rows ω),
    ``point-row`` (one row a point mass) and ``erasure``. ``positive`` keeps every entry positive (ultra-mixing).
    """
    kind = draw(_kernel_kinds(positive))
    if kind == "erasure":
        return {"kind": kind, "gamma": draw(st.floats(0, 1)), "n": rows}
    cols = draw(st.integers(2, 6))
    row = weights(cols) if kind != "sparse" else sparse_weights(cols)
    data = {"kind": kind, "rows": [draw(row) for _ in range(rows)]}
    if kind in ("mixed", "constant"):
        data["omega"] = draw(weights(cols) if positive else any_weights(cols))
        data["s"] = 1.0 if kind == "constant" else draw(st.floats(0, 1))
    if kind == "point-row":
        data["at"] = [draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))]
    return data


@functools.lru_cache(maxsize=None)
def _kernel_kinds(positive: bool) -> st.SearchStrategy[str]:
    return st.sampled_from(["dense", "mixed", "constant"] + ([] if positive else ["sparse", "point-row", "erasure"]))


def build_kernel(data) -> MarkovKernel:
    """The kernel described by :func:`kernel_data`'s plain data, exactly (:attr:`MarkovKernel.exact
    <symdp.engine.kernels.MarkovKernel.exact>`): rows normalised in rationals (:func:`law`), the mixed kernel
    (1 − s)R + sK_ω formed in rationals from the drawn s, the point row and the erasure channel of exact 0s, 1s and
    γ."""
    kind = data["kind"]
    if kind == "erasure":
        return erasure_channel(data["gamma"], data["n"])
    rows = [FD.normalized(r).rationals for r in data["rows"]]
    if kind in ("mixed", "constant"):
        s, omega_ = given_rational(data["s"], "s"), FD.normalized(data["omega"]).rationals
        rows = [[(1 - s) * a + s * b for a, b in zip(r, omega_)] for r in rows]
    if kind == "point-row":
        x, y = data["at"]
        rows[x] = [fmpq(int(j == y)) for j in range(len(rows[x]))]
    return MarkovKernel(rows)


def kernel_only(positive: bool = False):
    return flatmapped(st.integers(2, 5), lambda n: kernel_data(n, positive))


@st.composite
def kernel_and_omega(draw):
    Kd = draw(kernel_only())
    return {"K": Kd, "omega": draw(any_weights(Kd["n"] + 1 if Kd["kind"] == "erasure" else len(Kd["rows"][0])))}


def vectors(names, max_size: int = 6):
    """Weight vectors (dense or sparse) named ``names``, on a common number 2 ≤ n ≤ ``max_size`` of atoms."""
    return flatmapped(st.integers(2, max_size), lambda n: st.fixed_dictionaries({k: any_weights(n) for k in names}))


def pair(data) -> tuple[FD, FD]:
    return FD.normalized(data["mu"]), FD.normalized(data["nu"])


_SLACKS = st.one_of(st.just(0.0), st.floats(0, 1))


@st.composite
def pair_kernel_data(draw, positive: bool = False, slack: bool = False):
    """A pair (μ, ν) on n ≤ 5 inputs and a kernel with n rows; with ``slack``, also δ's excess over D_{e^ε}(μ‖ν)."""
    n = draw(st.integers(2, 5))
    w = weights(n) if positive else any_weights(n)
    data = {"mu": draw(w), "nu": draw(w), "K": draw(kernel_data(n, positive))}
    if slack:
        data["slack"] = draw(_SLACKS)
    return data


def pushed(s):
    """(μ, ν, K, μK, νK) from a pair-and-kernel draw."""
    P, Q = pair(s)
    Kt = build_kernel(s["K"])
    return P, Q, Kt, Kt.apply(P), Kt.apply(Q)


def doeblin_extremal_pair(s, e):
    """Catalogue thm1.3: μ = δ_a, ν = qδ_a + (1−q)δ_b, q = (1−δ)e^{−ε}, through the erasure channel (ω = δ_c)."""
    q = (1 - to_mpf(s["delta"], "delta")) * mpmath.exp(-e)
    return FD([1, 0]), FD([q, 1 - q]), erasure_channel(s["gamma"], 2)


def _extremal(g, d, e):
    return {"epsilon": e, "structure": {"kind": "doeblin-extremal", "gamma": g, "delta": d}}


def sharp_extremal(s):
    """Catalogue thm1.4: μ = (1, 0), ν = (e^{−ε}, 1 − e^{−ε}), K = [[1, 1−γ], [1−γ, 1]]/(2 − γ) (γ_um(K) = γ)."""
    g, E = given_rational(s["gamma"], "gamma"), mpmath.exp(-to_mpf(s["epsilon"], "epsilon"))
    Kt = MarkovKernel([[1 / (2 - g), (1 - g) / (2 - g)], [(1 - g) / (2 - g), 1 / (2 - g)]])   # exact; ν is rounded
    return FD([1, 0]), FD([E, 1 - E]), Kt


def _sharp(g, e):
    return {"structure": {"kind": "sharp-extremal", "gamma": g, "epsilon": e}}


@st.composite
def disjoint_inputs(draw):
    """A kernel on n inputs and two weight vectors a, b with disjoint supports (roles 1 = supp a, 2 = supp b)."""
    n = draw(st.integers(2, 5))
    roles = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n).filter(lambda r: 1 in r and 2 in r))
    return {"K": draw(kernel_data(n)), "roles": roles, "a": draw(weights(n)), "b": draw(weights(n))}


def disjoint_pair(s):
    """(K, μ, ν): μ and ν the weights ``a``, ``b`` restricted to their roles' inputs."""
    return (build_kernel(s["K"]), FD.normalized([w if r == 1 else 0 for w, r in zip(s["a"], s["roles"])]),
            FD.normalized([w if r == 2 else 0 for w, r in zip(s["b"], s["roles"])]))


def eq5_objects(s):
    """A Theorem 15's construction in exact rationals: K, γ = γ_um(K) + extra·(1 − γ_um(K)) (any γ ≥ γ_um(K) makes K
    γ-ultra-mixing; needs a non-constant K), μ, ω̃ = (1−α)μ + αν and ω = ω̃K."""
    Km = [exact_weights(r) for r in s["K"]]
    um = 1 - min(a[y] / b[y] for a in Km for b in Km for y in range(len(a)))
    if um == 0:
        raise InvalidParameter("eq. (5) needs a non-constant kernel (gamma_um(K) > 0)")
    g = um + Fraction(s["extra"], 4) * (1 - um)
    a = Fraction(s["alpha"], 10)
    wt = [(1 - a) * x + a * y for x, y in zip(exact_weights(s["mu"]), exact_weights(s["nu"]))]
    omega_ = [sum(w * row[y] for w, row in zip(wt, Km)) for y in range(len(Km[0]))]
    return {"K": Km, "gamma": g, "mu": exact_weights(s["mu"]), "omega_tilde": wt, "omega": omega_}


@st.composite
def eq5_data(draw):
    """Integer weights (exact rationals): a non-constant positive kernel, μ, ν, α = k/10, γ's excess k/4."""
    n, m = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    row = st.lists(st.integers(1, 9), min_size=m, max_size=m)
    Km = draw(st.lists(row, min_size=n, max_size=n).filter(lambda K_: len({tuple(exact_weights(r)) for r in K_}) > 1))
    vec = st.lists(st.integers(0, 9), min_size=n, max_size=n).filter(lambda v: sum(v) > 0)
    return {"K": Km, "mu": draw(vec), "nu": draw(vec), "alpha": draw(st.integers(0, 10)),
            "extra": draw(st.integers(0, 4))}


# --- settings: what the draws range over ---------------------------------------------------------------------------

PAIR = Setting(r"$\mu$, $\nu$ probability vectors on $n \le 6$ atoms (dense or sparse)",
               strategy=lambda: vectors(("mu", "nu")), build=pair)
FOUR = Setting(r"$\mu_1$, $\mu_2$, $\nu_1$, $\nu_2$ on $n \le 6$ atoms",
               strategy=lambda: vectors(("mu1", "mu2", "nu1", "nu2")),
               build=lambda s: [FD.normalized(s[k]) for k in ("mu1", "mu2", "nu1", "nu2")])
THREE = Setting(r"$\omega$, $\mu_1$, $\nu_1$ on $n \le 6$ atoms, $\beta = e^{\varepsilon' - \varepsilon}$",
                strategy=lambda: vectors(("omega", "mu1", "nu1")),
                build=lambda s: [FD.normalized(s[k]) for k in ("omega", "mu1", "nu1")])
KERNEL = Setting(r"$K$ a random $n \times m$ Markov kernel, $n \le 5$, $m \le 6$", strategy=kernel_only,
                 build=build_kernel)
POSITIVE_KERNEL = replace(KERNEL.where(", $K > 0$"), strategy=lambda: kernel_only(positive=True))
KERNEL_OMEGA = replace(KERNEL.where(r", $\omega$ a random distribution on the outputs"), strategy=kernel_and_omega,
                       build=lambda s: (build_kernel(s["K"]), FD.normalized(s["omega"])))
PAIR_KERNEL = Setting(r"$\mu$, $\nu$ on $n \le 5$ inputs, $K$ a random $n \times m$ Markov kernel",
                      strategy=pair_kernel_data, build=pushed)
POSITIVE_PAIR_KERNEL = replace(PAIR_KERNEL.where(", $K > 0$"), strategy=lambda: pair_kernel_data(positive=True))
PAIR_KERNEL_DELTA = replace(PAIR_KERNEL.where(r", $\delta \in [D_{e^{\varepsilon}}(\mu\|\nu), 1]$"),
                            strategy=lambda: pair_kernel_data(slack=True))
DOEBLIN = Setting(PAIR_KERNEL.latex + r", $\gamma = \gamma_{\mathrm{Doeb}}(K)$, $\delta = "
                  r"D_{e^{\varepsilon}}(\mu\|\nu)$",
                  strategy=lambda: st.one_of(pair_kernel_data(), st.fixed_dictionaries(
                      {"kind": st.just("doeblin-extremal"), "gamma": st.floats(0, 1), "delta": st.floats(0, 1)})))
PURE = Setting(POSITIVE_PAIR_KERNEL.latex + r", $\gamma = \gamma_{\mathrm{um}}(K)$, $\varepsilon = "
               r"D_{\infty}(\mu\|\nu)$",
               strategy=lambda: st.one_of(pair_kernel_data(positive=True), st.fixed_dictionaries(
                   {"kind": st.just("sharp-extremal"), "gamma": st.floats(0, 0.99), "epsilon": st.floats(0.01, 3)})),
               build=lambda s: sharp_extremal(s) if s.get("kind") == "sharp-extremal" else pushed(s)[:3])
DISJOINT_INPUTS = Setting(r"$\mu \perp \nu$ on $n \le 5$ inputs, $K$ an $n \times m$ kernel", strategy=disjoint_inputs,
                          build=disjoint_pair)
EQ5_SETTING = Setting(r"$K > 0$ rational, non-constant, $\gamma \ge \gamma_{\mathrm{um}}(K)$, $\tilde\omega = "
                      r"(1-\alpha)\mu + \alpha\nu$, $\omega = \tilde\omega K$, "
                      r"$\tilde K = (K - (1-\gamma)K_\omega)/\gamma$",
                      strategy=eq5_data, build=eq5_objects)


# --- finite helpers that the statements refer to -------------------------------------------------------------------


def events(n: int):
    """Every subset of {0, ..., n−1}, as index tuples (2^n of them)."""
    return itertools.chain.from_iterable(itertools.combinations(range(n), k) for k in range(n + 1))


def event_rationals(P: FD) -> list[fmpq]:
    """P(E) for every event E in the order of :func:`events` (the empty one first), exact sums of the atoms'
    rationals (:meth:`FD.keys <symdp.engine.finite.FiniteDistribution.keys>`)."""
    atoms = P.keys()
    return [sum((atoms[i] for i in ev), fmpq(0)) for ev in events(len(P))]


def _sup_over_events(P: FD, Q: FD, excess: arb) -> arb:
    """max_E (P(E) − e^ε Q(E)), each term (P(E) − Q(E)) − (e^ε − 1)Q(E) with the difference exact (``excess`` =
    e^ε − 1: no cancellation where the masses are equal and ε is tiny)."""
    return functools.reduce(arb.max, (arb(p - q) - excess * arb(q)
                                      for p, q in zip(event_rationals(P), event_rationals(Q))))


def hs_by_events(P: FD, Q: FD, e) -> Estimate:
    """sup_E (P(E) − e^ε Q(E)) by brute force over all events (the third form of P §2's display; n ≤ 10), in balls:
    each event's masses an exact sum, the supremum the ``arb.max`` of the 2^n differences."""
    with in_balls():
        return certified(_sup_over_events(P, Q, exact_ball(to_mpf(e, "eps")).expm1()))


def _rows_by_events(Kt: MarkovKernel, e) -> Estimate:
    """max_{x,x'} sup_E (K(x)(E) − e^ε K(x')(E)), in balls."""
    with in_balls():
        excess = exact_ball(to_mpf(e, "eps")).expm1()
        return certified(functools.reduce(arb.max, (_sup_over_events(a, b, excess) for a in Kt.rows for b in Kt.rows)))


def min_event_ratio(Kt: MarkovKernel) -> Estimate:
    """min_{x,x',E} K(x)(E)/K(x')(E) over non-empty events (K > 0): Definition 1(4) read on events, the masses and
    ratios exact rationals (:func:`event_rationals`), the smallest enclosed by a ball."""
    masses = [event_rationals(r)[1:] for r in Kt.rows]
    with in_balls():
        return certified(arb(min(a / b for A in masses for B in masses for a, b in zip(A, B))))


def _dobrushin_parts(Kt: MarkovKernel, e) -> list[tuple[fmpq, fmpq]] | None:
    """γ_Dob(K, ε) = max over pairs of rows of D_{e^ε}(K(x)‖K(x')) = Σ_{y ∈ S} (p_y − q_y) − (e^ε − 1) Σ_{y ∈ S} q_y,
    S the atoms where p_y > e^ε q_y, as the exact rationals ``(A, B)`` of each pair (the sum formula of
    :mod:`symdp.engine.kernels`, written with its two rational sums). Membership in S is exact where q_y = 0 or
    p_y ≤ q_y, else decided by the ball of log(p_y/q_y) − ε (never 0 at ε ≠ 0: e^ε is transcendental for a rational
    ε ≠ 0); None where a ball leaves it open."""
    eps = exact_ball(to_mpf(e, "eps"))
    parts = []
    for a in Kt.rows:
        for b in Kt.rows:
            A = B = fmpq(0)
            for p, q in zip(a.keys(), b.keys()):
                if p <= q:   # p − e^ε q ≤ p − q ≤ 0 (ε ≥ 0)
                    continue
                if q > 0:
                    gap = arb(p / q).log() - eps
                    if not (gap > 0 or gap < 0):
                        return None
                    if gap < 0:
                        continue
                A, B = A + (p - q), B + q
            parts.append((A, B))
    return parts


def _above_coefficient(mass: fmpq, Kt: MarkovKernel, e) -> bool | None:
    """Whether ``mass`` > γ_Dob(K, ε), decided exactly from :func:`_dobrushin_parts`: ``mass`` ≤ γ iff some pair has
    (A − mass) − (e^ε − 1)B ≥ 0, exact where B = 0 or ε = 0, else decided by its ball (never 0, as above); None where
    a ball leaves it open."""
    parts = _dobrushin_parts(Kt, e)
    if parts is None:
        return None
    excess = exact_ball(to_mpf(e, "eps")).expm1()
    for A, B in parts:
        rest = A - mass
        if B == 0 or excess.is_zero():
            if rest >= 0:
                return False
            continue
        gap = arb(rest) - excess * arb(B)
        if gap >= 0:
            return False
        if not gap < 0:
            return None
    return True


def ldp_level_by_events(Kt: MarkovKernel, d, e=None) -> Estimate:
    """The least ε_LDP ≥ 0 with K(x)(E) ≤ e^{ε_LDP} K(x')(E) + d for all rows and events: the largest
    log((K(x)(E) − d)/K(x')(E)) where K(x)(E) > d (∞ if K(x')(E) = 0 there), and 0 if there is none.

    In balls, with ``d`` a number or a certified Estimate (its enclosure): where K(x')(E) > 0 an event's term is
    ``log max(1, (K(x)(E) − d)/K(x')(E))`` (≤ 0 otherwise, so the floor 0 absorbs it; no comparison with d is made);
    an event with K(x')(E) = 0 (decided exactly: its atoms are 0) has level ∞ where K(x)(E) > d, decided by the
    ball, and nothing where K(x)(E) ≤ d (always so for the empty event, d ≥ 0). Where a ball cannot decide it (a mass
    equal to the coefficient: the erasure channel) and ``d`` is γ_Dob(K, ε) at the drawn level ``e``, the comparison
    is made exactly (:func:`_above_coefficient`); otherwise on the midpoints, and the result is not certified."""
    proved = not isinstance(d, Estimate) or d.certified
    with in_balls():
        level = arb(1)   # e^0: the floor of the least ε_LDP ≥ 0
        d_ball = d.ball() if isinstance(d, Estimate) else exact_ball(to_mpf(d, "delta"))
        rationals = [event_rationals(r) for r in Kt.rows]
        for A, B in itertools.product(rationals, repeat=2):
            for k, (a, b) in enumerate(zip(A, B)):
                excess = arb(a) - d_ball
                if b != 0:
                    level = level.max(excess / arb(b))
                elif k > 0 and not excess <= 0:
                    above = None if excess > 0 or e is None else _above_coefficient(a, Kt, e)
                    if above is False:
                        continue
                    if above is None and not excess > 0:   # undecided by the ball: the midpoint decides, unproved
                        proved = False
                        if not mpf_of(excess.mid()) > 0:
                            continue
                    return unit_scale(Estimate(mpmath.inf, mpmath.mpf(0), Method.EXACT, certified=proved))
        result = certified(level.log())
    return result if proved else replace(result, certified=False)


def minorisation_gamma(Kt: MarkovKernel, omega_: FD) -> Estimate:
    """The smallest γ with K(x) ≥ (1 − γ)ω for every x: 1 − min_{y: ω(y) > 0} min_x K(x)(y)/ω(y), in exact rationals
    (:meth:`FD.keys <symdp.engine.finite.FiniteDistribution.keys>`), the result enclosed by a ball."""
    rows = [r.keys() for r in Kt.rows]
    with in_balls():
        return certified(arb(1 - min(r[y] / w for y, w in enumerate(omega_.keys()) if w > 0 for r in rows)))


def eps_tilde(e, d) -> mpmath.mpf:
    """ε̃ of Theorem 1(2) (the statement's EPS_TILDE, evaluated); ∞ when δ = 0 (P footnote 3)."""
    return mpmath.inf if d == 0 else _eps_tilde(e, d)


def eps_tilde_level(e, d: Estimate):
    """ε̃ = log(1 + (e^ε − 1)/δ) at a measured δ, as the interval ``(low, high)`` of levels its enclosure allows (ε̃
    decreases in δ; ∞ where δ may be 0, footnote 3), for :func:`symdp.engine.kernels.hockey_stick_at`; at an
    uncertified δ, :func:`eps_tilde` of its value."""
    if not d.certified:
        return eps_tilde(e, d.value)
    with in_balls():
        ball = d.ball()

        def at(end):   # ε̃ at one end of δ's enclosure, an exact number
            return mpmath.inf if not end > 0 else _eps_tilde_arb(exact_ball(e), end)

        low, high = at(ball.upper()), at(ball.lower())
        return (mpf_down(low.lower()) if isinstance(low, arb) else low,
                mpf_up(high.upper()) if isinstance(high, arb) else high)


def _pair_delta(point):
    """(μ, ν, K, μK, νK), ε and δ = θ + slack·(1 − θ) ≥ θ = D_{e^ε}(μ‖ν) (the pair is (ε, δ)-DP for every such δ),
    δ as the enclosure computed from θ's."""
    e = point["epsilon"]
    P, Q, Kt, PK, QK = PAIR_KERNEL_DELTA(point)
    theta_ = hs(P, Q, e)
    s = given_rational(point["structure"]["slack"], "slack")
    return P, Q, Kt, PK, QK, e, unit_scale(Estimate.combine(lambda th: th + arb(s) * (1 - th), theta_))


ANY_HOCKEY_STICK = unit_scale(Estimate(mpmath.mpf(1) / 2, mpmath.mpf(1) / 2, Method.EXACT, certified=True))
"""[0, 1]: every hockey-stick divergence of two probability laws lies in it (the value of one that is not defined)."""


def mixture_decomposition(P: FD, Q: FD, e):
    """A Theorem 13's overlapping mixtures: θ = D_{e^ε}(μ‖ν) (an Estimate) and μ' ∝ μ − f ⊥ ν' ∝ ν − e^{−ε}f,
    f = μ ∧ e^ε ν; (θ, None, None) when θ = 0 (μ ≤ e^ε ν: nothing to decompose). μ' and ν' need e^ε, which no
    rational is (ε > 0): they are rounded to the working precision, θ is measured from the exact pair."""
    E = mpmath.exp(e)
    theta_ = hs(P, Q, e)
    if theta_.value == 0:
        return theta_, None, None
    # μ − f and ν − f/e^ε, written by cases so that each vanishes exactly off its support (no rounding residue).
    mu_p = FD.normalized([p - E * q if p > E * q else 0 for p, q in zip(P, Q)])
    nu_p = FD.normalized([q - p / E if p < E * q else 0 for p, q in zip(P, Q)])
    return theta_, mu_p, nu_p


def _amplified(P, Q, Kt, g, e, extremal: bool = False) -> dict:
    """D_{e^{ε'}}(μK‖νK) at ε' = EPS_PRIME(γ, ε) (an interval, from γ's enclosure), γ (the kernel's coefficient)
    and δ = D_{e^ε}(μ‖ν); marked built exactly where the pair and the kernel are, never for an ``extremal`` pair
    (its ν needs e^{−ε}: rounded, even where its two rounded atoms happen to sum to one exactly)."""
    measured = {HS_OUT_AT_EPS_PRIME: hs(Kt.apply(P), Kt.apply(Q), eps_prime_ball(g, e)), gamma: g, delta: hs(P, Q, e)}
    return measured if extremal else built_from((P, Q, Kt), measured)


def _pure(point) -> dict:
    """D_∞(μK‖νK), ε = D_∞(μ‖ν) and γ = γ_um(K) on a :data:`PURE` draw; marked built exactly where the pair and
    the kernel are, never for the sharp extremal pair (its ν needs e^{−ε})."""
    P, Q, Kt = PURE(point)
    measured = {MAX_OUT: unit_scale(divergence("max_divergence", Kt.apply(P), Kt.apply(Q))),
                epsilon: unit_scale(divergence("max_divergence", P, Q)), gamma: unit_scale(Kt.ultra_mixing())}
    return measured if point["structure"].get("kind") == "sharp-extremal" else built_from((P, Q, Kt), measured)


# --- §2 background: the hockey-stick divergence, joint convexity, data processing ----------------------------------

DISJOINT = {"mu": [0.6, 0.4, 0, 0], "nu": [0, 0, 0.5, 0.5]}  # μ ⊥ ν: D_{e^ε}(μ‖ν) = 1 for every ε


@theorem(id="balle19.def.hs", title="Hockey-stick divergence: sum form equals the supremum over events",
         number="Section 2, Divergences",
         statement=sp.Eq(HS_PAIR, HockeyStickByEvents(mu, nu, epsilon), evaluate=False),
         parameters=(EPS_WIDE,), setting=PAIR, quantity_latex=r"\sum_x [\mu(x) - e^{\epsilon}\nu(x)]_+",
         tight_everywhere=True, examples=({"epsilon": 0.5, "structure": DISJOINT},))
def definition_hs(point):
    """The sum over atoms against the maximum over all $2^n$ events, two independent computations."""
    P, Q = PAIR(point)
    return built_from((P, Q), {HS_PAIR: hs(P, Q, point["epsilon"]),
                               HockeyStickByEvents(mu, nu, epsilon): unit_scale(hs_by_events(P, Q, point["epsilon"]))})


@theorem(id="balle19.def.hs.monotone", title=r"Hockey-stick divergence is non-increasing in $\varepsilon$",
         number="Section 2, Divergences", statement=sp.Le(HockeyStick(mu, nu, epsilon + h), HS_PAIR),
         parameters=(EPS_WIDE, H), setting=PAIR,
         tight_at=({"epsilon": 0.5, "h": 2, "structure": DISJOINT},))  # both sides 1: μ ⊥ ν
def hs_monotone(point):
    r"""Equality exactly where the divergence is flat in $\varepsilon$: $\mu$ and $\nu$ disjoint (value 1), or both
    sides 0."""
    P, Q = PAIR(point)
    e = point["epsilon"]
    with in_balls():   # the level ε + h as a ball (the sum of two drawn numbers, not rounded)
        shifted = exact_ball(e) + exact_ball(point["h"])
    return built_from((P, Q), {HockeyStick(mu, nu, epsilon + h): hs(P, Q, shifted), HS_PAIR: hs(P, Q, e)})


HS_AT_ZERO_IS_TV = declare(
    id="balle19.def.hs.tv", title=r"Hockey-stick divergence at $\varepsilon = 0$ is total variation",
    number="Section 2, Divergences", statement=sp.Eq(HockeyStick(mu, nu, 0), TV(mu, nu), evaluate=False),
    evidence=IDENTITY, derivation=HS_TV,
    symbolic_only=r"identity of the Csisz\'ar functions: $[u - 1]_+ = |u - 1|/2 + (u - 1)/2$, and the last term "
                  r"integrates to 0 (\symdpcode{proofs.balle19.mixing.HS\_TV}); a numeric check would sum the same "
                  "atoms twice")


@theorem(id="balle19.def.hs.limit",
         title=r"Hockey-stick divergence as $\varepsilon \to \infty$: the mass off the support",
         number="Section 3, footnote 3",
         statement=sp.Eq(HockeyStick(mu, nu, epsilon_0 + t), OffSupportMass(mu, nu), evaluate=False),
         parameters=(T,),
         setting=PAIR.where(r", $\varepsilon_0 = \max\left(0, \max_{\nu(x) > 0} \log\frac{\mu(x)}{\nu(x)}\right)$"),
         tight_everywhere=True, examples=({"t": 0, "structure": {"mu": [0.2, 0.3, 0.5], "nu": [0.5, 0.5, 0]}},))
def hs_limit(point):
    r"""On a finite space the divergence is constant from the saturation level $\varepsilon_0$ on, so equality there is
    the limit of footnote 3. The sum at $\varepsilon_0 + t$ against the mass of $\mu$ off the support of $\nu$."""
    P, Q = PAIR(point)
    atoms = list(zip(P.keys(), Q.keys()))   # exact rationals: the supports and the ratios decided exactly
    with in_balls():   # ε_0 + t as a ball around the level, the mass off the support an exact sum
        saturation = functools.reduce(arb.max, [arb(p / q).log() for p, q in atoms if p > 0 and q > 0], arb(0))
        level = saturation + exact_ball(point["t"])
        off_support = certified(arb(sum((p for p, q in atoms if p > 0 and q == 0), fmpq(0))))
    return built_from((P, Q), {HockeyStick(mu, nu, epsilon_0 + t): hs(P, Q, level),
                               OffSupportMass(mu, nu): off_support})


# The other §2 definitions are checked where another paper states the same one; they cite that check.
CITED = r"the same definition as \symdpid{{{0}}}, where the engine's value is checked against it; nothing of this " \
        r"paper's own to add"
_MD, _MDP = Law("M(D)"), Law("M(D')")
_SYMBOLIC_ALPHA = "a definition, not evaluated: the range is only that of a symbolic statement"

DEFINITION_RENYI = declare(
    id="balle19.def.renyi", title=r"R\'enyi divergence", number="Section 2, Divergences",
    parameters=(Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 30), limit=_SYMBOLIC_ALPHA),),
    statement=sp.Eq(Renyi(mu, nu, alpha),
                    sp.log(sp.Symbol(r"\int \left(\frac{d\mu}{d\nu}\right)^{\alpha} d\nu")) / (alpha - 1)),
    symbolic_only=CITED.format("bravo.def2.2") + r" ($\alpha > 1$, finite laws of any supports and Gaussians, "
                  r"against the likelihood ratio written out); its closed forms used here are checked by "
                  r"\symdpid{balle19.fact.gauss-rdp} and \symdpid{balle19.fact.laplace-rdp}")

DEFINITION_WINF = declare(
    id="balle19.def.winf", title=r"$\infty$-Wasserstein distance", number="Section 2, Divergences",
    statement=sp.Eq(Winf(mu, nu), sp.Symbol(r"\inf_{\pi \in \mathcal{C}(\mu, \nu)} \operatorname{ess\,sup}_{(X, Y) "
                                            r"\sim \pi} \|X - Y\|")),
    symbolic_only=CITED.format("bravo.def2.3") + r" (in one dimension the quantile coupling attains the infimum: "
                  r"two computations of it agree); \symdpid{balle19.lem17} measures it the same way")

DEFINITION_DP = declare(
    id="balle19.def.dp", title=r"$(\varepsilon, \delta)$-differential privacy", number="Section 2, Differential "
    "privacy", statement=sp.Le(HockeyStick(_MD, _MDP, epsilon), delta),
    symbolic_only=CITED.format("bravo.def5.1") + r" (the least $\delta$ over events and neighbours against the "
                  r"largest hockey-stick divergence; also \symdpid{bertazzi.def2.1}); the sum form is "
                  r"\symdpid{balle19.def.hs}. Adjacency $D \simeq D'$ is symmetric, so a mechanism's DP is two-sided, "
                  r"while Theorem 1's pair statements use the one-sided $D_{e^{\varepsilon}}(\mu\|\nu) \le \delta$ "
                  r"(catalogue)")

DEFINITION_RDP = declare(
    id="balle19.def.rdp", title=r"R\'enyi differential privacy", number="Section 2, Differential privacy",
    parameters=(Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 30), limit=_SYMBOLIC_ALPHA),),
    statement=sp.Le(Renyi(_MD, _MDP, alpha), epsilon),
    symbolic_only=r"a definition: $(\alpha, \epsilon)$-RDP is the bound of \symdpid{balle19.def.renyi} over every "
                  r"ordered pair of neighbours, the quantifier of \symdpid{bravo.def5.1} on the R\'enyi divergence "
                  r"of \symdpid{bravo.def2.2} (\symdpid{bertazzi.def2.2} is the same); the mechanisms' RDP this "
                  r"paper states are checked by \symdpid{balle19.fact.gauss-rdp}, \symdpid{balle19.ex4}, "
                  r"\symdpid{balle19.cor7}, \symdpid{balle19.thm8.b.rdp}")


_SAME = {"mu1": [0.7, 0.2, 0.1], "mu2": [0.7, 0.2, 0.1], "nu1": [0.1, 0.3, 0.6], "nu2": [0.1, 0.3, 0.6]}
_MIXED_PAIR = HockeyStick(Law(r"(1-\gamma)\mu_1 + \gamma\mu_2"), Law(r"(1-\gamma)\nu_1 + \gamma\nu_2"), epsilon)
_HS_1 = HockeyStick(Law(r"\mu_1"), Law(r"\nu_1"), epsilon)
_HS_2 = HockeyStick(Law(r"\mu_2"), Law(r"\nu_2"), epsilon)


@theorem(id="balle19.fact.jc-dpi", title="Joint convexity of the hockey-stick divergence",
         number="Section 2, Divergences", statement=sp.Le(_MIXED_PAIR, (1 - gamma) * _HS_1 + gamma * _HS_2),
         parameters=(GAMMA, EPS_WIDE), setting=FOUR,
         tight_at=({"gamma": 0.3, "epsilon": 0.4, "structure": _SAME},))
def joint_convexity(point):
    r"""Equality when $\mu_1 = \mu_2$ and $\nu_1 = \nu_2$ (then both sides are the same divergence). The paper claims
    joint convexity for Csisz\'ar divergences only: R\'enyi divergences of order $\alpha > 1$ are not jointly
    convex."""
    g, e = point["gamma"], point["epsilon"]
    m1, m2, n1, n2 = FOUR(point)
    mixed, mixed_ = mixture(g, m1, m2), mixture(g, n1, n2)
    return built_from((m1, m2, n1, n2, mixed, mixed_),
                      {_MIXED_PAIR: hs(mixed, mixed_, e), _HS_1: hs(m1, n1, e), _HS_2: hs(m2, n2, e)})


_PERMUTATION = {"mu": [0.5, 0.3, 0.2], "nu": [0.2, 0.2, 0.6],
                "K": {"kind": "dense", "rows": [[0, 1, 0], [0, 0, 1], [1, 0, 0]]}}  # a bijection: equality


@theorem(id="balle19.fact.jc-dpi.dpi", title="Data processing inequality for the hockey-stick divergence",
         number="Section 2, Divergences", statement=sp.Le(HS_OUT, HS_PAIR), parameters=(EPS_WIDE,), setting=PAIR_KERNEL,
         tight_at=({"epsilon": 0.2, "structure": _PERMUTATION},))
def data_processing(point):
    """Equality for a bijection $K$ (a permutation of the atoms)."""
    P, Q, _, PK, QK = PAIR_KERNEL(point)
    return built_from((P, Q, PK, QK), {HS_OUT: hs(PK, QK, point["epsilon"]), HS_PAIR: hs(P, Q, point["epsilon"])})


_RENYI_OUT, _RENYI_IN = Renyi(muK, nuK, alpha), Renyi(mu, nu, alpha)


@theorem(id="balle19.fact.jc-dpi.renyi", title=r"Data processing inequality for the R\'enyi divergence",
         number="Section 2, Divergences", statement=sp.Le(_RENYI_OUT, _RENYI_IN), parameters=(ALPHA,),
         setting=POSITIVE_PAIR_KERNEL, tight_at=({"alpha": 3, "structure": _PERMUTATION},))
def data_processing_renyi(point):
    """Equality for a bijection $K$."""
    P, Q, _, PK, QK = POSITIVE_PAIR_KERNEL(point)
    a = point["alpha"]
    return built_from((P, Q, PK, QK), {_RENYI_OUT: unit_scale(divergence("renyi", PK, QK, a)),
                                       _RENYI_IN: unit_scale(divergence("renyi", P, Q, a))})


# --- Definition 1: the four mixing coefficients, against their definitions -----------------------------------------


@theorem(id="balle19.def1.1", title="Dobrushin coefficient is the supremum of TV between rows",
         number="Definition 1(1)", statement=sp.Eq(DOB, RowsTVByEvents(K), evaluate=False), setting=KERNEL,
         quantity_latex=r"\max_{x,x'} \tfrac12 \sum_y |K(x)(y) - K(x')(y)|", tight_everywhere=True)
def definition_1_1(point):
    r"""The sum formula of \symdpcode{symdp.engine.kernels} against the maximum over rows and events."""
    Kt = KERNEL(point)
    return built_from((Kt,), {DOB: unit_scale(Kt.dobrushin()), RowsTVByEvents(K): unit_scale(_rows_by_events(Kt, 0))})


@theorem(id="balle19.def1.2",
         title=r"$(\gamma, \varepsilon)$-Dobrushin coefficient is the supremum of the hockey-stick divergence "
               "between rows",
         number="Definition 1(2)", statement=sp.Eq(DOB_EPS, RowsHockeyStickByEvents(K, epsilon), evaluate=False),
         parameters=(EPS_WIDE,), setting=KERNEL,
         quantity_latex=r"\max_{x,x'} \sum_y [K(x)(y) - e^{\epsilon} K(x')(y)]_+", tight_everywhere=True)
def definition_1_2(point):
    r"""The sum formula of \symdpcode{symdp.engine.kernels} against the maximum over rows and events."""
    Kt, e = KERNEL(point), point["epsilon"]
    return built_from((Kt,), {DOB_EPS: unit_scale(Kt.dobrushin_eps(e)),
                              RowsHockeyStickByEvents(K, epsilon): unit_scale(_rows_by_events(Kt, e))})


_MINORISATION = MinorisationLevel(K, omega)


@theorem(id="balle19.def1.3",
         title="Doeblin coefficient: no minorising distribution beats the normalised column minima",
         number="Definition 1(3)", statement=sp.Ge(_MINORISATION, DOEB), setting=KERNEL_OMEGA,
         tight_at=(  # ω = the normalised column minima: the minorisation is attained (catalogue def1.3)
             {"structure": {"K": {"kind": "dense", "rows": [[0.5, 0.3, 0.2], [0.2, 0.5, 0.3]]}, "omega": [2, 3, 2]}},
             {"structure": {"K": erasure(0.3, 3), "omega": [0, 0, 0, 1]}}))
def definition_1_3(point):
    r"""The coefficient formula is derived in the catalogue, not in the paper: $(1-\gamma)\omega(y) \le \min_x K(x)(y)$
    for all $y$, summed over $y$. Equality when $\omega$ is the normalised column minima."""
    Kt, omega_ = KERNEL_OMEGA(point)
    return built_from((Kt, omega_), {_MINORISATION: unit_scale(minorisation_gamma(Kt, omega_)),
                                     DOEB: unit_scale(Kt.doeblin())})


@theorem(id="balle19.def1.4", title="Ultra-mixing coefficient: atom-wise likelihood ratio equals the event-wise one",
         number="Definition 1(4)", statement=sp.Eq(UM, 1 - MinEventRatio(K), evaluate=False), setting=POSITIVE_KERNEL,
         tight_everywhere=True)
def definition_1_4(point):
    r"""The atom-wise ratio of \symdpcode{symdp.engine.kernels} against the smallest ratio over rows and non-empty
    events (the mediant inequality makes them equal)."""
    Kt = POSITIVE_KERNEL(point)
    return built_from((Kt,), {UM: unit_scale(Kt.ultra_mixing()), MinEventRatio(K): unit_scale(min_event_ratio(Kt))})


# --- Lemma 9 / Figure 1: implications between the conditions (corrected direction, erratum E4) ----------------------

RR_3_4 = {"kind": "dense", "rows": [[0.75, 0.25], [0.25, 0.75]]}  # binary randomized response, p = 3/4
E4_COUNTEREXAMPLE = {"epsilon": float(mpmath.log(3)), "structure": RR_3_4}  # D_3(RR(3/4) rows) = 0, up to rounding


@theorem(
    id="balle19.lem9.eps-dobrushin.corrected",
    title=r"Lemma 9, first link corrected: $\gamma$-Dobrushin implies $(\gamma, \varepsilon)$-Dobrushin",
    number="appendix, Lemma 9", statement=sp.Le(DOB_EPS, DOB), parameters=(EPS_WIDE,), setting=KERNEL,
    tight_at=({"epsilon": 0.7, "structure": erasure(0.3)}, {"epsilon": 0, "structure": erasure(0.8, 4)}),
    examples=(E4_COUNTEREXAMPLE,),  # 0 <= 1/2: strict
    printed=Printed(
        id="balle19.lem9.eps-dobrushin", statement=sp.Le(DOB, DOB_EPS),
        title=r"Lemma 9 as printed: $(\gamma, \varepsilon)$-Dobrushin implies $\gamma$-Dobrushin",
        number="appendix, Lemma 9 (proof, first sentence)", location="A, proof of Lemma 9, first sentence",
        printed=r"$(\gamma,\varepsilon)$-Dobrushin $\Rightarrow$ $\gamma$-Dobrushin, since $D_{e^\varepsilon} \le "
                r"\mathrm{TV}$",
        corrected=r"$\gamma$-Dobrushin $\Rightarrow$ $(\gamma,\varepsilon)$-Dobrushin: $\gamma_{\mathrm{Dob}}(K, "
                  r"\varepsilon) \le \gamma_{\mathrm{Dob}}(K)$",
        counterexample=E4_COUNTEREXAMPLE,
        note=r"Catalogue erratum E4: the inequality $D_{e^{\varepsilon}} \le \mathrm{TV}$ gives the reverse "
             r"implication; randomized response $\mathrm{RR}(3/4)$ at $\varepsilon = \log 3$ is "
             r"$(0, \log 3)$-Dobrushin with TV $1/2$. Related imprecision E15 (P \S 3: `Dobrushin's is the weakest "
             r"among these conditions'): $(\gamma, \varepsilon)$-Dobrushin is weaker still, by the same "
             "counterexample.",
        changes={"notes": ""}))
def lemma_9_eps(point):
    r"""Tight on the erasure channel (both coefficients $\gamma$ for every $\varepsilon$)."""
    Kt = KERNEL(point)
    return built_from((Kt,), {DOB_EPS: unit_scale(Kt.dobrushin_eps(point["epsilon"])), DOB: unit_scale(Kt.dobrushin())})


@theorem(id="balle19.lem9.doeblin", title=r"Lemma 9: $\gamma$-Doeblin implies $\gamma$-Dobrushin",
         number="appendix, Lemma 9", statement=sp.Le(DOB, DOEB), setting=KERNEL,
         tight_at=({"structure": erasure(0.3)}, {"structure": erasure(0.55, 4)}))
def lemma_9_doeblin(point):
    r"""Tight on the erasure channel (both coefficients $\gamma$)."""
    Kt = KERNEL(point)
    return built_from((Kt,), {DOB: unit_scale(Kt.dobrushin()), DOEB: unit_scale(Kt.doeblin())})


RR_0999 = {"kind": "dense", "rows": [[0.999, 0.001], [0.001, 0.999]]}
RR_08 = {"kind": "dense", "rows": [[0.8, 0.2], [0.2, 0.8]]}
CONSTANT_KERNEL = {"kind": "constant", "rows": [[1, 1], [1, 1]], "omega": [0.3, 0.7], "s": 1.0}


@theorem(id="balle19.lem9.ultra-mixing", title=r"Lemma 9: $\gamma$-ultra-mixing implies $\gamma$-Doeblin",
         number="appendix, Lemma 9", statement=sp.Le(DOEB, UM), setting=POSITIVE_KERNEL,
         examples=({"structure": RR_0999}, {"structure": CONSTANT_KERNEL}))
def lemma_9_ultra(point):
    r"""Via [12, Lemma 4.1], for $K > 0$. Equality only for constant kernels, where both coefficients are 0 (with $m$
    the smallest ratio $K(x)(y)/K(x')(y)$, $\sum_y \min_x K(x)(y) \ge m \sum_y \max_x K(x)(y) \ge m$, the last step
    an equality iff all rows coincide), so no tightness is claimed; the ratio
    $\gamma_{\mathrm{Doeb}}/\gamma_{\mathrm{um}} = p$ on $\mathrm{RR}(p)$ approaches 1 (example
    $\mathrm{RR}(0.999)$: ratio 0.999), so the link cannot be sharpened by a constant factor."""
    Kt = POSITIVE_KERNEL(point)
    return built_from((Kt,), {DOEB: unit_scale(Kt.doeblin()), UM: unit_scale(Kt.ultra_mixing())})


# --- Table 1: mixing conditions as local DP --------------------------------------------------------------------------

_LDP_LEVEL = LDPLevel(K, epsilon)


@theorem(id="balle19.tab1.dobrushin",
         title=r"Table 1: $(\gamma, \varepsilon)$-Dobrushin is $(\varepsilon, \gamma)$-local DP",
         number="Table 1, rows 1--2", statement=sp.Le(_LDP_LEVEL, epsilon), parameters=(EPS_WIDE,), setting=POSITIVE_KERNEL,
         tight_at=({"epsilon": 0.4, "structure": RR_3_4},),
         examples=({"epsilon": 0, "structure": RR_3_4},         # row 1: gamma-Dobrushin is (0, gamma)-LDP, 0 = 0
                   {"epsilon": 0, "structure": erasure(0.3)}))  # flat in eps: gamma at every eps, 0 = 0 here
def table_1_ldp(point):
    r"""$\gamma = \gamma_{\mathrm{Dob}}(K, \varepsilon)$ by the sum formula of \symdpcode{symdp.engine.kernels}; the LDP
    level is then read from events, as local DP is defined: the least $\varepsilon_{\mathrm{LDP}} \ge 0$ with $K(x)(E)
    \le e^{\varepsilon_{\mathrm{LDP}}} K(x')(E) + \gamma$ for all rows and events, the largest $\log((K(x)(E) -
    \gamma)/K(x')(E))$. A coefficient too small would show as a level above $\varepsilon$, one too large as a strict
    inequality at the pinned instance. $\varepsilon = 0$ is row 1 ($\gamma$-Dobrushin $= (0, \gamma)$-LDP; both sides
    0 there, an example, not a tightness claim). Strict only when the divergence of the extremal pair is flat in
    $\varepsilon$ at the given $\varepsilon$."""
    Kt = POSITIVE_KERNEL(point)
    e = point["epsilon"]
    return built_from((Kt,), {_LDP_LEVEL: unit_scale(ldp_level_by_events(Kt, Kt.dobrushin_eps(e), e))})


TABLE_1_DOEBLIN = declare(
    id="balle19.tab1.doeblin", title=r"Table 1: $\gamma$-Doeblin is the blanket condition", number="Table 1, row 3",
    statement=sp.Eq(Law("K(x)"), (1 - gamma) * omega + gamma * Law(r"\tilde K(x)")), evidence=IDENTITY,
    derivation=BLANKET,
    symbolic_only="the blanket condition is qualitative (Table 1 gives no formula); its decomposition $K(x) = "
                  r"(1-\gamma)\omega + \gamma\tilde K(x)$ is an identity (\symdpcode{proofs.balle19.mixing.BLANKET})")

TABLE_1_ULTRA = declare(
    id="balle19.tab1.ultra-mixing", title=r"Table 1: $\gamma$-ultra-mixing is $(\log(1/(1-\gamma)), 0)$-local DP",
    number="Table 1, row 4", statement=sp.Eq(sp.log(1 / (1 - UM)), RowsMaxDivergence(K), evaluate=False),
    evidence=IDENTITY, derivation=TAB1_ULTRA,
    symbolic_only=r"both sides are the smallest likelihood ratio $m$ between rows, as $\log(1/m)$: $\log(1/r)$ "
                  r"decreases in $r$ (\symdpcode{proofs.balle19.mixing.TAB1\_ULTRA}); a numeric check would compute "
                  "the same ratios twice")

# --- Theorem 1 (P), proved as A Theorems 10, 13, 14, 15 — pair form, δ := D_{e^ε}(μ‖ν) -----------------------------

ERASURE_REFERENCE = {"mu": [0.8, 0.2], "nu": [0.3, 0.7]}  # catalogue thm1.1 / thm1.2 reference pair


@theorem(id="balle19.thm1.1", title=r"Amplification by a $\gamma$-Dobrushin kernel",
         number="Theorem 1(1) (proof: A Theorem 10)", statement=sp.Le(HS_OUT, DOB * HS_PAIR), parameters=(EPS_WIDE,),
         setting=PAIR_KERNEL,
         tight_at=(  # catalogue thm1.1: γ = 0.3, ε = 0.7 → both sides 0.058762256327657113054
             {"epsilon": 0.7, "structure": {**ERASURE_REFERENCE, "K": erasure(0.3)}},
             {"epsilon": 0.1, "structure": {"mu": [0.5, 0.2, 0.3], "nu": [0.1, 0.6, 0.3], "K": erasure(0.9, 3)}}))
def theorem_1_1(point):
    r"""Tight on the erasure channel, for every pair and $\varepsilon$ (catalogue \symdpid{balle19.thm1.1};
    \symdpcode{proofs.balle19.mixing.ERASURE\_HS})."""
    P, Q, Kt, PK, QK = PAIR_KERNEL(point)
    e = point["epsilon"]
    return built_from((P, Q, Kt), {HS_OUT: hs(PK, QK, e), DOB: unit_scale(Kt.dobrushin()), HS_PAIR: hs(P, Q, e)})


@theorem(id="balle19.thm1.2", title=r"Amplification by a $(\gamma, \tilde\varepsilon)$-Dobrushin kernel",
         number="Theorem 1(2) (proof: A Theorem 13)", statement=sp.Le(HS_OUT, DOB_TILDE * delta), parameters=(EPS_WIDE,),
         setting=PAIR_KERNEL_DELTA,
         tight_at=({"epsilon": 0.7, "structure": {**ERASURE_REFERENCE, "K": erasure(0.3), "slack": 0}},
                   # catalogue thm1.2 reference: binary RR p = 0.9, both sides 0.055324079460038
                   {"epsilon": 0.7, "structure": {**ERASURE_REFERENCE, "slack": 0,
                                                  "K": {"kind": "dense", "rows": [[0.9, 0.1], [0.1, 0.9]]}}}),
         # RR(3/4) at eps~ >= log 3: gamma_Dob(K, eps~) = 0, both sides 0 (an equality of zeros, not a tightness claim)
         examples=({"epsilon": 1.3, "structure": {"mu": [0.95, 0.05], "nu": [0.1, 0.9], "K": RR_3_4, "slack": 0}},))
def theorem_1_2(point):
    r"""For a pair that is $(\varepsilon, \delta)$-DP, $\delta$ drawn in $[D_{e^{\varepsilon}}(\mu\|\nu), 1]$; at
    $\delta = 0$, $\tilde\varepsilon = \infty$ and the coefficient is read with $D_\infty$ (footnote 3). Binary
    randomized response with binary inputs attains the bound whenever it is positive (catalogue); the erasure channel
    attains it for every $\tilde\varepsilon$. Theorem 1(1) is loose on RR."""
    P, Q, Kt, PK, QK, e, d = _pair_delta(point)
    coefficient = unit_scale(Kt.dobrushin_eps(eps_tilde_level(e, d)))
    return built_from((P, Q, Kt), {HS_OUT: hs(PK, QK, e), DOB_TILDE: coefficient, delta: d})


_HS_PRIME = HockeyStick(Law(r"\mu' K"), Law(r"\nu' K"), EPS_TILDE.subs(delta, theta))


@theorem(id="balle19.thm1.2.mixture", title="Theorem 13's proof: the overlapping mixture identity pushed through $K$",
         number="appendix, proof of Theorem 13", statement=sp.Eq(HS_OUT, theta * _HS_PRIME, evaluate=False),
         parameters=(EPS_WIDE,), setting=PAIR_KERNEL.where(r", $\theta = D_{e^{\varepsilon}}(\mu\|\nu)$"),
         tight_everywhere=True)
def theorem_13_mixture(point):
    r"""The decomposition $\mu - e^{\varepsilon}\nu = \theta(\mu' - e^{\tilde\varepsilon_\theta}\nu')$,
    $\tilde\varepsilon_\theta = \log(1 + (e^{\varepsilon} - 1)/\theta)$
    (\symdpcode{proofs.balle19.mixing.THM13\_MIXTURE}), pushed through $K$: the divergence of the pushed pair against
    that of the pushed components, at another level. Where $\theta = 0$ there is no decomposition and both sides are 0
    ($\mu \le e^{\varepsilon}\nu$, hence $\mu K \le e^{\varepsilon}\nu K$)."""
    e = point["epsilon"]
    P, Q, Kt, PK, QK = PAIR_KERNEL(point)
    theta_, mu_p, nu_p = mixture_decomposition(P, Q, e)
    if mu_p is None:   # θ = 0: the measurement of the components is any value in [0, 1] (it is multiplied by 0)
        return built_from((P, Q, Kt), {HS_OUT: hs(PK, QK, e), theta: theta_, _HS_PRIME: ANY_HOCKEY_STICK})
    # μ', ν' are rounded (they need e^ε): the draw is decided with the construction floor
    return {HS_OUT: hs(PK, QK, e), theta: theta_,
            _HS_PRIME: hs(Kt.apply(mu_p), Kt.apply(nu_p), eps_tilde_level(e, theta_))}


# Catalogue erratum E5: γθ = 0.148102298344 (= D(μK‖νK) exactly) vs the printed γD_{e^{ε'}}(μ‖ν) = 0.0598328257257.
E5_COUNTEREXAMPLE = {"epsilon": 0.5, "structure": {"mu": [0.7, 0.3], "nu": [0.2, 0.8], "K": erasure(0.4),
                                                   "slack": 0}}
_HS_AT_EPS_PRIME = HockeyStick(mu, nu, epsilon_p)


def _last_line_as_printed(point):
    P, Q, Kt, _, _, e, d = _pair_delta(point)
    level = eps_tilde_level(e, d)
    return built_from((P, Q, Kt), {gamma: unit_scale(Kt.dobrushin_eps(level)), HS_PAIR: hs(P, Q, e),
                                   _HS_AT_EPS_PRIME: hs(P, Q, level)})


@theorem(
    id="balle19.thm1.2.last-line.corrected",
    title=r"Theorem 13's proof, last line corrected: $D(\mu K\|\nu K) \le \gamma D_{e^{\varepsilon}}(\mu\|\nu)$",
    number="appendix, proof of Theorem 13, last display", statement=sp.Le(HS_OUT, DOB_TILDE * HS_PAIR),
    parameters=(EPS_WIDE,), setting=PAIR_KERNEL_DELTA,
    tight_at=(E5_COUNTEREXAMPLE,
              {"epsilon": 0.5, "structure": {"mu": [0.7, 0.3], "nu": [0.2, 0.8], "K": erasure(0.4), "slack": 0.5}}),
    printed=Printed(
        id="balle19.thm1.2.last-line", statement=sp.Eq(gamma * HS_PAIR, gamma * _HS_AT_EPS_PRIME, evaluate=False),
        title=r"Theorem 13's proof, last line as printed: $\gamma\theta = \gamma D_{e^{\varepsilon'}}(\mu\|\nu)$",
        location="A, proof of Theorem 13, last display",
        printed=r"$\le \gamma\theta = \gamma D_{e^{\varepsilon'}}(\mu\|\nu)$",
        corrected=r"$\le \gamma\theta = \gamma D_{e^{\varepsilon}}(\mu\|\nu) \le \gamma\delta$",
        counterexample=E5_COUNTEREXAMPLE, severity="typo",
        note=r"Catalogue erratum E5: $\theta$ was defined as $D_{e^{\varepsilon}}(\mu\|\nu)$, not at level "
             r"$\varepsilon'$; the proof's conclusion ($\le \gamma\delta$) follows from the corrected line. Notation: "
             r"P calls the level $\tilde\varepsilon$, A calls it $\varepsilon'$.",
        changes={"witness": _last_line_as_printed,
                 "setting": PAIR_KERNEL_DELTA.where(r", $\gamma = \gamma_{\mathrm{Dob}}(K, \varepsilon')$, "
                                                    r"$\varepsilon' = \log(1 + (e^{\varepsilon}-1)/\delta)$"),
                 "notes": r"The divergence at $\varepsilon'$ is $D_\infty$ (the mass off the support) when "
                          r"$\delta = 0$."}))
def theorem_13_last_line_corrected(point):
    r"""Stronger than Theorem 1(2), which ends with $\gamma\delta$, when $\delta > \theta$. Tight on the erasure
    channel for every $\delta$ (its coefficient is $\gamma$ at every level)."""
    P, Q, Kt, PK, QK, e, d = _pair_delta(point)
    coefficient = unit_scale(Kt.dobrushin_eps(eps_tilde_level(e, d)))
    return built_from((P, Q, Kt), {HS_OUT: hs(PK, QK, e), DOB_TILDE: coefficient, HS_PAIR: hs(P, Q, e)})


@theorem(id="balle19.thm1.3", title=r"Amplification by a $\gamma$-Doeblin kernel",
         number="Theorem 1(3) (proof: A Theorem 14)", statement=sp.Le(HS_OUT_AT_EPS_PRIME, DELTA_PRIME_DOEBLIN),
         parameters=(EPS_WIDE,), setting=DOEBLIN,
         tight_at=(_extremal(0.3, 0.05, 0.7),   # catalogue: 0.1154312318936138018163924 on both sides
                   _extremal(0.5, 0, 1)))       # catalogue: 0.1580301397071394196011191 (δ' > 0 although δ = 0)
def theorem_1_3(point):
    r"""Tight for one-sided pairs, with exact equality on the catalogue's extremal instance
    (\symdpcode{proofs.balle19.mixing.THM14\_EXTREMAL\_OUTPUT}; it violates $D_{e^{\varepsilon}}(\nu\|\mu) \le
    \delta$); for two-sided pairs the catalogue's numerical search found at most $\gamma[\delta + (1-\delta)
    (e^{\varepsilon} - e^{\varepsilon'})/(1+e^{\varepsilon})]$."""
    s, e = point["structure"], point["epsilon"]
    extremal = s.get("kind") == "doeblin-extremal"
    P, Q, Kt = doeblin_extremal_pair(s, e) if extremal else pushed(s)[:3]
    return _amplified(P, Q, Kt, unit_scale(Kt.doeblin()), e, extremal)


REMARK_DOEBLIN = declare(
    id="balle19.thm1.rem-doeblin",
    title=r"Doeblin amplifies $\delta$ only below a threshold: exact factorisation of $\delta' - \delta$",
    number="Section 3, remark after Theorem 1",
    statement=sp.Eq((DELTA_PRIME_DOEBLIN - delta) * sp.exp(epsilon),
                    (gamma - 1) * (delta * sp.exp(epsilon) - gamma * (sp.exp(epsilon) - 1) * (1 - delta)),
                    evaluate=False),
    evidence=IDENTITY, derivation=REM_DOEBLIN,
    symbolic_only=r"an algebraic identity in $\gamma$, $\delta$, $\varepsilon$ "
                  r"(\symdpcode{proofs.balle19.mixing.REM\_DOEBLIN}); its second factor vanishes at the printed "
                  r"threshold (\symdpcode{REM\_DOEBLIN\_THRESHOLD})")

REMARK_EPS_PRIME = declare(
    id="balle19.thm1.rem-doeblin.eps",
    title=r"The amplified $\varepsilon' = \log(1 + \gamma(e^{\varepsilon} - 1))$ never exceeds $\varepsilon$",
    number="Section 3, remark after Theorem 1", statement=sp.Le(EPS_PRIME, epsilon), evidence=CLOSED_FORM,
    evidence_note=r"the paper's claim $\varepsilon' \le \varepsilon$ is an inequality between two formulas of $\gamma$ "
                  r"and $\varepsilon$; symbolic proof: \symdpcode{proofs.balle19.mixing.EPS\_PRIME\_LE\_EPS}",
    # Drawn from eps >= 1e-9: below, e^eps - 1 cancels more digits than the working precision has and a draw of two
    # sides ~1e-63 is inconclusive (seen at seed 3); eps = 0 itself is pinned (exactly 0 <= 0).
    parameters=(GAMMA, Param(epsilon, sp.Interval(0, sp.oo), sample=(1e-9, 50), log=True,
                              limit="eps = 0 is pinned (examples); above 50, eps' = eps + log(gamma) + "
                                    "O(e^-eps) and the ratio eps'/eps -> 1 as 1 + log(gamma)/eps: reached to 50")),
    tight_at=({"gamma": 1, "epsilon": 1.7},), examples=({"gamma": 0.5, "epsilon": 0},),
    notes=r"Equality at $\gamma = 1$ (no mixing) or $\varepsilon = 0$.")


@theorem(id="balle19.thm1.4", title=r"Amplification by a $\gamma$-ultra-mixing kernel",
         number="Theorem 1(4) (proof: A Theorem 15)", statement=sp.Le(HS_OUT_AT_EPS_PRIME, DELTA_PRIME_ULTRA),
         parameters=(EPS,),
         setting=POSITIVE_PAIR_KERNEL.where(r", $\gamma = \gamma_{\mathrm{um}}(K)$, $\delta = "
                                            r"D_{e^{\varepsilon}}(\mu\|\nu)$"),
         # The worst ratio lives at eps = 0 (delta' = gamma*delta, the TV contraction by gamma_um >= gamma_Dob), on
         # point masses through binary RR: ratio 1/(1 + r), r = K[0][1]/K[0][0], -> 1 as gamma -> 1; random draws
         # (worst 0.31) never come near it.
         examples=({"epsilon": 0, "structure": {"mu": [1, 0], "nu": [0, 1], "K": RR_08}},          # ratio 0.8
                   {"epsilon": 0, "structure": {"mu": [1, 0], "nu": [0, 1], "K": RR_0999}},        # ratio 0.999
                   {"epsilon": 0.01, "structure": {"mu": [1, 0], "nu": [0, 1], "K": RR_0999}}))    # 0.9989999
def theorem_1_4(point):
    r"""Loose (catalogue): no instance attains $\delta'$ when $0 < \gamma < 1$; the draws report the worst ratio. Its
    supremum is nevertheless 1, approached at $\varepsilon = 0$ (where $\varepsilon' = 0$ and $\delta' = \gamma\delta$:
    total variation contracted by $\gamma_{\mathrm{um}} \ge \gamma_{\mathrm{Dob}}$) as $\gamma \to 1$: point masses
    through binary randomized response $[[p, 1-p], [1-p, p]]$ give the ratio $p = 1/(1 + r)$, $r = (1-p)/p$ (pinned
    at $p = 0.8$ and $0.999$; the ratio falls as $\varepsilon$ grows). For $\delta = 0$ both sides are 0 and the
    looseness is in $\varepsilon'$ (\symdpid{balle19.thm1.4.pure}, \symdpid{balle19.thm1.4.sharp})."""
    P, Q, Kt, _, _ = POSITIVE_PAIR_KERNEL(point)
    return _amplified(P, Q, Kt, unit_scale(Kt.ultra_mixing()), point["epsilon"])


@theorem(id="balle19.thm1.4.pure", title=r"Ultra-mixing amplification for pure DP ($\delta = 0$)",
         number=r"Theorem 1(4), $\delta = 0$", statement=sp.Le(MAX_OUT, EPS_PRIME), setting=PURE,
         examples=(_sharp(0.5, 1),     # catalogue: eps* = 0.37988549304172247537 vs eps' = 0.62011450695827752463
                   # the drawn corner closest to the supremum 1: ratio eps*/eps' = 1 - (1 - gamma) eps + O(eps^2)
                   _sharp(0.99, 0.01)))   # 0.99990000420
def theorem_1_4_pure(point):
    r"""Loose for $0 < \gamma < 1$, $\varepsilon > 0$: the exact supremum is $\varepsilon^*$
    (\symdpid{balle19.thm1.4.sharp}). The ratio $\varepsilon^*/\varepsilon' = 1 - (1-\gamma)\varepsilon +
    O(\varepsilon^2)$ tends to 1 as $\varepsilon \to 0$ or $\gamma \to 1$ (not attained): pinned at the corner
    $\gamma = 0.99$, $\varepsilon = 0.01$ of the drawn extremal instances (ratio $0.9999$)."""
    return _pure(point)


@theorem(id="balle19.thm1.4.sharp", title=r"Ultra-mixing amplification for pure DP: the exact supremum $\varepsilon^*$",
         number=r"Theorem 1(4), $\delta = 0$ (sharp form derived in the catalogue)", statement=sp.Le(MAX_OUT, EPS_STAR),
         setting=PURE, tight_at=(_sharp(0.5, 1),    # catalogue: 0.37988549304172247537
                                 _sharp(0.3, 2)))   # catalogue: 0.30029382064203496835
def theorem_1_4_sharp(point):
    r"""Not in the paper (catalogue, re-derived in \symdpcode{proofs.balle19.mixing}: \symdpcode{SHARP\_VERTEX},
    \symdpcode{SHARP\_GAP}, \symdpcode{SHARP\_EXTREMAL}). Each column of a $\gamma$-ultra-mixing $K$ lies in $[m_y,
    m_y/(1-\gamma)]$; the ratio $(\mu K)(y)/(\nu K)(y)$ is linear-fractional in the column, maximal at a vertex (a set
    $S$ of inputs at the top), where it is $(1 + \mu(S)c)/(1 + \nu(S)c)$, $c = \gamma/(1-\gamma)$, with $\nu(S) \ge
    e^{-\varepsilon}\mu(S)$: at most $(1 + c)/(1 + e^{-\varepsilon}c) = e^{\varepsilon^*}$, attained at $\mu = (1,
    0)$, $\nu = (e^{-\varepsilon}, 1 - e^{-\varepsilon})$, $K = [[1, 1-\gamma], [1-\gamma, 1]]/(2-\gamma)$."""
    return _pure(point)


# --- Lemmas 11, 12, advanced joint convexity, eq. (5) --------------------------------------------------------------



@theorem(id="balle19.lem11",
         title=r"Disjoint inputs: the $(\gamma, \varepsilon)$-Dobrushin coefficient bounds every output divergence",
         number="appendix, Lemma 11", statement=sp.Le(HS_OUT, DOB_EPS), parameters=(EPS_WIDE,), setting=DISJOINT_INPUTS,
         tight_at=({"epsilon": 0.3, "structure": {"K": RR_08, "roles": [1, 2], "a": [1, 1], "b": [1, 1]}},
                   {"epsilon": 1.1, "structure": {"K": erasure(0.6, 3), "roles": [1, 0, 2], "a": [1, 1, 1],
                                                  "b": [1, 1, 1]}}))
def lemma_11(point):
    r"""Checked with $\gamma = \gamma_{\mathrm{Dob}}(K, \varepsilon)$. Tight at point masses on the maximising pair of
    inputs."""
    Kt, A, B = DISJOINT_INPUTS(point)
    e = point["epsilon"]
    return built_from((Kt, A, B), {HS_OUT: hs(Kt.apply(A), Kt.apply(B), e), DOB_EPS: unit_scale(Kt.dobrushin_eps(e))})


LEMMA_12 = declare(
    id="balle19.lem12", title="Hockey-stick divergence as one minus the overlap", number="appendix, Lemma 12",
    statement=sp.Eq(HS_PAIR, 1 - Law(r"\int (p_\mu \wedge e^{\epsilon} p_\nu)\, d\lambda"), evaluate=False),
    evidence=IDENTITY, derivation=LEMMA_12_PROOF,
    symbolic_only=r"atom by atom $[a - c]_+ = a - a \wedge c$, summed with $\sum\mu = 1$ "
                  r"(\symdpcode{proofs.balle19.mixing.LEMMA\_12}); a numeric check would sum the same atoms twice")

_AJC_LEFT = HockeyStick(Law(r"(1-\gamma)\omega + \gamma\mu_1"), Law(r"(1-\gamma)\omega + \gamma\nu_1"), EPS_PRIME)
_AJC_RIGHT = HockeyStick(Law(r"\mu_1"), Law(r"(1-\beta)\omega + \beta\nu_1"), epsilon)


@theorem(id="balle19.ajc", title="Advanced joint convexity of the hockey-stick divergence (identity)",
         number="appendix, proofs of Theorems 14 and 15 (citing [2, Theorem 2])",
         statement=sp.Eq(_AJC_LEFT, gamma * _AJC_RIGHT, evaluate=False), parameters=(GAMMA, EPS_WIDE), setting=THREE,
         tight_everywhere=True)
def advanced_joint_convexity(point):
    r"""The signed-measure identity behind it is \symdpcode{proofs.balle19.mixing.AJC}; here the divergences of two
    different pairs are summed independently, both mixtures built from the drawn $\omega$, $\mu_1$, $\nu_1$ at the
    statement's $\varepsilon'$ and $\beta$."""
    g, e = point["gamma"], point["epsilon"]
    om, m1, n1 = THREE(point)
    b = min(_beta(g, e), 1)  # beta <= 1 as eps' <= eps (EPS_PRIME_LE_EPS); at gamma = 1 it may round to 1 + 1e-51
    # the left pair is exact (γ drawn); β = e^{ε' − ε} is transcendental, so the right mixture is rounded
    return {_AJC_LEFT: hs(mixture(g, om, m1), mixture(g, om, n1), eps_prime_ball(g, e)),
            _AJC_RIGHT: hs(m1, mixture(b, om, n1), e)}


EQ_5 = declare(
    id="balle19.eq5", title=r"Eq. (5): the mixture kernel $\tilde K$ maps $\tilde\omega$ to $\omega$",
    number="appendix, proof of Theorem 15, eq. (5)",
    statement=sp.Eq(Law(r"\tilde\omega\tilde K"), omega, evaluate=False), evidence=IDENTITY, derivation=EQ5,
    symbolic_only=r"linear in $\tilde\omega$ for any number of inputs (\symdpcode{proofs.balle19.mixing.EQ5}; the rows "
                  r"of $\tilde K$ sum to 1: \symdpcode{EQ5\_ROWS}); exact rational draws would recompute the same sums")

EQ5_EXAMPLE = {"K": [[2, 1, 1], [1, 2, 1], [1, 1, 2]], "mu": [1, 0, 0], "nu": [0, 1, 1], "alpha": 0, "extra": 0}
_MIN_RATIO = MinRatioToOmega(K, omega)


@theorem(id="balle19.eq5.nonnegative",
         title=r"Eq. (5): $\tilde K$ is a Markov kernel (non-negative entries: $K \ge (1 - \gamma)\omega$)",
         number="appendix, proof of Theorem 15", statement=sp.Ge(_MIN_RATIO, 1 - gamma), setting=EQ5_SETTING,
         tight_at=({"structure": EQ5_EXAMPLE},))
def eq5_nonnegative(point):
    r"""The rows of $\tilde K$ sum to 1 (\symdpcode{proofs.balle19.mixing.EQ5\_ROWS}); its entries $\gamma\tilde K(x, y)
    = K(x, y) - (1-\gamma)\omega(y)$ are non-negative iff $\min_{x,y} K(x, y)/\omega(y) \ge 1 - \gamma$, the form
    checked. Ultra-mixing gives $K(x, y) \ge (1 - \gamma) K(x', y)$ for every $x'$, hence $\ge (1 - \gamma)\omega(y)$,
    $\omega$ being an average of the rows. Exact rationals, converted at the end. Equality when $\tilde\omega$ is the
    point mass at the input attaining $\gamma_{\mathrm{um}}$ and $\gamma = \gamma_{\mathrm{um}}$ (both sides 1/2)."""
    o = EQ5_SETTING(point)
    ratio = min(row[y] / w for row in o["K"] for y, w in enumerate(o["omega"]))
    return {_MIN_RATIO: BuiltExactly(enclosure(ratio)), gamma: BuiltExactly(enclosure(o["gamma"]))}


EQ_5_MIXTURE = declare(
    id="balle19.eq5.mixture", title=r"Theorem 15's proof: $\mu K = (1 - \gamma)\omega + \gamma\mu\tilde K$",
    number="appendix, proof of Theorem 15 (mixture decompositions)",
    statement=sp.Eq(muK, (1 - gamma) * omega + gamma * Law(r"\mu\tilde K"), evaluate=False),
    evidence=IDENTITY, derivation=EQ5_MIXTURE,
    symbolic_only=r"linear in $\mu$ for any number of inputs (\symdpcode{proofs.balle19.mixing.EQ5\_MIXTURE})",
    notes=r"Printed (typo E6): `$\mu\tilde K = (1 - \gamma)\omega + \gamma\mu\tilde K$' and the same for $\nu$; read "
          r"$\mu K$, $\nu K$ on the left. Also, $\alpha = 0$ ($\omega = \mu K$) may be taken directly: ultra-mixing "
          r"gives $K(x) \ge (1-\gamma)\tilde\omega K$ for every $x$, so the limit $\alpha \to 0$ in the proof is "
          "unnecessary (catalogue).")

THEOREMS = registered(__name__)
