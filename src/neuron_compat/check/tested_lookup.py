"""The tested configurations `check` names: those that are evidence for the question asked (check/evidence_scope.py:
its workload, hardware and instance, this checkpoint or this size of its family), and apart the family's others with
why each is not. Reads the compiled document's `configurations` section."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from neuron_compat.check.checkpoint_aliases import current_name
from neuron_compat.check.compiled_view import CompiledRegistry
from neuron_compat.check.evidence_scope import (
    OTHER_LABEL,
    SIZE_RULE,
    Question,
    of_checkpoint,
    scope_of,
    where_text,
)
from neuron_compat.contract.hub_ids import checkpoint_page_folder
from neuron_compat.views.performance_series import performance_series, series_key, trend

SHOWN_LIMIT = 20
"""At most this many configurations are listed; the answer says how many more there are."""


def all_configurations(registry: CompiledRegistry) -> list[dict[str, Any]]:
    """Every configuration of every file, each with the file's `source` id as `source_file`."""
    found: list[dict[str, Any]] = []
    for file in registry.configuration_files:
        for configuration in file.get("configurations") or []:
            if isinstance(configuration, dict):
                found.append({**configuration, "source_file": file.get("source")})
    return found


def instance_hardware(registry: CompiledRegistry) -> dict[str, str]:
    """Instance type -> hardware id, from the document's instances section when it has one."""
    section = registry.document.get("instances")
    instances = section.get("instances") if isinstance(section, dict) else None
    if not isinstance(instances, list):
        return {}
    return {item["name"]: item["hardware"] for item in instances
            if isinstance(item, dict) and isinstance(item.get("name"), str) and isinstance(item.get("hardware"), str)}


def _same(left: object, right: str) -> bool:
    return isinstance(left, str) and left.casefold() == right.casefold()


def _order(c: dict[str, Any]) -> tuple[bool, bool, bool, str, str, str]:
    """This checkpoint first, then measured runs, those at a stated release before the rest, then by instance,
    date and id."""
    return (not (c.get("scope") or {}).get("this_checkpoint"), not c.get("measurements"), c.get("release") is None,
            str(c.get("instance") or ""), str(c.get("validated") or ""), str(c.get("id")))


def scope_rule(question: Question) -> str:
    """The rule the listed configurations meet, in words."""
    where = question.instance or question.hardware or "any hardware"
    size = (f"or of its family at this size ({SIZE_RULE}, from the size in the checkpoint's name)"
            if question.parameters else "(its parameters are not counted, so no other checkpoint of the family "
            "compares)")
    return f"{question.workload} runs on {where}, of this checkpoint {size}"


def tested_for(registry: CompiledRegistry, checkpoint: str | None, family: str | None, instance: str | None = None,
               stack: str | None = None, *, parameters: int | None = None, workload: str | None = None,
               hardware: str | None = None, aliases: Iterable[str] = ()) -> dict[str, Any]:
    """{matched_by, instance, hardware, workload, scope, total, configurations, other_sizes_total, other_sizes,
    compile_time, checkpoint_page}: the configurations that are evidence for the question (check/evidence_scope.py:
    this workload, hardware and instance, and this checkpoint -- by `checkpoint` or any of `aliases` -- or this
    size of `family`), and apart, under OTHER_LABEL, the checkpoint's and family's others with why each is not."""
    by_instance = instance_hardware(registry)
    asked_hardware = by_instance.get(instance) if instance else hardware
    names = frozenset(n.casefold() for n in [checkpoint, *aliases] if n)
    question = Question(names=names, family=family, parameters=parameters, workload=workload or "inference",
                        hardware=asked_hardware, instance=instance)
    candidates = all_configurations(registry)
    if stack:
        candidates = [c for c in candidates if c.get("stack") == stack]
    related = [{**c, "scope": scope_of(c, question, by_instance)} for c in candidates
               if of_checkpoint(c, names) or (family is not None and c.get("family") == family)]
    chosen = [c for c in related if c["scope"]["why_other"] is None]
    others = [c for c in related if c["scope"]["why_other"] is not None]
    matched_by = None
    if chosen:
        matched_by = "checkpoint" if any(c["scope"]["this_checkpoint"] for c in chosen) else "family"
    chosen.sort(key=_order)
    others.sort(key=lambda c: (c["scope"]["workload"] != question.workload, _order(c)))
    _with_trends(chosen[:SHOWN_LIMIT], candidates, registry)
    return {"matched_by": matched_by, "instance": instance, "hardware": asked_hardware,
            "workload": question.workload, "scope": scope_rule(question), "other_label": OTHER_LABEL,
            "total": len(chosen), "configurations": chosen[:SHOWN_LIMIT], "other_sizes_total": len(others),
            "other_sizes": others[:SHOWN_LIMIT], "compile_time": compile_time_summary(chosen, by_instance),
            "checkpoint_page": _checkpoint_page(registry, current_name(registry.section("checkpoint_aliases"),
                                                                        checkpoint) if checkpoint else None)}


