"""Bertazzi et al., Section 3.1 and Appendix A.2-A.3 (symdp.theorems.bertazzi.convergence), and the Metropolis-Hastings
chains of symdp.engine.markov they run on."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.engine.markov import metropolis_hastings
from symdp.errors import InvalidParameter
from symdp.precision import working_precision
from symdp.theorems.bertazzi import convergence as cv
from symdp.verify import HOLDS, TIGHT, VIOLATED, evaluate_point, verify

# --- the Metropolis-Hastings chain --------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=2, max_size=6))
def test_metropolis_hastings_satisfies_detailed_balance_and_leaves_its_target_invariant(w):
    target = [F(v, sum(w)) for v in w]
    chain = metropolis_hastings(target)
    for x in range(len(w)):
        for y in range(len(w)):
            assert target[x] * chain.rows[x][y] == target[y] * chain.rows[y][x]
    assert chain.stationary() == tuple(target)


def test_metropolis_hastings_two_point_rows_are_the_acceptance_ratios():
    # from 0 the move to 1 is proposed with 1/2 and accepted surely (3/4 > 1/4); from 1, accepted with (1/4)/(3/4)
    assert metropolis_hastings([F(1, 4), F(3, 4)]).rows == ((F(1, 2), F(1, 2)), (F(1, 6), F(5, 6)))


def test_metropolis_hastings_bad_targets_are_clear_errors():
    with pytest.raises(InvalidParameter, match="positive masses"):
        metropolis_hastings([F(1)])
    with pytest.raises(InvalidParameter, match="positive masses"):
        metropolis_hastings([F(1, 2), F(0), F(1, 2)])


def test_the_bernoulli_posterior_is_bayes_formula():
    # theta in {1/3, 2/3}, one success in two observations: theta(1 - theta) is 2/9 at both points
    assert cv.bernoulli_posterior(2, 2, 1) == [F(1, 2), F(1, 2)]
    # no success in one observation: likelihoods 2/3 and 1/3
    assert cv.bernoulli_posterior(2, 1, 0) == [F(2, 3), F(1, 3)]


# --- Appendix A ---------------------------------------------------------------------------------------------------

def test_proposition_a_2_is_attained_at_the_catalogues_two_point_instance():
    # catalogue bertazzi.propA.2: delta + beta (e^eps + 1) = 0.099461638121 at eps = 0.5, delta = 0.02, beta = 0.03
    with mpmath.workdps(30):
        mu, nu = cv.two_point(cv.A2_TIGHT["structure"], mpmath.mpf("0.5"))
        assert mpmath.almosteq(cv.least_delta(nu, mpmath.mpf("0.5")).value, mpmath.mpf("0.099461638121"), 1e-11)
        assert mpmath.almosteq(cv.least_delta(mu, mpmath.mpf("0.5")).value, mpmath.mpf("0.02"), 1e-25)
    assert evaluate_point(cv.proposition_a_2, cv.A2_TIGHT).verdict == TIGHT
    assert evaluate_point(cv.proposition_a_2.tightened(0.99), cv.A2_TIGHT).verdict == VIOLATED


def test_proposition_a_3_is_tight_and_reads_the_pair_existentially():
    assert evaluate_point(cv.proposition_a_3, cv.A3_TIGHT).verdict == TIGHT
    assert evaluate_point(cv.proposition_a_3.tightened(0.99), cv.A3_TIGHT).verdict == VIOLATED
    # "there exists D~ in (D, D')": with only D' moved one TV is 0, the other is t = 0.05 > t / (1 + e^0.7); the
    # existential reading holds there, and (D, D') is the pair, notation: no printed statement is refuted (no E18)
    assert evaluate_point(cv.proposition_a_3, cv.A3_ONE_SIDED).verdict == HOLDS
    ids = {t.id for t in cv.THEOREMS}
    assert "bertazzi.propA.3" in ids and "bertazzi.propA.3.printed" not in ids
    assert cv.proposition_a_3.erratum is None and not cv.proposition_a_3.printed
    with working_precision(30):
        lhs, rhs = cv.proposition_a_3.evaluate(cv.A3_ONE_SIDED)
        bound = mpmath.mpf("0.05") / (1 + mpmath.exp(mpmath.mpf("0.7")))   # delta_mu - delta_nu = t, one-sided
    # the existential side is the larger TV, |0.3 - 0.3| and |(e^0.7 0.3 + 0.01 + 0.05) - (e^0.7 0.3 + 0.01)|
    assert mpmath.almosteq(lhs.value, mpmath.mpf("0.05"), 1e-20)
    assert mpmath.almosteq(rhs.value, bound, 1e-15)          # epsilon = 0.7 is drawn as a double


# --- Section 3.1 --------------------------------------------------------------------------------------------------

def test_proposition_3_2_reads_the_posteriors_own_delta_on_the_mh_pin():
    # grid {1/5, ..., 4/5}, three observations with 1 and 2 successes; at eps = 0 delta is the TV of the posteriors,
    # computed here from Bayes' formula with fractions
    point = {"epsilon": 0, "n": 2, "structure": cv.MH_PIN}
    thetas = [F(i, 5) for i in range(1, 5)]
    like = [[th ** s * (1 - th) ** (3 - s) for th in thetas] for s in (1, 2)]
    post = [[v / sum(row) for v in row] for row in like]
    expected = sum(abs(a - b) for a, b in zip(*post)) / 2
    with mpmath.workdps(30):
        values = cv.proposition_3_2.witness(point)
    assert mpmath.almosteq(values[cv.DPDelta(cv.pi_, cv.epsilon)].value, mpmath.mpf(expected.numerator)
                           / expected.denominator, 1e-25)
    assert evaluate_point(cv.proposition_3_2, {**point, "epsilon": 0.5}).verdict in (HOLDS, TIGHT)


def test_section_3_1_tight_pins_refute_the_tightened_copies():
    for theorem in (cv.proposition_3_2, cv.proposition_3_2_ii, cv.proposition_3_4):
        pin = theorem.tight_at[0]
        assert evaluate_point(theorem, pin).verdict == TIGHT, theorem.id
        assert evaluate_point(theorem.tightened(0.99), pin).verdict == VIOLATED, theorem.id


def test_a_biased_chain_has_a_positive_bias_and_an_unbiased_one_none():
    structure = {"pair": {"kind": "random", "W": [[1, 2], [3, 1]], "M": [[1, 1], [2, 1]], "reversible": False},
                 "start": [1, 0], "bias": 4, "r": [1, 1]}
    chains = cv.build_chains({"epsilon": 0.1, "structure": structure})
    assert max(v.value for v in cv.tvs(chains["limits"], chains["targets"])) > 0
    chains = cv.build_chains({"epsilon": 0.1, "structure": {**structure, "bias": 0}})
    assert chains["limits"] == chains["targets"]


def test_every_section_3_1_result_holds_on_its_draws():
    for theorem in cv.THEOREMS:
        expected = VIOLATED if theorem.erratum is not None else HOLDS
        if theorem.numeric:
            assert verify(theorem, examples=8).verdict in ({expected, TIGHT} - ({TIGHT} if theorem.erratum else set()))


def test_a_point_outside_the_domains_is_a_clear_error():
    with pytest.raises(InvalidParameter, match="epsilon"):
        evaluate_point(cv.proposition_a_2, {**cv.A2_TIGHT, "epsilon": -1})
    with pytest.raises(InvalidParameter, match="n"):
        evaluate_point(cv.proposition_3_2, {"epsilon": 0.5, "n": 0, "structure": cv.MH_PIN})


def test_assumption_3_1_pin_is_one_minus_the_stationary_mass_and_refutes_a_tightened_copy():
    # rows other than 0 coincide (q), row 0 is p: pi(0) = q0 / (1 - p0 + q0) and the ratio is 1 - pi(0) at every n
    p0, q0 = F(1, 5), F(1, 109)
    expected = 1 - q0 / (1 - p0 + q0)
    assert expected == F(436, 441)
    for n_ in (1, 3):
        result = evaluate_point(cv.assumption_3_1, {"n": n_, "structure": cv.DOBRUSHIN_NEAR})
        assert result.ratio == pytest.approx(float(expected), rel=1e-12)
    # the search's random draws reach about 0.67; the pin makes a copy tightened to 0.95 fail
    from symdp.plugin import check

    assert check(cv.assumption_3_1.tightened(0.95)).verdict == VIOLATED


def test_the_dobrushin_power_is_a_certified_ball_of_the_exact_coefficient():
    # the pinned chain: D' rows (1, ..., 1)/5 and (1, 27, 27, 27, 27)/109, whose TV is the mass where the first is
    # larger, 1/5 - 1/109 = 104/545 (D's rows (1, ..., 1)/5 and (1, 9, 9, 9, 9)/37 give 32/185, less); at n = 3 its cube
    with mpmath.workdps(30):
        values = cv.assumption_3_1.witness({"n": 3, "structure": cv.DOBRUSHIN_NEAR})
        power = values[cv.DobrushinPower(cv.n)]
        exact = (mpmath.mpf(104) / 545) ** 3
        assert power.certified and abs(power.value - exact) <= power.error + mpmath.mpf(10) ** -29


def test_random_families_are_built_exactly_and_their_draws_certified():
    # nu = (1 - t) mu + t r in rationals: t = 0.25 and the weights below give nu_D = (3/4)(1/4, 3/4) + (1/4)(1, 0)
    point = {"epsilon": 0.3, "structure": {"mu": [[1.0, 3.0], [1.0, 1.0]], "r": [[1.0, 0.0], [0.0, 1.0]], "t": 0.25}}
    mu, nu = cv.build_families(point)
    assert [F(int(q.p), int(q.q)) for law in nu for q in law.keys()] == [F(7, 16), F(9, 16), F(3, 8), F(5, 8)]
    for theorem in (cv.proposition_a_2, cv.proposition_a_3):
        result = evaluate_point(theorem, point)
        assert result.certified and result.construction == "exact", theorem.id


def test_the_laws_of_the_first_states_are_the_powers_and_the_stationary_law_is_exact():
    # a two-state chain: νP^t = π + (1 − a − b)^t (ν − π), π = (b, a)/(a + b) (closed form)
    a, b = F(1, 3), F(1, 5)
    chain = cv.FiniteChain([[1 - a, a], [b, 1 - b]])
    pi = (b / (a + b), a / (a + b))
    assert chain.stationary() == pi and all(isinstance(v, F) for v in chain.stationary())
    start = (F(1), F(0))
    laws = chain.laws(start, 6)
    assert len(laws) == 6
    for t, law in enumerate(laws, 1):
        assert law == tuple(p + (1 - a - b) ** t * (s - p) for s, p in zip(start, pi)) == chain.law(start, t)
    with pytest.raises(InvalidParameter):
        chain.laws(start, -1)
