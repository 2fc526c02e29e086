"""Generation markers in hand-written pages: `<!-- neuron-compat:NAME -->` is replaced by a fragment.

A page that should carry a marker and does not, a marker nothing fills, or a marker in the wrong page are
build errors: generated content is never silently missing or duplicated.
"""

from __future__ import annotations

import re

MARKER = re.compile(r"<!--\s*neuron-compat:([a-z0-9-]+)\s*-->")


class MarkerError(ValueError):
    pass


def fill_markers(page_path: str, markdown: str, fragments: dict[str, str], fragment_pages: dict[str, str]) -> str:
    """Replace each marker of `page_path` by its fragment; raise MarkerError on a missing or stray one."""
    found = [m.group(1) for m in MARKER.finditer(markdown)]
    for name in found:
        if name not in fragments:
            raise MarkerError(f"{page_path}: unknown generation marker '{name}' (known: {', '.join(sorted(fragments))})")
        if fragment_pages.get(name) != page_path:
            raise MarkerError(f"{page_path}: marker '{name}' belongs in {fragment_pages.get(name)}")
        if found.count(name) > 1:
            raise MarkerError(f"{page_path}: marker '{name}' appears more than once")
    for name, owner in fragment_pages.items():
        if owner == page_path and name not in found:
            raise MarkerError(f"{page_path}: the generation marker <!-- neuron-compat:{name} --> is missing")
    return MARKER.sub(lambda m: "\n" + fragments[m.group(1)] + "\n", markdown)
