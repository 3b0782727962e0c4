"""The continuous-divergence engine against closed forms, published reference values and independent integrals.

Every expected number here comes from somewhere other than the code under test: a closed form (symdp.engine.closed_forms,
itself pinned to the catalogue below), ../shared/catalogue/catalogue-balle.md, the binomial expansion of the
sampled Gaussian mechanism's Rényi integral, or an integral written out from eq. (6) of Balle et al. 2019 and done
at much higher precision with hand-placed breakpoints.
"""

import mpmath
import pytest
from hypothesis import example, given, settings, strategies as st

from symdp.engine import closed_forms as cf
from symdp.engine import divergences, quadrature as qd
from symdp.engine.continuous import ContinuousDistribution, Gaussian, Lap2, Laplace, Mixture, Tail
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.engine.finite import FiniteDistribution

DPS = 50
SMALL = mpmath.mpf(10) ** -30   # the reported error of a 50-digit quadrature must be below this


@pytest.fixture(autouse=True)
def fifty_digits():
    with mpmath.workdps(DPS):
        yield


def mp(x):
    """A drawn float as the decimal it prints as (what the distributions do with it)."""
    return mpmath.mpf(repr(x))


def agree(numeric, reference, reference_error=0):
    """The numeric estimate contains the reference, and claims a small error."""
    assert numeric.error < SMALL, numeric
    assert abs(numeric.value - reference) <= numeric.error + reference_error, (numeric, reference)


means = st.floats(-2, 2, allow_nan=False)
sds = st.floats(0.4, 2.5, allow_nan=False)
scales = st.floats(0.3, 3, allow_nan=False)
orders = st.floats(1.05, 25, allow_nan=False)
epsilons = st.floats(-3, 3, allow_nan=False)
quick = settings(max_examples=3, deadline=None)


# --- Gaussian pairs: quadrature against the closed forms --------------------------------------------------------


@quick
@given(means, sds, sds)
@example(1.0, 1.0, 1.0)
def test_gaussian_kl(m, s1, s2):
    est = qd.kl(Gaussian(m, s1), Gaussian(0, s2), method="quadrature")
    agree(est, cf.gaussian_kl(mp(m), mp(s1), 0, mp(s2)))


@quick
@given(means, sds, sds, orders)
@example(0.4, 0.9, 0.9, 3.7)
@example(1.0, 1.0, 1.0, 300.0)    # the integrand's peak sits near (1 - alpha) * Delta = -299
def test_gaussian_renyi(m, s1, s2, a):
    s_a2 = mp(a) * mp(s2) ** 2 + (1 - mp(a)) * mp(s1) ** 2
    est = qd.renyi(Gaussian(m, s1), Gaussian(0, s2), a, method="quadrature")
    exact = cf.gaussian_renyi(mp(m), mp(s1), 0, mp(s2), mp(a))
    if s_a2 <= 0:
        assert est.value == exact == mpmath.inf
    else:
        agree(est, exact, 10 * SMALL * abs(exact))


@quick
@given(means.filter(lambda m: abs(m) > 0.05), sds, epsilons)
@example(1.0, 1.0, 0.0)
@example(-1.0, 1.0, 12.0)         # far tail: HS ~ 1e-23, where an unshifted integrand would be "converged" at 0
def test_gaussian_hockey_stick(m, s, eps):
    est = qd.hockey_stick(Gaussian(m, s), Gaussian(0, s), eps, method="quadrature")
    agree(est, cf.gaussian_hockey_stick(mp(m), mp(s), mp(eps)))


def test_gaussian_hockey_stick_keeps_relative_precision_deep_in_the_tail():
    exact = cf.gaussian_hockey_stick(1, 1, 20)
    est = qd.hockey_stick(Gaussian(1, 1), Gaussian(0, 1), 20, method="quadrature")
    assert 0 < exact < mpmath.mpf(10) ** -80
    assert abs(est.value / exact - 1) < mpmath.mpf(10) ** -40


@quick
@given(means, sds)
def test_gaussian_tv(m, s):
    agree(qd.tv(Gaussian(m, s), Gaussian(0, s), method="quadrature"), cf.gaussian_tv(mp(m), mp(s)))


@settings(max_examples=6, deadline=None)
@given(means, sds, sds)
def test_gaussian_max_divergence(m, s1, s2):
    est = qd.max_divergence(Gaussian(m, s1), Gaussian(0, s2), method="quadrature")
    exact = cf.gaussian_max_divergence(mp(m), mp(s1), 0, mp(s2))
    if mpmath.isinf(exact):
        assert est.value == mpmath.inf
    else:
        agree(est, exact)


