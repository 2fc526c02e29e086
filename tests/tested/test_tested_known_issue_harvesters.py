"""The known-issue harvesters (scripts/known_issue_harvesters): a component's notes become entries listed first to
last with the fix only where readable; a page that does not parse is named in not_recorded; a run on a small git
mirror writes a file the contract accepts, and --check fails only when it is stale."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from known_issue_harvesters import error_codes, release_notes  # noqa: E402
from known_issue_harvesters.common import Harvested, bullet_items  # noqa: E402

NOTES = """Component Release Notes for NxD Inference
=========================================

.. _nxdi-2-22-0-rn:

NxD Inference (Neuron 2.22.0 Release)
-------------------------------------

Known Issues
^^^^^^^^^^^^

* Qwen3 MoE only supports batch size >= 16 configurations.

.. _nxdi-2-21-0-rn:

NxD Inference (Neuron 2.21.0 Release)
-------------------------------------

Bug Fixes
^^^^^^^^^

* Fixed a crash that printed ``RuntimeError: Failed to load NEFF on core``.

Known Issues
^^^^^^^^^^^^

* Qwen3 MoE only supports batch size >= 16
  configurations.
* Old issue, gone in 2.22.0.

.. _nxdi-2-20-0-rn:

NxD Inference (Neuron 2.20.0 Release)
-------------------------------------

Improvements
^^^^^^^^^^^^

* Nothing broken.
"""


def _entries() -> dict[str, dict]:  # type: ignore[type-arg]
    result = Harvested("release-notes", "d", "s", "v2.22.0")
    items, has_known = release_notes.read_component("release-notes/components/nxd-inference.rst", NOTES)
    listings: dict[tuple[str, str], release_notes.Listing] = {}
    for kind, release, library, text, line, anchor in items:
        listing = listings.setdefault((kind, " ".join(text.split())),
                                      release_notes.Listing("nxd-inference", kind, library, text))
        listing.releases.append(release)
        listing.anchors[release] = (anchor, line)
    for listing in listings.values():
        result.add(release_notes._entry(listing, "v2.22.0", dt.date(2026, 8, 1), has_known, {"2.21.0"},
                                        {"qwen3 moe": "qwen3_moe", "qwen3": "qwen3"}), "x")
    assert result.not_recorded == []
    return {entry["title"][:20]: entry for entry in result.issues}


def test_a_known_issue_repeated_in_each_release_is_one_entry_listed_first_to_last() -> None:
    entries = _entries()
    qwen = entries["Qwen3 MoE only suppo"]
    assert qwen["listed_in"] == {"first": "2.21.0", "last": "2.22.0"}
    assert "fixed_in" not in qwen  # still listed in the newest notes: no fix is invented
    assert qwen["families"] == ["qwen3_moe"]  # the longer name wins over 'qwen3' inside it
    gone = entries["Old issue, gone in 2"]  # no longer listed is not fixed: said as such, never "fixed in"
    assert gone["listed_in"] == {"first": "2.21.0", "last": "2.21.0", "not_listed_from": "2.22.0"}
    assert "fixed_in" not in gone
    fixed = entries["Fixed a crash that p"]
    assert fixed["fixed_in"] == {"release": "2.21.0"} and fixed["kind"] == "bug-fix"
    assert fixed["match"]["phrases"] == ["RuntimeError: Failed to load NEFF on core"]
    assert fixed["sources"][0]["url"].endswith("#nxdi-2-21-0-rn")


def test_bullets_keep_their_continuation_lines() -> None:
    lines = ["* one", "  two", "* three", "", "after"]
    assert [item.text for item in bullet_items(lines, 0, len(lines))] == ["one\ntwo", "three"]


def test_an_error_code_page_without_a_message_is_not_recorded() -> None:
    with pytest.raises(error_codes.HarvestError, match="no \\*\\*Error message\\*\\*"):
        error_codes.entry("compiler/error-codes/EXXX001.rst", "NCC_EXXX001\n===========\n\nNothing here.\n",
                          "v2.32.0", {}, None, dt.date(2026, 8, 1))


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@x", "GIT_AUTHOR_DATE": "2026-08-01T00:00:00",
                        "GIT_COMMITTER_DATE": "2026-08-01T00:00:00", "PATH": "/usr/bin:/bin"})


def test_a_run_on_a_mirror_writes_a_valid_file_and_check_detects_staleness(tmp_path: Path) -> None:
    work = tmp_path / "docs"
    pages = work / "compiler" / "error-codes"
    pages.mkdir(parents=True)
    (pages / "EOOM001.rst").write_text("NCC_EOOM001\n===========\n\n**Error message**: The combined memory needed "
                                       "for the model tensors exceeds the high-bandwidth memory limit.\n\nReduce the "
                                       "batch size.\n", encoding="utf-8")
    (pages / "EBAD001.rst").write_text("no title at all\n", encoding="latin-1")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "docs")
    _git(work, "tag", "v2.27.0")
    output = tmp_path / "error-codes.harvested.yaml"
    script = ROOT / "scripts" / "harvest_known_issues_error_codes.py"
    run = [sys.executable, str(script), "--mirror", str(work / ".git"), "--revision", "v2.27.0", "--output", str(output)]
    assert subprocess.run(run, capture_output=True, text=True).returncode == 0
    body = yaml.safe_load(output.read_text(encoding="utf-8"))
    assert [issue["id"] for issue in body["issues"]] == ["ncc-eoom001"]
    assert body["not_recorded"] == [{"path": "compiler/error-codes/EBAD001.rst", "reason": "no NCC_ code title"}]
    from neuron_compat.contract.known_issues import KnownIssuesFile

    KnownIssuesFile.model_validate(body)
    assert subprocess.run([*run, "--check"], capture_output=True, text=True).returncode == 0
    output.write_text(output.read_text(encoding="utf-8").replace("id: ncc-eoom001", "id: ncc-eoom009"), encoding="utf-8")
    stale = subprocess.run([*run, "--check"], capture_output=True, text=True)
    assert stale.returncode == 1 and "out of date" in stale.stderr
    missing = subprocess.run([*run[:-4], "--revision", "v9.9.9"], capture_output=True, text=True)
    assert missing.returncode == 1 and missing.stderr.count("\n") == 1


JUNK = """NxD Core (Neuron 2.22.0 Release)
--------------------------------

