"""Validation gaps of the fourth hostile pass: dates out of any sane range, YAML's booleans and base-60 numbers as
measured values, control and bidirectional characters in the probe snapshot, a `*.yaml` folder among the
configurations, one broken instances.yaml flooding the report, and `new configuration`.

Run on a copy of the repository's registry (it has instances.yaml, configurations and a probe snapshot).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from neuron_compat.cli import main
from neuron_compat.contract.models import ProbeSnapshot
from neuron_compat.loading.yaml_reader import _FastLoader

REPO = Path(__file__).resolve().parents[2]
NXDI = "configurations/nxdi-contrib.yaml"
PERFORMANCE = "configurations/neuron-performance-inf2.yaml"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("gaps") / "registry"
    shutil.copytree(REPO / "registry", target, ignore=shutil.ignore_patterns("schemas"))
    return target


@pytest.fixture
def registry(pristine: Path, tmp_path: Path) -> Path:
    target = tmp_path / "registry"
    shutil.copytree(pristine, target)
    return target


def replace_once(path: Path, old: str, new: str) -> int:
    """Replace the first `old` with `new`; the 1-based line it is on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def problems(registry: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    code = main(["validate", str(registry)])
    captured = capsys.readouterr()
    lines = [line for line in (captured.out + captured.err).splitlines()
             if ": warning: " not in line and line.startswith(str(registry))]
    assert code == (1 if lines else 0), captured.out + captured.err
    assert "Traceback" not in captured.err
    return lines


@pytest.mark.parametrize(("date", "expected"), [
    ("2999-01-01", "validated 2999-01-01 is in the future"),
    ("0001-01-01", "validated 0001-01-01 is before 2018"),
    ("1970-01-01", "validated 1970-01-01 is before 2018"),
])
def test_a_validated_date_out_of_range_is_refused(registry: Path, capsys: pytest.CaptureFixture[str],
                                                  date: str, expected: str) -> None:
    line = replace_once(registry / NXDI, "validated: 2026-02-06", f"validated: {date}")
    lines = problems(registry, capsys)
    assert len(lines) == 1 and expected in lines[0] and f":{line}:" in lines[0], lines


def test_a_harvest_date_in_the_future_is_refused(registry: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (registry / NXDI).read_text(encoding="utf-8")
    taken = next(line for line in text.splitlines() if line.strip().startswith("taken:"))
    replace_once(registry / NXDI, taken, taken.split(":")[0] + ": 2999-12-31")
    lines = problems(registry, capsys)
    assert len(lines) == 1 and "taken 2999-12-31 is in the future" in lines[0], lines


@pytest.mark.parametrize(("value", "expected"), [
    ("yes", "expected a number, got the boolean True"),
    ("off", "expected a number, got the boolean False"),
    ("1:30", "Input should be a valid number"),
    ("'3147'", "Input should be a valid number"),
])
def test_a_measured_value_yaml_reads_as_a_boolean_or_base_60_is_refused(
        registry: Path, capsys: pytest.CaptureFixture[str], value: str, expected: str) -> None:
    line = replace_once(registry / PERFORMANCE, "value: 3147.09984049", f"value: {value}")
    lines = problems(registry, capsys)
    assert len(lines) == 1 and expected in lines[0] and f"neuron-performance-inf2.yaml:{line}:" in lines[0], lines


def test_base_60_scalars_stay_text_and_other_numbers_are_unchanged() -> None:
    read = yaml.load("a: 1:30\nb: 1:30.5\nc: 90\nd: 0x1f\ne: 1.5e+3\nf: 1_000\n", Loader=_FastLoader)
    assert read == {"a": "1:30", "b": "1:30.5", "c": 90, "d": 31, "e": 1500.0, "f": 1000}


@pytest.fixture(scope="module")
def probe_data(pristine: Path) -> dict[str, Any]:
    with open(pristine / "upstream" / "probe.yaml", encoding="utf-8") as handle:
        data: dict[str, Any] = yaml.load(handle, Loader=_FastLoader)
    return data


@pytest.mark.parametrize("bad", ["\x1b]0;pwned\x07", "\x00", "\u202eevil", "\u2028"])
@pytest.mark.parametrize("where", ["description", "probe reason", "probe key"])
def test_probe_snapshot_text_with_controls_or_bidi_marks_is_refused(probe_data: dict[str, Any], bad: str,
                                                                     where: str) -> None:
    data = dict(probe_data)
    if where == "description":
        data["description"] = f"fine {bad} text"
    elif where == "probe reason":
        first = next(iter(data["not_built"]))
        data["not_built"] = {**data["not_built"], first: {**data["not_built"][first], "reason": f"x{bad}"}}
    else:
        first = next(iter(data["probes"]))
        data["probes"] = {**data["probes"], f"{first}{bad}": data["probes"][first]}
    with pytest.raises(ValidationError) as raised:
        ProbeSnapshot.model_validate(data)
    message = str(raised.value)
    assert "control or bidirectional character" in message
    assert bad not in message


def test_the_repository_probe_snapshot_passes(probe_data: dict[str, Any]) -> None:
    ProbeSnapshot.model_validate(probe_data)


@pytest.mark.parametrize("folder", ["configurations/extra.yaml", "capabilities/extra.yaml"])
def test_a_yaml_named_folder_is_a_located_error(registry: Path, capsys: pytest.CaptureFixture[str], folder: str) -> None:
    (registry / folder).mkdir()
    lines = problems(registry, capsys)
    assert lines == [f"{registry / folder}: not a regular file (a directory); only plain files are read"], lines


@pytest.mark.parametrize("bad_note", ['"<b>bold</b>"', '"\\x1b[2J"'])
def test_one_bad_note_in_instances_is_one_problem(registry: Path, capsys: pytest.CaptureFixture[str],
                                                  bad_note: str) -> None:
    text = (registry / "instances.yaml").read_text(encoding="utf-8")
    first_note = next(line for line in text.splitlines() if line.startswith("      - \""))
    replace_once(registry / "instances.yaml", first_note, f"      - {bad_note}")
    lines = problems(registry, capsys)
    assert len(lines) == 1 and "instances.yaml:" in lines[0], lines
    assert not any("set instance: null" in line for line in lines)


@pytest.mark.parametrize("family", ["configuration"])
def test_new_refuses_a_family_id_add_evidence_reads_as_its_own_word(
        registry: Path, capsys: pytest.CaptureFixture[str], family: str) -> None:
    code = main(["new", family, "--registry", str(registry), "--model-type", "brand_new_type"])
    err = capsys.readouterr().err
    assert code == 2 and "word of `neuron-compat add-evidence`" in err and len(err.strip().splitlines()) == 1, err
    assert not (registry / "families" / f"{family}.yaml").exists()


def test_every_add_evidence_subcommand_word_is_reserved() -> None:
    from neuron_compat.commands import add_evidence, new

    words = {value for name, value in vars(add_evidence).items() if name.endswith("_WORD") and isinstance(value, str)}
    assert words and words <= new.RESERVED_FAMILY_IDS
