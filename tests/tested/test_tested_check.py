"""`check` names the tested configurations of the checkpoint, else of its family, on the instance asked for;
`check --json` carries them and its JSON Schema describes them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from neuron_compat.cli import main

ROOT = Path(__file__).resolve().parents[2]
CONFIG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 32,
          "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256,
          "torch_dtype": "bfloat16"}


@pytest.fixture()
def registry(tmp_path: Path) -> Path:
    target = tmp_path / "registry"
    shutil.copytree(ROOT / "tests" / "check" / "registry", target)
    shutil.copy(ROOT / "registry" / "instances.yaml", target / "instances.yaml")
    (target / "configurations").mkdir()
    shutil.copy(Path(__file__).parent / "fixtures" / "reported.yaml", target / "configurations" / "reported.yaml")
    return target


def _check(capsys: pytest.CaptureFixture[str], registry: Path, tmp_path: Path, *flags: str) -> tuple[int, str]:
    config = tmp_path / "config.json"
    config.write_text(json.dumps(CONFIG), encoding="utf-8")
    code = main(["check", str(config), "--registry", str(registry), *flags])
    return code, capsys.readouterr().out


def test_json_lists_only_runs_of_the_instance_asked_and_the_rest_apart_with_why(
        registry: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _check(capsys, registry, tmp_path, "--json", "--instance", "trn1.2xlarge")
    tested = json.loads(out)["tested_configurations"]
    assert (tested["matched_by"], tested["hardware"], tested["workload"]) == (None, "trn1", "inference")
    assert tested["configurations"] == [] and tested["total"] == 0  # none on trn1.2xlarge itself
    why = {c["id"]: c["scope"]["why_other"] for c in tested["other_sizes"]}
    assert why == {"llama-8b-trn1": "on trn1.32xlarge, not trn1.2xlarge", "llama-8b-inf2": "on inf2, not trn1"}
    measured = next(c for c in tested["other_sizes"] if c["id"] == "llama-8b-trn1")["measurements"][0]
    assert measured == {"metric": "throughput", "name": None, "value": 41.5, "unit": "tokens/s",
                        "phase": "token-generation", "percentile": None, "approximate": False}
    _, out = _check(capsys, registry, tmp_path, "--json")
    tested = json.loads(out)["tested_configurations"]
    assert (tested["total"], tested["matched_by"]) == (2, "family")  # 8B runs: this size (parameters within 25%)
    assert "parameters within 25%" in tested["scope"]
    _, out = _check(capsys, registry, tmp_path, "--json", "--instance", "trn2.48xlarge")
    tested = json.loads(out)["tested_configurations"]
    assert (tested["matched_by"], tested["total"], tested["other_sizes_total"]) == (None, 0, 2)
    _, out = _check(capsys, registry, tmp_path, "--json", "--workload", "training")
    tested = json.loads(out)["tested_configurations"]
    assert tested["total"] == 0 and {c["scope"]["why_other"] for c in tested["other_sizes"]} == {
        "an inference run (training asked)"}


def test_table_lists_them_next_to_the_fit(registry: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _check(capsys, registry, tmp_path, "--instance", "inf2.48xlarge")
    assert "Tested configurations for this question, of its family at this size: 1 (inference runs on inf2.48xlarge" in out
    assert "meta-llama/Llama-3.1-8B-Instruct | optimum-neuron | inference | release 2.21.0 | inf2.48xlarge | TP=24" in out
    assert "| batch " in out and "| seq len " in out
    assert out.index("Fit (an estimate") < out.index("Tested configurations") < out.index("Result:")


def test_json_schema_describes_them(registry: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--json-schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "tested_configurations" in schema["required"]
    _, out = _check(capsys, registry, tmp_path, "--json", "--instance", "trn1.32xlarge")
    jsonschema.validate(json.loads(out), schema)


def test_a_llama_31_8b_config_lists_measured_throughput_from_the_real_registry(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The committed registry: a config.json naming meta-llama/Llama-3.1-8B-Instruct gets its checkpoint page and
    the throughput Optimum Neuron's results file measured (release not stated, with its run date)."""
    config = tmp_path / "config.json"
    config.write_text(json.dumps({**CONFIG, "_name_or_path": "meta-llama/Llama-3.1-8B-Instruct"}), encoding="utf-8")
    assert main(["check", str(config), "--registry", str(ROOT / "registry")]) in (0, 3)
    out = capsys.readouterr().out
    assert "Checkpoint page: checkpoints/meta-llama/Llama-3.1-8B-Instruct/" in out
    assert "Tested configurations for this question, of this checkpoint:" in out
    measured = [line for line in out.splitlines() if line.strip().startswith("measured: throughput")]
    assert any("tokens/s" in line and "(release not stated; measured by 2025-10-16)" in line for line in measured)
    # runs recorded under its old Hub name (meta-llama/Meta-Llama-3.1-8B-Instruct) are this checkpoint's too
    assert any("(release not stated; measured by 2025-09-16)" in line for line in measured)
    assert "| TP=4 | batch 32 | seq len 4096 |" in out


