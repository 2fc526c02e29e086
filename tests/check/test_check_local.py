"""`neuron-compat check` on local files and folders: bounded, confined to the folder, one-line errors, exit 1."""

from __future__ import annotations

import json
import os

from check_helpers import CONFIGS, run_check, verdict_of


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


def test_a_model_folder_is_read_by_its_config(tmp_path):
    (tmp_path / "config.json").write_text((CONFIGS / "qwen3-8b.json").read_text(), encoding="utf-8")
    (tmp_path / "model_index.json").write_text("{}", encoding="utf-8")
    result = run_check(str(tmp_path), "--json")
    assert result.returncode == 0, result.stderr
    assert verdict_of(result)["family"]["id"] == "qwen3"


def test_a_diffusers_folder_is_read_by_its_model_index(tmp_path):
    (tmp_path / "model_index.json").write_text((CONFIGS / "sdxl-base-1.0-model_index.json").read_text(), encoding="utf-8")
    result = run_check(str(tmp_path), "--json")
    assert result.returncode == 0, result.stderr
    model = verdict_of(result)["model"]
    assert model["kind"] == "diffusers" and model["components"]["unet"] == "diffusers.UNet2DConditionModel"


def test_a_folder_without_a_config(tmp_path):
    result = run_check(str(tmp_path))
    assert result.returncode == 1
    assert one_line(result).endswith(f"{tmp_path}: no config.json or model_index.json in this folder")


def test_a_config_symlink_out_of_the_folder_is_refused(tmp_path):
    outside = tmp_path / "secret.json"
    outside.write_text('{"model_type": "llama"}', encoding="utf-8")
    folder = tmp_path / "model"
    folder.mkdir()
    os.symlink(outside, folder / "config.json")
    result = run_check(str(folder))
    assert result.returncode == 1
    assert one_line(result).endswith("config.json: points outside " + str(folder) + " (symlink); refusing to read it")


def test_a_symlink_inside_the_folder_is_fine(tmp_path):
    (tmp_path / "real.json").write_text((CONFIGS / "bert-base-uncased.json").read_text(), encoding="utf-8")
    os.symlink(tmp_path / "real.json", tmp_path / "config.json")
    assert run_check(str(tmp_path)).returncode == 0


def test_an_oversized_file_is_not_read(tmp_path):
    path = tmp_path / "config.json"
    path.write_bytes(b'{"model_type": "llama", "x": "' + b"x" * (2 * 1024 * 1024) + b'"}')
    result = run_check(str(path))
    assert result.returncode == 1
    assert "is too large for a config (limit 2097152 bytes)" in one_line(result)


