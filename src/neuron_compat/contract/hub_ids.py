"""What a Hugging Face Hub repo id and revision may be: the one rule `check`, the hub client and the schema share.

Optional namespace, then a name; ASCII letters, digits, '.', '_' and '-' only, at most 96 characters each;
no '..' and no '--' (the Hub refuses both), not ending in '.' or '-'. Matched against the whole string
(`fullmatch`, ASCII classes): a trailing newline or a Unicode digit never passes, so an id can never climb
out of a URL path or the cache folder, nor reach the network malformed.
"""

from __future__ import annotations

import re

REPO_ID_PATTERN = r"(?:[A-Za-z0-9][A-Za-z0-9._-]{0,95}/)?[A-Za-z0-9][A-Za-z0-9._-]{0,95}"
"""The repo id's characters and lengths, matched against the whole id (the site's check page reads it too)."""
_REPO_ID = re.compile(REPO_ID_PATTERN)
REPO_ID_MAX_LENGTH = 96 + 1 + 96
"""The longest id REPO_ID_PATTERN lets through: a 96-character owner, '/', a 96-character name."""
REPO_ID_REFUSED = r"\.\.|--|[.-](?![\s\S])"
"""What a repo id matching REPO_ID_PATTERN may still not hold: '..', '--', a final '.' or '-' (searched anywhere)."""
_REPO_ID_REFUSED = re.compile(REPO_ID_REFUSED)
_REVISION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,199}")


def is_valid_repo_id(text: str) -> bool:
    return _REPO_ID.fullmatch(text) is not None and _REPO_ID_REFUSED.search(text) is None


CHECKPOINT_PAGES = "checkpoints"
BARE_OWNER = "-"
"""The owner folder of a Hub id without a namespace (`gpt2`): no Hub owner can be named '-' (owners start with a
letter or digit), so a bare id never shares a folder with an owner's repos."""


def checkpoint_page_folder(hub_id: str) -> str:
    """The site folder of a checkpoint's page, always `checkpoints/<owner>/<name>` (its page is `index.md` there):
    'meta-llama/Llama-3.1-8B' -> 'checkpoints/meta-llama/Llama-3.1-8B', 'gpt2' -> 'checkpoints/-/gpt2'.

    Collision-free by design: every page sits exactly two folders below `checkpoints/` and is named `index.md`, so
    no id is an index name of another (`org` and `org/index`, `org/README`, `org/index.md` all get folders of their
    own), and the map is one-to-one for valid ids. Two ids that differ only in case would share a folder on a
    case-insensitive disk; the registry refuses them (rules/checkpoint_page_paths.py)."""
    owner, _, name = hub_id.rpartition("/")
    return f"{CHECKPOINT_PAGES}/{owner or BARE_OWNER}/{name}"


def is_valid_revision(text: str) -> bool:
    return _REVISION.fullmatch(text) is not None and ".." not in text and "//" not in text and not text.endswith("/")
