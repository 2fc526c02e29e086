"""`neuron-compat changelog --from REV --to REV`: the data changelog between two git revisions."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import IO

from neuron_compat.commands.common import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE


class GitError(Exception):
    pass


class UnsafeTree(Exception):
    """A revision's registry holds a link that points out of it (tarfile's data filter refused it)."""


def _git(repo: Path, *args: str) -> bytes:
    try:
        completed = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(message[-1] if message else f"git {' '.join(args)} failed")
    return completed.stdout


def extract_registry(repo: Path, revision: str, registry_path: str, into: Path) -> Path | None:
    """Write the registry tree of `revision` under `into`; None when that revision has no such directory."""
    try:
        _git(repo, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    except GitError:
        raise GitError(f"'{revision}' is not a commit, tag or branch of the repository at {repo}") from None
    listing = _git(repo, "ls-tree", "-d", "-z", "--name-only", revision, "--", registry_path).decode().split("\0")
    if registry_path.rstrip("/") not in listing:
        return None
    _stream_archive(repo, revision, registry_path, into)
    return into / registry_path


def _stream_archive(repo: Path, revision: str, registry_path: str, into: Path) -> None:
    """`git archive` read as a stream, never held whole: each file is written with at most its size cap + 1 of its
    bytes (yaml_reader.size_cap: enough for the loader to refuse it as too large) at its real size, the rest
    skipped; the whole archive and its number of entries are capped too. Links and devices go through tarfile's
    data filter."""
    from neuron_compat.loading.yaml_reader import size_cap

    try:
        process = subprocess.Popen(["git", "-C", str(repo), "archive", "--format=tar", revision, "--", registry_path],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        raise GitError("git is not installed") from None
    assert process.stdout is not None
    counted = _CountingReader(process.stdout, MAX_ARCHIVE_BYTES)
    try:
        with tarfile.open(fileobj=counted, mode="r|") as tar:
            for number, member in enumerate(tar):
                if number >= MAX_ARCHIVE_ENTRIES:
                    raise UnsafeTree(f"{revision}: more than {MAX_ARCHIVE_ENTRIES} files under {registry_path}/")
                if not member.isfile():
                    tar.extract(member, into, filter="data")
                    continue
                member = tarfile.data_filter(member, str(into))
                target = into / member.name
                target.parent.mkdir(parents=True, exist_ok=True)
                source = tar.extractfile(member)
                assert source is not None
                with open(target, "wb") as out:
                    out.write(source.read(size_cap(target) + 1))  # the loader refuses a file this long...
                    out.truncate(member.size)  # ...and names its real size (the rest is a hole: no disk used)
    except tarfile.TarError as error:  # FilterError: a symlink to /etc/passwd or out of the tree, a device...
        raise UnsafeTree(f"{revision}: {_refusal(error, into)} (a registry holds plain files; nothing was read)") from None
    except _ArchiveTooLarge:
        raise UnsafeTree(f"{revision}: {registry_path}/ is more than {MAX_ARCHIVE_BYTES // (1024 * 1024)} MiB in all "
                         "(a registry is a few megabytes); nothing was compared") from None
    finally:
        process.stdout.close()
        process.kill()
        process.wait()


def _refusal(error: tarfile.TarError, into: Path) -> str:
    """Why the data filter refused an entry, in the revision's own names: tarfile's messages name where it would
    have extracted (this run's temporary folder), which is nothing the user has or can act on."""
    member = getattr(error, "tarinfo", None)
    name = repr(member.name) if isinstance(member, tarfile.TarInfo) else ""
    if isinstance(error, tarfile.AbsoluteLinkError):
        return f"{name} is a link to an absolute path"
    if isinstance(error, tarfile.LinkOutsideDestinationError):
        return f"{name} is a link to {member.linkname!r}, which points out of the registry"  # type: ignore[union-attr]
    if isinstance(error, tarfile.SpecialFileError):
        return f"{name} is a special file (a device or a FIFO)"
    if isinstance(error, (tarfile.AbsolutePathError, tarfile.OutsideDestinationError)):
        return f"{name} would be written out of the registry"
    return str(error).replace(str(into), "the extracted registry")


MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024
"""What `git archive` may stream for one revision (each file is cut at the loader's limit as it is written)."""
MAX_ARCHIVE_ENTRIES = 100_000


class _ArchiveTooLarge(Exception):
    pass


class _CountingReader(io.RawIOBase):
    """A pipe read through, counting bytes: past `limit` the archive is refused."""

    def __init__(self, pipe: IO[bytes], limit: int) -> None:
        self.pipe, self.limit, self.count = pipe, limit, 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self.pipe.read(size if size is not None and size >= 0 else 1024 * 1024)
        self.count += len(data)
        if self.count > self.limit:
            raise _ArchiveTooLarge()
        return data


def run(args: argparse.Namespace) -> int:
    from neuron_compat.commands.diff import RegistryProblems, load_for_diff, render
    from neuron_compat.views.claim_diff import diff_registries

    repo: Path = args.repo
    from neuron_compat.safeio.scratch_dir import scratch_directory

    with scratch_directory("neuron-compat-changelog-") as tmp:
        try:
            before_dir = extract_registry(repo, args.from_rev, args.path, Path(tmp) / "from")
            after_dir = extract_registry(repo, args.to_rev, args.path, Path(tmp) / "to")
        except GitError as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_USAGE
        except UnsafeTree as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_PROBLEMS
        if after_dir is None:
            print(f"error: {args.to_rev} has no {args.path}/ directory", file=sys.stderr)
            return EXIT_USAGE
        try:
            before = load_for_diff(before_dir or Path(tmp) / "absent", "the", missing_is_empty=True,
                                   shown_as=f"{args.from_rev}:{args.path}")
            after = load_for_diff(after_dir, "the", shown_as=f"{args.to_rev}:{args.path}")
        except RegistryProblems:
            return EXIT_PROBLEMS
        diff = diff_registries(before, after)
    version = diff.data_version[1]
    title = f"Data {version}" if version else f"Changes from {args.from_rev} to {args.to_rev}"
    if version:
        title += f" (changes since {args.from_rev})"
    sys.stdout.write(render(diff, args.format, title))
    return EXIT_OK


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "changelog", help="the data changelog between two git revisions (e.g. two data tags)",
        description="Read the registry of two git revisions (git archive into temporary directories) and print "
        "what changed in the published claims, with the same engine as `neuron-compat diff`.",
    )
    parser.add_argument("--from", dest="from_rev", required=True, metavar="REV", help="the older revision (tag, branch, commit)")
    parser.add_argument("--to", dest="to_rev", default="HEAD", metavar="REV", help="the newer revision (default: HEAD)")
    parser.add_argument("--repo", type=Path, default=Path("."), help="the git repository (default: .)")
    parser.add_argument("--path", default="registry", help="the registry directory inside the repository (default: registry)")
    parser.add_argument("--format", choices=("markdown", "text"), default="markdown")
    parser.set_defaults(handler=run)
