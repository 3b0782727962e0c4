"""The ``symdp`` command line: list, papers, show, verify, check, eval, errata, proofs, latex.

Every verdict says what kind of evidence stands behind it (``symdp.theorem.EVIDENCE``): *independent* (the
quantity computed from the distributions themselves), *closed-form* (a closed form against another, where the
paper's claim is itself such algebra), *identity* (a checked SymPy derivation, no draws) or *symbolic* (no check).
``--no-closed-forms`` switches every closed-form divergence of the engine off, so that an independent verdict can
be seen not to rest on a formula.

**Exit status** (:data:`EXIT_STATUS`): 0 when everything holds as expected; 1 when something is violated (a
counterexample, or a printed statement recorded as an erratum that is *not* refuted); 2 for a usage error (an
unknown ID, a claim that does not parse, a range with low > high, an option out of range: one line on stderr,
``symdp: error: ...``); 3 when a check is inconclusive (not settled at the working precision: a script or CI can tell
"not settled" from "true"); 4 for an internal error (a bug of symdp, named on one line). ``verify --module
my_theorems.py`` (or a dotted name) verifies the theorems a module of your own declares, the way the pytest plug-in
(:mod:`symdp.plugin`) collects them.

Tables never break an ID: an ID too long for its column stands on its own line, the row's other cells below it.
On a terminal ``verify`` shows a progress bar; piped, it writes one line per theorem to stderr as each one finishes
(``--quiet`` for none). In JSON, counts (``examples``, ``tight_examples``, ``dps``) and ``seconds`` are numbers,
parameter values (``counterexample``, each draw's ``point``) are numbers as drawn, and every computed real
(``worst_margin``, ``worst_margin_error``, ``worst_ratio``, and each draw's ``values``, ``quantity``, ``bound``,
``margin``, ``error``) is a decimal string at full precision (``"inf"``, ``"-inf"`` and ``"nan"`` included), so that
nothing is rounded to a double.

Only :mod:`argparse` is imported to build the parser (``symdp --help`` starts in a few tens of milliseconds); each
command imports what it needs.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import textwrap
import time
from pathlib import Path
from typing import Optional, Sequence

EXIT_HOLDS, EXIT_VIOLATED, EXIT_USAGE, EXIT_INCONCLUSIVE, EXIT_INTERNAL = 0, 1, 2, 3, 4

EXIT_STATUS = """\
exit status: 0 holds (everything as expected); 1 violated (a counterexample,
or a recorded erratum not refuted); 2 usage error (one line on stderr);
3 inconclusive (not settled at this precision); 4 internal error (a bug)."""

MIN_DPS, MAX_DPS, DEFAULT_DPS = 5, 1000, 50
"""The accepted working precisions (kept equal to :mod:`symdp.precision`'s by ``tests/test_cli.py``; repeated here so
that the parser is built without importing mpmath)."""

TABLE_WIDTH = 80
"""Columns of a table written to a file or a pipe (a terminal's own width otherwise)."""

MIN_ID_WIDTH = 16
"""The narrowest ID column a table keeps before it drops other columns (longer IDs take a line of their own)."""

CERTIFIED = "✓"
"""The mark of a certified verdict in the table (:attr:`symdp.verify.Report.certified`)."""

JSON_TYPES = """\
JSON types: counts (examples, tight_examples, dps) and seconds are numbers;
draws_limited_by is "counterexample", "no parameters" or null (why a theorem
drew no more, where that is its nature);
parameter values (counterexample, each draw's point) are numbers, as drawn;
every computed real (worst_margin, worst_margin_error, worst_ratio, and with
--draws each draw's values, quantity, bound, margin, error) is a decimal string
at full precision ("inf", "-inf", "nan" included)."""

EVAL_OUTPUT = """\
output: the value, the enclosure [lower, upper] that holds it (written
outward), whether it is certified (every quantity a certified enclosure, the
arithmetic in ball arithmetic), how the quantities were computed and the time.
An answer not certified shows no enclosure and exits 3. A relative width that
the engine's brackets did not reach (--width, or its default) is said.
--json: one object with value, lower, upper (decimal strings; lower and upper
null when not certified), certified (bool), method, seconds (number),
expression, dps, width (the relative width asked; the default's when no
--width), width_default (bool), width_reached (the widest relative width of
the quantities' enclosures; null when not certified), width_met (bool or null)
and closed_forms."""

CLAIM_NAMES = """\
Names in a claim: any name is a parameter (given a range by --where), except
the functions and distributions of the language and the constants E (Euler's
number; `e` is an ordinary parameter), pi and inf. Greek letters may be typed
as such or spelt out: λ and lambda are the same parameter (lambda, a Python
keyword, is accepted). A name typed where an integer is required (k of
compose, k and i of randomized_response, loc of the discrete laws) is drawn
as an integer from its range. < and > are strict: a bound met with equality
fails them (violated where the equality is proved exact, inconclusive
otherwise)."""


class UsageError(Exception):
    """A bad command line, reported on one line with exit status 2."""


# --- output -----------------------------------------------------------------------------------------------------


def _console(stderr: bool = False, wide: bool = False, records: bool = False):
    """A rich console: a terminal's own width, else :data:`TABLE_WIDTH` columns (``wide``: no limit). ``records``:
    lines of ``key: value`` that are never folded (``symdp check``'s report, read by scripts). Markup is off: titles
    and statements contain brackets, ``[u - e^eps]_+``, that rich would eat; styles are given as
    :class:`rich.text.Text`."""
    from rich.console import Console

    console = Console(stderr=stderr, markup=False, highlight=False, soft_wrap=records)
    if not console.is_terminal:
        console = Console(stderr=stderr, markup=False, highlight=False, soft_wrap=records,
                          width=10**6 if wide else TABLE_WIDTH)
    return console


def _width(console, wide: bool = False) -> Optional[int]:
    """The width tables are laid out in: unlimited with ``--wide``, else the console's."""
    return None if wide else console.size.width


def _fmt(x, digits: int = 4) -> str:
    if x is None:
        return "-"
    import mpmath

    return f"{x:.{digits}g}" if isinstance(x, float) else mpmath.nstr(x, digits)


def table_lines(headers: Sequence[str], rows: Sequence[Sequence], width: Optional[int], right: Sequence[int] = (),
                drop: Sequence[int] = (), below: Optional[Sequence[str]] = None) -> list:
    """A table as lines of :class:`rich.text.Text`, its first column (an ID) never broken.

    A cell is text, or ``(text, style)``. Columns are two spaces apart. While the table is wider than ``width``,
    the columns listed in ``drop`` go first, in that order, until the ID column is :data:`MIN_ID_WIDTH` wide; an
    ID longer than its column then stands on its own line, the row's other cells on the line below. ``below`` gives
    each row a line of its own under it (a title), indented and dimmed.

    >>> for line in table_lines(["id", "verdict"], [["a.b", "holds"], ["a.very-long.identifier", "holds"]], 20):
    ...     print(line.plain.rstrip())
    id           verdict
    ────────────────────
    a.b          holds
    a.very-long.identifier
                 holds
    """
    from rich.text import Text

    def plain(cell):
        return cell[0] if isinstance(cell, tuple) else str(cell)

    columns = list(range(len(headers)))
    ids = [plain(row[0]) for row in rows]
    longest = max([len(headers[0])] + [len(i) for i in ids])

    def widths(cols):
        return {k: max([len(headers[k])] + [len(plain(row[k])) for row in rows]) for k in cols}

    def id_room(cols):
        others = widths(cols)
        return None if width is None else width - sum(others[k] for k in cols[1:]) - 2 * (len(cols) - 1)

    for k in drop:
        room = id_room(columns)
        if room is None or room >= min(longest, MIN_ID_WIDTH):
            break
        columns.remove(k)
    w = widths(columns)
    room = id_room(columns)
    w[columns[0]] = longest if room is None else max(len(headers[0]), min(longest, room))

    def line(cells) -> Text:
        out = Text()
        for n, (k, cell) in enumerate(zip(columns, cells)):
            text, style = (cell if isinstance(cell, tuple) else (str(cell), ""))
            padded = text.rjust(w[k]) if k in right else text.ljust(w[k])
            out.append(("  " if n else "") + padded, style=style or None)
        return out

    lines = [line(headers[k] for k in columns), Text("─" * (sum(w[k] for k in columns) + 2 * (len(columns) - 1)))]
    for n, row in enumerate(rows):
        cells = [row[k] for k in columns]
        if len(plain(cells[0])) > w[columns[0]]:
            lines.append(Text(plain(cells[0]), style=(cells[0][1] if isinstance(cells[0], tuple) else None) or None))
            cells[0] = ""
        lines.append(line(cells))
        if below is not None:
            lines.append(Text("    " + below[n], style="dim"))
    return lines


def _print_lines(console, lines) -> None:
    for text in lines:
        console.print(text, overflow="ignore", crop=False, no_wrap=True)


# --- selecting theorems -----------------------------------------------------------------------------------------


def _theorems(patterns):
    from symdp.theorems import select

    return select(list(patterns))


def _module_selection(reference: str, patterns) -> list:
    """The theorems a user's module declares, narrowed to IDs or prefixes as for the catalogue."""
    from symdp.errors import SymdpError
    from symdp.plugin import load_module, module_theorems

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


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


# --- list, papers, show -----------------------------------------------------------------------------------------


def cmd_list(args) -> int:
    theorems = _theorems(args.ids)
    if args.json:
        print(json.dumps([t.summary() for t in theorems], indent=2))
        return EXIT_HOLDS
    console = _console()
    width = _width(console)
    rows = [[t.id, t.source.number, t.evidence,
             ", ".join(flag for flag, on in (("tight", t.tight_everywhere or t.tight_at),
                                              (t.erratum.kind if t.erratum else "", t.erratum)) if on)]
            for t in theorems]
    from symdp.latex import plain

    titles = [textwrap.shorten(plain(t.title), max(40, (width or TABLE_WIDTH) - 4), placeholder=" …")
              for t in theorems]
    _print_lines(console, table_lines(["id", "number", "evidence", "notes"], rows, width, drop=(3, 2, 1),
                                      below=titles))
    return EXIT_HOLDS


def cmd_papers(args) -> int:
    """Each paper's coverage: catalogue entries, how many are encoded, and (for named papers) which are not."""
    from symdp.citations import PAPERS as CITED
    from symdp.coverage import CATALOGUE, coverage
    from symdp.theorems import all_theorems

    unknown = [p for p in args.papers if p not in CATALOGUE]
    if unknown:
        raise UsageError(f"no paper {unknown[0]!r}: the papers are {', '.join(CATALOGUE)}")
    chosen = args.papers or list(CATALOGUE)
    ids = [t.id for t in all_theorems()]
    found = [coverage(p, ids) for p in chosen]
    if args.json:
        print(json.dumps([{**c.to_json(), "citation": CITED[c.paper].short, "title": CITED[c.paper].title}
                          for c in found], indent=2))
        return EXIT_HOLDS
    from rich.text import Text

    console = _console()
    rows = [[c.paper, f"{len(c.encoded)}/{c.entries}", str(c.theorems), CITED[c.paper].short] for c in found]
    _print_lines(console, table_lines(["paper", "encoded", "theorems", "citation"], rows, _width(console),
                                      right=(1, 2)))
    width = _width(console) or TABLE_WIDTH
    for c in found:
        if args.papers or not c.encoded:
            console.print(Text(c.paper, style="bold"))
            for label, ids in (("not encoded yet", c.missing), ("checked beyond the catalogue", c.extras)):
                if ids or label == "not encoded yet":
                    text = textwrap.fill(", ".join(ids) or "none", width, initial_indent="    ",
                                         subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)
                    console.print(f"  {label} ({len(ids)}):\n{text}")
    console.print("encoded: some theorem has the entry's ID or one below it (`symdp list PAPER`)")
    return EXIT_HOLDS


def cmd_show(args) -> int:
    from symdp.theorems import get

    t = get(args.id)
    if args.latex:
        from symdp import latex

        print(latex.document([t], title=t.title) if args.standalone else latex.theorem_environment(t))
        return EXIT_HOLDS
    from rich.text import Text

    from symdp.latex import plain
    from symdp.verify import jsonable

    console = _console()
    console.print(Text.assemble((t.id, "bold"), f": {plain(t.title)}"))
    console.print(f"source: {plain(str(t.source))}")
    for p in t.parameters:
        console.print(f"  {p.name} ∈ {p.domain}" + (f"   (drawn from {list(p.sample)}"
                                                     + (", log scale" if p.log else "") + ")" if p.sample else ""))
    for limit in t.domain_limits():
        console.print(f"  checked short of the stated domain: {limit}")
    for c in t.conditions:
        console.print(f"  condition: {c}")
    if t.structure_latex:
        console.print(f"  structure: {t.structure_latex}")
    console.print(f"statement: {t.statement}")
    console.print(f"evidence: {t.evidence}" + (f" ({plain(t.evidence_note)})" if t.evidence_note else ""))
    if t.measured:
        console.print(f"measured by the witness: {', '.join(map(str, t.measured))}")
    if t.tight_everywhere:
        console.print("tight: equality at every admissible draw")
    elif t.tight_at:
        console.print(f"tight at: {json.dumps(jsonable(list(t.tight_at)))}")
    if t.symbolic_only:
        console.print(f"symbolic only: {plain(t.symbolic_only)}")
        if t.derivation is not None:
            console.print(f"  proved by the derivation '{plain(t.derivation.title)}' (checked exactly by SymPy)")
    if t.notes:
        console.print(f"notes: {plain(t.notes)}")
    if t.erratum:
        _print_erratum(console, t)
    console.print("latex (symdp show ID --latex; --standalone for a whole document):")
    print(t.latex())
    return EXIT_HOLDS


def _print_erratum(console, t, verbose: bool = True) -> None:
    from rich.text import Text

    from symdp.latex import plain
    from symdp.verify import jsonable

    e = t.erratum
    head = f"{e.kind}, {e.severity}" + (f", the same error as {e.same_as}" if e.same_as else "")
    console.print(Text.assemble((t.id, "bold red" if e.kind == "erratum" else "bold"),
                                f"  ({head}; {plain(e.location)})"))
    console.print(f"  printed:   {plain(e.printed)}")
    console.print(f"  corrected: {plain(e.corrected)}" + (f"   [{e.corrected_id}]" if e.corrected_id else ""))
    console.print(f"  counterexample: {json.dumps(jsonable(e.counterexample))}")
    if verbose and e.note:
        console.print(f"  {plain(e.note)}")


# --- verify, check ----------------------------------------------------------------------------------------------


def _verdict_cell(theorem, report) -> str:
    """The verdict in a few words for the compact table (``describe`` gives the long form, in ``--wide``)."""
    from symdp.verify import HOLDS, VIOLATED

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


def _style(theorem, report) -> str:
    from symdp.plugin import expected_outcome
    from symdp.verify import INCONCLUSIVE

    if report.verdict == INCONCLUSIVE and theorem.evidence != "symbolic":
        return "yellow"
    return "green" if expected_outcome(theorem, report) else "red"


def settled(theorem, report) -> bool:
    """Whether a report settles its theorem: anything but *inconclusive*, except for a symbolic statement, which no
    draw can settle and none is expected to."""
    from symdp.verify import INCONCLUSIVE

    return report.verdict != INCONCLUSIVE or theorem.evidence == "symbolic"


def exit_status(pairs) -> int:
    """1 if any report contradicts its declaration (a violation, an erratum not refuted), else 3 if any is not
    settled, else 0."""
    from symdp.plugin import expected_outcome

    pairs = list(pairs)
    if any(settled(t, r) and not expected_outcome(t, r) for t, r in pairs):
        return EXIT_VIOLATED
    if any(not settled(t, r) for t, r in pairs):
        return EXIT_INCONCLUSIVE
    return EXIT_HOLDS


def _compact_rows(reports) -> list:
    rows = []
    for t, r in reports:
        mark = f" {CERTIFIED}" if getattr(r, "certified", False) else ""
        rows.append([t.id, (_verdict_cell(t, r) + mark, _style(t, r)), r.evidence or t.evidence,
                     str(r.examples) if r.examples else "", "" if r.worst is None else _fmt(r.worst_margin, 3),
                     "" if r.worst_ratio is None else f"{r.worst_ratio:.3g}"])
    return rows


def _wide_rows(reports) -> list:
    from symdp.plugin import describe
    from symdp.verify import jsonable

    return [[t.id, (describe(t, r), _style(t, r)), r.evidence or t.evidence, str(r.examples), _fmt(r.worst_margin),
             _fmt(None if r.worst is None else r.worst.error), _fmt(r.worst_ratio),
             json.dumps(jsonable(r.counterexample)) if r.counterexample else "", f"{r.seconds:.2f}",
             "yes" if getattr(r, "certified", False) else ""] for t, r in reports]


def cmd_verify(args) -> int:
    from symdp import parallel
    from symdp.plugin import expected_outcome

    module = args.module
    theorems = _module_selection(module, args.ids) if module else _theorems(args.ids)
    stderr = _console(stderr=True)
    start = time.perf_counter()
    done = []

    def progress_line(report):
        done.append(report.id)
        if not args.quiet:
            stderr.print(f"[{len(done)}/{len(theorems)}] {report.id}: {report.verdict} ({report.seconds:.1f} s)")

    run = dict(examples=args.examples, dps=args.dps, seed=args.seed, use_closed_forms=not args.no_closed_forms,
               jobs=args.jobs, scheduler=args.scheduler, draws_per_chunk=args.draws_per_chunk, module=module)
    # What is loaded now (SymPy, the catalogue and its caches: most of the process's objects) lives as long as the run:
    # the garbage collector need not scan it at every full collection, in this process or in the workers forked from
    # it (2-3% of a catalogue run's CPU, benchmarks/README.md); unfrozen after, for a caller that goes on
    gc.freeze()
    try:
        if stderr.is_terminal and not args.quiet:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=stderr, transient=True) as bar:
                task = bar.add_task("verifying", total=len(theorems))
                reports_in_order = parallel.run([t.id for t in theorems], **run,
                                                on_report=lambda r: bar.update(task, description=r.id, advance=1))
        else:
            reports_in_order = parallel.run([t.id for t in theorems], **run, on_report=progress_line)
    finally:
        gc.unfreeze()
    by_id = {r.id: r for r in reports_in_order}
    seconds = time.perf_counter() - start
    reports = [(t, by_id[t.id]) for t in theorems]
    status = exit_status(reports)
    if args.json:
        out = []
        for t, r in reports:
            d = r.to_json(draws=args.draws)
            d["erratum"] = t.erratum is not None
            d["expected"] = expected_outcome(t, r)
            d["settled"] = settled(t, r)
            out.append(d)
        print(json.dumps(out, indent=2))
        return status
    from rich.text import Text

    console = _console(wide=args.wide)
    if args.wide:
        headers = ["id", "verdict", "evidence", "draws", "worst margin", "± error", "worst ratio", "counterexample",
                   "s", "certified"]
        _print_lines(console, table_lines(headers, _wide_rows(reports), None, right=(3, 4, 5, 6, 8)))
    else:
        _print_lines(console, table_lines(["id", "verdict", "evidence", "draws", "margin", "ratio"],
                                          _compact_rows(reports), _width(console), right=(3, 4, 5),
                                          drop=(5, 4, 3, 2)))
        for t, r in reports:
            if r.counterexample:
                console.print(Text.assemble((t.id, _style(t, r)),
                                            f": counterexample {json.dumps(_jsonable(r.counterexample))}"))
    for t, r in reports:
        if r.reason and (args.wide or not expected_outcome(t, r) or not settled(t, r)):
            console.print(Text.assemble((t.id, "yellow"), f": {r.reason}"))
    if any(getattr(r, "certified", False) for _, r in reports) and not args.wide:
        console.print(f"{CERTIFIED} certified: the verdict rests on rigorous enclosures, not on error estimates")
    holding = sum(expected_outcome(t, r) and settled(t, r) for t, r in reports)
    proved = [r.certified for t, r in reports if t.numeric and t.erratum is None and r.verdict in ("holds", "tight")]
    console.print(f"{holding} of {len(reports)} as expected in {seconds:.1f} s"
                  + (f"; {sum(proved)} of {len(proved)} numeric holds/tight verdicts certified" if proved else "")
                  + ("" if args.wide else "; --wide or --json for more"))
    failed = [t.id for t, r in reports if settled(t, r) and not expected_outcome(t, r)]
    unsettled = [t.id for t, r in reports if not settled(t, r)]
    if failed:
        console.print(Text.assemble(("unexpected:", "red"), f" {', '.join(failed)}"))
    if unsettled:
        console.print(Text.assemble(("inconclusive:", "yellow"), f" {', '.join(unsettled)}"))
    return status


