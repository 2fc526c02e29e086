"""The harvester parsers live beside their scripts (scripts/harvesters/, not shipped in the wheel): put scripts/
on the import path for the tests that read them."""

from __future__ import annotations

import sys
from pathlib import Path

SCRIPTS = str(Path(__file__).resolve().parents[2] / "scripts")
if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)
