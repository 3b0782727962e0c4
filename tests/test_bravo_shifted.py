"""Bravo et al., Definitions 2.2–2.4, Lemmas 2.5, 3.1–3.3 and the recursion φ_[0:t] (symdp.theorems.bravo.shifted).

References are computed here by hand (finite sums, the Gaussian formula α a²/(2σ²) of the catalogue's tight
instance of Lemma 2.5, the recursion written out), never taken from symdp's output.
"""

import mpmath
from flint import arb, fmpq
import pytest

from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution
from symdp.engine.shifted import AtomicLaw, winf
from symdp.precision import working_precision
from symdp.theorems import get
from symdp.theorems.bravo import shifted as sh
from symdp.verify import HOLDS, TIGHT, VIOLATED, convert_point, evaluate_point, verify


def _g_series(x, alpha, terms=12):
    """g_α(x) = (1 + x)^α − 1 − αx by its binomial series (|x| small): Σ_{k≥2} C(α, k) x^k."""
    return mpmath.fsum(mpmath.binomial(alpha, k) * x ** k for k in range(2, terms))


def test_nearly_equal_laws_keep_their_digits_the_catalogue_lesson():
    # catalogue bravo.def2.2: ln Σ p^α q^{1−α} breaks down below R ≈ 1e-15 in binary64; the reference is
    # ln(1 + Σ q g_α(d/q))/(α − 1) with g_α by its series, d = p − q propagated exactly.
    # dyadic masses, so that p and q are built exactly and sum to 1 exactly (a rounded 3/10 + 1e-20 would move R
    # at first order by the rounding of Σp, 1e-50, against R ≈ 1e-39)
    alpha, eps = 3, mpmath.mpf(2) ** -66
    with working_precision(50):
        q = [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4]
        d = [eps, -eps]
        p = [x + y for x, y in zip(q, d)]
        reference = mpmath.log1p(mpmath.fsum(x * _g_series(y / x, alpha) for x, y in zip(q, d))) / (alpha - 1)
        engine = divergence("renyi", FiniteDistribution(p), FiniteDistribution(q), alpha)
        assert abs(engine.value - reference) <= reference * mpmath.mpf(10) ** -20
        # the definition written out (ln of the sum) in balls, recomputed with more bits until sharp relative to
        # itself: a certified enclosure of R ≈ 1e-39 with 20 relative digits, holding the reference
        by_definition = sh._finite_by_definition(FiniteDistribution(p), FiniteDistribution(q), alpha)
        assert by_definition.certified and abs(by_definition.value - reference) <= by_definition.error
        assert by_definition.error <= reference * mpmath.mpf(10) ** -20
    with working_precision(15):     # the naive sum at double precision: the lesson's failure
        naive = mpmath.log(mpmath.fsum(x ** alpha * y ** (1 - alpha) for x, y in zip(p, q))) / (alpha - 1)
        assert abs(naive - reference) >= reference / 2   # all digits lost (here it returns 0)


def test_renyi_is_infinite_unless_absolutely_continuous():
    point = {"alpha": 2.0, "structure": {"kind": "finite", "mu": {"x": [0.0, 1.0], "w": [1, 1]},
                                         "nu": {"x": [0.0], "w": [1]}}}
    with working_precision(30):
        values = sh.definition_2_2.witness(convert_point(sh.definition_2_2, point))
    assert all(mpmath.isinf(v.value) for v in values.values())
    assert evaluate_point(get("bravo.def2.2"), point).verdict == TIGHT


