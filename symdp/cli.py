"""The ``symdp`` command line: list, show, verify, check, errata, proofs.

Every verdict says what kind of evidence stands behind it (``symdp.theorem.EVIDENCE``): *independent* (the
quantity computed from the distributions themselves), *closed-form* (a closed form against another, where the
paper's claim is itself such algebra), *identity* (a checked SymPy derivation, no draws) or *symbolic* (no check).
``--no-closed-forms`` switches every closed-form divergence of the engine off, so that an independent verdict can
be seen not to rest on a formula.

Bad input (an unknown ID, a claim that does not parse, a range with low > high) prints one line naming the problem
and exits with status 2. ``verify`` exits with status 1 if any theorem is violated other than a printed statement
recorded as an erratum (those are expected to be refuted, and *not* refuting one is a failure too).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Optional, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from symdp.errors import SymdpError
from symdp.precision import DEFAULT_DPS, closed_forms
from symdp.verify import HOLDS, INCONCLUSIVE, VIOLATED, Report, jsonable, verify

_STYLE = {HOLDS: "green", VIOLATED: "red", INCONCLUSIVE: "yellow"}


def _console(stderr: bool = False) -> Console:
    """A console that does not fold tables when the output is a file or a pipe.

    Markup is off: titles, statements and reasons contain brackets (``[u - e^eps]_+``) that rich would eat; styles
    are given as :class:`rich.text.Text` instead.
    """
    probe = Console(stderr=stderr, markup=False)
    return probe if probe.is_terminal else Console(stderr=stderr, width=220, markup=False)


def _theorems(patterns):
    from symdp.theorems import select

    return select(list(patterns))


def expected_outcome(theorem, report: Report) -> bool:
    """Whether a report is what the catalogue expects: a printed erratum refuted, everything else not violated."""
    if theorem.erratum is not None:
        return report.verdict == VIOLATED
    return report.verdict != VIOLATED


def describe(theorem, report: Report) -> str:
    if theorem.erratum is not None:
        kind = theorem.erratum.kind
        if report.verdict == VIOLATED:
            return {"erratum": "violated as printed (erratum)", "conjecture": "refuted (conjecture of the paper)",
                    "sharpness": "refuted (relaxed copy: the hypothesis is sharp)"}[kind]
        return f"{report.verdict} ({kind} NOT reproduced)"
    if theorem.evidence == "identity":
        return "holds (identity, derivation checked)" if report.verdict == HOLDS else "identity NOT confirmed"
    if theorem.evidence == "symbolic":
        return "symbolic only (not checked)"
    if report.verdict == HOLDS and report.tight:
        return f"holds, tight ({report.tight}/{report.examples} draws equal)"
    return report.verdict


def _short(text: str, width: int = 60) -> str:
    """A table cell cut to ``width`` characters (the full value is in ``--json`` and ``symdp show``)."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _fmt(x) -> str:
    if x is None:
        return "-"
    import mpmath

    return mpmath.nstr(x, 4) if not isinstance(x, float) else f"{x:.4g}"


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
        print(t.latex())
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


def _in_catalogue(theorem) -> bool:
    from symdp.theorems import catalogue

    return any(t is theorem for t in catalogue())


def _verify_by_id(ident: str, examples, dps: int, seed: int, use_closed_forms: bool) -> Report:
    """One theorem of the catalogue, verified in this process (a worker of ``--jobs``)."""
    from symdp.theorems import catalogue

    (theorem,) = [t for t in catalogue() if t.id == ident]
    return _verify_one(theorem, examples, dps, seed, use_closed_forms)


def _verify_one(theorem, examples, dps: int, seed: int, use_closed_forms: bool) -> Report:
    with closed_forms(use_closed_forms):
        return verify(theorem, examples=examples, dps=dps, seed=seed)


