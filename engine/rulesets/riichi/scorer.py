"""The value of a winning riichi hand: the best reading's yaku, han, fu and basic points.

Every reading (``reading.readings``) is scored and the one worth the most is kept; among equal points a real
yakuman beats a counted one, then more han, then more fu (the oracle's and Tenhou's order). Dora count only
once the hand has a yaku, and never beside a yakuman. A hand with no yaku is no win (hu false).
"""

from __future__ import annotations

from functools import lru_cache
from types import ModuleType
from typing import NamedTuple

from engine.native import RIICHI_NATIVE
from engine.notation import Hand
from engine.rulesets.riichi.dora import dora_count
from engine.rulesets.riichi.fu import reading_fu
from engine.rulesets.riichi.points import Limit, basic_points
from engine.rulesets.riichi.reading import readings
from engine.rulesets.riichi.yaku import WinFacts, YakuList, reading_yaku, situation_yaku, tile_yaku
from engine.rulesets.riichi.yakulist import YAKU
from engine.tiles import to_counts


class Bonus(NamedTuple):
    """Dora of the hand: indicators (kan dora included), ura indicators and red fives held."""

    indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    red_fives: int = 0


class Options(NamedTuple):
    counted_yakuman: str = "yakuman"
    kiriage: bool = False


NO_LIMIT = Limit(0, "")
YAKUMAN = frozenset(key for key, yaku in YAKU.items() if yaku.yakuman)


class HandValue(NamedTuple):
    """``yaku`` lists (key, han); ``limit`` names the limit reached ("" below mangan)."""

    hu: bool
    han: int = 0
    fu: int = 0
    yaku: YakuList = ()
    limit: Limit = NO_LIMIT
    reason: str | None = None

    @property
    def yakuman(self) -> bool:
        return any(key in YAKUMAN for key, _ in self.yaku)


NO_SHAPE = "not a winning shape (four sets and a pair, seven distinct pairs, thirteen orphans)"
NO_YAKU = "no yaku: a riichi hand needs at least one yaku to win (dora are not yaku)"
REASONS = (None, NO_SHAPE, NO_YAKU)
"""The compiled core's reason codes 0-2."""


@lru_cache(maxsize=4096)
def hand_value(hand: Hand, facts: WinFacts, bonus: Bonus, options: Options) -> HandValue:
    """The best reading's value, cached by hand and situation (a table asks about the same hand repeatedly): the
    compiled core's (``engine/_riichi_native.c``) where it answers, else ``pure_hand_value``'s."""
    found = native_hand_value(RIICHI_NATIVE, hand, facts, bonus, options) if RIICHI_NATIVE else None
    return pure_hand_value(hand, facts, bonus, options) if found is None else found


def native_hand_value(
    core: ModuleType, hand: Hand, facts: WinFacts, bonus: Bonus, options: Options
) -> HandValue | None:
    """``core``'s value of the hand, or None where it declines (the pure path answers those)."""
    found = core.hand_value(hand.melds, hand.standing, hand.win_tile, facts, bonus, options)
    if found is None:
        return None
    hu, han, fu, yaku, basic, limit, reason = found
    return HandValue(hu, han, fu, yaku, Limit(basic, limit), REASONS[reason])


def pure_hand_value(hand: Hand, facts: WinFacts, bonus: Bonus, options: Options) -> HandValue:
    """``hand_value`` in Python alone: what the compiled core declines, and its differential test."""
    win = hand.win_tile
    assert win is not None
    concealed = to_counts([*hand.standing, win])
    candidates = readings(hand, concealed, facts.self_drawn)
    if not candidates:
        return HandValue(False, reason=NO_SHAPE)
    tiles = hand.all_tiles()
    kinds = 0
    for tile in tiles:
        kinds |= 1 << tile
    common = situation_yaku(facts) + tile_yaku(kinds, facts)
    dora = _dora(tiles, facts, bonus)
    counts = tuple(concealed)
    best: tuple[tuple[int, bool, int, int], HandValue] | None = None
    for reading in candidates:
        found = common + reading_yaku(reading, facts, counts, win)
        value = _value(found, reading_fu(reading, facts, ("pinfu", 1) in found), dora, options)
        rank = (value.limit.basic, value.yakuman, value.han, value.fu)
        if best is None or rank > best[0]:
            best = (rank, value)
    assert best is not None
    return best[1]


def _dora(tiles: list[int], facts: WinFacts, bonus: Bonus) -> YakuList:
    """The dora entries of the hand (those above zero), counted once for all its readings."""
    extra = [("dora", dora_count(tiles, bonus.indicators))]
    if facts.riichi or facts.double_riichi:
        extra.append(("ura_dora", dora_count(tiles, bonus.ura_indicators)))
    extra.append(("aka_dora", bonus.red_fives))
    return tuple(entry for entry in extra if entry[1])


def _value(found: YakuList, fu: int, dora: YakuList, options: Options) -> HandValue:
    yakuman = tuple([entry for entry in found if entry[0] in YAKUMAN])
    if yakuman:
        han = sum(value for _, value in yakuman)
        return HandValue(True, han, fu, yakuman, basic_points(han, fu, yakuman=True))
    if not found:  # every yaku is worth a han or more
        return HandValue(False, 0, fu, (), reason=NO_YAKU)
    found = found + dora
    han = sum(value for _, value in found)
    limit = basic_points(han, fu, yakuman=False, counted=options.counted_yakuman, kiriage=options.kiriage)
    return HandValue(True, han, fu, found, limit)
