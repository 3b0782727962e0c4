"""The command line, against a registry of toy theorems whose truth is known (and, at the end, the real one)."""

import json

import pytest
import sympy as sp

import symdp.theorems as registry
from symdp.cli import main
from tests import toy_theorems as toy


@pytest.fixture
def toys(monkeypatch):
    monkeypatch.setattr(registry, "all_theorems", lambda: toy.ALL)


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_list_json(toys, capsys):
    status, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert status == 0 and [r["id"] for r in rows] == [t.id for t in toy.ALL]
    assert rows[0]["tight"] is True


def test_verify_json_has_the_documented_fields(toys, capsys):
    status, out, _ = run(capsys, "verify", "toy.amgm", "toy.false", "--examples", "30", "--json")
    rows = json.loads(out)
    for row in rows:
        assert {"id", "verdict", "examples", "worst_margin", "counterexample", "seconds"} <= set(row)
    by_id = {r["id"]: r for r in rows}
    assert by_id["toy.amgm"]["verdict"] == "holds" and by_id["toy.amgm"]["counterexample"] is None
    assert by_id["toy.false"]["verdict"] == "violated" and "x" in by_id["toy.false"]["counterexample"]
    assert status == 1  # a violated theorem without an erratum fails the run


def test_refuted_erratum_is_expected_and_does_not_fail_the_run(toys, capsys):
    status, out, _ = run(capsys, "verify", "toy.printed", "toy.amgm", "--examples", "10", "--json")
    assert status == 0
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["toy.printed"]["verdict"] == "violated" and rows["toy.printed"]["erratum"] is True


def test_prefix_selects_and_unknown_id_is_one_line_error(toys, capsys):
    status, out, _ = run(capsys, "list", "toy", "--json")
    assert status == 0 and len(json.loads(out)) == len(toy.ALL)
    status, _, err = run(capsys, "verify", "nosuch")
    assert status == 2 and err.strip() == "symdp: error: no theorem matches 'nosuch' (see `symdp list`)"


def test_show_and_latex(toys, capsys):
    status, out, _ = run(capsys, "show", "toy.printed")
    assert status == 0 and "erratum" in out and "x + 1/x >= 2" in out
    status, out, _ = run(capsys, "show", "toy.amgm", "--latex")
    assert out.startswith("\\begin{theorem}") and "\\geq 2" in out


def test_errata_json(toys, capsys):
    status, out, _ = run(capsys, "errata", "--json")
    rows = json.loads(out)
    assert status == 0 and rows == [{"id": "toy.printed", "kind": "erratum", "severity": "mathematics",
                                     "same_as": None, "location": "toy eq. (1)", "printed": "x + 1/x >= 5/2",
                                     "corrected": "x + 1/x >= 2", "corrected_id": "toy.amgm",
                                     "counterexample": {"x": 1}}]


def test_verify_json_draws_reproduce_both_sides_from_the_statement(toys, capsys):
    # The contract: substituting a draw's values into the statement's two sides and evaluating them with SymPy
    # gives the reported quantity and bound.
    status, out, _ = run(capsys, "verify", "toy.amgm", "--examples", "10", "--json", "--draws")
    (row,) = json.loads(out)
    assert status == 0 and row["evidence"] == "independent" and len(row["draws"]) == row["examples"]
    statement = toy.AMGM.statement
    symbols = {str(s): s for s in statement.free_symbols}
    for draw in row["draws"]:
        subs = {symbols[name]: sp.Float(value, 60) for name, value in draw["values"].items() if name in symbols}
        for side, key in ((statement.lhs, "quantity"), (statement.rhs, "bound")):
            value = sp.N(side.subs(subs), 60)
            assert abs(value - sp.Float(draw[key], 60)) <= 1e-45 * max(1, abs(value)), (key, draw)


def test_no_closed_forms_switches_the_engine_to_quadrature(capsys):
    claim = "kl(laplace(0, 1), laplace(1, 1)) <= 0.37"
    status, out, _ = run(capsys, "check", claim, "--json")
    assert status == 0 and json.loads(out)["method"] == "closed form"
    status, out, _ = run(capsys, "check", claim, "--json", "--no-closed-forms")
    assert status == 0 and json.loads(out)["method"] == "quadrature"


def test_table_output_mentions_verdicts(toys, capsys):
    status, out, _ = run(capsys, "verify", "toy.amgm", "toy.printed", "--examples", "10")
    assert status == 0 and "holds, tight" in out and "erratum" in out


def test_negative_examples_is_an_error(capsys):
    status, _, err = run(capsys, "verify", "--examples", "-1")
    assert status == 2 and "--examples" in err


def test_real_catalogue_ids_are_unique_and_listed(capsys):
    status, out, _ = run(capsys, "list", "--json")
    ids = [r["id"] for r in json.loads(out)]
    assert status == 0 and len(ids) == len(set(ids))


def test_conjectures_and_sharpness_witnesses_are_named_for_what_they_are(monkeypatch, capsys):
    from dataclasses import replace

    printed = toy.PRINTED_WRONG
    conjecture = replace(printed, id="toy.conjecture", erratum=replace(printed.erratum, kind="conjecture"))
    sharpness = replace(printed, id="toy.relaxed", erratum=replace(printed.erratum, kind="sharpness"))
    monkeypatch.setattr(registry, "all_theorems", lambda: [toy.AMGM, conjecture, sharpness])
    status, out, _ = run(capsys, "verify", "toy.conjecture", "toy.relaxed", "--examples", "5")
    assert status == 0 and "conjecture of the paper" in out and "hypothesis is sharp" in out
    status, out, _ = run(capsys, "errata", "--json")
    assert [(r["id"], r["kind"]) for r in json.loads(out)] == [("toy.conjecture", "conjecture")]


def test_parallel_jobs_give_the_same_reports_as_one_process(capsys):
    ids = ["dwork.claim3.11", "dwork.lem3.10", "dwork.lem3.8"]
    status1, out1, _ = run(capsys, "verify", *ids, "--examples", "5", "--json", "--jobs", "1")
    status2, out2, _ = run(capsys, "verify", *ids, "--examples", "5", "--json", "--jobs", "2")
    strip = lambda rows: [{k: v for k, v in r.items() if k != "seconds"} for r in json.loads(rows)]
    assert status1 == status2 == 0 and strip(out1) == strip(out2)
    status, _, err = run(capsys, "verify", "dwork.lem3.8", "--jobs", "0")
    assert status == 2 and "--jobs must be >= 1" in err
