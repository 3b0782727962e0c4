"""The layers of symdp, kept in order: each module imports only from its own layer or the layers below it, and
the modules import one another without cycles (lazy imports inside functions included).

    numeric   errors, precision, estimate, numeric, optimize
    engine    symdp.engine.*: distribution families, finite laws, kernels, divergences, closed forms, quadrature, privacy loss
    model     symbols, divergence heads, statements, theorems, verification, derivations, claims, strategies
    theorems  symdp.theorems.* and symdp.proofs.* (the papers; symdp/proofs is the repository's proofs/ folder)
    cli       the command line and the package's public face
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {
    "numeric": {"symdp.errors", "symdp.precision", "symdp.estimate", "symdp.numeric", "symdp.optimize"},
    "model": {"symdp.symbols", "symdp.expressions", "symdp.statement", "symdp.theorem", "symdp.verify",
              "symdp.derivation", "symdp.claims", "symdp.laws", "symdp.strategies", "symdp.citations", "symdp.latex",
              "symdp.coverage", "symdp.search", "symdp.mechanisms", "symdp.rdp"},
    "cli": {"symdp.cli", "symdp", "symdp.parallel", "symdp.plugin", "symdp.interop"},
}
ORDER = ("numeric", "engine", "model", "theorems", "cli")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    parts = ("symdp",) + parts if parts[0] == "proofs" else parts   # installed as symdp.proofs
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> str:
    for layer, members in LAYERS.items():
        if module in members:
            return layer
    if module.startswith("symdp.engine"):
        return "engine"
    if module.startswith(("symdp.theorems", "symdp.proofs")):
        return "theorems"
    raise AssertionError(f"{module} belongs to no layer: add it to tests/test_layers.py")


MODULES = {_module_name(p): p for folder in ("symdp", "proofs") for p in sorted((ROOT / folder).rglob("*.py"))
           if not p.relative_to(ROOT).parts[:2] == ("symdp", "proofs")}


def _imports(module: str) -> set[str]:
    """The symdp/proofs modules that ``module`` imports, anywhere in its body."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from symdp import finite`` imports the submodule, not the package's public face
            submodules = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in MODULES]
            names = submodules or [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found |= {n for n in names if n in MODULES and n != module}
    return found


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_imports_only_its_layer_or_below(module):
    mine = ORDER.index(_layer(module))
    above = sorted(m for m in _imports(module) if ORDER.index(_layer(m)) > mine)
    assert not above, f"{module} ({_layer(module)}) imports from higher layers: {above}"


def test_no_import_cycles():
    graph = {m: _imports(m) - {"symdp"} for m in MODULES}
    state: dict[str, int] = {}

    def visit(m, path):
        state[m] = 1
        for n in graph[m]:
            if state.get(n) == 1:
                raise AssertionError(" -> ".join(path + [m, n]))
            if n not in state:
                visit(n, path + [m])
        state[m] = 2

    for m in graph:
        if m not in state:
            visit(m, [])
