"""Every fast path agrees with its slow reference, on random hands and on generated winning hands."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.analysis import (
    DEFAULT_SHAPES,
    MCR_SHAPES,
    ShapeRules,
    decompositions,
    is_win,
    reference_decompositions,
    reference_is_win,
    reference_shanten,
    reference_waits,
    shanten,
    waits,
)
from engine.analysis.standard import standard_waits
from engine.errors import TileCountError
from tests.engine.analysis.hands import near_winning_hands, random_hands, winning_hands

RULE_SETS = [
    DEFAULT_SHAPES,
    MCR_SHAPES,
    ShapeRules(seven_pairs_quad_as_two_pairs=False, honors_knitted=False),
    ShapeRules(pair_ranks=frozenset({2, 5, 8}), thirteen_orphans=False),
    ShapeRules(standard=False, knitted_straight=True),
]
rule_sets = st.sampled_from(RULE_SETS)
hands_14 = st.one_of(winning_hands(), random_hands((14, 11, 8)))


@given(hands_14, rule_sets)
def test_is_win_matches_reference(counts: list[int], rules: ShapeRules) -> None:
    assert is_win(counts, rules) == reference_is_win(counts, rules)


@given(hands_14, rule_sets)
def test_decompositions_match_reference(counts: list[int], rules: ShapeRules) -> None:
    fast = decompositions(counts, rules)
    assert len(fast) == len(set(fast)), "decompositions must be distinct"
    assert set(fast) == set(reference_decompositions(counts, rules))
    assert bool(fast) == is_win(counts, rules)


@settings(max_examples=60)
@given(st.one_of(near_winning_hands(), random_hands((13, 10))), rule_sets)
def test_waits_match_reference(counts: list[int], rules: ShapeRules) -> None:
    assert waits(counts, rules) == reference_waits(counts, rules)


@settings(max_examples=25, deadline=None)
@given(st.one_of(random_hands((13, 14)), near_winning_hands(removed=2), near_winning_hands(removed=3)), rule_sets)
def test_shanten_matches_reference(counts: list[int], rules: ShapeRules) -> None:
    assert outcome(shanten, counts, rules) == outcome(reference_shanten, counts, rules)


@settings(max_examples=100, deadline=None)
@given(st.one_of(random_hands((1, 2, 4, 5, 7, 8, 10, 11)), winning_hands(), near_winning_hands()), rule_sets)
def test_shanten_matches_reference_small_hands(counts: list[int], rules: ShapeRules) -> None:
    assert outcome(shanten, counts, rules) == outcome(reference_shanten, counts, rules)


def outcome(function: Callable[[list[int], ShapeRules], int], counts: list[int], rules: ShapeRules) -> object:
    """The result, or the type of the error raised (a hand no allowed shape fits)."""
    try:
        return function(counts, rules)
    except TileCountError as error:
        return type(error)


@given(st.one_of(winning_hands(), near_winning_hands()), rule_sets)
def test_shanten_agrees_with_is_win_and_waits(counts: list[int], rules: ShapeRules) -> None:
    if outcome(shanten, counts, rules) is TileCountError:
        return
    if sum(counts) % 3 == 2:
        assert (shanten(counts, rules) == -1) == is_win(counts, rules)
    else:
        assert (shanten(counts, rules) == 0) == bool(waits(counts, rules))


STANDARD_ONLY = [
    ShapeRules(seven_pairs=False, thirteen_orphans=False, honors_knitted=False, pair_ranks=pair_ranks)
    for pair_ranks in (None, frozenset({2, 5, 8}))
]


@settings(max_examples=60)
@given(st.one_of(near_winning_hands(), random_hands((13, 10, 7))), st.sampled_from(STANDARD_ONLY))
def test_standard_waits_count_fifth_copies(counts: list[int], rules: ShapeRules) -> None:
    """``standard_waits`` (used by the MCR scorer for 独听) applies no copy limit: a fifth copy is a wait."""
    expected = []
    for tile in range(34):
        with_tile = list(counts)
        with_tile[tile] += 1
        if reference_is_win(with_tile, rules):
            expected.append(tile)
    assert standard_waits(counts, rules) == expected
