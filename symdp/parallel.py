"""Parallel runs: verify catalogue theorems in this process, in a pool of processes, or on a Dask cluster.

:func:`run` takes theorem IDs, not theorem objects: a worker (another process, another machine) re-imports the
catalogue and finds each theorem by its ID, so nothing but an ID, a seed and a few numbers crosses the wire. Each
theorem is seeded on its own, so its report does not depend on which process ran it, or when: serial, pool and
Dask runs reach the same verdicts on the same draws with the same worst margins (only ``seconds`` differs).

An expensive theorem's draws can be spread too (``draws_per_chunk``): its ``examples`` draws are split into
chunks of at most that many, chunk ``k`` searched by hypothesis with the fixed seed :func:`chunk_seed` ``(seed,
k)``, and the chunks' reports merged (:func:`merge_chunks`). The union depends only on the seed, the number of
draws and the chunk size, never on the backend or the order in which chunks finish. It is a different sample from
an unchunked run with the same seed (hypothesis does not draw a prefix of a longer run), but just as deterministic.

Hypothesis would mix numeric constants of the process's loaded *local* modules into its draws; symdp's searches run
without them (:func:`symdp.verify.detached_hypothesis`), so a worker draws what the parent process would, whatever
either has imported.

In a pool or on a cluster, the heavy theorems are submitted first, longest first (:func:`longest_first`), from the
seconds each catalogue theorem took in a recorded run (``symdp/theorems/seconds.json``, written by
``benchmarks/bench_catalogue.py --record-seconds``), and the rest in catalogue order: the slowest
(``dwork.obs.group-not-tight.gaussian``, near the end) no longer runs alone at the end. Only the order changes, never a
report: each theorem is seeded on its own.

The Dask backend is an optional extra (``pip install "symdp[dask]"``, i.e. ``dask[distributed]``), imported only
when a ``scheduler`` is given. Every worker of the cluster needs symdp installed (the same version).

>>> reports = run(["dwork.def2.4", "dwork.claim3.11"], examples=3)
>>> [(r.id, r.verdict) for r in reports]
[('dwork.def2.4', 'violated'), ('dwork.claim3.11', 'holds')]
"""

from __future__ import annotations

import hashlib
import json
import threading
from functools import lru_cache
from importlib import resources
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

from symdp.errors import SymdpError
from symdp.precision import DEFAULT_DPS, closed_forms
from symdp.verify import INCONCLUSIVE, VIOLATED, Report, default_draws, jsonable, summarize, verify

DASK_EXTRA = 'pip install "symdp[dask]"  (or: pip install "dask[distributed]")'
"""How to install the optional Dask backend, as the error for a missing ``distributed`` says."""


