"""Dwork & Rothblum, *Concentrated Differential Privacy*: privacy loss and subgaussian variables (Section 2), and
the privacy-loss results of Section 3.1 that rest on them.

Seed ``../shared/seeds/004_b3a545b59162ae7d.txt``; catalogue ``../shared/catalogue/catalogue-dwork.md`` (IDs below are
the catalogue's). Laws and standards come from :mod:`symdp.privacy_loss`: the privacy loss of a finite, Gaussian
or Laplace pair has an exact law there, and ``τ(X)`` is the optimal subgaussian standard of the centred variable.
The symbolic side (Gaussian loss, E[L] = KL, Lemma 2.3's Taylor bounds, Hoeffding's convexity step, KL ≤ τ²/2) is
in :mod:`proofs.dwork.subgaussian`.

Errata encoded (printed statement violated, corrected one beside it): the δ-approximate max divergence of
Definition 2.2 lacks "−δ" (so Definition 2.4's "alternatively" clause is wrong); §2.1's "(ε,δ)-DP ⇒ |L| ≤ ε except
with probability δ"; Lemma 2.1 and Corollary 3.1 without ``t >= 0``; the second line of Lemma 2.3 when E[X] < 0;
Fact 4.1 for "any two reals".

Draws are plain JSON data: a *law* draw (``{"kind": "finite" | "gaussian" | "laplace", ...}``, built centred by
:func:`build_law`) or a *pair* draw (the kinds of :mod:`symdp.theorems.dwork.antipodal`, plus ``"exact"``,
``"gaussian"`` and ``"laplace"`` pairs, built by :func:`build_pair`).

>>> import mpmath
>>> with mpmath.workdps(30):
...     P, Q = build_pair({"kind": "exact", "p": [0.5, 0.5], "q": [0.4, 0.6]})
...     print(mpmath.nstr(printed_delta_divergence(P, Q, mpmath.mpf("0.1")), 10))   # catalogue dwork.def2.2
0.2231435513
"""

from __future__ import annotations

import itertools
import math

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp import divergences
from symdp.continuous import Gaussian, Laplace
from symdp.estimate import Estimate
from symdp.errors import InvalidParameter
from symdp.expressions import KL, MaxDivergence, PrivacyLossOf, Quantity, SubgaussianStandard
from symdp.finite import FiniteDistribution, approximate_max_divergence, hockey_stick, to_mpf
from symdp.privacy_loss import DiscreteLaw, GaussianLaw, LaplaceLossLaw, Law, optimal_standard, privacy_loss
from symdp.strategies import weights
from symdp.theorem import Erratum, Param, Source, Theorem
from symdp.theorems.dwork import antipodal
from symdp.theorems.dwork.common import SEED

# --- symbols and heads ---------------------------------------------------------------------------------------------
eps = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", nonnegative=True)
lam = sp.Symbol("lambda", real=True)
t = sp.Symbol("t", real=True)
tau = sp.Symbol("tau", nonnegative=True)
mu = sp.Symbol("mu", nonnegative=True)
k = sp.Symbol("k", integer=True, positive=True)
a_, b_ = sp.symbols("a b", real=True)
a_nn, b_nn = sp.symbols("a b", nonnegative=True)
k_real = sp.Symbol("k", real=True)
X, Y, S = sp.symbols("X Y S")
P_, Q_ = sp.symbols("P Q")
L_ = PrivacyLossOf(P_, Q_)


def _power(tex: str, exp) -> str:
    return tex if exp is None else rf"{tex}^{{{exp}}}"


class Pr(Quantity):
    """The probability of an event, printed ``Pr[...]``."""

    nargs = 1

    def _latex(self, printer, exp=None):
        return _power(rf"\Pr\left[{printer._print(self.args[0])}\right]", exp)


class E(Quantity):
    """An expectation, printed ``E[...]``."""

    nargs = 1

    def _latex(self, printer, exp=None):
        return _power(rf"\mathbb{{E}}\left[{printer._print(self.args[0])}\right]", exp)


class Var(Quantity):
    """A variance, printed ``Var(...)``."""

    nargs = 1

    def _latex(self, printer, exp=None):
        return _power(rf"\mathrm{{Var}}\left({printer._print(self.args[0])}\right)", exp)


class SetMaxDivergence(Quantity):
    """``max_{S ⊆ Supp(P)} ln(P(S)/Q(S))``: Definition 2.2's set form of D∞."""

    nargs = 2

    def _latex(self, printer):
        P, Q = (printer._print(x) for x in self.args)
        return rf"\max_{{S \subseteq \mathrm{{Supp}}({P})}} \ln\frac{{{P}(S)}}{{{Q}(S)}}"


class PrintedDeltaDivergence(Quantity):
    """Definition 2.2's δ-approximate max divergence *as printed*: ``max_{S: P(S) >= δ} ln(P(S)/Q(S))``."""

    nargs = 3

    def _latex(self, printer):
        P, Q, d = (printer._print(x) for x in self.args)
        return rf"\widetilde{{D}}^{{{d}}}_{{\infty}}\left({P} \,\middle\|\, {Q}\right)"


class DeltaDivergence(Quantity):
    """DRV10's δ-approximate max divergence: ``max_{S: P(S) >= δ} ln((P(S) - δ)/Q(S))``."""

    nargs = 3

    def _latex(self, printer):
        P, Q, d = (printer._print(x) for x in self.args)
        return rf"D^{{{d}}}_{{\infty}}\left({P} \,\middle\|\, {Q}\right)"


class EpsOfDelta(Quantity):
    """``ε_δ(P, Q)``: the least ε with ``P(S) <= e^ε Q(S) + δ`` for all S, both ways (Definition 2.4)."""

    nargs = 3

    def _latex(self, printer):
        P, Q, d = (printer._print(x) for x in self.args)
        return rf"\varepsilon_{{{d}}}\left({P}, {Q}\right)"


# --- finite pairs: set forms of Definitions 2.2-2.4 ------------------------------------------------------------
def _subsets(P: FiniteDistribution, Q: FiniteDistribution):
    """``(P(S), Q(S))`` for every non-empty S ⊆ Supp(P)."""
    support = P.support()
    for r in range(1, len(support) + 1):
        for S in itertools.combinations(support, r):
            yield mpmath.fsum(P[i] for i in S), mpmath.fsum(Q[i] for i in S)


def set_max_divergence(P, Q) -> mpmath.mpf:
    """``max_S ln(P(S)/Q(S))`` over every non-empty ``S ⊆ Supp(P)`` (Definition 2.2, by brute force)."""
    return max(mpmath.log(p) - mpmath.log(q) if q > 0 else mpmath.inf for p, q in _subsets(P, Q))


def printed_delta_divergence(P, Q, d) -> mpmath.mpf:
    """Definition 2.2 as printed: ``max_{S: P(S) >= δ} ln(P(S)/Q(S))``."""
    return max(mpmath.log(p) - mpmath.log(q) if q > 0 else mpmath.inf for p, q in _subsets(P, Q) if p >= d)


def delta_divergence(P, Q, d) -> mpmath.mpf:
    """DRV10's definition: ``max_{S: P(S) > δ} ln((P(S) - δ)/Q(S))`` (sets with ``P(S) <= δ`` give -inf)."""
    values = [mpmath.log(p - d) - mpmath.log(q) if q > 0 else mpmath.inf for p, q in _subsets(P, Q) if p > d]
    return max(values) if values else -mpmath.inf


