"""The check page reads its constant tables from the compiled document (`check_tables`, built from the Python
constants by check/tables.py) instead of holding hand copies of them."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from check_helpers import CHECK_REGISTRY, ROOT, config_text, node_executable

from neuron_compat.check.tables import check_tables
from neuron_compat.contract.models import CheckTables
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.rules.validation import validate_registry

CHECK_SCRIPTS = sorted((ROOT / "site" / "assets" / "javascripts").glob("check*.js"))
RUNNER = Path(__file__).with_name("run_check_js.js")


def _copied(source: str, table: object) -> bool:
    """A dict table is copied when each key appears as an object-literal key (and each string value quoted: keys
    such as `stack` are common words); a list when each item is quoted."""
    if isinstance(table, str):  # a quoted string; a long one (a pattern) also inside a regular expression literal
        return f'"{table}"' in source or (len(table) > 30 and table in source.replace("\\/", "/"))
    if isinstance(table, dict):
        patterns = [r'(?:[{,]\s*|")' + re.escape(str(k)) + r'"?\s*:' for k in table]
        patterns += ['"' + re.escape(value) + '"' for value in table.values() if isinstance(value, str)]
    elif isinstance(table, list):
        patterns = ['"' + re.escape(str(item)) + '"' for item in table]
    else:
        return False
    return len(patterns) >= 2 and all(re.search(p, source) for p in patterns)


def test_the_document_section_follows_the_contract() -> None:
    assert CheckTables.model_validate(check_tables()).model_dump() == check_tables()


def test_no_check_script_holds_a_copy_of_a_published_table() -> None:
    assert CHECK_SCRIPTS
    source = "\n".join(path.read_text(encoding="utf-8") for path in CHECK_SCRIPTS)
    tables = check_tables()
    # The claim statuses are status words every verdict rule names ("supported" and a limit make "partial"), so
    # the list counts as copied only when its items are tested together, as the "is a claim" predicate does (`=== "supported" || ... "partial"`).
    claim = tables.pop("claim_statuses")
    copied = [name for name, table in tables.items() if _copied(source, table)]
    either = "|".join(re.escape(f'"{s}"') for s in claim)
    if re.search(rf"(?:{either})\s*\|\|[^;{{]*(?:{either})", source):
        copied.append("claim_statuses")
    assert copied == [], f"check*.js spells out tables the document's check_tables provides: {copied}"


def _run_js(registry: dict, cases: list[dict]) -> list[dict]:
    result = subprocess.run([node_executable(), str(RUNNER)], input=json.dumps({"registry": registry, "cases": cases}),
                            capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_the_page_answers_from_the_documents_tables() -> None:
    registry = registry_to_json(validate_registry(CHECK_REGISTRY).registry)
    config = json.loads(config_text("llama-3.1-8b.json")) | {"torch_dtype": "bfloat16"}
    case = {"name": "llama", "config": config, "options": {}}
    [plain] = _run_js(registry, [case])
    assert plain["verdict"]["model"]["dtype"] == "bf16"
    changed = json.loads(json.dumps(registry))
    changed["check_tables"]["dtype_names"]["bfloat16"] = "fp32"
    changed["check_tables"]["exit_for_status"] = {k: 9 for k in changed["check_tables"]["exit_for_status"]}
    [edited] = _run_js(changed, [case])
    assert edited["verdict"]["model"]["dtype"] == "fp32"
    assert edited["verdict"]["exit_code"] == 9
    del changed["check_tables"]
    [refused] = _run_js(changed, [case])
    assert refused == {"name": "llama", "error": "this registry.json has no check_tables section; "
                                                 "rebuild it with a newer neuron-compat"}


PAGE_IDS = """
const page = require(process.argv[1]);
page.useTables(JSON.parse(require("fs").readFileSync(0, "utf8")));
process.stdout.write(JSON.stringify(JSON.parse(process.argv[2]).map(page.isValidRepoId)));
"""


def test_the_page_accepts_the_hub_ids_check_accepts() -> None:
    from neuron_compat.contract.hub_ids import is_valid_repo_id

    ids = ["Qwen/Qwen3-8B", "gpt2", "a/b", "meta-llama/Llama-3.1-8B-Instruct", "../../etc", "a--b/c", "a/b.",
           "a/b-", "x" * 96, "x" * 97, "a/b/c", "a/b\n", "a b/c", "é/b", "", "a/..b", "a_b/c.d"]
    page = ROOT / "site" / "assets" / "javascripts" / "check.js"
    registry = json.dumps(registry_to_json(validate_registry(CHECK_REGISTRY).registry))
    result = subprocess.run([node_executable(), "-e", PAGE_IDS, str(page), json.dumps(ids)], input=registry,
                            capture_output=True, text=True, timeout=60, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [is_valid_repo_id(i) for i in ids]
    assert sum(json.loads(result.stdout)) == 6  # both rules accept some ids and refuse the rest
