"""What a support statement must say for its status: read by the rules (statement-completeness,
stack-version-line) and by the editor schema's if/then entries (contract/catalogue_rules.py, models.py)."""

from __future__ import annotations

from neuron_compat.contract.vocabulary import Status

STATUSES_NEEDING_SINCE = (Status.SUPPORTED, Status.PARTIAL)
"""A claim that something runs names the first release where it does."""
STATUSES_NEEDING_NOTES = (Status.PARTIAL, Status.UNSUPPORTED)
"""A limit or a refusal says why in a note."""
STATUSES_NEEDING_STACK_SINCE = (Status.SUPPORTED, Status.PARTIAL)
"""For a stack with its own version line, a claim that something runs names its first version of that line."""
