"""Split against unsplit quadrature at 50 digits: time per call and digits that agree with a reference (not a test).

    python benchmarks/bench_quadrature.py

For each integrand: ``mpmath.quad`` over ``[-inf, inf]`` in one piece; the same split at the breakpoints that
symdp.engine.quadrature finds (kinks, crossing points, peaks: one run); and the full certified estimate (two runs, see
symdp.engine.quadrature), with the error it reports. References are closed forms (symdp.engine.closed_forms) or, for the
sampled Gaussian mechanism, the binomial expansion of Mironov, Talwar & Zhang (2019), for Lap2 eq. (6) of Balle
et al. (2019) integrated at 90 digits with hand-placed breakpoints (it matches catalogue-balle.md, balle19.ex2,
0.214903840704, to the catalogue's 12 digits).
"""

import sys
import time
from pathlib import Path

import mpmath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from symdp.engine import closed_forms as cf
from symdp.engine import quadrature as qd
from symdp.engine.continuous import Gaussian, Lap2, Laplace, Mixture


def timed(fn, repeat):
    fn()   # warm mpmath's node cache: every later call at this precision reuses it
    start = time.perf_counter()
    for _ in range(repeat):
        value = fn()
    return value, (time.perf_counter() - start) / repeat * 1e3


def digits(value, reference):
    err = abs(value - reference) / max(abs(reference), 1)
    return 50.0 if err == 0 else float(min(50, -mpmath.log10(err)))


def sampled_gaussian(q, sigma, alpha):
    return mpmath.log(mpmath.fsum(mpmath.binomial(alpha, k) * (1 - q) ** (alpha - k) * q**k
                                  * mpmath.exp((k * k - k) / (2 * sigma**2)) for k in range(alpha + 1))) / (alpha - 1)


def lap2_renyi_reference(delta, lam1, lam2, alpha):
    with mpmath.workdps(90):
        d, l1, l2, a = (mpmath.mpf(v) for v in (delta, lam1, lam2, alpha))

        def density(x):   # eq. (6), lambda1 != lambda2 branch, compact form
            return (l1 * mpmath.exp(-abs(x) / l1) - l2 * mpmath.exp(-abs(x) / l2)) / (2 * (l1**2 - l2**2))

        ladder = [k * max(l1, l2) for k in (1, 2, 5, 10, 20, 40, 80, 160)]
        points = sorted({mpmath.mpf(0), d} | {-x for x in ladder} | {d + x for x in ladder})
        def integrand(x):
            return density(x - d) ** a * density(x) ** (1 - a)

        return mpmath.log(mpmath.quad(integrand, [-mpmath.inf] + points + [mpmath.inf])) / (a - 1)


def renyi_case(label, P, Q, alpha, reference, repeat=3):
    a = mpmath.mpf(alpha)

    def integrand(x):
        return mpmath.exp(a * P.logpdf(x) + (1 - a) * Q.logpdf(x))

    def unsplit():
        return mpmath.log(mpmath.quad(integrand, [-mpmath.inf, mpmath.inf])) / (a - 1)

    def split():
        return qd._renyi_quadrature(qd.canonical(P), qd.canonical(Q), a, False)[0]

    def certified():
        return qd.renyi(P, Q, a, method="quadrature")

    v1, t1 = timed(unsplit, repeat)
    v2, t2 = timed(split, repeat)
    est, t3 = timed(certified, 1)
    print(f"{label:44s} {t1:9.1f} {digits(v1, reference):7.1f} {t2:9.1f} {digits(v2, reference):7.1f} "
          f"{t3:9.1f} {mpmath.nstr(est.error, 2):>9s}")


def main():
    with mpmath.workdps(50):
        print(f"{'Renyi integrand (50 digits)':44s} {'unsplit':>9s} {'digits':>7s} {'split':>9s} {'digits':>7s} "
              f"{'certified':>9s} {'error':>9s}")
        print(f"{'':44s} {'ms':>9s} {'':>7s} {'ms':>9s} {'':>7s} {'ms':>9s}")
        renyi_case("Laplace(1,1) || Laplace(0,1), a=2 (kinked)", Laplace(1, 1), Laplace(0, 1), 2,
                   cf.laplace_renyi(1, 1, 2))
        renyi_case("Laplace(.3,.7) || Laplace(0,.7), a=5.5", Laplace("0.3", "0.7"), Laplace(0, "0.7"), "5.5",
                   cf.laplace_renyi("0.3", "0.7", "5.5"))
        renyi_case("Gaussian, a=3 (smooth control)", Gaussian(0, 1), Gaussian(1, 1), 3, mpmath.mpf("1.5"))
        renyi_case("Gaussian, a=300 (peak at -299)", Gaussian(0, 1), Gaussian(1, 1), 300, mpmath.mpf(150))
        q, s = mpmath.mpf("0.1"), mpmath.mpf(1)
        renyi_case("sampled Gaussian q=.1, a=200 (peaked)", Mixture(q, Gaussian(0, s), Gaussian(1, s)),
                   Gaussian(0, s), 200, sampled_gaussian(q, s, 200))
        renyi_case("Lap2(1;1,2) || Lap2(0;1,2), a=4", Lap2(1, 1, 2), Lap2(0, 1, 2), 4,
                   lap2_renyi_reference(1, 1, 2, 4), repeat=1)


if __name__ == "__main__":
    main()
