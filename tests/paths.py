"""Where the tests' data is. The small corpora live in the repository (``tests/data``: the MCR anchor corpora with their
sources and licences), so that a clone with nothing beside it passes the default run; the tile artwork ships with
the package (``vision/faces``). The large real photographs (``photos/``, 25 MB) and the rule documents stay in the
read-only ``shared/`` folder beside the checkout, or wherever ``MJTABLE_SHARED`` points; a test that needs them is
skipped with the reason when they are absent (``needs_photos``), and CI, which has them, fails on any skip
(``MJTABLE_NO_SKIPS``, see ``tests/conftest.py``).
"""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MJTABLE_SHARED") or REPO.parent / "shared")
ANCHOR = REPO / "tests" / "data" / "anchor-data"
PHOTOS = SHARED / "photos"

needs_photos = pytest.mark.skipif(
    not (PHOTOS / "scenes").is_dir() or not (PHOTOS / "sets").is_dir(),
    reason=f"the real photographs are not at {PHOTOS} (shared/photos beside the checkout, or set MJTABLE_SHARED)",
)
"""For a test that reads ``shared/photos``."""

needs_records = pytest.mark.skipif(
    not (SHARED / "records" / "tenhou").is_dir() or not (SHARED / "records" / "mcr").is_dir(),
    reason=f"the real game records are not at {SHARED / 'records'} (shared/records beside the checkout, or set "
    "MJTABLE_SHARED)",
)
"""For a test that reads ``shared/records`` (Tenhou and Botzone game records, their settle cross-check files)."""
