"""Arguments and exit codes shared by the subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_REGISTRY = Path("registry")

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def add_registry_argument(parser: argparse.ArgumentParser, positional: bool = True) -> None:
    if positional:
        parser.add_argument("registry", nargs="?", type=Path, default=DEFAULT_REGISTRY,
                            help="the registry directory (default: ./registry)")
    else:
        parser.add_argument("--registry", type=Path, default=DEFAULT_REGISTRY,
                            help="the registry directory (default: ./registry)")


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` via a temporary file and a rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
