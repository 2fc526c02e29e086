"""`neuron-compat schema`: the JSON Schemas of the registry files, for editors (with the registry's catalogue)."""

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
from neuron_compat.contract.json_schema import ALL_SCHEMA_MODELS
from neuron_compat.contract.schema_rules import Catalogue


def _catalogue(registry: Path) -> Catalogue | None:
    """The catalogue of the registry at `registry`, or None (problems printed) when its releases or stacks do not load."""
    from neuron_compat.contract.json_schema import catalogue_of
    from neuron_compat.loading.loaded_registry import RELEASES_KEY, STACKS_KEY
    from neuron_compat.loading.loader import load_registry
    from neuron_compat.loading.problems import render_problems

    result = load_registry(registry)
    loaded = result.registry
    if RELEASES_KEY in loaded.broken or STACKS_KEY in loaded.broken or not loaded.releases or not loaded.stacks:
        catalogue_problems = [p for p in result.problems if Path(p.file).name in ("releases.yaml", "stacks.yaml")]
        if catalogue_problems:
            print(render_problems(catalogue_problems, "text"))
        print(f"error: {registry}: the schemas list its releases and stacks; fix releases.yaml and stacks.yaml "
              "first (`neuron-compat validate`), or pass --generic", file=sys.stderr)
        return None
    return catalogue_of(loaded.releases, loaded.stacks, loaded.transformers)


def run(args: argparse.Namespace) -> int:
    from neuron_compat.contract.json_schema import editor_schema_text, schema_path, schema_text

    catalogue = None
    if not args.generic:
        catalogue = _catalogue(args.registry)
        if catalogue is None:
            return EXIT_PROBLEMS

    def text(kind: str) -> str:
        return schema_text(kind) if args.generic else editor_schema_text(kind, catalogue)

    if args.out is None:
        print(text(args.kind), end="")
        return EXIT_OK
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = "exists and is not a directory" if isinstance(error, FileExistsError) else error.strerror or error
        print(f"error: {args.out}: cannot write the schemas there: {reason}", file=sys.stderr)
        return EXIT_USAGE
    for kind in ALL_SCHEMA_MODELS:
        path = schema_path(args.out, kind)
        if not write_or_report(path, text(kind)):
            return EXIT_USAGE
        print(f"wrote {path}")
    return EXIT_OK


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "schema", help="print or write the JSON Schema of family / releases / stacks / registry files",
        description="Print the JSON Schema of one file kind, or write all of them to a directory with --out "
        "(registry/schemas is what the files' yaml-language-server modelines point at). The schemas carry the "
        "single-file rules and the registry's catalogue (releases, stacks, stack versions, upstream model types) "
        "for completion; --generic writes the catalogue-free schemas the site publishes. Exits 1 if the "
        "registry's releases.yaml or stacks.yaml do not load, 2 if --out names a file, or a schema file there "
        "is a directory, a device or a FIFO.",
    )
    parser.add_argument("--kind", choices=tuple(ALL_SCHEMA_MODELS), default="family")
    parser.add_argument("--out", type=Path, help="write family/releases/stacks/registry .schema.json files into this directory")
    add_registry_argument(parser, positional=False)
    parser.add_argument("--generic", action="store_true",
                        help="the schemas without the editor rules and the registry's catalogue (as the site publishes them)")
    parser.set_defaults(handler=run)
