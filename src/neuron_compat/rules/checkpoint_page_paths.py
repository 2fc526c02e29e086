"""Each checkpoint page belongs to one Hub id: no two ids that get a page (family examples, tested configurations'
`hub_id`) differ only in case, the one way two valid ids could share a page path.

The site writes a checkpoint's page at `checkpoints/<owner>/<name>/index.md` (contract.hub_ids), which no other
valid id can reach, except one spelled differently in case: `check` and the Hub take `Org/Model` and `org/model`
as one repo, and a case-insensitive disk takes their folders as one, so the second spelling would share (or
silently overwrite) the first one's page. Refused here, at the second spelling; add-evidence asks the same before
it writes a `--hub-id` (page_path_clash).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from neuron_compat.contract.hub_ids import checkpoint_page_folder
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.tested_loader import CONFIGURATIONS_DIR, configurations_key
from neuron_compat.rules.base import FileKey, Finding, Rule, family_key


@dataclass(frozen=True)
class NamedCheckpoint:
    """A Hub id the registry gives a page to, and where it is written."""

    hub_id: str
    file_key: FileKey
    loc: tuple[str | int, ...]
    shown: str
    """The place as a person finds it: 'families/llama.yaml examples[2]'."""


def page_key(hub_id: str) -> str:
    """What two ids share exactly when they would share a page: the page folder, case folded."""
    return checkpoint_page_folder(hub_id).casefold()


def named_checkpoints(registry: Registry) -> Iterator[NamedCheckpoint]:
    """Every id with a page, in the order the site takes them (family examples, then configurations)."""
    for family in registry.families:
        for index, example in enumerate(family.examples):
            yield NamedCheckpoint(example, family_key(family.id), ("examples", index),
                                  f"families/{family.id}.yaml examples[{index}]")
    for file in registry.configuration_files:
        for index, configuration in enumerate(file.configurations):
            if configuration.hub_id:
                yield NamedCheckpoint(configuration.hub_id, configurations_key(file.source),
                                      ("configurations", index, "hub_id"),
                                      f"{CONFIGURATIONS_DIR}/{file.source}.yaml configurations[{index}]")


def page_path_clash(hub_id: str, named: Iterator[NamedCheckpoint]) -> NamedCheckpoint | None:
    """The first of `named` whose id is spelled otherwise than `hub_id` but would have its page, else None."""
    key = page_key(hub_id)
    return next((other for other in named if other.hub_id != hub_id and page_key(other.hub_id) == key), None)


def clash_message(first: NamedCheckpoint) -> tuple[str, str]:
    """The message (to follow the id) and the hint for an id that clashes with `first`."""
    return (f"differs only in case from '{first.hub_id}' ({first.shown}): `check` and the Hub take them as one repo, "
            "and the site would give them one page",
            f"write one spelling in both places, the one https://huggingface.co/{first.hub_id} shows")


def check(registry: Registry) -> Iterator[Finding]:
    first_of: dict[str, NamedCheckpoint] = {}
    for named in named_checkpoints(registry):
        first = first_of.setdefault(page_key(named.hub_id), named)
        if first.hub_id != named.hub_id:
            message, hint = clash_message(first)
            yield Finding(named.file_key, named.loc, f"checkpoint '{named.hub_id}' {message}", hint)


RULE = Rule(name="checkpoint-page-paths", check=check)
