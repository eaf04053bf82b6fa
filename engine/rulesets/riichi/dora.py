"""Dora (ドラ): the tile after each indicator counts one han per copy in the winning hand.

The successor wraps within each suit (9 → 1), within the winds (東 南 西 北 → 東) and within the dragons
(白 發 中 → 白). Kan dora add indicators; ura dora (the tiles under the indicators) count only for a hand
won after riichi. Red fives, when the set has them (option ``red_fives``), are one han each (赤ドラ).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.tiles import Tile


def dora_of(indicator: Tile) -> Tile:
    """The dora an indicator points at."""
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


def dora_count(tiles: Iterable[Tile], indicators: Iterable[Tile]) -> int:
    """Han from the indicators: each indicator counts every copy of its dora (two indicators of one tile count
    its dora twice)."""
    held = list(tiles)
    return sum(held.count(_DORA[indicator]) for indicator in indicators)


_DORA = tuple(dora_of(indicator) for indicator in range(34))
"""``dora_of`` of every tile, looked up once per indicator of each hand."""
