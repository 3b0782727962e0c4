"""symdp against the accountants: time per value and correct digits of δ(ε) and Rényi divergences (prints tables).

    python benchmarks/bench_accountants.py [--quick] [--dps 50] [--json] [--catalogue]

For the Gaussian, Laplace, Lap2 and Poisson-subsampled Gaussian mechanisms, at several ε and α, four ways to the same
number side by side:

1. ``certified``: symdp's Arb enclosures, ``quadrature.hockey_stick(P, Q, eps, method="certified")`` (and ``renyi``),
   with closed forms off so that the enclosure itself is what is timed;
2. ``quadrature``: symdp's previous mpmath path (three split quadratures per value, an estimated error);
3. ``naive quad``: one ``mpmath.quad`` of the integrand over ``(-inf, inf)`` at the same precision, unsplit;
4. ``dp_accounting``: Google's PLD accountant for δ(ε) and its RDP formulas for Rényi (the ``bench`` extra), where
   they apply (not to Lap2).

*Correct digits* are ``-log10(|value - reference| / |reference|)`` against references computed here at 100 digits
and never by symdp: closed forms for the Gaussian and Laplace pairs, the subsampled Gaussian's δ(ε) from its single
crossing point and Rényi from the exact binomial sum, Lap2's by quadrature of eq. (6)'s density split at its kinks and
crossing point. Then the headline of issue 9 (100 values of δ(ε) for the subsampled Gaussian, symdp certified against
dp_accounting's PLD) and the issue's goals, each with its measured figure and whether it is met. Times are CPU
seconds (:class:`Stopwatch`); see benchmarks/README.md for the figures measured and how to read them.

Conventions (checked against dp_accounting's source): for the Gaussian and Laplace mechanisms ``P`` is the noise law
at 0 and ``Q`` the same law shifted by the sensitivity Δ (dp_accounting's ``mu_upper``, ``mu_lower``); for the
subsampled Gaussian ``P = (1 - q) N(0, σ²) + q N(Δ, σ²)`` and ``Q = N(0, σ²)``, which is dp_accounting's REMOVE
adjacency (up to the reflection x -> -x); its public ``get_delta_for_epsilon`` takes the larger of REMOVE and ADD,
which on ε >= 0 here equals REMOVE (the ADD loss never exceeds log(1/(1 - q))). RDP noise multiplier = σ/Δ.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from symdp.engine import quadrature as qd
from symdp.engine.continuous import Gaussian, Lap2, Laplace, Mixture
from symdp.precision import closed_forms

REFERENCE_DPS = 100
"""Digits of every reference value."""

DIGITS_CAP = 95
"""Correct digits are reported up to this (a reference carries 100 digits)."""

# --- the four mechanisms: parameters as decimal strings, converted at each precision ------------------------------

SIGMA, DELTA = "1", "1"            # Gaussian: N(0, 1) against N(1, 1)
LAPLACE_B, LAPLACE_DELTA = "1", "2"  # Laplace: Lap(0, 1) against Lap(2, 1), D_inf = 2 (δ > 0 for ε < 2)
LAP2_L1, LAP2_L2, LAP2_DELTA = "0.5", "1", "2"   # Lap2(0; 0.5, 1) against Lap2(2; 0.5, 1), D_inf = 2
SG_Q, SG_SIGMA, SG_DELTA = "0.2", "1", "1"      # (1 - q) N(0, 1) + q N(1, 1) against N(0, 1): issue 9's claim


def mpf(s) -> mpmath.mpf:
    return mpmath.mpf(s)


# --- densities written here, independent of symdp (for the references and the naive quadrature) ------------------


def gaussian_logpdf(x, mean, sd):
    return -((x - mean) / sd) ** 2 / 2 - mpmath.log(sd * mpmath.sqrt(2 * mpmath.pi))


def laplace_logpdf(x, loc, b):
    return -abs(x - loc) / b - mpmath.log(2 * b)


def lap2_logpdf(x, loc, l1, l2):
    """Balle et al. (2019), eq. (6), λ1 ≠ λ2: (λ1 e^{-|x|/λ1} - λ2 e^{-|x|/λ2}) / (2(λ1² - λ2²)).

    >>> with mpmath.workdps(30):   # catalogue-balle.md, balle19.eq6: Lap2(0; 1, 2) at 0.7
    ...     print(mpmath.nstr(mpmath.exp(lap2_logpdf(mpf("0.7"), 0, 1, 2)), 18))
    0.152131812607669559
    """
    a = abs(x - loc)
    return mpmath.log((l1 * mpmath.exp(-a / l1) - l2 * mpmath.exp(-a / l2)) / (2 * (l1**2 - l2**2)))


def sampled_gaussian_logpdf(x, q, sd, delta):
    return mpmath.log((1 - q) * mpmath.exp(gaussian_logpdf(x, 0, sd)) + q * mpmath.exp(gaussian_logpdf(x, delta, sd)))


# --- references at 100 digits -------------------------------------------------------------------------------------


def gaussian_delta(eps, sd, delta):
    """δ(ε) of N(0, σ²) against N(Δ, σ²): Φ(-ε/τ + τ/2) - e^ε Φ(-ε/τ - τ/2), τ = Δ/σ
    (Balle & Wang 2018, Theorem 8).

    >>> with mpmath.workdps(30):
    ...     print(mpmath.nstr(gaussian_delta(1, 1, 1), 18))
    0.126936737506643946
    """
    tau = delta / sd
    return mpmath.ncdf(-eps / tau + tau / 2) - mpmath.exp(eps) * mpmath.ncdf(-eps / tau - tau / 2)


def gaussian_renyi(alpha, sd, delta):
    """α Δ² / (2σ²) (Mironov 2017, Prop. 7)."""
    return alpha * delta**2 / (2 * sd**2)


def laplace_delta(eps, b, delta):
    """δ(ε) of Lap(0, b) against Lap(Δ, b), 0 <= ε <= Δ/b: 1 - e^{(ε - Δ/b)/2}.

    >>> with mpmath.workdps(30):   # TV = 1 - e^{-Δ/(2b)}
    ...     print(mpmath.nstr(laplace_delta(0, 1, 1), 18))
    0.393469340287366576
    """
    return -mpmath.expm1((eps - delta / b) / 2)


def laplace_renyi(alpha, b, delta):
    """(1/(α-1)) log(α/(2α-1) e^{(α-1)Δ/b} + (α-1)/(2α-1) e^{-αΔ/b}) (Mironov 2017, Prop. 6)."""
    r = delta / b
    return mpmath.log(alpha / (2 * alpha - 1) * mpmath.exp((alpha - 1) * r)
                      + (alpha - 1) / (2 * alpha - 1) * mpmath.exp(-alpha * r)) / (alpha - 1)


def sampled_gaussian_crossing(eps, q, sd, delta):
    """The one point x* where log p/q = ε, p = (1-q)N(0,σ²) + qN(Δ,σ²), q = N(0,σ²): the loss
    log(1 - q + q e^{(xΔ - Δ²/2)/σ²}) increases in x, so x* = (σ²/Δ) log((e^ε - (1 - q))/q) + Δ/2."""
    return sd**2 / delta * mpmath.log((mpmath.exp(eps) - (1 - q)) / q) + delta / 2


def sampled_gaussian_delta(eps, q, sd, delta):
    """δ(ε) = P(X > x*) - e^ε Q(X > x*): both Gaussian tails by ``mpmath.ncdf``.

    >>> with mpmath.workdps(30):   # q = 1 is the Gaussian mechanism
    ...     print(mpmath.nstr(sampled_gaussian_delta(1, 1, 1, 1) - gaussian_delta(1, 1, 1), 5))
    0.0
    """
    x = sampled_gaussian_crossing(eps, q, sd, delta)
    tail0, tail1 = mpmath.ncdf(-x / sd), mpmath.ncdf(-(x - delta) / sd)
    return (1 - q) * tail0 + q * tail1 - mpmath.exp(eps) * tail0


def sampled_gaussian_renyi(alpha: int, q, sd, delta):
    """Integer α: (1/(α-1)) log Σ_k C(α,k) (1-q)^{α-k} q^k e^{(k²-k)Δ²/(2σ²)}
    (Mironov, Talwar & Zhang 2019, Theorem 5).

    >>> with mpmath.workdps(30):   # q = 1: the Gaussian's α Δ²/(2σ²)
    ...     print(sampled_gaussian_renyi(3, 1, 1, 1))
    1.5
    """
    terms = [mpmath.binomial(alpha, k) * (1 - q) ** (alpha - k) * q**k
             * mpmath.exp((k * k - k) * delta**2 / (2 * sd**2)) for k in range(alpha + 1)]
    return mpmath.log(mpmath.fsum(terms)) / (alpha - 1)


def _ladder(centre, scale, side):
    """Breakpoints out into one tail (a fixed geometric ladder, enough for tanh-sinh on exponential tails)."""
    return [centre + side * k * scale for k in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)]


def lap2_crossing(eps, l1, l2, delta):
    """The point where log p - log q = ε, P = Lap2(0), Q = Lap2(Δ): the loss decreases (both are log-concave) from
    Δ/max(λ) at -inf through 0 at Δ/2; bracketed by doubling steps leftward, then refined (Anderson-Björck)."""
    def loss(x):
        return lap2_logpdf(x, 0, l1, l2) - lap2_logpdf(x, delta, l1, l2) - eps

    right, step = delta / 2, max(l1, l2)
    left = right - step
    while loss(left) < 0:
        left, step = left - 2 * step, 2 * step
    return mpmath.findroot(loss, (left, right), solver="anderson")


def lap2_delta(eps, l1, l2, delta):
    """∫_{-inf}^{x_ε} (p - e^ε q): the integrand is positive exactly left of the crossing; split at the kinks 0
    and Δ (those left of x_ε) and along a ladder into the left tail."""
    x_eps = lap2_crossing(eps, l1, l2, delta)

    def integrand(x):
        return mpmath.exp(lap2_logpdf(x, 0, l1, l2)) - mpmath.exp(eps + lap2_logpdf(x, delta, l1, l2))

    points = sorted({p for p in [mpf(0), delta] + _ladder(min(0, x_eps), max(l1, l2), -1) if p < x_eps})
    return mpmath.quad(integrand, [-mpmath.inf] + points + [x_eps])


def lap2_renyi(alpha, l1, l2, delta):
    """log(∫ p^α q^{1-α})/(α-1), split at the kinks 0 and Δ and along ladders into both tails."""
    def integrand(x):
        return mpmath.exp(alpha * lap2_logpdf(x, 0, l1, l2) + (1 - alpha) * lap2_logpdf(x, delta, l1, l2))

    scale = max(l1, l2)
    points = sorted(set(_ladder(mpf(0), scale, -1) + [mpf(0), delta / 2, delta] + _ladder(delta, scale, 1)))
    return mpmath.log(mpmath.quad(integrand, [-mpmath.inf] + points + [mpmath.inf])) / (alpha - 1)


# --- the cases ----------------------------------------------------------------------------------------------------


@dataclass
class Family:
    """One mechanism: its pair of laws in symdp and in this script, and its references and accountants."""

    name: str
    laws: Callable[[], tuple]                     # (P, Q) as symdp distributions
    logpdfs: tuple                                # (log p, log q) written here, for the naive quadrature
    delta_reference: Callable                     # eps -> δ(ε) at the caller's precision
    renyi_reference: Callable                     # alpha -> R_α at the caller's precision
    pld: Callable | None = None                   # () -> dp_accounting PLD object, or None
    rdp: Callable | None = None                   # alpha (float) -> dp_accounting's RDP, or None


def families(dps: int) -> list[Family]:
    """The four mechanisms, their parameters rounded once to ``dps`` digits: symdp, the naive quadrature and the
    100-digit references then all see the same binary numbers (q = 0.2 is not one), so a certified ball can be held
    to containing its reference."""
    with mpmath.workdps(dps):
        s, d = mpf(SIGMA), mpf(DELTA)
        b, bd = mpf(LAPLACE_B), mpf(LAPLACE_DELTA)
        l1, l2, ld = mpf(LAP2_L1), mpf(LAP2_L2), mpf(LAP2_DELTA)
        q, qs, qd_ = mpf(SG_Q), mpf(SG_SIGMA), mpf(SG_DELTA)
    return [
        Family("Gaussian N(0,1) | N(1,1)", lambda: (Gaussian(0, s), Gaussian(d, s)),
               (lambda x: gaussian_logpdf(x, 0, s), lambda x: gaussian_logpdf(x, d, s)),
               lambda e: gaussian_delta(e, s, d), lambda a: gaussian_renyi(a, s, d),
               pld=lambda: _pld().from_gaussian_mechanism(float(s), sensitivity=float(d)),
               rdp=lambda a: _rdp_sampled_gaussian(1.0, float(s / d), a)),
        Family("Laplace Lap(0,1) | Lap(2,1)", lambda: (Laplace(0, b), Laplace(bd, b)),
               (lambda x: laplace_logpdf(x, 0, b), lambda x: laplace_logpdf(x, bd, b)),
               lambda e: laplace_delta(e, b, bd), lambda a: laplace_renyi(a, b, bd),
               pld=lambda: _pld().from_laplace_mechanism(float(b), sensitivity=float(bd)),
               rdp=lambda a: _rdp_laplace(float(bd / b), a)),
        Family("Lap2(0;.5,1) | Lap2(2;.5,1)", lambda: (Lap2(0, l1, l2), Lap2(ld, l1, l2)),
               (lambda x: lap2_logpdf(x, 0, l1, l2), lambda x: lap2_logpdf(x, ld, l1, l2)),
               lambda e: lap2_delta(e, l1, l2, ld), lambda a: lap2_renyi(a, l1, l2, ld)),
        Family("subsampled Gaussian q=.2", lambda: (Mixture(q, Gaussian(0, qs), Gaussian(qd_, qs)), Gaussian(0, qs)),
               (lambda x: sampled_gaussian_logpdf(x, q, qs, qd_), lambda x: gaussian_logpdf(x, 0, qs)),
               lambda e: sampled_gaussian_delta(e, q, qs, qd_), lambda a: sampled_gaussian_renyi(int(a), q, qs, qd_),
               pld=lambda: _pld().from_gaussian_mechanism(float(qs), sensitivity=float(qd_), sampling_prob=float(q)),
               rdp=lambda a: _rdp_sampled_gaussian(float(q), float(qs / qd_), a)),
    ]


# --- dp_accounting (the bench extra): absent is a column that says so ------------------------------------------------


def accountant_available() -> bool:
    """Whether dp_accounting is installed; imports it here (seconds of numpy/scipy), so no timing includes that."""
    try:
        from dp_accounting.pld import privacy_loss_distribution  # noqa: F401
        from dp_accounting.rdp import rdp_privacy_accountant  # noqa: F401
    except ImportError:
        return False
    return True


def _pld():
    from dp_accounting.pld import privacy_loss_distribution

    return privacy_loss_distribution


def _rdp_sampled_gaussian(q: float, noise_multiplier: float, alpha: float) -> float:
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    return float(rdp._compute_rdp_poisson_subsampled_gaussian(q, noise_multiplier, [alpha])[0])


def _rdp_laplace(eps: float, alpha: float) -> float:
    """dp_accounting's Laplace RDP, with ``eps = Δ/b`` (its ``LaplaceDpEvent`` passes ``1/noise_multiplier``)."""
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    return float(rdp._laplace_rdp(eps, alpha))


