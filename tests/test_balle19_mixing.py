"""Amplification from uniform mixing in Balle et al. 2019 (P §2–3, A Lemma 9 – Theorem 15).

Reference values are from ../shared/catalogue/catalogue-balle.md (entries balle19.thm1.1 – thm1.4, lem9, errata E4,
E5), from closed forms stated next to each assertion, or from the paper.
"""

from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.proofs.balle19 import mixing as proofs
from symdp.engine.divergences import mixture
from symdp.engine.finite import FiniteDistribution as FD
from symdp.engine.finite import hockey_stick, max_divergence, renyi, to_mpf, tv
from symdp.engine.kernels import MarkovKernel
from symdp.estimate import Estimate, Method
from symdp.precision import closed_forms, working_precision
from symdp.strategies import weights
from symdp.symbols import epsilon, gamma
from symdp.theorem import CLOSED_FORM, IDENTITY, INDEPENDENT, SYMBOLIC, lambdify_mpmath
from symdp.theorems import get
from symdp.theorems.balle19 import mixing as m
from symdp.verify import evaluate_point, verify

TOL = mpmath.mpf(10) ** -20


def _value(x):
    return x.value if hasattr(x, "value") else x


def _sides(theorem, raw, dps=30):
    """(quantity, bound) of a theorem at a plain-data point, at ``dps`` digits."""
    from symdp.verify import convert_point

    with working_precision(dps):
        q, b = theorem.evaluate(convert_point(theorem, raw))
        return _value(q), _value(b)


def _close(x, ref, tol=TOL):
    return abs(x - mpmath.mpf(ref)) < tol


# --- derivations and printed slips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("derivation", proofs.DERIVATIONS, ids=lambda d: d.title[:60])
def test_derivations_check(derivation):
    assert derivation.check()
    assert r"\begin{align*}" in derivation.latex()


@pytest.mark.parametrize("name", sorted(proofs.FACTS), ids=lambda n: n[:40])
def test_facts_confirm_the_printed_slips(name):
    assert proofs.FACTS[name]()


def test_derivations_are_registered_with_the_paper():
    from symdp.proofs.balle19 import DERIVATIONS, FACTS

    assert all(d in DERIVATIONS for d in proofs.DERIVATIONS)
    assert set(proofs.FACTS) <= set(FACTS)


# --- evidence: what each verdict stands on --------------------------------------------------------------------------

IDENTITIES = {  # true by construction: proved by a derivation, never drawn
    "balle19.def.hs.tv": proofs.HS_TV, "balle19.lem12": proofs.LEMMA_12, "balle19.tab1.ultra-mixing": proofs.TAB1_ULTRA,
    "balle19.tab1.doeblin": proofs.BLANKET, "balle19.thm1.rem-doeblin": proofs.REM_DOEBLIN,
    "balle19.eq5": proofs.EQ5, "balle19.eq5.mixture": proofs.EQ5_MIXTURE,
}


CITED_DEFINITIONS = ["balle19.def.renyi", "balle19.def.winf", "balle19.def.dp", "balle19.def.rdp"]


def test_every_theorem_declares_its_evidence():
    assert all(t.evidence in (INDEPENDENT, CLOSED_FORM, IDENTITY, SYMBOLIC) for t in m.THEOREMS)
    # symbolic only: the §2 definitions checked in another paper, which they cite (tests/test_coverage.py)
    assert [t.id for t in m.THEOREMS if t.evidence == SYMBOLIC] == CITED_DEFINITIONS
    assert all(getattr(t, "evaluator", None) is None for t in m.THEOREMS)
    assert {t.id for t in m.THEOREMS if t.evidence == IDENTITY} == set(IDENTITIES)
    assert [t.id for t in m.THEOREMS if t.evidence == CLOSED_FORM] == ["balle19.thm1.rem-doeblin.eps"]


@pytest.mark.parametrize("ident", sorted(IDENTITIES))
def test_identities_rest_on_their_derivation(ident):
    t = get(ident)
    assert t.derivation is IDENTITIES[ident] and t.derivation.check() and t.symbolic_only
    assert not (t.tight_at or t.tight_everywhere)
    report = verify(t)
    assert report.verdict == "holds" and report.examples == 0


def test_module_order_is_the_papers():
    ids = [t.id for t in m.THEOREMS]
    assert ids[:4] == ["balle19.def.hs", "balle19.def.hs.monotone", "balle19.def.hs.tv", "balle19.def.hs.limit"]
    assert ids[4:8] == CITED_DEFINITIONS
    assert ids[-3:] == ["balle19.eq5", "balle19.eq5.nonnegative", "balle19.eq5.mixture"] and len(ids) == 39


