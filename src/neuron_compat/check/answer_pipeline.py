"""The one answer pipeline: a model's config, a question and the compiled registry in, the answer out.

`ask(config, registry, question)` runs the option checks, the config's facts, the resolver, the fit, the tested
configurations and the family's known issues, and returns an `Answer`, or raises `AnswerError` with the one-line
message and the exit code `check` gives. Every surface calls it: `neuron-compat check` (text and `--json`), the
site's check page in the browser (check/page.py, through Pyodide) and the tests that compare them. The
surfaces only read their input and print; none of them assembles an answer of its own.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from neuron_compat.check.exit_codes import EXIT_FOR_STATUS, EXIT_PROBLEMS, EXIT_USAGE
from neuron_compat.safeio.safe_text import one_line

if TYPE_CHECKING:
    from neuron_compat.check.compiled_view import CompiledRegistry
    from neuron_compat.check.fit import FitOptions
    from neuron_compat.check.registry_origin import RegistryOrigin
    from neuron_compat.check.resolver import Verdict


@dataclass(frozen=True)
class Question:
    """What is asked besides the model: `check`'s flags (each None when not given)."""

    neuron: str | None = None
    stack: str | None = None
    workload: str | None = None
    hardware: str | None = None
    task: str | None = None
    batch: int | None = None
    seq_len: int | None = None
    dtype: str | None = None
    instance: str | None = None
    degree: int | None = None
    optimizer: str | None = None

    @classmethod
    def from_options(cls, options: object) -> Question:
        """From an object with these attributes (argparse's Namespace); a missing one is None."""
        return cls(**{f.name: getattr(options, f.name, None) for f in fields(cls)})


OPTION_NAMES = tuple(f.name for f in fields(Question))


class AnswerError(Exception):
    """Why no answer can be given: the one-line message and the exit code `check` gives for it."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass
class Answer:
    """The answer to one question: the verdict, its document (the verdict with its exit code and fit), the tested
    configurations and the family's known issues."""

    verdict: Verdict
    document: dict[str, Any]
    tested: dict[str, Any]
    known_issues: list[dict[str, Any]]
    registry: CompiledRegistry
    environment: dict[str, Any] | None = None
    """With `check --environment` / `--stack-version`: what was read and what does not fit
    (check/environment_answer.py's `environment_document`)."""
    tracked: list[dict[str, Any]] = field(default_factory=list)  # maintainers' tracked notes (never a status)
    contradicted: list[dict[str, Any]] = field(default_factory=list)  # user reports against a statement (never a status)

    @property
    def exit_code(self) -> int:
        return EXIT_FOR_STATUS[self.verdict.status]

    def json_text(self, origin: RegistryOrigin) -> str:
        """`check --json`'s text: the answer document, the tested configurations, the known issues and where the
        registry came from."""
        environment = {"environment": self.environment} if self.environment is not None else {}
        return json.dumps({**self.document, "tested_configurations": self.tested, "known_issues": self.known_issues,
                           "contradicted_by": self.contradicted, **environment, "registry": asdict(origin)},
                          indent=1, allow_nan=False) + "\n"

    def text(self, source: str, origin: RegistryOrigin) -> str:
        """`check`'s terminal text (check/answer_text.py)."""
        from neuron_compat.check.answer_text import render_table
        from neuron_compat.check.contradicted_text import contradicted_lines
        from neuron_compat.check.explain import family_issue_lines, pin_lines
        from neuron_compat.check.fit_text import render_fit
        from neuron_compat.check.tested_text import render_tested
        from neuron_compat.check.tracked_text import tracked_lines

        verdict = self.verdict
        probe = self.registry.probe_for(verdict.model.model_type) if verdict.model.kind != "diffusers" else None
        text = render_table(verdict, source, origin.describe(), probe,
                            [*render_fit(self.document["fit"]), "", *render_tested(self.tested),
                             *family_issue_lines(self.known_issues), *tracked_lines(self.tracked),
                             *contradicted_lines(self.contradicted)],
                            pin_lines(self.known_issues))
        if self.environment is None:
            return text
        from neuron_compat.check.environment_text import environment_lines

        header, _, rest = text.partition("\n\n")  # the block goes after what was read, before what to install
        return "\n".join([header, "", *(one_line(line) for line in environment_lines(self.environment)), "", rest])


def ask(config: object, registry: CompiledRegistry, question: Question, checkpoint: str | None = None,
        source: str = "config") -> Answer:
    """The answer for a parsed config (config.json or model_index.json as a dict) and the question. Raises
    AnswerError (an unknown option value, a fit flag fit cannot use, a config the resolver cannot read; `source`
    names the config in a message that does not name it already)."""
    from neuron_compat.check.config_facts import ConfigError, facts_from_config
    from neuron_compat.check.resolver import ResolveError, resolve

    problem = option_problem(question)
    if problem is not None:
        raise AnswerError(*problem)
    fit = fit_options(question, registry.instances)
    if isinstance(fit, str):
        raise AnswerError(fit, EXIT_USAGE)
    try:
        facts = facts_from_config(config)
    except ConfigError as error:
        raise AnswerError(str(error) if ":" in str(error) else f"{source}: {error}", EXIT_PROBLEMS) from None
    try:
        verdict = resolve(facts, registry, release=question.neuron, stack=question.stack, workload=question.workload,
                          task=question.task, checkpoint=checkpoint, hardware=question.hardware)
    except ResolveError as error:
        raise AnswerError(str(error), EXIT_PROBLEMS) from None
    return answer_for_verdict(registry, verdict, config, fit, checkpoint, question.instance, question.stack,
                              hardware=question.hardware)


