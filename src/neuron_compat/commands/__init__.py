"""One module per `neuron-compat` subcommand. Each has `register(subparsers)` that adds its parser
and sets `handler` to a function `(args) -> exit code`.

- `add_configuration`: `neuron-compat add-evidence configuration ...`: record a tested configuration (a checkpoint run on one instance with one stack at one release, its outcome and what was measured) in a file of its own, registry/configurations/reported/<id>.yaml.
- `add_evidence`: `neuron-compat add-evidence FAMILY ...`: record a verified result without hand-editing YAML.
- `changelog`: `neuron-compat changelog --from REV --to REV`: the data changelog between two git revisions.
- `check`: `neuron-compat check MODEL`: does this checkpoint run on Neuron, per stack, at a Neuron release?
- `common`: Arguments and exit codes shared by the subcommands.
- `diff`: `neuron-compat diff BASE [HEAD]`: the change in published claims between two registry directories.
- `explain`: `neuron-compat explain "<error text>"`: which known issues (registry/known-issues.yaml) match an error.
- `export`: `neuron-compat export --json`: the whole validated registry as JSON.
- `new`: `neuron-compat new FAMILY`: scaffold registry/families/FAMILY.yaml that already passes validation.
- `release`: `neuron-compat release VERSION [--from VERSION] [--json]`: what a Neuron release changed, as its site page says.
- `schema`: `neuron-compat schema`: the JSON Schemas of the registry files, for editors (with the registry's catalogue).
- `site`: `neuron-compat site --out DIR`: write the complete documentation tree that mkdocs or Zensical builds.
- `stale`: `neuron-compat stale`: list claims whose newest source was verified too long ago.
- `validate`: `neuron-compat validate`: check the registry and print every problem.
"""
