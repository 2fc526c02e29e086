#!/usr/bin/env python
"""Benchmark neuron-compat against its targets, side by side with the baselines, in one run.

    python scripts/benchmark.py                 # every part, N = 100, 1000, 5000
    python scripts/benchmark.py --sizes 100,1000 --parts loader

Parts (each prints why it is skipped when the feature it measures is missing):
  loader   load + validate + rules vs a bare yaml.load(CSafeLoader) of the same files  (target <= 1.5x at each N),
           with the cost of each rule and of each fixed-size file kind; the ratio of the fastest runs and the
           median of the rounds' ratios (full and bare measured back to back, less moved by one noisy run)
  site     the generator writing the tree (neuron-compat site) vs mkdocs building it (target: <= 25% of it)
  real     the site build of the real registry/                                          (target < 20 s)
  check    `neuron-compat check <config.json>` (bundled snapshot, target <= 4x; and in a clone through its warm
           compile cache, target <= 6x, with no pydantic or yaml imported) vs `python -c pass`, whole processes,
           wall, median of >= 7 interleaved, bytecode written; and over the largest synthetic registry
  sizes    family page HTML, api/registry.json and the search index at each N
  browser  the matrix filter's time per keystroke at the largest N in chromium          (target < 100 ms)
  checkpage  the check page on registry/: bytes on a first and a return visit, time to the first answer with a
           cold cache (target <= 5 s) and another answer on the loaded page (target <= 0.5 s), in chromium

The synthetic registry uses the real releases.yaml, stacks.yaml, instances.yaml and capabilities/, N families with realistic
statements (several stacks, ranges, notes, constraints, two sources each), a transformers snapshot listing
their model_types and an optimum-neuron snapshot registering what they claim (so every rule has its full work
to do). The bare load reads releases, stacks, the transformers snapshot and the families, as it always has;
validation also reads capabilities/, instances.yaml, registry.yaml and the optimum-neuron snapshot. The probe file
(upstream/probe.yaml, fixed size) is measured on its own, from registry/.
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from pydantic import BaseModel

from neuron_compat.check.bundled_index import index_text
from neuron_compat.contract.models import CapabilitiesFile, InstancesFile, ProbeSnapshot, TransformersSnapshot
from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.loading.loader import INSTANCES_FILE, PROBE_SNAPSHOT, TRANSFORMERS_SNAPSHOT, load_registry
from neuron_compat.loading.yaml_reader import load_yaml_file
from neuron_compat.publishing.registry_document import dumps, registry_to_json
from neuron_compat.registry_sources.bundled import compiled_clone
from neuron_compat.rules import RULES, run_rules
from neuron_compat.rules.validation import validate_registry
from neuron_compat.views.optimum_neuron_crosscheck import (
    OPTIMUM_SNAPSHOT,
    STACK,
    claimed_model_types,
    load_snapshot,
)

BASE_REGISTRY = ROOT / "registry"


# --- the synthetic registry -------------------------------------------------------------------------


def _end_for(stack: dict[str, Any], workload: str, hardware: list[str], releases: list[str]) -> str | None:
    """The earliest release where `stack` ends for `workload` on one of `hardware` (end_of_support or `ends`)."""
    found = [stack["end_of_support"]] if stack.get("end_of_support") in releases else []
    for entry in stack.get("ends") or []:
        if (not entry.get("workloads") or workload in entry["workloads"]) and \
                (not entry.get("hardware") or set(hardware) & set(entry["hardware"])) and entry["release"] in releases:
            found.append(entry["release"])
    return min(found, key=releases.index) if found else None


def _statement_yaml(rng: random.Random, stack: dict[str, Any], workload: str, releases: list[str], inherits: bool) -> str:
    """One realistic statement for `stack`, consistent with the rules (versions, notes for partial ...); when
    the stack has a capability file (`inherits`), it states no attention or dtypes and inherits them, as the
    real statements of such stacks mostly do."""
    versions = stack.get("versions") or []
    hardware = sorted(rng.sample(stack["hardware"], rng.randint(1, len(stack["hardware"]))))
    end = _end_for(stack, workload, hardware, releases)
    ended = end is not None  # its statements need an until, so not 'unknown'
    status = rng.choices(["supported", "partial", "unsupported", "unknown"], [6, 2, 1, 0 if ended else 1])[0]
    lines = [f"  - stack: {stack['id']}", f"    workload: {workload}", f"    hardware: [{', '.join(hardware)}]",
             f"    status: {status}"]
    if status != "unknown":
        if versions:
            usable = [v for v in versions if end is None or releases.index(v["neuron"]) < releases.index(end)]
            own = rng.choice(usable or versions)
            lines += [f"    since: \"{own['neuron']}\"", f"    stack_since: \"{own['version']}\""]
            if end is not None:  # the stack ends here for this workload and hardware: so does the statement
                lines.append(f"    until: \"{end}\"")
        else:
            lower = releases.index(stack["since"]) if stack.get("since") in releases else 0
            upper = releases.index(end) if end is not None else len(releases)
            since_index = rng.randrange(lower, max(lower + 1, upper - 1))
            lines.append(f"    since: \"{releases[since_index]}\"")
            if end is not None:  # a statement ends where the stack does (for its workload and hardware), or before
                lines.append(f"    until: \"{releases[rng.randint(since_index + 1, upper)]}\"")
            elif rng.random() < 0.2 and since_index + 1 < len(releases):
                lines.append(f"    until: \"{releases[rng.randrange(since_index + 1, len(releases))]}\"")
    if status in ("supported", "partial"):
        if not inherits:
            lines += [f"    attention: [{', '.join(rng.sample(['eager', 'sdpa', 'nki-flash', 'native'], 2))}]",
                      f"    dtypes: [{', '.join(rng.sample(['bf16', 'fp16', 'fp32', 'fp8'], 2))}]"]
        lines += ["    parallelism:", f"      tensor: [{rng.choice([2, 8, 32])}, {rng.choice([16, 64])}]",
                  "    constraints:", "      - kind: static-shapes",
                  "      - kind: max-sequence-length", f"        value: {rng.choice([2048, 4096, 8192, 32768])}",
                  "      - kind: flag", "        name: NEURON_RT_ASYNC_LOADING", "        value: false"]
    if status in ("partial", "unsupported") or rng.random() < 0.3:
        lines += ["    notes:", f"      - text: Compiles with `--auto-cast=matmult`; long prompts need bucketing "
                  f"above {rng.choice([2048, 4096])} tokens (see the [guide](https://example.com/guide))."]
    lines += ["    sources:",
              "      - url: https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/index.html",
              "        title: Neuron release notes", "        kind: release-notes", "        verified: 2026-11-20",
              f"      - url: https://github.com/huggingface/optimum-neuron/blob/v0.4.5/models/m{rng.randint(0, 999)}.py",
              "        kind: source-code", "        verified: 2026-11-21"]
    return "\n".join(lines) + "\n"


def write_synthetic_registry(target: Path, families: int, seed: int = 0) -> Path:
    """A valid registry of `families` synthetic families on the real release and stack catalogue."""
    # the tested configurations and known issues name the real families: the synthetic ones are others
    shutil.copytree(BASE_REGISTRY, target,
                    ignore=shutil.ignore_patterns("families", "upstream", "configurations", "known-issues"))
    (target / "families").mkdir()
    (target / "upstream").mkdir()
    releases = [r["version"] for r in yaml.safe_load((target / "releases.yaml").read_text())["releases"]]
    stacks = yaml.safe_load((target / "stacks.yaml").read_text())["stacks"]
    with_capabilities = {path.stem for path in (target / "capabilities").glob("*.yaml")}
    rng = random.Random(seed)
    model_types: dict[str, str] = {}
    for index in range(families):
        family_id = f"family{index:05d}"
        model_types[family_id] = f"Family{index:05d}Config"
        combos = [(s, w) for s in stacks for w in s["workloads"]]
        chosen = rng.sample(combos, min(len(combos), rng.randint(3, 6)))
        text = (f"# yaml-language-server: $schema=../schemas/family.schema.json\nid: {family_id}\n"
                f"name: Family {index}\nvendor: Vendor {index % 50}\n"
                f"description: A synthetic decoder-only family number {index}, with `rope` scaling.\n"
                f"model_types: [{family_id}]\narchitectures: [Family{index:05d}ForCausalLM]\n"
                f"classes: [decoder-lm]\ntasks: [text-generation]\naliases: [Family {index} Instruct]\n"
                f"examples: [vendor{index % 50}/Family-{index}-8B]\nsupport:\n")
        text += "".join(_statement_yaml(rng, stack, workload, releases, stack["id"] in with_capabilities)
                        for stack, workload in chosen)
        (target / "families" / f"{family_id}.yaml").write_text(text, encoding="utf-8")
    snapshot = {"source": "https://pypi.org/project/transformers/", "transformers_version": "0.0.0-synthetic",
                "taken": "2026-12-02", "model_types": model_types}
    (target / "upstream" / "transformers-model-types.yaml").write_text(yaml.safe_dump(snapshot), encoding="utf-8")
    _write_optimum_snapshot(target)
    return target


def _write_optimum_snapshot(target: Path) -> None:
    """upstream/optimum-neuron.yaml registering, per optimum-neuron version of stacks.yaml, what the synthetic
    families claim there (newest first, as the real one), so the cross-check runs in full and finds nothing."""
    registry = load_registry(target).registry
    stack = registry.stack_by_id.get(STACK)
    if stack is None:
        return
    versions = []
    for version in reversed([v.version for v in stack.versions]):
        claimed = claimed_model_types(registry, version)
        versions.append({"version": version, "decoder": sorted(claimed["inference"]),
                         "training": sorted(claimed["training"])})
    snapshot = {"source": "https://pypi.org/project/optimum-neuron/", "taken": "2026-12-02", "versions": versions}
    (target / OPTIMUM_SNAPSHOT).write_text(yaml.safe_dump(snapshot, sort_keys=False), encoding="utf-8")


# --- measuring ------------------------------------------------------------------------------------


@dataclass
class Row:
    part: str
    what: str
    value: str
    target: str = ""
    met: bool | None = None


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def add(self, *args: object, **kwargs: object) -> None:
        self.rows.append(Row(*args, **kwargs))  # type: ignore[arg-type]
        row = self.rows[-1]
        verdict = "" if row.met is None else ("  [met]" if row.met else "  [MISSED]")
        print(f"  {row.part:8} {row.what:58} {row.value:>22}  {row.target}{verdict}", flush=True)


def best_of(repeat: int, function: Callable[[], object]) -> float:
    """The fastest of `repeat` runs, in seconds (the least disturbed by the rest of the machine)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)


