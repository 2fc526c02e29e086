"""`neuron-compat new FAMILY`: scaffold registry/families/FAMILY.yaml that already passes validation."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from neuron_compat.commands.add_evidence import CONFIGURATION_WORD
from neuron_compat.commands.common import (
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    add_registry_argument,
    write_or_report,
)
from neuron_compat.contributing.registry_lock import RegistryLockError, registry_locked
from neuron_compat.safeio.option_values import argparse_type, iso_date

if TYPE_CHECKING:
    from neuron_compat.contributing.new_family import ConfigFacts, UnknownStatement
    from neuron_compat.loading.loaded_registry import Registry


def _parse_stack(text: str) -> tuple[str, str | None]:
    stack, _, workload = text.partition(":")
    return stack, (workload or None)


RESERVED_FAMILY_IDS = frozenset({CONFIGURATION_WORD})
"""Family ids that `add-evidence` reads as one of its own words (a subcommand), never as a family."""


def run(args: argparse.Namespace) -> int:
    from neuron_compat.contributing.new_family import ScaffoldError, check_family_id, read_config
    from neuron_compat.loading.loader import FAMILIES_DIR
    from neuron_compat.loading.yaml_reader import display_path

    root: Path = args.registry
    if args.family in RESERVED_FAMILY_IDS:
        print(f"error: '{args.family}' is a word of `neuron-compat add-evidence` (add-evidence {args.family} ...), "
              "so a family of that id could never be reached by it; choose another id", file=sys.stderr)
        return EXIT_USAGE
    try:
        check_family_id(args.family)
        facts = read_config(args.from_config) if args.from_config else None
    except ScaffoldError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    target = root / FAMILIES_DIR / f"{args.family}.yaml"
    shown = display_path(target)
    if not root.is_dir():
        print(f"error: {display_path(root)}: registry directory not found (pass --registry)", file=sys.stderr)
        return EXIT_USAGE
    if target.exists():
        print(f"error: {shown} already exists; nothing written. To record a result for it, use "
              f"`neuron-compat add-evidence {args.family} ...`", file=sys.stderr)
        return EXIT_PROBLEMS

    model_types = _unique([*(args.model_type or []), *(facts.model_types if facts else [])])
    architectures = _unique([*(args.architecture or []), *(facts.architectures if facts else [])])
    pipelines = facts.pipelines if facts else []
    if not model_types and not pipelines:
        print("error: give --model-type (the config.json model_type) or --from-config config.json", file=sys.stderr)
        return EXIT_USAGE

    try:
        with registry_locked(root):  # read, validate and write as one step: a concurrent `new` or add-evidence waits
            status = _scaffold_locked(args, root, target, model_types, architectures, pipelines, facts)
    except RegistryLockError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_PROBLEMS
    return status


def _scaffold_locked(args: argparse.Namespace, root: Path, target: Path, model_types: list[str],
                     architectures: list[str], pipelines: list[str], facts: ConfigFacts | None) -> int:
    """Under the registry's lock: read the registry, build the scaffold, validate the registry as it would be with
    it, and write it. What another writer saved before the lock was taken is what this run sees."""
    from neuron_compat.contributing.new_family import (
        FamilyScaffold,
        default_name,
        tasks_from_architectures,
    )
    from neuron_compat.contributing.shadow_registry import validate_with_changes
    from neuron_compat.loading.loader import FAMILIES_DIR, load_registry
    from neuron_compat.loading.problems import render_problems
    from neuron_compat.loading.yaml_reader import display_path

    shown = display_path(target)
    if target.exists() or target.is_symlink():
        print(f"error: {shown} appeared while this ran; nothing written", file=sys.stderr)
        return EXIT_PROBLEMS
    registry = load_registry(root).registry
    if _model_type_taken(registry, root, model_types):
        return EXIT_PROBLEMS
    unknowns = _unknown_statements(registry, args.stack or [])
    if unknowns is None:
        return EXIT_USAGE

    today = args.today or dt.date.today()
    scaffold = FamilyScaffold(
        family_id=args.family,
        name=args.name or default_name(args.family),
        model_types=model_types,
        architectures=architectures,
        pipelines=pipelines,
        tasks=tasks_from_architectures(architectures),
        vendor=args.vendor,
        examples=args.example or [],
        remote_code=args.remote_code or bool(facts and facts.remote_code),
        unknowns=unknowns,
        config_name=args.from_config.name if args.from_config else None,
    )
    text = scaffold.render(today)
    problems = validate_with_changes(root, {f"{FAMILIES_DIR}/{args.family}.yaml": text})
    if problems:
        print(render_problems(problems, "text"), file=sys.stderr)
        print(f"{len(problems)} problem(s) with the registry as it would be; {shown} not written", file=sys.stderr)
        if any(p.rule == "upstream-model-types" and p.file == shown for p in problems):
            print("hint: if the checkpoints need trust_remote_code (a model_type transformers does not have), "
                  "run again with --remote-code", file=sys.stderr)
        return EXIT_PROBLEMS
    if not write_or_report(target, text):
        return EXIT_PROBLEMS
    print(f"wrote {shown}: {len(model_types)} model type(s), {len(unknowns)} unknown statement(s)")
    print(f"next: record a result with `neuron-compat add-evidence {args.family} --stack ... --release ... "
          "--instance ... --url ...` (see CONTRIBUTING.md)")
    return EXIT_OK


def _model_type_taken(registry: Registry, root: Path, model_types: list[str]) -> bool:
    """Whether a model type already belongs to a family (said on stderr)."""
    from neuron_compat.loading.loader import FAMILIES_DIR
    from neuron_compat.loading.yaml_reader import display_path

    for model_type in model_types:
        for family in registry.families:
            if model_type in family.model_types:
                print(f"error: model_type '{model_type}' already belongs to family '{family.id}' "
                      f"({display_path(root / FAMILIES_DIR / (family.id + '.yaml'))}); record results there with "
                      f"`neuron-compat add-evidence {family.id} ...`", file=sys.stderr)
                return True
    return False


def _unknown_statements(registry: Registry, stack_options: list[str]) -> list[UnknownStatement] | None:
    """The `unknown` statements that `--stack STACK[:WORKLOAD]` asks for, or None (said on stderr)."""
    from neuron_compat.contributing.new_family import UnknownStatement

    unknowns: list[UnknownStatement] = []
    for text in stack_options:
        stack_id, workload = _parse_stack(text)
        stack = registry.stack_by_id.get(stack_id)
        if stack is None:
            known = ", ".join(sorted(registry.stack_by_id)) or "none"
            print(f"error: --stack {stack_id}: not a stack in stacks.yaml (known: {known})", file=sys.stderr)
            return None
        workloads = [workload] if workload else list(stack.workloads)
        for name in workloads:
            if name not in stack.workloads:
                print(f"error: --stack {text}: {stack.id} does not do {name} (it does: {', '.join(stack.workloads)})",
                      file=sys.stderr)
                return None
            unknowns.append(UnknownStatement(stack, name))
    return unknowns


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(values))


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "new", help="scaffold a new family file (registry/families/FAMILY.yaml)",
        description="Write registry/families/FAMILY.yaml with the schema modeline, the model types and "
        "architectures (from --model-type or a config.json), and next steps as comments. It makes no claim: "
        "without --stack it has no statement (every stack reads as unknown); each --stack adds an 'unknown' "
        "statement sourced to that stack's docs, for stacks whose docs you checked and found silent. "
        "Refuses to overwrite, and writes nothing that would fail `neuron-compat validate`.",
    )
    parser.add_argument("family", help="the family id, which is also the file name: lowercase, e.g. qwen3")
    parser.add_argument("--model-type", action="append", metavar="TYPE",
                        help="a config.json model_type of this family (repeatable)")
    parser.add_argument("--from-config", type=Path, metavar="CONFIG",
                        help="a config.json (or its folder, or a diffusers model_index.json) to read model_type, "
                        "architectures and auto_map from")
    parser.add_argument("--architecture", action="append", metavar="CLASS", help="a config class name (repeatable)")
    parser.add_argument("--name", help="display name (default: from the id)")
    parser.add_argument("--vendor", help="who publishes the checkpoints")
    parser.add_argument("--example", action="append", metavar="REPO_ID", help="an example Hub checkpoint (repeatable)")
    parser.add_argument("--remote-code", action="store_true",
                        help="the checkpoints need trust_remote_code (set automatically when the config has auto_map)")
    parser.add_argument("--stack", action="append", metavar="STACK[:WORKLOAD]",
                        help="add an unknown statement for this stack (all its workloads, or the one named)")
    parser.add_argument("--today", type=argparse_type(iso_date), metavar="YYYY-MM-DD",
                        help="the date written as verified (default: today)")
    add_registry_argument(parser, positional=False)
    parser.set_defaults(handler=run)
