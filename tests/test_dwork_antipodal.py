"""Dwork & Rothblum, Section 3.2 ("antipodal KL"): strategies, Lemma 3.9's construction, the witnesses' helpers,
derivations, and the checks of the section that go beyond the catalogue-wide test (tests/test_catalogue.py).

Seed ../shared/seeds/004_b3a545b59162ae7d.txt; catalogue ../shared/catalogue/catalogue-dwork.md.
"""

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.proofs.dwork import antipodal as pr
from symdp.proofs.dwork.antipodal import DERIVATIONS
from symdp.engine.finite import FiniteDistribution, kl, max_divergence
from symdp.precision import closed_forms
from symdp.theorem import INDEPENDENT
from symdp.theorems.dwork import antipodal as dw
from symdp.verify import HOLDS, TIGHT, VIOLATED, evaluate_point, verify

DPS = 50
TINY = mpmath.mpf(10) ** -40  # "to working precision" at 50 digits, with room for the log of a ratio


def reference(s: str) -> mpmath.mpf:
    return mpmath.mpf(s)


# --- the theorems, beyond the catalogue test ------------------------------------------------------------------------
def test_every_theorem_is_declared_in_the_new_model():
    assert [t.id for t in dw.THEOREMS] == [
        "dwork.lem3.7", "dwork.lem3.7.sharp", "dwork.lem3.8", "dwork.def3.4", "dwork.lem3.9", "dwork.lem3.9.antipodal",
        "dwork.lem3.9.same-eps", "dwork.lem3.10", "dwork.prop3.1", "dwork.prop3.1.identity", "dwork.claim3.11",
        "dwork.claim3.12", "dwork.obs.rr-extremal"]
    for t in dw.THEOREMS:
        assert t.evidence and not hasattr(t, "evaluator")
    # the "antipodal KL" named result rests on exact finite sums over concrete pairs
    for t in (dw.lemma_3_8, dw.lemma_3_9, dw.lemma_3_10):
        assert t.evidence == INDEPENDENT


EQUALITIES = [t for t in dw.THEOREMS if t.numeric and t.relation == "=="]


@pytest.mark.parametrize("theorem", EQUALITIES, ids=lambda t: t.id)
def test_equalities_are_equal_to_working_precision_at_every_draw(theorem):
    # more draws than the catalogue test; an Eq holds only where every draw is tight (relative to the terms), or
    # equal as zeros (both sides 0 on the unit scale: tiny epsilon)
    r = verify(theorem, examples=60, seed=3)
    assert r.verdict == HOLDS and r.tight + r.tight_at_zero == r.examples


@pytest.mark.parametrize("theorem", [t for t in dw.THEOREMS if t.evidence == INDEPENDENT], ids=lambda t: t.id)
def test_independent_theorems_do_not_rest_on_closed_forms(theorem):
    with closed_forms(False):
        r = verify(theorem, examples=10, seed=2)
    assert r.verdict == HOLDS, r.reason


def test_lemma_3_9_antipodal_is_zero_relative_to_eps_and_has_no_tightness_claim():
    t = dw.lemma_3_9_antipodal
    assert t.statement.rhs == 0 and not (t.tight_at or t.tight_everywhere)
    with pytest.raises(Exception, match="bound is 0"):
        t.tightened(0.99)
    with mpmath.workdps(DPS):
        D, Dp = dw.build_pair(dw.EDGE_PINS[0])
        split = dw.lemma39_split(D, Dp)
        defect = dw.antipodal_defect(split.M, split.Mp, split.eps)
        assert defect.value < TINY * split.eps and defect.size == split.eps
        # a pair that is not antipodal has a defect of the size of its log-ratios
        assert dw.antipodal_defect(D, Dp, split.eps).value > split.eps / 10


