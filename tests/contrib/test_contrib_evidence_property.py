"""Property: whatever run is reported, the engine either refuses with a message or produces a file that
validates, changes no line it did not mean to (old lines survive in order), and records the run."""

from __future__ import annotations

import datetime as dt
import shutil

from contrib_helpers import FIXTURE_REGISTRY
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from neuron_compat.contributing.evidence_edit import Evidence, EvidenceError, record_evidence
from neuron_compat.contributing.new_family import FamilyScaffold, UnknownStatement
from neuron_compat.contributing.shadow_registry import validate_with_changes
from neuron_compat.rules.validation import validate_registry

STACKS = ("optimum-neuron", "nxd-inference")
RELEASES = ("2.20.0", "2.21.0", "2.22.0")
HARDWARE = ("inf2", "trn1", "trn2")


def _is_subsequence(old: list[str], new: list[str]) -> bool:
    remaining = iter(new)
    return all(any(line == candidate for candidate in remaining) for line in old)


runs = st.lists(
    st.tuples(st.sampled_from(("llama", "bert", "qwen3")), st.sampled_from(STACKS), st.sampled_from(RELEASES),
              st.sampled_from(HARDWARE), st.lists(st.sampled_from(("bf16", "fp8", "fp16")), max_size=2, unique=True),
              st.integers(0, 3)),
    min_size=1, max_size=4,
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(runs)
def test_recorded_runs_always_leave_a_valid_registry(tmp_path_factory, runs) -> None:
    root = tmp_path_factory.mktemp("prop") / "registry"
    shutil.copytree(FIXTURE_REGISTRY, root)
    stacks = validate_registry(root).registry.stack_by_id
    scaffold = FamilyScaffold("qwen3", "Qwen3", ["qwen3"], unknowns=[
        UnknownStatement(stacks["optimum-neuron"], "inference"), UnknownStatement(stacks["nxd-inference"], "inference")])
    (root / "families" / "qwen3.yaml").write_text(scaffold.render(dt.date(2026, 12, 2)))
    for family_id, stack, release, hardware, dtypes, log in runs:
        loaded = validate_registry(root)
        assert not loaded.problems
        path = root / "families" / f"{family_id}.yaml"
        text = path.read_text()
        evidence = Evidence(stack=stack, workload="inference", release=release, hardware=hardware,
                            url=f"https://example.com/log{log}", verified=dt.date(2026, 12, 3), dtypes=tuple(dtypes))
        try:
            edit = record_evidence(loaded.registry, loaded.registry.family_by_id[family_id], text, evidence)
        except EvidenceError:
            continue
        problems = validate_with_changes(root, {f"families/{family_id}.yaml": edit.text})
        assert not problems, "\n".join(p.format() for p in problems) + "\n" + edit.text
        assert _is_subsequence(text.splitlines(), edit.text.splitlines()) or any(
            "removed" in a or "replaced" in a or "ended" in a or "added dtypes" in a for a in edit.actions)
        assert f"url: https://example.com/log{log}" in edit.text
        path.write_text(edit.text)
