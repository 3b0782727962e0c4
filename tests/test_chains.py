"""symdp.engine.chains: laws of projected noisy chains against closed forms and an independent quadrature."""

import math

import mpmath
import pytest

from symdp.engine.chains import (
    ChainLaw,
    ProjectedChain,
    affine_step,
    hockey_stick,
    kl,
    renyi,
    subgradient_step,
    tv,
    weakly_smooth_step,
)
from symdp.engine.continuous import Gaussian
from symdp.engine.divergences import divergence
from symdp.engine.projected import Projected
from symdp.errors import InvalidDistribution, InvalidParameter


def wide_linear_chain(slope, sd, T, alpha, start=0.5):
    """The linear chain on an interval so wide that clipping is below 1e-20 of the Rényi integrand's mass, and its
    Gaussian law's mean gap and variance (closed form: N(slope^T x0, sd² Σ slope^{2k}))."""
    var = sd ** 2 * sum(slope ** (2 * k) for k in range(T))
    gap = 2 * start * abs(slope) ** T
    half = gap / 2 * (2 * alpha - 1) + 12 * math.sqrt(var)
    return ProjectedChain((affine_step(slope, 0, sd),) * T, -half, half), gap, var


@pytest.mark.parametrize("slope, sd, T, alpha", [(0.9, 0.3, 3, 3.0), (1.2, 0.5, 4, 2.0), (0.5, 1.0, 2, 6.0),
                                                 (1.0, 0.2, 5, 1.5)])
def test_unprojected_linear_chain_is_gaussian(slope, sd, T, alpha):
    chain, gap, var = wide_linear_chain(slope, sd, T, alpha)
    P, Q = chain.law(0.5), chain.law(-0.5)
    r = renyi(P, Q, alpha)
    assert abs(r.value - alpha * gap ** 2 / (2 * var)) <= r.error < 1e-6
    k = kl(P, Q)
    assert abs(k.value - gap ** 2 / (2 * var)) <= k.error
    t = tv(P, Q)
    assert abs(t.value - math.erf(gap / (2 * math.sqrt(2 * var)))) <= t.error + 1e-12
    # hockey-stick of two Gaussians of one variance: Phi(g/2s - eps s/g) - e^eps Phi(-g/2s - eps s/g), s = sqrt(v)
    sd = math.sqrt(var)
    for eps in (0.0, 0.5, 2.0):
        exact = (float(mpmath.ncdf(gap / (2 * sd) - eps * sd / gap))
                 - math.exp(eps) * float(mpmath.ncdf(-gap / (2 * sd) - eps * sd / gap)))
        hs = hockey_stick(P, Q, eps)
        assert abs(hs.value - exact) <= hs.error + 1e-12


def test_density_is_the_gaussian_density():
    chain, gap, var = wide_linear_chain(0.8, 0.4, 3, 2.0)
    law = chain.law(0.5)
    for y in (-0.7, 0.0, 0.2, 1.1):
        assert law.density(y) == pytest.approx(math.exp(-(y - gap / 2) ** 2 / (2 * var)) / math.sqrt(2 * math.pi * var),
                                               rel=1e-7)


def test_nearly_equal_laws_keep_their_digits():
    """Starts 1e-9 apart: R = α·gap²/(2v) ≈ 1e-18, far below where p^α q^{1-α} summed naively is all rounding."""
    chain, gap, var = wide_linear_chain(0.9, 0.5, 6, 2.0, start=0.5e-9)
    r = renyi(chain.law(0.5e-9), chain.law(-0.5e-9), 2.0)
    exact = 2.0 * gap ** 2 / (2 * var)
    assert exact < 1e-17
    assert r.value == pytest.approx(exact, rel=1e-6)
    assert abs(r.value - exact) <= r.error


