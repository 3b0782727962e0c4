"""What of the four papers is encoded: the catalogue's entries per paper, and which of them symdp checks.

The catalogue (``shared/catalogue/catalogue-*.md`` beside the repository, not installed with symdp) names every
quantitative result of the papers by an ID; :data:`CATALOGUE` keeps those IDs, so that an installed symdp can say
what it covers (``symdp papers``) without the catalogue's files. ``tests/test_coverage.py`` re-reads the catalogue,
where it is present, and fails when this list falls behind it.

An entry is *encoded* when some theorem of symdp has its ID or an ID below it (``balle19.lem9`` is encoded by
``balle19.lem9.eps-dobrushin``); a theorem whose ID is below no entry is an *extra* (a fact symdp checks beyond the
catalogue, such as ``balle19.fact.laplace-rdp``).

>>> c = coverage("dwork", ["dwork.lem3.10", "dwork.lem9.corrected", "dwork.fact.new"])
>>> c.entries == len(CATALOGUE["dwork"]), c.encoded, c.extras
(True, ('dwork.lem3.10',), ('dwork.lem9.corrected', 'dwork.fact.new'))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

CATALOGUE: dict[str, tuple[str, ...]] = {
    "balle19": (
        "balle19.ajc", "balle19.alg1", "balle19.cor7", "balle19.def1.1", "balle19.def1.2", "balle19.def1.3",
        "balle19.def1.4", "balle19.def.dp", "balle19.def.hs", "balle19.def.intrinsic", "balle19.def.rdp",
        "balle19.def.renyi", "balle19.def.winf", "balle19.eq4", "balle19.eq5", "balle19.eq6", "balle19.ex1",
        "balle19.ex2", "balle19.ex3", "balle19.ex4", "balle19.ex5", "balle19.fact.jc-dpi", "balle19.gm-pgm",
        "balle19.lem3", "balle19.lem9", "balle19.lem11", "balle19.lem12", "balle19.lem16", "balle19.lem17",
        "balle19.lem18", "balle19.lem19", "balle19.ou", "balle19.semigroup", "balle19.tab1", "balle19.thm1.1",
        "balle19.thm1.2", "balle19.thm1.3", "balle19.thm1.4", "balle19.thm1.rem-doeblin", "balle19.thm2",
        "balle19.thm4.eq2", "balle19.thm4.eq3", "balle19.thm4.proof-phi", "balle19.thm4.proof-theta",
        "balle19.thm5", "balle19.thm6", "balle19.thm6.identities", "balle19.thm8.a", "balle19.thm8.b",
    ),
    "bertazzi": (
        "bertazzi.ass3.1", "bertazzi.ass3.5", "bertazzi.ass3.6", "bertazzi.ass3.8", "bertazzi.ass3.9",
        "bertazzi.ass5.1", "bertazzi.ass5.3", "bertazzi.ass5.5", "bertazzi.assA.4", "bertazzi.cor3.3",
        "bertazzi.def2.1", "bertazzi.def2.2", "bertazzi.defA.1", "bertazzi.eq1", "bertazzi.eq4", "bertazzi.eq12",
        "bertazzi.eq16", "bertazzi.eq25", "bertazzi.eq31", "bertazzi.fact2.rdp2dp", "bertazzi.lem4.1",
        "bertazzi.lem4.2", "bertazzi.lemB.1", "bertazzi.lemB.2", "bertazzi.lemB.3", "bertazzi.proof3.10",
        "bertazzi.proof4.5", "bertazzi.proof4.6", "bertazzi.proof5.2", "bertazzi.proof5.6", "bertazzi.proof5.7",
        "bertazzi.proof5.8", "bertazzi.proofB.1", "bertazzi.proofB.2", "bertazzi.prop3.2", "bertazzi.prop3.4",
        "bertazzi.prop3.7", "bertazzi.prop3.10", "bertazzi.prop4.5", "bertazzi.prop4.6", "bertazzi.propA.2",
        "bertazzi.propA.3", "bertazzi.propA.5", "bertazzi.rem3.var", "bertazzi.rem4.3", "bertazzi.rem5.2-C4",
        "bertazzi.sec5.3", "bertazzi.thm5.2", "bertazzi.thm5.4", "bertazzi.thm5.6", "bertazzi.thm5.7",
        "bertazzi.thm5.8",
    ),
    "bravo": (
        "bravo.P", "bravo.cor3.7", "bravo.cor3.8", "bravo.cor3.9", "bravo.def2.1", "bravo.def2.1.1",
        "bravo.def2.1.2", "bravo.def2.1.3", "bravo.def2.1.4", "bravo.def2.1.5", "bravo.def2.1.6", "bravo.def2.2",
        "bravo.def2.3", "bravo.def2.4", "bravo.def5.1", "bravo.defA.1", "bravo.defA.2", "bravo.defA.13",
        "bravo.defA.16", "bravo.eq9", "bravo.eq12", "bravo.fig1", "bravo.id.gaussrenyi", "bravo.id.harm",
        "bravo.id.limit", "bravo.id.linchain", "bravo.id.sum39", "bravo.lem2.5", "bravo.lem3.1", "bravo.lem3.2",
        "bravo.lem3.3", "bravo.lem3.5", "bravo.lem4.1", "bravo.lemA.17", "bravo.lemA.18", "bravo.lemC.1",
        "bravo.notation.phi0t", "bravo.propA.3", "bravo.propA.4", "bravo.propA.5", "bravo.propA.6",
        "bravo.propA.8", "bravo.propA.12", "bravo.propA.14", "bravo.propB.1", "bravo.rem3.6", "bravo.rem5.3",
        "bravo.sec3.2.hess", "bravo.sec5.2.dp", "bravo.tab1.r1", "bravo.tab1.r2", "bravo.tab1.r3", "bravo.tab1.r4",
        "bravo.tab1.r5", "bravo.tab1.r6", "bravo.thm3.4", "bravo.thm4.2", "bravo.thm5.2", "bravo.thm5.4",
        "bravo.thmC.2",
    ),
    "dwork": (
        "dwork.claim3.11", "dwork.claim3.12", "dwork.claim4.4", "dwork.claim4.5", "dwork.cor3.1", "dwork.cor3.3",
        "dwork.def2.1", "dwork.def2.2", "dwork.def2.3", "dwork.def2.4", "dwork.def2.5", "dwork.def3.1",
        "dwork.def3.2", "dwork.def3.3", "dwork.def3.4", "dwork.fact2.1", "dwork.fact2.2", "dwork.fact4.1",
        "dwork.intro.groupdp", "dwork.intro.misc", "dwork.lem2.1", "dwork.lem2.2", "dwork.lem2.3", "dwork.lem3.6",
        "dwork.lem3.7", "dwork.lem3.8", "dwork.lem3.9", "dwork.lem3.10", "dwork.lem4.2", "dwork.lem4.3",
        "dwork.obs.group-not-tight", "dwork.obs.kl-le-tau2", "dwork.obs.postproc", "dwork.obs.rr-extremal",
        "dwork.prop3.1", "dwork.text2.1", "dwork.text3.2", "dwork.thm1.1", "dwork.thm3.2", "dwork.thm3.4",
        "dwork.thm3.5", "dwork.thm4.1",
    ),
}
"""Every catalogue entry's ID, per paper (the ID prefix), as the catalogue's files name them."""


def _below(ident: str, entry: str) -> bool:
    return ident == entry or ident.startswith(entry + ".")


@dataclass(frozen=True)
class Coverage:
    """What symdp encodes of one paper's catalogue."""

    paper: str
    entries: int
    """How many entries the catalogue has for the paper."""
    encoded: tuple[str, ...]
    """The entries some theorem encodes, in catalogue order."""
    missing: tuple[str, ...]
    """The entries no theorem encodes yet."""
    theorems: int
    """How many theorems of symdp belong to the paper (an entry may take several: printed and corrected forms)."""
    extras: tuple[str, ...]
    """Theorem IDs below no entry: facts checked beyond the catalogue."""

    def to_json(self) -> dict:
        return {"paper": self.paper, "entries": self.entries, "encoded": list(self.encoded),
                "missing": list(self.missing), "theorems": self.theorems, "extras": list(self.extras)}


