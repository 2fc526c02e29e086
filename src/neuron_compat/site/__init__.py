"""The website generator: a pure function from a validated registry to site files.

`render.render_site(registry)` returns every generated page and data file as text; `tree.py` joins them
with the hand-written pages into the documentation tree, `tree_source.py` reads what it is made of (what
`neuron-compat site --out` writes). Any engine that reads mkdocs.yml builds that tree as plain files
(mkdocs-material, the reference; Zensical); `mkdocs_hook.py` only regenerates it under `mkdocs serve`.

- `check_archive`: The Python the site's check page runs in the browser (Pyodide): the modules the check entry point imports, as one archive.
- `freshness`: How current the data is, as the site shows it: the data version and which claims may be stale.
- `markers`: Generation markers in hand-written pages: `<!-- neuron-compat:NAME -->` is replaced by a fragment.
- `mkdocs_hook`: Optional mkdocs hook: `mkdocs serve` regenerates the documentation tree before each rebuild.
- `pages`: One module per page type; each `render(registry)` returns {docs path: content}.
- `performance_charts`: Performance series on the site: per series a small table and an inline SVG chart drawn server-side; per release, what moved by 10% or more.
- `presentation`: How statuses and vocabulary values are shown: labels, CSS classes, badge colours, sort order.
- `probe_section`: The "Portability probe" section of a family page: machine evidence from registry/upstream/probe.yaml.
- `render`: The site generator: registry in, {path: content} out. Pure: no I/O, no clock, no environment.
- `safe_markdown`: Registry Markdown to HTML through a safe path: escape everything, then allow a small subset back.
- `search_identifiers`: The exact identifiers of every family, for the header search: normalized identifier -> family pages.
- `summary`: "Which stack to pick, what to watch out for": a short advice list derived from a family's statements.
- `support`: Support data arranged for pages: statement groups per family, rows of the matrix, stable anchors.
- `templating`: The jinja2 environment of the site: autoescape on, strict undefined, the safe Markdown filters.
- `tested_data`: The rows of tested configurations the site shows (family pages and the configurations page), with each measurement's value in one unit per metric for sorting, and the known issues of a family.
- `tree`: The complete documentation tree, engine-neutral: hand-written pages + generated files -> {path: bytes}.
- `tree_source`: Read what the documentation tree is made of: the validated registry and the hand-written pages of site/.
- `upstream`: Popularity snapshots of the Hub (registry/upstream/hub-top-*.yaml), read for the coverage page.
- `urls`: Where each generated file lives, and links between pages as relative URLs.
"""

from neuron_compat.site.render import RenderedSite, render_site

__all__ = ["RenderedSite", "render_site"]
