"""The JSON Schema of `check --json`'s `fit` object (check/fit.py), from pydantic models of its shape."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FitAssumptions(_Shape):
    batch: int = Field(description="Batch size of the KV-cache estimate.")
    batch_from: str = Field(description="'--batch' or 'default'.")
    seq_len: int = Field(description="Tokens per sequence of the KV-cache estimate.")
    seq_len_from: str = Field(description="'--seq-len' or 'default'.")
    dtype: str = Field(description="The weight dtype the instance fit uses.")
    dtype_from: str = Field(description="Where the dtype comes from: --dtype, the config (and how), or the default.")
    kv_cache_dtype: str = Field(description="The KV cache's dtype (the weights', or bf16 for int8/int4 weights).")
    stack: str = Field(description="--stack, or the default used where no stack is recommended on an instance's "
                       "hardware (each instance entry names its own stack).")
    stack_from: str = Field(description="'--stack' or 'default (...)'.")
    workload: str = Field(description="inference or training (--workload, default inference).")
    workload_from: str = Field(description="'--workload' or 'default'.")
    optimizer: str | None = Field(description="Training only: the optimizer assumed (--optimizer, default "
                                  "adamw-mixed); null for inference.")
    optimizer_text: str | None = Field(description="What that optimizer assumption holds in memory.")
    margin: float = Field(description="Share of device memory the proposed degree leaves for what is not counted.")
    margin_text: str = Field(description="The margin in words (a chosen figure, not a sourced one).")
    hardware: str | None = Field(description="--hardware: only that hardware's instances are listed (null: all).")
    degree_order: list[str] = Field(description="How the proposed degree is chosen, first match wins.")


class FitPart(_Shape):
    name: str = Field(description="The part of the model (embeddings, attention, mlp, experts, vision.encoder ...).")
    count: int | None = Field(description="Its parameters, or null when it could not be counted.")
    reason: str | None = Field(description="Why it was not counted (null when counted).")


class TensorParallelRule(_Shape):
    rule: str | None = Field(description="The rule's id, or null when the stack's rule is not recorded.")
    text: str = Field(description="The rule in words, or that it is not recorded.")
    sources: list[str] = Field(description="Where the rule is documented (a docs page, a source file at a tag).")


class Reserve(_Shape):
    name: str = Field(description="runtime_per_core (device memory the Neuron runtime holds per NeuronCore) or "
                      "host_memory (to compile or load).")
    bytes: int | None = Field(description="The figure a source states, or null when no source states one.")
    text: str = Field(description="What the sources say, and whether fit subtracts it.")
    sources: list[str] = Field(description="Where.")


class MemoryPart(_Shape):
    name: str = Field(description="weights, kv_cache (inference); weights, gradients, optimizer_states (training).")
    bytes: int = Field(description="Bytes over the `degree` NeuronCores of one tensor-parallel group.")


class TestedDegree(_Shape):
    id: str | None = Field(description="The tested configuration's id.")
    checkpoint: str | None = Field(description="Its checkpoint.")
    stack: str | None = Field(description="Its stack.")
    source: str | None = Field(description="Its source URL (the line that states it).")
    evidence: str | None = Field(description="Its evidence kind: vendor-docs for a documented configuration.")
    tensor_parallel: int = Field(description="The degree it uses.")
    batch_size: int | None = Field(description="Its batch size, where stated.")
    sequence_length: int | None = Field(description="Its sequence length, where stated.")
    dtype: str | None = Field(description="Its dtype, where stated.")


class InstanceFit(_Shape):
    name: str = Field(description="The instance type.")
    hardware: str = Field(description="Its hardware generation.")
    neuron_cores: int | None = Field(description="NeuronCores tensor parallelism runs over (logical at the default "
                                     "LNC setting where documented), or null when unknown.")
    lnc: int | None = Field(description="The LNC setting of those cores, or null when LNC is not documented.")
    stack: str = Field(description="The stack this instance's fit is for: --stack, else the one the answer "
                       "recommends on its hardware for the workload, else the default.")
    stack_from: str = Field(description="Where the stack comes from.")
    rule_stack: str = Field(description="The stack whose recorded tensor-parallel rule was applied: `stack`, or, "
                            "when its rule is not recorded, a recorded rule's stack (see rule_note).")
    rule_note: str | None = Field(description="Says the stack's rule is not recorded and whose rule is shown "
                                  "instead; null when the stack's own rule was applied.")
    degrees: list[int] | None = Field(description="Valid degrees under rule_stack's rule, never more than the "
                                      "instance's NeuronCores at its LNC setting (nor 128).")
    degree: int | None = Field(description="The proposed degree (see degree_from).")
    degree_from: str | None = Field(description="'--degree'; 'documented' (a vendor documents this checkpoint at "
                                    "it on this instance) or 'documented-family-size' (another checkpoint of the "
                                    "family at this size); 'tested-configuration' or 'tested-configuration-family-"
                                    "size' (a run of either uses it there); else the estimate's "
                                    "'smallest-with-margin' or 'largest-valid'.")
    degree_why: str | None = Field(description="Why this degree, in words.")
    tested_configuration: TestedDegree | None = Field(description="The documented or tested configuration the "
                                                      "degree comes from.")
    estimated_degree: int | None = Field(description="The estimate's degree (the smallest valid degree dividing the "
                                         "heads within the margin), shown after a documented one.")
    estimated_from: str | None = Field(description="'smallest-with-margin' or 'largest-valid'.")
    estimated_why: str | None = Field(description="The estimate in words; it says it is one.")
    fits: bool | None = Field(description="Whether the counted memory fits at that degree; null when not worked out.")
    within_margin: bool | None = Field(description="Whether it fits leaving `margin` free.")
    memory_parts: list[MemoryPart] = Field(description="The counted memory per part at `degree`.")
    host_memory_gib: int | float | None = Field(description="The instance's host memory (not checked: see reserves).")
    bytes_needed: int | None = Field(description="The sum of memory_parts (KV cache with the rule's KV-head "
                                     "replication; training states sharded as the stack's recipes do), bytes.")
    bytes_available: int | None = Field(description="Device memory of `degree` NeuronCores, bytes.")
    headroom_bytes: int | None = Field(description="bytes_available - bytes_needed (negative: does not fit).")
    reason: str | None = Field(description="Why fits is null or false.")


class Fit(_Shape):
    """`fit`: parameters, bytes and tensor-parallel degrees computed from the config, and per instance whether
    weights + KV cache fit in device memory. An estimate: `not_counted` lists what it leaves out."""

    estimate: str = Field(description="What the estimate is.")
    not_counted: list[str] = Field(description="What the estimate does not count.")
    assumptions: FitAssumptions = Field(description="Batch, sequence length, dtype and stack used, and their origin.")
    parameters: int | None = Field(description="Total parameters, or null when some part could not be counted.")
    parameter_parts: list[FitPart] = Field(description="The count per part, with the reason for each part not counted.")
    parameter_notes: list[str] = Field(description="Assumptions made and things knowingly left out of the count.")
    weights_bytes: dict[str, int | None] = Field(description="dtype -> bytes of the weights (null: not all counted).")
    kv_cache_bytes_per_token: dict[str, int | None] = Field(
        description="dtype -> KV-cache bytes per token over all layers (null: no cache, or not countable).")
    kv_cache_reason: str | None = Field(description="Why the KV cache at the assumed dtype is null.")
    kv_cache_notes: list[str] = Field(description="Sliding windows, MLA latents, cross-attention.")
    tensor_parallel: dict[str, list[int] | None] = Field(
        description="stack -> the degrees its documented rule accepts (up to the most NeuronCores of any instance); "
        "null when the rule is not recorded or the heads cannot be read.")
    tensor_parallel_rules: dict[str, TensorParallelRule] = Field(description="stack -> its rule and sources.")
    reserves: list[Reserve] = Field(description="Runtime and host-memory reserves: a source's figure or null.")
    instances: list[InstanceFit] = Field(description="One entry per instance (or the --instance one).")


def fit_json_schema() -> dict[str, Any]:
    return Fit.model_json_schema()
