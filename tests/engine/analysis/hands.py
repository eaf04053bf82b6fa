"""Hypothesis strategies for analysis tests: random concealed hands and generated winning hands.

Random 14 tiles almost never win, so winning hands are built from their parts (sets + pair, or a special
shape) and then have tiles taken away for ready and near-ready hands.
"""

from __future__ import annotations

from hypothesis import strategies as st

from engine.analysis.shapes import HONORS, KNITTED_PATTERNS, THIRTEEN_ORPHANS
from engine.tiles import NUM_KINDS

WALL = [tile for tile in range(NUM_KINDS) for _ in range(4)]


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


sets = st.one_of(
    st.integers(0, 33).map(lambda tile: [tile] * 3),
    st.tuples(st.integers(0, 2), st.integers(0, 6)).map(lambda sr: [9 * sr[0] + sr[1] + i for i in range(3)]),
)


@st.composite
def winning_hands(draw: st.DrawFn, special: bool = True) -> list[int]:
    """A complete hand of 14-3k tiles (at most four copies of a tile); special shapes only with k = 0 or 1."""
    kind = draw(st.sampled_from(["standard"] * 4 + (["seven", "orphans", "knitted", "straight"] if special else [])))
    if kind == "seven":
        tiles = [tile for tile in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7)) for _ in (0, 1)]
    elif kind == "orphans":
        tiles = [*THIRTEEN_ORPHANS, draw(st.sampled_from(THIRTEEN_ORPHANS))]
    elif kind == "knitted":
        candidates = draw(st.sampled_from(KNITTED_PATTERNS)) + HONORS
        tiles = list(draw(st.permutations(candidates))[:14])
    else:
        head = list(draw(st.sampled_from(KNITTED_PATTERNS))) if kind == "straight" else []
        n_sets = (4 if not head else 1) - draw(st.integers(0, 1 if head else 4))
        tiles = head + [tile for _ in range(n_sets) for tile in draw(sets)] + [draw(st.integers(0, 33))] * 2
    counts = counts_of(tiles)
    if max(counts) > 4:
        return draw(winning_hands(special=False))
    return counts


@st.composite
def near_winning_hands(draw: st.DrawFn, removed: int = 1) -> list[int]:
    """A winning hand with ``removed`` tiles taken away, and as many random tiles added back but one."""
    counts = draw(winning_hands())
    tiles = [tile for tile, n in enumerate(counts) for _ in range(n)]
    for _ in range(removed):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    for _ in range(removed - 1):
        tile = draw(st.integers(0, 33))
        if tiles.count(tile) < 4:
            tiles.append(tile)
    return counts_of(tiles) if len(tiles) % 3 == 1 else draw(near_winning_hands(removed))