def _with_trends(shown: list[dict[str, Any]], candidates: list[dict[str, Any]], registry: CompiledRegistry) -> None:
    """Give each shown configuration that is a point of a performance series (views/performance_series.py: the
    same configuration measured at two or more releases) its series as `trend`."""
    keys = {series_key(c) for c in shown}
    same = [c for c in candidates if series_key(c) in keys]
    by_key = {one.key: one for one in performance_series(same, registry.release_versions)}
    for configuration in shown:
        found = by_key.get(series_key(configuration))
        if found is not None:
            configuration["trend"] = trend(found)


def _checkpoint_page(registry: CompiledRegistry, checkpoint: str | None) -> str | None:
    found = page_id(registry, checkpoint) if checkpoint else None
    return None if found is None else checkpoint_page(found)


def page_id(registry: CompiledRegistry, hub_id: str) -> str | None:
    """The spelling of `hub_id` the site has a page under (a family example first, then a tested configuration's Hub
    id, as site.tested_data.checkpoint_pages orders them; case aside, as `check` matches ids), or None."""
    for family in registry.document.get("families") or []:
        if isinstance(family, dict):
            for example in family.get("examples") or []:
                if _same(example, hub_id):
                    return str(example)
    for c in all_configurations(registry):
        if _same(c.get("hub_id"), hub_id):
            return str(c["hub_id"])
    return None


def checkpoint_names(registry: CompiledRegistry, checkpoint: str | None) -> list[str]:
    """The checkpoint's Hub id and every name the registry records as the same checkpoint (its aliases, both
    ways); empty without a checkpoint."""
    if not checkpoint:
        return []
    from neuron_compat.check.checkpoint_aliases import same_checkpoint

    return same_checkpoint(registry.section("checkpoint_aliases"), checkpoint)


def checkpoint_page(hub_id: str) -> str:
    """The site path of a checkpoint's page, checkpoints/<owner>/<name>/ (contract.hub_ids.checkpoint_page_folder,
    as site.pages.checkpoints writes it)."""
    return checkpoint_page_folder(hub_id) + "/"


def named_checkpoint(config: object) -> str | None:
    """The Hub id a local config.json names itself by (`_name_or_path`), when it is one."""
    from neuron_compat.contract.hub_ids import is_valid_repo_id

    named = config.get("_name_or_path") if isinstance(config, dict) else None
    return named if isinstance(named, str) and "/" in named and is_valid_repo_id(named) else None


