"""`neuron-compat add-evidence`: the right statement changes, comments and order stay, the diff is minimal."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest
import yaml
from contrib_helpers import REPO, diff_lines, run_cli

from neuron_compat.cli import main

RUN = ["--url", "https://example.com/runs/42.log", "--by", "alice", "--verified", "2026-12-03"]

# The fixture's llama file with comments everywhere a person might put them, and long wrapped lines.
COMMENTED_LLAMA = """\
# A complete example family.
id: llama
name: Llama
vendor: Meta  # publisher
description: 'A long description that a previous tool wrapped at an odd width, which a whole-document
  re-emit would re-wrap and so change lines nobody touched.'
model_types: [llama]
architectures: [LlamaForCausalLM]
classes: [decoder-lm]
tasks: [text-generation]
aliases: [Llama 3.1]
examples: [meta-llama/Llama-3.1-8B]
support:
  # NxD Inference: the long-term record.
  - stack: nxd-inference
    workload: inference
    hardware: [trn1, trn2]   # no inf2 here
    status: supported
    since: "2.21.0"
    dtypes: [bf16]
    attention: [native]
    parallelism:
      tensor: [32]
    constraints:
      - kind: max-sequence-length
        value: 8192
    notes:
      - release: "2.22.0"
        text: Example note with `code`.
    sources:
      - url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/libraries/nxd-inference/index.html
        kind: vendor-docs
        verified: 2026-12-02  # read again today

  # Optimum Neuron: partial until 2.22.
  - stack: optimum-neuron
    workload: inference
    hardware: [inf2]
    status: partial
    since: "2.20.0"
    until: "2.22.0"
    stack_since: "0.0.25"
    notes:
      - text: Example partial note.
    sources:
      - url: https://huggingface.co/docs/optimum-neuron/index
        kind: vendor-docs
        verified: 2026-12-02
