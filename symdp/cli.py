"""The ``symdp`` command line: list, show, verify, check, errata, proofs, latex.

Every verdict says what kind of evidence stands behind it (``symdp.theorem.EVIDENCE``): *independent* (the
quantity computed from the distributions themselves), *closed-form* (a closed form against another, where the
paper's claim is itself such algebra), *identity* (a checked SymPy derivation, no draws) or *symbolic* (no check).
``--no-closed-forms`` switches every closed-form divergence of the engine off, so that an independent verdict can
be seen not to rest on a formula.

Bad input (an unknown ID, a claim that does not parse, a range with low > high) prints one line naming the problem
and exits with status 2. ``verify`` exits with status 1 if any theorem is violated other than a printed statement
recorded as an erratum (those are expected to be refuted, and *not* refuting one is a failure too).
``verify --module my_theorems.py`` (or a dotted name) verifies the theorems a module of your own declares, the way
the pytest plug-in (:mod:`symdp.plugin`) collects them.

The ``verify`` table fits 80 columns (``--wide`` for every column); ``--json`` has everything. In JSON, counts
(``examples``, ``tight_examples``, ``dps``) and ``seconds`` are numbers, parameter values (``counterexample``, each
draw's ``point``) are numbers as drawn, and every computed real (``worst_margin``, ``worst_margin_error``,
``worst_ratio``, and each draw's ``values``, ``quantity``, ``bound``, ``margin``, ``error``) is a decimal string at
full precision (``"inf"``, ``"-inf"`` and ``"nan"`` included), so that nothing is rounded to a double.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich import box
from rich.table import Table
from rich.text import Text

from symdp import parallel
from symdp.errors import SymdpError
from symdp.plugin import check, describe, expected_outcome, load_module, module_theorems
from symdp.precision import DEFAULT_DPS
from symdp.verify import HOLDS, INCONCLUSIVE, VIOLATED, Report, jsonable

_STYLE = {HOLDS: "green", VIOLATED: "red", INCONCLUSIVE: "yellow"}


def _console(stderr: bool = False, width: Optional[int] = None) -> Console:
    """A console for a terminal (its own width), or for a file or a pipe: ``width`` columns, or 220 so that wide
    tables are not folded.

    Markup is off: titles, statements and reasons contain brackets (``[u - e^eps]_+``) that rich would eat; styles
    are given as :class:`rich.text.Text` instead.
    """
    probe = Console(stderr=stderr, markup=False)
    return probe if probe.is_terminal else Console(stderr=stderr, width=width or 220, markup=False)


def _theorems(patterns):
    from symdp.theorems import select

    return select(list(patterns))


def _short(text: str, width: int = 60) -> str:
    """A table cell cut to ``width`` characters (the full value is in ``--json`` and ``symdp show``)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _fmt(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    import mpmath

    return mpmath.nstr(x, digits) if not isinstance(x, float) else f"{x:.{digits}g}"


def cmd_list(args) -> int:
    theorems = _theorems(args.ids)
    if args.json:
        print(json.dumps([t.summary() for t in theorems], indent=2))
        return 0
    table = Table("id", "source", "title", "evidence", "tight", "erratum")
    for t in theorems:
        table.add_row(t.id, t.source.number, t.title, t.evidence, "yes" if (t.tight_everywhere or t.tight_at) else "",
                      "yes" if t.erratum else "")
    _console().print(table)
    return 0


def cmd_show(args) -> int:
    from symdp.theorems import get

    t = get(args.id)
    if args.latex:
        from symdp.latex import document

        print(document([t], title=t.title))   # a document that compiles as it is
        return 0
    console = _console()
    console.print(Text.assemble((t.id, "bold"), f": {t.title}"))
    console.print(f"source: {t.source}")
    for p in t.parameters:
        console.print(f"  {p.name} ∈ {p.domain}" + (f"   (drawn from {list(p.sample)})" if p.sample else ""))
    for c in t.conditions:
        console.print(f"  condition: {c}")
    if t.structure_latex:
        console.print(f"  structure: {t.structure_latex}")
    console.print(f"statement: {t.statement}")
    console.print(f"evidence: {t.evidence}" + (f" ({t.evidence_note})" if t.evidence_note else ""))
    if t.measured:
        console.print(f"measured by the witness: {', '.join(map(str, t.measured))}")
    if t.tight_everywhere:
        console.print("tight: equality at every admissible draw")
    elif t.tight_at:
        console.print(f"tight at: {jsonable(list(t.tight_at))}")
    if t.symbolic_only:
        console.print(f"symbolic only: {t.symbolic_only}")
        if t.derivation is not None:
            console.print(f"  proved by the derivation '{t.derivation.title}' (checked exactly by SymPy)")
    if t.notes:
        console.print(f"notes: {t.notes}")
    if t.erratum:
        e = t.erratum
        console.print(Text.assemble((e.kind, "red"), f" ({e.location}): printed {e.printed}; corrected {e.corrected}"
                                    + (f" [{e.corrected_id}]" if e.corrected_id else "")))
        console.print(f"  counterexample: {jsonable(e.counterexample)}")
        if e.note:
            console.print(f"  {e.note}")
    console.print("latex:")
    print(t.latex())
    return 0


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _module_selection(reference: str, patterns) -> list:
    """The theorems a user's module declares, narrowed to IDs or prefixes as for the catalogue."""
    theorems = module_theorems(load_module(reference))
    if not theorems:
        raise SymdpError(f"{reference} declares no theorem (declare them with @theorem, or list them in THEOREMS)")
    chosen = []
    for pattern in patterns:
        hits = [t for t in theorems if t.id == pattern or t.id.startswith(pattern.rstrip(".") + ".")]
        if not hits:
            raise SymdpError(f"no theorem of {reference} matches {pattern!r} "
                             f"(it declares {', '.join(t.id for t in theorems)})")
        chosen.extend(t for t in hits if t not in chosen)
    return chosen or theorems


CERTIFIED = "✓"
"""The mark of a certified verdict in the table (:attr:`symdp.verify.Report.certified`)."""


def _verdict_cell(theorem, report: Report) -> str:
    """The verdict in a few words for the compact table (``describe`` gives the long form, in ``--wide``)."""
    if theorem.erratum is not None:
        kind = theorem.erratum.kind
        if report.verdict != VIOLATED:
            return "NOT refuted"
        return {"erratum": "refuted (erratum)", "conjecture": "refuted (conj.)", "sharpness": "refuted (sharp)"}[kind]
    if theorem.evidence == "symbolic":
        return "not checked"
    if report.verdict == HOLDS and report.tight:
        return "holds, tight"
    return report.verdict


def _style(theorem, report: Report) -> str:
    if expected_outcome(theorem, report):
        return "yellow" if report.verdict == INCONCLUSIVE else "green"
    return _STYLE.get(report.verdict, "red")


def fold_id(ident: str, width: int) -> str:
    """An ID broken into lines of at most ``width`` characters before its dots (or anywhere, if a part is longer).

    >>> print(fold_id("balle19.lem9.eps-dobrushin.corrected", 16))
    balle19.lem9
    .eps-dobrushin
    .corrected
    """
    lines, line = [], ""
    for k, part in enumerate(ident.split(".")):
        piece = part if k == 0 else "." + part
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece
        while len(line) > width:
            lines.append(line[:width])
            line = line[width:]
    return "\n".join(lines + [line])


TABLE_WIDTH = 80


def _compact_table(reports) -> Table:
    """id, verdict, evidence, draws, worst margin and ratio, in 80 columns (an ID that does not fit is folded at its
    dots)."""
    rows = []
    for t, r in reports:
        mark = f" {CERTIFIED}" if getattr(r, "certified", False) else ""
        rows.append([t.id, Text(_verdict_cell(t, r) + mark, style=_style(t, r)), r.evidence or t.evidence,
                     str(r.examples) if r.examples else "", "" if r.worst is None else _fmt(r.worst_margin, 3),
                     "" if r.worst_ratio is None else f"{r.worst_ratio:.3g}"])
    headers = ["id", "verdict", "evidence", "draws", "margin", "ratio"]
    widths = [max([len(h)] + [len(str(row[k])) for row in rows]) for k, h in enumerate(headers)]
    # rich puts a separator and a space either side between columns: 3 characters
    id_width = max(12, min(widths[0], TABLE_WIDTH - sum(widths[1:]) - 3 * (len(headers) - 1)))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1))
    for k, header in enumerate(headers):
        table.add_column(header, justify="right" if k >= 3 else "left", no_wrap=True)
    for row in rows:
        table.add_row(fold_id(row[0], id_width), *row[1:])
    return table


