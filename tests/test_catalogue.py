"""The whole catalogue under pytest: every theorem verifies as expected, every tight one is shown tight.

This is the regression test of the theory: a change to an engine, a witness or a statement that makes a true
theorem look violated, a printed erratum stop being refuted, or a tight bound stop being detectably tight fails here.
It also holds the model's promises: the bound that is checked is the statement that prints (every draw's two sides
are reproduced by SymPy from the statement and the measured values), every theorem declares its evidence, and one
name is one symbol across the catalogue.

The verdicts are judged by the pytest plug-in's own machinery (:mod:`symdp.plugin`: ``check``, ``outcome``,
``tightness_outcome``), with the catalogue's draw policy below; the catalogue is named ``CATALOGUE`` here, not
``THEOREMS``, which the plug-in would collect as 180 more tests at its default draws.
"""

from collections import defaultdict
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from symdp.plugin import (TIGHTENING, TIGHTNESS_EXAMPLES, check, claims_tightness, expected_outcome, outcome,
                          tightness_outcome)
from symdp.theorem import EVIDENCE, INDEPENDENT
from symdp.theorems import all_theorems, get
from symdp.verify import HOLDS, default_draws

CATALOGUE = all_theorems()
TIGHT = [t for t in CATALOGUE if claims_tightness(t)]
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def _reproduce(theorem, draw) -> None:
    """Substitute a draw's measured values into the statement and evaluate both sides with SymPy (no lambdify)."""
    atoms = {str(a): a for a in theorem.measured} | {p.name: p.symbol for p in theorem.parameters}
    integers = {p.name for p in theorem.parameters if p.integer}
    subs = {atoms[name]: sp.Integer(int(value)) if name in integers else sp.Float(mpmath.nstr(value, 70), 70)
            for name, value in draw.values.items()}
    for side, reported in ((theorem.statement.lhs, draw.quantity), (theorem.statement.rhs, draw.bound)):
        value = side.xreplace(subs)
        value = value.doit().evalf(60) if value.has(sp.Sum, sp.Product) else value.evalf(60)
        if not mpmath.isfinite(reported):
            assert value in (sp.oo, -sp.oo, sp.zoo) or not value.is_finite, (side, value, reported)
            continue
        value = mpmath.mpf(str(sp.re(value)))
        # a draw decided by enclosures at 20 digits was evaluated at 20 digits; the others at dps and beyond. A
        # certified side is the midpoint of a ball computed from the measurements' balls, which lies within the
        # draw's error of the statement at their midpoints (a wide ball: a subgaussian standard proved to 26 digits)
        digits = min(40, draw.dps - 8) if draw.dps else 40
        slack = mpmath.mpf(10) ** -digits * max(1, abs(reported)) + (draw.error if draw.certified else 0)
        assert abs(value - reported) <= slack, (side, value, reported, draw.error)


def _draws(theorem) -> int:
    """Draws beyond the pinned instances: a few, and one where the theorem's own default is small because each draw
    costs a quadrature (`symdp verify`, CI's main job, runs every theorem's full default with closed forms on)."""
    default = default_draws(theorem)
    return 1 if default <= 15 else min(default, 5)


@pytest.mark.parametrize("theorem", CATALOGUE, ids=lambda t: t.id)
def test_theorem_verifies_as_the_catalogue_expects(theorem):
    # An independent theorem is verified with every closed-form divergence of the engine switched off: its verdict
    # must not rest on a formula (and `symdp verify` gives the same verdict with them on).
    report = check(theorem, examples=_draws(theorem), seed=1, use_closed_forms=theorem.evidence != INDEPENDENT)
    result = outcome(theorem, report)
    # as under the plug-in: nothing is left inconclusive (a witness that cannot decide is a bug in the witness), a
    # printed erratum is refuted, and only a symbolic statement goes unchecked, with its reason
    assert result.passed, result.explanation
    assert result.skipped == (theorem.evidence == "symbolic") and (report.verdict == HOLDS or report.reason
                                                                   or report.counterexample is not None)
    assert report.evidence == theorem.evidence, f"declared {theorem.evidence}, computed by {report.method}"
    for draw in report.draws:
        _reproduce(theorem, draw)


@pytest.mark.slow
@pytest.mark.parametrize("theorem", CATALOGUE, ids=lambda t: t.id)
def test_theorem_verifies_at_its_full_default_with_and_without_closed_forms(theorem):
    with_forms = check(theorem, seed=2)
    assert expected_outcome(theorem, with_forms), (with_forms.verdict, with_forms.reason)
    if theorem.evidence == INDEPENDENT:
        without = check(theorem, seed=2, use_closed_forms=False)
        assert without.verdict == with_forms.verdict, (without.verdict, without.reason)


@pytest.mark.parametrize("theorem", TIGHT, ids=lambda t: t.id)
def test_tight_theorem_tightened_by_one_percent_is_refuted_where_the_bound_is_not_zero(theorem):
    result = tightness_outcome(theorem, check(theorem.tightened(TIGHTENING), examples=TIGHTNESS_EXAMPLES))
    assert result.passed, result.explanation


@pytest.mark.parametrize("theorem", CATALOGUE, ids=lambda t: t.id)
def test_theorem_is_well_formed(theorem):
    paper, _, rest = theorem.id.partition(".")
    assert paper in ("balle19", "bertazzi", "bravo", "dwork") and rest
    assert theorem.source.seed.endswith(".txt") and theorem.source.number
    if SEEDS.is_dir():
        assert (SEEDS / theorem.source.seed).is_file()
    assert theorem.evidence in EVIDENCE
    assert not hasattr(theorem, "evaluator"), "the bound is the statement: no hand-written evaluator"
    tex = theorem.latex()
    env = "erratum" if theorem.erratum is not None else "theorem"
    assert tex.startswith(rf"\begin{{{env}}}") and tex.rstrip().endswith(rf"\end{{{env}}}")
    if theorem.erratum is not None and theorem.erratum.corrected_id:
        assert get(theorem.erratum.corrected_id).erratum is None
    if theorem.erratum is not None and theorem.erratum.same_as:
        assert get(theorem.erratum.same_as).erratum is not None


def test_one_name_is_one_symbol_across_the_catalogue():
    seen = defaultdict(set)
    for t in CATALOGUE:
        for s in t.statement.free_symbols | {p.symbol for p in t.parameters}:
            seen[s.name].add(s)
    clashes = {name: sorted(str(s.assumptions0) for s in symbols) for name, symbols in seen.items()
               if len(symbols) > 1}
    assert not clashes


def test_the_three_named_results_are_encoded_with_independent_evidence():
    named = {
        "antipodal KL": ("dwork.lem3.8", "dwork.lem3.9", "dwork.lem3.10"),
        "shift optimality": ("bravo.lem3.5", "bravo.thm3.4", "balle19.ex1", "balle19.thm4.eq2"),
        "Laplace2 limit": ("balle19.eq6", "balle19.lem3"),
    }
    for ids in named.values():
        for ident in ids:
            assert get(ident).evidence == INDEPENDENT, ident
