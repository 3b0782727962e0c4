"""The source papers, each kept once: authors, title, venue, year, and how to cite a result of it.

A theorem's :class:`Source` names the seed file it was read from and the paper's own number
(``"Lemma 3"``); :func:`cite` turns that into the citation a reader expects, and :func:`bibtex` gives the BibTeX
entry of the paper. The appendix of Balle et al. (seed ``000_…``) is the same paper as its main text (``001_…``):
one entry, cited as "Balle et al. (2019), appendix, Lemma 9".

>>> cite(Source("001_dc25d928cd3b540a.txt", "Lemma 3"))
'Balle et al. (2019), Lemma 3'
>>> cite(Source("000_eb14441fc6376ec7.txt", "Lemma 9"))
'Balle et al. (2019), appendix, Lemma 9'
>>> cite(Source("004_b3a545b59162ae7d.txt", "Lemma 3.10"))
'Dwork and Rothblum (2016), Lemma 3.10'
>>> paper("dwork").key
'dwork2016concentrated'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from symdp.errors import UnknownTheorem


@dataclass(frozen=True)
class Paper:
    """One source paper: its bibliographic entry and the seed files it was read from (``part`` by seed)."""

    key: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    kind: str = "article"
    seeds: tuple[tuple[str, str], ...] = ()
    """``(seed file, part)`` pairs; the part ("appendix") is empty for the main text."""
    eprint: str = ""
    evidence: str = "independent"
    """The evidence a numeric result of the paper stands on unless its declaration says otherwise
    (:data:`symdp.theorem.EVIDENCE`)."""

    def source(self, number: str):
        """The :class:`Source` of the result with this number: ``"appendix, Lemma 9"`` names the part
        of the paper it is printed in, as the citation reads.

        >>> paper("balle19").source("appendix, Lemma 9").seed
        '000_eb14441fc6376ec7.txt'
        >>> str(paper("balle19").source("Lemma 3"))
        'Balle et al. (2019), Lemma 3'
        """
        for file, part in self.seeds:
            if part and number.startswith(part + ", "):
                return Source(file, number[len(part) + 2:])
        return Source(self.seeds[0][0], number)

    @property
    def short_authors(self) -> str:
        """"Balle et al." for three or more authors, "Dwork and Rothblum" for two, the surname for one."""
        surnames = [name.split()[-1] for name in self.authors]
        if len(surnames) >= 3:
            return f"{surnames[0]} et al."
        return " and ".join(surnames)

    @property
    def short(self) -> str:
        """Author-year form: ``Balle et al. (2019)``."""
        return f"{self.short_authors} ({self.year})"

    def bibtex(self) -> str:
        """The paper's BibTeX entry.

        >>> print(paper("balle19").bibtex().splitlines()[0])
        @inproceedings{balle2019mixing,
        """
        venue_field = "booktitle" if self.kind == "inproceedings" else "journal"
        fields = [("author", " and ".join(self.authors)), ("title", "{" + self.title + "}"),
                  (venue_field, self.venue), ("year", str(self.year))]
        if self.eprint:
            fields += [("eprint", self.eprint), ("archivePrefix", "arXiv")]
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        return f"@{self.kind}{{{self.key},\n{body}\n}}"


PAPERS: dict[str, Paper] = {
    "balle19": Paper(
        key="balle2019mixing",
        authors=("Borja Balle", "Gilles Barthe", "Marco Gaboardi", "Joseph Geumlek"),
        title="Privacy Amplification by Mixing and Diffusion Mechanisms",
        venue="Advances in Neural Information Processing Systems 32 (NeurIPS 2019)", year=2019, kind="inproceedings",
        seeds=(("001_dc25d928cd3b540a.txt", ""), ("000_eb14441fc6376ec7.txt", "appendix"))),
    "bertazzi": Paper(
        key="bertazzi2025mcmc",
        authors=("Andrea Bertazzi", "Tim Johnston", "Gareth O. Roberts", "Alain Durmus"),
        title="Differential Privacy Guarantees of Markov Chain Monte Carlo Algorithms",
        venue="arXiv preprint", year=2025, seeds=(("002_bf97d963b2294e2d.txt", ""),)),
    "bravo": Paper(
        key="bravo2025langevin",
        authors=("Mario Bravo", "Juan Pablo Flores-Mella", "Crist\\'obal Guzm\\'an"),
        title="Mixing Times and Privacy Analysis for the Projected Langevin Algorithm under a Modulus of Continuity",
        venue="arXiv preprint", year=2025, seeds=(("003_a063a8ea298de6c8.txt", ""),)),
    "dwork": Paper(
        key="dwork2016concentrated",
        authors=("Cynthia Dwork", "Guy N. Rothblum"),
        title="Concentrated Differential Privacy",
        venue="arXiv preprint", year=2016, eprint="1603.01887", seeds=(("004_b3a545b59162ae7d.txt", ""),)),
}
"""The papers by the prefix of their theorem IDs (``dwork.lem3.10`` is Dwork and Rothblum's)."""
# Author names are stored as BibTeX writes them (accents as TeX accents), so the entry compiles with any engine;
# ``short_authors`` uses surnames only, which here are plain ASCII.


@dataclass(frozen=True)
class Source:
    """Where a result comes from: the seed file and the paper's own number (``"Lemma 3.10"``)."""

    seed: str
    number: str

    def __str__(self) -> str:
        """The citation: authors, year and the paper's own number (``Balle et al. (2019), Lemma 3``)."""
        return cite(self)

    def summary(self) -> dict:
        """The source as JSON: the paper's ID prefix (``"dwork"``) and its own number, or, for a source outside the
        catalogue (a user's notes), ``paper`` None and the ``origin`` as written. The seed file a paper was read from
        is an internal name, not shown.

        >>> Source("my notes", "Lemma 1").summary()
        {'paper': None, 'origin': 'my notes', 'number': 'Lemma 1'}
        """
        entry = paper_of(self)
        if entry is None:
            return {"paper": None, "origin": self.seed, "number": self.number}
        return {"paper": next(key for key, value in PAPERS.items() if value is entry), "number": self.number}


def paper(key: str) -> Paper:
    """The paper with this ID prefix (``"dwork"``) or seed file name; an unknown one is an error naming it."""
    if key in PAPERS:
        return PAPERS[key]
    found = _by_seed(key)
    if found is None:
        raise UnknownTheorem(f"no paper for {key!r}; papers are {', '.join(PAPERS)}")
    return found[0]


def _by_seed(seed: str) -> Optional[tuple[Paper, str]]:
    name = seed.rsplit("/", 1)[-1]
    for entry in PAPERS.values():
        for file, part in entry.seeds:
            if file == name:
                return entry, part
    return None


def paper_of(source) -> Optional[Paper]:
    """The paper a :class:`Source` comes from, or None for a source outside the catalogue."""
    found = _by_seed(source.seed)
    return None if found is None else found[0]


def reference(entry: Paper) -> str:
    """The entry as a reference list prints it: authors, title, venue, year (LaTeX accents kept).

    >>> reference(paper("dwork"))
    'Cynthia Dwork and Guy N. Rothblum. Concentrated Differential Privacy. arXiv preprint arXiv:1603.01887, 2016.'
    """
    authors = entry.authors[0] if len(entry.authors) == 1 else (
        ", ".join(entry.authors[:-1]) + " and " + entry.authors[-1])
    venue = entry.venue + (f" arXiv:{entry.eprint}" if entry.eprint else "")
    return f"{authors}. {entry.title}. {venue}, {entry.year}."


def cite(source) -> str:
    """The citation of a :class:`Source`: author-year, part of the paper, and its own number.

    A seed that belongs to no known paper (a user's own theorem, ``Source("my notes", "Lemma 1")``) is cited as
    written: ``"my notes, Lemma 1"``.

    >>> cite(Source("my notes", "Lemma 1"))
    'my notes, Lemma 1'
    """
    found = _by_seed(source.seed)
    if found is None:
        return f"{source.seed}, {source.number}" if source.seed else source.number
    entry, part = found
    return ", ".join(p for p in (entry.short, part, source.number) if p)


def cite_seeds(text: str) -> str:
    """Text with every seed file name replaced by the paper's author-year (and part).

    >>> cite_seeds("004_b3a545b59162ae7d.txt, Section 4")
    'Dwork and Rothblum (2016), Section 4'
    """
    for entry in PAPERS.values():
        for file, part in entry.seeds:
            text = text.replace(file, ", ".join(p for p in (entry.short, part) if p))
    return text


def bibtex(keys=None) -> str:
    """BibTeX entries of the given papers (ID prefixes or seeds; all by default), one after another."""
    chosen = [paper(k) for k in keys] if keys else list(PAPERS.values())
    unique = list(dict.fromkeys(chosen))
    return "\n\n".join(p.bibtex() for p in unique) + "\n"
