"""Read a published registry document (the site's api/registry.json) over HTTPS, with a local cache.

One GET with a timeout on every socket operation, an overall deadline (deadline.py: a server that trickles
its headers or body cannot hold it) and a size cap enforced while reading; the answer is validated against
the contract before it is cached. The cache keeps each data version under its own name, keyed by the URL, plus
a `latest.json` with the ETag, so a repeated check sends `If-None-Match` and `--offline` answers from the newest
copy. When the network fails and a copy is cached, that copy answers and the origin says so.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import http.client
import json
import math
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from neuron_compat import __version__
from neuron_compat.check.compiled_view import document_problem, parse_document
from neuron_compat.registry_sources.errors import RegistrySourceError
from neuron_compat.safeio.bounded_read import UnreadableFile, read_regular_file
from neuron_compat.safeio.deadline import DeadlineExceeded, call_with_deadline

MAX_DOCUMENT_BYTES = 64 * 1024 * 1024
"""The bundled registry compiles to under a megabyte; the benchmark's 5,000 synthetic families to about 38 MB."""
DEFAULT_TIMEOUT = 10.0
TIMEOUT_ENV = "NEURON_COMPAT_HTTP_TIMEOUT"
CACHE_ENV = "NEURON_COMPAT_CACHE"
_LOOPBACK = {"127.0.0.1", "localhost", "::1"}
_SAFE_DATA_VERSION = re.compile(r"[0-9]{4}\.[0-9]{1,2}\.[0-9]{1,6}", re.ASCII)
_CHUNK = 256 * 1024
_MAX_META_BYTES = 64 * 1024  # latest.json: a URL, an ETag and a file name


@dataclass(frozen=True)
class FetchedDocument:
    document: dict[str, Any]
    from_cache: bool
    note: str | None = None  # why a cached copy answered, when it did


def is_url(text: str) -> bool:
    return text.lower().startswith(("https://", "http://"))


def check_url(url: str) -> str:
    """The URL if it may be read: https anywhere, http only on this machine (a local build of the site)."""
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in url) or len(url) > 2000:
        raise RegistrySourceError("the registry URL must be one line without spaces", unreachable=False)
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number from 0 to 65535
    except ValueError as error:  # "https://[::1" (an unclosed IPv6 address), "https://host:99999/"
        raise RegistrySourceError(f"{url}: not a usable URL ({error})", unreachable=False) from None
    if parts.scheme == "http" and (parts.hostname or "") in _LOOPBACK:
        return url
    if parts.scheme != "https" or not parts.hostname:
        raise RegistrySourceError(f"{url}: the registry URL must be https:// (http:// only for localhost)",
                                  unreachable=False)
    return url


def request_timeout(environ: Mapping[str, str]) -> float:
    raw = environ.get(TIMEOUT_ENV)
    if raw is None or raw == "":
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= 600):
        raise RegistrySourceError(f"{TIMEOUT_ENV}={raw[:40]!r} is not a number of seconds between 0 and 600",
                                  unreachable=False)
    return value


def cache_root(environ: Mapping[str, str]) -> Path:
    if environ.get(CACHE_ENV):
        return Path(environ[CACHE_ENV])
    base = environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "neuron-compat"


