"""The entry points of the site's check page, which runs this package's own Python in the browser (Pyodide).

`check_answer` answers a pasted config.json with the functions `neuron-compat check` runs (commands/check.py):
the same option checks, config reading, resolver, fit and tested configurations, and the same two outputs, the
text `check --json` prints and the lines the terminal table prints. `explain_answer` is `explain --json` on a
pasted error text. Standard library only: `site/check_archive.py` ships the import closure of these functions.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from neuron_compat.check.compiled_view import CompiledRegistry

SOURCE = "pasted text"
"""What the page calls a pasted config: its errors read `pasted text: ...` where the CLI's name the file."""

EXIT_MEANINGS = {0: "supported", 3: "partial (or supported with a limiting caveat for this config)",
                 4: "unsupported or unknown", 1: "bad input", 2: "a usage error (an option value check cannot use)"}
"""What each exit code of `check` means (its --help and the check page's table say the same)."""

OPTION_NAMES = ("neuron", "stack", "workload", "hardware", "task", "batch", "seq_len", "dtype", "instance", "degree",
                "optimizer")
INT_OPTIONS = {"batch": ("--batch", {"signed": True}), "seq_len": ("--seq-len", {"signed": True}),
               "degree": ("--degree", {"signed": True})}
"""The page's whole-number controls: their flag and the bounds `check`'s parser reads them with."""


def _failure(message: str, code: int) -> dict[str, Any]:
    from neuron_compat.safeio.safe_text import one_line

    return {"exit_code": code, "meaning": EXIT_MEANINGS[code], "error": one_line(message), "json": None, "lines": []}


def _arguments(options: dict[str, Any]) -> argparse.Namespace | tuple[str, int]:
    """The page's choices as `check`'s parsed arguments; a number that is not an integer is refused as argparse
    refuses it (exit 2)."""
    from neuron_compat.check.exit_codes import EXIT_USAGE
    from neuron_compat.safeio.option_values import OptionValueError, whole_number

    values: dict[str, Any] = {}
    for name in OPTION_NAMES:
        value = options.get(name)
        if value is None or value == "":
            values[name] = None
        elif name in INT_OPTIONS:
            flag, bounds = INT_OPTIONS[name]
            try:
                values[name] = whole_number(str(value), **bounds)
            except OptionValueError as error:
                return (f"argument {flag}: {error}", EXIT_USAGE)
        else:
            values[name] = str(value)
    return argparse.Namespace(**values, json=True, revision=None, json_schema=False, offline=False)


def check_answer(config_text: str, registry: CompiledRegistry, options: dict[str, Any], location: str,
                 checkpoint: str | None = None) -> dict[str, Any]:
    """{exit_code, error, json, lines}: `check --json`'s text and the table's lines for a pasted config, or the
    one-line error `check` gives (with `pasted text` where it names a file) and its exit code."""
    from neuron_compat.check.config_facts import ConfigError, facts_from_config, parse_config_text
    from neuron_compat.check.exit_codes import EXIT_FOR_STATUS, EXIT_PROBLEMS, EXIT_USAGE
    from neuron_compat.check.resolver import ResolveError, resolve
    from neuron_compat.commands.check import _fit_options, _option_problem, _output, answer_with_tested
    from neuron_compat.registry_sources.selection import RegistryOrigin

    if checkpoint is not None:
        from neuron_compat.contract.hub_ids import is_valid_repo_id

        if not is_valid_repo_id(checkpoint):
            return _failure(f"'{checkpoint}' is neither a local file or folder nor a valid Hub repo id "
                            "(namespace/name with letters, digits, '.', '_' or '-')", EXIT_PROBLEMS)
    args = _arguments(options)
    if isinstance(args, tuple):
        return _failure(*args)
    problem = _option_problem(args)
    if problem is not None:
        return _failure(*problem)
    fit_options = _fit_options(args, registry.instances)
    if isinstance(fit_options, str):
        return _failure(fit_options, EXIT_USAGE)
    try:
        data = parse_config_text(config_text, SOURCE)
        facts = facts_from_config(data)
    except ConfigError as error:
        return _failure(str(error) if ":" in str(error) else f"{SOURCE}: {error}", EXIT_PROBLEMS)
    try:
        verdict = resolve(facts, registry, release=args.neuron, stack=args.stack, workload=args.workload,
                          task=args.task, checkpoint=checkpoint, hardware=args.hardware)
    except ResolveError as error:
        return _failure(str(error), EXIT_PROBLEMS)
    document, tested = answer_with_tested(registry, verdict, data, fit_options, checkpoint, args.instance, args.stack)
    origin = RegistryOrigin(chosen_by="the check page", kind="url", location=location,
                            data_version=registry.data_version)
    source = checkpoint or SOURCE
    text = _output(False, document, verdict, source, registry, origin, tested)
    code = EXIT_FOR_STATUS[verdict.status]
    return {"exit_code": code, "meaning": EXIT_MEANINGS[code], "error": None,
            "json": _output(True, document, verdict, source, registry, origin, tested),
            "lines": text.rstrip("\n").split("\n")}


def explain_answer(error_text: str, registry: CompiledRegistry, location: str, stack: str | None = None
                   ) -> dict[str, Any]:
    """{exit_code, json, lines}: what `explain --json` and `explain` print for a pasted error text."""
    from neuron_compat.check.exit_codes import EXIT_PROBLEMS
    from neuron_compat.commands.explain import EXIT_NONE_MATCHED, explain_output
    from neuron_compat.registry_sources.selection import RegistryOrigin

    if not error_text.strip():
        return _failure("the error text is empty", EXIT_PROBLEMS)
    origin = RegistryOrigin(chosen_by="the check page", kind="url", location=location,
                            data_version=registry.data_version)
    code, document, lines = explain_output(error_text, registry, origin.describe(), stack=stack or None)
    return {"exit_code": code, "meaning": "none matched" if code == EXIT_NONE_MATCHED else "matched", "error": None,
            "json": json.dumps(document, indent=1, allow_nan=False) + "\n", "lines": lines}