def test_proposition_3_1_is_tight_exactly_at_alpha_minus_one_zero_and_one():
    r = verify(dw.proposition_3_1, examples=0)
    assert r.verdict == HOLDS and r.tight + r.tight_at_zero == len(dw.proposition_3_1.tight_at) == 6
    assert r.tight_at_zero == 2   # alpha = 0: equal as zeros
    at_zero = [d for d in r.draws if d.point["alpha"] == 0.0]
    assert at_zero and all(d.quantity == d.bound == 0 for d in at_zero)  # the atom moves whole to s_x
    # at alpha = +-1 both terms are D[x](+-eps), not 0: the tightened copy is refuted there
    refuted = verify(dw.proposition_3_1.tightened(0.99), examples=0)
    assert refuted.verdict == VIOLATED and refuted.counterexample["alpha"] in (-1.0, 1.0)
    for alpha in (-0.5, 0.5):  # strict inside (-1, 0) and (0, 1)
        assert evaluate_point(dw.proposition_3_1, {"p_x": 0.3, "alpha": alpha, "epsilon": 2.0}).verdict == HOLDS


def test_claims_are_also_equalities_where_both_sides_vanish():
    # alpha = 0 (Claim 3.11) and eps = 0 (both): both sides are 0, a multiplicative tightening cannot bite there.
    for theorem in (dw.CLAIM_3_11, dw.CLAIM_3_12):
        assert not theorem.measured and theorem.witness is None
        zero = [d for d in verify(theorem, examples=0).draws if d.bound == 0]
        assert zero and all(d.verdict == TIGHT and d.quantity == 0 for d in zero)


def test_lemma_3_8_and_3_7_are_loose_at_every_fixed_eps_but_not_by_a_uniform_factor():
    for theorem, sharp in ((dw.lemma_3_8, dw.rr_extremal), (dw.lemma_3_7, dw.lemma_3_7_sharp)):
        r = verify(theorem, examples=60)
        assert r.verdict == HOLDS and r.tight == 0 and r.worst_ratio < 1
        with mpmath.workdps(DPS):
            for draw in r.draws:
                eps = draw.values["epsilon"]
                # the ratio to the printed bound never beats RR's 2/(e^eps + 1) (proofs/dwork/antipodal.lemma38_gap)
                # (no ratio where the KL is within its rounding error: a ratio of noise means nothing)
                assert draw.ratio is None or draw.ratio <= 2 / (mpmath.exp(eps) + 1) * (1 + 1e-12)
        # RR approaches the printed bound as eps -> 0, so no constant factor < 1 improves it uniformly
        assert verify(theorem.tightened(0.99), examples=0).counterexample == dw.rr(0.01)
        assert verify(theorem.tightened(0.9), examples=0).counterexample == dw.rr(0.01)
        assert verify(sharp, examples=60).verdict == HOLDS


def test_rr_meets_the_sharp_bound_and_is_smaller_than_lemma_3_8_by_the_factor_e_eps_plus_1_over_2():
    with mpmath.workdps(DPS):
        for e in dw.RR_EPS:
            eps = mpmath.mpf(repr(e))
            P, Q = dw.rr_pair(eps)
            k = kl(P, Q).value
            assert abs(k - eps * mpmath.tanh(eps / 2)) < TINY  # the closed form of dwork.obs.rr-extremal
            assert abs(kl(Q, P).value - k) < TINY  # RR is antipodal: Lemma 3.10
            ratio = (eps * (mpmath.exp(eps) - 1) / 2) / k
            assert abs(ratio - (mpmath.exp(eps) + 1) / 2) < TINY


@pytest.mark.parametrize("eps, value, ratio", [("1", "0.4621172", "1.859141"), ("0.1", "0.004995837", "1.052585"),
                                               ("0.01", "4.999958e-5", "1.005025"), ("0.5", "0.1224593", "1.324361"),
                                               ("2", "1.523188", "4.194528"), ("5", "4.933071", "74.70658")])
