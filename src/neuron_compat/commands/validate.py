"""`neuron-compat validate`: check the registry and print every problem."""

from __future__ import annotations

import argparse
import sys

from neuron_compat.commands.common import EXIT_OK, EXIT_PROBLEMS, add_registry_argument
from neuron_compat.loading.problems import FORMATS, render_problems


def run(args: argparse.Namespace) -> int:
    from neuron_compat.rules.validation import validate_registry

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
    parser.add_argument("--warnings", action="store_true",
                        help="list each warning (file:line:col) before the summary; without it they are counted")
    parser.set_defaults(handler=run)
