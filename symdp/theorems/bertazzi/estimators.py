"""Bertazzi, Johnston, Roberts, Durmus (2025), Section 3.2 and Appendix A.3–A.4: noisy Monte Carlo estimators:
Assumptions 3.5, 3.6, 3.8, 3.9, A.4, Propositions 3.7, 3.10, A.5, the variance display after Assumption 3.6 (erratum
E2) and the identity of the proof of Proposition 3.10.

The estimator is the ergodic average of ``f = 1{x = 1}`` along a two-state chain ``P = [[1 - a, a], [b, 1 - b]]``
started at ``x_0``, released with Laplace noise of scale ``eta/epsilon``. The average takes the values ``k/N``; its
law is exact (rationals), by dynamic programming over (state, running count) (:func:`average_law`), and for two
datasets run on common uniforms (the synchronous coupling) over (state, state', count, count')
(:func:`coupled_average_laws`). The released law is then a finite mixture of Laplace laws (:func:`released_law`),
whose hockey-stick divergences are sums of differences of the Laplace CDFs between the atoms, in ball arithmetic
(:func:`laplace_mixture_hockey_stick`), and whose moments Arb integrates from the density (:func:`released_moments`):
every measurement is a certified ball.

>>> from fractions import Fraction as F
>>> average_law(F(1, 2), F(1, 2), 0, 2)           # two fair steps: the count of ones is Binomial(2, 1/2)
{0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction

import mpmath
import sympy as sp
from flint import acb, arb, ctx
from hypothesis import strategies as st

from symdp.engine.continuous import Laplace, Mixture
from symdp.engine.divergences import divergence
from symdp.engine.markov import FiniteChain
from symdp.errors import InvalidParameter
from symdp.estimate import Estimate, Method, arb_precision, enclosure
from symdp.expressions import MaxDivergence, quantity
from symdp.numeric import to_mpf
from symdp.statement import BuiltExactly
from symdp.proofs.bertazzi.estimators import square_of_complement, tilde_delta
from symdp.symbols import Law, delta, epsilon, eta
from symdp.theorems.bertazzi.common import ball, exact_fraction
from symdp.theorem import (
    IDENTITY,
    Param,
    Printed,
    Setting,
    declare,
    registered,
    theorem,
)

C = sp.Symbol("C", positive=True)
gamma_f = sp.Symbol(r"\gamma_{f}", nonnegative=True)
shift = sp.Symbol(r"\Delta_{ab}", nonnegative=True)
"""|a − b| of Assumption 3.5's two scalars, as a fraction of eta drawn by the setting."""

DeltaA = quantity("DeltaA", 1, r"\delta_{{\mathcal{{A}}}}\left({0}\right)",
                  "The least delta for which the released estimator is (epsilon, delta)-DP on the pair (D, D'): the "
                  "larger of the two hockey-stick divergences D_{e^eps}(A(D)||A(D')) and D_{e^eps}(A(D')||A(D)).",
                  domain=(0, 1))
VarOut = quantity("VarOut", 0, r"\operatorname{{Var}}\left(\mathcal{{A}}(\mathcal{{D}})\right)",
                  "The variance of the released estimator, by certified integration of its density.", nonnegative=True,
                  rounding="relative")
VarAvg = quantity("VarAvg", 0, r"\operatorname{{Var}}\left(\frac{{1}}{{N}}\sum_{{n=1}}^{{N}} f(X_n^{{\mathcal{{D}}}})"
                  r"\right)", "The variance of the ergodic average, from its exact law.", nonnegative=True,
                  rounding="relative")
StationaryGap = quantity("StationaryGap", 0, r"\left|\pi_{{\mathcal{{D}}}}(f) - \pi_{{\mathcal{{D}}'}}(f)\right|",
                         "|pi_D(f) - pi_D'(f)|, pi the solution of pi P = pi, sum pi = 1.", domain=(0, 1),
                         rounding="relative")
CloseAverages = quantity("CloseAverages", 1, r"\mathbb{{P}}\left(\left|\frac{{1}}{{N}}\sum_{{n=1}}^{{N}} "
                         r"f(X^{{\mathcal{{D}}}}_n) - \frac{{1}}{{N}}\sum_{{n=1}}^{{N}} "
                         r"f(X^{{\mathcal{{D}}'}}_n)\right| "
                         r"\le {0}\right)", "P(|average_D - average_D'| <= eta) under a coupling.", domain=(0, 1))
Concentrated = quantity("Concentrated", 1, r"\mathbb{{P}}\left(\left|\frac{{1}}{{N}}\sum_{{n=1}}^{{N}} "
                        r"f(X^{{\mathcal{{D}}}}_n) - \pi_{{\mathcal{{D}}}}(f)\right| \le {0}\right)",
                        "P(|average_D - pi_D(f)| <= C).", domain=(0, 1))
CloseG = quantity("CloseG", 1, r"\mathbb{{P}}\left(\left|g_{{\mathcal{{D}}}} - g_{{\mathcal{{D}}'}}\right| \le "
                  r"{0}\right)", "P(|g_D - g_D'| <= eta) under a coupling.", domain=(0, 1))
A_LEFT, A_RIGHT = Law(r"a + L_{\eta}"), Law(r"b + L_{\eta}")

P_EPS = Param(epsilon, sp.Interval.open(0, sp.oo), sample=(0.1, 4.0), limit=(
    r"the Laplace mechanism's statements are scale-free in eta/epsilon; for Propositions 3.7 and 3.10 the worst "
    r"ratios sit inside the range or at its low end: below 0.1 they rise by under 5e-5 and 0.0011 (the eta -> 0 "
    r"and C -> 0 limits, see eta and C), and above 4 they fall (on their worst chains: 0.89 and 0 at epsilon = 8, "
    r"0.34 and 0 at 16)"))
