"""Bravo, Flores-Mella, Guzmán (2025), Appendix A: the definitions of KL and TV (A.1, A.2) against the engine, and R_1 =
KL as a limit; Pinsker's and Bretagnolle–Huber's inequalities (Propositions A.3, A.4) and the remark after A.4; data
processing (A.5) and strong composition (A.6), measured on finite, Gaussian and projected laws."""

from __future__ import annotations

import functools
import itertools
import math

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.engine.continuous import Gaussian
from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution
from symdp.engine.projected import Projected
from symdp.errors import InvalidParameter
from symdp.estimate import Estimate, exact_ball
from symdp.expressions import KL, TV, Renyi, numeric_function, quantity
from symdp.numeric import to_mpf
from symdp.statement import BuiltExactly
from symdp.strategies import flatmapped, weights
from symdp.symbols import Law, alpha, k
from symdp.symbols import (
    x as KL_RATIO,  # KL, the variable of the remark after Proposition A.4
)
from symdp.theorem import (
    CLOSED_FORM,
    Param,
    Printed,
    Setting,
    declare,
    registered,
    theorem,
)
from symdp.theorems.bravo.common import (
    P_ALPHA,
    Method,
    ball,
    built_exactly,
    enclosure,
    finite_floats,
    in_balls,
    rational,
)

mu_, nu_ = Law(r"\mu"), Law(r"\nu")
def _one_minus_exp_ball(x):
    """1 − e^{−x} of an Arb ball as −expm1(−x), kept ≥ 0 where the ball is (1 − e^{−x} ≥ 0 for x ≥ 0): a KL of 0 widened
    by the construction floor is the ball [0, r], and the rounded −expm1 of it reaches a hair below 0, where the
    square root of Bretagnolle–Huber's bound is no ball at all."""
    value = -(-x).expm1()
    return value.nonnegative_part() if x >= 0 else value


OneMinusExp = numeric_function(
    "one_minus_exp", 1, lambda x: -mpmath.expm1(-x), r"\left(1 - e^{{-{0}}}\right)",
    "1 - e^{-x}, evaluated as -expm1(-x): relative to its size as x -> 0, where 1 - exp(-x) cancels.",
    arb=_one_minus_exp_ball)


def _law_pair(draw) -> tuple:
    """A drawn pair: finite weights on 2–5 atoms (``p``, ``q``) or two Gaussians (``m``, ``s`` each)."""
    if "p" in draw:
        return FiniteDistribution.normalized(draw["p"]), FiniteDistribution.normalized(draw["q"])
    return Gaussian(draw["m"][0], draw["s"][0]), Gaussian(draw["m"][1], draw["s"][1])


def law_pairs() -> st.SearchStrategy[dict]:
    """Finite pairs on 2–5 atoms, or two Gaussians that differ by at least 0.01 in mean or in scale: nearer ones (means
    10⁻³⁰⁰ apart, which Hypothesis likes to draw) cost seconds of quadrature for divergences below any rounding."""
    finite = flatmapped(st.integers(2, 5), lambda n: st.fixed_dictionaries({"p": weights(n), "q": weights(n)}))
    pair = lambda low, high: st.lists(finite_floats(low, high), min_size=2, max_size=2)
    gaussians = st.fixed_dictionaries({"m": pair(-3.0, 3.0), "s": pair(0.3, 3.0)}).filter(
        lambda d: max(abs(d["m"][0] - d["m"][1]), abs(d["s"][0] - d["s"][1])) >= 0.01)
    return st.one_of(finite, gaussians)


LAW_PAIRS = Setting(r"$\mu$, $\nu$ finite on 2--5 atoms, or two Gaussians $\mathcal{N}(m_i, s_i^2)$",
                    strategy=law_pairs, build=_law_pair)
