"""The one answer: per workload x hardware, what a user can install today (or at release R) and its status.

Every surface renders this, none works it out again: `check` (its table, its `Result:` line, its exit code and the
`recommendations` of `check --json`), the families index, the matrix's default view, the family page's "Support
overview" and "Which stack to pick", the badges and the feeds. It reads models and compiled views alike, by
attribute, and imports only the standard library and the contract (the check path stays free of pydantic).

`answers` takes the candidates (views.recommendation: a stack x workload x hardware x release whose verdict claims
the model runs; `check` gives its config's rows at every release, a page the family's statuses) and ranks them per
workload x hardware with `views.recommendation.recommend`. Each answer then gets its status:

- the best candidate's status (supported or partial) when its stack has not ended there. *Today* is what can be
  installed now: a stack with its own release line whose newest version targets an older Neuron release still
  answers at that release ("supported with optimum-neuron 0.4.5 on Neuron 2.26.1"), with a `pairing` caveat that no
  newer version targets a later release;
- `ended` when the best candidate's stack has ended on that hardware for that workload (nothing current claims it);
- without any candidate, what the statements holding at the release say on that hardware for that workload:
  `unsupported`, then `not-listed` (the stack's own exhaustive list leaves the model out), else `unknown`.

An answer never comes from another workload's or another hardware's statement: candidates and statements are
taken for the answer's workload and hardware only. `headline` picks the answer a question exits with: without
--workload, the best inference answer (training gets its own line), else the best of the workload asked (`best`:
ANSWER_RANK, then the order answers come in, hardware in vocabulary order).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from neuron_compat.contract.versions import version_key
from neuron_compat.contract.vocabulary import Status
from neuron_compat.views.at_release import held_at, stack_end, stack_horizon, stack_states
from neuron_compat.views.recommendation import (
    ENDED,
    SOURCES_IN_LINE,
    Caveat,
    Recommendation,
    choice_text,
    family_candidates,
    install_text,
    recommend,
)

if TYPE_CHECKING:
    from neuron_compat.contract.models import Family
    from neuron_compat.loading.indexes import RegistryIndexes
    from neuron_compat.views.recommendation import Candidate

WORKLOADS = ("inference", "training")

NOT_LISTED = "not-listed"
"""The status of a statement whose stack's own exhaustive list leaves the model out (contract vocabulary)."""

ANSWER_STATUSES = ("supported", "partial", ENDED, "unsupported", NOT_LISTED, "unknown")
"""The statuses an answer can have, best first (ANSWER_RANK)."""

ANSWER_RANK = {status: len(ANSWER_STATUSES) - position for position, status in enumerate(ANSWER_STATUSES)}
"""An answer status and its rank (higher first): what `best` and the families index pick by."""

PAIRING = "pairing"
"""The caveat kind of an answer at an older release because no newer stack version targets a later one."""


def pairing_caveat(registry: RegistryIndexes, stack_id: str, release: str, newest: str) -> Caveat | None:
    """'no optimum-neuron version targets a Neuron release after 2.26.1 yet' when the answer's stack has its own
    release line, its newest version targets `release`, and `newest` is later."""
    stack = registry.stack_by_id[stack_id]
    horizon = stack_horizon(stack)
    if horizon is None or horizon != release or version_key(release) >= version_key(newest):
        return None
    newest_version = stack.versions[-1].version
    return Caveat(kind=PAIRING, limits=False,
                  message=f"no {stack.name} version targets a Neuron release after {release} yet (its newest, "
                  f"{newest_version}, pairs with {release}; the newest Neuron release is {newest}): install that pair")


def _statement_status(registry: RegistryIndexes, family: Family, workload: str, hardware: str, release: str,
                      stack: str | None) -> tuple[str, str | None, list[str]]:
    """Without a candidate: (status, stack id, sources) from the statements holding at `release` for this workload
    on this hardware; 'unknown' with no stack when none says more."""
    best: tuple[int, str, str | None, list[str]] = (ANSWER_RANK["unknown"], "unknown", None, [])
    for held in _held_paired(registry, family, release, stack, workload, hardware):
        status = held.claim_status
        if status not in ANSWER_RANK or ANSWER_RANK[status] <= best[0]:
            continue
        best = (ANSWER_RANK[status], status, held.statement.stack, [s.url for s in held.statement.sources])
    return best[1], best[2], best[3]