def _jsonable(value):
    from symdp.verify import jsonable

    return jsonable(value)


def cmd_looseness(args) -> int:
    """Per theorem, where its bound is tightest among the points the search evaluated: the worst ratio, the point,
    how the search found it, and where the draws stop short of the stated domain. From a fresh run, or from the
    JSON of an earlier ``symdp verify --json``."""
    if args.from_json:
        try:
            with open(args.from_json, encoding="utf-8") as handle:
                rows = json.load(handle)
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read {args.from_json}: {exc}") from None
        if not isinstance(rows, list) or not all(isinstance(r, dict) and "id" in r for r in rows):
            raise UsageError(f"{args.from_json} is not the output of `symdp verify --json`")
        wanted = {t.id for t in _theorems(args.ids)} if args.ids else None
        rows = [r for r in rows if wanted is None or r["id"] in wanted]
    else:
        from symdp import parallel

        theorems = [t for t in _theorems(args.ids) if t.numeric]
        reports = parallel.run([t.id for t in theorems], examples=args.examples, seed=args.seed, jobs=args.jobs)
        rows = [r.to_json() for r in reports]
    rows = [r for r in rows if r.get("closest")]
    rows.sort(key=lambda r: -r["closest"]["closeness"])
    if args.json:
        print(json.dumps([{"id": r["id"], "verdict": r["verdict"], **r["closest"],
                           "domain_limits": r.get("domain_limits", [])} for r in rows], indent=2))
        return EXIT_HOLDS
    console = _console(wide=True)
    table = []
    for r in rows:
        c = r["closest"]
        ratio = c["ratio"]
        table.append([r["id"], r["verdict"], "" if ratio is None else f"{ratio:.4g}",
                      "" if not ratio else f"{1 / ratio:.3g}", f"{c['closeness']:+.3g}", c["found"],
                      str(len(r.get("domain_limits", []))) if r.get("domain_limits") else "",
                      json.dumps(c["point"], separators=(",", ":"))])
    _print_lines(console, table_lines(["id", "verdict", "ratio", "loose x", "closeness", "found", "limits", "at"],
                                      table, None, right=(2, 3, 4, 6)))
    console.print("ratio: quantity/bound (bound/quantity for >=) at the closest point; closeness: -margin/size of "
                  "the sides, 0 at equality; limits: parameters drawn short of the stated domain (symdp show ID)")
    return EXIT_HOLDS