def test_zero_shift_equals_the_renyi_sum_by_hand_and_p2_vanishes_at_winf():
    point = {"alpha": 2.0, "structure": {"mu": {"x": [0.0, 1.0], "w": [1, 1]},
                                         "nu": {"x": [0.0, 1.0, 2.0], "w": [1, 2, 1]}}}
    with working_precision(40):
        values = sh.definition_2_4.witness(convert_point(sh.definition_2_4, point))
        by_hand = mpmath.log(mpmath.mpf("0.25") / mpmath.mpf("0.25") + mpmath.mpf("0.25") / mpmath.mpf("0.5"))
        measured = values[sh.ShiftedRenyi(sh.mu_, sh.nu_, sh.alpha, 0)].value   # BuiltExactly: exact rationals
        assert measured.certified and abs(measured.value - by_hand) < mpmath.mpf(10) ** -35
    assert evaluate_point(get("bravo.def2.4"), point).verdict == TIGHT
    # W∞((δ0 + δ2)/2, (δ1 + δ2.5)/2) = 1 (quantile pairs (0, 1), (2, 2.5)); at shift 1 the divergence is 0
    p2 = {"alpha": 2.0, "delta": 0.0, "structure": {"mu": {"x": [0.0, 2.0], "w": [1, 1]},
                                                    "nu": {"x": [1.0, 2.5], "w": [1, 1]}}}
    with working_precision(30):
        assert winf(*sh.ATOMIC_PAIRS(p2)) == 1
        (value,) = sh.definition_2_4_p2.witness(convert_point(sh.definition_2_4_p2, p2)).values()
        assert value.value.certified and value.value.value == 0 == value.value.error   # (BuiltExactly)


def test_lemma_2_5_is_an_equality_on_dirac_pairs_and_its_099_copy_is_refuted_there():
    lemma = get("bravo.lem2.5")
    for pin in sh.LEM_2_5_TIGHT:
        with working_precision(40):
            values = lemma.witness(convert_point(lemma, pin))
            left = values[sh.ShiftedRenyi(sh.MU_N, sh.NU_N, sh.alpha, sh.delta)].value
            formula = mpmath.mpf(pin["alpha"]) * mpmath.mpf(pin["a"]) ** 2 / (2 * mpmath.mpf(pin["sigma"]) ** 2)
            assert abs(left - formula) < mpmath.mpf(10) ** -30    # catalogue: both sides α a²/(2σ²)
        assert evaluate_point(lemma, pin).verdict == TIGHT
        assert evaluate_point(lemma.tightened(0.99), pin).verdict == VIOLATED


def test_lemma_2_5_on_mixtures_brackets_both_sides_and_decides_on_the_whole_intervals():
    lemma, pin = get("bravo.lem2.5"), sh.LEM_2_5_MIXTURES[0]
    with working_precision(30):
        values = lemma.witness(convert_point(lemma, pin))
        for estimate in values.values():
            assert estimate.error > 0 and estimate.value - estimate.error >= 0   # a genuine interval, in [0, ∞)
        left = values[sh.ShiftedRenyi(sh.MU_N, sh.NU_N, sh.alpha, sh.delta)]
        right = values[sh.ShiftedRenyi(sh.mu_, sh.nu_, sh.alpha, sh.delta + sh.a)]
        increment = mpmath.mpf(4) * mpmath.mpf("0.25") / (2 * mpmath.mpf("0.5625"))   # α a²/(2σ²) by hand
        assert left.value + left.error < right.value - right.error + increment
    assert evaluate_point(lemma, pin).verdict == HOLDS


def test_lemma_2_5_feasible_law_is_within_delta_of_mu():
    mu, nu = AtomicLaw([-0.5, 0.25, 0.75], [0.25, 0.5, 0.25]), AtomicLaw([0.5, 1.0], [0.5, 0.5])
    with working_precision(30):
        target = sh.minimiser(mu, nu, 1, 2)          # −0.5 must move to 0.5: W∞ = 1 exactly
        assert winf(mu, target) <= 1 + 1e-25
        moved = sh.interpolated(mu, target, mpmath.mpf(1) / 4)
        assert winf(mu, moved) <= mpmath.mpf(1) / 4 + 1e-25


