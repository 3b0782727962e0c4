"""LaTeX that compiles: the catalogue document, its body in a plain article with ``symdp.sty``, one theorem
environment, and every paper's derivations through a real pdflatex; and the catalogue's prose, LaTeX-ready.

The compile tests need pdflatex and pdftoppm (Debian: ``texlive-latex-base poppler-utils``); where they are missing
they are skipped with a reason saying so. The rest checks the prose, the printer and the layout without an engine.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from functools import lru_cache
from pathlib import Path

import pytest
import sympy as sp

from symdp.citations import PAPERS, bibtex, cite, cite_seeds
from symdp.derivation import Derivation
from symdp.latex import (NEEDS, PREAMBLE, ProseError, check_prose, display, document, latex, package, plain,
                         theorem_environment, visible_steps)
from symdp.theorem import Source
from symdp.proofs import PAPERS as PROOF_PAPERS

PDFLATEX = shutil.which("pdflatex")
PDFTOPPM = shutil.which("pdftoppm")
needs_tex = pytest.mark.skipif(
    PDFLATEX is None, reason="NO LaTeX ENGINE: pdflatex not found; install texlive-latex-base to compile the documents")

OVERFULL_LIMIT_PT = 10.0
ROOT = Path(__file__).resolve().parents[1]

PLAIN_ARTICLE = r"""\documentclass{article}
\usepackage{amsmath,amssymb,amsthm}
%s\usepackage{symdp}
\begin{document}
\input{%s}
\end{document}
"""
"""A user's paper: the article class, amsthm, symdp.sty (written beside it with ``symdp latex --sty``), a body."""


def compile_tex(source: str, folder: Path, name: str) -> str:
    """Compile with pdflatex (nonstop, halt on error) and return the log; fails on a TeX error."""
    (folder / f"{name}.tex").write_text(source)
    run = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=folder,
                         capture_output=True, text=True, errors="replace", timeout=180)
    log = (folder / f"{name}.log").read_text(errors="replace")
    errors = [line for line in log.splitlines() if line.startswith("!")]
    assert run.returncode == 0 and not errors, f"{name}: pdflatex failed: {errors[:5]}"
    return log


def compile_in_plain_article(body: str, folder: Path, name: str, own_theorem: bool = False) -> str:
    """``body`` ``\\input`` in :data:`PLAIN_ARTICLE` with the shipped ``symdp.sty`` beside it; the pdflatex log."""
    (folder / "symdp.sty").write_text(package())
    (folder / f"{name}-body.tex").write_text(body)
    own = r"\newtheorem{theorem}{Theorem}[section]" + "\n" if own_theorem else ""
    return compile_tex(PLAIN_ARTICLE % (own, f"{name}-body"), folder, name)


def braced(tex: str, start: int) -> str:
    """The contents of the brace group that opens at ``tex[start]``."""
    depth = 0
    for end in range(start, len(tex)):
        depth += (tex[end] == "{") - (tex[end] == "}")
        if depth == 0:
            return tex[start + 1:end]
    raise AssertionError(f"unbalanced braces from {tex[start:start + 60]!r}")


