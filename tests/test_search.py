"""The search for the worst case (:mod:`symdp.search`): a bound false only in a small region, which random draws
miss, is refuted by the default search; every point the refinement evaluates is a draw; the report says where the
bound is tightest and how the point was found."""

import math

import mpmath
import pytest
import sympy as sp

from symdp.search import FOUND, axes, closeness, refine
from symdp.theorem import INDEPENDENT, Param, Source, Theorem
from symdp.verify import HOLDS, VIOLATED, verify

x, y = sp.Symbol("x", real=True), sp.Symbol("y", real=True)
n = sp.Symbol("n", integer=True, positive=True)
F = sp.Symbol("F")
SRC = Source("none", "toy")
PEAK = (0.6180339887, 0.2718281828)


def _bump(point):
    """A quantity that comes within 1e-3 of its bound 1 only in a disc of radius 0.01 around PEAK: random draws in
    the unit square land there about 3 times in 1000."""
    d2 = (mpmath.mpf(point["x"]) - PEAK[0]) ** 2 + (mpmath.mpf(point["y"]) - PEAK[1]) ** 2
    return 1 - 10 * d2


NARROW = Theorem("toy.narrow", r"a bump of height 1 at one point of the unit square", SRC, sp.Le(F, 1),
                 witness=_bump, parameters=(Param(x, sp.Interval(0, 1)), Param(y, sp.Interval(0, 1))),
                 evidence=INDEPENDENT)


def test_a_bound_false_only_near_its_worst_case_is_refuted_by_the_default_search():
    # The tightened copy asks F <= 0.999: false only within 0.01 of PEAK (10 d^2 < 1e-3), true at almost every draw.
    report = verify(NARROW.tightened(0.999), seed=0)
    assert report.verdict == VIOLATED
    assert _bump(report.counterexample) > 0.999
    # the true statement holds, and its closest draw lies at the peak to within the refinement's tolerance
    true = verify(NARROW, seed=0)
    assert true.verdict == HOLDS
    assert true.closest.ratio > 0.9999 and true.closest.found in ("targeted", "refined")


def test_random_draws_alone_miss_the_region():
    # the control: with the steering and the refinement left out (the points hypothesis drew at random), the
    # closest of its random draws stays below the mutant's 0.999 (at 100 of them, more than a default run makes)
    report = verify(NARROW, examples=100, seed=0)
    drawn = [r.ratio for r in report.draws if r.found == "random" and r.ratio is not None]
    assert len(drawn) >= 20 and max(drawn) < 0.999


def test_every_refined_point_is_a_draw_with_its_verdict_and_the_budget_is_kept():
    report = verify(NARROW, examples=40, seed=3)
    stages = report.found
    assert set(stages) <= set(FOUND) and stages.get("refined", 0) >= 1
    drawn = stages.get("random", 0) + stages.get("targeted", 0)
    # max(4, 40 // 4), and as many more as the draws hypothesis repeated (a point is measured once)
    assert stages["refined"] <= 10 + (40 - drawn)
    assert report.examples == sum(stages.values()) == len(report.draws)
    assert all(r.verdict == HOLDS for r in report.draws if r.found == "refined")


def test_every_draw_is_a_distinct_point_and_the_default_run_checks_a_hundred():
    # hypothesis draws some points twice (its hill climbing reaches a value from other choices): measured once
    for report in (verify(NARROW, seed=0), verify(NARROW, examples=30, seed=1)):
        points = [tuple(sorted(r.point.items())) for r in report.draws]
        assert len(set(points)) == len(points)
    assert len(verify(NARROW, seed=0).draws) >= 100
    # a domain of 3 x 3 integers: every point, none twice, and the run stops when it is drawn out
    m = sp.Symbol("m", integer=True, positive=True)
    small = Theorem("toy.small", "nine points", SRC, sp.Le(F, 6),
                    parameters=(Param(n, sp.Range(1, 4)), Param(m, sp.Range(1, 4))),
                    witness=lambda p: mpmath.mpf(p["n"] + p["m"]), evidence=INDEPENDENT)
    report = verify(small, seed=0)
    assert sorted((r.point["n"], r.point["m"]) for r in report.draws) == [(i, j) for i in (1, 2, 3) for j in (1, 2, 3)]


LOG = Param(x, sp.Interval.open(0, sp.oo), sample=(1e-6, 1e3), log=True)


