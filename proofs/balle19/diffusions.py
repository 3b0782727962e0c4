"""Symbolic derivations for Balle et al. (NeurIPS 2019), Section 5: diffusion mechanisms.

Seeds: main text ``../shared/seeds/001_dc25d928cd3b540a.txt`` (P, §5 and §5.1), appendix
``../shared/seeds/000_eb14441fc6376ec7.txt`` (A, proofs of Theorem 6, Lemma 19, Corollary 7, Theorem 8); catalogue
``../shared/catalogue/catalogue-balle.md`` §4.

The calculus of the semigroups is done on ℝ² with generic functions (``f = f(y1, y2)``, ``φ``, ``p``, ``q``): the
generator of an SDE ``dX = u dt + v dW`` is ``Lf = ⟨u, ∇f⟩ + ½⟨vvᵀ, H(f)⟩`` (P §5) and the carré du champ is
``Γ(f, g) = ½(L(fg) − f Lg − g Lf)``. In the proof of Theorem 6 the carré du champ is the head :class:`CarreDuChamp`,
printed Γ(f, g) as the paper writes it; a step's ``given={CONCRETE: 1}`` evaluates it as ``c⟨∇f, ∇g⟩`` (the Γ of
Brownian motion, c = 1, and of Ornstein–Uhlenbeck, c = ρ²), so each printed step is compared exactly for generic
positive ``p``, ``q``.

Besides ``DERIVATIONS`` the module exposes ``FACTS``: exact checks of printed slips (errata E3, E7, E8, E10).

>>> OU_SEMIGROUP_VARIANCE.check() and THM6_GAMMA_LOG_RATIO.check()
True
"""

from __future__ import annotations

import sympy as sp

from symdp.derivation import Derivation

# --- symbols -------------------------------------------------------------------------------------------------------
y1, y2 = sp.symbols("y_1 y_2", real=True)
Y = (y1, y2)
x1, x2, xp1, xp2 = sp.symbols("x_1 x_2 x'_1 x'_2", real=True)
X, XP = (x1, x2), (xp1, xp2)
t, s, u = sp.symbols("t s u", positive=True)
theta, rho, Delta, alpha, eps, R, c = sp.symbols("theta rho Delta alpha epsilon R c", positive=True)
F = sp.Symbol("F", nonnegative=True)  # ‖f(D)‖
d = sp.Symbol("d", integer=True, positive=True)
beta = sp.Symbol("beta", real=True)
K = sp.Symbol("K", positive=True)  # ∫_t^∞ κ
z = sp.Symbol("z", real=True)
f = sp.Function("f")(y1, y2)
g = sp.Function("g")(y1, y2)
phi = sp.Function("phi")
kappa = sp.Function("kappa")
p = sp.Function("p_t", positive=True)(y1, y2)
q = sp.Function("q_t", positive=True)(y1, y2)
CONCRETE = sp.Symbol("Gamma_concrete")
"""Evaluation switch of :class:`CarreDuChamp`: substituting ``{CONCRETE: 1}`` makes Γ concrete."""


# --- operators on ℝ² ------------------------------------------------------------------------------------------------
def grad(h):
    return sp.Matrix([sp.diff(h, v) for v in Y])


def dot(a, b):
    return sum(ai * bi for ai, bi in zip(a, b))


def laplacian(h):
    return sum(sp.diff(h, v, 2) for v in Y)


def sde_generator(drift, diffusion):
    """L of ``dX = drift dt + diffusion dW`` on ℝ² (P §5): ``Lh = ⟨u, ∇h⟩ + ½⟨vvᵀ, H(h)⟩``, as a function of h."""
    a = diffusion * diffusion.T

    def L(h):
        hess = sp.hessian(h, Y)
        return dot(drift, grad(h)) + sum(a[i, j] * hess[i, j] for i in range(2) for j in range(2)) / 2

    return L


def carre_du_champ(L):
    """Γ(f, g) = ½(L(fg) − f Lg − g Lf) (P §5)."""
    return lambda a, b: (L(a * b) - a * L(b) - b * L(a)) / 2


def _phi_prime(k):
    """φ^{(k)}(f), the k-th derivative of the generic φ at f."""
    return sp.Subs(sp.Derivative(phi(z), (z, k)), z, f)


I2 = sp.eye(2)
L_BM = sde_generator(sp.Matrix([0, 0]), sp.sqrt(2) * I2)
L_OU = sde_generator(-theta * sp.Matrix(Y), sp.sqrt(2) * rho * I2)          # corrected SDE (erratum E3)
L_OU_PRINTED = sde_generator(-theta * sp.Matrix(Y), sp.sqrt(2 * rho) * I2)  # the SDE as printed

# --- semigroup closure (P §5) -----------------------------------------------------------------------------------------


def ou_variance(time):
    """Var P_t(x) = ρ²/θ (1 − e^{−2θt}) for OU(θ, ρ) (P §5.1)."""
    return rho**2 / theta * (1 - sp.exp(-2 * theta * time))


BM_SEMIGROUP_VARIANCE = Derivation(
    "semigroup: $P_s P_t = P_{t+s}$ for Brownian motion (variances $2t$ and $2s$ add)",
    2 * t + 2 * s,
    source="001 (main text), Section 5 and Example 4",
    assumptions=r"$P_t(x) = \mathcal{N}(x, 2t)$; the composition of Gaussian kernels adds the variances",
).step(2 * (t + s), "factor")

