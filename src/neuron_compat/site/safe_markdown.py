"""Registry Markdown to HTML through a safe path: escape everything, then allow a small subset back.

Registry text is never trusted as HTML. The validator already refuses raw HTML, but this renderer does not
rely on it: it escapes the whole text first and only then turns back on code spans, **strong**, *emphasis*
and [links](https://...) whose target is a plain https URL. Anything else (tags, event attributes,
`javascript:` links, images) stays visible as inert text.
"""

from __future__ import annotations

import re
from html import escape

from markupsafe import Markup

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# Link targets: https only, and only characters that cannot leave an attribute or open a tag.
_LINK = re.compile(r"\[([^\[\]\n]{1,300})\]\((https://[A-Za-z0-9\-._~:/?#@!$&*+,;=%]{1,500})\)")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EMPHASIS = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def _emphasis(escaped: str) -> str:
    escaped = _STRONG.sub(r"<strong>\1</strong>", escaped)
    return _EMPHASIS.sub(r"<em>\1</em>", escaped)


def _prose(text: str) -> str:
    """Escape plain prose, then re-enable links and emphasis on the escaped text."""
    out: list[str] = []
    position = 0
    for match in _LINK.finditer(text):
        out.append(_emphasis(escape(text[position : match.start()])))
        label, target = match.group(1), match.group(2)
        out.append(f'<a href="{escape(target, quote=True)}" rel="noopener nofollow">{_emphasis(escape(label))}</a>')
        position = match.end()
    out.append(_emphasis(escape(text[position:])))
    return "".join(out)


def inline_markdown(text: str | None) -> Markup:
    """One paragraph of registry Markdown as safe inline HTML (newlines become spaces)."""
    if not text:
        return Markup("")
    text = " ".join(text.split())
    out: list[str] = []
    position = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_prose(text[position : match.start()]))
        out.append(f"<code>{escape(match.group(2).strip())}</code>")
        position = match.end()
    out.append(_prose(text[position:]))
    return Markup("".join(out))


def block_markdown(text: str | None) -> Markup:
    """Registry Markdown as safe HTML paragraphs (blank lines separate paragraphs)."""
    if not text:
        return Markup("")
    paragraphs = [p for p in _PARAGRAPH_BREAK.split(text.strip()) if p.strip()]
    return Markup("".join(f"<p>{inline_markdown(p)}</p>" for p in paragraphs))


_MARKDOWN_SPECIALS = set("\\`*_{}[]()>#+-.!|")


def markdown_escape(text: str) -> str:
    """Plain registry text placed in Markdown source (headings): shown literally, never parsed.

    `&`, `<` and `>` become entities, every character Python-Markdown gives a meaning to is
    backslash-escaped (so `{: onclick=... }` cannot become an attribute list), newlines become spaces.
    """
    out: list[str] = []
    for char in " ".join(text.split()):
        if char == "&":
            out.append("&amp;")
        elif char == "<":
            out.append("&lt;")
        elif char == ">":
            out.append("&gt;")
        elif char in _MARKDOWN_SPECIALS:
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)