def test_a_log_scale_parameter_reaches_both_ends_and_says_what_it_leaves_out():
    # F = x/(x + 1e-5) <= 1: tightest as x grows, loosest as x -> 0; the draws reach both decades' ends
    theorem = Theorem("toy.log", "a ratio over nine decades", SRC, sp.Le(F, 1), parameters=(LOG,),
                      witness=lambda p: mpmath.mpf(p["x"]) / (mpmath.mpf(p["x"]) + mpmath.mpf("1e-5")),
                      evidence=INDEPENDENT)
    report = verify(theorem, seed=0)
    xs = [r.point["x"] for r in report.draws]
    assert min(xs) < 1e-5 and max(xs) > 100
    assert theorem.domain_limits() == ("x drawn in [1e-06, 1000] of Interval.open(0, oo)",)
    assert report.to_json()["domain_limits"] == list(theorem.domain_limits())


def test_a_log_scale_range_must_be_positive():
    with pytest.raises(Exception, match="log-scale range needs 0 < low < high"):
        Param(x, sp.Interval(-1, 1), sample=(-1, 1), log=True)


def test_integer_parameters_are_refined_on_their_neighbours():
    # F = 1 - (n - 7777)^2 / 1e8 <= 1 over n in [1, 10^5]: the refinement steps on integers around the closest draw
    theorem = Theorem("toy.integer", "an integer peak", SRC, sp.Le(F, 1),
                      parameters=(Param(n, sp.Range(1, 10**5 + 1), log=True),),
                      witness=lambda p: 1 - mpmath.mpf(p["n"] - 7777) ** 2 / 10**8, evidence=INDEPENDENT)
    report = verify(theorem, seed=1)
    assert all(isinstance(r.point["n"], int) for r in report.draws)
    assert abs(report.closest.point["n"] - 7777) < 300


def test_closeness_is_scale_free_and_signed():
    assert closeness("<=", mpmath.mpf(0), 5, 5) == 0
    assert closeness("<=", mpmath.mpf(-1), 3, 2) == pytest.approx(1 / 3)        # violated: positive
    assert closeness("<=", mpmath.mpf("1e-80"), mpmath.mpf("1e-80"), mpmath.mpf("2e-80")) == -0.5
    assert closeness("<=", mpmath.inf, 0, mpmath.inf) is None


def test_refine_moves_only_scalar_parameters_and_respects_its_budget():
    calls = []

    def evaluate(raw):
        calls.append(raw)
        return -abs(raw["x"] - 0.25)

    params = (Param(x, sp.Interval(0, 1)),)
    spent = refine(params, [({"x": 0.9, "structure": {"kept": 1}}, -0.65)], evaluate, budget=30)
    assert spent == len(calls) <= 30
    assert all(c["structure"] == {"kept": 1} for c in calls)
    assert min(abs(c["x"] - 0.25) for c in calls) < 1e-3
    assert refine(params, [({"x": 0.9}, -0.65)], evaluate, budget=0) == 0


def test_axes_are_logarithmic_for_ranges_over_two_decades():
    (a,) = axes([Param(x, sp.Interval.open(0, sp.oo), sample=(0.01, 100))])
    assert a.log and a.value(0.5) == pytest.approx(1) and a.coordinate(1) == pytest.approx(0.5)
    (b,) = axes([Param(x, sp.Interval(0, 1))])
    assert not b.log and math.isclose(b.value(0.25), 0.25)


B = sp.Symbol("B")


def test_evidence_is_read_from_both_sides():
    # An "independent" theorem whose bound side rests on a closed form of a divergence is a formula compared with a
    # measurement, not an independent check: the report says closed-form, whichever side the formula is on.
    from symdp.estimate import Estimate, Method

    def witness(point):
        value = mpmath.mpf(point["x"])
        return {F: Estimate(value, mpmath.mpf(0), Method.EXACT),
                B: Estimate(2 * value, mpmath.mpf(0), Method.CLOSED_FORM)}

    on_the_bound = Theorem("toy.bound-side", "a bound measured by a closed form", SRC, sp.Le(F, B),
                           witness=witness, parameters=(Param(x, sp.Interval(1, 2)),), evidence=INDEPENDENT)
    report = verify(on_the_bound, examples=5)
    assert report.verdict == HOLDS and report.evidence == "closed-form"
    on_neither = Theorem("toy.neither", "both sides exact", SRC, sp.Le(F, 2 * x), witness=lambda p: p["x"],
                         parameters=(Param(x, sp.Interval(1, 2)),), evidence=INDEPENDENT)
    assert verify(on_neither, examples=5).evidence == INDEPENDENT


