"""The PR workflow's annotations: `validate --format github` puts each problem on its file and line."""

from __future__ import annotations

from pathlib import Path

from contrib_helpers import run_cli


def test_each_problem_is_an_error_annotation_on_its_line(registry: Path, tmp_path: Path) -> None:
    llama = registry / "families" / "llama.yaml"
    llama.write_text(llama.read_text().replace("status: partial", "status: suported"))
    bert = registry / "families" / "bert.yaml"
    bert.write_text(bert.read_text().replace("verified: 2026-12-02", "verified: 2026-13-02"))
    result = run_cli("validate", "registry", "--format", "github", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert "::error file=registry/families/llama.yaml,line=33,col=13,title=neuron-compat schema::support[1].status: " \
           "'suported' is not one of the allowed values (did you mean 'supported'?)" in lines
    bert_lines = [line for line in lines if "bert.yaml" in line]
    assert len(bert_lines) == 1
    assert bert_lines[0].startswith("::error file=registry/families/bert.yaml,line=")
    assert "cannot read '2026-13-02' as a date" in bert_lines[0]
    # the annotated line is the line that holds the bad value
    line_number = int(bert_lines[0].split("line=")[1].split(",")[0])
    assert bert.read_text().splitlines()[line_number - 1].strip() == "verified: 2026-13-02"
