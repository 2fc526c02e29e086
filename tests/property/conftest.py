"""Hypothesis profiles: `default` for a quick local run, `ci` for the bounded fuzz in CI, `fuzz` for long runs.

Select one with HYPOTHESIS_PROFILE=ci (or fuzz); on CI (CI=true, as GitHub Actions sets it) `ci` is the
default: a fixed, bounded set of examples, the same on every run. No example database is written.
"""

import os

from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("default", max_examples=150, **_COMMON)
settings.register_profile("ci", max_examples=400, derandomize=True, **_COMMON)
settings.register_profile("fuzz", max_examples=20_000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") == "true" else "default"))
