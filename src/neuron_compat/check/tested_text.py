"""`check`'s tested-configurations lines: the runs that are evidence for the question (its workload and hardware,
this checkpoint or this size), then, under their own heading, the others with why each is not."""

from __future__ import annotations

from typing import Any

_SHOWN_IN_TEXT = 8


def _measured(configuration: dict[str, Any]) -> str:
    parts = []
    for m in configuration.get("measurements") or []:
        percentile = f" P{m['percentile']:g}" if m.get("percentile") is not None else ""
        label = f" [{m['name']}]" if m.get("name") else ""
        text = (f"{m.get('metric')}{percentile}{label} {'~' if m.get('approximate') else ''}{m.get('value'):g} "
                f"{m.get('unit')}")
        if m.get("phase"):
            text += f" ({m['phase']})"
        parts.append(text)
    return "; ".join(parts)


def _stated(c: dict[str, Any]) -> str:
    return f"not stated (the source says {c['release_stated']})" if c.get("release_stated") else "not stated"


def _configuration_lines(c: dict[str, Any]) -> list[str]:
    parallel = c.get("parallelism") or {}
    layout = " ".join(f"{k}={v}" for k, v in (("TP", parallel.get("tensor")), ("PP", parallel.get("pipeline")),
                                              ("EP", parallel.get("expert")), ("DP", parallel.get("data")))
                      if v)
    outcome = str(c.get("outcome")) + (f" ({c['outcome_qualifier']})" if c.get("outcome_qualifier") else "")
    scope = c.get("scope") or {}
    where = c.get("instance") or (f"{scope['hardware']} (instance not stated)" if scope.get("hardware")
                                  else "instance and hardware not stated")
    head = (f"  {c.get('checkpoint')} | {c.get('stack')} | {scope.get('workload') or 'workload not stated'} | "
            f"release {c.get('release') or _stated(c)} | {where} | {layout or 'TP not stated'} | "
            f"batch {c.get('batch_size') or 'not stated'} | seq len {c.get('sequence_length') or 'not stated'} | "
            f"{c.get('dtype') or 'dtype not stated'} | {outcome}")
    measured = _measured(c)
    if measured and not c.get("release"):
        measured += f" (release not stated; measured by {c.get('validated')})"
    return [head, f"    measured: {measured}" if measured else "    measured: nothing recorded",
            f"    source: {c.get('source', {}).get('url')} ({c.get('evidence')}, validated "
            f"{c.get('validated') or 'date not stated'})"]


def _trend_lines(c: dict[str, Any], shown: set[str]) -> list[str]:
    """The series this run is a point of (once per series): per metric, the value at each release."""
    found = c.get("trend")
    if not isinstance(found, dict) or found.get("configuration") in shown:
        return []
    shown.add(str(found.get("configuration")))
    lines = [f"    trend over releases ({len(found.get('releases') or [])} releases of this configuration):"]
    for metric in (found.get("metrics") or [])[:3]:
        points = metric.get("points") or []
        steps = " -> ".join(f"{p['release']}{'' if p.get('release_listed', True) else '*'} {p['value']:g}"
                            for p in points)
        overall = ""
        if len(points) >= 2 and points[0]["value"]:
            overall = f" ({(points[-1]['value'] - points[0]['value']) / points[0]['value']:+.1%} first to last)"
        lines.append(f"      {metric.get('metric')}: {steps}{overall}")
    if any(not p.get("release_listed", True) for m in found.get("metrics") or [] for p in m.get("points") or []):
        lines.append("      (* the source's release, which releases.yaml does not list; sources: check --json)")
    return lines


def _compile_time_line(item: dict[str, Any]) -> str:
    runs = ", ".join(f"{run['checkpoint']}" + (f" TP {run['tensor_parallel']}" if run.get("tensor_parallel") else "")
                     + f" {run['seconds']:g} s" for run in item.get("runs") or [])
    return (f"Compile time measured: {item['median_s']:g} s median on {item['instance']}, n = {item['n']} "
            f"(from {item['min_s']:g} s to {item['max_s']:g} s; runs: {runs})")


def render_tested(tested: dict[str, Any]) -> list[str]:
    """Lines for the table form of `check` (empty when nothing was asked or found)."""
    lines: list[str] = []
    if tested.get("checkpoint_page"):
        lines.append(f"Checkpoint page: {tested['checkpoint_page']} (on the site)")
    others = tested.get("other_sizes") or []
    rule = tested.get("scope") or ""
    if not tested.get("configurations"):
        lines.append(f"Tested configurations for this question: none recorded ({rule})")
    else:
        whose = "this checkpoint" if tested["matched_by"] == "checkpoint" else "its family at this size"
        lines.append(f"Tested configurations for this question, of {whose}: {tested['total']} ({rule})")
        series_shown: set[str] = set()
        folded = 0
        for c in tested["configurations"][:_SHOWN_IN_TEXT]:
            if (c.get("trend") or {}).get("configuration") in series_shown:
                folded += 1  # another release of a series already shown with its trend
                continue
            lines.extend(_configuration_lines(c))
            lines.extend(_trend_lines(c, series_shown))
        if folded:
            lines.append(f"  ({folded} more of those listed are other releases of a series shown above, in its trend)")
        if tested["total"] > _SHOWN_IN_TEXT:
            lines.append(f"  ... and {tested['total'] - _SHOWN_IN_TEXT} more (check --json lists up to 20)")
    for item in tested.get("compile_time") or []:
        lines.append(_compile_time_line(item))
    if others:
        label = tested.get("other_label") or "other sizes / other hardware"
        lines.append(f"Not evidence for this question ({label}): {tested.get('other_sizes_total', len(others))}")
        for c in others[:_SHOWN_IN_TEXT]:
            lines.extend(_configuration_lines(c))
            lines.append(f"    not counted here: {(c.get('scope') or {}).get('why_other')}")
        if tested.get("other_sizes_total", 0) > _SHOWN_IN_TEXT:
            lines.append(f"  ... and {tested['other_sizes_total'] - _SHOWN_IN_TEXT} more (check --json lists up to 20)")
    return lines
