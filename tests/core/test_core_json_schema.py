"""`neuron-compat schema`: a standard JSON Schema validator accepts the registry files with it, and the
committed registry/schemas/*.json are what the models generate today."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES = [ROOT / "registry", ROOT / "tests" / "fixtures" / "registry"]
KINDS = ("family", "releases", "stacks", "registry")


def cli_schema(kind: str) -> dict:
    result = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "schema", "--kind", kind],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def validators() -> dict[str, jsonschema.protocols.Validator]:
    found = {}
    for kind in KINDS:
        schema = cli_schema(kind)
        validator_class = jsonschema.validators.validator_for(schema)
        validator_class.check_schema(schema)
        found[kind] = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    return found


def as_json_data(path: Path) -> object:
    """The YAML file as JSON would carry it (dates as ISO text), which is what the schema describes."""
    return json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), default=str))


def registry_files() -> list[tuple[str, Path]]:
    files = []
    for root in REGISTRIES:
        files += [("releases", root / "releases.yaml"), ("stacks", root / "stacks.yaml")]
        if (root / "registry.yaml").is_file():
            files.append(("registry", root / "registry.yaml"))
        files += [("family", path) for path in sorted((root / "families").glob("*.yaml"))]
    return files


@pytest.mark.parametrize("kind, path", registry_files(), ids=lambda v: str(v.relative_to(ROOT)) if isinstance(v, Path) else v)
def test_bundled_files_validate_against_the_exported_schema(kind: str, path: Path, validators: dict) -> None:
    errors = sorted(validators[kind].iter_errors(as_json_data(path)), key=str)
    assert not errors, f"{path}: {errors[0].message} at {list(errors[0].absolute_path)}"


def test_schema_rejects_what_the_models_reject(validators: dict) -> None:
    family = as_json_data(ROOT / "tests" / "fixtures" / "registry" / "families" / "llama.yaml")
    assert validators["family"].is_valid(family)
    for mutate in (
        lambda f: f.update(unknown_field=1),
        lambda f: f["support"][0].update(status="suported"),
        lambda f: f["support"][0].update(since="2.21"),
        lambda f: f["support"][0]["sources"][0].update(url="http://example.com"),
        lambda f: f["support"][0].pop("sources"),
        lambda f: f.update(id="Not A Slug"),
    ):
        bad = json.loads(json.dumps(family))
        mutate(bad)
        assert not validators["family"].is_valid(bad)


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schemas_equal_generated(kind: str, tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "neuron_compat.cli", "schema", "--out", str(tmp_path)],
                   capture_output=True, text=True, check=True)
    committed = ROOT / "registry" / "schemas" / f"{kind}.schema.json"
    assert committed.read_text(encoding="utf-8") == (tmp_path / f"{kind}.schema.json").read_text(encoding="utf-8"), (
        f"{committed.relative_to(ROOT)} is out of date: run `neuron-compat schema --out registry/schemas`")


def _contract_models() -> list[type]:
    from pydantic import BaseModel

    from neuron_compat.contract import models as schema

    return [value for value in vars(schema).values()
            if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == schema.__name__]


def test_every_field_of_every_model_has_a_description() -> None:
    # the description lives in the contract (Field(description=...)): editors show it from the JSON Schema and
    # the contributing page's schema reference prints it; none is written anywhere else
    missing = [f"{model.__name__}.{name}" for model in _contract_models()
               for name, info in model.model_fields.items() if not (info.description or "").strip()]
    assert missing == []


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_in_the_json_schema_has_a_description(kind: str) -> None:
    schema = cli_schema(kind)
    objects = [schema, *schema.get("$defs", {}).values()]
    missing = [f"{obj.get('title')}.{name}" for obj in objects for name, prop in obj.get("properties", {}).items()
               if not prop.get("description")]
    assert missing == []
    if kind == "family":
        assert schema["$defs"]["Statement"]["properties"]["dtypes"]["description"] == "Data types that work, per the source."
