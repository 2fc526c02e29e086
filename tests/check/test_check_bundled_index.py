"""`check` reads the bundled snapshot through its index: the same answers, fewer bytes parsed. The snapshot here
is this clone's registry/ compiled (build/registry-snapshot/), as a wheel build compiles it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from check_helpers import bundled_snapshot

from neuron_compat.check.answer_pipeline import verdict_document
from neuron_compat.check.bundled_index import index_text, open_indexed
from neuron_compat.check.compiled_view import CompiledRegistry, parse_document
from neuron_compat.check.config_facts import facts_from_config
from neuron_compat.check.resolver import resolve

DOCUMENT, INDEX = bundled_snapshot()
CONFIGS = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "configs").glob("*.json"))
ODD_CONFIGS = [
    {"model_type": "qwen3_foo"},  # a sibling is covered
    {"model_type": "lamma", "architectures": ["X"]},  # nearest families by name
    {"architectures": ["LlamaForCausalLM"]},  # matched by architecture
    {"_class_name": "NoSuchPipeline", "_diffusers_version": "0.30.0"},  # a pipeline nobody lists
]


@pytest.fixture(scope="module")
def whole() -> CompiledRegistry:
    return CompiledRegistry(parse_document(DOCUMENT.read_bytes()))


def test_the_index_describes_the_snapshot() -> None:
    """The cached index is the document's index plus what a reader verifies it by (document/cache.py)."""
    cached = json.loads(INDEX.read_text(encoding="utf-8"))
    assert set(cached.pop("content_key", "")) and len(cached.pop("document_sha256", "")) == 64
    assert cached == json.loads(index_text(DOCUMENT.read_text(encoding="utf-8")))


@pytest.mark.parametrize("config", [*(json.loads(p.read_text(encoding="utf-8")) for p in CONFIGS), *ODD_CONFIGS])
@pytest.mark.parametrize("options", [{}, {"release": "2.21.0"}, {"stack": "optimum-neuron", "workload": "training"}])
def test_the_index_answers_as_the_whole_document(whole: CompiledRegistry, config: dict[str, object],
                                                 options: dict[str, str]) -> None:
    indexed = open_indexed(DOCUMENT, INDEX)
    assert indexed is not None
    facts = facts_from_config(config)
    got = json.dumps(verdict_document(resolve(facts, indexed, **options)), indent=1)
    assert got == json.dumps(verdict_document(resolve(facts, whole, **options)), indent=1)
    assert indexed.data_version == whole.data_version
    assert indexed.probe_for(facts.model_type) == whole.probe_for(facts.model_type)


def test_only_the_matching_family_is_parsed() -> None:
    indexed = open_indexed(DOCUMENT, INDEX)
    assert indexed is not None
    verdict = resolve(facts_from_config({"model_type": "qwen3"}), indexed)
    assert verdict.family is not None and verdict.family.id == "qwen3"
    parsed = [f.id for f in indexed.families if f._data._read is None]
    # the match, and the first family (it names the fields of an absent answer)
    assert set(parsed) <= {"qwen3", indexed.families[0].id}, parsed
    assert len(parsed) < len(indexed.families) // 10


def test_an_index_that_does_not_fit_the_document_is_not_used(tmp_path: Path) -> None:
    document = tmp_path / "registry.json"
    document.write_bytes(DOCUMENT.read_bytes() + b" ")  # one byte more: the spans may be off
    index = tmp_path / "registry.index.json"
    index.write_bytes(INDEX.read_bytes())
    assert open_indexed(document, index) is None
    assert open_indexed(document, tmp_path / "absent.json") is None
    index.write_text("{not json", encoding="utf-8")
    assert open_indexed(DOCUMENT, index) is None
