"""Dice (rules-B §1.3, §2.2): two dice, their validation, throwing with a passed-in random source, sum → seat."""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.errors import quoted
from engine.procedure.errors import ProcedureError

Dice = tuple[int, int]
"""The two dice of one throw (rules-B §1.3: "normally two, used together")."""

SEATS = 4


def check_seat(seat: object, field: str = "seat") -> int:
    """Return ``seat`` when it is a seat number 0-3, else raise ``ProcedureError`` naming ``field``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise ProcedureError(f"{field}: expected a seat 0-3, got {quoted(seat)}")
    return seat


def check_dice(dice: object, field: str = "dice") -> Dice:
    """Return ``dice`` as a tuple when it holds exactly two values 1-6, else raise ``ProcedureError``."""
    if not isinstance(dice, Sequence) or isinstance(dice, str) or len(dice) != 2:
        raise ProcedureError(f"{field}: expected two dice such as [3, 5], got {quoted(dice)}")
    for number, value in enumerate(dice, 1):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise ProcedureError(f"{field}: die {number} shows {quoted(value)}, a die shows 1-6")
    return (dice[0], dice[1])


def throw_dice(rng: random.Random) -> Dice:
    """One throw of two dice; the only randomness comes from ``rng``."""
    return (rng.randint(1, 6), rng.randint(1, 6))


def dice_seat(thrower: int, total: int) -> int:
    """The seat a count points to, counted from the thrower in play order (rules-B §2.2, fan.md §1.1).

    5/9 → the thrower, 2/6/10 → 下家, 3/7/11 → 对家, 4/8/12 → 上家: ``(thrower + total - 1) % 4``. Any count
    from 1 is accepted, since the same counting serves two-dice sums, wall counts and tile ranks (Changsha birds).
    """
    check_seat(thrower, "thrower")
    if isinstance(total, bool) or not isinstance(total, int) or total < 1:
        raise ProcedureError(f"total: expected a count of at least 1, got {quoted(total)}")
    return (thrower + total - 1) % SEATS
