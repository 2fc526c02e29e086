"""A statement's `contradicted_by` reports sit on a supported statement and fit it: the report's hardware is one of
the statement's, its Neuron release (when it names one) is in releases.yaml and inside the statement's range, the
link is a GitHub issue or discussion thread, and it was reported, and read, on or before today (plus a day for time
zones), reported no later than read. A report never changes a status: this rule only keeps it honest."""

from __future__ import annotations

import re
from collections.abc import Iterator

from neuron_compat.contract.models import Statement
from neuron_compat.contract.versions import version_key
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.rules.base import RELEASES_KEY, FileKey, Finding, Rule, family_key, said_and_read_findings

_THREAD = re.compile(r"^https://github\.com/[^/]+/[^/]+/(?:issues|discussions)/[0-9]+(?:#[A-Za-z0-9_-]+)?$")


def check(registry: Registry) -> Iterator[Finding]:
    for family in registry.families:
        key = family_key(family.id)
        for s_index, statement in enumerate(family.support):
            for index, report in enumerate(statement.contradicted_by):
                where = ("support", s_index, "contradicted_by", index)
                if str(statement.status) != "supported":
                    yield Finding(key, where, f"a contradicting report belongs on a supported statement; this "
                                  f"one is {statement.status}", "move it to the supported statement it contradicts, "
                                  "or cite it as a source or note of this one")
                if report.hardware not in statement.hardware:
                    yield Finding(key, (*where, "hardware"), f"the report's hardware {report.hardware} is not one of "
                                  f"the statement's ({', '.join(str(h) for h in statement.hardware)})",
                                  "put it on the statement for that hardware")
                if not _THREAD.match(report.url):
                    yield Finding(key, (*where, "url"), "the report must link a public issue or discussion thread",
                                  "https://github.com/<org>/<repo>/issues/<number>")
                yield from _release_findings(registry, key, where, statement, report.release)
                yield from said_and_read_findings(key, where, report, "reported", "reported")


def _release_findings(registry: Registry, key: FileKey, where: tuple[str | int, ...], statement: Statement,
                      release: str | None) -> Iterator[Finding]:
    if release is None or RELEASES_KEY in registry.broken:
        return
    if release not in registry.release_by_version:
        yield Finding(key, (*where, "release"), f"release {release} is not in releases.yaml",
                      "name a listed release, or leave release out and keep the report's words in stack_version")
        return
    since, until = statement.since, statement.until
    if (since and version_key(release) < version_key(since)) or (until and version_key(release) >= version_key(until)):
        yield Finding(key, (*where, "release"), f"release {release} is outside the statement's range "
                      f"({since or '?'} to {until or 'today'})", "put it on the statement whose range holds it")


RULE = Rule(name="contradicted-by", check=check)
