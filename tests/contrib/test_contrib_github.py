"""The .github files and pre-commit hooks: valid for GitHub (schemas vendored in check-jsonschema, offline),
and every command they run is one the CLI has."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from contrib_helpers import REPO, run_cli

from neuron_compat.contract.vocabulary import Attention, Dtype
from neuron_compat.rules.validation import validate_registry

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
FORMS = [REPO / ".github" / "ISSUE_TEMPLATE" / name for name in ("report-result.yml", "request-architecture.yml")]


def _check_jsonschema(schema: str, *files: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, files)],
                          check=False, capture_output=True, text=True, timeout=120)


def test_workflows_exist_and_pass_the_github_workflow_schema() -> None:
    assert {p.name for p in WORKFLOWS} >= {"check.yml", "pages.yml"}
    for schema in ("vendor.github-workflows", "custom.github-workflows-require-timeout"):
        result = _check_jsonschema(schema, *WORKFLOWS)
        assert result.returncode == 0, result.stdout + result.stderr


def test_the_workflow_linter_rejects_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text((REPO / ".github" / "workflows" / "check.yml").read_text().replace("runs-on:", "runs_on:", 1))
    result = _check_jsonschema("vendor.github-workflows", broken)
    assert result.returncode == 1
    assert "broken.yml" in result.stdout


def test_issue_forms_pass_the_issue_form_schema() -> None:
    result = _check_jsonschema("vendor.github-issue-forms", *FORMS)
    assert result.returncode == 0, result.stdout + result.stderr
    result = _check_jsonschema("vendor.github-issue-config", REPO / ".github" / "ISSUE_TEMPLATE" / "config.yml")
    assert result.returncode == 0, result.stdout + result.stderr


def _form_fields(path: Path) -> dict[str, dict]:
    form = yaml.safe_load(path.read_text())
    return {item["id"]: item for item in form["body"] if "id" in item}


def test_report_result_asks_for_the_evidence_with_the_registry_vocabulary() -> None:
    fields = _form_fields(REPO / ".github" / "ISSUE_TEMPLATE" / "report-result.yml")
    assert {"family", "stack", "release", "instance", "dtype", "attention", "command", "log"} <= fields.keys()
    registry = validate_registry(REPO / "registry").registry
    stacks = [o for o in fields["stack"]["attributes"]["options"] if not o.startswith("other")]
    unknown = set(stacks) - set(registry.stack_by_id)
    assert not unknown, f"report-result.yml offers stacks that stacks.yaml does not have: {sorted(unknown)}"
    assert set(fields["dtype"]["attributes"]["options"]) <= {d.value for d in Dtype}
    attention = set(fields["attention"]["attributes"]["options"]) - {"don't know"}
    assert attention <= {a.value for a in Attention}


def _neuron_compat_invocations() -> list[list[str]]:
    """Every `neuron-compat ...` command line in the workflows and the pre-commit files."""
    found: list[list[str]] = []
    for workflow in WORKFLOWS:
        for job in yaml.safe_load(workflow.read_text())["jobs"].values():
            for step in job.get("steps", []):
                for line in step.get("run", "").splitlines():
                    line = line.strip()
                    for command in line.split("&&"):  # a chained line holds other tools' commands too
                        command = command.strip()
                        if command.startswith("neuron-compat "):
                            found.append(shlex.split(command.split(">")[0]))
    for name in (".pre-commit-hooks.yaml", ".pre-commit-config.yaml"):
        data = yaml.safe_load((REPO / name).read_text())
        hooks = data if isinstance(data, list) else [h for repo in data["repos"] for h in repo["hooks"]]
        for hook in hooks:
            if hook["entry"].startswith("neuron-compat "):
                found.append(shlex.split(hook["entry"]) + hook.get("args", []))
    return found


def test_every_command_the_automation_runs_exists_with_those_options() -> None:
    invocations = _neuron_compat_invocations()
    assert {argv[1] for argv in invocations} >= {"validate", "diff"}
    for argv in invocations:
        help_text = run_cli(argv[1], "--help", cwd=REPO)
        assert help_text.returncode == 0, f"{' '.join(argv)}: no such subcommand"
        for option in (a for a in argv[2:] if a.startswith("--")):
            assert re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text.stdout), \
                f"{' '.join(argv)}: {argv[1]} has no option {option}"


def test_the_pre_commit_hook_validates_a_registry(registry: Path, tmp_path: Path) -> None:
    hook = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())[0]
    assert hook["id"] == "neuron-compat-validate" and hook["pass_filenames"] is False
    argv = [*shlex.split(hook["entry"])[1:], *hook["args"]]  # run in a repository whose registry is ./registry
    assert run_cli(*argv, cwd=tmp_path).returncode == 0
    bert = registry / "families" / "bert.yaml"
    bert.write_text(bert.read_text().replace("status: supported", "status: maybe"))
    result = run_cli(*argv, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("registry/families/bert.yaml:8:13: support[0].status: 'maybe' is not one of")


@pytest.mark.parametrize("path", [REPO / ".github" / "pull_request_template.md"])
def test_the_pull_request_checklist_is_the_one_in_contributing(path: Path) -> None:
    checklist = [line[len("- [ ] "):] for line in path.read_text().splitlines() if line.startswith("- [ ] ")]
    assert len(checklist) >= 5
    contributing = (REPO / "CONTRIBUTING.md").read_text()
    missing = [item for item in checklist if item not in contributing]
    assert not missing, f"checklist items not in CONTRIBUTING.md: {missing}"
