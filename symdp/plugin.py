"""The pytest plug-in: a test module's theorems run as tests whose outcome is the verdict.

A user's test module declares theorems the way the catalogue does, with :func:`~symdp.theorem.theorem` over a
witness (or ``register(Theorem(...))``), or lists them in a module-level ``THEOREMS``, and pytest collects each one
as a test item::

    # test_my_bounds.py
    @theorem(id="me.rr-kl", title="KL of randomized response", source=Source("my notes", "Lemma 1"),
             parameters=(Param(epsilon, sp.Interval.open(0, sp.oo), sample=(0.01, 5)),),
             statement=sp.Le(KL(P, Q), epsilon * sp.tanh(epsilon / 2)), evidence=INDEPENDENT, tight_everywhere=True)
    def rr_kl(point):
        ...

The outcome of an item is the verdict (:func:`outcome`): *holds* (or tight) passes; *violated* fails with the
counterexample; a printed statement recorded as an erratum passes when it is refuted (and fails when it is not);
*inconclusive* fails with the precision that would settle it; a symbolic-only statement is skipped with its reason.
A theorem that claims tightness (``tight_at`` or ``tight_everywhere``) must also be *shown* tight: its copy
tightened to 0.99 × the bound must be refuted (:func:`tightness_outcome`). Each item reports its draws and the
tightness check in the run's summary.

Options: ``--symdp-examples N`` (draws per theorem; default: the theorem's own), ``--symdp-dps D`` (working
precision), ``--symdp-seed S``, ``--symdp-no-closed-forms`` (every divergence from the densities).

A theorem is collected from the module that declares (registers) it, never from one that merely imports it, so
``from my_theorems import rr_kl`` in a second test module does not run it twice; a bare ``Theorem(...)`` that is
not registered (a fixture for testing the verifier) is not collected. A module that defines ``THEOREMS`` and also
declares theorems is collected from both (each theorem once; see :func:`module_theorems`).

Hypothesis keeps no files in the user's directory: symdp's searches use no example database, and the files
hypothesis caches for itself go to a temporary directory while symdp runs (:func:`~symdp.verify.detached_hypothesis`).

This module is imported by every pytest run of an environment where symdp is installed, so symdp itself is imported
only once a test module has (a module without theorems costs nothing).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Optional

from symdp.errors import SymdpError

try:
    import pytest
except ImportError:  # the command line uses the outcome helpers below without pytest installed
    pytest = None

TIGHTENING = 0.99
"""A tight theorem's bound is tightened to this fraction of itself, and the copy must be refuted."""

TIGHTNESS_EXAMPLES = 10
"""Draws for the tightened copy (beyond its pinned tight instances, which usually refute it at once)."""


# --- what a verdict means for a theorem -------------------------------------------------------------------------


def expected_outcome(theorem, report) -> bool:
    """Whether a report is what the theorem's declaration expects: a printed erratum refuted, anything else not
    violated.

    >>> import sympy as sp
    >>> from symdp.theorem import Erratum, Source, Theorem
    >>> S = sp.Symbol("S")
    >>> printed = Theorem("demo.printed", "2 > 3, as printed", Source("none", "eq. (1)"), sp.Ge(S, 3),
    ...                   witness=lambda point: 2, evidence="independent",
    ...                   erratum=Erratum("eq. (1)", "2 >= 3", "2 >= 1", {}))
    >>> expected_outcome(printed, check(printed)), describe(printed, check(printed))
    (True, 'violated as printed (erratum)')
    """
    from symdp.verify import VIOLATED

    if theorem.erratum is not None:
        return report.verdict == VIOLATED
    return report.verdict != VIOLATED


