"""The catalogue's cost and certified share per paper, this checkout beside a previous release, in one run.

Each checkout runs ``symdp verify --json`` over the whole catalogue (or the IDs given) in a fresh interpreter with
the same options; the table gives, per paper, the wall-clock seconds of the run's theorems (their sum of per-theorem
seconds, then the run's wall clock), the numeric theorems, their draws, how many run fewer than 100 draws (of those
that could draw more: not a refutation, which stops at its counterexample, nor a statement without parameters), and
the certified share: numeric, non-erratum holds/tight verdicts proved by enclosures (``certified`` in the JSON) over all
of them — the figures issue 28 asks for. The previous release is a git revision checked out into a temporary
worktree (``--against``, by default the newest tag); nothing here is compared with symdp's own numbers except as
"before" and "after".

    python3 benchmarks/bench_catalogue.py                       # whole catalogue, this checkout and the newest tag
    python3 benchmarks/bench_catalogue.py --against 5ea257d bertazzi --examples 20
    python3 benchmarks/bench_catalogue.py --json > figures.json
    python3 benchmarks/bench_catalogue.py --save /tmp/runs      # also keep each run's JSON (this.json, previous.json),
                                                                # for python3 tests/compare_verify.py
    python3 benchmarks/bench_catalogue.py --record-seconds      # also write this run's seconds per theorem to
                                                                # symdp/theorems/seconds.json (the parallel order)
    python3 benchmarks/bench_catalogue.py --at-once             # both checkouts at the same time, half the cores
                                                                # each: what a machine whose speed drifts allows
    python3 benchmarks/bench_catalogue.py --python-integers --at-once   # this checkout on mpmath's GMP backend
                                                                # (gmpy2) beside the same on Python's integers

Run one after the other, the two checkouts meet the machine at different speeds: on the 2-core machine this project is
measured on, the same checkout's catalogue drifted by 20% within an hour, more than most changes. ``--at-once`` runs
them concurrently (each with half the cores, unless ``--jobs`` says otherwise), so that both see the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def newest_tag() -> str | None:
    """The newest tag reachable from HEAD (the previous release), or None where the repository has none."""
    done = subprocess.run(["git", "describe", "--tags", "--abbrev=0"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() or None


def start_catalogue(checkout: Path, selection: list[str], options: list[str], env: dict | None = None) -> tuple:
    """``symdp verify --json`` of ``checkout`` (its own sources first on the path, ``env`` added to the environment),
    started: the process, when, and the files its output goes to (not pipes: a run that finishes first must not
    wait for its output to be read)."""
    command = [sys.executable, "-c", "import sys; from symdp.cli import main; sys.exit(main())", "verify", "--json",
               "--quiet", *options, *selection]
    out, err = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
    process = subprocess.Popen(command, cwd=checkout, stdout=out, stderr=err, text=True,
                               env={**os.environ, **(env or {}), "PYTHONPATH": str(checkout)})
    return process, time.perf_counter(), (out, err)


def finish_catalogue(checkout: Path, started: tuple) -> tuple[list[dict], float]:
    """The reports of a run :func:`start_catalogue` started, and its wall-clock seconds."""
    process, start, (out, err) = started
    process.wait()
    seconds = time.perf_counter() - start
    with out, err:
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if process.returncode not in (0, 1, 3):   # 1: a violation, 3: inconclusive; both still print their reports
        raise SystemExit(f"symdp verify failed in {checkout} (exit {process.returncode}):\n{stderr[-2000:]}")
    return json.loads(stdout), seconds


def run_catalogue(checkout: Path, selection: list[str], options: list[str]) -> tuple[list[dict], float]:
    """``symdp verify --json`` of ``checkout`` and the run's wall-clock seconds."""
    return finish_catalogue(checkout, start_catalogue(checkout, selection, options))


def per_paper(reports: list[dict]) -> dict[str, dict]:
    """Per paper (the ID's first part): seconds, numeric theorems, draws, how many under 100 draws, certified share."""
    papers: dict[str, dict] = defaultdict(lambda: {"seconds": 0.0, "numeric": 0, "draws": 0, "under_100": 0,
                                                   "certified": 0, "verdicts": 0})
    for r in reports:
        paper = papers[r["id"].split(".")[0]]
        paper["seconds"] += r["seconds"]
        if not r["method"]:   # symbolic or identity evidence: nothing drawn
            continue
        paper["numeric"] += 1
        paper["draws"] += r["examples"]
        # a refutation stops at its counterexample and a statement without parameters has one instance: only the
        # others could draw more (``draws_limited_by`` in the JSON, absent from runs before it existed)
        paper["under_100"] += r["examples"] < 100 and not r.get("draws_limited_by")
        if r["verdict"] in ("holds", "tight") and not r.get("erratum"):
            paper["verdicts"] += 1
            paper["certified"] += bool(r["certified"])
    total = {key: sum(p[key] for p in papers.values()) for key in ("seconds", "numeric", "draws", "under_100",
                                                                    "certified", "verdicts")}
    return {**dict(sorted(papers.items())), "all": total}


