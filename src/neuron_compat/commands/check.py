"""`neuron-compat check MODEL`: does this checkpoint run on Neuron, per stack, at a Neuron release?

MODEL is a Hub repo id, a local config.json / model_index.json, or a local model folder. This command reads the
config and the registry and prints; the answer itself is check/answer_pipeline.py's `ask`, which the site's check
page runs too: text for people (check/answer_text.py) or, with --json, the answer document.
The registry answered from is chosen by registry_sources/selection.py (--registry, $NEURON_COMPAT_REGISTRY, ./registry,
the bundled snapshot) and named in the header and in the JSON's `registry`.
Exit codes: 0 supported, 3 partial, 4 unsupported or unknown, 1 bad input (file, JSON, release, stack,
registry), 2 the model or the registry URL could not be reached (repo, revision, gated, offline, network), or a
fit flag (--batch, --seq-len, --dtype, --instance, --degree, --optimizer) with a value fit cannot use (a usage error, as argparse's).
The fit (check/fit.py) follows the verdict, in the table and as `fit` in the JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from neuron_compat.commands.common import EXIT_FOR_STATUS, EXIT_PROBLEMS, EXIT_UNREACHABLE, EXIT_USAGE
from neuron_compat.safeio.option_values import argparse_type, whole_number
from neuron_compat.safeio.safe_text import one_line

if TYPE_CHECKING:
    from neuron_compat.check.answer_pipeline import Question
    from neuron_compat.check.compiled_view import CompiledRegistry
    from neuron_compat.environment.detection import Environment
    from neuron_compat.environment.paste import Paste


def _fail(message: str, code: int) -> int:
    print(f"neuron-compat check: {one_line(message)}", file=sys.stderr)
    return code


def _looks_like_path(text: str) -> bool:
    return text.startswith((".", "/", "~")) or text.endswith(".json") or "\\" in text or text.count("/") > 1


def run(args: argparse.Namespace) -> int:
    from neuron_compat.check.answer_pipeline import AnswerError, Question, ask, option_problem
    from neuron_compat.check.config_facts import ConfigError, read_local_config
    from neuron_compat.registry_sources.errors import RegistrySourceError
    from neuron_compat.registry_sources.selection import open_registry

    if args.json_schema:
        sys.stdout.write(json.dumps(_with_registry_schema(), indent=1, allow_nan=False) + "\n")
        return 0
    if args.model is None:
        return _fail("name a model: a Hub repo id, a config.json, a model folder or a model_index.json", EXIT_PROBLEMS)
    question = Question.from_options(args)
    problem = option_problem(question)  # before the registry is opened: a typo costs no compile
    if problem is not None:
        return _fail(*problem)
    paste = _read_environment(args)  # before the registry too: a file that cannot be read costs no compile
    if isinstance(paste, str):
        return _fail(paste, EXIT_PROBLEMS)
    try:
        registry, origin = open_registry(args.registry, offline=args.offline)
    except RegistrySourceError as error:
        return _fail(error.message, EXIT_UNREACHABLE if error.unreachable else EXIT_PROBLEMS)
    setup = _environment_setup(args, registry, paste, question)
    if isinstance(setup, str):
        return _fail(setup, EXIT_USAGE)
    environment, question, said = setup
    from neuron_compat.check.answer_pipeline import fit_options

    fit = fit_options(question, registry.instances)
    if isinstance(fit, str):  # before the model is read: a Hub fetch is not wasted on a bad flag
        return _fail(fit, EXIT_USAGE)

    target = args.model
    checkpoint = None
    local = Path(target).expanduser()
    try:
        if local.exists() or _looks_like_path(target):
            if args.revision:
                return _fail("--revision applies to Hub repo ids, not to local files", EXIT_PROBLEMS)
            data, source = read_local_config(local)
        else:
            from neuron_compat.check.hub_client import HubError, fetch_config
            from neuron_compat.contract.hub_ids import is_valid_repo_id

            if not is_valid_repo_id(target):
                return _fail(f"'{target}' is neither a local file or folder nor a valid Hub repo id "
                             "(namespace/name with letters, digits, '.', '_' or '-')", EXIT_PROBLEMS)
            try:
                fetched = fetch_config(target, args.revision)
            except HubError as error:
                return _fail(error.message, EXIT_UNREACHABLE if error.unreachable else EXIT_PROBLEMS)
            data = fetched.data
            checkpoint = fetched.repo_id
            commit = f", commit {fetched.commit[:12]}" if fetched.commit else ""
            cached = ", from the local cache" if fetched.from_cache else ""
            source = f"{fetched.repo_id} ({fetched.filename} at {fetched.revision}{commit}{cached})"
    except ConfigError as error:
        return _fail(str(error) if ":" in str(error) else f"{target}: {error}", EXIT_PROBLEMS)
    except OSError as error:
        return _fail(f"{target}: {error.strerror or error}", EXIT_PROBLEMS)
    try:
        answer = ask(data, registry, question, checkpoint, source=target)
    except AnswerError as error:
        return _fail(error.message, error.code)
    from neuron_compat.check.environment_answer import attach_environment

    attach_environment(answer, environment, data, question, said)  # nothing without --environment / --stack-version
    sys.stdout.write(answer.json_text(origin) if args.json else answer.text(source, origin))
    return answer.exit_code


def _read_environment(args: argparse.Namespace) -> Paste | str | None:
    """The paste of --environment (with --stack-version's package added), or the one-line reason it cannot be read;
    None when neither flag is given."""
    from neuron_compat.environment.paste import Paste, PasteError, read_paste_file

    if args.environment is None and args.stack_version is None:
        return None
    if args.environment is None:
        return Paste()
    try:
        return read_paste_file(args.environment)
    except PasteError as error:
        return f"--environment {error}"


def _environment_setup(args: argparse.Namespace, registry: CompiledRegistry, paste: Paste | None,
                       question: Question) -> tuple[Environment | None, Question, list[str]] | str:
    """The environment read, the question it answers and what a flag overrode; or --stack-version's one-line
    error."""
    if paste is None:
        return None, question, []
    from neuron_compat.check.environment_answer import environment_question
    from neuron_compat.environment.detection import detect

    given = _stack_version(args, registry, paste)
    if isinstance(given, str):
        return given
    environment = detect(registry, paste)
    question, said = environment_question(question, environment, registry)
    return environment, question, said


def _stack_version(args: argparse.Namespace, registry: CompiledRegistry, paste: Paste) -> str | None:
    """--stack-version's package added to the paste (its release is then the environment's), or the one-line
    reason the registry cannot pair it."""
    if args.stack_version is None:
        return None
    from neuron_compat.environment.pip_text import PipLine
    from neuron_compat.environment.stack_version import StackVersionError, choose_release

    try:
        choice = choose_release(registry, args.stack_version)
    except StackVersionError as error:
        return str(error)
    paste.packages.append(PipLine(choice.stack, choice.version, 0))
    paste.note_format("--stack-version")
    return None


def _with_registry_schema() -> dict[str, Any]:
    """The schema of `check --json`: the Verdict's, plus `exit_code` and `registry` (where the data came from)."""
    from pydantic import TypeAdapter

    from neuron_compat.check.registry_origin import RegistryOrigin
    from neuron_compat.check.resolver import insert_after, json_schema

    schema = json_schema()
    origin = TypeAdapter(RegistryOrigin).json_schema()
    schema.setdefault("$defs", {})["RegistryOrigin"] = origin
    exit_code = {"enum": sorted(set(EXIT_FOR_STATUS.values())), "title": "Exit Code", "type": "integer"}
    properties = insert_after(schema["properties"], "status", {"exit_code": exit_code})
    from neuron_compat.check.fit_schema import fit_json_schema

    fit = fit_json_schema()
    schema["$defs"].update(fit.pop("$defs", {}))
    schema["$defs"]["Fit"] = fit
    properties["fit"] = {"$ref": "#/$defs/Fit"}
    from neuron_compat.check.tested_lookup import json_schema as tested_json_schema

    tested = tested_json_schema()
    schema["$defs"].update(tested["properties"]["configurations"]["items"].pop("$defs", {}))
    schema["$defs"]["TestedConfigurations"] = tested
    properties["tested_configurations"] = {"$ref": "#/$defs/TestedConfigurations"}
    from neuron_compat.check.explain import FAMILY_ISSUES_SCHEMA

    properties["known_issues"] = FAMILY_ISSUES_SCHEMA
    from neuron_compat.check.contradicted_text import JSON_SCHEMA as CONTRADICTED_SCHEMA

    properties["contradicted_by"] = CONTRADICTED_SCHEMA
    from neuron_compat.check.environment_answer import ENVIRONMENT_SCHEMA

    properties["environment"] = ENVIRONMENT_SCHEMA
    properties["registry"] = {"$ref": "#/$defs/RegistryOrigin"}
    schema["properties"] = properties
    required = list(schema.get("required", []))
    required.insert(required.index("status") + 1 if "status" in required else len(required), "exit_code")
    schema["required"] = [*required, "fit", "tested_configurations", "known_issues", "registry"]
    return schema


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "check", help="does this checkpoint run on Neuron? (Hub id, config.json, model folder, model_index.json)",
        description="Read a model's config (a Hub repo id via huggingface_hub, a local config.json or "
        "model_index.json, or a model folder) and answer per stack at a Neuron release, with the caveats "
        "that apply to this config, after what to install per hardware: the best stack x Neuron release that "
        "works, ranked by whether the stack has ended there (ended last), status (supported before partial), the "
        "stack's lifecycle (active, then beta or maintenance) and the newest release, with the stack version's own "
        "pins where its package states them, else the release's component versions. Exit codes: 0 supported, 3 partial, 4 unsupported or unknown, "
        "1 bad input, 2 the model or the registry URL could not be reached (argparse usage errors also exit 2).",
    )
    parser.add_argument("model", nargs="?", help="Hub repo id (Qwen/Qwen3-8B), config.json, model_index.json or a model folder")
    parser.add_argument("--revision", help="Hub branch, tag or commit (default: main)")
    parser.add_argument("--neuron", metavar="VERSION", help="Neuron SDK release, e.g. 2.21.0 (default: the newest)")
    parser.add_argument("--stack", help="only this stack (an id from stacks.yaml)")
    parser.add_argument("--workload", help="inference or training: the answer, table, tested runs and exit code are "
                        "about this workload only (default: both are listed, inference is the headline and the exit "
                        "code, training gets its own line)")
    parser.add_argument("--hardware", help="answer for this hardware generation only (inf1, inf2, trn1, trn2, trn3): "
                        "the answer, the fit's instances and the tested runs (default: one answer per hardware the "
                        "family has statements for, exit code of the best)")
    parser.add_argument("--task", help="the task you serve the checkpoint for, e.g. feature-extraction (default: the "
                        "one the config's class names say); decides which task-scoped constraints and notes apply")
    parser.add_argument("--environment", metavar="FILE",
                        help="answer for your environment: a file ('-': standard input) holding what you paste into "
                        "an issue: pip freeze, pip list or pip show, neuron-ls (its table, --json-output or "
                        "--output-format json), apt list of the Neuron packages and/or a Neuron container image URI. Its Neuron release answers for --neuron, its "
                        "instance for --instance and --hardware (a flag you give wins); the text starts with a "
                        "'Your environment' block and --json adds `environment` (release, release_candidates, "
                        "packages, instance, mismatches)")
    parser.add_argument("--stack-version", metavar="STACK==VERSION", dest="stack_version",
                        help="a stack's own version, e.g. optimum-neuron==0.3.0: answers at the Neuron release it "
                        "pairs with (stacks.yaml versions, else the releases that list it), as --environment does")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON (the site's check page gives the same)")
    parser.add_argument("--json-schema", action="store_true", help="print the JSON Schema of the --json output and exit")
    parser.add_argument(
        "--registry", metavar="DIR|FILE|URL",
        help="answer from this registry: a registry directory, a compiled registry .json, or the https URL of a "
        "published api/registry.json (cached by data version). Default: $NEURON_COMPAT_REGISTRY, else ./registry "
        "when the working directory holds one, else the snapshot bundled with neuron-compat")
    parser.add_argument("--offline", action="store_true",
                        help="with a registry URL: answer from the cached copy, without the network")
    fit = parser.add_argument_group(
        "fit", "an estimate of weights + KV cache against each instance's device memory (activations and compiler "
        "buffers are not counted)")
    fit.add_argument("--batch", type=argparse_type(whole_number, signed=True), metavar="N", help="batch size of the KV-cache estimate (default: 1)")
    fit.add_argument("--seq-len", type=argparse_type(whole_number, signed=True), metavar="N", dest="seq_len",
                     help="tokens per sequence of the KV-cache estimate (default: 4096)")
    fit.add_argument("--dtype", metavar="DTYPE",
                     help="weight dtype: fp32, bf16, fp16, fp8, int8 or int4 (default: the config's, else bf16); "
                     "the KV cache shares it, at bf16 for int8/int4")
    fit.add_argument("--instance", metavar="NAME",
                     help="only this instance (a name from registry/instances.yaml, e.g. inf2.xlarge; default: all)")
    fit.add_argument("--degree", type=argparse_type(whole_number, signed=True), metavar="N",
                     help="fit at this tensor-parallel degree (default: one a vendor documents for this checkpoint "
                     "or size on the instance, else one a tested run uses, else the estimate: the smallest that "
                     "divides the attention heads and leaves a margin)")
    fit.add_argument("--optimizer", metavar="NAME",
                     help="with --workload training: adamw-mixed (default: fp32 master weights and moments), "
                     "adamw-fp32 or sgd")
    parser.set_defaults(handler=run)
