"""A small fake of the Hugging Face Hub's HTTP API, for huggingface_hub's own client code to talk to.

It answers what huggingface_hub 2.x requests for `hf_hub_download` / `get_hf_file_metadata` and `list_models`
(read from its source: file_download.py, utils/_http.py `hf_raise_for_status`, hf_api.py `list_models`):

- `HEAD|GET /{repo_id}/resolve/{revision}/{filename}`: 200 with `X-Repo-Commit`, `ETag` and `Content-Length`
  (the client refuses a response without the first two); or a 307 to `/api/resolve-cache/models/...` on the
  same host, as the Hub does for regular files (the client follows same-host redirects itself).
- errors with the status and `X-Error-Code` the client maps to exceptions: `RepoNotFound` (401, as the Hub
  answers for missing and private repos), `GatedRepo` (401 without a token, 403 with a token that has no
  access), `RevisionNotFound` (404), `EntryNotFound` (404, with `X-Repo-Commit`).
- `GET /api/models?pipeline_tag=&sort=downloads&limit=&expand=`: a JSON list of models, highest downloads
  first, paginated with a `Link: <...>; rel="next"` header like the Hub.
- a per-repo delay, to test timeouts.
- `gzip_get`: the GET body sent gzip-encoded whatever the client asked for (HEAD keeps the plain size), as a
  hostile server would send a gzip bomb.

Started on 127.0.0.1 on a free port by `FakeHub.start()`; every request is recorded in `FakeHub.requests`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, unquote, urlsplit

GOOD_TOKEN = "hf_fake_token_with_access"


@dataclass
class FakeRepo:
    files: dict[str, bytes]
    revisions: dict[str, str] = field(default_factory=lambda: {"main": "a" * 40})
    gated: bool = False
    delay: float = 0.0
    redirect: bool = False
    downloads: int = 0
    pipeline_tag: str | None = None
    sizeless: bool = False  # HEAD answers without Content-Length (the size of the body is not given)
    gzip_get: bytes | None = None  # GET sends gzip(this) with Content-Encoding: gzip, whatever was asked


@dataclass
class Seen:
    method: str
    path: str
    authorization: str | None
    accept_encoding: str | None = None


class FakeHub:
    def __init__(self) -> None:
        self.repos: dict[str, FakeRepo] = {}
        self.requests: list[Seen] = []
        self.page_size = 2
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def add(self, repo_id: str, files: dict[str, bytes | str | dict], **options) -> FakeRepo:
        encoded = {name: (json.dumps(body).encode() if isinstance(body, dict) else
                          body.encode() if isinstance(body, str) else body) for name, body in files.items()}
        repo = FakeRepo(files=encoded, **options)
        self.repos[repo_id] = repo
        return repo

    def start(self) -> FakeHub:
        hub = self

        class Handler(_Handler):
            fake = hub

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, name="fake-hub", daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


class _Handler(BaseHTTPRequestHandler):
    fake: FakeHub
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet: pytest shows failures, not access logs
        pass

    def do_HEAD(self) -> None:
        self._answer(head=True)

    def do_GET(self) -> None:
        self._answer(head=False)

    # --- routing -----------------------------------------------------------------------------------

    def _answer(self, head: bool) -> None:
        self.fake.requests.append(Seen(self.command, self.path, self.headers.get("authorization"),
                                      self.headers.get("accept-encoding")))
        parts = urlsplit(self.path)
        path = parts.path
        if path == "/api/models":
            return self._list_models(parse_qs(parts.query), head)
        if path.startswith("/api/resolve-cache/models/"):
            return self._resolve_cache(path[len("/api/resolve-cache/models/"):], head)
        if "/resolve/" in path:
            repo_id, _, rest = path.lstrip("/").partition("/resolve/")
            revision, _, filename = rest.partition("/")
            return self._resolve(unquote(repo_id), unquote(revision), unquote(filename), head)
        self._error(404, None, "Not found", head)

    def _authorised(self, repo: FakeRepo) -> str | None:
        """None when access is granted, else 'anonymous' or 'denied'."""
        if not repo.gated:
            return None
        auth = self.headers.get("authorization") or ""
        if not auth:
            return "anonymous"
        return None if auth == f"Bearer {GOOD_TOKEN}" else "denied"

    def _resolve(self, repo_id: str, revision: str, filename: str, head: bool) -> None:
        repo = self.fake.repos.get(repo_id)
        if repo is not None and repo.delay:
            time.sleep(repo.delay)
        if repo is None:
            return self._error(401, "RepoNotFound", "Repository not found", head)
        access = self._authorised(repo)
        if access is not None:
            status = 401 if access == "anonymous" else 403
            return self._error(status, "GatedRepo", f"Access to model {repo_id} is restricted. You must have access "
                               "to it and be authenticated to access it. Please log in.", head)
        commit = repo.revisions.get(revision) or (revision if revision in repo.revisions.values() else None)
        if commit is None:
            return self._error(404, "RevisionNotFound", f"Invalid rev id: {revision}", head)
        body = repo.files.get(filename)
        if body is None:
            return self._error(404, "EntryNotFound", f"{filename} does not exist on \"{revision}\"", head,
                               {"X-Repo-Commit": commit})
        headers = {"X-Repo-Commit": commit, "ETag": _etag(body)}
        if repo.redirect:
            location = f"/api/resolve-cache/models/{repo_id}/{commit}/{quote(filename)}"
            return self._send(307, b"", head, {**headers, "Location": location, "Content-Type": "text/plain"})
        if repo.gzip_get is not None and not head:
            compressed = gzip.compress(repo.gzip_get)
            return self._send(200, compressed, head, {**headers, "Content-Type": "application/json",
                                                      "Content-Encoding": "gzip"})
        self._send(200, body, head, {**headers, "Content-Type": "application/json"}, sized=not (head and repo.sizeless))

    def _resolve_cache(self, rest: str, head: bool) -> None:
        pieces = rest.split("/")
        repo_id, commit, filename = "/".join(pieces[:-2]), pieces[-2], unquote(pieces[-1])
        repo = self.fake.repos.get(repo_id)
        if repo is None or commit not in repo.revisions.values() or filename not in repo.files:
            return self._error(404, "EntryNotFound", "not in cache", head)
        body = repo.files[filename]
        self._send(200, body, head, {"X-Repo-Commit": commit, "ETag": _etag(body), "Content-Type": "application/json"})

    def _list_models(self, query: dict[str, list[str]], head: bool) -> None:
        task = (query.get("pipeline_tag") or [None])[0]
        limit = int((query.get("limit") or ["1000"])[0])
        offset = int((query.get("offset") or ["0"])[0])
        expand = set(query.get("expand", []) + query.get("expand[]", []))
        models = sorted(((rid, r) for rid, r in self.fake.repos.items() if task is None or r.pipeline_tag == task),
                        key=lambda item: (-item[1].downloads, item[0]))
        chosen = models[:limit]
        page = chosen[offset:offset + self.fake.page_size]
        items = []
        for repo_id, repo in page:
            item = {"_id": hashlib.sha1(repo_id.encode()).hexdigest()[:24], "id": repo_id, "modelId": repo_id}
            if not expand or "downloads" in expand:
                item["downloads"] = repo.downloads
            if not expand or "pipeline_tag" in expand:
                item["pipeline_tag"] = repo.pipeline_tag
            if "gated" in expand:
                item["gated"] = "manual" if repo.gated else False
            items.append(item)
        headers = {"Content-Type": "application/json"}
        if offset + self.fake.page_size < len(chosen):
            params = {k: v for k, v in query.items() if k != "offset"}
            params["offset"] = [str(offset + self.fake.page_size)]
            query_text = "&".join(f"{k}={quote(v)}" for k, values in params.items() for v in values)
            headers["Link"] = f'<{self.fake.url}/api/models?{query_text}>; rel="next"'
        self._send(200, json.dumps(items).encode(), head, headers)

    # --- responses ---------------------------------------------------------------------------------

    def _error(self, status: int, code: str | None, message: str, head: bool, extra: dict[str, str] | None = None) -> None:
        headers = {"Content-Type": "application/json", "X-Error-Message": message, **(extra or {})}
        if code:
            headers["X-Error-Code"] = code
        self._send(status, json.dumps({"error": message}).encode(), head, headers)

    def _send(self, status: int, body: bytes, head: bool, headers: dict[str, str], sized: bool = True) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if sized:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.close_connection = True
        self.end_headers()
        if not head:
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha1(b"blob %d\0" % len(body) + body).hexdigest() + '"'
