"""`neuron-compat check MODEL`: does this checkpoint run on Neuron, per stack, at a Neuron release?

MODEL is a Hub repo id, a local config.json / model_index.json, or a local model folder. The answer is a table
for people or, with --json, the `Verdict` (see resolve.py) that the site's check page computes too.
The registry answered from is chosen by registry_source.py (--registry, $NEURON_COMPAT_REGISTRY, ./registry,
the bundled snapshot) and named in the header and in the JSON's `registry`.
Exit codes: 0 supported, 3 partial, 4 unsupported or unknown, 1 bad input (file, JSON, release, stack,
registry), 2 the model or the registry URL could not be reached (repo, revision, gated, offline, network).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from neuron_compat.commands.common import EXIT_FOR_STATUS, EXIT_PROBLEMS, EXIT_UNREACHABLE
from neuron_compat.safeio.safe_text import one_line
from neuron_compat.views.inherited_capabilities import origin_label

if TYPE_CHECKING:  # imported when run, so `check --help` stays cheap
    from neuron_compat.check.resolver import StackAnswer, Verdict


def _clean(text: object) -> str:
    """Terminal-safe text: config and registry strings never get to move the cursor or recolour the screen."""
    return one_line(str(text))


def _fail(message: str, code: int) -> int:
    print(f"neuron-compat check: {_clean(message)}", file=sys.stderr)
    return code


def _looks_like_path(text: str) -> bool:
    return text.startswith((".", "/", "~")) or text.endswith(".json") or "\\" in text or text.count("/") > 1


def run(args: argparse.Namespace) -> int:
    from neuron_compat.check.config_facts import ConfigError, facts_from_config, read_local_config
    from neuron_compat.check.resolver import WORKLOADS, ResolveError, resolve
    from neuron_compat.registry_sources.errors import RegistrySourceError
    from neuron_compat.registry_sources.selection import open_registry

    if args.json_schema:
        from neuron_compat.check.resolver import json_schema

        sys.stdout.write(json.dumps(_with_registry_schema(json_schema()), indent=1) + "\n")
        return 0
    if args.model is None:
        return _fail("name a model: a Hub repo id, a config.json, a model folder or a model_index.json", EXIT_PROBLEMS)
    if args.workload is not None and args.workload not in WORKLOADS:
        return _fail(f"unknown workload '{args.workload}'; use inference or training", EXIT_PROBLEMS)
    try:
        registry, origin = open_registry(args.registry, offline=args.offline)
    except RegistrySourceError as error:
        return _fail(error.message, EXIT_UNREACHABLE if error.unreachable else EXIT_PROBLEMS)

    target = args.model
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
            commit = f", commit {fetched.commit[:12]}" if fetched.commit else ""
            cached = ", from the local cache" if fetched.from_cache else ""
            source = f"{fetched.repo_id} ({fetched.filename} at {fetched.revision}{commit}{cached})"
        facts = facts_from_config(data)
    except ConfigError as error:
        return _fail(str(error) if ":" in str(error) else f"{target}: {error}", EXIT_PROBLEMS)
    except OSError as error:
        return _fail(f"{target}: {error.strerror or error}", EXIT_PROBLEMS)

    try:
        verdict = resolve(facts, registry, release=args.neuron, stack=args.stack, workload=args.workload)
    except ResolveError as error:
        return _fail(str(error), EXIT_PROBLEMS)

    if args.json:
        document = {**verdict_document(verdict), "registry": asdict(origin)}
        sys.stdout.write(json.dumps(document, indent=1) + "\n")
    else:
        probe = registry.probe_for(verdict.model.model_type) if verdict.model.kind != "diffusers" else None
        sys.stdout.write(render_table(verdict, source, origin.describe(), probe))
    return EXIT_FOR_STATUS[verdict.status]


def verdict_document(verdict: Verdict) -> dict[str, Any]:
    """The resolver's Verdict with the command's `exit_code` after `status`: `check --json` without `registry`,
    and what the site's check page shows (check_resolve.js checkDocument)."""
    from neuron_compat.check.resolver import insert_after

    return insert_after(verdict.to_dict(), "status", {"exit_code": EXIT_FOR_STATUS[verdict.status]})


def _with_registry_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of `check --json`: the Verdict's, plus `exit_code` and `registry` (where the data came from)."""
    from pydantic import TypeAdapter

    from neuron_compat.check.resolver import insert_after
    from neuron_compat.registry_sources.selection import RegistryOrigin

    origin = TypeAdapter(RegistryOrigin).json_schema()
    schema.setdefault("$defs", {})["RegistryOrigin"] = origin
    exit_code = {"enum": sorted(set(EXIT_FOR_STATUS.values())), "title": "Exit Code", "type": "integer"}
    properties = insert_after(schema["properties"], "status", {"exit_code": exit_code})
    properties["registry"] = {"$ref": "#/$defs/RegistryOrigin"}
    schema["properties"] = properties
    required = list(schema.get("required", []))
    required.insert(required.index("status") + 1 if "status" in required else len(required), "exit_code")
    schema["required"] = [*required, "registry"]
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


def render_table(verdict: Verdict, source: str, registry: str, probe: dict[str, Any] | None = None) -> str:
    """The terminal form: what was read, the family, one row per statement, caveats under their row,
    and the portability probe's one line for the model type (machine evidence, not a verdict)."""
    lines = [f"{source}", f"  {_facts_line(verdict)}", f"  registry: {registry}"]
    if verdict.family:
        family = verdict.family
        lines.append(f"  family: {family.name} [{family.id}] (matched by {family.matched_by} {family.value})")
    lines.append(f"  Neuron release: {verdict.release}")
    for caveat in verdict.caveats:
        lines.append(f"  ! {caveat.message}")
    lines.append("")
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
        "that apply to this config. Exit codes: 0 supported, 3 partial, 4 unsupported or unknown, "
        "1 bad input, 2 the model or the registry URL could not be reached (argparse usage errors also exit 2).",
    )
    parser.add_argument("model", nargs="?", help="Hub repo id (Qwen/Qwen3-8B), config.json, model_index.json or a model folder")
    parser.add_argument("--revision", help="Hub branch, tag or commit (default: main)")
    parser.add_argument("--neuron", metavar="VERSION", help="Neuron SDK release, e.g. 2.21.0 (default: the newest)")
    parser.add_argument("--stack", help="only this stack (an id from stacks.yaml)")
    parser.add_argument("--workload", help="inference or training (default: both)")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON (the site's check page gives the same)")
    parser.add_argument("--json-schema", action="store_true", help="print the JSON Schema of the --json output and exit")
    parser.add_argument(
        "--registry", metavar="DIR|FILE|URL",
        help="answer from this registry: a registry directory, a compiled registry .json, or the https URL of a "
        "published api/registry.json (cached by data version). Default: $NEURON_COMPAT_REGISTRY, else ./registry "
        "when the working directory holds one, else the snapshot bundled with neuron-compat")
    parser.add_argument("--offline", action="store_true",
                        help="with a registry URL: answer from the cached copy, without the network")
    parser.set_defaults(handler=run)
