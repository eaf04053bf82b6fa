"""The standard shape (sets + one pair) by per-group table lookups: hu check, splits and waits."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import product

from engine.analysis.shapes import GROUPS, Set, ShapeRules
from engine.analysis.suit_tables import NO_PAIR, Key, group_table, pair_bit


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


WaitEntry = tuple[int, bool, tuple[int, ...], tuple[int, ...]]
"""What a waits call needs of one group: (weight, holds an allowed pair, fill, fill without fifth copies).

The weight is 0, 1 or 4 for a group of size 0, 1 or 2 mod 3. A group of size 0 mod 3 must be complete without a
pair (no fill). The fill of a group of size 1 mod 3 lists the tiles that complete it with an allowed pair; that
of a group of size 2 mod 3 the tiles that turn it into sets alone. The second fill leaves out the tiles the
group holds four times (a fifth copy). A group whose entry is None can be in no ready hand.
"""

FILL, CAPPED_FILL = 2, 3
_ALONE: WaitEntry = (0, False, (), ())


class _Entries(dict[Key, "WaitEntry | None"]):
    """The entries of one group under one pair rule, each computed when its key is first met (and then looked up
    at C speed; a group key repeats far more often than a hand)."""

    def __init__(self, group: int, mask: int) -> None:
        super().__init__()
        self.base, _, chows = GROUPS[group]
        self.bits = group_table(chows)[0]
        self.mask = mask

    def __missing__(self, key: Key) -> WaitEntry | None:
        entry = self[key] = self._entry(key)
        return entry

    def _entry(self, key: Key) -> WaitEntry | None:
        weight = (0, 1, 4)[sum(key) % 3]
        value = self.bits.get(key, 0)
        if weight == 0:
            return _ALONE if value else None
        paired = weight == 4 and bool(value & self.mask)
        need = self.mask if weight == 1 else NO_PAIR
        fill = []
        probe = list(key)
        for r, n in enumerate(key):
            probe[r] = n + 1
            if self.bits.get(tuple(probe), 0) & need:
                fill.append(r)
            probe[r] = n
        if not (paired or fill):
            return None
        tiles = tuple(self.base + r for r in fill)
        return weight, paired, tiles, tuple(self.base + r for r in fill if key[r] <= 3)


@cache
def wait_entries(pair_ranks: frozenset[int] | None) -> tuple[_Entries, _Entries, _Entries, _Entries]:
    """Per group (three suits, honors), the memo of wait entries under ``pair_ranks``."""
    masks = pair_masks(pair_ranks)
    return _Entries(0, masks[0]), _Entries(1, masks[1]), _Entries(2, masks[2]), _Entries(3, masks[3])


def ready_tiles(counts: Sequence[int], rules: ShapeRules, fill: int = FILL) -> tuple[int, ...]:
    """Tiles (ascending) completing a hand of 13-3k tiles to sets + one allowed pair, by four lookups; ``fill``:
    FILL, or CAPPED_FILL to leave out tiles the hand holds four times. The hand size is not checked.

    Only a group of size 1 mod 3 (it gains the pair), or one of two groups of size 2 mod 3 (it turns its pair
    into sets while the other keeps its pair), can take the tile; every other group must already be complete.
    The weights (0, 1, 4 for sizes 0, 1, 2 mod 3) add up to 1 in the first case and to 8 only in the second.
    """
    m_entries, p_entries, s_entries, z_entries = wait_entries(rules.pair_ranks)
    z = z_entries[tuple(counts[27:34])]
    if z is None:
        return ()
    m = m_entries[tuple(counts[0:9])]
    if m is None:
        return ()
    p = p_entries[tuple(counts[9:18])]
    if p is None:
        return ()
    s = s_entries[tuple(counts[18:27])]
    if s is None:
        return ()
    weight = m[0] + p[0] + s[0] + z[0]
    if weight == 1:
        return m[fill] + p[fill] + s[fill] + z[fill]
    if weight != 8:
        return ()
    first, second = [entry for entry in (m, p, s, z) if entry[0]]
    return (first[fill] if second[1] else ()) + (second[fill] if first[1] else ())


def standard_waits(counts: Sequence[int], rules: ShapeRules) -> list[int]:
    """Tiles (ascending) completing a hand of 13-3k tiles to sets + one allowed pair (copy limits not applied)."""
    return list(ready_tiles(counts, rules))
