"""The `latency` metric and the percentile that qualifies a time (P50, P99), as the Neuron performance pages give them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from neuron_compat.contract.tested_configurations import Measurement
from neuron_compat.site.tested_data import sort_value


def test_latency_percentiles_are_measurements_in_time_units() -> None:
    p99 = Measurement.model_validate({"metric": "latency", "value": 2.7, "unit": "ms", "percentile": 99})
    assert p99.percentile == 99 and str(p99.unit) == "ms"
    assert sort_value("latency", 1.5, "s") == 1500.0
    Measurement.model_validate({"metric": "ttft", "value": 29.5, "unit": "ms", "percentile": 50})


@pytest.mark.parametrize(("measurement", "message"), [
    ({"metric": "latency", "value": 2.7, "unit": "tokens/s"}, "does not fit the metric 'latency'"),
    ({"metric": "throughput", "value": 10, "unit": "samples/s", "percentile": 50}, "a percentile qualifies only"),
    ({"metric": "latency", "value": 2.7, "unit": "ms", "percentile": 0}, "greater than 0"),
    ({"metric": "latency", "value": 2.7, "unit": "ms", "percentile": 101}, "less than or equal to 100"),
])
def test_a_percentile_or_unit_that_does_not_fit_is_refused(measurement: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Measurement.model_validate(measurement)


def test_the_check_text_names_the_percentile() -> None:
    from neuron_compat.check.tested_text import _measured
    configuration = {"measurements": [{"metric": "latency", "value": 2.7, "unit": "ms", "percentile": 99},
                                      {"metric": "throughput", "value": 10.0, "unit": "samples/s"}]}
    assert _measured(configuration) == "latency P99 2.7 ms; throughput 10 samples/s"