class _Cache:
    """cache_root/registry/<hash of the URL>/<data_version>.json and latest.json."""

    def __init__(self, root: Path, url: str) -> None:
        self.folder = root / "registry" / hashlib.sha256(url.encode("utf-8")).hexdigest()[:24]
        self.url = url

    def latest(self) -> dict[str, Any] | None:
        try:
            meta = json.loads(read_regular_file(self.folder / "latest.json", _MAX_META_BYTES))
        except (UnreadableFile, ValueError):
            return None
        return meta if isinstance(meta, dict) and meta.get("url") == self.url else None

    def read(self) -> dict[str, Any] | None:
        meta = self.latest()
        if meta is None or not isinstance(meta.get("file"), str) or "/" in meta["file"]:
            return None
        try:
            return parse_document(read_regular_file(self.folder / meta["file"], MAX_DOCUMENT_BYTES))
        except (UnreadableFile, ValueError):
            return None

    def write(self, data: bytes, document: dict[str, Any], etag: str | None) -> None:
        """Best effort: a cache that cannot be written never fails the check."""
        from neuron_compat.safeio.atomic_write import write_atomically

        version = document.get("data_version")
        name = f"{version}.json" if isinstance(version, str) and _SAFE_DATA_VERSION.fullmatch(version) \
            else "unversioned.json"
        meta = {"url": self.url, "file": name, "data_version": version, "etag": etag,
                "fetched": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomically(self.folder / name, data.decode("utf-8"))
            write_atomically(self.folder / "latest.json", json.dumps(meta, indent=1) + "\n")
        except (OSError, ValueError):
            pass


class _SameSchemeRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req: urllib.request.Request, fp: IO[bytes], code: int, msg: str,
                         headers: http.client.HTTPMessage, newurl: str) -> urllib.request.Request | None:
        check_url(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _download(opener: urllib.request.OpenerDirector, request: urllib.request.Request, url: str, timeout: float,
              deadline: float) -> tuple[bytes, str | None]:
    """The body and ETag of one GET (run under call_with_deadline: a trickling server cannot hold it)."""
    with opener.open(request, timeout=timeout) as response:
        return _read_bounded(response, url, deadline), response.headers.get("ETag")


def _read_bounded(response: Any, url: str, deadline: float) -> bytes:
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > MAX_DOCUMENT_BYTES:
        raise RegistrySourceError(f"{url}: {int(declared)} bytes is too large for a registry document "
                                  f"(limit {MAX_DOCUMENT_BYTES} bytes)", unreachable=False)
    chunks: list[bytes] = []
    size = 0
    while True:
        if time.monotonic() > deadline:  # also ends an abandoned download soon after the caller gave up on it
            raise TimeoutError("timed out")
        chunk = response.read1(_CHUNK)  # what has arrived: one slow byte at a time cannot outlast the deadline
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > MAX_DOCUMENT_BYTES:
            raise RegistrySourceError(f"{url}: more than {MAX_DOCUMENT_BYTES} bytes is too large for a registry "
                                      "document", unreachable=False)
        chunks.append(chunk)


def fetch_document(url: str, *, offline: bool = False,
                   environ: Mapping[str, str] = os.environ) -> FetchedDocument:
    """The registry document at `url` (validated), from the network or the cache."""
    url = check_url(url)
    timeout = request_timeout(environ)
    cache = _Cache(cache_root(environ), url)
    if offline:
        cached = cache.read()
        if cached is None:
            raise RegistrySourceError(f"{url}: no cached copy (run once without --offline)", unreachable=True)
        return FetchedDocument(cached, from_cache=True, note="--offline")

    meta = cache.latest()
    cached = cache.read()
    headers = {"User-Agent": f"neuron-compat/{__version__}", "Accept": "application/json"}
    if cached is not None and meta and isinstance(meta.get("etag"), str):
        headers["If-None-Match"] = meta["etag"]
    opener = urllib.request.build_opener(_SameSchemeRedirects)
    seconds = 3 * timeout
    request = urllib.request.Request(url, headers=headers)
    try:
        data, etag = call_with_deadline(
            lambda: _download(opener, request, url, timeout, time.monotonic() + seconds), seconds, "registry-fetch")
    except urllib.error.HTTPError as error:
        if error.code == 304 and cached is not None:
            return FetchedDocument(cached, from_cache=True, note="not modified since it was cached")
        if error.code >= 500 and cached is not None:
            return FetchedDocument(cached, from_cache=True, note=f"the server answered {error.code}")
        raise RegistrySourceError(f"{url}: HTTP {error.code} {error.reason}", unreachable=True) from None
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException, DeadlineExceeded) as error:
        # HTTPException: not HTTP at all (a bad status line, endless or overlong headers, a cut-off chunk)
        reason = getattr(error, "reason", None) or error
        if isinstance(reason, (TimeoutError, DeadlineExceeded)) or "timed out" in str(reason):
            text = "timed out"
        elif isinstance(reason, http.client.HTTPException):
            named = type(reason) is not http.client.HTTPException
            text = f"not a valid HTTP answer: {type(reason).__name__ if named else str(reason)[:80]}"
        else:
            text = str(reason)
        if cached is not None:
            return FetchedDocument(cached, from_cache=True, note=f"the network failed: {text}")
        raise RegistrySourceError(f"{url}: could not be reached ({text})", unreachable=True) from None

    try:
        document = parse_document(data)
    except ValueError as error:
        raise RegistrySourceError(f"{url}: {error}", unreachable=False) from None
    problem = document_problem(document)
    if problem:
        raise RegistrySourceError(f"{url}: {problem}", unreachable=False)
    cache.write(data, document, etag)
    return FetchedDocument(document, from_cache=False)
