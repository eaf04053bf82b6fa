"""The special hands, recognised before the 4 sets + pair readings: seven pairs (连七对), thirteen orphans,
honors and knitted tiles (全不靠 / 七星不靠), nine gates. Each returns its own fans (without the situation
fans), or None when the hand is not of that form. ``counts`` are the concealed tiles by code, winning tile
included."""

from __future__ import annotations

from engine.rulesets.mcr.codes import KNITTED_STRAIGHTS, ORPHANS, Code
from engine.rulesets.mcr.fans import (
    ALL_SIMPLES,
    GREATER_HONORS_AND_KNITTED_TILES,
    KNITTED_STRAIGHT,
    LESSER_HONORS_AND_KNITTED_TILES,
    NINE_GATES,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_STRAIGHT,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SHORT_STRAIGHT,
    THIRTEEN_ORPHANS,
    TILE_HOG,
    TWO_CONCEALED_PUNGS,
)

Fans = dict[int, int]
Counts = dict[Code, int]

_NINE_GATES_EXTRAS: dict[int, tuple[int, ...]] = {
    1: (PURE_STRAIGHT, TILE_HOG),
    9: (PURE_STRAIGHT, TILE_HOG),
    2: (TWO_CONCEALED_PUNGS, SHORT_STRAIGHT, PUNG_OF_TERMINALS_OR_HONORS),
    8: (TWO_CONCEALED_PUNGS, SHORT_STRAIGHT, PUNG_OF_TERMINALS_OR_HONORS),
    5: (TWO_CONCEALED_PUNGS, PUNG_OF_TERMINALS_OR_HONORS),
    3: (SHORT_STRAIGHT,),
    4: (SHORT_STRAIGHT,),
    6: (SHORT_STRAIGHT,),
    7: (SHORT_STRAIGHT,),
}
"""What the winning tile's rank adds to 九莲宝灯: the fans of the reading it completes that are not implied."""


def is_seven_pairs(counts: Counts) -> bool:
    return all(not n & 1 for n in counts.values())


def seven_shifted_pairs(counts: Counts, win_tile: Code) -> Fans | None:
    """连七对: seven consecutive pairs of the winning tile's suit; 2-8 adds 断幺."""
    if win_tile >= 0x40 or len(counts) != 7:
        return None
    base = win_tile & 0xF0
    ranks = sorted(code & 15 for code in counts if code & 0xF0 == base)
    if len(ranks) != 7 or ranks[6] - ranks[0] != 6 or any(n != 2 for n in counts.values()):
        return None
    return {SEVEN_SHIFTED_PAIRS: 1, **({ALL_SIMPLES: 1} if ranks[0] == 2 else {})}


def thirteen_orphans(kinds: frozenset[Code]) -> Fans | None:
    return {THIRTEEN_ORPHANS: 1} if kinds == ORPHANS else None


def honors_and_knitted(kinds: frozenset[Code]) -> Fans | None:
    """全不靠 (+ 组合龙 with all nine knitted tiles) or 七星不靠 (all seven honors)."""
    if len(kinds) != 14:
        return None
    numbered = {code for code in kinds if code < 0x40}
    if not 7 <= len(numbered) <= 9 or not any(numbered <= pattern for pattern in KNITTED_STRAIGHTS):
        return None
    if len(numbered) == 7:
        return {GREATER_HONORS_AND_KNITTED_TILES: 1}
    fans = {LESSER_HONORS_AND_KNITTED_TILES: 1}
    if len(numbered) == 9:
        fans[KNITTED_STRAIGHT] = 1
    return fans


def nine_gates(counts: Counts, win_tile: Code) -> Fans | None:
    """九莲宝灯: 1112345678999 of one suit, completed by any tile of that suit (the 14 tiles concealed)."""
    if win_tile >= 0x40:
        return None
    base = win_tile & 0xF0
    held = [counts.get(base + rank, 0) for rank in range(1, 10)]
    if sum(held) != 14:
        return None
    held[(win_tile & 15) - 1] -= 1
    if held != [3, 1, 1, 1, 1, 1, 1, 1, 3]:
        return None
    fans = {NINE_GATES: 1}
    fans.update((fan, 1) for fan in _NINE_GATES_EXTRAS[win_tile & 15])
    return fans


def seven_pairs_family(counts: Counts, win_tile: Code) -> Fans | None:
    """连七对, else 七对 (whose tile fans the scorer adds), else None."""
    if not is_seven_pairs(counts):
        return None
    return seven_shifted_pairs(counts, win_tile) or {SEVEN_PAIRS: 1}
