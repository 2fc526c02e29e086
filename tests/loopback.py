"""A browser context that reaches only 127.0.0.1, for every browser test (the session's one chromium).

Importable as `loopback` from any test folder (tests/ is on sys.path through tests/conftest.py).
"""

from __future__ import annotations


def new_loopback_context(chromium: object) -> object:
    """A context that reaches only 127.0.0.1: anything else (Material asks GitHub for repo stars) is aborted, so
    no test depends on, or sends to, the outside network. The caller closes it."""
    context = chromium.new_context(viewport={"width": 1300, "height": 1000})  # type: ignore[attr-defined]
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1")
                  else route.abort())
    return context
