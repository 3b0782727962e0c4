"""Dwork & Rothblum, *Concentrated Differential Privacy*: concentrated DP, composition, advanced composition.

In the paper's order: advanced composition (Theorem 1.1), Definition 3.3, the Gaussian mechanism (Theorem 3.2, the
remarks after it, Corollary 3.3), composition (Theorem 3.4, non-adaptive and in the game of Section 3.1), DP ⇒ CDP
(Theorem 3.5) and post-processing; the symbolic side is in :mod:`proofs.dwork.cdp`.

What the witnesses share. A *pair* (P, Q) stands for (M(x), M(y)) at one ordered pair of adjacent databases, drawn
as plain JSON data and built at the working precision by :func:`build_cdp_pair`; its CDP parameters are the smallest
Definition 3.3 allows, μ = KL(P‖Q) and τ the optimal subgaussian standard of L − E[L] (:func:`cdp_parameters`),
both from exact finite sums. The Gaussian mechanism is P = N(Δ, σ²) = M(d), Q = N(0, σ²) = M(d') (f(d) = f(d') + Δ,
as in the proof of Theorem 3.2); its loss is integrated from the two densities (``method="densities"``), never from a
closed form, so the verdicts are the same with ``closed_forms(False)``. Compositions are the engine's products
(:mod:`symdp.engine.products`). A drawn pair's laws and parameters are computed once per draw and working precision
(:func:`pair_quantity`); Gaussian laws computed from the draw are built finer than the working precision
(:func:`finer`), so that the verifier's balls decide the equalities.

>>> import mpmath
>>> with mpmath.workdps(30):                        # catalogue dwork.thm3.2: sigma = 2, Delta = 1 gives (0.125, 0.5)
...     mu_, tau_ = cdp_parameters(*discrete_gaussian_pair(2, 1, 20))
...     print(mpmath.nstr(mu_.value, 10), mpmath.nstr(tau_.value, 10))
0.125 0.5
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace

import mpmath
import sympy as sp
from hypothesis import strategies as st

from symdp import expressions as heads
from symdp.engine.divergences import divergence
from symdp.engine.integers import discrete_gaussian
from symdp.engine.finite import FiniteDistribution, to_mpf
from symdp.engine.products import compose, loss_classes, product
from symdp.errors import InvalidParameter
from symdp.estimate import Estimate, exact_ball
from symdp.expressions import KL, Compose, HockeyStick, LossMGF, ProductOf
from symdp.laws import LawWitness
from symdp.precision import switches
from symdp.statement import BuiltExactly, lambdify_mpmath, measured_atoms
from symdp.strategies import weights
from symdp.symbols import P, Q, Delta, delta, delta_p, epsilon, k, lam, mu1, mu2, n, s, sigma, sigma1, sigma2
from symdp.symbols import tau1, tau2
from symdp.theorem import Param, Printed, Setting, declare, registered, theorem
from symdp.theorems.dwork.antipodal import antipodal_pairs, arbitrary_pairs, build_pair, dp_pairs, rr
from symdp.theorems.dwork.common import LossStandard, delta_inf, emax, exact_instance, loss_standard, normalize

# Names of this section only: the composed views, the Gaussian mechanism's outputs, a post-processed pair.
U, V = sp.symbols("U V")
Md, Mdp = sp.symbols("M(d) M(d')")
KP_, KQ_ = sp.symbols("KP KQ")


# --- finite pairs and their CDP parameters ---------------------------------------------------------------------
def cdp_parameters(P_: FiniteDistribution, Q_: FiniteDistribution) -> tuple[Estimate, Estimate]:
    """The smallest (μ, τ) with D_subG(P‖Q) ≼ (μ, τ) (Definitions 3.2, 3.3): μ = E[L] = KL(P‖Q), τ = τ(L − E L)."""
    return divergence("kl", P_, Q_), loss_standard(P_, Q_)


def discrete_gaussian_pair(sigma_value, shift, radius: int) -> tuple[FiniteDistribution, FiniteDistribution]:
    """(N_Z(Δ, σ²), N_Z(0, σ²)) on the integers of [-R, R], each normalised (catalogue §1, generator (iv)).

    For integer Δ and large R its privacy loss has KL = τ²/2 and standard τ = Δ/σ up to the truncation: the centred
    MGF is e^{λ²τ²/2} θ(λΔ)/θ(0) with θ(c) = Σ_x e^{-(x-c)²/2σ²} ≤ θ(0). Truncated, it is simply a finite pair.
    """
    sd, shift_ = to_mpf(sigma_value, "sigma"), to_mpf(shift, "shift")
    if not sd > 0 or int(radius) != radius or radius < 1:
        raise InvalidParameter(f"a discrete Gaussian needs sigma > 0 and an integer radius >= 1, got {sigma_value}, "
                               f"{radius}")
    return discrete_gaussian(shift_, sd, -int(radius), int(radius)), discrete_gaussian(0, sd, -int(radius), int(radius))


def build_cdp_pair(draw) -> tuple[FiniteDistribution, FiniteDistribution]:
    """A pair from a plain draw: the kinds of :func:`~symdp.theorems.dwork.antipodal.build_pair`, and

    * ``"dgauss"``: :func:`discrete_gaussian_pair` (``sigma``, ``delta``, ``radius``);
    * ``"null"``: a mechanism that ignores its input (one atom; privacy loss ≡ 0);
    * ``"coin"``: ``m`` equally likely outcomes whatever the input (a data-independent mechanism).
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


@functools.lru_cache(maxsize=4096)
def _measured_pair(key: str, prec: int, switched: tuple, what: str):
    # (keyed by everything the result depends on: the draw, the working precision, the engine's switches)
    pair = build_cdp_pair(json.loads(key))
    if what == "laws":
        return pair
    return divergence("kl", *pair) if what == "kl" else loss_standard(*pair)


def pair_quantity(draw, what: str):
    """Of a drawn pair (:func:`build_cdp_pair`), ``"laws"`` (P, Q), ``"kl"`` (μ = KL(P‖Q)) or ``"tau"`` (τ(L − E L),
    :func:`loss_standard`): computed once per draw and working precision. The verifier measures a draw at up to four
    precisions, and the same pair recurs within a draw (an adversary's branches), across the λ the refinement walks
    over at one structure, and across theorems; at another precision the pair is built and measured again.

    >>> with mpmath.workdps(30):
    ...     print(pair_quantity({"kind": "rr", "eps": 1.0}, "kl") is pair_quantity({"eps": 1.0, "kind": "rr"}, "kl"))
    True
    """
    key = json.dumps(draw, sort_keys=True, default=repr)
    return _measured_pair(key, mpmath.mp.prec, switches(), what)


def kov_pair(eps_value, delta_prime=0) -> tuple[FiniteDistribution, FiniteDistribution]:
    """The worst (ε, δ')-DP pair of Kairouz–Oh–Viswanath (2015): P = (δ', (1−δ') e^ε/(1+e^ε), (1−δ')/(1+e^ε), 0),
    Q = (0, (1−δ')/(1+e^ε), (1−δ') e^ε/(1+e^ε), δ'); δ' = 0 is randomized response.

    >>> with mpmath.workdps(30):           # one round of RR at E = 0: TV = tanh(eps/2)
    ...     print(mpmath.nstr(divergence("tv", *kov_pair(1)).value, 25), mpmath.nstr(mpmath.tanh(0.5), 25))
    0.4621171572600097585023185 0.4621171572600097585023185
    """
    e, d = to_mpf(eps_value, "epsilon"), to_mpf(delta_prime, "delta'")
    if e < 0 or not 0 <= d <= 1:
        raise InvalidParameter(f"need epsilon >= 0 and delta' in [0, 1]; got {eps_value}, {delta_prime}")
    likely, unlikely = (1 - d) / (1 + mpmath.exp(-e)), (1 - d) / (1 + mpmath.exp(e))
    return FiniteDistribution([d, likely, unlikely, 0]), FiniteDistribution([0, unlikely, likely, d])