def paired_release(registry: RegistryIndexes, stack_id: str, release: str) -> str:
    """The release a stack's statements are read at for an answer at `release`: `release`, or, for a separately
    released stack whose newest version targets an older Neuron release, that release (what can be installed)."""
    horizon = stack_horizon(registry.stack_by_id[stack_id])
    return horizon if horizon is not None and version_key(release) > version_key(horizon) else release


def _held_paired(registry: RegistryIndexes, family: Family, release: str, stack: str | None, workload: str,
                 hardware: str) -> list[Any]:
    """The statements holding for this workload on this hardware, each stack's read at its paired release (so a
    stack's own `not-listed` or `unsupported` still answers past the release its newest version targets)."""
    found: list[Any] = []
    for owner in registry.stacks:
        if stack is not None and owner.id != stack:
            continue
        at = paired_release(registry, owner.id, release)
        found += held_at(family, at, stack_states(registry, at), owner.id, workload, hardware)
    return found


def _why(registry: RegistryIndexes, item: Recommendation, status: str, count: int) -> str:
    """Why this answer: which ranking step chose it, or which statement says what."""
    if item.stack is None:
        return f"no statement claims it runs for {item.workload} on {item.hardware} at any release up to {item.newest}"
    if status == ENDED:
        end = stack_end(registry.stack_by_id[item.stack], item.workload, item.hardware)
        return (f"the only claims are on stacks that have ended for {item.workload} on {item.hardware}"
                f"{f' (at {end})' if end else ''}; the newest of them is shown")
    if count <= 1:
        return f"the only stack that claims it for {item.workload} on {item.hardware}"
    return (f"best of {count} stacks that claim it for {item.workload} on {item.hardware}: not ended, "
            f"{item.status}, {item.lifecycle} stack, newest release")


def answer_line(family_name: str, item: Recommendation, registry: RegistryIndexes | None = None) -> str:
    """The one line of an answer: '<status>: <stack version> on Neuron <release> | caveats | install | notes |
    sources', or why there is nothing to install."""
    if item.stack is None:
        return f"{item.status}: no stack claims {family_name} runs here at any release up to {item.newest}"
    if item.status in (ENDED, *ANSWER_STATUSES[3:]) and item.release is None:
        return f"{item.status}: {item.why}"
    parts = [f"{item.status}: {choice_text(item)}"]
    if item.caveats:
        parts.append("; ".join(c.message for c in item.caveats))
    parts.append(f"install {install_text(item, registry)}")
    if item.notes_url:
        parts.append(f"release notes {item.notes_url}")
    if item.sources:
        more = len(item.sources) - SOURCES_IN_LINE
        parts.append(f"sources {' '.join(item.sources[:SOURCES_IN_LINE])}" + (f" (+{more} more)" if more > 0 else ""))
    return " | ".join(parts)


def _settle(registry: RegistryIndexes, family: Family, item: Recommendation, count: int,
            stack: str | None) -> Recommendation:
    """A ranked recommendation as the answer: its status, why, pairing caveat and line."""
    if item.stack is None:
        status, said_by, sources = _statement_status(registry, family, item.workload, item.hardware, item.newest, stack)
        if said_by is not None:
            owner = registry.stack_by_id[said_by]
            at = paired_release(registry, said_by, item.newest)
            why = f"{owner.name} says {status} for {item.workload} on {item.hardware} at Neuron {at}"
            settled = replace(item, status=status, stack=said_by, stack_name=owner.name, sources=sources, why=why)
            return replace(settled, line=answer_line(family.name, settled, registry))
        settled = replace(item, status=status, why=_why(registry, item, status, count))
        return replace(settled, line=answer_line(family.name, settled, registry))
    status = ENDED if item.lifecycle == ENDED else item.status
    caveats = list(item.caveats)
    pairing = pairing_caveat(registry, item.stack, item.release or "", item.newest)
    if pairing is not None:
        caveats.append(pairing)
    settled = replace(item, status=status, caveats=caveats, why=_why(registry, item, status, count))
    return replace(settled, line=answer_line(family.name, settled, registry))


