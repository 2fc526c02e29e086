"""Every surface renders views.answer, none recomputes it: for every family x workload x hardware of the real
registry, the families index, the family page (its answer table and "Which stack to pick"), the family JSON, the
badges, the matrix's default view (api/matrix.json `today`) and `check --json` (resolved from a config of the family)
give the same stack, release, version and status."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

from neuron_compat.check.answer_pipeline import verdict_document
from neuron_compat.check.config_facts import facts_from_config
from neuron_compat.check.resolver import resolve
from neuron_compat.loading.loader import load_registry
from neuron_compat.site.pages import api, families
from neuron_compat.site.pages.matrix import matrix_data
from neuron_compat.site.presentation import status_style
from neuron_compat.views.answer import answer_json, family_answers, headline

ROOT = Path(__file__).resolve().parents[2]
ANSWER_ROW = re.compile(r'<tr data-answer="([^"/]+)/([^"]+)" data-status="([^"]+)" data-stack="([^"]*)">')


@pytest.fixture(scope="module")
def registry() -> Any:
    result = load_registry(ROOT / "registry")
    assert result.problems == []
    return result.registry


@pytest.fixture(scope="module")
def pages(registry: Any) -> dict[str, str]:
    return families.render(registry)


def _config(family: Any) -> dict[str, Any]:
    if family.model_types:
        return {"model_type": family.model_types[0]}
    return {"_class_name": family.pipelines[0], "_diffusers_version": "0.30.0"}


def test_every_surface_gives_the_same_answer(registry: Any, pages: dict[str, str]) -> None:
    index = pages["families/index.md"]
    matrix: dict[str, list[dict[str, Any]]] = {}
    for family_id, stack, workload, hardware, status, release, version, role, _stale, _backing in matrix_data(registry)["today"]:
        if role == "answer":
            matrix.setdefault(family_id, []).append({"workload": workload, "hardware": hardware, "stack": stack,
                                                     "status": status, "release": release, "stack_version": version})
    differences: list[str] = []
    for family in registry.families:
        found = family_answers(registry, family)
        expected = [answer_json(a) for a in found]
        # the family page's answer table
        page = pages[f"families/{family.id}.md"]
        table = [(w, h, s, st or None) for w, h, s, st in ANSWER_ROW.findall(page)]
        if table != [(a["workload"], a["hardware"], a["status"], a["stack"]) for a in expected]:
            differences.append(f"{family.id}: family page {table} != {expected}")
        # the matrix's default view: one answer row per workload x hardware, in the answer's order
        if matrix.get(family.id, []) != expected:
            differences.append(f"{family.id}: matrix today {matrix.get(family.id)} != {expected}")
        # the families index: the headline answer's status (inference first, as check without --workload)
        chosen = headline(found, None)
        row = re.search(rf'<a href="[^"]*{re.escape(family.id)}/">{re.escape(html.escape(family.name))}</a>.*?'
                        r'data-status="([^"]+)"', index, re.S)
        if row is None or row.group(1) != (chosen.status if chosen else "none"):
            differences.append(f"{family.id}: families index {row and row.group(1)} != {chosen and chosen.status}")
        # the family JSON
        document = api.family_document(registry, family.id, found=found)
        if [{k: v for k, v in a.items() if k != "why"} for a in document["computed"]["answers"]] != expected:
            differences.append(f"{family.id}: family JSON differs")
        # the badges: the stack an answer picks reads that answer's status
        for item in found:
            if item.stack is None or item.release is None:
                continue
            message = api.badge(registry, family.id, item.stack, item.workload, found=found)["message"]
            statuses = {a.status for a in found if a.stack == item.stack and a.workload == item.workload
                        and a.release is not None}
            if not any(message.startswith(status_style(s).label.lower()) for s in statuses):
                differences.append(f"{family.id}: badge {item.stack} {item.workload} '{message}' != {statuses}")
        # check --json, from a config of the family
        facts = facts_from_config(_config(family))
        verdict = verdict_document(resolve(facts, registry))
        got = [{k: r[k] for k in ("workload", "hardware", "stack", "status", "release", "stack_version")}
               for r in verdict["recommendations"]]
        if got != expected:
            differences.append(f"{family.id}: check --json {got} != {expected}")
        if verdict["status"] != (chosen.status if chosen else "unknown"):
            differences.append(f"{family.id}: check status {verdict['status']} != {chosen and chosen.status}")
    assert differences == []


@pytest.mark.parametrize("family_id, workload, hardware, stack", [
    ("bert", "inference", "inf2", "optimum-neuron"),
    ("whisper", "inference", "inf2", "optimum-neuron"),
    ("mixtral", "inference", "inf2", "optimum-neuron"),
    ("stable-diffusion-xl", "inference", "inf2", "optimum-neuron"),
    ("flux", "inference", "inf2", "optimum-neuron"),
])
def test_the_named_families_answer_supported_today(registry: Any, family_id: str, workload: str, hardware: str,
                                                    stack: str) -> None:
    family = registry.family_by_id[family_id]
    verdict = verdict_document(resolve(facts_from_config(_config(family)), registry, workload=workload,
                                       hardware=hardware))
    assert (verdict["status"], verdict["exit_code"]) == ("supported", 0)
    [answer] = verdict["recommendations"]
    assert answer["stack"] == stack and answer["stack_version"] == "0.4.5" and answer["release"] == "2.26.1"
    assert any(c["kind"] == "pairing" for c in answer["caveats"])


def test_no_answer_comes_from_another_workload_or_hardware(registry: Any) -> None:
    for family in registry.families:
        for item in family_answers(registry, family):
            if item.stack is None or item.release is None:
                continue
            holding = [s for s in family.support if s.stack == item.stack and str(s.workload) == item.workload
                       and item.hardware in [str(h) for h in s.hardware]]
            assert holding, f"{family.id}: {item.workload} on {item.hardware} answered from another statement"


def test_the_qwen3_runner_flag_is_shown_only_under_its_embedding_scope(pages: dict[str, str]) -> None:
    page = pages["families/qwen3.md"]
    summary = page[page.index("Which stack to pick"):page.index("Names and identifiers")]
    for line in summary.splitlines():
        if "--runner" in line:
            assert "Qwen3-Embedding" in line, line
