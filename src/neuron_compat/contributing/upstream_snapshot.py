"""Writing the snapshots under registry/upstream/: shared by the scripts that regenerate them."""

from __future__ import annotations

import sys
from pathlib import Path

from neuron_compat.safeio.atomic_write import write_atomically


def without_taken(text: str) -> str:
    """The snapshot without its `taken:` date line, so a re-run on another day compares equal."""
    return "".join(line for line in text.splitlines(keepends=True) if not line.lstrip().startswith("taken:"))


def write_or_check(output: Path, text: str, script: str, check: bool) -> int:
    """Write `text` to `output` atomically, or with `check` only compare it (exit 1 when out of date)."""
    if check:
        current = output.read_text(encoding="utf-8") if output.exists() else ""
        if without_taken(current) != without_taken(text):
            print(f"{output} is out of date; rerun {script}", file=sys.stderr)
            return 1
        print(f"{output} is up to date", file=sys.stderr)
        return 0
    output.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(output, text)
    print(f"wrote {output}", file=sys.stderr)
    return 0
