#!/usr/bin/env python3
"""Screenshots of every page type of the built site at 1280 and 390 px, for reviewers (not committed).

    neuron-compat site --out build/docs && mkdocs build --strict     # the site, into build/site/
    python scripts/screenshots.py                                    # into build/screenshots/
    python scripts/screenshots.py --site /tmp/site --full-page --family llama --family qwen3

Serves --site on 127.0.0.1 (any other request is blocked), opens each page type in Debian's chromium
(/usr/bin/chromium, through Playwright), and writes <page>-<width>.png: the first screen (800 px high), or the
whole page with --full-page. Family pages: --family (repeatable), else a fixed sample of those the site has.
Exits 2 with one line when the site or chromium is missing.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
WIDTHS = (1280, 390)
PAGES = ("", "check/", "families/", "matrix/", "configurations/", "releases/", "coverage/", "stacks/", "instances/",
         "contributing/", "schema/", "glossary/", "api/")
FAMILY_SAMPLE = ("llama", "qwen3", "mixtral", "flux", "bert", "custom-phi")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def page_list(site: Path, families: list[str]) -> list[str]:
    chosen = families or [f for f in FAMILY_SAMPLE if (site / "families" / f / "index.html").is_file()]
    releases = sorted((p.parent.name for p in (site / "releases").glob("*/index.html")),
                      key=lambda v: [int(x) if x.isdigit() else x for x in v.split(".")])
    extra = [f"releases/{releases[-1]}/"] if releases else []
    return [p for p in PAGES if (site / p / "index.html").is_file()] + [f"families/{f}/" for f in chosen] + extra


def name_of(path: str) -> str:
    return path.strip("/").replace("/", "-") or "home"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "build" / "site", help="the built site (default: build/site)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "screenshots",
                        help="where the PNG files go (default: build/screenshots)")
    parser.add_argument("--family", action="append", default=[], help="a family page to include (repeatable)")
    parser.add_argument("--full-page", action="store_true", help="the whole page, not the first screen")
    args = parser.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(f"error: {args.site} holds no built site: run `neuron-compat site --out build/docs && mkdocs build`",
              file=sys.stderr)
        return 2
    if not CHROMIUM.exists():
        print(f"error: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(_Quiet, directory=str(args.site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            for width in WIDTHS:
                context = browser.new_context(viewport={"width": width, "height": 800})
                context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(base)
                              else route.abort())
                page = context.new_page()
                for path in page_list(args.site, args.family):
                    page.goto(base + path)
                    page.wait_for_load_state("networkidle")
                    target = args.out / f"{name_of(path)}-{width}.png"
                    page.screenshot(path=str(target), full_page=args.full_page)
                    written += 1
                context.close()
            browser.close()
    finally:
        server.shutdown()
    print(f"{args.out}: {written} screenshots", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
