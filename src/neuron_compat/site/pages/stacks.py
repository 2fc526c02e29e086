"""The stacks page: each software stack with its lifecycle, hardware, version line and family counts."""

from __future__ import annotations

from ...registry import Registry
from .. import urls
from ..support import ReleaseView
from .common import block, front_matter, heading, page


def render(registry: Registry) -> dict[str, str]:
    release = registry.newest_release
    counts: dict[str, dict[str, int]] = {s.id: {"supported": 0, "partial": 0} for s in registry.stacks}
    view = ReleaseView(registry, release)
    for family in registry.families:
        seen: dict[str, str] = {}
        for held in view.held(family):
            if held.status.startswith("supported"):
                seen[held.statement.stack] = "supported"
            elif held.status == "partial" and seen.get(held.statement.stack) != "supported":
                seen[held.statement.stack] = "partial"
        for stack_id, status in seen.items():
            if stack_id in counts:
                counts[stack_id][status] += 1
    parts = [
        front_matter(title="Stacks"),
        heading(1, "Software stacks"),
        block("stacks_intro.html.j2", stacks=registry.stacks, release=release, counts=counts),
    ]
    for stack in registry.stacks:
        parts.append(heading(2, stack.name, stack.id))
        parts.append(block("stack.html.j2", stack=stack, counts=counts[stack.id], release=release,
                           matrix_url=urls.relative_url("matrix/", "stacks/") + f"?stack={stack.id}"))
    return {"stacks.md": page(*parts)}
