"""The optional compiled core (``engine/_native.c``), or None: pip builds it where a C compiler is present, and every
caller keeps the pure-Python path for a machine without one and for whatever the core declines (it answers None).
``MJTABLE_PURE=1`` keeps it out, so the tests run both paths; so does a core built from another version of its source
than the one beside it (a checkout updated since its last build), which is never trusted."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from types import ModuleType

SOURCE = Path(__file__).with_name("_native.c")


def load() -> ModuleType | None:
    """The compiled core, unless it is absent, stale or ``MJTABLE_PURE=1`` asks for the pure path."""
    if os.environ.get("MJTABLE_PURE") == "1":
        return None
    try:
        from engine import _native
    except ImportError:
        return None
    if SOURCE.is_file() and hashlib.sha256(SOURCE.read_bytes()).hexdigest() != getattr(_native, "SOURCE_DIGEST", None):
        return None
    return _native


NATIVE = load()
