"""One "now" everywhere: for every family x release of the registry, the Python views (`views.cell_at` through
the site's ReleaseView), `check` (the resolver on the compiled document, which the check page runs too) and the
matrix's neuron-compat.js (run in node) say the same thing for every stack x workload:
what holds (status and hardware), or that nothing holds yet (from which release), or that it ended (at which
release, held through which), or that there is no statement. Any difference fails.

Every release and every family is asked, on a fixed sample of the pairs: at release number r, the families whose
position in the registry is r modulo 4 (so each release meets a quarter of the families and each family about a
quarter of the releases, about 15 s). The matrix JS is compared on every pair (it is one node run either way).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

from check_helpers import ROOT, node_executable

from neuron_compat.check.answer_pipeline import verdict_document
from neuron_compat.check.compiled_view import CompiledRegistry
from neuron_compat.check.config_facts import facts_from_config
from neuron_compat.check.resolver import resolve
from neuron_compat.publishing.registry_document import registry_to_json
from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.pages.matrix import matrix_data
from neuron_compat.site.support import ReleaseView, combinations
from neuron_compat.views.at_release import ENDED, HOLDS, NOT_YET, WITH_REQUIREMENTS, CellState

Said = tuple[Any, ...]
"""(kind, release, held_through, sorted (status, hardware...) of what holds): what one view says of one cell."""

_REGISTRY_STATUS = {drawn: status for status, drawn in WITH_REQUIREMENTS.items()}
_STARTS = re.compile(r"the first one starts at (\S+) \(")
_ENDED = re.compile(r"^ended at (\S+)(?: \(last held through (\S+)\))?$")


def _from_views(state: CellState) -> Said:
    held = sorted((h.claim_status, *h.hardware) for h in state.held)
    return (state.kind, state.release, state.held_through, held)


def _from_matrix(state: dict[str, Any]) -> Said:
    held = sorted([_REGISTRY_STATUS.get(h[0], h[0]), *h[1:]] for h in state["held"])
    return (state["kind"], state["release"], state["held_through"], [tuple(h) for h in held])


def _from_check(answers: list[dict[str, Any]]) -> dict[tuple[str, str], Said]:
    """The rows of a `check --json` verdict, per stack x workload, as the views would say them."""
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for answer in answers:
        rows.setdefault((answer["stack"], answer["workload"]), []).append(answer)
    said: dict[tuple[str, str], Said] = {}
    for key, found in rows.items():
        kinds = {c["kind"]: c["message"] for a in found for c in a["caveats"]}
        if NOT_YET in kinds:
            match = _STARTS.search(kinds[NOT_YET])
            assert match, kinds[NOT_YET]
            said[key] = (NOT_YET, match.group(1), None, [])
        elif "ended" in kinds:
            match = _ENDED.search(kinds["ended"])
            assert match, kinds["ended"]
            said[key] = (ENDED, match.group(1), match.group(2), [])
        elif "no-statement" in kinds:
            said[key] = ("no-statement", None, None, [])
        else:
            held = sorted(("unknown" if "beyond-horizon" in kinds else a["status"], *a["hardware"]) for a in found)
            said[key] = (HOLDS, None, None, held)
    return said


def _config(family: Any) -> dict[str, Any]:
    if family.model_types:
        return {"model_type": family.model_types[0]}
    return {"_class_name": family.pipelines[0]}


def _run_node(script: Path, payload: dict[str, Any]) -> Any:
    result = subprocess.run([node_executable(), str(script)], input=json.dumps(payload), capture_output=True,
                            text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


def test_views_check_and_the_javascript_agree_on_every_family_at_every_release() -> None:
    registry = validate_registry(ROOT / "registry").registry
    document = registry_to_json(registry)
    compiled = CompiledRegistry(json.loads(json.dumps(document)))
    releases = registry.release_versions
    families = list(registry.families)
    combos = [(stack.id, workload) for stack, workload in combinations(registry)]

    data = matrix_data(registry)
    drawn = _run_node(ROOT / "tests" / "site" / "run_matrix_js.js", data)
    row_of = {tuple(key): position for position, key in enumerate(data["rows"])}

    differences: list[str] = []
    kinds: set[str] = set()
    for number, release in enumerate(releases):
        view = ReleaseView(registry, release)
        for position, family in enumerate(families):
            sampled = position % 4 == number % 4
            name = f"{family.id}@{release}"
            from_check = None
            if sampled:
                verdict = json.loads(json.dumps(verdict_document(resolve(facts_from_config(_config(family)), compiled,
                                                                         release=release))))
                assert verdict["family"]["id"] == family.id, name
                from_check = _from_check(verdict["answers"])
            for stack, workload in combos:
                state = view.cell(family, stack, workload)
                if sampled:
                    kinds.add(state.kind)
                expected = _from_views(state)
                matrix = _from_matrix(drawn[release][row_of[(family.id, stack, workload)]])
                if matrix != expected:
                    differences.append(f"{name} {stack}/{workload}: views {expected}, matrix JS {matrix}")
                if from_check is None:
                    continue
                if state.kind == "no-statement":
                    answered = from_check.get((stack, workload))
                    if answered is not None and answered[0] != "no-statement":
                        differences.append(f"{name} {stack}/{workload}: views say no statement, check {answered}")
                    continue
                if from_check.get((stack, workload)) != expected:
                    differences.append(f"{name} {stack}/{workload}: views {expected}, check "
                                       f"{from_check.get((stack, workload))}")
    assert differences == [], "\n".join(differences[:40])
    assert kinds == {HOLDS, NOT_YET, ENDED, "no-statement"}  # every kind of cell is compared with check, not only "holds"
