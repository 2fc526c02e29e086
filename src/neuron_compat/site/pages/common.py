"""Helpers shared by the page modules: Markdown headings, HTML blocks, page assembly."""

from __future__ import annotations

import json

from neuron_compat.site.safe_markdown import markdown_escape
from neuron_compat.site.templating import html_block, render


def front_matter(**meta: object) -> str:
    """YAML front matter from trusted values (JSON is valid YAML, so every value is quoted safely)."""
    lines = ["---"]
    for key, value in meta.items():
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False, sort_keys=True)}")
    lines.append("---")
    return "\n".join(lines) + "\n\n"


def heading(level: int, text: str, anchor: str | None = None) -> str:
    """A Markdown heading whose text is registry text shown literally; `anchor` is a trusted slug."""
    attrs = f" {{ #{anchor} }}" if anchor else ""
    return f"{'#' * level} {markdown_escape(text)}{attrs}\n\n"


def block(template: str, **context: object) -> str:
    """A rendered template as one raw HTML block of the Markdown page."""
    return html_block(render(template, **context)) + "\n"


def page(*parts: str) -> str:
    return "".join(parts).rstrip("\n") + "\n"