def answer_for_verdict(registry: CompiledRegistry, verdict: Verdict, config: object, fit: FitOptions,
                       checkpoint: str | None = None, instance: str | None = None, stack: str | None = None,
                       hardware: str | None = None) -> Answer:
    """The Answer around a verdict already resolved: its fit, tested configurations and known issues. The tested
    configurations and the fit's documented degrees are those of the checkpoint (by its Hub id, the name a local
    config gives itself, or any alias of either) or of its family at this size, for the workload and hardware
    asked (check/evidence_scope.py)."""
    from neuron_compat.check.contradicted_text import family_contradictions
    from neuron_compat.check.explain import family_issues
    from neuron_compat.check.tested_lookup import (
        all_configurations,
        checkpoint_names,
        named_checkpoint,
        tested_for,
    )
    from neuron_compat.check.tracked_text import family_tracked

    named = checkpoint or named_checkpoint(config)
    names = checkpoint_names(registry, named)
    document = answer_document(verdict, config, registry.instances, [s.id for s in registry.stacks], fit,
                               all_configurations(registry), names)
    family = verdict.family.id if verdict.family else None
    tested = tested_for(registry, named, family, instance=instance, stack=stack,
                        parameters=document["fit"].get("parameters"), workload=verdict.workload,
                        hardware=hardware, aliases=names)
    issues = family_issues(registry.known_issues, family) if family else []
    asked_hardware = tested.get("hardware") if isinstance(tested, dict) else hardware
    return Answer(verdict, document, tested, issues, registry, tracked=family_tracked(registry, family),
                  contradicted=family_contradictions(registry, family, verdict.workload, asked_hardware))


def _unknown_value(option: str, value: str, allowed: list[str]) -> str:
    """'unknown --workload 'infrence'; did you mean 'inference'? (allowed: inference, training)'."""
    import difflib

    close = difflib.get_close_matches(value, allowed, n=1, cutoff=0.6)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return f"unknown {option} '{value}'; {hint}(allowed: {', '.join(allowed)})"


def option_problem(question: Question) -> tuple[str, int] | None:
    """The one-line message (the allowed values, with a did-you-mean) and exit code 2 (usage) of a --workload,
    --hardware or --task the registry does not know, or None."""
    from neuron_compat.check.resolver import WORKLOADS
    from neuron_compat.contract.vocabulary import Task
    from neuron_compat.views.recommendation import HARDWARE_ORDER

    for option, value, allowed in (("--workload", question.workload, list(WORKLOADS)),
                                   ("--hardware", question.hardware, list(HARDWARE_ORDER)),
                                   ("--task", question.task, [t.value for t in Task])):
        if value is not None and value not in allowed:
            return (_unknown_value(option, value, allowed), EXIT_USAGE)
    return None


def fit_options(question: Question, instances: dict[str, Any] | None) -> FitOptions | str:
    """The fit flags as FitOptions, or the one-line message naming the valid values when one cannot be used."""
    from neuron_compat.check.fit import FitOptionError, FitOptions, check_options

    options = FitOptions(batch=question.batch, seq_len=question.seq_len, dtype=question.dtype,
                         instance=question.instance, stack=question.stack, workload=question.workload,
                         optimizer=question.optimizer, degree=question.degree, hardware=question.hardware)
    try:
        check_options(options, instances)
    except FitOptionError as error:
        return str(error)
    return options


def verdict_document(verdict: Verdict) -> dict[str, Any]:
    """The resolver's Verdict with the command's `exit_code` after `status`: `check --json` without `registry`."""
    from neuron_compat.check.resolver import insert_after

    return insert_after(verdict.to_dict(), "status", {"exit_code": EXIT_FOR_STATUS[verdict.status]})


def answer_document(verdict: Verdict, config: object, instances: dict[str, Any] | None, stacks: list[str],
                    fit: FitOptions, configurations: list[dict[str, Any]] | None = None,
                    checkpoint_names: list[str] | None = None) -> dict[str, Any]:
    """`check --json` without `registry`, tested configurations and known issues: the verdict document and its
    `fit`."""
    from neuron_compat.check.fit import fit_document

    document = verdict_document(verdict)
    fitted = fit_document(config, instances, fit, stacks, pipeline=verdict.model.kind == "diffusers",
                          verdict=document, configurations=configurations,
                          family=verdict.family.id if verdict.family else None,
                          checkpoint_names=checkpoint_names or ())
    return {**document, "fit": fitted}