CLOSE_PAIR = {"structure": {"p": [0.5001, 0.4999], "q": [0.4999, 0.5001]}}
"""Two nearby two-point laws: Pinsker's constant is sharp as KL → 0."""
BH_NEAR_TIGHT = {"structure": {"p": [1.0, 0.0], "q": [0.0001, 0.9999]}}
"""μ = δ_0, ν(0) = q = 10^{-4}: TV = 1 − q, KL = ln(1/q), Bretagnolle–Huber's ratio sqrt(1 − q) = 0.99995."""


def tv_and_kl(point) -> dict:
    r"""$\|\mu - \nu\|_{TV}$ and $\mathrm{KL}(\mu\|\nu)$ from the two laws: exact sums, or integrals of the
    Gaussian densities (never their closed forms)."""
    P_, Q_ = LAW_PAIRS(point)
    method = "auto" if isinstance(P_, FiniteDistribution) else "densities"
    return {TV(mu_, nu_): divergence("tv", P_, Q_, method=method),
            KL(mu_, nu_): divergence("kl", P_, Q_, method=method)}


pinsker = theorem(id="bravo.propA.3", title="Pinsker's inequality", number="Proposition A.3",
                  statement=sp.Le(TV(mu_, nu_), sp.sqrt(KL(mu_, nu_) / 2)), setting=LAW_PAIRS, examples=(CLOSE_PAIR,),
                  notes=r"TV and KL measured from the laws. Loose; the constant is sharp only as $\mathrm{KL} \to 0$ "
                        r"(two-point laws): the pinned nearby pair reaches ratio $1 - 10^{-8}$.")(tv_and_kl)
bretagnolle_huber = theorem(
    id="bravo.propA.4", title="the Bretagnolle--Huber inequality", number="Proposition A.4",
    statement=sp.Le(TV(mu_, nu_), sp.sqrt(OneMinusExp(KL(mu_, nu_)))), setting=LAW_PAIRS,
    examples=(CLOSE_PAIR, BH_NEAR_TIGHT),
    notes=r"TV and KL measured from the laws, as for \symdpid{bravo.propA.3}. Sharp as $\mu = \delta_x$, $\nu(x) = q "
          r"\to 0$: TV $= 1 - q$, KL $= \ln(1/q)$, ratio $\sqrt{1 - q}$ (0.99995 at the pinned $q = 10^{-4}$); "
          r"loose elsewhere.")(tv_and_kl)
BH_CROSSING = 2 + sp.LambertW(-2 * sp.exp(-2))
"""Where the two bounds cross, the root of x/2 = 1 − e^{−x} in (0, 2): 1.59362."""
bh_remark = declare(
    id="bravo.propA.4.remark.corrected", title="Bretagnolle--Huber's bound is above Pinsker's while KL is below 1.59",
    number="Proposition A.4, the remark after it (corrected)", evidence=CLOSED_FORM,
    statement=sp.Ge(sp.sqrt(OneMinusExp(KL_RATIO)), sp.sqrt(KL_RATIO / 2)),
    parameters=(Param(KL_RATIO, sp.Interval(0, BH_CROSSING), sample=(0.0, 1.5936)),),
    setting=Setting(r"$x = \mathrm{KL}(\mu\|\nu)$; the crossing $2 + W_0(-2e^{-2}) = 1.59362$ solves $x/2 = 1 - "
                    r"e^{-x}$"),
    evidence_note=r"a comparison of the two closed-form bounds as functions of $x = \mathrm{KL}$",
    notes=r"Equal at $x = 0$ and at the crossing $2 + W_0(-2e^{-2})$, where the ratio tends to 1 (not pinned: a "
          r"binary $x$ is never the crossing); Bretagnolle--Huber's bound is the smaller one beyond it.",
    printed=Printed(
        id="bravo.propA.4.remark", title="Bretagnolle--Huber's bound is worse than Pinsker's for KL in (0, 2)",
        number="Proposition A.4, the remark after it", severity="typo",
        statement=sp.Ge(sp.sqrt(OneMinusExp(KL_RATIO)), sp.sqrt(KL_RATIO / 2)),
        location="Appendix A, the remark after Proposition A.4",
        printed=r"Bretagnolle--Huber is worse than Pinsker's inequality when $\mathrm{KL} \in (0, 2)$",
        corrected=r"when $\mathrm{KL} \in (0, 1.59362)$; beyond, Bretagnolle--Huber is the better bound",
        counterexample={"x": 1.8},
        note=r"At $x = 1.8$: $\sqrt{1 - e^{-1.8}} = 0.9137 < \sqrt{0.9} = 0.9487$ (catalogue E10).",
        changes={"parameters": (Param(KL_RATIO, sp.Interval.open(0, 2), sample=(0.0, 2.0)),),
                 "setting": Setting(r"$x = \mathrm{KL}(\mu\|\nu) \in (0, 2)$")}))


