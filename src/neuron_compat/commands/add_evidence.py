"""`neuron-compat add-evidence FAMILY ...`: record a verified result without hand-editing YAML.

`add-evidence configuration ...` records a tested configuration instead (add_configuration.py).
"""

from __future__ import annotations

import argparse
import datetime as dt
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path

from neuron_compat.commands.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    add_registry_argument,
    write_registry_edit,
)
from neuron_compat.contract.vocabulary import Attention, Dtype, Hardware, SourceKind, Workload
from neuron_compat.contributing.registry_lock import RegistryLockError, registry_locked
from neuron_compat.safeio.option_values import argparse_type, iso_date


class _UsageError(ValueError):
    pass


def _choices(values: list[str] | None, allowed: list[str], option: str) -> tuple[str, ...]:
    """Split comma lists ('bf16,fp8') and check each value against the vocabulary."""
    result: list[str] = []
    for value in values or []:
        for item in (part.strip() for part in value.split(",")):
            if not item:
                continue
            if item not in allowed:
                close = difflib.get_close_matches(item, allowed, n=1)
                hint = f"did you mean '{close[0]}'? " if close else ""
                raise _UsageError(f"{option} {item}: not a known value ({hint}known: {', '.join(allowed)})")
            if item not in result:
                result.append(item)
    return tuple(result)


def run(args: argparse.Namespace) -> int:
    from neuron_compat.contributing.new_family import ScaffoldError, check_family_id
    from neuron_compat.loading.yaml_reader import display_path

    root: Path = args.registry
    try:
        check_family_id(args.family)  # `new`'s rule: an id like ../stacks would name another registry file
        dtypes = _choices(args.dtype, [d.value for d in Dtype], "--dtype")
        attention = _choices(args.attention, [a.value for a in Attention], "--attention")
        if args.instance is None and args.hardware is None:
            raise _UsageError("give --instance (e.g. trn2.48xlarge) or --hardware (inf2, trn1, trn2, ...)")
        if not args.url.startswith("https://"):
            raise _UsageError(f"--url {args.url}: must be an https:// link to the log, gist, notebook or page")
    except (_UsageError, ScaffoldError) as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE

    if not root.is_dir():
        print(f"error: {display_path(root)}: registry directory not found (pass --registry)", file=sys.stderr)
        return EXIT_USAGE
    try:
        with registry_locked(root):  # read, validate and write as one step: concurrent runs take turns
            hardware = _hardware(args, root)
            if isinstance(hardware, int):
                return hardware
            return _record(args, root, dtypes, attention, hardware)
    except RegistryLockError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_PROBLEMS


def _hardware(args: argparse.Namespace, root: Path) -> str | int:
    """The run's hardware: --hardware, or what instances.yaml says --instance is (the mapping `check` reads too).

    An instance instances.yaml does not list, or one whose hardware is not --hardware, is a bad option (exit 2);
    a broken instances.yaml is a registry problem (exit 1).
    """
    from neuron_compat.contributing.evidence_edit import UnknownInstance, hardware_of_instance
    from neuron_compat.loading.loader import INSTANCES_FILE, load_instances
    from neuron_compat.loading.problems import render_problems
    from neuron_compat.loading.yaml_reader import display_path

    if args.instance is None:
        return str(args.hardware)
    instances, problems = load_instances(root)
    if problems:
        print(render_problems(problems, "text"), file=sys.stderr)
        print(f"error: {display_path(root / INSTANCES_FILE)} has problems; fix them first (neuron-compat validate), "
              "then add the evidence", file=sys.stderr)
        return EXIT_PROBLEMS
    try:
        hardware = hardware_of_instance(instances, args.instance)
    except UnknownInstance as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.hardware is not None and args.hardware != hardware:
        print(f"error: --hardware {args.hardware} does not match --instance {args.instance} (instances.yaml: "
              f"{hardware})", file=sys.stderr)
        return EXIT_USAGE
    return hardware


def _record(args: argparse.Namespace, root: Path, dtypes: tuple[str, ...], attention: tuple[str, ...],
            hardware: str) -> int:
    from neuron_compat.contributing.edit_transaction import EditRefused, EditTransaction
    from neuron_compat.contributing.evidence_edit import Evidence, EvidenceError, NothingToDo, record_evidence
    from neuron_compat.loading.loader import FAMILIES_DIR
    from neuron_compat.loading.yaml_reader import display_path

    path = root / FAMILIES_DIR / f"{args.family}.yaml"
    if not path.is_file():
        print(f"error: {display_path(path)} not found; start the family with `neuron-compat new {args.family} "
              "--from-config config.json`", file=sys.stderr)
        return EXIT_PROBLEMS
    evidence = Evidence(
        stack=args.stack, workload=args.workload, release=args.release, hardware=hardware, url=args.url,
        verified=args.verified or dt.date.today(), kind=args.kind, title=args.title, by=args.by,
        instance=args.instance, dtypes=dtypes, attention=attention, stack_version=args.stack_version,
    )
    try:
        edit = EditTransaction(root, f"{FAMILIES_DIR}/{path.name}", "the evidence")
        shown = edit.shown
        family = edit.registry.family_by_id.get(args.family)
        if family is None:
            raise EditRefused(f"{shown} has problems; fix them first (neuron-compat validate), then add the evidence")
        text = edit.text()
        try:
            change = record_evidence(edit.registry, family, text, evidence)
        except NothingToDo as done:
            print(f"{shown}: {done}")
            return EXIT_OK
        except EvidenceError as error:
            raise EditRefused(f"error: {shown}: {error}") from None
        written = edit.propose(change.text)
    except EditRefused as refused:
        print("\n".join(refused.lines), file=sys.stderr)
        return EXIT_PROBLEMS

    for action in change.actions:
        print(f"{shown}: {action}")
    if args.dry_run:
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(keepends=True), change.text.splitlines(keepends=True), f"a/{shown}", f"b/{shown}"))
        print("(dry run: nothing written)")
        return EXIT_OK
    return write_registry_edit(path, written, edit.raw, shown)  # under the lock


