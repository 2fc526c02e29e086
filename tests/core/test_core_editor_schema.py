"""The editor's family schema against the bad-input corpus: what an editor with the YAML language server flags
before `validate` runs.

Each case of tests/bad_inputs/cases.yaml that edits one family file, and leaves a file that still loads as
YAML, goes through a real JSON Schema validator (Python `jsonschema`, the schema's own draft, format checks on)
with the schema `neuron-compat schema` generates from the fixture registry's catalogue. Every such case must
be rejected, except the few on CANNOT_EXPRESS below, each with the reason a schema of one file cannot see it.
The reverse (every valid file of registry/ and the fixture registries passes its registry's schemas) is
tests/core/test_core_json_schema.py::test_bundled_files_validate_against_the_exported_schema.
"""

from __future__ import annotations

import datetime as dt
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from neuron_compat.contract.json_schema import catalogue_of, editor_schema_for
from neuron_compat.loading.loader import load_registry
from neuron_compat.loading.yaml_reader import load_yaml_file

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "bad_inputs"))
from corpus import Case, load_cases  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "registry"

CANNOT_EXPRESS = {
    "id-does-not-match-file-name": "the file name: a schema sees the document, never the path it is saved at",
    "duplicate-model-type": "another file: a model_type may belong to one family only (unique-model-types)",
    "architecture-in-two-families": "another file: an architecture class may belong to one family only "
    "(unique-architectures)",
    "verified-in-the-future": "today's date: a schema is fixed text, it cannot compare a date with the clock",
    "capability-statement-outside-stack": "the capability subset: the stack's values over the releases the statement "
    "overlaps, unless one of its notes names the value; needs capabilities/ and free text",
}
"""One-file mistakes the schema lets through, and why (CONTRIBUTING's 'What the editor catches' says the same)."""

TARGET = 0.9


def as_json(value: Any) -> Any:
    """YAML data as JSON carries it: dates as ISO text, every key as text (what the YAML language server sees)."""
    if isinstance(value, dict):
        return {key.isoformat() if isinstance(key, dt.date) else str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def edited_file(case: Case) -> str | None:
    """The one family file a case edits, or None when it edits anything else or more."""
    if case.run or case.delete or case.symlink or case.fifo or case.mkdir:
        return None
    paths = ({edit["file"] for edit in case.replace} | set(case.write) | set(case.write_bytes)
             | set(case.write_append) | set(case.generate))
    if len(paths) != 1:
        return None
    (path,) = paths
    return path if path.startswith("families/") and path.endswith(".yaml") else None


@pytest.fixture(scope="module")
def family_validator() -> jsonschema.protocols.Validator:
    registry = load_registry(FIXTURE).registry
    schema = editor_schema_for("family", catalogue_of(registry.releases, registry.stacks, registry.transformers))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)


@pytest.fixture(scope="module")
def corpus_documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Each one-file case's edited family file as JSON data (cases whose file no longer loads as YAML are left
    out: the YAML language server reports those itself, as a syntax error)."""
    documents = {}
    base = tmp_path_factory.mktemp("corpus")
    for index, case in enumerate(load_cases()):
        path = edited_file(case)
        if path is None:
            continue
        root = case.materialise(base / str(index) / "registry")
        loaded, _problem = load_yaml_file(root / path)
        if loaded is not None:
            documents[case.name] = as_json(loaded.data)
    return documents


def test_the_schema_rejects_every_one_file_mistake_it_can_express(family_validator, corpus_documents) -> None:
    assert len(corpus_documents) >= 60
    accepted = {name for name, document in corpus_documents.items() if family_validator.is_valid(document)}
    assert accepted - CANNOT_EXPRESS.keys() == set(), "the editor schema accepts these corpus mistakes"
    # the list stays short and true: every entry is a one-file case the schema really lets through
    assert CANNOT_EXPRESS.keys() - accepted == set(), "no longer accepted: remove them from CANNOT_EXPRESS"
    rejected = len(corpus_documents) - len(accepted)
    assert rejected / len(corpus_documents) >= TARGET, f"{rejected} of {len(corpus_documents)}"


def test_validation_stays_fast_with_the_real_catalogue() -> None:
    # registry/'s schema: 31 releases, 8 stacks with their version lines, every transformers model type as enums,
    # and a pattern per text rule. Measured on a shared 2-core machine: ~20 ms per family file, 3 s for all 153;
    # the budgets catch a pathological pattern or rule, not noise.
    registry = load_registry(ROOT / "registry").registry
    schema = editor_schema_for("family", catalogue_of(registry.releases, registry.stacks, registry.transformers))
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    documents = [as_json(load_yaml_file(path)[0].data) for path in sorted((ROOT / "registry" / "families").glob("*.yaml"))]  # type: ignore[union-attr]
    started = time.perf_counter()
    assert all(validator.is_valid(document) for document in documents)
    elapsed = time.perf_counter() - started
    assert elapsed < 30, f"{len(documents)} family files took {elapsed:.1f} s"
    # hostile text of the longest length allowed does not make a pattern backtrack for long
    family = documents[0]
    for text in ("<a" * 1000, "](" * 1000, "[x" * 1000 + "]:", "&#" * 1000, "\n [" * 500):
        started = time.perf_counter()
        validator.is_valid({**family, "description": text[:2000]})
        assert time.perf_counter() - started < 2, repr(text[:10])
