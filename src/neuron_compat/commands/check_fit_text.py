"""The terminal form of `check`'s fit (check/fit.py): what was counted, the bytes, and a row per instance."""

from __future__ import annotations

from typing import Any

GIB = 2**30


def _gib(value: int | None) -> str:
    return "-" if value is None else f"{value / GIB:.2f} GiB"


def _count(value: int | None) -> str:
    return "not counted" if value is None else f"{value:,}"


def render_fit(fit: dict[str, Any]) -> list[str]:
    """Lines of the fit section; every unknown says why, every default says it is one."""
    a = fit["assumptions"]
    lines = ["Fit (an estimate): weights + KV cache against device memory",
             f"  not counted: {'; '.join(fit['not_counted'])}",
             f"  assumed: batch {a['batch']} ({a['batch_from']}), seq-len {a['seq_len']} ({a['seq_len_from']}), "
             f"dtype {a['dtype']} ({a['dtype_from']}), KV cache at {a['kv_cache_dtype']}, "
             f"stack {a['stack']} ({a['stack_from']})"]
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
    kv = fit["kv_cache_bytes_per_token"][a["kv_cache_dtype"]]
    if kv is None:
        lines.append(f"  KV cache per token: none counted ({fit['kv_cache_reason']})")
    else:
        lines.append(f"  KV cache per token: {kv:,} bytes at {a['kv_cache_dtype']} (before any replication of KV heads)")
    for note in fit["kv_cache_notes"]:
        lines.append(f"    note: {note}")
    for stack, degrees in fit["tensor_parallel"].items():
        rule = fit["tensor_parallel_rules"][stack]
        if degrees is not None:
            shown = f"{degrees[0]}-{degrees[-1]}" if degrees == list(range(degrees[0], degrees[-1] + 1)) \
                else ", ".join(str(d) for d in degrees)
            lines.append(f"  tensor parallel, {stack}: degrees {shown} ({', '.join(rule['sources'])})")
    recorded = [s for s, rule in fit["tensor_parallel_rules"].items() if rule["rule"] is None]
    if recorded:
        lines.append(f"  tensor parallel, {', '.join(recorded)}: rule not recorded")
    if fit["instances"]:
        header = ("INSTANCE", "CORES", "DEGREE", "FITS", "NEEDED", "AVAILABLE", "HEADROOM")
        rows = []
        for entry in fit["instances"]:
            fits = "-" if entry["fits"] is None else ("yes" if entry["fits"] else "no")
            cores = "-" if entry["neuron_cores"] is None else str(entry["neuron_cores"]) + (
                f" (LNC={entry['lnc']})" if entry["lnc"] else "")
            rows.append((entry["name"], cores, "-" if entry["degree"] is None else str(entry["degree"]), fits,
                         _gib(entry["bytes_needed"]), _gib(entry["bytes_available"]), _gib(entry["headroom_bytes"])))
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
        lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
        for entry, row in zip(fit["instances"], rows, strict=True):
            lines.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
            if entry["reason"]:
                lines.append(f"    {entry['reason']}")
    else:
        lines.append("  instances: none recorded in this registry")
    return lines
