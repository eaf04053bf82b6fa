"""The live wall as the referee uses it: the head it draws from, the tail replacements come from, indicators.

After the break the tiles lie in *head order*: clockwise from ``first_take`` (rules-B §2.9: "tiles are always
taken clockwise along the wall") all the way round to the ``break_`` stack. The head takes from the front of
that order, the tail (rules-B §2.8, §2.10: the stacks counter-clockwise from the 切口) from the back.

``WallState`` is a frozen value with pure transition functions (the controller journals and replays it);
``Wall`` is a small mutable holder of the current state for callers that draw in sequence.

Choices not in the sources (rules-B §9.5):
- head draws take a stack's top tile, then its bottom tile (the only order a physical stack allows);
- the tail gives the top tile of the last stack first, then its bottom ("top_first"); ``tail_order=
  "bottom_first"`` selects the other reading;
- ``reserved`` tiles are never drawn at a drawn game (rules-B §2.13 gives no number; default 0; Guangdong's
  16 海底 tiles, rules-A §16). With ``reserve_mode="fixed"`` (default) every draw, from the head or the tail,
  and every flipped indicator uses up one live tile, so the unplayed part stays ``reserved`` tiles long;
  ``"feeds_replacements"`` takes tail draws out of the reserved tiles while any are left, so the end of the
  live wall does not move. Either way no draw is made once the live wall is empty.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property, lru_cache
from itertools import pairwise
from typing import Any, Literal

from engine.procedure.breaking import WallBreak
from engine.procedure.errors import ProcedureError, WallExhausted
from engine.procedure.layout import Position, StackRef, WallLayout
from engine.tiles import Tile, parse_tile, tile_code

TailOrder = Literal["top_first", "bottom_first"]
ReserveMode = Literal["fixed", "feeds_replacements"]
IndicatorAt = Literal["head", "tail"]


class Source(StrEnum):
    """Where a removed tile went: drawn at the head (dealing and play), at the tail, or flipped aside."""

    HEAD = "head"
    TAIL = "tail"
    INDICATOR = "indicator"


@dataclass(frozen=True)
class Removal:
    """One tile taken off the wall: its index in head order and how it left."""

    index: int
    source: Source


@dataclass(frozen=True)
class _Geometry:
    """Head order of one broken layout, shared by every state of a hand (computed once per break)."""

    positions: tuple[Position, ...]
    stack_starts: tuple[int, ...]
    """Head-order index of the first tile of each stack, plus the end."""
    tail_sequence: tuple[int, ...]
    """Head-order indices in the order the tail gives them: the last stack first."""


@lru_cache(maxsize=64)
def _geometry(layout: WallLayout, first_take: StackRef, tail_order: str) -> _Geometry:
    positions = tuple(
        Position(stack.wall_of_seat, stack.stack_index, tier)
        for stack in layout.stacks_clockwise(first_take)
        for tier in layout.tiers(stack)
    )
    starts = [i for i, p in enumerate(positions) if i == 0 or p.stack != positions[i - 1].stack]
    bounds = (*starts, len(positions))
    tail: list[int] = []
    for start, end in reversed(list(pairwise(bounds))):
        stack = range(start, end)
        tail += reversed(stack) if tail_order == "bottom_first" else stack
    return _Geometry(positions, bounds, tuple(tail))


def _within(indices: Collection[int], size: int) -> bool:
    """Whether every index is one of ``size`` places."""
    return not indices or (min(indices) >= 0 and max(indices) < size)


@dataclass(frozen=True)
class WallState:
    """Everything the wall knows. ``faces`` are in head order; ``None`` = a face the referee cannot see."""

    layout: WallLayout
    first_take: StackRef
    faces: tuple[Tile | None, ...]
    removed: tuple[Removal, ...] = ()
    reserved: int = 0
    tail_order: TailOrder = "top_first"
    reserve_mode: ReserveMode = "fixed"
    marked: frozenset[int] = frozenset()
    """Head-order indices of the marked copies (red fives, ``TileSet.marked``)."""

    def __post_init__(self) -> None:
        if len(self.faces) != self.layout.size:
            raise ProcedureError(f"wall.faces: {len(self.faces)} tiles for a layout of {self.layout.size}")
        reserved = self.reserved
        if isinstance(reserved, bool) or not isinstance(reserved, int) or not 0 <= reserved <= self.layout.size:
            raise ProcedureError(f"reserved: expected 0-{self.layout.size} tiles, got {self.reserved!r}")
        if self.tail_order not in ("top_first", "bottom_first"):
            raise ProcedureError(f"tail_order: expected 'top_first' or 'bottom_first', got {self.tail_order!r}")
        if self.reserve_mode not in ("fixed", "feeds_replacements"):
            raise ProcedureError(f"reserve_mode: expected 'fixed' or 'feeds_replacements', got {self.reserve_mode!r}")
        # min/max rather than a check per index: every draw makes a new state (a replay draws thousands)
        indices = [removal.index for removal in self.removed]
        if len(set(indices)) != len(indices) or not _within(indices, len(self.faces)):
            raise ProcedureError(f"wall.removed: places must be distinct indices 0-{len(self.faces) - 1}")
        if not _within(self.marked, len(self.faces)):
            raise ProcedureError(f"wall.marked: places must be indices 0-{len(self.faces) - 1}")
        seat, index = self.first_take.wall_of_seat, self.first_take.stack_index
        if not 1 <= index <= self.layout.stack_counts[seat]:
            raise ProcedureError(f"wall.first_take: seat {seat}'s wall has no stack {index}")

    @property
    def positions(self) -> tuple[Position, ...]:
        """The place of every head-order index."""
        return _geometry(self.layout, self.first_take, self.tail_order).positions

    @property
    def _stack_starts(self) -> tuple[int, ...]:
        return _geometry(self.layout, self.first_take, self.tail_order).stack_starts

    @property
    def _tail_sequence(self) -> tuple[int, ...]:
        return _geometry(self.layout, self.first_take, self.tail_order).tail_sequence

    @cached_property
    def _gone(self) -> frozenset[int]:
        return frozenset(removal.index for removal in self.removed)

    @property
    def known(self) -> bool:
        return all(face is not None for face in self.faces)

    @property
    def remaining(self) -> int:
        """Tiles still standing, the reserved ones included."""
        return len(self.faces) - len(self.removed)

    @property
    def unplayed(self) -> int:
        """Standing tiles that will never be drawn: the reserved ones not yet used for replacements."""
        if self.reserve_mode == "fixed":
            return self.reserved
        return max(0, self.reserved - sum(removal.source == Source.TAIL for removal in self.removed))

    @property
    def live_remaining(self) -> int:
        """Tiles that may still be drawn."""
        return max(0, self.remaining - self.unplayed)

    @property
    def exhausted(self) -> bool:
        return self.live_remaining == 0

    def standing(self) -> list[int]:
        """Head-order indices still on the table, in head order."""
        return [i for i in range(len(self.faces)) if i not in self._gone]

    def standing_places(self) -> dict[Position, Tile | None]:
        """Face of every place still on the table, by place: what a renderer draws, and per-side counts
        the controller can hold against the table's own."""
        return {self.positions[i]: self.faces[i] for i in self.standing()}

    def taken(self, source: Source) -> list[Tile | None]:
        """Faces that left the wall by ``source``, in the order they left."""
        return [self.faces[r.index] for r in self.removed if r.source == source]

    def next_head(self) -> int:
        return next(i for i in range(len(self.faces)) if i not in self._gone)

    def next_tail(self) -> int:
        return next(i for i in self._tail_sequence if i not in self._gone)

    def stack_from_tail(self, number: int) -> tuple[int, ...]:
        """Head-order indices of the ``number``-th stack (from 1) counted from the tail end, top first, whether its
        tiles were taken or not: riichi's dead wall is addressed so (its indicators stand on stacks 3-7)."""
        starts = self._stack_starts
        if not 1 <= number < len(starts):
            raise ProcedureError(f"stack {number} from the tail: the wall has {len(starts) - 1} stacks")
        return tuple(range(starts[-number - 1], starts[-number]))

    def stack_top(self, number: int) -> int:
        """Index of the upper standing tile of the ``number``-th stack (from 1) that still holds tiles,
        counted from the head."""
        holding = [[i for i in range(start, end) if i not in self._gone] for start, end in pairwise(self._stack_starts)]
        holding = [stack for stack in holding if stack]
        if not 1 <= number <= len(holding):
            raise ProcedureError(f"stack {number} from the head: only {len(holding)} stacks hold tiles")
        return holding[number - 1][0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "wall_tiles": list(self.layout.wall_tiles),
            "first_take": self.first_take.to_dict(),
            "faces": [None if face is None else tile_code(face) for face in self.faces],
            "removed": [[removal.index, str(removal.source)] for removal in self.removed],
            "reserved": self.reserved,
            "tail_order": self.tail_order,
            "reserve_mode": self.reserve_mode,
        } | ({"marked": sorted(self.marked)} if self.marked else {})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> WallState:
        """The inverse of ``to_dict``; a malformed field raises ``ProcedureError`` naming it."""
        try:
            field = "wall_tiles"
            layout = WallLayout(tuple(data[field]))
            field = "first_take"
            first_take = StackRef.from_dict(data[field], field)
            field = "faces"
            faces = tuple(None if code is None else parse_tile(code) for code in data[field])
            field = "removed"
            removed = tuple(Removal(int(index), Source(source)) for index, source in data[field])
            field = "reserved"
            reserved = int(data.get(field, 0))
            return cls(
                layout,
                first_take,
                faces,
                removed,
                reserved,
                data.get("tail_order", "top_first"),
                data.get("reserve_mode", "fixed"),
                frozenset(int(index) for index in data.get("marked", ())),
            )
        except ProcedureError:
            raise
        except (KeyError, TypeError, ValueError) as error:
            raise ProcedureError(f"wall.{field}: cannot be read ({error})") from None