def cmd_verify(args) -> int:
    theorems = _theorems(args.ids)
    if args.jobs < 1:
        raise SymdpError(f"--jobs must be >= 1, got {args.jobs}")
    job = (args.examples, args.dps, args.seed, not args.no_closed_forms)
    console = _console(stderr=True)
    by_id = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True, disable=args.json or not console.is_terminal) as progress:
        task = progress.add_task("verifying", total=len(theorems))
        # Workers find theorems by ID in the catalogue; anything else (a user's own module) is verified here.
        if args.jobs == 1 or len(theorems) == 1 or not all(_in_catalogue(t) for t in theorems):
            for t in theorems:
                progress.update(task, description=t.id)
                by_id[t.id] = _verify_one(t, *job)
                progress.advance(task)
        else:
            # Each theorem is seeded on its own, so the reports do not depend on which process ran it, or when.
            from concurrent.futures import ProcessPoolExecutor, as_completed

            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                futures = {pool.submit(_verify_by_id, t.id, *job): t.id for t in theorems}
                for future in as_completed(futures):
                    by_id[futures[future]] = future.result()
                    progress.update(task, description=futures[future])
                    progress.advance(task)
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
    else:
        table = Table("id", "verdict", "evidence", "draws", "worst margin", "± error", "worst ratio",
                      "counterexample", "s")
        for t, r in reports:
            style = "green" if expected_outcome(t, r) else _STYLE.get(r.verdict, "red")
            if r.verdict == INCONCLUSIVE and expected_outcome(t, r):
                style = "yellow"
            table.add_row(t.id, Text(describe(t, r), style=style), t.evidence, str(r.examples), _fmt(r.worst_margin),
                          _fmt(None if r.worst is None else r.worst.error), _fmt(r.worst_ratio),
                          _short(json.dumps(jsonable(r.counterexample))) if r.counterexample else "",
                          f"{r.seconds:.2f}")
        _console().print(table)
        for t, r in reports:
            if r.reason:
                _console().print(Text.assemble((t.id, "yellow"), f": {r.reason}"))
        if failed:
            _console().print(Text.assemble(("unexpected:", "red"), f" {', '.join(failed)}"))
    return 1 if failed else 0


def cmd_check(args) -> int:
    from symdp.claims import claim_theorem

    claim = claim_theorem(args.claim, args.where)
    with closed_forms(not args.no_closed_forms):
        r = verify(claim, examples=args.examples, dps=args.dps, seed=args.seed)
    if args.json:
        d = r.to_json(draws=args.draws)
        d.pop("id", None)
        d["claim"] = args.claim
        print(json.dumps(d, indent=2))
    else:
        console = _console()
        console.print(f"claim: {args.claim}")
        console.print(Text.assemble("verdict: ", (r.verdict, _STYLE.get(r.verdict, "white")),
                                    (f" ({r.tight} of {r.examples} draws tight)" if r.tight else "")
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

    failed = 0
    for paper, d in all_derivations(args.papers):
        if args.latex:
            print(f"% {paper}: {d.title}\n{d.latex()}\n")
            continue
        bad = d.failures()
        failed += bool(bad)
        status = ("checked", "green") if not bad else (f"step {bad[0][0] + 1} fails: {bad[0][1]}", "red")
        _console().print(Text.assemble(f"{paper}: {d.title}: {len(d.steps)} steps ", status))
    return 1 if failed else 0


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

    p = sub.add_parser("verify", help="verify theorems of the catalogue (all by default)")
    p.add_argument("ids", nargs="*", help="IDs or ID prefixes (e.g. balle19)")
    common(p, None)
    p.add_argument("--jobs", type=int, default=_cores(),
                   help="processes to spread the theorems over (default: the cores available; same reports)")
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("check", help="check a bound of your own, e.g. \"kl(P, Q) <= eps\"")
    p.add_argument("claim")
    p.add_argument("--where", default=None, help='parameter ranges, e.g. "alpha in [1.01, 64], sigma in [0.2, 5]"')
    common(p, 100)
    p.set_defaults(run=cmd_check)

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
