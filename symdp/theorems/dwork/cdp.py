"""Dwork & Rothblum, *Concentrated Differential Privacy*: concentrated DP, composition, advanced composition.

Seed ``../shared/seeds/004_b3a545b59162ae7d.txt``; catalogue ``../shared/catalogue/catalogue-dwork.md`` (IDs below are
the catalogue's). Encoded here, in the paper's order: advanced composition (Theorem 1.1, on its worst case, k-fold
randomized response, with the exact hockey-stick divergence), Definition 3.3 ((μ, τ)-CDP of a pair), the Gaussian
mechanism (Theorem 3.2, checked by quadrature of its privacy-loss MGF, the remarks after it, Corollary 3.3),
composition (Theorem 3.4: non-adaptive on finite products and on Gaussians; *refuted* for adaptive composition,
with a corrected bound), DP ⇒ CDP (Theorem 3.5), and the observation that the paper's CDP is not closed under
post-processing. The symbolic side (the Gaussian loss expansion, the MGF of a composition, Hoeffding's width,
the arithmetic of Theorem 1.1) is in :mod:`proofs.dwork.cdp`.

Conventions. A *pair* (P, Q) stands for (M(x), M(y)) for one ordered pair of adjacent databases; its CDP
parameters are the smallest ones Definition 3.3 allows: μ = E[L] = KL(P‖Q) and τ = the optimal subgaussian
standard of L − E[L] (:func:`cdp_parameters`). The Gaussian mechanism is P = N(Δ, σ²) = M(d), Q = N(0, σ²) = M(d')
(f(d) = f(d') + Δ, as in the proof of Theorem 3.2). Pairs are drawn as plain JSON data and built at the working
precision by :func:`build_cdp_pair` (which extends :func:`symdp.theorems.dwork.antipodal.build_pair`).

>>> import mpmath
>>> with mpmath.workdps(30):                        # catalogue dwork.thm3.2: sigma = 2, Delta = 1 gives (0.125, 0.5)
...     mu_, tau_ = cdp_parameters(*discrete_gaussian_pair(2, 1, 20))
...     print(mpmath.nstr(mu_.value, 10), mpmath.nstr(tau_.value, 10))
0.125 0.5
"""

from __future__ import annotations

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp.errors import InvalidParameter
from symdp.estimate import Estimate
from symdp.expressions import KL, HockeyStick, PrivacyLossOf, Quantity, SubgaussianStandard
from symdp.finite import FiniteDistribution, kl, privacy_loss_mgf, to_mpf
from symdp.theorem import Erratum, Param, Source, Theorem
from symdp.theorems.dwork.antipodal import antipodal_pairs, arbitrary_pairs, build_pair, dp_pairs, rr
from symdp.theorems.dwork.common import SEED, discrete_gaussian, loss_standard, sym_max_divergence

# --- symbols ---------------------------------------------------------------------------------------------------
eps = sp.Symbol("epsilon", nonnegative=True)
eps_pos = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", positive=True)  # Theorem 1.1 prints delta >= 0; ln(1/delta) needs 0 < delta <= 1
delta_p = sp.Symbol("delta_p", nonnegative=True)  # the paper's delta'
k = sp.Symbol("k", integer=True, positive=True)
n = sp.Symbol("n", integer=True, positive=True)
s = sp.Symbol("s", integer=True, positive=True)
i = sp.Symbol("i", integer=True, positive=True)
lam = sp.Symbol("lambda", real=True)
sigma = sp.Symbol("sigma", positive=True)
Delta = sp.Symbol("Delta", positive=True)
tau = sp.Symbol("tau", nonnegative=True)
mu = sp.IndexedBase("mu")
taus = sp.IndexedBase("tau")
P, Q, U, V = sp.symbols("P Q U V")
Md, Mdp = sp.symbols("M(d) M(d')")


class LossMGF(Quantity):
    """E_P[exp(λ (L_(P‖Q) − c))]: the moment generating function of the privacy loss, shifted by c."""

    nargs = 4

    def _latex(self, printer):
        P_, Q_, l, c = self.args
        loss = printer._print(PrivacyLossOf(P_, Q_))
        shifted = loss if c == 0 else rf"\left({loss} - {printer._print(c)}\right)"
        return rf"\mathbb{{E}}_{{{printer._print(P_)}}}\left[e^{{{printer._print(l)} {shifted}}}\right]"


def _loss_mean(P_, Q_):
    return KL(P_, Q_)


# --- finite pairs and their CDP parameters ---------------------------------------------------------------------
def cdp_parameters(P_: FiniteDistribution, Q_: FiniteDistribution) -> tuple[Estimate, Estimate]:
    """The smallest (μ, τ) with D_subG(P‖Q) ≼ (μ, τ) (Definitions 3.2, 3.3): μ = E[L] = KL(P‖Q), τ = τ(L − E L)."""
    return kl(P_, Q_), loss_standard(P_, Q_)


def discrete_gaussian_pair(sigma_value, shift, radius: int) -> tuple[FiniteDistribution, FiniteDistribution]:
    """(N_Z(Δ, σ²), N_Z(0, σ²)) on the integers of [-R, R], each normalised (catalogue §1, generator (iv)).

    For integer Δ and large R its privacy loss has KL = τ²/2 and standard τ = Δ/σ up to the truncation: the centred
    MGF is e^{λ²τ²/2} θ(λΔ)/θ(0) with θ(c) = Σ_x e^{-(x-c)²/2σ²} ≤ θ(0). Truncated, it is simply a finite pair.
    """
    sd, shift_ = to_mpf(sigma_value, "sigma"), to_mpf(shift, "shift")
    if not sd > 0 or int(radius) != radius or radius < 1:
        raise InvalidParameter(f"a discrete Gaussian needs sigma > 0 and an integer radius >= 1, got {sigma_value}, "
                               f"{radius}")
    return discrete_gaussian(sd, shift_, -int(radius), int(radius)), discrete_gaussian(sd, 0, -int(radius), int(radius))