def test_kl_of_rr_matches_the_catalogue_table(eps, value, ratio):
    # catalogue-dwork.md, dwork.lem3.8, table columns "KL(RR) = eps tanh(eps/2)" and "ratio" (7 significant digits)
    with mpmath.workdps(DPS):
        e = mpmath.mpf(eps)
        P, Q = dw.rr_pair(e)
        assert mpmath.nstr(kl(P, Q).value, 7) == mpmath.nstr(reference(value), 7)
        assert mpmath.nstr(e * (mpmath.exp(e) - 1) / 2 / kl(P, Q).value, 7) == mpmath.nstr(reference(ratio), 7)


# --- the witnesses' helpers ----------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(st.one_of(dw.dp_pairs(), dw.arbitrary_pairs(), dw.antipodal_pairs(), dw.edge_alpha_pairs()))
def test_kl_error_covers_a_more_precise_sum(draw):
    with mpmath.workdps(DPS):
        P, Q = dw.build_pair(draw)
        mine = kl(P, Q)
        with mpmath.workdps(DPS + 30):  # the same law (its exact rationals where it was built exactly), 30 digits further
            atoms = [[mpmath.mpf(int(r.p)) / int(r.q) for r in L.rationals] if L.exact else list(L) for L in (P, Q)]
            precise = mpmath.fsum(p * mpmath.log(p / q) for p, q in zip(*atoms) if p > 0)
        assert abs(mine.value - precise) <= mine.error


def test_kl_is_accurate_relative_to_a_tiny_divergence():
    # an antipodal pair whose '-eps' class has mass 1e-45 under M: KL = eps B (e^eps - 1) ~ 1e-45
    pin = {"kind": "antipodal", "eps": 2.0, "u": 1e-45, "plus": [1.0], "minus": [1.0], "zero": [1.0], "perm": [0, 1, 2]}
    with mpmath.workdps(DPS):
        M, Mp = dw.build_pair(pin)
        value = kl(M, Mp)
        B = dw.minus_class_mass(M, Mp, 2)
        closed = 2 * B * (mpmath.exp(2) - 1)  # catalogue dwork.def3.4, kl_closed
        assert abs(value.value - closed) < TINY * closed and value.error < TINY * closed  # relative, not 1e-50


@pytest.mark.parametrize("p, q", [("0.3", "0.3"), ("0.3", "0.1"), ("0", "0.5"), ("0.5", "0")])
def test_atom_kl(p, q):
    with mpmath.workdps(DPS):
        t = dw.atom_kl(p, q)
        p, q = mpmath.mpf(p), mpmath.mpf(q)
    assert t.certified   # an enclosure of the term of the binary numbers given: the reference at twice the digits
    with mpmath.workdps(2 * DPS):
        expected = mpmath.inf if q == 0 and p > 0 else (0 if p == 0 else p * mpmath.log(p / q))
        assert t.value == expected or abs(t.value - expected) <= t.error
        if p == q or p == 0:
            assert t.value == 0 and t.error == 0  # exactly 0: an antipodal pair's '0' class costs no error


# --- strategies --------------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(dw.antipodal_pairs())
def test_antipodal_pairs_are_antipodal(draw):
    with mpmath.workdps(DPS):
        M, Mp = dw.build_pair(draw)
        eps = mpmath.mpf(repr(draw["eps"]))
        assert len(M) == len(draw["plus"]) + len(draw["minus"]) + len(draw["zero"])
        assert min(M) > 0 and min(Mp) > 0
        assert dw.antipodal_defect(M, Mp, eps).value < TINY
        assert abs(dw.sym_max_divergence(M, Mp) - eps) < TINY
        signs = [int(mpmath.nint(mpmath.log(a / b) / eps)) for a, b in zip(M, Mp)]
        assert (signs.count(1), signs.count(-1), signs.count(0)) == (
            len(draw["plus"]), len(draw["minus"]), len(draw["zero"]))
        B = dw.minus_class_mass(M, Mp, eps)
        assert B <= 1 / (1 + mpmath.exp(eps)) * (1 + TINY)
        assert (abs(B - 1 / (1 + mpmath.exp(eps))) < TINY) == (not draw["zero"])


