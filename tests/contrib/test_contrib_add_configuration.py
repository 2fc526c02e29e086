"""`neuron-compat add-evidence configuration`: a measured run in a file of its own, configurations/reported/<id>.yaml,
that validates and that `check` lists; two contributors' runs never touch the same file (their branches merge); bad
input is one line and writes nothing; a file created meanwhile and a harvested file are never written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from contrib_helpers import REPO, run_cli

from neuron_compat.cli import main
from neuron_compat.loading.loader import LoadResult
from neuron_compat.loading.yaml_reader import display_path

URL = "https://github.com/aws-neuron/aws-neuron-sdk/issues/1"
RUN = ["add-evidence", "configuration", "--family", "llama", "--checkpoint", "meta-llama/Llama-3.1-8B-Instruct",
       "--stack", "nxd-inference", "--release", "2.22.0", "--instance", "trn1.32xlarge", "--tp", "8", "--batch", "1",
       "--seq-len", "4096", "--dtype", "bf16", "--outcome", "compiled-and-ran",
       "--measure", "throughput=41.5tokens/s@token-generation", "--measure", "accuracy:GSM8K=78.2percent",
       "--validated", "2026-11-02", "--url", URL]
RUN_ID = "llama-3-1-8b-instruct-trn1-32xlarge-2026-11-02-4fb11a21"
RUN_FILE = f"configurations/reported/{RUN_ID}.yaml"
ADDED = [
    f"- id: {RUN_ID}",
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
# A hand-edited reported.yaml of the layout before one file per run: still read, never written.
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
- id: nxdi-contrib-llama-3-1-8b-instruct
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


def test_a_measured_run_gets_a_file_of_its_own_and_check_lists_it(measured: Path, tmp_path: Path) -> None:
    """The run's file is new; the hand-edited reported.yaml of the old layout is read and left as it was."""
    reported = measured / "configurations" / "reported.yaml"
    reported.parent.mkdir()
    reported.write_text(COMMENTED_REPORTED, encoding="utf-8")
    before = _files(measured)
    result = run_cli(*RUN, "--registry", measured, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        f"registry/{RUN_FILE}: created it with configuration {RUN_ID} "
        "(meta-llama/Llama-3.1-8B-Instruct | nxd-inference | release 2.22.0 | trn1.32xlarge | compiled-and-ran)")
    after = _files(measured)
    assert {name: after[name] for name in before} == before  # no other file changed
    assert sorted(set(after) - set(before)) == [RUN_FILE]
    assert (measured / RUN_FILE).read_text() == (
        "# yaml-language-server: $schema=../../schemas/configurations.schema.json\n"
        "source: reported\n"
        "description: One run, recorded with `neuron-compat add-evidence configuration`; its source link says where it "
        "was reported.\n"
        "configurations:\n" + "".join(f"  {line}\n" for line in ADDED))
    assert run_cli("validate", measured, cwd=tmp_path).returncode == 0

    config = tmp_path / "config.json"
    config.write_text(json.dumps(LLAMA_CONFIG), encoding="utf-8")
    check = run_cli("check", config, "--registry", measured, "--instance", "trn1.32xlarge", "--json", cwd=tmp_path)
    tested = json.loads(check.stdout)["tested_configurations"]
    assert [c["id"] for c in tested["configurations"]] == [RUN_ID]
    assert tested["configurations"][0]["measurements"][1] == {
        "metric": "accuracy", "name": "GSM8K", "value": 78.2, "unit": "percent", "phase": None, "percentile": None,
        "approximate": False}
    table = run_cli("check", config, "--registry", measured, "--instance", "trn1.32xlarge", cwd=tmp_path).stdout
    assert ("meta-llama/Llama-3.1-8B-Instruct | nxd-inference | inference | release 2.22.0 | trn1.32xlarge | TP=8 | "
            "batch ") in table
    assert "| bf16 | compiled-and-ran" in table
    assert "measured: throughput 41.5 tokens/s (token-generation); accuracy [GSM8K] 78.2 percent" in table

    again = run_cli(*RUN, "--registry", measured, cwd=tmp_path)  # the same run twice
    assert again.returncode == 0 and "already records this run; nothing changed" in again.stdout
    assert _files(measured) == after


