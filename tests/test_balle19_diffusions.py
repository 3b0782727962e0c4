"""Diffusion mechanisms in Balle et al. 2019 (Section 5): Brownian motion, Theorem 6, Ornstein–Uhlenbeck, Theorem 8.

The witnesses' numerics (Rényi divergences, intrinsic sensitivities, kernel compositions, mean squared errors, all
by quadrature) are tested here against closed forms; the catalogue-wide verdicts and the refutation of tightened
copies are tests/test_catalogue.py's. Reference values are from ../shared/catalogue/catalogue-balle.md §4 (entries
balle19.thm6, balle19.cor7, balle19.ou with erratum E3, balle19.thm8.a, balle19.thm8.b with erratum E7), from
closed forms, or from the paper.
"""

import mpmath
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from symdp.proofs.balle19 import diffusions as proofs
from symdp.engine import closed_forms as cf
from symdp.derivation import Derivation, DerivationError
from symdp.precision import closed_forms, working_precision
from symdp.symbols import R, Delta, d, epsilon, rho, t, theta
from symdp.theorem import INDEPENDENT
from symdp.theorems import get
from symdp.theorems.balle19 import diffusions as b
from symdp.estimate import arb_precision
from symdp.verify import evaluate_point, verify
from flint import arb


def _mp(**values):
    return {k: (v if isinstance(v, (int, dict)) else mpmath.mpf(str(v))) for k, v in values.items()}


# --- derivations and facts ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("derivation", proofs.DERIVATIONS, ids=lambda d: d.title[:60])
def test_derivations_check(derivation):
    assert derivation.check()
    assert r"\begin{align*}" in derivation.latex()


@pytest.mark.parametrize("name", sorted(proofs.FACTS))
def test_printed_slips_are_confirmed(name):
    assert proofs.FACTS[name]()


def test_gamma_identity_fails_for_a_wrong_right_side():
    """The Γ(log r) derivation really compares: swapping p and q in the last step is not confirmed."""
    r = proofs.p / proofs.q
    wrong = (proofs.p * proofs.G(r, proofs.q) - proofs.q * proofs.G(r, proofs.p)) / proofs.p**2
    diff = (proofs.THM6_GAMMA_LOG_RATIO.start - wrong).subs(proofs.GIVEN)
    assert sp.simplify(sp.expand(diff)) != 0


def test_example5_derivation_fails_for_a_wrong_sensitivity():
    """Example 5's chain is not vacuous: ending in Δ²/(2t) (the Gaussian RDP at σ² = t) is not confirmed."""
    wrong = Derivation("wrong", proofs.EX5_INTRINSIC.steps[-2].expr).step(
        proofs.Delta**2 / (2 * proofs.t), "wrong", given=proofs.ON_THE_SPHERE)
    with pytest.raises(DerivationError):
        wrong.check()


def test_e8_missing_term_is_y_independent_and_nonzero():
    # catalogue-balle.md E8: the difference is -theta(|x|^2 - |x'|^2)/(2 rho^2 (e^{2 theta t} - 1)), no y in it
    assert proofs.COR7_LOG_RATIO.check()
    assert not (proofs.E8_MISSING_TERM.free_symbols & set(proofs.Y))


# --- the registry and the evidence -------------------------------------------------------------------------------


def test_section_is_registered_in_paper_order():
    ids = [t.id for t in b.THEOREMS]
    assert ids[:3] == ["balle19.semigroup", "balle19.ex4", "balle19.thm6"]
    assert ids[-2:] == ["balle19.thm8.b.proof-middle", "balle19.thm8.b.proof-middle.corrected"]
    for ident in ids:
        assert get(ident) is not None
    relaxed = get("balle19.thm8.a.relaxed")  # refuted on purpose: a sharpness witness, not listed as an erratum
    assert relaxed.erratum.kind == "sharpness" and relaxed.erratum.corrected_id == "balle19.thm8.a"


def test_the_reviewed_tautologies_now_measure_from_the_laws():
    """ex4, cor7 and thm8.b.rdp compared a closed form with itself; their Rényi divergences are now quadratures."""
    for theorem in (b.example_4, b.corollary_7, b.theorem_8_b_rdp):
        assert theorem.evidence == INDEPENDENT and not hasattr(theorem, "evaluator")
        assert evaluate_point(theorem, theorem.examples[0]).method == "certified"


