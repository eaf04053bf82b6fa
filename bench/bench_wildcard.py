"""Wildcard hu checks of the wild.md rulesets (赖子, 鬼牌), against references measured in the same run.

    python bench/bench_wildcard.py [--hands N] [--seed S]

For each wildcard shape the rulesets use (Hubei 屁和 = 4 sets + a 2-5-8 pair; 大和 shapes = 4 sets + any pair or
seven pairs; 推倒胡 = those and 十三幺) and 1-4 jokers, on winning hands with tiles turned into jokers and on
random 14-tile hands with jokers: checks/s of ``is_win_wild`` and two references on the same hands:
* brute force: every multiset of the 34 faces in the jokers' places, each tried with ``is_win`` (W-1);
* the plain check without wildcards (``is_win`` on the same tiles read as their own faces): the cost of a hu
  check where the table has no wildcard.
Then whole verdicts: ``Ruleset.evaluate`` per second of ``hubei-laizi`` and ``tuidaohu`` on wildcard hands,
against ``basic`` (no wildcard, no fans) on the same tiles. Rates are the best of rounds 2-5 (memos warm);
ratios the median of the per-round ratios (the machine is shared).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.analysis import ShapeRules, is_win, is_win_wild, reference_is_win_wild
from engine.errors import MjtableError
from engine.notation import Hand
from engine.rulesets.base import WinContext
from engine.rulesets.hubei.hands import PAIR_258
from engine.rulesets.registry import get_ruleset
from engine.rulesets.tuidaohu.fans import SHAPES as TUIDAOHU_SHAPES
from engine.tiles import NUM_KINDS, tile_code

ROUNDS = 5
SHAPES = {
    "hubei 屁和 (2-5-8 pair)": PAIR_258,
    "hubei 大和 (any pair, seven pairs)": ShapeRules(
        standard=True, seven_pairs=True, thirteen_orphans=False, honors_knitted=False
    ),
    "tuidaohu (+ 十三幺)": TUIDAOHU_SHAPES,
}
SETS = [(t, t, t) for t in range(NUM_KINDS)] + [(t, t + 1, t + 2) for t in range(27) if t % 9 <= 6]
Hand14 = tuple[list[int], int, list[int]]
"""(natural counts, jokers, the 14 tiles as dealt): the jokers were the first tiles of the list."""


def counts_of(tiles: list[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


def winning_tiles(rng: random.Random) -> list[int]:
    while True:
        tiles = [tile for _ in range(4) for tile in rng.choice(SETS)] + [rng.randrange(NUM_KINDS)] * 2
        if max(counts_of(tiles)) <= 4:
            return tiles


def random_tiles(rng: random.Random) -> list[int]:
    return rng.sample([tile for tile in range(NUM_KINDS) for _ in range(4)], 14)


def with_jokers(tiles: list[int], jokers: int, rng: random.Random) -> Hand14:
    tiles = list(tiles)
    rng.shuffle(tiles)
    return counts_of(tiles[jokers:]), jokers, tiles


def brute_force(counts: list[int], jokers: int, rules: ShapeRules) -> bool:
    """Every face tried for the jokers, each trial judged by the fast ``is_win``."""
    return reference_is_win_wild(counts, jokers, rules, check=is_win)


def best_rate(run: Callable[[], object], count: int) -> list[float]:
    """Checks per second of each round."""
    rates = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - start))
    return rates


def report(label: str, ours: Callable[[], object], references: dict[str, Callable[[], object]], count: int) -> None:
    mine = best_rate(ours, count)
    parts = [f"{label:<58} {max(mine[1:]):>10,.0f}/s"]
    for name, run in references.items():
        theirs = best_rate(run, count)
        ratio = statistics.median(a / b for a, b in zip(mine[1:], theirs[1:], strict=True))
        parts.append(f"{name} {max(theirs[1:]):>10,.0f}/s ratio {ratio:8.2f}x")
    print("   ".join(parts))


def shape_checks(rng: random.Random, n: int) -> None:
    for name, rules in SHAPES.items():
        for jokers in (1, 2, 3, 4):
            for kind, make in (("winning", winning_tiles), ("random", random_tiles)):
                size = max(4, n // 4**jokers) if jokers > 2 else n // (4 * jokers)
                hands = [with_jokers(make(rng), jokers, rng) for _ in range(size)]
                brute = [(c, j) for c, j, _ in hands[: max(4, size // 8)]]
                assert all(is_win_wild(c, j, rules) == brute_force(c, j, rules) for c, j in brute)
                plain = [counts_of(tiles) for _, _, tiles in hands]
                report(
                    f"{name}, {jokers} joker(s), {kind} hands",
                    lambda hands=hands, rules=rules: [is_win_wild(c, j, rules) for c, j, _ in hands],
                    {
                        "brute force": lambda hands=hands, rules=rules: [brute_force(c, j, rules) for c, j, _ in hands],
                        "no wildcard": lambda plain=plain, rules=rules: [is_win(c, rules) for c in plain],
                    },
                    len(hands),
                )


def verdicts(rng: random.Random, n: int) -> None:
    basic = get_ruleset("basic")
    for rules, indicator, wild in (("hubei-laizi", 3, 4), ("tuidaohu", 3, 4)):  # 4m flipped: 5m is wild
        ruleset = get_ruleset(rules)
        for jokers in (0, 1, 2):
            hands = []
            for _ in range(max(20, n // 20)):
                tiles = winning_tiles(rng)
                tiles[:jokers] = [wild] * jokers
                if tiles.count(wild) == jokers:
                    rng.shuffle(tiles)
                    hands.append(Hand((), tuple(sorted(tiles[:-1])), tiles[-1]))
            ctx = WinContext(winner=1, dealer=0, extra={"indicator": tile_code(indicator), "declared": False})

            def ours(hands=hands, ruleset=ruleset, ctx=ctx) -> None:
                for hand in hands:
                    ruleset.evaluate(hand, ctx)

            def plain(hands=hands, ctx=ctx) -> None:
                for hand in hands:
                    with contextlib.suppress(MjtableError):  # basic checks no wildcard: a fifth copy is refused
                        basic.evaluate(hand, ctx)

            report(f"evaluate {rules}, {jokers} 赖子/鬼牌 in hand", ours, {"basic": plain}, len(hands))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    shape_checks(rng, options.hands)
    verdicts(rng, options.hands)


if __name__ == "__main__":
    main()
