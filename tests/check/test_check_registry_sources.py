"""Which registry `check` answers from: --registry, $NEURON_COMPAT_REGISTRY, ./registry, the bundled snapshot,
and a published api/registry.json over HTTP (served here on 127.0.0.1), with its cache and --offline."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from check_helpers import CHECK_REGISTRY, CONFIGS, ROOT, bundled_snapshot, clean_env

from neuron_compat.publishing.registry_document import dumps, registry_to_json
from neuron_compat.rules.validation import validate_registry

QWEN = str(CONFIGS / "qwen3-8b.json")
BUNDLED = bundled_snapshot()[0]


def check(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", "check", *args], capture_output=True, text=True,
                          cwd=cwd, env=env or clean_env(), timeout=timeout, check=False)


def origin(result: subprocess.CompletedProcess) -> dict:
    assert result.stdout, result.stderr
    return json.loads(result.stdout)["registry"]


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


# --- the order: option, environment, working directory, bundled ---------------------------------------------

def test_outside_its_folder_a_clone_answers_from_its_own_registry_compiled(tmp_path):
    result = check(QWEN, "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr  # Qwen3-8B: supported with optimum-neuron today (views.answer)
    found = origin(result)
    assert found["chosen_by"] == "bundled" and found["kind"] == "bundled"
    assert found["data_version"] == json.loads(BUNDLED.read_text(encoding="utf-8"))["data_version"]
    table = check(QWEN, cwd=tmp_path)
    assert found["location"] == str(ROOT / "registry")
    assert (f"registry: snapshot compiled from this clone's registry ({ROOT / 'registry'}), data version "
            f"{found['data_version']}") in table.stdout


def test_the_environment_variable_comes_before_the_working_directory(tmp_path):
    shutil.copytree(CHECK_REGISTRY, tmp_path / "registry")
    assert origin(check(QWEN, "--json", cwd=tmp_path))["chosen_by"] == "working directory"
    env = clean_env(NEURON_COMPAT_REGISTRY=str(CHECK_REGISTRY))
    found = origin(check(QWEN, "--json", cwd=tmp_path, env=env))
    assert found == {"chosen_by": "NEURON_COMPAT_REGISTRY", "kind": "directory", "location": str(CHECK_REGISTRY),
                     "data_version": None, "from_cache": False, "note": None}
    found = origin(check(QWEN, "--json", "--registry", str(BUNDLED), cwd=tmp_path, env=env))
    assert found["chosen_by"] == "--registry" and found["kind"] == "file"


def test_a_folder_named_registry_that_is_not_one_is_passed_over(tmp_path):
    (tmp_path / "registry").mkdir()
    (tmp_path / "registry" / "notes.txt").write_text("not a registry", encoding="utf-8")
    assert origin(check(QWEN, "--json", cwd=tmp_path))["chosen_by"] == "bundled"


def test_a_compiled_document_answers_like_its_directory(tmp_path):
    document = tmp_path / "registry.json"
    document.write_text(dumps(registry_to_json(validate_registry(CHECK_REGISTRY).registry)), encoding="utf-8")
    from_file = json.loads(check(QWEN, "--json", "--registry", str(document), cwd=tmp_path).stdout)
    from_dir = json.loads(check(QWEN, "--json", "--registry", str(CHECK_REGISTRY), cwd=tmp_path).stdout)
    from_file.pop("registry"), from_dir.pop("registry")
    assert from_file == from_dir


def test_a_document_with_the_check_tables_of_an_older_version_still_answers(tmp_path):
    compiled = registry_to_json(validate_registry(CHECK_REGISTRY).registry)
    current = tmp_path / "current.json"
    current.write_text(dumps(compiled), encoding="utf-8")
    compiled["check_tables"] = {"not_carried": ["x"], "a_newer_table": [1]}  # sites before Pyodide published tables
    other = tmp_path / "other.json"
    other.write_text(dumps(compiled), encoding="utf-8")
    answers = [json.loads(check(QWEN, "--json", "--registry", str(path), cwd=tmp_path).stdout) for path in (current, other)]
    assert [answer.pop("registry")["kind"] for answer in answers] == ["file", "file"]
    assert answers[0] == answers[1]


@pytest.mark.parametrize("content, message", [
    ("[1, 2]", "not a registry document (expected a JSON object)"),
    ('{"format": 1,', "not JSON (1:14: Expecting property name enclosed in double quotes)"),
    ('{"hello": 1}', "not a registry document (no 'format' number; expected the site's api/registry.json)"),
    ('{"format": ' + "9" * 5000 + "}", "not JSON (a number with more than 4300 digits)"),
    ('{"format": 99, "releases": [], "stacks": [], "families": []}',
     "the registry document has format 99; this neuron-compat reads format 1: upgrade it"),
    ('{"format": 1, "releases": [], "stacks": [], "families": [{"id": "x"}]}',
     "not a valid registry document: families.0.name: Field required"),
])
def test_a_bad_compiled_document_is_one_line_of_bad_input(tmp_path, content, message):
    document = tmp_path / "registry.json"
    document.write_text(content, encoding="utf-8")
    result = check(QWEN, "--registry", str(document), cwd=tmp_path)
    assert result.returncode == 1
    assert one_line(result).startswith(f"neuron-compat check: {document}: {message}")


def test_check_on_the_snapshot_imports_no_site_tools_and_no_pydantic_models(tmp_path):
    probe = ("import sys, contextlib, io\n"
             "from neuron_compat.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()):\n"
             f"    code = main(['check', {QWEN!r}])\n"
             "heavy = sorted(m for m in ('mkdocs', 'jinja2', 'markupsafe', 'huggingface_hub', 'pydantic.main', 'yaml',"
             " 'neuron_compat.contract.models') if m in sys.modules)\n"
             "print(code, heavy)\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                            env=clean_env(), timeout=60, check=False)
    assert result.stdout.strip() == "0 []", result.stderr


# --- a published registry over HTTP -------------------------------------------------------------------------

class _Site:
    """A tiny web server on 127.0.0.1 that publishes what a test tells it to, and counts requests."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[int, bytes, dict[str, str], float]] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                site.requests.append((self.path, dict(self.headers)))
                status, body, headers, delay = site.routes.get(self.path, (404, b"not found", {}, 0.0))
                if delay:
                    time.sleep(delay)
                etag = headers.get("ETag")
                if etag and self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.end_headers()
                    return
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                if "Content-Length" not in headers:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def site():
    served = _Site()
    yield served
    served.stop()