def build_cdp_pair(draw) -> tuple[FiniteDistribution, FiniteDistribution]:
    """A pair from a plain draw: the kinds of :func:`~symdp.theorems.dwork.antipodal.build_pair`, and

    * ``"dgauss"``: :func:`discrete_gaussian_pair` (``sigma``, ``delta``, ``radius``);
    * ``"null"``: a mechanism that ignores its input (one atom; privacy loss ≡ 0);
    * ``"coin"``: ``m`` equally likely outcomes whatever the input (the adversary's own coin).
    """
    kind = draw["kind"]
    if kind == "dgauss":
        return discrete_gaussian_pair(draw["sigma"], draw["delta"], draw["radius"])
    if kind == "null":
        return FiniteDistribution([1]), FiniteDistribution([1])
    if kind == "coin":
        m = int(draw["m"])
        return FiniteDistribution([mpmath.mpf(1) / m] * m), FiniteDistribution([mpmath.mpf(1) / m] * m)
    return build_pair(draw)


def product_pair(pairs) -> tuple[FiniteDistribution, FiniteDistribution]:
    """The views (U, V) of a non-adaptive composition: the product laws of the P's and of the Q's."""
    U_, V_ = pairs[0]
    for P_, Q_ in pairs[1:]:
        U_, V_ = U_.product(P_), V_.product(Q_)
    return U_, V_


def adaptive_pair(first, branches) -> tuple[FiniteDistribution, FiniteDistribution]:
    """The views (U, V) of a two-step adaptive composition (the game of Section 3.1) as finite joint laws.

    Step 1 runs the pair ``first``; on output y1 the adversary picks the pair ``branches[y1]`` for step 2.
    U(y1, y2) = P1(y1) P2^{y1}(y2), V(y1, y2) = Q1(y1) Q2^{y1}(y2), atoms ordered by (y1, y2).
    """
    P1, Q1 = first
    if len(branches) != len(P1):
        raise InvalidParameter(f"{len(P1)} outcomes of step 1 but {len(branches)} step-2 pairs")
    U_ = [p * x for p, (P2, _) in zip(P1, branches) for x in P2]
    V_ = [q * x for q, (_, Q2) in zip(Q1, branches) for x in Q2]
    return FiniteDistribution(U_), FiniteDistribution(V_)


def centred_loss_mgf(P_: FiniteDistribution, Q_: FiniteDistribution, lam_value) -> Estimate:
    """E_P[e^{λ(L − E L)}] of a finite pair, exactly."""
    return privacy_loss_mgf(P_, Q_, lam_value, centred=True)


# --- the Gaussian mechanism, by quadrature ---------------------------------------------------------------------
def _truncation(dps: int) -> mpmath.mpf:
    """Half-width, in standard deviations, beyond which a Gaussian bump keeps less than 10^-(dps+10) of its mass."""
    return mpmath.sqrt(2 * (dps + 10) * mpmath.log(10)) + 1


def gaussian_loss_integral(delta_value, sigma_value, lam_value=None) -> Estimate:
    """E_P[e^{λL}] (or E_P[L] when ``lam_value`` is None) for the Gaussian mechanism, by quadrature.

    P = N(Δ, σ²), Q = N(0, σ²), and L(x) = log p(x) − log q(x) = (x² − (x − Δ)²)/(2σ²) is taken from the two
    densities' exponents as they stand (their normalising constants cancel), not from the linear form the proof
    derives. The integrand p^{1+λ} q^{−λ} is a Gaussian bump of width σ centred at (1+λ)Δ (completing the square:
    proofs/dwork/cdp.py, ``mgf_integrand_peak``); p·L has its mass around Δ. The integral is split at that centre and
    truncated where less than 10^-(dps+10) of the bump is left; the error adds that bound to mpmath.quad's own.

    >>> with mpmath.workdps(30):      # e^{λτ²/2 + λ²τ²/2} at τ = 1, λ = 1 (Theorem 3.2): e
    ...     print(mpmath.nstr(gaussian_loss_integral(1, 1, 1).value, 20))
    2.7182818284590452354
    """
    d, sd = to_mpf(delta_value, "Delta"), to_mpf(sigma_value, "sigma")
    if not sd > 0:
        raise InvalidParameter(f"the noise scale sigma must be positive, got {sigma_value}")
    two_var = 2 * sd**2
    norm = sd * mpmath.sqrt(2 * mpmath.pi)
    w = _truncation(mpmath.mp.dps)

    def loss(x):
        return (x**2 - (x - d) ** 2) / two_var

    if lam_value is None:
        centre = d

        def log_bump(x):
            return -((x - d) ** 2) / two_var

        factor = loss
    else:
        l = to_mpf(lam_value, "lambda")
        centre = (1 + l) * d

        def log_bump(x):
            return -((x - d) ** 2) / two_var + l * loss(x)

        factor = (lambda x: 1)
    top = log_bump(centre)
    value, error = mpmath.quad(lambda x: mpmath.exp(log_bump(x) - top) * factor(x),
                               [centre - w * sd, centre, centre + w * sd], error=True)
    scale = mpmath.exp(top) / norm
    # The dropped tails |x - centre| > w sd of the bump e^{-(x - centre)^2/2 sd^2}, times |factor|: for the mean
    # |L(x)| = Delta |2x - Delta|/(2 sd^2) <= (Delta/sd^2)(|x - Delta| + Delta/2).
    gauss_tail = norm * mpmath.erfc(w / mpmath.sqrt(2))
    if lam_value is None:
        dropped = abs(d) / sd**2 * (2 * sd**2 * mpmath.exp(-w**2 / 2) + abs(d) / 2 * gauss_tail)
    else:
        dropped = gauss_tail
    floor = 16 * max(abs(value) * scale, mpmath.mpf(1)) * mpmath.mpf(10) ** (-mpmath.mp.dps)
    return Estimate(value * scale, (error + dropped) * scale + floor, "quadrature")


def gaussian_centred_mgf(delta_value, sigma_value, lam_value) -> Estimate:
    """E_P[e^{λ(L − E L)}] for the Gaussian mechanism: the MGF and the mean, both by quadrature."""
    m = gaussian_loss_integral(delta_value, sigma_value)
    g = gaussian_loss_integral(delta_value, sigma_value, lam_value)
    l = to_mpf(lam_value, "lambda")
    shift = mpmath.exp(-l * m.value)
    # d/dm of g e^{-λm} is -λ g e^{-λm}: the mean's error enters scaled by |λ|.
    return Estimate(g.value * shift, (g.error + abs(l) * g.value * m.error * 2) * shift, "quadrature")


