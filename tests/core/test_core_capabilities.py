"""Capability ranges: what a statement inherits from its stack, and the rules that keep both honest."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from neuron_compat.loading.loader import load_registry
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.rules import run_rules
from neuron_compat.views.inherited_capabilities import effective_values

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "registry"


@pytest.fixture()
def registry_dir(tmp_path: Path) -> Path:
    target = tmp_path / "registry"
    shutil.copytree(FIXTURE, target)
    return target


def _statement(registry, family_id: str, index: int):
    return registry.family_by_id[family_id].support[index]


def test_a_statement_without_values_inherits_the_overlapping_ranges_of_its_stack() -> None:
    registry = load_registry(FIXTURE).registry
    bert = _statement(registry, "bert", 0)  # optimum-neuron 2.20.0 onwards: both ranges overlap it
    effective = effective_values(registry.capabilities_of("optimum-neuron"), bert)
    assert effective.dtypes.values == ("fp32", "bf16", "fp8", "fp16")
    assert effective.dtypes.origin == "stack"
    assert effective.attention.values == () and effective.attention.origin is None
    assert effective.capability_sources == ("https://huggingface.co/docs/optimum-neuron/index",)


def test_values_a_statement_states_are_its_own() -> None:
    registry = load_registry(FIXTURE).registry
    llama = _statement(registry, "llama", 0)  # nxd-inference, states dtypes [bf16] and attention [native]
    effective = effective_values(registry.capabilities_of("nxd-inference"), llama)
    assert (effective.dtypes.values, effective.dtypes.origin) == (("bf16",), "family")
    assert (effective.attention.values, effective.attention.origin) == (("native",), "family")
    assert effective.capability_sources == ()


def test_a_range_ending_before_the_statement_starts_is_not_inherited(registry_dir: Path) -> None:
    path = registry_dir / "capabilities" / "optimum-neuron.yaml"
    path.write_text(path.read_text().replace('since: "2.21.0"\n    stack_since: "0.0.27"\n    dtypes: [fp32, bf16, fp16, fp8]',
                                             'since: "2.21.0"\n    stack_since: "0.0.27"\n    dtypes: [fp16]'))
    registry = load_registry(registry_dir).registry
    llama_on = _statement(registry, "llama", 1)  # optimum-neuron 2.20.0 until 2.22.0 on inf2: touches both
    assert effective_values(registry.capabilities_of("optimum-neuron"), llama_on).dtypes.values == ("fp32", "bf16", "fp8", "fp16")
    family = registry_dir / "families" / "bert.yaml"
    family.write_text(family.read_text().replace('since: "2.20.0"', 'since: "2.21.0"'))
    registry = load_registry(registry_dir).registry
    assert effective_values(registry.capabilities_of("optimum-neuron"), _statement(registry, "bert", 0)).dtypes.values == ("fp16",)


def test_a_note_naming_the_value_allows_a_statement_outside_its_stack(registry_dir: Path) -> None:
    family = registry_dir / "families" / "llama.yaml"
    family.write_text(family.read_text().replace("dtypes: [bf16]", "dtypes: [int8]"))
    assert [p.rule for p in run_rules(load_registry(registry_dir).registry)] == ["capability-subset"]
    family.write_text(family.read_text().replace("text: Example note with `code`.",
                                                 "text: This family's port also runs `int8` weights (its own kernels)."))
    assert run_rules(load_registry(registry_dir).registry) == []


def test_the_compiled_document_carries_capabilities_and_effective_values() -> None:
    document = registry_to_json(load_registry(FIXTURE).registry)
    assert [c["stack"] for c in document["capabilities"]] == ["nxd-inference", "optimum-neuron"]
    bert = next(f for f in document["families"] if f["id"] == "bert")["support"][0]
    assert bert["dtypes"] == []  # the statement's own field is kept as written
    assert bert["effective"]["dtypes"] == {"values": ["fp32", "bf16", "fp8", "fp16"], "origin": "stack"}


def test_check_prints_where_values_come_from(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "bert", "architectures": ["BertModel"], "torch_dtype": "float32"}))
    result = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "check", str(config), "--registry", str(FIXTURE),
                             "--neuron", "2.21.0"], capture_output=True, text=True, timeout=60, check=False)
    assert "dtypes: fp32, bf16, fp8, fp16 (from the stack)" in result.stdout, result.stdout + result.stderr
    verdict = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "check", str(config), "--registry", str(FIXTURE),
                              "--neuron", "2.21.0", "--json"], capture_output=True, text=True, timeout=60, check=False)
    answer = json.loads(verdict.stdout)["answers"][0]
    assert (answer["dtypes"], answer["dtypes_origin"]) == (["fp32", "bf16", "fp8", "fp16"], "stack")


def _with_two_decoder_paths(registry_dir: Path) -> None:
    """optimum-neuron with two decoder paths: `own` (picked by the decoder-lm class) and `other` (named only)."""
    stacks = registry_dir / "stacks.yaml"
    stacks.write_text(stacks.read_text().replace(
        "    status: active\n    versions:",
        "    status: active\n    code_paths:\n"
        "      - {id: own, name: Own modules, classes: [decoder-lm, encoder]}\n"
        "      - {id: other, name: Other library's classes, classes: [decoder-lm]}\n"
        "    versions:", 1))
    capabilities = registry_dir / "capabilities" / "optimum-neuron.yaml"
    text = capabilities.read_text().replace("    dtypes: [fp32, bf16, fp8]\n", "    code_paths: [own]\n    dtypes: [fp32, bf16, fp8]\n")
    text = text.replace("    dtypes: [fp32, bf16, fp16, fp8]\n", "    code_paths: [own]\n    dtypes: [fp32, bf16, fp16, fp8]\n")
    capabilities.write_text(text + """  - workload: inference
    hardware: [inf2, trn1]
    since: "2.20.0"
    code_paths: [other]
    dtypes: [fp16]
    sources:
      - url: https://huggingface.co/docs/optimum-neuron/index
        kind: vendor-docs
        verified: 2026-12-02
