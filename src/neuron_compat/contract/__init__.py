"""The data contract: the vocabularies, version and id rules, the pydantic models of the registry files and
their JSON Schemas. Everything else depends on it; it depends only on `safeio`.

- `hub_ids`: What a Hugging Face Hub repo id and revision may be: the one rule `check`, the hub client and the schema share.
- `json_schema`: JSON Schemas of the registry files, generated from the pydantic models (for editors and consumers).
- `models`: The data contract: pydantic models of the registry files.
- `versions`: Neuron SDK version strings: parsing and ordering.
- `vocabulary`: The closed vocabularies of the registry, each defined once with a description per value.
"""
