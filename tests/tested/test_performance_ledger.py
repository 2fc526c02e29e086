"""The performance ledger: per-tag rows of the Neuron performance pages kept as one configuration per measured
point (scripts/harvest_neuron_performance.py `ledger`), and the series, trends and moves derived from them
(neuron_compat.views.performance_series). Small hand-made rows, shaped as the harvester writes them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

from neuron_compat.contract.tested_configurations import TestedConfiguration as Configuration
from neuron_compat.views.performance_series import (
    count_long_series,
    moves_at,
    performance_series,
    trend,
    trend_line,
)

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("harvest_neuron_performance_ledger",
                                                  ROOT / "scripts" / "harvest_neuron_performance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _row(tag: str, release: str, throughput: float, *, batch: int = 1, line: int = 2) -> dict[str, Any]:
    return {
        "id": f"nperf-inf2-tput-encoder-bert-base-uncased-l{line}", "family": "bert", "checkpoint": "bert-base-uncased",
        "stack": "torch-neuronx", "release": release, "instance": "inf2.xlarge", "workload": "inference",
        "batch_size": batch, "sequence_length": 128, "dtype": "fp32",
        "setting": "encoder models / latency optimized; run mode data parallel", "outcome": "compiled-and-ran",
        "measurements": [{"metric": "throughput", "name": "inferences/s", "value": throughput, "unit": "samples/s"}],
        "validated": None, "evidence": "vendor-docs", "notes": ["The page gives framework PyTorch 2.1."],
        "source": {"url": f"https://github.com/aws-neuron/aws-neuron-sdk/blob/{tag}/about-neuron/benchmarks/inf2/"
                          f"throughput_data_encoder.csv#L{line}"},
    }


def test_a_row_later_tags_repeat_is_one_point_cited_at_the_first_tag_that_shows_it() -> None:
    points = _script().ledger([
        ("v2.20.0", [_row("v2.20.0", "2.20.0", 100.0)]),
        ("v2.20.1", [_row("v2.20.1", "2.20.0", 100.0)]),
        ("v2.21.0", [_row("v2.21.0", "2.21.0", 120.0)]),
    ])
    assert len(points) == 2
    first = points[0]
    assert "/blob/v2.20.0/" in first["source"]["url"] and first["release"] == "2.20.0"
    assert "at 2 tag(s), v2.20.0 to v2.20.1" in first["notes"][-1]
    assert first["id"].startswith("nperf-bert-base-uncased-inf2-xlarge-2-20-0-")
    for point in points:
        Configuration.model_validate(point)


def test_a_later_tag_that_restates_a_release_with_other_values_wins_and_says_so() -> None:
    [point] = _script().ledger([
        ("v2.20.0", [_row("v2.20.0", "2.20.0", 100.0)]),
        ("v2.20.1", [_row("v2.20.1", "2.20.0", 90.0)]),
    ])
    assert point["measurements"][0]["value"] == 90.0 and "/blob/v2.20.1/" in point["source"]["url"]
    assert "Earlier tags (v2.20.0) gave other values" in point["notes"][-1]


def test_series_join_points_of_one_configuration_and_keep_other_shapes_apart() -> None:
    rows = [_row("v2.20.0", "2.20.0", 100.0), _row("v2.21.0", "2.21.0", 120.0),
            _row("v2.22.0", "2.22.0", 107.0), _row("v2.22.0", "2.22.0", 50.0, batch=8)]
    [series] = performance_series(rows, ["2.20.0", "2.21.0", "2.22.0"])
    assert series.labels == ["2.20.0", "2.21.0", "2.22.0"]
    assert count_long_series([series]) == 1 and count_long_series([series], minimum=4) == 0
    assert "bert-base-uncased, torch-neuronx, inf2.xlarge, batch 1, seq 128, fp32" == series.title()
    [metric] = series.metrics()
    assert trend_line(series, metric) == ("throughput (inferences/s, samples/s): 2.20.0 100 -> 2.21.0 120 -> "
                                          "2.22.0 107 (+7.0% overall)")
    as_json = trend(series)
    assert [p["value"] for p in as_json["metrics"][0]["points"]] == [100.0, 120.0, 107.0]
    assert as_json["metrics"][0]["points"][0]["source"].endswith("#L2")


def test_a_release_lists_what_moved_by_ten_percent_against_the_point_before() -> None:
    rows = [_row("v2.20.0", "2.20.0", 100.0), _row("v2.21.0", "2.21.0", 120.0), _row("v2.22.0", "2.22.0", 112.0)]
    series = performance_series(rows, ["2.20.0", "2.21.0", "2.22.0"])
    [move] = moves_at(series, "2.21.0")
    assert (move.before.label, move.after.label, round(move.change, 3)) == ("2.20.0", "2.21.0", 0.2)
    assert "/blob/v2.20.0/" in move.before.source_url and "/blob/v2.21.0/" in move.after.source_url
    assert moves_at(series, "2.22.0") == []  # -6.7%: under the threshold
    assert moves_at(series, "2.20.0") == []  # nothing before it


def test_a_point_at_a_release_releases_yaml_lacks_is_labelled_by_the_source_words() -> None:
    older = {**_row("v2.14.0", "2.14.0", 80.0), "release": None, "release_stated": "2.14.0",
             "validated": "2023-09-15"}
    [series] = performance_series([older, _row("v2.20.0", "2.20.0", 100.0)], ["2.20.0"])
    assert [(p.label, p.listed) for p in series.points] == [("2.14.0", False), ("2.20.0", True)]
    assert count_long_series([series], minimum=2, listed_only=True) == 0
