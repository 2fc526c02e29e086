"""The identifier index of the header search (api/search-identifiers.json): keys, pages, ambiguous identifiers."""

from __future__ import annotations

from pathlib import Path

from neuron_compat.contract.models import Family
from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.render import render_site
from neuron_compat.site.search_identifiers import SEARCH_IDENTIFIERS_JSON, identifier_index, normalize

ROOT = Path(__file__).resolve().parents[2]


def family(family_id: str, **fields: object) -> Family:
    return Family.model_validate({"id": family_id, "name": family_id.title(), "classes": ["decoder-lm"], **fields})


def test_normalize_folds_case_spaces_underscores_and_hyphens_only() -> None:
    assert normalize(" Qwen3-MoE ") == normalize("qwen3_moe") == normalize("QWEN3 moe") == "qwen3moe"
    assert normalize("meta-llama/Llama-3.1-8B") == "metallama/llama3.18b"
    assert normalize("Llama 3.1") != normalize("Llama 31")


def test_every_kind_of_identifier_points_at_its_family_page() -> None:
    index = identifier_index([family(
        "llama", name="Llama", model_types=["llama"], architectures=["LlamaForCausalLM"], aliases=["Llama 3.1"],
        examples=["meta-llama/Llama-3.1-8B"], previous_ids=["llama-old"],
    )])
    assert index["families"] == {"llama": {"page": "families/llama/", "title": "Llama"}}
    for typed in ("llama", "LLAMA", "LlamaForCausalLM", "llama_for_causal_lm", "llama 3.1", "Llama-3.1",
                  "meta-llama/Llama-3.1-8B", "Llama-3.1-8B", "llama_3.1_8b", "llama-old", "llamaold"):
        assert index["identifiers"][normalize(typed)] == ["llama"], typed
    assert normalize("Llama-3.1-8") not in index["identifiers"]  # exact identifiers only: no prefixes


def test_an_identifier_two_families_share_boosts_both_strongest_kind_first_then_id() -> None:
    index = identifier_index([
        family("zeta", model_types=["shared"], examples=["org/tiny-model"]),
        family("alpha", model_types=["alpha"], aliases=["shared"], examples=["other/tiny-model"]),
        family("beta", model_types=["beta"], examples=["third/Tiny_Model"]),
        family("gamma", model_types=["shared"]),
    ])
    # model_type beats alias; between two model_types the family id decides
    assert index["identifiers"]["shared"] == ["gamma", "zeta", "alpha"]
    # the same repo name under three owners: the same kind everywhere, so by family id
    assert index["identifiers"]["tinymodel"] == ["alpha", "beta", "zeta"]


def test_the_site_publishes_the_index_of_the_real_registry() -> None:
    registry = validate_registry(ROOT / "registry").registry
    assert registry is not None
    files = render_site(registry).files
    assert SEARCH_IDENTIFIERS_JSON in files
    index = identifier_index(registry.families)
    assert set(index["families"]) == {f.id for f in registry.families}
    llama = registry.family_by_id["llama"]
    assert index["identifiers"][normalize(llama.architectures[0])][0] == "llama"


def test_checkpoint_ids_error_codes_and_known_issue_ids_find_their_pages() -> None:
    """On the real registry: an exact checkpoint id finds its family page, then its checkpoint page; an error code
    finds the entry named for it first, then entries that also match it; the id `explain` prints finds its entry."""
    from neuron_compat.loading.loader import load_registry

    registry = load_registry(ROOT / "registry").registry
    index = identifier_index(registry.families, registry)
    pages = index["families"]
    checkpoint = index["identifiers"][normalize("meta-llama/Llama-3.1-8B-Instruct")]
    assert [pages[key]["page"] for key in checkpoint] == ["families/llama/", "checkpoints/meta-llama/Llama-3.1-8B-Instruct/"]
    assert pages[checkpoint[1]]["kind"] == "Checkpoint page"
    code = index["identifiers"][normalize("NCC_EOOM001")]
    assert pages[code[0]]["page"] == "known-issues/#issue-ncc-eoom001" and pages[code[0]]["kind"] == "Known issue"
    explain_id = "pytorch-fixed-fixed-resource-leaks-and-n-49830b"
    assert [pages[key]["page"] for key in index["identifiers"][normalize(explain_id)]] == [
        f"known-issues/#issue-{explain_id}"]
    assert all(len(page["title"]) <= 90 for page in pages.values() if page.get("kind") == "Known issue")
