"""Bertazzi, Johnston, Roberts, Durmus (2025), Section 2 and Definition A.1: the posterior (eq. (1)), (ε, δ)-DP and
Rényi DP (Definitions 2.1, 2.2, eq. (4)), the RDP-to-DP conversion, total variation.

What is the paper's own is checked: the posterior of eq. (1) as the stationary law of the Metropolis–Hastings chain
that targets it, the DP of a posterior (eq. (3)) as a supremum over events against the engine's two-sided
hockey-stick, and Mironov's conversion on finite and Gaussian pairs. The definitions that Bravo et al. share (Rényi
divergence, total variation) are checked there and cited."""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import mpmath
import sympy as sp
from flint import arb
from hypothesis import strategies as st

from symdp.engine.continuous import Gaussian
from symdp.estimate import enclosure
from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution
from symdp.engine.markov import metropolis_hastings
from symdp.expressions import TV, HockeyStick, Renyi, quantity
from symdp.numeric import to_mpf
from symdp.statement import BuiltExactly
from symdp.strategies import flatmapped, weights
from symdp.symbols import Law, P, Q, alpha, delta, epsilon
from symdp.theorem import Param, Setting, declare, registered, theorem
from symdp.theorems.bertazzi.common import P_ALPHA, ball, finite_floats
from symdp.theorems.bertazzi.convergence import (
    DPDelta,
    as_mpf,
    bernoulli_posterior,
    least_delta,
)

pi_, P_law, Q_law = Law(r"\pi"), P, Q   # P, Q: the catalogue's one P and one Q

PosteriorMass = quantity("PosteriorMass", 0, r"\frac{{\int_{{\mathsf{{B}}}} L_{{\mathcal{{D}}}}(\theta)\,"
                         r"\eta(d\theta)}}{{\int L_{{\mathcal{{D}}}}\,d\eta}}",
                         "π_D(B) by eq. (1): the likelihood times the prior, summed over B and normalised.",
                         domain=(0, 1), rounding="relative")
StationaryMass = quantity("StationaryMass", 0, r"\pi_{{P}}\left(\mathsf{{B}}\right)",
                          "π_P(B), π_P the solution of πP = π, Σπ = 1 for the Metropolis–Hastings kernel P.",
                          domain=(0, 1), rounding="relative")
DeltaByEvents = quantity("DeltaByEvents", 1, r"\sup_{{\mathsf{{B}}, (\mathcal{{D}}, \mathcal{{D}}')}} \left(\pi_"
                         r"{{\mathcal{{D}}}}(\mathsf{{B}}) - e^{{{0}}}\pi_{{\mathcal{{D}}'}}(\mathsf{{B}})\right)",
                         "The least δ of eq. (3), as a supremum over every event and both orders of the pair.",
                         domain=(0, 1))

P_EPS = Param(epsilon, sp.Interval(0, sp.oo), sample=(0.0, 30.0), limit=(
    r"an identity at every epsilon; on these grids (k <= 6, m <= 6) the posteriors' ratios are below e^3.1, so "
    r"beyond epsilon = 3.1 both sides are 0"))
P_DELTA = Param(delta, sp.Interval.open(0, 1), sample=(1e-12, 0.99999), log=True, limit=(
    r"exact over converted delta is largest as delta -> 1: on the drawn finite pairs 0.6213 at 0.99999 (pinned) "
    r"against 0.6230 at 1 - 1e-7 (a two-valued pair, Q's atom at the weight floor 1/401, alpha at its optimum), "
    r"0.406 on N(0, 1), N(5, 1) at 0.999 (pinned); below 1e-12 it only falls"))


def grid_posteriors() -> st.SearchStrategy[dict]:
    """A Bernoulli model on the grid θ_i = i/(k + 1), k = 2..6, m = 1..6 observations, s successes (𝒟′: s + 1), a
    uniform prior, and an event B."""
    return flatmapped(st.integers(2, 6), lambda k: flatmapped(st.integers(1, 6), lambda m_: st.fixed_dictionaries({
        "grid": st.just(k), "m": st.just(m_), "successes": st.integers(0, m_ - 1),
        "B": st.lists(st.booleans(), min_size=k, max_size=k)})))


POSTERIORS = Setting(r"$L_{\mathcal{D}}(\theta) = \theta^s(1 - \theta)^{m - s}$ on $\theta \in \{\frac{i}{k + 1}: i "
                     r"= 1, \dots, k\}$, $k \le 6$, $m \le 6$, $\eta$ uniform; $\mathcal{D}'$ has $s + 1$ successes; "
                     r"$\mathsf{B}$ an event", strategy=grid_posteriors)
POSTERIOR_PIN = {"structure": {"grid": 4, "m": 3, "successes": 1, "B": [True, True, False, False]}}


def _posteriors(s_) -> list:
    return [bernoulli_posterior(s_["grid"], s_["m"], s_["successes"] + j) for j in (0, 1)]


