"""The portability probe's snapshot (registry/upstream/probe.yaml): contract, rendering, check, and the
operator-list parser. None of these needs torch; test_probe_capture.py runs the probe itself."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from neuron_compat.contract.models import ProbeSnapshot
from neuron_compat.loading.loader import load_registry
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.site.pages.families import family_page
from neuron_compat.site.support import ReleaseView
from neuron_compat.views.probe_reading import probe_line

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "probe.yaml"
CHECK_REGISTRY = ROOT / "tests" / "check" / "registry"
CONFIGS = ROOT / "tests" / "fixtures" / "configs"


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _registry_with_probe(tmp_path: Path) -> Path:
    root = tmp_path / "registry"
    shutil.copytree(CHECK_REGISTRY, root)
    (root / "upstream").mkdir()
    shutil.copy(FIXTURE, root / "upstream" / "probe.yaml")
    return root


def _load(root: Path):
    result = load_registry(root)
    registry = result.registry if hasattr(result, "registry") else result[0]
    problems = result.problems if hasattr(result, "problems") else result[1]
    return registry, problems


def test_committed_snapshot_follows_the_contract_and_covers_the_registry():
    snapshot = ProbeSnapshot.model_validate(yaml.safe_load((ROOT / "registry/upstream/probe.yaml").read_text()))
    registry, _ = _load(ROOT / "registry")
    model_types = {t for f in registry.families for t in f.model_types}
    accounted = set(snapshot.probes) | set(snapshot.not_built)
    assert accounted <= model_types
    assert len(snapshot.probes) >= 0.8 * len(model_types), (len(snapshot.probes), len(model_types))
    for model_type, result in snapshot.probes.items():
        assert model_type in registry.family_by_id[result.family].model_types


def test_probe_never_changes_a_support_statement(tmp_path):
    root = _registry_with_probe(tmp_path)
    with_probe, problems = _load(root)
    assert not problems
    (root / "upstream" / "probe.yaml").unlink()
    without, _ = _load(root)
    document = registry_to_json(with_probe)
    assert document["families"] == registry_to_json(without)["families"]
    assert document["probe"]["probes"]["llama"]["dynamo"]["graph_breaks"] == 2
    assert registry_to_json(without)["probe"] is None


def test_a_broken_snapshot_is_a_located_problem_not_a_crash(tmp_path):
    root = _registry_with_probe(tmp_path)
    text = (root / "upstream" / "probe.yaml").read_text().replace("outcome: ok", "outcome: fine")
    (root / "upstream" / "probe.yaml").write_text(text)
    _, problems = _load(root)
    assert any(p.file.endswith("probe.yaml") and p.line > 0 and "outcome" in p.field for p in problems), problems


def test_family_page_shows_the_probe_apart_from_support_and_escapes_its_text(tmp_path):
    registry, _ = _load(_registry_with_probe(tmp_path))
    view = ReleaseView(registry, registry.newest_release)
    page = family_page(registry, registry.family_by_id["llama"], view)
    section = page[page.index("## Portability probe"):]
    assert "Machine evidence, not a support statement." in section
    assert "torch.export failed: data-dependent control flow or shapes" in section
    assert "dynamo: 3 graphs, 2 graph breaks" in section
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in section
    assert "&lt;b&gt;here&lt;/b&gt;" in section and "modeling_llama.py:120" in section
    assert "<code>aten::nonzero</code>" in section
    whisper = family_page(registry, registry.family_by_id["whisper"], view)
    assert "Not probed: eager run on the probe" in whisper
    mixtral = family_page(registry, registry.family_by_id["mixtral"], view)
    assert "Portability probe" not in mixtral


def test_probe_line_reads_each_outcome():
    snapshot = ProbeSnapshot.model_validate(yaml.safe_load(FIXTURE.read_text()))
    assert probe_line(snapshot.probes["bert"].model_dump(mode="json")) == (
        "torch.export: one static graph; dynamo: 1 graph, 0 graph breaks; "
        "1 of 3 ATen operators outside the torch-neuronx operator list")
    assert snapshot.probes["bert"].static_capture and not snapshot.probes["llama"].static_capture


def test_coverage_counts_missing_model_types_with_a_static_capture(tmp_path):
    registry, _ = _load(_registry_with_probe(tmp_path))
    from neuron_compat.site.pages.coverage import _rows

    rows = _rows(registry, [("bert", "bert"), ("llama", "llama")], "model type")
    bert_missing = [row for row in rows if any(m["model_type"] == "bert" for m in row.missing)]
    assert bert_missing, "the fixture registry leaves bert uncovered on some stack"
    for row in rows:
        missing = {m["model_type"]: m["static"] for m in row.missing}
        assert row.missing_static == (1 if "bert" in missing else 0)
        assert missing.get("llama", "") == ""  # llama's capture broke: no badge
        assert missing.get("bert", "static capture") == "static capture"


def test_check_prints_the_probe_line_for_the_model_type(tmp_path):
    root = _registry_with_probe(tmp_path)
    command = [sys.executable, "-m", "neuron_compat.cli", "check", str(CONFIGS / "bert-base-uncased.json"),
               "--registry", str(root)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)
    probe_lines = [line for line in result.stdout.splitlines() if line.startswith("Probe (bert")]
    assert probe_lines == ["Probe (bert, CPU capture of a tiny random model; evidence, not support): "
                           "torch.export: one static graph; dynamo: 1 graph, 0 graph breaks; "
                           "1 of 3 ATen operators outside the torch-neuronx operator list"], result.stdout
    plain = subprocess.run([*command[:-2], "--registry", str(CHECK_REGISTRY)], capture_output=True, text=True,
                           cwd=ROOT, timeout=60, check=False)
    assert plain.returncode == result.returncode
    assert "Probe (" not in plain.stdout


def test_operator_list_parser_reads_the_docs_table():
    snapshot = _script("snapshot_neuron_operators")
    rst = """The following list the aten operators supported by torch-neuronx.

