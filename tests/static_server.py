"""The server the browser tests read a built site from: a threading http.server on 127.0.0.1 and a free port.

Importable as `static_server` from any test folder (tests/ is on sys.path through tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from pathlib import Path


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Files as a web host serves them, the check page's Python runtime included, with no access log."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,  # noqa: RUF012
                      ".wasm": "application/wasm", ".mjs": "text/javascript"}

    def log_message(self, format: str, *args: object) -> None:
        pass


class StaticServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that closes a connection mid-answer (a page left, a worker stopped) is not a server error;
        anything else is printed as http.server does."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@contextlib.contextmanager
def serving(directory: Path) -> Iterator[str]:
    """The base URL of `directory` served for the duration of the block."""
    server = StaticServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
