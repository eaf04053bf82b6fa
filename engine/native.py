"""The optional compiled core (``engine/_native.c``), or None: pip builds it where a C compiler is present, and every
caller keeps the pure-Python path for a machine without one and for whatever the core declines (it answers None).
``MJTABLE_PURE=1`` keeps it out, so the tests run both paths."""

from __future__ import annotations

import os
from types import ModuleType


def load() -> ModuleType | None:
    """The compiled core, unless it is absent or ``MJTABLE_PURE=1`` asks for the pure path."""
    if os.environ.get("MJTABLE_PURE") == "1":
        return None
    try:
        from engine import _native
    except ImportError:
        return None
    return _native


NATIVE = load()
