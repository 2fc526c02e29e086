"""Option values are read by one strict helper (safeio/option_values.py) shared by every command and script:
empty text is refused for every option alike, whole numbers are ASCII digits only, dates are YYYY-MM-DD only,
and a measured value a double would round is refused rather than stored rounded."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from neuron_compat.cli import main
from neuron_compat.contributing.configuration_edit import ConfigurationInputError, parse_measurement
from neuron_compat.safeio.option_values import (
    OptionValueError,
    decimal,
    exact_float,
    first_empty_option,
    iso_date,
    whole_number,
)

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "registry"
CONFIG = '{"model_type": "llama", "architectures": ["LlamaForCausalLM"]}'


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.json"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def usage_error(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        code = main(arguments)
        raise SystemExit(code)
    err = capsys.readouterr().err
    assert exited.value.code == 2, err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("arguments", [
    ["check", "{config}", "--neuron", ""],
    ["check", "{config}", "--neuron="],
    ["check", "{config}", "--neuron", "  "],
    ["check", "{config}", "--offline", "--stack", ""],
    ["site", "--out", ""],
    ["stale", "--today="],
    ["explain", "--stack", "", "timeout"],
    ["add-evidence", "configuration", "--measure", ""],
])
def test_an_empty_option_is_refused_by_every_command(arguments: list[str], config: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    line = usage_error([argument.replace("{config}", str(config)) for argument in arguments], capsys)
    assert "expected a value, got empty text" in line, line


@pytest.mark.parametrize("value", ["\u0663", "\uff11\uff12", "1_0", "+5", " 5", "5 ", "0x10", "1e3", "--1", "-", "1" * 13])
@pytest.mark.parametrize("option", ["--batch", "--seq-len"])
def test_check_whole_numbers_are_ascii_digits_only(value: str, option: str, config: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    line = usage_error(["check", str(config), f"{option}={value}"], capsys)
    assert f"argument {option}:" in line and "whole number" in line, line


@pytest.mark.parametrize(("arguments", "phrase"), [
    (["stale", str(FIXTURE), "--days", "\u0663"], "whole number"),
    (["stale", str(FIXTURE), "--releases", "0"], "must be 1 or more"),
    (["stale", str(FIXTURE), "--today", "20261203"], "YYYY-MM-DD"),
    (["stale", str(FIXTURE), "--today", "2026-W49-4"], "YYYY-MM-DD"),
    (["stale", str(FIXTURE), "--today", "2026-02-30"], "not a calendar date"),
])
def test_other_commands_share_the_same_rules(arguments: list[str], phrase: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert phrase in usage_error(arguments, capsys)


def test_a_valid_batch_still_works(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(config), "--batch", "4", "--seq-len", "2048", "--registry", str(FIXTURE)])
    assert code != 2, capsys.readouterr().err


@pytest.mark.parametrize("value", ["123456789012345.123", "0.123456789", "9007199254740993"])
def test_exactness_of_measured_values(value: str) -> None:
    if value == "0.123456789":  # nine decimals: a double keeps them
        assert exact_float(value) == 0.123456789
        return
    with pytest.raises(OptionValueError, match="more digits than a stored number keeps"):
        exact_float(value)


@pytest.mark.parametrize("text", ["throughput=123456789012345.123tokens/s", "latency=123456789012345.123456789ms"])
def test_measure_values_that_would_lose_digits_are_refused(text: str) -> None:
    with pytest.raises(ConfigurationInputError, match="more digits than a stored number keeps"):
        parse_measurement(text)
    assert parse_measurement("throughput=41.5tokens/s")["value"] == 41.5


def test_the_helpers_directly() -> None:
    assert whole_number("007") == 7 and decimal("240") == 240.0 and decimal("0.5", above_minimum=True) == 0.5
    assert iso_date("2026-12-03").isoformat() == "2026-12-03"
    for bad in ("", "٣", "1.", ".5", "inf", "nan"):
        with pytest.raises(OptionValueError):
            decimal(bad)
    assert first_empty_option(["--json", "x", "--neuron", ""], lambda option: option != "--json") == "--neuron"
    assert first_empty_option(["--", "--neuron", ""], lambda option: True) is None
    assert first_empty_option(["--batch", "-1"], lambda option: True) is None  # a value, not an option


@pytest.mark.parametrize(("arguments", "phrase"), [
    (["--model-types"], "expected at least one argument"),
    (["--model-types", ""], "an empty model type"),
    (["--timeout", "-1"], "argument --timeout"),
    (["--timeout", "0"], "must be more than 0"),
    (["--memory-gb", "\uff18"], "argument --memory-gb"),
])
def test_probe_script_options_are_strict(arguments: list[str], phrase: str) -> None:
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "probe.py"), *arguments], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert phrase in result.stderr and "Traceback" not in result.stderr, result.stderr