# --- Definitions A.1, A.2: the engine's KL and TV are the paper's definitions -----------------------------------------

KLIntegral = quantity(
    "KLIntegral", 2, r"\int \frac{{d{0}}}{{d{1}}}\ln\left(\frac{{d{0}}}{{d{1}}}\right) d{1}",
    "KL as Definition A.1 writes it, the integral of r ln r against nu for r = d mu/d nu: a sum over atoms here.",
    nonnegative=True)
TVSup = quantity(
    "TVSup", 2, r"\sup_{{A}} \left|{0}(A) - {1}(A)\right|",
    "TV as Definition A.2 writes it, the supremum over events: a maximum over all subsets of a finite space here.",
    domain=(0, 1))
LossSecondMoment = quantity(
    "LossSecondMoment", 2, r"\mathbb{{E}}_{{{0}}}\left[\ell^2 e^{{\ell_+}}\right]",
    "E_mu[l^2 e^{max(l, 0)}] for the log-ratio l = ln(d mu/d nu): the scale of R_alpha - KL as alpha -> 1.",
    nonnegative=True)


def _distinct(p, q) -> bool:
    """Whether two weight vectors are different laws: equal laws make both sides 0, where no verdict is decidable."""
    return any(abs(a_ / sum(p) - b_ / sum(q)) > 1e-9 for a_, b_ in zip(p, q))


def finite_pairs() -> st.SearchStrategy[dict]:
    """μ on 2–6 atoms, some of them possibly empty, and ν ≠ μ on the same atoms, none empty (μ ≪ ν)."""
    return flatmapped(st.integers(2, 6), lambda n: st.fixed_dictionaries({"p": weights(n, low=0.0), "q": weights(n)})
                      ).filter(lambda d: _distinct(d["p"], d["q"]))


FINITE_PAIRS = Setting(r"$\mu$, $\nu$ on 2--6 atoms, $\nu(x) > 0$ (so $\mu \ll \nu$), $\mu(x) = 0$ allowed",
                       strategy=finite_pairs, build=_law_pair)


def _atoms(law) -> list:
    """A finite law's masses (as built) as exact Arb balls."""
    return [exact_ball(x) for x in law]


def kl_by_definition(point) -> dict:
    r"""The engine's KL (exact sums in ball arithmetic) against $\sum_x \nu(x)\, r(x)\ln r(x)$, $r = \mu/\nu$,
    summed here in balls with $0 \ln 0 = 0$ (a certified enclosure for the laws as built). The continuous case is
    \symdpid{dwork.def2.1}, the same definition checked by quadrature on Gaussian and Laplace pairs."""
    P_, Q_ = FINITE_PAIRS(point)
    with in_balls():
        ratios = [(p_ / q_, q_) for p_, q_ in zip(_atoms(P_), _atoms(Q_)) if p_ != 0]
        by_definition = enclosure(sum((q_ * r_ * r_.log() for r_, q_ in ratios), exact_ball(0)))
    return {KL(mu_, nu_): divergence("kl", P_, Q_), KLIntegral(mu_, nu_): by_definition}


kl_definition = theorem(
    id="bravo.defA.1", title="the KL divergence is its definition", number="Definition A.1",
    setting=FINITE_PAIRS, statement=sp.Eq(KL(mu_, nu_), KLIntegral(mu_, nu_)), tight_everywhere=True,
    examples=({"structure": {"p": [0.0, 0.25, 0.75], "q": [0.5, 0.25, 0.25]}},))(kl_by_definition)


