"""What `explain` answers for a pasted log, once for every surface: `neuron-compat explain` and the check page's
explain box both call `explain_output` (the matching itself is check/explain.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from neuron_compat.safeio.safe_text import one_line

EXIT_NONE_MATCHED = 4


@dataclass(frozen=True)
class LogText:
    """The log read: its text (the last MAX_TEXT characters at most) and how many bytes before them were not read."""

    text: str
    skipped: int = 0


def cut_log(text: str, skipped: int) -> LogText:
    """The log as read: its last MAX_TEXT characters, and how many bytes before them were not read."""
    from neuron_compat.check.explain import MAX_TEXT

    if len(text) <= MAX_TEXT:
        return LogText(text, skipped)
    return LogText(text[-MAX_TEXT:], skipped + len(text[:-MAX_TEXT].encode("utf-8", errors="replace")))


def _refusal_answers(text: str, registry: object) -> list[dict[str, Any]]:
    """Each refusal of a stack, with the registry's support answer for the model it names (one resolve call)."""
    from neuron_compat.check.config_facts import facts_from_config
    from neuron_compat.check.explain import refusals
    from neuron_compat.check.resolver import ResolveError, resolve

    answers: list[dict[str, Any]] = []
    for refusal in refusals(text):
        config: dict[str, Any] = {"architectures": refusal.architectures} if refusal.architectures else {}
        if refusal.model_type:
            config["model_type"] = refusal.model_type
        entry = refusal.to_dict()
        try:
            verdict = resolve(facts_from_config(config), registry, stack=refusal.stack)  # type: ignore[arg-type]
        except (ResolveError, ValueError) as error:
            entry.update(family=None, status="unknown", summary=str(error))
        else:
            entry.update(family=verdict.family.id if verdict.family else None, status=verdict.status,
                         summary=verdict.summary)
        answers.append(entry)
    return answers


def _stack_line(issue: dict[str, Any]) -> str:
    stacks = []
    for affected in issue.get("stacks") or []:
        where = str(affected.get("stack", "?"))
        if affected.get("since"):
            where += f" from {affected['since']}"
        if affected.get("fixed_in"):
            where += f", fixed in {affected['fixed_in']}"
        stacks.append(where)
    line = f"  stacks: {'; '.join(stacks) or 'none of the registry (component ' + str(issue.get('component')) + ')'}"
    return line + (f" | hardware: {', '.join(issue['hardware'])}" if issue.get("hardware") else "")


def _known_line(issue: dict[str, Any]) -> str:
    from neuron_compat.check.explain import listing_words

    listed = issue.get("listed_in") or {}
    fixed = issue.get("fixed_in") or {}
    facts = [f"{issue.get('kind') or 'curated'}" + (f" ({issue['component']})" if issue.get("component") else "")]
    if listed:
        facts.append(f"listed in the notes of {listed.get('first')} to {listed.get('last')}")
    if listing_words(issue):
        facts.append(str(listing_words(issue)))
    if fixed and not fixed.get("derived"):
        facts.append(f"fixed in {fixed.get('release')}")
    return f"  known: {'; '.join(facts)}"


def _text_lines(match: Any, index: int) -> list[str]:
    from neuron_compat.check.explain import site_url

    issue = match.issue
    labels = []
    if match.stack_match is False:
        labels.append("other stack")
    if match.hardware_match is False:
        labels.append("other hardware")
    label = f" [{', '.join(labels)}]" if labels else ""
    lines = [f"{index}. {issue.get('id')}: {issue.get('title')}{label}",
             f"  why: {'; '.join(match.why)} ({TIER_WORDS.get(match.tier, match.tier)}, score {match.score:.1f})"]
    lines += [f"  log line {e.line}: {e.text}" for e in match.evidence[:3]]
    lines += [_stack_line(issue), _known_line(issue)]
    if match.release:
        lines.append(f"  release {match.release['release']}: {match.release['says']}")
    if issue.get("families"):
        lines.append(f"  families: {', '.join(issue['families'])}")
    if issue.get("pin_release"):
        lines.append(f"  the source recommends release {issue['pin_release']}")
    lines.append(f"  what: {issue.get('description')}")
    if issue.get("workaround"):
        lines.append(f"  workaround: {issue['workaround']}")
    lines.append(f"  site: {site_url(str(issue.get('id')))}")
    for source in issue.get("sources") or []:
        lines.append(f"  source: {source.get('url')}")
    return lines