@theorem(id="bertazzi.eq1", title="the posterior is the stationary law of a Metropolis--Hastings chain targeting it",
         number="eq. (1)", setting=POSTERIORS, statement=sp.Eq(StationaryMass(), PosteriorMass()),
         tight_everywhere=True, examples=(POSTERIOR_PIN,))
def equation_1(point):
    r"""Eq. (1) defines $\pi_{\mathcal{D}}$; what Section 3 uses of it is that an MCMC kernel leaves it invariant.
    The right side is eq. (1) itself (likelihood times prior over $\mathsf{B}$, normalised, exact rationals); the left
    the stationary law of the nearest-neighbour Metropolis--Hastings kernel built from the posterior's ratios, solved
    exactly from $\pi P = \pi$ (:func:`symdp.engine.markov.metropolis\_hastings`). Both masses are rationals, their
    balls certified. Equal to the last digit."""
    s_ = point["structure"]
    posterior = _posteriors(s_)[0]
    stationary = metropolis_hastings(posterior).stationary()
    mass = lambda law: BuiltExactly(enclosure(lambda: ball(sum((v for v, inside in zip(law, s_["B"]) if inside),
                                                               Fraction(0)))))
    return {StationaryMass(): mass(stationary), PosteriorMass(): mass(posterior)}


@theorem(id="bertazzi.def2.1", title=r"$(\varepsilon, \delta)$-DP of a posterior: the least $\delta$ over events is "
         "the two-sided hockey-stick divergence", number="Definition 2.1, eq. (3)", parameters=(P_EPS,),
         setting=POSTERIORS, statement=sp.Eq(DeltaByEvents(epsilon), DPDelta(pi_, epsilon)), tight_everywhere=True,
         examples=({"epsilon": 0.5, **POSTERIOR_PIN},))
def definition_2_1(point):
    r"""The paper's own form, eq. (3): the least $\delta$ with $\pi_{\mathcal{D}}(\mathsf{B}) \le
    e^\varepsilon\pi_{\mathcal{D}'}(\mathsf{B}) + \delta$ for every event $\mathsf{B}$ (all $2^k$ enumerated) and both
    orders of the adjacent pair (adjacency is symmetric), against the larger of the engine's two hockey-stick
    divergences. That one order's supremum is the hockey-stick divergence is \symdpid{balle19.def.hs}, and the
    quantifier over datasets of Definition 2.1 for a mechanism is \symdpid{bravo.def5.1}; this checks it for the
    posteriors of a Bernoulli model, the family Section 3 asks to be DP."""
    posteriors = [[as_mpf(v) for v in law] for law in _posteriors(point["structure"])]

    def least_over_events():   # the same rounded masses the door's laws are built from, in balls
        e = ball(point["epsilon"]).exp()
        gaps = [sum((ball(P_[i]) for i in B), arb(0)) - e * sum((ball(Q_[i]) for i in B), arb(0))
                for P_, Q_ in (posteriors, posteriors[::-1])
                for size in range(len(P_) + 1) for B in itertools.combinations(range(len(P_)), size)]
        return functools.reduce(arb.max, gaps)
    return {DeltaByEvents(epsilon): enclosure(least_over_events),
            DPDelta(pi_, epsilon): least_delta(posteriors, point["epsilon"])}


RDP_DP = Renyi(P_law, Q_law, alpha) + sp.log(1 / delta) / (alpha - 1)


def rdp_pairs() -> st.SearchStrategy[dict]:
    """Finite pairs on 2–5 atoms, or N(0, 1) against N(s, 1), s ∈ [0.01, 5]."""
    finite = flatmapped(st.integers(2, 5), lambda k: st.fixed_dictionaries({"p": weights(k), "q": weights(k)}))
    return st.one_of(finite, st.fixed_dictionaries({"shift": finite_floats(0.01, 5.0)}))


def _pair(s_) -> tuple:
    if "shift" in s_:
        return Gaussian(0, 1), Gaussian(to_mpf(s_["shift"], "shift"), 1)
    return FiniteDistribution.normalized(s_["p"]), FiniteDistribution.normalized(s_["q"])


PAIRS = Setting(r"$P, Q$ on $2$--$5$ atoms, or $P = \mathcal{N}(0, 1)$, $Q = \mathcal{N}(s, 1)$, $s \in [0.01, 5]$",
                strategy=rdp_pairs)


RDP_DP_NEAR_SUP = {"alpha": 1.0089465, "delta": 0.999, "structure": {"shift": 5.0}}
"""The largest exact/converted delta the draws allow: on N(0, 1), N(s, 1) the converted eps, s^2 alpha/2 + ln(1/delta)/
(alpha - 1), is least at alpha = 1 + sqrt(2 ln(1/delta))/s, where it is C/4 + sqrt(C ln(1/delta)), C = 2s^2, and the
ratio tends to Phi(-sqrt(2 ln(1/delta)))/delta as s -> oo (1/2 as delta -> 1; scipy Nelder-Mead finds nothing larger);
at the largest drawn shift s = 5 and delta = 0.999: 0.406."""
RDP_DP_FINITE = {"alpha": 1.00147, "delta": 0.99999,
                 "structure": {"p": [0.1276, 0.01, 0.01, 0.01, 0.01], "q": [0.01, 1.0, 1.0, 1.0, 1.0]}}
