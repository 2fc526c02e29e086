"""The tested configurations `check` names: those of the checkpoint asked about or, failing that, of its family,
on the instance (or its hardware) asked for. Reads the compiled document's `configurations` section."""

from __future__ import annotations

from typing import Any

from neuron_compat.check.compiled_view import CompiledRegistry
from neuron_compat.contract.hub_ids import checkpoint_page_folder

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


def _order(c: dict[str, Any]) -> tuple[bool, bool, str, str, str]:
    """Measured runs first, those at a stated release before the rest, then by instance, date and id."""
    return (not c.get("measurements"), c.get("release") is None, str(c.get("instance") or ""),
            str(c.get("validated") or ""), str(c.get("id")))


def tested_for(registry: CompiledRegistry, checkpoint: str | None, family: str | None, instance: str | None = None,
               stack: str | None = None) -> dict[str, Any]:
    """{matched_by, instance, hardware, total, configurations}: the configurations of `checkpoint` (by Hub id or as
    written) or else of `family`; with `instance`, those on it or on its hardware; with `stack`, that stack's."""
    candidates = all_configurations(registry)
    if stack:
        candidates = [c for c in candidates if c.get("stack") == stack]
    matched_by: str | None = None
    chosen: list[dict[str, Any]] = []
    if checkpoint:
        chosen = [c for c in candidates if _same(c.get("hub_id"), checkpoint) or _same(c.get("checkpoint"), checkpoint)]
        matched_by = "checkpoint" if chosen else None
    if not chosen and family:
        chosen = [c for c in candidates if c.get("family") == family]
        matched_by = "family" if chosen else None
    hardware = None
    other_sizes: list[dict[str, Any]] = []
    if instance:
        by_instance = instance_hardware(registry)
        hardware = by_instance.get(instance)
        other_sizes = [c for c in chosen if c.get("instance") != instance
                       and hardware is not None and by_instance.get(str(c.get("instance"))) == hardware]
        chosen = [c for c in chosen if c.get("instance") == instance]
        if not chosen and not other_sizes:
            matched_by = None
    chosen.sort(key=_order)
    other_sizes.sort(key=_order)
    return {"matched_by": matched_by, "instance": instance, "hardware": hardware, "total": len(chosen),
            "configurations": chosen[:SHOWN_LIMIT], "other_sizes_total": len(other_sizes),
            "other_sizes": other_sizes[:SHOWN_LIMIT], "compile_time": compile_time_summary(chosen + other_sizes),
            "checkpoint_page": _checkpoint_page(registry, checkpoint)}


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


def checkpoint_page(hub_id: str) -> str:
    """The site path of a checkpoint's page, checkpoints/<owner>/<name>/ (contract.hub_ids.checkpoint_page_folder,
    as site.pages.checkpoints writes it)."""
    return checkpoint_page_folder(hub_id) + "/"


def named_checkpoint(config: object) -> str | None:
    """The Hub id a local config.json names itself by (`_name_or_path`), when it is one."""
    from neuron_compat.contract.hub_ids import is_valid_repo_id

    named = config.get("_name_or_path") if isinstance(config, dict) else None
    return named if isinstance(named, str) and "/" in named and is_valid_repo_id(named) else None


def compile_time_summary(configurations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per instance: the median compile time in seconds over the configurations that measured one, and n."""
    by_instance: dict[str, list[float]] = {}
    for c in configurations:
        for m in c.get("measurements") or []:
            if isinstance(m, dict) and m.get("metric") == "compile-time" and isinstance(m.get("value"), (int, float)):
                seconds = float(m["value"]) * (60.0 if m.get("unit") == "min" else 1.0)
                by_instance.setdefault(str(c.get("instance") or "instance not stated"), []).append(seconds)
    summary = []
    for name, values in sorted(by_instance.items()):
        ordered = sorted(values)
        middle = len(ordered) // 2
        median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
        summary.append({"instance": name, "median_s": round(median, 2), "n": len(ordered),
                        "min_s": ordered[0], "max_s": ordered[-1]})
    return summary


def json_schema() -> dict[str, Any]:
    """The JSON Schema of `tested_for`'s answer (check --json's `tested_configurations`)."""
    from pydantic import TypeAdapter

    from neuron_compat.contract.tested_configurations import TestedConfiguration

    item = TypeAdapter(TestedConfiguration).json_schema()
    item.setdefault("properties", {})["source_file"] = {"type": "string", "description": "The configurations file's source id."}
    return {
        "type": "object",
        "description": "Tested configurations of the checkpoint (or else of its family), on the instance asked for.",
        "properties": {
            "matched_by": {"enum": ["checkpoint", "family", None], "description": "How they were chosen (null: none)."},
            "instance": {"type": ["string", "null"], "description": "The --instance asked for."},
            "hardware": {"type": ["string", "null"], "description": "Its hardware; configurations on it are listed."},
            "total": {"type": "integer", "minimum": 0, "description": f"How many matched (at most {SHOWN_LIMIT} listed)."},
            "configurations": {"type": "array", "items": item},
            "other_sizes_total": {"type": "integer", "minimum": 0,
                                  "description": "With --instance: how many ran on other sizes of its hardware."},
            "other_sizes": {"type": "array", "items": item,
                            "description": "With --instance: runs on other sizes of the same hardware generation."},
            "compile_time": {"type": "array", "description": "Median compile time per instance (seconds) and n.",
                             "items": {"type": "object", "properties": {
                                 "instance": {"type": "string"}, "median_s": {"type": "number"},
                                 "n": {"type": "integer"}, "min_s": {"type": "number"},
                                 "max_s": {"type": "number"}}}},
            "checkpoint_page": {"type": ["string", "null"],
                                "description": "The site path of the checkpoint's page, when it has one."},
        },
        "required": ["matched_by", "instance", "hardware", "total", "configurations"],
    }
