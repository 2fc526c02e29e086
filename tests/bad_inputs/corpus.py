"""The bad-input corpus: cases in cases.yaml, each applied on top of a copy of tests/fixtures/registry.

A case names the edits that turn the valid fixture into a bad registry, and the exact lines
`neuron-compat validate` must print for it. Large or hostile files (the 20 MB file, the alias bomb,
binary data) are generated here at test time rather than committed.

A case with `run` runs that command instead (from the directory holding ./registry, with `env` added to
the environment) and gives its exit code, its exact stdout lines (`expect`, or `contains`: lines that must
be among them) and its exact stderr lines (`stderr`); no file may change (`writes` lists the ones that may).
Edits for special files: `symlink {path: target}`, `fifo [paths]`, `mkdir [paths]`; `delete` removes
directories too; `write_append {path: text}` adds to the end of a file. Paths are relative to ./registry (`../x` is beside it).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
FIXTURE = HERE.parent / "fixtures" / "registry"
CASES_FILE = HERE / "cases.yaml"


def _alias_bomb() -> bytes:
    """The 'billion laughs' shape: nine levels of nine aliases each (9**9 strings if expanded)."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        lines.append(f"{level}: &{level} [" + ",".join(f"*{previous}" for _ in range(9)) + "]")
    return ("\n".join(lines) + "\n").encode()