def test_laws_one_ulp_apart_after_the_first_step_keep_their_digits():
    """Starts 1e-14 apart (d = p − q of the first step a few ulps of p): R ≈ 3e-29 to the rule's own accuracy, and a
    KL whose means differ by one ulp is the tiny number it is, not the rounding of p − q (once 1e-32 ± 3e-45)."""
    chain, gap, var = wide_linear_chain(0.9, 0.5, 6, 2.0, start=0.5e-14)
    r = renyi(chain.law(0.5e-14), chain.law(-0.5e-14), 2.0)
    exact = 2.0 * gap ** 2 / (2 * var)
    assert r.value == pytest.approx(exact, rel=1e-6) and abs(r.value - exact) <= r.error
    # one step of x − 0.2 sign(x) from 0.3 and −0.1: centres 0.3 − 0.2 and −0.1 + 0.2, one ulp apart; unclipped, the
    # KL would be gap²/(2σ²) = 1.9e-33, an upper bound of the clipped one (data processing)
    step = subgradient_step(0.2, math.sqrt(0.2))
    gap = (0.3 - 0.2) - (-0.1 + 0.2)
    assert gap != 0
    chain = ProjectedChain((step,), -0.5, 0.5)
    k = kl(chain.law(0.3), chain.law(-0.1))
    assert 0 <= k.value <= gap ** 2 / (2 * 0.2)


def test_one_projected_step_is_the_projected_gaussian():
    """T = 1: a Gaussian clipped to the interval (engine.projected, its own quadrature) and its CDF atoms."""
    chain = ProjectedChain((subgradient_step(0.1, 0.3),), -0.5, 0.5)
    P, Q = chain.law(0.5), chain.law(-0.5)
    Pp, Qp = Projected(Gaussian(0.4, 0.3), -0.5, 0.5), Projected(Gaussian(-0.4, 0.3), -0.5, 0.5)
    for kind, args in (("renyi", (3,)), ("kl", ()), ("tv", ()), ("hockey_stick", (0.5,)), ("hockey_stick", (-1,))):
        ours = {"renyi": renyi, "kl": kl, "tv": tv, "hockey_stick": hockey_stick}[kind](P, Q, *args)
        ref = divergence(kind, Pp, Qp, *args)
        assert abs(ours.value - ref.value) <= ours.error + ref.error
    low, high = P.atoms()
    assert low == pytest.approx(float(mpmath.ncdf(-0.9 / 0.3)), rel=1e-14)
    assert high == pytest.approx(float(mpmath.ncdf(-0.1 / 0.3)), rel=1e-14)


def two_step_law(phi, sd, x0, low, high):
    """The law of X_2 written out with mpmath.quad (split at 0, where the maps below are not smooth): atoms and
    density of Π(Φ(X_1) + σξ), X_1 = Π(Φ(x0) + σξ) — an independent reference for the Nyström chain."""
    m1 = phi(x0)
    a_low, a_high = mpmath.ncdf((low - m1) / sd), mpmath.ncdf((m1 - high) / sd)
    f1 = lambda x: mpmath.npdf(x, m1, sd)  # noqa: E731
    cut = [low, 0, high]

    def density(y):
        return (a_low * mpmath.npdf(y, phi(low), sd) + a_high * mpmath.npdf(y, phi(high), sd)
                + mpmath.quad(lambda x: f1(x) * mpmath.npdf(y, phi(x), sd), cut))

    def tail(side):
        mass = lambda z: mpmath.ncdf((low - z) / sd) if side < 0 else mpmath.ncdf((z - high) / sd)  # noqa: E731
        return a_low * mass(phi(low)) + a_high * mass(phi(high)) + mpmath.quad(lambda x: f1(x) * mass(phi(x)), cut)

    return tail(-1), tail(1), density


