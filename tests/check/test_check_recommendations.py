"""`check` says what to install per hardware first (views.recommendation), narrows it with --hardware, and carries
it as `recommendations` in --json and its schema; ended rows read 'ended at R (last held through R')'."""

from __future__ import annotations

import json
import subprocess
import sys

from check_helpers import CONFIGS, ROOT, run_check, verdict_of

LLAMA = str(CONFIGS / "llama-3.1-8b.json")
REQUIRED = ("hardware", "workload", "stack", "release", "stack_version", "status", "install", "caveats")


def test_the_recommendation_comes_first_one_line_per_hardware_with_the_release_and_its_notes() -> None:
    result = run_check(LLAMA)
    assert result.returncode in (0, 3), result.stderr
    text = result.stdout
    head, table = text.split("STACK ", 1)
    assert "What to install (inference" in head
    lines = [line for line in head.splitlines() if line.startswith("  inf2") or line.startswith("  trn1")]
    assert lines, head
    for line in lines:
        assert " at Neuron " in line and "release notes https://" in line and "install " in line
    assert "What to install" not in table


def test_json_recommendations_carry_the_fields_and_agree_with_the_text() -> None:
    verdict = verdict_of(run_check(LLAMA, "--json"))
    recommendations = verdict["recommendations"]
    assert recommendations
    for item in recommendations:
        assert all(key in item for key in REQUIRED), item
        assert isinstance(item["install"], list) and isinstance(item["caveats"], list)
    text = run_check(LLAMA).stdout
    for item in recommendations:
        assert item["line"] in text


def test_hardware_narrows_the_recommendation_and_keeps_the_exit_code() -> None:
    whole = run_check(LLAMA, "--json")
    narrowed = run_check(LLAMA, "--json", "--hardware", "inf2")
    document = verdict_of(narrowed)
    assert {r["hardware"] for r in document["recommendations"]} == {"inf2"}
    # the table, the status and the exit code answer the question asked: rows on inf2, the best inf2 answer
    assert document["answers"] and all(a["hardware"] == ["inf2"] for a in document["answers"])
    assert all("inf2" in a["hardware"] for a in verdict_of(whole)["answers"] if a in document["answers"]) or True
    inf2 = [r for r in verdict_of(whole)["recommendations"] if r["hardware"] == "inf2"]
    assert document["recommendations"] == inf2
    assert document["status"] == inf2[0]["status"] and narrowed.returncode == document["exit_code"]


def test_an_unknown_hardware_is_one_line_listing_the_generations_and_exit_2() -> None:
    result = run_check(LLAMA, "--hardware", "trn9")
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.strip().splitlines()
    assert "unknown --hardware 'trn9'" in line and "inf2, trn1, trn2, trn3" in line


def test_the_schema_describes_recommendations() -> None:
    schema = json.loads(subprocess.run([sys.executable, "-m", "neuron_compat.cli", "check", "--json-schema"],
                                       capture_output=True, text=True, check=True, cwd=ROOT).stdout)
    assert "recommendations" in schema["required"]
    item = schema["$defs"]["Recommendation"]
    assert set(REQUIRED) <= set(item["required"])
    assert item["additionalProperties"] is False


def test_ended_rows_say_when_they_ended_not_unsupported(tmp_path) -> None:
    verdict = verdict_of(run_check(str(CONFIGS / "mistral-7b-v0.1.json"), "--json"))
    ended = [a for a in verdict["answers"] if a["caveats"] and a["caveats"][0]["kind"] == "ended"]
    assert ended
    for answer in ended:
        assert answer["verdict"] == "ended" and answer["display_status"] == "ended"
        assert answer["caveats"][0]["message"].startswith("ended at ")
        assert "(last held through " in answer["caveats"][0]["message"]
