"""`neuron-compat diff` and `changelog`: the change in published claims, in plain words."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from contrib_helpers import run_cli


def _changed_copy(registry: Path, tmp_path: Path) -> Path:
    """The fixture with: optimum-neuron partial -> supported, one more nxd-inference dtype and source, a new family."""
    head = tmp_path / "head"
    shutil.copytree(registry, head)
    llama = head / "families" / "llama.yaml"
    llama.write_text(llama.read_text().replace("status: partial", "status: supported"))
    assert run_cli("add-evidence", "llama", "--registry", head, "--stack", "nxd-inference", "--release", "2.22.0",
                   "--instance", "trn2.48xlarge", "--dtype", "fp8", "--url", "https://example.com/run.log",
                   "--by", "alice", "--verified", "2026-12-03", cwd=tmp_path).returncode == 0
    assert run_cli("new", "qwen3", "--model-type", "qwen3", "--stack", "optimum-neuron:inference",
                   "--registry", head, "--today", "2026-12-02", cwd=tmp_path).returncode == 0
    (head / "registry.yaml").write_text('data_version: "2026.12.1"\n')
    return head


def test_diff_says_what_changed_per_cell_and_per_statement(registry: Path, tmp_path: Path) -> None:
    (registry / "registry.yaml").write_text('data_version: "2026.12.0"\n')
    head = _changed_copy(registry, tmp_path)
    result = run_cli("diff", registry, head, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Data version 2026.12.0 -> 2026.12.1",
        "Support (family / stack / workload / hardware):",
        "  llama / optimum-neuron / inference / inf2: partial -> supported (2.20.0 until 2.22.0)",
        "  qwen3 / optimum-neuron / inference / inf2, trn1, trn2: no statement -> unknown (since 2.20.0)",
        "Statement details:",
        ("  llama / nxd-inference / inference / trn1, trn2 since 2.21.0: dtypes bf16 -> bf16, fp8; "
         "+ source reproducible-run https://example.com/run.log (verified 2026-12-03, by alice, Neuron 2.22.0, "
         "on trn2.48xlarge)"),
        "Families:",
        "  new family qwen3 (Qwen3): model types qwen3",
    ]


def test_markdown_for_the_pull_request_comment(registry: Path, tmp_path: Path) -> None:
    head = _changed_copy(registry, tmp_path)
    result = run_cli("diff", registry, head, "--format", "markdown", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "### Changes to the published claims"
    assert "- llama / optimum-neuron / inference / inf2: partial \u2192 supported (2.20.0 until 2.22.0)" in lines
    assert "**Statement details**" in lines


def test_a_status_change_from_a_release_on_reads_since(registry: Path, tmp_path: Path) -> None:
    head = tmp_path / "head"
    shutil.copytree(registry, head)
    llama = head / "families" / "llama.yaml"
    # llama on nxd-inference: supported since 2.21.0 -> only from 2.22.0 on (2.21.0 no longer claimed)
    llama.write_text(llama.read_text().replace('since: "2.21.0"', 'since: "2.22.0"', 1))
    result = run_cli("diff", registry, head, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Support (family / stack / workload / hardware):",
        "  llama / nxd-inference / inference / trn1, trn2: supported -> no statement (2.21.0 until 2.22.0)",
    ]


def test_no_change_and_an_invalid_side(registry: Path, tmp_path: Path) -> None:
    result = run_cli("diff", registry, registry, cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "No change to the published claims.\n")
    head = tmp_path / "head"
    shutil.copytree(registry, head)
    (head / "families" / "bert.yaml").write_text("id: bert\nname: BERT\nmodel_types: [bert]\nsupport: [{stack: x}]\n")
    result = run_cli("diff", registry, head, cwd=tmp_path)
    assert result.returncode == 1
    assert "head registry" in result.stderr and "problem(s)" in result.stderr
    assert result.stdout == ""


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                   check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_changelog_between_two_tags(registry: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    shutil.copytree(registry, repo / "registry")
    (repo / "registry" / "registry.yaml").write_text('data_version: "2026.11.0"\n')
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "data 2026.11.0")
    _git(repo, "tag", "data-2026.11.0")
    head = _changed_copy(repo / "registry", tmp_path)
    shutil.rmtree(repo / "registry")
    shutil.copytree(head, repo / "registry")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "data 2026.12.1")
    _git(repo, "tag", "data-2026.12.1")
    (repo / "registry" / "families" / "bert.yaml").unlink()  # uncommitted: the changelog reads git, not the tree

    result = run_cli("changelog", "--from", "data-2026.11.0", "--to", "data-2026.12.1", "--repo", repo, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == ["### Data 2026.12.1 (changes since data-2026.11.0)", "", "Data version 2026.11.0 -> 2026.12.1"]
    assert "- new family qwen3 (Qwen3): model types qwen3" in lines
    assert not any("bert" in line for line in lines)

    result = run_cli("changelog", "--from", "no-such-tag", "--repo", repo, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == f"error: 'no-such-tag' is not a commit, tag or branch of the repository at {repo}"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
@pytest.mark.parametrize("target, before, after", [
    ("/etc/passwd", "is a link to an absolute path", ""),
    ("../../../../outside.yaml", "is a link to '../../../../outside.yaml', which points out of the registry", ""),
    ("../../../from/registry/families/llama.yaml", "is a link to '../../../from/registry/families/llama.yaml', "
     "which points out of the registry", ""),  # into the other revision's temporary copy: never named
])
def test_changelog_refuses_a_revision_whose_registry_links_out_of_itself(registry: Path, tmp_path: Path,
                                                                          target: str, before: str, after: str) -> None:
    """tarfile's data filter refuses the link; that is one line and exit 1, not its traceback, in the revision's
    own names (never the temporary folder it was extracted into)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    shutil.copytree(registry, repo / "registry")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    (repo / "registry" / "families" / "evil.yaml").symlink_to(target)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "a link out of the registry")

    result = run_cli("changelog", "--from", "HEAD~1", "--repo", repo, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"error: HEAD: 'registry/families/evil.yaml' {before}")
    assert lines[0].endswith(f"{after} (a registry holds plain files; nothing was read)")
    assert "neuron-compat-changelog-" not in result.stderr and tempfile.gettempdir() not in result.stderr


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_changelog_reads_a_registry_folder_named_with_a_space(registry: Path, tmp_path: Path) -> None:
    """git's listing is read NUL-separated: `--path "my registry"` is one folder, not two names."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    shutil.copytree(registry, repo / "my registry")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    (repo / "my registry" / "families" / "bert.yaml").unlink()
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "bert removed")
    result = run_cli("changelog", "--from", "HEAD~1", "--repo", repo, "--path", "my registry", "--format", "text",
                     cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "  family bert removed" in result.stdout.splitlines()
