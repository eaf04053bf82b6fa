"""Fans made of pungs and kongs: 4-, 3- and 2-pung patterns, single pungs, kongs and concealed pungs.
Pungs are given by their tiles, sorted."""

from __future__ import annotations

from itertools import combinations

from engine.analysis.suit_tables import Memo
from engine.rulesets.mcr.codes import CODE_OF, DRAGONS, TERMINALS, WINDS, Code, E, N, S, W
from engine.rulesets.mcr.fans import (
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    CONCEALED_KONG,
    CONCEALED_KONG_AND_MELDED_KONG,
    DOUBLE_PUNG,
    DRAGON_PUNG,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FOUR_PURE_SHIFTED_PUNGS,
    MELDED_KONG,
    MIXED_SHIFTED_PUNGS,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_SHIFTED_PUNGS,
    THREE_CONCEALED_PUNGS,
    THREE_KONGS,
    TRIPLE_PUNG,
    TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGONS_PUNGS,
    TWO_MELDED_KONGS,
)
from engine.rulesets.mcr.traits import TraitCounts, pung_trait_counts

Fans = dict[int, int]

_CONCEALED_PUNG_FANS = {2: TWO_CONCEALED_PUNGS, 3: THREE_CONCEALED_PUNGS, 4: FOUR_CONCEALED_PUNGS}
_KONG_FANS = {
    (1, 0): MELDED_KONG,
    (0, 1): CONCEALED_KONG,
    (2, 0): TWO_MELDED_KONGS,
    (1, 1): CONCEALED_KONG_AND_MELDED_KONG,
    (0, 2): TWO_CONCEALED_KONGS,
}
"""(melded kongs, concealed kongs) → fan; three and four kongs have their own fans."""
_BIG_THREE_WINDS = {(E, S, W), (E, S, N), (E, W, N), (S, W, N)}


def four_pungs_fan(t0: Code, t1: Code, t2: Code, t3: Code) -> int | None:
    if t0 < 0x40 and t0 + 1 == t1 and t1 + 1 == t2 and t2 + 1 == t3:
        return FOUR_PURE_SHIFTED_PUNGS
    if (t0, t1, t2, t3) == (E, S, W, N):
        return BIG_FOUR_WINDS
    return None


def three_pungs_fan(t0: Code, t1: Code, t2: Code) -> int | None:
    if t0 < 0x40 and t1 < 0x40 and t2 < 0x40:
        s0, s1, s2 = t0 >> 4, t1 >> 4, t2 >> 4
        if s0 != s1 and s0 != s2 and s1 != s2:
            ranks = sorted((t0 & 15, t1 & 15, t2 & 15))
            if ranks[0] + 1 == ranks[1] and ranks[1] + 1 == ranks[2]:
                return MIXED_SHIFTED_PUNGS
            return TRIPLE_PUNG if ranks[0] == ranks[2] else None
        return PURE_SHIFTED_PUNGS if t0 + 1 == t1 and t1 + 1 == t2 else None
    if (t0, t1, t2) in _BIG_THREE_WINDS:
        return BIG_THREE_WINDS
    return BIG_THREE_DRAGONS if t0 in DRAGONS and t1 in DRAGONS and t2 in DRAGONS else None


def two_pungs_fan(t0: Code, t1: Code) -> int | None:
    if t0 < 0x40 and t1 < 0x40:
        return DOUBLE_PUNG if t0 & 15 == t1 & 15 else None
    return TWO_DRAGONS_PUNGS if t0 in DRAGONS and t1 in DRAGONS else None


def single_pung_fan(tile: Code) -> int | None:
    if tile in DRAGONS:
        return DRAGON_PUNG
    return PUNG_OF_TERMINALS_OR_HONORS if tile in TERMINALS or tile in WINDS else None


def _add(fans: Fans, fan: int | None) -> None:
    if fan is not None:
        fans[fan] = fans.get(fan, 0) + 1


def pung_fans(tiles: list[Code], fans: Fans) -> None:
    """Fans of 2-4 pungs or kongs (sorted tiles): the biggest group fan first, then what is left may combine."""
    if len(tiles) == 4:
        fan = four_pungs_fan(*tiles)
        if fan is not None:
            fans[fan] = 1
            return
        for free in (3, 2, 1, 0):
            group = [tile for index, tile in enumerate(tiles) if index != free]
            fan = three_pungs_fan(*group)
            if fan is not None:
                fans[fan] = 1
                # The fourth pung combines once with one of the three (account once).
                for index, tile in enumerate(tiles):
                    if index != free and (pair_fan := two_pungs_fan(tile, tiles[free])) is not None:
                        _add(fans, pair_fan)
                        break
                return
    elif len(tiles) == 3:
        fan = three_pungs_fan(*tiles)
        if fan is not None:
            fans[fan] = 1
            return
    for a, b in combinations(tiles, 2):
        _add(fans, two_pungs_fan(a, b))


def _pung_shape(tiles: tuple[Code, ...]) -> tuple[tuple[tuple[int, int], ...], TraitCounts]:
    fans: Fans = {}
    for tile in tiles:
        _add(fans, single_pung_fan(tile))
    pung_fans(list(tiles), fans)
    return tuple(fans.items()), pung_trait_counts(tiles)


PUNG_SHAPES: Memo[tuple[Code, ...], tuple[tuple[tuple[int, int], ...], TraitCounts]] = Memo(_pung_shape)
"""Sorted pung and kong tiles → ((fan, count) of the single pungs and ``pung_fans``, their trait counts), filled
as tuples are met; ``prime_pung_shapes`` fills those of up to three."""


def prime_pung_shapes() -> None:
    """Fill ``PUNG_SHAPES`` with every tuple of 0-3 pungs (6,580, about 0.07 s): most readings hold at most
    three. The 46,000 tuples of four pungs would take half a second; those are filled as they are met."""
    for size in range(4):
        for tiles in combinations(sorted(CODE_OF), size):
            PUNG_SHAPES[tiles]


def kong_fans(concealed_pungs: int, melded_kongs: int, concealed_kongs: int, fans: Fans) -> None:
    """Kong fans and concealed-pung fans; a concealed kong also counts as a concealed pung (双暗杠 then drops
    双暗刻 through the exclusion table)."""
    kongs = melded_kongs + concealed_kongs
    if kongs == 3:
        fans[THREE_KONGS] = 1
    elif kongs == 4:
        fans[FOUR_KONGS] = 1
    elif kongs:
        fans[_KONG_FANS[melded_kongs, concealed_kongs]] = 1
    fan = _CONCEALED_PUNG_FANS.get(concealed_pungs + concealed_kongs)
    if fan is not None:
        fans[fan] = 1
