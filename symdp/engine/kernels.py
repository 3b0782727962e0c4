"""Finite Markov kernels (row-stochastic matrices) and their mixing coefficients (Balle et al. 2019, Definition 1).

Each coefficient is the *smallest* γ for which the kernel satisfies the condition, computed exactly:

* Dobrushin: γ = max_{x,x'} TV(K(x), K(x'));
* (γ, ε)-Dobrushin: γ = max_{x,x'} D_{e^ε}(K(x) || K(x'));
* Doeblin: γ = 1 - Σ_y min_x K(x)(y) (the minorising ω is the normalised column minimum);
* ultra-mixing: γ = 1 - min_{x,x',y} K(x)(y)/K(x')(y) (requires every entry positive).

>>> K = MarkovKernel([[0.75, 0.25], [0.25, 0.75]])     # binary randomized response
>>> print(K.dobrushin(), K.doeblin(), mpmath.nstr(K.ultra_mixing(), 10))
0.5 0.5 0.6666666667
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import mpmath

from symdp.engine import finite
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.engine.finite import FiniteDistribution


@dataclass(frozen=True, init=False)
class MarkovKernel:
    """A row-stochastic matrix: row x is the distribution K(x)."""

    rows: tuple[FiniteDistribution, ...]

    def __init__(self, rows: Sequence[Sequence]):
        built = []
        for i, r in enumerate(rows):
            try:
                built.append(FiniteDistribution(r))
            except InvalidDistribution as exc:
                raise InvalidDistribution(f"kernel row {i}: {exc}") from None
        if not built:
            raise InvalidDistribution("a kernel needs at least one row")
        widths = {len(r) for r in built}
        if len(widths) != 1:
            raise InvalidDistribution(f"kernel rows have different lengths {sorted(widths)}")
        object.__setattr__(self, "rows", tuple(built))

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0])

    def apply(self, P: FiniteDistribution) -> FiniteDistribution:
        """P K: the output law when the input is drawn from P."""
        return P.push_forward([r.probs for r in self.rows])

    def compose(self, other: "MarkovKernel") -> "MarkovKernel":
        """K then other (matrix product K · other)."""
        return MarkovKernel([other.apply(r).probs for r in self.rows])

    def dobrushin(self) -> mpmath.mpf:
        return max(finite.tv(a, b).value for a in self.rows for b in self.rows)

    def dobrushin_eps(self, eps) -> mpmath.mpf:
        return max(finite.hockey_stick(a, b, eps).value for a in self.rows for b in self.rows)

    def doeblin(self) -> mpmath.mpf:
        m = self.shape[1]
        return 1 - mpmath.fsum(min(r[y] for r in self.rows) for y in range(m))

    def ultra_mixing(self) -> mpmath.mpf:
        if any(p <= 0 for r in self.rows for p in r):
            raise InvalidParameter("ultra-mixing needs every kernel entry positive")
        m = self.shape[1]
        return 1 - min(a[y] / b[y] for a in self.rows for b in self.rows for y in range(m))
