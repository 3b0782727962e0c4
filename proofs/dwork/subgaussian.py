"""Derivations for Dwork & Rothblum, Section 2 (privacy loss, subgaussian variables) and the privacy-loss results
of Section 3.1 encoded in :mod:`symdp.theorems.dwork.subgaussian`.

Seed ``../shared/seeds/004_b3a545b59162ae7d.txt``; catalogue ``../shared/catalogue/catalogue-dwork.md``. Every step
is checked exactly by SymPy (:class:`symdp.derivation.Derivation`):

* the Gaussian privacy loss ``L = Δ²/(2σ²) - (Δ/σ)Z`` and its centred MGF ``e^{λ²Δ²/(2σ²)}`` (so τ = Δ/σ and
  KL = τ²/2: Theorem 3.2's content, and the equality case of dwork.obs.kl-le-tau2);
* the Laplace privacy loss: the density ``e^{(ℓ-a)/2}/4`` by change of variables, its atoms, ``E[L] = KL``, the
  MGF in closed form, ``E[e^{-L}] = 1``, and ``K'(-1) = -KL`` (λ = -1 is a stationary point of ``2K(λ)/λ²``);
* Definition 2.5's "mean 0" remark, Lemma 2.1's Chernoff optimisation, Lemma 2.2's last line, Lemma 2.3's
  Taylor bounds (``2^{k+1}/k! <= 4``, the geometric series, ``2τ²/(1-τ) <= 3τ²`` iff ``τ <= 1/3``), Hoeffding's
  convexity step (Lemma 3.6), ``E_P[e^{-(L - KL)}] = e^{KL}`` (dwork.obs.kl-le-tau2), Fact 2.2's moment constants
  and Fact 4.1's Jensen step, for a, b >= 0 and, on |a| and |b|, for any two reals (the form Claim 4.5 needs).

Case splits are fixed by a substitution given with the step (``τ = 1/(3 + c)`` with ``c >= 0`` encodes
``τ <= 1/3``). ``FACTS`` holds small exact checks of printed slips and of the odd-k reading of Fact 2.2.

>>> all(d.check() for d in DERIVATIONS)
True
>>> all(check() for check in FACTS.values())
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation

SOURCE = "004_b3a545b59162ae7d.txt"

x, z, ell = sp.symbols("x Z ell", real=True)
lam = sp.Symbol("lambda", real=True)
t = sp.Symbol("t", real=True)
sigma, Delta, a, b, tau = sp.symbols("sigma Delta a b tau", positive=True)
c = sp.Symbol("c", nonnegative=True)
k = sp.Symbol("k", integer=True, positive=True)
m = sp.Symbol("m", integer=True, positive=True)
kr = sp.Symbol("k", positive=True)
p, u = sp.symbols("p u", real=True)
q = sp.Symbol("q", real=True)
lo, hi = sp.symbols("a b", real=True)  # Hoeffding's interval [a, b]
E = sp.exp


def _gauss_log_density(mean):
    return -(x - mean) ** 2 / (2 * sigma**2) - sp.log(sigma * sp.sqrt(2 * sp.pi))


# --- Gaussian privacy loss (Theorem 3.2, dwork.def3.1, dwork.obs.kl-le-tau2) ---------------------------------------
GAUSS_LOSS = (
    Derivation(r"Gaussian privacy loss: $L = \Delta^2/(2\sigma^2) - (\Delta/\sigma) Z$",
               _gauss_log_density(0) - _gauss_log_density(Delta), source=SOURCE + ", Theorem 3.2 (proof)",
               assumptions=(r"$P = \mathcal{N}(0, \sigma^2)$, $Q = \mathcal{N}(\Delta, \sigma^2)$, $X = \sigma Z \sim "
                            "P$"))
    .step((Delta**2 - 2 * Delta * x) / (2 * sigma**2), "expand the squares")
    .step(Delta**2 / (2 * sigma**2) - Delta / sigma * z, r"$X = \sigma Z$, $Z \sim \mathcal{N}(0, 1)$",
          given={x: sigma * z})
)

GAUSS_LOSS_MGF_EXPONENT = (
    Derivation(r"Gaussian privacy loss: completing the square in $\mathbb{E}[e^{\lambda(L - \mathbb{E}L)}]$",
               -lam * Delta / sigma * z - z**2 / 2, source=SOURCE + ", Theorem 3.2 (proof)",
               assumptions=r"the exponent of $e^{\lambda(L - \mu)}\varphi(Z)$")
    .step(-(z + lam * Delta / sigma) ** 2 / 2 + lam**2 * Delta**2 / (2 * sigma**2),
          r"complete the square: the shifted Gaussian integrates to 1, so $\mathbb{E}[e^{\lambda(L-\mu)}] = "
          r"e^{\lambda^2 \Delta^2/(2\sigma^2)}$ exactly, $\tau = \Delta/\sigma$ and $\mathrm{KL} = \tau^2/2$")
)

# --- Laplace privacy loss --------------------------------------------------------------------------------------
LAPLACE_DENSITY = (
    Derivation("Laplace privacy loss: density of $L$ on $(-a, a)$ by change of variables",
               E(-x / b) / (2 * b) * (b / 2), source=SOURCE + ", Definition 3.1 (Laplace pair)",
               assumptions=(r"$P = \mathrm{Lap}(0, b)$, $Q = \mathrm{Lap}(ab, b)$; for $0 < x < ab$, $L = (ab - "
                            "2x)/b$, $|dx/dL| = b/2$"))
    .step(E((ell - a) / 2) / 4, r"$x = (ab - b\ell)/2$", given={x: (a * b - b * ell) / 2})
)

LAPLACE_ATOMS = (
    Derivation("Laplace privacy loss: the atom at $-a$ has mass $e^{-a}/2$",
               sp.Integral(E(-x / b) / (2 * b), (x, a * b, sp.oo)), source=SOURCE,
               assumptions=r"$L = -a$ exactly when $X \ge ab$ (and $L = +a$ when $X \le 0$, mass $1/2$)")
    .step(E(-a) / 2, "integrate the Laplace tail")
)

_ATOMS_MEAN = a / 2 - a * E(-a) / 2
LAPLACE_MEAN = (
    Derivation((r"Laplace privacy loss: $\mathbb{E}[L] = a + e^{-a} - 1 = "
                r"D_{\mathrm{KL}}(P\|Q)$"), _ATOMS_MEAN + sp.Integral(
        ell * E((ell - a) / 2) / 4, (ell, -a, a)), source=SOURCE + ", Definition 3.1")
    .step(a + E(-a) - 1, "integrate by parts; this is the KL closed form of Laplace pairs")
)

_y = lam + sp.Rational(1, 2)
_antiderivative = E(_y * ell - a / 2) / (4 * _y)
LAPLACE_MGF_ANTIDERIVATIVE = (
    Derivation("Laplace privacy loss: antiderivative of the MGF integrand", sp.diff(_antiderivative, ell),
               source=SOURCE, assumptions=r"$\lambda \ne -1/2$ (the limit is continuous)")
    .step(E(lam * ell) * E((ell - a) / 2) / 4, "differentiate")
)

LAPLACE_MGF = (
    Derivation(r"Laplace privacy loss: $\mathbb{E}[e^{\lambda L}]$ in closed form",
               E(lam * a) / 2 + E(-a) * E(-lam * a) / 2 + _antiderivative.subs(ell, a) - _antiderivative.subs(ell, -a),
               source=SOURCE, assumptions="atoms $1/2$ at $a$ and $e^{-a}/2$ at $-a$, plus the continuous part")
    .step(E(lam * a) / 2 + E(-a * (1 + lam)) / 2 + E(-a / 2) * (E(a * _y) - E(-a * _y)) / (4 * _y),
          r"collect: the last term is $e^{-a/2}\sinh(a y)/(2y)$ with $y = \lambda + 1/2$")
)

_MGF = E(lam * a) / 2 + E(-a * (1 + lam)) / 2 + E(-a / 2) * (E(a * _y) - E(-a * _y)) / (4 * _y)
LAPLACE_NORMALISATION = (
    Derivation(r"Laplace privacy loss: $\mathbb{E}[e^{-L}] = 1$", _MGF.subs(lam, -1), source=SOURCE)
    .step(1, r"evaluate at $\lambda = -1$; this is $\int q = 1$")
)

LAPLACE_STATIONARY = (
    Derivation((r"Laplace privacy loss: $K'(-1) = M'(-1) - \mathbb{E}[L] = -2 "
                r"D_{\mathrm{KL}}(P\|Q)$"), sp.diff(_MGF, lam).subs(lam, -1)
               - (a + E(-a) - 1), source=SOURCE + r" (catalogue \symdpid{dwork.obs.kl-le-tau2})",
               assumptions=(r"$M(-1) = 1$, so $K'(-1) = M'(-1) - D_{\mathrm{KL}}(P\|Q)$; $M'(-1) = \mathbb{E}_Q[L] = "
                            r"-D_{\mathrm{KL}}(Q\|P)$"))
    .step(-2 * (a + E(-a) - 1), r"$\mathrm{KL}(Q\|P) = \mathrm{KL}(P\|Q)$ for Laplace pairs; then "
                                r"$\frac{d}{d\lambda}\frac{2K}{\lambda^2} = \frac{2(\lambda K' - 2K)}{\lambda^3} = 0$ "
                                r"at $\lambda = -1$ since $K(-1) = \mathrm{KL}$: $\lambda = -1$ is a stationary point "
                                r"of the ratio, with value $2\,\mathrm{KL}$")
)

# --- Definition 2.5 and Lemma 2.1 -----------------------------------------------------------------------------------
x1, x2 = sp.symbols("x_1 x_2", real=True)
w = sp.Symbol("w", positive=True)
_mgf2 = w * E(lam * x1) + (1 - w) * E(lam * x2)
MEAN_ZERO = (
    Derivation(r"Definition 2.5, remark: the first-order term of $\ln\mathbb{E}[e^{\lambda X}]$ is $\mathbb{E}[X]$",
               sp.diff(sp.log(_mgf2), lam).subs(lam, 0), source=SOURCE + ", Definition 2.5 (remarks)",
               assumptions="$X = x_1$ with probability $w$, $x_2$ with probability $1 - w$")
    .step(w * x1 + (1 - w) * x2, r"so $\lambda \mathbb{E}[X] + O(\lambda^2) \le \lambda^2\tau^2/2$ for $\lambda \to "
                                 r"0^{\pm}$ forces $\mathbb{E}[X] = 0$")
)

CHERNOFF = (
    Derivation("Lemma 2.1: the Chernoff exponent", lam**2 * tau**2 / 2 - lam * t * tau,
               source=SOURCE + ", Lemma 2.1 (proof)")
    .step((lam * tau - t) ** 2 / 2 - t**2 / 2, "complete the square")
    .step(-t**2 / 2, r"$\lambda = t/\tau$, which is $> 0$ (Markov on $e^{\lambda X}$) only when $t > 0$: the statement "
                     r"needs $t \ge 0$", given={lam: t / tau})
)

# --- Lemma 2.2 ---------------------------------------------------------------------------------------------------
t1, t2, t3 = sp.symbols("tau_1 tau_2 tau_3", positive=True)
SUM_STEP = (
    Derivation("Lemma 2.2: the last line of the induction ($k = 3$)",
               E(lam**2 * t3**2 / 2) * E(lam**2 * (t1**2 + t2**2) / 2), source=SOURCE + ", Lemma 2.2 (proof)")
    .step(E(lam**2 * (t1**2 + t2**2 + t3**2) / 2), "merge the exponents")
)

# --- Lemma 2.3 ---------------------------------------------------------------------------------------------------
_coef = 2 ** (k + 1) / sp.factorial(k)
LEMMA23_COEFFICIENTS = (
    Derivation(r"Lemma 2.3: $2^{k+1}/k!$ is non-increasing for $k \ge 1$ (so $\le 4$, its value at $k = 2$)",
               _coef.subs(k, k + 1) / _coef, source=SOURCE + ", Lemma 2.3 (proof, inequality (4))")
    .step(2 / (k + 1), r"cancel; $\le 1$ for $k \ge 1$")
)

_T = 1 / (3 + c)
LEMMA23_GEOMETRIC = (
    Derivation(r"Lemma 2.3: $\sum_{k \ge 2} 2\tau^k = 2\tau^2/(1 - \tau)$", sp.Sum(2 * _T**k, (k, 2, sp.oo)),
               source=SOURCE + ", Lemma 2.3 (proof)", assumptions=r"$\tau = 1/(3 + c)$, $c \ge 0$ ($\tau \le 1/3$)")
    .step(2 * _T**2 / (1 - _T), "geometric series")
)

LEMMA23_ONE_THIRD = (
    Derivation((r"Lemma 2.3: $\tau + 2\tau^2/(1 - \tau) \le \tau + 3\tau^2$ when $\tau \le "
                "1/3$"), _T + 2 * _T**2 / (1 - _T),
               source=SOURCE + ", Lemma 2.3 (proof)", assumptions=r"$\tau = 1/(3 + c)$, $c \ge 0$")
    .step(_T + 3 * _T**2, r"$3\tau^2 - \frac{2\tau^2}{1-\tau} = \frac{\tau^2(1 - 3\tau)}{1 - \tau} \ge 0$",
          relation="<=")
)

_ex, _var = sp.symbols("E_X V_X", nonnegative=True)
LEMMA23_LINE2 = (
    Derivation((r"Lemma 2.3, line 2: $\sqrt{\mathbb{E}[X^2]} \le \sqrt{\operatorname{Var} X} + \mathbb{E}[X]$ needs "
                r"$\mathbb{E}[X] \ge 0$"),
               (sp.sqrt(_var) + _ex) ** 2, source=SOURCE + ", Lemma 2.3 (last step)",
               assumptions=r"$\mathbb{E}[X] = E_X \ge 0$, $\operatorname{Var} X = V_X$")
    .step(_var + _ex**2, r"drop $2\sqrt{V_X}E_X \ge 0$ (false when $E[X] < 0$: the erratum)", relation=">=")
)

# --- Lemma 3.6 (Hoeffding) ----------------------------------------------------------------------------------------
_chord = ((hi - x) * E(lam * lo) + (x - lo) * E(lam * hi)) / (hi - lo)
HOEFFDING_CHORD = (
    Derivation(r"Lemma 3.6: the chord of $e^{\lambda x}$ over $[a, b]$, at $\mathbb{E}[X] = 0$", _chord.subs(x, 0),
               source=SOURCE + ", Lemma 3.6 (classical proof)",
               assumptions=r"$e^{\lambda x} \le \operatorname{chord}(x)$ on $[a, b]$ (convexity); the chord is affine, "
                           r"so $\mathbb{E}[\operatorname{chord}(X)] = \operatorname{chord}(\mathbb{E}X) = "
                           r"\operatorname{chord}(0)$")
    .step((hi * E(lam * lo) - lo * E(lam * hi)) / (hi - lo), "evaluate")
    .step(E(-p * u) * (1 - p + p * E(u)), r"$p = -a/(b-a)$, $u = \lambda(b-a)$, i.e. $e^{\varphi(u)}$ with $\varphi(u) "
                                          r"= -pu + \ln(1 - p + pe^u)$", given={p: -lo / (hi - lo), u: lam * (hi - lo)})
)

_phi = -p * u + sp.log(1 - p + p * E(u))
HOEFFDING_PHI0 = (
    Derivation(r"Lemma 3.6: $\varphi(0) = 0$ and $\varphi'(0) = 0$", _phi.subs(u, 0) + sp.diff(_phi, u).subs(u, 0) ** 2,
               source=SOURCE)
    .step(0, "evaluate")
)

_qu = p * E(u) / (1 - p + p * E(u))
HOEFFDING_PHI2 = (
    Derivation(r"Lemma 3.6: $\varphi''(u) = q(1 - q)$ with $q = p e^u/(1 - p + p e^u)$", sp.diff(_phi, u, 2),
               source=SOURCE)
    .step(_qu * (1 - _qu), "differentiate twice")
)

HOEFFDING_QUARTER = (
    Derivation(r"Lemma 3.6: $q(1 - q) \le 1/4$, so $\varphi(u) \le u^2/8$ (Taylor) and $\tau \le (b - a)/2$",
               q * (1 - q), source=SOURCE)
    .step(sp.Rational(1, 4) - (q - sp.Rational(1, 2)) ** 2, "complete the square")
    .step(sp.Rational(1, 4), "a square is non-negative", relation="<=")
)

# --- dwork.obs.kl-le-tau2 ---------------------------------------------------------------------------------------
P1, P2, P3, Q1, Q2, Q3, K = sp.symbols("P_1 P_2 P_3 Q_1 Q_2 Q_3 K", positive=True)
_centred_exp = sum(Pi * E(-(sp.log(Pi / Qi) - K)) for Pi, Qi in ((P1, Q1), (P2, Q2), (P3, Q3)))
KL_LE_TAU2 = (
    Derivation((r"$D_{\mathrm{KL}} \le \tau^2/2$: $\mathbb{E}_P[e^{-(L - D_{\mathrm{KL}})}] = "
                r"e^{D_{\mathrm{KL}}}$"), _centred_exp,
               source=SOURCE + r" (catalogue \symdpid{dwork.obs.kl-le-tau2})",
               assumptions=r"three atoms (any number alike), $K = D_{\mathrm{KL}}(P\|Q)$, $Q_1 + Q_2 + Q_3 = 1$")
    .step(E(K) * (Q1 + Q2 + Q3), r"$P_i e^{-\ln(P_i/Q_i)} = Q_i$")
    .step(E(K), r"$\sum Q = 1$; then $\lambda = -1$ in Definition 3.2 gives $e^{\mathrm{KL}} \le e^{\tau^2/2}$",
          given={Q3: 1 - Q1 - Q2})
)

# --- Fact 2.2 ---------------------------------------------------------------------------------------------------
FACT22_EVEN = (
    Derivation(r"Fact 2.2, even $k = 2m$: $m!\,2^{m+1}$ equals the classical $k 2^{k/2}\Gamma(k/2)$",
               2 * m * 2**m * sp.gamma(m), source=SOURCE + ", Fact 2.2 (catalogue)")
    .step(sp.factorial(m) * 2 ** (m + 1), r"$m\,\Gamma(m) = m!$")
)

FACT22_ONE_SIDED = (
    Derivation((r"Fact 2.2, odd $k$: $\mathbb{E}[X^k] \le \mathbb{E}[X_+^k] \le \int_0^\infty k t^{k-1} "
                r"e^{-t^2/(2\tau^2)}\,dt$"),
               sp.Integral(kr * t ** (kr - 1) * E(-t**2 / (2 * tau**2)), (t, 0, sp.oo)),
               source=SOURCE + ", Fact 2.2 (the floor reading)",
               assumptions=r"$\Pr[X \ge s] \le e^{-s^2/(2\tau^2)}$ for $s \ge 0$ (Lemma 2.1, corrected)")
    .step(kr * 2 ** (kr / 2 - 1) * sp.gamma(kr / 2) * tau**kr, r"substitute $s = t^2/(2\tau^2)$")
)

# --- Fact 4.1 ---------------------------------------------------------------------------------------------------
FACT41_JENSEN = (
    Derivation("Fact 4.1: Jensen's right side", ((2 * a) ** kr + (2 * b) ** kr) / 2,
               source=SOURCE + ", Fact 4.1 (proof)", assumptions=r"$a, b > 0$ ($x^k$ is convex on $[0, \infty)$ only)")
    .step(2 ** (kr - 1) * (a**kr + b**kr), "factor $2^k$")
)


_abs_a, _abs_b = sp.symbols("A B", nonnegative=True)  # |a| and |b| of any two reals
FACT41_ABSOLUTE = (
    Derivation(r"Fact 4.1 for any two reals: $|a + b|^k \le (|a| + |b|)^k$, then Jensen on $|a|$, $|b|$",
               ((2 * _abs_a) ** kr + (2 * _abs_b) ** kr) / 2, source=SOURCE + ", Fact 4.1 (corrected)",
               assumptions=r"$A = |a|$, $B = |b| \ge 0$; $|a + b| \le A + B$ (triangle) and $x^k$ increasing on $[0, "
                           r"\infty)$, so $|a + b|^k \le (A + B)^k = (2A/2 + 2B/2)^k \le ((2A)^k + (2B)^k)/2$ "
                           "(convexity)")
    .step(2 ** (kr - 1) * (_abs_a**kr + _abs_b**kr), "factor $2^k$: the form Claim 4.5 needs for log-ratios of both "
                                                     "signs and odd $k$")
)


# --- FACTS: exact checks of printed slips --------------------------------------------------------------------------
def fact22_floor_reading_proved_up_to_15() -> bool:
    """The one-sided bound k 2^{k/2-1} Γ(k/2) is below the floor reading m! 2^{m+2} (k = 2m + 1) exactly for odd
    k <= 15, and above it at k = 17: the floor reading of Fact 2.2 is proved for k <= 15, undecided beyond."""
    def ratio(kk):
        one_sided = kk * sp.Integer(2) ** sp.Rational(kk - 2, 2) * sp.gamma(sp.Rational(kk, 2))
        return sp.N(one_sided / (sp.factorial((kk - 1) // 2) * 2 ** ((kk + 1) // 2 + 1)), 30)
    return all(ratio(kk) < 1 for kk in range(1, 16, 2)) and ratio(17) > 1


def fact41_counterexample() -> bool:
    """k = 3, a = -2, b = 1: (a + b)^3 = -1 > 2^2 ((-2)^3 + 1) = -28."""
    return (sp.Integer(-2) + 1) ** 3 > 2**2 * ((-2) ** 3 + 1)


def fact41_both_negative() -> bool:
    """Both negative fails too for odd k (x^k is concave on (-oo, 0]): a = -1, b = -2, k = 3 gives -27 > -36, while
    the absolute form holds there: 27 <= 4 (1 + 8) = 36."""
    a_, b_ = sp.Integer(-1), sp.Integer(-2)
    return (a_ + b_) ** 3 > 2**2 * (a_**3 + b_**3) and abs(a_ + b_) ** 3 <= 2**2 * (abs(a_) ** 3 + abs(b_) ** 3)


def def22_counterexample() -> bool:
    """P = (1/2, 1/2), Q = (2/5, 3/5), δ = 1/10: hockey-stick at ε = 0 is exactly δ both ways, yet the printed
    D^δ∞(P||Q) = ln(5/4) > 0."""
    P, Q, d = (sp.Rational(1, 2), sp.Rational(1, 2)), (sp.Rational(2, 5), sp.Rational(3, 5)), sp.Rational(1, 10)
    hs = lambda A, B: sum(max(0, ai - bi) for ai, bi in zip(A, B))  # noqa: E731
    return hs(P, Q) == d and hs(Q, P) == d and sp.log(P[0] / Q[0]) > 0


def text21_counterexample() -> bool:
    """P = (3/10, 7/10), Q = (1/10, 9/10), ε = ln 2: δ = 1/10 both ways, Pr_P[L > ln 2] = 3/10."""
    P, Q = (sp.Rational(3, 10), sp.Rational(7, 10)), (sp.Rational(1, 10), sp.Rational(9, 10))
    hs = lambda A, B: sum(max(0, ai - 2 * bi) for ai, bi in zip(A, B))  # noqa: E731
    tail = sum(pi for pi, qi in zip(P, Q) if pi / qi > 2 or qi / pi > 2)
    return max(hs(P, Q), hs(Q, P)) == sp.Rational(1, 10) and tail == sp.Rational(3, 10)


def lemma23_half_is_not_enough() -> bool:
    """The proof's 'for τ <= 1/2' does not give 2τ²/(1 - τ) <= 3τ²: at τ = 1/2 it is 1 > 3/4."""
    T = sp.Rational(1, 2)
    return 2 * T**2 / (1 - T) > 3 * T**2


