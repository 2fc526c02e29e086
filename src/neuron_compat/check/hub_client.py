"""Fetch a model's config.json (or diffusers model_index.json) from the Hugging Face Hub, fast or not at all.

huggingface_hub does the work (so HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE and its cache behave as users expect),
with two changes of pace: the metadata request is made once, without the library's retries, so a repo that
does not exist or a dead network is reported in seconds; and the whole fetch runs under a wall-clock deadline
(HUB_DEADLINE_SECONDS, 20 s by default) because a download with no network and no cache otherwise retries for
about 23 s. Every failure becomes a `HubError` with one line for a person, marked unreachable or bad input
(commands/check.py turns that into the exit code). The process environment is never changed.
"""

from __future__ import annotations

import math
import os
import urllib.parse
from dataclasses import dataclass
from typing import Any, NoReturn

from neuron_compat.check.config_facts import CONFIG_FILES, MAX_CONFIG_BYTES, ConfigError, parse_config_text
from neuron_compat.contract.hub_ids import is_valid_repo_id, is_valid_revision
from neuron_compat.safeio.bounded_read import FileTooLarge, UnreadableFile, read_regular_file
from neuron_compat.safeio.deadline import DeadlineExceeded, call_with_deadline

DEFAULT_TIMEOUT_SECONDS = 10.0
HUB_DEADLINE_SECONDS = 20.0



