"""Tools that write the registry for contributors: the add-evidence engine, minimal YAML patches and
round-trip style, the new-family scaffold, the registry lock, the shadow registry, upstream snapshots.

- `edit_transaction`: One registry edit as one transaction, shared by both paths of `add-evidence` (a statement, a configuration).
- `evidence_edit`: Turn "I ran family X on stack S, Neuron release R, hardware H" into the right edit of X's file.
- `new_family`: The text of a new family file, from what a contributor knows: an id, model types, a config.json.
- `release_order`: The one mechanical fix `validate --fix` makes: releases.yaml's releases put oldest first (rule catalogue-order).
- `registry_lock`: One writer at a time per registry: an exclusive advisory lock on the registry directory itself.
- `roundtrip_style`: Rendering registry YAML the way the files write it (ruamel.yaml round-trip types).
- `shadow_registry`: Validate a registry as it would be after some edits, before anything is written.
- `upstream_snapshot`: Writing the snapshots under registry/upstream/: shared by the scripts that regenerate them.
- `yaml_patch`: Minimal-diff edits of a YAML file's text: the lines that change are the lines that must.
- `configuration_edit`: Turn "I ran checkpoint C on instance I with stack S at Neuron release R, and measured M" into a tested configuration, and into the text of its own file, registry/configurations/<source>/<id>.yaml.
- `file_snapshot`: The one copy of a registry file that an edit is made from, and the check that it is still what is on disk.
"""
