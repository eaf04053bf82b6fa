"""The fans of a winning hand: every reading scored, the best one kept (summerinsects' order and tie-breaks).

``HandSummary`` gathers once per hand what every reading needs (packs of the melds, tile fans, situation fans,
whether the wait is unique); ``reading_fans`` scores one 4 sets + pair reading on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.notation import Hand
from engine.rulesets.mcr.chows import chow_fans, terminal_chows_fan
from engine.rulesets.mcr.codes import CODE_OF, WINDS, Code, E
from engine.rulesets.mcr.divisions import Reading, readings
from engine.rulesets.mcr.exclusions import apply_exclusions
from engine.rulesets.mcr.fans import (
    ALL_CHOWS,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_TERMINALS_AND_HONORS,
    BIG_FOUR_WINDS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CONCEALED_HAND,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FULLY_CONCEALED_HAND,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    MELDED_HAND,
    POINTS,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    SEAT_WIND,
    SELF_DRAWN,
    SEVEN_PAIRS,
    TILE_HOG,
    TRIPLE_PUNG,
    TWO_DRAGONS_PUNGS,
)
from engine.rulesets.mcr.knitted import knitted_straight_fans
from engine.rulesets.mcr.packs import CHOW, KONG, PAIR, PUNG, Pack, pack_of_meld
from engine.rulesets.mcr.pungs import kong_fans, pung_fans, single_pung_fan
from engine.rulesets.mcr.situation import WinFlags, corrected_flags, flag_fans
from engine.rulesets.mcr.special import honors_and_knitted, nine_gates, seven_pairs_family, thirteen_orphans
from engine.rulesets.mcr.traits import pack_trait_fan, tile_fans
from engine.rulesets.mcr.waiting import wait_tiles, waiting_form_fan

Fans = dict[int, int]


@dataclass(frozen=True)
class ScoringOptions:
    """The rule readings where the references differ (defaults = PyMahjongGB 1.4.0)."""

    infer_last_tile: bool = True
    """和绝张 when the winner's own melds hold the other three copies."""
    knitted_body_waits: bool = True
    """A winning tile inside the knitted straight may score 边张/嵌张/单钓 (MIL offline reading)."""
    exhausted_waits: bool = True
    """A wait on a tile the hand already holds four times still counts (a "formal" multi-wait: no 独听)."""


class HandSummary:
    """What every reading of one hand shares; the unique-wait test runs only if a reading asks for it."""

    __slots__ = (
        "_exhausted",
        "_rest",
        "_unique",
        "fixed",
        "fours",
        "held",
        "melded_count",
        "prevalent_wind",
        "seat_wind",
        "self_drawn",
        "situation_fans",
        "tile_fans",
        "win_tile",
    )

    def __init__(
        self,
        fixed: tuple[Pack, ...],
        win_tile: Code,
        held: dict[Code, int],
        flags: WinFlags,
        winds: tuple[int, int],
        rest: list[int],
        exhausted_waits: bool,
    ) -> None:
        self.fixed = fixed
        self.melded_count = sum(1 for pack in fixed if pack.melded)
        self.win_tile = win_tile
        self.self_drawn = flags.self_drawn
        self.held = held
        """Every tile of the hand (melds, standing tiles, winning tile) by code."""
        self.fours = sum(1 for n in held.values() if n == 4)
        """Kinds held four times (四归一 unless they are a kong)."""
        self.tile_fans = tile_fans(frozenset(held))
        self.situation_fans = flag_fans(flags)
        self.prevalent_wind = E + winds[0]
        self.seat_wind = E + winds[1]
        self._rest = rest
        self._exhausted = exhausted_waits
        self._unique: bool | None = None

    @property
    def unique_wait(self) -> bool:
        """Whether the concealed tiles without the winning tile wait on one tile only."""
        if self._unique is None:
            self._unique = _unique_wait(self._rest, self.held, self.win_tile, self._exhausted)
        return self._unique


def total(fans: Fans) -> int:
    return sum(POINTS[fan] * count for fan, count in fans.items())


def _wind_fans(pungs: Sequence[Code], summary: HandSummary, fans: Fans) -> None:
    """圈风刻 / 门风刻 replace the 幺九刻 of their pung, unless a bigger fan already absorbed it."""
    if BIG_FOUR_WINDS in fans:
        return
    absorbed = (
        BIG_THREE_WINDS in fans or ALL_TERMINALS_AND_HONORS in fans or ALL_HONORS in fans or LITTLE_FOUR_WINDS in fans
    )
    for tile in pungs:
        if tile not in WINDS:
            continue
        deduct = 0
        if tile == summary.prevalent_wind:
            fans[PREVALENT_WIND] = 1
            deduct = 1
        if tile == summary.seat_wind:
            fans[SEAT_WIND] = 1
            deduct = 1
        if deduct and not absorbed:
            left = fans.get(PUNG_OF_TERMINALS_OR_HONORS, 0) - 1
            if left > 0:
                fans[PUNG_OF_TERMINALS_OR_HONORS] = left
            else:
                fans.pop(PUNG_OF_TERMINALS_OR_HONORS, None)


