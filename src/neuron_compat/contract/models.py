"""The data contract: pydantic models of the registry files.

Everything else (loading, rules, rendering, resolving) depends on these models; they depend on
nothing but the vocabularies. Field names here are the YAML keys and the JSON API keys.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from neuron_compat.contract import catalogue_rules
from neuron_compat.contract.hub_ids import (
    REPO_ID_MAX_LENGTH,
    REPO_ID_PATTERN,
    REPO_ID_REFUSED,
    is_valid_repo_id,
)
from neuron_compat.contract.schema_rules import (
    END,
    Catalogue,
    CatalogueRef,
    TextRule,
    add_model_rules,
    any_case,
    character_class,
    controls_rule,
    given,
    non_empty,
    refuse_text,
    when,
)
from neuron_compat.contract.statement_requirements import STATUSES_NEEDING_NOTES, STATUSES_NEEDING_SINCE
from neuron_compat.contract.versions import NEURON_VERSION_PATTERN, is_neuron_version
from neuron_compat.contract.vocabulary import (
    Attention,
    ConstraintKind,
    Dtype,
    Hardware,
    ModelClass,
    Quantization,
    SourceKind,
    StackStatus,
    Status,
    Task,
    Workload,
)
from neuron_compat.safeio.safe_text import BIDI_CHARACTERS, first_unsafe_character, one_line

SLUG_PATTERN = r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"
_SLUG = re.compile(SLUG_PATTERN)

# The text rules, each one pattern read by the validators below and by the editor schema (schema_rules.py).
_RAW_HTML = TextRule(
    rf"<\s*/?\s*[A-Za-z!][^>]*>|<\s*/?\s*[A-Za-z]+\s*{END}|&#?[A-Za-z0-9]+;",
    "raw HTML is not allowed in registry text; write Markdown (`code`, *emphasis*, [text](https://...))")
# Inline links `[x](javascript:...)` and reference definitions `[x]: javascript:...` (which any Markdown
# renderer of the JSON API would turn into a link); any ASCII case, a definition at the start of any line.
_UNSAFE_LINK = TextRule(
    r"\](?:\s*\(|:)[\s>]*<?\s*(?!" + any_case("https") + r"\\?:)[A-Za-z](?:[A-Za-z0-9]|\\?[+.\-]){0,31}\\?:",
    "links in registry text must be https://")
_MARKDOWN_CONTROLS = controls_rule(allowed="\n\t")
_SINGLE_LINE = TextRule(r"\n", "must be a single line")
_PLAIN_CONTROLS = controls_rule()
_ANGLE_BRACKETS = TextRule(r"[<>]", "angle brackets are not allowed in names")
_URL_CHARACTERS = TextRule(r"[\s<>\"'`]", "links must not contain spaces, quotes or angle brackets")
# Invisible format characters (Unicode category Cf: zero-width spaces, joiners, bidi marks) in links.
_URL_INVISIBLE = TextRule(character_class("".join(chr(p) for p in range(0x10000) if not 0xD800 <= p <= 0xDFFF
                                                  and unicodedata.category(chr(p)) == "Cf").replace("\\", "")),
                          "invisible format characters are not allowed in links")
_NOT_A_REPO_ID = TextRule(rf"^(?!(?:{REPO_ID_PATTERN}){END})|{REPO_ID_REFUSED}",
                          "not a Hugging Face Hub repo id such as 'meta-llama/Llama-3.1-8B'")
# Beyond the pattern above (which the editor schema shares), link destinations are decided conservatively:
# after undoing Markdown's backslash escapes (`javascript\:` is `javascript:` to CommonMark), every scheme that
# follows `](` (an inline link or image, `<...>` form too) or `]:` (a reference definition, at any depth: inside a
# block quote or a list item, the destination on the next line after a `>`) must be https. Autolinks
# `<scheme:...>` and entities such as `&colon;` are raw HTML to _RAW_HTML. Any Markdown renderer of the JSON API
# therefore makes no other link.
_BACKSLASH_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_LINK_SCHEME = re.compile(r"\](?:\s*\(|:)[\s>]*<?\s*(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]{0,31}):")


def _require_text(value: Any) -> Any:
    """Refuse numbers, booleans and dates where text is expected (YAML reads 2.20 as a float)."""
    if type(value) is str:  # the common case, first
        return value
    if isinstance(value, bool) or isinstance(value, (int, float, dt.date)):
        raise ValueError(f"expected text in quotes, got the {type(value).__name__} {value!r}")
    return value


def _refuse_number_as_date(value: Any) -> Any:
    """pydantic reads a number as a Unix timestamp: `verified: 0` would become 1970-01-01."""
    if type(value) is dt.date:  # the common case, first
        return value
    if isinstance(value, (bool, int, float)):
        raise ValueError(f"expected a date written YYYY-MM-DD, got the {type(value).__name__} {value!r}")
    return value


def _shown(value: str) -> str:
    """A value quoted in a message: at most 60 characters of it."""
    return repr(value) if len(value) <= 60 else repr(value[:60]) + f"... ({len(value)} characters)"


def _check_neuron_version(value: str) -> str:
    if not is_neuron_version(value):
        raise ValueError(f"{_shown(value)} is not a Neuron SDK version of the form MAJOR.MINOR.PATCH such as '2.21.0'")
    return value


def _check_slug(value: str) -> str:
    if not _SLUG.fullmatch(value):
        raise ValueError(f"{_shown(value)} is not a lowercase slug (a-z, 0-9, '-' or '_' between them)")
    return value


def _check_https(value: str) -> str:
    if not value.startswith("https://"):
        raise ValueError(f"links must start with https:// (got {one_line(value[:60])!r})")
    _refuse_controls(value)  # the rule of every text field: no ESC, BEL, line separators or bidi marks
    # ASCII has no format (Cf) character: the common case skips the per-character scan
    invisible = None if value.isascii() else next((ch for ch in value if unicodedata.category(ch) == "Cf"), None)
    if invisible is not None:
        raise ValueError(f"invisible format characters are not allowed in links (found U+{ord(invisible):04X}); "
                         "percent-encode it if the address really has it")
    return refuse_text(_URL_CHARACTERS)(value)


def _check_markdown(value: str) -> str:
    refuse_text(_RAW_HTML, _UNSAFE_LINK)(value)
    unescaped = _BACKSLASH_ESCAPE.sub(r"\1", value)
    for match in _LINK_SCHEME.finditer(unescaped):
        if match.group("scheme").lower() != "https":
            raise ValueError("links in registry text must be https://")
    _refuse_controls(value, allowed="\n\t")  # the message names the character (_MARKDOWN_CONTROLS is its pattern)
    return value


def _refuse_controls(value: str, allowed: str = "") -> None:
    """Control characters (C0, C1, DEL), line and paragraph separators and bidirectional marks are refused."""
    found = first_unsafe_character(value, allowed)
    if found is not None:
        kind = "bidirectional control characters" if found in BIDI_CHARACTERS else "control characters"
        raise ValueError(f"{kind} are not allowed in registry text (found U+{ord(found):04X})")


def _check_plain_text(value: str) -> str:
    refuse_text(_SINGLE_LINE)(value)
    _refuse_controls(value)  # the message names the character (_PLAIN_CONTROLS is its pattern)
    return refuse_text(_ANGLE_BRACKETS)(value)


def _check_repo_id(value: str) -> str:
    if not is_valid_repo_id(value):
        raise ValueError(f"{_shown(value)} is not a Hugging Face Hub repo id such as 'meta-llama/Llama-3.1-8B'")
    return value


Date = Annotated[dt.date, BeforeValidator(_refuse_number_as_date)]
# strict: YAML reads `yes` as True, which a lax int would take as the degree 1
Degree = Annotated[int, Field(ge=1, le=1024, strict=True)]
Text = Annotated[str, BeforeValidator(_require_text), Field(min_length=1, max_length=2000)]
# TYPE_LABEL in json_schema_extra: how the schema reference (site/pages/contributing.py) names the type.
TYPE_LABEL = "x-type-label"
PlainText = Annotated[str, BeforeValidator(_require_text), AfterValidator(_check_plain_text),
                      Field(min_length=1, max_length=200, json_schema_extra={TYPE_LABEL: "text (one line)"}),
                      _SINGLE_LINE, _PLAIN_CONTROLS, _ANGLE_BRACKETS]
Markdown = Annotated[str, BeforeValidator(_require_text), AfterValidator(_check_markdown),
                     Field(min_length=1, max_length=2000,
                           json_schema_extra={TYPE_LABEL: "Markdown (code, *emphasis*, https links)"}),
                     _RAW_HTML, _UNSAFE_LINK, _MARKDOWN_CONTROLS]
Slug = Annotated[str, BeforeValidator(_require_text), AfterValidator(_check_slug),
                 Field(max_length=64, json_schema_extra={"pattern": SLUG_PATTERN, TYPE_LABEL: "slug (a-z, 0-9, - or _)"})]
NeuronVersion = Annotated[
    str,
    BeforeValidator(_require_text),
    AfterValidator(_check_neuron_version),
    Field(json_schema_extra={"pattern": NEURON_VERSION_PATTERN, TYPE_LABEL: "Neuron release (quoted, e.g. '2.21.0')"},
          description="A Neuron SDK release listed in releases.yaml, quoted: '2.21.0'."),
]
StackVersionText = Annotated[str, BeforeValidator(_require_text),
                             Field(min_length=1, max_length=40, pattern=r"^[0-9][0-9A-Za-z.+-]*$",
                                   json_schema_extra={TYPE_LABEL: "version text (e.g. '0.4.5')"})]
PinVersion = Annotated[str, BeforeValidator(_require_text),
                       Field(min_length=1, max_length=60, pattern=r"^[0-9][0-9A-Za-z.+*-]*$",
                             json_schema_extra={TYPE_LABEL: "pinned version (e.g. '2.21.33363.0' or '2.8.0.*')"})]
HttpsUrl = Annotated[str, BeforeValidator(_require_text), AfterValidator(_check_https),
                     Field(max_length=500, json_schema_extra={"pattern": "^https://", TYPE_LABEL: "https URL"}),
                     _URL_CHARACTERS, _PLAIN_CONTROLS, _URL_INVISIBLE]
RepoId = Annotated[str, BeforeValidator(_require_text), AfterValidator(_check_repo_id),
                   Field(max_length=REPO_ID_MAX_LENGTH, json_schema_extra={TYPE_LABEL: "Hub repo id (owner/name)"}),
                   _NOT_A_REPO_ID]
ReleaseRef = Annotated[NeuronVersion, CatalogueRef("release")]
"""A release that releases.yaml lists (the editor schema enumerates them)."""
StackRef = Annotated[Slug, CatalogueRef("stack")]
"""A stack that stacks.yaml lists (the editor schema enumerates them)."""
Identifier = Annotated[str, BeforeValidator(_require_text),
                       Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$", json_schema_extra={TYPE_LABEL: "identifier"})]


class Model(BaseModel):
    """Base of every registry model: unknown keys are errors; instances are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=True, validate_default=False,
                              json_schema_extra=add_model_rules)

    @classmethod
    def schema_rules(cls, catalogue: Catalogue | None) -> list[dict[str, Any]]:
        """`allOf` entries of the editor schema for this model's own rules (schema_rules.add_model_rules)."""
        return []