+----------------------------------+
| aten::addcdiv\\_                  |
+----------------------------------+
| aten::_softmax                   |
+----------------------------------+
| aten::addmm                      |
+----------------------------------+
| aten::addmm                      |
+----------------------------------+
"""
    assert snapshot.parse_operators(rst) == ["aten::_softmax", "aten::addcdiv_", "aten::addmm"]
    with pytest.raises(ValueError, match="no aten:: operator"):
        snapshot.snapshot("no table here", "v0")


def test_committed_operator_snapshot_names_its_page():
    data = yaml.safe_load((ROOT / "registry/upstream/torch-neuronx-operators.yaml").read_text())
    assert data["source"].startswith("https://awsdocs-neuron.readthedocs-hosted.com/en/v")
    assert data["docs_version"] in data["source"]
    assert "aten::addmm" in data["operators"] and data["operators"] == sorted(data["operators"])


def test_probe_render_is_deterministic_and_sorted():
    probe = _script("probe")
    families = {"bert": "bert", "llama": "llama"}
    raw = {
        "llama": {"model_type": "llama", "built": False, "reason": "x"},
        "bert": {"model_type": "bert", "built": True, "model_class": "BertModel", "config": {"b": 1, "a": 2},
                 "inputs": {"input_ids": [1, 8]}, "export": {"outcome": "ok"},
                 "dynamo": {"graphs": 1, "graph_breaks": 0, "breaks": []}, "operators_from": "export",
                 "operators": ["aten::gelu", "aten::addmm"]},
    }
    stamp = {"torch": "2.13.0+cpu", "transformers": "5.25.0"}
    text = probe.render(raw, families, stamp)
    assert text == probe.render(dict(reversed(raw.items())), families, stamp)
    data = yaml.safe_load(text)
    ProbeSnapshot.model_validate(data)
    assert list(data["probes"]["bert"]["config"]) == ["a", "b"]
    assert data["probes"]["bert"]["unlisted_operators"] == ["aten::gelu"]
    assert data["not_built"] == {"llama": {"family": "llama", "reason": "x"}}


def test_probe_shrinks_sizes_and_nested_configs_only_downwards():
    probe = _script("probe")
    values = {"hidden_size": 4096, "num_hidden_layers": 32, "vocab_size": 100, "pad_token_id": 50256,
              "layer_types": ["a", "b", "c"], "text_config": {"hidden_size": 2048, "model_type": "t"}}
    out = probe.shrink(values)
    assert out["hidden_size"] == 64 and out["num_hidden_layers"] == 2 and "vocab_size" not in out
    assert out["layer_types"] == ["a", "b"] and out["text_config"]["hidden_size"] == 64
    assert "pad_token_id" not in out  # the vocabulary was not shrunk, so the id still fits