P_ETA = Param(eta, sp.Interval.open(0, sp.oo), sample=(0.01, 1.0), limit=(
    r"not widened yet (see epsilon): f = 1{x = 1}, so the averages lie in [0, 1] and an eta beyond 1 bounds every "
    r"difference of them (Proposition 3.7); Assumption 3.5 draws its pair as a fraction of eta; below 0.01 "
    r"Proposition 3.7's ratio rises by under 0.0006, to its eta -> 0 limit TV/P(S_N != S'_N) <= 0.994547 (0.99395 "
    r"at eta = 0.01, pinned)"))
P_C = Param(C, sp.Interval.open(0, sp.oo), sample=(1e-3, 0.5), log=True, limit=(
    r"f = 1{x = 1} takes values in [0, 1], so a C beyond 1 is met with probability 1; below 1e-3 Proposition 3.10's "
    r"ratio moves by under 0.0011: as C -> 0 (and epsilon -> 0 with C/epsilon -> 0) it tends to TV(S_N, S'_N)/"
    r"(2 tilde-delta - tilde-delta^2) on chains with gamma_f = 0, at most 0.80808 on the setting (a = b = 0.1, "
    r"a' = b' = 0.9, N = 2), against 0.80702 at C = 1e-3, epsilon = 0.1 (pinned)"))


# --- exact laws of the ergodic average --------------------------------------------------------------------------

def _up(p_a, p_b, state):
    """P(next state = 1 | state) of the chain [[1 - a, a], [b, 1 - b]]."""
    return p_a if state == 0 else 1 - p_b


def _probability(value, name: str) -> Fraction:
    p = Fraction(value) if isinstance(value, (Fraction, int)) else Fraction(str(to_mpf(value, name)))
    if not 0 <= p <= 1:
        raise InvalidParameter(f"{name} must be a probability in [0, 1], got {p}")
    return p


def average_law(a, b, x0: int, N: int) -> dict[int, Fraction]:
    """The exact law of S_N = Σ_{n=1}^N 1{X_n = 1} (so of the average S_N/N) for the chain [[1 − a, a], [b, 1 − b]]
    from X_0 = x0, by dynamic programming over (state, count): {count: probability}."""
    a, b = _probability(a, "a"), _probability(b, "b")
    if x0 not in (0, 1) or int(N) < 1:
        raise InvalidParameter(f"need x0 in {{0, 1}} and N >= 1, got x0={x0!r}, N={N!r}")
    law = {(x0, 0): Fraction(1)}
    for _ in range(int(N)):
        step: dict = {}
        for (state, count), p in law.items():
            up = _up(a, b, state)
            for nxt, q in ((1, up), (0, 1 - up)):
                if q:
                    step[nxt, count + nxt] = step.get((nxt, count + nxt), 0) + p * q
        law = step
    counts: dict[int, Fraction] = {}
    for (_, count), p in law.items():
        counts[count] = counts.get(count, 0) + p
    return dict(sorted(counts.items()))


def coupled_average_laws(first, second, x0: int, N: int) -> dict[tuple[int, int], Fraction]:
    """The exact joint law of (S_N, S'_N) for two chains ``first = (a, b)`` and ``second = (a', b')`` from the same
    X_0 = x0, driven by common uniforms U_n (X_{n+1} = 1{U_n < P(1 | X_n)}, the synchronous coupling)."""
    (a, b), (a2, b2) = [tuple(_probability(v, name) for v, name in zip(pair, "ab")) for pair in (first, second)]
    law = {(x0, x0, 0, 0): Fraction(1)}
    for _ in range(int(N)):
        step: dict = {}
        for (s, s2, k, k2), p in law.items():
            u, u2 = _up(a, b, s), _up(a2, b2, s2)
            moves = ((1, 1, min(u, u2)), (1, 0, max(u - u2, 0)), (0, 1, max(u2 - u, 0)), (0, 0, 1 - max(u, u2)))
            for n1, n2, q in moves:
                if q:
                    key = (n1, n2, k + n1, k2 + n2)
                    step[key] = step.get(key, 0) + p * q
        law = step
    joint: dict[tuple[int, int], Fraction] = {}
    for (_, _, k, k2), p in law.items():
        joint[k, k2] = joint.get((k, k2), 0) + p
    return joint


def released_law(atoms: Mapping, scale) -> Mixture | Laplace:
    """The law of g + Lap(scale), g the finite law {location: probability}: a mixture of Laplace laws."""
    items = [(to_mpf(x, "location"), to_mpf(p, "probability")) for x, p in sorted(atoms.items()) if p]
    law, weight = Laplace(items[0][0], scale), items[0][1]
    for x, p in items[1:]:
        weight += p
        law = Mixture(p / weight, law, Laplace(x, scale))
    return law


