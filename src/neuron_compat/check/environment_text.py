"""The 'Your environment' block of `check --environment`'s terminal text, from the answer's `environment` document
(check/environment_answer.py's `environment_document`)."""

from __future__ import annotations

from typing import Any


def environment_lines(document: dict[str, Any]) -> list[str]:
    """The 'Your environment' block of `check`'s text: a few lines, then each mismatch and note."""
    lines = ["Your environment (" + (", ".join(document["formats"]) or "nothing read") + "):"]
    release = document["release"]
    candidates = document["release_candidates"]
    if release is None:
        lines.append("  Neuron release: not recognised (no package version a release records)")
    else:
        also = f" (candidates: {', '.join(candidates)}; answered at {release}, {document['release_from']})" \
            if len(candidates) > 1 else ""
        lines.append(f"  Neuron release: {release}{also}")
    recorded = [p for p in document["packages"] if p["recorded_as"]]
    if recorded:
        lines.append("  packages: " + ", ".join(f"{p['name']} {p['version'] or '(no version)'}" for p in recorded))
    instance = document["instance"]
    if instance is not None:
        named = instance["name"] or (" or ".join(instance["candidates"]) if instance["candidates"] else "no listed instance")
        lnc = f", LNC {instance['lnc']}" if instance["lnc"] else ""
        count = instance["devices"]
        devices = f", {count} device{'s' if count != 1 else ''}" if count else ""
        lines.append(f"  instance: {named} ({instance['hardware'] or 'hardware unknown'}{devices}{lnc})")
    lines += [f"  ! {line}" for line in document["mismatches"]]
    lines += [f"  - {line}" for line in document["notes"]]
    lines += [f"  not recognised: {line}" for line in document["not_recognised"]]
    return lines