def _big_file() -> bytes:
    """A 20 MB family file: a valid head, then a comment block far beyond the size limit."""
    head = (FIXTURE / "families" / "bert.yaml").read_bytes()
    filler = b"# " + b"x" * 98 + b"\n"
    return head + filler * (20 * 1024 * 1024 // len(filler))


def _binary() -> bytes:
    """The first bytes of a PNG image."""
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10" + bytes(range(256))


def _deep_nesting() -> bytes:
    return b"id: bert\nname: " + b"[" * 100_000 + b"]" * 100_000 + b"\n"


def _long_version() -> bytes:
    """releases.yaml whose newest release has a 5,000-digit patch number."""
    text = (FIXTURE / "releases.yaml").read_text(encoding="utf-8")
    return text.replace('version: "2.22.0"', 'version: "2.20.' + "5" * 5000 + '"').encode()


def _deep_json() -> bytes:
    return b"[" * 100_000 + b"]" * 100_000


def _huge_integer_json() -> bytes:
    return b'{"model_type": "bert", "architectures": ["BertModel"], "vocab_size": ' + b"9" * 5000 + b"}"


def _huge_rope_factor() -> bytes:
    return (b'{"model_type": "llama", "architectures": ["LlamaForCausalLM"], '
            b'"rope_scaling": {"rope_type": "linear", "factor": ' + b"9" * 400 + b"}}")


def _huge_hex_integer() -> bytes:
    """bert.yaml with a 5,000-digit hexadecimal integer: YAML builds it, Python cannot print it in decimal."""
    text = (FIXTURE / "families" / "bert.yaml").read_text(encoding="utf-8")
    return text.replace("model_types: [bert]\n", "model_types: [bert]\naliases: 0x" + "f" * 5000 + "\n").encode()


def _fixture_document() -> dict[str, Any]:
    """The fixture registry compiled, as `export --json` writes it."""
    from neuron_compat.publishing.registry_document import registry_to_json
    from neuron_compat.rules.validation import validate_registry

    return registry_to_json(validate_registry(FIXTURE).registry)


def _document(change: Any) -> Any:
    def generate() -> bytes:
        import json

        document = _fixture_document()
        change(document)
        return json.dumps(document).encode()
    return generate


def _family(document: dict[str, Any], family_id: str) -> dict[str, Any]:
    return next(family for family in document["families"] if family["id"] == family_id)


GENERATORS = {
    "alias-bomb": _alias_bomb,
    "20mb": _big_file,
    "binary": _binary,
    "deep-nesting": _deep_nesting,
    "long-version": _long_version,
    "deep-json": _deep_json,
    "huge-integer-json": _huge_integer_json,
    "huge-rope-factor": _huge_rope_factor,
    "huge-hex-integer": _huge_hex_integer,
    # registry documents breaking a cross-file rule (check --registry doc.json)
    "doc-model-type-in-two-families": _document(lambda d: _family(d, "bert")["model_types"].append("llama")),
    "doc-architecture-in-two-families": _document(
        lambda d: _family(d, "bert")["architectures"].append("LlamaForCausalLM")),
    "doc-duplicate-family-id": _document(lambda d: d["families"].append(dict(_family(d, "llama")))),
    "doc-duplicate-release": _document(lambda d: d["releases"].append(dict(d["releases"][-1]))),
    "doc-since-after-until": _document(lambda d: _family(d, "llama")["support"][0].update(since="2.22.0", until="2.21.0")),
    "doc-since-equals-until": _document(lambda d: _family(d, "llama")["support"][0].update(since="2.21.0", until="2.21.0")),
    "doc-huge-data-version": _document(lambda d: d.update(data_version="2026.12." + "1" * 5_000_000)),
    "doc-data-version-escape": _document(lambda d: d.update(data_version="2026.12.0\x1b[2J")),
}


@dataclass
class Case:
    name: str
    about: str
    expect: list[str] = field(default_factory=list)
    write: dict[str, str] = field(default_factory=dict)
    write_bytes: dict[str, str] = field(default_factory=dict)
    write_append: dict[str, str] = field(default_factory=dict)
    replace: list[dict[str, Any]] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)
    generate: dict[str, str] = field(default_factory=dict)
    site: bool = False  # also part of the subset checked against the site build
    run: list[str] = field(default_factory=list)  # a command instead of `validate registry`
    exit: int = 1
    stderr: list[str] | None = None
    contains: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    writes: list[str] = field(default_factory=list)
    symlink: dict[str, str] = field(default_factory=dict)
    fifo: list[str] = field(default_factory=list)
    mkdir: list[str] = field(default_factory=list)

    def materialise(self, registry: Path) -> Path:
        """Copy the fixture to `registry` and apply this case's edits; returns `registry`."""
        shutil.copytree(FIXTURE, registry)
        for name in self.delete:  # first, so that a case can put something else in its place
            target = registry / name
            shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
        for edit in self.replace:
            path = registry / edit["file"]
            text = path.read_text(encoding="utf-8")
            count = text.count(edit["old"])
            if count != 1:
                raise AssertionError(f"case {self.name}: {edit['old']!r} occurs {count} times in {edit['file']}")
            path.write_text(text.replace(edit["old"], edit["new"]), encoding="utf-8")
        for name, text in self.write.items():
            (registry / name).parent.mkdir(parents=True, exist_ok=True)
            (registry / name).write_text(text, encoding="utf-8")
        for name, text in self.write_append.items():
            with open(registry / name, "a", encoding="utf-8") as handle:
                handle.write(text)
        for name, escaped in self.write_bytes.items():
            (registry / name).parent.mkdir(parents=True, exist_ok=True)
            (registry / name).write_bytes(escaped.encode("latin-1").decode("unicode_escape").encode("latin-1"))
        for name, kind in self.generate.items():
            (registry / name).parent.mkdir(parents=True, exist_ok=True)
            (registry / name).write_bytes(GENERATORS[kind]())
        for name in self.mkdir:
            (registry / name).mkdir(parents=True)
        for name in self.fifo:
            (registry / name).parent.mkdir(parents=True, exist_ok=True)
            os.mkfifo(registry / name)
        for name, target in self.symlink.items():
            (registry / name).symlink_to(target)
        return registry


def load_cases() -> list[Case]:
    raw = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))
    cases = [Case(**entry) for entry in raw]
    names = [case.name for case in cases]
    duplicates = {name for name in names if names.count(name) > 1}
    if duplicates:
        raise AssertionError(f"duplicate case names in {CASES_FILE.name}: {sorted(duplicates)}")
    return cases
