"""SymPy heads for the quantities and distributions that statements talk about.

A statement such as ``KL(M, M') <= eps*(exp(eps) - 1)/2`` is an ordinary SymPy relation whose left side is the
unevaluated head ``KL(M, M')``; the heads print themselves in LaTeX the way papers write them, so ``sympy.latex`` of
any statement is ready for a paper:

>>> import sympy as sp
>>> M, Mp = sp.symbols("M M'")
>>> eps = sp.Symbol("epsilon", positive=True)
>>> print(sp.latex(sp.Le(KL(M, Mp), eps * (sp.exp(eps) - 1) / 2)))
D_{\\mathrm{KL}}\\left(M \\,\\middle\\|\\, M'\\right) \\leq \\frac{\\epsilon \\left(e^{\\epsilon} - 1\\right)}{2}
>>> print(sp.latex(SubgaussianStandard(M) ** 2))
\\left(\\tau\\left(M\\right)\\right)^{2}

Distribution heads (``Gaussian(mean, sd)``, ``Laplace(loc, scale)``, ``Lap2(loc, scale1, scale2)``,
``Mix(q, P, Q)``, ``Finite(p1, ..., pn)``, the products ``Compose(k, P)`` and ``ProductOf(P1, ..., Pn)``, and the laws
on the integers ``DiscreteLaplace(loc, scale)``, ``DiscreteGaussian(loc, sd)``, ``RandomizedResponse(k, eps, i)``)
are what the claim language builds; :mod:`symdp.claims` evaluates them. An accountant's inverse question is a head
too, ``EpsilonFor(P, Q, delta)``:

>>> k = sp.Symbol("k", integer=True)
>>> print(sp.latex(EpsilonFor(Compose(k, Gaussian(0, 1)), Compose(k, Gaussian(1, 1)), sp.Rational(1, 10**5))))
\\varepsilon_{{\\mathcal{N}\\left(0, 1\\right)}^{\\otimes k} \\| {\\mathcal{N}\\left(1, 1\\right)}^{\\otimes k}}\\left(\\frac{1}{100000}\\right)
"""

from __future__ import annotations

import inspect

import mpmath
import sympy as sp

from symdp.engine import continuous, integers, products, symmetrised
from symdp.engine.finite import FiniteDistribution


class classproperty:
    """A read-only property of a class (``Compose.integers``), computed from its declaration."""

    def __init__(self, getter):
        self.getter = getter

    def __get__(self, instance, owner):
        return self.getter(owner)


def _pair_latex(printer, P, Q) -> str:
    return rf"{printer._print(P)} \,\middle\|\, {printer._print(Q)}"


class Quantity(sp.Function):
    """Base of the unevaluated divergence heads: never evaluates symbolically.

    ``domain`` is the interval the quantity's true value lies in whatever the error of its measurement (a KL
    divergence in [0, ∞], a total variation in [0, 1]), or None where nothing is known: a measurement's enclosure is
    intersected with it before a statement is evaluated (:mod:`symdp.statement`).
    """

    is_real = True
    domain: tuple | None = None
    rounding = "absolute"
    """How the rounding of the laws' construction (a finite law's atoms, rounded relatively at working precision)
    moves the quantity: ``"absolute"`` for a divergence, a function of the laws' log-ratios, which rounding moves by
    a few units of 10^-dps whatever its size; ``"relative"`` for a density, a probability or a moment, which it moves
    by a few units of the quantity's own last place (:func:`symdp.statement.construction_floor`)."""

    @classmethod
    def eval(cls, *args):
        return None

    def __init_subclass__(cls, **kwargs):
        # SymPy prints a power of a function as ``f._latex(printer, exp=...)``; a head written as
        # ``_latex(self, printer)`` (ours, or a user's) would crash on ``KL(P, Q)**2``, so it gets the exponent here.
        super().__init_subclass__(**kwargs)
        tex = cls.__dict__.get("_latex")
        if tex is not None and "exp" not in inspect.signature(tex).parameters:
            def _latex(self, printer, exp=None, _tex=tex):
                body = _tex(self, printer)
                return body if exp is None else rf"\left({body}\right)^{{{exp}}}"

            cls._latex = _latex


