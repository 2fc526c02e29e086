"""One checkpoint under several Hub names: the compiled document's `checkpoint_aliases` (registry/
checkpoint-aliases.yaml: an old name, the name it is now, and the source that says so).

`same_checkpoint` gives every name of a checkpoint (the one asked, the current one and every old one), so runs
recorded under either name count as this checkpoint's; `current_name` gives the name its page is under."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _pairs(section: Any) -> list[tuple[str, str]]:
    """(old, current) of the `checkpoint_aliases` section (plain JSON of contract.checkpoint_aliases)."""
    aliases = section.get("aliases") if isinstance(section, Mapping) else None
    if not isinstance(aliases, list):
        return []
    return [(item["old"], item["current"]) for item in aliases
            if isinstance(item, Mapping) and isinstance(item.get("old"), str) and isinstance(item.get("current"), str)]


def current_name(section: Any, name: str) -> str:
    """The name `name` goes by now (itself when no alias renames it); case-insensitive, a bounded walk."""
    renamed = {old.casefold(): current for old, current in _pairs(section)}
    seen: set[str] = set()
    while name.casefold() in renamed and name.casefold() not in seen:
        seen.add(name.casefold())
        name = renamed[name.casefold()]
    return name


def same_checkpoint(section: Any, name: str) -> list[str]:
    """Every name of the checkpoint `name` is one of: its current name first, then the others (sorted)."""
    current = current_name(section, name)
    names = {current, name}
    for old, new in _pairs(section):
        if current_name(section, new).casefold() == current.casefold():
            names.add(old)
    return [current, *sorted(n for n in names if n != current)]
