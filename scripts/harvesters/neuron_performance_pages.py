"""Reading the AWS Neuron documentation's performance pages (about-neuron/benchmarks/*) into tested configurations.

Each page pulls its tables from CSV files beside it (`pd.read_csv('x.csv')` in a df-table, or `:file: x.csv` in
a csv-table); only CSVs a page includes are read, each row one configuration. The release is the row's
`Neuron Version`; a row whose version is not MAJOR.MINOR.PATCH or not in releases.yaml keeps its measurements with
the date its CSV was last changed at the tag (when the docs published them) and "release not stated" (a note says
what the page gives). A run a page shows in both its throughput and its latency table is one configuration. Rows whose model has no family, whose framework has no stack
or whose instance is not in instances.yaml are not recorded, with the reason.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
from dataclasses import dataclass
from typing import Any

REPOSITORY = "https://github.com/aws-neuron/aws-neuron-sdk"
EVIDENCE = "vendor-docs"
ID_PREFIX = "nperf"

FAMILY_BY_MODEL: dict[str, str] = {
    "albert-base-v2": "albert", "bert-base-uncased": "bert", "bert-large-uncased": "bert",
    "distilbert-base-uncased": "distilbert", "google/electra-base-discriminator": "electra",
    "roberta-base": "roberta", "roberta-large": "roberta", "xlm-roberta-base": "xlm-roberta",
    "t5-3b": "t5", "google/flan-t5-xl": "t5",
    "deepmind/multimodal-perceiver": "perceiver", "deepmind/vision-perceiver-learned": "perceiver",
    "deepmind/vision-perceiver-fourier": "perceiver", "deepmind/vision-perceiver-conv": "perceiver",
    "resnet18": "resnet", "resnet34": "resnet", "resnet50": "resnet", "resnet101": "resnet", "resnet152": "resnet",
    "Stable Diffusion 1.5": "stable-diffusion", "Stable Diffusion 2.1": "stable-diffusion",
    "Stable Diffusion 2 Inpainting": "stable-diffusion", "Stable Diffusion XL Base": "stable-diffusion-xl",
    "Stable Diffusion XL Base & Refiner": "stable-diffusion-xl",
    "PixArt Alpha": "pixart", "PixArt Sigma": "pixart",
    "google/vit-base-patch16-224": "vit", "openai/clip-vit-base-patch32": "clip",
    "openai/clip-vit-large-patch14": "clip",
    "HuggingFace BERT-Large Ph1 pre-training": "bert", "HuggingFace BERT-Large Ph2 pre-training": "bert",
    "Llama-3.1-8B pre-training": "llama", "Llama-3.1-70B pre-training": "llama",
    "HuggingFace ViT-Base fine-tuning": "vit",
    "bert-base-cased": "bert", "bert-base-cased-finetuned-mrpc": "bert", "bert-large-cased": "bert",
    "camembert-base": "camembert", "distilbert-base-cased": "distilbert",
    "distilbert-base-cased-distilled-squad": "distilbert",
    "gpt2": "gpt2", "gpt2-medium": "gpt2", "gpt2-large": "gpt2",
    "opt-13b": "opt", "opt-30b": "opt", "opt-66b": "opt",
    "Llama-2-7b": "llama", "Llama-2-13b": "llama", "Llama-2-70b": "llama", "Llama-3-8B": "llama",
    "Llama-3-70B": "llama", "CodeLlama-13b-hf": "llama", "Mistral-7B-Instruct-v0.2": "mistral",
    "Llama2-7B pre-training": "llama", "Llama2-13B pre-training": "llama", "Llama2-70B pre-training": "llama",
    "HuggingFace CLIP-Base fine-tuning": "clip",
}
"""The page's Model cell -> registry family, by hand (the resnets are torchvision's, per the pages' benchmark
script; the Llama, Mistral, OPT and GPT-2 rows of the older pages are Transformers NeuronX runs of those Hub
checkpoints, CodeLlama a Llama-architecture checkpoint). A model not listed (GPT-3 pre-training, VGG, UNet) is read
but not recorded."""

_DTYPES = {"fp32": "fp32", "bf16": "bf16", "fp16": "fp16"}
_VERSION = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+$")
_STATED = re.compile(r"^[0-9]+\.[0-9]+(?:\.[0-9]+)?$")
"""A version the page writes that names a release line (2.20) or a release releases.yaml may lack (2.14.0)."""
_READ_CSV = re.compile(r"""read_csv\(\s*['"]([^'"]+\.csv)['"]""")
_FILE_OPTION = re.compile(r"^\s*:file:\s*(\S+\.csv)\s*$")
_TAB = re.compile(r"^\s*\.\. tab-item::\s*(.+?)\s*$")
_UNDERLINE = re.compile(r"^(=+|-+|~+)\s*$")
_TOPOLOGY = re.compile(r"\b(TP|PP|DP)\s*=\s*([0-9]+)\b")
_PRICE_FILE = re.compile(r"prices?\.csv$")


@dataclass(frozen=True)
class TableRef:
    """A CSV a page includes: its file name (beside the page), the section and the tab it appears under."""

    csv_name: str
    section: str
    tab: str | None
    line: int


@dataclass(frozen=True)
class Page:
    title: str
    tables: tuple[TableRef, ...]


def read_page(text: str) -> Page:
    """The page's title and the CSVs it includes (instance price tables left out), in page order."""
    lines = text.splitlines()
    title = ""
    section = ""
    tab: str | None = None
    tables: list[TableRef] = []
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if line.strip() and not line.startswith((" ", ".")) and _UNDERLINE.match(following) \
                and len(following.strip()) >= len(line.strip()):
            if following.startswith("=") and not title:
                title = line.strip()
            else:
                section, tab = line.strip(), None
            continue
        found_tab = _TAB.match(line)
        if found_tab:
            tab = found_tab.group(1)
            continue
        found = _READ_CSV.search(line) or _FILE_OPTION.match(line)
        if found and not _PRICE_FILE.search(found.group(1)):
            tables.append(TableRef(found.group(1), section, tab, index + 1))
    return Page(title, tuple(tables))


def _number(text: str) -> float | None:
    """A number written in ASCII (another script's digits, NaN, infinity or more than 1e12 are not read)."""
    raw = text.strip().replace(",", "")
    if not raw.isascii() or len(raw) > 40:
        return None
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if math.isfinite(value) and 0 <= value <= 1e12 else None


def _count(text: str | None) -> int | None:
    value = _number(text or "")
    return int(value) if value is not None and 1 <= value <= 10_000_000 and value == int(value) else None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _stack(framework: str, row: dict[str, str]) -> str | None:
    """The stack a row ran on: PyTorch on Inf2/Trn1 is torch-neuronx; training rows name their torch-neuronx."""
    if any(key.startswith("Pytorch Neuron(torch-neuronx)") for key in row):
        return "torch-neuronx"
    if re.match(r"^PyTorch [0-9]", framework):
        return "torch-neuronx"
    if framework == "Transformers NeuronX":
        return "transformers-neuronx"
    return None


def _cell(row: dict[str, str], *names: str) -> str | None:
    for name in names:
        value = row.get(name)
        if value is not None and value.strip() and value.strip().lower() not in ("none", "n/a", "-"):
            return value.strip()
    return None


def _measurements(row: dict[str, str]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def add(metric: str, header: str, unit: str, name: str | None = None, percentile: int | None = None) -> None:
        value = _number(row.get(header) or "")
        if value is None:
            return
        measurement: dict[str, Any] = {"metric": metric}
        if name:
            measurement["name"] = name
        measurement.update({"value": value, "unit": unit})
        if percentile is not None:
            measurement["percentile"] = percentile
        found.append(measurement)

    for header in ("Throughput (inference/second)", "Throughput (inference/sec)"):
        add("throughput", header, "samples/s", "inferences/s")
    add("throughput", "Throughput (tokens/second)", "tokens/s", "input and output tokens")
    add("throughput", "Output Token Throughput (tokens/sec)", "tokens/s", "output tokens")
    add("throughput", "Performance [seq/sec]", "samples/s", "sequences/s")
    for percentile in (50, 99):
        add("latency", f"Latency P{percentile} (ms)", "ms", None, percentile)
        add("latency", f"Latency per Token P{percentile} (ms)", "ms", "per token (input and output)", percentile)
        add("ttft", f"TTFT Latency P{percentile} (ms)", "ms", None, percentile)
        add("tpot", f"TPOT Latency P{percentile} (ms)", "ms", None, percentile)
    return found


def _details(row: dict[str, str]) -> str | None:
    """The software the page says ran the row (not part of `setting`: a later release runs newer software), in one
    sentence; None when it names none."""
    parts: list[str] = []
    for label, names in (("framework", ("Framework",)), ("model data type", ("Model Data Type",)),
                         ("torch-neuronx", ("Pytorch Neuron(torch-neuronx) Version",)), ("OS", ("OS Type", "OS Type."))):
        value = _cell(row, *names)
        if value:
            parts.append(f"{label} {value.strip(chr(34))}")
    return "The page gives " + "; ".join(parts) + "." if parts else None


_SETTING_CELLS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("task", ("Task",)), ("image size", ("Image Size",)), ("application type", ("Application Type",)),
    ("run mode", ("Run Mode",)), ("compiler autocast", ("Compilation Autocast Data Type",)),
    ("weight storage", ("Weight Storage Data Type",)), ("training data type", ("Training Data-Type",)),
    ("nodes", ("Nodes",)), ("topology", ("Topology",)), ("microbatch", ("Microbatch",)),
    ("global batch", ("Globalbatch", "Global Minibatch")), ("optimizer", ("Optimizer",)),
    ("scaling", ("Strong/Weak Scaling",)))
"""The cells that say how a row was run (not which software versions ran it): rows of several tags that agree on
these, and on model, instance, layout, batch, lengths and dtype, are one configuration measured again."""


def setting(row: dict[str, str], table: TableRef) -> str | None:
    """How the row was run, as one line: the table's tab (throughput or latency optimized), then the cells of
    _SETTING_CELLS, lower case (a page that recapitalises a value does not start a new series). The section is
    left out: it is the page's grouping (renamed as the pages were reorganised), not how the row was run."""
    parts = [table.tab.lower()] if table.tab else []
    for label, names in _SETTING_CELLS:
        value = _cell(row, *names)
        if value:
            parts.append(f"{label} {' '.join(value.strip(chr(34)).split()).lower()}")
    return "; ".join(parts)[:200] or None


def _workload(csv_path: str, page: Page, model: str) -> str:
    training = ("/training_data" in csv_path or "training" in page.title.lower()
                or re.search(r"pre-training|fine-tuning", model, re.IGNORECASE) is not None)
    return "training" if training else "inference"


def _dtype(row: dict[str, str]) -> str | None:
    raw = _cell(row, "Model Data Type", "Training Data-Type")
    return _DTYPES.get(raw.lower()) if raw else None


def _parallelism(row: dict[str, str]) -> dict[str, int]:
    parallelism: dict[str, int] = {}
    for key, name in (("TP Degree", "tensor"), ("DP Degree", "data")):
        value = _count(row.get(key))
        if value is not None:
            parallelism[name] = value
    for degree, raw in _TOPOLOGY.findall(row.get("Topology") or ""):
        value = _count(raw)
        if value is not None:
            parallelism[{"TP": "tensor", "PP": "pipeline", "DP": "data"}[degree]] = value
    return parallelism


def read_rows(text: str) -> list[tuple[int, dict[str, str]]]:
    """The CSV's rows with their 1-based line, header names stripped of spaces."""
    reader = csv.reader(io.StringIO(text))
    rows: list[tuple[int, dict[str, str]]] = []
    header: list[str] | None = None
    try:
        records = [(record, reader.line_num) for record in reader]
    except csv.Error:  # an oversized field or a NUL byte: the rows read so far are not trusted either
        return []
    for record, line_num in records:
        if header is None:
            header = [name.strip() for name in record]
            continue
        if not any(cell.strip() for cell in record):
            continue
        rows.append((line_num, dict(zip(header, record, strict=False))))
    return rows


@dataclass(frozen=True)
class Context:
    """What every row of one harvest shares: the tag read and what the registry knows."""

    revision: str
    releases: frozenset[str]
    instances: frozenset[str]
    families: frozenset[str]
    published: dt.date | None = None
    """The date the CSV being read was last changed at the tag: the date its release-less rows are recorded with."""
    hardware: tuple[tuple[str, str], ...] = ()
    """(instance type, hardware generation) of instances.yaml: the hardware of a row that names two instances."""


def _release_of(row: dict[str, str], measurements: list[dict[str, Any]], context: Context,
                notes: list[str]) -> tuple[str | None, str | None, dt.date | None, list[dict[str, Any]]]:
    """(release, the page's own version words when releases.yaml lacks it, the date release-less values are
    recorded with, the measurements kept); a note says why a release is not stated."""
    stated = _cell(row, "Neuron Version") or ""
    release = stated if _VERSION.match(stated) and stated in context.releases else None
    release_stated = stated if release is None and _STATED.match(stated) else None
    validated: dt.date | None = None
    if release is None and measurements:
        why = ("not a full MAJOR.MINOR.PATCH version" if not _VERSION.match(stated)
               else "a release releases.yaml does not list")
        if context.published is not None:
            validated = context.published
            notes.append(f"The page says these values were measured on Neuron '{stated}' ({why}): they are recorded "
                         f"with the date the table was last changed at the tag, {validated.isoformat()}.")
        else:
            notes.append(f"The page gives {len(measurements)} measured value(s) here, measured on Neuron "
                         f"'{stated}' ({why}), and no date, so none is recorded.")
            measurements = []
    return release, release_stated, validated, measurements


def row_entry(csv_path: str, line: int, row: dict[str, str], page: Page, table: TableRef,
              context: Context) -> tuple[dict[str, Any] | None, str | None]:
    """One CSV row -> (configuration entry, None) or (None, the reason it is not recorded)."""
    model = (row.get("Model") or "").strip()
    raw_instance = _cell(row, "Inst. Type", "Instance-Type") or ""
    instance: str | None = raw_instance.lower()
    details = _details(row)
    notes: list[str] = [details] if details else []
    hardware: str | None = None
    if "/" in raw_instance:
        instance = None
        named = {dict(context.hardware).get(name.strip().lower()) for name in raw_instance.split("/")}
        hardware = named.pop() if len(named) == 1 else None
        notes.append(f"The page names the instance as '{raw_instance}' without saying which one was used"
                     + (f"; both are {hardware} instances." if hardware else "."))
    elif instance not in context.instances:
        return None, f"'{model}': instance '{raw_instance}' is not in instances.yaml"
    family = FAMILY_BY_MODEL.get(model)
    if family is None or family not in context.families:
        return None, f"'{model}': no registry family is mapped to this model (FAMILY_BY_MODEL)"
    framework = (row.get("Framework") or "").strip()
    stack = _stack(framework, row)
    if stack is None:
        return None, f"'{model}': its framework '{framework}' has no stack in stacks.yaml"
    release, release_stated, validated, measurements = _release_of(row, _measurements(row), context, notes)
    entry: dict[str, Any] = {
        "id": _entry_id(csv_path, model, line),
        "family": family,
        "checkpoint": model,
    }
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*", model):
        entry["hub_id"] = model
    entry.update({"stack": stack, "release": release})
    if release_stated is not None:
        entry["release_stated"] = release_stated
    entry["instance"] = instance
    if hardware is not None:
        entry["hardware"] = hardware
    entry["workload"] = _workload(csv_path, page, model)
    parallelism = _parallelism(row)
    if parallelism:
        entry["parallelism"] = parallelism
    for field, names in (("batch_size", ("Batch Size",)), ("sequence_length", ("Sequence Length",)),
                         ("input_length", ("Input Length",)), ("output_length", ("Output Length",))):
        value = _count(_cell(row, *names))
        if value is not None:
            entry[field] = value
    dtype = _dtype(row)
    if dtype:
        entry["dtype"] = dtype
    how = setting(row, table)
    if how:
        entry["setting"] = how
    entry["outcome"] = "compiled-and-ran"
    if measurements:
        entry["measurements"] = measurements
    entry.update({
        "validated": validated,
        "source": {"url": f"{REPOSITORY}/blob/{context.revision}/{csv_path}#L{line}",
                   "title": f"{page.title}: {table.section} ({context.revision})"},
        "evidence": EVIDENCE,
        "notes": notes,
    })
    return entry, None


def _entry_id(csv_path: str, model: str, line: int) -> str:
    parts = csv_path.split("/")
    directory, name = (parts[-2] if len(parts) > 1 else ""), parts[-1]
    stem = name.removesuffix(".csv")
    for long, short in (("throughput_data_", "tput-"), ("latency_data_", "lat-"), ("training_data_", "train-"),
                        ("encoder_decoder", "encdec"), ("vision_transformers", "vit")):
        stem = stem.replace(long, short)
    tail = f"-l{line}"
    head = f"{ID_PREFIX}-{_slug(directory)}-{_slug(stem)}-{_slug(model)}"
    return head[:64 - len(tail)].rstrip("-") + tail


def table_entries(csv_path: str, text: str, page: Page, table: TableRef,
                  context: Context) -> tuple[list[dict[str, Any]], list[str]]:
    """Every row of one included CSV -> configurations, and the reasons rows were not recorded (one per model)."""
    entries: list[dict[str, Any]] = []
    reasons: list[str] = []
    for line, row in read_rows(text):
        entry, why_not = row_entry(csv_path, line, row, page, table, context)
        if entry is not None:
            entries.append(entry)
        elif why_not is not None and why_not not in reasons:
            reasons.append(why_not)
    return entries, reasons


def _run_key(entry: dict[str, Any]) -> tuple[str, ...]:
    """What makes a row of a throughput table and a row of the page's latency table one run."""
    details = [note for note in entry.get("notes") or [] if note.startswith("The page gives")]
    how = [part for part in str(entry.get("setting") or "").split("; ")
           if not part.endswith("optimized")]  # the throughput and the latency table differ in their tab only
    run_id = re.sub(r"-(?:tput|lat)-", "-", entry["id"])
    return (run_id, entry["checkpoint"], str(entry.get("instance")), str(entry.get("release")),
            str(entry.get("parallelism")), str(entry.get("batch_size")), str(entry.get("sequence_length")),
            str(entry.get("dtype")), str(details), str(how))


def merge_runs(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One configuration per run: a latency-table row of the same run as a throughput-table row (same row, model,
    instance, release, layout, batch, dtype and details) adds its measurements to it, and its source to its notes."""
    kept: list[dict[str, Any]] = []
    by_key: dict[tuple[str, ...], dict[str, Any]] = {}
    for entry in entries:
        key = _run_key(entry)
        first = by_key.get(key)
        if first is None or "-lat-" not in entry["id"] or "-tput-" not in first["id"]:
            by_key.setdefault(key, entry)
            kept.append(entry)
            continue
        measured = first.setdefault("measurements", [])
        measured.extend(m for m in entry.get("measurements") or [] if m not in measured)
        if not measured:
            first.pop("measurements")
        first["notes"] = [*first.get("notes", []),
                          f"The page's latency table gives this run's latency: {entry['source']['url']}."]
    return kept
