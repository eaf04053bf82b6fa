"""Throughput of engine.analysis against PyMahjongGB 1.4.0, measured in one process on the same hands.

    python bench/bench_analysis.py [--hands N] [--seed S]

hu checks/s: ``is_win`` (MCR shapes) vs ``MahjongFanCalculator`` catching ``ERROR_NOT_WIN`` (PyMahjongGB has no
separate hu check), on random winning hands (0-4 exposed melds, every MCR form) and on random 14-tile hands.
waits/s: ``waits`` and ``shanten`` vs ``MahjongShanten`` on random 13-tile hands and on ready hands.
Wildcards (PyMahjongGB has none): ``is_win_wild`` vs trying every face for the jokers with ``is_win``, on winning
hands with 1-3 tiles turned into jokers.
Both sides run in six rounds of back-to-back passes; each rate is the best of rounds 2-6 (tables and memos
warm), the ratio is the median (and range) of the per-round ratios of rounds 2-6 (robust to the load of a shared
machine), and the first pass of ours is also printed, since the per-group memos (facts of ``waits``, profiles of
``shanten``, wildcard summaries) fill as new group patterns appear. The start-up line times building the static
per-group tables of complete patterns, which the first call of any analysis function pays.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations_with_replacement
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import MahjongGB

from engine.analysis import MCR_SHAPES, is_win, is_win_wild, shanten, waits
from engine.analysis.shapes import HONORS, KNITTED_PATTERNS, THIRTEEN_ORPHANS
from engine.analysis.suit_tables import group_table

NAMES = (
    [f"W{rank}" for rank in range(1, 10)]
    + [f"B{rank}" for rank in range(1, 10)]
    + [f"T{rank}" for rank in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)
WALL = [tile for tile in range(34) for _ in range(4)]
CHOWS = [tile for tile in range(27) if tile % 9 <= 6]

Case = tuple[list[int], tuple]  # (our concealed counts, PyMahjongGB arguments)


def counts_of(tiles: Sequence[int]) -> list[int]:
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    return counts


def winning_case(rng: random.Random) -> Case:
    """A random winning hand: 86 % standard with 0-4 exposed melds, then 7 pairs, 13 orphans, knitted forms."""
    while True:
        form = rng.random()
        melds: list[tuple[str, int]] = []
        if form < 0.86:
            blocks = [
                ("PENG", rng.randrange(34)) if rng.random() < 0.4 else ("CHI", rng.choice(CHOWS)) for _ in range(4)
            ]
            melds = blocks[: rng.randint(0, 4)]
            concealed = [
                t for kind, t in blocks[len(melds) :] for t in ((t,) * 3 if kind == "PENG" else (t, t + 1, t + 2))
            ]
            concealed += [rng.randrange(34)] * 2
        elif form < 0.92:
            concealed = [t for t in rng.sample(range(34), 7) for _ in (0, 1)]
        elif form < 0.94:
            concealed = [*THIRTEEN_ORPHANS, rng.choice(THIRTEEN_ORPHANS)]
        elif form < 0.97:
            concealed = rng.sample(list(rng.choice(KNITTED_PATTERNS) + HONORS), 14)
        else:
            concealed = [*rng.choice(KNITTED_PATTERNS), *(t + i for t in [rng.choice(CHOWS)] for i in range(3))]
            concealed += [rng.randrange(34)] * 2
        meld_tiles = [t for kind, t in melds for t in ((t,) * 3 if kind == "PENG" else (t, t + 1, t + 2))]
        if max(counts_of(concealed + meld_tiles)) <= 4:
            break
    win = concealed.pop(rng.randrange(len(concealed)))
    pack = tuple((kind, NAMES[t if kind == "PENG" else t + 1], 1) for kind, t in melds)
    return counts_of([*concealed, win]), (pack, tuple(NAMES[t] for t in concealed), NAMES[win])


def random_14_case(rng: random.Random) -> Case:
    tiles = rng.sample(WALL, 14)
    return counts_of(tiles), ((), tuple(NAMES[t] for t in tiles[:13]), NAMES[tiles[13]])


def random_13(rng: random.Random) -> list[int]:
    return counts_of(rng.sample(WALL, 13))


def ready_13(rng: random.Random) -> list[int]:
    """A concealed winning hand (no exposed meld) less one tile, held at most three times."""
    while True:
        counts, (pack, _, _) = winning_case(rng)
        if not pack:
            tiles = [t for t, n in enumerate(counts) for _ in range(n)]
            tiles.pop(rng.randrange(14))
            return counts_of(tiles)


def oracle_shanten_all(hands: list[tuple[str, ...]]) -> list[int]:
    return [MahjongGB.MahjongShanten((), hand) for hand in hands]


def oracle_hu(args: tuple) -> bool:
    pack, hand, win = args
    try:
        MahjongGB.MahjongFanCalculator(pack, hand, win, 0, False, False, False, False, 0, 0)
    except TypeError as error:
        if "ERROR_NOT_WIN" not in str(error):
            raise
        return False
    return True


def compare(
    label: str, ours: Callable[[], object], theirs: Callable[[], object], count: int, baseline: str = "PyMahjongGB"
) -> None:
    """Time both sides in ROUNDS rounds of back-to-back passes (the machine is shared, so load hits both alike;
    the side going first alternates) and print the best rate of each after the first round, the first (cold)
    pass of ours, and the median and range of the per-round ratios after the first round."""
    ours_rates, theirs_rates = [], []
    for round_ in range(ROUNDS):
        sides = [(ours, ours_rates), (theirs, theirs_rates)]
        for run, rates in sides if round_ % 2 == 0 else sides[::-1]:
            start = time.perf_counter()
            run()
            rates.append(count / (time.perf_counter() - start))
    ratios = sorted(a / b for a, b in zip(ours_rates[1:], theirs_rates[1:], strict=True))
    print(
        f"{label:<44} ours {max(ours_rates[1:]):>11,.0f}/s (first pass {ours_rates[0]:>11,.0f}/s)   "
        f"{baseline} {max(theirs_rates[1:]):>11,.0f}/s   ratio {statistics.median(ratios):5.2f}x "
        f"({ratios[0]:.2f}-{ratios[-1]:.2f})"
    )


ROUNDS = 6


def brute_force_wild(counts: list[int], wilds: int) -> bool:
    """The naive wildcard check: every multiset of faces for the jokers, each tried with ``is_win``."""
    for faces in combinations_with_replacement(range(34), wilds):
        for tile in faces:
            counts[tile] += 1
        won = is_win(counts, MCR_SHAPES)
        for tile in faces:
            counts[tile] -= 1
        if won:
            return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    n = options.hands
    rules = MCR_SHAPES
    start = time.perf_counter()
    group_table(True), group_table(False)
    print(f"{'start-up: tables of complete patterns':<44} {1000 * (time.perf_counter() - start):.0f} ms")

    for label, make in (
        ("hu check, random winning hands", winning_case),
        ("hu check, random 14 tiles", random_14_case),
    ):
        cases = [make(rng) for _ in range(n)]
        ours_in = [counts for counts, _ in cases]
        theirs_in = [args for _, args in cases]
        agree = sum(is_win(c, rules) == oracle_hu(a) for c, a in cases)
        compare(
            label,
            lambda ours_in=ours_in: [is_win(c, rules) for c in ours_in],
            lambda theirs_in=theirs_in: [oracle_hu(a) for a in theirs_in],
            n,
        )
        print(f"{'':<44} verdicts agree on {agree}/{n}")

    for label, make in (("random 13 tiles", random_13), ("ready hands", ready_13)):
        hands = [make(rng) for _ in range(n)]
        oracle_in = [tuple(NAMES[t] for t, k in enumerate(c) for _ in range(k)) for c in hands]
        theirs = partial(oracle_shanten_all, oracle_in)
        compare(f"waits, {label}", lambda hands=hands: [waits(c, rules) for c in hands], theirs, n)
        compare(f"shanten, {label}", lambda hands=hands: [shanten(c, rules) for c in hands], theirs, n)
        compare(
            f"waits + shanten, {label}",
            lambda hands=hands: [(waits(c, rules), shanten(c, rules)) for c in hands],
            theirs,
            n,
        )

    for wilds in (1, 2, 3):
        hands = []
        for _ in range(min(n // 10, 400)):
            counts = winning_case(rng)[0]
            tiles = [t for t, k in enumerate(counts) for _ in range(k)]
            rng.shuffle(tiles)
            hands.append(counts_of(tiles[wilds:]))
        assert all(is_win_wild(c, wilds, rules) == brute_force_wild(c, wilds) for c in hands)
        compare(
            f"wildcard hu check, {wilds} joker(s)",
            lambda hands=hands, wilds=wilds: [is_win_wild(c, wilds, rules) for c in hands],
            lambda hands=hands, wilds=wilds: [brute_force_wild(c, wilds) for c in hands],
            len(hands),
            "brute force",
        )


if __name__ == "__main__":
    main()
