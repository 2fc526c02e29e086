"""Answer for one checkpoint: its config's facts + the registry + a Neuron release -> a `Verdict`.

Pure: no I/O, no clock. The rules, in the order they apply:

1. Find the family: by `model_type`; else by a config class in `architectures` (a limiting caveat: stacks
   dispatch on model_type); diffusers pipelines by `_class_name`. Otherwise the answer is `unknown`, with
   siblings that are covered (a `text_config.model_type`, or a model_type that extends or is extended by this
   one with `_`, e.g. `qwen3` / `qwen3_moe`) or the nearest covered families by edit distance.
2. Per stack x workload of the family (stacks in registry order, inference before training), the statements
   that hold at the release are answered, each with the caveats that apply to this config. Statements that
   start later give an `unsupported` row saying when support starts; statements that ended give an `ended`
   row ("ended at R (last held through R')": an ended claim is not a claim that the model does not run).
3. A row's `verdict` is its registry `status`, except that `supported` becomes `partial` when a limiting
   caveat applies (attention implementation or quantization not listed, family matched by architecture only),
   and any claim becomes `unknown` past a separately released stack's horizon (views.beyond_horizon: no
   optimum-neuron version targets the release yet). Stacks not shipped at the release (views.stack_shipped)
   hold no statements there.
   Non-limiting caveats (dtype not listed, context beyond the verified length, required flags, remote code)
   are reported but leave the verdict alone. `display_status` adds `supported-with-requirements` for a
   supported row whose statement needs a flag, variable or setting.
4. `recommendations` are the answers (views.answer): the rows of every release up to the asked one whose
   verdict is a claim are the candidates; per workload x hardware (only --workload / --hardware when given) the
   ranking picks what to install, and each answer has its status (supported, partial, ended, unsupported,
   not-listed, unknown). Rows and candidates are taken for that workload and hardware only.
5. The overall `status` is the headline answer's (views.answer.headline: without --workload the best inference
   answer, training on its own line `other_workload_summary`; `unknown` without a family or an answer), and the
   summary says it: the question asked, scoped; exit codes: 0 supported, 3 partial, 4 otherwise. A row whose
   `since` is the registry's first tracked release says so (`since_is_floor`): nothing earlier is recorded.

The site's check page runs this module in the browser (Pyodide, check/page.py). The statement fields an
answer does not work out itself it carries as they are (`carried_fields`), so a new statement field needs no change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any, cast

from neuron_compat.check.config_facts import ModelConfigFacts
from neuron_compat.contract.versions import version_key
from neuron_compat.contract.vocabulary import TASK_BY_ARCHITECTURE_SUFFIX
from neuron_compat.views.answer import HEADLINE_WORKLOAD, best, headline, pairing_caveat
from neuron_compat.views.answer import answers as settle_answers
from neuron_compat.views.at_release import (
    ENDED,
    HOLDS,
    NO_STATEMENT,
    NOT_YET,
    REQUIREMENT_KINDS,
    WITH_REQUIREMENTS,
    CellState,
    Held,
    cell_at,
    constraint_value,
    stack_horizon,
    stack_shipped,
    stack_states,
)
from neuron_compat.views.inherited_capabilities import ORIGIN_STACK, Effective, effective_for
from neuron_compat.views.recommendation import (
    HARDWARE_ORDER,
    RECOMMENDED_STATUSES,
    Candidate,
    Caveat,
    Recommendation,
    releases_up_to,
)

if TYPE_CHECKING:  # resolve reads models and compiled views alike, by attribute; it never builds a model
    from neuron_compat.check.compiled_view import CompiledRegistry
    from neuron_compat.contract.models import Family, Stack, Statement
    from neuron_compat.loading.loaded_registry import Registry

FORMAT = 1
WORKLOADS = ("inference", "training")
STATUS_RANK = {"supported": 5, "partial": 4, "unsupported": 3, "ended": 2, "not-listed": 1, "unknown": 0}
"""A row verdict's rank (the table's rows; the overall status is the best answer's, views.answer.ANSWER_RANK)."""
ENDED_STATUS = ENDED
"""The verdict (the word of the ended cell kind, at_release.ENDED) of a row whose statements ended before the release: not a claim that the model does not run."""
NEAREST_LIMIT = 3