def laplace_mixture_hockey_stick(first: Mapping, second: Mapping, scale, eps) -> Estimate:
    """D_{e^eps}(g + Lap(scale) || g' + Lap(scale)) for finite laws g, g' ({location: probability}), by the CDFs of
    the two densities, in ball arithmetic. Between consecutive atoms 2s(p − e^eps q)(y) = A e^{y/s} + B e^{−y/s}
    changes sign at most once, at y = (s/2) log(−B/A), so the integral of its positive part is a sum of CDF
    differences (:func:`_positive_mass`).

    Everything is taken as the rational it is (locations, probabilities, the scale, eps), so that A, B and the
    density at an atom are sums Σ c_k e^{a_k} with rational c_k and a_k: terms with one exponent are added exactly,
    and such a sum is exactly 0 or, by Lindemann–Weierstrass, nonzero, which its ball decides. The signs that choose
    each piece's case are decided so (:func:`_sign`), and laws whose divergence is 0 (equal laws, a Laplace pair at
    the shift eps·scale) give an exact 0. A certified enclosure.

    >>> with mpmath.workdps(20):   # closed form 1 − e^{(eps − Delta/s)/2} for a Laplace shift Delta > eps·s
    ...     print(mpmath.nstr(laplace_mixture_hockey_stick({0: 1}, {1: 1}, mpmath.mpf("0.5"), 1).value, 18),
    ...           mpmath.nstr(1 - mpmath.exp(mpmath.mpf(-0.5)), 18))
    0.393469340287366576 0.393469340287366576
    """
    s, e = exact_fraction(scale), exact_fraction(eps)
    if not s > 0:
        raise InvalidParameter(f"the Laplace scale must be positive, got {float(s)}")
    terms: dict = {}   # location -> [(coefficient, exponent)]: p e^0 from the first law, −q e^eps from the second
    for law, shift, sign in ((first, Fraction(0), 1), (second, e, -1)):
        for x, p in law.items():
            if p:
                terms.setdefault(exact_fraction(x), []).append((sign * exact_fraction(p), shift))
    atoms = sorted(terms)

    def coefficient(located, direction):   # Σ_x Σ c e^{shift + direction·x/s}
        return _grouped((c, a + direction * x / s) for x in located for c, a in terms[x])

    def compute():
        total = arb(0)
        for i in range(len(atoms) + 1):
            low, high = (atoms[i - 1] if i else None), (atoms[i] if i < len(atoms) else None)
            total += _positive_mass(coefficient(atoms[i:], -1), coefficient(atoms[:i], 1), low, high, s)
        return total
    return enclosure(compute, Method.EXACT)


def _grouped(terms) -> dict:
    """Σ c_k e^{a_k} as {a: Σ c}, rationals added exactly, zero coefficients dropped ({}: exactly 0)."""
    grouped: dict = {}
    for c, a in terms:
        grouped[a] = grouped.get(a, 0) + c
    return {a: c for a, c in grouped.items() if c}


def _value(sum_: dict, shift=Fraction(0)):
    """The ball of Σ c e^{a + shift}."""
    return sum((ball(c) * ball(a + shift).exp() for a, c in sum_.items()), arb(0))


def _sign(sum_: dict, shift=Fraction(0)):
    """The sign of Σ c e^{a + shift} (0 exactly for no terms), decided by its ball, with more bits if needed; None
    where even those do not decide it."""
    if not sum_:
        return 0
    for extra in (0, 64, 256):
        with arb_precision(ctx.prec + extra):
            value = _value(sum_, shift)
        if value > 0 or value < 0:
            return 1 if value > 0 else -1
    return None


def _mass(A: dict, B: dict, low, high, s):
    """∫_low^high (A e^{y/s} + B e^{−y/s}) dy/(2s) as a ball (low, high rationals, or balls for a root, None for ∓∞:
    then the growing term has no coefficient): (A e^{high/s}(1 − e^{(low − high)/s}) + B e^{−low/s}(1 − e^{(low −
    high)/s}))/2."""
    s_ = ball(s)
    gap = None if low is None or high is None else -((ball(low) - ball(high)) / s_).expm1()
    total = arb(0)
    if A:
        total += _value(A) * (ball(high) / s_).exp() * (1 if gap is None else gap)
    if B:
        total += _value(B) * (-ball(low) / s_).exp() * (1 if gap is None else gap)
    return total / 2


def _positive_mass(A: dict, B: dict, low, high, s):
    """∫_low^high (A e^{y/s} + B e^{−y/s})_+ dy/(2s) as a ball. With A, B of one sign the piece is all positive or all
    not; where A > 0 > B the integrand grows through its root r = (s/2) log(−B/A), so its signs at the ends say
    whether r lies inside (A < 0 < B: the mirror image); all decided exactly (:func:`_sign`). Where a sign is not
    decided, r is kept in [low, high] by ball max/min, and a coefficient of undecided sign makes the piece's mass
    [0, its bound by A₊e^{y/s} + B₊e^{−y/s}]."""
    a, b = _sign(A), _sign(B)
    if a is None or b is None:
        upper = arb(0)
        if A:
            upper += _value(A).nonnegative_part().upper() * _mass({Fraction(0): 1}, {}, low, high, s)
        if B:
            upper += _value(B).nonnegative_part().upper() * _mass({}, {Fraction(0): 1}, low, high, s)
        return arb(0).union(upper.upper())
    if a >= 0 and b >= 0:
        return _mass(A, B, low, high, s)
    if a <= 0 and b <= 0:
        return arb(0)
    at = lambda edge: _sign(_grouped([(c, x + edge / s) for x, c in A.items()]
                                     + [(c, x - edge / s) for x, c in B.items()]))
    rising = a > 0
    ends = at(low), at(high)
    if None not in ends:
        if (rising and ends[1] <= 0) or (not rising and ends[0] <= 0):
            return arb(0)
        if (rising and ends[0] >= 0) or (not rising and ends[1] >= 0):
            return _mass(A, B, low, high, s)
    root = ball(s) / 2 * (-_value(B) / _value(A)).log()
    root = root.max(ball(low)).min(ball(high))
    return _mass(A, B, root, high, s) if rising else _mass(A, B, low, root, s)


def dp_delta(first: Mapping, second: Mapping, scale, eps) -> Estimate:
    """max of the two hockey-stick divergences at e^eps between g + Lap(scale) and g' + Lap(scale), a ball."""
    there, back = (laplace_mixture_hockey_stick(a, b, scale, eps) for a, b in ((first, second), (second, first)))
    return Estimate.combine(lambda x, y: x.max(y), there, back)


