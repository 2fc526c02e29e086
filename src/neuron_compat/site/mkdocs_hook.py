"""mkdocs hook: the thin adapter between mkdocs and the pure site generator (`render.render_site`).

Referenced from mkdocs.yml (`hooks:`). Per build it loads and validates the registry once, before mkdocs
cleans the output folder (so an invalid registry leaves the previous build untouched), then adds every
generated page and data file as an in-memory `File.generated(...)` (nothing is written into site/),
fills the generation markers of hand-written pages, and points "edit this page" at the family's YAML.

The registry folder is NEURON_COMPAT_REGISTRY if set, else `registry` beside mkdocs.yml (relative values
are taken relative to mkdocs.yml, never to the current directory).
"""

from __future__ import annotations

import calendar
import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from neuron_compat.rules.validation import validate_registry
from neuron_compat.site.markers import MarkerError, fill_markers
from neuron_compat.site.render import FRAGMENT_PAGES, RenderedSite, render_site
from neuron_compat.site.upstream import load_hub_snapshots
from neuron_compat.site.urls import RELEASE_FEED, edit_url

REGISTRY_ENV = "NEURON_COMPAT_REGISTRY"
log = logging.getLogger("mkdocs.hooks.neuron_compat")

_state: dict[str, Any] = {}


def registry_root(config: Any) -> Path:
    base = Path(config.config_file_path).resolve().parent if config.config_file_path else Path.cwd()
    configured = Path(os.environ.get(REGISTRY_ENV) or "registry")
    return configured if configured.is_absolute() else (base / configured)


def _data_epoch(site_registry: Any) -> int:
    """A build date taken from the data (newest release or verification date), for reproducible output."""
    dates = [r.date for r in site_registry.releases]
    dates += [src.verified for f in site_registry.families for s in f.support for src in s.sources]
    newest = max(dates) if dates else None
    return calendar.timegm(newest.timetuple()) if newest else 0


def on_pre_build(config: Any) -> None:
    root = registry_root(config)
    result = validate_registry(root)
    if result.problems:
        lines = "\n".join(problem.format() for problem in result.problems)
        raise PluginError(
            f"the registry at {root} has {len(result.problems)} problem(s); the site was not rebuilt:\n{lines}"
        )
    # mkdocs stamps sitemap dates from SOURCE_DATE_EPOCH when set: take it from the data, not the clock.
    os.environ.setdefault("SOURCE_DATE_EPOCH", str(_data_epoch(result.registry)))
    # The theme overrides (src/neuron_compat/site/theme/: the footer, the feed link in every head) read these.
    meta = result.registry.meta
    config.extra["neuron_compat"] = {
        "data_version": meta.data_version if meta else None,
        "newest_release": result.registry.newest_release,
        "release_feed": RELEASE_FEED,
    }
    _state["root"] = root
    _state["site"] = render_site(result.registry, load_hub_snapshots(root))
    log.info("neuron-compat: %d families, %d generated files", len(result.registry.families),
             len(_state["site"].files))


def on_files(files: Files, config: Any) -> Files:
    site: RenderedSite = _state["site"]
    for path in sorted(site.files):
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"site/{path} is generated from the registry: remove the hand-written file")
        files.append(File.generated(config, path, content=site.files[path]))
    for name, page in sorted(FRAGMENT_PAGES.items()):
        if files.get_file_from_path(page) is None:
            raise PluginError(f"site/{page} is missing: it must carry <!-- neuron-compat:{name} -->")
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    site: RenderedSite = _state["site"]
    src = page.file.src_uri
    if src in site.files:
        # Generated pages are edited through the registry, not through site/.
        family_id = src[len("families/"):-len(".md")] if src.startswith("families/") and src != "families/index.md" else None
        page.edit_url = edit_url(f"registry/families/{family_id}.yaml") if family_id else None
        return markdown
    try:
        return fill_markers(src, markdown, site.fragments, FRAGMENT_PAGES)
    except MarkerError as error:
        raise PluginError(str(error)) from None


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    root = _state.get("root") or registry_root(config)
    watched = {Path(p).resolve() for p in config.watch}
    if root.resolve() not in watched:
        server.watch(str(root))
    return server
