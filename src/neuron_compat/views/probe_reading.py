"""The one-line reading of a portability probe result (registry/upstream/probe.yaml), for the site and `check`.

Works on the plain JSON form of a `schema.ProbeResult` (a dict), so `check` needs no pydantic. The probe is
machine evidence from a CPU capture of a tiny random-initialised model, never a support statement.
"""

from __future__ import annotations

from typing import Any

EXPORT_OUTCOMES = {
    "ok": "torch.export: one static graph",
    "data_dependent": "torch.export failed: data-dependent control flow or shapes",
    "dynamic_shape": "torch.export failed: unsupported dynamic shape",
    "other": "torch.export failed",
}
"""What each `export.outcome` of the snapshot means, in words."""


def is_static_capture(result: dict[str, Any]) -> bool:
    """A clean torch.export and one dynamo graph without breaks."""
    dynamo = result.get("dynamo") or {}
    return (result.get("export") or {}).get("outcome") == "ok" and dynamo.get("graphs") == 1 \
        and dynamo.get("graph_breaks") == 0


def dynamo_words(result: dict[str, Any]) -> str:
    dynamo = result.get("dynamo") or {}
    if dynamo.get("graphs") is None:
        return "dynamo: did not run through"
    graphs, breaks = dynamo["graphs"], dynamo.get("graph_breaks") or 0
    return f"dynamo: {graphs} graph{'s' if graphs != 1 else ''}, {breaks} graph break{'s' if breaks != 1 else ''}"


def operators_words(result: dict[str, Any]) -> str:
    unlisted = result.get("unlisted_operators") or []
    total = len(result.get("operators") or [])
    if not total:
        return "no ATen operators captured"
    return f"{len(unlisted)} of {total} ATen operators outside the torch-neuronx operator list"


def probe_line(result: dict[str, Any]) -> str:
    """E.g. 'torch.export: one static graph; dynamo: 1 graph, 0 graph breaks; 9 of 31 ATen operators ...'."""
    outcome = (result.get("export") or {}).get("outcome", "other")
    return "; ".join([EXPORT_OUTCOMES.get(outcome, EXPORT_OUTCOMES["other"]), dynamo_words(result),
                      operators_words(result)])