# --- Theorem 1.1: advanced composition ---------------------------------------------------------------------------
def composed_hockey_stick(eps_value, k_value: int, eps_total, delta_prime=0) -> Estimate:
    """Exact D_{e^E}(P^{⊗k} ‖ Q^{⊗k}) for the worst (ε, δ')-DP pair of Kairouz–Oh–Viswanath (2015),

    P = (δ', (1−δ') e^ε/(1+e^ε), (1−δ')/(1+e^ε), 0), Q = (0, (1−δ')/(1+e^ε), (1−δ') e^ε/(1+e^ε), δ'); δ' = 0 is
    randomized response. An atom of the product with a first-kind coordinate has Q = 0 and counts in full (P-mass
    1 − (1−δ')^k); one with a last-kind coordinate has P = 0; the rest is (1−δ')^k times k-fold randomized response,
    whose loss is (2j − k)ε with j ~ Binomial(k, e^ε/(1+e^ε)) under P, so

    D = 1 − (1−δ')^k + (1−δ')^k Σ_{j: (2j−k)ε > E} C(k, j) p^j (1−p)^{k−j} (1 − e^{E − (2j−k)ε}),

    every term computed in log space (k in the hundreds is fine).

    >>> with mpmath.workdps(30):           # one round of RR at E = 0: TV = tanh(eps/2)
    ...     print(mpmath.nstr(composed_hockey_stick(1, 1, 0).value - mpmath.tanh(mpmath.mpf(1) / 2), 5))
    0.0
    """
    e_, E = to_mpf(eps_value, "epsilon"), to_mpf(eps_total, "total epsilon")
    dp_ = to_mpf(delta_prime, "delta'")
    kk = int(k_value)
    if kk < 1 or e_ < 0 or not 0 <= dp_ <= 1:
        raise InvalidParameter(f"need k >= 1, epsilon >= 0, delta' in [0, 1]; got {k_value}, {eps_value}, {delta_prime}")
    log_p, log_q = -mpmath.log1p(mpmath.exp(-e_)), -mpmath.log1p(mpmath.exp(e_))  # log e^ε/(1+e^ε), log 1/(1+e^ε)
    terms = []
    for j in range(kk + 1):
        loss = (2 * j - kk) * e_
        if loss > E:
            log_mass = (mpmath.loggamma(kk + 1) - mpmath.loggamma(j + 1) - mpmath.loggamma(kk - j + 1)
                        + j * log_p + (kk - j) * log_q)
            terms.append(mpmath.exp(log_mass) * -mpmath.expm1(E - loss))
    kept = (1 - dp_) ** kk
    value = (1 - kept) + kept * mpmath.fsum(terms)
    return Estimate.exact(value)


def _advanced_composition(mu_term):
    """Theorem 1.1's total ε with the expected-loss term ``mu_term(ε)`` per round."""
    return sp.sqrt(2 * k * sp.log(1 / delta)) * eps + k * mu_term


def _thm11_witness(mu_term):
    f = sp.lambdify((k, eps, delta), _advanced_composition(mu_term), modules="mpmath")

    def witness(point):
        total = f(mpmath.mpf(point["k"]), point["epsilon"], point["delta"])
        return composed_hockey_stick(point["epsilon"], point["k"], total, point["delta_p"])

    return witness


THM11_PARAMS = (Param(k, sp.Interval(1, sp.oo), sample=(1, 300)),
                Param(eps, sp.Interval(0, sp.oo), sample=(0, 2.5)),
                Param(delta, sp.Interval.Lopen(0, 1), sample=(1e-12, 1)),
                Param(delta_p, sp.Interval(0, 1), sample=(0, 0.05)))
# catalogue dwork.thm1.1 grid rows (delta' = 0) and a KOV row with delta' > 0
THM11_EXAMPLES = tuple({"k": kk, "epsilon": e, "delta": d, "delta_p": 0.0}
                       for kk in (1, 10, 100, 300) for e in (0.01, 0.1, 1.0, 2.0) for d in (1e-2, 1e-5, 1e-10)) + (
    {"k": 7, "epsilon": 0.5, "delta": 1e-3, "delta_p": 1e-3},)
THM11_LATEX = (r"U, V \text{ the views of } k \text{-fold composition of an } (\epsilon, \delta')\text{-DP pair; the "
               r"worst case (KOV15) is checked: randomized response with a } \delta' \text{ atom}")
_THM11_NOTE = ("Checked on the worst (eps, delta')-DP pair (Kairouz-Oh-Viswanath 2015), so every draw is the "
               "theorem's worst case for its (k, eps, delta, delta'). Hypothesis: the paper prints delta >= 0; "
               "ln(1/delta) needs 0 < delta <= 1 (catalogue erratum, no numeric content). ")


def _thm11(ident, title, mu_term, number, notes):
    return Theorem(
        id=ident, title=title, source=Source(SEED, number),
        statement=sp.Le(HockeyStick(U, V, _advanced_composition(mu_term)), k * delta_p + delta),
        witness=_thm11_witness(mu_term), parameters=THM11_PARAMS, structure_latex=THM11_LATEX,
        examples=THM11_EXAMPLES, notes=_THM11_NOTE + notes)


THEOREM_1_1 = _thm11(
    "dwork.thm1.1", "Advanced composition with the halved expected loss", eps * (sp.exp(eps) - 1) / 2,
    "Theorem 1.1",
    "Loose in delta: the catalogue's largest exact-delta/delta on its grid (delta' = 0) is 0.0414; at k = 100, "
    "eps = 0.1, delta = 1e-5 the theorem's eps_total is 5.324 while RR's exact one is 4.307. The reported worst "
    "ratio near 1 comes from the k delta' term when delta' dominates delta: the KOV pair puts 1 - (1 - delta')^k "
    "on infinite loss, so that term is essentially tight.")

# The paper (Section 1) says Theorem 1.1 improves DRV10 by halving the expected-loss term: DRV10's own form.
THEOREM_1_1_DRV10 = _thm11(
    "dwork.thm1.1.drv10", "Advanced composition of DRV10", eps * (sp.exp(eps) - 1),
    "Theorem 1.1 (text: the DRV10 bound it halves)", "Looser than dwork.thm1.1.")