def interleaved(repeat: int, functions: list[Callable[[], object]]) -> list[float]:
    """The least CPU time of each function, taking turns: CPU time, not wall time, so that other work on a
    shared machine does not count; taking turns, so that what remains of it hits all alike."""
    return [min(times) for times in interleaved_rounds(repeat, functions)]


def interleaved_rounds(repeat: int, functions: list[Callable[[], object]]) -> list[list[float]]:
    """The CPU time of each function in each round (rounds as `interleaved` takes them), per function."""
    times: list[list[float]] = [[] for _ in functions]
    for _ in range(repeat):
        for index, function in enumerate(functions):
            gc.collect()
            started = time.process_time()
            function()
            times[index].append(time.process_time() - started)
    return times


def registry_files(root: Path) -> list[Path]:
    return [root / "releases.yaml", root / "stacks.yaml", root / TRANSFORMERS_SNAPSHOT,
            *sorted((root / "families").glob("*.yaml"))]


def bare_load_of(paths: list[Path]) -> None:
    for path in paths:
        yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def bare_load(root: Path) -> None:
    for path in registry_files(root):
        yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def loader_only(root: Path) -> None:
    for path in registry_files(root):
        load_yaml_file(path)


def _load_and_validate(paths: list[Path], model: type[BaseModel]) -> None:
    for path in paths:
        loaded, problem = load_yaml_file(path)
        if problem is not None or loaded is None:
            raise SystemExit(problem.format() if problem else f"{path}: unreadable")
        model.model_validate(loaded.data)


