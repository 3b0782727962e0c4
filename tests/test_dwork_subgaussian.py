"""Dwork & Rothblum, Section 2 and the privacy-loss results of Section 3.1: theorems, errata, derivations.

Seed ../shared/seeds/004_b3a545b59162ae7d.txt; catalogue ../shared/catalogue/catalogue-dwork.md. Reference values
name their origin (catalogue entry or closed form).
"""

import mpmath
import pytest
import sympy as sp

from proofs.dwork.subgaussian import DERIVATIONS, FACTS
from symdp.finite import FiniteDistribution as FD
from symdp.privacy_loss import GaussianLaw, privacy_loss
from symdp.theorems import get
from symdp.theorems.dwork import subgaussian as sg
from symdp.verify import HOLDS, VIOLATED, verify

ERRATA = [t for t in sg.THEOREMS if t.erratum is not None]
SOUND = [t for t in sg.THEOREMS if t.erratum is None]
TIGHT = [t for t in SOUND if t.tight_at or t.tight_everywhere]


def ref(s):
    return mpmath.mpf(s)


# --- verdicts ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("theorem", SOUND, ids=lambda t: t.id)
def test_sound_theorems_hold(theorem):
    r = verify(theorem, examples=10, seed=3)
    assert r.verdict == HOLDS, (r.reason, r.counterexample)


@pytest.mark.parametrize("theorem", ERRATA, ids=lambda t: t.id)
def test_printed_errata_are_refuted_by_their_counterexample_and_corrected_beside_them(theorem):
    r = verify(theorem, examples=0)
    assert r.verdict == VIOLATED
    recorded = [d for d in r.draws if d.point == dict(theorem.erratum.counterexample)]
    assert recorded and recorded[0].verdict == VIOLATED
    corrected = get(theorem.erratum.corrected_id)
    assert corrected.erratum is None and verify(corrected, examples=5).verdict == HOLDS


@pytest.mark.parametrize("theorem", TIGHT, ids=lambda t: t.id)
def test_tight_results_are_equalities_at_their_pins_and_refuted_when_tightened(theorem):
    pinned = verify(theorem, examples=0).draws
    assert all(d.verdict == "tight" for d in pinned[:len(theorem.tight_at)])
    if theorem.tight_everywhere:
        assert all(d.verdict == "tight" for d in pinned)
    assert verify(theorem.tightened(0.99), examples=5).verdict == VIOLATED


def test_every_catalogue_id_of_the_brief_is_encoded():
    ids = {t.id for t in sg.THEOREMS}
    assert {"dwork.def2.1", "dwork.def2.2", "dwork.def2.3", "dwork.def2.4", "dwork.text2.1", "dwork.def2.5",
            "dwork.lem2.1", "dwork.fact2.1", "dwork.fact2.2", "dwork.lem2.2", "dwork.lem2.3", "dwork.def3.1",
            "dwork.def3.2", "dwork.cor3.1", "dwork.lem3.6", "dwork.obs.kl-le-tau2", "dwork.fact4.1"} <= ids


# --- reference values of the errata (catalogue) --------------------------------------------------------------------
def test_def22_printed_value_is_ln_five_quarters():
    P, Q = FD(["0.5", "0.5"]), FD(["0.4", "0.6"])
    d = ref("0.1")
    assert abs(sg.printed_delta_divergence(P, Q, d) - mpmath.log(ref("1.25"))) < 1e-45
    assert abs(sg.printed_delta_divergence(Q, P, d) - mpmath.log(ref("1.2"))) < 1e-45   # ln(0.6/0.5) = 0.1823
    assert sg.delta_divergence(P, Q, d) == 0 and abs(sg.set_hockey_stick(P, Q, 0) - d) < 1e-45


def test_text21_gaussian_example_of_the_catalogue():
    # Catalogue dwork.text2.1: tau = 1, eps = 1: delta = 0.126937, Pr[L > 1] = 0.308538, Pr[|L| > 1] = 0.375345.
    point = {"epsilon": ref(1), "structure": {"kind": "gaussian", "delta": 1.0, "sigma": 1.0}}
    prob, delta = sg._text21_printed(point)
    assert abs(delta.value - ref("0.126937")) < 5e-7 and abs(prob - ref("0.375345")) < 5e-7
    assert abs(privacy_loss(*sg.build_pair(point["structure"])).sf(1) - ref("0.308538")) < 5e-7


