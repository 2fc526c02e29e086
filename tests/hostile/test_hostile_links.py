"""Markdown that validation accepts never becomes a javascript:/data:/vbscript: link under CommonMark.

The JSON API carries note text as Markdown; whoever renders it decides what is a link. markdown-it-py (the
CommonMark reference behaviour) is run here with its own link filter switched off, as a renderer that trusts
its input would be: every text `Note` accepts must render without an unsafe href or src, and every link form
that would render one must be refused by validation. The forms come from the CommonMark spec: inline links
and images, `<...>` destinations, backslash escapes, reference definitions at any depth (block quotes, list
items, the destination on the next line), case games and whitespace.
"""

from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt
from pydantic import ValidationError

from neuron_compat.contract.models import Note

UNSAFE_URL = re.compile(r"^\s*(?:javascript|data|vbscript|file):", re.IGNORECASE)

# Each renders (with the link filter off) as an unsafe link: validation must refuse it.
UNSAFE_FORMS = [
    "[x](javascript:alert(1))",
    "[x](javascript\\:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x]( javascript:alert(1) )",
    "[x](<javascript:alert(1)>)",
    "[x](\n javascript:alert(1))",
    "![x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox(1))",
    "[x](data\\:text/html,x)",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "[x][r]\n\n> [r]: javascript:alert(1)",
    "[x][r]\n\n- [r]: javascript:alert(1)",
    "[x][r]\n\n1. item\n\n   [r]: javascript:alert(1)",
    "[x][r]\n\n> - > [r]: javascript:alert(1)",
    "[x][r]\n\n[r]:\n  javascript:alert(1)",
    "[x][r]\n\n> [r]:\n> javascript:alert(1)",
    "[x][r]\n\n[r]: <javascript:alert(1)>",
    "[x][r]\n\n[r]: javascript\\:alert(1)",
    "[r]\n\n   [r]: vbscript:x",
    "[x][]\n\n[x]: data:text/html,x",
    "[**x**](javascript:alert(1))",
    "[x\\]](javascript:alert(1))",
]

# Accepted text: https links in every form, and colons that are not link destinations.
SAFE_FORMS = [
    "[docs](https://awsdocs-neuron.readthedocs-hosted.com/en/latest/)",
    "![badge](https://a.example/b.svg)",
    "[x][r]\n\n[r]: https://a.example/",
    "Bare javascript:alert(1) is text, not a link",
    "Time 10:30, ratio 1:2, `code: x`",
    "[docs](https://a.example/path:with:colons)",
]


def render_trusting(text: str) -> str:
    md = MarkdownIt("commonmark")
    md.validateLink = lambda url: True  # a renderer that does not filter links itself
    return md.render(text)


def unsafe_links(text: str) -> list[str]:
    md = MarkdownIt("commonmark")
    md.validateLink = lambda url: True
    found: list[str] = []
    tokens = md.parse(text)
    while tokens:
        token = tokens.pop()
        tokens.extend(token.children or [])
        for name in ("href", "src"):
            value = token.attrGet(name)
            if isinstance(value, str) and UNSAFE_URL.match(value):
                found.append(f"{name}={value}")
    return found


def accepted(text: str) -> bool:
    try:
        Note(text=text)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("text", [t for t in UNSAFE_FORMS if unsafe_links(t)], ids=repr)
def test_every_form_that_renders_an_unsafe_link_is_refused(text: str) -> None:
    assert unsafe_links(text), "the form must really render as an unsafe link for the test to mean anything"
    assert not accepted(text), render_trusting(text)


def test_most_forms_really_are_links_under_commonmark() -> None:
    """The corpus is not made of harmless text: CommonMark makes a link of nearly every form."""
    rendering = [text for text in UNSAFE_FORMS if unsafe_links(text)]
    assert len(rendering) >= len(UNSAFE_FORMS) - 3, [t for t in UNSAFE_FORMS if t not in rendering]


@pytest.mark.parametrize("text", SAFE_FORMS, ids=repr)
def test_https_links_and_plain_colons_are_accepted(text: str) -> None:
    assert accepted(text)
    assert not unsafe_links(text)


def test_accepted_text_never_renders_an_unsafe_link() -> None:
    """Every variation of the forms: whatever validation accepts renders no unsafe href or src."""
    variations = set()
    for text in UNSAFE_FORMS + SAFE_FORMS:
        for scheme in ("javascript", "JAVASCRIPT", "data", "vbscript", "https"):
            variations.add(re.sub(r"(?i)javascript|data(?=[\\:])|vbscript", scheme, text))
        variations.add(text.replace(":", "\\:"))
        variations.add(text.replace("](", "]  ("))
        variations.add(text.replace("\n", "\n\n"))
        variations.add("> " + text.replace("\n", "\n> "))
        variations.add("- " + text.replace("\n", "\n  "))
    checked = 0
    for text in sorted(variations):
        if accepted(text):
            checked += 1
            assert not unsafe_links(text), (text, render_trusting(text))
    assert checked >= 10
