"""The Optimum Neuron benchmark harvester on fixtures copied from optimum-neuron v0.4.5 (fixtures/optimum_neuron,
SOURCES.md says which file each is): what a run is, where the instance comes from, and that no measurement is kept
while the files do not state the Neuron release."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from harvesters.optimum_neuron_benchmarks import (
    compose_degrees,
    docs_entries,
    parse_env,
    parse_results,
    results_entries,
    tp_requirements,
)

from neuron_compat.contract.tested_configurations import ConfigurationsFile
from neuron_compat.contract.tested_configurations import TestedConfiguration as Configuration

FIXTURES = Path(__file__).parent / "fixtures" / "optimum_neuron"
COMMIT = "abf5985828e56167ab2e48c4d5e14a83e40b6370"


def _read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_env_and_tp_requirement() -> None:
    assert parse_env(_read("qwen3-30B-A3B.env")) == {
        "MODEL_ID": "Qwen/Qwen3-30B-A3B-Instruct-2507", "BATCH_SIZE": "8", "SEQUENCE_LENGTH": "4096",
        "TENSOR_PARALLEL_SIZE": "32"}
    assert tp_requirements(_read("single-instance-README.md")) == {32: "trn1.32xlarge"}
    assert compose_degrees(_read("llama3.1-8b-docker-compose-dp4.yaml")) == (8, 4)


def test_results_rows_are_runs_with_their_measurements() -> None:
    runs = parse_results(_read("qwen3-30B-A3B-vllm-results.csv"))
    assert [(run.model_key, run.date) for run in runs] == [
        ("Qwen_Qwen3-30B-A3B-Instruct-2507", dt.date(2025, 9, 24))]
    measurements = runs[0].measurements
    assert len(measurements) == 15  # three load profiles x five numeric columns
    assert measurements[2] == {"metric": "ttft", "name": "time to first token, synchronous",
                               "value": 2404.546, "unit": "ms"}
    assert {m["metric"] for m in measurements} == {"throughput", "ttft", "tpot", "latency"}
    assert {m["phase"] for m in measurements if m["metric"] == "latency"} == {"end-to-end"}


def test_hostile_results_and_compose_files_are_not_read_as_numbers() -> None:
    text = _read("qwen3-30B-A3B-vllm-results.csv")
    assert parse_results(text.replace("2025-09-24", "2026-02-30", 1))[0].date is None  # an impossible date
    assert parse_results(text.replace("2025-09-24", "2999-09-24"))[0].date is None  # a future date
    header, first, *rest = text.splitlines()
    oversized = "\n".join([header, first + ',"' + "x" * 200_000 + '"', *rest])
    assert parse_results(oversized) == []  # an oversized field: nothing read, no csv.Error
    arabic = first.split(",")
    arabic[3] = "\u0663"  # ARABIC-INDIC DIGIT THREE
    assert all(m["value"] != 3 for m in parse_results("\n".join([header, ",".join(arabic)]))[0].measurements)
    assert compose_degrees("- a list\n- not a mapping\n") == (None, None)
    assert compose_degrees("services: [1, 2]\n") == (None, None)
    assert compose_degrees("services: {a: {environment: {SM_ON_TENSOR_PARALLEL_SIZE: 8}}}\n") == (8, 1)


def test_single_instance_run_keeps_its_measurements_with_the_run_date() -> None:
    entries, skipped = results_entries(
        "qwen3-30B-A3B", _read("qwen3-30B-A3B.env"), "benchmark/vllm/single-instance/qwen3-30B-A3B/vllm-results.csv",
        _read("qwen3-30B-A3B-vllm-results.csv"), COMMIT, tp_requirements(_read("single-instance-README.md")))
    assert skipped == []
    [entry] = entries
    assert entry["id"] == "optimum-neuron-qwen3-30b-a3b-20250924t154836"
    assert entry["family"] == "qwen3_moe" and entry["hub_id"] == "Qwen/Qwen3-30B-A3B-Instruct-2507"
    assert entry["instance"] == "trn1.32xlarge" and entry["parallelism"] == {"tensor": 32}
    assert entry["batch_size"] == 8 and entry["sequence_length"] == 4096
    assert entry["release"] is None and len(entry["measurements"]) == 15
    assert entry["outcome"] == "compiled-and-ran" and entry["validated"] == dt.date(2025, 9, 24)
    assert entry["source"]["url"] == (f"https://github.com/huggingface/optimum-neuron/blob/{COMMIT}/"
                                      "benchmark/vllm/single-instance/qwen3-30B-A3B/vllm-results.csv#L2")
    Configuration.model_validate(entry)


def test_trn2_directory_without_a_named_instance_stays_unknown() -> None:
    env = _read("qwen3-30B-A3B.env")
    entries, _ = results_entries("qwen3-30B-A3B-trn2-example", env, "x/vllm-results.csv",
                                 _read("qwen3-30B-A3B-vllm-results.csv"), COMMIT, {32: "trn1.32xlarge"})
    assert entries[0]["instance"] is None
    assert entries[0]["notes"][0] == "The directory name says trn2; the instance type is not stated."


def test_data_parallel_rows_of_another_model_are_not_recorded() -> None:
    path = "benchmark/vllm/data-parallel/llama3.1-8b/vllm-results-dp4.csv"
    entries, skipped = results_entries("llama3.1-8b", _read("llama3.1-8b.env"), path,
                                       _read("llama3.1-8b-vllm-results-dp4.csv"), COMMIT, {32: "trn1.32xlarge"},
                                       _read("llama3.1-8b-docker-compose-dp4.yaml"))
    assert [s["path"] for s in skipped] == [f"{path} (run 2025-09-19-09-35-01)", f"{path} (run 2025-09-19-14-13-49)"]
    assert "_data_qwen3-moe-bs8" in skipped[0]["reason"]
    [entry] = entries
    assert entry["id"] == "optimum-neuron-llama3-1-8b-dp4-20250922t075325"
    assert entry["parallelism"] == {"tensor": 8, "data": 4} and entry["instance"] is None
    assert entry["batch_size"] == 32 and entry["sequence_length"] == 4096
    Configuration.model_validate(entry)


def test_unmapped_model_is_not_recorded() -> None:
    entries, skipped = results_entries("x", "MODEL_ID=someone/Unknown-1B\n", "x/vllm-results.csv", "", COMMIT, {})
    assert entries == [] and "FAMILY_BY_MODEL_ID" in skipped[0]["reason"]


def test_docs_page_rows_and_its_instance_note() -> None:
    entries, why_not = docs_entries("inferentia-llama3.3-70b.mdx", _read("inferentia-llama3.3-70b.mdx"), COMMIT)
    assert why_not is None
    assert [(e["id"], e["batch_size"]) for e in entries] == [
        ("optimum-neuron-docs-llama3-3-70b-bs1", 1), ("optimum-neuron-docs-llama3-3-70b-bs4", 4),
        ("optimum-neuron-docs-llama3-3-70b-bs8", 8)]
    first = entries[0]
    assert first["checkpoint"] == "Llama-3.3-70b" and first["instance"] == "inf2.48xlarge"
    assert first["parallelism"] == {"tensor": 24} and first["sequence_length"] == 4096
    assert first["source"]["url"].endswith("/docs/source/benchmarks/inferentia-llama3.3-70b.mdx#L9")
    ConfigurationsFile.model_validate({"source": "x", "description": "x", "configurations": entries})
    assert docs_entries("inferentia-llama3.3-70b.mdx", "# no table\n", COMMIT)[0] == []
    assert docs_entries("other.mdx", _read("inferentia-llama3.3-70b.mdx"), COMMIT)[0] == []


LAYOUTS = {"inf2.48xlarge": (12, 24, "inf2"), "trn1.32xlarge": (16, 32, "trn1"), "trn1n.32xlarge": (16, 32, "trn1"),
           "trn2.48xlarge": (16, 128, "trn2")}


def _compose(replicas: int, devices_each: int, tensor: int) -> str:
    services = []
    for replica in range(replicas):
        devices = "".join(f'\n      - "/dev/neuron{replica * devices_each + d}"' for d in range(devices_each))
        services.append(f"  vllm-{replica}:\n    environment:\n      - SM_ON_TENSOR_PARALLEL_SIZE={tensor}\n"
                        f"    devices:{devices}")
    return "services:\n" + "\n".join(services) + "\n"


def test_devices_times_tp_gives_the_hardware_only_when_one_generation_fits() -> None:
    """16 devices, 4 per TP-8 replica: 2 NeuronCores per device on 16 devices is trn1 only (inf2.48xlarge has 12)."""
    from harvesters.optimum_neuron_benchmarks import derived_hardware

    hardware, note = derived_hardware(8, _compose(4, 4, 8), LAYOUTS)
    assert hardware == "trn1" and note is not None and "trn1.32xlarge, trn1n.32xlarge" in note
    assert derived_hardware(8, _compose(3, 4, 8), LAYOUTS) == (None, None)  # 12 devices: inf2.48xlarge or trn1
    assert derived_hardware(8, "services: {}\n", LAYOUTS) == (None, None)  # no devices listed: not derived
