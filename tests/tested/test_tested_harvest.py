"""The NxD Inference contrib README harvester on a fixture README: what it reads, what `None` means, that
measurements without a stated release are kept with the part's date (and dropped, with a note, where the date is not
a real one), and that a token-matching check marked partial or failed qualifies the outcome."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from harvesters.nxdi_contrib_readme import (
    FAMILY_BY_MODEL_DIR,
    STACK_BY_MODEL_DIR,
    WHY_NOT_MAPPED,
    configuration_entries,
    parse_configuration,
    release_for,
)

from neuron_compat.contract.tested_configurations import TestedConfiguration as Configuration

README = (Path(__file__).parent / "fixtures" / "contrib_readme.md").read_text(encoding="utf-8")
RELEASES = [("2.27.0", dt.date(2025, 12, 19)), ("2.27.1", dt.date(2026, 1, 14)),
            ("2.28.0", dt.date(2026, 2, 26)), ("2.28.1", dt.date(2026, 3, 13))]
COMMIT = "4bcdc54bf3b6ccdad490e5cd0680a3dc95270b8e"


def _entries() -> list[dict[str, object]]:
    FAMILY_BY_MODEL_DIR.setdefault("Example-7B", "llama")
    entries, why_not = configuration_entries("Example-7B", README, COMMIT, RELEASES)
    assert why_not is None
    return entries


def test_none_is_unknown_not_zero() -> None:
    assert parse_configuration("TP=2, batch_size=None, seq_len=None, None") == {"tensor": 2}
    assert parse_configuration("batch_size=1, seq_len=128, tp_degree=2, bf16") == {
        "batch_size": 1, "sequence_length": 128, "tensor": 2, "dtype": "bf16"}
    assert parse_configuration("TP=0, batch_size=-1, seq_len=abc, float16") == {"dtype": "fp16"}
    # digits of another script are not numbers here: superscript two, Arabic-Indic three, 1e308
    assert parse_configuration("TP=\u00b2, batch_size=\u0663, seq_len=1e308") == {}


def test_release_from_sdk_words() -> None:
    assert release_for("SDK 2.28", "2026-03-04", RELEASES) == "2.28.0"  # 2.28.1 came out on 2026-03-13
    assert release_for("SDK 2.28", "2026-04-06", RELEASES) is None  # both 2.28 releases were out: ambiguous
    assert release_for("SDK 2.27", "2026-03-05", RELEASES) is None
    assert release_for("SDK 2.28.1", None, RELEASES) == "2.28.1"
    assert release_for("SDK 2.99", "2026-03-04", RELEASES) is None
    assert release_for(None, "2026-03-04", RELEASES) is None


def test_validation_part_with_its_release_keeps_measurements() -> None:
    validated = _entries()[0]
    assert validated["id"] == "nxdi-contrib-example-7b-validated-l12"
    assert validated["checkpoint"] == validated["hub_id"] == "example-org/Example-7B"
    assert validated["release"] == "2.28.0" and validated["release_stated"] == "SDK 2.28"
    assert validated["instance"] is None
    assert validated["parallelism"] == {"tensor": 2}
    assert "batch_size" not in validated and validated["sequence_length"] == 512 and validated["dtype"] == "bf16"
    assert validated["outcome"] == "compiled-and-ran"
    assert validated["measurements"] == [
        {"metric": "token-matching", "value": 84.7, "unit": "percent"},
        {"metric": "ttft", "value": 55.0, "unit": "ms", "approximate": True},
        {"metric": "throughput", "value": 22.8, "unit": "tokens/s"},
    ]
    assert validated["source"]["url"].endswith(f"/blob/{COMMIT}/contrib/models/Example-7B/README.md#L12")
    Configuration.model_validate(validated)


def test_profiling_part_without_a_release_keeps_measurements_with_its_date() -> None:
    profiled = _entries()[1]
    assert profiled["instance"] == "trn1.32xlarge" and profiled["validated"] == dt.date(2026, 3, 18)
    assert profiled["release"] is None and profiled["batch_size"] == 1
    assert profiled["outcome"] == "compiled-and-ran"
    assert {m["metric"] for m in profiled["measurements"]} == {"mfu", "mbu", "throughput", "compile-time"}
    assert {"metric": "compile-time", "value": 359.84, "unit": "s"} in profiled["measurements"]
    assert "notes" not in profiled
    Configuration.model_validate(profiled)


def test_an_accuracy_check_marked_partial_qualifies_every_part() -> None:
    assert {entry["outcome_qualifier"] for entry in _entries()} == {"accuracy check partial: 84.7% token match"}
    failed = README.replace("⚠️ PARTIAL | **84.7% match**", "❌ FAIL | **0% match** (needs work)")
    entries, _ = configuration_entries("Example-7B", failed, COMMIT, RELEASES)
    assert entries[0]["outcome"] == "compiled-and-ran"
    assert entries[0]["outcome_qualifier"] == "accuracy check failed: 0% token match"


def test_an_impossible_or_future_date_drops_the_measurements_not_the_harvest() -> None:
    FAMILY_BY_MODEL_DIR.setdefault("Example-7B", "llama")
    for day in ("2026-02-30", "2999-01-01"):
        text = README.replace("**Profiled:** 2026-03-18", f"**Profiled:** {day}")
        profiled = configuration_entries("Example-7B", text, COMMIT, RELEASES)[0][1]
        assert profiled["validated"] is None and "measurements" not in profiled
        assert "neither the Neuron release nor a real date" in profiled["notes"][0]
        Configuration.model_validate(profiled)


def test_unmapped_and_untemplated_readmes_are_not_recorded() -> None:
    assert configuration_entries("No-Such-Model", README, COMMIT, RELEASES) == (
        [], "no registry family is mapped to this model (FAMILY_BY_MODEL_DIR)")
    FAMILY_BY_MODEL_DIR.setdefault("Example-7B", "llama")
    entries, why_not = configuration_entries("Example-7B", "# A README\n\nNo results here.\n", COMMIT, RELEASES)
    assert entries == [] and why_not is not None and "Validated" in why_not


def test_checkpoint_name_without_org_is_kept_as_written() -> None:
    FAMILY_BY_MODEL_DIR.setdefault("Example-7B", "llama")
    text = README.replace("`example-org/Example-7B`", "`Example-7B`")
    entries, _ = configuration_entries("Example-7B", text, COMMIT, RELEASES)
    assert entries[0]["checkpoint"] == "Example-7B" and "hub_id" not in entries[0]


def test_a_readme_left_out_on_purpose_says_why() -> None:
    entries, why_not = configuration_entries("ZUNA", README, COMMIT, RELEASES)
    assert entries == [] and why_not == WHY_NOT_MAPPED["ZUNA"] and "torch_neuronx.trace()" in why_not
    assert not set(WHY_NOT_MAPPED) & set(FAMILY_BY_MODEL_DIR)
    assert all(len(reason) <= 200 for reason in WHY_NOT_MAPPED.values())  # the contract's limit for a reason


def test_a_traced_port_is_recorded_on_its_own_stack() -> None:
    STACK_BY_MODEL_DIR.setdefault("Traced-Example", "torch-neuronx")
    FAMILY_BY_MODEL_DIR.setdefault("Traced-Example", "llama")
    traced, _ = configuration_entries("Traced-Example", README, COMMIT, RELEASES)
    assert traced and {entry["stack"] for entry in traced} == {"torch-neuronx"}
    assert {entry["stack"] for entry in _entries()} == {"nxd-inference"}


PERFORMANCE_README = """# Contrib Model: tiny

