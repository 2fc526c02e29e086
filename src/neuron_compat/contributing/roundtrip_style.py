"""Rendering registry YAML the way the files write it (ruamel.yaml round-trip types).

New pieces of a family file (a statement, a source, a key) are rendered here: versions in double
quotes, short lists on one line, key order as given, and block lists indented as the file indents
them. yaml_patch.py splices the pieces into the file. The loader (loading/yaml_reader.py) stays the fast,
safe PyYAML path; this module is only for writing.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

import yaml as pyyaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.representer import RoundTripRepresenter
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, ScalarString

_BLOCK_SEQUENCE_ITEM = re.compile(r"^(?P<parent>[ ]*)[A-Za-z_][\w-]*:[ ]*(?:#.*)?\n(?P<dash>[ ]*)- ", re.MULTILINE)


def sequence_offset(text: str) -> int:
    """How far a block list's dash sits right of its key: 2 for `key:\\n  - x` (our files), 0 for `key:\\n- x`."""
    match = _BLOCK_SEQUENCE_ITEM.search(text)
    if match is None:
        return 2
    return max(0, len(match.group("dash")) - len(match.group("parent")))


class _Representer(RoundTripRepresenter):
    """ruamel.yaml's round-trip representer, writing a null value as `null` (ruamel writes nothing: `key:`)."""


def _represent_null(representer: RoundTripRepresenter, _: None) -> Any:
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


_Representer.add_representer(type(None), _represent_null)


def float_text(value: float) -> str:
    """A finite float as YAML 1.1 (the loader) reads back as the same float: positional where that is short
    (`0.00005`, never Python's `5e-05`, which YAML 1.1 reads as text), else with a point in the mantissa and a
    signed exponent (`1.0e-300`, `1.5e+300`), the only exponent form YAML 1.1 reads as a number."""
    text = repr(value)
    if "e" not in text:
        return text
    exact = Decimal(text)
    if -10 <= exact.adjusted() < 16:
        positional = format(exact, "f")
        return positional if "." in positional else positional + ".0"
    mantissa, exponent = text.split("e")
    sign = "-" if exponent.startswith("-") else "+"
    return f"{mantissa if '.' in mantissa else mantissa + '.0'}e{sign}{exponent.lstrip('+-')}"


def _represent_float(representer: RoundTripRepresenter, value: float) -> Any:
    if not math.isfinite(value):
        return representer.represent_float(value)
    return representer.represent_scalar("tag:yaml.org,2002:float", float_text(value))


_Representer.add_representer(float, _represent_float)


def make_yaml(text: str = "") -> YAML:
    """A round-trip YAML instance set up to reproduce `text`'s own list indentation."""
    yaml = YAML(typ="rt")
    yaml.Representer = _Representer
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap a long line the author wrote on one line
    offset = sequence_offset(text)
    yaml.indent(mapping=2, sequence=offset + 2, offset=offset)
    return yaml


def dump(yaml: YAML, data: Any) -> str:
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue()


def quoted(text: str) -> DoubleQuotedScalarString:
    """A string written in double quotes: versions must be quoted or YAML reads '2.20' as a float."""
    value: DoubleQuotedScalarString = DoubleQuotedScalarString(text)  # ruamel.yaml's __new__ returns Any
    return value


_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = pyyaml.resolver.Resolver()


def plain_reads_as_text(value: str) -> bool:
    """Whether `value` written without quotes reads back as this text under the loader's YAML 1.1 rules.

    ruamel.yaml writes YAML 1.2, where `off`, `yes`, `No`, `~` and `0x1f` are plain text; the loader (PyYAML)
    reads them as booleans, null and numbers. Such text must be quoted.
    """
    tag: str = _RESOLVER.resolve(pyyaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return tag == _STR_TAG


def as_text(value: Any) -> Any:
    """`value`, double-quoted when it is text that the loader would read as something else."""
    if isinstance(value, str) and not isinstance(value, ScalarString) and not plain_reads_as_text(value):
        return DoubleQuotedScalarString(value)
    return value


def flow_list(items: Iterable[Any]) -> CommentedSeq:
    """A short list written on one line, `[a, b]`, as the registry writes hardware, dtypes and attention."""
    seq = CommentedSeq([as_text(item) for item in items])
    seq.fa.set_flow_style()
    return seq


def mapping(pairs: Mapping[str, Any]) -> CommentedMap:
    """A mapping in the given key order, skipping keys whose value is None; ambiguous text is quoted."""
    result = CommentedMap()
    for key, value in pairs.items():
        if value is not None:
            result[key] = as_text(value)
    return result

