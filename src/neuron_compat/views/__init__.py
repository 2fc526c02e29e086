"""Derived views of a loaded registry: what holds at a release, inherited capabilities, stale claims,
claim diffs, the probe reading and the optimum-neuron cross-check. No I/O beyond what loading gives them.

- `answer`: The one answer per workload x hardware (stack, release, version, status, why) every surface renders.
- `at_release`: Derived views of the registry: what holds at one release, and what changed between two.
- `claim_diff`: What changed in the published claims between two registries, in plain words.
- `inherited_capabilities`: Effective attention, dtypes and quantization of a statement: its own, or its stack's capability.
- `optimum_neuron_crosscheck`: Cross-check the registry's Optimum Neuron claims against what each optimum-neuron release registers.
- `probe_reading`: The one-line reading of a portability probe result (registry/upstream/probe.yaml), for the site and `check`.
- `stale_claims`: Which claims are old: statements whose newest source was last verified too long ago.
- `recommendation`: What to install: per hardware generation and workload, the best combination that works, with its pins.
- `performance_series`: Performance series: one configuration measured at several releases, derived from the tested configurations.
- `release_summary`: What a Neuron release changed, as its site page says it, for `neuron-compat release`.
"""
