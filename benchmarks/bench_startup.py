"""Start-up of the command line: CPU seconds of ``symdp --help``, of ``import symdp`` and of importing the accountant
in fresh interpreters, and of the whole ``symdp eval`` of issue 29's headline (δ at ε = 1 of 1000 compositions of
the sampled Gaussian, q = 0.01, σ = 1) beside dp_accounting's whole process for the same answer (its PLD accountant at
a discretization of 1e-3), with the modules each imports; with ``--against DIR``, the same for another checkout of
symdp, side by side.

    python3 benchmarks/bench_startup.py                          # this checkout
    python3 benchmarks/bench_startup.py --against /tmp/old-symdp  # and an older one (a git worktree, say)

Each figure is the median of ``--runs`` fresh processes (user + system CPU of the child, from ``resource``; wall
seconds beside it), with the interpreter's own start-up (``python3 -c pass``) shown beside it, since it is part of
every command. The children compile into a bytecode cache of their own (a temporary ``PYTHONPYCACHEPREFIX``, warmed
by one unmeasured run of each case), as an installed symdp and dp_accounting have theirs: without it, a shell that
sets ``PYTHONDONTWRITEBYTECODE`` would charge every run of symdp, and not of the installed dp_accounting, for
compiling symdp's sources. dp_accounting does not depend on the checkout: it is run once, in the same rounds as the
``symdp eval`` it is compared with, and skipped, with a note, where it is not installed.
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

HEADLINE = ("hockey_stick(compose(1000, mix(0.01, gaussian(0, 1), gaussian(1, 1))), compose(1000, gaussian(0, 1)), "
            "1)")
"""Issue 29's headline: δ(ε = 1) of 1000 compositions of the Poisson-sampled Gaussian (q = 0.01, σ = 1)."""

CASES = {
    "python3 -c pass": "pass",
    "import symdp": "import symdp",
    "symdp --help": ("import sys\nfrom symdp.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n"
                     "    pass\n"),
    "import accountant": "import symdp.engine.accounting",
    "symdp eval headline": f"from symdp.cli import main\nstatus = main(['eval', {HEADLINE!r}])\nassert status == 0\n",
}
DP_ACCOUNTING = ("dp_accounting headline", "import dp_accounting as dpa\n"
                 "event = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(0.01, dpa.GaussianDpEvent(1.0)), 1000)\n"
                 "print(dpa.pld.PLDAccountant(value_discretization_interval=1e-3).compose(event).get_delta(1))\n")
"""The same answer from dp_accounting's PLD accountant, whole process (its imports included), as issue 29 compares."""
HEAVY = ("sympy", "mpmath", "hypothesis", "flint", "rich", "numpy", "scipy")
CACHE = tempfile.mkdtemp(prefix="bench_startup_pycache_")
atexit.register(shutil.rmtree, CACHE, ignore_errors=True)


def _env(path: Path) -> dict:
    """The checkout ``path`` first on the child's sys.path (its working directory is ``path`` too, since ``-c`` puts
    the working directory first), and bytecode cached where the checkout's tree is not touched."""
    env = {**os.environ, "PYTHONPATH": str(path), "PYTHONPYCACHEPREFIX": CACHE}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def cpu_seconds(code: str, path: Path) -> float:
    """CPU seconds (user + system) of a fresh interpreter running ``code`` with ``path`` first on sys.path."""
    return seconds(code, path)[0]


def seconds(code: str, path: Path) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of a fresh interpreter running ``code`` with ``path`` first on
    sys.path."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=_env(path), cwd=path, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def medians(jobs: list[tuple[str, Path]], runs: int) -> list[tuple[float, float]]:
    """The median CPU and wall seconds of ``runs`` fresh processes of each job ``(code, checkout)``, after one
    unmeasured run of each that fills the bytecode cache. The jobs' runs are interleaved, so that a shared machine's
    load falls on each alike."""
    for code, path in jobs:
        seconds(code, path)
    samples = [[] for _ in jobs]
    for _ in range(runs):
        for sample, (code, path) in zip(samples, jobs):
            sample.append(seconds(code, path))
    return [(statistics.median(c for c, _ in sample), statistics.median(w for _, w in sample)) for sample in samples]


def heavy_modules(code: str, path: Path) -> list[str]:
    probe = code + f"\nimport json, sys\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], env=_env(path), cwd=path, check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout of symdp to measure beside this one")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    checkouts = [("this checkout", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    installed = importlib.util.find_spec("dp_accounting") is not None
    print(f"{'case':<23}" + "".join(f"{name:>76}" for name, _ in checkouts))
    for case, code in CASES.items():
        beside = case == "symdp eval headline"   # dp_accounting's process is measured in the same rounds
        jobs = [(code, path) for _, path in checkouts] + ([(DP_ACCOUNTING[1], ROOT)] if beside and installed else [])
        figures = medians(jobs, args.runs)
        cells = []
        for (cpu, wall), (_, path) in zip(figures, checkouts):
            heavy = heavy_modules(code, path) if case != "python3 -c pass" else []
            cells.append(f"{cpu * 1000:7.0f} ms CPU {wall * 1000:7.0f} ms wall  heavy: {','.join(heavy) or '-':<42}")
        print(f"{case:<23}" + "".join(f"{cell:>76}" for cell in cells))
        if beside and not installed:
            print(f"{DP_ACCOUNTING[0]:<23} skipped: dp_accounting is not installed "
                  f"(python3 -m pip install dp_accounting)")
        elif beside:
            (cpu, wall), heavy = figures[-1], heavy_modules(DP_ACCOUNTING[1], ROOT)
            print(f"{DP_ACCOUNTING[0]:<23}{cpu * 1000:7.0f} ms CPU {wall * 1000:7.0f} ms wall  heavy: "
                  f"{','.join(heavy) or '-'}  (not symdp: run once, beside every checkout's)")


if __name__ == "__main__":
    main()
