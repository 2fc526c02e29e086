"""The tested configurations `check` names: those of the checkpoint asked about or, failing that, of its family,
on the instance (or its hardware) asked for. Reads the compiled document's `configurations` section."""

from __future__ import annotations

from typing import Any

from neuron_compat.check.compiled_view import CompiledRegistry

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
    if instance:
        by_instance = instance_hardware(registry)
        hardware = by_instance.get(instance)
        chosen = [c for c in chosen if c.get("instance") == instance
                  or (hardware is not None and by_instance.get(str(c.get("instance"))) == hardware)]
        if not chosen:
            matched_by = None
    chosen.sort(key=lambda c: (c.get("instance") != instance, c.get("release") is None,
                               str(c.get("validated") or ""), str(c.get("id"))))
    return {"matched_by": matched_by, "instance": instance, "hardware": hardware, "total": len(chosen),
            "configurations": chosen[:SHOWN_LIMIT]}


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
        },
        "required": ["matched_by", "instance", "hardware", "total", "configurations"],
    }