class KL(Quantity):
    """Kullback–Leibler divergence D_KL(P || Q)."""

    nargs = 2
    is_extended_nonnegative = True
    domain = (0, mpmath.inf)

    def _latex(self, printer):
        P, Q = self.args
        return rf"D_{{\mathrm{{KL}}}}\left({_pair_latex(printer, P, Q)}\right)"


class Renyi(Quantity):
    """Rényi divergence R_alpha(P || Q) of order alpha > 1."""

    nargs = 3
    is_extended_nonnegative = True
    domain = (0, mpmath.inf)

    def _latex(self, printer):
        P, Q, a = self.args
        return rf"R_{{{printer._print(a)}}}\left({_pair_latex(printer, P, Q)}\right)"


class HockeyStick(Quantity):
    """Hockey-stick divergence D_{e^eps}(P || Q)."""

    nargs = 3
    is_extended_nonnegative = True
    domain = (0, 1)

    def _latex(self, printer):
        P, Q, e = self.args
        return rf"D_{{e^{{{printer._print(e)}}}}}\left({_pair_latex(printer, P, Q)}\right)"


class TV(Quantity):
    """Total variation distance TV(P, Q)."""

    nargs = 2
    is_extended_nonnegative = True
    domain = (0, 1)

    def _latex(self, printer):
        P, Q = self.args
        return rf"\mathrm{{TV}}\left({printer._print(P)}, {printer._print(Q)}\right)"


class MaxDivergence(Quantity):
    """Max divergence D_inf(P || Q) (non-negative: two probability laws cannot have p < q everywhere)."""

    nargs = 2
    is_extended_nonnegative = True
    domain = (0, mpmath.inf)

    def _latex(self, printer):
        P, Q = self.args
        return rf"D_{{\infty}}\left({_pair_latex(printer, P, Q)}\right)"


class EpsilonFor(Quantity):
    """ε_{P‖Q}(δ) = inf{ε ≥ 0 : D_{e^ε}(P‖Q) ≤ δ}: the accountant's ε for a given δ ∈ (0, 1), never negative (the
    engine's least ε of any sign, :data:`~symdp.engine.divergences.Kind.APPROXIMATE_MAX_DIVERGENCE`, clamped at 0).
    The claim language writes it ``epsilon_for(delta, P, Q)``; the head keeps the laws first, as every divergence
    head does."""

    nargs = 3
    is_extended_nonnegative = True
    domain = (0, mpmath.inf)

    def _latex(self, printer):
        P, Q, d = self.args
        return rf"\varepsilon_{{{printer._print(P)} \| {printer._print(Q)}}}\left({printer._print(d)}\right)"


class SubgaussianStandard(Quantity):
    """Optimal subgaussian standard tau(X) of a centred random variable."""

    nargs = 1
    is_extended_nonnegative = True
    domain = (0, mpmath.inf)

    def _latex(self, printer):
        return rf"\tau\left({printer._print(self.args[0])}\right)"


class PrivacyLossOf(Quantity):
    """The privacy-loss random variable L_(P||Q)."""

    nargs = 2

    def _latex(self, printer):
        P, Q = self.args
        return rf"L_{{({_pair_latex(printer, P, Q).replace(chr(92) + 'middle', '')})}}"


class LossMGF(Quantity):
    """E_P[exp(λ (L_(P‖Q) − c))]: the moment generating function of the privacy loss, shifted by c (the engine
    measures it between concrete laws for c = 0 and for the centring c = D_KL(P‖Q))."""

    nargs = 4

    def _latex(self, printer):
        P_, Q_, l, c = self.args
        loss = printer._print(PrivacyLossOf(P_, Q_))
        shifted = loss if c == 0 else rf"\left({loss} - {printer._print(c)}\right)"
        return rf"\mathbb{{E}}_{{{printer._print(P_)}}}\left[e^{{{printer._print(l)} {shifted}}}\right]"


DISTRIBUTIONS: dict[str, type] = {}
"""Every distribution head with a ``name``, by that name: the laws statements and the claim language may name. A
head joins it by being declared (a family of one's own included, in one's own module)."""