# --- releases.yaml ------------------------------------------------------------------------------


class NotStated(Model):
    """A component whose version no reachable source gives for a release, and what was read looking for it.

    The release says so (its page shows the component as "not stated") instead of staying silent, and the
    `release-components` warning no longer asks for a version someone already looked for."""

    component: Identifier = Field(description="The component (a `components` key, e.g. 'vllm-neuron').")
    reason: PlainText = Field(description="Why no version is recorded: what the sources read say, or do not say.")
    read: list[HttpsUrl] = Field(min_length=1, description="The pages read that give no version.")


class Release(Model):
    """One Neuron SDK release."""

    version: NeuronVersion
    date: Date = Field(description="Release date (YYYY-MM-DD) from the release notes.")
    notes_url: HttpsUrl = Field(description="The release notes of this release.")
    hardware: list[Hardware] = Field(default_factory=list, description="Hardware this release supports.")
    components: dict[Identifier, PlainText] = Field(
        default_factory=dict, description="Versions of the main packages in this release, as its notes give them."
    )
    summary: Markdown | None = Field(default=None, description="One sentence on what changed for model support.")
    not_stated: list[NotStated] = Field(
        default_factory=list,
        description="Components whose version no reachable source gives for this release, each with what was read.")

    @model_validator(mode="after")
    def _not_stated_is_not_given(self) -> Release:
        given_twice = [item.component for item in self.not_stated if item.component in self.components]
        if given_twice:
            raise ValueError(f"{', '.join(given_twice)}: listed in both components and not_stated (keep one)")
        return self


