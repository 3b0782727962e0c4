"""What the three sections of Balle et al. (NeurIPS 2019) share: the common parameters and the named laws of
statements.

>>> import sympy as sp
>>> print(sp.latex(Law(r"\\mu K")), Law(r"\\mu K") == Law(r"\\mu K"))
\\mu K True
"""

from __future__ import annotations

import sympy as sp

from symdp.symbols import Delta, Law, alpha, lambda1, lambda2, sigma, sigma1, sigma2  # noqa: F401 (Law re-exported)
from symdp.theorem import Param

POS = sp.Interval.open(0, sp.oo)
LAMBDA1 = Param(lambda1, POS, sample=(0.2, 10))
LAMBDA2 = Param(lambda2, POS, sample=(0.2, 10))
DELTA = Param(Delta, POS, sample=(0.01, 5))
ALPHA = Param(alpha, sp.Interval.open(1, sp.oo), sample=(1.05, 30))
SIGMA = Param(sigma, POS, sample=(0.1, 5))
SIGMA1 = Param(sigma1, POS, sample=(0.1, 10))
SIGMA2 = Param(sigma2, POS, sample=(0.1, 10))
