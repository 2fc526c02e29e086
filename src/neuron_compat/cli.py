"""The `neuron-compat` command line: a thin dispatcher over `commands/`."""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Callable

from neuron_compat import __version__
from neuron_compat.commands.common import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE

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
        handler: Callable[[argparse.Namespace], int] = args.handler
        code = handler(args)
        sys.stdout.flush()  # a full disk under `> file` fails here, while it can still be reported
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _drop_unwritten_output()
        return EXIT_OK
    except OSError as error:
        if error.errno not in _OUTPUT_ERRNOS:
            raise
        _drop_unwritten_output()
        print(f"neuron-compat: cannot write the output: {error.strerror}", file=sys.stderr)
        return EXIT_PROBLEMS


# What writing to a redirected stdout can fail with (files are written through commands.common.write_or_report).
_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def _drop_unwritten_output() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush does not fail (and print) again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real stdout (an embedding, a test's StringIO)
        pass


if __name__ == "__main__":
    sys.exit(main())
