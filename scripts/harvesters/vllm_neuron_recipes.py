"""Reading the vLLM Neuron model recipes (``vllm-neuron/docs/model-recipes/*.md`` of github.com/aws-neuron/aws-neuron-sdk)
into tested configurations.

Each recipe page has a checkpoint table, a per-model feature table and an "## Accuracy Evaluation" part whose first
table gives the measured scores, either one row per configuration (columns Model, Precision, then one per
benchmark) or one column per configuration (first column the benchmark). Each configuration of that table is one
tested configuration, named by hand in ``CONFIGURATION_BY_LABEL`` (page and label -> checkpoint, dtype,
quantization). A column the page marks as the published (non-Neuron) score is not a Neuron run and is skipped.
The release is read from "measured ... against the Neuron X.Y release"; a page that does not state it keeps the
outcome and loses its measurements (with a note). Scores written as fractions (0.95) are recorded in percent.
The feature tables are not recorded: the contract has no place for per-model feature support yet.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harvesters.nxdi_contrib_readme import release_for

REPOSITORY = "https://github.com/aws-neuron/aws-neuron-sdk"
RECIPES = "vllm-neuron/docs/model-recipes"
STACK = "vllm-neuron"
EVIDENCE = "vendor-docs"


@dataclass(frozen=True)
class RecipeConfiguration:
    """What a label of a recipe's accuracy table stands for, written by hand from the page."""

    family: str
    checkpoint: str
    hub_id: str | None
    dtype: str | None
    quantization: str | None
    hardware: str  # as the page words it, for the note (the instance type is never stated)


CONFIGURATION_BY_LABEL: dict[tuple[str, str], RecipeConfiguration] = {
    ("llama-3.md", "Llama 3.3 70B | BF16"): RecipeConfiguration(
        "llama", "meta-llama/Llama-3.3-70B-Instruct", "meta-llama/Llama-3.3-70B-Instruct", "bf16", None,
        "real hardware (Trn2 or Trn3, not said which)"),
    ("llama-3.md", "Llama 3.3 70B | Static FP8"): RecipeConfiguration(
        "llama", "Llama 3.3 70B (static FP8 checkpoint, ModelOpt format)", None, None, "fp8",
        "real hardware (Trn2 or Trn3, not said which)"),
    ("gpt-oss.md", "gpt-oss-120b (MXFP4)"): RecipeConfiguration(
        "gpt_oss", "openai/gpt-oss-120b", "openai/gpt-oss-120b", None, "mxfp4", "Trn3"),
    ("qwen3-vl.md", "32B-Thinking, Neuron Trn2 BF16"): RecipeConfiguration(
        "qwen3_vl", "Qwen/Qwen3-VL-32B-Thinking", "Qwen/Qwen3-VL-32B-Thinking", "bf16", None, "Trn2"),
    ("qwen3-embedding-8b.md", "Neuron (BF16)"): RecipeConfiguration(
        "qwen3", "Qwen/Qwen3-Embedding-8B", "Qwen/Qwen3-Embedding-8B", "bf16", None, "Trn2"),
}
"""(page, label) -> configuration. A label is the row's Model and Precision cells joined by ' | ', or a column
header. A label not listed here is read but not recorded."""

PUBLISHED_COLUMNS = frozenset({"published"})
_ROW = re.compile(r"^\|(.+)\|\s*$")
_SEPARATOR = re.compile(r"^[\s:|-]+$")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_RELEASE = re.compile(r"measured on real hardware against the Neuron ([0-9]+\.[0-9]+(?:\.[0-9]+)?) release")
_PLUGIN = re.compile(r"plugin sha `([0-9a-f]{7,40})`")
_UPDATED = re.compile(r"<!--\s*meta:\s*date_updated:\s*([0-9]{4}-[0-9]{2}-[0-9]{2})\s*-->")
_VALUE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)\s*(%?)$")


@dataclass
class Score:
    label: str
    benchmark: str
    value: float
    written: str
    line: int  # 1-based line of the row


def _cells(line: str) -> list[str] | None:
    row = _ROW.match(line.strip())
    return [_LINK.sub(r"\1", cell).strip().strip("*").strip() for cell in row.group(1).split("|")] if row else None