def new_wall_state(
    tiles: Sequence[Tile | None],
    wall_break: WallBreak,
    layout: WallLayout | None = None,
    reserved: int = 0,
    tail_order: TailOrder = "top_first",
    reserve_mode: ReserveMode = "fixed",
    marked: Collection[int] = (),
) -> WallState:
    """A broken wall from ``tiles`` in address order (``WallLayout.positions``); default layout by size. ``marked``
    are the address-order indices of the marked copies among ``tiles``."""
    layout = layout or WallLayout.for_size(len(tiles))
    if len(tiles) != layout.size:
        raise ProcedureError(f"tiles: {len(tiles)} tiles for walls of {list(layout.wall_tiles)}")
    addresses = layout.positions()
    face_at = dict(zip(addresses, tiles, strict=True))
    blank = WallState(layout, wall_break.first_take, (None,) * layout.size, (), reserved, tail_order, reserve_mode)
    head = {position: index for index, position in enumerate(blank.positions)}
    return replace(
        blank,
        faces=tuple(face_at[position] for position in blank.positions),
        marked=frozenset(head[addresses[address]] for address in marked),
    )


def take(state: WallState, indices: Iterable[int], source: Source) -> tuple[WallState, list[Tile | None]]:
    """Remove the tiles at head-order ``indices``; each needs a live tile left, else ``WallExhausted``."""
    indices = list(indices)
    if len(indices) > state.live_remaining:
        raise WallExhausted(
            f"wall: {len(indices)} tile(s) asked from the {source}, {state.live_remaining} live tile(s) left"
        )
    removals = tuple(Removal(i, source) for i in indices)
    return replace(state, removed=state.removed + removals), [state.faces[i] for i in indices]


