"""Checkpoint pages: one per Hub id a tested configuration or a family example names, with the checkpoint's own
configurations only, and the constraints scoped to it (never those scoped to another checkpoint); each at a path no
other id reaches, ids named like index pages included (`org` and `org/index`, `org/README`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from neuron_compat.contract.hub_ids import checkpoint_page_folder, is_valid_repo_id
from neuron_compat.rules.validation import validate_registry
from neuron_compat.site import urls
from neuron_compat.site.pages import checkpoints

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "registry"
INDEX_LIKE = ["org", "org/index", "org/README", "org/index.md", "org/README.md", "org/Index.html", "index", "README",
              "index.md", "org/org", "org-x/index", "README/index", "a" * 96 + "/" + "b" * 96]


def _registry():  # type: ignore[no-untyped-def]
    return validate_registry(ROOT / "registry").registry


def test_every_configuration_hub_id_and_family_example_has_a_page() -> None:
    registry = _registry()
    pages = checkpoints.checkpoints(registry)
    examples = {example for family in registry.families for example in family.examples}
    named = {c.hub_id for f in registry.configuration_files for c in f.configurations if c.hub_id}
    renamed = {a.old: a.current for a in registry.checkpoint_aliases.aliases}  # one page, under the current name
    assert {renamed.get(hub_id, hub_id) for hub_id in examples | named} == set(pages)
    files = checkpoints.render(registry)
    forwards = [path for path in files if path.endswith("/index.html")]  # an old name's folder forwards
    assert len(files) - len(forwards) == len(pages)
    assert sorted(forwards) == sorted(f"checkpoints/{old}/index.html" for old, current in renamed.items()
                                      if current in pages)
    page = files["checkpoints/meta-llama/Llama-3.1-8B-Instruct/index.md"]
    assert "../../../families/llama/" in page and "release not stated" in page and "tokens/s" in page
    assert "cfg-optimum-neuron-llama-3-1-8b-trn2" in page
    assert "cfg-optimum-neuron-llama3-1-8b-dp4" in page  # recorded as Meta-Llama-3.1-8B-Instruct, its old name


class _Scope:
    def __init__(self, tasks: list[str], checkpoints: list[str]) -> None:
        self.tasks, self.checkpoints = tasks, checkpoints


def test_a_constraint_scoped_to_another_checkpoint_is_left_out() -> None:
    assert checkpoints.scope(None, "org/a") == "the whole family"
    assert checkpoints.scope(_Scope([], ["org/a"]), "org/a") == "this checkpoint"
    assert checkpoints.scope(_Scope([], ["org/b"]), "org/a") is None
    assert checkpoints.scope(_Scope(["feature-extraction"], ["org/b"]), "org/a") == (
        "only when served for feature-extraction")


def test_every_id_named_like_an_index_page_has_a_path_no_other_id_reaches() -> None:
    assert all(is_valid_repo_id(hub_id) for hub_id in INDEX_LIKE)
    pages = [urls.checkpoint_page(hub_id) for hub_id in INDEX_LIKE]
    folded = [page.casefold() for page in pages]
    assert len(set(folded)) == len(pages)
    assert len({urls.page_url(page).casefold() for page in pages}) == len(pages)  # no two pages at one URL
    for page in pages:  # each an index.md exactly two folders below checkpoints/: no page is in another's folder
        assert page.startswith("checkpoints/") and page.endswith("/index.md") and page.count("/") == 3, page
        assert not any(other.startswith(page.casefold()[: -len("index.md")]) for other in folded
                       if other != page.casefold())
    assert checkpoint_page_folder("gpt2") == "checkpoints/-/gpt2"
    assert urls.checkpoint_url("meta-llama/Llama-3.1-8B") == "checkpoints/meta-llama/Llama-3.1-8B/"


def test_the_site_writes_one_page_per_id_named_like_an_index_page(tmp_path: Path) -> None:
    registry = tmp_path / "registry"
    shutil.copytree(FIXTURE, registry)
    family = registry / "families" / "llama.yaml"
    text = "".join(line for line in family.read_text(encoding="utf-8").splitlines(keepends=True)
                   if not line.startswith("examples:"))
    family.write_text(text + "examples: [" + ", ".join(f"'{i}'" for i in INDEX_LIKE) + "]\n", encoding="utf-8")
    files = checkpoints.render(validate_registry(registry).registry)
    assert sorted(files) == sorted(urls.checkpoint_page(hub_id) for hub_id in INDEX_LIKE)
    for hub_id in INDEX_LIKE:
        assert f'\ntitle: "{hub_id}"\n' in files[urls.checkpoint_page(hub_id)]  # its own page, not another's
