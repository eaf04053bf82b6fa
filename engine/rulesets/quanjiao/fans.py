"""The 23 fan items of 全椒打番 (fan.md §2.2, S001:17-27) and the exact condition applied to each.

Every item that applies is added (QJ-13); the exclusions are the ones the decisions name: 门圈风 replaces 门风 +
圈风 for the same set (QJ-8), 全字全腰 replaces 全腰 (QJ-12); the suit items exclude each other by definition.
Items are scored on one reading (declared melds + one decomposition); the ruleset keeps the best (G-2).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from engine.notation import Hand
from engine.rulesets.base import FanEntry, WinContext
from engine.rulesets.readings import Reading, suits_present, tiles_of
from engine.tiles import DRAGONS, WINDS, Tile, is_honor, is_terminal, rank_of


@dataclass(frozen=True)
class Item:
    name_zh: str
    name_en: str
    value: int


ITEMS = {
    item.name_zh: item
    for item in (
        Item("平胡", "All chows, two-sided wait", 1),
        Item("不下", "Nothing claimed", 1),
        Item("一般高", "Two identical chows", 1),
        Item("软缺", "Two suits with honors", 1),
        Item("抢杠成", "Robbing a kong", 1),
        Item("杠后开花", "Win on a kong replacement", 1),
        Item("海底捞月", "Win on one of the last two tiles", 1),
        Item("四玉", "All four copies of a tile", 1),
        Item("门风", "Seat-wind pung", 1),
        Item("圈风", "Round-wind pung", 1),
        Item("中发白坎", "Dragon pung", 1),
        Item("硬缺", "Two suits, no honor", 2),
        Item("门圈风", "Seat- and round-wind pung", 2),
        Item("草一色", "One suit with honors", 3),
        Item("对对胡", "All pungs", 3),
        Item("全求人", "Four claimed sets, won on a discard", 3),
        Item("一条龙", "Pure straight", 3),
        Item("清一色", "One suit", 12),
        Item("三季风", "Three wind pungs", 12),
        Item("三渣元", "Three dragon pungs", 12),
        Item("全腰", "All pungs of terminals and honors", 12),
        Item("报不打", "Declared locked ready hand", 12),
        Item("全字全腰", "All honors", 24),
    )
}

BAOBUDA_NEXT_SEAT = 14
"""报不打 of the dealer's 下家: 14, taken as written although the author hedges "好像是的" (fan.md §2.2 item 22)."""
BAOBUDA_DEALT_WIN = 24
"""A dealer complete on his dealt 14 tiles (QJ-11)."""


@dataclass(frozen=True)
class WinFacts:
    """The facts of the win the hand itself does not show."""

    ctx: WinContext
    wall_remaining: int | None
    baobuda: bool

    @property
    def last_two_tiles(self) -> bool:
        """QJ-6: self-drawn with 1 or 0 live-wall tiles left after the draw."""
        near_end = self.ctx.last_tile or (self.wall_remaining is not None and self.wall_remaining <= 1)
        return self.ctx.self_drawn and near_end


def entry(name_zh: str, count: int = 1, value: int | None = None) -> FanEntry:
    item = ITEMS[name_zh]
    return FanEntry(name_zh, name_zh, item.name_en, item.value if value is None else value, count)


def _two_sided(reading: Reading, win_tile: Tile) -> bool:
    """Item 1: the winning tile is the low end of a concealed chow x..x+2 with x ≤ 6, or its high end with
    x ≥ 2 (a closed, edge or pair wait does not count)."""
    for s in reading.sets:
        if s.declared or s.is_triplet:
            continue
        if (win_tile == s.tile and rank_of(s.tile) <= 6) or (win_tile == s.tile + 2 and rank_of(s.tile) >= 2):
            return True
    return False


def _suit_item(tiles: list[Tile]) -> str | None:
    """软缺 / 硬缺 / 草一色 / 清一色 / 全字全腰: one at most, by the suits present and honors."""
    suits = len(suits_present(tiles))
    honors = any(is_honor(tile) for tile in tiles)
    if suits == 0:
        return "全字全腰"
    if suits == 1:
        return "草一色" if honors else "清一色"
    if suits == 2:
        return "软缺" if honors else "硬缺"
    return None


def _wind_items(triplets: list[Tile], ctx: WinContext) -> list[str]:
    seat_wind, round_wind = WINDS[ctx.seat_wind], WINDS[ctx.round_wind]
    names = []
    for tile in triplets:
        if tile == seat_wind == round_wind:
            names.append("门圈风")
        elif tile == seat_wind:
            names.append("门风")
        elif tile == round_wind:
            names.append("圈风")
        elif tile in DRAGONS:
            names.append("中发白坎")
    return names


def _has_straight(chows: list[Tile]) -> bool:
    return any({base, base + 3, base + 6} <= set(chows) for base in (0, 9, 18))


def _baobuda(facts: WinFacts) -> FanEntry | None:
    """Item 22: 24 for the dealer's dealt win (QJ-11); else a declared 报不打, 14 for the dealer's 下家."""
    ctx = facts.ctx
    if ctx.first_turn and ctx.winner == ctx.dealer and ctx.self_drawn:
        return entry("报不打", value=BAOBUDA_DEALT_WIN)
    if facts.baobuda:
        next_seat = ctx.winner == (ctx.dealer + 1) % 4
        return entry("报不打", value=BAOBUDA_NEXT_SEAT if next_seat else ITEMS["报不打"].value)
    return None


def reading_fans(reading: Reading, hand: Hand, facts: WinFacts) -> list[FanEntry]:
    """The items that apply to one reading of a winning hand."""
    ctx = facts.ctx
    tiles = tiles_of(reading.counts)
    triplets, chows = reading.triplets, reading.chows
    claimed = [s for s in reading.sets if s.claimed]
    names: list[str] = []
    if not triplets and _two_sided(reading, hand.win_tile):  # type: ignore[arg-type]
        names.append("平胡")
    if not claimed:
        names.append("不下")
    if len(claimed) == 4 and not ctx.self_drawn:
        names.append("全求人")
    pairs_of_chows = sum(n // 2 for n in Counter(chows).values())
    names += ["一般高"] * pairs_of_chows
    if ctx.robbing_kong:
        names.append("抢杠成")
    if ctx.after_kong and ctx.self_drawn:
        names.append("杠后开花")
    if facts.last_two_tiles:
        names.append("海底捞月")
    names += ["四玉"] * sum(1 for n in reading.counts if n == 4)
    names += _wind_items(triplets, ctx)
    suit_item = _suit_item(tiles)
    all_pungs = len(triplets) == 4
    if all_pungs:
        names.append("对对胡")
    if suit_item is not None:
        names.append(suit_item)
    if suit_item != "全字全腰" and all_pungs and all(is_terminal(tile) or is_honor(tile) for tile in tiles):
        names.append("全腰")  # QJ-10: all sets and the pair 1/9 or honors, with a number tile
    if _has_straight(chows):
        names.append("一条龙")
    if sum(1 for tile in triplets if tile in WINDS) >= 3:
        names.append("三季风")
    if all(dragon in triplets for dragon in DRAGONS):
        names.append("三渣元")
    fans = [entry(name, count) for name, count in Counter(names).items()]
    special = _baobuda(facts)
    return fans if special is None else [*fans, special]


def fan_total(fans: list[FanEntry]) -> int:
    return sum(int(fan.points or 0) * fan.count for fan in fans)
