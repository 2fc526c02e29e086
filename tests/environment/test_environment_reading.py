"""Reading what users paste (environment/): pip freeze, pip list, neuron-ls in its three forms and container image
URIs, against the repository's registry; bad input gives a one-line reason, never a traceback or a hang."""

from __future__ import annotations

import io
import os
import threading
from pathlib import Path

import pytest

from neuron_compat.environment.container_image import read_image
from neuron_compat.environment.detection import Environment, detect
from neuron_compat.environment.paste import MAX_BYTES, PasteError, read_paste, read_paste_file
from neuron_compat.registry_sources.selection import open_registry

ROOT = Path(__file__).resolve().parents[2]
PASTES = ROOT / "tests" / "fixtures" / "environments"


@pytest.fixture(scope="module")
def registry():
    return open_registry(str(ROOT / "registry"))[0]


def environment_of(registry, name: str) -> Environment:
    return detect(registry, read_paste_file(str(PASTES / name)))


def test_a_pip_freeze_of_optimum_neuron_0_4_5_is_neuron_2_26_1(registry):
    environment = environment_of(registry, "pip_freeze_optimum_0_4_5.txt")
    assert environment.release == "2.26.1" and environment.release_candidates == ["2.26.1"]
    assert environment.stack_versions["optimum-neuron"] == "0.4.5"
    cc = next(p for p in environment.packages if p.name == "neuronx-cc")
    assert (cc.version, cc.releases) == ("2.21.33363.0+82f9a0e4", ["2.26.1"])  # the local '+hash' part is ignored
    distributed = next(p for p in environment.packages if p.name == "neuronx-distributed")  # pip's neuronx_distributed
    assert distributed.releases == ["2.26.0", "2.26.1"]
    assert environment.mismatches == []
    assert "25 other packages (not Neuron's) left out" in environment.notes


def test_pip_list_columns_with_an_editable_location_and_a_prompt_line(registry):
    environment = environment_of(registry, "pip_list_vllm_neuron_2_32.txt")
    assert environment.release == "2.32.0"
    assert environment.stack_versions == {"vllm-neuron": "0.24.0.1.1.0"}
    assert environment.not_recognised == []  # '$ pip list', the header and the ruler are not complaints


def test_pip_show_and_apt_list_are_read_and_system_packages_shown_not_matched(registry):
    environment = environment_of(registry, "pip_show_and_apt_2_26_1.txt")
    assert environment.release == "2.26.1" and environment.formats == ["pip", "apt"]
    assert environment.stack_versions["optimum-neuron"] == "0.4.5"
    runtime = next(p for p in environment.packages if p.name == "aws-neuronx-runtime-lib")
    assert (runtime.version, runtime.source, runtime.recorded_as, runtime.releases) == (
        "2.28.23.0-add3d1f21", "apt", None, [])
    assert environment.not_recognised == [] and environment.notes == []  # the warning and pip show's fields are quiet


def test_the_stack_version_picks_the_release_among_equal_ones(registry):
    environment = environment_of(registry, "pip_list_freeze_format_2_24.txt")
    # 2.24.0 and 2.24.1 ship the same neuronx-cc and torch-neuronx; optimum-neuron 0.3.0 pairs with 2.24.0
    assert environment.release == "2.24.0"
    assert environment.stack_versions["optimum-neuron"] == "0.3.0"


def test_packages_of_different_releases_are_a_mismatch_with_the_line_that_fixes_it(registry):
    environment = environment_of(registry, "pip_list_mixed_releases.txt")
    assert environment.release == "2.25.0" and environment.release_from == "most packages"
    [mismatch] = environment.mismatches  # torch 2.7.1 is one of 2.25.0's PyTorch versions (2.6, 2.7)
    assert "neuronx-cc 2.21.33363.0+82f9a0e4 is Neuron 2.26.1's" in mismatch
    assert "torch-neuronx 2.7.0.2.9.9357 is Neuron 2.25.0's" in mismatch
    assert mismatch.endswith("to line them up on Neuron 2.25.0, install neuronx-cc==2.20.9961.0")