def set_hockey_stick(P, Q, e) -> mpmath.mpf:
    """``max_S (P(S) - e^ε Q(S))`` over every S, the empty set included (Definition 2.4's set form)."""
    return max([mpmath.mpf(0)] + [p - mpmath.exp(e) * q for p, q in _subsets(P, Q)])


# --- draws ----------------------------------------------------------------------------------------------------------
def _exact_pair(draw) -> tuple[FiniteDistribution, FiniteDistribution]:
    return FiniteDistribution.normalized(draw["p"]), FiniteDistribution.normalized(draw["q"])


def build_pair(draw):
    """(P, Q) at the working precision: finite kinds of :func:`antipodal.build_pair`, ``exact`` (given weights),
    ``gaussian`` (N(0, σ²) vs N(Δ, σ²)) and ``laplace`` (Lap(0, b) vs Lap(Δ, b))."""
    kind = draw["kind"]
    if kind == "exact":
        return _exact_pair(draw)
    if kind == "gaussian":
        s = to_mpf(draw["sigma"], "sigma")
        return Gaussian(0, s), Gaussian(to_mpf(draw["delta"], "Delta"), s)
    if kind == "laplace":
        b = to_mpf(draw["b"], "b")
        return Laplace(0, b), Laplace(to_mpf(draw["delta"], "Delta"), b)
    return antipodal.build_pair(draw)


def build_law(draw) -> Law:
    """The *centred* law of a draw of :func:`laws` (τ-subgaussian variables have mean 0: Definition 2.5)."""
    kind = draw["kind"]
    if kind == "finite":
        return DiscreteLaw(draw["values"], FiniteDistribution.normalized(draw["weights"]).probs).centred()
    if kind == "gaussian":
        return GaussianLaw(0, to_mpf(draw["sd"], "sd"))
    if kind == "laplace":
        return LaplaceLossLaw(to_mpf(draw["a"], "a")).centred()
    raise InvalidParameter(f"unknown law kind {kind!r}")


@st.composite
def finite_laws(draw, max_size: int = 6, spread: float = 3.0, min_size: int = 1):
    n = draw(st.integers(min_size, max_size))
    values = draw(st.lists(st.floats(-spread, spread), min_size=n, max_size=n))
    if min_size > 1:
        values = draw(st.just(values).filter(antipodal._spread))
    return {"kind": "finite", "values": values, "weights": draw(weights(n))}


def laws(min_size: int = 1):
    """Centred laws: finite (``min_size``–6 atoms; 2 or more: not a point mass), N(0, σ²), and centred Laplace
    privacy losses."""
    return st.one_of(finite_laws(min_size=min_size),
                     st.builds(lambda s: {"kind": "gaussian", "sd": s}, st.floats(0.05, 5)),
                     st.builds(lambda a: {"kind": "laplace", "a": a}, st.floats(0.01, 8)))


def bounded_laws():
    """Centred laws with bounded support (Hoeffding's lemma)."""
    return st.one_of(finite_laws(), st.builds(lambda a: {"kind": "laplace", "a": a}, st.floats(0.01, 8)))


def _distinct(draw) -> bool:
    """P ≠ Q: the weight vectors are not proportional (P = Q has the constant loss 0 and τ = 0)."""
    return antipodal._spread([math.log(p / q) for p, q in zip(draw["p"], draw["q"])])


def exact_pairs(max_size: int = 6):
    """Two distinct weight vectors on 2..``max_size`` atoms."""
    return st.integers(2, max_size).flatmap(
        lambda n: st.builds(lambda p, q: {"kind": "exact", "p": p, "q": q}, weights(n), weights(n))).filter(_distinct)


def finite_pairs():
    """Finite full-support pairs: catalogue generators (i), (ii) and arbitrary weights, at most 6 atoms."""
    return st.one_of(antipodal.dp_pairs(max_size=6), antipodal.arbitrary_pairs(max_size=6), exact_pairs())


def loss_pairs():
    """Pairs whose privacy loss has an exact law: finite ones, and Gaussian and Laplace shifts."""
    return st.one_of(finite_pairs(),
                     st.builds(lambda d, s: {"kind": "gaussian", "delta": d, "sigma": s}, _shifts(), st.floats(0.2, 4)),
                     laplace_pairs())


def _shifts():
    """Nonzero shifts Δ (a pair with Δ = 0 is P = Q, whose loss is the point mass 0)."""
    return st.one_of(st.floats(-4, -0.05), st.floats(0.05, 4))


def laplace_pairs():
    return st.builds(lambda d, b: {"kind": "laplace", "delta": d, "b": b}, _shifts(), st.floats(0.2, 4))


def _s(structure) -> dict:
    return {"structure": structure}


GAUSS_LAW_PINS = (_s({"kind": "gaussian", "sd": 1.0}), _s({"kind": "gaussian", "sd": 0.3}))
RADEMACHER_PINS = (_s({"kind": "finite", "values": [-1.0, 1.0], "weights": [1.0, 1.0]}),
                   _s({"kind": "finite", "values": [-2.5, 2.5], "weights": [0.5, 0.5]}))
GAUSS_PAIR_PINS = (_s({"kind": "gaussian", "delta": 1.0, "sigma": 1.0}),
                   _s({"kind": "gaussian", "delta": -0.5, "sigma": 2.0}))
LAPLACE_PAIR_PINS = (_s({"kind": "laplace", "delta": 1.0, "b": 1.0}), _s({"kind": "laplace", "delta": 3.0, "b": 0.5}))
RR_PINS = tuple(antipodal.rr(e) for e in (0.1, 1.0, 3.0))


# --- shared quantities -------------------------------------------------------------------------------------------
def standard(law: Law) -> Estimate:
    """``τ(X - EX)`` with its error."""
    return optimal_standard(law).tau


def _square(est: Estimate, scale=1) -> Estimate:
    """``scale·τ²`` from ``τ`` (error ``2τ·err``)."""
    return Estimate(scale * est.value**2, abs(scale) * 2 * est.value * est.error, est.method)


def _loss(draw) -> Law:
    P, Q = build_pair(draw)
    return privacy_loss(P, Q)


def _kl(draw) -> Estimate:
    P, Q = build_pair(draw)
    return divergences.kl(P, Q)


def _hockey(P, Q, e):
    return hockey_stick(P, Q, e) if isinstance(P, FiniteDistribution) else divergences.hockey_stick(P, Q, e)


def _delta_of(P, Q, e) -> Estimate:
    """The least δ making (P, Q) (ε,δ)-DP both ways: ``max(D_{e^ε}(P||Q), D_{e^ε}(Q||P))``."""
    return max(_hockey(P, Q, e), _hockey(Q, P, e), key=lambda x: x.value)


def _two_sided_tail(law: Law, c) -> mpmath.mpf:
    """``max(P[X >= c], P[X <= -c])``."""
    return max(law.sf(c), law.cdf(-c))


def _prob_abs_above(law: Law, c, strict: bool) -> mpmath.mpf:
    """``P[|X| > c]`` (strict) or ``P[|X| >= c]``, for ``c >= 0``."""
    if strict:
        return 1 - law.cdf(c) + law.cdf(-c) - law.atom(-c)
    return law.sf(c) + law.cdf(-c)


