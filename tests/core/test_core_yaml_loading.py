"""The YAML loader: hostile files fail fast and located; valid oddities (BOM, a few aliases) load."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest

from neuron_compat.loading.yaml_reader import (
    MAX_ALIAS_USES,
    MAX_FILE_BYTES,
    MAX_NESTING,
    MAX_SNAPSHOT_BYTES,
    load_yaml_file,
)


def write(tmp_path: Path, data: bytes | str, name: str = "f.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def billion_laughs(levels: int = 9) -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, levels):
        name, previous = chr(ord("a") + level), chr(ord("a") + level - 1)
        lines.append(f"{name}: &{name} [" + ",".join(f"*{previous}" for _ in range(9)) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_fails_fast_and_small(tmp_path: Path) -> None:
    path = write(tmp_path, billion_laughs())
    tracemalloc.start()
    loaded, problem = load_yaml_file(path, display="bomb.yaml")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert loaded is None and problem is not None
    assert problem.format() == f"bomb.yaml:2:4: YAML: more than {MAX_ALIAS_USES} YAML aliases (*name); write the values out"
    assert peak < 5 * 1024 * 1024  # 9**9 'lol's were never built (the time it takes is scripts/benchmark.py's)


def merge_bomb(levels: int = 7) -> str:
    """Merge keys whose anchors are defined inside the merges: PyYAML flattens 10**levels keys before constructing
    any (25 s and 2 GB for these 479 bytes when aliases were counted as they were constructed)."""
    inner = "&l0 {" + ", ".join(f"k{i}: {i}" for i in range(10)) + "}"
    for level in range(1, levels + 1):
        inner = f"&l{level} {{<<: [{inner}, " + ", ".join([f"*l{level - 1}"] * 9) + "]}"
    return "top: " + inner + "\n"


def test_merge_key_bomb_fails_fast_and_small(tmp_path: Path) -> None:
    import time

    path = write(tmp_path, merge_bomb())
    tracemalloc.start()
    started = time.perf_counter()
    loaded, problem = load_yaml_file(path, display="merge.yaml")
    took = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert loaded is None and problem is not None
    assert problem.message == f"YAML: more than {MAX_ALIAS_USES} YAML aliases (*name); write the values out"
    assert (problem.line, problem.column) == (1, 26)
    assert peak < 5 * 1024 * 1024 and took < 2, (peak, took)


def test_aliases_up_to_the_limit_load(tmp_path: Path) -> None:
    uses = ", ".join(["*x"] * MAX_ALIAS_USES)
    loaded, problem = load_yaml_file(write(tmp_path, f"a: &x 1\nb: [{uses}]\n"))
    assert problem is None and loaded is not None
    assert loaded.data["b"] == [1] * MAX_ALIAS_USES


def test_oversized_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = write(tmp_path, b"# " + b"x" * (20 * 1024 * 1024))
    tracemalloc.start()
    _, problem = load_yaml_file(path, display="big.yaml")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1024 * 1024  # the 20 MiB were never read
    assert problem is not None and problem.message == "file is 20.0 MiB; a registry file may be at most 1024 KiB"
    assert problem.line == 0


def test_a_generated_upstream_snapshot_may_be_larger_than_a_registry_file(tmp_path: Path) -> None:
    """registry/upstream/ holds script-written snapshots (the probe's grows with the model types): 4 MiB, not 1."""
    body = b"a: 1\n" + b"#" * (2 * MAX_FILE_BYTES) + b"\n"
    (tmp_path / "upstream").mkdir()
    snapshot = tmp_path / "upstream" / "probe.yaml"
    snapshot.write_bytes(body)
    loaded, problem = load_yaml_file(snapshot)
    assert problem is None and loaded is not None and loaded.data == {"a": 1}
    family = write(tmp_path, body, "family.yaml")
    _, refused = load_yaml_file(family)
    assert refused is not None and refused.message == "file is 2.0 MiB; a registry file may be at most 1024 KiB"
    snapshot.write_bytes(b"# " + b"x" * (MAX_SNAPSHOT_BYTES + 1))
    _, too_big = load_yaml_file(snapshot)
    assert too_big is not None and too_big.message == "file is 4.0 MiB; an upstream snapshot may be at most 4096 KiB"


def test_file_at_the_size_limit_loads(tmp_path: Path) -> None:
    head = b"a: 1\n"
    path = write(tmp_path, head + b"#" * (MAX_FILE_BYTES - len(head) - 1) + b"\n")
    loaded, problem = load_yaml_file(path)
    assert problem is None and loaded is not None and loaded.data == {"a": 1}


@pytest.mark.parametrize("opener, closer", [("[", "]"), ("{a: ", "}")])
def test_nesting_limit_is_exact(tmp_path: Path, opener: str, closer: str) -> None:
    ok = write(tmp_path, "x: " + opener * MAX_NESTING + "1" + closer * MAX_NESTING + "\n", "ok.yaml")
    assert load_yaml_file(ok)[1] is None
    deep = write(tmp_path, "x: " + opener * (MAX_NESTING + 1) + "1" + closer * (MAX_NESTING + 1) + "\n", "deep.yaml")
    problem = load_yaml_file(deep, display="deep.yaml")[1]
    assert problem is not None
    column = 4 + MAX_NESTING * len(opener)
    assert problem.format() == f"deep.yaml:1:{column}: YAML: nested more than {MAX_NESTING} levels deep " \
                               "(registry files need only a few levels)"


def test_compact_block_nesting_is_refused_before_the_c_parser_crashes(tmp_path: Path) -> None:
    problem = load_yaml_file(write(tmp_path, "- " * 200_000 + "x\n"), display="d.yaml")[1]
    assert problem is not None and problem.format().startswith("d.yaml:1:1: YAML: nested more than")


def test_many_brackets_side_by_side_are_not_nesting(tmp_path: Path) -> None:
    text = "x:\n" + "".join(f"  - [a{i}, {{b: [c]}}]\n" for i in range(500))
    loaded, problem = load_yaml_file(write(tmp_path, text))
    assert problem is None and loaded is not None and len(loaded.data["x"]) == 500


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    loaded, problem = load_yaml_file(write(tmp_path, b"\xef\xbb\xbfid: bert\n"))
    assert problem is None and loaded is not None and loaded.data == {"id": "bert"}


@pytest.mark.parametrize("text, expected", [
    ("a: 2026-13-02\n", "f.yaml:1:4: YAML: cannot read '2026-13-02' as a date (month must be in 1..12)"),
    ("a: !!int abc\n", "f.yaml:1:4: YAML: cannot read 'abc' as an integer (invalid literal for int() with base 10: 'abc')"),
    ("a: !!bool maybe\n", "f.yaml:1:4: YAML: cannot read 'maybe' as true or false"),
    ("a: " + "9" * 5000 + "\n", "f.yaml:1:4: YAML: cannot read '" + "9" * 40 + "...' as an integer (a number with more than 4300 digits)"),
    ("a: 0x" + "f" * 5000 + "\n", "f.yaml:1:4: YAML: cannot read '0x" + "f" * 38 + "...' as an integer (a number with more than 4300 digits)"),
    ("? 0b" + "1" * 20000 + "\n: a\n", "f.yaml:1:3: YAML: cannot read '0b" + "1" * 38 + "...' as an integer (a number with more than 4300 digits)"),
    ("a: !!timestamp soon\n", "f.yaml:1:4: YAML: cannot read 'soon' as a date"),
    ("a: !!python/name:os.system\n", "f.yaml:1:4: YAML: could not determine a constructor for the tag "
     "'tag:yaml.org,2002:python/name:os.system' (registry files hold plain data: remove the !tag)"),
    ("? [a]\n: b\n", "f.yaml:1:3: YAML: while constructing a mapping: found unhashable key (write plain keys and values)"),
    ("a: 1\na: 2\n", "f.yaml:2:1: YAML: duplicate key 'a' (first at line 1); keep one"),
])
def test_values_yaml_cannot_build_are_located(tmp_path: Path, text: str, expected: str) -> None:
    problem = load_yaml_file(write(tmp_path, text), display="f.yaml")[1]
    assert problem is not None and problem.format() == expected


def test_python_tags_are_never_constructed(tmp_path: Path) -> None:
    marker = tmp_path / "hacked"
    text = f"a: !!python/object/apply:os.system ['touch {marker}']\n"
    assert load_yaml_file(write(tmp_path, text))[1] is not None
    assert not marker.exists()