class DistributionHead(sp.Function):
    """Base of the distribution heads: a concrete law in a statement, ``Gaussian(Delta, sigma)``, which the engine
    builds and measures (:mod:`symdp.laws`). ``name`` is how the claim language spells it; ``law`` builds the engine's
    object from the numeric arguments. Declaring a head with a name registers it (:data:`DISTRIBUTIONS`).

    ``signature`` says what each argument is, one letter per position: ``r`` a real number, ``i`` an integer (a
    parameter typed there bare is drawn as an integer, :func:`symdp.claims.claim_theorem`), ``l`` a law; a final
    ``+`` repeats the last letter (one or more). ``space`` names where the law lives, and two laws compared must live
    on one (:func:`symdp.laws.space`); ``rounded`` says that building the law rounds (normalising sums, exponentials),
    so that a measurement of it is never marked built exactly (:func:`symdp.laws.built_exactly`).

    >>> Compose.signature, Compose.integers, ProductOf.signature
    ('il', (0,), 'l+')
    """

    name: str = ""
    law = None
    signature: str = "rr"
    space: str = "continuous distribution"
    rounded: bool = False

    @classmethod
    def kinds(cls, count: int) -> str | None:
        """The letter of each of ``count`` arguments, or None if the head does not take ``count``.

        >>> ProductOf.kinds(3), Compose.kinds(3)
        ('lll', None)
        """
        if cls.signature.endswith("+"):
            fixed = cls.signature[:-1]
            return fixed + fixed[-1] * (count - len(fixed)) if count >= len(fixed) else None
        return cls.signature if count == len(cls.signature) else None

    @classproperty
    def integers(cls) -> tuple[int, ...]:   # noqa: N805 (a property of the class)
        """The positions of the integer arguments."""
        return tuple(i for i, kind in enumerate(cls.signature) if kind == "i")

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("name"):
            DISTRIBUTIONS[cls.name] = cls

    @classmethod
    def eval(cls, *args):
        return None


class Gaussian(DistributionHead):
    """N(mean, sd²)."""

    nargs = 2
    name, law = "gaussian", staticmethod(continuous.Gaussian)

    def _latex(self, printer):
        m, s = self.args
        return rf"\mathcal{{N}}\left({printer._print(m)}, {printer._print(s**2)}\right)"


class Laplace(DistributionHead):
    """Lap(mean, scale)."""

    nargs = 2
    name, law = "laplace", staticmethod(continuous.Laplace)

    def _latex(self, printer):
        m, b = self.args
        return rf"\mathrm{{Lap}}\left({printer._print(m)}, {printer._print(b)}\right)"


class Lap2(DistributionHead):
    """Lap2(mean; b1, b2), Balle et al.'s two-scale Laplace law."""

    nargs = 3
    signature = "rrr"
    name, law = "lap2", staticmethod(continuous.Lap2)

    def _latex(self, printer):
        m, b1, b2 = self.args
        return rf"\mathrm{{Lap2}}\left({printer._print(m)}; {printer._print(b1)}, {printer._print(b2)}\right)"


class Compose(DistributionHead):
    """P^{⊗k}: k independent draws of P, the output law of k-fold composition (:func:`symdp.engine.products.compose`)."""

    nargs = 2
    name, law, signature = "compose", staticmethod(products.compose), "il"
    rounded = True    # the engine reduces a product (loss classes, one Gaussian pair) with rounding

    def _latex(self, printer):
        k, P = self.args
        return rf"{{{_factor(printer, P)}}}^{{\otimes {printer._print(k)}}}"


class ProductOf(DistributionHead):
    """P_1 ⊗ … ⊗ P_n: independent draws, the output law of running mechanisms side by side
    (:func:`symdp.engine.products.product`)."""

    name, law, signature = "product", staticmethod(products.product), "l+"
    rounded = True

    def _latex(self, printer):
        return r" \otimes ".join(_factor(printer, P, (Mix,)) for P in self.args)


