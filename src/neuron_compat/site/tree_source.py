"""Read what the documentation tree is made of: the validated registry and the hand-written pages of site/.

`build_tree(registry_root, pages_root)` is what `neuron-compat site` and the serve hook call: validate the
registry (problems are returned, nothing is rendered), read every file under the pages folder (regular
files only, bounded), render the registry and assemble the tree (`tree.documentation_tree`).
"""

from __future__ import annotations

import calendar
import os
from dataclasses import dataclass, field
from pathlib import Path

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.problems import Problem
from neuron_compat.rules.validation import validate_registry
from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file
from neuron_compat.safeio.safe_text import one_line
from neuron_compat.site.check_archive import ArchiveError, check_page_files
from neuron_compat.site.render import render_site
from neuron_compat.site.tree import TreeContext, TreeError, documentation_tree
from neuron_compat.site.upstream import load_hub_snapshots

MAX_PAGE_BYTES = 8 * 1024 * 1024
"""A hand-written page or asset larger than this is refused (the biggest today is a 22 KB script)."""


@dataclass
class BuiltTree:
    files: dict[str, bytes] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    error: str | None = None  # a hand-written page that does not fit (one line)
    source_date_epoch: int = 0  # the newest date in the data: what engines stamp into sitemaps
    families: int = 0


def build_tree(registry_root: Path, pages_root: Path, processes: int | None = 1) -> BuiltTree:
    """`processes`: as `render.render_site` takes it (the serve hook draws in its own process; `site` lets a large
    registry use two)."""
    result = validate_registry(registry_root)
    if result.problems:
        return BuiltTree(problems=result.problems)
    try:
        handwritten = read_pages(pages_root)
        registry = result.registry
        site = render_site(registry, load_hub_snapshots(registry_root), processes)
        context = TreeContext(data_version=registry.meta.data_version if registry.meta else None,
                              newest_release=registry.newest_release)
        files = documentation_tree(site, handwritten, context)
        files.update(check_page_files(files))  # the check page's Python and data (site/check_archive.py)
    except (TreeError, ArchiveError) as error:
        return BuiltTree(error=str(error))
    return BuiltTree(files=files, source_date_epoch=data_epoch(registry), families=len(registry.families))


def read_pages(pages_root: Path) -> dict[str, bytes]:
    """Every file under `pages_root` by POSIX path (dot files and folders skipped, as the engines skip them).

    Nothing outside the pages folder is published: a symlink is read only when it resolves to a regular file
    inside the pages folder (a link to `/proc/self/environ` or to a file outside the repository is an error),
    a symlink to a folder is refused (copy the folder), and a folder that cannot be listed is an error.
    """
    if not pages_root.is_dir():
        raise TreeError(f"{pages_root}: the hand-written pages folder does not exist")
    real_root = os.path.realpath(pages_root)
    pages: dict[str, bytes] = {}
    pending = [pages_root]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted((entry for entry in listing if not entry.name.startswith(".")),
                                 key=lambda entry: entry.name)
        except OSError as error:
            raise TreeError(f"{folder}: the folder cannot be listed: {error.strerror or error}") from None
        subfolders: list[Path] = []
        for entry in entries:
            path = Path(entry.path)
            if entry.is_symlink():
                _check_link(path, real_root)
            elif entry.is_dir(follow_symlinks=False):
                subfolders.append(path)
                continue
            try:
                pages[path.relative_to(pages_root).as_posix()] = read_regular_file(path, MAX_PAGE_BYTES)
            except UnreadableFile as error:
                raise TreeError(f"{path}: cannot be read: {error}") from None
        pending.extend(reversed(subfolders))
    return dict(sorted(pages.items()))


def _check_link(path: Path, real_root: str) -> None:
    """A symlink in the pages folder is published only when it names a regular file inside that folder."""
    target = os.path.realpath(path)
    if os.path.commonpath([real_root, target]) != real_root:
        raise TreeError(f"{path}: a symlink to {one_line(target)}, outside the pages folder {real_root}; "
                        "only files inside it are published (copy the file in)")
    if os.path.isdir(target):
        raise TreeError(f"{path}: a symlink to a folder; folders are not followed (copy the folder in)")


def data_epoch(registry: Registry) -> int:
    """A build date taken from the data (newest release or verification date), for reproducible output."""
    dates = [release.date for release in registry.releases]
    dates += [source.verified for family in registry.families for statement in family.support
              for source in statement.sources]
    newest = max(dates) if dates else None
    return calendar.timegm(newest.timetuple()) if newest else 0
