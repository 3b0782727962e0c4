"""The command line, against a registry of toy theorems whose truth is known (and, at the end, the real one)."""

import json
import sys

import mpmath
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
    assert status == 0 and "erratum" in out and "x + 1/x ≥ 2" in out   # the prose as a terminal shows it
    status, out, _ = run(capsys, "show", "toy.amgm", "--latex")   # one theorem environment, to \\input
    assert status == 0 and "\\documentclass" not in out and "\\begin{theorem}" in out and "\\geq 2" in out
    status, out, _ = run(capsys, "show", "toy.amgm", "--latex", "--standalone")   # a document that compiles alone
    assert out.startswith("\\documentclass") and "\\begin{theorem}" in out and "\\geq 2" in out


def test_errata_json(toys, capsys):
    status, out, _ = run(capsys, "errata", "--json")
    rows = json.loads(out)
    assert status == 0 and rows == [{"id": "toy.printed", "kind": "erratum", "severity": "mathematics",
                                     "same_as": None, "location": "toy eq. (1)", "printed": r"$x + 1/x \ge 5/2$",
                                     "corrected": r"$x + 1/x \ge 2$", "corrected_id": "toy.amgm",
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
    assert status == 2 and "argument --jobs: must be >= 1, got 0" in err and len(err.splitlines()) == 1


def test_verify_table_fits_80_columns_and_wide_has_every_column(toys, capsys, monkeypatch):
    from dataclasses import replace

    long_id = replace(toy.AMGM, id="toy.a-rather-long-identifier.of-a-corollary.of-a-lemma.corrected")
    monkeypatch.setattr(registry, "all_theorems", lambda: [*toy.ALL, long_id])
    status, out, _ = run(capsys, "verify", "toy", "--examples", "10")
    assert status == 1 and max(len(line) for line in out.splitlines()) <= 80
    # the long ID is never broken: it stands whole on its own line, its row's cells on the next
    lines = [line.strip() for line in out.splitlines()]
    assert long_id.id in lines
    assert lines[lines.index(long_id.id) + 1].startswith("holds, tight")
    assert "toy.false: counterexample {\"x\": 0.25}" in out and "unexpected: toy.false" in out
    status, out, _ = run(capsys, "verify", "toy.amgm", "toy.false", "--examples", "10", "--wide")
    header = out.splitlines()[0]
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
    # TV = 1/2 exactly (half the L1 distance 1): the margin is -0.01 to within its error, written with the digits that
    # error leaves meaningful (decided by enclosures at 20 digits, where 0.49 is its 20-digit binary value)
    margin, error = mpmath.mpf(row["worst_margin"]), mpmath.mpf(row["worst_margin_error"])
    assert status == 1 and abs(margin + mpmath.mpf("0.01")) <= error < 1e-15


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
    from symdp.proofs import all_derivations
    from symdp.theorems import all_theorems

    all_theorems()   # the catalogue is declared (its errata's LaTeX with the real symdp.latex) before it is faked

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


# --- issue 15: exit codes, strict relations, option ranges, tables, coverage, start-up --------------------------


def test_exit_status_tells_holds_violated_inconclusive_and_usage_apart(capsys):
    # KL(Lap(0,1) || Lap(1,1)) = e^-1 = 0.3679 (the Laplace closed form z + e^-z - 1 at z = 1)
    assert run(capsys, "check", "kl(laplace(0, 1), laplace(1, 1)) <= 0.37")[0] == 0
    assert run(capsys, "check", "kl(laplace(0, 1), laplace(1, 1)) <= 0.36")[0] == 1
    assert run(capsys, "check", "kl(laplace(0, 1), laplace(1, 1)) <= exp(1")[0] == 2
    # the sides agree to working precision, and the laws are not built exactly (1/3 is rounded): a strict bound
    # can be neither confirmed nor refuted
    status, out, _ = run(capsys, "check", "tv(finite([1/3, 2/3]), finite([2/3, 1/3])) < 1/3")
    assert status == 3 and "inconclusive" in out and "more digits will not separate them" in " ".join(out.split())


def test_verify_exits_3_when_a_theorem_is_inconclusive(toys, capsys):
    status, out, _ = run(capsys, "verify", "toy.noisy", "toy.amgm", "--examples", "5")
    assert status == 3 and "inconclusive: toy.noisy" in out
    status, out, _ = run(capsys, "verify", "toy.noisy", "toy.false", "--examples", "5")
    assert status == 1   # a violation outranks an unsettled theorem


@pytest.mark.parametrize("relation, verdict", [("<", "violated"), (">", "violated"), ("<=", "holds"),
                                               (">=", "holds"), ("==", "holds")])
def test_strict_relations_keep_their_meaning(capsys, relation, verdict):
    # TV((3/4, 1/4), (1/4, 3/4)) = 1/2 exactly: the atoms are binary numbers, the sum is exact in Arb
    status, out, _ = run(capsys, "check", f"tv(finite([0.75, 0.25]), finite([0.25, 0.75])) {relation} 0.5",
                         "--json")
    row = json.loads(out)
    assert row["verdict"] == verdict and row["certified"] is True
    assert status == {"violated": 1, "holds": 0}[verdict]


def test_strict_bound_met_to_working_precision_but_not_exactly_is_inconclusive(capsys):
    # KL(N(0,1) || N(1,1)) = 1/2 by the Gaussian closed form, evaluated in floating point (not a proved equality)
    for relation in ("<", ">"):
        status, out, _ = run(capsys, "check", f"kl(gaussian(0, 1), gaussian(1, 1)) {relation} 0.5", "--json")
        assert json.loads(out)["verdict"] != "holds" and status in (1, 3)
    status, out, _ = run(capsys, "check", "kl(gaussian(0, 1), gaussian(1, 1)) <= 0.5", "--json")
    assert json.loads(out)["verdict"] == "holds" and json.loads(out)["tight_examples"] == 1


@pytest.mark.parametrize("argv, fragment", [
    (["check", "x <= 1", "--where", "x in [0, 1]", "--dps", "0"], "argument --dps: must be from 5 to 1000"),
    (["check", "x <= 1", "--where", "x in [0, 1]", "--dps", "100000"], "argument --dps: must be from 5 to 1000"),
    (["check", "x <= 1", "--where", "x in [0, 1]", "--examples", "0"], "argument --examples: must be >= 1"),
    (["verify", "--examples", "-1"], "argument --examples: must be >= 0"),
    (["check", "x <= 1", "--where", "x in [1e-400, 1]"], "the bound 1.0e-400 of x is smaller in magnitude"),
    (["check", "x <= 1", "--where", "x in [0, 1e400]"], "too large to draw from"),
    (["papers", "nosuch"], "no paper 'nosuch'"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_usage_errors_are_one_line_with_status_2(capsys, argv, fragment):
    status, out, err = run(capsys, *argv)
    assert status == 2 and err.startswith("symdp: error: ") and fragment in err and len(err.splitlines()) == 1, err


def test_precision_limits_are_symdp_precisions():
    from symdp import cli, precision

    assert (cli.MIN_DPS, cli.MAX_DPS, cli.DEFAULT_DPS) == (precision.MIN_DPS, precision.MAX_DPS,
                                                         precision.DEFAULT_DPS)


def test_list_and_errata_never_cut_an_id(capsys):
    status, out, _ = run(capsys, "list")
    from symdp.theorems import all_theorems

    words = set(out.split())
    assert status == 0 and all(t.id in words for t in all_theorems())
    assert max(len(line) for line in out.splitlines()) <= 80
    status, out, _ = run(capsys, "errata")
    errata = [t.id for t in all_theorems() if t.erratum is not None and t.erratum.kind != "sharpness"]
    assert status == 0 and all(i in out.split() for i in errata) and "…" not in out


def test_papers_shows_what_is_encoded(capsys):
    from symdp.coverage import CATALOGUE

    status, out, _ = run(capsys, "papers", "--json")
    rows = {r["paper"]: r for r in json.loads(out)}
    assert status == 0 and set(rows) == set(CATALOGUE)
    assert all(len(r["encoded"]) + len(r["missing"]) == r["entries"] for r in rows.values())
    assert "dwork.lem3.10" in rows["dwork"]["encoded"] and "bravo.lem4.1" in rows["bravo"]["encoded"]
    assert all(r["missing"] == [] for r in rows.values())          # every paper reads complete
    status, out, _ = run(capsys, "papers", "balle19")
    assert status == 0 and "not encoded yet (0)" in out


def test_an_entry_not_encoded_yet_is_named_as_such(capsys, monkeypatch):
    # every entry of the catalogue is encoded today: one more entry, as a later catalogue may add, is said to be in
    # the catalogue but not encoded, by `symdp list` (a usage error) and by `symdp papers`
    from symdp import coverage

    monkeypatch.setitem(coverage.CATALOGUE, "balle19", coverage.CATALOGUE["balle19"] + ("balle19.alg9",))
    status, _, err = run(capsys, "list", "balle19.alg9")
    assert status == 2 and "balle19.alg9 is in the catalogue but not encoded yet" in err and len(err.splitlines()) == 1
    status, out, _ = run(capsys, "papers", "balle19")
    assert status == 0 and "not encoded yet (1)" in out and "balle19.alg9" in out


def test_progress_goes_to_stderr_when_piped(toys, capsys):
    status, out, err = run(capsys, "verify", "toy.amgm", "toy.false", "--examples", "5", "--jobs", "1")
    assert "[1/2] toy." in err and "[2/2] toy." in err and "[1/2]" not in out
    status, out, err = run(capsys, "verify", "toy.amgm", "--examples", "5", "--quiet")
    assert err == ""


def test_help_imports_nothing_heavy():
    # `symdp --help` builds the parser only: a fresh interpreter must not import the numeric stack to print it
    import subprocess

    code = ("import sys; from symdp.cli import main\n"
            "try: main(['--help'])\nexcept SystemExit: pass\n"
            "heavy = sorted(m for m in ('sympy', 'mpmath', 'hypothesis', 'flint', 'rich') if m in sys.modules)\n"
            "print('heavy:', heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "heavy: []" in out, out


def test_an_internal_error_is_one_line_with_status_4(toys, capsys, monkeypatch):
    import symdp.cli as cli

    def broken(args):
        raise KeyError("a bug")

    monkeypatch.setattr(cli, "cmd_list", broken)
    status, _, err = run(capsys, "list")
    assert status == 4 and err.startswith("symdp: internal error: KeyError") and len(err.splitlines()) == 1


def test_list_json_names_the_paper_not_a_seed_file(capsys):
    status, out, _ = run(capsys, "list", "dwork.lem3.10", "--json")
    (row,) = json.loads(out)
    assert status == 0 and row["source"] == {"paper": "dwork", "number": "Lemma 3.10"}
    assert ".txt" not in out   # the seed files' names are internal


@pytest.mark.parametrize("claim, where, verdict", [
    # Lemma 3 of Balle et al.: the loss of Lap2(0; 1, 2) against Lap2(1; 1, 2) is at most 1/2, approached at -oo, so
    # delta(1/2) is exactly 0, and proved so
    ("hockey_stick(lap2(0, 1, 2), lap2(1, 1, 2), 0.5) <= 0", None, "holds"),
    # a divergence is never below 0, however close the laws
    ("kl(laplace(0, s), laplace(m, s)) >= 0", "s = 1.6, m = -2.2250738585072014e-308", "holds"),
    # Pinsker at a shift of one smallest double: TV = m/(2s) to working precision, and sqrt(KL/2) with it
    ("tv(laplace(0, s), laplace(m, s)) <= sqrt(kl(laplace(0, s), laplace(m, s))/2)",
     "s = 1.6, m = -2.2250738585072014e-308", "holds"),
])
def test_exact_and_domain_facts_are_settled_without_closed_forms(capsys, claim, where, verdict):
    argv = ["check", claim, "--json", "--no-closed-forms"] + (["--where", where] if where else [])
    status, out, err = run(capsys, *argv)
    row = json.loads(out)
    assert row["verdict"] == verdict and status == 0 and "complex" not in err, (row, err)


def test_proofs_of_a_paper_without_derivations_is_a_usage_error(capsys, monkeypatch):
    # every paper has derivations now: a paper whose proofs module lists none stands in for one not encoded yet
    import symdp.proofs

    monkeypatch.setattr(symdp.proofs, "all_derivations", lambda papers=(): [])
    status, _, err = run(capsys, "proofs", "bertazzi")
    assert status == 2 and "no derivation of bertazzi is encoded yet" in err and len(err.strip().splitlines()) == 1


def test_eval_prints_the_certified_enclosure_as_json_and_refuses_parameters_and_relations(capsys):
    import mpmath

    k, eps0, eps = 10, mpmath.log(3), 1     # 10-fold binary randomized response at ln 3: the binomial sum
    with mpmath.workdps(60):
        exact = mpmath.fsum(mpmath.binomial(k, j) * mpmath.mpf(3)**j / 4**k
                            * max(0, 1 - mpmath.exp(eps - (2 * j - k) * eps0)) for j in range(k + 1))
    pair = "compose(10, finite(0.75, 0.25)), compose(10, finite(0.25, 0.75))"
    status, out, err = run(capsys, "eval", f"hockey_stick({pair}, 1)", "--json", "--dps", "40", "--width", "1e-6")
    d = json.loads(out)
    assert status == 0 and not err
    assert {"value", "lower", "upper", "certified", "method", "seconds", "expression", "dps"} <= set(d)
    assert all(isinstance(d[f], str) for f in ("value", "lower", "upper")) and isinstance(d["seconds"], float)
    assert d["certified"] is True and d["dps"] == 40 and d["method"] == "exact"
    with mpmath.workdps(60):
        assert mpmath.mpf(d["lower"]) <= exact <= mpmath.mpf(d["upper"])
        assert mpmath.mpf(d["upper"]) - mpmath.mpf(d["lower"]) < mpmath.mpf(10) ** -35
    status, out, _ = run(capsys, "eval", "kl(gaussian(0, 1), gaussian(1, 1)) + 1")      # 1/2 + 1
    assert status == 0 and "value: 1.5" in out and "certified" in out and "enclosure: [" in out
    for argv, fragment in [(["eval", "kl(gaussian(0, s), gaussian(1, t))"], "free parameters s, t"),
                           (["eval", "kl(gaussian(0, 1), gaussian(1, 1)) <= 1"], "not compared"),
                           (["eval", "epsilon_for(1.5, gaussian(0, 1), gaussian(1, 1))"], "must lie in (0, 1)"),
                           (["eval", "1", "--width", "0"], "must be a relative width in (0, 1)")]:
        status, out, err = run(capsys, *argv)
        assert status == 2 and err.startswith("symdp: error: ") and fragment in err and len(err.splitlines()) == 1


def test_eval_without_closed_forms_integrates_the_densities(capsys):
    status, out, _ = run(capsys, "eval", "kl(gaussian(0, 1), gaussian(1, 1))", "--json", "--no-closed-forms",
                         "--dps", "20")
    d = json.loads(out)
    assert status == 0 and d["method"] != "closed form" and d["closed_forms"] is False
    assert float(d["lower"]) <= 0.5 <= float(d["upper"])                 # KL of N(0, 1) and N(1, 1): 1/2
