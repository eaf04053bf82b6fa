"""Fans read from the kinds of tile a hand holds (suits, terminals, ranks) and from what every pack contains.

The tile fans depend only on the set of kinds held, not on the reading, so the scorer computes them once per
hand (``tile_fans``, cached by that set as a bitmask) and adds them to every reading.
"""

from __future__ import annotations

from functools import lru_cache

from engine.rulesets.mcr.codes import CODE_OF, DRAGONS, GREEN_TILES, ORPHANS, REVERSIBLE, TERMINALS, WINDS, Code
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

Fans = dict[int, int]


def code_mask(codes: frozenset[Code]) -> int:
    """Bit ``code`` set for each code: the kinds a hand holds as one int, so each test below is an AND."""
    return sum(1 << code for code in codes)


CODE_BIT: tuple[int, ...] = tuple(1 << code for code in CODE_OF)
"""Per ``engine.tiles`` id, the bit of its code."""
_SUITS = tuple(0x3FE << (16 * suit) for suit in (1, 2, 3))
_HONORS, _WINDS, _DRAGONS = code_mask(WINDS | DRAGONS), code_mask(WINDS), code_mask(DRAGONS)
_ORPHANS, _TERMINALS = code_mask(ORPHANS), code_mask(TERMINALS)
_GREEN, _REVERSIBLE = code_mask(GREEN_TILES), code_mask(REVERSIBLE)
_LOW, _LOW3, _HIGH, _HIGH3, _MIDDLE = (
    sum(2 << rank for rank in ranks) for ranks in ((0, 1, 2, 3), (0, 1, 2), (5, 6, 7, 8), (6, 7, 8), (3, 4, 5))
)
"""Rank masks (bit ``rank``) of 小于五, 全小, 大于五, 全大, 全中."""


@lru_cache(maxsize=1 << 14)
def tile_fans(kinds: int) -> tuple[tuple[int, int], ...]:
    """(fan, count) of the suit, tile-trait and rank-range fans of a hand holding these kinds (``code_mask``)."""
    fans: Fans = {}
    # 无字, 缺一门, 混一色, 清一色, 五门齐
    numbered = (kinds & _SUITS[0] != 0) + (kinds & _SUITS[1] != 0) + (kinds & _SUITS[2] != 0)
    honors = kinds & _HONORS
    if numbered == 1:
        fans[FULL_FLUSH if not honors else HALF_FLUSH] = 1
    else:
        if not honors:
            fans[NO_HONORS] = 1
        if numbered == 2:
            fans[ONE_VOIDED_SUIT] = 1
        elif numbered == 3 and kinds & _WINDS and kinds & _DRAGONS:
            fans[ALL_TYPES] = 1
    # 断幺, 推不倒, 绿一色, 字一色, 清幺九, 混幺九
    simples = not kinds & _ORPHANS
    if simples:
        fans[ALL_SIMPLES] = 1
    if not kinds & ~_REVERSIBLE:
        fans[REVERSIBLE_TILES] = 1
    if not kinds & ~_GREEN:
        fans[ALL_GREEN] = 1
    if not simples:
        if not kinds & ~_HONORS:
            fans[ALL_HONORS] = 1
        elif not kinds & ~_TERMINALS:
            fans[ALL_TERMINALS] = 1
        elif not kinds & ~_ORPHANS:
            fans[ALL_TERMINALS_AND_HONORS] = 1
    # 全小 / 小于五, 全大 / 大于五, 全中: numbered tiles only, all in one rank range
    if not honors:
        ranks = ((kinds >> 16) | (kinds >> 32) | (kinds >> 48)) & 0x3FE
        if not ranks & ~_LOW:
            fans[LOWER_FOUR if ranks & ~_LOW3 else LOWER_TILES] = 1
        elif not ranks & ~_HIGH:
            fans[UPPER_FOUR if ranks & ~_HIGH3 else UPPER_TILES] = 1
        elif not ranks & ~_MIDDLE:
            fans[MIDDLE_TILES] = 1
    return tuple(fans.items())


TraitCounts = tuple[int, int, int]
"""How many packs hold a terminal or honor, a 5, or are an even pung (or pair): 全带幺 / 全带五 / 全双刻 need 5."""


def chow_trait_counts(chows: tuple[Code, ...]) -> TraitCounts:
    outside = five = 0
    for tile in chows:
        rank = tile & 15
        if rank in (2, 8):
            outside += 1
        elif rank in (4, 5, 6):
            five += 1
    return outside, five, 0


def pung_trait_counts(tiles: tuple[Code, ...]) -> TraitCounts:
    """Of pungs, kongs or the pair."""
    outside = five = even = 0
    for tile in tiles:
        rank = tile & 15
        if tile >= 0x40 or rank in (1, 9):
            outside += 1
        elif rank == 5:
            five += 1
        elif not rank & 1:
            even += 1
    return outside, five, even


_PAIR_TRAITS: dict[Code, TraitCounts] = {code: pung_trait_counts((code,)) for code in CODE_OF}
"""The trait counts of a pair, by its tile (a lookup per reading instead of a loop)."""


def pack_trait_fan(chows: TraitCounts, pungs: TraitCounts, pair: Code) -> int | None:
    """全带幺 (every pack has a terminal or honor), else 全带五 (a 5), else 全双刻 (even pungs and pair), from the
    counts of the chows and of the pungs (tabled with their shape fans) and the pair."""
    outside, five, even = _PAIR_TRAITS[pair]
    if outside + chows[0] + pungs[0] == 5:
        return OUTSIDE_HAND
    if five + chows[1] + pungs[1] == 5:
        return ALL_FIVE
    return ALL_EVEN_PUNGS if even + pungs[2] == 5 else None