def test_identities_hold_by_derivation_and_the_general_theorem_is_symbolic():
    for theorem in (b.theorem_6_identities, b.example_5, b.theorem_8_b_proof_middle_corrected):
        assert theorem.evidence == "identity" and theorem.derivation.check()
        assert verify(theorem).verdict == "holds"
    general = verify(b.theorem_6_general)
    assert general.verdict == "inconclusive" and "Assumption 1" in general.reason


# --- the witnesses against closed forms --------------------------------------------------------------------------


@settings(deadline=None, max_examples=4)
@given(means=st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3)), min_size=1, max_size=3),
       variance=st.floats(0.01, 5), a=st.floats(1.05, 20))
def test_isotropic_renyi_is_the_gaussian_closed_form(means, variance, a):
    """R_α(N(m, vI) ‖ N(m', vI)) by quadrature after the rigid motion, against the sum over coordinates of the
    one-dimensional closed form α(m_i − m'_i)²/(2v) (symdp.engine.closed_forms.gaussian_renyi)."""
    assume(any(u != v for u, v in means))
    with working_precision(30):
        m, mp = [mpmath.mpf(u) for u, _ in means], [mpmath.mpf(v) for _, v in means]
        step = [v - u for u, v in zip(m, mp)]
        point = {"alpha": a, "Delta": mpmath.sqrt(mpmath.fsum(e * e for e in step)),
                 "structure": {"x": m, "u": step, "y": m}}
        measured = b.pair_renyi(point, 1, mpmath.mpf(variance))
        sd = mpmath.sqrt(variance)
        reference = mpmath.fsum(cf.gaussian_renyi(u, sd, v, sd, a) for u, v in zip(m, mp))
        assert abs(measured.value - reference) <= measured.error + mpmath.mpf(10) ** -25 * max(reference, 1)
        assert measured.error < mpmath.mpf(10) ** -20 * max(reference, 1)


def test_renyi_witnesses_do_not_depend_on_closed_forms():
    """The same bits with closed forms on and off: the witnesses never ask for one."""
    point = _mp(alpha=2, Delta=1, theta=1, rho=1, t="0.3")
    with working_precision(30):
        on = b.pair_renyi(point, *b.ou_law(point["theta"], point["rho"], point["t"]))
        with closed_forms(False):
            off = b.pair_renyi(point, *b.ou_law(point["theta"], point["rho"], point["t"]))
    assert on == off and on.method == "certified"


@settings(deadline=None, max_examples=10)
@given(delta=st.floats(0.01, 5), time=st.floats(0.02, 3), theta_=st.floats(0.05, 3), rho_=st.floats(0.2, 4),
       dim=st.integers(1, 3))
def test_intrinsic_sensitivity_matches_examples_5_and_corollary_7(delta, time, theta_, rho_, dim):
    """∫_t^∞ κ by quadrature against Example 5's Δ²/(4t) (BM, θ = 0, ρ = 1) and Corollary 7's Λ(t) (OU)."""
    with working_precision(30):
        p = {"Delta": mpmath.mpf(delta), "t": mpmath.mpf(time),
             "structure": {"x": [0.5] * dim, "u": [1.0] + [0.5] * (dim - 1), "y": [-1.0] * dim}}
        bm = b.intrinsic_sensitivity(0, 1, p)
        assert bm.certified and bm.error < mpmath.mpf(10) ** -25 * bm.value
        assert abs(bm.value - p["Delta"] ** 2 / (4 * p["t"])) <= bm.error + mpmath.mpf(10) ** -28
        theta_, rho_ = mpmath.mpf(theta_), mpmath.mpf(rho_)
        with mpmath.workdps(60):   # the reference to more digits than the enclosure's width
            lam = sp.lambdify([theta, rho, Delta, t], b.LAMBDA_OU, "mpmath")(theta_, rho_, p["Delta"], p["t"])
        ou = b.intrinsic_sensitivity(theta_, rho_, p)
        assert ou.certified and ou.error < mpmath.mpf(10) ** -25 * lam
        assert abs(ou.value - lam) <= ou.error + mpmath.mpf(10) ** -40 * lam


@settings(deadline=None, max_examples=20)
@given(theta_=st.floats(0.05, 3), rho_=st.floats(0.2, 3), t_=st.floats(0.05, 2), y1=st.floats(-3, 3),
       y2=st.floats(-3, 3))
