"""Every divergence of Gaussian and Laplace pairs, computed from the densities (closed forms off) over parameters
spread log-uniformly across the whole double range, returns within a bounded time and is either refused with a
one-line message or an estimate in the divergence's domain that encloses the textbook closed form.

References are computed here with mpmath, far beyond the working precision (the laws' parameters are the binary
numbers the engine receives, so nothing is lost to their rounding):

* Gaussians of one sd σ, τ = |Δ|/σ: KL = τ²/2, Rényi R_α = ατ²/2 (Mironov 2017), TV = erf(τ/(2√2)), hockey-stick
  Φ(-ε/τ + τ/2) - e^ε Φ(-ε/τ - τ/2) (Balle & Wang 2018, Thm 8), max divergence +inf for Δ ≠ 0;
* Laplace laws of one scale b, z = |Δ|/b: KL = z + e^{-z} - 1, R_α = log(α/(2α-1) e^{(α-1)z} + (α-1)/(2α-1) e^{-αz})
  /(α - 1) (Mironov 2017, Table II), TV = 1 - e^{-z/2}, hockey-stick 1 - e^{(ε-z)/2} for |ε| < z (0 above, 1 - e^ε
  below), max divergence z.
"""

import signal
import time

import mpmath
import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from symdp.engine import quadrature as qd
from symdp.engine.continuous import Gaussian, Laplace
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.numeric import ncdf
from symdp.precision import closed_forms

DPS = 30
HANG_GUARD = 60             # seconds of wall time after which a call counts as hung
BUDGET = 20                 # seconds of CPU time a call may take (a guard against hangs, not a speed test)


def magnitude(low=-300, high=300):
    """A float log-uniform in [10^low, 10^high]."""
    return st.floats(low, high).map(lambda e: 10.0 ** e)


def signed(strategy):
    return st.tuples(st.sampled_from([-1.0, 1.0]), strategy).map(lambda t: t[0] * t[1])


locations = signed(magnitude()) | st.just(0.0)
scales = magnitude()
epsilons = signed(magnitude(-300, 6)) | st.just(0.0)
orders = magnitude(-12, 6).map(lambda a: 1 + a)
KINDS = ("kl", "renyi", "hockey_stick", "tv", "max_divergence")


def reference_digits(d, s, arg) -> int:
    """Digits that keep a reference exact to far beyond DPS: the Laplace forms lose ``2 log10(1/z)`` digits to
    cancellation at small ``z = |Δ|/s`` (their O(1) terms cancel to O(z²)), the hockey-stick's two Gaussian tails
    about ``log10(|ε|/τ²)`` at large ε; and a value as large as ``ατ²`` needs its integer digits too."""
    with mpmath.workdps(30):
        z = abs(d) / s
        small = -mpmath.log10(z) if 0 < z < 1 else 0
        large = mpmath.log10(1 + abs(arg) / z ** 2) if arg is not None and z > 0 else 0
        size = mpmath.log10(1 + z ** 2 * (1 + abs(arg or 0)))
    # and Δ itself, exactly: |Δ| = 1 + 1e-61 needs 305 bits, and rounding it to 90 digits moved the reference's
    # 1 - e^{(ε - z)/2} in its 31st digit (CI's draw Laplace(-1), Laplace(1e-61), ε = 1)
    exact = int(d._mpf_[3] * 0.30103) + 10 if d else 0      # (d._mpf_: mpf(d) would round it)
    return max(DPS + 60 + int(2 * small + large + size), exact)


def reference(family, kind, d, s, arg):
    """The closed form of ``kind`` for ``family(d, s)`` against ``family(0, s)`` (d, s: mpf), exact far beyond DPS."""
    with mpmath.workdps(reference_digits(d, s, arg)):
        z = abs(d) / s
        if kind == "max_divergence":
            return z if family is Laplace else (mpmath.inf if z else mpmath.mpf(0))
        if family is Gaussian:
            if kind == "kl":
                return z * z / 2
            if kind == "renyi":
                return arg * z * z / 2
            if kind == "tv":
                return mpmath.erf(z / (2 * mpmath.sqrt(2)))
            if z == 0:
                return max(mpmath.mpf(0), -mpmath.expm1(arg))
            return ncdf(-arg / z + z / 2) - mpmath.exp(arg) * ncdf(-arg / z - z / 2)
        if kind == "kl":
            return z + mpmath.expm1(-z)
        if kind == "renyi":
            a = arg
            if z == 0:
                return mpmath.mpf(0)
            # log(α/(2α-1) e^{(α-1)z} (1 + (α-1)/α e^{-(2α-1)z}))/(α-1), written to neither overflow nor cancel
            return z + (mpmath.log(a / (2 * a - 1)) + mpmath.log1p((a - 1) / a * mpmath.exp(-(2 * a - 1) * z))) / (
                a - 1)
        e = mpmath.mpf(0) if kind == "tv" else arg
        if e >= z:
            return mpmath.mpf(0)
        return -mpmath.expm1(e if e <= -z else (e - z) / 2)