def _wide_table(reports) -> Table:
    table = Table("id", "verdict", "evidence", "draws", "worst margin", "± error", "worst ratio", "counterexample",
                  "s", "certified")
    for t, r in reports:
        table.add_row(t.id, Text(describe(t, r), style=_style(t, r)), r.evidence or t.evidence, str(r.examples),
                      _fmt(r.worst_margin), _fmt(None if r.worst is None else r.worst.error), _fmt(r.worst_ratio),
                      _short(json.dumps(jsonable(r.counterexample))) if r.counterexample else "", f"{r.seconds:.2f}",
                      "yes" if getattr(r, "certified", False) else "")
    return table


def cmd_verify(args) -> int:
    module = args.module
    theorems = _module_selection(module, args.ids) if module else _theorems(args.ids)
    if args.jobs < 1:
        raise SymdpError(f"--jobs must be >= 1, got {args.jobs}")
    console = _console(stderr=True)
    start = time.perf_counter()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=args.json or not console.is_terminal) as progress:
        task = progress.add_task("verifying", total=len(theorems))
        reports_in_order = parallel.run(
            [t.id for t in theorems], examples=args.examples, dps=args.dps, seed=args.seed,
            use_closed_forms=not args.no_closed_forms, jobs=args.jobs, scheduler=args.scheduler,
            draws_per_chunk=args.draws_per_chunk, module=module,
            on_report=lambda r: progress.update(task, description=r.id, advance=1))
    by_id = {r.id: r for r in reports_in_order}
    seconds = time.perf_counter() - start
    reports = [(t, by_id[t.id]) for t in theorems]
    failed = [t.id for t, r in reports if not expected_outcome(t, r)]
    if args.json:
        out = []
        for t, r in reports:
            d = r.to_json(draws=args.draws)
            d["erratum"] = t.erratum is not None
            d["expected"] = expected_outcome(t, r)
            out.append(d)
        print(json.dumps(out, indent=2))
        return 1 if failed else 0
    console = _console(width=None if args.wide else 80)
    console.print(_wide_table(reports) if args.wide else _compact_table(reports))
    if not args.wide:
        for t, r in reports:
            if r.counterexample:
                console.print(Text.assemble((t.id, _style(t, r)),
                                            f": counterexample {json.dumps(jsonable(r.counterexample))}"))
    for t, r in reports:
        if r.reason and (args.wide or not expected_outcome(t, r) or r.verdict == INCONCLUSIVE):
            console.print(Text.assemble((t.id, "yellow"), f": {r.reason}"))
    if any(getattr(r, "certified", False) for _, r in reports) and not args.wide:
        console.print(f"{CERTIFIED} certified: the verdict rests on rigorous enclosures, not on error estimates")
    holding = sum(expected_outcome(t, r) for t, r in reports)
    console.print(f"{holding} of {len(reports)} as expected in {seconds:.1f} s"
                  + ("" if args.wide else "; --wide or --json for more"))
    if failed:
        console.print(Text.assemble(("unexpected:", "red"), f" {', '.join(failed)}"))
    return 1 if failed else 0