class HubError(Exception):
    """A failure to get a config from the Hub: `message` is one line; `unreachable` when the repo, revision or
    network could not be reached (else the input was bad). commands/check.py maps it to an exit code."""

    def __init__(self, message: str, unreachable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.unreachable = unreachable


@dataclass(frozen=True)
class HubConfig:
    repo_id: str
    revision: str
    filename: str
    commit: str | None
    from_cache: bool
    data: Any


MAX_TIMEOUT_SECONDS = 600.0
_HUB_INTEGER_SETTINGS = ("HF_HUB_ETAG_TIMEOUT", "HF_HUB_DOWNLOAD_TIMEOUT")  # huggingface_hub int()s these on import


def request_timeout() -> float:
    """Seconds per Hub request: HF_HUB_ETAG_TIMEOUT when the user set a usable one, else 10 (at most 600)."""
    try:
        value = float(os.environ.get("HF_HUB_ETAG_TIMEOUT", DEFAULT_TIMEOUT_SECONDS))
    except ValueError:
        return DEFAULT_TIMEOUT_SECONDS
    if not math.isfinite(value) or value <= 0:
        return DEFAULT_TIMEOUT_SECONDS
    return min(value, MAX_TIMEOUT_SECONDS)


def _check_hub_settings() -> None:
    """huggingface_hub reads these with int() (and splits HF_ENDPOINT) when it is imported; a bad one would end
    in its traceback."""
    endpoint = os.environ.get("HF_ENDPOINT")
    if endpoint:
        try:
            urllib.parse.urlsplit(endpoint).port  # noqa: B018 - raises for "http://[::1" or a port past 65535
        except ValueError as error:
            raise HubError(f"HF_ENDPOINT={endpoint[:60]!r}: not a usable URL ({error})") from None
    for name in _HUB_INTEGER_SETTINGS:
        value = os.environ.get(name)
        if value and not (value.isascii() and value.strip().isdigit() and 0 < int(value) <= MAX_TIMEOUT_SECONDS):
            raise HubError(f"{name}={value[:40]!r}: must be a whole number of seconds from 1 to "
                           f"{MAX_TIMEOUT_SECONDS:g}")


def fetch_config(repo_id: str, revision: str | None = None, deadline: float = HUB_DEADLINE_SECONDS) -> HubConfig:
    """config.json, else model_index.json, of `repo_id` at `revision` (default: main)."""
    if not is_valid_repo_id(repo_id):
        raise HubError(f"'{repo_id}' is not a valid Hub repo id (expected 'namespace/name' with letters, digits, "
                       "'.', '_' or '-')")
    if revision is not None and not is_valid_revision(revision):
        raise HubError(f"'{revision}' is not a valid revision (a branch, tag or commit hash)")
    _check_hub_settings()
    _quiet_bounded_defaults()

    try:
        return call_with_deadline(lambda: _fetch(repo_id, revision or "main"), deadline, "hub-fetch")
    except DeadlineExceeded:
        raise HubError(f"{repo_id}: no answer from {_endpoint()} within {deadline:g} s (network down or too slow?)",
                       unreachable=True) from None


def _quiet_bounded_defaults() -> None:
    """No progress bar, no telemetry (no user-agent probing, no agent-registry request) and a download timeout
    of request_timeout(), each unless the user set its HF_HUB_* variable. Set through huggingface_hub's own
    switches: the process environment is never changed."""
    from huggingface_hub import constants
    from huggingface_hub.utils.tqdm import disable_progress_bars

    if "HF_HUB_DISABLE_PROGRESS_BARS" not in os.environ:
        disable_progress_bars()
    if "HF_HUB_DISABLE_TELEMETRY" not in os.environ:
        constants.HF_HUB_DISABLE_TELEMETRY = True
    if "HF_HUB_DOWNLOAD_TIMEOUT" not in os.environ:
        constants.HF_HUB_DOWNLOAD_TIMEOUT = int(request_timeout())


def _endpoint() -> str:
    from huggingface_hub import constants

    return constants.ENDPOINT


def _fetch(repo_id: str, revision: str) -> HubConfig:
    from huggingface_hub import constants

    where = f"{repo_id}@{revision}" if revision != "main" else repo_id
    if constants.is_offline_mode():
        cached = _from_cache(repo_id, revision)
        if cached is None:
            raise HubError(f"{where}: offline (HF_HUB_OFFLINE is set) and no cached config.json or model_index.json", unreachable=True)
        return cached
    missing = []
    for filename in CONFIG_FILES:
        try:
            return _download(repo_id, revision, filename)
        except _EntryMissing:
            missing.append(filename)
        except _Unreachable as error:
            cached = _from_cache(repo_id, revision)
            if cached is not None:
                return cached
            raise HubError(f"{where}: could not reach {constants.ENDPOINT}: {error} (no cached copy)", unreachable=True) from None
    raise HubError(f"{where}: the repo has no config.json or model_index.json", unreachable=True)


class _EntryMissing(Exception):
    pass


class _Unreachable(Exception):
    pass


def _download(repo_id: str, revision: str, filename: str) -> HubConfig:
    """HEAD the file once (no retries), then download it through the cache."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url

    where = f"{repo_id}@{revision}" if revision != "main" else repo_id
    timeout = request_timeout()
    try:
        metadata = get_hf_file_metadata(hf_hub_url(repo_id, filename, revision=revision), timeout=timeout)
        if metadata.size is None:  # the download would have no bound: refuse rather than fill the cache
            raise HubError(f"{where}/{filename}: the Hub did not give the file's size; not downloading a file of "
                           f"unknown size (limit {MAX_CONFIG_BYTES} bytes)", unreachable=True)
        if metadata.size > MAX_CONFIG_BYTES:
            raise HubError(f"{where}/{filename}: {metadata.size} bytes is too large for a config "
                           f"(limit {MAX_CONFIG_BYTES} bytes)")
        path = hf_hub_download(repo_id, filename, revision=revision, etag_timeout=timeout)
    except HubError:
        raise
    except Exception as error:  # noqa: BLE001 - not swallowed: _raise_mapped raises a HubError for each
        _raise_mapped(error, where, revision)
    data = _read_cached_file(path, f"{where}/{filename}")
    return HubConfig(repo_id, revision, filename, metadata.commit_hash, False, data)


def _raise_mapped(error: Exception, where: str, revision: str) -> NoReturn:
    """Turn a huggingface_hub / HTTP client error into HubError, _EntryMissing or _Unreachable."""
    from huggingface_hub import errors

    # GatedRepoError is a subclass of RepositoryNotFoundError: test it first.
    if isinstance(error, errors.GatedRepoError):
        if _has_token():
            raise HubError(f"{where}: gated repo and your token has no access; accept its terms on the Hub page", unreachable=True) from None
        raise HubError(f"{where}: gated repo; accept its terms on the Hub and set HF_TOKEN", unreachable=True) from None
    if isinstance(error, errors.RepositoryNotFoundError):
        hint = "" if _has_token() else " (if it is private, set HF_TOKEN)"
        raise HubError(f"{where}: repo not found on {_endpoint()}{hint}", unreachable=True) from None
    if isinstance(error, errors.RevisionNotFoundError):
        raise HubError(f"{where}: revision '{revision}' not found in the repo", unreachable=True) from None
    if isinstance(error, errors.RemoteEntryNotFoundError):
        raise _EntryMissing() from None
    if isinstance(error, errors.HfHubHTTPError):
        status = error.response.status_code if error.response is not None else None
        if status == 401:
            raise HubError(f"{where}: the Hub refused the token (HTTP 401); check HF_TOKEN", unreachable=True) from None
        if status == 403:
            raise HubError(f"{where}: access denied (HTTP 403); check the token's permissions", unreachable=True) from None
        raise _Unreachable(f"HTTP {status}") from None
    if isinstance(error, errors.OfflineModeIsEnabled):
        raise _Unreachable("offline mode") from None
    name = type(error).__name__
    if "Timeout" in name:
        raise _Unreachable(f"timed out after {request_timeout():g} s") from None
    if "Connect" in name or "Network" in name or "Protocol" in name or isinstance(error, ConnectionError):
        raise _Unreachable(_short(error)) from None
    raise HubError(f"{where}: the Hub client failed: {name}: {_short(error)}", unreachable=True) from None


def _from_cache(repo_id: str, revision: str) -> HubConfig | None:
    from huggingface_hub import hf_hub_download

    where = f"{repo_id}@{revision}" if revision != "main" else repo_id
    for filename in CONFIG_FILES:
        try:
            path = hf_hub_download(repo_id, filename, revision=revision, local_files_only=True)
        except Exception:  # noqa: BLE001 - not cached (or cached as missing): try the next name
            continue
        return HubConfig(repo_id, revision, filename, None, True, _read_cached_file(path, f"{where}/{filename}"))
    return None


def _read_cached_file(path: str, where: str) -> Any:
    try:
        raw = read_regular_file(path, MAX_CONFIG_BYTES)
    except FileTooLarge as error:
        raise HubError(f"{where}: {error.size} bytes is too large for a config (limit {MAX_CONFIG_BYTES} bytes)") from None
    except UnreadableFile as error:
        raise HubError(f"{where}: cached copy: {error}", unreachable=True) from None
    try:
        return parse_config_text(raw, where)
    except ConfigError as error:
        raise HubError(str(error)) from None


def _has_token() -> bool:
    from huggingface_hub import get_token

    try:
        return bool(get_token())
    except Exception:  # noqa: BLE001
        return False


def _short(error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return text[:160]
