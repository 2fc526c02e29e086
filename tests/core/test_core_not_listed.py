"""`not-listed` (the stack's own exhaustive list leaves the model out) must cite that list: else a located error."""

from __future__ import annotations

import shutil
from pathlib import Path

from neuron_compat.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _registry_with(tmp_path: Path, url: str) -> Path:
    target = tmp_path / "registry"
    shutil.copytree(ROOT / "registry", target, ignore=shutil.ignore_patterns("upstream", "schemas"))
    shutil.copytree(ROOT / "registry" / "upstream", target / "upstream")
    path = target / "families" / "bert.yaml"
    text = path.read_text(encoding="utf-8")
    stanza = ("- stack: vllm-neuron\n  workload: inference\n  hardware: [trn2]\n  status: not-listed\n"
              "  notes:\n  - text: Not in the vLLM Neuron model recipes at 2.33.0.\n"
              f"  sources:\n  - url: {url}\n    kind: vendor-docs\n    verified: 2026-12-04\n")
    path.write_text(text.replace("\nsupport:\n", "\nsupport:\n" + stanza, 1), encoding="utf-8")
    return target


def test_a_not_listed_statement_without_its_list_is_a_located_error(tmp_path, capsys) -> None:
    registry = _registry_with(tmp_path, "https://example.com/a-blog-post")
    assert main(["validate", str(registry)]) == 1
    out = capsys.readouterr()
    lines = [line for line in (out.out + out.err).splitlines() if "not-listed" in line and "error" not in line[:0]]
    assert any("bert.yaml:" in line and "must cite the stack's own exhaustive list" in line for line in lines), lines
    assert any("model-recipes" in line for line in lines)


def test_a_not_listed_statement_citing_its_list_validates(tmp_path, capsys) -> None:
    url = "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.33.0/vllm-neuron/docs/model-recipes/index.html"
    registry = _registry_with(tmp_path, url)
    main(["validate", str(registry)])
    out = capsys.readouterr()
    assert "must cite the stack's own exhaustive list" not in out.out + out.err


def test_nxd_inference_keeps_no_exhaustive_list_so_not_listed_is_refused_with_why(tmp_path, capsys) -> None:
    registry = _registry_with(tmp_path, "https://github.com/aws-neuron/aws-neuron-sdk/blob/v2.32.0/libraries/"
                              "nxd-inference/developer_guides/model-reference.rst")
    path = registry / "families" / "bert.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("- stack: vllm-neuron\n", "- stack: nxd-inference\n", 1),
                    encoding="utf-8")
    assert main(["validate", str(registry)]) == 1
    captured = capsys.readouterr()
    out = captured.out + captured.err
    [line] = [line for line in out.splitlines() if "must cite the stack's own exhaustive list" in line]
    assert "bert.yaml:" in line and "use status unknown: nxd-inference keeps no exhaustive list" in line
    assert "Production Ready Models" in line
