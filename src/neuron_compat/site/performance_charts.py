"""Performance series on the site: per series a small table (release, value per metric, source) and an inline SVG
chart drawn here, server-side (no script); and per release, the metrics that moved by 10% or more against the
series' point before, citing both sources. The series are views.performance_series's, derived from the tested
configurations at build time, never stored. The SVG holds only numbers this module formats and no registry text;
the tables' text is escaped by the templates."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from markupsafe import Markup

from neuron_compat.loading.loaded_registry import Registry
from neuron_compat.views.performance_series import (
    MetricKey,
    Series,
    metric_text,
    moves_at,
    performance_series,
)

_WIDTH, _HEIGHT, _PAD = 220, 48, 4


_LAST: list[tuple[Registry, list[Series]]] = []


def all_series(registry: Registry) -> list[Series]:
    """Every series of the registry (views.performance_series over every configuration file), derived once per
    loaded registry (a build draws every family, checkpoint and release page from one)."""
    if _LAST and _LAST[0][0] is registry:
        return _LAST[0][1]
    configurations = [c.model_dump(mode="json") for f in registry.configuration_files for c in f.configurations]
    found = performance_series(configurations, registry.release_versions)
    _LAST[:] = [(registry, found)]
    return found


def sparkline(values: list[float], label: str) -> Markup:
    """An inline SVG polyline of `values` (oldest first) with a dot per point, scaled to its own range; `label`
    (trusted: built from numbers and release names) is its accessible name."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (_WIDTH - 2 * _PAD) / max(len(values) - 1, 1)
    points = [(_PAD + index * step, _HEIGHT - _PAD - (value - low) / span * (_HEIGHT - 2 * _PAD))
              for index, value in enumerate(values)]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2"/>' for x, y in points)
    return Markup(
        f'<svg class="nc-spark" role="img" width="{_WIDTH}" height="{_HEIGHT}" viewBox="0 0 {_WIDTH} {_HEIGHT}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{Markup.escape(label)}</title>'
        f'<polyline fill="none" stroke="currentColor" stroke-width="1.5" points="{line}"/>'
        f'<g fill="currentColor">{dots}</g></svg>')


def _chart_metric(one: Series) -> MetricKey:
    """The metric a series' chart draws: its first throughput, else its first metric."""
    metrics = one.metrics()
    return next((m for m in metrics if m[0] == "throughput"), metrics[0])


def series_block(one: Series) -> dict[str, Any]:
    """What the template shows of one series: its configuration, the table and the chart."""
    metrics = one.metrics()
    charted = _chart_metric(one)
    values = [(point.label, value) for point in one.points if (value := point.value(charted)) is not None]
    first, last = values[0][1], values[-1][1]
    return {
        "title": one.title(), "setting": one.newest.get("setting"), "workload": one.newest.get("workload"),
        "columns": [metric_text(m) for m in metrics],
        "rows": [{"release": point.label, "listed": point.listed, "source": point.source_url,
                  "validated": point.configuration.get("validated"),
                  "values": [point.value(m) for m in metrics]} for point in one.points],
        "chart": sparkline([v for _, v in values], f"{metric_text(charted)}, {values[0][0]} to {values[-1][0]}: "
                                                   f"{first:g} to {last:g}"),
        "chart_metric": metric_text(charted),
        "change": (last - first) / first if first else None,
    }


def series_blocks(series: Iterable[Series], *, family: str | None = None,
                  names: set[str] | None = None) -> list[dict[str, Any]]:
    """The blocks of the series of one family, or of a checkpoint (its names casefolded)."""
    chosen = [s for s in series if (family is None or s.newest.get("family") == family)
              and (names is None or str(s.newest.get("hub_id") or s.newest.get("checkpoint")).casefold() in names)]
    return [series_block(one) for one in chosen if one.metrics()]


def moves_block(series: list[Series], release: str) -> list[dict[str, Any]]:
    """The release page's rows: each metric of a series that moved by 10% or more at `release`."""
    return [{"title": move.series.title(), "setting": move.series.newest.get("setting"),
             "metric": metric_text(move.metric), "before_release": move.before.label, "before": move.before_value,
             "before_source": move.before.source_url, "after": move.after_value, "after_source": move.after.source_url,
             "change": move.change} for move in moves_at(series, release)]