@pytest.mark.parametrize("step, phi", [
    (subgradient_step(0.3, 0.25), lambda x: x - 0.3 * mpmath.sign(x)),
    pytest.param(weakly_smooth_step(0.2, 1.0, 0.5, 0.25), lambda x: x - 0.2 * mpmath.sign(x) * abs(x) ** 0.5,
                 marks=pytest.mark.slow),   # the same check on a second step map, some 9 s: exhaustive runs only
])
def test_two_steps_match_an_independent_quadrature(step, phi):
    chain = ProjectedChain((step, step), -0.5, 0.5)
    with mpmath.workdps(15):
        refs = {x0: two_step_law(phi, 0.25, x0, -0.5, 0.5) for x0 in (0.3, -0.1)}
        for x0, (a_low, a_high, density) in refs.items():
            law = chain.law(x0)
            low, high = law.atoms()
            assert low == pytest.approx(float(a_low), rel=1e-8, abs=1e-14)
            assert high == pytest.approx(float(a_high), rel=1e-8, abs=1e-14)
            for y in (-0.4, 0.05, 0.33):
                assert law.density(y) == pytest.approx(float(density(y)), rel=1e-8)
        # Rényi of the two reference laws by quadrature of their densities
        (pl, ph, pd), (ql, qh, qd) = refs[0.3], refs[-0.1]
        alpha = 2.5
        inner = mpmath.quad(lambda y: pd(y) ** alpha * qd(y) ** (1 - alpha), [-0.5, 0, 0.5])
        reference = mpmath.log(pl ** alpha * ql ** (1 - alpha) + ph ** alpha * qh ** (1 - alpha) + inner) / (alpha - 1)
    r = renyi(chain.law(0.3), chain.law(-0.1), alpha)
    assert abs(r.value - reference) <= r.error + 1e-9
    assert r.error < 1e-6


def test_total_mass_is_one():
    chain = ProjectedChain((subgradient_step(0.2, 0.2), weakly_smooth_step(0.3, 1.0, 0.3, 0.4),
                            affine_step(1.3, 0.1, 0.3)), -1, 1)
    for level in (0, 1):
        _, masses = chain.law(0.7).masses(level)
        assert math.fsum(masses) == pytest.approx(1, abs=1e-8)


def test_laws_of_two_chains_on_one_interval():
    """Different maps (no joint propagation): R(P‖P) = 0, the laws of two chains compare both ways, and TV is
    symmetric and below Pinsker's sqrt(KL/2)."""
    a = ProjectedChain((subgradient_step(0.2, 0.3),) * 2, -1, 1)
    b = ProjectedChain((affine_step(0.9, 0, 0.3),) * 2, -1, 1)
    assert renyi(a.law(0.2), a.law(0.2), 2).value == 0
    forward, backward = kl(a.law(0.2), b.law(0.2)), kl(b.law(0.2), a.law(0.2))
    assert forward.value > 0 and backward.value > 0
    t1, t2 = tv(a.law(0.2), b.law(0.2)), tv(b.law(0.2), a.law(0.2))
    assert abs(t1.value - t2.value) <= t1.error + t2.error + 1e-15
    assert t1.value <= mpmath.sqrt(min(forward.value, backward.value) / 2)


def test_projection_is_post_processing():
    """Clipping the linear chain to a narrow interval can only lower its Rényi divergence."""
    chain, gap, var = wide_linear_chain(1.0, 0.3, 3, 3.0)
    narrow = ProjectedChain(chain.steps, -0.5, 0.5)
    assert renyi(narrow.law(0.5), narrow.law(-0.5), 3).value < 3 * gap ** 2 / (2 * var)


def test_bad_input_is_a_clear_error():
    with pytest.raises(InvalidParameter, match="sigma"):
        affine_step(1, 0, -0.3)
    with pytest.raises(InvalidDistribution, match="interval"):
        ProjectedChain((affine_step(1, 0, 0.3),), 1, -1)
    with pytest.raises(InvalidParameter, match="Step"):
        ProjectedChain((), -1, 1)
    with pytest.raises(InvalidParameter):
        ChainLaw(ProjectedChain((affine_step(1, 0, 0.3),), -1, 1), "north")
    with pytest.raises(InvalidDistribution, match="different spaces"):
        renyi(ProjectedChain((affine_step(1, 0, 0.3),), -1, 1).law(0),
              ProjectedChain((affine_step(1, 0, 0.3),), -2, 1).law(0), 2)