def cmd_check(args) -> int:
    from symdp.claims import claim_theorem
    from symdp.plugin import check
    from symdp.verify import INCONCLUSIVE, VIOLATED

    claim = claim_theorem(args.claim, args.where)
    r = check(claim, examples=args.examples, dps=args.dps, seed=args.seed, use_closed_forms=not args.no_closed_forms)
    status = {VIOLATED: EXIT_VIOLATED, INCONCLUSIVE: EXIT_INCONCLUSIVE}.get(r.verdict, EXIT_HOLDS)
    if args.json:
        d = r.to_json(draws=args.draws)
        d["claim"] = args.claim
        print(json.dumps(d, indent=2))
        return status
    from rich.text import Text

    console = _console(records=True)
    console.print(f"claim: {args.claim}")
    mark = f" {CERTIFIED} certified" if getattr(r, "certified", False) else ""
    colour = {VIOLATED: "red", INCONCLUSIVE: "yellow"}.get(r.verdict, "green")
    console.print(Text.assemble("verdict: ", (r.verdict, colour),
                                _tightness(r) + mark
                                + f" after {r.examples} draw{'s' if r.examples != 1 else ''} in {r.seconds:.2f} s at {r.dps} digits"))
    if r.method:
        console.print(f"quantities computed by: {r.method}")
    if r.worst is not None:
        console.print(f"worst margin: {_fmt(r.worst_margin)} ± {_fmt(r.worst.error)}"
                      f"  (quantity {_fmt(r.worst.quantity)}, bound {_fmt(r.worst.bound)})")
    if r.counterexample is not None:
        console.print(f"counterexample: {json.dumps(_jsonable(r.counterexample))}")
    if r.reason:
        console.print(r.reason)
    return status


