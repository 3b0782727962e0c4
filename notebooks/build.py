"""Write and execute the notebooks (outputs are stored in the .ipynb files).

    python3 -m pip install ".[notebooks]" && python3 notebooks/build.py

Each notebook is defined here as a list of cells, so its source is reviewable as Python; the executed .ipynb is
what a reader opens.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def md(text: str):
    return nbformat.v4.new_markdown_cell(text.strip())


def code(text: str):
    return nbformat.v4.new_code_cell(text.strip())


VERIFICATION = [
    md("""
# The catalogue, verified

Every theorem symdp holds, checked by `symdp.verify`: hypothesis draws of the parameters, both sides evaluated in
mpmath at 50 digits and again with 15 guard digits, and an honest verdict. Printed statements recorded as errata are
*expected* to be violated.
"""),
    code("""
import json
from symdp.theorems import all_theorems
from symdp.verify import verify

rows = []
for t in all_theorems():
    r = verify(t, examples=25)
    rows.append((t.id, t.source.number, r.verdict, r.tight, r.examples, r.worst_ratio, t.erratum is not None))
print(f"{'id':34s} {'paper':22s} {'verdict':10s} tight/draws  worst ratio  erratum")
for ident, number, verdict, tight, n, ratio, erratum in rows:
    ratio_text = '-' if ratio is None else f'{ratio:.4f}'
    print(f"{ident:34s} {number:22s} {verdict:10s} {tight:>4d}/{n:<6d} {ratio_text:>11s}  {'yes' if erratum else ''}")
"""),
    md("""
## Lemma 3.8 of Dwork & Rothblum against the largest KL an ε-DP pair reaches

The printed bound is ε(e^ε − 1)/2. Randomized response attains ε·tanh(ε/2), the supremum over all ε-DP pairs
(antipodal pairs without zero atoms), so the printed bound is loose by the factor (e^ε + 1)/2. The dots are random
ε-DP pairs on 2–8 atoms, their KL computed exactly.
"""),
    code("""
import random
import mpmath
import matplotlib.pyplot as plt
from symdp.engine.finite import FiniteDistribution, kl, max_divergence

rng = random.Random(1)
points = []
for _ in range(600):
    n = rng.randint(2, 8)
    q = [rng.random() + 0.01 for _ in range(n)]
    e0 = rng.uniform(0.05, 1.5)
    p = [w * mpmath.exp(rng.uniform(-1, 1) * e0) for w in q]
    P, Q = FiniteDistribution.normalized(p), FiniteDistribution.normalized(q)
    eps = max(max_divergence(P, Q).value, max_divergence(Q, P).value)
    points.append((float(eps), float(kl(P, Q).value)))
grid = [i / 100 for i in range(1, 301)]
fig, ax = plt.subplots(figsize=(7, 4.5))
ax.scatter(*zip(*points), s=6, alpha=0.5, label='random ε-DP pairs')
ax.plot(grid, [e * float(mpmath.tanh(e / 2)) for e in grid], label='ε tanh(ε/2) (randomized response)')
ax.plot(grid, [e * (float(mpmath.exp(e)) - 1) / 2 for e in grid], '--', label='ε(e^ε − 1)/2 (Lemma 3.8)')
ax.set_xlabel('ε = Δ∞(P, Q)'); ax.set_ylabel('KL(P‖Q)'); ax.set_xlim(0, 3); ax.set_ylim(0, 4); ax.legend()
plt.show()
"""),
    md("""
## The Laplace2 limit (Balle et al. 2019, Lemma 3)

The privacy loss of the iterated Laplace mechanism, log Lap2(x)/Lap2(x + Δ), increases towards Δ/max(λ1, λ2) and
reaches it only as x → ∞ — slowly, as O(1/x), when λ1 = λ2. So the mechanism is exactly (Δ/max(λ1, λ2), 0)-DP:
post-processing by a second Laplace kernel buys no pure-DP amplification.
"""),
    code("""
from symdp.engine.continuous import Lap2

fig, ax = plt.subplots(figsize=(7, 4.5))
xs = [i / 4 for i in range(-40, 401)]
for l1, l2 in [(1, 2), (1, 1), (0.5, 1.5)]:
    P, Q = Lap2(0, l1, l2), Lap2(-1, l1, l2)  # Q(x) = Lap2(x + Δ)
    ax.plot(xs, [float(P.logpdf(x) - Q.logpdf(x)) for x in xs], label=f'λ1={l1}, λ2={l2}')
    ax.axhline(1 / max(l1, l2), ls=':', color='gray')
ax.set_xlabel('x'); ax.set_ylabel('log Lap2(x) / Lap2(x + Δ), Δ = 1'); ax.legend()
plt.show()
"""),
]


def build(name: str, cells) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = cells
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(nb, timeout=1200, kernel_name="python3").execute()
    path = HERE / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


if __name__ == "__main__":
    print(build("verification", VERIFICATION), file=sys.stderr)
