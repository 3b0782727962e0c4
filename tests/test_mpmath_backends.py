"""symdp under both of mpmath's integer backends: GMP's (gmpy2, a dependency: the catalogue's CPU is ~5% less with it)
and Python's own integers (``MPMATH_NOGMPY=1``, what an install without gmpy2 gets).

mpmath's arithmetic is exact integer arithmetic rounded by one set of rules, so the backend changes the speed and
nothing else: the same draws, verdicts and margins to the last digit. The GMP backend's raw constructor takes no
``prec=None`` for "exactly" (Python's does), which once made symdp fail on import under gmpy2.
"""

import json
import os
import subprocess
import sys
from fractions import Fraction

import mpmath
import pytest
from flint import arb

from symdp.estimate import arb_precision, mpf_down, mpf_of, mpf_up

# theorems whose evaluation goes through mpmath's raw numbers: Arb balls read back exactly (mpf_of), quadrature,
# a privacy loss's standard, a finite chain (importing bravo ran a declaration through mpf_of)
THEOREMS = ["bravo.thm5.2", "dwork.fact2.2", "balle19.ex2", "bertazzi.thm5.4"]


def _verify(backend_off: bool) -> tuple[str, dict]:
    """mpmath's backend in a fresh ``symdp verify --json`` of :data:`THEOREMS`, and its reports by ID."""
    env = {k: v for k, v in os.environ.items() if k != "MPMATH_NOGMPY"}
    if backend_off:
        env["MPMATH_NOGMPY"] = "1"
    code = ("import sys, mpmath.libmp; print(mpmath.libmp.BACKEND, file=sys.stderr); from symdp.cli import main; "
            "sys.exit(main())")
    done = subprocess.run([sys.executable, "-c", code, "verify", "--json", "--quiet", "--examples", "6", "--jobs", "1",
                           *THEOREMS], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    backend = done.stderr.strip().splitlines()[0]
    return backend, {r["id"]: {k: v for k, v in r.items() if k != "seconds"} for r in json.loads(done.stdout)}


def test_both_backends_give_the_same_reports():
    gmp, with_gmp = _verify(backend_off=False)
    python, without = _verify(backend_off=True)
    assert python == "python"
    if gmp != "gmpy":
        pytest.skip("gmpy2 is not installed here: only the Python backend ran")
    assert with_gmp.keys() == without.keys() >= set(THEOREMS)   # (an ID names its refinements too)
    # (exit 0: each as expected) every field but the time, and the worst margin's error, whose digits beyond the
    # tenth follow the process's history of precisions
    for ident in with_gmp:
        assert {k: v for k, v in with_gmp[ident].items() if k != "worst_margin_error"} == \
            {k: v for k, v in without[ident].items() if k != "worst_margin_error"}, ident


def _value(x) -> Fraction:
    """An mpf or an exact Arb number as a fraction."""
    if isinstance(x, arb):
        man, exp = x.man_exp()
    else:
        sign, mantissa, exp, _ = x._mpf_
        man = -mantissa if sign else mantissa
    return Fraction(int(man)) * Fraction(2) ** int(exp)


@pytest.mark.parametrize("build", [lambda: 1 + arb(2) ** -300, lambda: -arb(3) / 7, lambda: arb(0),
                                   lambda: arb(2) ** 4000 + 1])
def test_an_arb_number_is_read_back_exactly_or_rounded_outwards(build):
    with arb_precision(4100):
        mid = build().mid()
    with mpmath.workprec(20):   # every bit, whatever the working precision; rounded to 20 bits, outwards
        exact, low, high = mpf_of(mid), mpf_down(mid), mpf_up(mid)
    assert _value(exact) == _value(mid)
    assert _value(low) <= _value(mid) <= _value(high)
    assert _value(high) - _value(low) <= abs(_value(mid)) / 2 ** 18