def test_kappa_is_constant_in_y(theta_, rho_, t_, y1, y2):
    """Γ(log p_t(x, ·)/p_t(x', ·)) does not depend on y (so the sup in κ is attained everywhere)."""
    with working_precision(30):
        vals = []
        for y_ in (y1, y2):
            drawn = {"x": [0.5, -1], "u": [1, 2], "y": [y_, -y_]}
            p = {"Delta": mpmath.mpf(1), "t": mpmath.mpf(t_), "structure": drawn}
            vals.append(b.intrinsic_sensitivity(mpmath.mpf(theta_), mpmath.mpf(rho_), p).value)
        assert abs(vals[0] - vals[1]) < mpmath.mpf(10) ** -20 * abs(vals[0])


@pytest.mark.parametrize("bias, variance, dim", [("2.5", "0.3", 4), ("1e-30", "1e-40", 1), (0, "1e-200", 3),
                                                 ("1e5", "1e-3", 2), (0, 0, 5)])
def test_mse_by_quadrature_is_bias_squared_plus_trace(bias, variance, dim):
    """The integral of the definition against the bias-variance closed form ‖b‖² + d w, relative to the value even
    when it is tiny (mpmath.quad's tolerance is absolute: the integrand is normalised)."""
    with working_precision(40):
        bias, variance = mpmath.mpf(bias), mpmath.mpf(variance)
        measured = b.mse_by_quadrature(bias, variance, dim)
        with mpmath.workdps(80):
            reference = bias**2 + dim * variance
        assert measured.certified and abs(measured.value - reference) <= measured.error   # an enclosure
        assert measured.error <= mpmath.mpf(10) ** -35 * reference


@settings(deadline=None, max_examples=10)
@given(theta_=st.floats(0.05, 3), rho_=st.floats(0.2, 4), time=st.floats(0.02, 3), dim=st.integers(1, 20),
       norm=st.floats(0, 5))
def test_ou_mse_from_the_process_is_eq4(theta_, rho_, time, dim, norm):
    """The OU mechanism's MSE, measured from the SDE's law (eq. (4)'s witness), against eq. (4)'s closed form."""
    with working_precision(40):
        p = {"theta": mpmath.mpf(theta_), "rho": mpmath.mpf(rho_), "t": mpmath.mpf(time), "d": dim,
             "F": mpmath.mpf(norm)}
        measured = b.ou_mse(p)
        with mpmath.workdps(80):
            reference = sp.lambdify([theta, rho, t, d, b.F], b.E_OU, "mpmath")(p["theta"], p["rho"], p["t"], dim,
                                                                             p["F"])
        assert measured.certified and abs(measured.value - reference) <= measured.error   # an enclosure
        assert measured.error <= mpmath.mpf(10) ** -35 * reference


@pytest.mark.parametrize("wrong", [
    (1 - sp.exp(-theta * t)) ** 2 * b.F**2 + d * rho / theta * (1 - sp.exp(-2 * theta * t)),   # ρ for ρ² (the SDE as printed)
    (1 - sp.exp(-theta * t)) ** 2 * b.F**2 + rho**2 / theta * (1 - sp.exp(-2 * theta * t)),    # one coordinate's noise
    (1 - sp.exp(-2 * theta * t)) * b.F**2 + d * rho**2 / theta * (1 - sp.exp(-2 * theta * t)),  # a wrong bias
], ids=["rho", "trace", "bias"])
def test_eq4_witness_refutes_a_wrong_eq4(wrong):
    """eq. (4)'s witness measures the MSE from the process, not from the two terms of (4): a wrong (4) is refuted."""
    from dataclasses import replace
    broken = replace(b.eq_4, id="balle19.eq4@wrong", statement=sp.Eq(b.eq_4.statement.lhs, wrong), printed=(),
                     _compiled=None, _laws=None)
    assert evaluate_point(broken, {"theta": 1, "rho": 2, "t": 0.5, "d": 3, "F": 2}).verdict == "violated"