INDEPENDENT_THEOREMS = [t for t in m.THEOREMS if t.evidence == INDEPENDENT]


@pytest.mark.parametrize("theorem", INDEPENDENT_THEOREMS, ids=lambda t: t.id)
def test_independent_verdicts_do_not_rest_on_closed_forms(theorem):
    with closed_forms(False):
        report = verify(theorem, examples=5, seed=3)
    assert report.verdict == ("violated" if theorem.erratum else "holds"), report.reason


TIGHT = [t for t in m.THEOREMS if t.erratum is None and t.tight_at]


@pytest.mark.parametrize("theorem", TIGHT, ids=lambda t: t.id)
def test_pinned_equalities_are_tight_and_not_zero(theorem):
    """The catalogue test refutes a tightened copy; here every pinned instance must itself be an equality, of two
    nonzero sides (a tightness claim resting on 0 = 0 shows nothing)."""
    for raw in theorem.tight_at:
        r = evaluate_point(theorem, raw)
        assert r.verdict == "tight" and r.bound != 0, raw
        assert r.certified, raw   # every measured atom a certified enclosure: the equality is decided by the balls


def test_zero_against_rounding_noise_is_tight_not_inconclusive():
    """A constant kernel: γ_Dob = 0 exactly, γ_Doeb = 1 − Σ_y min_x K = 0 up to rounding; measured on the unit scale
    the draw is an equality (before unit_scale it was inconclusive, 'sides of size 0')."""
    assert evaluate_point(m.lemma_9_doeblin, {"structure": m.CONSTANT_KERNEL}).verdict == "tight"


# --- catalogue reference values ------------------------------------------------------------------------------------


def test_thm1_1_erasure_reference():
    # catalogue balle19.thm1.1: γ = 0.3, ε = 0.7, μ = (0.8, 0.2), ν = (0.3, 0.7) → both sides 0.058762256327657113054
    q, b = _sides(m.theorem_1_1, m.theorem_1_1.tight_at[0])
    assert _close(q, "0.058762256327657113054") and _close(b, "0.058762256327657113054")


def test_thm1_2_randomized_response_reference():
    # catalogue balle19.thm1.2 (t12.py): RR p = 0.9, ε = 0.7, μ = (0.8, 0.2), ν = (0.3, 0.7): δ = 0.195874187758857,
    # D(μK‖νK) = 0.055324079460038 = the Theorem 1(2) bound, while Theorem 1(1) gives 0.156699350207086.
    raw = m.theorem_1_2.tight_at[1]
    q, b = _sides(m.theorem_1_2, raw)
    tol = mpmath.mpf(10) ** -14
    assert _close(q, "0.055324079460038", tol) and _close(b, "0.055324079460038", tol)
    _, b1 = _sides(m.theorem_1_1, {k: v for k, v in raw.items()})
    assert _close(b1, "0.156699350207086", tol)
    with working_precision(30):
        assert _close(hockey_stick(FD([0.8, 0.2]), FD([0.3, 0.7]), 0.7).value, "0.195874187758857", tol)


@pytest.mark.parametrize("g, d, e, ref", [
    (0.3, 0.05, 0.7, "0.1154312318936138018163924"),  # catalogue balle19.thm1.3 (tight1.py)
    (0.5, 0, 1, "0.1580301397071394196011191"),       # δ = 0 yet δ' > 0
])
def test_thm1_3_one_sided_extremal_reference(g, d, e, ref):
    q, b = _sides(m.theorem_1_3, m._extremal(g, d, e))
    assert _close(q, ref) and _close(b, ref)


def test_thm1_3_extremal_instance_is_one_sided_only():
    """Catalogue thm1.3: the extremal pair has D_{e^ε}(ν‖μ) = 1 − (1−δ)e^{−ε} > δ, so it is not two-sided (ε, δ)-DP."""
    with working_precision(30):
        e = mpmath.mpf("0.7")
        P, Q, _ = m.doeblin_extremal_pair({"gamma": 0.3, "delta": 0.05}, e)
        assert _close(hockey_stick(P, Q, e).value, "0.05")
        reverse = hockey_stick(Q, P, e).value
        assert _close(reverse, 1 - (1 - mpmath.mpf("0.05")) * mpmath.exp(-e)) and reverse > mpmath.mpf("0.05")


