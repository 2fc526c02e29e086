"""The Python the site's check page runs in the browser (Pyodide): the package modules the check entry point
imports, found by reading the source (ast), written as one zip beside the registry document.

The module set is never a hand list: it is the import closure of `ENTRY` (the function the page calls, and
`EXPLAIN_ENTRY`): the entry module's top-level imports, the imports inside the entry functions, then for every
package module reached, its top-level imports and the package imports inside its functions. A module reached only
through a function-level import whose own top-level imports need a third-party package (pydantic, yaml, ...) is
left out: the check path never runs such a function (a test runs the archive alone under a guard that refuses every
third-party import). A top-level third-party import on the check path is an error (`ArchiveError`).
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import re
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PACKAGE = "neuron_compat"
ENTRY = ("neuron_compat.check.page", ("check_answer", "explain_answer", "_question", "_failure"))
"""The module and the functions of it the check page runs (the JSON of `check --json` and the table's lines,
`explain --json`, and the helpers they call, whose own imports count too)."""

ARCHIVE = "api/check/python.zip"
"""Where `neuron-compat site` writes the archive, beside the check page's registry document."""

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # a fixed timestamp: the same modules give the same bytes


class ArchiveError(ValueError):
    """The check path imports a third-party module at the top level of a module: it cannot run in the page."""


@dataclass(frozen=True)
class _Imports:
    top: frozenset[str]  # absolute module names imported at module level (TYPE_CHECKING blocks skipped)
    inner: frozenset[str]  # imported inside functions
    functions: dict[str, frozenset[str]]  # per top-level function name, what it imports inside


def _package_root() -> Path:
    return Path(__file__).resolve().parents[1]


