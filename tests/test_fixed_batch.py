"""Fixed-batch DP-SGD (sampling without replacement) under replace-one: the symmetrised pair against references
written from the literature, never from symdp.

References:

* one step, ε ≥ 0: the advanced joint convexity of Balle, Barthe and Gaboardi 2018 (Theorem 2) for a mixture against
  its own component, D_{e^ε}((1 − γ)Q + γP ‖ Q) = γ·D_{e^{ε₀}}(P‖Q) with ε₀ = log(1 + (e^ε − 1)/γ), and the Gaussian
  profile of Balle and Wang 2018 (Theorem 8), D_{e^ε}(N(Δ, σ)‖N(0, σ)) = Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ);
* one step, ε < 0: D_{e^ε}(A‖B) = 1 − e^ε + e^ε D_{e^{−ε}}(B‖A) and the symmetry of the relation;
* two steps: D_{e^ε}(P̃⊗P̃‖Q̃⊗Q̃) = E_{x~P̃}[δ₁(ε − L̃(x))], the expectation over the symmetrised pair's parts (P on
  {x > 1}, Q on {x > 1} with the loss negated, the atom 1 − P(x > 1) − Q(x > 1) at loss 0) by mpmath quadrature;
* many steps: below the unsampled Gaussian's profile N(2√k, σ) against N(0, σ) (a rate of 1 dominates), and, where
  dp_accounting is installed, below its RDP bound of Wang, Balle and Kasiviswanathan 2019 at half the noise (its
  convention: the noise over the replace-one distance 2).
"""

from __future__ import annotations

import json

import mpmath
import pytest

from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.mechanisms import delta, dpsgd, epsilon, fixed_batch_gaussian


def gaussian_profile(eps, shift, sd):
    """Balle and Wang 2018, Theorem 8."""
    eps, shift, sd = mpmath.mpf(eps), mpmath.mpf(shift), mpmath.mpf(sd)
    return (mpmath.ncdf(shift / (2 * sd) - eps * sd / shift)
            - mpmath.exp(eps) * mpmath.ncdf(-shift / (2 * sd) - eps * sd / shift))


def one_step(eps, rate, sd):
    """δ of one fixed-batch step at any ε: advanced joint convexity for ε ≥ 0, the mirror identity below."""
    eps = mpmath.mpf(eps)
    if eps < 0:
        return 1 - mpmath.exp(eps) + mpmath.exp(eps) * one_step(-eps, rate, sd)
    return rate * gaussian_profile(mpmath.log(1 + mpmath.expm1(eps) / rate), 2, sd)


def two_steps(eps, rate, sd):
    """δ of two steps: E over the first step's symmetrised loss of the one-step profile (the module's note)."""
    eps, rate, sd = mpmath.mpf(eps), mpmath.mpf(rate), mpmath.mpf(sd)

    def loss(x):
        return mpmath.log(1 - rate + rate * mpmath.exp((2 * x - 2) / sd ** 2))

    def p(x):
        return (1 - rate) * mpmath.npdf(x, 0, sd) + rate * mpmath.npdf(x, 2, sd)

    def q(x):
        return mpmath.npdf(x, 0, sd)

    def integrand(x):
        ell = loss(x)
        return p(x) * one_step(eps - ell, rate, sd) + q(x) * one_step(eps + ell, rate, sd)

    above_p = (1 - rate) * mpmath.ncdf(-1 / sd) + rate * mpmath.ncdf(1 / sd)
    atom = 1 - above_p - mpmath.ncdf(-1 / sd)
    ends = [1, 1 + sd, 1 + 3 * sd, 1 + 8 * sd, 1 + 40 * sd]
    return mpmath.quad(integrand, ends) + atom * one_step(eps, rate, sd)


def holds(answer, reference, slack=mpmath.mpf("1e-12")):
    return answer.certified and answer.lower - slack <= reference <= answer.upper + slack


@pytest.mark.parametrize("rate_n, sd, eps", [(10, 1.0, -1.0), (10, 1.0, 0.3), (100, 0.8, 0.0), (100, 0.8, 2.0),
                                           (2, 2.5, -1.0), (2, 2.5, 0.3)])
def test_one_step_is_the_advanced_joint_convexity_profile(rate_n, sd, eps):
    n = 1000
    b = n // rate_n
    answer = delta(fixed_batch_gaussian(b, n, sd), eps, width=1e-5)
    reference = one_step(eps, mpmath.mpf(b) / n, sd)
    assert holds(answer, reference), (answer.lower, answer.upper, reference)
    assert answer.upper - answer.lower <= 1e-5 * reference


