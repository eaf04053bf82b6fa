"""The real records the record benches read (``shared/records``, or wherever ``MJTABLE_SHARED`` points), by format."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MJTABLE_SHARED") or REPO.parent / "shared")
RECORDS = SHARED / "records"


def record_groups() -> dict[str, list[Path]]:
    """The record files by format; exits with the reason when there are none."""
    groups = {
        "mjlog": sorted((RECORDS / "tenhou").glob("*.mjlog")),
        "tenhou6": sorted((RECORDS / "tenhou").glob("*.json")),
        "botzone": [RECORDS / "mcr" / "botzone-sample.txt"],
    }
    if not groups["mjlog"]:
        raise SystemExit(f"no records at {RECORDS} (shared/records beside the checkout, or set MJTABLE_SHARED)")
    return groups
