"""`neuron-compat check MODEL`: does this checkpoint run on Neuron, per stack, at a Neuron release?

MODEL is a Hub repo id, a local config.json / model_index.json, or a local model folder. The answer is a table
for people or, with --json, the `Verdict` (see check/resolver.py) that the site's check page computes too.
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
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from neuron_compat.commands.common import EXIT_FOR_STATUS, EXIT_PROBLEMS, EXIT_UNREACHABLE, EXIT_USAGE
from neuron_compat.safeio.option_values import argparse_type, whole_number
from neuron_compat.safeio.safe_text import one_line
from neuron_compat.views.inherited_capabilities import origin_label

if TYPE_CHECKING:  # imported when run, so `check --help` stays cheap
    from neuron_compat.check.compiled_view import CompiledRegistry
    from neuron_compat.check.fit import FitOptions
    from neuron_compat.check.resolver import StackAnswer, Verdict
    from neuron_compat.registry_sources.selection import RegistryOrigin


def _clean(text: object) -> str:
    """Terminal-safe text: config and registry strings never get to move the cursor or recolour the screen."""
    return one_line(str(text))


def _fail(message: str, code: int) -> int:
    print(f"neuron-compat check: {_clean(message)}", file=sys.stderr)
    return code


def _looks_like_path(text: str) -> bool:
    return text.startswith((".", "/", "~")) or text.endswith(".json") or "\\" in text or text.count("/") > 1


def _unknown_value(option: str, value: str, allowed: list[str]) -> str:
    """'unknown --workload 'infrence'; did you mean 'inference'? (allowed: inference, training)'."""
    import difflib

    close = difflib.get_close_matches(value, allowed, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return f"unknown {option} '{value}'; {hint}(allowed: {', '.join(allowed)})"


def _option_problem(args: argparse.Namespace) -> tuple[str, int] | None:
    """The one-line message (the allowed values, with a did-you-mean) and exit code 2 (usage) of a --workload,
    --hardware or --task the registry does not know, or None."""
    from neuron_compat.check.resolver import WORKLOADS
    from neuron_compat.contract.vocabulary import Task
    from neuron_compat.views.recommendation import HARDWARE_ORDER

    for option, value, allowed in (("--workload", args.workload, list(WORKLOADS)),
                                   ("--hardware", args.hardware, list(HARDWARE_ORDER)),
                                   ("--task", args.task, [t.value for t in Task])):
        if value is not None and value not in allowed:
            return (_unknown_value(option, value, allowed), EXIT_USAGE)
    return None


def run(args: argparse.Namespace) -> int:
    from neuron_compat.check.config_facts import ConfigError, facts_from_config, read_local_config
    from neuron_compat.check.resolver import ResolveError, resolve
    from neuron_compat.registry_sources.errors import RegistrySourceError
    from neuron_compat.registry_sources.selection import open_registry

    if args.json_schema:
        from neuron_compat.check.resolver import json_schema

        sys.stdout.write(json.dumps(_with_registry_schema(json_schema()), indent=1, allow_nan=False) + "\n")
        return 0
    if args.model is None:
        return _fail("name a model: a Hub repo id, a config.json, a model folder or a model_index.json", EXIT_PROBLEMS)
    problem = _option_problem(args)
    if problem is not None:
        return _fail(*problem)
    try:
        registry, origin = open_registry(args.registry, offline=args.offline)
    except RegistrySourceError as error:
        return _fail(error.message, EXIT_UNREACHABLE if error.unreachable else EXIT_PROBLEMS)
    fit_options = _fit_options(args, registry.instances)
    if isinstance(fit_options, str):
        return _fail(fit_options, EXIT_USAGE)

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
        facts = facts_from_config(data)
    except ConfigError as error:
        return _fail(str(error) if ":" in str(error) else f"{target}: {error}", EXIT_PROBLEMS)
    except OSError as error:
        return _fail(f"{target}: {error.strerror or error}", EXIT_PROBLEMS)

    try:
        verdict = resolve(facts, registry, release=args.neuron, stack=args.stack, workload=args.workload,
                          task=args.task, checkpoint=checkpoint, hardware=args.hardware)
    except ResolveError as error:
        return _fail(str(error), EXIT_PROBLEMS)

    document, tested = answer_with_tested(registry, verdict, data, fit_options, checkpoint, args.instance, args.stack)
    sys.stdout.write(_output(args.json, document, verdict, source, registry, origin, tested))
    return EXIT_FOR_STATUS[verdict.status]


def answer_with_tested(registry: CompiledRegistry, verdict: Verdict, data: object, fit_options: FitOptions,
                       checkpoint: str | None, instance: str | None, stack: str | None
                       ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The answer document (with its fit) and the tested configurations: what `check` and the check page print."""
    from neuron_compat.check.tested_lookup import named_checkpoint

    document = answer_document(verdict, data, registry.instances, [s.id for s in registry.stacks], fit_options,
                               _configurations(registry))
    return document, _tested(registry, verdict, checkpoint or named_checkpoint(data), instance, stack)


