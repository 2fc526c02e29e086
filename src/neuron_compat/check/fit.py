"""The fit of `check`: parameters, weight and KV-cache bytes, tensor-parallel degrees per stack and, per instance,
whether weights + KV cache fit in device memory. Computed from the config (neuron_compat.sizing) and the compiled
document's `instances` section; never stored. An estimate: FIT_NOT_COUNTED says what it leaves out.

`check --json` carries `fit_document(...)` as its top-level `fit`; the site's check page runs this module itself
(Pyodide, site/check_archive.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from neuron_compat.sizing import (
    DTYPE_BYTES,
    count_parameters,
    declared_dtype,
    kv_cache_bytes_per_token,
    weights_bytes,
)
from neuron_compat.sizing.fields import MAX_EXACT, read_str
from neuron_compat.sizing.kv_cache import ENCODER_ONLY
from neuron_compat.sizing.models import ATTENTION_FREE
from neuron_compat.sizing.tensor_parallel import tensor_parallel_degrees

FIT_DEFAULTS: dict[str, Any] = {"batch": 1, "seq_len": 4096, "dtype": "bf16", "stack": "nxd-inference"}
"""What fit assumes when a flag is not given (the dtype: the config's declared one first, then this)."""
FIT_LIMITS: dict[str, int] = {"batch": 65536, "seq_len": 10_000_000}
"""The largest --batch and --seq-len accepted."""
KV_CACHE_DTYPES = ("fp32", "bf16", "fp16", "fp8")
"""Weight dtypes the KV cache is assumed to share; with int8 or int4 weights it is taken at bf16."""
FIT_NOT_COUNTED = [
    "activations and intermediate tensors",
    "compiler and runtime buffers (scratchpad, collectives, I/O tensors)",
    "the Neuron runtime's own device memory",
    "quantization scales and padding of weights",
    "speculative-decoding draft models, LoRA adapters and on-device sampling state",
]
FIT_ESTIMATE = ("An estimate: weights plus the KV cache at batch x seq-len, against device memory spread evenly over "
                "the NeuronCores used. It leaves out what is listed under not_counted, so real limits are lower.")
GIB = 2**30
MAX_DEGREE = 128  # the degrees listed when the document has no instances

TP_RULES: dict[str, dict[str, Any]] = {
    "nxd-inference": {
        "rule": "gqa-replicate-or-mha",
        "text": "Any degree. Query heads are padded to a multiple of the degree. KV heads that split evenly (at "
                "least one per rank) stay as they are; otherwise REPLICATE_TO_TP_DEGREE (the default) gives each "
                "rank one replicated K/V head when the degree is divisible by the KV heads, and CONVERT_TO_MHA "
                "(K/V replicated to the padded query heads, more KV-cache memory) covers the other degrees.",
        "sources": [
            "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.32.0/libraries/nxd-inference/developer_guides/"
            "feature-guide.html#grouped-query-attention-gqa-support",
            "https://github.com/aws-neuron/neuronx-distributed-inference/blob/v0.7.14366/src/"
            "neuronx_distributed_inference/modules/attention/gqa.py#L84-L125",
        ],
    },
}
"""Stacks whose tensor-parallel sharding rule is documented, with the rule and where. Other stacks: not recorded."""
TP_NOT_RECORDED = "this stack's tensor-parallel rule is not recorded (no documented sharding rule was found)"


class FitOptionError(ValueError):
    """A --batch, --seq-len, --dtype or --instance value fit cannot use; the message names the valid values."""


@dataclass(frozen=True)
class FitOptions:
    batch: int | None = None
    seq_len: int | None = None
    dtype: str | None = None
    instance: str | None = None
    stack: str | None = None


def check_options(options: FitOptions, instances: Mapping[str, Any] | None) -> None:
    """Raise FitOptionError (one line, naming the valid values) for a value fit cannot use."""
    for name, flag in (("batch", "--batch"), ("seq_len", "--seq-len")):
        value = getattr(options, name)
        if value is not None and not 1 <= value <= FIT_LIMITS[name]:
            raise FitOptionError(f"{flag} {value}: use a whole number from 1 to {FIT_LIMITS[name]}")
    if options.dtype is not None and options.dtype not in DTYPE_BYTES:
        raise FitOptionError(f"unknown --dtype '{options.dtype}'; use one of: {', '.join(DTYPE_BYTES)}")
    names = [i["name"] for i in (instances or {}).get("instances", [])]
    if options.instance is not None and options.instance not in names:
        valid = ", ".join(names) if names else "none (this registry lists no instances)"
        raise FitOptionError(f"unknown --instance '{options.instance}'; use one of: {valid}")


def fit_document(config: Any, instances: Mapping[str, Any] | None, options: FitOptions,
                 stacks: list[str], pipeline: bool = False) -> dict[str, Any]:
    """The `fit` object of `check --json` for a config dict (check_options has accepted `options`)."""
    declared, declared_how = declared_dtype(config) if isinstance(config, Mapping) else (None, "")
    if options.dtype is not None:
        dtype, dtype_from = options.dtype, "--dtype"
    elif declared is not None:
        dtype, dtype_from = declared, f"the config ({declared_how})"
    else:
        dtype, dtype_from = FIT_DEFAULTS["dtype"], f"default ({declared_how})" if declared_how else "default"
    kv_dtype = dtype if dtype in KV_CACHE_DTYPES else FIT_DEFAULTS["dtype"]
    stack = options.stack or FIT_DEFAULTS["stack"]
    batch = options.batch or FIT_DEFAULTS["batch"]
    seq_len = options.seq_len or FIT_DEFAULTS["seq_len"]
    document: dict[str, Any] = {
        "estimate": FIT_ESTIMATE,
        "not_counted": list(FIT_NOT_COUNTED),
        "assumptions": {
            "batch": batch, "batch_from": "--batch" if options.batch else "default",
            "seq_len": seq_len, "seq_len_from": "--seq-len" if options.seq_len else "default",
            "dtype": dtype, "dtype_from": dtype_from, "kv_cache_dtype": kv_dtype,
            "stack": stack, "stack_from": "--stack" if options.stack else "default",
        },
    }
    if pipeline:
        reason = "a diffusers pipeline (model_index.json): its components' configs are not read"
        document.update(parameters=None, parameter_parts=[{"name": "model", "count": None, "reason": reason}],
                        parameter_notes=[], weights_bytes=dict.fromkeys(DTYPE_BYTES),
                        kv_cache_bytes_per_token=dict.fromkeys(DTYPE_BYTES), kv_cache_reason=reason,
                        kv_cache_notes=[], tensor_parallel=dict.fromkeys(stacks), tensor_parallel_rules=_rules(stacks))
        document["instances"] = [_instance_entry(i, instances, stack, None, None, "the weights could not be counted")
                                 for i in _chosen(instances, options.instance)]
        return document

    count = count_parameters(config)
    whole = count.complete and count.total <= MAX_EXACT
    document["parameters"] = count.total if whole else None
    document["parameter_parts"] = [{"name": p.name, "count": p.count, "reason": p.reason} for p in count.parts]
    document["parameter_notes"] = list(count.notes)
    if count.complete and not whole:
        document["parameter_notes"].append("the parts add up to more than 2^53: not a plausible size")
    document["weights_bytes"] = {d: weights_bytes(count, d).bytes if whole else None for d in DTYPE_BYTES}
    model_type = read_str(config, "model_type") if isinstance(config, Mapping) else None
    no_cache = model_type in ENCODER_ONLY or model_type in ATTENTION_FREE
    kv = {d: kv_cache_bytes_per_token(config, d) for d in DTYPE_BYTES}
    document["kv_cache_bytes_per_token"] = {d: result.bytes_per_token for d, result in kv.items()}
    document["kv_cache_reason"] = kv[kv_dtype].reason
    document["kv_cache_notes"] = list(kv[kv_dtype].notes)
    max_degree = max([_tp_cores(i, instances)[0] or 1 for i in _chosen(instances, None)] or [MAX_DEGREE])
    degrees = tensor_parallel_degrees(config, max_degree)
    document["tensor_parallel"] = {s: _degrees(s, degrees.heads, max_degree) for s in stacks}
    document["tensor_parallel_rules"] = _rules(stacks)
    weights = document["weights_bytes"][dtype]
    kv_bytes = 0 if no_cache else kv[kv_dtype].bytes_per_token
    why = None
    if weights is None:
        why = "the weights could not be counted (see parameter_parts)"
    elif kv_bytes is None:
        why = f"the KV cache could not be counted: {kv[kv_dtype].reason}"
    elif degrees.heads is None:
        why = f"the attention heads could not be read: {degrees.reason}"
    mla = isinstance(config, Mapping) and config.get("kv_lora_rank") is not None
    replicated = None if mla or no_cache or degrees.heads is None or degrees.kv_heads is None \
        else (degrees.heads, degrees.kv_heads)
    load = None if why else Load(weights or 0, kv_bytes or 0, replicated, batch, seq_len)
    valid = _degrees(stack, degrees.heads, max_degree)
    document["instances"] = [_instance_entry(i, instances, stack, valid, load, why)
                             for i in _chosen(instances, options.instance)]
    return document


@dataclass(frozen=True)
class Load:
    """What has to sit in device memory: the weights and the KV cache of batch x seq_len tokens."""

    weights: int
    kv_per_token: int
    heads: tuple[int, int] | None  # (query heads, KV heads) when the KV cache is replicated per the stack's rule
    batch: int
    seq_len: int

    def bytes_at(self, degree: int) -> int:
        return self.weights + self.batch * self.seq_len * _kv_at(self.kv_per_token, self.heads, degree)


def _rules(stacks: list[str]) -> dict[str, dict[str, Any]]:
    rules: dict[str, dict[str, Any]] = {}
    for stack in stacks:
        rule = TP_RULES.get(stack)
        rules[stack] = {**rule, "sources": list(rule["sources"])} if rule else \
            {"rule": None, "text": TP_NOT_RECORDED, "sources": []}
    return rules


def _degrees(stack: str, heads: int | None, max_degree: int) -> list[int] | None:
    """The degrees `stack`'s documented rule accepts up to `max_degree`; None when not recorded or not readable."""
    if stack not in TP_RULES or heads is None:
        return None
    return list(range(1, max_degree + 1))  # gqa-replicate-or-mha: every degree (heads padded, KV replicated)


def _kv_heads_at(degree: int, heads: int, kv_heads: int) -> int:
    """KV heads stored across all ranks at `degree`: NxD Inference's get_shardable_head_counts (TP_RULES)."""
    padded_heads = -(-heads // degree) * degree
    if heads == kv_heads:
        return padded_heads  # MHA: K/V heads padded with the query heads
    if kv_heads >= degree and kv_heads % degree == 0:
        return kv_heads  # they split evenly
    if degree % kv_heads == 0:
        return degree  # REPLICATE_TO_TP_DEGREE: one K/V head per rank
    return padded_heads  # CONVERT_TO_MHA: K/V replicated to the padded query heads


def _chosen(instances: Mapping[str, Any] | None, name: str | None) -> list[dict[str, Any]]:
    listed = list((instances or {}).get("instances", []))
    return [i for i in listed if name is None or i["name"] == name]


def _tp_cores(instance: Mapping[str, Any], instances: Mapping[str, Any] | None) -> tuple[int | None, int | None]:
    """(NeuronCores tensor parallelism runs over, the LNC setting they are at): the logical cores at the
    generation's default LNC setting where the data gives both, else the physical cores."""
    generation = next((g for g in (instances or {}).get("generations", []) if g["hardware"] == instance["hardware"]),
                      None)
    lnc = generation.get("lnc_default") if generation else None
    logical = instance.get("logical_neuron_cores") or {}
    if lnc is not None and str(lnc) in logical:
        return logical[str(lnc)], lnc
    return instance.get("neuron_cores"), None


def _instance_entry(instance: Mapping[str, Any], instances: Mapping[str, Any] | None, stack: str,
                    valid: list[int] | None, load: Load | None, why: str | None) -> dict[str, Any]:
    """Fit on one instance: at the smallest valid degree up to its NeuronCores that holds the load (or, when none
    does, at the largest), with the bytes needed and available and the headroom."""
    cores, lnc = _tp_cores(instance, instances)
    entry: dict[str, Any] = {
        "name": instance["name"], "hardware": instance["hardware"], "neuron_cores": cores, "lnc": lnc,
        "stack": stack, "degree": None, "fits": None, "bytes_needed": None, "bytes_available": None,
        "headroom_bytes": None, "reason": None,
    }
    memory = instance.get("device_memory_gib")
    if cores is None or memory is None:
        entry["reason"] = "the instance's NeuronCores or device memory are not recorded"
        return entry
    if stack not in TP_RULES:
        entry["reason"] = f"{stack}: {TP_NOT_RECORDED}"
        return entry
    if load is None or valid is None:
        entry["reason"] = why
        return entry
    usable = [degree for degree in valid if degree <= cores]
    if not usable:
        entry["reason"] = f"no valid tensor-parallel degree up to its {cores} NeuronCores"
        return entry
    per_core = memory * GIB // cores
    for degree in usable:
        needed, available = load.bytes_at(degree), per_core * degree
        if needed <= available:
            break
    if needed > MAX_EXACT:
        entry["reason"] = "above 2^53 bytes: not a plausible size"
        return entry
    entry.update(degree=degree, fits=needed <= available, bytes_needed=needed, bytes_available=available,
                 headroom_bytes=available - needed)
    if needed > available:
        entry["reason"] = f"does not fit even at degree {degree}, the largest valid one on its {cores} NeuronCores"
    return entry


def _kv_at(kv_per_token: int, heads: tuple[int, int] | None, degree: int) -> int:
    """KV-cache bytes per token at `degree`: the config's figure, scaled by NxD Inference's KV-head replication
    when the heads are known (not for MLA latents or caches that do not divide by the KV heads)."""
    if heads is None or kv_per_token % heads[1]:
        return kv_per_token
    return kv_per_token // heads[1] * _kv_heads_at(degree, heads[0], heads[1])