def _take_one(state: WallState, index_of: str, source: Source) -> tuple[WallState, Tile | None]:
    if state.exhausted:
        raise WallExhausted(f"wall: no live tile left to take from the {source}")
    index = state.next_head() if index_of == "head" else state.next_tail()
    new_state, (face,) = take(state, [index], source)
    return new_state, face


def draw(state: WallState) -> tuple[WallState, Tile | None]:
    """The next head tile: a player's ordinary draw (and every grab of the deal)."""
    return _take_one(state, "head", Source.HEAD)


def draw_replacement(state: WallState) -> tuple[WallState, Tile | None]:
    """The next tail tile: a kong or flower replacement (补牌, rules-B §2.10)."""
    return _take_one(state, "tail", Source.TAIL)


def flip_indicator(state: WallState, at: IndicatorAt) -> tuple[WallState, Tile | None]:
    """Turn the next ``at`` tile face up and set it aside, out of play (wild.md W-5).

    "head": the next tile the head would give (Hubei: after the deal, the next tile a non-dealer would
    draw; Guangdong: "the first wall tile" before the deal). "tail": the tile the tail would give next,
    read as the "last wall tile" of Harbin's 宝 and of its 换宝 (rules-B §7.2; wild.md §6.1). Reading "last"
    as the tile the head would reach last (the bottom of the break stack) is ``tail_order="bottom_first"``.
    """
    if at not in ("head", "tail"):
        raise ProcedureError(f"indicator: expected 'head' or 'tail', got {at!r}")
    return _take_one(state, at, Source.INDICATOR)


