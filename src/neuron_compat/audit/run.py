"""Audit every cited URL under a registry root and report one line per problem plus a count per outcome."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from neuron_compat.audit.cited_urls import CitedUrl, cited_urls, registry_files
from neuron_compat.audit.url_verdict import BROKEN, OK, UNVERIFIABLE, Evidence, Outcome, check_url
from neuron_compat.safeio.safe_text import one_line


@dataclass
class AuditReport:
    results: list[tuple[CitedUrl, Outcome]] = field(default_factory=list)
    load_problems: list[str] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        return Counter(outcome.status for _, outcome in self.results)

    @property
    def broken(self) -> bool:
        return any(outcome.status == BROKEN for _, outcome in self.results)

    def lines(self, show_ok: bool = False, show_first_line: bool = False) -> list[str]:
        shown = list(self.load_problems)
        for cited, outcome in self.results:
            if outcome.status == OK and not show_ok:
                continue
            message = outcome.message or OK
            if show_first_line and outcome.first_line:
                message += f" [first line: {outcome.first_line[:100]}]"
            shown.append(one_line(f"{cited.file}:{cited.line}: {cited.url}: {message}"))
        return shown

    def summary(self) -> str:
        counts = self.counts()
        return ", ".join(f"{counts.get(status, 0)} {status}" for status in (OK, BROKEN, UNVERIFIABLE))


def audit(root: Path, evidence: Evidence, only: str | None = None) -> AuditReport:
    urls, problems = cited_urls(registry_files(root, only))
    report = AuditReport(load_problems=[problem.format() for problem in problems])
    decided: dict[str, Outcome] = {}
    for cited in urls:
        if cited.url not in decided:
            decided[cited.url] = check_url(cited.url, evidence)
        report.results.append((cited, decided[cited.url]))
    return report
