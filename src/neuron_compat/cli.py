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
    "explain",
    "new",
    "add_evidence",
    "diff",
    "changelog",
    "release",
    "stale",
    "site",
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
    streams = sys.stdout, sys.stderr
    _guard_output(arguments)
    try:
        return _dispatch(arguments)
    finally:
        sys.stdout, sys.stderr = streams  # an in-process caller (a test) gets its own streams back


def _dispatch(arguments: list[str]) -> int:
    # `neuron-compat check ...` builds only the check parser: the other commands' imports stay unpaid.
    named = {module.replace("_", "-"): module for module in COMMAND_MODULES}
    parser = build_parser(only=named.get(arguments[0]) if arguments else None)
    empty = _empty_option(parser, arguments)
    if empty is not None:
        print(f"neuron-compat {arguments[0]}: error: argument {empty}: expected a value, got empty text "
              "(give a value, or leave the option out for its default)", file=sys.stderr)
        return EXIT_USAGE
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
        if error.errno not in _OUTPUT_ERRNOS and error.filename is not None:
            return _path_error(error)
        if error.errno not in _OUTPUT_ERRNOS:
            raise
        _drop_unwritten_output()
        print(f"neuron-compat: cannot write the output: {error.strerror}", file=sys.stderr)
        return EXIT_PROBLEMS


def _empty_option(parser: argparse.ArgumentParser, arguments: list[str]) -> str | None:
    """The first option given empty text, by the one rule every command shares (safeio.option_values)."""
    from neuron_compat.safeio.option_values import first_empty_option

    if not arguments:
        return None
    subparsers = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    command = subparsers[0].choices.get(arguments[0]) if subparsers else None
    if command is None:
        return None
    known = command._option_string_actions

    def takes_value(option: str) -> bool:
        action = known.get(option)
        return action is None or action.nargs != 0

    return first_empty_option(arguments[1:], takes_value)


# A path the user named that cannot even be looked at is a usage error; other OS errors on a path are problems.
_USAGE_ERRNOS = {errno.ENAMETOOLONG, errno.ENOENT, errno.ENOTDIR, errno.ELOOP, errno.EINVAL}


def _path_error(error: OSError) -> int:
    """One line for an OS error on a path (a 300-character name, a directory without read permission)."""
    path = os.fsdecode(error.filename)
    shown = path if len(path) <= 80 else f"{path[:60]}...({len(path)} characters)"
    print(f"error: {shown}: {error.strerror or error}", file=sys.stderr)
    return EXIT_USAGE if error.errno in _USAGE_ERRNOS else EXIT_PROBLEMS


def _guard_output(arguments: list[str]) -> None:
    """Every command's output: unencodable characters escaped, and hostile arguments escaped where echoed."""
    from neuron_compat.safeio.echoed_arguments import EchoEscapingStream, hostile_pieces, tolerate_unencodable

    tolerate_unencodable(sys.stdout)
    tolerate_unencodable(sys.stderr)
    pieces = hostile_pieces(arguments)
    if pieces and not isinstance(sys.stdout, EchoEscapingStream):
        sys.stdout = EchoEscapingStream(sys.stdout, pieces, escape_all=False)
    if not isinstance(sys.stderr, EchoEscapingStream):
        sys.stderr = EchoEscapingStream(sys.stderr, pieces, escape_all=True)


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