class Wall:
    """The current ``WallState`` of one hand, advanced by draws; ``state`` is the value to journal."""

    def __init__(self, state: WallState) -> None:
        self.state = state

    @classmethod
    def build(
        cls,
        tiles: Sequence[Tile],
        wall_break: WallBreak,
        layout: WallLayout | None = None,
        reserved: int = 0,
        tail_order: TailOrder = "top_first",
        reserve_mode: ReserveMode = "fixed",
        marked: Collection[int] = (),
    ) -> Wall:
        """A wall of known faces; ``tiles`` fill the places in address order (``WallLayout.positions``), the
        ``marked`` indices of ``tiles`` being marked copies."""
        if any(tile is None for tile in tiles):
            raise ProcedureError("tiles: a known wall needs every face; use Wall.unknown for hidden faces")
        return cls(new_wall_state(tiles, wall_break, layout, reserved, tail_order, reserve_mode, marked))

    @classmethod
    def unknown(
        cls,
        size: int,
        wall_break: WallBreak,
        layout: WallLayout | None = None,
        reserved: int = 0,
        tail_order: TailOrder = "top_first",
        reserve_mode: ReserveMode = "fixed",
    ) -> Wall:
        """A wall whose faces the referee cannot see: the same counting, every draw gives ``None``."""
        return cls(new_wall_state([None] * size, wall_break, layout, reserved, tail_order, reserve_mode))

    def _advance(self, result: tuple[WallState, Any]) -> Any:
        self.state, value = result
        return value

    def draw(self) -> Tile | None:
        return self._advance(draw(self.state))

    def draw_replacement(self) -> Tile | None:
        return self._advance(draw_replacement(self.state))

    def flip_indicator(self, at: IndicatorAt) -> Tile | None:
        return self._advance(flip_indicator(self.state, at))

    def take_stack_tops(self, numbers: Sequence[int]) -> list[Tile | None]:
        """Take the upper standing tile of each of the ``numbers``-th stacks from the head (1 = the stack
        the head is in), all located before any is taken."""
        indices = [self.state.stack_top(number) for number in numbers]
        return self._advance(take(self.state, indices, Source.HEAD))

    @property
    def last_marked(self) -> bool:
        """Whether the tile taken last is a marked copy (a red five)."""
        state = self.state
        return bool(state.marked) and state.removed[-1].index in state.marked

    def next_position(self) -> Position:
        """Where the next ordinary draw comes from."""
        return self.state.positions[self.state.next_head()]

    def next_replacement_position(self) -> Position:
        return self.state.positions[self.state.next_tail()]

    @property
    def indicators(self) -> list[Tile | None]:
        """Flipped indicator faces, oldest first; the last one is current (Harbin 换宝 flips again)."""
        return self.state.taken(Source.INDICATOR)

    @property
    def live_remaining(self) -> int:
        return self.state.live_remaining

    @property
    def exhausted(self) -> bool:
        return self.state.exhausted

    def to_dict(self) -> dict[str, Any]:
        return self.state.to_dict()

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Wall:
        return cls(WallState.from_dict(data))
