#!/usr/bin/env python3
"""Portability probe: capture tiny random-initialised models of every registry model type on the CPU, per workload.

Machine evidence beside the support claims, never a support statement, and not a compile on Neuron. For each
model type of ``registry/families/*.yaml`` the script builds the architecture's real configuration class made
tiny (``probe_harness.tiny``), picks its task head (causal LM, seq2seq, speech seq2seq, masked LM, image
classification, CTC, image-text-to-text; the base model otherwise) and captures the workloads a Neuron stack
compiles (``probe_harness.workloads``):

* decoders: ``prefill`` and ``decode`` through transformers' static-cache export wrapper, at two lengths;
* encoders, encoder-decoders, vision and audio models: ``forward`` with the task's inputs;
* every model: ``train``, forward + loss + backward in train mode through AOT autograd;
* mixture-of-experts models again with ``experts_implementation="eager"`` (routing in the graph).

Each workload gets torch.export's outcome, dynamo's graphs and breaks, node counts per length (growth with the
length means an unrolled loop), and its operators grouped against torch-xla's lowering list
(``registry/upstream/torch-xla-lowerings.yaml``). Every workload runs in a forked child with a timeout and
an address-space cap; a model type's results are appended to ``--cache`` so an interrupted run resumes.
Writes ``registry/upstream/probe.yaml`` atomically (deterministic: sorted, no timings).

Needs the ``probe`` extra (CPU torch, transformers): ``pip install -e '.[probe]'``.

Usage::

    python scripts/probe.py                        # every registry model type (resumes from --cache)
    python scripts/probe.py --model-types gpt2 bert  # probe these again; probe.yaml keeps every other model type
    python scripts/probe.py --render-only          # rewrite probe.yaml from the cache
    python scripts/probe.py --retry                # probe again what failed or timed out
    python scripts/probe.py --check                # fail if probe.yaml differs from a fresh run
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from probe_harness.capture import error_text, warm_up
from probe_harness.isolate import run_isolated
from probe_harness.render import render

from neuron_compat.contributing.upstream_snapshot import write_or_check
from neuron_compat.safeio.option_values import OptionValueError, argparse_type, decimal

REPO_ROOT = Path(__file__).resolve().parent.parent
OUTPUT = REPO_ROOT / "registry" / "upstream" / "probe.yaml"
LOWERINGS = REPO_ROOT / "registry" / "upstream" / "torch-xla-lowerings.yaml"
FAMILIES = REPO_ROOT / "registry" / "families"
CACHE = REPO_ROOT / "build" / "probe-cache.jsonl"
HARNESS = "2"
"""Bumped when the captures change: cached results of another harness are probed again."""
KNOWN_TRANSFORMERS = "5.25.0"
RETRIED = ("not_built", "timeout", "memory", "crashed", "harness_error")
"""Outcomes --retry probes again: the run's limits, the harness, or a build the tiny config may now fix."""


def registry_model_types() -> dict[str, str]:
    """model_type -> family id, from registry/families/*.yaml."""
    found: dict[str, str] = {}
    for path in sorted(FAMILIES.glob("*.yaml")):
        family = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for model_type in family.get("model_types") or []:
            found.setdefault(model_type, path.stem)
    return dict(sorted(found.items()))


def plan(model_type: str) -> dict[str, Any]:
    """kind, auto class and workloads of a model type, or why it cannot be probed (unknown to transformers)."""
    from probe_harness.workloads import is_moe, kind_of, tiny_config, workloads_of

    try:
        config, _ = tiny_config(model_type, use_cache=False)
    except Exception as exc:  # noqa: BLE001 - recorded as the model type's outcome
        import transformers

        return {"built": False, "reason": f"transformers {transformers.__version__} cannot build the config tiny: "
                                          f"{error_text(exc)}"}
    kind, auto_class = kind_of(model_type)
    return {"built": True, "kind": kind, "auto_class": auto_class, "workload_order": workloads_of(kind, is_moe(config))}


def probe_model(model_type: str, timeout: float, memory_gb: float) -> dict[str, Any]:
    """Every workload of one model type, each in its own isolated child."""
    from probe_harness.runner import run_workload

    planned = run_isolated(lambda: plan(model_type), timeout, memory_gb)
    if "built" not in planned:  # the plan itself timed out or crashed
        return {"model_type": model_type, "built": False, "reason": planned.get("error", "not built")}
    result = {"model_type": model_type, **planned, "workloads": {}}
    if not planned["built"]:
        return result
    preload(model_type, planned["auto_class"])
    for workload in planned["workload_order"]:
        def job(name: str = workload) -> dict[str, Any]:
            return run_workload(model_type, planned["kind"], planned["auto_class"], name)
        began = time.monotonic()
        result["workloads"][workload] = {"workload": workload, **run_isolated(job, timeout, memory_gb)}
        print(f"  {model_type} {workload}: {result['workloads'][workload].get('outcome')} "
              f"({time.monotonic() - began:.1f} s)", file=sys.stderr, flush=True)
    return result


