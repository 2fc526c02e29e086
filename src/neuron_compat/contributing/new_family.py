"""The text of a new family file, from what a contributor knows: an id, model types, a config.json.

What a scaffold can honestly say
--------------------------------
A new family file makes no claim it cannot source. By default it has no support statement at all
(`support: []`): every stack then reads as "unknown" on the site, which is the truth, and the file
passes `neuron-compat validate` as written. A contributor who looked at a stack's documentation and
found nothing either way can name it with `--stack`; the scaffold then writes one `unknown`
statement per stack x workload, on the hardware that stack runs on, sourced to that stack's docs
page (kind vendor-docs, verified today: the day they looked). Results come afterwards, one by one,
with `neuron-compat add-evidence`, which turns the unknown into supported where a run says so.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from neuron_compat.check.config_facts import ConfigError, read_config_file
from neuron_compat.contract.models import SLUG_PATTERN, Stack
from neuron_compat.loading.yaml_reader import display_path

SCHEMA_MODELINE = "# yaml-language-server: $schema=../schemas/family.schema.json"

# Config class-name suffixes that name a task unambiguously (transformers' auto-class naming).
_TASK_BY_SUFFIX = (
    ("ForCausalLM", "text-generation"),
    ("ForMaskedLM", "fill-mask"),
    ("ForSequenceClassification", "text-classification"),
    ("ForTokenClassification", "token-classification"),
    ("ForQuestionAnswering", "question-answering"),
    ("ForMultipleChoice", "multiple-choice"),
    ("ForImageClassification", "image-classification"),
    ("ForSemanticSegmentation", "image-segmentation"),
    ("ForObjectDetection", "object-detection"),
    ("ForSpeechSeq2Seq", "automatic-speech-recognition"),
    ("ForCTC", "automatic-speech-recognition"),
    ("ForAudioClassification", "audio-classification"),
    ("ForDepthEstimation", "depth-estimation"),
)
_PLAIN_SCALAR = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-/]*$")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n"}


class ScaffoldError(ValueError):
    """Bad input to the scaffold (unreadable config, bad id): one line for the contributor."""


@dataclass(frozen=True)
class ConfigFacts:
    """What a config.json (or a diffusers model_index.json) says about the family."""

    model_types: list[str] = field(default_factory=list)
    architectures: list[str] = field(default_factory=list)
    pipelines: list[str] = field(default_factory=list)
    remote_code: bool = False


def read_config(path: Path) -> ConfigFacts:
    """Read model_type / architectures (or a diffusers pipeline class) from a config file or its folder."""
    shown = display_path(path)
    if path.is_dir():
        candidates = [path / "config.json", path / "model_index.json"]
        found = [c for c in candidates if c.is_file()]
        if not found:
            raise ScaffoldError(f"{shown}: no config.json or model_index.json in this folder")
        path = found[0]
        shown = display_path(path)
    try:
        data = read_config_file(path, shown)  # the reader `check` uses: regular files only, bounded, one-line errors
    except ConfigError as error:
        raise ScaffoldError(str(error)) from None
    if not isinstance(data, dict):
        raise ScaffoldError(f"{shown}: expected a JSON object at the top level")
    if "_diffusers_version" in data and isinstance(data.get("_class_name"), str):
        return ConfigFacts(pipelines=[data["_class_name"]])
    model_type = data.get("model_type")
    architectures = data.get("architectures") or []
    if model_type is not None and not isinstance(model_type, str):
        raise ScaffoldError(f"{shown}: model_type must be a string")
    if not isinstance(architectures, list) or not all(isinstance(a, str) for a in architectures):
        raise ScaffoldError(f"{shown}: architectures must be a list of class names")
    if not all(name.isprintable() for name in [model_type or "", *architectures]):
        raise ScaffoldError(f"{shown}: model_type and architectures must be printable text (found a control character)")
    return ConfigFacts(
        model_types=[model_type] if model_type else [],
        architectures=list(architectures),
        remote_code=bool(data.get("auto_map")),
    )


def tasks_from_architectures(architectures: list[str]) -> list[str]:
    tasks: list[str] = []
    for name in architectures:
        for suffix, task in _TASK_BY_SUFFIX:
            if name.endswith(suffix) and task not in tasks:
                tasks.append(task)
    return tasks


def check_family_id(family_id: str) -> None:
    if not re.match(SLUG_PATTERN, family_id) or len(family_id) > 64:
        raise ScaffoldError(
            f"'{family_id}' is not a usable family id: use lowercase letters and digits with '-' or '_' between "
            "them, e.g. 'qwen3' or 'llama4_text'"
        )


def default_name(family_id: str) -> str:
    return " ".join(part.capitalize() for part in re.split(r"[-_]", family_id))


@dataclass(frozen=True)
class UnknownStatement:
    """One stack x workload the contributor checked and found nothing about."""

    stack: Stack
    workload: str


@dataclass
class FamilyScaffold:
    family_id: str
    name: str
    model_types: list[str]
    architectures: list[str] = field(default_factory=list)
    pipelines: list[str] = field(default_factory=list)
    tasks: list[str] = field(default_factory=list)
    vendor: str | None = None
    examples: list[str] = field(default_factory=list)
    remote_code: bool = False
    unknowns: list[UnknownStatement] = field(default_factory=list)
    config_name: str | None = None

    def render(self, today: dt.date) -> str:
        """The family file's text: modeline, a short how-to, the identity fields, and the statements."""
        origin = f" from {self.config_name}" if self.config_name else ""
        lines = [
            SCHEMA_MODELINE,
            f"# Scaffolded by `neuron-compat new` on {today.isoformat()}{origin}. Next steps (CONTRIBUTING.md):",
            "#   1. Check name, vendor, tasks, aliases and examples; delete the comment lines you do not need.",
            "#   2. Record each result you verified (one command per run; it edits this file for you):",
            f"#        neuron-compat add-evidence {self.family_id} --stack STACK --workload inference \\",
            "#          --release 2.21.0 --instance inf2.xlarge --dtype bf16 --url https://link-to-your-log",
            "#   3. Run `neuron-compat validate`: it names the file, line and field of anything to fix.",
            f"id: {self.family_id}",
            f"name: {_scalar(self.name)}",
            f"vendor: {_scalar(self.vendor)}" if self.vendor else "# vendor: Who publishes the checkpoints",
        ]
        if self.model_types:
            lines.append(f"model_types: {_flow(self.model_types)}")
        if self.architectures:
            lines.append(f"architectures: {_flow(self.architectures)}")
        if self.pipelines:
            lines.append(f"pipelines: {_flow(self.pipelines)}")
        lines.append(f"tasks: {_flow(self.tasks)}" if self.tasks else "# tasks: [text-generation]")
        lines.append("# aliases: [Other names people search for]")
        lines.append(f"examples: {_flow(self.examples)}" if self.examples else "# examples: [org/checkpoint-id]")
        if self.remote_code:
            lines.append("remote_code: true  # the checkpoints need trust_remote_code")
        if not self.unknowns:
            lines.append("# Each statement says what one stack does for this family; a stack with none reads as unknown.")
            lines.append("support: []")
            return "\n".join(lines) + "\n"
        lines.append("support:")
        lines.append("  # unknown: the stack's docs, read on the date below, say nothing either way about this family.")
        for unknown in self.unknowns:
            lines.extend(_unknown_statement(unknown, self.name, today))
        return "\n".join(lines) + "\n"


def _unknown_statement(unknown: UnknownStatement, family_name: str, today: dt.date) -> list[str]:
    stack = unknown.stack
    title = f"{stack.name} documentation: no statement about {family_name} when checked"
    return [
        f"  - stack: {stack.id}",
        f"    workload: {unknown.workload}",
        f"    hardware: {_flow(list(stack.hardware))}",
        "    status: unknown",
        "    sources:",
        f"      - url: {stack.docs_url}",
        f"        title: {_scalar(title[:200])}",
        "        kind: vendor-docs",
        f"        verified: {today.isoformat()}",
    ]


def _scalar(value: str) -> str:
    """A YAML scalar that reads back as exactly `value` (plain when safe, else JSON-quoted)."""
    if _PLAIN_SCALAR.match(value) and value.lower() not in _YAML_WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def _flow(values: list[str]) -> str:
    return "[" + ", ".join(_scalar(v) for v in values) + "]"