OU_SEMIGROUP_MEAN = Derivation(
    r"semigroup: the OU means compose, $e^{-\theta s} e^{-\theta t} x = e^{-\theta(t+s)} x$",
    sp.exp(-theta * s) * sp.exp(-theta * t),
    source="001 (main text), Section 5.1",
).step(sp.exp(-theta * (t + s)), "add the exponents")

OU_SEMIGROUP_VARIANCE = Derivation(
    r"semigroup: $P_s P_t = P_{t+s}$ for OU: $e^{-2\theta s} v(t) + v(s) = v(t+s)$",
    sp.exp(-2 * theta * s) * ou_variance(t) + ou_variance(s),
    source=r"001 (main text), Section 5.1; \symdpcode{catalogue-balle.md}, \symdpid{balle19.semigroup}",
    assumptions=r"$P_t(x) = \mathcal{N}(e^{-\theta t} x, v(t))$, $v(t) = \rho^2(1 - e^{-2\theta t})/\theta$; $P_s$ "
                r"scales the variance of its input by $e^{-2\theta s}$ and adds $v(s)$",
).step(ou_variance(t + s), r"expand: the cross terms $e^{-2\theta s}$ cancel")

# --- Example 4: Brownian motion -------------------------------------------------------------------------------------
EX4_GENERATOR = Derivation(
    r"Example 4: the generator of $dX = \sqrt{2}\,dW$ is the Laplacian",
    L_BM(f),
    source="001 (main text), Example 4",
    assumptions=(r"$u = 0$, $v = \sqrt{2} I$ in $Lf = \langle u, \nabla f\rangle + \frac{1}{2}\langle vv^\top, "
                 r"H(f)\rangle$"),
).step(laplacian(f), r"$vv^\top = 2I$")

EX4_CARRE_DU_CHAMP = Derivation(
    r"Example 4: $\Gamma(f, g) = \langle\nabla f, \nabla g\rangle$ for Brownian motion",
    carre_du_champ(L_BM)(f, g),
    source="001 (main text), Example 4",
).step(dot(grad(f), grad(g)), "product rule for the Laplacian")

EX4_DIFFUSION_PROPERTY = Derivation(
    (r"Example 4: the diffusion property $L\varphi(f) = \varphi'(f) Lf + \varphi''(f)\Gamma(f)$ (the paper's chain "
     "rule display)"),
    laplacian(phi(f)),
    source=r"001 (main text), Example 4 (display; its left side reads `$Lf$', erratum E10: `$L\varphi(f)$')",
    assumptions=r"$\varphi$ and $f$ generic",
).step(_phi_prime(2) * dot(grad(f), grad(f)) + _phi_prime(1) * laplacian(f), "chain rule for the gradient")

# --- Example 5: Brownian motion via Theorem 6 -----------------------------------------------------------------------
_sq = lambda a, b: sum((ai - bi)**2 for ai, bi in zip(a, b))  # noqa: E731
BM_LOG_RATIO = (_sq(XP, Y) - _sq(X, Y)) / (4 * t)
"""log(p_t(x, y)/p_t(x', y)) for p_t(x, y) ∝ exp(−‖x − y‖²/(4t)) (P Example 5)."""

EX5_KAPPA = Derivation(
    r"Example 5: $\Gamma(\log p_t(x,y)/p_t(x',y)) = \|x - x'\|^2/(4t^2)$, constant in $y$",
    dot(grad(BM_LOG_RATIO), grad(BM_LOG_RATIO)),
    source="001 (main text), Example 5",
).step(_sq(X, XP) / (4 * t**2), "the gradient in $y$ is $(x - x')/(2t)$")

EX5_LAMBDA = Derivation(
    r"Example 5: $\Lambda(t) = \int_t^\infty \Delta^2/(4s^2)\,ds = \Delta^2/(4t)$",
    sp.Integral(Delta**2 / (4 * s**2), (s, t, sp.oo)),
    source="001 (main text), Example 5",
).step(Delta**2 / (4 * t), r"$\int_t^\infty s^{-2}\,ds = 1/t$")

EX5_RDP = Derivation(
    r"Example 5 = Example 4: $\alpha\Lambda(t)$ is the Gaussian RDP $\alpha\Delta^2/(2\sigma^2)$ at $\sigma^2 = 2t$",
    alpha * Delta**2 / (2 * (2 * t)),
    source="001 (main text), Examples 4 and 5",
).step(alpha * Delta**2 / (4 * t), "simplify")


def bm_log_ratio(time):
    """log(p_s(x, y)/p_s(x', y)) at time s for p_s(x, y) ∝ exp(−‖x − y‖²/(4s)) (P Example 5)."""
    return (_sq(XP, Y) - _sq(X, Y)) / (4 * time)


angle = sp.Symbol("phi", real=True)
ON_THE_SPHERE = {x1: xp1 + Delta * sp.cos(angle), x2: xp2 + Delta * sp.sin(angle)}
"""Every pair with ‖x − x'‖ = Δ in ℝ²: x = x' + Δ(cos φ, sin φ)."""