# The same proof with the sharp expected loss eps*tanh(eps/2) (dwork.obs.rr-extremal) in place of Lemma 3.8's.
THEOREM_1_1_SHARP = _thm11(
    "dwork.thm1.1.sharp", "Advanced composition with the sharp expected loss eps tanh(eps/2)",
    eps * sp.tanh(eps / 2), "Theorem 1.1 (catalogue: sharp expected loss)",
    "Azuma's argument needs only E[L] <= mu per round and |L| <= eps; mu = eps tanh(eps/2) is the sharp bound "
    "(dwork.obs.rr-extremal). Still loose (RR's exact eps_total is smaller).")


# --- Definition 3.3: (mu, tau)-CDP of a pair ----------------------------------------------------------------------
LAM = Param(lam, sp.Interval(-sp.oo, sp.oo), sample=(-30, 30))


def small_pairs(max_size: int = 6):
    """Finite pairs of Definition 3.3's kind: eps-DP, arbitrary full-support, small antipodal ones, RR."""
    return st.one_of(dp_pairs(max_size=max_size), arbitrary_pairs(max_size=max_size), antipodal_pairs(max_class=2),
                     st.floats(0.01, 5).map(lambda e: {"kind": "rr", "eps": e}))


def _def33(point):
    P_, Q_ = build_cdp_pair(point["structure"])
    t = loss_standard(P_, Q_)
    l = point["lambda"]
    bound = mpmath.exp(l**2 * t.value**2 / 2)
    return centred_loss_mgf(P_, Q_, l), Estimate(bound, bound * abs(l) ** 2 * t.value * t.error * 2)


def _pins_at(lam_value, pairs):
    return tuple({"lambda": lam_value, "structure": p} for p in pairs)


PIN_PAIRS = ({"kind": "rr", "eps": 1.0}, {"kind": "dp", "eps0": 1.0, "q": [0.2, 0.5, 0.3], "u": [1.0, -0.5, 0.0]})
DGAUSS_PIN = {"kind": "dgauss", "sigma": 1.0, "delta": 1.0, "radius": 10}  # sup of the MGF ratio at lambda = 1

DEFINITION_3_3 = Theorem(
    id="dwork.def3.3",
    title="(mu, tau)-CDP of a pair: the optimal standard satisfies the MGF condition",
    source=Source(SEED, "Definition 3.3 (with Definition 3.2 and footnote 3)"),
    statement=sp.Le(LossMGF(P, Q, lam, _loss_mean(P, Q)), sp.exp(lam**2 * tau**2 / 2)),
    parameters=(LAM,),
    structure=small_pairs,
    structure_latex=(r"P, Q \text{ finite, equal supports};\ \mu = \mathbb{E}[L] = D_{\mathrm{KL}}(P\|Q),\ "
                     r"\tau = \tau\left(L_{(P\|Q)} - \mu\right) \text{ the optimal standard}"),
    evaluator=_def33,
    examples=_pins_at(-1.0, PIN_PAIRS) + _pins_at(1.0, (DGAUSS_PIN,)),
    default_examples=4,
    notes="D_subG(P||Q) <= (mu, tau) iff mu >= KL(P||Q) and tau >= tau(L - E L), the optimal standard computed by "
          "subgaussian_standard (sup over lambda); this checks that the computed standard satisfies the condition "
          "at every drawn lambda (the inf of footnote 3 is attained). At lambda = -1 the left side is exactly "
          "e^KL (E_P[e^-L] = 1), so those pins check KL <= tau^2/2 (catalogue dwork.obs.kl-le-tau2); at RR "
          "(sup at lambda = -1) and the discrete Gaussian (sup at lambda = 1/Delta) the two sides agree to the "
          "standard's search precision; not marked tight because that precision is the optimiser's, not the "
          "working precision.",
)


# --- Theorem 3.2, the remarks after it, Corollary 3.3: the Gaussian mechanism -------------------------------------
DELTA_P = Param(Delta, sp.Interval.open(0, sp.oo), sample=(0.1, 4))
SIGMA_P = Param(sigma, sp.Interval.open(0, sp.oo), sample=(0.25, 4))
LAM_G = Param(lam, sp.Interval(-sp.oo, sp.oo), sample=(-4, 4))
GAUSS_LATEX = r"M(d) = \mathcal{N}(\Delta, \sigma^2),\ M(d') = \mathcal{N}(0, \sigma^2)"
tau_g = Delta / sigma


def _gauss_mgf(point):
    return gaussian_loss_integral(point["Delta"], point["sigma"], point["lambda"])


def _gauss_mean(point):
    return gaussian_loss_integral(point["Delta"], point["sigma"])


def _gauss_centred(point):
    return gaussian_centred_mgf(point["Delta"], point["sigma"], point["lambda"])


GAUSS_EXAMPLES = ({"Delta": 1.0, "sigma": 2.0, "lambda": -1.0}, {"Delta": 3.0, "sigma": 0.5, "lambda": 2.0})

THEOREM_3_2 = Theorem(
    id="dwork.thm3.2",
    title="The Gaussian mechanism's privacy loss is exactly N(tau^2/2, tau^2)",
    source=Source(SEED, "Theorem 3.2 (and its proof)"),
    statement=sp.Eq(LossMGF(Md, Mdp, lam, 0), sp.exp(lam * tau_g**2 / 2 + lam**2 * tau_g**2 / 2)),
    parameters=(DELTA_P, SIGMA_P, LAM_G),
    witness=_gauss_mgf,
    structure_latex=GAUSS_LATEX + r",\ \tau = \Delta/\sigma",
    tight_everywhere=True,
    examples=GAUSS_EXAMPLES,
    default_examples=5,
    notes="The MGF of N(tau^2/2, tau^2), by quadrature of the two densities, at every drawn lambda: the law of the "
          "loss, hence (tau^2/2, tau)-CDP and no better in either parameter (dwork.thm3.2.mean, dwork.thm3.2.tau).",
)

THEOREM_3_2_MEAN = Theorem(
    id="dwork.thm3.2.mean",
    title="Gaussian mechanism: expected privacy loss tau^2/2",
    source=Source(SEED, "Theorem 3.2"),
    statement=sp.Le(KL(Md, Mdp), tau_g**2 / 2),
    parameters=(DELTA_P, SIGMA_P),
    witness=_gauss_mean,
    structure_latex=GAUSS_LATEX,
    tight_everywhere=True,
    default_examples=5,
    notes="E[L] by quadrature of p L; equality for every (Delta, sigma).",
)