@settings(deadline=None, max_examples=10)
@given(theta_=st.floats(0, 3), time=st.floats(0.01, 3), c=st.floats(0.1, 5))
def test_ito_variance_by_quadrature(theta_, time, c):
    """sde_variance's c² ∫_0^t e^{−2θ(t−u)} du, a ball, contains its antiderivative c²(1 − e^{−2θt})/(2θ) (c²t at θ =
    0), computed in Arb from the same exact numbers; and the ball is sharp."""
    with arb_precision(128):
        th, tm, cc = (b.ball(mpmath.mpf(v)) for v in (theta_, time, c))
        var = b.sde_variance(th, cc, tm)
        reference = cc**2 * tm if theta_ == 0 else -cc**2 * (-2 * th * tm).expm1() / (2 * th)
        assert var.overlaps(reference) and var.rad() < arb(2) ** -110 * reference


def test_ou_law_at_theta_zero_is_brownian_motion():
    assert b.ou_law(0, 1, mpmath.mpf(3)) == (1, 6)  # N(x, 2ρ²t)


def test_semigroup_witness_is_relative_at_a_tiny_density():
    """At y far in the tail the composed density is ~1e-74; the quadrature is still tight relative to it (a draw
    that an absolute quadrature tolerance left inconclusive)."""
    r = evaluate_point(b.semigroup, {"theta": 2, "rho": 0.2, "t": 0.02, "s": 0.2, "x": 0.2, "y": 2})
    assert r.verdict == "tight" and r.quantity < 1e-60


# --- errata --------------------------------------------------------------------------------------------------------


def test_e3_printed_sde_refutes_corollary7_at_catalogue_point():
    """catalogue E3: θ=1, ρ=4, t=1, Δ=1: exact R_α/α = 0.0195647053437 (literal SDE) vs Λ(1) = 0.0048911763359."""
    p = _mp(alpha=2, Delta=1, theta=1, rho=4, t=1)
    with working_precision(30):
        q, bound = get("balle19.ou").evaluate(p)
        assert abs(q.value / 2 - mpmath.mpf("0.0195647053437")) < 1e-12
        assert abs(bound.value / 2 - mpmath.mpf("0.0048911763359")) < 1e-12
    assert evaluate_point(get("balle19.ou"), p).verdict == "violated"


@given(rho_=st.floats(0.05, 1.0))
@settings(deadline=None, max_examples=3)
def test_literal_sde_satisfies_corollary7_for_rho_at_most_one(rho_):
    # catalogue E3: the literal reading fails only for rho > 1 (its variance rho/theta(...) >= rho^2/theta(...))
    r = evaluate_point(get("balle19.ou"), {"alpha": 3, "Delta": 1, "theta": 0.7, "rho": rho_, "t": 0.4})
    assert r.verdict in ("holds", "tight")


def test_e7_printed_middle_expression():
    # catalogue E7: d = Δ = ϵ = 1, R = 2: printed 11/108, true 4/9 (exact rationals)
    point = {d: 1, Delta: 1, epsilon: 1, R: 2}
    printed = get("balle19.thm8.b.proof-middle")
    assert printed.erratum.corrected_id == b.theorem_8_b_proof_middle_corrected.id
    left = printed.statement.lhs.subs(point)
    assert sp.nsimplify(printed.statement.rhs.subs(point)) == sp.Rational(11, 108)
    assert sp.simplify(left - sp.Rational(4, 9)) == 0
    assert sp.simplify(b.theorem_8_b_proof_middle_corrected.statement.rhs.subs(point)) == sp.Rational(4, 9)
    assert evaluate_point(printed, {"d": 1, "Delta": 1, "epsilon": 1, "R": 2}).verdict == "violated"


# --- catalogue values ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("point, reference", [
    # catalogue-balle.md balle19.cor7 / balle19.thm6 (mpmath quad): (θ, ρ, t, Δ, α)
    (dict(alpha=2, Delta=1, theta=1, rho=1, t=0.3), "1.2163692151608707947"),
    (dict(alpha=5, Delta=0.7, theta=0.5, rho=2, t=1), "0.089115183239365608734"),
])
def test_corollary7_catalogue_values(point, reference):
    # the catalogue computed at the float parameters (0.3 is not exact in binary): 17 digits agree
    with working_precision(30):
        q, bound = b.corollary_7.evaluate(_mp(**point))
        _, heat = b.theorem_6.evaluate(_mp(**point))
        for v in (q.value, bound.value, heat.value):
            assert abs(v - mpmath.mpf(reference)) < mpmath.mpf(10) ** -15 * abs(v)


