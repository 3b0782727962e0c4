"""Rényi curves and their conversions (symdp.rdp), against closed forms written here: the Gaussian's R_α = αΔ²/(2σ²)
(Mironov 2017, Prop. 7), the subsampled Gaussian's binomial sum at integer orders (Mironov, Talwar, Zhang 2019,
Thm. 5: E_Q[(1 − q + q e^{M})^α] with E_Q[e^{jM}] = e^{(j² − j)/(2σ²)}), and the conversions' own formulas."""

import mpmath
import pytest

from symdp.errors import InvalidParameter
from symdp.mechanisms import epsilon, gaussian, poisson_gaussian
from symdp.rdp import adjudicate, delta_from_rdp, epsilon_from_rdp, renyi_curve, zcdp_curve


def gaussian_rdp(alpha, shift, sd, steps):
    return mpmath.mpf(str(alpha)) * steps * mpmath.mpf(shift) ** 2 / (2 * mpmath.mpf(str(sd)) ** 2)


def subsampled_rdp(alpha: int, q, sd, steps):
    """R_α of mix(q, N(0, σ), N(1, σ)) against N(0, σ), k steps, at an integer order (remove), to 80 digits (20
    beyond symdp's working precision, so that its own rounding stays inside symdp's bracket), for q and σ as symdp
    holds them: the decimals rounded to the working precision."""
    q, sd = mpmath.mpf(str(q)), mpmath.mpf(str(sd))
    with mpmath.workdps(80):
        moment = mpmath.fsum(mpmath.binomial(alpha, j) * (1 - q) ** (alpha - j) * q ** j
                             * mpmath.exp((j * j - j) / (2 * sd ** 2)) for j in range(alpha + 1))
        return steps * mpmath.log(moment) / (alpha - 1)


def within(curve, references):
    return all(lo <= r <= hi for lo, hi, r in zip(curve.lower, curve.upper, references))


@pytest.mark.parametrize("relation, shift", [("add-or-remove", 1), ("replace-one", 2)])
def test_the_gaussian_curve_is_linear_in_the_order(relation, shift):
    orders = [1.5, 2, 3.25, 10]
    curve = renyi_curve(gaussian(2.0, relation=relation).composed(7), orders)
    assert curve.certified and curve.relation == relation
    assert within(curve, [gaussian_rdp(a, shift, 2.0, 7) for a in orders])


@pytest.mark.parametrize("q, sd, steps", [(0.01, 1.0, 1000), (0.2, 2.0, 50)])
def test_the_subsampled_gaussian_curve_is_the_binomial_sum_and_remove_decides_it(q, sd, steps):
    orders = [2, 3, 5, 8]
    curve = renyi_curve(poisson_gaussian(q, sd).composed(steps), orders)
    assert curve.certified and within(curve, [subsampled_rdp(a, q, sd, steps) for a in orders])
    assert set(curve.decided_by) == {"remove"}          # R_α(mix‖N) ≥ R_α(N‖mix) at these orders


def test_conversions_are_their_formulas_and_cks_is_the_tighter():
    orders, taus, delta = [2, 4, 16], [0.2, 0.5, 3.0], mpmath.mpf("1e-6")
    mironov = min(mpmath.mpf(t) + mpmath.log(1 / delta) / (a - 1) for a, t in zip(orders, map(str, taus)))
    cks = min(mpmath.mpf(t) + mpmath.log(mpmath.mpf(a - 1) / a) - (mpmath.log(delta) + mpmath.log(a)) / (a - 1)
              for a, t in zip(orders, map(str, taus)))
    eps_m, _ = epsilon_from_rdp(orders, taus, "1e-6", conversion="mironov")
    eps_c, _ = epsilon_from_rdp(orders, taus, "1e-6")
    assert mironov <= eps_m <= mironov * (1 + mpmath.mpf("1e-40")) and cks <= eps_c <= cks * (1 + mpmath.mpf("1e-40"))
    assert eps_c < eps_m
    found, order = delta_from_rdp(orders, taus, eps_c)       # back to δ at the ε found: the δ asked, at that order
    assert abs(found - delta) <= delta * mpmath.mpf("1e-30") and order == 16


def test_an_rdp_epsilon_is_never_below_the_certified_pld_bracket():
    m = poisson_gaussian(0.01, 1.0).composed(1000)
    orders = [1.25, 1.5, 2, 3, 4, 6, 8, 12, 16, 32]
    rdp_eps, _ = epsilon_from_rdp(orders, renyi_curve(m, orders).upper, 1e-5)
    exact = epsilon(m, 1e-5, width=1e-3)
    assert exact.certified and rdp_eps > exact.upper         # RDP's conversion is an upper bound, and a loose one


def test_a_table_is_adjudicated_against_the_certified_curve():
    orders = [2, 3]
    curve = renyi_curve(gaussian(1.0).composed(3), orders)
    exact = [gaussian_rdp(a, 1, 1.0, 3) for a in orders]
    assert adjudicate(curve, exact) == ["inside", "inside"]
    assert adjudicate(curve, [exact[0] * (1 - mpmath.mpf("1e-9")), exact[1] * (1 + mpmath.mpf("1e-9"))]) == \
        ["underestimate", "pessimistic"]


def test_zcdp_is_the_linear_curve():
    orders, taus = zcdp_curve(0.5, [2, 4])
    assert [float(t) for t in taus] == [1.0, 2.0]


@pytest.mark.parametrize("call, problem", [
    (lambda: renyi_curve(gaussian(1.0), [1]), "a Rényi order must be a finite number > 1"),
    (lambda: renyi_curve(gaussian(1.0), []), "orders must be a non-empty list"),
    (lambda: epsilon_from_rdp([2, 3], [0.1], 1e-5), "one τ per order"),
    (lambda: epsilon_from_rdp([2], [0.1], 1.5), "delta must lie in (0, 1)"),
    (lambda: epsilon_from_rdp([2], [0.1], 1e-5, conversion="bun"), "unknown conversion 'bun'"),
    (lambda: zcdp_curve(-1, [2]), "rho of zCDP must be a finite number >= 0"),
])
def test_bad_input_is_one_error_naming_it(call, problem):
    with pytest.raises(InvalidParameter) as err:
        call()
    assert problem in str(err.value)


def test_dp_accountings_rdp_curve_is_adjudicated():
    dpa = pytest.importorskip("dp_accounting")
    orders = [1.5, 2, 4]
    accountant = dpa.rdp.RdpAccountant(orders).compose(
        dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 1000))
    curve = renyi_curve(poisson_gaussian(0.01, 1.0).composed(1000), orders)
    verdicts = adjudicate(curve, list(accountant._rdp))
    # its fractional order is a bound (Mironov, Talwar, Zhang 2019, Sec. 3.3), 4% above the truth: pessimistic
    assert verdicts[0] == "pessimistic" and "underestimate" not in verdicts
