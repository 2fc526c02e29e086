"""The exact identifiers of every family, for the header search: normalized identifier -> family pages.

Full-text search ranks by word statistics, so `gemma` can rank Gemma 3 above Gemma. The site's search script
(site/assets/javascripts/search-exact.js) reads this index and puts the family page of an identifier typed
exactly (after `normalize`) first in the results. Pure: families in, a JSON-ready dict out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from neuron_compat.contract.models import Family
from neuron_compat.site import urls

SEARCH_IDENTIFIERS_JSON = "api/search-identifiers.json"

KINDS = ("family id", "model_type", "class name", "name", "alias", "earlier id", "checkpoint id", "repo name")
"""Identifier kinds, strongest first: a string several families carry lists them by their strongest kind."""

_FOLDED = re.compile(r"[\s_\-]+")


def normalize(text: str) -> str:
    """Lowercase, with spaces, '_' and '-' removed: 'Qwen3-MoE', 'qwen3_moe' and 'qwen3 moe' are one key.
    The search script's `normalize` does the same (a change here must be made there)."""
    return _FOLDED.sub("", text.strip().lower())


def family_identifiers(family: Family) -> list[tuple[str, str]]:
    """(kind, identifier) pairs of one family, in KINDS order."""
    pairs = [("family id", family.id)]
    pairs += [("model_type", t) for t in family.model_types]
    pairs += [("class name", c) for c in (*family.architectures, *family.pipelines)]
    pairs.append(("name", family.name))
    pairs += [("alias", a) for a in family.aliases]
    pairs += [("earlier id", p) for p in family.previous_ids]
    pairs += [("checkpoint id", e) for e in family.examples]
    pairs += [("repo name", e.rsplit("/", 1)[-1]) for e in family.examples]
    return pairs


PAGE_KINDS = ("stack", "hardware", "instance", "checkpoint", "error code", "related error code", "known-issue id")
"""Identifiers of pages other than a family's, ranked after every family kind: a word that is both (a family's
example checkpoint id, which also has a checkpoint page) finds the family first, then that page. Their keys in the
index's "families" start with "page:" (no family id has a colon)."""

PAGE_LABELS = {"stack": "Stacks page", "hardware": "Instances page", "instance": "Instances page",
               "checkpoint": "Checkpoint page", "error code": "Known issue", "related error code": "Known issue",
               "known-issue id": "Known issue"}
"""What the search shows under the title of a page it puts first (a family page says "Model family page")."""


def page_identifiers(registry: object) -> list[tuple[str, str, str, str, str]]:
    """(kind, identifier, key, page, title) of the stacks and instances pages: a stack's id and name find its
    section of the stacks page; a hardware generation and an instance name find the instances page."""
    found: list[tuple[str, str, str, str, str]] = []
    for stack in getattr(registry, "stacks", []):
        for identifier in (stack.id, stack.name):
            found.append(("stack", identifier, f"page:stack:{stack.id}", f"stacks/#{stack.id}",
                          f"{stack.name} (software stack)"))
    instances = getattr(registry, "instances", None)
    if instances is not None:
        for generation in instances.generations:
            hardware = str(generation.hardware)
            found.append(("hardware", hardware, f"page:hardware:{hardware}", f"instances/#generation-{hardware}",
                          f"{hardware} instances and hardware"))
        for instance in instances.instances:
            found.append(("instance", instance.name, f"page:instance:{instance.name}",
                          f"instances/#{instance.name.replace('.', '-')}", f"{instance.name} (instance)"))
    if getattr(registry, "families", None) is not None and hasattr(registry, "configuration_files"):
        from neuron_compat.site.tested_data import checkpoint_pages

        for hub_id in checkpoint_pages(registry):  # type: ignore[arg-type]
            found.append(("checkpoint", hub_id, f"page:checkpoint:{hub_id}", urls.checkpoint_url(hub_id),
                          f"{hub_id} (checkpoint)"))
    known = getattr(registry, "known_issues", None)
    for issue in known.issues if known is not None else []:
        found.append(("known-issue id", issue.id, f"page:issue:{issue.id}", f"known-issues/#issue-{issue.id}",
                      _short_title(issue.title)))  # the id `explain` prints
        for code in issue.match.codes if issue.match else []:
            named = code in issue.title  # the entry about that code comes before those that also match it
            found.append(("error code" if named else "related error code", code, f"page:issue:{issue.id}",
                          f"known-issues/#issue-{issue.id}", _short_title(issue.title if named else f"{code}: {issue.title}")))
    return found


TITLE_CHARACTERS = 90
"""A known issue's title in the index is cut to this many characters (the result item shows a line or two)."""


def _short_title(title: str) -> str:
    return title if len(title) <= TITLE_CHARACTERS else title[:TITLE_CHARACTERS - 1].rstrip() + "…"


def identifier_index(families: Iterable[Family], registry: object = None) -> dict[str, object]:
    """{"format": 1, "families": {id: {"page", "title"}}, "identifiers": {normalized: [family id, ...]}}.

    With `registry`, the stacks and instances pages are in it too (page_identifiers), under keys "page:...",
    with a "kind" the search shows instead of "Model family page".

    An identifier that several families carry lists all of them (the search puts all of them first), ordered
    by the strongest kind each carries it as (KINDS), then by family id. Empty keys are left out.
    """
    strongest: dict[str, dict[str, int]] = {}
    pages: dict[str, dict[str, str]] = {}
    for family in families:
        pages[family.id] = {"page": urls.family_url(family.id), "title": family.name}
        for kind, identifier in family_identifiers(family):
            key = normalize(identifier)
            if not key:
                continue
            rank = KINDS.index(kind)
            holders = strongest.setdefault(key, {})
            holders[family.id] = min(rank, holders.get(family.id, rank))
    for kind, identifier, page_key, page, title in page_identifiers(registry) if registry is not None else []:
        key = normalize(identifier)
        if not key:
            continue
        pages[page_key] = {"page": page, "title": title, "kind": PAGE_LABELS[kind]}
        rank = len(KINDS) + PAGE_KINDS.index(kind)
        holders = strongest.setdefault(key, {})
        holders[page_key] = min(rank, holders.get(page_key, rank))
    identifiers = {
        key: sorted(holders, key=lambda family_id: (holders[family_id], family_id))
        for key, holders in sorted(strongest.items())
    }
    return {"format": 1, "families": dict(sorted(pages.items())), "identifiers": identifiers}
