"""The Python packages of the Neuron SDK and of the stacks on it, by their normalised pip name.

A package maps to the registry names it is recorded under: a component of releases.yaml (`neuronx-cc`), a stack id
of stacks.yaml (`optimum-neuron`, whose own version line pairs it with a release), or both. `torch-neuronx` is two
things: the XLA-based package (2.1 ... 2.9 lines) and, from 2.13, the native TorchNeuron backend shipped under the
same name (stacks.yaml, torchneuron), so its version is looked up under both components.
"""

from __future__ import annotations

import re

RECORDED: dict[str, tuple[str, ...]] = {
    "neuronx-cc": ("neuronx-cc",),
    "torch-neuronx": ("torch-neuronx", "torchneuron"),
    "neuronx-distributed": ("neuronx-distributed",),
    "neuronx-distributed-inference": ("nxd-inference",),
    "neuronx-distributed-training": ("nxd-training",),
    "transformers-neuronx": ("transformers-neuronx",),
    "vllm-neuron": ("vllm-neuron",),
    "optimum-neuron": ("optimum-neuron",),
    "torch-neuron": ("torch-neuron",),
}
"""pip name -> the releases.yaml components or stacks.yaml ids its version is recorded under."""

FRAMEWORKS: dict[str, str] = {"torch": "pytorch"}
"""Frameworks whose version a release lists as the versions it supports (components `pytorch: "2.6, 2.7, 2.8"`)."""

OTHER_NEURON: frozenset[str] = frozenset({
    "libneuronxla", "neuronx-cc-stubs", "torch-xla", "aws-neuronx-runtime-discovery", "neuron-cc", "jax-neuronx",
    "tensorflow-neuron", "tensorflow-neuronx", "neuronx-hwm", "nki", "neuronperf", "tensorboard-plugin-neuronx",
    "libtorch-neuronx-lite", "neuron-agentic-development", "transformers", "vllm", "jax", "jaxlib", "diffusers",
    "accelerate", "peft", "sentence-transformers", "huggingface-hub", "optimum",
})
"""Packages a Neuron environment carries that no release records a version of: shown, never matched."""

_SEPARATORS = re.compile(r"[-_.]+")


def normalise(name: str) -> str:
    """A pip name as pip compares names (PEP 503): 'Neuronx_Distributed' -> 'neuronx-distributed'."""
    return _SEPARATORS.sub("-", name).lower()


def plain_version(version: str) -> str:
    """The version without its local part: neuronx-cc's '2.21.33363.0+82f9a0e4' -> '2.21.33363.0'."""
    return version.split("+", 1)[0]


SYSTEM_PREFIXES = ("aws-neuronx-", "aws-neuron-")
"""The Neuron driver, runtime and tools packages (apt, dpkg): shown, never matched (no release records them)."""


def is_other_neuron(name: str) -> bool:
    """A package a Neuron environment carries that no release records a version of."""
    return name in OTHER_NEURON or name.startswith(SYSTEM_PREFIXES)


def is_neuron_name(name: str) -> bool:
    """A name that says Neuron but is in no table here: worth a 'not recognised' line, unlike numpy."""
    return "neuron" in name and name not in RECORDED and not is_other_neuron(name)
