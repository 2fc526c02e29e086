"""Arguments and exit codes shared by the subcommands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from neuron_compat.check.exit_codes import (
    EXIT_FOR_STATUS,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_UNREACHABLE,
    EXIT_USAGE,
)
from neuron_compat.safeio.atomic_write import WriteRefused, write_atomically

__all__ = ["EXIT_FOR_STATUS", "EXIT_OK", "EXIT_PROBLEMS", "EXIT_UNREACHABLE", "EXIT_USAGE", "write_or_report",
           "write_registry_edit", "written_where"]

DEFAULT_REGISTRY = Path("registry")


def write_or_report(path: Path, text: str, unchanged_from: bytes | None = None) -> bool:
    """Write `text` to `path` atomically (atomic_write); on failure print one `error:` line and return False.

    `unchanged_from`: the bytes the edit was made from; a file that no longer holds them is not replaced.

    What every command that writes a file does: the caller returns its own exit status when this is False.
    """
    try:
        write_atomically(path, text, unchanged_from)
    except OSError as error:
        print(f"error: {written_where(error, path)}", file=sys.stderr)
        return False
    return True


def write_registry_edit(path: Path, text: str, raw: bytes | None, shown: str) -> int:
    """The last step of an add-evidence edit (contributing.edit_transaction), under the registry's lock: replace
    the file (unless it changed since `raw` was read) and say so. An exit status."""
    if not write_or_report(path, text, unchanged_from=raw):  # just before the rename
        return EXIT_PROBLEMS
    print(f"wrote {shown}; check it with `git diff` and `neuron-compat validate`")
    return EXIT_OK


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