def test_lemma21_counterexample_values():
    # N(0, 1), tau = 1, t = -1: Pr[X >= -1] = 0.8413 against e^{-1/2} = 0.6065 (catalogue dwork.lem2.1).
    tail, bound = sg._tails({"t": ref(-1), "structure": {"kind": "gaussian", "sd": 1.0}})
    assert abs(tail - mpmath.ncdf(1)) < 1e-45 and abs(bound - mpmath.exp(ref(-0.5))) < 1e-45


def test_lemma23_line2_counterexample_values():
    lhs, rhs = sg._lemma23(lambda ex, ex2: sg._sd(ex, ex2) + ex)(sg.LEMMA_2_3_COUNTEREXAMPLE)
    assert abs(lhs + mpmath.cosh(ref("0.2"))) < 1e-45 and abs(rhs.value - ref("-1.32")) < 1e-40


def test_fact41_counterexample_values():
    assert sg.FACT_4_1.evaluate({"k": 3, "a": ref(-2), "b": ref(1)}) == (ref(-1), ref(-28))


# --- the quantities behind the theorems -----------------------------------------------------------------------
def test_set_forms_agree_with_atom_forms_on_a_three_atom_pair():
    P, Q = FD(["0.6", "0.3", "0.1"]), FD(["0.2", "0.3", "0.5"])
    assert sg.set_max_divergence(P, Q) == mpmath.log(ref(3))   # attained at a single atom
    assert abs(sg.delta_divergence(P, Q, ref("0.1")) - mpmath.log(ref("2.5"))) < 1e-45  # (0.6 - 0.1)/0.2


def test_standard_of_the_gaussian_law_drives_def25_to_equality():
    lhs, rhs = sg.DEFINITION_2_5.evaluate({"lambda": ref(-3), "structure": {"kind": "gaussian", "sd": 1.0}})
    assert lhs == rhs.value == mpmath.exp(ref("4.5"))


def test_lemma22_is_tight_for_independent_rademachers():
    total, bound = sg._sum_and_bound(sg._independent(1.0, 1.0))
    assert abs(total.value - mpmath.sqrt(2)) < 1e-40 and abs(bound.value - mpmath.sqrt(2)) < 1e-40


def test_randomized_response_attains_kl_le_tau2():
    # catalogue dwork.obs.rr-extremal: KL(RR) = eps tanh(eps/2), tau^2 = 2 eps tanh(eps/2).
    kl_, half_tau2 = sg._kl_and_half_tau2({"structure": {"kind": "rr", "eps": 2.0}})
    assert abs(kl_.value - 2 * mpmath.tanh(1)) < 1e-40 and abs(half_tau2.value - 2 * mpmath.tanh(1)) < 1e-40


def test_build_law_centres_and_laws_reject_unknown_kinds():
    X = sg.build_law({"kind": "finite", "values": [1.0, 3.0], "weights": [1.0, 3.0]})
    assert abs(X.mean()) < 1e-45 and isinstance(sg.build_law({"kind": "gaussian", "sd": 2.0}), GaussianLaw)
    with pytest.raises(Exception, match="unknown law kind"):
        sg.build_law({"kind": "cauchy"})


# --- derivations, facts, rendering -----------------------------------------------------------------------------
@pytest.mark.parametrize("derivation", DERIVATIONS, ids=lambda d: d.title[:50])
def test_derivations_check(derivation):
    assert derivation.check()
    assert derivation.latex().startswith(r"\begin{align*}")


@pytest.mark.parametrize("name", list(FACTS))
def test_facts_hold(name):
    assert FACTS[name]()


@pytest.mark.parametrize("theorem", sg.THEOREMS, ids=lambda t: t.id)
def test_statements_render(theorem):
    tex = theorem.latex()
    assert sp.latex(theorem.statement.lhs) in tex and theorem.source.seed == "004_b3a545b59162ae7d.txt"