@pytest.fixture
def published() -> bytes:
    document = registry_to_json(validate_registry(CHECK_REGISTRY).registry)
    document["data_version"] = "2026.12.7"
    return dumps(document).encode("utf-8")


@pytest.fixture
def web_env(tmp_path) -> dict[str, str]:
    return clean_env(NEURON_COMPAT_CACHE=str(tmp_path / "cache"), NEURON_COMPAT_HTTP_TIMEOUT="1")


def test_a_published_registry_answers_and_is_cached_by_data_version(site, published, web_env, tmp_path):
    site.routes["/api/registry.json"] = (200, published, {"ETag": '"v7"'}, 0.0)
    url = f"{site.url}/api/registry.json"
    result = check(QWEN, "--json", "--registry", url, cwd=tmp_path, env=web_env)
    assert result.returncode in (0, 3, 4), result.stderr
    assert origin(result) == {"chosen_by": "--registry", "kind": "url", "location": url,
                              "data_version": "2026.12.7", "from_cache": False, "note": None}
    cached = list((tmp_path / "cache" / "registry").glob("*/2026.12.7.json"))
    assert len(cached) == 1 and cached[0].read_bytes() == published
    # the second run asks with the ETag and is told nothing changed
    again = origin(check(QWEN, "--json", "--registry", url, cwd=tmp_path, env=web_env))
    assert site.requests[-1][1].get("If-None-Match") == '"v7"'
    assert again["from_cache"] and again["note"] == "not modified since it was cached"
    # --offline never asks the network; with the server gone, the cache answers and says why
    asked = len(site.requests)
    offline = origin(check(QWEN, "--json", "--registry", url, "--offline", cwd=tmp_path, env=web_env))
    assert len(site.requests) == asked and offline["from_cache"] and offline["note"] == "--offline"
    site.stop()
    down = check(QWEN, "--registry", url, cwd=tmp_path, env=web_env)
    assert "from the local cache (the network failed:" in down.stdout
    assert "data version 2026.12.7" in down.stdout


def test_the_environment_variable_takes_a_url_too(site, published, web_env, tmp_path):
    site.routes["/r.json"] = (200, published, {}, 0.0)
    env = {**web_env, "NEURON_COMPAT_REGISTRY": f"{site.url}/r.json"}
    found = origin(check(QWEN, "--json", cwd=tmp_path, env=env))
    assert found["chosen_by"] == "NEURON_COMPAT_REGISTRY" and found["kind"] == "url"