THM11_PARAMS = (Param(k, sp.Naturals, sample=(1, 300), log=True,
                      limit="beyond 300 rounds the composed law costs seconds a draw (0.75 s at k = 1000); the ratio "
                            "approaches its supremum 1 at any k (as delta' -> 0 with delta << k delta')"),
                Param(epsilon, sp.Interval(0, sp.oo), sample=(0, 10),
                      limit="above 10 the hockey stick at the total epsilon is below the working precision and the "
                            "bound is k delta' + delta: nothing new"),
                Param(delta, sp.Interval.Lopen(0, 1), sample=(1e-12, 1), log=True,
                      limit="below 1e-12 delta nears the rounding of the exact hockey-stick sum at delta' = 0 (a draw "
                            "at delta = 1e-300 is inconclusive); with delta' > 0 smaller delta changes nothing"),
                Param(delta_p, sp.Interval(0, 1), sample=(1e-20, 1), log=True,
                      limit="delta' = 0 is pinned (the catalogue's grid, examples); the ratio tends to 1 as delta' -> 0 "
                            "with delta << k delta' (the KOV pair's 1 - (1 - delta')^k is about k delta')"))
THM11_EXAMPLES = tuple({"k": kk, "epsilon": e, "delta": d, "delta_p": 0.0}
                       for kk in (1, 10, 100, 300) for e in (0.01, 0.1, 1.0, 2.0) for d in (1e-2, 1e-5, 1e-10)) + (
    {"k": 7, "epsilon": 0.5, "delta": 1e-3, "delta_p": 1e-3},)   # the catalogue's grid (delta' = 0), a KOV row
THM11 = Setting(r"$U$, $V$ the views of $k$-fold composition of an $(\varepsilon, \delta')$-DP pair; the worst case "
                r"(KOV15) is checked: randomized response with a $\delta'$ atom")
_THM11_NOTE = (r"Checked on the worst $(\varepsilon, \delta')$-DP pair (Kairouz--Oh--Viswanath 2015), so every draw is "
               r"the theorem's worst case for its $(k, \varepsilon, \delta, \delta')$; its hockey-stick divergence is "
               r"the exact sum over the product law (\symdpcode{composed\_hockey\_stick}). Hypothesis: the paper "
               r"prints $\delta \ge 0$; $\ln(1/\delta)$ needs $0 < \delta \le 1$ (catalogue erratum; at $\delta = 0$ "
               r"the bound is vacuous and for $\delta > 1$ it is not real, so there is nothing to refute "
               "numerically). ")


def _thm11(ident, title, mu_term, number, notes):
    """Theorem 1.1 with the expected-loss term ``mu_term`` per round: the witness measures the hockey-stick
    divergence at the total ε the statement names (the head's own third argument, evaluated)."""
    total = sp.sqrt(2 * k * sp.log(1 / delta)) * epsilon + k * mu_term
    at = lambdify_mpmath([k, epsilon, delta], total)

    def witness(point):
        P_, Q_ = kov_pair(point["epsilon"], point["delta_p"])
        return divergence("hockey_stick", compose(point["k"], P_), compose(point["k"], Q_),
                          at(mpmath.mpf(point["k"]), point["epsilon"], point["delta"]))

    return theorem(id=ident, title=title, number=number, statement=sp.Le(HockeyStick(U, V, total), k * delta_p + delta),
                   parameters=THM11_PARAMS, setting=THM11, examples=THM11_EXAMPLES, notes=_THM11_NOTE + notes)(witness)


theorem_1_1 = _thm11(
    "dwork.thm1.1", "Advanced composition with the halved expected loss", epsilon * (sp.exp(epsilon) - 1) / 2,
    "Theorem 1.1",
    r"Loose in $\delta$: the catalogue's largest exact $\delta$ over $\delta$ on its grid ($\delta' = 0$) is 0.0414; "
    r"at $k = 100$, $\varepsilon = 0.1$, $\delta = 10^{-5}$ the theorem's $\varepsilon_{\mathrm{total}}$ is 5.324 "
    r"while RR's exact one is 4.307. The reported worst ratio near 1 comes from the $k\delta'$ term when $\delta'$ "
    r"dominates $\delta$: the KOV pair puts $1 - (1 - \delta')^k$ on infinite loss, so that term is essentially tight.")

theorem_1_1_drv10 = _thm11(
    "dwork.thm1.1.drv10", "Advanced composition of DRV10", epsilon * (sp.exp(epsilon) - 1),
    "Theorem 1.1 (text: the DRV10 bound it halves)",
    r"DRV10's own form, which Theorem 1.1 improves by halving the expected-loss term (Section 1). Looser than "
    r"\symdpid{dwork.thm1.1}.")
theorem_1_1_sharp = _thm11(
    "dwork.thm1.1.sharp", r"Advanced composition with the sharp expected loss $\varepsilon\tanh(\varepsilon/2)$",
    epsilon * sp.tanh(epsilon / 2), "Theorem 1.1 (catalogue: sharp expected loss)",
    r"Azuma's argument needs only $\mathbb{E}[L] \le \mu$ per round and $|L| \le \varepsilon$; $\mu = "
    r"\varepsilon\tanh(\varepsilon/2)$ is the sharp bound (\symdpid{dwork.obs.rr-extremal}). Still loose (RR's exact "
    r"$\varepsilon_{\mathrm{total}}$ is smaller).")


# --- Definition 3.3: (mu, tau)-CDP of a pair ----------------------------------------------------------------------
LAM = Param(lam, sp.Interval(-sp.oo, sp.oo), sample=(-30, 30))


def small_pairs(max_size: int = 6):
    """Finite pairs of Definition 3.3's kind: eps-DP, arbitrary full-support, small antipodal ones, RR."""
    return st.one_of(dp_pairs(max_size=max_size), arbitrary_pairs(max_size=max_size), antipodal_pairs(max_class=2),
                     st.floats(0.01, 5).map(lambda e: {"kind": "rr", "eps": e}))


PAIRS = Setting(r"$P$, $Q$ finite, equal supports; $\mu = \mathbb{E}[L] = D_{\mathrm{KL}}(P\|Q)$, $\tau$ the optimal "
                r"standard of $L - \mu$", strategy=small_pairs, build=build_cdp_pair)


PIN_PAIRS = ({"kind": "rr", "eps": 1.0}, {"kind": "dp", "eps0": 1.0, "q": [0.2, 0.5, 0.3], "u": [1.0, -0.5, 0.0]})
DGAUSS_PIN = {"kind": "dgauss", "sigma": 1.0, "delta": 1.0, "radius": 10}  # sup of the MGF ratio at lambda = 1


@theorem(
    id="dwork.def3.3",
    title=r"$(\mu, \tau)$-CDP of a pair: the optimal standard satisfies the MGF condition",
    number="Definition 3.3 (with Definition 3.2 and footnote 3)",
    statement=sp.Le(LossMGF(P, Q, lam, KL(P, Q)), sp.exp(lam**2 * LossStandard(P, Q) ** 2 / 2)),
    parameters=(LAM,),
    setting=PAIRS,
    examples=tuple({"lambda": l, "structure": p} for l, pins in ((-1.0, PIN_PAIRS), (1.0, (DGAUSS_PIN,)))
                   for p in pins),
)
def definition_3_3(point):
    r"""$D_{\mathrm{subG}}(P\|Q) \preceq (\mu, \tau)$ iff $\mu \ge D_{\mathrm{KL}}(P\|Q)$ and $\tau \ge \tau(L -
    \mathbb{E}L)$, the optimal standard computed by \symdpcode{loss\_standard} (a search over $\lambda$ of exact finite
    sums); this checks that the computed standard satisfies the condition at every drawn $\lambda$ (the infimum of
    footnote 3 is attained, and the search did not stop short). At $\lambda = -1$ the left side is exactly
    $e^{D_{\mathrm{KL}}}$ ($\mathbb{E}_P[e^{-L}] = 1$), so those pins check $D_{\mathrm{KL}} \le \tau^2/2$ (catalogue
    \symdpid{dwork.obs.kl-le-tau2}); at RR (supremum at $\lambda = -1$) and the discrete Gaussian (supremum at $\lambda
    = 1/\Delta$) the two sides agree to the standard's search precision. Not claimed tight: that precision is the
    optimiser's."""
    P_, Q_ = pair_quantity(point["structure"], "laws")
    return {LossMGF(P, Q, lam, KL(P, Q)): divergence("loss_mgf", P_, Q_, point["lambda"], centred=True),
            LossStandard(P, Q): pair_quantity(point["structure"], "tau")}


