"""Bravo et al., Definition 2.1: the six moduli of the gradient map Φ(x) = x - η∇f(x) (catalogue bravo.def2.1).

The witness's ‖Φ(x) - Φ(y)‖² against the test's own: f written here, its gradient by numerical differentiation
(mpmath.diff), at fixed instances away from the kinks; the class constants by hand.
"""

import mpmath
import pytest

from symdp.errors import InvalidParameter
from symdp.precision import working_precision
from symdp.theorems.bravo import moduli as bv
from symdp.verify import HOLDS, TIGHT, VIOLATED, evaluate_point, verify

X, U = [0.4, -0.9], [0.6, 0.8]   # y = x + 10^scale·u, scale = -0.5, ‖u‖ = 1
PIECES = [{"a": [1.5, -0.5], "b": 0.3, "w": 0.7}, {"a": [-0.4, 1.1], "b": -0.2, "w": 0.2},
          {"a": [0.2, 0.9], "b": 1.0, "w": 0.5}]
B = [[1.2, -0.3], [0.4, 0.8]]


def m(v):
    """A drawn float as the witness reads it: its decimal string."""
    return mpmath.mpf(str(v))


def quadratic(A):
    return lambda x: sum(A[i][j] * x[i] * x[j] for i in range(2) for j in range(2)) / 2


def dot(a, x):
    return a[0] * x[0] + a[1] * x[1]


BtB = [[sum(B[k][i] * B[k][j] for k in range(2)) + (0.5 if i == j else 0) for j in range(2)] for i in range(2)]
SYM = [[(B[i][j] + B[j][i]) / 2 for j in range(2)] for i in range(2)]
FUNCTIONS = {   # kind: (structure beyond x, u, scale; f written here; p)
    1: ({"pieces": PIECES}, lambda x: max(dot(q["a"], x) + q["b"] for q in PIECES), None),
    2: ({"pieces": PIECES}, lambda x: sum(q["w"] * abs(dot(q["a"], x) - q["b"]) ** 1.4 / 1.4 for q in PIECES), 0.4),
    3: ({"B": B, "shift": 0.5}, quadratic(BtB), None),
    5: ({"B": B, "pieces": PIECES}, lambda x: quadratic(SYM)(x) + sum(mpmath.cos(dot(q["a"], x)) for q in PIECES),
        None),
    6: ({"kappa": 0.8, "G": 0.6, "pieces": PIECES},
        lambda x: 0.4 * (x[0] ** 2 + x[1] ** 2) + 0.6 * sum(mpmath.sin(dot(q["a"], x)) for q in PIECES), None),
}


def own_dphi2(f, eta, x, y):
    grad = lambda z: [mpmath.diff(lambda t: f([t, z[1]]), z[0]), mpmath.diff(lambda t: f([z[0], t]), z[1])]
    gx, gy = grad(x), grad(y)
    return sum((x[i] - eta * gx[i] - y[i] + eta * gy[i]) ** 2 for i in range(2))


def point(kind, eta=0.7, p=None, **structure):
    out = {"eta": eta, "structure": {"kind": kind, "x": X, "u": U, "scale": -0.5, **structure}}
    return out if p is None else {**out, "p": p}


@pytest.mark.parametrize("kind", sorted(FUNCTIONS))
def test_witness_measures_the_gradient_map_of_f(kind):
    structure, f, p = FUNCTIONS[kind]
    t = bv.MODULI_OF_CONTINUITY[kind]
    with working_precision(30):
        raw = point(kind, p=p, **structure)
        _, _, values = t.measure({**raw, "eta": mpmath.mpf(raw["eta"]), **({"p": mpmath.mpf(p)} if p else {})})
        x = [m(v) for v in X]
        y = [a + mpmath.power(10, -0.5) * m(b) for a, b in zip(x, U)]
        assert abs(values["delta"] - mpmath.power(10, -0.5)) < mpmath.mpf(10) ** -25
        ref = own_dphi2(f, mpmath.mpf("0.7"), x, y)
        assert abs(values["dPhi2()"] - ref) < mpmath.mpf(10) ** -12 * (1 + ref)
    assert evaluate_point(t, raw).verdict == HOLDS