@settings(max_examples=60, deadline=None)
@given(dw.dp_pairs())
def test_dp_pairs_are_eps_dp_for_the_measured_eps(draw):
    with mpmath.workdps(DPS):
        P, Q = dw.build_pair(draw)
        eps = dw.sym_max_divergence(P, Q)
        assert 0 < eps <= 2 * mpmath.mpf(repr(draw["eps0"])) * (1 + TINY)
        assert all(p <= mpmath.exp(eps) * q * (1 + TINY) and q <= mpmath.exp(eps) * p * (1 + TINY)
                   for p, q in zip(P, Q))
        assert eps == max(max_divergence(P, Q).value, max_divergence(Q, P).value)


@settings(max_examples=40, deadline=None)
@given(st.one_of(dw.arbitrary_pairs(), dw.edge_alpha_pairs()))
def test_other_generators_give_distinct_full_support_pairs(draw):
    with mpmath.workdps(DPS):
        P, Q = dw.build_pair(draw)
        assert len(P) == len(Q) and min(P) > 0 and min(Q) > 0
        assert dw.sym_max_divergence(P, Q) > 0


# --- Lemma 3.9's construction --------------------------------------------------------------------------------------
def _check_split(D, Dp):
    split = dw.lemma39_split(D, Dp)  # FiniteDistribution validates: non-negative, sums to 1
    assert min(split.M) > 0 and min(split.Mp) > 0
    # an atom's split masses carry 1 - |alpha|: at alpha = 1 - 2^-53 (a drawn edge) rounding grows by 1/(1 - |alpha|)
    conditioning = max([mpmath.mpf(1)] + [1 / (1 - abs(a)) for a in split.alphas if abs(a) < 1])
    assert dw.antipodal_defect(split.M, split.Mp, split.eps).value < TINY * conditioning
    assert abs(dw.sym_max_divergence(split.M, split.Mp) - split.eps) < TINY * conditioning
    assert kl(split.M, split.Mp).value >= kl(D, Dp).value - TINY
    # M[s_x] = M'[s_x] for every split atom
    for (tag, _), m, mp_ in zip(split.labels, split.M, split.Mp):
        if tag == "s":
            assert abs(m - mp_) <= TINY * conditioning * m
    return split


@settings(max_examples=60, deadline=None)
@given(dw.edge_alpha_pairs())
def test_lemma_3_9_on_exact_alpha_edge_cases(draw):
    with mpmath.workdps(DPS):
        D, Dp = dw.build_pair(draw)
        split = _check_split(D, Dp)
        assert abs(split.eps - mpmath.mpf(repr(draw["eps"]))) < TINY  # the drawn alphas are exact for Delta_inf
        for a, drawn in zip(split.alphas, draw["alpha"]):
            if drawn in (-1.0, 0.0, 1.0):
                assert a == drawn  # snapped to exactly -1, 0, 1 where drawn so
            else:
                assert abs(a - mpmath.mpf(repr(drawn))) < TINY
        # atom j contributes x unless alpha = 0 (all mass to s_x) and s_x unless |alpha| = 1 (x already extremal)
        expected = [(t, j) for j, a in enumerate(split.alphas) for t in "xs"
                    if not (t == "x" and a == 0) and not (t == "s" and abs(a) == 1)]
        assert list(split.labels) == expected


def test_lemma_3_9_pinned_edge_case_by_hand():
    with mpmath.workdps(DPS):
        D, Dp = dw.build_pair(dw.EDGE_PINS[0])  # alphas 1, 0, -1, 0.5 and a balancing atom
        split = _check_split(D, Dp)
        assert [t for t, _ in split.labels[:5]] == ["x", "s", "x", "x", "s"]
        assert split.M[1] == D[1] and split.Mp[1] == Dp[1]  # alpha = 0: the atom moves to s_x unchanged