EX5_INTRINSIC = Derivation(
    r"Example 5: the intrinsic sensitivity of Brownian motion, $\int_t^\infty \sup_y \Gamma(\log "
    r"p_s(x,y)/p_s(x',y))\,ds$, is $\Delta^2/(4t)$",
    sp.Integral(dot(grad(bm_log_ratio(s)), grad(bm_log_ratio(s))), (s, t, sp.oo)),
    source=r"001 (main text), Example 5; \symdpcode{catalogue-balle.md}, \symdpid{balle19.ex5}",
    assumptions=r"$\Gamma(h) = \|\nabla_y h\|^2$ (Example 4); $x, x' \in \mathbb{R}^2$ with $\|x - x'\| = \Delta$",
).step(sp.Integral(_sq(X, XP) / (4 * s**2), (s, t, sp.oo)),
       r"$\Gamma(\log\mathrm{ratio}) = \|x - x'\|^2/(4s^2)$: constant in $y$, so it is its own supremum over $y$")\
    .step(_sq(X, XP) / (4 * t), r"$\int_t^\infty s^{-2}\,ds = 1/t$")\
    .step(Delta**2 / (4 * t), r"$\|x - x'\| = \Delta$: $x = x' + \Delta(\cos\phi, \sin\phi)$", given=ON_THE_SPHERE)


# --- Theorem 6 (A): eqs. (7)–(9), the derivative of varphi, the Γ identity, Lemma 19 --------------------------------
class CarreDuChamp(sp.Function):
    """Γ(f, g), printed as in the paper; with the switch substituted by 1 it is ``c⟨∇f, ∇g⟩`` on ℝ²."""

    nargs = 3

    @classmethod
    def eval(cls, a, b, switch):
        if switch == 1:
            return c * dot(grad(a), grad(b))
        return None

    def _latex(self, printer):
        a, b, _ = self.args
        return rf"\Gamma\left({printer._print(a)}, {printer._print(b)}\right)"


def G(a, b):
    return CarreDuChamp(a, b, CONCRETE)


GIVEN = {CONCRETE: 1}
ua = sp.Symbol("u", positive=True)
PHI = ua**alpha
r = p / q

EQ7 = Derivation(r"eq. (7): $\phi'(u) = \alpha\phi(u)/u$ for $\phi(u) = u^\alpha$", sp.diff(PHI, ua),
                 source="000 (appendix), proof of Theorem 6, eq. (7)").step(alpha * PHI / ua, "power rule")
EQ8 = Derivation(r"eq. (8): $\phi''(u) = \alpha(\alpha - 1)\phi(u)/u^2$", sp.diff(PHI, ua, 2),
                 source="000 (appendix), proof of Theorem 6, eq. (8)").step(alpha * (alpha - 1) * PHI / ua**2,
                                                                            "power rule twice")
EQ9 = Derivation(r"eq. (9): $-u\phi''(u) = \frac{d}{du}(\phi(u) - u\phi'(u))$", -ua * sp.diff(PHI, ua, 2),
                 source="000 (appendix), proof of Theorem 6, eq. (9)").step(
    sp.Derivative(PHI - ua * sp.diff(PHI, ua), ua), r"differentiate: $\phi' - \phi' - u\phi''$")

_Lp, _Lq, _dtp, _dtq = sp.symbols("Lp_t Lq_t partial_tp_t partial_tq_t", real=True)
_phi1, _phi2 = sp.diff(PHI, ua), sp.diff(PHI, ua, 2)
_at = {ua: r}

THM6_DT_REARRANGE = Derivation(
    (r"Theorem 6 proof: the integrand of $d\varphi/dt$ after the Fokker--Planck equation, re-arranged (pointwise in "
     "$y$)"),
    _phi1.subs(_at) * (_dtp * q - _dtq * p) / q**2 * q + PHI.subs(_at) * _dtq,
    source="000 (appendix), proof of Theorem 6, steps 2--4 of the first display",
    assumptions="$dr_t/dt = ((dp_t/dt) q_t - (dq_t/dt) p_t)/q_t^2$; Fokker--Planck $dp_t/dt = Lp_t$",
).step(_phi1.subs(_at) * (_Lp * q - _Lq * p) / q + PHI.subs(_at) * _Lq, ("Fokker--Planck: $dp_t/dt = Lp_t$, $dq_t/dt = "
                                                                         "Lq_t$"),
       given={_dtp: _Lp, _dtq: _Lq})\
    .step(_phi1.subs(_at) * _Lp + (PHI.subs(_at) - r * _phi1.subs(_at)) * _Lq, "re-arrange")

THM6_DT_INTEGRAND = Derivation(
    "Theorem 6 proof: the integrand after integration by parts, chain rule and (7)--(9) (pointwise in $y$)",
    G(_phi1.subs(_at), p) + G(PHI.subs(_at) - r * _phi1.subs(_at), q),
    source="000 (appendix), proof of Theorem 6, steps 5--9 of the first display (the integrand, up to the sign)",
    assumptions=(r"$\phi(u) = u^\alpha$; $\Gamma(f, g) = c\langle\nabla f, \nabla g\rangle$ (Brownian motion $c = 1$, "
                 r"OU $c = \rho^2$)"),
).step(_phi2.subs(_at) * G(r, p) + G(PHI.subs(_at) - r * _phi1.subs(_at), q), r"chain rule for $\Gamma$", given=GIVEN)\
    .step(_phi2.subs(_at) * G(r, p) - r * _phi2.subs(_at) * G(r, q), r"chain rule for $\Gamma$ and (9)", given=GIVEN)\
    .step(alpha * (alpha - 1) * PHI.subs(_at) / r**2 * (G(r, p) - r * G(r, q)), "by (8)", given=GIVEN)\
    .step(alpha * (alpha - 1) * PHI.subs(_at) * q * (q * G(r, p) - p * G(r, q)) / p**2, "definition of $r_t$",
          given=GIVEN)

