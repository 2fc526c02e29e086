"""The site's check page, which runs this package's own Python in the browser (Pyodide): its entry points.

`check_answer` answers a pasted config.json with check/answer_pipeline.py's `ask`, the function `neuron-compat
check` calls, and returns the same two outputs: the text `check --json` prints and the lines the terminal prints,
with that document as the blocks the page draws (check/answer_page.py).
`explain_answer` is `explain --json` on a pasted error text. `PageSession` is what the page's worker holds: the
compiled document the site publishes (its configurations and known issues included, so a fresh page answers as
the CLI does), opened once. Standard library only: `site/check_archive.py` ships the import closure of this
module; site/assets/javascripts/check-worker.js imports it and calls `PageSession` and its two methods.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from neuron_compat.check.answer_pipeline import Question
    from neuron_compat.check.compiled_view import CompiledRegistry

SOURCE = "pasted text"
"""What the page calls a pasted config: its errors read `pasted text: ...` where the CLI's name the file."""

EXIT_MEANINGS = {0: "supported", 3: "partial (or supported with a limiting caveat for this config)",
                 4: "unsupported or unknown", 1: "bad input", 2: "a usage error (an option value check cannot use)"}
"""What each exit code of `check` means (its --help and the check page's table say the same)."""

INT_OPTIONS = {"batch": ("--batch", {"signed": True}), "seq_len": ("--seq-len", {"signed": True}),
               "degree": ("--degree", {"signed": True})}
"""The page's whole-number controls: their flag and the bounds `check`'s parser reads them with."""


def _failure(message: str, code: int) -> dict[str, Any]:
    from neuron_compat.safeio.safe_text import one_line

    return {"exit_code": code, "meaning": EXIT_MEANINGS[code], "error": one_line(message), "json": None, "lines": []}


def _question(options: dict[str, Any]) -> Question | tuple[str, int]:
    """The page's choices as `check`'s question; a number that is not an integer is refused as argparse refuses it
    (exit 2)."""
    from neuron_compat.check.answer_pipeline import OPTION_NAMES, Question
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
    return Question(**values)


def check_answer(config_text: str | bytes, registry: CompiledRegistry, options: dict[str, Any], location: str,
                 checkpoint: str | None = None) -> dict[str, Any]:
    """{exit_code, error, json, lines}: `check --json`'s text and the table's lines for a pasted config, or the
    one-line error `check` gives (with `pasted text` where it names a file) and its exit code. An `environment`
    option (pasted `pip list`, `pip freeze`, `neuron-ls` output or an image URI) answers as `check --environment`."""
    from neuron_compat.check.answer_pipeline import AnswerError, ask
    from neuron_compat.check.config_facts import ConfigError, parse_config_text
    from neuron_compat.check.exit_codes import EXIT_PROBLEMS
    from neuron_compat.check.registry_origin import RegistryOrigin

    if checkpoint is not None:
        from neuron_compat.contract.hub_ids import is_valid_repo_id

        if not is_valid_repo_id(checkpoint):
            return _failure(f"'{checkpoint}' is neither a local file or folder nor a valid Hub repo id "
                            "(namespace/name with letters, digits, '.', '_' or '-')", EXIT_PROBLEMS)
    question = _question(options)
    if isinstance(question, tuple):
        return _failure(*question)
    try:
        data = parse_config_text(config_text, SOURCE)
    except ConfigError as error:
        return _failure(str(error) if ":" in str(error) else f"{SOURCE}: {error}", EXIT_PROBLEMS)
    environment = options.get("environment")
    try:
        if isinstance(environment, str) and environment.strip():  # pasted `pip list`, `neuron-ls`, an image URI
            from neuron_compat.check.environment_answer import ask_in_environment

            answer = ask_in_environment(data, registry, question, environment, checkpoint, source=SOURCE)
        else:
            answer = ask(data, registry, question, checkpoint, source=SOURCE)
    except AnswerError as error:
        return _failure(error.message, error.code)
    origin = RegistryOrigin(chosen_by="the check page", kind="url", location=location,
                            data_version=registry.data_version)
    from neuron_compat.check.answer_page import answer_blocks, headline

    text = answer.text(checkpoint or SOURCE, origin)
    code = answer.exit_code
    document = answer.json_text(origin)
    verdict = json.loads(document)
    return {"exit_code": code, "meaning": EXIT_MEANINGS[code], "error": None, "json": document,
            "lines": text.rstrip("\n").split("\n"), "headline": headline(verdict), "blocks": answer_blocks(verdict)}