def describe(theorem, report) -> str:
    """The verdict in words, as the paper's reader wants it: an erratum refuted, an identity checked, a tight bound.
    """
    from symdp.verify import HOLDS, VIOLATED

    if theorem.erratum is not None:
        kind = theorem.erratum.kind
        if report.verdict == VIOLATED:
            return {"erratum": "violated as printed (erratum)", "conjecture": "refuted (conjecture of the paper)",
                    "sharpness": "refuted (relaxed copy: the hypothesis is sharp)"}[kind]
        return f"{report.verdict} ({kind} NOT reproduced)"
    if theorem.evidence == "identity":
        return "holds (identity, derivation checked)" if report.verdict == HOLDS else "identity NOT confirmed"
    if theorem.evidence == "symbolic":
        return "symbolic only (not checked)"
    if report.verdict == HOLDS and report.tight:
        return f"holds, tight ({report.tight}/{report.examples} draws equal)"
    return report.verdict


def claims_tightness(theorem) -> bool:
    """Whether the declaration says the bound is attained (so a tightened copy must be refuted)."""
    return theorem.numeric and theorem.erratum is None and bool(theorem.tight_everywhere or theorem.tight_at)


def _point(point) -> str:
    import json

    from symdp.verify import jsonable

    return json.dumps(jsonable(point))


def _number(x) -> str:
    import mpmath

    return "-" if x is None else mpmath.nstr(x, 6)


@dataclass(frozen=True)
class Outcome:
    """What a check of one theorem means for a test: passed, skipped (with the reason) or failed (with why)."""

    passed: bool
    summary: str
    explanation: str = ""
    skipped: bool = False


def outcome(theorem, report) -> Outcome:
    """The test outcome of a verification report: the verdict, with the counterexample or the precision it needs.

    >>> import sympy as sp
    >>> from symdp.theorem import Param, Source, Theorem
    >>> x, S = sp.Symbol("x", positive=True), sp.Symbol("S")
    >>> false = Theorem("demo.false", "x + 1/x <= 3", Source("none", "folklore"), sp.Le(S, 3),
    ...                 witness=lambda point: point["x"] + 1 / point["x"], evidence="independent",
    ...                 parameters=(Param(x, sp.Interval.open(0, 10)),))
    >>> result = outcome(false, check(false, examples=50))
    >>> result.passed, result.explanation.splitlines()[0]
    (False, 'demo.false is violated: counterexample {"x": 0.25}')
    """
    from symdp.verify import HOLDS, INCONCLUSIVE, VIOLATED

    draws = f"{report.examples} draw{'s' if report.examples != 1 else ''} at {report.dps} digits in " \
            f"{report.seconds:.2f} s"
    summary = f"{theorem.id}: {describe(theorem, report)}" + (f"; {draws}" if report.examples else "")
    if theorem.evidence == "symbolic":
        return Outcome(True, summary, report.reason, skipped=True)
    worst = report.worst
    if report.verdict == VIOLATED and theorem.erratum is None:
        lines = [f"{theorem.id} is violated: counterexample {_point(report.counterexample)}"]
        if worst is not None:
            lines.append(f"  quantity {_number(worst.quantity)} {theorem.relation} bound {_number(worst.bound)} "
                         f"fails by {_number(-worst.margin)} (error {_number(worst.error)})")
        lines.append(f"  statement: {theorem.statement}")
        return Outcome(False, summary, "\n".join(lines))
    if report.verdict != VIOLATED and theorem.erratum is not None:
        kind = theorem.erratum.kind
        return Outcome(False, summary, f"{theorem.id}: the printed statement ({kind}) is recorded as wrong, but "
                                       f"{report.examples} draws did not refute it ({report.verdict}); its recorded "
                                       f"counterexample is {_point(theorem.erratum.counterexample)}")
    if report.verdict == INCONCLUSIVE:
        settle = re.search(r"try --dps (\d+)", report.reason)
        hint = f"; rerun with --symdp-dps {settle.group(1)}" if settle else ""
        return Outcome(False, summary, f"{theorem.id} is inconclusive: {report.reason}{hint}")
    assert report.verdict in (HOLDS, VIOLATED)
    return Outcome(True, summary)


