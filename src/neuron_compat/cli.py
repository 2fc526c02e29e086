"""The `neuron-compat` command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__
from .problems import FORMATS, render_problems

DEFAULT_REGISTRY = Path("registry")

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def _add_registry_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "registry", nargs="?", type=Path, default=DEFAULT_REGISTRY,
        help="the registry directory (default: ./registry)",
    )


def cmd_validate(args: argparse.Namespace) -> int:
    from .validation import validate_registry

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


def cmd_schema(args: argparse.Namespace) -> int:
    from .json_schema import schema_text, write_schemas

    if args.out is None:
        print(schema_text(args.kind), end="")
        return EXIT_OK
    for path in write_schemas(args.out):
        print(f"wrote {path}")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from .export import dumps, registry_to_json
    from .validation import validate_registry

    result = validate_registry(args.registry)
    if result.problems:
        print(render_problems(result.problems, "text"), file=sys.stderr)
        print(f"{len(result.problems)} problem(s): nothing exported", file=sys.stderr)
        return EXIT_PROBLEMS
    text = dumps(registry_to_json(result.registry))
    if args.output:
        tmp = args.output.with_name(args.output.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(args.output)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="neuron-compat",
        description="Does this model architecture run on AWS Neuron? Validate, export and query the registry.",
    )
    parser.add_argument("--version", action="version", version=f"neuron-compat {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    validate = commands.add_parser(
        "validate", help="check every registry file; print each problem as path:line:col: field: message",
        description="Check the registry: YAML, schema and cross-file rules. Prints every problem and exits 1 "
        "if there is any, else prints a one-line summary and exits 0.",
    )
    _add_registry_argument(validate)
    validate.add_argument("--format", choices=FORMATS, default="text",
                          help="text (default), github (workflow annotations on the lines), or json")
    validate.set_defaults(handler=cmd_validate)

    schema = commands.add_parser(
        "schema", help="print or write the JSON Schema of family / releases / stacks files",
        description="Print the JSON Schema of one file kind, or write all of them to a directory with --out.",
    )
    schema.add_argument("--kind", choices=("family", "releases", "stacks"), default="family")
    schema.add_argument("--out", type=Path, help="write family/releases/stacks .schema.json files here")
    schema.set_defaults(handler=cmd_schema)

    export = commands.add_parser(
        "export", help="print the whole validated registry as JSON",
        description="Validate the registry and print it as JSON with the same field names as the YAML. "
        "Exits 1 and writes nothing if the registry has problems.",
    )
    _add_registry_argument(export)
    export.add_argument("--json", action="store_true", help="JSON output (the only format; accepted for clarity)")
    export.add_argument("-o", "--output", type=Path, help="write to this file (atomically) instead of stdout")
    export.set_defaults(handler=cmd_export)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