THM6_GAMMA_LOG_RATIO = Derivation(
    r"Theorem 6 proof: $\Gamma(\log r_t) = (q_t\Gamma(r_t, p_t) - p_t\Gamma(r_t, q_t))/p_t^2$",
    G(sp.log(r), sp.log(r)),
    source="000 (appendix), proof of Theorem 6, second display",
    assumptions=(r"$r_t = p_t/q_t$ with $p_t$, $q_t$ generic positive functions on $\mathbb{R}^2$; $\Gamma(f, g) = "
                 r"c\langle\nabla f, \nabla g\rangle$"),
).step(G(r, sp.log(r)) / r, r"chain rule for $\Gamma$", given=GIVEN)\
    .step(G(r, r) / r**2, r"chain rule for $\Gamma$", given=GIVEN)\
    .step((G(r, p) / q + p * G(r, 1 / q)) / r**2, r"product rule for $\Gamma$ ($r_t = p_t/q_t$)", given=GIVEN)\
    .step((G(r, p) / q - p / q**2 * G(r, q)) / r**2, r"chain rule for $\Gamma$", given=GIVEN)\
    .step((q * G(r, p) - p * G(r, q)) / p**2, "definition of $r_t$", given=GIVEN)

LEMMA19_EQUALITY = Derivation(
    r"Lemma 19, equality case: $\varphi(s) = \exp(c\int_s^\infty \kappa)$ solves $\varphi' = -c\kappa\varphi$",
    sp.diff(sp.exp(c * sp.Integral(kappa(u), (u, s, sp.oo))), s),
    source=r"000 (appendix), Lemma 19; \symdpcode{catalogue-balle.md}, \symdpid{balle19.lem19}",
).step(-c * kappa(s) * sp.exp(c * sp.Integral(kappa(u), (u, s, sp.oo))), "fundamental theorem of calculus")

THM6_FINAL_STEP = Derivation(
    (r"Theorem 6 proof: Lemma 19 with $c = \alpha(\alpha - 1)$ gives $R_\alpha = \log(\varphi(t))/(\alpha - 1) \le "
     r"\alpha\int\kappa$"),
    sp.log(sp.exp(alpha * (alpha - 1) * K)) / (alpha - 1),
    source="000 (appendix), proof of Theorem 6",
    assumptions=r"$K = \int_t^\infty \kappa_{x,x'}(s)\,ds$, $\alpha > 1$",
).step(alpha * K, r"$\log\exp$")

# --- the OU semigroup (P §5.1) and Corollary 7 (A) -------------------------------------------------------------------
OU_GENERATOR = Derivation(
    (r"OU: the generator of $dX = -\theta X\,dt + \sqrt{2}\rho\,dW$ is $\rho^2\nabla^2 - \theta\langle x, "
     r"\nabla\rangle$"),
    L_OU(f),
    source=r"001 (main text), Section 5.1 (with the SDE coefficient $\sqrt{2}\rho$; erratum E3)",
).step(rho**2 * laplacian(f) - theta * dot(Y, grad(f)), r"$vv^\top = 2\rho^2 I$")

OU_GENERATOR_PRINTED_SDE = Derivation(
    (r"erratum E3: the printed SDE $dX = -\theta X\,dt + \sqrt{2\rho}\,dW$ has generator $\rho\nabla^2 - \theta\langle "
     r"x, \nabla\rangle$"),
    L_OU_PRINTED(f),
    source="001 (main text), Section 5.1, the SDE as printed",
).step(rho * laplacian(f) - theta * dot(Y, grad(f)), r"$vv^\top = 2\rho I$: $\rho$, not $\rho^2$ as printed for $L$")

OU_CARRE_DU_CHAMP = Derivation(
    r"OU: $\Gamma(f, g) = \rho^2\langle\nabla f, \nabla g\rangle$",
    carre_du_champ(L_OU)(f, g),
    source="001 (main text), Section 5.1",
).step(rho**2 * dot(grad(f), grad(g)), r"the drift is first order and drops out of $\Gamma$")

OU_DIFFUSION_PROPERTY = Derivation(
    r"OU: the diffusion property $L\varphi(f) = \varphi'(f) Lf + \varphi''(f)\Gamma(f)$",
    L_OU(phi(f)),
    source="001 (main text), Section 5.1 (Assumption 1 (3))",
).step(_phi_prime(1) * L_OU(f) + _phi_prime(2) * rho**2 * dot(grad(f), grad(f)), "chain rule")

