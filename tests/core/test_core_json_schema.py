"""`neuron-compat schema`: a standard JSON Schema validator accepts every registry's files with the schemas
generated from that registry's catalogue, the committed registry/schemas/*.json are what the models and
registry/'s catalogue generate today, and `--generic` is the catalogue-free schema the site publishes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

pytestmark = pytest.mark.data  # the data lane: `python -m pytest -m data`

ROOT = Path(__file__).resolve().parents[2]
REGISTRIES = [ROOT / "registry", ROOT / "tests" / "fixtures" / "registry", ROOT / "tests" / "check" / "registry"]
FIXTURE = ROOT / "tests" / "fixtures" / "registry"
KINDS = ("family", "releases", "stacks", "registry", "capabilities")


def cli_schema(kind: str, *options: str, registry: Path = ROOT / "registry") -> dict:
    result = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "schema", "--kind", kind,
                             "--registry", str(registry), *options], capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def validator_of(schema: dict) -> jsonschema.protocols.Validator:
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def schemas_by_registry(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, dict[str, jsonschema.protocols.Validator]]:
    """Each registry's editor schemas (from its own catalogue), written by `schema --out` as contributors do."""
    found = {}
    for root in REGISTRIES:
        out = tmp_path_factory.mktemp("schemas")
        subprocess.run([sys.executable, "-m", "neuron_compat.cli", "schema", "--registry", str(root), "--out", str(out)],
                       capture_output=True, text=True, check=True)
        found[root] = {kind: validator_of(json.loads((out / f"{kind}.schema.json").read_text(encoding="utf-8")))
                       for kind in KINDS}
    return found


@pytest.fixture(scope="module")
def validators(schemas_by_registry: dict) -> dict[str, jsonschema.protocols.Validator]:
    return schemas_by_registry[FIXTURE]


def as_json_data(path: Path) -> object:
    """The YAML file as JSON would carry it (dates as ISO text), which is what the schema describes."""
    return json.loads(json.dumps(yaml.safe_load(path.read_text(encoding="utf-8")), default=str))


def registry_files() -> list[tuple[Path, str, Path]]:
    files = []
    for root in REGISTRIES:
        files += [(root, "releases", root / "releases.yaml"), (root, "stacks", root / "stacks.yaml")]
        if (root / "registry.yaml").is_file():
            files.append((root, "registry", root / "registry.yaml"))
        files += [(root, "family", path) for path in sorted((root / "families").glob("*.yaml"))]
        files += [(root, "capabilities", path) for path in sorted((root / "capabilities").glob("*.yaml"))]
    return files


@pytest.mark.parametrize("root, kind, path", registry_files(),
                         ids=lambda v: str(v.relative_to(ROOT)) if isinstance(v, Path) else v)
def test_bundled_files_validate_against_the_exported_schema(root: Path, kind: str, path: Path,
                                                            schemas_by_registry: dict) -> None:
    errors = sorted(schemas_by_registry[root][kind].iter_errors(as_json_data(path)), key=str)
    assert not errors, f"{path}: {errors[0].message} at {list(errors[0].absolute_path)}"


def test_schema_rejects_what_the_models_reject(validators: dict) -> None:
    family = as_json_data(ROOT / "tests" / "fixtures" / "registry" / "families" / "llama.yaml")
    assert validators["family"].is_valid(family)
    for mutate in (
        lambda f: f.update(unknown_field=1),
        lambda f: f["support"][0].update(since="2.19.0"),  # not in the fixture's releases.yaml
        lambda f: f["support"][0].update(stack="optimum-neuronx"),
        lambda f: f["support"][1].update(stack_since="0.0.26"),
        lambda f: f["support"][1].pop("since"),
        lambda f: f.update(model_types=["llama", "lama"]),
        lambda f: f["support"][0].update(status="suported"),
        lambda f: f["support"][0].update(since="2.21"),
        lambda f: f["support"][0]["sources"][0].update(url="http://example.com"),
        lambda f: f["support"][0].pop("sources"),
        lambda f: f.update(id="Not A Slug"),
    ):
        bad = json.loads(json.dumps(family))
        mutate(bad)
        assert not validators["family"].is_valid(bad)


