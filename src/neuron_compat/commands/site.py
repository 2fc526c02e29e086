"""`neuron-compat site --out DIR`: write the complete documentation tree that mkdocs or Zensical builds."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from neuron_compat.commands.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    add_registry_argument,
    written_where,
)
from neuron_compat.loading.problems import render_problems

DEFAULT_PAGES = Path("site")
DEFAULT_OUT = Path("build/docs")


def run(args: argparse.Namespace) -> int:
    from neuron_compat.safeio.tree_write import replace_tree
    from neuron_compat.site.tree_source import build_tree

    tree = build_tree(args.registry, args.pages, processes=None)  # a large registry is drawn on two cores
    if tree.problems:
        print(render_problems(tree.problems, "text"), file=sys.stderr)
        print(f"{len(tree.problems)} problem(s) in {args.registry}: nothing written", file=sys.stderr)
        return EXIT_PROBLEMS
    if tree.error:
        print(f"error: {tree.error}", file=sys.stderr)
        return EXIT_PROBLEMS
    problem = _add_pyodide(tree.files, args.pyodide)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        replace_tree(args.out, tree.files, note={"generator": "neuron-compat site",
                                                  "source_date_epoch": tree.source_date_epoch})
    except OSError as error:
        print(f"error: {written_where(error, args.out)}", file=sys.stderr)
        return EXIT_USAGE
    if not args.quiet:
        print(f"{args.out}: {len(tree.files)} files ({tree.families} families)", file=sys.stderr)
    return EXIT_OK


def _add_pyodide(files: dict[str, bytes], pyodide: Path | None) -> str | None:
    """With --pyodide DIR: the check page's runtime served from the site (site/check_archive.py). A one-line
    problem, or None."""
    if pyodide is None:
        return None
    from neuron_compat.site.check_archive import ArchiveError, self_hosted_runtime

    try:
        files.update(self_hosted_runtime(files, pyodide))
    except (ArchiveError, OSError) as error:
        return str(error)
    return None


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "site", help="write the documentation tree (pages, JSON API, feeds, badges, assets) for mkdocs/Zensical",
        description="Validate the registry and write the complete documentation tree into --out: the hand-written "
        "pages of --pages with their generated parts filled in, a page per family and release, the matrix, "
        "coverage and stacks pages, the JSON API, feeds and badges. The tree is written beside --out and swapped "
        "in whole. Exits 1 and writes nothing if the registry has problems; exits 2 if --out is a file, a FIFO "
        "or a directory holding files this command did not write.",
    )
    add_registry_argument(parser, positional=False)
    parser.add_argument("--pages", type=Path, default=DEFAULT_PAGES,
                        help="the hand-written pages and assets (default: ./site)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="the documentation tree to write (default: ./build/docs, mkdocs.yml's docs_dir)")
    parser.add_argument("--pyodide", type=Path, metavar="DIR",
                        help="copy the Python runtime of the check page from DIR (the unpacked npm package "
                        "pyodide at the pinned version) into the site, instead of loading it from jsDelivr")
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")
    parser.set_defaults(handler=run)