def compile_time_summary(configurations: list[dict[str, Any]],
                         by_instance: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Per instance (or hardware, instance not stated): the median compile time in seconds over the configurations
    given that measured one, n, and the runs it is of (id, checkpoint, seconds)."""
    where_of: dict[str, list[tuple[float, dict[str, Any]]]] = {}
    for c in configurations:
        for m in c.get("measurements") or []:
            if isinstance(m, dict) and m.get("metric") == "compile-time" and isinstance(m.get("value"), (int, float)):
                seconds = float(m["value"]) * (60.0 if m.get("unit") == "min" else 1.0)
                where_of.setdefault(where_text(c, by_instance or {}), []).append((seconds, c))
    summary = []
    for name, measured in sorted(where_of.items()):
        ordered = sorted(value for value, _ in measured)
        middle = len(ordered) // 2
        median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
        runs = [{"id": c.get("id"), "checkpoint": c.get("checkpoint"), "seconds": value,
                 "tensor_parallel": (c.get("parallelism") or {}).get("tensor")} for value, c in measured]
        summary.append({"instance": name, "median_s": round(median, 2), "n": len(ordered),
                        "min_s": ordered[0], "max_s": ordered[-1], "runs": runs})
    return summary


def json_schema() -> dict[str, Any]:
    """The JSON Schema of `tested_for`'s answer (check --json's `tested_configurations`)."""
    from pydantic import TypeAdapter

    from neuron_compat.contract.tested_configurations import TestedConfiguration

    item = TypeAdapter(TestedConfiguration).json_schema()
    item.setdefault("properties", {})["source_file"] = {"type": "string", "description": "The configurations file's source id."}
    item["properties"]["scope"] = {
        "type": "object", "description": "How the run was read against the question (check/evidence_scope.py).",
        "properties": {
            "workload": {"enum": ["inference", "training"]},
            "workload_from": {"type": "string", "description": "'source', or how it was read when not recorded."},
            "hardware": {"type": ["string", "null"], "description": "Its instance's hardware, else the one its "
                         "source names, else null (not stated)."},
            "hardware_from": {"type": ["string", "null"]},
            "this_checkpoint": {"type": "boolean", "description": "A run of the checkpoint asked about (any of its names)."},
            "why_other": {"type": ["string", "null"], "description": "Why it is not evidence for the question "
                          "(null: it is)."}},
        "required": ["workload", "workload_from", "hardware", "hardware_from", "this_checkpoint", "why_other"]}
    item["properties"]["trend"] = {
        "type": "object", "description": "Present when this configuration was measured at two or more releases (a "
        "performance series, views/performance_series.py): each metric's value per release, oldest first, with the "
        "configuration and source of each point.",
        "properties": {
            "configuration": {"type": "string"}, "setting": {"type": ["string", "null"]},
            "releases": {"type": "array", "items": {"type": "string"}},
            "metrics": {"type": "array", "items": {"type": "object", "properties": {
                "metric": {"type": "string"}, "unit": {"type": "string"},
                "points": {"type": "array", "items": {"type": "object", "properties": {
                    "release": {"type": "string"},
                    "release_listed": {"type": "boolean", "description": "false: releases.yaml does not list the "
                                       "release; the source's words name it."},
                    "value": {"type": "number"}, "configuration": {"type": "string"},
                    "source": {"type": "string"}}}}}}}}}
    return {
        "type": "object",
        "description": "Tested configurations that are evidence for the question (its workload, hardware and instance; "
                       "this checkpoint, or its family at this size), and apart the others with why each is not.",
        "properties": {
            "matched_by": {"enum": ["checkpoint", "family", None], "description": "checkpoint: runs of this checkpoint "
                           "are among them; family: only runs of its family at this size; null: none."},
            "instance": {"type": ["string", "null"], "description": "The --instance asked for."},
            "hardware": {"type": ["string", "null"], "description": "The hardware asked for (--hardware, or the "
                         "instance's)."},
            "workload": {"enum": ["inference", "training"], "description": "The workload asked for (default inference)."},
            "scope": {"type": "string", "description": "The rule the listed configurations meet, in words."},
            "other_label": {"type": "string", "description": "The heading of the others."},
            "total": {"type": "integer", "minimum": 0, "description": f"How many matched (at most {SHOWN_LIMIT} listed)."},
            "configurations": {"type": "array", "items": item},
            "other_sizes_total": {"type": "integer", "minimum": 0,
                                  "description": "How many runs of the checkpoint or family are not evidence here."},
            "other_sizes": {"type": "array", "items": item,
                            "description": "Runs of other sizes, hardware, instances or workloads (scope.why_other)."},
            "compile_time": {"type": "array", "description": "Median compile time per instance (seconds), n and the "
                             "runs it is of: of the listed configurations only.",
                             "items": {"type": "object", "properties": {
                                 "instance": {"type": "string"}, "median_s": {"type": "number"},
                                 "n": {"type": "integer"}, "min_s": {"type": "number"},
                                 "max_s": {"type": "number"},
                                 "runs": {"type": "array", "items": {"type": "object", "properties": {
                                     "id": {"type": "string"}, "checkpoint": {"type": "string"},
                                     "seconds": {"type": "number"},
                                     "tensor_parallel": {"type": ["integer", "null"]}}}}}}},
            "checkpoint_page": {"type": ["string", "null"],
                                "description": "The site path of the checkpoint's page, when it has one."},
        },
        "required": ["matched_by", "instance", "hardware", "workload", "scope", "total", "configurations",
                     "other_sizes_total", "other_sizes", "compile_time"],
    }
