"""`--stack-version optimum-neuron==0.3.0`: the Neuron release a stack's own version pairs with (stacks.yaml
`versions`), or, for a stack whose package a release lists among its components (vllm-neuron), the release(s) that
list that version (the newest, when several do)."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from neuron_compat.contract.versions import version_key
from neuron_compat.environment.detection import releases_listing
from neuron_compat.environment.packages import RECORDED, normalise, plain_version

_SPEC = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]{0,99})\s*(?:==|=|\s)\s*([0-9][0-9A-Za-z.+!_-]{0,62})\s*")


class StackVersionError(ValueError):
    """A --stack-version the registry cannot pair with a release: a one-line reason with what it does know."""


@dataclass(frozen=True)
class StackVersionChoice:
    stack: str
    version: str
    release: str
    releases: list[str]
    paired_by: str


def _stack_id(registry: Any, name: str) -> str | None:
    key = normalise(name)
    if key in registry.stack_by_id:
        return str(key)
    return next((c for c in RECORDED.get(key, ()) if c in registry.stack_by_id), None)


def choose_release(registry: Any, spec: str) -> StackVersionChoice:
    """The release `spec` ('optimum-neuron==0.3.0') pairs with. Raises StackVersionError."""
    match = _SPEC.fullmatch(spec)
    if match is None:
        raise StackVersionError(f"--stack-version '{spec[:80]}': expected STACK==VERSION, e.g. optimum-neuron==0.3.0")
    name, version = match.groups()
    stack = _stack_id(registry, name)
    lined = [s.id for s in registry.stacks if s.versions] + [s.id for s in registry.stacks if not s.versions
                                                             and any(s.id in _names(r) for r in registry.releases)]
    if stack is None:
        close = difflib.get_close_matches(normalise(name), lined, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'? " if close else ""
        raise StackVersionError(f"--stack-version: unknown stack '{name[:60]}'; {hint}(stacks with versions: "
                                f"{', '.join(lined)})")
    targets = registry.stack_version_targets.get(stack, {})
    plain = plain_version(version)
    if plain in targets:
        return StackVersionChoice(stack, plain, str(targets[plain]), [str(targets[plain])], "stacks.yaml versions")
    listed = releases_listing(registry, stack, plain)
    if listed:
        return StackVersionChoice(stack, plain, listed[-1], listed, "releases.yaml components")
    known = sorted({*targets, *(v for r in registry.releases for v in _versions(r, stack))}, key=version_key)
    close = difflib.get_close_matches(plain, known, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise StackVersionError(f"--stack-version: {stack} {plain[:60]} is in no release this registry records; {hint}"
                            f"(known: {', '.join(known[-8:]) or 'none'})")


def _names(release: Any) -> set[str]:
    data = release.components
    return set((data.to_json() if hasattr(data, "to_json") else dict(data or {})).keys())


def _versions(release: Any, stack: str) -> list[str]:
    data = release.components
    plain = data.to_json() if hasattr(data, "to_json") else dict(data or {})
    return [part.strip() for part in str(plain.get(stack, "")).split(",") if part.strip()]