def directed_decimal(x, digits: int, rounding: str = "n") -> str:
    """``x`` as a decimal string of ``digits`` significant digits, rounded to nearest (``"n"``), down (``"d"``) or up
    (``"u"``): the ends of a certified enclosure are written outward, so that the decimal interval still holds it.

    >>> import mpmath
    >>> third = mpmath.mpf(1) / 3
    >>> down, up = directed_decimal(third, 5, "d"), directed_decimal(third, 5, "u")
    >>> down, up, directed_decimal(-third, 5, "d"), directed_decimal(mpmath.inf, 5)
    ('0.33333', '0.33334', '-0.33334', 'inf')
    """
    from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_EVEN, Context, Decimal

    import mpmath

    x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        return "nan" if mpmath.isnan(x) else "inf" if x > 0 else "-inf"
    man, exp = abs(x).man_exp
    numerator, denominator = (int(man) << max(int(exp), 0)), 1 << max(-int(exp), 0)   # |x| exactly, as a fraction
    numerator = -numerator if x < 0 else numerator
    context = Context(prec=digits, rounding={"n": ROUND_HALF_EVEN, "d": ROUND_FLOOR, "u": ROUND_CEILING}[rounding])
    value = context.divide(Decimal(numerator), Decimal(denominator))   # Decimal(int) is exact; the quotient rounded
    text = format(value, "f") if value == 0 or -30 < value.adjusted() < 30 else format(value, "e")
    return text.rstrip("0").rstrip(".") if "." in text and "e" not in text else text