def test_remote_code_lifts_the_model_type_enum(validators: dict) -> None:
    family = as_json_data(FIXTURE / "families" / "llama.yaml")
    family["model_types"] = ["llama", "my_custom_llama"]
    assert not validators["family"].is_valid(family)
    family["remote_code"] = True
    assert validators["family"].is_valid(family)


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schemas_equal_generated(kind: str, tmp_path: Path) -> None:
    # the catalogue is in the schemas: a release, stack, stack version or transformers snapshot added to
    # registry/ without regenerating them fails here (as the bundled snapshot check does for registry.json)
    subprocess.run([sys.executable, "-m", "neuron_compat.cli", "schema", "--out", str(tmp_path)],
                   capture_output=True, text=True, check=True, cwd=ROOT)
    committed = ROOT / "registry" / "schemas" / f"{kind}.schema.json"
    assert committed.read_text(encoding="utf-8") == (tmp_path / f"{kind}.schema.json").read_text(encoding="utf-8"), (
        f"{committed.relative_to(ROOT)} is out of date: run `neuron-compat schema --out registry/schemas`")


def test_completion_offers_the_real_releases_and_stacks() -> None:
    schema = json.loads((ROOT / "registry" / "schemas" / "family.schema.json").read_text(encoding="utf-8"))
    releases = yaml.safe_load((ROOT / "registry" / "releases.yaml").read_text(encoding="utf-8"))["releases"]
    stacks = yaml.safe_load((ROOT / "registry" / "stacks.yaml").read_text(encoding="utf-8"))["stacks"]
    since = next(option for option in schema["$defs"]["Statement"]["properties"]["since"]["anyOf"] if "enum" in option)
    assert since["enum"] == [release["version"] for release in releases]
    assert since["enumDescriptions"] == [f"Neuron SDK {r['version']}, released {r['date'].isoformat()}" for r in releases]
    stack = schema["$defs"]["Statement"]["properties"]["stack"]
    assert stack["enum"] == [s["id"] for s in stacks]
    assert stack["enumDescriptions"] == [s["name"] for s in stacks]
    assert schema["$defs"]["Hardware"]["enumDescriptions"][0].startswith("Inferentia")


@pytest.mark.parametrize("kind", KINDS)
def test_generic_schema_is_the_models_own(kind: str) -> None:
    # the catalogue-free schema (site API, consumers, check --json-schema's statement) stays as pydantic writes it
    from neuron_compat.contract.json_schema import schema_for
    from neuron_compat.contract.models import SCHEMA_MODELS

    generic = cli_schema(kind, "--generic")
    assert generic == schema_for(kind)
    assert {key: value for key, value in generic.items() if key not in ("$schema", "$id")} == (
        SCHEMA_MODELS[kind].model_json_schema())
    assert "enumDescriptions" not in json.dumps(generic) and "patternErrorMessage" not in json.dumps(generic)


def test_schema_without_a_loadable_catalogue_says_why(tmp_path: Path) -> None:
    (tmp_path / "registry").mkdir()
    result = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "schema", "--registry", str(tmp_path / "registry")],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "the schemas list its releases and stacks" in result.stderr


def _contract_models() -> list[type]:
    from pydantic import BaseModel

    from neuron_compat.contract import models

    return [value for value in vars(models).values()
            if isinstance(value, type) and issubclass(value, BaseModel) and value.__module__ == models.__name__]


def test_every_field_of_every_model_has_a_description() -> None:
    # the description lives in the contract (Field(description=...)): editors show it from the JSON Schema and
    # the contributing page's schema reference prints it; none is written anywhere else
    missing = [f"{model.__name__}.{name}" for model in _contract_models()
               for name, info in model.model_fields.items() if not (info.description or "").strip()]
    assert missing == []


@pytest.mark.parametrize("kind", KINDS)
def test_every_property_in_the_json_schema_has_a_description(kind: str) -> None:
    schema = cli_schema(kind, registry=FIXTURE)
    objects = [schema, *schema.get("$defs", {}).values()]
    missing = [f"{obj.get('title')}.{name}" for obj in objects for name, prop in obj.get("properties", {}).items()
               if not prop.get("description")]
    assert missing == []
    if kind == "family":
        assert schema["$defs"]["Statement"]["properties"]["dtypes"]["description"] == "Data types that work, per the source."
