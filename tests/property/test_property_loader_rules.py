"""Property tests: whatever a family file holds, the outcome is a valid registry or located problems.

Three sources of input: arbitrary text, arbitrary YAML documents, and arbitrary mutations of the valid
fixture llama.yaml. For each, `validate_registry` must not raise; every problem must name a registry
file (with a line for schema and rule problems); a registry that passes must also export to JSON and
satisfy the exported JSON Schema.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from neuron_compat.contract.json_schema import schema_for
from neuron_compat.contract.vocabulary import (
    Attention,
    ConstraintKind,
    Dtype,
    Hardware,
    SourceKind,
    Status,
    Workload,
)
from neuron_compat.loading.yaml_reader import load_yaml_file
from neuron_compat.publishing.registry_document import dumps, registry_to_json
from neuron_compat.rules.validation import validate_registry

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "registry"
VALID_LLAMA = yaml.safe_load((FIXTURE / "families" / "llama.yaml").read_text(encoding="utf-8"))
FAMILY_VALIDATOR = jsonschema.Draft202012Validator(schema_for("family"), format_checker=jsonschema.FormatChecker())

WORDS = [m.value for enum in (Attention, ConstraintKind, Dtype, Hardware, SourceKind, Status, Workload) for m in enum]
WORDS += ["2.20.0", "2.21.0", "2.22.0", "2.19.0", "2.21", "optimum-neuron", "nxd-inference", "nope", "llama", "bert",
          "0.0.25", "0.0.27", "https://example.com/a", "http://example.com", "`x`", "[a](https://b)", "<b>", "\u202e"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 100_000), st.floats(allow_nan=True), st.sampled_from(WORDS),
    st.text(max_size=30), st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2100, 1, 1)),
)
values = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.one_of(st.sampled_from(WORDS), st.text(max_size=10)), children, max_size=4)),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def registry_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("prop") / "registry"
    shutil.copytree(FIXTURE, root)
    return root


def check_outcome(root: Path) -> None:
    """The property itself: no exception; located problems, or a registry that exports and fits the schema."""
    result = validate_registry(root)
    files = {str(p) for p in root.rglob("*.yaml")}
    for problem in result.problems:
        assert problem.file in files, problem.format()
        assert problem.message and "Traceback" not in problem.message
        if problem.rule not in ("yaml", "layout"):
            assert problem.line >= 1, problem.format()
    if not result.problems:
        json.loads(dumps(registry_to_json(result.registry)))
        for path in sorted((root / "families").glob("*.yaml")):
            data = json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), default=str))
            errors = list(FAMILY_VALIDATOR.iter_errors(data))
            assert not errors, f"pydantic accepted what the JSON Schema refuses: {errors[0].message}"


def write_family(root: Path, text: str | bytes) -> None:
    path = root / "families" / "llama.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))


@given(text=st.text(max_size=400))
def test_arbitrary_text(registry_dir: Path, text: str) -> None:
    write_family(registry_dir, text)
    loaded, problem = load_yaml_file(registry_dir / "families" / "llama.yaml")
    assert (loaded is None) != (problem is None)
    check_outcome(registry_dir)


@given(raw=st.binary(max_size=300))
def test_arbitrary_bytes(registry_dir: Path, raw: bytes) -> None:
    write_family(registry_dir, raw)
    check_outcome(registry_dir)


@given(document=values)
def test_arbitrary_yaml_documents(registry_dir: Path, document: Any) -> None:
    write_family(registry_dir, yaml.safe_dump(document, allow_unicode=True))
    check_outcome(registry_dir)


def node_paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += node_paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += node_paths(value, (*prefix, index))
    return found


def mutate(data: Any, draw: st.DrawFn) -> Any:
    path = draw(st.sampled_from(node_paths(data)))
    if not path:
        return draw(values) if draw(st.booleans()) else data
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    operation = draw(st.sampled_from(["delete", "replace", "add_key", "duplicate"]))
    if operation == "delete":
        del parent[last]
    elif operation == "replace":
        parent[last] = draw(values)
    elif operation == "add_key" and isinstance(parent[last], dict):
        parent[last][draw(st.sampled_from([*WORDS, "since", "until", "stack_since", "notes"]))] = draw(values)
    elif operation == "duplicate" and isinstance(parent, list):
        parent.insert(last, json.loads(json.dumps(parent[last], default=str)))
    return data


@given(data=st.data())
def test_mutations_of_a_valid_family(registry_dir: Path, data: st.DataObject) -> None:
    family = json.loads(json.dumps(VALID_LLAMA, default=str))
    for _ in range(data.draw(st.integers(1, 3))):
        family = mutate(family, data.draw)
        if not isinstance(family, (dict, list)):
            break
    write_family(registry_dir, yaml.safe_dump(family, allow_unicode=True, sort_keys=False))
    check_outcome(registry_dir)


def test_unmutated_fixture_is_valid(registry_dir: Path) -> None:
    """The property tests start from a valid file, so a mutation is what breaks it."""
    write_family(registry_dir, yaml.safe_dump(json.loads(json.dumps(VALID_LLAMA, default=str)), sort_keys=False))
    assert validate_registry(registry_dir).problems == []
