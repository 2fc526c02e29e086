"""The tested-configurations page: every configuration, filterable by family, instance, stack, release and
dtype and sortable by each column (client-side, from api/configurations.json, as the matrix page does)."""

from __future__ import annotations

import json
from typing import Any

from neuron_compat.contract.versions import version_key
from neuron_compat.contract.vocabulary import Dtype
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.site import urls
from neuron_compat.site.pages.common import block, front_matter, heading, page
from neuron_compat.site.tested_data import configuration_rows, metric_columns

CONFIGURATIONS_JSON = "api/configurations.json"
PAGE_URL = "configurations/"


def configurations_data(registry: Registry) -> dict[str, Any]:
    """api/configurations.json: the rows, the measured columns and where each file came from."""
    return {
        "format": 1,
        "data_version": registry.meta.data_version if registry.meta else None,
        "metrics": metric_columns(),
        "files": [{"source": f.source, "description": f.description,
                   "harvest": f.harvest.model_dump(mode="json") if f.harvest else None,
                   "not_recorded": len(f.not_recorded)} for f in registry.configuration_files],
        "configurations": configuration_rows(registry),
    }


def render(registry: Registry) -> dict[str, str]:
    rows = configuration_rows(registry)
    data = configurations_data(registry)
    context = {
        "site_root": urls.relative_url("", PAGE_URL),
        "data_url": "../" + CONFIGURATIONS_JSON,
        "families": sorted({(r["family"], r["family_name"]) for r in rows}),
        "instances": sorted({r["instance"] for r in rows if r["instance"]}),
        "stacks": sorted({r["stack"] for r in rows}),
        "releases": sorted({r["release"] for r in rows if r["release"]}, key=version_key, reverse=True),
        "dtypes": [d.value for d in Dtype if any(r["dtype"] == d.value for r in rows)],
        "metrics": data["metrics"],
        "total": len(rows),
        "measured": sum(1 for r in rows if r["measured"]),
        "files": registry.configuration_files,
    }
    markdown = page(
        front_matter(title="Tested configurations", hide=["navigation", "toc"], search={"exclude": True}),
        heading(1, "Tested configurations"),
        block("configurations.html.j2", **context),
    )
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
    return {"configurations.md": markdown, CONFIGURATIONS_JSON: text}
