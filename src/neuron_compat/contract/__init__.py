"""The data contract: the vocabularies, version and id rules, the pydantic models of the registry files and
their JSON Schemas. Everything else depends on it; it depends only on `safeio`.

- `checkpoint_aliases`: The contract of checkpoint aliases: an old Hub name and the name the same checkpoint has now, with the source that records the rename.
- `catalogue_rules`: The editor schema's if/then entries that need the registry's catalogue.
- `hub_ids`: What a Hugging Face Hub repo id and revision may be: the one rule `check`, the hub client and the schema share.
- `json_schema`: JSON Schemas of the registry files, generated from the pydantic models (for editors and consumers).
- `models`: The data contract: pydantic models of the registry files.
- `schema_rules`: The rules the editors' JSON Schemas add to the models' own, written once for the validators and the schema.
- `statement_requirements`: What a support statement must say for its status (rules and editor schema).
- `versions`: Neuron SDK version strings: parsing and ordering.
- `vocabulary`: The closed vocabularies of the registry, each defined once with a description per value.
- `known_issues`: The contract of known issues: errors people hit on Neuron, where they occur, where they were fixed, the workaround and the source. registry/known-issues.yaml holds them; `neuron-compat explain` matches error text against them and family pages show the ones that concern the family.
- `release_ranges`: Half-open Neuron release ranges [since, until): the one definition of their bounds and of overlap.
- `tested_configurations`: The contract of tested configurations: a checkpoint run on one instance with one stack, release and parallelism, what came of it and what was measured, with the source that says so.
"""