Bug Fixes
^^^^^^^^^

* - Area - Error Code - Fix
* None reported for this release.
* Fixed an auto-allocated output reporting ``void``.

Known Issues
^^^^^^^^^^^^

* Auto-allocated output tensors may report a void dtype. Use ``.view(np.float16)`` or ``.view(np.float32)`` to
  reinterpret.
* **Python 3.12**: not supported. **Impact**: installs fail. **Workaround**: Use Python 3.10 or 3.11.
"""


def test_table_headers_and_placeholders_are_not_issues_and_workarounds_are_word_for_word(tmp_path: Path) -> None:
    work = tmp_path / "docs"
    (work / "release-notes" / "components").mkdir(parents=True)
    (work / "release-notes" / "components" / "nxd-core.rst").write_text(JUNK, encoding="utf-8")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "docs")
    result = Harvested("release-notes", "d", "s", "HEAD")
    release_notes.harvest(work / ".git", "HEAD", result, dt.date(2026, 8, 1), {"2.22.0"}, {})
    titles = [entry["title"] for entry in result.issues]
    assert not any(t.startswith(("- Area", "Area", "None reported")) for t in titles), titles
    workarounds = {entry["title"][:12]: entry.get("workaround") for entry in result.issues}
    assert workarounds["Auto-allocat"] == "Use `.view(np.float16)` or `.view(np.float32)` to reinterpret."
    assert workarounds["Python 3.12:"] == "Use Python 3.10 or 3.11."
    assert {e["browse_only"] for e in result.issues if "match" not in e} == {"the release note quotes no error text"}


def test_a_release_the_registry_lacks_is_not_recorded(tmp_path: Path) -> None:
    work = tmp_path / "docs"
    (work / "release-notes" / "components").mkdir(parents=True)
    (work / "release-notes" / "components" / "nxd-core.rst").write_text(
        JUNK.replace("2.22.0", "2.99.0"), encoding="utf-8")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "docs")
    result = Harvested("release-notes", "d", "s", "HEAD")
    release_notes.harvest(work / ".git", "HEAD", result, dt.date(2026, 8, 1), {"2.21.0", "2.22.0"}, {})
    assert result.issues == []
    assert any("release 2.99.0 is not in releases.yaml" in n["reason"] for n in result.not_recorded)


def test_a_page_named_with_a_space_is_read(tmp_path: Path) -> None:
    from known_issue_harvesters.common import files_at

    work = tmp_path / "docs"
    (work / "compiler" / "error-codes").mkdir(parents=True)
    (work / "compiler" / "error-codes" / "E 001.rst").write_text("x\n", encoding="utf-8")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    _git(work, "commit", "-qm", "docs")
    assert files_at(work / ".git", "HEAD", "compiler/error-codes") == ["compiler/error-codes/E 001.rst"]


def test_a_commit_dated_in_the_future_is_refused_not_written_as_verified(tmp_path: Path) -> None:
    work = tmp_path / "docs"
    pages = work / "compiler" / "error-codes"
    pages.mkdir(parents=True)
    (pages / "EOOM001.rst").write_text("NCC_EOOM001\n===========\n\n**Error message**: The combined memory needed "
                                       "for the model tensors exceeds the high-bandwidth memory limit.\n\n", "utf-8")
    _git(work, "init", "-q")
    _git(work, "add", "-A")
    subprocess.run(["git", "-C", str(work), "commit", "-qm", "docs"], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@x", "GIT_AUTHOR_DATE": "2099-01-01T00:00:00",
                        "GIT_COMMITTER_DATE": "2099-01-01T00:00:00", "PATH": "/usr/bin:/bin"})
    _git(work, "tag", "v2.27.0")
    output = tmp_path / "error-codes.harvested.yaml"
    script = ROOT / "scripts" / "harvest_known_issues_error_codes.py"
    run = subprocess.run([sys.executable, str(script), "--mirror", str(work / ".git"), "--revision", "v2.27.0",
                          "--output", str(output)], capture_output=True, text=True)
    assert run.returncode == 1 and not output.exists()
    assert "2099-01-01, after today" in run.stderr and "Traceback" not in run.stderr


def test_a_contract_refusal_is_one_readable_line_per_problem() -> None:
    from known_issue_harvesters.common import validation_lines
    from pydantic import ValidationError

    from neuron_compat.contract.known_issues import KnownIssuesFile

    with pytest.raises(ValidationError) as caught:
        KnownIssuesFile.model_validate({"issues": [{"id": "x"}, {"id": "y", "title": "t"}]})
    lines = validation_lines(caught.value)
    assert "issues.0.title: Field required" in lines and all("\n" not in line for line in lines)
    assert len(lines) == caught.value.error_count()


def test_the_runtime_status_codes_are_one_entry_each_with_their_number_and_meaning() -> None:
    from known_issue_harvesters import runtime_status

    page = ("NRT_STATUS\n^^^^^^^^^^\n\n.. code-block:: c\n\n   typedef enum {\n       NRT_SUCCESS = 0,\n"
            "       NRT_TIMEOUT = 5,\n       NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE = 1205,\n   } NRT_STATUS;\n\n"
            "* ``NRT_SUCCESS`` - Operation completed successfully\n* ``NRT_TIMEOUT`` - Operation timed out\n"
            "* ``NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE`` - HBM encountered a repairable uncorrectable error\n"
            "* ``NRT_NOT_ENUMERATED`` - Explained but not in the enumeration\n")
    assert [(code, number) for code, number, _, _ in runtime_status.codes(page)] == [
        ("NRT_TIMEOUT", 5), ("NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE", 1205)]
    result = Harvested("runtime-status", "d", "s", "v2.32.0")
    for code, number, meaning, line in runtime_status.codes(page):
        assert result.add(runtime_status._entry(code, number, meaning, line, "v2.32.0", dt.date(2026, 8, 1)), "x")
    assert result.issues[1]["title"] == ("NRT_EXEC_HW_ERR_REPAIRABLE_HBM_UE (1205): HBM encountered a repairable "
                                         "uncorrectable error")


def test_a_known_issue_whose_note_names_the_fix_release_carries_it_and_no_other_does() -> None:
    listing = release_notes.Listing("compiler", "known-issue", "", "Some configurations fail with ``X``. This is fixed "
                                    "in the compiler version 2.10.0.35 (Neuron SDK 2.14.1).", ["2.14.0"],
                                    {"2.14.0": ("", 1)})
    entry = release_notes._entry(listing, "v2.32.0", dt.date(2026, 8, 1), {"2.14.0": True, "2.15.0": True}, set(), {})
    assert entry["fixed_in"] == {"release": "2.14.1"}
    assert entry["listed_in"] == {"first": "2.14.0", "last": "2.14.0", "not_listed_from": "2.15.0"}
    listing.text = "Some configurations fail. The bug will be addressed in upcoming Neuron releases."
    assert release_notes._entry(listing, "v2.32.0", dt.date(2026, 8, 1), {}, set(), {})["fixed_in"] is None
