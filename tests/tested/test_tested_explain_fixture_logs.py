"""Whole logs as users paste them (tests/tested/fixtures/explain_logs/, written for this suite in the shapes of the
public threads and docs each entry cites): the right entry comes first, unrelated logs (a CUDA out-of-memory, a clean
compile, a CPU allocator, too many open files, a truncated AttributeError) match nothing, and an error on the last line
of a 10 MB log is found quickly."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from neuron_compat.check.explain import match_issues
from neuron_compat.check.log_lines import error_blocks

ROOT = Path(__file__).resolve().parents[2]
LOGS = Path(__file__).resolve().parent / "fixtures" / "explain_logs"


def _issues() -> list[dict[str, Any]]:
    issues: list[dict[str, Any]] = []
    for path in sorted((ROOT / "registry" / "known-issues").glob("*.yaml")):
        issues.extend(yaml.safe_load(path.read_text(encoding="utf-8"))["issues"])
    return issues


ISSUES = _issues()
FIRST: dict[str, set[str]] = {
    "f137_compile_killed.log": {"compiler-f137-forcibly-killed"},
    "cores_in_use_nrt.log": {"runtime-neuroncores-held-by-another-process", "runtime-ts-neuron-core-is-in-use-127",
                             "nxd-training-ts-neuroncore-s-not-availab-251"},
    "cores_in_use_notebook.log": {"runtime-neuroncores-held-by-another-process"},
    "hbm_ecc_uncorrectable.log": {"runtime-hardware-uncorrectable-error", "runtime-ts-hardware-errors-408"},
    "sram_ecc_uncorrectable.log": {"runtime-hardware-uncorrectable-error", "runtime-ts-hardware-errors-408"},
    "hbm_alloc_log_dev_mem.log": {"runtime-device-memory-allocation"},
    "hbm_alloc_status4.log": {"runtime-device-memory-allocation"},
    "hbm_alloc_load_collectives.log": {"runtime-device-memory-allocation"},
    "triton_dataclass.log": {"pytorch-ts-import-torch-xla-crashed-with-108"},
    "vllm_triton_default_dump_dir.log": {"vllm-triton-default-dump-dir"},
    "collective_timeout.log": {"runtime-ts-communication-timeout-596", "nxd-training-ts-nccl-warning-nccl-warn-t-382"},
    "driver_missing.log": {"runtime-ts-application-fails-to-start-66"},
    "driver_too_old.log": {"runtime-ts-application-fails-to-start-66"},
    "runtime_driver_compat.log": {"runtime-ts-this-neuron-runtime-compatibi-90"},
    "neff_version_mismatch.log": {"runtime-ts-unsupported-neff-version-144"},
}
NOTHING = ["neg_cuda_oom.log", "neg_gpu_nccl_watchdog.log", "neg_clean_compile.log", "neg_cpu_allocator.log", "neg_too_many_files.log",
           "neg_truncated_attributeerror.log"]


def test_every_log_is_named_and_every_expected_entry_exists() -> None:
    assert sorted(p.name for p in LOGS.glob("*.log")) == sorted([*FIRST, *NOTHING])
    ids = {issue["id"] for issue in ISSUES}
    assert sorted(i for expected in FIRST.values() for i in expected if i not in ids) == []


@pytest.mark.parametrize("name", sorted(FIRST))
def test_the_right_entry_comes_first(name: str) -> None:
    found = match_issues((LOGS / name).read_text(encoding="utf-8"), ISSUES)
    assert found, name
    assert found[0].issue["id"] in FIRST[name], [(m.issue["id"], m.tier, round(m.score)) for m in found[:3]]
    assert found[0].evidence and found[0].evidence[0].line >= 1


@pytest.mark.parametrize("name", NOTHING)
def test_unrelated_logs_match_nothing(name: str) -> None:
    found = match_issues((LOGS / name).read_text(encoding="utf-8"), ISSUES)
    assert [(m.issue["id"], m.evidence[0].text[:80]) for m in found] == []


def test_an_error_on_the_last_line_of_a_10_mb_log_is_found_quickly() -> None:
    line = "2026-12-05 01:02:03.456 INFO [neuronx-cc] pass 17 of module 4242 took 0.873s; status ok\n"
    killed = next(text for text in (LOGS / "f137_compile_killed.log").read_text("utf-8").splitlines() if "[F137]" in text)
    log = line * (10 * 1024 * 1024 // len(line)) + killed
    started = time.perf_counter()
    found = match_issues(log, ISSUES)
    elapsed = time.perf_counter() - started
    assert [m.issue["id"] for m in found][:1] == ["compiler-f137-forcibly-killed"]
    assert found[0].evidence[0].line == log.count("\n") + 1
    assert elapsed < 2.0, elapsed


def test_the_last_error_lines_are_kept_when_a_log_has_more_than_the_cap() -> None:
    log = "".join(f"ERROR line {n}\n" for n in range(5000)) + "the end\n"
    blocks, skipped = error_blocks(log)
    assert skipped == 5000 - 400 and blocks[-1].last == 5001 and blocks[0].first >= 4600 - 1
