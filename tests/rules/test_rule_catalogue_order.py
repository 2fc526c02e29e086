"""rules/catalogue_order.py: releases.yaml and stacks.yaml list each release, stack and stack version once,
releases oldest first."""

from __future__ import annotations

from pathlib import Path

from rule_helpers import append, replace_once, rule_problems

RULE = "catalogue-order"
NEWER = '  - version: "{}"\n    date: 2025-06-24\n    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/index.html\n'


def test_a_release_out_of_order_and_a_stack_version_listed_twice_are_located(registry: Path) -> None:
    append(registry / "releases.yaml", NEWER.format("2.19.0"))
    replace_once(registry / "stacks.yaml", '      - version: "0.0.27"\n        neuron: "2.21.0"\n',
                 '      - version: "0.0.27"\n        neuron: "2.21.0"\n      - version: "0.0.27"\n        neuron: "2.21.0"\n')
    assert rule_problems(registry, RULE) == [
        "registry/releases.yaml:18:14: releases[3].version: release '2.19.0' comes after '2.22.0' (keep releases "
        "oldest first)",
        "registry/stacks.yaml:14:18: stacks[0].versions[2].version: optimum-neuron version '0.0.27' is listed twice",
    ]


def test_a_newer_release_at_the_end_passes(registry: Path) -> None:
    append(registry / "releases.yaml", NEWER.format("2.23.0"))
    assert rule_problems(registry, RULE) == []


# `validate --fix`: the rule's one mechanical fix, releases put oldest first by moving whole lines.
OUT_OF_ORDER = """\
releases:
  # the newest, written first by mistake
  - version: "2.22.0"
    date: 2025-04-03
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.22.0/index.html
  - version: "2.20.0"
    date: 2024-09-16  # a kept comment
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.20.0/index.html
  - version: "2.21.0"
    date: 2024-12-20
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.21.0/index.html
# the end
"""
IN_ORDER = """\
releases:
  - version: "2.20.0"
    date: 2024-09-16  # a kept comment
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.20.0/index.html
  - version: "2.21.0"
    date: 2024-12-20
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.21.0/index.html
  # the newest, written first by mistake
  - version: "2.22.0"
    date: 2025-04-03
    notes_url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/prev/2.22.0/index.html
# the end
"""


def _validate(*args: str) -> tuple[int, str, str]:
    from cli_in_process import run_in_process

    result = run_in_process(["validate", "registry", *args], Path.cwd())
    return result.returncode, result.stdout, result.stderr


def test_validate_fix_puts_the_releases_in_order_moving_whole_lines(registry: Path) -> None:
    (registry / "releases.yaml").write_text(OUT_OF_ORDER, encoding="utf-8")
    code, out, err = _validate()
    assert code == 1 and "release '2.20.0' comes after '2.22.0'" in out
    code, out, err = _validate("--fix")
    assert (code, err.splitlines()[0]) == (0, "fixed registry/releases.yaml: releases put oldest first (1 were out "
                                              "of place)")
    assert out.startswith("ok: 2 families")
    assert (registry / "releases.yaml").read_text(encoding="utf-8") == IN_ORDER
    assert _validate("--fix")[1:] == _validate()[1:]  # nothing left to fix: --fix says nothing more


def test_validate_fix_leaves_what_is_not_mechanical_alone(registry: Path) -> None:
    twice = OUT_OF_ORDER.replace('"2.21.0"', '"2.20.0"', 1)
    (registry / "releases.yaml").write_text(twice, encoding="utf-8")
    code, out, err = _validate("--fix")
    assert code == 1 and err.splitlines()[0] == ("registry/releases.yaml: not fixed: a release is listed twice: "
                                                 "remove one by hand")
    assert "release '2.20.0' is listed twice" in out
    assert (registry / "releases.yaml").read_text(encoding="utf-8") == twice


def test_validate_fix_never_writes_over_an_edit_saved_meanwhile(registry: Path, monkeypatch) -> None:
    from neuron_compat.contributing import shadow_registry

    (registry / "releases.yaml").write_text(OUT_OF_ORDER, encoding="utf-8")
    saved = OUT_OF_ORDER.replace("# the end", "# saved by an editor while --fix ran")
    real = shadow_registry.validate_with_changes

    def validate_then_save(root, changes):  # type: ignore[no-untyped-def]
        found = real(root, changes)
        (registry / "releases.yaml").write_text(saved, encoding="utf-8")
        return found

    monkeypatch.setattr(shadow_registry, "validate_with_changes", validate_then_save)
    code, _, err = _validate("--fix")
    assert code == 1 and err.splitlines() == [
        "error: registry/releases.yaml: changed since it was read (saved by another program?); nothing written: run "
        "the command again"]
    assert (registry / "releases.yaml").read_text(encoding="utf-8") == saved