_invariant = sp.exp(-theta * (y1**2 + y2**2) / (2 * rho**2))
OU_INVARIANT = Derivation(
    (r"OU: $\lambda = \mathcal{N}(0, (\rho^2/\theta) I)$ is invariant: $L^* p_\lambda = \rho^2\nabla^2 p + "
     r"\theta\operatorname{div}(xp) = 0$"),
    rho**2 * laplacian(_invariant) + theta * sum(sp.diff(v * _invariant, v) for v in Y),
    source="001 (main text), Section 5.1",
).step(0, "differentiate")

_e = sp.exp(theta * t)
OU_KERNEL = Derivation(
    (r"OU: the density with respect to $\lambda$ has the symmetric exponent $-\theta(|x|^2 - 2e^{\theta t}\langle "
     r"x,y\rangle + |y|^2)/(2\rho^2(e^{2\theta t}-1))$"),
    -theta * _sq(Y, [sp.exp(-theta * t) * v for v in X]) / (2 * rho**2 * (1 - sp.exp(-2 * theta * t)))
    + theta * _sq(Y, (0, 0)) / (2 * rho**2),
    source="001 (main text), Section 5.1, display before Corollary 7",
).step(-theta * (_sq(X, (0, 0)) - 2 * _e * dot(X, Y) + _sq(Y, (0, 0))) / (2 * rho**2 * (_e**2 - 1)),
       r"multiply by $e^{2\theta t}/e^{2\theta t}$: exact, no $y$-dependent remainder")


def ou_log_kernel(x):
    """log p_t(x, y) up to a constant independent of x and y (the exponent of OU_KERNEL)."""
    return -theta * (_sq(x, (0, 0)) - 2 * _e * dot(x, Y) + _sq(Y, (0, 0))) / (2 * rho**2 * (_e**2 - 1))


OU_LOG_RATIO = ou_log_kernel(X) - ou_log_kernel(XP)
PRINTED_LOG_RATIO = theta * _e * dot([a - b for a, b in zip(X, XP)], Y) / (rho**2 * (_e**2 - 1))
E8_MISSING_TERM = -theta * (_sq(X, (0, 0)) - _sq(XP, (0, 0))) / (2 * rho**2 * (_e**2 - 1))

COR7_LOG_RATIO = Derivation(
    ((r"Corollary 7 proof: the log-ratio is the printed one PLUS $-\theta(|x|^2-|x'|^2)/(2\rho^2(e^{2\theta t}-1))$ "
      "(E8)")),
    OU_LOG_RATIO - PRINTED_LOG_RATIO,
    source="000 (appendix), proof of Corollary 7, first display (erratum E8: the $y$-independent term is missing)",
).step(E8_MISSING_TERM, r"expand: the difference does not depend on $y$, so $\kappa$ is unaffected")

COR7_KAPPA = Derivation(
    r"Corollary 7 proof: $\kappa_{x,x'}(t) = \rho^2|\nabla_y \log\mathrm{ratio}|^2$",
    rho**2 * dot(grad(OU_LOG_RATIO), grad(OU_LOG_RATIO)),
    source="000 (appendix), proof of Corollary 7",
).step(theta**2 * sp.exp(2 * theta * t) * _sq(X, XP) / (rho**2 * (sp.exp(2 * theta * t) - 1)**2),
       r"the gradient is $\theta e^{\theta t}(x - x')/(\rho^2(e^{2\theta t} - 1))$, constant in $y$")

COR7_INTEGRAL = Derivation(
    r"Corollary 7 proof: $\int_t^\infty e^{2\theta s}/(e^{2\theta s} - 1)^2\,ds = 1/(2\theta(e^{2\theta t} - 1))$",
    sp.Integral(sp.exp(2 * theta * s) / (sp.exp(2 * theta * s) - 1)**2, (s, t, sp.oo)),
    source="000 (appendix), proof of Corollary 7",
).step(1 / (2 * theta * (sp.exp(2 * theta * t) - 1)), r"antiderivative $-1/(2\theta(e^{2\theta s} - 1))$")

LAMBDA_OU = theta * Delta**2 / (2 * rho**2 * (sp.exp(2 * theta * t) - 1))

COR7_LAMBDA = Derivation(
    r"Corollary 7: $\Lambda(t) = (\theta^2\Delta^2/\rho^2)\int_t^\infty e^{2\theta s}/(e^{2\theta s}-1)^2\,ds$",
    theta**2 * Delta**2 / rho**2 * sp.Integral(sp.exp(2 * theta * s) / (sp.exp(2 * theta * s) - 1)**2,
                                               (s, t, sp.oo)),
    source="000 (appendix), proof of Corollary 7",
    assumptions=r"the supremum of $\kappa$ over $\|x - x'\| \le \Delta$ is attained at $\|x - x'\| = \Delta$",
).step(LAMBDA_OU, "the integral formula")

COR7_EXACT = Derivation(
    r"Corollary 7 is exact: $R_\alpha(P_t(x)\|P_t(x'))/\alpha = e^{-2\theta t}\Delta^2/(2v(t)) = \Lambda(t)$",
    sp.exp(-2 * theta * t) * Delta**2 / (2 * ou_variance(t)),
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.cor7}",
    assumptions=r"Gaussian RDP $\alpha|m - m'|^2/(2v)$ with means $e^{-\theta t} x$, $e^{-\theta t} x'$",
).step(LAMBDA_OU, r"multiply by $e^{2\theta t}/e^{2\theta t}$")

