"""The pure renderer: registry in, {path: content} out. No mkdocs involved here."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml

from neuron_compat.contract.json_schema import schema_text
from neuron_compat.contract.models import Family, Note
from neuron_compat.contract.vocabulary import DescribedEnum
from neuron_compat.publishing.registry_document import dumps, registry_to_json
from neuron_compat.rules.validation import validate_registry
from neuron_compat.site import render_site
from neuron_compat.site.markers import MarkerError, fill_markers
from neuron_compat.site.pages import contributing
from neuron_compat.site.render import FRAGMENT_PAGES
from neuron_compat.site.safe_markdown import inline_markdown
from neuron_compat.site.upstream import load_hub_snapshots
from neuron_compat.views.at_release import release_changes


@pytest.fixture(scope="module")
def registry(site_registry: Path):
    result = validate_registry(site_registry)
    assert not result.problems, [p.format() for p in result.problems]
    return result.registry


def test_rendering_is_deterministic(registry) -> None:
    first, second = render_site(registry), render_site(registry)
    assert first.files == second.files and first.fragments == second.fragments


def test_two_processes_draw_the_same_site_as_one(site_registry: Path) -> None:
    # each draw from a freshly loaded registry, so neither reads what the other worked out (RegistryIndexes.memo)
    one = render_site(validate_registry(site_registry).registry, load_hub_snapshots(site_registry), processes=1)
    two = render_site(validate_registry(site_registry).registry, load_hub_snapshots(site_registry), processes=2)
    assert sorted(two.files) == sorted(one.files)
    assert two.files == one.files and two.fragments == one.fragments


def test_expected_files(registry) -> None:
    files = render_site(registry).files
    for path in ("matrix.md", "coverage.md", "stacks.md", "families/index.md", "releases/index.md",
                 "api/registry.json", "api/matrix.json", "api/schemas/family.schema.json"):
        assert path in files, path
    for family in registry.families:
        assert f"families/{family.id}.md" in files
        assert f"api/families/{family.id}.json" in files
    for version in registry.release_versions:
        assert f"releases/{version}.md" in files


def test_api_matches_export_and_schema_modules(registry) -> None:
    files = render_site(registry).files
    assert files["api/registry.json"] == dumps(registry_to_json(registry))
    for kind in ("family", "releases", "stacks"):
        assert files[f"api/schemas/{kind}.schema.json"] == schema_text(kind)
    family = json.loads(files["api/families/qwen3.json"])
    assert family["family"] == registry_to_json(registry)["families"][[f.id for f in registry.families].index("qwen3")]
    assert {"page", "at_newest_release"} <= set(family["computed"])


def test_badges_are_shields_endpoints(registry) -> None:
    files = render_site(registry).files
    badge = json.loads(files["api/badges/qwen3/nxd-inference-inference.json"])
    # the family's answer (views.answer) picks nxd-inference on trn2: the badge says that answer
    assert badge == {"schemaVersion": 1, "label": "nxd-inference inference",
                     "message": "supported 0.2.0 on Neuron 2.22.0 (trn2)", "color": "brightgreen"}
    none = json.loads(files["api/badges/bert/nxd-inference-inference.json"])
    assert none["message"] == "no statement" and none["color"] == "inactive"


def test_shared_stack_workload_anchors(registry) -> None:
    """Several statements for one stack x workload: the section has the plain anchor, each its own too."""
    page = render_site(registry).files["families/qwen3.md"]
    assert page.count("{ #nxd-inference-inference }") == 1
    assert 'id="nxd-inference-inference--trn2--2-21-0"' in page
    assert 'id="nxd-inference-inference--inf2--2-22-0"' in page
    assert page.index("{ #nxd-inference-inference }") < page.index('id="nxd-inference-inference--trn2--2-21-0"')


def test_family_page_names_everything_search_needs(registry) -> None:
    page = render_site(registry).files["families/qwen3.md"]
    for term in ("Qwen3ForCausalLM", "qwen3", "Qwen/Qwen3-8B", "Qwen 3"):
        assert term in page
    assert "report-result.yml" in page and "title=Result%3A%20Qwen3%20on%20Neuron%202.22.0" in page
    assert "https://github.com/neuron-compat/neuron-compat/edit/main/registry/families/qwen3.yaml" in page
    assert 'href="../../api/families/qwen3.json"' in page


def test_release_pages_are_the_data_diff(registry) -> None:
    files = render_site(registry).files
    changes = release_changes(registry, "2.22.0")
    assert {c.kind for c in changes} == {"added", "removed"}
    page = files["releases/2.22.0.md"]
    added = sum(1 for c in changes if c.kind == "added")
    assert added == 1  # qwen3 / nxd-inference / inference / inf2
    removed = sorted(f"{c.key.family}/{c.key.stack}/{c.key.hardware}" for c in changes if c.kind == "removed")
    assert "qwen3/optimum-neuron/inf2" in removed  # the statement that ends at 2.22.0
    assert f"## Removed \\({len(removed)}\\)" in page
    assert "## Added \\(1\\)" in page and "## Changed \\(0\\)" in page
    assert "Only the 0.6B and 1.7B sizes fit." in page  # the note tied to 2.22.0


def test_hostile_text_bypassing_validation_is_inert(registry) -> None:
    """Defence in depth: even text the validator would refuse renders as text."""
    family = registry.family_by_id["custom-phi"]
    statement = family.support[0]
    evil_statement = statement.model_copy(update={"notes": [Note.model_construct(
        release=None, text='<script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3))')]})
    evil = family.model_copy(update={
        "name": "<script>alert(4)</script>",
        "description": '<img src=x onerror="alert(5)">',
        "aliases": ['"><svg onload=alert(6)>'],
        "support": [evil_statement],
    })
    assert isinstance(evil, Family)
    registry.families[registry.families.index(family)] = evil
    try:
        files = render_site(registry).files
    finally:
        registry.families[registry.families.index(evil)] = family
    for path, text in files.items():
        if path.endswith(".json"):
            continue  # data, served as application/json; consumers escape it (the check page included)
        if path.endswith(".html"):  # redirect pages for renamed ids: our own script, no registry text
            assert "alert" not in text and text.count("<script>") == 1, path
            continue
        assert not re.search(r"<(script|img|svg)\b", text, re.IGNORECASE), path
        assert 'href="javascript:' not in text.lower(), path
    page = files["families/custom-phi.md"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "# &lt;script&gt;alert\\(4\\)&lt;/script&gt;" in page


def test_coverage_uses_transformers_reference_and_optional_hub_snapshots(registry, tmp_path: Path) -> None:
    page = render_site(registry).files["coverage.md"]
    assert "The model types with a causal-LM class in transformers 4.57.0" in page
    # no unfinished notice: how a maintainer adds a popularity snapshot, and what it would show
    assert "No Hub popularity snapshot" not in page
    assert "python scripts/refresh_hub_snapshots.py" in page
    # what runs today, per workload, task and hardware: the fixture's qwen3 (text-generation) runs on trn2 today
    assert '<h3 id="today-inference">Inference</h3>' in page
    row = re.search(r"<tr><td data-label=\"Task\">text-generation</td>(.*?)</tr>", page)
    assert row and '<td data-label="trn2">' in row.group(1)
    hub = tmp_path / "upstream"
    hub.mkdir()
    (hub / "hub-top-text-generation.yaml").write_text(yaml.safe_dump({
        "title": "Top text-generation models", "source": "https://huggingface.co/models", "taken": "2026-12-01",
        "models": [{"id": "Qwen/Qwen3-8B", "model_type": "qwen3", "downloads": 10},
                   {"id": "someone/other", "model_type": "gpt2", "downloads": 5},
                   {"id": "gated/model", "model_type": None, "error": "gated"}],
    }), encoding="utf-8")
    (hub / "hub-top-evil.yaml").write_text(yaml.safe_dump({
        "title": "Evil", "source": "javascript:alert(1)", "models": [{"id": "a/b", "model_type": "qwen3"}]}),
        encoding="utf-8")
    (hub / "hub-top-broken.yaml").write_text("just a string\n", encoding="utf-8")
    snapshots = load_hub_snapshots(tmp_path)
    page = render_site(registry, snapshots).files["coverage.md"]
    assert "Top text\\-generation models" in page
    assert "<code>someone/other</code>" in page  # missing everywhere
    assert "could not be used" in page  # the broken file is reported, not fatal
    # qwen3 is supported on nxd-inference inference: 1 of the 3 hub models is covered there.
    assert "1 / 3" in page
    assert "1 of them have no model_type" in page
    assert 'href="javascript:' not in page


def test_schema_reference_covers_every_field_and_value() -> None:
    fragment = contributing.fragment()
    for _, model, _ in contributing.MODELS:
        for name in model.model_fields:
            assert f"<code>{name}</code>" in fragment, (model.__name__, name)
    for vocabulary in DescribedEnum.__subclasses__():
        if vocabulary.__name__ in {"Task"}:
            continue
        for value, description in vocabulary.descriptions().items():
            assert f"<code>{value}</code>" in fragment, (vocabulary.__name__, value)
            assert str(inline_markdown(description)) in fragment, (vocabulary.__name__, value)


def test_the_example_family_validates_in_the_real_registry_and_is_on_the_contributing_page(tmp_path: Path) -> None:
    """The Contributing page said "copy the example below" and had none; the one it has now is a file that
    `validate` accepts beside every real family (its model type clashes with none, its ranges fit the stack)."""
    from neuron_compat.loading.loader import load_registry

    Family.model_validate(yaml.safe_load(contributing.EXAMPLE_FAMILY))
    registry = tmp_path / "registry"
    shutil.copytree(Path(__file__).resolve().parents[2] / "registry", registry)
    (registry / "families" / "example.yaml").write_text(contributing.EXAMPLE_FAMILY, encoding="utf-8")
    result = load_registry(registry)
    assert [problem.format() for problem in result.problems] == []
    assert "example" in {family.id for family in result.registry.families}
    page = contributing.family_example()
    assert "id: example" in page and "stack_since: 0.1.0" in page
    hand_written = Path(__file__).resolve().parents[2] / "site" / "contributing.md"
    assert "<!-- neuron-compat:family-example -->" in hand_written.read_text(encoding="utf-8")


def test_markers_missing_stray_or_unknown_fail() -> None:
    fragments = {"home": "HOME", "schema-reference": "SCHEMA", "api-endpoints": "API"}
    assert "HOME" in fill_markers("index.md", "a\n<!-- neuron-compat:home -->\nb", fragments, FRAGMENT_PAGES)
    with pytest.raises(MarkerError, match="missing"):
        fill_markers("index.md", "no marker", fragments, FRAGMENT_PAGES)
    with pytest.raises(MarkerError, match="unknown"):
        fill_markers("index.md", "<!-- neuron-compat:home --><!-- neuron-compat:nope -->", fragments, FRAGMENT_PAGES)
    with pytest.raises(MarkerError, match="belongs in"):
        fill_markers("index.md", "<!-- neuron-compat:home --><!-- neuron-compat:api-endpoints -->", fragments,
                     FRAGMENT_PAGES)


def test_an_empty_registry_renders_every_page(tmp_path: Path) -> None:
    import shutil

    from site_helpers import BASE_REGISTRY

    root = tmp_path / "registry"
    shutil.copytree(BASE_REGISTRY, root)
    with_families = render_site(validate_registry(root).registry)
    family_ids = [path.stem for path in (root / "families").glob("*.yaml")]
    assert family_ids
    for path in (root / "families").glob("*.yaml"):
        path.unlink()
    result = validate_registry(root)
    assert not result.problems
    site = render_site(result.registry)

    def of_a_family(path: str) -> bool:
        return path.startswith("checkpoints/") or any(  # a checkpoint page is a family's checkpoint's
            path in (f"families/{i}.md", f"api/families/{i}.json", f"api/feeds/{i}.xml")
            or path.startswith(f"api/badges/{i}/") for i in family_ids)

    # every page and data file but the per-family ones, each well formed
    assert set(site.files) == {path for path in with_families.files if not of_a_family(path)}
    for path, content in site.files.items():
        if path.endswith(".md"):
            assert re.match(r'---\ntitle: "[^"\n]+"\n', content), path
            assert re.search(r"^# \S", content, re.MULTILINE), path
        elif path.endswith(".json"):
            json.loads(content)
        elif path.endswith(".xml"):
            ElementTree.fromstring(content)
        else:
            raise AssertionError(f"unexpected generated file {path}")
    assert set(site.fragments) == set(FRAGMENT_PAGES) == set(with_families.fragments)
    for name, fragment in site.fragments.items():
        assert fragment.strip(), name
    # the pages that list families say there are none
    assert "The registry has no families yet." in site.files["matrix.md"]
    assert "<p>0 families." in site.files["families/index.md"]
    assert json.loads(site.files["api/registry.json"])["families"] == []


def test_schema_reference_explains_capability_files_and_their_rules() -> None:
    from neuron_compat.rules import RULES

    fragment = contributing.fragment()
    assert "{ #schema-capabilities }" in fragment
    assert "registry/capabilities/&lt;stack-id&gt;.yaml" in fragment
    assert "inherits the values" in fragment
    assert "needs a note of the statement naming it" in fragment
    names = {rule.name for rule in RULES}
    for rule in ("capability-ranges", "capability-subset"):
        assert rule in names and rule in fragment, rule


def test_the_instances_page_and_json_render_the_instances_file(tmp_path: Path) -> None:
    import shutil

    from site_helpers import BASE_REGISTRY

    root = tmp_path / "registry"
    shutil.copytree(BASE_REGISTRY, root)
    repository = Path(__file__).resolve().parents[2]
    shutil.copy(repository / "registry" / "instances.yaml", root / "instances.yaml")
    result = validate_registry(root)
    assert not result.problems, [p.format() for p in result.problems]
    site = render_site(result.registry)
    page = site.files["instances.md"]
    data = yaml.safe_load((root / "instances.yaml").read_text(encoding="utf-8"))
    for instance in data["instances"]:
        assert f'data-instance="{instance["name"]}"' in page
    row = page[page.index('data-instance="trn2.3xlarge"'):]
    row = row[:row.index("</tr>")]
    assert row.count('<span class="nc-unknown">unknown</span>') == 6  # every number unknown, none guessed
    trn1n = page[page.index('data-instance="trn1n.32xlarge"'):]
    assert '<td>32<sup title="derived' in trn1n[:trn1n.index("</tr>")]
    assert "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/about-neuron/arch/neuron-hardware/inf2-arch.html" in page
    published = json.loads(site.files["api/instances.json"])
    assert published["instances"] == json.loads(site.files["api/registry.json"])["instances"]
    assert [i["name"] for i in published["instances"]["instances"]] == [i["name"] for i in data["instances"]]
    assert "api/instances.json" in site.fragments["api-endpoints"]


def test_a_registry_without_instances_says_so(site_registry: Path, tmp_path: Path) -> None:
    # the site-test registry carries instances.yaml (its tested configurations name instances): a copy without
    # it, and without the configurations that need it
    root = tmp_path / "registry"
    shutil.copytree(site_registry, root)
    (root / "instances.yaml").unlink()
    shutil.rmtree(root / "configurations")
    result = validate_registry(root)
    assert not result.problems, [p.format() for p in result.problems]
    assert result.registry.instances is None
    site = render_site(result.registry)
    assert "no <code>instances.yaml</code>" in site.files["instances.md"]
    assert json.loads(site.files["api/instances.json"])["instances"] is None


def test_the_stacks_version_lines_have_no_empty_column(tmp_path: Path) -> None:
    """The Date column of a stack's version line was empty in every row (no version records a date): it is shown
    only when some version has one, and a version without one then says so."""
    from neuron_compat.loading.loader import load_registry
    from neuron_compat.site.pages import stacks

    registry = load_registry(Path(__file__).resolve().parents[2] / "registry").registry
    page = stacks.render(registry)["stacks.md"]
    tables = re.findall(r'<details class="nc-versions".*?</details>', page, re.S)
    assert tables
    for table in tables:
        assert "<td></td>" not in table
        dated = any(v.date for s in registry.stacks for v in s.versions if s.name in table)
        assert ("<th>Date</th>" in table) == dated


def test_adjacent_ranges_with_the_same_status_and_hardware_read_as_one() -> None:
    """A checkpoint page (and its family's overview) said "supported 2.18.0–2.22.0 (trn1); supported 2.22.0+ (trn1)":
    two statements, one range. Merged however the statements are ordered; other statuses or hardware stay apart."""
    from types import SimpleNamespace

    from neuron_compat.site.pages.families import history_spans

    def statement(status: str, since: str, until: str | None, *hardware: str) -> SimpleNamespace:
        return SimpleNamespace(status=status, since=since, until=until, hardware=list(hardware))

    assert history_spans([statement("supported", "2.22.0", None, "trn1"), statement("partial", "2.18.0", "2.20.0", "trn1"),
                          statement("supported", "2.20.0", "2.21.0", "trn1"), statement("supported", "2.21.0", "2.22.0", "trn1"),
                          statement("supported", "2.18.0", "2.22.0", "inf2")]) == [
        ("supported", "2.20.0", None, ("trn1",)), ("partial", "2.18.0", "2.20.0", ("trn1",)),
        ("supported", "2.18.0", "2.22.0", ("inf2",))]


def test_the_glossary_explains_the_words_check_and_explain_print() -> None:
    """"smallest-with-margin", "degree_from", "left out N constraints ... that apply to other tasks or checkpoints"
    and the ids `explain` prints were left for a newcomer to decode: each has a glossary entry, and the known-issues
    page shows each entry's id."""
    glossary = (Path(__file__).resolve().parents[2] / "site" / "glossary.md").read_text(encoding="utf-8")
    for anchor, words in (("degree-from", "degree_from"), ("smallest-with-margin", "smallest-with-margin"),
                          ("largest-valid", "largest-valid"), ("left-out", "apply to other tasks or checkpoints"),
                          ("known-issue-id", "explain")):
        entry = re.search(rf'<dt id="{anchor}">(.*?)</dd>', glossary, re.S)
        assert entry and words in entry.group(1), anchor
    from neuron_compat.loading.loader import load_registry
    from neuron_compat.site.pages import known_issues

    page = known_issues.render(load_registry(Path(__file__).resolve().parents[2] / "registry").registry)
    assert 'id <code>pytorch-fixed-fixed-resource-leaks-and-n-49830b</code>' in page["known-issues.md"]