class ReleasesFile(Model):
    releases: list[Release] = Field(min_length=1, description="Every Neuron SDK release the registry knows, oldest first.")


# --- stacks.yaml --------------------------------------------------------------------------------


class StackVersion(Model):
    """A release of a stack with its own version line (e.g. optimum-neuron 0.4.5)."""

    version: StackVersionText = Field(description="The stack's own version, e.g. '0.4.5'.")
    neuron: ReleaseRef = Field(description="The Neuron SDK release this version targets.")
    date: Date | None = Field(default=None, description="Release date of that version.")
    pins: dict[Identifier, PinVersion] = Field(
        default_factory=dict,
        description="The versions this version's own package pins (pip name -> version as its metadata writes it, "
        "e.g. torch: '2.8.0.*'). `check` installs these instead of the Neuron release's component versions.")
    pins_source: HttpsUrl | None = Field(
        default=None, description="Where the pins are stated: the package's metadata (PyPI) or its pyproject.toml at "
        "the tag. Required with `pins`.")

    @model_validator(mode="after")
    def _pins_cited(self) -> StackVersion:
        if self.pins and self.pins_source is None:
            raise ValueError("pins need pins_source: the package metadata or pyproject.toml that states them")
        return self


class CodePath(Model):
    """One of a stack's code paths: which modeling code runs a model, chosen by the model's class.

    A stack with several paths (e.g. Optimum Neuron's decoder backend, traced transformers modeling and diffusers)
    scopes each capability range to some of them, so a statement inherits only what its own path runs.
    """

    id: Slug = Field(description="Short id used by capability ranges, e.g. 'decoder-backend'.")
    name: PlainText = Field(description="Display name.")
    classes: list[ModelClass] = Field(min_length=1, description="The model classes this path runs.")
    description: Markdown | None = Field(default=None, description="What runs on this path, in Markdown.")


class StackEnd(Model):
    """Where a stack stops for some workloads or hardware while it lives on for the rest (e.g. PyTorch/XLA
    training ends at 2.30.0, its inference on Trn2/Trn3 at 2.34.0). `end_of_support` ends a stack everywhere."""

    workloads: list[Workload] = Field(
        default_factory=list, description="The workloads that end (every workload of the stack when empty).")
    hardware: list[Hardware] = Field(
        default_factory=list, description="The hardware they end on (every hardware of the stack when empty).")
    release: NeuronVersion = Field(description="First Neuron release without them (exclusive, like `until`).")
    source: HttpsUrl = Field(description="Where the end is stated.")

    def ends(self, workload: str, hardware: str) -> bool:
        """Does this end apply to `workload` on `hardware`?"""
        return (not self.workloads or workload in self.workloads) and (not self.hardware or hardware in self.hardware)


class Stack(Model):
    """A software stack that runs models on Neuron devices."""

    id: Slug = Field(description="Short id used in family files, e.g. 'nxd-inference'.")
    name: PlainText = Field(description="Display name.")
    description: Markdown = Field(description="What the stack is, in Markdown.")
    docs_url: HttpsUrl = Field(description="Its documentation.")
    repo_url: HttpsUrl | None = Field(default=None, description="Its source repository.")
    hardware: list[Hardware] = Field(min_length=1, description="Hardware it runs on.")
    workloads: list[Workload] = Field(min_length=1, description="Workloads it serves.")
    status: StackStatus = Field(description="Its lifecycle.")
    since: ReleaseRef | None = Field(default=None, description="First catalogued Neuron release that ships it.")
    end_of_support: ReleaseRef | None = Field(default=None, description="First Neuron release without it.")
    status_source: HttpsUrl | None = Field(default=None, description="Where the lifecycle is stated.")
    ends: list[StackEnd] = Field(
        default_factory=list,
        description="Ends for some workloads or hardware while the stack lives on for the rest; statements there "
        "stop holding at the end's release.")
    code_paths: list[CodePath] = Field(
        default_factory=list,
        description="The stack's code paths by model class; with two or more, every capability range names "
        "the paths or classes it applies to.")
    versions: list[StackVersion] = Field(default_factory=list, description="The stack's own version line, oldest first.")
    separate_releases: bool = Field(
        default=False,
        description="The stack ships on its own schedule (e.g. optimum-neuron): Neuron releases newer than the one "
        "its newest version targets are 'unknown' for it until a version targets them.",
    )


class StacksFile(Model):
    stacks: list[Stack] = Field(min_length=1, description="Every stack the registry knows, in the order the site shows them.")


# --- families/<id>.yaml -------------------------------------------------------------------------


class Source(Model):
    """Where a claim comes from, and when someone last checked it there."""

    url: HttpsUrl = Field(description="The page, file at a tag, or run log that says so.")
    title: PlainText | None = Field(default=None, description="A readable title for the link.")
    kind: SourceKind = Field(description="What kind of evidence the source is.")
    verified: Date = Field(description="When this source was last read (or the run last repeated) and still said so.")
    by: PlainText | None = Field(default=None, description="Who verified it (GitHub handle), for runs and reports.")
    release: ReleaseRef | None = Field(default=None, description="For runs: the Neuron release used.")
    instance: Identifier | None = Field(default=None, description="For runs: the instance type, e.g. trn2.48xlarge.")