def test_lemma_3_1_is_tight_at_its_pin_and_the_lipschitz_copy_is_refuted_at_its_counterexample():
    # atoms ±1/2 (1 apart) and their images ±0.4 (0.8 apart) are farther than either shift (0.25, 0.32): no mass can
    # move, both sides are R_2(μ‖ν) = ln((1/4)²/(3/4) + (3/4)²/(1/4)) = ln(7/3)
    lemma = get("bravo.lem3.1")
    with working_precision(30):
        values = lemma.witness(convert_point(lemma, sh.LEM_3_1_PIN))
        assert all(abs(v.value - mpmath.log(mpmath.mpf(7) / 3)) < 1e-25 for v in values.values())
    assert evaluate_point(lemma, sh.LEM_3_1_PIN).verdict == TIGHT
    assert evaluate_point(lemma.tightened(0.99), sh.LEM_3_1_PIN).verdict == VIOLATED
    sharp = get("bravo.lem3.1.lipschitz")
    assert sharp.erratum.kind == "sharpness"
    assert evaluate_point(sharp, sharp.erratum.counterexample).verdict == VIOLATED
    # the step x - 0.5 sign(x) sends ±0.05 to ∓0.45: 0.9 apart, beyond the shift 0.1 but within the modulus
    with working_precision(30):
        step = sh.subgradient_step(0.5)
        assert abs(abs(step(mpmath.mpf("0.05")) - step(mpmath.mpf("-0.05"))) - mpmath.mpf("0.9")) < 1e-25
        assert mpmath.sqrt(mpmath.mpf("0.01") + 1) >= mpmath.mpf("0.9")


def test_lemma_3_2_feasible_law_is_within_the_shift_and_the_pin_holds():
    pin = sh.LEM_3_2_PIN
    with working_precision(30):
        D_ = mpmath.mpf(pin["D"])
        X, Xp = sh._in_domain(pin["structure"]["mu"], D_), sh._in_domain(pin["structure"]["nu"], D_)
        step = mpmath.mpf(pin["eta"]) * pin["L"]
        Phi = sh.subgradient_step(step)
        phi = mpmath.sqrt(mpmath.mpf(pin["delta"]) ** 2 + (2 * step) ** 2)
        target = sh.minimiser(X, Xp, pin["delta"], pin["alpha"])
        moved = sh.interpolated(X, target, (phi - pin["a"]) / phi, Phi)
        assert winf(X.mapped(Phi), moved) <= phi - pin["a"] + 1e-25
    assert evaluate_point(get("bravo.lem3.2"), pin).verdict == HOLDS


def test_lemma_3_3_two_steps_end_at_shift_zero_and_hold():
    pin = sh.LEM_3_3_PINS[1]
    with working_precision(30):
        a_, path = sh.pabi_shifts(pin["structure"], 2, mpmath.mpf(pin["D"]))
        # by hand: φ_0(1) = sqrt(1 + 0.04), a_1 = 0.6 φ_0(1), a_2 = φ_1(0.4 φ_0(1)) with 2ηL = 0.4
        phi0 = mpmath.sqrt(1 + mpmath.mpf("0.2") ** 2)
        assert abs(a_[0] - mpmath.mpf("0.6") * phi0) < 1e-25
        assert abs(a_[1] - mpmath.sqrt((mpmath.mpf("0.4") * phi0) ** 2 + mpmath.mpf("0.4") ** 2)) < 1e-25
        assert abs(path[-1]) < 1e-25
    for p in sh.LEM_3_3_PINS:
        assert evaluate_point(get("bravo.lem3.3"), p).verdict == HOLDS


def test_lemma_3_2_is_sharp_as_the_step_vanishes_and_a_copy_tightened_to_09_is_refuted():
    # Diracs δ apart on one side of 0: the left side α(a − (φ(δ) − δ))²/(2σ²), the bound αa²/(2σ²) (R^(δ) = 0), so the
    # ratio is (1 − (φ(δ) − δ)/a)², φ(δ) = sqrt(δ² + (2ηL)²); the default search reported 0.395 before this pin
    lemma, pin = get("bravo.lem3.2"), sh.LEM_3_2_SHARP
    with working_precision(30):
        d, a_, step = (mpmath.mpf(pin[k]) for k in ("delta", "a", "eta"))
        step *= mpmath.mpf(pin["L"])
        expected = (1 - (mpmath.sqrt(d ** 2 + (2 * step) ** 2) - d) / a_) ** 2
    result = evaluate_point(lemma, pin)
    assert result.verdict == HOLDS and abs(result.ratio - float(expected)) < 1e-9
    from symdp.plugin import check

    assert check(lemma.tightened(0.9)).verdict == VIOLATED


