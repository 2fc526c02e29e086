"""The contract of tested configurations: a checkpoint run on one instance with one stack, release and
parallelism, what came of it and what was measured, with the source that says so.

A measured result is data only with its configuration, its unit, its source and when it was measured: the Neuron
release it was measured on or, where the source states no release, the date the source validated or published it
(`validated`); pages show such a number with "release not stated". A configuration with neither records its
outcome, never a measurement.
Files: registry/configurations/<source>.yaml, one per harvested source (written by a script under scripts/
that records the commit or tag it read), and registry/configurations/reported/<id>.yaml, one reported run per file.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from neuron_compat.contract.models import (
    TYPE_LABEL,
    Date,
    HttpsUrl,
    Markdown,
    Model,
    NeuronVersion,
    PlainText,
    RepoId,
    Slug,
    StackVersionText,
    _require_text,
)
from neuron_compat.contract.vocabulary import Dtype, Hardware, Quantization, Workload


class Outcome(StrEnum):
    COMPILED_AND_RAN = "compiled-and-ran"
    COMPILE_FAILED = "compile-failed"
    LOAD_FAILED = "load-failed"
    RUN_FAILED = "run-failed"
    UNKNOWN = "unknown"


class EvidenceKind(StrEnum):
    VENDOR_CI = "vendor-ci"
    VENDOR_DOCS = "vendor-docs"
    COMMUNITY_CONTRIBUTION = "community-contribution"
    USER_REPORT = "user-report"


class Metric(StrEnum):
    TOKEN_MATCHING = "token-matching"
    ACCURACY = "accuracy"
    THROUGHPUT = "throughput"
    TTFT = "ttft"
    TPOT = "tpot"
    LATENCY = "latency"
    COMPILE_TIME = "compile-time"
    PEAK_DEVICE_MEMORY = "peak-device-memory"
    MFU = "mfu"
    MBU = "mbu"


class Unit(StrEnum):
    PERCENT = "percent"
    TOKENS_PER_SECOND = "tokens/s"
    REQUESTS_PER_SECOND = "requests/s"
    SAMPLES_PER_SECOND = "samples/s"
    MILLISECONDS = "ms"
    SECONDS = "s"
    MINUTES = "min"
    GIB = "GiB"
    GB = "GB"
    MIB = "MiB"


class Phase(StrEnum):
    CONTEXT_ENCODING = "context-encoding"
    TOKEN_GENERATION = "token-generation"
    END_TO_END = "end-to-end"


OUTCOME_DESCRIPTIONS: dict[str, str] = {
    "compiled-and-ran": "The model compiled, loaded and generated output (whatever its accuracy).",
    "compile-failed": "Compilation failed.",
    "load-failed": "It compiled but did not load onto the device (e.g. out of device memory).",
    "run-failed": "It loaded but failed while running.",
    "unknown": "The source does not say whether it ran.",
}
EVIDENCE_DESCRIPTIONS: dict[str, str] = {
    "vendor-ci": "An AWS or Hugging Face continuous-integration or benchmark run, published.",
    "vendor-docs": "A vendor documentation page (performance page, model recipe) stating the result.",
    "community-contribution": "Code contributed to a vendor repository outside its official support "
                              "(e.g. NxD Inference contrib/models), with the result its README states.",
    "user-report": "Someone's public report (issue thread, forum or blog post) naming what was run and on what.",
}
METRIC_UNITS: dict[str, tuple[str, ...]] = {
    "token-matching": ("percent",),
    "accuracy": ("percent",),
    "throughput": ("tokens/s", "requests/s", "samples/s"),
    "ttft": ("ms", "s"),
    "tpot": ("ms", "s"),
    "latency": ("ms", "s"),
    "compile-time": ("s", "min"),
    "peak-device-memory": ("GiB", "GB", "MiB"),
    "mfu": ("percent",),
    "mbu": ("percent",),
}
"""Each metric and the units it may be given in (the first is the one pages show by default)."""
METRIC_LABELS: dict[str, str] = {
    "token-matching": "Token matching", "accuracy": "Accuracy", "throughput": "Throughput", "ttft": "TTFT",
    "tpot": "TPOT", "latency": "Latency", "compile-time": "Compile time", "peak-device-memory": "Peak device memory",
    "mfu": "MFU", "mbu": "MBU",
}
TIME_METRICS = frozenset({"ttft", "tpot", "latency"})
"""The metrics that are a time per request or token, which a percentile may qualify."""
PERCENT_METRICS = frozenset(metric for metric, units in METRIC_UNITS.items() if units == ("percent",))

_INSTANCE = r"^[a-z][a-z0-9]*\.[a-z0-9]+$"
InstanceRef = Annotated[str, BeforeValidator(_require_text),
                        Field(min_length=3, max_length=40, pattern=_INSTANCE,
                              json_schema_extra={TYPE_LABEL: "instance type (e.g. 'trn1.32xlarge')"})]
PositiveCount = Annotated[int, Field(ge=1, le=10_000_000, strict=True)]
Degree = Annotated[int, Field(ge=1, le=1024, strict=True)]
# a URL that names a commit or a tag: a GitHub blob/tree at a 7-40 hex commit or a v-tag, or a versioned docs page
_PINNED = re.compile(
    r"^https://(?:github\.com/[^/]+/[^/]+/(?:blob|tree)/(?:[0-9a-f]{7,40}|v?[0-9][0-9A-Za-z.+_-]*)/"
    r"|github\.com/[^/]+/[^/]+/(?:issues|pull|discussions)/[0-9]+"
    r"|[a-z0-9.-]+/en/v?[0-9][0-9A-Za-z.+_-]*/"
    r"|huggingface\.co/[^/]+/[^/]+/(?:blob|tree)/[0-9a-f]{7,40}/)")

_LATEST = re.compile(r"^https://awsdocs-neuron\.readthedocs-hosted\.com/en/latest/")
"""A page of the Neuron docs' latest tree: accepted with the page's own date as `validated` (where a page exists in
that tree only, e.g. a tutorial newer than the last versioned tree)."""


def _refuse_boolean(value: Any) -> Any:
    """YAML reads `yes`, `no`, `on`, `off` as booleans, which a lax float would take as 1.0 or 0.0."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number, got the boolean {value!r} (YAML reads yes/no/on/off as true/false: "
                         "write the number the source gives)")
    return value


