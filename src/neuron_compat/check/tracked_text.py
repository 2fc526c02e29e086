"""`check`'s lines for what a stack's maintainers said they track for the family (the family's `tracked` notes).

Shown after the known issues, apart from the answer: a tracked note is news, never a status."""

from __future__ import annotations

from typing import Any


def family_tracked(registry: Any, family_id: str | None) -> list[dict[str, Any]]:
    """The family's tracked notes as plain JSON (none for no family, or a document compiled before the field)."""
    family = registry.family_by_id.get(family_id) if family_id else None
    notes = getattr(family, "tracked", None) or ()
    return [note.to_json() if hasattr(note, "to_json") else note.model_dump(mode="json") for note in notes]


def tracked_lines(items: list[dict[str, Any]]) -> list[str]:
    """'Tracked by maintainers (not a status):' then one line per note: stack, who and when, the words, the link."""
    if not items:
        return []
    lines = [f"Tracked by maintainers ({len(items)}; not a support statement, the answer above is unchanged):"]
    for item in items:
        who = f"{item['by']}, " if item.get("by") else ""
        lines.append(f"  {item['stack']} ({who}{item['date']}): \"{item['quote']}\" {item['url']}")
    return lines
