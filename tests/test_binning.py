"""Binning as post-processing: binned divergences are lower bounds, rise under refinement, and refute false bounds.

The exact values binned divergences are compared with are closed forms (symdp.engine.closed_forms), which
tests/test_quadrature.py checks against the catalogue and against quadrature.
"""

import mpmath
import pytest
from hypothesis import example, given, settings, strategies as st

from symdp.engine import closed_forms as cf
from symdp.engine import finite
from symdp.engine.binning import (bin_masses, binned_lower_bound, binned_pair, refutes_upper_bound, uniform_edges)
from symdp.engine.continuous import Gaussian, Lap2, Laplace, Mixture
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.engine.finite import FiniteDistribution


@pytest.fixture(autouse=True)
def fifty_digits():
    with mpmath.workdps(50):
        yield


def mp(x):
    return mpmath.mpf(repr(x))


edge_lists = st.lists(st.floats(-6, 6, allow_nan=False), min_size=1, max_size=25, unique=True).map(sorted)
deltas = st.floats(0.05, 3, allow_nan=False)
sds = st.floats(0.3, 3, allow_nan=False)
orders = st.floats(1.1, 20, allow_nan=False)
epsilons = st.floats(-2, 2, allow_nan=False)


def exact_gaussian(delta, s, a, eps):
    """(KL, R_a, HS_eps, TV, D_inf) of N(delta, s^2) against N(0, s^2), in closed form."""
    d, s, a, e = mp(delta), mp(s), mp(a), mp(eps)
    return [cf.gaussian_kl(d, s, 0, s), cf.gaussian_renyi(d, s, 0, s, a), cf.gaussian_hockey_stick(d, s, e),
            cf.gaussian_tv(d, s), cf.gaussian_max_divergence(d, s, 0, s)]


def exact_laplace(delta, lam, a, eps):
    d, lam, a, e = mp(delta), mp(lam), mp(a), mp(eps)
    return [cf.laplace_kl(d, lam), cf.laplace_renyi(d, lam, a), cf.laplace_hockey_stick(d, lam, e),
            cf.laplace_tv(d, lam), cf.laplace_max_divergence(d, lam)]


def binned_all(P, Q, edges, a, eps):
    return [binned_lower_bound(finite.kl, P, Q, edges), binned_lower_bound(finite.renyi, P, Q, edges, a),
            binned_lower_bound(finite.hockey_stick, P, Q, edges, eps), binned_lower_bound(finite.tv, P, Q, edges),
            binned_lower_bound(finite.max_divergence, P, Q, edges)]


@settings(max_examples=25, deadline=None)
@given(deltas, sds, orders, epsilons, edge_lists, st.booleans())
@example(1.0, 1.0, 2.0, 0.0, [0.5], False)       # one edge at the crossing point: TV is exact
def test_binned_divergences_are_lower_bounds(delta, s, a, eps, edges, laplace):
    family, exact = (Laplace, exact_laplace) if laplace else (Gaussian, exact_gaussian)
    P, Q = family(delta, s), family(0, s)
    for lower, true in zip(binned_all(P, Q, edges, a, eps), exact(delta, s, a, eps)):
        assert lower.value - lower.error <= true + mpmath.mpf(10) ** -45 * max(1, abs(true))


@settings(max_examples=25, deadline=None)
@given(deltas, sds, orders, epsilons, edge_lists, edge_lists, st.booleans())
def test_refining_the_partition_never_lowers_a_binned_divergence(delta, s, a, eps, coarse, extra, laplace):
    family = Laplace if laplace else Gaussian
    P, Q = family(delta, s), family(0, s)
    fine = sorted(set(coarse) | set(extra))
    for before, after in zip(binned_all(P, Q, coarse, a, eps), binned_all(P, Q, fine, a, eps)):
        assert after.value >= before.value - before.error - after.error


def test_binned_values_converge_to_the_true_ones_from_below():
    P, Q = Gaussian(1, 1), Gaussian(0, 1)
    gaps = []
    for width in ("0.4", "0.2", "0.1", "0.05"):
        lower = binned_lower_bound(finite.kl, P, Q, uniform_edges(P, Q, width, 10))
        gaps.append(cf.gaussian_kl(1, 1, 0, 1) - lower.value)
    assert all(g > 0 for g in gaps)
    # Sheppard-type rate: halving the width divides the gap by about four.
    for coarse, fine in zip(gaps, gaps[1:]):
        assert 3 < coarse / fine < 5


@settings(max_examples=5, deadline=None)
@given(st.floats(1.5, 8))
@example(2.0)
def test_a_binned_renyi_divergence_refutes_a_false_upper_bound(a):
    # R_a(N(0,1) || N(1,1)) = a/2 (closed form); the claim "<= 0.9 a/2" is false and binning proves it.
    P, Q = Gaussian(0, 1), Gaussian(1, 1)
    lower = binned_lower_bound(finite.renyi, P, Q, uniform_edges(P, Q, "0.1", 10), a)
    assert refutes_upper_bound(lower, mpmath.mpf("0.9") * mp(a) / 2)
    assert not refutes_upper_bound(lower, mp(a) / 2)          # the true bound survives


def test_binned_max_divergence_sees_laplace_and_lap2_levels_from_below():
    # Laplace: the outer bins have log-ratio exactly Delta/lambda. Lap2: Delta/max(lambda) (balle19.lem3) is
    # approached only at infinity, so every finite partition stays strictly below it.
    laplace = binned_lower_bound(finite.max_divergence, Laplace(0, "0.5"), Laplace("1.5", "0.5"), [0, "1.5"])
    assert abs(laplace.value - 3) <= laplace.error
    lap2 = binned_lower_bound(finite.max_divergence, Lap2(0, 1, 1), Lap2(1, 1, 1), [-40, 0, 1, 40])
    assert 0.9 < lap2.value < 1


def test_bin_masses_keep_relative_precision_in_the_far_tail():
    D = Gaussian(0, 1)
    masses = bin_masses(D, [-1, 0, 1, 30])
    assert abs(mpmath.fsum(masses) - 1) < mpmath.mpf(10) ** -48
    assert abs(masses[-1] / mpmath.ncdf(-30) - 1) < mpmath.mpf(10) ** -45     # P(X > 30) ~ 5e-198
    P, Q = binned_pair(Mixture("0.2", Gaussian(0, 1), Gaussian(3, 1)), Gaussian(0, 1), [-2, 0, 2])
    assert len(P) == len(Q) == 4


def test_bad_partitions_and_inputs_are_rejected():
    for edges in ([], [1, 0], [0, 0], [0, mpmath.inf]):
        with pytest.raises(InvalidParameter):
            bin_masses(Gaussian(0, 1), edges)
    with pytest.raises(InvalidParameter, match="width"):
        uniform_edges(Gaussian(0, 1), Gaussian(1, 1), 0, 1)
    with pytest.raises(InvalidParameter, match="MAX_BINS"):
        uniform_edges(Gaussian(0, 1), Gaussian(1, 1), "1e-9", 10)
    with pytest.raises(InvalidDistribution):
        bin_masses(FiniteDistribution([0.5, 0.5]), [0])
