"""`neuron-compat check <repo id>` against a fake Hub on 127.0.0.1: huggingface_hub's own code does the requests.

Every failure must be one line on stderr with its exit code: 2 when the model cannot be reached (missing repo,
gated, revision, no config, offline without cache, network down, timeout), 1 for bad input (invalid id,
malformed or oversized JSON).
"""

from __future__ import annotations

import time

import pytest
from check_helpers import clean_env, run_check, verdict_of
from fake_hub import GOOD_TOKEN


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


def test_a_hub_repo_is_read_through_huggingface_hub(fake_hub, hub_env):
    result = run_check("Qwen/Qwen3-8B", "--json", env=hub_env)
    assert result.returncode == 0, result.stderr
    verdict = verdict_of(result)
    assert verdict["family"]["id"] == "qwen3" and verdict["model"]["max_position_embeddings"] == 40960
    paths = [(r.method, r.path) for r in fake_hub.requests]
    assert ("HEAD", "/Qwen/Qwen3-8B/resolve/main/config.json") in paths
    assert ("GET", "/Qwen/Qwen3-8B/resolve/main/config.json") in paths
    table = run_check("Qwen/Qwen3-8B", env=hub_env)
    assert table.stdout.splitlines()[0] == f"Qwen/Qwen3-8B (config.json at main, commit {'1' * 12})"