FACTS = {
    "Fact 2.2: the floor reading follows from the one-sided tail bound exactly for odd k <= 15":
        fact22_floor_reading_proved_up_to_15,
    "Fact 4.1: refuted for 'any two reals' (k = 3, a = -2, b = 1)": fact41_counterexample,
    "Fact 4.1: refuted for two negative reals and odd k (k = 3, a = -1, b = -2); |.| holds": fact41_both_negative,
    "Definition 2.2: the printed D^delta lacks '-delta' (P = (1/2,1/2), Q = (2/5,3/5))": def22_counterexample,
    "Section 2.1: (ln 2, 1/10)-DP pair with Pr[|L| > ln 2] = 3/10": text21_counterexample,
    "Lemma 2.3: 'tau <= 1/2' in the proof is not enough, 1/3 is needed": lemma23_half_is_not_enough,
}

DERIVATIONS: list[Derivation] = [
    GAUSS_LOSS, GAUSS_LOSS_MGF_EXPONENT, LAPLACE_DENSITY, LAPLACE_ATOMS, LAPLACE_MEAN, LAPLACE_MGF_ANTIDERIVATIVE,
    LAPLACE_MGF, LAPLACE_NORMALISATION, LAPLACE_STATIONARY, MEAN_ZERO, CHERNOFF, SUM_STEP, LEMMA23_COEFFICIENTS,
    LEMMA23_GEOMETRIC, LEMMA23_ONE_THIRD, LEMMA23_LINE2, HOEFFDING_CHORD, HOEFFDING_PHI0, HOEFFDING_PHI2,
    HOEFFDING_QUARTER, KL_LE_TAU2, FACT22_EVEN, FACT22_ONE_SIDED, FACT41_JENSEN, FACT41_ABSOLUTE,
]
