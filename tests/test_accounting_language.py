"""The accounting names of the claim language: compose, product, the laws on the integers, randomized response and
epsilon_for; integer parameters; bad input; values against references computed here (binomial sums, the Gaussian
closed form), never symdp's own output."""

import mpmath
import pytest
import sympy as sp

from symdp.claims import claim_theorem, evaluate_expression, parse_claim, parse_expression
from symdp.errors import InvalidParameter, SymdpError
from symdp.plugin import check


def latex(text: str) -> str:
    return sp.latex(parse_expression(text))


# --- parsing and printing -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, printed", [
    ("kl(compose(3, gaussian(0, 1)), compose(3, gaussian(1, 1)))",
     r"D_{\mathrm{KL}}\left({\mathcal{N}\left(0, 1\right)}^{\otimes 3} \,\middle\|\, "
     r"{\mathcal{N}\left(1, 1\right)}^{\otimes 3}\right)"),
    ("tv(product(gaussian(0, 1), laplace(0, 2)), product(gaussian(1, 1), laplace(1, 2)))",
     r"\mathrm{TV}\left(\mathcal{N}\left(0, 1\right) \otimes \mathrm{Lap}\left(0, 2\right), "
     r"\mathcal{N}\left(1, 1\right) \otimes \mathrm{Lap}\left(1, 2\right)\right)"),
    ("kl(discrete_laplace(0, 2), discrete_laplace(1, 2))",
     r"D_{\mathrm{KL}}\left(\mathrm{Lap}_{\mathbb{Z}}\left(0, 2\right) \,\middle\|\, "
     r"\mathrm{Lap}_{\mathbb{Z}}\left(1, 2\right)\right)"),
    ("kl(discrete_gaussian(0, 3), discrete_gaussian(1, 3))",
     r"D_{\mathrm{KL}}\left(\mathcal{N}_{\mathbb{Z}}\left(0, 9\right) \,\middle\|\, "
     r"\mathcal{N}_{\mathbb{Z}}\left(1, 9\right)\right)"),
    ("tv(randomized_response(4, 1, 0), randomized_response(4, 1, 3))",
     r"\mathrm{TV}\left(\mathrm{RR}_{4, 1}\left(0\right), \mathrm{RR}_{4, 1}\left(3\right)\right)"),
    ("hockey_stick(compose(2, mix(q, gaussian(0, 1), gaussian(1, 1))), compose(2, gaussian(0, 1)), 1)",
     r"D_{e^{1}}\left({\left(\left(1 - q\right) \mathcal{N}\left(0, 1\right) + q \mathcal{N}\left(1, 1\right)\right)}"
     r"^{\otimes 2} \,\middle\|\, {\mathcal{N}\left(0, 1\right)}^{\otimes 2}\right)"),
    ("epsilon_for(0.25, gaussian(0, 1), gaussian(1, 1))",
     r"\varepsilon_{\mathcal{N}\left(0, 1\right) \| \mathcal{N}\left(1, 1\right)}\left(\frac{1}{4}\right)"),
])
def test_every_new_name_parses_and_prints_as_papers_write_it(text, printed):
    assert latex(text) == printed


def test_epsilon_for_stands_on_either_side_and_inside_max():
    relation = parse_claim("Max(epsilon_for(d, compose(k, laplace(0, 1)), compose(k, laplace(1, 1))), 1) >= 1")
    assert relation.lhs.func is sp.Max
    swapped = parse_claim("1 <= epsilon_for(d, gaussian(0, 1), gaussian(1, 1))")
    assert type(swapped.rhs).__name__ == "EpsilonFor" and swapped.rhs.args[2] == sp.Symbol("d", real=True)


# --- integer parameters -------------------------------------------------------------------------------------------


def test_a_parameter_typed_where_an_integer_is_required_is_drawn_as_an_integer():
    # KL of binary randomized response at eps is eps*tanh(eps/2), added over k rounds
    claim = claim_theorem("kl(compose(k, randomized_response(2, 1, 0)), compose(k, randomized_response(2, 1, 1)))"
                          " == k*tanh(1/2)", "k in [1, 5]")
    (k,) = claim.parameters
    assert k.integer and k.domain == sp.Range(1, 6)
    assert [c["k"] for c in claim.examples] == [1, 5] and all(type(c["k"]) is int for c in claim.examples)
    report = check(claim, examples=6)
    assert report.verdict == "holds"
    drawn = [d.point["k"] for d in report.draws]
    assert drawn and all(type(v) is int and 1 <= v <= 5 for v in drawn)


