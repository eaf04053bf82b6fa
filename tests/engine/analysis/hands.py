"""Hypothesis strategies for analysis tests: random concealed hands and generated winning hands.

Random 14 tiles almost never win, so winning hands are built from their parts (sets + pair, or a special
shape) and then have tiles taken away for ready and near-ready hands. Each hand is drawn in a few large draws
(lists of indices), which keeps generation fast.
"""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from engine.analysis.shapes import HONORS, KNITTED_PATTERNS, THIRTEEN_ORPHANS
from engine.tiles import NUM_KINDS

WALL = [tile for tile in range(NUM_KINDS) for _ in range(4)]
SETS = [(tile,) * 3 for tile in range(NUM_KINDS)] + [(tile, tile + 1, tile + 2) for tile in range(27) if tile % 9 <= 6]
KINDS = ["standard"] * 4 + ["seven", "orphans", "knitted", "straight"]


def counts_of(tiles: list[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for tile in tiles:
        counts[tile] += 1
    return counts


@st.composite
def random_hands(draw: st.DrawFn, sizes: tuple[int, ...] = (13, 14)) -> list[int]:
    """A random draw of concealed tiles from the 136-tile wall."""
    size = draw(st.sampled_from(sizes))
    picks = draw(st.lists(st.integers(0, len(WALL) - 1), min_size=size, max_size=size, unique=True))
    return counts_of([WALL[i] for i in picks])


@st.composite
def winning_tiles(draw: st.DrawFn) -> list[int]:
    """The tiles of a complete hand of 14-3k tiles; special shapes with k = 0 (knitted straight: k = 0 or 1)."""
    kind = draw(st.sampled_from(KINDS))
    if kind == "seven":
        tiles = [tile for tile in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7)) for _ in (0, 1)]
    elif kind == "orphans":
        tiles = [*THIRTEEN_ORPHANS, draw(st.sampled_from(THIRTEEN_ORPHANS))]
    elif kind == "knitted":
        tiles = list(draw(st.permutations(draw(st.sampled_from(KNITTED_PATTERNS)) + HONORS))[:14])
    else:
        head = list(draw(st.sampled_from(KNITTED_PATTERNS))) if kind == "straight" else []
        n_sets = draw(st.integers(0, 1)) if head else draw(st.integers(0, 4))
        picks = draw(st.lists(st.integers(0, len(SETS) - 1), min_size=n_sets + 1, max_size=n_sets + 1))
        tiles = head + [tile for i in picks[1:] for tile in SETS[i]] + [picks[0] % NUM_KINDS] * 2
    assume(max(counts_of(tiles)) <= 4)
    return tiles


def winning_hands() -> st.SearchStrategy[list[int]]:
    return winning_tiles().map(counts_of)


@st.composite
def near_winning_hands(draw: st.DrawFn, removed: int = 1) -> list[int]:
    """A winning hand with ``removed`` tiles taken away and ``removed - 1`` random tiles put back."""
    tiles = draw(winning_tiles())
    assume(len(tiles) > removed)
    drops = draw(st.lists(st.integers(0, 13), min_size=removed, max_size=removed))
    for index in drops:
        tiles.pop(index % len(tiles))
    tiles += draw(st.lists(st.integers(0, 33), min_size=removed - 1, max_size=removed - 1))
    counts = counts_of(tiles)
    assume(max(counts) <= 4)
    return counts
