"""Strict reading of what a person types as an option value: the one helper every command and script uses.

- `whole_number`: ASCII digits only (Arabic-Indic or full-width digits, `1_0`, `+5`, ` 5` are refused,
  though Python's int() takes them), at most 12 of them, within the option's bounds.
- `decimal`: ASCII digits with at most one `.`, exactly representable as a double: a value that would lose
  digits (`0.12345678901234567890`, 20-digit integers) is refused rather than stored rounded.
- `iso_date`: YYYY-MM-DD only.
- `first_empty_option`: an option given empty text (`--neuron ''`, `--out=`): every command refuses it alike
  (the dispatcher checks each command line), where an empty value would otherwise mean "the default" (or
  `Path('')`, the current folder).

Each parser raises `OptionValueError` (a ValueError) with a phrase for a person; `argparse_type` wraps one as
an argparse `type=`, so argparse prints `argument --batch: ...` and exits 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

_WHOLE = re.compile(r"[0-9]{1,12}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_DECIMAL = re.compile(r"[0-9]{1,15}(?:\.[0-9]{1,15})?")


class OptionValueError(ValueError):
    """Why an option value is refused, as a phrase (the caller names the option)."""


def whole_number(text: str, minimum: int = 0, maximum: int | None = None, signed: bool = False) -> int:
    """`text` as a whole number written with the ASCII digits 0-9 only (after one '-' when `signed`), between
    minimum and maximum (a signed one is left to the caller's own range check, which names the valid range)."""
    if not _WHOLE.fullmatch(text.removeprefix("-") if signed else text):
        raise OptionValueError(f"{_shown(text)} is not a whole number written with the digits 0-9 "
                               "(no sign, separator, space or other digits)")
    value = int(text)
    if not signed:
        _bounded(text, value, minimum, maximum)
    return value


def decimal(text: str, minimum: float = 0, maximum: float | None = None, above_minimum: bool = False) -> float:
    """`text` as a non-negative decimal (`240`, `0.5`), ASCII only, exactly as a double keeps it."""
    if not _DECIMAL.fullmatch(text):
        raise OptionValueError(f"{_shown(text)} is not a number written with the digits 0-9 and at most one '.'")
    value = exact_float(text)
    if above_minimum and value <= minimum:
        raise OptionValueError(f"{_shown(text)} must be more than {minimum:g}")
    _bounded(text, value, minimum, maximum)
    return value


def iso_date(text: str) -> dt.date:
    """`text` as a calendar date written YYYY-MM-DD (fromisoformat alone also takes `20261203`, `2026-W49-4`)."""
    if not _DATE.fullmatch(text):
        raise OptionValueError(f"{_shown(text)} is not a date written YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise OptionValueError(f"{_shown(text)} is not a calendar date (YYYY-MM-DD)") from None


def exact_float(text: str) -> float:
    """The double `text` names, refused when the double would not keep all of its digits."""
    try:
        exact = Decimal(text)
    except InvalidOperation:
        raise OptionValueError(f"{_shown(text)} is not a number") from None
    value = float(exact)
    if not exact.is_finite() or Decimal(repr(value)) != exact:
        raise OptionValueError(f"{_shown(text)} has more digits than a stored number keeps (about 15 significant "
                               "digits); round it as the source would")
    return value


def argparse_type(parse: Callable[..., Any], **bounds: Any) -> Callable[[str], Any]:
    """`parse` (with its bounds) as an argparse `type=`: a refusal becomes argparse's one-line usage error."""

    def convert(text: str) -> Any:
        try:
            return parse(text, **bounds)
        except OptionValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    convert.__name__ = getattr(parse, "__name__", "value").replace("_", " ")
    return convert


def first_empty_option(arguments: list[str], takes_value: Callable[[str], bool]) -> str | None:
    """The first option of a command line given empty or blank text as its value (`--neuron ''`, `--out=`).

    `takes_value(option)` says whether an option reads the next argument (an unknown one is assumed to).
    """
    pending: str | None = None
    for argument in arguments:
        if argument == "--":
            return None
        if pending is not None:
            if not argument.strip():
                return pending
            pending = None
            continue
        if argument.startswith("-") and len(argument) > 1 and not _NEGATIVE.fullmatch(argument):
            option, equals, value = argument.partition("=")
            if equals and argument.startswith("--"):
                if not value.strip():
                    return option
            elif takes_value(option):
                pending = option
    return None


_NEGATIVE = re.compile(r"-[0-9.]+")


def _bounded(text: str, value: float, minimum: float, maximum: float | None) -> None:
    if value < minimum:
        raise OptionValueError(f"{_shown(text)} must be {minimum:g} or more")
    if maximum is not None and value > maximum:
        raise OptionValueError(f"{_shown(text)} must be {maximum:g} or less")


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "...")
