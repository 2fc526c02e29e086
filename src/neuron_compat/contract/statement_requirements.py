"""What a support statement must say for its status: read by the rules (statement-completeness,
stack-version-line) and by the editor schema's if/then entries (contract/catalogue_rules.py, models.py)."""

from __future__ import annotations

from neuron_compat.contract.vocabulary import Status

STATUSES_NEEDING_SINCE = (Status.SUPPORTED, Status.PARTIAL)
"""A claim that something runs names the first release where it does."""
STATUSES_NEEDING_NOTES = (Status.PARTIAL, Status.UNSUPPORTED, Status.NOT_LISTED)
"""A limit or a refusal says why in a note."""
STATUSES_NEEDING_STACK_SINCE = (Status.SUPPORTED, Status.PARTIAL)
"""For a stack with its own version line, a claim that something runs names its first version of that line."""

EXHAUSTIVE_LISTS: dict[str, tuple[tuple[str, str], ...]] = {
    "optimum-neuron": (
        ("https://github.com/huggingface/optimum-neuron/blob/",
         "optimum-neuron's registrations at a tag (its auto_model.py refuses an unregistered model type for a task; "
         "registry/upstream has the snapshot per version)"),
    ),
    "vllm-neuron": (
        ("https://awsdocs-neuron.readthedocs-hosted.com/en/v2.33.0/vllm-neuron/docs/model-recipes/",
         "the vLLM Neuron model recipes, 'the full list of supported models'"),
        ("https://github.com/aws-neuron/aws-neuron-sdk/blob/v2.3", "the vLLM Neuron model recipes at a Neuron docs tag"),
    ),
}
"""Per stack, the lists it keeps of everything it supports at a version (a URL prefix and what it is): a model
absent from one is `not-listed`, and such a statement cites one of its stack's lists (rule statement-completeness).
A list counts as exhaustive when the stack itself refuses what it leaves out (a registration lookup that raises) or
its documentation calls it the full list; a page of examples or a benchmark table is not one."""

NOT_EXHAUSTIVE: dict[str, tuple[str, str]] = {
    "nxd-inference": (
        "the NxD Inference model reference calls itself 'Production Ready Models' and sends other models to the "
        "custom model onboarding guide, so a model it leaves out may still run",
        "https://github.com/aws-neuron/aws-neuron-sdk/blob/v2.32.0/libraries/nxd-inference/developer_guides/"
        "model-reference.rst#L3-L15"),
}
"""Per stack, a model list that was read and is not exhaustive by the rule above (why, and where it says so):
a model it leaves out is `unknown`, never `not-listed`; the rule's hint says so."""