def _finish(fans: Fans, pungs: Sequence[Code], summary: HandSummary) -> Fans:
    apply_exclusions(fans)
    _wind_fans(pungs, summary, fans)
    if not fans:
        fans[CHICKEN_HAND] = 1
    return fans


def reading_fans(summary: HandSummary, reading: Reading) -> Fans:
    """The fans of one 4 sets + pair reading."""
    concealed_sets, pair = reading
    sets = summary.fixed + concealed_sets
    win = summary.win_tile
    fans = dict(summary.situation_fans)
    chows: list[Code] = []
    pungs: list[Code] = []
    concealed_pungs = melded_kongs = concealed_kongs = 0
    claimed_pung = not summary.self_drawn  # a claimed winning tile in no concealed chow completes an exposed pung
    for pack in sets:
        kind = pack.kind
        if kind == CHOW:
            chows.append(pack.tile)
            if claimed_pung and not pack.melded and pack.tile - 1 <= win <= pack.tile + 1:
                claimed_pung = False
        else:
            pungs.append(pack.tile)
            if kind == PUNG:
                concealed_pungs += not pack.melded
            elif pack.melded:
                melded_kongs += 1
            else:
                concealed_kongs += 1
    if claimed_pung:
        concealed_pungs -= sum(1 for pack in concealed_sets if pack.kind == PUNG and pack.tile == win)
    chows.sort()
    pungs.sort()
    if pungs:
        kong_fans(concealed_pungs, melded_kongs, concealed_kongs, fans)
        if len(pungs) == 4 and FOUR_KONGS not in fans and FOUR_CONCEALED_PUNGS not in fans:
            fans[ALL_PUNGS] = 1
    fans.update(shape_fans(tuple(chows), tuple(pungs), pair.tile))
    _concealment_fans(summary, fans)
    fans.update(summary.tile_fans)
    if QUADRUPLE_CHOW not in fans:
        hogs = summary.fours - melded_kongs - concealed_kongs
        if hogs:
            fans[TILE_HOG] = hogs
    if MELDED_HAND not in fans and FOUR_KONGS not in fans:
        fan = waiting_form_fan((*concealed_sets, pair), win)
        if fan is not None and summary.unique_wait:
            fans[fan] = 1
    return _finish(fans, pungs, summary)


@lru_cache(maxsize=1 << 14)
def shape_fans(chows: tuple[Code, ...], pungs: tuple[Code, ...], pair: Code) -> tuple[tuple[int, int], ...]:
    """The fans of a reading's shape alone (sorted chow middles, sorted pung/kong tiles, pair): single pungs,
    chow and pung patterns, the pair's fans, 全带幺/全带五/全双刻. Shapes repeat across hands, so this is cached."""
    fans: Fans = {}
    for tile in pungs:
        fan = single_pung_fan(tile)
        if fan is not None:
            fans[fan] = fans.get(fan, 0) + 1
    terminal = terminal_chows_fan(list(chows), pair) if len(chows) == 4 else None
    if terminal is not None:
        fans[terminal] = 1
    else:
        chow_fans(list(chows), fans)
        pung_fans(list(pungs), fans)
    _pair_fans(pair, len(chows), fans)
    trait = pack_trait_fan(
        [Pack(CHOW, tile) for tile in chows] + [Pack(PUNG, tile) for tile in pungs] + [Pack(PAIR, pair)]
    )
    if trait is not None:
        fans[trait] = 1
    return tuple(fans.items())


def _concealment_fans(summary: HandSummary, fans: Fans) -> None:
    """门前清 / 不求人 with no exposed meld, 全求人 with four on a discard, 自摸 otherwise when self-drawn."""
    if summary.melded_count == 0:
        fans[FULLY_CONCEALED_HAND if summary.self_drawn else CONCEALED_HAND] = 1
    elif summary.melded_count == 4 and not summary.self_drawn:
        fans[MELDED_HAND] = 1
    elif summary.self_drawn:
        fans[SELF_DRAWN] = 1


