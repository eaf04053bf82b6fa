"""Fans read from the kinds of tile a hand holds (suits, terminals, ranks) and from what every pack contains.

The tile fans depend only on the set of kinds held, not on the reading, so the scorer computes them once per
hand (``tile_fans``, cached by that set) and adds them to every reading.
"""

from __future__ import annotations

from functools import cache

from engine.rulesets.mcr.codes import DRAGONS, GREEN_TILES, ORPHANS, REVERSIBLE, TERMINALS, WINDS, Code
from engine.rulesets.mcr.fans import (
    ALL_EVEN_PUNGS,
    ALL_FIVE,
    ALL_GREEN,
    ALL_HONORS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    FULL_FLUSH,
    HALF_FLUSH,
    LOWER_FOUR,
    LOWER_TILES,
    MIDDLE_TILES,
    NO_HONORS,
    ONE_VOIDED_SUIT,
    OUTSIDE_HAND,
    REVERSIBLE_TILES,
    UPPER_FOUR,
    UPPER_TILES,
)
from engine.rulesets.mcr.packs import CHOW, Pack

Fans = dict[int, int]


@cache
def tile_fans(kinds: frozenset[Code]) -> tuple[tuple[int, int], ...]:
    """(fan, count) of the suit, tile-trait and rank-range fans of a hand holding these kinds."""
    fans: Fans = {}
    _suit_fans(kinds, fans)
    _trait_fans(kinds, fans)
    _range_fans(kinds, fans)
    return tuple(fans.items())


def _suit_fans(kinds: frozenset[Code], fans: Fans) -> None:
    """无字, 缺一门, 混一色, 清一色, 五门齐."""
    suits = {code >> 4 for code in kinds}
    numbered = suits - {4}
    honors = 4 in suits
    if len(numbered) == 1:
        fans[FULL_FLUSH if not honors else HALF_FLUSH] = 1
    else:
        if not honors:
            fans[NO_HONORS] = 1
        if len(numbered) == 2:
            fans[ONE_VOIDED_SUIT] = 1
        elif len(numbered) == 3 and honors and kinds & WINDS and kinds & DRAGONS:
            fans[ALL_TYPES] = 1


def _trait_fans(kinds: frozenset[Code], fans: Fans) -> None:
    """断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九."""
    simples = not kinds & ORPHANS
    if simples:
        fans[ALL_SIMPLES] = 1
    if kinds <= REVERSIBLE:
        fans[REVERSIBLE_TILES] = 1
    if kinds <= GREEN_TILES:
        fans[ALL_GREEN] = 1
    if simples:
        return
    if all(code >= 0x40 for code in kinds):
        fans[ALL_HONORS] = 1
    elif kinds <= TERMINALS:
        fans[ALL_TERMINALS] = 1
    elif kinds <= ORPHANS:
        fans[ALL_TERMINALS_AND_HONORS] = 1


def _range_fans(kinds: frozenset[Code], fans: Fans) -> None:
    """全小 / 小于五, 全大 / 大于五, 全中: numbered tiles only, all in one rank range."""
    if any(code >= 0x40 for code in kinds):
        return
    ranks = {code & 15 for code in kinds}
    if ranks <= {1, 2, 3, 4}:
        fans[LOWER_FOUR if 4 in ranks else LOWER_TILES] = 1
    elif ranks <= {6, 7, 8, 9}:
        fans[UPPER_FOUR if 6 in ranks else UPPER_TILES] = 1
    elif ranks <= {4, 5, 6}:
        fans[MIDDLE_TILES] = 1


def pack_trait_fan(packs: tuple[Pack, ...] | list[Pack]) -> int | None:
    """全带幺 (every pack has a terminal or honor), else 全带五 (a 5), else 全双刻 (even pungs and pair)."""
    outside = five = even = 0
    for pack in packs:
        tile = pack.tile
        if tile >= 0x40:
            outside += 1
            continue
        rank = tile & 15
        if pack.kind == CHOW:
            if rank in (2, 8):
                outside += 1
            elif rank in (4, 5, 6):
                five += 1
        elif rank in (1, 9):
            outside += 1
        elif rank == 5:
            five += 1
        elif not rank & 1:
            even += 1
    if outside == 5:
        return OUTSIDE_HAND
    if five == 5:
        return ALL_FIVE
    return ALL_EVEN_PUNGS if even == 5 else None
