"""A family's `tracked` notes (a maintainer saying they track it for a stack): shown on the family page and by `check`,
and never a status: the answer with and without them is the same (the rule's cases: tests/rules/test_rule_tracked_notes.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_in_process import run_in_process

from neuron_compat.loading.loader import load_registry

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def registry(tmp_path: Path) -> Path:
    target = tmp_path / "registry"
    shutil.copytree(ROOT / "registry", target)
    return target


def _family(registry: Path) -> Path:
    return registry / "families" / "gemma4.yaml"


def test_the_gemma4_family_carries_the_vllm_neuron_maintainers_words() -> None:
    family = load_registry(ROOT / "registry").registry.family_by_id["gemma4"]
    [note] = family.tracked
    assert (note.stack, note.by, note.date.isoformat()) == ("vllm-neuron", "aws-mgld", "2026-05-01")
    assert note.url == "https://github.com/vllm-project/vllm-neuron/issues/32" and "Gemma 4" in note.quote


def _check(registry: Path, tmp_path: Path) -> tuple[int, str, str]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "gemma4", "architectures": ["Gemma4ForConditionalGeneration"]}))
    text = run_in_process(["check", str(config), "--registry", str(registry)], tmp_path)
    as_json = run_in_process(["check", str(config), "--registry", str(registry), "--json"], tmp_path)
    return text.returncode, text.stdout, json.loads(as_json.stdout)["status"]


def test_check_shows_the_note_apart_and_the_answer_does_not_change(registry: Path, tmp_path: Path) -> None:
    code, text, status = _check(registry, tmp_path / "with")
    assert "Tracked by maintainers (1; not a support statement, the answer above is unchanged):" in text
    assert ('vllm-neuron (aws-mgld, 2026-05-01): "We are tracking Qwen 3.6 and Gemma 4 for support with the new '
            'vLLM-Neuron plugin." https://github.com/vllm-project/vllm-neuron/issues/32') in text
    path = _family(registry)
    path.write_text(path.read_text(encoding="utf-8").split("\ntracked:\n")[0] + "\n", encoding="utf-8")
    code_without, text_without, status_without = _check(registry, tmp_path / "without")
    assert "Tracked by maintainers" not in text_without
    result = [line for line in text.splitlines() if line.startswith("Result:")]
    assert result == [line for line in text_without.splitlines() if line.startswith("Result:")]
    assert (code, status) == (code_without, status_without)


def test_the_family_page_shows_the_note_with_its_link() -> None:
    from neuron_compat.site.pages.families import family_page
    from neuron_compat.site.support import ReleaseView

    loaded = load_registry(ROOT / "registry").registry
    family = loaded.family_by_id["gemma4"]
    html = family_page(loaded, family, ReleaseView(loaded, loaded.newest_release))
    assert "Tracked by maintainers" in html and "It is not a support statement" in html
    assert "https://github.com/vllm-project/vllm-neuron/issues/32" in html and "aws-mgld, 2026-05-01" in html