def test_class_constants_by_hand():
    norms = [mpmath.norm(mpmath.matrix([m(a) for a in q["a"]])) for q in PIECES]
    with working_precision(30):
        v = bv.MODULI_OF_CONTINUITY[1].measure(point(1, pieces=PIECES))[2]
        assert abs(v["L"] - max(norms)) < 1e-25
        v = bv.MODULI_OF_CONTINUITY[2].measure({**point(2, pieces=PIECES), "p": mpmath.mpf("0.4")})[2]
        M = 2 ** mpmath.mpf("0.6") * sum(m(q["w"]) * n ** mpmath.mpf("1.4") for q, n in zip(PIECES, norms))
        assert abs(v["M"] - M) < 1e-25
        v = bv.MODULI_OF_CONTINUITY[3].measure(point(3, B=B, shift=0.5))[2]
        tr, det = BtB[0][0] + BtB[1][1], BtB[0][0] * BtB[1][1] - BtB[0][1] ** 2
        root = mpmath.sqrt(mpmath.mpf(tr) ** 2 / 4 - det)
        assert abs(v["kappa"] - (tr / 2 - root)) < 1e-12 and abs(v["beta"] - (tr / 2 + root)) < 1e-12
        v = bv.MODULI_OF_CONTINUITY[6].measure(point(6, kappa=0.8, G=0.6, pieces=PIECES))[2]
        assert abs(v["kappa"] - mpmath.mpf("0.4")) < 1e-25
        assert abs(v["lambda"] - 2 * (mpmath.mpf("0.6") * sum(norms)) ** 2 / mpmath.mpf("0.8")) < 1e-20
        assert abs(v["beta"] - (mpmath.mpf("0.8") + mpmath.mpf("0.6") * sum(n ** 2 for n in norms))) < 1e-20


def test_modulus_4_is_co_coercivity_at_eta_beta_2r():
    # f = x'Ax/2 with A = diag(0, 1) scaled so that eta beta = 2r: Phi = I - eta A has eigenvalues 1 and 1 - 2r
    t = bv.MODULI_OF_CONTINUITY[4]
    with working_precision(30):
        raw = point(4, B=[[0.0, 0.0], [0.0, 1.0]], shift=0.0, r=0.8)
        _, _, v = t.measure({**raw, "eta": mpmath.mpf("0.7")})
        d = [mpmath.power(10, -0.5) * m(b) for b in U]
        assert abs(v["dPhi2()"] - (d[0] ** 2 + (1 - 2 * mpmath.mpf("0.8")) ** 2 * d[1] ** 2)) < 1e-25


def test_modulus_1_is_tight_as_a_sup_and_its_tightened_copy_is_refuted():
    t = bv.MODULI_OF_CONTINUITY[1]
    with working_precision(30):
        q, b = t.evaluate({**bv.LIPSCHITZ_SUP, "eta": mpmath.mpf("0.3")})
    assert mpmath.nstr(q.value / b.value, 8) == "0.99999718"   # catalogue: 0.99999718 at epsilon = 1e-6
    assert evaluate_point(t, bv.LIPSCHITZ_SUP).verdict == HOLDS
    assert evaluate_point(t.tightened(0.99), bv.LIPSCHITZ_SUP).verdict == VIOLATED
    assert verify(t.tightened(0.99), examples=0).verdict == VIOLATED


@pytest.mark.parametrize("kind", [3, 4, 5, 6])
def test_pinned_equalities_are_tight(kind):
    t = bv.MODULI_OF_CONTINUITY[kind]
    (pin,) = t.tight_at
    assert evaluate_point(t, pin).verdict == TIGHT
    assert evaluate_point(t.tightened(0.99), pin).verdict == VIOLATED


def _argmax(f):
    """The maximiser of a function of g > 0 that rises then falls: the sign change of f' (numerical derivative),
    bracketed by doubling from 1e-12, then found by the Illinois (regula falsi) method."""
    slope = lambda g: mpmath.diff(f, g)
    low = mpmath.mpf(10) ** -12
    while slope(2 * low) > 0:
        low *= 2
    return mpmath.findroot(slope, (low, 2 * low), solver="illinois", maxsteps=200)


def _psi(g, p, eta, M, constant=None):
    """η²g² − c η M^{-1/p} g^{(1+p)/p}, c = 4p/(1+p) as in the derivation of (2) unless given."""
    c = 4 * p / (1 + p) if constant is None else constant
    return eta ** 2 * g ** 2 - c * eta * M ** (-1 / p) * g ** ((1 + p) / p)