@pytest.mark.parametrize("g, e, star, printed", [
    # catalogue balle19.thm1.4 (um.py, mpmath 30 digits)
    (0.5, 1, "0.37988549304172247537", "0.62011450695827752463"),
    (0.3, 2, "0.30029382064203496835", "1.0704586103006692082"),
])
def test_thm1_4_sharp_extremal_reference(g, e, star, printed):
    raw = m._sharp(g, e)
    q, b = _sides(m.theorem_1_4_sharp, raw)
    assert _close(q, star) and _close(b, star)
    q2, b2 = _sides(m.theorem_1_4_pure, raw)
    assert _close(q2, star) and _close(b2, printed, mpmath.mpf(10) ** -18)  # the catalogue prints 20 digits


def test_e5_printed_last_line_numbers():
    # catalogue erratum E5: γθ = 0.148102298344 (= D(μK‖νK) exactly) vs printed γD_{e^{ε'}}(μ‖ν) = 0.0598328257257
    q, b = _sides(get("balle19.thm1.2.last-line"), m.E5_COUNTEREXAMPLE)
    tol = mpmath.mpf(10) ** -12
    assert _close(q, "0.148102298344", tol) and _close(b, "0.0598328257257", tol)
    out, corrected = _sides(m.theorem_13_last_line_corrected, m.E5_COUNTEREXAMPLE)
    assert abs(out - q) < TOL and abs(corrected - q) < TOL


def test_e4_randomized_response_coefficients():
    # catalogue erratum E4: RR(3/4) at ε = log 3: D_3 between the rows is 0, TV = 1/2.
    with working_precision(40):
        K = MarkovKernel([[sp.Rational(3, 4), sp.Rational(1, 4)], [sp.Rational(1, 4), sp.Rational(3, 4)]])
        assert K.dobrushin_eps(mpmath.log(3)).value < mpmath.mpf(10) ** -35
        assert K.dobrushin().value == mpmath.mpf("0.5") and K.doeblin().value == mpmath.mpf("0.5")


def test_table_1_ldp_level_is_read_from_events_and_can_fail():
    """balle19.tab1.dobrushin: the LDP level is read from events, not from the coefficient's sum formula. On RR(3/4),
    D_{e^ε} between the rows is 3/4 − e^ε/4 (ε ≤ log 3), so at δ = 1/4 the level is log 2; a coefficient understated
    by 0.01 shows as a level above ε (the check can fail), one overstated as a level below it."""
    with working_precision(30):
        K = m.build_kernel(m.RR_3_4)
        assert _close(m.ldp_level_by_events(K, mpmath.mpf("0.25")).value, mpmath.log(2))
        e = mpmath.mpf("0.4")
        g = K.dobrushin_eps(e)
        assert _close(m.ldp_level_by_events(K, g).value, e)
        assert m.ldp_level_by_events(K, g.value - mpmath.mpf("0.01")).value > e + mpmath.mpf("0.01")
        assert m.ldp_level_by_events(K, g.value + mpmath.mpf("0.01")).value < e - mpmath.mpf("0.01")
        assert m.ldp_level_by_events(m.erasure_channel(mpmath.mpf("0.3"), 2), mpmath.mpf("0.2")).value == mpmath.inf


def test_erasure_channel_coefficients_are_gamma():
    """Catalogue lem9: dob = dob_eps = doeb = γ on the erasure channel, for every ε."""
    with working_precision(30):
        g = mpmath.mpf("0.37")
        K = m.erasure_channel(g, 3)
        for e in (0, mpmath.mpf("0.4"), mpmath.mpf(5), mpmath.inf):
            assert abs(K.dobrushin_eps(e).value - g) < TOL
        assert abs(K.dobrushin().value - g) < TOL and abs(K.doeblin().value - g) < TOL


# --- errata and looseness ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ident", ["balle19.lem9.eps-dobrushin", "balle19.thm1.2.last-line"])
def test_printed_statements_are_refuted_and_corrected_beside(ident):
    theorem = get(ident)
    report = verify(theorem, examples=5)
    assert report.verdict == "violated" and report.counterexample == theorem.erratum.counterexample
    corrected = get(theorem.erratum.corrected_id)
    assert corrected.erratum is None and verify(corrected, examples=20).verdict == "holds"
    assert evaluate_point(corrected, theorem.erratum.counterexample).verdict in ("holds", "tight")


