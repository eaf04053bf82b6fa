"""The check of the journal before the service writes to it (``Journal._check``), on a large journal.

The journal is built from real rows: the service plays a run of 4 hands here, then its runs, matches, hands and
events are copied (new ids, same content) until the file is ``--megabytes`` large. Then, each also as a ratio to the
reference measured in the same run, reading the file once in order:

- ``quick_check`` with the file in the page cache, and from disk (its pages dropped with ``posix_fadvise``);
- ``journal.quick_check`` from disk, which reads the file in order before the check (``_prefetch``);
- the same bounded by ``--budget`` seconds: how long it really took past its deadline;
- ``Journal(path)`` and its close: an opening that checks, then one that finds the file unchanged since.

    python bench/bench_journal_check.py [--megabytes 500] [--budget 0.5] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from controller.config import Config
from controller.service.journal import CHECK_S, Journal, quick_check
from controller.service.service import journal_path, serve


def build(path: Path, megabytes: float) -> dict[str, int]:
    """A journal of real-shaped rows of at least ``megabytes``: copies of a run the service played."""
    played = path.parent / "played"
    config = Config().with_service(http="off", state_dir=str(played), seed=8, hands=4, speed=1000.0)
    serve(config, lambda line: None)
    Journal(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA synchronous=OFF")
    db.execute("ATTACH ? AS played", (str(journal_path(config)),))
    copies = 0
    while os.path.getsize(path) < megabytes * 1e6:
        db.execute("BEGIN")
        for _ in range(50):
            shift = (copies := copies + 1) * 10  # every played id is below 10
            db.execute("INSERT INTO runs SELECT id + ?, seed, rules, options, hands, started_at, finished_at, "
                       "players, hash FROM played.runs", (shift,))  # fmt: skip
            db.execute("INSERT INTO matches SELECT id + ?, run_id + ?, number, state, started_at, finished_at "
                       "FROM played.matches", (shift, shift))  # fmt: skip
            db.execute("INSERT INTO hands SELECT id + ?, match_id + ?, number, seed, dealer, round_wind, "
                       "consecutive_dealer, rules, options, dice, result, started_at, finished_at, players, hash, "
                       "match_state, result_hash FROM played.hands", (shift, shift))  # fmt: skip
            db.execute("INSERT INTO events SELECT hand_id + ?, seq, at, kind, data, hash FROM played.events", (shift,))
        db.execute("COMMIT")
    db.execute("DETACH played")
    db.execute("PRAGMA journal_mode=WAL")
    counts = {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in ("hands", "events")}
    db.close()
    return {"bytes": os.path.getsize(path), **counts}


def _uncached(path: Path) -> None:
    """Drop the file's pages from the page cache, as after a reboot."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
        os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(descriptor)


def _seconds(work: Callable[[], object], cold: Path | None = None) -> float:
    if cold is not None:
        _uncached(cold)
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _read(path: Path) -> None:
    buffer = bytearray(1 << 20)
    with open(path, "rb", buffering=0) as file:
        while file.readinto(buffer):
            pass


def _pragma(path: Path) -> Callable[[], object]:
    def check() -> None:
        db = sqlite3.connect(path)
        try:
            assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        finally:
            db.close()

    return check


def _bounded(path: Path, budget_s: float) -> Callable[[], tuple[float | None, str]]:
    def check() -> tuple[float | None, str]:
        db = sqlite3.connect(path)
        try:
            return quick_check(db, path, budget_s)
        finally:
            db.close()

    return check


def measure(path: Path, budget_s: float) -> dict[str, float | bool]:
    read_s = _seconds(lambda: _read(path), cold=path)
    found: dict[str, float | bool] = {"read_cold_s": read_s}
    found["quick_check_cached_s"] = min(_seconds(_pragma(path)) for _ in range(3))
    found["quick_check_cold_s"] = _seconds(_pragma(path), cold=path)
    found["journal_check_cold_s"] = _seconds(lambda: _bounded(path, CHECK_S)(), cold=path)
    outcome: list[tuple[float | None, str]] = []
    found["bounded_cold_s"] = _seconds(lambda: outcome.append(_bounded(path, budget_s)()), cold=path)
    found["bounded_finished"] = outcome[0][0] is not None
    path.with_name(path.name + "-checked").unlink(missing_ok=True)  # left by an earlier run of this bench
    found["open_checking_s"] = _seconds(lambda: Journal(path).close(), cold=path)  # a clean close records it
    found["open_recorded_s"] = _seconds(lambda: Journal(path).close(), cold=path)
    for key in ("quick_check_cached_s", "quick_check_cold_s", "journal_check_cold_s"):
        found[key.removesuffix("_s") + "_x_read"] = found[key] / read_s  # type: ignore[operator]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=500.0)
    parser.add_argument("--budget", type=float, default=0.5, help="the bound of the bounded check, seconds")
    parser.add_argument("--keep", type=Path, help="build (or reuse) the journal in this directory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        where = args.keep or Path(temporary)
        path = where / "journal.sqlite"
        where.mkdir(parents=True, exist_ok=True)
        size = {"bytes": path.stat().st_size} if path.exists() else build(path, args.megabytes)
        found = measure(path, args.budget)
    print(json.dumps({**size, "sqlite": sqlite3.sqlite_version, "budget_s": args.budget, **found}))
    print(
        f"{size['bytes'] / 1e6:.0f} MB: read in order {found['read_cold_s']:.2f} s from disk; quick_check "
        f"{found['quick_check_cached_s']:.2f} s cached, {found['quick_check_cold_s']:.2f} s from disk, "
        f"{found['journal_check_cold_s']:.2f} s from disk read in order first; bounded to {args.budget} s: "
        f"{found['bounded_cold_s']:.3f} s; Journal() checking {found['open_checking_s']:.2f} s, unchanged since "
        f"{found['open_recorded_s']:.3f} s"
    )


if __name__ == "__main__":
    main()