OU_ITO_VARIANCE = Derivation(
    (r"OU: It\^o isometry, $\operatorname{Var} X_t = \int_0^t c^2 e^{-2\theta(t-u)}\,du = c^2(1 - e^{-2\theta "
     r"t})/(2\theta)$"),
    sp.Integral(c**2 * sp.exp(-2 * theta * (t - u)), (u, 0, t)),
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.ou} (erratum E3)",
    assumptions=r"$X_t = e^{-\theta t} x + c\int_0^t e^{-\theta(t-u)}\,dW_u$",
).step(c**2 / (2 * theta) * (1 - sp.exp(-2 * theta * t)), "integrate")\
    .step(ou_variance(t), r"$c = \sqrt{2}\rho$ (corrected SDE)", given={c: sp.sqrt(2) * rho})

# --- eq. (4), E_GM, the PGM, Theorem 8 ------------------------------------------------------------------------------
a_ = sp.Symbol("a", real=True)
w_ = sp.Symbol("w", positive=True)


def _gauss_density(mean, var):
    return sp.exp(-(z - mean)**2 / (2 * var)) / sp.sqrt(2 * sp.pi * var)


MSE_ONE_COORDINATE = Derivation(
    r"eq. (4), one coordinate: $\mathbb{E}(f_i - (af_i + \mathcal{N}(0, w)))^2 = (1 - a)^2 f_i^2 + w$",
    sp.Integral((x1 - z)**2 * _gauss_density(a_ * x1, w_), (z, -sp.oo, sp.oo)),
    source="001 (main text), eq. (4)",
).step((1 - a_)**2 * x1**2 + w_, "Gaussian moments: squared bias plus variance")

E_OU = (1 - sp.exp(-theta * t))**2 * F**2 + d * rho**2 / theta * (1 - sp.exp(-2 * theta * t))
SIGMA_TILDE2 = rho**2 * (sp.exp(2 * theta * t) - 1) / theta
E_GM = d * SIGMA_TILDE2

EQ4 = Derivation(
    r"eq. (4): $\mathbb{E}\|f - M_t^f\|^2$ is the sum over $d$ coordinates with $a = e^{-\theta t}$, $w = v(t)$",
    (1 - sp.exp(-theta * t))**2 * F**2 + d * ou_variance(t),
    source="001 (main text), eq. (4)",
    assumptions=r"$\sum_i f_i^2 = F^2 = \|f(D)\|^2$",
).step(E_OU, "the printed eq. (4)")

GM_CALIBRATION = Derivation(
    (r"$E_{\mathrm{GM}}$: the Gaussian mechanism $\mathcal{N}(f, \tilde\sigma^2 I)$ has RDP "
     r"$\alpha\Delta^2/(2\tilde\sigma^2) = \alpha\Lambda(t)$"),
    alpha * Delta**2 / (2 * SIGMA_TILDE2),
    source=r"001 (main text), Section 5.1 (definition of $\tilde\sigma^2$, cf. Corollary 7)",
).step(alpha * LAMBDA_OU, r"substitute $\tilde\sigma^2 = \rho^2(e^{2\theta t} - 1)/\theta$")

S_ = sp.Symbol("S", positive=True)  # d σ̃²
PGM_MSE = (1 - beta)**2 * R**2 + beta**2 * S_
BETA_STAR = R**2 / (R**2 + S_)

PGM_OPTIMAL_BETA = Derivation(
    (r"PGM: the worst-case MSE $(1-\beta)^2 R^2 + \beta^2 d\tilde\sigma^2$ is stationary at $\beta^* = R^2/(R^2 + "
     r"d\tilde\sigma^2)$"),
    sp.diff(PGM_MSE, beta).subs(beta, BETA_STAR),
    source="001 (main text), Section 5.1 (post-processed Gaussian mechanism)",
    assumptions=r"$S = d\tilde\sigma^2$; the MSE is a convex quadratic in $\beta$",
).step(0, "simplify")

PGM_VALUE = Derivation(
    r"PGM: at $\beta^*$, the MSE for $\|f\| = R$ equals $E_{\mathrm{GM}}(1 + d\tilde\sigma^2/R^2)^{-1}$",
    PGM_MSE.subs(beta, BETA_STAR),
    source="001 (main text), Section 5.1",
    assumptions=r"$S = d\tilde\sigma^2 = E_{\mathrm{GM}}$",
).step(S_ / (1 + S_ / R**2), "simplify")

THM8_DE_OU = Derivation(
    (r"Theorem 8 proof: $dE_{\mathrm{OU}}/dt = 2d\rho^2 e^{-2\theta t} + 2\theta\|f\|^2 e^{-\theta t}(1 - e^{-\theta "
     "t})$"),
    sp.diff(E_OU, t),
    source="000 (appendix), proof of Theorem 8",
).step(2 * d * rho**2 * sp.exp(-2 * theta * t) + 2 * theta * F**2 * sp.exp(-theta * t) * (1 - sp.exp(-theta * t)),
       "differentiate eq. (4)")

THM8_DE_GM = Derivation(
    r"Theorem 8 proof: $dE_{\mathrm{GM}}/dt = 2d\rho^2 e^{2\theta t}$",
    sp.diff(E_GM, t),
    source="000 (appendix), proof of Theorem 8",
).step(2 * d * rho**2 * sp.exp(2 * theta * t), "differentiate")

