"""Map a field path such as ('support', 2, 'status') to the line and column of its YAML node.

Only files with problems are re-read here, so the valid path never pays for node marks.
"""

from __future__ import annotations

from collections.abc import Sequence

import yaml

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader


class Locator:
    """Finds nodes in one file's text; composes the node tree once, on first use."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._root: yaml.Node | None = None
        self._composed = False

    def _tree(self) -> yaml.Node | None:
        if not self._composed:
            self._composed = True
            try:
                self._root = yaml.compose(self._text, Loader=_Loader)
            except yaml.YAMLError:
                self._root = None
        return self._root

    def position(self, loc: Sequence[str | int], at_key: bool = False) -> tuple[int, int]:
        """1-based (line, column) of the deepest node along `loc`; the key itself when `at_key`."""
        node = self._tree()
        if node is None:
            return (1, 1)
        mark = node.start_mark
        for index, part in enumerate(loc):
            last = index == len(loc) - 1
            if isinstance(node, yaml.MappingNode):
                for key_node, value_node in node.value:
                    if isinstance(key_node, yaml.ScalarNode) and _key_is(key_node, part):
                        mark = key_node.start_mark if (last and at_key) else value_node.start_mark
                        node = value_node
                        break
                else:
                    continue  # a loc part with no node (e.g. a union tag): stay here
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                node = node.value[part]
                mark = node.start_mark
            else:
                continue
        return (mark.line + 1, mark.column + 1)


def _key_is(key_node: yaml.ScalarNode, part: object) -> bool:
    """The key node is `part`: as written, or (a key YAML read as a number, date or boolean) as YAML reads it."""
    if key_node.value == str(part):
        return True
    if key_node.tag == "tag:yaml.org,2002:str":
        return False
    try:
        read = yaml.load(key_node.value, Loader=_Loader)
        return bool(read == part or str(part) in (str(read), repr(read)))  # pydantic names some keys by repr()
    except yaml.YAMLError:
        return False