def test_gaussian_pairs_with_equal_sd_have_infinite_max_divergence_unless_equal():
    assert qd.max_divergence(Gaussian(0, 1), Gaussian(1, 1)).value == mpmath.inf
    assert qd.max_divergence(Gaussian(0, 1), Gaussian(1, 1), method="quadrature").value == mpmath.inf
    assert qd.max_divergence(Gaussian(0, 1), Gaussian(0, 1), method="quadrature").value == 0
    # The subsampled Gaussian: the mixture's log-ratio grows linearly on the right.
    assert qd.max_divergence(Mixture(0.1, Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1)).value == mpmath.inf


# --- Laplace pairs ----------------------------------------------------------------------------------------------


@quick
@given(means, scales)
def test_laplace_kl(d, lam):
    agree(qd.kl(Laplace(d, lam), Laplace(0, lam), method="quadrature"), cf.laplace_kl(mp(d), mp(lam)))


@quick
@given(means, scales, orders)
@example(1.0, 1.0, 2.0)
def test_laplace_renyi(d, lam, a):
    exact = cf.laplace_renyi(mp(d), mp(lam), mp(a))
    agree(qd.renyi(Laplace(d, lam), Laplace(0, lam), a, method="quadrature"), exact, 10 * SMALL * exact)


@quick
@given(means, scales, epsilons)
@example(1.0, 1.0, 1.0)           # eps = Delta/lambda: the loss equals eps on a whole half-line
@example(1.0, 1.0, -1.0)
def test_laplace_hockey_stick(d, lam, eps):
    exact = cf.laplace_hockey_stick(mp(d), mp(lam), mp(eps))
    agree(qd.hockey_stick(Laplace(d, lam), Laplace(0, lam), eps, method="quadrature"), exact)


def test_laplace_tv_and_max_divergence():
    agree(qd.tv(Laplace(0, 1), Laplace(2, 1), method="quadrature"), cf.laplace_tv(2, 1))
    agree(qd.max_divergence(Laplace(0, 0.5), Laplace(1.5, 0.5), method="quadrature"), mpmath.mpf(3))
    assert qd.max_divergence(Laplace(0, 0.5), Laplace(1.5, 0.5)).method == "closed form"


def test_closed_forms_are_used_when_the_pair_matches_and_certified_enclosures_otherwise():
    assert qd.renyi(Gaussian(0, 1), Gaussian(1, 2), 2).method == "closed form"
    assert qd.renyi(Laplace(0, 1).shifted(1), Laplace(0, 1), 2).method == "closed form"   # shifts are folded
    assert qd.hockey_stick(Gaussian(0, 1), Gaussian(1, 2), 0).method == "certified"      # unequal sd: no form
    assert qd.kl(Laplace(0, 1), Laplace(1, 2)).method == "certified"
    assert qd.kl(Laplace(0, 1), Laplace(1, 2), method="quadrature").method == "quadrature"
    assert qd.max_divergence(Lap2(0, 1, 2), Lap2(1, 1, 2), method="quadrature").method == "sup search"
    assert qd.max_divergence(Lap2(0, 1, 2), Lap2(1, 1, 2), method="certified").certified   # since issue 15
    with pytest.raises(InvalidParameter, match="no certified route"):
        qd.max_divergence(Logistic(), Logistic().shifted(1), method="certified")   # no ball arithmetic
    with pytest.raises(InvalidParameter, match="no closed form"):
        qd.kl(Lap2(0, 1, 2), Lap2(1, 1, 2), method="closed form")


# --- reference values from the catalogue ------------------------------------------------------------------------


@pytest.mark.parametrize("alpha, delta, lam1, lam2, reference", [
    # catalogue-balle.md, balle19.ex2 ("exact R_alpha" column, mpmath 30 digits, printed to 12 significant digits)
    ("2", "1", "1", "1", "0.271716394596"),
    ("4", "1", "1", "2", "0.214903840704"),
    ("1.5", "2", "0.5", "0.8", "1.46744139122"),
    ("30", "1", "1", "1", "0.741709162597"),
])
def test_lap2_renyi_against_catalogue(alpha, delta, lam1, lam2, reference):
    est = qd.renyi(Lap2(delta, lam1, lam2), Lap2(0, lam1, lam2), alpha, method="quadrature")
    assert est.method == "quadrature" and est.error < SMALL
    half_unit = mpmath.mpf(10) ** (mpmath.floor(mpmath.log10(mpmath.mpf(reference))) - 11) / 2
    assert abs(est.value - mpmath.mpf(reference)) <= half_unit