THM8_FACTOR = Derivation(
    (r"Theorem 8 proof: $2d\rho^2 e^{-2\theta t} + 8d\rho^2 e^{-\theta t}(1 - e^{-\theta t}) = 2d\rho^2 e^{-2\theta "
     r"t}(4e^{\theta t} - 3)$"),
    2 * d * rho**2 * sp.exp(-2 * theta * t) + 8 * d * rho**2 * sp.exp(-theta * t) * (1 - sp.exp(-theta * t)),
    source="000 (appendix), proof of Theorem 8",
).step(2 * d * rho**2 * sp.exp(-2 * theta * t) * (4 * sp.exp(theta * t) - 3), "factor")

THM8_H_PRIME = Derivation(
    (r"Theorem 8 proof: $4e^s - 3 \le e^{4s}$ for $s \ge 0$, since $h = e^{4s} - 4e^s + 3$ has $h(0) = 0$ and $h' \ge "
     "0$"),
    sp.diff(sp.exp(4 * s) - 4 * sp.exp(s) + 3, s),
    source=r"000 (appendix), proof of Theorem 8; \symdpcode{catalogue-balle.md}, \symdpid{balle19.thm8.a}",
).step(4 * sp.exp(s) * (sp.exp(s) - 1) * (sp.exp(2 * s) + sp.exp(s) + 1), ((r"factor: every factor $\ge 0$ for $s \ge "
                                                                            "0$")))

THM8_SHARP = Derivation(
    (r"Theorem 8 (a) is sharp: $(E_{\mathrm{GM}} - E_{\mathrm{OU}})/t^2 \to \theta(4d\rho^2 - \theta R^2)$ as $t \to "
     r"0$ when $\|f\| = R$"),
    sp.Limit((E_GM - E_OU.subs(F, R)) / t**2, t, 0),
    source=r"\symdpcode{catalogue-balle.md}, \symdpid{balle19.thm8.a} (derived there, not in the paper)",
).step(theta * (4 * d * rho**2 - theta * R**2), "Taylor expansion to second order in $t$")

THM8_LIMIT = Derivation(
    r"Theorem 8 (a): $E_{\mathrm{OU}}/E_{\mathrm{GM}} \to 0$ as $t \to \infty$",
    sp.Limit(E_OU / E_GM, t, sp.oo),
    source="000 (appendix), proof of Theorem 8",
).step(0, r"$E_{\mathrm{OU}}$ stays bounded while $E_{\mathrm{GM}}$ grows like $e^{2\theta t}$")

A_CAL = d * Delta**2 / (2 * eps * R**2)
THETA_CAL = sp.log(1 + A_CAL)
RHO2_CAL = THETA_CAL * Delta**2 / (2 * eps * (sp.exp(2 * THETA_CAL) - 1))


def _at_calibration(expr):
    """Substitute t = 1, θ = log(1 + dΔ²/(2ϵR²)), ρ² = θΔ²/(2ϵ(e^{2θ} − 1)) (P Theorem 8)."""
    return expr.subs(t, 1).subs(rho, sp.sqrt(RHO2_CAL)).subs(theta, THETA_CAL)


THM8B_PRIVACY = Derivation(
    (r"Theorem 8 (b): the calibrated OU mechanism has $\Lambda(1) = \varepsilon$, so it is $(\alpha, "
     r"\alpha\varepsilon)$-RDP at $t = 1$"),
    _at_calibration(LAMBDA_OU),
    source="000 (appendix), proof of Theorem 8",
).step(eps, r"substitute $\rho^2$")

THM8B_EGM = Derivation(
    r"Theorem 8 (b): $E_{\mathrm{GM}}(\theta, \rho, 1) = d\Delta^2/(2\varepsilon)$",
    _at_calibration(E_GM),
    source="000 (appendix), proof of Theorem 8",
).step(d * Delta**2 / (2 * eps), r"substitute $\rho^2$")

THM8B_EOU_MIDDLE_CORRECTED = (R**2 * (d * Delta**2 / (2 * eps))**2 + R**4 * d * Delta**2 / (2 * eps)) \
    / (R**2 + d * Delta**2 / (2 * eps))**2
THM8B_EOU_MIDDLE_PRINTED = (R**2 * (d * Delta**2 / (2 * eps * R**2))**2 + R**4 * d * Delta**2 / (2 * eps * R**2)) \
    / (R**2 + d * Delta**2 / (2 * eps))**2
THM8B_EOU_LEFT = (1 - sp.exp(-THETA_CAL))**2 * R**2 + d * Delta**2 / (2 * eps) * sp.exp(-2 * THETA_CAL)

THM8B_MIDDLE = Derivation(
    "Theorem 8 proof, last display: its left end equals the middle expression (corrected, erratum E7)",
    THM8B_EOU_LEFT,
    source="000 (appendix), proof of Theorem 8, last display",
    assumptions=r"$\theta = \log(1 + d\Delta^2/(2\varepsilon R^2))$",
).step(THM8B_EOU_MIDDLE_CORRECTED, ((r"plug in $\theta$: $e^{-\theta} = 2\varepsilon R^2/(2\varepsilon R^2 + "
                                     r"d\Delta^2)$")))

