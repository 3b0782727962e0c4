"""The promise of ``symdp verify --json --draws``: each draw's ``values`` are written at the precision they were
computed at, so that the statement, evaluated by SymPy from them and nothing else, gives the reported ``quantity``
and ``bound`` to the draw's working digits.

The JSON is the report's own (:meth:`~symdp.verify.Report.to_json`, through ``json.dumps`` and back, as the command
line writes it); the sides are evaluated by SymPy from the statement that prints (no lambdify, no symdp code), the
values parsed from their decimal strings at 30 digits beyond the draw's. By default a sample of the catalogue, chosen
to cover an estimated draw whose sides cancel (bravo.defA.1.limit: |R - KL| ~ 3e-13 from values ~ 0.34, where a
value written as a binary64 expansion moves the quantity in its 4th digit), a derived measured symbol (the ε of
dwork.lem3.8), draws certified at 20 digits (dwork.lem3.9), a quadrature (balle19.eq6), an integer parameter and a
sum (bravo.id.sum39); with ``--run-slow``, every theorem of the catalogue.
"""

from __future__ import annotations

import json

import mpmath
import pytest
import sympy as sp

from symdp.plugin import check
from symdp.theorems import all_theorems, get

SAMPLE = ("bravo.defA.1.limit", "dwork.lem3.8", "dwork.lem3.9", "balle19.eq6", "bravo.id.sum39")
"""Cheap theorems of the default run (see the module's docstring)."""

EXAMPLES = 2
"""Draws beyond the pinned instances: enough to have estimated and certified draws, few enough to be cheap."""

SLACK = 8
"""Digits a side may lose from the rounding of its values to the draw's digits (the catalogue's test allows the same,
tests/test_catalogue.py)."""


def _number(text: str, digits: int) -> mpmath.mpf:
    with mpmath.workdps(digits):
        return mpmath.mpf(text)


def _side(theorem, side: sp.Basic, values: dict, digits: int) -> sp.Basic:
    """A side of the statement evaluated by SymPy at ``digits`` from a draw's ``values`` (decimal strings)."""
    atoms = {str(a): a for a in theorem.measured} | {p.name: p.symbol for p in theorem.parameters}
    integers = {p.name for p in theorem.parameters if p.integer}
    unknown = set(values) - set(atoms)
    assert not unknown, f"{theorem.id}: the draw's values name {sorted(unknown)}, which the statement does not"
    subs = {atoms[name]: sp.Integer(int(_number(text, digits))) if name in integers else sp.Float(text, digits)
            for name, text in values.items()}
    value = side.xreplace(subs)
    return value.doit().evalf(digits) if value.has(sp.Sum, sp.Product) else value.evalf(digits)


def _disagreements(theorem, report_json: dict) -> list[str]:
    """Every side of every draw that the statement, evaluated from the draw's values, does not reproduce."""
    wrong = []
    for i, draw in enumerate(report_json["draws"]):
        working = draw["dps"]
        digits = working + 30
        for name, side in (("quantity", theorem.statement.lhs), ("bound", theorem.statement.rhs)):
            reported = _number(draw[name], digits)
            value = _side(theorem, side, draw["values"], digits)
            if not mpmath.isfinite(reported):
                if not (value in (sp.oo, -sp.oo, sp.zoo) or value.is_finite is False):
                    wrong.append(f"draw {i}: {name} reported {draw[name]}, the statement gives {value}")
                continue
            with mpmath.workdps(digits):
                value = mpmath.mpf(str(sp.re(value)))
                tolerance = mpmath.mpf(10) ** -(working - SLACK) * max(1, abs(reported))
                if not abs(value - reported) <= tolerance:
                    wrong.append(f"draw {i} ({draw['verdict']}, {working} digits): {name} reported "
                                 f"{mpmath.nstr(reported, 25)}, the statement gives {mpmath.nstr(value, 25)} from "
                                 f"the values {draw['values']}")
    return wrong


def _check(theorem) -> None:
    report = check(theorem, examples=EXAMPLES, seed=3)
    # written as the command line writes it: outside any working precision (mpmath's default, 53 bits), not at the
    # 50 digits the tests run at (conftest.py), which would hide a value rounded to the context's precision
    with mpmath.workprec(53):
        written = json.loads(json.dumps(report.to_json(draws=True)))
    assert len(written["draws"]) == len(report.draws)
    wrong = _disagreements(theorem, written)
    assert not wrong, f"{theorem.id}: " + "\n".join(wrong)


@pytest.mark.parametrize("ident", SAMPLE)
def test_the_draws_values_reproduce_both_sides(ident):
    _check(get(ident))


@pytest.mark.slow
@pytest.mark.parametrize("theorem", all_theorems(), ids=lambda t: t.id)
def test_the_draws_values_reproduce_both_sides_across_the_catalogue(theorem):
    _check(theorem)
