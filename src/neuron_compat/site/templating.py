"""The jinja2 environment of the site: autoescape on, strict undefined, the safe Markdown filters."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from neuron_compat.contract.models import Parallelism, Statement
from neuron_compat.site.presentation import describe, humanize, status_style
from neuron_compat.site.safe_markdown import block_markdown, inline_markdown
from neuron_compat.views.at_release import constraint_value, display_status
from neuron_compat.views.inherited_capabilities import origin_label


def release_range(statement: Statement) -> str:
    """'since 2.21.0', 'since 2.21.0, until 2.29.0 (exclusive)', or 'all releases' for unknown."""
    if statement.since and statement.until:
        return f"since {statement.since}, until {statement.until} (exclusive)"
    if statement.since:
        return f"since {statement.since}"
    if statement.until:
        return f"until {statement.until} (exclusive)"
    return "all releases"


def stack_range(statement: Statement) -> str:
    parts = []
    if statement.stack_since:
        parts.append(f"since {statement.stack_since}")
    if statement.stack_until:
        parts.append(f"until {statement.stack_until}")
    return ", ".join(parts)


def parallelism_text(parallelism: Parallelism) -> str:
    parts = []
    for name, label in (("tensor", "tensor"), ("pipeline", "pipeline"), ("expert", "expert"), ("context", "context")):
        degrees = getattr(parallelism, name)
        if degrees:
            parts.append(f"{label} {', '.join(str(d) for d in degrees)}")
    for name, label in (("data", "data parallel"), ("fsdp", "FSDP"), ("sequence", "sequence parallel")):
        value = getattr(parallelism, name)
        if value is not None:
            parts.append(f"{label}: {'yes' if value else 'no'}")
    return "; ".join(parts) or "not stated"


def preformatted(text: str) -> Markup:
    """Escaped text for a <pre> on one source line (newlines as &#10;), so html_block keeps its indentation."""
    return Markup(str(escape(text)).replace("\n", "&#10;"))


def host(url: str) -> str:
    return urlsplit(url).netloc or url


def slug(text: str) -> str:
    """An anchor for a name shown on the page (a checkpoint id): its letters, digits, '.', '_' and '-' kept, case
    too (so `Llama-3.1-8B` and `llama-3.1-8b` stay apart), every other run of characters one '-'."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "x"


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("neuron_compat.site", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(
        md=inline_markdown,
        md_block=block_markdown,
        humanize=humanize,
        describe=lambda value, vocabulary: describe(vocabulary, value),
        status_label=lambda status: status_style(status).label,
        status_css=lambda status: status_style(status).css,
        status_title=lambda status: status_style(status).description,
        statement_status=display_status,
        release_range=release_range,
        stack_range=stack_range,
        parallelism=parallelism_text,
        constraint_value=constraint_value,
        host=host,
        slug=slug,
        preformatted=preformatted,
        origin_label=origin_label,
    )
    return env


def render(template: str, **context: object) -> str:
    return environment().get_template(template).render(**context)


_CELL_END = re.compile(r"(</(?:th|td|dt|dd|caption)>)(?=<)")


def html_block(html: str) -> str:
    """Make rendered HTML safe to embed in a Markdown page as one raw block.

    Python-Markdown keeps a block-level HTML element verbatim only up to a blank line, and treats
    indented lines as code: so drop blank lines and leading indentation (no <pre> is generated).
    A space follows every table cell and definition: the search engines index a page's text with the tags
    removed, and without it a label runs into its value ("Attentionnative"). Browsers ignore that space.
    """
    lines = [_CELL_END.sub(r"\1 ", line.strip()) for line in html.splitlines()]
    return "\n".join(line for line in lines if line) + "\n"