# --- Definition 2.1 ---------------------------------------------------------------------------------------------
def _kl_definition(point):
    P, Q = build_pair(point["structure"])
    return divergences.kl(P, Q), mpmath.fsum(p * mpmath.log(p / q) for p, q in zip(P, Q) if p > 0)


# Seed, Definition 2.1. The paper leaves KL undefined unless the supports are equal; symdp's engine gives +inf when
# P is not absolutely continuous w.r.t. Q and a finite value when Supp(P) ⊊ Supp(Q) (the usual convention).
DEFINITION_2_1 = Theorem(
    id="dwork.def2.1",
    title="KL divergence: the engine computes the paper's definition",
    source=Source(SEED, "Definition 2.1"),
    statement=sp.Eq(KL(P_, Q_), E(sp.log(sp.Symbol("P(y)") / sp.Symbol("Q(y)")))),
    structure=finite_pairs,
    structure_latex=r"P, Q \text{ on a common finite support},\ y \sim P",
    evaluator=_kl_definition,
    tight_everywhere=True,
    notes="Paper: undefined unless Supp(Y) = Supp(Z). symdp follows the usual convention: +inf when P is not "
          "absolutely continuous w.r.t. Q, finite when Supp(P) is a proper subset of Supp(Q). Every later result "
          "is drawn with equal supports.",
)


# --- Definition 2.2 ---------------------------------------------------------------------------------------------
def _max_divergence_forms(point):
    P, Q = build_pair(point["structure"])
    return divergences.max_divergence(P, Q), set_max_divergence(P, Q)


DEFINITION_2_2 = Theorem(
    id="dwork.def2.2",
    title="Max divergence: the set form equals the largest atom log-ratio",
    source=Source(SEED, "Definition 2.2"),
    statement=sp.Eq(MaxDivergence(P_, Q_), SetMaxDivergence(P_, Q_)),
    structure=finite_pairs,
    structure_latex=r"P, Q \text{ on a common finite support}",
    evaluator=_max_divergence_forms,
    tight_everywhere=True,
    notes="For discrete laws the max over sets S is attained at a single atom (a ratio of sums is at most the "
          "largest ratio). The delta-approximate version is dwork.def2.2.delta.",
)

DELTA = Param(delta, sp.Interval(0, 1), sample=(0, 0.3))
DEF22_COUNTEREXAMPLE = {"delta": 0.1, "structure": {"kind": "exact", "p": [0.5, 0.5], "q": [0.4, 0.6]}}
DEF22_POSITIVE = {"delta": 0.1, "structure": {"kind": "exact", "p": [0.6, 0.3, 0.1], "q": [0.2, 0.3, 0.5]}}


def _printed_delta_vs_eps(point):
    P, Q = build_pair(point["structure"])
    return printed_delta_divergence(P, Q, point["delta"]), approximate_max_divergence(P, Q, point["delta"])


DEFINITION_2_2_DELTA = Theorem(
    id="dwork.def2.2.delta",
    title="δ-approximate max divergence as printed characterises (ε,δ)-closeness",
    source=Source(SEED, "Definition 2.2 (second display), as used by Definition 2.4"),
    statement=sp.Le(PrintedDeltaDivergence(P_, Q_, delta), EpsOfDelta(P_, Q_, delta)),
    parameters=(DELTA,),
    structure=finite_pairs,
    structure_latex=r"\varepsilon_{\delta}(P, Q) = \inf\{\varepsilon : P(S) \le e^{\varepsilon} Q(S) + \delta\ "
                    r"\forall S\}",
    evaluator=_printed_delta_vs_eps,
    erratum=Erratum(
        location="Definition 2.2, second display",
        printed=r"D^delta_inf(Y||Z) = max_{S: Pr[Y in S] >= delta} ln(Pr[Y in S] / Pr[Z in S])",
        corrected=r"D^delta_inf(Y||Z) = max_{S: Pr[Y in S] >= delta} ln((Pr[Y in S] - delta) / Pr[Z in S]) (DRV10)",
        counterexample=DEF22_COUNTEREXAMPLE,
        corrected_id="dwork.def2.2.delta.corrected",
        note="P = (0.5, 0.5), Q = (0.4, 0.6) satisfy P(S) <= Q(S) + 0.1 for all S (hockey-stick 0.1), so "
             "eps_0.1(P||Q) = 0; the printed D^0.1 is ln(0.5/0.4) = 0.2231 > 0.",
    ),
    notes="Without '-delta' the printed quantity ignores delta except as a size filter, so it is not the "
          "(eps, delta) level of the pair.",
)


def _drv10_vs_eps(point):
    P, Q = build_pair(point["structure"])
    return delta_divergence(P, Q, point["delta"]), approximate_max_divergence(P, Q, point["delta"])


DEFINITION_2_2_DELTA_CORRECTED = Theorem(
    id="dwork.def2.2.delta.corrected",
    title="δ-approximate max divergence of DRV10 (with −δ) is the (ε,δ) level",
    source=Source(SEED, "Definition 2.2 (corrected as in DRV10)"),
    statement=sp.Eq(DeltaDivergence(P_, Q_, delta), EpsOfDelta(P_, Q_, delta)),
    parameters=(DELTA,),
    structure=finite_pairs,
    structure_latex=r"\varepsilon_{\delta}(P, Q) = \inf\{\varepsilon : D_{e^{\varepsilon}}(P\|Q) \le \delta\}",
    evaluator=_drv10_vs_eps,
    tight_everywhere=True,
    tight_at=(DEF22_POSITIVE,),
    examples=(DEF22_COUNTEREXAMPLE,),
    notes="Brute force over all subsets against symdp.finite.approximate_max_divergence (hockey-stick inverse).",
)


# --- Definition 2.3 ---------------------------------------------------------------------------------------------
def _dp_level_forms(point):
    P, Q = build_pair(point["structure"])
    lo, hi = privacy_loss(P, Q).bounds()
    magnitude = max(abs(lo), abs(hi))
    if isinstance(P, FiniteDistribution):
        return magnitude, max(set_max_divergence(P, Q), set_max_divergence(Q, P))
    both = [divergences.max_divergence(P, Q), divergences.max_divergence(Q, P)]
    return magnitude, max(both, key=lambda x: x.value)


DEFINITION_2_3 = Theorem(
    id="dwork.def2.3",
    title="(ε,0)-DP: the least ε is the largest magnitude of the privacy loss",
    source=Source(SEED, "Definition 2.3 and Section 2.1"),
    statement=sp.Eq(sp.Symbol(r"\operatorname{ess\,sup}|L_{(P\|Q)}|"),
                    sp.Max(SetMaxDivergence(P_, Q_), SetMaxDivergence(Q_, P_))),
    structure=lambda: st.one_of(finite_pairs(), laplace_pairs()),
    structure_latex=r"P, Q \text{ finite with equal supports, or } \mathrm{Lap}(0, b), \mathrm{Lap}(\Delta, b)",
    evaluator=_dp_level_forms,
    tight_everywhere=True,
    examples=LAPLACE_PAIR_PINS,
    notes="Both directions of Definition 2.3's set form against the support of the exact privacy-loss law: "
          "'for (eps,0)-DP algorithms its magnitude is always bounded by eps' (Section 2.1). Laplace pairs: "
          "the continuous max divergence of symdp.quadrature (closed form) against the law's atoms at +-Delta/b.",
)


# --- Definition 2.4 ---------------------------------------------------------------------------------------------
def _eps_both(P, Q, d, divergence) -> mpmath.mpf:
    return max(divergence(P, Q, d), divergence(Q, P, d))