@pytest.mark.parametrize("alpha, delta, lam, reference, digits", [
    # catalogue-balle.md, balle19.fact.laplace-rdp. The first value is correct to 16 digits only: the closed form
    # log(2/3 e + 1/3 e^-2) and split quadrature at 40 digits both give 0.61912362999859288340.
    ("2", "1", "1", "0.619123629998592828", 16),
    ("5.5", "0.3", "0.7", "0.298207282602136319", 18),
])
def test_laplace_renyi_against_catalogue(alpha, delta, lam, reference, digits):
    tolerance = mpmath.mpf(10) ** -digits
    for method in ("closed form", "quadrature"):
        est = qd.renyi(Laplace(delta, lam), Laplace(0, lam), alpha, method=method)
        assert abs(est.value - mpmath.mpf(reference)) < tolerance


def test_gaussian_rdp_against_catalogue():
    # catalogue-balle.md, balle19.fact.gauss-rdp: alpha = 3.7, Delta = 0.4, s = 0.9 -> 0.36543209876543209877
    for method in ("closed form", "quadrature"):
        est = qd.renyi(Gaussian("0.4", "0.9"), Gaussian(0, "0.9"), "3.7", method=method)
        assert abs(est.value - mpmath.mpf("0.36543209876543209877")) < mpmath.mpf(10) ** -20


# --- independent integrals --------------------------------------------------------------------------------------


def lap2_eq6(x, lam1, lam2):
    """Balle et al. 2019, eq. (6), as printed (both branches): independent of Lap2.logpdf's rewritten form."""
    a = abs(x)
    if lam1 == lam2:
        return mpmath.exp(-a / lam1) * (lam1 + a) / (4 * lam1**2)
    return (lam1 * mpmath.exp(-a / lam1) - lam2 * mpmath.exp(-a / lam2)) / (2 * (lam1**2 - lam2**2))


@pytest.mark.parametrize("delta, lam1, lam2", [("1", "1", "2"), ("0.5", "1", "1")])
def test_lap2_kl_against_a_written_out_integral_at_90_digits(delta, lam1, lam2):
    est = qd.kl(Lap2(delta, lam1, lam2), Lap2(0, lam1, lam2))
    with mpmath.workdps(90):
        d, l1, l2 = mpmath.mpf(delta), mpmath.mpf(lam1), mpmath.mpf(lam2)
        lam = max(l1, l2)

        def f(x):
            p, q = lap2_eq6(x - d, l1, l2), lap2_eq6(x, l1, l2)
            return p * mpmath.log(p / q)

        # Breakpoints by hand: the two kinks and a geometric ladder of scales out to where e^-x/lam < 1e-69.
        ladder = [k * lam for k in (1, 2, 5, 10, 20, 40, 80, 160)]
        points = sorted({mpmath.mpf(0), d} | {-x for x in ladder} | {d + x for x in ladder})
        reference = mpmath.quad(f, [-mpmath.inf] + points + [mpmath.inf])
    agree(est, reference, mpmath.mpf(10) ** -60)


def test_unsplit_quadrature_of_a_kinked_integrand_loses_digits_that_splitting_keeps():
    # The Laplace Renyi integrand p^a q^(1-a) has kinks at both locations.
    P, Q, a = Laplace(1, 1), Laplace(0, 1), mpmath.mpf(2)
    exact = cf.laplace_renyi(1, 1, 2)

    def f(x):
        return mpmath.exp(a * P.logpdf(x) + (1 - a) * Q.logpdf(x))

    def renyi_from(points):
        return mpmath.log(mpmath.quad(f, points)) / (a - 1)

    unsplit = abs(renyi_from([-mpmath.inf, mpmath.inf]) - exact)
    split = abs(renyi_from([-mpmath.inf, 0, 1, mpmath.inf]) - exact)
    assert unsplit > mpmath.mpf(10) ** -10      # a handful of digits, at any precision
    assert split < mpmath.mpf(10) ** -45
    agree(qd.renyi(P, Q, a, method="quadrature"), exact)


