"""symdp: symbolic verification and derivation of differential-privacy theory.

The main objects: :class:`~symdp.theorem.Theorem` (a paper's result with its witness), :func:`~symdp.verify.verify`
(an honest verdict from hypothesis draws evaluated at two precisions), the divergences of :mod:`symdp.engine.divergences`
on :mod:`symdp.engine.finite` and :mod:`symdp.engine.continuous` distributions, and :class:`~symdp.derivation.Derivation`.
"""

from symdp.engine.continuous import Gaussian, Lap2, Laplace, Mixture
from symdp.derivation import Derivation
from symdp.engine.divergences import hockey_stick, kl, max_divergence, renyi, tv
from symdp.errors import SymdpError
from symdp.estimate import Estimate
from symdp.engine.finite import FiniteDistribution
from symdp.engine.kernels import MarkovKernel
from symdp.precision import DEFAULT_DPS, working_precision
from symdp.theorem import Erratum, Param, Source, Theorem
from symdp.verify import Report, verify

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_DPS", "Derivation", "Erratum", "Estimate", "FiniteDistribution", "Gaussian", "Lap2", "Laplace",
    "MarkovKernel", "Mixture", "Param", "Report", "Source", "SymdpError", "Theorem", "hockey_stick", "kl",
    "max_divergence", "renyi", "tv", "verify", "working_precision",
]
