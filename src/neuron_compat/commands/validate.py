"""`neuron-compat validate`: check the registry and print every problem."""

from __future__ import annotations

import argparse
import sys

from neuron_compat.commands.common import EXIT_OK, EXIT_PROBLEMS, add_registry_argument
from neuron_compat.loading.problems import FORMATS, render_problems


def run(args: argparse.Namespace) -> int:
    from neuron_compat.rules.validation import validate_registry

    result = validate_registry(args.registry)
    if result.problems:
        print(render_problems(result.problems, args.format))
        if args.format == "text":
            print(f"{len(result.problems)} problem(s) in {args.registry}", file=sys.stderr)
        return EXIT_PROBLEMS
    registry = result.registry
    statements = sum(len(f.support) for f in registry.families)
    if args.format == "json":
        print("[]")
    else:
        print(
            f"ok: {len(registry.families)} families, {statements} statements, "
            f"{len(registry.stacks)} stacks, {len(registry.releases)} releases (newest {registry.newest_release})"
        )
    return EXIT_OK


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "validate", help="check every registry file; print each problem as path:line:col: field: message",
        description="Check the registry: YAML, schema and cross-file rules. Prints every problem and exits 1 "
        "if there is any, else prints a one-line summary and exits 0.",
    )
    add_registry_argument(parser)
    parser.add_argument("--format", choices=FORMATS, default="text",
                        help="text (default), github (workflow annotations on the lines), or json")
    parser.set_defaults(handler=run)