def test_far_apart_laws_at_large_orders():
    """Laws pushed to opposite ends: the terms q(1 + d/q)^α exceed a double for large α; R_α stays finite and
    nondecreasing in α (a property of Rényi divergences)."""
    chain = ProjectedChain((affine_step(1.5, 0, 0.1),) * 2, -0.5, 0.5)
    values = [renyi(chain.law(0.5), chain.law(-0.5), a) for a in (3, 16, 40, 200)]
    assert all(math.isfinite(v.value) and v.error < 1e-6 for v in values)
    assert all(a.value <= b.value + a.error + b.error for a, b in zip(values, values[1:]))


def clipped_gaussians_renyi(m1, m2, sd, low, high, alpha):
    """R_α of Π_[low, high] N(m1, sd²) against Π_[low, high] N(m2, sd²), in closed form (mpmath, 60 digits): the atoms
    are Gaussian CDF tails, and φ(y − m1)^α φ(y − m2)^{1−α} = φ(y − m_α) e^{α(α−1)(m1 − m2)²/(2sd²)} with
    m_α = α m1 + (1 − α) m2, so the interior integral is a difference of two CDFs."""
    with mpmath.workdps(60):
        m1, m2, sd, low, high, a = (mpmath.mpf(v) for v in (m1, m2, sd, low, high, alpha))
        atoms = [(mpmath.ncdf((low - m1) / sd), mpmath.ncdf((low - m2) / sd)),
                 (mpmath.ncdf((m1 - high) / sd), mpmath.ncdf((m2 - high) / sd))]
        ma = a * m1 + (1 - a) * m2
        inner = mpmath.exp(a * (a - 1) * (m1 - m2) ** 2 / (2 * sd ** 2)) * (
            mpmath.ncdf((high - ma) / sd) - mpmath.ncdf((low - ma) / sd))
        total = mpmath.fsum(p ** a * q ** (1 - a) for p, q in atoms) + inner
        return float(mpmath.log(total) / (a - 1))


@pytest.mark.parametrize("alpha", [1.001, 2.0, 8.0])
def test_mass_where_the_other_law_underflows(alpha):
    """Starts ±1 on [−1, 1], a subgradient step of 4 and σ = 1/15 (bravo Table 1, row 1 at D = 2, ηL = 4): the
    first step sends each law 60 noise scales beyond the other's end, so each has its mass where the other's Gaussian
    tail underflows a double (e^{−1805}). Gaussian noise gives both laws positive densities everywhere, so R_α is finite
    (not +∞); it used to raise "max() arg is an empty sequence". One step: the closed form of two clipped Gaussians.
    Two steps: no larger than after one (the same kernel on both: data processing), or unknown (infinite error) where
    the rule cannot resolve the integrand, never a false finite error."""
    sd = 1 / 15
    one = ProjectedChain((subgradient_step(4, sd),), -1, 1)
    exact = clipped_gaussians_renyi(-3, 3, sd, -1, 1, alpha)
    r = renyi(one.law(1), one.law(-1), alpha)
    assert math.isfinite(r.value) and r.error < 1e-6 * exact
    assert abs(r.value - exact) <= r.error + 1e-9 * exact
    two = ProjectedChain((subgradient_step(4, sd),) * 2, -1, 1)
    r2 = renyi(two.law(1), two.law(-1), alpha)
    assert math.isfinite(r2.value) and r2.value > 0
    assert r2.value - r2.error <= exact + r.error
    if alpha < 8:
        assert r2.error < 1e-3 * r2.value


