"""scripts/audit_sources.py against a stand-in mirror (a local git repo with a tag) and a local wheel cache."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "audit_sources.py"

SDK = "https://github.com/aws-neuron/aws-neuron-sdk/blob/v2.30.0"
OPTIMUM = "https://github.com/huggingface/optimum-neuron/blob/v9.9.9"
SOURCES = {
    "good": f"{SDK}/docs/page.rst#L2-L3",
    "missing": f"{SDK}/docs/gone.rst",
    "past_end": f"{SDK}/docs/page.rst#L3-L40",
    "unknown_tag": f"{SDK.replace('v2.30.0', 'v2.29.9')}/docs/page.rst",
    "docs_page": "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.30.0/docs/page.html",
    "docs_gone": "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.30.0/docs/nowhere.html",
    "wheel_good": f"{OPTIMUM}/optimum/neuron/models.py#L1-L2",
    "wheel_past_end": f"{OPTIMUM}/optimum/neuron/models.py#L5",
    "sdist_good": f"{OPTIMUM}/tests/test_models.py#L1",
    "sdist_missing": f"{OPTIMUM}/tests/test_gone.py",
    "sdist_without_docs": f"{OPTIMUM}/docs/source/index.mdx",
    "transformers_good": "https://github.com/huggingface/transformers/blob/v4.0.0/src/transformers/models/llama.py#L1",
    "unknown_host": "https://example.com/blog/neuron",
}


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                   capture_output=True)


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    work = tmp_path / "sdk"
    (work / "docs").mkdir(parents=True)
    (work / "docs" / "page.rst").write_text("Title\n=====\nllama is supported\n")
    _git("init", "-q", cwd=work)
    _git("add", ".", cwd=work)
    _git("commit", "-qm", "docs", cwd=work)
    for tag in ("v2.30.0", "v2.31.0"):
        _git("tag", tag, cwd=work)
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    _git("clone", "-q", "--bare", str(work), str(mirrors / "aws-neuron+aws-neuron-sdk" / "repo"), cwd=tmp_path)

    cache = tmp_path / "cache"
    wheels = cache / "optimum-neuron" / "9.9.9" / "wheel"
    wheels.mkdir(parents=True)
    with zipfile.ZipFile(wheels / "optimum_neuron-9.9.9-py3-none-any.whl", "w") as wheel:
        wheel.writestr("optimum/neuron/models.py", "MODELS = ['llama']\nTASKS = ['text-generation']\n")
    transformers = cache / "transformers" / "4.0.0" / "wheel"
    transformers.mkdir(parents=True)
    with zipfile.ZipFile(transformers / "transformers-4.0.0-py3-none-any.whl", "w") as wheel:
        wheel.writestr("transformers/models/llama.py", "class LlamaModel: ...\n")
    sdists = cache / "optimum-neuron" / "9.9.9" / "sdist"
    sdists.mkdir(parents=True)
    source = tmp_path / "optimum_neuron-9.9.9"
    (source / "tests").mkdir(parents=True)
    (source / "tests" / "test_models.py").write_text("def test_llama(): ...\n")
    with tarfile.open(sdists / "optimum_neuron-9.9.9.tar.gz", "w:gz") as sdist:
        sdist.add(source, arcname=source.name)

    registry = tmp_path / "registry"
    (registry / "families").mkdir(parents=True)
    lines = ["id: demo", "support:"]
    for name, url in SOURCES.items():
        lines += [f"  - name: {name}", "    sources:", f"      - url: {url}"]
    (registry / "families" / "demo.yaml").write_text("\n".join(lines) + "\n")
    return {"mirrors": mirrors, "cache": cache, "registry": registry}


def _line_of(name: str) -> int:
    """The 1-based line of the `url:` written for SOURCES[name] in the fixture file."""
    return 3 + 3 * list(SOURCES).index(name) + 2


def _run(world: dict[str, Path], *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "--registry", str(world["registry"]), "--mirrors",
                           str(world["mirrors"]), "--cache", str(world["cache"]), "--offline", *extra],
                          capture_output=True, text=True, check=False, cwd=world["registry"].parent)


def _reported(output: str, name: str) -> str:
    prefix = f"registry/families/demo.yaml:{_line_of(name)}: {SOURCES[name]}: "
    found = [line.removeprefix(prefix) for line in output.splitlines() if line.startswith(prefix)]
    assert len(found) == 1, f"{prefix!r} not reported once in:\n{output}"
    return found[0]


def test_broken_urls_are_reported_at_their_file_and_line_and_exit_1(world: dict[str, Path]) -> None:
    done = _run(world)
    assert done.returncode == 1, done.stderr
    out = done.stdout
    assert _reported(out, "missing") == "docs/gone.rst does not exist in aws-neuron/aws-neuron-sdk@v2.30.0"
    assert _reported(out, "past_end") == (
        "lines 3-40 are past the end of docs/page.rst (3 lines in aws-neuron/aws-neuron-sdk@v2.30.0)")
    assert _reported(out, "unknown_tag").startswith("unknown tag v2.29.9 in aws-neuron/aws-neuron-sdk")
    assert _reported(out, "docs_gone").startswith("no source for docs/nowhere.html at docs tag v2.30.0")
    assert _reported(out, "wheel_past_end").startswith("lines 5-5 are past the end of optimum/neuron/models.py")
    assert _reported(out, "sdist_missing") == "tests/test_gone.py does not exist in optimum-neuron==9.9.9 sdist"
    assert _reported(out, "sdist_without_docs") == "unverifiable (the optimum-neuron==9.9.9 sdist does not ship docs/)"
    assert _reported(out, "unknown_host") == "unverifiable (no local evidence for host example.com)"
    assert out.splitlines()[-1] == "13 cited URLs: 5 ok, 6 broken, 2 unverifiable"


def test_good_urls_pass_and_show_the_first_cited_line(world: dict[str, Path]) -> None:
    out = _run(world, "--first-line").stdout
    assert _reported(out, "good") == "ok [first line: =====]"
    assert _reported(out, "docs_page") == "ok"
    assert _reported(out, "wheel_good") == "ok [first line: MODELS = ['llama']]"
    assert _reported(out, "transformers_good") == "ok [first line: class LlamaModel: ...]"
    assert _reported(out, "sdist_good") == "ok [first line: def test_llama(): ...]"


def test_only_good_and_unverifiable_urls_exit_0(world: dict[str, Path]) -> None:
    demo = world["registry"] / "families" / "demo.yaml"
    kept = ["id: demo", "support:"]
    for name in ("good", "unknown_host"):
        kept += [f"  - name: {name}", "    sources:", f"      - url: {SOURCES[name]}"]
    demo.write_text("\n".join(kept) + "\n")
    done = _run(world)
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines()[-1] == "2 cited URLs: 1 ok, 0 broken, 1 unverifiable"


def test_offline_without_a_cached_release_is_unverifiable_not_ok(world: dict[str, Path]) -> None:
    demo = world["registry"] / "families" / "demo.yaml"
    url = "https://github.com/huggingface/optimum-neuron/blob/v1.2.3/optimum/neuron/models.py"
    demo.write_text(f"id: demo\nsupport:\n  - sources:\n      - url: {url}\n")
    done = _run(world)
    assert done.returncode == 0
    assert f"registry/families/demo.yaml:4: {url}: unverifiable (optimum-neuron 1.2.3 sdist not in the cache" \
        in done.stdout


def test_only_limits_the_audit_to_matching_files(world: dict[str, Path]) -> None:
    done = _run(world, "--only", "capabilities/*.yaml")
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["0 cited URLs: 0 ok, 0 broken, 0 unverifiable"]
