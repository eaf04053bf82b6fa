"""The winning situation: which flags hold once checked against the tiles, and the fans they give
(和绝张, 妙手回春, 海底捞月, 杠上开花, 抢杠和, 自摸)."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from engine.rulesets.mcr.fans import (
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    OUT_WITH_REPLACEMENT_TILE,
    ROBBING_THE_KONG,
    SELF_DRAWN,
)

Fans = dict[int, int]


class WinFlags(NamedTuple):
    self_drawn: bool
    last_tile: bool
    """和绝张: the winning tile is the last copy not yet seen."""
    wall_last: bool
    """The last tile of the wall (妙手回春 drawn, 海底捞月 claimed)."""
    kong: bool
    """杠上开花 when self-drawn, 抢杠和 on a discard."""


def corrected_flags(
    flags: WinFlags, *, win_in_standing: int, win_in_melds: int, has_kong: bool, infer_last_tile: bool
) -> WinFlags:
    """Flags the tiles contradict are dropped, and 和绝张 is inferred when the winner's own melds show the
    other three copies (``infer_last_tile``, PyMahjongGB). ``win_in_standing`` counts the winning tile too."""
    last_tile = flags.last_tile and win_in_standing == 1
    if infer_last_tile and win_in_melds == 3:
        last_tile = True
    kong = flags.kong
    if kong and flags.self_drawn:
        kong = has_kong  # no kong declared: no replacement tile
    elif kong:
        kong = win_in_melds == 0 and win_in_standing == 1  # a robbed kong's tile is nowhere else in the hand
    return WinFlags(flags.self_drawn, last_tile, flags.wall_last, kong)


@cache
def situation_fans(
    flags: WinFlags, win_in_standing: int, win_in_melds: int, has_kong: bool, infer_last_tile: bool
) -> tuple[tuple[int, int], ...]:
    """``flag_fans`` of the ``corrected_flags``, cached by their arguments: one lookup a hand."""
    return flag_fans(
        corrected_flags(
            flags,
            win_in_standing=win_in_standing,
            win_in_melds=win_in_melds,
            has_kong=has_kong,
            infer_last_tile=infer_last_tile,
        )
    )


@cache
def flag_fans(flags: WinFlags) -> tuple[tuple[int, int], ...]:
    """(fan, count) of the situation: 妙手回春 and 杠上开花 replace 自摸; 抢杠和 replaces 和绝张."""
    fans: Fans = {}
    if flags.self_drawn:
        if flags.wall_last:
            fans[LAST_TILE_DRAW] = 1
        if flags.kong:
            fans[OUT_WITH_REPLACEMENT_TILE] = 1
        if not fans:
            fans[SELF_DRAWN] = 1
    else:
        if flags.wall_last:
            fans[LAST_TILE_CLAIM] = 1
        if flags.kong:
            fans[ROBBING_THE_KONG] = 1
    if flags.last_tile and not (flags.kong and not flags.self_drawn):
        fans[LAST_TILE] = 1
    return tuple(fans.items())
