"""Hypothesis strategies for the structures theorems quantify over.

They draw *plain data* (lists of floats), never mpmath objects: the verifier evaluates every draw at two working
precisions, and a witness builds its distributions from the plain data at each precision (``FiniteDistribution.
normalized(weights)``). Plain data is also what a counterexample is reported as, and what hypothesis shrinks.

>>> from hypothesis import given
>>> @given(distribution_pairs(max_size=4))
... def test(pair):
...     P, Q = (FiniteDistribution.normalized(w) for w in pair)
...     assert len(P) == len(Q)
>>> test()
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from hypothesis import strategies as st

from symdp.engine.finite import FiniteDistribution  # noqa: F401  (used in the doctest)


def flatmapped(base: st.SearchStrategy, build: Callable[[Any], st.SearchStrategy]) -> st.SearchStrategy:
    """``base.flatmap(build)`` with one strategy per drawn value, built once: hypothesis validates a new strategy, and
    reads its filters' source, the first time it draws from it, which costs a structure drawn at every draw more than
    its drawing (a catalogue theorem draws a hundred times from a few sizes). The draws are the same as
    ``flatmap``'s: equal values build equal strategies.

    >>> sizes = flatmapped(st.integers(2, 3), lambda n: st.lists(st.just(n), min_size=n, max_size=n))
    >>> from hypothesis import find
    >>> find(sizes, lambda xs: len(xs) == 3)
    [3, 3, 3]
    """
    built: dict[str, st.SearchStrategy] = {}

    def expand(value):
        key = repr(value)   # drawn sizes are ints, tuples or lists of them: repr is a faithful key
        if key not in built:
            built[key] = build(value)
        return built[key]

    return base.flatmap(expand)


@lru_cache(maxsize=None)
def weights(n: int, low: float = 0.01, high: float = 1.0) -> st.SearchStrategy[list[float]]:
    """``n`` positive weights in [low, high]; normalize with ``FiniteDistribution.normalized``.

    A floor ``low > 0`` keeps supports equal and ratios bounded (``low = 0`` allows empty atoms).

    One strategy per arguments, built once: a structure's strategy calls this at every draw, and hypothesis
    validates a new strategy, and reads its filter's source, each time it first draws from it.

    >>> weights(3) is weights(3)
    True
    """
    return st.lists(st.floats(low, high, allow_nan=False, allow_subnormal=False), min_size=n, max_size=n).filter(
        lambda w: sum(w) > 0)


@st.composite
def distribution_pairs(draw, min_size: int = 2, max_size: int = 8, low: float = 0.01):
    """Two weight vectors on a common number of atoms."""
    n = draw(st.integers(min_size, max_size))
    return draw(weights(n, low)), draw(weights(n, low))


@st.composite
def kernel_rows(draw, rows: int, min_cols: int = 2, max_cols: int = 5, low: float = 0.01):
    """The rows of a random row-stochastic matrix, as weight vectors (normalize each row)."""
    cols = draw(st.integers(min_cols, max_cols))
    return [draw(weights(cols, low)) for _ in range(rows)]
