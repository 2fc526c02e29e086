"""`neuron-compat export --json`: the whole validated registry as JSON."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from neuron_compat.commands.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    add_registry_argument,
    write_or_report,
)
from neuron_compat.loading.problems import render_problems


def run(args: argparse.Namespace) -> int:
    from neuron_compat.publishing.registry_document import dumps, registry_to_json
    from neuron_compat.rules.validation import validate_registry

    result = validate_registry(args.registry)
    if result.problems:
        print(render_problems(result.problems, "text"), file=sys.stderr)
        print(f"{len(result.problems)} problem(s): nothing exported", file=sys.stderr)
        return EXIT_PROBLEMS
    text = dumps(registry_to_json(result.registry))
    if args.output:
        if not write_or_report(args.output, text):
            return EXIT_USAGE
    else:
        sys.stdout.write(text)
    return EXIT_OK


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "export", help="print the whole validated registry as JSON",
        description="Validate the registry and print it as JSON with the same field names as the YAML. "
        "Exits 1 and writes nothing if the registry has problems; exits 2 if -o names a directory, a device or "
        "a file in a directory that does not exist.",
    )
    add_registry_argument(parser)
    parser.add_argument("--json", action="store_true", help="JSON output (the only format; accepted for clarity)")
    parser.add_argument("-o", "--output", type=Path, help="write to this file (atomically) instead of stdout")
    parser.set_defaults(handler=run)
