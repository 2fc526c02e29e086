"""The `neuron-compat` command line: a thin dispatcher over `commands/`."""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from .commands.common import EXIT_OK, EXIT_USAGE

# One module per subcommand under neuron_compat.commands, in the order --help lists them.
COMMAND_MODULES = (
    "validate",
    "schema",
    "export",
    "check",
    "new",
    "add_evidence",
    "diff",
    "changelog",
    "stale",
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, just that subcommand (so `check` imports nothing the others need)."""
    parser = argparse.ArgumentParser(
        prog="neuron-compat",
        description="Does this model architecture run on AWS Neuron? Validate, export and query the registry.",
    )
    parser.add_argument("--version", action="version", version=f"neuron-compat {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES if only is None else (only,):
        importlib.import_module(f"neuron_compat.commands.{name}").register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    # `neuron-compat check ...` builds only the check parser: the other commands' imports stay unpaid.
    named = {module.replace("_", "-"): module for module in COMMAND_MODULES}
    parser = build_parser(only=named.get(arguments[0]) if arguments else None)
    args = parser.parse_args(arguments)
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