def test_randomized_response_positions_and_discrete_locations_are_integer_parameters():
    claim = claim_theorem("tv(randomized_response(m, 1, i), randomized_response(m, 1, 0)) <= 1 + 0*c"
                          " + 0*kl(discrete_laplace(c, 1), discrete_laplace(0, 1))",
                          "m in [2.5, 4], i in [0, 1], c in [-1.5, 1]")
    kinds = {p.name: (p.integer, p.domain) for p in claim.parameters}
    assert kinds == {"m": (True, sp.Range(3, 5)), "i": (True, sp.Range(0, 2)), "c": (True, sp.Range(-1, 2))}


def test_an_expression_at_an_integer_position_is_real_and_the_engine_refuses_a_fraction():
    claim = claim_theorem("kl(compose(2*k, gaussian(0, 1)), compose(2*k, gaussian(1, 1))) <= k", "k in [1, 2]")
    assert not claim.parameters[0].integer
    with pytest.raises(SymdpError, match="integer"):
        evaluate_expression("kl(compose(2*0.75, gaussian(0, 1)), compose(2*0.75, gaussian(1, 1)))")


@pytest.mark.parametrize("claim, where, fragment", [
    ("kl(compose(k, gaussian(0, 1)), compose(k, gaussian(1, 1))) <= k", "k in [1.2, 1.8]",
     "the range of k holds no integer, but k is argument 1 of compose"),
    ("kl(compose(k, gaussian(0, 1)), compose(k, gaussian(1, 1))) <= k", "k = 2.5",
     "k is argument 1 of compose, an integer, but is given the value 5/2"),
])
def test_integer_parameters_refuse_ranges_without_integers(claim, where, fragment):
    with pytest.raises(SymdpError) as info:
        claim_theorem(claim, where)
    assert fragment in str(info.value) and "\n" not in str(info.value)


# --- bad input: one line that names the problem -------------------------------------------------------------------


@pytest.mark.parametrize("text, fragment", [
    ("kl(compose(0, gaussian(0, 1)), compose(0, gaussian(1, 1)))", "k of compose must be an integer >= 1"),
    ("kl(compose(2.5, gaussian(0, 1)), compose(2.5, gaussian(1, 1)))", "argument 1 of compose must be an integer"),
    ("kl(mix(1.5, gaussian(0, 1), gaussian(1, 1)), gaussian(0, 1))", "q must lie in [0, 1]"),
    ("kl(mix(-0.1, finite(0.5, 0.5), finite(1, 0)), finite(0.5, 0.5))", "q must lie in [0, 1]"),
    ("kl(discrete_gaussian(0, 0), discrete_gaussian(1, 1))", "positive"),
    ("kl(discrete_gaussian(0, 1), discrete_gaussian(1, -1))", "positive"),
    ("kl(discrete_laplace(0, -2), discrete_laplace(1, 1))", "positive"),
    ("kl(discrete_laplace(0.5, 1), discrete_laplace(1, 1))", "argument 1 of discrete_laplace must be an integer"),
    ("tv(randomized_response(2, -1, 0), randomized_response(2, -1, 1))", "eps"),
    ("tv(randomized_response(2, 1, 2), randomized_response(2, 1, 1))", "i"),
    ("tv(randomized_response(2, 1, -1), randomized_response(2, 1, 1))", "i"),
    ("tv(randomized_response(0, 1, 0), randomized_response(0, 1, 0))", "k"),
    ("epsilon_for(0, compose(2, finite(0.75, 0.25)), compose(2, finite(0.25, 0.75)))", "must lie in (0, 1), got 0"),
    ("epsilon_for(1, compose(2, finite(0.75, 0.25)), compose(2, finite(0.25, 0.75)))", "must lie in (0, 1), got 1"),
    ("kl(compose(2, finite(0.5, 0.5)), compose(2, gaussian(0, 1)))",
     "kl compares two laws on one space, got a product of finite distributions and a product of continuous"),
    ("kl(finite(0.5, 0.5), discrete_laplace(0, 1))",
     "kl compares two laws on one space, got a finite distribution and a law on the integers"),
    ("tv(compose(2, gaussian(0, 1)), gaussian(0, 1))",
     "got a product of continuous distributions and a continuous distribution"),
    ("kl(product(), gaussian(0, 1))", "product takes at least 1 argument, got 0"),
    ("kl(product(compose(2, gaussian(0, 1)), finite(1, 0)), compose(3, gaussian(0, 1)))",
     "got a product of mixed laws and a product of continuous distributions"),
    ("kl(compose(2, 3), compose(2, gaussian(0, 1)))", "argument 2 of compose must be a distribution"),
])
def test_bad_input_is_one_line_that_names_the_problem(text, fragment):
    with pytest.raises(SymdpError) as info:
        evaluate_expression(text)
    message = str(info.value)
    assert fragment in message and "\n" not in message


