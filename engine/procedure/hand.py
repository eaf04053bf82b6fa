"""One hand's set-up from a seed: shuffle, build, throw, break, deal, replace flowers, flip an indicator."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from engine.procedure.breaking import TWO_THROW_METHODS, Method, WallBreak, break_wall
from engine.procedure.dealing import FlowerOrder, Hands, deal_marked, replace_flowers
from engine.procedure.dice import Dice, check_dice, throw_dice
from engine.procedure.errors import ProcedureError
from engine.procedure.layout import WallLayout
from engine.procedure.wall import IndicatorAt, ReserveMode, TailOrder, Wall
from engine.tiles import FLOWERS, Tile
from engine.tilesets import TileSet

IndicatorWhen = Literal["before_deal", "after_deal"]


@dataclass
class NewHand:
    """A dealt hand: the dice as thrown, the break, the hands by seat, the flowers set aside by seat, the
    flipped indicator (``None`` when the ruleset flips none) and the wall, ready for the dealer's turn; ``marked``
    are the marked copies (red fives) dealt to each seat."""

    dealer: int
    dice: Dice
    dice2: Dice | None
    wall_break: WallBreak
    hands: Hands
    flowers: list[list[Tile]]
    indicator: Tile | None
    wall: Wall
    marked: list[list[Tile]]


def _rng(rng_or_seed: random.Random | int) -> random.Random:
    if isinstance(rng_or_seed, random.Random):
        return rng_or_seed
    if isinstance(rng_or_seed, bool) or not isinstance(rng_or_seed, int):
        raise ProcedureError(f"seed: expected an integer or a random.Random, got {rng_or_seed!r}")
    return random.Random(rng_or_seed)


def new_hand(
    tile_set: TileSet,
    rng_or_seed: random.Random | int,
    dealer: int,
    dice: Dice | None = None,
    dice2: Dice | None = None,
    method: Method = "two_throws",
    reserved: int = 0,
    *,
    layout: WallLayout | None = None,
    tail_order: TailOrder = "top_first",
    reserve_mode: ReserveMode = "fixed",
    indicator_at: IndicatorAt | None = None,
    indicator_when: IndicatorWhen = "after_deal",
    flower_order: FlowerOrder = "per_player",
) -> NewHand:
    """Set up one hand; the same seed and arguments give the same hand.

    The random source is used in a fixed order: the shuffle, then the dice, then the second throw, each
    only when not given. ``method`` defaults to two throws (rules-B §2.8: "fairer, used more in
    competitions"). Flowers are replaced when the set has any (rules-B §2.10). The indicator, when the
    ruleset flips one, is flipped at ``indicator_at`` either before the deal (Guangdong) or after the deal
    and the flower replacements (Hubei, Harbin).
    """
    if indicator_when not in ("before_deal", "after_deal"):
        raise ProcedureError(f"indicator_when: expected 'before_deal' or 'after_deal', got {indicator_when!r}")
    rng = _rng(rng_or_seed)
    # The physical tiles are shuffled (the same draws from ``rng`` as shuffling their faces), so that a marked copy
    # keeps its identity.
    physical = list(range(tile_set.size))
    rng.shuffle(physical)
    unpacked = tile_set.tiles()
    tiles = [unpacked[tile] for tile in physical]
    marked = [address for address, tile in enumerate(physical) if tile in tile_set.marked_ids]
    dice = check_dice(dice, "dice") if dice is not None else throw_dice(rng)
    if dice2 is not None:
        dice2 = check_dice(dice2, "dice2")
    elif method in TWO_THROW_METHODS:
        dice2 = throw_dice(rng)
    layout = layout or WallLayout.for_size(tile_set.size)
    wall_break = break_wall(dealer, dice, dice2, method, stacks_per_wall=layout.stack_counts)
    wall = Wall.build(tiles, wall_break, layout, reserved, tail_order, reserve_mode, marked)
    indicator = None
    if indicator_at is not None and indicator_when == "before_deal":
        indicator = wall.flip_indicator(indicator_at)
    hands, dealt_marked = deal_marked(wall, dealer)
    has_flowers = any(tile_set.copies[tile] for tile in FLOWERS)
    flowers = replace_flowers(wall, hands, dealer, order=flower_order) if has_flowers else [[] for _ in hands]
    if indicator_at is not None and indicator_when == "after_deal":
        indicator = wall.flip_indicator(indicator_at)
    return NewHand(dealer, dice, dice2, wall_break, hands, flowers, indicator, wall, dealt_marked)
