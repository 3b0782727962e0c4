"""What drawing costs: the time of each theorem's hypothesis search outside its test, in a real ``symdp verify``.

Every theorem is verified as ``symdp verify`` does it (its default draws, seed 0), with the search
(:func:`symdp.verify.run_search`) timed twice: as a whole, and inside its test, where each draw is measured and
decided. The difference is hypothesis's own: generating the draws from the strategies, its engine's bookkeeping,
the optimiser steering by the real closeness (a synthetic one, a hash of the draw or a smooth function of it, keeps
the optimiser climbing far longer on some theorems than their margins do, so only the real one is measured). No
engine speed-up removes it while hypothesis draws the points: it is the floor under the catalogue's time. The table
gives it per paper beside the theorem's whole time, and the theorems whose draws cost most.

    python3 benchmarks/bench_draws.py               # the whole catalogue, serially (about four minutes)
    python3 benchmarks/bench_draws.py dwork.thm3.4  # IDs or prefixes
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import defaultdict

from symdp.theorems import catalogue

verifier = importlib.import_module("symdp.verify")   # (the package exports its function verify under that name)


class SearchClock:
    """Wraps :func:`symdp.verify.run_search` for the length of a ``with``: the seconds of the searches, and of their
    tests, since the last :meth:`reset`."""

    def __init__(self):
        self.search = self.test = 0.0

    def reset(self) -> None:
        self.search = self.test = 0.0

    def __enter__(self):
        self._run = verifier.run_search

        def run_search(strategy, test, examples, seed):
            def timed(raw):
                start = time.perf_counter()
                try:
                    return test(raw)
                finally:
                    self.test += time.perf_counter() - start

            start = time.perf_counter()
            try:
                return self._run(strategy, timed, examples, seed)
            finally:
                self.search += time.perf_counter() - start

        verifier.run_search = run_search
        return self

    def __exit__(self, *exc):
        verifier.run_search = self._run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*", help="IDs or prefixes (default: the whole catalogue)")
    parser.add_argument("--top", type=int, default=10, help="how many of the costliest theorems to list")
    args = parser.parse_args(argv)
    theorems = [t for t in catalogue() if t.numeric and (t.parameters or t.structure is not None)
                and (not args.ids or any(t.id == i or t.id.startswith(i + ".") for i in args.ids))]
    if not theorems:
        parser.error("no numeric theorem with parameters matches " + " ".join(args.ids))
    rows = []
    with SearchClock() as clock:
        for theorem in theorems:
            clock.reset()
            report = verifier.verify(theorem)
            drawn = sum(n for found, n in report.found.items() if found in ("random", "targeted"))
            rows.append((theorem.id, clock.search - clock.test, drawn, report.seconds))
    papers = defaultdict(lambda: [0.0, 0, 0.0])
    for ident, seconds, draws, whole in rows:
        for key in (ident.split(".")[0], "all"):
            papers[key][0] += seconds
            papers[key][1] += draws
            papers[key][2] += whole
    print(f"{'paper':<9} {'drawing s':>9} {'draws':>7} {'ms/draw':>8} {'verify s':>9} {'share':>6}")
    for paper, (seconds, draws, whole) in sorted(papers.items(), key=lambda kv: kv[0] == "all"):
        print(f"{paper:<9} {seconds:9.1f} {draws:7d} {1000 * seconds / max(draws, 1):8.2f} {whole:9.1f} "
              f"{100 * seconds / whole:5.0f}%")
    print(f"\nthe {args.top} theorems whose draws cost most (drawing seconds, hypothesis draws, verify seconds):")
    for ident, seconds, draws, whole in sorted(rows, key=lambda row: -row[1])[:args.top]:
        print(f"  {seconds:6.2f} {draws:5d} {whole:6.1f}  {ident}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
