"""`neuron-compat validate`: check the registry and print every problem; with --fix, first make the fixes that
are purely mechanical (releases put oldest first), under the registry's lock, written atomically and only over
the bytes the fix was made from."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from neuron_compat.commands.common import EXIT_OK, EXIT_PROBLEMS, add_registry_argument
from neuron_compat.loading.problems import FORMATS, render_problems


def run(args: argparse.Namespace) -> int:
    from neuron_compat.rules.validation import validate_registry

    if args.fix and not _fix(args.registry):
        return EXIT_PROBLEMS
    result = validate_registry(args.registry)
    warned = f" and {len(result.warnings)} warning(s)" if result.warnings else ""
    if result.problems:
        print(render_problems(result.problems + result.warnings, args.format))
        if args.format == "text":
            print(f"{len(result.problems)} problem(s){warned} in {args.registry}", file=sys.stderr)
        return EXIT_PROBLEMS
    registry = result.registry
    statements = sum(len(f.support) for f in registry.families)
    if args.format == "json":
        print(render_problems(result.warnings, "json") if result.warnings else "[]")
        return EXIT_OK
    if result.warnings and args.warnings:
        print(render_problems(result.warnings, args.format))
    counted = ""
    if result.warnings:
        counted = f", {len(result.warnings)} warning(s)" + ("" if args.warnings else " (list them with --warnings)")
    print(f"ok: {len(registry.families)} families, {statements} statements, {len(registry.stacks)} stacks, "
          f"{len(registry.releases)} releases (newest {registry.newest_release}){counted}")
    return EXIT_OK


def _fix(root: Path) -> bool:
    """Put releases.yaml's releases oldest first when catalogue-order says they are not and the data allows it by
    moving whole lines (said on stderr either way). False when the registry cannot be locked or the write failed."""
    from neuron_compat.commands.common import written_where
    from neuron_compat.contributing.file_snapshot import ChangedWhileRunning, read_snapshot, unchanged_text
    from neuron_compat.contributing.registry_lock import RegistryLockError, registry_locked
    from neuron_compat.contributing.release_order import NotMechanical, ordered_releases_text
    from neuron_compat.contributing.shadow_registry import validate_with_changes
    from neuron_compat.loading.loader import RELEASES_FILE
    from neuron_compat.loading.yaml_reader import display_path
    from neuron_compat.rules.validation import validate_registry
    from neuron_compat.safeio.atomic_write import write_atomically

    path = root / RELEASES_FILE
    shown = display_path(path)
    try:
        with registry_locked(root):
            snapshot = read_snapshot(path)
            before = validate_registry(root).problems
            out_of_order = [p for p in before if p.rule == "catalogue-order" and p.file == shown
                            and "comes after" in p.message]
            if snapshot is None or not out_of_order:
                return True
            try:
                raw, text, line_ending, bom = unchanged_text(path, snapshot)
                ordered = ordered_releases_text(text)
            except ChangedWhileRunning:
                print(f"error: {shown} changed while validate --fix ran; nothing written: run it again", file=sys.stderr)
                return False
            except NotMechanical as why:
                print(f"{shown}: not fixed: {why}", file=sys.stderr)
                return True
            if ordered is None:
                return True
            written = bom + ordered.replace("\n", line_ending)
            after = validate_with_changes(root, {RELEASES_FILE: written})
            if len(after) > len(before) - len(out_of_order) or any(
                    p.rule == "catalogue-order" and "comes after" in p.message for p in after):
                print(f"{shown}: not fixed: putting the releases in order would not clear what it should",
                      file=sys.stderr)
                return True
            try:
                write_atomically(path, written, unchanged_from=raw)
            except OSError as error:
                print(f"error: {written_where(error, path)}", file=sys.stderr)
                return False
    except RegistryLockError as error:
        print(f"error: {error}", file=sys.stderr)
        return False
    print(f"fixed {shown}: releases put oldest first ({len(out_of_order)} were out of place)", file=sys.stderr)
    return True


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "validate", help="check every registry file; print each problem as path:line:col: field: message",
        description="Check the registry: YAML, schema and cross-file rules. Prints every problem and exits 1 "
        "if there is any (with the warnings), else prints a one-line summary, the warnings counted in it, and exits 0. "
        "Warnings (e.g. a release without the component versions a recommendation pins) never change the exit "
        "status; on a registry without problems --warnings lists them (the json format always does).",
    )
    add_registry_argument(parser)
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), github (workflow annotations on the lines), or json")
    parser.add_argument("--fix", action="store_true",
                        help="first fix what is purely mechanical: releases.yaml's releases put oldest first (whole "
                        "lines moved, nothing else changed; written atomically, never over an edit made meanwhile)")
    parser.add_argument("--warnings", action="store_true",
                        help="list each warning (file:line:col) before the summary; without it they are counted")
    parser.set_defaults(handler=run)
