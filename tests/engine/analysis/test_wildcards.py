"""Wildcards: the table path against brute-force substitution, and hand-worked cases (wild.md §1)."""

from __future__ import annotations

from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.analysis import (
    DEFAULT_SHAPES,
    MCR_SHAPES,
    ShapeRules,
    is_win,
    is_win_wild,
    reference_is_win,
    reference_is_win_wild,
    waits_wild,
    wild_assignments,
)
from engine.tiles import parse_tiles, to_counts
from tests.engine.analysis.hands import near_winning_hands, random_hands, winning_hands

PAIR_258 = ShapeRules(pair_ranks=frozenset({2, 5, 8}))
rule_sets = st.sampled_from(
    [DEFAULT_SHAPES, MCR_SHAPES, PAIR_258, ShapeRules(seven_pairs_quad_as_two_pairs=False, thirteen_orphans=False)]
)


@st.composite
def with_jokers(
    draw: st.DrawFn, hands: st.SearchStrategy[list[int]], most: int, least: int = 0
) -> tuple[list[int], int]:
    """A hand with ``least`` to ``most`` of its tiles turned into jokers (taken out of the counts)."""
    counts = list(draw(hands))
    wilds = draw(st.integers(min(least, sum(counts)), min(most, sum(counts))))
    for pick in draw(st.lists(st.integers(0, 33), min_size=wilds, max_size=wilds)):
        held = [tile for tile, n in enumerate(counts) if n]
        counts[held[pick % len(held)]] -= 1
    return counts, wilds


complete_sizes = st.one_of(winning_hands(), random_hands((14, 11, 8)))


@given(with_jokers(complete_sizes, 2), rule_sets)
def test_is_win_wild_matches_brute_force(hand: tuple[list[int], int], rules: ShapeRules) -> None:
    counts, wilds = hand
    assert is_win_wild(counts, wilds, rules) == reference_is_win_wild(counts, wilds, rules)


@settings(max_examples=12, deadline=None)
@given(with_jokers(winning_hands(), 3, least=3), rule_sets)
def test_is_win_wild_matches_brute_force_three_jokers(hand: tuple[list[int], int], rules: ShapeRules) -> None:
    counts, wilds = hand
    assert is_win_wild(counts, wilds, rules) == reference_is_win_wild(counts, wilds, rules)


@settings(max_examples=50, deadline=None)
@given(with_jokers(winning_hands(), 2), rule_sets)
def test_assignments_are_every_winning_substitution(hand: tuple[list[int], int], rules: ShapeRules) -> None:
    counts, wilds = hand
    expected = []
    for faces in combinations_with_replacement(range(34), wilds):
        if reference_is_win(to_counts([*(t for t, n in enumerate(counts) for _ in range(n)), *faces]), rules):
            expected.append(faces)
    assert wild_assignments(counts, wilds, rules) == expected
    assert bool(expected) == is_win_wild(counts, wilds, rules)


@settings(max_examples=40, deadline=None)
@given(with_jokers(st.one_of(near_winning_hands(), random_hands((13, 10))), 2), rule_sets)
def test_waits_wild_are_the_tiles_that_win(hand: tuple[list[int], int], rules: ShapeRules) -> None:
    counts, wilds = hand
    expected = []
    for tile in range(34):
        with_tile = list(counts)
        with_tile[tile] += 1
        if counts[tile] <= 3 and reference_is_win_wild(with_tile, wilds, rules):
            expected.append(tile)
    assert waits_wild(counts, wilds, rules) == expected


def hand(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def test_joker_completes_the_258_pair_only_on_an_allowed_rank() -> None:
    assert is_win_wild(hand("123456789m123p5s"), 1, PAIR_258)
    assert not is_win_wild(hand("123456789m123p6s"), 1, PAIR_258)
    assert is_win_wild(hand("123456789m123p6s"), 1)
    assert wild_assignments(hand("123456789m123p5s"), 1, PAIR_258) == [(22,)]


def test_joker_pairs_with_any_single_in_seven_pairs() -> None:
    assert is_win_wild(hand("1122334455667z"), 1)
    assert not is_win_wild(hand("1122334455667z"), 1, ShapeRules(seven_pairs=False))
    assert wild_assignments(hand("1122334455667z"), 1) == [(33,)]
    assert is_win_wild(hand("1m11223344556z"), 2), "each joker pairs with one of the two singles"
    assert wild_assignments(hand("1m11223344556z"), 2) == [(0, 32)]


def test_joker_may_be_a_fifth_copy() -> None:
    assert is_win_wild(hand("1111m234p567p789s"), 1), "the joker pairs the fourth 1m (wild.md W-1)"
    assert (0,) in wild_assignments(hand("1111m234p567p789s"), 1)


def test_jokers_in_special_shapes() -> None:
    assert is_win_wild(hand("19m19p19s1234566z"), 1)
    assert is_win_wild(hand("147m258p36s12345z"), 1), "honors and knitted with a joker for 9s"
    assert is_win_wild(hand("147m258p36s567m11z"), 1, MCR_SHAPES)
    assert not is_win_wild(hand("147m258p36s567m11z"), 1)


def test_no_jokers_is_the_natural_check() -> None:
    counts = hand("123456789m123p55s")
    assert is_win_wild(counts, 0) == is_win(counts) is True
    assert wild_assignments(counts, 0) == [()]
