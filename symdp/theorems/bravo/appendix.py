"""Bravo, Flores-Mella, Guzmán (2025), Appendix A: Pinsker's and Bretagnolle–Huber's inequalities (Propositions
A.3, A.4) and the remark after A.4, measured on finite and Gaussian pairs."""

from __future__ import annotations

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.engine.continuous import Gaussian
from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution
from symdp.expressions import KL, TV, numeric_function
from symdp.strategies import weights
from symdp.symbols import Law
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
from symdp.theorems.bravo.common import finite_floats

mu_, nu_ = Law(r"\mu"), Law(r"\nu")
OneMinusExp = numeric_function(
    "one_minus_exp", 1, lambda x: -mpmath.expm1(-x), r"\left(1 - e^{{-{0}}}\right)",
    "1 - e^{-x}, evaluated as -expm1(-x): relative to its size as x -> 0, where 1 - exp(-x) cancels.",
    arb=lambda x: -(-x).expm1())


def _law_pair(draw) -> tuple:
    """A drawn pair: finite weights on 2–5 atoms (``p``, ``q``) or two Gaussians (``m``, ``s`` each)."""
    if "p" in draw:
        return FiniteDistribution.normalized(draw["p"]), FiniteDistribution.normalized(draw["q"])
    return Gaussian(draw["m"][0], draw["s"][0]), Gaussian(draw["m"][1], draw["s"][1])


def law_pairs() -> st.SearchStrategy[dict]:
    finite = st.integers(2, 5).flatmap(lambda n: st.fixed_dictionaries({"p": weights(n), "q": weights(n)}))
    pair = lambda low, high: st.lists(finite_floats(low, high), min_size=2, max_size=2)   # noqa: E731
    return st.one_of(finite, st.fixed_dictionaries({"m": pair(-3.0, 3.0), "s": pair(0.3, 3.0)}))


LAW_PAIRS = Setting(r"$\mu$, $\nu$ finite on 2--5 atoms, or two Gaussians $\mathcal{N}(m_i, s_i^2)$",
                    strategy=law_pairs, build=_law_pair)
CLOSE_PAIR = {"structure": {"p": [0.5001, 0.4999], "q": [0.4999, 0.5001]}}
"""Two nearby two-point laws: Pinsker's constant is sharp as KL → 0."""


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
    statement=sp.Le(TV(mu_, nu_), sp.sqrt(OneMinusExp(KL(mu_, nu_)))), setting=LAW_PAIRS, examples=(CLOSE_PAIR,),
    notes=r"TV and KL measured from the laws, as for \symdpid{bravo.propA.3}. Loose.")(tv_and_kl)
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


THEOREMS = registered(__name__)