def test_a_stack_of_another_release_is_lined_up_by_its_own_version_line(registry):
    environment = detect(registry, read_paste("optimum-neuron==0.3.0\ntorch-neuronx==2.8.0.2.10.16998\n"
                                              "neuronx-cc==2.21.33363.0\n"))
    assert environment.release == "2.26.1"
    assert environment.mismatches[0].endswith("to line them up on Neuron 2.26.1, install optimum-neuron==0.4.5")


def test_a_torch_the_release_does_not_list_is_a_mismatch(registry):
    environment = detect(registry, read_paste("torch-neuronx==2.7.0.2.9.9357\ntorch==2.9.0\n"))
    assert environment.mismatches == ["torch 2.9.0: Neuron 2.25.0 lists PyTorch 2.6, 2.7, not 2.9"]


@pytest.mark.parametrize("name, instance, candidates, hardware, lnc, kind", [
    ("neuron_ls_j_trn2_48xlarge.json", None, ["trn2.48xlarge", "trn2u.48xlarge"], "trn2", 2, "neuron-ls --json-output"),
    ("neuron_ls_j_inf2_24xlarge.json", "inf2.24xlarge", ["inf2.24xlarge"], "inf2", None, "neuron-ls --json-output"),
    ("neuron_ls_j_one_device.json", None, ["inf2.xlarge", "inf2.8xlarge", "trn1.2xlarge"], None, None,
     "neuron-ls --json-output"),
    ("neuron_ls_output_format_json_2_34.json", "trn2.48xlarge", ["trn2.48xlarge"], "trn2", 2,
     "neuron-ls --output-format json"),
    ("neuron_ls_table_trn1_32xlarge.txt", "trn1.32xlarge", ["trn1.32xlarge"], "trn1", None, "neuron-ls"),
])
def test_neuron_ls_gives_the_instance_or_the_instances_that_fit(registry, name, instance, candidates, hardware, lnc, kind):
    environment = environment_of(registry, name)
    assert environment.instance is not None
    assert (environment.instance.name, environment.instance.candidates) == (instance, candidates)
    assert (environment.instance.hardware, environment.instance.lnc) == (hardware, lnc)
    assert environment.formats == [kind]
    assert environment.release is None  # neuron-ls says nothing of the packages


def test_trn2_under_lnc_2_counts_logical_cores_per_device(registry):
    environment = environment_of(registry, "neuron_ls_j_trn2_48xlarge.json")
    assert environment.instance and (environment.instance.devices, environment.instance.cores_per_device) == (16, 4)
    assert environment.instance.memory_gib_per_device == 96.0


def test_an_issue_paste_with_prompts_pip_and_neuron_ls_names_the_stack_on_the_wrong_hardware(registry):
    environment = environment_of(registry, "issue_paste_inf2_vllm_neuron.txt")
    assert environment.formats == ["pip", "neuron-ls"]
    assert environment.release == "2.32.0" and environment.hardware == "inf2"
    assert environment.mismatches == ["vllm-neuron does not serve inf2 (it runs on trn2, trn3)"]


@pytest.mark.parametrize("name, release, packages", [
    ("dlc_image_vllm_optimum.txt", "2.26.1", {"optimum-neuron": "0.4.5", "vllm": "0.11.0"}),
    ("dlc_image_pytorch_2_21.txt", "2.21.0", {"torch": "2.5.1"}),
])
def test_a_container_image_tag_names_its_release(registry, name, release, packages):
    environment = environment_of(registry, name)
    assert environment.release == release and environment.formats == ["container image"]
    assert {p.name: p.version for p in environment.packages} == packages


def test_a_vllm_plugin_image_version_is_the_plugin():
    image = read_image("public.ecr.aws/neuron/vllm-inference-neuronx:0.24.0.1.1.0-neuronx-py313-sdk2.32.0-ubuntu24.04")
    assert image is not None and image.packages == {"vllm-neuron": "0.24.0.1.1.0"} and image.release == "2.32.0"


