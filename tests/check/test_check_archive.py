"""The Python the check page runs (api/check/python.zip): the import closure of the page's entry point, found by
reading the source; it runs alone, on the standard library, under the oldest Python the package supports."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from check_helpers import CHECK_REGISTRY, CONFIG_FILES

from neuron_compat.site.check_archive import ArchiveError, archive_bytes, check_modules

GUARDED_RUN = r'''
import importlib.abc, json, sys
ALLOWED = set(sys.stdlib_module_names) | {"neuron_compat"}

class NoThirdParty(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] not in ALLOWED:
            raise ImportError(f"third-party import on the check path: {name}")
        return None

sys.meta_path.insert(0, NoThirdParty())
archive, registry_path, configs = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.path.insert(0, archive)
from neuron_compat.check.compiled_view import CompiledRegistry
from neuron_compat.check.page import check_answer, explain_answer
registry = CompiledRegistry(json.load(open(registry_path, encoding="utf-8")))
answers = [check_answer(open(c, encoding="utf-8").read(), registry, {}, "api/check/registry.json") for c in configs]
answers.append(check_answer("{", registry, {"batch": "x"}, "api/check/registry.json"))
answers.append(explain_answer("NCC_EVRF009", registry, "api/check/registry.json"))
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "neuron_compat")
print(json.dumps({"answers": answers, "loaded": loaded, "files": [m.__file__ for m in sys.modules.values()
      if getattr(m, "__name__", "").startswith("neuron_compat")], "version": list(sys.version_info[:2])}))
'''


def test_the_archive_holds_the_check_path_and_nothing_that_needs_pydantic():
    modules = check_modules()
    for needed in ("neuron_compat.check.page", "neuron_compat.check.answer_pipeline", "neuron_compat.check.resolver",
                   "neuron_compat.check.fit", "neuron_compat.check.config_facts", "neuron_compat.views.recommendation",
                   "neuron_compat.sizing.decoder", "neuron_compat.check.tested_lookup", "neuron_compat.check.explain"):
        assert needed in modules
    for left_out in ("neuron_compat.contract.models", "neuron_compat.loading.loader", "neuron_compat.rules",
                     "neuron_compat.site.render"):
        assert left_out not in modules
    names = zipfile.ZipFile(io.BytesIO(archive_bytes())).namelist()
    assert "neuron_compat/check/page.py" in names and "neuron_compat/__init__.py" in names
    assert archive_bytes() == archive_bytes()  # the same modules give the same bytes


def test_the_archive_alone_answers_as_check_does_on_the_oldest_python(tmp_path):
    from check_helpers import run_check

    from neuron_compat.publishing.registry_document import dumps, registry_to_json
    from neuron_compat.rules.validation import validate_registry

    archive = tmp_path / "python.zip"
    archive.write_bytes(archive_bytes())
    document = tmp_path / "registry.json"
    document.write_text(dumps(registry_to_json(validate_registry(CHECK_REGISTRY).registry)), encoding="utf-8")
    configs = CONFIG_FILES[:6]
    # -I -S: no site-packages and no PYTHONPATH; the guard refuses any import outside the standard library
    result = subprocess.run([sys.executable, "-I", "-S", "-c", GUARDED_RUN, str(archive), str(document),
                             *map(str, configs)], capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    ran = json.loads(result.stdout)
    assert ran["version"] == [3, 11]
    assert all(path.startswith(str(archive)) for path in ran["files"])
    for config, answer in zip(configs, ran["answers"], strict=False):
        expected = json.loads(run_check(str(config), "--json", registry=document).stdout)
        expected.pop("registry")
        shown = json.loads(answer["json"])
        shown.pop("registry")
        assert shown == expected, config.name
    assert ran["answers"][-2]["error"].startswith("argument --batch: 'x' is not a whole number")  # as check's parser says
    assert ran["answers"][-1]["exit_code"] in (0, 4)


def _package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "neuron_compat" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "neuron_compat"


def test_the_module_set_follows_the_code_not_a_list(tmp_path):
    package = _package(tmp_path, {
        "__init__.py": "", "check/__init__.py": "",
        "check/page.py": "import json\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from neuron_compat.check import typing_only\n"
                                  "def check_answer():\n    from neuron_compat.check.new_rule import rule\n"
                                  "def explain_answer():\n    pass\n"
                                  "def unrelated():\n    from neuron_compat.check import never\n",
        "check/new_rule.py": "from . import helper\ndef rule():\n    from neuron_compat.check.heavy import x\n",
        "check/helper.py": "import re\n",
        "check/heavy.py": "import pydantic\n",
        "check/never.py": "", "check/typing_only.py": "",
    })
    assert set(check_modules(package)) == {"neuron_compat", "neuron_compat.check.page",
                                           "neuron_compat.check", "neuron_compat.check.new_rule",
                                           "neuron_compat.check.helper"}
    (package / "check" / "helper.py").write_text("import yaml\n", encoding="utf-8")
    (package / "check" / "page.py").write_text("from neuron_compat.check import helper\n", encoding="utf-8")
    with pytest.raises(ArchiveError, match="imports yaml at the top of a module"):
        check_modules(package)


def _fetcher():
    """scripts/fetch_pyodide.py as a module (scripts/ is not a package)."""
    import importlib.util

    from check_helpers import ROOT

    spec = importlib.util.spec_from_file_location("fetch_pyodide", ROOT / "scripts" / "fetch_pyodide.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_runtime_fetcher_pins_the_page_s_version_and_ci_runs_it():
    fetch_pyodide = _fetcher()
    from check_helpers import ROOT

    from neuron_compat.site.check_archive import PYODIDE_CDN, PYODIDE_VERSION

    assert fetch_pyodide.VERSION == PYODIDE_VERSION and PYODIDE_VERSION in fetch_pyodide.TARBALL
    assert "\npython scripts/fetch_pyodide.py\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python scripts/fetch_pyodide.py" in (ROOT / ".github" / "workflows" / "check.yml").read_text(encoding="utf-8")
    assert PYODIDE_VERSION in PYODIDE_CDN and PYODIDE_CDN.startswith("https://")


def _tarball(members: dict[str, bytes]) -> bytes:
    import io
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_the_runtime_fetcher_refuses_a_tarball_that_is_not_the_pinned_one():
    fetch_pyodide = _fetcher()

    with pytest.raises(fetch_pyodide.FetchError, match="does not match the pinned sha512"):
        fetch_pyodide.verify(_tarball({"package/pyodide.mjs": b"export {}"}))


def test_the_runtime_fetcher_unpacks_only_the_package_folder(tmp_path):
    fetch_pyodide = _fetcher()

    data = _tarball({"package/pyodide.mjs": b"export {}", "package/package.json": b'{"version": "%s"}' % (
        fetch_pyodide.VERSION.encode()), "package/../../escaped.txt": b"x", "/etc/absolute.txt": b"x", "other/x": b"x"})
    fetch_pyodide.unpack(data, tmp_path / "pyodide")
    assert fetch_pyodide.installed(tmp_path / "pyodide")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == [
        "pyodide/package/package.json", "pyodide/package/pyodide.mjs"]


def test_site_refuses_a_pyodide_folder_of_another_version_in_one_line(tmp_path, capsys):
    from neuron_compat.cli import main
    from neuron_compat.site.check_archive import PYODIDE_FILES

    folder = tmp_path / "package"
    folder.mkdir()
    for name in PYODIDE_FILES:
        (folder / name).write_text("not pyodide", encoding="utf-8")
    code = main(["site", "--registry", str(CHECK_REGISTRY), "--out", str(tmp_path / "out"), "--pyodide", str(folder)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err
    assert err.startswith("error: ") and "not the file of pyodide@314.0.8 (its sha384 differs)" in err
    assert not (tmp_path / "out").exists()
