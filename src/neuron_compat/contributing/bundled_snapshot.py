"""The snapshot the package ships (`data/registry.json` and its index), compiled from a source tree's registry/.

`scripts/bundle_registry.py` writes or checks it; `neuron-compat new` and `add-evidence` rewrite it after
changing the registry it is compiled from (`refresh_after_edit`), so a contributor's change cannot leave it
stale. The snapshot is the same document as the site's api/registry.json, data version included.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from neuron_compat.check.bundled_index import index_text
from neuron_compat.loading.problems import Problem
from neuron_compat.loading.yaml_reader import display_path
from neuron_compat.publishing.registry_document import dumps, registry_to_json
from neuron_compat.rules.validation import validate_registry
from neuron_compat.safeio.atomic_write import write_atomically

SCRIPT = "python scripts/bundle_registry.py"
SNAPSHOT_IN_TREE = Path("src") / "neuron_compat" / "data" / "registry.json"
INDEX_IN_TREE = Path("src") / "neuron_compat" / "data" / "registry.index.json"


@dataclass(frozen=True)
class SourceTree:
    """A checkout of this project: pyproject.toml, registry/ and the package's data folder under src/."""

    root: Path

    @property
    def registry(self) -> Path:
        return self.root / "registry"

    @property
    def snapshot(self) -> Path:
        return self.root / SNAPSHOT_IN_TREE

    @property
    def index(self) -> Path:
        return self.root / INDEX_IN_TREE

    @classmethod
    def holding(cls, registry: Path) -> SourceTree | None:
        """The checkout whose registry/ `registry` is (its snapshot compiled from it), else None."""
        root = registry.resolve().parent
        tree = cls(root)
        if registry.resolve().name != "registry" or not (root / "pyproject.toml").is_file():
            return None
        return tree if tree.snapshot.is_file() else None


def running_tree() -> SourceTree | None:
    """The checkout the running package is imported from (an editable install or PYTHONPATH=src), else None."""
    package = Path(__file__).resolve().parents[1]  # <checkout>/src/neuron_compat in a checkout
    tree = SourceTree(package.parents[1])
    is_checkout = (tree.root / "pyproject.toml").is_file() and package == tree.root / "src" / "neuron_compat"
    return tree if is_checkout and tree.registry.is_dir() else None


def compile_registry(registry: Path) -> tuple[str | None, list[Problem]]:
    """The snapshot text `registry` compiles to, or None and the problems when it does not validate."""
    result = validate_registry(registry)
    if result.problems:
        return None, list(result.problems)
    return dumps(registry_to_json(result.registry)), []


def snapshot_files(tree: SourceTree, text: str) -> dict[Path, str]:
    """The snapshot and its index (the byte spans of that same text)."""
    return {tree.snapshot: text, tree.index: index_text(text)}


def stale_files(tree: SourceTree, text: str) -> list[Path]:
    """The files of `snapshot_files` whose committed content differs."""
    return [path for path, wanted in snapshot_files(tree, text).items()
            if not path.is_file() or path.read_text(encoding="utf-8") != wanted]


def write_snapshot(tree: SourceTree, text: str) -> list[Path]:
    """Write what is stale (atomically); the paths written."""
    stale = stale_files(tree, text)
    wanted = snapshot_files(tree, text)
    for path in stale:
        write_atomically(path, wanted[path])
    return stale


def refresh_after_edit(registry: Path) -> str | None:
    """After `new`/`add-evidence` wrote into `registry`: the line to print about the bundled snapshot, or None.

    The registry of the running package's own checkout: the snapshot is rebuilt here (the same code as
    scripts/bundle_registry.py). Another checkout's registry/ (this package installed from elsewhere): only
    a reminder, since this package's code may not compile it as that checkout's would. Any other registry
    has no snapshot to keep."""
    tree = SourceTree.holding(registry)
    if tree is None:
        return None
    own = running_tree()
    if own is None or own.root != tree.root:
        return (f"note: the bundled snapshot {display_path(tree.snapshot)} is now out of date; run `{SCRIPT}` in that checkout "
                "and commit it with your change")
    text, problems = compile_registry(tree.registry)
    if text is None:
        return (f"note: the bundled snapshot was not rebuilt: the registry has {len(problems)} problem(s) elsewhere "
                f"(neuron-compat validate); fix them, then run `{SCRIPT}`")
    written = write_snapshot(tree, text)
    if not written:
        return None
    return f"updated the bundled snapshot ({', '.join(display_path(p) for p in written)}): commit it too"
