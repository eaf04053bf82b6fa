"""The compiled cores in tests: where CI builds them (gcc present, ``MJTABLE_NO_SKIPS=1``) a missing one fails the
test instead of skipping it, so a broken build cannot pass as the pure path alone."""

from __future__ import annotations

import os
import shutil
from types import ModuleType

import pytest


def required(core: ModuleType | None, reason: str) -> ModuleType:
    """``core``, or the test failed (CI with a compiler) or skipped (a machine without one) for ``reason``."""
    if core is None:
        if os.environ.get("MJTABLE_NO_SKIPS") == "1" and shutil.which("gcc"):
            pytest.fail(reason)
        pytest.skip(reason)
    return core