class ResolveError(ValueError):
    """A question the registry cannot be asked (unknown release or stack): one line, exit code 1."""


# The verdict types are plain frozen dataclasses (no pydantic on check's hot path); `__pydantic_config__` only
# shapes the JSON Schema that `check --json-schema` derives from them.
_FORBID_EXTRA = {"extra": "forbid"}


@dataclass(frozen=True)
class FamilyMatch:
    __pydantic_config__ = _FORBID_EXTRA
    id: str
    name: str
    matched_by: str
    value: str


@dataclass(frozen=True)
class StackAnswer:
    __pydantic_config__ = _FORBID_EXTRA
    stack: str
    stack_name: str
    workload: str
    hardware: list[str]
    status: str
    verdict: str
    display_status: str
    carried: dict[str, Any]
    """The statement's fields an answer carries as they are (`carried_fields`); its JSON lists them in place of
    this key, in the statement's order."""
    attention: list[str]
    dtypes: list[str]
    quantization: list[str]
    attention_origin: str | None
    dtypes_origin: str | None
    quantization_origin: str | None
    constraints: list[dict[str, Any]]
    notes: list[dict[str, Any]]
    caveats: list[Caveat]
    anchor: str | None
    sources: list[str]
    capability_sources: list[str]
    since_is_floor: bool = False
    """`since` is the registry's first tracked release: the registry records nothing earlier, so the model may
    have run before it (text: 'tracked since 2.18.0 (the first release this registry records)')."""


NOT_CARRIED = {
    "parallelism": "check answers from a config's facts, which name no parallelism; the family page shows it",
    "effective": "compiled documents only: an answer's attention, dtypes and quantization are these values",
    "code_path": "an answer carries what the path gives (attention, dtypes, quantization, each with its origin); the "
                 "family page names the path",
}
"""Statement keys an answer neither works out itself nor carries, and why."""

_OWN_FIELDS = frozenset(f.name for f in fields(StackAnswer)) - {"carried"}
CARRIED_AFTER = "display_status"
"""An answer's JSON lists its carried fields right after this key."""


def carried_fields(names: Iterable[str]) -> list[str]:
    """Of a statement's field names, those an answer carries as they are: every one the answer does not work out
    itself (stack, hardware, status, attention, constraints, notes, sources, ...) and NOT_CARRIED does not leave
    out. A new statement field is carried without a change here."""
    return [name for name in names if name not in _OWN_FIELDS and name not in NOT_CARRIED]


def _carried(statement: Statement) -> dict[str, Any]:
    data = _plain(statement)
    return {name: data[name] for name in carried_fields(data)}


def insert_after(mapping: dict[str, Any], after: str, extra: dict[str, Any]) -> dict[str, Any]:
    """A copy of `mapping` with the items of `extra` right after the key `after` (JSON keeps key order)."""
    document: dict[str, Any] = {}
    for key, value in mapping.items():
        document[key] = value
        if key == after:
            document.update(extra)
    return document


def _carried_when_absent(families: list[Family]) -> dict[str, Any]:
    """The carried fields of a row that no statement holds: each empty ([] for a list, else null), named as the
    registry's first statement names them (every statement has the same fields)."""
    for family in families:
        for statement in family.support:
            return {name: [] if isinstance(value, list) else None for name, value in _carried(statement).items()}
    return {}