THEOREM_3_2_TAU = Theorem(
    id="dwork.thm3.2.tau",
    title="Gaussian mechanism: the centred privacy loss is tau-subgaussian",
    source=Source(SEED, "Theorem 3.2"),
    statement=sp.Le(LossMGF(Md, Mdp, lam, KL(Md, Mdp)), sp.exp(lam**2 * tau_g**2 / 2)),
    parameters=(DELTA_P, SIGMA_P, LAM_G),
    witness=_gauss_centred,
    structure_latex=GAUSS_LATEX,
    tight_everywhere=True,
    examples=GAUSS_EXAMPLES,
    default_examples=3,
    notes="Equality at every lambda: the standard is exactly tau = Delta/sigma.",
)

# Remark after Theorem 3.2 (and the intro): n sensitivity-1 queries with N(0, n/eps^2) noise each. Composed
# non-adaptively, the loss is the sum of n independent copies: mean n E[L_1], MGF the n-th power (Theorem 3.4).
EPS_R = Param(eps_pos, sp.Interval.open(0, sp.oo), sample=(0.01, 3))
N_P = Param(n, sp.Interval(1, sp.oo), sample=(1, 1000))
QUERIES_LATEX = r"n \text{ sensitivity-1 queries, noise } \mathcal{N}(0, \sigma^2) \text{ each, composed}"


def _queries_mean(sd_of):
    def witness(point):
        m = gaussian_loss_integral(1, sd_of(point))
        return Estimate(point["n"] * m.value, point["n"] * m.error, m.method)

    return witness


def _queries_centred(sd_of, lam_name="lambda"):
    def witness(point):
        g = gaussian_centred_mgf(1, sd_of(point), point[lam_name])
        nn = point["n"]
        value = g.value**nn
        return Estimate(value, nn * value * g.error / g.value, g.method)

    return witness


def _sd_remark(point):
    return mpmath.sqrt(point["n"]) / point["epsilon"]


TEXT_3_2 = Theorem(
    id="dwork.text3.2",
    title="n queries with N(0, n/eps^2) noise: expected loss at most eps(e^eps - 1)/2",
    source=Source(SEED, "remark after Theorem 3.2; Section 1 'Improved Accuracy'"),
    statement=sp.Le(KL(U, V), eps_pos * (sp.exp(eps_pos) - 1) / 2),
    parameters=(N_P, EPS_R),
    witness=_queries_mean(_sd_remark),
    structure_latex=QUERIES_LATEX + r",\ \sigma^2 = n/\epsilon^2",
    default_examples=5,
    notes="Verified but loose: the exact expected loss is eps^2/2 (worst ratio eps/(e^eps - 1) -> 1 as eps -> 0). "
          "The standard eps is exact (dwork.text3.2.tau). Footnote 4 (noise N(0, 2 ln(1/delta)) for (eps, "
          "delta)-DP) is imprecise (the usual calibration is sigma^2 = 2n ln(1.25/delta)/eps^2); not checked.",
)

TEXT_3_2_TAU = Theorem(
    id="dwork.text3.2.tau",
    title="n queries with N(0, n/eps^2) noise: the composed loss is eps-subgaussian",
    source=Source(SEED, "remark after Theorem 3.2"),
    statement=sp.Le(LossMGF(U, V, lam, KL(U, V)), sp.exp(lam**2 * eps_pos**2 / 2)),
    parameters=(N_P, EPS_R, LAM_G),
    witness=_queries_centred(_sd_remark),
    structure_latex=QUERIES_LATEX + r",\ \sigma^2 = n/\epsilon^2",
    tight_everywhere=True,
    default_examples=3,
)


def _sd_printed(point):
    return 1 / mpmath.sqrt(point["epsilon"])


def _sd_corrected(point):
    return mpmath.sqrt(point["n"] / point["epsilon"])


TEXT_3_2_NOISE_CORRECTED = Theorem(
    id="dwork.text3.2.noise.corrected",
    title="(eps, sqrt(eps))-CDP for n queries needs noise of magnitude sqrt(n/eps)",
    source=Source(SEED, "remark after Theorem 3.2 (corrected)"),
    statement=sp.Le(LossMGF(U, V, lam, KL(U, V)), sp.exp(lam**2 * eps_pos / 2)),
    parameters=(N_P, EPS_R, LAM_G),
    witness=_queries_centred(_sd_corrected),
    structure_latex=QUERIES_LATEX + r",\ \sigma^2 = n/\epsilon",
    tight_everywhere=True,
    default_examples=3,
    notes="With sigma^2 = n/eps: tau^2 = n/sigma^2 = eps exactly, and the expected loss n/(2 sigma^2) = eps/2 <= eps.",
)

TEXT_3_2_NOISE = Theorem(
    id="dwork.text3.2.noise",
    title="(eps, sqrt(eps))-CDP for n queries with noise of magnitude sqrt(1/eps), as printed",
    source=Source(SEED, "remark after Theorem 3.2"),
    statement=sp.Le(LossMGF(U, V, lam, KL(U, V)), sp.exp(lam**2 * eps_pos / 2)),
    parameters=(N_P, EPS_R, LAM_G),
    witness=_queries_centred(_sd_printed),
    structure_latex=QUERIES_LATEX + r",\ \sigma^2 = 1/\epsilon",
    default_examples=3,
    erratum=Erratum(
        location="Section 3, remark after Theorem 3.2",
        printed=r"(\epsilon, \sqrt{\epsilon})\text{-CDP with noise of magnitude } \sqrt{1/\epsilon}",
        corrected=r"\text{noise of magnitude } \sqrt{n/\epsilon} \text{ per query}",
        counterexample={"n": 2, "epsilon": 1.0, "lambda": 1.0},  # tau^2 = n eps = 2 > eps = 1
        corrected_id="dwork.text3.2.noise.corrected",
        note="The sqrt(n) is missing (compare N(0, n/eps^2) in the sentence before); correct only for n = 1.",
    ),
)

GROUP_LATEX = r"M(d) = \mathcal{N}(s\Delta, \sigma^2),\ M(d') = \mathcal{N}(0, \sigma^2) \text{ (group of size } s)"
S_P = Param(s, sp.Interval(1, sp.oo), sample=(1, 5))


def _group_centred(point):
    return gaussian_centred_mgf(point["s"] * point["Delta"], point["sigma"], point["lambda"])


