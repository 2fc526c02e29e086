"""A config nested hundreds of levels deep (a `text_config` inside a `text_config` ...) is refused where it is
read, with one line: a local file, a model folder and the Hub's cached copy all go through
`config_facts.parse_config_text`, so no code that walks a config (the facts, the KV-cache sizing) meets it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from neuron_compat.check import hub_client
from neuron_compat.check.config_facts import MAX_CONFIG_DEPTH, nesting_depth
from neuron_compat.cli import main


def nested_config(levels: int, key: str = "text_config") -> dict[str, Any]:
    inner: dict[str, Any] = {"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4,
                             "num_hidden_layers": 2, "num_key_value_heads": 4, "vocab_size": 100}
    for _ in range(levels):
        inner = {"model_type": "llava", "architectures": ["LlavaForConditionalGeneration"], key: inner}
    return inner


@pytest.mark.parametrize(("levels", "key"), [(400, "text_config"), (MAX_CONFIG_DEPTH, "text_config"),
                                             (300, "rope_scaling"), (200, "llm_config")])
@pytest.mark.parametrize("as_folder", [False, True])
def test_a_deeply_nested_local_config_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  levels: int, key: str, as_folder: bool) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(nested_config(levels, key)), encoding="utf-8")
    code = main(["check", "--offline", str(tmp_path if as_folder else path), "--instance", "trn1.2xlarge"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "Traceback" not in err and "RecursionError" not in err
    assert f"nested more than {MAX_CONFIG_DEPTH} levels deep" in err and len(err.strip().splitlines()) == 1, err


def test_a_deep_config_from_the_hub_cache_is_refused(tmp_path: Path) -> None:
    cached = tmp_path / "config.json"
    cached.write_text(json.dumps(nested_config(500)), encoding="utf-8")
    with pytest.raises(hub_client.HubError, match="levels deep"):
        hub_client._read_cached_file(str(cached), "someone/deep")


def test_a_config_of_ordinary_depth_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(nested_config(3)), encoding="utf-8")
    main(["check", "--offline", str(path)])
    assert "levels deep" not in capsys.readouterr().err


def test_nesting_depth_counts_objects_and_arrays_without_recursion() -> None:
    assert nesting_depth(1) == 0 and nesting_depth({}) == 1 and nesting_depth({"a": [[1]]}) == 3
    deep: Any = 0
    for _ in range(100_000):  # far past the interpreter's recursion limit
        deep = [deep]
    assert nesting_depth(deep) == MAX_CONFIG_DEPTH + 1  # stops counting once past the limit
