"""Mechanisms with their neighbouring relation (symdp.mechanisms) and ``symdp dpsgd``, against references that are
not symdp's: the analytic Gaussian mechanism's closed form (Balle and Wang 2018, Thm. 8) and mpmath quadrature of the
densities, written here."""

import json

import mpmath
import pytest

from symdp.cli import main
from symdp.errors import InvalidParameter
from symdp.mechanisms import delta, dpsgd, epsilon, gaussian, poisson_gaussian


def gaussian_delta(mu, eps):
    """δ(ε) of N(μ, 1) against N(0, 1): Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle and Wang 2018, Thm. 8)."""
    mu, eps = mpmath.mpf(mu), mpmath.mpf(str(eps))
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def mixture_pdf(q, shift, sd):
    """The density of (1 − q) N(0, sd) + q N(shift, sd) (the parameters read as decimals, as symdp reads them)."""
    q, sd = mpmath.mpf(str(q)), mpmath.mpf(str(sd))
    return lambda x: (1 - q) * mpmath.npdf(x, 0, sd) + q * mpmath.npdf(x, shift, sd)


def quadrature_delta(p, q, eps):
    """∫ (p − e^ε q)_+ by mpmath quadrature, split where p = e^ε q (one crossing: the loss is monotone)."""
    with mpmath.workdps(40):
        eps = mpmath.mpf(str(eps))
        gap = lambda x: p(x) - mpmath.exp(eps) * q(x)
        low, high = mpmath.mpf(-40), mpmath.mpf(40)     # the sign of gap changes once in between: bisection
        rising = gap(high) > gap(low)
        for _ in range(200):
            middle = (low + high) / 2
            low, high = (middle, high) if (gap(middle) < 0) == rising else (low, middle)
        root = (low + high) / 2
        found = mpmath.quad(gap, [root, root + 10, mpmath.inf]) if rising else \
            mpmath.quad(gap, [-mpmath.inf, root - 10, root])
        return max(found, 0)          # δ ≥ 0: a negative integral is the quadrature's noise around 0


QUADRATURE = mpmath.mpf("1e-30")
"""The relative accuracy granted to a quadrature at 40 digits (its error is far below; the closed forms get none)."""


def inside(answer, reference, slack=0):
    """Whether ``reference`` lies in the answer's bracket, widened by ``slack`` relative to the reference."""
    return answer.lower - slack * abs(reference) <= reference <= answer.upper + slack * abs(reference)


@pytest.mark.parametrize("sd, steps, eps", [(1.0, 1, 0.5), (2.0, 10, 1.0), (4.0, 100, 0.3)])
def test_gaussian_relations_are_the_shifts_by_one_and_by_two(sd, steps, eps):
    for relation, shift in (("add-or-remove", 1), ("replace-one", 2)):
        answer = delta(gaussian(sd, relation=relation).composed(steps), eps, width=1e-6)
        assert answer.certified and answer.relation == relation
        assert inside(answer, gaussian_delta(shift * mpmath.sqrt(steps) / sd, eps))


@pytest.mark.parametrize("q, sd, eps", [(0.01, 1.0, 0.01), (0.2, 0.8, 0.5), (0.5, 2.0, 0.1)])
def test_replace_one_poisson_gaussian_one_step_is_the_integral_of_its_densities(q, sd, eps):
    answer = delta(poisson_gaussian(q, sd, relation="replace-one"), eps, width=1e-5)
    reference = quadrature_delta(mixture_pdf(q, 1, sd), mixture_pdf(q, -1, sd), eps)
    assert answer.certified and answer.decided_by == "replace-one"
    assert inside(answer, reference, slack=QUADRATURE)


