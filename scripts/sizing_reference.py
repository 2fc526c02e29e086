#!/usr/bin/env python3
"""Sizing reference: parameter counts of every registry model type, measured on PyTorch's meta device.

An independent check of ``neuron_compat.sizing`` (which counts from the config alone, with no torch): for each
model type of ``registry/families/*.yaml`` this script takes a real published size (a fixture config of
``tests/sizing/configs`` whose model_type matches, else the configuration class's own defaults, which
transformers documents as a published checkpoint's), builds the model with transformers on the meta device
(no memory, no weights, nothing downloaded), counts its unique parameters, and compares that with
``count_parameters`` of the same config. Where a configuration class leaves unset a field its own model needs to
build (``DEFAULT_FILLS``), the field is filled by the stated rule and the report's ``config`` line says so. The report is ``registry/upstream/sizing-reference.yaml``, written
atomically and sorted (deterministic: no timings); ``tests/sizing/test_sizing_reference.py`` keeps the analytic
count within 0.5% wherever the reference ran.

The model class: the seq2seq head first (an encoder-decoder also has a decoder-only causal LM), then image-text-to-text
(a vision-language model also maps a text-only causal LM, which would leave its vision tower out), causal LM, masked
LM, and the base model, so that an untied output head is counted as the sizing counts it.

Needs the ``probe`` extra (CPU torch, transformers): ``pip install -e '.[probe]'``.

Usage::

    python scripts/sizing_reference.py                  # every registry model type
    python scripts/sizing_reference.py --model-types llama qwen3   # only these (the others are kept)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from datetime import date
from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "src"))

from neuron_compat.sizing import count_parameters

FAMILIES = REPO_ROOT / "registry" / "families"
FIXTURES = REPO_ROOT / "tests" / "sizing" / "configs"
OUTPUT = REPO_ROOT / "registry" / "upstream" / "sizing-reference.yaml"
TOLERANCE = 0.005
"""The largest relative deviation of the analytic count from the reference that still counts as agreeing."""
TIMEOUT_S = 120
HEADS = ("AutoModelForSeq2SeqLM", "AutoModelForSpeechSeq2Seq", "AutoModelForImageTextToText", "AutoModelForCausalLM",
         "AutoModel")


def registry_model_types() -> dict[str, str]:
    """model_type -> family id, from registry/families/*.yaml."""
    found: dict[str, str] = {}
    for path in sorted(FAMILIES.glob("*.yaml")):
        family = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for model_type in family.get("model_types") or []:
            found[str(model_type)] = path.stem
    return found


def fixture_configs() -> dict[str, tuple[str, dict[str, Any]]]:
    """model_type -> (fixture file name, config) for the fixture configs of tests/sizing/configs."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for path in sorted(FIXTURES.glob("*.json")):
        if path.name == "manifest.json":
            continue
        config = json.loads(path.read_text(encoding="utf-8"))
        model_type = config.get("model_type")
        if isinstance(model_type, str) and model_type not in found:
            found[model_type] = (path.name, config)
    return found


def _head_dim(config: Any) -> None:
    config.head_dim = config.hidden_size // config.num_attention_heads


def _kv_heads(config: Any) -> None:
    config.num_key_value_heads = config.num_attention_heads


def _esm_vocab(config: Any) -> None:
    config.vocab_size = 33


def _dbrx_rope(config: Any) -> None:
    config.attn_config.rope_theta = 500000


DEFAULT_FILLS: dict[str, tuple[tuple[str, Any], ...]] = {
    "hunyuan_v1_dense": (("head_dim = hidden_size // num_attention_heads", _head_dim),),
    "hunyuan_v1_moe": (("head_dim = hidden_size // num_attention_heads", _head_dim),),
    "nemotron": (("num_key_value_heads = num_attention_heads (multi-head attention)", _kv_heads),),
    "esm": (("vocab_size = 33 (the ESM tokenizer's vocabulary, as facebook/esm-1b's config sets it)", _esm_vocab),),
    "dbrx": (("attn_config.rope_theta = 500000 (no parameter depends on it)", _dbrx_rope),),
}
"""model_type -> fields its configuration class leaves unset although its modelling code needs them to build,
each filled only when unset, with the rule written into the report's config line."""
MODEL_CLASSES = {"qwen2_5_omni": "Qwen2_5OmniForConditionalGeneration"}
"""model_type -> the class to build when no auto mapping of HEADS has it (transformers maps Qwen2.5-Omni's
composite config to no auto class)."""


def config_label(model_type: str, fixture: tuple[str, dict[str, Any]] | None) -> str:
    if fixture:
        return f"tests/sizing/configs/{fixture[0]}"
    fills = DEFAULT_FILLS.get(model_type, ())
    if fills:
        return "transformers configuration defaults, where unset: " + "; ".join(rule for rule, _ in fills)
    return "transformers configuration defaults"


HEAD_MAPPINGS = {"AutoModelForSeq2SeqLM": "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES",
                 "AutoModelForSpeechSeq2Seq": "MODEL_FOR_SPEECH_SEQ_2_SEQ_MAPPING_NAMES",
                 "AutoModelForCausalLM": "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES",
                 "AutoModelForImageTextToText": "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES",
                 "AutoModel": "MODEL_MAPPING_NAMES"}


def _expected_class(model_type: str, heads: tuple[str, ...]) -> str | None:
    """The class the first head that maps `model_type` builds, from transformers' auto mappings."""
    from transformers.models.auto import modeling_auto

    for head in heads:
        names = getattr(modeling_auto, HEAD_MAPPINGS[head], {})
        if model_type in names and isinstance(names[model_type], str):
            return str(names[model_type])
    return None


def _why(head: str, error: Exception) -> str:
    """The head and its error, with the message's first line unless it is the auto class's list of configs."""
    message = str(error).strip().splitlines()[0][:120] if str(error).strip() else ""
    if not message or message.startswith("Unrecognized configuration class"):
        return f"{head}: {type(error).__name__}"
    return f"{head}: {type(error).__name__} ({message})"


def _measure(model_type: str, fixture: dict[str, Any] | None, queue: Any,
             previous: dict[str, Any] | None = None) -> None:
    """In a child process: build the model on the meta device and count; put the result on `queue`. With
    `previous` (this model type's entry of an earlier report, same transformers), a reference measured for the
    same config and the same model class is reused instead of building the model again."""
    try:
        import torch
        import transformers

        if fixture is not None:
            config = transformers.AutoConfig.for_model(**fixture)
        else:
            config = transformers.AutoConfig.for_model(model_type)
            for _, fill in DEFAULT_FILLS.get(model_type, ()):
                fill(config)
        model = None
        used = None
        errors = []
        heads: tuple[str, ...] = HEADS
        from transformers.models.auto import modeling_auto

        masked = getattr(modeling_auto, "MODEL_FOR_MASKED_LM_MAPPING_NAMES", {})
        seq2seq = getattr(modeling_auto, "MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES", {})
        if config.model_type in masked and config.model_type not in seq2seq:
            heads = ("AutoModel",)  # encoder-only: the bare encoder (with pooler)
        expected = _expected_class(config.model_type, heads)
        if previous and previous.get("reference") and expected and previous.get("model_class") == expected \
                and previous.get("config") == ("transformers configuration defaults" if fixture is None else
                                               previous.get("config")):
            queue.put({"status": "measured", "reference": int(previous["reference"]), "model_class": expected,
                       "head": None, "config": config.to_dict()})
            return
        for head in heads:
            auto = getattr(transformers, head, None)
            if auto is None:
                continue
            try:
                with torch.device("meta"):
                    model = auto.from_config(config)
                used = head
                break
            except Exception as error:  # noqa: BLE001 - the next head is tried; the last error is reported
                errors.append(_why(head, error))
        if model is None and model_type in MODEL_CLASSES:
            try:
                with torch.device("meta"):
                    model = getattr(transformers, MODEL_CLASSES[model_type])._from_config(config)
                used = MODEL_CLASSES[model_type]
            except Exception as error:  # noqa: BLE001 - reported as the reason below
                errors.append(_why(MODEL_CLASSES[model_type], error))
        if model is None:
            queue.put({"status": "reference-failed", "reason": "; ".join(errors)[:600]})
            return
        reference = sum(p.numel() for p in model.parameters())
        config_dict = config.to_dict()
        queue.put({"status": "measured", "reference": int(reference), "model_class": type(model).__name__,
                   "head": used, "config": config_dict})
    except Exception as error:  # noqa: BLE001 - any failure is the model type's reason, never the run's
        queue.put({"status": "reference-failed", "reason": f"{type(error).__name__}: {str(error)[:240]}"})


def measure(model_type: str, fixture: dict[str, Any] | None, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_measure, args=(model_type, fixture, queue, previous))
    child.start()
    try:
        result: dict[str, Any] = queue.get(timeout=TIMEOUT_S)
    except Exception:  # noqa: BLE001 - queue.Empty: the child hung or died
        result = {"status": "reference-failed", "reason": f"no result within {TIMEOUT_S} s"}
    child.join(5)
    if child.is_alive():
        child.kill()
    return result


def compare(model_type: str, family: str, fixture: tuple[str, dict[str, Any]] | None,
            previous: dict[str, Any] | None = None) -> dict[str, Any]:
    measured = measure(model_type, fixture[1] if fixture else None, previous)
    entry: dict[str, Any] = {"family": family, "config": config_label(model_type, fixture)}
    if measured["status"] != "measured":
        entry.update(status="reference-failed", reason=measured["reason"])
        return entry
    entry.update(reference=measured["reference"], model_class=measured["model_class"],
                 config_fields=json.loads(json.dumps(measured["config"], sort_keys=True, default=str)))
    return recount(entry)


def recount(entry: dict[str, Any]) -> dict[str, Any]:
    """The analytic side of a measured entry, from the config it stores (no torch needed)."""
    for key in ("analytic", "deviation", "reason"):
        entry.pop(key, None)
    reference = entry["reference"]
    count = count_parameters(entry["config_fields"])
    if not count.complete or count.total is None:
        missing = [f"{p.name}: {p.reason}" for p in count.parts if p.count is None]
        entry.update(status="not-counted", analytic=None, reason="; ".join(missing)[:300])
        return entry
    deviation = (count.total - reference) / reference if reference else None
    entry.update(analytic=count.total, deviation=None if deviation is None else round(deviation, 6))
    agrees = deviation is not None and abs(deviation) <= TOLERANCE
    entry["status"] = "agrees" if agrees else "deviates"
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-types", nargs="+", metavar="TYPE", help="measure only these model types")
    parser.add_argument("--reuse", type=Path, metavar="REPORT",
                        help="an earlier report (same transformers): reuse its reference where the config and model "
                        "class are the same, building only the others")
    parser.add_argument("--recount", action="store_true",
                        help="redo only the analytic side from the configs the report stores (no torch needed)")
    args = parser.parse_args(argv)
    if args.recount:
        report = yaml.safe_load(OUTPUT.read_text(encoding="utf-8"))
        for entry in report["model_types"].values():
            if "config_fields" in entry:
                recount(entry)
        report["summary"] = summarise(report["model_types"], len(registry_model_types()))
        write(report)
        print(json.dumps(report["summary"]), file=sys.stderr)
        return 0
    import torch
    import transformers

    model_types = registry_model_types()
    unknown = sorted(set(args.model_types or []) - set(model_types))
    if unknown:
        print(f"sizing_reference: not registry model types: {', '.join(unknown)}", file=sys.stderr)
        return 2
    previous: dict[str, Any] = {}
    if args.model_types and OUTPUT.exists():
        previous = (yaml.safe_load(OUTPUT.read_text(encoding="utf-8")) or {}).get("model_types") or {}
    fixtures = fixture_configs()
    results = {k: v for k, v in previous.items() if k in model_types}
    earlier: dict[str, Any] = {}
    if args.reuse is not None:
        old = yaml.safe_load(args.reuse.read_text(encoding="utf-8")) or {}
        if old.get("transformers_version") == str(transformers.__version__):
            earlier = old.get("model_types") or {}
    for model_type in sorted(args.model_types or model_types):
        results[model_type] = compare(model_type, model_types[model_type], fixtures.get(model_type),
                                      earlier.get(model_type))
        print(f"{model_type}: {results[model_type]['status']}", file=sys.stderr, flush=True)
    report = {
        "description": "Parameter counts of the registry's model types measured on PyTorch's meta device "
                       "(transformers, no weights) and compared with neuron_compat.sizing's analytic count of "
                       "the same config.",
        "generated_by": "scripts/sizing_reference.py",
        "taken": date.today().isoformat(),
        "torch_version": str(torch.__version__),
        "transformers_version": str(transformers.__version__),
        "tolerance": TOLERANCE,
        "summary": summarise(results, len(model_types)),
        "model_types": dict(sorted(results.items())),
    }
    write(report)
    print(json.dumps(report["summary"]), file=sys.stderr)
    return 0


def summarise(results: dict[str, Any], total: int) -> dict[str, Any]:
    """Coverage: the share of the registry's model types whose analytic count agrees with the reference."""
    agreeing = sum(1 for r in results.values() if r["status"] == "agrees")
    measured = [r for r in results.values() if r.get("deviation") is not None]
    worst = max(measured, key=lambda r: abs(r["deviation"]), default=None)
    return {
        "model_types": total,
        "agrees": agreeing,
        "coverage": round(agreeing / total, 4) if total else None,
        "deviates": sum(1 for r in results.values() if r["status"] == "deviates"),
        "not_counted": sum(1 for r in results.values() if r["status"] == "not-counted"),
        "reference_failed": sum(1 for r in results.values() if r["status"] == "reference-failed"),
        "worst_deviation": None if worst is None else worst["deviation"],
    }


def write(report: dict[str, Any]) -> None:
    text = ("# Generated by scripts/sizing_reference.py. Do not edit by hand.\n"
            + yaml.safe_dump(report, sort_keys=False, allow_unicode=True, width=120))
    temporary = OUTPUT.with_suffix(".yaml.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(OUTPUT)


if __name__ == "__main__":
    sys.exit(main())