def _known_digits(lower, upper, value, dps: int) -> int:
    """How many significant digits of ``value`` the enclosure ``[lower, upper]`` supports (at least 2, at most dps)."""
    import mpmath

    width = upper - lower
    if value == 0 or not mpmath.isfinite(value) or width <= 0:
        return dps
    return max(2, min(dps, int(mpmath.floor(mpmath.log10(abs(value) / width))) + 1))


def cmd_eval(args) -> int:
    import mpmath

    from symdp.claims import evaluate_expression
    from symdp.engine.accounting import default_width
    from symdp.precision import closed_forms, working_precision

    with working_precision(args.dps), closed_forms(not args.no_closed_forms):
        r = evaluate_expression(args.expression, width=args.width)
        asked = float(default_width()) if args.width is None else args.width
        lower, upper = directed_decimal(r.lower, args.dps, "d"), directed_decimal(r.upper, args.dps, "u")
        value = directed_decimal(r.value, args.dps)
        shown = directed_decimal(r.value, _known_digits(r.lower, r.upper, r.value, args.dps))
    # an enclosure is shown only where it is proved to hold the value; an answer not certified exits 3
    reached = float(r.width) if r.certified and r.width is not None else None
    met = None if reached is None else reached <= asked
    status = EXIT_HOLDS if r.certified else EXIT_INCONCLUSIVE
    if args.json:
        print(json.dumps({"expression": args.expression, "value": value, "lower": lower if r.certified else None,
                          "upper": upper if r.certified else None, "certified": r.certified, "method": r.method,
                          "seconds": r.seconds, "dps": args.dps, "width": asked, "width_default": args.width is None,
                          "width_reached": reached, "width_met": met, "closed_forms": not args.no_closed_forms},
                         indent=2))
        return status
    console = _console()
    console.print(f"expression: {args.expression}")
    if r.certified:
        console.print(f"value: {shown} {CERTIFIED} certified")
        console.print(f"enclosure: [{lower}, {upper}]")
    else:
        found = directed_decimal(r.value, 6) if mpmath.isfinite(r.value) else None
        console.print(f"value: {found} (not certified: an estimate)" if found else "value: not found (not certified)")
        console.print("enclosure: none (no certified enclosure holds the value)")
    if met is False:
        console.print(f"width: {reached:.2g} reached, wider than the {asked:.2g} asked"
                      f"{' (the default)' if args.width is None else ''}: the engine stopped narrowing its bracket "
                      f"(the enclosure holds the value all the same)")
    how = r.method if r.certified or r.method != "certified" else "the certified route, which failed to certify it"
    console.print(f"computed by: {how} in {r.seconds:.2f} s at {args.dps} digits")
    return status


DPSGD_OUTPUT = """\
output: the certified bracket [lower, upper] of the answer (delta at
--epsilon, or epsilon at --delta), the neighbouring relation, the orientation of
it that decides the answer (add or remove for add-or-remove) with each
orientation's own bracket, where the dominating pair comes from, and, where
dp_accounting is installed and answers the relation, its PLD and RDP accountants'
answers marked inside, pessimistic (above the bracket) or underestimate (below
it); with --rdp, also the answer symdp's certified RDP curve gives (an upper
bound, by the Canonne-Kamath-Steinke conversion).
--json: one object with question, at, lower, upper, width_reached (the bracket's
relative width), width_met (bool), certified (bool), method,
relation, decided_by, brackets (each orientation's [lower, upper]), seconds,
source, peers (each with answer, verdict, seconds and any note, or why it gave
none), and rdp (with --rdp: upper, order, certified, seconds, or upper null and
why; else null);
lower, upper and the brackets' ends are decimal strings rounded outward, as
symdp eval writes them. Fixed batches (--sampling fixed-batch --dataset-size N
--batch-size B) are accounted under --relation replace-one only; dp_accounting's
RDP accountant takes their noise multiplier relative to the distance between two
records' contributions (2 for contributions clipped to norm 1), where DP-SGD and
its PLD accountant take it relative to the clipping norm: its answer is that of
twice the noise, and shows as an underestimate. A sampling scheme symdp does not
account is refused with the reason (exit 2)."""


RDP_ORDERS = (1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 128, 256)
"""The orders of ``symdp dpsgd --rdp`` and of dp_accounting's RDP accountant as a peer (integer and fractional)."""


def _peers(mechanism, args, question: str) -> list[dict]:
    """dp_accounting's PLD and RDP answers to the same question (the mechanism as its event,
    :func:`symdp.interop.dp_event`), each with its CPU seconds, or why there is none (not installed; a relation or
    sampling it does not account: its RDP accountant knows add-or-remove for Poisson sampling and replace-one for
    fixed batches, its PLD accountant no fixed batches)."""
    import time as clock

    names = ("dp_accounting PLD", "dp_accounting RDP")
    try:
        import dp_accounting as dpa
    except ImportError:
        return [{"name": name, "answer": None, "why": "not installed (pip install dp-accounting)"} for name in names]
    from symdp.interop import dp_event

    fixed = args.sampling == "fixed-batch"
    accountants = {
        "dp_accounting PLD": (lambda relation: dpa.pld.PLDAccountant(relation))
        if args.relation in ("add-or-remove", "replace-one") and not fixed else None,
        "dp_accounting RDP": (lambda relation: dpa.rdp.RdpAccountant(list(RDP_ORDERS), relation))
        if args.relation == ("replace-one" if fixed else "add-or-remove") else None,
    }
    found = []
    for name in names:
        if accountants[name] is None:
            alone = " alone" if args.relation in ("add", "remove") else ""     # it has add-or-remove
            why = ("accounts no sampling without replacement" if fixed and name.endswith("PLD")
                   else f"accounts no {args.relation} relation{alone}" + (" of fixed batches" if fixed else ""))
            found.append({"name": name, "answer": None, "why": why})
            continue
        start = clock.process_time()
        event, relation = dp_event(mechanism)
        accountant = accountants[name](relation).compose(event)
        answer = accountant.get_delta(args.epsilon) if question == "delta" else accountant.get_epsilon(args.delta)
        found.append({"name": name, "answer": float(answer), "seconds": round(clock.process_time() - start, 3)})
        if fixed:
            found[-1]["note"] = ("its noise multiplier is relative to the distance 2 between two records' "
                                 "contributions: the answer of twice this noise")
    return found


