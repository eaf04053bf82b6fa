"""Seating (rules-B §2.3): choosing winds for the first 局 and reseating between 局.

Players are identified by any hashable id; a *seating* is the tuple of player ids by seat 0-3 in play order
(fan.md §0). Winds are 0-3 = 东 南 西 北; a player who takes wind ``w`` sits at seat ``w`` of the new 局, since
seats run E, S, W, N in play order from the 东 seat (rules-B §9.1, the standard reading).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.procedure.dice import SEATS, Dice, check_dice, check_seat, dice_seat, throw_dice
from engine.procedure.errors import ProcedureError

TieRule = Literal["rethrow", "first_thrower"]
WindOrder = Literal["ESWN", "ENWS"]
Direction = Literal["ccw", "cw"]

WIND_ORDERS: dict[str, tuple[int, ...]] = {"ESWN": (0, 1, 2, 3), "ENWS": (0, 3, 2, 1)}
"""Wind given to the 1st..4th ranked thrower: 东南西北 or 东北西南 (rules-B §2.3 (1))."""

MAX_RETHROWS = 100
"""A tie still unresolved after this many rethrows means the dice source is broken (it repeats forever)."""


@dataclass(frozen=True)
class Throw:
    """One throw of the seating ceremony, kept so the controller can journal and replay it."""

    player: int
    dice: Dice


@dataclass(frozen=True)
class DiceSeating:
    """Result of 掷骰法: every throw in the order thrown (rethrows included), and ``winds[player]``."""

    throws: tuple[Throw, ...]
    winds: tuple[int, ...]


def _thrower(source: random.Random | Callable[[int], Dice]) -> Callable[[int], Dice]:
    if isinstance(source, random.Random):
        return lambda _player: throw_dice(source)
    return source


def seat_by_dice(
    source: random.Random | Callable[[int], Dice], *, ties: TieRule = "rethrow", order: WindOrder = "ESWN"
) -> DiceSeating:
    """掷骰法 (rules-B §2.3 (1)): players 0-3 throw in that order; the highest total takes 东, and so on.

    ``source`` is a ``random.Random`` or a function ``player -> dice`` (observed physical dice). Ties: the
    source allows both "rethrow" (default: the tied players throw again among themselves, recursively) and
    "first_thrower" (the player who threw first ranks higher). ``order`` picks 东南西北 or 东北西南.
    """
    if ties not in ("rethrow", "first_thrower"):
        raise ProcedureError(f"ties: expected 'rethrow' or 'first_thrower', got {ties!r}")
    if order not in WIND_ORDERS:
        raise ProcedureError(f"order: expected one of {', '.join(WIND_ORDERS)}, got {order!r}")
    throw = _thrower(source)
    throws: list[Throw] = []

    def rank(players: list[int], depth: int) -> list[int]:
        if depth > MAX_RETHROWS:
            raise ProcedureError(f"seating: players {players} still tie after {MAX_RETHROWS} rethrows")
        totals = {}
        for player in players:
            dice = check_dice(throw(player), f"dice of player {player}")
            throws.append(Throw(player, dice))
            totals[player] = sum(dice)
        ranked: list[int] = []
        for total in sorted(set(totals.values()), reverse=True):
            group = [player for player in players if totals[player] == total]
            ranked += rank(group, depth + 1) if len(group) > 1 and ties == "rethrow" else group
        return ranked

    winds = [0] * SEATS
    for place, player in enumerate(rank(list(range(SEATS)), 0)):
        winds[player] = WIND_ORDERS[order][place]
    return DiceSeating(tuple(throws), tuple(winds))


def seat_by_wind_draw(rng: random.Random) -> tuple[int, ...]:
    """摸风法 (rules-B §2.3 (2)): the four winds face down and shuffled; player ``i`` takes the ``i``-th.

    Returns ``winds[player]``.
    """
    winds = list(range(SEATS))
    rng.shuffle(winds)
    return tuple(winds)


def _check_seating(seating: Sequence[Hashable]) -> None:
    if len(seating) != SEATS or len(set(seating)) != SEATS:
        raise ProcedureError(f"seating: expected four distinct players by seat, got {list(seating)!r}")


def _step(direction: Direction) -> int:
    if direction not in ("ccw", "cw"):
        raise ProcedureError(f"direction: expected 'ccw' or 'cw', got {direction!r}")
    return 1 if direction == "ccw" else SEATS - 1


def reseat_by_winner_dice(
    seating: Sequence[Hashable], winner_seat: int, total: int, direction: Direction = "ccw"
) -> tuple[Hashable, ...]:
    """胜家掷骰法 (rules-B §2.3): the last winner throws; the player the total points to stays put and the
    other three each move one seat along, skipping the kept seat.

    The source allows both directions (its examples show one each) and does not tie the direction to the
    dice, so it is a parameter: "ccw" (default, the direction of play) or "cw". Returns players by new seat.
    """
    _check_seating(seating)
    step = _step(direction)
    stay = dice_seat(check_seat(winner_seat, "winner_seat"), total)
    moved: list[Hashable] = list(seating)
    for seat in range(SEATS):
        if seat != stay:
            target = (seat + step) % SEATS
            if target == stay:
                target = (target + step) % SEATS
            moved[target] = seating[seat]
    return tuple(moved)


def reseat_by_wind_stack(
    seating: Sequence[Hashable],
    winner_seat: int,
    total: int,
    wind_stack: Sequence[int],
    direction: Direction = "ccw",
) -> tuple[Hashable, ...]:
    """掷骰选风法 (rules-B §2.3): the last winner throws; the player pointed to takes the top wind of
    ``wind_stack`` (winds 0-3, top first), the others the next ones in ``direction`` order from him; everyone
    sits at the wind taken. Returns players by new seat (= wind).

    A stack that would leave every player's neighbours unchanged is refused: the source forbids it
    ("东不离西", "南不离北").
    """
    _check_seating(seating)
    if sorted(wind_stack) != list(range(SEATS)):
        raise ProcedureError(f"wind_stack: expected the four winds 0-3 in some order, got {list(wind_stack)!r}")
    step = _step(direction)
    first = dice_seat(check_seat(winner_seat, "winner_seat"), total)
    moved: list[Hashable] = list(seating)
    for k, wind in enumerate(wind_stack):
        moved[wind] = seating[(first + k * step) % SEATS]
    if any(all(moved[i] == seating[(i + r) % SEATS] for i in range(SEATS)) for r in range(SEATS)):
        raise ProcedureError(
            f"wind_stack: {list(wind_stack)!r} taken {direction} keeps every player's neighbours; "
            "stack 东 next to 西 (rules-B §2.3 东不离西)"
        )
    return tuple(moved)
