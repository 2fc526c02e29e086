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
_REVISION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]{0,199}")


def is_valid_repo_id(text: str) -> bool:
    return (_REPO_ID.fullmatch(text) is not None and ".." not in text and "--" not in text
            and not text.endswith((".", "-")))


def is_valid_revision(text: str) -> bool:
    return _REVISION.fullmatch(text) is not None and ".." not in text and "//" not in text and not text.endswith("/")