@pytest.mark.parametrize("point, reference", [
    # catalogue-balle.md balle19.thm8.b: each ratio equals 1/(1 + dΔ²/(2ϵR²)) at ||f|| = R
    (dict(d=1, Delta=1, epsilon=1, R=1, F=1), (2, 3)),
    (dict(d=10, Delta=1, epsilon="0.1", R=2, F=2), (2, 27)),        # 0.0740740...
    (dict(d=3, Delta="0.5", epsilon=5, R=1, F=1), (40, 43)),       # 0.930232558...
])
def test_theorem8b_catalogue_ratios(point, reference):
    with working_precision(30):
        reference = mpmath.mpf(reference[0]) / reference[1]
        q, bound = b.theorem_8_b.evaluate(_mp(**point))
        assert abs(q.value - reference) < 1e-25 and abs(bound.value - reference) < 1e-25


def test_theorem8b_outside_part_a_hypothesis():
    # catalogue side note: (d, Δ, ϵ, R) = (1, 1, 0.1, 1) has θR² = 1.7918 > 4dρ² = 1.0239, and (b) still holds
    with working_precision(30):
        with arb_precision(128):
            th, rh = (float(v.mid()) for v in b.calibrated(_mp(d=1, Delta=1, epsilon="0.1", R=1)))
        assert abs(th - 1.7918) < 1e-4 and abs(4 * rh**2 - 1.0239) < 1e-4
    assert evaluate_point(b.theorem_8_b, {"d": 1, "Delta": 1, "epsilon": 0.1, "R": 1, "F": 1}).verdict == "tight"


# --- Theorem 8 (a): the hypothesis is sharp ------------------------------------------------------------------------

_RATIO = sp.lambdify([theta, rho, d, t, R], (b.E_OU / b.E_GM).subs(b.F, R), "mpmath")
"""E_OU/E_GM at ‖f‖ = R from the closed forms eq. (4) and E_GM = dσ̃² (the catalogue's own computation)."""


def _max_ratio(eta):
    """(argmax_t, ratio) of E_OU/E_GM at θ = ρ = d = 1, ‖f‖² = R² = 4(1 + η): a grid scan refined by Newton."""
    with working_precision(30):
        def ratio(time):
            return _RATIO(1, 1, 1, time, 2 * mpmath.sqrt(1 + mpmath.mpf(eta)))

        grid = [mpmath.mpf(k) / 2000 for k in range(1, 1000)]
        best = max(grid, key=ratio)
        return mpmath.findroot(lambda time: mpmath.diff(ratio, time), best), ratio


@pytest.mark.parametrize("eta, catalogue", [("0.01", "1.0000484"), ("0.1", "1.00415"), ("1", "1.14595")])
def test_relaxed_hypothesis_fails_at_small_t(eta, catalogue):
    """catalogue-balle.md balle19.thm8.a: the catalogue's maxima were read off a grid of t (η = 1: t ≤ 0.1), so they
    are values the ratio attains, not its supremum: the supremum is at least the catalogue value, and > 1."""
    t_star, ratio = _max_ratio(eta)
    with working_precision(30):
        assert ratio(t_star) > 1
        assert ratio(t_star) >= mpmath.mpf(catalogue) - mpmath.mpf("5e-7")
        if eta == "1":  # the catalogue's value is the ratio at t = 0.1 (the end of its grid)
            assert abs(ratio(mpmath.mpf("0.1")) - mpmath.mpf(catalogue)) < 1e-5


def test_relaxed_theorem_is_refuted_and_printed_one_holds():
    relaxed = b.theorem_8a_relaxed()
    assert relaxed.id == "balle19.thm8.a.relaxed"
    report = verify(relaxed, examples=0)
    assert report.verdict == "violated"
    # the pinned counterexample satisfies the relaxed hypothesis exactly (R = 2.02, θR² = 4dρ²(1 + 0.0201))
    assert relaxed.admits(report.counterexample)
    assert not b.theorem_8_a.admits(report.counterexample)


def test_theorem8a_ratio_tends_to_one_at_the_boundary():
    """At θR² = 4dρ², ‖f‖ = R, 1 − E_OU/E_GM = O(t²): the ratio at t = 1e-3 exceeds 0.999 (proofs THM8_SHARP)."""
    r = evaluate_point(b.theorem_8_a, {"theta": 1, "rho": 1, "t": 0.001, "d": 1, "R": 2, "F": 2})
    assert r.verdict == "holds" and r.ratio > 0.999


