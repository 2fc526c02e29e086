"""The Neuron Runtime's status codes (`neuron-runtime/api/nrt_status.rst`, the `NRT_STATUS` enumeration of
`nrt_status.h`): one entry per code, matched on the code as a token (`NRT_EXEC_NC_BUSY`), with its number and the
page's one-line meaning. `NRT_SUCCESS` is not an error and is not recorded; the codes for a class of failures
(`NRT_FAILURE`, `NRT_TIMEOUT`, ...) are recorded, and `explain` lets them add to a match made otherwise, never make one."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from harvesters.harvest_script import HarvestError

from known_issue_harvesters.common import (
    ALL_NEURONX_STACKS,
    Harvested,
    docs_url,
    file_url,
    page_at,
    rst_inline,
)

PAGE = "neuron-runtime/api/nrt_status.rst"
_VALUE = re.compile(r"^\s*(NRT_[A-Z0-9_]+)\s*=\s*(\d+),?\s*$", re.M)
_MEANING = re.compile(r"^\*\s+``(NRT_[A-Z0-9_]+)``\s+-\s+(.+)$", re.M)


def codes(text: str) -> list[tuple[str, int, str, int]]:
    """(code, number, meaning, line) per status code the page both enumerates and explains, in the page's order."""
    numbers = {m.group(1): int(m.group(2)) for m in _VALUE.finditer(text)}
    found: list[tuple[str, int, str, int]] = []
    for match in _MEANING.finditer(text):
        code = match.group(1)
        if code in numbers and code != "NRT_SUCCESS":
            found.append((code, numbers[code], match.group(2).strip(), text[: match.start()].count("\n") + 1))
    return found


def harvest(mirror: Path, revision: str, result: Harvested, verified: dt.date, available: set[str]) -> None:
    if PAGE not in available:
        result.not_recorded.append({"path": PAGE, "reason": f"not in the docs at {revision}"})
        return
    try:
        text = page_at(mirror, revision, PAGE)
    except HarvestError as error:
        result.not_recorded.append({"path": PAGE, "reason": str(error)})
        return
    found = codes(text)
    if not found:
        result.not_recorded.append({"path": PAGE, "reason": "no status code both enumerated and explained"})
    for code, number, meaning, line in found:
        result.add(_entry(code, number, rst_inline(meaning), line, revision, verified), f"{PAGE}:{line}")


def _entry(code: str, number: int, meaning: str, line: int, revision: str, verified: dt.date) -> dict[str, Any]:
    sentence = meaning.rstrip(".")
    return {
        "id": "nrt-status-" + code.lower().removeprefix("nrt_").replace("_", "-"),
        "title": f"{code} ({number}): {sentence}",
        "kind": "error-code",
        "component": "runtime",
        "match": {"codes": [code]},
        "stacks": [{"stack": stack} for stack in ALL_NEURONX_STACKS],
        "description": f"The Neuron Runtime returned status `{code}` ({number}): {sentence}.",
        "sources": [{"url": docs_url(revision, PAGE, "nrt-status"), "title": f"nrt_status.h: NRT_STATUS ({revision} docs)",
                     "kind": "vendor-docs", "verified": verified},
                    {"url": file_url(revision, PAGE, line), "title": f"{PAGE} at {revision}", "kind": "vendor-docs",
                     "verified": verified}],
    }
