"""Throughput of ``mjtable score`` in batch against PyMahjongGB's hu check, measured in the same run.

The issue's target: at least 0.3x PyMahjongGB's rate, with parsing and JSON output included and start-up
excluded. Start-up is excluded by timing a process fed N lines and one fed a single line and dividing the
difference. The hands are the 3,000 oracle hands of ``tests/data/anchor-data`` (all winning, with flowers), so
both sides do a full hu check; PyMahjongGB additionally computes fans, which is why the in-process hu-only
comparison lives in ``bench_analysis.py``.

    python bench/bench_cli.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ORACLE = REPO / "tests" / "data" / "anchor-data" / "mcr-oracle-pymahjonggb-1.4.0.jsonl"


def cli_seconds(lines: list[str], *arguments: str, command: str = "score") -> float:
    """Wall time of one ``mjtable score`` (or ``command``) process (with ``arguments``) fed ``lines``."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "controller.cli", command, *arguments],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    return time.perf_counter() - started


def _cli_seconds(lines: list[str]) -> float:
    return cli_seconds(lines, "--rules", "basic", "--options", '{"tile_set": 144}')


def _pymahjonggb_seconds(records: list[dict], clock: Callable[[], float] = time.perf_counter) -> float:
    from MahjongGB import MahjongFanCalculator

    calls = [
        (
            tuple(tuple(pack) for pack in record["packs"]),
            tuple(record["hand"]),
            record["win_tile"],
            record["flowers"],
            record["self_drawn"],
            record["fourth_tile"],
            record["about_kong"],
            record["wall_last"],
            record["seat_wind"],
            record["prevalent_wind"],
        )
        for record in records
    ]
    started = clock()
    for call in calls:
        try:  # noqa: SIM105 - contextlib.suppress would add its own cost to the timed loop
            MahjongFanCalculator(*call)
        except TypeError:  # ERROR_NOT_WIN and friends: the hu-check path
            pass
    return clock() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    records = [json.loads(line) for line in ORACLE.read_text().splitlines()]
    lines = [record["notation"] for record in records]
    ratios = []
    for _ in range(args.repeat):
        batch = _cli_seconds(lines) - _cli_seconds(lines[:1])
        ours = (len(lines) - 1) / batch
        theirs = len(records) / _pymahjonggb_seconds(records)
        ratios.append(ours / theirs)
        print(f"mjtable score (batch): {ours:,.0f} hands/s   PyMahjongGB: {theirs:,.0f} hands/s", end="   ")
        print(f"ratio {ours / theirs:.3f}")
    print(f"median ratio mjtable score / PyMahjongGB: {statistics.median(ratios):.3f} (target >= 0.3)")


if __name__ == "__main__":
    main()