def test_lemma_3_9_leaves_antipodal_pairs_and_equal_pairs_alone():
    with mpmath.workdps(DPS):
        for pin in dw.ANTIPODAL_PINS:
            D, Dp = dw.build_pair(pin)
            split = _check_split(D, Dp)
            assert len(split.M) == len(D) and abs(kl(split.M, split.Mp).value - kl(D, Dp).value) < TINY
        D = FiniteDistribution(["0.2", "0.8"])
        split = dw.lemma39_split(D, D)  # eps = 0: the printed formula is 0/0; every atom is alpha = 0
        assert split.eps == 0 and split.M.probs == D.probs and split.labels == (("s", 0), ("s", 1))


@settings(max_examples=40, deadline=None)
@given(st.one_of(dw.dp_pairs(), dw.arbitrary_pairs()))
def test_lemma_3_9_on_generic_pairs(draw):
    with mpmath.workdps(DPS):
        _check_split(*dw.build_pair(draw))


@pytest.mark.parametrize("alpha", ["-1", "-0.5", "0", "0.3", "1"])
def test_split_atom_keeps_the_atom_masses_and_splits_off_an_equal_atom(alpha):
    with mpmath.workdps(DPS):
        p, eps, alpha = mpmath.mpf("0.3"), mpmath.mpf(2), mpmath.mpf(alpha)
        m_x, mp_x, m_s, mp_s = dw.split_atom(p, alpha, eps)
        assert abs(m_x + m_s - p * mpmath.exp(alpha * eps)) < TINY and abs(mp_x + mp_s - p) < TINY
        assert abs(m_s - mp_s) < TINY
        assert min(m_x, mp_x, m_s, mp_s) >= 0


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 1), st.floats(-1, 1), st.floats(0.001, 10))
def test_split_atom_gain_matches_the_proofs_closed_form(p, alpha, eps):
    # dwork.prop3.1.identity is proved symbolically; here the construction the witnesses use (split_atom) is checked
    # against the same display, for both signs of alpha
    with mpmath.workdps(DPS):
        p, a, e = (mpmath.mpf(repr(v)) for v in (p, alpha, eps))
        m_x, mp_x, _, _ = dw.split_atom(p, a, e)
        gain = dw.atom_kl(m_x, mp_x).value - dw.atom_kl(p * mpmath.exp(a * e), p).value
        closed = sp.lambdify([dw.p_x, dw.alpha, dw.epsilon],
                             dw.PROPOSITION_3_1_IDENTITY.statement.rhs, "mpmath")(p, a, e)
        scale = p * e * mpmath.exp(e) / mpmath.expm1(e) * (1 + e)  # the size of the two terms
        assert abs(gain - closed) < TINY * scale * 10**5  # exp(a e) - 1 cancels for tiny a e
        assert gain >= -TINY * scale


# --- derivations and LaTeX -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("derivation", DERIVATIONS, ids=lambda d: d.title)
def test_derivations_check_and_render(derivation):
    assert derivation.check()
    tex = derivation.latex()
    assert tex.startswith(r"\begin{align*}") and tex.endswith(r"\end{align*}") and len(derivation.steps) >= 1


def test_derivation_heads():
    titles = " | ".join(d.title for d in DERIVATIONS)
    for head in ("Lemma 3.10", "Lemma 3.9", "Proposition 3.1", "Claim 3.11", "Claim 3.12", "Definition 3.4"):
        assert head in titles
    final = {d.title: d.end for d in DERIVATIONS}
    assert final[r"Lemma 3.10: $D_{\mathrm{KL}}(M\|M') - D_{\mathrm{KL}}(M'\|M) = 0$"] == 0


def test_the_printed_identity_is_the_proved_one():
    t = dw.PROPOSITION_3_1_IDENTITY
    assert t.derivation.end.subs(pr.sigma_alpha, dw.sigma_alpha) == t.statement.rhs
    assert t.statement.lhs == dw.proposition_3_1.statement.lhs - dw.proposition_3_1.statement.rhs
    assert verify(t).verdict == HOLDS


