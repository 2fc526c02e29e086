"""Run a blocking call under a wall-clock deadline, for network reads that per-operation timeouts cannot bound.

A socket timeout bounds each wait, not the whole exchange: a server that sends one byte every few seconds
(a body, a header line, or headers without end) keeps every wait short and never finishes. So the call runs
in a daemon thread and the caller stops waiting at the deadline; the thread is abandoned (it ends with the
process, or when its own socket timeout fires).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class DeadlineExceeded(Exception):
    """The call did not finish within the deadline."""


def call_with_deadline(function: Callable[[], T], seconds: float, name: str = "deadline") -> T:
    """`function()`'s result or exception, or DeadlineExceeded once `seconds` have passed."""
    values: list[T] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            values.append(function())
        except BaseException as error:  # noqa: BLE001 - handed to the caller's thread, re-raised there
            errors.append(error)

    worker = threading.Thread(target=work, name=name, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise DeadlineExceeded(f"no answer within {seconds:g} s")
    if errors:
        raise errors[0]
    return values[0]
