"""Every fast path agrees with its slow reference, on random hands and on generated winning hands."""

from __future__ import annotations

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
    reference_waits,
    waits,
)
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