def coverage(paper: str, theorem_ids: Iterable[str]) -> Coverage:
    """The coverage of one paper (a key of :data:`CATALOGUE`) by the theorems of ``theorem_ids`` (the catalogue's,
    :func:`symdp.theorems.all_theorems`, as ``symdp papers`` gives them)."""
    ids = [i for i in theorem_ids if i.partition(".")[0] == paper]
    entries = CATALOGUE[paper]
    encoded = tuple(e for e in entries if any(_below(i, e) for i in ids))
    extras = tuple(i for i in ids if not any(_below(i, e) for e in entries))
    return Coverage(paper, len(entries), encoded, tuple(e for e in entries if e not in encoded), len(ids), extras)


def not_encoded_message(pattern: str, theorem_ids: Iterable[str]) -> str | None:
    """Why a pattern that selects none of ``theorem_ids`` selects none, where the catalogue knows it: a paper (or an
    entry of one) that is not encoded yet. None for a pattern the catalogue does not know either.

    >>> not_encoded_message("bertazzi", [])
    'no theorem of bertazzi is encoded yet (0 of 52 catalogue entries; `symdp papers bertazzi` lists them)'
    >>> not_encoded_message("nosuch", []) is None
    True
    """
    paper = pattern.partition(".")[0]
    if paper not in CATALOGUE:
        return None
    c = coverage(paper, theorem_ids)
    where = f"`symdp papers {paper}` lists them"
    if pattern.rstrip(".") == paper:
        return f"no theorem of {paper} is encoded yet ({len(c.encoded)} of {c.entries} catalogue entries; {where})"
    if not any(_below(pattern, e) or _below(e, pattern) for e in c.missing):
        return None
    return f"{pattern} is in the catalogue but not encoded yet ({len(c.encoded)} of {c.entries} entries of {paper}" \
           f" are; {where})"