""")


def test_a_statement_naming_a_code_path_inherits_that_paths_ranges_only(registry_dir: Path) -> None:
    _with_two_decoder_paths(registry_dir)
    loaded = load_registry(registry_dir)
    assert loaded.problems == [] and run_rules(loaded.registry) == []  # ranges of two paths may share releases
    llama_on = _statement(loaded.registry, "llama", 1)
    from neuron_compat.views.inherited_capabilities import effective_for
    family = loaded.registry.family_by_id["llama"]
    assert effective_for(loaded.registry, family, llama_on).dtypes.values == ("fp32", "bf16", "fp8", "fp16")  # by class
    path = registry_dir / "families" / "llama.yaml"
    path.write_text(path.read_text().replace('    stack_since: "0.0.25"\n', '    stack_since: "0.0.25"\n    code_path: other\n'))
    loaded = load_registry(registry_dir)
    family = loaded.registry.family_by_id["llama"]
    assert effective_for(loaded.registry, family, _statement(loaded.registry, "llama", 1)).dtypes.values == ("fp16",)
    document = registry_to_json(loaded.registry)
    llama = next(f for f in document["families"] if f["id"] == "llama")["support"][1]
    assert (llama["code_path"], llama["effective"]["dtypes"]["values"]) == ("other", ["fp16"])


def test_a_code_path_the_stack_does_not_have_is_located_with_a_hint(registry_dir: Path) -> None:
    _with_two_decoder_paths(registry_dir)
    path = registry_dir / "families" / "llama.yaml"
    path.write_text(path.read_text().replace('    stack_since: "0.0.25"\n', '    stack_since: "0.0.25"\n    code_path: othr\n'))
    [finding] = [p.format() for p in run_rules(load_registry(registry_dir).registry)]
    assert "support[1].code_path: code path 'othr' is not one of optimum-neuron's code paths" in finding
    assert "did you mean 'other'?" in finding
