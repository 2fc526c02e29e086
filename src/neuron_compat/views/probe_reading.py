"""Reading a portability probe result (registry/upstream/probe.yaml) in words, for the site and `check`.

Works on the plain JSON form of a `contract.models.ProbeResult` (dicts), so `check` needs no pydantic. Each
result is one workload captured on a CPU from a tiny random-initialised model: machine evidence, never a
support statement, and not a compile on Neuron.
"""

from __future__ import annotations

from typing import Any

WORKLOAD_ORDER = ("prefill", "decode", "forward", "train", "prefill_eager_experts", "forward_eager_experts",
                  "train_eager_experts")
WORKLOAD_TITLES = {
    "prefill": "prefill (context encoding)",
    "decode": "decode (token generation)",
    "forward": "task forward",
    "train": "training (forward + loss + backward)",
    "prefill_eager_experts": "prefill, MoE routing in the graph",
    "forward_eager_experts": "task forward, MoE routing in the graph",
    "train_eager_experts": "training, MoE routing in the graph",
}
STOPPED = ("not_built", "not_run", "timeout", "memory", "crashed", "harness_error")
"""Outcomes of a workload that did not run to a capture: no graphs, nodes or operators to read."""
STACK_WORKLOAD = {name: "training" if name.startswith("train") else "inference" for name in WORKLOAD_ORDER}
"""Which stack workload (the registry's inference / training rows) a probe workload stands beside."""

OUTCOMES = {
    "ok": "captured by torch.export at static shapes",
    "data_dependent": "torch.export failed: data-dependent control flow or shapes",
    "dynamic_shape": "torch.export failed: unsupported dynamic shape",
    "other": "capture failed",
    "not_built": "not built: the tiny config or model could not be made",
    "not_run": "not run: the probe could not run it",
    "timeout": "stopped: the capture hit the probe's time limit",
    "memory": "stopped: the capture hit the probe's memory cap",
    "crashed": "stopped: the capture process crashed",
    "harness_error": "not run: the probe itself failed",
}
TRAIN_OUTCOMES = {"ok": "forward and backward captured through AOT autograd", "other": "training capture failed"}
CAVEAT = "CPU capture of a tiny random model; evidence, not support, not a Neuron compile"


def workloads_for(result: dict[str, Any], stack_workload: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(name, workload result) in page order, only those beside `stack_workload` rows when given."""
    workloads = result.get("workloads") or {}
    return [(name, workloads[name]) for name in WORKLOAD_ORDER
            if name in workloads and (stack_workload is None or STACK_WORKLOAD[name] == stack_workload)]


def is_captured(workload: dict[str, Any]) -> bool:
    """One graph, no break, a clean capture (the CPU capture's fact, not a support statement)."""
    return workload.get("outcome") == "ok" and workload.get("graphs") == 1 and not workload.get("graph_breaks")


def outcome_words(name: str, workload: dict[str, Any]) -> str:
    outcome = str(workload.get("outcome", "other"))
    if name.startswith("train") and outcome in TRAIN_OUTCOMES:
        return TRAIN_OUTCOMES[outcome]
    return OUTCOMES.get(outcome, OUTCOMES["other"])


def inputs_words(workload: dict[str, Any]) -> str:
    """'input_ids 1x16, cache_position 16 at 16 and 64 tokens, static KV cache...' (with a multiplication sign)."""
    times = "\N{MULTIPLICATION SIGN}"
    shapes = ", ".join(f"{k} {times.join(str(d) for d in v)}" for k, v in (workload.get("inputs") or {}).items())
    lengths = workload.get("lengths") or []
    parts = [shapes] if shapes else []
    if len(lengths) > 1:
        parts.append(f"at {' and '.join(str(n) for n in lengths)} tokens")
    elif lengths:
        parts.append(f"at {lengths[0]} tokens")
    text = " ".join(parts)
    if workload.get("cache") == "static":
        text += "; static KV cache of twice the length"
    elif workload.get("cache") == "none":
        text += "; no KV cache"
    return text


def dynamo_words(workload: dict[str, Any]) -> str:
    graphs = workload.get("graphs")
    if graphs is None:
        return "" if workload.get("outcome") in STOPPED else "dynamo: did not run through"
    breaks = workload.get("graph_breaks") or 0
    text = f"dynamo: {graphs} graph{'s' if graphs != 1 else ''}, {breaks} graph break{'s' if breaks != 1 else ''}"
    if workload.get("backward_graphs") is not None:
        text += f", {workload['backward_graphs']} backward graph{'s' if workload['backward_graphs'] != 1 else ''}"
    return text


def growth_words(workload: dict[str, Any]) -> str:
    nodes = workload.get("nodes") or {}
    if not nodes:
        return ""
    counts = [f"{count} at {length}" for length, count in sorted(nodes.items(), key=lambda kv: int(kv[0]))]
    text = f"nodes {', '.join(counts)}"
    if workload.get("grows_with_length"):
        text += (" (grows with the length: a loop unrolled into the graph; compiling real lengths makes a graph"
                 " that big, or needs the loop rewritten)")
    return text


def operator_words(workload: dict[str, Any]) -> str:
    if workload.get("outcome") in STOPPED:
        return ""
    missing = workload.get("no_known_lowering") or []
    custom = workload.get("custom_ops") or []
    text = ("no known torch-xla lowering: " + " ".join(missing)) if missing else "every ATen operator has a " \
        "torch-xla lowering or a PyTorch decomposition"
    if custom:
        text += "; opaque custom ops (no Neuron lowering known): " + " ".join(custom)
    return text


def workload_line(name: str, workload: dict[str, Any]) -> str:
    """E.g. 'prefill (context encoding): captured by torch.export at static shapes; dynamo: 1 graph, ...'."""
    parts = [outcome_words(name, workload), dynamo_words(workload), growth_words(workload), operator_words(workload)]
    return f"{WORKLOAD_TITLES.get(name, name)}: " + "; ".join(p for p in parts if p)


def probe_lines(result: dict[str, Any], stack_workload: str | None = None) -> list[str]:
    return [workload_line(name, workload) for name, workload in workloads_for(result, stack_workload)]
