"""Reading size fields out of a config dict: integers only (no booleans, floats or strings), within bounds."""

from __future__ import annotations

from collections.abc import Mapping

# No real checkpoint has a dimension, count or vocabulary anywhere near this; a value above it is a typo or junk.
ABSURD = 10**13


class FieldError(Exception):
    """A size field is missing or unusable; the message names the field and says why."""


def has(config: Mapping[str, object], *names: str) -> bool:
    return any(config.get(name) is not None for name in names)


def read_int(config: Mapping[str, object], *names: str, minimum: int = 1,
             default: int | None = None) -> int:
    """The first of `names` that is set, as an int in [minimum, ABSURD]; `default` when none is set."""
    for name in names:
        value = config.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise FieldError(f"{name} is {value!r} ({type(value).__name__}), not an integer")
        if value < minimum:
            raise FieldError(f"{name} is {value}, below {minimum}")
        if value > ABSURD:
            raise FieldError(f"{name} is {value}, above {ABSURD:.0e}: not a plausible size")
        return value
    if default is not None:
        return default
    raise FieldError(f"{' / '.join(names)} is not set")


def read_bool(config: Mapping[str, object], name: str, default: bool) -> bool:
    value = config.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise FieldError(f"{name} is {value!r}, not true/false")
    return value


def read_int_list(config: Mapping[str, object], name: str) -> list[int]:
    value = config.get(name)
    if value is None:
        return []
    if not isinstance(value, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise FieldError(f"{name} is {value!r}, not a list of integers")
    return list(value)


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
