"""Checkpoint page paths (rules/checkpoint_page_paths.py, contract.hub_ids.checkpoint_page_folder): every id gets a
page of its own, ids named like index pages included (`org` and `org/index`, `org/README`); two spellings of one id
that differ only in case are refused by validate and by add-evidence; the longest valid id (96 + 1 + 96) is taken."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cli_in_process import run_in_process

from neuron_compat.contract.hub_ids import REPO_ID_MAX_LENGTH, checkpoint_page_folder, is_valid_repo_id
from neuron_compat.rules.validation import validate_registry
from neuron_compat.site import urls
from neuron_compat.site.pages import checkpoints

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "registry"
LONGEST = "a" * 96 + "/" + "b" * 96
INDEX_LIKE = ["org", "org/index", "org/README", "org/index.md", "org/README.md", "org/Index.html", "index", "README",
              "index.md", "org/org", "org-x/index", "README/index", LONGEST]


def _registry(tmp_path: Path, examples: dict[str, list[str]]) -> Path:
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURE, registry)
    for family, ids in examples.items():
        path = registry / "families" / f"{family}.yaml"
        text = path.read_text(encoding="utf-8")
        text = "\n".join(line for line in text.splitlines() if not line.startswith("examples:")) + "\n"
        path.write_text(text + "examples: [" + ", ".join(f"'{i}'" for i in ids) + "]\n", encoding="utf-8")
    return registry


def test_every_id_named_like_an_index_page_has_a_path_no_other_id_reaches() -> None:
    assert all(is_valid_repo_id(hub_id) for hub_id in INDEX_LIKE)
    pages = [urls.checkpoint_page(hub_id) for hub_id in INDEX_LIKE]
    folded = [page.casefold() for page in pages]
    assert len(set(folded)) == len(pages)
    served = {urls.page_url(page).casefold() for page in pages}
    assert len(served) == len(pages)  # no two pages at one URL
    for page in pages:  # each an index.md exactly two folders below checkpoints/: no page is another's folder
        assert page.startswith("checkpoints/") and page.endswith("/index.md") and page.count("/") == 3, page
        assert not any(other.startswith(page[: -len("index.md")]) for other in folded if other != page.casefold())
    assert checkpoint_page_folder("gpt2") == "checkpoints/-/gpt2"
    assert urls.checkpoint_url("meta-llama/Llama-3.1-8B") == "checkpoints/meta-llama/Llama-3.1-8B/"


def test_the_site_writes_one_page_per_id_named_like_an_index_page(tmp_path: Path) -> None:
    registry = validate_registry(_registry(tmp_path, {"llama": INDEX_LIKE})).registry
    files = checkpoints.render(registry)
    assert sorted(files) == sorted(urls.checkpoint_page(hub_id) for hub_id in INDEX_LIKE)
    for hub_id in INDEX_LIKE:
        assert f"\ntitle: \"{hub_id}\"\n" in files[urls.checkpoint_page(hub_id)]  # its own page, not another's


def test_validate_refuses_a_second_spelling_that_differs_only_in_case(tmp_path: Path) -> None:
    registry = _registry(tmp_path, {"bert": ["org/x", "meta-llama/Llama-3.1-8B"], "llama": ["META-LLAMA/llama-3.1-8b"]})
    problems = [p for p in validate_registry(registry).problems if p.severity == "error"]
    assert [(p.file, p.line, p.field, p.rule) for p in problems] == [
        (str(registry / "families" / "llama.yaml"), 43, "examples[0]", "checkpoint-page-paths")]
    assert problems[0].message == (
        "checkpoint 'META-LLAMA/llama-3.1-8b' differs only in case from 'meta-llama/Llama-3.1-8B' (families/bert.yaml "
        "examples[1]): `check` and the Hub take them as one repo, and the site would give them one page")
    assert problems[0].hint == ("write one spelling in both places, the one https://huggingface.co/meta-llama/"
                                "Llama-3.1-8B shows")
    result = run_in_process(["validate", str(registry)], cwd=tmp_path)
    assert result.returncode == 1 and "llama.yaml:43:12: examples[0]: checkpoint 'META-LLAMA" in result.stdout


def _add(tmp_path: Path, registry: Path, hub_id: str) -> object:
    return run_in_process(
        ["add-evidence", "configuration", "--registry", str(registry), "--family", "llama", "--checkpoint", "x",
         "--hub-id", hub_id, "--stack", "optimum-neuron", "--outcome", "compiled-and-ran", "--validated",
         "2025-01-01", "--url", "https://github.com/aws-neuron/aws-neuron-sdk/issues/1"], cwd=tmp_path)


def test_add_evidence_refuses_a_hub_id_that_differs_only_in_case_and_writes_nothing(tmp_path: Path) -> None:
    registry = _registry(tmp_path, {})
    result = _add(tmp_path, registry, "META-LLAMA/llama-3.1-8b")
    assert result.returncode == 1  # type: ignore[attr-defined]
    assert result.stderr.splitlines() == [  # type: ignore[attr-defined]
        "error: --hub-id META-LLAMA/llama-3.1-8b: differs only in case from 'meta-llama/Llama-3.1-8B' "
        "(families/llama.yaml examples[0]): `check` and the Hub take them as one repo, and the site would give them "
        "one page; write it as the Hub does (--hub-id meta-llama/Llama-3.1-8B if that is its spelling)"]
    assert not (registry / "configurations").exists()


@pytest.mark.parametrize("hub_id", [LONGEST, "gpt2", "org/index", "org/README"])
def test_add_evidence_takes_every_valid_hub_id_up_to_the_longest(tmp_path: Path, hub_id: str) -> None:
    assert len(LONGEST) == REPO_ID_MAX_LENGTH
    registry = _registry(tmp_path, {})
    result = _add(tmp_path, registry, hub_id)
    assert result.returncode == 0, result.stderr  # type: ignore[attr-defined]
    assert f"hub_id: {hub_id}" in (registry / "configurations" / "reported.yaml").read_text(encoding="utf-8")
    assert validate_registry(registry).problems == [] or all(
        p.severity == "warning" for p in validate_registry(registry).problems)