# --- Theorem 3.2, the remarks after it, Corollary 3.3: the Gaussian mechanism -------------------------------------
DELTA_P = Param(Delta, sp.Interval.open(0, sp.oo), sample=(0.01, 4), log=True,
                limit="the Gaussian mechanism's statements here are equalities at every point (the printed Corollary "
                      "3.3 aside), functions of Delta/sigma (up to 40 drawn); beyond, e^(lambda^2 (s Delta/sigma)^2/2) "
                      "nears the largest exponential a side may compute (e^(10^6))")
SIGMA_P = Param(sigma, sp.Interval.open(0, sp.oo), sample=(0.1, 10), log=True,
                limit="only Delta/sigma matters (from 1e-3 to 40 drawn); see Delta")
LAM_G = Param(lam, sp.Interval(-sp.oo, sp.oo), sample=(-4, 4))
GAUSS = Setting(r"$M(d) = \mathcal{N}(\Delta, \sigma^2)$, $M(d') = \mathcal{N}(0, \sigma^2)$")
GAUSS_EXAMPLES = ({"Delta": 1.0, "sigma": 2.0, "lambda": -1.0}, {"Delta": 3.0, "sigma": 0.5, "lambda": 2.0})
CENTRED_G = LossMGF(Md, Mdp, lam, KL(Md, Mdp))


def centred(P_, Q_) -> LossMGF:
    """E_P[e^{λ(L − E L)}] of two laws: what a centred statement is measured as (by the engine, from the densities)."""
    return LossMGF(P_, Q_, lam, KL(P_, Q_))


FINER_DIGITS = 10
"""Digits beyond the working precision at which :func:`finer` builds and measures the Gaussian laws."""


def finer(measured_as: dict, parameters, digits: int = FINER_DIGITS):
    """A witness measuring ``measured_as`` as the engine would (from the densities, certified), but with the laws
    built and measured at ``digits`` more digits, each measurement then rounded to the working precision
    (:meth:`~symdp.estimate.Estimate.rounded`: an enclosure stays one).

    Why: a Gaussian mechanism's parameters that are computed from the draw (``s·Δ``, ``√n/ε``, a product reduced
    to one Gaussian pair) are rounded at the working precision, and its MGF ``e^{λ²τ²/2}`` amplifies that rounding
    by ``λ²τ²`` (up to 10^5 here): an equality then looks decided, by less than half the working digits, and the
    verifier leaves it to the two precisions. Built 10 digits finer, the rounding moves the MGF by less than the
    construction floor the verifier already allows for, and the balls decide the draw.

    >>> w = finer({CENTRED_G: centred(*mechanism(s * Delta, sigma))}, (S_P, DELTA_P, SIGMA_P, LAM_G))
    >>> with mpmath.workdps(30):
    ...     m = w({"s": 2, "Delta": mpmath.mpf(1), "sigma": mpmath.mpf(1), "lambda": mpmath.mpf(1)})[CENTRED_G]
    ...     print(m.certified, abs(m.value - mpmath.exp(2)) <= m.error)
    True True
    """
    atoms = list(measured_as)
    witness = LawWitness([measured_as[a] for a in atoms], parameters, method="densities", printed=atoms)

    def measure(point):
        with mpmath.workdps(mpmath.mp.dps + digits):
            out = witness(point)
        return {a: BuiltExactly(v.value.rounded()) if isinstance(v, BuiltExactly) else v.rounded()
                for a, v in out.items()}

    return measure


def mechanism(shift, sd) -> tuple[heads.Gaussian, heads.Gaussian]:
    """The Gaussian mechanism's outputs (M(d), M(d')) = (N(Δ, σ²), N(0, σ²)) as laws a statement is measured on."""
    return heads.Gaussian(shift, sd), heads.Gaussian(0, sd)


theorem_3_2 = declare(
    id="dwork.thm3.2",
    title=r"The Gaussian mechanism's privacy loss is exactly $\mathcal{N}(\tau^2/2, \tau^2)$",
    number="Theorem 3.2 (and its proof)",
    statement=sp.Eq(LossMGF(Md, Mdp, lam, 0),
                    sp.exp(lam * (Delta / sigma) ** 2 / 2 + lam**2 * (Delta / sigma) ** 2 / 2)),
    parameters=(DELTA_P, SIGMA_P, LAM_G),
    measured_as={LossMGF(Md, Mdp, lam, 0): LossMGF(*mechanism(Delta, sigma), lam, 0)},
    setting=GAUSS.where(r", $\tau = \Delta/\sigma$"),
    tight_everywhere=True,
    examples=GAUSS_EXAMPLES,
    notes=r"""The MGF of $\mathcal{N}(\tau^2/2, \tau^2)$, integrated from the two densities, at every drawn $\lambda$: the
    law of the loss, hence $(\tau^2/2, \tau)$-CDP and no better in either parameter (\symdpid{dwork.thm3.2.mean},
    \symdpid{dwork.thm3.2.tau}).""",
)


theorem_3_2_mean = declare(
    id="dwork.thm3.2.mean",
    title=r"Gaussian mechanism: expected privacy loss $\tau^2/2$",
    number="Theorem 3.2",
    statement=sp.Le(KL(Md, Mdp), (Delta / sigma) ** 2 / 2),
    measured_as={KL(Md, Mdp): KL(*mechanism(Delta, sigma))},
    parameters=(DELTA_P, SIGMA_P),
    setting=GAUSS,
    tight_everywhere=True,
    notes=r"$\mathbb{E}[L] = \int p(\ln p - \ln q)$ from the densities; equality for every $(\Delta, \sigma)$.",
)


theorem_3_2_tau = declare(
    id="dwork.thm3.2.tau",
    title=r"Gaussian mechanism: the centred privacy loss is $\tau$-subgaussian",
    number="Theorem 3.2",
    statement=sp.Le(CENTRED_G, sp.exp(lam**2 * (Delta / sigma) ** 2 / 2)),
    measured_as={CENTRED_G: centred(*mechanism(Delta, sigma))},
    parameters=(DELTA_P, SIGMA_P, LAM_G),
    setting=GAUSS,
    tight_everywhere=True,
    examples=GAUSS_EXAMPLES,
    notes=r"""Equality at every $\lambda$: the standard is exactly $\tau = \Delta/\sigma$. The mean and the MGF are both
    integrated from the densities (certified).""",
)


EPS_R = Param(epsilon, sp.Interval.open(0, sp.oo), sample=(1e-12, 100), log=True,
              limit="below 1e-12 the expected loss eps^2/2 and the bound eps(e^eps - 1)/2 differ by a relative eps/2, "
                    "which the working precision no longer separates from equality (the supremum of their ratio "
                    "eps/(e^eps - 1) is 1, at eps -> 0: reached to 12 digits); above 100 nothing changes (the ratio "
                    "falls as eps e^-eps; the standard is eps exactly)")
N_P = Param(n, sp.Naturals, sample=(1, 10**9), log=True,
            limit="the composition is exact at any n (n times one query's loss), and no ratio depends on n")
QUERIES = Setting(r"$n$ sensitivity-1 queries, noise $\mathcal{N}(0, \sigma^2)$ each, composed")
CENTRED_UV = LossMGF(U, V, lam, KL(U, V))


def queries(sd) -> tuple[Compose, Compose]:
    """(U, V): n sensitivity-1 queries answered with N(0, sd²) noise; the engine multiplies the queries' loss MGFs
    and adds their KLs (proofs/dwork/cdp.py, composition_mgf_factorises), each integrated from its densities."""
    return tuple(Compose(n, G) for G in mechanism(1, sd))


TEXT_TAU_LAWS = {CENTRED_UV: centred(*queries(sp.sqrt(n) / epsilon))}
NOISE_LAWS = {CENTRED_UV: centred(*queries(sp.sqrt(n / epsilon)))}
PRINTED_NOISE_LAWS = {CENTRED_UV: centred(*queries(1 / sp.sqrt(epsilon)))}


