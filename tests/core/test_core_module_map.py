"""The codebase keeps its own map: every module is in its package's `__init__` index and every index entry is a
module; no text names a module or file of this project that does not exist; no import alias keeps a deleted
module's name alive."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "neuron_compat"
ENTRY = re.compile(r"^- `([A-Za-z_][A-Za-z0-9_]*)`:", re.MULTILINE)
DOTTED = re.compile(r"\bneuron_compat(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
FILE = re.compile(r"(?<![\w/.-])((?:\.\./)*(?:[\w.-]+/)*[\w-]+\.(?:py|js))\b")
# Files other projects have, named in comments and sources (the transformers and huggingface_hub code a script or
# fake reads, a fixture's made-up path): not modules of this project.
OTHER_PROJECTS = {"gqa.py", "modeling_auto.py", "auto_mappings.py", "test_models.py", "tests/test_gone.py",
                  "file_download.py", "hf_api.py", "modeling_llama.py", "main.py", "src/main.py", "model_preset.py",
                  "_presets.py",
                  "auto_model.py",  # optimum-neuron's optimum/neuron/models/auto_model.py, the list of supported types
                  "train.py", "x.py", "_pb2.py"}  # made-up file names in the log suite's traceback texts
# Issue 33 replaces these with the package's own Python in the browser; their stale names go with them.
TEXT = (".py", ".md", ".toml", ".js", ".yml", ".yaml", ".html", ".cfg", ".in")


def packages() -> list[Path]:
    return sorted(init.parent for init in PACKAGE.rglob("__init__.py") if init.parent != PACKAGE)


def members(package: Path) -> set[str]:
    return ({p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
            | {p.name for p in package.iterdir() if (p / "__init__.py").is_file()})


def test_every_module_is_in_its_package_index_and_every_entry_exists():
    wrong = []
    for package in packages():
        listed = ENTRY.findall(ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or "")
        have = members(package)
        where = package.relative_to(ROOT / "src").as_posix()
        wrong += [f"{where}/__init__.py does not list `{name}`" for name in sorted(have - set(listed))]
        wrong += [f"{where}/__init__.py lists `{name}`, which is not a module there" for name in listed if name not in have]
        wrong += [f"{where}/__init__.py lists `{name}` twice" for name in set(listed) if listed.count(name) > 1]
    assert wrong == []


def tracked_text_files() -> list[str]:
    """The repository's tracked text files: never what lies around in a clone (a .venv/ inside it, build output)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout.split("\0")
    return [f for f in files if f.endswith(TEXT) and (ROOT / f).is_file()
            and not f.startswith(("registry/", "tests/fixtures/", "tests/probe/fixtures/"))]


def module_exists(dotted: str) -> bool:
    parts = dotted.split(".")
    for n in range(len(parts), 0, -1):
        base = ROOT.joinpath("src", *parts[:n])
        source = base.with_suffix(".py") if base.with_suffix(".py").is_file() else base / "__init__.py"
        if source.is_file():  # the rest must be a name the module defines: module.name or module.Class.attribute
            rest = parts[n:]
            return len(rest) <= 2 and (not rest or rest[0].startswith("__") or re.search(rf"\b{rest[0]}\b", source.read_text()) is not None)
    return False


def file_exists(reference: str, where: str, basenames: set[str], roots: set[str]) -> bool:
    parts = [part for part in reference.split("/") if part != ".."]
    if reference in OTHER_PROJECTS:
        return True
    if len(parts) == 1:
        return parts[0] in basenames
    if parts[0] not in roots:
        return True  # another project's path (transformers/..., optimum/neuron/...)
    relative = "/".join(parts)
    return any((base / relative).exists() for base in (ROOT, ROOT / "src", PACKAGE, (ROOT / where).parent,
                                                         ROOT / "site", ROOT / "site" / "assets"))


def stale_references() -> list[str]:
    files = tracked_text_files()
    basenames = {Path(f).name for f in files} | {p.name for p in PACKAGE.rglob("*.py")}
    roots = {"src", "scripts", "tests", "site", "assets", "javascripts", "build_backend", ".ci", "neuron_compat",
             "registry"} | {p.name for p in PACKAGE.iterdir() if p.is_dir()}
    found = []
    for name in files:
        if name in ("tests/core/test_core_module_map.py",  # this file names some
                    "tests/check/test_check_archive.py"):  # builds a made-up package to test the import closure
            continue
        for number, line in enumerate((ROOT / name).read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if not name.endswith(".html"):  # in a template, `neuron_compat.x` is the page's variable, not a module
                found += [f"{name}:{number}: {m.group(0)}" for m in DOTTED.finditer(line) if not module_exists(m.group(0))]
            for m in FILE.finditer(line):
                for reference in ([m.group(1)] if not m.group(1).split("/")[0].endswith(".py")
                                  else m.group(1).split("/")):  # "a.py/b.py" names two files
                    if not file_exists(reference, name, basenames, roots):
                        found.append(f"{name}:{number}: {reference}")
    return found


def test_no_text_names_a_module_that_does_not_exist():
    assert stale_references() == []


def test_the_scan_finds_a_deleted_module(tmp_path, monkeypatch):
    assert not module_exists("neuron_compat.contributing.bundled_snapshot")
    assert module_exists("neuron_compat.check.resolver.resolve")
    assert not file_exists("textedit.py", "README.md", {"yaml_patch.py"}, {"src"})
    assert not file_exists("src/neuron_compat/compiled.py", "README.md", set(), {"src"})


def test_no_import_alias_keeps_another_name_for_a_module():
    """`from neuron_compat.x import module as other_name` reads like a module that is not there (an old name)."""
    allowed = {("src/neuron_compat/site/mkdocs_hook.py", "package_copy")}  # the hook's own module, kept across reloads
    found = []
    for path in sorted([*PACKAGE.rglob("*.py"), *(ROOT / "scripts").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]):
        name = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("neuron_compat"):
                for alias in node.names:
                    is_module = module_exists(f"{node.module}.{alias.name}") and (
                        ROOT.joinpath("src", *node.module.split("."), f"{alias.name}.py").is_file())
                    if is_module and alias.asname and alias.asname != alias.name and (name, alias.asname) not in allowed:
                        found.append(f"{name}:{node.lineno}: {alias.name} as {alias.asname}")
    assert found == []