COROLLARY_3_3_CORRECTED = Theorem(
    id="dwork.cor3.3.corrected",
    title="Group CDP for the Gaussian mechanism: standard s Delta/sigma",
    source=Source(SEED, "Corollary 3.3 (corrected)"),
    statement=sp.Le(LossMGF(Md, Mdp, lam, KL(Md, Mdp)), sp.exp(lam**2 * (s * Delta / sigma) ** 2 / 2)),
    parameters=(S_P, DELTA_P, SIGMA_P, LAM_G),
    witness=_group_centred,
    structure_latex=GROUP_LATEX,
    tight_everywhere=True,
    default_examples=3,
    notes="Theorem 3.2 with the group sensitivity s Delta; the mean (s Delta/sigma)^2/2 is printed correctly.",
)

COROLLARY_3_3 = Theorem(
    id="dwork.cor3.3",
    title="Group CDP for the Gaussian mechanism, as printed (standard s Delta)",
    source=Source(SEED, "Corollary 3.3"),
    statement=sp.Le(LossMGF(Md, Mdp, lam, KL(Md, Mdp)), sp.exp(lam**2 * (s * Delta) ** 2 / 2)),
    parameters=(S_P, DELTA_P, SIGMA_P, LAM_G),
    witness=_group_centred,
    structure_latex=GROUP_LATEX,
    default_examples=3,
    erratum=Erratum(
        location="Corollary 3.3",
        printed=r"\left((s\Delta f/\sigma)^2/2,\ s\Delta f\right)\text{-CDP}",
        corrected=r"\left((s\Delta f/\sigma)^2/2,\ s\Delta f/\sigma\right)\text{-CDP}",
        counterexample={"s": 1, "Delta": 1.0, "sigma": 0.5, "lambda": 1.0},  # centred loss N(0, 4): e^2 > e^(1/2)
        corrected_id="dwork.cor3.3.corrected",
        note="Wrong whenever sigma < 1: the centred loss is exactly N(0, (s Delta/sigma)^2).",
    ),
)


# --- Theorem 3.4: composition --------------------------------------------------------------------------------------
@st.composite
def component_pairs(draw, max_pairs: int = 3, max_size: int = 3):
    """2..max_pairs small pairs (eps-DP or arbitrary) to compose non-adaptively."""
    m = draw(st.integers(2, max_pairs))
    return [draw(st.one_of(dp_pairs(max_size=max_size), arbitrary_pairs(max_size=max_size))) for _ in range(m)]


def _components(point):
    return [build_cdp_pair(d) for d in point["structure"]]


def _composed_standard(point):
    pairs = _components(point)
    parts = [loss_standard(*p) for p in pairs]
    total = loss_standard(*product_pair(pairs))
    bound = mpmath.sqrt(mpmath.fsum(t.value**2 for t in parts))
    return total, Estimate(bound, mpmath.fsum(t.error for t in parts))


def _composed_kl(point):
    pairs = _components(point)
    parts = [kl(*p) for p in pairs]
    return kl(*product_pair(pairs)), Estimate(mpmath.fsum(t.value for t in parts), mpmath.fsum(t.error for t in parts))


COMPOSITION_LATEX = r"(U, V) = \left(\textstyle\prod_i P_i, \prod_i Q_i\right),\ (\mu_i, \tau_i) \text{ optimal for } (P_i, Q_i)"
SUM_TAU = sp.sqrt(sp.Sum(taus[i] ** 2, (i, 1, k)))
SUM_MU = sp.Sum(mu[i], (i, 1, k))

THEOREM_3_4 = Theorem(
    id="dwork.thm3.4",
    title="Non-adaptive composition of CDP: the standards add in quadrature",
    source=Source(SEED, "Theorem 3.4 (non-adaptive case)"),
    statement=sp.Le(SubgaussianStandard(PrivacyLossOf(U, V) - KL(U, V)), SUM_TAU),
    structure=component_pairs,
    structure_latex=COMPOSITION_LATEX,
    evaluator=_composed_standard,
    default_examples=3,
    notes="Exact privacy loss of the product law (the loss is the sum of independent losses, whose MGF factorises: "
          "proofs/dwork/cdp.py). Equality for Gaussians (dwork.thm3.4.gaussian); for finite pairs the catalogue's "
          "worst ratio is 0.999998. The adaptive case is refuted: dwork.thm3.4.adaptive.",
)

THEOREM_3_4_MEAN = Theorem(
    id="dwork.thm3.4.mean",
    title="Composition of CDP: the expected losses add",
    source=Source(SEED, "Theorem 3.4 (expectation)"),
    statement=sp.Eq(KL(U, V), SUM_MU),
    structure=lambda: component_pairs(max_size=4),
    structure_latex=COMPOSITION_LATEX,
    evaluator=_composed_kl,
    tight_everywhere=True,
    default_examples=20,
    notes="Non-adaptive; adaptively E[L] = sum of E[C_i] <= sum mu_i still holds (the proof's '=' should be '<=').",
)


@st.composite
def gaussian_mechanisms(draw, max_k: int = 3):
    """(Delta_i, sigma_i) of 1..max_k Gaussian mechanisms."""
    m = draw(st.integers(1, max_k))
    return [[draw(st.floats(0.1, 3)), draw(st.floats(0.5, 4))] for _ in range(m)]


def _gaussian_composition(point):
    l = point["lambda"]
    parts = [gaussian_centred_mgf(d, sd, l) for d, sd in point["structure"]]
    value = mpmath.fprod(g.value for g in parts)
    error = value * mpmath.fsum(g.error / g.value for g in parts)
    bound = mpmath.exp(l**2 * mpmath.fsum((to_mpf(d) / to_mpf(sd)) ** 2 for d, sd in point["structure"]) / 2)
    return Estimate(value, error, "quadrature"), bound


THEOREM_3_4_GAUSSIAN = Theorem(
    id="dwork.thm3.4.gaussian",
    title="Composition of Gaussian mechanisms: tight",
    source=Source(SEED, "Theorem 3.4 (Gaussian mechanisms)"),
    statement=sp.Le(LossMGF(U, V, lam, KL(U, V)), sp.exp(lam**2 * SUM_TAU**2 / 2)),
    parameters=(LAM_G,),
    structure=gaussian_mechanisms,
    structure_latex=r"\text{Gaussian mechanisms with } \tau_i = \Delta_i/\sigma_i, \text{ composed non-adaptively}",
    evaluator=_gaussian_composition,
    tight_everywhere=True,
    default_examples=2,
    notes="The MGF of the composed loss is the product of the mechanisms' MGFs (independent outputs), each by "
          "quadrature; equality at every lambda: sqrt(sum tau_i^2) cannot be improved.",
)


