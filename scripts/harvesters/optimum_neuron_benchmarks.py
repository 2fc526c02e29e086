"""Reading the Optimum Neuron benchmark results (github.com/huggingface/optimum-neuron) into tested configurations.

Two kinds of page at a tag:

- ``benchmark/vllm/<layout>/<dir>/``: a ``.env`` (MODEL_ID, batch size, sequence length, tensor-parallel size) and
  guidellm summaries (``vllm-results*.csv``: one row per load profile of a run, keyed by model and run date). Each
  run (model and date) is one configuration; rows naming another model than the ``.env`` (a local path) are not
  recorded. Data-parallel runs take their degrees from the docker-compose file of the same suffix.
- ``docs/source/benchmarks/*.mdx``: a batch size x sequence length table and a "compiled to use N devices
  corresponding to M cores on the `<instance>`" note; its results are chart images only.

None of these pages states the Neuron release (or the optimum-neuron version) the results were measured with: a
results file's measurements are recorded with the run's date (from its Date column) and "release not stated"; the
docs pages give their results as chart images only, so they record configurations and outcomes.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from harvesters.harvest_script import ascii_count, parse_date

REPOSITORY = "https://github.com/huggingface/optimum-neuron"
STACK = "optimum-neuron"
EVIDENCE = "vendor-ci"

FAMILY_BY_MODEL_ID: dict[str, str] = {
    "meta-llama/Meta-Llama-3.1-8B-Instruct": "llama", "meta-llama/Llama-3.1-8B-Instruct": "llama",
    "meta-llama/Llama-3.3-70B-Instruct": "llama",
    "meta-llama/Llama-4-Maverick-17B-128E-Instruct": "llama4", "meta-llama/Llama-4-Scout-17B-16E-Instruct": "llama4",
    "Qwen/Qwen3-235B-A22B-Instruct-2507": "qwen3_moe", "Qwen/Qwen3-30B-A3B-Instruct-2507": "qwen3_moe",
    "Qwen/Qwen3-32B": "qwen3",
}
"""MODEL_ID of a benchmark ``.env`` -> registry family, by hand from each checkpoint's model type."""

FAMILY_BY_DOCS_PAGE: dict[str, str] = {
    "inferentia-llama3.1-8b.mdx": "llama", "inferentia-llama3.3-70b.mdx": "llama",
}

INSTANCE_BY_DIRECTORY: dict[str, tuple[str, str, str]] = {
    "qwen3-32B-trn2": ("trn2.3xlarge", "56c35e6d07020b80ab26be19fdd826609ef426fe",
                       "perf(vllm): add Qwen3-32B trn2.3xlarge benchmark"),
    "qwen3-30B-A3B-trn2": ("trn2.3xlarge", "b0a576eb2eceef3a9119e67039fddfe0d4b71044",
                           "perf: add Qwen3MoE single instance benchmark on trn2.3xl"),
}
"""Benchmark directories whose instance type the commit that added them names (directory -> instance, commit,
its subject). The files themselves only say 'trn2' in the directory name."""

_ENV_LINE = re.compile(r"^([A-Z_]+)=(.*)$")
_RUN_DATE = re.compile(r"^([0-9]{4}-[0-9]{2}-[0-9]{2})-")
_TP_REQUIREMENT = re.compile(r"tensor parallel size of ([0-9]+) require an? `?([a-z][a-z0-9]*\.[a-z0-9]+)`? instance")
_DOCS_CORES = re.compile(r"compiled to use ([0-9]+) devices corresponding to ([0-9]+) cores on the "
                         r"`([a-z][a-z0-9]*\.[a-z0-9]+)` instance")
_DOCS_TITLE = re.compile(r"^#\s+(\S+)\s+performance on", re.MULTILINE)
_ROW = re.compile(r"^\|(.+)\|\s*$")

CSV_COLUMNS: dict[str, tuple[str, str, str]] = {
    "Requests per Second": ("throughput", "requests/s", "requests per second"),
    "Request Latency (s)": ("latency", "s", "request latency"),
    "Time-to-first-token (ms)": ("ttft", "ms", "time to first token"),
    "Inter Token Latency (ms)": ("tpot", "ms", "inter-token latency"),
    "Output Token Throughput (t/s)": ("throughput", "tokens/s", "output token throughput"),
}
"""guidellm summary columns with a metric of the contract (column -> metric, unit, label). 'Request Latency (s)'
is the end-to-end latency of a request."""