def laplace_delta(eta_, eps) -> Estimate:
    """The delta of Assumption 3.5 for Lap(eta/eps) at the worst |a − b| = eta: D_{e^eps}(Lap(eta, b) || Lap(0, b)),
    from the CDFs (exactly 0: the Laplace mechanism is (eps, 0)-DP). ``eta_``, ``eps`` taken as rationals."""
    eta_ = exact_fraction(eta_)
    return laplace_mixture_hockey_stick({eta_: 1}, {0: 1}, eta_ / exact_fraction(eps), eps)


def _on_grid(law: Mapping[int, Fraction], N: int) -> dict:
    return {Fraction(k, N): p for k, p in law.items()}


# --- the drawn chains -------------------------------------------------------------------------------------------

def two_chains() -> st.SearchStrategy[dict]:
    """Two two-state chains (entries in tenths, 1..9), a common start and N in 2..8."""
    tenth = st.integers(1, 9)
    return st.fixed_dictionaries({"a": tenth, "b": tenth, "a'": tenth, "b'": tenth, "x0": st.integers(0, 1),
                                  "N": st.integers(2, 8)})


def _chains(s: Mapping) -> dict:
    return {"D": (Fraction(s["a"], 10), Fraction(s["b"], 10)), "D'": (Fraction(s["a'"], 10), Fraction(s["b'"], 10)),
            "x0": int(s["x0"]), "N": int(s["N"])}


TWO_CHAINS = Setting(r"$X^{\mathcal{D}}$, $X^{\mathcal{D}'}$ two-state chains on $\{0, 1\}$, $P(0, 1) = a$, "
                     r"$P(1, 0) = b$ ($a, b, a', b' \in \{0.1, \dots, 0.9\}$), $X_0 = x_0$, "
                     r"$f = \mathbb{1}\{x = 1\}$, "
                     r"$N \le 8$; $\mathcal{A}(\mathcal{D}) = \frac{1}{N}\sum_{n=1}^N f(X_n^{\mathcal{D}}) + L_\eta$, "
                     r"$L_\eta \sim \mathrm{Lap}(\eta/\varepsilon)$",
                     strategy=two_chains, build=_chains)
SEPARATED = {"a": 1, "b": 9, "a'": 9, "b'": 1, "x0": 0, "N": 6}
"""pi_D(f) = 0.1 against pi_D'(f) = 0.9: the averages rarely agree, so the coupling's tail is large."""
SEPARATED_LONG = {**SEPARATED, "x0": 1, "N": 8}
"""The most separated chains at the longest N: the largest TV(S_N, S'_N)/P(S_N != S'_N) of the setting, 0.994547."""
STICKY_ALTERNATING = {"a": 1, "b": 1, "a'": 9, "b'": 9, "x0": 0, "N": 2}
"""A sticky and an alternating chain with one stationary law (gamma_f = 0): Proposition 3.10's worst case."""


# --- Assumption 3.5 ---------------------------------------------------------------------------------------------

def _fractions() -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({"u": st.floats(0, 1, allow_nan=False)})


CLOSE_SCALARS = Setting(r"$|a - b| = u\eta$, $u \in [0, 1]$; $L_\eta \sim \mathrm{Lap}(\eta/\varepsilon)$",
                        strategy=_fractions, build=lambda s_: to_mpf(s_["u"], "u"))


@theorem(id="bertazzi.ass3.5", title=r"Laplace noise of scale $\eta/\varepsilon$ privatises $\eta$-close scalars",
         number="Assumption 3.5", parameters=(P_ETA, P_EPS), setting=CLOSE_SCALARS,
         statement=sp.Le(MaxDivergence(A_LEFT, A_RIGHT), epsilon), default_examples=70,
         tight_at=({"eta": 0.5, "epsilon": 1.0, "structure": {"u": 1.0}},),
         examples=({"eta": 0.01, "epsilon": 4.0, "structure": {"u": 0.0}},))
def assumption_3_5(point):
    r"""Assumption 3.5 asks of the noise $L_\eta$ that $\mathbb{P}(a + L_\eta \in \mathsf{B}) \le e^\varepsilon
    \mathbb{P}(b + L_\eta \in \mathsf{B}) + \delta$ for all $\mathsf{B}$ and $|a - b| \le \eta$; the paper's instance
    is $L_\eta \sim \mathrm{Lap}(\eta/\varepsilon)$ with $\delta = 0$, which is $D_\infty(a + L_\eta \| b + L_\eta)
    \le \varepsilon$. The max divergence is measured from the two Laplace densities by the engine (never the closed
    form $|a - b|\varepsilon/\eta$). Tight at $|a - b| = \eta$ (pinned), where the ratio $e^\varepsilon$ is attained
    beyond both centres."""
    eta_, eps = to_mpf(point["eta"], "eta"), to_mpf(point["epsilon"], "epsilon")
    scale = eta_ / eps
    left, right = Laplace(0, scale), Laplace(CLOSE_SCALARS(point) * eta_, scale)
    return {MaxDivergence(A_LEFT, A_RIGHT): divergence("max_divergence", left, right, method="densities")}


# --- the variance display after Assumption 3.6 (erratum E2) -----------------------------------------------------

def _variance_of(atoms: Mapping) -> Fraction:
    """The variance of a finite law {location: probability} of rationals, exactly."""
    mean = sum(Fraction(x) * p for x, p in atoms.items())
    return sum(p * (Fraction(x) - mean) ** 2 for x, p in atoms.items())