class AppliesTo(Model):
    """The part of a family a constraint or note is about: some of its tasks or example checkpoints.

    An item applies to a checkpoint when its task is listed or its repo id is; without `applies_to` it applies
    to every checkpoint of the family. `check` leaves out what does not apply and says so.
    """

    tasks: list[Task] = Field(default_factory=list, description="Tasks of the family (its `tasks`) this is about.")
    checkpoints: list[RepoId] = Field(
        default_factory=list, description="Checkpoints of the family (its `examples`) this is about.")

    @model_validator(mode="after")
    def _names_something(self) -> AppliesTo:
        if not (self.tasks or self.checkpoints):
            raise ValueError("applies_to needs tasks or checkpoints (leave it out to apply to the whole family)")
        return self


NAMED_CONSTRAINT_KINDS = (ConstraintKind.FLAG, ConstraintKind.ENV, ConstraintKind.SETTING)
"""Constraint kinds that need a `name` (the flag, variable or setting)."""
COUNTED_CONSTRAINT_KINDS = (ConstraintKind.PADDING_MULTIPLE, ConstraintKind.MAX_SEQUENCE_LENGTH, ConstraintKind.MAX_BATCH_SIZE)
"""Constraint kinds whose `value` is a positive integer."""
NOTED_CONSTRAINT_KINDS = (ConstraintKind.OTHER,)
"""Constraint kinds that need a `note` saying what they are."""


class Constraint(Model):
    """A requirement that holds for the statement: structured, never hidden in prose."""

    kind: ConstraintKind = Field(description="What sort of requirement this is.")
    name: Identifier | None = Field(default=None, description="Flag, variable or setting name (flag/env/setting).")
    value: bool | int | list[int] | PlainText | None = Field(default=None, description="The value the requirement needs (integer, list, text or true/false).")
    note: Markdown | None = Field(default=None, description="Markdown explanation.")
    applies_to: AppliesTo | None = Field(
        default=None, description="Only these tasks or checkpoints of the family (default: all of them).")

    @model_validator(mode="after")
    def _shape_fits_kind(self) -> Constraint:
        kind = ConstraintKind(self.kind)
        if kind in NAMED_CONSTRAINT_KINDS and not self.name:
            raise ValueError(f"a '{kind.value}' constraint needs a name (the flag, variable or setting)")
        if kind in COUNTED_CONSTRAINT_KINDS and (isinstance(self.value, bool) or not isinstance(self.value, int) or self.value < 1):
            raise ValueError(f"a '{kind.value}' constraint needs a positive integer value")
        if kind in NOTED_CONSTRAINT_KINDS and not self.note:
            raise ValueError(f"an '{kind.value}' constraint needs a note saying what it is")
        return self

    @classmethod
    def schema_rules(cls, catalogue: Catalogue | None) -> list[dict[str, Any]]:
        return [
            when("kind", NAMED_CONSTRAINT_KINDS, given("name")),
            when("kind", COUNTED_CONSTRAINT_KINDS,
                 {"required": ["value"], "properties": {"value": {"type": "integer", "minimum": 1}}}),
            when("kind", NOTED_CONSTRAINT_KINDS, given("note")),
        ]


class Parallelism(Model):
    """Parallelism the source used or requires."""

    tensor: list[Degree] = Field(default_factory=list, description="Tensor-parallel degrees.")
    pipeline: list[Degree] = Field(default_factory=list, description="Pipeline-parallel degrees.")
    expert: list[Degree] = Field(default_factory=list, description="Expert-parallel degrees.")
    context: list[Degree] = Field(default_factory=list, description="Context-parallel degrees.")
    data: bool | None = Field(default=None, description="Data parallelism used or required.")
    fsdp: bool | None = Field(default=None, description="Fully sharded data parallel used or required.")
    sequence: bool | None = Field(default=None, description="Sequence parallelism used or required.")


class Note(Model):
    """A short Markdown remark, optionally tied to the Neuron release where behaviour changed."""

    release: ReleaseRef | None = Field(default=None, description="The Neuron release the remark is about.")
    text: Markdown = Field(description="The remark, in Markdown.")
    applies_to: AppliesTo | None = Field(
        default=None, description="Only these tasks or checkpoints of the family (default: all of them).")


class ContradictedBy(Model):
    """A public user report (an issue thread) that contradicts a supported statement: the user names the stack
    version and the hardware, and says what failed there. It is evidence to weigh, not a status: the statement's
    status stays as its sources say until a maintainer or a new source changes it."""

    url: HttpsUrl = Field(description="The issue or discussion thread (https://github.com/<org>/<repo>/issues/<n>).")
    title: PlainText | None = Field(default=None, description="The thread's title, for the link.")
    reported: Date = Field(description="When the user reported it (YYYY-MM-DD).")
    stack_version: PlainText = Field(description="The stack or Neuron version the report names, as it writes it "
                                     "(e.g. 'optimum-neuron 0.0.23, Neuron 2.18.0').")
    release: ReleaseRef | None = Field(default=None, description="The Neuron release the report names, when it "
                                       "names one releases.yaml lists.")
    hardware: Hardware = Field(description="The hardware the report names (one of the statement's).")
    instance: PlainText | None = Field(default=None, description="The instance type the report names, if any.")
    says: PlainText = Field(description="What failed, in your own words (e.g. 'compilation fails in the context "
                            "encoding model with an internal compiler error').")
    verified: Date = Field(description="When the thread was last read and still said so.")