@dataclass(frozen=True)
class Chunk:
    """One unit of work: ``examples`` hypothesis draws of one theorem, seeded with ``seed``.

    ``pinned`` says whether the chunk also evaluates the theorem's pinned instances (tight points, examples, the
    erratum's counterexample): only the first chunk of a theorem does, so that they are evaluated once.
    """

    theorem_id: str
    index: int
    examples: Optional[int]
    seed: int
    pinned: bool
    dps: int
    use_closed_forms: bool
    module: Optional[str] = None
    """The user's module the theorem is declared in (a path or dotted name), or None for the catalogue."""


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run seeded with ``seed``: the seed itself for the first chunk (so one
    chunk is exactly the unchunked run), a hash of both for the others (so chunks draw different samples).

    >>> chunk_seed(7, 0)
    7
    >>> chunk_seed(7, 1) == chunk_seed(7, 1) != chunk_seed(7, 2)
    True
    """
    if index == 0:
        return seed
    digest = hashlib.sha256(f"symdp chunk {seed} {index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def chunk_sizes(examples: int, draws_per_chunk: Optional[int]) -> list[int]:
    """``examples`` draws split into the fewest chunks of at most ``draws_per_chunk``, as equal as possible.

    >>> chunk_sizes(100, 30)
    [25, 25, 25, 25]
    >>> chunk_sizes(10, 4)
    [4, 3, 3]
    >>> chunk_sizes(10, None)
    [10]
    """
    if draws_per_chunk is None or examples <= draws_per_chunk:
        return [examples]
    count = -(-examples // draws_per_chunk)  # ceiling division
    small, extra = divmod(examples, count)
    return [small + 1] * extra + [small] * (count - extra)


def plan(theorem_id: str, *, examples: Optional[int] = None, dps: int = DEFAULT_DPS, seed: int = 0,
         use_closed_forms: bool = True, draws_per_chunk: Optional[int] = None,
         module: Optional[str] = None) -> list[Chunk]:
    """The chunks that verify one catalogue theorem: one, unless its draws are spread (``draws_per_chunk``).

    Identities, symbolic statements and theorems without free parameters are never split (they have no draws to
    spread). ``examples=None`` means the theorem's own default, as in :func:`symdp.verify.verify`.

    >>> [(c.index, c.examples, c.pinned) for c in plan("dwork.lem3.10", examples=50, draws_per_chunk=20)]
    [(0, 17, True), (1, 17, False), (2, 16, False)]
    """
    theorem = _theorem(theorem_id, module)
    free = bool(theorem.parameters) or theorem.structure is not None
    if not (theorem.numeric and free) or draws_per_chunk is None:
        return [Chunk(theorem_id, 0, examples, seed, True, dps, use_closed_forms, module)]
    total = examples if examples is not None else default_draws(theorem)
    return [Chunk(theorem_id, k, size, chunk_seed(seed, k), k == 0, dps, use_closed_forms, module)
            for k, size in enumerate(chunk_sizes(total, draws_per_chunk))]


# mpmath's precision and hypothesis's engine are process-wide state: a Dask worker with several threads must not run
# two chunks at once in one process. Verification is pure Python (the GIL serialises it anyway), so nothing is lost.
_ONE_AT_A_TIME = threading.Lock()


def verify_chunk(chunk: Chunk) -> Report:
    """Verify one chunk in this process, finding its theorem by ID in the catalogue or the chunk's module (what every
    worker runs)."""
    theorem = _theorem(chunk.theorem_id, chunk.module)
    if not chunk.pinned:
        theorem = replace(theorem, tight_at=(), examples=(), erratum=None)
    with _ONE_AT_A_TIME, closed_forms(chunk.use_closed_forms):
        return verify(theorem, examples=chunk.examples, dps=chunk.dps, seed=chunk.seed)


def merge_chunks(reports: Sequence[Report]) -> Report:
    """One theorem's report from the reports of its chunks, given in chunk order.

    The draws are concatenated in chunk order, a draw already seen in an earlier chunk dropped (hypothesis starts
    every seed with the same simplest values); a violation makes the whole violated, with the counterexample of the
    first chunk that found one; ``seconds`` is the sum of the chunks' (the work done, not the wall time).
    One report is returned as it is.
    """
    if len(reports) == 1:
        return reports[0]
    first = reports[0]
    seen: set[str] = set()
    draws = []
    for report in reports:
        fresh = [d for d in report.draws if _key(d.point) not in seen]
        seen.update(_key(d.point) for d in report.draws)
        draws.extend(fresh)
    violated = [r for r in reports if r.verdict == VIOLATED]
    counterexample = violated[0].worst if violated else None
    # A chunk that did not end inconclusive has a reason only when hypothesis could not draw; an inconclusive
    # chunk's reason describes its own draws, and the merged report describes the union afresh.
    reason = next((r.reason for r in reports if r.reason and r.verdict != INCONCLUSIVE), "")
    merged = summarize(first.id, draws, counterexample, first.dps, sum(r.seconds for r in reports), reason)
    evidences = {r.evidence for r in reports}
    merged.evidence = "closed-form" if "closed-form" in evidences else first.evidence
    merged.domain_limits = first.domain_limits
    return merged


def run(
    theorem_ids: Iterable[str],
    *,
    examples: Optional[int] = None,
    dps: int = DEFAULT_DPS,
    seed: int = 0,
    use_closed_forms: bool = True,
    jobs: int = 1,
    scheduler: Any = None,
    on_report: Optional[Callable[[Report], None]] = None,
    draws_per_chunk: Optional[int] = None,
    module: Optional[str] = None,
) -> list[Report]:
    """Verify theorems by ID — of the catalogue, or of a user's ``module`` (a file path or dotted name every worker
    can import, see :func:`symdp.plugin.load_module`) — and return their reports in the order of ``theorem_ids``.

    Where: in this process (``jobs=1``), in a pool of ``jobs`` processes, or on a Dask cluster when ``scheduler``
    is given (an address such as ``"tcp://10.0.0.1:8786"``, or a ``distributed.Client``; ``jobs`` is then
    ignored, the cluster decides). The reports are the same whichever is used. ``on_report(report)`` is called in
    this process as each theorem's report is complete (in completion order: for a progress bar).
    ``draws_per_chunk`` spreads each theorem's draws over chunks of at most that many (see the module's note).

    An ID given twice is verified once. An unknown ID, ``jobs < 1`` or a bad ``draws_per_chunk`` is an error naming
    it, raised before any work starts.
    """
    if isinstance(theorem_ids, str):
        raise SymdpError(f"theorem_ids must be a list of IDs, got the string {theorem_ids!r}")
    ids = list(theorem_ids)
    if not isinstance(jobs, int) or jobs < 1:
        raise SymdpError(f"jobs must be an integer >= 1, got {jobs!r}")
    if draws_per_chunk is not None and (not isinstance(draws_per_chunk, int) or draws_per_chunk < 1):
        raise SymdpError(f"draws_per_chunk must be an integer >= 1, got {draws_per_chunk!r}")
    if examples is not None and examples < 0:
        raise SymdpError(f"examples must be >= 0, got {examples}")
    unique = list(dict.fromkeys(ids))
    chunks = {ident: plan(ident, examples=examples, dps=dps, seed=seed, use_closed_forms=use_closed_forms,
                          draws_per_chunk=draws_per_chunk, module=module) for ident in unique}
    work = [chunk for ident in unique for chunk in chunks[ident]]
    if scheduler is not None:
        finished = _on_dask(longest_first(work), scheduler)
    elif jobs == 1 or len(work) == 1:
        finished = ((chunk, verify_chunk(chunk)) for chunk in work)
    else:
        finished = _in_pool(longest_first(work), jobs)

    done: dict[str, dict[int, Report]] = {ident: {} for ident in unique}
    reports: dict[str, Report] = {}
    for chunk, report in finished:
        done[chunk.theorem_id][chunk.index] = report
        if len(done[chunk.theorem_id]) == len(chunks[chunk.theorem_id]):
            parts = done[chunk.theorem_id]
            reports[chunk.theorem_id] = merge_chunks([parts[k] for k in sorted(parts)])
            if on_report is not None:
                on_report(reports[chunk.theorem_id])
    return [reports[ident] for ident in ids]


SECONDS = "seconds.json"
"""The file of ``symdp.theorems`` that holds each catalogue theorem's seconds in a recorded run."""