def test_malformed_json_names_line_and_column(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{\n  "model_type": "llama"\n  "architectures": []\n}', encoding="utf-8")
    result = run_check(str(path))
    assert result.returncode == 1
    assert one_line(result).endswith(f"{path}:3:3: malformed JSON: Expecting ',' delimiter")


def test_nan_is_not_json(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"model_type": "llama", "rope_theta": NaN}', encoding="utf-8")
    result = run_check(str(path))
    assert result.returncode == 1
    assert "malformed JSON: NaN is not valid JSON" in one_line(result)


def test_not_utf8(tmp_path):
    path = tmp_path / "config.json"
    path.write_bytes(b'{"model_type": "\xff"}')
    result = run_check(str(path))
    assert result.returncode == 1
    one_line(result)


def test_utf16_is_not_utf8_and_a_utf8_bom_is_fine(tmp_path):
    """json.loads guesses UTF-16 from bytes; the config is read as UTF-8 only, like the check page reads it."""
    path = tmp_path / "config.json"
    path.write_bytes('{"model_type": "qwen3"}'.encode("utf-16"))
    result = run_check(str(path))
    assert result.returncode == 1
    assert one_line(result) == f"neuron-compat check: {path}: not UTF-8 text (save it as UTF-8)"
    path.write_bytes(b"\xef\xbb\xbf" + (CONFIGS / "qwen3-8b.json").read_bytes())
    assert verdict_of(run_check(str(path), "--json"))["family"]["id"] == "qwen3"


def test_a_config_symlink_to_nothing_in_a_folder_says_so(tmp_path):
    for name, target in (("dangling", "missing.json"), ("loop", "config.json")):
        folder = tmp_path / name
        folder.mkdir()
        os.symlink(target, folder / "config.json")
        result = run_check(str(folder))
        assert result.returncode == 1
        assert one_line(result) == (f"neuron-compat check: {folder / 'config.json'}: a symlink to nothing "
                                    "(dangling, or a loop); refusing to read it")


def test_json_that_is_not_a_config(tmp_path):
    path = tmp_path / "tokenizer_config.json"
    path.write_text(json.dumps({"tokenizer_class": "LlamaTokenizer"}), encoding="utf-8")
    result = run_check(str(path))
    assert result.returncode == 1
    assert one_line(result).endswith("not a transformers config.json or a diffusers model_index.json "
                                     "(no model_type, architectures or _class_name)")


def test_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "model.safetensors"
    path.write_bytes(b"\0" * 16)
    result = run_check(str(path))
    assert result.returncode == 1
    assert one_line(result).endswith("expected a .json file (config.json or model_index.json)")


def test_revision_with_a_local_file_is_bad_input():
    result = run_check(str(CONFIGS / "bert-base-uncased.json"), "--revision", "main")
    assert result.returncode == 1
    assert one_line(result).endswith("--revision applies to Hub repo ids, not to local files")


def test_unknown_release_stack_and_workload_list_what_exists():
    config = str(CONFIGS / "bert-base-uncased.json")
    result = run_check(config, "--neuron", "2.99.0")
    assert result.returncode == 1
    assert one_line(result).endswith("Neuron release '2.99.0' is not in the registry; known releases: 2.20.0, 2.21.0, 2.22.0")
    result = run_check(config, "--stack", "vllm")
    assert result.returncode == 1
    assert one_line(result).endswith("unknown stack 'vllm'; known stacks: optimum-neuron, nxd-inference, nxd-training")
    result = run_check(config, "--workload", "serving")
    assert result.returncode == 2
    assert one_line(result).endswith("unknown --workload 'serving'; (allowed: inference, training)")
    result = run_check(config, "--workload", "trainig")
    assert result.returncode == 2
    assert one_line(result).endswith("unknown --workload 'trainig'; did you mean 'training'? (allowed: inference, training)")


def test_a_missing_or_broken_registry_is_bad_input(tmp_path):
    result = run_check(str(CONFIGS / "bert-base-uncased.json"), registry=tmp_path / "nowhere")
    assert result.returncode == 1
    assert one_line(result).endswith(f"no registry at {tmp_path / 'nowhere'} (--registry): give a registry "
                                     "directory, a registry .json document or an https URL of a published "
                                     "api/registry.json")
    (tmp_path / "empty").mkdir()
    result = run_check(str(CONFIGS / "bert-base-uncased.json"), registry=tmp_path / "empty")
    assert result.returncode == 1
    assert "problem(s); run `neuron-compat validate" in one_line(result)


def test_terminal_control_characters_in_a_config_are_neutralised(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"model_type": "evil\u001b[31m", "architectures": ["X\u001b]0;pwned\u0007"]}), encoding="utf-8")
    result = run_check(str(path))
    assert result.returncode == 4
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    assert "evil\\x1b[31m" in result.stdout  # shown as an escape (safe_text.one_line), as in every problem line


def test_the_real_registry_answers_for_a_shipped_config():
    """The registry being curated in registry/: whatever it says, check runs on it and exits with a verdict code."""
    from check_helpers import ROOT

    result = run_check(str(CONFIGS / "llama-3.1-8b.json"), "--json", registry=ROOT / "registry")
    if result.returncode == 1 and "problem(s)" in result.stderr:
        import pytest

        pytest.skip("registry/ has validation problems right now")
    assert result.returncode in (0, 3, 4), result.stderr
    assert verdict_of(result)["release"]
