"""Changsha wins (108.md CS-3, CS-5): the 大胡 a declared hand holds, or a 小胡 with its 2-5-8 pair.

A 小胡 needs 4 sets + pair with a 2, 5 or 8 pair (将). Any 大胡 lifts the pair condition, but a winning shape is
still needed: 4 sets + pair, seven pairs, or 将将胡 (every tile a 2, 5 or 8, no shape needed). Of several readings
the one with the most 大胡 is scored (DECISION ALL-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.notation import Hand
from engine.rulesets.suited108 import RANKS_258, Reading, all_ranks_in, four_of_a_kinds, suits_held
from engine.tiles import rank_of

if TYPE_CHECKING:
    from engine.rulesets.base import WinContext

SMALL = "小胡 small win"
ALL_PUNGS = "碰碰胡 all pungs"
ALL_258 = "将将胡 all 2-5-8"
FLUSH = "清一色 full flush"
SEVEN_PAIRS = "七小对 seven pairs"
LUXURY_PAIRS = "豪华七小对 luxury seven pairs"
ALL_MELDED = "全求人 all melded"
KONG_BLOOM = "杠上开花 win on a kong"
KONG_DISCARD = "杠上炮 win on a kong discard"
ROBBING = "抢杠胡 robbing the kong"
LAST_DRAW = "海底捞月 last-tile self-draw"
LAST_DISCARD = "海底炮 last-discard win"
HEAVENLY = "天胡 heavenly win"
EARTHLY = "地胡 earthly win"


def _shape_hands(reading: Reading, counts: Sequence[int], hand: Hand, ctx: WinContext) -> list[tuple[str, int]]:
    """The 大胡 that depend on the reading, each with its count."""
    found = []
    if reading.all_pungs:
        found.append((ALL_PUNGS, 1))
    if len(suits_held(counts)) == 1:
        found.append((FLUSH, 1))
    if reading.form == "seven_pairs":
        quads = four_of_a_kinds(counts)
        found.append((LUXURY_PAIRS, quads + 1) if quads else (SEVEN_PAIRS, 1))
    if reading.form == "standard" and len(hand.melds) == 4 and not ctx.self_drawn:
        found.append((ALL_MELDED, 1))
    return found


def situational_hands(ctx: WinContext) -> list[tuple[str, int]]:
    """The 大胡 of the situation (kong, robbing, last tile, first turn)."""
    discard = not ctx.self_drawn
    applies = (
        (KONG_BLOOM, ctx.after_kong and ctx.self_drawn),
        (KONG_DISCARD, discard and not ctx.robbing_kong and bool(ctx.extra.get("discarder_after_kong"))),
        (ROBBING, ctx.robbing_kong),
        (LAST_DRAW, ctx.last_tile and ctx.self_drawn),
        (LAST_DISCARD, ctx.last_tile and discard and not ctx.robbing_kong),
        (HEAVENLY, ctx.first_turn and ctx.self_drawn and ctx.winner == ctx.dealer),
        (EARTHLY, ctx.first_turn and discard and ctx.discarder == ctx.dealer),
    )
    return [(name, 1) for name, holds in applies if holds]


def big_hands(found: Sequence[Reading], counts: Sequence[int], hand: Hand, ctx: WinContext) -> list[tuple[str, int]]:
    """Every 大胡 of the best reading; ``[]`` = none (a 小胡 if the pair allows it)."""
    common = situational_hands(ctx)
    if all_ranks_in(counts, RANKS_258):
        common.append((ALL_258, 1))
    best: list[tuple[str, int]] = []
    for reading in found:
        shaped = _shape_hands(reading, counts, hand, ctx)
        if sum(n for _, n in shaped) > sum(n for _, n in best):
            best = shaped
    return best + common


def small_win(found: Sequence[Reading]) -> bool:
    """CS-3: 4 sets + pair with a 2-5-8 pair."""
    return any(reading.form == "standard" and rank_of(reading.pair) in RANKS_258 for reading in found)  # type: ignore[arg-type]
