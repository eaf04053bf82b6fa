"""Slow, obviously-correct references for the fast paths, written for clarity (tests compare the two).

Hu checks recurse on the sorted tile list: the lowest tile is in a pung, in a chow it starts, or is the pair.
Waits try every tile. Shanten enumerates every complete target per group (all sets + pair patterns with at
most four copies) and takes the one needing the fewest new tiles. Wildcards try every substitution.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.analysis.shapes import (
    DEFAULT_SHAPES,
    HONORS,
    KNITTED_PATTERNS,
    THIRTEEN_ORPHANS,
    Decomposition,
    Set,
    ShapeRules,
)
from engine.errors import TileCountError
from engine.tiles import NUM_KINDS, from_counts

Split = tuple[tuple[Set, ...], int]


def _remove(tiles: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...] | None:
    rest = list(tiles)
    for tile in taken:
        if tile not in rest:
            return None
        rest.remove(tile)
    return tuple(rest)


def _splits(tiles: tuple[int, ...], need_pair: bool, rules: ShapeRules) -> set[Split]:
    """Every (sorted sets, pair) reading of sorted ``tiles`` as sets (+ one allowed pair when ``need_pair``)."""
    if not tiles:
        return set() if need_pair else {((), -1)}
    first = tiles[0]
    options: list[tuple[Set | None, tuple[int, ...]]] = [(("pung", first), (first, first, first))]
    if first < 27 and first % 9 <= 6:
        options.append((("chow", first), (first, first + 1, first + 2)))
    if need_pair and rules.pair_allowed(first):
        options.append((None, (first, first)))
    found: set[Split] = set()
    for block, taken in options:
        rest = _remove(tiles, taken)
        if rest is None:
            continue
        for sets, pair in _splits(rest, need_pair and block is not None, rules):
            if block is None:
                found.add((sets, first))
            else:
                found.add((tuple(sorted((*sets, block))), pair))
    return found


def reference_decompositions(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> list[Decomposition]:
    tiles = tuple(from_counts(counts))
    if len(tiles) % 3 != 2:
        return []
    found: list[Decomposition] = []
    if rules.standard:
        found.extend(Decomposition("standard", sets, pair) for sets, pair in _splits(tiles, True, rules))
    distinct = set(tiles)
    if len(tiles) == 14:
        if (
            rules.seven_pairs
            and tiles[0::2] == tiles[1::2]
            and (rules.seven_pairs_quad_as_two_pairs or len(distinct) == 7)
        ):
            found.append(Decomposition("seven_pairs", (), None, pairs=tiles[0::2]))
        if rules.thirteen_orphans and distinct == set(THIRTEEN_ORPHANS):
            doubled = next(tile for tile in distinct if tiles.count(tile) == 2)
            found.append(Decomposition("thirteen_orphans", (), doubled))
        if (
            rules.honors_knitted
            and len(distinct) == 14
            and any(distinct <= set(pattern + HONORS) for pattern in KNITTED_PATTERNS)
        ):
            found.append(Decomposition("honors_knitted", (), None, knitted=tiles))
    if rules.knitted_straight and len(tiles) in (14, 11):
        for pattern in KNITTED_PATTERNS:
            rest = _remove(tiles, pattern)
            if rest is not None:
                found.extend(
                    Decomposition("knitted_straight", sets, pair, knitted=pattern)
                    for sets, pair in _splits(rest, True, rules)
                )
    return found


def reference_is_win(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> bool:
    return bool(reference_decompositions(counts, rules))


def reference_waits(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> list[int]:
    size = sum(counts)
    if size % 3 != 1 or size > 13:
        raise TileCountError(f"waits need a hand of 13-3k concealed tiles, not {size}")
    found = []
    for tile in range(NUM_KINDS):
        if counts[tile] <= 3:
            with_tile = list(counts)
            with_tile[tile] += 1
            if reference_is_win(with_tile, rules):
                found.append(tile)
    return found
