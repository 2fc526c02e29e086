"""A statement's `contradicted_by` in `check`: the report is named after the known issues (text) and listed as
`contradicted_by` (--json) for the workload and hardware asked, and the status and exit code stay what the statement
says. Runs in process on tests/check/registry with a made-up report."""

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
ANCHOR = "        verified: 2026-12-02\n  - stack: optimum-neuron\n"
REPORT = """    contradicted_by:
      - url: "https://github.com/aws-neuron/neuronx-distributed-inference/issues/999"
        title: Made-up report
        reported: 2026-03-01
        stack_version: NxD Inference 0.1, Neuron 2.21.0
        release: "2.21.0"
        hardware: trn2
        instance: trn2.48xlarge
        says: compilation fails in the context-encoding model
        verified: 2026-12-05
"""


def _registry(tmp_path: Path, with_report: bool) -> Path:
    target = tmp_path / ("with" if with_report else "without") / "registry"
    shutil.copytree(ROOT / "tests" / "check" / "registry", target)
    if with_report:
        llama = target / "families" / "llama.yaml"
        text = llama.read_text(encoding="utf-8")
        assert text.startswith("#") and text.index(ANCHOR) > 0  # the first statement: nxd-inference
        llama.write_text(text.replace(ANCHOR, ANCHOR.split("  - stack")[0] + REPORT + "  - stack: optimum-neuron\n", 1),
                         encoding="utf-8")
    return target


def _check(capsys: pytest.CaptureFixture[str], registry: Path, tmp_path: Path, *flags: str) -> tuple[int, str]:
    config = tmp_path / "config.json"
    config.write_text(json.dumps(CONFIG), encoding="utf-8")
    code = main(["check", str(config), "--registry", str(registry), *flags])
    return code, capsys.readouterr().out


def test_a_report_is_shown_and_the_answer_is_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with_report, without = _registry(tmp_path, True), _registry(tmp_path, False)
    code, out = _check(capsys, with_report, tmp_path, "--json", "--hardware", "trn2")
    plain_code, plain = _check(capsys, without, tmp_path, "--json", "--hardware", "trn2")
    answer, baseline = json.loads(out), json.loads(plain)
    assert code == plain_code and answer["status"] == baseline["status"]  # never a status
    assert baseline["contradicted_by"] == []
    [report] = answer["contradicted_by"]
    assert report["url"].endswith("/issues/999") and report["statement"]["stack"] == "nxd-inference"
    assert report["statement"]["status"] == "supported"
    assert main(["check", "--json-schema"]) == 0
    jsonschema.validate(answer, json.loads(capsys.readouterr().out))
    _, text = _check(capsys, with_report, tmp_path, "--hardware", "trn2")
    assert "Contradicted by user reports (1; evidence to weigh, the answer above is unchanged):" in text
    assert ("nxd-inference inference (supported since 2.21.0): compilation fails in the context-encoding model "
            "[NxD Inference 0.1, Neuron 2.21.0; trn2.48xlarge; reported 2026-03-01]") in text
    _, other = _check(capsys, with_report, tmp_path, "--json", "--hardware", "inf2")
    assert json.loads(other)["contradicted_by"] == []  # the report names trn2, not the hardware asked