@pytest.mark.parametrize("theorem", dw.THEOREMS, ids=lambda t: t.id)
def test_theorem_latex(theorem):
    tex = theorem.latex()
    env = "erratum" if theorem.erratum is not None else "theorem"
    assert tex.startswith(rf"\begin{{{env}}}") and "Dwork and Rothblum (2016)" in tex
    if theorem.id in ("dwork.lem3.7", "dwork.lem3.8", "dwork.lem3.10", "dwork.lem3.9", "dwork.def3.4",
                      "dwork.obs.rr-extremal", "dwork.lem3.7.sharp"):
        assert r"D_{\mathrm{KL}}" in tex
    if theorem.id == "dwork.lem3.9.same-eps":
        assert r"D_{\infty}" in tex
    if theorem.id == "dwork.lem3.9.antipodal":
        assert (r"\max_{x} \operatorname{dist}\left(\ln\frac{M[x]}{{M'}[x]}, \left\{-\varepsilon, 0, "
                r"\varepsilon\right\}\right)") in tex
    if theorem.id.startswith("dwork.prop3.1"):
        assert r"M[x]\ln\frac{M[x]}{{M'}[x]}" in tex and r"D[x]\ln\frac{D[x]}{{D'}[x]}" in tex
    if theorem.id == "dwork.prop3.1.identity":
        assert r"\sigma_{\alpha}" in tex


# --- certified by construction (issue 28) ----------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(st.one_of(dw.dp_pairs(), dw.arbitrary_pairs(), dw.antipodal_pairs(), dw.edge_alpha_pairs()))
def test_every_pair_and_its_split_are_exact_and_the_split_is_exactly_antipodal(draw):
    # The split of an exact pair is built in rationals: its log-ratios are exactly ln R, 0, -ln R (R = e^eps the
    # largest likelihood ratio), so the defect is an exact 0 and the max divergence is the same rational's log.
    with mpmath.workdps(DPS):
        D, Dp = dw.build_pair(draw)
        assert D.exact and Dp.exact
        split = dw.lemma39_split(D, Dp)
        assert split.M.exact and split.Mp.exact and split.ratio is not None
        ratios = {m / q for m, q in zip(split.M.rationals, split.Mp.rationals)}
        assert ratios <= {split.ratio, 1 / split.ratio, 1}
        defect = dw.antipodal_defect(split.M, split.Mp, split.eps, split.ratio)
        assert defect.certified and defect.value == 0 and defect.error == 0
        # the split's masses as printed: M[s_x] = M'[s_x] exactly, and each atom's masses add up to D's
        for j, (d, p) in enumerate(zip(D.rationals, Dp.rationals)):
            parts = [i for i, (_, k) in enumerate(split.labels) if k == j]
            assert sum((split.M.rationals[i] for i in parts), 0) == d
            assert sum((split.Mp.rationals[i] for i in parts), 0) == p


def test_a_pair_given_at_working_precision_is_split_in_mpmath_and_its_defect_is_not_an_exact_zero():
    # not exact (1/3 and 2/3 rounded): no ratio to compare with, so the defect is the enclosure of a rounded split's,
    # tiny but not 0; the witnesses never see such a pair (build_pair builds every kind exactly)
    with mpmath.workdps(DPS):
        D = FiniteDistribution([mpmath.mpf(1) / 3, mpmath.mpf(2) / 3])
        Dp = FiniteDistribution(["0.5", "0.5"])
        assert not D.exact
        split = dw.lemma39_split(D, Dp)
        assert split.ratio is None
        defect = dw.antipodal_defect(split.M, split.Mp, split.eps)
        assert defect.value < TINY and not (defect.value == 0 and defect.error == 0)
    r = evaluate_point(dw.lemma_3_9_antipodal, {"structure": {"kind": "rr", "eps": 1.0}})
    assert r.certified and r.verdict == TIGHT