@st.composite
def adaptive_games(draw, max_size: int = 3):
    """A two-step adaptive game: a step-1 pair and, for each of its outcomes, the step-2 pair the adversary picks."""
    first = draw(st.one_of(dp_pairs(max_size=max_size), arbitrary_pairs(max_size=max_size),
                           st.integers(2, max_size).map(lambda m: {"kind": "coin", "m": m})))
    size = int(first["m"]) if first["kind"] == "coin" else len(first["q"])
    branch = st.one_of(st.just({"kind": "null"}), dp_pairs(max_size=max_size), arbitrary_pairs(max_size=max_size),
                       st.floats(0.01, 3).map(lambda e: {"kind": "rr", "eps": e}))
    return {"first": first, "branches": [draw(branch) for _ in range(size)]}


def _game(point):
    game = point["structure"]
    first = build_cdp_pair(game["first"])
    branches = [build_cdp_pair(b) for b in game["branches"]]
    return first, branches


def declared_parameters(first, branches) -> tuple[tuple[Estimate, Estimate], tuple[Estimate, Estimate]]:
    """(μ_1, τ_1), (μ_2, τ_2): step 1's optimal parameters; step 2's the largest over the adversary's choices.

    A mechanism class that is (μ_2, τ_2)-CDP must cover every pair the adversary may pick, so these are the smallest
    parameters Theorem 3.4 may be applied with (only the U‖V direction is used: the strongest reading).
    """
    mu1, tau1 = cdp_parameters(*first)
    params = [cdp_parameters(*b) for b in branches]
    mu2 = max((m for m, _ in params), key=lambda e: e.value)
    tau2 = max((t for _, t in params), key=lambda e: e.value)
    return (mu1, tau1), (mu2, tau2)


def _adaptive(correction: bool):
    def evaluator(point):
        first, branches = _game(point)
        (_, t1), (m2, t2) = declared_parameters(first, branches)
        total = loss_standard(*adaptive_pair(first, branches))
        bound = mpmath.sqrt(t1.value**2 + t2.value**2) + (m2.value / 2 if correction else 0)
        return total, Estimate(bound, t1.error + t2.error + m2.error)

    return evaluator


# The catalogue's counterexample with data-independent choices: a fair coin (loss 0), then a Gaussian query on
# which Alice and Bob differ (tau_2 = 1) on heads, one on which they agree (loss 0) on tails. Finite: the discrete
# Gaussian sigma = 1, Delta = 1 on [-10, 10] (the catalogue's continuous Gaussian gives tau = 1.022293).
ADAPTIVE_COUNTEREXAMPLE = {"structure": {"first": {"kind": "coin", "m": 2}, "branches": [
    {"kind": "null"}, {"kind": "dgauss", "sigma": 1.0, "delta": 1.0, "radius": 10}]}}
ADAPTIVE_LATEX = (r"(U, V) \text{ the views of a two-step adaptive game (Section 3.1): step 2's pair depends on "
                  r"step 1's output};\ \tau_2, \mu_2 \text{ the largest over the adversary's choices}")

THEOREM_3_4_ADAPTIVE_CORRECTED = Theorem(
    id="dwork.thm3.4.adaptive.corrected",
    title="Adaptive composition of CDP: the standard gains at most half the later expected losses",
    source=Source(SEED, "Theorem 3.4 (adaptive case, corrected)"),
    statement=sp.Le(SubgaussianStandard(PrivacyLossOf(U, V) - KL(U, V)),
                    sp.sqrt(taus[1] ** 2 + taus[2] ** 2) + mu[2] / 2),
    structure=adaptive_games,
    structure_latex=ADAPTIVE_LATEX,
    evaluator=_adaptive(True),
    examples=(ADAPTIVE_COUNTEREXAMPLE,),
    default_examples=3,
    notes="L - E L = sum (C_i - E[C_i | prefix]) + sum (E[C_i | prefix] - E C_i): the first sum is "
          "sqrt(sum tau_i^2)-subgaussian (Lemma 2.2), the second takes values in an interval of width "
          "sum_{i>=2} mu_i (each conditional mean is in [0, mu_i]; the first is constant), so it is "
          "(sum_{i>=2} mu_i/2)-subgaussian (Hoeffding), and standards of dependent summands add (Hoelder): "
          "proofs/dwork/cdp.py. Two steps encoded. Loose (1.0223 against 1.25 at the counterexample).",
)

THEOREM_3_4_ADAPTIVE = Theorem(
    id="dwork.thm3.4.adaptive",
    title="Adaptive composition of CDP, as printed",
    source=Source(SEED, "Theorem 3.4"),
    statement=sp.Le(SubgaussianStandard(PrivacyLossOf(U, V) - KL(U, V)), sp.sqrt(taus[1] ** 2 + taus[2] ** 2)),
    structure=adaptive_games,
    structure_latex=ADAPTIVE_LATEX,
    evaluator=_adaptive(False),
    default_examples=3,
    erratum=Erratum(
        location="Theorem 3.4 and its proof (application of Lemma 2.2)",
        printed=r"D_{\mathrm{subG}}(U\|V) \preceq \left(\sum_i \mu_i, (\sum_i \tau_i^2)^{1/2}\right) "
                r"\text{ under adaptive composition}",
        corrected=r"\tau\left(L - \mathbb{E}L\right) \le (\sum_i \tau_i^2)^{1/2} + \sum_{i \ge 2} \mu_i / 2"
                  r" \text{ (non-adaptive: as printed)}",
        counterexample=ADAPTIVE_COUNTEREXAMPLE,
        corrected_id="dwork.thm3.4.adaptive.corrected",
        note="The proof centres each C_i at its unconditional mean, but Lemma 2.2 needs the conditional one; when "
             "the adversary's choice changes the conditional KL (even by its own coin) the difference is random. "
             "Counterexample: tau(L - E L) = 1.02229 > 1 = sqrt(0^2 + 1^2).",
    ),
)


