"""symdp.parallel: the same reports in this process, in a process pool and on a Dask cluster; chunked draws.

The reference for every backend is :func:`symdp.verify.verify` called directly on the catalogue's theorem with
the same seed: a backend may only move the work elsewhere, never change what is drawn or concluded.
"""

import sys
from dataclasses import replace

import pytest
import sympy as sp

from symdp import parallel
from symdp.errors import SymdpError, UnknownTheorem
from symdp.parallel import (HEAVY_SECONDS, Chunk, chunk_seed, longest_first, merge_chunks, plan, recorded_seconds,
                            run)
from symdp.precision import closed_forms
from symdp.theorem import Param
from symdp.theorems import all_theorems, get
from symdp.verify import HOLDS, VIOLATED, verify
from tests import toy_theorems as toy

# Cheap theorems of dwork: exact finite laws (two with drawn parameters, one of them a printed erratum refuted at
# its recorded counterexample), an identity proved by a derivation, and a closed-form algebraic claim.
CHEAP = ["dwork.lem3.10", "dwork.def2.4", "dwork.def2.4.corrected", "dwork.prop3.1.identity",
         "dwork.intro.misc.group-pure", "dwork.claim3.11"]
EXAMPLES = 6


def signature(report):
    """What must not depend on the backend: everything but the time taken."""
    return (report.id, report.verdict, report.evidence, report.examples, report.tight,
            [d.point for d in report.draws], [d.margin for d in report.draws], report.worst_margin,
            report.counterexample, report.reason)


@pytest.fixture(scope="module")
def direct():
    """The reports of verify() called in this process, one theorem at a time: the reference."""
    return [signature(verify(get(i), examples=EXAMPLES, seed=3)) for i in CHEAP]


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed: pip install symdp[dask]")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as c:
        yield c


def test_serial_run_is_verify_in_input_order_and_reports_each_theorem_once(direct):
    seen = []
    reports = run(CHEAP, examples=EXAMPLES, seed=3, on_report=seen.append)
    assert [r.id for r in reports] == CHEAP
    assert [signature(r) for r in reports] == direct
    assert sorted(r.id for r in seen) == sorted(CHEAP)
    assert {i: r.verdict for i, r in zip(CHEAP, reports)}["dwork.def2.4"] == VIOLATED  # the erratum stays refuted


def test_process_pool_gives_the_same_reports_as_verify(direct):
    seen = []
    reports = run(CHEAP, examples=EXAMPLES, seed=3, jobs=2, on_report=seen.append)
    assert [signature(r) for r in reports] == direct
    assert sorted(r.id for r in seen) == sorted(CHEAP)


@pytest.mark.slow   # ~40 s of starting a local cluster; the process pool (above) checks the same equivalence
def test_a_dask_cluster_gives_the_same_reports_as_verify(direct, cluster):
    import distributed

    seen = []
    with distributed.Client(cluster) as client:
        reports = run(CHEAP, examples=EXAMPLES, seed=3, scheduler=client, on_report=seen.append)
        again = run(CHEAP, examples=EXAMPLES, seed=3, scheduler=client)
        assert client.status == "running"  # a client we passed in is ours to close, not run()'s
    # Draw for draw, with each other and with this process, which has loaded the whole test suite: symdp's searches
    # do not use the constants hypothesis finds in loaded local modules.
    assert [signature(r) for r in reports] == [signature(r) for r in again] == direct
    assert sorted(r.id for r in seen) == sorted(CHEAP)


def test_chunks_are_the_union_of_fixed_seed_runs_whatever_the_backend(cluster):
    ident, examples, per_chunk = "dwork.lem3.10", 12, 5
    chunks = plan(ident, examples=examples, seed=3, draws_per_chunk=per_chunk)
    assert [c.examples for c in chunks] == [4, 4, 4]
    assert [c.seed for c in chunks] == [chunk_seed(3, k) for k in range(3)]
    # The reference: each chunk's seed run by verify() itself, pinned instances in the first chunk only.
    theorem = get(ident)
    parts = [verify(theorem if k == 0 else replace(theorem, tight_at=(), examples=(), erratum=None),
                    examples=4, seed=chunk_seed(3, k)) for k in range(3)]
    union = []
    for part in parts:
        union += [d.point for d in part.draws if d.point not in union]
    serial = run([ident], examples=examples, seed=3, draws_per_chunk=per_chunk)
    pooled = run([ident], examples=examples, seed=3, draws_per_chunk=per_chunk, jobs=2)
    dask = run([ident], examples=examples, seed=3, draws_per_chunk=per_chunk, scheduler=cluster.scheduler_address)
    assert [d.point for d in serial[0].draws] == union
    assert signature(serial[0]) == signature(pooled[0]) == signature(dask[0])
    assert serial[0].examples == len(union) and serial[0].verdict != VIOLATED  # a true lemma, in every chunk


