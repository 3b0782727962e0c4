"""The command line, against a registry of toy theorems whose truth is known (and, at the end, the real one)."""

import json
import sys

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
    status, out, _ = run(capsys, "show", "toy.amgm", "--latex")   # a document that compiles as it is
    assert out.startswith("\\documentclass") and "\\begin{theorem}" in out and "\\geq 2" in out


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


def test_no_closed_forms_switches_the_engine_to_the_densities(capsys):
    claim = "kl(laplace(0, 1), laplace(1, 1)) <= 0.37"
    status, out, _ = run(capsys, "check", claim, "--json")
    assert status == 0 and json.loads(out)["method"] == "closed form"
    status, out, _ = run(capsys, "check", claim, "--json", "--no-closed-forms")
    assert status == 0 and json.loads(out)["method"] in ("certified", "quadrature")   # integration of the densities


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
    assert status == 0 and "refuted (conj.)" in out and "refuted (sharp)" in out
    status, out, _ = run(capsys, "verify", "toy.conjecture", "toy.relaxed", "--examples", "5", "--wide")
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


def test_verify_table_fits_80_columns_and_wide_has_every_column(toys, capsys, monkeypatch):
    from dataclasses import replace

    long_id = replace(toy.AMGM, id="toy.a-rather-long-identifier.of-a-corollary.corrected")
    monkeypatch.setattr(registry, "all_theorems", lambda: [*toy.ALL, long_id])
    status, out, _ = run(capsys, "verify", "toy", "--examples", "10")
    assert status == 1 and max(len(line) for line in out.splitlines()) <= 80
    # the long ID is folded before its dots, every part on its own line of the table
    lines = [line.strip() for line in out.splitlines()]
    assert ".of-a-corollary" in lines and ".corrected" in lines
    assert "toy.false: counterexample {\"x\": 0.25}" in out and "unexpected: toy.false" in out
    status, out, _ = run(capsys, "verify", "toy.amgm", "toy.false", "--examples", "10", "--wide")
    header = out.splitlines()[1]
    assert all(column in header for column in ("± error", "worst ratio", "counterexample", "certified"))


def test_json_computed_reals_are_decimal_strings_and_counts_are_numbers(toys, capsys):
    status, out, _ = run(capsys, "verify", "toy.amgm", "toy.false", "toy.noisy", "--examples", "10", "--json")
    for row in json.loads(out):
        assert isinstance(row["examples"], int) and isinstance(row["dps"], int) and isinstance(row["seconds"], float)
        for key in ("worst_margin", "worst_margin_error", "worst_ratio"):
            assert row[key] is None or isinstance(row[key], str), (key, row[key])
        assert isinstance(row["certified"], bool)
    rows = {r["id"]: r for r in json.loads(out)}
    # x + 1/x - 2 at the pinned x = 1 is exactly 0; the false bound's counterexample x is a number as drawn
    assert rows["toy.amgm"]["worst_margin"] == "0.0"
    assert isinstance(rows["toy.false"]["counterexample"]["x"], float)
    assert float(rows["toy.false"]["worst_margin"]) < 0
    status, out, _ = run(capsys, "check", "tv(finite([0.75, 0.25]), finite([0.25, 0.75])) <= 0.49", "--json")
    row = json.loads(out)
    # TV = 1/2 exactly (half the L1 distance 1): the margin is -0.01, written out in full
    assert status == 1 and row["worst_margin"] == "-0.01"


def test_latex_writes_the_document(toys, capsys, tmp_path):
    status, out, _ = run(capsys, "latex", "toy.amgm", "--no-preamble")
    assert status == 0 and "\\documentclass" not in out and "\\begin{theorem}" in out
    target = tmp_path / "catalogue.tex"
    status, _, err = run(capsys, "latex", "toy", "-o", str(target))
    text = target.read_text()
    assert status == 0 and text.startswith("\\documentclass") and text.rstrip().endswith("\\end{document}")
    assert all(f"thm:{t.id}" in text for t in toy.ALL) and "wrote" in err
    status, _, err = run(capsys, "latex", "toy", "-o", str(tmp_path / "missing" / "x.tex"))
    assert status == 2 and "cannot write" in err


def test_latex_proofs_adds_the_derivations_of_the_selected_papers(capsys, monkeypatch):
    from proofs import all_derivations

    seen = {}

    def document(theorems, *, derivations=(), preamble=True):
        seen["derivations"] = list(derivations)
        return ""

    fake = type(sys)("symdp.latex")
    fake.document = document
    monkeypatch.setitem(sys.modules, "symdp.latex", fake)
    status, _, _ = run(capsys, "latex", "bravo", "--proofs")
    assert status == 0 and seen["derivations"] == [d for _, d in all_derivations(["bravo"])] != []


@pytest.mark.parametrize("claim, where, verdict", [
    # KL(Lap(0, lambda) || Lap(1, lambda)) = 1/lambda + exp(-1/lambda) - 1 (the Laplace closed form) <= 1/lambda
    ("kl(laplace(0, lambda), laplace(1, lambda)) <= 1/lambda", "lambda in [0.5, 4]", "holds"),
    ("kl(laplace(0, λ), laplace(1, λ)) <= 1/λ", "lambda in [0.5, 4]", "holds"),
    ("kl(laplace(0, lambda), laplace(1, λ)) <= 1/(2*lambda)", "λ in [0.5, 4]", "violated"),
])
def test_lambda_is_a_parameter_however_it_is_typed(capsys, claim, where, verdict):
    status, out, err = run(capsys, "check", claim, "--where", where, "--examples", "5", "--json")
    assert json.loads(out)["verdict"] == verdict, err


def test_names_that_collide_with_constants_are_explained(capsys):
    status, _, err = run(capsys, "check", "exp(e) <= 3", "--examples", "1")
    assert status == 2 and "e is a parameter here" in err and "E" in err
    status, _, err = run(capsys, "check", "exp(E) <= 16", "--where", "E in [0, 1]")
    assert status == 2 and "E is Euler's number" in err
    status, _, err = run(capsys, "check", "pi <= x", "--where", "pi in [0, 1], x in [4, 5]")
    assert status == 2 and "pi is the constant" in err
