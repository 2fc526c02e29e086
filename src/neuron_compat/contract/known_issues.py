"""The contract of known issues: errors people hit on Neuron, where they occur, where they were fixed,
the workaround and the source. registry/known-issues/*.yaml holds them (`curated.yaml` by hand, `*.harvested.yaml`
written by scripts/harvest_known_issues_*.py); `neuron-compat explain` matches error text against them and family
pages show the ones that concern the family.

Matching is safe by construction: an entry names error codes (matched as whole tokens, with a real code's shape,
so no code matches an ordinary word) and plain phrases (matched as case-insensitive substrings after the error
text's variable parts are normalised and its whitespace collapsed); no pattern is a regular expression.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, Field, model_validator

from neuron_compat.contract.models import (
    TYPE_LABEL,
    Markdown,
    Model,
    NeuronVersion,
    PlainText,
    Slug,
    Source,
    StackVersionText,
    _require_text,
)
from neuron_compat.contract.tested_configurations import HarvestRecord, NotRecorded
from neuron_compat.contract.vocabulary import Hardware

MIN_PHRASE = 8
"""The shortest phrase a known issue may match on: shorter phrases match too much unrelated text."""


def _check_phrase(value: str) -> str:
    collapsed = " ".join(value.split())
    if collapsed != value:
        raise ValueError("a phrase must have single spaces and no leading or trailing space (it is matched "
                         "after the error text's whitespace is collapsed)")
    if len(value) < MIN_PHRASE:
        raise ValueError(f"a phrase must be at least {MIN_PHRASE} characters long, or it matches unrelated errors")
    return value


ERROR_CODE_PATTERN = r"^(?:NCC_[A-Z]{3,6}[0-9]{3}|[A-Z][A-Z0-9]{1,15}(?:_[A-Z0-9]{2,24}){1,6}|[A-Z]{2,8}[0-9]{2,6})$"
"""A code's shape: a compiler code (`NCC_EOOM001`), an upper-case name with underscores (`NRT_RESOURCE`), or
letters then digits (`EOOM001`). Every shape has an underscore or digits, so no code is an ordinary word: `NCC_T`
or `TIMEOUT` are refused (a one-letter code after `NCC_` once matched "I got a timeout")."""
ErrorCode = Annotated[str, BeforeValidator(_require_text),
                      Field(min_length=5, max_length=40, pattern=ERROR_CODE_PATTERN,
                            json_schema_extra={TYPE_LABEL: "error code (e.g. 'NCC_EOOM001', 'NRT_RESOURCE')"})]
ReleaseText = Annotated[str, BeforeValidator(_require_text),
                        Field(pattern=r"^[0-9]{1,2}\.[0-9]{1,3}(?:\.[0-9]{1,3})?$",
                              json_schema_extra={TYPE_LABEL: "Neuron release (quoted, e.g. '2.21.0')"})]
"""A Neuron release a source lists, which may predate releases.yaml (release notes go back to 2.0)."""
Phrase = Annotated[str, BeforeValidator(_require_text), AfterValidator(_check_phrase),
                   Field(max_length=200, json_schema_extra={TYPE_LABEL: "phrase (matched as a substring)"})]


class IssueMatch(Model):
    """How error text is recognised: any of its codes as a whole token, or any phrase as a substring."""

    codes: list[ErrorCode] = Field(default_factory=list, description="Error codes, matched as whole tokens "
                                   "(case-insensitive), e.g. 'EARG001', 'NRT_RESOURCE'.")
    phrases: list[Phrase] = Field(default_factory=list, description="Phrases of the message, matched as "
                                  "case-insensitive substrings after whitespace is collapsed; no regular expressions.")

    @model_validator(mode="after")
    def _names_something(self) -> IssueMatch:
        if not (self.codes or self.phrases):
            raise ValueError("match needs at least one code or phrase")
        return self


class AffectedStack(Model):
    """A stack where the issue occurs, from which release (and stack version) and until which it was fixed."""

    stack: Slug = Field(description="The stack id (stacks.yaml).")
    since: NeuronVersion | None = Field(default=None, description="First Neuron release known to show it "
                                        "(null: the source does not say).")
    fixed_in: NeuronVersion | None = Field(default=None, description="First Neuron release with the fix (null: "
                                           "not fixed, or the source does not say).")
    stack_versions: list[StackVersionText] = Field(
        default_factory=list, description="The stack's own versions the source names, when it names them.")


class IssueKind(StrEnum):
    """Where an entry comes from."""

    ERROR_CODE = "error-code"
    TROUBLESHOOTING = "troubleshooting"
    KNOWN_ISSUE = "known-issue"
    BUG_FIX = "bug-fix"
    CURATED = "curated"


class ListedIn(Model):
    """The releases whose notes list the issue: a known issue is repeated in each release's notes until resolved."""

    first: ReleaseText = Field(description="The oldest release whose notes list it.")
    last: ReleaseText = Field(description="The newest release whose notes list it.")
    not_listed_from: ReleaseText | None = Field(
        default=None, description="The first release after `last` whose notes of the component have a known-issues "
        "section without it. Not a fix: no note says it was fixed, so it is shown as \"not listed in the notes from R "
        "on\", never as \"fixed in\".")


