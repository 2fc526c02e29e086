"""The fit of `check`: parameters, weight and KV-cache bytes, tensor-parallel degrees per stack and, per instance,
whether the model fits in device memory at a proposed degree. Computed from the config (neuron_compat.sizing), the
compiled document's `instances` and `configurations`, and the cited facts of check/fit_rules.py; never stored. An
estimate: FIT_NOT_COUNTED says what it leaves out.

Per instance, the stack is the one the answer recommends on its hardware for the workload (`recommended_stacks`,
the one place fit reads the recommendation), or --stack. Its recorded tensor-parallel rule gives the valid degrees
(never more than the instance's NeuronCores at its LNC setting, nor MAX_DEGREE); where its rule is not recorded,
the degrees of a recorded rule are shown, labelled as such. The proposed degree is, in order: --degree; a degree a
tested configuration or recipe of this family and size uses on this instance; the smallest valid degree that
divides the attention heads and leaves MARGIN free; else the largest valid one. Training counts weights, gradients
and optimizer states (--optimizer), sharded as the stack's recipes shard them.

`check --json` carries `fit_document(...)` as its top-level `fit`; the site's check page runs this module itself
(Pyodide, site/check_archive.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from neuron_compat.check.evidence_scope import SIZE_RULE, configuration_workload, of_checkpoint, of_size
from neuron_compat.check.fit_rules import (
    DEFAULT_OPTIMIZER,
    FALLBACK_RULE,
    MARGIN,
    MARGIN_TEXT,
    NOT_RECORDED,
    OPTIMIZERS,
    RESERVES,
    TP_RULES,
    TRAINING_SHARDING,
    TRAINING_TP_RULES,
    rule_for,
)
from neuron_compat.sizing import (
    DTYPE_BYTES,
    count_parameters,
    declared_dtype,
    kv_cache_bytes_per_token,
    weights_bytes,
)
from neuron_compat.sizing.config_keys import with_canonical_keys
from neuron_compat.sizing.fields import MAX_EXACT, FieldError, read_int, read_str, sub_config
from neuron_compat.sizing.kv_cache import ENCODER_ONLY
from neuron_compat.sizing.models import ATTENTION_FREE
from neuron_compat.sizing.tensor_parallel import tensor_parallel_degrees

FIT_DEFAULTS: dict[str, Any] = {"batch": 1, "seq_len": 4096, "dtype": "bf16", "stack": "nxd-inference",
                                "workload": "inference", "optimizer": DEFAULT_OPTIMIZER}
"""What fit assumes when a flag is not given (the dtype: the config's declared one first, then this; the stack: the
recommended one on each instance's hardware first, then this)."""
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
MAX_DEGREE = 128
"""The most degrees fit considers on any instance (bounded work whatever an instance's NeuronCores): degrees above
it are not listed or tried."""
TP_NOT_RECORDED = "this stack's tensor-parallel rule is not recorded (no documented sharding rule was found)"


TRAINING_NOT_COUNTED = [
    "activations, and anything activation checkpointing would recompute",
    "compiler and runtime buffers (scratchpad, collectives, I/O tensors)",
    "the Neuron runtime's own device memory",
    "communication buffers of the optimizer's sharding",
]
TRAINING_ESTIMATE = ("An estimate: weights, gradients and optimizer states, sharded by tensor parallelism (and by "
                     "ZeRO-1 or FSDP where the stack's recipes do so), against device memory. Activations are not "
                     "counted, so real limits are lower.")
DEGREE_ORDER = [
    "--degree",
    "documented: a degree a vendor documents (a recipe, model card or tutorial) for this checkpoint on this instance",
    "documented for the family at this size: the same, for another checkpoint of the family at this size "
    f"({SIZE_RULE})",
    "tested: a degree a tested configuration of this checkpoint, or of the family at this size, uses on this instance",
    "estimate: the smallest valid degree that divides the attention heads and leaves the margin free, else the "
    "largest valid one",
]
"""How the proposed degree is chosen, first match wins (the estimate is always given too, as `estimated_degree`)."""


class FitOptionError(ValueError):
    """A --batch, --seq-len, --dtype, --instance, --degree or --optimizer value fit cannot use; the message names
    the valid values."""


@dataclass(frozen=True)
class FitOptions:
    batch: int | None = None
    seq_len: int | None = None
    dtype: str | None = None
    instance: str | None = None
    stack: str | None = None
    workload: str | None = None
    optimizer: str | None = None
    degree: int | None = None
    hardware: str | None = None


def check_options(options: FitOptions, instances: Mapping[str, Any] | None) -> None:
    """Raise FitOptionError (one line, naming the valid values) for a value fit cannot use."""
    for name, flag in (("batch", "--batch"), ("seq_len", "--seq-len")):
        value = getattr(options, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= FIT_LIMITS[name]):
            raise FitOptionError(f"{flag} {value}: use a whole number from 1 to {FIT_LIMITS[name]}")
    if options.dtype is not None and options.dtype not in DTYPE_BYTES:
        raise FitOptionError(f"unknown --dtype '{options.dtype}'; use one of: {', '.join(DTYPE_BYTES)}")
    if options.optimizer is not None and options.optimizer not in OPTIMIZERS:
        raise FitOptionError(f"unknown --optimizer '{options.optimizer}'; use one of: {', '.join(OPTIMIZERS)}")
    names = [i["name"] for i in (instances or {}).get("instances", [])]
    if options.instance is not None and options.instance not in names:
        valid = ", ".join(names) if names else "none (this registry lists no instances)"
        raise FitOptionError(f"unknown --instance '{options.instance}'; use one of: {valid}")
    if options.degree is not None:
        degree = options.degree
        if isinstance(degree, bool) or not isinstance(degree, int) or degree < 1:
            raise FitOptionError(f"--degree {degree}: use a whole number from 1")
        chosen = _chosen(instances, options.instance)
        most = max([_tp_cores(i, instances)[0] or 0 for i in chosen] or [0])
        where = f"{options.instance}'s" if options.instance else "the largest instance's"
        if most and degree > most:
            raise FitOptionError(f"--degree {degree}: larger than {where} {most} NeuronCores")


def recommended_stacks(verdict: Mapping[str, Any] | None) -> dict[tuple[str, str], str]:
    """(workload, hardware) -> the stack the answer recommends there. The one place fit reads the recommendation
    (today the verdict document's `recommendations`, views.recommendation)."""
    found: dict[tuple[str, str], str] = {}
    for item in (verdict or {}).get("recommendations") or []:
        if isinstance(item, Mapping) and isinstance(item.get("stack"), str):
            found.setdefault((str(item.get("workload")), str(item.get("hardware"))), item["stack"])
    return found


@dataclass(frozen=True)
class Model:
    """What the per-instance fit needs from the config."""

    parameters: int | None
    weight_bytes: int | None  # bytes per parameter at the assumed dtype
    kv_per_token: int | None
    heads: int | None
    kv_heads: int | None
    intermediate: int | None
    replicated_kv: bool  # KV cache scales with the stack's KV-head replication
    why: str | None  # why nothing can be worked out


def fit_document(config: Any, instances: Mapping[str, Any] | None, options: FitOptions,
                 stacks: list[str], pipeline: bool = False, verdict: Mapping[str, Any] | None = None,
                 configurations: list[dict[str, Any]] | None = None, family: str | None = None,
                 checkpoint_names: Iterable[str] = ()) -> dict[str, Any]:
    """The `fit` object of `check --json` for a config dict (check_options has accepted `options`). `verdict` (the
    verdict document) gives the recommended stack per hardware; `configurations` (every tested configuration),
    `family` and `checkpoint_names` (the checkpoint's Hub id and aliases) give the degrees documented and tested
    configurations use. With `options.hardware`, only that hardware's instances are listed."""
    config = with_canonical_keys(config)  # legacy keys read as transformers reads them (sizing/config_keys.py)
    declared, declared_how = declared_dtype(config) if isinstance(config, Mapping) else (None, "")
    if options.dtype is not None:
        dtype, dtype_from = options.dtype, "--dtype"
    elif declared is not None:
        dtype, dtype_from = declared, f"the config ({declared_how})"
    else:
        dtype, dtype_from = FIT_DEFAULTS["dtype"], f"default ({declared_how})" if declared_how else "default"
    kv_dtype = dtype if dtype in KV_CACHE_DTYPES else FIT_DEFAULTS["dtype"]
    workload = options.workload if options.workload in ("inference", "training") else FIT_DEFAULTS["workload"]
    training = workload == "training"
    optimizer = options.optimizer or FIT_DEFAULTS["optimizer"]
    batch = options.batch or FIT_DEFAULTS["batch"]
    seq_len = options.seq_len or FIT_DEFAULTS["seq_len"]
    stack = options.stack or FIT_DEFAULTS["stack"]
    document: dict[str, Any] = {
        "estimate": TRAINING_ESTIMATE if training else FIT_ESTIMATE,
        "not_counted": list(TRAINING_NOT_COUNTED if training else FIT_NOT_COUNTED),
        "assumptions": {
            "batch": batch, "batch_from": "--batch" if options.batch else "default",
            "seq_len": seq_len, "seq_len_from": "--seq-len" if options.seq_len else "default",
            "dtype": dtype, "dtype_from": dtype_from, "kv_cache_dtype": kv_dtype,
            "stack": stack, "stack_from": "--stack" if options.stack else
            "default (each instance uses the stack recommended on its hardware, where there is one)",
            "workload": workload, "workload_from": "--workload" if options.workload else "default",
            "optimizer": optimizer if training else None,
            "optimizer_text": OPTIMIZERS[optimizer]["text"] if training else None,
            "margin": MARGIN, "margin_text": MARGIN_TEXT,
        },
        "reserves": [{"name": name, **reserve, "sources": list(reserve["sources"])}
                     for name, reserve in RESERVES.items()],
    }
    if training and not options.batch and not options.seq_len:
        document["assumptions"]["batch_from"] = document["assumptions"]["seq_len_from"] = "default (not used)"
    listed_max = max([min(_tp_cores(i, instances)[0] or 1, MAX_DEGREE)
                      for i in _chosen(instances, options.instance, options.hardware)] or [MAX_DEGREE])
    if pipeline:
        reason = "a diffusers pipeline (model_index.json): its components' configs are not read"
        document.update(parameters=None, parameter_parts=[{"name": "model", "count": None, "reason": reason}],
                        parameter_notes=[], weights_bytes=dict.fromkeys(DTYPE_BYTES),
                        kv_cache_bytes_per_token=dict.fromkeys(DTYPE_BYTES), kv_cache_reason=reason,
                        kv_cache_notes=[], tensor_parallel=dict.fromkeys(stacks),
                        tensor_parallel_rules=_rules(stacks, workload))
        model = Model(None, None, None, None, None, None, False, "the weights could not be counted")
    else:
        model = _read_model(config, document, dtype, kv_dtype, training, optimizer)
        document["tensor_parallel"] = {s: _valid_degrees(s, workload, model, listed_max) if rule_for(s, workload)
                                       else None for s in stacks}
        document["tensor_parallel_rules"] = _rules(stacks, workload)
    recommended = recommended_stacks(verdict)
    names = frozenset(n.casefold() for n in checkpoint_names if n)
    context = _Context(instances, options, workload, optimizer, batch, seq_len, recommended,
                       _sized(configurations or [], family, model.parameters, workload, names), names)
    document["assumptions"]["hardware"] = options.hardware
    document["assumptions"]["degree_order"] = DEGREE_ORDER
    document["instances"] = [_instance_entry(i, context, model)
                             for i in _chosen(instances, options.instance, options.hardware)]
    return document


def _read_model(config: Any, document: dict[str, Any], dtype: str, kv_dtype: str, training: bool,
                optimizer: str) -> Model:
    count = count_parameters(config)
    whole = count.complete and count.total is not None and 0 < count.total <= MAX_EXACT
    document["parameters"] = count.total if whole else None
    document["parameter_parts"] = [{"name": p.name, "count": p.count, "reason": p.reason} for p in count.parts]
    document["parameter_notes"] = list(count.notes)
    if count.complete and not whole:
        document["parameter_notes"].append("the parts add up to zero or to more than 2^53: not a plausible size")
    document["weights_bytes"] = {d: weights_bytes(count, d).bytes if whole else None for d in DTYPE_BYTES}
    model_type = read_str(config, "model_type") if isinstance(config, Mapping) else None
    no_cache = training or model_type in ENCODER_ONLY or model_type in ATTENTION_FREE
    kv = {d: kv_cache_bytes_per_token(config, d) for d in DTYPE_BYTES}
    document["kv_cache_bytes_per_token"] = {d: result.bytes_per_token for d, result in kv.items()}
    document["kv_cache_reason"] = kv[kv_dtype].reason
    document["kv_cache_notes"] = list(kv[kv_dtype].notes)
    degrees = tensor_parallel_degrees(config, 1)
    why = None
    weights = document["weights_bytes"][dtype]
    if weights is None:
        why = "the weights could not be counted (see parameter_parts)"
    elif not no_cache and kv[kv_dtype].bytes_per_token is None:
        why = f"the KV cache could not be counted: {kv[kv_dtype].reason}"
    elif degrees.heads is None:
        why = f"the attention heads could not be read: {degrees.reason}"
    mla = isinstance(config, Mapping) and config.get("kv_lora_rank") is not None
    per_param = None
    if whole and count.total:
        per_param = 4 if training and OPTIMIZERS[optimizer]["fp32_weights"] else (weights or 0) // count.total
    return Model(count.total if whole else None, per_param,
                 0 if no_cache else kv[kv_dtype].bytes_per_token, degrees.heads, degrees.kv_heads,
                 _intermediate(config), not (mla or no_cache), why)


def _intermediate(config: Any) -> int | None:
    if not isinstance(config, Mapping):
        return None
    source = sub_config(config, "text_config") or config
    try:
        return read_int(source, "intermediate_size", "ffn_dim", "n_inner")
    except FieldError:
        return None


@dataclass(frozen=True)
class _Context:
    instances: Mapping[str, Any] | None
    options: FitOptions
    workload: str
    optimizer: str
    batch: int
    seq_len: int
    recommended: dict[tuple[str, str], str]
    tested: list[dict[str, Any]]
    names: frozenset[str]


def _rules(stacks: list[str], workload: str) -> dict[str, dict[str, Any]]:
    rules: dict[str, dict[str, Any]] = {}
    for stack in stacks:
        rule = rule_for(stack, workload)
        said = NOT_RECORDED.get(stack)
        rules[stack] = {**rule, "sources": list(rule["sources"])} if rule else \
            {"rule": None, "text": TP_NOT_RECORDED + (f". {said['text']}" if said else ""),
             "sources": list(said["sources"]) if said else []}
    return rules


def _accepts(rule: str, degree: int, model: Model) -> bool:
    heads, kv = model.heads or 0, model.kv_heads or model.heads or 0
    if rule == "gqa-replicate-or-mha":
        return True  # query heads padded, KV heads replicated or converted to MHA: any degree
    if rule == "heads-split-kv-replicate":
        return heads % degree == 0 and (kv % degree == 0 or degree % kv == 0)
    if rule == "mlp-split-kv-multiplier":
        return model.intermediate is not None and model.intermediate % degree == 0
    return False


def _valid_degrees(stack: str, workload: str, model: Model, max_degree: int) -> list[int] | None:
    """The degrees `stack`'s recorded rule accepts up to `max_degree` (at most MAX_DEGREE); None when not recorded
    or the heads are not readable."""
    rule = rule_for(stack, workload)
    if rule is None or model.heads is None:
        return None
    if rule["rule"] == "mlp-split-kv-multiplier" and model.intermediate is None:
        return None
    return [d for d in range(1, min(max_degree, MAX_DEGREE) + 1) if _accepts(rule["rule"], d, model)]


def _kv_heads_at(rule: str, degree: int, heads: int, kv_heads: int) -> int:
    """KV heads stored across all ranks at `degree` under `rule`."""
    if rule == "heads-split-kv-replicate":
        return kv_heads if kv_heads % degree == 0 else max(kv_heads, degree)
    padded_heads = -(-heads // degree) * degree  # NxD Inference / Optimum Neuron get_shardable_head_counts
    if heads == kv_heads:
        return padded_heads  # MHA: K/V heads padded with the query heads
    if kv_heads >= degree and kv_heads % degree == 0:
        return kv_heads  # they split evenly
    if degree % kv_heads == 0:
        return degree  # REPLICATE_TO_TP_DEGREE: one K/V head per rank
    return padded_heads  # CONVERT_TO_MHA: K/V replicated to the padded query heads


def _chosen(instances: Mapping[str, Any] | None, name: str | None,
            hardware: str | None = None) -> list[dict[str, Any]]:
    listed = list((instances or {}).get("instances", []))
    return [i for i in listed if (name is None or i["name"] == name) and (hardware is None or i["hardware"] == hardware)]


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


def _sized(configurations: list[dict[str, Any]], family: str | None, parameters: int | None,
           workload: str, names: frozenset[str]) -> list[dict[str, Any]]:
    """The configurations of `workload` with a tensor-parallel degree that are of this checkpoint (any of `names`)
    or of `family` at this size (evidence_scope.SIZE_RULE)."""
    found = []
    for item in configurations:
        tensor = (item.get("parallelism") or {}).get("tensor")
        if not isinstance(tensor, int) or isinstance(tensor, bool) or configuration_workload(item)[0] != workload:
            continue
        if of_checkpoint(item, names) or (family is not None and item.get("family") == family
                                          and of_size(item, parameters)):
            found.append(item)
    return found


def _stack_for(instance: Mapping[str, Any], context: _Context) -> tuple[str, str]:
    if context.options.stack:
        return context.options.stack, "--stack"
    recommended = context.recommended.get((context.workload, instance["hardware"]))
    if recommended:
        return recommended, f"recommended for {context.workload} on {instance['hardware']}"
    return FIT_DEFAULTS["stack"] if context.workload == "inference" else FALLBACK_RULE["training"], \
        f"default (no stack recommended for {context.workload} on {instance['hardware']})"


def _instance_entry(instance: Mapping[str, Any], context: _Context, model: Model) -> dict[str, Any]:
    """Fit on one instance: the stack, its rule's degrees, the proposed degree and why, and the memory at it."""
    cores, lnc = _tp_cores(instance, context.instances)
    stack, stack_from = _stack_for(instance, context)
    rule = rule_for(stack, context.workload)
    rule_stack = stack if rule else FALLBACK_RULE[context.workload]
    entry: dict[str, Any] = {
        "name": instance["name"], "hardware": instance["hardware"], "neuron_cores": cores, "lnc": lnc,
        "stack": stack, "stack_from": stack_from, "rule_stack": rule_stack,
        "rule_note": None if rule else f"the {stack} rule is not recorded; degrees and fit below follow "
                                       f"{rule_stack}'s recorded rule, as an indication only",
        "degrees": None, "degree": None, "degree_from": None, "degree_why": None, "tested_configuration": None,
        "estimated_degree": None, "estimated_from": None, "estimated_why": None,
        "fits": None, "within_margin": None, "bytes_needed": None, "bytes_available": None, "headroom_bytes": None,
        "memory_parts": [], "host_memory_gib": instance.get("host_memory_gib"), "reason": None,
    }
    memory = instance.get("device_memory_gib")
    if cores is None or memory is None:
        entry["reason"] = "the instance's NeuronCores or device memory are not recorded"
        return entry
    if model.why is not None:
        entry["reason"] = model.why
        return entry
    valid = _valid_degrees(rule_stack, context.workload, model, cores)
    if valid is None:
        entry["reason"] = "the intermediate size could not be read, so the training rule cannot be applied"
        return entry
    entry["degrees"] = valid
    if not valid:
        entry["reason"] = f"no degree up to its {cores} NeuronCores is valid under {rule_stack}'s rule"
        return entry
    per_core = memory * GIB // cores
    degree, degree_from, why, tested, estimate = _propose(valid, cores, per_core, stack, instance, context, model,
                                                          rule_stack)
    parts = _parts(degree, cores, context, model, rule_stack, stack)
    needed = sum(p["bytes"] for p in parts)
    available = per_core * degree
    if needed > MAX_EXACT:
        entry["reason"] = "above 2^53 bytes: not a plausible size"
        return entry
    entry.update(degree=degree, degree_from=degree_from, degree_why=why, tested_configuration=tested,
                 estimated_degree=estimate[0], estimated_from=estimate[1], estimated_why=estimate[2],
                 fits=needed <= available, within_margin=needed <= available * (1 - MARGIN),
                 bytes_needed=needed, bytes_available=available, headroom_bytes=available - needed,
                 memory_parts=parts)
    if needed > available:
        entry["reason"] = f"does not fit at degree {degree} on its {cores} NeuronCores"
    return entry


def _parts(degree: int, cores: int, context: _Context, model: Model, rule_stack: str,
           stack: str) -> list[dict[str, Any]]:
    """Bytes over the `degree` NeuronCores of one tensor-parallel group, per part."""
    parameters, per_param = model.parameters or 0, model.weight_bytes or 0
    if context.workload != "training":
        kv = 0
        if model.kv_per_token:
            kv = model.kv_per_token
            heads, kv_heads = model.heads or 0, model.kv_heads or 0
            if model.replicated_kv and kv_heads and kv % kv_heads == 0:
                rule = rule_for(rule_stack, "inference")
                kv = kv // kv_heads * _kv_heads_at(rule["rule"] if rule else "", degree, heads, kv_heads)
        return [{"name": "weights", "bytes": parameters * per_param},
                {"name": "kv_cache", "bytes": context.batch * context.seq_len * kv}]
    sharding = TRAINING_SHARDING.get(stack, {})
    replicas = max(cores // degree, 1)  # data-parallel ranks over the instance's cores
    optimizer = OPTIMIZERS[context.optimizer]
    grad_bytes = 4 if sharding.get("fp32_gradients") or optimizer["fp32_weights"] else per_param
    weights, gradients = parameters * per_param, parameters * grad_bytes
    states = parameters * optimizer["state_bytes"]
    if sharding.get("parameter_sharding") == "fsdp":
        weights, gradients = -(-weights // replicas), -(-gradients // replicas)
    if sharding.get("optimizer_sharding") in ("zero-1", "fsdp"):
        states = -(-states // replicas)
    return [{"name": "weights", "bytes": weights}, {"name": "gradients", "bytes": gradients},
            {"name": "optimizer_states", "bytes": states}]


def _documented(item: Mapping[str, Any]) -> bool:
    return item.get("evidence") == "vendor-docs"


def _tested_entry(chosen: Mapping[str, Any], degree: int) -> dict[str, Any]:
    return {"id": chosen.get("id"), "checkpoint": chosen.get("checkpoint"), "stack": chosen.get("stack"),
            "source": (chosen.get("source") or {}).get("url"), "evidence": chosen.get("evidence"),
            "tensor_parallel": degree, "batch_size": chosen.get("batch_size"),
            "sequence_length": chosen.get("sequence_length"), "dtype": chosen.get("dtype")}


def _from_configurations(valid: list[int], cores: int, stack: str, instance: Mapping[str, Any],
                         context: _Context) -> tuple[int, str, str, dict[str, Any]] | None:
    """The degree a configuration uses on this instance: this checkpoint before the family at this size, the stack
    in question before others, then documented before tested (a vendor's page for another stack, years older,
    does not outrank a run of the stack asked about), a named instance first, the smallest degree first."""
    on_instance = [c for c in context.tested if c["parallelism"]["tensor"] <= cores and (
        c.get("instance") == instance["name"]
        or (c.get("instance") is None and c.get("hardware") == instance["hardware"]))]
    if not on_instance:
        return None
    ranked = sorted(on_instance, key=lambda c: (not of_checkpoint(c, context.names), c.get("stack") != stack,
                                                not _documented(c), c.get("instance") is None,
                                                c["parallelism"]["tensor"]))
    chosen = ranked[0]
    degree = chosen["parallelism"]["tensor"]
    this = of_checkpoint(chosen, context.names)
    kind = "documented" if _documented(chosen) else "tested-configuration"
    whose = "this checkpoint" if this else f"the family at this size ({SIZE_RULE})"
    verb = "documents" if _documented(chosen) else "ran"
    where = (f"on {instance['name']}" if chosen.get("instance") else
             f"on {instance['hardware']} (the source names no instance type; this one has the cores it needs)")
    why = (f"{chosen.get('source_file') or 'a source'} {verb} {chosen.get('checkpoint')} at tensor parallelism "
           f"{degree} {where} with {chosen.get('stack')} (of {whose})")
    if degree not in valid:
        why += f"; not among the degrees {stack}'s recorded rule accepts, the source is followed"
    return degree, kind if this else f"{kind}-family-size", why, _tested_entry(chosen, degree)


def _estimate(valid: list[int], cores: int, per_core: int, stack: str, context: _Context, model: Model,
              rule_stack: str) -> tuple[int, str, str]:
    """(degree, how, why) of the estimate: the smallest valid degree that divides the heads within the margin."""
    heads = model.heads or 1
    dividing = [d for d in valid if heads % d == 0]
    for degree in dividing:
        parts = _parts(degree, cores, context, model, rule_stack, stack)
        if sum(p["bytes"] for p in parts) <= per_core * degree * (1 - MARGIN):
            return degree, "smallest-with-margin", (
                f"an estimate: the smallest degree {rule_stack}'s rule accepts that divides the {heads} attention "
                f"heads and leaves {MARGIN:.0%} of device memory for what is not counted")
    largest = (dividing or valid)[-1]
    return largest, "largest-valid", (
        f"an estimate: no degree that divides the {heads} attention heads leaves {MARGIN:.0%} free on its {cores} "
        "NeuronCores: the largest valid one that divides them" if dividing else "an estimate: the largest valid one")


def _propose(valid: list[int], cores: int, per_core: int, stack: str, instance: Mapping[str, Any],
             context: _Context, model: Model, rule_stack: str
             ) -> tuple[int, str, str, dict[str, Any] | None, tuple[int, str, str]]:
    """(degree, degree_from, why, the configuration used or None, the estimate's (degree, how, why))."""
    estimate = _estimate(valid, cores, per_core, stack, context, model, rule_stack)
    if context.options.degree is not None and context.options.degree <= cores:
        return (context.options.degree, "--degree", f"asked for with --degree {context.options.degree}", None,
                estimate)
    found = _from_configurations(valid, cores, stack, instance, context)
    if found is not None:
        return (*found, estimate)
    degree, how, why = estimate
    return degree, how, why + f" (no documented or tested configuration of this checkpoint or size on " \
                              f"{instance['name']})", None, estimate


__all__ = ["TP_RULES", "TRAINING_TP_RULES", "FitOptionError", "FitOptions", "check_options", "fit_document",
           "recommended_stacks"]
