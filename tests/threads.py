"""An autouse fixture for packages that start threads: every test leaves no thread behind (links, simulators
and blinking lamps are shut down cleanly). A package's ``conftest.py`` imports it to switch it on."""

import threading
import time

import pytest


@pytest.fixture(autouse=True)
def no_leftover_threads():
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 2.0
    while (extra := set(threading.enumerate()) - before) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not extra, f"threads left running: {sorted(thread.name for thread in extra)}"
