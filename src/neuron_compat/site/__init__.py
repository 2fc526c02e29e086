"""The website generator: a pure function from a validated registry to site files.

`render.render_site(registry)` returns every generated page and data file as text; `tree.py` joins them
with the hand-written pages into the documentation tree, `tree_source.py` reads what it is made of (what
`neuron-compat site --out` writes). Any engine that reads mkdocs.yml builds that tree as plain files
(mkdocs-material, the reference; Zensical); `mkdocs_hook.py` only regenerates it under `mkdocs serve`.
"""

from neuron_compat.site.render import RenderedSite, render_site

__all__ = ["RenderedSite", "render_site"]
