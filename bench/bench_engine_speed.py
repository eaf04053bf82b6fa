"""Issue 30's figures in one run: the engine's rates as ratios against PyMahjongGB 1.4.0, measured side by side.

* start-up: ``mjtable score`` fed one line, from the process's start to its exit (its first line is its last),
  the median of ``--startup-runs`` runs, next to the interpreter alone (``python -c pass``); target 0.3 s here;
* batch CLI, start-up excluded (a process fed N lines minus one fed a single line, ``bench_cli.cli_seconds``):
  hu check (``score --rules basic``, 144-tile set; the 3,000 oracle hands 20 times over, as basic keeps nothing
  per hand) and MCR fans (``score --rules mcr``, the 3,000 oracle hands once each) against
  ``MahjongFanCalculator`` on the oracle hands; waits and shanten (``waits --rules mcr``) on 30 x ``--hands``
  fresh random 13-tile hands against ``MahjongShanten`` (shanten only: PyMahjongGB has no waits call); targets
  0.5x, 0.25x, 2x;
* in process, every hand seen once (what a replay meets): the hu check ``is_win`` on fresh random hands (winning
  and random 14-tile ones, ``bench_analysis``) against ``MahjongFanCalculator``; MCR ``evaluate`` on the oracle
  hands in a fresh process, tables loaded first (``bench_mcr``'s first sight); target 1.0x for both.

Each ratio is the median over ``--repeat`` rounds; a round times ours and PyMahjongGB back to back, both in CPU
seconds (the machine is shared: waiting for a core is neither side's cost), except the first-sight MCR pass,
whose fresh process times itself in wall seconds (``bench_mcr``).

Riichi against ``mahjong`` 2.1.0's ``HandCalculator.estimate_hand_value`` on ``--hands`` fresh random hands of the
differential test's generator (``bench_riichi``): ``mjtable settle`` in batch (one JSON request a line, start-up
excluded; target 1.0x) and ``RiichiRuleset.evaluate`` in process, its per-hand cache cleared first (each hand
once). The last lines print every target with its median ratio. This machine is shared: read the ratios, not
the rates.

Both paths of the engine are measured, each in processes of its own: the compiled core (``engine/_native.c``, built
by ``pip install -e .`` or ``python setup.py build_ext --inplace``) and the pure-Python path (``MJTABLE_PURE=1``);
``--path`` picks one.

    python bench/bench_engine_speed.py [--path both|compiled|pure] [--repeat 3] [--startup-runs 7] [--hands 3000]
        [--seed 30]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import MahjongGB  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402

from bench.bench_analysis import (  # noqa: E402
    NAMES,
    oracle_hu,
    random_13,
    random_14_case,
    winning_case,
)
from bench.bench_cli import ORACLE, _pymahjonggb_seconds, cli_seconds  # noqa: E402
from bench.bench_mcr import _first_sight_seconds  # noqa: E402
from bench.bench_riichi import _ours as riichi_prepared  # noqa: E402
from bench.timing import median_ms  # noqa: E402
from engine.analysis import MCR_SHAPES, is_win  # noqa: E402
from engine.native import NATIVE  # noqa: E402
from engine.rulesets.riichi.scorer import hand_value  # noqa: E402
from tests.engine.rulesets.riichi.oracle import Case, oracle_arguments, random_case, settle_request  # noqa: E402

TARGETS = {
    "batch CLI hu check (score --rules basic)": 0.5,
    "batch CLI MCR fans (score --rules mcr)": 0.25,
    "batch CLI waits+shanten (waits --rules mcr)": 2.0,
    "in process hu check (is_win, each hand once)": 1.0,
    "in process MCR evaluate (first sight)": 1.0,
    "batch CLI riichi settle vs mahjong": 1.0,
    "in process riichi evaluate vs mahjong": 1.0,
}
"""Issue 30's targets, as ratios (ours / theirs)."""
BASIC = ("--rules", "basic", "--options", '{"tile_set": 144}')


def notation(counts: list[int]) -> str:
    """Concealed tiles as compact notation (``engine.tiles`` ids: 万 0-8, 筒 9-17, 条 18-26, honors 27-33)."""
    return "".join(f"{tile % 9 + 1}{'mpsz'[tile // 9]}" * n for tile, n in enumerate(counts))


def settle_line(case: Case) -> str:
    """A riichi oracle case as one ``mjtable settle`` line."""
    return json.dumps(settle_request(case))


def cpu_seconds(lines: list[str], *arguments: str, command: str = "score") -> float:
    """CPU seconds (user + system) of one ``mjtable`` process fed ``lines`` (``bench_cli.cli_seconds``): on a
    shared machine, waiting for a core is neither side's cost, so both sides are timed in CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cli_seconds(lines, *arguments, command=command)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def batch_rate(lines: list[str], *arguments: str, command: str = "score") -> float:
    """Lines per CPU second of one ``mjtable`` batch, start-up excluded: the least of three single-line runs
    taken from the least of two whole runs."""
    single = min(cpu_seconds(lines[:1], *arguments, command=command) for _ in range(3))
    return (len(lines) - 1) / (min(cpu_seconds(lines, *arguments, command=command) for _ in range(2)) - single)


def pass_rate(work: Callable[[], object], count: int) -> float:
    """Items per CPU second of one pass of ``work`` in this process."""
    started = time.process_time()
    work()
    return count / (time.process_time() - started)


def oracle_rate(records: list[dict]) -> float:
    """PyMahjongGB's fan calculations per CPU second on the oracle hands (``bench_cli``)."""
    return len(records) / _pymahjonggb_seconds(records, time.process_time)


