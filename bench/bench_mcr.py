"""MCR fan calculations per second against PyMahjongGB, measured in the same run, as ratios.

* in process: ``McrRuleset.evaluate`` on parsed hands (verdict, fans, settlement). "first sight": each hand
  scored once in a fresh process after its tables are built, every cache per key starting empty (what the CLI
  meets); "cold": the hand cache cleared, so every hand is scored, but the caches per key filled by the first
  repeat stay (as in a running controller; the same hands again flatter whole-shape caches); "warm": the same
  hands again, every one a hand-cache hit (a table asking twice). The static tables are built before timing and
  reported as start-up;
* through ``python -m controller.cli score --rules mcr`` in batch, parsing and JSON output included, start-up
  excluded (a process fed N lines minus one fed a single line, as in ``bench_cli.py``).

The hands are the 3,000 oracle hands of ``tests/data/anchor-data`` (all winning, half with flowers); PyMahjongGB
scores the same hands in the same run. Targets (issue 3): CLI >= 0.05x, in process 0.25x.

    python bench/bench_mcr.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_cli import ORACLE, _pymahjonggb_seconds, cli_seconds  # noqa: E402
from controller.cli import win_context  # noqa: E402
from engine.analysis.suit_tables import group_table  # noqa: E402
from engine.notation import parse_hand  # noqa: E402
from engine.rulesets.mcr.ruleset import checked_hand_fans  # noqa: E402
from engine.rulesets.mcr.scorer import prime_tables  # noqa: E402
from engine.rulesets.registry import get_ruleset  # noqa: E402


def _cli_seconds(lines: list[str]) -> float:
    return cli_seconds(lines, "--rules", "mcr")


def _first_sight_seconds() -> float:
    """Seconds to evaluate every hand once in a fresh process, tables built first (``--first-sight``)."""
    done = subprocess.run(
        [sys.executable, __file__, "--first-sight"], capture_output=True, text=True, check=True, cwd=REPO
    )
    return float(done.stdout)


def _in_process_seconds(lines: list[str], cold: bool) -> float:
    ruleset = get_ruleset("mcr")
    hands = [parse_hand(line) for line in lines]
    contexts = [win_context(hand) for hand in hands]
    if cold:
        checked_hand_fans.cache_clear()
    else:
        for hand, ctx in zip(hands, contexts, strict=True):
            ruleset.evaluate(hand, ctx)
    evaluate = ruleset.evaluate
    started = time.perf_counter()
    for hand, ctx in zip(hands, contexts, strict=True):
        evaluate(hand, ctx)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--first-sight", action="store_true", help="(internal) one cold pass in this process")
    args = parser.parse_args()
    started = time.perf_counter()
    group_table(True), group_table(False)  # the static per-suit tables, built once at first use
    prime_tables()  # the scorer's shape tables, likewise
    startup = time.perf_counter() - started
    records = [json.loads(line) for line in ORACLE.read_text().splitlines()]
    lines = [record["notation"] for record in records]
    if args.first_sight:
        print(_in_process_seconds(lines, cold=True))
        return
    print(f"start-up (tables built once per process): {startup:.2f} s")
    warm_lines = lines[: checked_hand_fans.cache_info().maxsize]
    ratios: dict[str, list[float]] = {
        "in process (first sight)": [],
        "in process (cold)": [],
        "in process (warm)": [],
        "CLI batch": [],
    }
    for _ in range(args.repeat):
        theirs = len(records) / _pymahjonggb_seconds(records)
        rates = {
            "in process (first sight)": len(lines) / _first_sight_seconds(),
            "in process (cold)": len(lines) / _in_process_seconds(lines, cold=True),
            "in process (warm)": len(warm_lines) / _in_process_seconds(warm_lines, cold=False),
            # The start-up of a single-line run varies most: the quicker of two is taken.
            "CLI batch": (len(lines) - 1) / (_cli_seconds(lines) - min(_cli_seconds(lines[:1]) for _ in range(2))),
        }
        print(f"PyMahjongGB {theirs:,.0f} hands/s", end="")
        for name, rate in rates.items():
            ratios[name].append(rate / theirs)
            print(f" | {name} {rate:,.0f}/s = {rate / theirs:.3f}x", end="")
        print()
    for name, values in ratios.items():
        print(f"median ratio {name} / PyMahjongGB: {statistics.median(values):.3f}")


if __name__ == "__main__":
    main()
