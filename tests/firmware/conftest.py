"""Every test here leaves no thread behind (see ``tests/threads.py``)."""

from tests.threads import no_leftover_threads  # noqa: F401 - an autouse fixture, switched on by importing it
