"""Dwork & Rothblum, group privacy (Section 4 and the introduction): theorems, chains, triples, recurrences, proofs.

Seed ../shared/seeds/004_b3a545b59162ae7d.txt; catalogue ../shared/catalogue/catalogue-dwork.md (entries dwork.thm4.1,
dwork.lem4.2, dwork.lem4.3, dwork.claim4.4, dwork.claim4.5, dwork.intro.groupdp, dwork.intro.misc,
dwork.obs.group-not-tight) and its script catalogue-dwork-scripts/checks.py.
"""

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings

from proofs.dwork import group as proofs
from symdp.errors import InvalidParameter
from symdp.finite import hockey_stick, kl, max_divergence
from symdp.theorems.dwork import group as grp
from symdp.theorems.dwork.antipodal import rr_pair
from symdp.verify import HOLDS, INCONCLUSIVE, VIOLATED, evaluate_point, verify

TINY = mpmath.mpf(10) ** -40

CHEAP = [grp.GROUP_PURE, grp.GROUP_PURE_KL, grp.GROUPDP_CORRECTED, grp.THEOREM_4_1_EQ6, grp.THEOREM_4_1_EQ7,
         grp.THEOREM_4_1_EQ8, grp.THEOREM_4_1_EQ11_CORRECTED, grp.GAUSSIAN_GROUP_KL]
TRIPLES = [grp.LEMMA_4_2, grp.LEMMA_4_2_SHARPER, grp.LEMMA_4_3, grp.CLAIM_4_4, grp.CLAIM_4_5]
ERRATA = [grp.GROUPDP_PRINTED, grp.THEOREM_4_1_EQ11, grp.GROUP_NOT_TIGHT]


# --- verdicts ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("theorem", CHEAP, ids=lambda t: t.id)
def test_cheap_theorems_hold_on_many_draws(theorem):
    r = verify(theorem, examples=60)
    assert r.verdict == HOLDS, r.reason


@pytest.mark.parametrize("theorem", TRIPLES, ids=lambda t: t.id)
def test_triple_theorems_hold(theorem):
    r = verify(theorem, examples=4)
    assert r.verdict == HOLDS, r.reason
    assert r.worst_ratio is not None and r.worst_ratio <= 1


@pytest.mark.parametrize("theorem", ERRATA, ids=lambda t: t.id)
def test_printed_statements_are_refuted_by_their_recorded_counterexample(theorem):
    r = verify(theorem, examples=0)
    assert r.verdict == VIOLATED
    assert r.counterexample == dict(theorem.erratum.counterexample)
    from symdp.theorems import get

    assert get(theorem.erratum.corrected_id).erratum is None


def test_theorem_4_1_is_symbolic_only_and_not_claimed_to_hold():
    r = verify(grp.THEOREM_4_1)
    assert r.verdict == INCONCLUSIVE and "asymptotic" in r.reason
    assert "\\tilde{O}" in sp.latex(grp.THEOREM_4_1.statement)


def test_ids_are_the_catalogues_and_in_paper_order():
    ids = [t.id for t in grp.THEOREMS]
    for core in ("dwork.thm4.1", "dwork.lem4.2", "dwork.lem4.3", "dwork.claim4.4", "dwork.claim4.5",
                 "dwork.intro.groupdp", "dwork.obs.group-not-tight"):
        assert core in ids
    assert ids.index("dwork.intro.groupdp") < ids.index("dwork.thm4.1") < ids.index("dwork.lem4.2") \
        < ids.index("dwork.lem4.3") < ids.index("dwork.claim4.4") < ids.index("dwork.claim4.5")


# --- introduction: (ε, δ) group privacy ---------------------------------------------------------------------------
@pytest.mark.parametrize("eps, value", [("0.5", "2.6487e-3"), ("1", "3.7183e-3"), ("2", "8.3891e-3"),
                                        ("3", "2.1086e-2")])
