"""Local evidence a cited file can be checked against: bare git mirrors and PyPI release files."""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

from neuron_compat.contract.versions import version_key


class Missing(Exception):
    """The evidence is not available locally (and may not be fetched): the URL is unverifiable."""


class UnknownRef(Exception):
    """The source says the cited tag or release does not exist."""


class GitMirror:
    """A bare git directory (e.g. /work/.mirror/owner+name/repo); reads files at a ref."""

    def __init__(self, git_dir: Path) -> None:
        self.git_dir = git_dir

    def _git(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["git", "--git-dir", str(self.git_dir), *args], capture_output=True, check=False)

    def has_ref(self, ref: str) -> bool:
        return self._git("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode == 0

    def newer_tag_than(self, ref: str) -> bool:
        """Some tag names a later version than `ref` (so `ref`, a version, would be here if it existed)."""
        wanted = _version(ref)
        if wanted is None:
            return False
        tags = self._git("tag", "--list").stdout.decode("utf-8", "replace").split()
        return any((found := _version(tag)) is not None and found > wanted for tag in tags)

    def exists(self, ref: str, path: str) -> bool:
        """A file or a folder is at `path` in `ref`."""
        return self._git("cat-file", "-e", f"{ref}:{path}").returncode == 0

    def read(self, ref: str, path: str) -> bytes | None:
        done = self._git("show", f"{ref}:{path}")
        return done.stdout if done.returncode == 0 else None


_RELEASE_TAG = re.compile(r"v?([0-9]+(\.[0-9]+)+)")


def _version(tag: str) -> tuple[int, ...] | None:
    """The version a release tag such as v2.21.0 or 2.21.0 names; None for other refs."""
    match = _RELEASE_TAG.fullmatch(tag)
    return version_key(match.group(1)) if match else None


class PackageFiles:
    """The wheel and sdist of one PyPI release, kept under cache_dir/<name>/<version>/ (pip download fills it)."""

    def __init__(self, cache_dir: Path, offline: bool) -> None:
        self.cache_dir = cache_dir
        self.offline = offline
        self._failed: dict[tuple[str, str, str], Exception] = {}

    def archives(self, name: str, version: str, kind: str) -> list[Path]:
        """kind is 'wheel' or 'sdist'; downloads it unless offline. Raises Missing or UnknownRef."""
        folder = self.cache_dir / name / version / kind
        found = sorted(p for p in folder.glob("*") if p.suffix in (".whl", ".gz", ".zip")) if folder.is_dir() else []
        if found:
            return found
        key = (name, version, kind)
        if key in self._failed:
            raise self._failed[key]
        if self.offline:
            raise Missing(f"{name} {version} {kind} not in the cache {folder} (--offline)")
        folder.mkdir(parents=True, exist_ok=True)
        only = ["--only-binary", ":all:"] if kind == "wheel" else ["--no-binary", ":all:"]
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", *only, "-d", str(folder),
                               f"{name}=={version}"], capture_output=True, text=True, check=False)
        found = sorted(p for p in folder.glob("*") if p.suffix in (".whl", ".gz", ".zip"))
        if found:
            return found
        text = done.stderr
        error: Exception
        if "No matching distribution" in text or "Could not find a version" in text:
            error = UnknownRef(f"no {kind} of {name}=={version} on PyPI") if kind == "sdist" else Missing(
                f"no wheel of {name}=={version} on PyPI")
        else:
            errors = [line for line in text.splitlines() if line.startswith("ERROR:")] or text.strip().splitlines()[-1:]
            error = Missing(f"pip download {name}=={version} {kind} failed: {errors[0] if errors else '?'}")
        self._failed[key] = error
        raise error


def read_member(archive: Path, path: str) -> bytes | None:
    """The file at `path` in a wheel (package paths) or an sdist (paths under its single top folder)."""
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as zipped:
            names = set(zipped.namelist())
            for name in (path, *(n for n in names if n.split("/", 1)[-1] == path and archive.suffix == ".zip")):
                if name in names:
                    return zipped.read(name)
        return None
    with tarfile.open(archive) as tarred:
        for member in tarred.getmembers():
            if member.isfile() and member.name.split("/", 1)[-1] == path:
                extracted = tarred.extractfile(member)
                return extracted.read() if extracted else None
    return None


def ships_folder(archive: Path, path: str) -> bool:
    """The sdist or wheel holds anything under the top-level folder of `path` (so a missing file is missing)."""
    top = path.split("/", 1)[0] + "/"
    if archive.suffix in (".whl", ".zip"):
        with zipfile.ZipFile(archive) as zipped:
            return any(name.startswith(top) or name.split("/", 1)[-1].startswith(top) for name in zipped.namelist())
    with tarfile.open(archive) as tarred:
        return any(member.name.split("/", 1)[-1].startswith(top) for member in tarred.getmembers())
