"""Each workload in a forked child with a wall-clock timeout and an address-space cap.

A capture that hangs, eats memory or crashes the interpreter becomes that workload's outcome
(`timeout`, `memory`, `crashed`), never the run's end.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import resource
import sys
import traceback
from collections.abc import Callable
from typing import Any

from .capture import error_text

MEMORY_WORDS = ("MemoryError", "can't allocate memory", "std::bad_alloc", "Cannot allocate memory")


def _child(job: Callable[[], dict[str, Any]], memory_bytes: int, conn: Any) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # torch prints whole graphs when an export fails: not the run's log
    os.dup2(devnull, 2)
    try:
        result = job()
    except MemoryError:
        result = {"outcome": "memory", "error": f"exceeded the memory cap of {memory_bytes / 2**30:.0f} GiB"}
    except BaseException as exc:  # noqa: BLE001 - the harness's own failure, recorded rather than lost
        text = error_text(exc) or traceback.format_exc(limit=1)
        memory = any(word in text for word in MEMORY_WORDS)
        result = {"outcome": "memory" if memory else "harness_error", "error": text}
    conn.send(result)


def run_isolated(job: Callable[[], dict[str, Any]], timeout: float, memory_gb: float) -> dict[str, Any]:
    """job() in a forked child, killed after `timeout` seconds; its address space capped at `memory_gb`."""
    sys.stdout.flush()
    sys.stderr.flush()
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    memory_bytes = int(memory_gb * 2**30)
    process = ctx.Process(target=_child, args=(job, memory_bytes, child))
    process.start()
    child.close()
    result: dict[str, Any] | None = None
    if parent.poll(timeout):
        try:
            result = parent.recv()
        except EOFError:
            result = None
    process.join(5)
    if process.is_alive():
        process.kill()
        process.join()
    parent.close()
    if result is None:
        if process.exitcode in (None, -9):
            result = {"outcome": "timeout", "error": f"timed out after {timeout:.0f} s"}
        else:
            result = {"outcome": "crashed", "error": f"the probe process exited with code {process.exitcode}"}
    if result.get("outcome") == "harness_error" and any(w in result.get("error", "") for w in MEMORY_WORDS):
        result["outcome"] = "memory"
    return result