def sampled_gaussian_renyi(q, sigma, alpha: int):
    """Mironov, Talwar & Zhang 2019 (RDP of the sampled Gaussian mechanism), integer alpha: the Renyi integral of
    (1-q)N(0,s) + qN(1,s) against N(0,s) is sum_k C(alpha,k) (1-q)^(alpha-k) q^k exp((k^2 - k)/(2 s^2))."""
    terms = [mpmath.binomial(alpha, k) * (1 - q) ** (alpha - k) * q**k * mpmath.exp((k * k - k) / (2 * sigma**2))
             for k in range(alpha + 1)]
    return mpmath.log(mpmath.fsum(terms)) / (alpha - 1)


@pytest.mark.parametrize("q, sigma, alpha", [("0.1", "1", 200), ("0.05", "0.7", 64)])
def test_subsampled_gaussian_at_large_order_needs_and_gets_a_breakpoint_at_the_peak(q, sigma, alpha):
    q, sigma = mpmath.mpf(q), mpmath.mpf(sigma)
    P, Q = Mixture(q, Gaussian(0, sigma), Gaussian(1, sigma)), Gaussian(0, sigma)
    reference = sampled_gaussian_renyi(q, sigma, alpha)

    def f(x):
        return mpmath.exp(alpha * P.logpdf(x) + (1 - alpha) * Q.logpdf(x))

    # Split only at the two centres, the integrand's peak (far to the right) is unresolved: digits silently go.
    naive = mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, 1, mpmath.inf])) / (alpha - 1)
    assert abs(naive - reference) > mpmath.mpf(10) ** -8
    est = qd.renyi(P, Q, alpha, method="quadrature")
    agree(est, reference, mpmath.mpf(10) ** -45 * reference)


def test_subsampled_gaussian_at_a_non_integer_order_agrees_across_precisions_and_breakpoint_sets():
    # No binomial expansion here: the estimate's error *is* the disagreement of its two runs (50 digits on one
    # breakpoint set, 65 on another); it must be small, and the centre-split quadrature must fall outside it.
    P, Q, a = Mixture("0.1", Gaussian(0, 1), Gaussian(1, 1)), Gaussian(0, 1), mpmath.mpf("150.5")
    est = qd.renyi(P, Q, a, method="quadrature")
    assert est.error < SMALL

    def f(x):
        return mpmath.exp(a * P.logpdf(x) + (1 - a) * Q.logpdf(x))

    naive = mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, 1, mpmath.inf])) / (a - 1)
    assert abs(naive - est.value) > 1000 * est.error


# --- max divergence: suprema reached only at infinity -----------------------------------------------------------


@settings(max_examples=5, deadline=None)
@given(st.floats(0.1, 3), scales, scales)
@example(1.0, 1.0, 1.0)          # equal scales: the log-ratio approaches its limit only like O(1/x)
def test_lap2_max_divergence_is_delta_over_the_larger_scale(delta, lam1, lam2):
    # balle19.lem3 (catalogue-balle.md): the pure-DP level of Lap2 is Delta / max(lambda1, lambda2).
    est = qd.max_divergence(Lap2(0, lam1, lam2), Lap2(delta, lam1, lam2))
    agree(est, mp(delta) / max(mp(lam1), mp(lam2)))


def test_renyi_of_infinite_order_is_the_max_divergence():
    assert qd.renyi(Lap2(0, 1, 2), Lap2(1, 1, 2), mpmath.inf).value == mpmath.mpf("0.5")
    assert qd.renyi(Laplace(0, 1), Laplace(3, 1), "inf").value == 3


def test_heavier_tails_make_divergences_infinite():
    assert qd.renyi(Gaussian(0, 2), Gaussian(0, 1), 2).value == mpmath.inf              # s_alpha^2 < 0
    assert qd.renyi(Gaussian(0, 2), Gaussian(0, 1), 2, method="quadrature").value == mpmath.inf
    assert qd.renyi(Laplace(0, 1), Gaussian(0, 1), 1.5).value == mpmath.inf
    assert qd.max_divergence(Laplace(0, 1), Gaussian(0, 1)).value == mpmath.inf
    assert qd.max_divergence(Laplace(0, 2), Laplace(0, 1)).value == mpmath.inf
    # ... while the lighter tail is finite: sup of log 2 - |x|/2 is at the kink.
    agree(qd.max_divergence(Laplace(0, 1), Laplace(0, 2)), mpmath.log(2))


