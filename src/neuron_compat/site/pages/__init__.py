"""One module per page type; each `render(registry)` returns {docs path: content}.

- `api`: Machine-readable output: the registry, one JSON per family, the JSON Schemas and badge endpoints.
- `checkpoints`: A page per checkpoint (checkpoints/<org>/<name>/): the one answer for it, its tested configurations and measurements.
- `common`: Helpers shared by the page modules: Markdown headings, HTML blocks, page assembly.
- `configurations`: The tested-configurations page: every configuration, filterable by family, instance, stack, release and dtype and sortable by each column (client-side, from api/configurations.json, as the matrix page does).
- `contributing`: The schema reference of the contributing page, generated from the pydantic models.
- `coverage`: Coverage: for each stack x workload, the share of a reference list it covers, and what is missing.
- `families`: Family pages (one per family, stable anchors per stack x workload), the families index, and redirect pages for renamed family ids.
- `home`: The home page's generated part: what the site answers in numbers, a search box and the check box.
- `instances`: The instances page: each hardware generation's per-chip numbers and every instance size built from them, with unknowns shown as unknown and derived numbers marked. Its JSON is api/instances.json.
- `known_issues`: The known-issues page: every entry of registry/known-issues/ with a permalink (`#issue-<id>`), its codes, fixes and sources.
- `matrix`: The matrix: every family x stack x workload at a chosen release, filterable in the page.
- `release_feed`: Atom feeds of the data's changes by Neuron release: the release pages' feed (one entry per release, newest first, listing what changed at it: the same folded changes as its page, `releases.fold`) and one feed per family (an entry per release that changed one of its lines).
- `releases`: One page per Neuron release (what changed in the data since the previous release) and the index.
- `stacks`: The stacks page: each software stack with its lifecycle, hardware, version line and family counts.
"""
