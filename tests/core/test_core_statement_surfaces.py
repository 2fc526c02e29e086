"""Every statement field reaches every surface: the JSON Schema, the family page, the JSON API and check's JSON.

A field added to the contract alone fails here until each surface shows it (or the table below says, with a
reason, why a surface leaves it out). The procedure is in CONTRIBUTING.md ("Add a statement field").
check.js answers with the same JSON as `check --json` (tests/check), so check's JSON covers the site's
check page too.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from neuron_compat.check.config_facts import facts_from_config
from neuron_compat.check.resolver import NOT_CARRIED, json_schema, resolve
from neuron_compat.contract.models import Statement
from neuron_compat.rules.validation import validate_registry
from neuron_compat.site import render_site

ROOT = Path(__file__).resolve().parents[2]

# One statement that sets every field to a value found nowhere else in the fixture registry.
FAMILY = """\
id: surfaced
name: Surfaced
model_types: [surfaced_lm]
classes: [decoder-lm]
remote_code: true
support:
  - stack: optimum-neuron
    workload: training
    hardware: [trn1]
    status: supported
    since: "2.20.0"
    until: "2.21.0"
    stack_since: "0.0.25"
    stack_until: "0.0.27"
    code_path: surfaced-path
    attention: [nki-flash]
    dtypes: [fp16]
    quantization: [awq]
    parallelism:
      tensor: [24]
    constraints:
      - kind: env
        name: SURFACED_FLAG
        value: true
    notes:
      - text: A surfaced note.
    sources:
      - url: https://example.org/surfaced-source
        kind: vendor-docs
        verified: 2026-12-02
    contradicted_by:
      - url: https://github.com/huggingface/optimum-neuron/issues/424242
        reported: 2026-03-01
        stack_version: optimum-neuron 0.0.25
        release: "2.20.0"
        hardware: trn1
        says: A surfaced report.
        verified: 2026-12-02
"""

# field -> the text the family page shows for it, inside the statement's block
ON_THE_PAGE = {
    "stack": "Optimum Neuron",
    "workload": "training",
    "hardware": "trn1",
    "status": "Supported",
    "since": "2.20.0",
    "until": "2.21.0",
    "stack_since": "0.0.25",
    "stack_until": "0.0.27",
    "code_path": "surfaced-path",
    "attention": "nki-flash",
    "dtypes": "fp16",
    "quantization": "awq",
    "parallelism": "24",
    "constraints": "SURFACED_FLAG",
    "notes": "A surfaced note.",
    "sources": "https://example.org/surfaced-source",
    "contradicted_by": "A surfaced report.",
}



@pytest.fixture(scope="module")
def surfaced(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("surfaces") / "registry"
    shutil.copytree(ROOT / "tests" / "fixtures" / "registry", root)
    (root / "families" / "surfaced.yaml").write_text(FAMILY, encoding="utf-8")
    stacks = root / "stacks.yaml"  # one code path on the fixture's optimum-neuron, for the statement to name
    stacks.write_text(stacks.read_text(encoding="utf-8").replace(
        "    status: active\n    versions:\n",
        "    status: active\n    code_paths:\n      - {id: surfaced-path, name: Surfaced path, classes: [decoder-lm]}\n"
        "    versions:\n", 1), encoding="utf-8")
    result = validate_registry(root)
    assert not result.problems, [p.format() for p in result.problems]
    return result.registry


def test_the_fixture_sets_every_field(surfaced) -> None:
    statement = surfaced.family_by_id["surfaced"].support[0]
    unset = [name for name, info in Statement.model_fields.items()
             if getattr(statement, name) in (None, [], info.default)]
    assert unset == [], "set the new field in FAMILY above"
    assert set(ON_THE_PAGE) == set(Statement.model_fields), "say in ON_THE_PAGE what the family page shows for it"


def test_the_json_schema_lists_every_field() -> None:
    committed = json.loads((ROOT / "registry" / "schemas" / "family.schema.json").read_text(encoding="utf-8"))
    assert set(committed["$defs"]["Statement"]["properties"]) == set(Statement.model_fields)


def test_the_family_page_shows_every_field(surfaced) -> None:
    page = render_site(surfaced).files["families/surfaced.md"]
    block = page[page.index("{ #optimum-neuron-training }"):]  # the stack x workload group, its heading first
    missing = [name for name, text in ON_THE_PAGE.items() if text not in block]
    assert missing == []


def test_the_json_api_carries_every_field(surfaced) -> None:
    document = json.loads(render_site(surfaced).files["api/families/surfaced.json"])
    statement = document["family"]["support"][0]
    missing = [name for name in Statement.model_fields if statement.get(name) in (None, [], {})]
    assert missing == []


def test_checks_json_carries_every_field(surfaced) -> None:
    verdict = resolve(facts_from_config({"model_type": "surfaced_lm"}), surfaced, release="2.20.0").to_dict()
    answers = [a for a in verdict["answers"] if a["stack"] == "optimum-neuron" and a["workload"] == "training"]
    assert len(answers) == 1
    answer = answers[0]
    missing = [name for name in Statement.model_fields
               if name not in NOT_CARRIED and answer.get(name) in (None, [], {})]
    assert missing == []
    assert answer["sources"] == ["https://example.org/surfaced-source"]
    assert answer["constraints"][0]["name"] == "SURFACED_FLAG"


def test_checks_json_schema_lists_every_field_its_answers_carry() -> None:
    answer = json_schema()["$defs"]["StackAnswer"]
    missing = [name for name in Statement.model_fields if name not in NOT_CARRIED and name not in answer["properties"]]
    assert missing == []
    assert answer["properties"]["stack_since"]["description"] == Statement.model_fields["stack_since"].description
