"""How close does `symdp verify`'s search come to a bound's worst case? An independent optimizer answers, theorem by
theorem, and the two are printed side by side.

The optimizer shares nothing with :mod:`symdp.search` but the evaluation of one point (``evaluate_point``, the
witness and the statement at 30 digits): it starts from ``--starts`` points drawn uniformly (log-uniformly where
the draw range spans two decades) in each theorem's draw ranges, keeps the best few, and runs SciPy's Powell method
(not Nelder–Mead, which the search uses) from each, with ``--evaluations`` evaluations in all. A drawn structure is
held at the one of the search's closest draw (the optimizer moves the scalar parameters only: a worst case inside a
structure is beyond it, and needs a probe of its own).

    python3 benchmarks/audit_search.py bravo.lem4.1.bound dwork.text3.2      # some theorems
    python3 benchmarks/audit_search.py --json > audit.json                   # every numeric theorem (long)

A row reads: the closeness of `symdp verify`'s closest draw (-margin / size of the sides: ratio - 1 for a bound
between positive sides), the optimizer's, and whether the first is within 0.01 of the second (the issue's 1%).

``--mutants`` also runs the issue's mutant protocol on each theorem: the copy ``Theorem.tightened(f)`` with
``f = 1 + optimizer's closeness - 0.01`` (a statement false at the optimizer's point by 1% of the sides' size, where
the bound is the larger side) is verified by ``symdp.plugin.check`` at its defaults, and the row says whether it was
refuted (not where that factor is below 0.05: a closeness near -1 says the optimizer saw one side near 0).
A search within 1% of the optimizer refutes it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time

import mpmath


def _axes(theorem):
    out = []
    for p in theorem.parameters:
        low, high = (float(v) for v in p.bounds())
        if p.integer:
            low, high = float(math.ceil(low)), float(math.floor(high))
        if high > low:
            out.append((p, low, high, low > 0 and high / low >= 100))
    return out


def _value(axis, u):
    p, low, high, log = axis
    u = min(max(float(u), 0.0), 1.0)
    x = math.exp(math.log(low) + u * (math.log(high) - math.log(low))) if log else low + u * (high - low)
    x = min(max(x, low), high)
    return int(round(x)) if p.integer else x


def audit(theorem, starts: int, evaluations: int, seed: int = 0, structure=None) -> dict:
    from hypothesis import find
    from scipy.optimize import minimize

    from symdp.errors import SymdpError
    from symdp.verify import evaluate_point

    axes = _axes(theorem)
    base = {}
    if theorem.structure is not None:
        base["structure"] = structure if structure is not None else find(theorem.structure(), lambda _: True)
    fixed = {p.name: _value((p, *map(float, p.bounds()), False), 0.5) for p in theorem.parameters
             if p.name not in {a[0].name for a in axes}}
    best = {"closeness": None, "ratio": None, "point": None}
    spent = 0

    def ratio(u) -> float:
        nonlocal spent
        spent += 1
        raw = {**base, **fixed, **{a[0].name: _value(a, x) for a, x in zip(axes, u)}}
        with mpmath.workdps(30):
            if not all(p.contains(raw[p.name]) for p in theorem.parameters) or not theorem.admits(raw):
                return -math.inf
        try:
            r = evaluate_point(theorem, raw, dps=30)
        except SymdpError:
            return -math.inf
        if r.closeness is None:
            return -math.inf
        if best["closeness"] is None or r.closeness > best["closeness"]:
            best.update(closeness=r.closeness, ratio=r.ratio, point=raw)
        return r.closeness

    rng = random.Random(seed)
    if not axes:
        ratio([])
        return {**best, "evaluations": spent}
    pool = sorted(((ratio(u), u) for u in ([rng.random() for _ in axes] for _ in range(starts))), reverse=True)
    left = max(0, evaluations - starts)
    for value, u in pool[:3]:
        if left <= 0 or value == -math.inf:
            break
        before = spent
        minimize(lambda v: -ratio(list(v)), u, method="Powell", bounds=[(0, 1)] * len(axes),
                 options={"maxfev": left // 2 or 1, "xtol": 1e-6, "ftol": 1e-9})
        left -= spent - before
    return {**best, "evaluations": spent}


def _g(x) -> str:
    return "-" if x is None else f"{x:+.5f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*")
    parser.add_argument("--starts", type=int, default=64)
    parser.add_argument("--evaluations", type=int, default=400)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--mutants", action="store_true", help="verify a copy tightened to 1%% below the optimizer")
    args = parser.parse_args(argv)

    from symdp.theorems import all_theorems, get
    from symdp.verify import verify

    theorems = [get(i) for i in args.ids] if args.ids else [t for t in all_theorems() if t.numeric
                                                            and t.erratum is None]
    rows = []
    for t in theorems:
        start = time.process_time()
        report = verify(t)
        closest = report.closest
        searched = None if closest is None else closest.closeness
        # a drawn structure is held where the search came closest (the simplest draw is often degenerate: both
        # laws equal, a side 0)
        found = audit(t, args.starts, args.evaluations,
                      structure=None if closest is None else closest.point.get("structure"))
        # within 1% of the sides' size (for <= between positive sides: the ratio within 0.01 of the optimizer's)
        bar = found["closeness"] is None or (searched is not None and searched >= found["closeness"] - 0.01)
        rows.append({"id": t.id, "search": searched, "search_ratio": None if closest is None else closest.ratio,
                     "optimizer": found["closeness"], "optimizer_ratio": found["ratio"], "at": found["point"],
                     "within_1pct": bar, "limits": list(t.domain_limits()),
                     "seconds": round(time.process_time() - start, 1)})
        mutant = ""
        if (args.mutants and found["closeness"] is not None and 0.05 < 1 + found["closeness"] - 0.01 < 1.5
                and t.statement.rhs != 0):      # (a bound of 0 has no slack to tighten)
            from symdp.plugin import check

            factor = 1 + found["closeness"] - 0.01
            verdict = check(t.tightened(factor)).verdict
            rows[-1]["mutant"] = {"factor": factor, "verdict": verdict}
            mutant = f"  mutant x{factor:.4f} {verdict}"
        if not args.json:
            print(f"{t.id:40s} search {_g(searched):>10s} optimizer {_g(found['closeness']):>10s} "
                  f"{'ok' if bar else 'SHORT'}{mutant}  at {json.dumps(found['point'], default=str)}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
