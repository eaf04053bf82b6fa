"""The wildcard readings of the wild.md rulesets against brute-force substitution (W-1: a wildcard stands for any
of the 34 faces, a fifth copy included): every multiset of faces is put in the jokers' places and the plain
check without wildcards decides (``is_win``, itself tested against ``reference_is_win`` in tests/engine/analysis).
Up to two jokers in the default run, three and four in the slow run.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations_with_replacement

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.analysis import is_win, is_win_wild, waits_wild
from engine.rulesets.hubei.hands import PAIR_258, four_alike
from engine.rulesets.tuidaohu.fans import SHAPES, best_kinds, reading_kinds, value
from engine.rulesets.wildcommon import SEVEN_PAIRS, STANDARD
from engine.rulesets.wildsets import standard_with_wilds
from engine.tiles import NUM_KINDS
from tests.engine.analysis.hands import counts_of, winning_tiles

RULES = (STANDARD, PAIR_258, SEVEN_PAIRS, SHAPES)


def substitutions(natural: list[int], wilds: int) -> Iterator[list[int]]:
    """Every completion of the natural tiles: one multiset of faces for the jokers at a time."""
    for faces in combinations_with_replacement(range(NUM_KINDS), wilds):
        counts = list(natural)
        for face in faces:
            counts[face] += 1
        yield counts


@st.composite
def with_jokers(draw: st.DrawFn, most: int, least: int = 0, ready: bool = False) -> tuple[list[int], int]:
    """A complete hand, one tile maybe swapped for a random one (a non-win), ``least``-``most`` tiles turned into
    jokers; ``ready`` takes one more tile away (a waiting hand)."""
    tiles = draw(winning_tiles())
    assume(len(tiles) >= least + 2 + int(ready))
    if draw(st.booleans()):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, NUM_KINDS - 1))
    draw(st.randoms()).shuffle(tiles)
    wilds = draw(st.integers(least, min(most, len(tiles) - 2)))
    kept = tiles[wilds + int(ready) :]
    return counts_of(kept), wilds


def _all_pungs(counts: list[int]) -> bool:
    """Pungs and one pair: some face gives the pair and every face's remaining count is a multiple of three."""
    return any(
        counts[pair] >= 2 and all((n - 2 * (face == pair)) % 3 == 0 for face, n in enumerate(counts))
        for pair in range(NUM_KINDS)
    )


def check_shapes(natural: list[int], wilds: int) -> None:
    completions = list(substitutions(natural, wilds))
    for rules in RULES:
        assert is_win_wild(natural, wilds, rules) == any(is_win(c, rules) for c in completions), rules
    assert standard_with_wilds(natural, wilds, pungs_only=True) == any(_all_pungs(c) for c in completions)
    luxury = any(is_win(c, SEVEN_PAIRS) and max(c) >= 4 for c in completions)
    assert (is_win_wild(natural, wilds, SEVEN_PAIRS) and four_alike(natural, wilds)) == luxury


def check_best_reading(natural: list[int], wilds: int) -> None:
    """推倒胡 (§5, W-2): the best 番型 sum found without enumerating all faces equals the brute-force best."""
    found = best_kinds(natural, wilds, (), set())
    values = [
        value(kinds) for c in substitutions(natural, wilds) if is_win(c, SHAPES) for kinds in reading_kinds(c, ())
    ]
    assert (found is None) == (not values)
    if found is not None:
        assert value(set(found)) == max(values)


def check_waits(natural: list[int], wilds: int) -> None:
    """Hubei's 2-5-8 waits with jokers: a natural tile is a wait when some completion with it wins."""
    expected = []
    for tile in range(NUM_KINDS):
        with_tile = list(natural)
        with_tile[tile] += 1
        if natural[tile] <= 3 and any(is_win(c, PAIR_258) for c in substitutions(with_tile, wilds)):
            expected.append(tile)
    assert waits_wild(natural, wilds, PAIR_258) == expected


@settings(max_examples=25, deadline=None)
@given(with_jokers(2))
def test_shapes_up_to_two_jokers(hand: tuple[list[int], int]) -> None:
    check_shapes(*hand)


@settings(max_examples=15, deadline=None)
@given(with_jokers(2))
def test_best_reading_up_to_two_jokers(hand: tuple[list[int], int]) -> None:
    check_best_reading(*hand)


@settings(max_examples=10, deadline=None)
@given(with_jokers(1, ready=True))
def test_waits_up_to_one_joker(hand: tuple[list[int], int]) -> None:
    check_waits(*hand)


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(with_jokers(4, least=3))
def test_shapes_three_and_four_jokers(hand: tuple[list[int], int]) -> None:
    check_shapes(*hand)


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(with_jokers(4, least=3))
def test_best_reading_three_and_four_jokers(hand: tuple[list[int], int]) -> None:
    check_best_reading(*hand)


@pytest.mark.slow
@settings(max_examples=3, deadline=None)
@given(with_jokers(4, least=2, ready=True))
def test_waits_two_to_four_jokers(hand: tuple[list[int], int]) -> None:
    check_waits(*hand)
