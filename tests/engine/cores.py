"""The compiled cores in tests: where CI builds them (gcc present, ``MJTABLE_NO_SKIPS=1``) a missing one fails the
test instead of skipping it, so a broken build cannot pass as the pure path alone."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import ModuleType

import pytest

from engine import native


def required(core: ModuleType | None, reason: str) -> ModuleType:
    """``core``, or the test failed (CI with a compiler) or skipped (a machine without one) for ``reason``."""
    if core is None:
        if os.environ.get("MJTABLE_NO_SKIPS") == "1" and shutil.which("gcc"):
            pytest.fail(reason)
        pytest.skip(reason)
    return core


def built(name: str, source: Path) -> ModuleType:
    """The core ``engine.<name>`` built from ``source``, loaded even under ``MJTABLE_PURE=1`` (which keeps it out of
    the engine, not out of a comparison with the pure path), and ``required``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("MJTABLE_PURE", raising=False)
        core = native.load(name, source)
    return required(core, f"engine.{name} is not built from its source (python setup.py build_ext --inplace)")