def _printed_alternative(point):
    P, Q = build_pair(point["structure"])
    d = point["delta"]
    level = max(approximate_max_divergence(P, Q, d).value, approximate_max_divergence(Q, P, d).value)
    return _eps_both(P, Q, d, printed_delta_divergence), level


DEFINITION_2_4 = Theorem(
    id="dwork.def2.4",
    title="(ε,δ)-DP: the 'alternatively' clause with the printed D^δ∞",
    source=Source(SEED, "Definition 2.4 ('Or alternatively')"),
    statement=sp.Le(sp.Max(PrintedDeltaDivergence(P_, Q_, delta), PrintedDeltaDivergence(Q_, P_, delta)),
                    sp.Max(EpsOfDelta(P_, Q_, delta), EpsOfDelta(Q_, P_, delta))),
    parameters=(DELTA,),
    structure=finite_pairs,
    structure_latex=r"P = \mathcal{M}(x),\ Q = \mathcal{M}(y) \text{ finite}",
    evaluator=_printed_alternative,
    erratum=Erratum(
        location="Definition 2.4, 'Or alternatively' (through Definition 2.2)",
        printed="(eps, delta)-DP iff D^delta_inf(M(x)||M(y)), D^delta_inf(M(y)||M(x)) <= eps, with the printed "
                "D^delta_inf",
        corrected="(eps, delta)-DP iff both DRV10 divergences (with '- delta') are <= eps",
        counterexample=DEF22_COUNTEREXAMPLE,
        corrected_id="dwork.def2.4.corrected",
        note="P = (0.5, 0.5), Q = (0.4, 0.6) are (0, 0.1)-DP both ways, but the printed divergences are "
             "ln(0.5/0.4) = 0.2231 and ln(0.6/0.5) = 0.1823.",
    ),
)


def _set_form_at_drv10(point):
    P, Q = build_pair(point["structure"])
    d = point["delta"]
    e = _eps_both(P, Q, d, delta_divergence)
    return max(set_hockey_stick(P, Q, e), set_hockey_stick(Q, P, e)), d


DEFINITION_2_4_CORRECTED = Theorem(
    id="dwork.def2.4.corrected",
    title="(ε,δ)-DP: Definition 2.4's set form holds with equality at the DRV10 level",
    source=Source(SEED, "Definition 2.4 (with DRV10's D^δ∞)"),
    statement=sp.Eq(sp.Symbol(r"\max_{S} \max\left(P(S) - e^{\varepsilon^*} Q(S), Q(S) - e^{\varepsilon^*} P(S)"
                              r"\right)"), delta),
    parameters=(Param(delta, sp.Interval(0, 1), sample=(0.001, 0.3)),),
    structure=finite_pairs,
    structure_latex=r"\varepsilon^* = \max\left(D^{\delta}_{\infty}(P\|Q), D^{\delta}_{\infty}(Q\|P)\right) "
                    r"\text{ (DRV10)}",
    evaluator=_set_form_at_drv10,
    tight_everywhere=True,
    tight_at=(DEF22_POSITIVE,),
    examples=(DEF22_COUNTEREXAMPLE,),
    notes="So eps* is the least eps for which the pair is (eps, delta)-DP in both directions: the corrected "
          "'alternatively' clause. Every subset S is enumerated.",
)


# --- Section 2.1: the privacy-loss paragraph ----------------------------------------------------------------------
EPS_TEXT = Param(eps, sp.Interval.open(0, sp.oo), sample=(0.05, 3))
TEXT21_COUNTEREXAMPLE = {"epsilon": 0.6931471805599453,
                         "structure": {"kind": "exact", "p": [0.3, 0.7], "q": [0.1, 0.9]}}


def _text21_printed(point):
    P, Q = build_pair(point["structure"])
    e = point["epsilon"]
    return _prob_abs_above(privacy_loss(P, Q), e, strict=True), _delta_of(P, Q, e)


TEXT_2_1 = Theorem(
    id="dwork.text2.1",
    title="(ε,δ)-DP bounds the privacy loss by ε except with probability δ",
    source=Source(SEED, "Section 2.1, 'Privacy Loss as a Random Variable', and footnote 1"),
    statement=sp.Le(Pr(sp.Gt(sp.Abs(L_), eps)), sp.Symbol(r"\delta(\varepsilon)")),
    parameters=(EPS_TEXT,),
    structure=loss_pairs,
    structure_latex=r"\delta(\varepsilon) = \max\left(D_{e^{\varepsilon}}(P\|Q), D_{e^{\varepsilon}}(Q\|P)\right)"
                    r" \text{ (the least } \delta \text{ for which } (P, Q) \text{ is } (\varepsilon,\delta)"
                    r"\text{-DP)}",
    evaluator=_text21_printed,
    erratum=Erratum(
        location="Section 2.1, last sentence of 'Privacy Loss as a Random Variable' (and footnote 1)",
        printed="For (eps, delta)-DP algorithms, with all but delta probability the magnitude [of L] is bounded "
                "by eps",
        corrected="Pr[|L| >= 2 eps] <= delta (1 + e^{-2 eps}) / (1 - e^{-eps}) (a larger threshold, a larger "
                  "delta); only the converse direction (tail bound => DP) holds as printed",
        counterexample=TEXT21_COUNTEREXAMPLE,
        corrected_id="dwork.text2.1.corrected",
        note="P = (0.3, 0.7), Q = (0.1, 0.9), eps = ln 2: (ln 2, 0.1)-DP both ways, but Pr_P[L = ln 3 > ln 2] = "
             "0.3. Gaussian, Delta/sigma = 1, eps = 1: delta = 0.126937 but Pr[|L| > 1] = 0.375345.",
    ),
    examples=(_s({"kind": "gaussian", "delta": 1.0, "sigma": 1.0}) | {"epsilon": 1.0},),
    notes="The introduction's 'with probability at most 1 - delta' should read 'at least'.",
)


def _text21_corrected(point):
    P, Q = build_pair(point["structure"])
    e = point["epsilon"]
    d = _delta_of(P, Q, e)
    factor = (1 + mpmath.exp(-2 * e)) / -mpmath.expm1(-e)
    return _prob_abs_above(privacy_loss(P, Q), 2 * e, strict=False), Estimate(d.value * factor, d.error * factor)


TEXT_2_1_CORRECTED = Theorem(
    id="dwork.text2.1.corrected",
    title="(ε,δ)-DP bounds the privacy loss by 2ε except with probability δ(1 + e^{−2ε})/(1 − e^{−ε})",
    source=Source(SEED, "Section 2.1 (corrected)"),
    statement=sp.Le(Pr(sp.Ge(sp.Abs(L_), 2 * eps)),
                    sp.Symbol(r"\delta(\varepsilon)") * (1 + sp.exp(-2 * eps)) / (1 - sp.exp(-eps))),
    parameters=(EPS_TEXT,),
    structure=loss_pairs,
    structure_latex=TEXT_2_1.structure_latex,
    evaluator=_text21_corrected,
    examples=(TEXT21_COUNTEREXAMPLE,),
    notes="Upper tail: D_{e^eps}(P||Q) = E_P[(1 - e^{eps - L})_+] >= (1 - e^{-eps}) Pr[L >= 2 eps]. Lower tail: "
          "Pr_P[L <= -2 eps] <= e^{-2 eps} Pr_Q[L' >= 2 eps] with L' the loss of (Q||P). Loose in general (the "
          "one-sided part is attained when L takes only the values 2 eps and <= eps); see the worst ratio.",
)