@settings(deadline=None, max_examples=10)
@given(theta_=st.floats(0.05, 3), dim=st.integers(1, 30), radius=st.floats(0.1, 5), time=st.floats(1e-6, 10))
def test_ou_beats_gm_on_the_hypothesis_boundary(theta_, dim, radius, time):
    """Theorem 8 (a) with ρ chosen so that θR² = 4dρ² exactly (the boundary), ‖f‖ = R."""
    rho_b = float(mpmath.sqrt(theta_ * radius**2 / (4 * dim)) * (1 + mpmath.mpf("1e-12")))
    r = evaluate_point(b.theorem_8_a, {"theta": theta_, "rho": rho_b, "t": time, "d": dim, "R": radius, "F": radius})
    assert r.verdict in ("holds", "tight")


@pytest.mark.parametrize("theta_, c, time", [(1, "1.4142135623730950488", "0.5"), ("1e-9", 2, "0.3"), (3, "0.5", 400),
                                             ("0.05", 1, "1e-8"), (0, "0.7", 5), ("1e3", 1, 30), (2, "1e-3", "0.25")])
def test_sde_moments_from_the_coefficients_are_the_ou_law(theta_, c, time):
    """The law of X_t integrated from the SDE's moment equations (Taylor steps composed by the Markov property)
    against the solution's closed form, mean e^{−θt}x (β = 1 − e^{−θt}) and variance c²(1 − e^{−2θt})/(2θ) (c²t at
    θ = 0), relative to each, at the ends of θt (1e-10 to 3e4)."""
    with working_precision(30):
        theta_, c, time = mpmath.mpf(theta_), mpmath.mpf(c), mpmath.mpf(time)
        beta_, var = b.sde_moments(theta_, c, time)
        ref_beta = -mpmath.expm1(-theta_ * time)
        ref_var = c**2 * time if theta_ == 0 else -c**2 * mpmath.expm1(-2 * theta_ * time) / (2 * theta_)
        for got, ref in ((beta_, ref_beta), (var, ref_var)):
            assert got.certified and abs(got.value - ref) <= got.error + mpmath.mpf(10) ** -28 * ref
            assert got.error <= mpmath.mpf(10) ** -25 * ref


def test_eq4_witness_measures_the_mean_from_the_process_not_from_the_bound(monkeypatch):
    """The issue: eq. (4)'s witness took the bias (1 − e^{−θt})F from the bound's own term. It now integrates the
    law of X_t from the SDE's coefficients (:func:`sde_moments`): no exponential of θt is evaluated on its way (one
    would be the bound's term), and its value is still eq. (4)'s."""
    def refuse(*args, **kwargs):
        raise AssertionError("the witness evaluated an exponential of the bound")

    p = {"theta": mpmath.mpf(1), "rho": mpmath.mpf(2), "t": mpmath.mpf("0.5"), "d": 3, "F": mpmath.mpf(2)}
    with working_precision(30):
        reference = sp.lambdify([theta, rho, t, d, b.F], b.E_OU, "mpmath")(p["theta"], p["rho"], p["t"], 3, p["F"])
        monkeypatch.setattr(mpmath, "exp", refuse)
        monkeypatch.setattr(mpmath, "expm1", refuse)
        monkeypatch.setattr(b, "ou_law", refuse)        # the laws' e^{−θt}, in mpmath or in balls
        monkeypatch.setattr(b, "ou_law_ball", refuse)
        measured = b.eq_4.witness(p).value              # (marked BuiltExactly: its balls start from the draw)
    assert measured.certified
    assert abs(measured.value - reference) <= measured.error + mpmath.mpf(10) ** -28 * reference


# --- certified enclosures (issue 28) -------------------------------------------------------------------------------


@settings(deadline=None, max_examples=10)
@given(theta_=st.sampled_from([0, 0.05, 1, 3]), t_=st.floats(0.02, 3), s_=st.floats(0.02, 3), x_=st.floats(-2, 2),
       y_=st.floats(-2, 2))
