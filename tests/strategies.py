"""Hypothesis strategies shared by the core tests: finite distributions and kernels as plain float lists."""

from hypothesis import strategies as st


@st.composite
def weights(draw, n=None, min_size=2, max_size=8, positive=True):
    size = n if n is not None else draw(st.integers(min_size, max_size))
    low = 0.01 if positive else 0.0
    return draw(st.lists(st.floats(low, 1.0, allow_nan=False), min_size=size, max_size=size).filter(lambda w: sum(w) > 0))


@st.composite
def pairs(draw, positive=True, min_size=2, max_size=8):
    """Two weight vectors on the same number of atoms."""
    n = draw(st.integers(min_size, max_size))
    return draw(weights(n=n, positive=positive)), draw(weights(n=n, positive=positive))


@st.composite
def kernels(draw, rows, cols=None):
    cols = cols or draw(st.integers(2, 5))
    return [draw(weights(n=cols)) for _ in range(rows)]
