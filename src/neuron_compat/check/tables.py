"""The constant tables of `neuron-compat check`, as the compiled document's `check_tables` section.

The site's check page (site/assets/javascripts/check_*.js) reads them from api/registry.json, so the browser port
holds only logic: one fact in one place (model_config.py, resolve.py, views.py, commands/exit_codes.py).
"""

from __future__ import annotations

from typing import Any

from neuron_compat.check import config_facts as model_config
from neuron_compat.check import resolver as resolve
from neuron_compat.check.exit_codes import EXIT_FOR_STATUS
from neuron_compat.contract import hub_ids
from neuron_compat.views.at_release import REQUIREMENT_KINDS
from neuron_compat.views.inherited_capabilities import ORIGIN_LABELS


def check_tables() -> dict[str, Any]:
    """The `check_tables` section (schema.CheckTables), from the Python constants themselves."""
    return {
        "verdict_format": resolve.FORMAT,
        "max_config_bytes": model_config.MAX_CONFIG_BYTES,
        "max_text": model_config._MAX_TEXT,
        "dtype_names": dict(model_config._DTYPE_NAMES),
        "quant_methods": dict(model_config._QUANT_METHODS),
        "context_keys": list(model_config._CONTEXT_KEYS),
        "expert_keys": list(model_config._EXPERT_KEYS),
        "experts_per_token_keys": list(model_config._EXPERTS_PER_TOKEN_KEYS),
        "shared_expert_keys": list(model_config._SHARED_EXPERT_KEYS),
        "config_files": list(model_config.CONFIG_FILES),
        "workloads": list(resolve.WORKLOADS),
        "status_rank": dict(resolve.STATUS_RANK),
        "exit_for_status": dict(EXIT_FOR_STATUS),
        "requirement_kinds": sorted(kind.value for kind in REQUIREMENT_KINDS),
        "nearest_limit": resolve.NEAREST_LIMIT,
        "not_carried": sorted(resolve.NOT_CARRIED),
        "carried_after": resolve.CARRIED_AFTER,
        "origin_labels": dict(ORIGIN_LABELS),
        "repo_id_pattern": hub_ids.REPO_ID_PATTERN,
    }