def domain(kind, arg):
    """Where each divergence lies whatever the laws: KL, Rényi and D_∞ in [0, ∞], TV in [0, 1], D_{e^ε} in
    [max(0, 1 - e^ε), 1] (P(S) - e^ε Q(S) at S = ∅ and at S = ℝ; at most P(S) ≤ 1). An end that is not a number of
    the working precision is rounded outward to one: a value there is the end to the last bit."""
    if kind in ("kl", "renyi", "max_divergence"):
        return mpmath.mpf(0), mpmath.inf
    if kind == "tv" or arg >= 0:
        return mpmath.mpf(0), mpmath.mpf(1)
    with mpmath.workdps(DPS + 20):
        low = -mpmath.expm1(arg)
    return mpmath.fadd(low, 0, rounding="d"), mpmath.mpf(1)


def call(kind, P, Q, arg):
    function = getattr(qd, kind)
    args = (arg,) if kind in ("renyi", "hockey_stick") else ()
    return function(P, Q, *args, method="densities")


class Hung(Exception):
    pass


def _alarm(signum, frame):
    raise Hung()


def check(family, kind, m_p, m_q, s, arg):
    with mpmath.workdps(DPS):
        P, Q = family(m_p, s), family(m_q, s)
        arg = None if arg is None else mpmath.mpf(arg)
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(HANG_GUARD)
        start = time.process_time()
        try:
            result = call(kind, P, Q, arg)
        except (InvalidParameter, InvalidDistribution) as refusal:
            result = refusal
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        spent = time.process_time() - start
        low, high = domain(kind, arg)
    assert spent < BUDGET, (kind, family.__name__, m_p, m_q, s, arg, spent)
    if isinstance(result, Exception):
        message = str(result)
        assert message and "\n" not in message, message
        return
    d, s = mpmath.fsub(P.center(), Q.center(), exact=True), P.scale()   # the laws' own binary parameters
    truth = reference(family, kind, d, s, arg)
    with mpmath.workdps(reference_digits(d, s, arg)):
        value, error = result.value, result.error
        assert low <= value <= high, (kind, result, low, high)
        if mpmath.isinf(truth) or mpmath.isinf(value):
            assert value == truth, (kind, result, truth)
        else:
            assert abs(value - truth) <= error, (kind, family.__name__, m_p, m_q, s, arg, result, truth)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from([Gaussian, Laplace]), st.sampled_from(KINDS), locations, locations, scales,
       epsilons, orders)
@example(Gaussian, "kl", 1e300, 0.0, 1.0, 0.0, 2.0)        # 10^300 sds apart: once 600 s without an answer
@example(Gaussian, "kl", 1e6, 0.0, 1.0, 0.0, 2.0)          # once 60 s
@example(Gaussian, "renyi", 1.0, 0.0, 1.0, 0.0, 1e6)       # α = 10^6: once 15 s of integer factorials
@example(Gaussian, "hockey_stick", 1.0, 0.0, 1.0, 1e6, 2.0)
@example(Laplace, "kl", 0.0, 1e-300, 1.0, 0.0, 2.0)        # 10^-300 scales apart: 10^-600, to every digit
@example(Gaussian, "tv", 1e300, -1e300, 1e-300, 0.0, 2.0)
@example(Laplace, "hockey_stick", 1e300, 1e300 + 1e285, 1e285, 0.5, 2.0)
def test_every_call_answers_within_its_domain_or_refuses_in_bounded_time(family, kind, m_p, m_q, s, eps, alpha):
    arg = eps if kind == "hockey_stick" else alpha if kind == "renyi" else None
    with closed_forms(False):
        check(family, kind, m_p, m_q, s, arg)