def tv_by_definition(point) -> dict:
    r"""The engine's TV against $\max_A |\mu(A) - \nu(A)|$ over all $2^n$ events $A$ of the finite space: the
    definition itself, not the half $\ell_1$ distance (in balls: the maximum of the events' enclosures)."""
    P_, Q_ = FINITE_PAIRS(point)
    with in_balls():
        differences = [p_ - q_ for p_, q_ in zip(_atoms(P_), _atoms(Q_))]
        largest = exact_ball(0)   # the empty event
        for A in itertools.product((False, True), repeat=len(differences)):
            largest = largest.max(abs(sum((d for d, inside in zip(differences, A) if inside), exact_ball(0))))
        by_events = enclosure(largest)
    return {TV(mu_, nu_): divergence("tv", P_, Q_), TVSup(mu_, nu_): by_events}


tv_definition = theorem(
    id="bravo.defA.2", title="the total variation distance is its definition", number="Definition A.2",
    setting=FINITE_PAIRS, statement=sp.Eq(TV(mu_, nu_), TVSup(mu_, nu_)), tight_everywhere=True,
    examples=({"structure": {"p": [0.0, 0.25, 0.75], "q": [0.5, 0.25, 0.25]}},))(tv_by_definition)

ALPHA_NEAR_ONE = 1 + sp.Integer(10) ** -k
P_K = Param(k, sp.Range(1, 13), sample=(1, 12))


def renyi_near_one(point) -> dict:
    r"""$R_{1 + 10^{-k}}$ and KL from the laws (exact sums in ball arithmetic) and $\mathbb{E}_\mu[\ell^2 e^{\ell_+}]$
    summed here. Why the bound: $e^x \le 1 + x + \frac{x^2}{2}e^{x_+}$ and $\ln(1 + y) \le y$ give $0 \le R_\alpha -
    \mathrm{KL} \le \frac{\alpha - 1}{2}\mathbb{E}_\mu[\ell^2 e^{(\alpha - 1)\ell_+}]$ (the left side: $R_\alpha$ is
    nondecreasing in $\alpha$), and $\alpha - 1 \le 1$."""
    P_, Q_ = FINITE_PAIRS(point)
    alpha_ = 1 + mpmath.power(10, -point["k"])
    with in_balls():   # E_μ[ℓ² e^{ℓ_+}] in balls (ℓ_+ = max(ℓ, 0) of the ball: an enclosure)
        logs = [(p_, (p_ / q_).log()) for p_, q_ in zip(_atoms(P_), _atoms(Q_)) if p_ != 0]
        moment = enclosure(sum((p_ * l_ * l_ * l_.max(exact_ball(0)).exp() for p_, l_ in logs), exact_ball(0)))
    return {Renyi(mu_, nu_, ALPHA_NEAR_ONE): divergence("renyi", P_, Q_, alpha_),
            KL(mu_, nu_): divergence("kl", P_, Q_), LossSecondMoment(mu_, nu_): moment}


R1_PIN = {"k": 12, "structure": {"p": [0.1, 0.2, 0.7], "q": [0.3, 0.4, 0.3]}}
renyi_one_is_kl = theorem(
    id="bravo.defA.1.limit", title=r"$R_1 = \mathrm{KL}$ as the limit $\alpha \to 1$", number="Definition A.1 (the "
    "remark after it)", parameters=(P_K,),
    setting=FINITE_PAIRS.where(r", $\ell = \ln\frac{d\mu}{d\nu}$, $\alpha = 1 + 10^{-k}$"),
    statement=sp.Le(sp.Abs(Renyi(mu_, nu_, ALPHA_NEAR_ONE) - KL(mu_, nu_)),
                    sp.Integer(10) ** -k * LossSecondMoment(mu_, nu_) / 2),
    examples=(R1_PIN, {"k": 12, **CLOSE_PAIR}),
    notes=r"The paper cites the limit (van Erven and Harremos, Theorem 5); this is its rate on finite laws, $|R_{1 + "
          r"s} - \mathrm{KL}| \le \frac s2\mathbb{E}_\mu[\ell^2e^{\ell_+}]$, down to $s = 10^{-12}$. The ratio is "
          r"about $\mathrm{Var}_\mu(\ell)/\mathbb{E}_\mu[\ell^2 e^{\ell_+}]$, since $R_{1+s} - \mathrm{KL} \approx "
          r"\frac s2\mathrm{Var}_\mu(\ell)$: near 1 for nearby laws ($0.989$ the worst of 200 draws), so the constant "
          r"is sharp as $\mu \to \nu$, $s \to 0$: 0.9998 at the pinned nearby pair $(0.5001, 0.4999)$ against "
          r"$(0.4999, 0.5001)$, $k = 12$ (random draws of the laws rarely come that close).")(renyi_near_one)


