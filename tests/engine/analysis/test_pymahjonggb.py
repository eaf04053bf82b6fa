"""Shanten and waits under MCR shapes against PyMahjongGB (a test-time oracle, engine.md §1.2).

PyMahjongGB counts a wait on a fifth copy of a tile the hand holds four of; this engine does not (a target
never holds more than four copies). Every disagreement must be exactly that: one step, and gone once the copy
limit is lifted.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import MahjongGB  # the test-time oracle of the dev extra; a missing oracle must fail, not skip
import pytest

from engine.analysis import MCR_SHAPES, shanten, waits
from engine.analysis.shanten import standard_cost
from tests.engine.analysis.hands import SETS, WALL, counts_of

ORACLE_NAMES = (
    [f"W{rank}" for rank in range(1, 10)]
    + [f"B{rank}" for rank in range(1, 10)]
    + [f"T{rank}" for rank in range(1, 10)]
    + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"]
)
"""Oracle codes of tiles 0-33: 万 W, 饼 B, 条 T, winds F1-4, then 白 J3, 发 J2, 中 J1."""


def oracle_shanten(counts: list[int], pungs: tuple[int, ...] = ()) -> int:
    """``MahjongShanten`` of the concealed tiles beside exposed pungs of ``pungs``."""
    pack = tuple(("PENG", ORACLE_NAMES[tile], 1) for tile in pungs)
    return MahjongGB.MahjongShanten(pack, tuple(ORACLE_NAMES[tile] for tile, n in enumerate(counts) for _ in range(n)))


ORACLE_FORMS = (
    "RegularShanten",
    "SevenPairsShanten",
    "ThirteenOrphansShanten",
    "HonorsAndKnittedTilesShanten",
    "KnittedStraightShanten",
)


def oracle_waits(counts: list[int]) -> list[int]:
    """Winning tiles by the oracle: the useful tiles of every form it finds ready, less tiles held four times."""
    hand = tuple(ORACLE_NAMES[tile] for tile, n in enumerate(counts) for _ in range(n))
    found: set[str] = set()
    for form in ORACLE_FORMS:
        steps, useful = getattr(MahjongGB, form)(hand)
        if steps == 0:
            found.update(useful)
    return sorted(tile for tile in map(ORACLE_NAMES.index, found) if counts[tile] <= 3)


def random_13(rng: random.Random) -> list[int]:
    return counts_of(rng.sample(WALL, 13))


def near_ready_13(rng: random.Random) -> list[int]:
    """A standard winning hand with one tile (ready) or two tiles replaced by one random tile taken away."""
    while True:
        tiles = [tile for _ in range(4) for tile in rng.choice(SETS)] + [rng.randrange(34)] * 2
        rng.shuffle(tiles)
        tiles = tiles[1:] if rng.random() < 0.5 else [*tiles[2:], rng.randrange(34)]
        counts = counts_of(tiles)
        if max(counts) <= 4:
            return counts


def uncapped_shanten(counts: list[int], sets: int = 4) -> int:
    return standard_cost(counts, sets, MCR_SHAPES, (8,) * 34) - 1


@pytest.mark.parametrize(("make", "hands"), [(random_13, 2500), (near_ready_13, 1500)])
def test_shanten_matches_pymahjonggb(make: Callable[[random.Random], list[int]], hands: int) -> None:
    rng = random.Random(20261129)
    fifth_copy = 0
    for _ in range(hands):
        counts = make(rng)
        ours, theirs = shanten(counts, MCR_SHAPES), oracle_shanten(counts)
        if theirs == 0:
            assert waits(counts, MCR_SHAPES) == oracle_waits(counts), counts
        if ours != theirs:
            assert (ours, uncapped_shanten(counts)) == (theirs + 1, theirs), counts
            fifth_copy += 1
    assert fifth_copy <= hands // 50


@pytest.mark.parametrize("melds", [1, 2, 3, 4])
def test_shanten_beside_exposed_melds_matches_pymahjonggb(melds: int) -> None:
    rng = random.Random(melds)
    for _ in range(400):
        pungs = tuple(rng.sample(range(34), melds))
        counts = counts_of(rng.sample([tile for tile in WALL if tile not in pungs], 13 - 3 * melds))
        ours, theirs = shanten(counts, MCR_SHAPES), oracle_shanten(counts, pungs)
        if ours != theirs:
            assert (ours, uncapped_shanten(counts, 4 - melds)) == (theirs + 1, theirs), (counts, pungs)
