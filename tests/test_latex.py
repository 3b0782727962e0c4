"""LaTeX that compiles: the catalogue document and every paper's derivations through a real pdflatex.

The compile tests need pdflatex and pdftoppm (Debian: ``texlive-latex-base poppler-utils``); where they are missing
they are skipped with a reason saying so. The rest checks the text conversion and the printer without an engine.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import sympy as sp

from symdp.citations import PAPERS, bibtex, cite
from symdp.derivation import Derivation
from symdp.latex import document, latex, text, visible_steps
from symdp.theorem import Source
from proofs import PAPERS as PROOF_PAPERS

PDFLATEX = shutil.which("pdflatex")
PDFTOPPM = shutil.which("pdftoppm")
needs_tex = pytest.mark.skipif(
    PDFLATEX is None, reason="NO LaTeX ENGINE: pdflatex not found; install texlive-latex-base to compile the documents")

OVERFULL_LIMIT_PT = 10.0


def compile_tex(source: str, folder: Path, name: str) -> str:
    """Compile with pdflatex (nonstop, halt on error) and return the log; fails on a TeX error."""
    (folder / f"{name}.tex").write_text(source)
    run = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=folder,
                         capture_output=True, text=True, timeout=120)
    log = (folder / f"{name}.log").read_text(errors="replace")
    errors = [line for line in log.splitlines() if line.startswith("!")]
    assert run.returncode == 0 and not errors, f"{name}: pdflatex failed: {errors[:5]}"
    return log


def overfull(log: str) -> list[float]:
    """Widths in pt by which boxes stick out, as pdflatex logs them."""
    return [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


@needs_tex
def test_catalogue_document_compiles_without_errors_or_overfull_boxes(tmp_path):
    from symdp.theorems import catalogue

    log = compile_tex(document(catalogue()), tmp_path, "catalogue")
    assert [w for w in overfull(log) if w > OVERFULL_LIMIT_PT] == []
    pages = int(re.search(r"Output written on catalogue\.pdf \((\d+) pages?", log).group(1))
    assert pages > 10  # every theorem is there, not an empty article
    if PDFTOPPM is None:
        pytest.skip("pdftoppm not found (install poppler-utils): the page is not rendered to PNG")
    subprocess.run([PDFTOPPM, "-png", "-r", "60", "-f", "1", "-l", "1", "catalogue.pdf", "page"], cwd=tmp_path,
                   check=True, timeout=60)
    png = next(tmp_path.glob("page*.png"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_tex
@pytest.mark.parametrize("paper", PROOF_PAPERS)
def test_each_papers_derivations_compile(tmp_path, paper):
    from proofs import all_derivations

    derivations = all_derivations([paper])
    if not derivations:
        pytest.skip(f"no proofs module for {paper} yet")
    log = compile_tex(document([], derivations=derivations, title=f"Derivations: {paper}"), tmp_path, paper)
    assert [w for w in overfull(log) if w > OVERFULL_LIMIT_PT] == []


NASTY = "Bound δ ≤ ε' for 50% of x_1 & #2 {sets}, epsilon' -> oo, a_b"


def nasty_theorem(with_erratum: bool = True):
    """A toy theorem (AM-GM, true) whose title, notes and erratum carry everything that breaks LaTeX."""
    from symdp.theorem import Erratum, Param, theorem

    x, s = sp.Symbol("x", positive=True), sp.Symbol("S")
    erratum = Erratum(location="p. 3, § 2", printed="S >= 2 + x_1^2 for all x", corrected="S >= 2",
                      counterexample={"x": 1.0}, note="a_b % & # {} ε'")

    @theorem(id="toy.nasty_title", title=NASTY, source=Source("my_notes.txt", "Lemma 1_b (50%)"),
             parameters=(Param(x, sp.Interval.open(0, sp.oo), sample=(0.01, 100)),),
             statement=sp.Ge(s, 2), evidence="independent", register=False, tight_at=({"x": 1},),
             erratum=erratum if with_erratum else None)
    def nasty(point):
        """S = x + 1/x ≥ 2, with equality at x = 1 (100% of the time: a_b, #1)."""
        return {s: point["x"] + 1 / point["x"]}

    return nasty


@needs_tex
def test_nasty_theorem_compiles(tmp_path):
    """Unicode, underscores, %, &, #, braces and primes in a title, source, note and erratum: escaped or set as
    math, never raw; the erratum environment holds the printed statement, its counterexample and the correction."""
    doc = document([nasty_theorem()])
    assert r"\begin{erratum}" in doc and "Counterexample" in doc and "Corrected" in doc
    body = doc[doc.index(r"\begin{document}"):]
    assert not re.search(r"[^\x00-\x7f]", body)
    compile_tex(doc, tmp_path, "nasty")


def test_text_escapes_and_sets_math():
    tex = text(NASTY)
    assert not re.search(r"[^\x00-\x7f]", tex), tex  # no raw Unicode left
    assert r"\%" in tex and r"\&" in tex and r"\#" in tex and r"\{" in tex
    assert r"\delta" in tex and r"\le" in tex and r"\varepsilon'" in tex and r"\to \infty" in tex.replace(
        r"\to\infty", r"\to \infty")
    assert "$" in tex and tex.count("$") % 2 == 0


def test_text_keeps_prose_and_existing_math():
    assert text("Lemma 9 as printed") == "Lemma 9 as printed"
    assert text("Theorem 8 (a) holds") == "Theorem 8 (a) holds"
    assert text(r"drop $\tau_1^2\tau_2 \ge 0$") == r"drop $\tau_1^2\tau_2 \ge 0$"
    assert text("HS_ATOM_BELOW") == r"\texttt{HS\_ATOM\_BELOW}"
    assert text("P_i e^{-ln(P_i/Q_i)} = Q_i").startswith("$P_{i} e^{-\\ln(P_{i}/Q_{i})} = Q_{i}")


def test_printer_writes_varepsilon_and_primes():
    eps, eps_p = sp.Symbol("epsilon"), sp.Symbol("epsilon'")
    assert latex(eps) == r"\varepsilon"
    assert latex(eps_p) == r"{\varepsilon'}"
    assert latex(eps_p**2) == r"{\varepsilon'}^{2}"  # not a double superscript
    assert r"\epsilon" not in latex(sp.exp(eps) + eps_p)


def test_trivial_steps_are_dropped():
    w, x1, x2 = sp.symbols("w x_1 x_2")
    start = w * x1 + x2 * (1 - w)
    d = Derivation("regroup", start).step(w * x1 + x2 * (1 - w), "collect").step(sp.expand(start), "expand")
    steps = visible_steps(d)
    assert len(steps) == 1 and steps[0][2] == "collect; expand"


def test_citations_name_the_paper_and_number():
    assert cite(Source("001_dc25d928cd3b540a.txt", "Lemma 3")) == "Balle et al. (2019), Lemma 3"
    assert cite(Source("003_a063a8ea298de6c8.txt", "Theorem 3.4")) == "Bravo et al. (2025), Theorem 3.4"
    entries = bibtex()
    assert entries.count("@") == len(PAPERS)
    assert "Concentrated Differential Privacy" in entries and "1603.01887" in entries


def test_every_catalogue_source_is_cited_as_a_paper():
    from symdp.theorems import catalogue

    uncited = {t.source.seed for t in catalogue() if cite(t.source).startswith(t.source.seed)}
    assert not uncited, f"seeds with no paper in symdp.citations: {uncited}"


def test_verdict_summary_from_a_report():
    from symdp.latex import theorem_block
    from symdp.verify import verify

    amgm = nasty_theorem(with_erratum=False)
    report = verify(amgm, examples=5)
    block = theorem_block(amgm, report)
    assert report.verdict == "holds"
    assert r"\textit{Verdict:} holds" in block and f"of {report.examples} draws" in block
    assert "Verdict" not in theorem_block(amgm)


def test_document_has_a_section_and_a_reference_per_paper():
    from symdp.theorems import select

    doc = document(select(["dwork.lem3.10", "balle19.lem3"]))
    assert doc.count(r"\section*{") == 2 and doc.count(r"\bibitem") == 2
    assert "Dwork and Rothblum (2016): Concentrated Differential Privacy" in doc
    assert not document(select(["dwork.lem3.10"]), preamble=False).startswith(r"\documentclass")


def test_text_reads_the_papers_notation():
    assert text("(gamma, epsilon)-Dobrushin") == r"$(\gamma, \varepsilon)$-Dobrushin"
    assert text("X ~ N(0, 1) and K~") == r"$X \sim N(0, 1)$ and $\tilde{K}$"
    assert text("for any two reals a, b") == "for any two reals $a, b$"
    assert text("[a - c]_+ = a - a ^ c") == r"$[a - c]_{+} = a - a \wedge c$"


def test_long_statements_are_broken_at_the_relation_and_between_terms():
    from symdp.latex import display

    x = sp.Symbol("x")
    long_sum = sum(sp.Symbol(f"y_{k}") ** k for k in range(40))
    tex = display(sp.Le(x, long_sum))
    assert tex.startswith(r"\begin{align*}") and tex.count(r"\\") >= 2
    assert display(sp.Le(x, 2)).startswith(r"\[")