@pytest.mark.parametrize("route, expected_code, message", [
    ((404, b"no", {}, 0.0), 2, "HTTP 404 Not Found"),
    ((200, b"{}", {}, 3.0), 2, "could not be reached (timed out)"),
    ((200, b"<html>oops</html>", {}, 0.0), 1, "not JSON (1:1: Expecting value)"),
    ((200, b'{"format": 1, "releases": "x", "stacks": [], "families": []}', {}, 0.0), 1,
     "not a valid registry document: releases: Input should be a valid list"),
    ((200, b"", {"Content-Length": str(128 * 1024 * 1024)}, 0.0), 1,
     "134217728 bytes is too large for a registry document (limit 67108864 bytes)"),
])
def test_a_bad_published_registry_is_one_line_with_the_hub_exit_codes(site, web_env, tmp_path, route,
                                                                      expected_code, message):
    site.routes["/api/registry.json"] = route
    url = f"{site.url}/api/registry.json"
    result = check(QWEN, "--registry", url, cwd=tmp_path, env=web_env, timeout=30)
    assert result.returncode == expected_code, result.stderr
    assert one_line(result) == f"neuron-compat check: {url}: {message}"
    assert not list((tmp_path / "cache").rglob("*.json")), "nothing unusable is cached"


def test_an_oversized_body_without_a_length_is_cut_off_while_reading(site, web_env, tmp_path):
    body = b'{"format": 1, "pad": "' + b"x" * (65 * 1024 * 1024) + b'"}'
    site.routes["/big.json"] = (200, body, {"Content-Length": ""}, 0.0)
    result = check(QWEN, "--registry", f"{site.url}/big.json", cwd=tmp_path, env=web_env, timeout=60)
    assert result.returncode == 1
    assert one_line(result).endswith("more than 67108864 bytes is too large for a registry document")


def test_offline_without_a_cached_copy_and_plain_http_elsewhere_are_refused(tmp_path, web_env, closed_port):
    url = f"http://127.0.0.1:{closed_port}/api/registry.json"
    result = check(QWEN, "--registry", url, "--offline", cwd=tmp_path, env=web_env)
    assert result.returncode == 2
    assert one_line(result) == f"neuron-compat check: {url}: no cached copy (run once without --offline)"
    result = check(QWEN, "--registry", url, cwd=tmp_path, env=web_env)
    assert result.returncode == 2 and "could not be reached" in one_line(result)
    result = check(QWEN, "--registry", "http://example.com/api/registry.json", cwd=tmp_path, env=web_env)
    assert result.returncode == 1
    assert one_line(result).endswith("the registry URL must be https:// (http:// only for localhost)")
    for bad in ("nan", "-1", "inf", "soon"):
        result = check(QWEN, "--registry", url, cwd=tmp_path, env={**web_env, "NEURON_COMPAT_HTTP_TIMEOUT": bad})
        assert result.returncode == 1 and "is not a number of seconds between 0 and 600" in one_line(result)


def test_the_built_sites_own_api_registry_json_answers_like_its_registry(check_site_url, web_env, tmp_path):
    """The URL form reads what the site really publishes, not only documents the tests make."""
    url = f"{check_site_url}api/registry.json"
    from_site = json.loads(check(QWEN, "--json", "--registry", url, cwd=tmp_path, env=web_env).stdout)
    from_dir = json.loads(check(QWEN, "--json", "--registry", str(CHECK_REGISTRY), cwd=tmp_path).stdout)
    assert from_site.pop("registry")["kind"] == "url"
    from_dir.pop("registry")
    assert from_site == from_dir


# --- a server that is not a web server, or one that never finishes ---------------------------------------------

class _RawServer:
    """Answers every connection on 127.0.0.1 with `head`, then repeats `drip` four times a second for as long as
    the client listens: a trickle that keeps each socket wait shorter than the 1 s timeout but never ends."""

    def __init__(self, head: bytes, drip: bytes = b"") -> None:
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/api/registry.json"
        self.stopped = threading.Event()
        threading.Thread(target=self._serve, args=(head, drip), daemon=True).start()

    def _serve(self, head: bytes, drip: bytes) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(connection, head, drip), daemon=True).start()

    def _answer(self, connection: socket.socket, head: bytes, drip: bytes) -> None:
        with connection:
            try:
                connection.recv(65536)
                connection.sendall(head)
                while drip and not self.stopped.wait(0.25):
                    connection.sendall(drip)
            except OSError:
                pass

    def stop(self) -> None:
        self.stopped.set()
        self.socket.close()