def test_the_looseness_table_reads_a_saved_run(tmp_path, capsys):
    import json

    from symdp.cli import main

    saved = tmp_path / "verify.json"
    saved.write_text(json.dumps([verify(NARROW, examples=30).to_json()]))
    assert main(["looseness", "--from", str(saved)]) == 0
    out = capsys.readouterr().out
    assert "toy.narrow" in out and "closeness" in out
    assert main(["looseness", "--from", str(saved), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["id"] == "toy.narrow" and row["found"] in FOUND and 0.99 < row["ratio"] <= 1
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["looseness", "--from", str(bad)]) == 2
    assert "not the output of `symdp verify --json`" in capsys.readouterr().err


# --- numbers inside a drawn structure ----------------------------------------------------------------------------

def _weights():
    from hypothesis import strategies as st

    # the filter is the setting's hypothesis: the walk must never leave it
    return st.fixed_dictionaries({"w": st.lists(st.floats(0, 1), min_size=2, max_size=2)}).filter(
        lambda s: sum(s["w"]) <= 1.2)


def _structure_bump(point):
    w = point["structure"]["w"]
    assert sum(w) <= 1.2, f"a structure outside the setting was evaluated: {w}"
    return _bump({"x": w[0], "y": w[1]})


def _structured(name):
    from symdp.theorem import Setting

    return Theorem(name, "a bump of height 1 at one point of a drawn pair of weights", SRC, sp.Le(F, 1),
                   witness=_structure_bump, setting=Setting("$w \\in [0, 1]^2$, $w_1 + w_2 \\le 1.2$",
                                                            strategy=_weights), evidence=INDEPENDENT)


INSIDE = _structured("toy.inside")


def test_a_bound_false_only_inside_a_drawn_structure_is_refuted_by_the_walk(monkeypatch):
    report = verify(INSIDE.tightened(0.998), seed=0)
    assert report.verdict == VIOLATED and report.counterexample is not None
    w = report.counterexample["structure"]["w"]
    assert _bump({"x": w[0], "y": w[1]}) > 0.998 and sum(w) <= 1.2
    # the control: without the walk, the draws (random and steered) stay short of the mutant
    import sys

    monkeypatch.setattr(sys.modules["symdp.verify"], "walk", lambda *args, **kwargs: 0)   # (the module, not symdp.verify())
    assert verify(INSIDE.tightened(0.998), seed=0).verdict == HOLDS


def test_the_walk_moves_only_through_the_strategy_and_keeps_its_budget():
    report = verify(INSIDE, examples=40, seed=5)   # the witness asserts the setting's filter at every point
    assert report.verdict == HOLDS
    walked = [r for r in report.draws if r.found == "refined"]
    drawn = sum(r.found in ("random", "targeted") for r in report.draws)
    # max(4, 40 // 4), and as many more as the draws hypothesis repeated; no scalar to refine
    assert 1 <= len(walked) <= 10 + (40 - drawn)
    assert all(sum(r.point["structure"]["w"]) <= 1.2 for r in walked)


def test_a_domain_of_integers_is_drawn_out_from_the_closest_point_to_a_hundred_points():
    # bertazzi.eq31: s <= m <= 16, 136 admissible pairs; hypothesis under the next seeds stops finding new ones (it
    # stopped at 87 points), the lattice of the ranges does not
    from symdp.theorems import get

    report = verify(get("bertazzi.eq31"), seed=0)
    points = [(r.point["s"], r.point["m"]) for r in report.draws]
    assert len(set(points)) == len(points) >= 100
    assert all(1 <= s_ <= m_ <= 16 for s_, m_ in points)


def test_the_lattice_lists_every_point_nearest_first_and_declines_reals_and_large_domains():
    from symdp.search import MAX_LATTICE, lattice

    k, j = sp.Symbol("k", integer=True), sp.Symbol("j", integer=True)
    small = (Param(k, sp.Range(1, 6)), Param(j, sp.Range(0, 4)))
    points = lattice(small, {"k": 5, "j": 0})
    assert len(points) == 5 * 4 and len({(p["k"], p["j"]) for p in points}) == 20
    assert points[0] == {"k": 5, "j": 0} and points[-1] == {"k": 1, "j": 3}   # the far corner last
    assert lattice((Param(k, sp.Range(1, 6)), Param(sp.Symbol("x"), sp.Interval(0, 1))), {"k": 1, "x": 0.5}) is None
    wide = Param(k, sp.Range(1, MAX_LATTICE + 2))
    assert lattice((wide,), {"k": 1}) is None