class FixedIn(Model):
    """The release that fixed it, where a source says so: a release's bug-fix notes, or a note naming the release.
    A known issue that merely stops being listed is not fixed: that is `listed_in.not_listed_from`."""

    release: ReleaseText = Field(description="The first release with the fix, as a source says.")
    derived: bool = Field(default=False, description="Always false: a release no source names as the fix is not "
                          "written here (use listed_in.not_listed_from).")

    @model_validator(mode="after")
    def _said_by_a_source(self) -> FixedIn:
        if self.derived:
            raise ValueError("a fix no source names is not a fix: write the release the notes stop listing it in "
                             "listed_in.not_listed_from, and leave fixed_in out")
        return self


class KnownIssue(Model):
    """One error people hit: how to recognise it, where it occurs, the fix or workaround, and the source."""

    id: Slug = Field(description="Unique id.")
    title: PlainText = Field(description="The issue in one line.")
    kind: IssueKind = Field(default=IssueKind.CURATED, description="Where the entry comes from: an error-code page, a "
                            "troubleshooting page, a release's known issues or bug fixes, or written by hand.")
    component: Slug | None = Field(default=None, description="The Neuron component it belongs to (compiler, "
                                   "runtime, nxd-inference, pytorch, ...), when the source says.")
    match: IssueMatch | None = Field(default=None, description="How `explain` recognises its error text (null: the "
                                     "source quotes no error text; the entry is listed on the pages, not matched).")
    browse_only: PlainText | None = Field(default=None, description="Why `explain` cannot match it (an entry without "
                                          "`match`), e.g. \"the release note quotes no error text\".")
    stacks: list[AffectedStack] = Field(default_factory=list, description="Where it occurs (empty: a component no "
                                        "stack of stacks.yaml covers, such as JAX).")
    hardware: list[Hardware] = Field(default_factory=list, description="Hardware it occurs on (empty: any).")
    families: list[Slug] = Field(default_factory=list, description="Families it concerns (empty: not specific "
                                 "to a family); their pages show it.")
    description: Markdown = Field(description="What happens and why, in Markdown.")
    workaround: Markdown | None = Field(default=None, description="What to do about it, where a source gives it.")
    listed_in: ListedIn | None = Field(default=None, description="For release-note known issues: the first and last "
                                       "releases whose notes list it.")
    fixed_in: FixedIn | None = Field(default=None, description="The release that fixed it (null: no source says, "
                                     "never guessed).")
    pin_release: NeuronVersion | None = Field(default=None, description="A release a source recommends staying on "
                                              "(\"use release 2.28\"); the recommendation shows it for the families.")
    sources: list[Source] = Field(min_length=1, description="Release notes known-issues sections, docs pages or "
                                  "public issue threads that describe it.")


    @model_validator(mode="after")
    def _matched_or_browsed(self) -> KnownIssue:
        if self.match is not None and self.browse_only is not None:
            raise ValueError("an entry with a match is not browse-only: drop browse_only")
        return self


class KnownIssuesFile(Model):
    """registry/known-issues/curated.yaml (by hand) or registry/known-issues/<source>.harvested.yaml (a harvester's)."""

    source: Slug | None = Field(default=None, description="For a harvested file: the source id (the file name "
                                "before .harvested.yaml).")
    description: Markdown | None = Field(default=None, description="What the source is and how it was read.")
    harvest: HarvestRecord | None = Field(default=None, description="For a harvested file: the script, repository, "
                                          "revision and date.")
    issues: list[KnownIssue] = Field(min_length=1, description="Every known issue, by id.")
    not_recorded: list[NotRecorded] = Field(default_factory=list, description="Pages or items read but not "
                                            "recorded, and why.")