THM8B_EOU = Derivation(
    (r"Theorem 8 (b): $E_{\mathrm{OU}}(\theta, \rho, 1)$ at $\|f\| = R$ is $E_{\mathrm{GM}}/(1 + "
     r"d\Delta^2/(2\varepsilon R^2))$ (last display, corrected)"),
    _at_calibration(E_OU.subs(F, R)),
    source="000 (appendix), proof of Theorem 8, last two displays (middle expression corrected: erratum E7)",
).step(THM8B_EOU_LEFT, (r"substitute $\rho^2$: $d\rho^2(1 - e^{-2\theta})/\theta = d\Delta^2 "
                        r"e^{-2\theta}/(2\varepsilon)$"))\
    .step(THM8B_EOU_MIDDLE_CORRECTED, (r"plug in $\theta$ (the paper prints $d\Delta^2/(2\varepsilon R^2)$ in the "
                                       "numerator)"))\
    .step(d * Delta**2 / (2 * eps) / (1 + A_CAL), "simplify")


# --- exact checks of printed slips (not chains of equalities) ------------------------------------------------------
def e3_printed_sde_variance() -> bool:
    """E3: dsolve of V' = −2θV + c² (V(0) = 0) with the printed c = √(2ρ) gives ρ/θ (1 − e^{−2θt}), not the printed
    ρ²/θ (1 − e^{−2θt}); with c = √2 ρ it gives the printed variance."""
    V = sp.Function("V")

    def solve(coeff):
        return sp.dsolve(sp.Eq(V(t).diff(t), -2 * theta * V(t) + coeff**2), V(t), ics={V(0): 0}).rhs

    literal, corrected = solve(sp.sqrt(2 * rho)), solve(sp.sqrt(2) * rho)
    return (sp.simplify(literal - rho / theta * (1 - sp.exp(-2 * theta * t))) == 0
            and sp.simplify(literal - ou_variance(t)) != 0
            and sp.simplify(corrected - ou_variance(t)) == 0)


def e7_printed_middle() -> bool:
    """E7: at d = Δ = ϵ = 1, R = 2 the printed middle expression is 11/108, the left and right sides 4/9."""
    point = {d: 1, Delta: 1, eps: 1, R: 2}
    return (sp.nsimplify(THM8B_EOU_MIDDLE_PRINTED.subs(point)) == sp.Rational(11, 108)
            and sp.simplify(THM8B_EOU_LEFT.subs(point)) == sp.Rational(4, 9)
            and sp.simplify(THM8B_EOU_MIDDLE_CORRECTED.subs(point)) == sp.Rational(4, 9))


def e8_missing_term() -> bool:
    """E8: the printed log-ratio misses a nonzero term, which is independent of y (so κ is unaffected)."""
    diff = sp.simplify(OU_LOG_RATIO - PRINTED_LOG_RATIO)
    return diff != 0 and all(sp.diff(diff, v) == 0 for v in Y)


def e10_chain_rule_left_side() -> bool:
    """E10: the display's left side 'Lf' is not ∇²φ(f): with f = y1, φ = exp, Lf = 0 but ∇²φ(f) = e^{y1}."""
    h = y1
    return laplacian(h) == 0 and sp.simplify(laplacian(sp.exp(h)) - sp.exp(y1)) == 0


FACTS = {
    "E3: the printed OU SDE sqrt(2 rho) dW gives variance rho/theta(1-e^{-2 theta t}); sqrt(2) rho gives the printed one":
        e3_printed_sde_variance,
    "E7: printed middle expression of Theorem 8's proof is 11/108, not 4/9, at d = Delta = epsilon = 1, R = 2":
        e7_printed_middle,
    "E8: the printed OU log-ratio misses a nonzero y-independent term": e8_missing_term,
    "E10: Example 4's chain-rule display starts 'Lf' where it means 'L phi(f)'": e10_chain_rule_left_side,
}

DERIVATIONS: list[Derivation] = [
    BM_SEMIGROUP_VARIANCE, OU_SEMIGROUP_MEAN, OU_SEMIGROUP_VARIANCE,
    EX4_GENERATOR, EX4_CARRE_DU_CHAMP, EX4_DIFFUSION_PROPERTY,
    EQ7, EQ8, EQ9, THM6_DT_REARRANGE, THM6_DT_INTEGRAND, THM6_GAMMA_LOG_RATIO, LEMMA19_EQUALITY, THM6_FINAL_STEP,
    EX5_KAPPA, EX5_LAMBDA, EX5_RDP, EX5_INTRINSIC,
    OU_GENERATOR, OU_GENERATOR_PRINTED_SDE, OU_CARRE_DU_CHAMP, OU_DIFFUSION_PROPERTY, OU_INVARIANT, OU_KERNEL,
    OU_ITO_VARIANCE, COR7_LOG_RATIO, COR7_KAPPA, COR7_INTEGRAL, COR7_LAMBDA, COR7_EXACT,
    MSE_ONE_COORDINATE, EQ4, GM_CALIBRATION, PGM_OPTIMAL_BETA, PGM_VALUE,
    THM8_DE_OU, THM8_DE_GM, THM8_FACTOR, THM8_H_PRIME, THM8_SHARP, THM8_LIMIT,
    THM8B_PRIVACY, THM8B_EGM, THM8B_MIDDLE, THM8B_EOU,
]
