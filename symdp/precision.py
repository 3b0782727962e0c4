"""Working precision.

symdp computes in mpmath at a working precision given in decimal digits (default 50). Precision is changed only for a
block, with :func:`working_precision`, which restores the caller's precision on exit, as ``mpmath.workdps`` does.

>>> from symdp.precision import working_precision
>>> import mpmath
>>> with working_precision(30):
...     print(mpmath.mpf(1) / 3)
0.333333333333333333333333333333
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Iterator

import mpmath

DEFAULT_DPS = 50
"""Default working precision in decimal digits."""

GUARD_DPS = 15
"""Extra digits of the second, independent evaluation that every error estimate compares against."""


@contextlib.contextmanager
def working_precision(dps: int) -> Iterator[None]:
    """Run a block at ``dps`` decimal digits, restoring the previous precision afterwards."""
    if int(dps) != dps or dps < 5:
        from symdp.errors import InvalidParameter

        raise InvalidParameter(f"working precision must be an integer number of digits >= 5, got {dps!r}")
    with mpmath.workdps(int(dps)):
        yield


def current_dps() -> int:
    return int(mpmath.mp.dps)


def unit_roundoff() -> mpmath.mpf:
    """10^(-dps) at the current precision: the floor of every error estimate."""
    return mpmath.mpf(10) ** (-mpmath.mp.dps)


_CLOSED_FORMS = contextvars.ContextVar("symdp_closed_forms", default=True)


@contextlib.contextmanager
def closed_forms(enabled: bool) -> Iterator[None]:
    """Allow (the default) or forbid every closed-form divergence of the engine for a block.

    With closed forms off, Gaussian and Laplace divergences, and the Gaussian privacy loss's subgaussian standard,
    are computed by quadrature and search like any other family: ``symdp verify --no-closed-forms`` uses it to show
    that a theorem labelled *independent* does not rest on a formula.

    >>> from symdp.engine.divergences import kl
    >>> from symdp.engine.continuous import Laplace
    >>> with closed_forms(False):
    ...     print(kl(Laplace(0, 1), Laplace(1, 1)).method)
    certified
    """
    token = _CLOSED_FORMS.set(bool(enabled))
    try:
        yield
    finally:
        _CLOSED_FORMS.reset(token)


def closed_forms_enabled() -> bool:
    """Whether closed-form divergences may be used (see :func:`closed_forms`)."""
    return _CLOSED_FORMS.get()