text_3_2 = declare(
    id="dwork.text3.2",
    title=(r"$n$ queries with $\mathcal{N}(0, n/\varepsilon^2)$ noise: expected loss at most "
           r"$\varepsilon(e^{\varepsilon} - 1)/2$"),
    number="remark after Theorem 3.2; Section 1, `Improved Accuracy'",
    statement=sp.Le(KL(U, V), epsilon * (sp.exp(epsilon) - 1) / 2),
    parameters=(N_P, EPS_R),
    measured_as={KL(U, V): KL(*queries(sp.sqrt(n) / epsilon))},
    setting=QUERIES.where(r", $\sigma^2 = n/\varepsilon^2$"),
    notes=r"""Verified but loose: the exact expected loss is $\varepsilon^2/2$ (worst ratio $\varepsilon/(e^{\varepsilon}
    - 1) \to 1$ as $\varepsilon \to 0$). The standard $\varepsilon$ is exact (\symdpid{dwork.text3.2.tau}). Footnote 4
    (noise $\mathcal{N}(0, 2\ln(1/\delta))$ for $(\varepsilon, \delta)$-DP) is imprecise (the usual calibration is
    $\sigma^2 = 2n\ln(1.25/\delta)/\varepsilon^2$); not checked.""",
)


text_3_2_tau = declare(
    id="dwork.text3.2.tau",
    title=r"$n$ queries with $\mathcal{N}(0, n/\varepsilon^2)$ noise: the composed loss is $\varepsilon$-subgaussian",
    number="remark after Theorem 3.2",
    statement=sp.Le(CENTRED_UV, sp.exp(lam**2 * epsilon**2 / 2)),
    parameters=(N_P, EPS_R, LAM_G),
    measured_as=TEXT_TAU_LAWS,
    witness=finer(TEXT_TAU_LAWS, (N_P, EPS_R, LAM_G)),
    setting=QUERIES.where(r", $\sigma^2 = n/\varepsilon^2$"),
    tight_everywhere=True,
    notes=r"""One query's loss integrated from its densities, $n$ independent copies by the product law: equality at
    every $\lambda$.""",
)


text_3_2_noise_corrected = declare(
    id="dwork.text3.2.noise.corrected",
    title=r"$(\varepsilon, \sqrt{\varepsilon})$-CDP for $n$ queries needs noise of magnitude $\sqrt{n/\varepsilon}$",
    number="remark after Theorem 3.2 (corrected)",
    statement=sp.Le(CENTRED_UV, sp.exp(lam**2 * epsilon / 2)),
    parameters=(N_P, EPS_R, LAM_G),
    measured_as=NOISE_LAWS,
    witness=finer(NOISE_LAWS, (N_P, EPS_R, LAM_G)),
    setting=QUERIES.where(r", $\sigma^2 = n/\varepsilon$"),
    tight_everywhere=True,
    notes=r"""With $\sigma^2 = n/\varepsilon$: $\tau^2 = n/\sigma^2 = \varepsilon$ exactly, and the expected loss
    $n/(2\sigma^2) = \varepsilon/2 \le \varepsilon$.""",
    printed=Printed(
        id="dwork.text3.2.noise",
        title=(r"$(\varepsilon, \sqrt{\varepsilon})$-CDP for $n$ queries with noise of magnitude "
               r"$\sqrt{1/\varepsilon}$, as printed"),
        number="remark after Theorem 3.2",
        location="Section 3, remark after Theorem 3.2",
        printed=r"$(\varepsilon, \sqrt{\varepsilon})$-CDP with noise of magnitude $\sqrt{1/\varepsilon}$",
        corrected=r"noise of magnitude $\sqrt{n/\varepsilon}$ per query",
        counterexample={"n": 2, "epsilon": 1.0, "lambda": 1.0},  # tau^2 = n eps = 2 > eps = 1
        note=(r"The $\sqrt{n}$ is missing (compare $\mathcal{N}(0, n/\varepsilon^2)$ in the sentence before); correct "
              "only for $n = 1$."),
        severity="typo",
        changes={"measured_as": PRINTED_NOISE_LAWS,
                 "witness": finer(PRINTED_NOISE_LAWS, (N_P, EPS_R, LAM_G)),
                 "setting": QUERIES.where(r", $\sigma^2 = 1/\varepsilon$"), "notes": ""},
    ),
)


GROUP = Setting(r"$M(d) = \mathcal{N}(s\Delta, \sigma^2)$, $M(d') = \mathcal{N}(0, \sigma^2)$ (group of size $s$)")
S_P = Param(s, sp.Naturals, sample=(1, 5))
GROUP_LAWS = {CENTRED_G: centred(*mechanism(s * Delta, sigma))}


corollary_3_3_corrected = declare(
    id="dwork.cor3.3.corrected",
    title=r"Group CDP for the Gaussian mechanism: standard $s\Delta/\sigma$",
    number="Corollary 3.3 (corrected)",
    statement=sp.Le(CENTRED_G, sp.exp(lam**2 * (s * Delta / sigma) ** 2 / 2)),
    measured_as=GROUP_LAWS,
    witness=finer(GROUP_LAWS, (S_P, DELTA_P, SIGMA_P, LAM_G)),
    parameters=(S_P, DELTA_P, SIGMA_P, LAM_G),
    setting=GROUP,
    tight_everywhere=True,
    notes=r"""Theorem 3.2 with the group sensitivity $s\Delta$, integrated from the densities; the mean
    $(s\Delta/\sigma)^2/2$ is printed correctly. Equality at every $\lambda$.""",
    printed=Printed(
        id="dwork.cor3.3",
        statement=sp.Le(CENTRED_G, sp.exp(lam**2 * (s * Delta) ** 2 / 2)),
        title=r"Group CDP for the Gaussian mechanism, as printed (standard $s\Delta$)",
        number="Corollary 3.3",
        location="Corollary 3.3",
        printed=r"$\left((s\Delta f/\sigma)^2/2,\ s\Delta f\right)$-CDP",
        corrected=r"$\left((s\Delta f/\sigma)^2/2,\ s\Delta f/\sigma\right)$-CDP",
        counterexample={"s": 1, "Delta": 1.0, "sigma": 0.5, "lambda": 1.0},  # centred loss N(0, 4): e^2 > e^(1/2)
        note=r"Wrong whenever $\sigma < 1$: the centred loss is exactly $\mathcal{N}(0, (s\Delta/\sigma)^2)$. The mean "
             r"printed beside it has the $/\sigma$, and the text derives the corollary from Theorem 3.2 with "
             r"sensitivity $s\Delta$: a dropped $/\sigma$.",
        severity="typo",
        changes={"notes": r"Theorem 3.2 with the group sensitivity $s\Delta$, integrated from the densities; the "
                          r"printed standard lacks the $1/\sigma$."},
    ),
)


# --- Theorem 3.4: non-adaptive composition ---------------------------------------------------------------------------
def component_pairs(max_size: int = 3):
    """Two small pairs (eps-DP or arbitrary) to compose non-adaptively (k = 2; more components by induction)."""
    one = st.one_of(dp_pairs(max_size=max_size), arbitrary_pairs(max_size=max_size))
    return st.lists(one, min_size=2, max_size=2)


def joint_loss_classes(pairs) -> tuple[FiniteDistribution, FiniteDistribution]:
    """The views (U, V) of a non-adaptive composition, reduced to the loss classes of their joint law (measured from
    the joint law, never as the components' sum)."""
    return loss_classes(product(*(P_ for P_, _ in pairs)), product(*(Q_ for _, Q_ in pairs)))


COMPOSITION = Setting(r"$(U, V) = (P_1 \times P_2, Q_1 \times Q_2)$, $(\mu_i, \tau_i)$ optimal for $(P_i, Q_i)$ "
                      "($k = 2$)", strategy=component_pairs, build=lambda draws: [build_cdp_pair(d) for d in draws])


