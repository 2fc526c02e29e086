"""Safe YAML loading for registry files: fast on the valid path, located errors on the bad one.

The valid path is a bare C-parser load plus two cheap guards (duplicate keys, alias count).
Line and column numbers for schema and rule errors come later, from `node_locations.py`, which re-reads
only the files that have problems.
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from neuron_compat.loading.file_caps import MAX_FILE_BYTES, MAX_SNAPSHOT_BYTES
from neuron_compat.loading.problems import Problem
from neuron_compat.safeio.bounded_read import FileTooLarge, UnreadableFile, read_regular_file
from neuron_compat.safeio.safe_text import value_error_reason

UPSTREAM_DIR = "upstream"
MAX_ALIAS_USES = 16
MAX_NESTING = 100  # libyaml's C composer recurses per level and crashes the process near 30,000 levels

try:  # the C parser when libyaml is there; same behaviour, several times faster
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]


_MERGE_TAG = "tag:yaml.org,2002:merge"


class _GuardError(yaml.MarkedYAMLError):
    pass


_VALUE_TAG = "tag:yaml.org,2002:value"  # the `=` key, which PyYAML's flatten_mapping retags as text


class _FastLoader(_BaseLoader):
    """Safe loader that refuses duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        """PyYAML's SafeConstructor.construct_mapping in one pass when no key is a merge (`<<`) or `=` key (the
        registry's case): the same objects constructed in the same order and the same errors, without
        flatten_mapping's second scan of the keys; then the duplicate-key check."""
        if not isinstance(node, yaml.MappingNode):
            return self._construct_flattened(node, deep)
        pairs = node.value
        for key_node, _ in pairs:
            if key_node.tag == _MERGE_TAG or key_node.tag == _VALUE_TAG:
                return self._construct_flattened(node, deep)
        mapping: dict[Any, Any] = {}
        for key_node, value_node in pairs:
            key = self.construct_object(key_node, deep=deep)
            if type(key) is not str and not isinstance(key, Hashable):  # text is hashable: skip the ABC check
                raise yaml.constructor.ConstructorError("while constructing a mapping", node.start_mark,
                                                        "found unhashable key", key_node.start_mark)
            mapping[key] = self.construct_object(value_node, deep=deep)
        if len(mapping) != len(pairs):
            _raise_on_duplicate_key(pairs)
        return mapping

    def _construct_flattened(self, node: yaml.MappingNode, deep: bool) -> dict[Any, Any]:
        """The general path: merge keys flattened by PyYAML, duplicates among this mapping's own keys refused."""
        if isinstance(node, yaml.MappingNode) and any(key_node.tag == _MERGE_TAG for key_node, _ in node.value):
            # `<<: *base` then `key: other` overrides the merged key (YAML's merge rule): only keys written
            # in this mapping itself can be duplicates. Checked before the merge flattens node.value.
            _raise_on_duplicate_key([pair for pair in node.value if pair[0].tag != _MERGE_TAG])
            return super().construct_mapping(node, deep=deep)
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        if len(mapping) != len(node.value):
            _raise_on_duplicate_key(node.value)
        return mapping


_SCALAR_KINDS = {"bool": "true or false", "int": "an integer", "float": "a number", "timestamp": "a date"}


def _located_scalar(constructor: Any) -> Any:
    """Wrap a scalar constructor so that a value it cannot build (a 13th month, `!!int abc`) is a located error."""

    def construct(loader: yaml.BaseLoader, node: yaml.ScalarNode) -> Any:
        try:
            value = constructor(loader, node)
            if isinstance(value, int) and value.bit_length() > _MAX_INT_BITS:
                str(value)  # 0x/0o/0b digits build any integer; one Python cannot print would crash every message
            return value
        except (ValueError, KeyError, OverflowError, AttributeError, TypeError, IndexError) as error:
            kind = _SCALAR_KINDS.get(node.tag.rsplit(":", 1)[-1], node.tag)
            reason = f" ({value_error_reason(error, 200)})" if isinstance(error, (ValueError, OverflowError)) else ""
            shown = node.value if len(node.value) <= 40 else node.value[:40] + "..."
            raise _GuardError(None, None, f"cannot read {shown!r} as {kind}{reason}", node.start_mark) from None

    return construct


_MAX_INT_BITS = 4000  # below Python's int-to-text limit (4,300 digits, about 14,000 bits): no check needed


for _tag in _SCALAR_KINDS:
    _full_tag = f"tag:yaml.org,2002:{_tag}"
    _FastLoader.add_constructor(_full_tag, _located_scalar(_FastLoader.yaml_constructors[_full_tag]))

