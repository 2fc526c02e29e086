"""`neuron-compat schema`: the JSON Schema of the registry files, for editors."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..schema import SCHEMA_MODELS
from .common import EXIT_OK


def run(args: argparse.Namespace) -> int:
    from ..json_schema import schema_text, write_schemas

    if args.out is None:
        print(schema_text(args.kind), end="")
        return EXIT_OK
    for path in write_schemas(args.out):
        print(f"wrote {path}")
    return EXIT_OK


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "schema", help="print or write the JSON Schema of family / releases / stacks / registry files",
        description="Print the JSON Schema of one file kind, or write all of them to a directory with --out "
        "(registry/schemas is what the files' yaml-language-server modelines point at).",
    )
    parser.add_argument("--kind", choices=tuple(SCHEMA_MODELS), default="family")
    parser.add_argument("--out", type=Path, help="write family/releases/stacks/registry .schema.json files into this directory")
    parser.set_defaults(handler=run)
