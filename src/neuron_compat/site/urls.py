"""Where each generated file lives, and links between pages as relative URLs.

The site uses directory URLs (`families/llama.md` is served at `families/llama/`). Links are written
relative to the page that contains them, so the site works under any base path and from a file server.
"""

from __future__ import annotations

import posixpath
from functools import lru_cache
from urllib.parse import quote

from neuron_compat.contract.hub_ids import checkpoint_page_folder

REPO_URL = "https://github.com/neuron-compat/neuron-compat"
REPO_BRANCH = "main"


def page_url(src_path: str) -> str:
    """The directory URL (relative to the site root) of a Markdown page: 'families/llama.md' -> 'families/llama/'."""
    if not src_path.endswith(".md"):
        return src_path
    stem = src_path[: -len(".md")]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


@lru_cache(maxsize=4096)
def relative_url(target: str, from_page_url: str) -> str:
    """`target` (root-relative URL, may end with '/' or carry '#fragment') as seen from a page at `from_page_url`.

    Both are anchored at '/' before `relpath`, which then has no reason to ask the process for its working
    directory (a system call per call, thousands per site); URL paths never climb above the root."""
    if target.startswith("#"):
        return target
    path, _, fragment = target.partition("#")
    base = "/" + (from_page_url.rstrip("/") or ".")
    if path in ("", "/"):
        rel = posixpath.relpath("/", base) + "/"
    else:
        rel = posixpath.relpath("/" + path.rstrip("/"), base)
        if path.endswith("/"):
            rel += "/"
    if rel == "./":
        rel = "./"
    return rel + (f"#{fragment}" if fragment else "")


def family_page(family_id: str) -> str:
    return f"families/{family_id}.md"


def family_url(family_id: str, anchor: str | None = None) -> str:
    return page_url(family_page(family_id)) + (f"#{anchor}" if anchor else "")


def checkpoint_page(hub_id: str) -> str:
    """The page of a Hub checkpoint (pages/checkpoints.py), always an `index.md` two folders below checkpoints/:
    'meta-llama/Llama-3.1-8B' -> 'checkpoints/meta-llama/Llama-3.1-8B/index.md' (contract.hub_ids says why no two
    ids share one)."""
    return f"{checkpoint_page_folder(hub_id)}/index.md"


def checkpoint_url(hub_id: str) -> str:
    return page_url(checkpoint_page(hub_id))


def release_page(version: str) -> str:
    return f"releases/{version}.md"


RELEASE_FEED = "releases/feed.xml"
"""The Atom feed of the release pages (pages/release_feed.py); every page's head links it (theme/main.html)."""


def release_url(version: str) -> str:
    return page_url(release_page(version))


def family_json(family_id: str) -> str:
    return f"api/families/{family_id}.json"


def family_feed(family_id: str) -> str:
    """The Atom feed of one family's changes by release (pages/release_feed.py)."""
    return f"api/feeds/{family_id}.xml"


def badge_json(family_id: str, stack: str, workload: str) -> str:
    return f"api/badges/{family_id}/{stack}-{workload}.json"


def schema_json(kind: str) -> str:
    return f"api/schemas/{kind}.schema.json"


def edit_url(repo_path: str) -> str:
    """GitHub's editor for a file of the repository (e.g. 'registry/families/llama.yaml')."""
    return f"{REPO_URL}/edit/{REPO_BRANCH}/{quote(repo_path)}"


def source_url(repo_path: str) -> str:
    return f"{REPO_URL}/blob/{REPO_BRANCH}/{quote(repo_path)}"


def new_issue_url(template: str, title: str, **fields: str) -> str:
    """A pre-filled new-issue link (issue forms pick up query parameters named after their field ids)."""
    params = [("template", template), ("title", title), *sorted(fields.items())]
    query = "&".join(f"{quote(key)}={quote(value, safe='')}" for key, value in params)
    return f"{REPO_URL}/issues/new?{query}"
