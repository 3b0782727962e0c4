"""The closed forms of Gaussian and Laplace pairs (``symdp.engine.closed_forms``): time per call, correct digits, and
whether the result is an enclosure; with ``--against REF``, the same module at a git revision, side by side (the
mpmath formulas before they were written in Arb: ``--against aad3e47~1``).

    python3 benchmarks/bench_closed_forms.py
    python3 benchmarks/bench_closed_forms.py --against aad3e47~1 --dps 50

Correct digits are counted against references computed here with mpmath at four times the digits, from the
textbook formulas written out again (never by symdp): KL and Rényi of Gaussians (Gil et al. 2013; Mironov 2017), the
Gaussian hockey-stick divergence Φ(-ε/τ + τ/2) - e^ε Φ(-ε/τ - τ/2) (Balle & Wang 2018), Laplace KL z + e^{-z} - 1
and Rényi (Mironov 2017, Table II), Laplace δ(ε) = 1 - e^{(ε - z)/2} (|ε| < z).
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path

import mpmath

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from symdp.engine import closed_forms  # noqa: E402
from symdp.numeric import to_mpf  # noqa: E402


def reference(name: str, args: tuple) -> mpmath.mpf:
    """The textbook value at the parameters ``args`` (mpf), at the working precision (the caller sets it far beyond
    the one measured)."""
    a = list(args)
    if name == "gaussian_kl":
        m1, s1, m2, s2 = a
        return mpmath.log(s2 / s1) + (s1**2 + (m1 - m2) ** 2) / (2 * s2**2) - mpmath.mpf(1) / 2
    if name == "gaussian_renyi":
        m1, s1, m2, s2, al = a
        sa = al * s2**2 + (1 - al) * s1**2
        return mpmath.log(s2 / s1) + mpmath.log(s2**2 / sa) / (2 * (al - 1)) + al * (m1 - m2) ** 2 / (2 * sa)
    if name == "gaussian_hockey_stick":
        d, s, e = a
        t = abs(d) / s
        return mpmath.ncdf(-e / t + t / 2) - mpmath.exp(e) * mpmath.ncdf(-e / t - t / 2)
    if name == "laplace_kl":
        z = abs(a[0]) / a[1]
        return z + mpmath.exp(-z) - 1
    if name == "laplace_renyi":
        d, lam, al = a
        z = abs(d) / lam
        return mpmath.log(al / (2 * al - 1) * mpmath.exp((al - 1) * z)
                          + (al - 1) / (2 * al - 1) * mpmath.exp(-al * z)) / (al - 1)
    if name == "laplace_hockey_stick":
        d, lam, e = a
        return 1 - mpmath.exp((e - abs(d) / lam) / 2)
    raise ValueError(name)


CASES = [
    ("gaussian_kl", (0.3, 1.0, 0.0, 1.2)),
    ("gaussian_kl", (0.0, 1.0, 0.0, 1.0 + 2.0 ** -40)),        # cancels: ln(s2/s1) against (s1² - s2²)/(2 s2²)
    ("gaussian_renyi", (0.3, 1.0, 0.0, 1.0, 3.5)),
    ("gaussian_hockey_stick", (1.0, 1.0, 0.7)),
    ("gaussian_hockey_stick", (1.0, 1.0, 40.0)),                # two tails of 10^-343 that cancel
    ("laplace_kl", (1e-30, 1.0)),                               # z²/2 under z - z
    ("laplace_renyi", (0.3, 0.7, 5.5)),
    ("laplace_hockey_stick", (2.0, 1.0, 0.5)),
]


def previous_module(ref: str):
    """``symdp/engine/closed_forms.py`` at the git revision ``ref``, loaded beside the current one."""
    source = subprocess.run(["git", "show", f"{ref}:symdp/engine/closed_forms.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "closed_forms_previous.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("closed_forms_previous", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def digits(value, truth) -> float:
    if value == truth:
        return float("inf")
    return float(-mpmath.log10(abs(value - truth) / abs(truth))) if truth else float(-mpmath.log10(abs(value)))


def measure(module, name, args, dps, number) -> tuple[float, float, str]:
    """(µs per call, correct digits, enclosure: ✓ if the ball holds the reference, - if the module gives none)."""
    function = getattr(module, name)
    with mpmath.workdps(dps):
        # the parameters as symdp reads them at this precision (a float is the decimal it prints as), given to the
        # formula and to the reference alike: what is measured is the formula, not the rounding of its parameters
        args = [to_mpf(a) for a in args]
        seconds = timeit.timeit(lambda: function(*args), number=number) / number
        value = function(*args)
        ball = function.ball(*args) if hasattr(function, "ball") else None
    with mpmath.workdps(4 * dps):
        truth = reference(name, args)
        encloses = "-" if ball is None else ("✓" if _contains(ball, truth) else "✗")
        return seconds * 1e6, digits(value, truth), encloses


def _contains(ball, truth) -> bool:
    from symdp.estimate import mpf_of

    return abs(mpf_of(ball.mid()) - truth) <= mpf_of(ball.rad())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REF", help="a git revision whose closed_forms.py to time beside")
    parser.add_argument("--dps", type=int, default=50)
    parser.add_argument("--number", type=int, default=300, help="calls per timing")
    args = parser.parse_args(argv)
    modules = [("now", closed_forms)] + ([(args.against, previous_module(args.against))] if args.against else [])
    header = f"{'formula':22s} {'parameters':36s}" + "".join(f" {label[:12]:>12s} µs  digits  ball" for label, _ in
                                                               modules)
    print(f"closed forms at {args.dps} digits; digits against mpmath references at {4 * args.dps} digits")
    print(header)
    for name, params in CASES:
        row = f"{name:22s} {', '.join(map(repr, params)):36s}"
        for _, module in modules:
            micro, correct, encloses = measure(module, name, params, args.dps, args.number)
            row += f" {micro:15.0f} {min(correct, 999):7.1f}  {encloses:>4s}"
        print(row)


if __name__ == "__main__":
    main()
