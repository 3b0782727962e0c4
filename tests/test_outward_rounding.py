"""Enclosure ends are rounded outward whatever their sign: mpmath's rounding "d" and "u" go towards and away from
zero, which moves a negative lower end up (inside the ball) — the bug these tests pin."""

import mpmath
from flint import arb
from hypothesis import given, settings
from hypothesis import strategies as st

from symdp.estimate import Estimate, mpf_down, mpf_nearest, mpf_of, mpf_up
from symdp.mechanisms import enclosure
from symdp.verify import _difference


def test_mpf_ends_are_outward_for_negative_balls():
    third = -arb(1) / 3                                    # -1/3 is not a binary number: both ends are inexact
    with mpmath.workprec(20):
        low, high = mpf_down(third.lower()), mpf_up(third.upper())
    assert low < mpmath.mpf(-1) / 3 < high


def test_accountant_ends_are_outward_for_negative_estimates():
    with mpmath.workprec(20):
        m = Estimate(mpmath.mpf(-1) / 3, mpmath.mpf(2) ** -40, certified=True)
        low, high = enclosure(m)
    exact_low = mpmath.fsub(m.value, m.error, exact=True)
    exact_high = mpmath.fadd(m.value, m.error, exact=True)
    assert low <= exact_low and high >= exact_high


def test_verify_difference_interval_is_outward_when_negative():
    """bound - quantity at 20 bits with both ends negative: the interval must contain the exact difference."""
    class Side:
        def __init__(self, low, high):
            self.floored = (mpmath.mpf(low), mpmath.mpf(high))

    with mpmath.workprec(60):
        q = Side(mpmath.mpf(1) / 3, mpmath.mpf(1) / 3 + mpmath.mpf(2) ** -50)
        b = Side(mpmath.mpf(1) / 7, mpmath.mpf(1) / 7)
    exact = mpmath.fsub(b.floored[0], q.floored[1], exact=True), mpmath.fsub(b.floored[1], q.floored[0], exact=True)
    with mpmath.workprec(20):
        low, high = _difference("<=", q, b)
    assert low <= exact[0] and high >= exact[1]


@given(st.floats(-1e10, 1e10), st.integers(1, 60), st.integers(-3000, 3000), st.sampled_from([5, 53, 166, 400]))
@settings(max_examples=100)
def test_a_midpoint_is_rounded_once_to_the_nearest(x, power, shift, prec):
    # mpf_nearest is +mpf_of without the exact copy: the same bits at every working precision
    mid = (arb(x) ** power * arb(2) ** shift / 3).mid()
    with mpmath.workprec(prec):
        assert mpf_nearest(mid)._mpf_ == (+mpf_of(mid))._mpf_


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2 ** 200), st.integers(-300, 300), st.sampled_from([10, 20, 53, 100]))
def test_an_estimate_of_a_ball_encloses_its_midpoint_at_any_precision(mantissa, exponent, bits):
    """Estimate.from_arb rounds the midpoint to the working precision and adds the rounding to the radius: the
    rounding, not a rounded copy of it (rounded to nearest it may fall short, and an exact ball whose midpoint has
    more bits than the working precision then no longer holds its own midpoint)."""
    ball = arb(mantissa) * arb(2) ** exponent    # exact (radius 0), up to 200 bits
    with mpmath.workprec(bits):
        e = Estimate.from_arb(ball, "exact")
    low, high = mpmath.fsub(e.value, e.error, exact=True), mpmath.fadd(e.value, e.error, exact=True)
    assert low <= mpf_of(ball.mid()) <= high
