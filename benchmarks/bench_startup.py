"""Start-up of the command line: CPU seconds of ``symdp --help`` and of ``import symdp`` in fresh interpreters, and
the modules each imports; with ``--against DIR``, the same for another checkout of symdp, side by side.

    python3 benchmarks/bench_startup.py                          # this checkout
    python3 benchmarks/bench_startup.py --against /tmp/old-symdp  # and an older one (a git worktree, say)

Each figure is the median of ``--runs`` fresh processes (user + system CPU of the child, from ``resource``), with
the interpreter's own start-up (``python3 -c pass``) shown beside it, since it is part of every command.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = {
    "python3 -c pass": "pass",
    "import symdp": "import symdp",
    "symdp --help": ("import sys\nfrom symdp.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n"
                     "    pass\n"),
}
HEAVY = ("sympy", "mpmath", "hypothesis", "flint", "rich")


def _env(path: Path) -> dict:
    """The checkout ``path`` first on the child's sys.path (its working directory is ``path`` too, since ``-c`` puts
    the working directory first)."""
    return {**os.environ, "PYTHONPATH": str(path)}


def cpu_seconds(code: str, path: Path) -> float:
    """CPU seconds (user + system) of a fresh interpreter running ``code`` with ``path`` first on sys.path."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", code], env=_env(path), cwd=path, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
    print(f"{'case':<18}" + "".join(f"{name:>34}" for name, _ in checkouts))
    for case, code in CASES.items():
        cells = []
        for _, path in checkouts:
            median = statistics.median(cpu_seconds(code, path) for _ in range(args.runs))
            heavy = heavy_modules(code, path) if case != "python3 -c pass" else []
            cells.append(f"{median * 1000:7.0f} ms CPU  heavy: {','.join(heavy) or '-':<12}")
        print(f"{case:<18}" + "".join(f"{cell:>34}" for cell in cells))


if __name__ == "__main__":
    main()
