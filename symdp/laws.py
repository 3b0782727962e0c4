"""Concrete laws in a statement, measured by the engine: no witness is written for them.

A statement that names concrete laws — ``Renyi(Gaussian(Delta, sigma), Gaussian(0, sigma), alpha)``, a claim's
``kl(laplace(0, b), laplace(1, b))`` — is measured by building the laws from the draw (each head's
:attr:`~symdp.expressions.DistributionHead.law`) and asking the engine's one door
(:func:`symdp.engine.divergences.divergence`) for the divergence, by the method the theorem's evidence asks for.
A printed head may also be *mapped* to concrete laws (``R(μK‖νK)`` measured as ``Renyi(Gaussian(Δ, s), Gaussian(0,
s), α)``): the statement prints as the paper does, and the engine measures what it stands for.

>>> import sympy as sp, mpmath
>>> from symdp.expressions import KL, Gaussian
>>> from symdp.theorem import Param
>>> s = sp.Symbol("s", positive=True)
>>> head = KL(Gaussian(0, s), Gaussian(1, s))
>>> measure = LawWitness([head], [Param(s, sp.Interval(1, 2))], method="densities")
>>> with mpmath.workdps(20):
...     value = measure({"s": mpmath.mpf(1)})[head].value   # 1/(2 s^2), integrated from the densities
>>> print(value.value, value.method)
0.5 certified
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Callable, Mapping, Optional, Sequence

import mpmath

from symdp.engine.divergences import AUTO, Kind, divergence, mixture, rule
from symdp.errors import InvalidParameter, SymdpError, reason
from symdp.estimate import Estimate
from symdp.numeric import to_mpf

# SymPy and the divergence heads are imported by the functions that read statements: an accountant that measures
# engine laws (:func:`measure`, :func:`probability_level`; ``symdp dpsgd``) never needs them, and they cost most of a
# second to import.
if TYPE_CHECKING:
    import sympy as sp

    from symdp.expressions import DistributionHead, Quantity


@functools.cache
def _kinds() -> Mapping[type, str]:
    """:data:`KINDS`, built on first use (it is keyed by the divergence heads, which import SymPy)."""
    from symdp.expressions import KL, TV, EpsilonFor, HockeyStick, LossMGF, MaxDivergence, Renyi

    return {KL: "kl", Renyi: "renyi", HockeyStick: "hockey_stick", TV: "tv", MaxDivergence: "max_divergence",
            LossMGF: "loss_mgf", EpsilonFor: "approximate_max_divergence"}


def __getattr__(name: str):
    """``KINDS``: the divergence heads the engine measures between concrete laws, and the engine's name for each
    (built on first use, :func:`_kinds`)."""
    if name == "KINDS":
        return _kinds()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def clamped_at_zero(estimate: Estimate) -> Estimate:
    """max(0, x) of a measured x: the enclosure [a, b] of x becomes [max(0, a), max(0, b)] (an ε for a given δ is
    never negative, though the engine's least ε of a product pair may be, where δ exceeds δ(0)).

    >>> e = clamped_at_zero(Estimate(mpmath.mpf(-1), mpmath.mpf(2), certified=True))
    >>> e.value - e.error, e.value + e.error, e.certified
    (mpf('0.0'), mpf('1.0'), True)
    >>> clamped_at_zero(Estimate(-mpmath.inf, mpmath.mpf(0), certified=True)).value
    mpf('0.0')
    """
    low, high = estimate.value - estimate.error, estimate.value + estimate.error
    if low >= 0:
        return estimate
    if not high > 0:
        return Estimate(mpmath.mpf(0), mpmath.mpf(0), estimate.method, certified=estimate.certified)
    with mpmath.workprec(mpmath.mp.prec + 10):   # [0, high] as centre and radius, rounded outward
        half = mpmath.fdiv(high, 2, rounding="u")
    return Estimate(half, half, estimate.method, certified=estimate.certified)


def probability_level(delta, what: str = "delta of epsilon_for") -> mpmath.mpf:
    """δ as a number in (0, 1), or a one-line error naming it (at δ = 0 the ε may be infinite, at δ ≥ 1 every ε
    will do).

    >>> probability_level(1.5)
    Traceback (most recent call last):
    ...
    symdp.errors.InvalidParameter: delta of epsilon_for must lie in (0, 1), got 1.5
    """
    value = to_mpf(delta, what)
    if not 0 < value < 1:
        raise InvalidParameter(f"{what} must lie in (0, 1), got {mpmath.nstr(value, 10)}")
    return value


WIDTH_KINDS = frozenset({Kind.HOCKEY_STICK, Kind.TV, Kind.APPROXIMATE_MAX_DIVERGENCE})
"""The quantities an accountant brackets to a requested relative width (``width=``, where the laws' rule takes it)."""


def _takes_width(kind: Kind, P, Q) -> bool:
    """Whether the door takes ``width=`` for this quantity of these laws: a keyword of the door itself, or an option
    of the laws' rule."""
    import inspect

    return "width" in inspect.signature(divergence).parameters or "width" in rule(P, Q).options.get(kind, ())


def measure(kind, P, Q, *args, method=AUTO, width=None, **options) -> Estimate:
    """The engine's ``kind(P‖Q, *args)`` through its door, with ``width`` (the relative width of the enclosure to
    reach) passed where the laws' rule brackets that quantity; exact and closed-form routes ignore it. An ε for a
    given δ (``approximate_max_divergence``) is checked to have δ in (0, 1) and is clamped at 0.

    >>> from symdp.engine.continuous import Gaussian
    >>> print(mpmath.nstr(measure("kl", Gaussian(0, 1), Gaussian(1, 1), width=1e-3).value, 10))
    0.5
    """
    kind = Kind(kind)
    if kind == Kind.APPROXIMATE_MAX_DIVERGENCE:
        args = (probability_level(args[0]), *args[1:])
    if width is not None and kind in WIDTH_KINDS and _takes_width(kind, P, Q):
        options["width"] = width
    value = divergence(kind, P, Q, *args, method=method, **options)
    return clamped_at_zero(value) if kind == Kind.APPROXIMATE_MAX_DIVERGENCE else value


def _centred(head: sp.Basic) -> bool | None:
    """For a loss MGF ``LossMGF(P, Q, λ, c)``: whether c is the centring D_KL(P‖Q) (True) or 0 (False); None for any
    other shift (not measured by the engine)."""
    from symdp.expressions import KL

    P, Q, _, shift = head.args
    return False if shift == 0 else True if shift == KL(P, Q) else None


def concrete(head: sp.Basic) -> bool:
    """Whether ``head`` is a divergence between concrete laws (distribution heads), which the engine can measure."""
    from symdp.expressions import DistributionHead, LossMGF

    return (type(head) in _kinds() and all(isinstance(D, DistributionHead) for D in head.args[:2])
            and (type(head) is not LossMGF or _centred(head) is not None))


def _numbers(head: Quantity) -> tuple:
    """The numeric arguments of a divergence head after its two laws (a loss MGF's: λ; its shift says centred)."""
    from symdp.expressions import LossMGF

    return head.args[2:3] if type(head) is LossMGF else head.args[2:]


def space(D: DistributionHead) -> tuple[str, Optional[int]]:
    """Where a law lives, and for a finite law its number of atoms: the kinds of law a divergence may not mix.

    >>> from symdp.expressions import Compose, DiscreteLaplace, Finite, Gaussian, Mix
    >>> space(Finite(1, 0)), space(DiscreteLaplace(0, 1)), space(Compose(3, Mix(0, Gaussian(0, 1), Gaussian(1, 1))))
    (('finite distribution', 2), ('law on the integers', None), ('product of continuous distributions', None))
    """
    from symdp.expressions import Compose, Finite, Mix, ProductOf

    if isinstance(D, Finite):
        return D.space, len(D.args)
    if isinstance(D, Mix):
        return space(D.args[1])
    if isinstance(D, (Compose, ProductOf)):   # where its factors live (the engine compares them coordinatewise)
        kinds = sorted(_factor_spaces(D))
        return "product of " + (f"{kinds[0]}s" if len(kinds) == 1 else "mixed laws"), None
    return D.space, None


def _factor_spaces(D: DistributionHead) -> set[str]:
    """Where the factors of a product live, through nested products (a law that is no product: where it lives)."""
    from symdp.expressions import Compose, DistributionHead, ProductOf

    if not isinstance(D, (Compose, ProductOf)):
        return {space(D)[0]}
    return set().union(*(_factor_spaces(a) for a in D.args if isinstance(a, DistributionHead)))


def compile_law(D: DistributionHead, args: list) -> Callable:
    """``values -> the engine's law``, with the numeric arguments lambdified once."""
    from symdp.expressions import DistributionHead, Mix
    from symdp.statement import lambdify_mpmath

    if isinstance(D, Mix):
        q, first, second = lambdify_mpmath(args, D.args[0]), *(compile_law(x, args) for x in D.args[1:])
        return lambda values: mixture(q(*values), first(values), second(values))
    laws = [compile_law(a, args) if isinstance(a, DistributionHead) else None for a in D.args]
    if not any(laws):
        numbers = lambdify_mpmath(args, list(D.args))
        return lambda values: D.law(*numbers(*values))
    numeric = [a for a in D.args if not isinstance(a, DistributionHead)]
    numbers = lambdify_mpmath(args, numeric) if numeric else (lambda *values: [])

    def build(values):   # a law of laws (a product): its factors built first
        given = iter(numbers(*values))
        return D.law(*(law(values) if law else next(given) for law in laws))
    return build


def compile_divergence(head: Quantity, args: list, method=AUTO, width=None) -> Callable:
    """``values -> Estimate`` of a :func:`concrete` divergence head (by :func:`measure`: ``width`` is the relative
    width of enclosure to reach where the engine brackets the quantity)."""
    from symdp.expressions import LossMGF
    from symdp.statement import lambdify_mpmath

    kind = _kinds()[type(head)]
    P, Q = (compile_law(D, args) for D in head.args[:2])
    extra = lambdify_mpmath(args, list(_numbers(head)))
    in_balls = _renyi_in_balls(head, args)
    if in_balls is not None:
        from symdp.engine.certified import renyi_order

        def measured(values):
            P(values), Q(values), renyi_order(*extra(*values))   # the laws' and the order's checks, as the engine's
            return in_balls(values)
        return measured
    options = {"centred": _centred(head)} if type(head) is LossMGF else {}
    return lambda values: measure(kind, P(values), Q(values), *extra(*values), method=method, width=width, **options)


def _quadratic_family(D) -> bool:
    """Whether a law head is a family whose log-density is one quadratic in x (the Gaussian), with numbers for
    arguments: a law that can be built in balls (:meth:`~symdp.engine.continuous.Declared.ball_log_quadratic`)."""
    from symdp.engine.continuous import Declared
    from symdp.expressions import DistributionHead

    family = getattr(D, "law", None)
    if not (isinstance(family, type) and issubclass(family, Declared)) or D.rounded:
        return False
    if any(isinstance(a, DistributionHead) for a in D.args):
        return False
    compiled = family._compiled()
    return len(compiled.quadratic) == 1 and compiled.quadratic[0] is not None


def _renyi_in_balls(head: Quantity, args: list) -> Optional[Callable]:
    """``values -> Estimate`` of ``R_α(P‖Q)`` with both laws built in balls, where the laws' numbers are computed
    from the draw (``Gaussian(Δ, √(σ₁² + σ₂²))``, which an mpf would round): the numbers evaluated in Arb balls
    (:func:`~symdp.statement.lambdify_arb`), each log-density from its family's declaration at them, and ``∫ p^α
    q^(1-α)`` of the densities in closed form (:func:`~symdp.engine.certified.renyi_of_log_quadratics`), with more
    bits until the ball is sharp: a certified enclosure of the divergence of the exact laws, marked built exactly
    (:func:`built_exactly`). None where the head is not a Rényi divergence of two such laws, or its numbers are
    already exact (the engine's own route measures them)."""
    import sympy as sp

    from symdp.engine.certified import BOOST_BITS, renyi_of_log_quadratics
    from symdp.estimate import GUARD_BITS, Method, exact_ball, sharp_ball
    from symdp.statement import lambdify_arb

    if not _built_in_balls(head):
        return None
    P, Q = head.args[:2]
    numbers = [lambdify_arb(args, sp.Tuple(*D.args)) for D in (P, Q)]
    numbers.append(lambdify_arb(args, sp.Tuple(*_numbers(head))))

    def compute(values):
        balls = [exact_ball(v) for v in values]
        p_numbers, q_numbers, (order,) = (f(*balls) for f in numbers)
        value = renyi_of_log_quadratics(P.law.ball_log_quadratic(*p_numbers), Q.law.ball_log_quadratic(*q_numbers),
                                        order)
        if value is None:
            raise InvalidParameter(f"the balls leave the Rényi integral of {head} undecided")
        return value

    def measured(values):
        values = [to_mpf(v) for v in values]   # (the draw's numbers at the working precision, before more bits)
        return Estimate.from_arb(sharp_ball(lambda: compute(values), GUARD_BITS, BOOST_BITS), Method.CERTIFIED)
    return measured


def _built_in_balls(head: Quantity) -> bool:
    """Whether :func:`_renyi_in_balls` measures ``head``: a Rényi divergence of two laws of one-piece
    log-quadratic families, some number of which is computed from the draw, every number evaluable in balls."""
    from symdp.statement import arb_evaluable

    if _kinds().get(type(head)) != Kind.RENYI or not all(_quadratic_family(D) for D in head.args[:2]):
        return False
    numbers = [a for D in head.args[:2] for a in D.args] + list(_numbers(head))
    return not all(_binary(a) for a in numbers) and all(arb_evaluable(a) for a in numbers)


def _binary(expr: sp.Expr) -> bool:
    """Whether a law's numeric argument is built without rounding: a parameter (the drawn binary number), an integer,
    or a fraction with a power-of-two denominator (``0.75``)."""
    if expr.is_Symbol or expr.is_Integer:
        return True
    return bool(expr.is_Rational and expr.q & (expr.q - 1) == 0)


def built_exactly(head: Quantity) -> bool:
    """Whether the laws a divergence head compares are built exactly from the draw (every numeric argument
    :func:`_binary`; a finite mixture's atoms are computed, and a product is reduced, so they are not), or built in
    balls (:func:`_renyi_in_balls`: Gaussians whose numbers are computed), and so carry no rounding of their own.

    >>> import sympy as sp
    >>> from symdp.expressions import KL, Finite, Gaussian
    >>> s = sp.Symbol("s")
    >>> built_exactly(KL(Gaussian(0, s), Gaussian(1, s))), built_exactly(KL(Finite(sp.Rational(1, 3)), Finite(1)))
    (True, False)
    >>> from symdp.expressions import Renyi
    >>> root = sp.sqrt(s)
    >>> P, Q = Gaussian(1, root), Gaussian(0, root)
    >>> built_exactly(KL(P, Q)), built_exactly(Renyi(P, Q, 2))
    (False, True)
    """
    from symdp.expressions import Finite, Mix

    def exact(D) -> bool:
        if isinstance(D, Mix):
            return space(D)[0] != Finite.space and _binary(D.args[0]) and exact(D.args[1]) and exact(D.args[2])
        if D.rounded:
            return False   # a product the engine reduces, a law normalised by a computed sum
        return all(_binary(a) for a in D.args)

    P, Q = head.args[:2]
    return (exact(P) and exact(Q) and all(_binary(a) for a in _numbers(head))) or _built_in_balls(head)


class LawWitness:
    """Measures divergence heads between concrete laws: the laws built from the parameters, the divergence computed
    by the engine (``method``: ``"auto"`` for a claim, ``"densities"`` for an independent check). A head whose laws
    are :func:`built_exactly` is marked so (:class:`~symdp.statement.BuiltExactly`).

    ``heads`` are measured and reported under ``printed`` (the heads as the statement prints them; the same by
    default); ``guards`` are computed only to validate their laws (a divergence simplified out of a claim);
    ``width`` is the relative width of enclosure to reach where the engine brackets a quantity (:func:`measure`).
    """

    def __init__(self, heads: Sequence[Quantity], params: Sequence, guards: Sequence[Quantity] = (),
                 method=AUTO, printed: Optional[Sequence[sp.Basic]] = None, width=None):
        import sympy as sp

        from symdp.statement import rename

        self.names = [p.name for p in params]
        # In generated code, _p0, _p1, ... stand for the parameters (user names never start with _), so a parameter
        # may be named like an mpmath function (mpf, max) without shadowing it.
        args = [sp.Symbol(f"_p{i}", real=True) for i in range(len(params))]
        renaming = {p.symbol: a for p, a in zip(params, args)}
        self.heads = list(printed if printed is not None else heads)
        self.divergences = [compile_divergence(rename(h, renaming), args, method, width) for h in heads]
        self.exact = [built_exactly(h) for h in heads]
        self.guards = [compile_divergence(rename(g, renaming), args, method, width) for g in guards]

    def __call__(self, point, skip=()) -> dict:
        """The measurements at a draw, but for the heads in ``skip`` (measured otherwise)."""
        from symdp.statement import BuiltExactly

        values = [point[n] for n in self.names]
        try:
            for guard in self.guards:
                guard(values)
            return {h: BuiltExactly(d(values)) if exact else d(values)
                    for h, d, exact in zip(self.heads, self.divergences, self.exact) if h not in skip}
        except SymdpError:
            raise
        except (ZeroDivisionError, OverflowError, ValueError, TypeError) as e:
            raise InvalidParameter(f"cannot build the laws: {reason(e)}") from None