def preload(model_type: str, auto_class: str) -> None:
    """Import the model type's modeling module in the parent, so each workload's forked child starts with it."""
    import transformers
    from probe_harness.workloads import BASE, KINDS
    from transformers.models.auto import modeling_auto

    mapping = next((m for _, m, cls in (*KINDS, BASE) if cls == auto_class), None)
    class_name = getattr(modeling_auto, mapping or "", {}).get(model_type)
    try:
        if isinstance(class_name, str):
            getattr(transformers, class_name)
    except Exception:  # noqa: BLE001 - only a head start: the child imports it again and records the error
        pass


def failed(result: dict[str, Any]) -> bool:
    """Not built, or a workload that did not run to its end (what --retry probes again)."""
    if not result.get("built"):
        return True
    if any(w.get("outcome") in RETRIED for w in result["workloads"].values()):
        return True
    return stale(result)


def stale(result: dict[str, Any]) -> bool:
    """Made with another revision of the tiny config than the one probe_harness.tiny sets now."""
    from probe_harness.tiny import tiny_overrides

    recorded = next((w["config"] for w in result["workloads"].values() if "config" in w), None)
    try:
        return recorded is not None and json.loads(json.dumps(tiny_overrides(result["model_type"])[1])) != recorded
    except Exception:  # noqa: BLE001 - cannot tell: probe it again
        return True


def versions() -> dict[str, str]:
    import torch
    import transformers

    return {"torch": str(torch.__version__), "transformers": str(transformers.__version__), "harness": HARNESS}


def read_cache(path: Path, stamp: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Cached raw results made with the same torch, transformers and harness versions (the last one wins)."""
    results: dict[str, dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:  # a line cut by an interrupted run
                continue
            if record.get("versions") == stamp:
                results[record["result"]["model_type"]] = record["result"]
    return results


def _model_type_name(text: str) -> str:
    if not text.strip():
        raise OptionValueError("an empty model type")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model-types", nargs="+", type=argparse_type(_model_type_name), metavar="MODEL_TYPE",
                        help="probe only these (default: every registry model type)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--cache", type=Path, default=CACHE, help="raw results, appended; a re-run resumes")
    parser.add_argument("--timeout", type=argparse_type(decimal, above_minimum=True, maximum=86_400), default=240,
                        help="seconds per workload, more than 0 (default 240)")
    parser.add_argument("--memory-gb", type=argparse_type(decimal, above_minimum=True, maximum=4096), default=8,
                        help="address-space cap per workload, more than 0 (default 8)")
    parser.add_argument("--render-only", action="store_true", help="write the output from the cache only")
    parser.add_argument("--retry", action="store_true", help="probe again the cached model types that failed")
    parser.add_argument("--check", action="store_true", help="probe afresh (no cache) and compare with the output")
    args = parser.parse_args(argv)

    families = registry_model_types()
    unknown = [mt for mt in args.model_types or [] if mt not in families]
    if unknown:
        print(f"error: --model-types: {', '.join(unknown)}: not a registry model type", file=sys.stderr)
        return 2
    if args.check and args.model_types:
        print("error: --check probes every registry model type afresh; it takes no --model-types", file=sys.stderr)
        return 2
    named = set(args.model_types or [])  # probed again even when cached: naming them asks for a new result
    wanted = args.model_types or list(families)
    stamp = versions()
    if stamp["transformers"] != KNOWN_TRANSFORMERS:
        print(f"warning: transformers {stamp['transformers']} is not the {KNOWN_TRANSFORMERS} this probe was made "
              "for; model types it cannot build are recorded as not built", file=sys.stderr)
    cached = {} if args.check else read_cache(args.cache, stamp)
    start = time.monotonic()
    seconds: dict[str, float] = {}
    if not args.render_only:
        args.cache.parent.mkdir(parents=True, exist_ok=True)
        warm_up()
        for model_type in wanted:
            if model_type in cached and model_type not in named and not (args.retry and failed(cached[model_type])):
                continue
            began = time.monotonic()
            result = probe_model(model_type, args.timeout, args.memory_gb)
            seconds[model_type] = time.monotonic() - began
            cached[model_type] = result
            if not args.check:
                with args.cache.open("a", encoding="utf-8") as cache:
                    record = {"versions": stamp, "result": result, "seconds": round(seconds[model_type], 1)}
                    cache.write(json.dumps(record, sort_keys=True) + "\n")
            print(f"{model_type}: {seconds[model_type]:.1f} s", file=sys.stderr, flush=True)
        if seconds:
            print(f"probed {len(seconds)} model types in {time.monotonic() - start:.0f} s; per model type median "
                  f"{statistics.median(seconds.values()):.1f} s, slowest {max(seconds.values()):.1f} s "
                  f"({max(seconds, key=seconds.__getitem__)}); the others from {args.cache}", file=sys.stderr)
    # The output always covers every registry model type (the cache holds the ones not probed in this run), so
    # probing a few never drops the others from probe.yaml.
    results = {mt: cached[mt] for mt in families if mt in cached}
    pending = [mt for mt in families if mt not in cached]
    if pending:
        print(f"{len(pending)} model types not probed yet (listed under not_probed; run again to resume)",
              file=sys.stderr)
    text = render(results, families, stamp, LOWERINGS, pending)
    return write_or_check(args.output, text, "scripts/probe.py", args.check)


if __name__ == "__main__":
    sys.exit(main())
