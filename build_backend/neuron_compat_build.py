"""The build backend: setuptools', with one step more. A wheel carries the registry compiled from registry/.

`[build-system]` in pyproject.toml names this module (`backend-path = ["build_backend"]`) and needs only
setuptools>=68. Building a wheel runs setuptools' `build_py` and then writes, into the wheel's
`neuron_compat/data/`, `registry.json` (the document `neuron-compat export --json` writes for registry/) and
its index, compiled by the package's own code (`neuron_compat.registry_sources.bundled.compile_snapshot`).
Nothing compiled is committed: a clone compiles its registry/ on demand instead, and an editable install
builds no snapshot.

The compile needs the package's dependencies (pydantic, PyYAML, ruamel.yaml). Tried in order: this
interpreter (a build without isolation); the interpreter that runs the build, outside pip's isolated
environment (it has them when the package's dependencies are installed, as in a development environment);
else `get_requires_for_build_wheel` asks the frontend for them, like any build requirement.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.command.build_py import build_py as _build_py

ROOT = Path(__file__).resolve().parents[1]
COMPILE = (
    "import json, sys\n"
    "from pathlib import Path\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "from neuron_compat.registry_sources.bundled import compile_snapshot\n"
    "compiled = compile_snapshot(Path(sys.argv[2]))\n"
    "if isinstance(compiled, list):\n"
    "    sys.stderr.write(''.join(p.format() + '\\n' for p in compiled))\n"
    "    sys.exit(1)\n"
    "for text, target in zip(compiled, sys.argv[3:5], strict=True):\n"
    "    Path(target).write_text(text, encoding='utf-8', newline='\\n')\n"
)
PROBE = "import pydantic, yaml, ruamel.yaml"


def _outside_isolation() -> dict[str, str]:
    """This environment without what pip's isolated build environment adds (its PYTHONPATH overlay)."""
    return {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONNOUSERSITE")}


def _runs(env: dict[str, str] | None) -> bool:
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, check=False).returncode == 0


def _compile(source: Path, registry: Path, document: Path, index: Path) -> None:
    for env in (None, _outside_isolation()):
        if _runs(env):
            break
    else:
        raise SystemExit("building the neuron-compat wheel compiles registry/ and needs pydantic, PyYAML and "
                         "ruamel.yaml; install them, or let the build frontend install the build requirements")
    result = subprocess.run([sys.executable, "-c", COMPILE, str(source), str(registry), str(document), str(index)],
                            env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"registry/ does not validate; the wheel is not built:\n{result.stderr}")


class BuildPy(_build_py):
    """setuptools' build_py, then the compiled registry into the built package (not for an editable install)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        registry = ROOT / "registry"
        if not (registry / "releases.yaml").is_file():
            raise SystemExit(f"no registry at {registry}: the wheel bundles the compiled registry")
        data = Path(self.build_lib) / "neuron_compat" / "data"
        data.mkdir(parents=True, exist_ok=True)
        _compile(ROOT / "src", registry, data / "registry.json", data / "registry.index.json")
        json.loads((data / "registry.index.json").read_text(encoding="utf-8"))  # written whole


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    wanted: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    if not _runs(None) and not _runs(_outside_isolation()):
        wanted += ["pydantic>=2.7,<3", "pyyaml>=6.0", "ruamel.yaml>=0.18,<0.20"]
    return wanted


get_requires_for_build_sdist = _setuptools.get_requires_for_build_sdist
get_requires_for_build_editable = _setuptools.get_requires_for_build_editable
prepare_metadata_for_build_wheel = _setuptools.prepare_metadata_for_build_wheel
prepare_metadata_for_build_editable = _setuptools.prepare_metadata_for_build_editable
build_wheel = _setuptools.build_wheel
build_sdist = _setuptools.build_sdist
build_editable = _setuptools.build_editable