@dataclass
class Run:
    """One benchmark run (a model and a run date) of one results file."""

    model_key: str
    run_id: str
    date: dt.date | None
    line: int = 0  # the 1-based line of its first row
    measurements: list[dict[str, Any]] = field(default_factory=list)


def parse_env(text: str) -> dict[str, str]:
    """KEY=value lines of a ``.env`` file, quotes removed."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = _ENV_LINE.match(line.strip())
        if match:
            found[match.group(1)] = match.group(2).strip().strip("'\"")
    return found


def _positive(text: str | None) -> int | None:
    return ascii_count(text)


def parse_results(text: str) -> list[Run]:
    """The runs of a guidellm summary CSV, in file order, with every measurement its rows give."""
    runs: dict[tuple[str, str], Run] = {}
    reader = csv.DictReader(io.StringIO(text))
    try:
        rows = [(row, reader.line_num) for row in reader]
    except csv.Error:  # an oversized field, a NUL byte: not a summary this reader knows
        return []
    for row, line in rows:
        if None in row:  # more cells than the header names
            row.pop(None)
        model_key, run_id = (row.get("model_id") or "").strip(), (row.get("Date") or "").strip()
        if not model_key or not run_id:
            continue
        date = _RUN_DATE.match(run_id)
        run = runs.setdefault((model_key, run_id), Run(model_key, run_id,
                                                       parse_date(date.group(1)) if date else None, line))
        profile = (row.get("Input type") or "").strip()
        for column, (metric, unit, label) in CSV_COLUMNS.items():
            raw = (row.get(column) or "").strip()
            if not raw.isascii() or len(raw) > 40:
                continue
            try:
                value = float(raw)
            except ValueError:
                continue
            if not math.isfinite(value) or value < 0 or value > 1e12:
                continue
            item: dict[str, Any] = {"metric": metric, "name": f"{label}, {profile}" if profile else label,
                                    "value": round(value, 4), "unit": unit}
            if metric == "latency":
                item["phase"] = "end-to-end"
            run.measurements.append(item)
    return list(runs.values())


def tp_requirements(readme: str) -> dict[int, str]:
    """'configurations that use a tensor parallel size of 32 require a trn1.32xlarge instance' -> {32: ...}."""
    return {int(m.group(1)): m.group(2) for m in _TP_REQUIREMENT.finditer(readme)}


def compose_degrees(text: str) -> tuple[int | None, int | None]:
    """(tensor degree, number of replicas) of a docker-compose file of vLLM replicas (None when not uniform)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None, None
    services = data.get("services") if isinstance(data, dict) else None
    degrees: set[str] = set()
    replicas = 0
    for service in (services.values() if isinstance(services, dict) else []):
        environment = service.get("environment") if isinstance(service, dict) else None
        if isinstance(environment, dict):
            environment = [f"{key}={value}" for key, value in environment.items()]
        if not isinstance(environment, list):
            continue
        values = dict(str(item).split("=", 1) for item in environment if "=" in str(item))
        if "SM_ON_TENSOR_PARALLEL_SIZE" in values:
            replicas += 1
            degrees.add(values["SM_ON_TENSOR_PARALLEL_SIZE"])
    tensor = _positive(degrees.pop()) if len(degrees) == 1 else None
    return tensor, replicas or None


