"""The physical walls (rules-B §2.7, fan.md §1.2): four walls of stacks (摞) two tiers high, and addressing.

A stack is addressed by ``StackRef(wall_of_seat, stack_index)``: the wall in front of seat ``wall_of_seat``,
stacks numbered 1..N from the owner's right end. Counting 1 → N runs clockwise seen from above, and after
stack N of seat s it continues with stack 1 of the wall of s's 上家 ``(s + 3) % 4`` (fan.md §1.2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.procedure.dice import SEATS, check_seat
from engine.procedure.errors import ProcedureError


class Tier(StrEnum):
    TOP = "top"
    BOTTOM = "bottom"


@dataclass(frozen=True, order=True)
class StackRef:
    """One stack: the wall of ``wall_of_seat``, ``stack_index`` 1..N from the owner's right end."""

    wall_of_seat: int
    stack_index: int

    def __post_init__(self) -> None:
        check_seat(self.wall_of_seat, "wall_of_seat")
        if isinstance(self.stack_index, bool) or not isinstance(self.stack_index, int) or self.stack_index < 1:
            raise ProcedureError(f"stack_index: expected a stack number from 1, got {self.stack_index!r}")

    def to_dict(self) -> dict[str, int]:
        return {"wall_of_seat": self.wall_of_seat, "stack_index": self.stack_index}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], field: str = "stack") -> StackRef:
        try:
            return cls(data["wall_of_seat"], data["stack_index"])
        except (KeyError, TypeError, ProcedureError) as error:
            raise ProcedureError(
                f"{field}: expected {{'wall_of_seat': 0-3, 'stack_index': 1..N}}, got {data!r}"
            ) from error


@dataclass(frozen=True)
class Position:
    """One tile place: a stack and its tier."""

    wall_of_seat: int
    stack_index: int
    tier: Tier

    @property
    def stack(self) -> StackRef:
        return StackRef(self.wall_of_seat, self.stack_index)

    def to_dict(self) -> dict[str, Any]:
        return {"wall_of_seat": self.wall_of_seat, "stack_index": self.stack_index, "tier": str(self.tier)}


def check_stack_counts(stacks_per_wall: int | Sequence[int]) -> tuple[int, ...]:
    """Stacks of the walls of seats 0-3; one number means four equal walls."""
    counts = (stacks_per_wall,) * SEATS if isinstance(stacks_per_wall, int) else tuple(stacks_per_wall)
    if len(counts) != SEATS or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in counts):
        raise ProcedureError(
            f"stacks_per_wall: expected a positive stack count or four of them, got {stacks_per_wall!r}"
        )
    return counts


def next_stack(stack: StackRef, stack_counts: Sequence[int]) -> StackRef:
    """The stack clockwise after ``stack``: the next index, or stack 1 of the 上家's wall after the last."""
    if stack.stack_index < stack_counts[stack.wall_of_seat]:
        return StackRef(stack.wall_of_seat, stack.stack_index + 1)
    return StackRef((stack.wall_of_seat + SEATS - 1) % SEATS, 1)


@dataclass(frozen=True)
class WallLayout:
    """How many tiles stand in the wall of each seat 0-3.

    Each wall is stacks of two; an odd wall ends in a single tile (a half stack, tier ``bottom``) as its last
    stack N at the owner's left end, so it is still counted as a stack when the wall is broken
    [outside the sources; another placement would be a new layout parameter].
    """

    wall_tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        tiles = self.wall_tiles
        if len(tiles) != SEATS or any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in tiles):
            raise ProcedureError(f"wall_tiles: expected four positive tile counts, got {tiles!r}")

    @classmethod
    def for_size(cls, size: int) -> WallLayout:
        """Four equal walls of ``size / 4`` tiles.

        136 → 17 stacks, 144 → 18 (rules-B §2.7), 112 → 14 (rules-B §7.2, wild.md §6.1). 108: the sources give
        no layout (rules-A A42); equal walls give 27 tiles = 13 stacks and a single tile, which this layout
        builds by default [outside the sources]; a table that builds 14/13/14/13 stacks is
        ``WallLayout((28, 26, 28, 26))``.
        """
        if isinstance(size, bool) or not isinstance(size, int) or size < SEATS or size % SEATS:
            raise ProcedureError(f"tile set size: expected a positive multiple of 4, got {size!r}")
        return cls((size // SEATS,) * SEATS)

    @property
    def size(self) -> int:
        return sum(self.wall_tiles)

    @property
    def stack_counts(self) -> tuple[int, ...]:
        return tuple((n + 1) // 2 for n in self.wall_tiles)

    def tiers(self, stack: StackRef) -> tuple[Tier, ...]:
        """Tiers of a stack, top first: a half stack has only its bottom tile."""
        tiles = self.wall_tiles[stack.wall_of_seat]
        if tiles % 2 and stack.stack_index == (tiles + 1) // 2:
            return (Tier.BOTTOM,)
        return (Tier.TOP, Tier.BOTTOM)

    def positions(self) -> tuple[Position, ...]:
        """Every place in *address order*: walls of seats 0, 1, 2, 3, stacks 1..N, top then bottom.

        This is the order an explicit tile sequence fills the walls in (``Wall.build``).
        """
        return tuple(
            Position(seat, index, tier)
            for seat in range(SEATS)
            for index in range(1, self.stack_counts[seat] + 1)
            for tier in self.tiers(StackRef(seat, index))
        )

    def stacks_clockwise(self, start: StackRef) -> tuple[StackRef, ...]:
        """All stacks of the table clockwise from ``start`` (the order tiles are taken in, rules-B §2.9)."""
        counts = self.stack_counts
        if not 1 <= start.stack_index <= counts[start.wall_of_seat]:
            raise ProcedureError(f"stack {start.stack_index} of seat {start.wall_of_seat}'s wall does not exist")
        stacks = [start]
        for _ in range(sum(counts) - 1):
            stacks.append(next_stack(stacks[-1], counts))
        return tuple(stacks)
