"""engine.shifted: the shifted Rényi divergence on the line (taut string through CDF gates, dual bound, binning).

References: the equal-variance Gaussian translation formula α(m − δ)₊²/(2s²) (catalogue bravo.def2.4, observed
numerically there; here only an oracle), finite sums written out in the tests, and brute-force searches over
feasible laws.
"""

import random

import mpmath
import pytest

from symdp.engine.continuous import Gaussian, Mixture
from symdp.engine.divergences import divergence
from symdp.engine.shifted import (
    AtomicLaw,
    binned_lower_bound,
    gate_program,
    shifted_renyi,
    translation_upper_bound,
    winf,
    winf_by_cdf_shifts,
    within_winf,
)
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.numeric import to_mpf
from symdp.precision import working_precision


def _renyi_by_hand(p, q, alpha):
    if any(x > 0 and y == 0 for x, y in zip(p, q)):
        return mpmath.inf
    return mpmath.log(mpmath.fsum(x ** alpha * y ** (1 - alpha) for x, y in zip(p, q) if x > 0)) / (alpha - 1)


def _grid(m, s, cells=400):
    return [m / 2 + s * (-7 + 14 * mpmath.mpf(k) / cells) for k in range(cells + 1)]


@pytest.mark.parametrize("m, delta, alpha, s", [(2, 0.5, 2, 1), (2, 1, 3, 1), (2, 1.5, 2, 1), (1, 0.25, 2, 1),
                                                (1.5, 0.4, 5, 0.7)])
def test_gaussian_translation_formula_lies_between_the_binned_and_the_translated_bounds(m, delta, alpha, s):
    with working_precision(30):
        m, delta, s = to_mpf(m), to_mpf(delta), to_mpf(s)   # as typed (0.7, not its binary neighbour), as the engine
        mu, nu = Gaussian(0, s), Gaussian(m, s)
        formula = alpha * (m - delta) ** 2 / (2 * s ** 2)   # catalogue bravo.def2.4 (closed form)
        lower = binned_lower_bound(mu, nu, delta, alpha, _grid(m, s)).lower
        upper, best = translation_upper_bound(mu, nu, delta, alpha,
                                              lambda P, Q, a: divergence("renyi", P, Q, a, method="densities"))
        assert lower <= formula <= upper.value + upper.error
        assert lower >= formula * (1 - mpmath.mpf("0.02"))   # the binned bound converges from below (400 cells)
        assert abs(upper.value - formula) < mpmath.mpf(10) ** -20   # translation by +delta attains it
        assert best == delta


def test_binned_bound_grows_under_refinement_and_stays_below_a_translation_on_a_mixture():
    # The catalogue's warning: a generic quasi-Newton solver returned 19.67 where a translation gives 0.0159 on
    # a mixture pair; a lower bound can never exceed a feasible value.
    with working_precision(30):
        mu = Mixture(0.4, Gaussian(-0.6, 0.8), Gaussian(0.5, 0.8))
        nu = Mixture(0.7, Gaussian(0.3, 0.8), Gaussian(1.4, 0.8))
        upper, _ = translation_upper_bound(mu, nu, 0.5, 3,
                                           lambda P, Q, a: divergence("renyi", P, Q, a, method="densities"))
        coarse = binned_lower_bound(mu, nu, 0.5, 3, _grid(0.5, 1, 40)).lower
        fine = binned_lower_bound(mu, nu, 0.5, 3, _grid(0.5, 1, 320)).lower
        assert 0 < coarse <= fine <= upper.value
        assert fine > upper.value / 2     # the two bounds bracket the infimum closely


def test_zero_shift_is_the_renyi_divergence_written_out():
    with working_precision(40):
        mu, nu = AtomicLaw([0, 1], [0.5, 0.5]), AtomicLaw([0, 1, 2], [0.25, 0.5, 0.25])
        bounds = shifted_renyi(mu, nu, 0, 2)
        by_hand = mpmath.log(mpmath.mpf("0.25") / mpmath.mpf("0.25") + mpmath.mpf("0.25") / mpmath.mpf("0.5"))
        assert abs(bounds.upper - by_hand) < mpmath.mpf(10) ** -35
        assert abs(bounds.lower - by_hand) < mpmath.mpf(10) ** -35