def test_antipodal_defect_sees_a_pair_that_is_not_antipodal():
    with mpmath.workdps(DPS):
        D, Dp = dw.build_pair(dw.EDGE_PINS[0])
        split = dw.lemma39_split(D, Dp)
        d = dw.antipodal_defect(D, Dp, split.eps, split.ratio)   # alpha = 1/2 sits at eps/2 from {0, eps}
        assert d.certified and abs(d.value - split.eps / 2) <= d.error + TINY


@pytest.mark.parametrize("theorem", [dw.definition_3_4, dw.proposition_3_1, dw.lemma_3_9_antipodal,
                                     dw.lemma_3_9_same_eps], ids=lambda t: t.id)
def test_the_section_is_certified_at_every_draw(theorem):
    r = verify(theorem, examples=25, seed=5)
    assert r.verdict == HOLDS
    assert all(d.certified for d in r.draws if abs(d.point.get("alpha", 1) * d.point.get("epsilon", 1)) > 1e-20)


@pytest.mark.parametrize("eps", ["1e-9", "0.3", "7", "300"])
def test_antipodal_balls_enclose_the_closed_form_of_definition_3_4(eps):
    # def3.4 measures KL and B from balls around the pair of eps itself; here against eps B (e^eps - 1), B =
    # u/(1 + e^eps) for the pinned classes, computed at twice the digits
    pin = dw.ANTIPODAL_PINS[0]
    with mpmath.workdps(DPS):
        e = mpmath.mpf(eps)   # the binary number the witness is given
        out = dw.definition_3_4.witness({"epsilon": e, "structure": pin})
        (kl_, kl_error), (B_, B_error) = ((out[k].value.value, out[k].value.error) for k in (dw.KL(dw.M, dw.Mp), dw.B))
    with mpmath.workdps(2 * DPS):
        B = mpmath.mpf(pin["u"]) / (1 + mpmath.exp(e))
        assert abs(B_ - B) <= B_error and B_error < B * mpmath.mpf(10) ** -45
        assert abs(kl_ - e * B * mpmath.expm1(e)) <= kl_error


def test_proposition_3_1_terms_are_enclosures_of_the_split_of_the_draw():
    # the split of p = 0.3, alpha = 1/2, eps = 2 at twice the digits: M'[x] = p (e - 1)/(e^2 - 1) = p/(e + 1)
    with mpmath.workdps(DPS):
        point = {"p_x": mpmath.mpf("0.3"), "alpha": mpmath.mpf("0.5"), "epsilon": mpmath.mpf(2)}
        out = dw.proposition_3_1.witness(point)
        m_term, d_term = (out[dw.AtomKL(X, Y)].value for X, Y in ((dw.M, dw.Mp), (dw.D, dw.Dp)))
    with mpmath.workdps(2 * DPS):
        p = point["p_x"]   # the binary number the witness was given
        assert abs(m_term.value - mpmath.e ** 2 * p / (mpmath.e + 1) * 2) <= m_term.error
        assert abs(d_term.value - p * mpmath.e * 1) <= d_term.error
        assert m_term.certified and d_term.certified


def test_an_exact_pair_at_a_tiny_eps_is_an_instance_decided_by_its_balls():
    """dwork.lem3.8 at randomized response with eps = 1e-9: KL = 5e-19 against eps (e^eps - 1)/2 = 5e-19 (1 + 1e-9),
    a margin of ~1e-27 relative to the sides, which a construction floor for laws rounded at working precision
    could not decide; the pair is exact rationals, so its balls decide it."""
    from symdp.theorems.dwork.antipodal import lemma_3_8
    from symdp.verify import evaluate_point

    result = evaluate_point(lemma_3_8, {"structure": {"kind": "rr", "eps": 1e-9}})
    assert result.verdict == "holds" and result.certified and result.construction == "exact"