def tightness_outcome(theorem, report) -> Outcome:
    """Whether a tight theorem is *shown* tight: ``report`` verifies its copy tightened to 0.99 × the bound, which
    must be refuted at a draw where neither side is 0 (a bound of 0 has no slack to take away)."""
    from symdp.verify import VIOLATED

    worst = report.worst
    if report.verdict == VIOLATED and worst is not None and worst.bound != 0 and worst.quantity != 0:
        return Outcome(True, f"tightened x{TIGHTENING} refuted at {_point(report.counterexample)}")
    return Outcome(False, f"tightened x{TIGHTENING} NOT refuted",
                   f"{theorem.id} claims tightness, but its copy tightened to {TIGHTENING} x the bound is "
                   f"{report.verdict} after {report.examples} draws: the checker cannot see that the bound is "
                   f"attained")


# --- running a check --------------------------------------------------------------------------------------------


def check(theorem, *, examples: Optional[int] = None, dps: Optional[int] = None, seed: int = 0,
          use_closed_forms: bool = True):
    """Verify a theorem as the plug-in does: no files left behind, closed forms on or off. Returns the report."""
    from symdp.precision import DEFAULT_DPS, closed_forms
    from symdp.verify import verify

    with closed_forms(use_closed_forms):
        return verify(theorem, examples=examples, dps=DEFAULT_DPS if dps is None else dps, seed=seed)


# --- collection -------------------------------------------------------------------------------------------------


def module_theorems(module) -> list:
    """The theorems a module declares: those it registers (with :func:`~symdp.theorem.theorem`, or
    :func:`~symdp.theorem.register`), in declaration order, then those of its ``THEOREMS`` not among them (imported
    ones, say), in the list's order. A theorem both registered and listed is collected once.

    A theorem built with a bare ``Theorem(...)`` and not registered (a test's fixture for the verifier, say), or one
    the module imports from another, is not collected unless ``THEOREMS`` lists it. A module imported twice registers
    its theorems twice: the later declaration of an ID wins. Two different theorems sharing an ID (two listed, two
    declared, or one of each) are an error naming it: their reports could not be told apart.

    >>> import symdp.theorems.bravo as bravo
    >>> module_theorems(bravo) == bravo.THEOREMS
    True
    """
    from symdp.theorem import REGISTRY, Theorem

    found = list(REGISTRY.get(module.__name__, ()))
    listed = getattr(module, "THEOREMS", None)
    if listed is not None:
        found += [t for t in listed if isinstance(t, Theorem)]
    unique = []
    for t in found:
        if any(t is u for u in unique):
            continue
        if any(t.id == u.id for u in unique):
            raise SymdpError(f"{module.__name__} declares two theorems with the ID {t.id!r}: each needs an ID of its "
                             f"own (a claim's is derived from its text unless given: claim_theorem(..., id=))")
        unique.append(t)
    return unique


def pytest_addoption(parser):
    group = parser.getgroup("symdp", "symdp: theorems as tests")
    group.addoption("--symdp-examples", type=int, default=None, metavar="N",
                    help="hypothesis draws per theorem (default: each theorem's own, else 100)")
    group.addoption("--symdp-dps", type=int, default=None, metavar="D",
                    help="working precision in decimal digits (default: symdp's, 50)")
    group.addoption("--symdp-seed", type=int, default=0, metavar="S", help="seed of the draws (runs are deterministic)")
    group.addoption("--symdp-no-closed-forms", action="store_true", default=False,
                    help="compute every divergence from the densities (quadrature), never by a closed form")


def _collect_theorems(collector) -> list:
    """Test items for the theorems a test module declares (nothing where symdp was never imported)."""
    if "symdp.theorem" not in sys.modules:
        return []
    return [TheoremItem.from_parent(collector, name=t.id, theorem=t) for t in module_theorems(collector.obj)]