"""The largest exact/converted delta of the finite pairs the draws allow (weights in [0.01, 1], 5 atoms): Q puts the
floor 0.01/4.01 on one atom, P about 0.76 on it and the rest evenly; alpha and P's mass optimised (scipy, every
weight free, finds nothing larger): 0.6213 at delta = 0.99999, where the Gaussian pairs reach 0.406."""


@theorem(id="bertazzi.fact2.rdp2dp", title=r"$(\alpha, \varepsilon)$-RDP implies $(\varepsilon + \frac{\log(1/\delta)}"
         r"{\alpha - 1}, \delta)$-DP", number="Section 2, after Definition 2.2 (Mironov 2017, Proposition 3)",
         parameters=(P_ALPHA, P_DELTA), setting=PAIRS,
         statement=sp.Le(HockeyStick(P_law, Q_law, RDP_DP), delta),
         examples=({"alpha": 2.0, "delta": 1e-5, "structure": {"shift": 1.0}}, RDP_DP_NEAR_SUP, RDP_DP_FINITE),
         default_examples=70)
def rdp_to_dp(point):
    r"""For one pair, with $\varepsilon$ its own R\'enyi divergence (the least with which the pair is $(\alpha,
    \varepsilon)$-RDP): $R_\alpha(P\|Q)$ and then the hockey-stick divergence at the converted $\varepsilon +
    \log(1/\delta)/(\alpha - 1)$, both from the laws (exact sums; quadrature of the Gaussian densities). A mechanism's
    conversion is this for each adjacent pair, both orders. The domains are those the formula needs (catalogue E21,
    E22): $\alpha > 1$ and $\delta \in (0, 1)$. Loose, never attained: on the Gaussian pairs exact over converted
    $\delta$ has supremum $1/2$ (shift $\to \infty$, $\delta \to 1$, $\alpha$ at its optimum), 0.406 at the pin
    (shift 5, $\delta = 0.999$, $\alpha = 1.009$); the catalogue saw at most $0.217\delta$ over 2000 draws. The finite
    pairs come closer: a pair with $Q$ at the weights' floor on one atom ($1/401$) and $P$ about $0.76$ there reaches
    $0.6213$ at $\delta = 0.99999$, $\alpha = 1.00147$ (pinned), and about $0.623$ as $\delta \to 1$."""
    P_, Q_ = _pair(point["structure"])
    method = "densities" if isinstance(P_, Gaussian) else "auto"
    renyi = divergence("renyi", P_, Q_, point["alpha"], method=method)
    converted = renyi.value + mpmath.log(1 / point["delta"]) / (point["alpha"] - 1)
    return divergence("hockey_stick", P_, Q_, converted, method=method)


CITED = r"the same definition as \symdpid{{{0}}}, where the engine's value is checked against it; nothing of this " \
        r"paper's own to add"
declare(id="bertazzi.eq4", title=r"R\'enyi divergence", number="eq. (4)",
        parameters=(P_ALPHA,),
        statement=sp.Eq(Renyi(P_law, Q_law, alpha),
                        sp.log(sp.Symbol(r"\int \left(\frac{dP}{dQ}\right)^{\alpha} dQ")) / (alpha - 1)),
        symbolic_only=CITED.format("bravo.def2.2") + r" ($\alpha > 1$: the paper's ``$\alpha \ge 1$'' means KL at "
        r"$\alpha = 1$ only as a limit, \symdpid{bravo.defA.1.limit}; catalogue E21, E22)")
declare(id="bertazzi.def2.2", title=r"R\'enyi DP", number="Definition 2.2",
        parameters=(P_ALPHA,), statement=sp.Le(Renyi(P_law, Q_law, alpha), epsilon),
        symbolic_only=r"a definition: $(\alpha, \varepsilon)$-RDP is the bound of eq. (4) over adjacent pairs; its "
                      r"R\'enyi divergence is \symdpid{bertazzi.eq4}, its use \symdpid{bertazzi.fact2.rdp2dp}")
declare(id="bertazzi.defA.1", title="total variation", number="Definition A.1",
        statement=sp.Eq(TV(P_law, Q_law), sp.Symbol(r"\sup_{\mathsf{B}} \left|P(\mathsf{B}) - Q(\mathsf{B})\right|")),
        symbolic_only=CITED.format("bravo.defA.2") + r" ($\sup_{\mathsf{B}}|\mu(\mathsf{B}) - \nu(\mathsf{B})|$ "
        r"over all $2^n$ events, no factor 2)")


THEOREMS = registered(__name__)