def _index_names(registry: object) -> list[str]:
    return [name for name in dir(type(registry)) if isinstance(getattr(type(registry), name), functools.cached_property)]


def _without_indexes(registry: Registry) -> Registry:
    """The registry with its cached indexes dropped (they are rebuilt on the next read)."""
    for name in _index_names(registry):
        registry.__dict__.pop(name, None)
    return registry


def _build_indexes(registry: Registry) -> None:
    for name in _index_names(registry):
        getattr(registry, name)


def part_costs(root: Path, repeat: int) -> list[tuple[str, float]]:
    """(what, least CPU seconds) for loading each kind of fixed-size file, and for each rule on the loaded
    registry, taking turns as `interleaved` does."""
    registry = load_registry(root).registry
    capabilities = sorted((root / "capabilities").glob("*.yaml"))
    probe = BASE_REGISTRY / PROBE_SNAPSHOT
    parts: list[tuple[str, Callable[[], object]]] = [
        ("bare yaml.load of capabilities/*.yaml", lambda: bare_load_of(capabilities)),
        ("load + schema of capabilities/*.yaml", lambda: _load_and_validate(capabilities, CapabilitiesFile)),
        (f"bare yaml.load of {INSTANCES_FILE}", lambda: bare_load_of([root / INSTANCES_FILE])),
        (f"load + schema of {INSTANCES_FILE}", lambda: _load_and_validate([root / INSTANCES_FILE], InstancesFile)),
        (f"bare yaml.load of {TRANSFORMERS_SNAPSHOT}", lambda: bare_load_of([root / TRANSFORMERS_SNAPSHOT])),
        (f"load + schema of {TRANSFORMERS_SNAPSHOT}",
         lambda: _load_and_validate([root / TRANSFORMERS_SNAPSHOT], TransformersSnapshot)),
        (f"bare yaml.load of {OPTIMUM_SNAPSHOT}", lambda: bare_load_of([root / OPTIMUM_SNAPSHOT])),
        (f"load of {OPTIMUM_SNAPSHOT} (the rule's load_snapshot)", lambda: load_snapshot(root)),
        (f"bare yaml.load of registry/{PROBE_SNAPSHOT}", lambda: bare_load_of([probe])),
        (f"load + schema of registry/{PROBE_SNAPSHOT}", lambda: _load_and_validate([probe], ProbeSnapshot)),
    ]
    # Each rule and run_rules start from a registry without its cached indexes, as in a validation: a rule's
    # cost includes building the indexes it reads (shared ones are built once per validation by the first reader).
    parts.append(("the registry's shared indexes, all built", lambda: _build_indexes(_without_indexes(registry))))
    parts += [(f"rule {rule.name}", lambda rule=rule: list(rule.check(_without_indexes(registry))))  # type: ignore[misc]
              for rule in RULES]
    parts.append(("all rules (run_rules)", lambda: run_rules(_without_indexes(registry))))
    return list(zip([name for name, _ in parts], interleaved(repeat, [function for _, function in parts]), strict=True))


