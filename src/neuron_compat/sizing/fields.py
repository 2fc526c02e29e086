"""Reading size fields out of a config dict: integers only (no booleans, strings or fractions), within bounds.

A number with no fractional part (`32.0`) reads as the integer it is, as `check`'s config reading does: a pasted
config gives the same answer. Messages quote no number or text that depends on how it was written (a huge float, a
Python repr of a list)."""

from __future__ import annotations

from collections.abc import Mapping

# No real checkpoint has a dimension, count or vocabulary anywhere near this; a value above it is a typo or junk.
ABSURD = 10**13
# The largest integer a browser's double holds exactly: a count or byte size above it is not plausible either,
# and the check page (which computes in doubles) could not give it exactly.
MAX_EXACT = 2**53 - 1


class FieldError(Exception):
    """A size field is missing or unusable; the message names the field and says why."""


def has(config: Mapping[str, object], *names: str) -> bool:
    return any(config.get(name) is not None for name in names)


def json_kind(value: object) -> str:
    """What a JSON value is, in words (as check's config reading says it)."""
    if isinstance(value, list):
        return "an array"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number with a fraction" if isinstance(value, float) and not value.is_integer() else "a number"
    if isinstance(value, Mapping):
        return "an object"
    return "a string"


def as_int(value: object) -> int | None:
    """An integer, or a float without a fractional part, as an int, within +-MAX_EXACT; None for anything else."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if -MAX_EXACT <= value <= MAX_EXACT else None


def read_int(config: Mapping[str, object], *names: str, minimum: int = 1,
             default: int | None = None) -> int:
    """The first of `names` that is set, as an int in [minimum, ABSURD]; `default` when none is set."""
    for name in names:
        value = config.get(name)
        if value is None:
            continue
        if not isinstance(value, bool) and isinstance(value, (int, float)):
            if value > ABSURD:
                raise FieldError(f"{name} is above {ABSURD:.0e}: not a plausible size")
            if value < -ABSURD:
                raise FieldError(f"{name} is below {minimum}")
        number = as_int(value)
        if number is None:
            raise FieldError(f"{name} is {json_kind(value)}, not an integer")
        if number < minimum:
            raise FieldError(f"{name} is {number}, below {minimum}")
        return number
    if default is not None:
        return default
    raise FieldError(f"{' / '.join(names)} is not set")


def read_bool(config: Mapping[str, object], name: str, default: bool) -> bool:
    value = config.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise FieldError(f"{name} is {json_kind(value)}, not true/false")
    return value


def read_int_list(config: Mapping[str, object], name: str) -> list[int]:
    value = config.get(name)
    if value is None:
        return []
    if not isinstance(value, list) or any(as_int(v) is None for v in value):
        raise FieldError(f"{name} is {json_kind(value)}, not a list of integers")
    return [int(v) for v in value]


def read_str(config: Mapping[str, object], name: str) -> str | None:
    value = config.get(name)
    return value if isinstance(value, str) else None


def sub_config(config: Mapping[str, object], name: str) -> Mapping[str, object] | None:
    value = config.get(name)
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return value
    return None


def exact_div(numerator: int, denominator: int, what: str) -> int:
    if numerator % denominator:
        raise FieldError(f"{what}: {numerator} is not divisible by {denominator}")
    return numerator // denominator
