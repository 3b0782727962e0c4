"""Compare two runs of ``symdp verify --json``: for every ID, the verdict, the evidence, tightness, whether the
verdict is as the declaration expects, and whether it is certified. A change of the engine or of the theorems keeps
every verdict; this script says, ID by ID, where one changed.

    symdp verify --json > before.json          # on the old commit
    symdp verify --json > after.json           # on the new one
    python3 tests/compare_verify.py before.json after.json

Exits 1 if a verdict, its evidence, its tightness or its expectedness changed, or an ID appeared or went away
(certification alone may change: it is printed, not counted as a difference).
"""

from __future__ import annotations

import json
import sys

KEPT = ("verdict", "evidence", "tight", "expected")
"""What a refactor must keep, ID by ID."""


def essentials(row: dict) -> dict:
    """What a report says about its theorem, without times, draws and digits."""
    return {"verdict": row["verdict"], "evidence": row["evidence"], "tight": row["tight_examples"] > 0,
            "expected": row.get("expected"), "certified": row["certified"]}


def compare(before: list[dict], after: list[dict]) -> tuple[list[str], list[str]]:
    """``(differences, notes)``: lines for every kept property that changed, and for certification changes."""
    old = {r["id"]: essentials(r) for r in before}
    new = {r["id"]: essentials(r) for r in after}
    differences, notes = [], []
    for ident in sorted(old.keys() - new.keys()):
        differences.append(f"{ident}: gone")
    for ident in sorted(new.keys() - old.keys()):
        differences.append(f"{ident}: new ({new[ident]['verdict']}, {new[ident]['evidence']})")
    for ident in sorted(old.keys() & new.keys()):
        a, b = old[ident], new[ident]
        changed = [f"{key} {a[key]} -> {b[key]}" for key in KEPT if a[key] != b[key]]
        if changed:
            differences.append(f"{ident}: {'; '.join(changed)}")
        if a["certified"] != b["certified"]:
            notes.append(f"{ident}: certified {a['certified']} -> {b['certified']}")
    return differences, notes


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    before, after = (json.load(open(path)) for path in argv)
    differences, notes = compare(before, after)
    for line in differences + notes:
        print(line)
    print(f"{len(before)} IDs before, {len(after)} after: {len(differences)} differences, "
          f"{len(notes)} certification changes")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