def released_moments(atoms: Mapping, scale) -> tuple:
    """(∫ y p(y) dy, ∫ y² p(y) dy) of the released density p(y) = Σ_x P(x) e^{−|y − x|/s}/(2s) (the Laplace densities
    at the atoms of a finite law, weighted), as balls at flint's precision: Arb's rigorous integration
    (``acb.integral``) of y(1 + iy)p(y) — its real part the first moment, its imaginary part the second — on each
    piece between consecutive atoms, where p is a sum of exponentials (analytic), and on a window W = (prec + 40)·s·
    log 2 beyond the outer atoms. Beyond the window the integrands are at most (1 + y²)p(y), p = Σ_x w_x e^{∓(y −
    x)/s}, whose integrals ∫_R^∞ (1 + y²)e^{−y/s} dy = s e^{−R/s}(1 + R² + 2sR + 2s²) (and its mirror image) bound
    the rest, which enters as a ball ±bound."""
    s = ball(scale)
    located = [(ball(x), ball(p) / (2 * s)) for x, p in sorted((exact_fraction(x), p) for x, p in atoms.items() if p)]
    xs = [x for x, _ in located]
    i = acb(0, 1)

    def on_piece(j):   # p between the j-th and (j+1)-th atom: those up to j decay to the right, the others to the left
        below, above = located[:j + 1], located[j + 1:]

        def f(y, analytic):
            density = sum((w * ((x - y) / s).exp() for x, w in below), acb(0)) \
                + sum((w * ((y - x) / s).exp() for x, w in above), acb(0))
            return y * (1 + i * y) * density
        return f

    window = s * (ctx.prec + 40) * arb(2).log()
    left, right = xs[0] - window, xs[-1] + window
    ends = [left, *xs, right]
    total = sum((acb.integral(on_piece(j - 1), a, b) for j, (a, b) in enumerate(itertools.pairwise(ends))), acb(0))
    rest = s * (sum((w * ((left - x) / s).exp() for x, w in located), arb(0)) * (1 + left ** 2 - 2 * s * left
                                                                                 + 2 * s ** 2)
                + sum((w * ((x - right) / s).exp() for x, w in located), arb(0)) * (1 + right ** 2 + 2 * s * right
                                                                                   + 2 * s ** 2))
    spread = arb(0, rest.upper())
    return total.real + spread, total.imag + spread


def _variance_witness(point):
    """Var A(D) from the released density's moments (:func:`released_moments`), Var of the average from its exact
    law: both certified balls."""
    chains = TWO_CHAINS(point)
    N = chains["N"]
    atoms = _on_grid(average_law(*chains["D"], chains["x0"], N), N)
    scale = lambda: ball(point["eta"]) / ball(point["epsilon"])

    def released_variance():
        first, second = released_moments(atoms, scale())
        return second - first ** 2
    return {VarOut(): enclosure(released_variance, Method.CERTIFIED),
            VarAvg(): enclosure(lambda: ball(_variance_of(atoms)), Method.EXACT)}


@theorem(id="bertazzi.rem3.var", title=r"the variance of the noisy estimator adds $2\eta^2/\varepsilon^2$ (corrected)",
         number="Section 3.2, display after Assumption 3.6", parameters=(P_ETA, P_EPS), setting=TWO_CHAINS,
         statement=sp.Eq(VarOut(), VarAvg() + 2 * eta ** 2 / epsilon ** 2), tight_everywhere=True,
         tight_at=({"eta": 1.0, "epsilon": 0.5, "structure": SEPARATED},), default_examples=70,
         printed=Printed(
             id="bertazzi.rem3.var.printed", title=r"the variance of the noisy estimator adds $\eta/\varepsilon$, as "
             r"printed", statement=sp.Eq(VarOut(), VarAvg() + eta / epsilon), severity="mathematics",
             location=r"Section 3.2, display after Assumption 3.6 (``scales linearly with $\eta$'')",
             counterexample={"eta": 1.0, "epsilon": 0.5, "structure": SEPARATED},
             note=r"$\mathrm{Var}(\mathrm{Lap}(\beta)) = 2\beta^2$: at $\eta = 1$, $\varepsilon = 0.5$ the noise adds "
                  r"$8$, not $2$ (catalogue E2). The added variance is quadratic in $\eta$, not linear."))
def remark_3_variance(point):
    r"""$\mathrm{Var}(\mathcal{A}(\mathcal{D}))$ by Arb's rigorous integration of the released density (a
    mixture of Laplace laws at the atoms $k/N$ of the exact law of the average) between the atoms, the tails beyond a
    window bounded analytically (\symdpcode{released\_moments});
    $\mathrm{Var}(\frac1N\sum f(X_n))$ from that exact law. Equality everywhere (the noise is independent of the
    chain); the paper's $\eta/\varepsilon_\eta$ is refuted (erratum E2)."""
    return _variance_witness(point)


# --- Assumptions 3.6, 3.8, A.4 (hypotheses) and 3.9 -------------------------------------------------------------

assumption_3_6 = declare(
    id="bertazzi.ass3.6", title="coupled ergodic averages are $\\eta$-close with probability $1 - \\tilde\\delta$",
    number="Assumption 3.6", statement=sp.Ge(CloseAverages(eta), 1 - tilde_delta),
    symbolic_only=r"a hypothesis: it defines $(\eta, \tilde\delta)$ for some coupling of the two chains; on the "
                  r"synchronous coupling of two-state chains $\tilde\delta = \mathbb{P}(|\bar f_{\mathcal{D}} - "
                  r"\bar f_{\mathcal{D}'}| > \eta)$ is computed exactly in \symdpid{bertazzi.prop3.7}",
    notes=r"$\mathbb{P}\big(|\frac1N\sum_{n=1}^N f(X^{\mathcal{D}}_n) - \frac1N\sum_{n=1}^N f(X^{\mathcal{D}'}_n)| "
          r"\le \eta\big) \ge 1 - \tilde\delta$; the special case of Assumption A.4 with $g_{\mathcal{D}}$ the "
          r"ergodic average.")