@lru_cache(maxsize=1)
def recorded_seconds() -> dict[str, float]:
    """Each catalogue theorem's seconds in the recorded run (empty where the file is missing or unreadable: the order
    is then the given one)."""
    try:
        text = resources.files("symdp.theorems").joinpath(SECONDS).read_text()
        return {str(k): float(v) for k, v in json.loads(text).items()}
    except (OSError, ValueError, AttributeError):
        return {}


HEAVY_SECONDS = 5.0
"""A theorem whose recorded run took at least this long is started first (longest first); the rest keep the
catalogue's order."""


def longest_first(work: list[Chunk]) -> list[Chunk]:
    """``work`` with its heavy theorems first, longest first, and the rest in the given order: heavy, a catalogue
    theorem whose recorded seconds (shared among its chunks) are at least :data:`HEAVY_SECONDS`; a theorem without a
    record (a user's module, a new theorem) is not heavy.

    Why not all of it longest first (Graham's LPT rule): only the heavy tail needs moving, the slowest theorem
    (``dwork.obs.group-not-tight.gaussian``, near the catalogue's end) otherwise running alone at the end. Simulated
    on three runs' per-theorem seconds, this order's 2-worker makespan is within 0.6 s of a perfect packing's; all of
    it in LPT order costs no more CPU (measured serially beside the catalogue's order, benchmarks/README.md), but
    gains nothing either.

    >>> work = [Chunk(i, 0, None, 0, True, 50, True) for i in ("dwork.def2.4", "dwork.obs.group-not-tight.gaussian")]
    >>> [c.theorem_id for c in longest_first(work)]
    ['dwork.obs.group-not-tight.gaussian', 'dwork.def2.4']
    """
    seconds = recorded_seconds()
    parts: dict[tuple, int] = {}
    for chunk in work:
        parts[chunk.module, chunk.theorem_id] = parts.get((chunk.module, chunk.theorem_id), 0) + 1

    def expected(chunk: Chunk) -> float:
        known = seconds.get(chunk.theorem_id) if chunk.module is None else None
        return 0.0 if known is None else known / parts[chunk.module, chunk.theorem_id]

    heavy = sorted((c for c in work if expected(c) >= HEAVY_SECONDS), key=expected, reverse=True)
    return heavy + [c for c in work if expected(c) < HEAVY_SECONDS]


