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
from typing import ContextManager, Iterator

import mpmath

DEFAULT_DPS = 50
"""Default working precision in decimal digits."""

GUARD_DPS = 15
"""Extra digits of the second, independent evaluation that every error estimate compares against."""


MIN_DPS, MAX_DPS = 5, 1000
"""The working precisions symdp accepts, in decimal digits. Beyond a thousand digits every route (quadrature above
all) slows by orders of magnitude and no bound of the catalogue needs it: such a request is refused, not attempted."""


def check_dps(dps) -> int:
    """``dps`` as an int, or an :class:`~symdp.errors.InvalidParameter` naming the accepted range.

    >>> check_dps(50)
    50
    >>> check_dps(0)
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: working precision must be a whole number of digits from 5 to 1000, got 0
    """
    if isinstance(dps, bool) or not isinstance(dps, (int, float)) or int(dps) != dps \
            or not MIN_DPS <= dps <= MAX_DPS:
        from symdp.errors import InvalidParameter

        raise InvalidParameter(f"working precision must be a whole number of digits from {MIN_DPS} to {MAX_DPS}, "
                               f"got {dps!r}")
    return int(dps)


@contextlib.contextmanager
def working_precision(dps: int) -> Iterator[None]:
    """Run a block at ``dps`` decimal digits (:func:`check_dps`, plus guard digits), restoring the previous
    precision afterwards."""
    if isinstance(dps, bool) or int(dps) != dps or not MIN_DPS <= dps <= MAX_DPS + GUARD_DPS:
        check_dps(dps)
    with mpmath.workdps(int(dps)):
        yield


def current_dps() -> int:
    return int(mpmath.mp.dps)


def unit_roundoff() -> mpmath.mpf:
    """10^(-dps) at the current precision: the floor of every error estimate."""
    return mpmath.mpf(10) ** (-mpmath.mp.dps)


@contextlib.contextmanager
def _switched(switch: contextvars.ContextVar, value: bool) -> Iterator[None]:
    """One of the engine's switches (:func:`switches`) set to ``value`` for a block, restored on exit."""
    token = switch.set(bool(value))
    try:
        yield
    finally:
        switch.reset(token)


_CLOSED_FORMS = contextvars.ContextVar("symdp_closed_forms", default=True)


def closed_forms(enabled: bool) -> ContextManager[None]:
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
    return _switched(_CLOSED_FORMS, enabled)


def closed_forms_enabled() -> bool:
    """Whether closed-form divergences may be used (see :func:`closed_forms`)."""
    return _CLOSED_FORMS.get()


_PROOFS = contextvars.ContextVar("symdp_proofs", default=True)


def proofs(wanted: bool) -> ContextManager[None]:
    """Ask for (the default) or waive, for a block, the work an engine does only to prove a value: the verifier waives
    it where a draw is decided by two precisions (no enclosure was attempted, the theorem's first draws having had
    none, or the enclosures did not settle it). Values are unchanged where the proof fails anyway; where it would have
    closed, an estimate stands in for the enclosure.

    >>> from symdp.engine.privacy_loss import DiscreteLaw, optimal_standard
    >>> law = DiscreteLaw([0, 1], [0.75, 0.25])
    >>> optimal_standard(law).tau.certified
    True
    >>> with proofs(False):   # the grids' estimate of the same law
    ...     print(optimal_standard(law).tau.certified)
    False
    """
    return _switched(_PROOFS, wanted)


def proofs_wanted() -> bool:
    """Whether the engines should seek proofs (certified enclosures) of what they compute (see :func:`proofs`)."""
    return _PROOFS.get()


def switches() -> tuple[bool, bool]:
    """What a measurement depends on besides its inputs and the working precision: whether closed forms are allowed
    and whether proofs are wanted. Part of the key of every cache of measurements (a standard searched with proofs
    waived is an estimate, which a later certified attempt at the same precision must not be handed).

    >>> with closed_forms(False), proofs(False):
    ...     print(switches())
    (False, False)
    """
    return closed_forms_enabled(), proofs_wanted()
