"""The stacks page: each software stack with its lifecycle, hardware, version line and family counts."""

from __future__ import annotations

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.pages.common import block, front_matter, heading, page
from neuron_compat.site.support import CurrentView
from neuron_compat.views.at_release import CLAIM_STATUSES, display_status


def render(registry: Registry) -> dict[str, str]:
    release = registry.newest_release
    counts: dict[str, dict[str, int]] = {s.id: {"supported": 0, "partial": 0, "ever": 0} for s in registry.stacks}
    today = CurrentView(registry)
    current = today.release_of
    for family in registry.families:
        for stack_id in {s.stack for s in family.support if display_status(s) in CLAIM_STATUSES}:
            if stack_id in counts:
                counts[stack_id]["ever"] += 1
        seen: dict[str, str] = {}
        for held in today.held(family):
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
        block("stacks_intro.html.j2", stacks=registry.stacks, release=release, counts=counts, current=current),
    ]
    for stack in registry.stacks:
        parts.append(heading(2, stack.name, stack.id))
        parts.append(block("stack.html.j2", stack=stack, counts=counts[stack.id], release=release,
                           matrix_url=urls.relative_url("matrix/", "stacks/") + f"?stack={stack.id}"))
    return {"stacks.md": page(*parts)}
