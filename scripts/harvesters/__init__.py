"""The parsers behind scripts/harvest_*.py: each reads one public source's files at a revision into tested
configurations (registry/configurations/<source>.yaml). Not part of the installed package: only the scripts beside
this folder (and their tests) import them.

- `harvest_script`: What every harvest script shares: the bounded git reader, the command line, writing or checking.
- `neuron_performance_pages`: The Neuron docs' performance pages and the CSV tables they include.
- `nxdi_contrib_readme`: The NxD Inference contrib model READMEs.
- `optimum_neuron_benchmarks`: Optimum Neuron's vLLM benchmark results and benchmark pages.
- `vllm_neuron_recipes`: The vLLM Neuron model recipes of the Neuron docs.
"""