@pytest.mark.parametrize("p, eta, M", [("0.2", "0.5", "3"), ("0.5", "1.7", "0.4"), ("0.9", "0.05", "20"),
                                       ("0.01", "1", "2")])
def test_the_additive_term_of_modulus_2_is_the_maximum_of_psi_found_numerically(p, eta, M):
    from symdp.proofs.bravo import moduli as proof

    with working_precision(40):
        p, eta, M = (mpmath.mpf(v) for v in (p, eta, M))
        # psi' = 2 eta g (eta - 2 M^{-1/p} g^{(1-p)/p}) from the derivative of psi, its root by findroot
        root = _argmax(lambda g: _psi(g, p, eta, M))
        h = (2 * eta ** (1 / (1 - p)) * mpmath.sqrt((1 - p) / (1 + p)) * (M / 2) ** (1 / (1 - p))) ** 2
        assert abs(_psi(root, p, eta, M) - h) < mpmath.mpf(10) ** -25 * (1 + h)
        for g in (root / 2, root * mpmath.mpf("0.99"), root * mpmath.mpf("1.01"), 3 * root):
            assert _psi(g, p, eta, M) < _psi(root, p, eta, M)
        symbolic = float(proof.H_WEAKLY_SMOOTH.subs({proof.p: p, bv.eta: eta, bv.M: M}))
        assert abs(symbolic - float(h)) <= 1e-12 * (1 + float(h))
    assert all(d.check() for d in proof.DERIVATIONS)


@pytest.mark.parametrize("p, catalogue", [("0.3", "0.52"), ("0.7", "0.39")])
def test_in_one_dimension_the_class_reaches_only_a_fraction_of_h(p, catalogue):
    # In 1-D, g <= M delta^p is the only constraint a pair puts on a convex f with p-Hölder gradient (a clamped
    # linear gradient realises any such pair), so the sup of |dPhi|^2 - delta^2 = max_g of eta^2 g^2 - 2 eta g delta at
    # delta = (g/M)^{1/p}: psi with the constant 2 for 4p/(1+p), a fraction (2p/(1+p))^{2p/(1-p)} of h.
    with working_precision(30):
        p, eta, M = mpmath.mpf(p), mpmath.mpf("0.8"), mpmath.mpf("1.5")
        best = _argmax(lambda g: _psi(g, p, eta, M, 2))
        h = (2 * eta ** (1 / (1 - p)) * mpmath.sqrt((1 - p) / (1 + p)) * (M / 2) ** (1 / (1 - p))) ** 2
        ratio = _psi(best, p, eta, M, 2) / h
        assert abs(ratio - (2 * p / (1 + p)) ** (2 * p / (1 - p))) < mpmath.mpf(10) ** -20
        assert ratio >= mpmath.mpf(catalogue) - mpmath.mpf("0.01")   # the catalogue's sampled 1-D ratios stay below
        delta = (best / M) ** (1 / p)
        assert abs((delta - eta * best) ** 2 - delta ** 2 - _psi(best, p, eta, M, 2)) < mpmath.mpf(10) ** -20


def test_modulus_6_with_lambda_positive_is_attained_on_a_bounded_domain():
    # f = -beta x^2/2 on [-D/2, D/2]: <grad f(x) - grad f(y), x - y> = -beta (x - y)^2 >= kappa (x - y)^2 - lambda
    # with lambda = (kappa + beta) D^2, for every kappa; at x - y = D, ||Phi(x) - Phi(y)||^2 = (1 + eta beta)^2 D^2
    with working_precision(30):
        eta, beta, kappa, D = mpmath.mpf("0.4"), mpmath.mpf("1.5"), mpmath.mpf("0.7"), mpmath.mpf(2)
        lam = (kappa + beta) * D ** 2
        grad = lambda x: -beta * x
        worst = min((grad(x) - grad(y)) * (x - y) - kappa * (x - y) ** 2 + lam
                    for x in mpmath.linspace(-D / 2, D / 2, 21) for y in mpmath.linspace(-D / 2, D / 2, 21))
        assert abs(worst) < mpmath.mpf(10) ** -25     # dissipative, with equality at the ends
        x, y = D / 2, -D / 2
        dphi2 = (x - eta * grad(x) - y + eta * grad(y)) ** 2
        phi2 = (1 - 2 * eta * kappa + eta ** 2 * beta ** 2) * D ** 2 + 2 * eta * lam
        assert abs(dphi2 - phi2) < mpmath.mpf(10) ** -25 and abs(dphi2 - ((1 + eta * beta) * D) ** 2) < 1e-25


