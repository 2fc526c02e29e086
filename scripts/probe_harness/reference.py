"""Operators of a capture read against torch-xla's lowering list (registry/upstream/torch-xla-lowerings.yaml).

Each operator falls in one group:

* `lowered`: torch-xla has a kernel for it (exact name and overload; an in-place or view operator counts
  through the functional / `_copy` form functionalization gives it);
* `decomposed`: no torch-xla kernel, but PyTorch has a composite kernel that rewrites it into other operators;
* `cpu_specific`: a CPU kernel the probe's CPU dispatch picked (`..._for_cpu`); on XLA that call takes
  another path, so it says nothing about Neuron;
* `bookkeeping`: export's own asserts and symbolic sizes, not computation;
* `custom`: not ATen (a library's custom operator such as `transformers::grouped_mm_fallback`, or a
  higher-order operator): opaque to the comparison, no Neuron lowering known;
* `no_known_lowering`: none of the above: the short list worth a porting engineer's look.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

BOOKKEEPING_PREFIXES = ("aten::_assert_", "aten::sym_", "aten::_functional_assert", "aten::_print")
BOOKKEEPING = frozenset({"aten::detach", "aten::lift_fresh_copy", "aten::_local_scalar_dense_hint"})
COMPOSITE_KEYS = ("CompositeImplicitAutograd", "CompositeExplicitAutograd")
GROUPS = ("lowered", "decomposed", "cpu_specific", "bookkeeping", "custom", "no_known_lowering")


def load_lowerings(path: Path) -> tuple[dict[str, Any], frozenset[str]]:
    """The snapshot and the operators lowered; the backward of an operator torch-xla differentiates itself
    (its `autograd` section: native_layer_norm, max_pool2d...) counts as lowered too."""
    snapshot = yaml.safe_load(path.read_text(encoding="utf-8"))
    backward = {f"{name}_backward" for name in snapshot.get("autograd") or []}
    return snapshot, frozenset(snapshot["operators"]) | frozenset(backward)


def _functional_forms(name: str) -> list[str]:
    """'aten::add_.Tensor' -> ['aten::add.Tensor']; 'aten::view' -> ['aten::view_copy']."""
    base, _, overload = name.partition(".")
    suffix = f".{overload}" if overload else ""
    forms = [f"{base}_copy{suffix}"]
    if base.endswith("_") and not base.endswith("__"):
        forms.append(f"{base[:-1]}{suffix}")
    return forms


def has_composite_kernel(name: str) -> bool:
    try:
        import torch
    except ImportError:
        return False
    try:
        return any(torch._C._dispatch_has_kernel_for_dispatch_key(name, key) for key in COMPOSITE_KEYS)
    except RuntimeError:  # not a registered operator of this torch
        return False


def group_of(name: str, lowered: frozenset[str]) -> str:
    if not name.startswith("aten::"):
        return "custom"
    if name.startswith(BOOKKEEPING_PREFIXES) or name in BOOKKEEPING:
        return "bookkeeping"
    if name in lowered or any(form in lowered for form in _functional_forms(name)):
        return "lowered"
    if "_for_cpu" in name:
        return "cpu_specific"
    if has_composite_kernel(name):
        return "decomposed"
    return "no_known_lowering"


def grouped(operators: list[str], lowered: frozenset[str]) -> dict[str, list[str]]:
    """Every group (GROUPS order) with its operators, sorted; empty groups kept so the shape is fixed."""
    groups: dict[str, list[str]] = {group: [] for group in GROUPS}
    for name in sorted(set(operators)):
        groups[group_of(name, lowered)].append(name)
    return groups