def test_a_revision_is_passed_to_the_hub(fake_hub, hub_env):
    result = run_check("Qwen/Qwen3-8B", "--revision", "v1.0", env=hub_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"Qwen/Qwen3-8B (config.json at v1.0, commit {'2' * 12})"
    assert any(r.path == "/Qwen/Qwen3-8B/resolve/v1.0/config.json" for r in fake_hub.requests)


def test_a_diffusers_repo_falls_back_to_model_index_through_a_redirect(fake_hub, hub_env):
    result = run_check("stabilityai/stable-diffusion-xl-base-1.0", "--json", env=hub_env)
    assert result.returncode == 0, result.stderr
    assert verdict_of(result)["family"] == {"id": "sdxl", "name": "Stable Diffusion XL", "matched_by": "pipeline",
                                            "value": "StableDiffusionXLPipeline"}
    assert any(r.path.startswith("/api/resolve-cache/models/stabilityai/") for r in fake_hub.requests)


def test_repo_not_found(hub_env):
    result = run_check("acme/does-not-exist", env=hub_env)
    assert result.returncode == 2
    assert one_line(result).endswith("acme/does-not-exist: repo not found on " + hub_env["HF_ENDPOINT"]
                                     + " (if it is private, set HF_TOKEN)")


def test_gated_repo_without_a_token(hub_env):
    result = run_check("meta-llama/Llama-3.1-8B", env=hub_env)
    assert result.returncode == 2
    assert one_line(result).endswith("meta-llama/Llama-3.1-8B: gated repo; accept its terms on the Hub and set HF_TOKEN")


def test_gated_repo_with_a_token_without_access(hub_env):
    result = run_check("meta-llama/Llama-3.1-8B", env={**hub_env, "HF_TOKEN": "hf_someone_else"})
    assert result.returncode == 2
    assert "gated repo and your token has no access" in one_line(result)


def test_gated_repo_with_a_token_that_has_access(fake_hub, hub_env):
    result = run_check("meta-llama/Llama-3.1-8B", "--json", env={**hub_env, "HF_TOKEN": GOOD_TOKEN})
    assert result.returncode == 0, result.stderr
    assert verdict_of(result)["family"]["id"] == "llama"
    assert any(r.authorization == f"Bearer {GOOD_TOKEN}" for r in fake_hub.requests)


def test_revision_not_found(hub_env):
    result = run_check("Qwen/Qwen3-8B", "--revision", "no-such-branch", env=hub_env)
    assert result.returncode == 2
    assert one_line(result).endswith("Qwen/Qwen3-8B@no-such-branch: revision 'no-such-branch' not found in the repo")


def test_repo_without_a_config(fake_hub, hub_env):
    result = run_check("acme/no-config", env=hub_env)
    assert result.returncode == 2
    assert one_line(result).endswith("acme/no-config: the repo has no config.json or model_index.json")
    asked = [r.path for r in fake_hub.requests if r.method == "HEAD"]
    assert asked == ["/acme/no-config/resolve/main/config.json", "/acme/no-config/resolve/main/model_index.json"]


def test_offline_uses_the_cache_and_says_so(hub_env):
    assert run_check("Qwen/Qwen3-8B", env=hub_env).returncode == 0
    offline = {**hub_env, "HF_HUB_OFFLINE": "1"}
    result = run_check("Qwen/Qwen3-8B", env=offline)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "Qwen/Qwen3-8B (config.json at main, from the local cache)"


def test_offline_without_a_cached_copy(fake_hub, hub_env):
    result = run_check("Qwen/Qwen3-8B", env={**hub_env, "HF_HUB_OFFLINE": "1"})
    assert result.returncode == 2
    assert one_line(result).endswith(
        "Qwen/Qwen3-8B: offline (HF_HUB_OFFLINE is set) and no cached config.json or model_index.json")
    assert fake_hub.requests == []


def test_network_failure_is_reported_quickly(closed_port, tmp_path):
    env = clean_env(HF_ENDPOINT=f"http://127.0.0.1:{closed_port}", HF_HOME=str(tmp_path / "hf"))
    started = time.monotonic()
    result = run_check("Qwen/Qwen3-8B", env=env)
    elapsed = time.monotonic() - started
    assert result.returncode == 2
    line = one_line(result)
    assert f"Qwen/Qwen3-8B: could not reach http://127.0.0.1:{closed_port}:" in line and line.endswith("(no cached copy)")
    assert elapsed < 15


def test_network_failure_falls_back_to_the_cache(hub_env, closed_port):
    assert run_check("Qwen/Qwen3-8B", env=hub_env).returncode == 0
    result = run_check("Qwen/Qwen3-8B", env={**hub_env, "HF_ENDPOINT": f"http://127.0.0.1:{closed_port}"})
    assert result.returncode == 0, result.stderr
    assert "from the local cache" in result.stdout.splitlines()[0]


def test_a_slow_hub_times_out(hub_env):
    started = time.monotonic()
    result = run_check("acme/slow", env={**hub_env, "HF_HUB_ETAG_TIMEOUT": "1"})
    elapsed = time.monotonic() - started
    assert result.returncode == 2
    assert one_line(result).endswith("acme/slow: could not reach " + hub_env["HF_ENDPOINT"]
                                     + ": timed out after 1 s (no cached copy)")
    assert elapsed < 10


def test_a_slow_hub_within_the_timeout_answers(hub_env):
    result = run_check("acme/slow", "--json", env={**hub_env, "HF_HUB_ETAG_TIMEOUT": "10", "HF_HUB_DOWNLOAD_TIMEOUT": "10"})
    assert result.returncode == 0, result.stderr
    assert verdict_of(result)["family"]["id"] == "bert"


def test_malformed_json_from_the_hub(hub_env):
    result = run_check("acme/broken", env=hub_env)
    assert result.returncode == 1
    assert one_line(result).endswith("acme/broken/config.json:1:24: malformed JSON: Expecting property name enclosed in double quotes")


def test_oversized_json_from_the_hub_is_not_downloaded(fake_hub, hub_env):
    result = run_check("acme/huge", env=hub_env)
    assert result.returncode == 1
    assert "is too large for a config (limit 2097152 bytes)" in one_line(result)
    assert not any(r.method == "GET" for r in fake_hub.requests), [(r.method, r.path) for r in fake_hub.requests]


def test_a_config_of_unknown_size_is_not_downloaded(fake_hub, hub_env):
    """A Hub answer without the size would let a body of any length into the cache: refused, nothing fetched."""
    result = run_check("acme/sizeless", env=hub_env)
    assert result.returncode == 2
    assert one_line(result).endswith("acme/sizeless/config.json: the Hub did not give the file's size; not "
                                     "downloading a file of unknown size (limit 2097152 bytes)")
    assert not any(r.method == "GET" and "sizeless" in r.path for r in fake_hub.requests)


@pytest.mark.parametrize("repo_id", ["bad id", "foo--bar/model", "x/-y", "x/y.", "a/b?c", "a/b#c", "%2e%2e/x", "x/" + "y" * 97])
def test_invalid_repo_ids_never_reach_the_network(fake_hub, hub_env, repo_id):
    result = run_check(repo_id, env=hub_env)
    assert result.returncode == 1
    assert "is neither a local file or folder nor a valid Hub repo id" in one_line(result)
    assert fake_hub.requests == []


@pytest.mark.parametrize("target", ["../../etc/passwd", "a/b/c", "/etc/hostname.json", "~/nothing-here.json"])
def test_path_like_targets_are_read_locally_or_refused(fake_hub, hub_env, target):
    result = run_check(target, env=hub_env)
    assert result.returncode == 1
    one_line(result)
    assert fake_hub.requests == []


def test_invalid_revision_is_refused_before_the_network(fake_hub, hub_env):
    result = run_check("Qwen/Qwen3-8B", "--revision", "../../main", env=hub_env)
    assert result.returncode == 1
    assert one_line(result).endswith("'../../main' is not a valid revision (a branch, tag or commit hash)")
    assert fake_hub.requests == []


@pytest.mark.parametrize("decoded_size", [50 * 1024 * 1024, 2 * 1024 * 1024 + 1])
def test_a_gzip_body_is_stopped_at_the_config_limit(fake_hub, hub_env, tmp_path, decoded_size):
    """HEAD says 62 bytes; the GET body is gzip that decodes far past the limit: stopped at the limit (the message
    says so; a deadline would say it timed out), and no more than the limit is kept."""
    fake_hub.add("acme/gzip-bomb", {"config.json": b'{"model_type": "llama", "architectures": ["LlamaForCausalLM"]}'},
                 gzip_get=b'{"model_type": "llama", "pad": "' + b"0" * decoded_size + b'"}')
    result = run_check("acme/gzip-bomb", env=hub_env)
    assert result.returncode == 1, result.stderr
    assert one_line(result).endswith("acme/gzip-bomb/config.json: the Hub sent more than 2097152 bytes (decoded) "
                                     "for a file it said was 62 bytes; not a config")
    gets = [r for r in fake_hub.requests if r.method == "GET" and "gzip-bomb" in r.path]
    assert gets and all(r.accept_encoding == "identity" for r in gets)
    cached = sum(p.stat().st_size for p in (tmp_path / "hf-home").rglob("*") if p.is_file())
    assert cached <= 3 * 1024 * 1024
