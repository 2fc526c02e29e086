"""Capturing one callable the ways a compiler sees it: torch.export, dynamo, AOT autograd.

Every function returns plain dicts (the probe's raw result), never raises for a capture failure: a
failure is the evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_SITE = re.compile(r"\S*?/site-packages/")
_TMP = re.compile(r"/tmp/[^\s:'\"]+")


def clean(text: str, limit: int = 300) -> str:
    """One deterministic line: whitespace collapsed, no memory addresses nor install paths, at most `limit` characters."""
    line = " ".join(str(text).split())
    line = _TMP.sub("/tmp/…", _SITE.sub("", _ADDRESS.sub("0x…", line)))
    return line if len(line) <= limit else line[: limit - 1] + "…"


def error_text(exc: BaseException) -> str:
    return clean(f"{type(exc).__name__}: {exc}")


def classify_export_error(exc: BaseException) -> str:
    name = type(exc).__name__
    text = f"{name} {exc}"
    lowered = text.lower()
    if "DataDependent" in name or "data-dependent" in lowered or "data dependent" in lowered:
        return "data_dependent"
    if "Constraint" in name or "dynamic shape" in lowered or "Dim(" in text or "symbolic shape" in lowered:
        return "dynamic_shape"
    return "other"


def operator_name(target: Any) -> str | None:
    """'aten::add.Tensor' / 'aten::mm' (default overload dropped) / 'transformers::grouped_mm_fallback'."""
    import torch

    if isinstance(target, torch._ops.OpOverload):
        name = str(target._schema.name)
        overload = str(target._overloadname)
        return name if overload == "default" else f"{name}.{overload}"
    if isinstance(target, torch._ops.HigherOrderOperator):
        return f"higher_order::{target._name}"
    return None


def graph_operators(graph: Any) -> set[str]:
    names = set()
    for node in graph.nodes:
        if node.op == "call_function":
            name = operator_name(node.target)
            if name:
                names.add(name)
    return names


def node_count(graph: Any) -> int:
    """Operator calls in a graph (placeholders, outputs and attribute reads not counted)."""
    return sum(1 for node in graph.nodes if node.op in ("call_function", "call_method", "call_module"))


def export_capture(module: Any, kwargs: dict[str, Any], decompose: bool) -> dict[str, Any]:
    """torch.export (non-strict, static shapes): outcome, node count, and with `decompose` the core ATen operators."""
    import torch

    try:
        program = torch.export.export(module, args=(), kwargs=kwargs, strict=False)
    except Exception as exc:  # noqa: BLE001 - recorded as evidence
        return {"outcome": classify_export_error(exc), "error": error_text(exc)}
    result: dict[str, Any] = {"outcome": "ok", "nodes": node_count(program.graph)}
    if decompose:
        result.update(decomposed_operators(program, kwargs))
    return result


def decomposed_operators(program: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Core ATen operators of an exported program: run_decompositions, or, where that refuses the program
    (transformers' static-cache wrapper mutates its cache buffers), make_fx of the exported module with the
    same core ATen decomposition table."""
    from torch._decomp import core_aten_decompositions
    from torch.fx.experimental.proxy_tensor import make_fx

    try:
        return {"operators": sorted(graph_operators(program.run_decompositions().graph))}
    except Exception:  # noqa: BLE001 - tried again below
        pass
    keys = list(kwargs)
    module = program.module()
    try:
        traced = make_fx(lambda *values: module(**dict(zip(keys, values, strict=True))),
                         decomposition_table=dict(core_aten_decompositions()))(*kwargs.values())
        return {"operators": sorted(graph_operators(traced.graph)), "decomposed_by": "make_fx"}
    except Exception as exc:  # noqa: BLE001
        return {"operators": sorted(graph_operators(program.graph)), "decompose_error": error_text(exc)}


def break_location(reason: Any) -> str:
    if not reason.user_stack:
        return ""
    frame = reason.user_stack[-1]
    return f"{_SITE.sub('', frame.filename)}:{frame.lineno}"