# --- measuring ----------------------------------------------------------------------------------------------------


@dataclass
class Cell:
    """One method's answer for one value: its value, seconds, correct digits, and (symdp) its error radius."""

    value: str | None = None
    seconds: float | None = None             # CPU seconds
    wall_seconds: float | None = None
    digits: float | None = None
    radius_digits: float | None = None
    contains_reference: bool | None = None   # whether [value ± error] holds the reference
    certified: bool | None = None
    note: str = ""


@dataclass
class Row:
    family: str
    quantity: str          # "delta" or "renyi"
    parameter: str         # ε or α
    reference: str
    cells: dict = field(default_factory=dict)


def correct_digits(value, reference) -> float:
    """``-log10(|value - reference| / |reference|)``, capped at :data:`DIGITS_CAP`.

    >>> correct_digits(mpf("1.001"), mpf(1)) > 2.99
    True
    """
    if not mpmath.isfinite(value):
        return 0.0
    with mpmath.workdps(REFERENCE_DPS):   # the difference at the reference's precision, not the caller's
        err = abs(mpmath.mpf(value) - reference) / abs(reference)
    return float(DIGITS_CAP) if err == 0 else max(0.0, min(float(DIGITS_CAP), float(-mpmath.log10(err))))


def radius_digits(value, error) -> float:
    """The error radius relative to the value, in digits: what the method itself claims."""
    if error == 0:
        return float(DIGITS_CAP)
    if not mpmath.isfinite(error) or value == 0:
        return 0.0
    return max(0.0, min(float(DIGITS_CAP), float(-mpmath.log10(abs(error) / abs(value)))))