def table(columns: dict[str, tuple[dict, float]]) -> str:
    """The figures of each checkout side by side, one row per paper."""
    names = list(columns)
    papers = list(next(iter(columns.values()))[0])
    head = f"{'paper':<9}" + "".join(f" | {n[:38]:^38}" for n in names)
    sub = f"{'':<9}" + " | theorem s  draws  <100  certified share" * len(names)
    lines = [head, sub, "-" * len(sub)]
    for paper in papers:
        row = f"{paper:<9}"
        for name in names:
            p = columns[name][0].get(paper)
            if p is None:
                row += f" | {'':38}"
                continue
            share = f"{p['certified']}/{p['verdicts']} ({100 * p['certified'] / p['verdicts']:.0f}%)" \
                if p["verdicts"] else "-"
            row += f" | {p['seconds']:9.1f} {p['draws']:6d} {p['under_100']:5d}  {share:>15}"
        lines.append(row)
    lines.append("wall clock: " + "; ".join(f"{name}: {seconds:.1f} s" for name, (_, seconds) in columns.items()))
    return "\n".join(lines)


def _save(directory: Path | None, name: str, reports: list[dict]) -> None:
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / name).write_text(json.dumps(reports, indent=1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*", help="IDs or prefixes (default: the whole catalogue)")
    parser.add_argument("--against", help="the previous release: a git revision (default: the newest tag)")
    parser.add_argument("--examples", type=int, help="draws per theorem, for both checkouts (default: theirs)")
    parser.add_argument("--jobs", type=int, help="processes per run (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--save", type=Path, help="a directory to keep each run's verify JSON in (this.json, "
                                                  "previous.json)")
    parser.add_argument("--at-once", action="store_true",
                        help="run both checkouts at the same time, each with half the cores (unless --jobs is "
                             "given), so that a drift of the machine's speed meets both alike")
    parser.add_argument("--python-integers", action="store_true",
                        help="compare this checkout with itself on mpmath's Python integers (MPMATH_NOGMPY=1) "
                             "instead of a previous release")
    parser.add_argument("--record-seconds", action="store_true",
                        help="write this checkout's seconds per theorem to symdp/theorems/seconds.json, from which "
                             "parallel runs order the work longest first (whole-catalogue runs only)")
    args = parser.parse_args(argv)
    if args.record_seconds and args.ids:
        parser.error("--record-seconds records a whole-catalogue run: give no IDs")
    if args.python_integers and args.against:
        parser.error("--python-integers compares this checkout with itself: give no --against")
    against = None if args.python_integers else args.against or newest_tag()
    other = against or args.python_integers
    jobs = args.jobs or (max(1, (os.cpu_count() or 2) // 2) if args.at_once and other else None)
    options = ([f"--examples={args.examples}"] if args.examples is not None else []) + \
        ([f"--jobs={jobs}"] if jobs else [])
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / "previous"
        if against:
            subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(tree), against], cwd=ROOT,
                           check=True)
        previous = None
        # the other column: a previous release's checkout, or this one on mpmath's Python integers
        name, checkout, env = ((f"previous release ({against})", tree, None) if against else
                               ("this checkout, Python integers", ROOT, {"MPMATH_NOGMPY": "1"}))
        try:
            this = start_catalogue(ROOT, args.ids, options)
            previous = start_catalogue(checkout, args.ids, options, env) if other and args.at_once else None
            runs = {"this checkout": finish_catalogue(ROOT, this)}
            if other:
                previous = previous or start_catalogue(checkout, args.ids, options, env)
                runs[name] = finish_catalogue(checkout, previous)
        finally:
            if previous is not None and previous[0].poll() is None:
                previous[0].kill()   # (this checkout's run failed: the other is not waited for)
            if against:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True)
    if args.record_seconds:
        recorded = {r["id"]: round(r["seconds"], 1) for r in runs["this checkout"][0]}
        (ROOT / "symdp" / "theorems" / "seconds.json").write_text(json.dumps(recorded, indent=0) + "\n")
    columns = {}
    for (name, (reports, seconds)), file in zip(runs.items(), ("this.json", "previous.json")):
        _save(args.save, file, reports)
        columns[name] = (per_paper(reports), seconds)
    if args.json:
        print(json.dumps({name: {"papers": figures, "wall_seconds": round(seconds, 1)}
                          for name, (figures, seconds) in columns.items()}, indent=1))
    else:
        print(table(columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
