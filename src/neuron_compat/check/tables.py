"""The constant tables of `neuron-compat check`, as the compiled document's `check_tables` section.

The site's check page (site/assets/javascripts/check_*.js) reads them from api/registry.json, so the browser port
holds only logic: one fact in one place (model_config.py, resolve.py, views.py, commands/exit_codes.py).
"""

from __future__ import annotations

from typing import Any

from neuron_compat.check import config_facts as model_config
from neuron_compat.check import resolver as resolve
from neuron_compat.check.exit_codes import EXIT_FOR_STATUS
from neuron_compat.check.fit import fit_tables
from neuron_compat.contract import hub_ids
from neuron_compat.contract.vocabulary import CLAIM_STATUSES, TASK_BY_ARCHITECTURE_SUFFIX
from neuron_compat.views import recommendation
from neuron_compat.views.at_release import REQUIREMENT_KINDS, WITH_REQUIREMENTS
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
        "task_by_architecture_suffix": [list(pair) for pair in TASK_BY_ARCHITECTURE_SUFFIX],
        "claim_statuses": sorted(CLAIM_STATUSES),
        "with_requirements": dict(WITH_REQUIREMENTS),
        "recommended_statuses": dict(recommendation.RECOMMENDED_STATUSES),
        "lifecycle_rank": dict(recommendation.LIFECYCLE_RANK),
        "hardware_order": list(recommendation.HARDWARE_ORDER),
        "alternatives": recommendation.ALTERNATIVES,
        "sources_in_line": recommendation.SOURCES_IN_LINE,
        "all_components": recommendation.ALL_COMPONENTS,
        **sizing_tables(),
        **fit_tables(),
    }


def sizing_tables() -> dict[str, Any]:
    """The constants of neuron_compat.sizing that check_fit.js reads (its port holds only the logic)."""
    from dataclasses import asdict

    from neuron_compat.sizing import bytes as sizing_bytes
    from neuron_compat.sizing import classic, decoder, fields, kv_cache, models, shapes

    return {
        "sizing_families": {name: asdict(family) for name, family in decoder.FAMILIES.items()},
        "sizing_generic_family": asdict(models.GENERIC_FAMILY),
        "sizing_gated_activations": sorted(decoder.GATED_ACTIVATIONS),
        "sizing_encoders": sorted(models.ENCODERS),
        "sizing_attention_free": sorted(models.ATTENTION_FREE),
        "sizing_encoder_only": sorted(kv_cache.ENCODER_ONLY),
        "sizing_expert_fields": list(models.EXPERT_FIELDS),
        "sizing_generic_needs": [list(names) for names in models.GENERIC_NEEDS],
        "sizing_multimodal_defaults": {name: list(pair) for name, pair in models.MULTIMODAL_DEFAULTS.items()},
        "sizing_max_nesting": models.MAX_NESTING,
        "sizing_hidden_keys": list(shapes.HIDDEN),
        "sizing_layer_keys": list(shapes.LAYERS),
        "sizing_head_keys": list(shapes.HEADS),
        "sizing_falcon_head_keys": list(classic.FALCON_HEADS),
        "sizing_expert_count_key": dict(decoder.EXPERT_COUNT_KEY),
        "sizing_absurd": fields.ABSURD,
        "sizing_max_exact": fields.MAX_EXACT,
        "sizing_dtype_bytes": {name: [width.numerator, width.denominator]
                               for name, width in sizing_bytes.DTYPE_BYTES.items()},
        "sizing_dtype_aliases": dict(sizing_bytes.ALIASES),
    }