def test_the_folder_is_created_and_a_dry_run_writes_nothing(measured: Path, tmp_path: Path) -> None:
    """Options may come before the word `configuration`; the dry run prints the new file as a diff; an --id
    another file has is refused, naming that file."""
    (measured / "configurations").mkdir()
    (measured / "configurations" / "nxdi-contrib.yaml").write_text(HARVESTED, encoding="utf-8")
    before = _files(measured)
    dry = run_cli("add-evidence", "--registry", measured, *RUN[1:], "--dry-run", cwd=tmp_path)
    assert dry.returncode == 0, dry.stderr
    assert f"+++ b/registry/{RUN_FILE}" in dry.stdout and "+source: reported" in dry.stdout
    assert dry.stdout.rstrip().endswith("(dry run: nothing written)")
    assert _files(measured) == before

    taken = run_cli(*RUN, "--id", "nxdi-contrib-llama-3-1-8b-instruct", "--registry", measured, cwd=tmp_path)
    assert (taken.returncode, taken.stderr.splitlines()) == (1, [
        "error: --id nxdi-contrib-llama-3-1-8b-instruct: already used in configurations/nxdi-contrib.yaml (ids are "
        "unique across every configurations file; leave --id out to get one)"])
    assert _files(measured) == before

    result = run_cli(*RUN, "--registry", measured, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(set(_files(measured)) - set(before)) == [RUN_FILE]
    assert (measured / "configurations" / "nxdi-contrib.yaml").read_text() == HARVESTED
    assert run_cli("validate", measured, cwd=tmp_path).returncode == 0


def _git(repo: Path, *args: str) -> str:
    import subprocess

    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args], cwd=repo,
                          check=True, capture_output=True, text=True).stdout


def test_two_contributors_runs_from_the_same_base_merge_without_a_conflict(measured: Path, tmp_path: Path) -> None:
    """Two branches from one commit each record a run (and both record a third, the same one): each branch adds
    files only, the merge has no conflict, and the merged registry validates with all three runs."""
    (measured / "configurations").mkdir()
    (measured / "configurations" / "reported.yaml").write_text(COMMENTED_REPORTED, encoding="utf-8")
    _git(measured, "init", "-q", "-b", "main")
    _git(measured, "add", "-A")
    _git(measured, "commit", "-q", "-m", "base")
    other = _replace(_replace(RUN, "--instance", "trn1.2xlarge"), "--tp", "2")
    shared = _replace(RUN, "--url", "https://github.com/aws-neuron/aws-neuron-sdk/issues/7")
    for branch, argv in (("alice", RUN), ("bob", other)):
        _git(measured, "checkout", "-q", "-b", branch, "main")
        for run in (argv, shared):
            result = run_cli(*run, "--registry", measured, cwd=tmp_path)
            assert result.returncode == 0, result.stderr
        _git(measured, "add", "-A")
        _git(measured, "commit", "-q", "-m", branch)
    changed = {branch: _git(measured, "diff", "--name-status", "main", branch).splitlines() for branch in ("alice", "bob")}
    assert all(line.startswith("A\t") for lines in changed.values() for line in lines), changed  # files added only
    assert len(set(changed["alice"]) & set(changed["bob"])) == 1  # the shared run: the same file on both
    _git(measured, "checkout", "-q", "alice")
    _git(measured, "merge", "-q", "--no-edit", "bob")  # check=True: a conflict fails here
    runs = sorted(p.name for p in (measured / "configurations" / "reported").iterdir())
    assert len(runs) == 3 and f"{RUN_ID}.yaml" in runs
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
    (_replace(RUN, "--measure", "throughput=1234567890123456tokens/s"), 2, "error: --measure throughput="
     "1234567890123456tokens/s: the value 1234567890123456 has more than 15 digits before the point; give it in a "
     "larger unit"),  # never '6tokens/s' read as its unit
    (_replace(RUN, "--measure", "throughput=41.1234567896tokens/s"), 2, "error: --measure throughput="
     "41.1234567896tokens/s: the value 41.1234567896 has more than 9 decimals; round it as the source does"),
    (_replace(RUN, "--measure", "mfu=5e-5percent"), 2, "error: --measure mfu=5e-5percent: the value 5e-5 has an "
     "exponent: write it out (0.00005, not 5e-5)"),
]


@pytest.mark.parametrize(("argv", "code", "line"), BAD_INPUTS,
                         ids=["instance", "stack", "release", "family", "no-unit", "wrong-unit", "no-release",
                              "unpinned-url", "tp-zero", "digits-past-the-limit", "decimals-past-the-limit",
                              "exponent"])
