"""A statement's compilation (symdp.statement): what is measured, what fails at declaration, what waits for use."""

import mpmath
import pytest
import sympy as sp

from symdp.expressions import KL, Renyi
from symdp.statement import CompiledStatement, measured_atoms
from symdp.theorem import Param, Source, Theorem

EPS = sp.Symbol("epsilon", real=True)
ALPHA = sp.Symbol("alpha", real=True)
D, DP = sp.symbols("D D'")
I = sp.Symbol("i", integer=True)


def test_what_is_measured_is_every_head_and_every_symbol_outside_the_heads_but_the_parameters():
    # the laws a head names are not measured; a parameter inside a head and outside it is not either
    assert measured_atoms(sp.Le(KL(D, DP), EPS), ()) == (KL(D, DP), EPS)
    assert measured_atoms(sp.Le(Renyi(D, DP, ALPHA), ALPHA * EPS), (ALPHA,)) == (Renyi(D, DP, ALPHA), EPS)
    # a law's symbol named outside its head as well is measured there
    assert measured_atoms(sp.Le(KL(D, DP), D), ()) == (KL(D, DP), D)
    # a head under a sum over its index: the index is bound outside the head, and not measured
    summed = sp.Sum(KL(sp.Indexed("P", I), DP), (I, 1, 3))
    assert measured_atoms(sp.Le(summed, EPS), ()) == (KL(sp.Indexed("P", I), DP), EPS)


def test_a_side_is_compiled_when_first_evaluated():
    s = CompiledStatement(sp.Le(KL(D, DP), EPS * (sp.exp(EPS) - 1) / 2), parameters=())
    assert not {"f", "magnitude", "_arb_f"} & (vars(s.lhs).keys() | vars(s.rhs).keys())
    with mpmath.workdps(20):
        lhs, rhs, values = s.evaluate({}, {KL(D, DP): mpmath.mpf("0.25"), "epsilon": 1})
        assert "f" in vars(s.rhs) and abs(rhs.value - (mpmath.e - 1) / 2) < 1e-18 and lhs.value == mpmath.mpf("0.25")
    assert values == {"KL(D, D')": mpmath.mpf("0.25"), "epsilon": 1}


@pytest.mark.parametrize("operation, error, words", [
    (sp.Derivative(sp.Function("g")(EPS), EPS), NotImplementedError, "Derivative"),
    (sp.Limit(sp.sin(EPS) / EPS, EPS, 0), NotImplementedError, "Limit"),
    (sp.Derivative(sp.Function("g")(2 * EPS), EPS), ValueError, "only supports functions with symbols"),
])
def test_a_statement_mpmath_cannot_evaluate_fails_at_its_declaration_with_lambdifys_error(operation, error, words):
    with pytest.raises(error, match=words):
        Theorem("bad", "", Source("none", "test"), sp.Le(KL(D, DP), 1 + operation),
                parameters=(Param(EPS, sp.Interval(0, 1)),), witness=lambda point: 0)


def test_guarded_pow_refuses_only_beyond_the_limit():
    # e^(10^6) is the largest result a side may compute (statement.MAX_LOG): 2^1442695 = e^999999.8 passes, and
    # 10^(10^6) = e^(2.3 10^6), (10^300)^5000 and (10^-300)^-5000 are refused, whatever their mantissas
    from symdp.statement import guarded_pow

    assert guarded_pow(2, 1442695) == mpmath.mpf(2) ** 1442695
    assert guarded_pow(mpmath.mpf("1e-300"), 0.5) == mpmath.sqrt(mpmath.mpf("1e-300"))
    for x, y in ((10, 10**6), (mpmath.mpf("1e300"), 5000), (mpmath.mpf("1e-300"), -5000), (2, 1442696)):
        with pytest.raises(OverflowError, match="too large to compute"):
            guarded_pow(x, y)
