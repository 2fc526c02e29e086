"""neuron-compat: which model architectures run on AWS Neuron, per stack and Neuron SDK release.

The package is layered; a module imports only from its own layer or the layers before it
(`tests/core/test_core_layering.py` reads every import and fails on an upward import or a cycle):

1. `safeio`: bounded reads, atomic writes, deadlines, scratch directories, one-line safe text.
2. `contract`: vocabularies, versions, ids, the pydantic models, their JSON Schemas.
   `sizing`: parameters, weight and KV-cache bytes, tensor-parallel degrees from a config (standard library only).
3. `loading`: the YAML reader, locations, problems, the loader, the loaded registry and its indexes.
4. `views`: derived views (what holds at a release, inherited capabilities, staleness, claim diffs).
   `environment`: a pasted environment (pip freeze, pip list, neuron-ls, an image URI) read against a registry.
5. `rules`: the cross-file rules, and `rules.validation` (load + schema + rules).
6. `check`: config facts, the compiled document's views, the resolver, its tables and exit codes, the Hub client.
7. `publishing`: the JSON document of a validated registry.
8. `registry_sources`: which registry `check` reads, and fetching a published one.
9. `contributing`: writing the registry (add-evidence, new, the lock, YAML patches).
10. `audit`: the offline source-link audit.
11. `site`: the website generator, its templates and theme.
12. `commands`, then `cli`: the command line.
"""

__version__ = "0.1.0"

# The layer order above, lowest first: the one place it is written (the layering test reads it).
LAYERS = (
    "safeio", "contract", "sizing", "loading", "views", "environment", "rules", "check", "publishing", "document",
    "registry_sources", "contributing", "audit", "site", "commands", "cli",
)