def cmd_check(args) -> int:
    from symdp.claims import claim_theorem

    claim = claim_theorem(args.claim, args.where)
    r = check(claim, examples=args.examples, dps=args.dps, seed=args.seed, use_closed_forms=not args.no_closed_forms)
    if args.json:
        d = r.to_json(draws=args.draws)
        d.pop("id", None)
        d["claim"] = args.claim
        print(json.dumps(d, indent=2))
    else:
        console = _console()
        console.print(f"claim: {args.claim}")
        mark = f" {CERTIFIED} certified" if getattr(r, "certified", False) else ""
        console.print(Text.assemble("verdict: ", (r.verdict, _STYLE.get(r.verdict, "white")),
                                    (f" ({r.tight} of {r.examples} draws tight)" if r.tight else "") + mark
                                    + f" after {r.examples} draws in {r.seconds:.2f} s at {r.dps} digits"))
        if r.method:
            console.print(f"quantities computed by: {r.method}")
        if r.worst is not None:
            console.print(f"worst margin: {_fmt(r.worst_margin)} ± {_fmt(r.worst.error)}"
                          f"  (quantity {_fmt(r.worst.quantity)}, bound {_fmt(r.worst.bound)})")
        if r.counterexample is not None:
            console.print(f"counterexample: {json.dumps(jsonable(r.counterexample))}")
        if r.reason:
            console.print(r.reason)
    return 1 if r.verdict == VIOLATED else 0