def overfull(log: str) -> list[float]:
    """Widths in pt by which boxes stick out, as pdflatex logs them."""
    return [float(w) for w in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


def pages(log: str, name: str) -> int:
    return int(re.search(rf"Output written on {name}\.pdf \((\d+) pages?", log).group(1))


@lru_cache(maxsize=None)
def catalogue_latex(preamble: bool = True) -> str:
    """Every theorem and every derivation of the catalogue, as ``symdp latex --proofs`` writes them."""
    from symdp.proofs import all_derivations
    from symdp.theorems import catalogue

    return document(catalogue(), derivations=all_derivations(), preamble=preamble)


def catalogue_prose() -> list[tuple[str, str]]:
    """``(where, text)`` for every prose string of the catalogue: titles, notes, citations, evidence notes,
    structures, errata; derivation titles, sources (seed files cited as their papers), assumptions and reasons."""
    from symdp.proofs import all_derivations
    from symdp.theorems import catalogue

    found = []
    for t in catalogue():
        fields = {name: getattr(t, name) for name in ("title", "notes", "evidence_note", "symbolic_only",
                                                      "structure_latex")}
        fields["source"] = cite(t.source)
        if t.erratum is not None:
            fields |= {f"erratum {name}": getattr(t.erratum, name) for name in ("location", "printed", "corrected",
                                                                                "note")}
        found += [(f"{t.id}: {name}", text) for name, text in fields.items() if text]
    for paper, d in all_derivations():
        where = f"{paper} derivation {d.title!r}"
        found += [(where + ": title", d.title), (where + ": source", cite_seeds(d.source)),
                  (where + ": assumptions", d.assumptions)] + [(where + ": reason", s.reason) for s in d.steps]
    return [(where, text) for where, text in found if text]


# --- compiling -----------------------------------------------------------------------------------------------------

@needs_tex
def test_catalogue_document_compiles_without_errors_or_overfull_boxes(tmp_path):
    from symdp.theorems import catalogue

    log = compile_tex(document(catalogue()), tmp_path, "catalogue")
    assert [w for w in overfull(log) if w > OVERFULL_LIMIT_PT] == []
    assert pages(log, "catalogue") > 10  # every theorem is there, not an empty article
    if PDFTOPPM is None:
        pytest.skip("pdftoppm not found (install poppler-utils): the page is not rendered to PNG")
    subprocess.run([PDFTOPPM, "-png", "-r", "60", "-f", "1", "-l", "1", "catalogue.pdf", "page"], cwd=tmp_path,
                   check=True, timeout=60)
    png = next(tmp_path.glob("page*.png"))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_tex
@pytest.mark.parametrize("paper", PROOF_PAPERS)
def test_each_papers_derivations_compile(tmp_path, paper):
    from symdp.proofs import all_derivations

    derivations = all_derivations([paper])
    if not derivations:
        pytest.skip(f"no proofs module for {paper} yet")
    log = compile_tex(document([], derivations=derivations, title=f"Derivations: {paper}"), tmp_path, paper)
    assert [w for w in overfull(log) if w > OVERFULL_LIMIT_PT] == []


@needs_tex
def test_body_of_the_whole_catalogue_compiles_in_a_plain_article_with_the_package(tmp_path):
    """``symdp latex --proofs --no-preamble`` into a paper of one's own: amsthm and ``\\usepackage{symdp}``, nothing
    more (the body says so on its first line)."""
    body = catalogue_latex(preamble=False)
    assert body.splitlines()[0] == NEEDS and r"\documentclass" not in body
    log = compile_in_plain_article(body, tmp_path, "paper")
    # the full document has about 75 pages in its wider layout: every theorem and derivation made it through
    assert pages(log, "paper") > 60


@needs_tex
def test_one_erratum_environment_compiles_in_a_plain_article_with_its_own_theorems(tmp_path):
    """``theorem_environment`` (``symdp show ID --latex``): one erratum environment, naming its correction by ID,
    in an article that numbers its own theorems by section (the package keeps that environment)."""
    from symdp.theorems import get

    printed = get("dwork.fact4.1")
    tex = theorem_environment(printed)
    assert tex.splitlines()[0] == NEEDS and r"\documentclass" not in tex
    assert tex.count(r"\begin{erratum}") == 1 and r"\begin{theorem}" not in tex
    assert r"\symdpid{dwork.fact4.1.corrected}" in tex and r"\ref{" not in tex
    log = compile_in_plain_article(r"\section{Errata}" + "\n" + tex, tmp_path, "erratum", own_theorem=True)
    assert pages(log, "erratum") == 1


NASTY = r"Bound $\delta \le \varepsilon'$ for 50\% of $x_1$ \& \#2 \{sets\}, $\varepsilon' \to \infty$, a\_b"
"""A title with everything that LaTeX treats specially, written as LaTeX-ready prose."""


def nasty_theorem(with_erratum: bool = True, title: str = NASTY):
    """A toy theorem (AM-GM, true) whose prose carries everything that breaks LaTeX when it is not escaped, and a
    seed file name (data, not prose) with an underscore."""
    from symdp.theorem import Erratum, Param, theorem

    x, s = sp.Symbol("x", positive=True), sp.Symbol("S")
    erratum = Erratum(location=r"p.\ 3, \S 2", printed=r"$S \ge 2 + x_1^2$ for all $x$", corrected=r"$S \ge 2$",
                      counterexample={"x": 1.0}, note=r"a\_b \% \& \# \{\} $\varepsilon'$")

    @theorem(id="toy.nasty_title", title=title, source=Source("my_notes.txt", r"Lemma 1\_b (50\%)"),
             parameters=(Param(x, sp.Interval.open(0, sp.oo), sample=(0.01, 100)),),
             statement=sp.Ge(s, 2), evidence="independent", register=False, tight_at=({"x": 1},),
             erratum=erratum if with_erratum else None)
    def nasty(point):
        r"""$S = x + 1/x \ge 2$, with equality at $x = 1$ (100\% of the time: a\_b, \#1)."""
        return {s: point["x"] + 1 / point["x"]}

    return nasty


@needs_tex
def test_nasty_theorem_compiles(tmp_path):
    """Escaped specials in a title, source, note and erratum go through as written; the erratum environment holds
    the printed statement, its counterexample and the correction."""
    doc = document([nasty_theorem()])
    assert r"\begin{erratum}" in doc and "Counterexample" in doc and "Corrected" in doc
    assert NASTY in doc and r"my\_notes.txt, Lemma 1\_b (50\%)" in doc
    body = doc[doc.index(r"\begin{document}"):]
    assert not re.search(r"[^\x00-\x7f]", body)
    compile_tex(doc, tmp_path, "nasty")


# --- the package ---------------------------------------------------------------------------------------------------

def test_the_package_ships_and_is_the_documents_one_source_of_definitions():
    sty = package()
    assert sty.startswith(r"\NeedsTeXFormat{LaTeX2e}") and r"\ProvidesPackage{symdp}" in sty
    for name in (r"\symdpfit", r"\symdpid", r"\symdpcode", "{erratum}", "{derivation}", "{theorem}"):
        assert name in sty, name
    definitions = [line for line in sty.splitlines() if not line.startswith((r"\NeedsTeXFormat", r"\ProvidesPackage"))]
    assert "\n".join(definitions) in PREAMBLE and r"\ProvidesPackage" not in PREAMBLE
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "symdp.sty" in project["tool"]["setuptools"]["package-data"]["symdp"]  # installed, not only editable


# --- the prose -----------------------------------------------------------------------------------------------------

def test_every_prose_string_of_the_catalogue_is_latex_ready():
    """Each title, note, erratum, evidence note, structure, derivation title, source, assumption and step reason
    passes the check, sets ``<``, ``>``, ``|`` and ``*`` only in mathematics (OT1 text prints ``<`` as ``¡``), and
    names only theorems that exist."""
    from symdp.theorems import catalogue

    ids = {t.id for t in catalogue()}
    prose = catalogue_prose()
    problems = []
    for where, text in prose:
        try:
            check_prose(text, where)
        except ProseError as e:
            problems.append(str(e))
        outside = re.sub(r"\$[^$]*\$|\\symdpcode\{[^}]*\}", "", text)  # code may hold a * (EX4\_*)
        problems += [f"{where}: {ch!r} outside $…$: {text!r}" for ch in "<>|*" if ch in outside]
        problems += [f"{where}: no theorem {name}" for name in re.findall(r"\\symdpid\{([^}]*)\}", text)
                     if name not in ids]
    assert len(prose) > 1500 and problems == []


@pytest.mark.parametrize("text, problem", [
    ("tau_1 <= 1/3", "'_' outside $…$"),
    ("50% of the draws", "'%' outside $…$"),
    ("Smith & Jones", "'&' outside $…$"),
    ("item #2", "'#' outside $…$"),
    ("x^2 grows", "'^' outside $…$"),
    ("y~P", "'~' outside $…$"),
    (r"$\tau % comment$", "'%' inside $…$"),
    (r"$x \le 1", "unbalanced $"),
    (r"$\frac{1}{2$}", "unbalanced braces in $…$"),
    (r"\emph{open", "unbalanced '{'"),
    ("close}", "unbalanced '}'"),
    ("τ ≤ 1/4", "non-ASCII 'τ'"),
    ("$$x$$", "display math"),
])
def test_malformed_prose_is_an_error_naming_the_string_and_the_problem(text, problem):
    with pytest.raises(ProseError) as raised:
        check_prose(text, "toy.where: notes")
    message = str(raised.value)
    assert message.startswith("toy.where: notes: ") and problem in message and repr(text) in message


@pytest.mark.parametrize("text", [
    r"$\tau_1^2 \le 1/3$ for 50\% of \symdpcode{tilted\_triples} (\symdpid{dwork.lem4.2}), R\'enyi, 5--10\,s",
    r"a dollar \$, $\{-1, 0, 1\}$, $\left(\begin{smallmatrix}1 & 0\\ 0 & 1\end{smallmatrix}\right)$, a \~{} tilde",
    "",
])
def test_well_formed_prose_is_kept_as_written(text):
    assert check_prose(text) == text


def test_a_theorem_with_prose_that_is_not_latex_ready_is_an_error_naming_the_theorem():
    from symdp.latex import theorem_block

    broken = nasty_theorem(with_erratum=False, title="(x+1)^2 = x^2 + 2x + 1")
    with pytest.raises(ProseError, match=r"^toy\.nasty_title: title: '\^' outside \$…\$ .*'\(x\+1\)\^2"):
        theorem_block(broken)
    with pytest.raises(ProseError, match="toy.nasty_title: title"):
        document([broken])


def test_the_terminal_shows_the_prose_without_latex():
    assert plain(r"Loose for $\varepsilon > 0$ (\symdpid{dwork.lem3.7.sharp}); R\'enyi, 5--10\,s") == \
        "Loose for ε > 0 (dwork.lem3.7.sharp); Rényi, 5–10 s"
    assert plain(r"$\mathbb{E}_P[e^{-L}] = 1$, $\frac{1}{2}\sum_x |\mu(x) - \nu(x)|$, $\alpha \in \{-1, 1\}$") == \
        "E_P[e^(-L)] = 1, (1)/(2)Σ_x |μ(x) - ν(x)|, α ∈ {-1, 1}"
    leftover = [(where, plain(text)) for where, text in catalogue_prose() if re.search(r"[\\$]", plain(text))]
    assert leftover == []


def test_the_generated_latex_has_none_of_the_reported_artefacts():
    r"""The artefacts a user reported in ``symdp latex`` output, searched in the LaTeX of the whole catalogue with
    its derivations: ``E_{\tilde{y}P}`` from "y~P", ``*is*`` and "ε*2" as superscript asterisks, "1e-5" in
    mathematics, "k -fold", "+inf", theorem IDs outside ``\symdpid``, the level of dwork.thm1.1's hockey-stick
    divergence at sub-subscript size, counterexamples as raw JSON."""
    from symdp.theorems import catalogue

    tex = catalogue_latex()
    assert r"\tilde{y}P" not in tex and r"y \sim P" in tex
    assert not re.search(r"\^\{\*\}\s*[A-Za-z0-9]", tex)  # a star raised as if it were an exponent
    assert not re.search(r"\de-\d", tex)  # 1e-5 written as a number in mathematics
    assert " -fold" not in tex and "$k$-fold" in tex
    assert not re.search(r"\+\s*\\?inf\b", tex) and r"$+\infty$" in tex
    # a theorem ID is set by \symdpid (or is a label): none is left in the text, where it would be mangled
    text = re.sub(r"\\(?:symdpid|symdpcode|label|ref)\{[^}]*\}", "", tex)
    stray = [t.id for t in catalogue() if re.search(rf"(?<![\w.-]){re.escape(t.id)}(?![\w-]|\.\w)", text)]
    assert stray == []
    # no hockey-stick level holds a fraction or a root in its sub-subscript; dwork.thm1.1's is named and stated
    levels = [braced(tex, m.end() - 1) for m in re.finditer(r"D_\{e\^\{", tex)]
    assert len(levels) > 20 and [level for level in levels if re.search(r"\\(?:frac|sqrt)", level)] == []
    thm11 = tex[tex.index(r"\label{thm:dwork.thm1.1}"):tex.index(r"\label{thm:dwork.thm1.1.drv10}")]
    assert r"D_{e^{{\varepsilon'}}}" in thm11 and r"where ${\varepsilon'} = \frac{\varepsilon k" in thm11
    # counterexamples as assignments, a drawn matrix as a matrix, never raw JSON
    assert '"kind"' not in tex and r"\ttfamily" not in tex
    lem9 = tex[tex.index(r"\label{thm:balle19.lem9.eps-dobrushin}"):]
    assert (r"\textit{Counterexample:} $\varepsilon = 1.09861$, structure (\textit{dense}, $\mathrm{rows} = "
            r"\left(\begin{smallmatrix}0.75 & 0.25 \\ 0.25 & 0.75\end{smallmatrix}\right)$)." in lem9)


# --- the printer and the layout ------------------------------------------------------------------------------------

def test_printer_writes_varepsilon_and_primes():
    eps, eps_p = sp.Symbol("epsilon"), sp.Symbol("epsilon'")
    assert latex(eps) == r"\varepsilon"
    assert latex(eps_p) == r"{\varepsilon'}"
    assert latex(eps_p**2) == r"{\varepsilon'}^{2}"  # not a double superscript
    assert r"\epsilon" not in latex(sp.exp(eps) + eps_p)
    assert latex(sp.Symbol("delta_p")) == r"{\delta'}"  # symdp.symbols.delta_p is the paper's delta'


def test_exponents_too_wide_for_superscript_size_are_printed_as_exp():
    lam, tau, x = sp.symbols("lambda tau x")
    assert latex(sp.exp(lam**2 * tau**2 / 2)) == r"e^{\lambda^{2} \tau^{2} / 2}"
    wide = latex(sp.exp(lam / (2 * x**2) + lam**2 / (2 * x**2) + tau * lam / x))
    assert wide.startswith(r"\exp\left(") and r"\frac{" in wide


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
    body = document(select(["dwork.lem3.10"]), preamble=False)
    assert not body.startswith(r"\documentclass") and body.startswith(NEEDS + "\n")


def test_long_statements_are_broken_at_the_relation_and_between_terms():
    from symdp.latex import display

    x = sp.Symbol("x")
    long_sum = sum(sp.Symbol(f"y_{k}") ** k for k in range(40))
    tex = display(sp.Le(x, long_sum))
    assert tex.startswith(r"\begin{align*}") and tex.count(r"\\") >= 2
    assert display(sp.Le(x, 2)).startswith(r"\[")


def test_a_displays_period_goes_after_a_closing_set_brace_and_inside_a_shrunk_piece():
    # the last row "= \left\{…\right\}" is not shrunk: its period follows it (once it broke into "\right\.}")
    lhs = sum(sp.Symbol(f"z_{k}") ** k for k in range(14))
    tex = display(sp.Eq(lhs, sp.FiniteSet(*sp.symbols("y_0:12")), evaluate=False), suffix=".")
    assert tex.endswith(r"\right\}." + "\n" + r"\end{align*}")
    long_sum = sp.Le(sp.Symbol("x"), sum(sp.Symbol(f"y_{k}") ** k for k in range(40)))
    assert display(long_sum, suffix=".").endswith(" + 1.}\n\\end{align*}")
