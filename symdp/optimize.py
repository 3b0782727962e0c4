"""Small one-dimensional optimisation in mpmath, shared by the engines."""

from __future__ import annotations

import mpmath


def golden_section_max(f, a, b, iterations: int = 120) -> tuple:
    """Golden-section search for the maximum of a unimodal ``f`` on [a, b]; the better interior ``(x, f(x))``.

    The ratio is computed at the working precision: the reused interior point drifts by the ratio's error times
    ``1/ratio`` per step, so a double-precision ratio stalls the search after about 80 steps.

    >>> x, fx = golden_section_max(lambda x: -(x - 1) ** 2, 0, 3)
    >>> print(mpmath.nstr(x, 6), abs(fx) < mpmath.mpf(10) ** -12)
    1.0 True
    """
    golden = (mpmath.sqrt(5) - 1) / 2
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    c, d = b - golden * (b - a), a + golden * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iterations):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - golden * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + golden * (b - a)
            fd = f(d)
    return (c, fc) if fc > fd else (d, fd)
