"""The one error of choosing and reading a registry for `check`: a line for a person."""

from __future__ import annotations


class RegistrySourceError(Exception):
    """One line for a person. `unreachable`: a URL could not be fetched (the other failures are bad input)."""

    def __init__(self, message: str, unreachable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.unreachable = unreachable