def test_the_binned_replace_one_loss_composes_to_the_gaussian_of_twice_the_sensitivity_at_rate_one():
    # the engine's replace-one loss of mix(q, N(0, σ), N(±1, σ)), binned and composed, at q = 1 (symdp.mechanisms
    # itself hands that case to the exact Gaussian route): k steps of N(1, σ) against N(−1, σ) are N(0, 1) against
    # N(2√k/σ, 1)
    from symdp.engine.accounting import hockey_stick
    from symdp.engine.continuous import Gaussian, Mixture
    from symdp.engine.products import compose

    P, Q = (Mixture(1, Gaussian(0, 2), Gaussian(m, 2)) for m in (1, -1))
    found = hockey_stick(compose(10, P), compose(10, Q), 1, width=1e-6)
    assert found.certified
    assert abs(found.value - gaussian_delta(2 * mpmath.sqrt(10) / 2, 1)) <= found.error
    exact = delta(poisson_gaussian(1, 2.0, relation="replace-one").composed(10), 1, width=1e-6)
    assert exact.upper - exact.lower < 1e-40 and inside(exact, gaussian_delta(2 * mpmath.sqrt(10) / 2, 1))


def test_add_or_remove_is_the_larger_relation_and_names_it():
    q, sd, eps = 0.05, 1.0, 0.2
    both = delta(poisson_gaussian(q, sd), eps, width=1e-5)
    remove = quadrature_delta(mixture_pdf(q, 1, sd), mixture_pdf(0, 1, sd), eps)
    add = quadrature_delta(mixture_pdf(0, 1, sd), mixture_pdf(q, 1, sd), eps)
    assert set(both.brackets) == {"add", "remove"}
    assert inside(both, max(remove, add), slack=QUADRATURE)
    assert both.decided_by == ("remove" if remove > add else "add")
    for name, reference in (("add", add), ("remove", remove)):
        lo, hi = both.brackets[name]
        assert lo - QUADRATURE * reference <= reference <= hi + QUADRATURE * reference
        single = delta(poisson_gaussian(q, sd, relation=name), eps, width=1e-5)
        assert set(single.brackets) == {name} and inside(single, reference, slack=QUADRATURE)


def test_epsilon_of_a_relation_is_the_inverse_of_its_delta():
    m = gaussian(0.5, relation="replace-one")                             # N(0, 1/2) against N(2, 1/2)
    answer = epsilon(m, 1e-3, width=1e-5)
    assert answer.certified
    asked, slack = mpmath.mpf("1e-3"), mpmath.mpf("1e-40")       # the bracket is exact to ~50 digits: δ(ε) = asked
    assert gaussian_delta(4, answer.upper) <= asked * (1 + slack)
    assert gaussian_delta(4, answer.lower) >= asked * (1 - slack)


@pytest.mark.parametrize("call, problem", [
    (lambda: poisson_gaussian(0.1, 1.0, relation="substitution"), "unknown neighbouring relation 'substitution'"),
    (lambda: poisson_gaussian(1.5, 1.0), "the sampling rate must lie in (0, 1]"),
    (lambda: poisson_gaussian(0.1, -1.0), "the noise multiplier must be a positive number"),
    (lambda: dpsgd(0.1, 1.0, 2.5), "the number of steps must be an integer >= 1"),
    (lambda: dpsgd(0.1, 1.0, 10, sampling="shuffle"), "shuffled epochs are not accounted"),
    (lambda: dpsgd(None, 1.0, 10, sampling="fixed-batch", dataset_size=100, batch_size=10),
     "fixed-batch sampling is accounted under replace-one"),
    (lambda: delta(gaussian(1.0), 1).__class__ and epsilon(gaussian(1.0), 1.5), "delta must lie in (0, 1)"),
])
def test_bad_input_is_one_error_naming_it(call, problem):
    with pytest.raises(InvalidParameter) as err:
        call()
    assert problem in str(err.value)


