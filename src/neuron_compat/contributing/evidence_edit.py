"""Turn "I ran family X on stack S, Neuron release R, hardware H" into the right edit of X's file.

The rules, in the order they are tried (for the statements of stack S x workload W that list H):
- one covers R and says supported or partial: the run is one more source for it; a dtype or attention
  implementation the run used and the statement lacks is added to it;
- one covers R and says unknown: the run ends the unknown for H from R on. The unknown statement keeps
  its other hardware and the releases before R; a supported statement for H starts at R (and ends
  where the unknown one ended);
- one covers R and says unsupported: the run contradicts a sourced claim. Nothing is written; a person
  must decide (and say why in the pull request);
- none covers R: a new supported statement for H starts at R and ends where the next later statement
  for the same stack/workload/hardware begins, so no two statements overlap.
The edit is spliced into the file's text (yaml_patch.py): comments, key order, quoting and line wrapping
of everything else stay as they were. The full validator checks the result before anything is written
(see commands/add_evidence.py).
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from neuron_compat.contract.models import Family, InstancesFile, Stack, Statement
from neuron_compat.contract.versions import version_key
from neuron_compat.contract.vocabulary import SourceKind, Status
from neuron_compat.contributing import roundtrip_style
from neuron_compat.contributing.yaml_patch import TextEditError, YamlTextEditor
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.views.at_release import covers

# Field order of a statement in the schema: new keys go where a person would put them.
STATEMENT_FIELDS = tuple(Statement.model_fields)
_VERSION_FIELDS = {"since", "until", "stack_since", "stack_until", "release"}


class EvidenceError(ValueError):
    """The evidence cannot be recorded as given; the message says why and what to do."""


class NothingToDo(EvidenceError):
    """The file already says everything the evidence says."""


class UnknownInstance(EvidenceError):
    """--instance names no instance of instances.yaml (a bad option: exit 2)."""


def hardware_of_instance(instances: InstancesFile | None, name: str) -> str:
    """The hardware generation instances.yaml gives the instance type `name` ('trn1n.32xlarge' -> 'trn1').

    instances.yaml is the one instance-to-hardware mapping (`check` reads the compiled copy of the same file).
    An instance it does not list raises UnknownInstance, with the closest name it does list.
    """
    if instances is None:
        raise UnknownInstance(f"--instance {name}: this registry has no instances.yaml to look it up in; "
                              "give --hardware instead")
    hardware = {instance.name: str(instance.hardware) for instance in instances.instances}
    if name in hardware:
        return hardware[name]
    names = list(hardware)
    close = ([known for known in names if known.lower() == name.strip().lower()]
             or difflib.get_close_matches(name, names, n=1))
    hint = f"did you mean '{close[0]}'? " if close else ""
    raise UnknownInstance(f"--instance {name}: not in instances.yaml ({hint}known: {', '.join(names)})")


@dataclass(frozen=True)
class Evidence:
    """One verified result, as a contributor reports it."""

    stack: str
    workload: str
    release: str
    hardware: str
    url: str
    verified: dt.date
    kind: str = SourceKind.REPRODUCIBLE_RUN.value
    title: str | None = None
    by: str | None = None
    instance: str | None = None
    dtypes: tuple[str, ...] = ()
    attention: tuple[str, ...] = ()
    stack_version: str | None = None

    def source_map(self) -> CommentedMap:
        title = self.title
        if title is None and self.kind == SourceKind.REPRODUCIBLE_RUN.value:
            where = f" on {self.instance}" if self.instance else f" on {self.hardware}"
            title = f"Run{where} with Neuron {self.release}"
        return roundtrip_style.mapping({
            "url": self.url,
            "title": title,
            "kind": self.kind,
            "verified": self.verified,
            "by": self.by,
            "release": roundtrip_style.quoted(self.release),
            "instance": self.instance,
        })


@dataclass
class EvidenceEdit:
    """The new text of the family file and, in plain words, what changed."""

    text: str
    actions: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.actions)


def check_evidence(registry: Registry, family: Family, evidence: Evidence) -> None:
    """Refuse evidence that names things the registry does not know, with the valid choices."""
    stack = registry.stack_by_id.get(evidence.stack)
    if stack is None:
        raise EvidenceError(f"stack '{evidence.stack}' is not in stacks.yaml (known: {', '.join(sorted(registry.stack_by_id))})")
    if evidence.workload not in stack.workloads:
        raise EvidenceError(f"stack '{stack.id}' does not do {evidence.workload} (it does: {', '.join(stack.workloads)})")
    if evidence.hardware not in stack.hardware:
        raise EvidenceError(f"stack '{stack.id}' does not list {evidence.hardware} (it lists: {', '.join(stack.hardware)})")
    release = registry.release_by_version.get(evidence.release)
    if release is None:
        versions = registry.release_versions
        known = f"{versions[0]} to {versions[-1]}" if versions else "none"
        raise EvidenceError(f"Neuron release '{evidence.release}' is not in releases.yaml (known: {known}); "
                            "add the release there first")
    if release.hardware and evidence.hardware not in release.hardware:
        raise EvidenceError(f"Neuron {release.version} does not list {evidence.hardware} hardware "
                            f"(it lists: {', '.join(release.hardware)}); check --release and --instance")
    if evidence.stack_version is not None:
        targets = {v.version: v.neuron for v in stack.versions}
        if evidence.stack_version not in targets:
            listed = f"known: {', '.join(targets)}" if targets else f"{stack.id} has no version line of its own"
            raise EvidenceError(f"{stack.id} version '{evidence.stack_version}' is not in stacks.yaml ({listed})")


def stack_version_for(stack: Stack, evidence: Evidence) -> str | None:
    """The stack's own version a new statement starts at: the one the run used, or the only one for R.

    Stacks with their own version line (optimum-neuron) need `stack_since` on supported statements;
    stacks.yaml says which of their versions targets which Neuron release.
    """
    if not stack.versions or evidence.stack_version is not None:
        return evidence.stack_version
    candidates = [v.version for v in stack.versions if v.neuron == evidence.release]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        recent = ", ".join(f"{v.version} (Neuron {v.neuron})" for v in stack.versions[-3:])
        raise EvidenceError(f"no {stack.id} version in stacks.yaml targets Neuron {evidence.release}: pass "
                            f"--stack-version with the {stack.id} version you ran (newest: {recent}), or add it to "
                            "stacks.yaml")
    raise EvidenceError(f"several {stack.id} versions target Neuron {evidence.release} ({', '.join(candidates)}); "
                        "pass --stack-version with the one you ran")


def axis_release(stack: Stack, evidence: Evidence) -> str:
    """The Neuron release the statements of this stack are placed at for this run.

    Statements of a stack with its own version line sit at the Neuron release their stack version
    targets (stacks.yaml; the stack-version-line rule checks it). A run of optimum-neuron 0.4.5 on a
    newer Neuron release is therefore recorded at 0.4.5's release; the source keeps the release used.
    """
    if stack.versions and evidence.stack_version is not None:
        return next(v.neuron for v in stack.versions if v.version == evidence.stack_version)
    return evidence.release


def statement_to_map(statement: Statement, **changes: Any) -> CommentedMap:
    """A statement as round-trip YAML in schema order: versions quoted, short lists on one line."""
    data = statement.model_dump(mode="python", exclude_defaults=True)
    data.update(changes)
    return roundtrip_style.mapping({name: _to_yaml(name, data.get(name)) for name in STATEMENT_FIELDS})


def _to_yaml(name: str, value: Any) -> Any:
    if value is None or value == [] or value == {}:
        return None
    if name in _VERSION_FIELDS and isinstance(value, str):
        return roundtrip_style.quoted(value)
    if isinstance(value, dict):
        return roundtrip_style.mapping({key: _to_yaml(key, item) for key, item in value.items()})
    if isinstance(value, list):
        if all(not isinstance(item, (dict, list)) for item in value):
            return roundtrip_style.flow_list(value)
        seq = CommentedSeq()
        seq.extend(_to_yaml(name, item) for item in value)
        return seq
    return value


def describe(statement: Statement | CommentedMap, index: int) -> str:
    get: Callable[[str], Any] = (statement.get if isinstance(statement, CommentedMap)
                                 else lambda key: getattr(statement, key))
    since = f", since {get('since')}" if get("since") else ""
    until = f", until {get('until')}" if get("until") else ""
    return (f"support[{index}] ({get('stack')} / {get('workload')} on {', '.join(get('hardware'))}: "
            f"{get('status')}{since}{until})")


class _Editor:
    """Applies the rules above to one family file, as minimal text edits (textedit.YamlTextEditor)."""

    def __init__(self, family: Family, text: str, evidence: Evidence, stack: Stack) -> None:
        self.family = family
        self.stack = stack
        self.evidence = evidence
        self.editor = YamlTextEditor(text)
        self.actions: list[str] = []
        self.release = axis_release(stack, evidence)
        if self.release != evidence.release:
            self.actions.append(f"{stack.id} {evidence.stack_version} targets Neuron {self.release}: its statements "
                                f"sit at that release (the source keeps {evidence.release}, the release you ran)")

    def apply(self) -> EvidenceEdit:
        evidence = self.evidence
        matching = [
            (index, statement) for index, statement in enumerate(self.family.support)
            if statement.stack == evidence.stack and statement.workload == evidence.workload
            and evidence.hardware in statement.hardware
        ]
        covering = [(index, statement) for index, statement in matching if covers(statement, self.release)]
        try:
            if covering:
                index, statement = covering[0]
                status = Status(statement.status)
                if status in (Status.SUPPORTED, Status.PARTIAL):
                    self._add_to(index, statement)
                elif status is Status.UNKNOWN:
                    self._end_unknown(index, statement)
                else:
                    raise EvidenceError(
                        f"{describe(statement, index)} says unsupported at {self.release}, and a source backs it; "
                        "a working run contradicts it. Edit the file by hand (end that statement with until and add "
                        "a supported one) and explain the difference in the pull request."
                    )
            else:
                self._add_new(matching)
        except TextEditError as error:
            raise EvidenceError(f"cannot edit the file automatically: {error}; edit it by hand") from None
        return EvidenceEdit(self.editor.text(), self.actions)

    # -- the three edits ---------------------------------------------------------------------------

    def _add_to(self, index: int, statement: Statement) -> None:
        where = describe(statement, index)
        for name, values in (("dtypes", self.evidence.dtypes), ("attention", self.evidence.attention)):
            new = [value for value in values if value not in getattr(statement, name)]
            if not new:
                continue
            if self.editor.node(("support", index, name)) is not None:
                self.editor.append_to_list(("support", index, name), new)
            else:
                self.editor.add_key(("support", index), name, roundtrip_style.flow_list(new), after=_fields_before(name))
            self.actions.append(f"added {name} {', '.join(new)} to {where}")
        if any(source.url == self.evidence.url for source in statement.sources):
            if not self.actions:
                raise NothingToDo(f"{where} already cites {self.evidence.url}; nothing changed")
            return
        self.editor.insert_item(("support", index, "sources"), len(statement.sources), [self.evidence.source_map()])
        self.actions.append(f"added the source to {where}")

    def _end_unknown(self, index: int, statement: Statement) -> None:
        evidence = self.evidence
        where = describe(statement, index)
        starts_before = statement.since is None or version_key(statement.since) < version_key(self.release)
        others = [h for h in statement.hardware if h != evidence.hardware]
        if not others and not starts_before:
            self.editor.replace_item(("support",), index, self._new_statement(statement.until))
            self.actions.insert(-1, f"replaced {where}: the run at its first release answers it")
            return
        inserts: list[CommentedMap] = []
        if others:
            self.editor.remove_from_flow_list(("support", index, "hardware"), evidence.hardware)
            self.actions.append(f"removed {evidence.hardware} from {where}")
            if starts_before:
                inserts.append(statement_to_map(statement, hardware=[evidence.hardware], until=self.release))
                self.actions.append(f"kept {evidence.hardware} unknown before {self.release} in a statement of its own")
        else:
            until = roundtrip_style.quoted(self.release)
            if statement.until is not None:
                self.editor.set_value(("support", index, "until"), until)
            else:
                self.editor.add_key(("support", index), "until", until, after=_fields_before("until"))
            self.actions.append(f"ended {where} at {self.release} (until: \"{self.release}\")")
        inserts.append(self._new_statement(statement.until))
        self.editor.insert_item(("support",), index + 1, inserts)

    def _add_new(self, matching: list[tuple[int, Statement]]) -> None:
        release_key = version_key(self.release)
        later = [s.since for _, s in matching if s.since is not None and version_key(s.since) > release_key]
        until = min(later, key=version_key) if later else None
        group = [index for index, s in enumerate(self.family.support)
                 if s.stack == self.evidence.stack and s.workload == self.evidence.workload]
        if group:
            self.editor.insert_item(("support",), group[-1] + 1, [self._new_statement(until)])
        else:
            self.editor.append_item(("support",), self._new_statement(until))

    # -- helpers -------------------------------------------------------------------------------------

    def _new_statement(self, until: str | None) -> CommentedMap:
        evidence = self.evidence
        stack_since = stack_version_for(self.stack, evidence)
        node = roundtrip_style.mapping({
            "stack": evidence.stack,
            "workload": evidence.workload,
            "hardware": roundtrip_style.flow_list([evidence.hardware]),
            "status": Status.SUPPORTED.value,
            "since": roundtrip_style.quoted(self.release),
            "until": roundtrip_style.quoted(until) if until else None,
            "stack_since": roundtrip_style.quoted(stack_since) if stack_since else None,
            "attention": roundtrip_style.flow_list(evidence.attention) if evidence.attention else None,
            "dtypes": roundtrip_style.flow_list(evidence.dtypes) if evidence.dtypes else None,
            "sources": CommentedSeq([evidence.source_map()]),
        })
        range_text = f"since {self.release}" + (f", until {until}" if until else "")
        self.actions.append(
            f"added a supported statement for {evidence.stack} / {evidence.workload} on {evidence.hardware} ({range_text})"
        )
        return node


def _fields_before(name: str) -> tuple[str, ...]:
    return STATEMENT_FIELDS[: STATEMENT_FIELDS.index(name)]


def record_evidence(registry: Registry, family: Family, text: str, evidence: Evidence) -> EvidenceEdit:
    """The family file's new text with `evidence` recorded (raises EvidenceError / NothingToDo)."""
    check_evidence(registry, family, evidence)
    return _Editor(family, text, evidence, registry.stack_by_id[evidence.stack]).apply()