# --- Definition 2.5 ---------------------------------------------------------------------------------------------
LAMBDA = Param(lam, sp.Reals, sample=(-8, 8))
LAPLACE_LAW_AT_MINUS_ONE = ({"lambda": -1.0, "structure": {"kind": "laplace", "a": 1.0}},
                            {"lambda": -1.0, "structure": {"kind": "laplace", "a": 4.0}})


def _mgf_condition(law_of):
    """(E[e^{λX}], e^{λ²τ(X)²/2}) for the centred X = law_of(structure)."""
    def evaluator(point):
        law = law_of(point["structure"])
        l = point["lambda"]
        tau_ = standard(law)
        bound = mpmath.exp(l**2 * tau_.value**2 / 2)
        return law.mgf(l), Estimate(bound, bound * l**2 * tau_.value * tau_.error)
    return evaluator


DEFINITION_2_5 = Theorem(
    id="dwork.def2.5",
    title="X is τ(X)-subgaussian, with equality at every λ for N(0, σ²)",
    source=Source(SEED, "Definition 2.5 and the remarks after it"),
    statement=sp.Le(E(sp.exp(lam * X)), sp.exp(lam**2 * SubgaussianStandard(X) ** 2 / 2)),
    parameters=(LAMBDA,),
    structure=laws,
    structure_latex=r"X \text{ centred: finite, } \mathcal{N}(0, \sigma^2) \text{ or a centred Laplace loss}",
    evaluator=_mgf_condition(build_law),
    tight_at=tuple(p | {"lambda": v} for p in GAUSS_LAW_PINS for v in (-3.0, 0.5)) + LAPLACE_LAW_AT_MINUS_ONE,
    default_examples=60,
    notes="tau(X) = sqrt(sup 2 ln E e^{lambda X} / lambda^2), the least tau (the condition is closed, so the inf "
          "is attained). 'N(0, sigma^2) is sigma-subgaussian': equality at every lambda. A centred Laplace loss "
          "attains it at lambda = -1 (numerically: tau^2 = 2 KL there). The remark 'mean 0' is the first-order "
          "term as lambda -> 0 from both sides (proofs/dwork/subgaussian.py). The definition asks tau > 0 but "
          "then allows tau >= 0 (a point mass is 0-subgaussian).",
)


# --- Lemma 2.1 ---------------------------------------------------------------------------------------------------
def _tails(point):
    law = build_law(point["structure"])
    tau_ = standard(law)
    return _two_sided_tail(law, point["t"] * tau_.value), mpmath.exp(-point["t"] ** 2 / 2)


LEMMA_2_1_STATEMENT = sp.Le(sp.Max(Pr(sp.Ge(X, t * tau)), Pr(sp.Le(X, -t * tau))), sp.exp(-t**2 / 2))
LEMMA_2_1_LATEX = r"X \text{ centred},\ \tau = \tau(X) > 0"
LEMMA_2_1_NOTES = ("tau := tau(X), the strongest instance. Exponent tight (Gaussian tails are e^{-t^2/2} up to "
                   "a polynomial factor), constant loose for t bounded away from 0 (Rademacher at t = 1: 0.82); "
                   "as t -> 0 the ratio is Pr[X >= 0], which can approach 1.")

LEMMA_2_1 = Theorem(
    id="dwork.lem2.1",
    title="Subgaussian concentration, as printed (any real t)",
    source=Source(SEED, "Lemma 2.1"),
    statement=LEMMA_2_1_STATEMENT,
    parameters=(Param(t, sp.Reals, sample=(-3, 5)),),
    structure=lambda: laws(min_size=2),
    structure_latex=LEMMA_2_1_LATEX,
    evaluator=_tails,
    erratum=Erratum(
        location="Lemma 2.1, statement",
        printed="X tau-subgaussian => Pr[X >= t tau] <= e^{-t^2/2}, Pr[X <= -t tau] <= e^{-t^2/2}",
        corrected="the same for t >= 0 (the proof assumes t > 0)",
        counterexample={"t": -1.0, "structure": {"kind": "gaussian", "sd": 1.0}},
        corrected_id="dwork.lem2.1.corrected",
        note="X ~ N(0, 1), tau = 1, t = -1: Pr[X >= -1] = 0.8413 > e^{-1/2} = 0.6065.",
    ),
    notes=LEMMA_2_1_NOTES,
)

LEMMA_2_1_CORRECTED = Theorem(
    id="dwork.lem2.1.corrected",
    title="Subgaussian concentration for t ≥ 0",
    source=Source(SEED, "Lemma 2.1 (with t >= 0)"),
    statement=LEMMA_2_1_STATEMENT,
    parameters=(Param(t, sp.Interval(0, sp.oo), sample=(0, 6)),),
    structure=lambda: laws(min_size=2),
    structure_latex=LEMMA_2_1_LATEX,
    evaluator=_tails,
    examples=tuple(p | {"t": 0.9} for p in RADEMACHER_PINS),
    notes=LEMMA_2_1_NOTES + " Proof: Chernoff with lambda = t/tau (proofs/dwork/subgaussian.py).",
)


# --- Fact 2.1 ---------------------------------------------------------------------------------------------------
def _variance_and_tau2(point):
    law = build_law(point["structure"])
    return law.variance(), _square(standard(law))


FACT_2_1 = Theorem(
    id="dwork.fact2.1",
    title="Subgaussian variance",
    source=Source(SEED, "Fact 2.1"),
    statement=sp.Le(Var(X), SubgaussianStandard(X) ** 2),
    structure=laws,
    structure_latex=r"X \text{ centred}",
    evaluator=_variance_and_tau2,
    tight_at=GAUSS_LAW_PINS + RADEMACHER_PINS,
    notes="Var X is the lambda -> 0 limit of 2 ln E e^{lambda X}/lambda^2. Equality for N(0, sigma^2) and for "
          "symmetric two-point laws (the sup of the ratio is its lambda -> 0 limit).",
)