def test_modulus_6_at_g_0_is_the_quadratic_with_kappa_equal_to_beta():
    t = bv.MODULI_OF_CONTINUITY[6]
    (pin,) = t.tight_at
    with working_precision(30):
        _, _, v = t.measure({**pin, "eta": mpmath.mpf("0.3")})
        assert v["kappa"] == v["beta"] == mpmath.mpf("1.2") and v["lambda"] == 0
        assert abs(v["dPhi2()"] - (1 - mpmath.mpf("0.36")) ** 2) < mpmath.mpf(10) ** -25   # (1 - eta kappa')^2 delta^2


def test_an_unknown_class_is_a_clear_error():
    with pytest.raises(InvalidParameter, match="kind must be one of 1-6"):
        bv.gradient_and_constants({"kind": 7}, {})


def _estimate(measured):
    """The estimate of a measurement, unwrapped from :class:`~symdp.statement.BuiltExactly` where the witness marked
    it so (a pair the draw fixes exactly)."""
    from symdp.statement import BuiltExactly

    return measured.value if isinstance(measured, BuiltExactly) else measured


def _contains(estimate, value) -> bool:
    """Whether a certified estimate's enclosure holds ``value`` (an mpf)."""
    estimate = _estimate(estimate)
    return estimate.certified and estimate.value - estimate.error <= value <= estimate.value + estimate.error


def test_class_constants_are_certified_enclosures_of_the_closed_forms():
    # κ, β of A = BᵀB + sI (2×2): tr/2 ∓ sqrt(tr²/4 − det), the textbook eigenvalues of a symmetric 2×2 matrix,
    # computed here in mpmath at 60 digits from the entries as the witness reads them (decimals rounded to 30
    # digits); the witness encloses them in Arb.
    with working_precision(30):
        raw = point(3, B=B, shift=0.5)
        output = bv.gradient_map({**raw, "eta": mpmath.mpf("0.7")})
        entries = [[m(t) for t in row] for row in B]
        x, y = bv._pair(raw["structure"])
    with mpmath.workdps(60):
        A = [[sum(entries[k][i] * entries[k][j] for k in range(2)) + (m(0.5) if i == j else 0) for j in range(2)]
             for i in range(2)]
        tr, det = A[0][0] + A[1][1], A[0][0] * A[1][1] - A[0][1] ** 2
        root = mpmath.sqrt(tr ** 2 / 4 - det)
        assert _contains(output[bv.kappa], tr / 2 - root) and _contains(output[bv.beta], tr / 2 + root)
        assert output[bv.beta].error < mpmath.mpf(10) ** -25
        # δ = ‖x − y‖ ≈ 10^-0.5 of the pair as rounded, and L of modulus (1) is max ‖a_i‖ = ‖(1.5, −0.5)‖ = sqrt(2.5)
        assert _contains(output[bv.delta], mpmath.sqrt(sum((a - b) ** 2 for a, b in zip(x, y))))
    with working_precision(30):
        lipschitz = bv.gradient_map({**point(1, pieces=PIECES), "eta": mpmath.mpf("0.7")})
    assert _contains(lipschitz[bv.L], mpmath.sqrt(mpmath.mpf("2.5")))
    assert not _contains(lipschitz[bv.L], mpmath.sqrt(mpmath.mpf("2.5")) * (1 + mpmath.mpf(10) ** -20))


def test_equal_eigenvalues_are_enclosed_exactly():
    # A = 1.7 I (B = 0, s = 1.7): a double eigenvalue, which Arb encloses as a cluster; κ = β = s, and for
    # Φ = (1 − sη) I the squared distance is exactly (1 − sη)²δ² (δ = 1), with s and η = 0.3 as the witness reads
    # them (30-digit decimals), the product taken at 60 digits
    (pin,) = bv.MODULI_OF_CONTINUITY[3].tight_at
    with working_precision(30):
        s_, eta_ = mpmath.mpf("1.7"), mpmath.mpf("0.3")
        output = bv.gradient_map({**pin, "eta": eta_})
        x, y = bv._exact_pair(pin["structure"])   # y = x + e_1 exactly: δ = 1
        assert _contains(output[bv.kappa], s_) and _contains(output[bv.beta], s_)
    assert sum((a - b) ** 2 for a, b in zip(x, y)) == 1
    with mpmath.workdps(60):
        expected = (1 - s_ * eta_) ** 2
        assert _contains(output[bv.DPhi2()], expected)
        assert abs((1 - s_ * eta_) ** 2 - mpmath.mpf("0.2401")) < mpmath.mpf(10) ** -28