def explain_answer(error_text: str | bytes, registry: CompiledRegistry, location: str, stack: str | None = None
                   ) -> dict[str, Any]:
    """{exit_code, json, lines}: what `explain --json` and `explain` print for a pasted error text. Bytes (what the
    page sends) are read as the command reads a log file: UTF-8, any other byte replaced, then refused when empty
    or binary (NUL bytes) with the command's words."""
    from neuron_compat.check.exit_codes import EXIT_PROBLEMS
    from neuron_compat.check.explain_answer import EXIT_NONE_MATCHED, explain_output, is_binary
    from neuron_compat.check.registry_origin import RegistryOrigin

    if isinstance(error_text, bytes):
        error_text = error_text.decode("utf-8", errors="replace")
    if not error_text.strip():
        return _failure("the error text is empty", EXIT_PROBLEMS)
    if is_binary(error_text):  # what `explain` refuses, refused here too
        return _failure("the input is binary (NUL bytes or mostly not UTF-8), not a log", EXIT_PROBLEMS)
    origin = RegistryOrigin(chosen_by="the check page", kind="url", location=location,
                            data_version=registry.data_version)
    from neuron_compat.check.answer_page import explain_blocks

    code, document, lines = explain_output(error_text, registry, origin.describe(), stack=stack or None)
    return {"exit_code": code, "meaning": "none matched" if code == EXIT_NONE_MATCHED else "matched", "error": None,
            "json": json.dumps(document, indent=1, allow_nan=False) + "\n", "lines": lines,
            "blocks": explain_blocks(document)}


_MODEL_TYPE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")


class PageSession:
    """The check page's registry, opened once per worker: the published document with its configurations and
    known issues (api/check/*.json), and the probe read per model type through `fetch_text` (a synchronous fetch
    of a path under the site's api/ folder; None or "" when there is none)."""

    def __init__(self, registry_text: str, configurations_text: str, known_issues_text: str, api_url: str,
                 fetch_text: Callable[[str], str | None]) -> None:
        from neuron_compat.check.compiled_view import CompiledRegistry

        document = json.loads(registry_text)
        document["configurations"] = json.loads(configurations_text)
        document["known_issues"] = json.loads(known_issues_text)
        api, fetch = api_url, fetch_text

        class _PageRegistry(CompiledRegistry):
            def probe_for(self, model_type: str | None) -> dict[str, Any] | None:
                if not model_type or not _MODEL_TYPE.fullmatch(model_type):
                    return None
                text = fetch(api + "probe/" + model_type + ".json")
                found = json.loads(text) if text else None
                return found if isinstance(found, dict) else None

        self.registry = _PageRegistry(document)
        self.location = api_url + "registry.json"

    def check(self, config: Any, options_json: str, checkpoint: str) -> str:
        """check_answer as JSON text (what the worker posts back). `config` is the pasted text as the bytes it would
        be saved as (a Uint8Array from the page; a BOM, a lone surrogate and a NUL byte then read as in a file)."""
        return json.dumps(check_answer(_bytes(config), self.registry, json.loads(options_json), self.location,
                                       checkpoint or None))

    def explain(self, error: Any, stack: str) -> str:
        """explain_answer as JSON text (`error`: the pasted text's bytes, as for `check`)."""
        return json.dumps(explain_answer(_bytes(error), self.registry, self.location, stack or None))


def _bytes(value: Any) -> str | bytes:
    """What the worker passed: a Uint8Array arrives as a JsProxy with to_bytes(); text and bytes pass as they are."""
    to_bytes = getattr(value, "to_bytes", None)
    if callable(to_bytes):
        return bytes(to_bytes())
    return value if isinstance(value, (str, bytes)) else str(value)