def _tested(registry: CompiledRegistry, verdict: Verdict, checkpoint: str | None, instance: str | None,
            stack: str | None) -> dict[str, Any]:
    """The tested configurations of the checkpoint (else of its family) on the instance asked for."""
    from neuron_compat.check.tested_lookup import tested_for

    family = verdict.family.id if verdict.family else None
    return tested_for(registry, checkpoint, family, instance=instance, stack=stack)


def _output(as_json: bool, document: dict[str, Any], verdict: Verdict, source: str, registry: CompiledRegistry,
            origin: RegistryOrigin, tested: dict[str, Any]) -> str:
    """`check --json`'s text (the answer document, the tested configurations and where the registry came from),
    or the table."""
    from neuron_compat.check.explain import family_issue_lines, family_issues, pin_lines

    issues = family_issues(registry.known_issues, verdict.family.id) if verdict.family else []
    if as_json:
        return json.dumps({**document, "tested_configurations": tested, "known_issues": issues,
                           "registry": asdict(origin)}, indent=1, allow_nan=False) + "\n"
    from neuron_compat.commands.check_fit_text import render_fit
    from neuron_compat.commands.check_tested_text import render_tested

    probe = registry.probe_for(verdict.model.model_type) if verdict.model.kind != "diffusers" else None
    return render_table(verdict, source, origin.describe(), probe, [*render_fit(document["fit"]), "",
                                                                   *render_tested(tested), *family_issue_lines(issues)],
                        pin_lines(issues))


def _fit_options(args: argparse.Namespace, instances: dict[str, Any] | None) -> FitOptions | str:
    """The fit flags as FitOptions, or the one-line message naming the valid values when one cannot be used."""
    from neuron_compat.check.fit import FitOptionError, FitOptions, check_options

    options = FitOptions(batch=args.batch, seq_len=args.seq_len, dtype=args.dtype, instance=args.instance,
                         stack=args.stack, workload=args.workload, optimizer=args.optimizer, degree=args.degree)
    try:
        check_options(options, instances)
    except FitOptionError as error:
        return str(error)
    return options


def verdict_document(verdict: Verdict) -> dict[str, Any]:
    """The resolver's Verdict with the command's `exit_code` after `status`: `check --json` without `registry`,
    and what the site's check page shows (it runs this code, commands/check_page.py)."""
    from neuron_compat.check.resolver import insert_after

    return insert_after(verdict.to_dict(), "status", {"exit_code": EXIT_FOR_STATUS[verdict.status]})


