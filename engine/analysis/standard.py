"""The standard shape (sets + one pair) by per-group table lookups: hu check, splits and waits."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial
from itertools import product

from engine.analysis.shapes import GROUPS, Set, ShapeRules
from engine.analysis.suit_tables import NO_PAIR, Key, Memo, bit_tables, group_splits, pair_bit, series_split, suit_bits


@cache
def pair_masks(pair_ranks: frozenset[int] | None) -> tuple[int, int, int, int]:
    """Allowed pair bits of each group (three suits, honors) under ``pair_ranks``."""
    if pair_ranks is None:
        suit = sum(pair_bit(r) for r in range(9))
        return suit, suit, suit, sum(pair_bit(r) for r in range(7))
    suit = sum(pair_bit(rank - 1) for rank in pair_ranks if 1 <= rank <= 9)
    return suit, suit, suit, 0


def is_standard(counts: Sequence[int], rules: ShapeRules) -> bool:
    """Sets + exactly one allowed pair, counted per group; the hand size is not checked."""
    suits, honors_table = bit_tables()
    honors = honors_table.get(tuple(counts[27:34]))
    if not honors:
        return False
    m = suits.get(tuple(counts[0:9]))
    if not m:
        return False
    p = suits.get(tuple(counts[9:18]))
    if not p:
        return False
    s = suits.get(tuple(counts[18:27]))
    if not s or (m > 1) + (p > 1) + (s > 1) + (honors > 1) != 1:
        return False
    if rules.pair_ranks is None:
        return True
    return bool((m | p | s) & pair_masks(rules.pair_ranks)[0])


def standard_splits(counts: Sequence[int], rules: ShapeRules) -> list[tuple[tuple[Set, ...], int]]:
    """Every (sorted concealed sets, pair tile) reading of the hand as sets + one allowed pair."""
    per_group = []
    for base, size, chows in GROUPS:
        found = group_splits(chows)[tuple(counts[base : base + size])]
        if not found:
            return []
        per_group.append([(base, sets, pair) for sets, pair in found])
    results = []
    for choice in product(*per_group):
        pairs = [base + pair for base, _, pair in choice if pair is not None]
        if len(pairs) != 1 or not rules.pair_allowed(pairs[0]):
            continue
        sets = tuple(sorted((kind, base + r) for base, group_sets, _ in choice for kind, r in group_sets))
        results.append((sets, pairs[0]))
    return results


GroupFacts = tuple[
    int, bool, tuple[int, ...], tuple[int, ...], int, int, int, int, int, int, tuple[tuple[int, Key], ...]
]
"""What a waits call needs of one group's counts, memoised per key: (weight, holds an allowed pair, fill, fill
without fifth copies, tiles, singles, kinds, the knitted series 147/258/369 a suit holds whole (bit 0/1/2),
kinds held an odd number of times, the first such tile or -1, a suit's ``series_split`` for each series).

The weight is 0, 1 or 4 for a group of size 0, 1 or 2 mod 3 that is complete or one tile short of it, and
NOT_NEAR (16) for any other group. A group of size 0 mod 3 is then complete without a pair (no fill). The fill
of a group of size 1 mod 3 lists the tiles that complete it with an allowed pair; that of a group of size 2 mod
3 the tiles that turn it into sets alone. The second fill leaves out the tiles the group holds four times.
The other facts let waits size the hand and settle the special shapes without reading it again.
"""

WEIGHT, PAIRED, FILL, CAPPED_FILL, SIZE, SINGLES, KINDS, SERIES, ODDS, ODD_TILE, SPLIT = range(11)
NOT_NEAR = 16


def _group_facts(group: int, mask: int, key: Key) -> GroupFacts:
    base, _, chows = GROUPS[group]
    size = sum(key)
    series = sum(1 << start for start in range(3) if chows and 0 not in key[start::3])
    odd = [base + r for r, n in enumerate(key) if n & 1]
    split = tuple(series_split(key, series) for series in range(3)) if chows else ()
    counted = (size, key.count(1), len(key) - key.count(0), series, len(odd), odd[0] if odd else -1, split)
    return *_wait_facts(base, chows, mask, key, size), *counted


def _wait_facts(
    base: int, chows: bool, mask: int, key: Key, size: int
) -> tuple[int, bool, tuple[int, ...], tuple[int, ...]]:
    """(weight, paired, fill, capped fill) of a group's key, from the complete patterns (each tile tried once)."""
    bits = suit_bits(chows)
    weight = (0, 1, 4)[size % 3]
    value = bits.get(key, 0)
    if weight == 0:
        return (0 if value else NOT_NEAR), False, (), ()
    paired = weight == 4 and bool(value & mask)
    need = mask if weight == 1 else NO_PAIR
    fill = []
    probe = list(key)
    for r, n in enumerate(key):
        probe[r] = n + 1
        if bits.get(tuple(probe), 0) & need:
            fill.append(r)
        probe[r] = n
    if not (paired or fill):
        return NOT_NEAR, False, (), ()
    return weight, paired, tuple(base + r for r in fill), tuple(base + r for r in fill if key[r] <= 3)


@cache
def group_facts(pair_ranks: frozenset[int] | None) -> tuple[Memo[Key, GroupFacts], ...]:
    """Per group (three suits, honors), the facts of each key under ``pair_ranks``, computed when first met."""
    return tuple(Memo(partial(_group_facts, group, mask)) for group, mask in enumerate(pair_masks(pair_ranks)))


def hand_facts(counts: Sequence[int], rules: ShapeRules) -> tuple[GroupFacts, GroupFacts, GroupFacts, GroupFacts]:
    """The facts of the three suits and the honors: four lookups."""
    m, p, s, z = group_facts(rules.pair_ranks)
    return m[tuple(counts[0:9])], p[tuple(counts[9:18])], s[tuple(counts[18:27])], z[tuple(counts[27:34])]


def ready_tiles(m: GroupFacts, p: GroupFacts, s: GroupFacts, z: GroupFacts, fill: int = FILL) -> tuple[int, ...]:
    """Tiles (ascending) completing a hand of 13-3k tiles to sets + one allowed pair, from its groups' facts;
    ``fill``: FILL, or CAPPED_FILL to leave out tiles the hand holds four times.

    Only a group of size 1 mod 3 (it gains the pair), or one of two groups of size 2 mod 3 (it turns its pair
    into sets while the other keeps its pair), can take the tile; every other group must already be complete.
    The weights add up to 1 in the first case and to 8 only in the second.
    """
    weight = m[WEIGHT] + p[WEIGHT] + s[WEIGHT] + z[WEIGHT]
    if weight == 1:
        return m[fill] + p[fill] + s[fill] + z[fill]
    if weight != 8:
        return ()
    first, second = [group for group in (m, p, s, z) if group[WEIGHT]]
    return (first[fill] if second[PAIRED] else ()) + (second[fill] if first[PAIRED] else ())


def is_complete(m: GroupFacts, p: GroupFacts, s: GroupFacts, z: GroupFacts) -> bool:
    """Whether groups with these facts make sets + one allowed pair: one group complete with the pair, the others
    (of size 0 mod 3) complete."""
    holding = [group for group in (m, p, s, z) if group[WEIGHT]]
    return len(holding) == 1 and holding[0][PAIRED]


def standard_waits(counts: Sequence[int], rules: ShapeRules) -> list[int]:
    """Tiles (ascending) completing a hand of 13-3k tiles to sets + one allowed pair (copy limits not applied)."""
    return list(ready_tiles(*hand_facts(counts, rules)))
