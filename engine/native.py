"""The optional compiled cores (``engine/_native.c``, ``engine/_mcr_native.c``, ``engine/_riichi_native.c``), or
None: pip builds them where a C compiler is present, and every caller keeps the pure-Python path for a machine
without one and for whatever a core declines (it answers None). ``MJTABLE_PURE=1`` keeps them out, so the tests run
both paths; so does a core built from another version of its source than the one beside it (a checkout updated
since its last build), which is never trusted."""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType

SOURCE = Path(__file__).with_name("_native.c")
MCR_SOURCE = Path(__file__).with_name("_mcr_native.c")
RIICHI_SOURCE = Path(__file__).with_name("_riichi_native.c")
HEADER = Path(__file__).with_name("_notation.h")


def load(name: str = "_native", source: Path | None = None) -> ModuleType | None:
    """The compiled core ``engine.<name>`` built from ``source`` (default ``SOURCE``), unless it is absent, stale
    or ``MJTABLE_PURE=1`` asks for the pure path."""
    if os.environ.get("MJTABLE_PURE") == "1":
        return None
    try:
        module = importlib.import_module(f"engine.{name}")
    except ImportError:
        return None
    source = source or SOURCE
    if source.is_file() and digest(source) != getattr(module, "SOURCE_DIGEST", None):
        return None
    return module


def digest(source: Path) -> str:
    """The digest a core is stamped with (setup.py): of its source and the header every core includes."""
    return hashlib.sha256(source.read_bytes() + HEADER.read_bytes()).hexdigest()


NATIVE = load()
MCR_NATIVE = load("_mcr_native", MCR_SOURCE)
"""The MCR fan engine (``engine/_mcr_native.c``): the fans of a winning hand, every form."""
RIICHI_NATIVE = load("_riichi_native", RIICHI_SOURCE)
"""The riichi core (``engine/_riichi_native.c``): readings, yaku, fu, han and points of a winning hand, and a whole
settle line of the plain shape (``engine.rulesets.riichi.line``)."""
