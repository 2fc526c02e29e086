"""`mkdocs build --strict` as a person runs it: output, reproducibility, and failure on invalid data."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from engine_build import build_log
from site_helpers import (
    REPO,
    build_site,
    fetch_text,
    free_port,
    make_registry,
    stop_process_group,
    write_tree,
)


def tree_digest(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*")) if path.is_file()
    }


def test_built_site_has_pages_and_api(built_site: Path) -> None:
    for path in ("index.html", "check/index.html", "families/qwen3/index.html", "matrix/index.html",
                 "releases/2.22.0/index.html", "releases/index.html", "coverage/index.html", "stacks/index.html",
                 "contributing/index.html", "api/index.html", "api/registry.json", "api/families/qwen3.json",
                 "api/schemas/family.schema.json", "api/badges/qwen3/nxd-inference-inference.json",
                 "api/matrix.json", "search/search_index.json"):
        assert (built_site / path).is_file(), path
    registry = json.loads((built_site / "api/registry.json").read_text(encoding="utf-8"))
    assert {f["id"] for f in registry["families"]} == {"bert", "custom-phi", "llama", "qwen3"}
    contributing = (built_site / "contributing/index.html").read_text(encoding="utf-8")
    assert "neuron-compat:" not in contributing  # the marker was filled
    schema = (built_site / "schema/index.html").read_text(encoding="utf-8")  # the schema reference's own page
    assert "neuron-compat:" not in schema and 'id="schema-statement"' in schema
    family = (built_site / "families/qwen3/index.html").read_text(encoding="utf-8")
    edit = "https://github.com/neuron-compat/neuron-compat/edit/main/registry/families/qwen3.yaml"
    assert f'href="{edit}" title="Edit this page"' in family  # Material's edit button opens the YAML
    assert "issues/new?template=report-result.yml&amp;title=Result%3A%20Qwen3%20on%20Neuron%202.22.0" in family


def test_search_index_holds_the_names_people_type(built_site: Path) -> None:
    index = json.loads((built_site / "search/search_index.json").read_text(encoding="utf-8"))
    text = " ".join(doc["text"] for doc in index["docs"] if doc["location"].startswith("families/qwen3/"))
    for term in ("Qwen3ForCausalLM", "qwen3", "Qwen/Qwen3-8B", "Qwen 3"):
        assert term in text, term
    assert re.split(index["config"]["separator"], "qwen3_moe meta-llama/Llama-3.1-8B") == [
        "qwen3", "moe", "meta", "llama", "Llama", "3.1", "8B"]


def test_two_builds_are_byte_identical_whatever_cwd_locale_and_timezone(site_registry: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    first = build_site(site_registry, tmp_path / "first", extra_env={"TZ": "UTC", "LC_ALL": "C.UTF-8"})
    assert first.returncode == 0, first.stderr
    again = build_site(site_registry, tmp_path / "again", cwd=elsewhere,
                       extra_env={"TZ": "Pacific/Kiritimati", "LC_ALL": "C", "LANG": "C"})
    assert again.returncode == 0, again.stderr
    assert tree_digest(tmp_path / "first") == tree_digest(tmp_path / "again")


def test_invalid_registry_fails_with_validate_messages_and_keeps_previous_output(tmp_path: Path) -> None:
    registry = make_registry(tmp_path / "registry")
    output = tmp_path / "out"
    assert build_site(registry, output).returncode == 0
    before = tree_digest(output)

    family = registry / "families" / "qwen3.yaml"
    family.write_text(family.read_text(encoding="utf-8").replace("status: partial", "status: parcial"), encoding="utf-8")
    validate = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "validate", str(registry)],
                              capture_output=True, text=True, cwd=REPO, check=False)
    assert validate.returncode == 1
    problems = [line for line in validate.stdout.splitlines() if line.strip()]
    assert problems and "qwen3.yaml:" in problems[0]

    result = build_site(registry, output)
    assert result.returncode != 0
    for line in problems:
        assert line in result.stderr
    assert "Traceback" not in result.stderr
    assert tree_digest(output) == before


def test_bundled_registry_builds_from_the_repository_root(real_site: Path) -> None:
    """The README's build with no settings: `neuron-compat site` of the real registry/ beside mkdocs.yml, then
    `mkdocs build --strict` of that tree. `real_site` is that build (engine_build.readme_build; the tree goes to
    a temporary folder so no test writes into the checkout), shared with the tests that read every family."""
    families = json.loads((real_site / "api" / "registry.json").read_text(encoding="utf-8"))["families"]
    bundled = sorted(path.stem for path in (REPO / "registry" / "families").glob("*.yaml"))
    assert sorted(family["id"] for family in families) == bundled  # every family of the checkout, no other
    assert (real_site / "families" / bundled[0] / "index.html").is_file()


def test_the_bundled_build_log_is_a_few_lines(real_site: Path) -> None:
    """A clean build says what it did in a few lines: the checkpoint, family and release pages are reached from
    their index pages on purpose (mkdocs.yml's not_in_nav), so mkdocs lists none of them as missing from the nav
    (it listed some 260), and it warns of nothing."""
    log = build_log(real_site)
    assert "not included in the \"nav\"" not in log
    assert "WARNING" not in log
    assert len(log.splitlines()) <= 5, log[:3000]


def test_serve_livereload_rebuilds_when_a_registry_file_changes(tmp_path: Path) -> None:
    registry = make_registry(tmp_path / "registry")
    port = free_port()
    docs = tmp_path / "docs"
    assert write_tree(registry, docs).returncode == 0  # the README runs `neuron-compat site` before `serve`
    env = {**os.environ, "NEURON_COMPAT_REGISTRY": str(registry), "NEURON_COMPAT_DOCS": str(docs),
           "NO_MKDOCS_2_WARNING": "1", "SITE_URL": f"http://127.0.0.1:{port}/"}
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--livereload", "-f", str(REPO / "mkdocs.yml"),
         "-a", f"127.0.0.1:{port}"],
        cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/families/qwen3/"
    try:
        deadline = time.monotonic() + 60
        page = None
        while time.monotonic() < deadline and not (page and "Qwen3" in page):
            time.sleep(0.5)
            page = fetch_text(url)
        assert page and "Qwen3" in page, "mkdocs serve did not come up:\n" + (tmp_path / "serve.log").read_text()
        family = registry / "families" / "qwen3.yaml"
        family.write_text(family.read_text(encoding="utf-8").replace("name: Qwen3", "name: Qwen3 Renamed"),
                          encoding="utf-8")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "Qwen3 Renamed" not in (page or ""):
            time.sleep(0.5)
            page = fetch_text(url)
        assert "Qwen3 Renamed" in (page or ""), "no rebuild after the registry changed"

        # An invalid edit is reported with its location and the server recovers once it is fixed.
        text = family.read_text(encoding="utf-8")
        family.write_text(text.replace("status: partial", "status: parcial"), encoding="utf-8")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "qwen3.yaml:" not in (tmp_path / "serve.log").read_text():
            time.sleep(0.5)
        assert "support[1].status: 'parcial' is not one of the allowed values" in (tmp_path / "serve.log").read_text()
        family.write_text(text.replace("name: Qwen3 Renamed", "name: Qwen3 Fixed"), encoding="utf-8")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "Qwen3 Fixed" not in (page or ""):
            time.sleep(0.5)
            page = fetch_text(url)
        assert "Qwen3 Fixed" in (page or ""), "the server did not recover after the registry was fixed"
    finally:
        stop_process_group(process)
        log.close()


@pytest.mark.parametrize("name", ["families/qwen3.md"])
def test_hand_written_file_at_a_generated_path_is_refused(name: str, tmp_path: Path) -> None:
    """site/ must not shadow generated pages: `neuron-compat site` says which file to remove."""
    pages = tmp_path / "site"
    shutil.copytree(REPO / "site", pages)
    (pages / name).parent.mkdir(parents=True, exist_ok=True)
    (pages / name).write_text("# hand-written\n", encoding="utf-8")
    result = write_tree(make_registry(tmp_path / "registry"), tmp_path / "docs", pages=pages)
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: site/{name} is generated from the registry: remove the hand-written file"
    assert not (tmp_path / "docs").exists()


def test_hostile_hub_snapshot_files_are_reported_on_the_coverage_page(tmp_path: Path) -> None:
    """upstream/hub-top-*.yaml is not validated, so the build reads it like a registry file: a FIFO (it hung the
    build), an integer Python cannot print (it crashed it) and a file name that became an event-handler attribute
    of the section heading are each one problem on the page, and the build succeeds."""
    registry = make_registry(tmp_path / "registry")
    hub = registry / "upstream"
    os.mkfifo(hub / "hub-top-fifo.yaml")
    (hub / "hub-top-huge.yaml").write_text("title: 0x" + "f" * 5000 + "\nmodels: [a/b]\n", encoding="utf-8")
    (hub / "hub-top-a onclick=window.__pwned=1.yaml").write_text("models: [a/b]\n", encoding="utf-8")
    result = build_site(registry, tmp_path / "out")  # a subprocess with a timeout: a hang fails the test
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "out" / "coverage" / "index.html").read_text(encoding="utf-8")
    assert "This snapshot could not be used: could not be read: not a regular file (a FIFO)" in page
    assert "This snapshot could not be used: could not be read: YAML: cannot read &#39;0xfff" in page
    assert "This snapshot could not be used: the file name must be hub-top-NAME.yaml" in page
    assert "pwned" not in "".join(re.findall(r"<h2[^>]*>", page))  # the anchor is a slug, never the file name


TOC_LINK = re.compile(r'<a href="#([^"]+)" class="md-nav__link">\s*<span class="md-ellipsis">\s*(.*?)\s*</span>', re.S)


def test_no_table_of_contents_names_two_sections_alike(real_site: Path) -> None:
    """A family page's table of contents listed "Llama-3.1-8b" six times (one per run, anchors `_1` ... `_5`): each
    checkpoint is one entry now, its runs under it; no page of the real site repeats an entry."""
    repeated = {}
    for path in sorted(real_site.rglob("index.html")):
        entries = dict(TOC_LINK.findall(path.read_text(encoding="utf-8")))  # anchor -> text (the TOC is drawn twice)
        texts = list(entries.values())
        twice = sorted({text for text in texts if texts.count(text) > 1})
        if twice:
            repeated[str(path.relative_to(real_site))] = twice
    assert repeated == {}
    llama = dict(TOC_LINK.findall((real_site / "families" / "llama" / "index.html").read_text(encoding="utf-8")))
    assert re.fullmatch(r"Llama-3\.1-8b \(\d+ runs?\)", llama.get("tested-Llama-3.1-8b", "")), llama