def bench_loader(report: Report, registries: dict[int, Path], repeat: int) -> None:
    per_family: dict[int, tuple[float, float]] = {}
    for n, root in registries.items():
        result = validate_registry(root)
        if result.problems:
            raise SystemExit(f"the synthetic registry has problems: {result.problems[0].format()}")
        del result  # measured below with only the registry under test alive, as a validate run has it
        for what, seconds in part_costs(root, repeat):
            report.add("loader", f"N={n}: {what}", f"{seconds * 1000:.1f} ms CPU")
        rounds = interleaved_rounds(repeat, [partial(bare_load, root), partial(loader_only, root),
                                             partial(load_registry, root), partial(validate_registry, root)])
        bare, guarded, schema, full = (min(times) for times in rounds)
        per_family[n] = (full / n, bare / n)
        ratio = full / bare
        # The same ratio taken round by round (full and bare measured back to back), its median: less moved by
        # one lucky or unlucky run of either than the ratio of the two fastest runs.
        round_ratio = statistics.median(f / b for f, b in zip(rounds[3], rounds[0], strict=True))
        report.add("loader", f"N={n}: bare yaml.load (CSafeLoader)", f"{bare * 1000:.0f} ms CPU")
        report.add("loader", f"N={n}: + guards (yaml_loading)", f"{guarded * 1000:.0f} ms CPU")
        report.add("loader", f"N={n}: + schema (load_registry)", f"{schema * 1000:.0f} ms CPU")
        report.add("loader", f"N={n}: + rules (validate_registry) = full", f"{full * 1000:.0f} ms CPU")
        report.add("loader", f"N={n}: full / bare", f"{ratio:.2f}x", "<= 1.5x", ratio <= 1.5)
        report.add("loader", f"N={n}: full / bare, median of the {repeat} rounds' ratios", f"{round_ratio:.2f}x",
                   "<= 1.5x", round_ratio <= 1.5)
    if len(per_family) > 1:
        smallest, largest = min(per_family), max(per_family)
        growth = per_family[largest][0] / per_family[smallest][0]
        bare_growth = per_family[largest][1] / per_family[smallest][1]
        # Linear means the cost per family stays put; the bare load's own drift (caches, allocator) is the yardstick.
        report.add("loader", f"CPU per family, N={largest} vs N={smallest}: full (bare)",
                   f"{growth:.2f}x ({bare_growth:.2f}x)", "linear: full grows no more than bare + 0.15",
                   growth <= bare_growth + 0.15)


# --- site, check, sizes, browser -------------------------------------------------------------------


def child_cpu(function: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child processes) of running `function`, which runs subprocesses."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    function()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _site_missing() -> str | None:
    """Why the site cannot be built here, or None when it can."""
    if not (ROOT / "mkdocs.yml").is_file():
        return "no mkdocs.yml yet (the site is not built in this tree)"
    try:
        import mkdocs  # noqa: F401

        import neuron_compat.site.tree_source  # noqa: F401
    except ImportError as error:
        return f"the site tools do not import: {error}"
    return None


def write_tree(registry: Path, docs: Path) -> subprocess.CompletedProcess[str]:
    """The generator alone: `neuron-compat site --registry R --out DOCS` (validation, rendering, writing)."""
    return subprocess.run([sys.executable, "-m", "neuron_compat.cli", "site", "-q", "--registry", str(registry),
                           "--pages", str(ROOT / "site"), "--out", str(docs)],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, capture_output=True, text=True)