@pytest.mark.parametrize("head, drip, message", [
    (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{", b" ", "could not be reached (timed out)"),
    (b"HTTP/1.1 200 OK\r\n", b"X-Slow: 1\r\n", "could not be reached (timed out)"),
    (b"HELLO THERE\r\n\r\n", b"", "could not be reached (not a valid HTTP answer: BadStatusLine)"),
    (b"HTTP/1.1 200 OK\r\n" + b"X: a\r\n" * 200 + b"\r\n", b"",
     "could not be reached (not a valid HTTP answer: got more than 100 headers)"),
    (b"HTTP/1.1 200 OK\r\nX: " + b"a" * 70000 + b"\r\n\r\n", b"",
     "could not be reached (not a valid HTTP answer: LineTooLong)"),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", b"",
     "could not be reached (not a valid HTTP answer: IncompleteRead)"),
], ids=["trickled-body", "trickled-headers", "not-http", "endless-headers", "overlong-header", "broken-chunk"])
def test_a_server_that_trickles_or_does_not_speak_http_is_one_line_of_unreachable(web_env, tmp_path, head, drip,
                                                                                  message):
    """With a 1 s timeout the deadline is 3 s: a server sending a byte every 0.25 s never times a read out, and
    must still end the check with an error (the subprocess timeout only catches a hang)."""
    server = _RawServer(head, drip)
    try:
        result = check(QWEN, "--registry", server.url, cwd=tmp_path, env=web_env, timeout=60)
    finally:
        server.stop()
    assert result.returncode == 2, result.stderr
    assert one_line(result) == f"neuron-compat check: {server.url}: {message}"


@pytest.mark.parametrize("url, reason", [
    ("https://[::1/api/registry.json", "Invalid IPv6 URL"),
    ("https://example.com:99999/api/registry.json", "Port out of range 0-65535"),
])
def test_a_url_that_cannot_be_parsed_is_one_line_of_bad_input(web_env, tmp_path, url, reason):
    result = check(QWEN, cwd=tmp_path, env={**web_env, "NEURON_COMPAT_REGISTRY": url})
    assert result.returncode == 1
    assert one_line(result) == f"neuron-compat check: {url}: not a usable URL ({reason})"


# --- issue 20: a short body, and a cache that is not what was cached ------------------------------------------

@pytest.mark.parametrize("missing", [1000, 1], ids=["1000-bytes-short", "1-byte-short"])
def test_a_body_shorter_than_its_content_length_is_refused_and_not_cached(published, web_env, tmp_path, missing):
    """The server declares more bytes than it sends, then closes: http.client returns what came as if complete."""
    head = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
            b"Content-Length: " + str(len(published) + missing).encode() + b"\r\n\r\n")
    server = _RawServer(head + published)
    try:
        result = check(QWEN, "--registry", server.url, cwd=tmp_path, env=web_env)
    finally:
        server.stop()
    assert result.returncode == 2, result.stderr
    assert one_line(result) == (f"neuron-compat check: {server.url}: could not be reached (the answer was cut off: "
                                f"{len(published)} of the {len(published) + missing} bytes it declared)")
    assert not list((tmp_path / "cache").rglob("*.json")), "a truncated answer is never cached"


@pytest.mark.parametrize("replacement", ['{"format": 1, "releases": {}, "stacks": [], "families": []}\n',
                                         '{"format": 1, "releases": [], "stacks": [], "families": [1, 2]}\n',
                                         '[1, 2, 3]\n'],
                         ids=["releases-a-mapping", "families-numbers", "a-list"])
def test_a_cached_copy_of_the_wrong_shape_is_refused_like_a_network_answer(site, published, web_env, tmp_path,
                                                                           replacement):
    site.routes["/api/registry.json"] = (200, published, {"ETag": '"v7"'}, 0.0)
    url = site.url + "/api/registry.json"
    assert check(QWEN, "--registry", url, cwd=tmp_path, env=web_env).returncode == 0
    (cached,) = (tmp_path / "cache" / "registry").glob("*/2026.12.7.json")
    cached.write_text(replacement, encoding="utf-8")
    offline = check(QWEN, "--registry", url, "--offline", cwd=tmp_path, env=web_env)
    assert offline.returncode == 2, offline.stderr
    line = one_line(offline)
    assert line.startswith(f"neuron-compat check: {url}: the cached copy is not usable (")
    assert line.endswith("); run once without --offline to fetch it again")
    site.stop()  # a dead server: the broken cache must not answer either
    down = check(QWEN, "--registry", url, cwd=tmp_path, env=web_env)
    assert down.returncode == 2, down.stderr
    assert one_line(down).startswith(f"neuron-compat check: {url}: could not be reached (")