# --- Proposition A.5: data processing ---------------------------------------------------------------------------------

J_mu, J_nu = Law(r"J\mu"), Law(r"J\nu")


def kernel_pairs() -> st.SearchStrategy[dict]:
    """Finite μ ≠ ν on n = 2–4 atoms and a row-stochastic J (n × m, m = 1–4, rows drawn as weights, some permutation
    matrices); or two Gaussians N(m_i, s²) of one variance, |m_1 - m_2| ≥ 0.01, projected onto [low, low + width]."""
    def finite(n, m):
        rows = st.lists(weights(m, low=0.0), min_size=n, max_size=n)
        permutation = st.permutations(range(n)).map(lambda order: [[float(j == i) for j in range(n)] for i in order])
        kernel = permutation if m == n else rows
        return st.fixed_dictionaries({"p": weights(n), "q": weights(n), "J": st.one_of(rows, kernel)}).filter(
            lambda d: _distinct(d["p"], d["q"]))
    means = st.lists(finite_floats(-2.0, 2.0), min_size=2, max_size=2).filter(lambda m: abs(m[0] - m[1]) >= 0.01)
    projected = st.fixed_dictionaries({"m": means, "s": finite_floats(0.3, 2.0), "low": finite_floats(-3.0, 0.0),
                                       "width": finite_floats(0.1, 4.0)})
    sizes = st.tuples(st.integers(2, 4), st.integers(1, 4))
    return st.one_of(flatmapped(sizes, lambda nm: finite(*nm)), projected)


def _processed(structure) -> tuple:
    """(μ, ν, Jμ, Jν) of a drawn pair: a finite pair through the kernel, or Gaussians through the projection."""
    if "J" in structure:
        P_, Q_ = (FiniteDistribution.normalized(structure[key]) for key in ("p", "q"))
        kernel = [[to_mpf(x, "J") for x in row] for row in structure["J"]]
        if any(min(row) < 0 or sum(row) <= 0 for row in kernel):
            raise InvalidParameter("the kernel J needs nonnegative rows with a positive sum")
        kernel = [[x / mpmath.fsum(row) for x in row] for row in kernel]
        return P_, Q_, P_.push_forward(kernel), Q_.push_forward(kernel)
    low, width, sd = (to_mpf(structure[key], key) for key in ("low", "width", "s"))
    if width <= 0 or sd <= 0:
        raise InvalidParameter("the projection needs width > 0 and s > 0")
    P_, Q_ = (Gaussian(to_mpf(m_, "m"), sd) for m_ in structure["m"])
    return P_, Q_, Projected(P_, low, low + width), Projected(Q_, low, low + width)


KERNELS = Setting(r"$\mu$, $\nu$ on 2--4 atoms and $J$ a row-stochastic matrix (some permutations); or $\mu = "
                  r"\mathcal{N}(m_1, s^2)$, $\nu = \mathcal{N}(m_2, s^2)$ and $J$ the projection onto an interval",
                  strategy=kernel_pairs, build=_processed)