def mkdocs_build(docs: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """The engine alone: mkdocs-material building the written tree (the README's `mkdocs build`)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "NEURON_COMPAT_DOCS": str(docs), "PYTHONPATH": str(ROOT / "src")}
    shutil.rmtree(out, ignore_errors=True)
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True)


def _generator_and_engine(report: Report, label: str, registry: Path, work: Path, repeat: int) -> Path | None:
    """Time the generator writing the tree and mkdocs building it, in the same run; report the share."""
    docs, out = work / f"docs-{label}", work / f"site-{label}"
    tree_runs, engine_runs = [], []
    for _ in range(repeat):
        done: list[subprocess.CompletedProcess[str]] = []
        tree_runs.append(child_cpu(partial(_append_run, done, write_tree, registry, docs)))
        if done[0].returncode != 0:
            report.skipped.append(f"site {label}: neuron-compat site failed: {(done[0].stderr or done[0].stdout)[-300:]}")
            return None
        engine_runs.append(child_cpu(partial(_append_run, done, mkdocs_build, docs, out)))
        if done[1].returncode != 0:
            report.skipped.append(f"site {label}: mkdocs build failed: {(done[1].stderr or done[1].stdout)[-300:]}")
            return None
    tree_wall, engine_wall = min(w for w, _ in tree_runs), min(w for w, _ in engine_runs)
    tree_cpu, engine_cpu = min(c for _, c in tree_runs), min(c for _, c in engine_runs)
    share = tree_wall / engine_wall
    report.add("site", f"{label}: generator writes the tree / mkdocs builds it (wall)",
               f"{tree_wall:.1f} s / {engine_wall:.1f} s")
    report.add("site", f"{label}: generator writes the tree / mkdocs builds it (CPU)",
               f"{tree_cpu:.1f} s / {engine_cpu:.1f} s")
    report.add("site", f"{label}: generator's share of the engine's build (wall)", f"{share * 100:.0f}%", "<= 25%",
               share <= 0.25)
    return out


def _append_run(done: list[subprocess.CompletedProcess[str]],
                step: Callable[[Path, Path], subprocess.CompletedProcess[str]], first: Path, second: Path) -> None:
    done.append(step(first, second))


def bench_site(report: Report, registries: dict[int, Path], work: Path, repeat: int) -> dict[int, Path]:
    built: dict[int, Path] = {}
    reason = _site_missing()
    if reason:
        report.skipped.append(f"site: {reason}")
        return built
    for n, registry in registries.items():
        out = _generator_and_engine(report, f"N={n}", registry, work, repeat)
        if out is None:
            return built
        built[n] = out
    return built


def bench_real(report: Report, work: Path) -> None:
    reason = _site_missing()
    if reason:
        report.skipped.append(f"real: {reason}")
        return
    families = len(list((BASE_REGISTRY / "families").glob("*.yaml")))
    started = time.perf_counter()
    out = _generator_and_engine(report, f"registry/ ({families} families)", BASE_REGISTRY, work, 1)
    if out is not None:
        wall = time.perf_counter() - started
        report.add("real", f"README build of registry/ ({families} families, {os.cpu_count()} cores): site + mkdocs wall",
                   f"{wall:.1f} s", "< 20 s", wall < 20)


def wall_medians(repeat: int, commands: list[list[str]], **options: object) -> list[float]:
    """The median wall time of each command as a whole process, taking turns (so machine noise hits all alike)."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for index, command in enumerate(commands):
            started = time.perf_counter()
            subprocess.run(command, capture_output=True, check=False, **options)  # type: ignore[call-overload]
            times[index].append(time.perf_counter() - started)
    return [statistics.median(runs) for runs in times]


# `check` answering from a given compiled document as an installed wheel answers from its bundled document (no
# validation, no clone to compile), so a synthetic registry measures how the hot path grows with the registry.
_CHECK_WITH_SNAPSHOT = (
    "import sys, pathlib, neuron_compat.check.bundled_index as b, neuron_compat.registry_sources.bundled as s\n"
    "b.DOCUMENT, b.INDEX = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[1] + '.index')\n"
    "s.source_checkout = lambda *_: None\n"
    "from neuron_compat.cli import main\n"
    "sys.exit(main(['check', sys.argv[2]]))\n"
)


_CHECK_IN_CLONE = (
    "import sys\n"
    "from neuron_compat.cli import main\n"
    "code = main(['check', sys.argv[1]])\n"
)
_HEAVY_IMPORTS = "sys.stderr.write(repr(sorted(m for m in ('pydantic', 'yaml') if m in sys.modules)))\n"


def bench_check(report: Report, registries: dict[int, Path], work: Path, repeat: int) -> None:
    """`check` on the bundled snapshot against `python -c "import pydantic"`, both as whole processes, from a
    directory without ./registry (what an installed user gets); then the same hot path over the largest synthetic
    registry, compared with reading its JSON alone."""
    config = work / "config.json"
    config.write_text(json.dumps({"model_type": "llama", "architectures": ["LlamaForCausalLM"],
                                  "torch_dtype": "bfloat16"}), encoding="utf-8")
    outside = work / "elsewhere"
    outside.mkdir(exist_ok=True)
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("NEURON_COMPAT_REGISTRY", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package has its bytecode; measure with it
    clone_env = {**env, "PYTHONPATH": str(ROOT / "src")}
    bundled_index = work / "bundled.json"  # the document a wheel build compiles, with its index beside it
    compiled_document, compiled_index = compiled_clone(ROOT)  # this clone's registry/, compiled (cached in build/)
    if isinstance(compiled_document, str):
        bundled_index.write_text(compiled_document, encoding="utf-8")
        Path(f"{bundled_index}.index").write_text(str(compiled_index), encoding="utf-8")
    else:
        shutil.copyfile(compiled_document, bundled_index)
        shutil.copyfile(compiled_index, f"{bundled_index}.index")
    check_args = [sys.executable, "-c", _CHECK_WITH_SNAPSHOT, str(bundled_index), str(config)]
    probe = subprocess.run(check_args, capture_output=True, text=True, env=env, cwd=outside, check=False)
    if "Traceback" in probe.stderr or "bundled" not in probe.stdout:
        report.skipped.append(f"check: `neuron-compat check` did not answer from the bundled snapshot: "
                              f"{(probe.stderr or probe.stdout)[-300:]}")
        return
    # In a clone (an editable install): the clone's registry/ through its compile cache, warm (document/cache.py).
    clone_args = [sys.executable, "-c", _CHECK_IN_CLONE, str(config)]
    subprocess.run(clone_args, capture_output=True, env=clone_env, cwd=outside, check=False)  # warm the cache
    check_s, clone_s, bare_s = wall_medians(repeat, [check_args, clone_args, [sys.executable, "-c", "pass"]],
                                            env=env, cwd=outside)
    ratio = check_s / bare_s
    report.add("check", f"check config.json (bundled) / python -c pass (median of {repeat}, wall, interleaved)",
               f"{check_s * 1000:.0f} / {bare_s * 1000:.0f} ms")
    report.add("check", "ratio", f"{ratio:.2f}x", "<= 4x", ratio <= 4)
    clone_ratio = clone_s / bare_s
    report.add("check", "check config.json in a clone (warm compile cache) / python -c pass", f"{clone_s * 1000:.0f} ms")
    report.add("check", "ratio", f"{clone_ratio:.2f}x", "<= 6x", clone_ratio <= 6)
    imported = subprocess.run([sys.executable, "-c", _CHECK_IN_CLONE + _HEAVY_IMPORTS, str(config)], capture_output=True,
                              text=True, env=clone_env, cwd=outside, check=False).stderr.strip().splitlines()[-1:]
    report.add("check", "pydantic or yaml imported on the check path (clone, warm)", ", ".join(imported) or "none",
               "none", imported == ["[]"])
    report.add("check", "load average (1 min) after", f"{os.getloadavg()[0]:.1f}")

    largest = max(registries)
    result = validate_registry(registries[largest])
    if result.problems:
        report.skipped.append(f"check: the synthetic registry of {largest} families does not validate")
        return
    document = work / f"registry-{largest}.json"
    text = dumps(registry_to_json(result.registry))
    document.write_text(text, encoding="utf-8")
    Path(f"{document}.index").write_text(index_text(text), encoding="utf-8")
    bundled = bundled_index
    read_json = "import json, sys; json.load(open(sys.argv[1], 'rb'))"
    small, large, read_small, read_large = wall_medians(repeat, [
        [sys.executable, "-c", _CHECK_WITH_SNAPSHOT, str(bundled_index), str(config)],
        [sys.executable, "-c", _CHECK_WITH_SNAPSHOT, str(document), str(config)],
        [sys.executable, "-c", read_json, str(bundled)],
        [sys.executable, "-c", read_json, str(document)],
    ], env=env, cwd=outside)
    growth = (large - small) / max(read_large - read_small, 1e-6)
    size_mb = document.stat().st_size / 1e6
    report.add("check", f"check, bundled vs {largest} families ({size_mb:.0f} MB JSON)",
               f"{small * 1000:.0f} / {large * 1000:.0f} ms")
    report.add("check", "its growth / the growth of reading the JSON alone", f"{growth:.2f}x",
               "<= 1.5x: only the JSON read grows", growth <= 1.5)


def bench_sizes(report: Report, built: dict[int, Path]) -> None:
    if not built:
        report.skipped.append("sizes: no built site")
        return
    for n, site in built.items():
        pages = [p.stat().st_size for p in (site / "families").glob("*/index.html")]
        api = site / "api" / "registry.json"
        index = site / "search" / "search_index.json"
        total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        report.add("sizes", f"N={n}: family page HTML (median / largest)",
                   f"{statistics.median(pages) / 1024:.0f} / {max(pages) / 1024:.0f} KiB" if pages else "no family pages")
        for label, path in (("api/registry.json", api), ("search index", index)):
            report.add("sizes", f"N={n}: {label}", f"{path.stat().st_size / 1024 / 1024:.1f} MiB" if path.is_file() else "missing")
        report.add("sizes", f"N={n}: whole site", f"{total / 1024 / 1024:.0f} MiB")


# Times the filter's own work per keystroke: set the query, run the filter synchronously (the form's submit
# handler calls it without the 150 ms input debounce), force style and layout, wait for the next frame.
MATRIX_KEYSTROKE = """
async (text) => {
  const box = document.querySelector('[data-nc-filter="q"]');
  const form = box.closest('form');
  const started = performance.now();
  box.value = text;
  form.requestSubmit();
  void document.body.offsetHeight;
  await new Promise(resolve => requestAnimationFrame(() => resolve()));
  return performance.now() - started;
}
"""


def bench_browser(report: Report, built: dict[int, Path]) -> None:
    if not built:
        report.skipped.append("browser: no built site")
        return
    if not Path("/usr/bin/chromium").exists():
        report.skipped.append("browser: /usr/bin/chromium is not installed")
        return
    n = max(built)
    site = built[n]
    if not (site / "matrix" / "index.html").is_file():
        report.skipped.append("browser: the built site has no matrix page")
        return
    from playwright.sync_api import sync_playwright

    server = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", str(site)],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        port = server.stdout.readline().split("port ")[1].split()[0] if server.stdout else "8000"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1300, "height": 1000})
            page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1")
                       else route.abort())
            started = time.perf_counter()
            page.goto(f"http://127.0.0.1:{port}/matrix/", timeout=300_000)
            page.wait_for_load_state("load")
            # The rows are drawn from api/matrix.json after load: time until they are there.
            page.wait_for_selector(".nc-ready", state="attached", timeout=300_000)
            load_ms = (time.perf_counter() - started) * 1000
            if page.locator('[data-nc-filter="q"]').count() == 0:
                report.skipped.append("browser: the matrix page has no [data-nc-filter=q] filter box")
                browser.close()
                return
            rows = page.locator("table tbody tr").count()  # rows in the DOM (drawn a page at a time)
            typed = ("f", "fa", "fam", "fami", "famil", "family", "family0", "family01", "family012", "family01",
                     "family0", "family", "")
            timings = [page.evaluate(MATRIX_KEYSTROKE, text) for text in typed]
            browser.close()
    finally:
        server.terminate()
        server.wait()
    worst = max(timings)
    print("    per keystroke: " + ", ".join(f"{text or '(cleared)'} {ms:.0f} ms" for text, ms in zip(typed, timings, strict=True)))
    report.add("browser", f"N={n}: matrix page ready ({rows} rows drawn)", f"{load_ms:.0f} ms")
    report.add("browser", f"N={n}: matrix filter per keystroke, median / worst", f"{statistics.median(timings):.0f} / "
               f"{worst:.0f} ms", "< 100 ms (+150 ms input debounce)", worst < 100)


# --- the check page (issue 33): bytes and time to first answer in chromium -------------------------


PYODIDE_CACHE = ROOT / ".cache" / "pyodide" / "package"
"""Where .ci/run unpacks the pinned npm package pyodide ($NEURON_COMPAT_PYODIDE_DIR overrides it)."""

CHECK_PAGE_CONFIG = ROOT / "tests" / "fixtures" / "configs" / "llama-3.1-8b.json"


def _counting_server(site: Path) -> tuple[Any, dict[str, int], str]:
    """A loopback server of `site` that lets the browser cache for a day (as a published site would) and counts
    the bytes it sends: raw, and gzip-compressed as a static host (or jsDelivr) sends text and wasm."""
    import gzip
    import http.server
    import threading

    sent = {"raw": 0, "gzip": 0, "requests": 0}

    class Counting(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,  # noqa: RUF012
                          ".wasm": "application/wasm", ".mjs": "text/javascript"}

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, directory=str(site), **kwargs)

        def end_headers(self) -> None:
            self.send_header("Cache-Control", "max-age=86400")
            super().end_headers()

        def copyfile(self, source: Any, outputfile: Any) -> None:
            data = source.read()
            sent["raw"] += len(data)
            sent["gzip"] += len(data) if self.path.endswith((".zip", ".png")) else len(gzip.compress(data, 6))
            sent["requests"] += 1
            outputfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counting)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, sent, f"http://127.0.0.1:{server.server_address[1]}/"


