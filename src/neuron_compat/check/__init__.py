"""Answering `neuron-compat check`: the one answer pipeline and its text, config facts, the compiled document's
views, the resolver, the fit, its exit codes, the check page's entry points and the Hub client.

- `answer_pipeline`: The one answer pipeline: a model's config, a question and the compiled registry in, the answer out (`ask`).
- `answer_text`: `check`'s answer as terminal text; it only renders an Answer.
- `fit_text`: The terminal form of `check`'s fit (check/fit.py): what was counted, the bytes, and a row per instance.
- `tested_text`: `check`'s tested-configurations lines: the runs that are evidence for the question, then the others with why.
- `registry_origin`: Where an answer's data came from (check's header and the JSON's `registry`).
- `contradicted_text`: `check`'s lines for the public user reports that contradict a supported statement of the family, for the workload (and hardware) asked; never a status.
- `tracked_text`: `check`'s lines for what a stack's maintainers said they track for the family (never a status).
- `explain_answer`: What `explain` answers for a pasted log (the CLI and the explain box call it).
- `page`: The site's check page, which runs this package's own Python in the browser (Pyodide): its entry points.
- `answer_page`: The check page's answer as a page: `check --json`'s document (and `explain --json`'s) turned into blocks the page draws: headings, tables, lists, code to copy.
- `compiled_view`: The compiled registry: the JSON document of `export --json` (api/registry.json) read into light views.
- `config_facts`: Read a model's config.json (or a diffusers model_index.json) into the few facts the registry can answer for.
- `fit`: The fit of `check`: parameters, weight and KV-cache bytes, tensor-parallel degrees per stack (the documented rules) and, per instance, whether weights + KV cache fit in device memory.
- `fit_rules`: The cited facts fit applies: tensor-parallel rules per stack and workload, training sharding, optimizer assumptions, reserves.
- `fit_schema`: The JSON Schema of `check --json`'s `fit` object.
- `exit_codes`: The exit codes of the commands: the one table of them.
- `hub_client`: Fetch a model's config.json (or diffusers model_index.json) from the Hugging Face Hub, fast or not at all.
- `resolver`: Answer for one checkpoint: its config's facts + the registry + a Neuron release -> a `Verdict`.
- `bundled_index`: An index into the bundled snapshot, so `check` reads only what one answer needs of it.
- `document_rules`: The cross-file rules that apply to a compiled registry document from elsewhere (a file, a URL, the cache).
- `explain`: Matching a pasted log against the known issues, ranked: an error code, then a distinctive phrase, then the words of a phrase; a generic phrase alone never matches; no regex of data.
- `log_lines`: The part of a pasted log that `explain` reads: its error lines, the last ones first (standard library only).
- `tested_lookup`: The tested configurations `check` names: those that are evidence for the question asked, and apart the family's others with why each is not.
- `evidence_scope`: Which tested configurations are evidence for the question asked (workload, hardware, instance, this checkpoint or this size), and why the others are not.
- `checkpoint_aliases`: One checkpoint under several Hub names: every name of a checkpoint and the one it goes by now.
- `environment_answer`: `check --environment` / `--stack-version`: the question asked for a pasted environment, the model's mismatches in it, and its JSON.
- `environment_text`: The 'Your environment' block of `check --environment`'s terminal text.
"""
