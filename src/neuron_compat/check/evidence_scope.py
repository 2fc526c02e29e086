"""Which tested configurations are evidence for the question asked, and why the others are not.

A question is a checkpoint (by any of its names), its family and parameter count, a workload, and optionally a
hardware generation and an instance. A configuration answers it when it is of that workload, on that hardware (and
on that instance, when one is asked), and of this checkpoint or of this size (SIZE_RULE). Everything else of the
checkpoint or family is shown apart, under OTHER_LABEL, each with the reason it is not evidence here; none of it
goes into the headline lines or the compile-time figures.

Where a configuration does not record its workload, a run whose id or checkpoint names training, fine-tuning or
pre-training, or whose source is a training table, is read as training and the rest as inference; the answer says
when it was read that way. Where it records no instance, its hardware is the one the source names (the
configuration's `hardware`), else unknown: such a run is never "on inf2".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

SIZE_TOLERANCE = 0.25
"""A configuration is of "this size" when the parameter count its checkpoint name gives (e.g. 70B) is within this
share of the counted parameters of the config asked about."""
SIZE_RULE = f"parameters within {SIZE_TOLERANCE:.0%}"
OTHER_LABEL = "other sizes / other hardware"
SIZE_IN_NAME = re.compile(r"(?<![0-9.])([0-9]+(?:\.[0-9]+)?)\s*[bB](?![a-zA-Z])")
_TRAINING_WORDS = ("train", "fine-tun", "finetun", "fine tun")


@dataclass(frozen=True)
class Question:
    """What the evidence must be about."""

    names: frozenset[str]  # the checkpoint's names, casefolded (its Hub id and its aliases); empty: none asked
    family: str | None
    parameters: int | None
    workload: str
    hardware: str | None
    instance: str | None


def size_in_name(name: object) -> float | None:
    """The parameter count a checkpoint name gives ('Llama-3.1-70B' -> 7e10), or None."""
    match = SIZE_IN_NAME.search(name) if isinstance(name, str) else None
    return float(match.group(1)) * 1e9 if match else None


def configuration_size(configuration: Mapping[str, Any]) -> float | None:
    return size_in_name(configuration.get("checkpoint")) or size_in_name(configuration.get("hub_id"))


def configuration_workload(configuration: Mapping[str, Any]) -> tuple[str, bool]:
    """(inference or training, whether the source records it): the recorded workload, else the reading the module
    docstring gives."""
    stated = configuration.get("workload")
    if stated in ("inference", "training"):
        return str(stated), True
    words = " ".join(str(configuration.get(key) or "") for key in ("id", "checkpoint")).lower()
    url = str((configuration.get("source") or {}).get("url") or "").lower()
    training = any(word in words for word in _TRAINING_WORDS) or "/training_data" in url
    return ("training" if training else "inference"), False


def configuration_hardware(configuration: Mapping[str, Any], by_instance: Mapping[str, str]) -> str | None:
    """The hardware it ran on: its instance's, else the one its source names, else None (not stated)."""
    instance = configuration.get("instance")
    if isinstance(instance, str) and instance in by_instance:
        return by_instance[instance]
    hardware = configuration.get("hardware")
    return hardware if isinstance(hardware, str) else None


def of_checkpoint(configuration: Mapping[str, Any], names: Iterable[str]) -> bool:
    wanted = set(names)
    return any(isinstance(configuration.get(key), str) and configuration[key].casefold() in wanted
               for key in ("hub_id", "checkpoint"))


def of_size(configuration: Mapping[str, Any], parameters: int | None) -> bool:
    size = configuration_size(configuration)
    return bool(parameters and size and abs(size - parameters) <= SIZE_TOLERANCE * parameters)


def _billions(value: float) -> str:
    return f"{value / 1e9:.3g}B"


def why_not(configuration: Mapping[str, Any], question: Question, by_instance: Mapping[str, str]) -> str | None:
    """None when the configuration is evidence for `question`, else why not (one short phrase)."""
    workload, _ = configuration_workload(configuration)
    if workload != question.workload:
        return f"{'an' if workload == 'inference' else 'a'} {workload} run ({question.workload} asked)"
    hardware = configuration_hardware(configuration, by_instance)
    instance = configuration.get("instance")
    if question.hardware is not None and hardware != question.hardware:
        return (f"on {hardware}, not {question.hardware}" if hardware else
                f"the source does not say where it ran ({question.hardware} asked)")
    if question.instance is not None and instance != question.instance:
        return (f"on {instance}, not {question.instance}" if instance else
                f"on {hardware}, instance not stated ({question.instance} asked)")
    if of_checkpoint(configuration, question.names):
        return None
    if configuration.get("family") != question.family:
        return "another family"
    size = configuration_size(configuration)
    if not question.parameters:
        return "another checkpoint of the family (this config's parameters are not counted, so no size compares)"
    if size is None:
        return "another checkpoint of the family, its size not in its name"
    if not of_size(configuration, question.parameters):
        return (f"another size: {_billions(size)}, not within {SIZE_TOLERANCE:.0%} of "
                f"{_billions(question.parameters)}")
    return None


def scope_of(configuration: Mapping[str, Any], question: Question, by_instance: Mapping[str, str]) -> dict[str, Any]:
    """What check --json adds to a listed configuration: its workload and hardware as read, and why it is not
    evidence for the question (null when it is)."""
    workload, stated = configuration_workload(configuration)
    hardware = configuration_hardware(configuration, by_instance)
    instance = configuration.get("instance")
    if isinstance(instance, str) and instance in by_instance:
        hardware_from = "instance"
    elif hardware is not None:
        hardware_from = "source (names the hardware, not the instance)"
    else:
        hardware_from = None
    return {"workload": workload, "workload_from": "source" if stated else "read from its id, checkpoint or source",
            "hardware": hardware, "hardware_from": hardware_from,
            "this_checkpoint": of_checkpoint(configuration, question.names),
            "why_other": why_not(configuration, question, by_instance)}


def where_text(configuration: Mapping[str, Any], by_instance: Mapping[str, str]) -> str:
    """'trn1.32xlarge', 'trn1 (instance not stated)' or 'instance and hardware not stated'."""
    instance = configuration.get("instance")
    if isinstance(instance, str) and instance:
        return instance
    hardware = configuration_hardware(configuration, by_instance)
    return f"{hardware} (instance not stated)" if hardware else "instance and hardware not stated"
