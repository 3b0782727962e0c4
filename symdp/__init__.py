"""symdp: symbolic verification and derivation of differential-privacy theory.

The main objects: :class:`~symdp.theorem.Theorem` (a paper's result with its witness), :func:`~symdp.verify.verify`
(an honest verdict from hypothesis draws evaluated at two precisions), the divergences of
:mod:`symdp.engine.divergences` on :mod:`symdp.engine.finite` and :mod:`symdp.engine.continuous` distributions, and
:class:`~symdp.derivation.Derivation`.

The names below are imported on first use (PEP 562), so that ``import symdp`` — and with it the command line's
``symdp --help`` and the pytest plug-in — costs nothing until something is asked for.

>>> from symdp import FiniteDistribution, verify
>>> callable(verify), FiniteDistribution.__name__
(True, 'FiniteDistribution')
"""

from __future__ import annotations

import importlib
import sys
import types

__version__ = "0.1.0"

_EXPORTS = {
    "Gaussian": "symdp.engine.continuous", "Lap2": "symdp.engine.continuous", "Laplace": "symdp.engine.continuous",
    "Mixture": "symdp.engine.continuous", "Derivation": "symdp.derivation", "hockey_stick": "symdp.engine.divergences",
    "kl": "symdp.engine.divergences", "max_divergence": "symdp.engine.divergences",
    "renyi": "symdp.engine.divergences", "tv": "symdp.engine.divergences", "SymdpError": "symdp.errors",
    "Estimate": "symdp.estimate", "FiniteDistribution": "symdp.engine.finite", "MarkovKernel": "symdp.engine.kernels",
    "DEFAULT_DPS": "symdp.precision", "working_precision": "symdp.precision", "Erratum": "symdp.theorem",
    "Param": "symdp.theorem", "Source": "symdp.theorem", "Theorem": "symdp.theorem", "Report": "symdp.verify",
    "verify": "symdp.verify",
}
"""Each public name and the module that defines it."""

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'symdp' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


class _Package(types.ModuleType):
    """The package's module type: ``symdp.verify`` names the function, as ``from symdp import verify`` promises.

    Importing the submodule :mod:`symdp.verify` binds it on its parent under the same name (the import system does
    so after the submodule has run); the function it defines is bound instead, so the name means one thing whatever
    was imported first. The module itself stays ``sys.modules["symdp.verify"]``.
    """

    def __setattr__(self, name, value):
        if name == "verify" and isinstance(value, types.ModuleType) and hasattr(value, "verify"):
            value = value.verify
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
