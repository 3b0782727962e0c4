"""Throughput of the exact finite engine and of the verifier (prints figures; not a test).

    python benchmarks/bench_core.py
"""

import random
import time

import mpmath
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.toy_theorems

from symdp.engine.finite import FiniteDistribution, kl, renyi
from symdp.engine.privacy_loss import subgaussian_standard
from symdp.precision import working_precision


def timeit(label, fn, repeat):
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    per = (time.perf_counter() - start) / repeat
    print(f"{label:55s} {per * 1e3:9.3f} ms")


def main():
    rng = random.Random(0)
    for n in (2, 10, 100):
        w1 = [rng.random() + 0.01 for _ in range(n)]
        w2 = [rng.random() + 0.01 for _ in range(n)]
        for dps in (15, 50, 100):
            with working_precision(dps):
                P, Q = FiniteDistribution.normalized(w1), FiniteDistribution.normalized(w2)
                timeit(f"KL, n={n}, dps={dps}", lambda: kl(P, Q), 200)
                timeit(f"Renyi alpha=7.5, n={n}, dps={dps}", lambda: renyi(P, Q, mpmath.mpf("7.5")), 200)
    with working_precision(50):
        timeit("subgaussian standard, n=10, dps=50", lambda: subgaussian_standard(range(10), [0.1] * 10), 3)
    from tests.toy_theorems import AMGM
    from symdp.verify import verify

    start = time.perf_counter()
    r = verify(AMGM, examples=1000)
    print(f"verify toy theorem, {r.examples} draws: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
