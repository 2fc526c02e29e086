"""`neuron-compat add-evidence configuration`: a measured run appended to configurations/reported.yaml (created when
missing) that validates and that `check` lists; bad input is one line and writes nothing; a file saved meanwhile
and a harvested file are never written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from contrib_helpers import REPO, diff_lines, run_cli

from neuron_compat.cli import main
from neuron_compat.loading.loader import LoadResult
from neuron_compat.loading.yaml_reader import display_path

URL = "https://github.com/aws-neuron/aws-neuron-sdk/issues/1"
RUN = ["add-evidence", "configuration", "--family", "llama", "--checkpoint", "meta-llama/Llama-3.1-8B-Instruct",
       "--stack", "nxd-inference", "--release", "2.22.0", "--instance", "trn1.32xlarge", "--tp", "8", "--batch", "1",
       "--seq-len", "4096", "--dtype", "bf16", "--outcome", "compiled-and-ran",
       "--measure", "throughput=41.5tokens/s@token-generation", "--measure", "accuracy:GSM8K=78.2percent",
       "--validated", "2026-11-02", "--url", URL]
ADDED = [
    "- id: reported-llama-3-1-8b-instruct-trn1-32xlarge",
    "  family: llama",
    "  checkpoint: meta-llama/Llama-3.1-8B-Instruct",
    "  stack: nxd-inference",
    "  release: \"2.22.0\"",
    "  instance: trn1.32xlarge",
    "  parallelism: {tensor: 8}",
    "  batch_size: 1",
    "  sequence_length: 4096",
    "  dtype: bf16",
    "  outcome: compiled-and-ran",
    "  measurements:",
    "    - {metric: throughput, value: 41.5, unit: tokens/s, phase: token-generation}",
    "    - {metric: accuracy, name: GSM8K, value: 78.2, unit: percent}",
    "  validated: 2026-11-02",
    "  source:",
    f"    url: {URL}",
    "  evidence: user-report",
]
# A hand-edited reported.yaml in another layout than the tool's (list items at the key's column, flow sources,
# comments): the run is appended in that layout and nothing else changes.
COMMENTED_REPORTED = """\
# Reports from public threads.
source: reported
description: Runs people reported.  # kept
configurations:
# the first report
- id: llama-inf2-report
  family: llama
  checkpoint: meta-llama/Llama-3.1-8B
  stack: nxd-inference
  release: "2.21.0"   # as the thread says
  instance: inf2.xlarge
  outcome: load-failed
  validated: 2026-10-01
  source: {url: "https://github.com/aws-neuron/aws-neuron-sdk/issues/2"}
  evidence: user-report
# end of file
"""
HARVESTED = """\
source: nxdi-contrib
description: A harvested file, made up for the tests.
harvest:
  script: scripts/harvest_nxdi_contrib.py
  repository: https://github.com/aws-neuron/neuronx-distributed-inference
  revision: 4bcdc54bf3b6ccdad490e5cd0680a3dc95270b8e
  taken: 2026-12-03
configurations:
- id: reported-llama-3-1-8b-instruct-trn1-32xlarge
  family: llama
  checkpoint: Llama-3.1-8B-Instruct
  stack: nxd-inference
  release: null
  instance: trn1.32xlarge
  outcome: compiled-and-ran
  validated: 2026-01-29
  source:
    url: https://github.com/aws-neuron/neuronx-distributed-inference/blob/4bcdc54bf3b6ccdad490e5cd0680a3dc95270b8e/README.md
  evidence: community-contribution