def _rdp_bound(mechanism, args, question: str) -> dict:
    """symdp's own RDP answer: the certified curve at :data:`RDP_ORDERS`, converted (Canonne, Kamath, Steinke) with
    its upper ends, rounded upward: an upper bound, looser than the bracket, shown for comparison with RDP tables."""
    import time as clock

    from symdp.errors import InvalidParameter
    from symdp.rdp import delta_from_rdp, epsilon_from_rdp, renyi_curve

    start = clock.perf_counter()
    try:
        curve = renyi_curve(mechanism, RDP_ORDERS)
    except InvalidParameter as exc:     # a mechanism whose Rényi divergences are not computed: the bracket stands
        return {"upper": None, "why": str(exc), "seconds": round(clock.perf_counter() - start, 3)}
    convert = delta_from_rdp if question == "delta" else epsilon_from_rdp
    value, order = convert(curve.orders, curve.upper, args.epsilon if question == "delta" else args.delta)
    return {"upper": directed_decimal(value, 8, "u"), "order": float(order), "certified": curve.certified,
            "seconds": round(clock.perf_counter() - start, 3)}


def cmd_dpsgd(args) -> int:
    from symdp.mechanisms import delta, dpsgd, epsilon
    from symdp.interop import classify

    if (args.delta is None) == (args.epsilon is None):
        raise UsageError("give one of --delta (for epsilon) or --epsilon (for delta) (symdp dpsgd --help)")
    fixed = args.sampling == "fixed-batch"
    if fixed and (args.dataset_size is None or args.batch_size is None):
        raise UsageError("--sampling fixed-batch needs --dataset-size and --batch-size (symdp dpsgd --help)")
    if fixed and args.sampling_rate is not None:
        raise UsageError("--sampling fixed-batch takes its rate from --batch-size over --dataset-size, not "
                         "--sampling-rate (symdp dpsgd --help)")
    if not fixed and args.sampling_rate is None:
        raise UsageError("give --sampling-rate (symdp dpsgd --help)")
    if not fixed and (args.dataset_size is not None or args.batch_size is not None):
        raise UsageError(f"--sampling {args.sampling} takes --sampling-rate, not --dataset-size or --batch-size "
                         "(symdp dpsgd --help)")
    mechanism = dpsgd(args.sampling_rate, args.noise_multiplier, args.steps, relation=args.relation,
                      sampling=args.sampling, dataset_size=args.dataset_size, batch_size=args.batch_size)
    question = "delta" if args.epsilon is not None else "epsilon"
    answer = (delta(mechanism, args.epsilon, width=args.width) if question == "delta"
              else epsilon(mechanism, args.delta, width=args.width))
    peers = [] if args.no_peers else _peers(mechanism, args, question)
    rdp = _rdp_bound(mechanism, args, question) if args.rdp else None
    for peer in peers:
        if peer["answer"] is not None and answer.certified:
            peer["verdict"] = classify(peer["answer"], answer.lower, answer.upper)
    status = EXIT_HOLDS if answer.certified else EXIT_INCONCLUSIVE
    def outward(lo, hi, digits: int = 17) -> list:
        return [directed_decimal(lo, digits, "d"), directed_decimal(hi, digits, "u")]

    reached = float(answer.width)
    if args.json:
        lower, upper = outward(answer.lower, answer.upper)
        print(json.dumps({"question": question, "at": float(answer.at), "lower": lower, "upper": upper,
                          "width_reached": reached, "width_met": reached <= args.width,
                          "certified": answer.certified, "method": answer.method, "relation": answer.relation,
                          "decided_by": answer.decided_by,
                          "brackets": {name: outward(*ends) for name, ends in answer.brackets.items()},
                          "source": mechanism.source, "seconds": round(answer.seconds, 3), "peers": peers,
                          "rdp": rdp}, indent=2))
        return status
    console = _console()
    asked = f"δ(ε = {args.epsilon:g})" if question == "delta" else f"ε(δ = {args.delta:g})"
    console.print(f"mechanism: {mechanism.description}")
    console.print(f"relation: {answer.relation}, decided by {answer.decided_by}"
                  + ("" if len(answer.brackets) == 1 else " (" + "; ".join(
                      f"{name}: [{', '.join(outward(*ends, 8))}]" for name, ends in answer.brackets.items()) + ")"))
    mark = f"{CERTIFIED} certified" if answer.certified else "(not certified)"
    how = "" if answer.method == "certified" else f" ({answer.method})"
    console.print(f"{asked}: [{', '.join(outward(answer.lower, answer.upper, 8))}] {mark}{how} in "
                  f"{answer.seconds:.2f} s")
    if reached > args.width:
        console.print(f"width: {reached:.2g} reached, wider than the {args.width:.2g} asked: the engine stopped "
                      f"narrowing its bracket (which holds the answer all the same)")
    console.print(f"dominating pair: {mechanism.source}")
    if rdp is not None and rdp["upper"] is None:
        console.print(f"RDP: not computed ({rdp['why']})")
    elif rdp is not None:
        console.print(f"RDP (certified curve at {len(RDP_ORDERS)} orders, Canonne-Kamath-Steinke conversion): "
                      f"{asked} ≤ {rdp['upper']} (order {rdp['order']:g}), in {rdp['seconds']:.2f} s")
    for peer in peers:
        if peer["answer"] is None:
            console.print(f"{peer['name']}: no answer ({peer['why']})")
        else:
            console.print(f"{peer['name']}: {peer['answer']:.8g}, {peer.get('verdict', 'not classified')} "
                          f"({peer['seconds']:.2f} s)" + (f"; {peer['note']}" if "note" in peer else ""))
    return status


# --- latex, errata, proofs --------------------------------------------------------------------------------------


def _write(path: str, text: str, what: str) -> None:
    from symdp.errors import SymdpError

    try:
        Path(path).write_text(text if text.endswith("\n") else text + "\n")
    except OSError as exc:
        raise SymdpError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(f"wrote {path} ({what})", file=sys.stderr)


def cmd_latex(args) -> int:
    """A LaTeX document of the selected theorems (and, with ``--proofs``, their papers' derivations); with
    ``--sty``, the LaTeX package that a ``--no-preamble`` body needs."""
    import symdp.latex

    latex = sys.modules["symdp.latex"]   # (the module, whatever a test or a caller put there)
    if args.sty:
        if args.ids or args.proofs or args.no_preamble:
            raise UsageError("--sty writes the package symdp.sty alone: give no IDs, --proofs or --no-preamble")
        text = latex.package()
        if args.output:
            _write(args.output, text, "the package: \\usepackage{symdp} beside it")
        else:
            print(text)
        return EXIT_HOLDS
    theorems = _theorems(args.ids)
    derivations = ()
    if args.proofs:
        from symdp.proofs import PAPERS, all_derivations

        papers = [p for p in PAPERS if any(t.id.partition(".")[0] == p for t in theorems)]
        derivations = [d for _, d in all_derivations(papers)] if papers else []
    text = latex.document(theorems, derivations=derivations, preamble=not args.no_preamble)
    if args.output:
        _write(args.output, text, f"{len(theorems)} theorems, {len(derivations)} derivations")
    else:
        print(text)
    return EXIT_HOLDS


