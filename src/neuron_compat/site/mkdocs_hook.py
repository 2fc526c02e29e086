"""Optional mkdocs hook: `mkdocs serve` regenerates the documentation tree before each rebuild.

The build itself needs no hook: `neuron-compat site --out build/docs` writes the whole tree and mkdocs (or
Zensical, which runs no hooks) builds it as plain files. This hook only adds what a live preview needs:
- under `mkdocs serve`, before every build, the tree is regenerated from registry/ and site/ with
  `update_tree` (only changed files are written, so the watcher sees one change, not thousands), and the
  registry folder is watched; an invalid registry fails that rebuild with validate's messages;
- `mkdocs serve` does not watch the tree itself: it is regenerated from what is watched (registry/, site/,
  the templates), so an edit there costs one rebuild, not a second one for the files the regeneration wrote;
- for any build, SOURCE_DATE_EPOCH defaults to the data's newest date recorded in the tree's manifest, so
  the engine's sitemap dates come from the data rather than the clock.

The registry folder is NEURON_COMPAT_REGISTRY if set, else `registry` beside mkdocs.yml; the hand-written
pages are `site` beside mkdocs.yml (relative values are taken relative to mkdocs.yml).

`docs_dir(...)` is called by mkdocs.yml itself (a YAML tag, read by mkdocs and Zensical alike, before any hook
can run): on a fresh clone, where build/docs does not exist yet, it writes the tree as `neuron-compat site
--out build/docs` would, or stops with one line naming that command.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file
from neuron_compat.safeio.tree_write import MANIFEST, update_tree

REGISTRY_ENV = "NEURON_COMPAT_REGISTRY"
MAX_MANIFEST_BYTES = 16 * 1024 * 1024  # the manifest lists a few thousand paths
log = logging.getLogger("mkdocs.hooks.neuron_compat")

_state: dict[str, Any] = {"command": None, "written": None}
"""Read through `_persistent()`: mkdocs executes this file anew at every config load (each serve rebuild)."""


def _persistent() -> dict[str, Any]:
    from neuron_compat.site import mkdocs_hook as package_copy  # imported once, so it outlives the reloads

    return package_copy._state


def _base(config: Any) -> Path:
    return Path(config.config_file_path).resolve().parent if config.config_file_path else Path.cwd()


def registry_root(config: Any) -> Path:
    configured = Path(os.environ.get(REGISTRY_ENV) or "registry")
    return configured if configured.is_absolute() else (_base(config) / configured)


class _QuietRedirects(logging.Filter):
    """mkdocs' development server logs every response but a 200 as a WARNING, the redirects it makes on purpose
    included (`/` to the path of site_url, a folder to its slash): those are logged at DEBUG instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.WARNING and str(record.msg).endswith(" code 302"):
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)
        return True


QUIET_REDIRECTS = _QuietRedirects()


def on_startup(command: str, dirty: bool) -> None:
    _persistent()["command"] = command
    if command == "serve":
        logging.getLogger("mkdocs.livereload").addFilter(_persistent_filter())


def _persistent_filter() -> logging.Filter:
    from neuron_compat.site import mkdocs_hook as package_copy  # one filter, however often this file is run

    return package_copy.QUIET_REDIRECTS


def on_config(config: Any) -> Any:
    try:
        manifest = json.loads(read_regular_file(Path(config.docs_dir) / MANIFEST, MAX_MANIFEST_BYTES))
        os.environ.setdefault("SOURCE_DATE_EPOCH", str(int(manifest["source_date_epoch"])))
    except (UnreadableFile, OSError, ValueError, KeyError, TypeError):  # a FIFO or a device as well: never a hang
        pass  # not a tree written by `neuron-compat site`: the engine's defaults apply
    return config


def on_pre_build(config: Any) -> None:
    state = _persistent()
    if state["command"] != "serve":
        return
    if state["written"] and state["written"] == str(Path(config.docs_dir).resolve()):
        state["written"] = None  # docs_dir() wrote this tree moments ago, in this process: one generation, not two
        return
    _regenerate(config)


def _regenerate(config: Any) -> None:
    from neuron_compat.site.tree_source import build_tree

    root = registry_root(config)
    tree = build_tree(root, _base(config) / "site")
    if tree.problems:
        lines = "\n".join(problem.format() for problem in tree.problems)
        raise PluginError(f"the registry at {root} has {len(tree.problems)} problem(s); the site was not rebuilt:\n{lines}")
    if tree.error:
        raise PluginError(tree.error)
    try:
        changed = update_tree(Path(config.docs_dir), tree.files,
                              note={"generator": "neuron-compat site", "source_date_epoch": tree.source_date_epoch})
    except OSError as error:  # WriteRefused included: a tampered manifest, a symlink or a foreign file in the tree
        raise PluginError(f"the documentation tree was not updated: {error}") from None
    log.info("neuron-compat: %d families, %d files changed in %s", tree.families, len(changed), config.docs_dir)


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    root = registry_root(config)
    watched = {Path(p).resolve() for p in config.watch}
    if root.resolve() not in watched:
        server.watch(str(root))
    # The tree is an output of the rebuild (written before it from the watched sources): watching it too made
    # every edit rebuild twice, the second time for the files the first one rewrote.
    try:
        server.unwatch(config.docs_dir)
    except (KeyError, ValueError, AttributeError):
        pass
    return server


def docs_dir(variable: str, default: str) -> str:
    """mkdocs.yml's docs_dir: the environment `variable` if set, else `default`. When that is the default
    tree and it does not exist yet (a fresh clone, run from the folder of mkdocs.yml), the tree is written
    first; if that cannot be done, one line names the command and the engine stops."""
    chosen = os.environ.get(variable) or default
    path = Path(chosen)
    if path.is_dir() or (not path.is_absolute() and not Path("mkdocs.yml").is_file()):
        return chosen  # a relative path from elsewhere: the engine resolves it beside mkdocs.yml and checks it
    hint = f"{chosen} does not exist: write the documentation tree first with `neuron-compat site --out {chosen}`"
    if chosen != default or not (Path("registry").is_dir() and Path("site").is_dir()):
        raise SystemExit(f"error: {hint}")
    from neuron_compat.loading.problems import render_problems
    from neuron_compat.safeio.tree_write import replace_tree
    from neuron_compat.site.tree_source import build_tree

    print(f"neuron-compat: {chosen} does not exist yet: writing it (neuron-compat site --out {chosen})",
          file=sys.stderr)
    tree = build_tree(Path("registry"), Path("site"))  # what `neuron-compat site` writes, with its messages
    if tree.problems:
        print(render_problems(tree.problems, "text"), file=sys.stderr)
    if tree.problems or tree.error:
        raise SystemExit(f"error: {tree.error or 'the registry has problems (above)'}; {hint}")
    try:
        replace_tree(path, tree.files, note={"generator": "neuron-compat site",
                                             "source_date_epoch": tree.source_date_epoch})
    except OSError as error:
        raise SystemExit(f"error: {error}; {hint}") from None
    print(f"{chosen}: {len(tree.files)} files ({tree.families} families)", file=sys.stderr)
    _state["written"] = str(path.resolve())
    return chosen
