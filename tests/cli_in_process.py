"""`neuron-compat ARGS` run in this process (`neuron_compat.cli.main(argv)` from a folder, output captured), for the
tests of what a command says: a fresh interpreter per run costs about half a second for nothing the command does
differently. Real processes stay where the process is the point: exit codes seen by a shell, signals, output
encodings, and environment variables read when a module is imported (HF_ENDPOINT, HF_HUB_OFFLINE).

Importable as `cli_in_process` from any test folder (tests/ is on sys.path through tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path


def run_in_process(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """What `neuron-compat ARGS` run from `cwd` returns and prints, as a CompletedProcess (argparse's usage errors
    give their exit code as a process would)."""
    from neuron_compat.cli import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    try:
        os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exit_:  # argparse's usage errors
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())