@theorem(
    id="dwork.thm3.4",
    title="Non-adaptive composition of CDP: the standards add in quadrature",
    number="Theorem 3.4 (non-adaptive case)",
    statement=sp.Le(LossStandard(U, V), sp.sqrt(tau1**2 + tau2**2)),
    setting=COMPOSITION,
)
def theorem_3_4(point):
    r"""Exact privacy loss of the product law (the loss is the sum of independent losses, whose MGF factorises:
    \symdpcode{proofs/dwork/cdp.py}), its optimal standard and the components' by search over exact sums. Equality for
    Gaussians (\symdpid{dwork.thm3.4.gaussian}); for finite pairs the catalogue's worst ratio is 0.999998. The adaptive
    case is refuted: \symdpid{dwork.thm3.4.adaptive}."""
    first, second = point["structure"]
    measured = {LossStandard(U, V): _joint_standard(json.dumps(point["structure"], sort_keys=True, default=repr),
                                                    mpmath.mp.prec, switches()),
                tau1: pair_quantity(first, "tau"), tau2: pair_quantity(second, "tau")}
    pairs = [pair_quantity(d, "laws") for d in point["structure"]]
    if not all(isinstance(law, FiniteDistribution) for pair in pairs for law in pair):
        return measured
    # exact rational pairs and joint law: the composition is itself an instance, measured on it in balls
    return exact_instance([law for pair in pairs for law in pair] + list(joint_loss_classes(pairs)), measured)


@functools.lru_cache(maxsize=1024)
def _joint_standard(key: str, prec: int, switched: tuple) -> Estimate:
    """τ of the joint law of a drawn composition, once per draw and working precision (as :func:`pair_quantity`)."""
    return loss_standard(*joint_loss_classes([pair_quantity(d, "laws") for d in json.loads(key)]))


@theorem(
    id="dwork.thm3.4.mean",
    title="Composition of CDP: the expected losses add",
    number="Theorem 3.4 (expectation)",
    statement=sp.Eq(KL(U, V), mu1 + mu2),
    setting=replace(COMPOSITION, strategy=lambda: component_pairs(max_size=4)),
    tight_everywhere=True,
)
def theorem_3_4_mean(point):
    r"""Non-adaptive: KL of the product law (an exact sum over its atoms) against the components' KLs. Adaptively
    $\mathbb{E}[L] \le \mu_1 + \mu_2$ still holds (\symdpid{dwork.thm3.4.adaptive.mean}; the proof's `$=$' should be
    `$\le$')."""
    (P1, Q1), (P2, Q2) = pairs = COMPOSITION(point)
    return {KL(U, V): divergence("kl", *joint_loss_classes(pairs)), mu1: divergence("kl", P1, Q1),
            mu2: divergence("kl", P2, Q2)}


_GAUSS_TAU_LIMIT = ("an equality at every point (each draw 0.1-0.4 s, also at the ends); tau_i = Delta_i/sigma_i below "
                    "1e-4 or above 30: nothing new (at |lambda| = 4 and tau_i = 30 the bound is already e^(14400))")
_GAUSS_SIGMA_LIMIT = "sigma_i below 0.01 or above 100: only Delta_i/sigma_i = tau_i enters the loss's law"
GAUSS_COMPOSITION_PARAMS = tuple(Param(x, sp.Interval.open(0, sp.oo), sample=r, log=True, limit=why) for x, r, why in (
    (tau1, (1e-4, 30), _GAUSS_TAU_LIMIT), (sigma1, (0.01, 100), _GAUSS_SIGMA_LIMIT),
    (tau2, (1e-4, 30), _GAUSS_TAU_LIMIT), (sigma2, (0.01, 100), _GAUSS_SIGMA_LIMIT))) + (LAM_G,)
GAUSS_COMPOSITION_LAWS = {CENTRED_UV: centred(*(ProductOf(*laws) for laws in zip(
    *(mechanism(t * sd, sd) for t, sd in ((tau1, sigma1), (tau2, sigma2))))))}


theorem_3_4_gaussian = declare(
    id="dwork.thm3.4.gaussian",
    title="Composition of two Gaussian mechanisms: tight",
    number="Theorem 3.4 (Gaussian mechanisms)",
    statement=sp.Le(CENTRED_UV, sp.exp(lam**2 * (tau1**2 + tau2**2) / 2)),
    measured_as=GAUSS_COMPOSITION_LAWS,
    witness=finer(GAUSS_COMPOSITION_LAWS, GAUSS_COMPOSITION_PARAMS),
    parameters=GAUSS_COMPOSITION_PARAMS,
    setting=Setting(r"$U = \mathcal{N}(\tau_1\sigma_1, \sigma_1^2) \times \mathcal{N}(\tau_2\sigma_2, \sigma_2^2)$, "
                    r"$V = \mathcal{N}(0, \sigma_1^2) \times \mathcal{N}(0, \sigma_2^2)$ (Gaussian mechanisms with "
                    r"$\tau_i = \Delta_i/\sigma_i$, composed non-adaptively)"),
    tight_everywhere=True,
    notes=r"""The MGF of the composed loss is the product of the mechanisms' MGFs (independent outputs), each by
    integration of its densities and centred at its own mean ($D_{\mathrm{KL}}(U\|V)$ is their sum); equality at every
    $\lambda$: $\sqrt{\tau_1^2 + \tau_2^2}$ cannot be improved.""",
)


# --- Theorem 3.4: adaptive composition, in the game of Section 3.1 ---------------------------------------------------
# The adversary has its own randomness R_U (the paper's proof conditions on it): a *randomized adversary* is a coin
# r with law w (the same in both worlds) and, for each r, a two-step game: a step-1 pair, and the step-2 pair it
# picks after each step-1 output. The views are (R, Y_1, Y_2); their privacy loss is c_1 + c_2 (the coin cancels).
def coin_pair(m: int) -> dict:
    return {"kind": "coin", "m": m}


@functools.lru_cache(maxsize=None)
def step_pairs(max_size: int = 3, gaussian: bool = True):
    """A mechanism the adversary may run at one step (as a pair of output laws): null (loss 0), eps-DP, arbitrary,
    RR, or a small discrete Gaussian (the kind that refutes the printed theorem). One strategy per arguments, built
    once: a game draws several steps at every draw, and hypothesis validates a new strategy the first time it draws
    from it."""
    options = [st.just({"kind": "null"}), dp_pairs(max_size=max_size), arbitrary_pairs(max_size=max_size),
               st.floats(0.01, 3).map(lambda e: {"kind": "rr", "eps": e})]
    if gaussian:
        options.append(st.floats(0.5, 2).map(lambda sd: {"kind": "dgauss", "sigma": sd, "delta": 1.0, "radius": 4}))
    return st.one_of(*options)


@functools.lru_cache(maxsize=None)   # (one strategy per size: an adversary draws one per coin outcome at every draw)
@st.composite
def adaptive_games(draw, max_size: int = 3):
    """A deterministic two-step game: a step-1 pair and the step-2 pairs; after step-1 output y the adversary runs
    ``branches[y % len(branches)]`` (any map from outputs to choices is a legitimate adversary)."""
    first_steps, branch_lists = _game_parts(max_size)
    return {"first": draw(first_steps), "branches": draw(branch_lists)}


@functools.lru_cache(maxsize=None)
def _game_parts(max_size: int) -> tuple:
    """The strategies of :func:`adaptive_games`' step-1 pair (or coin) and step-2 pairs, built once per size."""
    return (st.one_of(step_pairs(max_size), st.integers(2, max_size).map(coin_pair)),
            st.lists(step_pairs(max_size), min_size=1, max_size=max_size))


@st.composite
def adversaries(draw, randomized: bool = True, max_coin: int = 3, max_size: int = 3):
    """An adversary of Section 3.1's game: its coin's law ``coin`` (weights; one outcome = deterministic) and, per
    coin outcome, the two-step game it plays."""
    m = draw(st.integers(1, max_coin)) if randomized else 1
    return {"coin": draw(weights(m, low=0.05)), "games": [draw(adaptive_games(max_size)) for _ in range(m)]}


def _chosen(game) -> tuple[dict, list]:
    """The draws of a game's step-1 pair and of the step-2 pairs the adversary can actually choose: after output y_1
    it runs ``branches[y_1 % reached]``, ``reached`` the fewer of its branches and step 1's outputs."""
    outputs = len(pair_quantity(game["first"], "laws")[0])
    return game["first"], game["branches"][:min(len(game["branches"]), outputs)]


def _game(game):
    first, reached = _chosen(game)
    branches = [pair_quantity(b, "laws") for b in reached]
    outputs = pair_quantity(first, "laws")
    return outputs, [branches[y % len(branches)] for y in range(len(outputs[0]))]