def dynamo_capture(fn: Callable[..., Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """torch._dynamo.explain: graphs, graph breaks with reasons and source lines, total nodes of its graphs."""
    import torch

    torch._dynamo.reset()
    try:
        explained = torch._dynamo.explain(fn)(**kwargs)
    except Exception as exc:  # noqa: BLE001
        return {"error": error_text(exc)}
    breaks = [{"reason": clean(r.reason), "location": break_location(r)} for r in explained.break_reasons]
    return {"graphs": explained.graph_count, "graph_breaks": explained.graph_break_count, "breaks": breaks,
            "nodes": sum(node_count(g.graph) for g in explained.graphs)}


def aot_operators(fn: Callable[..., Any], kwargs: dict[str, Any]) -> set[str]:
    """ATen operators of the dynamo graphs through AOT autograd (forward only; where export failed)."""
    import torch
    from torch._dynamo.backends.common import aot_autograd

    found: set[str] = set()

    def capture(gm: Any, _example: Any) -> Any:
        found.update(graph_operators(gm.graph))
        return gm.forward

    torch._dynamo.reset()
    try:
        with torch.no_grad():
            torch.compile(fn, backend=aot_autograd(fw_compiler=capture))(**kwargs)
    except Exception:  # noqa: BLE001 - the operators seen so far still count
        pass
    return found


def training_capture(loss_fn: Callable[..., Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    """forward + loss + backward as a compiler sees it: dynamo graphs through AOT autograd's joint graph.

    torch.compile with an AOT-autograd backend partitions each dynamo graph's joint graph into a forward and a
    backward graph; calling backward() on the compiled loss runs the backward graphs. Graph breaks come from
    dynamo's counters (reasons, no source line).
    """
    import torch
    from torch._dynamo.backends.common import aot_autograd
    from torch._dynamo.utils import counters

    forward: list[Any] = []
    backward: list[Any] = []

    def keep(into: list[Any]) -> Callable[[Any, Any], Any]:
        def compiler(gm: Any, _example: Any) -> Any:
            into.append((graph_operators(gm.graph), node_count(gm.graph)))
            return gm.forward
        return compiler

    torch._dynamo.reset()
    counters.clear()
    result: dict[str, Any] = {}
    try:
        compiled = torch.compile(loss_fn, backend=aot_autograd(fw_compiler=keep(forward), bw_compiler=keep(backward)))
        loss = compiled(**kwargs)
        loss.backward()
        result["outcome"] = "ok"
    except Exception as exc:  # noqa: BLE001
        result["outcome"] = classify_export_error(exc)
        result["error"] = error_text(exc)
    reasons = sorted({clean(str(reason)) for reason in counters["graph_break"]})
    result["graphs"] = len(forward)
    result["backward_graphs"] = len(backward)
    result["graph_breaks"] = sum(counters["graph_break"].values())
    result["breaks"] = [{"reason": reason, "location": ""} for reason in reasons]
    result["nodes"] = sum(n for _, n in forward) + sum(n for _, n in backward)
    result["forward_operators"] = sorted(set().union(*(ops for ops, _ in forward)))
    result["backward_operators"] = sorted(set().union(*(ops for ops, _ in backward)))
    return result


def warm_up() -> None:
    """One tiny export, dynamo trace and AOT compile in the parent, so each forked child starts warm.

    Single-threaded first: a child forked from a parent whose OpenMP pool is running can hang.
    """
    import torch
    import transformers.integrations.executorch
    import transformers.modeling_utils  # noqa: F401 - about 9 s of import on a loaded 2-core machine

    torch.set_num_threads(1)
    module = torch.nn.Linear(2, 2)
    example = {"input": torch.ones(1, 2)}
    export_capture(module, example, decompose=True)
    dynamo_capture(module, example)
    training_capture(lambda **kw: module(**kw).sum(), example)
    torch._dynamo.reset()