def test_leak_chain_reaches_the_catalogue_lp_optimum(eps, value):
    # catalogue dwork.intro.groupdp: LP optimum of D_{e^{2 eps}}(P0||P2) over 6-outcome laws, delta = 1e-3 (5 digits)
    e, d = mpmath.mpf(eps), mpmath.mpf("0.001")
    chain = grp.leak_chain(e, d, 2)
    assert mpmath.nstr(hockey_stick(chain[0], chain[2], 2 * e).value, 5) == mpmath.nstr(mpmath.mpf(value), 5)
    assert abs(hockey_stick(chain[0], chain[2], 2 * e).value - (1 + mpmath.exp(e)) * d) < TINY  # closed form


@pytest.mark.parametrize("eps, size", [(0.3, 2), (1.0, 3), (2.0, 4), (0.1, 5)])
def test_leak_chain_neighbours_use_delta_one_way_and_nothing_the_other(eps, size):
    e, d = mpmath.mpf(repr(eps)), mpmath.mpf("1e-5")
    chain = grp.leak_chain(e, d, size)
    for a, b in zip(chain, chain[1:]):
        assert abs(hockey_stick(a, b, e).value - d) < TINY
        assert hockey_stick(b, a, e).value < TINY
    assert abs(grp.group_hockey_stick(chain, e).value - d * (mpmath.exp(size * e) - 1) / (mpmath.exp(e) - 1)) < TINY


def test_printed_group_dp_breaks_exactly_at_log_2e_minus_1_for_pairs():
    # catalogue: for s = 2 the printed s e^{s-1} delta fails exactly for eps > ln(2e - 1) = 1.4899
    edge = float(mpmath.log(2 * mpmath.e - 1))
    assert abs(edge - 1.4899) < 1e-4
    below = evaluate_point(grp.GROUPDP_PRINTED, {"epsilon": edge - 0.01, "delta": 1e-3, "s": 2})
    above = evaluate_point(grp.GROUPDP_PRINTED, {"epsilon": edge + 0.01, "delta": 1e-3, "s": 2})
    assert below.verdict == HOLDS and above.verdict == VIOLATED


def test_printed_group_dp_is_safe_for_eps_at_most_one():
    for size in (2, 3, 5):
        r = evaluate_point(grp.GROUPDP_PRINTED, {"epsilon": 1.0, "delta": 1e-7, "s": size})
        assert r.verdict in (HOLDS, "tight")


def test_leak_chain_refuses_a_delta_that_breaks_the_remainder_atom():
    with pytest.raises(InvalidParameter, match="delta too large"):
        grp.leak_chain(2, "0.2", 2)


# --- introduction: pure DP ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("eps, size", [(0.1, 2), (1.0, 3), (2.5, 5)])
def test_geometric_chain_is_exactly_eps_dp_and_its_ends_are_s_eps_apart(eps, size):
    e = mpmath.mpf(repr(eps))
    chain = grp.geometric_chain(e, size)
    for a, b in zip(chain, chain[1:]):
        assert abs(grp.sym_max_divergence(a, b) - e) < TINY
    assert abs(max_divergence(chain[0], chain[-1]).value - size * e) < TINY


def test_geometric_chain_of_length_one_is_randomized_response():
    e = mpmath.mpf("0.7")
    P, Q = grp.geometric_chain(e, 1)
    R, S = rr_pair(e)
    assert all(abs(x - y) < TINY for x, y in zip(list(P) + list(Q), list(R) + list(S)))


def test_group_kl_is_loose_for_longer_chains_but_nearly_tight_for_small_eps():
    # For s >= 2 no chain reaches s eps tanh(s eps/2); the geometric chain comes within 0.5% at eps = 0.01, s = 2.
    for point, lo, hi in ((grp.geometric(0.01, 2), 0.99, 1.0), (grp.geometric(1.0, 2), 0.5, 0.99)):
        r = evaluate_point(grp.GROUP_PURE_KL, point)
        assert r.verdict == HOLDS and lo < r.ratio < hi