def compose_devices(text: str) -> tuple[int | None, int | None]:
    """(Neuron devices each replica is given, the highest device number + 1) of a docker-compose file whose
    services list `/dev/neuronN` devices (None when the replicas differ or list none)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None, None
    services = data.get("services") if isinstance(data, dict) else None
    per_replica: set[int] = set()
    highest = -1
    for service in (services.values() if isinstance(services, dict) else []):
        devices = service.get("devices") if isinstance(service, dict) else None
        numbers = [int(match.group(1)) for item in devices or []
                   if (match := re.fullmatch(r"/dev/neuron([0-9]{1,3})(?::.*)?", str(item).strip()))]
        if numbers:
            per_replica.add(len(numbers))
            highest = max(highest, *numbers)
    return (per_replica.pop() if len(per_replica) == 1 else None), (highest + 1 if highest >= 0 else None)


def derived_hardware(tensor: int | None, compose_text: str,
                     layouts: dict[str, tuple[int, int, str]]) -> tuple[str | None, str | None]:
    """(hardware, the note saying how) from devices x TP: each replica's TP degree over the devices it is given is
    the NeuronCores per device, and the highest device number bounds the devices the instance has; the hardware
    when every instance of instances.yaml with that many cores per device and at least that many devices is of one
    generation (`layouts`: instance -> (devices, NeuronCores, hardware)); else (None, None)."""
    per_replica, devices = compose_devices(compose_text)
    if not tensor or not per_replica or not devices or tensor % per_replica:
        return None, None
    cores = tensor // per_replica
    fitting = sorted(name for name, (chips, total, _) in layouts.items()
                     if chips and total and total % chips == 0 and total // chips == cores and chips >= devices)
    generations = {layouts[name][2] for name in fitting}
    if len(generations) != 1:
        return None, None
    hardware = generations.pop()
    return hardware, (f"The source names no instance type; derived from devices x TP: each replica is given "
                      f"{per_replica} Neuron devices at TP {tensor} ({cores} NeuronCores per device) and the file uses "
                      f"{devices} devices (/dev/neuron0-{devices - 1}): of the instances recorded, only "
                      f"{', '.join(fitting)} ({hardware}) have that layout.")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _url(commit: str, path: str) -> str:
    return f"{REPOSITORY}/blob/{commit}/{path}"


def _dropped_note(count: int, what: str) -> str:
    return (f"The {what} gives {count} measured value(s) for this run but states neither the Neuron release, "
            "nor the optimum-neuron version, nor a real date it was measured on, so none is recorded.")


def _where(directory: str, tensor: int | None, instance_by_tp: dict[int, str], compose_text: str | None,
           layouts: dict[str, tuple[int, int, str]] | None) -> tuple[str | None, str | None, list[str]]:
    """(instance, hardware, notes) of a benchmark directory: the instance its commit or the README names, else the
    hardware devices x TP give."""
    instance: str | None = None
    notes: list[str] = []
    named = INSTANCE_BY_DIRECTORY.get(directory)
    if named:
        instance = named[0]
        notes.append(f"The instance type is the one named by the commit that added these results "
                     f"({REPOSITORY}/commit/{named[1]}: '{named[2]}').")
    elif compose_text is None and "trn2" not in directory and tensor in instance_by_tp:
        instance = instance_by_tp[tensor]
        notes.append(f"The instance type follows benchmark/vllm/single-instance/README.md: configurations with "
                     f"a tensor parallel size of {tensor} require a {instance}.")
    elif "trn2" in directory:
        notes.append("The directory name says trn2; the instance type is not stated.")
    hardware: str | None = None
    if instance is None and compose_text is not None and layouts:
        hardware, how = derived_hardware(tensor, compose_text, layouts)
        if how:
            notes.append(how)
    return instance, hardware, notes


def results_entries(directory: str, env_text: str, results_path: str, results_text: str, commit: str,
                    instance_by_tp: dict[int, str], compose_text: str | None = None,
                    layouts: dict[str, tuple[int, int, str]] | None = None
                    ) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The configurations of one results file of ``benchmark/vllm/<layout>/<directory>/``, and what was not
    recorded (runs of another model than the ``.env`` names, or a model without a family)."""
    env = parse_env(env_text)
    model_id = env.get("MODEL_ID", "")
    family = FAMILY_BY_MODEL_ID.get(model_id)
    if family is None:
        return [], [{"path": results_path,
                     "reason": f"no registry family is mapped to MODEL_ID '{model_id}' (FAMILY_BY_MODEL_ID)"}]
    batch = _positive(env.get("BATCH_SIZE") or env.get("MAX_BATCH_SIZE"))
    sequence = _positive(env.get("SEQUENCE_LENGTH") or env.get("MAX_TOTAL_TOKENS"))
    tensor = _positive(env.get("TENSOR_PARALLEL_SIZE"))
    replicas: int | None = None
    if compose_text is not None:
        tensor, replicas = compose_degrees(compose_text)
    instance, hardware, notes = _where(directory, tensor, instance_by_tp, compose_text, layouts)
    entries: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    wanted = model_id.replace("/", "_")
    for run in parse_results(results_text):
        if run.model_key != wanted:
            skipped.append({"path": f"{results_path} (run {run.run_id})",
                            "reason": f"the rows name '{run.model_key}', not the MODEL_ID '{model_id}' of "
                                      "the .env beside them, so their checkpoint is not known"})
            continue
        suffix = results_path.rsplit("/", 1)[-1].removeprefix("vllm-results").removesuffix(".csv")
        stamp = re.sub(r"[^0-9]", "", run.run_id)
        stamp = f"{stamp[:8]}t{stamp[8:]}" if len(stamp) > 8 else stamp
        entry: dict[str, Any] = {"id": "-".join(part for part in ("optimum-neuron", _slug(directory), _slug(suffix),
                                                                  stamp) if part),
                                 "family": family, "checkpoint": model_id, "hub_id": model_id, "stack": STACK,
                                 "release": None, "instance": instance}
        if hardware is not None:
            entry["hardware"] = hardware
        entry["workload"] = "inference"
        parallelism = {key: value for key, value in (("tensor", tensor), ("data", replicas)) if value}
        if parallelism:
            entry["parallelism"] = parallelism
        if batch:
            entry["batch_size"] = batch
        if sequence:
            entry["sequence_length"] = sequence
        entry.update({"outcome": "compiled-and-ran" if run.measurements else "unknown", "validated": run.date,
                      "source": {"url": _url(commit, results_path) + (f"#L{run.line}" if run.line else ""),
                                 "title": f"Optimum Neuron vLLM benchmark {directory} ({run.run_id})"},
                      "evidence": EVIDENCE})
        if run.measurements and run.date is not None:
            entry["measurements"] = run.measurements
            entry_notes = notes
        else:
            entry_notes = [*notes, _dropped_note(len(run.measurements), "results file")] if run.measurements else notes
        if entry_notes:
            entry["notes"] = list(entry_notes)
        entries.append(entry)
    return entries, skipped


