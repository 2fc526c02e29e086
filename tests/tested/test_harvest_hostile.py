"""The harvesters on what a hostile or broken source may hold: a file too large to read (bounded reader), bytes that
are not UTF-8, and cells the contract would refuse (HTML, a javascript: link, 1e308, another script's digits),
which go to `not_recorded` with the reason instead of into the written file."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harvesters.harvest_script import HarvestError, git, refuse_invalid, show, tree_paths
from harvesters.neuron_performance_pages import Context, Page, TableRef, table_entries

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
FIXTURE = Path(__file__).parent / "fixtures" / "contrib_readme.md"
CONTEXT = Context(revision="v2.32.0", releases=frozenset({"2.21.0"}), instances=frozenset({"inf2.xlarge"}),
                  families=frozenset({"bert"}))
PAGE = Page("Inf2 Inference Performance", (TableRef("t.csv", "Encoder Models", None, 3),))
HEADER = "Model,Framework,Inst. Type,Batch Size,Throughput (inference/second),Neuron Version,Task\n"


def _mirror(tmp_path: Path, files: dict[str, bytes]) -> Path:
    root = tmp_path if (tmp_path / "contrib").exists() else tmp_path / "source"
    root.mkdir(exist_ok=True)
    for name, data in files.items():
        (root / name).write_bytes(data)
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", "-C", str(root), *command], check=True, capture_output=True)
    return root / ".git"


@pytest.mark.parametrize("size", [2 * 1024 * 1024, 3 * 1024 * 1024 + 7])
def test_a_file_larger_than_the_cap_is_refused_not_read_whole(tmp_path: Path, size: int) -> None:
    mirror = _mirror(tmp_path, {"README.md": b"x" * size})
    with pytest.raises(HarvestError, match="larger than"):
        git(mirror, "show", "HEAD:README.md", cap=1024 * 1024)
    text, why_not = show(mirror, "HEAD", "README.md")  # under the default cap it reads
    assert text is not None and len(text) == size and why_not is None


@pytest.mark.parametrize("data", [b"caf\xe9 **Validated:** 2026-01-01\n", b"\xff\xfe\x00odd\n"], ids=["latin1", "bom"])
def test_bytes_that_are_not_utf8_are_replaced_not_a_traceback(tmp_path: Path, data: bytes) -> None:
    mirror = _mirror(tmp_path, {"README.md": data})
    text = git(mirror, "show", "HEAD:README.md")
    assert "\ufffd" in text


def test_a_file_named_with_a_space_a_quote_or_an_accent_is_one_path(tmp_path: Path) -> None:
    """Every harvester lists a mirror's files through tree_paths (`ls-tree -z`): a name is never split on its
    spaces nor C-quoted ("caf\\303\\251.md"), so its page is read like any other."""
    from known_issue_harvesters.common import files_at

    names = ["a page.md", 'say "hi".md', "café.md", "plain.md"]
    mirror = _mirror(tmp_path, {name: b"x\n" for name in names})
    assert sorted(tree_paths(mirror, "HEAD")) == sorted(names)
    assert sorted(files_at(mirror, "HEAD", ".")) == sorted(names)
    for name in names:
        assert show(mirror, "HEAD", tree_paths(mirror, "HEAD", name)[0]) == ("x\n", None)
    assert sorted(p.name for p in SCRIPTS.glob("harvest*.py") if '"ls-tree"' in p.read_text(encoding="utf-8")) == []


def test_a_markdown_link_in_a_cell_stays_plain_text_of_the_setting() -> None:
    """The Task cell goes to `setting` (plain text, escaped wherever shown), never to the Markdown notes."""
    text = HEADER + 'bert-base-uncased,PyTorch 2.1,inf2.xlarge,1,120.5,2.21.0,"[click](javascript:alert(1))"\n'
    [entry], _ = table_entries("about-neuron/benchmarks/inf2/t.csv", text, PAGE, PAGE.tables[0], CONTEXT)
    assert "task [click](javascript:alert(1))" in entry["setting"]
    assert not any("javascript" in note for note in entry["notes"])
    assert refuse_invalid([entry], [], "neuron-performance") == [entry]


@pytest.mark.parametrize(("cell", "said"), [
    ('"<img src=x onerror=alert(1)>"', "setting"),
])
def test_a_cell_the_contract_refuses_goes_to_not_recorded(cell: str, said: str) -> None:
    text = HEADER + f"bert-base-uncased,PyTorch 2.1,inf2.xlarge,1,120.5,2.21.0,{cell}\n"
    entries, reasons = table_entries("about-neuron/benchmarks/inf2/t.csv", text, PAGE, PAGE.tables[0], CONTEXT)
    assert reasons == [] and len(entries) == 1
    not_recorded: list[dict[str, str]] = []
    assert refuse_invalid(entries, not_recorded, "neuron-performance") == []
    assert len(not_recorded) == 1 and said in not_recorded[0]["reason"]
    assert not_recorded[0]["path"].endswith("t.csv#L2")


@pytest.mark.parametrize("batch", ["1e308", "\u0663"])  # a 309-digit integer; ARABIC-INDIC DIGIT THREE
def test_numbers_out_of_range_or_in_another_script_are_not_read(batch: str) -> None:
    text = HEADER + f"bert-base-uncased,PyTorch 2.1,inf2.xlarge,{batch},{batch},2.21.0,Classification\n"
    [entry], _ = table_entries("about-neuron/benchmarks/inf2/t.csv", text, PAGE, PAGE.tables[0], CONTEXT)
    assert "batch_size" not in entry and "measurements" not in entry
    assert refuse_invalid([entry], [], "neuron-performance") == [entry]


def test_digits_of_other_scripts_in_an_env_file_are_not_counts() -> None:
    from harvesters.optimum_neuron_benchmarks import results_entries

    env = "MODEL_ID=Qwen/Qwen3-32B\nBATCH_SIZE=\u00b2\nSEQUENCE_LENGTH=\u0664\u0660\u0669\u0666\nTENSOR_PARALLEL_SIZE=8\n"
    csv_text = "model_id,Date,Input type,Requests per Second\nQwen_Qwen3-32B,2025-09-24-15-48-36,synchronous,0.5\n"
    [entry], _ = results_entries("qwen3-32B", env, "x/vllm-results.csv", csv_text, "a" * 40, {})
    assert "batch_size" not in entry and "sequence_length" not in entry and entry["parallelism"] == {"tensor": 8}


def test_an_oversized_csv_field_reads_no_rows() -> None:
    text = HEADER + "bert-base-uncased,PyTorch 2.1,inf2.xlarge,1,120.5,2.21.0," + "x" * 200_000 + "\n"
    assert table_entries("a/t.csv", text, PAGE, PAGE.tables[0], CONTEXT) == ([], [])


@pytest.mark.parametrize("readme", [b"x" * 300_000, b"**Validated:** 2026-01-01\n" * 20_000], ids=["blank", "lines"])
def test_a_harvest_with_an_oversized_readme_records_the_others_and_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, readme: bytes) -> None:
    import datetime as dt
    import importlib.util

    from harvesters import harvest_script
    from harvesters.nxdi_contrib_readme import FAMILY_BY_MODEL_DIR

    root = tmp_path / "source"
    for name, data in (("Big-1B", readme), ("Example-7B", FIXTURE.read_bytes())):
        (root / "contrib" / "models" / name).mkdir(parents=True)
        (root / "contrib" / "models" / name / "README.md").write_bytes(data)
    mirror = _mirror(root, {})
    monkeypatch.setattr(harvest_script, "READ_CAP", 200_000)
    FAMILY_BY_MODEL_DIR.setdefault("Example-7B", "llama")
    FAMILY_BY_MODEL_DIR.setdefault("Big-1B", "llama")
    spec = importlib.util.spec_from_file_location("harvest_nxdi", SCRIPTS / "harvest_nxdi_contrib.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    body = module.harvest(mirror, "HEAD", [("2.28.0", dt.date(2026, 2, 26))], dt.date(2026, 12, 4))
    assert {c["checkpoint"] for c in body["configurations"]} == {"example-org/Example-7B"}
    [big] = [n for n in body["not_recorded"] if "Big-1B" in n["path"]]
    assert "larger than" in big["reason"]


def test_a_run_in_a_throughput_and_a_latency_table_is_one_configuration() -> None:
    from harvesters.neuron_performance_pages import merge_runs

    header = "Model,Framework,Inst. Type,Batch Size,Throughput (inference/second),Latency P50 (ms),Neuron Version\n"
    row = "bert-base-uncased,PyTorch 2.1,inf2.xlarge,1,{tput},{p50},2.21.0\n"
    tput, _ = table_entries("a/inf2/throughput_data_encoder.csv", header + row.format(tput="120.5", p50="8.3"),
                            PAGE, PAGE.tables[0], CONTEXT)
    lat, _ = table_entries("a/inf2/latency_data_encoder.csv", header + row.format(tput="120.5", p50="8.3"),
                           PAGE, PAGE.tables[0], CONTEXT)
    [merged] = merge_runs(tput + lat)
    assert merged["id"].startswith("nperf-inf2-tput-") and len(merged["measurements"]) == 2  # no value twice
    assert "latency_data_encoder.csv#L2" in merged["notes"][-1]
    other, _ = table_entries("a/inf2/latency_data_encoder.csv", header + row.format(tput="1", p50="2").replace(
        ",1,", ",4,", 1), PAGE, PAGE.tables[0], CONTEXT)
    assert len(merge_runs(tput + other)) == 2  # another batch size is another run
