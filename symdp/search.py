"""The search for a statement's worst case: how close a draw comes to refuting it, and a local refinement from the
closest draws.

Random draws visit a region where a bound is tightest only by luck. :func:`symdp.verify.verify` therefore steers
its draws (``hypothesis.target`` on the :func:`closeness` of each draw) and then hands the closest draws to
:func:`refine`, a bounded Nelder–Mead search (SciPy's) over the theorem's scalar parameters, the drawn structure held
fixed, and, for a theorem with a drawn structure, to :func:`walk`, which moves the numbers inside the structure (a
law's weights, a chain's rows) through the choices hypothesis made to draw it (:class:`Choices`), so that every
point it reaches is one the theorem's own strategy builds. Every point the refinement evaluates is a draw of the
check, with its own verdict: a point it finds beyond the bound refutes the statement like any other.

A draw's provenance says how it was found (:data:`FOUND`): ``pinned`` (an instance the theorem declares),
``random`` (hypothesis's generation), ``targeted`` (hypothesis's hill climbing on the closeness), ``refined`` (this
module: :func:`refine` or :func:`walk`).
"""

from __future__ import annotations

import itertools
import math
import sys
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

import mpmath

FOUND = ("pinned", "random", "targeted", "refined")
"""How a draw was found, in the order the search runs."""


def closeness(relation: str, margin, quantity, bound) -> Optional[float]:
    """How close one draw comes to refuting its statement, scale-free: ``-margin / max(|quantity|, |bound|)``.

    0 where the two sides are equal, negative where the statement holds with room (``-1`` where a ``<=`` bound is
    positive and the quantity 0), positive where it is violated. For ``<=`` between positive sides it is
    ``ratio - 1`` with ``ratio = quantity / bound``. None where it means nothing (a side infinite or undefined, both
    sides 0).

    >>> closeness("<=", mpmath.mpf(1), mpmath.mpf(1), mpmath.mpf(2)), closeness(">=", mpmath.mpf(-3), 1, 4)
    (-0.5, 0.75)
    >>> closeness("<=", 0, 0, 0) is None
    True
    """
    values = (margin, quantity, bound)
    if not all(mpmath.isfinite(v) for v in values):
        return None
    size = max(abs(mpmath.mpf(quantity)), abs(mpmath.mpf(bound)))
    if size == 0:
        return None
    return float(-mpmath.mpf(margin) / size)


def hypothesis_phase() -> str:
    """``"targeted"`` when called (from a test body) during hypothesis's hill climbing on ``target()`` scores, else
    ``"random"``. Hypothesis does not expose its phase; its engine's ``_current_phase`` is read from the calling
    frames (an internal: a version without it reports every draw as random)."""
    frame = sys._getframe(1)
    while frame is not None:
        runner = frame.f_locals.get("self")
        if type(runner).__name__ == "ConjectureRunner":
            return "targeted" if getattr(runner, "_current_phase", "") == "target" else "random"
        frame = frame.f_back
    return "random"


@dataclass(frozen=True)
class _Axis:
    """One scalar parameter as a coordinate in [0, 1]: linear, or logarithmic for a positive range spanning two
    decades or declared ``log``."""

    name: str
    low: float
    high: float
    log: bool
    integer: bool

    def value(self, u: float):
        u = min(max(float(u), 0.0), 1.0)
        if self.log:
            x = math.exp(math.log(self.low) + u * (math.log(self.high) - math.log(self.low)))
        else:
            x = self.low + u * (self.high - self.low)
        x = min(max(x, self.low), self.high)
        return int(round(x)) if self.integer else x

    def coordinate(self, x) -> float:
        x = min(max(float(x), self.low), self.high)
        if self.log:
            return (math.log(x) - math.log(self.low)) / (math.log(self.high) - math.log(self.low))
        return (x - self.low) / (self.high - self.low)


