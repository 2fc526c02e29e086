"""Turn "I ran checkpoint C on instance I with stack S at Neuron release R, and measured M" into a tested
configuration, and into the text of its own file, registry/configurations/<source>/<id>.yaml.

Pieces, each used by `neuron-compat add-evidence configuration` (commands/add_configuration.py):
- `parse_measurement`: one `--measure METRIC[:NAME]=[~]VALUE UNIT[@PHASE]` into a measurement (metric, unit and
  phase of the contract's closed vocabularies, the unit one the metric allows);
- `configuration_problem`: the contract's own check of the whole configuration (TestedConfiguration), as one line
  naming the field;
- `run_id`: an id (and file name) from the checkpoint, the instance, the date and a hash of the run itself: two
  contributors recording different runs get different files, the same run the same file with the same text;
- `configuration_map` / `run_file_text`: the configuration as round-trip YAML in schema order, in a file of its own.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from neuron_compat.contract.tested_configurations import (
    METRIC_UNITS,
    Measurement,
    Metric,
    Phase,
    TestedConfiguration,
    Unit,
)
from neuron_compat.contributing import roundtrip_style
from neuron_compat.safeio.option_values import OptionValueError, exact_float

MEASURE_FORMAT = "METRIC[:NAME]=[~]VALUE UNIT[@PHASE]"
MEASURE_EXAMPLE = "throughput=41.5tokens/s@token-generation"
RELEASE_NOT_STATED = "not-stated"
"""`--release not-stated`: the source states no Neuron release (the configuration's `release: null`); its
measurements are then dated by `validated`, the date the source gives."""
REPORTED_SOURCE = "reported"
RUN_DESCRIPTION = ("One run, recorded with `neuron-compat add-evidence configuration`; its source link says where "
                   "it was reported.")
RUN_SCHEMA_LINE = "# yaml-language-server: $schema=../../schemas/configurations.schema.json\n"
"""The modeline of a run file, configurations/<source>/<id>.yaml (two folders below registry/)."""
CONFIGURATION_FIELDS = tuple(TestedConfiguration.model_fields)
_VERSION_FIELDS = {"release", "stack_version"}
_NULLABLE_REQUIRED = {name for name, info in TestedConfiguration.model_fields.items() if info.is_required()}
_FLOW_FIELDS = {"parallelism"}  # short mappings on one line: `parallelism: {tensor: 8}`
_NUMBER = re.compile(r"^(?P<approximate>~)?(?P<value>[0-9][0-9._]*(?:[eE][-+]?[0-9]+)?)\s*(?P<unit>.*)$")
"""The value is every digit, point, '_' and exponent the text starts with (none of them is left for the unit to
begin with), then checked against _PLAIN_NUMBER."""
_PLAIN_NUMBER = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,9})?")
_ID_PIECE = re.compile(r"[^a-z0-9]+")
_ID_LENGTH = 64  # a slug's most characters


class ConfigurationInputError(ValueError):
    """The input cannot be a tested configuration; str() is one line naming the option and what to give."""


def _did_you_mean(value: str, known: Iterable[str]) -> str:
    known = list(known)
    close = difflib.get_close_matches(value, known, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'? known: {', '.join(known)}" if close else f"known: {', '.join(known)}"


def parse_measurement(text: str) -> dict[str, Any]:
    """`throughput=41.5tokens/s@token-generation`, `accuracy:GSM8K=78.2percent`, `ttft=~120ms` as a measurement."""
    where = f"--measure {text}"
    left, equals, right = text.partition("=")
    if not equals or not left.strip():
        raise ConfigurationInputError(f"{where}: write {MEASURE_FORMAT}, e.g. {MEASURE_EXAMPLE}")
    metric, _, name = (part.strip() for part in left.partition(":"))
    metrics = [m.value for m in Metric]
    if metric not in metrics:
        raise ConfigurationInputError(f"{where}: '{metric}' is not a metric ({_did_you_mean(metric, metrics)})")
    number, at, phase = right.rpartition("@") if "@" in right else (right, "", "")
    phases = [p.value for p in Phase]
    if at and phase.strip() not in phases:
        raise ConfigurationInputError(f"{where}: '{phase}' is not a phase ({_did_you_mean(phase.strip(), phases)})")
    match = _NUMBER.match(number.strip())
    if match is None:
        raise ConfigurationInputError(f"{where}: the value must be a number (up to 9 decimals), optionally "
                                      f"with ~ before it, followed by its unit, e.g. {MEASURE_EXAMPLE}")
    _check_plain_number(match["value"], where)
    allowed = METRIC_UNITS[metric]
    unit = match["unit"].strip()
    unit = Unit.PERCENT.value if unit == "%" else unit
    if not unit:
        raise ConfigurationInputError(f"{where}: no unit; {metric} takes {', '.join(allowed)} "
                                      f"(e.g. {metric}={match['value']}{allowed[0]})")
    if unit not in allowed:
        fits = "is not a unit" if unit not in {u.value for u in Unit} else f"does not fit {metric}"
        close = difflib.get_close_matches(unit, allowed, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'? " if close else ""
        raise ConfigurationInputError(f"{where}: '{unit}' {fits} ({hint}{metric} takes {', '.join(allowed)})")
    try:
        exact_float(match["value"])  # a value a stored double would round is refused, not stored rounded
    except OptionValueError as error:
        raise ConfigurationInputError(f"{where}: {error}") from None
    value: int | float = float(match["value"]) if "." in match["value"] else int(match["value"])
    measurement = {"metric": metric, "name": name or None, "value": value, "unit": unit,
                   "phase": phase.strip() if at else None, "approximate": bool(match["approximate"])}
    try:
        Measurement.model_validate(measurement)
    except ValidationError as error:
        raise ConfigurationInputError(f"{where}: {_first_message(error)}") from None
    return measurement


def _check_plain_number(text: str, where: str) -> None:
    """Refuse a value written otherwise than plain digits with at most 15 before and 9 after one point, saying
    what to change (a digit past the limit is never read as the first letter of the unit)."""
    if _PLAIN_NUMBER.fullmatch(text):
        return
    whole = text.partition(".")[0]
    if "e" in text.lower():
        reason = "has an exponent: write it out (0.00005, not 5e-5)"
    elif not re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", text):
        reason = "is not plain digits with at most one point between them (no '_', no point at the end)"
    elif len(whole) > 15:
        reason = "has more than 15 digits before the point; give it in a larger unit"
    else:
        reason = "has more than 9 decimals; round it as the source does"
    raise ConfigurationInputError(f"{where}: the value {text} {reason}")


def configuration_problem(data: dict[str, Any], options: dict[str, str]) -> str | None:
    """The contract's first objection to `data` as one line naming its option (`options`: field -> option),
    or None when it is a valid tested configuration."""
    try:
        TestedConfiguration.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"] if not isinstance(part, int))
        message = _first_message(error)
        if not field and "source.url" in message:  # the whole-model check of a pinned URL
            field = "source.url"
        option = options.get(field) or options.get(field.split(".")[0]) or field or "the configuration"
        return f"{option}: {message}"
    return None


def _first_message(error: ValidationError) -> str:
    return str(error.errors()[0]["msg"]).removeprefix("Value error, ")


def run_id(data: dict[str, Any]) -> str:
    """`llama-3-1-8b-instruct-trn1-32xlarge-2026-11-02-1a2b3c4d`: the checkpoint's name, the instance, the date
    validated and the first 8 hex digits of a SHA-256 of everything the run says (its id aside), at most 64
    characters. Different runs get different ids (and files); the same run recorded on two branches gets the same
    id and the same text, which git merges as one file."""
    name = str(data["checkpoint"]).rsplit("/", 1)[-1]
    digest = hashlib.sha256(json.dumps({k: v for k, v in data.items() if k != "id"}, sort_keys=True,
                                       default=str, ensure_ascii=True).encode()).hexdigest()[:8]
    tail = f"-{data['validated'].isoformat()}-{digest}"
    base = _ID_PIECE.sub("-", f"{name}-{data.get('instance') or 'no-instance'}".lower()).strip("-")
    return (base[:_ID_LENGTH - len(tail)].strip("-") or "run") + tail


def configuration_map(data: dict[str, Any]) -> CommentedMap:
    """The configuration as round-trip YAML in schema order: versions quoted, the parallelism on one line, each
    measurement a one-line mapping; empty optional fields left out, required ones that are null written `null`."""
    result = CommentedMap()
    for name in CONFIGURATION_FIELDS:
        value = _to_yaml(name, data.get(name))
        if value is not None or name in _NULLABLE_REQUIRED:  # `release: null` says the source does not say
            result[name] = roundtrip_style.as_text(value)
    return result


def _measurements(measurements: list[dict[str, Any]]) -> CommentedSeq:
    seq = CommentedSeq()
    for measurement in measurements:
        item = roundtrip_style.mapping({key: value for key, value in measurement.items()
                                  if value is not None and not (key == "approximate" and value is False)})
        item.fa.set_flow_style()
        seq.append(item)
    return seq


def _to_yaml(name: str, value: Any) -> Any:
    if value is None or value == [] or value == {}:
        return None
    if name in _VERSION_FIELDS:
        return roundtrip_style.quoted(value)
    if name == "measurements":
        return _measurements(value)
    if isinstance(value, dict):
        mapping = roundtrip_style.mapping({key: item for key, item in value.items() if item is not None})
        if name in _FLOW_FIELDS:
            mapping.fa.set_flow_style()
        return mapping or None
    if isinstance(value, list):
        seq = CommentedSeq(roundtrip_style.as_text(item) for item in value)
        return seq
    return value


def run_file_text(source: str, item: CommentedMap) -> str:
    """A run file holding `item`: the editor-schema line, `source`, the description, the one configuration."""
    document = roundtrip_style.mapping({"source": source, "description": RUN_DESCRIPTION,
                                        "configurations": CommentedSeq([item])})
    return RUN_SCHEMA_LINE + roundtrip_style.dump(roundtrip_style.make_yaml(), document)
