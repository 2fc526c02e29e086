"""Comment- and order-preserving edits of registry YAML files (ruamel.yaml round trip).

The contributor tools (`add-evidence`) change a family file the way a careful person would by hand:
comments, key order, quoting and list styles stay as they were, and the diff shows only the change.
The loader (yaml_loading.py) stays the fast, safe PyYAML path; this module is only for writing.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import DoubleQuotedScalarString
from ruamel.yaml.tokens import CommentToken

_BLOCK_SEQUENCE_ITEM = re.compile(r"^(?P<parent>[ ]*)[A-Za-z_][\w-]*:[ ]*(?:#.*)?\n(?P<dash>[ ]*)- ", re.MULTILINE)


def _sequence_offset(text: str) -> int:
    """How far a block list's dash sits right of its key: 2 for `key:\\n  - x` (our files), 0 for `key:\\n- x`."""
    match = _BLOCK_SEQUENCE_ITEM.search(text)
    if match is None:
        return 2
    return max(0, len(match.group("dash")) - len(match.group("parent")))


def make_yaml(text: str = "") -> YAML:
    """A round-trip YAML instance set up to reproduce `text`'s own list indentation."""
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096  # never re-wrap a long line the author wrote on one line
    offset = _sequence_offset(text)
    yaml.indent(mapping=2, sequence=offset + 2, offset=offset)
    return yaml


def load(text: str) -> tuple[YAML, Any]:
    yaml = make_yaml(text)
    return yaml, yaml.load(text)


def dump(yaml: YAML, data: Any) -> str:
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue()


def quoted(text: str) -> DoubleQuotedScalarString:
    """A string written in double quotes: versions must be quoted or YAML reads '2.20' as a float."""
    return DoubleQuotedScalarString(text)


def flow_list(items: Iterable[Any]) -> CommentedSeq:
    """A short list written on one line, `[a, b]`, as the registry writes hardware, dtypes and attention."""
    seq = CommentedSeq(list(items))
    seq.fa.set_flow_style()
    return seq


def mapping(pairs: Mapping[str, Any]) -> CommentedMap:
    """A mapping in the given key order, skipping keys whose value is None."""
    result = CommentedMap()
    for key, value in pairs.items():
        if value is not None:
            result[key] = value
    return result


def set_after(target: CommentedMap, key: str, value: Any, after: Iterable[str]) -> None:
    """Set `key` in `target`, placing a new key right after the last present key named in `after`.

    Keeps the schema's field order when a field is added to an existing statement (e.g. `until`
    goes after `since`), so the diff is one added line in the expected place.
    """
    if key in target:
        target[key] = value
        return
    position = 0
    keys = list(target.keys())
    for name in after:
        if name in target:
            position = max(position, keys.index(name) + 1)
    target.insert(position, key, value)



# --- comments between list items -------------------------------------------------------------------
#
# ruamel.yaml attaches a comment that sits between two list items to the deepest last value of the
# item *before* it. Inserting a new item (or a new source) right after that item would then put the
# new text under the comment meant for the next item. `detach_item_comments` moves each such comment
# onto the next item, where a reader sees it, before any edit; the list's trailing comment is handed
# back so `reattach_tail` can put it after the last item once the edits are done.


def _value_slots(node: Any) -> list[tuple[dict, Any, int]]:
    """(comment items, key, position) along the chain of last values, outermost first."""
    slots: list[tuple[dict, Any, int]] = []
    while True:
        if isinstance(node, CommentedMap) and len(node):
            key = list(node.keys())[-1]
            slots.append((node.ca.items, key, 2))
            node = node[key]
        elif isinstance(node, CommentedSeq) and len(node) and not node.fa.flow_style():
            index = len(node) - 1
            slots.append((node.ca.items, index, 0))
            node = node[index]
        else:
            return slots


def _take_following_lines(item: Any) -> str:
    """Remove and return the comment lines that follow `item`'s last line (its own end-of-line comment stays)."""
    for items, key, position in reversed(_value_slots(item)):
        entry = items.get(key)
        if entry and len(entry) > position and entry[position] is not None:
            token = entry[position]
            newline = token.value.find("\n")
            if newline < 0:
                return ""
            keep, rest = token.value[: newline + 1], token.value[newline + 1 :]
            if keep == "\n":
                entry[position] = None
            else:
                token.value = keep
            return rest
    return ""


def detach_item_comments(seq: CommentedSeq) -> str:
    """Move comments between items onto the item they precede; return the comment lines after the last item."""
    if not isinstance(seq, CommentedSeq) or seq.fa.flow_style():
        return ""
    for index in range(len(seq) - 1):
        rest = _take_following_lines(seq[index])
        if rest:
            entry = seq.ca.items.setdefault(index + 1, [None, None, None, None])
            entry[1] = [CommentToken(rest, CommentMark(0), None), *(entry[1] or [])]
    return _take_following_lines(seq[-1]) if len(seq) else ""


def reattach_tail(seq: CommentedSeq, tail: str) -> None:
    """Put comment lines back after the (possibly new) last item of `seq`."""
    if not tail or not len(seq):
        return
    slots = _value_slots(seq[-1])
    if not slots:
        return
    items, key, position = slots[-1]
    entry = items.setdefault(key, [None, None, None, None])
    while len(entry) <= position:
        entry.append(None)
    if entry[position] is None:
        entry[position] = CommentToken("\n" + tail, CommentMark(0), None)
    else:
        entry[position].value += tail
