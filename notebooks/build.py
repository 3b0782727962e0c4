"""Generate and execute the notebooks: a tour of symdp's three uses, and one notebook per paper of the catalogue.

    python3 -m pip install ".[notebooks]" && python3 notebooks/build.py            # all of them, into notebooks/
    python3 notebooks/build.py dwork --output /tmp/out                              # one, elsewhere

Each notebook is written here as a list of cells (nbformat), so its source is reviewed as Python, and is executed by
nbclient; the committed ``.ipynb`` files carry the outputs of the last build. A kernel always runs in a temporary
directory, so executing a notebook leaves nothing behind (no ``.hypothesis/``, no figures on disk).

A paper's notebook holds the verification table of every theorem of the paper (verdict, evidence, draws, worst
ratio), plots of the bound against the independently computed quantity for one tight and one loose result, and the
errata with their counterexamples. ``tests/test_notebooks.py`` builds and executes every notebook within the test
budget and checks the committed tables against the catalogue, so a table cannot go stale unnoticed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import nbformat
from nbclient import NotebookClient

from symdp.citations import paper as bibliography
from symdp.theorems import encoded_papers

HERE = Path(__file__).resolve().parent

DRAWS = 3
"""Hypothesis draws per theorem in a table, beyond its pinned instances (tight cases, references, counterexamples)."""

SWEEP_DPS = 20
"""Digits for the plots' sweeps: the values are plotted as floats, so 20 digits are plenty and quadrature is cheap."""