def test_bad_input_is_one_line_and_writes_nothing(measured: Path, tmp_path: Path, argv: list[str], code: int,
                                                  line: str) -> None:
    before = _files(measured)
    result = run_cli(*argv, "--registry", measured, cwd=tmp_path)
    assert (result.returncode, result.stderr.splitlines(), result.stdout) == (code, [line], "")
    assert _files(measured) == before


def test_tiny_and_huge_values_are_written_as_numbers_that_validate(measured: Path, tmp_path: Path) -> None:
    """Python writes 0.00005 as `5e-05`, which YAML 1.1 reads as text: the file says 0.00005 and validates."""
    argv = _replace(RUN, "--measure", "mfu=0.00005percent")
    result = run_cli(*argv, "--measure", "tpot=0.000000001ms", "--measure", "throughput=123456789012345tokens/s",
                     "--registry", measured, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (written,) = (measured / "configurations" / "reported").iterdir()
    text = written.read_text(encoding="utf-8")
    assert "{metric: mfu, value: 0.00005, unit: percent}" in text
    assert "{metric: tpot, value: 0.000000001, unit: ms}" in text
    assert "{metric: throughput, value: 123456789012345, unit: tokens/s}" in text
    assert run_cli("validate", measured, cwd=tmp_path).returncode == 0


def test_a_harvested_file_is_never_written(measured: Path, tmp_path: Path) -> None:
    harvested = measured / "configurations" / "nxdi-contrib.yaml"
    harvested.parent.mkdir()
    harvested.write_text(HARVESTED, encoding="utf-8")
    result = run_cli(*RUN, "--source", "nxdi-contrib", "--registry", measured, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "error: registry/configurations/nxdi-contrib.yaml is generated by scripts/harvest_nxdi_contrib.py (its "
        "`harvest:` record) and regenerated from its source; add-evidence does not write runs of that source: record "
        "your run in reported/ (leave --source out)"]
    assert harvested.read_text() == HARVESTED
    assert sorted(p.name for p in harvested.parent.iterdir()) == ["nxdi-contrib.yaml"]


def test_a_file_another_program_creates_during_the_run_is_not_replaced(
        measured: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Another program creates the run's file while the registry is being validated: that file stays."""
    import neuron_compat.rules.validation as validation

    target = measured / RUN_FILE
    saved = COMMENTED_REPORTED.replace("# end of file", "# saved by an editor")
    validate = validation.validate_registry

    def validate_then_save(root: Path | str) -> LoadResult:
        result = validate(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(saved, encoding="utf-8")
        return result

    monkeypatch.setattr(validation, "validate_registry", validate_then_save)
    code = main([*RUN, "--registry", str(measured)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.splitlines() == [f"error: {display_path(target)} changed while add-evidence ran (saved by another program?); "
                                "nothing written: run it again"]
    assert target.read_text() == saved


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
    (written,) = (measured / "configurations" / "reported").iterdir()
    assert capsys.readouterr().out.splitlines()[0].endswith(
        f": created it with configuration {written.stem} (meta-llama/Llama-3.1-8B-Instruct"
        " | nxd-inference | release not stated | trn1.32xlarge | compiled-and-ran)")
    assert written.stem.startswith("llama-3-1-8b-instruct-trn1-32xlarge-2026-11-02-") and written.stem != RUN_ID
    text = written.read_text(encoding="utf-8")
    expected = ["  " + line.replace('release: "2.22.0"', "release: null").replace(RUN_ID, written.stem)
                for line in ADDED]
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
    assert "meta-llama/Llama-3.1-8B-Instruct | nxd-inference | inference | release not stated" in capsys.readouterr().out

    # the same run again: nothing changes
    assert main([*NOT_STATED, "--registry", str(measured)]) == 0
    assert "already records this run; nothing changed" in capsys.readouterr().out


def test_an_outcome_alone_may_say_not_stated_too(measured: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a for i, a in enumerate(NOT_STATED) if not (a == "--measure" or NOT_STATED[i - 1] == "--measure")]
    assert "--measure" not in argv
    assert main([*argv, "--registry", str(measured)]) == 0
    (written,) = (measured / "configurations" / "reported").iterdir()
    text = written.read_text(encoding="utf-8")
    assert "    release: null\n" in text and "measurements" not in text
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
