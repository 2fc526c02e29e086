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


def identifier_index(families: Iterable[Family]) -> dict[str, object]:
    """{"format": 1, "families": {id: {"page", "title"}}, "identifiers": {normalized: [family id, ...]}}.

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
    identifiers = {
        key: sorted(holders, key=lambda family_id: (holders[family_id], family_id))
        for key, holders in sorted(strongest.items())
    }
    return {"format": 1, "families": dict(sorted(pages.items())), "identifiers": identifiers}
