"""Bravo, Flores-Mella, Guzmán (2025), Section 4 and Appendix C: mixing of the projected Langevin algorithm (eq. (9),
Lemma 4.1, eq. (12), Theorem 4.2), the Markov-chain facts of Appendix A (Propositions A.8, A.12, A.14, Definition
A.13) and Appendix C (Lemma C.1, Theorem C.2).

The Markov-chain facts are measured on drawn finite chains, exactly (:class:`symdp.engine.markov.FiniteChain`, rational
transition matrices: powers, the stationary law as the solution of πP = π, d(t), d̄(t), T_mix). The PLA chain
X_{t+1} = Π_X(X_t − η∇f(X_t) + sqrt(2η)ξ_t) on X = [−D/2, D/2] is measured through its laws: one step is a Gaussian
clipped to X (:func:`symdp.theorems.bravo.shifts.projected_step_law`)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.engine.divergences import divergence
from symdp.engine.markov import FiniteChain
from symdp.expressions import KL, TV, quantity
from symdp.numeric import to_mpf
from symdp.symbols import D, L, Law, T, epsilon, eta, k, s, t
from symdp.theorem import Param, Printed, Setting, registered, theorem
from symdp.theorems.bravo.appendix import OneMinusExp
from symdp.theorems.bravo.common import P_D, finite_floats
from symdp.theorems.bravo.shifts import projected_step_law

# --- finite chains: Appendix A ----------------------------------------------------------------------------------

KernelPower = quantity("KernelPower", 1, r"P^{{{0}}}\left(x, A\right)",
                       "P^t(x, A) = P(X_t ∈ A | X_0 = x), from the law of X_t stepped from δ_x.", domain=(0, 1),
                       rounding="relative")
ChapmanKolmogorov = quantity("ChapmanKolmogorov", 2, r"\int_{{\mathcal{{X}}}} P^{{{0}}}\left(z, A\right) "
                             r"P^{{{1}}}\left(x, dz\right)",
                             "Σ_z P^t(z, A) P^s(x, z), from the powers P^t and P^s.", domain=(0, 1),
                             rounding="relative")
LawOf = quantity("LawOf", 1, r"\mathbb{{P}}\left(X_{{{0}}} \in A\right)",
                 "P(X_t ∈ A) for X_0 ~ π, from π stepped t times.", domain=(0, 1), rounding="relative")
StationaryMass = quantity("StationaryMass", 0, r"\pi\left(A\right)", "π(A), π the solution of πP = π, Σπ = 1.",
                          domain=(0, 1), rounding="relative")
DistanceToPi = quantity("DistanceToPi", 1, r"d\left({0}\right)", "d(t) = max_x ‖P^t(x, ·) − π‖_TV.", domain=(0, 1))
DBar = quantity("DBar", 1, r"\bar{{d}}\left({0}\right)", "d̄(t) = max_{x,y} ‖P^t(x, ·) − P^t(y, ·)‖_TV.",
                domain=(0, 1))
MixingTime = quantity("MixingTime", 1, r"T_{{mix,TV}}\left({0}\right)", "T_mix(ε) = min{t ≥ 1 : d(t) ≤ ε}.",
                      nonnegative=True, rounding="relative")
T_star = sp.Symbol("T^{*}", integer=True, positive=True)
"""The least T* with d̄(T*) ≤ 1/2, measured on the chain (any larger T* gives a weaker bound)."""


def _irreducible(weights) -> bool:
    n, reach = len(weights), {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in range(n):
            if weights[i][j] and j not in reach:
                reach.add(j)
                frontier.append(j)
    back = {0}
    frontier = [0]
    while frontier:
        j = frontier.pop()
        for i in range(n):
            if weights[i][j] and i not in back:
                back.add(i)
                frontier.append(i)
    return len(reach) == len(back) == n


def finite_chains(max_states: int = 4) -> st.SearchStrategy[dict]:
    """An irreducible aperiodic chain on 2..max_states states (integer weights 0–9 per row, the diagonal at least 1,
    normalised exactly), a start x and an event A."""
    def of_size(n):
        row = st.lists(st.integers(0, 9), min_size=n, max_size=n)
        lazy = st.lists(row, min_size=n, max_size=n).map(
            lambda rows: [[max(v, 1) if i == j else v for j, v in enumerate(r)] for i, r in enumerate(rows)])
        return st.fixed_dictionaries({"weights": lazy.filter(_irreducible), "x": st.integers(0, n - 1),
                                      "A": st.lists(st.booleans(), min_size=n, max_size=n)})
    return st.integers(2, max_states).flatmap(of_size)


def _mass(row, event) -> Fraction:
    return sum((v for v, inside in zip(row, event) if inside), Fraction(0))


FINITE_CHAINS = Setting(r"$P$ an irreducible aperiodic transition matrix on $\mathcal{X} = \{0, \dots, n-1\}$, $n \le "
                        r"4$, rational entries; $x \in \mathcal{X}$, $A \subseteq \mathcal{X}$; $\pi$ its stationary "
                        r"law",
                        strategy=finite_chains, build=lambda s_: FiniteChain.from_weights(s_["weights"]))
TWO_STATE = {"weights": [[3, 1], [2, 2]], "x": 0, "A": [True, False]}
"""P = [[3/4, 1/4], [1/2, 1/2]]: π = (2/3, 1/3), d̄(t) = (1/4)^t exactly."""
ABSORBING = {"weights": [[1, 0], [1, 1]], "x": 1, "A": [False, True]}
"""P = [[1, 0], [1/2, 1/2]]: π = δ_0, d(t) = d̄(t) = 2^{-t}."""
FLIP = {"weights": [[0, 1], [1, 0]], "x": 0, "A": [True, False]}
"""The periodic flip: π = (1/2, 1/2), d(t) = 1/2, d̄(t) = 1."""
P_t = Param(t, sp.Range(1, 13), sample=(1, 12))
P_s = Param(s, sp.Range(1, 13), sample=(1, 12))


def _exact(value, name: str) -> Fraction:
    """A drawn number as the exact rational its binary value is."""
    m = to_mpf(value, name)
    return Fraction(int(m.man)) * Fraction(2) ** int(m.exp)


def _measured(value) -> mpmath.mpf:
    return to_mpf(value, "chain quantity")


@theorem(id="bravo.propA.8", title="Chapman--Kolmogorov", number="Proposition A.8", parameters=(P_t, P_s),
         setting=FINITE_CHAINS, statement=sp.Eq(KernelPower(t + s), ChapmanKolmogorov(t, s)),
         tight_everywhere=True, tight_at=({"t": 3, "s": 2, "structure": TWO_STATE},), default_examples=30)
def proposition_a_8(point):
    r"""Both sides exact (rationals): the left as the law of $X_{t+s}$ stepped $t + s$ times from $\delta_x$, one
    vector--matrix product a step; the right from the powers $P^t$ and $P^s$. An identity of the finite chain (the
    paper's is for a general state space, where $P^t$ is an integral); equality to working precision wherever $P^{t+s}
    (x, A) \ne 0$."""
    structure, chain = point["structure"], FINITE_CHAINS(point)
    tt, ss = int(point["t"]), int(point["s"])
    start = [Fraction(int(i == structure["x"])) for i in range(chain.size)]
    law = start
    for _ in range(tt + ss):
        law = chain.law(law, 1)
    Pt, Ps = chain.power(tt), chain.power(ss)
    right = sum((Ps[structure["x"]][z] * _mass(Pt[z], structure["A"]) for z in range(chain.size)), Fraction(0))
    return {KernelPower(t + s): _measured(_mass(law, structure["A"])), ChapmanKolmogorov(t, s): _measured(right)}


@theorem(id="bravo.propA.12", title="a stationary start stays stationary", number="Proposition A.12",
         parameters=(P_t,), setting=FINITE_CHAINS.where(r", $X_0 \sim \pi$"),
         statement=sp.Eq(LawOf(t), StationaryMass()), tight_everywhere=True,
         tight_at=({"t": 5, "structure": TWO_STATE},), default_examples=30)
def proposition_a_12(point):
    r"""$\pi$ solved exactly from $\pi P = \pi$, $\sum\pi = 1$ (SymPy, rationals); the law of $X_t$ from $\pi$ stepped
    $t$ times. Equality wherever $\pi(A) \ne 0$."""
    structure, chain = point["structure"], FINITE_CHAINS(point)
    pi = chain.stationary()
    return {LawOf(t): _measured(_mass(chain.law(pi, int(point["t"])), structure["A"])),
            StationaryMass(): _measured(_mass(pi, structure["A"]))}


def _distances(point) -> dict:
    chain = FINITE_CHAINS(point)
    return {DistanceToPi(t): _measured(chain.d(int(point["t"]))), DBar(t): _measured(chain.dbar(int(point["t"])))}


@theorem(id="bravo.defA.13", title=r"$d(t) \le \bar d(t)$: the distance to $\pi$ of Definition A.13 below that of "
         r"Proposition A.14", number="Definition A.13", parameters=(P_t,), setting=FINITE_CHAINS,
         statement=sp.Le(DistanceToPi(t), DBar(t)), tight_at=({"t": 3, "structure": ABSORBING},),
         examples=({"t": 1, "structure": FLIP},), default_examples=30)
def definition_a_13(point):
    r"""Definition A.13 defines $T_{mix,TV}(\varepsilon) = \min\{t \in \mathbb{N} : d(t) \le \varepsilon\}$; what ties
    it to the $\bar d$ of Proposition A.14 is $d(t) \le \bar d(t) \le 2d(t)$ (Levin--Peres, Lemma 4.10), checked here
    and in \symdpid{bravo.defA.13.upper} with $d$, $\bar d$ from the rows of $P^t$ and the exact $\pi$. Equality for
    an absorbing state ($\pi = \delta_0$: $d(t) = \bar d(t) = 2^{-t}$, pinned)."""
    return _distances(point)


definition_a_13_upper = theorem(
    id="bravo.defA.13.upper", title=r"$\bar d(t) \le 2d(t)$", number="Definition A.13 (with Proposition A.14)",
    parameters=(P_t,), setting=FINITE_CHAINS, statement=sp.Le(DBar(t), 2 * DistanceToPi(t)),
    tight_at=({"t": 2, "structure": FLIP},), default_examples=30,
    notes=r"The triangle inequality through $\pi$. Equality for the periodic flip ($d(t) = 1/2$, $\bar d(t) = 1$, "
          "pinned).")(_distances)

MT_BOUND = T_star * sp.Max(1, sp.ceiling(sp.log(1 / epsilon, 2)))
MT_PRINTED = T_star * sp.ceiling(sp.log(1 / epsilon, 2))
P_EPS = Param(epsilon, sp.Interval.open(0, sp.oo), sample=(0.001, 4.0))


def _boosting(point) -> dict:
    chain = FINITE_CHAINS(point)
    eps = _exact(point["epsilon"], "epsilon")
    star = chain.first_time(lambda u: chain.dbar(u) <= Fraction(1, 2))
    return {MixingTime(epsilon): chain.mixing_time(eps), T_star: star}


@theorem(id="bravo.propA.14", title="boosting: $T_{mix}(\\varepsilon)$ from $\\bar d(T^*) \\le 1/2$ (corrected)",
         number="Proposition A.14", parameters=(P_EPS,),
         setting=FINITE_CHAINS.where(r", $T^* = \min\{t : \bar d(t) \le 1/2\}$"),
         statement=sp.Le(MixingTime(epsilon), MT_BOUND), default_examples=30,
         tight_at=({"epsilon": 1.0, "structure": TWO_STATE},), examples=({"epsilon": 0.001, "structure": TWO_STATE},),
         printed=Printed(
             id="bravo.propA.14.printed", title=r"boosting for every $\varepsilon > 0$, as printed",
             statement=sp.Le(MixingTime(epsilon), MT_PRINTED), severity="mathematics",
             location=r"Proposition A.14 (and Theorem 4.2, Theorem 1.1): $\varepsilon \ge 1$",
             counterexample={"epsilon": 1.0, "structure": TWO_STATE},
             note=r"For $\varepsilon \ge 1$, $\lceil\log_2(1/\varepsilon)\rceil \le 0$ and the bound says $T_{mix} "
                  r"\le 0$, while $T_{mix} \ge 1$ by Definition A.13 (catalogue E12). Holds as printed for "
                  r"$\varepsilon \in (0, 1)$."))
def proposition_a_14(point):
    r"""$T^*$ and $T_{mix}(\varepsilon)$ from $\bar d(t)$, $d(t)$ of the exact powers and $\pi$ (the least $t \ge 1$
    reaching each threshold), never from the bound. Corrected (E12) with $\max\{1, \lceil\log_2(1/\varepsilon)
    \rceil\}$, which changes nothing for $\varepsilon < 1$. Equality where $T^* = T_{mix} = 1$ (pinned: the
    two-state chain at $\varepsilon = 1$); elsewhere often loose."""
    return _boosting(point)


P_k = Param(k, sp.Range(1, 7), sample=(1, 6))
P_T_SMALL = Param(T, sp.Range(1, 9), sample=(1, 8))


@theorem(id="bravo.propA.14.submult", title=r"$\bar d$ is submultiplicative: $\bar d(kT) \le \bar d(T)^k$",
         number="Proposition A.14 (its proof)", parameters=(P_k, P_T_SMALL), setting=FINITE_CHAINS,
         statement=sp.Le(DBar(k * T), DBar(T) ** k), tight_at=({"k": 3, "T": 2, "structure": TWO_STATE},),
         default_examples=30)
def proposition_a_14_submultiplicative(point):
    r"""The boosting step of Proposition A.14 (Levin--Peres, Lemma 4.11): $\bar d(kT)$ and $\bar d(T)$ from the rows
    of the exact powers. Equality for two-state chains ($\bar d(t) = |1 - a - b|^t$, pinned)."""
    chain, kk, tt = FINITE_CHAINS(point), int(point["k"]), int(point["T"])
    return {DBar(k * T): _measured(chain.dbar(kk * tt)), DBar(T): _measured(chain.dbar(tt))}


# --- Appendix C: one step of PLA --------------------------------------------------------------------------------

J_mu, J_nu = Law(r"J\mu"), Law(r"J\nu")
P_L = Param(L, sp.Interval.open(0, sp.oo), sample=(0.1, 100.0))
P_ETA_C1 = Param(eta, sp.Interval.open(0, sp.oo), sample=(0.005, 2.0))


def dirac_starts() -> st.SearchStrategy[dict]:
    """μ = δ_{x_0}, ν = δ_{x'_0}, the starts as fractions of D in [−1/2, 1/2]; often the nearly coincident pair
    ±10^{-6} on either side of the kink, where the subgradient step moves them furthest apart."""
    half = finite_floats(-0.5, 0.5)
    return st.one_of(st.fixed_dictionaries({"x0": half, "x0p": half}),
                     st.just({"x0": 1e-6, "x0p": -1e-6}), st.just({"x0": 0.5, "x0p": -0.5}))


ONE_STEP = Setting(r"$\mathcal{X} = [-D/2, D/2]$, $f = L|x|$, $J\mu$ the law of $\Pi_{\mathcal{X}}(X - \eta\,"
                   r"\mathrm{sign}(X) L + \sqrt{2\eta}\xi)$ for $X \sim \mu$; $\mu = \delta_{x_0}$, $\nu = "
                   r"\delta_{x'_0}$, $x_0, x'_0 \in \mathcal{X}$", strategy=dirac_starts)
LEMMA_C1_COUNTEREXAMPLE = {"eta": 0.01, "L": 100.0, "D": 1.0, "structure": {"x0": 1e-6, "x0p": -1e-6}}
"""The catalogue's E2 row: KL = 59.536 > D²/(4η) = 25 (corrected bound 125)."""


def _one_step_laws(point) -> tuple:
    sd = mpmath.sqrt(2 * point["eta"])
    return tuple(projected_step_law(point["structure"][key], point["eta"] * point["L"], sd, point["D"])
                 for key in ("x0", "x0p"))


@theorem(id="bravo.lemC.1", title="one PLA step contracts KL (corrected: the gradient step counted)",
         number="Lemma C.1 (proof)", parameters=(P_ETA_C1, P_L, P_D), setting=ONE_STEP,
         statement=sp.Le(KL(J_mu, J_nu), (D ** 2 + (2 * eta * L) ** 2) / (4 * eta)), default_examples=12,
         examples=(LEMMA_C1_COUNTEREXAMPLE,),
         printed=Printed(
             id="bravo.lemC.1.printed", title="one PLA step contracts KL, as printed",
             statement=sp.Le(KL(J_mu, J_nu), D ** 2 / (4 * eta)), severity="mathematics",
             location=r"Appendix C, proof of Lemma C.1: $\mathrm{KL}(J\mu\|J\nu) \le D^2/(4\eta)$",
             counterexample=LEMMA_C1_COUNTEREXAMPLE,
             note=r"The proof applies Lemma 2.5 with $a = D$, ignoring the gradient step: $x \mapsto x - "
                  r"\eta\nabla f(x)$ moves two points of $\mathcal{X}$ up to $\sqrt{D^2 + (2\eta L)^2}$ apart. "
                  r"$f = 100|x|$ on $[-1/2, 1/2]$, $\eta = 0.01$, starts $\pm 10^{-6}$: $\mathrm{KL} = 59.536 > 25$ "
                  r"(catalogue E2). The lemma's conclusion survives: $\kappa < 1$ with the corrected bound."))
def lemma_c_1(point):
    r"""$\mathrm{KL}(J\mu\|J\nu)$ between the two projected laws (atoms at $\pm D/2$ from the Gaussian CDFs, quadrature
    of the densities between). Dirac starts suffice: KL is jointly convex and $J$ is linear, so its supremum over
    $\mu, \nu$ is one over Dirac pairs. The corrected bound is Lemma 2.5 with $a = \varphi(D)$, the modulus
    $\sqrt{\delta^2 + (2\eta L)^2}$ of Definition 2.1(1) at $\delta = D$. Loose in one dimension: the images are at
    most $\max\{D, 2\eta L\}$ apart, so the ratio stays below $\max\{D^2, (2\eta L)^2\}/(D^2 + (2\eta L)^2)$ (0.476 at
    the catalogue's row)."""
    P_, Q_ = _one_step_laws(point)
    return divergence("kl", P_, Q_, method="densities")


KAPPA = sp.sqrt(OneMinusExp((D ** 2 + (2 * eta * L) ** 2) / (4 * eta)))


@theorem(id="bravo.lemC.1.kappa", title=r"one PLA step: $\bar d(1) \le \kappa < 1$ (corrected $\kappa$)",
         number="Lemma C.1 (proof)", setting=ONE_STEP, statement=sp.Le(TV(J_mu, J_nu), KAPPA), default_examples=6,
         parameters=(Param(eta, sp.Interval.open(0, sp.oo), sample=(0.05, 2.0)),
                     Param(L, sp.Interval.open(0, sp.oo), sample=(0.1, 3.0)),
                     Param(D, sp.Interval.open(0, sp.oo), sample=(0.1, 2.0))))
def lemma_c_1_kappa(point):
    r"""$\|J\mu - J\nu\|_{TV}$ from the two projected laws, against Bretagnolle--Huber applied to the corrected KL
    bound of \symdpid{bravo.lemC.1}: $\kappa = \sqrt{1 - e^{-(D^2 + (2\eta L)^2)/(4\eta)}} < 1$, which is all the
    Cauchy argument of Lemma C.1 needs. Drawn where the KL bound is below 40, so that $\kappa$ differs from 1 at
    working precision (beyond, both sides are 1 to 30 digits and the comparison says nothing)."""
    P_, Q_ = _one_step_laws(point)
    return divergence("tv", P_, Q_, method="densities")


THEOREMS = registered(__name__)
