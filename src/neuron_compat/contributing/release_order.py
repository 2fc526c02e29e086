"""The one mechanical fix `validate --fix` makes: releases.yaml's releases put oldest first (rule catalogue-order).

The file's text is cut into one block per release (the release's lines, with the comment lines right above it) and
the blocks are put in version order; every line stays as it was written, only their order changes. A file the cut
cannot follow (a flow-style list, a release listed twice, text between releases that is not a comment) is left
alone: `ordered_releases_text` says why, and the contributor orders it by hand.
"""

from __future__ import annotations

import yaml

from neuron_compat.contract.versions import version_key


class NotMechanical(ValueError):
    """The file cannot be reordered by moving whole lines; str() says why, in one line."""


def ordered_releases_text(text: str) -> str | None:
    """`text` (releases.yaml, LF line endings) with its releases oldest first, or None when they already are."""
    try:
        document = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        raise NotMechanical("the file is not YAML that loads") from None
    releases = _releases_node(document)
    versions = [_version_of(item) for item in releases.value]
    if len(set(versions)) != len(versions):
        raise NotMechanical("a release is listed twice: remove one by hand")
    order = sorted(range(len(versions)), key=lambda i: version_key(versions[i]))
    if order == list(range(len(versions))):
        return None
    lines = text.splitlines(keepends=True)
    starts = [_block_start(lines, item.start_mark.line) for item in releases.value]
    end = _last_leaf_end(releases.value[-1]).line + 1
    bounds = [*starts, end]
    blocks = ["".join(lines[bounds[i]:bounds[i + 1]]) for i in range(len(starts))]
    if not blocks[-1].endswith("\n"):
        blocks[-1] += "\n"
    head, tail = "".join(lines[:starts[0]]), "".join(lines[end:])
    ordered = head + "".join(blocks[i] for i in order) + tail
    _same_data_reordered(text, ordered)
    return ordered


def _same_data_reordered(before: str, after: str) -> None:
    """What `after` holds is what `before` holds, its releases sorted: nothing lost, nothing changed."""
    old, new = yaml.safe_load(before), yaml.safe_load(after)
    expected = {**old, "releases": sorted(old["releases"], key=lambda release: version_key(str(release["version"])))}
    if new != expected:
        raise NotMechanical("the releases cannot be moved as whole lines (text between them?): order them by hand")


def _releases_node(document: yaml.Node | None) -> yaml.SequenceNode:
    if not isinstance(document, yaml.MappingNode):
        raise NotMechanical("the file is not a mapping with `releases:`")
    for key, value in document.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "releases":
            if not isinstance(value, yaml.SequenceNode) or value.flow_style or not value.value:
                raise NotMechanical("`releases:` is not a block list (one `- version: ...` entry per release)")
            return value
    raise NotMechanical("the file has no `releases:` list")


def _version_of(item: yaml.Node) -> str:
    if isinstance(item, yaml.MappingNode):
        for key, value in item.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "version" and isinstance(value, yaml.ScalarNode):
                return str(value.value)
    raise NotMechanical(f"the release at line {item.start_mark.line + 1} has no version")


def _block_start(lines: list[str], line: int) -> int:
    """The first line of a release's block: its dash line, with the comment lines right above it."""
    if not lines[line].lstrip().startswith("- "):
        raise NotMechanical(f"line {line + 1}: a release starts on the line of its dash (`- version: ...`)")
    start = line
    while start > 0 and lines[start - 1].lstrip().startswith("#"):
        start -= 1
    return start


def _last_leaf_end(node: yaml.Node) -> yaml.Mark:
    """Where the last value inside `node` ends (a block collection's own end mark runs on to the next token)."""
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    return node.end_mark