# YAML 1.1 reads `1:30` as the base-60 integer 90 and `1:30.5` as 90.5: a time or a ratio would become a
# number nobody wrote. Plain scalars are resolved without the base-60 forms, so `1:30` stays text (and a
# number field refuses it); every other integer and float form is YAML 1.1's, unchanged.
_INT_TAG, _FLOAT_TAG = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_FastLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag not in (_INT_TAG, _FLOAT_TAG)]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()}
_FastLoader.add_implicit_resolver(_INT_TAG, re.compile(
    r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+)$", re.X), list("-+0123456789"))
_FastLoader.add_implicit_resolver(_FLOAT_TAG, re.compile(
    r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", re.X), list("-+0123456789."))


_PLAIN_TAGS: dict[str, str] = {}
"""Plain scalar text -> the tag `_FastLoader`'s implicit resolvers give it (filled as files are read)."""
_PLAIN_TAGS_MAX, _PLAIN_TEXT_MAX = 8192, 64
_STR_TAG, _SEQ_TAG, _MAP_TAG = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
_BASE_RESOLVE: Any = yaml.resolver.BaseResolver.resolve


def _resolve(self: _FastLoader, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
    """PyYAML's Resolver.resolve with its answer for plain scalars remembered.

    The C composer asks for the tag of every untagged node, and PyYAML answers by trying the regular
    expressions of the value's first character each time: a tenth of the load of a registry file, whose keys
    and values (`stack`, `inference`, `trn1`, "2.21.0") repeat in every statement. Without path resolvers
    (none are added here) the tag depends only on the kind and, for a plain scalar, on its text, so the answer
    is the same; quoted scalars are text, collections maps and lists.
    """
    if self.yaml_implicit_resolvers is not _FAST_RESOLVERS or self.yaml_path_resolvers:  # a subclass with its own
        return str(_BASE_RESOLVE(self, kind, value, implicit))
    if kind is yaml.ScalarNode:
        if not implicit[0]:
            return _STR_TAG
        tag = _PLAIN_TAGS.get(value)
        if tag is None:
            tag = _BASE_RESOLVE(self, kind, value, implicit)
            if len(value) <= _PLAIN_TEXT_MAX:
                if len(_PLAIN_TAGS) >= _PLAIN_TAGS_MAX:  # bounded: start again, keeping what the files read now use
                    _PLAIN_TAGS.clear()
                _PLAIN_TAGS[value] = tag
        return tag
    return _SEQ_TAG if kind is yaml.SequenceNode else _MAP_TAG


_FAST_RESOLVERS = _FastLoader.yaml_implicit_resolvers
_FastLoader.resolve = _resolve  # type: ignore[assignment,method-assign]


class _GuardedLoader(_FastLoader):
    """Also counts alias uses in the composed node graph, before anything is constructed, so that an alias bomb
    fails before it is expanded anywhere: merge keys (`<<: [*a, *a]`) included, which PyYAML flattens (copying
    every merged key, level after level) before it constructs the mapping."""

    def get_single_data(self) -> Any:
        node = self.get_single_node()
        if node is None:
            return None
        _count_alias_uses(node)
        return self.construct_document(node)


def _count_alias_uses(root: yaml.Node) -> None:
    """Refuse more than MAX_ALIAS_USES references to a node already seen (each `*name`), in document order.

    One walk of the graph, never into a node twice: linear in the file, whatever the aliases would expand to."""
    seen = {id(root)}
    uses = 0
    stack: list[yaml.Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.SequenceNode):
            children: list[yaml.Node] = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [child for pair in node.value for child in pair]
        else:
            continue
        fresh = []
        for child in children:
            if id(child) in seen:
                uses += 1
                if uses > MAX_ALIAS_USES:
                    raise _GuardError(None, None, f"more than {MAX_ALIAS_USES} YAML aliases (*name); write the "
                                      "values out", child.start_mark)
            else:
                seen.add(id(child))
                fresh.append(child)
        stack.extend(reversed(fresh))


def _raise_on_duplicate_key(pairs: list[tuple[yaml.Node, yaml.Node]]) -> None:
    seen: dict[Any, yaml.Node] = {}
    for key_node, _ in pairs:
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


_FLOW_BRACKET = re.compile(r"[\[\]{}]")
_COMPACT_BLOCK_NESTING = re.compile(r"(?:[-?][ \t]+){%d}" % MAX_NESTING)  # noqa: UP031 (% keeps the braces of the regex readable)


def _too_deep(text: str) -> int | None:
    """Offset where nesting passes MAX_NESTING, or None. Cheap: counts only when brackets are many.

    Block nesting by indentation costs depth**2 bytes, so within MAX_FILE_BYTES only flow brackets
    and compact `- - -` entries can nest deep enough to crash the C parser; both are checked here.
    Brackets inside quoted text are counted too, which can only overestimate the depth.
    """
    if text.count("[") + text.count("{") > MAX_NESTING:
        depth = 0
        for match in _FLOW_BRACKET.finditer(text):
            if match.group() in "[{":
                depth += 1
                if depth > MAX_NESTING:
                    return match.start()
            elif depth:
                depth -= 1
    compact = _COMPACT_BLOCK_NESTING.search(text) if text.count("- ") > MAX_NESTING else None
    return compact.start() if compact else None


@dataclass(frozen=True)
class LoadedYaml:
    path: Path
    display: str
    text: str
    data: Any

    def without_data(self) -> LoadedYaml:
        """The same file without its parsed data (what a loaded registry keeps: the text, to locate findings)."""
        return LoadedYaml(self.path, self.display, self.text, None)


def display_path(path: Path) -> str:
    """The path as a contributor would type it: relative to the current directory when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return str(path)
    return str(path) if relative.startswith("..") else relative


def size_cap(path: Path) -> int:
    """The most bytes a registry file at `path` may have: MAX_SNAPSHOT_BYTES under upstream/, else MAX_FILE_BYTES."""
    return MAX_SNAPSHOT_BYTES if path.parent.name == UPSTREAM_DIR else MAX_FILE_BYTES


def load_yaml_file(path: Path, display: str | None = None) -> tuple[LoadedYaml | None, Problem | None]:
    """Read and parse one YAML file. Returns the data, or the problem that stopped it."""
    shown = display or display_path(path)

    def problem(message: str, hint: str = "", line: int = 0, column: int = 0) -> tuple[None, Problem]:
        return None, Problem(shown, line, column, "", message, hint, rule="yaml")

    cap = size_cap(path)
    try:
        raw = read_regular_file(path, cap)
    except FileTooLarge as error:
        size = f"more than {cap / 1024 / 1024:.1f}" if error.grew else f"{error.size / 1024 / 1024:.1f}"
        kind = "an upstream snapshot" if cap == MAX_SNAPSHOT_BYTES else "a registry file"
        return problem(
            f"file is {size} MiB; {kind} may be at most {cap // 1024} KiB",
            "split it, or remove what does not belong in the registry",
        )
    except UnreadableFile as error:
        return problem(str(error))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return problem(
            f"not valid UTF-8 (byte 0x{raw[error.start]:02x})", "save the file as UTF-8 text", line, column
        )
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        offset = text.index("\x00")
        line = text.count("\n", 0, offset) + 1
        return problem("contains a NUL byte: this is not a text file", "save the file as UTF-8 text", line, 1)
    deep_at = _too_deep(text)
    if deep_at is not None:
        line = text.count("\n", 0, deep_at) + 1
        column = deep_at - (text.rfind("\n", 0, deep_at) + 1) + 1
        return problem(f"YAML: nested more than {MAX_NESTING} levels deep", "registry files need only a few levels",
                       line, column)
    loader_class = _GuardedLoader if ("&" in text or "*" in text) else _FastLoader
    loader = loader_class(text)
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        message = error.problem or "invalid YAML"
        if error.context and not isinstance(error, _GuardError):
            message = f"{error.context}: {message}"
        if isinstance(error, _GuardError):
            hint = ""
        elif isinstance(error, yaml.constructor.ConstructorError):
            hint = "registry files hold plain data: remove the !tag" if "tag" in message else "write plain keys and values"
        else:
            hint = "check indentation, quotes and colons around this place"
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        return problem(f"YAML: {message}", hint, line, column)
    except yaml.YAMLError as error:
        return problem(f"YAML: {error}")
    except RecursionError:
        return problem("YAML: nesting is too deep")
    except (ValueError, TypeError, OverflowError, KeyError, AttributeError, IndexError) as error:  # a value PyYAML cannot build
        return problem(f"YAML: a value could not be read ({error})", "registry files hold plain data: remove the !tag")
    finally:
        loader.dispose()
    if data is None:
        return problem("file is empty", "see registry/families/llama.yaml for a complete example")
    return LoadedYaml(path, shown, text, data), None