def test_e15_note_is_recorded():
    assert "E15" in get("balle19.lem9.eps-dobrushin").erratum.note
    assert any(name.startswith("E15") for name in proofs.FACTS)


def test_thm1_4_is_loose_and_reports_its_worst_ratio():
    report = verify(m.theorem_1_4, examples=60)
    assert report.verdict == "holds" and report.worst_ratio is not None and report.worst_ratio < 1
    assert "Loose" in m.theorem_1_4.notes or "loose" in m.theorem_1_4.notes
    # at the sharp extremal instance the paper's δ = 0 bound uses ε*/ε' ≈ 0.6126 of its budget (catalogue values)
    r = evaluate_point(m.theorem_1_4_pure, m._sharp(0.5, 1))
    assert r.verdict == "holds" and abs(r.ratio - 0.37988549304172247537 / 0.62011450695827752463) < 1e-12


def test_thm1_4_general_is_not_attained_at_a_fixed_gamma():
    """Catalogue thm1.4: at γ = 1/2, ε = 1 the output is (ε', 0)-DP for moderate δ, far below δ'.

    Here δ = 0.8 − 0.2e ≈ 0.256, μK = (0.6, 0.4), νK = (0.4, 0.6): D_{e^{ε'}} = [0.6 − 0.4(1 + (e − 1)/2)]_+ = 0,
    while δ' = γδe^{ε'−ε} ≈ 0.0876.
    """
    raw = {"epsilon": 1, "structure": {"mu": [0.8, 0.2], "nu": [0.2, 0.8],
                                       "K": {"kind": "dense", "rows": [[2, 1], [1, 2]]}}}
    r = evaluate_point(m.theorem_1_4, raw)
    assert r.verdict == "holds" and r.margin > mpmath.mpf("0.01")


def test_lemma9_ultra_link_is_strict_off_constant_kernels():
    """doeb(K) = um(K) forces a constant kernel (module comment): binary RR p gives 2p − 1 < (2p − 1)/p."""
    with working_precision(30):
        p = mpmath.mpf("0.8")
        K = MarkovKernel([[p, 1 - p], [1 - p, p]])
        assert abs(K.doeblin().value - (2 * p - 1)) < TOL and abs(K.ultra_mixing().value - (2 * p - 1) / p) < TOL


# --- hypothesis properties -----------------------------------------------------------------------------------------


def _kernel(rows):
    return MarkovKernel([FD.normalized(r).probs for r in rows])


@settings(deadline=None, max_examples=60)
@given(st.integers(2, 5).flatmap(lambda n: m.kernel_data(n, positive=True)), st.floats(0, 4))
def test_corrected_lemma9_chain(data, e):
    """dob_eps(K, ε) ≤ dob(K) ≤ doeb(K) ≤ um(K) (A Lemma 9, corrected direction)."""
    with working_precision(40):
        K = m.build_kernel(data)
        slack = mpmath.mpf(10) ** -35
        dob_eps, dob, doeb, um = (c.value for c in (K.dobrushin_eps(e), K.dobrushin(), K.doeblin(), K.ultra_mixing()))
        assert dob_eps <= dob + slack and dob <= doeb + slack and doeb <= um + slack


@settings(deadline=None, max_examples=60)
@given(m.vectors(("mu", "nu")), st.floats(0, 3))
def test_overlapping_mixture_construction(data, e):
    """A Theorem 13: μ = (1−θ)ω + θμ', ν = (1−θ)e^{−ε}ω + (1 − (1−θ)e^{−ε})ν' with μ' ⊥ ν' and ∫f = 1 − θ."""
    with working_precision(40):
        P, Q = m.pair(data)
        e = to_mpf(e)
        theta, mu_p, nu_p = m.mixture_decomposition(P, Q, e)
        theta = theta.value
        f = [min(p, mpmath.exp(e) * q) for p, q in zip(P, Q)]
        assert abs(mpmath.fsum(f) - (1 - theta)) < TOL  # Lemma 12
        if theta == 0:
            return
        assert all(a == 0 or b == 0 for a, b in zip(mu_p, nu_p))  # disjoint supports
        w = 1 - (1 - theta) / mpmath.exp(e)
        for i, (p, q) in enumerate(zip(P, Q)):
            assert abs(f[i] + theta * mu_p[i] - p) < TOL
            assert abs(f[i] / mpmath.exp(e) + w * nu_p[i] - q) < TOL


