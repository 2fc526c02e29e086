"""`neuron-compat schema`: the JSON Schema of the registry files, for editors."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from neuron_compat.commands.common import EXIT_OK, EXIT_USAGE, write_or_report
from neuron_compat.contract.models import SCHEMA_MODELS


def run(args: argparse.Namespace) -> int:
    from neuron_compat.contract.json_schema import schema_path, schema_text

    if args.out is None:
        print(schema_text(args.kind), end="")
        return EXIT_OK
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = "exists and is not a directory" if isinstance(error, FileExistsError) else error.strerror or error
        print(f"error: {args.out}: cannot write the schemas there: {reason}", file=sys.stderr)
        return EXIT_USAGE
    for kind in SCHEMA_MODELS:
        path = schema_path(args.out, kind)
        if not write_or_report(path, schema_text(kind)):
            return EXIT_USAGE
        print(f"wrote {path}")
    return EXIT_OK


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "schema", help="print or write the JSON Schema of family / releases / stacks / registry files",
        description="Print the JSON Schema of one file kind, or write all of them to a directory with --out "
        "(registry/schemas is what the files' yaml-language-server modelines point at). Exits 2 if --out "
        "names a file, or a schema file there is a directory, a device or a FIFO.",
    )
    parser.add_argument("--kind", choices=tuple(SCHEMA_MODELS), default="family")
    parser.add_argument("--out", type=Path, help="write family/releases/stacks/registry .schema.json files into this directory")
    parser.set_defaults(handler=run)
