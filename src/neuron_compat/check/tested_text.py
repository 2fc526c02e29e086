"""`check`'s tested-configurations lines: the checkpoint's (else its family's) runs on the instance asked for."""

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


def _configuration_lines(c: dict[str, Any]) -> list[str]:
    parallel = c.get("parallelism") or {}
    layout = " ".join(f"{k}={v}" for k, v in (("TP", parallel.get("tensor")), ("PP", parallel.get("pipeline")),
                                              ("EP", parallel.get("expert")), ("DP", parallel.get("data")))
                      if v)
    outcome = str(c.get("outcome")) + (f" ({c['outcome_qualifier']})" if c.get("outcome_qualifier") else "")
    head = (f"  {c.get('checkpoint')} | {c.get('stack')} | release {c.get('release') or 'not stated'} | "
            f"{c.get('instance') or 'instance not stated'} | {layout or 'TP not stated'} | "
            f"batch {c.get('batch_size') or 'not stated'} | seq len {c.get('sequence_length') or 'not stated'} | "
            f"{c.get('dtype') or 'dtype not stated'} | {outcome}")
    measured = _measured(c)
    if measured and not c.get("release"):
        measured += f" (release not stated; measured by {c.get('validated')})"
    return [head, f"    measured: {measured}" if measured else "    measured: nothing recorded",
            f"    source: {c.get('source', {}).get('url')} ({c.get('evidence')}, validated "
            f"{c.get('validated') or 'date not stated'})"]


def render_tested(tested: dict[str, Any]) -> list[str]:
    """Lines for the table form of `check` (empty when nothing was asked or found)."""
    where = f" on {tested['instance']}" if tested.get("instance") else ""
    lines: list[str] = []
    if tested.get("checkpoint_page"):
        lines.append(f"Checkpoint page: {tested['checkpoint_page']} (on the site)")
    others = tested.get("other_sizes") or []
    if not tested.get("configurations") and not others:
        return [*lines, f"Tested configurations{where}: none recorded"]
    whose = "this checkpoint" if tested["matched_by"] == "checkpoint" else "its family (none of this checkpoint)"
    lines.append(f"Tested configurations{where}, of {whose}: {tested['total']}")
    for c in tested["configurations"][:_SHOWN_IN_TEXT]:
        lines.extend(_configuration_lines(c))
    if tested["total"] > _SHOWN_IN_TEXT:
        lines.append(f"  ... and {tested['total'] - _SHOWN_IN_TEXT} more (check --json lists up to 20)")
    if others:
        lines.append(f"On other sizes of {tested.get('hardware')} (not {tested['instance']}): "
                     f"{tested.get('other_sizes_total', len(others))}")
        for c in others[:_SHOWN_IN_TEXT]:
            lines.extend(_configuration_lines(c))
        if tested.get("other_sizes_total", 0) > _SHOWN_IN_TEXT:
            lines.append(f"  ... and {tested['other_sizes_total'] - _SHOWN_IN_TEXT} more (check --json lists up to 20)")
    for item in tested.get("compile_time") or []:
        lines.append(f"Compile time measured: {item['median_s']:g} s median on {item['instance']}, n = {item['n']} "
                     f"(from {item['min_s']:g} s to {item['max_s']:g} s)")
    return lines