def test_a_2_34_image_tag_release_the_registry_does_not_record_is_said(registry):
    environment = detect(registry, read_paste("pytorch-inference-neuronx:2.9.0-neuronx-py310-sdk2.99.0-ubuntu24.04"))
    assert environment.release is None
    assert "the image tag names Neuron 2.99.0, a release this registry does not record" in environment.notes


def test_unknown_neuron_packages_and_stray_lines_are_not_recognised_lines(registry):
    environment = detect(registry, read_paste("neuronx-cc==2.21.33363.0\nneuronx-magic==1.0\nhello world, this is me\n"))
    assert environment.release == "2.26.1"
    assert "line 2: neuronx-magic 1.0: not a Neuron package this registry knows" in environment.notes
    assert environment.not_recognised == ["line 3: hello world, this is me"]


def test_json_inside_a_paste_that_is_not_neuron_ls_is_a_not_recognised_line(registry):
    environment = detect(registry, read_paste('neuronx-cc==2.21.33363.0\n{"model_type":\n "qwen3"}\ntorch==2.8.0\n'))
    assert environment.release == "2.26.1"
    assert environment.not_recognised == ["line 2: a JSON document of 2 lines that is not neuron-ls output"]


def test_a_paste_of_many_bracket_lines_reads_in_linear_time():
    import time

    started = time.monotonic()
    with pytest.raises(PasteError, match="nothing recognised"):
        read_paste("[x\n" * 49_000)
    assert time.monotonic() - started < 5  # was quadratic (the rest of the text copied per '[' line): minutes


def test_a_version_no_release_records_is_a_note_not_a_guess(registry):
    environment = detect(registry, read_paste("neuronx-cc==2.99.1.0\n"))
    assert environment.release is None and environment.release_candidates == []
    assert environment.notes == ["neuronx-cc 2.99.1.0 is in no release this registry records"]


@pytest.mark.parametrize("data, message", [
    (b"\x7fELF\x02\x01\x01\x00\x00\x00", "not text (binary data)"),
    (b"\xff\xd8\xff\xe0 caf\xe9", "not UTF-8 text (byte 0)"),
    (b"just some words\nand more\n", "nothing recognised"),
    (b'{"model_type": "qwen3"}', "JSON, but not neuron-ls output of a format this version reads"),
    (b'[{"nc_count": 2, "memory_size": ', "JSON that does not parse"),
    (b"[" * 100_000, "JSON"),
    (b"", "nothing recognised"),
])
def test_bad_pastes_are_one_line_errors(data, message):
    with pytest.raises(PasteError) as raised:
        read_paste(data)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_utf16_from_powershell_is_read(registry):
    environment = detect(registry, read_paste("neuronx-cc==2.21.33363.0\r\n".encode("utf-16")))
    assert environment.release == "2.26.1"


def test_huge_files_devices_and_fifos_are_refused_without_reading_them(tmp_path):
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"numpy==1.0\n" * (MAX_BYTES // 10))
    for path, message in ((str(huge), "the limit is 2.0 MiB"), ("/dev/zero", "not a regular file (a character device)"),
                          (str(tmp_path), "not a regular file (a directory)")):
        with pytest.raises(PasteError, match=message.replace("(", r"\(").replace(")", r"\)")):
            read_paste_file(path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    outcome: list[str] = []
    reader = threading.Thread(target=lambda: outcome.append(_error_of(str(fifo))), daemon=True)
    reader.start()
    reader.join(5)
    assert outcome == [f"{fifo}: not a regular file (a FIFO); only plain files are read"]


def _error_of(path: str) -> str:
    try:
        read_paste_file(path)
    except PasteError as error:
        return str(error)
    return "read"


def test_standard_input_is_read_up_to_the_limit(registry):
    environment = detect(registry, read_paste_file("-", io.BytesIO(b"optimum-neuron==0.3.0\n")))
    assert environment.release == "2.24.0"
    with pytest.raises(PasteError, match="standard input has more than 2 MiB"):
        read_paste_file("-", io.BytesIO(b"x" * (MAX_BYTES + 1)))