# --- Theorem 3.5: DP => CDP ---------------------------------------------------------------------------------------
def dp_only_pairs():
    """eps-DP pairs: generator (ii), small antipodal pairs, RR (every finite pair is eps-DP for its own Delta_inf)."""
    return st.one_of(dp_pairs(max_size=6), antipodal_pairs(max_class=2),
                     st.floats(0.01, 5).map(lambda e: {"kind": "rr", "eps": e}))


def _thm35(point):
    P_, Q_ = build_cdp_pair(point["structure"])
    return loss_standard(P_, Q_), sym_max_divergence(P_, Q_)


DP_LATEX = r"P, Q \text{ finite},\ \epsilon = \Delta_\infty(P, Q) = \max(D_\infty(P\|Q), D_\infty(Q\|P))"
RR_EPS = (0.1, 1.0, 2.0, 5.0)

THEOREM_3_5 = Theorem(
    id="dwork.thm3.5",
    title="DP implies CDP: the standard of an eps-DP pair is at most eps",
    source=Source(SEED, "Theorem 3.5"),
    statement=sp.Le(SubgaussianStandard(PrivacyLossOf(P, Q) - KL(P, Q)), eps),
    structure=dp_only_pairs,
    structure_latex=DP_LATEX,
    evaluator=_thm35,
    examples=tuple(rr(e) for e in RR_EPS),
    default_examples=5,
    notes="Hoeffding on [-eps - mu, eps - mu]. Loose for eps > 0: the largest standard found is RR's "
          "sqrt(2 eps tanh(eps/2)) (dwork.obs.rr-extremal.tau; ratio 0.99958 at eps = 0.1, 0.96137 at 1, 0.87269 "
          "at 2). The mu part, KL <= eps(e^eps - 1)/2, is Lemma 3.8 (dwork.lem3.8), sharp form eps tanh(eps/2) "
          "(dwork.obs.rr-extremal).",
)


def _rr_tau(point):
    P_, Q_ = build_cdp_pair(point["structure"])
    e = sym_max_divergence(P_, Q_)
    return centred_loss_mgf(P_, Q_, point["lambda"]), mpmath.exp(point["lambda"] ** 2 * e * mpmath.tanh(e / 2))


RR_TAU_LAM = Param(lam, sp.Interval(-sp.oo, sp.oo), sample=(-40, 40))

RR_EXTREMAL_TAU = Theorem(
    id="dwork.obs.rr-extremal.tau",
    title="The centred loss of an eps-DP pair is sqrt(2 eps tanh(eps/2))-subgaussian (numeric observation)",
    source=Source(SEED, "catalogue observation (sharp Theorem 3.5, tau part)"),
    statement=sp.Le(LossMGF(P, Q, lam, KL(P, Q)), sp.exp(lam**2 * eps * sp.tanh(eps / 2))),
    parameters=(RR_TAU_LAM,),
    structure=dp_only_pairs,
    structure_latex=DP_LATEX,
    evaluator=_rr_tau,
    tight_at=tuple({"lambda": -1.0, **rr(e)} for e in RR_EPS),
    default_examples=30,
    notes="NOT PROVED: supported numerically (catalogue: 2-point grid and Nelder-Mead over 3-4-point laws; here: "
          "random eps-DP pairs at random lambda). For RR it is exact: its loss is a two-point law with Kearns-Saul "
          "standard^2 = 2 eps tanh(eps/2) = 2 KL, attained at lambda = -1, where E[e^{-(L - KL)}] = e^KL for every "
          "pair (proofs/dwork/cdp.py). At lambda = -1 the statement is the sharp KL bound (dwork.obs.rr-extremal).",
)


# --- Observation: not closed under post-processing -----------------------------------------------------------------
POSTPROC_P = ("0.30533362", "0.0088344682", "0.68583191")  # catalogue dwork.obs.postproc (normalised)
POSTPROC_Q = ("0.5476448", "0.0016891968", "0.450666")


def postprocessing_instance():
    """The catalogue's pair (P, Q) and its image (KP, KQ) under merging atoms 0 and 2."""
    P_, Q_ = FiniteDistribution.normalized(POSTPROC_P), FiniteDistribution.normalized(POSTPROC_Q)
    merge = [[1, 0], [0, 1], [1, 0]]
    return P_, Q_, P_.push_forward(merge), Q_.push_forward(merge)


def _postproc(point):
    P_, Q_, KP, KQ = postprocessing_instance()
    return loss_standard(KP, KQ), loss_standard(P_, Q_)


KP_, KQ_ = sp.symbols("KP KQ")

OBS_POSTPROC = Theorem(
    id="dwork.obs.postproc",
    title="The paper's CDP is not closed under post-processing: merging two atoms raises the standard",
    source=Source(SEED, "catalogue observation (post-processing)"),
    statement=sp.Gt(SubgaussianStandard(PrivacyLossOf(KP_, KQ_) - KL(KP_, KQ_)),
                    SubgaussianStandard(PrivacyLossOf(P, Q) - KL(P, Q))),
    structure_latex=(r"P \propto (0.30533362, 0.0088344682, 0.68583191),\ Q \propto (0.5476448, 0.0016891968, "
                     r"0.450666),\ K \text{ merges atoms 1 and 3}"),
    evaluator=_postproc,
    notes="The paper does not claim closure under post-processing, so this is an observation, not an erratum: at "
          "this instance tau rises from 0.4999921 to 0.5359902 (catalogue), while KL decreases (data processing). "
          "A (mu, tau)-CDP guarantee therefore does not transfer to post-processed outputs with the same tau.",
)


THEOREMS = [
    THEOREM_1_1, THEOREM_1_1_DRV10, THEOREM_1_1_SHARP,
    DEFINITION_3_3,
    THEOREM_3_2, THEOREM_3_2_MEAN, THEOREM_3_2_TAU,
    TEXT_3_2, TEXT_3_2_TAU, TEXT_3_2_NOISE, TEXT_3_2_NOISE_CORRECTED,
    COROLLARY_3_3, COROLLARY_3_3_CORRECTED,
    THEOREM_3_4, THEOREM_3_4_MEAN, THEOREM_3_4_GAUSSIAN, THEOREM_3_4_ADAPTIVE, THEOREM_3_4_ADAPTIVE_CORRECTED,
    THEOREM_3_5, RR_EXTREMAL_TAU,
    OBS_POSTPROC,
]