# --- triples -----------------------------------------------------------------------------------------------------
def test_the_catalogue_not_tight_triple():
    # catalogue dwork.obs.group-not-tight (60-digit mpmath): tau_1 = 0.093499145, tau_2 = 0.093498651,
    # tau(D||D'') = 0.18958600 > 2 tau = 0.18699829, ratio 1.013838
    draw = grp.NOT_TIGHT_TRIPLE
    p = grp.triple_parameters(draw)
    assert mpmath.nstr(p["tau1"].value, 8) == "0.093499145"
    assert mpmath.nstr(p["tau2"].value, 8) == "0.093498651"
    group = grp.loss_standard_of(draw, 0, 2).value
    assert mpmath.nstr(group, 8) == "0.189586"
    assert mpmath.nstr(group / (2 * p["tau"].value), 7) == "1.013838"
    # ... yet inside Lemma 4.3 and the sharper Lemma 4.2
    assert group < 2 * p["tau"].value + 34 * p["tau"].value ** 1.5
    assert kl(p["laws"][0], p["laws"][2]).value < p["mu1"].value + p["mu2"].value + p["tau1"].value * p["tau2"].value


@settings(max_examples=8, deadline=None)
@given(grp.tilted_triples())
def test_tilted_triples_meet_the_hypotheses_by_hoeffding(draw):
    p = grp.triple_parameters(draw)
    c = mpmath.mpf(repr(draw["c"]))
    assert p["tau1"].value <= c * (1 + TINY) and p["tau2"].value <= c * (1 + TINY) <= mpmath.mpf(1) / 4
    # KL <= tau^2/2 (catalogue dwork.obs.kl-le-tau2): the hypothesis mu_i <= tau^2/2 of Lemma 4.3 holds
    assert p["mu1"].value <= p["tau1"].value ** 2 / 2 and p["mu2"].value <= p["tau2"].value ** 2 / 2


@pytest.mark.parametrize("sigma, d1, d2", [("0.3", 1, 2), ("0.5", 1, 1)])
def test_discrete_gaussian_triples_have_closed_form_kl_and_standard(sigma, d1, d2):
    # catalogue generator (iv): KL = Delta^2/(2 sigma^2) and tau = Delta/sigma exactly for integer shifts
    draw = {"kind": "dgauss", "sigma": float(sigma), "shifts": [d1, d2]}
    D, Dp, Dpp = grp.build_triple(draw)
    sg = mpmath.mpf(sigma)
    assert abs(kl(D, Dpp).value - (d1 + d2) ** 2 / (2 * sg**2)) < TINY
    assert abs(grp.loss_standard_of(draw, 0, 1).value - d1 / sg) < mpmath.mpf(10) ** -30
    assert abs(grp.loss_standard_of(draw, 1, 2).value - d2 / sg) < mpmath.mpf(10) ** -30


def test_tight_instances_are_equalities_to_working_precision():
    for theorem in (grp.LEMMA_4_2_SHARPER, grp.GROUPDP_CORRECTED, grp.GROUP_PURE, grp.THEOREM_4_1_EQ7):
        pinned = verify(theorem, examples=0).draws[:len(theorem.tight_at)]
        assert pinned and all(d.verdict == "tight" for d in pinned), theorem.id


def test_taylor_tail_matches_the_closed_form_and_the_third_moment_for_small_lambda():
    D, _, Dpp = grp.build_triple(grp.NOT_TIGHT_TRIPLE)
    with mpmath.workdps(90):
        D90, _, Dpp90 = grp.build_triple(grp.NOT_TIGHT_TRIPLE)
        direct = lambda l: mpmath.fsum(  # noqa: E731
            p * (mpmath.exp(l * mpmath.log(p / q)) - 1 - l * mpmath.log(p / q) - (l * mpmath.log(p / q)) ** 2 / 2)
            for p, q in zip(D90, Dpp90))
        reference = {l: direct(mpmath.mpf(l)) for l in ("0.3", "-2", "5")}
    for l, value in reference.items():
        assert abs(grp.taylor_tail(D, Dpp, mpmath.mpf(l)) - value) < mpmath.mpf(10) ** -45
    third = mpmath.fsum(p * mpmath.log(p / q) ** 3 for p, q in zip(D, Dpp))
    small = mpmath.mpf("1e-12")
    assert abs(grp.taylor_tail(D, Dpp, small) / small**3 - third / 6) < mpmath.mpf(10) ** -10


