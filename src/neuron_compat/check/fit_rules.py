"""The facts fit applies, each with where it is written: each stack's tensor-parallel sharding rule (per workload),
how a stack's training recipes shard weights, gradients and optimizer states, the optimizer assumptions, and the
reserves (runtime device memory, host memory to compile) that sources state, or that none does.

Data only, cited; check/fit.py computes with it. A stack missing here is "not recorded", never guessed.
"""

from __future__ import annotations

from typing import Any

_NXDI_GQA = ("https://github.com/aws-neuron/neuronx-distributed-inference/blob/v0.7.14366/src/"
             "neuronx_distributed_inference/modules/attention/gqa.py#L84-L125")
_OPTIMUM = "https://github.com/huggingface/optimum-neuron/blob/v0.4.5/optimum/neuron/"
_SDK = "https://github.com/aws-neuron/aws-neuron-sdk/blob/v2.32.0/"

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
            _NXDI_GQA,
        ],
    },
    "optimum-neuron": {
        "rule": "gqa-replicate-or-mha",
        "text": "Optimum Neuron's decoder backend shards attention as NxD Inference does (its gqa.py is adapted from "
                "it): any degree, query heads padded to a multiple of the degree, KV heads split when the degree "
                "divides them, one replicated KV head per rank when the degree is a multiple of them "
                "(REPLICATE_TO_TP_DEGREE), K/V converted to MHA otherwise.",
        "sources": [_OPTIMUM + "models/inference/backend/modules/attention/gqa.py#L58-L81"],
    },
    "vllm-neuron": {
        "rule": "heads-split-kv-replicate",
        "text": "The attention heads are divided over the degree (each rank holds heads / degree query heads); KV "
                "heads split evenly when the degree divides them, and when the degree exceeds them each rank "
                "holds one replicated KV head (heads_per_rank = max(1, kv_heads // degree)), so the degree is a "
                "divisor of the query heads and a divisor or multiple of the KV heads. The degree counts logical "
                "NeuronCores.",
        "sources": [
            _SDK + "vllm-neuron/docs/design/parallelism/tensor_parallelism.md#L61-L75",
            _SDK + "vllm-neuron/docs/design/accuracy/kv_cache_analysis_design.md#L117",
            _SDK + "vllm-neuron/docs/design/framework/model_bringup.md#L106",
        ],
    },
}
"""Inference: stacks whose tensor-parallel sharding rule a source documents, with the rule and where."""

TRAINING_TP_RULES: dict[str, dict[str, Any]] = {
    "optimum-neuron": {
        "rule": "mlp-split-kv-multiplier",
        "text": "Training (Optimum Neuron's Llama-style modeling): the MLP's intermediate size must divide by the "
                "degree; KV heads fewer than the degree, or not divisible by it, are replicated "
                "(kv_size_multiplier) through a fused GQA QKV projection.",
        "sources": [_OPTIMUM + "models/training/llama/modeling_llama.py#L185-L190",
                    _OPTIMUM + "models/training/llama/modeling_llama.py#L315-L323"],
    },
}
"""Training: stacks whose tensor-parallel rule for training a source documents."""

NOT_RECORDED: dict[str, dict[str, Any]] = {
    "torchneuron": {
        "text": "TorchNeuron runs PyTorch's own tensor parallelism (DTensor) and FSDP over NeuronCores; its docs give "
                "no head-divisibility rule of their own, only that the NeuronCores used for sharding are configured.",
        "sources": [_SDK + "frameworks/torch/pytorch-native-overview.rst#L59-L66",
                    _SDK + "frameworks/torch/pytorch-native-overview.rst#L107-L108"],
    },
}
"""Stacks whose rule is not recorded, with what their docs do say (shown with "rule not recorded")."""

FALLBACK_RULE = {"inference": "nxd-inference", "training": "optimum-neuron"}
"""The recorded rule whose degrees are shown, labelled as such, when the stack in question has none recorded."""

TRAINING_SHARDING: dict[str, dict[str, Any]] = {
    "optimum-neuron": {
        "optimizer_sharding": "zero-1",
        "parameter_sharding": "tensor-parallel",
        "fp32_gradients": True,
        "text": "Optimum Neuron's trainer: ZeRO-1 on by default (optimizer states sharded over the data-parallel "
                "ranks), fp32 master weights and fp32 gradient accumulation on by default with bf16 and ZeRO-1; "
                "weights and gradients sharded by tensor parallelism.",
        "sources": [_OPTIMUM + "trainers/training_args.py#L325",
                    _OPTIMUM + "trainers/training_args.py#L330-L350"],
    },
    "torchneuron": {
        "optimizer_sharding": "fsdp",
        "parameter_sharding": "fsdp",
        "fp32_gradients": False,
        "text": "TorchNeuron: PyTorch FSDP (weights, gradients and optimizer states sharded over all ranks) and "
                "tensor parallelism, with no code changes beyond the sharding configuration.",
        "sources": [_SDK + "frameworks/torch/pytorch-native-overview.rst#L59-L66",
                    _SDK + "frameworks/torch/pytorch-native-overview.rst#L107-L108"],
    },
}
"""How a stack's training recipes shard: other stacks are taken as tensor parallelism alone (said so)."""

OPTIMIZERS: dict[str, dict[str, Any]] = {
    "adamw-mixed": {"state_bytes": 12, "fp32_weights": False,
                    "text": "mixed-precision AdamW: weights in the model dtype, fp32 master weights and two fp32 "
                            "moments (12 bytes of optimizer state per parameter)"},
    "adamw-fp32": {"state_bytes": 8, "fp32_weights": True,
                   "text": "fp32 AdamW: fp32 weights and gradients, two fp32 moments (8 bytes per parameter)"},
    "sgd": {"state_bytes": 0, "fp32_weights": False,
            "text": "SGD without momentum: no optimizer state"},
}
"""--optimizer values: bytes of optimizer state per parameter and whether the weights are held in fp32."""
DEFAULT_OPTIMIZER = "adamw-mixed"

RESERVES: dict[str, dict[str, Any]] = {
    "runtime_per_core": {
        "bytes": None,
        "text": "No Neuron source states a fixed device-memory reserve per NeuronCore for the runtime; it is not "
                "subtracted. One public report lists what the runtime held beside the tensors on one Inf2 core "
                "(512 MB shared scratchpad, 518 MB collectives, 6.5 GB DMA rings at batch 4 x 1,024 tokens): "
                "model-dependent figures, not a reserve.",
        "sources": ["https://github.com/aws-neuron/transformers-neuronx/issues/49"],
    },
    "host_memory": {
        "bytes": None,
        "text": "No Neuron source states the host memory needed to compile or load a model; it is not checked. A "
                "public report shows Llama-3.1-8B's compilation killed on trn1.2xlarge (32 GiB host memory).",
        "sources": ["https://github.com/aws-neuron/aws-neuron-sdk/issues/1222"],
    },
}
"""Reserves with a source's figure (bytes) or, where none gives one, null and what the sources do show."""

MARGIN = 0.10
"""The share of each NeuronCore's device memory the proposed degree leaves free for what fit does not count
(activations, runtime buffers). A chosen figure, not a sourced one: the rows say so."""
MARGIN_TEXT = (f"{MARGIN:.0%} of device memory for what is not counted (a chosen margin, not a sourced "
               "figure)")


def rule_for(stack: str, workload: str) -> dict[str, Any] | None:
    """The recorded tensor-parallel rule of `stack` for `workload`, or None."""
    return (TRAINING_TP_RULES if workload == "training" else TP_RULES).get(stack)
