"""`check --environment FILE` / `--stack-version STACK==VERSION`: the question asked for that environment, and what
in it does not fit this model.

The release detected (environment/detection.py) answers for `--neuron`, the instance for `--instance` and its
hardware for `--hardware`, unless those flags are given (then they win, and a different release is said). The
model's mismatches come from the answer today (the newest release): an installed stack whose claim for this family
starts at a later release than the environment's ("vllm-neuron 0.24.0.1.1.0 is Neuron 2.32.0's plugin; Qwen3 comes
with 2.33.0's"), or at a later version of the stack's own line; and, when no installed stack holds a claim on the
environment's hardware at its release, what to install instead (the recommendation's line).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from neuron_compat.contract.versions import version_key
from neuron_compat.views.recommendation import RECOMMENDED_STATUSES, choice_text, install_for

if TYPE_CHECKING:
    from neuron_compat.check.answer_pipeline import Answer, Question
    from neuron_compat.check.compiled_view import CompiledRegistry
    from neuron_compat.check.resolver import Verdict
    from neuron_compat.environment.detection import Environment


ENVIRONMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "With --environment or --stack-version: the Neuron release detected (release, release_candidates, "
    "release_from), the packages read (name, version, recorded_as, releases, source), stack_versions, the instance "
    "(name, candidates, hardware, lnc, devices, cores_per_device, memory_gib_per_device, source), mismatches in plain "
    "words, notes, the formats read and the lines not recognised.",
    "required": ["release", "release_candidates", "packages", "instance", "mismatches"],
}
"""The JSON Schema of `check --json`'s `environment` (present only with --environment or --stack-version)."""


def environment_question(question: Question, environment: Environment, registry: CompiledRegistry) -> tuple[Question, list[str]]:
    """The question with the environment's release, hardware and instance where no flag names them, and the
    lines that say what a flag overrode."""
    said: list[str] = []
    changes: dict[str, Any] = {}
    if environment.release is not None:
        if question.neuron is None:
            changes["neuron"] = environment.release
        elif question.neuron != environment.release:
            said.append(f"answered at --neuron {question.neuron}; your packages are Neuron {environment.release}'s")
    instance = environment.instance
    if instance is not None:
        if question.hardware is None and instance.hardware is not None:
            changes["hardware"] = instance.hardware
        listed = {i["name"] for i in (registry.instances or {}).get("instances", [])}
        if question.instance is None and instance.name in listed:
            changes["instance"] = instance.name
    return (replace(question, **changes) if changes else question), said


def _stack_name(registry: CompiledRegistry, stack_id: str) -> str:
    stack = registry.stack_by_id.get(stack_id)
    return str(stack.name) if stack is not None else stack_id


def model_mismatches(environment: Environment, verdict: Verdict, today: Verdict | None,
                     registry: CompiledRegistry) -> list[str]:
    """What does not fit this model in the environment, in plain words (see the module docstring)."""
    family = verdict.family.name if verdict.family else None
    if family is None or environment.release is None:
        return []
    release = environment.release
    hardware = environment.hardware
    found: list[str] = []
    package_of = {p.recorded_as: p for p in environment.packages if p.recorded_as}
    def claims(answer: Any) -> bool:
        return answer.verdict in RECOMMENDED_STATUSES and (hardware is None or hardware in answer.hardware)

    for stack_id, version in environment.stack_versions.items():
        held_here = any(a.stack == stack_id and claims(a) for a in verdict.answers)
        for answer in (today.answers if today is not None else verdict.answers):
            if answer.stack != stack_id or not claims(answer):
                continue
            since = answer.carried.get("since")
            stack_since = answer.carried.get("stack_since")
            package = package_of.get(stack_id)
            shown = f"{package.name if package else stack_id} {version}"
            if not held_here and since and version_key(str(since)) > version_key(release):
                where = hardware or ", ".join(answer.hardware)
                _, install, _ = install_for(registry, registry.stack_by_id[stack_id], answer.workload, where.split(",")[0],
                                            str(since))
                found.append(f"{shown} is Neuron {release}'s {_stack_name(registry, stack_id)}; {family} "
                             f"({answer.workload}, {where}) comes with Neuron {since}'s: install {', '.join(install)}")
                break
            if stack_since and version_key(version) < version_key(str(stack_since)):
                found.append(f"{shown} is older than {stack_id} {stack_since}, the first version that runs {family} "
                             f"({answer.workload}): install {stack_id}=={stack_since} or newer")
                break
    holds = [a for a in verdict.answers if a.stack in environment.stack_versions and a.verdict in RECOMMENDED_STATUSES
             and (hardware is None or hardware in a.hardware)]
    if hardware is not None and not holds:
        for item in verdict.recommendations:
            if item.hardware == hardware and item.stack is not None:
                found.append(f"instead, for {family} on {hardware} ({item.workload}): {choice_text(item)}, "
                             f"install {', '.join(item.install) or 'nothing recorded'}")
    return found