def test_dpsgd_command_json_has_the_bracket_relation_and_pair(capsys):
    code = main(["dpsgd", "--sampling-rate", "1", "--noise-multiplier", "2", "--steps", "10", "--epsilon", "1",
                 "--relation", "replace-one", "--no-peers", "--json", "--width", "1e-5"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["certified"] and out["relation"] == "replace-one" and out["peers"] == []
    assert mpmath.mpf(out["lower"]) <= gaussian_delta(2 * mpmath.sqrt(10) / 2, 1) <= mpmath.mpf(out["upper"])
    assert {"question", "at", "decided_by", "brackets", "seconds", "source", "method"} <= set(out)


@pytest.mark.parametrize("argv, problem", [
    (["--sampling-rate", "0.1", "--noise-multiplier", "1", "--steps", "10"], "give one of --delta"),
    (["--noise-multiplier", "1", "--steps", "10", "--delta", "1e-5"], "give --sampling-rate"),
    (["--sampling", "fixed-batch", "--noise-multiplier", "1", "--steps", "10", "--delta", "1e-5"],
     "needs --dataset-size and --batch-size"),
    (["--sampling", "fixed-batch", "--dataset-size", "100", "--batch-size", "10", "--noise-multiplier", "1",
      "--steps", "10", "--delta", "1e-5"], "accounted under replace-one"),
    (["--sampling-rate", "0", "--noise-multiplier", "1", "--steps", "10", "--delta", "1e-5"], "must lie in (0, 1]"),
])
def test_dpsgd_command_refuses_with_one_line(capsys, argv, problem):
    assert main(["dpsgd", *argv]) == 2
    err = capsys.readouterr().err
    assert problem in err and len(err.strip().splitlines()) == 1


def test_dpsgd_rdp_answer_is_an_upper_bound_above_the_bracket(capsys):
    code = main(["dpsgd", "--sampling-rate", "0.05", "--noise-multiplier", "1.5", "--steps", "20", "--delta", "1e-5",
                 "--no-peers", "--rdp", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["rdp"]["certified"]
    assert mpmath.mpf(out["rdp"]["upper"]) > mpmath.mpf(out["upper"])     # RDP's conversion is loose, never below


def test_an_answers_width_is_relative_to_its_largest_end_and_an_epsilons_to_at_least_a_tenth():
    from symdp.mechanisms import Answer

    def answer(question, lower, upper):
        return Answer(question, mpmath.mpf(1), mpmath.mpf(lower), mpmath.mpf(upper), True, "certified", "add",
                      "add", {}, 0.0)

    assert answer("delta", "0.5", "0.6").width == pytest.approx(0.1 / 0.6)
    assert answer("epsilon", "0.001", "0.002").width == pytest.approx(0.001 / 0.1)
    assert answer("delta", "-1e-9", "0.88").width > 1        # a bracket the engine could not narrow says so


def test_low_noise_is_narrowed_with_more_bits_and_stays_between_two_closed_forms():
    """At q = 0.5, σ = 0.15, 3 steps the loss spans tens of nats per step and the composed sums' rounding swamped the
    bracket ([0, 0.88]); the accountant now adds bits. References: δ(ε) ≥ P(S) − e^ε Q(S) for S = {some coordinate
    above 1/2}, and δ ≤ 1 − (1 − q)^k, the chance the record is used at all."""
    q, sd, k, eps = mpmath.mpf("0.5"), mpmath.mpf("0.15"), 3, mpmath.mpf(1)
    above_p = q * mpmath.ncdf(mpmath.mpf("0.5") / sd) + (1 - q) * mpmath.ncdf(-mpmath.mpf("0.5") / sd)
    above_q = mpmath.ncdf(-mpmath.mpf("0.5") / sd)
    lower = (1 - (1 - above_p) ** k) - mpmath.exp(eps) * (1 - (1 - above_q) ** k)
    answer = delta(dpsgd(q, sd, k, relation="remove"), eps)
    assert answer.certified and answer.width <= 1e-3
    assert lower <= answer.lower and answer.upper <= 1 - (1 - q) ** k
