"""Small theorems with known truth, for testing the verifier and the CLI independently of the catalogue (their prose
LaTeX-ready, as every theorem's)."""

import mpmath
import sympy as sp

from symdp.estimate import Estimate
from symdp.theorem import CLOSED_FORM, INDEPENDENT, Erratum, Param, Source, Theorem

x = sp.Symbol("x", positive=True)
A = sp.Symbol("A")
X = Param(x, sp.Interval.open(0, sp.oo), sample=(0.01, 100))
SRC = Source("none", "toy")

AMGM = Theorem("toy.amgm", r"$x + 1/x \ge 2$", SRC, sp.Ge(A, 2), witness=lambda p: p["x"] + 1 / p["x"],
               parameters=(X,), tight_at=({"x": 1},), evidence=INDEPENDENT)
FALSE_BOUND = Theorem("toy.false", r"$x + 1/x \le 3$ (false for $x > 2.62$)", SRC, sp.Le(A, 3),
                      witness=lambda p: p["x"] + 1 / p["x"], parameters=(X,), evidence=INDEPENDENT)
IDENTITY = Theorem("toy.identity", r"$(x+1)^2 = x^2 + 2x + 1$", SRC, sp.Eq(A, x**2 + 2 * x + 1),
                   witness=lambda p: (p["x"] + 1) ** 2, parameters=(X,), tight_everywhere=True,
                   evidence=CLOSED_FORM, evidence_note="a polynomial identity, evaluated at the draws")
NOISY = Theorem("toy.noisy", "a witness whose error swamps the margin", SRC, sp.Le(A, 1),
                witness=lambda p: Estimate(mpmath.mpf("0.99"), mpmath.mpf("0.1"), "quadrature"), parameters=(X,),
                evidence=INDEPENDENT)
CONDITIONED = Theorem("toy.conditioned", r"$x \ge 2$ under the condition $x \ge 2$", SRC, sp.Ge(A, 2),
                      witness=lambda p: p["x"], parameters=(X,), conditions=(sp.Ge(x, 2),), evidence=INDEPENDENT)
PRINTED_WRONG = Theorem("toy.printed", r"$x + 1/x \ge 2.5$ (as printed)", SRC, sp.Ge(A, sp.Rational(5, 2)),
                        witness=lambda p: p["x"] + 1 / p["x"], parameters=(X,),
                        erratum=Erratum("toy eq. (1)", r"$x + 1/x \ge 5/2$", r"$x + 1/x \ge 2$", {"x": 1}, "toy.amgm"),
                        evidence=INDEPENDENT)
CONSTANT = Theorem("toy.constant", r"$\log 2 < 0.7$", SRC, sp.Le(A, sp.Rational(7, 10)), witness=lambda p: mpmath.log(2),
                   evidence=INDEPENDENT)

ALL = (AMGM, FALSE_BOUND, IDENTITY, NOISY, CONDITIONED, PRINTED_WRONG, CONSTANT)