@pytest.mark.parametrize("x", ["3e4", "1e12", "-1e12"])
def test_erfc_series_for_huge_arguments_agrees_with_mpmath(x, monkeypatch):
    """symdp.numeric.erfc switches to its asymptotic series where mpmath's pure-Python erfc overflows (2^400); moved
    down to 2^10, the series must reproduce mpmath's erfc to every digit where both answer."""
    import symdp.numeric as numeric

    monkeypatch.setattr(numeric, "_ERFC_SERIES_FROM", mpmath.mpf(2) ** 10)
    with mpmath.workdps(60):
        x = mpmath.mpf(x)
        assert abs(numeric.erfc(x) - mpmath.erfc(x)) <= 2 * mpmath.eps * abs(mpmath.erfc(x))


def test_normal_tails_of_arguments_beyond_1e154_are_computed():
    """mpmath.ncdf(-1e155) overflows without the GMP backend (it squares the argument as a float)."""
    with mpmath.workdps(30):
        x = mpmath.mpf(10) ** 155
        tail = ncdf(-x)
        assert 0 < tail and abs(-mpmath.log(tail) / (x * x / 2) - 1) < mpmath.mpf(10) ** -28   # the log terms are 1e-307 of it
        assert ncdf(x) == 1 and ncdf(0) == mpmath.mpf(1) / 2


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from([Gaussian, Laplace]), st.sampled_from(KINDS), locations, locations, scales, epsilons, orders)
@example(Gaussian, "hockey_stick", 1.0, 0.0, 1.0, 1e6, 2.0)      # two tails of 10^-217147023817: Arb's erfc alone
@example(Laplace, "kl", 1e-300, 0.0, 1.0, 0.0, 2.0)              # z²/2 = 5e-601, under z - z
@example(Gaussian, "renyi", 1e-300, 0.0, 1.0, 0.0, 1e6)
@example(Laplace, "kl", -1.0, -1e-4, 1.0, 0.0, 2.0)               # Δ = −0.9999 is not a double: read exactly
@example(Laplace, "hockey_stick", -1.0, -1e-4, 1.0, -0.5, 2.0)
@example(Laplace, "renyi", -1.0, -1e-4, 1.0, 0.0, 3.0)
@example(Gaussian, "hockey_stick", -1.0, -1e-4, 1.0, 0.5, 2.0)
@example(Gaussian, "tv", -1.0, -1e-4, 1.0, 0.0, 2.0)
@example(Laplace, "hockey_stick", -1.0, 1e-61, 1.0, 1.0, 2.0)          # Δ of 305 bits: the reference holds it exactly
def test_closed_forms_are_certified_enclosures_of_the_textbook_values(family, kind, m_p, m_q, s, eps, alpha):
    """Each closed form is computed in ball arithmetic: its estimate is certified, in the divergence's domain, and
    encloses the reference computed here with mpmath far beyond the working precision."""
    arg = eps if kind == "hockey_stick" else alpha if kind == "renyi" else None
    with mpmath.workdps(DPS):
        P, Q = family(m_p, s), family(m_q, s)
        if kind == "max_divergence":   # a supremum search, decided by the expansions' constants: not an Arb formula
            return
        args = () if arg is None else (mpmath.mpf(arg),)
        result = getattr(qd, kind)(P, Q, *args, method="closed form")
        assert result.certified and result.method == "closed form", result
        d, scale = mpmath.fsub(P.center(), Q.center(), exact=True), P.scale()
        truth = reference(family, kind, d, scale, None if arg is None else mpmath.mpf(arg))
        low, high = domain(kind, None if arg is None else mpmath.mpf(arg))
        with mpmath.workdps(reference_digits(d, scale, arg)):
            assert low <= result.value <= high, (result, low, high)
            assert abs(result.value - truth) <= result.error, (family.__name__, kind, m_p, m_q, s, arg, result, truth)


@pytest.mark.parametrize("x", [1e155, 3e200, 1e300])
def test_erfc_of_huge_arguments_keeps_its_relative_digits(x):
    """erfc(x) = e^{-x²}/(x√π)(1 + ...) is fixed relative to itself only if x² is known to far better than 1: a
    double x computed at 30 digits must agree with the same x at 80 digits to 30 digits, relative."""
    from symdp.numeric import erfc

    with mpmath.workdps(30):
        coarse = erfc(mpmath.mpf(x))
    with mpmath.workdps(80):
        assert abs(coarse / erfc(mpmath.mpf(x)) - 1) < mpmath.mpf(10) ** -29