class Stopwatch:
    """CPU and wall-clock seconds of a block. CPU time (this process and its finished children) is what the tables
    and goals use: on a machine shared with other jobs it does not grow with their load, and every method timed
    here runs on one core (wall clock is in ``--json`` too).

    >>> with Stopwatch() as clock:
    ...     _ = sum(range(1000))
    >>> 0 <= clock.cpu < 1 and 0 <= clock.wall < 1
    True
    """

    @staticmethod
    def _cpu() -> float:
        children = os.times()   # 10 ms ticks: fine for a child's seconds, too coarse for this process's milliseconds
        return time.process_time() + children.children_user + children.children_system

    def __enter__(self) -> "Stopwatch":
        self.wall, self.cpu = -time.perf_counter(), -self._cpu()
        return self

    def __exit__(self, *exc) -> None:
        self.wall += time.perf_counter()
        self.cpu += self._cpu()


def timed(fn):
    with Stopwatch() as clock:
        value = fn()
    return value, clock


def symdp_estimate(kind: str, P, Q, parameter, method: str):
    """``quadrature.hockey_stick`` or ``quadrature.renyi`` by ``method``. The certified route runs with closed forms
    off: while they are on, ``method="certified"`` answers a Gaussian or Laplace pair by its (uncertified) formula,
    and the route itself is what is measured here."""
    with closed_forms(False) if method == "certified" else contextlib.nullcontext():
        return getattr(qd, kind)(P, Q, parameter, method=method)


