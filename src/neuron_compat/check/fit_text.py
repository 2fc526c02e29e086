"""The terminal form of `check`'s fit (check/fit.py): what was counted, the bytes, and a row per instance."""

from __future__ import annotations

from typing import Any

GIB = 2**30
ESTIMATES = ("smallest-with-margin", "largest-valid")
"""degree_from values that are the estimate itself (no second line for it)."""


def _gib(value: int | None) -> str:
    return "-" if value is None else f"{value / GIB:.2f} GiB"


def _count(value: int | None) -> str:
    return "not counted" if value is None else f"{value:,}"


def _degrees(degrees: list[int]) -> str:
    if degrees == list(range(degrees[0], degrees[-1] + 1)) and len(degrees) > 2:
        return f"{degrees[0]}-{degrees[-1]}"
    return ", ".join(str(d) for d in degrees)


def render_fit(fit: dict[str, Any]) -> list[str]:
    """Lines of the fit section; every unknown says why, every default says it is one."""
    a = fit["assumptions"]
    training = a.get("workload") == "training"
    what = "weights, gradients and optimizer states" if training else "weights + KV cache"
    lines = [f"Fit (an estimate, {a.get('workload', 'inference')}): {what} against device memory",
             f"  not counted: {'; '.join(fit['not_counted'])}"]
    if training:
        lines.append(f"  assumed: dtype {a['dtype']} ({a['dtype_from']}), optimizer {a['optimizer']}: "
                     f"{a['optimizer_text']}")
    else:
        lines.append(f"  assumed: batch {a['batch']} ({a['batch_from']}), seq-len {a['seq_len']} ({a['seq_len_from']}), "
                     f"dtype {a['dtype']} ({a['dtype_from']}), KV cache at {a['kv_cache_dtype']}")
    stack = f"{a['stack']} (--stack)" if a["stack_from"] == "--stack" else \
        f"per instance, the one recommended on its hardware (else {a['stack']})"
    lines.append(f"  stack: {stack}; proposed degrees leave {a['margin_text']}")
    if fit["parameters"] is not None:
        lines.append(f"  parameters: {fit['parameters']:,}")
    else:
        lines.append("  parameters: not all counted")
    for part in fit["parameter_parts"]:
        if part["count"] is None:
            lines.append(f"    {part['name']}: not counted: {part['reason']}")
    for note in fit["parameter_notes"]:
        lines.append(f"    note: {note}")
    weights = fit["weights_bytes"]
    lines.append("  weights: " + ", ".join(f"{dtype} {_gib(size)}" for dtype, size in weights.items()))
    if not training:
        kv = fit["kv_cache_bytes_per_token"][a["kv_cache_dtype"]]
        if kv is None:
            lines.append(f"  KV cache per token: none counted ({fit['kv_cache_reason']})")
        else:
            lines.append(f"  KV cache per token: {kv:,} bytes at {a['kv_cache_dtype']} "
                         "(before any replication of KV heads)")
        for note in fit["kv_cache_notes"]:
            lines.append(f"    note: {note}")
    for stack, degrees in fit["tensor_parallel"].items():
        rule = fit["tensor_parallel_rules"][stack]
        if degrees:
            lines.append(f"  tensor parallel, {stack}: degrees {_degrees(degrees)} ({', '.join(rule['sources'])})")
    recorded = [s for s, rule in fit["tensor_parallel_rules"].items() if rule["rule"] is None]
    if recorded:
        lines.append(f"  tensor parallel, {', '.join(recorded)}: rule not recorded")
    for reserve in fit.get("reserves", []):
        label = "runtime reserve per NeuronCore" if reserve["name"] == "runtime_per_core" else "host memory"
        figure = "not stated by any source" if reserve["bytes"] is None else _gib(reserve["bytes"])
        lines.append(f"  {label}: {figure}. {reserve['text']} ({', '.join(reserve['sources'])})")
    if a.get("hardware"):
        lines.append(f"  instances: {a['hardware']} only (--hardware)")
    if fit["instances"]:
        lines.extend(_instance_rows(fit["instances"]))
    else:
        lines.append("  instances: none recorded in this registry")
    return lines


def _instance_rows(instances: list[dict[str, Any]]) -> list[str]:
    header = ("INSTANCE", "CORES", "STACK", "DEGREE", "FITS", "NEEDED", "AVAILABLE", "HEADROOM")
    rows = []
    for entry in instances:
        fits = "-" if entry["fits"] is None else ("yes" if entry["fits"] else "no")
        if entry["fits"] and entry.get("within_margin") is False:
            fits = "yes, within the margin: no"
        cores = "-" if entry["neuron_cores"] is None else str(entry["neuron_cores"]) + (
            f" (LNC={entry['lnc']})" if entry["lnc"] else "")
        rows.append((entry["name"], cores, entry["stack"], "-" if entry["degree"] is None else str(entry["degree"]),
                     fits, _gib(entry["bytes_needed"]), _gib(entry["bytes_available"]), _gib(entry["headroom_bytes"])))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  " + "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    for entry, row in zip(instances, rows, strict=True):
        lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
        lines.append(f"    stack {entry['stack']}: {entry['stack_from']}")
        if entry.get("rule_note"):
            lines.append(f"    {entry['rule_note']}")
        if entry.get("degrees"):
            lines.append(f"    valid degrees ({entry['rule_stack']}'s rule, up to its cores): "
                         f"{_degrees(entry['degrees'])}")
        if entry.get("degree_why"):
            lines.append(f"    degree {entry['degree']} ({entry['degree_from']}): {entry['degree_why']}")
            tested = entry.get("tested_configuration")
            if tested and tested.get("source"):
                lines.append(f"      source: {tested['source']}")
            if entry.get("estimated_degree") is not None and entry["degree_from"] not in ESTIMATES:
                lines.append(f"    estimate, second: degree {entry['estimated_degree']} ({entry['estimated_from']}): "
                             f"{entry['estimated_why']}")
        if entry.get("memory_parts"):
            lines.append("    " + ", ".join(f"{p['name'].replace('_', ' ')} {_gib(p['bytes'])}"
                                            for p in entry["memory_parts"]) + f" over {entry['degree']} cores")
        if entry["reason"]:
            lines.append(f"    {entry['reason']}")
    return lines