def axes(parameters: Sequence) -> list[_Axis]:
    """The refinable parameters of a theorem (:class:`~symdp.theorem.Param`), as coordinates of the unit cube."""
    out = []
    for p in parameters:
        low, high = (float(v) for v in p.bounds())
        if p.integer:
            low, high = float(math.ceil(low)), float(math.floor(high))
        if not high > low:
            continue
        log = p.log or (low > 0 and high / low >= 100)
        out.append(_Axis(p.name, low, high, log, p.integer))
    return out


MAX_LATTICE = 4096
"""The most points :func:`lattice` lists: a domain of integers that small is drawn out point by point."""


def lattice(parameters: Sequence, near: Mapping[str, Any]) -> Optional[list[dict]]:
    """Every point of the draw ranges where each parameter is an integer (:class:`~symdp.theorem.Param`), nearest
    first to the point ``near`` (in the unit cube of the ranges, ties in the lattice's order); None where a
    parameter is real or there are more than :data:`MAX_LATTICE` points. The points are not filtered by the
    theorem's conditions: its caller admits each.

    >>> from types import SimpleNamespace as P
    >>> m, s = (P(name=n, integer=True, log=False, bounds=lambda: (1, 3)) for n in "ms")
    >>> [(x["m"], x["s"]) for x in lattice([m, s], {"m": 3, "s": 3})][:4]
    [(3, 3), (2, 3), (3, 2), (2, 2)]
    """
    if not all(p.integer for p in parameters):
        return None
    ranges = []
    for p in parameters:
        low, high = p.bounds()
        ranges.append(range(math.ceil(low), math.floor(high) + 1))
    if not ranges or math.prod(len(r) for r in ranges) > MAX_LATTICE:
        return None
    cube = {a.name: a for a in axes(parameters)}

    def distance(values) -> float:
        return sum((cube[p.name].coordinate(v) - cube[p.name].coordinate(near[p.name])) ** 2
                   for p, v in zip(parameters, values) if p.name in cube)

    points = sorted(itertools.product(*ranges), key=distance)
    return [{p.name: v for p, v in zip(parameters, values)} for values in points]


class _Spent(Exception):
    """The refinement's budget of evaluations is used up."""


def refine(parameters: Sequence, starts: Sequence[tuple[Mapping[str, Any], float]],
           evaluate: Callable[[dict], Optional[float]], budget: int) -> int:
    """Look for a closer point near each of ``starts`` (points as drawn with their closeness, closest first) within
    ``budget`` new evaluations; return how many were made.

    ``evaluate(raw)`` evaluates one point (a draw of the theorem, recorded by the caller) and returns its
    :func:`closeness`, or None where the point is not admissible or its closeness means nothing. The scalar
    parameters move in the unit cube of their draw ranges (log-scaled where :func:`axes` says), the rest of a start
    (a drawn structure, parameters with a single value) stays. Nelder–Mead runs from each start until it converges
    or the budget is spent, then once more from its best point with a smaller simplex; integer parameters move on
    the relaxation and are rounded, then their neighbours ±1 at the best point are tried. A point already evaluated
    is not evaluated again.
    """
    cube = axes(parameters)
    if not cube or budget <= 0 or not starts:
        return 0
    seen: dict[tuple, float] = {}
    spent = 0

    def point(start, u) -> dict:
        raw = dict(start)
        raw.update({a.name: a.value(x) for a, x in zip(cube, u)})
        return raw

    def key(raw) -> tuple:
        return tuple(raw[a.name] for a in cube)

    def objective_at(start, raw) -> float:
        nonlocal spent
        k = key(raw)
        if k not in seen:
            if spent >= budget:
                raise _Spent
            spent += 1
            c = evaluate(raw)
            seen[k] = math.inf if c is None else -c
        return seen[k]

    for start, known in starts:
        seen.setdefault(key(start), -known)   # the start was evaluated by the caller: never again
        x0 = [a.coordinate(start[a.name]) for a in cube]
        best = [-known, x0]

        def objective(u, start=start, best=best):
            value = objective_at(start, point(start, u))
            if value < best[0]:
                best[:] = [value, [float(v) for v in u]]
            return value

        try:
            if key(point(start, x0)) != key(start):
                # a start outside the draw ranges (a pinned point) moves into them: the point it moved to is evaluated
                best[0] = objective_at(start, point(start, x0))
            _nelder_mead(objective, best, budget)
            centre = point(start, best[1])
            for a in cube:
                if a.integer:
                    for n in (centre[a.name] - 1, centre[a.name] + 1):
                        if a.low <= n <= a.high:
                            objective_at(start, {**centre, a.name: n})
        except _Spent:
            break
    return spent