class _RoutingParser(argparse.ArgumentParser):
    """`add-evidence FAMILY ...` (a statement) or `add-evidence configuration ...` (a tested configuration).

    The word `configuration` in the family's place (the first argument that is not an option or an option's
    value) hands the rest of the arguments to the configuration parser (add_configuration.py).
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        arguments = list(sys.argv[1:] if args is None else args)
        position = self._positional_index(arguments)
        if position is not None and arguments[position] == CONFIGURATION_WORD:
            from neuron_compat.commands.add_configuration import build_parser

            rest = arguments[:position] + arguments[position + 1:]
            return build_parser(f"{self.prog} {CONFIGURATION_WORD}").parse_known_args(rest, namespace)
        return super().parse_known_args(arguments, namespace)

    def _positional_index(self, arguments: list[str]) -> int | None:
        skip = False
        for index, argument in enumerate(arguments):
            if skip:
                skip = False
            elif argument == "--":
                return index + 1 if index + 1 < len(arguments) else None
            elif argument.startswith("-") and len(argument) > 1:
                action = self._option_string_actions.get(argument)
                skip = action is not None and action.nargs != 0 and "=" not in argument
            else:
                return index
        return None


CONFIGURATION_WORD = "configuration"


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser_class = commands._parser_class
    commands._parser_class = _RoutingParser  # this one subcommand routes `configuration` to its own parser
    try:
        parser = commands.add_parser(
            "add-evidence", help="record a verified result in a family file, or a tested configuration",
            description="Record one verified result in registry/families/FAMILY.yaml: adds the source to the "
            "statement that already covers the release (with any new dtype/attention), or ends an 'unknown' "
            "statement and starts a supported one, or adds a new supported statement from --release on. Keeps "
            "comments and key order, and writes nothing that would fail `neuron-compat validate`.",
            epilog="To record a tested configuration (a checkpoint run on one instance, its outcome and measured "
            "values) in a file of its own under registry/configurations/reported/ instead: `neuron-compat add-evidence configuration "
            "--help`.",
        )
    finally:
        commands._parser_class = parser_class
    parser.add_argument("family", help="family id (the file name without .yaml), e.g. llama")
    parser.add_argument("--stack", required=True, help="stack id from stacks.yaml, e.g. optimum-neuron")
    parser.add_argument("--workload", choices=[w.value for w in Workload], default="inference")
    parser.add_argument("--release", required=True, metavar="VERSION", help="Neuron SDK release used, e.g. 2.21.0")
    parser.add_argument("--instance", help="instance type used, a name from registry/instances.yaml, e.g. trn2.48xlarge "
                        "(sets the hardware instances.yaml gives it)")
    parser.add_argument("--hardware", choices=[h.value for h in Hardware], help="hardware, when no --instance is given")
    parser.add_argument("--dtype", action="append", metavar="DTYPE", help="dtype(s) used: bf16, fp16, fp8, ... (repeatable or comma list)")
    parser.add_argument("--attention", action="append", metavar="IMPL",
                        help="attention implementation(s) used: sdpa, eager, nki-flash, native, ...")
    parser.add_argument("--url", required=True, help="https link to the log, gist, notebook or page that shows the run")
    parser.add_argument("--title", help="one-line description of the source (default: 'Run on INSTANCE with Neuron R')")
    parser.add_argument("--by", metavar="HANDLE", help="who ran it (GitHub handle)")
    parser.add_argument("--kind", choices=[SourceKind.REPRODUCIBLE_RUN.value, SourceKind.COMMUNITY_REPORT.value],
                        default=SourceKind.REPRODUCIBLE_RUN.value, help="reproducible-run (default) or community-report")
    parser.add_argument("--verified", type=argparse_type(iso_date), metavar="YYYY-MM-DD", help="date of the run (default: today)")
    parser.add_argument("--stack-version", metavar="VERSION",
                        help="the stack's own version, for stacks with a version line (e.g. optimum-neuron 0.0.27)")
    parser.add_argument("--dry-run", action="store_true", help="print the diff; write nothing")
    add_registry_argument(parser, positional=False)
    parser.set_defaults(handler=run)
