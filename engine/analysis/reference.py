"""Slow, obviously-correct references for the fast paths, written for clarity (tests compare the two).

Hu checks recurse on the sorted tile list: the lowest tile is in a pung, in a chow it starts, or is the pair.
Waits try every tile. Shanten enumerates every complete target per group (all sets + pair patterns with at
most four copies) and takes the one needing the fewest new tiles. Wildcards try every substitution.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations_with_replacement

from engine.analysis.shapes import (
    DEFAULT_SHAPES,
    GROUPS,
    HONORS,
    KNITTED_PATTERNS,
    THIRTEEN_ORPHANS,
    Decomposition,
    Set,
    ShapeRules,
    melds_implied,
)
from engine.analysis.suit_tables import group_table
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


INF = 99


@cache
def _targets(chows: bool) -> tuple[tuple[int, int | None, tuple[tuple[int, int], ...]], ...]:
    """(sets, pair rank or None, (rank, copies) entries) of every complete group pattern, at most four copies."""
    found = {
        (len(sets), pair, tuple((r, n) for r, n in enumerate(key) if n))
        for key, splits in group_table(chows)[1].items()
        if max(key) <= 4
        for sets, pair in splits
    }
    return tuple(sorted(found, key=repr))


@cache
def _group_costs(
    held: tuple[int, ...], caps: tuple[int, ...], chows: bool, pair_ok: tuple[bool, ...], max_sets: int
) -> dict[tuple[int, bool], int]:
    """Cheapest cost per (sets, has pair) over every target pattern of the group."""
    best: dict[tuple[int, bool], int] = {}
    for sets, pair, target in _targets(chows):
        if sets > max_sets or (pair is not None and not pair_ok[pair]):
            continue
        if any(n > caps[r] for r, n in target):
            continue
        cost = 0
        for r, n in target:
            if n > held[r]:
                cost += n - held[r]
        best[sets, pair is not None] = min(best.get((sets, pair is not None), INF), cost)
    return best


def _standard_cost(counts: Sequence[int], sets: int, rules: ShapeRules, caps: Sequence[int]) -> int:
    per_group = [
        _group_costs(
            tuple(counts[base : base + size]),
            tuple(caps[base : base + size]),
            chows,
            tuple(rules.pair_allowed(base + r) for r in range(size)),
            sets,
        )
        for base, size, chows in GROUPS
    ]
    totals = {(0, 0): 0}  # (sets, pairs) so far -> cheapest cost
    for group in per_group:
        merged: dict[tuple[int, int], int] = {}
        for (sets_a, pairs_a), cost_a in totals.items():
            for (sets_b, pair_b), cost_b in group.items():
                key = (sets_a + sets_b, pairs_a + pair_b)
                if key[0] <= sets and key[1] <= 1:
                    merged[key] = min(merged.get(key, INF), cost_a + cost_b)
        totals = merged
    return totals.get((sets, 1), INF)


def _seven_pairs_cost(counts: Sequence[int], quads: bool) -> int:
    """Each kind offers pair slots (two with quads), costing the copies still missing; take the 7 cheapest."""
    slots = []
    for n in counts:
        slots.append(max(0, 2 - n))
        if quads:
            slots.append(max(0, 4 - n) - max(0, 2 - n))
    return sum(sorted(slots)[:7])


def _thirteen_orphans_cost(counts: Sequence[int]) -> int:
    return min(
        sum(max(0, (2 if tile == doubled else 1) - counts[tile]) for tile in THIRTEEN_ORPHANS)
        for doubled in THIRTEEN_ORPHANS
    )


def _honors_knitted_cost(counts: Sequence[int]) -> int:
    return min(14 - min(14, sum(1 for tile in pattern + HONORS if counts[tile])) for pattern in KNITTED_PATTERNS)


def _knitted_straight_cost(counts: Sequence[int], sets: int, rules: ShapeRules) -> int:
    """The nine knitted tiles take one held copy each; the rest of the hand must make the remaining sets + pair,
    with one copy of each knitted tile already spoken for."""
    best = INF
    for pattern in KNITTED_PATTERNS:
        rest = [n - (tile in pattern and n > 0) for tile, n in enumerate(counts)]
        caps = [4 - (tile in pattern) for tile in range(NUM_KINDS)]
        missing = sum(1 for tile in pattern if not counts[tile])
        best = min(best, missing + _standard_cost(rest, sets, rules, caps))
    return best


def reference_shanten(counts: Sequence[int], rules: ShapeRules = DEFAULT_SHAPES) -> int:
    size = sum(counts)
    melds = melds_implied(size)
    costs = [_standard_cost(counts, 4 - melds, rules, [4] * NUM_KINDS)] if rules.standard else []
    if melds == 0:
        if rules.seven_pairs:
            costs.append(_seven_pairs_cost(counts, rules.seven_pairs_quad_as_two_pairs))
        if rules.thirteen_orphans:
            costs.append(_thirteen_orphans_cost(counts))
        if rules.honors_knitted:
            costs.append(_honors_knitted_cost(counts))
    if rules.knitted_straight and melds <= 1:
        costs.append(_knitted_straight_cost(counts, 1 - melds, rules))
    if min(costs, default=INF) >= INF:
        raise TileCountError(f"no winning shape the rules allow fits {size} concealed tiles")
    return min(costs) - 1


def reference_is_win_wild(
    counts: Sequence[int],
    wilds: int,
    rules: ShapeRules = DEFAULT_SHAPES,
    check: Callable[[Sequence[int], ShapeRules], bool] | None = None,
) -> bool:
    """Try every multiset of faces for the jokers (a fifth copy included); each trial is judged by ``check``
    (default ``reference_is_win``; ``bench/bench_wildcard.py`` passes the fast ``is_win`` as its baseline)."""
    judge = check or reference_is_win
    for faces in combinations_with_replacement(range(NUM_KINDS), wilds):
        with_faces = list(counts)
        for tile in faces:
            with_faces[tile] += 1
        if judge(with_faces, rules):
            return True
    return False
