"""The safe Markdown path: registry text is escaped first; only code, emphasis and https links come back."""

from __future__ import annotations

import markdown

from neuron_compat.site.safe_markdown import block_markdown, inline_markdown, markdown_escape


def test_allowed_subset_renders() -> None:
    html = str(inline_markdown("Set `attn_implementation=\"eager\"`, *then* **run** [the docs](https://example.com/a?b=1&c=2)."))
    assert "<code>attn_implementation=&quot;eager&quot;</code>" in html
    assert "<em>then</em>" in html and "<strong>run</strong>" in html
    assert '<a href="https://example.com/a?b=1&amp;c=2" rel="noopener nofollow">the docs</a>' in html


def test_tags_and_event_attributes_stay_text() -> None:
    html = str(inline_markdown('<script>alert(1)</script> <img src=x onerror="alert(1)">'))
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "onerror=&quot;alert(1)&quot;" in html


def test_only_plain_https_links_become_links() -> None:
    for text in ("[x](javascript:alert(1))", "[x](JaVaScRiPt:alert(1))", "[x](data:text/html,hi)",
                 '[x](https://e.com/" onclick="alert(1))', "[x](http://e.com/)"):
        html = str(inline_markdown(text))
        assert "<a " not in html, text
    assert "<a " in str(inline_markdown("[x](https://e.com/path#frag)"))


def test_code_spans_escape_their_content() -> None:
    assert str(inline_markdown("`<b>*x*</b>`")) == "<code>&lt;b&gt;*x*&lt;/b&gt;</code>"


def test_identifiers_with_underscores_are_not_emphasised() -> None:
    assert str(inline_markdown("qwen3_moe and a_b_c")) == "qwen3_moe and a_b_c"


def test_paragraphs() -> None:
    assert str(block_markdown("one\nline\n\ntwo")) == "<p>one line</p><p>two</p>"


def test_markdown_escape_keeps_headings_literal() -> None:
    """A name in a Markdown heading cannot become an attribute list, a link or a tag."""
    name = 'Evil {: onclick="x()" } [a](https://e.com) *b* &lt;img&gt; #'
    html = markdown.markdown("# " + markdown_escape(name), extensions=["attr_list", "toc"])
    assert "onclick=\"x()\"" not in html.split(">", 1)[0]
    assert "<a " not in html and "<em>" not in html
    assert "&amp;lt;img&amp;gt;" in html
    assert html.endswith("#</h1>")
