"""`neuron-compat new`: a scaffold that passes validation, refuses to overwrite, and explains refusals."""

from __future__ import annotations

import json
from pathlib import Path

from contrib_helpers import diff_lines, run_cli

QWEN3_CONFIG = {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "hidden_size": 4096}


def _config(tmp_path: Path, data: object, name: str = "config.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_scaffold_from_a_config_is_exactly_this_and_validates(registry: Path, tmp_path: Path) -> None:
    config = _config(tmp_path, QWEN3_CONFIG)
    result = run_cli("new", "qwen3", "--from-config", config, "--registry", registry, "--today", "2026-12-02",
                     cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "wrote registry/families/qwen3.yaml: 1 model type(s), 0 unknown statement(s)" in result.stdout
    assert (registry / "families" / "qwen3.yaml").read_text() == """\
# yaml-language-server: $schema=../schemas/family.schema.json
# Scaffolded by `neuron-compat new` on 2026-12-02 from config.json. Next steps (CONTRIBUTING.md):
#   1. Check name, vendor, tasks, aliases and examples; delete the comment lines you do not need.
#   2. Record each result you verified (one command per run; it edits this file for you):
#        neuron-compat add-evidence qwen3 --stack STACK --workload inference \\
#          --release 2.21.0 --instance inf2.xlarge --dtype bf16 --url https://link-to-your-log
#   3. Run `neuron-compat validate`: it names the file, line and field of anything to fix.
id: qwen3
name: Qwen3
# vendor: Who publishes the checkpoints
model_types: [qwen3]
architectures: [Qwen3ForCausalLM]
classes: [decoder-lm]  # a guess from the tasks: check it
tasks: [text-generation]
# aliases: [Other names people search for]
# examples: [org/checkpoint-id]
# Each statement says what one stack does for this family; a stack with none reads as unknown.
support: []
"""
    validate = run_cli("validate", registry, cwd=tmp_path)
    assert validate.returncode == 0, validate.stdout
    assert validate.stdout.startswith("ok: 3 families")


def test_named_stacks_get_sourced_unknown_statements(registry: Path, tmp_path: Path) -> None:
    result = run_cli("new", "qwen3", "--model-type", "qwen3", "--stack", "optimum-neuron:inference",
                     "--stack", "nxd-inference", "--registry", registry, "--today", "2026-12-02", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = (registry / "families" / "qwen3.yaml").read_text()
    assert text.count("status: unknown") == 2
    assert "    hardware: [inf2, trn1, trn2]\n    status: unknown\n    sources:\n" \
           "      - url: https://huggingface.co/docs/optimum-neuron/index\n" \
           "        title: \"Optimum Neuron documentation: no statement about Qwen3 when checked\"\n" \
           "        kind: vendor-docs\n        verified: 2026-12-02\n" in text
    assert run_cli("validate", registry, cwd=tmp_path).returncode == 0


def test_scaffold_then_first_result_turns_unknown_into_supported(registry: Path, tmp_path: Path) -> None:
    assert run_cli("new", "qwen3", "--model-type", "qwen3", "--stack", "nxd-inference", "--registry", registry,
                   "--today", "2026-12-02", cwd=tmp_path).returncode == 0
    path = registry / "families" / "qwen3.yaml"
    before = path.read_text()
    result = run_cli("add-evidence", "qwen3", "--registry", registry, "--stack", "nxd-inference", "--release", "2.21.0",
                     "--instance", "trn2.48xlarge", "--dtype", "bf16", "--url", "https://example.com/q.log",
                     "--verified", "2026-12-03", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert diff_lines(before, path.read_text()) == [
        "@@ -20 +20 @@",
        "-    hardware: [inf2, trn1, trn2]",
        "+    hardware: [inf2, trn1]",
        "@@ -26,0 +27,23 @@",
        "+  - stack: nxd-inference",
        "+    workload: inference",
        "+    hardware: [trn2]",
        "+    status: unknown",
        "+    until: \"2.21.0\"",
        "+    sources:",
        "+      - url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/libraries/nxd-inference/index.html",
        "+        title: 'NxD Inference documentation: no statement about Qwen3 when checked'",
        "+        kind: vendor-docs",
        "+        verified: 2026-12-02",
        "+  - stack: nxd-inference",
        "+    workload: inference",
        "+    hardware: [trn2]",
        "+    status: supported",
        "+    since: \"2.21.0\"",
        "+    dtypes: [bf16]",
        "+    sources:",
        "+      - url: https://example.com/q.log",
        "+        title: Run on trn2.48xlarge with Neuron 2.21.0",
        "+        kind: reproducible-run",
        "+        verified: 2026-12-03",
        "+        release: \"2.21.0\"",
        "+        instance: trn2.48xlarge",
    ]
    assert run_cli("validate", registry, cwd=tmp_path).returncode == 0


def test_refuses_to_overwrite(registry: Path, tmp_path: Path) -> None:
    path = registry / "families" / "bert.yaml"
    text = path.read_text()
    result = run_cli("new", "bert", "--model-type", "bert", "--registry", registry, cwd=tmp_path)
    assert result.returncode == 1
    assert "registry/families/bert.yaml already exists; nothing written" in result.stderr
    assert path.read_text() == text


def test_a_model_type_owned_by_another_family_points_there(registry: Path, tmp_path: Path) -> None:
    result = run_cli("new", "llama2", "--model-type", "llama", "--registry", registry, cwd=tmp_path)
    assert result.returncode == 1
    assert ("model_type 'llama' already belongs to family 'llama' (registry/families/llama.yaml); "
            "record results there with `neuron-compat add-evidence llama ...`") in result.stderr
    assert not (registry / "families" / "llama2.yaml").exists()


def test_a_model_type_transformers_lacks_needs_remote_code(registry: Path, tmp_path: Path) -> None:
    result = run_cli("new", "mystery", "--model-type", "mystery", "--registry", registry, cwd=tmp_path)
    assert result.returncode == 1
    assert "registry/families/mystery.yaml:11:15: model_types[0]: 'mystery' is not a model_type of transformers" \
        in result.stderr
    assert "not written" in result.stderr
    assert "run again with --remote-code" in result.stderr
    assert not (registry / "families" / "mystery.yaml").exists()
    # a config with auto_map says the checkpoints carry their own code
    config = _config(tmp_path, {"model_type": "mystery", "auto_map": {"AutoConfig": "x.MysteryConfig"}})
    result = run_cli("new", "mystery", "--from-config", config, "--registry", registry, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "remote_code: true" in (registry / "families" / "mystery.yaml").read_text()


def test_bad_inputs_are_one_line_errors(registry: Path, tmp_path: Path) -> None:
    broken = _config(tmp_path, '{"model_type": "qwen3",,}')
    result = run_cli("new", "qwen3", "--from-config", broken, "--registry", registry, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == "error: config.json:1:24: malformed JSON: Expecting property name enclosed in double quotes"
    result = run_cli("new", "Qwen 3", "--model-type", "qwen3", "--registry", registry, cwd=tmp_path)
    assert result.returncode == 2
    assert "is not a usable family id" in result.stderr
    result = run_cli("new", "qwen3", "--model-type", "qwen3", "--stack", "optimum", "--registry", registry, cwd=tmp_path)
    assert result.returncode == 2
    assert "--stack optimum: not a stack in stacks.yaml (known: nxd-inference, optimum-neuron)" in result.stderr
    result = run_cli("new", "qwen3", "--registry", registry, cwd=tmp_path)
    assert result.returncode == 2
    assert "give --model-type" in result.stderr
    assert sorted(p.name for p in (registry / "families").iterdir()) == ["bert.yaml", "llama.yaml"]


def test_what_another_writer_saved_before_the_lock_is_what_new_validates(registry: Path, tmp_path: Path,
                                                                          monkeypatch) -> None:
    """Another writer (a second `new`, an add-evidence) saves a family claiming model_type qwen3 and releases the
    registry's lock just as this run takes it: the run reads, validates and refuses under the lock, so the registry
    never ends with qwen3 in two families (before, it validated first and locked only to write)."""
    from contextlib import contextmanager

    from neuron_compat.commands import new
    from neuron_compat.contributing.registry_lock import registry_locked

    @contextmanager
    def other_writer_first(root: Path):  # type: ignore[no-untyped-def]
        with registry_locked(root):
            (root / "families" / "qwen.yaml").write_text(
                "id: qwen\nname: Qwen\nmodel_types: [qwen3]\nsupport: []\nclasses: [decoder-lm]\n", encoding="utf-8")
        with registry_locked(root):
            yield

    monkeypatch.setattr(new, "registry_locked", other_writer_first)
    result = run_cli("new", "qwen3", "--model-type", "qwen3", "--registry", registry, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        "error: model_type 'qwen3' already belongs to family 'qwen' (registry/families/qwen.yaml); record results "
        "there with `neuron-compat add-evidence qwen ...`")
    assert not (registry / "families" / "qwen3.yaml").exists()
    assert run_cli("validate", registry, cwd=tmp_path).returncode == 0


def test_new_validates_while_holding_the_registry_lock(registry: Path, tmp_path: Path, monkeypatch) -> None:
    """Checked from outside: while the registry as it would be is validated, nobody else can take the lock."""
    import fcntl
    import os

    from neuron_compat.contributing import shadow_registry

    real = shadow_registry.validate_with_changes
    held: list[bool] = []

    def validate_and_probe(root, changes):  # type: ignore[no-untyped-def]
        fd = os.open(root, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held.append(False)
        except BlockingIOError:
            held.append(True)
        finally:
            os.close(fd)
        return real(root, changes)

    monkeypatch.setattr(shadow_registry, "validate_with_changes", validate_and_probe)
    result = run_cli("new", "qwen3", "--model-type", "qwen3", "--registry", registry, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert held == [True]