def docs_entries(page: str, text: str, commit: str) -> tuple[list[dict[str, Any]], str | None]:
    """The configurations of one ``docs/source/benchmarks/<page>`` (one per table row), or ([], why none)."""
    family = FAMILY_BY_DOCS_PAGE.get(page)
    if family is None:
        return [], "no registry family is mapped to this page (FAMILY_BY_DOCS_PAGE)"
    cores = _DOCS_CORES.search(text)
    title = _DOCS_TITLE.search(text)
    if cores is None or title is None:
        return [], "no 'compiled to use N devices corresponding to M cores on the <instance>' note or title"
    path = f"docs/source/benchmarks/{page}"
    entries: list[dict[str, Any]] = []
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        row = _ROW.match(line.strip())
        cells = [cell.strip() for cell in row.group(1).split("|")] if row else []
        if len(cells) != 3 or ascii_count(cells[1]) is None or ascii_count(cells[2]) is None:
            continue
        entries.append({
            "id": f"optimum-neuron-docs-{_slug(cells[0])}", "family": family,
            "checkpoint": title.group(1), "stack": STACK, "release": None, "instance": cores.group(3),
            "parallelism": {"tensor": int(cores.group(2))}, "batch_size": int(cells[1]),
            "sequence_length": int(cells[2]), "outcome": "compiled-and-ran", "validated": None,
            "source": {"url": f"{_url(commit, path)}#L{number}",
                       "title": f"Optimum Neuron benchmark page {page[:-4]} ({cells[0]})"},
            "evidence": EVIDENCE,
            "notes": ["The page gives its time to first token, inter-token latency and throughput only as chart "
                      "images, and states neither the Neuron release nor the optimum-neuron version, so no "
                      "measurement is recorded; the tensor degree is the number of cores the note says the "
                      "model was compiled for."],
        })
    if not entries:
        return [], "no batch_size / sequence_length table"
    return entries, None