# --- values against references written here -----------------------------------------------------------------------


def binary_rr_delta(k: int, eps0, eps):
    """δ(ε) of k-fold binary randomized response at ε0: Σ_j C(k, j) p^j (1-p)^(k-j) (1 - e^{ε - (2j - k) ε0})_+,
    p = e^ε0/(1 + e^ε0)."""
    p = mpmath.exp(eps0) / (1 + mpmath.exp(eps0))
    return mpmath.fsum(mpmath.binomial(k, j) * p**j * (1 - p)**(k - j)
                       * max(0, 1 - mpmath.exp(eps - (2 * j - k) * eps0)) for j in range(k + 1))


@pytest.mark.parametrize("k", [1, 7, 40])
def test_a_claim_on_composed_randomized_response_against_the_binomial_sum(k):
    with mpmath.workdps(70):
        exact = binary_rr_delta(k, mpmath.mpf(1), mpmath.mpf("0.5"))
        above, below = (mpmath.nstr(exact * (1 + s * mpmath.mpf(10)**-12), 65) for s in (1, -1))
    pair = f"compose({k}, randomized_response(2, 1, 0)), compose({k}, randomized_response(2, 1, 1))"
    assert check(claim_theorem(f"hockey_stick({pair}, 0.5) == {mpmath.nstr(exact, 65)}")).verdict == "holds"
    holds = check(claim_theorem(f"hockey_stick({pair}, 0.5) <= {above}"))
    assert holds.verdict == "holds" and holds.certified
    assert check(claim_theorem(f"hockey_stick({pair}, 0.5) <= {below}")).verdict == "violated"
    r = evaluate_expression(f"hockey_stick({pair}, 0.5)")
    assert r.certified and r.lower <= exact <= r.upper


def bisect(f, low, high, steps=200):
    """The root of a decreasing f on [low, high] by bisection (no symdp involved)."""
    for _ in range(steps):
        middle = (low + high) / 2
        low, high = (middle, high) if f(middle) > 0 else (low, middle)
    return (low + high) / 2


def test_epsilon_for_of_composed_randomized_response_is_the_root_of_the_binomial_sum():
    k, delta = 12, mpmath.mpf("1e-3")
    with mpmath.workdps(70):   # δ(ε) is continuous and decreasing: its root by bisection, no symdp involved
        root = bisect(lambda e: binary_rr_delta(k, 1, e) - delta, mpmath.mpf(0), mpmath.mpf(k))
    r = evaluate_expression(f"epsilon_for(1e-3, compose({k}, randomized_response(2, 1, 0)), "
                            f"compose({k}, randomized_response(2, 1, 1)))")
    assert r.certified and r.lower <= root <= r.upper and r.upper - r.lower < mpmath.mpf(10)**-40


def test_epsilon_for_is_zero_where_delta_exceeds_delta_at_zero():
    with mpmath.workdps(60):
        at_zero = binary_rr_delta(3, 1, 0)      # δ(0) = TV = 0.53...; any larger δ is met by every ε >= 0
    assert at_zero < mpmath.mpf("0.9")
    r = evaluate_expression("epsilon_for(0.9, compose(3, randomized_response(2, 1, 0)), "
                            "compose(3, randomized_response(2, 1, 1)))")
    assert r.value == 0 and r.lower == 0 and r.upper < mpmath.mpf(10)**-45   # the upper end: rounding of the laws
    assert check(claim_theorem("Max(epsilon_for(0.9, compose(3, randomized_response(2, 1, 0)), "
                               "compose(3, randomized_response(2, 1, 1))), 1) == 1")).verdict == "holds"


