"""Reading the NxD Inference contrib model READMEs (contrib/models/<model>/README.md) into tested configurations.

The READMEs mostly follow one template: a "**Validated:** <date>" line and a "**Configuration:** TP=..,
batch_size=.., seq_len=.., <dtype>" line over a test table (smoke test, token matching, TTFT, throughput),
then a "Device Profiling Metrics" part with its own configuration, "**Instance:** <type> | **Profiled:** <date>",
MFU / MBU per phase, throughput and compile time; some instead end with a "## Performance" part ("Profiled on
<type>", a per-phase table of throughput, MBU and MFU, and an italic "*Batch size .., sequence length .., BF16
precision, TP=..*" line), which is a run of its own with no date. A validation's test table ends at the next
level-2 heading, so such a part's figures are never attached to the validation. A few state the Neuron release ("**SDK:** Neuron SDK 2.28").
Each part becomes one configuration. A value the README writes as `None` is unknown, never zero. Most parts do not
state their Neuron release: their measurements are recorded with the part's own date (Validated / Profiled) and
"release not stated"; a part with neither a release nor a real date keeps its outcome and loses its measurements
(its notes say how many). A token-matching check the README marks failed or low qualifies the outcome.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from harvesters.harvest_script import ascii_count, parse_date
from neuron_compat.contract.hub_ids import is_valid_repo_id

REPOSITORY = "https://github.com/aws-neuron/neuronx-distributed-inference"
STACK = "nxd-inference"
EVIDENCE = "community-contribution"

FAMILY_BY_MODEL_DIR: dict[str, str] = {
    "ERNIE-4.5-0.3B-PT": "ernie4_5", "EXAONE-4.0-1.2B": "exaone4", "Falcon-H1-0.5B-Instruct": "falcon_h1",
    "GLM-4-9B-0414": "glm4", "Llama-2-7b-hf": "llama", "Mistral-Small-3.1-24B-Instruct-2503": "mistral3",
    "Mixtral-8x7B-Instruct-v0.1": "mixtral", "OLMo-2-0425-1B-Instruct": "olmo2", "OLMo-2-1124-7B": "olmo2",
    "OLMo-3-7B-Think": "olmo3", "Phi-3-mini-4k-instruct": "phi3", "Phi-3.5-mini-instruct": "phi3",
    "Phi-3.5-MoE-instruct": "phimoe", "Qwen2-7B-Instruct": "qwen2", "Qwen2.5-VL-32B-Instruct": "qwen2_5_vl",
    "Qwen2.5-VL-3B-Instruct": "qwen2_5_vl", "Qwen3-0.6B": "qwen3", "Qwen3-VL-8B-Thinking": "qwen3_vl",
    "Seed-OSS-36B-Instruct": "seed_oss", "SmolLM3-3B": "smollm3", "c4ai-command-r7b-12-2024": "cohere2",
    "falcon-7b": "falcon", "gemma-2-9b": "gemma2", "gemma-2b-it": "gemma", "gemma-3-1b-it": "gemma3",
    "gemma3-vision": "gemma3", "glm-4-9b-chat-hf": "glm", "gpt-j-6b": "gptj", "gpt-neo-1.3B": "gpt_neo",
    "gpt2": "gpt2", "gpt_bigcode-santacoder": "gpt_bigcode", "granite-3.1-8b-instruct": "granite",
    "hunyuan-7b-instruct": "hunyuan", "lfm2-2.6b": "lfm2", "llava-v1.5-7b": "llava", "opt-1.3b": "opt",
    "phi-1_5": "phi", "pythia-2.8b": "gpt_neox", "recurrentgemma-2b-it": "recurrent_gemma",
    "stablelm-2-1_6b": "stablelm", "starcoder2-3b": "starcoder2", "DeepSeek-V3": "deepseek_v3",
    "chandra": "qwen3_vl", "AFM-4.5B-Base": "arcee", "Apertus-8B-Instruct-2509": "apertus",
    "GLM-5.2": "glm_moe_dsa", "LaughterSegmentation": "wav2vec2", "MiniMax-M3": "minimax_m3_vl",
    "Ministral-4b-instruct": "mistral", "Qwen2.5-Omni-7B": "qwen2_5_omni", "Qwen3.5-2B": "qwen3_5",
    "Qwen3.5-35B-A3B": "qwen3_5", "Trinity": "afmoe", "biogpt": "biogpt", "helium-1-2b": "helium",
    "idefics-9b-instruct": "idefics", "internlm3-8b-instruct": "internlm3", "openai-gpt": "openai-gpt",
    "persimmon-8b-base": "persimmon", "vaultgemma-1b": "vaultgemma", "xglm-564M": "xglm",
    "ltx2-video-audio": "ltx2",
}
"""contrib model directory -> registry family, written by hand from each README's model id and architecture
(and, where the README is vague, the Hugging Face class its code loads as reference: Ministral-4b-instruct loads
`MistralForCausalLM`). A directory not listed here is read but not recorded (its family is not in the registry,
or its model type is not certain from the sources)."""

STACK_BY_MODEL_DIR: dict[str, str] = {"LaughterSegmentation": "torch-neuronx"}
"""contrib models whose README says they run through `torch_neuronx.trace()`, not NxD Inference (default: STACK)."""

WHY_NOT_MAPPED: dict[str, str] = {
    "Janus-1.3B": ("model type not certain: the README names no Hub org and the port reads DeepSeek's remote-code "
                   "`language_config` layout, not transformers' `janus` config"),
    "MiniCPM4-8B": ("remote-code checkpoint: transformers 5.25.0 has no MiniCPM4 model type and the port's "
                    "sources do not state the one its config.json carries"),
    "orion-14b-chat": ("remote-code checkpoint: transformers 5.25.0 has no Orion model type and the port's "
                       "sources do not state the one its config.json carries"),
    "Ovis2.5-9B": ("model type not certain: the port loads AIDC-AI/Ovis2.5-9B's Qwen3 text backbone with remote "
                   "code; transformers' `ovis2_5` is for converted checkpoints"),
    "ZUNA": ("not a transformers model (an EEG diffusion autoencoder), run through `torch_neuronx.trace()`: "
             "no model type or diffusers pipeline to key a family on"),
    "LeVo-2-SongGeneration": ("a multi-stage pipeline (LLM, diffusion, VAE) of its own code: no transformers "
                              "model type or diffusers pipeline to key a family on"),
}
"""contrib model directory -> why no family is mapped, for the READMEs left unrecorded on purpose."""

_DTYPES = {"bfloat16": "bf16", "bf16": "bf16", "float16": "fp16", "fp16": "fp16", "float32": "fp32", "fp32": "fp32"}
_NUMBER = r"~?\s*([0-9][0-9,]*(?:\.[0-9]+)?)"
_DATE = re.compile(r"\*\*Validated:\*\*\s*([0-9]{4}-[0-9]{2}-[0-9]{2})")
_PROFILED = re.compile(r"\*\*Instance:\*\*\s*([a-z][a-z0-9]*\.[a-z0-9]+)\s*\|\s*\*\*Profiled:\*\*\s*"
                       r"([0-9]{4}-[0-9]{2}-[0-9]{2})")
_INSTANCE_LINE = re.compile(r"^\*\*Instance:\*\*\s*([a-z][a-z0-9]*\.[a-z0-9]+)(.*)$")
_PROFILED_ON = re.compile(r"^Profiled on\s+([a-z][a-z0-9]*\.[a-z0-9]+)\b")
_PROFILE_FOOTER = re.compile(r"^\*(Batch size .+)\*\s*$", re.IGNORECASE)
_CONFIGURATION = re.compile(r"^\*\*Configuration:\*\*\s*(.+?)\s*$")
_SDK_LINE = re.compile(r"^\*\*SDK:\*\*(.*)$")
_SDK_VERSION = re.compile(r"\bSDK\s+([0-9]+\.[0-9]+(?:\.[0-9]+)?)\b")
_LNC = re.compile(r"\bLNC\s*=\s*([0-9]+)", re.IGNORECASE)
_HUB_ID = re.compile(r"\*\*HuggingFace ID:\*\*\s*`([^`]+)`")
_EXAMPLE = re.compile(r"^\s*[*-]\s+`?([A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*)`?\s*$")
_ROW = re.compile(r"^\|(.+)\|\s*$")
_PERCENT_MATCH = re.compile(_NUMBER + r"\s*%\s*match", re.IGNORECASE)
_TOK_S = re.compile(_NUMBER + r"\s*tok(?:en)?s?/s(?:ec)?\b", re.IGNORECASE)
_MS = re.compile(_NUMBER + r"\s*ms\b")
_THROUGHPUT_LINE = re.compile(r"\*\*Throughput:\*\*\s*" + _NUMBER + r"\s*tok/s")
_COMPILE_LINE = re.compile(r"\*\*Compile Time:\*\*\s*" + _NUMBER + r"\s*s\b")
_PROFILE_PHASES = ("context-encoding", "token-generation")
_PROFILE_METRICS = {"mfu (%)": "mfu", "mbu (%)": "mbu"}
_STATUS_RAN = re.compile(r"^\*\*Status:\*\*.*\b(?:VALIDATED|PASS|EXCELLENT|GOOD)\b")
_VALIDATION_WINDOW = 12  # lines after "Validated:" that belong to its header (configuration, instance, SDK)


@dataclass
class Part:
    """One configuration a README states, as read (before the release rule drops measurements)."""

    kind: str  # "validated" or "profiled"
    line: int  # 1-based line of its Validated / Instance line, for the source link
    date: str | None
    settings: dict[str, Any] = field(default_factory=dict)
    instance: str | None = None
    lnc: int | None = None
    release_stated: str | None = None
    outcome: str = "unknown"
    qualifier: str | None = None
    measurements: list[dict[str, Any]] = field(default_factory=list)


def _number(text: str) -> float | None:
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _measurement(metric: str, raw: str, unit: str, cell: str, phase: str | None = None,
                 name: str | None = None) -> dict[str, Any] | None:
    value = _number(raw)
    if value is None:
        return None
    found: dict[str, Any] = {"metric": metric}
    if name:
        found["name"] = name
    found.update({"value": value, "unit": unit})
    if phase:
        found["phase"] = phase
    if "~" in cell:
        found["approximate"] = True
    return found


def parse_configuration(text: str) -> dict[str, Any]:
    """'TP=2, batch_size=None, seq_len=512, bfloat16' -> {'tensor': 2, 'seq_len': 512, 'dtype': 'bf16'}.

    `None` (and anything that is not a positive integer) is unknown and left out."""
    settings: dict[str, Any] = {}
    for token in (part.strip() for part in text.split(",")):
        key, _, raw = token.partition("=")
        key = key.strip().lower()
        raw = raw.strip()
        if not raw:
            dtype = _DTYPES.get(key)
            if dtype:
                settings["dtype"] = dtype
            continue
        name = {"tp": "tensor", "tp_degree": "tensor", "batch_size": "batch_size", "seq_len": "sequence_length",
                "pp": "pipeline", "ep": "expert", "dp": "data", "lnc": "lnc"}.get(key)
        count = ascii_count(raw, 1024 if name in ("tensor", "pipeline", "expert", "data", "lnc") else 10_000_000)
        if name and count is not None:
            settings[name] = count
    return settings


def _cells(line: str) -> list[str] | None:
    row = _ROW.match(line.strip())
    if not row:
        return None
    return [cell.strip() for cell in row.group(1).split("|")]


_STATUS_WORDS = (("FAIL", "failed"), ("LOW", "scored low"), ("PARTIAL", "partial"), ("N/A", "marked N/A"),
                 ("WARN", "flagged"))


def _accuracy_qualifier(test: str, status: str, result: str) -> str | None:
    """'accuracy check failed: 0% token match' for a matching row the README marks FAIL, LOW, PARTIAL or N/A."""
    upper = status.upper()
    word = next((said for mark, said in _STATUS_WORDS if mark in upper), None)
    if word is None:
        return None
    value = re.search(r"~?\s*[0-9]+(?:\.[0-9]+)?\s*%", result)
    what = "logit match" if "logit" in test else "token match"
    return f"accuracy check {word}: {' '.join(value.group(0).split()) + ' ' if value else ''}{what}"


def _test_table(lines: Sequence[str], start: int, end: int) -> tuple[str, list[dict[str, Any]], str | None]:
    """The outcome, measurements and accuracy qualifier of a validation part's test table."""
    outcome = "unknown"
    qualifier: str | None = None
    found: list[dict[str, Any]] = []
    for line in lines[start:end]:
        if outcome == "unknown" and _STATUS_RAN.match(line.strip()):
            outcome = "compiled-and-ran"  # the README's verdict line says the port ran
        cells = _cells(line)
        if not cells or len(cells) < 3:
            continue
        test, status, result = cells[0].lower(), cells[1], " | ".join(cells[2:])
        if test.startswith("smoke test"):
            outcome = "compiled-and-ran" if "PASS" in status else "run-failed" if "FAIL" in status else outcome
        elif "match" in test:
            qualifier = qualifier or _accuracy_qualifier(test, status, result)
            match = _PERCENT_MATCH.search(result) if "token match" in test else None
            if match:
                outcome = "compiled-and-ran" if outcome == "unknown" else outcome
                label = "teacher-forced" if "teacher" in test else "greedy" if "greedy" in test else None
                item = _measurement("token-matching", match.group(1), "percent", result, name=label)
                if item:
                    found.append(item)
        elif test.startswith("ttft"):
            match = _MS.search(result)
            item = _measurement("ttft", match.group(1), "ms", result) if match else None
            if item:
                found.append(item)
        elif test.startswith(("throughput", "profiling")):  # 'Profiling | PASS | 437.4 tokens/sec'
            match = _TOK_S.search(result)
            item = _measurement("throughput", match.group(1), "tokens/s", result) if match else None
            if item:
                found.append(item)
    return outcome, found, qualifier


