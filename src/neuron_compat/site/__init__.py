"""The website generator: a pure function from a validated registry to site files.

`render.render_site(registry)` returns every generated page and data file as text; the mkdocs hook
(`mkdocs_hook.py`) only feeds that into mkdocs. Nothing here knows about mkdocs, so the site can move to
another generator without rewriting the pages.
"""

from neuron_compat.site.render import RenderedSite, render_site

__all__ = ["RenderedSite", "render_site"]
