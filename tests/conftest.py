"""Shared test set-up: a fixed hypothesis profile so CI runs are repeatable, and no silent skips where everything
is there.

``MJTABLE_NO_SKIPS=1`` (set by ``.ci/run``, which installs every program the tests drive and has ``shared/`` beside
the checkout) turns a skipped test or module into a failure that gives the skip's reason: a test skipped there
would be a test that never ran while the run says it passed.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

# No per-example deadline: how fast is measured in bench/, and on a loaded machine Hypothesis's 200 ms deadline
# failed tests for the machine's load (tests/engine/test_procedure_deal.py), not for the code.
settings.register_profile(
    "ci", derandomize=True, max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

NO_SKIPS = os.environ.get("MJTABLE_NO_SKIPS") == "1"


def _failed_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    """A skip (not an expected failure) made a failure naming why it was skipped."""
    if not (NO_SKIPS and report.skipped and not hasattr(report, "wasxfail")):
        return
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped, and MJTABLE_NO_SKIPS=1 allows no skip: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    _failed_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> object:
    outcome = yield
    _failed_skip(outcome.get_result())