def _source_of(module: str, root: Path) -> Path | None:
    parts = module.split(".")[1:]
    path = root.joinpath(*parts)
    if (path / "__init__.py").is_file():
        return path / "__init__.py"
    file = path.with_suffix(".py") if parts else root / "__init__.py"
    return file if file.is_file() else None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    base = node.module or ""
    if node.level:
        parts = module.split(".")
        anchor = parts if is_package else parts[:-1]
        anchor = anchor[: len(anchor) - (node.level - 1)]
        base = ".".join([*anchor, base] if base else anchor)
    found = {base}
    found.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import module`
    return found


def _imports(module: str, source: Path) -> _Imports:
    tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
    is_package = source.name == "__init__.py"
    top: set[str] = set()
    inner: set[str] = set()
    functions: dict[str, frozenset[str]] = {}

    def walk(nodes: list[ast.stmt], into: set[str]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node):
                walk(node.orelse, into)
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                into.update(_names(node, module, is_package))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found: set[str] = set()
                for child in ast.walk(node):
                    if isinstance(child, (ast.Import, ast.ImportFrom)):
                        found.update(_names(child, module, is_package))
                inner.update(found)
                if into is top:
                    functions[node.name] = frozenset(found)
            elif isinstance(node, ast.ClassDef):
                for child in ast.walk(node):
                    if isinstance(child, (ast.Import, ast.ImportFrom)):
                        inner.update(_names(child, module, is_package))
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    block = getattr(node, field, None)
                    if isinstance(block, list):
                        walk([n for n in block if isinstance(n, ast.stmt)] +
                             [s for h in block if isinstance(h, ast.ExceptHandler) for s in h.body], into)

    walk(tree.body, top)
    return _Imports(frozenset(top), frozenset(inner), functions)


def _third_party(name: str) -> bool:
    root = name.split(".")[0]
    return root != PACKAGE and root not in sys.stdlib_module_names and root != "__future__"


class _Walk:
    """The import closure of the check entry over the package's sources (read once each)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[str, _Imports | None] = {}

    def imports_of(self, module: str) -> _Imports | None:
        if module not in self.cache:
            source = _source_of(module, self.root)
            self.cache[module] = _imports(module, source) if source else None
        return self.cache[module]

    def package_modules(self, names: frozenset[str] | set[str]) -> set[str]:
        return {n for n in names if n.split(".")[0] == PACKAGE and _source_of(n, self.root)}

    def top_closure(self, module: str) -> tuple[set[str], list[str]]:
        """The modules `module` needs at import time (with its parent packages), and the third-party ones."""
        seen: set[str] = set()
        third: list[str] = []
        todo = [module]
        while todo:
            parts = todo.pop().split(".")
            for parent in (".".join(parts[:index]) for index in range(1, len(parts) + 1)):
                found = self.imports_of(parent) if parent not in seen else None
                seen.add(parent)
                if found is not None:
                    third.extend(sorted(n for n in found.top if _third_party(n)))
                    todo.extend(self.package_modules(found.top))
        return {name for name in seen if _source_of(name, self.root)}, third


def check_modules(root: Path | None = None) -> dict[str, Path]:
    """The package modules of the check path, by dotted name (packages' `__init__` included), sorted."""
    walk = _Walk(root or _package_root())
    entry_module, entry_functions = ENTRY
    entry = walk.imports_of(entry_module)
    if entry is None:
        raise ArchiveError(f"the check entry module {entry_module} is missing")
    modules, third = walk.top_closure(entry_module)
    if third:
        raise ArchiveError(f"the check path imports {third[0]} at the top of a module: the page cannot run it")
    todo: set[str] = set()
    for function in entry_functions:
        todo |= walk.package_modules(entry.functions.get(function, frozenset()))
    done: set[str] = set()
    while todo:
        name = todo.pop()
        done.add(name)
        needed, third = walk.top_closure(name)
        if third:
            continue  # only a function the check path does not run imports it (the archive test proves it)
        modules |= needed
        for module in needed:
            found = walk.imports_of(module)
            if found is not None:
                todo |= walk.package_modules(found.inner) - done
    return {name: _source_of(name, walk.root) for name in sorted(modules)}  # type: ignore[misc]


def archive_bytes(root: Path | None = None) -> bytes:
    """The zip of the check path's modules (paths as in the package: neuron_compat/check/resolver.py, ...),
    deterministic (sorted, fixed timestamps)."""
    root = root or _package_root()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for source in check_modules(root).values():
            relative = source.relative_to(root.parent).as_posix()
            info = zipfile.ZipInfo(relative, _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, source.read_bytes())
    return buffer.getvalue()


def integrity(data: bytes) -> str:
    """The subresource-integrity string of `data` (sha384, base64)."""
    import base64

    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode("ascii")


# --- the Python runtime (Pyodide), pinned -------------------------------------------------------------

PYODIDE_VERSION = "314.0.8"
"""The npm package `pyodide` the page runs (CPython 3.14). .ci/run installs the same version for the tests."""

PYODIDE_CDN = f"https://cdn.jsdelivr.net/npm/pyodide@{PYODIDE_VERSION}/"
"""Where the published page loads it from when the site is built without --pyodide (jsDelivr serves the npm files)."""

PYODIDE_FILES = {
    "pyodide.mjs": "sha384-VR+eYp8LZKGhhQ7Nql3TONJIMizM0VRxz87k6V7IyuQHElicjy7ULmkOuB2LFR3b",
    "pyodide.asm.mjs": "sha384-zZV4ZBUhsbFzcmaHqwfipWI/BS8YH7Duesu1Rrtyx1HRqFAyz+Mt/HRiMtNyWdwU",
    "pyodide.asm.wasm": "sha384-L3e25SSwmf8Q0I8qcgGD/PNkK1wyivO8lWFSko3xXQZ8uLNcYkZXJlX8LU3oVH/o",
    "python_stdlib.zip": "sha384-ShW1Tjb4ytDLumQGuwRa/PTLxHcN6agBzp2wIRZSJNK8tEt2QMRDnG69N58KhHqM",
    "pyodide-lock.json": "sha384-o8SQQvpVlZnOl04+3dFTJipKxul9GbViVusA379wlOrfHSgxbzt0yPiqCTxOiYES",
}
"""The runtime files the page loads and their subresource-integrity hashes (of the npm package's files)."""

SELF_HOSTED = "assets/pyodide/"
"""Where `neuron-compat site --pyodide DIR` puts the runtime files in the site."""

CHECK_API = "api/check/"
LEFT_OUT = ("probe", "configurations", "known_issues", "check_tables")
"""Sections of api/registry.json the check page's registry document leaves out: the probe and the configurations
have their own files (the probe one per model type), the known issues are read by the explain box only."""

_SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")


def runtime_files(folder: Path) -> dict[str, bytes]:
    """The pinned runtime's files from an unpacked npm package folder (or its `package/`), checked against the pins.
    Raises ArchiveError with one line when a file is missing or is another version's."""
    if (folder / "package" / "pyodide.mjs").is_file():
        folder = folder / "package"
    files: dict[str, bytes] = {}
    for name, expected in PYODIDE_FILES.items():
        path = folder / name
        if not path.is_file():
            raise ArchiveError(f"{path}: missing (--pyodide wants the unpacked npm package pyodide@{PYODIDE_VERSION})")
        data = path.read_bytes()
        if integrity(data) != expected:
            raise ArchiveError(f"{path}: not the file of pyodide@{PYODIDE_VERSION} (its sha384 differs)")
        files[name] = data
    return files


def probe_file(model_type: str) -> str | None:
    """The API path of one model type's probe result, or None for a name that is not a safe file name."""
    return f"{CHECK_API}probe/{model_type}.json" if _SAFE_NAME.fullmatch(model_type) else None


def page_lists(document: dict[str, Any]) -> dict[str, list[str]]:
    """The choices of the check page's controls, from the code `check` validates its flags with."""
    from neuron_compat.check.fit import FIT_DEFAULTS
    from neuron_compat.check.resolver import WORKLOADS
    from neuron_compat.contract.versions import version_key
    from neuron_compat.contract.vocabulary import Task
    from neuron_compat.sizing.bytes import DTYPE_BYTES
    from neuron_compat.views.recommendation import HARDWARE_ORDER

    instances = document.get("instances") or {}
    return {
        "releases": sorted((str(r["version"]) for r in document.get("releases") or []), key=version_key, reverse=True),
        "stacks": [str(s["id"]) for s in document.get("stacks") or []],
        "workloads": list(WORKLOADS),
        "hardware": list(HARDWARE_ORDER),
        "tasks": [t.value for t in Task],
        "dtypes": list(DTYPE_BYTES),
        "default_dtype": [str(FIT_DEFAULTS["dtype"])],
        "instances": [str(i.get("name")) for i in instances.get("instances") or []],
    }


RUNTIME_JSON = f"{CHECK_API}runtime.json"


def _dump(data: Any) -> bytes:
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n").encode("utf-8")


def check_page_files(tree: dict[str, bytes]) -> dict[str, bytes]:
    """The check page's files, from the registry document of the tree (api/registry.json): its own registry
    document (without what it reads from elsewhere), the configurations, one probe file per model type, the known
    issues, the archive of the check path and `runtime.json` (where each is, with integrity hashes, the runtime on
    jsDelivr, and the controls' choices). Raises ArchiveError when the check path cannot run in the page."""
    from neuron_compat.site.pages.api import REGISTRY_JSON

    document = json.loads(tree[REGISTRY_JSON])
    files: dict[str, bytes] = {
        f"{CHECK_API}registry.json": _dump({k: v for k, v in document.items() if k not in LEFT_OUT}),
        f"{CHECK_API}configurations.json": _dump(document.get("configurations") or []),
        f"{CHECK_API}known-issues.json": _dump(document.get("known_issues") or []),
        ARCHIVE: archive_bytes(),
    }
    probe = document.get("probe") or {}
    for model_type, result in sorted((probe.get("probes") or {}).items()):
        path = probe_file(model_type)
        if path is not None:
            files[path] = _dump(result)
    runtime = {
        "pyodide": {"version": PYODIDE_VERSION, "url": PYODIDE_CDN, "integrity": PYODIDE_FILES},
        "files": {path.removeprefix(CHECK_API): integrity(data) for path, data in files.items() if "/probe/" not in path},
        "lists": page_lists(document),
    }
    files[RUNTIME_JSON] = _dump(runtime)
    return files


def self_hosted_runtime(tree: dict[str, bytes], folder: Path) -> dict[str, bytes]:
    """`--pyodide DIR`: the runtime's files under assets/pyodide/ and runtime.json pointing there."""
    files = {SELF_HOSTED + name: data for name, data in runtime_files(folder).items()}
    runtime = json.loads(tree[RUNTIME_JSON])
    runtime["pyodide"]["url"] = f"../../{SELF_HOSTED}"
    files[RUNTIME_JSON] = _dump(runtime)
    return files
