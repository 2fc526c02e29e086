"""Compile a registry once per content: the cache of compiled documents.

An entry is three files in the cache folder: `registry-<key>.json` (the document), `registry-<key>.index.json`
(its index) and `stamp.json` (content_key.Stamp: what the newest key was computed from). Rules:
- the key is computed before the compile and again after it; when they differ (an edit landed while it
  compiled), the result is answered from but never cached, so the next run compiles the edited registry;
- every file is written atomically (a temporary, then a rename) and the document last;
- every read is verified: the index names the key, the document's size and its sha256, and a document or index
  that is not what its name says (truncated, corrupt, foreign, from an older format) is compiled afresh, never
  trusted and never a traceback;
- a cache that cannot be written (a read-only clone, a full disk) only costs the compile: the texts are answered
  from memory.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from neuron_compat.document.compile import Compiled, compile_registry
from neuron_compat.document.content_key import Stamp, compute
from neuron_compat.loading.problems import Problem
from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file

MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
MAX_SIDE_FILE_BYTES = 16 * 1024 * 1024
KEEP_ENTRIES = 3
"""Entries kept besides the newest (another branch's, a concurrent run's): the oldest beyond these are removed."""
STAMP = "stamp.json"


@dataclass(frozen=True)
class CachedDocument:
    """A compiled document to answer from: its files in the cache (with the bytes a read verified), and its texts
    when this run compiled it."""

    key: str
    document_path: Path | None = None
    index_path: Path | None = None
    compiled: Compiled | None = None
    data: bytes | None = None
    """The cached document's bytes as verified (read once: the answer reads them, not the file again)."""
    index: dict[str, object] | None = None
    """Its index, parsed."""


class CompileFailed(Exception):
    """The registry does not validate: its problems."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


def _read_json(path: Path, limit: int) -> object:
    try:
        return json.loads(read_regular_file(path, limit))
    except (UnreadableFile, ValueError):
        return None


def _paths(cache: Path, key: str) -> tuple[Path, Path]:
    return cache / f"registry-{key}.json", cache / f"registry-{key}.index.json"


def verified(cache: Path, key: str) -> CachedDocument | None:
    """The cached entry of `key` when its index names that key and its document is exactly the one it indexed."""
    document, index = _paths(cache, key)
    meta = _read_json(index, MAX_SIDE_FILE_BYTES)
    if not isinstance(meta, dict) or meta.get("content_key") != key:
        return None
    try:
        data = read_regular_file(document, MAX_DOCUMENT_BYTES)
    except UnreadableFile:
        return None
    if len(data) != meta.get("document_bytes") or hashlib.sha256(data).hexdigest() != meta.get("document_sha256"):
        return None
    return CachedDocument(key, document, index, data=data, index=meta)


def _index_with_key(compiled: Compiled, key: str) -> str:
    """The index text with what a reader verifies: the content key and the document's sha256."""
    index = json.loads(compiled.index)
    index["content_key"] = key
    index["document_sha256"] = hashlib.sha256(compiled.document.encode("utf-8")).hexdigest()
    return json.dumps(index, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n"


def cached_compile(registry: Path, cache: Path, code: Path, salt: str) -> CachedDocument:
    """The registry's compiled document, from the cache when its content was compiled before. `code` is the
    package folder (its .py files are part of the key); `salt` the versions and formats. Raises CompileFailed."""
    from neuron_compat.safeio.atomic_write import write_atomically

    folders = [("registry", registry), ("code", code)]
    previous = Stamp.from_json(_read_json(cache / STAMP, MAX_SIDE_FILE_BYTES))
    before = compute(folders, salt, previous)
    found = verified(cache, before.key)
    if found is not None:
        if previous is None or before.files_read:  # a newer stamp: files read now need not be read next time
            _write_stamp(cache, before)
        return found
    compiled = compile_registry(registry)
    if isinstance(compiled, list):
        raise CompileFailed(compiled)
    after = compute(folders, salt, before)
    if after.key != before.key:  # edited while it compiled: answer from it, never cache it under either key
        return CachedDocument(before.key, compiled=compiled)
    document, index = _paths(cache, before.key)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        write_atomically(index, _index_with_key(compiled, before.key))
        write_atomically(document, compiled.document)  # last: a reader verifies the pair against the index
    except OSError:
        return CachedDocument(before.key, compiled=compiled)
    _write_stamp(cache, after)
    _prune(cache, before.key)
    return CachedDocument(before.key, document, index, compiled=compiled)  # answered from memory, not read back


def _write_stamp(cache: Path, stamp: Stamp) -> None:
    from neuron_compat.safeio.atomic_write import write_atomically

    try:
        cache.mkdir(parents=True, exist_ok=True)
        write_atomically(cache / STAMP, json.dumps(stamp.to_json(), separators=(",", ":")) + "\n")
    except OSError:
        pass  # the stamp only saves reading: without it, the next run reads the files again


def _prune(cache: Path, newest: str) -> None:
    """Remove the entries beyond the newest KEEP_ENTRIES others (by modification time), never the newest."""
    try:
        documents = [p for p in cache.glob("registry-*.json") if not p.name.endswith(".index.json")]
        documents.sort(key=lambda p: p.stat().st_mtime_ns, reverse=True)
    except OSError:
        return
    others = [p for p in documents if p.name != f"registry-{newest}.json"]
    for old in others[KEEP_ENTRIES:]:
        key = old.name.removeprefix("registry-").removesuffix(".json")
        for path in _paths(cache, key):
            try:
                os.unlink(path)
            except OSError:
                pass
