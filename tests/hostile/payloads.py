"""Hostile text that the validator accepts, and a family file that carries it in every text field.

Each executable payload would set `window.__pwned` (to a number naming it) if the site ever treated
registry text as markup; the browser test asserts it stays undefined and that no payload became an
attribute or a link. Payloads the validator refuses (raw HTML, javascript:/data: links, bidi controls)
are in tests/bad_inputs/cases.yaml instead.
"""

from __future__ import annotations

ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
LONG_WORD = "W" * 180  # one unbreakable word near the 200-character limit of names

# Single-line text (names, aliases, titles, vendor, constraint values): no newline, no < or >.
PLAIN = [
    'Hostile " onmouseover="window.__pwned=1" x="',
    "Hostile ' onfocus='window.__pwned=2' autofocus='",
    "&lt;img src=x onerror=window.__pwned=3&gt;",
    "&lt;script&gt;window.__pwned=4&lt;/script&gt;",
    "{{ 7*7 }} {% raw %}{% endraw %} ${7*7} #{7*7}",
    "javascript:window.__pwned=5",
    "{: onclick=\"window.__pwned=6\" }",
    f"zero{ZERO_WIDTH}width and \u05e2\u05d1\u05e8\u05d9\u05ea \u0627\u0644\u0639\u0631\u0628\u064a\u0629 text",
    LONG_WORD,
]

# Markdown (description, notes, constraint notes).
MARKDOWN = [
    '[link](https://a.example/" onmouseover="window.__pwned=11)',
    '![image](https://a.example/x.png" onerror="window.__pwned=12)',
    '[ref link][evil]\n\n[evil]: https://a.example/"onmouseover="window.__pwned=13',
    "Code `{{ 7*7 }}` and `{% raw %}` and `${7*7}`",
    "{: onclick=\"window.__pwned=14\" } *emphasis* **strong** `code`",
    "# Heading injection\n\n---\n\n| a | b |\n|---|---|\n| c | d |",
    "Bare javascript:window.__pwned=15 and data:text/html,x",
    f"Zero{ZERO_WIDTH}width, \u05e2\u05d1\u05e8\u05d9\u05ea, {'long ' * 60}end",
    "x" * 1990,
]

URLS = [
    "https://a.example/#javascript:window.__pwned=21",
    "https://a.example/?q={{7*7}}&x=%22%3E%3Cscript%3Ewindow.__pwned=22%3C/script%3E",
    "https://a.example/" + "p" * 450,
]


PAGE_PATH_IDS = ["hostile", "hostile/index", "hostile/README", "hostile/index.md", "hostile/README.md", "index",
                 "README", "index.md", "x" * 96 + "/" + "y" * 96]
"""Valid Hub ids named like index pages, or like each other's folders: each must get a page of its own."""


def hostile_family() -> dict:
    """A valid family (model_type qwen3 of the fixture snapshot) with a payload in every text field."""
    def source(index: int) -> dict:
        return {"url": URLS[index % len(URLS)], "title": PLAIN[index % len(PLAIN)], "kind": "community-report",
                "verified": "2026-12-01", "by": PLAIN[(index + 1) % len(PLAIN)]}

    def notes(offset: int) -> list[dict]:
        return [{"text": text} for text in MARKDOWN[offset:] + MARKDOWN[:offset]]

    return {
        "id": "hostile",
        "name": PLAIN[0],
        "vendor": PLAIN[1],
        "description": MARKDOWN[0] + " " + MARKDOWN[4],
        "model_types": ["qwen3"],
        "architectures": ["Qwen3ForCausalLM"],
        "classes": ["decoder-lm"],
        "tasks": ["text-generation"],
        "aliases": PLAIN[1:],
        "examples": ["hostile/model", *PAGE_PATH_IDS],
        "support": [
            {"stack": "optimum-neuron", "workload": "inference", "hardware": ["inf2"], "status": "partial",
             "since": "2.21.0", "stack_since": "0.0.27",
             "constraints": [{"kind": "flag", "name": "HOSTILE_FLAG", "value": text, "note": MARKDOWN[i]}
                             for i, text in enumerate(PLAIN)] + [{"kind": "other", "note": MARKDOWN[2]}],
             "notes": notes(0), "sources": [source(i) for i in range(len(PLAIN))]},
            {"stack": "nxd-inference", "workload": "inference", "hardware": ["trn1"], "status": "unsupported",
             "since": "2.21.0", "notes": notes(3), "sources": [source(i) for i in range(3)]},
        ],
    }