def accuracy_section(lines: Sequence[str]) -> tuple[int, int] | None:
    """(first, end) line indexes of the '## Accuracy Evaluation' part."""
    start = next((i for i, line in enumerate(lines) if line.strip().lower() == "## accuracy evaluation"), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return start, end


def percent(written: str) -> float | None:
    """'88.8%' -> 88.8, '0.95' -> 95.0 (a fraction), '85.94' -> 85.94; anything else None."""
    match = _VALUE.match(written.strip())
    if not match:
        return None
    value = float(match.group(1))
    if not match.group(2) and value <= 1:
        value *= 100
    return round(value, 4) if 0 <= value <= 100 else None


def parse_scores(text: str) -> list[Score]:
    """The scores of the first table of the accuracy part, by configuration label and benchmark."""
    lines = text.splitlines()
    section = accuracy_section(lines)
    if section is None:
        return []
    header: list[str] | None = None
    scores: list[Score] = []
    for index in range(*section):
        cells = _cells(lines[index])
        if cells is None:
            if header is not None:
                break  # the end of the first table
            continue
        if header is None:
            header = cells
            continue
        if _SEPARATOR.match(lines[index].strip()):
            continue
        keyed = [i for i, name in enumerate(header) if name.lower() in ("model", "precision")]
        if keyed:  # one row per configuration
            label = " | ".join(cells[i] for i in keyed)
            columns = [(header[i], cells[i]) for i in range(len(header)) if i not in keyed and i < len(cells)]
            pairs = [(label, benchmark, written) for benchmark, written in columns]
        else:  # one column per configuration
            pairs = [(header[i], cells[0], cells[i]) for i in range(1, min(len(header), len(cells)))]
        for label, benchmark, written in pairs:
            value = percent(written)
            if value is not None:
                scores.append(Score(label, benchmark, value, written, index + 1))
    return scores


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _benchmark_name(benchmark: str, text: str) -> str:
    method = re.search(re.escape(benchmark) + r" scores use `([^`]+)` \(n=([0-9]+)\)", text)
    return f"{benchmark} ({method.group(1)}, n={method.group(2)})" if method else benchmark


def recipe_entries(page: str, text: str, commit: str, releases: Sequence[tuple[str, dt.date]]
                   ) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The configurations of one recipe page, and its labels (or the page) not recorded, with the reason."""
    path = f"{RECIPES}/{page}"
    scores = parse_scores(text)
    if not scores:
        return [], [{"path": path, "reason": "no score table under '## Accuracy Evaluation'"}]
    stated = _RELEASE.search(text)
    updated = _UPDATED.search(text)
    release = release_for(f"SDK {stated.group(1)}", updated.group(1) if updated else None, releases) \
        if stated else None
    plugin = _PLUGIN.search(text)
    by_label: dict[str, list[Score]] = {}
    for score in scores:
        by_label.setdefault(score.label, []).append(score)
    entries: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    for label, found in by_label.items():
        if label.lower() in PUBLISHED_COLUMNS:
            continue
        recipe = CONFIGURATION_BY_LABEL.get((page, label))
        if recipe is None:
            skipped.append({"path": f"{path} ({label})",
                            "reason": "no configuration is mapped to this label (CONFIGURATION_BY_LABEL)"})
            continue
        measurements = [{"metric": "accuracy", "name": _benchmark_name(score.benchmark, text), "value": score.value,
                         "unit": "percent"} for score in found]
        entry: dict[str, Any] = {"id": f"vllm-neuron-recipe-{_slug(page[:-3])}-{_slug(label)}"[:64].rstrip("-"),
                                 "family": recipe.family, "checkpoint": recipe.checkpoint}
        if recipe.hub_id:
            entry["hub_id"] = recipe.hub_id
        entry.update({"stack": STACK, "release": release})
        if release is not None and stated:
            entry["release_stated"] = f"Neuron {stated.group(1)} release build"
        entry["instance"] = None
        named = {h for h in ("trn1", "trn2", "trn3", "inf2") if h in recipe.hardware.lower()}
        if len(named) == 1:  # one generation named: the run's hardware (never an instance)
            entry["hardware"] = named.pop()
        entry["workload"] = "inference"
        if recipe.dtype:
            entry["dtype"] = recipe.dtype
        if recipe.quantization:
            entry["quantization"] = recipe.quantization
        entry["outcome"] = "compiled-and-ran"
        notes = [f"Measured on {recipe.hardware}; the page names no instance type."]
        if release is not None:
            entry["measurements"] = measurements
            if any(not score.written.endswith("%") and float(score.written) <= 1 for score in found):
                notes.append("The page writes the scores as fractions (e.g. "
                             f"{found[0].written}); they are recorded in percent.")
            if plugin:
                notes.append(f"The page names the plugin build measured: sha {plugin.group(1)}.")
        else:
            notes.append(f"The page gives {len(measurements)} accuracy score(s) here but not the Neuron release "
                         "they were measured on, so none is recorded.")
        entry.update({"validated": None,
                      "source": {"url": f"{REPOSITORY}/blob/{commit}/{path}#L{found[0].line}",
                                 "title": f"vLLM Neuron model recipe {page[:-3]} (accuracy: {label})"},
                      "evidence": EVIDENCE, "notes": notes})
        entries.append(entry)
    return entries, skipped