@settings(deadline=None, max_examples=60)
@given(st.integers(2, 5).flatmap(lambda n: m.kernel_data(n)), st.floats(0, 3), st.floats(0.001, 1))
def test_theorem_1_2_is_at_least_as_strong_as_theorem_1_1(data, e, d):
    """P §3: '(2) is stronger than (1)', since γ_Dob(K, ε̃) ≤ γ_Dob(K) (monotonicity, TV = D_1)."""
    with working_precision(40):
        K = m.build_kernel(data)
        assert K.dobrushin_eps(m.eps_tilde(mpmath.mpf(e), mpmath.mpf(d))).value <= K.dobrushin().value + TOL


@settings(deadline=None, max_examples=80)
@given(st.floats(0.5, 0.99), st.floats(0, 2), st.floats(0, 1), st.floats(0, 1))
def test_binary_randomized_response_attains_theorem_1_2_when_positive(p, e, a, b):
    """Catalogue thm1.2: with K = RR(p) and binary μ, ν the bound is an equality whenever it is positive."""
    raw = {"epsilon": e, "structure": {"mu": [a, 1 - a], "nu": [b, 1 - b], "slack": 0,
                                       "K": {"kind": "dense", "rows": [[p, 1 - p], [1 - p, p]]}}}
    if a + (1 - a) == 0 or b + (1 - b) == 0:
        return
    q, bound = _sides(m.theorem_1_2, raw, dps=40)
    assert q <= bound + TOL
    if q > mpmath.mpf(10) ** -15:
        assert abs(q - bound) < mpmath.mpf(10) ** -25 * max(1, bound) + TOL


_EPS_STAR = lambdify_mpmath((gamma, epsilon), m.EPS_STAR)
_EPS_PRIME = lambdify_mpmath((gamma, epsilon), m.EPS_PRIME)


@settings(deadline=None, max_examples=80)
@given(st.floats(0, 1), st.floats(0, 20))
def test_sharp_bound_never_exceeds_the_papers(g, e):
    """ε* ≤ ε' (proofs SHARP_GAP), equality only at γ ∈ {0, 1} or ε = 0."""
    with working_precision(40):
        star, printed = _EPS_STAR(mpmath.mpf(g), mpmath.mpf(e)), _EPS_PRIME(mpmath.mpf(g), mpmath.mpf(e))
        assert star <= printed + TOL


@settings(deadline=None, max_examples=40)
@given(m.eq5_data())
def test_eq5_construction_is_exact(data):
    """The identities of balle19.eq5 / eq5.mixture (proved for any n by EQ5, EQ5_MIXTURE, EQ5_ROWS), on the
    construction eq5_objects builds for balle19.eq5.nonnegative, in exact rationals: K~ is Markov, omega~ K~ = omega,
    mu K = (1 - gamma) omega + gamma mu K~."""
    o = m.eq5_objects(data)
    g, K, omega = o["gamma"], o["K"], o["omega"]
    Kt = [[(K[x][y] - (1 - g) * omega[y]) / g for y in range(len(omega))] for x in range(len(K))]

    def push(v, M):
        return [sum(v[x] * M[x][y] for x in range(len(v))) for y in range(len(M[0]))]

    assert all(isinstance(x, Fraction) for r in Kt for x in r)
    assert all(sum(r) == 1 and min(r) >= 0 for r in Kt)
    assert push(o["omega_tilde"], Kt) == o["omega"]
    assert push(o["mu"], o["K"]) == [(1 - g) * w + g * v for w, v in zip(o["omega"], push(o["mu"], Kt))]


@settings(deadline=None, max_examples=40)
@given(m.vectors(("mu", "nu"), 8), st.floats(0, 3))
def test_lemma_12_numerically(data, e):
    """balle19.lem12 is an identity (proofs LEMMA_12); the engine's sum agrees with one minus the overlap."""
    with working_precision(40):
        P, Q = m.pair(data)
        overlap = mpmath.fsum(min(p, mpmath.exp(to_mpf(e)) * q) for p, q in zip(P, Q))   # ∫ p_μ ∧ e^ε p_ν
        assert abs(hockey_stick(P, Q, e).value - (1 - overlap)) < TOL


@settings(deadline=None, max_examples=40)
@given(m.kernel_only(positive=True))
def test_table_1_ultra_mixing_row_numerically(data):
    """balle19.tab1.ultra-mixing is an identity (proofs TAB1_ULTRA); symdp.engine.kernels' γ_um against the max divergence
    of symdp.engine.finite, and against the event-wise ratio of balle19.def1.4."""
    with working_precision(40):
        K = m.build_kernel(data)
        worst = max(max_divergence(a, b).value for a in K.rows for b in K.rows)
        um = K.ultra_mixing().value
        assert abs(mpmath.log(1 / (1 - um)) - worst) < TOL
        assert abs(1 - um - m.min_event_ratio(K).value) < TOL


