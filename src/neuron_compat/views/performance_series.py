"""Performance series: one configuration measured at several releases, derived from the tested configurations.

A series is every measured configuration that agrees on checkpoint, family, stack, workload, instance (or hardware),
parallel layout, batch, lengths, dtype, quantization and `setting`; each configuration is one point, labelled by the
release it was measured on (`release`, or the source's own words `release_stated` when releases.yaml does not list
it). Nothing here is stored: the registry holds the points, this module joins them. Works on configuration dicts
(the compiled document's, or `model_dump(mode="json")` of the loaded models).

`moves_at(series, release)` is what a release page lists: each metric of a series whose point at that release
differs by MOVE_THRESHOLD or more from the series' point before it, with both points' sources.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

MOVE_THRESHOLD = 0.10
"""A change of at least this fraction of the earlier value is a move a release page lists."""

_KEY_FIELDS = ("family", "checkpoint", "stack", "workload", "instance", "hardware", "batch_size", "sequence_length",
               "input_length", "output_length", "dtype", "quantization", "setting")
_LAYOUT = ("tensor", "pipeline", "expert", "data", "logical_neuron_cores")
_VERSIONISH = re.compile(r"^[0-9]+(?:\.[0-9]+){1,3}$")

SeriesKey = tuple[Any, ...]


def series_key(configuration: Mapping[str, Any]) -> SeriesKey:
    """What a configuration's runs at several releases share (everything but the release, values and source)."""
    layout = configuration.get("parallelism") or {}
    return (*(configuration.get(name) for name in _KEY_FIELDS), *(layout.get(name) for name in _LAYOUT))


def point_label(configuration: Mapping[str, Any]) -> str | None:
    """The release a point was measured on: releases.yaml's, else the source's own version words; None if neither."""
    release = configuration.get("release")
    if release:
        return str(release)
    stated = configuration.get("release_stated")
    return str(stated) if stated and _VERSIONISH.match(str(stated)) else None


def _version(label: str) -> tuple[int, ...]:
    return tuple(int(part) for part in label.split("."))


@dataclass(frozen=True)
class Point:
    """One measured configuration of a series."""

    label: str
    listed: bool
    """The release is in releases.yaml (False: only the source's words name it)."""
    configuration: Mapping[str, Any]

    @property
    def source_url(self) -> str:
        return str((self.configuration.get("source") or {}).get("url") or "")

    def value(self, metric: MetricKey) -> float | None:
        for measurement in self.configuration.get("measurements") or []:
            if metric_key(measurement) == metric and isinstance(measurement.get("value"), (int, float)):
                return float(measurement["value"])
        return None


MetricKey = tuple[Any, ...]


def metric_key(measurement: Mapping[str, Any]) -> MetricKey:
    return tuple(measurement.get(name) for name in ("metric", "name", "unit", "percentile", "phase"))


def metric_text(metric: MetricKey) -> str:
    """'throughput (inferences/s, samples/s)', 'latency P99 (ms)'."""
    name, label, unit, percentile, phase = metric
    words = str(name)
    if percentile is not None:
        words += f" P{int(percentile) if float(percentile).is_integer() else percentile}"
    detail = ", ".join(str(part) for part in (label, phase) if part)
    return f"{words} ({detail + ', ' if detail else ''}{unit})"


@dataclass(frozen=True)
class Series:
    """A configuration measured at two or more releases, its points oldest first (one per release)."""

    key: SeriesKey
    points: tuple[Point, ...]

    @property
    def newest(self) -> Mapping[str, Any]:
        return self.points[-1].configuration

    @property
    def labels(self) -> list[str]:
        return [point.label for point in self.points]

    def metrics(self) -> list[MetricKey]:
        """The metrics measured at two or more of its points, in the order the newest point gives them."""
        counts: dict[MetricKey, int] = defaultdict(int)
        for point in self.points:
            for measurement in point.configuration.get("measurements") or []:
                counts[metric_key(measurement)] += 1
        return [metric for metric, count in counts.items() if count >= 2]

    def title(self) -> str:
        """The configuration in words: checkpoint, stack, instance, layout, batch, lengths, dtype."""
        c = self.newest
        parts = [str(c.get("checkpoint")), str(c.get("stack")), str(c.get("instance") or c.get("hardware")
                                                                     or "instance not stated")]
        layout = c.get("parallelism") or {}
        parts.extend(f"{short}={layout[name]}" for name, short in (("tensor", "TP"), ("pipeline", "PP"),
                                                                    ("expert", "EP"), ("data", "DP"))
                     if layout.get(name))
        for name, short in (("batch_size", "batch"), ("sequence_length", "seq"), ("input_length", "in"),
                            ("output_length", "out")):
            if c.get(name):
                parts.append(f"{short} {c[name]}")
        if c.get("dtype"):
            parts.append(str(c["dtype"]))
        return ", ".join(parts)


