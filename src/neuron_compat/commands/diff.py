"""`neuron-compat diff BASE [HEAD]`: the change in published claims between two registry directories."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from neuron_compat.commands.common import DEFAULT_REGISTRY, EXIT_OK, EXIT_PROBLEMS

if TYPE_CHECKING:  # imported when run, so `neuron-compat check` never pays for them
    from neuron_compat.loading.loaded_registry import Registry
    from neuron_compat.views.claim_diff import RegistryDiff

FORMATS = ("text", "markdown")


class RegistryProblems(Exception):
    """A registry to compare does not validate; the problems were printed."""


def load_for_diff(path: Path, label: str, missing_is_empty: bool = False,
                  shown_as: str | None = None) -> Registry:
    """The validated registry at `path` (an empty one if it does not exist and `missing_is_empty`).

    `shown_as` replaces `path` in the problems printed (e.g. 'v1:registry' for a tree read from git).
    """
    from neuron_compat.loading.problems import render_problems
    from neuron_compat.loading.yaml_reader import display_path
    from neuron_compat.rules.validation import validate_registry
    from neuron_compat.views.claim_diff import empty_registry

    if missing_is_empty and not path.exists():
        return empty_registry()
    result = validate_registry(path)
    if result.problems:
        problems = result.problems
        if shown_as is not None:
            prefix = display_path(path)
            problems = [replace(p, file=shown_as + p.file[len(prefix):]) if p.file.startswith(prefix) else p
                        for p in problems]
        print(render_problems(problems, "text"), file=sys.stderr)
        print(f"{label} registry ({shown_as or path}) has {len(result.problems)} problem(s); run `neuron-compat validate` "
              "on it: no diff", file=sys.stderr)
        raise RegistryProblems(label)
    return result.registry


def render(diff: RegistryDiff, output_format: str, title: str) -> str:
    return diff.render_markdown(title) if output_format == "markdown" else diff.render_text()


def run(args: argparse.Namespace) -> int:
    from neuron_compat.views.claim_diff import diff_registries

    try:
        before = load_for_diff(args.base, "base", missing_is_empty=args.missing_base_is_empty)
        after = load_for_diff(args.head, "head")
    except RegistryProblems:
        return EXIT_PROBLEMS
    sys.stdout.write(render(diff_registries(before, after), args.format, "Changes to the published claims"))
    return EXIT_OK


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "diff", help="what changed in the published claims between two registry directories, in plain words",
        description="Compare two registry directories (e.g. the pull request's base and head) and print the "
        "changes to the published claims: per family/stack/workload/hardware status changes with the releases "
        "they apply to, then statement details (dtypes, attention, constraints, notes, sources), families, "
        "releases and stacks. Exits 0 (also when nothing changed), 1 if either registry has problems.",
    )
    parser.add_argument("base", type=Path, help="the registry before (e.g. a checkout of the base branch)")
    parser.add_argument("head", type=Path, nargs="?", default=DEFAULT_REGISTRY, help="the registry after (default: ./registry)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="text (default) or markdown (for a PR comment)")
    parser.add_argument("--missing-base-is-empty", action="store_true",
                        help="treat a BASE that does not exist as an empty registry (the first pull request)")
    parser.set_defaults(handler=run)