def adversary_views(adversary) -> tuple[FiniteDistribution, FiniteDistribution, list]:
    """(U, V, games): the views (R, Y_1, Y_2) of the game as finite joint laws, atoms ordered by (r, y_1, y_2),
    U(r, y_1, y_2) = w_r P_1^r(y_1) P_2^{r, y_1}(y_2) and V alike with the Q's; ``games`` lists, per r, the step-1
    pair and the step-2 pair after each y_1."""
    w = normalize(adversary["coin"])
    games = [_game(g) for g in adversary["games"]]
    U_, V_ = [], []
    for w_r, ((P1, Q1), after) in zip(w, games):
        for p, q, (P2, Q2) in zip(P1, Q1, after):
            U_ += [w_r * p * x for x in P2]
            V_ += [w_r * q * x for x in Q2]
    return FiniteDistribution(U_), FiniteDistribution(V_), games


def declared_parameters(adversary, means: bool = True, standards: bool = True) -> tuple[tuple, tuple]:
    """(μ_1, τ_1), (μ_2, τ_2): at each step the largest optimal parameters over the pairs the adversary may run
    there (whatever its coin and, at step 2, step 1's output). A mechanism class that is (μ_i, τ_i)-CDP must cover
    every pair chosen at step i, so these are the smallest parameters Theorem 3.4 may be applied with (only the
    U‖V direction is used: the strongest reading). The largest is taken on the balls (:func:`emax`): certified only
    where every pair's parameter is. ``means=False`` or ``standards=False`` leaves those out (None): a standard is
    a search, and a statement that does not name it should not pay for it.

    >>> with mpmath.workdps(30):   # ADAPTIVE_RR_ROW: RR(0.1), then the Gaussian query or the null one
    ...     (m1, t1), (m2, t2) = declared_parameters(ADAPTIVE_RR_ROW["structure"], standards=False)
    ...     print(mpmath.nstr(m1.value, 8), t1, mpmath.nstr(m2.value, 8), t2)
    0.0049958375 None 0.5 None
    """
    steps = [[], []]
    for game in adversary["games"]:
        first, branches = _chosen(game)
        steps[0].append(first)
        steps[1] += branches
    keyed = [{json.dumps(d, sort_keys=True, default=repr): d for d in step}.values() for step in steps]

    def largest(pairs, what):
        return emax(*(pair_quantity(d, what) for d in pairs))

    return tuple((largest(pairs, "kl") if means else None, largest(pairs, "tau") if standards else None)
                 for pairs in keyed)


def _game_laws(adversary) -> tuple:
    """(U, V, ((μ_1, τ_1), (μ_2, τ_2))): the views of an adversary's game and its declared parameters."""
    U_, V_, _ = adversary_views(adversary)
    return U_, V_, declared_parameters(adversary)


@functools.lru_cache(maxsize=1024)
def _measured_views(key: str, prec: int, switched: tuple, what: str):
    U_, V_, _ = adversary_views(json.loads(key))
    if what == "kl":
        return divergence("kl", U_, V_)
    return loss_standard(U_, V_)


def views_quantity(adversary, what: str) -> Estimate:
    """KL (``"kl"``) or τ(L − E L) (``"tau"``) of an adversary's views (:func:`adversary_views`), once per draw and
    working precision (as :func:`pair_quantity`)."""
    return _measured_views(json.dumps(adversary, sort_keys=True, default=repr), mpmath.mp.prec, switches(), what)


def _adaptive_witness(statement):
    """A witness for an adaptive statement: what it names (its measured atoms) of the views' exact KL, the optimal
    standard of their loss, its MGF shifted by μ_1 + μ_2 (in balls), and the declared (μ_i, τ_i)."""
    names = {str(a) for a in measured_atoms(statement, ())}
    shifted = LossMGF(U, V, lam, mu1 + mu2)

    def witness(point):
        adversary = point["structure"]
        means = any(str(a) in names for a in (mu1, mu2, shifted))
        (m1, t1), (m2, t2) = declared_parameters(adversary, means=means,
                                                 standards=any(str(a) in names for a in (tau1, tau2)))
        values = {a: v for a, v in {tau1: t1, tau2: t2, mu1: m1, mu2: m2}.items() if str(a) in names}
        if str(KL(U, V)) in names:
            values[KL(U, V)] = views_quantity(adversary, "kl")
        if str(LossStandard(U, V)) in names:
            values[LossStandard(U, V)] = views_quantity(adversary, "tau")
        if str(shifted) in names:
            U_, V_, _ = adversary_views(adversary)
            l = exact_ball(point["lambda"])
            values[shifted] = Estimate.combine(lambda raw, a, b: raw * (-l * (a + b)).exp(),
                                               divergence("loss_mgf", U_, V_, point["lambda"]), m1, m2)
        return values

    return witness


def _adversary(coin, *games) -> dict:
    return {"structure": {"coin": list(coin), "games": list(games)}}


NULL, DGAUSS_1 = {"kind": "null"}, {"kind": "dgauss", "sigma": 1.0, "delta": 1.0, "radius": 12}
# The catalogue's counterexample with data-independent choices, deterministic adversary: step 1 is a fair coin
# *mechanism* (loss 0), then a Gaussian query on which Alice and Bob differ (tau_2 = 1) on heads, one on which they
# agree (loss 0) on tails. Finite: the discrete Gaussian sigma = 1, Delta = 1 on [-12, 12], whose tau agrees with the
# catalogue's continuous Gaussian (tau = 1.022293) to 1e-8 (the sup sits at lambda ~ 5: [-10, 10] is too short).
ADAPTIVE_COUNTEREXAMPLE = _adversary([1.0], {"first": coin_pair(2), "branches": [NULL, DGAUSS_1]})
# The catalogue's table, eps_1 = 0.1: step 1 is RR(0.1) (its first atom is the '+eps_1' output), then the Gaussian
# query after '+eps_1', the null one after '-eps_1' (tau = 1.042015 against sqrt(0.1^2 + 1) = 1.004988).
ADAPTIVE_RR_ROW = _adversary([1.0], {"first": {"kind": "rr", "eps": 0.1}, "branches": [DGAUSS_1, NULL]})
# The referee's counterexample: one mechanism (k = 1, step 2 null), chosen by the adversary's own fair coin R_U among
# {null, Gaussian}. The loss has the same law as in ADAPTIVE_COUNTEREXAMPLE (tau = 1.0223), but now tau_1 = 1 and
# mu_2 = tau_2 = 0: a bound that leaves out mu_1 (the first conditional mean "is constant") fails.
RANDOMIZED_COUNTEREXAMPLE = _adversary([1.0, 1.0], {"first": NULL, "branches": [NULL]},
                                       {"first": DGAUSS_1, "branches": [NULL]})
# One mechanism (RR(1)) and a null second step: L = C_1, so tau(L - E L) = tau_1, the deterministic bound exactly.
ONE_STEP = _adversary([1.0], {"first": {"kind": "rr", "eps": 1.0}, "branches": [NULL]})
ADAPTIVE = Setting("$(U, V)$ the views $(R, Y_1, Y_2)$ of the two-step game of Section 3.1, played by an adversary "
                   r"with its own coin $R$; $(\mu_i, \tau_i)$ the largest optimal parameters over the pairs it may run "
                   "at step $i$", strategy=adversaries, build=_game_laws)
DETERMINISTIC = Setting("$(U, V)$ the views $(Y_1, Y_2)$ of the two-step game of Section 3.1, played by a "
                        r"\emph{deterministic} adversary; $(\mu_i, \tau_i)$ the largest optimal parameters over the "
                        "pairs it may run at step $i$", strategy=lambda: adversaries(randomized=False),
                        build=_game_laws)