"""
LLAMA_CONFIG = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
                "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
                "intermediate_size": 14336, "vocab_size": 128256, "torch_dtype": "bfloat16"}


@pytest.fixture
def measured(registry: Path) -> Path:
    """The fixture registry with instances.yaml (configurations name their instance) and no configurations yet."""
    shutil.copy(REPO / "registry" / "instances.yaml", registry / "instances.yaml")
    return registry


def _files(registry: Path) -> dict[str, bytes]:
    return {str(p.relative_to(registry)): p.read_bytes() for p in sorted(registry.rglob("*")) if p.is_file()}


def test_a_measured_run_is_appended_in_the_files_own_layout_and_check_lists_it(measured: Path, tmp_path: Path) -> None:
    reported = measured / "configurations" / "reported.yaml"
    reported.parent.mkdir()
    reported.write_text(COMMENTED_REPORTED, encoding="utf-8")
    result = run_cli(*RUN, "--registry", measured, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        "registry/configurations/reported.yaml: added configuration reported-llama-3-1-8b-instruct-trn1-32xlarge "
        "(meta-llama/Llama-3.1-8B-Instruct | nxd-inference | release 2.22.0 | trn1.32xlarge | compiled-and-ran)")
    assert diff_lines(COMMENTED_REPORTED, reported.read_text()) == ["@@ -15,0 +16,18 @@", *("+" + line for line in ADDED)]
    assert run_cli("validate", measured, cwd=tmp_path).returncode == 0

    config = tmp_path / "config.json"
    config.write_text(json.dumps(LLAMA_CONFIG), encoding="utf-8")
    check = run_cli("check", config, "--registry", measured, "--instance", "trn1.32xlarge", "--json", cwd=tmp_path)
    tested = json.loads(check.stdout)["tested_configurations"]
    assert [c["id"] for c in tested["configurations"]] == ["reported-llama-3-1-8b-instruct-trn1-32xlarge"]
    assert tested["configurations"][0]["measurements"][1] == {
        "metric": "accuracy", "name": "GSM8K", "value": 78.2, "unit": "percent", "phase": None, "percentile": None,
        "approximate": False}
    table = run_cli("check", config, "--registry", measured, "--instance", "trn1.32xlarge", cwd=tmp_path).stdout
    assert ("meta-llama/Llama-3.1-8B-Instruct | nxd-inference | release 2.22.0 | trn1.32xlarge | TP=8 | batch ") in table
    assert "| bf16 | compiled-and-ran" in table
    assert "measured: throughput 41.5 tokens/s (token-generation); accuracy [GSM8K] 78.2 percent" in table

    again = run_cli(*RUN, "--registry", measured, cwd=tmp_path)  # the same run twice
    assert again.returncode == 0 and "already records this run; nothing changed" in again.stdout


def test_reported_yaml_is_created_and_the_id_is_unique_across_files(measured: Path, tmp_path: Path) -> None:
    """The harvested file already has the id the run would get: the new one is made unique with -2. The dry run
    prints the diff of the new file and writes nothing; options may come before the word `configuration`."""
    (measured / "configurations").mkdir()
    (measured / "configurations" / "nxdi-contrib.yaml").write_text(HARVESTED, encoding="utf-8")
    before = _files(measured)
    dry = run_cli("add-evidence", "--registry", measured, *RUN[1:], "--dry-run", cwd=tmp_path)
    assert dry.returncode == 0, dry.stderr
    assert "+++ b/" in dry.stdout and "+source: reported" in dry.stdout
    assert dry.stdout.rstrip().endswith("(dry run: nothing written)")
    assert _files(measured) == before

    result = run_cli(*RUN, "--registry", measured, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    text = (measured / "configurations" / "reported.yaml").read_text()
    assert text.startswith("# yaml-language-server: $schema=../schemas/configurations.schema.json\n"
                           "source: reported\ndescription: ")
    assert "  - id: reported-llama-3-1-8b-instruct-trn1-32xlarge-2\n" in text
    assert (measured / "configurations" / "nxdi-contrib.yaml").read_text() == HARVESTED
    assert run_cli("validate", measured, cwd=tmp_path).returncode == 0


def _replace(argv: list[str], option: str, value: str | None) -> list[str]:
    """`argv` with `option`'s value replaced (None: the option and its value dropped)."""
    index = argv.index(option)
    return argv[:index] + ([option, value] if value is not None else []) + argv[index + 2:]


def _measure_without_unit() -> list[str]:
    return _replace(RUN, "--measure", "throughput=41.5")