def test_lemma_3_3_is_sharp_at_t_1_as_the_step_vanishes_and_a_copy_tightened_to_09_is_refuted():
    # starts ±D/2: images D − 2ηL apart against φ_0(D) = sqrt(D² + (2ηL)²), the ratio about ((D − 2ηL)/φ_0(D))² (the
    # projection onto [−D/2, D/2] takes a little, D/σ_0 = 33); the default search reported 0.655 before this pin
    lemma, pin = get("bravo.lem3.3"), sh.LEM_3_3_SHARP
    D_, step = mpmath.mpf(pin["D"]), mpmath.mpf(pin["structure"]["steps"][0])
    expected = float(((D_ - 2 * step) / mpmath.sqrt(D_ ** 2 + (2 * step) ** 2)) ** 2)
    result = evaluate_point(lemma, pin)
    assert result.verdict == HOLDS and expected - 1e-3 < result.ratio <= expected
    from symdp.plugin import check

    assert check(lemma.tightened(0.9)).verdict == VIOLATED


def test_the_coupled_start_keeps_every_same_noise_path_within_the_final_shift():
    # simulate the two chains with shared noises: |X~_T - X_T| must stay within phi_[0:T-1](D, a) on every path
    import random
    rng = random.Random(5)
    pin = sh.LEM_3_3_PINS[-1]                           # T = 3, f = (0.3, 0.3, 0.3), final shift 0.37
    with working_precision(30):
        D_ = mpmath.mpf(pin["D"])
        structure = pin["structure"]
        _, path = sh.pabi_shifts(structure, 3, D_)
        steps = [mpmath.mpf(x) for x in structure["steps"]]
        x0, x0p = mpmath.mpf(structure["x0"]) * D_, mpmath.mpf(structure["x0p"]) * D_
        start = sh.coupled_start(x0, x0p, path[-1], steps)
        assert start != x0                              # the shift leaves room to move the start
        clip = lambda y: min(max(y, -D_ / 2), D_ / 2)
        for _ in range(200):
            x, y = x0, start
            for s_, sd in zip(steps, structure["sd"]):
                noise = mpmath.mpf(rng.gauss(0, sd))
                x, y = clip(sh.subgradient_step(s_)(x) + noise), clip(sh.subgradient_step(s_)(y) + noise)
            assert abs(x - y) <= path[-1] + 1e-25


def test_the_printed_base_case_e7_is_refuted_and_the_recursion_matches_a_hand_computation():
    printed = get("bravo.notation.phi0t.printed")
    assert printed.erratum.severity == "typo"
    counterexample = printed.erratum.counterexample
    assert evaluate_point(printed, counterexample).verdict == VIOLATED
    with working_precision(30):
        # c ≡ 1, h ≡ 0, D = 1, a = (1/4, 1/4): φ_[0:0] = 3/4, φ_[0:1] = 3/4 − 1/4 = 1/2
        # the recursion runs in balls from exact rationals: here every step is exact (zero radius)
        first, second = sh.recursion_path(counterexample, 0), sh.recursion_path(counterexample, 1)
        assert first.is_exact() and first == arb(fmpq(3, 4))
        assert second.is_exact() and second == arb(fmpq(1, 2))
    assert verify(get("bravo.notation.phi0t"), examples=10).verdict == HOLDS


@pytest.mark.slow
@pytest.mark.parametrize("ident", ["bravo.lem2.5", "bravo.lem3.1", "bravo.def2.4", "bravo.def2.4.P2",
                                   "bravo.lem3.2", "bravo.lem3.3"])
def test_more_draws_stay_as_expected(ident):
    assert verify(get(ident), examples=40, seed=3).verdict == HOLDS


def test_the_recursion_base_case_is_certified_at_every_draw():
    report = verify(get("bravo.notation.phi0t"), examples=10)
    assert report.verdict == TIGHT or report.verdict == HOLDS
    assert report.certified and report.certified_examples == report.examples