ADAPTIVE_PRINTED = sp.Le(LossStandard(U, V), sp.sqrt(tau1**2 + tau2**2))
ADAPTIVE_CORRECTED = sp.Le(LossStandard(U, V), sp.sqrt(tau1**2 + tau2**2) + (mu1 + mu2) / 2)
ADAPTIVE_DETERMINISTIC = sp.Le(LossStandard(U, V), sp.sqrt(tau1**2 + tau2**2) + mu2 / 2)
ADAPTIVE_MEAN = sp.Le(KL(U, V), mu1 + mu2)
ADAPTIVE_UNCENTRED = sp.Le(LossMGF(U, V, lam, mu1 + mu2), sp.exp(lam**2 * (tau1**2 + tau2**2) / 2))
# ONE_STEP first: its pairs' parameters are all enclosures, and the verifier keeps trying enclosures on the draws
# only where one of the first has been certified (the discrete Gaussian's searched standard is not yet one).
ADAPTIVE_PINS = (ONE_STEP, ADAPTIVE_COUNTEREXAMPLE, ADAPTIVE_RR_ROW, RANDOMIZED_COUNTEREXAMPLE)
MEASURE_CORRECTED = _adaptive_witness(ADAPTIVE_CORRECTED)
MEASURE_DETERMINISTIC = _adaptive_witness(ADAPTIVE_DETERMINISTIC)
MEASURE_MEAN = _adaptive_witness(ADAPTIVE_MEAN)
MEASURE_UNCENTRED = _adaptive_witness(ADAPTIVE_UNCENTRED)


@theorem(
    id="dwork.thm3.4.adaptive.corrected",
    title="Adaptive composition of CDP: the standard gains at most half the sum of the expected losses",
    number="Theorem 3.4 (adaptive case, corrected)",
    statement=ADAPTIVE_CORRECTED,
    setting=ADAPTIVE,
    examples=ADAPTIVE_PINS,
    printed=(Printed(
        id="dwork.thm3.4.adaptive",
        statement=ADAPTIVE_PRINTED,
        title="Adaptive composition of CDP, as printed",
        number="Theorem 3.4",
        location="Theorem 3.4 and its proof (application of Lemma 2.2)",
        printed=r"$D_{\mathrm{subG}}(U\|V) \preceq \left(\sum_i \mu_i, (\sum_i \tau_i^2)^{1/2}\right)$ under adaptive "
                "composition",
        corrected=r"$\tau\left(L - \mathbb{E}L\right) \le (\sum_i \tau_i^2)^{1/2} + \sum_{i \ge 1} \mu_i/2$ "
                  "(non-adaptive: as printed)",
        counterexample=ADAPTIVE_COUNTEREXAMPLE,
        note="The proof centres each $C_i$ at its unconditional mean, but Lemma 2.2 needs the conditional one; when "
             "the adversary's choice changes the conditional KL (through an output, or through its own coin $R_U$) "
             r"the difference is random. Counterexample: $\tau(L - \mathbb{E}L) = 1.02229 > 1 = \sqrt{0^2 + 1^2}$; "
             r"with the adversary's coin choosing the one mechanism, $k = 1$ already fails ($1.02229 > \tau_1 = 1$).",
        severity="mathematics",
        changes={"witness": _adaptive_witness(ADAPTIVE_PRINTED),
                 "notes": "The printed standard, checked on the views of randomized adversaries; the expected-loss "
                          r"half of the theorem holds adaptively (\symdpid{dwork.thm3.4.adaptive.mean})."},
    ), Printed(
        id="dwork.thm3.4.adaptive.deterministic.randomized",
        statement=ADAPTIVE_DETERMINISTIC,
        title="The deterministic-adversary bound of adaptive composition, for randomized adversaries (relaxed copy)",
        number="Theorem 3.4 (game of Section 3.1: the adversary's randomness $R_U$)",
        location=("Theorem 3.4, the game of Section 3.1 (the adversary's randomness $R_U$, which the proof conditions "
                  "on)"),
        printed=r"$\tau\left(L - \mathbb{E}L\right) \le (\sum_i \tau_i^2)^{1/2} + \sum_{i \ge 2} \mu_i/2$ for every "
                "adversary of the game",
        corrected=r"$\tau\left(L - \mathbb{E}L\right) \le (\sum_i \tau_i^2)^{1/2} + \sum_{i \ge 1} \mu_i/2$ ($\sum_{i "
                  r"\ge 2}$ only for deterministic adversaries)",
        counterexample=RANDOMIZED_COUNTEREXAMPLE,
        note=r"A relaxed copy of \symdpid{dwork.thm3.4.adaptive.deterministic} (hypothesis dropped): with $k = 1$ and "
             r"the adversary's fair coin choosing $M_1 \in \{\mathrm{null}, \mathrm{Gaussian}\}$, $\tau(L - "
             r"\mathbb{E}L) = 1.02229 > 1 = \tau_1$ while the sum over $i \ge 2$ is empty. The first conditional mean "
             r"$\mathbb{E}[C_1 \mid R_U]$ is random when the adversary is. (An earlier symdp correction claimed this "
             "bound for the paper's game; it reported `holds' because its draws had no randomized adversary.)",
        kind="sharpness",
        severity="missing-hypothesis",
        changes={"witness": MEASURE_DETERMINISTIC,
                 "notes": r"Refuted: the deterministic-adversary hypothesis of "
                          r"\symdpid{dwork.thm3.4.adaptive.deterministic} cannot be dropped."},
    )),
)
def theorem_3_4_adaptive_corrected(point):
    r"""$L - \mathbb{E}L = \sum_i (C_i - \mathbb{E}[C_i \mid R, \mathrm{prefix}]) + \sum_i (\mathbb{E}[C_i \mid R,
    \mathrm{prefix}] - \mathbb{E}C_i)$: the first sum is a martingale with $\tau_i$-subgaussian increments, so
    $\sqrt{\sum_i \tau_i^2}$-subgaussian (Lemma 2.2 applied conditionally); each conditional mean is the KL of the pair
    chosen, in $[0, \mu_i]$, \emph{including the first}, which depends on the adversary's coin $R_U$, so the second sum
    lies in an interval of width $\sum_{i \ge 1} \mu_i$ and is $(\sum_i \mu_i/2)$-subgaussian (Hoeffding); standards of
    dependent summands add (H\"older): \symdpcode{proofs/dwork/cdp.py}. The draws are randomized adversaries (1--3 coin
    outcomes, each with its own game; one outcome is the deterministic case). Two steps encoded. Loose: 1.0223 against
    1.25 at both coin counterexamples; the ratio tends to 1 only where one mechanism with a tiny $\mu_1$ is run (then
    $\tau = \tau_1 \le \tau_1 + \mu_1/2$). For deterministic adversaries the first conditional mean is constant and
    $\mu_1$ can be dropped (\symdpid{dwork.thm3.4.adaptive.deterministic}); for randomized ones it cannot
    (\symdpid{dwork.thm3.4.adaptive.deterministic.randomized})."""
    return MEASURE_CORRECTED(point)


@theorem(
    id="dwork.thm3.4.adaptive.deterministic",
    title="Adaptive composition of CDP against a deterministic adversary: the standard gains at most half the later "
          "expected losses",
    number="Theorem 3.4 (adaptive case, corrected, deterministic adversary)",
    statement=ADAPTIVE_DETERMINISTIC,
    setting=DETERMINISTIC,
    examples=(ADAPTIVE_COUNTEREXAMPLE, ADAPTIVE_RR_ROW),
    tight_at=(ONE_STEP,),
)
def theorem_3_4_adaptive_deterministic(point):
    r"""Hypothesis: the adversary is deterministic (no $R_U$; its choices are functions of the outputs seen). Then the
    first conditional mean $\mathbb{E}[C_1]$ is a constant and the second sum of the decomposition
    (\symdpid{dwork.thm3.4.adaptive.corrected}) lies in an interval of width $\sum_{i \ge 2} \mu_i$. The hypothesis
    is needed: \symdpid{dwork.thm3.4.adaptive.deterministic.randomized} refutes this bound for the paper's game,
    whose adversary has its own coins. Attained with one mechanism and a null second step ($\tau = \tau_1$,
    \symdpcode{ONE\_STEP}); 1.0223 against 1.25 at \symdpcode{ADAPTIVE\_COUNTEREXAMPLE} (there step 1 is a coin
    \emph{mechanism}, $\mu_1 = 0$)."""
    return MEASURE_DETERMINISTIC(point)


