"""An index into the bundled snapshot, so `check` reads only what one answer needs of it.

`data/registry.index.json` (written with the snapshot: by the wheel build, or by a clone's on-demand compile) gives the byte span of
every top-level section of `data/registry.json` and, per family, its span and the fields a family is matched
by (id, name, model_types, architectures, pipelines). `check` parses the small sections it answers from
(releases, stacks, capabilities), the index, and the one family that matches: not the 1.6 MB document.
A family's other fields, and the other sections (the probe results, for the table), are read when first used.
The snapshot stays byte for byte the site's api/registry.json; when the index is missing or does not fit the
document (another size), `check` parses the whole document as before.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from neuron_compat.check.compiled_view import CompiledRegistry, FamilyView

INDEX_FORMAT = 1
MATCHED_BY = ("id", "name", "model_types", "architectures", "pipelines")
"""The family fields the index copies: all that `check` reads of a family that does not match."""
EAGER_SECTIONS = ("format", "data_version", "releases", "stacks", "capabilities")
"""The sections every answer reads; the others are read from their span when asked for."""

_DATA = Path(__file__).resolve().parent.parent / "data"
DOCUMENT = _DATA / "registry.json"
INDEX = _DATA / "registry.index.json"

Span = tuple[int, int]


def _members(text: str, start: int, decoder: json.JSONDecoder, is_object: bool) -> Iterator[tuple[str | None, int, int]]:
    """(key or None, start, end) of each member of the object or array whose opening bracket is at `start`
    (character offsets)."""
    position = start + 1
    closing = "}" if is_object else "]"
    while True:
        while text[position] in " \t\r\n,":
            position += 1
        if text[position] == closing:
            return
        key = None
        if is_object:
            key, position = decoder.raw_decode(text, position)
            while text[position] in " \t\r\n:":
                position += 1
        _, end = decoder.raw_decode(text, position)
        yield key, position, end
        position = end


def build_index(text: str) -> dict[str, Any]:
    """The index of a compiled document's text (as `dumps` writes it): byte spans into its UTF-8 bytes."""
    decoder = json.JSONDecoder()
    if not text.lstrip().startswith("{"):
        raise ValueError("not a JSON object")
    section_spans: dict[str, Span] = {}
    family_spans: list[tuple[dict[str, Any], Span]] = []
    for key, start, end in _members(text, text.index("{"), decoder, True):
        assert key is not None
        section_spans[key] = (start, end)
        if key == "families":
            for _, f_start, f_end in _members(text, start, decoder, False):
                family = json.loads(text[f_start:f_end])
                family_spans.append(({name: family[name] for name in MATCHED_BY if name in family}, (f_start, f_end)))
    # character offsets -> byte offsets of the UTF-8 text, in one pass over the sorted offsets
    byte_at: dict[int, int] = {}
    counted_to = counted = 0
    for offset in sorted({o for span in [*section_spans.values(), *(s for _, s in family_spans)] for o in span}):
        counted += len(text[counted_to:offset].encode("utf-8"))
        counted_to, byte_at[offset] = offset, counted
    return {
        "format": INDEX_FORMAT,
        "document_bytes": len(text.encode("utf-8")),
        "sections": {key: (byte_at[start], byte_at[end]) for key, (start, end) in section_spans.items()},
        "families": [{**entry, "span": (byte_at[start], byte_at[end])} for entry, (start, end) in family_spans],
    }


def index_text(text: str) -> str:
    """The index file's text for a compiled document's text (deterministic)."""
    return json.dumps(build_index(text), indent=None, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n"


class _LazyFamily(dict[str, Any]):
    """A family's JSON object holding its matched-by fields; any other field reads the whole family first."""

    __slots__ = ("_read",)

    def __init__(self, entry: dict[str, Any], read: Callable[[], dict[str, Any]]) -> None:
        super().__init__((name, entry[name]) for name in MATCHED_BY if name in entry)
        self._read: Callable[[], dict[str, Any]] | None = read

    def load(self) -> None:
        if self._read is not None:
            whole, self._read = self._read(), None
            self.clear()
            self.update(whole)  # the document's own key order, as a parsed document has it

    def __missing__(self, key: str) -> Any:
        if self._read is None:
            raise KeyError(key)
        self.load()
        return self[key]

    def items(self) -> Any:  # a copy of the whole family (to_json) holds every field
        self.load()
        return super().items()


class IndexedRegistry(CompiledRegistry):
    """A CompiledRegistry over the bundled snapshot that parses, of the families, only those it is asked about."""

    def __init__(self, document: dict[str, Any], families: list[_LazyFamily], read_section: Callable[[str], Any]) -> None:
        super().__init__(document)
        self.families = tuple(FamilyView(family) for family in families)
        self._read_section = read_section

    def section(self, name: str) -> Any:
        if name not in self.document:
            self.document[name] = self._read_section(name)
        return self.document[name]


def open_indexed(document_path: Path | None = None, index_path: Path | None = None) -> IndexedRegistry | None:
    """The snapshot (DOCUMENT, INDEX unless named) through its index, or None when there is no index or it does
    not fit the document."""
    document_path = document_path or DOCUMENT
    index_path = index_path or INDEX
    try:
        index = json.loads(index_path.read_bytes())
        size = os.stat(document_path).st_size
    except (OSError, ValueError):
        return None

    def read(span: list[int]) -> bytes:
        with open(document_path, "rb") as handle:
            handle.seek(span[0])
            return handle.read(span[1] - span[0])

    return _indexed(index, size, read)


def open_indexed_bytes(data: bytes, index: object) -> IndexedRegistry | None:
    """A document already read (and verified) with its parsed index: the same views, its spans sliced from memory."""
    return _indexed(index, len(data), lambda span: data[span[0]:span[1]])


def _indexed(index: object, size: int, read_bytes: Callable[[list[int]], bytes]) -> IndexedRegistry | None:
    """The registry over a document of `size` bytes whose spans `read_bytes` gives, or None when the index does not
    fit it."""
    try:
        if not isinstance(index, dict) or index.get("format") != INDEX_FORMAT or index.get("document_bytes") != size:
            return None
        sections: dict[str, list[int]] = index["sections"]
    except (KeyError, TypeError):
        return None

    def read(span: list[int]) -> Any:
        return json.loads(read_bytes(span))

    def read_section(name: str) -> Any:
        return read(sections[name]) if name in sections else None

    def reader(span: list[int]) -> Callable[[], dict[str, Any]]:
        return lambda: read(span)

    try:
        document = {name: read(sections[name]) for name in EAGER_SECTIONS if name in sections}
        families = [_LazyFamily(entry, reader(entry["span"])) for entry in index["families"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return IndexedRegistry(document, families, read_section)
