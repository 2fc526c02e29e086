"""Minimal-diff edits of a YAML file's text: the lines that change are the lines that must.

Re-emitting a whole document (even with ruamel.yaml's round trip) re-wraps long scalars and changes
lines nobody touched. Instead, this editor finds nodes by field path in the original text (PyYAML node
marks), renders only the new pieces (with ruamel.yaml, so quoting is right), and splices them in:
append to a `[a, b]` list, add a key after its schema predecessor, replace a value, append or insert a
list item after the previous item's last line (so comments above the next item stay with it).
All positions refer to the original text; edits are applied together at the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import yaml

from neuron_compat.contributing import roundtrip_style

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

Path = Sequence[str | int]


class TextEditError(ValueError):
    """The file's shape does not allow the edit (e.g. a field is not where the schema puts it)."""


class YamlTextEditor:
    def __init__(self, text: str) -> None:
        self.original = text if text.endswith("\n") else text + "\n"
        self.root = yaml.compose(self.original, Loader=_Loader)
        self._edits: list[tuple[int, int, int, int, str]] = []  # (start, end, -depth, order, replacement)

    # -- finding nodes -------------------------------------------------------------------------------

    def node(self, path: Path) -> yaml.Node | None:
        node = self.root
        for part in path:
            if isinstance(node, yaml.MappingNode):
                node = next((value for key, value in node.value if isinstance(key, yaml.ScalarNode) and key.value == part), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
            else:
                return None
            if node is None:
                return None
        return node

    def _key_node(self, mapping: yaml.MappingNode, key: str) -> yaml.Node | None:
        return next((k for k, _ in mapping.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)

    @staticmethod
    def _last_leaf_end(node: yaml.Node) -> int:
        """Index just after the last character of `node`'s content (block collections: their last value)."""
        while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style and node.value:
            last = node.value[-1]
            node = last[1] if isinstance(node, yaml.MappingNode) else last
        return node.end_mark.index

    def _line_after(self, index: int) -> int:
        newline = self.original.find("\n", index)
        return len(self.original) if newline < 0 else newline + 1

    def _line_start(self, index: int) -> int:
        return self.original.rfind("\n", 0, index) + 1

    def _add(self, start: int, end: int, replacement: str) -> None:
        # Inserts at one place: the more indented (the end of the previous item's own lists) goes first.
        depth = len(replacement) - len(replacement.lstrip(" "))
        self._edits.append((start, end, -depth, len(self._edits), replacement))

    # -- edits ---------------------------------------------------------------------------------------

    def append_to_list(self, path: Path, values: Iterable[str]) -> None:
        """Append scalars to the list at `path`, in its own style (`[a, b]` or block items)."""
        node = self.node(path)
        values = list(values)
        if not isinstance(node, yaml.SequenceNode):
            raise TextEditError(f"{_dotted(path)} is not a list")
        if node.flow_style:
            close = node.end_mark.index - 1
            if self.original[close] != "]":
                raise TextEditError(f"{_dotted(path)}: cannot find the closing ']'")
            separator = ", " if node.value else ""
            self._add(close, close, separator + ", ".join(_flow_scalar(v) for v in values))
            return
        if not node.value:
            raise TextEditError(f"{_dotted(path)} is an empty block list")
        column = node.value[-1].start_mark.column - 2
        at = self._line_after(self._last_leaf_end(node))
        self._add(at, at, "".join(f"{' ' * column}- {_flow_scalar(v)}\n" for v in values))

    def remove_from_flow_list(self, path: Path, value: str) -> None:
        node = self.node(path)
        if not isinstance(node, yaml.SequenceNode) or not node.flow_style:
            raise TextEditError(f"{_dotted(path)} is not a [..] list")
        kept = [self.original[item.start_mark.index:item.end_mark.index] for item in node.value if item.value != value]
        self._add(node.start_mark.index, node.end_mark.index, "[" + ", ".join(kept) + "]")

    def set_value(self, path: Path, value: Any) -> None:
        """Replace a scalar value in place (e.g. an `until`)."""
        node = self.node(path)
        if not isinstance(node, yaml.ScalarNode):
            raise TextEditError(f"{_dotted(path)} is not a single value")
        self._add(node.start_mark.index, node.end_mark.index, _render_scalar(roundtrip_style.as_text(value)))

    def add_key(self, mapping_path: Path, key: str, value: Any, after: Sequence[str]) -> None:
        """Add `key: value` to the mapping at `mapping_path`, right after the last present key of `after`."""
        mapping = self.node(mapping_path)
        if not isinstance(mapping, yaml.MappingNode) or mapping.flow_style or not mapping.value:
            raise TextEditError(f"{_dotted(mapping_path)} is not a block mapping")
        column = mapping.value[0][0].start_mark.column
        previous = [(k, v) for k, v in mapping.value if isinstance(k, yaml.ScalarNode) and k.value in after]
        if previous:
            at = self._line_after(self._last_leaf_end(previous[-1][1]))
        else:
            at = self._line_start(mapping.value[0][0].start_mark.index)
            if at < self._line_start(mapping.start_mark.index) + 1 and self.original[at:mapping.start_mark.index].strip():
                raise TextEditError(f"{_dotted(mapping_path)}: cannot add {key} before its first key")
        self._add(at, at, _indent(self._render_mapping({key: value}), column))

    def append_item(self, seq_path: Path, item: Any) -> None:
        """Append a mapping item to the block list at `seq_path` (turning `[]` into a block list)."""
        node = self.node(seq_path)
        if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
            self.insert_item(seq_path, len(node.value), [item])
            return
        if node is not None and not (isinstance(node, yaml.SequenceNode) and not node.value):
            raise TextEditError(f"{_dotted(seq_path)} is not a list")
        parent = self.node(seq_path[:-1])
        if not isinstance(parent, yaml.MappingNode):
            raise TextEditError(f"{_dotted(seq_path[:-1])} is not a mapping")
        key_column = parent.value[0][0].start_mark.column if parent.value else 0
        offset = roundtrip_style.sequence_offset(self.original)
        block = _indent(self._render_items([item]), key_column + offset)
        if node is None:  # no such key yet: add it at the end of the mapping
            at = self._line_after(self._last_leaf_end(parent))
            self._add(at, at, f"{' ' * key_column}{seq_path[-1]}:\n{block}")
            return
        # `key: []` -> `key:` + items on the following lines (an end-of-line comment stays on the key line)
        start = node.start_mark.index
        while start > 0 and self.original[start - 1] == " ":
            start -= 1
        self._add(start, node.end_mark.index, "")
        at = self._line_after(node.end_mark.index)
        self._add(at, at, block)

    def insert_item(self, seq_path: Path, index: int, items: list[Any]) -> None:
        """Insert mapping items before item `index` (after the previous item's last line)."""
        node = self.node(seq_path)
        if not isinstance(node, yaml.SequenceNode) or node.flow_style or not node.value:
            raise TextEditError(f"{_dotted(seq_path)} is not a block list")
        dash_column, _ = self._dash_layout(node)
        block = _indent(self._render_items(items), dash_column)
        if index == 0:
            at = self._line_start(node.value[0].start_mark.index)
        else:
            at = self._line_after(self._last_leaf_end(node.value[index - 1]))
        self._add(at, at, block)

    def replace_item(self, seq_path: Path, index: int, item: Any) -> None:
        node = self.node(seq_path)
        if not isinstance(node, yaml.SequenceNode) or node.flow_style:
            raise TextEditError(f"{_dotted(seq_path)} is not a block list")
        dash_column, _ = self._dash_layout(node)
        start = self._line_start(node.value[index].start_mark.index)
        end = self._line_after(self._last_leaf_end(node.value[index]))
        self._add(start, end, _indent(self._render_items([item]), dash_column))

    def _dash_layout(self, node: yaml.SequenceNode) -> tuple[int, int]:
        first = node.value[0]
        line_start = self._line_start(first.start_mark.index)
        dash = self.original.index("-", line_start)
        return dash - line_start, first.start_mark.column - (dash - line_start)

    # -- rendering new pieces in the file's own list style ------------------------------------------

    def _render_mapping(self, mapping: dict[str, Any]) -> str:
        return roundtrip_style.dump(roundtrip_style.make_yaml(self.original), roundtrip_style.mapping(mapping))

    def _render_items(self, items: list[Any]) -> str:
        """Items as a block list with the dash at column 0, nested lists as the file writes them."""
        text = roundtrip_style.dump(roundtrip_style.make_yaml(self.original), list(items))
        lines = text.splitlines(keepends=True)
        strip = min(len(line) - len(line.lstrip(" ")) for line in lines if line.strip())
        return "".join(line[strip:] if line.strip() else line for line in lines)

    # -- result --------------------------------------------------------------------------------------

    def text(self) -> str:
        result = self.original
        for start, end, _, _, replacement in sorted(self._edits, key=lambda e: (e[0], e[2], e[3]), reverse=True):
            result = result[:start] + replacement + result[end:]
        return result


def _dotted(path: Path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else p) for i, p in enumerate(path)) or "(top)"


_PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-/]*$")


def _flow_scalar(value: str) -> str:
    plain = _PLAIN.fullmatch(value) and roundtrip_style.plain_reads_as_text(value)
    return value if plain else _render_scalar(roundtrip_style.as_text(value))


def _render_scalar(value: Any) -> str:
    text = roundtrip_style.dump(roundtrip_style.make_yaml(), [value]).strip()
    return text.removeprefix("- ")


def _indent(block: str, column: int) -> str:
    pad = " " * column
    return "".join(pad + line if line.strip() else line for line in block.splitlines(keepends=True))