def _sorted_points(configurations: list[Mapping[str, Any]], listed: frozenset[str]) -> tuple[Point, ...]:
    """One point per release label, oldest first; of two configurations at one label, the later (the source's
    newer word: harvests write older tags first) is the point."""
    by_label: dict[str, Mapping[str, Any]] = {}
    for configuration in configurations:
        label = point_label(configuration)
        if label is not None:
            by_label[label] = configuration
    return tuple(Point(label, label in listed, configuration)
                 for label, configuration in sorted(by_label.items(), key=lambda item: _version(item[0])))


def performance_series(configurations: Iterable[Mapping[str, Any]], releases: Iterable[str] = ()) -> list[Series]:
    """Every series of two or more releases among the measured configurations, in a stable order (family,
    checkpoint, then the key). `releases` are releases.yaml's versions (points at others are marked unlisted)."""
    listed = frozenset(releases)
    grouped: dict[SeriesKey, list[Mapping[str, Any]]] = defaultdict(list)
    for configuration in configurations:
        if configuration.get("measurements") and point_label(configuration) is not None:
            grouped[series_key(configuration)].append(configuration)
    found = [Series(key, points) for key, members in grouped.items()
             if len(points := _sorted_points(members, listed)) >= 2]
    return sorted(found, key=lambda s: tuple(str(part) for part in s.key))


def series_of(series: Iterable[Series], *, family: str | None = None, checkpoint: str | None = None) -> list[Series]:
    return [s for s in series if (family is None or s.newest.get("family") == family)
            and (checkpoint is None or str(s.newest.get("checkpoint")).casefold() == checkpoint.casefold())]


def change(before: float, after: float) -> float | None:
    """The relative change from before to after (0.12 = +12%); None when before is 0."""
    return (after - before) / before if before else None


@dataclass(frozen=True)
class Move:
    """A metric of a series that moved by MOVE_THRESHOLD or more between two consecutive points."""

    series: Series
    metric: MetricKey
    before: Point
    after: Point
    before_value: float
    after_value: float

    @property
    def change(self) -> float:
        return (self.after_value - self.before_value) / self.before_value


def moves_at(series: Iterable[Series], release: str, threshold: float = MOVE_THRESHOLD) -> list[Move]:
    """Each metric of each series measured at `release` and at the series' point before it that changed by
    `threshold` or more (either way)."""
    found: list[Move] = []
    for one in series:
        labels = one.labels
        if release not in labels or labels.index(release) == 0:
            continue
        after = one.points[labels.index(release)]
        before = one.points[labels.index(release) - 1]
        for metric in one.metrics():
            old, new = before.value(metric), after.value(metric)
            if old is None or new is None or not old:
                continue
            if abs(new - old) / old >= threshold:
                found.append(Move(one, metric, before, after, old, new))
    return found


def trend(one: Series) -> dict[str, Any]:
    """A series as JSON: its configuration in words and, per metric, each release's value with its source."""
    return {
        "configuration": one.title(),
        "setting": one.newest.get("setting"),
        "releases": one.labels,
        "metrics": [{
            "metric": metric_text(metric), "unit": metric[2],
            "points": [{"release": point.label, "release_listed": point.listed, "value": value,
                        "configuration": point.configuration.get("id"), "source": point.source_url}
                       for point in one.points if (value := point.value(metric)) is not None],
        } for metric in one.metrics()],
    }


def trend_line(one: Series, metric: MetricKey) -> str:
    """'throughput P50 (…): 2.20.0 812.3 -> 2.25.0 845.1 (+4.0%)' — first to last of the series for one metric."""
    values = [(point.label, value) for point in one.points if (value := point.value(metric)) is not None]
    steps = " -> ".join(f"{label} {value:g}" for label, value in values)
    total = change(values[0][1], values[-1][1]) if len(values) >= 2 else None
    return f"{metric_text(metric)}: {steps}" + (f" ({total:+.1%} overall)" if total is not None else "")


def count_long_series(series: Iterable[Series], minimum: int = 3, listed_only: bool = False) -> int:
    """How many series have `minimum` or more points (of releases.yaml's releases only, with listed_only)."""
    return sum(1 for s in series if len([p for p in s.points if p.listed or not listed_only]) >= minimum)