def gaussian_delta(mu, eps):
    """δ(ε) of N(μ, 1) against N(0, 1): Φ(-ε/μ + μ/2) - e^ε Φ(-ε/μ - μ/2)."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def gaussian_epsilon(k: int, delta: str):
    """ε(δ) of k composed Gaussian pairs N(0, 1), N(1, 1): the root of the closed form at μ = sqrt(k), by bisection."""
    with mpmath.workdps(60):
        mu = mpmath.sqrt(k)           # k coordinates shifted by 1: one pair shifted by sqrt(k)
        return bisect(lambda e: gaussian_delta(mu, e) - mpmath.mpf(delta), mpmath.mpf(0), 10 * mu + 10)


@pytest.mark.parametrize("k, delta", [(1, "1e-5"), (10, "1e-3")])
def test_epsilon_for_of_composed_gaussians_holds_the_root_of_the_closed_form(k, delta):
    root = gaussian_epsilon(k, delta)
    r = evaluate_expression(f"epsilon_for({delta}, compose({k}, gaussian(0, 1)), compose({k}, gaussian(1, 1)))")
    assert r.certified and r.lower <= root <= r.upper


@pytest.mark.parametrize("k, delta", [(1, "1e-5"), (10, "1e-3")])
def test_epsilon_for_of_composed_gaussians_reaches_the_width_asked(k, delta):
    root = gaussian_epsilon(k, delta)
    r = evaluate_expression(f"epsilon_for({delta}, compose({k}, gaussian(0, 1)), compose({k}, gaussian(1, 1)))",
                            width=1e-6)
    assert r.lower <= root <= r.upper and r.upper - r.lower <= 1e-6 * root


# --- mechanisms under their neighbouring relation -------------------------------------------------------------------


def gaussian_delta(mu, eps):
    """δ(ε) of N(μ, 1) against N(0, 1): Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle and Wang 2018, Thm. 8)."""
    return mpmath.ncdf(-eps / mu + mu / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / mu - mu / 2)


def test_a_mechanism_stands_for_its_dominating_pairs_written_out():
    both = parse_expression("dp_delta(poisson_gaussian(q, 1, 10, add_or_remove), 1)")
    assert isinstance(both, sp.Max) and len(both.args) == 2          # the remove and the add pair, both printed
    replaced = parse_expression("dp_epsilon(poisson_gaussian(q, 1, 10, replace_one), 1e-5)")
    assert str(replaced) == "EpsilonFor(Compose(10, Mix(q, Gaussian(0, 1), Gaussian(1, 1))), " \
        "Compose(10, Mix(q, Gaussian(0, 1), Gaussian(-1, 1))), 1/100000)"
    assert str(parse_expression("dp_delta(gaussian_mechanism(2, k, replace_one), 1)")) == \
        "HockeyStick(Compose(k, Gaussian(0, 2)), Compose(k, Gaussian(2, 2)), 1)"


@pytest.mark.parametrize("relation, shift", [("add_or_remove", 1), ("add", 1), ("remove", 1), ("replace_one", 2)])
def test_the_gaussian_mechanism_under_each_relation_is_its_closed_form(relation, shift):
    r = evaluate_expression(f"dp_delta(gaussian_mechanism(2, 8, {relation}), 0.5)")
    reference = gaussian_delta(shift * mpmath.sqrt(8) / 2, mpmath.mpf("0.5"))
    assert r.certified and r.lower <= reference <= r.upper


def test_add_or_remove_is_the_larger_of_add_and_remove():
    found = {rel: evaluate_expression(f"dp_delta(poisson_gaussian(0.1, 1, 5, {rel}), 0.2)", width=1e-3)
             for rel in ("add", "remove", "add_or_remove")}
    assert all(r.certified for r in found.values())
    top = max(found["add"], found["remove"], key=lambda r: r.upper)
    assert found["add_or_remove"].lower >= top.lower * (1 - mpmath.mpf("1e-3"))
    assert found["add_or_remove"].upper <= top.upper * (1 + mpmath.mpf("1e-3"))


@pytest.mark.parametrize("text, fragment", [
    ("dp_delta(poisson_gaussian(0.1, 1, 5, swap), 1)", "the last argument of poisson_gaussian is the neighbouring "
                                                        "relation: one of add_or_remove, add, remove, replace_one"),
    ("dp_delta(gaussian(0, 1), 1)", "argument 1 of dp_delta must be a mechanism"),
    ("poisson_gaussian(0.1, 1, 5, add) + 1", "is a mechanism, used here as a number"),
    ("dp_delta(poisson_gaussian(0.1, 1, 5.5, add), 1)", "k of poisson_gaussian must be an integer"),
    ("dp_delta(gaussian_mechanism(1, 5, add), 1, 2)", "dp_delta takes 2 arguments"),
])
def test_bad_mechanisms_are_one_line_errors(text, fragment):
    with pytest.raises(SymdpError) as err:
        parse_expression(text)
    assert fragment in str(err.value)
