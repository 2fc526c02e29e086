#!/usr/bin/env python
"""Benchmark neuron-compat against its targets, side by side with the baselines, in one run.

    python scripts/benchmark.py                 # every part, N = 100, 1000, 5000
    python scripts/benchmark.py --sizes 100,1000 --parts loader

Parts (each prints why it is skipped when the feature it measures is missing):
  loader   load + validate + rules vs a bare yaml.load(CSafeLoader) of the same files  (target <= 1.5x at 5,000)
  site     the site build vs mkdocs building the same pages written out as plain Markdown (target <= +25%)
  real     the site build of the real registry/                                          (target < 20 s)
  check    `neuron-compat check <config.json>` vs `python -c "import pydantic"`            (target <= 2x)
  sizes    family page HTML, api/registry.json and the search index at each N
  browser  the matrix filter's time per keystroke at the largest N in chromium          (target < 100 ms)

The synthetic registry uses the real releases.yaml and stacks.yaml, and N families with realistic
statements (several stacks, ranges, notes, constraints, two sources each).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from neuron_compat.registry import load_registry  # noqa: E402
from neuron_compat.validation import validate_registry  # noqa: E402
from neuron_compat.yaml_loading import load_yaml_file  # noqa: E402

BASE_REGISTRY = ROOT / "registry"


# --- the synthetic registry -------------------------------------------------------------------------


def _statement_yaml(rng: random.Random, stack: dict, workload: str, releases: list[str]) -> str:
    """One realistic statement for `stack`, consistent with the rules (versions, notes for partial ...)."""
    versions = stack.get("versions") or []
    hardware = sorted(rng.sample(stack["hardware"], rng.randint(1, len(stack["hardware"]))))
    ended = stack.get("end_of_support") in releases  # its statements need an until, so not 'unknown'
    status = rng.choices(["supported", "partial", "unsupported", "unknown"], [6, 2, 1, 0 if ended else 1])[0]
    lines = [f"  - stack: {stack['id']}", f"    workload: {workload}", f"    hardware: [{', '.join(hardware)}]",
             f"    status: {status}"]
    if status != "unknown":
        if versions:
            own = rng.choice(versions)
            lines += [f"    since: \"{own['neuron']}\"", f"    stack_since: \"{own['version']}\""]
        else:
            lower = releases.index(stack["since"]) if stack.get("since") in releases else 0
            upper = releases.index(stack["end_of_support"]) if stack.get("end_of_support") in releases else len(releases)
            since_index = rng.randrange(lower, max(lower + 1, upper - 1))
            lines.append(f"    since: \"{releases[since_index]}\"")
            if stack.get("end_of_support") in releases:  # a statement ends where the stack does, or before
                lines.append(f"    until: \"{releases[rng.randint(since_index + 1, upper)]}\"")
            elif rng.random() < 0.2 and since_index + 1 < len(releases):
                lines.append(f"    until: \"{releases[rng.randrange(since_index + 1, len(releases))]}\"")
    if status in ("supported", "partial"):
        lines += [f"    attention: [{', '.join(rng.sample(['eager', 'sdpa', 'nki-flash', 'native'], 2))}]",
                  f"    dtypes: [{', '.join(rng.sample(['bf16', 'fp16', 'fp32', 'fp8'], 2))}]",
                  "    parallelism:", f"      tensor: [{rng.choice([2, 8, 32])}, {rng.choice([16, 64])}]",
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
    shutil.copytree(BASE_REGISTRY, target, ignore=shutil.ignore_patterns("families", "upstream"))
    (target / "families").mkdir()
    (target / "upstream").mkdir()
    releases = [r["version"] for r in yaml.safe_load((target / "releases.yaml").read_text())["releases"]]
    stacks = yaml.safe_load((target / "stacks.yaml").read_text())["stacks"]
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
                f"tasks: [text-generation]\naliases: [Family {index} Instruct]\n"
                f"examples: [vendor{index % 50}/Family-{index}-8B]\nsupport:\n")
        text += "".join(_statement_yaml(rng, stack, workload, releases) for stack, workload in chosen)
        (target / "families" / f"{family_id}.yaml").write_text(text, encoding="utf-8")
    snapshot = {"source": "https://pypi.org/project/transformers/", "transformers_version": "0.0.0-synthetic",
                "taken": "2026-12-02", "model_types": model_types}
    (target / "upstream" / "transformers-model-types.yaml").write_text(yaml.safe_dump(snapshot), encoding="utf-8")
    return target


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
    best = [float("inf")] * len(functions)
    for _ in range(repeat):
        for index, function in enumerate(functions):
            gc.collect()
            started = time.process_time()
            function()
            best[index] = min(best[index], time.process_time() - started)
    return best


def registry_files(root: Path) -> list[Path]:
    return [root / "releases.yaml", root / "stacks.yaml", root / "upstream" / "transformers-model-types.yaml",
            *sorted((root / "families").glob("*.yaml"))]


def bare_load(root: Path) -> None:
    for path in registry_files(root):
        yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def loader_only(root: Path) -> None:
    for path in registry_files(root):
        load_yaml_file(path)


def bench_loader(report: Report, registries: dict[int, Path], repeat: int) -> None:
    per_family = {}
    for n, root in registries.items():
        result = validate_registry(root)
        if result.problems:
            raise SystemExit(f"the synthetic registry has problems: {result.problems[0].format()}")
        bare, guarded, schema, full = interleaved(repeat, [lambda: bare_load(root), lambda: loader_only(root),
                                                           lambda: load_registry(root), lambda: validate_registry(root)])
        per_family[n] = full / n
        ratio = full / bare
        report.add("loader", f"N={n}: bare yaml.load (CSafeLoader)", f"{bare * 1000:.0f} ms CPU")
        report.add("loader", f"N={n}: + guards (yaml_loading)", f"{guarded * 1000:.0f} ms CPU")
        report.add("loader", f"N={n}: + schema (load_registry)", f"{schema * 1000:.0f} ms CPU")
        report.add("loader", f"N={n}: + rules (validate_registry) = full", f"{full * 1000:.0f} ms CPU")
        report.add("loader", f"N={n}: full / bare", f"{ratio:.2f}x", "<= 1.5x at 5,000" if n == 5000 else "",
                   (ratio <= 1.5) if n == 5000 else None)
    if len(per_family) > 1:
        smallest, largest = min(per_family), max(per_family)
        growth = per_family[largest] / per_family[smallest]
        report.add("loader", f"time per family, N={largest} vs N={smallest}", f"{growth:.2f}x", "~1x (linear)",
                   growth <= 1.3)


# --- site, check, sizes, browser -------------------------------------------------------------------


def _site_builder() -> str | None:
    """Why the site cannot be built here, or None when it can."""
    if not (ROOT / "mkdocs.yml").is_file():
        return "no mkdocs.yml yet (the site is not built in this tree)"
    return None


def build_site(registry: Path, out: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    env = {**os.environ, "NEURON_COMPAT_REGISTRY": str(registry), "NO_MKDOCS_2_WARNING": "1",
           "SITE_URL": "http://127.0.0.1:8000/"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(out)], cwd=ROOT, env=env, capture_output=True, text=True)
    return time.perf_counter() - started, done


def plain_markdown_twin(site: Path, work: Path) -> Path:
    """An mkdocs project with the same pages as the built site, as plain Markdown files (no generator).

    Each built page's main content is taken as the page body, so the twin renders the same text and
    tables through the same theme without the registry generator in the loop.
    """
    docs = work / "docs"
    for html in site.rglob("index.html"):
        relative = html.parent.relative_to(site)
        text = html.read_text(encoding="utf-8")
        start, end = text.find('<article'), text.find('</article>')
        body = text[text.find('>', start) + 1:end] if start >= 0 and end > start else ""
        target = docs / relative / "index.md" if str(relative) != "." else docs / "index.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
    config = {"site_name": "twin", "docs_dir": str(docs), "site_dir": str(work / "out"),
              "theme": {"name": "material", "font": False}, "plugins": ["search"],
              "markdown_extensions": ["tables", "attr_list", "md_in_html"]}
    (work / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return work / "mkdocs.yml"


def bench_site(report: Report, registries: dict[int, Path], work: Path, repeat: int) -> dict[int, Path]:
    built: dict[int, Path] = {}
    reason = _site_builder()
    if reason:
        report.skipped.append(f"site: {reason}")
        return built
    for n, registry in registries.items():
        out = work / f"site-{n}"
        times = []
        for _ in range(repeat):
            shutil.rmtree(out, ignore_errors=True)
            elapsed, done = build_site(registry, out)
            if done.returncode != 0:
                report.skipped.append(f"site N={n}: mkdocs build failed: {(done.stderr or done.stdout)[-300:]}")
                return built
            times.append(elapsed)
        built[n] = out
        twin_config = plain_markdown_twin(out, work / f"twin-{n}")
        twin_times = []
        for _ in range(repeat):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(twin_config)], check=True,
                           capture_output=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
            twin_times.append(time.perf_counter() - started)
        site_time, twin_time = min(times), min(twin_times)
        overhead = site_time / twin_time - 1
        report.add("site", f"N={n}: site build / plain-Markdown mkdocs build", f"{site_time:.1f} s / {twin_time:.1f} s")
        report.add("site", f"N={n}: generator overhead", f"{overhead * 100:+.0f}%", "<= +25%", overhead <= 0.25)
    return built


def bench_real(report: Report, work: Path) -> None:
    reason = _site_builder()
    if reason:
        report.skipped.append(f"real: {reason}")
        return
    elapsed, done = build_site(BASE_REGISTRY, work / "site-real")
    if done.returncode != 0:
        report.skipped.append(f"real: mkdocs build of registry/ failed: {(done.stderr or done.stdout)[-300:]}")
        return
    report.add("real", f"site build of registry/ ({os.cpu_count()} cores)", f"{elapsed:.1f} s", "< 20 s", elapsed < 20)


def bench_check(report: Report, work: Path, repeat: int) -> None:
    help_text = subprocess.run([sys.executable, "-m", "neuron_compat.cli", "--help"], capture_output=True, text=True).stdout
    if " check" not in help_text:
        report.skipped.append("check: `neuron-compat check` does not exist yet")
        return
    config = work / "config.json"
    config.write_text(json.dumps({"model_type": "llama", "architectures": ["LlamaForCausalLM"],
                                  "torch_dtype": "bfloat16"}), encoding="utf-8")
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}

    def run(*args: str) -> float:
        return best_of(repeat, lambda: subprocess.run(args, capture_output=True, env=env, cwd=ROOT))

    check = run(sys.executable, "-m", "neuron_compat.cli", "check", str(config))
    bare = run(sys.executable, "-c", "import pydantic")
    ratio = check / bare
    report.add("check", "check config.json / python -c 'import pydantic'",
               f"{check * 1000:.0f} / {bare * 1000:.0f} ms")
    report.add("check", "ratio", f"{ratio:.2f}x", "<= 2x", ratio <= 2)


def bench_sizes(report: Report, built: dict[int, Path]) -> None:
    if not built:
        report.skipped.append("sizes: no built site")
        return
    for n, site in built.items():
        pages = [p for p in site.rglob("*.html") if "family" in p.as_posix() or "families" in p.as_posix()]
        page_sizes = [p.stat().st_size for p in pages]
        api = site / "api" / "registry.json"
        index = site / "search" / "search_index.json"
        median = f"{statistics.median(page_sizes) / 1024:.0f} KiB median" if page_sizes else "no family pages"
        report.add("sizes", f"N={n}: family page HTML", median)
        report.add("sizes", f"N={n}: api/registry.json",
                   f"{api.stat().st_size / 1024 / 1024:.1f} MiB" if api.is_file() else "missing")
        report.add("sizes", f"N={n}: search index",
                   f"{index.stat().st_size / 1024 / 1024:.1f} MiB" if index.is_file() else "missing")


MATRIX_FILTER_SELECTORS = ("input[data-matrix-filter]", "#matrix-filter", "input[type=search].matrix-filter")


def bench_browser(report: Report, built: dict[int, Path]) -> None:
    if not built:
        report.skipped.append("browser: no built site")
        return
    if not Path("/usr/bin/chromium").exists():
        report.skipped.append("browser: /usr/bin/chromium is not installed")
        return
    n = max(built)
    site = built[n]
    matrix = next((p for p in sorted(site.rglob("index.html")) if "matrix" in p.parent.name), None)
    if matrix is None:
        report.skipped.append("browser: the built site has no matrix page")
        return
    from playwright.sync_api import sync_playwright

    server = subprocess.Popen([sys.executable, "-m", "http.server", "8765", "--bind", "127.0.0.1", "-d", str(site)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:8765/{matrix.parent.relative_to(site).as_posix()}/")
            selector = next((s for s in MATRIX_FILTER_SELECTORS if page.locator(s).count()), None)
            if selector is None:
                report.skipped.append("browser: no matrix filter input found on " + matrix.parent.name)
                return
            box = page.locator(selector).first
            timings = []
            for text in ("f", "fa", "fam", "fami", "famil", "family0", "family01", "family012"):
                started = time.perf_counter()
                box.fill(text)
                page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                timings.append((time.perf_counter() - started) * 1000)
            browser.close()
    finally:
        server.terminate()
        server.wait()
    worst = max(timings)
    report.add("browser", f"N={n}: matrix filter per keystroke (median / worst)",
               f"{statistics.median(timings):.0f} / {worst:.0f} ms", "< 100 ms", worst < 100)


# --- main ---------------------------------------------------------------------------------------------


PARTS = ("loader", "site", "real", "check", "sizes", "browser")


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
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the fastest counts")
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
        if "loader" in parts:
            bench_loader(report, registries, args.repeat)
        built = bench_site(report, registries, work, 1) if parts & {"site", "sizes", "browser"} else {}
        if "real" in parts:
            bench_real(report, work)
        if "check" in parts:
            bench_check(report, work, max(args.repeat, 5))
        if "sizes" in parts:
            bench_sizes(report, built)
        if "browser" in parts:
            bench_browser(report, built)
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
