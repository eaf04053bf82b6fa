"""Readings of the concealed tiles as sets + one pair, as packs, in the order the reference calculator meets them.

Equal totals are broken by that order (``scorer``), so the readings come like summerinsects' depth-first search:
lexicographically by their sets in code order (万 条 饼 字), a pung before the chow starting on the same tile.
Each group's splits come from ``engine.analysis``'s per-group tables and are cached as packs by the group's
counts, which repeat far more often than whole hands; a reading is one split per group.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from engine.analysis.suit_tables import group_table
from engine.rulesets.mcr.codes import CODE_OF
from engine.rulesets.mcr.packs import CHOW, PAIR, PUNG, Pack

Reading = tuple[tuple[Pack, ...], Pack]
"""(concealed sets in search order, the pair)."""
GroupSplit = tuple[tuple[Pack, ...], Pack | None]

GROUPS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (18, 9, True), (9, 9, True), (27, 7, False))
"""(first ``engine.tiles`` id, size, chows allowed) of 万 条 饼 字: the code order."""

_SPLITS: dict[tuple[int, tuple[int, ...]], tuple[GroupSplit, ...]] = {}


def _order(pack: Pack) -> int:
    """Search order of a set: its first tile, a pung before the chow that starts there."""
    return 2 * (pack.tile - 1) + 1 if pack.kind == CHOW else 2 * pack.tile


def _group_splits(base: int, chows: bool, key: tuple[int, ...]) -> tuple[GroupSplit, ...]:
    """Every split of one group as packs, in search order (empty when the group cannot be split)."""
    found = _SPLITS.get((base, key))
    if found is None:
        splits = []
        for sets, pair in group_table(chows)[1].get(key, ()):
            packs = sorted(
                (
                    Pack(CHOW, CODE_OF[base + r] + 1) if kind == "chow" else Pack(PUNG, CODE_OF[base + r])
                    for kind, r in sets
                ),
                key=_order,
            )
            splits.append((tuple(packs), None if pair is None else Pack(PAIR, CODE_OF[base + pair])))
        splits.sort(key=lambda split: [_order(pack) for pack in split[0]])
        found = _SPLITS[(base, key)] = tuple(splits)
    return found


def readings(counts: Sequence[int]) -> list[Reading]:
    """Every reading of the concealed tiles (count vector by ``engine.tiles`` id) as sets + one pair."""
    per_group = []
    pairs = 0
    for base, size, chows in GROUPS:
        splits = _group_splits(base, chows, tuple(counts[base : base + size]))
        if not splits:
            return []
        per_group.append(splits)
        pairs += splits[0][1] is not None  # a group's size decides whether it holds the pair
    if pairs != 1:
        return []
    found = []
    for m, s, p, z in product(*per_group):
        pair = m[1] or s[1] or p[1] or z[1]
        assert pair is not None
        found.append((m[0] + s[0] + p[0] + z[0], pair))
    return found
