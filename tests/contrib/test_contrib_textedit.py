"""textedit: splicing edits into YAML text leaves every other byte alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neuron_compat.contributing import roundtrip_style
from neuron_compat.contributing.yaml_patch import YamlTextEditor
from neuron_compat.loading.yaml_reader import load_yaml_file

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


def _read_back(tmp_path: Path, value: float) -> object:
    """`value: X` as the writer renders a float, read by the registry's loader (YAML 1.1)."""
    text = roundtrip_style.dump(roundtrip_style.make_yaml(), roundtrip_style.mapping({"value": value}))
    path = tmp_path / "number.yaml"
    path.write_text(text, encoding="utf-8")
    loaded, problem = load_yaml_file(path)
    assert problem is None and loaded is not None, (text, problem)
    return loaded.data["value"]


@pytest.mark.parametrize("value", [5e-05, 1e-06, 1e-09, 1e-10, 1e-11, 1.5e-300, 5e-324, 0.1, 41.5, 1e15, 1e16,
                                   123456789012345.0, 1.7976931348623157e308, -5e-05, 0.0])
def test_a_written_float_reads_back_as_the_same_number(tmp_path: Path, value: float) -> None:
    """YAML 1.1 reads `5e-05` (Python's repr) as text: the writer uses `0.00005` or `1.0e-11`."""
    read = _read_back(tmp_path, value)
    assert type(read) is float and read == value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_finite_float_reads_back_as_itself(tmp_path: Path, value: float) -> None:
    assert _read_back(tmp_path, value) == value