# --- Fact 2.2 ---------------------------------------------------------------------------------------------------
def _moment_bound(reading):
    def evaluator(point):
        law = build_law(point["structure"])
        order = point["k"]
        tau_ = standard(law)
        c = mpmath.factorial(reading(order)) * mpmath.mpf(2) ** ((order + 1) // 2 + 1)
        bound = c * tau_.value**order
        return law.central_moment(order), Estimate(bound, c * order * tau_.value ** (order - 1) * tau_.error)
    return evaluator


def _fact22(reading_expr, reading_fn, k_range, ident, title, notes):
    return Theorem(
        id=ident, title=title, source=Source(SEED, "Fact 2.2"),
        statement=sp.Le(E(X**k), sp.factorial(reading_expr) * 2 ** (sp.ceiling(k / 2) + 1) * tau**k),
        parameters=(Param(k, sp.Range(1, k_range + 1), sample=(1, k_range)),),
        structure=laws, structure_latex=r"X \text{ centred},\ \tau = \tau(X)",
        evaluator=_moment_bound(reading_fn), default_examples=60, notes=notes)


FACT_2_2 = _fact22(
    sp.ceiling(k / 2), lambda order: (order + 1) // 2, 12, "dwork.fact2.2",
    "Subgaussian moments (the bracket read as a ceiling)",
    "The printed [k/2]! is ambiguous; Claim 4.5 uses the ceiling. Even k = 2m: both readings are "
    "m! 2^{m+1} tau^{2m}, exactly the classical k 2^{k/2} Gamma(k/2) tau^k bound on E|X|^k (derivation in "
    "proofs). Odd k: the ceiling reading is >= the classical bound, so it holds. Loose by a factor >= 4 "
    "(Gaussian k = 2: sigma^2 against 4 sigma^2). Integer k >= 1 (k = 0 is trivial).")

FACT_2_2_FLOOR = _fact22(
    sp.floor(k / 2), lambda order: order // 2, 15, "dwork.fact2.2.floor",
    "Subgaussian moments (the bracket read as a floor), k ≤ 15",
    "For odd k >= 5 this is below the two-sided classical bound, but E[X^k] <= E[X_+^k] <= k 2^{k/2-1} "
    "Gamma(k/2) tau^k (Lemma 2.1 for t >= 0 on the upper tail only) is below m! 2^{m+2} for every odd "
    "k = 2m+1 <= 15 (proofs/dwork/subgaussian.py, FACTS): PROVED for k <= 15. For odd k >= 17 the one-sided "
    "bound exceeds the floor reading: undecided (no proof, and no counterexample: the catalogue's search found "
    "E[X^5] <= 4.32 tau^5 against 32).")


# --- Lemma 2.2 ---------------------------------------------------------------------------------------------------
@st.composite
def conditional_pairs(draw, max_atoms: int = 3, spread: float = 3.0):
    """X1 (1–2 atoms; centred after building) and, for each atom of X1, the conditional law of X2 (up to
    ``max_atoms``; centred after building)."""
    x1 = draw(finite_laws(2, spread))
    x2 = [draw(finite_laws(max_atoms, spread)) for _ in x1["values"]]
    return {"x1": x1, "x2": x2}


def _sum_and_bound(point):
    s = point["structure"]
    X1 = build_law(s["x1"])
    conditionals = [build_law(c) for c in s["x2"]]
    values, probs = [], []
    for x1, w, cond in zip(X1.values, X1.probabilities, conditionals):
        values += [x1 + x2 for x2 in cond.values]
        probs += [w * p for p in cond.probabilities]
    total = standard(DiscreteLaw(values, FiniteDistribution.normalized(probs).probs))
    t1 = standard(X1)
    t2 = max((standard(c) for c in conditionals), key=lambda e: e.value)
    bound = mpmath.sqrt(t1.value**2 + t2.value**2)
    err = (t1.value * t1.error + t2.value * t2.error) / bound if bound > 0 else t1.error + t2.error
    return total, Estimate(bound, err)


def _independent(scale1, scale2) -> dict:
    rad = lambda c: {"kind": "finite", "values": [-c, c], "weights": [1.0, 1.0]}  # noqa: E731
    return _s({"x1": rad(scale1), "x2": [rad(scale2), rad(scale2)]})


LEMMA_2_2 = Theorem(
    id="dwork.lem2.2",
    title="Sum of conditionally subgaussian variables",
    source=Source(SEED, "Lemma 2.2"),
    statement=sp.Le(SubgaussianStandard(sp.Symbol("X_1") + sp.Symbol("X_2")),
                    sp.sqrt(sp.Symbol("tau_1") ** 2 + sp.Symbol("tau_2") ** 2)),
    structure=conditional_pairs,
    structure_latex=r"\tau_1 = \tau(X_1),\ \tau_2 = \max_{x_1} \tau(X_2 \mid X_1 = x_1),\ "
                    r"\mathbb{E}[X_2 \mid X_1] = 0",
    evaluator=_sum_and_bound,
    tight_at=(_independent(1.0, 1.0), _independent(0.5, 2.0)),
    default_examples=30,
    notes="The induction step k-1 -> k with X_1 standing for the prefix sum (any subgaussian law). Tight for "
          "independent symmetric two-point laws (tau^2 = Var = tau_1^2 + tau_2^2) and independent Gaussians. "
          "Typo: 'Supp(X_1, ..., X_{k-1})' should read 'Supp(X_1, ..., X_{i-1})'. Conditional subgaussianity "
          "includes conditional mean 0 (what Theorem 3.4's adaptive use lacks).",
)


# --- Lemma 2.3 ---------------------------------------------------------------------------------------------------
@st.composite
def joint_laws(draw, max_atoms: int = 5):
    """Joint atoms (x_i, y_i) with weights; Y = y - E[y] with y in [-1/3, 1/3], so τ(Y) <= 1/3 (Hoeffding)."""
    n = draw(st.integers(1, max_atoms))
    return {"x": draw(st.lists(st.floats(-3, 3), min_size=n, max_size=n)),
            "y": draw(st.lists(st.floats(-1 / 3, 1 / 3), min_size=n, max_size=n)),
            "w": draw(weights(n))}


def _joint(point):
    s = point["structure"]
    w = FiniteDistribution.normalized(s["w"]).probs
    x = [to_mpf(v) for v in s["x"]]
    Ylaw = DiscreteLaw(s["y"], w).centred()
    return x, list(Ylaw.values), w, standard(Ylaw)


def _lemma23(second_line):
    def evaluator(point):
        x, y, w, tau_ = _joint(point)
        lhs = mpmath.fsum(p * xi * mpmath.exp(yi) for xi, yi, p in zip(x, y, w))
        ex = mpmath.fsum(p * xi for xi, p in zip(x, w))
        ex2 = mpmath.fsum(p * xi**2 for xi, p in zip(x, w))
        g = tau_.value + 3 * tau_.value**2
        coefficient = second_line(ex, ex2) if second_line else mpmath.sqrt(ex2)
        return lhs, Estimate(ex + coefficient * g, abs(coefficient) * (1 + 6 * tau_.value) * tau_.error)
    return evaluator


def _sd(ex, ex2):
    return mpmath.sqrt(max(ex2 - ex**2, mpmath.mpf(0)))


LEMMA_2_3_LATEX = r"(X, Y) \text{ finite joint law},\ \mathbb{E}[Y] = 0,\ \tau = \tau(Y) \le 1/3"
E_XEY = E(X * sp.exp(Y))
LEMMA_2_3_COUNTEREXAMPLE = {"structure": {"x": [-1.0, -1.0], "y": [-0.2, 0.2], "w": [1.0, 1.0]}}

LEMMA_2_3 = Theorem(
    id="dwork.lem2.3",
    title="Expected product with the exponential of a subgaussian (first line)",
    source=Source(SEED, "Lemma 2.3, first line of (1)"),
    statement=sp.Le(E_XEY, E(X) + sp.sqrt(E(X**2)) * (tau + 3 * tau**2)),
    structure=joint_laws,
    structure_latex=LEMMA_2_3_LATEX,
    evaluator=_lemma23(None),
    examples=(LEMMA_2_3_COUNTEREXAMPLE,),
    notes="tau := tau(Y), the strongest instance. Equivalent (Cauchy-Schwarz, X = e^Y - 1) to sqrt(E(e^Y - 1)^2) "
          "<= tau + 3 tau^2. Loose: the worst Y found has sqrt(E(e^Y-1)^2) ~ tau + 0.16 tau^2; equality only in "
          "the degenerate Y = 0. The proof says 'for tau <= 1/2' then 'whenever tau <= 1/3'; 1/3 is needed.",
)

LEMMA_2_3_LINE_2 = Theorem(
    id="dwork.lem2.3.line2",
    title="Expected product with the exponential of a subgaussian (second line, as printed)",
    source=Source(SEED, "Lemma 2.3, second line of (1)"),
    statement=sp.Le(E_XEY, E(X) + (sp.sqrt(Var(X)) + E(X)) * (tau + 3 * tau**2)),
    structure=joint_laws,
    structure_latex=LEMMA_2_3_LATEX,
    evaluator=_lemma23(lambda ex, ex2: _sd(ex, ex2) + ex),
    erratum=Erratum(
        location="Lemma 2.3, second line of (1) and last step of the proof",
        printed="E[X e^Y] <= E[X] + (sqrt(Var X) + E[X]) (tau + 3 tau^2)",
        corrected="E[X e^Y] <= E[X] + (sqrt(Var X) + |E[X]|) (tau + 3 tau^2)",
        counterexample=LEMMA_2_3_COUNTEREXAMPLE,
        corrected_id="dwork.lem2.3.line2.corrected",
        note="sqrt(E X^2) <= sqrt(Var X) + E[X] needs E[X] >= 0. X = -1, Y = +-0.2 (tau = 0.2): LHS = -cosh 0.2 "
             "= -1.0201 > RHS = -1.32.",
    ),
    notes="Every use in the paper has E[X] >= 0 except the odd-k uses in Claim 4.5, which use the first line.",
)

LEMMA_2_3_LINE_2_CORRECTED = Theorem(
    id="dwork.lem2.3.line2.corrected",
    title="Expected product with the exponential of a subgaussian (second line with |E X|)",
    source=Source(SEED, "Lemma 2.3, second line of (1), corrected"),
    statement=sp.Le(E_XEY, E(X) + (sp.sqrt(Var(X)) + sp.Abs(E(X))) * (tau + 3 * tau**2)),
    structure=joint_laws,
    structure_latex=LEMMA_2_3_LATEX,
    evaluator=_lemma23(lambda ex, ex2: _sd(ex, ex2) + abs(ex)),
    examples=(LEMMA_2_3_COUNTEREXAMPLE,),
    notes="sqrt(E X^2) = sqrt(Var X + E[X]^2) <= sqrt(Var X) + |E X|, then the first line.",
)


# --- Definitions 3.1 and 3.2 ----------------------------------------------------------------------------------
def _mean_and_kl(point):
    return _loss(point["structure"]).mean(), _kl(point["structure"])


DEFINITION_3_1 = Theorem(
    id="dwork.def3.1",
    title="The expected privacy loss is the KL divergence",
    source=Source(SEED, "Definition 3.1"),
    statement=sp.Eq(E(L_), KL(P_, Q_)),
    structure=loss_pairs,
    structure_latex=r"P, Q \text{ finite with equal supports, } \mathcal{N}(0,\sigma^2), \mathcal{N}(\Delta,\sigma^2)"
                    r" \text{ or } \mathrm{Lap}(0,b), \mathrm{Lap}(\Delta,b)",
    evaluator=_mean_and_kl,
    tight_everywhere=True,
    examples=GAUSS_PAIR_PINS + LAPLACE_PAIR_PINS,
    notes="Continuous pairs: the mean of the exact law of L (Gaussian Delta^2/(2 sigma^2); Laplace from its atoms "
          "and density, a + e^{-a} - 1) against the KL closed forms of symdp.closed_forms. The 'discrete' of "
          "the paper is dropped: the same holds for densities.",
)

DEFINITION_3_1_NORMALISATION = Theorem(
    id="dwork.def3.1.normalisation",
    title="E[e^{−L}] = 1 for the privacy loss of a pair with equal supports",
    source=Source(SEED, "Definition 3.1 (consequence; catalogue dwork.def3.1)"),
    statement=sp.Eq(E(sp.exp(-L_)), 1),
    structure=loss_pairs,
    structure_latex=DEFINITION_3_1.structure_latex,
    witness=lambda point: _loss(point["structure"]).mgf(-1),
    tight_everywhere=True,
    examples=GAUSS_PAIR_PINS + LAPLACE_PAIR_PINS,
    notes="E_P[Q/P] = sum Q = 1; used by dwork.obs.kl-le-tau2.",
)


def _centred_loss(draw) -> Law:
    return _loss(draw).centred()


DEFINITION_3_2 = Theorem(
    id="dwork.def3.2",
    title="Subgaussian divergence: the centred loss is τ-subgaussian with τ its optimal standard",
    source=Source(SEED, "Definition 3.2"),
    statement=sp.Le(E(sp.exp(lam * (L_ - E(L_)))), sp.exp(lam**2 * tau**2 / 2)),
    parameters=(LAMBDA,),
    structure=loss_pairs,
    structure_latex=r"\tau = \tau(L_{(P\|Q)} - \mathbb{E}[L_{(P\|Q)}]),\ \mu = D_{\mathrm{KL}}(P\|Q)",
    evaluator=_mgf_condition(_centred_loss),
    tight_at=tuple(p | {"lambda": v} for p in GAUSS_PAIR_PINS for v in (-2.0, 1.5))
    + tuple(p | {"lambda": -1.0} for p in LAPLACE_PAIR_PINS + RR_PINS),
    default_examples=60,
    notes="D_subG(P||Q) <= (mu, tau) iff KL <= mu and this holds for all lambda; the least (mu, tau) are "
          "(KL, tau(L - KL)). Equality for Gaussian pairs at every lambda, and at lambda = -1 for Laplace pairs "
          "and randomized response (where r(-1) = 2 KL is the sup). Typo: 'the pair of random variables X and Y' "
          "should read 'Y and Z'.",
)


# --- Corollary 3.1 -----------------------------------------------------------------------------------------------
def _loss_tail(point):
    L = _loss(point["structure"])
    tau_ = standard(L)
    return L.sf(L.mean() + point["t"] * tau_.value), mpmath.exp(-point["t"] ** 2 / 2)


COROLLARY_3_1_STATEMENT = sp.Le(Pr(sp.Ge(L_, mu + t * tau)), sp.exp(-t**2 / 2))
COROLLARY_3_1_LATEX = r"P \ne Q,\ \mu = D_{\mathrm{KL}}(P\|Q),\ \tau = \tau(L_{(P\|Q)} - \mu) > 0"
COROLLARY_3_1_NOTES = ("mu := KL and tau := the optimal standard, the strongest instance of (mu, tau)-CDP. "
                       "Follows from Lemma 2.1 since {L >= mu + t tau} is inside {L - E L >= t tau}. Loose "
                       "(as Lemma 2.1).")

COROLLARY_3_1 = Theorem(
    id="dwork.cor3.1",
    title="Concentrated privacy loss, as printed (any real t)",
    source=Source(SEED, "Corollary 3.1"),
    statement=COROLLARY_3_1_STATEMENT,
    parameters=(Param(t, sp.Reals, sample=(-3, 5)),),
    structure=loss_pairs,
    structure_latex=COROLLARY_3_1_LATEX,
    evaluator=_loss_tail,
    erratum=Erratum(
        location="Corollary 3.1, statement",
        printed="Pr[L >= mu + t tau] <= exp(-t^2/2)",
        corrected="the same for t >= 0 and tau > 0 (as Lemma 2.1 assumes)",
        counterexample={"t": -1.0, "structure": {"kind": "gaussian", "delta": 1.0, "sigma": 1.0}},
        corrected_id="dwork.cor3.1.corrected",
        note="Gaussian pair with Delta/sigma = 1 (L ~ N(1/2, 1), (1/2, 1)-CDP), t = -1: Pr[L >= -1/2] = 0.8413 > "
             "e^{-1/2} = 0.6065. tau > 0 is missing too: a constant mechanism (P = Q, L = 0) is (0, 0)-CDP and "
             "Pr[L >= 0] = 1 > e^{-t^2/2} for every t > 0 (found by the draws).",
    ),
    notes=COROLLARY_3_1_NOTES,
)

COROLLARY_3_1_CORRECTED = Theorem(
    id="dwork.cor3.1.corrected",
    title="Concentrated privacy loss for t ≥ 0 and τ > 0",
    source=Source(SEED, "Corollary 3.1 (with t >= 0)"),
    statement=COROLLARY_3_1_STATEMENT,
    parameters=(Param(t, sp.Interval(0, sp.oo), sample=(0, 6)),),
    structure=loss_pairs,
    structure_latex=COROLLARY_3_1_LATEX,
    evaluator=_loss_tail,
    examples=tuple(p | {"t": 0.5} for p in GAUSS_PAIR_PINS + RR_PINS),
    notes=COROLLARY_3_1_NOTES,
)


# --- Lemma 3.6 ---------------------------------------------------------------------------------------------------
def _hoeffding(point):
    law = build_law(point["structure"])
    lo, hi = law.bounds()
    return standard(law), (hi - lo) / 2


LEMMA_3_6 = Theorem(
    id="dwork.lem3.6",
    title="Hoeffding's lemma: a centred variable in [a, b] is (b − a)/2-subgaussian",
    source=Source(SEED, "Lemma 3.6"),
    statement=sp.Le(SubgaussianStandard(X), (b_ - a_) / 2),
    structure=bounded_laws,
    structure_latex=r"\mathbb{E}[X] = 0,\ [a, b] = [\operatorname{ess\,inf} X, \operatorname{ess\,sup} X]",
    evaluator=_hoeffding,
    tight_at=RADEMACHER_PINS,
    notes="Equivalent to E e^{lambda X} <= e^{lambda^2 (b-a)^2/8} for all lambda. Tight for the symmetric "
          "two-point law on {a, b}. The paper writes \\mathcal{E} for the expectation.",
)


# --- catalogue observation: KL <= tau^2/2 ---------------------------------------------------------------------
def _kl_and_half_tau2(point):
    return _kl(point["structure"]), _square(standard(_loss(point["structure"])), mpmath.mpf(1) / 2)


KL_LE_TAU2 = Theorem(
    id="dwork.obs.kl-le-tau2",
    title="KL ≤ τ²/2 whenever the centred privacy loss is τ-subgaussian",
    source=Source(SEED, "catalogue observation (Definition 3.2 at lambda = -1)"),
    statement=sp.Le(KL(P_, Q_), SubgaussianStandard(L_ - E(L_)) ** 2 / 2),
    structure=loss_pairs,
    structure_latex=r"P, Q \text{ with equal supports}",
    evaluator=_kl_and_half_tau2,
    tight_at=GAUSS_PAIR_PINS + LAPLACE_PAIR_PINS + RR_PINS,
    notes="E_P[e^{-(L - KL)}] = e^{KL} (since E_P[e^{-L}] = 1), and lambda = -1 in the subgaussian condition "
          "gives e^{KL} <= e^{tau^2/2}. Equality exactly when the sup of r sits at lambda = -1: Gaussian pairs "
          "(every lambda), and, numerically, Laplace pairs and randomized response (pairs with symmetric KL, "
          "where lambda = -1 is a stationary point of r). So mu <= tau^2/2 is automatic in (mu, tau)-CDP.",
)


# --- Fact 4.1 ---------------------------------------------------------------------------------------------------
def _power_mean(point):
    a, b, kk = point["a"], point["b"], point["k"]
    kk = mpmath.mpf(kk)
    return mpmath.power(a + b, kk)


FACT_4_1 = Theorem(
    id="dwork.fact4.1",
    title="(a + b)^k ≤ 2^{k−1}(a^k + b^k) for any two reals, as printed",
    source=Source(SEED, "Fact 4.1"),
    statement=sp.Le((a_ + b_) ** k, 2 ** (k - 1) * (a_**k + b_**k)),
    parameters=(Param(k, sp.Range(1, 9), sample=(1, 8)), Param(a_, sp.Reals, sample=(-3, 3)),
                Param(b_, sp.Reals, sample=(-3, 3))),
    witness=_power_mean,
    erratum=Erratum(
        location="Fact 4.1, statement",
        printed="For a real value k >= 1 and for any two reals a, b: (a + b)^k <= 2^{k-1} (a^k + b^k)",
        corrected="for a, b >= 0 (Jensen on the convex x^k); for all reals |a + b|^k <= 2^{k-1}(|a|^k + |b|^k)",
        counterexample={"k": 3, "a": -2.0, "b": 1.0},
        corrected_id="dwork.fact4.1.corrected",
        note="k = 3, a = -2, b = 1: (a + b)^3 = -1 > 4 (-8 + 1) = -28.",
    ),
    notes="Encoded with integer k: for non-integer k and a negative real, a^k is not real, so 'any two reals' "
          "cannot even be read there. Every use in the paper has a, b >= 0 or even k.",
)

FACT_4_1_CORRECTED = Theorem(
    id="dwork.fact4.1.corrected",
    title="(a + b)^k ≤ 2^{k−1}(a^k + b^k) for a, b ≥ 0 and real k ≥ 1",
    source=Source(SEED, "Fact 4.1 (a, b >= 0)"),
    statement=sp.Le((a_nn + b_nn) ** k_real, 2 ** (k_real - 1) * (a_nn**k_real + b_nn**k_real)),
    parameters=(Param(k_real, sp.Interval(1, sp.oo), sample=(1, 8)), Param(a_nn, sp.Interval(0, sp.oo),
                                                                           sample=(0, 5)),
                Param(b_nn, sp.Interval(0, sp.oo), sample=(0, 5))),
    witness=_power_mean,
    tight_at=({"k": 3.0, "a": 1.5, "b": 1.5}, {"k": 1.7, "a": 0.2, "b": 0.2}, {"k": 1.0, "a": 0.3, "b": 2.0}),
    notes="Jensen on x^k (convex on [0, oo) for k >= 1). Equality iff a = b, or k = 1.",
)


THEOREMS = [
    DEFINITION_2_1, DEFINITION_2_2, DEFINITION_2_2_DELTA, DEFINITION_2_2_DELTA_CORRECTED, DEFINITION_2_3,
    DEFINITION_2_4, DEFINITION_2_4_CORRECTED, TEXT_2_1, TEXT_2_1_CORRECTED, DEFINITION_2_5, LEMMA_2_1,
    LEMMA_2_1_CORRECTED, FACT_2_1, FACT_2_2, FACT_2_2_FLOOR, LEMMA_2_2, LEMMA_2_3, LEMMA_2_3_LINE_2,
    LEMMA_2_3_LINE_2_CORRECTED, DEFINITION_3_1, DEFINITION_3_1_NORMALISATION, DEFINITION_3_2, COROLLARY_3_1,
    COROLLARY_3_1_CORRECTED, LEMMA_3_6, KL_LE_TAU2, FACT_4_1, FACT_4_1_CORRECTED,
]
