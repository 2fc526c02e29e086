"""The instances page: each hardware generation's per-chip numbers and every instance size built from them,
with unknowns shown as unknown and derived numbers marked. Its JSON is api/instances.json."""

from __future__ import annotations

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.publishing.registry_document import dumps
from neuron_compat.site.pages.common import block, front_matter, heading, page

INSTANCES_PAGE = "instances.md"
INSTANCES_JSON = "api/instances.json"


def render(registry: Registry) -> dict[str, str]:
    data = registry.instances
    parts = [front_matter(title="Instances"), heading(1, "Instances")]
    parts.append(block("instances.html.j2", data=data, json_path="../" + INSTANCES_JSON))
    files = {INSTANCES_PAGE: page(*parts)}
    files[INSTANCES_JSON] = dumps({
        "format": 1,
        "data_version": registry.meta.data_version if registry.meta else None,
        "instances": data.model_dump(mode="json") if data else None,
    })
    return files
