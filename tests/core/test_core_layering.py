"""The package's folders are its architecture: no module imports from a higher layer, and no import cycle.

The layer order is `neuron_compat.LAYERS` (written once, in the package's `__init__`). Every import counts,
including the ones inside functions that keep `check` fast: a lazy import that goes up or closes a cycle is
the same design fault as a module-level one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import neuron_compat

PACKAGE_DIR = Path(neuron_compat.__file__).parent


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(root: Path) -> dict[str, set[str]]:
    """module -> the package modules it imports (relative imports resolved; `from P import m` counts m)."""
    modules = {_module_name(p, root): p for p in root.rglob("*.py")}
    top = root.name
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".") if is_package else name.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    target = node.module or ""
                targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target for a in node.names]
            for target in targets:
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name and target.split(".")[0] == top:
                    found.add(target)
        graph[name] = found
    return graph


def layer_of(module: str, layers: tuple[str, ...]) -> int | None:
    """The index of the module's layer, or None for the package face (`neuron_compat/__init__`)."""
    parts = module.split(".")
    if len(parts) == 1:
        return None
    return layers.index(parts[1])


def layering_problems(root: Path, layers: tuple[str, ...]) -> list[str]:
    graph = imports_of(root)
    problems = []
    for module, targets in sorted(graph.items()):
        parts = module.split(".")
        if len(parts) > 1 and parts[1] not in layers:
            problems.append(f"{module}: not in a layer (add its folder to LAYERS)")
            continue
        mine = layer_of(module, layers)
        for target in sorted(targets):
            theirs = layer_of(target, layers)
            if theirs is None:
                continue  # the package face holds only the version and the layer list
            if mine is not None and theirs > mine:
                problems.append(f"{module} imports {target}: {layers[theirs]} is above {layers[mine]}")
    problems.extend(f"import cycle: {' -> '.join(cycle)}" for cycle in cycles(graph))
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_package_imports_only_downwards_and_has_no_cycle() -> None:
    assert layering_problems(PACKAGE_DIR, neuron_compat.LAYERS) == []


def test_the_top_level_holds_only_the_package_face_and_the_cli() -> None:
    top = sorted(p.name for p in PACKAGE_DIR.glob("*.py"))
    assert top == ["__init__.py", "cli.py"]


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (  # a lower layer importing a higher one, lazily inside a function
            {"pkg/__init__.py": "", "pkg/low/__init__.py": "", "pkg/high/__init__.py": "",
             "pkg/high/b.py": "", "pkg/low/a.py": "def f():\n    from pkg.high import b\n"},
            ["pkg.low.a imports pkg.high.b: high is above low"],
        ),
        (  # a cycle inside one layer, one side relative
            {"pkg/__init__.py": "", "pkg/low/__init__.py": "", "pkg/high/__init__.py": "",
             "pkg/low/a.py": "from .b import x\n", "pkg/low/b.py": "from pkg.low.a import y\n"},
            ["import cycle: pkg.low.a -> pkg.low.b"],
        ),
        (  # a module outside every layer
            {"pkg/__init__.py": "", "pkg/stray.py": ""},
            ["pkg.stray: not in a layer (add its folder to LAYERS)"],
        ),
    ],
)
def test_the_checker_reports_upward_imports_cycles_and_strays(tmp_path: Path, files: dict[str, str],
                                                               expected: list[str]) -> None:
    _write(tmp_path, files)
    assert layering_problems(tmp_path / "pkg", ("low", "high")) == expected


def test_hacking_lists_the_layers_in_their_order() -> None:
    text = (PACKAGE_DIR.parents[1] / "HACKING.md").read_text(encoding="utf-8")
    section = text.split("## The packages", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("`")[1].rstrip("/") for line in section.splitlines() if line.startswith("| `")]
    assert rows == [layer for layer in neuron_compat.LAYERS if layer != "cli"]
