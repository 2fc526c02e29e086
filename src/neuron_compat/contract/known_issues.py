"""The contract of known issues: errors people hit on Neuron, where they occur, where they were fixed,
the workaround and the source. registry/known-issues.yaml holds them; `neuron-compat explain` matches error
text against them and family pages show the ones that concern the family.

Matching is safe by construction: an entry names error codes (matched as whole tokens) and plain phrases
(matched as case-insensitive substrings after whitespace is collapsed); no pattern is a regular expression.
"""

from __future__ import annotations

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


ErrorCode = Annotated[str, BeforeValidator(_require_text),
                      Field(min_length=3, max_length=40, pattern=r"^[A-Za-z][A-Za-z0-9_]*[0-9A-Za-z]$",
                            json_schema_extra={TYPE_LABEL: "error code (e.g. 'EARG001')"})]
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


class KnownIssue(Model):
    """One error people hit: how to recognise it, where it occurs, the fix or workaround, and the source."""

    id: Slug = Field(description="Unique id.")
    title: PlainText = Field(description="The issue in one line.")
    match: IssueMatch = Field(description="How `explain` recognises its error text.")
    stacks: list[AffectedStack] = Field(min_length=1, description="Where it occurs.")
    hardware: list[Hardware] = Field(default_factory=list, description="Hardware it occurs on (empty: any).")
    families: list[Slug] = Field(default_factory=list, description="Families it concerns (empty: not specific "
                                 "to a family); their pages show it.")
    description: Markdown = Field(description="What happens and why, in Markdown.")
    workaround: Markdown | None = Field(default=None, description="What to do about it, where a source gives it.")
    sources: list[Source] = Field(min_length=1, description="Release notes known-issues sections, docs pages or "
                                  "public issue threads that describe it.")


class KnownIssuesFile(Model):
    """registry/known-issues.yaml."""

    issues: list[KnownIssue] = Field(min_length=1, description="Every known issue, by id.")