def answer_document(verdict: Verdict, config: object, instances: dict[str, Any] | None, stacks: list[str],
                    fit_options: FitOptions, configurations: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """`check --json` without `registry`: the verdict document and its `fit` (what the check page shows)."""
    from neuron_compat.check.fit import fit_document

    document = verdict_document(verdict)
    fit = fit_document(config, instances, fit_options, stacks, pipeline=verdict.model.kind == "diffusers",
                       verdict=document, configurations=configurations,
                       family=verdict.family.id if verdict.family else None)
    return {**document, "fit": fit}


def _configurations(registry: CompiledRegistry) -> list[dict[str, Any]]:
    from neuron_compat.check.tested_lookup import all_configurations

    return all_configurations(registry)


def _with_registry_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of `check --json`: the Verdict's, plus `exit_code` and `registry` (where the data came from)."""
    from pydantic import TypeAdapter

    from neuron_compat.check.resolver import insert_after
    from neuron_compat.registry_sources.selection import RegistryOrigin

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
    properties["registry"] = {"$ref": "#/$defs/RegistryOrigin"}
    schema["properties"] = properties
    required = list(schema.get("required", []))
    required.insert(required.index("status") + 1 if "status" in required else len(required), "exit_code")
    schema["required"] = [*required, "fit", "tested_configurations", "known_issues", "registry"]
    return schema


def _facts_line(verdict: Verdict) -> str:
    model = verdict.model
    if model.kind == "diffusers":
        parts = [f"pipeline {model.pipeline_class}"]
    else:
        parts = [f"model_type {model.model_type or '(none)'}"]
        parts += model.architectures[:2]
        if model.text_model_type:
            parts.append(f"text_config {model.text_model_type}")
        if model.dtype_raw:
            parts.append(f"dtype {model.dtype or model.dtype_raw}")
        if model.attn_implementation:
            parts.append(f"attention {model.attn_implementation}")
        if model.max_position_embeddings:
            parts.append(f"context {model.max_position_embeddings}")
        if model.sliding_window:
            parts.append(f"sliding window {model.sliding_window}")
        if model.rope_scaling:
            parts.append(f"rope {model.rope_scaling.type}")
        if model.quantization:
            parts.append(f"quantization {model.quantization.method}")
        if model.moe:
            parts.append(f"MoE {model.moe.experts} experts")
        if model.remote_code:
            parts.append("remote code")
    return " | ".join(parts)


def _values_line(answer: StackAnswer) -> str:
    """'attention: sdpa (from the stack); dtypes: bf16, fp16 (stated for this family)' for a row."""
    parts = []
    for name in ("attention", "dtypes", "quantization"):
        values, origin = getattr(answer, name), getattr(answer, f"{name}_origin")
        if values:
            parts.append(f"{name}: {', '.join(values)} ({origin_label(origin)})")
    return "; ".join(parts)


def recommendation_lines(verdict: Verdict) -> list[str]:
    """'Answer (inference):' then one line per hardware (hardware with the same line share it), and the
    alternatives under it: the answers (views.answer), scoped to --workload / --hardware, before the table."""
    from neuron_compat.views.recommendation import choice_text

    lines: list[str] = []
    for workload in dict.fromkeys(r.workload for r in verdict.recommendations):
        lines.append(f"What to install ({workload}, best first; the answer is the first line; ranking in `neuron-compat check --help`):")
        grouped: dict[tuple[str, str], list[str]] = {}
        for item in verdict.recommendations:
            if item.workload == workload:
                also = ", ".join(choice_text(choice) for choice in item.alternatives)
                grouped.setdefault((item.line, also), []).append(item.hardware)
        for (line, also), hardware in grouped.items():
            lines.append(f"  {', '.join(hardware)}: {line}")
            if also:
                lines.append(f"    else: {also}")
        lines.append("")
    return lines


def render_table(verdict: Verdict, source: str, registry: str, probe: dict[str, Any] | None = None,
                 fit_lines: list[str] | None = None, advice: list[str] | None = None) -> str:
    """The terminal form: what was read, the family, one row per statement, caveats under their row, the fit
    section (check_fit_text.render_fit), the result line and the portability probe's one line for the model type
    (machine evidence, not a verdict)."""
    lines = [f"{source}", f"  {_facts_line(verdict)}", f"  registry: {registry}"]
    if verdict.family:
        family = verdict.family
        lines.append(f"  family: {family.name} [{family.id}] (matched by {family.matched_by} {family.value})")
    lines.append(f"  Neuron release: {verdict.release}")
    if verdict.family and verdict.task:
        said = "--task" if verdict.task_from == "option" else "the config's class names"
        lines.append(f"  task: {_clean(verdict.task)} (from {said})")
    for caveat in verdict.caveats:
        lines.append(f"  ! {caveat.message}")
    lines.append("")
    lines += recommendation_lines(verdict)
    if advice:  # a release the release notes recommend for this family (known issues' pin_release)
        lines += [*advice, ""]
    if verdict.answers:
        header = ("STACK", "WORKLOAD", "HARDWARE", "VERDICT", "SINCE", "UNTIL")
        rows = [(a.stack, a.workload, ",".join(a.hardware) or "-", a.display_status,
                 a.carried.get("since") or "-", a.carried.get("until") or "-") for a in verdict.answers]
        widths = [max(len(_clean(row[i])) for row in [header, *rows]) for i in range(len(header))]
        lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
        for answer, row in zip(verdict.answers, rows, strict=True):
            lines.append("  ".join(_clean(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
            values = _values_line(answer)
            if values:
                lines.append(f"    {values}")
            for caveat in answer.caveats:
                lines.append(f"    ! {caveat.message}")
        lines.append("")
    if verdict.no_statement:
        lines.append(f"No statement for: {', '.join(verdict.no_statement)}")
    if fit_lines:
        lines.extend([*fit_lines, ""])
    lines.append(f"Result: {verdict.summary} (exit {EXIT_FOR_STATUS[verdict.status]})")
    if probe is not None:
        lines.extend(_probe_lines(verdict, probe))
    return "\n".join(_clean(line) for line in lines) + "\n"


def _probe_lines(verdict: Verdict, probe: dict[str, Any]) -> list[str]:
    """The portability probe, one line per captured workload, each under the stack workload it stands beside
    (only the workloads of the rows shown, when there are rows)."""
    from neuron_compat.views.probe_reading import CAVEAT, STACK_WORKLOAD, workload_line, workloads_for

    shown = {str(a.workload) for a in verdict.answers} or {"inference", "training"}
    picked = [(name, w) for name, w in workloads_for(probe) if STACK_WORKLOAD[name] in shown]
    if not picked:
        return []
    lines = [f"Probe ({verdict.model.model_type}; {CAVEAT}):"]
    lines.extend(f"  {STACK_WORKLOAD[name]} · {workload_line(name, w)}" for name, w in picked)
    return lines


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "check", help="does this checkpoint run on Neuron? (Hub id, config.json, model folder, model_index.json)",
        description="Read a model's config (a Hub repo id via huggingface_hub, a local config.json or "
        "model_index.json, or a model folder) and answer per stack at a Neuron release, with the caveats "
        "that apply to this config, after what to install per hardware: the best stack x Neuron release that "
        "works, ranked by whether the stack has ended there (ended last), status (supported before partial), the "
        "stack's lifecycle (active, then beta or maintenance) and the newest release, with the release's "
        "component versions. Exit codes: 0 supported, 3 partial, 4 unsupported or unknown, "
        "1 bad input, 2 the model or the registry URL could not be reached (argparse usage errors also exit 2).",
    )
    parser.add_argument("model", nargs="?", help="Hub repo id (Qwen/Qwen3-8B), config.json, model_index.json or a model folder")
    parser.add_argument("--revision", help="Hub branch, tag or commit (default: main)")
    parser.add_argument("--neuron", metavar="VERSION", help="Neuron SDK release, e.g. 2.21.0 (default: the newest)")
    parser.add_argument("--stack", help="only this stack (an id from stacks.yaml)")
    parser.add_argument("--workload", help="inference or training (default: both; the answer, table and exit code "
                        "are about this workload only)")
    parser.add_argument("--hardware", help="answer for this hardware generation only (inf1, inf2, trn1, trn2, trn3; "
                        "default: one answer per hardware the family has statements for, exit code of the best)")
    parser.add_argument("--task", help="the task you serve the checkpoint for, e.g. feature-extraction (default: the "
                        "one the config's class names say); decides which task-scoped constraints and notes apply")
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
                     help="fit at this tensor-parallel degree (default: one a tested configuration uses, else the "
                     "smallest that divides the attention heads and leaves a margin)")
    fit.add_argument("--optimizer", metavar="NAME",
                     help="with --workload training: adamw-mixed (default: fp32 master weights and moments), "
                     "adamw-fp32 or sgd")
    parser.set_defaults(handler=run)
