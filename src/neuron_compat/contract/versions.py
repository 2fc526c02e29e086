"""Neuron SDK version strings: parsing and ordering."""

from __future__ import annotations

import functools
import re

NEURON_VERSION_PATTERN = r"^[0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,6}$"
"""ASCII digits only, a few of each (the JSON Schema pattern; Python matches it against the whole string)."""
_NEURON_VERSION = re.compile(NEURON_VERSION_PATTERN)


def is_neuron_version(text: str) -> bool:
    return _NEURON_VERSION.fullmatch(text) is not None


# ASCII digits, at most 18 of them (a 5000-digit part of a malformed version must not reach int())
_LEADING_DIGITS = re.compile(r"[0-9]{1,18}")
# A release with PEP 440's pre-, post- and dev-release suffixes, in their common spellings:
# 0.4.0rc1, 1.0a2, 1.0.post1, 1.0.dev3, 1.0rc1.dev2 (a leading "v" and a "+local" part are not versions here)
_PRE_POST_DEV = re.compile(
    r"(?P<release>[0-9]{1,18}(?:\.[0-9]{1,18})*)"
    r"(?:[-_.]?(?P<pre>a|b|rc)(?P<pre_n>[0-9]{0,18}))?"
    r"(?:[-_.]?post(?P<post_n>[0-9]{0,18}))?"
    r"(?:[-_.]?dev(?P<dev_n>[0-9]{0,18}))?"
)
_PHASE = {None: 0, "a": 1, "b": 2, "rc": 3}  # a bare .devN comes before aN, bN and rcN of the same release
_ABOVE_ANY_PART = 10**18  # more than any part of at most 18 digits


@functools.lru_cache(maxsize=8192)
def version_key(text: str) -> tuple[int, ...]:
    """Sort key for versions: '2.21.0' < '2.21.1' < '2.22.0', and PEP 440's order around a release:
    '0.4.0.dev1' < '0.4.0a1' < '0.4.0b1' < '0.4.0rc1' < '0.4.0rc1.post1' < '0.4.0' < '0.4.0.post1' < '0.4.1'.

    A pre-release (aN, bN, rcN) or a development release (devN) of X.Y.Z sorts after every version below
    X.Y.Z and before X.Y.Z; a post-release (postN) after X.Y.Z and before any longer or later version.
    Unlike PEP 440, trailing zeros count ('2.21' < '2.21.0'; Neuron releases always have three parts).
    Any other text sorts part by part, each part by its leading digits (-1 for none): '2.x' < '2.0'.
    Cached: the site and the rules compare the same few dozen versions hundreds of thousands of times
    (28% of the site's render time at 100 families before the cache).
    """
    match = _PRE_POST_DEV.fullmatch(text)
    if match is None or not (match["pre"] or match["post_n"] is not None or match["dev_n"] is not None):
        parts: list[int] = []
        for piece in text.split("."):
            digits = _LEADING_DIGITS.match(piece)
            parts.append(int(digits.group()) if digits else -1)
        return tuple(parts)
    release = [int(part) for part in match["release"].split(".")]
    post = -1 if match["post_n"] is None else int(match["post_n"] or 0)
    dev = (1, 0) if match["dev_n"] is None else (0, int(match["dev_n"] or 0))  # a dev release before its base
    if match["pre"] or (match["dev_n"] is not None and match["post_n"] is None):
        # before the release: just above everything that starts with its last part minus one
        pre = int(match["pre_n"] or 0)
        return (*release[:-1], release[-1] - 1, _ABOVE_ANY_PART, _PHASE[match["pre"]], pre, post + 1, *dev)
    return (*release, -1, post, *dev)  # a post-release: after the release (-1 < any further part)