class Logistic(ContinuousDistribution):
    """A family symdp.engine.quadrature has no tail expansion for: only ``tail()`` describes it."""

    def logpdf(self, x):
        x = mpmath.mpf(x)
        return -abs(x) - 2 * mpmath.log1p(mpmath.exp(-abs(x)))

    def cdf(self, x):
        return 1 / (1 + mpmath.exp(-mpmath.mpf(x)))

    def sf(self, x):
        return 1 / (1 + mpmath.exp(mpmath.mpf(x)))

    def center(self):
        return mpmath.mpf(0)

    def scale(self):
        return mpmath.mpf(1)

    def tail(self):
        return Tail("exponential", mpmath.mpf(1))


def test_a_family_without_a_tail_expansion_falls_back_to_far_out_values():
    # Logistic location family: log p(x - d) - log p(x) -> d as x -> inf, so the max divergence is |d|, reached
    # only at infinity; the fallback reads it off at 2^20 scales, where the correction is e^-(2^20).
    P, Q = Logistic().shifted("0.75"), Logistic()
    agree(qd.max_divergence(P, Q), mpmath.mpf("0.75"))
    est = qd.kl(P, Q)
    assert est.error < SMALL and est.value > 0


# --- crossing points and hockey-stick by the masses of the crossing sets ----------------------------------------


@pytest.mark.parametrize("P, Q, level", [
    (Gaussian(0, 1), Gaussian(1, 2), "0.3"),
    (Laplace(0, 1), Laplace(1, 3), "-0.2"),
    (Lap2(0, 1, 2), Lap2(1, 1, 2), "0.1"),
    (Mixture("0.3", Gaussian(0, 1), Gaussian(2, 1)), Gaussian(0, 1), "0.05"),
])
def test_crossing_points_are_roots_of_the_privacy_loss(P, Q, level):
    roots = qd.crossing_points(P, Q, level)
    assert roots
    for x in roots:
        assert abs(P.logpdf(x) - Q.logpdf(x) - mpmath.mpf(level)) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("P, Q, level", [
    # translates of one symmetric unimodal law cross at level 0 halfway between their centres: tiny scales, far centres
    (Lap2(0, "1e-30", "2e-30"), Lap2("1e-30", "1e-30", "2e-30"), 0),
    (Lap2("1e6", 1, 2), Lap2("1000001", 1, 2), 0),
    (Lap2("-1e3", "1e-3", "3e-3"), Lap2("-999.999", "1e-3", "3e-3"), 0),
    # elsewhere (reference: bisection at twice the digits)
    (Lap2(0, "1e-30", "2e-30"), Lap2("1e-30", "1e-30", "2e-30"), "0.3"),
    (Lap2("1e-30", "1e-30", "2e-30"), Lap2(0, "1e-30", "2e-30"), "-0.2"),
    # (1-q)N(c, 1) + qN(c + Δ, 1) against N(c, 1) crosses L = ε once, at c + log((e^ε - (1-q))/q)/Δ + Δ/2
    (Mixture("0.3", Gaussian(0, 1), Gaussian(2, 1)), Gaussian(0, 1), "0.05"),
    (Mixture("0.2", Gaussian(1000, 1), Gaussian(1001, 1)), Gaussian(1000, 1), "0.3"),
])
def test_crossing_points_are_accurate_relative_to_the_laws_scale(P, Q, level):
    # the bracketed root finder works in the bracket's own coordinate, its function scaled to a mean slope of 1: a
    # crossing is found to the working precision relative to the laws' scale and position, however small the scale,
    # far the centre or flat the privacy loss (the hand-coded Illinois method it replaced was 9 times further off)
    level = mpmath.mpf(level)
    scale = min(s for _, s, _ in P.anchors() + Q.anchors())
    for refine in (False, True):
        (found,) = qd.crossing_points(P, Q, level, refine=refine)
        with mpmath.workdps(2 * DPS + 20):
            if isinstance(P, Mixture):
                low, high = P.first.mean, P.second.mean
                root = low + mpmath.log((mpmath.exp(level) - (1 - P.q)) / P.q) / (high - low) + (high - low) / 2
            elif level == 0:
                root = (P.loc + Q.loc) / 2
            else:
                root = mpmath.findroot(lambda x: P.logpdf(x) - Q.logpdf(x) - level,
                                       (found - scale / 64, found + scale / 64), solver="bisect", verify=False,
                                       maxsteps=1000)
        assert abs(found - root) <= mpmath.mpf(2) ** (-mpmath.mp.prec + 5) * max(abs(root), scale), (found, root)


