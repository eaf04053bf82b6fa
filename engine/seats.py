"""What the referee knows of one player: concealed tiles (seen or not), declared melds, discards, flowers."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.notation import Meld, format_meld
from engine.tiles import NUM_TILE_IDS, Tile, format_tiles, from_counts


@dataclass
class SeatState:
    """One seat's tiles. ``known`` counts the concealed tiles whose faces the referee knows (all of them with
    full information); ``unknown`` is how many more it holds unseen (a table sees only backs).

    Marked copies (red fives, ``TileSet.marked``) are counted beside the faces: ``marked`` among the concealed
    tiles, ``marked_shown`` in the melds, ``marked_river`` among the discards still in the river. An action names
    a face, not a copy, so a seat plays its plain copies first and lets a marked one go only when no plain copy of
    its face is left (as the riichi players of ``mjtable simulate`` always did; a table that sees which copy was
    played would name it in the action).
    """

    known: list[int] = field(default_factory=lambda: [0] * NUM_TILE_IDS)
    unknown: int = 0
    melds: list[Meld] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    """The seat's river; a discard claimed by another player leaves it for that player's meld."""
    flowers: list[Tile] = field(default_factory=list)
    played: list[Tile] = field(default_factory=list)
    """Every discard the seat made, in order, those claimed away included (riichi's furiten and 流し満貫)."""
    marked: dict[Tile, int] = field(default_factory=dict)
    marked_shown: int = 0
    marked_river: int = 0

    @classmethod
    def dealt(cls, tiles: list[Tile | None], marked: list[Tile] | None = None) -> SeatState:
        seat = cls()
        for tile in tiles:
            seat.add(tile)
        for tile in marked or ():
            seat.marked[tile] = seat.marked.get(tile, 0) + 1
        return seat

    @property
    def size(self) -> int:
        """Concealed tiles held: 13 - 3k between turns, 14 - 3k in turn."""
        return sum(self.known) + self.unknown

    def could_hold(self, tile: Tile, n: int = 1) -> bool:
        """Whether the seat may hold ``n`` copies of ``tile``: certainly with full information, possibly
        (unseen tiles) with partial information."""
        return self.known[tile] + self.unknown >= n

    def add(self, tile: Tile | None, marked: bool = False) -> None:
        if tile is None:
            self.unknown += 1
        else:
            self.known[tile] += 1
            if marked:
                self.marked[tile] = self.marked.get(tile, 0) + 1

    def take(self, tile: Tile, n: int = 1, marked_first: bool = False) -> int:
        """Remove ``n`` copies of ``tile``, the seen ones first (callers check ``could_hold`` before), the plain
        ones before the marked unless ``marked_first``; returns how many marked copies left. A marked copy played
        from the unseen tiles (a table that sees only backs, told by the camera) is one more marked copy gone: the
        caller passes ``marked_first`` only for a face the set marks."""
        from_known = min(n, self.known[tile])
        self.known[tile] -= from_known
        self.unknown -= n - from_known
        held = self.marked.get(tile, 0)
        if marked_first and not held and n > from_known:
            return 1
        gone = min(n, held) if marked_first else max(0, held - self.known[tile])
        if gone:
            self.marked[tile] = held - gone
            if not self.marked[tile]:
                del self.marked[tile]
        return gone

    def marked_held(self) -> int:
        """Marked copies in the seat's hand and melds."""
        return sum(self.marked.values()) + self.marked_shown

    def concealed_tiles(self) -> list[Tile]:
        """The known concealed tiles, sorted."""
        return from_counts(self.known)

    def to_dict(
        self,
        tiles: Callable[[Iterable[Tile]], str] = format_tiles,
        meld: Callable[[Meld], str] = format_meld,
    ) -> dict[str, Any]:
        """The seat in the ruleset's notation (``tiles``, ``meld``: 十万 writes its own faces)."""
        data = {
            "concealed": tiles(self.concealed_tiles()),
            "unknown": self.unknown,
            "melds": [meld(one) for one in self.melds],
            "discards": tiles(self.discards),
            "flowers": tiles(self.flowers),
        }
        marked = self.marked_held() + self.marked_river
        return data | ({"marked": marked} if marked else {})