TIER_WORDS = {"code": "an error code", "phrase": "a distinctive phrase", "words": "the words of a phrase"}


def explain_output(text: str, registry: Any, origin: str, *, stack: str | None = None,
                   hardware: str | None = None, release: str | None = None,
                   limit: int | None = None, skipped: int = 0) -> tuple[int, dict[str, Any], list[str]]:
    """What `explain` answers for an error text, once for every surface (this command, the site's explain box):
    (exit code, the `--json` document, the lines the text output prints). `origin` describes the registry; `skipped`:
    how many bytes of the log before `text` were not read (its cap). A longer `text` is cut to its last MAX_TEXT
    characters."""
    from neuron_compat.check.explain import MAX_TEXT, match_issues, recipe_fixes

    log = cut_log(text, skipped)
    text, skipped = log.text, log.skipped
    matches = match_issues(text, registry.known_issues, stack=stack, hardware=hardware, release=release)
    refused = _refusal_answers(text, registry)
    fixes = recipe_fixes(text, list(getattr(registry, "configuration_files", None) or []))
    code = 0 if matches or refused or fixes else EXIT_NONE_MATCHED
    browse_only = sum(1 for issue in registry.known_issues if isinstance(issue, dict) and not issue.get("match"))
    document = {"format": "neuron-compat-explain/1", "matched": len(matches), "truncated": skipped > 0,
                "skipped_bytes": skipped, "read_limit": MAX_TEXT,
                "stack": stack, "hardware": hardware, "release": release,
                "refusals": refused, "recipe_flags": fixes, "issues": [m.to_dict() for m in matches],
                "known_issues": len(registry.known_issues), "browse_only": browse_only, "registry": origin}
    lines: list[str] = []
    if skipped:
        lines.append(f"(the log is longer than the {MAX_TEXT // (1024 * 1024)} MB read: its first {skipped} bytes "
                     "were not read; its end was)")
    for refusal in refused:
        named = ", ".join(refusal["architectures"]) or str(refusal["model_type"])
        lines.append(f"{refusal['stack']} refused {named}: {refusal['summary']}")
    for fix in fixes:  # a documented flag the source says avoids an error code the log names
        where = f" on {fix['instance']}" if fix.get("instance") else ""
        lines.append(f"{fix['code']}: the flag {fix['flag']} avoided it for {fix['checkpoint']}{where} "
                     f"({fix['stack']}, documented){': ' + fix['why'] if fix.get('why') else ''} {fix['source']}")
    if code == EXIT_NONE_MATCHED:
        lines.append(f"No known issue matched ({len(registry.known_issues)} known issues in {origin}; "
                     f"{browse_only} of them quote no error text and are listed on the site only).")
        lines.append("If it is a Neuron error worth knowing, add it to registry/known-issues/curated.yaml (CONTRIBUTING.md).")
        return code, document, [one_line(line) for line in lines]
    shown = matches if limit is None else matches[:limit]
    for index, match in enumerate(shown, start=1):
        lines.extend(_text_lines(match, index))
        lines.append("")
    if len(matches) > len(shown):
        lines.append(f"... {len(matches) - len(shown)} more (--limit, or --json for all)")
    while lines and not lines[-1]:
        lines.pop()
    return code, document, [one_line(line) for line in lines]


SAMPLE = 200_000
"""How much of the log's start and end the binary test looks at."""


def is_binary(text: str) -> bool:
    """NUL bytes, or mostly text that was not UTF-8, at the log's start or end: not a log."""
    for part in (text[:SAMPLE], text[-SAMPLE:]):
        if "\x00" in part or part.count("\ufffd") * 10 > len(part):
            return True
    return False