PERMUTATION = {"alpha": 3.0, "structure": {"p": [0.2, 0.5, 0.3], "q": [0.6, 0.1, 0.3],
                                           "J": [[0, 1, 0], [0, 0, 1], [1, 0, 0]]}}
PROJECTION = {"alpha": 1.5, "structure": {"m": [-1.0, 1.5], "s": 0.5, "low": -1.0, "width": 2.0}}
"""Projection onto [-1, 1]: R_1.5 = 13.196 against alpha (m_1 - m_2)^2/(2s^2) = 18.75 unprojected."""


@theorem(id="bravo.propA.5", title="the data-processing inequality for R\\'enyi divergences", number="Proposition A.5",
         parameters=(P_ALPHA,), setting=KERNELS,
         statement=sp.Le(Renyi(J_mu, J_nu, alpha), Renyi(mu_, nu_, alpha)), tight_at=(PERMUTATION,),
         examples=(PROJECTION,))
def data_processing(point):
    r"""Both divergences from the laws: exact sums for the finite pair and its image, quadrature of the Gaussian
    densities and of the projected laws' densities plus their atoms' CDF masses. Equality where $J$ is a permutation
    (pinned); loose for a kernel that merges atoms of different likelihood ratio, and for the projection, which
    merges the tails into atoms."""
    P_, Q_, JP, JQ = KERNELS(point)
    method = "auto" if isinstance(P_, FiniteDistribution) else "densities"
    projected = None if isinstance(P_, FiniteDistribution) else _projected_renyi(point)
    return {Renyi(J_mu, J_nu, alpha): projected or divergence("renyi", JP, JQ, point["alpha"], method=method),
            Renyi(mu_, nu_, alpha): divergence("renyi", P_, Q_, point["alpha"], method=method)}


def _projected_renyi(point):
    """R_α(Jμ ‖ Jν) of the Gaussians projected onto [low, low + width], certified: two clipped Gaussians, centred on
    the interval (:func:`~symdp.theorems.bravo.mixing.clipped_renyi`: the atoms' terms plus Arb's integral of the
    densities), built in balls from the drawn rationals."""
    from symdp.engine.projected import clipped_renyi

    s_ = point["structure"]
    with in_balls():
        half = rational(s_["width"], "width") / 2
        centre = rational(s_["low"], "low") + half
        means = [ball(rational(m_, "m") - centre) for m_ in s_["m"]]
        return built_exactly(clipped_renyi(*means, ball(rational(s_["s"], "s")), ball(half),
                                           ball(rational(point["alpha"], "alpha"))), Method.CERTIFIED)


# --- Proposition A.6: strong composition ------------------------------------------------------------------------------

P_X, P_Y = Law(r"\mathbb{P}_{X_{1:k}}"), Law(r"\mathbb{P}_{Y_{1:k}}")
ConditionalRenyiSum = quantity(
    "ConditionalRenyiSum", 1, r"\sum_{{i=1}}^{{k}} \sup_{{x_{{1:i-1}}}} R_{{{0}}}\left(\mathbb{{P}}_{{X_i | "
    r"X_{{1:i-1}} = x_{{1:i-1}}}} \,\middle\|\, \mathbb{{P}}_{{Y_i | Y_{{1:i-1}} = x_{{1:i-1}}}}\right)",
    "The right side of strong composition: the sum over steps of the largest Renyi divergence of the conditional laws.",
    nonnegative=True)


def adaptive_chains() -> st.SearchStrategy[dict]:
    """k = 1–3 steps on alphabets of 2–3 letters; for each step and each prefix x_{1:i-1}, the conditional laws of
    X_i and Y_i as weights (so X and Y are adaptive: step i depends on the whole prefix), not all of them equal."""
    def steps(sizes):
        prefixes = [math.prod(sizes[:i]) for i in range(len(sizes))]
        law = lambda i: st.lists(weights(sizes[i]), min_size=prefixes[i], max_size=prefixes[i])
        return st.fixed_dictionaries({"sizes": st.just(sizes), "x": st.tuples(*map(law, range(len(sizes)))),
                                      "y": st.tuples(*map(law, range(len(sizes))))}).filter(
            lambda d: any(_distinct(p_, q_) for x_, y_ in zip(d["x"], d["y"]) for p_, q_ in zip(x_, y_)))
    return flatmapped(st.lists(st.integers(2, 3), min_size=1, max_size=3), steps)