def test_kernel_composition_encloses_the_gaussian_convolution(theta_, t_, s_, x_, y_):
    """∫ p_t(x, z) p_s(z, y) dz, a certified ball, contains the density at y of N(a_s a_t x, a_s² v_t + v_s), the
    convolution of the two Gaussian kernels in closed form (the law of a_s X + N(0, v_s) for X ~ N(a_t x, v_t)),
    computed in mpmath at 60 digits from ou_law."""
    p = {"theta": mpmath.mpf(theta_), "rho": mpmath.mpf("0.7"), "t": mpmath.mpf(t_), "s": mpmath.mpf(s_),
         "x": mpmath.mpf(x_), "y": mpmath.mpf(y_)}
    with working_precision(30):
        got = b.enclosure(lambda: b.kernel_composition(p), "certified")
    with mpmath.workdps(60):
        (a1, v1), (a2, v2) = b.ou_law(p["theta"], p["rho"], p["t"]), b.ou_law(p["theta"], p["rho"], p["s"])
        mean, var = a2 * a1 * p["x"], a2**2 * v1 + v2
        reference = mpmath.npdf(p["y"], mean, mpmath.sqrt(var))
    assert got.certified and abs(got.value - reference) <= got.error
    assert got.error < mpmath.mpf(10) ** -27 * reference


@pytest.mark.parametrize("c_, t_, A_, beta_, b_, gamma_", [(2, "0.5", 3, 1, 0, 1), ("0.5", 0, "0.2", "2.5", 0, 1),
                                                           ("0.1", 5, "0.01", "0.1", 2, "0.1"), (5, 1, 5, 3, "1.5", 3)])
def test_lemma19_kappa_integral_encloses_its_antiderivative(c_, t_, A_, beta_, b_, gamma_):
    """∫_t^∞ κ, a certified ball, contains log φ(t)/c + be^{−γt}/γ (κ = −φ'/(cφ) + be^{−γs} integrated by hand)."""
    p = {k: mpmath.mpf(v) for k, v in dict(c=c_, t=t_, A=A_, beta=beta_, b=b_, gamma=gamma_).items()}
    with working_precision(30):
        got = b.enclosure(lambda: b.lemma_19_kappa_integral(p), "certified")
    with mpmath.workdps(60):
        reference = (mpmath.log1p(p["A"] * mpmath.exp(-p["beta"] * p["t"])) / p["c"]
                     + p["b"] * mpmath.exp(-p["gamma"] * p["t"]) / p["gamma"])
    assert got.certified and abs(got.value - reference) <= got.error
    assert got.error < mpmath.mpf(10) ** -27 * reference


def test_sde_renyi_is_an_enclosure_of_corollary7():
    """The corrected SDE's R_α (Itô variance as a ball, R at both ends of it) contains α Λ(t) of Corollary 7 (the
    catalogue's E3 point: Λ(1) = 0.0048911763359 at θ = 1, ρ = 4, Δ = 1)."""
    p = _mp(alpha=2, Delta=1, theta=1, rho=4, t=1)
    with working_precision(30):
        got = b.ou_corrected_sde.witness(p)
    with mpmath.workdps(60):
        lam = sp.lambdify([theta, rho, Delta, t], b.LAMBDA_OU, "mpmath")(p["theta"], p["rho"], p["Delta"], p["t"])
    assert got.certified and abs(got.value - 2 * lam) <= got.error < 1e-25
    assert abs(lam - mpmath.mpf("0.0048911763359")) < 1e-12


@pytest.mark.parametrize("theorem", [b.semigroup, b.theorem_6, b.lemma_19, b.ou_corrected_sde, b.eq_4, b.gm_pgm,
                                     b.theorem_8_a, b.theorem_8_b], ids=lambda th: th.id)
def test_pinned_draws_are_certified(theorem):
    """Every pinned draw of the numeric theorems of this section is decided by enclosures."""
    for raw in tuple(theorem.tight_at) + tuple(theorem.examples):
        r = evaluate_point(theorem, raw)
        assert r.certified and r.verdict in ("holds", "tight"), (raw, r.verdict, r.uncertified)


def test_a_wrong_sde_is_refuted_by_enclosures():
    """The printed SDE (erratum E3) stays refuted, now by a certified draw."""
    printed = get("balle19.ou")
    r = evaluate_point(printed, printed.erratum.counterexample)
    assert r.verdict == "violated" and r.certified
