"""The site build fails cleanly on the representative bad inputs (cases marked `site: true`).

Cleanly means: `neuron-compat site` (the README's build starts with it) exits 1, prints the same located line as `validate`, shows no traceback,
and leaves the previous output directory exactly as it was. mkdocs runs from the case's directory
with the repository's mkdocs.yml, so the build also shows it does not depend on the current directory.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import Case, load_cases
from engine_build import build_site

REPO = Path(__file__).resolve().parents[2]
SITE_CASES = [case for case in load_cases() if case.site]
PREVIOUS = {"index.html": "<p>previous build</p>\n", "api/registry.json": '{"previous": true}\n'}

def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", SITE_CASES, ids=lambda case: case.name)
def test_site_build_fails_cleanly_and_keeps_previous_output(case: Case, tmp_path: Path) -> None:
    case.materialise(tmp_path / "registry")
    out = tmp_path / "out"
    for name, text in PREVIOUS.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text, encoding="utf-8")
    before = snapshot(out)
    # an absolute registry path (relative ones are taken beside mkdocs.yml); messages are shown relative to cwd
    result = build_site(tmp_path / "registry", out, cwd=tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Traceback" not in output
    for line in case.expect:
        assert line in output.splitlines(), output
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "registry"]