if pytest is not None:

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(collector):
        """A test module's theorems join its tests (after them), once the module is imported and collected."""
        report = yield
        # A test module exactly: not a module collected for its doctests (pytest's DoctestModule is a Module too),
        # which would run a whole library of theorems, the catalogue's own modules included, as tests.
        if type(collector) is pytest.Module and report.passed:
            try:
                report.result.extend(_collect_theorems(collector))
            except SymdpError as exc:   # two theorems with one ID: the module's collection error, in one line
                report.outcome, report.longrepr, report.result = "failed", str(exc), []
        return report


class TheoremFailed(Exception):
    """A theorem whose verdict is not the one its declaration expects (the message says why)."""


class TheoremItem(pytest.Item if pytest is not None else object):
    """One theorem as a test: verified with the run's options, then, where it claims tightness, shown tight."""

    def __init__(self, *, theorem, **kwargs):
        super().__init__(**kwargs)
        self.theorem = theorem

    def runtest(self) -> None:
        option = self.config.getoption
        job = dict(dps=option("symdp_dps"), seed=option("symdp_seed"),
                   use_closed_forms=not option("symdp_no_closed_forms"))
        result = outcome(self.theorem, check(self.theorem, examples=option("symdp_examples"), **job))
        lines = [result.summary]
        if result.passed and not result.skipped and claims_tightness(self.theorem):
            tight = tightness_outcome(self.theorem, check(self.theorem.tightened(TIGHTENING),
                                                          examples=TIGHTNESS_EXAMPLES, **job))
            lines.append(f"  {tight.summary}")
            result = Outcome(tight.passed, result.summary, tight.explanation)
        self.user_properties.append(("symdp", "\n".join(lines)))
        if result.skipped:
            pytest.skip(f"{self.theorem.id}: {result.explanation}")
        if not result.passed:
            raise TheoremFailed(result.explanation)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, TheoremFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        return self.path, None, f"theorem {self.theorem.id}"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line per theorem: its verdict, draws and tightness check."""
    lines = [text for reports in terminalreporter.stats.values() for report in reports
             if getattr(report, "when", None) == "call"
             for key, text in getattr(report, "user_properties", ()) if key == "symdp"]
    if lines and config.getoption("verbose") >= 0:
        terminalreporter.section("symdp verdicts")
        for text in lines:
            terminalreporter.line(text)


# --- a user's module -------------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def load_module(reference: str):
    """A user's module of theorems, from a file path (``my_theorems.py``) or a dotted name (``mypkg.bounds``).

    A file's own directory is put on ``sys.path`` first, so that it imports its neighbours as it would under pytest.
    Every way this can fail is one :class:`~symdp.errors.SymdpError` naming the module and the problem.
    """
    as_path = Path(reference)
    if reference.endswith(".py") or os.sep in reference:
        if not as_path.is_file():
            raise SymdpError(f"cannot find the module file {reference}")
        name = as_path.stem
        taken = sys.modules.get(name)
        if taken is not None and Path(getattr(taken, "__file__", "") or "").resolve() != as_path.resolve():
            name = f"symdp_user_{name}"  # a module of that name is already loaded (symdp, say): keep both
        spec = importlib.util.spec_from_file_location(name, as_path)
        module = importlib.util.module_from_spec(spec)
        folder = str(as_path.resolve().parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[name]
            raise SymdpError(f"cannot import {reference}: {_one_line(exc)}") from None
        return module
    try:
        return importlib.import_module(reference)
    except ModuleNotFoundError as exc:
        if exc.name is not None and reference.startswith(exc.name):
            raise SymdpError(f"cannot find the module {reference!r} (give a file path, or a dotted name "
                             f"importable from here)") from None
        raise SymdpError(f"cannot import {reference}: {_one_line(exc)}") from None
    except Exception as exc:
        raise SymdpError(f"cannot import {reference}: {_one_line(exc)}") from None


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".rstrip(": ")
