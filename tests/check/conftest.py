"""Fixtures for `neuron-compat check`: the check registry, the fixture configs, a fake Hub, a CLI runner."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from fake_hub import FakeHub

ROOT = Path(__file__).resolve().parents[2]
CHECK_REGISTRY = Path(__file__).resolve().parent / "registry"
CONFIGS = ROOT / "tests" / "fixtures" / "configs"
CONFIG_FILES = sorted(CONFIGS.glob("*.json"))


def config_text(name: str) -> str:
    return (CONFIGS / name).read_text(encoding="utf-8")


def clean_env(**extra: str) -> dict[str, str]:
    """The test process's environment without any Hub settings or tokens of the machine, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING"))}
    env.update(extra)
    return env


def run_check(*args: str, env: dict[str, str] | None = None, registry: Path = CHECK_REGISTRY,
              timeout: float = 60) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "neuron_compat.cli", "check", *args, "--registry", str(registry)]
    return subprocess.run(command, capture_output=True, text=True, env=env or clean_env(), cwd=ROOT, timeout=timeout)


def verdict_of(result: subprocess.CompletedProcess) -> dict:
    assert result.stdout, result.stderr
    return json.loads(result.stdout)


@pytest.fixture
def fake_hub():
    hub = FakeHub()
    hub.add("Qwen/Qwen3-8B", {"config.json": config_text("qwen3-8b.json")}, revisions={"main": "1" * 40, "v1.0": "2" * 40})
    hub.add("meta-llama/Llama-3.1-8B", {"config.json": config_text("llama-3.1-8b.json")}, gated=True)
    hub.add("stabilityai/stable-diffusion-xl-base-1.0",
            {"model_index.json": config_text("sdxl-base-1.0-model_index.json")}, redirect=True)
    hub.add("acme/no-config", {"README.md": "# nothing to see"})
    hub.add("acme/slow", {"config.json": config_text("bert-base-uncased.json")}, delay=3.0)
    hub.add("acme/broken", {"config.json": '{"model_type": "llama",'})
    hub.add("acme/huge", {"config.json": b'{"model_type": "llama", "pad": "' + b"x" * (2 * 1024 * 1024) + b'"}'})
    hub.start()
    yield hub
    hub.stop()


@pytest.fixture
def hub_env(fake_hub, tmp_path):
    """Environment for a CLI run against the fake Hub, with an empty cache of its own and short timeouts."""
    return clean_env(HF_ENDPOINT=fake_hub.url, HF_HOME=str(tmp_path / "hf-home"),
                     HF_HUB_ETAG_TIMEOUT="2", HF_HUB_DOWNLOAD_TIMEOUT="2")


@pytest.fixture
def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