@pytest.mark.parametrize("b, n, sd, eps", [(10, 100, 1.0, 0.5), (1, 4, 2.0, -0.3), (30, 100, 0.7, 1.5)])
def test_two_steps_are_the_expectation_over_the_first(b, n, sd, eps):
    mpmath.mp.dps = 20
    try:
        reference = two_steps(eps, mpmath.mpf(b) / n, sd)
    finally:
        mpmath.mp.dps = 15
    answer = delta(fixed_batch_gaussian(b, n, sd).composed(2), eps, width=1e-5)
    assert holds(answer, reference, slack=mpmath.mpf("1e-10")), (answer.lower, answer.upper, reference)


def test_a_tightened_one_step_reference_is_refuted():
    """The bracket is tight enough to tell the profile from one 0.1% smaller (a check that can fail)."""
    answer = delta(fixed_batch_gaussian(10, 1000, 1.0), 0.5, width=1e-5)
    reference = one_step(0.5, mpmath.mpf(10) / 1000, 1.0)
    assert not answer.lower <= reference * (1 - mpmath.mpf("1e-3")) <= answer.upper


def test_many_steps_stay_below_the_unsampled_gaussian():
    k, sd = 300, 1.0
    answer = delta(dpsgd(None, sd, k, relation="replace-one", sampling="fixed-batch", dataset_size=500,
                         batch_size=5), 1.0, width=1e-3)
    assert answer.certified and 0 < answer.lower
    assert answer.upper < gaussian_profile(1.0, 2 * mpmath.sqrt(k), sd)


def test_full_batch_is_the_gaussian_mechanism():
    """b = n: every step is the Gaussian mechanism under replace-one, k steps the shift 2√k."""
    answer = delta(dpsgd(None, 3.0, 4, relation="replace-one", sampling="fixed-batch", dataset_size=7,
                         batch_size=7), 0.5, width=1e-6)
    assert holds(answer, gaussian_profile(0.5, 2 * mpmath.sqrt(4), 3.0))


def test_below_dp_accountings_rdp_bound_at_its_convention():
    """Wang-Balle-Kasiviswanathan's RDP bound (dp_accounting) with the noise over the replace-one distance 2 is an
    upper bound of the same mechanism: symdp's certified lower end must not exceed it."""
    dpa = pytest.importorskip("dp_accounting")
    sd, k, n, b = 1.5, 200, 1000, 20
    event = dpa.SelfComposedDpEvent(dpa.SampledWithoutReplacementDpEvent(n, b, dpa.GaussianDpEvent(sd / 2)), k)
    rdp = dpa.rdp.RdpAccountant(neighboring_relation=dpa.NeighboringRelation.REPLACE_ONE).compose(event)
    answer = epsilon(dpsgd(None, sd, k, relation="replace-one", sampling="fixed-batch", dataset_size=n,
                           batch_size=b), 1e-5)
    assert answer.certified and answer.lower <= rdp.get_epsilon(1e-5)


def test_the_rate_is_rounded_up():
    law = fixed_batch_gaussian(1, 3, 1.0).pairs["replace-one"][0].factors[0][0]
    assert law.P.q >= mpmath.mpf(1) / 3 and law.P.q - mpmath.mpf(1) / 3 < mpmath.mpf(2) ** -50