# --- the drawn structure: a walk on hypothesis's choices ----------------------------------------------------------


@dataclass(frozen=True)
class Choices:
    """The choices hypothesis made to draw one point (its choice sequence, an internal of hypothesis's engine: each
    with its type, value and constraints), and a way back from changed choices to a point.

    A point decoded from changed choices is one the theorem's strategy itself builds: every number stays within the
    bounds its strategy gave it, and the strategy's own filters and assumptions apply. That is what lets the search
    move numbers inside a drawn structure (weights of a law, rows of a chain) without leaving the theorem's
    hypotheses.
    """

    nodes: tuple

    @classmethod
    def current(cls) -> Optional["Choices"]:
        """The choices of the point being drawn (called from a test body under ``@given``); None where hypothesis
        does not expose them."""
        try:
            from hypothesis.control import current_build_context

            return cls(tuple(current_build_context().data.nodes))
        except Exception:   # an internal of hypothesis: a version without it gives no structure search
            return None

    def movable(self) -> list[tuple[int, float, float, bool, bool]]:
        """The choices a walk may move: bounded numbers, as ``(index, low, high, log, integer)`` (log where a positive
        range spans two decades; integers only over ranges of at most 1000)."""
        out = []
        for i, node in enumerate(self.nodes):
            if node.type not in ("float", "integer") or getattr(node, "was_forced", False):
                continue
            low, high = node.constraints.get("min_value"), node.constraints.get("max_value")
            if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)) or not high > low:
                continue
            integer = node.type == "integer"
            if integer and (high - low > 1000 or node.constraints.get("weights")):
                continue
            out.append((i, float(low), float(high), low > 0 and high / low >= 100, integer))
        return out

    def decode(self, strategy, values: Mapping[int, Any]) -> Optional[Any]:
        """The point the strategy draws from these choices with ``values`` (index → new value) in place; None where
        it cannot (a filter asks for more choices than there are, a choice lands elsewhere than where it was)."""
        from hypothesis.control import BuildContext
        from hypothesis.errors import StopTest, UnsatisfiedAssumption
        from hypothesis.internal.conjecture.data import ConjectureData

        choices = [values.get(i, node.value) for i, node in enumerate(self.nodes)]
        data = ConjectureData.for_choices(choices)
        try:
            with BuildContext(data, is_final=False, wrapped_test=None):
                drawn = data.draw(strategy)
        except (StopTest, UnsatisfiedAssumption):
            return None
        return None if getattr(data, "misaligned_at", None) is not None else drawn


