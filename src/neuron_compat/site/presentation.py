"""How statuses and vocabulary values are shown: labels, CSS classes, badge colours, sort order.

One table per concern so the family pages, the matrix, the badges and the JavaScript filters agree.
"""

from __future__ import annotations

from dataclasses import dataclass

from neuron_compat.contract.vocabulary import (
    Attention,
    ConstraintKind,
    Dtype,
    Hardware,
    Quantization,
    SourceKind,
    StackStatus,
    Status,
    Workload,
)

NO_STATEMENT = "none"
"""The drawn status of a family x stack x workload that has no statement at a release."""


@dataclass(frozen=True)
class StatusStyle:
    label: str
    css: str
    badge_color: str
    description: str


STATUS_STYLES: dict[str, StatusStyle] = {
    "supported": StatusStyle("Supported", "supported", "brightgreen", Status.descriptions()["supported"]),
    "supported-with-requirements": StatusStyle(
        "Supported, with settings", "requirements", "green",
        "Supported, but a flag, environment variable or setting must be set (see the constraints).",
    ),
    "partial": StatusStyle("Partial", "partial", "yellow", Status.descriptions()["partial"]),
    "unsupported": StatusStyle("Unsupported", "unsupported", "red", Status.descriptions()["unsupported"]),
    "not-listed": StatusStyle("Not listed", "not-listed", "orange", Status.descriptions()["not-listed"]),
    "unknown": StatusStyle("Unknown", "unknown", "lightgrey", Status.descriptions()["unknown"]),
    NO_STATEMENT: StatusStyle("No statement", "none", "inactive", "The registry has no statement for this release yet."),
}

STATUS_ORDER = list(STATUS_STYLES)

ENDED = "ended"
NOT_YET = "not-yet"
CELL_STYLES: dict[str, StatusStyle] = {
    NOT_YET: StatusStyle("Not yet", "none", "inactive", "No statement holds yet; the first one starts at a later release."),
    ENDED: StatusStyle("Ended", "ended", "inactive",
                       "Statements held at earlier releases and ended (their range, or the stack's end) at or before this one."),
}
"""How the matrix draws a family x stack x workload where nothing holds but statements exist at other releases
(views.cell_at's not-yet and ended); 'No statement' (NO_STATEMENT) is the third case."""

STACK_STATUS_RANK = {
    StackStatus.ACTIVE.value: 0,
    StackStatus.BETA.value: 1,
    StackStatus.MAINTENANCE.value: 2,
    StackStatus.DEPRECATED.value: 3,
    StackStatus.END_OF_SUPPORT.value: 4,
}

VOCABULARIES = {
    "status": Status,
    "workload": Workload,
    "hardware": Hardware,
    "dtype": Dtype,
    "attention": Attention,
    "quantization": Quantization,
    "constraint": ConstraintKind,
    "source": SourceKind,
    "stack_status": StackStatus,
}


def status_style(status: str) -> StatusStyle:
    return STATUS_STYLES[status] if status in STATUS_STYLES else CELL_STYLES[status]


def describe(vocabulary: str, value: str) -> str:
    """The one-line description of a vocabulary value (used as a tooltip)."""
    return VOCABULARIES[vocabulary].descriptions().get(value, "")


def humanize(value: str) -> str:
    """'vendor-docs' -> 'Vendor docs', for labels of vocabulary values."""
    text = value.replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:]
