"""Table procedure (rules-B §1-2): dice, seating, the physical walls, breaking, the live wall, dealing,
replacement draws. Pure and deterministic: randomness only from a passed-in ``random.Random``."""

from engine.procedure.breaking import METHODS, Method, WallBreak, break_wall
from engine.procedure.dealing import FlowerOrder, Hands, deal, deal_marked, play_order, replace_flowers
from engine.procedure.dice import Dice, check_dice, dice_seat, throw_dice
from engine.procedure.errors import ProcedureError, WallExhausted
from engine.procedure.hand import IndicatorWhen, NewHand, new_hand
from engine.procedure.layout import Position, StackRef, Tier, WallLayout
from engine.procedure.seating import (
    DiceSeating,
    Throw,
    reseat_by_wind_stack,
    reseat_by_winner_dice,
    seat_by_dice,
    seat_by_wind_draw,
)
from engine.procedure.wall import (
    IndicatorAt,
    Removal,
    ReserveMode,
    Source,
    TailOrder,
    Wall,
    WallState,
    draw,
    draw_replacement,
    flip_indicator,
    new_wall_state,
)

__all__ = [
    "METHODS",
    "Dice",
    "DiceSeating",
    "FlowerOrder",
    "Hands",
    "IndicatorAt",
    "IndicatorWhen",
    "Method",
    "NewHand",
    "Position",
    "ProcedureError",
    "Removal",
    "ReserveMode",
    "Source",
    "StackRef",
    "TailOrder",
    "Throw",
    "Tier",
    "Wall",
    "WallBreak",
    "WallExhausted",
    "WallLayout",
    "WallState",
    "break_wall",
    "check_dice",
    "deal",
    "deal_marked",
    "dice_seat",
    "draw",
    "draw_replacement",
    "flip_indicator",
    "new_hand",
    "new_wall_state",
    "play_order",
    "replace_flowers",
    "reseat_by_wind_stack",
    "reseat_by_winner_dice",
    "seat_by_dice",
    "seat_by_wind_draw",
    "throw_dice",
]
