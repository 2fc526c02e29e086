"""`check`'s tested-configurations lines: the checkpoint's (else its family's) runs on the instance asked for."""

from __future__ import annotations

from typing import Any

_SHOWN_IN_TEXT = 8


def _measured(configuration: dict[str, Any]) -> str:
    parts = []
    for m in configuration.get("measurements") or []:
        percentile = f" P{m['percentile']:g}" if m.get("percentile") is not None else ""
        text = f"{m.get('metric')}{percentile} {'~' if m.get('approximate') else ''}{m.get('value'):g} {m.get('unit')}"
        if m.get("phase"):
            text += f" ({m['phase']})"
        parts.append(text)
    return "; ".join(parts)


def render_tested(tested: dict[str, Any]) -> list[str]:
    """Lines for the table form of `check` (empty when nothing was asked or found)."""
    where = f" on {tested['instance']}" + (f" ({tested['hardware']})" if tested.get("hardware") else "") \
        if tested.get("instance") else ""
    if not tested.get("configurations"):
        return [f"Tested configurations{where}: none recorded"]
    whose = "this checkpoint" if tested["matched_by"] == "checkpoint" else "its family (none of this checkpoint)"
    lines = [f"Tested configurations{where}, of {whose}: {tested['total']}"]
    for c in tested["configurations"][:_SHOWN_IN_TEXT]:
        parallel = c.get("parallelism") or {}
        layout = " ".join(f"{k}={v}" for k, v in (("TP", parallel.get("tensor")), ("PP", parallel.get("pipeline")),
                                                  ("EP", parallel.get("expert")), ("DP", parallel.get("data")))
                          if v)
        head = (f"  {c.get('checkpoint')} | {c.get('stack')} | release {c.get('release') or 'not stated'} | "
                f"{c.get('instance') or 'instance not stated'} | {layout or 'parallelism not stated'} | "
                f"{c.get('dtype') or 'dtype not stated'} | {c.get('outcome')}")
        lines.append(head)
        measured = _measured(c)
        lines.append(f"    measured: {measured}" if measured else "    measured: nothing recorded")
        lines.append(f"    source: {c.get('source', {}).get('url')} ({c.get('evidence')}, validated "
                     f"{c.get('validated') or 'date not stated'})")
    if tested["total"] > _SHOWN_IN_TEXT:
        lines.append(f"  ... and {tested['total'] - _SHOWN_IN_TEXT} more (check --json lists up to 20)")
    return lines