def _profile_metric(label: str) -> str | None:
    """'MFU (%)' or 'MFU (Compute)' -> 'mfu'; 'MBU (%)' or 'MBU (Memory)' -> 'mbu'; else None."""
    label = label.lower()
    if label in _PROFILE_METRICS:
        return _PROFILE_METRICS[label]
    head = label.split("(", 1)[0].strip()
    return head if head in ("mfu", "mbu") else None


def _profile_measurements(lines: Sequence[str], start: int, end: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for line in lines[start:end]:
        cells = _cells(line)
        metric = _profile_metric(cells[0]) if cells and len(cells) == 3 else None
        if cells and metric:
            for phase, cell in zip(_PROFILE_PHASES, cells[1:], strict=True):
                item = _measurement(metric, cell.replace("~", "").replace("%", ""), "percent", cell, phase=phase)
                if item:
                    found.append(item)
        elif cells and len(cells) == 3 and cells[0].lower() == "throughput":  # a per-phase row: '- | 449.3 tok/s'
            for phase, cell in zip(_PROFILE_PHASES, cells[1:], strict=True):
                rate = _TOK_S.search(cell)
                item = _measurement("throughput", rate.group(1), "tokens/s", cell, phase=phase) if rate else None
                if item:
                    found.append(item)
        throughput = _THROUGHPUT_LINE.search(line)
        if throughput:
            item = _measurement("throughput", throughput.group(1), "tokens/s", line)
            if item:
                found.append(item)
        compile_time = _COMPILE_LINE.search(line)
        if compile_time:
            item = _measurement("compile-time", compile_time.group(1), "s", line)
            if item:
                found.append(item)
    return found


def parse_profile_footer(text: str) -> dict[str, Any]:
    """'Batch size 1, sequence length 128, BF16 precision, TP=1' -> {'batch_size': 1, 'sequence_length': 128,
    'dtype': 'bf16', 'tensor': 1}; what it does not state is left out."""
    settings: dict[str, Any] = {}
    for token in (part.strip().lower() for part in text.split(",")):
        words = token.replace("=", " ").split()
        if not words:
            continue
        if token.startswith("batch size") and len(words) == 3:
            count = ascii_count(words[2], 10_000_000)
            if count is not None:
                settings["batch_size"] = count
        elif token.startswith("sequence length") and len(words) == 3:
            count = ascii_count(words[2], 10_000_000)
            if count is not None:
                settings["sequence_length"] = count
        elif token.endswith("precision") and _DTYPES.get(words[0]):
            settings["dtype"] = _DTYPES[words[0]]
        elif words[0] in ("tp", "tp_degree") and len(words) == 2:
            count = ascii_count(words[1], 1024)
            if count is not None:
                settings["tensor"] = count
    return settings


def _header(lines: Sequence[str], start: int, stop: int, part: Part) -> None:
    """Configuration, instance and SDK lines of a part's header (lines start..stop)."""
    for line in lines[start:stop]:
        stripped = line.strip()
        configuration = _CONFIGURATION.match(stripped)
        if configuration and not part.settings:
            part.settings = parse_configuration(configuration.group(1))
        instance = _INSTANCE_LINE.match(stripped)
        if instance and part.instance is None:
            part.instance = instance.group(1)
            lnc = _LNC.search(instance.group(2))
            part.lnc = int(lnc.group(1)) if lnc else None
        sdk = _SDK_LINE.match(stripped)
        if sdk and part.release_stated is None:
            version = _SDK_VERSION.search(sdk.group(1))
            if version:
                part.release_stated = f"SDK {version.group(1)}"
    if part.lnc is None and "lnc" in part.settings:
        part.lnc = part.settings["lnc"]


def parse_readme(text: str) -> list[Part]:
    """The validated and profiled parts of one README, in order."""
    lines = text.splitlines()
    starts: list[tuple[int, str, str | None, str | None]] = []  # (index, kind, date, instance)
    for index, line in enumerate(lines):
        validated = _DATE.search(line)
        if validated:
            starts.append((index, "validated", validated.group(1), None))
        profiled = _PROFILED.search(line)
        if profiled:
            starts.append((index, "profiled", profiled.group(2), profiled.group(1)))
        profiled_on = _PROFILED_ON.match(line.strip())
        if profiled_on:  # 'Profiled on trn1.32xlarge (...)' under '## Performance': no date of its own
            starts.append((index, "profiled", None, profiled_on.group(1)))
    parts: list[Part] = []
    qualifier: str | None = None
    for position, (index, kind, date, instance) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        part = Part(kind=kind, line=index + 1, date=date, instance=instance)
        if kind == "validated":
            # the validation's table ends at the next level-2 heading: a '## Performance' table after it is
            # another run (its own instance and figures), not this one's
            end = next((i for i in range(index + 1, end) if lines[i].startswith("## ")), end)
            stop = min(end, index + _VALIDATION_WINDOW)
            heading = next((i for i in range(index + 1, stop) if lines[i].lstrip().startswith("#")), stop)
            _header(lines, index, heading, part)
            part.outcome, part.measurements, part.qualifier = _test_table(lines, index, end)
            qualifier = qualifier or part.qualifier
        elif date is None:
            end = next((i for i in range(index + 1, end) if lines[i].startswith("#")), end)
            footer = next((m for m in (_PROFILE_FOOTER.match(x.strip()) for x in lines[index:end]) if m), None)
            part.settings = parse_profile_footer(footer.group(1)) if footer else {}
            part.measurements = _profile_measurements(lines, index, end)
            part.outcome = "compiled-and-ran" if part.measurements else "unknown"
        else:
            _header(lines, max(0, index - 2), index + 1, part)  # its Configuration line sits just above
            part.measurements = _profile_measurements(lines, index, end)
            part.outcome = "compiled-and-ran" if part.measurements else "unknown"
        parts.append(part)
    for part in parts:  # the port's accuracy check qualifies every run of it the README reports
        part.qualifier = part.qualifier or qualifier
    return parts


def checkpoint_of(text: str) -> tuple[str | None, str | None]:
    """(checkpoint as written, Hub repo id) from the HuggingFace ID line, else the Example Checkpoints list."""
    stated = _HUB_ID.search(text)
    written = stated.group(1).strip() if stated else None
    if written in (None, "None", ""):
        written = None
        lines = text.splitlines()
        for index, line in enumerate(lines):
            if line.strip().lower().startswith("## example checkpoints"):
                for item in lines[index + 1:index + 8]:
                    example = _EXAMPLE.match(item)
                    if example:
                        written = example.group(1)
                        break
                break
    if written is None:
        return None, None
    return written, written if "/" in written and is_valid_repo_id(written) else None


def release_for(stated: str | None, validated: str | None, releases: Sequence[tuple[str, dt.date]]) -> str | None:
    """The Neuron release a README's 'SDK X.Y[.Z]' names: X.Y.Z when it is listed; for X.Y, the only X.Y.*
    release dated on or before the validation date (None when there are several, none, or no date)."""
    if stated is None:
        return None
    version = stated.removeprefix("SDK ").strip()
    listed = [name for name, _ in releases]
    if version.count(".") == 2:
        return version if version in listed else None
    day = parse_date(validated)
    if day is None:
        return None
    candidates = [name for name, date in releases if name.startswith(version + ".") and date <= day]
    return candidates[0] if len(candidates) == 1 else None


def _listing(measurements: Sequence[dict[str, Any]]) -> str:
    """'token-generation throughput 449.3 tokens/s; context-encoding mbu 11.0 percent; ...' as the README gives them."""
    return "; ".join(" ".join(str(x) for x in (m.get("phase"), m["metric"], m["value"], m["unit"]) if x is not None)
                     for m in measurements)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _layout(entry: dict[str, Any], part: Part) -> None:
    """The part's parallelism, batch size, sequence length and dtype, where it states them."""
    parallelism: dict[str, int] = {name: part.settings[name] for name in ("tensor", "pipeline", "expert", "data")
                   if name in part.settings}
    if part.lnc is not None:
        parallelism["logical_neuron_cores"] = part.lnc
    if parallelism:
        entry["parallelism"] = parallelism
    for key in ("batch_size", "sequence_length", "dtype"):
        if key in part.settings:
            entry[key] = part.settings[key]


def configuration_entries(model_dir: str, text: str, commit: str,
                          releases: Sequence[tuple[str, dt.date]]) -> tuple[list[dict[str, Any]], str | None]:
    """The configurations of one README as YAML-ready dicts, or ([], why none) when it gives none."""
    family = FAMILY_BY_MODEL_DIR.get(model_dir)
    if family is None:
        return [], WHY_NOT_MAPPED.get(model_dir, "no registry family is mapped to this model (FAMILY_BY_MODEL_DIR)")
    checkpoint, hub_id = checkpoint_of(text)
    if checkpoint is None:
        checkpoint = model_dir
    parts = parse_readme(text)
    if not parts:
        return [], "no 'Validated:' or 'Instance: ... | Profiled:' line in the template's form"
    entries: list[dict[str, Any]] = []
    for part in parts:
        release = release_for(part.release_stated, part.date, releases)
        entry: dict[str, Any] = {"id": f"nxdi-contrib-{_slug(model_dir)}-{part.kind}-l{part.line}",
                                 "family": family, "checkpoint": checkpoint}
        if hub_id:
            entry["hub_id"] = hub_id
        entry.update({"stack": STACK_BY_MODEL_DIR.get(model_dir, STACK), "release": release})
        if release is not None and part.release_stated:
            entry["release_stated"] = part.release_stated
        entry["instance"] = part.instance
        _layout(entry, part)
        entry["outcome"] = part.outcome
        if part.qualifier and part.outcome == "compiled-and-ran":
            entry["outcome_qualifier"] = part.qualifier
        notes: list[str] = []
        validated = parse_date(part.date)
        if release is not None or validated is not None:
            entry["measurements"] = part.measurements
        elif part.measurements:
            notes.append(f"The README gives {len(part.measurements)} measured value(s) here ({_listing(part.measurements)}) "
                         "but neither the Neuron release nor a real date they were measured on, so none is recorded as a "
                         "measurement.")
        if part.release_stated and release is None:
            notes.append(f"The README says '{part.release_stated}', which names more than one Neuron release "
                         "listed at its date (or none), so the release is left unknown.")
        entry["validated"] = validated
        entry["source"] = {"url": f"{REPOSITORY}/blob/{commit}/contrib/models/{model_dir}/README.md#L{part.line}",
                           "title": f"NxD Inference contrib {model_dir} README ({part.kind})"}
        entry["evidence"] = EVIDENCE
        if notes:
            entry["notes"] = notes
        entries.append(entry)
    return entries, None
