"""The stacks page: each software stack with its lifecycle, hardware, version line and family counts."""

from __future__ import annotations

from neuron_compat.contract.vocabulary import is_claim, is_supported
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.pages.common import block, front_matter, heading, page
from neuron_compat.site.support import CurrentView, ReleaseView
from neuron_compat.views.at_release import display_status, stack_shipped


def ended_stacks(registry: Registry) -> dict[str, str]:
    """Stacks that have ended (end of support) -> the last Neuron release that shipped them. They are counted
    there (where their claims last held), not at today's release, where every one of them has ended; the page
    shows them apart."""
    ended = {}
    for stack in registry.stacks:
        if str(stack.status) == "end-of-support":
            shipped = [v for v in registry.release_versions if stack_shipped(stack, v)]
            if shipped:
                ended[stack.id] = shipped[-1]
    return ended


def render(registry: Registry) -> dict[str, str]:
    release = registry.newest_release
    counts: dict[str, dict[str, int]] = {s.id: {"supported": 0, "partial": 0, "ever": 0} for s in registry.stacks}
    today = CurrentView(registry)
    current = today.release_of
    ended = ended_stacks(registry)
    ended_views = {at: ReleaseView(registry, at) for at in set(ended.values())}
    for family in registry.families:
        for stack_id, at in ended.items():
            statuses = {h.status for h in ended_views[at].held(family, stack_id)}
            if any(is_supported(st) for st in statuses):
                counts[stack_id]["supported"] += 1
            elif "partial" in statuses:
                counts[stack_id]["partial"] += 1
        for stack_id in {s.stack for s in family.support if is_claim(display_status(s))}:
            if stack_id in counts:
                counts[stack_id]["ever"] += 1
        seen: dict[str, str] = {}
        for held in today.held(family):
            if is_supported(held.status):
                seen[held.statement.stack] = "supported"
            elif held.status == "partial" and seen.get(held.statement.stack) != "supported":
                seen[held.statement.stack] = "partial"
        for stack_id, status in seen.items():
            if stack_id in counts and stack_id not in ended:
                counts[stack_id][status] += 1
    parts = [
        front_matter(title="Stacks"),
        heading(1, "Software stacks"),
        block("stacks_intro.html.j2", stacks=[st for st in registry.stacks if st.id not in ended],
              ended_stacks=[st for st in registry.stacks if st.id in ended], release=release, counts=counts,
              current={**current, **ended}),
    ]
    for stack in registry.stacks:
        parts.append(heading(2, stack.name, stack.id))
        parts.append(block("stack.html.j2", stack=stack, counts=counts[stack.id], release=release,
                           matrix_url=urls.relative_url("matrix/", "stacks/") + f"?stack={stack.id}"))
    return {"stacks.md": page(*parts)}
