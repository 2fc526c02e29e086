"""The data contract: the vocabularies, version and id rules, the pydantic models of the registry files and
their JSON Schemas. Everything else depends on it; it depends only on `safeio`.

- `catalogue_rules`: The editor schema's if/then entries that need the registry's catalogue.
- `hub_ids`: What a Hugging Face Hub repo id and revision may be: the one rule `check`, the hub client and the schema share.
- `json_schema`: JSON Schemas of the registry files, generated from the pydantic models (for editors and consumers).
- `models`: The data contract: pydantic models of the registry files.
- `schema_rules`: The rules the editors' JSON Schemas add to the models' own, written once for the validators and the schema.
- `statement_requirements`: What a support statement must say for its status (rules and editor schema).
- `versions`: Neuron SDK version strings: parsing and ordering.
- `vocabulary`: The closed vocabularies of the registry, each defined once with a description per value.
"""
