#!/usr/bin/env python3
"""Offline audit of every `sources[].url` in the registry against local evidence.

GitHub file URLs (blob/tree at a tag, with an optional #La-Lb range) are checked in the bare git mirrors under
--mirrors (owner+name/repo, as the `fetch` tool writes them); optimum-neuron and transformers files also in
their PyPI wheel or sdist (`pip download --no-deps`, cached under --cache). AWS Neuron docs pages
(awsdocs-neuron.readthedocs-hosted.com/en/<version>/<page>.html) are matched to their .rst/.md/.ipynb source
in the aws-neuron/aws-neuron-sdk mirror at that tag (latest: the mirror's newest commit). Anything without
local evidence is `unverifiable (reason)`, never ok.

Prints `file:line: url: problem` per problem and a count per outcome; exit 1 when a URL is definitely broken
(path missing at the cited tag, lines past the end of the file, unknown tag), else 0.

Usage::

    python scripts/audit_sources.py                       # may pip-download the cited releases
    python scripts/audit_sources.py --offline             # only what is already cached
    python scripts/audit_sources.py --only 'capabilities/*.yaml' --first-line
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from neuron_compat.audit.local_evidence import PackageFiles
from neuron_compat.audit.run import audit
from neuron_compat.audit.url_verdict import Evidence

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    default_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "neuron-compat" / "pypi"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--registry", type=Path, default=ROOT / "registry", help="registry directory (default: this checkout's registry/)")
    parser.add_argument("--mirrors", type=Path, default=Path(os.environ.get("NEURON_COMPAT_MIRRORS", "/work/.mirror")),
                        help="folder of owner+name/repo bare git mirrors (default: $NEURON_COMPAT_MIRRORS or /work/.mirror)")
    parser.add_argument("--cache", type=Path, default=default_cache,
                        help="where downloaded wheels/sdists are kept (default: $XDG_CACHE_HOME/neuron-compat/pypi)")
    parser.add_argument("--offline", action="store_true", help="download nothing; use only what is cached")
    parser.add_argument("--only", metavar="PATHGLOB", help="audit only files matching this glob (relative to the registry)")
    parser.add_argument("--first-line", action="store_true", help="also list ok URLs with the first line of their range")
    args = parser.parse_args(argv)
    if not args.registry.is_dir():
        print(f"{args.registry}: registry directory not found (name it with --registry)", file=sys.stderr)
        return 2
    evidence = Evidence(args.mirrors, PackageFiles(args.cache, offline=args.offline))
    report = audit(args.registry, evidence, args.only)
    for line in report.lines(show_ok=args.first_line, show_first_line=args.first_line):
        print(line)
    print(f"{len(report.results)} cited URLs: {report.summary()}")
    return 1 if report.broken else 0


if __name__ == "__main__":
    sys.exit(main())
