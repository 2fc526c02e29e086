"""What `neuron-ls` prints: its JSON (before Neuron 2.34 `--json-output`/`-j`; from 2.34 `--output-format json`) and
its table.

The `-j` format is a JSON list with one object per Neuron device: `nc_count` (NeuronCores of the device, logical
ones under LNC=2), `memory_size` (bytes), `logical_neuroncore_config` (Trn2) and more; the table prints
`instance-type:` and `logical-neuroncore-config:` above one row per device (aws-neuron-sdk,
tools/neuron-sys-tools/neuron-ls.rst at v2.32.0). The 2.34 format "adds top-level fields for information that
applies to more than one device, such as instance and UltraServer details" (the 2.34 announcement
announce-intent-eos-neuron-ls-json); the stored docs name no field, so it is read by what the values are: device
objects (with `nc_count` or `memory_size`) in a list anywhere near the top, and an instance type in a string value
such as 'trn2.48xlarge'. A JSON document with neither is a neuron-ls format this reader does not know.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

GIB = 1024**3
INSTANCE_NAME = re.compile(r"[a-z][a-z0-9-]{1,15}\.(?:[0-9]{0,3}x)?large|[a-z][a-z0-9-]{1,15}\.metal")
"""The shape of an EC2 instance type (family.size). Which generation it is comes from registry/instances.yaml alone."""
_HEADER_LINE = re.compile(r"(instance-type|instance-id|logical-neuroncore-config)\s*:\s*(\S{1,80})")
_MEMORY_CELL = re.compile(r"([0-9]{1,6})\s*GB")
_MAX_DEPTH = 3


class NeuronLsFormatError(ValueError):
    """JSON that neuron-ls did not write (in any format this reader knows): a one-line reason."""


@dataclass
class Devices:
    """The Neuron devices neuron-ls listed, and what it said of the instance."""

    format: str
    count: int = 0
    cores: list[int] = field(default_factory=list)
    memory_gib: list[float] = field(default_factory=list)
    instance_type: str | None = None
    lnc: int | None = None
    lines: list[int] = field(default_factory=list)


def _lnc(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and 0 < value < 16:
        return value
    if isinstance(value, str) and value.isdigit() and 0 < int(value) < 16:
        return int(value)
    return None


def _device_objects(value: Any, depth: int = 0) -> list[dict[str, Any]] | None:
    """The first list of device objects at most `_MAX_DEPTH` levels down."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(value, list):
        devices = [item for item in value if isinstance(item, dict) and ("nc_count" in item or "memory_size" in item)]
        if devices:
            return devices
        children: list[Any] = [item for item in value if isinstance(item, (dict, list))]
    elif isinstance(value, dict):
        children = [item for item in value.values() if isinstance(item, (dict, list))]
    else:
        return None
    for child in children[:64]:
        found = _device_objects(child, depth + 1)
        if found:
            return found
    return None


def _strings_and_lnc(value: Any, depth: int = 0) -> tuple[list[str], int | None]:
    """Instance-type-looking strings and a `logical_neuroncore_config` value, at most `_MAX_DEPTH` levels down
    (device objects included: `-j` puts the LNC there)."""
    names: list[str] = []
    lnc: int | None = None
    if depth > _MAX_DEPTH:
        return names, lnc
    items = list(value.items()) if isinstance(value, dict) else [("", item) for item in value] if isinstance(value, list) else []
    for key, item in items[:256]:
        if isinstance(item, str) and INSTANCE_NAME.fullmatch(item.strip().lower()):
            names.append(item.strip().lower())
        elif "logical_neuroncore_config" in str(key).lower().replace("-", "_") and _lnc(item) is not None:
            lnc = lnc or _lnc(item)
        elif isinstance(item, (dict, list)):
            more, found = _strings_and_lnc(item, depth + 1)
            names += more
            lnc = lnc or found
    return names, lnc


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if value >= 0 else None


def devices_from_json(document: Any) -> Devices:
    """The devices of a neuron-ls JSON document. Raises NeuronLsFormatError for JSON of another shape."""
    objects = _device_objects(document)
    names, lnc = _strings_and_lnc(document)
    if objects is None and not names:
        raise NeuronLsFormatError("JSON, but not neuron-ls output of a format this version reads (no device with "
                                  "nc_count or memory_size, no instance type)")
    kind = "neuron-ls --json-output" if isinstance(document, list) else "neuron-ls --output-format json"
    found = Devices(format=kind, instance_type=names[0] if names else None, lnc=lnc)
    for device in objects or []:
        found.count += 1
        cores = _number(device.get("nc_count"))
        memory = _number(device.get("memory_size"))
        if cores is not None:
            found.cores.append(int(cores))
        if memory is not None:
            found.memory_gib.append(round(memory / GIB, 1))
    return found


def read_table_line(text: str, line: int, devices: Devices | None) -> Devices | bool | None:
    """A line of neuron-ls's table output folded into `devices` (made when None); True for its rulers and
    header rows; None when the line is not neuron-ls's."""
    stripped = text.strip()
    header = _HEADER_LINE.fullmatch(stripped)
    if header is None and not stripped.startswith(("|", "+-")):
        return None
    devices = devices or Devices(format="neuron-ls")
    devices.lines.append(line)
    if header is not None:
        key, value = header.groups()
        if key == "instance-type" and INSTANCE_NAME.fullmatch(value.lower()):
            devices.instance_type = value.lower()
        elif key == "logical-neuroncore-config":
            devices.lnc = _lnc(value)
        return devices
    cells = [cell.strip() for cell in stripped.strip("|").split("|")]
    if len(cells) < 3 or not cells[0].isdigit():
        return devices if stripped.startswith("+-") or cells[0] in ("", "NEURON", "DEVICE") else None
    devices.count += 1
    if cells[1].isdigit():
        devices.cores.append(int(cells[1]))
    memory = next((m for m in (_MEMORY_CELL.fullmatch(c) for c in cells[2:5]) if m), None)
    if memory is not None:
        devices.memory_gib.append(float(memory.group(1)))
    return devices