def markdown(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(text.strip())


def code(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_code_cell(text.strip())


# --- the tour ----------------------------------------------------------------------------------------------------

TOUR = [
    markdown("""
# symdp in three uses

symdp holds the quantitative results of the catalogue's papers as SymPy statements and checks each one against
divergences computed in mpmath from concrete distributions, over parameters drawn by hypothesis. This notebook walks
through the three ways to use it:

1. **verify a bound before relying on it**: a claim of your own, in a small language, with a verdict, the worst
   margin and a minimal counterexample;
2. **generate LaTeX**: every theorem, erratum and derivation as LaTeX that drops into a paper;
3. **regression-test theory**: declare a theorem once, with the witness that measures what it names, and check it
   under pytest like the catalogue's own.

One notebook per paper (`balle19.ipynb`, `bravo.ipynb`, `dwork.ipynb`) shows its verification table, plots of
bounds against the quantities they bound, and its errata.
"""),
    markdown("""
## 1. Verify a bound before relying on it

The KL divergence of ε-randomized response, computed as an exact finite sum, against ε·tanh(ε/2) (true, and an
equality) and against ε²/2.2 (false). The claim text is parsed by walking Python's `ast` with a whitelist, never
evaluated; every other name (`e` here) is a parameter, drawn from the range that `where` gives it. The same check
runs from the shell as `symdp check "CLAIM" --where "e in [0.01, 5]"`.
"""),
    code("""
import mpmath
from symdp import verify
from symdp.claims import claim_theorem

RR_KL = "kl(finite([exp(e)/(1+exp(e)), 1/(1+exp(e))]), finite([1/(1+exp(e)), exp(e)/(1+exp(e))]))"

for bound in ("e*tanh(e/2)", "e**2/2.2"):
    report = verify(claim_theorem(f"{RR_KL} <= {bound}", "e in [0.01, 5]"), examples=20)
    worst = report.worst
    print(f"KL(RR_e) <= {bound}: {report.verdict} after {report.examples} draws "
          f"({report.tight} tight), computed by: {report.method}")
    print(f"    worst margin {mpmath.nstr(worst.margin, 4)} ± {mpmath.nstr(worst.error, 3)} "
          f"(quantity {mpmath.nstr(worst.quantity, 6)}, bound {mpmath.nstr(worst.bound, 6)})")
    if report.counterexample is not None:
        print(f"    counterexample: {report.counterexample}")
"""),
    markdown("""
Continuous laws work the same way. The Rényi divergence of two Gaussians is α/(2s²); a bound that forgets a tenth
of it is refuted, and hypothesis shrinks the failure to a simple counterexample. `--no-closed-forms` (or
`symdp.precision.closed_forms(False)`) computes every divergence by quadrature of the densities instead.
"""),
    code("""
report = verify(claim_theorem("renyi(gaussian(0, s), gaussian(1, s), a) <= a/(2.2*s**2)",
                              "a in [1.5, 10], s in [0.5, 2]"), examples=20)
print(report.verdict, "counterexample:", report.counterexample, "computed by:", report.method)
"""),
    markdown("""
### Composed and subsampled mechanisms

The everyday bound is about a composed, subsampled mechanism. `compose(k, P)` is the law of k independent draws and
`mix(q, P, Q)` is Poisson subsampling; `symdp.claims.evaluate_expression` (the shell's `symdp eval`) gives a
certified enclosure of any expression without parameters. For 100 steps of the subsampled Gaussian (q = 0.1, σ = 1,
remove relation), δ(ε) is bracketed from the privacy-loss distribution: an upper pair that dominates each step and
a lower pair that is a post-processing of it, composed in ball arithmetic, so the truth lies between the two curves
whatever the rounding. Where the losses lie on a lattice (randomized response, discrete Laplace) the composition is
exact: one ball at the working precision.
"""),
    code("""
import matplotlib.pyplot as plt
from symdp.claims import evaluate_expression

STEPS = "compose(100, mix(0.1, gaussian(0, 1), gaussian(1, 1))), compose(100, gaussian(0, 1))"
epsilons = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2]
brackets = [evaluate_expression(f"hockey_stick({STEPS}, {e})", width=1e-3) for e in epsilons]
for e, b in zip(epsilons, brackets):
    print(f"delta({e}) in [{mpmath.nstr(b.lower, 8)}, {mpmath.nstr(b.upper, 8)}]"
          f"  ({b.method}, certified: {b.certified})")
eps_at = evaluate_expression(f"epsilon_for(1e-5, {STEPS})", width=1e-4)
print(f"epsilon(1e-5) in [{mpmath.nstr(eps_at.lower, 8)}, {mpmath.nstr(eps_at.upper, 8)}]")

with mpmath.workdps(50):
    exact = evaluate_expression("hockey_stick(compose(1000, discrete_laplace(0, 10)), "
                                "compose(1000, discrete_laplace(1, 10)), 5)")
print(f"1000-fold discrete Laplace, delta(5) = {mpmath.nstr(exact.value, 45)} ({exact.method})")

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.5))
left.semilogy(epsilons, [float(b.upper) for b in brackets], "v-", label="upper (dominating pair)")
left.semilogy(epsilons, [float(b.lower) for b in brackets], "^-", label="lower (post-processing)")
left.set_xlabel("ε"); left.set_ylabel("δ(ε)"); left.legend()
right.semilogy(epsilons, [float((b.upper - b.lower) / b.upper) for b in brackets], "o-")
right.set_xlabel("ε"); right.set_ylabel("(upper − lower)/upper, asked ≤ 1e-3")
fig.suptitle("100 subsampled Gaussian steps, q = 0.1, σ = 1 (remove)"); fig.tight_layout(); plt.show()
"""),
    markdown("""
## 2. Generate LaTeX

Statements are SymPy relations whose divergence heads print the way the papers write them.
`symdp.latex.document` lays theorems out as a LaTeX article (amsmath, amsthm): hypotheses, statement, citation and
verdict, and where the printed statement is wrong, the statement *as printed* in an erratum environment with its
counterexample, beside the corrected one. From the shell: `symdp latex dwork -o dwork.tex`.
"""),
    code("""
from IPython.display import Math, display
from symdp.latex import document, latex
from symdp.theorems import get

display(Math(latex(get("dwork.lem3.10").statement)))

printed, corrected = get("dwork.fact4.1"), get("dwork.fact4.1.corrected")
reports = {t.id: verify(t, examples=3) for t in (printed, corrected)}
print(document([printed, corrected], reports=reports, preamble=False))
"""),
    markdown("""
## 3. Regression-test theory

A theorem of your own plugs into the same machinery: declare it once with `@theorem`, over its *witness*. The
witness measures what the statement names (here the divergence head `KL(P, Q)`) from concrete distributions; the
bound is the statement itself, evaluated. A tight bound must be shown tight: its copy tightened to 0.99 × the bound
must be refuted, which is how we know the checker can find anything. In a test module, the same declaration is
collected by symdp's pytest plug-in as a test (or checked by `symdp verify --module my_theorems.py`).
"""),
    code("""
import sympy as sp
from symdp import FiniteDistribution, Param, Source
from symdp.engine.divergences import kl
from symdp.expressions import KL
from symdp.symbols import P, Q, epsilon
from symdp.theorem import INDEPENDENT, theorem


@theorem(id="me.rr-kl", title="KL of randomized response", source=Source("my notes", "Lemma 1"),
         parameters=(Param(epsilon, sp.Interval.open(0, sp.oo), sample=(0.01, 5)),),
         statement=sp.Le(KL(P, Q), epsilon * sp.tanh(epsilon / 2)), evidence=INDEPENDENT,
         tight_everywhere=True, register=False)
def rr_kl(point):
    \"\"\"KL(RR_eps(0) || RR_eps(1)) as an exact finite sum.\"\"\"
    e = mpmath.exp(point["epsilon"])
    return {KL(P, Q): kl(FiniteDistribution([e / (1 + e), 1 / (1 + e)]),
                         FiniteDistribution([1 / (1 + e), e / (1 + e)]))}


holds = verify(rr_kl, examples=20)
tightened = verify(rr_kl.tightened(0.99), examples=20)
print(f"{rr_kl.id}: {holds.verdict}, {holds.tight} of {holds.examples} draws tight")
print(f"{rr_kl.id} tightened to 0.99: {tightened.verdict}, counterexample {tightened.counterexample}")
assert holds.verdict == "holds" and tightened.verdict == "violated"
"""),
]


# --- one notebook per paper --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sweep:
    """A plot: both sides of a theorem's statement along one parameter, the others fixed."""

    theorem: str
    fixed: dict
    parameter: str
    values: tuple
    label: str
    why: str
    log_x: bool = False


PLOTS: dict[str, tuple[Sweep, Sweep]] = {
    "balle19": (
        Sweep("balle19.fact.gauss-rdp", {"Delta": 1, "sigma": 1}, "alpha", (1.5, 2, 4, 6, 9, 12, 16), "α",
              "**Tight.** The Rényi divergence of the Gaussian mechanism, computed by quadrature of the two Gaussian "
              "densities (never the closed form), against αΔ²/(2σ²): equality at every order α."),
        Sweep("balle19.lem3.pointwise", {"lambda_1": 1, "lambda_2": 1, "Delta": 1},
              "x", tuple(range(-10, 41, 2)) + (60, 100, 150, 200), "x",
              "**Loose at every point, tight in the limit.** Lemma 3: the privacy loss log Lap2(x)/Lap2(x + Δ) of "
              "the iterated Laplace mechanism, from the densities, against Δ/max(λ₁, λ₂). It increases towards the "
              "bound and reaches it only as x → ∞ (as O(1/x) when λ₁ = λ₂): the mechanism is exactly "
              "(Δ/max(λ₁, λ₂), 0)-DP, so a second Laplace kernel buys no pure-DP amplification."),
    ),
    "bertazzi": (
        Sweep("bertazzi.prop4.5", {"c": 2.5, "beta": 1.0, "T": 4,
                                   "structure": {"n": 8, "mu": 0.3, "x0": 0.0, "b": [0.0] * 8, "h": [1.0] * 8}},
              "alpha", (1.5, 2, 3, 5, 7.5, 10, 16), "α",
              "**Tight.** Proposition 4.5: the Rényi divergence of the two paths of an Euler-discretised SDE whose "
              "drifts differ by c at every step, from their exact Gaussian laws (mean and covariance recursions, "
              "compared through the likelihood ratio's statistic and integrated from the densities), against "
              "αβTc²/4: equality at every order (the catalogue's 46.875 at α = 7.5)."),
        Sweep("bertazzi.prop4.6", {"alpha": 2, "c": 1, "beta": 1, "structure": {"T": 1000.0, "b": 0.0, "x0": 0.0}},
              "L", (0.1, 0.2, 0.5, 1, 2, 5, 10), "L",
              "**Loose.** Proposition 4.6: the Rényi divergence of the final values of two Ornstein–Uhlenbeck "
              "processes (drift −LX, offsets differing by c), from their exact Gaussian laws at T = 1000, against "
              "αβ(C(L + 1) + c)²/4 with C the synchronous coupling's distance: the bound is at least 4 times the "
              "divergence, 4 exactly at L = 1/2 (the catalogue's minimum), and the gap grows on both sides.",
              log_x=True),
    ),
    "bravo": (
        Sweep("bravo.cor3.8", {"alpha": 3, "D": 1, "sigma": 0.3, "T": 5}, "c", (0.5, 0.7, 0.9, 1.0, 1.1, 1.3, 1.5),
              "c",
              "**Tight.** Corollary 3.8: the Rényi divergence of the unprojected chain X_{t+1} = √c X_t + σξ_t "
              "started at ±D/2, by quadrature of its exact law, against eqs. (7)–(8): equality for every c, "
              "through the change of formula at c = 1."),
        Sweep("bravo.cor3.7", {"alpha": 3, "D": 1, "sigma": 0.3, "h": 0.04,
                               "structure": {"kind": "projected", "x0": 0.5, "x0p": -0.5}},
              "T", (1, 2, 3, 4, 6, 8, 10, 15, 20, 25), "T",
              "**Loose.** Corollary 3.7 for φ(δ) = √(δ² + h) on the map it is made for: projected subgradient steps "
              "of f = L|x| on [−½, ½] (2ηL = √h = 0.2, the catalogue's row (η, L, σ) = (0.1, 1, 0.3)), started at "
              "±½. The Rényi divergence of the two chains, computed from their laws (atoms and Nyström quadrature of "
              "the exact transitions, `engine.chains`), against eq. (6): at most 0.296 of the bound, at T = 1, and "
              "it decays geometrically while the h-term h·H_T/σ² of the bound grows like log T.",
              log_x=True),
    ),
    "dwork": (
        Sweep("dwork.thm3.2.mean", {"Delta": 1}, "sigma", (0.3, 0.5, 0.75, 1, 1.5, 2, 3), "σ",
              "**Tight.** Theorem 3.2: the expected privacy loss of the Gaussian mechanism, by quadrature of "
              "p·(ln p − ln q), against (Δ/σ)²/2: equality for every σ."),
        Sweep("dwork.text3.2", {"n": 4}, "epsilon", tuple(round(0.2 * k, 1) for k in range(1, 16)), "ε",
              "**Loose.** The remark after Theorem 3.2: n queries answered with N(0, n/ε²) noise have expected "
              "privacy loss at most ε(e^ε − 1)/2. The exact expected loss, by quadrature, is ε²/2: the bound is "
              "loose by the factor (e^ε − 1)/ε, which tends to 1 only as ε → 0."),
    ),
}
"""Per paper: a tight and a loose result, each swept along one parameter (witnesses that cost well under a second
per point at 20 digits)."""


def paper_cells(paper: str) -> list[nbformat.NotebookNode]:
    """The cells of one paper's notebook: table, plots, errata."""
    tight, loose = PLOTS[paper]
    entry = bibliography(paper)
    cells = [
        markdown(f"# {entry.short}: verified\n\n*{entry.title}*, {entry.venue}."),
        code(f"""
PAPER = {paper!r}
DRAWS = {DRAWS}  # hypothesis draws per theorem, beyond its pinned instances
SWEEP_DPS = {SWEEP_DPS}  # digits of the plots' sweeps (plotted as floats)
"""),
        markdown(f"""
Every result of the paper that symdp holds, checked by `symdp.verify`: the statement's two sides are evaluated from
the SymPy relation at 50 digits and again with 15 guard digits, the left side *measured* by the theorem's witness
from concrete distributions; the verdict is honest (**holds** only where the numeric error is below the margin).
A printed statement recorded as an erratum is *expected* to be violated, and the column "as expected" says whether
it was. "Draws" counts tight draws out of all draws (pinned instances and {DRAWS} hypothesis draws); the worst ratio
is quantity/bound (1 = attained). `symdp verify ID` runs the full default (at least 100 draws).
"""),
        code("""
import json
import os

from IPython.display import display
from symdp.latex import plain
from symdp.parallel import run
from symdp.plugin import describe, outcome
from symdp.theorems import select
from symdp.verify import VIOLATED, jsonable

theorems = select([PAPER])


# Every core: each theorem is seeded on its own, so the reports are those of verify(t, examples=DRAWS) in one process.
ids = [t.id for t in theorems]
reports = dict(zip(ids, run(ids, examples=DRAWS, jobs=os.cpu_count() or 1)))


def cell(text: str) -> str:
    \"\"\"Text for a Markdown table cell: '|' would end the cell.\"\"\"
    return str(text).replace("|", "\\\\|").replace("\\n", " ")


def row(theorem) -> str:
    report = reports[theorem.id]
    result = cell(plain(theorem.source.number))   # the paper's number is LaTeX-ready prose
    ratio = "–" if report.worst_ratio is None or report.verdict == VIOLATED else f"{report.worst_ratio:.4g}"
    draws = f"{report.tight}/{report.examples}" if theorem.numeric else "–"
    expected = "yes" if outcome(theorem, report).passed else "**NO**"
    return (f"| `{theorem.id}` | {result} | {cell(describe(theorem, report))} | {report.evidence} | {draws} "
            f"| {ratio} | {expected} |")


unexpected = [t.id for t in theorems if not outcome(t, reports[t.id]).passed]
errata = sum(t.erratum is not None for t in theorems)
summary = (f"{len(theorems)} theorems verified here ({errata} printed statements recorded as errata); "
           f"unexpected verdicts: {', '.join(unexpected) or 'none'}.")
table = "\\n".join([summary, "",
                    "| ID | result | verdict | evidence | draws | worst ratio | as expected |",
                    "|---|---|---|---|---|---|---|"] + [row(t) for t in theorems])
display({"text/markdown": table, "text/plain": table}, raw=True)
"""),
        markdown(f"""
## Bounds against the quantities they bound

Each plot sweeps one parameter of a theorem, the others fixed, and evaluates both sides of its statement at each
point: the **quantity** as the theorem's witness measures it from the distributions, the **bound** as the statement
gives it. The right panel is their ratio (1 where the bound is attained). Sweeps run at {SWEEP_DPS} digits, since
the values are only plotted.
"""),
        code("""
import matplotlib.pyplot as plt
from symdp.citations import cite
from symdp.precision import closed_forms, working_precision
from symdp.theorem import INDEPENDENT
from symdp.theorems import get
from symdp.verify import convert_point


def sweep(theorem, fixed, parameter, values):
    \"\"\"Both sides of the statement at each value of one parameter, as floats: (quantities, bounds). An
    independent theorem's quantity is computed with every closed form of the engine off, from the laws themselves.\"\"\"
    quantities, bounds = [], []
    with working_precision(SWEEP_DPS), closed_forms(theorem.evidence != INDEPENDENT):
        for value in values:
            quantity, bound = theorem.evaluate(convert_point(theorem, {**fixed, parameter: value}))
            quantities.append(float(quantity.value))
            bounds.append(float(bound.value))
    return quantities, bounds


def plot_sweep(ident, fixed, parameter, values, label, log_x=False):
    theorem = get(ident)
    quantities, bounds = sweep(theorem, fixed, parameter, values)
    fig, (sides, ratio) = plt.subplots(1, 2, figsize=(11, 3.8), gridspec_kw={"width_ratios": [3, 2]})
    sides.plot(values, bounds, "-", color="C1", label="bound: the statement, evaluated")
    sides.plot(values, quantities, "o", color="C0", markersize=4, label="quantity: measured by the witness")
    ratio.plot(values, [q / b for q, b in zip(quantities, bounds)], "o-", color="C2", markersize=4)
    ratio.axhline(1, color="gray", lw=0.8, ls=":")
    fixed_text = ", ".join(f"{name} = {value}" for name, value in fixed.items() if name != "structure")
    sides.set_title(f"{ident} ({cite(theorem.source)})", fontsize=10)
    ratio.set_title(f"quantity / bound   ({fixed_text})", fontsize=10)
    for ax in (sides, ratio):
        ax.set_xlabel(label)
        if log_x:
            ax.set_xscale("log")
    if min(quantities) > 0 and max(quantities + bounds) > 1000 * min(quantities):   # decades apart: log scale
        sides.set_yscale("log")
    sides.legend(fontsize=9)
    fig.tight_layout()
    plt.show()
"""),
    ]
    for kind, s in (("A tight result", tight), ("A loose result", loose)):
        cells.append(markdown(f"### {kind}: `{s.theorem}`\n\n{s.why}"))
        cells.append(code(f"plot_sweep({s.theorem!r}, {s.fixed!r}, {s.parameter!r}, {list(s.values)!r}, "
                          f"{s.label!r}{', log_x=True' if s.log_x else ''})"))
    cells += [
        markdown("""
## Errata

Where a printed statement is wrong, symdp keeps both: the statement *as printed*, refuted by its counterexample,
and the corrected statement, a theorem of its own. Each counterexample is the one recorded with the erratum (a
pinned draw that must keep refuting the print), evaluated here at 50 digits. *Kind*
says what is refuted: an erratum of the paper, a conjecture the paper only suspects, or a deliberately relaxed copy
of a true theorem (its refutation shows the printed hypothesis is sharp).
"""),
        code("""
import re

import mpmath
from symdp.latex import plain
from symdp.verify import evaluate_point


def formula(text: str) -> str:
    \"\"\"Catalogue prose as Markdown: its mathematics ($…$) for MathJax, the text between as a terminal shows it.\"\"\"
    return "".join(part if part.startswith("$") else plain(part) for part in re.split(r"(\\$[^$]*\\$)", text))


def erratum_entry(theorem) -> str:
    e = theorem.erratum
    corrected = f" (`{e.corrected_id}`)" if e.corrected_id else ""
    lines = [f"**`{theorem.id}`**: {e.kind}, {e.severity}{f', same error as `{e.same_as}`' if e.same_as else ''}. "
             f"{cell(formula(e.location))}",
             f"- printed: {formula(e.printed)}",
             f"- corrected{corrected}: {formula(e.corrected)}",
             f"- counterexample: `{json.dumps(jsonable(e.counterexample))}`"]
    there = evaluate_point(theorem, e.counterexample)
    sides = (f"quantity {mpmath.nstr(there.quantity, 8)} against bound {mpmath.nstr(there.bound, 8)} "
             f"(margin {mpmath.nstr(there.margin, 4)} ± {mpmath.nstr(there.error, 2)})")
    verdict = "refuted" if there.verdict == VIOLATED else f"**not refuted** ({there.verdict})"
    lines.append(f"- there: {sides}: {verdict}")
    return "\\n".join(lines)


entries = [erratum_entry(t) for t in theorems if t.erratum is not None]
text = "\\n\\n".join(entries) if entries else "No erratum recorded for this paper."
display({"text/markdown": text, "text/plain": text}, raw=True)
"""),
    ]
    return cells


# --- building ----------------------------------------------------------------------------------------------------


def notebooks() -> dict[str, list[nbformat.NotebookNode]]:
    """Every notebook by name: the tour, then one per paper."""
    missing = [p for p in encoded_papers() if p not in PLOTS]
    if missing:
        raise SystemExit(f"notebooks/build.py: choose a tight and a loose result to plot for {', '.join(missing)}")
    return {"tour": TOUR} | {paper: paper_cells(paper) for paper in encoded_papers()}


def build(name: str, cells: Sequence[nbformat.NotebookNode], output: Path = HERE, timeout: int = 600) -> Path:
    """Execute a notebook in a temporary directory and write it, with its outputs, as ``output/name.ipynb``."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.from_dict(c) for c in cells]  # fresh copies: building twice never shares outputs
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    with tempfile.TemporaryDirectory(prefix=f"symdp-notebook-{name}-") as scratch:
        NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                       resources={"metadata": {"path": scratch}}).execute()
    path = Path(output) / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


def main(argv: Sequence[str] | None = None) -> None:
    every = notebooks()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"notebooks to build (default: all of "
                                                                 f"{', '.join(every)})")
    parser.add_argument("--output", type=Path, default=HERE, help="directory to write into (default: notebooks/)")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in every]
    if unknown:
        parser.error(f"no notebook named {', '.join(unknown)}; choose from {', '.join(every)}")
    args.output.mkdir(parents=True, exist_ok=True)
    for name in args.names or every:
        print(build(name, every[name], args.output), file=sys.stderr)


if __name__ == "__main__":
    main()
