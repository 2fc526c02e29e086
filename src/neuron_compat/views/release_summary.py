"""What a Neuron release changed, as its site page says it, for `neuron-compat release VERSION [--from VERSION]`.

The same readings the release pages make (site/pages/releases.py): the claim cells that differ from the release
before (views.at_release `paired_cells_at` / `diff_cells`, folded by hardware), the version pairing lines, the
stacks shipped, the components, the known issues its notes list and those fixed in it (a release-note known
issue is listed from `listed_in.first` to `.last`; fixed where a source names the release, `fixed_in.release`; one the
notes merely stop listing is "not listed from R on", never fixed). With `--from`, every release after FROM up to VERSION counts: claims are compared at the two ends,
fixes and lifecycle events are those of the releases between. Lifecycle events are stacks.yaml's: a stack's first
catalogued release (`since`), its end of support and its `ends` entries. Measurements that moved are tested
configurations (registry/configurations) of one performance series (views.performance_series: checkpoint, stack,
instance, layout, batch, lengths, dtype and setting) measured at both ends with a different value. Works on a loaded registry and on a compiled document alike (attribute access; dicts for the
document's known issues and configurations).
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from typing import Any

from neuron_compat.contract.versions import version_key
from neuron_compat.views.at_release import diff_cells, paired_cells_at, pairing_lines, stack_shipped
from neuron_compat.views.performance_series import metric_key, series_key


class UnknownRelease(ValueError):
    """A release the registry does not list: a one-line message with the nearest one."""


def _get(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def _plain(value: Any) -> Any:
    if hasattr(value, "to_json"):
        return value.to_json()
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return value


def known_release(registry: Any, version: str, option: str = "VERSION") -> str:
    """`version` when the registry lists it; else UnknownRelease with a did-you-mean."""
    versions = list(registry.release_versions)
    if version in versions:
        return version
    close = difflib.get_close_matches(version, versions, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]}? " if close else ""
    raise UnknownRelease(f"unknown release {option} '{version[:40]}'; {hint}(known: {versions[0]} to {versions[-1]})")


def _issues(registry: Any) -> list[Any]:
    found = registry.known_issues
    if found is None:
        return []
    return list(_get(found, "issues") or []) if not isinstance(found, list) else found


def _between(version: str, first: str, last: str) -> bool:
    return version_key(first) < version_key(version) <= version_key(last)


def _issue_row(issue: Any) -> dict[str, Any]:
    fixed, listed = _get(issue, "fixed_in"), _get(issue, "listed_in")
    return {"id": _get(issue, "id"), "title": _get(issue, "title"), "component": _get(issue, "component"),
            "fixed_in": _get(fixed, "release") if fixed else None,
            "not_listed_from": _get(listed, "not_listed_from") if listed else None}


def _changes(registry: Any, before: str | None, after: str) -> list[dict[str, Any]]:
    old = paired_cells_at(registry, before) if before else {}
    grouped: dict[tuple[str, str, str, str, str | None, str | None], list[str]] = defaultdict(list)
    for change in diff_cells(old, paired_cells_at(registry, after)):
        key = change.key
        grouped[(change.kind, key.family, key.stack, key.workload, change.before, change.after)].append(key.hardware)
    rows = []
    for (kind, family, stack, workload, was, now), hardware in sorted(grouped.items(), key=lambda i: (i[0][1], i[0][2], i[0][3], i[0][0])):
        rows.append({"kind": kind, "family": family, "family_name": registry.family_by_id[family].name, "stack": stack,
                     "workload": workload, "hardware": sorted(hardware), "before": was, "after": now})
    return rows


def _lifecycle(registry: Any, after: str, through: str) -> list[str]:
    """Stack lifecycle events at the releases in (after, through]."""
    events = []
    for stack in registry.stacks:
        since, end = _get(stack, "since"), _get(stack, "end_of_support")
        if since and _between(str(since), after, through):
            events.append(f"{stack.name} is first shipped ({stack.status}) with Neuron {since}")
        if end and _between(str(end), after, through):
            events.append(f"{stack.name} reaches end of support with Neuron {end}")
        for ended in _get(stack, "ends") or ():
            if _between(str(ended.release), after, through):
                hardware = ", ".join(str(h) for h in ended.hardware) or "all its hardware"
                events.append(f"{stack.name}: {', '.join(str(w) for w in ended.workloads)} on {hardware} ends with "
                              f"Neuron {ended.release} ({ended.source})")
    return events


def _components(registry: Any, version: str) -> dict[str, str]:
    release = next(r for r in registry.releases if r.version == version)
    return {str(k): str(v) for k, v in (_plain(release.components) or {}).items()}


def _measurement_key(configuration: dict[str, Any], measurement: dict[str, Any]) -> tuple[Any, ...]:
    """One metric of one configuration measured at several releases: its series (views.performance_series, which
    tells runs of other lengths, layouts or settings apart) and the metric."""
    return (*series_key(configuration), *metric_key(measurement))


def _configurations(registry: Any) -> list[dict[str, Any]]:
    files = getattr(registry, "configuration_files", None)
    if files is None:
        files = [_plain(f) for f in getattr(registry, "configurations", ()) or ()]
    return [c for f in files for c in (_get(f, "configurations") or [])]


def _moved(registry: Any, before: str | None, after: str) -> list[dict[str, Any]]:
    if before is None:
        return []
    values: dict[tuple[Any, ...], dict[str, float]] = defaultdict(dict)
    for configuration in _configurations(registry):
        release = str(configuration.get("release"))
        if release not in (before, after):
            continue
        for measurement in configuration.get("measurements") or []:
            if isinstance(measurement.get("value"), (int, float)):
                values[_measurement_key(configuration, measurement)][release] = float(measurement["value"])
    moved = []
    for key, at in sorted(values.items(), key=lambda item: str(item[0])):
        if before in at and after in at and at[before] != at[after]:
            configuration = dict(zip(("family", "checkpoint", "stack", "workload", "instance", "hardware", "batch_size",
                                      "sequence_length"), key, strict=False))
            metric, name, unit, percentile, _phase = key[-5:]
            change = (at[after] - at[before]) / at[before] * 100 if at[before] else None
            moved.append({"checkpoint": configuration["checkpoint"], "stack": configuration["stack"],
                          "instance": configuration["instance"], "batch_size": configuration["batch_size"],
                          "sequence_length": configuration["sequence_length"], "dtype": key[10],
                          "metric": name or metric, "unit": unit,
                          "percentile": percentile, "before": at[before], "after": at[after],
                          "change_percent": round(change, 1) if change is not None else None})
    return moved


def release_summary(registry: Any, version: str, since: str | None = None) -> dict[str, Any]:
    """What `version` changed against `since` (default: the release before it). Raises UnknownRelease."""
    version = known_release(registry, version)
    versions = list(registry.release_versions)
    if since is not None:
        since = known_release(registry, since, "--from")
        if version_key(since) >= version_key(version):
            raise UnknownRelease(f"--from {since} is not before {version}: give an older release")
    else:
        position = versions.index(version)
        since = versions[position - 1] if position else None
    release = next(r for r in registry.releases if r.version == version)
    floor = since or "0"
    issues = _issues(registry)
    known = [_issue_row(i) for i in issues if _get(i, "kind") == "known-issue" and _get(i, "listed_in")
             and version_key(str(_get(_get(i, "listed_in"), "first"))) <= version_key(version)
             <= version_key(str(_get(_get(i, "listed_in"), "last")))]
    fixed = [_issue_row(i) for i in issues if _get(i, "fixed_in") and _between(str(_get(_get(i, "fixed_in"), "release")), floor, version)]
    before_components = _components(registry, since) if since else {}
    after_components = _components(registry, version)
    component_changes = [{"component": name, "before": before_components.get(name), "after": after_components.get(name)}
                         for name in dict.fromkeys([*before_components, *after_components])
                         if before_components.get(name) != after_components.get(name)]
    return {
        "release": version, "from": since, "date": str(_get(release, "date")), "notes_url": release.notes_url,
        "hardware": [str(h) for h in release.hardware], "summary": release.summary,
        "stacks_shipped": [s.id for s in registry.stacks if stack_shipped(s, version)],
        "pairing": pairing_lines(registry, version),
        "changes": _changes(registry, since, version),
        "lifecycle": _lifecycle(registry, floor, version),
        "known_issues": known, "fixed": fixed,
        "components": after_components, "component_changes": component_changes,
        "measurements_moved": _moved(registry, since, version),
    }
