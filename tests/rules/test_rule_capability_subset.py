"""rules/capability_subset.py: a statement's own attention, dtypes and quantization are within its stack's
capability, unless a note of the statement names the exception."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import replace_once, rule_problems

RULE = "capability-subset"
LLAMA = "families/llama.yaml"


def test_a_dtype_outside_the_stacks_capability_is_located(registry: Path) -> None:
    replace_once(registry / LLAMA, "    dtypes: [bf16]", "    dtypes: [bf16, int8]")
    assert rule_problems(registry, RULE) == [
        "registry/families/llama.yaml:16:20: support[0].dtypes[1]: 'int8' is not in the dtypes of nxd-inference's "
        "capability for inference on trn1, trn2 (bf16, fp16, fp32, fp8) (fix the value, widen "
        "registry/capabilities/nxd-inference.yaml with a source, or add a note naming 'int8' and saying why this "
        "family differs)"]


def test_a_note_that_names_the_exception_passes(registry: Path) -> None:
    replace_once(registry / LLAMA, "    dtypes: [bf16]", "    dtypes: [bf16, int8]")
    replace_once(registry / LLAMA, "text: Example note with `code`.", "text: Llama also runs with `int8` weights.")
    assert rule_problems(registry, RULE) == []
