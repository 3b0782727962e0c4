"""The mixture-of-Gaussians mechanism (dp_accounting's ``MixtureOfGaussiansDpEvent``): Σ_i p_i N(c_i, σ) against
N(0, σ), accounted from its privacy-loss distribution, against references computed from the densities here.

References: with every c_i of one sign the loss is monotone, so {p > e^ε q} is a half-line beyond the one crossing
x₀ of p = e^ε q (found by mpmath's root finder, not symdp's), and δ(ε) = P(beyond x₀) − e^ε Q(beyond x₀), a sum of
Gaussian tails; two steps are E_{x~P}[δ₁(ε − L(x))] by mpmath quadrature.
"""

from __future__ import annotations

import mpmath
import pytest

from symdp.engine.divergences import divergence
from symdp.engine.gaussian_sums import GaussianSum
from symdp.engine.products import compose
from symdp.errors import InvalidDistribution

CASES = [((0.5, 0.3, 0.2), (0, 0.5, 2.0), 1.0), ((0.9, 0.1), (0, 1.0), 2.0), ((0.25, 0.75), (-0.5, -3.0), 1.5),
         ((0.6, 0.4), (0.25, 1.25), 0.8)]


def density(weights, means, sd):
    return lambda x: mpmath.fsum(w * mpmath.npdf(x, c, sd) for w, c in zip(weights, means))


def tail(weights, means, sd, x, right):
    return mpmath.fsum(w * (1 - mpmath.ncdf(x, c, sd) if right else mpmath.ncdf(x, c, sd))
                       for w, c in zip(weights, means))


def one_step(eps, weights, means, sd, add=False):
    """δ(ε) of (mixture, N(0, σ)) (add: the reverse) from the crossing of the two densities."""
    eps = mpmath.mpf(eps)
    p, q = density(weights, means, sd), density((1,), (0,), sd)
    if add:
        p, q = q, p
    rising = all(c >= 0 for c in means)          # the mixture's loss against N(0, σ) rises with x
    right = rising != add                         # where p > e^ε q

    def gap(x):
        return mpmath.log(p(x)) - mpmath.log(q(x)) - eps

    spread = 20 * sd + max(abs(c) for c in means)
    ends = (-spread, spread)
    if gap(ends[0]) * gap(ends[1]) > 0:           # no crossing (the loss is monotone): one sign on the whole line
        return mpmath.mpf(0) if gap(ends[0]) < 0 else 1 - mpmath.exp(eps)
    x0 = mpmath.findroot(gap, ends, solver="illinois")
    tails = [tail(w, m, sd, x0, right) for w, m in ((weights, means), ((1,), (0,)))]
    p_tail, q_tail = tails if not add else tails[::-1]
    return p_tail - mpmath.exp(eps) * q_tail


@pytest.mark.parametrize("weights, means, sd, eps", [case + (eps,) for case, eps in zip(CASES * 2, (
    -0.5, 0.0, 0.3, 1.5, 0.3, 1.5, -0.5, 0.0))])
@pytest.mark.parametrize("add", [False, True])
def test_one_step_is_the_tail_difference_at_the_crossing(weights, means, sd, eps, add):
    mixed, plain = GaussianSum(weights, means, sd), GaussianSum((1,), (0,), sd)
    P, Q = (plain, mixed) if add else (mixed, plain)
    with mpmath.workdps(30):
        reference = one_step(eps, weights, means, sd, add)
    assert reference is not None
    found = divergence("hockey_stick", P, Q, eps, width=1e-4)
    lower, upper = found.value - found.error, found.value + found.error
    assert found.method == "certified" and lower - 1e-15 <= reference <= upper + 1e-15, (lower, upper, reference)
    assert upper - lower <= 1e-4 * reference + 1e-15


def test_a_tightened_reference_is_refuted():
    weights, means, sd = CASES[0]
    found = divergence("hockey_stick", GaussianSum(weights, means, sd), GaussianSum((1,), (0,), sd), 0.3,
                       width=1e-5)
    reference = one_step(0.3, weights, means, sd)
    assert not found.value - found.error <= reference * (1 - mpmath.mpf("1e-3"))


def test_two_steps_are_the_expectation_over_the_first():
    weights, means, sd, eps = (0.5, 0.3, 0.2), (0, 0.5, 2.0), 1.0, 0.4
    p, q = density(weights, means, sd), density((1,), (0,), sd)
    with mpmath.workdps(15):
        reference = mpmath.quad(lambda x: p(x) * one_step(eps - mpmath.log(p(x) / q(x)), weights, means, sd),
                                [-30, -5, 0, 2, 5, 30])
    mixed, plain = GaussianSum(weights, means, sd), GaussianSum((1,), (0,), sd)
    found = divergence("hockey_stick", compose(2, mixed), compose(2, plain), eps, width=1e-5)
    assert found.value - found.error - 1e-12 <= reference <= found.value + found.error + 1e-12


def test_above_the_add_pairs_top_delta_is_exactly_zero():
    """The add pair's loss is at most −log p_0 per step (the weight of the zero sensitivity): beyond it δ = 0."""
    mixed, plain = GaussianSum((0.9, 0.1), (0, 1), 1.0), GaussianSum((1,), (0,), 1.0)
    found = divergence("hockey_stick", compose(3, plain), compose(3, mixed), 3 * 0.106, width=1e-4)
    assert found.value == 0 and found.error == 0 and found.certified
    below = divergence("hockey_stick", compose(3, plain), compose(3, mixed), 0.1, width=1e-3)
    assert below.value - below.error > 0


@pytest.mark.parametrize("weights, means, sd, problem", [
    ((0.5, 0.6), (0, 1), 1, "must sum to 1, got 1.1"),
    ((0.5,), (0, 1), 1, "as many weights as means"),
    ((1.5, -0.5), (0, 1), 1, "numbers >= 0"),
    ((1.0,), (0,), -1, "standard deviation must be a positive number"),
])
def test_bad_mixtures_are_named(weights, means, sd, problem):
    with pytest.raises(InvalidDistribution, match=problem):
        GaussianSum(weights, means, sd)


def test_dp_accountings_event_is_certified_and_its_answer_classified():
    dpa = pytest.importorskip("dp_accounting")
    from symdp.errors import InvalidParameter
    from symdp.interop import certify

    weights, means, sd = (0.5, 0.3, 0.2), (0.0, 0.5, 2.0), 1.0
    event = dpa.dp_event.MixtureOfGaussiansDpEvent(sd, list(means), list(weights))
    found = certify(event, epsilon=0.3, width=1e-5)
    worse = max(one_step(0.3, weights, means, sd), one_step(0.3, weights, means, sd, add=True))
    assert found.certified and found.lower - 1e-15 <= worse <= found.upper + 1e-15
    composed = dpa.SelfComposedDpEvent(event, 5)
    pld = dpa.pld.PLDAccountant(value_discretization_interval=1e-3).compose(composed).get_delta(1.0)   # pessimistic
    assert certify(composed, epsilon=1.0, answer=pld).verdict in ("inside", "pessimistic")
    with pytest.raises(InvalidParameter, match="sensitivities have both signs"):
        certify(dpa.dp_event.MixtureOfGaussiansDpEvent(1.0, [-1.0, 1.0], [0.5, 0.5]), epsilon=1)
    with pytest.raises(InvalidParameter, match="no replace-one pair is built"):
        certify(event, epsilon=1, relation="replace-one")
