"""Helpers shared by the page modules: Markdown headings, HTML blocks, page assembly."""

from __future__ import annotations

import json
from html import escape

from neuron_compat.site.safe_markdown import markdown_escape
from neuron_compat.site.templating import html_block, render


def front_matter(**meta: object) -> str:
    """YAML front matter from trusted values (JSON is valid YAML, so every value is quoted safely)."""
    lines = ["---"]
    for key, value in meta.items():
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)}")
    lines.append("---")
    return "\n".join(lines) + "\n\n"


def heading(level: int, text: str, anchor: str | None = None) -> str:
    """A Markdown heading whose text is registry text shown literally; `anchor` is a trusted slug."""
    attrs = f" {{ #{anchor} }}" if anchor else ""
    return f"{'#' * level} {markdown_escape(text)}{attrs}\n\n"


def block(template: str, **context: object) -> str:
    """A rendered template as one raw HTML block of the Markdown page."""
    return html_block(render(template, **context)) + "\n"


def fold(summary: str, *parts: str, name: str = "") -> str:
    """Parts of a page folded under a <details> (closed): Markdown headings inside still reach the table of
    contents and search (md_in_html); neuron-compat.js opens it when the URL's #fragment or a search hit
    lands inside. `summary` is trusted text (escaped here)."""
    data = f' data-nc-fold="{escape(name, quote=True)}"' if name else ""
    return (f'<details class="nc-fold"{data} markdown="1">\n<summary>{escape(summary)}</summary>\n\n'
            + "".join(parts) + "\n</details>\n\n")


def page(*parts: str) -> str:
    return "".join(parts).rstrip("\n") + "\n"
