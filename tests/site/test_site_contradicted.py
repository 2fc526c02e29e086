"""A statement's `contradicted_by` on its family page, in process on tests/check/registry with a made-up report: a
"Contradicted by" row in the statement's table with the link, the versions and the hardware, its text escaped, and
the statement's status unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.pages import families

ROOT = Path(__file__).resolve().parents[2]
ANCHOR = "        verified: 2026-12-02\n  - stack: optimum-neuron\n"
REPORT = """    contradicted_by:
      - url: "https://github.com/aws-neuron/neuronx-distributed-inference/issues/999"
        title: "Made-up report &amp; more"
        reported: 2026-03-01
        stack_version: NxD Inference 0.1, Neuron 2.21.0
        hardware: trn2
        says: compilation fails & stops
        verified: 2026-12-05
"""


def test_the_family_page_shows_the_report_beside_the_statement(tmp_path: Path) -> None:
    target = tmp_path / "registry"
    shutil.copytree(ROOT / "tests" / "check" / "registry", target)
    llama = target / "families" / "llama.yaml"
    text = llama.read_text(encoding="utf-8")
    llama.write_text(text.replace(ANCHOR, ANCHOR.split("  - stack")[0] + REPORT + "  - stack: optimum-neuron\n", 1),
                     encoding="utf-8")
    result = validate_registry(target)
    assert [p.format() for p in result.problems] == []
    page = families.render(result.registry)["families/llama.md"]
    row = page[page.index('<tr class="nc-contradicted">'):]
    row = row[:row.index("</tr>")]
    assert 'href="https://github.com/aws-neuron/neuronx-distributed-inference/issues/999"' in row
    assert "compilation fails &amp; stops" in row and "NxD Inference 0.1, Neuron 2.21.0; trn2" in row
    assert "Made-up report &amp;amp; more" in row  # registry text is escaped, never markup
    assert str(result.registry.family_by_id["llama"].support[0].status) == "supported"