def cmd_latex(args) -> int:
    """A LaTeX document of the selected theorems (and, with ``--proofs``, their papers' derivations)."""
    from symdp.latex import document

    theorems = _theorems(args.ids)
    derivations = ()
    if args.proofs:
        from proofs import PAPERS, all_derivations

        papers = [p for p in PAPERS if any(t.id.partition(".")[0] == p for t in theorems)]
        derivations = [d for _, d in all_derivations(papers)] if papers else []
    text = document(theorems, derivations=derivations, preamble=not args.no_preamble)
    if args.output:
        try:
            Path(args.output).write_text(text if text.endswith("\n") else text + "\n")
        except OSError as exc:
            raise SymdpError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        print(f"wrote {args.output} ({len(theorems)} theorems, {len(derivations)} derivations)", file=sys.stderr)
    else:
        print(text)
    return 0


def cmd_errata(args) -> int:
    from symdp.theorems import all_theorems

    rows = [{"id": t.id, "kind": t.erratum.kind, "severity": t.erratum.severity, "same_as": t.erratum.same_as,
             "location": t.erratum.location, "printed": t.erratum.printed, "corrected": t.erratum.corrected,
             "corrected_id": t.erratum.corrected_id, "counterexample": jsonable(t.erratum.counterexample)}
            for t in all_theorems() if t.erratum is not None and t.erratum.kind != "sharpness"]
    distinct = [row for row in rows if row["same_as"] is None]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    table = Table("id", "kind", "severity", "location", "printed", "corrected", "counterexample")
    for row in rows:
        table.add_row(row["id"] + (f" (= {row['same_as']})" if row["same_as"] else ""), row["kind"],
                      row["severity"], row["location"], row["printed"], row["corrected"],
                      json.dumps(row["counterexample"]))
    console = _console()
    console.print(table)
    counts = {}
    for row in distinct:
        counts[(row["kind"], row["severity"])] = counts.get((row["kind"], row["severity"]), 0) + 1
    console.print(f"{len(distinct)} distinct errors in {len(rows)} refuted statements: "
                  + ", ".join(f"{n} {kind} ({severity})" for (kind, severity), n in sorted(counts.items())))
    return 0


def cmd_proofs(args) -> int:
    from proofs import all_derivations

    if args.latex:
        from symdp.latex import document

        print(document([], derivations=all_derivations(args.papers), title="symdp: the checked derivations"))
        return 0
    failed = 0
    for paper, d in all_derivations(args.papers):
        bad = d.failures()
        failed += bool(bad)
        status = ("checked", "green") if not bad else (f"step {bad[0][0] + 1} fails: {bad[0][1]}", "red")
        _console().print(Text.assemble(f"{paper}: {d.title}: {len(d.steps)} steps ", status))
    return 1 if failed else 0


