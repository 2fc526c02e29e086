"""`check`'s answer as terminal text: what was read, what to install, one row per statement with its caveats, the
fit, the tested configurations, the known issues and the result line. The CLI prints it; the check page shows
the same lines. It only renders an `Answer` (check/answer_pipeline.py); it decides nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from neuron_compat.check.exit_codes import EXIT_FOR_STATUS
from neuron_compat.safeio.safe_text import one_line
from neuron_compat.views.inherited_capabilities import origin_label

if TYPE_CHECKING:
    from neuron_compat.check.resolver import StackAnswer, Verdict


def _clean(text: object) -> str:
    """Terminal-safe text: config and registry strings never get to move the cursor or recolour the screen."""
    return one_line(str(text))


def _facts_line(verdict: Verdict) -> str:
    model = verdict.model
    if model.kind == "diffusers":
        parts = [f"pipeline {model.pipeline_class}"]
    else:
        parts = [f"model_type {model.model_type or '(none)'}"]
        parts += model.architectures[:2]
        if model.text_model_type:
            parts.append(f"text_config {model.text_model_type}")
        if model.dtype_raw:
            parts.append(f"dtype {model.dtype or model.dtype_raw}")
        if model.attn_implementation:
            parts.append(f"attention {model.attn_implementation}")
        if model.max_position_embeddings:
            parts.append(f"context {model.max_position_embeddings}")
        if model.sliding_window:
            parts.append(f"sliding window {model.sliding_window}")
        if model.rope_scaling:
            parts.append(f"rope {model.rope_scaling.type}")
        if model.quantization:
            parts.append(f"quantization {model.quantization.method}")
        if model.moe:
            parts.append(f"MoE {model.moe.experts} experts")
        if model.remote_code:
            parts.append("remote code")
    return " | ".join(parts)


def _values_line(answer: StackAnswer) -> str:
    """'attention: sdpa (from the stack); dtypes: bf16, fp16 (stated for this family)' for a row."""
    parts = []
    for name in ("attention", "dtypes", "quantization"):
        values, origin = getattr(answer, name), getattr(answer, f"{name}_origin")
        if values:
            parts.append(f"{name}: {', '.join(values)} ({origin_label(origin)})")
    return "; ".join(parts)


def recommendation_lines(verdict: Verdict) -> list[str]:
    """'Answer (inference):' then one line per hardware (hardware with the same line share it), and the
    alternatives under it: the answers (views.answer), scoped to --workload / --hardware, before the table."""
    from neuron_compat.views.recommendation import choice_text

    lines: list[str] = []
    for workload in dict.fromkeys(r.workload for r in verdict.recommendations):
        lines.append(f"What to install ({workload}, best first; the answer is the first line; ranking in `neuron-compat check --help`):")
        grouped: dict[tuple[str, str], list[str]] = {}
        for item in verdict.recommendations:
            if item.workload == workload:
                also = ", ".join(choice_text(choice) for choice in item.alternatives)
                grouped.setdefault((item.line, also), []).append(item.hardware)
        for (line, also), hardware in grouped.items():
            lines.append(f"  {', '.join(hardware)}: {line}")
            if also:
                lines.append(f"    else: {also}")
        lines.append("")
    return lines


def render_table(verdict: Verdict, source: str, registry: str, probe: dict[str, Any] | None = None,
                 fit_lines: list[str] | None = None, advice: list[str] | None = None) -> str:
    """The terminal form: what was read, the family, one row per statement, caveats under their row, the fit
    section (fit_text.render_fit), the result line and the portability probe's one line for the model type
    (machine evidence, not a verdict)."""
    lines = [f"{source}", f"  {_facts_line(verdict)}", f"  registry: {registry}"]
    if verdict.family:
        family = verdict.family
        lines.append(f"  family: {family.name} [{family.id}] (matched by {family.matched_by} {family.value})")
    lines.append(f"  Neuron release: {verdict.release}")
    if verdict.family and verdict.task:
        said = "--task" if verdict.task_from == "option" else "the config's class names"
        lines.append(f"  task: {_clean(verdict.task)} (from {said})")
    for caveat in verdict.caveats:
        lines.append(f"  ! {caveat.message}")
    lines.append("")
    lines += recommendation_lines(verdict)
    if advice:  # a release the release notes recommend for this family (known issues' pin_release)
        lines += [*advice, ""]
    if verdict.answers:
        header = ("STACK", "WORKLOAD", "HARDWARE", "VERDICT", "SINCE", "UNTIL")
        rows = [(a.stack, a.workload, ",".join(a.hardware) or "-", a.display_status,
                 (a.carried.get("since") or "-") + ("*" if a.since_is_floor else ""), a.carried.get("until") or "-")
                for a in verdict.answers]
        widths = [max(len(_clean(row[i])) for row in [header, *rows]) for i in range(len(header))]
        lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
        for answer, row in zip(verdict.answers, rows, strict=True):
            lines.append("  ".join(_clean(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
            values = _values_line(answer)
            if values:
                lines.append(f"    {values}")
            for caveat in answer.caveats:
                lines.append(f"    ! {caveat.message}")
        if any(a.since_is_floor for a in verdict.answers):
            lines.append(f"* tracked since {verdict.first_release} (the first release this registry records): it "
                         "may have run on earlier releases")
        lines.append("")
    if verdict.no_statement:
        lines.append(f"No statement for: {', '.join(verdict.no_statement)}")
    if fit_lines:
        lines.extend([*fit_lines, ""])
    if verdict.other_workload_summary:
        lines.append(f"Training (its own line; not the exit code): {verdict.other_workload_summary}")
    lines.append(f"Result: {verdict.summary} (exit {EXIT_FOR_STATUS[verdict.status]})")
    if probe is not None:
        lines.extend(_probe_lines(verdict, probe))
    return "\n".join(_clean(line) for line in lines) + "\n"


def _probe_lines(verdict: Verdict, probe: dict[str, Any]) -> list[str]:
    """The portability probe, one line per captured workload, each under the stack workload it stands beside
    (only the workloads of the rows shown, when there are rows)."""
    from neuron_compat.views.probe_reading import CAVEAT, STACK_WORKLOAD, workload_line, workloads_for

    shown = {str(a.workload) for a in verdict.answers} or {"inference", "training"}
    picked = [(name, w) for name, w in workloads_for(probe) if STACK_WORKLOAD[name] in shown]
    if not picked:
        return []
    lines = [f"Probe ({verdict.model.model_type}; {CAVEAT}):"]
    lines.extend(f"  {STACK_WORKLOAD[name]} · {workload_line(name, w)}" for name, w in picked)
    return lines
