"""`check`'s lines for the public user reports that contradict a supported statement of the family (a statement's
`contradicted_by`), for the workload asked (and the hardware, when one is asked).

Shown after the known issues, apart from the answer: a report is evidence to weigh, never a status."""

from __future__ import annotations

from typing import Any


def _plain(item: Any) -> dict[str, Any]:
    if hasattr(item, "to_json"):
        return dict(item.to_json())
    if hasattr(item, "model_dump"):
        return dict(item.model_dump(mode="json"))
    return dict(item) if isinstance(item, dict) else {}


def family_contradictions(registry: Any, family_id: str | None, workload: str | None = None,
                          hardware: str | None = None) -> list[dict[str, Any]]:
    """Each report on a statement of the family (of `workload`, and whose hardware is `hardware` when given) as plain
    JSON with the statement it contradicts (stack, workload, status, since, until); none for no family, or a
    document compiled before the field."""
    family = registry.family_by_id.get(family_id) if family_id else None
    found: list[dict[str, Any]] = []
    for statement in getattr(family, "support", None) or ():
        data = _plain(statement)
        if workload is not None and data.get("workload") != workload:
            continue
        for report in data.get("contradicted_by") or []:
            if hardware is not None and report.get("hardware") != hardware:
                continue
            found.append({**report, "statement": {name: data.get(name) for name in
                                                  ("stack", "workload", "status", "since", "until")}})
    return found


def contradicted_lines(items: list[dict[str, Any]]) -> list[str]:
    """'Contradicted by user reports (not a status):' then one line per report: the statement, what failed, where."""
    if not items:
        return []
    lines = [f"Contradicted by user reports ({len(items)}; evidence to weigh, the answer above is unchanged):"]
    for item in items:
        statement = item.get("statement") or {}
        where = item.get("instance") or item.get("hardware")
        release = (f", Neuron {item['release']}" if item.get("release")
                   and str(item["release"]) not in str(item.get("stack_version")) else "")
        lines.append(f"  {statement.get('stack')} {statement.get('workload')} ({statement.get('status')} since "
                     f"{statement.get('since')}): {item.get('says')} [{item.get('stack_version')}{release}; {where}; "
                     f"reported {item.get('reported')}] {item.get('url')}")
    return lines


JSON_SCHEMA: dict[str, Any] = {
    "type": "array", "description": "Public user reports that contradict a supported statement of the family for the "
    "workload (and hardware) asked: evidence to weigh, never a status (the statement's contradicted_by).",
    "items": {"type": "object", "properties": {
        "url": {"type": "string"}, "title": {"type": ["string", "null"]}, "reported": {"type": "string"},
        "stack_version": {"type": "string"}, "release": {"type": ["string", "null"]},
        "hardware": {"type": "string"}, "instance": {"type": ["string", "null"]}, "says": {"type": "string"},
        "verified": {"type": "string"},
        "statement": {"type": "object", "description": "The statement it contradicts."}},
        "required": ["url", "reported", "stack_version", "hardware", "says", "statement"]},
}