- **HuggingFace ID:** `example-org/Tiny`

## Validation Results

**Validated:** 2026-03-16
**Configuration:** TP=1, batch_size=1, seq_len=128, bfloat16

| Test | Status | Result |
|------|--------|--------|
| Token Matching | PASS | **100.0% match** (200/200 tokens, 10 prompts) |
| Profiling | PASS | **437.4 tokens/sec** |

**Status:** EXCELLENT

## Performance

Profiled on trn1.32xlarge (single NeuronCore utilization):

| Metric | Context Encoding | Token Generation |
|--------|-----------------|------------------|
| Throughput | - | 449.3 tok/s |
| MBU (Memory) | 11.0% | 10.8% |
| MFU (Compute) | 4.5% | 0.0% |

*Batch size 1, sequence length 128, BF16 precision, TP=2*
## Testing
"""


def test_a_performance_section_is_its_own_run_not_the_validations() -> None:
    FAMILY_BY_MODEL_DIR.setdefault("Tiny", "llama")
    (validated, profiled), why_not = configuration_entries("Tiny", PERFORMANCE_README, COMMIT, RELEASES)
    assert why_not is None
    assert validated["instance"] is None
    assert [(m["metric"], m["value"]) for m in validated["measurements"]] == [("token-matching", 100.0), ("throughput", 437.4)]
    assert profiled["id"] == "nxdi-contrib-tiny-profiled-l19" and profiled["instance"] == "trn1.32xlarge"
    assert (profiled["parallelism"], profiled["batch_size"], profiled["sequence_length"], profiled["dtype"]) == (
        {"tensor": 2}, 1, 128, "bf16")
    assert profiled["outcome"] == "compiled-and-ran" and "measurements" not in profiled  # no release, no date
    [note] = profiled["notes"]
    assert "token-generation throughput 449.3 tokens/s; context-encoding mbu 11.0 percent" in note
    assert "token-generation mfu 0.0 percent" in note
    Configuration.model_validate(profiled)
