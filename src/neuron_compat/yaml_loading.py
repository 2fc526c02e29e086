"""Safe YAML loading for registry files: fast on the valid path, located errors on the bad one.

The valid path is a bare C-parser load plus two cheap guards (duplicate keys, alias count).
Line and column numbers for schema and rule errors come later, from `locate.py`, which re-reads
only the files that have problems.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .problems import Problem

MAX_FILE_BYTES = 1024 * 1024
MAX_ALIAS_USES = 16

try:  # the C parser when libyaml is there; same behaviour, several times faster
    _BaseLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _BaseLoader = yaml.SafeLoader


class _GuardError(yaml.MarkedYAMLError):
    pass


class _FastLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """Safe loader that refuses duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        mapping = super().construct_mapping(node, deep=deep)
        if len(mapping) != len(node.value):
            _raise_on_duplicate_key(node)
        return mapping


class _GuardedLoader(_FastLoader):
    """Also counts alias uses, so that an alias bomb fails before it is expanded anywhere."""

    alias_uses = 0

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node in self.constructed_objects or node in self.recursive_objects:
            self.alias_uses += 1
            if self.alias_uses > MAX_ALIAS_USES:
                raise _GuardError(
                    None, None, f"more than {MAX_ALIAS_USES} YAML aliases (*name); write the values out", node.start_mark
                )
        return super().construct_object(node, deep=deep)


def _raise_on_duplicate_key(node: yaml.MappingNode) -> None:
    seen: dict[Any, yaml.Node] = {}
    for key_node, _ in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else id(key_node)
        if key in seen:
            first = seen[key].start_mark
            raise _GuardError(
                None,
                None,
                f"duplicate key '{key}' (first at line {first.line + 1}); keep one",
                key_node.start_mark,
            )
        seen[key] = key_node


@dataclass(frozen=True)
class LoadedYaml:
    path: Path
    display: str
    text: str
    data: Any


def display_path(path: Path) -> str:
    """The path as a contributor would type it: relative to the current directory when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return str(path) if relative.startswith("..") else relative


def load_yaml_file(path: Path, display: str | None = None) -> tuple[LoadedYaml | None, Problem | None]:
    """Read and parse one YAML file. Returns the data, or the problem that stopped it."""
    shown = display or display_path(path)

    def problem(message: str, hint: str = "", line: int = 0, column: int = 0) -> tuple[None, Problem]:
        return None, Problem(shown, line, column, "", message, hint, rule="yaml")

    try:
        size = path.stat().st_size
    except OSError as error:
        return problem(f"cannot read the file: {error.strerror}")
    if size > MAX_FILE_BYTES:
        return problem(
            f"file is {size / 1024 / 1024:.1f} MiB; a registry file may be at most {MAX_FILE_BYTES // 1024} KiB",
            "split it, or remove what does not belong in the registry",
        )
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return problem(
            f"not valid UTF-8 (byte 0x{raw[error.start]:02x})", "save the file as UTF-8 text", line, column
        )
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        offset = text.index("\x00")
        line = text.count("\n", 0, offset) + 1
        return problem("contains a NUL byte: this is not a text file", "save the file as UTF-8 text", line, 1)
    loader_class = _GuardedLoader if ("&" in text or "*" in text) else _FastLoader
    loader = loader_class(text)
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = error.problem or "invalid YAML"
        if error.context and not isinstance(error, _GuardError):
            message = f"{error.context}: {message}"
        hint = "" if isinstance(error, _GuardError) else "check indentation, quotes and colons around this place"
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        return problem(f"YAML: {message}", hint, line, column)
    except yaml.YAMLError as error:
        return problem(f"YAML: {error}")
    except RecursionError:
        return problem("YAML: nesting is too deep")
    finally:
        loader.dispose()
    if data is None:
        return problem("file is empty", "see registry/families/llama.yaml for a complete example")
    return LoadedYaml(path, shown, text, data), None