def _in_pool(work: list[Chunk], jobs: int) -> Iterator[tuple[Chunk, Report]]:
    """Chunks run by a pool of ``jobs`` processes, yielded as they finish."""
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=min(jobs, len(work))) as pool:
        futures = {pool.submit(verify_chunk, chunk): chunk for chunk in work}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:
                future.cancel()  # a failure (or an abandoned generator) stops what has not started


def _on_dask(work: list[Chunk], scheduler: Any) -> Iterator[tuple[Chunk, Report]]:
    """Chunks run on a Dask cluster, yielded as they finish."""
    distributed = _import_distributed()
    client, owned = _client(distributed, scheduler)
    try:
        # pure=False: a chunk is cheap to describe but its result must not be shared with another run's by key.
        futures = {client.submit(verify_chunk, chunk, pure=False): chunk for chunk in work}
        try:
            for future in distributed.as_completed(list(futures)):
                yield futures[future], future.result()
        finally:
            client.cancel(list(futures))
    finally:
        if owned:
            client.close()


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise SymdpError(f"running on a Dask cluster needs the optional extra dask: {DASK_EXTRA}") from None
    return distributed


def _client(distributed, scheduler):
    """A client for ``scheduler`` and whether this run owns it (and must close it)."""
    if isinstance(scheduler, distributed.Client):
        return scheduler, False
    if not isinstance(scheduler, str):
        raise SymdpError(f"scheduler must be an address such as 'tcp://host:8786' or a distributed.Client, "
                         f"got {type(scheduler).__name__}")
    try:
        return distributed.Client(scheduler), True
    except (OSError, TimeoutError, ValueError) as exc:
        raise SymdpError(f"cannot reach the Dask scheduler at {scheduler!r}: {exc}") from None


def _theorem(ident: str, module: Optional[str] = None):
    from symdp.plugin import load_module, module_theorems
    from symdp.theorems import get

    if not isinstance(ident, str):
        raise SymdpError(f"theorem IDs are strings, got {ident!r}")
    if module is None:
        return get(ident)
    found = [t for t in module_theorems(load_module(module)) if t.id == ident]
    if not found:
        raise SymdpError(f"{module} declares no theorem {ident!r}")
    return found[-1]


def _key(point) -> str:
    """A draw's parameters as a canonical string, to recognise the same draw in two chunks."""
    return json.dumps(jsonable(point), sort_keys=True)