def test_a_double_eigenvalue_arb_cannot_isolate_is_enclosed_from_the_characteristic_polynomial():
    # The draw hypothesis shrank to (a B with three equal rows: BᵀB = 3bbᵀ has the double eigenvalue 0, so A has
    # the shift twice): Arb's eig raised "failed to isolate eigenvalues" at every precision, and the verify run of the
    # whole catalogue stopped there. A = BᵀB + sI: κ = s and β = s + 3‖b‖², b and s as the witness reads them.
    b = [0.0, -1.9999999999999998, -0.8565722088439232]
    shift = 1.9999999999999998
    raw = {"eta": 1.7529252693118054, "structure": {"kind": 3, "x": [-2.2250738585072014e-308, 0.4943888244479373,
           1.4866616120770475], "u": [0.0, 0.0, 0.0], "scale": 0.0, "B": [b] * 3, "shift": shift}}
    result = evaluate_point(bv.MODULI_OF_CONTINUITY[3], raw)
    assert result.verdict == HOLDS and result.certified
    with working_precision(30):
        output = bv.gradient_map({**raw, "eta": mpmath.mpf(raw["eta"])})
        kappa_, beta_ = (_estimate(output[c]) for c in (bv.kappa, bv.beta))
    with mpmath.workdps(60):
        for measured, expected in ((kappa_, m(shift)), (beta_, m(shift) + 3 * sum(m(t) ** 2 for t in b))):
            assert measured.certified and abs(measured.value - expected) <= measured.error + expected * 1e-29



@pytest.mark.parametrize("kind", sorted(bv.MODULI_OF_CONTINUITY))
def test_every_draw_of_a_modulus_is_decided_by_enclosures(kind):
    report = verify(bv.MODULI_OF_CONTINUITY[kind], examples=10)
    assert report.verdict == HOLDS
    # modulus (2) has draws held by less than half the working digits (∇f(x) = ∇f(y), h ≪ δ²): left to the two
    # precisions by the verifier's rule, not for want of an enclosure
    assert set(report.uncertified) <= {"undecided-by-enclosures"}
    assert report.certified_examples >= report.examples - report.uncertified.get("undecided-by-enclosures", 0)


def test_a_pair_the_draw_fixes_exactly_is_built_exactly_and_decided_by_its_balls():
    # u = 0, scale = 0 or -1: y = x + 10^scale e_1 exactly (rationals, by hand), so the measurements are of the draw's
    # own pair (BuiltExactly); a general u/‖u‖ is rounded, and is not marked
    from fractions import Fraction

    from symdp.statement import BuiltExactly

    structure = {"kind": 2, "x": [1.9, 0.8575201290525676], "u": [0.0, 0.0], "scale": -1.0,
                 "pieces": [{"a": [0.0, 0.9881162207436454], "b": 0.0, "w": 0.05}]}
    def fractions(v):
        return [Fraction(int(t.p), int(t.q)) for t in v]

    x, y = map(fractions, bv._exact_pair(structure))
    assert y == [x[0] + Fraction(1, 10), x[1]]
    assert bv._exact_pair({**structure, "u": [0.6, -0.8]}) is None
    assert bv._exact_pair({**structure, "scale": -0.5}) is None
    x, y = map(fractions, bv._exact_pair({**structure, "u": [0.0, -0.3], "scale": 0.0}))
    assert y == [x[0], x[1] - 1]
    point = {"eta": 0.01, "p": 0.8575201290525676, "structure": structure}
    with working_precision(30):
        measured = bv.gradient_map({**point, "eta": mpmath.mpf("0.01"), "p": mpmath.mpf(point["p"])})
    assert all(isinstance(m, BuiltExactly) for m in measured.values())
    # held by h ~ 1e-43 relative to δ² = 1e-2: below half the working digits, decided only because built exactly
    result = evaluate_point(bv.MODULI_OF_CONTINUITY[2], point)
    assert result.verdict == HOLDS and result.certified and result.construction == "exact"