def test_the_recorded_seconds_ship_with_the_package_and_put_the_heavy_theorems_first(monkeypatch):
    seconds = recorded_seconds()
    assert seconds, "symdp/theorems/seconds.json is missing from the installed package"
    assert set(seconds) <= {t.id for t in all_theorems()}
    light = sorted(seconds, key=seconds.get)[:3] + ["a.user.theorem"]       # three fast ones and an unrecorded one
    heavy = sorted(seconds, key=seconds.get)[-2:]                            # the two slowest, split in two chunks
    assert seconds[heavy[1]] >= HEAVY_SECONDS                                # the slowest is heavy as recorded
    # (how many recorded theorems pass the threshold depends on the machine that recorded them: the order is tested
    # with the threshold at the second slowest's half, so that both halves of both are heavy and the light ones not)
    monkeypatch.setattr(parallel, "HEAVY_SECONDS", seconds[heavy[0]] / 2)
    assert max(seconds[i] for i in light[:3]) < parallel.HEAVY_SECONDS
    work = [Chunk(i, 0, None, 0, True, 50, True) for i in light[:2]] + \
        [Chunk(i, k, 5, k, k == 0, 50, True) for i in heavy for k in range(2)] + \
        [Chunk(i, 0, None, 0, True, 50, True) for i in light[2:]]
    ordered = [c.theorem_id for c in longest_first(work)]
    assert ordered == [heavy[1], heavy[1], heavy[0], heavy[0]] + light      # heavy longest first, the rest in order


def test_one_chunk_is_the_unchunked_run():
    whole = run(["dwork.lem3.10"], examples=5, seed=1)
    one_chunk = run(["dwork.lem3.10"], examples=5, seed=1, draws_per_chunk=5)
    assert signature(whole[0]) == signature(one_chunk[0])


def test_identities_and_closed_form_switch_reach_the_workers():
    assert len(plan("dwork.prop3.1.identity", examples=50, draws_per_chunk=5)) == 1  # no draws to spread
    with closed_forms(False):
        expected = verify(get("dwork.claim3.11"), examples=3, seed=2)
    (report,) = run(["dwork.claim3.11"], examples=3, seed=2, use_closed_forms=False, jobs=2)
    assert signature(report) == signature(expected)


def test_a_violation_in_any_chunk_makes_the_merged_report_violated_with_its_counterexample():
    holding = replace(toy.FALSE_BOUND, parameters=(Param(toy.x, sp.Interval(0.5, 2), sample=(0.5, 2)),))
    first, second = verify(holding, examples=10), verify(toy.FALSE_BOUND, examples=50)
    assert (first.verdict, second.verdict) == (HOLDS, VIOLATED)
    merged = merge_chunks([first, second])
    assert merged.verdict == VIOLATED and merged.counterexample == second.counterexample
    x = merged.counterexample["x"]
    assert x + 1 / x > 3  # the counterexample really refutes x + 1/x <= 3
    # The draws of the first chunk, then those of the second that the first did not already draw.
    earlier = [d.point for d in first.draws]
    assert [d.point for d in merged.draws] == earlier + [d.point for d in second.draws if d.point not in earlier]
    assert merged.seconds == pytest.approx(first.seconds + second.seconds)


@pytest.mark.parametrize("kwargs, problem", [
    ({"jobs": 0}, "jobs must be an integer >= 1"),
    ({"draws_per_chunk": 0}, "draws_per_chunk must be an integer >= 1"),
    ({"examples": -1, "seed": 0}, "examples must be >= 0"),
    ({"scheduler": 8786}, "scheduler must be an address"),
])
def test_bad_arguments_are_errors_naming_the_problem(kwargs, problem):
    if "scheduler" in kwargs:
        pytest.importorskip("distributed")
    with pytest.raises(SymdpError, match=problem):
        run(["dwork.lem3.10"], **{"examples": 1, **kwargs})


def test_unknown_ids_and_a_bare_string_are_rejected_before_any_work():
    seen = []
    with pytest.raises(UnknownTheorem, match="no.such"):
        run(["dwork.lem3.10", "no.such"], on_report=seen.append)
    assert seen == []
    with pytest.raises(SymdpError, match="list of IDs"):
        run("dwork.lem3.10")


def test_without_the_dask_extra_the_error_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # makes `import distributed` raise ImportError
    with pytest.raises(SymdpError, match=r"symdp\[dask\]"):
        run(["dwork.lem3.10"], examples=1, scheduler="tcp://127.0.0.1:8786")


def test_an_unreachable_scheduler_is_an_error_naming_it():
    pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        with pytest.raises(SymdpError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"):
            run(["dwork.lem3.10"], examples=1, scheduler="tcp://127.0.0.1:9")


def test_a_papers_theorems_are_declared_without_the_other_papers():
    """Selecting or getting one paper's theorem imports that paper's module alone (``symdp verify balle19.thm2`` does
    not declare the other 270 theorems), and the catalogue is every paper's theorems in paper order."""
    import subprocess
    import sys

    from symdp.citations import PAPERS
    from symdp.theorems import catalogue, paper_theorems

    code = ("import sys; from symdp.theorems import get, select; select(['balle19.thm2']); get('balle19.def1.1'); "
            "print(sorted(m for m in sys.modules if m.count('.') == 2 and m.startswith('symdp.theorems.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['symdp.theorems.balle19']"
    assert [t.id for t in catalogue()] == [t.id for p in PAPERS for t in paper_theorems(p)]
    assert all(t.id.startswith(p + ".") for p in PAPERS for t in paper_theorems(p))