BAD_INPUTS = [
    (_replace(RUN, "--instance", "trn1.32xlarg"), 1,
     "error: --instance trn1.32xlarg: not in instances.yaml (did you mean 'trn1.32xlarge'?)"),
    (_replace(RUN, "--stack", "nxd-inferenc"), 1, "error: --stack nxd-inferenc: not in stacks.yaml (did you mean "
     "'nxd-inference'?)"),
    (_replace(RUN, "--release", "2.22.9"), 1, "error: --release 2.22.9: not in releases.yaml (did you mean '2.22.0'?)"),
    (_replace(RUN, "--family", "lama"), 1, "error: --family lama: not in families/ (did you mean 'llama'?); a new "
     "family starts with `neuron-compat new FAMILY --from-config config.json`"),
    (_measure_without_unit(), 2, "error: --measure throughput=41.5: no unit; throughput takes tokens/s, requests/s, "
     "samples/s (e.g. throughput=41.5tokens/s)"),
    (_replace(RUN, "--measure", "throughput=41.5ms"), 2, "error: --measure throughput=41.5ms: 'ms' does not fit "
     "throughput (throughput takes tokens/s, requests/s, samples/s)"),
    (_replace(RUN, "--release", None), 2, "error: --measure needs --release: the Neuron release it was measured on, "
     "or --release not-stated when the source states none (--validated, the date the source gives, then dates the "
     "measurement)"),
    (_replace(RUN, "--url", "https://example.com/run.log"), 2, "error: --url: source.url 'https://example.com/run.log' "
     "names no commit or tag (hint: link the file at a commit, e.g. https://github.com/<org>/<repo>/blob/<commit>/"
     "<path>, or a versioned docs page /en/v2.28.0/...)"),
    (_replace(RUN, "--tp", "0"), 2, "error: argument --tp: '0' must be 1 or more (see `neuron-compat add-evidence "
     "configuration --help`)"),
]


@pytest.mark.parametrize(("argv", "code", "line"), BAD_INPUTS,
                         ids=["instance", "stack", "release", "family", "no-unit", "wrong-unit", "no-release",
                              "unpinned-url", "tp-zero"])
def test_bad_input_is_one_line_and_writes_nothing(measured: Path, tmp_path: Path, argv: list[str], code: int,
                                                  line: str) -> None:
    before = _files(measured)
    result = run_cli(*argv, "--registry", measured, cwd=tmp_path)
    assert (result.returncode, result.stderr.splitlines(), result.stdout) == (code, [line], "")
    assert _files(measured) == before


def test_a_harvested_file_is_never_written(measured: Path, tmp_path: Path) -> None:
    harvested = measured / "configurations" / "nxdi-contrib.yaml"
    harvested.parent.mkdir()
    harvested.write_text(HARVESTED, encoding="utf-8")
    result = run_cli(*RUN, "--source", "nxdi-contrib", "--registry", measured, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "error: registry/configurations/nxdi-contrib.yaml is generated by scripts/harvest_nxdi_contrib.py (its `harvest:` record) and regenerated "
        "from its source; add-evidence does not write into it: record your run in reported.yaml (leave --source out)"]
    assert harvested.read_text() == HARVESTED
    assert sorted(p.name for p in harvested.parent.iterdir()) == ["nxdi-contrib.yaml"]


