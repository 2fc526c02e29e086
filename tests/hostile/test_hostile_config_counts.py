"""Counts in a config that drive work are bounded: `architectures` lists at most MAX_ARCHITECTURES names
(refused with one line past it), and the family lookup by class name is one index, not names x families."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from neuron_compat.check.config_facts import MAX_ARCHITECTURES
from neuron_compat.cli import main

REGISTRY = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "registry"


@pytest.mark.parametrize("count", [MAX_ARCHITECTURES + 1, 150_000])
def test_a_config_with_too_many_architectures_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          count: int) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"architectures": [f"A{index}" for index in range(count)]}), encoding="utf-8")
    started = time.monotonic()
    code = main(["check", "--offline", str(path)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"architectures lists {count} names" in err and len(err.strip().splitlines()) == 1, err
    assert time.monotonic() - started < 10


def test_the_last_of_many_architectures_still_matches(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = [f"Unknown{index}Model" for index in range(MAX_ARCHITECTURES - 1)] + ["LlamaForCausalLM"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"architectures": names}), encoding="utf-8")
    code = main(["check", "--offline", "--registry", str(REGISTRY), "--json", str(path)])
    out = capsys.readouterr().out
    assert code in (0, 3, 4, 5), out
    document = json.loads(out)
    assert document["family"]["id"] == "llama" and document["family"]["matched_by"] == "architectures", document["family"]