def test_winf_and_shifted_divergences_of_drawn_laws_are_certified_exactly():
    from symdp.statement import BuiltExactly

    pin = {"structure": {"mu": {"x": [0.0, 2.0], "w": [1, 1]}, "nu": {"x": [1.0, 2.5], "w": [1, 1]}}}
    with working_precision(30):
        values = sh.definition_2_3.witness(convert_point(sh.definition_2_3, pin))
        for v in values.values():   # W∞ = 1 by the quantile pairs (0, 1), (2, 2.5): an exact ball
            assert isinstance(v, BuiltExactly) and v.value.certified and v.value.value == 1 and v.value.error == 0
    result = evaluate_point(get("bravo.def2.3"), pin)
    assert result.verdict == TIGHT and result.certified
    # P2: the shift W∞ + δ computed exactly, ν in the ball, the divergence exactly 0 (proved equal)
    p2 = {"alpha": 2.0, "delta": 0.0, **pin}
    result = evaluate_point(get("bravo.def2.4.P2"), p2)
    assert result.verdict == TIGHT and result.certified
    # Lemma 3.1 at its pin: both sides certified enclosures (the modulus a ball), equal
    result = evaluate_point(get("bravo.lem3.1"), sh.LEM_3_1_PIN)
    assert result.verdict == TIGHT and result.certified
    report = verify(get("bravo.lem3.1"), examples=20)
    assert report.verdict == HOLDS and report.certified


def test_definition_by_the_likelihood_ratio_in_balls_against_the_gaussian_formula():
    # equal variances: R_α = α(m − m2)²/(2s²) (Gaussian algebra, written here); the witness's definition side is
    # Arb's integral of (p/q)^α q with the tails enclosed, never that formula
    point = {"alpha": 3.0, "structure": {"kind": "gaussian", "m": 0.25, "s": 1.5, "m2": -0.5, "s2": 1.5}}
    with working_precision(50):
        by_definition = sh._gaussians_by_definition(point["structure"], mpmath.mpf(3))
        formula = 3 * mpmath.mpf("0.75") ** 2 / (2 * mpmath.mpf("1.5") ** 2)
        assert by_definition.certified and abs(by_definition.value - formula) <= by_definition.error
        assert by_definition.error < formula * mpmath.mpf(10) ** -45
        # α s2² ≤ (α − 1) s²: the integrand does not decay, +∞ exactly
        wide = sh._gaussians_by_definition({"m": 0.0, "s": 2.0, "m2": 0.0, "s2": 1.0}, mpmath.mpf(2))
        assert wide.certified and wide.value == mpmath.inf
    result = evaluate_point(get("bravo.def2.2"), point)
    assert result.verdict == TIGHT and result.certified
    finite = evaluate_point(get("bravo.def2.2"), {"alpha": 2.5, "structure": {
        "kind": "finite", "mu": {"x": [0.0, 1.0], "w": [1, 3]}, "nu": {"x": [1.0, 0.0, 0.5], "w": [2, 1, 1]}}})
    assert finite.verdict == TIGHT and finite.certified


def test_one_projected_step_is_certified_and_the_pins_of_lemma_3_2_are_decided_by_balls():
    for pin in (sh.LEM_3_2_PIN, sh.LEM_3_2_SHARP):
        result = evaluate_point(get("bravo.lem3.2"), pin)
        assert result.verdict == HOLDS and result.certified
    with working_precision(30):
        point = convert_point(sh.lemma_3_2, sh.LEM_3_2_PIN)
        values = sh.lemma_3_2.witness(point)
        left = values[sh.ShiftedRenyi(sh.Y_, sh.Yp_, sh.alpha, sh.MODULUS - sh.a)]
        # the same feasible law measured by the projected laws' quadrature (atoms by CDFs): a second computation
        D_ = point["D"]
        X, Xp = sh._in_domain(sh.LEM_3_2_PIN["structure"]["mu"], D_), sh._in_domain(sh.LEM_3_2_PIN["structure"]["nu"], D_)
        Phi = sh.subgradient_step(point["eta"] * point["L"])
        phi = mpmath.sqrt(point["delta"] ** 2 + (2 * point["eta"] * point["L"]) ** 2)
        moved = sh.interpolated(X, sh.minimiser(X, Xp, point["delta"], point["alpha"]), (phi - point["a"]) / phi, Phi)
        quadrature = divergence("renyi", sh.projected_step(moved, point["sigma"], D_ / 2),
                                sh.projected_step(Xp.mapped(Phi), point["sigma"], D_ / 2), point["alpha"])
        assert left.certified and abs(left.value - quadrature.value) <= left.error + quadrature.error
    # T = 1 of Lemma 3.3: the same step from Diracs, its bound Σ a_t²/σ² in balls
    assert evaluate_point(get("bravo.lem3.3"), sh.LEM_3_3_SHARP).certified