def test_a_triple_outside_lemma_4_3_is_refused():
    wide = {"kind": "tilt", "q": [1.0, 1.0], "u": [1.0, -1.0], "v": [0.0, 0.0], "c": 0.6}
    with pytest.raises(InvalidParameter, match="1/4"):
        grp.LEMMA_4_3.evaluate({"structure": wide})


# --- Theorem 4.1: recurrences ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("tau, size, ratio", [("1e-6", 2, "1.017"), ("1e-7", 8, "1.024"), ("1e-9", 64, "1.0091"),
                                              ("1e-12", 1024, "1.0013")])
def test_recurrence_5_stays_close_to_s_tau(tau, size, ratio):
    # catalogue dwork.thm4.1: iterating (5) gives tau_s/(s tau) = 1.017, 1.024, 1.0091, 1.0013; all iterates <= 1/4
    iterates = grp.tau_iterates(mpmath.mpf(tau), size.bit_length() - 1)
    assert mpmath.nstr(iterates[-1] / (size * mpmath.mpf(tau)), len(ratio) - 1) == ratio
    assert max(iterates) <= mpmath.mpf(1) / 4


def test_c_coefficients_follow_the_recursion():
    # c_{1,1} = 34; c_{2,1} = 2*34 + 34*sqrt(2)*2^1.5 = 204; c_{2,2} = 34*sqrt(2)*34^1.5 (recursion after (10))
    c = grp.c_coefficients(2)
    assert c[1] == [2, 34]
    assert abs(c[2][1] - 204) < TINY
    assert abs(c[2][2] - 34 * mpmath.sqrt(2) * mpmath.mpf(34) ** 1.5) < mpmath.mpf(10) ** -44


def test_mu_recurrence_at_level_zero_is_equation_12():
    t = mpmath.mpf("0.01")
    mu1 = grp.mu_iterates(t, 1)[1]
    assert abs(mu1 - (2 * t**2 + mpmath.mpf("3.5") * t**3 + mpmath.mpf("1.5") * t**4)) < TINY
    # catalogue: at tau = 0.01 (12) gives 2.035e-4 > (2 tau)^2/2 = 2.0e-4
    assert mpmath.nstr(mu1, 4) == "0.0002035"


def test_printed_equation_11_fails_only_at_the_base_level():
    for level in range(0, 8):
        r = evaluate_point(grp.THEOREM_4_1_EQ11, {"m": level, "f": 0.5})
        assert r.verdict == (VIOLATED if level == 0 else HOLDS)


# --- proofs ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("derivation", proofs.DERIVATIONS, ids=lambda d: d.title)
def test_derivations_check(derivation):
    assert derivation.check()
    assert derivation.latex().startswith("\\begin{align*}")


@pytest.mark.parametrize("name", sorted(proofs.FACTS))
def test_facts_confirm_the_printed_slips(name):
    assert proofs.FACTS[name]() is True


def test_a_wrong_constant_is_not_confirmed():
    # the check is not vacuous: with Lemma 4.3 Case I's printed 12 the final inequality step is rejected
    from symdp.derivation import Derivation

    tau = proofs.tau
    needed = 2 * tau**2 + 48 * tau ** sp.Rational(5, 2)
    bad = (Derivation("Case I with 12", (2 * tau + 12 * tau ** sp.Rational(3, 2)) ** 2 / 2)
           .step(needed, "claimed", relation=">="))
    assert bad.failures()


@pytest.mark.slow
def test_gaussian_group_standard_is_exactly_s_tau_on_more_draws():
    # four grid searches over ~20 atoms per draw: a few seconds each
    r = verify(grp.GAUSSIAN_GROUP_STANDARD, examples=6)
    assert r.verdict == HOLDS and r.tight == r.examples
    assert verify(grp.GAUSSIAN_GROUP_STANDARD.tightened(0.99), examples=0).verdict == VIOLATED