def test_instance_lists_its_own_runs_and_the_others_under_their_own_heading(
        registry: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out = _check(capsys, registry, tmp_path, "--instance", "trn1.2xlarge")
    assert "Tested configurations for this question: none recorded (inference runs on trn1.2xlarge" in out
    assert "Not evidence for this question (other sizes / other hardware): 2" in out
    assert "not counted here: on trn1.32xlarge, not trn1.2xlarge" in out
    assert out.index("Not evidence") < out.index("trn1.32xlarge |")


_SERIES = """source: ledger-test
description: One configuration measured at three releases (made up for the tests).
configurations:
""" + "".join(f"""  - id: llama-8b-series-{release.replace('.', '-')}
    family: llama
    checkpoint: meta-llama/Llama-3.1-8B-Instruct
    stack: optimum-neuron
    release: "{release}"
    instance: trn1.32xlarge
    parallelism: {{tensor: 32}}
    batch_size: 4
    setting: made-up series
    outcome: compiled-and-ran
    measurements:
      - {{metric: throughput, value: {value}, unit: tokens/s}}
    validated: 2026-11-0{index + 1}
    source: {{url: "https://github.com/aws-neuron/aws-neuron-sdk/issues/{10 + index}"}}
    evidence: user-report
""" for index, (release, value) in enumerate([("2.20.0", 100), ("2.21.0", 120), ("2.22.0", 90)]))


def test_a_configuration_measured_at_several_releases_shows_its_trend(
        registry: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (registry / "configurations" / "ledger-test.yaml").write_text(_SERIES, encoding="utf-8")
    _, out = _check(capsys, registry, tmp_path, "--json", "--instance", "trn1.32xlarge")
    answer = json.loads(out)
    tested = answer["tested_configurations"]
    trended = [c for c in tested["configurations"] if c.get("trend")]
    assert {c["id"] for c in trended} == {"llama-8b-series-2-20-0", "llama-8b-series-2-21-0", "llama-8b-series-2-22-0"}
    trend = trended[0]["trend"]
    assert trend["releases"] == ["2.20.0", "2.21.0", "2.22.0"]
    [metric] = trend["metrics"]
    assert [(p["release"], p["value"], p["source"][-2:]) for p in metric["points"]] == [
        ("2.20.0", 100.0, "10"), ("2.21.0", 120.0, "11"), ("2.22.0", 90.0, "12")]
    assert "trend" not in next(c for c in tested["configurations"] if c["id"] == "llama-8b-trn1")  # a single point
    assert main(["check", "--json-schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "trend" in json.dumps(schema)
    jsonschema.validate(answer, schema)
    _, text = _check(capsys, registry, tmp_path, "--instance", "trn1.32xlarge")
    assert "throughput (tokens/s): 2.20.0 100 -> 2.21.0 120 -> 2.22.0 90 (-10.0% first to last)" in text
    assert text.count("trend over releases (3 releases of this configuration)") == 1  # once per series
    assert "2 more of those listed are other releases of a series shown above" in text
