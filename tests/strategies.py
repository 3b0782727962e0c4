"""Strategies for the core tests: thin adapters over symdp.strategies."""

from hypothesis import strategies as st

from symdp.strategies import distribution_pairs, kernel_rows, weights


def pairs(positive=True, min_size=2, max_size=8):
    return distribution_pairs(min_size, max_size, low=0.01 if positive else 0.0)


def kernels(rows, cols=None):
    return kernel_rows(rows) if cols is None else kernel_rows(rows, cols, cols)


__all__ = ["pairs", "kernels", "weights", "st"]
