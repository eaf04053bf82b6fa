"""独听 as the scorer decides it (``unique_wait``: at most two groups looked up) against its definition: the full
wait list of ``engine.analysis`` plus the seven-pairs wait, with and without waits on tiles held four times."""

from __future__ import annotations

import random

import pytest

from engine.analysis import MCR_SHAPES
from engine.analysis.standard import standard_waits
from engine.rulesets.mcr.divisions import readings
from engine.rulesets.mcr.scorer import prime_tables
from engine.rulesets.mcr.waiting import seven_pairs_wait, unique_wait, wait_tables
from tests.engine.rulesets.mcr.generator import random_winning_hand


def reference(rest: list[int], win: int, held: list[int], exhausted: bool) -> bool:
    found = set(standard_waits(rest, MCR_SHAPES))
    if sum(rest) == 13 and (tile := seven_pairs_wait(rest)) is not None:
        found.add(tile)
    if not exhausted:
        found = {tile for tile in found if tile == win or held[tile] < 4}
    return len(found) == 1


@pytest.mark.parametrize("seed", range(4))
def test_unique_wait_matches_the_wait_list(seed: int) -> None:
    rng = random.Random(seed)
    checked = unique = 0
    while checked < 1500:
        hand = random_winning_hand(rng)
        counts = [0] * 34
        for tile in (*hand.standing, hand.win_tile):
            counts[tile] += 1
        if not readings(counts):
            continue  # unique_wait is asked only of tiles that the winning tile completes to sets + pair
        held = list(counts)
        for meld in hand.melds:
            for tile in meld.tiles:
                held[tile] += 1
        rest = list(counts)
        rest[hand.win_tile] -= 1
        skip = sum(1 << tile for tile, n in enumerate(held) if n == 4)
        for exhausted in (True, False):
            expected = reference(rest, hand.win_tile, held, exhausted)
            assert unique_wait(rest, hand.win_tile, 0 if exhausted else skip) == expected, (hand, exhausted)
        checked += 1
        unique += expected
    assert 0 < unique < checked


def test_the_wait_tables_are_loaded_with_the_start_up_tables() -> None:
    """Loading the complete keys takes ~20 ms: start-up (``prime_tables``) pays it, not the first scored hand."""
    prime_tables.cache_clear()
    wait_tables.cache_clear()
    prime_tables()
    assert wait_tables.cache_info().currsize == 1
