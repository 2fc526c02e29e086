"""views.recommendation: the ranking (not ended, status, lifecycle, newest release) on cases that pull in different
directions, the pins a release records (and says when it records none), and the last release that worked."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from neuron_compat.loading.indexes import RegistryIndexes
from neuron_compat.views.recommendation import Candidate, family_candidates, recommend

RELEASES = ("2.20.0", "2.21.0", "2.22.0", "2.23.0")


class TinyRegistry(RegistryIndexes):
    def __init__(self, stacks: list[Any], components: dict[str, dict[str, str]] | None = None) -> None:
        components = components or {}
        self.releases = [SimpleNamespace(version=v, hardware=["inf2", "trn1", "trn2"], notes_url=f"https://notes/{v}",
                                         components=components.get(v, {"neuronx-cc": f"cc-{v}"}))
                         for v in RELEASES]
        self.stacks = stacks
        self.families = []
        self.capability_files = []


def stack(id: str, status: str = "active", ends: list[Any] | None = None, versions: list[Any] | None = None,
          separate: bool = False, end_of_support: str | None = None) -> Any:
    return SimpleNamespace(id=id, name=id.upper(), status=status, since=None, end_of_support=end_of_support,
                           ends=ends or [], versions=versions or [], separate_releases=separate,
                           workloads=["inference"], hardware=["inf2", "trn1", "trn2"])


FAMILY = SimpleNamespace(name="Fam", support=[SimpleNamespace(workload="inference", hardware=["inf2", "trn2"])])


def candidate(stack_id: str, release: str, status: str = "supported", hardware: tuple[str, ...] = ("inf2", "trn2")) -> Candidate:
    return Candidate(stack=stack_id, workload="inference", hardware=hardware, release=release, status=status,
                     sources=(f"https://src/{stack_id}/{release}",), anchor=f"{stack_id}-inference")


def best(registry: TinyRegistry, candidates: list[Candidate], hardware: str = "inf2") -> Any:
    [found] = recommend(registry, FAMILY, candidates, "2.23.0", hardware=hardware, workloads=["inference"])
    return found


def test_an_older_supported_release_beats_a_newer_partial_one_of_the_same_stack() -> None:
    registry = TinyRegistry([stack("a")])
    found = best(registry, [candidate("a", "2.21.0"), candidate("a", "2.23.0", "partial")])
    assert (found.stack, found.release, found.status) == ("a", "2.21.0", "supported")
    assert found.alternatives == []  # a stack counts once, at its best release
    assert found.last_worked == "2.23.0"  # something does work at the newest release


def test_among_supported_an_active_stack_beats_a_newer_release_of_a_maintenance_stack() -> None:
    registry = TinyRegistry([stack("old", status="maintenance"), stack("new")])
    found = best(registry, [candidate("old", "2.23.0"), candidate("new", "2.21.0")])
    assert (found.stack, found.release, found.lifecycle) == ("new", "2.21.0", "active")
    assert [(c.stack, c.release, c.lifecycle) for c in found.alternatives] == [("old", "2.23.0", "maintenance")]


def test_with_equal_status_and_lifecycle_the_newest_release_wins() -> None:
    registry = TinyRegistry([stack("b", status="beta"), stack("m", status="maintenance")])
    found = best(registry, [candidate("b", "2.21.0"), candidate("m", "2.22.0")])
    assert (found.stack, found.release) == ("m", "2.22.0")


def test_status_comes_before_lifecycle() -> None:
    registry = TinyRegistry([stack("m", status="maintenance"), stack("a")])
    found = best(registry, [candidate("m", "2.22.0"), candidate("a", "2.23.0", "partial")])
    assert (found.stack, found.status) == ("m", "supported")


def test_a_stack_that_ended_on_that_hardware_comes_after_one_that_did_not_but_only_there() -> None:
    end = SimpleNamespace(workloads=["inference"], hardware=["trn2"], release="2.23.0")
    registry = TinyRegistry([stack("x", status="maintenance", ends=[end]), stack("v")])
    candidates = [candidate("x", "2.22.0"), candidate("v", "2.23.0", "partial")]
    on_trn2 = best(registry, candidates, "trn2")
    assert (on_trn2.stack, on_trn2.status) == ("v", "partial")  # a supported claim of an ended stack comes after
    assert [(c.stack, c.lifecycle) for c in on_trn2.alternatives] == [("x", "ended")]
    on_inf2 = best(registry, candidates, "inf2")
    assert (on_inf2.stack, on_inf2.lifecycle) == ("x", "maintenance")  # the end is Trn2's only


def test_where_nothing_works_at_the_newest_release_the_line_says_so_and_names_the_last_that_did() -> None:
    registry = TinyRegistry([stack("a")])
    found = best(registry, [candidate("a", "2.20.0"), candidate("a", "2.21.0", "partial")])
    assert (found.release, found.last_worked, found.newest) == ("2.20.0", "2.21.0", "2.23.0")
    assert found.line.startswith("no claim holds at 2.23.0 (newest with one: 2.21.0); best: a at Neuron 2.20.0")


def test_no_candidate_names_no_stack() -> None:
    registry = TinyRegistry([stack("a")])
    found = best(registry, [candidate("a", "2.22.0", hardware=("trn2",))], "inf2")
    assert (found.stack, found.release, found.status, found.install) == (None, None, "unknown", [])
    assert found.line == "nothing claims Fam runs here at any release up to 2.23.0"


def test_pins_come_from_the_release_and_what_it_does_not_record_is_said() -> None:
    components = {"2.22.0": {"a": "1.2.3", "neuronx-cc": "9.9", "other": "5.0"}, "2.21.0": {}}
    other = stack("other")
    other.hardware = ["trn2"]  # a component that is another stack, not serving inf2: left out there
    registry = TinyRegistry([stack("a"), other], components)
    found = best(registry, [candidate("a", "2.22.0")])
    assert (found.stack_version, found.install, found.not_recorded) == ("1.2.3", ["a 1.2.3", "neuronx-cc 9.9"], [])
    assert found.notes_url == "https://notes/2.22.0"
    assert best(registry, [candidate("a", "2.22.0")], "trn2").install == ["a 1.2.3", "neuronx-cc 9.9", "other 5.0"]
    bare = best(registry, [candidate("a", "2.21.0")])
    assert (bare.stack_version, bare.install, bare.not_recorded) == (None, [], ["a", "component versions"])
    # the stack's own package is named first, with its version or that it is not recorded
    assert ("install a (its version at Neuron 2.21.0 is not recorded) (component versions not recorded for "
            "2.21.0)") in bare.line


def test_a_stack_with_its_own_releases_is_pinned_to_its_version_and_only_where_one_targets() -> None:
    versions = [SimpleNamespace(version="0.1", neuron="2.21.0"), SimpleNamespace(version="0.2", neuron="2.21.0")]
    registry = TinyRegistry([stack("opt", versions=versions, separate=True)])
    found = best(registry, [candidate("opt", "2.21.0"), candidate("opt", "2.22.0")])
    assert (found.release, found.stack_version, found.install[0]) == ("2.21.0", "0.2", "opt 0.2")


def test_hardware_lines_follow_the_familys_statements_and_workloads() -> None:
    registry = TinyRegistry([stack("a")])
    found = recommend(registry, FAMILY, [candidate("a", "2.22.0")], "2.23.0")
    assert [(r.workload, r.hardware) for r in found] == [("inference", "inf2"), ("inference", "trn2")]


def test_family_candidates_on_the_real_registry_recommend_per_hardware() -> None:
    from neuron_compat.rules.validation import validate_registry

    registry = validate_registry("registry").registry
    family = registry.family_by_id["llama"]
    found = recommend(registry, family, family_candidates(registry, family))
    by = {(r.workload, r.hardware): r for r in found}
    assert by["inference", "inf2"].stack == by["inference", "trn1"].stack
    for key, item in by.items():
        assert item.stack is None or item.release is not None, key
        assert item.lifecycle != "ended" or not any(c.lifecycle != "ended" for c in item.alternatives), key