def _factor(printer, P, bracketed: tuple = ()) -> str:
    r"""A law as a factor of a product (a mixture, a sum, in parentheses) or of a power (``bracketed`` omitted: a
    mixture or a product in parentheses).

    >>> q = sp.Symbol("q")
    >>> print(sp.latex(Compose(2, Mix(q, Gaussian(0, 1), Gaussian(1, 1)))))
    {\left(\left(1 - q\right) \mathcal{N}\left(0, 1\right) + q \mathcal{N}\left(1, 1\right)\right)}^{\otimes 2}
    """
    body = printer._print(P)
    return rf"\left({body}\right)" if isinstance(P, bracketed or (Mix, ProductOf, Compose)) else body


class DiscreteLaplace(DistributionHead):
    """Lap_ℤ(loc, scale): P(x) ∝ exp(−|x − loc|/scale) on the integers."""

    nargs = 2
    name, law, signature = "discrete_laplace", staticmethod(integers.discrete_laplace), "ir"
    space = "law on the integers"
    rounded = True

    def _latex(self, printer):
        m, b = self.args
        return rf"\mathrm{{Lap}}_{{\mathbb{{Z}}}}\left({printer._print(m)}, {printer._print(b)}\right)"


class DiscreteGaussian(DistributionHead):
    """N_ℤ(loc, sd²): P(x) ∝ exp(−(x − loc)²/(2 sd²)) on the integers (Canonne, Kamath and Steinke)."""

    nargs = 2
    name, law, signature = "discrete_gaussian", staticmethod(integers.discrete_gaussian), "ir"
    space = "law on the integers"
    rounded = True

    def _latex(self, printer):
        m, s = self.args
        return rf"\mathcal{{N}}_{{\mathbb{{Z}}}}\left({printer._print(m)}, {printer._print(s**2)}\right)"


class RandomizedResponse(DistributionHead):
    """k-ary randomized response of the input i at ε: on {0, ..., k − 1}, e^ε/(e^ε + k − 1) at i and 1/(e^ε + k − 1)
    elsewhere."""

    nargs = 3
    name, law, signature = "randomized_response", staticmethod(integers.randomized_response), "iri"
    space, rounded = "law on the integers", True

    def _latex(self, printer):
        k, e, i = self.args
        return rf"\mathrm{{RR}}_{{{printer._print(k)}, {printer._print(e)}}}\left({printer._print(i)}\right)"


class Mix(DistributionHead):
    """(1 - q) P + q Q (:func:`symdp.laws.mixture` builds it)."""

    nargs = 3
    name, signature = "mix", "rll"

    def _latex(self, printer):
        q, P, Q = self.args
        return rf"\left(1 - {printer._print(q)}\right) {printer._print(P)} + {printer._print(q)} {printer._print(Q)}"


class Symmetrised(DistributionHead):
    """One side of the symmetrised pair of (P, Q) (:mod:`symdp.engine.symmetrised`): P̃ for ``side`` 0, Q̃ for 1. Not
    a name of the claim language: the mechanisms whose pair it is write it (``fixed_batch_gaussian``)."""

    nargs = 3
    law, signature = staticmethod(lambda P, Q, side: symmetrised.SymmetrisedLaw(P, Q, bool(side))), "lli"
    space = "side of a symmetrised pair"

    def _latex(self, printer):
        P, Q, side = self.args
        return rf"\operatorname{{sym}}_{{{1 + int(side)}}}\left({printer._print(P)}, {printer._print(Q)}\right)"


class Finite(DistributionHead):
    """A law on {1, ..., n} by its atoms."""

    name, law = "finite", staticmethod(lambda *atoms: FiniteDistribution(atoms))
    signature, space = "r+", "finite distribution"

    def _latex(self, printer):
        return r"\left(" + ", ".join(printer._print(a) for a in self.args) + r"\right)"