@settings(deadline=None, max_examples=40)
@given(m.kernel_only())
def test_column_minima_attain_the_doeblin_coefficient(data):
    """Catalogue def1.3: omega = the normalised column minima attains gamma_Doeb (when the minima are not all 0)."""
    with working_precision(40):
        K = m.build_kernel(data)
        minima = [min(r[y] for r in K.rows) for y in range(K.shape[1])]
        if sum(minima) == 0:
            return
        assert abs(m.minorisation_gamma(K, FD.normalized(minima)).value - K.doeblin().value) < TOL


def test_renyi_is_not_jointly_convex():
    """Why balle19.fact.jc-dpi checks joint convexity for D_{e^ε} only: R_α (α > 1) is not a Csiszár divergence
    (P footnote 1) and fails joint convexity, e.g. at the pair below (found by random search, rounded)."""
    with working_precision(30):
        m1, m2 = FD(["0.606", "0.394"]), FD(["0.755", "0.245"])
        n1, n2 = FD(["0.258", "0.742"]), FD(["0.2835", "0.7165"])
        g, a = mpmath.mpf("0.909"), mpmath.mpf("7.24")
        lhs = renyi(mixture(g, m1, m2), mixture(g, n1, n2), a).value
        rhs = (1 - g) * renyi(m1, n1, a).value + g * renyi(m2, n2, a).value
        assert lhs > rhs + mpmath.mpf("0.001")


@settings(deadline=None, max_examples=40)
@given(m.vectors(("mu", "nu")))
def test_hockey_stick_at_zero_is_tv_and_bounded_by_one(data):
    with working_precision(30):
        P, Q = m.pair(data)
        assert abs(hockey_stick(P, Q, 0).value - tv(P, Q).value) < TOL
        assert 0 <= m.hs_by_events(P, Q, 0).value <= 1


def test_kernel_strategy_covers_every_kind():
    seen = set()

    @settings(deadline=None, max_examples=150)
    @given(st.integers(2, 4).flatmap(lambda n: m.kernel_data(n)))
    def collect(data):
        seen.add(data["kind"])
        m.build_kernel(data)  # builds at the working precision

    collect()
    assert seen == {"dense", "sparse", "mixed", "constant", "point-row", "erasure"}


def test_weights_strategy_is_the_shared_one():
    assert m.weights is weights


# --- rendering -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("theorem", m.THEOREMS, ids=lambda t: t.id)
def test_latex_renders(theorem):
    text = theorem.latex()
    env = "erratum" if theorem.erratum is not None else "theorem"
    assert text.startswith(rf"\begin{{{env}}}") and text.rstrip().endswith(rf"\end{{{env}}}")
    assert "Balle et al. (2019)" in text   # the citation, with the paper's own number


@pytest.mark.parametrize("p", ["0.8", "0.999", "0.99999"])
def test_theorem_1_4_ratio_tends_to_one_at_eps_zero(p):
    """The issue names balle19.thm1.4 at ε = 0: there ε' = 0 and δ' = γ_um δ, and point masses through binary RR
    [[p, 1−p], [1−p, p]] give TV(μK, νK) = 2p − 1 against γ_um = 1 − (1−p)/p, a ratio of exactly p (closed form),
    which tends to 1 as p → 1; random draws reported a worst ratio of 0.31."""
    K = {"kind": "dense", "rows": [[float(p), 1 - float(p)], [1 - float(p), float(p)]]}
    r = evaluate_point(m.theorem_1_4, {"epsilon": 0, "structure": {"mu": [1, 0], "nu": [0, 1], "K": K}}, dps=30)
    assert r.verdict == "holds" and abs(r.ratio - float(p)) < 1e-12


def test_theorem_1_4_pins_its_worst_region():
    """The pinned points, checked first by every run, reach the region where the bound is tightest (ε = 0, γ near
    1): the worst ratio they give is above 0.99."""
    ratios = [evaluate_point(m.theorem_1_4, ex, dps=30).ratio for ex in m.theorem_1_4.examples]
    assert any(ex["epsilon"] == 0 for ex in m.theorem_1_4.examples) and max(r for r in ratios if r) > 0.99