def startup_seconds(runs: int, lines: list[str]) -> dict[str, float]:
    """Median whole-process seconds of ``mjtable score`` fed one line, and of the interpreter alone."""

    def score(*arguments: str) -> Callable[[], object]:
        return lambda: cli_seconds(lines[:1], *arguments)

    python = [sys.executable, "-c", "pass"]
    return {
        "python -c pass": median_ms(lambda: subprocess.run(python, check=True), runs) / 1000,
        "mjtable score --rules mcr (one line)": median_ms(score("--rules", "mcr"), runs) / 1000,
        "mjtable score --rules basic (one line)": median_ms(score(*BASIC), runs) / 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--startup-runs", type=int, default=7)
    parser.add_argument("--hands", type=int, default=3000, help="fresh random hands per in-process pass")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--path", choices=("both", "compiled", "pure"), default="both")
    args = parser.parse_args()
    if args.path == "both":
        for path in ("compiled", "pure"):
            environment = {**os.environ, "MJTABLE_PURE": "1" if path == "pure" else "0"}
            subprocess.run([sys.executable, __file__, *sys.argv[1:], "--path", path], env=environment, check=True)
        return
    if args.path == "compiled" and NATIVE is None:
        sys.exit("the compiled core is not built (python setup.py build_ext --inplace) or MJTABLE_PURE=1 is set")
    print(f"== the {args.path} path")
    records = [json.loads(line) for line in ORACLE.read_text().splitlines()]
    lines = [record["notation"] for record in records]
    rng = random.Random(args.seed)

    for name, seconds in startup_seconds(args.startup_runs, lines).items():
        print(f"start-up  {name:<40} {seconds:.3f} s   (target 0.3 s)")

    ratios: dict[str, list[float]] = {}

    def note(name: str, ours: float, theirs: float) -> None:
        ratios.setdefault(name, []).append(ours / theirs)
        print(f"  {name:<44} ours {ours:>9,.0f}/s   theirs {theirs:>9,.0f}/s   {ours / theirs:.3f}x")

    for round_ in range(args.repeat):
        print(f"round {round_ + 1}")
        # basic keeps nothing per hand; the hands 20 times over make a batch long enough to time against the start-up
        # it is measured beside (four times over, the compiled core's batch took less time than the start-up's noise)
        note("batch CLI hu check (score --rules basic)", batch_rate(lines * 20, *BASIC), oracle_rate(records))
        note("batch CLI MCR fans (score --rules mcr)", batch_rate(lines, "--rules", "mcr"), oracle_rate(records))
        # fresh hands, 30 x --hands of them: the compiled core answers a line in about 2 us, and 3 x --hands made a
        # batch of 20 ms timed against a start-up of 300 ms (rounds from 1.5x to 6x)
        hands13 = [random_13(rng) for _ in range(30 * args.hands)]
        names13 = [tuple(NAMES[t] for t, n in enumerate(counts) for _ in range(n)) for counts in hands13]
        waits = batch_rate([notation(counts) for counts in hands13], "--rules", "mcr", command="waits")
        note(
            "batch CLI waits+shanten (waits --rules mcr)",
            waits,
            pass_rate(lambda names13=names13: [MahjongGB.MahjongShanten((), h) for h in names13], len(names13)),
        )
        cases = [winning_case(rng) if i % 2 else random_14_case(rng) for i in range(args.hands)]
        counts = [case[0] for case in cases]
        is_win(counts[0], MCR_SHAPES)  # the static tables, loaded or built once per process: start-up
        note(
            "in process hu check (is_win, each hand once)",
            pass_rate(lambda counts=counts: [is_win(c, MCR_SHAPES) for c in counts], len(counts)),
            pass_rate(lambda cases=cases: [oracle_hu(case[1]) for case in cases], len(cases)),
        )
        # wall seconds inside a fresh process (bench_mcr), against PyMahjongGB's wall seconds
        note(
            "in process MCR evaluate (first sight)",
            len(lines) / _first_sight_seconds(),
            len(records) / _pymahjonggb_seconds(records),
        )
        cases = [random_case(rng) for _ in range(args.hands)]
        arguments = [oracle_arguments(case) for case in cases]
        theirs = pass_rate(lambda a=arguments: [HandCalculator.estimate_hand_value(**x) for x in a], len(arguments))
        settles = [settle_line(case) for case in cases]
        note("batch CLI riichi settle vs mahjong", batch_rate(settles, command="settle"), theirs)
        prepared = riichi_prepared(cases)
        prepared[0][0].evaluate(*prepared[0][1:])  # the analysis tables, built once per process: start-up
        hand_value.cache_clear()
        ours = pass_rate(lambda p=prepared: [ruleset.evaluate(hand, ctx) for ruleset, hand, ctx in p], len(prepared))
        note("in process riichi evaluate vs mahjong", ours, theirs)
    print(f"median ratios against their targets, the {args.path} path")
    for name, values in ratios.items():
        ratio, target = statistics.median(values), TARGETS[name]
        print(f"  {name:<44} {ratio:.3f}x   target {target}x   {'met' if ratio >= target else 'not met'}")


if __name__ == "__main__":
    main()
