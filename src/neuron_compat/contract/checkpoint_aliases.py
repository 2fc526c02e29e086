"""The contract of checkpoint aliases: one checkpoint under an old Hub name and the name it has now, with the
source that records the rename (the Hub's redirect, the model card, a public record of either).

File: registry/checkpoint-aliases.yaml (optional). `check` counts runs under either name as the checkpoint's
(check/checkpoint_aliases.py); the site has one page per checkpoint, under its current name, and the old name's
page redirects there."""

from __future__ import annotations

from pydantic import Field, model_validator

from neuron_compat.contract.models import HttpsUrl, Markdown, Model, RepoId


class CheckpointAlias(Model):
    """An old Hub name and the name the same checkpoint has now."""

    old: RepoId = Field(description="The name the checkpoint had (e.g. 'meta-llama/Meta-Llama-3.1-8B-Instruct').")
    current: RepoId = Field(description="The name it has now (e.g. 'meta-llama/Llama-3.1-8B-Instruct').")
    sources: list[HttpsUrl] = Field(min_length=1, max_length=5, description="Where the rename is recorded: the "
                                    "Hub's redirect or model card, or a public record of either.")
    note: Markdown | None = Field(default=None, description="What a reader should know, in a sentence.")

    @model_validator(mode="after")
    def _two_names(self) -> CheckpointAlias:
        if self.old.casefold() == self.current.casefold():
            raise ValueError(f"old and current are the same name ('{self.old}'): an alias names two")
        return self


class CheckpointAliasesFile(Model):
    """registry/checkpoint-aliases.yaml: the renames of checkpoints the registry names."""

    aliases: list[CheckpointAlias] = Field(default_factory=list, description="One entry per old name.")

    @model_validator(mode="after")
    def _one_current_per_old(self) -> CheckpointAliasesFile:
        seen: dict[str, str] = {}
        for alias in self.aliases:
            key = alias.old.casefold()
            if key in seen:
                raise ValueError(f"'{alias.old}' is listed twice as an old name")
            seen[key] = alias.current
        currents = {alias.current.casefold() for alias in self.aliases}
        for alias in self.aliases:
            if alias.old.casefold() in currents:
                raise ValueError(f"'{alias.old}' is both an old and a current name: give each old name the name it "
                                 "has now, not a chain")
        return self
