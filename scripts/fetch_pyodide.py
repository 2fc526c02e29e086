"""Fetch the pinned Pyodide runtime (the npm package `pyodide`) into .cache/pyodide/package, verified.

The check page runs the package's own Python in the browser on Pyodide. Its browser tests build the site with
`--pyodide .cache/pyodide/package` so the page answers offline, from the test server alone. This script is what
puts the runtime there: it downloads the package's tarball from the npm registry with the standard library (no
npm needed), checks it against the sha512 the registry publishes for that version (pinned below), and unpacks
only regular files under `package/`, refusing any member that would land outside the folder.

    python scripts/fetch_pyodide.py            # fetch unless the pinned version is already there
    python scripts/fetch_pyodide.py --check    # exit 0 if it is there, 1 if not (no download)

The version must equal `PYODIDE_VERSION` in src/neuron_compat/site/check_archive.py (a test compares them).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import shutil
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

VERSION = "314.0.8"
TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
INTEGRITY = "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
"""`npm view pyodide@314.0.8 dist.integrity`: the registry's own digest of the tarball."""
MAX_TARBALL_BYTES = 128 * 1024 * 1024
TIMEOUT_SECONDS = 60

ROOT = Path(__file__).resolve().parent.parent
DESTINATION = ROOT / ".cache" / "pyodide"


class FetchError(Exception):
    """Why the runtime could not be fetched, in one line."""


def installed(destination: Path = DESTINATION) -> bool:
    """The pinned version is unpacked at destination/package."""
    package = destination / "package"
    try:
        listed = json.loads((package / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(listed, dict) and listed.get("version") == VERSION and (package / "pyodide.mjs").is_file()


def download(url: str = TARBALL) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_SECONDS) as response:
            data: bytes = response.read(MAX_TARBALL_BYTES + 1)
    except OSError as error:
        raise FetchError(f"cannot download {url}: {error}") from None
    if len(data) > MAX_TARBALL_BYTES:
        raise FetchError(f"{url}: larger than {MAX_TARBALL_BYTES} bytes")
    return data


def verify(data: bytes, integrity: str = INTEGRITY) -> None:
    algorithm, _, expected = integrity.partition("-")
    if base64.b64encode(hashlib.new(algorithm, data).digest()).decode() != expected:
        raise FetchError(f"the downloaded tarball does not match the pinned {algorithm} of pyodide@{VERSION}")


def unpack(data: bytes, destination: Path = DESTINATION) -> None:
    """Unpack the tarball's regular files under package/ into destination, replacing what was there (atomically:
    into a sibling folder first, then renamed)."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=destination.parent))
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for member in archive.getmembers():
                parts = Path(member.name).parts
                if not member.isfile() or not parts or parts[0] != "package" or ".." in parts or Path(member.name).is_absolute():
                    continue
                target = staging.joinpath(*parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                source = archive.extractfile(member)
                assert source is not None
                with source, open(target, "wb") as out:
                    shutil.copyfileobj(source, out)
        if destination.exists():
            shutil.rmtree(destination)
        staging.rename(destination)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def ensure(destination: Path = DESTINATION) -> Path:
    """destination/package with the pinned runtime in it, fetched when missing. Raises FetchError."""
    if not installed(destination):
        data = download()
        verify(data)
        unpack(data, destination)
        if not installed(destination):
            raise FetchError(f"pyodide@{VERSION} unpacked into {destination} but its package.json is not that version")
    return destination / "package"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the pinned runtime is there")
    args = parser.parse_args(argv)
    if args.check:
        return 0 if installed() else 1
    try:
        print(ensure())
    except FetchError as error:
        print(f"fetch_pyodide: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