MeasuredNumber = Annotated[float, BeforeValidator(_refuse_boolean), Field(strict=True)]
"""A measured number: an integer or a decimal as YAML reads it; text (`"90"`, `1:30`) and booleans are refused."""

EARLIEST_DATE = dt.date(2018, 1, 1)
"""No Neuron hardware or SDK existed before this: a validated or taken date earlier than it (year 1, a typo) is
refused by the tested-configurations rule, as is one after today (plus a day, for time zones)."""


def date_problem(value: dt.date, today: dt.date) -> str | None:
    """Why `value` cannot be the date a run was validated (or a harvest taken): after `today` plus a day (time
    zones) or before EARLIEST_DATE, as words that follow the date ('is in the future'); None when it can be.
    The tested-configurations rule and `add-evidence configuration --validated` both ask this."""
    if value > today + dt.timedelta(days=1):
        return "is in the future"
    if value < EARLIEST_DATE:
        return f"is before {EARLIEST_DATE.year}, earlier than any Neuron hardware"
    return None


class Measurement(Model):
    """One measured number: a metric of a closed vocabulary, its value, its unit and the phase it covers."""

    metric: Metric = Field(description="What was measured.")
    name: PlainText | None = Field(
        default=None, description="For `accuracy`: the benchmark or metric name (e.g. 'GSM8K'); for others, "
        "how the source labels it when it is more specific (e.g. 'teacher-forced').")
    value: MeasuredNumber = Field(description="The number, as the source gives it (finite).")
    unit: Unit = Field(description="Its unit; each metric allows only some units (METRIC_UNITS).")
    phase: Phase | None = Field(default=None, description="Context encoding, token generation or end to end, "
                                "where the source says which.")
    percentile: MeasuredNumber | None = Field(
        default=None, gt=0, le=100, description="For a time (`ttft`, `tpot`, `latency`): the percentile the source "
        "gives (50 for P50, 99 for P99); null for a mean or when the source does not say.")
    approximate: bool = Field(default=False, description="The source writes the value as approximate (~).")

    @model_validator(mode="after")
    def _consistent(self) -> Measurement:
        if not math.isfinite(self.value):
            raise ValueError("a measured value must be a finite number")
        allowed = METRIC_UNITS[str(self.metric)]
        if str(self.unit) not in allowed:
            raise ValueError(f"the unit '{self.unit}' does not fit the metric '{self.metric}' "
                             f"(allowed: {', '.join(allowed)})")
        if self.metric == Metric.ACCURACY and not self.name:
            raise ValueError("an accuracy measurement needs the name of its benchmark or metric (name: ...)")
        if str(self.metric) in PERCENT_METRICS and not 0 <= self.value <= 100:
            raise ValueError(f"a percentage must lie between 0 and 100, got {self.value}")
        if self.percentile is not None and str(self.metric) not in TIME_METRICS:
            raise ValueError(f"a percentile qualifies only a time (ttft, tpot, latency), not '{self.metric}'")
        if self.value < 0:
            raise ValueError(f"a measured {self.metric} cannot be negative, got {self.value}")
        return self