def _answer_json(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer's JSON: its own fields, with the carried ones in place of `carried`, after `display_status`."""
    carried = answer.pop("carried")
    return insert_after(answer, CARRIED_AFTER, carried)


def task_of(architectures: Iterable[str]) -> str | None:
    """The task a config's class names say (vocabulary.TASK_BY_ARCHITECTURE_SUFFIX): the first that says one."""
    for name in architectures:
        for suffix, task in TASK_BY_ARCHITECTURE_SUFFIX:
            if name.endswith(suffix):
                return task
    return None


@dataclass(frozen=True)
class Subject:
    """Which part of the family the answer is about: its task (from --task, else from the config's class names)
    and its Hub repo id when it has one. Decides which scoped constraints and notes (`applies_to`) apply."""

    task: str | None
    task_from: str | None  # "option", "architectures" or None
    checkpoint: str | None
    examples: frozenset[str]

    def applies(self, item: Any) -> bool:
        """Does a constraint or note apply? Unscoped items always do. A repo id listed by the item applies it; a
        repo id the family lists as an example but the item does not leaves it out when the item names
        checkpoints; otherwise the task decides (--task overrides the repo id). With neither known the item is kept."""
        scope = getattr(item, "applies_to", None)
        if scope is None:
            return True
        checkpoints = [str(c).lower() for c in scope.checkpoints]
        tasks = [str(t) for t in scope.tasks]
        repo = self.checkpoint.lower() if self.checkpoint else None
        if self.task_from != "option" and repo is not None and checkpoints:
            if repo in checkpoints:
                return True
            if repo in self.examples:
                return False
        if self.task is not None and tasks:
            return self.task in tasks or (self.task_from != "option" and repo is not None and repo in checkpoints)
        return repo is None or repo in checkpoints or not checkpoints


def _subject(facts: ModelConfigFacts, family: Family | None, task: str | None, checkpoint: str | None) -> Subject:
    examples = frozenset(e.lower() for e in family.examples) if family is not None else frozenset()
    if task is not None:
        return Subject(task, "option", checkpoint, examples)
    inferred = task_of(facts.architectures)
    return Subject(inferred, "architectures" if inferred else None, checkpoint, examples)


def _left_out_caveat(family: Family, constraints: int, notes: int) -> Caveat:
    parts = [f"{constraints} constraint{'s' if constraints != 1 else ''}" if constraints else "",
             f"{notes} note{'s' if notes != 1 else ''}" if notes else ""]
    said = " and ".join(p for p in parts if p)
    return Caveat(kind="left-out", limits=False,
                  message=f"left out {said} that apply to other tasks or checkpoints of {family.id} "
                  "(the family page lists them; use --task to choose another task)")


@dataclass(frozen=True)
class Verdict:
    """The answer of `neuron-compat check --json` and of the site's check page (same fields, same values)."""

    __pydantic_config__ = _FORBID_EXTRA
    format: int
    release: str
    stack: str | None
    workload: str | None
    task: str | None
    task_from: str | None
    checkpoint: str | None
    model: ModelConfigFacts
    family: FamilyMatch | None
    status: str
    summary: str
    caveats: list[Caveat]
    answers: list[StackAnswer]
    recommendations: list[Recommendation]
    no_statement: list[str]
    nearest: list[str]
    other_workload_summary: str | None = None
    """Without --workload: the best answer of the workload the headline is not about (training), on its own line;
    it does not decide the status or the exit code."""
    first_release: str | None = None
    """The registry's first tracked release (what `since_is_floor` compares with)."""

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["answers"] = [_answer_json(answer) for answer in data["answers"]]
        return data

    def to_json(self) -> str:
        """The `check --json` text (ASCII-escaped, so any string in a config prints safely)."""
        return json.dumps(self.to_dict(), indent=1, allow_nan=False)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of `Verdict`, derived from the dataclasses (imports pydantic: `--json-schema` only); an
    answer's carried fields are described as the contract's `Statement` describes them."""
    from pydantic import TypeAdapter

    from neuron_compat.contract.models import Statement

    schema = TypeAdapter(Verdict).json_schema()
    statement = Statement.model_json_schema()
    for name, definition in statement.pop("$defs", {}).items():
        if schema["$defs"].setdefault(name, definition) != definition:
            raise RuntimeError(f"Verdict and Statement both define a different {name!r} in their JSON Schemas")
    answer = schema["$defs"]["StackAnswer"]
    own = {key: value for key, value in answer["properties"].items() if key != "carried"}
    carried = {name: statement["properties"][name] for name in carried_fields(statement["properties"])}
    properties = answer["properties"] = insert_after(own, CARRIED_AFTER, carried)
    answer["required"] = [key for key in properties if key in answer["required"] or key not in _OWN_FIELDS]
    return schema


def _plain(item: Any) -> dict[str, Any]:
    """A constraint or note as JSON data, from a pydantic model or a compiled view."""
    data: dict[str, Any] = item.model_dump(mode="json") if hasattr(item, "model_dump") else item.to_json()
    return data


def levenshtein(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def nearest_families(name: str, pairs: list[tuple[str, str]]) -> list[str]:
    """Family ids whose names are within edit distance max(2, len/3) of `name`, closest first."""
    limit = max(2, len(name) // 3)
    best: dict[str, int] = {}
    for value, family_id in pairs:
        distance = levenshtein(name.lower(), value.lower())
        if distance <= limit and distance < best.get(family_id, limit + 1):
            best[family_id] = distance
    return [family_id for family_id, _ in sorted(best.items(), key=lambda item: (item[1], item[0]))][:NEAREST_LIMIT]


def _find_family(facts: ModelConfigFacts, families: list[Family]) -> tuple[Family | None, FamilyMatch | None, list[Caveat], list[str]]:
    """(family, how it matched, model-level caveats, nearest family ids)."""
    if facts.kind == "diffusers":
        pipeline = facts.pipeline_class or ""
        for family in families:
            if pipeline in family.pipelines:
                return family, FamilyMatch(id=family.id, name=family.name, matched_by="pipeline", value=pipeline), [], []
        nearest = nearest_families(pipeline, [(p, f.id) for f in families for p in f.pipelines])
        return None, None, [_unknown_caveat(f"pipeline class '{pipeline}' is not in the registry", nearest)], nearest

    model_type = facts.model_type
    if model_type is not None:
        for family in families:
            if model_type in family.model_types:
                return family, FamilyMatch(id=family.id, name=family.name, matched_by="model_type", value=model_type), [], []
    by_architecture: dict[str, Family] = {}  # one pass over the families, then a lookup per name
    for family in families:
        for name in family.architectures:
            by_architecture.setdefault(name, family)
    for architecture in facts.architectures:
        matched = by_architecture.get(architecture)
        if matched is not None:
            said = f"model_type '{model_type}' is not listed by family '{matched.id}'" if model_type else \
                "the config names no model_type"
            caveat = Caveat(kind="matched-by-architecture", limits=True,
                            message=f"{said}; matched by the architecture {architecture}, and stacks usually "
                            "dispatch on model_type")
            match = FamilyMatch(id=matched.id, name=matched.name, matched_by="architectures", value=architecture)
            return matched, match, [caveat], []

    covered = [(m, f.id) for f in families for m in f.model_types]
    siblings: list[tuple[str, str]] = []
    if facts.text_model_type is not None:
        siblings += [(m, fid) for m, fid in covered if m == facts.text_model_type]
    if model_type is not None:
        siblings += [(m, fid) for m, fid in covered
                     if m != model_type and (m.startswith(model_type + "_") or model_type.startswith(m + "_"))]
    siblings = sorted(set(siblings))
    if siblings:
        listed = ", ".join(f"{m} (family {fid})" for m, fid in siblings)
        nearest = list(dict.fromkeys(fid for _, fid in siblings))
        subject = f"model_type '{model_type}' is not covered" if model_type is not None else \
            "the config names no model_type"
        caveat = Caveat(kind="sibling-covered", limits=True,
                        message=f"{subject}, but its sibling {listed} is; an answer for a sibling does not carry over")
        return None, None, [caveat], nearest
    if model_type is None:
        names = ", ".join(facts.architectures) or "none"
        return None, None, [_unknown_caveat(f"the config names no model_type and no known architecture ({names})", [])], []
    nearest = nearest_families(model_type, covered)
    return None, None, [_unknown_caveat(f"model_type '{model_type}' is not in the registry", nearest)], nearest


def _unknown_caveat(what: str, nearest: list[str]) -> Caveat:
    tail = f"; nearest covered families: {', '.join(nearest)}" if nearest else "; no covered family is close"
    return Caveat(kind="unknown-model-type", limits=True, message=what + tail)


def _whose(origin: str | None) -> str:
    """'this statement's' or, for values inherited from the stack's capability, 'this stack's'."""
    return "this stack's" if origin == ORIGIN_STACK else "this statement's"


def _row_caveats(facts: ModelConfigFacts, constraints: list[Any], effective: Effective) -> list[Caveat]:
    caveats: list[Caveat] = []
    dtypes = effective.dtypes
    if facts.dtype_raw is not None and dtypes.values and facts.dtype not in dtypes.values:
        caveats.append(Caveat(kind="dtype-not-listed", limits=False,
                              message=f"checkpoint dtype {facts.dtype or facts.dtype_raw} is not among {_whose(dtypes.origin)} "
                              f"dtypes ({', '.join(dtypes.values)}); the stack may cast it"))
    attention, listed_attention = facts.attn_implementation, effective.attention
    if attention is not None and listed_attention.values and "native" not in listed_attention.values \
            and attention not in listed_attention.values:
        caveats.append(Caveat(kind="attention-not-listed", limits=True,
                              message=f"attn_implementation {attention} is not among {_whose(listed_attention.origin)} "
                              f"attention implementations ({', '.join(listed_attention.values)})"))
    quantization = facts.quantization
    methods = effective.quantization
    if quantization is not None and (quantization.id is None or quantization.id not in methods.values):
        listed = ", ".join(methods.values) or "none listed"
        caveats.append(Caveat(kind="quantization-not-listed", limits=True,
                              message=f"quantization {quantization.id or quantization.method} is not among "
                              f"{_whose(methods.origin)} quantization methods ({listed})"))
    for constraint in constraints:
        kind = str(constraint.kind)
        if kind == "max-sequence-length" and facts.max_position_embeddings is not None \
                and isinstance(constraint.value, int) and facts.max_position_embeddings > constraint.value:
            caveats.append(Caveat(kind="context-beyond-verified", limits=False,
                                  message=f"max_position_embeddings {facts.max_position_embeddings} is beyond the "
                                  f"{constraint.value} tokens this statement was verified with"))
        elif kind in REQUIREMENT_KINDS:
            value = "" if constraint.value is None else f" = {constraint_value(constraint.value)}"
            caveats.append(Caveat(kind="requires", limits=False, message=f"requires {kind} {constraint.name}{value}"))
    return caveats


def _answer(stack: Stack, held: Held, facts: ModelConfigFacts, family_caveats: list[Caveat],
            release: str, effective: Effective, subject: Subject, family: Family) -> StackAnswer:
    statement = held.statement
    constraints = [c for c in statement.constraints if subject.applies(c)]
    dated = [n for n in statement.notes if n.release is None or version_key(n.release) <= version_key(release)]
    notes = [n for n in dated if subject.applies(n)]
    caveats = _row_caveats(facts, constraints, effective)
    left_constraints, left_notes = len(statement.constraints) - len(constraints), len(dated) - len(notes)
    status = str(statement.status)
    verdict = status
    if status == "supported" and any(c.limits for c in caveats + family_caveats):
        verdict = "partial"
    if held.reason is not None:  # views.held_at: a claim past a separately released stack's horizon
        caveats.append(Caveat(kind="beyond-horizon", limits=True, message=held.reason))
        verdict = "unknown"
    if left_constraints or left_notes:
        caveats.append(_left_out_caveat(family, left_constraints, left_notes))
    requirements = any(str(c.kind) in REQUIREMENT_KINDS for c in constraints)
    display = WITH_REQUIREMENTS.get(verdict, verdict) if requirements else verdict
    return StackAnswer(
        stack=stack.id, stack_name=stack.name, workload=str(statement.workload),
        hardware=list(held.hardware), status=status, verdict=verdict, display_status=display,
        carried=_carried(statement),
        attention=list(effective.attention.values), dtypes=list(effective.dtypes.values),
        quantization=list(effective.quantization.values), attention_origin=effective.attention.origin,
        dtypes_origin=effective.dtypes.origin, quantization_origin=effective.quantization.origin,
        constraints=[_plain(c) for c in constraints],
        notes=[_plain(n) for n in notes],
        caveats=caveats, anchor=statement.anchor, sources=[s.url for s in statement.sources],
        capability_sources=list(effective.capability_sources),
    )


def _absent_answer(stack: Stack, workload: str, state: CellState, release: str, family: Family,
                   families: list[Family]) -> StackAnswer:
    """A row for a stack x workload where nothing holds at `release` (views.cell_at: not yet, ended, or no
    statement). Statements that start (or end) at the same release are one event: their sources are merged."""
    group = [family.support[index] for index in state.statements]
    if state.kind == NOT_YET:
        status, kind = "unsupported", "not-yet"
        message = f"no statement holds at {release}; the first one starts at {state.release} ({group[0].status})"
    elif state.kind == ENDED:
        status, kind = ENDED_STATUS, "ended"
        through = f" (last held through {state.held_through})" if state.held_through else ""
        message = f"ended at {state.release}{through}"
    else:
        status, kind = "unknown", "no-statement"
        message = f"the registry has no statement for {family.id} on {stack.id} ({workload})"
    return StackAnswer(
        stack=stack.id, stack_name=stack.name, workload=workload,
        hardware=list(state.hardware), status=status, verdict=status,
        display_status=status, carried=_carried_when_absent(families), attention=[], dtypes=[], quantization=[],
        attention_origin=None, dtypes_origin=None, quantization_origin=None, constraints=[], notes=[], caveats=[Caveat(kind=kind, limits=False, message=message)],
        anchor=group[0].anchor if group else None,
        sources=list(dict.fromkeys(src.url for s in group for src in s.sources)), capability_sources=[],
    )


def unknown_hardware(hardware: str) -> str:
    """The one line for a `--hardware` that names no generation."""
    return f"unknown hardware '{hardware}'; known generations: {', '.join(HARDWARE_ORDER)}"


def _answers_at(registry: Registry | CompiledRegistry, stacks: list[Stack], family: Family, facts: ModelConfigFacts,
                family_caveats: list[Caveat], subject: Subject, release: str, stack: str | None,
                workloads: list[str]) -> list[StackAnswer]:
    """The rows at `release`: per stack x workload, the statements that hold, or why none does."""
    answers: list[StackAnswer] = []
    states = stack_states(registry, release)
    for candidate in stacks:
        if stack is not None and candidate.id != stack:
            continue
        for wanted in workloads:
            state = cell_at(registry, family, candidate.id, wanted, None, release, states)
            if state.kind == HOLDS:
                answers += [_answer(candidate, h, facts, family_caveats, release,
                                    effective_for(registry, family, h.statement), subject, family)
                            for h in state.held]
            elif state.kind != NO_STATEMENT or (stack is not None and wanted in candidate.workloads):
                answers.append(_absent_answer(candidate, wanted, state, release, family,
                                              cast("list[Family]", registry.families)))
    return answers


def _today_release(stack: Stack, newest: str) -> str:
    """The release a stack's rows are read at *today*: `newest`, or for a stack with its own release line the
    Neuron release its newest version targets when that is older (views.answer's pairing)."""
    horizon = stack_horizon(stack)
    return horizon if horizon is not None and version_key(horizon) < version_key(newest) else newest


def _pairing_row_caveat(registry: Registry | CompiledRegistry, stack_id: str, at: str, newest: str) -> Caveat:
    found = pairing_caveat(registry, stack_id, at, newest)
    return found if found is not None else Caveat(kind="pairing", limits=False, message=f"read at Neuron {at}")


def candidates_of(answers: list[StackAnswer], release: str) -> list[Candidate]:
    """The rows at `release` whose verdict claims the model runs, as recommendation candidates."""
    return [Candidate(stack=a.stack, workload=a.workload, hardware=tuple(a.hardware), release=release,
                      status=a.verdict, caveats=tuple(a.caveats), sources=tuple(a.sources), anchor=a.anchor)
            for a in answers if a.verdict in RECOMMENDED_STATUSES]


def resolve(facts: ModelConfigFacts, registry: Registry | CompiledRegistry, release: str | None = None, stack: str | None = None,
            workload: str | None = None, task: str | None = None, checkpoint: str | None = None,
            hardware: str | None = None) -> Verdict:
    """The answer for one config. `task` (check --task) and `checkpoint` (the Hub repo id asked about) choose
    which scoped constraints and notes apply; without --task the config's class names say the task. The
    recommendations (views.recommendation) rank the rows of every release up to `release`, on `hardware` alone
    when it is given."""
    versions = registry.release_versions
    if not versions:
        raise ResolveError("the registry lists no Neuron releases")
    today = release is None
    release = release or versions[-1]
    if release not in versions:
        raise ResolveError(f"Neuron release '{release}' is not in the registry; known releases: {', '.join(versions)}")
    if stack is not None and stack not in registry.stack_by_id:
        raise ResolveError(f"unknown stack '{stack}'; known stacks: {', '.join(s.id for s in registry.stacks)}")
    if workload is not None and workload not in WORKLOADS:
        raise ResolveError(f"unknown workload '{workload}'; use inference or training")
    if hardware is not None and hardware not in HARDWARE_ORDER:
        raise ResolveError(unknown_hardware(hardware))
    workloads = [workload] if workload else list(WORKLOADS)

    # compiled views are read exactly as the models are, by attribute (check/compiled_view.py)
    stacks = cast("list[Stack]", registry.stacks)
    family, match, caveats, nearest = _find_family(facts, cast("list[Family]", registry.families))
    subject = _subject(facts, family, task, checkpoint)
    if facts.remote_code:
        caveats.append(Caveat(kind="remote-code", limits=False,
                              message="config.json has auto_map: the checkpoint ships its own modeling code "
                              "(trust_remote_code); Neuron stacks run their own implementation of the family, so "
                              "check that the custom code does not change the architecture"))
    answers: list[StackAnswer] = []
    no_statement: list[str] = []
    recommendations: list[Recommendation] = []
    if family is not None:
        family_caveats = [c for c in caveats if c.limits]

        def answers_at(at: str) -> list[StackAnswer]:
            return _answers_at(registry, stacks, family, facts, family_caveats, subject, at, stack, workloads)

        answers = answers_at(release)
        if today:  # a stack with its own release line answers at the release its newest version targets
            answers = []
            for owner in stacks:
                at = _today_release(owner, release)
                rows = _answers_at(registry, [owner], family, facts, family_caveats, subject, at, stack, workloads)
                if at != release:
                    rows = [replace(a, caveats=[*a.caveats, _pairing_row_caveat(registry, owner.id, at, release)])
                            for a in rows]
                answers += rows
        if hardware is not None:  # the table answers the question asked: rows on that hardware only
            answers = [replace(a, hardware=[hardware]) for a in answers if hardware in a.hardware]
        no_statement = [
            s.id for s in stacks
            if stack is None and stack_shipped(s, release) and any(w in s.workloads for w in workloads)
            and not any(st.stack == s.id and st.workload in workloads for st in family.support)
        ]
        candidates = [candidate for at in releases_up_to(registry, release)
                      for candidate in candidates_of(answers if at == release else answers_at(at), at)]
        recommendations = settle_answers(registry, family, candidates, release, hardware, workloads, stack)

    floor = versions[0]
    answers = [replace(a, since_is_floor=a.carried.get("since") == floor) for a in answers]
    chosen = headline(recommendations, workload)
    status = chosen.status if chosen is not None else "unknown"
    considered = [r for r in recommendations if chosen is None or r.workload == chosen.workload]
    other = [r for r in recommendations if chosen is not None and r.workload != chosen.workload]
    other_summary = None
    if workload is None and other and family is not None:
        other_summary = _summary(facts, family, best(other), release, len(other))
    return Verdict(
        format=FORMAT, release=release, stack=stack, workload=workload, task=subject.task,
        task_from=subject.task_from, checkpoint=checkpoint, model=facts,
        family=match, status=status,
        summary=_summary(facts, family, chosen, release, len(considered), bool(other)), caveats=caveats,
        answers=answers, recommendations=recommendations, no_statement=no_statement, nearest=nearest,
        other_workload_summary=other_summary, first_release=floor,
    )


def _summary(facts: ModelConfigFacts, family: Family | None, chosen: Recommendation | None, release: str,
             count: int, other_workload: bool = False) -> str:
    """The Result line: the headline answer (views.answer.headline), for the workload x hardware it is about."""
    if family is None:
        label = facts.pipeline_class if facts.kind == "diffusers" else facts.model_type
        return f"{label or 'this config'}: unknown at Neuron {release} (not in the registry)"
    if chosen is None:
        return f"{family.name}: unknown at Neuron {release} (no statement for this stack, workload or hardware)"
    text = f"{family.name}, {chosen.workload} on {chosen.hardware}: {chosen.status}"
    if chosen.stack is not None and chosen.release is not None:
        version = f" {chosen.stack_version}" if chosen.stack_version else ""
        text += f" with {chosen.stack}{version} on Neuron {chosen.release}"
    elif chosen.stack is not None:
        text += f" ({chosen.why})"
    if count > 1:
        text += (f" (the best of {count} {chosen.workload} answers, one per hardware above)" if other_workload
                 else f" (the best of {count} answers, one per workload x hardware above)")
    if other_workload and chosen.workload == HEADLINE_WORKLOAD:
        text += "; training is answered on its own line"
    return text
