"""What symdp says it encodes: the catalogue's entries it ships (symdp.coverage.CATALOGUE) against the catalogue's own
files, where they sit beside the repository, and the coverage it reports against the registry."""

import re
from pathlib import Path

import pytest

from symdp.coverage import CATALOGUE, coverage, not_encoded_message

CATALOGUE_DIR = Path(__file__).resolve().parents[2] / "shared" / "catalogue"
FILES = {"balle19": "catalogue-balle.md", "bertazzi": "catalogue-bertazzi.md", "bravo": "catalogue-bravo.md",
         "dwork": "catalogue-dwork.md"}


def entries_in(text: str, prefix: str) -> set[str]:
    """The IDs a catalogue file names as entries: in its headings, in the first column of its tables, and in its bold
    bullet entries (``* **`bravo.id.harm`.**``)."""
    found = set()
    for line in text.splitlines():
        if line.startswith("#") or re.match(r"^\s*[*-]\s+\*\*`", line):
            found |= set(re.findall(rf"\b{prefix}\.[A-Za-z0-9](?:[\w.\-]*[A-Za-z0-9])?", line))
        row = re.match(rf"^\|\s*`?({prefix}\.[^\s|`]+)`?\s*\|", line)
        if row:
            found.add(row.group(1))
    return found


@pytest.mark.skipif(not CATALOGUE_DIR.is_dir(), reason="the catalogue's files are not beside the repository")
@pytest.mark.parametrize("paper", sorted(FILES))
def test_the_shipped_entries_keep_up_with_the_catalogue(paper):
    named = entries_in((CATALOGUE_DIR / FILES[paper]).read_text(), paper)
    assert named, f"no entry found in {FILES[paper]}"
    assert named <= set(CATALOGUE[paper]), f"entries missing from symdp.coverage: {sorted(named - set(CATALOGUE[paper]))}"


def test_every_theorem_id_belongs_to_a_paper_and_entries_are_unique():
    for paper, entries in CATALOGUE.items():
        assert len(entries) == len(set(entries)) and all(e.startswith(paper + ".") for e in entries)


def test_coverage_counts_an_entry_once_whatever_its_number_of_theorems():
    from symdp.theorems import all_theorems

    ids = [t.id for t in all_theorems() if t.id.startswith("balle19.")]
    c = coverage("balle19", [t.id for t in all_theorems()])
    # balle19.lem9 is encoded by its sub-results (balle19.lem9.eps-dobrushin, its corrected form, ...)
    assert "balle19.lem9" in c.encoded and sum(i.startswith("balle19.lem9.") for i in ids) >= 2
    assert len(c.encoded) + len(c.missing) == c.entries == len(CATALOGUE["balle19"]) and c.theorems == len(ids)
    assert all(not any(i == e or i.startswith(e + ".") for e in CATALOGUE["balle19"]) for i in c.extras)


def test_selecting_what_is_not_encoded_says_so():
    from symdp.theorems import all_theorems

    # every entry is encoded now: one is taken out of the registry's IDs to stand for an entry not encoded yet
    ids = [t.id for t in all_theorems() if t.id != "balle19.alg1"]
    assert "balle19.alg1" in coverage("balle19", ids).missing
    assert "not encoded yet" in not_encoded_message("balle19.alg1", ids)
    assert not_encoded_message("dwork.lem3.10.nosuch", ids) is None   # an encoded entry's unknown child: a plain miss


@pytest.mark.parametrize("paper", sorted(CATALOGUE))
def test_every_paper_reads_complete(paper):
    """The issue: `symdp papers balle19` listed six entries not encoded (Algorithm 1 and five definitions). Every
    entry of every paper's catalogue is now encoded, a definition checked in another paper citing it there."""
    from symdp.theorems import all_theorems

    c = coverage(paper, [t.id for t in all_theorems()])
    assert c.missing == () and len(c.encoded) == c.entries == len(CATALOGUE[paper])


@pytest.mark.parametrize("entry", ["balle19.alg1", "balle19.def.dp", "balle19.def.intrinsic", "balle19.def.rdp",
                                   "balle19.def.renyi", "balle19.def.winf"])
def test_balle19_definitions_cite_where_they_are_checked(entry):
    """Each of the six entries encoded last names, in its reason, a theorem that exists and is checked numerically
    (evidence ``independent``), where the definition is measured."""
    import re as _re

    from symdp.theorem import INDEPENDENT
    from symdp.theorems import get

    t = get(entry)
    cited = _re.findall(r"\\symdpid\{([^}]+)\}", t.symbolic_only)
    assert cited and any(get(i).evidence == INDEPENDENT for i in cited), (entry, cited)
