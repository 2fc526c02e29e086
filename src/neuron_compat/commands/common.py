"""Arguments and exit codes shared by the subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..atomic_write import WriteRefused, write_atomically
from .exit_codes import EXIT_FOR_STATUS, EXIT_OK, EXIT_PROBLEMS, EXIT_UNREACHABLE, EXIT_USAGE

__all__ = ["EXIT_FOR_STATUS", "EXIT_OK", "EXIT_PROBLEMS", "EXIT_UNREACHABLE", "EXIT_USAGE", "write_atomically",
           "written_where"]

DEFAULT_REGISTRY = Path("registry")



def written_where(error: OSError, path: Path) -> str:
    """One line for a failed write: WriteRefused already names the path; other OSErrors get it added."""
    if isinstance(error, WriteRefused):
        return str(error)
    return f"{path}: cannot write it: {error.strerror or error}"


def add_registry_argument(parser: argparse.ArgumentParser, positional: bool = True) -> None:
    if positional:
        parser.add_argument("registry", nargs="?", type=Path, default=DEFAULT_REGISTRY,
                            help="the registry directory (default: ./registry)")
    else:
        parser.add_argument("--registry", type=Path, default=DEFAULT_REGISTRY,
                            help="the registry directory (default: ./registry)")