def ask_in_environment(config: object, registry: CompiledRegistry, question: Question, environment_text: str,
                       checkpoint: str | None = None, source: str = "pasted text") -> Answer:
    """The answer for a config in a pasted environment (text, not a file): what `check --environment` gives, for
    a caller without files such as the check page (pure Python, standard library only). Raises AnswerError with
    `check`'s one-line message and exit code."""
    from neuron_compat.check.answer_pipeline import AnswerError, ask
    from neuron_compat.check.exit_codes import EXIT_PROBLEMS
    from neuron_compat.environment.detection import detect
    from neuron_compat.environment.paste import MAX_BYTES, PasteError, read_paste

    if len(environment_text) > MAX_BYTES:
        raise AnswerError(f"environment: more than {MAX_BYTES // 1024 // 1024} MiB; paste the pip list and neuron-ls "
                          "output only", EXIT_PROBLEMS)
    try:
        paste = read_paste(environment_text)
    except PasteError as error:
        raise AnswerError(f"environment: {error}", EXIT_PROBLEMS) from None
    environment = detect(registry, paste)
    question, said = environment_question(question, environment, registry)
    answer = ask(config, registry, question, checkpoint, source=source)
    attach_environment(answer, environment, config, question, said)
    return answer


def today_verdict(config: object, registry: CompiledRegistry, question: Question) -> Verdict | None:
    """The verdict at the newest release for the same question (None when the config does not resolve)."""
    from neuron_compat.check.config_facts import ConfigError, facts_from_config
    from neuron_compat.check.resolver import ResolveError, resolve

    try:
        facts = facts_from_config(config)
        return resolve(facts, registry, stack=question.stack, workload=question.workload, task=question.task,
                       hardware=question.hardware)
    except (ConfigError, ResolveError):
        return None


def attach_environment(answer: Answer, environment: Environment | None, config: object, question: Question,
                       said: list[str]) -> None:
    """The answer's `environment`: what was read, with this model's mismatches (read against today's answer);
    nothing when no environment was given."""
    if environment is None:
        return
    registry = answer.registry
    today = today_verdict(config, registry, question) if question.neuron != registry.newest_release else None
    answer.environment = environment_document(
        environment, model_mismatches(environment, answer.verdict, today, registry), said)


def environment_document(environment: Environment, mismatches: list[str], said: list[str]) -> dict[str, Any]:
    """`check --json`'s `environment`: release, candidates, packages, instance and mismatches (the environment's
    own, then this model's), with the notes and the lines not recognised."""
    data = environment.to_dict()
    return {
        "release": data["release"], "release_candidates": data["release_candidates"],
        "release_from": data["release_from"], "packages": data["packages"], "stack_versions": data["stack_versions"],
        "instance": data["instance"], "mismatches": [*data["mismatches"], *mismatches, *said],
        "notes": data["notes"], "formats": data["formats"], "not_recognised": data["not_recognised"],
    }