def _first_answer(page: Any, url: str, config: str) -> tuple[float, float]:
    """(ms from navigation to the answer, ms from the click to the answer) on the check page."""
    started = time.perf_counter()
    page.goto(url + "check/", wait_until="load")
    page.wait_for_selector("#nc-check[data-ready=yes]", timeout=120_000)
    page.fill("#nc-check-config", config)
    clicked = time.perf_counter()
    page.click("#nc-check-run")
    page.wait_for_selector("#nc-check-result[data-status]:not([data-status=loading])", timeout=120_000)
    done = time.perf_counter()
    return (done - started) * 1000, (done - clicked) * 1000


def bench_check_page(report: Report, work: Path) -> None:
    """The check page on the real registry: bytes sent on a first visit and on a return (a day's cache), and the
    time to the first answer with a cold cache and on the return visit, then a second answer on the same page."""
    reason = _site_missing()
    if reason or not Path("/usr/bin/chromium").exists():
        report.skipped.append(f"checkpage: {reason or '/usr/bin/chromium is not installed'}")
        return
    docs, out = work / "docs-checkpage", work / "site-checkpage"
    pyodide = Path(os.environ.get("NEURON_COMPAT_PYODIDE_DIR") or PYODIDE_CACHE)
    command = [sys.executable, "-m", "neuron_compat.cli", "site", "-q", "--registry", str(BASE_REGISTRY),
               "--pages", str(ROOT / "site"), "--out", str(docs)]
    help_text = subprocess.run([*command[:4], "--help"], capture_output=True, text=True, cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT / "src")}).stdout
    if "--pyodide" in help_text:
        if not (pyodide / "pyodide.mjs").is_file():
            report.skipped.append(f"checkpage: no Pyodide at {pyodide} (.ci/run installs it)")
            return
        command += ["--pyodide", str(pyodide)]
    built = subprocess.run(command, capture_output=True, text=True, cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    if built.returncode != 0:
        report.skipped.append(f"checkpage: neuron-compat site failed: {built.stderr[-300:]}")
        return
    engine = mkdocs_build(docs, out)
    if engine.returncode != 0:
        report.skipped.append(f"checkpage: mkdocs build failed: {engine.stderr[-300:]}")
        return
    from playwright.sync_api import sync_playwright

    config = CHECK_PAGE_CONFIG.read_text(encoding="utf-8")
    server, sent, url = _counting_server(out)
    try:
        with sync_playwright() as playwright:
            # a profile on disk, as a visitor's browser has: an in-memory profile does not keep a 9.6 MB file;
            # no routing either (Playwright's routing turns the HTTP cache off)
            context = playwright.chromium.launch_persistent_context(
                str(work / "chromium-profile"), executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = context.new_page()
            cold = _first_answer(page, url, config)
            stages = json.loads(page.get_attribute("#nc-check", "data-boot-ms") or "{}")
            first = dict(sent)
            page.fill("#nc-check-batch", "2")
            started = time.perf_counter()
            page.evaluate("document.getElementById('nc-check-result').removeAttribute('data-status')")
            page.click("#nc-check-run")
            page.wait_for_selector("#nc-check-result[data-status]:not([data-status=loading])", timeout=60_000)
            again = (time.perf_counter() - started) * 1000
            page.close()
            page = context.new_page()
            warm = _first_answer(page, url, config)
            context.close()
    finally:
        server.shutdown()
        server.server_close()
    returned = {key: sent[key] - first[key] for key in sent}
    mb = 1024 * 1024
    report.add("checkpage", "first visit + first answer: bytes sent (raw / gzip)",
               f"{first['raw'] / mb:.2f} / {first['gzip'] / mb:.2f} MB")
    report.add("checkpage", "return visit + first answer: bytes sent (raw / gzip)",
               f"{returned['raw'] / 1024:.0f} / {returned['gzip'] / 1024:.0f} KB")
    report.add("checkpage", "cold cache: first answer from the click / from navigation",
               f"{cold[1] / 1000:.2f} / {cold[0] / 1000:.2f} s", "<= 5 s", cold[1] <= 5000)
    if stages:
        report.add("checkpage", "cold: where the first answer's time went (in the worker)",
                   ", ".join(f"{name.replace('_', ' ')} {ms / 1000:.2f} s" for name, ms in stages.items()))
    report.add("checkpage", "return visit (warm cache): first answer from the click / navigation",
               f"{warm[1] / 1000:.2f} / {warm[0] / 1000:.2f} s")
    report.add("checkpage", "warm: another answer on the same page (Python loaded)", f"{again / 1000:.2f} s",
               "<= 0.5 s", again <= 500)


# --- main ---------------------------------------------------------------------------------------------


PARTS = ("loader", "site", "real", "check", "sizes", "browser", "checkpage")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, PyYAML {yaml.__version__} (libyaml)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,1000,5000", help="comma-separated family counts")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, from: {', '.join(PARTS)}")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement; the fastest counts")
    parser.add_argument("--keep", type=Path, help="build into this directory and keep it")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    parts = set(args.parts.split(","))
    unknown = parts - set(PARTS)
    if unknown:
        parser.error(f"unknown parts: {', '.join(sorted(unknown))}")

    work = args.keep or Path(tempfile.mkdtemp(prefix="neuron-compat-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    report = Report()
    print(f"machine: {machine()}\nwork directory: {work}\n")
    try:
        registries = {}
        for n in sizes:
            target = work / f"registry-{n}"
            shutil.rmtree(target, ignore_errors=True)
            registries[n] = write_synthetic_registry(target, n)
        def attempt(name: str, function: Callable[[], object]) -> object:
            """Run one part; a part that breaks is reported as such and the others still run."""
            try:
                return function()
            except Exception as error:  # noqa: BLE001 - the benchmark reports, it does not stop
                report.skipped.append(f"{name}: failed: {type(error).__name__}: {str(error)[:300]}")
                return None

        if "loader" in parts:
            attempt("loader", lambda: bench_loader(report, registries, args.repeat))
        built: dict[int, Path] = {}
        if parts & {"site", "sizes", "browser"}:
            built = attempt("site", lambda: bench_site(report, registries, work, 2)) or {}  # type: ignore[assignment]
        if "real" in parts:
            attempt("real", lambda: bench_real(report, work))
        if "check" in parts:
            attempt("check", lambda: bench_check(report, registries, work, max(args.repeat, 7)))
        if "sizes" in parts:
            attempt("sizes", lambda: bench_sizes(report, built))
        if "browser" in parts:
            attempt("browser", lambda: bench_browser(report, built))
        if "checkpage" in parts:
            attempt("checkpage", lambda: bench_check_page(report, work))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)

    print("\n| part | measurement | value | target |\n|---|---|---|---|")
    for row in report.rows:
        verdict = "" if row.met is None else (" (met)" if row.met else " (**missed**)")
        print(f"| {row.part} | {row.what} | {row.value} | {row.target}{verdict} |")
    for reason in report.skipped:
        print(f"skipped: {reason}")
    missed = [row for row in report.rows if row.met is False]
    print(f"\n{len(missed)} target(s) missed" if missed else "\nevery measured target met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
