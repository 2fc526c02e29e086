"""The Neuron performance-page harvester on excerpts of the real pages (tests/tested/fixtures/neuron_performance,
copied from aws-neuron-sdk v2.32.0; SOURCE.md names each file): what it reads from a page and its CSVs, that each
configuration validates, and that the committed registry/configurations/neuron-performance.yaml validates."""

from __future__ import annotations

import datetime as dt
import importlib.util
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from harvesters.harvest_script import render
from harvesters.neuron_performance_pages import Context, read_page, table_entries

from neuron_compat.contract.tested_configurations import ConfigurationsFile
from neuron_compat.contract.tested_configurations import TestedConfiguration as Configuration
from neuron_compat.rules.validation import validate_registry

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures" / "neuron_performance"
INF2 = "about-neuron/benchmarks/inf2"
TRN1 = "about-neuron/benchmarks/trn1"
CONTEXT = Context(revision="v2.32.0", releases=frozenset({"2.24.0", "2.25.0", "2.27.0"}),
                  instances=frozenset({"inf2.xlarge", "trn1.32xlarge", "trn1n.32xlarge"}),
                  families=frozenset({"albert", "bert", "llama"}))


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("harvest_neuron_performance",
                                                  ROOT / "scripts" / "harvest_neuron_performance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_page_names_the_csvs_it_includes_with_section_and_tab() -> None:
    page = read_page(_fixture("inf2-performance.rst"))
    assert page.title == "Inf2 Inference Performance"
    assert [(t.csv_name, t.section, t.tab) for t in page.tables] == [
        ("throughput_data_encoder.csv", "Encoder Models", "Throughput optimized"),
        ("latency_data_encoder.csv", "Encoder Models", "Latency optimized"),
    ]  # the instance price tables are not results
    training = read_page(_fixture("trn1-training-performance.rst"))
    assert [(t.csv_name, t.section) for t in training.tables] == [
        ("training_data_encoder.csv", "Encoder Models"), ("training_data_decoder.csv", "Decoder Models")]


def test_an_encoder_row_keeps_its_release_instance_and_p50_p99_latency() -> None:
    page = read_page(_fixture("inf2-performance.rst"))
    entries, reasons = table_entries(f"{INF2}/throughput_data_encoder.csv", _fixture("throughput_data_encoder.csv"),
                                     page, page.tables[0], CONTEXT)
    assert reasons == []
    albert = entries[0]
    assert albert["id"] == "nperf-inf2-tput-encoder-albert-base-v2-l2"
    assert (albert["family"], albert["stack"], albert["release"], albert["instance"]) == (
        "albert", "torch-neuronx", "2.25.0", "inf2.xlarge")
    assert (albert["batch_size"], albert["sequence_length"], albert["dtype"]) == (8, 128, "fp32")
    assert albert["measurements"] == [
        {"metric": "throughput", "name": "inferences/s", "value": 3147.09984049, "unit": "samples/s"},
        {"metric": "latency", "value": 5.0675869, "unit": "ms", "percentile": 50},
        {"metric": "latency", "value": 5.27883291, "unit": "ms", "percentile": 99},
    ]
    assert albert["source"]["url"] == ("https://github.com/aws-neuron/aws-neuron-sdk/blob/v2.32.0/"
                                       f"{INF2}/throughput_data_encoder.csv#L2")
    assert albert["setting"] == ("throughput optimized; task raw output (automodel); application "
                                 "type batch; run mode data parallel; compiler autocast matmult-bf16")
    assert "PyTorch 2.7" in albert["notes"][0]  # the software is a note, never part of the setting
    # bert-base-uncased was measured on 2.27.0, which this context lists; the page's own release column decides
    assert entries[1]["release"] == "2.27.0"
    for entry in entries:
        Configuration.model_validate(entry)


def test_a_release_the_registry_lacks_keeps_the_outcome_and_drops_the_measurements() -> None:
    page = read_page(_fixture("inf2-performance.rst"))
    entries, _ = table_entries(f"{INF2}/latency_data_encoder.csv", _fixture("latency_data_encoder.csv"), page,
                               page.tables[1], CONTEXT)
    albert = entries[0]  # measured on 2.26.0, which CONTEXT does not list
    assert albert["release"] is None and "measurements" not in albert
    assert albert["outcome"] == "compiled-and-ran"
    assert "measured on Neuron '2.26.0' (a release releases.yaml does not list)" in albert["notes"][-1]
    Configuration.model_validate(albert)


def test_training_rows_read_their_topology_and_leave_a_two_instance_cell_unknown() -> None:
    page = read_page(_fixture("trn1-training-performance.rst"))
    entries, reasons = table_entries(f"{TRN1}/training_data_decoder.csv", _fixture("training_data_decoder.csv"),
                                     page, page.tables[1], CONTEXT)
    assert reasons == []
    llama8b = entries[0]
    assert llama8b["checkpoint"] == "Llama-3.1-8B pre-training" and llama8b["family"] == "llama"
    assert llama8b["instance"] is None and llama8b["release"] == "2.24.0"
    assert llama8b["parallelism"] == {"tensor": 32, "pipeline": 1, "data": 32}
    assert llama8b["sequence_length"] == 8192 and "batch_size" not in llama8b and "dtype" not in llama8b
    assert llama8b["measurements"] == [
        {"metric": "throughput", "name": "sequences/s", "value": 47.95, "unit": "samples/s"}]
    assert any("trn1.32xlarge/trn1n.32xlarge" in note for note in llama8b["notes"])
    assert "global batch 1024" in llama8b["setting"] and "nodes 32" in llama8b["setting"]
    assert llama8b["workload"] == "training"
    Configuration.model_validate(llama8b)


def test_unmapped_models_and_unknown_instances_are_not_recorded() -> None:
    page = read_page(_fixture("inf2-performance.rst"))
    text = _fixture("throughput_data_encoder.csv")
    only_bert = Context(CONTEXT.revision, CONTEXT.releases, CONTEXT.instances, frozenset({"bert"}))
    entries, reasons = table_entries(f"{INF2}/throughput_data_encoder.csv", text, page, page.tables[0], only_bert)
    assert [e["checkpoint"] for e in entries] == ["bert-base-uncased"]
    assert reasons == ["'albert-base-v2': no registry family is mapped to this model (FAMILY_BY_MODEL)"]
    no_inf2 = Context(CONTEXT.revision, CONTEXT.releases, frozenset({"trn1.32xlarge"}), CONTEXT.families)
    entries, reasons = table_entries(f"{INF2}/throughput_data_encoder.csv", text, page, page.tables[0], no_inf2)
    assert entries == [] and reasons[0] == "'albert-base-v2': instance 'Inf2.xlarge' is not in instances.yaml"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_the_script_reads_a_tag_of_a_mirror_and_its_output_validates(tmp_path: Path) -> None:
    work = tmp_path / "docs"
    (work / INF2).mkdir(parents=True)
    for name in ("inf2-performance.rst", "throughput_data_encoder.csv", "latency_data_encoder.csv",
                 "latency_data_vision_dit.csv"):
        shutil.copy(FIXTURES / name, work / INF2 / name)
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "fixture"], check=True)
    subprocess.run([*git, "tag", "v2.32.0"], check=True)
    script = _script()
    body = script.harvest(work / ".git", "v2.32.0", CONTEXT, dt.date(2026, 12, 3))
    assert body["harvest"]["revision"] == "v2.32.0"
    assert body["not_recorded"] == [{"path": f"{INF2}/latency_data_vision_dit.csv",
                                     "reason": "no performance page of this tag includes this table"}]
    parsed = ConfigurationsFile.model_validate(body)
    assert [c.id for c in parsed.configurations] == [
        "nperf-inf2-tput-encoder-albert-base-v2-l2", "nperf-inf2-tput-encoder-bert-base-uncased-l3",
        "nperf-inf2-lat-encoder-albert-base-v2-l2"]
    again = script.harvest(work / ".git", "v2.32.0", CONTEXT, dt.date(2026, 12, 3))
    assert render(script.HEADER, body) == render(script.HEADER, again)  # deterministic
    assert script.main(["--mirror", str(work / ".git"), "--revision", "v9.9.9", "--output",
                        str(tmp_path / "out.yaml")]) == 1
    assert not (tmp_path / "out.yaml").exists()


def test_the_committed_neuron_performance_ledger_validates_and_forms_series() -> None:
    from neuron_compat.views.performance_series import count_long_series, performance_series

    result = validate_registry(ROOT / "registry")
    assert [p.format() for p in [*result.problems, *result.warnings] if "neuron-performance" in p.format()] == []
    files = {f.source: f for f in result.registry.configuration_files}
    ledger = [files["neuron-performance-inf2"], files["neuron-performance-trn1"]]
    for harvested in ledger:
        assert harvested.harvest is not None and harvested.harvest.revision == "v2.9.0..v2.32.0"
        assert any(c.measurements for c in harvested.configurations)
    points = [c.model_dump(mode="json") for f in ledger for c in f.configurations]
    assert len({p["id"] for p in points}) == len(points)
    series = performance_series(points, result.registry.release_versions)
    assert count_long_series(series, listed_only=True) >= 30  # the target: 30 with three or more releases
