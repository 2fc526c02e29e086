"""Decide one cited URL: ok, broken (the evidence says it is wrong) or unverifiable (no local evidence)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from neuron_compat.audit.local_evidence import (
    GitMirror,
    Missing,
    PackageFiles,
    UnknownRef,
    read_member,
    ships_folder,
)

OK, BROKEN, UNVERIFIABLE = "ok", "broken", "unverifiable"
DOCS_HOSTS = ("awsdocs-neuron.readthedocs-hosted.com",)
DOCS_REPO = ("aws-neuron", "aws-neuron-sdk")
DOCS_SUFFIXES = (".rst", ".md", ".ipynb", ".txt")
# GitHub repositories also published on PyPI: (package, how a repository path maps into the wheel)
PYPI_REPOS: dict[tuple[str, str], tuple[str, Callable[[str], str | None]]] = {
    ("huggingface", "optimum-neuron"): ("optimum-neuron", lambda path: path if path.startswith("optimum/") else None),
    ("huggingface", "transformers"): ("transformers", lambda path: path.removeprefix("src/") if path.startswith(
        "src/transformers/") else None),
}
_BLOB = re.compile(r"^/(?P<owner>[^/]+)/(?P<repo>[^/]+)/(?:blob|tree)/(?P<ref>[^/]+)/(?P<path>[^#]*)$")
_RELEASE_OR_COMMIT = re.compile(r"v?\d+(\.\d+)+\S*|[0-9a-f]{7,40}")
_RELEASE_PAGE = re.compile(r"^/(?P<owner>[^/]+)/(?P<repo>[^/]+)/releases/tag/(?P<tag>[^/]+)/?$")
_LINES = re.compile(r"^L(?P<a>\d+)(?:-L(?P<b>\d+))?$")


@dataclass(frozen=True)
class Outcome:
    status: str
    message: str = ""
    first_line: str = ""


@dataclass
class Evidence:
    mirrors_dir: Path  # holds owner+name/repo bare git directories
    packages: PackageFiles

    def mirror(self, owner: str, repo: str) -> GitMirror | None:
        git_dir = self.mirrors_dir / f"{owner}+{repo}" / "repo"
        return GitMirror(git_dir) if git_dir.is_dir() else None


def check_url(url: str, evidence: Evidence) -> Outcome:
    parts = urlsplit(url)
    if parts.hostname == "github.com":
        return _check_github(parts.path, parts.fragment, evidence)
    if parts.hostname in DOCS_HOSTS:
        return _check_docs(parts.path, evidence)
    return Outcome(UNVERIFIABLE, f"unverifiable (no local evidence for host {parts.hostname})")


def _check_github(path: str, fragment: str, evidence: Evidence) -> Outcome:
    release = _RELEASE_PAGE.match(unquote(path))
    if release:
        return _check_release_page(release["owner"], release["repo"], release["tag"], evidence)
    match = _BLOB.match(unquote(path))
    if not match:
        return Outcome(UNVERIFIABLE, "unverifiable (not a file at a ref: only blob/tree URLs are checked)")
    owner, repo, ref, file_path = match["owner"], match["repo"], match["ref"], match["path"].rstrip("/")
    lines = _line_range(fragment)
    if isinstance(lines, Outcome):
        return lines
    mirror = evidence.mirror(owner, repo)
    if mirror is not None:
        if not mirror.has_ref(ref):
            if (owner, repo) in PYPI_REPOS:
                return _check_pypi(owner, repo, ref, file_path, lines, evidence)
            if mirror.newer_tag_than(ref):
                return Outcome(BROKEN, f"unknown tag {ref} in {owner}/{repo} (the mirror has newer tags but not this one)")
            return Outcome(UNVERIFIABLE, f"unverifiable (ref {ref} not in the mirror of {owner}/{repo})")
        if not _RELEASE_OR_COMMIT.fullmatch(ref):
            found = "is" if mirror.exists(ref, file_path) else "is not"
            return Outcome(UNVERIFIABLE, f"unverifiable (ref {ref} is a branch; the path {found} in the mirror's copy)")
        if not file_path or (lines is None and mirror.exists(ref, file_path)):
            return Outcome(OK)
        return _judge(mirror.read(ref, file_path), file_path, lines, f"{owner}/{repo}@{ref}")
    if (owner, repo) in PYPI_REPOS:
        return _check_pypi(owner, repo, ref, file_path, lines, evidence)
    return Outcome(UNVERIFIABLE, f"unverifiable (no local mirror of {owner}/{repo})")


def _check_release_page(owner: str, repo: str, tag: str, evidence: Evidence) -> Outcome:
    mirror = evidence.mirror(owner, repo)
    if mirror is None:
        return Outcome(UNVERIFIABLE, f"unverifiable (no local mirror of {owner}/{repo})")
    if mirror.has_ref(tag):
        return Outcome(OK)
    if mirror.newer_tag_than(tag):
        return Outcome(BROKEN, f"unknown tag {tag} in {owner}/{repo} (the mirror has newer tags but not this one)")
    return Outcome(UNVERIFIABLE, f"unverifiable (tag {tag} is newer than every tag in the mirror of {owner}/{repo})")


def _check_pypi(owner: str, repo: str, ref: str, file_path: str, lines: tuple[int, int] | None,
                evidence: Evidence) -> Outcome:
    package, in_wheel = PYPI_REPOS[(owner, repo)]
    version = ref.removeprefix("v")
    if not re.fullmatch(r"\d+(\.\d+)+\S*", version):
        return Outcome(UNVERIFIABLE, f"unverifiable (ref {ref} is not a release tag)")
    where = f"{package}=={version}"
    try:
        wheel_path = in_wheel(file_path)
        if wheel_path:
            try:
                for archive in evidence.packages.archives(package, version, "wheel"):
                    content = read_member(archive, wheel_path)
                    if content is not None:
                        return _judge(content, file_path, lines, where)
            except Missing:
                pass
        for archive in evidence.packages.archives(package, version, "sdist"):
            content = read_member(archive, file_path)
            if content is None and not ships_folder(archive, file_path):
                top = file_path.split("/", 1)[0]
                return Outcome(UNVERIFIABLE, f"unverifiable (the {where} sdist does not ship {top}/)")
            return _judge(content, file_path, lines, f"{where} sdist")
    except Missing as error:
        return Outcome(UNVERIFIABLE, f"unverifiable ({error})")
    except UnknownRef as error:
        return Outcome(BROKEN, f"unknown tag {ref}: {error}")
    return Outcome(UNVERIFIABLE, f"unverifiable (no file of {where} found)")


def _line_range(fragment: str) -> tuple[int, int] | Outcome | None:
    if not fragment.startswith("L"):
        return None
    match = _LINES.match(fragment)
    if not match:
        return Outcome(BROKEN, f"malformed line anchor #{fragment} (write #L10 or #L10-L20)")
    first = int(match["a"])
    last = int(match["b"] or first)
    if first < 1 or last < first:
        return Outcome(BROKEN, f"line range #{fragment} is empty or reversed")
    return first, last


def _judge(content: bytes | None, path: str, lines: tuple[int, int] | None, where: str) -> Outcome:
    if content is None:
        return Outcome(BROKEN, f"{path} does not exist in {where}")
    if lines is None:
        return Outcome(OK)
    text = content.decode("utf-8", "replace").splitlines()
    first, last = lines
    if last > len(text):
        return Outcome(BROKEN, f"lines {first}-{last} are past the end of {path} ({len(text)} lines in {where})")
    return Outcome(OK, first_line=text[first - 1].strip())


def _check_docs(path: str, evidence: Evidence) -> Outcome:
    mirror = evidence.mirror(*DOCS_REPO)
    if mirror is None:
        return Outcome(UNVERIFIABLE, "unverifiable (no mirror of aws-neuron/aws-neuron-sdk)")
    parts = unquote(path).strip("/").split("/")
    if len(parts) < 2 or parts[0] != "en":
        return Outcome(UNVERIFIABLE, "unverifiable (not a /en/<version>/ docs page)")
    version, page = parts[1], "/".join(parts[2:])
    ref = "HEAD" if version == "latest" else version
    if ref != "HEAD" and not mirror.has_ref(ref):
        return Outcome(UNVERIFIABLE, f"unverifiable (docs version {version} is not a tag in the mirror)")
    stem = page.removesuffix(".html")
    if stem.startswith("_sources/"):  # the page source Sphinx publishes: _sources/foo/bar.rst(.txt)
        stem = stem.removeprefix("_sources/").removesuffix(".txt")
        stem = stem.rsplit(".", 1)[0] if stem.endswith(DOCS_SUFFIXES) else stem
    candidates = [stem + suffix for suffix in DOCS_SUFFIXES] if stem else []
    candidates += [f"{stem}/index{suffix}".lstrip("/") for suffix in DOCS_SUFFIXES]
    for candidate in candidates:
        if mirror.read(ref, candidate) is not None:
            return Outcome(OK)
    if version == "latest":
        return Outcome(UNVERIFIABLE, f"unverifiable (no source for {page} in the mirror's newest commit; "
                                     "latest may have moved past it)")
    return Outcome(BROKEN, f"no source for {page} at docs tag {version} (tried .rst/.md/.ipynb and /index)")
