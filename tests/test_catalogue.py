"""The whole catalogue under pytest: every theorem verifies as expected, every tight one is shown tight.

This is the regression test of the theory: a change to an engine, a witness or a statement that makes a true
theorem look violated, a printed erratum stop being refuted, or a tight bound stop being detectably tight fails here.
"""

from pathlib import Path

import pytest
import sympy as sp

from symdp.cli import expected_outcome
from symdp.theorems import all_theorems, get
from symdp.verify import HOLDS, VIOLATED, verify

THEOREMS = all_theorems()
TIGHT = [t for t in THEOREMS if t.erratum is None and (t.tight_everywhere or t.tight_at)]
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.id)
def test_theorem_verifies_as_the_catalogue_expects(theorem):
    report = verify(theorem, examples=min(theorem.default_examples or 100, 15), seed=1)
    assert expected_outcome(theorem, report), (report.verdict, report.reason, report.counterexample)
    if theorem.erratum is None and not theorem.symbolic_only:
        # nothing numeric is left inconclusive: a witness that cannot decide is a bug in the witness
        assert report.verdict == HOLDS, (report.verdict, report.reason)
    if report.verdict != HOLDS:
        assert report.reason or report.counterexample is not None


@pytest.mark.parametrize("theorem", TIGHT, ids=lambda t: t.id)
def test_tight_theorem_tightened_by_one_percent_is_refuted(theorem):
    report = verify(theorem.tightened(0.99), examples=10)
    assert report.verdict == VIOLATED and report.counterexample is not None


@pytest.mark.parametrize("theorem", THEOREMS, ids=lambda t: t.id)
def test_theorem_is_well_formed(theorem):
    paper, _, rest = theorem.id.partition(".")
    assert paper in ("balle19", "bertazzi", "bravo", "dwork") and rest
    assert theorem.source.seed.endswith(".txt") and theorem.source.number
    if SEEDS.is_dir():
        assert (SEEDS / theorem.source.seed).is_file()
    tex = theorem.latex()
    assert tex.startswith(r"\begin{theorem}") and tex.endswith(r"\end{theorem}")
    assert sp.latex(theorem.statement.lhs) in tex
    if theorem.erratum is not None and theorem.erratum.corrected_id:
        assert get(theorem.erratum.corrected_id).erratum is None


def test_the_three_named_results_are_encoded():
    ids = {t.id for t in THEOREMS}
    assert {"dwork.lem3.8", "dwork.lem3.9", "dwork.lem3.10"} <= ids  # antipodal KL
    assert {"bravo.lem3.5", "bravo.thm3.4", "balle19.ex1", "balle19.thm4.eq2"} <= ids  # shift optimality
    assert {"balle19.eq6", "balle19.lem3"} <= ids  # Laplace2 limit
