"""optimum-neuron claims match what each of its versions registers (the committed upstream snapshot)."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import STACKS_KEY, FileKey, Finding, Rule
from neuron_compat.safeio.bounded_read import something_at
from neuron_compat.views.optimum_neuron_crosscheck import (
    OPTIMUM_SNAPSHOT,
    STACK,
    SnapshotError,
    load_snapshot,
    optimum_neuron_mismatches,
)

_REFRESH = "scripts/snapshot_optimum_neuron.py"


def check(registry: Registry) -> Iterator[Finding]:
    if not something_at(registry.root / OPTIMUM_SNAPSHOT) or STACKS_KEY in registry.broken:
        return
    index = next((i for i, s in enumerate(registry.stacks) if s.id == STACK), None)
    if index is None:
        return
    try:
        snapshot = load_snapshot(registry.root)
    except SnapshotError as error:
        yield Finding(FileKey("file", OPTIMUM_SNAPSHOT), (), str(error), f"regenerate it with {_REFRESH}")
        return
    lines = {v.version: i for i, v in enumerate(registry.stacks[index].versions)}
    for entry in snapshot:
        if str(entry["version"]) not in lines:
            yield Finding(STACKS_KEY, ("stacks", index, "versions"),
                          f"optimum-neuron {entry['version']} is in {OPTIMUM_SNAPSHOT} but not in this version line",
                          "add the version (with the Neuron release it targets), or drop it from the snapshot")
    for mismatch in optimum_neuron_mismatches(registry, snapshot):
        yield Finding(STACKS_KEY, ("stacks", index, "versions", lines[mismatch.version], "version"), mismatch.describe(),
                      f"claim what {OPTIMUM_SNAPSHOT} says this version registers (stack_since / stack_until on "
                      f"the families' optimum-neuron statements), or refresh the snapshot with {_REFRESH}")


RULE = Rule(
    name="optimum-neuron-registrations",
    description="Families claimed on optimum-neuron are exactly the model_types each of its versions registers "
    "(registry/upstream/optimum-neuron.yaml).",
    check=check,
)