@pytest.mark.parametrize("existing", [True, False], ids=["saved-meanwhile", "created-meanwhile"])
def test_a_file_another_program_saves_during_the_run_is_not_replaced(
        measured: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], existing: bool) -> None:
    """An editor saves reported.yaml (or creates it) while the registry is being validated: that save stays."""
    import neuron_compat.rules.validation as validation

    reported = measured / "configurations" / "reported.yaml"
    reported.parent.mkdir()
    if existing:
        reported.write_text(COMMENTED_REPORTED, encoding="utf-8")
    saved = COMMENTED_REPORTED.replace("# end of file", "# saved by an editor")
    validate = validation.validate_registry

    def validate_then_save(root: Path | str) -> LoadResult:
        result = validate(root)
        reported.write_text(saved, encoding="utf-8")
        return result

    monkeypatch.setattr(validation, "validate_registry", validate_then_save)
    code = main([*RUN, "--registry", str(measured)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.splitlines() == [f"error: {display_path(reported)} changed while add-evidence ran (saved by another program?); "
                                "nothing written: run it again"]
    assert reported.read_text() == saved


def test_the_help_and_contributing_name_the_same_options() -> None:
    """Every option of CONTRIBUTING.md's table is in `add-evidence configuration --help`, and back; the statement
    command's help points to it."""
    contributing = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = contributing.split("## Add a measured configuration", 1)[1].split("\n## ", 1)[0]
    table = {option for line in section.splitlines() if line.startswith("| `--")
             for option in re.findall(r"`(--[a-z-]+)`", line.split(" | ")[0])}
    help_text = run_cli("add-evidence", "configuration", "--help", cwd=REPO)
    assert help_text.returncode == 0
    offered = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", help_text.stdout)) - {"--help", "--registry"}
    assert table == offered
    statement_help = run_cli("add-evidence", "--help", cwd=REPO).stdout
    assert "neuron-compat add-evidence configuration --help" in " ".join(statement_help.split())


# A measurement whose source states no release: `--release not-stated`, dated by --validated (in-process).
NOT_STATED = _replace(RUN, "--release", "not-stated")


def test_a_measurement_without_a_stated_release_is_recorded_with_its_date(
        measured: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*NOT_STATED, "--registry", str(measured)]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(
        ": created it with configuration reported-llama-3-1-8b-instruct-trn1-32xlarge (meta-llama/Llama-3.1-8B-Instruct"
        " | nxd-inference | release not stated | trn1.32xlarge | compiled-and-ran)")
    text = (measured / "configurations" / "reported.yaml").read_text(encoding="utf-8")
    expected = ["  " + line.replace('release: "2.22.0"', "release: null") for line in ADDED]
    assert text.split("configurations:\n", 1)[1].splitlines() == expected
    assert main(["validate", str(measured)]) == 0

    # `check` lists the measurement with "release not stated"
    config = tmp_path / "config.json"
    config.write_text(json.dumps(LLAMA_CONFIG), encoding="utf-8")
    capsys.readouterr()
    main(["check", str(config), "--registry", str(measured), "--instance", "trn1.32xlarge", "--json"])
    tested = json.loads(capsys.readouterr().out)["tested_configurations"]["configurations"]
    assert [(c["release"], c["validated"], len(c["measurements"])) for c in tested] == [(None, "2026-11-02", 2)]
    main(["check", str(config), "--registry", str(measured), "--instance", "trn1.32xlarge"])
    assert "meta-llama/Llama-3.1-8B-Instruct | nxd-inference | release not stated" in capsys.readouterr().out

    # the same run again: nothing changes
    assert main([*NOT_STATED, "--registry", str(measured)]) == 0
    assert "already records this run; nothing changed" in capsys.readouterr().out


def test_an_outcome_alone_may_say_not_stated_too(measured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a for i, a in enumerate(NOT_STATED) if not (a == "--measure" or NOT_STATED[i - 1] == "--measure")]
    assert "--measure" not in argv
    assert main([*argv, "--registry", str(measured)]) == 0
    text = (measured / "configurations" / "reported.yaml").read_text(encoding="utf-8")
    assert "  release: null\n" in text and "measurements" not in text
    assert main(["validate", str(measured)]) == 0


def _days_from_today(days: int) -> str:
    import datetime as dt

    return (dt.date.today() + dt.timedelta(days=days)).isoformat()


@pytest.mark.parametrize(("argv", "line"), [
    (_replace(NOT_STATED, "--validated", None),
     "error: the following arguments are required: --validated (see `neuron-compat add-evidence configuration "
     "--help`)"),
    (_replace(NOT_STATED, "--validated", _days_from_today(2)),
     f"error: --validated {_days_from_today(2)}: is in the future (write the date the source gives)"),
    (_replace(NOT_STATED, "--validated", "2017-12-31"),
     "error: --validated 2017-12-31: is before 2018, earlier than any Neuron hardware (write the date the source "
     "gives)"),
    (_replace(RUN, "--validated", "0001-01-01"),  # with a release too
     "error: --validated 0001-01-01: is before 2018, earlier than any Neuron hardware (write the date the source "
     "gives)"),
    (_replace(NOT_STATED, "--validated", "2026-13-01"),
     "error: argument --validated: '2026-13-01' is not a calendar date (YYYY-MM-DD) (see `neuron-compat "
     "add-evidence configuration --help`)"),
], ids=["missing", "future", "before-2018", "year-1-with-release", "not-a-date"])
def test_a_date_that_cannot_be_is_one_line_exit_2_and_writes_nothing(
        measured: Path, capsys: pytest.CaptureFixture[str], argv: list[str], line: str) -> None:
    before = _files(measured)
    try:
        code = main([*argv, "--registry", str(measured)])
    except SystemExit as exit_:  # argparse's own refusals leave through SystemExit
        code = exit_.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    assert (code, captured.err.splitlines(), captured.out) == (2, [line], "")
    assert _files(measured) == before


def test_tomorrow_is_accepted_for_time_zones(measured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*_replace(NOT_STATED, "--validated", _days_from_today(1)), "--registry", str(measured)]) == 0
    assert main(["validate", str(measured)]) == 0
