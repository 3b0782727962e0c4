"""Symbolic derivations for Balle et al. (NeurIPS 2019), Section 3 (amplification from uniform mixing) and the
hockey-stick background of Section 2: D_1 = TV (P §2), A Lemma 12, Table 1's ultra-mixing row, the identities inside
A Theorems 10, 13, 14, 15 and eq. (5), the remark after Theorem 1, and the sharp δ = 0 bound under ultra-mixing that
the catalogue derives. LEMMA_12, HS_TV, TAB1_ULTRA, EQ5, EQ5_MIXTURE, REM_DOEBLIN and BLANKET are the evidence of the
identity theorems of :mod:`symdp.theorems.balle19.mixing` (no draws).

Seeds: main text ``../shared/seeds/001_dc25d928cd3b540a.txt`` (P), appendix ``../shared/seeds/000_eb14441fc6376ec7.txt``
(A); catalogue ``../shared/catalogue/catalogue-balle.md`` §1–2. The numeric counterparts are in
:mod:`symdp.theorems.balle19.mixing`.

Measures are handled atom by atom: a symbol such as ``mu1`` is the mass of one atom, and an identity between signed
measures is the same identity at every atom. Branches that SymPy cannot decide from assumptions (a ≤ c or a ≥ c,
γ ≤ 1) are fixed by a substitution given with the step, as in :mod:`proofs.balle19.couplings`. ``E = e^ε`` is
written ``1 + u`` with u ≥ 0 where ε ≥ 0 matters.

``FACTS`` holds exact checks of printed slips (errata E4, E5, E6, E15), each a function returning True when the slip
is confirmed.

>>> all(d.check() for d in DERIVATIONS)
True
>>> all(fact() for fact in FACTS.values())
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation

# --- symbols -------------------------------------------------------------------------------------------------------
eps = sp.Symbol("epsilon", nonnegative=True)
gamma = sp.Symbol("gamma", nonnegative=True)
delta = sp.Symbol("delta", nonnegative=True)
theta = sp.Symbol("theta", positive=True)
a, b, c = sp.symbols("a b c", nonnegative=True)  # masses of one atom
k, g, u = sp.symbols("k g u", nonnegative=True)  # branch gaps: c = a + k; gamma = 1 - g; e^eps = 1 + u
E = sp.exp(eps)
omega, mu1, nu1, mup, nup, Kx = sp.symbols("omega mu_1 nu_1 mu' nu' K_x", real=True)  # atoms of signed measures

EPS_PRIME = sp.log(1 + gamma * (E - 1))
DELTA_PRIME_DOEBLIN = gamma * (1 - sp.exp(EPS_PRIME - eps) * (1 - delta))

A_LE_C = {c: a + k}
A_GE_C = {a: c + k}
GAMMA_LE_1 = {gamma: 1 - g}


# --- P §2 / A Lemma 12: the pointwise identity [a − c]_+ + (a ∧ c) = a --------------------------------------------
def _hs_atom(given, case):
    return Derivation(
        rf"$\max(a - c, 0) + \min(a, c) = a$ at one atom, {case} ($c = e^{{\varepsilon}}\nu(x)$; A Lemma 12, P \S 2)",
        sp.Max(a - c, 0) + sp.Min(a, c),
        source=r"000 (appendix), Lemma 12; 001 (main text), \S 2",
        assumptions=rf"$a = \mu(x) \ge 0$, $c = e^{{\varepsilon}}\nu(x) \ge 0$, {case}",
    ).step(a, rf"resolve $\max$ and $\min$ ({case})", given=given)


HS_ATOM_BELOW = _hs_atom(A_LE_C, r"$a \le c$")
HS_ATOM_ABOVE = _hs_atom(A_GE_C, r"$a \ge c$")
"""Summed over atoms with Σμ = 1: D_{e^ε}(μ‖ν) = 1 − Σ(μ ∧ e^ε ν) (Lemma 12), and on the event E = {μ > e^ε ν} the
sum form is μ(E) − e^ε ν(E), the supremum over events (P §2)."""

# Three atoms stand for any number: every step is atom by atom or linear in the atoms. (A ``Sum`` over an indexed
# family would read better, but SymPy does not substitute an expression containing the summation index, which is how
# the atom identities, proved case by case above, enter the sum.)
_mus = sp.symbols("p_1:4", nonnegative=True)  # mu(x) at three atoms
_nus = sp.symbols("q_1:4", nonnegative=True)  # nu(x) at three atoms
_MU_SUMS_TO_1 = {_mus[2]: 1 - _mus[0] - _mus[1]}
_NU_SUMS_TO_1 = {_nus[2]: 1 - _nus[0] - _nus[1]}

LEMMA_12 = Derivation(
    (r"Lemma 12: $D_{e^{\varepsilon}}(\mu\|\nu) = \sum_x [\mu(x) - e^{\varepsilon}\nu(x)]_+ = 1 - \sum_x \mu(x) \wedge "
     r"e^{\varepsilon}\nu(x)$ (three atoms)"),
    sum(sp.Max(p_ - E * q_, 0) for p_, q_ in zip(_mus, _nus)),
    source="000 (appendix), Lemma 12",
    assumptions=(r"$\mu$, $\nu$ probability vectors; the atom identity is \symdpcode{HS\_ATOM\_BELOW} / "
                 r"\symdpcode{HS\_ATOM\_ABOVE}"),
).step(sum(p_ - sp.Min(p_, E * q_) for p_, q_ in zip(_mus, _nus)),
       r"atom by atom, $[a - c]_+ = a - a \wedge c$ (\symdpcode{HS\_ATOM\_BELOW}, \symdpcode{HS\_ATOM\_ABOVE})",
       given={sp.Max(p_ - E * q_, 0): p_ - sp.Min(p_, E * q_) for p_, q_ in zip(_mus, _nus)})\
    .step(1 - sum(sp.Min(p_, E * q_) for p_, q_ in zip(_mus, _nus)), r"$\sum_x \mu(x) = 1$", given=_MU_SUMS_TO_1)


# --- P §2: D_1 = TV with the paper's Csiszár functions phi(u) = [u - 1]_+ and phi(u) = |u - 1|/2 -------------------
A_LE_B = {b: a + k}
A_GE_B = {a: b + k}


def _tv_atom(given, case):
    return Derivation(
        rf"$[a - b]_+ = (|a - b| + (a - b))/2$ at one atom, {case} (P \S 2: $D_1 = \mathrm{{TV}}$)",
        sp.Max(a - b, 0),
        source=r"001 (main text), \S 2",
        assumptions=rf"$a = \mu(x) \ge 0$, $b = \nu(x) \ge 0$, {case}",
    ).step((sp.Abs(a - b) + (a - b)) / 2, rf"resolve $\max$ and $|\cdot|$ ({case})", given=given)


TV_ATOM_BELOW = _tv_atom(A_LE_B, r"$a \le b$")
TV_ATOM_ABOVE = _tv_atom(A_GE_B, r"$a \ge b$")

HS_TV = Derivation(
    r"$D_1 = \mathrm{TV}$: $\sum_x [\mu(x) - \nu(x)]_+ = \frac{1}{2}\sum_x |\mu(x) - \nu(x)|$ (three atoms)",
    sum(sp.Max(p_ - q_, 0) for p_, q_ in zip(_mus, _nus)),
    source=r"001 (main text), \S 2",
    assumptions=(r"$\mu$, $\nu$ probability vectors; $D_1$ is the Csisz\'ar divergence of $[u - 1]_+$, $\mathrm{TV}$ "
                 "that of $|u - 1|/2$"),
).step(sum((sp.Abs(p_ - q_) + (p_ - q_)) / 2 for p_, q_ in zip(_mus, _nus)),
       r"atom by atom (\symdpcode{TV\_ATOM\_BELOW}, \symdpcode{TV\_ATOM\_ABOVE})",
       given={sp.Max(p_ - q_, 0): (sp.Abs(p_ - q_) + (p_ - q_)) / 2 for p_, q_ in zip(_mus, _nus)})\
    .step(sum(sp.Abs(p_ - q_) for p_, q_ in zip(_mus, _nus)) / 2, r"$\sum_x \mu(x) = \sum_x \nu(x) = 1$",
          given={**_MU_SUMS_TO_1, **_NU_SUMS_TO_1})

# --- A Theorem 10: the erasure channel attains the contraction -------------------------------------------------------
_gamma_pos = sp.Symbol("gamma", positive=True)


def _erasure_atom(given, case):
    return Derivation(
        rf"erasure channel, input atom: $\max(\gamma a - \gamma e^{{\varepsilon}} b, 0) = "
        rf"\gamma\max(a - e^{{\varepsilon}} b, 0)$ ({case})",
        sp.Max(_gamma_pos * a - _gamma_pos * c, 0),
        source=r"catalogue \symdpid{balle19.thm1.1} (tight instance)",
        assumptions=rf"$c = e^{{\varepsilon}} b$, $\gamma > 0$, {case}",
    ).step(_gamma_pos * sp.Max(a - c, 0), rf"$\gamma \ge 0$ factors out of $\max(\cdot, 0)$ ({case})", given=given)


ERASURE_ATOM_BELOW = _erasure_atom(A_LE_C, r"$a \le c$")
ERASURE_ATOM_ABOVE = _erasure_atom(A_GE_C, r"$a \ge c$")
ERASURE_SYMBOL = Derivation(
    (r"erasure channel, erasure atom: $\max((1 - \gamma)(1 - e^{\varepsilon}), 0) = 0$, so $D(\mu K\|\nu K) = \gamma "
     r"D(\mu\|\nu)$"),
    sp.Max((1 - gamma) - E * (1 - gamma), 0),
    source=r"catalogue \symdpid{balle19.thm1.1} (tight instance)",
    assumptions=r"$\varepsilon \ge 0$ ($e^{\varepsilon} = 1 + u$), $\gamma \le 1$ ($\gamma = 1 - g$)",
).step(sp.Integer(0), r"$(1 - \gamma)(1 - e^{\varepsilon}) \le 0$", given={**GAMMA_LE_1, eps: sp.log(1 + u)})

# --- A Theorem 13: overlapping mixtures ------------------------------------------------------------------------------
THM13_MIXTURE = Derivation(
    r"Theorem 13, identity (iii): $\mu - e^{\varepsilon}\nu = \theta(\mu' - e^{\tilde\varepsilon_\theta}\nu')$, "
    r"$\tilde\varepsilon_\theta = \log(1 + (e^{\varepsilon} - 1)/\theta)$",
    ((1 - theta) * omega + theta * mup) - E * ((1 - theta) / E * omega + (1 - (1 - theta) / E) * nup),
    source="000 (appendix), proof of Theorem 13",
    assumptions=(r"$\mu = (1-\theta)\omega + \theta\mu'$, $\nu = (1-\theta)e^{-\varepsilon}\omega + (1 - "
                 r"(1-\theta)e^{-\varepsilon})\nu'$, $\theta > 0$"),
).step(theta * mup - (E - 1 + theta) * nup, r"expand: the $\omega$ terms cancel")\
    .step(theta * (mup - sp.exp(sp.log(1 + (E - 1) / theta)) * nup), (r"factor $\theta$: $e^{\tilde\varepsilon} = 1 + "
                                                                      r"(e^{\varepsilon} - 1)/\theta$"))

_dlt = sp.Symbol("delta", positive=True)
THM13_LEVEL = Derivation(
    (r"Theorem 13: $\theta \le \delta$ gives $e^{\tilde\varepsilon_\theta} \ge e^{\varepsilon'} = 1 + (e^{\varepsilon} "
     r"- 1)/\delta$"),
    1 + u / theta,
    source="000 (appendix), proof of Theorem 13",
    assumptions=r"$e^{\varepsilon} = 1 + u$, $\delta = \theta + k \ge \theta > 0$",
).step(1 + u / _dlt, r"$u/\theta \ge u/\delta$", relation=">=", given={_dlt: theta + k})

# --- Table 1 row 3 / A Theorem 14: the blanket (Doeblin) decomposition -----------------------------------------------
BLANKET = Derivation(
    (r"Doeblin (blanket) decomposition: $K(x) = (1-\gamma)\omega + \gamma\tilde K(x)$, $\tilde K = (K - "
     r"(1-\gamma)K_\omega)/\gamma$"),
    (1 - _gamma_pos) * omega + _gamma_pos * (Kx - (1 - _gamma_pos) * omega) / _gamma_pos,
    source="000 (appendix), proof of Theorem 14; 001 (main text), Table 1",
    assumptions=r"$\gamma > 0$; $\tilde K \ge 0$ is Doeblin's condition $K(x) \ge (1-\gamma)\omega$",
).step(Kx, "cancel")

# --- Table 1 row 4: ultra-mixing as local DP ------------------------------------------------------------------------
_m = sp.Symbol("m", positive=True)  # the smallest likelihood ratio K(x)(y)/K(x')(y) over x, x', y
_k1, _k2 = sp.symbols("k_1 k_2", nonnegative=True)  # any other ratio is m(1 + k)
TAB1_ULTRA = Derivation(
    r"Table 1 row 4: $\log(1/(1 - \gamma_{\mathrm{um}}(K))) = \sup_{x,x'} D_\infty(K(x)\|K(x'))$",
    sp.log(1 / (1 - gamma)),
    source="001 (main text), Table 1 and Definition 1(4)",
    assumptions=r"$K > 0$; $m = \min_{x,x',y} K(x)(y)/K(x')(y)$; the ratios are closed under $x \leftrightarrow x'$, "
                r"so $\sup_{x,x'} D_\infty(K(x)\|K(x')) = \max_{x,x',y} \log(K(x)(y)/K(x')(y)) = \max "
                r"\log(1/\mathrm{ratio})$ (two other ratios $m(1 + k)$ stand for all)",
).step(sp.log(1 / _m), r"$1 - \gamma_{\mathrm{um}}(K) = m$ (Definition 1(4))", given={gamma: 1 - _m})\
    .step(sp.Max(sp.log(1 / _m), sp.log(1 / (_m * (1 + _k1))), sp.log(1 / (_m * (1 + _k2)))),
          r"$\log(1/r)$ decreases in $r$: the largest is at the smallest ratio $m$")

# --- advanced joint convexity ([2, Thm 2], A Theorems 14, 15) --------------------------------------------------------
_beta = sp.exp(EPS_PRIME - eps)
AJC = Derivation(
    (r"advanced joint convexity: $(1-g)w + g\mu_1 - e^{\varepsilon'}((1-g)w + g\nu_1) = g(\mu_1 - "
     r"e^{\varepsilon}((1-\beta)w + \beta\nu_1))$"),
    (1 - gamma) * omega + gamma * mu1 - sp.exp(EPS_PRIME) * ((1 - gamma) * omega + gamma * nu1),
    source="000 (appendix), proofs of Theorems 14 and 15 (citing [2, Theorem 2])",
    assumptions=r"$e^{\varepsilon'} = 1 + \gamma(e^{\varepsilon} - 1)$, $\beta = e^{\varepsilon' - \varepsilon}$",
).step((1 - gamma) * (1 - sp.exp(EPS_PRIME)) * omega + gamma * mu1 - gamma * sp.exp(EPS_PRIME) * nu1, "expand")\
    .step(gamma * (mu1 - E * ((1 - _beta) * omega + _beta * nu1)),
          r"collect $\gamma$: $(1-\gamma)(1 - e^{\varepsilon'}) = \gamma e^{\varepsilon}(\beta - 1)$")

# --- A Theorem 14: the catalogue's one-sided extremal instance -------------------------------------------------------
_q = (1 - delta) / E
THM14_EXTREMAL_INPUT = Derivation(
    (r"Theorem 14 extremal instance: $D_{e^{\varepsilon}}(\delta_a\|q\delta_a + (1-q)\delta_b) = 1 - e^{\varepsilon}q "
     r"= \delta$"),
    1 - E * _q,
    source=r"catalogue \symdpid{balle19.thm1.3}",
    assumptions=r"$q = (1 - \delta)e^{-\varepsilon}$; the atom $b$ contributes $[0 - \cdot]_+ = 0$",
).step(delta, "substitute $q$")

THM14_EXTREMAL_OUTPUT = Derivation(
    r"Theorem 14 extremal instance through the erasure channel: $D_{e^{\varepsilon'}}(\mu K\|\nu K) = \delta'$",
    gamma - sp.exp(EPS_PRIME) * gamma * _q,
    source=r"catalogue \symdpid{balle19.thm1.3}",
    assumptions=r"$\mu K = (\gamma, 0, 1-\gamma)$, $\nu K = (\gamma q, \gamma(1-q), 1-\gamma)$; only the first atom is "
                r"positive ($e^{\varepsilon'} \le e^{\varepsilon}$: \symdpcode{EPS\_PRIME\_LE\_EPS}; the erasure atom "
                r"gives $[(1-\gamma)(1-e^{\varepsilon'})]_+ = 0$)",
).step(DELTA_PRIME_DOEBLIN, r"$\gamma(1 - e^{\varepsilon' - \varepsilon}(1 - \delta))$")

# --- the remark after Theorem 1 --------------------------------------------------------------------------------------
REM_DOEBLIN = Derivation(
    (r"remark after Theorem 1: $(\delta' - \delta)e^{\varepsilon} = (\gamma - 1)(\delta e^{\varepsilon} - "
     r"\gamma(e^{\varepsilon} - 1)(1 - \delta))$"),
    (DELTA_PRIME_DOEBLIN - delta) * E,
    source=r"001 (main text), \S 3, remark after Theorem 1",
).step(gamma * E - gamma * (1 + gamma * (E - 1)) * (1 - delta) - delta * E, (r"$e^{\varepsilon' - "
                                                                             r"\varepsilon}e^{\varepsilon} = "
                                                                             r"e^{\varepsilon'}$"))\
    .step((gamma - 1) * (delta * E - gamma * (E - 1) * (1 - delta)), "factor")

_threshold = delta * E / ((1 - delta) * (E - 1))
REM_DOEBLIN_THRESHOLD = Derivation(
    (r"remark after Theorem 1: the second factor vanishes at $\gamma = \delta e^{\varepsilon}/((1 - "
     r"\delta)(e^{\varepsilon} - 1))$"),
    (delta * E - gamma * (E - 1) * (1 - delta)).subs(gamma, _threshold),
    source=r"001 (main text), \S 3, remark after Theorem 1",
    assumptions=(r"$0 \le \delta < 1$, $\varepsilon > 0$; for $\gamma \in [0, 1)$ the sign of $\delta' - \delta$ is "
                 r"that of $\gamma$ minus the threshold"),
).step(sp.Integer(0), "substitute")

EPS_PRIME_LE_EPS = Derivation(
    (r"remark after Theorem 1: $e^{\varepsilon'} = 1 + \gamma(e^{\varepsilon} - 1) \le e^{\varepsilon}$, so "
     r"$\varepsilon' \le \varepsilon$"),
    1 + u,
    source=r"001 (main text), \S 3, remark after Theorem 1",
    assumptions=r"$e^{\varepsilon} = 1 + u$, $u \ge 0$; $\gamma = 1 - g$, $g \in [0, 1]$",
).step(1 + gamma * u, (r"$e^{\varepsilon} - e^{\varepsilon'} = (1 - "
                       r"\gamma)(e^{\varepsilon} - 1) \ge 0$"), relation=(">="), given=GAMMA_LE_1)

# --- Theorem 1(4): the sharp δ = 0 bound (catalogue, derived here) ---------------------------------------------------
_g1 = sp.Symbol("gamma", positive=True)  # 0 < gamma < 1 below
_cc = _g1 / (1 - _g1)  # column ratio bound minus one: K(x,y) in [m, m/(1-gamma)] = [m, m(1 + c)]
_s = sp.Symbol("s", nonnegative=True)  # mu(S): mass on the inputs at the top of the column
EPS_STAR_EXP = E / (1 + (1 - _g1) * (E - 1))

SHARP_VERTEX = Derivation(
    (r"Theorem 1(4) sharp: at the vertex $\mu(S) = 1$, $\nu(S) = e^{-\varepsilon}$, the ratio $(1 + c)/(1 + "
     r"e^{-\varepsilon}c)$ is $e^{\varepsilon^*}$"),
    (1 + _cc) / (1 + _cc / E),
    source=r"catalogue \symdpid{balle19.thm1.4}",
    assumptions=r"$c = \gamma/(1 - \gamma)$; the column ratio at a vertex $S$ is $(1 + \mu(S)c)/(1 + \nu(S)c)$",
).step(EPS_STAR_EXP, r"simplify: $e^{\varepsilon}/((1-\gamma)e^{\varepsilon} + \gamma)$")

SHARP_MONOTONE = Derivation(
    (r"Theorem 1(4) sharp: $(1 + sc)/(1 + e^{-\varepsilon}sc)$ increases in $s = \mu(S)$, so the maximum is at $\mu(S) "
     "= 1$"),
    sp.diff((1 + _s * _cc) / (1 + _s * _cc / E), _s),
    source=r"catalogue \symdpid{balle19.thm1.4}",
    assumptions=r"$\nu(S) \ge e^{-\varepsilon}\mu(S)$ (one-sided pure pair), which only lowers the ratio",
).step(_cc * (1 - 1 / E) / (1 + _s * _cc / E) ** 2, r"differentiate: non-negative since $e^{\varepsilon} \ge 1$")

SHARP_GAP = Derivation(
    (r"Theorem 1(4) sharp vs printed: $e^{\varepsilon'}(1 + (1-\gamma)(e^{\varepsilon} - 1)) = e^{\varepsilon} + "
     r"\gamma(1-\gamma)(e^{\varepsilon} - 1)^2$"),
    (1 + _g1 * (E - 1)) * (1 + (1 - _g1) * (E - 1)),
    source=r"catalogue \symdpid{balle19.thm1.4}",
    assumptions=r"hence $e^{\varepsilon^*} < e^{\varepsilon'}$ when $0 < \gamma < 1$, $\varepsilon > 0$",
).step(E + _g1 * (1 - _g1) * (E - 1) ** 2, "expand")

SHARP_EXTREMAL = Derivation(
    r"Theorem 1(4) sharp: the extremal instance $\mu = (1, 0)$, $\nu = (e^{-\varepsilon}, 1 - e^{-\varepsilon})$, $K$ "
    r"with rows $(1, 1-\gamma)/(2-\gamma)$ and $(1-\gamma, 1)/(2-\gamma)$ attains $e^{\varepsilon^*}$",
    (1 / (2 - _g1)) / (1 / E * 1 / (2 - _g1) + (1 - 1 / E) * (1 - _g1) / (2 - _g1)),
    source=r"catalogue \symdpid{balle19.thm1.4}",
    assumptions=r"$(\mu K)(0)/(\nu K)(0)$; $\gamma_{\mathrm{um}}(K) = 1 - (1 - \gamma) = \gamma$",
).step(EPS_STAR_EXP, "simplify")

# --- A Theorem 15, eq. (5): any number n of inputs, one output y at a time ------------------------------------------
_x = sp.Symbol("x", integer=True, positive=True)  # an input, 1..n
_n = sp.Symbol("n", integer=True, positive=True)
# omega~(x), mu(x) and the column K(x, y) of one output y
_wt, _mt, _col = sp.IndexedBase(r"\tilde\omega"), sp.IndexedBase("mu"), sp.IndexedBase("K_y")
_omega_y = sp.Symbol("omega_y", nonnegative=True)  # omega(y) = (omega~ K)(y)


def _over_inputs(f):
    return sp.Sum(f, (_x, 1, _n))


def _ktilde(x):
    return (_col[x] - (1 - _gamma_pos) * _omega_y) / _gamma_pos


EQ5 = Derivation(
    r"eq. (5): $(\tilde\omega\tilde K)(y) = ((\tilde\omega K)(y) - (1-\gamma)\omega(y))/\gamma = \omega(y)$",
    _over_inputs(_wt[_x] * _ktilde(_x)),
    source="000 (appendix), proof of Theorem 15, eq. (5)",
    assumptions=(r"$\tilde K = (K - (1-\gamma)K_\omega)/\gamma$, $\omega = \tilde\omega K$, $\tilde\omega$ sums to 1, "
                 r"$\gamma > 0$"),
).step((_over_inputs(_wt[_x] * _col[_x]) - (1 - _gamma_pos) * _omega_y * _over_inputs(_wt[_x])) / _gamma_pos,
       "linearity of the sum")\
    .step((_omega_y - (1 - _gamma_pos) * _omega_y) / _gamma_pos, (r"$\omega(y) = \sum_x \tilde\omega(x) K(x, y)$; "
                                                                  r"$\tilde\omega$ sums to 1"),
          given={_over_inputs(_wt[_x] * _col[_x]): _omega_y, _over_inputs(_wt[_x]): 1})\
    .step(_omega_y, "simplify")

EQ5_MIXTURE = Derivation(
    (r"Theorem 15: $(\mu K)(y) = (1-\gamma)\omega(y) + \gamma(\mu\tilde K)(y)$ (printed with $\mu\tilde K$ on the "
     "left: typo E6)"),
    (1 - _gamma_pos) * _omega_y + _gamma_pos * _over_inputs(_mt[_x] * _ktilde(_x)),
    source="000 (appendix), proof of Theorem 15",
    assumptions=r"$\mu$ sums to 1, $\gamma > 0$",
).step((1 - _gamma_pos) * _omega_y + _over_inputs(_mt[_x] * _col[_x]) - (1 - _gamma_pos) * _omega_y
       * _over_inputs(_mt[_x]), "linearity of the sum")\
    .step(_over_inputs(_mt[_x] * _col[_x]), (r"$\mu$ sums to 1: the $\omega$ terms "
                                             "cancel"), given={_over_inputs(_mt[_x]): 1})

_y = sp.Symbol("y", integer=True, positive=True)  # an output, 1..m
_nout = sp.Symbol("m", integer=True, positive=True)
_row, _om = sp.IndexedBase("K_x"), sp.IndexedBase("omega")  # K(x, y), omega(y)


def _over_outputs(f):
    return sp.Sum(f, (_y, 1, _nout))


EQ5_ROWS = Derivation(
    r"Theorem 15: the rows of $\tilde K = (K - (1-\gamma)K_\omega)/\gamma$ sum to 1",
    _over_outputs((_row[_y] - (1 - _gamma_pos) * _om[_y]) / _gamma_pos),
    source="000 (appendix), proof of Theorem 15",
    assumptions=(r"the row $K(x)$ and $\omega$ sum to 1, $\gamma > 0$ ($\tilde K \ge 0$ is "
                 r"\symdpid{balle19.eq5.nonnegative})"),
).step((_over_outputs(_row[_y]) - (1 - _gamma_pos) * _over_outputs(_om[_y])) / _gamma_pos, "linearity of the sum")\
    .step(sp.Integer(1), r"$K(x)$ and $\omega$ sum to 1", given={_over_outputs(_row[_y]): 1, _over_outputs(_om[_y]): 1})


# --- FACTS: printed slips ------------------------------------------------------------------------------------------
def _hs(P, Q, level):
    return sum(sp.Max(p - level * q, 0) for p, q in zip(P, Q))


_RR = ((sp.Rational(3, 4), sp.Rational(1, 4)), (sp.Rational(1, 4), sp.Rational(3, 4)))


def e4_printed_implication() -> bool:
    """E4: RR(3/4) is (0, log 3)-Dobrushin (D_3 = 0 both ways) but TV = 1/2, so it is not 0-Dobrushin."""
    d3 = [_hs(_RR[i], _RR[j], 3) for i in range(2) for j in range(2)]
    return all(sp.simplify(x) == 0 for x in d3) and _hs(_RR[0], _RR[1], 1) == sp.Rational(1, 2)


def e15_dobrushin_not_weakest() -> bool:
    """E15 ("Dobrushin's is the weakest among these conditions", P §3): (gamma, eps)-Dobrushin is weaker still.

    Every gamma-Dobrushin kernel is (gamma, eps)-Dobrushin (balle19.lem9.eps-dobrushin.corrected); the converse
    fails on RR(3/4) at eps = log 3, the counterexample of E4, so the inclusion is strict.
    """
    return e4_printed_implication()


def e5_printed_last_line() -> bool:
    """E5: erasure gamma = 2/5, eps = 1/2, mu = (7/10, 3/10), nu = (1/5, 4/5): gamma theta = 0.148102298344 but
    gamma D_{e^{eps'}}(mu||nu) = 0.0598328257257 (catalogue), eps' = log(1 + (e^eps - 1)/theta)."""
    mu_, nu_ = (sp.Rational(7, 10), sp.Rational(3, 10)), (sp.Rational(1, 5), sp.Rational(4, 5))
    g_, e_ = sp.Rational(2, 5), sp.exp(sp.Rational(1, 2))
    th = _hs(mu_, nu_, e_)
    printed = g_ * _hs(mu_, nu_, 1 + (e_ - 1) / th)
    return (abs(sp.N(g_ * th, 20) - sp.Float("0.148102298344")) < 1e-11
            and abs(sp.N(printed, 20) - sp.Float("0.0598328257257")) < 1e-12)


def e6_printed_mixture() -> bool:
    """E6: on K = [[2,1,1],[1,2,1],[1,1,2]]/4 (gamma_um = 1/2), mu = delta_0, nu = delta_1, alpha = 1/2, the printed
    'mu K~ = (1-gamma) omega + gamma mu K~' fails (it forces mu K~ = omega); with mu K on the left it holds."""
    Km = sp.Matrix([[2, 1, 1], [1, 2, 1], [1, 1, 2]]) / 4
    g_ = sp.Rational(1, 2)
    m, n_ = sp.Matrix([[1, 0, 0]]), sp.Matrix([[0, 1, 0]])
    om = (m + n_) / 2 * Km  # omega = omega~ K, omega~ = (mu + nu)/2
    Kt = (Km - (1 - g_) * sp.ones(3, 1) * om) / g_
    printed = m * Kt - ((1 - g_) * om + g_ * m * Kt)
    corrected = m * Km - ((1 - g_) * om + g_ * m * Kt)
    return printed != sp.zeros(1, 3) and corrected == sp.zeros(1, 3) and min(Kt) >= 0


FACTS = {
    "E4: (gamma, eps)-Dobrushin does not imply gamma-Dobrushin (RR(3/4), eps = log 3)": e4_printed_implication,
    "E15: Dobrushin is not the weakest condition; (gamma, eps)-Dobrushin is weaker": e15_dobrushin_not_weakest,
    "E5: printed last line of Theorem 13's proof, gamma theta = gamma D_{e^eps'}(mu||nu), is false":
        e5_printed_last_line,
    "E6: printed 'mu K~ = (1-gamma) omega + gamma mu K~' should read mu K on the left": e6_printed_mixture,
}

DERIVATIONS: list[Derivation] = [
    HS_ATOM_BELOW, HS_ATOM_ABOVE, LEMMA_12, TV_ATOM_BELOW, TV_ATOM_ABOVE, HS_TV,
    ERASURE_ATOM_BELOW, ERASURE_ATOM_ABOVE, ERASURE_SYMBOL,
    THM13_MIXTURE, THM13_LEVEL, BLANKET, TAB1_ULTRA, AJC,
    THM14_EXTREMAL_INPUT, THM14_EXTREMAL_OUTPUT, REM_DOEBLIN, REM_DOEBLIN_THRESHOLD, EPS_PRIME_LE_EPS,
    SHARP_VERTEX, SHARP_MONOTONE, SHARP_GAP, SHARP_EXTREMAL, EQ5, EQ5_MIXTURE, EQ5_ROWS,
]