def test_diracs_farther_apart_than_the_shift_are_infinitely_apart_and_closer_ones_are_at_zero():
    with working_precision(30):
        assert shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([1], [1]), 0.75, 2).lower == mpmath.inf
        assert shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([1], [1]), 1, 2).upper == 0


def _random_law(rng, points):
    w = [rng.randint(1, 9) for _ in points]
    return AtomicLaw(points, [mpmath.mpf(x) / sum(w) for x in w])


def test_the_taut_string_is_feasible_and_no_random_feasible_law_beats_the_dual_bound():
    rng = random.Random(7)
    tried = 0
    with working_precision(30):
        for _ in range(12):
            mu = _random_law(rng, [rng.uniform(-1, 1) for _ in range(rng.randint(1, 4))])
            nu = _random_law(rng, sorted(rng.uniform(-1, 1) for _ in range(rng.randint(2, 5))))
            delta, alpha = rng.uniform(0, 0.8), rng.choice([1.5, 2, 4])
            bounds = shifted_renyi(mu, nu, delta, alpha)
            if mpmath.isinf(bounds.lower):
                # then no law on ν's atoms is within delta of μ: the CDF-shift test agrees on ν itself
                assert not within_winf(mu, nu, delta)
                continue
            assert bounds.gap <= mpmath.mpf(10) ** -20
            best = [p for p in bounds.masses]
            kept = [(y, p) for y, p in zip(nu.points, best) if p > 0]
            minimiser = AtomicLaw([y for y, _ in kept], [p for _, p in kept])
            assert winf(mu, minimiser) <= delta + 1e-20
            assert abs(_renyi_by_hand(best, nu.probs, alpha) - bounds.upper) < mpmath.mpf(10) ** -20
            for _ in range(300):    # perturbations of the minimiser and laws drawn afresh, kept if in the ball
                if rng.random() < 0.5:
                    trial = [max(p + rng.uniform(-0.05, 0.05), 0) for p in best]
                else:
                    trial = [rng.random() for _ in best]
                total = mpmath.fsum(trial)
                trial = [x / total for x in trial]
                points = [(y, p) for y, p in zip(nu.points, trial) if p > 0]
                candidate = AtomicLaw([y for y, _ in points], [p for _, p in points])
                if winf(mu, candidate) <= delta:
                    tried += 1
                    assert _renyi_by_hand(trial, nu.probs, alpha) >= bounds.lower - mpmath.mpf(10) ** -20
    assert tried > 100   # (a ball may hold one law only; most hold many)


def test_winf_by_quantiles_and_by_cdf_shifts_on_hand_examples():
    with working_precision(30):
        # quantile pairs (0, 1) and (2, 2.5): sup distance 1; (0, 1) and (1, 2) half each: 1
        for mu, nu, expected in ((AtomicLaw([0, 2], [0.5, 0.5]), AtomicLaw([1, 2.5], [0.5, 0.5]), 1),
                                 (AtomicLaw([0, 1], [0.5, 0.5]), AtomicLaw([1, 2], [0.5, 0.5]), 1),
                                 (AtomicLaw([0], [1]), AtomicLaw([-0.25, 0.5], [0.5, 0.5]), 0.5)):
            assert winf(mu, nu) == expected
            assert winf_by_cdf_shifts(mu, nu) == expected
            assert within_winf(mu, nu, expected) and not within_winf(mu, nu, expected * 0.99)


