"""The complete documentation tree, engine-neutral: hand-written pages + generated files -> {path: bytes}.

Pure (no I/O): `documentation_tree` takes what `render_site` produced and the hand-written files of site/
(read by `tree_source.py`), fills the generation markers, and gives every Markdown page the front matter
the theme overrides read (`neuron_compat:` data version, feeds, where "edit this page" goes), so the
templates need nothing from an engine's hooks or `config.extra`. Any engine that reads `mkdocs.yml`
(mkdocs-material, Zensical) builds the result as plain files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from neuron_compat.site import urls
from neuron_compat.site.markers import MarkerError, fill_markers
from neuron_compat.site.render import FRAGMENT_PAGES, RenderedSite

FRONT_MATTER_KEY = "neuron_compat"
"""The one front-matter key the generator adds to every page (a hand-written page must not use it)."""


class TreeError(ValueError):
    """The hand-written pages and the generated ones do not fit together; str() names the file."""


@dataclass(frozen=True)
class TreeContext:
    data_version: str | None
    newest_release: str | None


def documentation_tree(site: RenderedSite, handwritten: dict[str, bytes], context: TreeContext) -> dict[str, bytes]:
    """Every file of the documentation tree by its docs-relative path, sorted by path. Takes the generated files
    out of `site.files` as it encodes them (its fragments stay)."""
    tree: dict[str, bytes] = {}
    for path, content in handwritten.items():
        if path in site.files:
            raise TreeError(f"site/{path} is generated from the registry: remove the hand-written file")
        if path.endswith(".md"):
            text = _text(path, content)
            try:
                text = fill_markers(path, text, site.fragments, FRAGMENT_PAGES)
            except MarkerError as error:
                raise TreeError(f"site/{error}") from None
            tree[path] = _with_page_meta(path, text, context, generated=False).encode("utf-8")
        else:
            tree[path] = content
    for name, page in sorted(FRAGMENT_PAGES.items()):
        if page not in handwritten:
            raise TreeError(f"site/{page} is missing: it must carry <!-- neuron-compat:{name} -->")
    for path in list(site.files):  # each generated text is let go once encoded: the tree is held once, not twice
        text = site.files.pop(path)
        tree[path] = (_with_page_meta(path, text, context, generated=True) if path.endswith(".md") else text).encode("utf-8")
    return dict(sorted(tree.items()))


def page_meta(path: str, context: TreeContext, generated: bool) -> dict[str, object]:
    """What the theme overrides read from `page.meta.neuron_compat` (URLs relative to the page)."""
    here = urls.page_url(path)
    meta: dict[str, object] = {
        "data_version": context.data_version,
        "newest_release": context.newest_release,
        "release_feed": urls.relative_url(urls.RELEASE_FEED, here),
    }
    if generated:
        # Generated pages are edited through the registry: a family page opens its YAML, the others nothing.
        family_id = _family_id(path)
        meta["edit_url"] = urls.edit_url(f"registry/families/{family_id}.yaml") if family_id else ""
        if family_id:
            meta["family_feed"] = urls.relative_url(urls.family_feed(family_id), here)
    return meta


def _family_id(path: str) -> str | None:
    if path.startswith("families/") and path.endswith(".md") and path != "families/index.md" and path.count("/") == 1:
        return path[len("families/"):-len(".md")]
    return None


def _with_page_meta(path: str, markdown: str, context: TreeContext, generated: bool) -> str:
    line = f"{FRONT_MATTER_KEY}: {json.dumps(page_meta(path, context, generated), ensure_ascii=False, sort_keys=True, allow_nan=False)}\n"
    if not markdown.startswith("---\n"):
        return f"---\n{line}---\n\n{markdown}"
    end = markdown.find("\n---\n", 3)
    if end < 0:
        raise TreeError(f"site/{path}: its front matter (from the first '---') has no closing '---' line")
    head = markdown[4:end + 1]
    if any(existing.startswith(f"{FRONT_MATTER_KEY}:") for existing in head.splitlines()):
        raise TreeError(f"site/{path}: front matter key '{FRONT_MATTER_KEY}' is the generator's; rename it")
    return "---\n" + head + line + markdown[end + 1:]


def _text(path: str, content: bytes) -> str:
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TreeError(f"site/{path}: not UTF-8 text (byte {error.start})") from None