def quantity(name: str, nargs: int, latex: str, doc: str = "", nonnegative: bool = False,
             domain: tuple | None = None, rounding: str = "absolute") -> type[Quantity]:
    """A new divergence head (a :class:`Quantity`) that prints as ``latex``, a template with ``{0}, {1}, ...`` for
    its printed arguments. What a witness measures, as a SymPy function. ``domain`` (low, high) is where its true
    value lies (``nonnegative`` is short for ``(0, inf)``); a measurement's enclosure is intersected with it.
    ``rounding`` is how the rounding of the laws' construction moves it (:attr:`Quantity.rounding`: ``"absolute"``
    for a divergence, ``"relative"`` for a density, a probability or a moment):

    >>> Gap = quantity("Gap", 2, r"\\operatorname{{gap}}\\left({0}, {1}\\right)", "a spectral gap", nonnegative=True)
    >>> P, Q = sp.symbols("P Q")
    >>> print(sp.latex(Gap(P, Q) ** 2))
    \\left(\\operatorname{gap}\\left(P, Q\\right)\\right)^{2}
    """
    def _latex(self, printer):
        return latex.format(*(printer._print(a) for a in self.args))

    if rounding not in ("absolute", "relative"):
        raise ValueError(f"rounding must be 'absolute' or 'relative', got {rounding!r}")
    attrs = {"nargs": nargs, "_latex": _latex, "__doc__": doc or name, "__module__": __name__, "rounding": rounding}
    if nonnegative or (domain is not None and domain[0] >= 0):
        attrs["is_extended_nonnegative"] = True
        attrs["domain"] = domain or (0, mpmath.inf)
    elif domain is not None:
        attrs["domain"] = domain
    return type(name, (Quantity,), attrs)


def numeric_function(name: str, nargs: int, implementation, latex: str, doc: str = "",
                     arb=None) -> type[sp.Function]:
    """A named SymPy function whose value is a numeric procedure SymPy cannot express (a search, a root, a
    quadrature): it prints as ``latex`` (``{0}, {1}, ...`` for its arguments) and is evaluated by ``implementation``
    (mpmath in, mpmath out) when a statement is lambdified, so that what prints is what runs. ``arb`` (Arb balls in,
    an Arb ball out, a rigorous enclosure) lets a side that uses it be evaluated in ball arithmetic too
    (:func:`symdp.statement.lambdify_arb`).

    >>> Root = numeric_function("Root", 1, lambda c: mpmath.findroot(lambda x: x**3 - c, 1), r"\\sqrt[3]{{{0}}}")
    >>> from symdp.statement import lambdify_mpmath
    >>> c = sp.Symbol("c")
    >>> print(sp.latex(Root(c) + 1), lambdify_mpmath([c], Root(c) + 1)(mpmath.mpf(8)))
    \\sqrt[3]{c} + 1 3.0
    >>> print(Root(sp.Integer(2)).evalf(30))          # SymPy's evalf runs it at the precision asked for
    1.25992104989487316476721060728
    """
    def _latex(self, printer, exp=None):
        body = latex.format(*(printer._print(a) for a in self.args))
        return body if exp is None else rf"\left({body}\right)^{{{exp}}}"

    def _eval_evalf(self, prec):
        # SymPy would call the implementation at mpmath's global precision (15 digits): run it at the requested one,
        # and never below 100 bits (SymPy compares relations at a few digits, where a root search can break down).
        work = max(prec, 100)
        with mpmath.workprec(work + 20):
            args = [mpmath.mpf(str(a.evalf(mpmath.libmp.prec_to_dps(work) + 10))) for a in self.args]
            value = str(implementation(*args))
        return sp.Float(value, mpmath.libmp.prec_to_dps(prec))

    attrs = {"nargs": nargs, "_latex": _latex, "__doc__": doc or name, "_imp_": staticmethod(implementation),
             "_eval_evalf": _eval_evalf, "__module__": __name__}
    if arb is not None:
        attrs["_arb_"] = staticmethod(arb)
    return type(name, (sp.Function,), attrs)


Winf = quantity("Winf", 2, r"W_{{\infty}}\left({0}, {1}\right)", "the infinity-Wasserstein distance",
                nonnegative=True)
"""W∞(μ, ν) = inf over couplings of the essential sup of |X − Y| (Balle et al. 2019; Bravo et al., Definition 2.3)."""

QUANTITIES = (KL, Renyi, HockeyStick, TV, MaxDivergence, EpsilonFor, SubgaussianStandard, PrivacyLossOf, LossMGF)
