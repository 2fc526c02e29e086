"""textedit: splicing edits into YAML text leaves every other byte alone."""

from __future__ import annotations

from neuron_compat.contributing import roundtrip_style
from neuron_compat.contributing.yaml_patch import YamlTextEditor

TEXT = """\
# head comment
id: x
description: 'a long value that was wrapped by
  some earlier tool at a width of its own'
support:
- stack: a          # first
  dtypes:
  - bf16
  sources:
  - url: https://example.com/a
    verified: 2026-01-01
# about b
- stack: b
  hardware: [inf2, trn1]
  until: "2.22.0"
"""


def test_block_list_append_key_add_and_value_replace() -> None:
    editor = YamlTextEditor(TEXT)
    editor.append_to_list(("support", 0, "dtypes"), ["fp8"])
    editor.add_key(("support", 1), "status", "unknown", after=("stack", "workload", "hardware"))
    editor.set_value(("support", 1, "until"), roundtrip_style.quoted("2.21.0"))
    editor.remove_from_flow_list(("support", 1, "hardware"), "inf2")
    assert editor.text() == TEXT.replace("  - bf16\n", "  - bf16\n  - fp8\n").replace(
        "  hardware: [inf2, trn1]\n", "  hardware: [trn1]\n  status: unknown\n").replace('"2.22.0"', '"2.21.0"')


def test_items_go_after_the_previous_item_so_comments_stay_with_the_next() -> None:
    editor = YamlTextEditor(TEXT)
    editor.insert_item(("support",), 1, [roundtrip_style.mapping({"stack": "new", "hardware": roundtrip_style.flow_list(["trn2"])})])
    editor.insert_item(("support", 0, "sources"), 1, [roundtrip_style.mapping({"url": "https://example.com/b"})])
    assert editor.text() == TEXT.replace(
        "    verified: 2026-01-01\n# about b\n",
        "    verified: 2026-01-01\n  - url: https://example.com/b\n- stack: new\n  hardware: [trn2]\n# about b\n",
    )


def test_replace_and_insert_first() -> None:
    editor = YamlTextEditor(TEXT)
    editor.replace_item(("support",), 1, roundtrip_style.mapping({"stack": "c"}))
    editor.insert_item(("support",), 0, [roundtrip_style.mapping({"stack": "z"})])
    assert editor.text() == TEXT.replace("- stack: a", "- stack: z\n- stack: a").replace(
        '- stack: b\n  hardware: [inf2, trn1]\n  until: "2.22.0"\n', "- stack: c\n")
