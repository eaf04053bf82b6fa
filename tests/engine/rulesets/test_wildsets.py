"""``engine.rulesets.wildsets`` against the analysis package's wildcard check, an independent implementation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.analysis import is_win_wild
from engine.rulesets.readings import STANDARD_ONLY
from engine.rulesets.wildsets import sets_only, standard_with_wilds
from engine.tiles import NUM_KINDS, to_counts


@st.composite
def hands_with_wilds(draw):
    """14 - 3k tiles from a few kinds (so that wins are common), some of them wild."""
    size = draw(st.sampled_from([2, 5, 8, 11, 14]))
    wilds = draw(st.integers(0, min(3, size)))
    kinds = draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=1, max_size=5, unique=True))
    tiles = draw(st.lists(st.sampled_from(sorted(kinds)), min_size=size - wilds, max_size=size - wilds))
    counts = to_counts(tiles)
    return counts[:NUM_KINDS], wilds


@settings(deadline=None)  # the first call builds lookup tables
@given(hands_with_wilds())
def test_standard_with_wilds_agrees_with_the_analysis(hand):
    counts, wilds = hand
    if max(counts) > 4:
        return
    assert standard_with_wilds(counts, wilds) == is_win_wild(counts, wilds, STANDARD_ONLY)


def test_sets_only_needs_every_tile_in_a_set():
    """爆头 (HZ-3): 123m 456p + two wilds as a pung: sets; 123m 45p + one wild: sets; 12m alone: not."""
    assert sets_only(to_counts([0, 1, 2, 12, 13, 14])[:NUM_KINDS], 3)
    assert sets_only(to_counts([0, 1, 2, 12, 13])[:NUM_KINDS], 1)
    assert not sets_only(to_counts([0, 1])[:NUM_KINDS], 0)
    assert not sets_only(to_counts([8, 9])[:NUM_KINDS], 1)  # 9m and 1p are no chow


def test_pungs_only_refuses_chows():
    """大7对 (NC-1): 111m 222m 333m 44p is all pungs; 123m 456m 44p wins only with chows; one wild turns
    11m 44p into a pung and a pair."""
    assert standard_with_wilds(to_counts([0, 0, 0, 1, 1, 1, 2, 2, 2, 12, 12])[:NUM_KINDS], 0, pungs_only=True)
    chows = to_counts([0, 1, 2, 3, 4, 5, 12, 12])[:NUM_KINDS]
    assert standard_with_wilds(chows, 0) and not standard_with_wilds(chows, 0, pungs_only=True)
    assert standard_with_wilds(to_counts([0, 0, 12, 12])[:NUM_KINDS], 1, pungs_only=True)
