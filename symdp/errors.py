"""Errors that name the problem.

Every error a user can provoke with bad input is a :class:`SymdpError`, a subclass of ``ValueError`` whose message
is one line saying what is wrong, so the CLI prints it without a traceback.
"""


class SymdpError(ValueError):
    """Base class: bad input to symdp, with a one-line message naming the problem."""


class InvalidDistribution(SymdpError):
    """Probabilities that are negative, do not sum to one, or a continuous family with a bad parameter."""


class InvalidParameter(SymdpError):
    """A parameter outside its domain: alpha <= 1, a negative scale, a probability outside [0, 1], ..."""


class ClaimSyntaxError(SymdpError):
    """Claim text that does not parse, or uses something outside the claim language."""


class UnknownTheorem(SymdpError):
    """An ID or ID prefix that selects no theorem of the catalogue."""


class Uncertain(ArithmeticError):
    """A ball comparison, or a ball where a number was needed, that ball arithmetic cannot decide (not bad input:
    the caller falls back to an estimate)."""


def reason(exc: BaseException) -> str:
    """What an arithmetic error raised while evaluating says, as the end of a message; where it says nothing (mpmath's
    division by zero), what it is.

    >>> reason(ValueError("math domain error")), reason(ZeroDivisionError()), reason(OverflowError())
    ('math domain error', 'a division by zero', 'OverflowError')
    """
    return str(exc) or ("a division by zero" if isinstance(exc, ZeroDivisionError) else type(exc).__name__)