# --- certified measurements ----------------------------------------------------------------------------------------


def _encloses(estimate, exact):
    """Whether a certified estimate's interval holds ``exact`` (ends computed exactly, no rounding)."""
    low = mpmath.fsub(estimate.value, estimate.error, exact=True)
    high = mpmath.fadd(estimate.value, estimate.error, exact=True)
    return estimate.certified and low <= exact <= high


def test_event_helpers_are_certified_enclosures_of_closed_forms():
    """On RR(3/4) (exact binary entries), by the closed forms of the definitions: the largest TV between rows over
    events is 1/2 (E = {0}); the smallest event ratio K(x)(E)/K(x')(E) is (1/4)/(3/4) = 1/3; at d = 1/4 the LDP level
    is log((3/4 - 1/4)/(1/4)) = log 2; with omega = (1/2, 1/2) the minorisation level is 1 - (1/4)/(1/2) = 1/2;
    sup_E (P(E) - e^eps Q(E)) for P = (3/4, 1/4), Q = (1/4, 3/4) is 3/4 - e^eps/4 below eps = log 3."""
    with working_precision(30):
        K = m.build_kernel(m.RR_3_4)
        P, Q = K.rows
        with mpmath.workdps(60):
            third, log2, hs = mpmath.mpf(1) / 3, mpmath.log(2), mpmath.mpf(3) / 4 - mpmath.exp(mpmath.mpf("0.5")) / 4
        assert _encloses(m._rows_by_events(K, 0), mpmath.mpf("0.5"))
        assert _encloses(m.min_event_ratio(K), third)
        assert _encloses(m.ldp_level_by_events(K, mpmath.mpf("0.25")), log2)
        assert _encloses(m.minorisation_gamma(K, FD([0.5, 0.5])), mpmath.mpf("0.5"))
        assert _encloses(m.hs_by_events(P, Q, mpmath.mpf("0.5")), hs)
        # a measured d: its enclosure carries into the level, which then still holds log 2
        d = K.dobrushin_eps(mpmath.log(2))
        assert d.certified and _encloses(m.ldp_level_by_events(K, d), log2)


def test_levels_from_measurements_are_intervals_that_hold_the_level():
    """eps~ = log(1 + (e^eps - 1)/delta) at a measured delta: the interval holds the level of every delta in the
    enclosure, and reaches infinity (footnote 3) where the enclosure reaches 0."""
    with working_precision(30):
        e = mpmath.mpf("0.7")
        d = m.certified(m.exact_ball(mpmath.mpf("0.25")))
        low, high = m.eps_tilde_level(e, d)
        with mpmath.workdps(60):
            assert low <= m.eps_tilde(e, mpmath.mpf("0.25")) <= high and high - low < mpmath.mpf(10) ** -28
        near_zero = m.unit_scale(Estimate(mpmath.mpf(0), mpmath.mpf(10) ** -40, Method.EXACT, certified=True))
        assert m.eps_tilde_level(e, near_zero)[1] == mpmath.inf
        g = m.certified(m.exact_ball(mpmath.mpf("0.3")))
        ball = m.eps_prime_ball(g, e)
        with mpmath.workdps(60):
            assert ball.contains(m.exact_ball(mpmath.log(1 + g.value * mpmath.expm1(e))))


@pytest.mark.parametrize("ident", ["balle19.def.hs", "balle19.def1.2", "balle19.tab1.dobrushin", "balle19.thm1.2",
                                   "balle19.thm1.2.mixture", "balle19.eq5.nonnegative"])
def test_draws_are_certified(ident):
    report = verify(get(ident), examples=15, seed=5)
    assert report.verdict == "holds" and report.certified, report.reason


# --- laws built exactly from the draw --------------------------------------------------------------------------------


