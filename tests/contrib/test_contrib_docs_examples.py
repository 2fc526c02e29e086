"""The `new` and `add-evidence` commands shown in CONTRIBUTING.md and README.md work as written on the real
registry (a newcomer copies them), with only the config path and the registry copy substituted."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
from contrib_helpers import REPO, run_cli

_SH_BLOCK = re.compile(r"```sh\n(.*?)```", re.DOTALL)


def _examples() -> list[tuple[str, list[str]]]:
    found = []
    for name in ("CONTRIBUTING.md", "README.md"):
        for block in _SH_BLOCK.findall((REPO / name).read_text()):
            for command in block.replace("\\\n", " ").splitlines():
                command = command.split("  #")[0].strip()
                if command.startswith(("neuron-compat new ", "neuron-compat add-evidence ")):
                    found.append((name, shlex.split(command)))
    return found


EXAMPLES = _examples()


def test_the_docs_show_both_commands() -> None:
    shown = {(name, argv[1]) for name, argv in EXAMPLES}
    assert {("CONTRIBUTING.md", "new"), ("CONTRIBUTING.md", "add-evidence"), ("README.md", "new"),
            ("README.md", "add-evidence")} <= shown


@pytest.mark.parametrize(("doc", "argv"), EXAMPLES, ids=[f"{doc}:{' '.join(argv[1:3])}" for doc, argv in EXAMPLES])
def test_a_documented_command_works_on_the_real_registry(doc: str, argv: list[str], tmp_path: Path) -> None:
    registry = tmp_path / "registry"
    shutil.copytree(REPO / "registry", registry)
    args = argv[1:]
    if args[0] == "new":
        family = args[1]
        assert not (registry / "families" / f"{family}.yaml").exists(), \
            f"{doc} shows `neuron-compat new {family}`, but that family now exists: pick a model_type the registry lacks"
        config = tmp_path / "config.json"
        config.write_text(json.dumps({"model_type": family}))
        index = args.index("--from-config")
        args[index + 1] = str(config)
    else:
        args.append("--dry-run")
    result = run_cli(*args, "--registry", registry, cwd=tmp_path, process=True)  # as typed: a real process
    assert result.returncode == 0, f"{doc}: {' '.join(argv)}\n{result.stdout}{result.stderr}"


# The README's `check` transcript is compared with what check prints by tests/core/test_core_readme_transcripts.py.
