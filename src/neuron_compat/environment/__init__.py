"""Your environment in: what users paste (pip freeze, pip list, neuron-ls, a container image URI) read into the
installed Neuron packages, the release they come from, the stacks, the instance, and what does not fit together.

- `packages`: The Python packages of the Neuron SDK and of the stacks on it, by their normalised pip name.
- `pip_text`: `pip freeze` and `pip list` lines (both its column and its freeze formats; conda's list reads the same way).
- `neuron_ls`: What `neuron-ls` prints: its JSON (before and from Neuron 2.34) and its table.
- `container_image`: A Neuron Deep Learning Container image URI, read from its tag.
- `paste`: A pasted environment, read: each line or JSON block by the reader that knows it, the rest not recognised.
- `stack_version`: `--stack-version optimum-neuron==0.3.0`: the Neuron release a stack's own version pairs with.
- `detection`: A read paste against a registry: release(s), stacks and their versions, instance and LNC, mismatches.
"""