def test_kernels_and_laws_are_built_exactly_from_the_draw():
    """Every kind of kernel is built in rationals, against the same construction by hand in Fractions of the decimals
    drawn: the mixed kernel (1 - s)R + s K_omega, the point row, the erasure channel; the pair and the mixture
    (1 - g)mu + g nu too."""
    from flint import fmpq as F
    with working_precision(30):
        mixed = m.build_kernel({"kind": "mixed", "rows": [[1, 3], [0.1, 0.3]], "omega": [0.5, 0.7], "s": 0.25})
        # rows (1/4, 3/4) twice, omega (5/12, 7/12): (3/4)(1/4) + (1/4)(5/12) = 7/24
        assert mixed.exact and mixed.rows[0].rationals == (F(7, 24), F(17, 24)) == mixed.rows[1].rationals
        point = m.build_kernel({"kind": "point-row", "rows": [[1, 1, 2], [1, 1, 1]], "at": [0, 2]})
        assert point.exact and point.rows[0].rationals == (0, 0, 1) and point.rows[1].rationals == (F(1, 3),) * 3
        erasure = m.build_kernel(m.erasure(0.3, 2))
        assert erasure.exact and erasure.rows[1].rationals == (0, F(3, 10), F(7, 10))
        P, Q = m.pair({"mu": [0.1, 0.2], "nu": [1, 0]})
        assert P.rationals == (F(1, 3), F(2, 3)) and Q.rationals == (1, 0)
        mixed_law = m.mixture(mpmath.mpf("0.25"), P, Q)   # 0.25 is binary: (3/4)(1/3) + 1/4 = 1/2
        assert mixed_law.exact and mixed_law.rationals == (F(1, 2), F(1, 2))


def test_ldp_level_decides_a_mass_equal_to_the_coefficient_exactly():
    """The erasure channel at eps = 0: gamma_Dob = 3/10 = K(x)({x}) with K(x')({x}) = 0, a tie that no ball decides;
    decided exactly (no infinite level), and the level is a proved 0 (log max(1, ...) of exact masses)."""
    with working_precision(30):
        K = m.erasure_channel(0.3, 2)
        level = m.ldp_level_by_events(K, K.dobrushin_eps(0), 0)
        assert level.certified and _encloses(level, mpmath.mpf(0)) and level.error < 1e-29
        # a coefficient too small by any amount still shows as an infinite level
        too_small = m.certified(m.arb(m.fmpq(3, 10)) - m.arb(10) ** -25)
        assert m.ldp_level_by_events(K, too_small).value == mpmath.inf


@pytest.mark.parametrize("ident", ["balle19.def.hs.monotone", "balle19.fact.jc-dpi", "balle19.def1.3",
                                   "balle19.thm1.1", "balle19.lem11", "balle19.tab1.dobrushin"])
def test_draws_are_built_exactly(ident):
    """Every certified draw of these theorems measures laws built exactly from the draw (construction "exact")."""
    report = verify(get(ident), examples=15, seed=5)
    assert report.verdict == "holds" and report.certified, report.reason
    assert set(report.construction) == {"exact"}, report.construction


@pytest.mark.parametrize("ident, raw", [
    # formerly left to the two precisions (undecided-by-enclosures): margins of 1e-38 and 6e-46 at 50 digits
    ("balle19.fact.jc-dpi", {"gamma": 1.1754943508222875e-38, "epsilon": 0.0, "structure": {
        "mu1": [0.99999, 0.5585195554236805, 0.2220981067334406, 0.0, 0.0, 0.0],
        "mu2": [0.8844691869681165, 0.31852521395583844, 0.4589548122574118, 0.99999, 0.888244966115589, 0.175],
        "nu1": [0.35581563756629214, 0.44776015250397583, 0.3172329454134289, 0.8670631880340074, 0.0, 0.0],
        "nu2": [0.0, 0.37384734683428883, 0.0, 0.0, 0.0, 0.2090265644874258]}}),
    ("balle19.thm1.1", {"epsilon": 1.401298464324817e-45, "structure": {
        "mu": [0.15659024282118414, 0.3022242378806271], "nu": [0.0, 0.19467583266655028],
        "K": {"kind": "point-row", "rows": [[0.8605423460980461, 0.9804520497842223],
                                            [0.7260886126623516, 0.6139256811086816]], "at": [0, 1]}}}),
])
def test_tiny_margins_of_exact_laws_are_decided_by_the_enclosures(ident, raw):
    r = evaluate_point(get(ident), raw)
    assert r.verdict == "holds" and r.certified and r.construction == "exact" and 0 < r.margin < 1e-37


def test_extremal_pairs_needing_e_to_the_eps_stay_rounded():
    """The Doeblin extremal pair's nu = ((1 - delta)e^-eps, ...) and the sharp pair's nu = (e^-eps, ...) are not
    rational: their draws are decided with the construction floor ("rounded"), never marked built exactly."""
    for ident, raw in (("balle19.thm1.3", m._extremal(0.3, 0.05, 0.7)), ("balle19.thm1.4.sharp", m._sharp(0.5, 1))):
        r = evaluate_point(get(ident), raw)
        assert r.certified and r.construction == "rounded", (ident, r.construction)

