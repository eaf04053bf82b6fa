"""What the referee knows of one player: concealed tiles (seen or not), declared melds, discards, flowers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.notation import Meld, format_meld
from engine.tiles import NUM_TILE_IDS, Tile, format_tiles, from_counts


@dataclass
class SeatState:
    """One seat's tiles. ``known`` counts the concealed tiles whose faces the referee knows (all of them with
    full information); ``unknown`` is how many more it holds unseen (a table sees only backs)."""

    known: list[int] = field(default_factory=lambda: [0] * NUM_TILE_IDS)
    unknown: int = 0
    melds: list[Meld] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    """The seat's river; a discard claimed by another player leaves it for that player's meld."""
    flowers: list[Tile] = field(default_factory=list)

    @classmethod
    def dealt(cls, tiles: list[Tile | None]) -> SeatState:
        seat = cls()
        for tile in tiles:
            seat.add(tile)
        return seat

    @property
    def size(self) -> int:
        """Concealed tiles held: 13 - 3k between turns, 14 - 3k in turn."""
        return sum(self.known) + self.unknown

    def could_hold(self, tile: Tile, n: int = 1) -> bool:
        """Whether the seat may hold ``n`` copies of ``tile``: certainly with full information, possibly
        (unseen tiles) with partial information."""
        return self.known[tile] + self.unknown >= n

    def add(self, tile: Tile | None) -> None:
        if tile is None:
            self.unknown += 1
        else:
            self.known[tile] += 1

    def take(self, tile: Tile, n: int = 1) -> None:
        """Remove ``n`` copies of ``tile``, the seen ones first (callers check ``could_hold`` before)."""
        from_known = min(n, self.known[tile])
        self.known[tile] -= from_known
        self.unknown -= n - from_known

    def concealed_tiles(self) -> list[Tile]:
        """The known concealed tiles, sorted."""
        return from_counts(self.known)

    def to_dict(self) -> dict[str, Any]:
        return {
            "concealed": format_tiles(self.concealed_tiles()),
            "unknown": self.unknown,
            "melds": [format_meld(meld) for meld in self.melds],
            "discards": format_tiles(self.discards),
            "flowers": format_tiles(self.flowers),
        }
