"""Symbolic derivations behind the theorems, one module per source paper (see :mod:`symdp.derivation`).

Each module exposes ``DERIVATIONS``, a list of :class:`~symdp.derivation.Derivation` whose every step SymPy checks
exactly; ``symdp proofs`` checks them all, ``symdp proofs --latex`` prints them.
"""

from __future__ import annotations

import importlib

from symdp.citations import PAPERS


def all_derivations(papers=()):
    """(paper, derivation) pairs for the selected papers (all by default)."""
    chosen = papers or PAPERS
    out = []
    for paper in chosen:
        if paper not in PAPERS:
            from symdp.errors import UnknownTheorem

            raise UnknownTheorem(f"no proofs module for {paper!r}; papers are {', '.join(PAPERS)}")
        try:
            module = importlib.import_module(f"symdp.proofs.{paper}")
        except ModuleNotFoundError as exc:
            if exc.name == f"symdp.proofs.{paper}":
                continue
            raise
        out.extend((paper, d) for d in module.DERIVATIONS)
    return out
