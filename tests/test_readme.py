"""The README's examples run as written: its Python blocks assert their own verdicts, and each ``$ symdp ...``
command of its console blocks prints what the README shows (times aside).

After a change of output, ``python3 tests/test_readme.py --update`` rewrites the console blocks with the real output;
read the diff before keeping it.
"""

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
CONSOLE = re.compile(r"```console\n(.*?)```", re.S)


def transcripts(text: str) -> list[tuple[str, str]]:
    """``(command, shown output)`` for every ``$ symdp ...`` line of the console blocks."""
    found = []
    for block in CONSOLE.findall(text):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.M):
            if chunk.startswith("$ "):
                command, _, output = chunk.partition("\n")
                found.append((command[2:], output))
    return found


def run(command: str) -> str:
    """What ``command`` prints on its standard output, run in this process as the console script would run it."""
    from symdp.cli import main

    argv = shlex.split(command, comments=True)
    assert argv[0] == "symdp", command
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(argv[1:])
    return out.getvalue()


def normalized(output: str) -> str:
    """Output without what changes from run to run: elapsed times, and the widths of table columns. Numbers below
    10^-40 are rounding noise (the margins of tight draws at 50 digits): which draw is noisiest depends on the draws,
    which change with Hypothesis's version, and so is which draw it is; that they are that small is kept."""
    output = re.sub(r"\b\d+\.\d+ s\b", "<t> s", output)
    output = re.sub(r"-?\d+(\.\d+)?e-(4\d|[5-9]\d|\d{3,})\b", "<noise>", output)
    # the draw whose noise is largest is as arbitrary as the noise: its sides are not compared either
    output = re.sub(r"(worst margin: <noise> ± <noise>)\s+\(quantity [^,]*, bound [^)]*\)", r"\1 (noise)", output)
    return "\n".join(" ".join(line.split()) for line in output.strip("\n").splitlines())


TRANSCRIPTS = transcripts(README.read_text())


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs(block, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where a user would run it: nothing of symdp's may be left behind
    if "import dp_accounting" in block:   # the interop example needs the optional peer (the bench extra)
        pytest.importorskip("dp_accounting")
    exec(compile(block, str(README), "exec"), {})
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command, shown", TRANSCRIPTS, ids=[c.split("#")[0].strip()[:60] for c, _ in TRANSCRIPTS])
def test_readme_console_example_prints_what_the_readme_shows(command, shown):
    assert normalized(run(command)) == normalized(shown)


def test_readme_has_console_examples_of_check_and_verify():
    commands = [shlex.split(c, comments=True)[1] for c, _ in TRANSCRIPTS]
    assert "check" in commands and "verify" in commands


def test_readme_starts_with_the_two_commands():
    lines = [l for l in README.read_text().splitlines() if l.strip()]
    assert lines[1] == "```bash"
    assert "pip install ." in lines[2] and "symdp verify" in lines[2]
    assert 'pip install ".[test]"' in lines[3] and "pytest" in lines[3]


def test_readme_stays_inside_the_repository():
    assert "../shared" not in README.read_text()


def update() -> None:
    """Rewrite each console block with the real output of its commands."""
    def rewrite(match):
        lines = []
        for command, _ in transcripts(match.group(0)):
            output = "\n".join(line.rstrip() for line in run(command).strip("\n").splitlines())
            lines.append(f"$ {command}\n{output}".rstrip())
        return "```console\n" + "\n".join(lines) + "\n```"

    README.write_text(CONSOLE.sub(rewrite, README.read_text()))


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--update"]:
        update()
    else:
        sys.exit(__doc__)
