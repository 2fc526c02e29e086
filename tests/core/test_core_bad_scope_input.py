"""Bad scope input (issue 21): a family naming an unknown class, a capability range naming an unknown code path or
class, an `applies_to` naming a task the family does not declare or a checkpoint it does not list. Each is one
located error (file:line:col, field) with a did-you-mean hint and exit 1 in every `validate --format`, and neither
`add-evidence` (on that family) nor `new` writes anything while it stands."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from test_core_cli_validate_export import FIXTURE, cli

Break = Callable[[Path], None]


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _unknown_class(registry: Path) -> None:
    _replace(registry / "families" / "bert.yaml", "classes: [encoder]", "classes: [encoer]")


def _unknown_code_path(registry: Path) -> None:
    _replace(registry / "stacks.yaml", "    status: active\n    versions:", "    status: active\n    code_paths:\n"
             "      - {id: traced-transformers, name: Traced transformers, classes: [encoder]}\n    versions:")
    _replace(registry / "capabilities" / "optimum-neuron.yaml", '    until: "2.21.0"\n',
             '    until: "2.21.0"\n    code_paths: [traced-transformer]\n')


def _unknown_range_class(registry: Path) -> None:
    _replace(registry / "capabilities" / "optimum-neuron.yaml", '    until: "2.21.0"\n',
             '    until: "2.21.0"\n    classes: [encodr]\n')


def _undeclared_task(registry: Path) -> None:
    bert = registry / "families" / "bert.yaml"
    _replace(bert, "model_types: [bert]\n", "model_types: [bert]\ntasks: [token-classification]\n")
    _replace(bert, '    stack_since: "0.0.25"\n', '    stack_since: "0.0.25"\n    constraints:\n'
             "      - kind: static-shapes\n        applies_to: {tasks: [text-classification]}\n")


def _unlisted_checkpoint(registry: Path) -> None:
    bert = registry / "families" / "bert.yaml"
    _replace(bert, "model_types: [bert]\n", "model_types: [bert]\nexamples: [google-bert/bert-base-uncased]\n")
    _replace(bert, '    stack_since: "0.0.25"\n', '    stack_since: "0.0.25"\n    notes:\n'
             "      - text: Exported with static shapes.\n"
             "        applies_to: {checkpoints: [google-bert/bert-base-cased]}\n")


CASES: dict[str, tuple[Break, str, str, str]] = {
    # name: (break it, file, field, did-you-mean value)
    "unknown class": (_unknown_class, "registry/families/bert.yaml", "classes[0]", "encoder"),
    "unknown code path": (_unknown_code_path, "registry/capabilities/optimum-neuron.yaml",
                          "capabilities[0].code_paths[0]", "traced-transformers"),
    "unknown class of a range": (_unknown_range_class, "registry/capabilities/optimum-neuron.yaml",
                                 "capabilities[0].classes[0]", "encoder"),
    "undeclared task": (_undeclared_task, "registry/families/bert.yaml",
                        "support[0].constraints[0].applies_to.tasks[0]", "token-classification"),
    "unlisted checkpoint": (_unlisted_checkpoint, "registry/families/bert.yaml",
                            "support[0].notes[0].applies_to.checkpoints[0]", "google-bert/bert-base-uncased"),
}


def _snapshot(registry: Path) -> dict[str, bytes]:
    return {str(p.relative_to(registry)): p.read_bytes() for p in sorted(registry.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_scope_input_is_one_located_error_in_every_format_and_nothing_is_written(tmp_path: Path, name: str) -> None:
    breaks, file, field, meant = CASES[name]
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURE, registry)
    breaks(registry)

    as_json = cli("validate", "registry", "--format", "json", cwd=tmp_path)
    assert as_json.returncode == 1, as_json.stdout
    [problem] = json.loads(as_json.stdout)
    assert (problem["file"], problem["field"]) == (file, field)
    assert problem["line"] > 0 and problem["column"] > 0
    assert f"did you mean '{meant}'?" in problem["hint"]
    location = f"{file}:{problem['line']}:{problem['column']}: {field}: "

    text = cli("validate", "registry", "--format", "text", cwd=tmp_path)
    assert text.returncode == 1
    assert location in text.stdout and f"did you mean '{meant}'?" in text.stdout
    assert "Traceback" not in text.stdout + text.stderr

    github = cli("validate", "registry", "--format", "github", cwd=tmp_path)
    assert github.returncode == 1
    assert f"::error file={file},line={problem['line']},col={problem['column']}," in github.stdout
    assert f"{field}: " in github.stdout and f"did you mean '{meant}'?" in github.stdout

    before = _snapshot(registry)
    (tmp_path / "config.json").write_text('{"model_type": "llama2x", "architectures": ["Llama2xForCausalLM"]}')
    new = cli("new", "--registry", "registry", "llama2x", "--from-config", "config.json",
              "--remote-code", cwd=tmp_path)
    assert new.returncode == 1, new.stdout + new.stderr
    assert location in new.stdout + new.stderr
    if file.startswith("registry/families/"):  # add-evidence on the broken family refuses it
        evidence = cli("add-evidence", "--registry", "registry", "bert", "--stack", "optimum-neuron", "--release",
                       "2.21.0", "--hardware", "inf2", "--url", "https://example.com/run", "--by", "someone",
                       cwd=tmp_path)
        assert evidence.returncode == 1, evidence.stdout + evidence.stderr
        assert location in evidence.stdout + evidence.stderr
    assert _snapshot(registry) == before  # nothing written
