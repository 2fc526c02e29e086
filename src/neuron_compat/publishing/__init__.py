"""The published forms of a validated registry (the JSON document of `export`, api/registry.json).

- `registry_document`: The published JSON form of a validated registry (same field names as the YAML).
"""