# end of file
"""


def _write_commented(registry: Path) -> Path:
    path = registry / "families" / "llama.yaml"
    path.write_text(COMMENTED_LLAMA, encoding="utf-8")
    assert run_cli("validate", registry, cwd=registry.parent).returncode == 0
    return path


def test_source_and_new_dtype_go_to_the_statement_that_covers_the_release(registry: Path) -> None:
    path = _write_commented(registry)
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "nxd-inference",
                     "--release", "2.22.0", "--instance", "trn2.48xlarge", "--dtype", "bf16,fp8", *RUN,
                     cwd=registry.parent, process=True)  # one real process: the others run in-process
    assert result.returncode == 0, result.stderr
    assert "added dtypes fp8 to support[0]" in result.stdout
    assert diff_lines(COMMENTED_LLAMA, path.read_text()) == [
        "@@ -20 +20 @@",
        "-    dtypes: [bf16]",
        "+    dtypes: [bf16, fp8]",
        "@@ -33,0 +34,7 @@",
        "+      - url: https://example.com/runs/42.log",
        "+        title: Run on trn2.48xlarge with Neuron 2.22.0",
        "+        kind: reproducible-run",
        "+        verified: 2026-12-03",
        "+        by: alice",
        "+        release: \"2.22.0\"",
        "+        instance: trn2.48xlarge",
    ]
    assert run_cli("validate", registry, cwd=registry.parent).returncode == 0


def test_a_release_no_statement_covers_gets_a_new_supported_statement_after_its_stack(registry: Path) -> None:
    path = _write_commented(registry)
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "optimum-neuron",
                     "--release", "2.21.0", "--instance", "trn1.32xlarge", "--attention", "sdpa", *RUN,
                     cwd=registry.parent)
    assert result.returncode == 0, result.stderr
    assert diff_lines(COMMENTED_LLAMA, path.read_text()) == [
        "@@ -48,0 +49,15 @@",
        "+  - stack: optimum-neuron",
        "+    workload: inference",
        "+    hardware: [trn1]",
        "+    status: supported",
        "+    since: \"2.21.0\"",
        "+    stack_since: \"0.0.27\"",
        "+    attention: [sdpa]",
        "+    sources:",
        "+      - url: https://example.com/runs/42.log",
        "+        title: Run on trn1.32xlarge with Neuron 2.21.0",
        "+        kind: reproducible-run",
        "+        verified: 2026-12-03",
        "+        by: alice",
        "+        release: \"2.21.0\"",
        "+        instance: trn1.32xlarge",
    ]
    # the file's last comment stays last, after the new statement
    assert path.read_text().endswith("instance: trn1.32xlarge\n# end of file\n")
    assert run_cli("validate", registry, cwd=registry.parent).returncode == 0


def test_a_new_statement_ends_where_a_later_one_for_the_same_hardware_begins(registry: Path) -> None:
    path = _write_commented(registry)
    # nxd-inference covers trn2 from 2.21.0 on; a run on 2.20.0 must stop at 2.21.0 (no overlap).
    releases = registry / "releases.yaml"
    releases.write_text(releases.read_text().replace("hardware: [inf2, trn1]\n", "hardware: [inf2, trn1, trn2]\n", 1))
    stacks = registry / "stacks.yaml"
    stacks.write_text(stacks.read_text().replace('    status: active\n    since: "2.21.0"\n', "    status: active\n"))
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "nxd-inference",
                     "--release", "2.20.0", "--hardware", "trn2", *RUN, cwd=registry.parent)
    assert result.returncode == 0, result.stderr
    added = [line for line in diff_lines(COMMENTED_LLAMA, path.read_text()) if line.startswith("+")]
    assert added[:6] == ["+  - stack: nxd-inference", "+    workload: inference", "+    hardware: [trn2]",
                         "+    status: supported", "+    since: \"2.20.0\"", "+    until: \"2.21.0\""]
    assert "(since 2.20.0, until 2.21.0)" in result.stdout


def test_a_run_ends_an_unknown_statement_for_its_hardware_only(registry: Path) -> None:
    path = registry / "families" / "bert.yaml"
    before = (
        "id: bert\nname: BERT\nmodel_types: [bert]\nclasses: [encoder]\nsupport:\n"
        "  - stack: optimum-neuron\n    workload: inference\n    hardware: [inf2, trn1]\n    status: unknown\n"
        "    sources:\n      - url: https://huggingface.co/docs/optimum-neuron/index\n"
        "        kind: vendor-docs\n        verified: 2026-12-01\n"
    )
    path.write_text(before)
    result = run_cli("add-evidence", "bert", "--registry", registry, "--stack", "optimum-neuron",
                     "--release", "2.21.0", "--instance", "inf2.xlarge", *RUN, cwd=registry.parent)
    assert result.returncode == 0, result.stderr
    assert diff_lines(before, path.read_text()) == [
        "@@ -8 +8 @@",
        "-    hardware: [inf2, trn1]",
        "+    hardware: [trn1]",
        "@@ -13,0 +14,23 @@",
        "+  - stack: optimum-neuron",
        "+    workload: inference",
        "+    hardware: [inf2]",
        "+    status: unknown",
        "+    until: \"2.21.0\"",
        "+    sources:",
        "+      - url: https://huggingface.co/docs/optimum-neuron/index",
        "+        kind: vendor-docs",
        "+        verified: 2026-12-01",
        "+  - stack: optimum-neuron",
        "+    workload: inference",
        "+    hardware: [inf2]",
        "+    status: supported",
        "+    since: \"2.21.0\"",
        "+    stack_since: \"0.0.27\"",
        "+    sources:",
        "+      - url: https://example.com/runs/42.log",
        "+        title: Run on inf2.xlarge with Neuron 2.21.0",
        "+        kind: reproducible-run",
        "+        verified: 2026-12-03",
        "+        by: alice",
        "+        release: \"2.21.0\"",
        "+        instance: inf2.xlarge",
    ]
    assert run_cli("validate", registry, cwd=registry.parent).returncode == 0


def test_a_working_run_does_not_overwrite_an_unsupported_claim(registry: Path) -> None:
    path = registry / "families" / "bert.yaml"
    text = path.read_text().replace("status: supported", "status: unsupported\n    notes:\n      - text: Broken.")
    path.write_text(text)
    result = run_cli("add-evidence", "bert", "--registry", registry, "--stack", "optimum-neuron",
                     "--release", "2.21.0", "--instance", "inf2.xlarge", *RUN, cwd=registry.parent)
    assert result.returncode == 1
    assert "says unsupported at 2.21.0" in result.stderr
    assert path.read_text() == text


def test_unknown_release_and_bad_values_are_refused_with_the_choices(registry: Path) -> None:
    path = registry / "families" / "llama.yaml"
    text = path.read_text()
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "nxd-inference",
                     "--release", "2.99.0", "--instance", "trn2.48xlarge", *RUN, cwd=registry.parent)
    assert result.returncode == 1
    assert "Neuron release '2.99.0' is not in releases.yaml (known: 2.20.0 to 2.22.0)" in result.stderr
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "nxd-inference",
                     "--release", "2.22.0", "--instance", "trn2.48xlarge", "--dtype", "bf61", *RUN, cwd=registry.parent)
    assert result.returncode == 2
    assert "--dtype bf61: not a known value (did you mean 'bf16'?" in result.stderr
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "nxd-inference",
                     "--release", "2.22.0", "--instance", "g5.xlarge", *RUN, cwd=registry.parent)
    assert result.returncode == 2
    assert "error: --instance g5.xlarge: not in instances.yaml (" in result.stderr
    assert path.read_text() == text


def test_the_same_log_twice_changes_nothing(registry: Path) -> None:
    args = ["add-evidence", "llama", "--registry", registry, "--stack", "nxd-inference", "--release", "2.22.0",
            "--instance", "trn2.48xlarge", *RUN]
    assert run_cli(*args, cwd=registry.parent).returncode == 0
    path = registry / "families" / "llama.yaml"
    once = path.read_text()
    again = run_cli(*args, cwd=registry.parent)
    assert again.returncode == 0
    assert "already cites https://example.com/runs/42.log; nothing changed" in again.stdout
    assert path.read_text() == once


def test_an_edit_that_would_not_validate_is_not_written(registry: Path) -> None:
    # optimum-neuron needs stack_since; no optimum-neuron version targets 2.22.0, so no honest one exists.
    path = registry / "families" / "llama.yaml"
    text = path.read_text()
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "optimum-neuron",
                     "--release", "2.22.0", "--instance", "inf2.xlarge", *RUN, cwd=registry.parent)
    assert result.returncode == 1
    assert "no optimum-neuron version in stacks.yaml targets Neuron 2.22.0" in result.stderr
    assert path.read_text() == text
    assert sorted(p.name for p in path.parent.iterdir()) == ["bert.yaml", "llama.yaml"]  # no temporary file left


def test_dry_run_prints_the_diff_and_writes_nothing(registry: Path) -> None:
    path = registry / "families" / "llama.yaml"
    text = path.read_text()
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "nxd-inference", "--release",
                     "2.22.0", "--instance", "trn2.48xlarge", "--dry-run", *RUN, cwd=registry.parent)
    assert result.returncode == 0, result.stderr
    assert "+      - url: https://example.com/runs/42.log" in result.stdout
    assert "(dry run: nothing written)" in result.stdout
    assert path.read_text() == text


def test_a_stack_version_places_the_statement_at_the_release_that_version_targets(registry: Path) -> None:
    # optimum-neuron 0.0.27 targets Neuron 2.21.0 (stacks.yaml); the run used Neuron 2.22.0.
    path = registry / "families" / "llama.yaml"
    before = path.read_text()
    result = run_cli("add-evidence", "llama", "--registry", registry, "--stack", "optimum-neuron", "--release", "2.22.0",
                     "--stack-version", "0.0.27", "--instance", "trn1.2xlarge", *RUN, cwd=registry.parent)
    assert result.returncode == 0, result.stderr
    assert "optimum-neuron 0.0.27 targets Neuron 2.21.0" in result.stdout
    added = [line for line in diff_lines(before, path.read_text()) if line.startswith("+")]
    assert added[4:6] == ["+    since: \"2.21.0\"", "+    stack_since: \"0.0.27\""]
    assert "+        release: \"2.22.0\"" in added
    assert run_cli("validate", registry, cwd=registry.parent).returncode == 0


def test_a_new_family_on_optimum_neuron_is_refused_at_its_own_file_in_plain_words(tmp_path: Path) -> None:
    """The refusal was located in registry/stacks.yaml ("claimed but not registered"), a file the contributor
    never touched (issue 23, defect 9); it now names the family file's line, the snapshot by its real path (not
    the scratch copy validation ran on) and what to do."""
    shutil.copytree(REPO / "registry", tmp_path / "registry")
    assert run_cli("new", "jetmoe", "--model-type", "jetmoe", "--registry", "registry", cwd=tmp_path).returncode == 0
    result = run_cli("add-evidence", "jetmoe", "--registry", "registry", "--stack", "optimum-neuron", "--release", "2.26.1",
                     "--stack-version", "0.4.5", "--instance", "inf2.xlarge", "--url", "https://example.com/run.log",
                     cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "registry/families/jetmoe.yaml:23:18: support[0].stack_since: optimum-neuron 0.4.5 does not register model type "
        "'jetmoe' for inference (registry/upstream/optimum-neuron.yaml, read from its wheels), but this statement claims "
        "it from stack_since 0.4.5 (no version in the snapshot registers it: mark the statement unknown, or refresh the "
        "snapshot with scripts/snapshot_optimum_neuron.py if a newer optimum-neuron does)",
        "the edit would leave 1 problem(s); registry/families/jetmoe.yaml not changed",
    ]


# --- --instance: instances.yaml is the one instance-to-hardware mapping -----------------------------------------

ADD = ["add-evidence", "llama", "--stack", "nxd-inference", "--release", "2.22.0", *RUN]


def _instances(registry: Path) -> dict[str, str]:
    data = yaml.safe_load((registry / "instances.yaml").read_text(encoding="utf-8"))
    return {entry["name"]: entry["hardware"] for entry in data["instances"]}


def test_every_instance_of_instances_yaml_sets_the_hardware_it_lists(registry: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Including the names a pattern on the name gets wrong or refuses (trn1n, trn2u): the file decides."""
    instances = _instances(registry)
    assert {"trn1n.32xlarge", "trn2u.48xlarge", "inf2.xlarge"} <= set(instances)
    for name, hardware in instances.items():
        code = main([*ADD, "--registry", str(registry), "--instance", name, "--hardware", hardware, "--dry-run"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert f"+        instance: {name}\n" in out
        other = next(h for h in ("inf2", "trn1", "trn2") if h != hardware)
        assert main([*ADD, "--registry", str(registry), "--instance", name, "--hardware", other]) == 2
        assert capsys.readouterr().err == (f"error: --hardware {other} does not match --instance {name} "
                                           f"(instances.yaml: {hardware})\n")
    code = main([*ADD, "--registry", str(registry), "--instance", "inf2.xlarge", "--dry-run"])
    assert code == 0  # the fixture's llama has no nxd-inference statement on inf2: a new one, on inf2
    assert "added a supported statement for nxd-inference / inference on inf2" in capsys.readouterr().out


def test_an_instance_instances_yaml_maps_elsewhere_is_recorded_on_that_hardware(
        registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The edited instances.yaml decides: an instance whose name reads like trn2 but is listed as trn1."""
    path = registry / "instances.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("- name: trn1n.32xlarge", "- name: trn2n.32xlarge"),
                    encoding="utf-8")
    assert main([*ADD, "--registry", str(registry), "--instance", "trn2n.32xlarge", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "support[0] (nxd-inference / inference on trn1, trn2" in out  # listed as trn1: the trn1 statement
    assert main([*ADD, "--registry", str(registry), "--instance", "trn2n.32xlarge", "--hardware", "trn2"]) == 2
    assert capsys.readouterr().err == ("error: --hardware trn2 does not match --instance trn2n.32xlarge "
                                       "(instances.yaml: trn1)\n")


@pytest.mark.parametrize(("instance", "hint"), [
    ("trn2.64xlarge", "did you mean 'trn2.48xlarge'? "),  # read as trn2 by a name pattern, but no such size
    ("trn3.48xlarge", "did you mean 'trn2.48xlarge'? "),  # trn3 has no instance sizes in the docs
    ("TRN1N.32XLARGE", "did you mean 'trn1n.32xlarge'? "),  # names are matched exactly, as `check` matches them
    ("inf1.xlarge", "did you mean 'inf2.xlarge'? "),
    ("my-laptop", ""),
])
def test_an_instance_instances_yaml_does_not_list_is_one_line_and_exit_2(
        registry: Path, capsys: pytest.CaptureFixture[str], instance: str, hint: str) -> None:
    before = (registry / "families" / "llama.yaml").read_bytes()
    assert main([*ADD, "--registry", str(registry), "--instance", instance]) == 2
    captured = capsys.readouterr()
    known = ", ".join(_instances(registry))
    assert captured.err == f"error: --instance {instance}: not in instances.yaml ({hint}known: {known})\n"
    assert captured.out == ""
    assert (registry / "families" / "llama.yaml").read_bytes() == before


def test_without_instances_yaml_an_instance_cannot_set_the_hardware(registry: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (registry / "instances.yaml").unlink()
    assert main([*ADD, "--registry", str(registry), "--instance", "trn1.32xlarge"]) == 2
    assert capsys.readouterr().err == ("error: --instance trn1.32xlarge: this registry has no instances.yaml to look "
                                       "it up in; give --hardware instead\n")
    assert main([*ADD, "--registry", str(registry), "--hardware", "trn1", "--dry-run"]) == 0


def test_a_broken_instances_yaml_is_a_registry_problem(registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (registry / "instances.yaml").write_text("generations: 3\n", encoding="utf-8")
    assert main([*ADD, "--registry", str(registry), "--instance", "trn1.32xlarge"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"{registry / 'instances.yaml'}:1:") or "instances.yaml:1:" in err[0]
    assert err[-1].endswith("instances.yaml has problems; fix them first (neuron-compat validate), then add the "
                            "evidence")
    assert "Traceback" not in "\n".join(err)


def test_no_module_maps_an_instance_name_with_a_pattern() -> None:
    """instances.yaml is the one mapping: no source file compiles or applies a pattern that reads a generation out
    of an instance name (trn..., inf2...; YAML's `.inf` float is not one), and add-evidence reads instances.yaml
    through the loader."""
    pattern_calls = {"compile", "match", "fullmatch", "search", "findall", "finditer", "sub", "split"}
    offenders = []
    for path in sorted((REPO / "src" / "neuron_compat").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in pattern_calls and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                    and re.search(r"trn|inf[0-9\\\[(]", node.args[0].value, re.IGNORECASE)):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == []
    source = (REPO / "src" / "neuron_compat" / "commands" / "add_evidence.py").read_text(encoding="utf-8")
    assert "load_instances" in source