@pytest.mark.parametrize("call, message", [
    (lambda: fixed_batch_gaussian(10, 100, 1.0, relation="add-or-remove"), "accounted under replace-one"),
    (lambda: fixed_batch_gaussian(10, 100, 1.0, relation="remove"), "accounted under replace-one"),
    (lambda: fixed_batch_gaussian(101, 100, 1.0), "batch size (101) must be at most the dataset size (100)"),
    (lambda: fixed_batch_gaussian(2.5, 100, 1.0), "the batch size must be an integer >= 1"),
    (lambda: fixed_batch_gaussian(10, 0, 1.0), "the dataset size must be an integer >= 1"),
    (lambda: fixed_batch_gaussian(10, 100, -1.0), "noise multiplier must be a positive number"),
    (lambda: dpsgd(0.1, 1.0, 5, relation="replace-one", sampling="fixed-batch"), "takes dataset_size and batch_size"),
    (lambda: dpsgd(0.1, 1.0, 5, dataset_size=10), "are for sampling='fixed-batch'"),
    (lambda: dpsgd(0.1, 1.0, 5, sampling="with-replacement"), "sampling with replacement is not accounted"),
])
def test_bad_input_is_named(call, message):
    with pytest.raises(InvalidParameter, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_a_symmetrised_laplace_pair_is_refused():
    from symdp.engine.continuous import Laplace
    from symdp.engine.divergences import divergence
    from symdp.engine.symmetrised import symmetrised

    P, Q = symmetrised(Laplace(1, 1), Laplace(0, 1))
    with pytest.raises(InvalidDistribution, match="loss has atoms"):
        divergence("hockey_stick", P, Q, 0.5, width=1e-3)


def test_cli_answers_fixed_batches_and_names_the_relation(capsys):
    from symdp.cli import main

    status = main(["dpsgd", "--sampling", "fixed-batch", "--dataset-size", "400", "--batch-size", "4",
                   "--noise-multiplier", "2", "--steps", "50", "--epsilon", "0.5", "--relation", "replace-one",
                   "--no-peers", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0 and out["certified"] and out["relation"] == "replace-one" and out["width_met"]
    assert out["width_reached"] == pytest.approx((float(out["upper"]) - float(out["lower"])) / float(out["upper"]),
                                                 rel=1e-6)
    assert float(out["lower"]) <= float(out["upper"]) and "Balle, Barthe, Gaboardi" in out["source"]


@pytest.mark.parametrize("argv, message", [
    (["--sampling", "fixed-batch", "--dataset-size", "400", "--batch-size", "4"], "accounted under replace-one"),
    (["--sampling", "fixed-batch", "--dataset-size", "400", "--batch-size", "4", "--sampling-rate", "0.1",
      "--relation", "replace-one"], "not --sampling-rate"),
    (["--sampling-rate", "0.1", "--batch-size", "4"], "not --dataset-size or --batch-size"),
])
def test_cli_refuses_with_the_reason(capsys, argv, message):
    from symdp.cli import main

    status = main(["dpsgd", *argv, "--noise-multiplier", "2", "--steps", "5", "--epsilon", "0.5", "--no-peers"])
    assert status == 2 and message in capsys.readouterr().err


def test_dp_accountings_fixed_batch_event_is_certified_under_replace_one_only():
    """``SampledWithoutReplacementDpEvent`` is the same mechanism as ``fixed_batch_gaussian``: one step holds the
    advanced-joint-convexity profile; add-or-remove is refused with the reason."""
    dpa = pytest.importorskip("dp_accounting")
    from symdp.interop import certify

    event = dpa.dp_event.SampledWithoutReplacementDpEvent(200, 20, dpa.GaussianDpEvent(1.5))
    found = certify(event, epsilon=0.4, relation="replace-one", width=1e-5)
    assert holds(found, one_step(0.4, mpmath.mpf(20) / 200, 1.5)) and found.relation == "replace-one"
    with pytest.raises(InvalidParameter, match="no add-or-remove pair: fixed-batch sampling is accounted under replace-one"):
        certify(event, epsilon=0.4)
    inner = dpa.dp_event.SampledWithoutReplacementDpEvent(200, 20, dpa.LaplaceDpEvent(1.5))
    with pytest.raises(InvalidParameter, match="a fixed batch of a LaplaceDpEvent is not accounted"):
        certify(inner, epsilon=0.4, relation="replace-one")


def test_the_claim_language_writes_the_pair_out_and_measures_it():
    from symdp.claims import evaluate_expression, parse_expression
    from symdp.errors import ClaimSyntaxError

    text = "dp_delta(fixed_batch_gaussian(25, 100, 1.2, 1, replace_one), 0.7)"
    assert "Symmetrised(Mix(1/4, Gaussian(0, 1.2" in str(parse_expression(text)).replace("6/5", "1.2")
    found = evaluate_expression(text, width=1e-5)
    assert found.certified and found.lower <= one_step(0.7, mpmath.mpf(1) / 4, 1.2) <= found.upper
    with pytest.raises(ClaimSyntaxError, match="accounted under replace-one"):
        parse_expression("dp_delta(fixed_batch_gaussian(25, 100, 1.2, 1, add_or_remove), 0.7)")
    with pytest.raises(ClaimSyntaxError, match="n of fixed_batch_gaussian must be an integer"):
        parse_expression("dp_delta(fixed_batch_gaussian(25, 100.5, 1.2, 1, replace_one), 0.7)")