def symdp_cell(fn, reference, dps: int) -> Cell:
    """Run a symdp estimate at ``dps`` digits; an exception (e.g. a method not built yet) is a cell that says so."""
    try:
        with mpmath.workdps(dps):
            est, clock = timed(fn)
    except Exception as exc:   # the certified path may not exist yet: "not available", with the reason
        return Cell(note=f"not available: {type(exc).__name__}: {exc}"[:200])
    with mpmath.workdps(REFERENCE_DPS):
        inside = bool(abs(est.value - reference) <= est.error)
    return Cell(mpmath.nstr(est.value, dps), clock.cpu, clock.wall, correct_digits(est.value, reference),
                radius_digits(est.value, est.error), inside, bool(getattr(est, "certified", False)))


def naive_cell(logp, logq, quantity: str, parameter, reference, dps: int) -> Cell:
    """One ``mpmath.quad`` over ``(-inf, inf)`` of the integrand, unsplit, as a user would first write it."""
    with mpmath.workdps(dps):
        x = mpmath.mpf(parameter)
        if quantity == "delta":
            def integrand(t):
                return max(mpmath.mpf(0), mpmath.exp(logp(t)) - mpmath.exp(x + logq(t)))

            def run():
                return mpmath.quad(integrand, [-mpmath.inf, mpmath.inf])
        else:
            def integrand(t):
                return mpmath.exp(x * logp(t) + (1 - x) * logq(t))

            def run():
                return mpmath.log(mpmath.quad(integrand, [-mpmath.inf, mpmath.inf])) / (x - 1)
        value, clock = timed(run)
    return Cell(mpmath.nstr(value, dps), clock.cpu, clock.wall, correct_digits(value, reference))