def _pair_fans(pair: Code, chow_count: int, fans: Fans) -> None:
    """平和 (four chows, a suited pair); a dragon pair turns 双箭刻 into 小三元, a wind pair 三风刻 into 小四喜."""
    if chow_count == 4:
        if pair < 0x40:
            fans[ALL_CHOWS] = 1
    elif TWO_DRAGONS_PUNGS in fans:
        if pair >= 0x45:
            fans[LITTLE_THREE_DRAGONS] = 1
            del fans[TWO_DRAGONS_PUNGS]
    elif BIG_THREE_WINDS in fans and pair in WINDS:
        fans[LITTLE_FOUR_WINDS] = 1
        del fans[BIG_THREE_WINDS]


def _unique_wait(counts: Sequence[int], summary_held: dict[Code, int], win: Code, exhausted: bool) -> bool:
    """Whether the concealed tiles without the winning tile wait on exactly one tile; ``exhausted`` = a wait
    on a tile the hand holds four times still counts."""
    found = wait_tiles(counts, sum(counts) == 13)
    if not exhausted:
        found = {tile for tile in found if CODE_OF[tile] == win or summary_held.get(CODE_OF[tile], 0) < 4}
    return len(found) == 1


def hand_fans(
    hand: Hand, flags: WinFlags, winds: tuple[int, int], options: ScoringOptions
) -> tuple[tuple[int, int], ...] | None:
    """(fan, count) of the best reading of a complete hand (flowers not included), or None when it is no win.

    ``hand.standing`` and ``hand.win_tile`` are the concealed tiles; ``winds`` = (prevalent, seat), 0-3 = E S W N."""
    fixed = tuple(pack_of_meld(meld) for meld in hand.melds)
    win_id = hand.win_tile
    assert win_id is not None
    tiles = (*hand.standing, win_id)
    counts = [0] * 34
    for tile in tiles:
        counts[tile] += 1
    concealed = {CODE_OF[tile]: counts[tile] for tile in set(tiles)}
    win = CODE_OF[win_id]
    held = dict(concealed)
    for meld in hand.melds:
        for tile in meld.tiles:
            code = CODE_OF[tile]
            held[code] = held.get(code, 0) + 1
    flags = corrected_flags(
        flags,
        win_in_standing=concealed[win],
        win_in_melds=held[win] - concealed[win],
        has_kong=any(pack.kind == KONG for pack in fixed),
        infer_last_tile=options.infer_last_tile,
    )
    rest = list(counts)
    rest[win_id] -= 1
    summary = HandSummary(fixed, win, held, flags, winds, rest, options.exhausted_waits)
    special = _special_fans(summary, counts, concealed, options) if len(fixed) <= 1 else None
    if special is not None and SEVEN_PAIRS not in special:
        return tuple(special.items())
    best, best_total = special, total(special) if special else 0
    for reading in readings(counts):
        fans = reading_fans(summary, reading)
        points = total(fans)
        if points > best_total or (
            points == best_total
            and (fans.get(PURE_TRIPLE_CHOW) == 1 or TRIPLE_PUNG in fans or (special and SEVEN_PAIRS in special))
        ):
            best, best_total = fans, points
    return None if best is None else tuple(best.items())


def _special_fans(
    summary: HandSummary, counts: list[int], concealed: dict[Code, int], options: ScoringOptions
) -> Fans | None:
    """The special forms, in summerinsects' order: seven pairs, honors and knitted, thirteen orphans, knitted
    straight, nine gates (only the knitted straight admits an exposed meld)."""
    win = summary.win_tile
    if not summary.fixed:
        fans = seven_pairs_family(concealed, win)
        if fans is not None and SEVEN_PAIRS in fans:
            fans.update(summary.tile_fans)
            hogs = sum(1 for n in concealed.values() if n == 4)
            if hogs:
                fans[TILE_HOG] = hogs
        kinds = frozenset(concealed)
        fans = fans or honors_and_knitted(kinds) or thirteen_orphans(kinds)
        if fans is not None:
            fans.update(summary.situation_fans)
            apply_exclusions(fans)
            return fans
    knitted = knitted_straight_fans(
        counts,
        summary.fixed,
        summary.held,
        win,
        summary.self_drawn,
        lambda rest: _unique_wait(rest, summary.held, win, options.exhausted_waits),
        options.knitted_body_waits,
    )
    if knitted is not None:
        fans, fourth = knitted
        fans.update(summary.situation_fans)
        return _finish(fans, (fourth.tile,) if fourth.kind != CHOW else (), summary)
    if not summary.fixed:
        fans = nine_gates(concealed, win)
        if fans is not None:
            fans.update(summary.situation_fans)
            apply_exclusions(fans)
            return fans
    return None
