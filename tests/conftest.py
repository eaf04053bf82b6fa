"""Shared test set-up: a fixed hypothesis profile so CI runs are repeatable."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
