"""The site's search script reads its identifier index as data: a query that names a property every JavaScript
object has (`constructor`, `__proto__`, `toString`) is no entry, and it never throws. Run with node in a
minimal fake DOM (tests/hostile/run_search_exact.js), the same file the site publishes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "site" / "assets" / "javascripts" / "search-exact.js"
HARNESS = Path(__file__).with_name("run_search_exact.js")
INDEX = {"families": {"llama": {"page": "families/llama/", "title": "Llama"}},
         "identifiers": {"llama": ["llama"], "llamaforcausallm": ["llama"], "broken": ["constructor", "nobody"]}}

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")


def run(queries: list[str], index: object = INDEX) -> dict[str, dict[str, object]]:
    result = subprocess.run(["node", str(HARNESS), str(SCRIPT), json.dumps(index), json.dumps(queries)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return {query: outcome for query, outcome in json.loads(result.stdout)}


def test_prototype_keys_are_no_entries_and_never_throw() -> None:
    queries = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__defineGetter__", "broken"]
    results = run(queries)
    for query in queries:
        assert results[query] == {"error": None, "inserted": 0}, (query, results[query])


def test_an_identifier_still_puts_its_family_first() -> None:
    results = run(["llama", "LlamaForCausalLM", "Llama For Causal LM"])
    assert all(value == {"error": None, "inserted": 1} for value in results.values()), results


def test_a_malformed_index_is_no_entries() -> None:
    index = {"families": [], "identifiers": {"llama": "not a list", "constructor": ["constructor"]}}
    results = run(["llama", "constructor"], index)
    assert all(value == {"error": None, "inserted": 0} for value in results.values()), results
