#!/usr/bin/env python3
"""Harvest the configurations the NxD Inference model cards document (a checkpoint on an instance, with its
neuron_config and vLLM settings) as tested configurations of kind vendor-docs.

Reads ``libraries/nxd-inference/models/*/data/card_*.yml`` of github.com/aws-neuron/aws-neuron-sdk at one tag of a
local mirror (``--mirror``; ``fetch`` gives one). Each ``configurations.<name>`` of a card becomes one configuration
on its ``instance_type``, with the tensor-parallel degree (``neuron.tp_degree``), expert-parallel degree
(``moe_ep_degree``), LNC (``logical_nc_config``), batch, sequence length and dtype, and a recipe: the settings that
shape the run. A card states no run result and names an SDK minor version (``sdk_version: "2.27"``), not a release:
the outcome is ``unknown`` and the release null, with the card's words in the notes. Writes
``registry/configurations/nxdi-model-cards.yaml``.

Usage::

    python scripts/harvest_nxdi_model_cards.py --mirror /work/.mirror/aws-neuron+aws-neuron-sdk/repo --revision v2.32.0
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from pathlib import Path
from typing import Any

import yaml
from harvesters.harvest_script import configurations_file, header, resolve_commit, run, show, tree_paths

REPO_ROOT = Path(__file__).resolve().parent.parent
REGISTRY = REPO_ROOT / "registry"
OUTPUT = REGISTRY / "configurations" / "nxdi-model-cards.yaml"
SCRIPT = "scripts/harvest_nxdi_model_cards.py"
REPOSITORY = "https://github.com/aws-neuron/aws-neuron-sdk"
CARDS = "libraries/nxd-inference/models"
HEADER = header(SCRIPT, "the NxD Inference model cards")
DESCRIPTION = (
    "The NxD Inference model cards in the Neuron documentation source (`libraries/nxd-inference/models/*/data/"
    "card_*.yml`): each configuration a card documents for a checkpoint on an instance type, with its neuron_config "
    "and vLLM settings. A card states no run result and names an SDK minor version rather than a release, so the "
    "outcome is unknown and the release null; the card's own words are in the notes.")
FAMILIES: dict[str, str | tuple[str, str]] = {"Llama 3": "llama", "Qwen3": ("qwen3_moe", "qwen3")}
"""A card's `model.family` -> the family id (Qwen3 cards: qwen3_moe when the checkpoint names active parameters)."""
DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}
SETTINGS = ("tp_degree", "attention_dp_degree", "cp_degree", "moe_tp_degree", "moe_ep_degree", "batch_size",
            "ctx_batch_size", "seq_len", "max_context_length", "torch_dtype", "logical_nc_config",
            "sequence_parallel_enabled", "is_continuous_batching", "fused_qkv", "attn_kernel_enabled",
            "qkv_kernel_enabled", "mlp_kernel_enabled", "flash_decoding_enabled", "enable_bucketing")
VLLM_SETTINGS = ("tensor_parallel_size", "max_num_seqs", "max_model_len")


def _family(card_family: str, checkpoint: str) -> str | None:
    found = FAMILIES.get(card_family)
    if isinstance(found, tuple):
        return found[0] if re.search(r"-A[0-9]+B", checkpoint) else found[1]
    return found


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() == f"{key}:":
            return number
    return 1


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def card_entries(path: str, text: str, commit: str) -> tuple[list[dict[str, Any]], list[str]]:
    card = yaml.safe_load(text) or {}
    model = card.get("model") or {}
    checkpoint = str(model.get("checkpoint") or "")
    family = _family(str(model.get("family") or ""), checkpoint)
    if not checkpoint or family is None:
        return [], [f"no checkpoint, or the family '{model.get('family')}' is not mapped"]
    defaults = {str(v.get("config")) for v in (card.get("defaults") or {}).values() if isinstance(v, dict)}
    roles = {str(v.get("config")): role for role, v in (card.get("recommendations") or {}).items() if isinstance(v, dict)}
    entries = []
    for name, config in (card.get("configurations") or {}).items():
        neuron = config.get("neuron") or {}
        vllm = config.get("vllm") or {}
        settings = {key: _text(neuron[key]) for key in SETTINGS if key in neuron}
        settings.update({f"vllm_{key}": _text(vllm[key]) for key in VLLM_SETTINGS if key in vllm})
        if "dp_degree" in config:
            settings["dp_degree"] = _text(config["dp_degree"])
        lnc = neuron.get("logical_nc_config")
        notes = [f"The card gives sdk_version '{config.get('sdk_version')}' (a minor version, not a release)."]
        if name in defaults:
            notes.append(f"The card's default configuration for {config.get('instance_type')}.")
        if name in roles:
            notes.append(f"The card recommends it for {roles[name].lower()}.")
        notes.append("The card documents the configuration; it states no run result.")
        slug = re.sub(r"[^a-z0-9]+", "-", checkpoint.split("/")[-1].lower()).strip("-")
        entries.append({
            "id": f"nxdi-card-{slug}-{name}"[:64],
            "family": family, "checkpoint": checkpoint, "hub_id": checkpoint, "stack": "nxd-inference",
            "release": None, "instance": config.get("instance_type"), "workload": "inference",
            "parallelism": {k: v for k, v in (("tensor", neuron.get("tp_degree")),
                                               ("expert", neuron.get("moe_ep_degree")),
                                               ("logical_neuron_cores", lnc)) if isinstance(v, int)},
            "batch_size": neuron.get("batch_size"), "sequence_length": neuron.get("seq_len"),
            "dtype": DTYPES.get(str(neuron.get("torch_dtype"))), "outcome": "unknown", "validated": None,
            "source": {"url": f"{REPOSITORY}/blob/{commit}/{path}#L{_line_of(text, name)}",
                       "title": f"NxD Inference model card {model.get('display_name') or checkpoint} ({name})"},
            "evidence": "vendor-docs",
            "recipe": {"settings": settings},
            "notes": notes,
        })
    return entries, []


def harvest(mirror: Path, revision: str, today: dt.date) -> dict[str, Any]:
    commit = resolve_commit(mirror, revision)
    listing = tree_paths(mirror, revision, CARDS, recursive=True)
    configurations: list[dict[str, Any]] = []
    not_recorded: list[dict[str, str]] = []
    for path in sorted(p for p in listing if re.search(r"/data/card_[^/]+\.ya?ml$", p)):
        text, why_not = show(mirror, revision, path)
        if text is None:
            not_recorded.append({"path": path, "reason": str(why_not)[:200]})
            continue
        entries, reasons = card_entries(path, text, commit)
        configurations.extend(entries)
        not_recorded.extend({"path": path, "reason": reason} for reason in reasons)
    return configurations_file("nxdi-model-cards", DESCRIPTION, SCRIPT, REPOSITORY, f"{revision} ({commit})", today,
                               configurations, not_recorded)


def main(argv: list[str] | None = None) -> int:
    return run(argv, doc=__doc__, mirror_help="the git directory of an aws-neuron-sdk mirror or clone (fetch's path)",
               revision_example="v2.32.0", output=OUTPUT, script=SCRIPT, file_header=HEADER, harvest=harvest)


if __name__ == "__main__":
    sys.exit(main())