class Statement(Model):
    """What one stack does for this family, for one workload, on some hardware, over a release range."""

    stack: StackRef = Field(description="A stack id from stacks.yaml.")
    workload: Workload = Field(description="inference or training.")
    hardware: list[Hardware] = Field(min_length=1, description="Neuron hardware generations the statement covers.")
    status: Status = Field(description="What holds over the release range.")
    since: ReleaseRef | None = Field(default=None, description="First Neuron release where this holds; required unless unknown.")
    until: ReleaseRef | None = Field(default=None, description="First Neuron release where it no longer holds (exclusive).")
    stack_since: StackVersionText | None = Field(default=None, description="First version of the stack's own line (e.g. optimum-neuron).")
    stack_until: StackVersionText | None = Field(default=None, description="First version of the stack's own line without it.")
    code_path: Slug | None = Field(
        default=None, description="The stack's code path (stacks.yaml `code_paths`) this statement runs on, when it is "
        "not the one the family's class picks (e.g. a decoder an older version ran on other classes); the capability "
        "ranges it inherits are that path's.")
    attention: list[Attention] = Field(default_factory=list, description="Attention implementations that work, per the source.")
    dtypes: list[Dtype] = Field(default_factory=list, description="Data types that work, per the source.")
    quantization: list[Quantization] = Field(default_factory=list, description="Quantization schemes that work, per the source.")
    parallelism: Parallelism | None = Field(default=None, description="Parallelism the source used or requires.")
    constraints: list[Constraint] = Field(default_factory=list, description="Requirements that hold: static shapes, flags, settings, limits.")
    notes: list[Note] = Field(default_factory=list, description="Short Markdown remarks, optionally tied to the release where behaviour changed.")
    sources: list[Source] = Field(min_length=1, description="At least one https source for the claim.")
    contradicted_by: list[ContradictedBy] = Field(
        default_factory=list, description="Public user reports that contradict this (supported) statement for its "
        "stack, hardware and release range; shown beside it, never changing its status (rule contradicted-by).")

    @classmethod
    def schema_rules(cls, catalogue: Catalogue | None) -> list[dict[str, Any]]:
        rules = [when("status", STATUSES_NEEDING_SINCE, given("since")),
                 when("status", STATUSES_NEEDING_NOTES, non_empty("notes"))]
        return rules + (catalogue_rules.statement_rules(catalogue) if catalogue else [])

    @property
    def anchor(self) -> str:
        """The stable fragment id of this statement's stack x workload on the family page."""
        return f"{self.stack}-{self.workload}"

    @property
    def last_verified(self) -> dt.date:
        return max(source.verified for source in self.sources)


class Tracked(Model):
    """A stack's maintainer saying, in a public thread, that they track this family: their words, when and where.

    It is news, not a status: it never changes what a statement says, and pages and `check` show it apart."""

    stack: StackRef = Field(description="The stack whose maintainer said it (stacks.yaml id).")
    quote: PlainText = Field(description="The maintainer's words, quoted briefly and exactly.")
    by: PlainText | None = Field(default=None, description="Who said it (GitHub handle).")
    date: Date = Field(description="When it was said (YYYY-MM-DD).")
    url: HttpsUrl = Field(description="The public issue or comment where it was said.")
    verified: Date = Field(description="When the thread was last read and still said so.")


IDENTIFYING_FIELDS = ("model_types", "pipelines")
"""A family lists at least one of these."""


class Family(Model):
    """A model family: the model_types that share modeling code, and what each stack does for them."""

    id: Slug = Field(description="Must equal the file name without .yaml.")
    name: PlainText = Field(description="Display name of the family, e.g. 'Llama'.")
    vendor: PlainText | None = Field(default=None, description="Who publishes the models, e.g. 'Meta'.")
    description: Markdown | None = Field(default=None, description="A short paragraph: what the family is and what to know on Neuron.")
    model_types: list[Identifier] = Field(default_factory=list, description="transformers config model_type values.")
    architectures: list[Identifier] = Field(default_factory=list, description="Config class names, e.g. LlamaForCausalLM.")
    pipelines: list[Identifier] = Field(default_factory=list, description="diffusers pipeline class names (model_index.json _class_name).")
    classes: list[ModelClass] = Field(
        min_length=1, description="What kind of network it is, main class first: decides which capability ranges "
        "of a stack apply to its statements (a classification, not a support claim).")
    tasks: list[Task] = Field(default_factory=list, description="Hub pipeline tasks the family serves.")
    aliases: list[PlainText] = Field(default_factory=list, description="Other names people search for, e.g. 'Llama 3.1'.")
    examples: list[RepoId] = Field(default_factory=list, description="Example Hub checkpoints of this family.")
    remote_code: bool = Field(default=False, description="True when the checkpoints need trust_remote_code (model_type not in transformers).")
    previous_ids: list[Slug] = Field(default_factory=list, description="Earlier ids of this family; the site redirects them here.")
    support: list[Statement] = Field(default_factory=list, description="Support statements: one per stack x workload, per hardware set and release range.")
    tracked: list[Tracked] = Field(
        default_factory=list, description="Maintainers saying they track this family for a stack (their words, date "
        "and link); shown apart from the statements and never a status.")

    @model_validator(mode="after")
    def _identifies_something(self) -> Family:
        if not any(getattr(self, name) for name in IDENTIFYING_FIELDS):
            raise ValueError("a family needs at least one model_type (or diffusers pipeline)")
        return self

    @classmethod
    def schema_rules(cls, catalogue: Catalogue | None) -> list[dict[str, Any]]:
        rules = [{"anyOf": [non_empty(name) for name in IDENTIFYING_FIELDS]}]
        return rules + (catalogue_rules.family_rules(catalogue) if catalogue else [])


# --- capabilities/<stack-id>.yaml ----------------------------------------------------------------


CAPABILITY_VALUE_FIELDS = ("attention", "dtypes", "quantization")
"""A capability range states at least one of these."""


