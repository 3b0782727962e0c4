"""The symmetrised pair: one pair of laws whose privacy profile is max(δ_{P‖Q}, δ_{Q‖P}) over every ε ∈ ℝ.

Under a symmetric neighbouring relation (replace-one), a mechanism's one-step dominating pair may be known only for
ε ≥ 0 (P, Q), the reverse orientation following from the relation's symmetry: δ_M(ε) ≤ δ_{P‖Q}(ε) for ε ≥ 0, and
δ_M(ε) ≤ 1 − e^ε + e^ε δ_{P‖Q}(−ε) for ε < 0 (the identity D_{e^ε}(A‖B) = 1 − e^ε + e^ε D_{e^{−ε}}(B‖A) applied to
the neighbours swapped). Adaptive composition may alternate the orientation from step to step, so what composes is
one pair dominating the mechanism at every ε (dominating pairs compose: Zhu, Dong and Wang 2022, "Optimal
accounting of differential privacy via characteristic function", Sec. 3). It is the pair (P̃, Q̃) built here, with
L = log(dP/dQ) and A = {L > 0},

* P̃ = P restricted to A on a first copy of the space, Q restricted to A on a second copy, and an atom of mass
  c = 1 − P(A) − Q(A) ≥ 0 where P̃ and Q̃ agree;
* Q̃ = the same with P and Q exchanged (Q|_A on the first copy, P|_A on the second, the atom c).

Its loss is L on the first copy, −L on the second and 0 at the atom, so P̃ and Q̃ are mirror images, and
δ_{P̃‖Q̃}(ε) = δ_{P‖Q}(ε) for ε ≥ 0 (only the first copy has loss above ε ≥ 0), hence for ε < 0 the mirrored value
above: the profile of the pair is exactly the dominating one. It needs c ≥ 0, which the engine checks
(:func:`symdp.engine.accounting.loss`), and a loss without atoms (the sets {L > x} and {L ≥ x} then weigh the same).
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb, ctx

from symdp.errors import InvalidDistribution


@dataclass(frozen=True)
class SymmetrisedLaw:
    """One side of the symmetrised pair of (``P``, ``Q``) (the module's note): P̃ (``mirrored=False``) or Q̃
    (``mirrored=True``). Its privacy-loss distribution is computed (:mod:`symdp.engine.accounting`): δ(ε), ε(δ)
    and TV, alone or composed; and, for a pair of Gaussian sums, R_α and KL (:mod:`symdp.engine.accounted_renyi`).

    >>> from symdp.engine.continuous import Gaussian, Mixture
    >>> P, Q = symmetrised(Mixture(0.1, Gaussian(0, 1), Gaussian(2, 1)), Gaussian(0, 1))
    >>> P.mirrored, Q.mirrored, P.P == Q.P
    (False, True, True)
    """

    P: object
    Q: object
    mirrored: bool = False


def symmetrised(P, Q) -> tuple[SymmetrisedLaw, SymmetrisedLaw]:
    """The symmetrised pair (P̃, Q̃) of (``P``, ``Q``)."""
    return SymmetrisedLaw(P, Q, False), SymmetrisedLaw(P, Q, True)


def check_atom(c: arb) -> None:
    """That the atom c = 1 − P(L > 0) − Q(L > 0) of a symmetrised pair, a ball from its two masses, may be ≥ 0: an
    error where it is proved negative, or not ≥ 0 within rounding (2^(10 − prec)).

    >>> check_atom(arb(0.25)) is None
    True
    """
    if c.upper() < 0 or not c.lower() >= -(arb(2) ** (10 - ctx.prec)):
        raise InvalidDistribution("the symmetrised pair needs P(L > 0) + Q(L > 0) <= 1, which this pair does not "
                                  f"meet (1 - P(L > 0) - Q(L > 0) = {c.mid()})")