JSON_TYPES = """\
JSON types: counts (examples, tight_examples, dps) and seconds are numbers;
parameter values (counterexample, each draw's point) are numbers, as drawn;
every computed real (worst_margin, worst_margin_error, worst_ratio, and with
--draws each draw's values, quantity, bound, margin, error) is a decimal string
at full precision ("inf", "-inf", "nan" included)."""

CLAIM_NAMES = """\
Names in a claim: any name is a parameter (given a range by --where), except
the functions and distributions of the language and the constants E (Euler's
number; `e` is an ordinary parameter), pi and inf. Greek letters may be typed
as such or spelt out: λ and lambda are the same parameter (lambda, a Python
keyword, is accepted)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="symdp", description="Verify differential-privacy bounds.")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list the theorems of the catalogue")
    p.add_argument("ids", nargs="*", help="IDs or ID prefixes (e.g. dwork)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("show", help="show one theorem: hypotheses, statement, tightness, erratum, LaTeX")
    p.add_argument("id")
    p.add_argument("--latex", action="store_true", help="print only the LaTeX")
    p.set_defaults(run=cmd_show)

    def common(p, examples_default):
        p.add_argument("--examples", type=int, default=examples_default, help="hypothesis draws per theorem")
        p.add_argument("--dps", type=int, default=DEFAULT_DPS, help="working precision in decimal digits")
        p.add_argument("--seed", type=int, default=0, help="seed of the draws (runs are deterministic)")
        p.add_argument("--json", action="store_true")
        p.add_argument("--draws", action="store_true",
                       help="with --json: every draw, with the value of each parameter and measured atom")
        p.add_argument("--no-closed-forms", action="store_true",
                       help="compute every divergence from the densities (quadrature), never by a closed form")

    p = sub.add_parser("verify", help="verify theorems of the catalogue (all by default), or of your own module",
                       epilog=JSON_TYPES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("ids", nargs="*", help="IDs or ID prefixes (e.g. balle19)")
    p.add_argument("--module", metavar="MODULE",
                   help="verify the theorems your own module declares (a file path such as my_theorems.py, or a "
                        "dotted name), instead of the catalogue")
    common(p, None)
    p.add_argument("--wide", action="store_true", help="every column (error, counterexample, seconds): wider than 80")
    p.add_argument("--jobs", type=int, default=_cores(),
                   help="processes to spread the theorems over (default: the cores available; same reports)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster instead (e.g. tcp://10.0.0.1:8786; needs the extra symdp[dask] and the "
                        "same symdp on every worker); same reports")
    p.add_argument("--draws-per-chunk", type=int, default=None, metavar="N",
                   help="spread each theorem's draws over chunks of at most N, each with its own fixed seed")
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("check", help="check a bound of your own, e.g. \"kl(P, Q) <= eps\"", epilog=CLAIM_NAMES
                       + "\n\n" + JSON_TYPES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("claim")
    p.add_argument("--where", default=None, help='parameter ranges, e.g. "alpha in [1.01, 64], sigma in [0.2, 5]"')
    common(p, 100)
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("latex", help="a LaTeX document of theorems (all by default), optionally with their proofs")
    p.add_argument("ids", nargs="*", help="IDs or ID prefixes (e.g. dwork)")
    p.add_argument("--proofs", action="store_true", help="add the checked derivations of the selected papers")
    p.add_argument("--no-preamble", action="store_true", help="only the body, to \\input into your own document")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of the standard output")
    p.set_defaults(run=cmd_latex)

    p = sub.add_parser("errata", help="list the errata of the catalogue")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_errata)

    p = sub.add_parser("proofs", help="check the symbolic derivations in proofs/ (or print their LaTeX)")
    p.add_argument("papers", nargs="*")
    p.add_argument("--latex", action="store_true")
    p.set_defaults(run=cmd_proofs)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "examples", None) is not None and args.examples < 0:
        print("symdp: error: --examples must be >= 0", file=sys.stderr)
        return 2
    try:
        return args.run(args)
    except SymdpError as exc:
        print(f"symdp: error: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("symdp: error: expression too deeply nested", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