assumption_3_8 = declare(
    id="bertazzi.ass3.8", title="concentration of the ergodic average around $\\pi_{\\mathcal{D}}(f)$",
    number="Assumption 3.8", statement=sp.Ge(Concentrated(C), 1 - tilde_delta),
    symbolic_only=r"a hypothesis: it defines $(C, \tilde\delta)$; on two-state chains $\tilde\delta = "
                  r"\max_{\mathcal{D}}"
                  r"\mathbb{P}(|\bar f_{\mathcal{D}} - \pi_{\mathcal{D}}(f)| > C)$ is computed exactly (dynamic "
                  r"programming over the running count) in \symdpid{bertazzi.prop3.10}",
    notes=r"$\mathbb{P}\big(|\frac1N\sum_{n=1}^N f(X^{\mathcal{D}}_n) - \pi_{\mathcal{D}}(f)| \le C\big) \ge 1 - "
          r"\tilde\delta$ for every $\mathcal{D}$.")
assumption_a_4 = declare(
    id="bertazzi.assA.4", title="$g_{\\mathcal{D}}$ and $g_{\\mathcal{D}'}$ are $\\eta$-close with probability "
    "$1 - \\tilde\\delta$", number="Assumption A.4", statement=sp.Ge(CloseG(eta), 1 - tilde_delta),
    symbolic_only=r"a hypothesis: it defines $(\eta, \tilde\delta)$ for a coupling of $g_{\mathcal{D}}$, "
                  r"$g_{\mathcal{D}'}$; $\tilde\delta = \mathbb{P}(|g_{\mathcal{D}} - g_{\mathcal{D}'}| > \eta)$ is "
                  r"computed exactly on the drawn finite couplings of \symdpid{bertazzi.propA.5}",
    notes=r"$\mathbb{P}(|g_{\mathcal{D}} - g_{\mathcal{D}'}| \le \eta) \ge 1 - \tilde\delta$ (56). Typo (catalogue "
          r"E19): the text says ``there exist $\eta > 0$, $\delta < 1$'' where the display and Proposition A.5 use "
          r"$\tilde\delta$; a misprint in words with nothing to refute, recorded here.")


def _stationary_gap(point):
    """|π_D(f) − π_D'(f)| from the stationary laws solved exactly, γ_f from the two-state closed form: rationals, as
    certified balls."""
    chains = TWO_CHAINS(point)
    pis = [FiniteChain([[1 - a, a], [b, 1 - b]]).stationary()[1] for a, b in (chains["D"], chains["D'"])]
    a, b = chains["D"]
    a2, b2 = chains["D'"]
    return {StationaryGap(): enclosure(lambda: ball(abs(pis[0] - pis[1]))),
            gamma_f: enclosure(lambda: ball(abs(a / (a + b) - a2 / (a2 + b2))))}


@theorem(id="bertazzi.ass3.9", title=r"sensitivity of the posterior expectation $\pi_{\mathcal{D}}(f)$",
         number="Assumption 3.9", setting=TWO_CHAINS.where(r", $\gamma_f = |a/(a+b) - a'/(a'+b')|$"),
         statement=sp.Le(StationaryGap(), gamma_f), tight_everywhere=True,
         tight_at=({"structure": SEPARATED},))
def assumption_3_9(point):
    r"""Assumption 3.9 asks $|\pi_{\mathcal{D}}(f) - \pi_{\mathcal{D}'}(f)| \le \gamma_f$. On two-state chains with
    $f = \mathbb{1}\{x = 1\}$ it holds with $\gamma_f = |a/(a+b) - a'/(a'+b')|$, with equality: the left side from the
    stationary laws solved exactly ($\pi P = \pi$, $\sum \pi = 1$, rationals), the right from the closed form of the
    two-state chain. This is the $\gamma_f$ that \symdpid{bertazzi.prop3.10} uses."""
    return _stationary_gap(point)


# --- Propositions A.5, 3.7, 3.10 --------------------------------------------------------------------------------

def finite_couplings() -> st.SearchStrategy[list]:
    """A coupling of g_D and g_D' with 1..4 atoms (x, x', weight): x, x' in quarters of [-3, 3], weights 1..9."""
    quarter = st.integers(-12, 12).map(lambda k: Fraction(k, 4))
    return st.lists(st.tuples(quarter, quarter, st.integers(1, 9)), min_size=1, max_size=4)


def _coupling(atoms) -> dict:
    total = sum(w for _, _, w in atoms)
    joint: dict = {}
    for x, x2, w in atoms:
        joint[Fraction(x), Fraction(x2)] = joint.get((Fraction(x), Fraction(x2)), 0) + Fraction(w, total)
    return joint


def _marginals(joint: Mapping) -> tuple[dict, dict]:
    first: dict = {}
    second: dict = {}
    for (x, x2), p in joint.items():
        first[x] = first.get(x, 0) + p
        second[x2] = second.get(x2, 0) + p
    return first, second


FINITE_COUPLINGS = Setting(r"$(g_{\mathcal{D}}, g_{\mathcal{D}'})$ a coupling with at most 4 atoms in $\frac14"
                           r"\mathbb{Z} \cap [-3, 3]$ (or the far pair of the pinned instance), "
                           r"$\mathcal{A}(\mathcal{D}) "
                           r"= g_{\mathcal{D}} + L_\eta$, $L_\eta \sim \mathrm{Lap}(\eta/\varepsilon)$",
                           strategy=finite_couplings, build=_coupling)
