"""symdp.interop: dp_accounting's events as symdp's laws, and certified brackets for an accountant's answers, against
references computed here (the Gaussian closed form, binomial sums, the subsampled Gaussian's crossing points)."""

import sys

import mpmath
import pytest

from symdp.engine.continuous import Gaussian, Mixture
from symdp.errors import InvalidDistribution, InvalidParameter

dpa = pytest.importorskip("dp_accounting")

from symdp.interop import certify, classify, laws_of  # noqa: E402


def gaussian_delta(mu, eps):
    """δ(ε) of N(μ, 1) against N(0, 1): Φ(-ε/μ + μ/2) - e^ε Φ(-ε/μ - μ/2)."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def rr_delta(k: int, p, eps):
    """δ(ε) of k-fold binary randomized response keeping the input with probability 1 - p/2 (dp_accounting's noise
    parameter p on two buckets): Σ_j C(k, j) a^j b^(k-j) (1 - e^{ε - (2j - k) ε0})_+, a = 1 - p/2, b = p/2."""
    a, b = 1 - p / 2, p / 2
    eps0 = mpmath.log(a / b)
    return mpmath.fsum(mpmath.binomial(k, j) * a**j * b**(k - j) * max(0, 1 - mpmath.exp(eps - (2 * j - k) * eps0))
                       for j in range(k + 1))


def bisect(f, low, high, steps=200):
    """The root of a decreasing f on [low, high]."""
    for _ in range(steps):
        middle = (low + high) / 2
        low, high = (middle, high) if f(middle) > 0 else (low, middle)
    return (low + high) / 2


def expected_verdict(answer, reference) -> str:
    """Where an answer sits against an exactly known value (symdp's bracket is far narrower than a double's gap)."""
    return "pessimistic" if answer > reference else "underestimate" if answer < reference else "inside"


# --- the laws -------------------------------------------------------------------------------------------------------


def test_poisson_sampling_gives_dp_accountings_add_and_remove_pairs():
    relations = laws_of(dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.25, dpa.GaussianDpEvent(2.0)), 7))
    without, sampled = Gaussian(0, 2), Mixture(0.25, Gaussian(0, 2), Gaussian(1, 2))
    (P, Q), (R, S) = relations.add, relations.remove
    assert [f for f, _ in P.factors] == [without] and [f for f, _ in Q.factors] == [sampled]    # add: D(μ ‖ mix)
    assert [f for f, _ in R.factors] == [sampled] and [f for f, _ in S.factors] == [without]    # remove: D(mix ‖ μ)
    assert P.dimension == Q.dimension == 7 and not relations.symmetric and set(relations.pairs()) == {"add", "remove"}


def test_compositions_compose_each_relation_and_unsampled_mechanisms_are_symmetric():
    event = dpa.ComposedDpEvent([dpa.GaussianDpEvent(2.0), dpa.NoOpDpEvent(),
                                 dpa.SelfComposedDpEvent(dpa.LaplaceDpEvent(1.0), 3)])
    relations = laws_of(event)
    assert relations.symmetric and list(relations.pairs()) == ["add"]
    P, Q = relations.add
    assert P.dimension == 4 and [c for _, c in P.factors] == [1, 3]
    assert [type(f).__name__ for f, _ in P.factors] == ["Gaussian", "Laplace"]
    assert [f.mean if c == 1 else f.loc for f, c in P.factors] == [0, 0]          # without the record: centred at 0
    assert [f.mean if c == 1 else f.loc for f, c in Q.factors] == [1, 1]          # with it: shifted by the sensitivity


# --- certified brackets against references ------------------------------------------------------------------------


@pytest.mark.parametrize("event, shift_squared", [
    (dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(2.0), 10), mpmath.mpf(10) / 4),     # 10 coordinates shifted 1/2
    (dpa.ComposedDpEvent([dpa.GaussianDpEvent(2.0), dpa.GaussianDpEvent(1.0)]), mpmath.mpf(5) / 4),
])
def test_composed_gaussians_delta_against_the_closed_form_and_dp_accountings_answer_classified(event, shift_squared):
    answer = dpa.pld.PLDAccountant().compose(event).get_delta(1.0)
    c = certify(event, epsilon=1, answer=answer)
    reference = gaussian_delta(mpmath.sqrt(shift_squared), 1)
    assert c.question == "delta" and c.certified and c.lower <= reference <= c.upper
    assert c.upper - c.lower < mpmath.mpf(10) ** -40
    assert c.verdict == expected_verdict(mpmath.mpf(float(answer)), reference) != "underestimate"


def test_randomized_response_delta_and_epsilon_against_the_binomial_sum():
    k, p = 30, mpmath.mpf("0.5")
    event = dpa.SelfComposedDpEvent(dpa.RandomizedResponseDpEvent(0.5, 2), k)
    c = certify(event, epsilon=2)
    assert c.certified and c.lower <= rr_delta(k, p, 2) <= c.upper and c.upper - c.lower < mpmath.mpf(10) ** -40
    with mpmath.workdps(70):
        root = bisect(lambda e: rr_delta(k, p, e) - mpmath.mpf("1e-6"), mpmath.mpf(0), k * mpmath.log(3))
    e = certify(event, delta=1e-6)
    assert e.question == "epsilon" and e.lower <= root <= e.upper and e.upper - e.lower < mpmath.mpf(10) ** -40


def test_an_accountant_that_composes_randomized_response_once_is_an_underestimate():
    # dp_accounting 0.6.0's PLD accountant drops the count of a self-composed randomized response; whatever it
    # answers is classified against the binomial sum, and the single round's δ is an underestimate of 30 rounds.
    k, p = 30, mpmath.mpf("0.5")
    event = dpa.SelfComposedDpEvent(dpa.RandomizedResponseDpEvent(0.5, 2), k)
    accountant = dpa.pld.PLDAccountant(dpa.NeighboringRelation.REPLACE_ONE).compose(event)
    answer = accountant.get_delta(2.0)
    assert certify(event, epsilon=2, answer=answer).verdict == expected_verdict(mpmath.mpf(float(answer)),
                                                                                  rr_delta(k, p, 2))
    one_round = rr_delta(1, p, 2)
    assert certify(event, epsilon=2, answer=one_round).verdict == "underestimate"


def subsampled_gaussian_deltas(q, eps):
    """(add, remove) δ(ε) of one Poisson-sampled Gaussian step, σ = 1, from its crossing points: the likelihood ratio
    of mix = (1 - q) N(0, 1) + q N(1, 1) to N(0, 1) is (1 - q) + q e^{x - 1/2}."""
    q, e = mpmath.mpf(q), mpmath.exp(eps)
    x = mpmath.mpf(1) / 2 + mpmath.log((e - 1 + q) / q)                        # remove: mix/N(0,1) > e^ε for x > x*
    remove = (1 - q) * mpmath.ncdf(-x) + q * mpmath.ncdf(1 - x) - e * mpmath.ncdf(-x)
    if 1 / e <= 1 - q:
        return mpmath.mpf(0), remove
    y = mpmath.mpf(1) / 2 + mpmath.log((1 / e - 1 + q) / q)                    # add: N(0,1)/mix > e^ε for x < y
    add = mpmath.ncdf(y) - e * ((1 - q) * mpmath.ncdf(y) + q * mpmath.ncdf(y - 1))
    return add, remove


def test_one_subsampled_gaussian_step_is_the_larger_relation():
    add, remove = subsampled_gaussian_deltas("0.5", "0.5")
    assert remove > add
    event = dpa.PoissonSampledDpEvent(0.5, dpa.GaussianDpEvent(1.0))
    c = certify(event, epsilon=0.5, width=1e-6)
    assert c.lower <= remove <= c.upper and c.upper - c.lower <= 2e-6 * remove


# --- bad input --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("event, fragment", [
    (dpa.SampledWithReplacementDpEvent(100, 10, dpa.GaussianDpEvent(1.0)),
     "does not certify a SampledWithReplacementDpEvent: sampling with replacement"),
    (dpa.PoissonSampledDpEvent(0.1, dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(1.0), 2)),
     "a PoissonSampledDpEvent of a SelfComposedDpEvent is not translated"),
    (dpa.PoissonSampledDpEvent(1.5, dpa.GaussianDpEvent(1.0)), "sampling_probability of a PoissonSampledDpEvent"),
    (dpa.GaussianDpEvent(0.0), "noise_multiplier of a GaussianDpEvent must be a positive number"),
    (dpa.RandomizedResponseDpEvent(0.0, 2), "noise_parameter of a RandomizedResponseDpEvent must lie in (0, 1]"),
    (dpa.NoOpDpEvent(), "applies no mechanism"),
])
def test_unsupported_or_bad_events_are_one_line_errors_naming_them(event, fragment):
    with pytest.raises(InvalidParameter) as info:
        certify(event, epsilon=1)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_one_question_at_a_time_and_delta_in_the_open_unit_interval():
    event = dpa.GaussianDpEvent(1.0)
    with pytest.raises(InvalidParameter, match="one question"):
        certify(event, epsilon=1, delta=1e-5)
    with pytest.raises(InvalidParameter, match=r"delta must lie in \(0, 1\), got 0"):
        certify(event, delta=0)
    assert classify(0.5, 0.4, 0.6) == "inside"


def test_without_dp_accounting_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "dp_accounting", None)      # an import of it now fails
    with pytest.raises(InvalidParameter, match="pip install dp-accounting"):
        laws_of(object())


# --- replace-one ----------------------------------------------------------------------------------------------------


def test_replace_one_of_the_gaussian_is_the_shift_by_twice_the_sensitivity():
    event = dpa.SelfComposedDpEvent(dpa.GaussianDpEvent(3.0), 20)
    c = certify(event, epsilon=1, width=1e-6, relation="replace-one")
    assert c.certified and c.relation == "replace-one" and c.decided_by == "replace-one"
    assert c.lower <= gaussian_delta(2 * mpmath.sqrt(20) / 3, 1) <= c.upper
    assert certify(event, epsilon=1).upper < c.lower            # replacing moves the sum twice as far


def test_replace_one_of_the_subsampled_gaussian_holds_its_quadrature_and_dp_accountings_answer_is_classified():
    q, sd, eps = mpmath.mpf("0.1"), mpmath.mpf(1), mpmath.mpf("0.5")
    event = dpa.PoissonSampledDpEvent(0.1, dpa.GaussianDpEvent(1.0))
    c = certify(event, epsilon=0.5, width=1e-6, relation="replace-one",
                answer=dpa.pld.PLDAccountant(dpa.NeighboringRelation.REPLACE_ONE).compose(event).get_delta(0.5))

    def p(x, shift):
        return (1 - q) * mpmath.npdf(x, 0, sd) + q * mpmath.npdf(x, shift, sd)
    # the loss log p(x, 1)/p(x, -1) is increasing: δ = ∫_{x*}^∞ (p(x, 1) − e^ε p(x, −1)) dx past its one crossing
    with mpmath.workdps(40):
        crossing = bisect(lambda x: mpmath.exp(eps) * p(x, -1) - p(x, 1), mpmath.mpf(-30), mpmath.mpf(30))
        reference = mpmath.quad(lambda x: p(x, 1) - mpmath.exp(eps) * p(x, -1), [crossing, crossing + 10, mpmath.inf])
    slack = mpmath.mpf("1e-30")                                  # the quadrature's accuracy at 40 digits, granted
    assert c.certified and c.lower <= reference * (1 + slack) and reference <= c.upper * (1 + slack)
    assert c.verdict in ("inside", "pessimistic")                # dp_accounting's PLD is pessimistic by design


def test_replace_one_of_a_subsampled_laplace_is_refused_with_the_reason():
    event = dpa.PoissonSampledDpEvent(0.1, dpa.LaplaceDpEvent(1.0))
    with pytest.raises(InvalidParameter, match="replace-one pair of a Poisson-subsampled Laplace mechanism"):
        certify(event, epsilon=1, relation="replace-one")
    with pytest.raises(InvalidParameter, match="unknown neighbouring relation 'swap'"):
        certify(event, epsilon=1, relation="swap")


def test_a_discrete_laplace_event_from_dp_event_is_translated():
    # dp_accounting keeps DiscreteLaplaceDpEvent in dp_accounting.dp_event only: one step against the direct sum of
    # (p − e^ε q)_+ over the two-sided geometric laws p(x) ∝ e^{−a|x|}, q(x) ∝ e^{−a|x − 1|}
    a, eps = mpmath.mpf("0.5"), mpmath.mpf("0.2")
    c = certify(dpa.dp_event.DiscreteLaplaceDpEvent(0.5, 1), epsilon=0.2)
    norm = (1 + mpmath.exp(-a)) / (1 - mpmath.exp(-a))
    reference = mpmath.fsum(max(0, (mpmath.exp(-a * abs(x)) - mpmath.exp(eps) * mpmath.exp(-a * abs(x - 1))) / norm)
                            for x in range(-400, 401))
    assert c.certified and c.lower <= reference <= c.upper


@pytest.mark.parametrize("event, reason", [
    (dpa.dp_event.SampledWithReplacementDpEvent(100, 10, dpa.GaussianDpEvent(1.0)), "sampling with replacement"),
    (dpa.dp_event.ZCDpEvent(0.5), "epsilon_from_rdp(*zcdp_curve(rho, orders), delta)"),
    (dpa.dp_event.MixtureOfGaussiansDpEvent(1.0, [-1, 1], [0.5, 0.5]), "sensitivities have both signs"),
    (dpa.dp_event.TruncatedSubsampledGaussianDpEvent(100, 0.1, 20, 1.0), "is not built"),
    (dpa.dp_event.RepeatAndSelectDpEvent(dpa.GaussianDpEvent(1.0), 1.0, 1.0), "Papernot and Steinke 2022"),
    (dpa.NonPrivateDpEvent(), "no (ε, δ) guarantee"),
])
def test_events_without_a_dominating_pair_are_refused_with_the_reason(event, reason):
    with pytest.raises(InvalidParameter) as err:
        certify(event, epsilon=1)
    assert f"does not certify a {type(event).__name__}" in str(err.value) and reason in str(err.value)


def test_an_events_renyi_curve_under_each_relation():
    # a Poisson-subsampled discrete Laplace (a mixture on ℤ), remove: E_A[(1 − q + q B/A)^α] expanded binomially,
    # E_A[(B/A)^j] = Σ_x A^{1−j} B^j summed directly over a window far wider than the laws' mass (e^{−a·400} ≪ 1e-60)
    from symdp.rdp import renyi_curve

    a, q, alpha = mpmath.mpf("0.5"), mpmath.mpf("0.1"), 3
    event = dpa.PoissonSampledDpEvent(0.1, dpa.dp_event.DiscreteLaplaceDpEvent(0.5, 1))
    with mpmath.workdps(80):
        norm = (1 + mpmath.exp(-a)) / (1 - mpmath.exp(-a))
        A = {x: mpmath.exp(-a * abs(x)) / norm for x in range(-400, 402)}
        B = {x: mpmath.exp(-a * abs(x - 1)) / norm for x in range(-400, 402)}
        moment = mpmath.fsum(mpmath.binomial(alpha, j) * (1 - q) ** (alpha - j) * q ** j
                             * mpmath.fsum(A[x] ** (1 - j) * B[x] ** j for x in A) for j in range(alpha + 1))
        reference = mpmath.log(moment) / (alpha - 1)
    curve = renyi_curve(laws_of(event).mechanism("add-or-remove"), [alpha])
    assert curve.certified and curve.decided_by == ("remove",)
    slack = mpmath.mpf("1e-45")         # a mixture's masses on ℤ are rounded once to the working precision (50 digits)
    assert curve.lower[0] - slack <= reference <= curve.upper[0] + slack


# --- replace-special and tree aggregation ----------------------------------------------------------------------------


def test_replace_special_is_add_or_remove_where_the_special_record_is_the_records_absence():
    # dp_accounting's REPLACE_SPECIAL: the record replaced by one that contributes nothing; for a Poisson-sampled
    # Gaussian the output without the record either way, so both relations ask the same two divergences
    event = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.1, dpa.GaussianDpEvent(1.0)), 5)
    special, plain = certify(event, epsilon=1, relation="replace-special"), certify(event, epsilon=1)
    assert (special.lower, special.upper, special.decided_by) == (plain.lower, plain.upper, plain.decided_by)
    assert special.relation == "replace-special"
    with pytest.raises(InvalidParameter, match="no replace-special pair: a fixed batch's other records depend"):
        certify(dpa.SampledWithoutReplacementDpEvent(100, 10, dpa.GaussianDpEvent(1.0)), epsilon=1,
                relation="replace-special")


@pytest.mark.parametrize("steps, depth", [(1, 1), (100, 7), ([3, 8], 4), ([127, 5], 7), (128, 8)])
def test_tree_aggregation_is_the_gaussian_of_its_depth_against_the_closed_form(steps, depth):
    # Kairouz et al. 2021, App. D: a record moves the d = ⌈log₂(T + 1)⌉ nodes above its leaf by at most 1, each with
    # N(0, σ²): the Gaussian mechanism of sensitivity √d, μ = √d/σ, composed over 3 epochs (μ√3); replace-one 2μ√3
    event = dpa.SelfComposedDpEvent(dpa.SingleEpochTreeAggregationDpEvent(2.0, steps), 3)
    special = certify(event, epsilon=0.5, width=1e-6, relation="replace-special")
    replaced = certify(event, epsilon=0.5, width=1e-6, relation="replace-one")
    with mpmath.workdps(mpmath.mp.dps + 30):
        mu = mpmath.sqrt(3 * depth) / 2
        references = gaussian_delta(mu, mpmath.mpf("0.5")), gaussian_delta(2 * mu, mpmath.mpf("0.5"))
    for c, reference in zip((special, replaced), references):
        # √d enters rounded up at the working precision (an upper bound): the lower end may pass the exact value
        # by that rounding, relatively 10^-dps
        assert c.certified and c.lower <= reference * (1 + mpmath.mpf(10) ** (5 - mpmath.mp.dps)) \
            and reference <= c.upper


def test_tree_aggregation_epsilon_holds_the_analytic_gaussian_and_dp_accountings_rdp_is_pessimistic():
    # ε(1e-5) of the Gaussian mechanism μ = √7/2 (100 steps: d = 7, σ = 2): the root of the closed form δ(ε) = 1e-5
    event = dpa.SingleEpochTreeAggregationDpEvent(2.0, 100)
    rdp = dpa.rdp.RdpAccountant(neighboring_relation=dpa.NeighboringRelation.REPLACE_SPECIAL).compose(event)
    c = certify(event, delta=1e-5, relation="replace-special", answer=rdp.get_epsilon(1e-5))
    with mpmath.workdps(mpmath.mp.dps + 30):
        mu, target = mpmath.sqrt(7) / 2, mpmath.mpf("1e-5")
        reference = bisect(lambda e: gaussian_delta(mu, e) - target, mpmath.mpf(0), mpmath.mpf(20), steps=400)
    slack = mpmath.mpf(10) ** (5 - mpmath.mp.dps)      # √7 rounded up at the working precision (as above)
    assert c.certified and c.lower <= reference * (1 + slack) and reference <= c.upper and c.verdict == "pessimistic"


@pytest.mark.parametrize("relation", ["add", "remove", "add-or-remove"])
def test_tree_aggregation_under_add_or_remove_is_refused_with_the_reason(relation):
    with pytest.raises(InvalidParameter, match="record's place in the stream kept"):
        certify(dpa.SingleEpochTreeAggregationDpEvent(1.0, 8), epsilon=1, relation=relation)


@pytest.mark.parametrize("steps", [[], -1, 2.5, [4, -2]])
def test_tree_aggregation_with_bad_step_counts_is_an_error_naming_them(steps):
    with pytest.raises(InvalidParameter, match="step_counts of a SingleEpochTreeAggregationDpEvent"):
        certify(dpa.SingleEpochTreeAggregationDpEvent(1.0, steps), epsilon=1, relation="replace-special")


# --- symdp's mechanisms as dp_accounting's events --------------------------------------------------------------------


def test_symdps_mechanisms_become_dp_accountings_events_and_its_answer_is_classified_against_the_bracket():
    from symdp.interop import dp_event
    from symdp.mechanisms import delta, dpsgd, gaussian, laplace

    E = dpa.dp_event
    cases = [(dpsgd(0.01, 1.0, 100), E.SelfComposedDpEvent(E.PoissonSampledDpEvent(0.01, E.GaussianDpEvent(1.0)), 100),
              "ADD_OR_REMOVE_ONE"),
             (dpsgd(None, 2.0, 10, relation="replace-one", sampling="fixed-batch", dataset_size=100, batch_size=10),
              E.SelfComposedDpEvent(E.SampledWithoutReplacementDpEvent(100, 10, E.GaussianDpEvent(2.0)), 10),
              "REPLACE_ONE"),
             (gaussian(3.0, relation="replace-one").composed(4), E.SelfComposedDpEvent(E.GaussianDpEvent(3.0), 4),
              "REPLACE_ONE"),
             (laplace(2.0), E.LaplaceDpEvent(2.0), "ADD_OR_REMOVE_ONE")]
    for mechanism, expected, relation in cases:
        assert dp_event(mechanism) == (expected, getattr(dpa.NeighboringRelation, relation))
    # the round trip: dp_accounting's PLD answer for the event symdp hands it, against symdp's own bracket
    m = dpsgd(0.01, 1.0, 100)
    event, relation = dp_event(m)
    answer = dpa.pld.PLDAccountant(relation).compose(event).get_delta(1.0)
    bracket = delta(m, 1.0, width=1e-6)
    assert classify(answer, bracket.lower, bracket.upper) in ("inside", "pessimistic")     # its PLD is pessimistic
    # an event's mechanism hands back the event it came from; add or remove alone has no dp_accounting relation
    original = E.SelfComposedDpEvent(E.RandomizedResponseDpEvent(0.5, 2), 3)
    assert dp_event(laws_of(original).mechanism("replace-one"))[0] is original
    with pytest.raises(InvalidParameter, match="dp_accounting has no add relation alone"):
        dp_event(gaussian(1.0, relation="add"))