def walk(starts: Sequence[tuple[Choices, float]], strategy, evaluate: Callable[[dict], Optional[float]], budget: int,
         seed: int = 0) -> int:
    """Look for a closer point near each of ``starts`` (the choices of drawn points with their closeness, closest
    first) by moving the bounded numbers of their choices — a drawn structure's as well as the scalar parameters' —
    within ``budget`` evaluations; return how many were made.

    The moved choices live in a unit cube (log-scaled where a range spans two decades; integers rounded). Where the
    budget left pays for a simplex, Nelder–Mead runs as in :func:`refine` (a twentieth of the cube, then a
    hundredth); otherwise (a structure of many numbers: a chain's rows) a (1+1) evolution strategy moves one to three
    of them at a time by a Gaussian step, growing the step after a closer point and shrinking it after a miss. Each
    point is decoded through the theorem's own strategy (:meth:`Choices.decode`), so it is a point the theorem allows,
    then ``evaluate``-d like any draw; a point already evaluated is not evaluated again. Seeded: the same run walks
    the same way.
    """
    import random

    rng = random.Random(seed)
    spent = 0
    for choices, known in starts:
        moves = choices.movable() if choices is not None else []
        if not moves or spent >= budget:
            continue
        seen: dict[tuple, float] = {}

        def objective(u, choices=choices, moves=moves) -> float:
            """Minus the closeness at the choices ``u`` (inf where no admissible point comes of them)."""
            nonlocal spent
            values = {i: _from_unit(x, low, high, log, integer) for (i, low, high, log, integer), x in zip(moves, u)}
            k = tuple(values[i] for i, *_ in moves)
            if k not in seen:
                if spent >= budget:
                    raise _Spent
                spent += 1
                raw = choices.decode(strategy, values)
                found = None if raw is None else evaluate(raw)
                seen[k] = math.inf if found is None else -found
            return seen[k]

        x0 = [_unit(choices.nodes[i].value, low, high, log) for i, low, high, log, _ in moves]
        seen[tuple(choices.nodes[i].value for i, *_ in moves)] = -known   # evaluated by the caller
        best = [-known, x0]
        try:
            if len(moves) + 1 < budget - spent:
                def tracked(u, best=best) -> float:
                    value = objective(u)
                    if value < best[0]:
                        best[:] = [value, [float(v) for v in u]]
                    return value

                _nelder_mead(tracked, best, budget)
            else:
                step = 0.2
                for _ in range(4 * budget):   # (a trial may land on a point already seen, at no cost: bounded)
                    trial = list(best[1])
                    for j in rng.sample(range(len(moves)), min(len(moves), 1 + rng.randrange(3))):
                        trial[j] = min(1.0, max(0.0, trial[j] + rng.gauss(0, step)))
                    value = objective(trial)
                    if value < best[0]:
                        best[:] = [value, trial]
                        step = min(0.5, 2 * step)
                    else:
                        step = max(1e-6, 0.7 * step)
        except _Spent:
            break
    return spent


def _nelder_mead(objective: Callable[[list], float], best: list, budget: int) -> None:
    """SciPy's bounded Nelder–Mead in the unit cube from ``best[1]`` (``best`` = [value, point], which ``objective``
    keeps up to date): a first simplex a twentieth of the cube wide, then one a hundredth wide from the best point —
    a restart undoes Nelder–Mead's collapse onto a face of the cube or a ridge."""
    from scipy.optimize import minimize

    for step in (0.05, 0.01):
        x = best[1]
        simplex = [x] + [[v + (step if j == i and v + step <= 1 else -step if j == i else 0)
                          for j, v in enumerate(x)] for i in range(len(x))]
        minimize(objective, x, method="Nelder-Mead", bounds=[(0.0, 1.0)] * len(x),
                 options={"initial_simplex": simplex, "xatol": 1e-7, "fatol": 1e-9, "maxfev": budget})


def _unit(value, low: float, high: float, log: bool) -> float:
    value = min(max(float(value), low), high)
    if log:
        return (math.log(value) - math.log(low)) / (math.log(high) - math.log(low))
    return (value - low) / (high - low)


def _from_unit(x: float, low: float, high: float, log: bool, integer: bool):
    x = float(x)    # (SciPy hands numpy floats, which hypothesis's choices refuse)
    value = math.exp(math.log(low) + x * (math.log(high) - math.log(low))) if log else low + x * (high - low)
    value = min(max(value, low), high)
    return int(round(value)) if integer else value
