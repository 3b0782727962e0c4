"""The catalogue: every encoded theorem, one module per source paper.

Each module (``dwork``, ``bravo``, ``balle19``) defines its theorems as module-level constants named after the
paper's own numbers and lists them in ``THEOREMS``. IDs name the paper and its own number
(``dwork.lem3.8``).
"""

from __future__ import annotations

import importlib
from functools import lru_cache

from symdp.citations import PAPERS
from symdp.errors import UnknownTheorem
from symdp.theorem import Theorem


def all_theorems() -> tuple[Theorem, ...]:
    """Every theorem of the catalogue, in paper order; IDs are unique."""
    return catalogue()


_CATALOGUE_DOOR = all_theorems
"""The catalogue's own :func:`all_theorems` (tests and tools may replace the module's name with their own list)."""


@lru_cache(maxsize=None)
def paper_theorems(paper: str) -> tuple[Theorem, ...]:
    """The theorems one paper's module declares, its module imported on first use (none for a paper not encoded
    yet). Every ID of a paper's module starts with the paper's own prefix."""
    try:
        module = importlib.import_module(f"symdp.theorems.{paper}")
    except ModuleNotFoundError as exc:
        if exc.name == f"symdp.theorems.{paper}":
            return ()
        raise
    return tuple(module.THEOREMS)


@lru_cache(maxsize=None)
def catalogue() -> tuple[Theorem, ...]:
    """The catalogue as the papers' modules declare it (what :func:`all_theorems` returns unless replaced)."""
    found = [t for paper in PAPERS for t in paper_theorems(paper)]
    ids = [t.id for t in found]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise RuntimeError(f"duplicate theorem IDs: {duplicates}")
    return tuple(found)


def _candidates(patterns) -> tuple[Theorem, ...]:
    """The theorems ``patterns`` can name: those of the papers their prefixes name, so that verifying one paper's
    theorem imports (and declares) that paper alone; the whole of :func:`all_theorems` where a prefix names no paper
    or the name was replaced."""
    papers = {pattern.partition(".")[0] for pattern in patterns}
    if all_theorems is not _CATALOGUE_DOOR or not papers <= set(PAPERS):
        return tuple(all_theorems())
    return tuple(t for paper in PAPERS if paper in papers for t in paper_theorems(paper))


def select(patterns: list[str] | tuple[str, ...] = ()) -> list[Theorem]:
    """Theorems whose ID equals a pattern or starts with ``pattern + "."`` (so ``dwork`` selects a paper).

    No pattern selects everything. A pattern that selects nothing is an error naming it.
    """
    if not patterns:
        return list(all_theorems())
    theorems = _candidates(patterns)
    chosen: list[Theorem] = []
    for pattern in patterns:
        hits = [t for t in theorems if t.id == pattern or t.id.startswith(pattern.rstrip(".") + ".")]
        if not hits:
            from symdp.coverage import not_encoded_message

            raise UnknownTheorem(not_encoded_message(pattern, [t.id for t in theorems])
                                 or f"no theorem matches {pattern!r} (see `symdp list`)")
        chosen.extend(t for t in hits if t not in chosen)
    return chosen


def encoded_papers() -> list[str]:
    """The papers of :data:`PAPERS` that hold theorems, in that order (a paper not encoded yet has none)."""
    return [paper for paper in PAPERS if any(t.id.partition(".")[0] == paper for t in all_theorems())]


def get(ident: str) -> Theorem:
    for t in _candidates([ident]):
        if t.id == ident:
            return t
    raise UnknownTheorem(f"no theorem with ID {ident!r} (see `symdp list`)")