def answers(registry: RegistryIndexes, family: Family, candidates: list[Candidate], release: str | None = None,
            hardware: str | None = None, workloads: Iterable[str] = WORKLOADS,
            stack: str | None = None) -> list[Recommendation]:
    """Per workload (in `workloads` order) and hardware the family has statements for (or `hardware` alone): the
    answer, ranked by views.recommendation and settled as the module docstring says. `release` is the newest
    release considered (default: the registry's newest, *today*); `stack` limits the statements read for a
    status without candidates (the candidates are the caller's)."""
    newest = release or registry.newest_release or ""
    wanted = list(workloads)
    if hardware is not None and len(wanted) > 1:  # the workloads the family has on that hardware, else all asked
        said = {str(s.workload) for s in family.support if hardware in [str(h) for h in s.hardware]}
        wanted = [w for w in wanted if w in said] or wanted
    ranked = recommend(registry, family, candidates, newest, hardware, wanted)
    counts = {(r.workload, r.hardware): (1 if r.stack else 0) + len(r.alternatives) for r in ranked}
    return [_settle(registry, family, item, counts[(item.workload, item.hardware)], stack) for item in ranked]


def family_answers(registry: RegistryIndexes, family: Family, release: str | None = None,
                   hardware: str | None = None, workloads: Iterable[str] = WORKLOADS) -> list[Recommendation]:
    """A family's answers without a config (the site's surfaces): its registry statuses as the candidates.
    Today's answers for every workload (no release, hardware or workloads given) are worked out once per registry
    and family: the family page, the matrix, the API, the feed and the checkpoint pages all show them."""
    if release is None and hardware is None and workloads is WORKLOADS:
        memo: dict[Any, Any] = getattr(registry, "memo", {})  # a stand-in registry without one: worked out each time
        key = ("family_answers", family.id)
        found = memo.get(key)
        if found is None:
            found = memo[key] = answers(registry, family, family_candidates(registry, family))
        return list(found)
    return answers(registry, family, family_candidates(registry, family, release), release, hardware, workloads)


def best(found: Iterable[Recommendation]) -> Recommendation | None:
    """The answer a question without --workload / --hardware exits with: the highest ANSWER_RANK, the first
    among equals."""
    chosen: Recommendation | None = None
    for item in found:
        if chosen is None or ANSWER_RANK.get(item.status, 0) > ANSWER_RANK.get(chosen.status, 0):
            chosen = item
    return chosen


HEADLINE_WORKLOAD = "inference"
"""The workload a question without --workload headlines (most questions are about serving a checkpoint); the
other workload's best answer gets a line of its own."""


def headline(found: Iterable[Recommendation], workload: str | None) -> Recommendation | None:
    """The answer a question exits with: `best` of the asked workload's answers; without --workload, of the
    inference answers when there are any, else of all."""
    found = list(found)
    if workload is None:
        first = [item for item in found if item.workload == HEADLINE_WORKLOAD]
        if first:
            return best(first)
    return best(found)


def overall_status(found: Iterable[Recommendation]) -> str:
    """The status of the best answer ('unknown' when there is none)."""
    chosen = best(found)
    return chosen.status if chosen is not None else str(Status.UNKNOWN)


def answer_json(item: Recommendation) -> dict[str, Any]:
    """The fields every surface compares (tests/site/test_surface_agreement.py): the scoped answer in short."""
    return {"workload": item.workload, "hardware": item.hardware, "stack": item.stack, "status": item.status,
            "release": item.release, "stack_version": item.stack_version}
