"""The compiled registry document: its one home.

The registry's YAML, once it validates, compiles into one JSON document (api/registry.json on the site, the
wheel's data/registry.json, a clone's build/registry-snapshot/) with a byte-span index beside it. `check` and the
check page answer from that document and never load YAML or pydantic.

- `compile`: registry directory -> document text and index text, or the validation problems.
- `content_key`: what a compiled document depends on, read as the loader reads the registry (bounded, no special
  files, no links out of the registry), with a stat stamp that spares re-reading unchanged files.
- `cache`: compile once per content: written atomically, verified on every read (a corrupt, foreign or stale
  entry is compiled afresh, never trusted), never cached when the registry changed while it compiled.
"""