FAR_PAIR = [(0, 0, 4), (0, 300, 1)]
"""The catalogue's tight instance: g_D = 0, g_D' = 0 w.p. 4/5 and 100 w.p. 1/5 (delta-tilde = 1/5 for eta < 300)."""
P_DTIL = Param(eta, sp.Interval.open(0, sp.oo), sample=(0.05, 2.0), limit=(
    r"not widened yet: Proposition A.5's pairs were not audited beyond this range"))


def _coupled_delta(joint: Mapping, eta_) -> Estimate:
    """δ̃ = P(|g − g'| > η) of a coupling of rationals, exactly: the comparisons with η (taken as the rational it is)
    decided in rationals, the sum a rational."""
    eta_ = exact_fraction(eta_)
    return enclosure(lambda: ball(sum((p for (x, x2), p in joint.items() if abs(Fraction(x) - Fraction(x2)) > eta_),
                                      Fraction(0))))


def _coupled_release(joint, eta_, eps) -> dict:
    """What Proposition A.5 and 3.7 measure on a coupling of two statistics: δ_𝒜(ε) of the two released laws (each
    statistic plus Lap(η/ε)), the coupling's δ̃ = P(|g − g'| > η) and δ of Assumption 3.5's Laplace instance: all
    certified balls."""
    first, second = _marginals(joint)
    scale = exact_fraction(eta_) / exact_fraction(eps)
    return {DeltaA(epsilon): BuiltExactly(dp_delta(first, second, scale, eps)),
            tilde_delta: BuiltExactly(_coupled_delta(joint, eta_)), delta: BuiltExactly(laplace_delta(eta_, eps))}


@theorem(id="bertazzi.propA.5", title=r"$g_{\mathcal{D}} + L_\eta$ is $(\varepsilon, \delta + \tilde\delta)$-DP",
         number="Proposition A.5", parameters=(P_DTIL, P_EPS), setting=FINITE_COUPLINGS,
         statement=sp.Le(DeltaA(epsilon), delta + tilde_delta), default_examples=70,
         tight_at=({"eta": 1.0, "epsilon": 1.0, "structure": FAR_PAIR},))
def proposition_a_5(point):
    r"""$\delta_{\mathcal{A}}(\varepsilon)$ is the larger hockey-stick divergence between the two released laws
    (mixtures of $\mathrm{Lap}(\eta/\varepsilon)$ at the atoms of $g_{\mathcal{D}}$, $g_{\mathcal{D}'}$), from the
    Laplace CDFs between the atoms in ball arithmetic; $\tilde\delta = \mathbb{P}(|g_{\mathcal{D}} -
    g_{\mathcal{D}'}| > \eta)$ exactly from the drawn coupling (so Assumption A.4 holds with it); $\delta$ of
    Assumption 3.5 is measured for $\mathrm{Lap}(\eta/\varepsilon)$ at the worst shift $\eta$ (exactly 0, the
    cancelling exponentials summed in rationals). Tight in the limit of the catalogue's pair
    $g_{\mathcal{D}} = 0$, $g_{\mathcal{D}'} = M\cdot\mathrm{Bernoulli}(\tilde\delta)$ as $M \to \infty$:
    $\tilde\delta - \delta_{\mathcal{A}} = O(e^{-M\varepsilon/(2\eta)})$, $1.2 \cdot 10^{-22}$ at $M = 100$ and about
    $10^{-66}$ at $M = 300$, $\tilde\delta = 1/5$, $\eta = \varepsilon = 1$ (pinned: equal to working precision)."""
    joint = FINITE_COUPLINGS(point)
    eta_, eps = to_mpf(point["eta"], "eta"), to_mpf(point["epsilon"], "epsilon")
    return _coupled_release(joint, eta_, eps)


@theorem(id="bertazzi.prop3.7", title=r"the noisy Monte Carlo estimator is $(\varepsilon, \delta + \tilde\delta)$-DP "
         r"(coupling version)", number="Proposition 3.7", parameters=(P_ETA, P_EPS),
         setting=TWO_CHAINS.where(r", run on common uniforms (synchronous coupling)"),
         statement=sp.Le(DeltaA(epsilon), delta + tilde_delta), default_examples=70,
         examples=({"eta": 0.05, "epsilon": 1.0, "structure": SEPARATED},
                   {"eta": 0.01, "epsilon": 0.7, "structure": SEPARATED_LONG}))
def proposition_3_7(point):
    r"""The joint law of the two ergodic averages under the synchronous coupling is exact (dynamic programming over
    both states and both counts); $\tilde\delta = \mathbb{P}(|\bar f_{\mathcal{D}} - \bar f_{\mathcal{D}'}| > \eta)$
    from it (Assumption 3.6 then holds); $\delta_{\mathcal{A}}(\varepsilon)$ is the larger hockey-stick divergence of
    the two released laws (Laplace mixtures at $k/N$), from their CDFs in balls; $\delta$ of Assumption 3.5 as in
    \symdpid{bertazzi.propA.5}. Tight only in a limit (see \symdpid{bertazzi.propA.5}); on these chains the ratio is
    $0.969$ at $\eta = 0.05$, $\varepsilon = 1$, $(a, b) = (0.1, 0.9)$, $(a', b') = (0.9, 0.1)$, $N = 6$ (pinned), where a
    small $\eta$ makes the coupling's tail almost 1 and the released laws almost disjoint. As $\eta \to 0$ (the noise
    vanishing against the grid $1/N$) $\delta_{\mathcal{A}} \to D_{e^\varepsilon}$ of the averages' discrete laws,
    at most their TV, and $\tilde\delta \to \mathbb{P}(S_N \ne S'_N)$: over the setting's chains the largest
    $\mathrm{TV}/\mathbb{P}(S_N \ne S'_N)$ is $0.994547$, at the same chains with $N = 8$ (exhaustive over $a, b, a',
    b' \in \{0.1, 0.2, 0.5, 0.8, 0.9\}$); pinned at $\eta = 0.01$ (the draw range's edge), $\varepsilon = 0.7$, $x_0
    = 1$: ratio $0.99395$ (the drawn chains reach about $0.975$)."""
    chains = TWO_CHAINS(point)
    N = chains["N"]
    eta_, eps = to_mpf(point["eta"], "eta"), to_mpf(point["epsilon"], "epsilon")
    joint = coupled_average_laws(chains["D"], chains["D'"], chains["x0"], N)
    joint = {(Fraction(k, N), Fraction(k2, N)): p for (k, k2), p in joint.items()}
    return _coupled_release(joint, eta_, eps)