class ConfigurationParallelism(Model):
    """The parallel layout the run used; a degree the source does not give is null."""

    tensor: Degree | None = Field(default=None, description="Tensor-parallel degree (TP).")
    pipeline: Degree | None = Field(default=None, description="Pipeline-parallel degree (PP).")
    expert: Degree | None = Field(default=None, description="Expert-parallel degree (EP).")
    data: Degree | None = Field(default=None, description="Data-parallel degree (DP).")
    logical_neuron_cores: Degree | None = Field(
        default=None, description="The logical-NeuronCore setting (LNC) the run used, where the source says it.")


class ConfigurationSource(Model):
    """Where the configuration and its results are written: a URL at a commit or a tag."""

    url: HttpsUrl = Field(description="The file at a commit or tag, a versioned docs page, or an issue thread.")
    title: PlainText | None = Field(default=None, description="A readable title for the link.")


class RecipeFlag(Model):
    """One setting of a documented recipe and, where the source says so, the error it avoids."""

    flag: PlainText = Field(description="The flag or setting as the source writes it (e.g. "
                            "'--gpu-memory-utilization 0.65', 'tp_degree: 64').")
    avoids: PlainText | None = Field(
        default=None, description="The error the source says this setting avoids (an error code such as "
        "'NCC_EVRF009', or the message's words); null when the source gives no such pairing.")
    why: PlainText | None = Field(default=None, description="The source's reason, in a few words of your own.")
    source_line: HttpsUrl | None = Field(default=None, description="The line that says so, when not the "
                                         "configuration's own source line.")


class Recipe(Model):
    """How a documented configuration is started: the command, the settings and the flags the source pairs with
    errors, each as the source gives it."""

    command: list[PlainText] = Field(
        default_factory=list, max_length=80, description="The command line the source runs, one argument per "
        "item (e.g. ['vllm', 'serve', 'Qwen/Qwen3-32B', '--tensor-parallel-size', '8']); empty when it gives none.")
    settings: dict[Slug, PlainText] = Field(
        default_factory=dict, description="Settings the source gives by name (a neuron_config's keys, a training "
        "script's arguments) with their values as text; only those that shape the run (parallelism, batch, "
        "lengths, dtype, kernels).")
    flags: list[RecipeFlag] = Field(default_factory=list, description="Flags the source pairs with a reason or "
                                    "with the error each avoids.")