def test_a_crossing_point_is_found_in_few_evaluations_and_the_same_every_time():
    P, Q, level = Lap2(0, 1, 2), Lap2(1, "0.5", 2), mpmath.mpf("0.2")
    calls = []

    def g(x):
        calls.append(x)
        return P.logpdf(x) - Q.logpdf(x) - level
    a, b = mpmath.mpf(0), mpmath.mpf(2)
    first = qd._bracketed_root(g, a, b, g(a), g(b))
    assert len(calls) <= 2 + 20   # the two ends, then superlinear steps (50 digits from a bracket of two scales)
    assert qd._bracketed_root(g, a, b, g(a), g(b)) == first
    assert abs(g(first)) < mpmath.mpf(10) ** -45


@pytest.mark.parametrize("P, Q, eps", [
    (Lap2(0, 1, 2), Lap2(1, "0.5", 2), "0.2"),
    (Mixture("0.3", Gaussian(0, 1), Gaussian(2, 1)), Gaussian(0, 1), "0.1"),
])
def test_hockey_stick_equals_the_mass_difference_on_the_privacy_loss_set(P, Q, eps):
    # D_{e^eps} = P(S) - e^eps Q(S) with S = {L > eps}, the union of pieces between crossing points: masses from
    # the cdfs, no quadrature.
    eps = mpmath.mpf(eps)
    cuts = [-mpmath.inf] + qd.crossing_points(P, Q, eps) + [mpmath.inf]
    total = mpmath.mpf(0)
    for a, b in zip(cuts, cuts[1:]):
        x = (a + b) / 2 if mpmath.isfinite(a) and mpmath.isfinite(b) else (b - 1 if mpmath.isfinite(b) else a + 1)
        if P.logpdf(x) - Q.logpdf(x) > eps:
            mass_p = (P.cdf(b) if mpmath.isfinite(b) else 1) - (P.cdf(a) if mpmath.isfinite(a) else 0)
            mass_q = (Q.cdf(b) if mpmath.isfinite(b) else 1) - (Q.cdf(a) if mpmath.isfinite(a) else 0)
            total += mass_p - mpmath.exp(eps) * mass_q
    agree(qd.hockey_stick(P, Q, eps), total, mpmath.mpf(10) ** -45)


def test_tv_is_the_hockey_stick_divergence_at_zero():
    P, Q = Laplace(0, 1), Laplace("0.7", "1.5")     # unequal scales: no closed form, both by quadrature
    t, h = qd.tv(P, Q), qd.hockey_stick(P, Q, 0)
    assert abs(t.value - h.value) <= t.error + h.error


# --- interface --------------------------------------------------------------------------------------------------


def test_alpha_at_most_one_is_rejected_with_its_name():
    for alpha in (1, 0.5, -2):
        with pytest.raises(InvalidParameter, match="alpha must be > 1"):
            qd.renyi(Gaussian(0, 1), Gaussian(1, 1), alpha)


def test_mismatched_kinds_are_rejected():
    finite = FiniteDistribution([0.5, 0.5])
    with pytest.raises(InvalidDistribution, match="two continuous distributions"):
        qd.kl(finite, Gaussian(0, 1))
    with pytest.raises(InvalidDistribution, match="both must be finite or both continuous"):
        divergences.kl(Gaussian(0, 1), finite)


def test_unknown_method_is_rejected():
    with pytest.raises(InvalidParameter, match="method must be one of"):
        qd.kl(Gaussian(0, 1), Gaussian(1, 1), method="simpson")


def test_public_dispatch_reaches_this_engine_and_precision_is_restored():
    before = mpmath.mp.dps
    est = divergences.kl(Laplace(0, 1), Laplace(1, 2))
    assert mpmath.mp.dps == before
    assert est.method == "certified" and est.certified and est.error < SMALL
    # KL(Lap(0,1) || Lap(1,2)) = log 2 - 1 + (1 + e^-1)/2: E|X - 1| = 1 + e^-1 for X ~ Lap(0, 1); at 15 more
    # digits than the enclosure, whose radius may be below the working precision's last digit.
    with mpmath.workdps(before + 15):
        assert abs(est.value - (mpmath.log(2) - 1 + (1 + mpmath.exp(-1)) / 2)) <= est.error
