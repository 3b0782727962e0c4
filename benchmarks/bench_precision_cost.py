"""The price of precision (issue 29, "Pay a peer's price for 1e-6"): CPU seconds of symdp's certified brackets of
δ(ε = 1) and ε(δ = 1e-5) of 1000 compositions of the Poisson-subsampled Gaussian (q = 0.01, σ = 1), under both
relations (remove: D(mix ‖ N), add: D(N ‖ mix)), at relative widths 1e-3 and 1e-6, measured side by side in one run
with dp_accounting's PLD accountant (add-or-remove, both relations in one composition) at value discretizations
1e-3 and 1e-5.

    python3 benchmarks/bench_precision_cost.py                 # both widths
    python3 benchmarks/bench_precision_cost.py --widths 1e-6   # one

Times are CPU seconds (``time.process_time``) of one call each, in this process, in the order printed; python-flint
and dp_accounting are imported (and symdp's laws built) before any clock starts. dp_accounting's composition is timed
once per discretization and its two queries apart (its "total" is composition plus both queries); symdp's "total" is
its four calls. No assertion is made on the times: they are figures to read.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mpmath  # noqa: E402

from symdp.engine.accounting import epsilon_for, hockey_stick  # noqa: E402
from symdp.engine.continuous import Gaussian, Mixture  # noqa: E402
from symdp.engine.products import compose  # noqa: E402

K, Q_RATE, SIGMA, EPS, DELTA = 1000, 0.01, 1.0, 1, 1e-5
GRIDS = {"1e-3": 1e-3, "1e-6": 1e-5}
"""dp_accounting's value discretization beside each of symdp's widths (issue 29: a 1e-5 grid against 1e-6)."""


def _cpu(f):
    start = time.process_time()
    value = f()
    return value, time.process_time() - start


def _symdp(width: float) -> list:
    mixed, plain = compose(K, Mixture(Q_RATE, Gaussian(0, SIGMA), Gaussian(1, SIGMA))), compose(K, Gaussian(0, SIGMA))
    questions = [
        (f"delta(eps={EPS}), remove", lambda: hockey_stick(mixed, plain, EPS, width=width)),
        (f"delta(eps={EPS}), add", lambda: hockey_stick(plain, mixed, EPS, width=width)),
        (f"eps(delta={DELTA:g}), remove", lambda: epsilon_for(DELTA, mixed, plain, width=width)),
        (f"eps(delta={DELTA:g}), add", lambda: epsilon_for(DELTA, plain, mixed, width=width)),
    ]
    rows = []
    for name, ask in questions:
        est, seconds = _cpu(ask)
        low, high = est.value - est.error, est.value + est.error
        rows.append((name, seconds, low, high, 2 * est.error / est.value if est.value else mpmath.inf,
                     est.certified))
    return rows


def _dp_accounting(grid: float):
    try:
        import dp_accounting as dpa
    except ImportError:
        return None
    event = dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(Q_RATE, dpa.GaussianDpEvent(SIGMA)), K)
    accountant, composed = _cpu(lambda: dpa.pld.PLDAccountant(value_discretization_interval=grid).compose(event))
    delta, t_delta = _cpu(lambda: accountant.get_delta(EPS))
    epsilon, t_epsilon = _cpu(lambda: accountant.get_epsilon(DELTA))
    return composed, (delta, t_delta), (epsilon, t_epsilon)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--widths", nargs="+", default=list(GRIDS), choices=list(GRIDS))
    args = parser.parse_args(argv)
    import flint  # noqa: F401  (imported before the clocks)
    _dp_accounting(1e-1)          # dp_accounting's own imports and first compilations, unmeasured
    print(f"q = {Q_RATE}, sigma = {SIGMA}, {K} steps; CPU seconds (time.process_time), one process")
    for width in args.widths:
        grid = GRIDS[width]
        rows = _symdp(float(width))
        peer = _dp_accounting(grid)
        print(f"\nsymdp at relative width {width}; dp_accounting PLD (add-or-remove) at discretization {grid:g}")
        print(f"{'question':<24} {'symdp s':>8}  {'certified bracket':<44} {'rel. width':>10}  "
              f"{'dpa s':>6}  {'dpa answer':<18}")
        for i, (name, seconds, low, high, rel, certified) in enumerate(rows):
            if peer is None:
                answer, t = "not installed", float("nan")
            else:
                answer, t = peer[1] if i < 2 else peer[2]
                answer = f"{answer:.10g}"
            bracket = f"[{mpmath.nstr(low, 12)}, {mpmath.nstr(high, 12)}]" + ("" if certified else " (uncertified)")
            print(f"{name:<24} {seconds:8.2f}  {bracket:<44} {mpmath.nstr(rel, 3):>10}  {t:6.2f}  {answer:<18}")
        total = sum(r[1] for r in rows)
        if peer is not None:
            peer_total = peer[0] + peer[1][1] + peer[2][1]
            print(f"{'total':<24} {total:8.2f}  {'':<44} {'':>10}  {peer_total:6.2f}  "
                  f"(composition {peer[0]:.2f} s, both relations)")
        else:
            print(f"{'total':<24} {total:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