class Capability(Model):
    """What a stack accepts for one workload on some hardware over a Neuron release range.

    Statements of that stack inherit these values when they state none of their own; values a statement
    does state must be among them (rule `capability-subset`) unless one of its notes says why not.
    """

    workload: Workload = Field(description="The workload these values hold for.")
    hardware: list[Hardware] = Field(min_length=1, description="Hardware these values hold on.")
    since: ReleaseRef = Field(description="First Neuron release where these values hold.")
    until: ReleaseRef | None = Field(default=None, description="First Neuron release where they no longer hold (exclusive).")
    stack_since: StackVersionText | None = Field(
        default=None, description="For a stack with its own version line: its first version with these values.")
    stack_until: StackVersionText | None = Field(
        default=None, description="For a stack with its own version line: its first version without them.")
    attention: list[Attention] = Field(default_factory=list, description="Attention implementations the stack runs, per the sources.")
    dtypes: list[Dtype] = Field(default_factory=list, description="Data types the stack accepts, per the sources.")
    quantization: list[Quantization] = Field(default_factory=list, description="Quantization modes the stack offers, per the sources.")
    code_paths: list[Slug] = Field(
        default_factory=list, description="The stack's code paths (stacks.yaml `code_paths`) these values hold for.")
    classes: list[ModelClass] = Field(
        default_factory=list, description="The model classes these values hold for (families declaring one of them).")
    notes: list[Note] = Field(default_factory=list, description="Remarks on these values (what they cover, where they differ).")
    sources: list[Source] = Field(min_length=1, description="Where these values come from: a versioned docs page or a source file at a tag.")

    @model_validator(mode="after")
    def _states_something(self) -> Capability:
        if not any(getattr(self, name) for name in CAPABILITY_VALUE_FIELDS):
            raise ValueError("a capability range needs at least one of attention, dtypes or quantization")
        return self

    @classmethod
    def schema_rules(cls, catalogue: Catalogue | None) -> list[dict[str, Any]]:
        return [{"anyOf": [non_empty(name) for name in CAPABILITY_VALUE_FIELDS]}]


class CapabilitiesFile(Model):
    """The capability ranges of one stack: what attention, dtypes and quantization it runs, per workload,
    hardware and Neuron release range, read from its docs or source at a release.

    A statement of that stack that leaves attention, dtypes or quantization empty inherits the values of
    every range sharing its workload, overlapping its hardware and overlapping its releases; pages, the
    JSON API and check mark them "from the stack". A statement that states a field keeps its own values,
    which must lie within the stack's; a value outside them needs a note of the statement naming it and
    saying why the family differs. Rules: capability-ranges (known stack, releases and stack versions; no
    two ranges of one workload and hardware overlap) and capability-subset (a statement's own values).
    """

    stack: StackRef = Field(description="The stack id from stacks.yaml; must equal the file name without .yaml.")
    capabilities: list[Capability] = Field(min_length=1, description="The stack's capability ranges.")


# --- registry/upstream/ -------------------------------------------------------------------------


class TransformersSnapshot(BaseModel):
    """registry/upstream/transformers-model-types.yaml, generated by scripts/snapshot_transformers.py."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: HttpsUrl = Field(description="Where the model types were read (the transformers source at that version).")
    transformers_version: str = Field(description="The transformers version the snapshot was taken from.")
    taken: dt.date = Field(description="When the snapshot was taken (YYYY-MM-DD).")
    model_types: dict[str, str] = Field(description="Every model_type of that transformers version, with its config class.")
    causal_lm: list[str] = Field(default_factory=list, description="The model types that have a causal-LM (text-generation) class.")
    architectures: dict[str, list[str]] = Field(default_factory=dict, description="Model classes per model_type, as the auto mappings list them.")


PROBE_WORKLOADS = ("prefill", "decode", "forward", "train", "prefill_eager_experts", "forward_eager_experts",
                   "train_eager_experts")
"""The workloads scripts/probe.py captures, in the order pages show them."""
ProbeWorkloadName = Literal["prefill", "decode", "forward", "train", "prefill_eager_experts",
                            "forward_eager_experts", "train_eager_experts"]
ProbeOutcome = Literal["ok", "data_dependent", "dynamic_shape", "other", "not_built", "not_run", "timeout", "memory",
                       "crashed", "harness_error"]
ProbeKind = Literal["decoder", "multimodal", "seq2seq", "speech_seq2seq", "encoder", "vision", "audio", "base"]


class ProbeBreak(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    reason: str = Field(description='Why dynamo broke the graph.')
    location: str = Field(default="", description='The source line of the break (file:line inside the installed package), when dynamo gives it.')


class ProbeWorkload(BaseModel):
    """One workload of one model type: what was captured, how, and what came out."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model_class: str | None = Field(default=None, description='The transformers class built (task head, or the base model).')
    experts_implementation: str | None = Field(default=None, description='"eager" when MoE routing was put in the graph.')
    inputs: dict[str, list[int]] = Field(default_factory=dict, description='Input tensor shapes at the first length.')
    lengths: list[int] = Field(default_factory=list, description='Sequence lengths captured (tokens).')
    cache: Literal["static", "none"] | None = Field(default=None, description='KV cache of a prefill / decode capture.')
    cache_note: str | None = Field(default=None, description='Why a prefill ran without a static cache.')
    loss: str | None = Field(default=None, description='What the training capture differentiates.')
    outcome: ProbeOutcome = Field(description='torch.export at the first length (training: dynamo + AOT autograd with backward), or why it did not run.')
    error: str | None = Field(default=None, description='The first line of the error (addresses and install paths removed).')
    graphs: int | None = Field(default=None, description='Graphs dynamo captured (training: forward graphs).')
    backward_graphs: int | None = Field(default=None, description='Backward graphs AOT autograd made (training).')
    graph_breaks: int | None = Field(default=None, description='Graph breaks.')
    breaks: list[ProbeBreak] = Field(default_factory=list, description='Each graph break reason.')
    dynamo_error: str | None = Field(default=None, description='The error that stopped dynamo.')
    nodes: dict[str, int] = Field(default_factory=dict, description='Operator calls in the graph(s), per length.')
    nodes_from: str | None = Field(default=None, description='Which capture the node counts come from.')
    grows_with_length: bool | None = Field(default=None, description='More than 10% more nodes at the longer length: an unrolled loop.')
    operators_from: str | None = Field(default=None, description='Which capture the operators come from.')
    operators: list[str] = Field(default_factory=list, description='ATen operators (core ATen after decompositions; training: AOT autograd graphs).')
    no_known_lowering: list[str] = Field(default_factory=list, description='ATen operators with no torch-xla lowering and no PyTorch composite kernel.')
    custom_ops: list[str] = Field(default_factory=list, description='Opaque custom or higher-order operators: not ATen, no Neuron lowering known.')
    decomposed: list[str] = Field(default_factory=list, description='Operators PyTorch rewrites into others (composite kernels).')
    cpu_specific: list[str] = Field(default_factory=list, description='CPU kernels the probe\'s CPU picked; another path on XLA.')
    bookkeeping: list[str] = Field(default_factory=list, description='Export asserts and symbolic sizes, not computation.')
    backward_operators: list[str] = Field(default_factory=list, description='Operators of the backward graphs (training).')

    @property
    def captured(self) -> bool:
        """One graph, no break, a clean capture: a fact about the CPU capture, not a support statement."""
        return self.outcome == "ok" and self.graphs == 1 and not self.graph_breaks


