"""optimum-neuron claims equal what each optimum-neuron version registers, per the committed
registry/upstream/optimum-neuron.yaml (read from the wheels by scripts/snapshot_optimum_neuron.py), so `validate`
and pre-commit check them."""

from __future__ import annotations

from collections.abc import Iterator

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.yaml_reader import display_path
from neuron_compat.rules.base import STACKS_KEY, FileKey, Finding, Rule, family_key
from neuron_compat.safeio.bounded_read import something_at
from neuron_compat.views.optimum_neuron_crosscheck import (
    OPTIMUM_SNAPSHOT,
    STACK,
    SnapshotError,
    UnregisteredClaim,
    load_snapshot,
    optimum_neuron_mismatches,
    unregistered_claims,
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
        if mismatch.missing:  # no family statement to point at: the version line is the place
            yield Finding(STACKS_KEY, ("stacks", index, "versions", lines[mismatch.version], "version"),
                          mismatch.describe_missing(),
                          f"claim what {OPTIMUM_SNAPSHOT} says this version registers (stack_since / stack_until on "
                          f"the families' optimum-neuron statements), or refresh the snapshot with {_REFRESH}")
    shown = display_path(registry.root / OPTIMUM_SNAPSHOT)
    for claim in unregistered_claims(registry, snapshot):
        yield _unregistered_finding(registry, claim, shown)


def _unregistered_finding(registry: Registry, claim: UnregisteredClaim, snapshot_shown: str) -> Finding:
    """At the claim's stack_since (else its stack), in words a contributor who never opened stacks.yaml follows."""
    statement = registry.family_by_id[claim.family_id].support[claim.index]
    versions = (", ".join(claim.versions) if len(claim.versions) <= 3
                else f"{claim.versions[0]} to {claim.versions[-1]} ({len(claim.versions)} versions)")
    verb = "does" if len(claim.versions) == 1 else "do"
    types = ", ".join(f"'{t}'" for t in claim.model_types)
    noun = "model type" if len(claim.model_types) == 1 else "model types"
    message = (f"optimum-neuron {versions} {verb} not register {noun} {types} for {claim.workload} "
               f"({snapshot_shown}, read from its wheels), but this statement claims "
               f"{'it from stack_since ' + statement.stack_since if statement.stack_since else 'it for every version'}")
    if claim.first_registering:
        hint = (f"claim a later stack_since ('{claim.first_registering}' is the first version that registers it) "
                "or mark the statement unknown")
    else:
        hint = (f"no version in the snapshot registers it: mark the statement unknown, or refresh the snapshot with "
                f"{_REFRESH} if a newer optimum-neuron does")
    field = "stack_since" if statement.stack_since else "stack"
    return Finding(family_key(claim.family_id), ("support", claim.index, field), message, hint)


RULE = Rule(name="optimum-neuron-registrations", check=check)