def test_two_steps_where_the_other_law_underflows_match_a_quadrature():
    """The two-step laws above at α = 1.001, written out with mpmath (whose floats do not underflow): atoms and
    densities by nested quadrature (two_step_law), R_α of them by mpmath.quad."""
    sd = 1 / 15
    alpha = 1.001
    with mpmath.workdps(15):
        phi = lambda x: x - 4 * mpmath.sign(x)  # noqa: E731
        (pl, ph, pd), (ql, qh, qd) = (two_step_law(phi, mpmath.mpf(1) / 15, x0, -1, 1) for x0 in (1, -1))
        inner = mpmath.quad(lambda y: pd(y) ** alpha * qd(y) ** (1 - alpha), [-1, 0, 1])
        reference = mpmath.log(pl ** alpha * ql ** (1 - alpha) + ph ** alpha * qh ** (1 - alpha) + inner) / (alpha - 1)
    assert 1000 < reference < 1100
    r = renyi(ProjectedChain((subgradient_step(4, sd),) * 2, -1, 1).law(1),
              ProjectedChain((subgradient_step(4, sd),) * 2, -1, 1).law(-1), alpha)
    assert abs(r.value - reference) <= r.error < 1e-3 * reference


def test_unresolved_integrand_is_unknown():
    """Two steps at α = 8: R_8 is carried by p^8 q^{−7} ~ e^{ky}, k ~ 10⁴, at the end of the interval, which panels
    two noise scales wide do not resolve (mpmath's tanh-sinh gives 1284.66; the rules ~1281): the error is infinite."""
    sd = 1 / 15
    chain = ProjectedChain((subgradient_step(4, sd),) * 2, -1, 1)
    r = renyi(chain.law(1), chain.law(-1), 8)
    assert math.isfinite(r.value) and r.error == math.inf


def test_kl_where_the_other_law_underflows():
    """KL of the same two one-step laws: Σ_atoms p log(p/q) + ∫ φ(y + 3) (log φ(y + 3) − log φ(y − 3)) dy, the log-ratio
    written out (−6y/σ²), by mpmath quadrature and log CDF tails."""
    sd = 1 / 15
    one = ProjectedChain((subgradient_step(4, sd),), -1, 1)
    with mpmath.workdps(40):
        s = mpmath.mpf(1) / 15
        atoms = [(mpmath.ncdf(2 / s), mpmath.ncdf(-4 / s)), (mpmath.ncdf(-4 / s), mpmath.ncdf(2 / s))]
        exact = mpmath.fsum(p * mpmath.log(p / q) for p, q in atoms) + mpmath.quad(
            lambda y: mpmath.npdf(y, -3, s) * (-6 * y / s ** 2), [-1, 0, 1])
    k = kl(one.law(1), one.law(-1))
    assert math.isfinite(k.value) and k.error < 1e-6 * float(exact)
    assert abs(k.value - float(exact)) <= k.error + 1e-9 * float(exact)


def test_the_transition_matrix_is_the_gaussian_kernel_and_keeps_mass():
    # one step as a matrix: column j at source z_j is [Φ((low − m)/σ), w_i φ_σ(x_i − m), Φ((m − high)/σ)] with m =
    # Φ(z_j), written out here with mpmath; each column sums to 1 up to the rule's quadrature error
    from symdp.engine import chains

    step = subgradient_step(0.15, 0.3)
    chain = ProjectedChain((step,) * 3, -0.5, 0.5)
    grid = chains._grid(chains._grid_key(chain, chain), 1)
    matrix = chains._transition(step, grid, -0.5, 0.5)
    sources = [-0.5, *(x for x, _ in grid), 0.5]
    assert matrix.shape == (len(grid) + 2, len(grid) + 2)
    for j in (0, 1, len(grid) // 2, len(grid) + 1):
        m = mpmath.mpf(step.map(sources[j]))
        expected = [mpmath.ncdf((-0.5 - m) / 0.3), *(w * mpmath.npdf(x, m, 0.3) for x, w in grid),
                    mpmath.ncdf((m - 0.5) / 0.3)]
        assert all(abs(a - float(b)) <= 1e-14 * max(float(b), 1e-300) + 1e-300 for a, b in zip(matrix[:, j], expected))
        assert abs(sum(matrix[:, j]) - 1) < 1e-9
    # twelve steps stay cheap (one product a step) and the law's total mass stays 1
    long = ProjectedChain((step,) * 12, -0.5, 0.5)
    assert abs(sum(long.law(0.3).masses(1)[1]) - 1) < 1e-8