def test_bad_input_is_a_clear_error():
    with pytest.raises(InvalidDistribution, match="non-negative"):
        AtomicLaw([0, 1], [1.5, -0.5])
    with pytest.raises(InvalidDistribution, match="sum to"):
        AtomicLaw([0, 1], [0.5, 0.6])
    with pytest.raises(InvalidParameter, match="delta must be >= 0"):
        shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([0], [1]), -1, 2)
    with pytest.raises(InvalidParameter, match="alpha must be > 1"):
        shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([0], [1]), 0, 1)
    with pytest.raises(InvalidParameter, match="gates"):
        gate_program([0.5, 0.5], [0, 1], [0, 1], 2)
    with pytest.raises(InvalidParameter, match="delta"):
        shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([0], [1]), "a lot", 2)


def _inside(estimate, value) -> bool:
    """Whether ``value`` lies in the estimate's interval, its ends computed without rounding."""
    return (mpmath.fsub(estimate.value, estimate.error, exact=True) <= value
            <= mpmath.fadd(estimate.value, estimate.error, exact=True))


def test_exact_laws_give_a_certified_enclosure_of_the_infimum():
    from fractions import Fraction

    with working_precision(30):
        # masses 1/3, 2/3 (exact fractions): at δ = 0 only μ itself is feasible, R_2 = ln(Σ p²/q) by hand
        mu, nu = AtomicLaw([0, 1], [Fraction(1, 3), Fraction(2, 3)]), AtomicLaw([0, 1], [0.5, 0.5])
        assert mu.exact is not None and nu.exact is not None
        bounds = shifted_renyi(mu, nu, 0, 2)
        estimate = bounds.estimate()
        assert bounds.certified and estimate.certified and estimate.error < mpmath.mpf(10) ** -28
        with mpmath.workdps(60):
            by_hand = mpmath.log((mpmath.mpf(1) / 9 + mpmath.mpf(4) / 9) / mpmath.mpf("0.5"))
        assert _inside(estimate, by_hand)
        # δ = W∞ = 1 (exactly a distance between atoms): ν is in the ball, the infimum is exactly 0
        zero = shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([1], [1]), 1, 2).estimate()
        assert zero.certified and zero.value == 0 and zero.error == 0
        # δ < 1: no law on ν's atom is within δ of μ, +∞ decided exactly
        far = shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([1], [1]), 0.75, 2).estimate()
        assert far.certified and far.value == mpmath.inf
        # an irrational shift as a ball: sqrt(1/2) < 1 still leaves the Diracs infinitely apart, sqrt(2) > 1 not
        from flint import arb
        from symdp.estimate import arb_precision
        with arb_precision(140):
            assert shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([1], [1]), arb("0.5").sqrt(), 2).estimate().value \
                == mpmath.inf
            assert shifted_renyi(AtomicLaw([0], [1]), AtomicLaw([1], [1]), arb(2).sqrt(), 2).estimate().value == 0


def test_rounded_masses_are_not_certified_and_the_random_dual_bound_still_holds():
    with working_precision(30):
        mu = AtomicLaw([0, 1], [mpmath.mpf(1) / 3, mpmath.mpf(2) / 3])   # rounded thirds: not exactly a law
        assert mu.exact is None
        bounds = shifted_renyi(mu, AtomicLaw([0, 1], [0.5, 0.5]), 0, 2)
        assert not bounds.certified and not bounds.estimate().certified


def test_winf_of_exact_laws_is_an_exact_rational():
    from flint import fmpq

    with working_precision(30):
        from fractions import Fraction
        mu = AtomicLaw([0, 0.5], [Fraction(1, 3), Fraction(2, 3)])
        nu = AtomicLaw([0.25, 2], [Fraction(2, 3), Fraction(1, 3)])
        # quantile pairs (0, 0.25) mass 1/3, (0.5, 0.25) mass 1/3, (0.5, 2) mass 1/3: sup distance 3/2
        from symdp.engine.shifted import winf_by_cdf_shifts_exactly, winf_exactly
        assert winf_exactly(mu, nu) == fmpq(3, 2) == winf_by_cdf_shifts_exactly(mu, nu)
        assert within_winf(mu, nu, 1.5) and not within_winf(mu, nu, 1.4999999999)
