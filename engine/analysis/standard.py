"""The standard shape (sets + one pair) by per-group table lookups: hu check, splits and waits."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

from engine.analysis.shapes import GROUPS, Set, ShapeRules
from engine.analysis.suit_tables import NO_PAIR, group_table, pair_bit


@cache
def pair_masks(pair_ranks: frozenset[int] | None) -> tuple[int, int, int, int]:
    """Allowed pair bits of each group (three suits, honors) under ``pair_ranks``."""
    if pair_ranks is None:
        suit = sum(pair_bit(r) for r in range(9))
        return suit, suit, suit, sum(pair_bit(r) for r in range(7))
    suit = sum(pair_bit(rank - 1) for rank in pair_ranks if 1 <= rank <= 9)
    return suit, suit, suit, 0


@cache
def bit_tables() -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
    """Completion bits of (suits, honors)."""
    return group_table(True)[0], group_table(False)[0]


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
        found = group_table(chows)[1].get(tuple(counts[base : base + size]))
        if found is None:
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


def standard_waits(counts: Sequence[int], rules: ShapeRules) -> list[int]:
    """Tiles (ascending) completing a hand of 13-3k tiles to sets + one allowed pair (copy limits not applied).

    Only a group whose size is 1 mod 3 (it gains the pair), or one of two groups of size 2 mod 3 (it turns its
    pair into sets), can take the tile; every other group must already be complete.
    """
    parts = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    residues = [sum(parts[0]) % 3, sum(parts[1]) % 3, sum(parts[2]) % 3, sum(parts[3]) % 3]
    if 2 not in residues and residues.count(1) == 1:
        targets: tuple[int, ...] = (residues.index(1),)
    elif 1 not in residues and residues.count(2) == 2:
        first = residues.index(2)
        targets = (first, residues.index(2, first + 1))
    else:
        return []
    keys = (tuple(parts[0]), tuple(parts[1]), tuple(parts[2]), tuple(parts[3]))
    suits, honors = bit_tables()
    values = (suits.get(keys[0], 0), suits.get(keys[1], 0), suits.get(keys[2], 0), honors.get(keys[3], 0))
    masks = pair_masks(rules.pair_ranks)
    waits: list[int] = []
    for target in targets:
        need = masks[target]
        for g in range(4):
            if g != target:
                if not values[g]:
                    break
                if values[g] > 1:
                    if not values[g] & masks[g]:
                        break
                    need = NO_PAIR
        else:
            waits.extend(completing_tiles(target, keys[target], need))
    return waits


_COMPLETING: dict[tuple[int, tuple[int, ...], int], tuple[int, ...]] = {}


def completing_tiles(group: int, key: tuple[int, ...], need: int) -> tuple[int, ...]:
    """Tiles of ``group`` whose addition gives the group one of the completion bits ``need`` (memoised)."""
    found = _COMPLETING.get((group, key, need))
    if found is None:
        base, _, chows = GROUPS[group]
        table = group_table(chows)[0]
        with_tile = list(key)
        tiles = []
        for r in range(len(key)):
            with_tile[r] += 1
            if table.get(tuple(with_tile), 0) & need:
                tiles.append(base + r)
            with_tile[r] -= 1
        found = _COMPLETING[(group, key, need)] = tuple(tiles)
    return found