class ProbeResult(BaseModel):
    """The captures of one tiny random-initialised model type, one result per workload."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    family: str = Field(description='The registry family listing the model type.')
    kind: ProbeKind = Field(description='The task head the probe picked, which decides the workloads.')
    config: dict[str, Any] = Field(description='Fields changed to make the model tiny (nested configs as dotted keys).')
    parameters: int | None = Field(default=None, description='Parameters of the tiny model.')
    workloads: dict[ProbeWorkloadName, ProbeWorkload] = Field(description='workload -> its result.')


class ProbeNotBuilt(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    family: str = Field(description='The registry family listing the model type.')
    reason: str = Field(description='Why the probe could not build the model type.')


class ProbeLoweringReference(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    torch_xla_version: str = Field(description='The torch-xla version whose lowering list is compared with.')
    source: HttpsUrl = Field(description='The lowering list (xla_native_functions.yaml at its tag).')
    commit: str = Field(pattern=r"^[0-9a-f]{40}$", description='The commit of that tag.')
    pinned_by: HttpsUrl = Field(description='The Neuron page tying torch-neuronx to this torch-xla.')


class ProbeSnapshot(BaseModel):
    """registry/upstream/probe.yaml, generated by scripts/probe.py: machine evidence, not support claims."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str = Field(description='What the snapshot is: machine evidence, not support statements.')
    meaning: str = Field(description='What one result means and does not mean.')
    torch_version: str = Field(description='torch used for the capture.')
    transformers_version: str = Field(description='transformers used for the capture.')
    lengths: list[int] = Field(description='The sequence lengths captured.')
    lowering_reference: ProbeLoweringReference = Field(description='The operator lowering list compared with.')
    taken: dt.date = Field(description='Date of the run.')
    probes: dict[str, ProbeResult] = Field(default_factory=dict, description='model_type -> its probe result.')
    not_built: dict[str, ProbeNotBuilt] = Field(default_factory=dict, description='model_type -> why the probe could not build it.')
    not_probed: list[str] = Field(default_factory=list, description='Model types the run has not reached yet (scripts/probe.py resumes from its cache).')

    @model_validator(mode="before")
    @classmethod
    def _plain_text_only(cls, data: Any) -> Any:
        """Every string of the snapshot (keys too) follows the registry text rules: no control character (a
        newline aside), no line separator, no bidirectional mark, so none reaches a page or a terminal."""
        pending: list[tuple[str, Any]] = [("", data)]
        while pending:
            where, value = pending.pop()
            if isinstance(value, dict):
                for key, item in value.items():
                    path = f"{where}.{key}" if where else str(key)
                    pending.append((path, key) if isinstance(key, str) else (path, None))
                    pending.append((path, item))
            elif isinstance(value, list):
                pending.extend((f"{where}[{index}]", item) for index, item in enumerate(value))
            elif isinstance(value, str):
                bad = first_unsafe_character(value, allowed="\n")
                if bad is not None:
                    raise ValueError(f"{one_line(where[:200])}: holds the control or bidirectional character "
                                     f"{one_line(bad)} (probe text is plain text; regenerate the snapshot)")
        return data


# --- instances.yaml -----------------------------------------------------------------------------

InstanceName = Annotated[str, BeforeValidator(_require_text),
                         Field(min_length=3, max_length=40, pattern=r"^[a-z][a-z0-9]*\.[a-z0-9]+$",
                               json_schema_extra={TYPE_LABEL: "instance type (e.g. 'inf2.xlarge')"})]
Count = Annotated[int, Field(ge=1, le=100_000, strict=True)]
Gib = Annotated[int, Field(ge=1, le=1_000_000, strict=True)]
LncSetting = Annotated[int, Field(ge=1, le=8, strict=True)]
# a mapping key: YAML gives an int, the compiled JSON a string ("2"); both read as the setting
LncKey = Annotated[int, BeforeValidator(lambda v: v if not isinstance(v, bool) else str(v)), Field(ge=1, le=8)]
INSTANCE_FIELDS = ("chips", "neuron_cores", "logical_neuron_cores", "device_memory_gib", "memory_per_chip_gib",
                   "vcpus", "host_memory_gib")
"""The numeric fields of an instance that `derived` may name."""
InstanceField = Literal["chips", "neuron_cores", "logical_neuron_cores", "device_memory_gib", "memory_per_chip_gib",
                        "vcpus", "host_memory_gib"]


class HardwareGeneration(Model):
    """One Neuron hardware generation (its chip): the per-chip numbers instance sizes are built from."""

    hardware: Hardware = Field(description="The hardware id (vocabulary), e.g. 'inf2'.")
    chip: PlainText = Field(description="The chip's name, e.g. 'Inferentia2'.")
    core_type: PlainText = Field(description="The NeuronCore version on the chip, e.g. 'NeuronCore-v2'.")
    cores_per_chip: Count | None = Field(description="Physical NeuronCores per chip (null: no page gives it).")
    memory_per_chip_gib: Gib | None = Field(description="Device (HBM) memory per chip in GiB.")
    memory_per_core_gib: Gib | None = Field(
        default=None, description="Device memory per physical NeuronCore in GiB, where a page says it (null: unknown).")
    lnc_settings: list[LncSetting] = Field(
        default_factory=list,
        description="Logical-NeuronCore (LNC) settings the hardware offers; empty when no page documents LNC for it.")
    lnc_default: LncSetting | None = Field(default=None, description="The default LNC setting (null: not documented).")
    logical_cores_per_chip: dict[LncKey, Count] = Field(
        default_factory=dict, description="LNC setting -> logical NeuronCores per chip, where documented.")
    notes: list[Markdown] = Field(default_factory=list, description="Units, discrepancies between pages, what is missing.")
    sources: list[Source] = Field(min_length=1, description="The docs pages (at a release tag) the numbers come from.")