@theorem(id="bertazzi.prop3.10", title=r"the noisy Monte Carlo estimator is $(\varepsilon, \delta + 2\tilde\delta - "
         r"\tilde\delta^2)$-DP (concentration version)", number="Proposition 3.10", parameters=(P_C, P_EPS),
         setting=TWO_CHAINS.where(r", run independently; $\eta = 2C + \gamma_f$"),
         statement=sp.Le(DeltaA(epsilon), delta + 2 * tilde_delta - tilde_delta ** 2), default_examples=67,
         examples=({"C": 0.05, "epsilon": 1.0, "structure": SEPARATED},
                   {"C": 0.001, "epsilon": 0.1, "structure": STICKY_ALTERNATING}))
def proposition_3_10(point):
    r"""$\pi_{\mathcal{D}}(f)$ from the stationary laws (exact), $\gamma_f = |\pi_{\mathcal{D}}(f) -
    \pi_{\mathcal{D}'}(f)|$ (Assumption 3.9 with equality), $\tilde\delta = \max_{\mathcal{D}}\mathbb{P}(|\bar
    f_{\mathcal{D}} - \pi_{\mathcal{D}}(f)| > C)$ from the exact laws of the averages (Assumption 3.8 then holds), the
    noise $\mathrm{Lap}(\eta/\varepsilon)$ with $\eta = 2C + \gamma_f$; $\delta_{\mathcal{A}}(\varepsilon)$ the larger
    hockey-stick divergence of the released laws, from their CDFs in balls. Loose: the catalogue found
    $\delta_{\mathcal{A}} = 0$ on all its instances (claims $0.19$--$0.91$). The informative draws have a small $C$: the
    noise $\mathrm{Lap}((2C + \gamma_f)/\varepsilon)$ vanishes against the grid $1/N$ when $\gamma_f = 0$ and $C \to 0$,
    $\delta_{\mathcal{A}} \to$ the TV of the averages' laws and $\tilde\delta \to \max_{\mathcal{D}}\mathbb{P}(\bar
    f_{\mathcal{D}} \ne \pi_{\mathcal{D}}(f))$. Over the setting's chains with $\gamma_f = 0$ (exhaustive) that limit
    ratio is at most $0.80808$, for a sticky chain $(a, b) = (0.1, 0.1)$ against an alternating one $(a', b') = (0.9,
    0.9)$ at $N = 2$ ($\mathrm{TV} = 0.8$, $\tilde\delta = 0.9$); pinned at $C = 10^{-3}$, $\varepsilon = 0.1$: ratio
    $0.80702$ (a local search over all the chains, $\gamma_f > 0$ too, found no larger)."""
    chains = TWO_CHAINS(point)
    N = chains["N"]
    C_, eps = to_mpf(point["C"], "C"), to_mpf(point["epsilon"], "epsilon")
    laws = [_on_grid(average_law(a, b, chains["x0"], N), N) for a, b in (chains["D"], chains["D'"])]
    pis = [FiniteChain([[1 - a, a], [b, 1 - b]]).stationary()[1] for a, b in (chains["D"], chains["D'"])]
    C_exact = exact_fraction(C_)   # the comparisons |average − π(f)| > C, and η = 2C + γ_f, in rationals
    tails = [sum((p for x, p in law.items() if abs(x - pi) > C_exact), Fraction(0)) for law, pi in zip(laws, pis)]
    eta_ = 2 * C_exact + abs(pis[0] - pis[1])
    return {DeltaA(epsilon): BuiltExactly(dp_delta(laws[0], laws[1], eta_ / exact_fraction(eps), eps)),
            tilde_delta: BuiltExactly(enclosure(lambda: ball(max(tails)))), delta: BuiltExactly(laplace_delta(eta_, eps))}


_SQUARE = square_of_complement()
proof_3_10 = declare(
    id="bertazzi.proof3.10", title=r"$(1 - \tilde\delta)^2 = 1 - (2\tilde\delta - \tilde\delta^2)$",
    number="Appendix A.4, proof of Proposition 3.10", statement=sp.Eq(_SQUARE.start, _SQUARE.end), evidence=IDENTITY,
    derivation=_SQUARE,
    symbolic_only=r"an identity in $\tilde\delta$, proved by SymPy (\symdpcode{proofs.bertazzi.estimators."
                  r"square\_of\_complement})",
    notes=r"Independence of the two chains gives $\mathbb{P}(\mathsf{B}_1) \ge (1 - \tilde\delta)^2$, and "
          r"$\mathsf{B}_1 \subset \mathsf{B}_2$ by the triangle inequality (63)--(64): $|\bar f_{\mathcal{D}} - "
          r"\bar f_{\mathcal{D}'}| "
          r"\le 2C + \gamma_f$. The proof writes $C_{\tilde\delta, N}$ and $C_{\delta, N}$ for Assumption 3.8's $C$.")

THEOREMS = registered(__name__)
