"""A browser context that reaches only 127.0.0.1, for every browser test (the session's one chromium).

Importable as `loopback` from any test folder (tests/ is on sys.path through tests/conftest.py).
"""

from __future__ import annotations


def new_loopback_context(chromium: object, width: int = 1300, height: int = 1000,
                         outside: list[str] | None = None) -> object:
    """A context `width` x `height` px that reaches only 127.0.0.1: anything else (Material asks GitHub for repo
    stars) is aborted, so no test depends on, or sends to, the outside network; with `outside`, each aborted URL
    is recorded there. The caller closes it."""
    context = chromium.new_context(viewport={"width": width, "height": height})  # type: ignore[attr-defined]

    def route(request_route) -> None:  # type: ignore[no-untyped-def]
        if request_route.request.url.startswith("http://127.0.0.1"):
            request_route.continue_()
        else:
            if outside is not None:
                outside.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)  # type: ignore[attr-defined]
    return context
