import pytest
import sympy as sp

from symdp.derivation import Derivation, DerivationError

x, y = sp.symbols("x y", positive=True)


def test_correct_chain_checks_and_renders():
    d = (Derivation("log of a product", sp.log(x * y))
         .step(sp.log(x) + sp.log(y), "log is additive on positives")
         .step(sp.log(y) + sp.log(x), "commute"))
    assert d.check()
    tex = d.latex()
    assert tex.startswith("\\begin{align*}") and "is additive" in tex


def test_wrong_step_is_named():
    d = Derivation("bad algebra", (x + y) ** 2).step(x**2 + y**2, "forgot the cross term")
    with pytest.raises(DerivationError, match="step 1 \\(forgot the cross term\\)"):
        d.check()


def test_substitution_and_inequality_steps():
    q, e = sp.symbols("q epsilon", positive=True)
    p = sp.Symbol("p", positive=True)
    d = (Derivation("antipodal mass", p - q * sp.exp(e))
         .step(0, "normalisation gives p = q e^eps", given={p: q * sp.exp(e)}))
    assert d.check()
    ineq = Derivation("AM-GM", x**2 + y**2).step(2 * x * y, "(x - y)^2 >= 0", relation=">=")
    assert ineq.check()
    wrong = Derivation("reversed", x**2 + y**2).step(2 * x * y, "wrong direction", relation="<=")
    with pytest.raises(DerivationError):
        wrong.check()