def _chain_laws(structure) -> tuple:
    """(joint law of X_{1:k}, of Y_{1:k}, conditional pairs by step: [(P_{X_i|x}, P_{Y_i|x}) for each prefix x])."""
    sizes = [int(n) for n in structure["sizes"]]
    conditionals = [[(FiniteDistribution.normalized(px), FiniteDistribution.normalized(py))
                     for px, py in zip(structure["x"][i], structure["y"][i])] for i in range(len(sizes))]
    if any(len(step) != math.prod(sizes[:i]) for i, step in enumerate(conditionals)):
        raise InvalidParameter("step i needs one conditional law per prefix x_{1:i-1}")
    if any(len(law) != sizes[i] for i, step in enumerate(conditionals) for pair in step for law in pair):
        raise InvalidParameter("each conditional law of step i needs sizes[i] atoms")
    joint = []
    for side in (0, 1):   # products of the conditionals' exact rationals: the joint laws are built exactly
        masses = []
        for word in itertools.product(*map(range, sizes)):
            mass, prefix = rational(1), 0
            for i, letter in enumerate(word):
                mass *= conditionals[i][prefix][side].rationals[letter]
                prefix = prefix * sizes[i] + letter
            masses.append(mass)
        joint.append(FiniteDistribution(masses))
    return joint[0], joint[1], conditionals


CHAINS = Setting(r"$X_{1:k}$, $Y_{1:k}$ on alphabets of 2--3 letters, $k \le 3$, each step's conditional laws drawn "
                 r"for every prefix", strategy=adaptive_chains, build=_chain_laws)
PRODUCT_CHAIN = {"alpha": 2.5, "structure": {"sizes": [2, 3], "x": ([[0.3, 0.7]], [[0.2, 0.3, 0.5]] * 2),
                                             "y": ([[0.6, 0.4]], [[0.5, 0.3, 0.2]] * 2)}}
"""Product laws (the second step ignores the first): the joint R_alpha is the sum, so equality."""


@theorem(id="bravo.propA.6", title="strong composition of R\\'enyi divergences", number="Proposition A.6",
         parameters=(P_ALPHA,), setting=CHAINS,
         statement=sp.Le(Renyi(P_X, P_Y, alpha), ConditionalRenyiSum(alpha)), tight_at=(PRODUCT_CHAIN,))
def strong_composition(point):
    r"""The joint laws built from the drawn conditionals (products along each word); every divergence an exact sum.
    Equality for product laws (pinned: R\'enyi divergences add over independent coordinates); loose where the
    conditional divergences vary with the prefix, since the sum takes the worst prefix at every step."""
    P_, Q_, conditionals = CHAINS(point)
    a_ = point["alpha"]
    steps = [[divergence("renyi", px, py, a_) for px, py in step] for step in conditionals]
    joint = divergence("renyi", P_, Q_, a_)
    if not (joint.certified and all(e.certified for step in steps for e in step)):
        worst = [max(step, key=lambda e: e.value) for step in steps]
        return {Renyi(P_X, P_Y, alpha): joint,
                ConditionalRenyiSum(alpha): Estimate(mpmath.fsum(e.value for e in worst),
                                                     mpmath.fsum(e.error for e in worst), worst[0].method)}
    with in_balls():   # the sup over prefixes and the sum over steps of the enclosures, in balls
        total = sum((functools.reduce(lambda x, y: x.max(y), (e.ball() for e in step)) for step in steps), ball(0))
        # every law is the draw's own (exact rationals of its weights), so no floor for rounding is owed
        return {Renyi(P_X, P_Y, alpha): BuiltExactly(joint), ConditionalRenyiSum(alpha): built_exactly(total)}



THEOREMS = registered(__name__)
