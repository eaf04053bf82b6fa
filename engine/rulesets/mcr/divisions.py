"""Readings of the concealed tiles as sets + one pair, as packs, in the order the reference calculator meets them.

Equal totals are broken by that order (``scorer``), so the readings are sorted like summerinsects' depth-first
search: lexicographically by their sets, a pung before the chow starting on the same tile. The per-suit tables
of ``engine.analysis`` find the readings; results are cached by the concealed tiles.
"""

from __future__ import annotations

from functools import lru_cache

from engine.analysis import MCR_SHAPES
from engine.analysis.standard import standard_splits
from engine.rulesets.mcr.codes import CODE_OF
from engine.rulesets.mcr.packs import CHOW, PAIR, PUNG, Pack

Reading = tuple[tuple[Pack, ...], Pack]
"""(concealed sets in search order, the pair)."""


def _order(pack: Pack) -> int:
    """Search order of a set: its first tile, a pung before the chow that starts there."""
    return 2 * (pack.tile - 1) + 1 if pack.kind == CHOW else 2 * pack.tile


@lru_cache(maxsize=1 << 16)
def readings(counts: tuple[int, ...]) -> tuple[Reading, ...]:
    """Every reading of the concealed tiles (count vector by ``engine.tiles`` id) as sets + pair."""
    found = []
    for sets, pair in standard_splits(counts, MCR_SHAPES):
        packs = sorted(
            (Pack(CHOW, CODE_OF[tile] + 1) if kind == "chow" else Pack(PUNG, CODE_OF[tile]) for kind, tile in sets),
            key=_order,
        )
        found.append((tuple(packs), Pack(PAIR, CODE_OF[pair])))
    found.sort(key=lambda reading: [_order(pack) for pack in reading[0]])
    return tuple(found)