def cmd_errata(args) -> int:
    from symdp.theorems import all_theorems
    from symdp.verify import jsonable

    errata = [t for t in all_theorems() if t.erratum is not None and t.erratum.kind != "sharpness"]
    rows = [{"id": t.id, "kind": t.erratum.kind, "severity": t.erratum.severity, "same_as": t.erratum.same_as,
             "location": t.erratum.location, "printed": t.erratum.printed, "corrected": t.erratum.corrected,
             "corrected_id": t.erratum.corrected_id, "counterexample": jsonable(t.erratum.counterexample)}
            for t in errata]
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_HOLDS
    console = _console()
    for t in errata:
        _print_erratum(console, t, verbose=False)
    distinct = [row for row in rows if row["same_as"] is None]
    counts: dict = {}
    for row in distinct:
        counts[(row["kind"], row["severity"])] = counts.get((row["kind"], row["severity"]), 0) + 1
    console.print(f"{len(distinct)} distinct errors in {len(rows)} refuted statements: "
                  + ", ".join(f"{n} {kind} ({severity})" for (kind, severity), n in sorted(counts.items())))
    return EXIT_HOLDS


def cmd_proofs(args) -> int:
    from symdp.proofs import all_derivations

    chosen = all_derivations(args.papers)
    for paper in args.papers:
        if not any(p == paper for p, _ in chosen):
            raise UsageError(f"no derivation of {paper} is encoded yet (`symdp papers {paper}` shows what is)")
    if args.latex:
        from symdp.latex import document

        print(document([], derivations=[d for _, d in chosen], title="symdp: the checked derivations"))
        return EXIT_HOLDS
    from rich.text import Text

    from symdp.latex import plain

    console = _console()
    failed = 0
    for paper, d in chosen:
        bad = d.failures()
        failed += bool(bad)
        status = ("checked", "green") if not bad else (f"step {bad[0][0] + 1} fails: {bad[0][1]}", "red")
        console.print(Text.assemble(f"{paper}: {plain(d.title)}: {len(d.steps)} steps ", status))
    return EXIT_VIOLATED if failed else EXIT_HOLDS


# --- the parser -------------------------------------------------------------------------------------------------


def _whole(low: int, high: Optional[int] = None, what: str = ""):
    """An argparse type: a whole number in ``[low, high]``, with a message naming the range."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < low or (high is not None and value > high):
            span = f">= {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"must be {span}{what}, got {value}")
        return value

    parse.__name__ = "whole number"
    return parse


def _number_in(accepts, range_text: str, name: str):
    """An argparse type: a number for which ``accepts(value)`` holds, with a message naming ``range_text``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
        if not accepts(value):
            raise argparse.ArgumentTypeError(f"must {range_text}, got {text}")
        return value

    parse.__name__ = name
    return parse


