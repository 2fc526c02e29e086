"""A Neuron Deep Learning Container image URI, read from its tag.

The tags name the framework version, the Neuron flavour, the Python, the Neuron SDK release and the OS, with extra
pieces for the Hugging Face images (`transformers4.55.4`, `optimum0.4.5`): e.g.
`public.ecr.aws/neuron/pytorch-inference-neuronx:2.5.1-neuronx-py310-sdk2.21.0-ubuntu22.04` and
`huggingface-vllm-inference-neuronx:0.11.0-optimum0.4.5-neuronx-py310-sdk2.26.1-ubuntu22.04`
(aws-neuron/deep-learning-containers, README.md; the vLLM images' versions are the vllm-neuron plugin's from
0.21.0.1.0.0, its `vllm/inference/<version>/Dockerfile.neuronx`). The SDK release in the tag is what the image was
built for; the package versions are then that release's components.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_IMAGE = re.compile(
    r"(?:(?P<host>[a-z0-9.-]{1,200})/)?(?:[a-z0-9._-]{1,100}/){0,3}(?P<repo>[a-z0-9-]{1,100}-neuronx?)"
    r":(?P<tag>[A-Za-z0-9._-]{1,128})(?:@sha256:[0-9a-f]{64})?")
_SDK = re.compile(r"sdk([0-9]{1,4}\.[0-9]{1,4}\.[0-9]{1,6})")
_EXTRA = re.compile(r"(optimum|transformers)([0-9][0-9.]{0,30})")


@dataclass(frozen=True)
class ContainerImage:
    """What an image tag says: the framework and its version, the release, and the library versions it names."""

    uri: str
    framework: str
    workload: str | None
    framework_version: str
    release: str | None
    python: str | None
    packages: dict[str, str] = field(default_factory=dict)
    line: int = 0


def read_image(text: str, line: int = 0) -> ContainerImage | None:
    """The image this line names (it may be `docker pull URI` or `image: URI`), or None."""
    words = [w for w in re.split(r"[\s\"'`]+", text.strip()) if w]
    for word in words[-3:]:
        if "neuron" not in word or ":" not in word:  # cheap before the pattern, on every line of a paste
            continue
        match = _IMAGE.fullmatch(word)
        if match is None:
            continue
        repo = match["repo"].removeprefix("huggingface-")
        pieces = match["tag"].split("-")
        sdk = next((m.group(1) for m in map(_SDK.fullmatch, pieces) if m), None)
        python = next((p for p in pieces if re.fullmatch(r"py[0-9]{2,3}", p)), None)
        framework, _, rest = repo.partition("-")
        workload = next((w for w in ("inference", "training") if w in rest.split("-")), None)
        packages: dict[str, str] = {}
        for piece in pieces[1:]:
            extra = _EXTRA.fullmatch(piece)
            if extra:
                packages["optimum-neuron" if extra.group(1) == "optimum" else "transformers"] = extra.group(2)
        version = pieces[0]
        if framework == "pytorch":
            packages["torch"] = version
        elif framework == "vllm" and version.count(".") >= 5:  # the plugin's version (0.24.0.1.1.0): vllm 0.24.0 + plugin 1.1.0
            packages["vllm-neuron"] = version
        elif framework == "vllm":
            packages["vllm"] = version
        return ContainerImage(uri=word, framework=framework, workload=workload, framework_version=version,
                              release=sdk, python=python, packages=packages, line=line)
    return None
