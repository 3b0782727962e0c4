"""The README's Python examples run as written (they assert their own verdicts)."""

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs(block, capsys):
    exec(compile(block, str(README), "exec"), {})


def test_readme_starts_with_the_two_commands():
    lines = [l for l in README.read_text().splitlines() if l.strip()]
    assert lines[1] == "```bash"
    assert "pip install ." in lines[2] and "symdp verify" in lines[2]
    assert 'pip install ".[test]"' in lines[3] and "pytest" in lines[3]