class Instance(Model):
    """One EC2 instance size with Neuron devices. A number no docs page gives is null (unknown), never guessed."""

    name: InstanceName = Field(description="The instance type, e.g. 'inf2.xlarge'.")
    hardware: Hardware = Field(description="Its hardware generation (vocabulary id).")
    chips: Count | None = Field(description="Neuron accelerator chips.")
    neuron_cores: Count | None = Field(description="Physical NeuronCores (chips x cores per chip).")
    logical_neuron_cores: dict[LncKey, Count] = Field(
        default_factory=dict,
        description="LNC setting -> logical NeuronCores the instance presents; empty when LNC is not documented.")
    device_memory_gib: Gib | None = Field(description="Total device (HBM) memory in GiB.")
    memory_per_chip_gib: Gib | None = Field(description="Device memory per chip in GiB.")
    vcpus: Count | None = Field(description="Host vCPUs.")
    host_memory_gib: Gib | None = Field(description="Host memory in GiB.")
    derived: list[InstanceField] = Field(
        default_factory=list,
        description="Fields whose value no page prints for this instance: arithmetic on cited per-chip numbers "
        "(e.g. chips x cores per chip). The rest are printed for this instance by a source.")
    notes: list[Markdown] = Field(default_factory=list, description="What a reader should know about these numbers.")
    sources: list[Source] = Field(min_length=1, description="The docs pages (at a release tag) that give the numbers.")


class InstancesFile(Model):
    """registry/instances.yaml: hardware generations and the instance sizes built from them."""

    generations: list[HardwareGeneration] = Field(min_length=1, description="One entry per hardware generation.")
    instances: list[Instance] = Field(min_length=1, description="Every instance size the docs describe, by generation.")


# --- registry.yaml ------------------------------------------------------------------------------

DATA_VERSION_PATTERN = r"^[0-9]{4}\.(?:[1-9]|1[0-2])\.[0-9]+$"


class RegistryMeta(Model):
    """registry/registry.yaml: facts about the data as a whole, such as which version of it this is.

    The data version is calendar based (YEAR.MONTH.N) so a reader of the site or the JSON can tell how
    recent the claims are without knowing the package version that rendered them.
    """

    data_version: Annotated[
        str,
        BeforeValidator(_require_text),
        Field(pattern=DATA_VERSION_PATTERN, description="Version of the data, quoted: '2026.12.0' (YEAR.MONTH.N).",
              json_schema_extra={"pattern": DATA_VERSION_PATTERN}),  # so editors check it too
    ]


SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "family": Family,
    "releases": ReleasesFile,
    "stacks": StacksFile,
    "registry": RegistryMeta,
    "capabilities": CapabilitiesFile,
    "instances": InstancesFile,
}
"""The registry files that get a JSON Schema (`neuron-compat schema`), by schema name."""


# --- the compiled registry (export --json, api/registry.json, the bundled snapshot) --------------


class EffectiveField(Model):
    """One effective field of a statement: its values and where they come from."""

    values: list[str] = Field(description="The values that hold (empty when neither the statement nor its stack says).")
    origin: str | None = Field(description="'family' (stated for this family), 'stack' (from the stack's capability) or null.")


class Effective(Model):
    """A statement's effective attention, dtypes and quantization (capabilities.effective_values)."""

    attention: EffectiveField = Field(description="Effective attention implementations and their origin.")
    dtypes: EffectiveField = Field(description="Effective data types and their origin.")
    quantization: EffectiveField = Field(description="Effective quantization modes and their origin.")
    capability_sources: list[str] = Field(
        default_factory=list, description="Source URLs of the capability ranges values were inherited from.")


class CompiledStatement(Statement):
    """A statement as the compiled document carries it: the YAML fields plus its effective values."""

    effective: Effective | None = Field(default=None, description="Effective values (added by export).")


class CompiledFamily(Family):
    support: list[CompiledStatement] = Field(  # type: ignore[assignment]  # a compiled family holds compiled statements
        default_factory=list, description="The family's statements, each with its effective values.")


class RegistryDocument(BaseModel):
    """The compiled registry document, as `export --json` writes it and the site publishes it.

    Top-level sections this version does not know are allowed (a newer site may publish more); the
    releases, stacks and families inside must follow the contract. `format` changes when they no longer do.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    format: int = Field(description="Version of the document's layout; readers refuse a newer one.")
    data_version: str | None = Field(default=None, description="The data version of registry.yaml.")
    newest_release: NeuronVersion | None = Field(default=None, description="The newest Neuron release listed.")
    releases: list[Release] = Field(description="releases.yaml, oldest first.")
    stacks: list[Stack] = Field(description="stacks.yaml, in its order.")
    families: list[CompiledFamily] = Field(description="Every family, by id; statements carry `effective`.")
    capabilities: list[CapabilitiesFile] = Field(
        default_factory=list, description="registry/capabilities/*.yaml, by stack id.")
    probe: ProbeSnapshot | None = Field(
        default=None, description="registry/upstream/probe.yaml: machine evidence, not support statements.")
    instances: InstancesFile | None = Field(
        default=None, description="registry/instances.yaml: hardware generations and instance sizes (fit reads them).")
    at_release: dict[str, dict[str, list[list[Any]]]] | None = Field(
        default=None,
        description="views.cell_at at every release, per family id and 'stack workload', as spans "
        "[first, last, state] over the releases sorted by version (publishing.release_table).")