_relative_width = _number_in(lambda v: 0 < v < 1, "be a relative width in (0, 1)", "relative width")
_rate = _number_in(lambda v: 0 < v <= 1, "lie in (0, 1]", "probability")
_positive_number = _number_in(lambda v: 0 < v < float("inf"), "be a positive number", "positive number")


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error on one line: ``symdp: error: <what> (symdp <command> --help)``."""

    def error(self, message):
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="symdp", description="Verify differential-privacy bounds.", epilog=EXIT_STATUS,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("list", help="list the theorems of the catalogue (IDs, numbers, evidence, titles)")
    p.add_argument("ids", nargs="*", help="IDs or ID prefixes (e.g. dwork)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_list)

    p = sub.add_parser("papers", help="what is encoded of each paper: catalogue entries, encoded, not yet")
    p.add_argument("papers", nargs="*", help="papers to detail (balle19, bertazzi, bravo, dwork)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_papers)

    p = sub.add_parser("show", help="show one theorem: hypotheses, statement, tightness, erratum, LaTeX")
    p.add_argument("id")
    p.add_argument("--latex", action="store_true",
                   help="print its LaTeX theorem environment only (needs \\usepackage{symdp}: symdp latex --sty)")
    p.add_argument("--standalone", action="store_true", help="with --latex: a whole document that compiles alone")
    p.set_defaults(run=cmd_show)

    def common(p, examples_low: int, examples_default):
        p.add_argument("--examples", type=_whole(examples_low), default=examples_default,
                       help="hypothesis draws per theorem" + (" (0: the pinned instances only)" if not examples_low
                                                               else ""))
        p.add_argument("--dps", type=_whole(MIN_DPS, MAX_DPS, " digits"), default=DEFAULT_DPS,
                       help=f"working precision in decimal digits, {MIN_DPS} to {MAX_DPS} (default {DEFAULT_DPS})")
        p.add_argument("--seed", type=_whole(0), default=0, help="seed of the draws (runs are deterministic)")
        p.add_argument("--json", action="store_true")
        p.add_argument("--draws", action="store_true",
                       help="with --json: every draw, with the value of each parameter and measured atom")
        p.add_argument("--no-closed-forms", action="store_true",
                       help="compute every divergence from the densities, never by a closed form")

    p = sub.add_parser("verify", help="verify theorems of the catalogue (all by default), or of your own module",
                       epilog=EXIT_STATUS + "\n\n" + JSON_TYPES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("ids", nargs="*", help="IDs or ID prefixes (e.g. balle19)")
    p.add_argument("--module", metavar="MODULE",
                   help="verify the theorems your own module declares (a file path such as my_theorems.py, or a "
                        "dotted name), instead of the catalogue")
    common(p, 0, None)
    p.add_argument("--wide", action="store_true", help="every column (error, counterexample, seconds): wider than 80")
    p.add_argument("--jobs", type=_whole(1), default=_cores(),
                   help="processes to spread the theorems over (default: the cores available; same reports)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster instead (e.g. tcp://10.0.0.1:8786; needs the extra symdp[dask] and the "
                        "same symdp on every worker); same reports")
    p.add_argument("--draws-per-chunk", type=_whole(1), default=None, metavar="N",
                   help="spread each theorem's draws over chunks of at most N, each with its own fixed seed")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress (bar or lines) on stderr")
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("looseness", help="how loose each bound is: the worst ratio the search found, and where")
    p.add_argument("ids", nargs="*", help="IDs or ID prefixes (e.g. bertazzi)")
    p.add_argument("--from", dest="from_json", metavar="FILE",
                   help="read the reports of an earlier `symdp verify --json > FILE` instead of verifying again")
    p.add_argument("--examples", type=_whole(0), default=None, help="hypothesis draws per theorem")
    p.add_argument("--seed", type=_whole(0), default=0, help="seed of the draws (runs are deterministic)")
    p.add_argument("--jobs", type=_whole(1), default=_cores(), help="processes to spread the theorems over")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_looseness)

    p = sub.add_parser("check", help="check a bound of your own, e.g. \"kl(P, Q) <= eps\"",
                       epilog=CLAIM_NAMES + "\n\n" + EXIT_STATUS + "\n\n" + JSON_TYPES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("claim")
    p.add_argument("--where", default=None, help='parameter ranges, e.g. "alpha in [1.01, 64], sigma in [0.2, 5]"')
    common(p, 1, 100)
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("eval", help="the certified value of an expression, e.g. \"epsilon_for(1e-5, "
                                    "compose(10, laplace(0, 1)), compose(10, laplace(1, 1)))\"",
                       epilog=EVAL_OUTPUT + "\n\n" + EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("expression", help="an expression of the claim language without parameters (no relation)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--dps", type=_whole(MIN_DPS, MAX_DPS, " digits"), default=DEFAULT_DPS,
                   help=f"working precision in decimal digits, {MIN_DPS} to {MAX_DPS} (default {DEFAULT_DPS})")
    p.add_argument("--width", type=_relative_width, default=None, metavar="W",
                   help="relative width of the enclosure to reach where the engine brackets a quantity (e.g. 1e-6; "
                        "default: the engine's)")
    p.add_argument("--no-closed-forms", action="store_true",
                   help="compute every divergence from the densities, never by a closed form")
    p.set_defaults(run=cmd_eval)

    p = sub.add_parser("dpsgd", help="the certified epsilon or delta of DP-SGD, e.g. --sampling-rate 0.01 "
                                     "--noise-multiplier 1 --steps 1000 --delta 1e-5",
                       epilog=DPSGD_OUTPUT + "\n\n" + EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sampling-rate", type=_rate, metavar="Q", help="Poisson sampling rate, in (0, 1] (not with "
                   "--sampling fixed-batch, whose rate is --batch-size over --dataset-size)")
    p.add_argument("--noise-multiplier", type=_positive_number, required=True, metavar="S",
                   help="noise standard deviation over the clipping norm")
    p.add_argument("--steps", type=_whole(1), required=True, metavar="T")
    p.add_argument("--delta", type=_rate, metavar="D", help="the delta whose epsilon is asked")
    p.add_argument("--epsilon", type=float, metavar="E", help="the epsilon whose delta is asked")
    p.add_argument("--relation", default="add-or-remove", choices=["add-or-remove", "add", "remove", "replace-one"],
                   help="the neighbouring relation (default add-or-remove: the worse of add and remove)")
    p.add_argument("--sampling", default="poisson", choices=["poisson", "fixed-batch", "with-replacement",
                                                             "shuffle"],
                   help="how batches are drawn (default poisson); poisson and fixed-batch (with --relation "
                        "replace-one) are accounted, the others are refused with the reason")
    p.add_argument("--dataset-size", type=_whole(1), metavar="N", help="with --sampling fixed-batch")
    p.add_argument("--batch-size", type=_whole(1), metavar="B", help="with --sampling fixed-batch")
    p.add_argument("--width", type=_relative_width, default=1e-3, metavar="W",
                   help="relative width of the bracket to reach (default 1e-3)")
    p.add_argument("--no-peers", action="store_true", help="do not ask dp_accounting for its answers")
    p.add_argument("--rdp", action="store_true",
                   help="also the answer from symdp's certified RDP curve (an upper bound, for comparison)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_dpsgd)

    p = sub.add_parser("latex", help="a LaTeX document of theorems (all by default), optionally with their proofs")
    p.add_argument("ids", nargs="*", help="IDs or ID prefixes (e.g. dwork)")
    p.add_argument("--proofs", action="store_true", help="add the checked derivations of the selected papers")
    p.add_argument("--no-preamble", action="store_true",
                   help="only the body, to \\input into your own document after \\usepackage{symdp}")
    p.add_argument("--sty", action="store_true", help="the LaTeX package symdp.sty that a --no-preamble body needs")
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


def _claim_last(argv: list) -> list:
    """``symdp check`` arguments with a claim that starts with ``-`` (``-x <= 1``) moved behind ``--``, where argparse
    reads it as the claim rather than as an unknown option. A claim is told from an option by its relation: no option
    of symdp contains ``<``, ``>`` or ``=`` unless written ``--name=value``; an expression of ``symdp eval``
    (``-kl(P, Q)``), by its brackets or arithmetic."""
    if not argv or argv[0] not in ("check", "eval"):
        return argv
    told = "<>=" if argv[0] == "check" else "()+*/"   # an expression to evaluate is told by its arithmetic
    claims = [a for a in argv[1:] if a.startswith("-") and not a.startswith("--") and any(c in a for c in told)]
    if len(claims) != 1 or "--" in argv:
        return argv
    return [a for a in argv if a is not claims[0]] + ["--", claims[0]]


def _tightness(r) -> str:
    """`` (3 of 100 draws tight; 2 more equal only as zeros)``, or nothing."""
    zeros = getattr(r, "tight_at_zero", 0)
    parts = ([f"{r.tight} of {r.examples} draws tight"] if r.tight else []) + (
        [f"{zeros} {'more ' if r.tight else ''}equal only as zeros"] if zeros else [])
    return f" ({'; '.join(parts)})" if parts else ""


def main(argv: Optional[Sequence[str]] = None) -> int:
    try:
        args = build_parser().parse_args(_claim_last(list(sys.argv[1:] if argv is None else argv)))
        return args.run(args)
    except UsageError as exc:
        print(f"symdp: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exc:   # --help, or argparse giving up
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    except RecursionError:
        print("symdp: error: expression too deeply nested", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into `head` and closed early: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_HOLDS
    except KeyboardInterrupt:
        print("symdp: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - one line for the user; SYMDP_DEBUG=1 for the traceback
        from symdp.errors import SymdpError

        if isinstance(exc, SymdpError):
            print(f"symdp: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
        if os.environ.get("SYMDP_DEBUG"):
            raise
        first = (str(exc).strip().splitlines() or [""])[0]
        print(f"symdp: internal error: {type(exc).__name__}: {first} (a bug in symdp; SYMDP_DEBUG=1 shows where)",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