def measure_family(fam: Family, eps_values, alphas, dps: int, use_accountant: bool) -> list[Row]:
    """Every method on δ(ε) at ``eps_values`` and R_α at ``alphas``; dp_accounting's PLD is built once per law."""
    rows, references = [], []
    for quantity, params in (("delta", eps_values), ("renyi", alphas)):
        kind = "hockey_stick" if quantity == "delta" else "renyi"
        for p in params:
            with mpmath.workdps(dps):
                x = mpf(p)   # the same binary ε or α for every method and the reference
            with mpmath.workdps(REFERENCE_DPS):
                reference = (fam.delta_reference if quantity == "delta" else fam.renyi_reference)(x)
            row = Row(fam.name, quantity, p, mpmath.nstr(reference, 30))

            def estimate(method, x=x, kind=kind):
                P, Q = fam.laws()
                return symdp_estimate(kind, P, Q, x, method)

            row.cells["certified"] = symdp_cell(lambda: estimate("certified"), reference, dps)
            row.cells["quadrature"] = symdp_cell(lambda: estimate("quadrature"), reference, dps)
            row.cells["naive quad"] = naive_cell(*fam.logpdfs, quantity, x, reference, dps)
            if not use_accountant:
                row.cells["dp_accounting"] = Cell(note="not installed (pip install '.[bench]')")
            elif (fam.pld if quantity == "delta" else fam.rdp) is None:
                row.cells["dp_accounting"] = Cell(note="no accountant for this law")
            elif quantity == "renyi":
                value, clock = timed(lambda: fam.rdp(float(x)))
                row.cells["dp_accounting"] = Cell(repr(value), clock.cpu, clock.wall,
                                                  correct_digits(mpf(value), reference), note="RDP")
            rows.append(row)
            references.append(reference)
    pending = [(r, ref) for r, ref in zip(rows, references) if "dp_accounting" not in r.cells]
    if pending:
        # One PLD per mechanism answers every ε: its build is shared by the family's values.
        with Stopwatch() as clock:
            deltas = fam.pld().get_delta_for_epsilon([float(r.parameter) for r, _ in pending])   # ε exact in binary
        n = len(pending)
        for (r, reference), d in zip(pending, deltas):
            r.cells["dp_accounting"] = Cell(repr(float(d)), clock.cpu / n, clock.wall / n,
                                            correct_digits(mpf(float(d)), reference),
                                            contains_reference=bool(float(d) >= reference * (1 - 1e-15)),
                                            note="PLD (build shared by the ε values)")
    return rows


# --- the headline: issue 9's 100 values of δ(ε) -------------------------------------------------------------------


@dataclass
class Headline:
    values: int
    dps: int
    certified_seconds: float | None = None        # CPU seconds, as every *_seconds here; *_wall: wall clock
    certified_wall: float | None = None
    certified_worst_digits: float | None = None
    certified_worst_radius_digits: float | None = None
    certified_all_contain: bool | None = None
    certified_all_certified: bool | None = None
    certified_note: str = ""
    quadrature_seconds_extrapolated: float | None = None
    quadrature_sampled: int = 0
    quadrature_worst_digits: float | None = None
    pld_seconds: float | None = None
    pld_wall: float | None = None
    pld_worst_digits: float | None = None
    pld_all_above: bool | None = None
    pld_note: str = ""