@theorem(
    id="dwork.thm3.4.adaptive.mean",
    title="Adaptive composition of CDP: the expected losses add (at most)",
    number="Theorem 3.4 (expectation, adaptive case)",
    statement=ADAPTIVE_MEAN,
    setting=ADAPTIVE,
    examples=ADAPTIVE_PINS,
)
def theorem_3_4_adaptive_mean(point):
    r"""The half of Theorem 3.4 that survives adaptivity: $\mathbb{E}[L] = \sum_i \mathbb{E}[\mathbb{E}[C_i \mid R,
    \mathrm{prefix}]] \le \sum_i \mu_i$ (the proof's `$\mathbb{E}[L] = \sum \mu_i$' should read `$\le$'), by the chain
    rule on the exact joint laws. Equality when every pair the adversary may choose at step $i$ has KL $\mu_i$."""
    return MEASURE_MEAN(point)


@theorem(
    id="dwork.thm3.4.adaptive.uncentred",
    title=r"Adaptive composition of CDP: the loss centred at $\sum_i \mu_i$ has an upper subgaussian tail",
    number=r"Theorem 3.4 (what survives adaptively; catalogue \symdpid{dwork.thm3.4})",
    statement=ADAPTIVE_UNCENTRED,
    parameters=(Param(lam, sp.Interval(0, sp.oo), sample=(0, 20)),),
    setting=ADAPTIVE,
    examples=tuple({"lambda": l, **pin} for pin in ADAPTIVE_PINS for l in (0.5, 5.0)),
)
def theorem_3_4_adaptive_uncentred(point):
    r"""For $\lambda \ge 0$, $\mathbb{E}[e^{\lambda(C_i - \mu_i)} \mid R, \mathrm{prefix}] = e^{\lambda(\mathrm{KL}_i -
    \mu_i)}\,\mathbb{E}[e^{\lambda(C_i - \mathrm{KL}_i)} \mid R, \mathrm{prefix}] \le e^{\lambda^2\tau_i^2/2}$
    ($\mathrm{KL}_i \le \mu_i$), and the tower rule multiplies these: so $\Pr[L \ge \sum_i \mu_i + t\sqrt{\sum_i
    \tau_i^2}] \le e^{-t^2/2}$ (the Corollary 3.1 form) survives adaptive composition with randomized adversaries. The
    MGF is an exact sum over the views' joint law."""
    return MEASURE_UNCENTRED(point)


# --- Theorem 3.5: DP => CDP ---------------------------------------------------------------------------------------
def dp_only_pairs():
    """eps-DP pairs: generator (ii), small antipodal pairs, RR (every finite pair is eps-DP for its own Delta_inf)."""
    return st.one_of(dp_pairs(max_size=6), antipodal_pairs(max_class=2),
                     st.floats(0.01, 5).map(lambda e: {"kind": "rr", "eps": e}))


DP = Setting(r"$P$, $Q$ finite, $\varepsilon = \Delta_\infty(P, Q) = \max(D_\infty(P\|Q), D_\infty(Q\|P))$",
             strategy=dp_only_pairs, build=build_cdp_pair)
RR_EPS = (0.1, 1.0, 2.0, 5.0)


@theorem(
    id="dwork.thm3.5",
    title=r"DP implies CDP: the standard of an $\varepsilon$-DP pair is at most $\varepsilon$",
    number="Theorem 3.5",
    statement=sp.Le(LossStandard(P, Q), epsilon),
    setting=DP,
    examples=tuple(rr(e) for e in RR_EPS),
)
def theorem_3_5(point):
    r"""Hoeffding on $[-\varepsilon - \mu, \varepsilon - \mu]$. Loose for $\varepsilon > 0$: the largest standard found
    is RR's $\sqrt{2\varepsilon\tanh(\varepsilon/2)}$ (\symdpid{dwork.obs.rr-extremal.tau}; ratio 0.99958 at
    $\varepsilon = 0.1$, 0.96137 at 1, 0.87269 at 2). The $\mu$ part, $D_{\mathrm{KL}} \le
    \varepsilon(e^{\varepsilon} - 1)/2$, is Lemma 3.8 (\symdpid{dwork.lem3.8}), sharp form
    $\varepsilon\tanh(\varepsilon/2)$ (\symdpid{dwork.obs.rr-extremal})."""
    return {LossStandard(P, Q): pair_quantity(point["structure"], "tau"),
            epsilon: delta_inf(*pair_quantity(point["structure"], "laws"))}


RR_TAU_LAM = Param(lam, sp.Interval(-sp.oo, sp.oo), sample=(-40, 40))


@theorem(
    id="dwork.obs.rr-extremal.tau",
    title=(r"The centred loss of an $\varepsilon$-DP pair is $\sqrt{2\varepsilon\tanh(\varepsilon/2)}$-subgaussian "
           "(numeric observation)"),
    number=r"catalogue observation (sharp Theorem 3.5, $\tau$ part)",
    statement=sp.Le(LossMGF(P, Q, lam, KL(P, Q)), sp.exp(lam**2 * epsilon * sp.tanh(epsilon / 2))),
    parameters=(RR_TAU_LAM,),
    setting=DP,
    tight_at=tuple({"lambda": -1.0, **rr(e)} for e in RR_EPS),
)
def rr_extremal_tau(point):
    r"""NOT PROVED: supported numerically (catalogue: 2-point grid and Nelder--Mead over 3--4-point laws; here: random
    $\varepsilon$-DP pairs at random $\lambda$). For RR it is exact: its loss is a two-point law with Kearns--Saul
    standard squared $2\varepsilon\tanh(\varepsilon/2) = 2D_{\mathrm{KL}}$, attained at $\lambda = -1$, where
    $\mathbb{E}[e^{-(L - D_{\mathrm{KL}})}] = e^{D_{\mathrm{KL}}}$ for every pair (\symdpcode{proofs/dwork/cdp.py}). At
    $\lambda = -1$ the statement is the sharp KL bound (\symdpid{dwork.obs.rr-extremal})."""
    P_, Q_ = DP(point)
    return {LossMGF(P, Q, lam, KL(P, Q)): divergence("loss_mgf", P_, Q_, point["lambda"], centred=True),
            epsilon: delta_inf(P_, Q_)}


# --- Observation: not closed under post-processing -----------------------------------------------------------------
POSTPROC_P = ("0.30533362", "0.0088344682", "0.68583191")  # catalogue dwork.obs.postproc (normalised)
POSTPROC_Q = ("0.5476448", "0.0016891968", "0.450666")


def postprocessing_instance():
    """The catalogue's pair (P, Q) and its image (KP, KQ) under merging atoms 0 and 2."""
    P_, Q_ = FiniteDistribution.normalized(POSTPROC_P), FiniteDistribution.normalized(POSTPROC_Q)
    first, second = FiniteDistribution([1, 0]), FiniteDistribution([0, 1])
    merge = [first, second, first]   # rows as laws: the push-forward is exact
    return P_, Q_, P_.push_forward(merge), Q_.push_forward(merge)


@theorem(
    id="dwork.obs.postproc",
    title="The paper's CDP is not closed under post-processing: merging two atoms raises the standard",
    number="catalogue observation (post-processing)",
    statement=sp.Gt(LossStandard(KP_, KQ_), LossStandard(P, Q)),
    setting=Setting(r"$P \propto (0.30533362, 0.0088344682, 0.68583191)$, $Q \propto (0.5476448, 0.0016891968, "
                    "0.450666)$, $K$ merges atoms 1 and 3"),
)
def obs_postproc(point):
    r"""The paper does not claim closure under post-processing, so this is an observation, not an erratum: at this
    instance $\tau$ rises from 0.499996 to 0.5359902 (catalogue: 0.4999921, an underestimate, to 0.5359902), while
    KL decreases (data processing). A $(\mu, \tau)$-CDP guarantee therefore does not transfer to post-processed
    outputs with the same $\tau$."""
    P_, Q_, KP, KQ = postprocessing_instance()
    # The catalogue's decimals, normalised and merged in exact rationals: the laws are the instance itself.
    return exact_instance((P_, Q_, KP, KQ), {LossStandard(KP_, KQ_): loss_standard(KP, KQ),
                                             LossStandard(P, Q): loss_standard(P_, Q_)})


THEOREMS = registered(__name__)
