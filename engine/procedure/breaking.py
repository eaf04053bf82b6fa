"""Breaking the wall (开牌, rules-B §2.8; fan.md §1.2): where the count ends and where taking starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.procedure.dice import Dice, check_dice, check_seat, dice_seat
from engine.procedure.errors import ProcedureError
from engine.procedure.layout import StackRef, check_stack_counts, next_stack

Method = Literal["one_throw", "two_throws", "two_throws_second_sum", "sum"]
METHODS: tuple[str, ...] = ("one_throw", "two_throws", "two_throws_second_sum", "sum")
TWO_THROW_METHODS: tuple[str, ...] = ("two_throws", "two_throws_second_sum")


def second_thrower(method: str, dealer: int, dice: Sequence[int]) -> int | None:
    """Who throws the dice again after the dealer's ``dice`` (rules-B §2.8 method 1: the seat the first sum points
    to, the dealer himself on 5 or 9), or ``None`` when ``method`` breaks the wall on one throw."""
    if method not in TWO_THROW_METHODS:
        return None
    return dice_seat(dealer, sum(check_dice(dice, "dice")))


@dataclass(frozen=True)
class WallBreak:
    """The answer of fan.md's ``wall_break`` query: the wall counting starts on, the count, the stack the
    count ends on (``break_``: the 切口 is after it) and the stack taking starts with (``first_take``)."""

    start_wall_of_seat: int
    count: int
    break_: StackRef
    first_take: StackRef

    def to_dict(self) -> dict[str, Any]:
        return {
            "start_wall_of_seat": self.start_wall_of_seat,
            "count": self.count,
            "break": self.break_.to_dict(),
            "first_take": self.first_take.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WallBreak:
        try:
            return cls(
                check_seat(data["start_wall_of_seat"], "start_wall_of_seat"),
                int(data["count"]),
                StackRef.from_dict(data["break"], "break"),
                StackRef.from_dict(data["first_take"], "first_take"),
            )
        except (KeyError, TypeError) as error:
            raise ProcedureError(f"wall_break: missing or mistyped field {error}") from None


def break_wall(
    dealer: int,
    dice: Sequence[int],
    dice2: Sequence[int] | None = None,
    method: Method | None = None,
    *,
    stacks_per_wall: int | Sequence[int],
) -> WallBreak:
    """Where the wall opens for the dealer's ``dice`` (and the second throw ``dice2``).

    Methods (``None`` = "two_throws" when ``dice2`` is given, else "one_throw"):

    - "two_throws" 两次掷骰法 (rules-B §2.8 method 1): sum A picks the second thrower and the starting wall,
      ``seat(dealer, A)``; the count is A + B (4-24).
    - "one_throw" 一次掷骰法 (method 2): the sum picks the starting wall; the count is the smaller die.
    - "two_throws_second_sum" (Harbin, rules-B §7.2): as "two_throws", but the count is B alone.
    - "sum" (Hebei HB-3): one throw whose sum picks the starting wall and is also the count.

    Counting starts on stack 1 of the starting wall and runs clockwise, onto the 上家's wall past the end
    (fan.md §1.2); every stack counts, a half stack included. ``stacks_per_wall``: one count or four by seat.
    """
    check_seat(dealer, "dealer")
    first = check_dice(dice, "dice")
    if method is None:
        method = "one_throw" if dice2 is None else "two_throws"
    if method not in METHODS:
        raise ProcedureError(f"method: expected one of {', '.join(METHODS)}, got {method!r}")
    if method in ("one_throw", "sum"):
        if dice2 is not None:
            raise ProcedureError(f"dice2: the {method} method uses one throw, got a second {dice2!r}")
        count = min(first) if method == "one_throw" else sum(first)
    else:
        if dice2 is None:
            raise ProcedureError(f"dice2: the {method} method needs the second throw")
        second: Dice = check_dice(dice2, "dice2")
        count = sum(second) if method == "two_throws_second_sum" else sum(first) + sum(second)
    counts = check_stack_counts(stacks_per_wall)
    start = dice_seat(dealer, sum(first))
    stack = StackRef(start, 1)
    for _ in range(count - 1):
        stack = next_stack(stack, counts)
    return WallBreak(start, count, stack, next_stack(stack, counts))