def headline(count: int, dps: int, use_accountant: bool, quadrature_samples: int) -> Headline:
    """δ(ε) of mix(0.2, N(0,1), N(1,1)) against N(0,1) at ``count`` evenly spaced ε in [0, 2]."""
    fam = families(dps)[3]
    with mpmath.workdps(dps):   # ε rounded once: symdp and the reference see the same binary numbers
        grid = [mpmath.mpf(2) * k / (count - 1) for k in range(count)] if count > 1 else [mpmath.mpf(1)]
    with mpmath.workdps(REFERENCE_DPS):
        references = [fam.delta_reference(e) for e in grid]
    out = Headline(count, dps)
    with mpmath.workdps(dps):   # symdp's laws round their parameters to the precision they are built at
        P, Q = fam.laws()
    try:
        with mpmath.workdps(dps):
            with Stopwatch() as clock:
                estimates = [symdp_estimate("hockey_stick", P, Q, e, "certified") for e in grid]
            out.certified_seconds, out.certified_wall = clock.cpu, clock.wall
        out.certified_worst_digits = min(correct_digits(e.value, r) for e, r in zip(estimates, references))
        out.certified_worst_radius_digits = min(radius_digits(e.value, e.error) for e in estimates)
        with mpmath.workdps(REFERENCE_DPS):
            out.certified_all_contain = all(abs(e.value - r) <= e.error for e, r in zip(estimates, references))
        out.certified_all_certified = all(bool(getattr(e, "certified", False)) for e in estimates)
    except Exception as exc:
        out.certified_note = f"not available: {type(exc).__name__}: {exc}"[:200]
    if quadrature_samples:
        picks = sorted({round(i * (count - 1) / max(1, quadrature_samples - 1)) for i in range(quadrature_samples)})
        with mpmath.workdps(dps):
            with Stopwatch() as clock:
                values = [qd.hockey_stick(P, Q, grid[i], method="quadrature").value for i in picks]
            out.quadrature_seconds_extrapolated = clock.cpu * count / len(picks)
        out.quadrature_sampled = len(picks)
        out.quadrature_worst_digits = min(correct_digits(v, references[i]) for v, i in zip(values, picks))
    if use_accountant:
        with Stopwatch() as clock:
            deltas = fam.pld().get_delta_for_epsilon([float(e) for e in grid])
        out.pld_seconds, out.pld_wall = clock.cpu, clock.wall
        out.pld_worst_digits = min(correct_digits(mpf(float(d)), r) for d, r in zip(deltas, references))
        out.pld_all_above = all(float(d) >= r * (1 - 1e-15) for d, r in zip(deltas, references))
    else:
        out.pld_note = "not installed (pip install '.[bench]')"
    return out


# --- the goals of issue 9 -----------------------------------------------------------------------------------------


@dataclass
class Goal:
    goal: str
    measured: str
    met: str   # "yes", "no" or "not measured"


def catalogue_run(jobs: int = 2, ids: tuple = ()) -> dict:
    """``symdp verify --jobs 2 --json --no-closed-forms`` (every divergence from the densities, a superset of the
    goal's "closed forms off for independent witnesses"), timed from outside."""
    with Stopwatch() as clock:
        proc = subprocess.run([sys.executable, "-m", "symdp.cli", "verify", *ids, "--jobs", str(jobs), "--json",
                               "--no-closed-forms"], capture_output=True, text=True)
    seconds = clock.wall   # the goal is wall clock with two processes; CPU would count both
    reports = json.loads(proc.stdout) if proc.stdout.strip() else []
    numeric = [r for r in reports if r.get("evidence") in ("independent", "closed-form")]
    return {"seconds": seconds, "theorems": len(reports), "numeric": len(numeric),
            # a printed statement refuted as expected stops at its counterexample: its draws are not "too few"
            "under_100": sorted(r["id"] for r in numeric if r["examples"] < 100 and r["verdict"] != "violated"),
            "draws": sum(r["examples"] for r in numeric)}


CLAIMS = [
    ("renyi(mix(q, gaussian(0, s), gaussian(1, s)), gaussian(0, s), 2) == log(1 + q**2*(exp(1/s**2) - 1))",
     "q in [0.001, 0.5], s in [0.5, 5]"),
    ("hockey_stick(lap2(0, l, 2*l), lap2(1, l, 2*l), e) <= 1", "l in [0.5, 2], e in [0, 1]"),
]
"""Parameterised claims on mixtures and Lap2 (the first is issue 9's), each checked with 100 draws."""


