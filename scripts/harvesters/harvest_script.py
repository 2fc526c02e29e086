"""What every scripts/harvest_*.py shares: reading a source's git mirror at a revision, the registry's releases, the
command line (--mirror, --revision, --output, --check) and writing (or checking) the generated configurations file.

Each script keeps only what is its source's own: which files it reads and how one becomes configurations."""

from __future__ import annotations

import argparse
import datetime as dt
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from neuron_compat.contributing.upstream_snapshot import write_or_check

Harvest = Callable[[Path, str, dt.date], dict[str, Any]]
"""(mirror's git directory, revision, today) -> the configurations file's body."""


class HarvestError(Exception):
    """The mirror cannot be read at the revision (one line for the person running the script)."""


class OutputTooLarge(HarvestError):
    """A git output (a page, a listing) over the cap: not read, and said so."""


READ_CAP = 8 * 1024 * 1024
"""The most a harvest reads of one git output (a file at a revision, a listing): a source file larger than this is
refused (HarvestError), never read whole into memory."""


def git(mirror: Path, *args: str, cap: int | None = None) -> str:
    """`git --git-dir=<mirror> <args>`'s output, read through a bounded reader (at most `cap` bytes, decoded as UTF-8
    with any other byte replaced); HarvestError with git's own message when it fails or says more than `cap`."""
    cap = READ_CAP if cap is None else cap
    try:
        process = subprocess.Popen(["git", f"--git-dir={mirror}", *args], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise HarvestError("git is not installed") from None
    assert process.stdout is not None and process.stderr is not None
    with process:
        data = process.stdout.read(cap + 1)
        if len(data) > cap:
            process.kill()
            process.wait()
            raise OutputTooLarge(f"git {' '.join(args[:2])}: the output is larger than {cap // (1024 * 1024)} MiB, "
                                 "not read")
        error = process.stderr.read(64 * 1024)
        status = process.wait()
    if status != 0:
        message = " ".join(error.decode("utf-8", "replace").split()) or f"exit status {status}"
        raise HarvestError(f"git {' '.join(args[:2])} failed: {message}")
    return data.decode("utf-8", "replace")


def tree_paths(mirror: Path, revision: str, *paths: str, recursive: bool = False, cap: int | None = None) -> list[str]:
    """The paths `git ls-tree --name-only` lists under `paths` at `revision`, read NUL-separated (`-z`): a name with
    a space, a quote or a non-ASCII letter is one path, as written, never split on whitespace or C-quoted."""
    listing = git(mirror, "ls-tree", *(["-r"] if recursive else []), "-z", "--name-only", revision, "--", *paths,
                  cap=cap)
    return [path for path in listing.split("\0") if path]


def show(mirror: Path, commit: str, path: str) -> tuple[str | None, str | None]:
    """(the file's text at the commit, None) or (None, why it was not read: absent, too large)."""
    try:
        return git(mirror, "show", f"{commit}:{path}"), None
    except HarvestError as error:
        return None, str(error)


def commit_date(mirror: Path, commit: str, path: str) -> dt.date | None:
    """The date of the last commit (at or before `commit`) that changed `path`: when the source published it."""
    try:
        stamp = git(mirror, "log", "-1", "--format=%cs", commit, "--", path, cap=64).strip()
    except HarvestError:
        return None
    try:
        return dt.date.fromisoformat(stamp)
    except ValueError:
        return None


def parse_date(text: str | None) -> dt.date | None:
    """A YYYY-MM-DD date a source writes, or None when it is no real date (2026-02-30) or lies in the future."""
    if not text:
        return None
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        return None
    return day if day <= dt.date.today() else None


def ascii_count(text: str | None, limit: int = 10_000_000) -> int | None:
    """A positive whole number written in ASCII digits (no sign, no exponent, no other script's digits, at most
    `limit`); None otherwise."""
    raw = (text or "").strip()
    if not raw or len(raw) > 9 or not all("0" <= ch <= "9" for ch in raw):
        return None
    value = int(raw)
    return value if 1 <= value <= limit else None


def refuse_invalid(configurations: list[dict[str, Any]], not_recorded: list[dict[str, str]],
                   where: str) -> list[dict[str, Any]]:
    """The configurations the contract accepts; each one it refuses is named in `not_recorded` with the reason
    (a harvest never writes what `validate` would refuse)."""
    from pydantic import ValidationError

    from neuron_compat.contract.tested_configurations import TestedConfiguration

    kept: list[dict[str, Any]] = []
    for entry in configurations:
        try:
            TestedConfiguration.model_validate(entry)
        except ValidationError as error:
            first = error.errors()[0]
            field = ".".join(str(part) for part in first["loc"]) or "entry"
            path = str((entry.get("source") or {}).get("url") or where).rsplit("/blob/", 1)[-1]
            path = path.split("/", 1)[-1] if "/" in path else path
            not_recorded.append({"path": path[:200],
                                 "reason": f"refused by the contract at {field}: {first['msg']}"[:200]})
            continue
        kept.append(entry)
    return kept


def resolve_commit(mirror: Path, revision: str) -> str:
    """The commit a tag or commit names in the mirror."""
    return git(mirror, "rev-parse", "--verify", f"{revision}^{{commit}}").strip()


def read_releases(path: Path) -> list[tuple[str, dt.date]]:
    """(version, date) of every Neuron release in releases.yaml."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [(str(release["version"]), release["date"]) for release in data["releases"]]


def configurations_file(source: str, description: str, script: str, repository: str, revision: str, today: dt.date,
                        configurations: list[dict[str, Any]], not_recorded: list[dict[str, str]]) -> dict[str, Any]:
    """The body of a harvested configurations file, with the harvest record (script, repository, revision, date);
    a configuration the contract refuses is moved to `not_recorded` with the reason."""
    configurations = refuse_invalid(configurations, not_recorded, source)
    return {
        "source": source,
        "description": description,
        "harvest": {"script": script, "repository": repository, "revision": revision, "taken": today},
        "configurations": configurations,
        "not_recorded": not_recorded,
    }


def header(script: str, what: str) -> str:
    """The generated file's first lines: the editor schema and who wrote it from what."""
    return ("# yaml-language-server: $schema=../schemas/configurations.schema.json\n"
            f"# Generated by {script} from {what}. Do not edit by hand.\n")


def render(file_header: str, body: dict[str, Any]) -> str:
    return file_header + yaml.safe_dump(body, sort_keys=False, width=120, allow_unicode=True)


def summary(body: dict[str, Any]) -> str:
    configurations = body["configurations"]
    measured = sum(len(entry.get("measurements") or []) for entry in configurations)
    return f"{len(configurations)} configurations ({measured} measurements), {len(body['not_recorded'])} not recorded"


def run(argv: list[str] | None, *, doc: str | None, mirror_help: str, revision_example: str, output: Path,
        script: str, file_header: str, harvest: Harvest) -> int:
    """Parse the command line, harvest, then write the file atomically or, with --check, compare it (exit 1 if stale)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0] if doc else None)
    parser.add_argument("--mirror", "--git-dir", dest="mirror", type=Path, required=True, help=mirror_help)
    parser.add_argument("--revision", required=True, help=f"the tag or commit to read, e.g. {revision_example}")
    parser.add_argument("--output", type=Path, default=output, help=f"default: {output.name} under registry/")
    parser.add_argument("--check", action="store_true", help="fail if the output file is not up to date")
    args = parser.parse_args(argv)
    try:
        body = harvest(args.mirror, args.revision, dt.datetime.now(dt.UTC).date())
    except (HarvestError, OSError) as error:
        print(f"{args.mirror}: revision {args.revision}: {error}", file=sys.stderr)
        return 1
    print(summary(body), file=sys.stderr)
    return write_or_check(args.output, render(file_header, body), script, args.check)