class TestedConfiguration(Model):
    """A checkpoint run on an instance with a stack at a release, what came of it and what was measured."""

    id: Slug = Field(description="Unique id across all configuration files.")
    family: Slug = Field(description="The family id (families/<id>.yaml) the checkpoint belongs to.")
    checkpoint: PlainText = Field(description="The checkpoint as the source writes it (never an invented org).")
    hub_id: RepoId | None = Field(default=None, description="Its Hub repo id, when the source gives one.")
    stack: Slug = Field(description="The stack id (stacks.yaml).")
    stack_version: StackVersionText | None = Field(
        default=None, description="The stack's own version used, when the source says it (must be in stacks.yaml).")
    release: NeuronVersion | None = Field(
        description="The Neuron release it was measured on (releases.yaml); null when the source does not say.")
    release_stated: PlainText | None = Field(
        default=None, description="The release as the source words it (e.g. 'Neuron SDK 2.28'), when the "
        "release above was read from those words.")
    instance: InstanceRef | None = Field(
        description="The instance type (instances.yaml); null when the source does not say.")
    hardware: Hardware | None = Field(
        default=None, description="The hardware generation, when the source names one but no single instance "
        "type (e.g. 'trn1.32xlarge/trn1n.32xlarge', or 'measured on Trn2'); with an instance, null or that "
        "instance's own. Null with no instance: the source does not say where it ran.")
    workload: Workload | None = Field(
        default=None, description="Inference or training, as the source says; null when not written down (check "
        "then reads a run whose id or checkpoint names training or fine-tuning as training, else as inference).")
    parallelism: ConfigurationParallelism = Field(
        default_factory=ConfigurationParallelism, description="TP / PP / EP / DP / LNC used.")
    batch_size: PositiveCount | None = Field(default=None, description="Batch size (null: not stated).")
    sequence_length: PositiveCount | None = Field(default=None, description="Total sequence length (null: not stated).")
    input_length: PositiveCount | None = Field(default=None, description="Prompt (context) length, where stated.")
    output_length: PositiveCount | None = Field(default=None, description="Generated tokens, where stated.")
    dtype: Dtype | None = Field(default=None, description="The weights' dtype (null: not stated).")
    quantization: Quantization | None = Field(default=None, description="Quantization used, if any.")
    setting: PlainText | None = Field(
        default=None, description="How the source says the run was set up beyond the fields above, as one line "
        "(a table's section, run mode, autocast, a training run's nodes and optimizer); never a software version. "
        "Runs that agree on it and on checkpoint, stack, workload, instance, layout, batch, lengths and dtype are one "
        "configuration measured at several releases (a performance series).")
    outcome: Outcome = Field(description="What came of the run.")
    outcome_qualifier: PlainText | None = Field(
        default=None, description="What the outcome alone hides, shown next to it: an accuracy check that failed or "
        "scored low (e.g. 'accuracy check failed: 0% token match').")
    measurements: list[Measurement] = Field(
        default_factory=list, description="What was measured; refused when both `release` and `validated` are null.")
    validated: Date | None = Field(description="When the run was validated or profiled (or, failing that, when the "
                                   "source published it), per the source; never in the future.")
    source: ConfigurationSource = Field(description="Where it is written.")
    evidence: EvidenceKind = Field(description="What kind of evidence the source is.")
    recipe: Recipe | None = Field(default=None, description="For a documented configuration: how the source "
                                  "starts it (command, settings, flags and the errors they avoid).")
    notes: list[Markdown] = Field(default_factory=list, description="What a reader should know (what was left out).")

    @model_validator(mode="after")
    def _measured_only_at_a_release(self) -> TestedConfiguration:
        if self.measurements and self.release is None and self.validated is None:
            raise ValueError(
                "measurements need the Neuron release they were measured on or the date the source validated "
                "them, and both `release` and `validated` are null (hint: set release to the release the source "
                "names, or validated to the date it gives, or drop the measurements and keep the outcome)")
        if _LATEST.match(self.source.url) and self.validated is None:
            raise ValueError(
                "source.url is a page of the docs' latest tree, which changes without a version: give the page's "
                "own date (its date_updated) as validated, or link a versioned page /en/v2.33.0/...")
        if not _PINNED.match(self.source.url) and not _LATEST.match(self.source.url):
            raise ValueError(
                f"source.url {self.source.url[:80]!r} names no commit or tag (hint: link the file at a commit, "
                "e.g. https://github.com/<org>/<repo>/blob/<commit>/<path>, or a versioned docs page /en/v2.28.0/...)")
        return self


class HarvestRecord(Model):
    """What a harvest script read: the repository and the commit or tag, so a re-run can be compared."""

    script: PlainText = Field(description="The script that wrote the file, e.g. scripts/harvest_nxdi_contrib.py.")
    repository: HttpsUrl = Field(description="The repository or site read.")
    revision: PlainText = Field(description="The commit or tag read.")
    taken: Date = Field(description="When the harvest ran.")


class NotRecorded(Model):
    """A page of the source the harvest read but recorded no configuration from, and why."""

    path: PlainText = Field(description="The page or file.")
    reason: PlainText = Field(description="Why nothing was recorded (no family in the registry, no configuration stated).")


class ConfigurationsFile(Model):
    """registry/configurations/<source>.yaml: the tested configurations of one source."""

    source: Slug = Field(description="The source id; must equal the file name without .yaml.")
    description: Markdown = Field(description="What the source is and how its pages were read.")
    harvest: HarvestRecord | None = Field(
        default=None, description="For a harvested file: the script and the revision it read (null: hand-edited).")
    configurations: list[TestedConfiguration] = Field(default_factory=list, description="The configurations.")
    not_recorded: list[NotRecorded] = Field(default_factory=list, description="Pages read but not recorded, and why.")


class TestedConfigurationsDocument(BaseModel):
    """The configurations section of the compiled document: every file's configurations, by file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    files: list[ConfigurationsFile] = Field(default_factory=list)