def claim_run(claim: str, where: str, timeout: float) -> tuple[float | None, str]:
    """``symdp check CLAIM --examples 100``: (CPU seconds of the finished child, verdict), or (None, why not)."""
    clock = Stopwatch()
    try:
        with clock:
            proc = subprocess.run([sys.executable, "-m", "symdp.cli", "check", claim, "--where", where,
                                   "--examples", "100", "--json"], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"> {timeout:.0f} s wall (stopped)"
    seconds = clock.cpu
    try:
        verdict = json.loads(proc.stdout)["verdict"]
    except (ValueError, KeyError):
        verdict = f"exit {proc.returncode}"
    return seconds, verdict


GOAL_DIGITS = 30
"""Certified digits the 100-value goal asks for: the headline is also run at this precision (the cheapest that can
meet it), and the goal is judged there."""


def goals(rows: list[Row], head: Headline, dps: int, catalogue: dict | None, claims: list | None,
          floor: Headline | None = None) -> list[Goal]:
    """Issue 9's goals, each with what was measured and whether it is met. ``floor``: the headline's certified run
    at :data:`GOAL_DIGITS` digits, against which the first goal is judged when given."""
    out = []
    # 1. the 100-value claim, at the least precision that can meet it
    if floor is not None and floor.certified_seconds is not None:
        head = replace(floor, pld_seconds=head.pld_seconds)
    if head.certified_seconds is None:
        out.append(Goal("100-value subsampled-Gaussian δ(ε): no slower than dp_accounting, ≥ 30 certified digits",
                        f"certified path {head.certified_note or 'not run'}", "no"))
    else:
        pld = f"{head.pld_seconds:.2f} s CPU" if head.pld_seconds is not None else "not measured"
        met = (head.pld_seconds is not None and head.certified_seconds <= head.pld_seconds
               and head.certified_worst_radius_digits >= 30 and head.certified_all_certified
               and head.certified_all_contain)
        out.append(Goal("100-value subsampled-Gaussian δ(ε): no slower than dp_accounting, ≥ 30 certified digits",
                        f"{head.values} values at {head.dps} digits: symdp {head.certified_seconds:.2f} s CPU, "
                        f"{head.certified_worst_radius_digits:.1f} certified digits; dp_accounting {pld}",
                        "yes" if met else "no"))
    # 2. any single divergence at 50 digits in 20 ms, certified
    cells = [r.cells["certified"] for r in rows]
    done = [c for c in cells if c.seconds is not None]
    if not done:
        out.append(Goal("any single divergence of the built-in families at 50 digits: ≤ 20 ms, certified",
                        "certified path not available", "no"))
    else:
        slowest = max(done, key=lambda c: c.seconds)
        uncertified = sum(1 for c in cells if not c.certified)
        met = dps >= 50 and not uncertified and slowest.seconds <= 0.020
        out.append(Goal("any single divergence of the built-in families at 50 digits: ≤ 20 ms, certified",
                        f"slowest {slowest.seconds * 1e3:.1f} ms CPU at {dps} digits; {uncertified} of {len(cells)} "
                        "values not certified", "yes" if met else "no"))
    # 3. the catalogue
    if catalogue is None:
        out.append(Goal("every numeric theorem ≥ 100 draws by default; catalogue with --jobs 2 under 60 s",
                        "not run (--catalogue)", "not measured"))
    else:
        under = catalogue["under_100"]
        met = catalogue["seconds"] < 60 and not under
        out.append(Goal("every numeric theorem ≥ 100 draws by default; catalogue with --jobs 2 under 60 s",
                        f"{catalogue['seconds']:.0f} s wall, {catalogue['draws'] / catalogue['seconds']:.1f} draws/s; "
                        f"{len(under)} of {catalogue['numeric']} numeric theorems under 100 draws",
                        "yes" if met else "no"))
    # 4. parameterised claims
    if claims is None:
        out.append(Goal("a parameterised claim with 100 draws on mixtures or Lap2: under 5 s",
                        "not run (--quick)", "not measured"))
    else:
        worst = [s for s, _ in claims]
        text = "; ".join(f"{s:.1f} s CPU ({v})" if s is not None else v for s, v in claims)
        met = all(s is not None and s < 5 for s in worst)
        out.append(Goal("a parameterised claim with 100 draws on mixtures or Lap2: under 5 s", text,
                        "yes" if met else "no"))
    return out


# --- printing -----------------------------------------------------------------------------------------------------

METHODS = ("certified", "quadrature", "naive quad", "dp_accounting")


def _fmt_cell(c: Cell) -> tuple[str, str]:
    if c is None or c.seconds is None:
        return "n/a", ""
    digits = f"{c.digits:.1f}"
    if c.radius_digits is not None:
        digits += f" ({c.radius_digits:.0f})"
    if c.certified:
        digits += " ✓"
    return f"{c.seconds * 1e3:.1f}", digits


def print_tables(rows: list[Row], head: Headline, goal_rows: list[Goal], dps: int, floor: Headline | None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, width=None if sys.stdout.isatty() else 180)
    table = Table(title=f"CPU time per value (ms) and correct digits, at {dps} digits", title_justify="left")
    table.add_column("law")
    table.add_column("value")
    for m in METHODS:
        table.add_column(f"{m}\nms", justify="right")
        table.add_column("\ndigits", justify="right")
    for r in rows:
        label = f"δ(ε={r.parameter})" if r.quantity == "delta" else f"R_α(α={r.parameter})"
        cells = []
        for m in METHODS:
            cells += _fmt_cell(r.cells[m])
        table.add_row(r.family, label, *cells)
    console.print(table, markup=False)
    notes = sorted({f"{m}: {r.cells[m].note}" for r in rows for m in METHODS
                    if r.cells[m] is not None and r.cells[m].seconds is None and r.cells[m].note})
    for note in notes:
        console.print(f"  n/a  {note}", markup=False)
    console.print(
        "  digits: -log10(|value - reference|/|reference|), capped at 95; (k): the error radius the method reports, "
        "in digits relative to the value; ✓: a certified enclosure.\n"
        "  references at 100 digits, never by symdp: Gaussian and Laplace closed forms (Balle & Wang 2018; Mironov "
        "2017); subsampled Gaussian δ(ε) from its single crossing point with mpmath.ncdf, Rényi from the binomial "
        "sum (Mironov, Talwar & Zhang 2019);\n"
        "  Lap2 (footnote): 100-digit mpmath.quad of eq. (6)'s density split at the kinks 0, Δ, the crossing "
        "point (found by root finding) and a geometric ladder into the tails.\n"
        "  dp_accounting (float64): PLD with its defaults (value_discretization_interval 1e-4, pessimistic), one "
        "build per law shared by its ε values; RDP from its module-level formulas. Times: CPU of one call "
        "(unaffected by other jobs' load; wall clock in --json).", markup=False)

    console.print()
    h = Table(title=f"issue 9's headline: δ(ε) of mix(0.2, N(0,1), N(1,1)) vs N(0,1) at {head.values} ε in [0, 2]",
              title_justify="left")
    for col in ("method", "CPU s", "wall s", "worst digits", "certified digits", "note"):
        h.add_column(col)
    if head.certified_seconds is not None:
        h.add_row(f"symdp certified ({head.dps} digits)", f"{head.certified_seconds:.2f}", f"{head.certified_wall:.2f}",
                  f"{head.certified_worst_digits:.1f}", f"{head.certified_worst_radius_digits:.1f}",
                  "every ball holds its reference" if head.certified_all_contain else "A BALL MISSES ITS REFERENCE")
    else:
        h.add_row("symdp certified", "n/a", "", "", "", head.certified_note)
    if floor is not None and floor.certified_seconds is not None:
        h.add_row(f"symdp certified ({floor.dps} digits, the goal's)", f"{floor.certified_seconds:.2f}",
                  f"{floor.certified_wall:.2f}", f"{floor.certified_worst_digits:.1f}",
                  f"{floor.certified_worst_radius_digits:.1f}",
                  "every ball holds its reference" if floor.certified_all_contain else "A BALL MISSES ITS REFERENCE")
    if head.quadrature_seconds_extrapolated is not None:
        h.add_row(f"symdp quadrature ({head.dps} digits)", f"~{head.quadrature_seconds_extrapolated:.0f}", "",
                  f"{head.quadrature_worst_digits:.1f}", "",
                  f"extrapolated from {head.quadrature_sampled} of the {head.values} values")
    if head.pld_seconds is not None:
        h.add_row("dp_accounting PLD (build + queries)", f"{head.pld_seconds:.2f}", f"{head.pld_wall:.2f}",
                  f"{head.pld_worst_digits:.1f}",
                  "0 (estimate)", "every value ≥ its reference (pessimistic)" if head.pld_all_above
                  else "SOME VALUE BELOW ITS REFERENCE")
    else:
        h.add_row("dp_accounting PLD", "n/a", "", "", "", head.pld_note)
    console.print(h, markup=False)

    console.print()
    g = Table(title="issue 9's goals", title_justify="left")
    for col in ("goal", "measured", "met"):
        g.add_column(col)
    for goal in goal_rows:
        g.add_row(goal.goal, goal.measured, goal.met)
    console.print(g, markup=False)


# --- main ---------------------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="smallest configuration: one ε and one α per law, 20 digits, 10 headline values")
    parser.add_argument("--dps", type=int, default=None, help="working precision in digits (default 50; 20 quick)")
    parser.add_argument("--json", action="store_true", help="print the measurements as one JSON object")
    parser.add_argument("--catalogue", action="store_true",
                        help="also time the whole catalogue (symdp verify --jobs 2): minutes, every core")
    args = parser.parse_args(argv)
    dps = args.dps or (20 if args.quick else 50)
    if not 5 <= dps <= 90:
        parser.error(f"--dps must be between 5 and 90 (references carry 100 digits), got {dps}")
    eps_values, alphas = (["0.5"], ["3"]) if args.quick else (["0.1", "0.5", "1"], ["2", "5", "20"])
    use_accountant = accountant_available()
    load = os.getloadavg()[0]   # wall clock grows with other jobs' load (CPU time hardly): the run says how loaded

    rows = [r for fam in families(dps) for r in measure_family(fam, eps_values, alphas, dps, use_accountant)]
    head = headline(10 if args.quick else 100, dps, use_accountant, 0 if args.quick else 5)
    floor = None if args.quick or dps == GOAL_DIGITS else headline(100, GOAL_DIGITS, False, 0)
    catalogue = catalogue_run() if args.catalogue else None
    claims = None if args.quick else [claim_run(c, w, timeout=60) for c, w in CLAIMS]
    goal_rows = goals(rows, head, dps, catalogue, claims, floor)

    if args.json:
        print(json.dumps({"dps": dps, "quick": args.quick, "accountant": use_accountant, "cores": os.cpu_count(),
                          "load_average": load,
                          "rows": [asdict(r) for r in rows],
                          "headline": asdict(head), "headline_at_goal_digits": floor and asdict(floor),
                          "catalogue": catalogue,
                          "goals": [asdict(g) for g in goal_rows]}, indent=2))
    else:
        print(f"{os.cpu_count()} cores, load average {load:.1f} at the start; times are CPU seconds of this process")
        print_tables(rows, head, goal_rows, dps, floor)
    return 0


if __name__ == "__main__":
    sys.exit(main())
