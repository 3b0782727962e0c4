"""Dwork & Rothblum, *Concentrated Differential Privacy*: the "antipodal KL" results of Section 3.2 (Lemmas
3.7–3.10, Definition 3.4, Proposition 3.1, Claims 3.11–3.12) and the sharp bound they lead to. Finite pairs (D, D')
are plain JSON draws (a dict with a ``kind``) built by :func:`build_pair`; their divergences are exact finite sums,
and ε is the pair's measured Δ∞, read as the two-sided ``max(D∞(D‖D'), D∞(D'‖D))`` (the paper never defines Δ∞).

>>> import mpmath
>>> with mpmath.workdps(30):
...     P, Q = rr_pair(1)
...     print(mpmath.nstr(divergence("kl", P, Q).value, 7))     # catalogue dwork.lem3.8 table: 0.4621172
0.4621172
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath
import sympy as sp
from flint import arb, fmpq
from hypothesis import strategies as st

from symdp.engine.divergences import divergence
from symdp.engine.finite import FiniteDistribution, given_rational, to_mpf
from symdp.engine.privacy_loss import log_ratio_ball
from symdp.errors import InvalidDistribution, InvalidParameter
from symdp.estimate import Estimate, enclosure, exact_ball, exact_rational, in_balls, mpf_of
from symdp.expressions import KL, MaxDivergence, numeric_function, quantity
from symdp.proofs.dwork.antipodal import GAIN_CLOSED_FORM, B, proposition31_gain
from symdp.proofs.dwork.antipodal import sigma_alpha as _sigma
from symdp.statement import BuiltExactly
from symdp.strategies import weights
from symdp.symbols import D, Dp, M, Mp, alpha, epsilon, p_x
from symdp.theorem import CLOSED_FORM, IDENTITY, Param, Setting, declare, registered, theorem
from symdp.theorems.dwork.common import delta_inf, exact_instance, sym_max_divergence

# --- heads -------------------------------------------------------------------------------------------------------
# B (the M-mass of an antipodal pair's '-ε' class) is declared with the derivations that use it.
SignPlus = numeric_function(
    "SignPlus", 1, lambda a: 1 if a >= 0 else -1, r"\sigma_{{{0}}}",
    "sign(α) with sign(0) := +1, as the paper's Case I needs (SymPy's sign(0) = 0 would make Lemma 3.9 read 0/0).")
sigma_alpha = SignPlus(alpha)

AntipodalDefect = quantity(
    "AntipodalDefect", 3,
    r"\max_{{x}} \operatorname{{dist}}\left(\ln\frac{{{0}[x]}}{{{1}[x]}}, \left\{{-{2}, 0, {2}\right\}}\right)",
    "max_x dist(ln(M[x]/M'[x]), {-ε, 0, ε}): zero exactly when (M, M') is antipodal for ε (Definition 3.4).",
    nonnegative=True)

AtomKL = quantity(
    "AtomKL", 2, r"{0}[x]\ln\frac{{{0}[x]}}{{{1}[x]}}",
    "One atom's term P[x] ln(P[x]/Q[x]) of the KL sum (0 ln(0/0) := 0): Proposition 3.1 compares D's and M's.")


def _delta_inf(P, Q):
    """Δ∞(P, Q) as a SymPy expression: the two-sided max divergence."""
    return sp.Max(MaxDivergence(P, Q), MaxDivergence(Q, P))


# --- finite pairs at the working precision ---------------------------------------------------------------------
def rr_pair(eps_value) -> tuple[FiniteDistribution, FiniteDistribution]:
    """Randomized response: P = (e^ε, 1)/(1 + e^ε), Q reversed (catalogue ``dwork.obs.rr-extremal``), built exactly
    from e^ε at the working precision (its log-ratios are exactly ±ln of that number)."""
    e = mpmath.exp(to_mpf(eps_value, "epsilon"))
    return FiniteDistribution.normalized([e, 1]), FiniteDistribution.normalized([1, e])


def antipodal_pair(eps_value, classes) -> tuple[FiniteDistribution, FiniteDistribution]:
    """The antipodal pair (Definition 3.4) described by ``classes`` (see :func:`antipodal_classes`).

    Under M the '+ε' class has mass A, the '-ε' class B and the '0' class C; M' = M e^{-ε}, M e^{ε}, M on them.
    Normalising M' forces A = e^ε B, so B = u/(1 + e^ε) with u ∈ (0, 1], and u = 1 exactly when there is no
    '0' class (catalogue §1, generator (iii)). Built in exact rationals from e^ε at the working precision, E say:
    exactly antipodal for ln E (each log-ratio is exactly ln E, 0 or -ln E), which is ε to the working precision.
    """
    e_ = to_mpf(eps_value, "epsilon")
    if not e_ > 0:
        raise InvalidParameter("an antipodal pair needs epsilon > 0 (Definition 3.4)")
    u = to_mpf(classes["u"], "u")
    if not (0 < u <= 1) or (not classes["zero"] and u != 1) or (classes["zero"] and u == 1):
        raise InvalidParameter(f"u must be 1 iff there is no '0' class, and lie in (0, 1]; got {classes['u']!r}")
    e = exact_rational(mpmath.exp(e_))
    b = given_rational(classes["u"], "u") / (1 + e)
    a, c = e * b, 1 - e * b - b

    def shares(key):
        return FiniteDistribution.normalized(classes[key]).rationals if classes[key] else ()

    atoms = ([(a * w, b * w) for w in shares("plus")] + [(b * w, a * w) for w in shares("minus")]
             + [(c * w, c * w) for w in shares("zero")])
    atoms = [atoms[i] for i in classes["perm"]]
    return FiniteDistribution([m for m, _ in atoms]), FiniteDistribution([m for _, m in atoms])


def antipodal_balls(eps_value, classes) -> tuple[list, list]:
    """The masses of :func:`antipodal_pair` as Arb balls (flint's precision) around those of the pair for ε itself,
    the drawn binary number (e^ε a ball, not rounded first): M, then M'. A '0' atom is one ball for both laws.

    >>> from flint import arb
    >>> M, Mp = antipodal_balls(mpmath.mpf(1), ANTIPODAL_PINS[1])
    >>> [(m / q).log().contains(arb(s)) for m, q, s in zip(M, Mp, (-1, 1, -1))]
    [True, True, True]
    """
    antipodal_pair(eps_value, classes)   # the checks of the parameters
    E = exact_ball(to_mpf(eps_value, "epsilon")).exp()
    b = arb(given_rational(classes["u"], "u")) / (1 + E)
    a = E * b
    c = 1 - a - b

    def shares(key):
        return [arb(w) for w in FiniteDistribution.normalized(classes[key]).rationals] if classes[key] else []

    atoms = ([(a * w, b * w) for w in shares("plus")] + [(b * w, a * w) for w in shares("minus")]
             + [(m, m) for m in (c * w for w in shares("zero"))])
    atoms = [atoms[i] for i in classes["perm"]]
    return [m for m, _ in atoms], [m for _, m in atoms]


def _tilted(q, logs) -> tuple[FiniteDistribution, FiniteDistribution]:
    """Q ∝ q, P ∝ Q·e^{logs}: generators (i) and (ii) of the catalogue."""
    weights_ = [to_mpf(w, "weight") for w in q]
    return (FiniteDistribution.normalized([w * mpmath.exp(l) for w, l in zip(weights_, logs)]),
            FiniteDistribution.normalized(q))


def _edge_pair(draw) -> tuple[FiniteDistribution, FiniteDistribution]:
    """D'[i] = c q_i, D[i] = c q_i e^{α_i ε} with the drawn α_i exactly; the last atom takes the remaining mass.

    The scale c is a fraction ``t`` of the largest one that keeps the last atom's log-ratio inside [-ε, ε], so the
    drawn α_i stay exact for ε = Δ∞(D, D') (one of them is ±1 by construction of the draw). Built in exact
    rationals from e^{α_i ε} at the working precision, E^{±1} at α = ±1 and 1 at α = 0 (E the number e^ε is at
    it): the atoms of α = ±1 have log-ratio exactly ±ln E, those of α = 0 exactly 0.
    """
    e_ = to_mpf(draw["eps"], "epsilon")
    a = [to_mpf(x, "alpha") for x in draw["alpha"]]
    q = [to_mpf(x, "weight") for x in draw["q"]]
    s_p = mpmath.fsum(q)  # D'-mass of the first atoms at c = 1
    s = mpmath.fsum(w * mpmath.exp(ai * e_) for w, ai in zip(q, a))  # D-mass
    limits = [1 / max(s, s_p)]
    if s > s_p:  # the last atom's ratio (1 - c s)/(1 - c s') falls as c grows: keep it >= e^{-ε}
        limits.append((1 - mpmath.exp(-e_)) / (s - mpmath.exp(-e_) * s_p))
    elif s < s_p and mpmath.exp(e_) * s_p > s:  # it rises: keep it <= e^{ε}
        limits.append((mpmath.exp(e_) - 1) / (mpmath.exp(e_) * s_p - s))
    c = exact_rational(to_mpf(draw["t"], "t") * min(limits))
    E = exact_rational(mpmath.exp(e_))
    ratios = [E if ai == 1 else 1 / E if ai == -1 else exact_rational(mpmath.exp(ai * e_)) for ai in a]
    Dp_ = [c * exact_rational(w) for w in q]
    D_ = [w * r for w, r in zip(Dp_, ratios)]
    return FiniteDistribution(D_ + [1 - sum(D_, fmpq(0))]), FiniteDistribution(Dp_ + [1 - sum(Dp_, fmpq(0))])


def build_pair(draw) -> tuple[FiniteDistribution, FiniteDistribution]:
    """(D, D') at the working precision from a plain draw of :func:`pairs` (or a pinned ``{"kind": "rr"}``)."""
    kind = draw["kind"]
    if kind == "rr":
        return rr_pair(draw["eps"])
    if kind == "antipodal":
        return antipodal_pair(draw["eps"], draw)
    if kind == "dp":
        e0 = to_mpf(draw["eps0"], "eps0")
        return _tilted(draw["q"], [to_mpf(u, "u") * e0 for u in draw["u"]])
    if kind == "arbitrary":
        s = to_mpf(draw["scale"], "scale")
        return _tilted(draw["q"], [to_mpf(z, "z") * s for z in draw["z"]])
    if kind == "edge":
        return _edge_pair(draw)
    raise InvalidParameter(f"unknown pair kind {kind!r}")


# --- strategies (plain JSON-able draws) ------------------------------------------------------------------------
@st.composite
def antipodal_classes(draw, max_class: int = 6):
    """Class data of an antipodal pair of any support size (:func:`antipodal_pair`): n_plus, n_minus >= 1 and
    n_zero >= 0 atoms; positive weights in each class (the catalogue's Dirichlet weights: any positive vector, at
    least as searching); u ∈ (0, 1) if there is a '0' class, else u = 1 (forced); the atoms shuffled by ``perm``."""
    n_plus, n_minus = draw(st.integers(1, max_class)), draw(st.integers(1, max_class))
    n_zero = draw(st.integers(0, max_class))
    u = draw(st.floats(0, 1, exclude_min=True, exclude_max=True)) if n_zero else 1.0
    n = n_plus + n_minus + n_zero
    return {"u": u, "plus": draw(weights(n_plus)), "minus": draw(weights(n_minus)),
            "zero": draw(weights(n_zero)) if n_zero else [], "perm": draw(_permutations(n))}


@functools.lru_cache(maxsize=None)
def _permutations(n: int):
    """The orders of ``n`` atoms, one strategy per size (built once, as :func:`_spread_values`)."""
    return st.permutations(range(n))


@st.composite
def antipodal_pairs(draw, max_class: int = 6, eps_range: tuple[float, float] = (0.001, 8.0)):
    """A whole antipodal pair, ε included (kind ``"antipodal"``)."""
    return {"kind": "antipodal", "eps": draw(st.floats(*eps_range)), **draw(antipodal_classes(max_class))}


def _spread(values) -> bool:
    """D ≠ D' needs log-ratios that are not all equal (equal ones tilt by a constant, which normalisation undoes)."""
    return max(values) - min(values) > 1e-6


@st.composite
def dp_pairs(draw, max_size: int = 8, eps0_range: tuple[float, float] = (0.001, 4.0)):
    """An ε-DP pair, catalogue generator (ii): Q ∝ q, P ∝ Q e^{u_i ε0}, u_i ∈ [-1, 1]; ε := Δ∞(P, Q) ≤ 2ε0."""
    n = draw(st.integers(2, max_size))
    u = draw(_spread_values(n, 1.0))
    return {"kind": "dp", "eps0": draw(st.floats(*eps0_range)), "q": draw(weights(n)), "u": u}


@st.composite
def arbitrary_pairs(draw, max_size: int = 8):
    """A full-support pair, catalogue generator (i): Q ∝ q, P ∝ Q e^{s z_i}; ε := Δ∞(P, Q) measured afterwards."""
    n = draw(st.integers(2, max_size))
    z = draw(_spread_values(n, 3.0))
    return {"kind": "arbitrary", "scale": draw(st.floats(0.01, 5)), "q": draw(weights(n)), "z": z}


@functools.lru_cache(maxsize=None)
def _spread_values(n: int, reach: float):
    """``n`` floats in ``[-reach, reach]``, not all equal (:func:`_spread`), one strategy per size: a pair draws one
    at every draw, and hypothesis validates a new strategy the first time it draws from it."""
    return st.lists(st.floats(-reach, reach), min_size=n, max_size=n).filter(_spread)


@st.composite
def edge_alpha_pairs(draw, max_size: int = 8):
    """Pairs with atoms of exact α ∈ {-1, 0, +1} (Lemma 3.9's 0/0 and zero-mass cases); a last atom balances. The
    first α is ±1, so the drawn ε is Δ∞(D, D') and every drawn α is exact for it."""
    n = draw(st.integers(2, max_size))
    first = draw(st.sampled_from([-1.0, 1.0]))
    rest = draw(_edge_alphas(n - 2))
    return {"kind": "edge", "eps": draw(st.floats(0.05, 3)), "alpha": [first] + rest, "q": draw(weights(n - 1)),
            "t": draw(st.floats(0.05, 0.95))}


@functools.lru_cache(maxsize=None)
def _edge_alphas(m: int):
    """``m`` α in [-1, 1], each often exactly -1, 0 or 1; one strategy per size (built once, as :func:`_spread_values`)."""
    return st.lists(st.one_of(st.sampled_from([-1.0, 0.0, 1.0]), st.floats(-1, 1)), min_size=m, max_size=m)


def pairs():
    """Any pair the results of Section 3.2 quantify over: generators (i), (ii), (iii) and the α-edge pairs."""
    return st.one_of(dp_pairs(), arbitrary_pairs(), antipodal_pairs(), edge_alpha_pairs())


def rr(eps_value: float) -> dict:
    """A pinned randomized-response draw."""
    return {"structure": {"kind": "rr", "eps": eps_value}}


RR_EPS = (0.01, 0.1, 0.5, 1.0, 2.0, 5.0)  # the rows of the catalogue's dwork.lem3.8 table
ANTIPODAL_PINS = (
    {"kind": "antipodal", "eps": 1.0, "u": 0.5, "plus": [1.0, 2.0], "minus": [1.0], "zero": [1.0, 1.0],
     "perm": [4, 0, 2, 1, 3]},
    {"kind": "antipodal", "eps": 3.0, "u": 1.0, "plus": [1.0], "minus": [0.3, 0.7], "zero": [], "perm": [1, 0, 2]},
)
ANTIPODAL_CLASS_PINS = tuple(  # the same pairs as draws of (epsilon, antipodal_classes())
    {"epsilon": pin["eps"], "structure": {k: v for k, v in pin.items() if k not in ("kind", "eps")}}
    for pin in ANTIPODAL_PINS)
EDGE_PINS = (
    {"kind": "edge", "eps": 1.0, "alpha": [1.0, 0.0, -1.0, 0.5], "q": [0.2, 0.3, 0.1, 0.4], "t": 0.5},
    {"kind": "edge", "eps": 0.1, "alpha": [-1.0, 0.0, 0.0], "q": [0.5, 0.3, 0.2], "t": 0.9},
)


# --- Lemma 3.9's construction ----------------------------------------------------------------------------------
def split_atom(p, alpha_value, eps_value) -> tuple:
    """Lemma 3.9's split of one atom with D'[x] = p, D[x] = e^{αε} p, as printed (sign(0) := +1):

    M'[x] = p (e^{αε} - 1)/(e^{σε} - 1), M[x] = e^{σε} M'[x], M'[s_x] = D'[x] - M'[x], M[s_x] = D[x] - M[x].
    Returns ``(M[x], M'[x], M[s_x], M'[s_x])``, in mpmath, or as Arb balls enclosing the split of the exact numbers
    where an argument is a ball (at flint's precision). At α = ±1 the printed M[s_x] is 0 in exact arithmetic; it is
    returned as an exact 0 rather than as the rounding noise of D[x] - e^{±ε}D'[x].

    >>> from flint import arb
    >>> m_x, mp_x, m_s, mp_s = split_atom(arb("0.3"), arb("0.5"), arb(2))
    >>> (m_s - mp_s).contains(0), (m_x / mp_x).contains(arb(2).exp())
    (True, True)
    """
    if any(isinstance(v, arb) for v in (p, alpha_value, eps_value)):
        p, a, e = (exact_ball(v) for v in (p, alpha_value, eps_value))
        exp, expm1, zero = arb.exp, arb.expm1, arb(0)
    else:
        p, a, e = (to_mpf(v) for v in (p, alpha_value, eps_value))
        exp, expm1, zero = mpmath.exp, mpmath.expm1, mpmath.mpf(0)
    d = p * exp(a * e)
    if abs(a) == 1:
        return d, p, zero, zero
    sigma = 1 if a >= 0 else -1
    mp_x = p * expm1(a * e) / expm1(sigma * e)   # (e^{αε} - 1 by expm1: no cancellation for small αε)
    m_x = exp(sigma * e) * mp_x
    return m_x, mp_x, d - m_x, p - mp_x


@dataclass(frozen=True)
class AntipodalSplit:
    """The antipodal pair of Lemma 3.9 and how it was built: ``labels[i]`` is ``("x", j)`` or ``("s", j)``;
    ``ratio`` is e^ε as the exact rational it is where (D, D') was exact (then so is the split), else None."""

    M: FiniteDistribution
    Mp: FiniteDistribution
    labels: tuple[tuple[str, int], ...]
    alphas: tuple[mpmath.mpf, ...]
    eps: mpmath.mpf
    ratio: fmpq | None = None


def lemma39_split(D_: FiniteDistribution, Dp_: FiniteDistribution) -> AntipodalSplit:
    """Lemma 3.9: split each atom x of (D, D') into x and a new atom s_x, giving an antipodal pair (M, M').

    ε = Δ∞(D, D'); α_x = ln(D[x]/D'[x])/ε ∈ [-1, 1]. Atoms whose mass is zero in exact arithmetic are dropped, as
    the paper's equal-support convention requires: x when α = 0 (the printed formula gives M[x] = M'[x] = 0, and
    the whole atom goes to s_x with M[s_x] = M'[s_x] = D[x]), s_x when α = ±1 (x is already extremal). D = D'
    (ε = 0, where the printed formula is 0/0) gives M = D. The pair must have equal supports.

    Where (D, D') is exact (:attr:`FiniteDistribution.rationals`) so is the split: e^ε is the largest likelihood
    ratio R, a rational, and with r = D[x]/D'[x] the printed masses are M'[x] = D'[x](r - 1)/(R^σ - 1), M[x] =
    R^σ M'[x] and M[s_x] = M'[s_x] = D'[x](R^σ - r)/(R^σ - 1): every log-ratio of M is exactly ln R, 0 or -ln R,
    and α is ±1 or 0 exactly where r is R^{±1} or 1. Otherwise it is computed at the working precision, an α within
    rounding of -1, 0 or 1 taken as that value.

    >>> import mpmath
    >>> with mpmath.workdps(30):
    ...     D, Dp = FiniteDistribution(["0.5", "0.3", "0.2"]), FiniteDistribution(["0.25", "0.5", "0.25"])
    ...     split = lemma39_split(D, Dp)
    ...     [mpmath.nstr(mpmath.log(a / b) / split.eps, 10) for a, b in zip(split.M, split.Mp)]
    ['1.0', '-1.0', '0.0', '-1.0', '0.0']
    >>> split.ratio, split.M.exact
    (2, True)
    """
    if any((a > 0) != (b > 0) for a, b in zip(D_, Dp_)) or len(D_) != len(Dp_):
        raise InvalidDistribution("Lemma 3.9 needs D and D' on the same support")
    if D_.exact and Dp_.exact:
        return _exact_split(D_, Dp_)
    e = sym_max_divergence(D_, Dp_)
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 10))
    masses, labels, alphas = [], [], []
    for j, (d, p) in enumerate(zip(D_, Dp_)):
        if p == 0:
            continue
        a = (mpmath.log(d) - mpmath.log(p)) / e if e > 0 else mpmath.mpf(0)
        # α within rounding of -1, 0 or 1 is that value: the construction divides by (1 - |α|) in effect there
        a = next((mpmath.mpf(v) for v in (-1, 0, 1) if abs(a - v) < tol), a)
        alphas.append(a)
        if a == 0 or abs(a) == 1:
            parts = [("s" if a == 0 else "x", d, p)]
        else:
            m_x, mp_x, m_s, mp_s = split_atom(p, a, e)
            parts = [("x", m_x, mp_x), ("s", m_s, mp_s)]
        masses += [(m, mp_) for _, m, mp_ in parts]
        labels += [(tag, j) for tag, _, _ in parts]
    return AntipodalSplit(FiniteDistribution([m for m, _ in masses]), FiniteDistribution([m for _, m in masses]),
                          tuple(labels), tuple(alphas), e)


def _exact_split(D_: FiniteDistribution, Dp_: FiniteDistribution) -> AntipodalSplit:
    """:func:`lemma39_split` of an exact pair, in rationals (see there)."""
    pairs = [(j, d, p) for j, (d, p) in enumerate(zip(D_.rationals, Dp_.rationals)) if p != 0]
    R = max((max(d / p, p / d) for _, d, p in pairs), default=fmpq(1))
    e = sym_max_divergence(D_, Dp_)
    masses, labels, alphas = [], [], []
    for j, d, p in pairs:
        r = d / p
        extremal = r == R or r == 1 / R
        alphas.append(mpmath.mpf(0) if r == 1 else mpmath.mpf(1 if r > 1 else -1) if extremal
                      else mpmath.log(mpmath.mpf(int(r.p)) / int(r.q)) / e)
        if r == 1 or extremal:
            parts = [("s" if r == 1 else "x", d, p)]
        else:
            top = R if r > 1 else 1 / R   # R^σ
            mp_x = p * (r - 1) / (top - 1)
            m_x = top * mp_x
            parts = [("x", m_x, mp_x), ("s", d - m_x, p - mp_x)]   # M[s_x] = M'[s_x] = p (R^σ - r)/(R^σ - 1)
        masses += [(m, mp_) for _, m, mp_ in parts]
        labels += [(tag, j) for tag, _, _ in parts]
    return AntipodalSplit(FiniteDistribution([m for m, _ in masses]), FiniteDistribution([m for _, m in masses]),
                          tuple(labels), tuple(alphas), e, R)


def atom_kl(p, q) -> Estimate:
    """One atom's term p ln(p/q) of a KL sum, with 0 ln(0/q) := 0 (Lemma 3.9's dropped zero-mass atoms): a certified
    enclosure, computed in balls from the masses given (an mpf or decimal read as the binary number it is, a ball as
    itself); exactly 0 for p = 0 or p = q (an antipodal pair's '0' class), an exact +inf for q = 0 < p.

    >>> t = atom_kl("0.5", "0.25")
    >>> t.certified, t.value - t.error <= mpmath.log(2) / 2 <= t.value + t.error
    (True, True)
    """
    with in_balls():
        p, q = (x if isinstance(x, arb) else exact_ball(to_mpf(x, "mass")) for x in (p, q))
        if p.is_zero():
            return enclosure(arb(0))
        if q.is_zero():
            return Estimate(mpmath.inf, mpmath.mpf(0), certified=True)
        return enclosure(p * (p / q).log())


def antipodal_defect(P: FiniteDistribution, Q: FiniteDistribution, eps_value, ratio: fmpq | None = None) -> Estimate:
    """max over the support of the distance of ln(P[x]/Q[x]) to {-ε, 0, ε}, as a certified enclosure: each
    log-ratio a ball from the atoms' exact rationals (:meth:`FiniteDistribution.keys`), ε the binary number given.
    With ``ratio``, e^ε as an exact rational (:attr:`AntipodalSplit.ratio`), ε is ln of it, and an atom whose
    likelihood ratio is exactly ``ratio``, 1 or 1/``ratio`` is exactly at distance 0: the defect of an exact
    antipodal pair is then an exact 0.

    Its ``scale`` is ε: a defect of 1e-50 is "0 to working precision" relative to the log-ratios it measures.

    >>> P, Q = FiniteDistribution.normalized([2, 1, 1]), FiniteDistribution.normalized([1, 2, 1])
    >>> d = antipodal_defect(P, Q, mpmath.log(2), ratio=fmpq(2))
    >>> d.value, d.error, d.certified
    (mpf('0.0'), mpf('0.0'), True)
    """
    with in_balls():
        eps = arb(ratio).log() if ratio is not None else exact_ball(to_mpf(eps_value))
        worst = arb(0)
        for p, q in zip(P.keys(), Q.keys()):
            if p == 0:
                continue
            if q == 0:
                return Estimate(mpmath.inf, mpmath.mpf(0), certified=True)
            r = p / q
            if r == 1 or (ratio is not None and (r == ratio or r * ratio == 1)):
                continue
            loss = log_ratio_ball(p, q)
            worst = worst.max(abs(loss - eps).min(abs(loss)).min(abs(loss + eps)))
        return enclosure(worst, scale=mpf_of(eps.mid()))


def minus_class_mass(P: FiniteDistribution, Q: FiniteDistribution, eps_value) -> mpmath.mpf:
    """P-mass of the atoms whose log-ratio is (nearest to) -ε: the B of an antipodal pair."""
    e = to_mpf(eps_value)
    return mpmath.fsum(p for p, q in zip(P, Q) if p > 0 and mpmath.nint((mpmath.log(p) - mpmath.log(q)) / e) == -1)


# --- the results ---------------------------------------------------------------------------------------------------
PAIR_LATEX = r"$D$, $D'$ on a common finite support, $D \neq D'$"
PAIRS = Setting(PAIR_LATEX + r", $\varepsilon = \Delta_\infty(D, D') = \max\left(D_\infty(D\|D'), "
                             r"D_\infty(D'\|D)\right)$", strategy=pairs, build=build_pair)
RR_PINS = tuple(rr(e) for e in RR_EPS)
SMALL_RR_PINS = tuple(rr(e) for e in (1e-6, 1e-9))
"""RR far below the drawn ε (0.001 at the least): Lemmas 3.7 and 3.8 tend to their supremum 1 only as ε -> 0 (ratio
2/(e^ε + 1) for Lemma 3.8 at RR, 2tanh(ε/2)/(e^ε - 1) for Lemma 3.7), so the reachable end is pinned."""


def _kl_and_eps(point, *heads) -> dict:
    """The KL divergences ``heads`` of the drawn pair (D, D'), and its ε = Δ∞(D, D'): marked built exactly where the
    pair is exact rationals, which is then itself an instance (ε measured on it), whatever rounding made it."""
    D_, Dp_ = PAIRS(point)
    pair = {D: D_, Dp: Dp_}
    return exact_instance((D_, Dp_), {**{head: divergence("kl", pair[head.args[0]], pair[head.args[1]])
                                         for head in heads}, epsilon: delta_inf(D_, Dp_)})


@theorem(id="dwork.lem3.7", title="Symmetric KL bound of DRV10", number="Lemma 3.7",
         statement=sp.Le(KL(D, Dp) + KL(Dp, D), epsilon * (sp.exp(epsilon) - 1)), setting=PAIRS,
         examples=RR_PINS + SMALL_RR_PINS)
def lemma_3_7(point):
    r"""Loose for $\varepsilon > 0$: the supremum is $2\varepsilon\tanh(\varepsilon/2)$ (\symdpid{dwork.lem3.7.sharp}),
    attained by RR. Both KLs are exact finite sums over the drawn pair, $\varepsilon$ its measured $\Delta_\infty$."""
    return _kl_and_eps(point, KL(D, Dp), KL(Dp, D))


@theorem(id="dwork.lem3.7.sharp", title="Sharp symmetric KL bound, attained by randomized response",
         number="Lemma 3.7 (catalogue: sharp form)",
         statement=sp.Le(KL(D, Dp) + KL(Dp, D), 2 * epsilon * sp.tanh(epsilon / 2)), setting=PAIRS, tight_at=RR_PINS)
def lemma_3_7_sharp(point):
    r"""$D_{\mathrm{KL}}(D\|D') + D_{\mathrm{KL}}(D'\|D) = \sum (D - D')\ln(D/D') \le \varepsilon \cdot 2\,\mathrm{TV}$,
    and $\mathrm{TV} \le \tanh(\varepsilon/2)$ under $\varepsilon$-DP."""
    return _kl_and_eps(point, KL(D, Dp), KL(Dp, D))


@theorem(id="dwork.lem3.8", title="Refined expected privacy loss", number="Lemma 3.8",
         statement=sp.Le(KL(D, Dp), epsilon * (sp.exp(epsilon) - 1) / 2), setting=PAIRS,
         examples=RR_PINS + SMALL_RR_PINS)
def lemma_3_8(point):
    r"""Never attained for $\varepsilon > 0$: the supremum is $\varepsilon\tanh(\varepsilon/2)$
    (\symdpid{dwork.obs.rr-extremal}), smaller by the factor $(e^{\varepsilon} + 1)/2$; tight only to leading order
    $\varepsilon^2/2$ as $\varepsilon \to 0$ (worst ratio $2/(e^{\varepsilon} + 1)$ at RR)."""
    return _kl_and_eps(point, KL(D, Dp))


_EPS_ENDS = ("an identity at every epsilon (checked at 1e-9 and 300, where the '-epsilon' class has mass about "
             "e^(-300)): no end is approached, and each end costs nothing")
EPS = Param(epsilon, sp.Interval.open(0, sp.oo), sample=(1e-9, 300), log=True,
            limit="epsilon below 1e-9 or above 300: " + _EPS_ENDS)
ANTIPODAL = Setting(r"$(M, M')$ antipodal: $\ln\tfrac{M[x]}{M'[x]} \in \{-\varepsilon, 0, \varepsilon\}$ for all $x$",
                    strategy=antipodal_classes)


@theorem(id="dwork.def3.4", title="Antipodal pairs: closed form of the KL divergence", number="Definition 3.4",
         statement=sp.Eq(KL(M, Mp), epsilon * B * (sp.exp(epsilon) - 1)),
         quantity_latex=r"\sum_x M[x]\ln\frac{M[x]}{M'[x]}", parameters=(EPS,),
         setting=ANTIPODAL.where(r", $B = M\{x : \ln\tfrac{M[x]}{M'[x]} = -\varepsilon\}$"),
         tight_everywhere=True, examples=ANTIPODAL_CLASS_PINS)
def definition_3_4(point):
    r"""$D_{\mathrm{KL}}(M\|M') = A\varepsilon - B\varepsilon$ with $A = e^{\varepsilon} B$ forced by normalising $M'$.
    KL is the sum over the pair's atoms and $B$, the $M$-mass of its `$-\varepsilon$' class, is read off the pair
    (its log-ratios), not taken from the generator; both in balls around the pair of the drawn $\varepsilon$ itself
    (\symdpcode{antipodal\_balls}), so the two sides are enclosures of the same number. Maximum
    $\varepsilon\tanh(\varepsilon/2)$ at $B = 1/(1+e^{\varepsilon})$ (no `0' class): see
    \symdpid{dwork.obs.rr-extremal}."""
    with in_balls():
        M_, Mp_ = antipodal_balls(point["epsilon"], point["structure"])
        eps = exact_ball(point["epsilon"])
        terms, minus = [], []
        for m, mp_ in zip(M_, Mp_):
            if m is mp_:   # a '0' atom: one number for both masses, its term exactly 0
                continue
            loss = (m / mp_).log()
            terms.append(m * loss)
            if (loss / eps + 1).abs_upper() < mpmath.mpf(1) / 2:   # the '-ε' class, read off the log-ratio
                minus.append(m)
            elif not (loss / eps - 1).abs_upper() < mpmath.mpf(1) / 2:
                raise InvalidParameter("an atom of the antipodal pair is in no class: the balls are too wide")
        return {KL(M, Mp): BuiltExactly(enclosure(sum(terms, arb(0)))), B: BuiltExactly(enclosure(sum(minus, arb(0))))}


def _split(draw):
    D_, Dp_ = build_pair(draw)
    return D_, Dp_, lemma39_split(D_, Dp_)


SPLIT = Setting(PAIR_LATEX + ", $(M, M')$ the split of $(D, D')$ (proof of Lemma 3.9)", strategy=pairs, build=_split)
LEMMA_3_9_TIGHT = tuple(rr(e) for e in (0.1, 1.0, 3.0)) + tuple({"structure": s} for s in ANTIPODAL_PINS)
LEMMA_3_9_EXAMPLES = tuple({"structure": s} for s in EDGE_PINS)
_LEMMA_3_9_NOTE = (r"$(M, M') = \mathtt{lemma39\_split}(D, D')$. The lemma is the conjunction of "
                   r"\symdpid{dwork.lem3.9} (KL does not decrease), \symdpid{dwork.lem3.9.antipodal} and "
                   r"\symdpid{dwork.lem3.9.same-eps}; a construction that fails to give distributions raises "
                   r"\symdpcode{InvalidDistribution}.")


@theorem(id="dwork.lem3.9", title="Reduction to an antipodal pair: the split does not decrease KL",
         number="Lemma 3.9", statement=sp.Ge(KL(M, Mp), KL(D, Dp)), setting=SPLIT,
         tight_at=LEMMA_3_9_TIGHT, examples=LEMMA_3_9_EXAMPLES,
         notes=r"Equality iff $(D, D')$ is already antipodal (every $\alpha \in \{-1, 0, 1\}$). " + _LEMMA_3_9_NOTE)
def lemma_3_9(point):
    D_, Dp_, split = SPLIT(point)
    return {KL(M, Mp): divergence("kl", split.M, split.Mp), KL(D, Dp): divergence("kl", D_, Dp_)}


@theorem(id="dwork.lem3.9.antipodal", title="Reduction to an antipodal pair: the split is antipodal",
         number="Lemma 3.9", statement=sp.Eq(AntipodalDefect(M, Mp, epsilon), 0),
         setting=SPLIT.where(r", $\varepsilon = \Delta_\infty(D, D')$"), examples=LEMMA_3_9_TIGHT + LEMMA_3_9_EXAMPLES,
         notes=r"Every log-ratio of the split is $-\varepsilon$, 0 or $\varepsilon$: the defect is 0 at every pair, to "
               r"working precision relative to $\varepsilon$ (the defect's scale). No tightness is claimed: the bound "
               "is 0, which has no slack to tighten. " + _LEMMA_3_9_NOTE)
def lemma_3_9_antipodal(point):
    split = SPLIT(point)[2]
    defect = antipodal_defect(split.M, split.Mp, split.eps, split.ratio)
    if split.ratio is None:
        # A split rounded at the working precision is antipodal only to its rounding, amplified by 1/(1 - |alpha|)
        # near the extremal atoms: its defect's enclosure is not one of the draw's (0), and is no more than an estimate.
        return Estimate(defect.value, defect.error + 4 * (1 + split.eps) * mpmath.mpf(10) ** (-mpmath.mp.dps),
                        scale=split.eps)
    return defect


@theorem(id="dwork.lem3.9.same-eps", title="Reduction to an antipodal pair: the split keeps the max divergence",
         number="Lemma 3.9", statement=sp.Eq(_delta_inf(M, Mp), _delta_inf(D, Dp)), setting=SPLIT,
         tight_everywhere=True, examples=LEMMA_3_9_TIGHT + LEMMA_3_9_EXAMPLES,
         notes=_LEMMA_3_9_NOTE + (r" The proof's `$\Delta_\infty(D, D') = e^{\varepsilon}$' should read `$= "
                                  r"\varepsilon$'."))
def lemma_3_9_same_eps(point):
    D_, Dp_, split = SPLIT(point)
    laws = {M: split.M, Mp: split.Mp, D: D_, Dp: Dp_}
    return {MaxDivergence(P, Q): divergence("max_divergence", laws[P], laws[Q])
            for P, Q in ((M, Mp), (Mp, M), (D, Dp), (Dp, D))}


@theorem(id="dwork.lem3.10", title="Antipodal pairs have symmetric KL divergence", number="Lemma 3.10",
         statement=sp.Eq(KL(M, Mp), KL(Mp, M)), parameters=(EPS,), setting=ANTIPODAL, tight_everywhere=True,
         examples=ANTIPODAL_CLASS_PINS)
def lemma_3_10(point):
    r"""Exact identity, any support size (the paper reduces to 3 atoms without proof; the draws do not): both KLs are
    exact finite sums over the drawn pair. Naming typos in the proof ($D'[s]$, $p_x$, $s\ln(s/s')$) are recorded in
    the catalogue."""
    M_, Mp_ = antipodal_pair(point["epsilon"], point["structure"])
    return {KL(M, Mp): divergence("kl", M_, Mp_), KL(Mp, M): divergence("kl", Mp_, M_)}


ALPHA = Param(alpha, sp.Interval(-1, 1))
EPS_PROP = Param(epsilon, sp.Interval.open(0, sp.oo), sample=(1e-4, 300), log=True,
                 limit="epsilon below 1e-4: both terms are about p_x (alpha epsilon)^2/2, and with alpha near 0 they "
                       "fall below the absolute rounding of the atoms' logs (p_x 1e-50: a draw at epsilon = 1e-9 is "
                       "inconclusive); the ratio tends to 1 as epsilon -> 0 (1 - 2.5e-10 at 1e-9, alpha = 1/2; "
                       "0.99997 at 1e-4) and equality is pinned at alpha in {-1, 0, 1}. Above 300 it only falls (alpha "
                       "= 1/2: 0.50002 at 20, 0.5 from 100 on)")
P_X = Param(p_x, sp.Interval.Lopen(0, 1), sample=(1e-12, 1), log=True,
            limit="p_x below 1e-12: p_x only scales both terms (the ratio does not depend on it)")
ATOM = Setting(r"$D'[x] = p_x$, $D[x] = e^{\alpha\varepsilon} p_x$, $(M[x], M'[x])$ as in Lemma 3.9")
PROP_3_1_TIGHT = tuple({"p_x": p, "alpha": a, "epsilon": e} for a in (-1.0, 0.0, 1.0) for p, e in ((0.5, 1.0),
                                                                                                    (0.1, 4.0)))


@theorem(id="dwork.prop3.1", title="The split does not decrease an atom's KL term", number="Proposition 3.1",
         statement=sp.Ge(AtomKL(M, Mp), AtomKL(D, Dp)), parameters=(P_X, ALPHA, EPS_PROP), setting=ATOM,
         tight_at=PROP_3_1_TIGHT)
def proposition_3_1(point):
    r"""The paper's $G_x = M[x]\ln(M[x]/M'[x]) - D[x]\ln(D[x]/D'[x]) \ge 0$, with both terms measured on their own
    sides: each is computed from the masses of the split (\symdpcode{split\_atom}), not from the closed form of
    \symdpid{dwork.prop3.1.identity}. Equality exactly at $\alpha \in \{-1, 0, 1\}$: at $\alpha = \pm 1$ the atom is
    not split (both terms are $D[x](\pm\varepsilon)$); at $\alpha = 0$ it moves whole to $s_x$, so both terms are 0.
    Both terms are about $p_x\alpha\varepsilon$ and differ by about $p_x(\alpha\varepsilon)^2$: a draw with
    $|\alpha\varepsilon| < 10^{-3}$ is computed with $2\log_{10}(1/|\alpha\varepsilon|) + 5$ more digits (down to
    $\alpha = 10^{-61}$ and below, which hypothesis draws)."""
    # Both terms are about p_x alpha epsilon and differ by about p_x (alpha epsilon)^2: a draw with |alpha epsilon| far
    # below 1 (hypothesis draws alpha = 1e-61) is computed with twice its digits more, so that the gain stays above the
    # rounding of the logs (at the working precision alone it is inconclusive).
    size = abs(point["alpha"] * point["epsilon"])
    extra = 2 * int(-mpmath.log10(size)) + 5 if 0 < size < mpmath.mpf(10) ** -3 else 0
    # The split is computed in balls from the drawn numbers themselves, so both terms are enclosures of the exact
    # terms of the draw (nothing rounded before a ball: built exactly), then rounded outward to the working precision.
    with mpmath.workdps(mpmath.mp.dps + extra), in_balls():
        p, a, e = (exact_ball(point[name]) for name in ("p_x", "alpha", "epsilon"))
        m_x, mp_x, _, _ = split_atom(p, a, e)
        terms = {AtomKL(M, Mp): atom_kl(m_x, mp_x), AtomKL(D, Dp): atom_kl(p * (a * e).exp(), p)}
    return {head: BuiltExactly(term.rounded()) for head, term in terms.items()}


PROPOSITION_3_1_IDENTITY = declare(
    id="dwork.prop3.1.identity", title="The per-atom KL gain in closed form",
    number="Proposition 3.1 (proof, first display)",
    statement=sp.Eq(AtomKL(M, Mp) - AtomKL(D, Dp), GAIN_CLOSED_FORM.subs(_sigma, sigma_alpha)),
    parameters=(P_X, ALPHA, EPS_PROP),
    setting=ATOM.where(r", $\sigma_\alpha = \operatorname{sign}(\alpha)$, $\operatorname{sign}(0) := 1$"),
    evidence=IDENTITY, derivation=proposition31_gain(),
    symbolic_only=r"an algebraic identity in $(p_x, \alpha, \varepsilon)$: the split's masses put into the two KL "
                  r"terms give the display exactly, for either sign (\symdpcode{proofs/dwork/antipodal.py}, "
                  r"\symdpcode{proposition31\_gain})",
    notes=r"$\operatorname{sign}(0) := +1$ (\symdpcode{SignPlus}); SymPy's $\operatorname{sign}(0) = 0$ would give "
          r"$0/0$. The identity holds for $\sigma = +1$ and $-1$ alike; $\operatorname{sign}(\alpha)$ is what keeps "
          "the split's masses non-negative.")

# Both claims are encoded multiplied by -1 (the same statement), so that both sides are non-negative: as printed,
# the right sides are <= 0 at the tight points, where a multiplicative tightening would loosen the bound.
_CLAIM_NOTE = (r"the claim is itself an inequality between two closed forms of $(\alpha, \varepsilon)$; nothing is "
               r"measured. It is proved by convexity of $\exp$ in \symdpcode{proofs/dwork/antipodal.py}")
CLAIM_3_11 = declare(
    id="dwork.claim3.11", title="Convexity bound of Case I, both sides multiplied by -1", number="Claim 3.11",
    statement=sp.Le(alpha * (1 - sp.exp(-epsilon)), 1 - sp.exp(-alpha * epsilon)),
    parameters=(Param(alpha, sp.Interval(0, 1)), Param(epsilon, sp.Interval(0, sp.oo), sample=(0, 10))),
    evidence=CLOSED_FORM, evidence_note=_CLAIM_NOTE + r" (\symdpcode{claim311\_convexity}).",
    tight_at=({"alpha": 1.0, "epsilon": 1.0}, {"alpha": 1.0, "epsilon": 5.0}, {"alpha": 0.0, "epsilon": 2.0},
              {"alpha": 0.5, "epsilon": 0.0}),
    notes=r"Printed: $\alpha(-1 + e^{-\varepsilon}) \ge e^{-\alpha\varepsilon} - 1$. Equality iff $\alpha \in \{0, "
          r"1\}$ or $\varepsilon = 0$ (convexity of $\exp$).")

Expm1 = numeric_function(
    "expm1", 1, mpmath.expm1, r"\left(e^{{{0}}} - 1\right)",
    "e^x - 1, evaluated by mpmath.expm1: relative to its size as x -> 0, where exp(x) - 1 cancels.",
    arb=lambda x: x.expm1())
CLAIM_3_12 = declare(
    id="dwork.claim3.12", title="Convexity bound of Case II, both sides multiplied by -1", number="Claim 3.12",
    statement=sp.Ge(-alpha * Expm1(epsilon), Expm1(-alpha * epsilon)),
    parameters=(Param(alpha, sp.Interval.Ropen(-1, 0)), Param(epsilon, sp.Interval(0, sp.oo), sample=(0, 10))),
    evidence=CLOSED_FORM, evidence_note=_CLAIM_NOTE + r" (\symdpcode{claim312\_convexity}).",
    tight_at=({"alpha": -1.0, "epsilon": 1.0}, {"alpha": -1.0, "epsilon": 5.0}, {"alpha": -0.5, "epsilon": 0.0}),
    notes=r"Printed: $\alpha(-1 + e^{\varepsilon}) \le -e^{-\alpha\varepsilon} + 1$. Equality iff $\alpha = -1$ or "
          r"$\varepsilon = 0$. Both sides are evaluated by $\mathrm{expm1}$: at $\varepsilon \approx 10^{-45}$, "
          r"$e^{\varepsilon} - 1$ computed as a difference keeps few digits, and its round-off read as a ratio above "
          "1.")


@theorem(id="dwork.obs.rr-extremal", title="Randomized response is extremal for the KL divergence of a DP pair",
         number="catalogue observation (sharp Lemma 3.8 / Theorem 3.5)",
         statement=sp.Le(KL(D, Dp), epsilon * sp.tanh(epsilon / 2)), setting=PAIRS, tight_at=RR_PINS)
def rr_extremal(point):
    r"""Lemma 3.9 and the antipodal closed form $\varepsilon B(e^{\varepsilon} - 1)$ with $B \le 1/(1 +
    e^{\varepsilon})$. Attained by RR and by every antipodal pair without a `0' class."""
    return _kl_and_eps(point, KL(D, Dp))


THEOREMS = registered(__name__)
